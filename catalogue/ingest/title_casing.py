"""A title's casing: words capitalised, hyphen parts included, small words, acronyms and math kept as
written, and "a"/"an" agreeing with the sound of the word after them.
"""

from __future__ import annotations

import re

from catalogue.ingest.abstract_words import OPENERS, SMALL_WORDS, math_safe_split


def without_novel(phrase: list[str]) -> list[str]:
    """The phrase without 'novel' (an abstract's "a novel method" is a title's "A Method": titles seldom call
    themselves novel), nor the 'and' that joined it to another quality ('a novel and challenging task', 'a simple
    and novel method')."""
    kept: list[str] = []
    after_novel = False
    for word in phrase:
        lowered = word.lower()
        if lowered == "novel":
            if kept and kept[-1].lower() in {"and", "or"}:
                kept.pop()  # 'simple and novel'
            else:
                after_novel = True  # 'novel and challenging': the 'and' goes next
            continue
        if not (after_novel and lowered in {"and", "or"}):
            kept.append(word)
        after_novel = False
    return kept or phrase


def articles_agree(phrase: list[str]) -> list[str]:
    """'a' before a vowel sound is 'an' (an analysis, an LSTM), 'an' before a consonant sound is 'a'."""
    agreed = list(phrase)
    for index, word in enumerate(phrase[:-1]):
        if word.lower() in {"a", "an"}:
            vowel = _vowel_sound(phrase[index + 1])
            if vowel is not None:
                article = "an" if vowel else "a"
                agreed[index] = article.capitalize() if word[0].isupper() else article
    return agreed


_CONSONANT_SOUND = re.compile(r"u(?:ni|s[eu]|ti|biq|ra|re|ro|k)|eu|one\b|once\b", re.IGNORECASE)
_VOWEL_LETTERS = set("AEFHILMNORSX")


def _vowel_sound(word: str) -> bool | None:
    """Whether a word starts with a vowel sound; None when it cannot be told (math, a number)."""
    letters = word.lstrip(OPENERS)
    if not letters[:1].isalpha():
        return None
    if re.fullmatch(r"[A-Z]{2,}[\w]*", letters.split("-")[0]) and not re.fullmatch(r"[A-Z][a-z]+", letters):
        return letters[0] in _VOWEL_LETTERS  # an acronym is read letter by letter
    return letters[0].lower() in "aeiou" and not _CONSONANT_SOUND.match(letters)


def title_case(text: str | list[str]) -> str:
    """Capitalise words, hyphen parts included; keep small words, acronyms and math as written."""
    words = text if isinstance(text, list) else math_safe_split(text)
    out = []
    for index, word in enumerate(words):
        if "$" in word or "\\" in word:
            out.append(word)
            continue
        parts = word.split("-")
        cased = [part if n == 0 and len(parts) > 1 and _symbol(part)  # 'f-Divergences', as the abstract writes f
                 else _case_word(part, index > 0 and (n > 0 or len(parts) == 1)) for n, part in enumerate(parts)]
        out.append("-".join(cased))
    return " ".join(out)


def _latin(character: str) -> bool:
    """Latin letters (accents included) take a capital in a title; Greek ones are math symbols."""
    return character < "\u0250"


def _symbol(part: str) -> bool:
    """Whether the first part of a compound is a lone letter, a symbol of math ('f-divergences', 'k-means')."""
    return len(part) == 1 and part.isalpha()


def _case_word(word: str, small_allowed: bool) -> str:
    """Small words stay lower case, except as the first word or the first part of a compound."""
    if not word or any(map(str.isupper, word[1:])) or any(map(str.isdigit, word)) or not _latin(word[0]):
        return word  # an acronym, a coined name, a number or a Greek letter ('α-Divergences'): as written
    if word.lower() in SMALL_WORDS and small_allowed:
        return word.lower()
    return word[0].upper() + word[1:]
