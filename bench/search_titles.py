"""Search on real titles: a query of a paper's three most distinctive title words should find it.

The rule, written once for bench/corpus_build.py and tests/test_title_search.py:

- a title's words are its text with math (`$...$`, `\\(...\\)`, `\\[...\\]`) and punctuation removed,
  lower-cased, without the search's stop words (catalogue/text.py's STOPWORDS) and words
  under three letters, each word once;
- a word's document frequency is the number of the build's titles that hold it;
- a paper's query is its three rarest title words (ties by order in the title), written in the
  title's order; a title with fewer such words gives them all; one with none gives no query.

The papers queried are drawn at random (`draw`), with a seed that is printed so that a run can
be replayed. Every query of one engine runs inside one page (`run_queries`): it sets search.html's
box, submits the form and waits for `#search-results[data-query]` to be that query (the contract
tests/test_search_quality.py documents), so 300 queries cost no navigation each; the pages of
the two engines run at the same time.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from catalogue.text import STOPWORDS

QUERY_WORDS = 3
MIN_LETTERS = 3
TOP = 3
QUERY_TIMEOUT_MS = 10_000
TARGETS = {"pagefind": 0.95, "fallback": 0.85}  # top-3 rate hosted (Pagefind) and from disk (the offline index)
ENGINE_NAMES = {"pagefind": "hosted (Pagefind, http, under /REPO/)", "fallback": "disk (offline index, file://)"}

MATH = re.compile(r"\$\$.*?\$\$|\$[^$]*\$|\\\(.*?\\\)|\\\[.*?\\\]", re.DOTALL)
WORD = re.compile(r"[^\W_]+")
SLUG_IN_HREF = re.compile(r"(?:^|/)papers/[0-9a-f]{2}/([^/?#]+)/")


@dataclass(frozen=True)
class Query:
    query: str
    slug: str  # the paper the query should find
    title: str


@dataclass
class Outcome:
    query: Query
    slugs: list[str] = field(default_factory=list)  # the results' papers, in ranked order
    titles: list[str] = field(default_factory=list)
    engine: str | None = None
    timed_out: bool = False

    @property
    def rank(self) -> int | None:
        return self.slugs.index(self.query.slug) + 1 if self.query.slug in self.slugs else None

    @property
    def hit(self) -> bool:
        return self.rank is not None and self.rank <= TOP


# --- the rule (pure) -------------------------------------------------------------------------


def title_words(title: str) -> list[str]:
    """The distinct words of a title that a query may use, in title order."""
    text = MATH.sub(" ", title).lower()
    found = [word for word in WORD.findall(text) if len(word) >= MIN_LETTERS and word not in STOPWORDS]
    return list(dict.fromkeys(found))


def title_frequency(titles: Iterable[str]) -> Counter:
    """{word: how many titles hold it}."""
    frequency: Counter = Counter()
    for title in titles:
        frequency.update(title_words(title))
    return frequency


def title_query(title: str, frequency: Counter, count: int = QUERY_WORDS) -> str:
    """The `count` rarest words of the title (ties by order in the title), in title order; "" when none."""
    found = title_words(title)
    rarest = sorted(range(len(found)), key=lambda at: (frequency[found[at]], at))[:count]
    return " ".join(found[at] for at in sorted(rarest))


def draw(papers: list[tuple[str, str]], count: int, seed: int) -> list[Query]:
    """`count` papers (slug, title) at random by `seed`, with the queries of all `papers`' titles;
    papers whose title gives no query are not drawn."""
    frequency = title_frequency(title for _, title in papers)
    queries = [Query(query, slug, title) for slug, title in papers if (query := title_query(title, frequency))]
    return random.Random(seed).sample(queries, min(count, len(queries)))


def new_seed() -> int:
    return random.SystemRandom().randrange(2**32)


def read_site_papers(site: Path) -> list[tuple[str, str]]:
    """(slug, title as plain text) of every paper of a built site, from the parts papers.json names, in slug order."""
    index = json.loads((site / "papers.json").read_text(encoding="utf-8"))
    return sorted((paper["slug"], paper["title"]) for part in index["parts"]
                  for paper in json.loads((site / part["url"]).read_text(encoding="utf-8"))["papers"])


def slug_of(href: str) -> str:
    match = SLUG_IN_HREF.search(href)
    return match.group(1) if match else f"<not a paper: {href}>"


# --- running the queries in one page ---------------------------------------------------------

GIVE_UP_AFTER = 3  # queries in a row with nothing rendered: the page does not follow the contract; stop
START = """({queries, timeout, giveUpAfter}) => {
    window.titleSearchDone = (async () => {
        const input = document.querySelector('#search-input');
        const results = document.querySelector('#search-results');
        // Resolves once the page says it shows the query's results (or the timeout passes): an
        // observer, not polling, so the waiting takes no time from the search itself.
        const answered = query => new Promise(resolve => {
            const observer = new MutationObserver(() => {
                if (results.dataset.query === query) { observer.disconnect(); clearTimeout(timer); resolve(); }
            });
            const timer = setTimeout(() => { observer.disconnect(); resolve(); }, timeout);
            observer.observe(results, {attributes: true, attributeFilter: ['data-query']});
        });
        const found = [];
        let unanswered = 0;
        for (const query of queries) {
            if (unanswered >= giveUpAfter) {
                found.push({timedOut: true, engine: null, hrefs: [], titles: []});
                continue;
            }
            delete results.dataset.query;
            input.value = query;
            const shown = answered(query);
            input.form.requestSubmit();
            await shown;
            const timedOut = results.dataset.query !== query;
            unanswered = timedOut ? unanswered + 1 : 0;
            const links = Array.from(results.querySelectorAll('a.result-link'));
            found.push({timedOut, engine: results.dataset.engine ?? null,
                        hrefs: links.map(link => link.href), titles: links.map(link => link.textContent)});
        }
        return found;
    })();
}"""


def start_queries(page, search_page: str, queries: list[Query]) -> None:
    """Open search.html and start running every query in it, one after another; returns at once
    (so that pages of other engines can run theirs meanwhile); `collect_queries` waits for them."""
    page.goto(search_page)
    page.wait_for_selector("#search-input")
    page.evaluate(START, {"queries": [query.query for query in queries], "timeout": QUERY_TIMEOUT_MS,
                          "giveUpAfter": GIVE_UP_AFTER})


def collect_queries(page, queries: list[Query]) -> list[Outcome]:
    """An Outcome per query started by `start_queries`, in order, once all have run."""
    found = page.evaluate("() => window.titleSearchDone")
    return [Outcome(query, [slug_of(href) for href in each["hrefs"]], each["titles"], each["engine"],
                    each["timedOut"]) for query, each in zip(queries, found)]


def run_queries(pages: dict[str, tuple[object, str]], queries: list[Query]) -> dict[str, list[Outcome]]:
    """{engine: (page, search page address)} -> {engine: outcomes}: the engines' pages run at the same time."""
    for page, search_page in pages.values():
        start_queries(page, search_page, queries)
    return {engine: collect_queries(page, queries) for engine, (page, _) in pages.items()}


def hit_rate(outcomes: list[Outcome]) -> float:
    return sum(outcome.hit for outcome in outcomes) / len(outcomes) if outcomes else 0.0


def report(engine: str, outcomes: list[Outcome], seed: int, misses_shown: int | None = None) -> str:
    """The top-1 and top-3 rates and every miss: query, expected title, what came first instead."""
    total = len(outcomes)
    top1 = sum(outcome.rank == 1 for outcome in outcomes)
    top3 = sum(outcome.hit for outcome in outcomes)
    lines = [f"{ENGINE_NAMES.get(engine, engine)}: top-3 {top3}/{total} ({top3 / total:.1%}), top-1 {top1}/{total} "
             f"({top1 / total:.1%}); target {TARGETS[engine]:.0%} (seed {seed})"]
    misses = [outcome for outcome in outcomes if not outcome.hit]
    for outcome in misses[:misses_shown]:
        if outcome.timed_out:
            got = f"no results within {QUERY_TIMEOUT_MS // 1000} s"
        elif not outcome.slugs:
            got = "no results"
        else:
            got = f"first {outcome.titles[0]!r}, " + (f"expected at {outcome.rank} of {len(outcome.slugs)}" if
                                                        outcome.rank else f"expected not among {len(outcome.slugs)}")
        lines.append(f"  miss: {outcome.query.query!r} -> {outcome.query.title!r} | {got}")
    if misses_shown is not None and len(misses) > misses_shown:
        lines.append(f"  ... and {len(misses) - misses_shown} more misses")
    return "\n".join(lines)
