"""The built site in a real browser (Debian's Chromium through Playwright).

Pages open from file:// (as a reader who downloads the site would) and over HTTP under a
subpath (/REPO/, as GitHub Pages serves a project site). Every test fails on console errors.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from conftest import SUBPATH, BuiltSite, serve_under_subpath
from catalogue.routes import bucket

PAPER_COUNT = 38
MATH_PAPER = "ls2mc-gda"
SINKHORN_PAPER = "flashsinkhorn"
POLYTREE_PREFIX = "algorithm-finds-optimal-polytree"
RESULT_TIMEOUT_MS = 10_000


# --- helpers -------------------------------------------------------------------------------


class Tab:
    """A page in a fresh browser context that records console errors and uncaught exceptions."""

    def __init__(self, browser):
        self.context = browser.new_context()
        self.page = self.context.new_page()
        self.page.set_default_timeout(RESULT_TIMEOUT_MS)
        self.errors: list[str] = []
        self.page.on("console", lambda message: message.type == "error" and self.errors.append(
            f"console: {message.text} ({message.location.get('url', '')})"))
        self.page.on("pageerror", lambda error: self.errors.append(f"pageerror: {error}"))

    def close(self):
        self.context.close()


@pytest.fixture
def tab(browser) -> Iterator[Tab]:
    tab = Tab(browser)
    yield tab
    tab.close()


@pytest.fixture(scope="module")
def subpath_site(built_site: BuiltSite, tmp_path_factory) -> Iterator[str]:
    """The session's build, served at http://127.0.0.1:PORT/REPO/."""
    with serve_under_subpath(built_site.out, tmp_path_factory.mktemp("served")) as base:
        yield base


@pytest.fixture(scope="module")
def based_site(seeds_builds, tmp_path_factory) -> Iterator[str]:
    """A build with --base-url https://example.org/REPO/ (no search), served at /REPO/ with
    404.html answering every missing address."""
    site = seeds_builds.built("--base-url", f"https://example.org/{SUBPATH}/", "--no-search")
    with serve_under_subpath(site.out, tmp_path_factory.mktemp("served-based"), not_found=True) as base:
        yield base


def visible_cards(page) -> list:
    return [card for card in page.locator("#paper-list .card").all() if card.is_visible()]


def result_paths(page) -> list[str]:
    """Paths of the ranked result links on the search page, resolved against the page."""
    hrefs = page.eval_on_selector_all("#search-results a.result-link", "links => links.map(a => a.href)")
    return [urlsplit(href).path for href in hrefs]


def wait_for_results(page, query: str, engine: str) -> None:
    """Until the search page shows the results of exactly this query, from this engine."""
    page.wait_for_function("([q, e]) => { const r = document.querySelector('#search-results');"
                           " return r && r.dataset.query === q && r.dataset.engine === e; }",
                           arg=[query, engine], timeout=RESULT_TIMEOUT_MS)


# --- file:// -------------------------------------------------------------------------------


def test_file_home_to_paper_renders_math_and_pages_on(built_site: BuiltSite, tab: Tab):
    page = tab.page
    page.goto((built_site.out / "index.html").as_uri())
    assert page.locator("#paper-list .card").count() == PAPER_COUNT

    link = page.locator(f'#paper-list .card-title a[href$="papers/{bucket(MATH_PAPER)}/{MATH_PAPER}/index.html"]')
    assert link.count() == 1
    link.click()
    target = (built_site.out / "papers" / bucket(MATH_PAPER) / MATH_PAPER / "index.html").as_uri()
    page.wait_for_url(target)
    assert page.url == target

    abstract = page.locator(".abstract")
    assert abstract.locator("math").count() >= 1
    text = abstract.inner_text()
    assert "Federated" in text  # the abstract itself, not an empty section
    assert "$" not in text, f"raw TeX in the abstract: {text!r}"

    page.locator(".pager a.next").click()
    page.wait_for_url(re.compile(r"/papers/[0-9a-f]{2}/[^/]+/index\.html$"))
    assert page.url.startswith((built_site.out / "papers").as_uri() + "/")
    assert page.url != target
    assert Path(urlsplit(page.url).path).parent.name != MATH_PAPER
    assert page.locator("h1").inner_text().strip()
    assert tab.errors == []


def test_file_search_works_offline_from_the_fallback_index(built_site: BuiltSite, tab: Tab):
    page = tab.page
    page.goto((built_site.out / "search.html").as_uri() + "?q=polytree")
    wait_for_results(page, "polytree", "fallback")
    assert page.locator("#search-offline").is_visible()
    assert re.search(f"papers/[0-9a-f]{{2}}/{POLYTREE_PREFIX}", result_paths(page)[0])
    page.locator("#search-input").fill("Sinkhorn")
    wait_for_results(page, "Sinkhorn", "fallback")
    assert f"papers/{bucket(SINKHORN_PAPER)}/{SINKHORN_PAPER}/" in result_paths(page)[0]
    with page.expect_navigation():
        page.locator("#search-results a.result-link").first.click()
    assert page.url.startswith((built_site.out / "papers" / bucket(SINKHORN_PAPER) / SINKHORN_PAPER).as_uri())
    assert page.locator(".paper mark").count() > 0  # the query is highlighted on arrival
    assert tab.errors == []


def test_keyboard_flow_from_any_page(built_site: BuiltSite, tab: Tab):
    page = tab.page
    page.goto((built_site.out / "papers" / bucket(MATH_PAPER) / MATH_PAPER / "index.html").as_uri())
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "site-search"
    page.keyboard.type("sinkhorn")
    # the panel of the whole word (one for a part of it, typed on a slow machine, is replaced)
    page.locator('#site-search-results a.quick-more[href$="?q=sinkhorn"]').wait_for(timeout=RESULT_TIMEOUT_MS)
    page.keyboard.press("ArrowDown")
    assert SINKHORN_PAPER in page.evaluate("document.activeElement.href")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert f"papers/{bucket(SINKHORN_PAPER)}/{SINKHORN_PAPER}/index.html" in page.url
    page.keyboard.press("/")
    page.keyboard.type("polytree")
    page.locator("#site-search-results .result").first.wait_for(timeout=RESULT_TIMEOUT_MS)
    page.keyboard.press("Escape")
    assert page.locator("#site-search").input_value() == ""
    assert page.locator("#site-search-results").is_hidden()
    assert tab.errors == []


def test_file_topic_chip_filters_the_list_and_toggles_back(built_site: BuiltSite, tab: Tab):
    page = tab.page
    page.goto((built_site.out / "index.html").as_uri())
    page.wait_for_load_state("load")
    assert len(visible_cards(page)) == PAPER_COUNT

    chip = page.locator(".chips a[data-topic]").first
    topic = chip.get_attribute("data-topic")
    expected = int(chip.locator(".chip-count").inner_text())
    assert 0 < expected < PAPER_COUNT
    assert chip.get_attribute("aria-pressed") == "false"

    label = chip.inner_text().rsplit(" ", 1)[0]
    chip.click()
    page.wait_for_function("n => document.querySelectorAll('#paper-list .card').length === n", arg=expected)
    shown = visible_cards(page)
    assert len(shown) == expected
    for card in shown:
        assert label in card.locator(".topics").inner_text(), card.inner_text()
    assert chip.get_attribute("aria-pressed") == "true"
    others = page.locator(f'.chips a[data-topic]:not([data-topic="{topic}"])')
    assert all(other.get_attribute("aria-pressed") == "false" for other in others.all())
    assert page.locator(".intro .count").inner_text() == f"{expected} of {PAPER_COUNT} papers"
    assert page.url == (built_site.out / "index.html").as_uri() + f"?topic={topic}"  # a button, not a link to the topic page

    chip.click()
    assert len(visible_cards(page)) == PAPER_COUNT
    assert chip.get_attribute("aria-pressed") == "false"
    assert page.locator(".intro .count").inner_text() == f"{PAPER_COUNT} papers"
    assert tab.errors == []


# --- HTTP under /REPO/ ---------------------------------------------------------------------


def test_search_under_subpath_finds_papers_and_keeps_the_query_in_the_address(subpath_site: str, tab: Tab):
    page = tab.page
    page.goto(subpath_site + "search.html?q=Sinkhorn")
    try:
        wait_for_results(page, "Sinkhorn", "pagefind")
    except Exception as error:
        raise AssertionError(f"no Pagefind results for ?q=Sinkhorn; console: {tab.errors}") from error
    paths = result_paths(page)
    assert paths[0].startswith(f"/{SUBPATH}/papers/{bucket(SINKHORN_PAPER)}/{SINKHORN_PAPER}/"), paths
    assert page.locator("#search-results .result-excerpt mark").count() > 0

    search_input = page.locator("#search-input")
    assert search_input.input_value() == "Sinkhorn"
    search_input.fill("polytree")
    wait_for_results(page, "polytree", "pagefind")
    paths = result_paths(page)
    assert all(path.startswith(f"/{SUBPATH}/papers/") for path in paths), paths
    assert POLYTREE_PREFIX in paths[0] and not any(SINKHORN_PAPER in path for path in paths), paths
    query = parse_qs(urlsplit(page.url).query)
    assert query.get("q") == ["polytree"], page.url
    assert urlsplit(page.url).path == f"/{SUBPATH}/search.html"

    with page.expect_navigation() as navigation:
        page.locator("#search-results a.result-link").first.click()
    response = navigation.value
    assert response is not None and response.status == 200, response
    assert re.match(f"/{SUBPATH}/papers/[0-9a-f]{{2}}/{POLYTREE_PREFIX}", urlsplit(page.url).path)
    assert "Polytree" in page.locator("h1").inner_text()
    assert tab.errors == []


def test_a_shared_search_link_restores_query_filters_and_sort(subpath_site: str, tab: Tab):
    page = tab.page
    page.goto(subpath_site + "search.html?q=learning&topic=Optimization&sort=newest")
    wait_for_results(page, "learning", "pagefind")
    assert page.locator("#search-input").input_value() == "learning"
    assert page.locator("#filter-topic").input_value() == "Optimization"
    assert page.locator("#sort").input_value() == "newest"
    titles = page.locator("#search-results .result").all_inner_texts()
    assert titles and all("Optimization" in text for text in titles), titles
    page.locator("#filter-topic").select_option("")
    page.wait_for_function("n => document.querySelectorAll('#search-results .result').length > n",
                           arg=len(titles), timeout=RESULT_TIMEOUT_MS)
    assert "topic" not in parse_qs(urlsplit(page.url).query)
    assert tab.errors == []


def _assert_styled_404(page):
    sheets = page.evaluate("Array.from(document.styleSheets).map(sheet => sheet.href)")
    assert any((href or "").endswith(f"/{SUBPATH}/assets/style.css") for href in sheets), sheets
    assert page.evaluate("getComputedStyle(document.body).margin") == "0px"  # the site's CSS, not 8px
    assert page.locator("h1").inner_text() == "Page not found"
    home = page.get_by_role("link", name="All papers")
    assert home.get_attribute("href") == f"/{SUBPATH}/index.html"


def test_404_page_under_subpath_is_styled_and_links_home(based_site: str, tab: Tab):
    page = tab.page
    failed: list[str] = []
    page.on("response", lambda response: response.status >= 400 and failed.append(response.url))

    response = page.goto(based_site + "404.html")
    assert response is not None and response.status == 200
    _assert_styled_404(page)
    assert failed == []
    assert tab.errors == []

    missing = based_site + f"papers/{bucket('does-not-exist')}/does-not-exist/deeper/x.html"  # this layout's: no forwarding
    response = page.goto(missing)
    assert response is not None and response.status == 404
    _assert_styled_404(page)
    assert failed == [missing], "only the missing page itself may fail; its stylesheet and icon must load"

    page.get_by_role("link", name="All papers").click()
    page.wait_for_url(based_site + "index.html")
    assert page.locator("#paper-list .card").count() == PAPER_COUNT


def test_addresses_of_the_layout_before_buckets_reach_their_pages_under_a_subpath(based_site: str, tab: Tab):
    """papers/<slug>/ was published before the pages moved into buckets: the host answers 404.html there
    (GitHub Pages and Netlify alike), which forwards to the page's address now, keeping what follows
    the slug, the query and the anchor (authors: tests/test_authors.py)."""
    page = tab.page
    old_to_new = {
        f"papers/{SINKHORN_PAPER}/": f"papers/{bucket(SINKHORN_PAPER)}/{SINKHORN_PAPER}/",
        f"papers/{SINKHORN_PAPER}": f"papers/{bucket(SINKHORN_PAPER)}/{SINKHORN_PAPER}/",
        f"papers/{MATH_PAPER}/index.html?highlight=federated#abstract":
            f"papers/{bucket(MATH_PAPER)}/{MATH_PAPER}/index.html?highlight=federated#abstract",
        f"papers/{MATH_PAPER}/{MATH_PAPER}.bib": f"papers/{bucket(MATH_PAPER)}/{MATH_PAPER}/{MATH_PAPER}.bib",
    }
    for old, new in old_to_new.items():
        if new.endswith(".bib"):  # a download: the forward is seen as the request that follows it
            with page.expect_request(based_site + new) as request:
                page.goto(based_site + old, wait_until="commit")
                page.wait_for_timeout(0)
            assert request.value.url == based_site + new
            continue
        page.goto(based_site + old)
        page.wait_for_url(based_site + new)
        assert page.locator("h1").count() == 1 and "not found" not in page.title().lower(), old
    answered_404 = [f"({based_site}{old})" for old in old_to_new]  # the host's own answer, then forwarded
    # A page left for a download before it finished loading may make Chromium probe the origin's own
    # /favicon.ico, outside the site's subpath: the browser's request, not the site's.
    origin = based_site.removesuffix(f"{SUBPATH}/")
    answered_404.append(f"({origin}favicon.ico)")
    assert [error for error in tab.errors if not error.endswith(tuple(answered_404))] == []


CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; img-src 'self' data:; "
                           "style-src 'self'; frame-ancestors 'none'")  # as netlify.toml sends it


def test_everything_works_under_a_strict_content_security_policy(built_site: BuiltSite, tab: Tab, tmp_path):
    with serve_under_subpath(built_site.out, tmp_path, policy=CONTENT_SECURITY_POLICY) as base:
        page = tab.page
        page.goto(base + "search.html?q=Sinkhorn")
        wait_for_results(page, "Sinkhorn", "pagefind")
        assert SINKHORN_PAPER in result_paths(page)[0]
        page.goto(base + "index.html")
        page.locator(".chips a[data-topic]").first.click()  # loads the list data parts it needs
        page.wait_for_function("n => document.querySelectorAll('#paper-list .card').length < n", arg=PAPER_COUNT)
        page.keyboard.press("/")
        page.keyboard.type("polytree")
        page.locator("#site-search-results .result").first.wait_for(timeout=RESULT_TIMEOUT_MS)
        page.goto(base + f"papers/{bucket(MATH_PAPER)}/{MATH_PAPER}/index.html?highlight=federated")
        assert page.locator(".paper mark").count() > 0
        assert page.evaluate("getComputedStyle(document.body).margin") == "0px"
    assert tab.errors == []  # a blocked script, style or WebAssembly would show here


def test_a_phone_shows_a_compact_header_whole_names_and_math_in_a_math_font(built_site: BuiltSite, browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto((built_site.out / "index.html").as_uri())
    header = page.locator(".site-header").bounding_box()
    assert header["height"] <= 100  # was 165 px: name, search, then the sections in one line
    nav = page.locator(".site-nav").bounding_box()
    assert page.evaluate("new Set([...document.querySelectorAll('.site-nav li')].map(li => li.offsetTop)).size") == 1
    assert nav["width"] <= 390
    # LS²MC-GDA's title begins with its name, so its card shows no badge of it: a badge as the cards
    # write one is given its markup.
    title = page.locator(".card-title a", has_text=re.compile(r"^LS")).first
    title.evaluate("""a => a.closest('.card').querySelector('.card-meta').insertAdjacentHTML('afterbegin',
                      '<span class="name">' + a.innerHTML.split(':')[0] + '</span>')""")
    name = page.locator(".card .name", has_text=re.compile(r"^LS")).first
    assert name.evaluate("e => e.getClientRects().length") == 1  # LS²MC-GDA never breaks after the ²
    assert name.evaluate("e => e.getBoundingClientRect().height") < 30
    # A name of several words wider than the phone (real abstracts coin them) wraps inside the card: no
    # sideways scrolling, every word in view.
    long_name = "Multi-Party Empathetic Dialogue Generation With Static-Dynamic Sensibility"
    renamed = name.element_handle()  # (the locator finds names by their text)
    renamed.evaluate("(e, text) => { e.textContent = text; }", long_name)
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    assert renamed.evaluate("e => e.getBoundingClientRect().right") <= 390
    assert renamed.inner_text() == long_name
    font = page.evaluate("getComputedStyle(document.querySelector('math')).fontFamily")
    assert font.startswith('"STIX Two Math", "Cambria Math"') and font.endswith("math")
    title_math = page.locator(".card-title math").first
    assert int(title_math.evaluate("e => getComputedStyle(e).fontWeight")) >= 700
    context.close()
