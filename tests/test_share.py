"""Sharing and citing: preview tags, citations, feeds, data, the offline bundle."""

import json
import re
import xml.etree.ElementTree as ElementTree
import zipfile
from html.parser import HTMLParser

import bibtexparser
import feedparser
import pytest
from click.testing import CliRunner

from catalogue.search.offline import TERMS_PER_PAPER, read_offline_index
from catalogue.site.cite import bibtex_field, protect_capitals, render_bibtex
from catalogue.site.paper_extras import known_for_scholar
from catalogue.cli import main
from catalogue.model import Paper, Source
from conftest import build_project, make_project
from catalogue.routes import bucket
from catalogue.site.check import read_records
from site_data import site_bibtex

BASE = "https://example.org/catalogue/"


KNOWN_TITLE = "FlashSinkhorn: IO-Aware Entropic Optimal Transport"


@pytest.fixture(scope="module")
def shared_site(tmp_path_factory, seeds_builds):
    """The seeds built with a base URL, an edited paper that has authors and a PDF (its title still
    derived), and one whose title and author were written by hand: the one whose title and authors are known."""
    built = seeds_builds.copy(tmp_path_factory.mktemp("shared"), "--no-search")
    project = built.root
    path = built.content / "papers" / "egotsr.md"
    text = path.read_text(encoding="utf-8").replace(
        "venue: ICML", "authors:\n- Ada Lovelace\n- Alan Turing\npdf: https://example.org/egotsr.pdf\nvenue: ICML")
    path.write_text(text, encoding="utf-8")
    path = built.content / "papers" / "flashsinkhorn.md"
    text = re.sub(r"\ntitle: .*\n", f"\ntitle: '{KNOWN_TITLE}'\nauthors:\n- Grace Hopper\npdf: https://example.org/fs.pdf\n", path.read_text(encoding="utf-8"))
    path.write_text(text, encoding="utf-8")
    return build_project(project, "--base-url", BASE, "--no-search")


class Head(HTMLParser):
    def __init__(self):
        super().__init__()
        self.meta: dict[str, list[str]] = {}
        self.links: dict[str, str] = {}
        self.json_ld: list[str] = []
        self._in_json = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        key = attrs.get("property") or attrs.get("name")
        if tag == "meta" and key:
            self.meta.setdefault(key, []).append(attrs.get("content", ""))
        if tag == "link":
            self.links[attrs.get("rel", "")] = attrs.get("href", "")
        self._in_json = tag == "script" and attrs.get("type") == "application/ld+json"

    def handle_data(self, data):
        if self._in_json:
            self.json_ld.append(data)

    def handle_endtag(self, tag):
        self._in_json = False


def head_of(path) -> Head:
    parser = Head()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def paper_pages(site):
    return sorted((site / "papers").glob("*/*/index.html"))


def test_every_paper_page_has_preview_and_canonical_tags(shared_site):
    pages = paper_pages(shared_site.out)
    assert len(pages) == 38
    for page in pages:
        slug = page.parent.name
        head = head_of(page)
        url = f"{BASE}papers/{bucket(slug)}/{slug}/"
        assert head.links["canonical"] == url and head.meta["og:url"] == [url]
        card = f"{BASE}venues/icml-2026/preview.png"  # the seeds are one venue and year
        assert head.meta["og:image"] == [card] and "twitter:image" not in head.meta  # X reads og:image
        assert head.meta["og:image:width"] == ["1200"] and head.meta["og:image:height"] == ["630"]
        assert head.meta["og:image:alt"] == ["ICML 2026: its papers in Paper Catalogue"]
        assert head.meta["twitter:card"] == ["summary_large_image"] and head.meta["og:type"] == ["article"]
        for key in ("og:title", "og:description", "og:site_name"):
            value = head.meta[key][0]
            assert value.strip(), (page, key)
            assert not re.search(r"\$|\\[a-z]+\{|\*\*", value), (page, key, value)  # no LaTeX or Markdown
        assert "twitter:title" not in head.meta and "twitter:description" not in head.meta  # X reads og:*
        assert len(head.meta["og:description"][0]) <= 161 and head.meta["og:description"] == head.meta["description"]
        data = json.loads("".join(head.json_ld))
        assert data["@type"] == "ScholarlyArticle" and data["url"] == url
        assert "abstract" not in data and "keywords" not in data  # the page shows them; JSON-LD stays small


def scholar_tags(head) -> dict[str, list[str]]:
    return {key: values for key, values in head.meta.items() if key.startswith("citation_")}


def test_only_a_paper_whose_title_and_authors_are_known_carries_scholar_tags(shared_site):
    """Google Scholar needs a title, an author and a date; a derived title or no author is no fact to claim."""
    head = head_of(shared_site.out / "papers" / bucket("flashsinkhorn") / "flashsinkhorn" / "index.html")
    tags = scholar_tags(head)
    assert tags == {"citation_title": [KNOWN_TITLE], "citation_author": ["Grace Hopper"],
                    "citation_publication_date": ["2026"], "citation_conference_title": ["ICML 2026"],
                    "citation_pdf_url": ["https://example.org/fs.pdf"]}  # the abstract only on the page, once
    data = json.loads("".join(head.json_ld))
    assert data["name"] == KNOWN_TITLE and data["datePublished"] == "2026"
    assert data["author"] == [{"@type": "Person", "name": "Grace Hopper"}]
    assert data["isPartOf"] == {"@type": "CreativeWork", "name": "ICML 2026"}
    unknown = [page for page in paper_pages(shared_site.out) if page.parent.name != "flashsinkhorn"]
    assert len(unknown) == 37  # derived titles, and all but egotsr without authors
    for page in unknown:
        head = head_of(page)
        assert scholar_tags(head) == {}, page
        data = json.loads("".join(head.json_ld))
        assert "name" not in data and "headline" not in data, page
        assert data["@type"] == "ScholarlyArticle" and data["url"].endswith(f"/{page.parent.name}/")


@pytest.mark.parametrize("authors, title_source, known", [
    ((), "given", False),  # a paper of no one
    (("Ada Lovelace",), "derived", False),  # a title made up from the abstract
    (("Ada Lovelace",), "given", True),
    (("Ada Lovelace",), "edited", True),
    (("Ada Lovelace",), "lookup", True),  # a title found elsewhere counts as known
])
def test_scholar_tags_need_a_known_title_and_an_author(authors, title_source, known):
    paper = Paper(id="0123456789ab", slug="x", title="A Title", abstract="Text.", source=Source("s.txt", 1),
                  authors=authors, title_source=title_source)
    assert known_for_scholar(paper) is known


def test_authors_added_by_hand_reach_the_structured_data(shared_site):
    head = head_of(shared_site.out / "papers" / bucket("egotsr") / "egotsr" / "index.html")
    assert "citation_author" not in head.meta  # its title is still derived: no citation_* tags
    data = json.loads("".join(head.json_ld))
    assert [author["name"] for author in data["author"]] == ["Ada Lovelace", "Alan Turing"]


def test_bibtex_parses_with_its_fields_intact(shared_site):
    library = bibtexparser.parse_string(site_bibtex(shared_site.out))
    assert library.failed_blocks == [] and len(library.entries) == 38
    assert len({entry.key for entry in library.entries}) == 38
    # The key ingest recorded when the paper arrived without authors (word-year), kept when a person
    # added its authors: a key cited in a manuscript never changes.
    recorded = re.search(r"\ncite_key: (\w+)\n", (shared_site.content / "papers" / "egotsr.md").read_text(encoding="utf-8"))[1]
    assert recorded == "egotsr2026"
    entry = next(e for e in library.entries if e.key == recorded)
    assert entry["author"] == "Ada Lovelace and Alan Turing"
    assert entry["booktitle"] == "Proceedings of the International Conference on Machine Learning" and entry["year"] == "2026"
    assert entry["url"] == f"{BASE}papers/{bucket('egotsr')}/egotsr/" and "note" not in entry  # a derived title: no note
    assert entry["title"].startswith("{EgoTSR:} A Curriculum-Based Framework")
    single = bibtexparser.parse_string((shared_site.out / f"papers/{bucket('egotsr')}/egotsr/egotsr.bib").read_text(encoding="utf-8"))
    assert [e.key for e in single.entries] == [recorded]


@pytest.mark.parametrize("text, math, expected", [
    ("50% of A&B #1 x_y", False, r"{50\% of A\&B \#1 x\_y}"),
    ("keeps $x_1 + y$ math", True, "{keeps {$x_1 + y$} math}"),
    (r"a final backslash \(x\\\) is text", True, r"{a final backslash \textbackslash{}(x\textbackslash{}\textbackslash{}\textbackslash{}) is text}"),
    (r"an empty \(\) formula", True, r"{an empty \textbackslash{}(\textbackslash{}) formula}"),
    ("a formula $x_1 & y$ TeX cannot align is text", True, r"{a formula \$x\_1 \& y\$ TeX cannot align is text}"),
    ("$x$ in a field without math", False, r"{\$x\$ in a field without math}"),
    ("unbalanced { brace", False, r"{unbalanced \textbraceleft{} brace}"),
    (r"Cram\'er and \input{x}", False, r"{Cram{\'e}r and \textbackslash{}input\textbraceleft{}x\textbraceright{}}"),
])
def test_bibtex_fields_are_escaped(text, math, expected):
    assert bibtex_field(text, math) == expected


def test_capitals_are_protected_only_where_styles_would_lose_them():
    assert protect_capitals("WZ-LLM: A Neuro-Symbolic Prover for LS$^2$MC") == \
        "{WZ-LLM:} A Neuro-Symbolic Prover for {LS$^2$MC}"


def test_a_bibtex_entry_without_venue_or_url_is_still_valid():
    paper = Paper(id="0123456789ab", slug="x", title="A Title", abstract="Text.", source=Source("s.txt", 1))
    library = bibtexparser.parse_string(render_bibtex(paper, None))
    assert library.failed_blocks == [] and library.entries[0]["title"] == "A Title"


def test_feeds_and_data(shared_site):
    site = shared_site.out
    sitemap = ElementTree.parse(site / "sitemap.xml").getroot()
    locations = [e.text for e in sitemap.iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")]
    assert f"{BASE}papers/{bucket('egotsr')}/egotsr/" in locations and all(loc.startswith(BASE) for loc in locations)
    assert len(locations) == len(set(locations)) >= 38 + 3
    assert f"Sitemap: {BASE}sitemap.xml" in (site / "robots.txt").read_text()
    feed = ElementTree.parse(site / "feed.xml").getroot()
    atom = "{http://www.w3.org/2005/Atom}"
    entries = feed.findall(f"{atom}entry")
    assert len(entries) == 38
    assert all(e.find(f"{atom}link").get("href").startswith(BASE) for e in entries)
    data = json.loads((site / "papers.json").read_text(encoding="utf-8"))
    records, labels = read_records(site)
    assert len(records) == data["count"] == 38 and data["base_url"] == BASE
    record = next(p for p in records if p["slug"] == "egotsr")
    assert record["url"] == f"{BASE}papers/{bucket('egotsr')}/egotsr/" and record["authors"] == ["Ada Lovelace", "Alan Turing"]
    assert record["topics"] and all(topic in labels for topic in record["topics"])
    assert (site / ".nojekyll").exists()


def test_without_a_base_url_no_absolute_url_is_invented(seeds_builds):
    built = seeds_builds.built("--no-search")
    assert "no base URL" in built.output and built.output.count("no base URL") == 1
    assert not (built.out / "sitemap.xml").exists()
    head = head_of(built.out / "papers" / bucket("egotsr") / "egotsr" / "index.html")
    assert "canonical" not in head.links and "og:image" not in head.meta and "og:url" not in head.meta
    assert "og:title" in head.meta and "url" not in json.loads("".join(head.json_ld))
    assert "https://" not in (built.out / "feed.xml").read_text(encoding="utf-8").split("<entry>")[0]


def test_ingest_dates_new_papers_by_source_date_epoch_and_the_feed_reads_clean(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")  # 2026-01-01: what ingest records instead of the clock
    built = build_project(make_project(tmp_path), "--no-search")
    files = list((built.content / "papers").glob("*.md"))
    assert files and all("\nadded: 2026-01-01\n" in path.read_text(encoding="utf-8") for path in files)
    text = (built.out / "feed.xml").read_text(encoding="utf-8")
    feed = feedparser.parse(text)
    assert not feed.bozo, feed.get("bozo_exception")
    assert len(feed.entries) == len(files) and all(entry.published_parsed for entry in feed.entries)
    assert feed.feed.updated == "2026-01-01T00:00:00Z" and "Unknown" not in text


def test_the_bundle_is_deterministic_and_leaves_pagefind_out(built_site, tmp_path):
    first, second = tmp_path / "a.zip", tmp_path / "b.zip"
    for target in (first, second):
        result = CliRunner().invoke(main, ["bundle", "--out", str(built_site.out), "--zip", str(target)])
        assert result.exit_code == 0, result.output
    assert first.read_bytes() == second.read_bytes()
    names = zipfile.ZipFile(first).namelist()
    assert "paper-catalogue/index.html" in names and "paper-catalogue/search-index.js" in names
    assert not any(name.startswith("paper-catalogue/pagefind/") for name in names)


def test_the_bundles_readme_tells_what_search_from_disk_misses(built_site, tmp_path):
    archive = tmp_path / "catalogue.zip"
    CliRunner().invoke(main, ["bundle", "--out", str(built_site.out), "--zip", str(archive)])
    readme = zipfile.ZipFile(archive).read("paper-catalogue/README.txt").decode("utf-8")
    offline = read_offline_index(built_site.out)
    known = {row[0]: set(re.findall(r"\w+", " ".join(map(str, row[1:6])).casefold())) for row in offline["papers"]}
    papers, _ = read_records(built_site.out)
    missed = {paper["slug"]: set(re.findall(r"[a-z]{6,}", paper["abstract"].casefold())) - known[paper["slug"]]
              for paper in papers}
    assert all(missed.values())  # every paper has abstract words search from disk cannot find
    assert "not the full text" in readme and "search included" not in readme
    assert f"the {TERMS_PER_PAPER} words that most set its abstract apart" in readme


def test_the_unzipped_bundle_searches_from_disk(built_site, browser, tmp_path):
    archive = tmp_path / "catalogue.zip"
    CliRunner().invoke(main, ["bundle", "--out", str(built_site.out), "--zip", str(archive)])
    zipfile.ZipFile(archive).extractall(tmp_path / "unzipped")
    page = browser.new_page()
    errors = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.goto((tmp_path / "unzipped" / "paper-catalogue" / "index.html").as_uri())
    page.keyboard.press("/")
    page.keyboard.type("sinkhorn")
    # the results of the whole word (those of "sin" may show while it is typed)
    first = page.locator('#site-search-results a.result-link[href*="highlight=sinkhorn"]').first
    first.wait_for(timeout=10_000)
    assert f"papers/{bucket('flashsinkhorn')}/flashsinkhorn/index.html" in first.get_attribute("href")
    first.click()
    assert page.locator("h1").inner_text().startswith("FlashSinkhorn")
    page.close()
    assert errors == []


def test_copy_buttons_copy_the_link_and_the_citation(shared_site, browser):
    context = browser.new_context()
    page = context.new_page()
    page.goto((shared_site.out / "papers" / bucket("egotsr") / "egotsr" / "index.html").as_uri())
    # Record what would reach the clipboard, by either of the page's two ways of copying.
    page.evaluate("() => { document.execCommand = () => {"
                  " window.copied = document.querySelector('textarea').value; return true; };"
                  " if (navigator.clipboard) navigator.clipboard.writeText = (text) => {"
                  " window.copied = text; return Promise.resolve(); }; }")
    page.click("[data-copy-link]")
    page.wait_for_function("() => window.copied")
    assert page.evaluate("window.copied") == f"{BASE}papers/{bucket('egotsr')}/egotsr/"
    assert page.inner_text(".copy-status") == "Link copied"
    page.click('[data-copy="#cite-bibtex"]')
    page.wait_for_function("() => window.copied.startsWith('@')")
    assert page.evaluate("window.copied").startswith("@inproceedings{egotsr2026,")
    # The text and Markdown citations, which cite.js makes from the title and the JSON-LD.
    title, url = page.text_content("h1"), f"{BASE}papers/{bucket('egotsr')}/egotsr/"
    assert not re.search(r"[\\`*_\[\]<]", title)  # nothing for Markdown to escape: the title as it is
    page.click("details.citations summary")
    for button, expected in (('[data-copy="#cite-plain"]', f"Ada Lovelace, Alan Turing. {title}. ICML 2026. {url}"),
                             ('[data-copy="#cite-markdown"]', f"Ada Lovelace, Alan Turing. [{title}]({url}). *ICML 2026*.")):
        page.evaluate("() => { window.copied = ''; }")
        page.click(button)
        page.wait_for_function("() => window.copied")
        assert page.evaluate("window.copied") == expected
    assert page.inner_text(".copy-status") == "Citation copied"
    context.close()


def image_named(site, address: str):
    """The file of the site that an absolute address of it names."""
    assert address.startswith(BASE), address
    return site / address.removeprefix(BASE)


def test_every_shared_page_names_an_existing_card_of_the_open_graph_size(shared_site):
    from PIL import Image

    pages = [*paper_pages(shared_site.out), shared_site.out / "index.html"]
    for page in pages:
        head = head_of(page)
        path = image_named(shared_site.out, head.meta["og:image"][0])
        assert head.meta.get("twitter:image", head.meta["og:image"]) == head.meta["og:image"]  # X's own, or og:image
        assert head.meta["twitter:card"] == ["summary_large_image"]
        with Image.open(path) as image:
            assert image.format == "PNG" and image.size == (1200, 630), path
            image.verify()
    assert head.meta["og:image"] == [f"{BASE}preview.png"]  # the home page names the site's card


def test_one_card_per_venue_and_year_and_one_for_the_site(tmp_path, built_site):
    """No paper has an image of its own: each venue and year has its card, beside its page."""
    project = make_project(tmp_path)
    seeds = project / "seeds"
    (seeds / "second.txt").write_text("NeurIPS 2025 论文列表\n\nWe propose GraphNet, a graph network for molecules, "
                                      "and show it beats the baselines on three benchmarks.\n", encoding="utf-8")
    built = build_project(project, "--base-url", BASE, "--no-search")
    images = sorted(path.relative_to(built.out).as_posix() for path in built.out.rglob("*.png"))
    assert images == ["preview.png", "venues/icml-2026/preview.png", "venues/neurips-2025/preview.png"]
    for page in paper_pages(built.out):
        venue = "neurips-2025" if "graphnet" in page.parent.name else "icml-2026"
        assert head_of(page).meta["og:image"] == [f"{BASE}venues/{venue}/preview.png"]
    assert not list(built_site.out.rglob("*.png"))  # no base URL: no card, since only an absolute URL can name it


def test_following_an_old_link_after_a_rename_reaches_the_paper(tmp_path, browser):
    project = make_project(tmp_path)
    built = build_project(project, "--no-search")
    path = built.content / "papers" / "egotsr.md"
    path.write_text(path.read_text(encoding="utf-8").replace("slug: egotsr", "slug: ego-tsr"), "utf-8")
    rebuilt = build_project(project, "--no-search")
    page = browser.new_page()
    page.goto((rebuilt.out / "papers" / bucket("egotsr") / "egotsr" / "index.html").as_uri())
    page.wait_for_url(f"**/papers/{bucket('ego-tsr')}/ego-tsr/index.html", timeout=10_000)
    assert page.locator("h1").inner_text().startswith("EgoTSR")
    page.close()


def test_a_card_is_made_again_only_when_its_text_changes(tmp_path, seeds_builds):
    """An edit to a paper leaves the cards as they were; a new paper of the venue changes its count, so
    its card and the site's are made again."""
    built = seeds_builds.copy(tmp_path / "p", "--no-search")
    project = built.root
    built = build_project(project, "--base-url", BASE, "--no-search")
    cards = [built.out / "preview.png", built.out / "venues" / "icml-2026" / "preview.png"]
    stamps = [card.stat().st_mtime_ns for card in cards]
    path = built.content / "papers" / "egotsr.md"
    path.write_text(path.read_text(encoding="utf-8").replace("venue: ICML", "authors:\n- Ada Lovelace\nvenue: ICML"), "utf-8")
    build_project(project, "--base-url", BASE, "--no-search")
    assert "Ada Lovelace" in (built.out / "papers" / bucket("egotsr") / "egotsr" / "index.html").read_text(encoding="utf-8")
    assert [card.stat().st_mtime_ns for card in cards] == stamps
    before = [card.read_bytes() for card in cards]
    (project / "seeds" / "003_more.txt").write_text(
        "ICML 2026 论文列表\n\nWe propose GraphNet, a graph network for molecules, and show it beats the baselines.\n", "utf-8")
    build_project(project, "--base-url", BASE, "--no-search")
    assert all(card.read_bytes() != old for card, old in zip(cards, before))
