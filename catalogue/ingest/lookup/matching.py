"""When a candidate found by the service is this paper: its abstract, rebuilt, says the same words
in the same order as the paper's.

The rule: both abstracts folded into words (catalogue.text.words: lower case, plurals folded; HTML
tags and LaTeX commands left out), then difflib's ratio over the two word lists, 2 * (words in
matching runs) / (words in both), at least SAME_PAPER. Measured on real abstracts (bench/lookup_match.py; the figures are in
bench/README.md): the abstract as the service gives it back, and most other versions of it, score
above the threshold; papers on the same topic score below it, but for a work's own other forms
(an extended version, a series' prefaces).
"""

from __future__ import annotations

import difflib
import re

from catalogue.text import words

SAME_PAPER = 0.75
# What a rebuilt abstract carries that the paper's does not: HTML tags and LaTeX commands, whose
# names would read as words.
MARKUP = re.compile(r"<[^>]{1,80}>|\\[a-zA-Z]+")


def abstract_words(text: str) -> list[str]:
    return words(MARKUP.sub(" ", text))


def similarity(ours: list[str], theirs: list[str]) -> float:
    """difflib's ratio over two word lists (0: nothing shared, 1: the same words in the same order)."""
    if not ours or not theirs:
        return 0.0
    return difflib.SequenceMatcher(None, ours, theirs, autojunk=False).ratio()


def same_paper(ours: list[str], theirs: list[str]) -> bool:
    return similarity(ours, theirs) >= SAME_PAPER
