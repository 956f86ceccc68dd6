"""Every page template of the built site, checked by axe-core in Debian's Chromium.

axe-core (pinned in package.json, installed by `npm ci`) is injected into each kind of page,
in the light and the dark colour scheme, and must find no WCAG 2 A or AA violation. Pages open
from file:// as a reader who downloads the site would; the search page also over HTTP (where
Pagefind shows excerpts), and the 404 page and a --base-url build from a host under /REPO/; the
author pages and a paper with authors and links in a small build that has them (tests/authored.py).
States that only exist after a script ran are checked too: search results, a pressed topic
chip, the header's quick-search panel, highlighted words, starred papers and the reading list,
the opened citations, a venue's papers sorted and filtered, the authors index filtered; one paper page at phone width, where long lines overflow.

A failure lists each violation with its impact, the elements (selector and HTML) and, for
colour contrast, the colours, their ratio and the ratio required.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest

from conftest import PROJECT, SUBPATH, BuiltSite, serve_under_subpath
from catalogue.routes import author_page, bucket, paper_page

AXE = PROJECT / "node_modules" / "axe-core" / "axe.min.js"
AXE_OPTIONS = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa"]}, "resultTypes": ["violations"]}
SCHEMES = ["light", "dark"]
PAPER = "wz-llm"  # highlights, links, related papers, the cite section
MATH_PAPER = "ls2mc-gda"  # MathML in its name and title
TOPIC = "language-models"
VENUE = "icml-2026"
TIMEOUT_MS = 10_000
SHOWN_NODES = 4  # per violation, in the failure message

@dataclass(frozen=True)
class Sites:
    file: str  # file:// address of the session's build (no base URL), ending in /
    http: str  # the same build served at http://127.0.0.1:PORT/REPO/
    based: str  # a --base-url build served at /REPO/, with 404.html for missing addresses
    authored: str  # file:// address of tests/authored.py's build (authors, links), ending in /


@pytest.fixture(scope="module")
def sites(built_site: BuiltSite, authored_site, seeds_builds, tmp_path_factory) -> Iterator[Sites]:
    based = seeds_builds.built("--base-url", f"https://example.org/{SUBPATH}/", "--no-search")
    with serve_under_subpath(built_site.out, tmp_path_factory.mktemp("a11y-served")) as http, \
            serve_under_subpath(based.out, tmp_path_factory.mktemp("a11y-served-based"), not_found=True) as based_url:
        yield Sites(file=built_site.out.as_uri() + "/", http=http, based=based_url,
                    authored=authored_site.as_uri() + "/")


# --- the pages, each brought into the state to check ----------------------------------------


def wait_for_search(page, query: str) -> None:
    page.wait_for_function("q => { const r = document.querySelector('#search-results');"
                           " return r && r.dataset.query === q && r.querySelector('.result'); }",
                           arg=query, timeout=TIMEOUT_MS)


def open_quick_search(page) -> None:
    """The header's results panel, open (it covers part of the page, so only on a short one)."""
    page.locator("#site-search").fill("sinkhorn")
    page.locator("#site-search-results .result").first.wait_for(timeout=TIMEOUT_MS)


def star_first_paper(page) -> None:
    """Reading-list stars, where the build has them (they show once the script ran)."""
    stars = page.locator("button.star:visible")
    if stars.count():
        stars.first.click()
        assert stars.first.get_attribute("aria-pressed") == "true"


def home_with_chip_pressed(page) -> None:
    page.locator("#list-tools:not([hidden])").wait_for(timeout=TIMEOUT_MS)  # filter.js ran
    chip = page.locator(".chips a[data-topic]").first
    chip.click()
    assert chip.get_attribute("aria-pressed") == "true"
    page.wait_for_function("() => / of /.test(document.getElementById('paper-count').textContent)",
                           timeout=TIMEOUT_MS)  # the topic's papers, from the list data parts
    star_first_paper(page)


def paper_with_everything_open(page) -> None:
    """Highlighted words, a starred paper and the opened citations."""
    page.locator(".paper mark").first.wait_for(timeout=TIMEOUT_MS)
    star_first_paper(page)
    page.locator("details.citations summary").click()
    assert page.locator("details.citations").evaluate("d => d.open")


def list_with_papers(page) -> None:
    """The reading list (from the stars on the home page, kept in localStorage)."""
    address = page.url
    page.goto(address.replace("list.html", "index.html"))
    page.locator("button.star:visible").nth(0).click()
    page.locator("button.star:visible").nth(2).click()
    page.goto(address)
    page.locator("#my-list .card").first.wait_for(timeout=TIMEOUT_MS)


def venue_sorted_and_filtered(page) -> None:
    """A venue's papers sorted and filtered (assets/venue.js), its first paper starred."""
    page.select_option(".list-tools select", "title")
    page.fill(".list-tools input", "a")
    page.locator("#paper-list:not([aria-busy]) .card").first.wait_for(timeout=TIMEOUT_MS)
    star_first_paper(page)


def authors_filtered(page) -> None:
    """The authors index's filter with matching names (assets/authors.js)."""
    page.fill(".author-filter-box input", "a")
    page.locator("#author-matches li").first.wait_for(timeout=TIMEOUT_MS)


@dataclass(frozen=True)
class Case:
    address: Callable[[Sites], str]
    prepare: Callable | None = None
    status: int = 0  # the expected HTTP status; 0 for file://
    width: int = 1280
    needs: str = ""  # a file of the build, without which the case is skipped


PHONE = 390
CASES: dict[str, Case] = {
    "home, chip pressed": Case(lambda s: s.file + "index.html", home_with_chip_pressed),
    "home, compact view, phone": Case(lambda s: s.file + "index.html?view=compact", home_with_chip_pressed, width=PHONE),
    "search ?q=diffusion (file)": Case(lambda s: s.file + "search.html?q=diffusion", lambda p: wait_for_search(p, "diffusion")),
    "search ?q=diffusion (http)": Case(lambda s: s.http + "search.html?q=diffusion", lambda p: wait_for_search(p, "diffusion"), 200),
    "topics": Case(lambda s: s.file + "topics/index.html"),
    "topic": Case(lambda s: s.file + f"topics/{TOPIC}/index.html"),
    "venues, quick search open": Case(lambda s: s.file + "venues/index.html", open_quick_search),
    "venue, sorted and filtered": Case(lambda s: s.file + f"venues/{VENUE}/index.html", venue_sorted_and_filtered),
    "map": Case(lambda s: s.file + "map/index.html"),
    "stats": Case(lambda s: s.file + "stats/index.html"),
    "paper, all open": Case(lambda s: s.file + f"papers/{bucket(PAPER)}/{PAPER}/index.html?highlight=proof", paper_with_everything_open),
    "paper with math, phone": Case(lambda s: s.file + f"papers/{bucket(MATH_PAPER)}/{MATH_PAPER}/index.html?highlight=federated",
                                   paper_with_everything_open, width=PHONE),
    "paper, --base-url build": Case(lambda s: s.based + f"papers/{bucket(PAPER)}/{PAPER}/index.html?highlight=proof",
                                    paper_with_everything_open, 200),
    "404 at a missing address": Case(lambda s: s.based + "papers/does-not-exist/index.html", status=404),
    "reading list": Case(lambda s: s.file + "list.html", list_with_papers, needs="list.html"),
    "authors index, filtered": Case(lambda s: s.authored + "authors/index.html", authors_filtered),
    "author": Case(lambda s: s.authored + author_page("ada-lovelace")),  # their section alone (:target)
    "authors of a bucket": Case(lambda s: s.authored + author_page("ada-lovelace").split("#")[0]),  # every section
    "paper with authors and links": Case(lambda s: s.authored + paper_page("engines")),
    "paper with authors and links, phone": Case(lambda s: s.authored + paper_page("engines"), width=PHONE),
    "search ?q=lovelace (file)": Case(lambda s: s.authored + "search.html?q=lovelace",
                                      lambda p: wait_for_search(p, "lovelace")),
}


# --- the report ------------------------------------------------------------------------------


def describe_node(node: dict) -> str:
    target = " >> ".join(" ".join(part) if isinstance(part, list) else part for part in node["target"])
    snippet = re.sub(r"\s+", " ", node["html"]).strip()
    lines = [f"    - {target}", f"      {snippet[:240]}{'...' if len(snippet) > 240 else ''}"]
    for check in node.get("any", []) + node.get("all", []) + node.get("none", []):
        data = check.get("data")
        if isinstance(data, dict) and "contrastRatio" in data:
            lines.append(f"      colours: {data.get('fgColor')} on {data.get('bgColor')}, ratio {data.get('contrastRatio')}"
                         f" (needs {data.get('expectedContrastRatio')}), {data.get('fontSize')} {data.get('fontWeight')}")
    summary = "; ".join(line.strip() for line in node.get("failureSummary", "").splitlines()[1:])
    if summary:
        lines.append(f"      fix any/all of: {summary}")
    return "\n".join(lines)


def describe(violations: list[dict]) -> str:
    parts = []
    for violation in violations:
        nodes = violation["nodes"]
        parts.append(f"  [{violation['impact']}] {violation['id']}: {violation['help']} ({len(nodes)} element(s))\n"
                     f"    {violation['helpUrl']}\n" + "\n".join(describe_node(node) for node in nodes[:SHOWN_NODES])
                     + (f"\n    ... and {len(nodes) - SHOWN_NODES} more" if len(nodes) > SHOWN_NODES else ""))
    return "\n".join(parts)


def run_axe(page) -> list[dict]:
    assert AXE.is_file(), f"{AXE} is missing: run `npm ci` at the project root (.ci/run does)"
    if page.evaluate("typeof axe === 'undefined'"):
        page.add_script_tag(path=str(AXE))
    return page.evaluate("options => axe.run(document, options).then(r => r.violations)", AXE_OPTIONS)


# --- the test --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(CASES))
def test_no_wcag_a_or_aa_violations(browser, built_site: BuiltSite, sites: Sites, name: str):
    """Each colour scheme in turn, emulated on the page once it is in its state (the style sheet
    follows the scheme at once)."""
    case = CASES[name]
    if case.needs and not (built_site.out / case.needs).exists():
        pytest.skip(f"the build has no {case.needs}")
    url = case.address(sites)
    context = browser.new_context(color_scheme=SCHEMES[0], viewport={"width": case.width, "height": 900})
    found = {}
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        response = page.goto(url)
        if case.status:
            assert response is not None and response.status == case.status, (url, response and response.status)
        if case.prepare:
            case.prepare(page)
        for scheme in SCHEMES:
            page.emulate_media(color_scheme=scheme)
            assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") == (scheme == "dark")
            found[scheme] = run_axe(page)
    finally:
        context.close()
    failures = [f"axe-core found {len(violations)} WCAG 2 A/AA violation(s) on {name} ({scheme}), {url}:\n"
                + describe(violations) for scheme, violations in found.items() if violations]
    if failures:
        pytest.fail("\n".join(failures), pytrace=False)


def test_axe_reports_planted_violations_readably(browser, sites: Sites):
    """The check itself works: an image without alternative text and grey-on-grey text are
    reported, the latter with its colours."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(sites.file + "topics/index.html")
        page.evaluate("document.querySelector('main').insertAdjacentHTML('beforeend',"
                      " '<img src=\"../assets/favicon.svg\"><p style=\"color:#999;background:#fff\">faint text</p>')")
        violations = run_axe(page)
    finally:
        context.close()
    assert {"image-alt", "color-contrast"} <= {violation["id"] for violation in violations}, json.dumps(violations)[:2000]
    report = describe(violations)
    assert "[critical] image-alt" in report and "<img src=" in report, report
    assert re.search(r"colours: #999999 on #ffffff, ratio 2\.8\d* \(needs 4\.5:1\)", report), report
