"""Search quality: does what a reader types find the paper they mean?

Every query in tests/data/search_queries.yaml (written by hand from the abstracts) names the
paper it should find. Each one is typed into the box of search.html, opened once per engine in
Debian's headless Chromium, and submitted; the ranked result links are read, for both engines of
the search page:

- Pagefind: the built site served over HTTP under a subpath (http://127.0.0.1:PORT/REPO/);
- the offline fallback: search.html opened straight from disk (file://).

The contract search.html follows for both engines:

- the query box is `#search-input`;
- results render into `#search-results`, which gets `data-query` set to the exact query string
  once the results for that query are rendered, and `data-engine` set to `pagefind` or `fallback`;
- `#search-results` holds one `a.result-link` per result, in ranked order, whose href contains
  `papers/<bucket>/<slug>/`.

A query is a hit when its paper is among the first three results. The test prints a table per
engine (top-1, top-3, per kind, and every miss with what came first instead) and requires the top-3
rate each engine has reached: every query for Pagefind, 85% for the fallback (whose index keeps only
each paper's most telling words).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml

from catalogue.routes import bucket
from conftest import BuiltSite, serve_under_subpath

QUERIES_FILE = Path(__file__).resolve().parent / "data" / "search_queries.yaml"
KINDS = ("name", "title-words", "key-phrase", "paraphrase", "word-form")
MIN_QUERIES = 30
QUERY_TIMEOUT_MS = 10_000
TOP = 3
MIN_TOP3 = {"pagefind": 1.0, "fallback": 0.85}
GIVE_UP_AFTER = 3  # consecutive queries with no rendered results: the page does not follow the contract

SLUG_IN_HREF = re.compile(r"(?:^|/)papers/[0-9a-f]{2}/([^/?#]+)/")

SUBMIT = """query => {
    delete document.querySelector('#search-results').dataset.query;
    const input = document.querySelector('#search-input');
    input.value = query;
    input.form.requestSubmit();
}"""
RENDERED = "query => document.querySelector('#search-results')?.dataset.query === query"
READ_RESULTS = """() => {
    const results = document.querySelector('#search-results');
    return {
        engine: results.dataset.engine ?? null,
        hrefs: Array.from(results.querySelectorAll('a.result-link'), link => link.href),
    };
}"""


# --- the queries ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Query:
    query: str
    expect: str
    kind: str


def load_queries() -> list[Query]:
    entries = yaml.safe_load(QUERIES_FILE.read_text(encoding="utf-8"))
    return [Query(**entry) for entry in entries]


def test_query_file_is_well_formed(built_site: BuiltSite):
    entries = yaml.safe_load(QUERIES_FILE.read_text(encoding="utf-8"))
    assert isinstance(entries, list), "the file is a list of entries"
    assert len(entries) >= MIN_QUERIES, f"only {len(entries)} queries"

    slugs = {path.parent.name for path in (built_site.out / "papers").glob("*/*/index.html")}
    assert slugs, "the build has no paper pages"
    problems, seen = [], set()
    for number, entry in enumerate(entries, 1):
        if not isinstance(entry, dict) or set(entry) != {"query", "expect", "kind"}:
            problems.append(f"entry {number}: needs exactly query, expect, kind: {entry!r}")
            continue
        query, expect, kind = entry["query"], entry["expect"], entry["kind"]
        if not isinstance(query, str) or not query.strip() or query != query.strip():
            problems.append(f"entry {number}: query must be a non-empty string without outer spaces: {query!r}")
        elif query.lower() in seen:
            problems.append(f"entry {number}: duplicate query {query!r}")
        else:
            seen.add(query.lower())
        if expect not in slugs:
            problems.append(f"entry {number} ({query!r}): no page papers/{bucket(expect)}/{expect}/index.html")
        if kind not in KINDS:
            problems.append(f"entry {number} ({query!r}): kind {kind!r} is not one of {KINDS}")
    assert problems == [], "\n".join(problems)
    assert {entry["kind"] for entry in entries} == set(KINDS), "every kind has queries"


# --- serving and reading the search page ----------------------------------------------------


@pytest.fixture(scope="module")
def served_site(built_site: BuiltSite, tmp_path_factory) -> Iterator[str]:
    with serve_under_subpath(built_site.out, tmp_path_factory.mktemp("served-quality")) as base:
        yield base


@dataclass
class Outcome:
    query: Query
    slugs: list[str] = field(default_factory=list)  # result papers in ranked order
    engine: str | None = None
    timed_out: bool = False

    @property
    def rank(self) -> int | None:
        return self.slugs.index(self.query.expect) + 1 if self.query.expect in self.slugs else None

    def hit(self, top: int) -> bool:
        return self.rank is not None and self.rank <= top


def slug_of(href: str) -> str:
    match = SLUG_IN_HREF.search(href)
    return match.group(1) if match else f"<not a paper: {href}>"


def run_query(page, query: Query) -> Outcome:
    """Type the query into the open search page's box and submit it, as a reader would."""
    page.evaluate(SUBMIT, query.query)
    try:
        page.wait_for_function(RENDERED, arg=query.query, timeout=QUERY_TIMEOUT_MS)
    except Exception:  # Playwright's TimeoutError
        return Outcome(query, timed_out=True)
    found = page.evaluate(READ_RESULTS)
    return Outcome(query, [slug_of(href) for href in found["hrefs"]], found["engine"])


def report(engine: str, outcomes: list[Outcome]) -> str:
    total = len(outcomes)
    top1 = sum(outcome.hit(1) for outcome in outcomes)
    top3 = sum(outcome.hit(TOP) for outcome in outcomes)
    lines = [f"{'engine':<9} {'queries':>7} {'top-1':>12} {'top-3':>12}",
             f"{engine:<9} {total:>7} {top1:>4} ({top1 / total:4.0%}) {top3:>4} ({top3 / total:4.0%})"]
    by_kind = Counter(outcome.query.kind for outcome in outcomes)
    kind_hits = Counter(outcome.query.kind for outcome in outcomes if outcome.hit(TOP))
    lines.append("  top-3 by kind: " + ", ".join(f"{kind} {kind_hits[kind]}/{by_kind[kind]}"
                                                 for kind in KINDS if by_kind[kind]))
    misses = [outcome for outcome in outcomes if not outcome.hit(TOP)]
    if misses:
        lines.append(f"  misses ({len(misses)}): query [kind] -> expected | actual top {TOP} (rank of expected)")
    for outcome in misses:
        if outcome.timed_out:
            got = f"no results rendered within {QUERY_TIMEOUT_MS // 1000} s"
        else:
            got = ", ".join(outcome.slugs[:TOP]) or "(no results)"
            got += f" (rank {outcome.rank} of {len(outcome.slugs)})" if outcome.rank else \
                f" (not among {len(outcome.slugs)})"
        lines.append(f"    {outcome.query.query!r} [{outcome.query.kind}] -> {outcome.query.expect} | {got}")
    return "\n".join(lines)


# --- the quality test -----------------------------------------------------------------------


@pytest.mark.parametrize("engine", ["pagefind", "fallback"])
def test_search_finds_the_expected_paper_in_the_top_3(engine: str, built_site: BuiltSite, browser,
                                                     request, capsys):
    queries = load_queries()
    if engine == "pagefind":
        search_page = request.getfixturevalue("served_site") + "search.html"
    else:
        search_page = (built_site.out / "search.html").as_uri()

    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(QUERY_TIMEOUT_MS)
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(f"console: {message.text}"))
    page.on("pageerror", lambda error: errors.append(f"pageerror: {error}"))
    outcomes: list[Outcome] = []
    try:
        page.goto(search_page)
        assert page.locator("#search-input").count() == 1, f"no #search-input on {search_page}"
        for query in queries:
            outcomes.append(run_query(page, query))
            if len(outcomes) >= GIVE_UP_AFTER and all(o.timed_out for o in outcomes[-GIVE_UP_AFTER:]):
                pytest.fail(f"{engine}: {GIVE_UP_AFTER} queries in a row rendered no results within "
                            f"{QUERY_TIMEOUT_MS // 1000} s (no #search-results[data-query] matching the "
                            f"query) at {search_page}; page errors: {sorted(set(errors))[:5]}")
    finally:
        context.close()

    table = report(engine, outcomes)
    with capsys.disabled():
        print(f"\n{table}")

    engines = Counter(outcome.engine for outcome in outcomes if not outcome.timed_out)
    assert set(engines) == {engine}, f"#search-results[data-engine] should be {engine!r}, saw {dict(engines)}"
    rate = sum(outcome.hit(TOP) for outcome in outcomes) / len(outcomes)
    assert rate >= MIN_TOP3[engine], (
        f"{engine} top-{TOP} rate {rate:.0%} < {MIN_TOP3[engine]:.0%}\n{table}"
        + (f"\npage errors: {sorted(set(errors))[:10]}" if errors else ""))
