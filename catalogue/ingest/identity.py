"""Which paper each record is: a new paper's id (a hash of its abstract, kept for life), stray
lines and repeats set aside, an abstract corrected in its seed file continuing its paper, and a
new paper's slug (chosen once, then the file's).
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from dataclasses import replace
from pathlib import Path


from catalogue.text import CJK_CHARACTERS
from catalogue.markup.convert import TextConverter
from catalogue.portable import portable_slug, text_slug
from catalogue.model import Paper, Problem, Record
from catalogue.ingest.state import value_hash

MAX_SLUG = 60
CJK = re.compile(f"[{CJK_CHARACTERS}]")  # each counts as a word
MIN_WORDS = 5  # fewer words than this is a stray line (a page number, a heading), not an abstract
MAX_TITLE_SLUG = 48
SAME_PAPER_SIMILARITY = 0.9  # see continue_identities
SLUG_STOPWORDS = ("a", "an", "the", "of", "for", "and", "or", "in", "on", "to", "with", "that", "this", "by",
                  "via", "from", "is", "are", "its", "their", "our")


def paper_id(abstract: str) -> str:
    """A new paper's id: the abstract's hash, whitespace aside (kept for life, whatever the abstract becomes)."""
    return hashlib.sha256(" ".join(abstract.split()).encode("utf-8")).hexdigest()[:12]


def record_id(record: Record) -> str:
    """A new paper's id: its abstract's, or for a record without one, its title's and authors'."""
    if record.abstract:
        return paper_id(record.abstract)
    return paper_id("\n".join(["title", record.title or "", *record.authors]))


def plan_papers(records: list[Record], problems: list[Problem]) -> dict[str, Record]:
    """Each record by its id, in seed order; short lines and repeats become notes. A record with a
    title keeps it when its abstract is too short to be one ('N/A'): it becomes a paper without one."""
    arrivals: dict[str, Record] = {}
    for record in records:
        words = len(record.abstract.split()) + len(CJK.findall(record.abstract))
        if record.abstract and words < MIN_WORDS:
            if not record.title:
                problems.append(Problem(record.source, f"too short to be an abstract ({words} words); skipped"))
                continue
            problems.append(Problem(record.source, f"the abstract is too short to be one ({words} words); the paper "
                                                   "is listed without it"))
            record = replace(record, abstract="")
        pid = record_id(record)
        if pid in arrivals:
            what = "abstract" if record.abstract else "title and authors, and no abstract,"
            problems.append(Problem(record.source, f"same {what} as {arrivals[pid].source}; listed once"))
            continue
        arrivals[pid] = record
    return arrivals


def continue_identities(arrivals: dict[str, Record], existing: dict[str, tuple[Path, Paper]],
                        state: dict, problems: list[Problem]) -> dict[str, str]:
    """{new id: id of the paper it continues} for abstracts corrected in their seed file.

    A new abstract (its id is in no content file) continues a paper that would otherwise leave
    the lists when both come from the same seed file and their words are alike: difflib's
    SequenceMatcher ratio (autojunk off) over the two lists of whitespace-separated words (the
    new paragraph as ingest tidies it, the paper's abstract in content/) is at least
    SAME_PAPER_SIMILARITY (see corrections.py). Best pairs first (ties by id), each paper and
    each abstract in at most one pair, so the result is the same in any seed order. The change
    is reported once: later runs find the new abstract in the paper's record.
    """
    from catalogue.ingest.corrections import alike_pairs
    from catalogue.markup.cleanup import clean_abstract
    leaving: dict[str, dict[str, list[str]]] = defaultdict(dict)  # by seed file
    for pid, (_, paper) in existing.items():
        if pid not in arrivals and paper.abstract:
            leaving[paper.source.path][pid] = paper.abstract.split()
    new: dict[str, dict[str, list[str]]] = defaultdict(dict)
    abstracts, taken = {}, set()
    for pid, record in arrivals.items():
        if pid not in existing and record.source.path in leaving and record.abstract:
            abstracts[pid], _ = clean_abstract(record.abstract)
            new[record.source.path][pid] = abstracts[pid].split()
    pairs = sorted((pair for path in new for pair in alike_pairs(new[path], leaving[path], SAME_PAPER_SIMILARITY)),
                   key=lambda pair: (-pair[0], pair[1], pair[2]))  # best first, then by id
    continued: dict[str, str] = {}
    for _, pid, old in pairs:
        if pid not in continued and old not in taken:
            continued[pid] = old
            taken.add(old)
            if state.get(old, {}).get("abstract") == value_hash(abstracts[pid]):
                continue  # paired and reported before
            problems.append(Problem(arrivals[pid].source, f"abstract changed slightly; kept as "
                                    f"paper {existing[old][1].slug} (id {old})"))
    return continued


def choose_slug(paper: Paper, pid: str, taken: set[str], markup: TextConverter) -> str:
    """A readable, unique slug: from the name when there is one, else from the title."""
    if paper.name:
        base = text_slug(markup.plain(paper.name), max_length=MAX_SLUG, word_boundary=True)
    else:  # the title's words without math and filler: "algorithm-finds-optimal-polytree-time"
        words = markup.plain(re.sub(r"\$[^$]*\$", " ", paper.title))
        base = text_slug(words, max_length=MAX_TITLE_SLUG, word_boundary=True, stopwords=SLUG_STOPWORDS)
    base = portable_slug(base, pid) if base else "paper"  # not a name Windows keeps for a device
    if base not in taken:
        return base
    # Papers sharing a name are told apart by their id; thousands of them can share its first six digits.
    return next(f"{base}-{pid[:length]}" for length in (6, 8, 10, 12) if f"{base}-{pid[:length]}" not in taken)
