"""The exported BibTeX compiles cleanly as its users compile it: pdflatex with T1 fonts and UTF-8 input,
with plain.bst, natbib's plainnat.bst, and biblatex with biber (checking biblatex's data model). One
.bib holds the real papers of tests/data/corpus_sample.jsonl whose title or names go beyond ASCII or
hold math, and made-up ones: no authors, accents as combining characters, math symbols as Unicode,
characters TeX has no form for, DOIs holding what real ones hold (`_`, `<`, `>`, `;`) and what TeX acts on.
Every style must report no error, and no warning but of a year missing where the paper has none
(plainnat and biblatex want one; it is never made up).
(tests/test_structured_attacks.py compiles an attacked site's .bib for what TeX may read and write.)
"""

from __future__ import annotations

import json
import re
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from catalogue.model import Paper, Source
from catalogue.site.cite import render_bibtex

from conftest import PROJECT

sys.path.insert(0, str(PROJECT))
from bench.bib_compile import STYLES, compile_bib  # noqa: E402

SAMPLE = PROJECT / "tests" / "data" / "corpus_sample.jsonl"
# Made-up papers: (title, authors, venue, year).
HOSTILE = [
    ("$ρ$-Margin Bounds for $\\ell_∞$ Robustness", (), "ICML", 2026),  # no authors; Unicode in math
    ("ε-Greedy Exploration under ∞-Norm and ≤ Constraints", ("Zoë Ægir Øster", "Łukasz Kaiser"), "NeurIPS", 2024),
    ("Über Ärger: Decomposed Accents in GÖDEL-Net", ("Jose\u0301 Garci\u0301a", "Ana Mun\u0303oz"), "ICLR", 2025),
    ("Fast 🚀 Transformers for 中文 \ufffc Text", ("江常皓", "Văn Lâm", "Țuțu Ștefan"), "ACL", 2023),
    ("No Venue, No Year, No Authors: Ⅻ ǎ ﬁ", (), None, None),
    ("Authors but No Venue of $O(n^2)$ Cost", ("Ada Lovelace",), None, 2020),
    ("A Venue but No Year", ("Ada Lovelace",), "COLT", None),
]
# Letters under two accents: TeX stacks them, but biber decodes the commands into Unicode before
# pdflatex reads them, wrongly (the second accent first) and into characters T1 has no glyph for.
STACKED = [("Two Accents on One Letter", ("Đặng Nguyễn", "Ana x\u0301\u0308 Lee"), "ICLR", 2025)]
# DOIs: Wiley's SICI form, a Springer chapter's underscore, and every character TeX or an entry acts on.
DOIS = ["10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O", "10.1007/978-3-030-58452-8_13",
        "10.1000/a{b}c\\d^e%f#g&h~i$j"]


def sample_papers() -> list[Paper]:
    """The sample's papers whose title or authors are not plain ASCII text."""
    papers = []
    for number, line in enumerate(SAMPLE.read_text(encoding="utf-8").splitlines()):
        record = json.loads(line)
        text = record["title"] + " ".join(record.get("authors") or ())
        if not text.isascii() or "$" in text:
            papers.append(paper(f"real{number}", record["title"], tuple(record.get("authors") or ()),
                                record.get("venue"), record.get("year")))
    return papers


def paper(slug: str, title: str, authors: tuple[str, ...], venue: str | None, year: int | None,
          doi: str | None = None) -> Paper:
    """A paper whose key names its case (venue, year, slug), as the warnings name entries."""
    key = re.sub(r"[^a-z0-9]", "", f"{venue or ''}{year or ''}{slug}".lower())
    return Paper(id=f"{len(slug):012d}", slug=slug, title=title, abstract="", source=Source("s.txt", 1),
                 title_source="given", authors=authors, venue=venue, year=year, cite_key=key, doi=doi)


def with_dois() -> list[Paper]:
    """A paper for each of DOIS, one without authors (@misc)."""
    return [paper(f"doi{number}", f"A Paper with DOI {number}", ("Ada Lovelace",) if number else (), "ICML", 2020, doi)
            for number, doi in enumerate(DOIS)]


def written(papers: list[Paper], folder: Path) -> Path:
    path = folder / "refs.bib"
    path.write_text("\n".join(render_bibtex(one, f"https://example.org/{one.slug}/") for one in papers),
                    encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def bib(tmp_path_factory) -> Path:
    """Every case, for bibtex's styles."""
    papers = sample_papers() + [paper(f"made{number}", *case) for number, case in enumerate(HOSTILE + STACKED)]
    papers += with_dois()
    assert len(papers) > 40
    return written(papers, tmp_path_factory.mktemp("bib"))


@pytest.fixture(scope="module")
def outcomes(bib, tmp_path_factory) -> dict:
    """Each style compiled once, the three at the same time (each waits on its own processes); biber
    without the stacked accents."""
    for_biber = written(sample_papers() + [paper(f"made{number}", *case) for number, case in enumerate(HOSTILE)]
                        + with_dois(), tmp_path_factory.mktemp("biber"))

    def run(style: str):
        return compile_bib(for_biber if "biber" in style else bib, style, tmp_path_factory.mktemp("tex"))
    with ThreadPoolExecutor(len(STYLES)) as pool:
        return dict(zip(STYLES, pool.map(run, STYLES)))


@pytest.mark.parametrize("style", list(STYLES))
def test_every_style_compiles_the_bibtex_without_an_error_or_warning(outcomes, style):
    assert outcomes[style].errors == []
    no_year = {f"made{number}" for number, case in enumerate(HOSTILE) if case[3] is None}
    year_missing = re.compile(r"empty year in (\w+)$|Entry '(\w+)' .*one of 'date, year' must be defined")
    unexpected = [line for line in outcomes[style].warnings
                  if not (missing := year_missing.search(line)) or (missing[1] or missing[2]).removeprefix("colt")
                  not in no_year]
    assert unexpected == []


def test_non_ascii_is_written_as_tex_commands_each_one_letter(bib):
    text = bib.read_text(encoding="utf-8")
    assert text.isascii()
    assert "{${\\rho}$}-Margin" in text and "{$\\ell_{\\infty}$}" in text  # math symbols as commands, still math
    assert "Jos{\\'e} Garc{\\'i}a" in text  # composed (NFC) first: one letter, í
    assert "{$\\varepsilon$}-Greedy" in text and "{\\\"U}ber" in text
    assert "{G{\\\"O}DEL-Net}" in text  # inner capitals kept from a style's lower-casing, accented or not
    assert "{\\\"{\\'{x}}}" in text and "{\\u{\\d{a}}}" in text  # LaTeX's accents over a letter Unicode
    assert "{T}u{t}u {S}tefan" in text and "???" in text  # or pylatexenc has none for: Ț (a comma below), 江常皓


def test_an_entry_without_authors_is_misc_with_a_key_never_an_invented_author(bib):
    entries = {entry.split(",", 1)[0]: entry for entry in bib.read_text(encoding="utf-8").split("\n@")}
    [anonymous] = [entry for key, entry in entries.items() if key.endswith("icml2026made0")]
    assert anonymous.lstrip("@").startswith("misc{") and "author" not in anonymous
    assert re.search(r"key = \{\{\$\{\\rho\}\$\}-Margin Bounds for \{\$\\ell_\{\\infty\}\$\}\}", anonymous)
    [with_all] = [entry for key, entry in entries.items() if key.endswith("neurips2024made1")]
    assert with_all.startswith("inproceedings{") and "key =" not in with_all and "booktitle" in with_all


def test_a_doi_is_written_as_given_but_for_what_would_end_its_field(bib):
    """As an address is: `_`, `<`, `;`, `%`, `#` as they are (biblatex reads the field verbatim, plainnat
    prints it with url.sty's \\url), braces, backslash and caret percent-encoded."""
    text = bib.read_text(encoding="utf-8")
    assert "  doi = {10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O},\n" in text
    assert "  doi = {10.1007/978-3-030-58452-8_13},\n" in text
    assert "  doi = {10.1000/a%7Bb%7Dc%5Cd%5Ee%f#g&h~i$j},\n" in text
    assert text.count("  doi = ") == len(DOIS)  # none for a paper without one
