"""Authors: the grouping key and the slugs (tables), then a site rendered from content files with
authors: one page per author whatever the spelling, links from paper pages and cards, the links
at the top of a paper page, the paginated index, and both search engines finding authors."""

from __future__ import annotations

import gzip
import json
import re
import shutil
from contextlib import closing
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from catalogue.site.authors import author_key, author_slug, index_order, initial, shown_names
from catalogue.site import authors as authors_module
from catalogue.system.cache import Cache
from catalogue.site.check import check_site
from catalogue.cli import main
from catalogue.config import SiteConfig
from catalogue.content.rules import load_catalogue
from catalogue.discovery.related import SimilarityProcess
from catalogue.site.pagination import PageSizes
from catalogue.site.render import plan_site
from catalogue.site.templating import make_environment
from catalogue.site.render import KEPT_TYPES
from authored import BASE, hashed, write_content
from conftest import PROJECT, SUBPATH, run_cli, serve_folder, serve_under_subpath
from catalogue.routes import bucket
from site_data import site_records

SHOTS = Path("/tmp/site-shots")


# --- which spellings are one author, and their addresses ----------------------------------


@pytest.mark.parametrize("name, key", [
    ("Ada Lovelace", "ada lovelace"),
    ("  Ada \t LOVELACE ", "ada lovelace"),
    ("Ada\u00a0Lovelace", "ada lovelace"),  # a no-break space is whitespace
    ("Jose\u0301 García", "josé garcía"),  # a combining accent is the precomposed letter (NFC)
    ("Straße", "strasse"),  # case folding, not lower-casing
    ("J. Smith", "j. smith"),  # punctuation is kept: not 'j smith'
    ("Jean-Pierre Dupont", "jean-pierre dupont"),
    ("张伟", "张伟"),
])
def test_the_grouping_key_folds_form_case_and_spacing_only(name, key):
    assert author_key(name) == key


@pytest.mark.parametrize("first, second", [("J. Smith", "John Smith"), ("J. Smith", "J Smith"),
                                           ("José García", "Jose Garcia"), ("Jean-Pierre Dupont", "Jean Pierre Dupont")])
def test_names_that_differ_in_more_are_never_merged(first, second):
    assert author_key(first) != author_key(second)
    assert author_slug(author_key(first)) != author_slug(author_key(second))


@pytest.mark.parametrize("key, slug", [
    ("ada lovelace", "ada-lovelace"),
    ("alan turing 2", "alan-turing-2"),
    ("josé garcía", f"jose-garcia-{hashed('josé garcía')}"),
    ("j. smith", f"j-smith-{hashed('j. smith')}"),
    ("jean-pierre dupont", f"jean-pierre-dupont-{hashed('jean-pierre dupont')}"),
    ("张伟", f"zhang-wei-{hashed('张伟')}"),
    ("ada decade", f"ada-decade-{hashed('ada decade')}"),  # would end as a hashed slug does
    ("facade", "facade"),  # one word: no hashed slug lacks a hyphen
    ("...", f"author-{hashed('...')}"),
    ("ada " * 29 + "ada", "-".join(["ada"] * 20) + f"-{hashed('ada ' * 29 + 'ada')}"),  # long: cut, and hashed
])
def test_slugs_are_plain_for_plain_names_and_hashed_otherwise(key, slug):
    assert author_slug(key) == slug


@given(st.text(min_size=1))
def test_a_slug_is_its_plain_key_or_ends_in_the_key_hash_never_both(name):
    key = author_key(name)
    slug = author_slug(key)
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", slug)
    ends_hashed = re.search(r"-[0-9a-f]{6}$", slug) is not None
    if slug == key.replace(" ", "-"):
        assert not ends_hashed  # so no hashed slug can equal it
    else:
        assert slug.endswith(f"-{hashed(key)}")


@pytest.mark.parametrize("papers, shown", [
    ([("Ada Lovelace",), ("ada lovelace",), ("Ada Lovelace",)], "Ada Lovelace"),  # the most common
    ([("ada lovelace",), ("Ada Lovelace",)], "Ada Lovelace"),  # a tie: the smallest string
    ([("ada lovelace", "ada lovelace"), ("ADA LOVELACE",)], "ADA LOVELACE"),  # a paper counts once
])
def test_the_shown_spelling_is_the_most_common(papers, shown):
    assert shown_names(papers) == {"ada lovelace": shown}


@pytest.mark.parametrize("name, letter", [("José García", "J"), ("Élodie Roux", "E"), ("Łukasz Kaiser", "L"),
                                          ("张伟", "Z"), ("3D Lab", "#"), ("...", "#")])
def test_initials_of_the_index(name, letter):
    assert initial(name) == letter


def test_the_index_is_alphabetical_by_letters_with_other_initials_last():
    names = ["Zoe Ng", "élodie Roux", "3D Lab", "Anna Berg", "bob Stone", "Ana Berg"]
    assert sorted(names, key=index_order) == ["Ana Berg", "Anna Berg", "bob Stone", "élodie Roux", "Zoe Ng", "3D Lab"]


# --- a site with authors (tests/authored.py) ----------------------------------------------


ACCENTED = f"jose-garcia-{hashed('josé garcía')}"  # a name with accents: its words and a hash


@pytest.fixture
def site(authored_site) -> Path:
    return authored_site


def read(site: Path, path: str) -> str:
    return (site / path).read_text(encoding="utf-8")


def main_of(html: str) -> str:
    return html[html.index("<main"):html.index("</main>")]


def test_spellings_of_one_author_share_one_page_listing_all_their_papers_newest_first(site):
    assert sorted(p.name for p in (site / "authors").glob("*/*") if "lovelace" in p.name) == ["ada-lovelace"]
    page = main_of(read(site, f"authors/{bucket('ada-lovelace')}/ada-lovelace/index.html"))
    assert "<h1 dir=\"auto\">Ada Lovelace</h1>" in page  # a tie between the two spellings: the smaller string
    assert 0 < page.index(f"../../../papers/{bucket('engines')}/engines/index.html") < page.index(f"../../../papers/{bucket('notes')}/notes/index.html")
    assert 'class="card' in page and "2 papers" in page


def test_a_name_with_an_accent_has_a_hashed_address(site):
    slug = f"jose-garcia-{hashed('josé garcía')}"
    assert "<h1 dir=\"auto\">José García</h1>" in read(site, f"authors/{bucket(slug)}/{slug}/index.html")
    assert f'href="../../../authors/{bucket(slug)}/{slug}/index.html"' in read(site, f"papers/{bucket('notes')}/notes/index.html")


def test_the_paper_page_links_its_authors_and_leads_with_its_links(site):
    article = read(site, f"papers/{bucket('engines')}/engines/index.html")
    article = article[article.index("<article"):article.index("</article>")]
    authors = re.search(r'<p class="authors"[^>]*>(.*?)</p>', article, re.S)
    assert re.findall(r'href="([^"]+)"', authors[1]) == [f"../../../authors/{bucket('ada-lovelace')}/ada-lovelace/index.html",
                                                        f"../../../authors/{bucket('alan-turing')}/alan-turing/index.html"]
    assert 'data-pagefind-filter="author">Ada Lovelace</a>' in authors[1]
    links = re.search(r'<ul class="paper-links".*?</ul>', article, re.S)[0]
    assert re.findall(r'<a class="button" href="([^"]+)">([^<]+)</a>', links) == [
        ("https://example.org/engines.pdf", "PDF"), ("https://proceedings.example.org/engines", "Proceedings"),
        ("https://github.com/a/engines", "Code"), ("https://engines.example.org/", "Project page")]
    assert article.index("</h1>") < authors.start() < article.index("paper-links") < article.index('class="abstract"')
    assert article.count("https://github.com/a/engines") == 1  # not again below the abstract
    notes = read(site, f"papers/{bucket('notes')}/notes/index.html")  # 'ada  LOVELACE': shown as the author's page shows the name
    assert f'<a dir="auto" href="../../../authors/{bucket("ada-lovelace")}/ada-lovelace/index.html" data-pagefind-filter="author">Ada Lovelace</a>' in notes
    assert '<meta name="citation_author" content="ada  LOVELACE">' in notes  # citations: as the paper gives it


def card(html: str, slug: str) -> str:
    return next(c for c in re.findall(r'<li class="card".*?</li>\n', html, re.S) if f"papers/{bucket(slug)}/{slug}/index.html" in c)


@pytest.mark.parametrize("page, root", [("index.html", ""), ("topics/optimization/index.html", "../../"),
                                        ("venues/iclr-2025/index.html", "../../"),
                                        (f"authors/{bucket('grace-hopper')}/grace-hopper/index.html", "../../../")])
def test_cards_show_the_first_authors_then_et_al(site, page, root):
    notes = re.search(r'<p class="card-authors">(.*?)</p>', card(read(site, page), "notes"), re.S)[1]
    assert re.findall(r'<a href="([^"]+)">([^<]+)</a>', notes) == [
        (f"{root}authors/{bucket('ada-lovelace')}/ada-lovelace/index.html", "Ada Lovelace"),
        (f"{root}authors/{bucket(ACCENTED)}/{ACCENTED}/index.html", "José García"),
        (f"{root}authors/{bucket('grace-hopper')}/grace-hopper/index.html", "Grace Hopper")]
    assert notes.endswith(" et al.") and "Dijkstra" not in notes
    if page == "index.html":
        assert "card-authors" not in card(read(site, page), "anonymous")


def test_the_authors_index_lists_everyone_alphabetically_with_counts(site):
    page = main_of(read(site, "authors/index.html"))
    names = re.findall(r'<li><a href="[^"]+">([^<]+)</a> <span class="chip-count">([^<]+)</span>', page)
    assert names == [("Ada Lovelace", "2 papers"), ("Alan Turing", "2 papers"), ("Edsger Dijkstra", "1 paper"),
                     ("Grace Hopper", "1 paper"), ("José García", "1 paper")]
    assert re.findall(r'<a href="([^"]+)">([A-Z#])</a>', page) == [
        (f"../authors/index.html#letter-{letter.lower()}", letter) for letter in "AEGJ"]
    assert '<a href="authors/index.html">Authors</a>' in read(site, "index.html")  # in the header


def test_the_authors_index_is_paginated_with_a_letter_bar_to_each_page(tmp_path):
    content = write_content(tmp_path)
    with closing(Cache.beside(content, KEPT_TYPES)) as cache, SimilarityProcess() as similarity:
        batches = plan_site(load_catalogue(content, cache), SiteConfig(), make_environment(PROJECT / "templates"),
                            cache, similarity, sizes=PageSizes(authors=2))
        outputs = {output.path: output for output in batches[0].plan()}
    index = [path for path in outputs if re.fullmatch(r"authors/(page/\d+/)?index\.html", path)]
    assert index == ["authors/index.html", "authors/page/2/index.html", "authors/page/3/index.html"]
    pages = [main_of(outputs[path].make()) for path in index]
    shown = [re.findall(r'<li><a href="[^"]+/index.html">([^<]+)</a>', page) for page in pages]
    assert shown == [["Ada Lovelace", "Alan Turing"], ["Edsger Dijkstra", "Grace Hopper"], ["José García"]]
    jumps = re.findall(r'<li><a href="([^"]+)">[A-Z]</a></li>', pages[1])
    assert jumps == ["../../../authors/index.html#letter-a", "../../../authors/page/2/index.html#letter-e",
                     "../../../authors/page/2/index.html#letter-g", "../../../authors/page/3/index.html#letter-j"]
    assert 'id="letter-e"' in pages[1] and 'id="letter-g"' in pages[1]
    assert re.findall(r'rel="(prev|next)"', pages[1]) == ["prev", "next"] and "Page 2 of 3" in pages[1]
    assert 'href="../../../authors/index.html" rel="prev"' in pages[1]
    assert re.findall(r'rel="(prev|next)"', pages[0]) == ["next"]


def fragments(site: Path) -> dict[str, dict]:
    found = {}
    for path in (site / "pagefind").glob("*/fragment/*.pf_fragment"):
        data = json.loads(gzip.decompress(path.read_bytes()).removeprefix(b"pagefind_dcd"))
        found[data["url"]] = data
    return found


def test_pagefind_indexes_authors_as_text_and_as_the_author_filter(site):
    pages = fragments(site)
    engines, notes = pages[f"/papers/{bucket('engines')}/engines/"], pages[f"/papers/{bucket('notes')}/notes/"]
    assert engines["filters"]["author"] == ["Ada Lovelace", "Alan Turing"]
    assert notes["filters"]["author"][0] == "Ada Lovelace"  # the author's spelling, whatever the paper's
    assert "Ada Lovelace, Alan Turing" in engines["content"]
    assert "author" not in pages[f"/papers/{bucket('anonymous')}/anonymous/"]["filters"]


def test_the_offline_index_carries_each_papers_authors(site):
    data = json.loads(read(site, "search-index.js").removeprefix("window.CATALOGUE_SEARCH = ").rstrip(";\n"))
    rows = {row[0]: row for row in data["papers"]}
    assert rows["engines"][6] == ["Ada Lovelace", "Alan Turing"]
    assert rows["anonymous"][6] == []  # no authors


def test_citations_structured_data_and_papers_json_name_the_authors(site):
    page = read(site, f"papers/{bucket('engines')}/engines/index.html")
    assert re.findall(r'<meta name="citation_author" content="([^"]+)">', page) == ["Ada Lovelace", "Alan Turing"]
    assert "author = {Ada Lovelace and Alan Turing}" in read(site, f"papers/{bucket('engines')}/engines/engines.bib")
    data = json.loads(re.search(r'<script type="application/ld\+json">(.*?)</script>', page)[1])
    assert data["author"] == [{"@type": "Person", "name": "Ada Lovelace", "url": f"{BASE}authors/{bucket('ada-lovelace')}/ada-lovelace/"},
                              {"@type": "Person", "name": "Alan Turing", "url": f"{BASE}authors/{bucket('alan-turing')}/alan-turing/"}]
    record = next(r for r in site_records(site) if r["slug"] == "engines")
    assert record["authors"] == ["Ada Lovelace", "Alan Turing"]
    assert record["proceedings_url"] == "https://proceedings.example.org/engines"


def test_the_sitemap_lists_the_author_pages(site):
    sitemap = read(site, "sitemap.xml")
    for path in ("authors/", f"authors/{bucket('ada-lovelace')}/ada-lovelace/", f"authors/{bucket(ACCENTED)}/{ACCENTED}/"):
        assert f"<loc>{BASE}{path}</loc>" in sitemap


def test_check_passes_and_notices_a_missing_author_page(site, tmp_path):
    assert check_site(site, validate_html=False) == []
    damaged = Path(shutil.copytree(site, tmp_path / "site"))
    (damaged / "authors" / bucket("grace-hopper") / "grace-hopper" / "index.html").unlink()
    problems = check_site(damaged, validate_html=False)
    assert f"authors/{bucket('grace-hopper')}/grace-hopper/index.html: missing; the page of 'Grace Hopper' in papers.json" in problems


def test_the_seeds_have_no_author_pages(built_site):
    assert not (built_site.out / "authors").exists()
    assert "authors/index.html" not in read(built_site.out, "index.html")
    assert "card-authors" not in read(built_site.out, "index.html")


# --- in Chromium ---------------------------------------------------------------------------


def result_texts(page, address: str, engine: str) -> tuple[list[str], list[str]]:
    """The results' texts and their excerpts."""
    page.goto(address)
    page.wait_for_selector(f"#search-results[data-engine='{engine}'] .result")
    return (page.locator("#search-results .result").all_inner_texts(),
            page.locator("#search-results .result-excerpt").all_inner_texts())


@pytest.mark.parametrize("query", ["Lovelace", "grace hopper"])
def test_both_search_engines_find_a_paper_by_its_authors_and_show_them(site, browser, query):
    page = browser.new_page()
    offline = result_texts(page, (site / "search.html").as_uri() + f"?q={query}", "fallback")
    with serve_folder(site) as address:
        hosted = result_texts(page, f"{address}search.html?q={query}", "pagefind")
    page.close()
    for results, excerpts in (offline, hosted):
        assert "The notes paper" in results[0] + (results[1] if len(results) > 1 else "")
        notes = next(text for text in results if "The notes paper" in text)
        assert "Ada Lovelace, José García, Grace Hopper et al." in notes
        assert not any("to my list" in excerpt for excerpt in excerpts)  # the star's label is never indexed


def test_an_authors_page_leads_to_a_search_filtered_to_their_papers_in_both_engines(site, browser):
    listed = sorted(re.findall(r'class="card-title"><a href="[^"]*">([^<]+)</a>',
                               main_of(read(site, f"authors/{bucket('ada-lovelace')}/ada-lovelace/index.html"))))
    assert len(listed) == 2
    page = browser.new_page()
    addresses = [(site / "authors" / bucket("ada-lovelace") / "ada-lovelace" / "index.html").as_uri()]
    with serve_folder(site) as address:
        addresses.append(f"{address}authors/{bucket('ada-lovelace')}/ada-lovelace/index.html")
        for engine, start in zip(("fallback", "pagefind"), addresses):
            page.goto(start)
            page.get_by_role("link", name="Search their papers").click()
            page.wait_for_selector(f"#search-results[data-engine='{engine}'] .result")
            assert "author=Ada+Lovelace" in page.url
            assert page.locator("#filter-author .chip").inner_text() == "Ada Lovelace"
            found = page.locator("#search-results .result-link").all_inner_texts()
            assert sorted(found) == listed, engine
            page.locator("#filter-author button").click()  # any author again: no query, no filter, no results
            page.wait_for_function("() => !document.querySelector('#search-results .result')")
            assert "author=" not in page.url and page.locator("#filter-author").is_hidden()
    page.close()


@pytest.mark.parametrize("device, viewport", [("desktop", {"width": 1280, "height": 900}),
                                              ("phone", {"width": 390, "height": 844})])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_paper_page_with_authors_and_links_looks_right(site, browser, device, viewport, scheme):
    page = browser.new_page(viewport=viewport, color_scheme=scheme)
    page.goto((site / "papers" / bucket("engines") / "engines" / "index.html").as_uri())
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"paper-with-authors-{device}-{scheme}.png"))
    box = {selector: page.locator(selector).bounding_box()
           for selector in (".paper h1", ".paper .authors", ".paper-links", ".abstract")}
    assert box[".paper h1"]["y"] < box[".paper .authors"]["y"] < box[".paper-links"]["y"] < box[".abstract"]["y"]
    assert box[".paper-links"]["y"] + box[".paper-links"]["height"] < viewport["height"]  # seen without scrolling
    buttons = page.locator(".paper-links a").all()
    assert [b.inner_text() for b in buttons] == ["PDF", "Proceedings", "Code", "Project page"]
    rows = {round(b.bounding_box()["y"]) for b in buttons}
    assert len(rows) == 1 if device == "desktop" else len(rows) <= 2  # a phone wraps them, once
    assert all(b.bounding_box()["x"] + b.bounding_box()["width"] <= viewport["width"] for b in buttons)
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    page.close()


def test_two_authors_at_one_address_stop_the_build_naming_both(tmp_path, monkeypatch):
    monkeypatch.setattr(authors_module, "author_slug", lambda key: "someone")  # as if two hashes agreed
    content = write_content(tmp_path)
    result = CliRunner().invoke(main, ["render", "--content", str(content), "--out", str(tmp_path / "site")])
    assert result.exit_code == 1
    assert (f"authors/{bucket('someone')}/someone/index.html: would be the page of two authors, 'ada  LOVELACE' (seeds/list.json:record "
            "2025) and 'José García' (seeds/list.json:record 2025)") in result.output
    assert not (tmp_path / "site").exists()


def test_author_and_paper_addresses_before_buckets_reach_their_pages_under_a_subpath(browser, tmp_path):
    """authors/<slug>/ and papers/<slug>/ as the layout before buckets published them: served under a
    subpath with 404.html for missing paths, as GitHub Pages and Netlify serve it, they forward."""
    content = write_content(tmp_path)
    run_cli("render", "--content", str(content), "--out", str(tmp_path / "site"), "--base-url",
            f"https://example.org/{SUBPATH}/")
    accented = next(p.name for p in (tmp_path / "site" / "authors").glob("*/*") if p.name.startswith("jose-garcia"))
    old_to_new = {f"authors/{slug}/{rest}": f"authors/{bucket(slug)}/{slug}/{rest}"
                  for slug, rest in (("ada-lovelace", ""), ("grace-hopper", "index.html"), (accented, ""))}
    old_to_new["papers/notes/#abstract"] = f"papers/{bucket('notes')}/notes/#abstract"
    context = browser.new_context()
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    with serve_under_subpath(tmp_path / "site", tmp_path / "served", not_found=True) as base:
        for old, new in old_to_new.items():
            page.goto(base + old)
            page.wait_for_url(base + new)
            assert page.locator("h1").count() == 1 and "not found" not in page.title().lower(), old
    context.close()
    assert errors == []
