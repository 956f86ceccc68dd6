"""A seed file's bytes -> the records it lists, whatever its format.

A text list (.txt) gives one record per abstract, with the venue and year of its header; a
structured list (JSON, CSV, BibTeX: see structured_lists.py) gives each record's own fields. Either way
every problem is a note naming the file and the line or record. An abstract or a title the list wraps
as a whole in quote marks comes without them (quotes.py).
"""

from __future__ import annotations

from dataclasses import replace

from catalogue.model import Problem, Record, Source
from catalogue.ingest.quotes import unquoted
from catalogue.ingest.structured_lists import STRUCTURED_EXTENSIONS, failure, parse_record_file
from catalogue.ingest.seed_files import decode_seed_bytes, replaced_bytes
from catalogue.ingest.text_lists import parse_seed_bytes


def parse_seed_records(data: bytes, path: str) -> tuple[list[Record], list[Problem]]:
    """The records of one seed file and what was wrong with it (pure: no I/O). Whatever goes wrong
    while reading it is this file's problem: a note, never a stop for the other files."""
    try:
        return read_records(data, path)
    except Exception as error:  # noqa: BLE001 - one file's failure is a note naming it
        return [], [Problem(Source(path), f"cannot be read ({failure(error)}); skipped")]


def read_records(data: bytes, path: str) -> tuple[list[Record], list[Problem]]:
    if path.lower().endswith(STRUCTURED_EXTENSIONS):
        decoded = decode_seed_bytes(data)
        if decoded.text is None:
            return [], [Problem(Source(path), decoded.why_not)]
        listed = parse_record_file(decoded.text, path)
        records = [replace(record, abstract=unquoted(record.abstract), title=record.title and unquoted(record.title))
                   for record in listed.records]
        return records, [*replaced_bytes(decoded, path), *listed.problems]
    document = parse_seed_bytes(data, path)
    records = [Record(Source(path, paragraph.line), unquoted(paragraph.text), venue=document.venue, year=document.year)
               for paragraph in document.paragraphs]
    return records, list(document.problems)
