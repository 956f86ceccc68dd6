"""Tidy an abstract before it is stored: LaTeX commands a reader unescaped, whitespace, and
sentences pasted twice.

What was changed is returned as notes for the front matter, precise enough to undo: the
original is the cleaned text with the noted sentences put back (and the seed line keeps it).
"""

from __future__ import annotations

import re

from catalogue.ingest.extract import split_sentences
from catalogue.markup.convert import is_latex_macro

# A backslash that a JSON or C reader took for an escape: "\\times" became a tab and "imes".
_UNESCAPED = {"\t": "t", "\b": "b", "\f": "f", "\r": "r"}
_UNESCAPED_MACRO = re.compile(r"([\t\b\f\r])([A-Za-z]++)")


def clean_abstract(text: str) -> tuple[str, tuple[str, ...]]:
    """(cleaned text, notes of what changed)."""
    notes = []
    restored = _UNESCAPED_MACRO.sub(_restore_macro, text)
    if restored != text:
        notes.append("restored LaTeX commands whose backslash had become a control character")
    collapsed = " ".join(restored.split())
    if collapsed != restored:
        notes.append("collapsed runs of whitespace")
    sentences = split_sentences(collapsed)
    kept: list[str] = []
    first: dict[str, int] = {}  # each sentence's first number: a lookup, not a scan (hostile input has thousands)
    for number, sentence in enumerate(sentences, 1):
        if sentence in first and len(sentence.split()) >= 4:  # "Yes. Yes." is not worth a note
            notes.append(f"removed sentence {number}, an exact repeat of sentence {first[sentence]}")
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
        match = re.fullmatch(r"removed sentence (\d+), an exact repeat of sentence (\d+)", note)
        if match:
            sentences.insert(int(match[1]) - 1, sentences[int(match[2]) - 1])
    return " ".join(sentences)
