"""Authors: the grouping key, the slugs and the order by family name (tables), then a site rendered
from content files with authors: one section per author whatever the spelling, on the page of their
bucket, links from paper pages and cards, the links at the top of a paper page, the paginated index,
both search engines finding authors, an address that names an author showing them alone, and the
addresses of earlier layouts forwarded to it."""

from __future__ import annotations

import gzip
import json
import re
import shutil
import sys
import types
from contextlib import closing
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from slugify import slugify

from catalogue.portable import is_device_name
from catalogue.site.authors import author_key, author_slug, family_and_given, index_order, initial, latin, shown_names
from catalogue.search.offline import read_offline_index
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
from authored import BASE, PAPERS, hashed, paper, write_content
from conftest import PROJECT, SUBPATH, run_cli, serve_folder, serve_under_subpath
from catalogue.routes import bucket, venue_slug
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


@given(st.one_of(st.from_regex(r"[a-z0-9]+( [a-z0-9]+)*", fullmatch=True), st.text(), st.text(min_size=70)))
def test_a_slug_is_python_slugifys_as_the_rule_says(name):
    key = author_key(name)
    slug = slugify(key)
    if re.fullmatch(r"[a-z0-9]+( [a-z0-9]+)*", key) and not re.search(r" [0-9a-f]{6}$", key) and len(slug) <= 80 \
            and not is_device_name(slug):
        assert author_slug(key) == slug
    else:
        base = slugify(key, max_length=80, word_boundary=True) or "author"
        assert author_slug(key) == f"{base}-{hashed(key)}"


@given(st.one_of(st.from_regex(r"[a-z0-9]+( [a-z0-9]+)*", fullmatch=True), st.text()), st.sampled_from(["-", " "]))
def test_latin_is_python_slugify_with_or_without_its_shortcut(text, separator):
    assert latin(text, separator) == slugify(text, separator=separator)


def test_slugs_do_not_change_when_unidecode_is_installed(monkeypatch):
    """python-slugify's default takes Unidecode when it can import it: the site's slugs stay text-unidecode's."""
    names = ["José García", "Zoë Ångström", "张伟", "Łukasz Kaiser"]
    before = [(author_slug(author_key(name)), latin(name), venue_slug(name)) for name in names]
    assert all(plain.isascii() for _, plain, _ in before)
    other = types.ModuleType("unidecode")
    other.unidecode = lambda text: "x" * len(text)  # a transliteration unlike text-unidecode's
    monkeypatch.setitem(sys.modules, "unidecode", other)
    assert set(slugify(names[0])) == {"x"}  # the default does take it
    author_slug.cache_clear()
    assert [(author_slug(author_key(name)), latin(name), venue_slug(name)) for name in names] == before


@pytest.mark.parametrize("papers, shown", [
    ([("Ada Lovelace",), ("ada lovelace",), ("Ada Lovelace",)], "Ada Lovelace"),  # the most common
    ([("ada lovelace",), ("Ada Lovelace",)], "Ada Lovelace"),  # a tie: the smallest string
    ([("ada lovelace", "ada lovelace"), ("ADA LOVELACE",)], "ADA LOVELACE"),  # a paper counts once
])
def test_the_shown_spelling_is_the_most_common(papers, shown):
    assert shown_names(papers) == {"ada lovelace": shown}


@pytest.mark.parametrize("name, family, given", [
    ("Ada Lovelace", "lovelace", "ada"),
    ("José  García", "garcia", "jose"),  # accents dropped, as in slugs
    ("Wei-Lun Chao", "chao", "wei lun"),
    ("Martin Luther King Jr.", "king", "martin luther jr"),  # a suffix is not the family name
    ("Henry Ford III", "ford", "henry iii"),
    ("张伟", "zhang wei", ""),  # written without spaces: filed whole, transliterated
    ("Cher", "cher", ""),
    ("", "", ""),
])
def test_the_family_name_is_the_last_word_but_a_suffix(name, family, given):
    assert family_and_given(name) == (family, given)


@pytest.mark.parametrize("name, letter", [("José García", "G"), ("Élodie Roux", "R"), ("Łukasz Kaiser", "K"),
                                          ("Anna Łukasz", "L"), ("张伟", "Z"), ("Lab 3D", "#"), ("...", "#")])
def test_initials_of_the_index_are_the_family_names(name, letter):
    assert initial(name) == letter


def test_the_index_is_by_family_name_then_given_names_with_other_initials_last():
    names = ["Zoe Ng", "élodie Roux", "Lab 3D", "Anna Berg", "bob Stone", "Ana Berg", "Martin King Jr.", "Bea Berg-Ames"]
    assert sorted(names, key=index_order) == ["Ana Berg", "Anna Berg", "Bea Berg-Ames", "Martin King Jr.", "Zoe Ng",
                                              "élodie Roux", "bob Stone", "Lab 3D"]


# --- a site with authors (tests/authored.py) ----------------------------------------------


ACCENTED = f"jose-garcia-{hashed('josé garcía')}"  # a name with accents: its words and a hash
AUTHORS = ("ada-lovelace", "alan-turing", "edsger-dijkstra", "grace-hopper", ACCENTED)


@pytest.fixture
def site(authored_site) -> Path:
    return authored_site


def read(site: Path, path: str) -> str:
    return (site / path).read_text(encoding="utf-8")


def main_of(html: str) -> str:
    return html[html.index("<main"):html.index("</main>")]


def section(site: Path, slug: str) -> str:
    """An author's section of their bucket's page."""
    page = read(site, f"authors/{bucket(slug)}/index.html")
    found = re.search(rf'<section id="{slug}">.*?</section>', page, re.S)
    assert found, f"no section {slug} in authors/{bucket(slug)}/index.html"
    return found[0]


def test_spellings_of_one_author_share_one_section_listing_all_their_papers_newest_first(site):
    assert sorted(p.relative_to(site / "authors").as_posix() for p in (site / "authors").rglob("*")
                  if p.is_dir() and p.name != "page") == sorted({bucket(slug) for slug in AUTHORS})  # a page per bucket, no more
    html = read(site, f"authors/{bucket('ada-lovelace')}/index.html")
    assert html.count("<h2>Ada Lovelace</h2>") == 1 and "LOVELACE" not in html  # a tie between the two spellings: the smaller string
    ada = section(site, "ada-lovelace")
    assert 0 < ada.index(f"../../papers/{bucket('engines')}/engines/index.html") < ada.index(f"../../papers/{bucket('notes')}/notes/index.html")
    assert re.findall(r"<li><a [^>]+>([^<]+)</a> · ([^<\n]+)\n", ada) == [("The engines paper", "ICML 2026"),
                                                                           ("The notes paper", "ICLR 2025")]
    assert "2 papers" in ada and 'class="card' not in html and "excerpt" not in html and 'class="topics"' not in main_of(html)


def test_a_name_with_an_accent_has_a_hashed_address(site):
    slug = f"jose-garcia-{hashed('josé garcía')}"
    assert "<h2>José García</h2>" in section(site, slug)
    assert f'href="../../../authors/{bucket(slug)}/index.html#{slug}"' in read(site, f"papers/{bucket('notes')}/notes/index.html")


def test_the_paper_page_links_its_authors_and_leads_with_its_links(site):
    article = read(site, f"papers/{bucket('engines')}/engines/index.html")
    article = article[article.index("<article"):article.index("</article>")]
    authors = re.search(r'<p class="authors"[^>]*>(.*?)</p>', article, re.S)
    assert re.findall(r'href="([^"]+)"', authors[1]) == [f"../../../authors/{bucket('ada-lovelace')}/index.html#ada-lovelace",
                                                        f"../../../authors/{bucket('alan-turing')}/index.html#alan-turing"]
    assert 'data-pagefind-filter="author">Ada Lovelace</a>' in authors[1]
    links = re.search(r'<ul class="paper-links".*?</ul>', article, re.S)[0]
    assert re.findall(r'<a class="button" href="([^"]+)">([^<]+)</a>', links) == [
        ("https://example.org/engines.pdf", "PDF"), ("https://proceedings.example.org/engines", "Proceedings"),
        ("https://github.com/a/engines", "Code"), ("https://engines.example.org/", "Project page")]
    assert article.index("</h1>") < authors.start() < article.index("paper-links") < article.index('class="abstract"')
    assert article.count("https://github.com/a/engines") == 1  # not again below the abstract
    notes = read(site, f"papers/{bucket('notes')}/notes/index.html")  # 'ada  LOVELACE': shown as the author's page shows the name
    assert f'<a dir="auto" href="../../../authors/{bucket("ada-lovelace")}/index.html#ada-lovelace" data-pagefind-filter="author">Ada Lovelace</a>' in notes
    assert '<meta name="citation_author" content="ada  LOVELACE">' in notes  # citations: as the paper gives it


def card(html: str, slug: str) -> str:
    return next(c for c in re.findall(r'<li class="card".*?</li>\n', html, re.S) if f"papers/{bucket(slug)}/{slug}/index.html" in c)


@pytest.mark.parametrize("page, root", [("index.html", ""), ("topics/optimization/index.html", "../../"),
                                        ("venues/iclr-2025/index.html", "../../")])
def test_cards_show_the_first_authors_then_et_al(site, page, root):
    notes = re.search(r'<p class="card-authors">(.*?)</p>', card(read(site, page), "notes"), re.S)[1]
    assert re.findall(r'<a href="([^"]+)">([^<]+)</a>', notes) == [
        (f"{root}authors/{bucket('ada-lovelace')}/index.html#ada-lovelace", "Ada Lovelace"),
        (f"{root}authors/{bucket(ACCENTED)}/index.html#{ACCENTED}", "José García"),
        (f"{root}authors/{bucket('grace-hopper')}/index.html#grace-hopper", "Grace Hopper")]
    assert notes.endswith(" et al.") and "Dijkstra" not in notes
    if page == "index.html":
        assert "card-authors" not in card(read(site, page), "anonymous")


def test_the_authors_index_lists_everyone_by_family_name_with_counts_and_links_their_sections(site):
    page = main_of(read(site, "authors/index.html"))
    names = re.findall(r'<li><a href="([^"]+)">([^<]+)</a> <span class="chip-count">([^<]+)</span>', page)
    assert [(name, count) for _, name, count in names] == [
        ("Edsger Dijkstra", "1 paper"), ("José García", "1 paper"), ("Grace Hopper", "1 paper"),
        ("Ada Lovelace", "2 papers"), ("Alan Turing", "2 papers")]
    for link, name, _ in names:
        target, slug = link.split("#")
        assert f"<h2>{name}</h2>" in section(site, slug) and target == f"../authors/{bucket(slug)}/index.html"
    assert re.findall(r'<a href="([^"]+)">([A-Z#])</a>', page) == [
        (f"../authors/index.html#letter-{letter.lower()}", letter) for letter in "DGHLT"]
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
    shown = [re.findall(r'<li><a href="[^"]+">([^<]+)</a> <span class="chip-count">', page) for page in pages]
    assert shown == [["Edsger Dijkstra", "José García"], ["Grace Hopper", "Ada Lovelace"], ["Alan Turing"]]
    jumps = re.findall(r'<li><a href="([^"]+)">[A-Z]</a></li>', pages[1])
    assert jumps == ["../../../authors/index.html#letter-d", "../../../authors/index.html#letter-g",
                     "../../../authors/page/2/index.html#letter-h", "../../../authors/page/2/index.html#letter-l",
                     "../../../authors/page/3/index.html#letter-t"]
    assert 'id="letter-h"' in pages[1] and 'id="letter-l"' in pages[1]
    assert re.findall(r'rel="(prev|next)"', pages[1]) == ["prev", "next"] and "Page 2 of 3" in pages[1]
    assert 'href="../../../authors/index.html" rel="prev"' in pages[1]
    assert re.findall(r'rel="(prev|next)"', pages[0]) == ["next"]


def fragments(site: Path) -> dict[str, dict]:
    found = {}
    for path in (site / "pagefind").glob("*/fragment/*/*.pf_fragment"):
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
    data = read_offline_index(site)
    rows = {row[0]: row for row in data["papers"]}
    assert rows["engines"][6] == ["Ada Lovelace", "Alan Turing"]
    assert rows["anonymous"][6] == []  # no authors


def test_citations_structured_data_and_papers_json_name_the_authors(site):
    page = read(site, f"papers/{bucket('engines')}/engines/index.html")
    assert re.findall(r'<meta name="citation_author" content="([^"]+)">', page) == ["Ada Lovelace", "Alan Turing"]
    assert "author = {Ada Lovelace and Alan Turing}" in read(site, f"papers/{bucket('engines')}/engines/engines.bib")
    data = json.loads(re.search(r'<script type="application/ld\+json">(.*?)</script>', page)[1])
    assert data["author"] == [{"@type": "Person", "name": "Ada Lovelace"}, {"@type": "Person", "name": "Alan Turing"}]
    record = next(r for r in site_records(site) if r["slug"] == "engines")
    assert record["authors"] == ["Ada Lovelace", "Alan Turing"]
    assert record["proceedings_url"] == "https://proceedings.example.org/engines"


def test_the_sitemap_lists_the_pages_of_authors_once_each(site):
    sitemap = read(site, "sitemap.xml")
    for path in ("authors/", *{f"authors/{bucket(slug)}/" for slug in AUTHORS}):
        assert sitemap.count(f"<loc>{BASE}{path}</loc>") == 1
    assert "#" not in sitemap and f"{BASE}authors/{bucket('ada-lovelace')}/ada-lovelace/" not in sitemap


def test_check_passes_and_notices_a_missing_or_misnamed_author(site, tmp_path):
    assert check_site(site, validate_html=False) == []
    damaged = Path(shutil.copytree(site, tmp_path / "site"))
    grace, ada = damaged / "authors" / bucket("grace-hopper") / "index.html", damaged / "authors" / bucket("ada-lovelace") / "index.html"
    grace.write_text(grace.read_text(encoding="utf-8").replace('id="grace-hopper"', 'id="someone-else"'), encoding="utf-8")
    ada.write_text(ada.read_text(encoding="utf-8").replace("<h2>Ada Lovelace</h2>", "<h2>Ada King</h2>"), encoding="utf-8")
    problems = check_site(damaged, validate_html=False)
    assert f"authors/{bucket('grace-hopper')}/index.html#grace-hopper: missing; the page of 'Grace Hopper' in papers.json" in problems
    assert (f"authors/{bucket('ada-lovelace')}/index.html#ada-lovelace: is headed 'Ada King', not 'Ada Lovelace' "
            "as papers.json says") in problems
    (damaged / "authors" / bucket("alan-turing") / "index.html").unlink()
    assert (f"authors/{bucket('alan-turing')}/index.html#alan-turing: missing; the page of 'Alan Turing' in papers.json"
            in check_site(damaged, validate_html=False))


def test_the_seeds_have_no_author_pages(built_site):
    assert not (built_site.out / "authors").exists()
    assert "authors/index.html" not in read(built_site.out, "index.html")
    assert "card-authors" not in read(built_site.out, "index.html")


# --- a bucket's page, shared by several authors ---------------------------------------------


GIVEN = ("Ana", "Bo", "Chidi", "Dana", "Emil", "Farah", "Goran", "Hana", "Ivo", "Jun", "Kofi", "Lena", "Mira", "Nils")
FAMILY = ("Abara", "Brandt", "Costa", "Dahl", "Engel", "Fuchs", "Gupta", "Horvat", "Ito", "Jensen", "Kaur", "Lind",
          "Moreau", "Novak", "Okafor", "Petrov", "Quist", "Rossi", "Sato", "Tanaka", "Ueda", "Vidal", "Wolff", "Young")


def bucket_mates() -> list[str]:
    """Names whose pages share Ada Lovelace's bucket (found by the rule, whatever it gives)."""
    names = [f"{given} {family}" for family in FAMILY for given in GIVEN]
    mates = [name for name in names if bucket(author_slug(author_key(name))) == bucket("ada-lovelace")]
    assert len(mates) >= 3, mates
    return mates[:4]


@pytest.fixture(scope="module")
def shared_site(tmp_path_factory) -> Path:
    """tests/authored.py's papers and two more whose authors share Ada Lovelace's bucket."""
    mates = bucket_mates()
    root = tmp_path_factory.mktemp("shared-bucket")
    content = write_content(root, PAPERS + [paper("mates", 2023, "NeurIPS", tuple(mates[::-1])),
                                            paper("again", 2024, "ICML", (mates[1], "Ada Lovelace"))])
    run_cli("render", "--content", str(content), "--out", str(root / "site"), "--base-url", BASE)
    return root / "site"


def test_a_bucket_page_holds_its_authors_by_family_name_each_with_all_their_papers(shared_site):
    mates = bucket_mates()
    html = read(shared_site, f"authors/{bucket('ada-lovelace')}/index.html")
    sections = re.findall(r'<section id="([^"]+)"><h2>([^<]+)</h2>', html)
    expected = sorted([*mates, "Ada Lovelace"], key=index_order)
    assert [name for _, name in sections] == expected  # by family name
    assert all(bucket(slug) == bucket("ada-lovelace") and slug == author_slug(author_key(name)) for slug, name in sections)
    papers = {name: re.findall(r'<li><a href="../../papers/[0-9a-f]{2}/([^/]+)/index.html">', section(shared_site, slug))
              for slug, name in sections}
    assert papers == {**{name: ["mates"] for name in mates}, mates[1]: ["again", "mates"],
                      "Ada Lovelace": ["engines", "notes", "again"]}  # newest first
    title = re.search(r"<title>([^<]+) · ", html)[1]
    assert title == f"Authors from {expected[0]} to {expected[-1]}" and f"<p class=\"count\">{len(expected)} authors</p>" in html
    assert check_site(shared_site, validate_html=False) == [
        "pagefind/: missing; the site was built without search (--no-search, or by render alone): run 'python3 build.py index'"]


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


def test_an_authors_section_leads_to_a_search_filtered_to_their_papers_in_both_engines(site, browser):
    listed = sorted(re.findall(r'<li><a href="[^"]*">([^<]+)</a>', section(site, "ada-lovelace")))
    assert len(listed) == 2
    page = browser.new_page()
    addresses = [(site / "authors" / bucket("ada-lovelace") / "index.html").as_uri() + "#ada-lovelace"]
    with serve_folder(site) as address:
        addresses.append(f"{address}authors/{bucket('ada-lovelace')}/index.html#ada-lovelace")
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


def visible_authors(page) -> list[str]:
    return page.locator(".authors-page section h2:visible").all_inner_texts()


def test_an_address_naming_an_author_shows_them_alone_names_the_tab_and_focuses_them(shared_site, browser):
    mates = sorted([*bucket_mates(), "Ada Lovelace"], key=index_order)
    slugs = {name: author_slug(author_key(name)) for name in mates}
    address = (shared_site / "authors" / bucket("ada-lovelace") / "index.html").as_uri()
    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(address)
    assert visible_authors(page) == mates and page.locator("h1").is_visible()  # no author named: the whole page
    bucket_title = page.title()
    assert bucket_title == f"Authors from {mates[0]} to {mates[-1]} · Paper Catalogue"
    for name in (mates[2], "Ada Lovelace"):
        page.goto(f"{address}#{slugs[name]}")
        page.wait_for_function("name => document.title === name + ' · Paper Catalogue'", arg=name)
        assert visible_authors(page) == [name] and not page.locator("h1").is_visible()
        assert page.evaluate("document.activeElement.tagName + ' ' + document.activeElement.textContent") == f"H2 {name}"
        assert page.get_by_role("link", name="Search their papers").count() == 1  # only the shown author's
        assert page.get_by_role("link", name="Authors").first.is_visible()  # the way to the index stays
    page.goto(address)
    assert visible_authors(page) == mates and page.title() == bucket_title
    page.close()
    assert errors == []


def test_without_javascript_an_address_naming_an_author_still_brings_them_into_view(shared_site, browser):
    mates = sorted([*bucket_mates(), "Ada Lovelace"], key=index_order)
    last = mates[-1]
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 500})
    page = context.new_page()
    page.goto((shared_site / "authors" / bucket("ada-lovelace") / "index.html").as_uri() + f"#{author_slug(author_key(last))}")
    heading = page.get_by_role("heading", name=last)
    assert heading.is_visible() and page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    box = heading.bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= 500  # in view
    assert page.title().startswith("Authors from ")  # the tab keeps the page's name: only a script renames it
    context.close()


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
    assert (f"authors/{bucket('someone')}/index.html#someone: would be the page of two authors, 'ada  LOVELACE' (seeds/list.json:record "
            "2025) and 'José García' (seeds/list.json:record 2025)") in result.output
    assert not (tmp_path / "site").exists()


def test_earlier_author_addresses_reach_their_section_under_a_subpath(browser, tmp_path):
    """authors/<slug>/ (the layout before buckets), authors/<bucket>/<slug>/ (a page of their own in a
    bucket) and anything inside them, and papers/<slug>/: served under a subpath with 404.html for
    missing paths, as GitHub Pages and Netlify serve it, they forward to the address now."""
    content = write_content(tmp_path)
    run_cli("render", "--content", str(content), "--out", str(tmp_path / "site"), "--base-url",
            f"https://example.org/{SUBPATH}/")
    ada, grace, alan, edsger = (f"authors/{bucket(slug)}/" for slug in ("ada-lovelace", "grace-hopper", "alan-turing",
                                                                         "edsger-dijkstra"))
    old_to_new = {
        "authors/ada-lovelace/": f"{ada}#ada-lovelace",
        "authors/grace-hopper/index.html": f"{grace}#grace-hopper",
        f"authors/{ACCENTED}/": f"authors/{bucket(ACCENTED)}/#{ACCENTED}",
        "authors/alan-turing/page/2/index.html?view=x#papers": f"{alan}?view=x#alan-turing",  # a page of their list: them
        f"{edsger}edsger-dijkstra/": f"{edsger}#edsger-dijkstra",  # a page of their own in their bucket
        f"{ada}ada-lovelace/index.html": f"{ada}#ada-lovelace",
    }
    old_to_new["papers/notes/#abstract"] = f"papers/{bucket('notes')}/notes/#abstract"
    names = {"ada-lovelace": "Ada Lovelace", "grace-hopper": "Grace Hopper", ACCENTED: "José García",
             "alan-turing": "Alan Turing", "edsger-dijkstra": "Edsger Dijkstra"}
    context = browser.new_context()
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    with serve_under_subpath(tmp_path / "site", tmp_path / "served", not_found=True) as base:
        for old, new in old_to_new.items():
            page.goto(base + old)
            page.wait_for_url(base + new)
            assert "not found" not in page.title().lower(), old
            if old.startswith("authors/"):
                slug = new.split("#")[1]
                page.wait_for_function("name => document.title.startsWith(name + ' · ')", arg=names[slug])
                assert page.locator("section h2:visible").all_inner_texts() == [names[slug]], old
    context.close()
    assert errors == []
