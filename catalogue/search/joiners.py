"""Joiners: the marks between words that Pagefind keeps inside one word.

Pagefind splits a word at ASCII punctuation only ("low-rank" is indexed as low, rank and lowrank),
so "symmetry—e.g." or "Kullback–Leibler" would be one word no one types; words() splits at every
mark. On a paper page each such joiner is wrapped in an element Pagefind ignores, which names
the text Pagefind indexes in its place (data-pagefind-index-attrs): the reader's text, copied
or read aloud, stays as written. A dash that joins two words is indexed as an ASCII hyphen
inside its word, as if the author had typed "Kullback-Leibler"; any other joiner (an em dash,
an arrow, an ellipsis) is indexed as itself between spaces, so that excerpts still show it.
"""

from __future__ import annotations

import re
import unicodedata

from catalogue.text import CJK_RUN

JOINER_CATEGORIES = frozenset({"Pd", "Ps", "Pe", "Po", "Sm"})  # dashes, brackets, other punctuation, math symbols
CLAUSE_DASHES = frozenset("\u2014\u2015\u2e3a\u2e3b\ufe31\ufe58")  # em dashes (of any length), the quotation dash
# What the scan steps over whole (math, tags) or looks at (a character beyond ASCII).
_JOINER_SCAN = re.compile(r"<math\b.*?</math>|<[^>]*>|[^\x00-\x7f]", re.DOTALL | re.IGNORECASE)
_PARAGRAPH_EDGE = re.compile(r"</?(?:p|br)\b[^>]*>", re.IGNORECASE)  # Pagefind ends a word there, not at <em>
_INDEXED_AS = ('<span data-pagefind-ignore data-pagefind-index-attrs="data-indexed" '
               'data-indexed="{indexed} ">{visible}</span>')  # the space: Pagefind adds a full stop after a letter


def is_joiner(char: str) -> bool:
    """Whether Pagefind keeps `char` inside a word though it parts words: punctuation or a math
    symbol beyond ASCII. Quotation marks are not joiners ("model’s" is one word)."""
    return not char.isascii() and unicodedata.category(char) in JOINER_CATEGORIES


def is_joining_dash(char: str) -> bool:
    """A hyphen or a dash that joins words (an en dash: Kullback–Leibler), not one that sets off a clause."""
    return unicodedata.category(char) == "Pd" and char not in CLAUSE_DASHES


def joins_words(text: str, at: int) -> bool:
    """Whether text[at] is a joiner with no space on either side, outside Chinese, Japanese and
    Korean text (whose words Pagefind's segmenter cuts)."""
    if not (0 < at < len(text) - 1 and is_joiner(text[at])):
        return False
    return not any(side.isspace() or CJK_RUN.match(side) for side in (text[at - 1], text[at + 1]))


def mark_joiners(html_text: str) -> str:
    """Safe HTML with every joiner outside tags and math marked for Pagefind (see above)."""
    parts, done, at = [], 0, 0
    while found := _JOINER_SCAN.search(html_text, at):
        at = found.end()
        if len(found[0]) > 1 or not joins_words(html_text, found.start()):
            continue
        start, end = word_around(html_text, found.start())
        parts += [html_text[done:start], mark_word(html_text, start, end)]
        done = at = end
    return "".join(parts) + html_text[done:]


def word_around(text: str, at: int) -> tuple[int, int]:
    """Where the run of text around text[at] between spaces and tags starts and ends."""
    start, end = at, at + 1
    while start > 0 and not (text[start - 1].isspace() or text[start - 1] in "<>"):
        start -= 1
    while end < len(text) and not (text[end].isspace() or text[end] in "<>"):
        end += 1
    return start, end


def mark_word(text: str, start: int, end: int) -> str:
    """text[start:end], a word with joiners, as the reader sees it and as Pagefind indexes it: one
    element for the whole word when a dash joins it and it stands alone (so that Pagefind indexes
    it joined too), else one element per joiner."""
    word = text[start:end]
    joiners = {at - start for at in range(start, end) if joins_words(text, at)}
    if any(is_joining_dash(word[at]) for at in joiners) and stands_alone(text, start, end):
        indexed = "".join(("-" if is_joining_dash(char) else f" {char} ") if at in joiners else char
                          for at, char in enumerate(word))
        return _INDEXED_AS.format(indexed=indexed.replace('"', "&quot;"), visible=word)
    return "".join(_INDEXED_AS.format(indexed=char, visible=char) if at in joiners else char
                   for at, char in enumerate(word))


def stands_alone(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] has a space, a paragraph edge or nothing on each side: no inline tag
    whose text Pagefind would read as part of the same word."""
    before = start == 0 or text[start - 1].isspace() or (
        text[start - 1] == ">" and _PARAGRAPH_EDGE.fullmatch(text, text.rfind("<", 0, start), start) is not None)
    after = end == len(text) or text[end].isspace() or _PARAGRAPH_EDGE.match(text, end) is not None
    return before and after
