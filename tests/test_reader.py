"""Reader tools in Chromium: the reading list, its shared link and exports, keyboard shortcuts."""

import re

import bibtexparser
import pytest

from catalogue.i18n.strings import read_table
from catalogue.routes import SITE_DATA, paper_bibtex, paper_page
from conftest import BuiltSite, serve_under_subpath
from site_data import list_rows

DATA_SCRIPTS = "Array.from(document.scripts, s => s.getAttribute('src') || '').filter(s => /list-data|tex-letters/.test(s))"


@pytest.fixture
def context(browser):
    context = browser.new_context(accept_downloads=True)
    yield context
    context.close()


def test_star_list_share_and_add_all(built_site: BuiltSite, context, browser):
    page = context.new_page()
    errors = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.goto((built_site.out / "index.html").as_uri())
    stars = page.locator("#paper-list button.star")
    for index in (0, 2, 4):
        stars.nth(index).click()
    assert stars.nth(2).get_attribute("aria-pressed") == "true"
    assert page.inner_text("#list-count") == "(3)"
    stars.nth(4).click()  # a second press takes it off
    assert page.inner_text("#list-count") == "(2)"
    wanted = [stars.nth(i).get_attribute("data-paper") for i in (0, 2)]

    page.goto((built_site.out / "list.html").as_uri())
    assert page.locator("#my-list .card").count() == 2
    link = page.evaluate("location.href.split('#')[0] + '#ids=' + %r" % ",".join(wanted))

    other = browser.new_context()  # someone else opens the link
    friend = other.new_page()
    friend.goto(link)
    assert friend.locator("#my-list .card").count() == 2
    assert friend.is_visible("#shared-list") and friend.inner_text("#list-count") == ""
    friend.click("#add-all")
    assert friend.inner_text("#list-count") == "(2)"
    other.close()
    assert errors == []


def test_exports_hold_the_listed_papers(built_site: BuiltSite, context):
    page = context.new_page()
    page.goto((built_site.out / "index.html").as_uri())
    page.locator("#paper-list button.star").nth(1).click()
    page.goto((built_site.out / "list.html").as_uri())
    title = page.locator("#my-list .card-title a").inner_text()
    with page.expect_download() as download:
        page.click("#export-bibtex")
    library = bibtexparser.parse_string(open(download.value.path(), encoding="utf-8").read())
    assert len(library.entries) == 1 and library.failed_blocks == []
    with page.expect_download() as download:
        page.click("#export-markdown")
    markdown = open(download.value.path(), encoding="utf-8").read()
    assert markdown.startswith(f"- [{title}](") and re.search(r"papers/[0-9a-f]{2}/[a-z0-9-]+/\)", markdown)


def two_papers_in_two_parts(site) -> list[str]:
    ids = sorted(list_rows(site))
    return [ids[0], next(other for other in ids if other[-1] != ids[0][-1])]


def test_the_reading_list_loads_only_its_papers_parts_from_disk_and_bibtex_when_asked(built_site: BuiltSite, context):
    ids = two_papers_in_two_parts(built_site.out)
    page = context.new_page()
    page.goto((built_site.out / "list.html").as_uri() + "#ids=" + ",".join(ids))
    page.wait_for_function("() => document.querySelectorAll('#my-list .card').length === 2")
    rows = [f"list-data/{paper[-1]}.js" for paper in ids]
    assert sorted(page.evaluate(DATA_SCRIPTS)) == sorted(["list-data.js", *rows])
    assert page.locator("#my-list .card button.star").evaluate_all("s => s.map(b => b.dataset.paper)") == ids
    with page.expect_download() as download:
        page.click("#export-bibtex")
    exported = open(download.value.path(), encoding="utf-8").read()
    library = bibtexparser.parse_string(exported)
    assert len(library.entries) == 2 and library.failed_blocks == []
    # The entries are the papers' .bib files, written by cite.js from the rows (the table of letters fetched for it).
    slugs = {paper: row[1] for paper, row in list_rows(built_site.out).items()}
    assert exported == "\n".join((built_site.out / paper_bibtex(slugs[paper])).read_text(encoding="utf-8") for paper in ids)
    assert sorted(page.evaluate(DATA_SCRIPTS)) == sorted(["list-data.js", *rows, "tex-letters.js"])


def test_the_reading_list_fetches_a_few_parts_from_a_server(built_site: BuiltSite, context, tmp_path):
    ids = two_papers_in_two_parts(built_site.out)
    fetched = []
    page = context.new_page()
    page.on("request", lambda request: fetched.append(request.url))
    with serve_under_subpath(built_site.out, tmp_path) as address:
        page.goto(address + "list.html#ids=" + ",".join(ids))
        page.wait_for_function("() => document.querySelectorAll('#my-list .card').length === 2")
        page.wait_for_load_state("networkidle")
    paths = [url.removeprefix(address).split("#")[0] for url in fetched if url.startswith(address)]
    assert sorted(path for path in paths if path.startswith("list-")) == sorted(
        ["list-data.js", *[f"list-data/{paper[-1]}.js" for paper in ids]])
    assert sum((built_site.out / path).stat().st_size for path in set(paths)) < 300_000


def test_keyboard_moves_stars_and_shows_help(built_site: BuiltSite, context):
    page = context.new_page()
    page.goto((built_site.out / "index.html").as_uri())
    page.keyboard.press("j")
    page.keyboard.press("j")
    second = page.locator("#paper-list .card").nth(1)
    assert "is-current" in second.get_attribute("class")
    assert page.evaluate("document.activeElement.closest('.card') === document.querySelectorAll('#paper-list .card')[1]")
    page.keyboard.press("k")
    assert "is-current" in page.locator("#paper-list .card").first.get_attribute("class")
    page.keyboard.press("s")
    assert page.locator("#paper-list .card").first.locator("button.star").get_attribute("aria-pressed") == "true"
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert "/papers/" in page.url
    page.keyboard.press("s")  # on a paper page, s stars that paper
    assert page.locator(".paper button.star").get_attribute("aria-pressed") == "false"
    page.keyboard.press("?")
    assert page.evaluate("document.getElementById('shortcuts').open")
    page.keyboard.press("Escape")
    assert not page.evaluate("document.getElementById('shortcuts').open")


def test_an_empty_list_offers_nothing_to_copy_or_export(built_site: BuiltSite, context):
    page = context.new_page()
    page.goto((built_site.out / "list.html").as_uri())
    assert page.is_visible("#list-empty")
    for hidden in ("#list-actions", "#copy-list-link", "#export-bibtex", "#export-markdown", "#shared-list"):
        assert not page.is_visible(hidden), hidden
    assert page.inner_text("h1") == "My list"


def test_a_shared_list_is_titled_as_one(built_site: BuiltSite, context):
    page = context.new_page()
    page.goto((built_site.out / "index.html").as_uri())
    ids = [page.locator("#paper-list button.star").nth(i).get_attribute("data-paper") for i in (0, 1)]
    page.goto((built_site.out / "list.html").as_uri() + "#ids=" + ",".join(ids))
    assert page.inner_text("h1") == "Shared list"
    assert page.title().startswith("Shared list · ")
    assert page.locator("#my-list .card").count() == 2 and page.is_visible("#add-all")
    page.evaluate("location.hash = ''")  # back to one's own list
    page.wait_for_function("document.querySelector('h1').textContent === 'My list'")
    assert page.title().startswith("My list · ")


PAGES = ["index.html", "list.html", "search.html", "map/index.html", "stats/index.html", paper_page("ls2mc-gda")]


@pytest.mark.parametrize("script", [True, False], ids=["with-script", "without-script"])
def test_every_hidden_element_is_hidden(built_site: BuiltSite, browser, script: bool):
    """No stylesheet rule that sets display shows what carries `hidden` (as .list-tools did)."""
    context = browser.new_context(java_script_enabled=script)
    page = context.new_page()
    for path in PAGES:
        page.goto((built_site.out / path).as_uri())
        shown = page.evaluate("""[...document.querySelectorAll('[hidden]')]
            .filter(e => getComputedStyle(e).display !== 'none').map(e => e.outerHTML.slice(0, 80))""")
        assert shown == [], path
    page.goto((built_site.out / "index.html").as_uri())
    assert page.is_visible("#list-tools") == script  # the venue and sort menus work only with the script
    context.close()


# What a finger taps, besides links inside sentences (WCAG 2.5.8 leaves those out).
TARGETS = ("button:not(.visually-hidden), select, input:not([type=hidden]), summary, .site-nav a, .chips a, "
           ".topics a, .pager a, .paper-links a, .map-tools button, .letter-jump a")


@pytest.mark.parametrize("path", ["index.html", paper_page("ls2mc-gda"), "map/index.html", "list.html"])
def test_every_tap_target_is_at_least_24_px_on_a_phone(built_site: BuiltSite, browser, path: str):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto((built_site.out / path).as_uri())
    small = page.evaluate("""(selector) => [...document.querySelectorAll(selector)]
        .filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
        .map(e => [e.outerHTML.slice(0, 70), e.getBoundingClientRect()])
        .filter(([, box]) => box.width < 24 || box.height < 24)
        .map(([html, box]) => `${html} ${box.width.toFixed(1)}x${box.height.toFixed(1)}`)""", TARGETS)
    assert small == []
    if path == "index.html":
        assert page.locator("button.star").first.bounding_box()["height"] >= 24
    context.close()


def test_the_shortcuts_help_is_made_from_site_data_when_asked_for(built_site: BuiltSite, context):
    """No page carries the help: '?' makes it from the strings site-data.js gives, once, from disk."""
    strings = read_table("en")
    page_file = built_site.out / paper_page("egotsr")
    html = page_file.read_text(encoding="utf-8")
    assert 'id="shortcuts"' not in html and 'id="ui-strings"' not in html and 'id="site-routes"' not in html
    assert f'<script src="../../../{SITE_DATA}"></script>' in html
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(page_file.as_uri())
    assert page.locator("#shortcuts").count() == 0
    page.keyboard.press("?")
    help = page.locator("dialog#shortcuts")
    assert help.evaluate("dialog => dialog.open") and help.is_visible()
    assert help.locator("h2").inner_text() == strings["script.shortcuts_title"]
    assert help.locator("dd").all_inner_texts() == [strings[f"script.shortcuts_{key}"] for key in
                                                    ("search", "next_previous", "open", "star", "escape", "help")]
    assert help.locator("dt kbd").all_inner_texts() == ["/", "j", "k", "Enter", "s", "Esc", "?"]
    page.keyboard.press("Escape")
    assert not help.evaluate("dialog => dialog.open")
    page.keyboard.press("?")
    assert page.locator("dialog#shortcuts").count() == 1 and help.evaluate("dialog => dialog.open")
    help.locator("button").click()  # its Close button
    assert not help.evaluate("dialog => dialog.open")
    assert page.evaluate("window.catalogueRoute('paper', {slug: 'egotsr'})") == paper_page("egotsr")
    assert errors == []
