"""An acronym and the words it stands for: the words before '(EEGNN)' that it abbreviates, found as
Schwartz and Hearst do (the shortest run of words that holds its letters in order, the first at the
start of a word), whether an expansion holds an acronym's letters in order, and an expansion's capitals
that only mark those letters undone ('REconstruction' -> 'Reconstruction').
"""

from __future__ import annotations

import re


def expansion_before(short: str, before: str) -> str | None:
    """The words before '(short)' that it abbreviates: their initials when they spell it ('edge enhanced graph
    neural network (EEGNN)'), else the shortest run that holds its letters, after Schwartz and Hearst (2003)."""
    letters = [c.lower() for c in re.sub(r"\$[^$]*\$", "", short) if c.isalpha()]  # C3AE: C, A, E
    if not letters:
        return None
    words = before.split()
    initials = words[-len(letters):]
    if len(initials) == len(letters) and [word[0].lower() for word in initials] == letters:
        return " ".join(initials)
    text = " ".join(words[-min(len(letters) + 5, 2 * len(letters)):])
    position = len(text) - 1
    for index in range(len(letters) - 1, -1, -1):
        while position >= 0 and (text[position].lower() != letters[index]
                                 or (index == 0 and position > 0 and text[position - 1].isalnum())):
            position -= 1
        if position < 0:
            return None
        position -= 1
    expansion = text[text.rfind(" ", 0, position + 1) + 1:]
    return expansion if short not in expansion.split() else None


def acronym_matches(acronym: str, expansion: str) -> bool:
    """True when the acronym's letters appear, in order, in the expansion, starting with its first word."""
    letters = [c.lower() for c in re.sub(r"\$[^$]*\$", "", acronym) if c.isalpha()]
    words = expansion.lower()
    if not letters or not words or words[0] != letters[0]:
        return False
    position = 0
    for letter in letters:
        position = words.find(letter, position)
        if position < 0:
            return False
        position += 1
    return True


_ACRONYM_CAPITALS = re.compile(r"[A-Z]{2}[a-z]{3,}")
_ONE_INNER_CAPITAL = re.compile(r"[a-z]+[A-Z][a-z]+")


def normalise_expansion(expansion: str) -> str:
    """Undo capitals that mark an acronym's letters: 'REconstruction' -> 'Reconstruction'."""
    words = []
    for word in expansion.split():
        if _ACRONYM_CAPITALS.fullmatch(word):
            word = word.capitalize()
        elif _ONE_INNER_CAPITAL.fullmatch(word):
            word = word.lower()
        words.append(word)
    return " ".join(words)
