"""Structured seed lists (JSON, JSON Lines, CSV, TSV, BibTeX) read into Records (pure: no I/O).

Every format is first read into rows of (field name as written, value) pairs; one shared step
then maps the names through FIELD_NAMES and checks the values, so the five formats agree on
what a title, an author list, a year or a link is. A record or value that cannot be used is
reported with its `file:record N` (`file:line` for CSV and TSV) and the rest is read.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import logging
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any

import bibtexparser
from bibtexparser.library import Library
from bibtexparser.model import DuplicateBlockKeyBlock, DuplicateFieldKeyBlock, Entry, ParsingFailedBlock
from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, SpecialsTextSpec, get_default_latex_context_db

from catalogue.text import printable, replace_unsafe, split_lines, without_invisible
from catalogue.model import Problem, Record, Source

STRUCTURED_EXTENSIONS = (".jsonl", ".json", ".csv", ".tsv", ".bib")

# Field names as JSON keys, CSV/TSV headers and BibTeX fields write them, compared after
# normalize_name ("Paper_Title" -> "paper title"), mapped to the Record's field. The corpus's
# own names come first (../shared/corpus/README.md); its `track`, `tldr` and `status`, like every
# name not listed, are ignored.
FIELD_NAMES = {
    "title": "title", "paper title": "title",
    "abstract": "abstract",
    "authors": "authors", "author": "authors", "author names": "authors",
    "keywords": "keywords", "keyword": "keywords",
    "venue": "venue", "conference": "venue", "booktitle": "venue", "journal": "venue",
    "year": "year",
    "pdf": "pdf", "pdf url": "pdf",
    "github": "code", "code": "code", "code url": "code",
    "project": "project", "project page": "project",
    "site": "url", "url": "url", "link": "url",
}
LINK_FIELDS = ("pdf", "url", "code", "project")
# A JSON file may wrap its list of records in one object: {"papers": [...]}.
JSON_LIST_KEYS = ("papers", "records", "items")
FIRST_YEAR, LAST_YEAR = 1900, 2100
# Bounds no real list meets and a hostile one does (README, "Seed lists"): past them a value is cut
# or left out with a note, so no record costs more than a few pages' work.
MAX_NUMBER_DIGITS = 20
MAX_NAMES = 1000  # authors (or keywords) of one record
MAX_NAME_LENGTH = 300  # characters of one author or keyword
MAX_FIELD_LENGTH = {"title": 1000, "venue": 200, "abstract": 100_000}
MAX_ADDRESS_LENGTH = 2000
TOO_DEEP = "nested deeper than any list of records is"
Note = Callable[[str], None]  # records a problem with the row being read

ADDRESS = re.compile(r"https?://[^\s<>\"\x00-\x1f\x7f-\x9f]+", re.IGNORECASE)
# Paper lists often give a link as Markdown ("[![github](icon.svg) owner/repo](https://github.com/...)").
MARKDOWN_LINK = re.compile(r"\]\((https?://[^\s()<>\"\x00-\x1f\x7f-\x9f]+)\)", re.IGNORECASE)
# An address written without its scheme, as spreadsheets often hold them: github.com/owner/repo, www.x.org.
BARE_HOST = re.compile(r"www\.[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}(?:/[^\s<>\"\x00-\x1f\x7f-\x9f]*)?"
                       r"|[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}/[^\s<>\"\x00-\x1f\x7f-\x9f]*", re.IGNORECASE)
YEAR_TEXT = re.compile(r"\d{4}")
# Text in which pylatexenc would change something; the rest (most names) skips the parser.
LATEX_MARKS = re.compile(r"[\\{}$~%&]|--|``|''|[?!]`")

# icml2019, ICML_2019, neurips-2018, ACL 2022, ACM MM 2022: a venue's name, then a year.
FILE_NAME = re.compile(r"(?P<venue>[A-Za-z][A-Za-z&+]*(?:[ _.\-][A-Za-z][A-Za-z&+]*)*)?[ _.\-']*"
                       r"(?<!\d)(?P<year>(?:19|20)\d{2})(?!\d)")
# How venues that are not all capitals are written, for file names written in lower case.
VENUE_SPELLINGS = {name.lower(): name for name in ("NeurIPS", "CoRL", "CoNLL", "CoLLAs", "MLSys", "RecSys",
                                                   "Interspeech")}


@dataclass(frozen=True)
class RecordFile:
    """The records of one structured seed file, in file order, and what was wrong in it."""

    records: tuple[Record, ...]
    problems: tuple[Problem, ...]


@dataclass(frozen=True)
class Row:
    """One record as its format gives it: (field name as written, value) pairs."""

    source: Source
    fields: tuple[tuple[str, Any], ...]


def parse_record_file(text: str, path: str) -> RecordFile:
    """The records of a structured seed file, chosen by the extension of path (any case).

    Records that name no venue or year take them from the file name (venue_year_from_filename).
    """
    name = file_name(path)
    extension = "." + name.rsplit(".", 1)[-1].lower() if "." in name else ""
    readers = {".jsonl": parse_jsonl_rows, ".json": parse_json_rows, ".csv": parse_csv_rows,
               ".tsv": parse_tsv_rows, ".bib": parse_bibtex_rows}
    if extension not in readers:
        raise ValueError(f"{path}: not a structured seed list ({', '.join(STRUCTURED_EXTENSIONS)})")
    problems: list[Problem] = []
    rows = readers[extension](text.lstrip("\ufeff"), path, problems)
    venue, year = venue_year_from_filename(path)
    records: list[Record] = []
    source = Source(path)
    try:
        for row in rows:
            source = row.source
            try:
                record = record_from_row(row, problems)
            except Exception as error:  # noqa: BLE001 - whatever one record does, the others are read
                problems.append(Problem(row.source, f"cannot be read ({failure(error)}); skipped"))
                continue
            if record is not None:
                records.append(replace(record, venue=record.venue or venue, year=record.year or year))
    except Exception as error:  # noqa: BLE001 - the format's reader gave up: what it read before stays
        problems.append(Problem(source, f"the rest of the file cannot be read ({failure(error)}); the "
                                        f"{len(records)} records before it are kept"))
    return RecordFile(tuple(records), tuple(problems))


def failure(error: Exception) -> str:
    """An unexpected error as a note shows it: its kind and a short message."""
    message = printable(str(error))
    message = message if len(message) <= 80 else message[:79] + "…"
    return f"{type(error).__name__}: {message}" if message else type(error).__name__


def venue_year_from_filename(path: str) -> tuple[str | None, int | None]:
    """(venue, year) that a file name gives: `NeurIPS_2018.csv` -> ("NeurIPS", 2018).

    The year is four digits (1900-2099) anywhere in the name; the venue is the words of letters
    right before it (separated by spaces, `_`, `-` or `.`, which become single spaces). Case is
    kept as written when the name has a capital letter (`NeurIPS_2018`, `ICML_2019`); a name
    written all in lower case is taken for a habit of file naming, not the venue's spelling, and
    each word is capitalised as venues are: in capitals (`icml2019` -> "ICML", `acm-mm-2022` ->
    "ACM MM"), or as VENUE_SPELLINGS writes the few that are not (`neurips-2018` -> "NeurIPS").
    A name with no year gives (None, None); one with a year alone (`2019.json`) gives (None, 2019).
    """
    name = file_name(path)
    stem = name.rsplit(".", 1)[0] if "." in name else name
    match = FILE_NAME.search(stem)
    if match is None:
        return None, None
    words = re.split(r"[ _.\-]", match["venue"]) if match["venue"] else []
    if words and "".join(words).islower():
        words = [VENUE_SPELLINGS.get(word, word.upper()) for word in words]
    return " ".join(words) or None, int(match["year"])


def file_name(path: str) -> str:
    return re.split(r"[/\\]", path)[-1]  # seeds/x.json, or seeds\x.json as Windows writes it


# --- Formats: text -> rows ---------------------------------------------------------------------

class Pairs(dict):
    """A JSON object with its (key, value) pairs as written: a key given twice is seen, as CSV's and BibTeX's are."""

    def __init__(self, pairs: list[tuple[str, Any]]) -> None:
        super().__init__(pairs)
        self.pairs = tuple(pairs)


@dataclass(frozen=True)
class LongNumber:
    """A JSON number of more digits than any field needs: kept as its length, never converted."""

    digits: int

    def __repr__(self) -> str:
        return f"<a number of {self.digits} digits>"


def bounded_int(digits: str) -> int | LongNumber:
    return int(digits) if len(digits) <= MAX_NUMBER_DIGITS else LongNumber(len(digits))


def decode_json(text: str) -> Any:
    """json.loads with each object's pairs kept and numbers bounded; JSONDecodeError, or
    RecursionError for nesting deeper than Python's JSON reader goes."""
    return json.loads(text, object_pairs_hook=Pairs, parse_int=bounded_int)


def parse_jsonl_rows(text: str, path: str, problems: list[Problem]) -> Iterator[Row]:
    """One JSON object a line; blank lines are skipped, a line that is not JSON is reported and skipped."""
    number = 0
    for line_number, line in enumerate(split_lines(text), 1):
        if not line.strip():
            continue
        number += 1
        try:
            value = decode_json(line)
        except json.JSONDecodeError as error:
            problems.append(Problem(Source(path, line_number),
                                    f"not valid JSON ({error.msg}, column {error.colno}); this line is skipped"))
            continue
        except RecursionError:
            problems.append(Problem(Source(path, line_number), f"{TOO_DEEP}; this line is skipped"))
            continue
        yield from rows_of_objects([value], path, problems, first=number)


def parse_json_rows(text: str, path: str, problems: list[Problem]) -> Iterator[Row]:
    """A list of objects; or one object holding that list under a key of JSON_LIST_KEYS; or one
    object that is itself a record; or JSON Lines saved as .json (one object a line)."""
    try:
        value = decode_json(text)
    except RecursionError:
        problems.append(Problem(Source(path), f"{TOO_DEEP}; nothing in this file was read"))
        return
    except json.JSONDecodeError as error:
        if error.msg == "Extra data" and text.lstrip().startswith("{"):
            yield from parse_jsonl_rows(text, path, problems)
            return
        problems.append(Problem(Source(path, error.lineno),
                                f"not valid JSON ({error.msg}, column {error.colno}); nothing in this file was read"))
        return
    if isinstance(value, dict):
        listed = next((item for key, item in value.items()
                       if key.lower() in JSON_LIST_KEYS and isinstance(item, list)), None)
        if listed is not None:
            value = listed
        elif any(normalize_name(key) in FIELD_NAMES for key in value):
            value = [value]
        else:
            keys = ", ".join(f"'{key}'" for key in JSON_LIST_KEYS)
            problems.append(Problem(Source(path), f"a JSON object that is not a record and holds no list of records "
                                                  f"under {keys}; nothing in this file was read"))
            return
    if not isinstance(value, list):
        problems.append(Problem(Source(path), f"a JSON {json_type(value)}, not a list of records; "
                                              "nothing in this file was read"))
        return
    yield from rows_of_objects(value, path, problems)


def rows_of_objects(values: Iterable[Any], path: str, problems: list[Problem], first: int = 1) -> Iterator[Row]:
    for number, value in enumerate(values, first):
        if isinstance(value, Pairs):
            yield Row(Source(path, record=number), value.pairs)
        else:
            problems.append(Problem(Source(path, record=number), f"a JSON {json_type(value)}, not an object; skipped"))


def json_type(value: Any) -> str:
    names = ((bool, "true or false"), (int, "number"), (float, "number"), (LongNumber, "number"), (str, "string"),
             (list, "list"), (dict, "object"))
    return next((name for kind, name in names if isinstance(value, kind)), "null")


def parse_csv_rows(text: str, path: str, problems: list[Problem]) -> Iterator[Row]:
    return parse_delimited_rows(text, path, problems, csv_delimiter(text))


def csv_delimiter(text: str) -> str:
    """',' or, when the header names more fields with it, ';': spreadsheets write ';' in the
    locales whose decimal mark is the comma."""
    return ";" if fields_named(text, ";") > fields_named(text, ",") else ","


def fields_named(text: str, delimiter: str) -> int:
    """How many cells of the first row, split at delimiter, name a known field (none in a row that is
    not CSV: parse_delimited_rows says what is wrong with it)."""
    try:  # read as parse_delimited_rows reads it, so that a line ended by a lone CR ends the row
        cells = next(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter), [])
    except csv.Error:
        return 0
    return sum(normalize_name(cell) in FIELD_NAMES for cell in cells)


def parse_tsv_rows(text: str, path: str, problems: list[Problem]) -> Iterator[Row]:
    return parse_delimited_rows(text, path, problems, "\t")


def parse_delimited_rows(text: str, path: str, problems: list[Problem], delimiter: str) -> Iterator[Row]:
    """A header row, then one record a row; a quoted cell may hold line breaks. Rows are named
    by the line they start on (the header is line 1)."""
    # strict: a quote left open would otherwise swallow the rest of the file into one cell
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    try:
        header = next(reader, None)
    except csv.Error as error:
        problems.append(Problem(Source(path, 1), f"the header row is not valid CSV ({error}); nothing was read"))
        return
    if header is None or not any(normalize_name(name) in FIELD_NAMES for name in header):
        known = ", ".join(sorted(set(FIELD_NAMES.values())))
        problems.append(Problem(Source(path, 1), f"the header row names none of the fields ({known}); "
                                                 "nothing in this file was read"))
        return
    start = reader.line_num + 1
    while True:
        try:
            cells = next(reader, None)
        except csv.Error as error:
            skipped = f"lines {start}-{reader.line_num} are" if reader.line_num > start else "this row is"
            problems.append(Problem(Source(path, start), f"not valid CSV ({error}); {skipped} skipped"))
            start = reader.line_num + 1
            continue
        if cells is None:
            return
        source, start = Source(path, start), reader.line_num + 1
        if not any(cell.strip() for cell in cells):
            continue
        if len(cells) > len(header):
            problems.append(Problem(source, f"{len(cells)} cells, but the header names {len(header)} columns; "
                                            "the cells beyond them are ignored"))
        yield Row(source, tuple(zip(header, cells)))


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
                authors = bibtex_authors(field.value)  # past MAX_NAMES, left out by names_of
                yield key, [latex_to_text(author) for author in authors[:MAX_NAMES]] + authors[MAX_NAMES:]
            elif name in ("title", "keywords", "venue"):
                yield key, latex_to_text(field.value)
            elif name == "abstract":
                yield key, without_outer_braces(field.value.strip())
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


# --- Rows -> Records -----------------------------------------------------------------------------

@functools.lru_cache(maxsize=1024)  # a file repeats its few names in every record
def normalize_name(name: str) -> str:
    """"Paper_Title " -> "paper title": lower case, `_` and `-` as spaces, spaces folded."""
    return " ".join(name.lower().replace("_", " ").replace("-", " ").split())


def record_from_row(row: Row, problems: list[Problem]) -> Record | None:
    """The row's Record, with a problem for each value left out; None (and a problem) when it has
    neither a title nor an abstract."""
    def note(message: str) -> None:
        problems.append(Problem(row.source, message))

    given: dict[str, tuple[str, Any]] = {}
    for key, value in row.fields:
        field = FIELD_NAMES.get(normalize_name(key))
        if field is None or value is None or value == "" or value == []:
            continue
        if field not in given:
            given[field] = (key, value)
        elif key == given[field][0]:
            note(f"'{printable(key)}' is given twice; the first is used")
        elif given[field][1] != value:
            note(f"'{printable(key)}' gives the {field} a second time; the first ('{printable(given[field][0])}') "
                 "is used")
    values = {field: checked_value(field, printable(key), value, note) for field, (key, value) in given.items()}
    values = {field: value for field, value in values.items() if value not in (None, "", ())}
    if not values.get("title") and not values.get("abstract"):
        note("no title and no abstract; skipped")
        return None
    return Record(row.source, values.pop("abstract", ""), **values)


def checked_value(field: str, key: str, value: Any, note: Note) -> Any:
    """The value as the Record holds it, or None after noting why it cannot be used."""
    if field in ("authors", "keywords"):
        return names_of(field, key, value, note)
    if field == "year":
        return year_of(key, value, note)
    if not isinstance(value, str):
        note(f"{key} is a {json_type(value)}, not text; left out")
        return None
    if field in LINK_FIELDS:
        if len(value) > MAX_ADDRESS_LENGTH:
            note(f"{key} is {len(value):,} characters long, longer than any address ({MAX_ADDRESS_LENGTH:,}); left out")
            return None
        return address_of(key, value, note)
    text, removed = clean_text(value)
    if removed:
        note(f"{key}: {invisible_removed(removed)}")
    return bounded_text(field, key, text, note)


def invisible_removed(count: int) -> str:
    return f"{count} invisible or direction-changing character{'s' if count != 1 else ''} removed"


def bounded_text(field: str, key: str, text: str, note: Note) -> str | None:
    """The text, cut at a word when longer than MAX_FIELD_LENGTH allows (a venue that long is left out)."""
    limit = MAX_FIELD_LENGTH.get(field)
    if limit is None or len(text) <= limit:
        return text
    if field == "venue":
        note(f"{key} is {len(text):,} characters long, longer than any venue's name ({limit:,}); left out")
        return None
    cut = text[:limit].rsplit(" ", 1)[0] if " " in text[:limit] else text[:limit]
    note(f"{key} is {len(text):,} characters long; only its first {len(cut):,} are kept (at most {limit:,})")
    return cut


def names_of(field: str, key: str, value: Any, note: Note) -> tuple[str, ...]:
    """Authors or keywords: a list of strings, or one string split (split_authors, split_keywords);
    at most MAX_NAMES of them, each at most MAX_NAME_LENGTH characters long."""
    if isinstance(value, str):
        given = split_authors(value) if field == "authors" else split_keywords(value)
    elif isinstance(value, list):
        given = value
    else:
        note(f"{key} is a {json_type(value)}, not a list or text; left out")
        return ()
    if len(given) > MAX_NAMES:
        note(f"{key} lists {len(given):,} names, more than any paper has; only the first {MAX_NAMES:,} are kept")
    items = [text for text in map(named, given[:MAX_NAMES]) if text is not None]
    if len(items) < len(given[:MAX_NAMES]):
        note(f"{key}: {len(given[:MAX_NAMES]) - len(items)} of the {len(given)} items are not text; left out")
    names, removed, too_long = [], 0, 0
    for item in items:
        text, invisible = clean_text(item)
        removed += invisible
        if len(text) > MAX_NAME_LENGTH:
            too_long += 1
        elif text:
            names.append(text)
    if removed:
        note(f"{key}: {invisible_removed(removed)}")
    if too_long:
        note(f"{key}: {too_long} item{'s' if too_long != 1 else ''} longer than {MAX_NAME_LENGTH} characters, "
             "which no name is; left out")
    return tuple(dict.fromkeys(names))


def named(item: Any) -> str | None:
    """An item of a list of names: a text, or an object's text `name` (as Semantic Scholar and
    OpenReview export authors: {"authorId": ..., "name": "Ada Lovelace"}); None for anything else."""
    if isinstance(item, dict):
        item = item.get("name")
    return item if isinstance(item, str) else None


def split_authors(text: str) -> list[str]:
    """One string of authors: split on ";" when it has one, else on "and" ("A, B, and C" too).

    Within a part, one comma is "Last, First" ("Smith, John" -> "John Smith"), unless the words
    on both sides are full names ("Ada Lovelace, Alan Turing"); two or more commas separate names.
    """
    parts = text.split(";") if ";" in text else re.split(r",?\s+and\s+", text)
    names = []
    for part in parts:
        pieces = [piece.strip() for piece in part.strip().strip(",").split(",")]
        if len(pieces) == 2 and not all(len(piece.split()) > 1 for piece in pieces):
            names.append(f"{pieces[1]} {pieces[0]}".strip())
        else:
            names.extend(pieces)
    return names


def split_keywords(text: str) -> list[str]:
    return text.split(";") if ";" in text else text.split(",")


def year_of(key: str, value: Any, note: Note) -> int | None:
    if isinstance(value, str) and YEAR_TEXT.fullmatch(value.strip()):
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and FIRST_YEAR <= value <= LAST_YEAR:
        return value
    note(f"{key} {shown(value)} is not a year between {FIRST_YEAR} and {LAST_YEAR}; left out")
    return None


def address_of(key: str, value: str, note: Note) -> str | None:
    """An http(s) address; a Markdown link gives the address it points to, an address written
    without its scheme (github.com/a/b) is https, and of several addresses the first is taken."""
    text = value.strip()
    if ADDRESS.fullmatch(text):
        return text
    if linked := MARKDOWN_LINK.search(text):
        return linked[1]
    if BARE_HOST.fullmatch(text):
        return "https://" + text
    first = ADDRESS.match(text)
    if first and re.fullmatch(rf"(?:\s*[;,]?\s*{ADDRESS.pattern})+\s*", text, re.IGNORECASE):
        note(f"{key} gives several addresses; the first is used")
        return first[0].rstrip(";,")
    note(f"{key} {shown(value)} is not an http(s) address; left out")
    return None


def clean_text(text: str) -> tuple[str, int]:
    """(text stripped, control characters removed, each run of white space (line breaks too) one
    space; how many invisible or direction-changing characters were removed, see text.without_invisible)."""
    if not text.isprintable():  # a cheap test that most texts pass
        text = replace_unsafe(text, "")
    text, removed = without_invisible(text)
    return " ".join(text.split()), removed


def shown(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return printable(text if len(text) <= limit else text[:limit - 1] + "…")
