"""BibTeX -> rows: every entry read by bibtexparser, its title, authors, keywords and venue LaTeX
turned into text by pylatexenc (whatever pylatexenc cannot read is kept as written, with a note)."""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Callable, Iterator
from typing import Any

import bibtexparser
from bibtexparser.library import Library
from bibtexparser.model import DuplicateBlockKeyBlock, DuplicateFieldKeyBlock, Entry, ParsingFailedBlock
from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, SpecialsTextSpec, get_default_latex_context_db

from catalogue.ingest.rows import FIELD_NAMES, MAX_NAMES, Row, normalize_name
from catalogue.model import Problem, Source
from catalogue.text import printable

# LaTeX read of one title, venue, keyword list or name at most: far more than any needs, and pylatexenc
# takes seconds over a field of megabytes.
MAX_LATEX = 10_000
# Text in which pylatexenc would change something; the rest (most names) skips the parser.
LATEX_MARKS = re.compile(r"[\\{}$~%&]|--|``|''|[?!]`")


def parse_bibtex_rows(text: str, path: str, problems: list[Problem]) -> Iterator[Row]:
    """Every entry of a BibTeX file, read by bibtexparser (@string abbreviations resolved).

    Title, authors, keywords and venue are LaTeX turned into text (latex_to_text); the abstract
    is kept as written, for the markup stage. An entry bibtexparser could not read is reported by
    its place among the entries and skipped; one whose key an earlier entry has is read with a note.
    """
    library = quietly(bibtexparser.parse_string, text)  # its own log lines would repeat our problems
    number = 0
    for block in library.blocks:
        if isinstance(block, ParsingFailedBlock) and re.match(r"\s*@\s*(string|preamble|comment)\b", block.raw or "",
                                                              re.IGNORECASE):
            problems.append(Problem(Source(path, (block.start_line or 0) + 1),
                                    f"cannot be read ({bibtex_error(block)}); skipped"))
            continue
        if not isinstance(block, (Entry, ParsingFailedBlock)):
            continue  # @string, @preamble, @comment, text between entries
        number += 1
        source = Source(path, record=number)
        entry = block
        if isinstance(block, DuplicateBlockKeyBlock):
            problems.append(Problem(source, f"the key '{printable(block.key)}' names an earlier entry too; "
                                            "read all the same"))
            # bibtexparser set it aside before resolving @string abbreviations and braces
            entry = bibtexparser.parse_string(block.raw, library=Library(library.strings)).blocks[-1]
        if not isinstance(entry, Entry):
            problems.append(Problem(source, f"the entry starting on line {(block.start_line or 0) + 1} cannot be read "
                                            f"({bibtex_error(entry)}); skipped"))
            continue
        yield Row(source, tuple(bibtex_fields(entry, source, problems)))


def quietly(parse: Callable[[str], Library], text: str) -> Library:
    """bibtexparser's result without its logging (which prints each broken entry to stderr)."""
    logger = logging.getLogger("bibtexparser")
    level = logger.level
    logger.setLevel(logging.CRITICAL + 1)
    try:
        return parse(text)
    finally:
        logger.setLevel(level)


def bibtex_error(block: ParsingFailedBlock) -> str:
    if isinstance(block, DuplicateFieldKeyBlock):  # bibtexparser's own message speaks to programmers
        return printable(f"{', '.join(sorted(block.duplicate_keys))} given twice")
    error = block.error
    return printable((getattr(error, "abort_reason", "") or str(error) or type(error).__name__).strip())


def bibtex_fields(entry: Entry, source: Source, problems: list[Problem]) -> Iterator[tuple[str, Any]]:
    """The entry's fields as text; LaTeX that cannot be read is kept as written, with a note."""
    for field in entry.fields:
        key = field.key.lower()
        name = FIELD_NAMES.get(normalize_name(key))
        try:
            if name == "authors":
                authors = bibtex_authors(field.value)  # past MAX_NAMES, or too long to be a name: left out by names_of
                yield key, [latex_to_text(author) if len(author) <= MAX_LATEX else author
                            for author in authors[:MAX_NAMES]] + authors[MAX_NAMES:]
            elif name in ("title", "keywords", "venue"):
                if len(field.value) > MAX_LATEX:
                    problems.append(Problem(source, f"{printable(key)} is {len(field.value):,} characters long; only the "
                                                    f"first {MAX_LATEX:,} are read"))
                yield key, latex_to_text(field.value[:MAX_LATEX])
            elif name == "abstract":
                yield key, without_outer_braces(field.value.strip())
            elif name == "doi":  # `10.1007/978-3-030\_13`, as some tools write a DOI's underscore for TeX
                yield key, re.sub(r"\\([_%&#])", r"\1", field.value)
            else:
                yield key, field.value
        except UnreadableLatex:
            problems.append(Problem(source, f"{printable(key)}: LaTeX that cannot be read as text; kept as written"))
            yield key, field.value


def bibtex_authors(value: str) -> list[str]:
    """BibTeX's names: split on "and" outside braces; "Last, First" and "Last, Jr, First" as
    "First Last" and "First Last Jr"; "others" (BibTeX's et al.) is not a name."""
    names = []
    for name in split_outside_braces(value, r"\s+and\s+"):
        parts = [part.strip() for part in split_outside_braces(name, ",")]
        if len(parts) > 1:
            parts = [parts[-1] if len(parts) > 2 else parts[1], parts[0], *parts[1:-1]]
        name = " ".join(part for part in parts if part)
        if name and name != "others":
            names.append(name)
    return names


def split_outside_braces(text: str, separator: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for match in re.finditer(rf"(?<!\\)[{{}}]|{separator}", text):
        if match[0] == "{":
            depth += 1
        elif match[0] == "}":
            depth = max(depth - 1, 0)
        elif depth == 0:
            parts.append(text[start:match.start()])
            start = match.end()
    parts.append(text[start:])
    return parts


def without_outer_braces(text: str) -> str:
    """text without a pair of braces around all of it ({{...}} leaves one pair after bibtexparser)."""
    if not (text.startswith("{") and text.endswith("}")):
        return text
    depth = 0
    for match in re.finditer(r"(?<!\\)[{}]", text):
        depth += 1 if match[0] == "{" else -1
        if depth == 0:
            return text[1:-1] if match.end() == len(text) else text
    return text


def latex_to_text(latex: str) -> str:
    """LaTeX as Unicode text: accents and `--` as characters, protecting braces dropped, math
    ($...$, \\(...\\)) kept as written. A bare % or & is text, as BibTeX itself reads it.
    UnreadableLatex when pylatexenc gives up on it (it raises what it meets: IndexError, ...)."""
    if not LATEX_MARKS.search(latex):
        return latex
    try:
        return latex_converter().latex_to_text(latex)
    except Exception as error:  # noqa: BLE001 - any failure of the library is this text's problem
        raise UnreadableLatex(latex) from error


class UnreadableLatex(ValueError):
    """A field's LaTeX that pylatexenc cannot read."""


@functools.cache
def latex_converter() -> LatexNodes2Text:
    """One converter for the process: building it costs more than converting a title."""
    context = get_default_latex_context_db()  # a fresh table, extended here only
    # a bare & is text, not a table's column; \textasciicircum is the caret, not pylatexenc's U+02C6
    context.add_context_category("seed lists", specials=[SpecialsTextSpec("&", "&")],
                                 macros=[MacroTextSpec("textasciicircum", "^")], prepend=True)
    return LatexNodes2Text(latex_context=context, math_mode="verbatim", keep_comments=True)
