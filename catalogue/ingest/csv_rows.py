"""CSV and TSV -> rows: a header row naming the fields, then one record a row."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator

from catalogue.ingest.rows import FIELD_NAMES, Row, normalize_name
from catalogue.model import Problem, Source


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
