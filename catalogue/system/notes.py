"""Notes for the terminal: one line each, characters a terminal would act on escaped, and at
most NOTES_PER_KIND of one kind about one file (a binary file or a pasted spreadsheet would
otherwise print thousands)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import PurePosixPath

from catalogue.text import printable
from catalogue.model import Problem

NOTES_PER_KIND = 10
# What varies between notes of one kind: numbers (line numbers too) and quoted text.
_VARYING = re.compile(r"'[^']*'|\"[^\"]*\"|\d+")


def note_kind(problem: Problem) -> tuple[str, str]:
    """(where, what): notes on lines are grouped by file; notes on whole files by folder."""
    where = problem.source.path if problem.source.line else str(PurePosixPath(problem.source.path).parent)
    return where, _VARYING.sub("#", problem.message)


def note_lines(problems: Iterable[Problem]) -> Iterator[str]:
    """Each problem as `path:line: message`, the first NOTES_PER_KIND of each kind, then how many more."""
    problems = list(problems)
    counts: dict[tuple[str, str], int] = {}
    for problem in problems:
        counts[note_kind(problem)] = counts.get(note_kind(problem), 0) + 1
    shown: dict[tuple[str, str], int] = {}
    for problem in problems:
        kind = note_kind(problem)
        shown[kind] = shown.get(kind, 0) + 1
        if shown[kind] <= NOTES_PER_KIND:
            yield printable(str(problem))
        if shown[kind] == NOTES_PER_KIND and counts[kind] > NOTES_PER_KIND:
            yield f"{printable(kind[0])}: ... and {counts[kind] - NOTES_PER_KIND} more of this kind"
