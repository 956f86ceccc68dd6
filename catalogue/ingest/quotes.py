"""Abstracts a list wraps as a whole in quote marks ('"We present ..."', as ECCV's list gives 1,642
of them), unwrapped: only when the first and last characters are a matching pair and every quote
mark inside is balanced, so that a text that merely starts and ends with a quotation keeps it."""

from __future__ import annotations

import re

# Quote marks that open and close alike ('"') and pairs of their own (“ ”, « », 「 」). Single
# quotes are left alone: an apostrophe inside cannot be told from an unbalanced quote.
PAIRS = {'"': '"', "\u201c": "\u201d", "\u00ab": "\u00bb", "\u300c": "\u300d", "\u300e": "\u300f"}
WORD_CHARACTER = re.compile(r"[^\W_]")


def unquoted(text: str) -> str:
    """The text without the quote marks around it all, when they enclose it as one quotation."""
    stripped = text.strip()
    if len(stripped) < 3 or PAIRS.get(stripped[0]) != stripped[-1]:
        return text
    inner = stripped[1:-1]
    return inner.strip() if balanced(inner) else text


def balanced(inner: str) -> bool:
    """Whether every quote mark of the text opens and closes a quotation inside it: a pair's marks
    nest; a mark that opens and closes alike opens at the start of a word and closes at its end."""
    depth: list[str] = []
    for at, character in enumerate(inner):
        if character in PAIRS and PAIRS[character] != character:
            depth.append(PAIRS[character])
        elif character in PAIRS.values() and PAIRS.get(character) != character:
            if not depth or depth.pop() != character:
                return False
        elif character in PAIRS:  # '"', which opens and closes alike
            before = inner[at - 1] if at else " "
            after = inner[at + 1] if at + 1 < len(inner) else " "
            if depth and depth[-1] == character and not WORD_CHARACTER.match(after):
                depth.pop()
            elif not WORD_CHARACTER.match(before) and (WORD_CHARACTER.match(after) or after in PAIRS):
                depth.append(character)
            else:
                return False
    return not depth
