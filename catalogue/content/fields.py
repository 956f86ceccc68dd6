"""The paper file's schema, declared once: each front-matter key in the order it is written, how
its value is written and read back (checked, naming the key), and whether ingest derives it.

The render, the parse, the list of known keys and ingest's derived fields (DERIVED_FIELDS) all
come from FIELDS; together with the abstract (BODY) it names every field of model.Paper.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime
from typing import Callable

from catalogue.text import UNSAFE
from catalogue.errors import ContentFileError, shown
from catalogue.portable import MAX_NAME, is_portable
from catalogue.model import Link, Source
from catalogue.content.cite_keys import KEY

# \A and \Z (not ^ and $, which allow a final line break): match, fullmatch and search alike test the whole value.
SLUG = re.compile(r"\A[a-z0-9]+(?:-[a-z0-9]+)*\Z")
# What a slug that names a published folder must be (portable.is_portable).
PORTABLE_SLUG = (f"lower-case letters, digits and single hyphens, at most {MAX_NAME} characters, and no name Windows "
                 "keeps for a device (con, nul, com1, ...)")
PAPER_ID = re.compile(r"\A[0-9a-f]{12}\Z")
WEB_ADDRESS = re.compile(r"\Ahttps?://[^\s<>\"/?#]+[^\s<>\"]*\Z", re.IGNORECASE)
DOI = re.compile(r"\A10\.\d{4,9}/\S+\Z")
WORK_ID = re.compile(r"\AW\d{1,15}\Z")
ISO_DATE = re.compile(r"\A\d{4}-\d{2}-\d{2}\Z")
SOURCE = re.compile(r"\A(\S(?:.*\S)?):(?:record (\d+)|(\d+))\Z")  # a seed file and its line or record; '.' stops at line breaks
# Characters no front-matter text may hold (HTML and XML forbid them, or they end a line), and
# those the abstract may not (it may span lines).
UNSAFE_IN_ABSTRACT = re.compile(f"{UNSAFE.pattern}|\x0c")
UNSAFE_IN_FIELD = re.compile(f"{UNSAFE_IN_ABSTRACT.pattern}|[\t\n\r\u2028\u2029]")


@dataclass(frozen=True)
class Field:
    """One front-matter key: how the file writes it and reads it back, and who writes it."""

    name: str  # the key, and the Paper field it holds
    read: Callable[[str, str, object], object]  # (file, key, YAML value) -> the field; ContentFileError if wrong
    write: Callable[[object], object] | None = None  # the field -> its YAML value; None: as it is
    # ingest writes it (given by the seed record or derived from it) on every ingest; else a person's (ingest
    # may write it once, as `added`, or add to it, as `old_slugs`, but never replaces what the file holds)
    derived: bool = False
    required: bool = False
    absent: object = None  # what a key the file leaves out reads as
    omitted: tuple = ()  # YAML values not written (each reads back as `absent`)


def no_control_characters(path: str, key, value) -> None:
    """Every text of the front matter is one line of printable characters: YAML escapes like
    "\\0" would otherwise carry NUL into pages, feeds and citations."""
    if isinstance(value, str):
        if not value.isprintable() and (bad := UNSAFE_IN_FIELD.search(value)):  # (isprintable: a fast first look)
            what = "a line break" if bad[0] in "\n\r\u2028\u2029" else f"a control character (U+{ord(bad[0]):04X})"
            raise ContentFileError(path, f"front-matter key {shown(str(key))} holds {what}; remove it")
    elif isinstance(value, dict):
        for inner_key, item in value.items():
            no_control_characters(path, key, inner_key)
            no_control_characters(path, key, item)
    elif isinstance(value, list):
        for item in value:
            no_control_characters(path, key, item)


def _check(path, key, value, kind, test=None, expected=""):
    wrong_bool = isinstance(value, bool) and kind is not bool  # YAML's yes/no are not numbers or text
    if not isinstance(value, kind) or wrong_bool or (test and not test(value)):
        wanted = expected or f"a {kind.__name__}"
        raise ContentFileError(path, f"front-matter key '{key}' must be {wanted}, not {shown(value)}")
    return value


def _optional(path, key, value, kind, test=None, expected=""):
    return None if value is None else _check(path, key, value, kind, test, expected)


def _text(path: str, key: str, value) -> str:
    """A text without spaces at its ends (which would make 'ICML ' a venue of its own)."""
    return _check(path, key, value, str, lambda v: v == v.strip() and v != "",
                  "non-empty text without spaces at its ends")


def _optional_text(path: str, key: str, value) -> str | None:
    return None if value is None else _text(path, key, value)


def _strings(path: str, key: str, value) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ContentFileError(path, f"front-matter key '{key}' must be a list of strings, like "
                                     f"{key}: [first, second], not {shown(value)}")
    return tuple(value)


def _texts(path: str, key: str, value) -> tuple[str, ...]:
    return tuple(_text(path, key, item) for item in _strings(path, key, value))


def _links(path: str, key: str, value) -> tuple[Link, ...]:
    if value is not None and not isinstance(value, list):
        raise ContentFileError(path, f"front-matter key 'links' must be a list of 'url' and 'label', not {shown(value)}")
    links = []
    for item in value or []:
        if (not isinstance(item, dict) or set(item) != {"url", "label"} or not isinstance(item["url"], str)
                or not WEB_ADDRESS.fullmatch(item["url"]) or not isinstance(item["label"], str)
                or item["label"] != item["label"].strip() or not item["label"]):
            raise ContentFileError(path, f"each of 'links' needs a 'url' (http or https) and a 'label', "
                                         f"not {shown(item)}")
        links.append(Link(item["url"], item["label"]))
    return tuple(links)


def _parse_source(path: str, key: str, value) -> Source:
    match = SOURCE.fullmatch(value) if isinstance(value, str) else None
    if not match:
        raise ContentFileError(path, f"front-matter key 'source' must be 'file:line' or 'file:record N', "
                                     f"not {shown(value)}")
    return Source(match[1], int(match[3] or 0), int(match[2] or 0))


def _date(path: str, key: str, value) -> str | None:
    """An ISO date, kept as its text ('2026-12-04'): YAML reads it unquoted as a date, quoted as text."""
    if value is None:
        return None
    if isinstance(value, date) and not isinstance(value, datetime):  # (a datetime is a date too)
        return value.isoformat()
    if isinstance(value, str) and ISO_DATE.fullmatch(value):
        try:
            return date.fromisoformat(value).isoformat()
        except ValueError:
            pass  # a day no month has ("2026-02-30"): said below
    raise ContentFileError(path, f"front-matter key '{key}' must be a date like 2026-12-04, not {shown(value)}")


def _date_value(text: str | None) -> date | None:
    """The date as YAML writes it unquoted (2026-12-04), as a person would."""
    return date.fromisoformat(text) if text else None


def _checked(kind: type, test: Callable | None, expected: str, optional: bool = False
             ) -> Callable[[str, str, object], object]:
    """A reader of one value of `kind` that passes `test` (or of none, when optional)."""
    check = _optional if optional else _check
    return lambda path, key, value: check(path, key, value, kind, test, expected)


def _each(read: Callable[[str, str, object], object]) -> Callable[[str, str, object], tuple]:
    """A reader of a list of strings, each read by `read`."""
    return lambda path, key, value: tuple(read(path, key, item) for item in _strings(path, key, value))


def _link_mappings(links: tuple[Link, ...]) -> list[dict[str, str]]:
    return [{"url": l.url, "label": l.label} for l in links]


EMPTY = ([], None)  # not written: an empty list, no value
_ADDRESS = _checked(str, WEB_ADDRESS.fullmatch, "an http(s) address", optional=True)
FIELDS = (
    Field("id", _checked(str, PAPER_ID.fullmatch, "12 lower-case hex digits"), required=True),
    Field("slug", _checked(str, is_portable, PORTABLE_SLUG), required=True),
    Field("name", _optional_text, derived=True),
    Field("other_names", _texts, list, derived=True, omitted=EMPTY),
    Field("title", _text, derived=True, required=True),
    Field("title_source", _checked(str, lambda v: v in ("derived", "given", "lookup", "edited"),
                                   "'derived', 'given', 'lookup' or 'edited'"), absent="derived"),
    Field("venue", _optional_text, derived=True),
    Field("year", _checked(int, lambda v: 0 < v < 10000, "a year like 2026", optional=True), derived=True),
    Field("published", _date, _date_value, derived=True, omitted=EMPTY),  # the venue's day, when the list gives it
    Field("topics", _each(_checked(str, SLUG.fullmatch, "a list of topic slugs")), list, derived=True),
    Field("links", _links, _link_mappings, derived=True, omitted=EMPTY),
    Field("benchmarks", _texts, list, derived=True, omitted=EMPTY),
    Field("results", _texts, list, derived=True, omitted=EMPTY),
    Field("authors", _texts, list, derived=True, omitted=EMPTY),
    Field("keywords", _texts, list, derived=True, omitted=EMPTY),
    Field("pdf", _ADDRESS, derived=True, omitted=EMPTY),
    Field("url", _ADDRESS, derived=True, omitted=EMPTY),
    # what the lookup service (OpenAlex) answered: the DOI, the work it found, the day it was asked
    Field("doi", _checked(str, DOI.fullmatch, "a DOI like 10.1000/xyz", optional=True), derived=True, omitted=EMPTY),
    Field("openalex", _checked(str, WORK_ID.fullmatch, "an OpenAlex work id like W2741809807", optional=True),
          derived=True, omitted=EMPTY),
    Field("looked_up", _date, _date_value, derived=True, omitted=EMPTY),
    Field("source", _parse_source, str, derived=True, required=True),
    # set once, when the paper first arrives (or, for a file from before this field, at its next ingest)
    Field("added", _date, _date_value, omitted=EMPTY),
    Field("cleaned", _texts, list, derived=True, omitted=EMPTY),
    Field("in_seeds", _checked(bool, None, "true or false"), absent=True,
          omitted=(True,)),  # written only to mark a paper gone from the seeds
    Field("old_slugs", _each(_checked(str, is_portable, f"a list of slugs, each of {PORTABLE_SLUG}")), list,
          omitted=EMPTY),
    # set once, as `added` is: a key cited in manuscripts never changes (cite_keys.py)
    Field("cite_key", _checked(str, KEY.fullmatch, "lower-case letters and digits", optional=True), omitted=EMPTY),
)
KEYS = tuple(field.name for field in FIELDS)  # in the order they are written
BODY = "abstract"  # the Paper field a content file holds after its front matter
# The fields ingest writes (from the seed record, or derived from it); any other is a person's alone.
DERIVED_FIELDS = (*(field.name for field in FIELDS if field.derived), BODY)
