"""Structured lists (JSON, JSON Lines, CSV, TSV, BibTeX) under attack: a bad record or file is a note
and the rest is built; TeX commands, direction overrides and device names never reach what is published.

The readers are fed random and mutated records (hypothesis); the exported BibTeX is compiled with
pdflatex and bibtex, which must read no file and write none but their own.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import unicodedata
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from catalogue.cli import main
from catalogue.content.papers import read_papers
from catalogue.ingest.formats import parse_seed_records
from catalogue.ingest.structured_lists import MAX_FIELD_LENGTH, MAX_NAME_LENGTH, MAX_NAMES
from catalogue.model import Paper, Record, Source
from catalogue.portable import is_device_name, is_portable
from catalogue import routes
from catalogue.site.cite import render_bibtex
from catalogue.search.index import SHARD_COUNT, SHARD_PREFIX
from catalogue.text import INVISIBLE

from conftest import PROJECT
from site_data import site_bibtex, site_records

ABSTRACT = "We propose a method for {what} that improves sample efficiency on standard benchmarks by a wide margin."
FORMATS = ("x.jsonl", "x.json", "x.csv", "x.tsv", "x.bib")
# Characters that carry a format's structure, and those that hide or reorder text.
STRUCTURE = list('{}[]",:;\\\n\r\t@=%$#&_^~') + ["\u202e", "\u200b", "\u2066", "\ufeff", "\x00", "9" * 30]
BIDI_AND_INVISIBLE = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200b\u200e\u200f\u2060\ufeff\u00ad"


def written(records: list[dict], name: str) -> str:
    """The records as a list of the format `name` ends with (every field as text)."""
    if name.endswith(".jsonl"):
        return "".join(json.dumps(record) + "\n" for record in records)
    if name.endswith(".json"):
        return json.dumps(records)
    if name.endswith((".csv", ".tsv")):
        cell = "\t" if name.endswith(".tsv") else ","
        keys = sorted({key for record in records for key in record})
        quoted = lambda value: '"' + str(value).replace('"', '""') + '"'  # noqa: E731
        return "\n".join([cell.join(keys)] + [cell.join(quoted(record.get(key, "")) for key in keys)
                                              for record in records]) + "\n"
    return "".join("@inproceedings{k%d,\n%s}\n" % (number, ",\n".join(f"  {key} = {{{value}}}"
                                                                         for key, value in record.items()))
                   for number, record in enumerate(records))


def as_field(value) -> str:
    return " and ".join(value) if isinstance(value, list) else str(value)


RECORD = st.fixed_dictionaries({
    "title": st.text(max_size=40), "abstract": st.text(min_size=0, max_size=120),
    "authors": st.lists(st.text(max_size=20), max_size=4), "venue": st.text(max_size=12),
    "year": st.one_of(st.integers(), st.text(max_size=6)), "pdf": st.text(max_size=30)})


@settings(max_examples=150, deadline=None)
@given(name=st.sampled_from(FORMATS), records=st.lists(RECORD, max_size=4),
       cuts=st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 3), st.sampled_from(STRUCTURE)), max_size=6))
def test_no_record_stops_a_reader_and_every_value_is_clean(name, records, cuts):
    """Random records, then the file's text mutated at random places (characters cut, structure put in)."""
    text = written([{key: as_field(value) if name.endswith(".bib") else value for key, value in record.items()}
                    for record in records], name)
    for at, cut, inserted in cuts:
        at %= len(text) + 1
        text = text[:at] + inserted + text[at + cut:]
    found, problems = parse_seed_records(text.encode("utf-8", "surrogatepass"), f"seeds/{name}")
    assert all(problem.source.path == f"seeds/{name}" and problem.message for problem in problems)
    for record in found:
        assert isinstance(record, Record)
        texts = [record.abstract, record.title or "", record.venue or "", *record.authors, *record.keywords]
        assert not any(INVISIBLE.search(text) for text in texts)
        assert len(record.authors) <= MAX_NAMES and all(len(name) <= MAX_NAME_LENGTH for name in record.authors)
        assert len(record.title or "") <= MAX_FIELD_LENGTH["title"]
        assert record.year is None or isinstance(record.year, int)


def two_records(what: str) -> list[dict]:
    return [{"title": f"Sound paper {n} on {what}", "abstract": ABSTRACT.format(what=f"{what} {n}"),
             "venue": "ICML", "year": 2026} for n in (1, 2)]


HOSTILE_FILES = [  # (name, text): each spoils one record, or the file's structure
    ("deep.jsonl", "[" * 100_000 + "]" * 100_000 + "\n" + written(two_records("nesting"), ".jsonl")),
    ("deep.json", '[{"title": "t", "abstract": ' + "[" * 100_000 + "]" * 100_000 + "}]"),
    ("number.jsonl", '{"title": "Huge", "abstract": "%s", "year": %s}\n' % (ABSTRACT.format(what="years"), "9" * 5000)
     + written(two_records("numbers"), ".jsonl")),
    ("href.bib", "@inproceedings{a, title = {A \\href{https://x.org}{linked} title}, abstract = {%s}}\n"
     % ABSTRACT.format(what="links") + written(two_records("latex"), ".bib")),
    ("authors.json", json.dumps([{"title": "Many", "abstract": ABSTRACT.format(what="crowds"),
                                  "authors": [f"Author {n}" for n in range(50_000)]}])),
    ("long.jsonl", json.dumps({"title": "word " * 100_000, "abstract": ABSTRACT.format(what="length"),
                               "venue": "V" * 10_000}) + "\n"),
    ("surrogate.jsonl", '{"title": "Half \\ud800 a character", "abstract": "%s"}\n' % ABSTRACT.format(what="halves")
     + written(two_records("surrogates"), ".jsonl")),
    ("twice.json", '[{"title": "First", "title": "Second", "abstract": "%s"}]' % ABSTRACT.format(what="keys")),
]


@pytest.fixture(scope="module")
def hostile_ingest(tmp_path_factory):
    """One ingest of every hostile file beside a sound list: (result, content folder)."""
    root = tmp_path_factory.mktemp("hostile")
    seeds = root / "seeds"
    seeds.mkdir()
    for name, text in HOSTILE_FILES:
        (seeds / name).write_text(text, encoding="utf-8")
    (seeds / "sound.jsonl").write_text(written(two_records("sound lists"), ".jsonl"), encoding="utf-8")
    result = CliRunner().invoke(main, ["ingest", "--seeds", str(seeds), "--content", str(root / "content")])
    return result, root / "content"


def test_a_hostile_file_is_a_note_and_every_other_paper_is_ingested(hostile_ingest):
    result, content = hostile_ingest
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    titles = {paper.title for paper in read_papers(content).values()}
    for what in ("nesting", "numbers", "latex", "surrogates", "sound lists"):
        assert {f"Sound paper 1 on {what}", f"Sound paper 2 on {what}"} <= titles, what
    assert "seeds/deep.json: nested deeper than any list of records is; nothing in this file was read" in result.output
    assert "seeds/deep.jsonl:1: nested deeper" in result.output
    assert "seeds/number.jsonl:record 1: year <a number of 5000 digits> is not a year" in result.output
    assert "seeds/href.bib:record 1: title: LaTeX that cannot be read as text; kept as written" in result.output
    assert "Half a character" in titles  # half a character (a lone surrogate) is no character


def test_a_record_past_the_bounds_is_trimmed_with_a_note(hostile_ingest):
    result, content = hostile_ingest
    papers = {paper.title: paper for paper in read_papers(content).values()}
    assert len(papers["Many"].authors) == MAX_NAMES
    assert "seeds/authors.json:record 1: authors lists 50,000 names" in result.output
    [long] = [paper for title, paper in papers.items() if title.startswith("word word")]
    assert len(long.title) <= MAX_FIELD_LENGTH["title"] and long.venue is None
    assert "seeds/long.jsonl:record 1: venue is 10,000 characters long" in result.output


def test_a_json_key_given_twice_is_reported_and_the_first_kept(hostile_ingest):
    result, content = hostile_ingest
    assert "seeds/twice.json:record 1: 'title' is given twice; the first is used" in result.output
    assert "First" in {paper.title for paper in read_papers(content).values()}


# --- What is published ------------------------------------------------------------------------------

SPOOFED = "Harmless title \u202eevil\u202c end"
ATTACKS = [
    {"title": SPOOFED, "abstract": ABSTRACT.format(what="spoofing"), "venue": "ICML", "year": 2026,
     "authors": ["Ada Lovelace", "Ada\u200b Lovelace", "con", "NUL", "lpt9", "Aux"]},
    {"title": "Device venue", "abstract": ABSTRACT.format(what="devices"), "venue": "CON", "authors": ["Ada Lovelace"]},
    {"title": "Another device", "abstract": ABSTRACT.format(what="drivers"), "venue": "aux", "year": 2026},
    {"title": "\\input{secret.txt} \\immediate\\write18{touch pwned} \\newwrite\\f\\immediate\\openout\\f=written.tex "
              "$\\input{secret.txt}$ $^^5cinput{secret.txt}$ $\\ell_\\infty$ \\csname input\\endcsname{secret.txt} "
              "\\(x\\\\) then $\\Pr(x)$ and $\\Re x$ and \\(\\) and $$\\Delta t$$",
     "abstract": ABSTRACT.format(what="typesetting"), "venue": "ICML\\write18{touch pwned}", "year": 2026,
     "authors": ["\\input{secret.txt}", "Grace } Hopper {"]},
]


@pytest.fixture(scope="module")
def attacked_site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("attacked")
    (root / "seeds").mkdir()
    (root / "seeds" / "list.jsonl").write_text("".join(json.dumps(record) + "\n" for record in ATTACKS),
                                               encoding="utf-8")
    shutil.copy(PROJECT / "site.toml", root / "site.toml")
    result = CliRunner().invoke(main, ["build", "--seeds", str(root / "seeds"), "--content", str(root / "content"),
                                       "--out", str(root / "site"), "--config", str(root / "site.toml"),
                                       "--no-search", "--base-url", "https://example.org/"])
    assert result.exit_code == 0, result.output
    return root / "site"


def test_no_published_name_is_a_windows_device(attacked_site):
    names = [part for path in attacked_site.rglob("*") for part in path.relative_to(attacked_site).parts]
    assert names and not [name for name in names if is_device_name(name)]
    assert any(slug.startswith("con-") for slug in author_sections(attacked_site))  # the author 'con' has a section


def test_no_search_shard_is_a_device_or_too_long():
    names = {f"{SHARD_PREFIX}{number + 1}" for number in range(SHARD_COUNT)}
    assert not [name for name in names if is_device_name(name) or len(name) > 100]


def test_no_direction_override_or_invisible_character_is_published(attacked_site):
    for path in attacked_site.rglob("*"):
        if path.is_file() and path.suffix in (".html", ".xml", ".json", ".js", ".bib", ".txt"):
            text = path.read_text(encoding="utf-8")
            assert not [c for c in BIDI_AND_INVISIBLE if c in text], path


def author_sections(site: Path) -> list[str]:
    """The slugs of the authors' sections, on every bucket's page of authors."""
    return [slug for path in site.glob("authors/[0-9a-f][0-9a-f]/index.html")
            for slug in re.findall(r'<section id="([^"]+)">', path.read_text(encoding="utf-8"))]


def test_an_author_with_an_invisible_character_has_one_section(attacked_site):
    assert len([slug for slug in author_sections(attacked_site) if slug.startswith("ada-lovelace")]) == 1


def test_list_text_is_isolated_where_direction_matters(attacked_site):
    records = site_records(attacked_site)
    [path] = [routes.paper_page(record["slug"]) for record in records if record["title"].startswith("Harmless")]
    html = (attacked_site / path).read_text(encoding="utf-8")
    assert '<h1 dir="auto"' in html and '<a dir="auto" href="../../../authors/' in html


def test_the_exported_bibtex_compiles_and_reads_or_writes_no_file(attacked_site, tmp_path):
    """pdflatex with --shell-escape, the worst case, then bibtex, then pdflatex: the files it opens are its own."""
    (tmp_path / "refs.bib").write_text(site_bibtex(attacked_site), encoding="utf-8")
    (tmp_path / "secret.txt").write_text("SECRET-TOKEN-4242\n", encoding="utf-8")
    (tmp_path / "doc.tex").write_text("\\documentclass{article}\n\\usepackage[utf8]{inputenc}\n\\begin{document}\n"
                                      "\\nocite{*}\n\\bibliographystyle{plain}\n\\bibliography{refs}\n\\end{document}\n",
                                      encoding="utf-8")
    latex = ["pdflatex", "-shell-escape", "-recorder", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"]
    for command in (latex, ["bibtex", "doc"], latex):
        run = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stdout[-3000:]
    recorded = (tmp_path / "doc.fls").read_text(encoding="utf-8").splitlines()
    local = {line.split(" ", 1)[1].removeprefix("./") for line in recorded
             if line.startswith(("INPUT", "OUTPUT")) and not line.split(" ", 1)[1].startswith("/")}
    assert local <= {"doc.tex", "doc.aux", "doc.bbl", "doc.log", "doc.pdf"}, local
    assert not (tmp_path / "pwned").exists() and not (tmp_path / "written.tex").exists()
    assert "SECRET-TOKEN" not in (tmp_path / "doc.log").read_text(encoding="utf-8", errors="replace")
    entries = (tmp_path / "doc.bbl").read_text(encoding="utf-8")
    assert entries.count("\\bibitem") == len(ATTACKS) and "$\\ell_\\infty$" in entries  # safe math stays math


def test_nothing_in_a_title_is_shown_in_another_order(attacked_site):
    """The spoofing title reads as its letters do, the override gone."""
    data = site_records(attacked_site)
    titles = {unicodedata.normalize("NFC", paper["title"]) for paper in data}
    assert "Harmless title evil end" in titles


def test_cards_isolate_a_lists_titles_names_and_venues(attacked_site, browser):
    """On the home page's cards each title, author and venue takes its own direction (CSS unicode-bidi),
    as dir="auto" does on the paper page, so a right-to-left one never reorders its neighbours."""
    page = browser.new_page()
    try:
        page.goto((attacked_site / "index.html").as_uri())
        styles = page.eval_on_selector_all(".card-title a, .card-authors a, .card .venue",
                                           "links => links.map(link => getComputedStyle(link).unicodeBidi)")
        assert styles and set(styles) == {"plaintext"}
        heading = page.eval_on_selector("h1", "h1 => getComputedStyle(h1).direction")
        assert heading == "ltr"  # the interface keeps its own direction
    finally:
        page.close()


LABEL = st.lists(st.sampled_from(list("aAbB +-.&é∞") + [" 2026", "con", "a" * 60, "-f274a0"]), max_size=12).map("".join)


@given(labels=st.lists(LABEL, min_size=1, max_size=8))
def test_no_two_venue_labels_share_a_folder_and_every_folder_is_portable(labels):
    slugs = routes.venue_slugs(labels)
    assert len(set(slugs.values())) == len(slugs) == len(set(labels))
    assert all(is_portable(slug) for slug in slugs.values()), slugs


def test_a_lists_formulas_survive_a_style_that_lower_cases_titles():
    """plain.bst lower-cases a title outside braces: `$\\Box$` would become the primitive `\\box`."""
    paper = Paper(id="0123456789ab", slug="x", title=r"Bounds for $\Box$ and $\Re x$ in LS$^2$MC", abstract="",
                  source=Source("s.txt", 1), title_source="given")
    title = re.search(r"title = \{(.*)\},?\n", render_bibtex(paper, None))[1]
    outside = re.sub(r"\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}", "", title)  # what a style may lower-case
    assert "$" not in outside and "Box" not in outside and "Re" not in outside
