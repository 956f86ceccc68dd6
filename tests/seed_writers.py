"""Real corpus records written out as the seed lists people hold: JSON lines, CSV, BibTeX.

Each writer is honest about its format: CSV quotes what needs quoting (the csv module), BibTeX
escapes what LaTeX reads specially outside math and refuses what it cannot carry as written.
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

SAMPLE = Path(__file__).resolve().parent / "data" / "corpus_sample.jsonl"


def sample_records() -> list[dict]:
    return [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]


def corpus_records(count: int) -> list[dict]:
    """The first `count` records of the sample that BibTeX can carry as written."""
    def carried(row: dict) -> bool:
        try:
            bibtex_verbatim(row["abstract"])
        except AssertionError:
            return False
        return True
    return [row for row in sample_records() if carried(row)][:count]


CORPUS_FIELDS = ("title", "abstract", "authors", "keywords", "venue", "year", "pdf", "site", "github", "project")


def write_jsonl(rows: list[dict]) -> str:
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


def write_csv(rows: list[dict]) -> str:
    """Authors and keywords joined by "; ". (A name that holds a comma between two full names, as
    one corpus record's "Martín Abadi, David G. Andersen" does, is read back as two names.)"""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CORPUS_FIELDS)
    for row in rows:
        writer.writerow(["; ".join(row[name]) if isinstance(row[name], list) else row[name] or ""
                         for name in CORPUS_FIELDS])
    return out.getvalue()


BIBTEX_ESCAPES = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "%": r"\%", "#": r"\#",
                  "_": r"\_", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


def bibtex_text(text: str) -> str:
    """Plain text as LaTeX that reads back as itself: specials escaped, the ligatures -- `` '' ?` !`
    broken with {}; $...$ spans are math, kept as written."""
    parts = re.split(r"(\$[^$]+\$)", text)
    for index in range(0, len(parts), 2):
        escaped = re.sub(r"[\\{}$&%#_~^]", lambda match: BIBTEX_ESCAPES[match[0]], parts[index])
        parts[index] = re.sub(r"(-(?=-)|`(?=`)|'(?=')|[?!](?=`))", r"\1{}", escaped)
    return "".join(parts)


def bibtex_verbatim(text: str) -> str:
    """A value bibtexparser keeps as written. BibTeX cannot carry one whose braces do not balance
    (a few corpus abstracts, such as one with `$\\{x$`) or that ends in a backslash: refused."""
    depth = 0
    for brace in re.findall(r"(?<!\\)[{}]", text):
        depth += 1 if brace == "{" else -1
        assert depth >= 0, f"BibTeX cannot carry this as written: {text!r}"
    assert depth == 0 and not text.endswith("\\"), f"BibTeX cannot carry this as written: {text!r}"
    return text


def write_bibtex(rows: list[dict]) -> str:
    entries = []
    for number, row in enumerate(rows):
        authors = " and ".join(f"{{{bibtex_text(name)}}}" if re.search(r",|\sand\s", name) else bibtex_text(name)
                               for name in row["authors"])
        fields = {"title": bibtex_text(row["title"]), "author": authors, "abstract": bibtex_verbatim(row["abstract"]),
                  "keywords": "; ".join(map(bibtex_text, row["keywords"])),
                  "booktitle": bibtex_text(row["venue"]), "year": str(row["year"])}
        fields |= {name: bibtex_verbatim(row[key]) for name, key in
                   (("pdf", "pdf"), ("url", "site"), ("code", "github"), ("project", "project")) if row[key]}
        entries.append(f"@inproceedings{{paper{number},\n"
                       + "".join(f"  {name} = {{{value}}},\n" for name, value in fields.items() if value) + "}\n")
    return "\n".join(entries)
