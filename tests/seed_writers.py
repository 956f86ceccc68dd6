"""Real corpus records written out as the seed lists people hold: JSON lines, CSV, BibTeX.

Each writer is honest about its format: CSV quotes what needs quoting (csv module); BibTeX
escapes what LaTeX would read as markup outside math, braces each name (so "and" and commas in
it stay its own) and puts the abstract as written in braces. Records BibTeX cannot carry as
written (an abstract with unbalanced braces) are left out by corpus_records.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

SAMPLE = Path(__file__).resolve().parent / "data" / "corpus_sample.jsonl"
CSV_COLUMNS = ("title", "authors", "abstract", "keywords", "pdf", "github", "project", "site", "venue", "year")
# Outside math, what LaTeX would read as a command or a ligature, and how to write it as text.
LATEX_TEXT = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
              "#": r"\#", "_": r"\_", "%": r"\%", "&": r"\&", "`": "{`}", "'": "{'}"}
MATH = re.compile(r"(\$[^$]*\$)")  # kept as written: the site reads math itself


def corpus_records(count: int) -> list[dict]:
    """The first `count` records of tests/data/corpus_sample.jsonl that every format can carry."""
    records = []
    for line in SAMPLE.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if balanced(record["abstract"]) and balanced(record["title"]):
            records.append(record)
        if len(records) == count:
            break
    return records


def balanced(text: str) -> bool:
    depth = 0
    for match in re.finditer(r"(?<!\\)[{}]", text):
        depth += 1 if match[0] == "{" else -1
        if depth < 0:
            return False
    return depth == 0


def write_jsonl(records: list[dict], path: Path) -> None:
    path.write_text("".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records), encoding="utf-8")


def write_csv(records: list[dict], path: Path) -> None:
    with path.open("w", encoding="utf-8", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(CSV_COLUMNS)
        for record in records:
            writer.writerow([cell(record.get(column)) for column in CSV_COLUMNS])


def cell(value) -> str:
    if isinstance(value, list):
        return "; ".join(value)
    return "" if value is None else str(value)


def write_bibtex(records: list[dict], path: Path) -> None:
    path.write_text("\n".join(bibtex_entry(number, record) for number, record in enumerate(records, 1)),
                    encoding="utf-8")


def bibtex_entry(number: int, record: dict) -> str:
    fields = [("title", latex_text(record["title"])),
              ("author", " and ".join("{" + latex_text(name) + "}" for name in record["authors"])),
              ("booktitle", latex_text(record["venue"])), ("year", str(record["year"])),
              ("abstract", record["abstract"])]
    if record.get("keywords"):
        fields.append(("keywords", latex_text("; ".join(record["keywords"]))))
    fields += [(name, record[name]) for name in ("pdf", "github", "project") if record.get(name)]
    if record.get("site"):
        fields.append(("url", record["site"]))
    body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields)
    return f"@inproceedings{{paper{number},\n{body}\n}}\n"


def latex_text(text: str) -> str:
    """text as LaTeX that reads back as the same text: special characters escaped outside math,
    '--' kept apart (LaTeX would make it a dash)."""
    pieces = MATH.split(text)  # text, math, text, ...
    return "".join(piece if odd else "".join(LATEX_TEXT.get(c, c) for c in piece).replace("--", "-{}-")
                   for odd, piece in zip([False, True] * len(pieces), pieces))
