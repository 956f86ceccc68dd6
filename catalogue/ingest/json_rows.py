"""JSON and JSON Lines -> rows: a list of objects, or one object a line. Each object keeps its
pairs as written (a key given twice is seen); numbers are bounded, and nesting past Python's
JSON reader is a note, not a crash."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from catalogue.ingest.rows import FIELD_NAMES, Row, normalize_name
from catalogue.model import Problem, Source
from catalogue.text import split_lines

# A JSON file may wrap its list of records in one object: {"papers": [...]}.
JSON_LIST_KEYS = ("papers", "records", "items")
MAX_NUMBER_DIGITS = 20  # more than any field needs; a longer number is never converted
TOO_DEEP = "nested deeper than any list of records is"


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
