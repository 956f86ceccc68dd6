"""Tidy an abstract before it is stored: LaTeX commands a reader unescaped, whitespace, and
sentences pasted twice.

What was changed is returned as notes for the front matter, precise enough to undo: the
original is the cleaned text with the noted sentences put back (and the seed line keeps it).
"""

from __future__ import annotations

import re

from catalogue.markup.latex_text import is_latex_macro
from catalogue.text import split_sentences

# A backslash that a JSON or C reader took for an escape: "\\times" became a tab and "imes".
_UNESCAPED = {"\t": "t", "\b": "b", "\f": "f", "\r": "r"}
_UNESCAPED_MACRO = re.compile(r"([\t\b\f\r])([A-Za-z]++)")

# The notes, as the front matter keeps them (in English, whatever the site's language: pages say
# them in theirs, see read_note).
RESTORED_COMMANDS = "restored LaTeX commands whose backslash had become a control character"
COLLAPSED_WHITESPACE = "collapsed runs of whitespace"
REMOVED_REPEAT = "removed sentence {sentence}, an exact repeat of sentence {first}"
_REMOVED_REPEAT = re.compile(r"removed sentence (?P<sentence>\d+), an exact repeat of sentence (?P<first>\d+)")


def clean_abstract(text: str) -> tuple[str, tuple[str, ...]]:
    """(cleaned text, notes of what changed)."""
    notes = []
    restored = _UNESCAPED_MACRO.sub(_restore_macro, text)
    if restored != text:
        notes.append(RESTORED_COMMANDS)
    collapsed = " ".join(restored.split())
    if collapsed != restored:
        notes.append(COLLAPSED_WHITESPACE)
    sentences = split_sentences(collapsed)
    kept: list[str] = []
    first: dict[str, int] = {}  # each sentence's first number: a lookup, not a scan (hostile input has thousands)
    for number, sentence in enumerate(sentences, 1):
        if sentence in first and len(sentence.split()) >= 4:  # "Yes. Yes." is not worth a note
            notes.append(REMOVED_REPEAT.format(sentence=number, first=first[sentence]))
            continue
        first.setdefault(sentence, number)
        kept.append(sentence)
    if len(kept) == len(sentences):
        return collapsed, tuple(notes)
    return " ".join(kept), tuple(notes)


def _restore_macro(unescaped: re.Match) -> str:
    name = _UNESCAPED[unescaped[1]] + unescaped[2]
    return f"\\{name}" if is_latex_macro(name) else unescaped[0]


def restore_abstract(cleaned: str, notes: tuple[str, ...]) -> str:
    """The abstract before clean-up (up to whitespace), from the cleaned text and its notes."""
    sentences = split_sentences(cleaned)
    for note in notes:
        kind, values = read_note(note)
        if kind == REMOVED_REPEAT:
            sentences.insert(int(values["sentence"]) - 1, sentences[int(values["first"]) - 1])
    return " ".join(sentences)


def read_note(note: str) -> tuple[str | None, dict[str, str]]:
    """(which of the notes above, its values), or (None, {}) for a note written by hand."""
    if note in (RESTORED_COMMANDS, COLLAPSED_WHITESPACE):
        return note, {}
    repeat = _REMOVED_REPEAT.fullmatch(note)
    return (REMOVED_REPEAT, repeat.groupdict()) if repeat else (None, {})
