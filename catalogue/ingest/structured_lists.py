"""Structured seed lists (JSON, JSON Lines, CSV, TSV, BibTeX) read into Records (pure: no I/O).

Every format is first read into rows of (field name as written, value) pairs; one shared step
then maps the names through FIELD_NAMES and checks the values, so the five formats agree on
what a title, an author list, a year or a link is. A record or value that cannot be used is
reported with its `file:record N` (`file:line` for CSV and TSV) and the rest is read.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date
from typing import Any
from urllib.parse import unquote, urlsplit

from catalogue.ingest.bibtex_rows import parse_bibtex_rows
from catalogue.ingest.csv_rows import parse_csv_rows, parse_tsv_rows
from catalogue.ingest.json_rows import json_type, parse_json_rows, parse_jsonl_rows
from catalogue.ingest.rows import FIELD_NAMES, MAX_NAMES, Row, normalize_name
from catalogue.text import printable, replace_unsafe, without_invisible
from catalogue.errors import shown as shown_error
from catalogue.model import Problem, Record, Source
from catalogue.content.fields import DOI, ISO_DATE

STRUCTURED_EXTENSIONS = (".jsonl", ".json", ".csv", ".tsv", ".bib")

LINK_FIELDS = ("pdf", "url", "code", "project")
FIRST_YEAR, LAST_YEAR = 1900, 2100
# Bounds no real list meets and a hostile one does (README, "Seed lists"): past them a value is cut
# or left out with a note, so no record costs more than a few pages' work (MAX_NAMES: authors or
# keywords of one record).
MAX_NAME_LENGTH = 300  # characters of one author or keyword
MAX_FIELD_LENGTH = {"title": 1000, "venue": 200, "abstract": 100_000}
MAX_ADDRESS_LENGTH = 2000
Note = Callable[[str], None]  # records a problem with the row being read

ADDRESS = re.compile(r"https?://[^\s<>\"\x00-\x1f\x7f-\x9f]+", re.IGNORECASE)
# Paper lists often give a link as Markdown ("[![github](icon.svg) owner/repo](https://github.com/...)").
MARKDOWN_LINK = re.compile(r"\]\((https?://[^\s()<>\"\x00-\x1f\x7f-\x9f]+)\)", re.IGNORECASE)
# An address written without its scheme, as spreadsheets often hold them: github.com/owner/repo, www.x.org.
BARE_HOST = re.compile(r"www\.[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}(?:/[^\s<>\"\x00-\x1f\x7f-\x9f]*)?"
                       r"|[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}/[^\s<>\"\x00-\x1f\x7f-\x9f]*", re.IGNORECASE)
YEAR_TEXT = re.compile(r"\d{4}")
# What lists write before a DOI: `doi:`, or the resolver's address (whose DOI is percent-encoded).
DOI_PREFIX = re.compile(r"\A(?:doi:\s*|(https?://(?:dx\.)?doi\.org/))", re.IGNORECASE)

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
    if venue and len(venue) > MAX_FIELD_LENGTH["venue"]:
        problems.append(Problem(Source(path), f"the file name's venue is longer than any venue's name "
                                              f"({MAX_FIELD_LENGTH['venue']} characters); not used"))
        venue = None
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
    return f"{type(error).__name__}: {shown_error(str(error))}" if str(error) else type(error).__name__


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



# --- Rows -> Records -----------------------------------------------------------------------------

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
    if field == "published":
        return date_of(key, value, note)
    if not isinstance(value, str):
        note(f"{key} is a {json_type(value)}, not text; left out")
        return None
    if field == "doi":
        return doi_of(key, value, note)
    if field in LINK_FIELDS:
        address = address_of(key, value, note)
        if address and len(address) > MAX_ADDRESS_LENGTH:
            note(f"{key} is longer than any address ({MAX_ADDRESS_LENGTH:,} characters); left out")
            return None
        return address
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


def date_of(key: str, value: Any, note: Note) -> str | None:
    """A day as an ISO date ('2026-07-12'), from that text (a time after it is dropped: the day is what a feed names)."""
    text = value.strip()[:10] if isinstance(value, str) else ""
    try:
        if ISO_DATE.fullmatch(text) and value.strip()[10:11] in ("", "T", " "):
            return date.fromisoformat(text).isoformat()
    except ValueError:  # a day that does not exist (2026-02-30)
        pass
    note(f"{key} {shown(value)} is not a date like 2026-07-12; left out")
    return None


def address_of(key: str, value: str, note: Note) -> str | None:
    """An http(s) address; a Markdown link gives the address it points to, an address written
    without its scheme (github.com/a/b) is https, and of several addresses the first is taken. Only
    one character more than MAX_ADDRESS_LENGTH is read, so that a hostile value costs no more."""
    text, address = value.strip()[:MAX_ADDRESS_LENGTH + 1], None
    if ADDRESS.fullmatch(text):
        address = text
    elif linked := MARKDOWN_LINK.search(text):
        address = linked[1]
    elif BARE_HOST.fullmatch(text):
        address = "https://" + text
    elif (first := ADDRESS.match(text)) and re.fullmatch(rf"(?:\s*[;,]?\s*{ADDRESS.pattern})+\s*", text,
                                                         re.IGNORECASE):
        note(f"{key} gives several addresses; the first is used")
        address = first[0].rstrip(";,")
    if (fault := address_fault(address or text)) is None:
        return address
    note(f"{key} {shown(value)} {fault}; left out")
    return None


def doi_of(key: str, value: str, note: Note) -> str | None:
    """A DOI as a content file holds it (fields.DOI: 10.1000/xyz, no spaces), from the DOI, `doi:10.1000/xyz`
    or its https://doi.org/ address; at most as long as an address."""
    text = value.strip()[:MAX_ADDRESS_LENGTH + 1]
    prefix = DOI_PREFIX.match(text)
    doi = text[prefix.end():] if prefix else text
    doi = unquote(doi) if prefix and prefix[1] else doi
    if len(doi) <= MAX_ADDRESS_LENGTH and DOI.fullmatch(doi) and doi.isprintable():
        return doi
    note(f"{key} {shown(value)} is not a DOI like 10.1000/xyz; left out")
    return None


def address_fault(text: str) -> str | None:
    """Why `text` is no http(s) address a page can link to, in words that are true of it; None when it is one.
    (Whatever ADDRESS does not match fails one of these checks: the scheme, its '//', a character no
    address holds unencoded, the host.)"""
    if not text:
        return "is blank"
    scheme = re.match(r"[a-z][a-z0-9+.-]+:", text, re.IGNORECASE)  # (one letter is a drive: C:\paper.pdf)
    if scheme and scheme[0].lower() not in ("http:", "https:"):
        return f"starts with {scheme[0]!r}, not http:// or https://"
    if scheme and not text[scheme.end():].startswith("//"):
        return f"has no '//' after {scheme[0]!r}"
    unwritten = re.search(r"[\s<>\"\x00-\x1f\x7f-\x9f]", text)
    if not scheme and not (unwritten and BARE_HOST.match(text)):  # (github.com/a/b c: an address but for the space)
        return "is not a web address: no http:// or https://, nor a host and path like github.com/a/b"
    if unwritten:
        return f"holds {character_named(unwritten[0], text)}, which no web address has"
    try:
        host = urlsplit(text).hostname
    except ValueError:  # an unclosed '[' (an IPv6 host written wrongly)
        host = None
    return None if host else f"names no host after '{scheme[0]}//'"


def character_named(character: str, text: str) -> str:
    """How a message names a character that no web address holds as it is (they are percent-encoded)."""
    if character == " ":
        return "spaces" if text.count(" ") > 1 else "a space"
    if character in "\r\n":
        return "a line break"
    if character in '<>"':
        return repr(character)
    kind = "white space" if character.isspace() else "a control character"
    return f"{kind} (U+{ord(character):04X})"


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
