"""Search results and the paper page, read at catalogue scale: what Pagefind indexes (a paper's
name, title, authors and abstract; never interface text), excerpts taken from the abstract,
results 20 at a time up to all matches, the engine loading when a search box gets focus, a star on
every result (a click, or `s`), the mark of a derived title wherever a title is shown, and the
"Find this paper" links of a paper whose list links neither its PDF nor its proceedings."""

from __future__ import annotations

import gzip
import html
import json
import re
import unicodedata
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from catalogue.search.offline import read_offline_index
from catalogue.site.lookup import find_links
from conftest import BuiltSite, serve_folder
from site_data import site_records
from catalogue.routes import bucket, paper_page


# --- where to look a paper up ---------------------------------------------------------------


@pytest.mark.parametrize("title, derived, arxiv", [
    ("Graph Neural Networks: A Survey", False, "https://arxiv.org/search/?query=Graph%20Neural%20Networks%3A%20A%20Survey"
                                               "&searchtype=title"),
    ("50% of A&B / C#?", False, "https://arxiv.org/search/?query=50%25%20of%20A%26B%20%2F%20C%23%3F&searchtype=title"),
    ("  LS²MC-GDA:  A\tFederated  ", True, "https://arxiv.org/search/?query=LS%C2%B2MC-GDA%3A%20A%20Federated"
                                          "&searchtype=all"),  # a derived title: in every field
])
def test_find_links_search_each_service_by_the_title_url_encoded(title, derived, arxiv):
    links = find_links(title, derived)
    assert [link.service for link in links] == ["arXiv", "Semantic Scholar", "Google Scholar", "OpenReview"]
    assert links[0].url == arxiv
    wanted = " ".join(title.split())
    for link, field in zip(links[1:], ("q", "q", "term")):
        assert parse_qs(urlsplit(link.url).query)[field] == [wanted]
    assert links[1].url.startswith("https://www.semanticscholar.org/search?q=")
    assert links[2].url.startswith("https://scholar.google.com/scholar?q=")
    assert links[3].url.startswith("https://openreview.net/search?term=")


def test_an_empty_title_has_no_find_links():
    assert find_links("  ") == ()


# --- the built pages --------------------------------------------------------------------------


def fragments(site: Path) -> dict[str, dict]:
    """Pagefind's record of each paper page (its text, filters, metadata, anchors), by URL."""
    found = {}
    for path in site.glob("pagefind/*/fragment/*/*.pf_fragment"):
        if path.parts[-3] != "vocabulary":
            data = json.loads(gzip.decompress(path.read_bytes()).removeprefix(b"pagefind_dcd"))
            found[data["url"]] = data
    return found


def letters(text: str) -> str:
    """Letters and digits only (math and punctuation come out of the indexer spaced differently)."""
    return re.sub(r"[\W_]+", "", unicodedata.normalize("NFKC", text)).casefold()


def structured_data(page: str) -> dict:
    """The page's JSON-LD: its authors (its Scholar tags only when its title is known)."""
    return json.loads(re.search(r'<script type="application/ld\+json">(.*?)</script>', page, re.S)[1])


def said(page: str, start: str) -> str:
    """The text of the element that starts so (the paper's name or title): its data-name or data-title
    when it has one, else its text."""
    found = re.search(start + r'[^>]*?(?: data-(?:name|title)="([^"]*)")?>(.*?)</(?:span|h1)>', page, re.S)
    if not found:
        return ""
    return html.unescape(found[1] if found[1] is not None else re.sub(r"<[^>]+>", "", found[2]))


def abstract_text(page: str) -> str:
    """The text of the page's abstract, as a reader sees it (its one copy on the page); none for the
    notice that says there is none."""
    section = re.search(r'<h2 id="abstract-heading"[^>]*>.*?</h2>(.*?)</section>', page, re.S)[1]
    return "" if 'class="notice"' in section else html.unescape(re.sub(r"<[^>]+>", " ", section))


@pytest.mark.parametrize("which", ["built_site", "authored_site"])
def test_pagefind_indexes_name_title_authors_and_abstract_and_no_interface_text(which, request):
    site = request.getfixturevalue(which)
    site = site.out if isinstance(site, BuiltSite) else site
    pages = fragments(site)
    assert len(pages) == len(list((site / "papers").glob("*/*/index.html")))
    for url, data in pages.items():
        page = (site / url.strip("/") / "index.html").read_text(encoding="utf-8")
        name = said(page, r'<span class="name"')
        also = re.search(r'<h2 id="also-heading"[^>]*>.*?</h2>\s*<p>(.*?)</p>', page, re.S)
        title = said(page, r"<h1 ")
        assert data["meta"]["title"] == title and data["meta"].get("name", "") == name, url  # as the page says them
        data_ld = structured_data(page)
        indexed = [name, title, *(author["name"] for author in data_ld.get("author", ())),
                   abstract_text(page), html.unescape(also[1]) if also else ""]
        assert letters(data["content"]) == letters(" ".join(indexed)), url  # no heading, button, label or topic
        assert data["filters"]["topic"] and data["filters"]["venue"], url  # topics and venue: filters only
        assert data["meta"]["id"] == re.search(r'data-paper="([0-9a-f]+)"', page)[1]  # the star's
        assert ("derived" in data["meta"]) == ('class="title-note"' in page)
        assert [anchor["id"] for anchor in data["anchors"]] == ["abstract", "facts"]


def test_find_this_paper_only_without_pdf_or_proceedings_and_no_provenance_shown(authored_site, built_site):
    given = (authored_site / "papers" / bucket("engines") / "engines" / "index.html").read_text(encoding="utf-8")
    assert 'class="paper-links"' in given and "find-links" not in given  # PDF and proceedings given
    bare = (authored_site / "papers" / bucket("notes") / "notes" / "index.html").read_text(encoding="utf-8")
    block = re.search(r'<div class="find-links".*?</div>', bare, re.S)[0]
    assert "Find this paper:" in block
    assert re.findall(r'href="([^"]+)"', block)[0] == \
        "https://arxiv.org/search/?query=The%20notes%20paper&amp;searchtype=title"
    assert bare.index("find-links") < bare.index('class="abstract"')
    seed = (built_site.out / "papers" / bucket("egotsr") / "egotsr" / "index.html").read_text(encoding="utf-8")
    assert "searchtype=all" in seed  # a derived title
    main = seed[seed.index("<main"):seed.index("</main>")].rstrip()
    assert "seeds/" not in main and 'class="provenance"' not in main, "the seed file and record are not shown"
    paper_id = re.search(r'data-pagefind-meta="id:([0-9a-f]+)"', main)[1]
    assert f'data-paper="{paper_id}"' in main and main.count(paper_id) == 2, "the id only where machines read it"


def test_derived_titles_are_marked_on_cards_related_papers_and_the_pager(built_site, authored_site):
    home = (built_site.out / "index.html").read_text(encoding="utf-8")
    cards = re.findall(r'<h2 class="card-title">.*?</h2>', home, re.S)
    assert cards and all('class="derived-mark"' in card for card in cards)  # the seeds give no titles
    assert 'title="Title derived from the abstract; the list gave none."' in cards[0]
    paper = (built_site.out / "papers" / bucket("egotsr") / "egotsr" / "index.html").read_text(encoding="utf-8")
    for part in (r'<ol class="related-list">.*?</ol>', r'<nav class="pager".*?</nav>'):
        assert 'class="derived-mark"' in re.search(part, paper, re.S)[0]
    assert "derived-mark" not in (authored_site / "index.html").read_text(encoding="utf-8")  # titles given


# --- in Chromium ------------------------------------------------------------------------------


def wait_for_results(page, engine: str, count: int | None = None):
    page.wait_for_selector(f"#search-results[data-engine='{engine}'] .result")
    if count is not None:
        page.wait_for_function("n => document.querySelectorAll('#search-results .result').length === n", arg=count)


@pytest.mark.parametrize("engine", ["pagefind", "fallback"])
def test_show_more_loads_20_more_up_to_all_matches(engine, built_site, page):
    total = len(list((built_site.out / "papers").glob("*/*/index.html")))
    assert 20 < total <= 40
    with serve_folder(built_site.out) as address:
        base = address if engine == "pagefind" else built_site.out.as_uri() + "/"
        page.goto(base + "search.html?venue=ICML")
        wait_for_results(page, engine, 20)
        more = page.locator("#search-more")
        assert more.inner_text() == f"Show {total - 20} more"
        assert page.inner_text("#search-status") == f"20 of {total} results"
        more.click()
        wait_for_results(page, engine, total)
        assert more.is_hidden() and page.inner_text("#search-status") == f"{total} results"
        assert page.evaluate("document.activeElement.closest('.result') === document.querySelectorAll('.result')[20]")
        links = page.locator("#search-results a.result-link").evaluate_all("links => links.map(a => a.href)")
        assert len(set(links)) == total


def test_hosted_excerpts_come_from_the_abstract(built_site, page):
    abstract = " ".join(abstract_text((built_site.out / "papers" / bucket("egotsr") / "egotsr" / "index.html")
                                      .read_text(encoding="utf-8")).split())
    with serve_folder(built_site.out) as address:
        page.goto(address + "search.html?q=EgoTSR")  # the name and the title's first word: weighted most
        wait_for_results(page, "pagefind")
        excerpt = page.locator("#search-results .result-excerpt").first
        text = excerpt.inner_text().strip("… ")
        assert len(text.split()) >= 20 and text in abstract
        assert excerpt.locator("mark").first.inner_text().startswith("EgoTSR")


@pytest.mark.parametrize("engine", ["pagefind", "fallback"])
def test_the_engine_loads_when_a_search_box_gets_focus(engine, built_site, page):
    requests = []
    page.context.on("requestfinished", lambda request: requests.append(request.url))  # the page's and Pagefind's worker's
    wanted = ["pagefind/shards.json", "pagefind/vocabulary/pagefind.js",
              *(f"pagefind/part-{n}/pagefind.en_" for n in range(1, 5))] if engine == "pagefind" \
        else ["search-index.js", "search-index/1.js"]

    def loaded() -> list[bool]:
        return [any(part in url for url in requests) for part in wanted]

    with serve_folder(built_site.out) as address:
        base = address if engine == "pagefind" else built_site.out.as_uri() + "/"
        page.goto(base + paper_page("egotsr"))
        page.wait_for_timeout(200)
        assert not any(loaded())
        page.focus("#site-search")  # no key pressed
        for _ in range(50):
            if all(loaded()):
                break
            page.wait_for_timeout(100)
        assert all(loaded()), requests  # every bundle merged and ready for the first keystroke


@pytest.mark.parametrize("engine", ["pagefind", "fallback"])
def test_every_result_has_a_star_a_click_or_s_keeps_it(engine, built_site, page):
    with serve_folder(built_site.out) as address:
        base = address if engine == "pagefind" else built_site.out.as_uri() + "/"
        page.goto(base + "search.html?q=model")
        wait_for_results(page, engine)
        results = page.locator("#search-results .result")
        stars = page.locator("#search-results .result button.star")
        assert stars.count() == results.count()
        assert results.first.locator(".derived-mark").count() == 1  # the seeds' titles are derived
        assert page.evaluate("getComputedStyle(document.querySelector('#search-results .result')).fontWeight") == "400"
        stars.nth(1).click()
        assert stars.nth(1).get_attribute("aria-pressed") == "true" and page.inner_text("#list-count") == "(1)"
        results.first.locator("a.result-link").focus()
        page.keyboard.press("s")  # on the focused result
        assert stars.first.get_attribute("aria-pressed") == "true" and page.inner_text("#list-count") == "(2)"
        page.keyboard.press("j")  # selected with j/k: the second result, starred before
        page.keyboard.press("s")
        assert stars.nth(1).get_attribute("aria-pressed") == "false" and page.inner_text("#list-count") == "(1)"
        kept = json.loads(page.evaluate("localStorage.getItem('paper-catalogue:list')"))
        assert kept == [stars.first.get_attribute("data-paper")]

        page.goto(base + "index.html")  # the header box: s on a result reached with the arrow keys
        page.fill("#site-search", "diffusion")
        page.locator("#site-search-results .result").first.wait_for()
        assert page.evaluate("getComputedStyle(document.querySelector('#site-search-results .result'))"
                             ".borderLeftWidth") == "0px"
        page.keyboard.press("ArrowDown")
        first = page.locator("#site-search-results .result button.star").first
        kept = first.get_attribute("aria-pressed") == "true"  # the paper starred above may come first here
        page.keyboard.press("s")
        assert first.get_attribute("aria-pressed") == ("false" if kept else "true")
        assert page.inner_text("#list-count") == ("" if kept else "(2)")


# --- answers: a title first, no unrelated papers, a way forward, authors linked ----------------


def submit(page, query: str) -> tuple[list[str], str]:
    """The result slugs and the status line once search.html has answered `query`."""
    page.evaluate("q => { const r = document.querySelector('#search-results'); delete r.dataset.query;"
                  " const i = document.querySelector('#search-input'); i.value = q; i.form.requestSubmit(); }", query)
    page.wait_for_function("q => document.querySelector('#search-results').dataset.query === q", arg=query)
    hrefs = page.eval_on_selector_all("#search-results a.result-link", "links => links.map(a => a.href)")
    return [urlsplit(href).path.rstrip("/").split("/")[-2] for href in hrefs], page.inner_text("#search-status")


def suggestions(page, query: str) -> list[str]:
    """The links of the way forward search.html offers for `query` (it has matched nothing)."""
    page.wait_for_function("q => document.querySelector('#search-results').dataset.suggested === q", arg=query)
    return page.eval_on_selector_all("#search-suggest a", "links => links.map(a => a.textContent)")


@pytest.mark.parametrize("engine", ["pagefind", "fallback"])
def test_a_title_or_most_of_it_finds_its_paper_first(engine, built_site, page):
    papers = sorted((paper for paper in site_records(built_site.out) if len(paper["title"].split()) >= 4),
                    key=lambda paper: paper["slug"])[:8]
    assert len(papers) == 8
    with serve_folder(built_site.out) as address:
        page.goto((address if engine == "pagefind" else built_site.out.as_uri() + "/") + "search.html")
        for paper in papers:
            words = paper["title"].split()
            for query in (paper["title"], " ".join(words[:-1])):  # the title, and all of it but its last word
                found, _ = submit(page, query)
                assert found[:1] == [paper["slug"]], (query, found[:3])


@pytest.mark.parametrize("engine", ["pagefind", "fallback"])
def test_a_query_matching_nothing_says_so_and_offers_a_spelling_and_fewer_words(engine, built_site, page):
    terms = read_offline_index(built_site.out)["terms"].split()
    word = next(term for term in terms if len(term) >= 8)  # a frequent title word
    typo = word[0] + word[2] + word[1] + word[3:]  # two letters swapped early, where a stem keeps them
    with serve_folder(built_site.out) as address:
        page.goto((address if engine == "pagefind" else built_site.out.as_uri() + "/") + "search.html")
        assert submit(page, "zzqqxx") == ([], "No papers match “zzqqxx”.")  # never papers that only share a letter
        assert suggestions(page, "zzqqxx") == [] and page.locator("#search-suggest").is_hidden()
        assert submit(page, typo)[0] == []
        offered = suggestions(page, typo)
        assert len(offered) == 1 and re.fullmatch(rf"{word} \(\d+\)", offered[0]), offered
        page.click("#search-suggest a")
        assert submit(page, word)[0], "the suggestion finds papers"
        other = next(term for term in terms if len(term) >= 5 and term != word)
        assert submit(page, f"{typo} {other}")[0], "half the words found are enough"
        assert [text for text in suggestions(page, f"{typo} {other}") if text.startswith(f"{word} {other} (")]
        three = f"{word} zzqqxx qqzzyy"
        assert submit(page, three)[0] == []
        offered = suggestions(page, three)
        assert sorted(text.split(" (")[0] for text in offered) == [f"{word} qqzzyy", f"{word} zzqqxx"], offered


@pytest.mark.parametrize("engine", ["pagefind", "fallback"])
def test_result_authors_link_their_pages_and_results_shift_nothing(engine, authored_site, page):
    page.add_init_script("window.__cls = 0; new PerformanceObserver(list => list.getEntries().forEach(e => "
                         "{ window.__cls += e.value; })).observe({type: 'layout-shift', buffered: true});")
    with serve_folder(authored_site) as address:
        base = address if engine == "pagefind" else authored_site.as_uri() + "/"
        page.goto(base + "search.html?q=catalogue")  # every paper's abstract says it
        wait_for_results(page, engine)
        links = page.eval_on_selector_all("#search-results .result-authors a",
                                          "links => links.map(a => [a.textContent, a.getAttribute('href')])")
        assert len(links) >= 6 and any(not name.isascii() for name, _ in links), links  # an accented name too
        for name, href in links:
            path, slug = href.removeprefix(page.evaluate("document.documentElement.dataset.root")).split("#")
            section = re.search(rf'<section id="{re.escape(slug)}"><h2>(.*?)</h2>',
                                (authored_site / path).read_text(encoding="utf-8"))
            assert section and html.unescape(section[1]) == name, (name, href)
        page.wait_for_timeout(300)
        assert page.evaluate("window.__cls") <= 0.1
