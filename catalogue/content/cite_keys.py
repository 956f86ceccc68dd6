"""A paper's BibTeX key in the usual author-year-word form (krichene2014convergence): the first
author's family name folded to ASCII, the year, the title's first content word.

A key is cited in readers' manuscripts, so it must never change: ingest records it in the paper's
content file (`cite_key`) when the paper first arrives, as it does the slug, and never rewrites it.
A key another paper took first gets a suffix from the paper's own id (the key's letters, then the
id's first hex digits), so no later paper can change an earlier one's key. A content file without
a key (written by hand, or before keys were recorded) gets one at the next ingest, and until then
the same rule at build time (`citation_keys`)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from text_unidecode import unidecode

from catalogue.model import Paper

KEY = re.compile(r"[a-z0-9]{1,64}")  # what a recorded key may be: BibTeX and biblatex accept it anywhere
_MATH_OR_COMMAND = re.compile(r"\$[^$]*\$|\\\(.*?\\\)|\\[A-Za-z]+")
_WORDS = re.compile(r"[a-z0-9]+")
_PART_LETTERS = 20  # a family name or a word longer than this is cut: keys stay short
# Words a key skips for the title's first content word ("On the Convergence of ...": convergence).
FILLER = frozenset("""a an the on of in for to and with towards toward via from by at is are do does can how what
when why which who into as or be beyond""".split())
# Name endings that are not the family name ("Martin Luther King Jr.": king).
_NAME_SUFFIXES = frozenset("jr jr. sr sr. ii iii iv".split())


def _ascii_words(text: str) -> list[str]:
    return _WORDS.findall(unidecode(text).lower())


def family_name(author: str) -> str:
    """The family name as a key writes it: the last word of the name (less Jr., III), ASCII letters."""
    words = [word for word in author.split() if word.lower() not in _NAME_SUFFIXES] or author.split()
    return "".join(_ascii_words(words[-1]))[:_PART_LETTERS] if words else ""


def content_word(title: str) -> str:
    """The title's first word that is not filler, without formulas or commands, in ASCII."""
    words = _ascii_words(_MATH_OR_COMMAND.sub(" ", title))
    return next((word for word in words if word not in FILLER), words[0] if words else "")[:_PART_LETTERS]


def base_key(paper: Paper) -> str:
    """author-year-word; without authors word-year; `paper` when nothing is left."""
    family = family_name(paper.authors[0]) if paper.authors else ""
    year = str(paper.year) if paper.year else ""
    word = content_word(paper.title)
    return (f"{family}{year}{word}" if family else f"{word}{year}") or "paper"


def choose_key(paper: Paper, pid: str, taken: set[str]) -> str:
    """The paper's key: its base, or when another paper holds that, the base and its id's first digits."""
    base = base_key(paper)
    if base not in taken:
        return base
    return next((f"{base}{pid[:length]}" for length in (4, 6, 8, 12) if f"{base}{pid[:length]}" not in taken), pid)


def citation_keys(papers: Iterable[Paper]) -> dict[str, str]:
    """id -> key for every paper: its recorded key, else (in id order, after the recorded ones) one
    chosen as ingest would choose it."""
    papers = sorted(papers, key=lambda paper: paper.id)
    keys: dict[str, str] = {}
    taken: set[str] = set()
    for paper in papers:  # a key two files record (one copied by hand) stays with the first
        if paper.cite_key and paper.cite_key not in taken:
            keys[paper.id] = paper.cite_key
            taken.add(paper.cite_key)
    for paper in papers:
        if paper.id not in keys:
            keys[paper.id] = choose_key(paper, paper.id, taken)
            taken.add(keys[paper.id])
    return keys
