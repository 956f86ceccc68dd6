"""Seed documents: a header line naming venue and year, then one abstract per paragraph."""

from __future__ import annotations

import re
from pathlib import Path

from catalogue.text import has_unsafe, replace_unsafe, split_lines, without_invisible
from catalogue.model import Paragraph, Problem, SeedDocument, Source
from catalogue.ingest.seed_files import decode_seed_bytes, replaced_bytes

# "ICML 2026 论文列表", "ICLR 2025 Accepted Papers", "NeurIPS'24": a venue, then a year.
HEADER = re.compile(r"^(?P<venue>[A-Za-z][A-Za-z0-9&+.\- ]*?)\s*(?:['’](?P<short_year>\d{2})|(?P<year>(?:19|20)\d{2}))\b")
# A header is one short line; anything longer is an abstract.
MAX_HEADER_LENGTH = 120


def parse_seed_document(text: str, path: str) -> SeedDocument:
    """Split a seed document into its header and its paragraphs (pure: no I/O)."""
    lines = split_lines(text.lstrip("\ufeff"))  # a file converted twice can start with two marks
    problems = [Problem(Source(path, number), "control characters were replaced by '\ufffd'")
                for number, line in enumerate(lines, 1) if has_unsafe(line)]
    visible = []
    for number, line in enumerate(lines, 1):
        line, removed = without_invisible(replace_unsafe(line))
        if removed:
            problems.append(Problem(Source(path, number), f"{removed} invisible or direction-changing "
                                                          f"character{'s' if removed != 1 else ''} removed"))
        visible.append(line)
    paragraphs = split_paragraphs(visible)
    if not paragraphs:  # an empty file lacks its header only as it lacks everything else: one note says it
        problems.append(Problem(Source(path, 1), "no abstracts in this file (it is empty)"))
        return SeedDocument(path, None, None, (), tuple(problems))
    venue = year = None
    if looks_like_header(paragraphs[0]):
        header = paragraphs.pop(0)
        venue, year = parse_header(header.text)
        if venue is None:
            problems.append(Problem(Source(path, header.line),
                                    f"header {header.text!r} names no venue and year; papers get an unknown venue"))
    else:
        problems.append(Problem(Source(path, 1), "no header line (such as 'ICML 2026 Accepted Papers'); "
                                                 "papers get an unknown venue"))
    if not paragraphs:
        problems.append(Problem(Source(path, 1), "no abstracts in this file"))
    return SeedDocument(path, venue, year, tuple(paragraphs), tuple(problems))


def read_seed_document(path: Path, display_path: str | None = None) -> SeedDocument:
    """Read a seed file the caller trusts (ingest opens them through seedfiles.read_seed_bytes)."""
    return parse_seed_bytes(path.read_bytes(), display_path or path.as_posix())


def parse_seed_bytes(data: bytes, path: str) -> SeedDocument:
    """A seed document from a file's bytes: one note and no paragraphs when they are not text;
    bytes that are not UTF-8 are replaced and reported by line."""
    decoded = decode_seed_bytes(data)
    if decoded.text is None:
        return SeedDocument(path, None, None, (), (Problem(Source(path), decoded.why_not),))
    document = parse_seed_document(decoded.text, path)
    if not decoded.replaced:
        return document
    return SeedDocument(document.path, document.venue, document.year, document.paragraphs,
                        replaced_bytes(decoded, path) + document.problems)


def split_paragraphs(text_lines: list[str]) -> list[Paragraph]:
    """Blank-line-separated paragraphs, each joined into one line, with its first line number."""
    paragraphs: list[Paragraph] = []
    lines: list[str] = []
    start = 0
    for number, raw in enumerate(text_lines, 1):
        line = raw.strip()
        if line:
            if not lines:
                start = number
            lines.append(line)
        elif lines:
            paragraphs.append(Paragraph(" ".join(lines), start))
            lines = []
    if lines:
        paragraphs.append(Paragraph(" ".join(lines), start))
    return paragraphs


def looks_like_header(paragraph: Paragraph) -> bool:
    return len(paragraph.text) <= MAX_HEADER_LENGTH and not paragraph.text.endswith((".", "?", "!"))


def parse_header(line: str) -> tuple[str | None, int | None]:
    """('ICML', 2026) from 'ICML 2026 论文列表'; (None, None) when no venue and year are named."""
    match = HEADER.match(line.strip())
    if not match:
        return None, None
    year = int(match["year"]) if match["year"] else 2000 + int(match["short_year"])  # NeurIPS'24
    return match["venue"].strip(), year
