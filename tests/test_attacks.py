"""Hostile input against every format the site writes: BibTeX, XML, _redirects, Markdown and
JSON-LD escape for themselves; front matter is validated whole-value, without control
characters or YAML aliases; venue pages never share an address; messages stay short.

Each scenario writes a small content folder by hand (or a seed list) and runs `render` (or
`ingest`) in-process, never a full build with search.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import xml.etree.ElementTree as ElementTree
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

import bibtexparser
import pytest
import yaml
from click.testing import CliRunner
from markdown_it import MarkdownIt

from catalogue.system.cache import CACHE_DIR
from catalogue.site.check import check_collections, check_redirects, parse_page
from catalogue.cli import main
from catalogue.config import SiteConfig
from catalogue.content.paper_file import parse_paper_markdown
from catalogue.content.papers import read_papers
from catalogue.errors import CatalogueError, ContentFileError
from catalogue.site.feeds import feed_id, render_atom, render_sitemap
from catalogue.ingest.merge import remember_renamed_slug
from catalogue.system.lock import LOCK_FILE
from catalogue.model import Catalogue, Paper, Source
from catalogue.publish.manifest import write_manifest
from catalogue.site.data_files import render_netlify_redirects
from catalogue import routes
from catalogue.routes import bucket, PaperAddresses, paper_folder, paper_page
from catalogue.search.index import PAGES_FILE, VOCABULARY, IndexedPage, read_shards, render_pages_file

from conftest import PROJECT
from site_data import part_data, site_bibtex, site_records

ABSTRACT = "We propose a method for {what} that improves sample efficiency on standard benchmarks by a wide margin."
INJECTION = 'x}} @preamble{"\\input{/etc/passwd}"} @misc{y note={z'
CONTROLS = "a\x00b\x0bc\x0cd\ufffee\uffff\x1bf"  # what XML 1.0 forbids, and an escape
BASE_URL = "https://example.org/catalogue/"


def paper_fields(number: int, **changes) -> dict:
    """A valid content file's front matter; `changes` replace or add keys (None removes one)."""
    fields = {"id": f"{number:012x}", "slug": f"paper-{number}", "title": f"Paper number {number}",
              "venue": "ICML", "year": 2026, "topics": ["optimization"], "source": f"seeds/a.txt:{number * 2 + 1}"}
    fields |= changes
    return {key: value for key, value in fields.items() if value is not None}


def paper_text(fields: dict, abstract: str | None = None) -> str:
    """A content file as a person would write it; yaml writes "\\0"-style escapes for control characters."""
    front = yaml.safe_dump(fields, allow_unicode=True, sort_keys=False, width=10_000)
    return f"---\n{front}---\n\n{abstract or ABSTRACT.format(what=fields['title'])}\n"


def make_content(root: Path, papers: list[dict | str]) -> Path:
    """content/ with topics.yaml and one file per paper (front matter fields, or a file's whole text)."""
    content = root / "content"
    (content / "papers").mkdir(parents=True)
    shutil.copy(PROJECT / "content" / "topics.yaml", content / "topics.yaml")
    for number, paper in enumerate(papers):
        text = paper if isinstance(paper, str) else paper_text(paper)
        (content / "papers" / f"file-{number}.md").write_text(text, encoding="utf-8")
    return content


def render(root: Path, *extra: str):
    """`render` on root/content into root/site; the result (exit code and output)."""
    (root / "site.toml").touch()
    return CliRunner().invoke(main, ["render", "--content", str(root / "content"), "--out", str(root / "site"),
                                     "--config", str(root / "site.toml"), *extra])


def rendered(root: Path, papers: list[dict | str], *extra: str) -> Path:
    make_content(root, papers)
    result = render(root, *extra)
    assert result.exit_code == 0, result.output
    return root / "site"


def snapshot(folder: Path) -> dict[str, bytes]:
    """content/'s files, but the build's own lock and cache."""
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in sorted(folder.rglob("*"))
            if path.is_file() and not {CACHE_DIR, LOCK_FILE} & set(path.relative_to(folder).parts)}


def refused(root: Path, papers: list[dict | str]) -> str:
    """Render must refuse these papers: exit 1, no site, content/ unchanged; returns the output."""
    content = make_content(root, papers)
    before = snapshot(content)
    result = render(root)
    assert result.exit_code == 1, result.output
    assert not (root / "site").exists()
    assert snapshot(content) == before
    return result.output


def parse_bibtex(text: str):
    library = bibtexparser.parse_string(text)
    assert not library.failed_blocks and not library.preambles and not library.strings and not library.comments
    return library


# The commands catalogue/site/tex.py writes for the characters TeX would act on, and those characters.
PRINTED = {r"\textbackslash{}": "\\", r"\textbraceleft{}": "{", r"\textbraceright{}": "}", r"\$": "$", r"\&": "&",
           r"\%": "%", r"\#": "#", r"\_": "_", r"\textasciicircum{}": "^", r"\textasciitilde{}": "~"}


def printed(tex: str) -> str:
    """What TeX prints of a BibTeX value of text: each command of PRINTED as its character, the braces
    that protect capitals set aside; any other backslash or brace is a TeX command the value let through."""
    parts = re.split("(" + "|".join(map(re.escape, PRINTED)) + ")", tex)
    return "".join(PRINTED.get(part, part.replace("{", "").replace("}", "").replace("\\", "<a TeX command>"))
                   for part in parts).strip()


# --- BibTeX: no field can close its entry -------------------------------------------------------

BIBTEX_CASES = [
    ("title", INJECTION),
    ("title", "Closing } early and { opening late"),
    ("title", "Ends in a backslash \\"),
    ("title", "Escaped \\} brace and \\{ another"),
    ("title", "@comment{ and @string{x = {y}}"),
    ("title", "Math $\\{x\\}$ and {nested {braces}}"),
    ("authors", [INJECTION, "Ada } Lovelace"]),
    ("venue", "ICML}} @preamble{x}"),
]
PDF_CASES = ["https://example.org/a}}@preamble{x}.pdf", "https://example.org/a\\}.pdf", "https://example.org/{a}/b.pdf"]


@pytest.fixture(scope="module")
def bibtex_site(tmp_path_factory) -> Path:
    """One site with a paper per case: BIBTEX_CASES first, then PDF_CASES, then a harmless paper."""
    papers = [paper_fields(n, **{field: value}) for n, (field, value) in enumerate(BIBTEX_CASES)]
    papers += [paper_fields(len(BIBTEX_CASES) + n, pdf=pdf) for n, pdf in enumerate(PDF_CASES)]
    return rendered(tmp_path_factory.mktemp("bibtex"), [*papers, paper_fields(99)])


def test_the_catalogue_bib_holds_one_entry_per_paper(bibtex_site):
    library = parse_bibtex(site_bibtex(bibtex_site))
    assert len(library.entries) == len(BIBTEX_CASES) + len(PDF_CASES) + 1
    # The reading list's export: every record carries what cite.js needs, or (these attacks) the entry itself.
    rows = [row for part in bibtex_site.glob("list-data/*.js") for row in part_data(part)]
    listed = [row[9] for row in rows if isinstance(row[9], str)]
    assert len(rows) == len(library.entries) and listed and all(isinstance(row[9], str) or row[9]["k"] for row in rows)
    assert len(parse_bibtex("\n".join(listed)).entries) == len(listed)


@pytest.mark.parametrize("number", range(len(BIBTEX_CASES)), ids=[repr(case) for case in BIBTEX_CASES])
def test_a_bibtex_field_cannot_close_its_entry(bibtex_site, number):
    field, value = BIBTEX_CASES[number]
    own = (bibtex_site / paper_folder(f"paper-{number}") / f"paper-{number}.bib").read_text(encoding="utf-8")
    [entry] = parse_bibtex(own).entries
    assert entry.entry_type == ("inproceedings" if field == "authors" else "misc")  # @misc without authors
    bibtex_name = {"title": "title", "authors": "author", "venue": "howpublished"}[field]
    intended = " and ".join(value) if field == "authors" else value + (" 2026" if field == "venue" else "")
    if "$" in entry[bibtex_name].replace(r"\$", ""):  # a formula of the safe subset, kept as math
        assert entry[bibtex_name] == r"Math {$\{x\}$} and \textbraceleft{}nested \textbraceleft{}braces\textbraceright{}\textbraceright{}"
    else:
        assert printed(entry[bibtex_name]) == intended
    key = entry["key"] if field != "authors" else ""  # a title's first words, escaped as the title is
    assert "@" not in own.replace(entry[bibtex_name], "").replace(key, "").replace("@" + entry.entry_type, "")


@pytest.mark.parametrize("number", range(len(PDF_CASES)), ids=PDF_CASES)
def test_a_pdf_address_cannot_close_its_entry_and_stays_the_same_address(bibtex_site, number):
    slug = f"paper-{len(BIBTEX_CASES) + number}"
    [entry] = parse_bibtex((bibtex_site / f"papers/{bucket(slug)}/{slug}/{slug}.bib").read_text(encoding="utf-8")).entries
    assert unquote(entry["pdf"]) == PDF_CASES[number]


def test_a_bibtex_injection_in_a_seed_abstract_stays_in_its_field(tmp_path):
    """The issue's case: the title derived from the abstract carries the payload."""
    (tmp_path / "seeds").mkdir()
    (tmp_path / "seeds" / "a.txt").write_text(
        f"ICML 2026\n\nWe propose {INJECTION} for graphs, a method that improves sample efficiency.\n\n"
        f"{ABSTRACT.format(what='scheduling')}\n", encoding="utf-8")
    make_content(tmp_path, [])
    result = CliRunner().invoke(main, ["ingest", "--seeds", str(tmp_path / "seeds"),
                                       "--content", str(tmp_path / "content")])
    assert result.exit_code == 0, result.output
    site = tmp_path / "site"
    assert render(tmp_path).exit_code == 0
    bib_files = sorted(site.glob("papers/*/*/*.bib"))
    assert len(bib_files) == 2
    for path in bib_files:
        assert len(parse_bibtex(path.read_text(encoding="utf-8")).entries) == 1
    assert len(parse_bibtex(site_bibtex(site)).entries) == 2


# --- XML: well-formed whatever the text ---------------------------------------------------------

def hostile_catalogue(text: str) -> Catalogue:
    paper = Paper(id="0123456789ab", slug="x", title=text, abstract=text, source=Source("seeds/a.txt", 3),
                  authors=(text, "B"), venue=text, year=2026)
    return Catalogue((paper,), ())


@pytest.mark.parametrize("text", [CONTROLS, "\ud800 lone surrogate", "]]> <![CDATA[ & < > \" '", "\x00" * 50])
@pytest.mark.parametrize("base_url", [None, BASE_URL])
def test_the_feed_is_well_formed_for_any_text(text, base_url):
    catalogue = hostile_catalogue(text)
    config = SiteConfig(title=text, description=text, base_url=base_url)
    addresses = {"0123456789ab": PaperAddresses("x", (), base_url)}
    feed = ElementTree.fromstring(render_atom(catalogue, {"0123456789ab": text}, {"0123456789ab": text}, addresses,
                                              config).encode("utf-8"))
    atom = "{http://www.w3.org/2005/Atom}"
    shown = feed.find(f"{atom}entry/{atom}title").text or ""
    assert shown == re.sub("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]", "", text)


def test_the_sitemap_is_well_formed_for_an_odd_base_url():
    sitemap = render_sitemap(["papers/x/index.html", "index.html"], SiteConfig(base_url="https://e.org/a&b/"))
    locations = [element.text for element in ElementTree.fromstring(sitemap.encode("utf-8")).iter()
                 if element.tag.endswith("loc")]
    assert locations == ["https://e.org/a&b/", "https://e.org/a&b/papers/x/"]


def test_control_characters_from_a_seed_never_reach_feed_or_sitemap(tmp_path):
    (tmp_path / "seeds").mkdir()
    (tmp_path / "seeds" / "a.txt").write_text(
        # No NUL: a seed file holding one is refused whole as binary (tests/test_ingest_safety.py).
        f"ICML 2026\n\n{ABSTRACT.format(what='graphs' + CONTROLS.replace(chr(0), ''))}\n", encoding="utf-8")
    make_content(tmp_path, [])
    assert CliRunner().invoke(main, ["ingest", "--seeds", str(tmp_path / "seeds"),
                                     "--content", str(tmp_path / "content")]).exit_code == 0
    result = render(tmp_path, "--base-url", BASE_URL)
    assert result.exit_code == 0, result.output
    for name in ("feed.xml", "sitemap.xml"):
        ElementTree.fromstring((tmp_path / "site" / name).read_bytes())
    for path in (tmp_path / "site").rglob("*"):
        if path.suffix in (".html", ".xml", ".bib", ".json", ".js"):
            assert not re.search(r"[\x00-\x08\x0b\x0e-\x1f]", path.read_text(encoding="utf-8")), path


def feed_ids(site: Path) -> list[str]:
    feed = ElementTree.fromstring((site / "feed.xml").read_bytes())
    return [element.text for element in feed.iter("{http://www.w3.org/2005/Atom}id")]


def test_feed_ids_are_valid_iris_and_differ_between_catalogues(tmp_path):
    first = feed_ids(rendered(tmp_path / "one", [paper_fields(1), paper_fields(2)]))
    second = feed_ids(rendered(tmp_path / "two", [paper_fields(3)]))
    catalogue = Catalogue((Paper(id="0123456789ab", slug="x", title="T", abstract="A", source=Source("s.txt", 1)),), ())
    feed = render_atom(catalogue, {"0123456789ab": "T"}, {"0123456789ab": "A"},
                       {"0123456789ab": PaperAddresses("x", (), BASE_URL)}, SiteConfig(base_url=BASE_URL))
    addressed = [element.text for element in ElementTree.fromstring(feed).iter("{http://www.w3.org/2005/Atom}id")]
    for ids in (first, second, addressed):
        assert all(re.fullmatch(r"[a-z][a-z0-9+.-]*:\S+", value) for value in ids), ids
        assert len(set(ids)) == len(ids)
    assert first[0] != second[0]  # both have the default title
    assert addressed[0] == BASE_URL


def test_the_feed_id_without_an_address_follows_the_catalogue_not_the_order():
    papers = [Paper(id=f"{n:012x}", slug=f"p{n}", title="T", abstract="A", source=Source("s.txt", n)) for n in (1, 2)]
    assert feed_id(Catalogue(tuple(papers), ()), SiteConfig()) == feed_id(Catalogue(tuple(papers[::-1]), ()),
                                                                           SiteConfig())
    assert feed_id(Catalogue(tuple(papers), ()), SiteConfig()) != feed_id(Catalogue(tuple(papers[:1]), ()),
                                                                           SiteConfig())


@pytest.mark.parametrize("base_url", ["https://example.org/\n", "https://example.org/ x/", "https://exa\tmple.org/"])
def test_a_base_url_with_a_line_break_or_space_is_refused(tmp_path, base_url):
    make_content(tmp_path, [paper_fields(1)])
    result = render(tmp_path, "--base-url", base_url)
    assert result.exit_code == 1 and "must be an absolute http(s) address without spaces" in result.output
    assert not (tmp_path / "site").exists()


# --- Front matter: whole values only, one line, no control characters, no aliases ---------------

VALID = paper_fields(1, old_slugs=["older-name"], pdf="https://example.org/a.pdf", title_source="edited",
                     url="https://proceedings.example.org/a.html", keywords=["graphs"],
                     links=[{"url": "https://github.com/a/b", "label": "Code"}], name="Net", authors=["Ada"],
                     other_names=["Web"], benchmarks=["MNIST"], results=["10% better"], in_seeds=True)


def with_value(key: str, change) -> dict:
    """VALID with one value changed; links change their url."""
    if key == "links":
        return VALID | {"links": [{"url": change(VALID["links"][0]["url"]), "label": "Code"}]}
    if key in ("old_slugs", "topics", "authors", "keywords", "other_names", "benchmarks", "results"):
        return VALID | {key: [change(VALID[key][0])]}
    return VALID | {key: change(str(VALID[key]) if key in ("year", "in_seeds") else VALID[key])}


EDITS = {"trailing newline": lambda v: v + "\n", "leading space": lambda v: " " + v,
         "trailing space": lambda v: v + " "}
CHECKED_KEYS = ["id", "slug", "old_slugs", "pdf", "url", "links", "source", "title_source", "year", "venue", "topics",
                "title", "name", "authors", "keywords", "other_names", "benchmarks", "results", "in_seeds"]


def test_the_valid_paper_is_valid():
    assert parse_paper_markdown(paper_text(VALID), "content/papers/x.md").old_slugs == ("older-name",)


@pytest.mark.parametrize("edit", EDITS)
@pytest.mark.parametrize("key", CHECKED_KEYS)
def test_a_value_with_a_line_break_or_outer_space_is_refused_naming_file_and_key(key, edit):
    text = paper_text(with_value(key, EDITS[edit]))
    with pytest.raises(ContentFileError) as error:
        parse_paper_markdown(text, "content/papers/x.md")
    assert error.value.message.startswith("content/papers/x.md: ")
    assert f"'{key}'" in error.value.message


def test_an_old_slug_with_a_newline_never_reaches_redirects(tmp_path):
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "_redirects").write_text("# the last good site\n", encoding="utf-8")
    write_manifest(tmp_path / "site", None, {"_redirects": "last"})  # a site this tool built
    make_content(tmp_path, [paper_fields(1, old_slugs=["gone\n"])])
    result = render(tmp_path)
    assert result.exit_code == 1
    assert "file-0.md: front-matter key 'old_slugs' holds a line break" in result.output
    assert (tmp_path / "site" / "_redirects").read_text(encoding="utf-8") == "# the last good site\n"


def test_redirects_are_written_from_valid_distinct_slugs_only():
    forged = Paper(id="0123456789ab", slug="amd", title="T", abstract="A", source=Source("seeds/a.txt", 3),
                   old_slugs=("gone\n",))
    for paper in (forged, Paper(**{**forged.__dict__, "old_slugs": ("amd",)})):
        with pytest.raises(CatalogueError, match="cannot redirect"):
            render_netlify_redirects([(paper, PaperAddresses(paper.slug, paper.old_slugs))])


@pytest.mark.parametrize("key, value", [
    ("title", "Null\x00byte"), ("authors", ["Vertical\x0btab"]), ("venue", "ICML\x1b[31m"),
    ("name", "Bell\x07"), ("pdf", "https://example.org/\x00.pdf"), ("title", "Delete\x7f"),
    ("title", "Form\x0cfeed"), ("title", "Noncharacter\ufffe"),
])
def test_a_control_character_in_a_field_is_refused_naming_file_and_key(tmp_path, key, value):
    output = refused(tmp_path, [paper_fields(1, **{key: value})])
    assert f"file-0.md: front-matter key '{key}' holds a control character (U+" in output


def test_a_control_character_in_the_abstract_is_refused_with_its_line(tmp_path):
    text = paper_text(paper_fields(1), abstract="First line.\n\nSecond \x00 line.")
    output = refused(tmp_path, [text])
    assert "file-0.md:14: the abstract holds a control character (U+0000)" in output


def test_a_lone_surrogate_escape_is_a_yaml_error_with_its_line(tmp_path):
    text = paper_text(paper_fields(1)).replace("title: Paper number 1", 'title: "\\ud800"')
    output = refused(tmp_path, [text])
    assert "file-0.md:4: front matter is not valid YAML" in output


def test_a_colon_in_a_plain_title_names_the_file_line_and_suggests_quotes(tmp_path):
    text = paper_text(paper_fields(1)).replace("title: Paper number 1", "title: Foo: a bar")
    output = refused(tmp_path, [text])
    assert re.search(r"file-0\.md:4: front matter is not valid YAML \(mapping values are not allowed[^)]*\); "
                     r"a value holding ': ' must be quoted, like title: \"Foo: a bar\"", output), output


BILLION_LAUGHS = "authors: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"name{n}: &{chr(98 + n)} [*{chr(97 + n)}, *{chr(97 + n)}, *{chr(97 + n)}, *{chr(97 + n)}, *{chr(97 + n)}, "
    f"*{chr(97 + n)}, *{chr(97 + n)}, *{chr(97 + n)}, *{chr(97 + n)}, *{chr(97 + n)}]\n" for n in range(9))


@pytest.mark.parametrize("front, sign", [
    (BILLION_LAUGHS, "*a"),
    ("authors: &who [Ada]\nother_names: *who\n", "*who"),
    ("authors: &lonely [Ada]\n", "&lonely"),
])
def test_yaml_aliases_and_anchors_are_refused(tmp_path, front, sign):
    text = paper_text(paper_fields(1)).replace("venue: ICML\n", front)
    output = refused(tmp_path, [text])
    assert f"front matter uses a YAML {'alias' if sign[0] == '*' else 'anchor'} ({sign}); write the value out" \
        in output
    assert len(output) < 400


@pytest.mark.parametrize("front", [
    "authors: " + "[" * 100_000 + "]" * 100_000 + "\n",
    "authors: " + "{a: " * 100_000 + "}" * 100_000 + "\n",
    "authors:\n" + "".join("  " * level + "-\n" for level in range(500)),
    "authors:\n" + "- " * 100_000 + "x\n",
    "authors:\n" + "? " * 100_000 + "x\n",
])
def test_deep_nesting_in_front_matter_is_refused_before_the_yaml_library_recurses(tmp_path, front):
    text = paper_text(paper_fields(1)).replace("venue: ICML\n", front)
    output = refused(tmp_path, [text])
    assert "file-0.md:" in output and "front matter nests lists or mappings more than 8 deep" in output


@pytest.mark.parametrize("paper", [
    paper_fields(1, title="t" * 1_000_000 + " "),
    paper_fields(1, **{"x" * 1_000_000: 1}),
    paper_fields(1, links=[{"url": "javascript:" + "a" * 1_000_000, "label": "L"}]),
    paper_fields(1, year="9" * 1_000_000),
    paper_fields(1, authors="a" * 1_000_000),
])
def test_a_huge_value_makes_a_short_message(tmp_path, paper):
    output = refused(tmp_path, [paper])
    assert "file-0.md: " in output and "..." in output
    shown = output.replace(str(tmp_path), "")  # the scratch folder's name is pytest's, of any length
    assert len(shown) < 600, len(shown)


# --- _redirects: no page redirects to itself ----------------------------------------------------

def test_a_slug_renamed_and_back_leaves_no_self_redirect(tmp_path):
    (tmp_path / "seeds").mkdir()
    (tmp_path / "seeds" / "a.txt").write_text(f"ICML 2026\n\n{ABSTRACT.format(what='graphs')}\n", encoding="utf-8")
    make_content(tmp_path, [])
    content = tmp_path / "content"

    def ingest_and_slugs() -> tuple[str, tuple[str, ...]]:
        result = CliRunner().invoke(main, ["ingest", "--seeds", str(tmp_path / "seeds"), "--content", str(content)])
        assert result.exit_code == 0, result.output
        [paper] = read_papers(content).values()
        return paper.slug, paper.old_slugs

    slug, _ = ingest_and_slugs()
    [path] = (content / "papers").glob("*.md")
    for new, expected_old in (("renamed", (slug,)), (slug, ("renamed",))):
        text = path.read_text(encoding="utf-8")
        path.write_text(re.sub(r"(?m)^slug: .*$", f"slug: {new}", text), encoding="utf-8")
        assert ingest_and_slugs() == (new, expected_old)
    assert render(tmp_path).exit_code == 0
    redirects = (tmp_path / "site" / "_redirects").read_text(encoding="utf-8")
    for old in (paper_folder("renamed"), "papers/renamed/"):  # in this layout and the one before buckets
        assert f"/{old}*  /{paper_folder(slug)}  301!" in redirects
    assert f"/{paper_folder(slug)}*" not in redirects and f"/papers/{slug}/*" not in redirects
    assert check_redirects(tmp_path / "site") == []


def test_remember_renamed_slug_drops_the_current_slug():
    paper = Paper(id="0123456789ab", slug="amd", title="T", abstract="A", source=Source("s.txt", 1),
                  old_slugs=("amd", "older"))
    assert remember_renamed_slug(paper, "amd-x").old_slugs == ("older", "amd-x")
    assert remember_renamed_slug(paper, None).old_slugs == ("older",)


def test_an_old_slug_equal_to_the_slug_is_left_out_with_a_note(tmp_path):
    make_content(tmp_path, [paper_fields(1, old_slugs=["paper-1", "before"])])
    result = render(tmp_path)
    assert result.exit_code == 0, result.output
    assert result.output.count("file-0.md: old_slugs holds 'paper-1', the paper's own slug; left out") == 1
    redirects = (tmp_path / "site" / "_redirects").read_text(encoding="utf-8")
    assert f"/papers/before/*  /{paper_folder('paper-1')}  301!" in redirects
    assert f"/{paper_folder('paper-1')}*" not in redirects and "/papers/paper-1/*" not in redirects
    assert 'http-equiv="refresh"' not in (tmp_path / "site" / paper_page("paper-1")).read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def redirecting_site(tmp_path_factory) -> Path:
    return rendered(tmp_path_factory.mktemp("redirects"), [paper_fields(1, old_slugs=["before"])])


@pytest.mark.parametrize("line, problem", [
    ("/papers/amd/*  /papers/amd/  301!", "/papers/amd/ redirects to itself (a loop)"),
    ("/papers/other/*  /papers/before/  301!", "/papers/other/ redirects to /papers/before/, which redirects"),
    ("/*  /papers/amd/  301!", "is not an old paper address"),
])
def test_check_finds_redirect_loops_chains_and_stray_lines(redirecting_site, tmp_path, line, problem):
    site = Path(shutil.copytree(redirecting_site, tmp_path / "site"))
    assert check_redirects(site) == []
    added = (site / "_redirects").read_text(encoding="utf-8").count("\n") + 1  # the line number of the line added
    with (site / "_redirects").open("a", encoding="utf-8") as redirects:
        redirects.write(line + "\n")
    problems = check_redirects(site)
    assert len(problems) == 1 and problem in problems[0] and problems[0].startswith(f"_redirects:{added}: "), problems


# --- Venue pages: one address, one venue --------------------------------------------------------

class Listing(HTMLParser):
    """The heading and paper links of a venue page."""

    def __init__(self, html: str):
        super().__init__()
        self.heading, self.links, self.in_heading = "", [], False
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.in_heading = self.in_heading or tag == "h1"
        href = dict(attrs).get("href") or ""
        if tag == "a" and "/papers/" in href:
            self.links.append(href.removeprefix("../../"))

    def handle_endtag(self, tag):
        self.in_heading = self.in_heading and tag != "h1"

    def handle_data(self, data):
        self.heading += data if self.in_heading else ""


def test_case_variants_of_a_venue_are_one_venue_reported_once(tmp_path):
    papers = [paper_fields(1), paper_fields(2), paper_fields(3, venue="Icml"), paper_fields(4, venue="icml"),
              paper_fields(5, venue=None)]
    make_content(tmp_path, papers)
    result = render(tmp_path)
    assert result.exit_code == 0, result.output
    assert result.output.count("venue 'Icml' (1 paper) is shown as 'ICML' (2 papers)") == 1
    assert result.output.count("venue 'icml' (1 paper) is shown as 'ICML' (2 papers)") == 1
    site = tmp_path / "site"
    assert sorted(path.parent.name for path in site.glob("venues/*/index.html")) == ["icml-2026", "unknown-venue"]
    listing = Listing((site / "venues/icml-2026/index.html").read_text(encoding="utf-8"))
    assert listing.heading.strip() == "ICML 2026"
    assert sorted(set(listing.links)) == sorted(paper_page(f"paper-{n}") for n in (1, 2, 3, 4))
    records = site_records(site)
    assert sorted([record["venue"] for record in records], key=str) == ["ICML"] * 4 + [None]
    assert check_collections(site, parsed_collections(site)) == []


@pytest.mark.parametrize("first, second", [("A+B", "A B"), ("Ünïcode", "Unicode"), ("ML∞", "ML")])
def test_two_venues_whose_slugs_meet_each_get_a_page(tmp_path, first, second):
    """The one written as its slug reads keeps the address; the other's label adds a hash."""
    site = rendered(tmp_path, [paper_fields(1, venue=first), paper_fields(2, venue=second)])
    pages = {Listing(path.read_text(encoding="utf-8")).heading.strip(): path.parent.name
             for path in site.glob("venues/*/index.html") if path.parent.name != "venues"}
    assert pages.keys() == {f"{first} 2026", f"{second} 2026"}
    plain = routes.venue_slug(f"{second} 2026")
    assert pages[f"{second} 2026"] == plain and pages[f"{first} 2026"].startswith(f"{plain}-")
    assert check_collections(site, parsed_collections(site)) == []


@pytest.mark.parametrize("variant", ["icml", "ICML.", "I.C.M.L.", "IC\u200bML", " ICML", "ICML\u202e"])
def test_spelling_variants_of_a_venue_in_a_list_are_one_venue_with_a_note(tmp_path, variant):
    records = [{"title": f"Paper {n}", "abstract": ABSTRACT.format(what=f"case {n}"), "venue": venue, "year": 2026}
               for n, venue in enumerate(["ICML", "ICML", variant])]
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    (seeds / "list.jsonl").write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    result = CliRunner().invoke(main, ["ingest", "--seeds", str(seeds), "--content", str(tmp_path / "content")])
    assert result.exit_code == 0, result.output
    venues = [paper.venue for paper in read_papers(tmp_path / "content").values()]
    assert venues == ["ICML"] * 3
    if variant.strip() != variant or "\u202e" in variant or "\u200b" in variant:
        return  # cleaned of its spaces or invisible characters before the venues are compared
    assert f"venue '{variant}' (1 paper) is shown as 'ICML' (2 papers)" in result.output


def parsed_collections(site: Path) -> dict:
    return {path.relative_to(site).as_posix(): parse_page(path.read_text(encoding="utf-8"))
            for folder in ("venues", "topics") for path in site.glob(f"{folder}/*/index.html")}


def test_check_finds_a_venue_page_missing_or_not_listing_its_papers(tmp_path):
    """As an older build left it: 'Icml 2026' beside 'ICML 2026' in papers.json, one page for both
    (a build now folds them into one venue), and the page missing one of its papers."""
    site = rendered(tmp_path, [paper_fields(1), paper_fields(2)])
    part = site / "data/icml-2026.json"
    data = json.loads(part.read_text(encoding="utf-8"))
    data["papers"][1]["venue"] = "Icml"
    part.write_text(json.dumps(data), encoding="utf-8")
    page = site / "venues/icml-2026/index.html"
    page.write_text(page.read_text(encoding="utf-8").replace(f'href="../../{paper_page("paper-2")}"', 'href="#"'),
                    encoding="utf-8")
    problems = check_collections(site, parsed_collections(site))
    other = routes.venue_slugs(["ICML 2026", "Icml 2026"])["Icml 2026"]
    assert f"venues/{other}/index.html: missing; the page of 'Icml 2026' in papers.json" in problems
    data["papers"][1]["venue"] = "ICML"
    part.write_text(json.dumps(data), encoding="utf-8")
    problems = check_collections(site, parsed_collections(site))
    assert any(p.startswith("venues/icml-2026/index.html: does not list 1 of the 2 papers of 'ICML 2026'")
               for p in problems), problems


# --- Markdown citations and JSON-LD -------------------------------------------------------------

CITATIONS_IN_NODE = """
const fs = require("fs"), vm = require("vm");
globalThis.window = globalThis;
globalThis.CATALOGUE_SITE = { strings: {}, routes: {} };
globalThis.document = { querySelector: () => null, querySelectorAll: () => [] };
for (const script of process.argv.slice(1)) vm.runInThisContext(fs.readFileSync(script, "utf8"));
const cases = JSON.parse(fs.readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(cases.map((given) => window.catalogueCitations(...given))));
"""


def citations_by_script(cases: list[tuple[str, list[str], str, str]]) -> list[dict[str, str]]:
    """assets/cite.js's citations (text and Markdown) of (title, authors, venue, address), run by Node."""
    done = subprocess.run(["node", "-e", CITATIONS_IN_NODE, str(PROJECT / "assets" / "common.js"),
                           str(PROJECT / "assets" / "cite.js")], input=json.dumps(cases), capture_output=True,
                          text=True, check=True, timeout=60)
    return json.loads(done.stdout)


TITLES = ["Title](javascript:alert(1))", "[x](javascript:alert(1))", "Back\\slash ] and [", "*Stars* and _lines_ `code`",
          "<img src=x onerror=alert(1)> and <https://evil.example/>", "𝒪((2+ϵ)ⁿ) for ϵ> 0", "Line\nbreak\u2028and\x07bell"]
URLS = ["https://example.org/catalogue/papers/x/", "https://example.org/a b)(/papers/x/"]


def test_a_markdown_citation_links_its_whole_title_to_its_address():
    cases = [(title, ["Ada [x](javascript:y)"], "ICML 2026", url) for title in TITLES for url in URLS]
    for (title, _, _, url), made in zip(cases, citations_by_script(cases)):
        tokens = MarkdownIt("commonmark").parseInline(made["markdown"])[0].children
        assert not [token for token in tokens if token.type == "html_inline"]
        links = [token for token in tokens if token.type == "link_open"]
        assert [link.attrs["href"] for link in links] == [url.replace(" ", "%20").replace(")", "%29").replace("(", "%28")]
        inside = tokens[tokens.index(links[0]) + 1:]
        text = "".join(token.content for token in inside[:[t.type for t in inside].index("link_close")])
        shown = re.sub(r"[\n\u2028]", " ", title).replace("\x07", "")  # line breaks as spaces, no control character
        assert text == shown, made  # every other character shown as written
        assert made["markdown"].endswith("). *ICML 2026*.") and made["plain"].endswith(f". ICML 2026. {url}")


def test_a_citation_says_only_what_is_known():
    made = citations_by_script([("A Title.", [], "", ""), ("T", ["Ada", "Alan"], "", "https://x.org/p/"),
                                ("T", [], "NeurIPS", "")])
    assert made == [{"plain": "A Title.", "markdown": "**A Title.**."},
                    {"plain": "Ada, Alan. T. https://x.org/p/", "markdown": "Ada, Alan. [T](https://x.org/p/)."},
                    {"plain": "T. NeurIPS.", "markdown": "**T**. *NeurIPS*."}]


def test_a_script_end_tag_in_a_title_stays_in_the_json_ld(tmp_path):
    title = "Ends </script><script>alert(1)</script> and <!x"
    site = rendered(tmp_path, [paper_fields(1, title=title, title_source="given", authors=["</SCRIPT >"])],
                    "--base-url", BASE_URL)
    html = (site / paper_page("paper-1")).read_text(encoding="utf-8")
    start = html.index('<script type="application/ld+json">') + len('<script type="application/ld+json">')
    end = html.index("</script>", start)
    data = json.loads(html[start:end])
    assert data["name"] == title and data["author"] == [{"@type": "Person", "name": "</SCRIPT >"}]
    assert "<" not in html[start:end]


@pytest.mark.parametrize("venues", [("A+B", "A B"), ("ICML", "Icml"), ("Other", ""), ("Vocabulary", "vocabulary")])
def test_search_shards_are_named_by_number_whatever_the_venues(tmp_path, venues):
    pages = [IndexedPage(paper_page(f"p{number}"), venue, "2026", "key") for number, venue in enumerate(venues * 20)]
    (tmp_path / PAGES_FILE).write_text(render_pages_file(pages, "en"), encoding="utf-8")
    shards = read_shards(tmp_path)
    assert sum(len(shard.pages) for shard in shards) == 40 and len({shard.name for shard in shards}) == len(shards)
    assert all(re.fullmatch(r"part-[1-9]\d*", shard.name) for shard in shards) and VOCABULARY not in {shard.name for shard in shards}
