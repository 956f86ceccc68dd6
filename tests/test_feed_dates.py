"""When the catalogue first had each paper (`added` in its content file, set once by ingest) and
the Atom feed that orders and dates its entries by it, checked with feedparser, a real reader."""

import shutil
import xml.etree.ElementTree as ElementTree
from contextlib import closing
from dataclasses import replace
from pathlib import Path

import feedparser
import pytest

import catalogue.ingest.run as run
from catalogue.config import SiteConfig
from catalogue.content.paper_file import parse_paper_markdown, render_paper_markdown
from catalogue.errors import ContentFileError
from catalogue.ingest.run import KEPT_TYPES
from catalogue.model import Catalogue, Paper, Source
from catalogue.routes import PaperAddresses
from catalogue.site.feeds import render_atom
from catalogue.system.cache import Cache
from conftest import PROJECT

ATOM = "{http://www.w3.org/2005/Atom}"
FIRST = ["We propose ZetaNet, a graph model for molecules. It is accurate on every benchmark we tried.",
         "We introduce Beta Gamma Search (BGS), a search method for policies. It finds high reward quickly."]
LATER = "We present ThetaNet, a system for indoor scenes. It is different from earlier systems."
PAPER = Paper(id="0123456789ab", slug="x", title="A Title", abstract="Text.", source=Source("seeds/a.txt", 3))


def front_matter(added_line: str) -> str:
    return f"---\nid: 0123456789ab\nslug: x\ntitle: A Title\nsource: seeds/a.txt:3\n{added_line}\n---\n\nText.\n"


@pytest.mark.parametrize("line, added", [
    ("added: 2026-12-04", "2026-12-04"),
    ("added: '2026-12-04'", "2026-12-04"),  # quoted by hand: the same date
    ("", None),  # a file from before the field, until its next ingest
])
def test_the_added_date_reads_as_iso_text(line, added):
    assert parse_paper_markdown(front_matter(line), "content/papers/x.md").added == added


@pytest.mark.parametrize("line, message", [
    ("added: 2026-12-04 10:30:00", "content/papers/x.md: front-matter key 'added' must be a date like 2026-12-04"),
    ("added: '2026-02-30'", "must be a date like 2026-12-04, not '2026-02-30'"),
    ("added: 4 December 2026", "must be a date like 2026-12-04, not '4 December 2026'"),
    ("added: 2026-02-30", "content/papers/x.md:6: front matter holds a date that does not exist"),  # YAML's own date
])
def test_a_wrong_added_date_names_the_file_and_what_is_wanted(line, message):
    with pytest.raises(ContentFileError) as error:
        parse_paper_markdown(front_matter(line), "content/papers/x.md")
    assert message in str(error.value)


def test_the_added_date_is_written_as_a_person_writes_a_date_and_reads_back():
    paper = replace(PAPER, added="2026-12-04")
    text = render_paper_markdown(paper)
    assert "\nadded: 2026-12-04\n" in text  # unquoted
    assert parse_paper_markdown(text, "x.md") == paper
    assert "added" not in render_paper_markdown(PAPER)


@pytest.fixture
def project(tmp_path) -> Path:
    (tmp_path / "seeds").mkdir()
    (tmp_path / "content").mkdir()
    shutil.copy(PROJECT / "content" / "topics.yaml", tmp_path / "content" / "topics.yaml")
    write_seed(tmp_path, FIRST)
    return tmp_path


def write_seed(root: Path, abstracts: list[str]) -> None:
    (root / "seeds" / "a.txt").write_text("ICLR 2025\n\n" + "\n\n".join(abstracts) + "\n", encoding="utf-8")


def ingest(root: Path, today: str, cached: bool = True) -> None:
    """As a build ingests (the cache beside content/, so that hand edits alone are merged alone), or whole."""
    with closing(Cache.beside(root / "content", KEPT_TYPES) if cached else Cache(None, KEPT_TYPES)) as cache:
        run.ingest(root / "seeds", root / "content", cache=cache, today=today)


def added_dates(root: Path) -> dict[str, str | None]:
    return {path.stem: parse_paper_markdown(path.read_text(encoding="utf-8"), path.as_posix()).added
            for path in sorted((root / "content" / "papers").glob("*.md"))}


def edit(root: Path, slug: str, text: str, by: str) -> None:
    path = root / "content" / "papers" / f"{slug}.md"
    path.write_text(path.read_text(encoding="utf-8").replace(text, by), encoding="utf-8")


@pytest.mark.parametrize("cached", [True, False])
def test_a_paper_is_dated_when_it_first_arrives_and_keeps_its_date(project, cached):
    ingest(project, "2026-01-02", cached)
    assert added_dates(project) == {"bgs": "2026-01-02", "zetanet": "2026-01-02"}
    write_seed(project, [FIRST[0].replace("every benchmark", "every single benchmark"), FIRST[1], LATER])
    ingest(project, "2026-03-04", cached)  # a corrected abstract is the same paper: its date stays
    assert added_dates(project) == {"bgs": "2026-01-02", "thetanet": "2026-03-04", "zetanet": "2026-01-02"}
    edit(project, "bgs", "added: 2026-01-02", "added: 2025-05-05")  # a person's correction
    edit(project, "zetanet", "added: 2026-01-02\n", "")  # the line deleted: dated again at the next ingest
    ingest(project, "2026-06-07", cached)
    assert added_dates(project) == {"bgs": "2025-05-05", "thetanet": "2026-03-04", "zetanet": "2026-06-07"}


def test_a_paper_gone_from_the_seeds_is_dated_when_marked(project):
    ingest(project, "2026-01-02")
    edit(project, "bgs", "added: 2026-01-02\n", "")  # as a file from before the field
    write_seed(project, FIRST[:1])
    run.ingest(project / "seeds", project / "content", today="2026-03-04", allow_removals=True)
    assert added_dates(project) == {"bgs": "2026-03-04", "zetanet": "2026-01-02"}
    assert "in_seeds: false" in (project / "content" / "papers" / "bgs.md").read_text(encoding="utf-8")


def feed_of(papers: list[Paper], base_url: str | None = "https://example.org/c/") -> str:
    return render_atom(Catalogue(tuple(papers), ()), {p.id: p.title for p in papers}, {p.id: p.abstract for p in papers},
                       {p.id: PaperAddresses(p.slug, (), base_url) for p in papers},
                       SiteConfig(title="My Catalogue", base_url=base_url))


DATED = [replace(PAPER, id="00000000000a", slug="a", title="Old", added="2025-02-03", year=2025),
         replace(PAPER, id="00000000000b", slug="b", title="New", added="2026-12-04", authors=("Ada Lovelace",)),
         replace(PAPER, id="00000000000c", slug="c", title="Undated", year=2020),  # from an older version's file
         replace(PAPER, id="00000000000d", slug="d", title="New too", added="2026-12-04")]


@pytest.mark.parametrize("base_url", [None, "https://example.org/c/"])
def test_the_feed_lists_papers_newest_first_with_their_dates_and_no_invented_author(base_url):
    feed = feedparser.parse(feed_of(DATED, base_url))
    assert not feed.bozo, feed.get("bozo_exception")
    assert [entry.title for entry in feed.entries] == ["New", "New too", "Old", "Undated"]  # ties: catalogue order
    assert [entry.published for entry in feed.entries] == [
        "2026-12-04T00:00:00Z", "2026-12-04T00:00:00Z", "2025-02-03T00:00:00Z", "2020-01-01T00:00:00Z"]
    assert all(entry.published_parsed == entry.updated_parsed for entry in feed.entries)
    assert feed.feed.updated == "2026-12-04T00:00:00Z"
    root = ElementTree.fromstring(feed_of(DATED, base_url))
    assert [name.text for name in root.findall(f"{ATOM}author/{ATOM}name")] == ["My Catalogue"]  # the feed's
    assert [[name.text for name in entry.findall(f"{ATOM}author/{ATOM}name")] for entry in root.iter(f"{ATOM}entry")] \
        == [["Ada Lovelace"], [], [], []]


def test_an_empty_feed_is_valid():
    feed = feedparser.parse(feed_of([]))
    assert not feed.bozo and feed.entries == [] and feed.feed.updated_parsed is not None



# --- The venue's own day, when a list gives it -----------------------------------------------

def test_a_venue_date_the_list_gives_is_kept_and_published_by_the_feed(tmp_path):
    from catalogue.ingest.formats import parse_seed_records
    records, problems = parse_seed_records((
        '{"title": "Dated", "abstract": "We study A.", "date": "2024-07-21"}\n'
        '{"title": "Timed", "abstract": "We study B.", "published": "2024-07-22T09:30:00Z"}\n'
        '{"title": "Impossible", "abstract": "We study C.", "date": "2024-02-30"}\n'
        '{"title": "Undated", "abstract": "We study D."}\n').encode(), "seeds/icml-2024.jsonl")
    assert [record.published for record in records] == ["2024-07-21", "2024-07-22", None, None]
    assert [(problem.source.record, problem.message) for problem in problems] == [
        (3, "date '2024-02-30' is not a date like 2026-07-12; left out")]
    dated = replace(PAPER, published="2024-07-21", added="2026-12-04", year=2024)
    text = render_paper_markdown(dated)
    assert "\npublished: 2024-07-21\n" in text and parse_paper_markdown(text, "x.md") == dated
    feed = feedparser.parse(feed_of([dated, replace(dated, id="00000000000e", slug="e", published=None)]))
    assert not feed.bozo
    assert [(entry.published, entry.updated) for entry in feed.entries] == [
        ("2024-07-21T00:00:00Z", "2026-12-04T00:00:00Z"), ("2026-12-04T00:00:00Z", "2026-12-04T00:00:00Z")]
