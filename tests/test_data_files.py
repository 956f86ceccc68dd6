"""The whole-catalogue data in parts (catalogue/site/data_parts.py): papers.json and its per
venue-year parts, the BibTeX parts, the feeds (the newest papers, one per venue-year), the reading
list's parts, and the sitemap as an index of sitemaps past its limit."""

import json
import re
import xml.etree.ElementTree as ElementTree
from dataclasses import replace

import bibtexparser
import feedparser
import pytest

from catalogue.config import SiteConfig
from catalogue.model import Catalogue, Paper, Source
from catalogue.routes import PaperAddresses, paper_page
from catalogue.site import data_parts
from catalogue.site.data_files import plan_sitemaps
from catalogue.site.data_parts import VENUE_FEED_ENTRIES, papers_parts, plan_list_parts, part_digits
from catalogue.site.feeds import FEED_ENTRIES, SITEMAP_NS, render_atom
from conftest import SUBPATH
from site_data import list_rows, part_data, site_bibtex, site_records

ATOM = "{http://www.w3.org/2005/Atom}"
BASE = f"https://example.org/{SUBPATH}/"


def dated_papers(count: int) -> list[Paper]:
    """`count` papers added on distinct days, in no date order (the catalogue's is by venue)."""
    return [Paper(id=f"{n:012x}", slug=f"p{n}", title=f"Paper {n}", abstract="Text.", source=Source("seeds/a.txt", n),
                  added=f"2026-{1 + n * 7 % 12:02d}-{1 + n * 5 % 28:02d}") for n in range(count)]


def test_the_feed_carries_the_newest_papers_newest_first_and_parses():
    papers = dated_papers(FEED_ENTRIES + 30)
    text = render_atom(Catalogue(tuple(papers), ()), {p.id: p.title for p in papers}, {p.id: p.abstract for p in papers},
                       {p.id: PaperAddresses(p.slug, (), BASE) for p in papers}, SiteConfig(base_url=BASE))
    feed = feedparser.parse(text)
    assert not feed.bozo, feed.get("bozo_exception")
    newest = sorted(papers, key=lambda p: p.added, reverse=True)
    assert len(feed.entries) == FEED_ENTRIES <= 100
    assert [entry.title for entry in feed.entries] == [p.title for p in newest[:FEED_ENTRIES]]
    published = [entry.published for entry in feed.entries]
    assert published == sorted(published, reverse=True)


@pytest.fixture(scope="module")
def based_site(seeds_builds):
    """The seeds built with a base URL."""
    return seeds_builds.built("--base-url", BASE, "--no-search").out


def test_the_sites_feed_is_capped_and_each_venue_has_its_own(based_site):
    site = based_site
    records = site_records(site)
    feed = feedparser.parse((site / "feed.xml").read_text(encoding="utf-8"))
    assert not feed.bozo and len(feed.entries) == min(len(records), FEED_ENTRIES)
    index = json.loads((site / "papers.json").read_text(encoding="utf-8"))
    capped = 0
    for part in index["parts"]:
        text = (site / part["feed"]).read_text(encoding="utf-8")
        venue_feed = feedparser.parse(text)
        assert not venue_feed.bozo, part["feed"]
        members = {record["url"] for record in site_records_of(site, part)}
        assert len(venue_feed.entries) == min(len(members), VENUE_FEED_ENTRIES)
        assert {entry.link for entry in venue_feed.entries} <= members  # that venue's papers alone
        assert venue_feed.feed.id == BASE + part["feed"].removesuffix("feed.xml")  # distinct from the site's
        slug = part["feed"].split("/")[1]
        page = (site / f"venues/{slug}/index.html").read_text(encoding="utf-8")
        assert f'<link rel="alternate" type="application/atom+xml" title="' in page
        assert re.search(rf'rel="alternate" type="application/atom\+xml" title="[^"]+" href="\.\./\.\./{re.escape(part["feed"])}"', page)
        capped += len(members) > VENUE_FEED_ENTRIES
    assert capped >= 1  # the seeds' venue has more papers than its feed carries


def site_records_of(site, part) -> list[dict]:
    return json.loads((site / part["url"]).read_text(encoding="utf-8"))["papers"]


def test_the_parts_cover_every_paper_exactly_once(built_site):
    site = built_site.out
    pages = {path.relative_to(site).as_posix() for path in site.glob("papers/*/*/index.html")}
    index = json.loads((site / "papers.json").read_text(encoding="utf-8"))
    records = site_records(site)
    ids = [record["id"] for record in records]
    assert len(ids) == len(set(ids)) == index["count"] == sum(part["count"] for part in index["parts"]) == len(pages)
    assert {paper_page(record["slug"]) for record in records} == pages
    for part in index["parts"]:
        assert {(r["venue"], r["year"]) for r in site_records_of(site, part)} == {(part["venue"], part["year"])}
    assert set(records[0]) == {"id", "slug", "url", "title", "title_source", "authors", "venue", "year",
                               "topics", "pdf", "proceedings_url", "abstract"}
    library = bibtexparser.parse_string(site_bibtex(site))
    assert library.failed_blocks == [] and len(library.entries) == len(ids)
    assert not (site / "list-bibtex.js").exists()  # catalogue.bib stays, a note naming the parts (below)
    rows = list_rows(site)
    assert sorted(rows) == sorted(ids)
    digits = part_data(site / "list-data.js")["digits"]
    assert not (site / "list-bibtex").exists()  # the reading list's export writes its BibTeX from list-data's rows
    seen = []
    for path in (site / "list-data").glob("*.js"):
        keys = [row[0] for row in part_data(path)]
        assert all(key[-digits:] == path.stem for key in keys), path  # each in the part its last digits name
        seen += keys
    assert sorted(seen) == sorted(ids)
    by_venue = [row[0] for path in (site / "list-data" / "venues").glob("*.js") for row in part_data(path)]
    assert sorted(by_venue) == sorted(ids)


def test_a_large_venue_year_is_cut_into_parts(monkeypatch):
    monkeypatch.setattr(data_parts, "PART_PAPERS", 2)
    groups = [("icml-2026", "ICML 2026", tuple(range(5))), ("colt-2025", "COLT 2025", (5,))]
    parts = papers_parts(groups)
    assert [name for name, _, _ in parts] == ["icml-2026", "icml-2026.2", "icml-2026.3", "colt-2025"]
    assert [member for _, _, members in parts for member in members] == list(range(6))


def test_the_reading_list_parts_grow_with_the_catalogue_but_stay_small():
    assert part_digits(38) == 1 and part_digits(1_000) == 1 and part_digits(10_000) == 2
    assert part_digits(100_000) == 3 and part_digits(10_000_000) == 3  # never more files in a folder than 4,096
    for count in (1_000, 10_000, 100_000):
        assert count / 16 ** part_digits(count) <= 64


def test_past_its_limit_the_sitemap_is_an_index_of_sitemaps():
    config = SiteConfig(base_url=BASE)
    pages = [paper_page(f"p{n}") for n in range(7)] + ["index.html"]
    outputs = {output.path: output.make() for output in plan_sitemaps(pages, config, "key", limit=3)}
    assert sorted(outputs) == ["sitemap.xml", "sitemaps/sitemap-1.xml", "sitemaps/sitemap-2.xml", "sitemaps/sitemap-3.xml"]
    index = ElementTree.fromstring(outputs["sitemap.xml"].encode("utf-8"))
    assert index.tag == f"{{{SITEMAP_NS}}}sitemapindex"
    named = [loc.text for loc in index.iter(f"{{{SITEMAP_NS}}}loc")]
    assert named == [f"{BASE}sitemaps/sitemap-{n}.xml" for n in (1, 2, 3)]
    listed = []
    for n in (1, 2, 3):
        part = ElementTree.fromstring(outputs[f"sitemaps/sitemap-{n}.xml"].encode("utf-8"))
        assert part.tag == f"{{{SITEMAP_NS}}}urlset"
        locations = [loc.text for loc in part.iter(f"{{{SITEMAP_NS}}}loc")]
        assert 1 <= len(locations) <= 3
        listed += locations
    assert sorted(listed) == sorted({BASE + page.removesuffix("index.html") for page in pages})
    under = {output.path: output.make() for output in plan_sitemaps(pages, config, "key", limit=8)}
    assert list(under) == ["sitemap.xml"] and under["sitemap.xml"].count("<url>") == 8


def test_a_venue_feed_is_not_the_sites(built_site):
    site = built_site.out
    main = ElementTree.parse(site / "feed.xml").getroot()
    index = json.loads((site / "papers.json").read_text(encoding="utf-8"))
    venue = ElementTree.parse(site / index["parts"][0]["feed"]).getroot()
    assert main.findtext(f"{ATOM}id") != venue.findtext(f"{ATOM}id")  # without a base URL: each its own UUID
    assert venue.findtext(f"{ATOM}title").endswith(main.findtext(f"{ATOM}title"))
    links = [entry.find(f"{ATOM}link").get("href") for entry in venue.iter(f"{ATOM}entry")]
    assert links and all(link.startswith("papers/") for link in links)  # relative to the site's root, as the main feed's


def test_an_edit_remakes_only_the_parts_of_its_venue_and_prefix():
    """The keys of the parts: an edited paper's venue-year and ending parts change, the others do not."""
    class View:  # the fields of a paper view (catalogue/site/views.py) the list parts read
        def __init__(self, paper, key):
            self.paper, self.key = paper, key
            self.title_text, self.name_text, self.topics, self.authors = paper.title, "", (), ()
            self.bibtex, self.url = "@misc{x}", None

    papers = [replace(p, venue=venue, year=2026) for p, venue in zip(dated_papers(40), ["A", "B"] * 20)]
    venue = lambda paper: f"{paper.venue} {paper.year}"  # noqa: E731
    groups_of = lambda views: [(v.lower().replace(" ", "-"), v, tuple(x for x in views if venue(x.paper) == v))  # noqa: E731
                               for v in ("A 2026", "B 2026")]
    before = [View(p, f"k{n}") for n, p in enumerate(papers)]
    after = list(before)
    after[3] = View(papers[3], "edited")  # paper 3: venue B, id 000000000003
    keys = [{o.path: o.inputs for o in plan_list_parts(tuple(views), (), "all", venue, groups_of(views))}
            for views in (before, after)]
    changed = sorted(path for path in keys[0] if keys[0][path] != keys[1][path])
    assert changed == ["list-data/3.js", "list-data/venues/b-2026.js"]


def test_a_venue_feed_follows_from_its_own_papers_alone():
    """An incremental build keeps a venue's feed while another venue changes: its bytes must not change either."""
    papers = dated_papers(6)

    def venue_feed(catalogue_papers: list[Paper], members: list[Paper]) -> str:
        return render_atom(Catalogue(tuple(catalogue_papers), ()), {p.id: p.title for p in papers},
                           {p.id: p.abstract for p in papers}, {p.id: PaperAddresses(p.slug) for p in papers},
                           SiteConfig(), papers=members, path="venues/a-2026/feed.xml", title="A 2026")

    assert venue_feed(papers[:4], papers[:3]) == venue_feed(papers, papers[:3])
    assert venue_feed(papers, papers[:3]) != venue_feed(papers, papers[:2])  # and it is its papers' own


def test_the_catalogue_bib_of_earlier_builds_names_every_part_and_parses(based_site):
    """catalogue.bib once held every entry; its address now gives the files that do, absolutely."""
    site = based_site
    index = json.loads((site / "papers.json").read_text(encoding="utf-8"))
    text = (site / "catalogue.bib").read_text(encoding="utf-8")
    named = re.findall(r"@comment\{(https://\S+)\}", text)
    assert named and named == [BASE + part["bib"] for part in index["parts"]]
    assert all((site / url.removeprefix(BASE)).is_file() for url in named)
    assert bibtexparser.parse_string(text).entries == []  # a note, no entry a tool would import twice
