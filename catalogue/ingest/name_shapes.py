"""How a name is written: the one token a name is (letters, digits, hyphens, inline math), the shapes that
mark it as coined (EgoTSR, ASAP, C3AE; after a naming word also a plain word, Tessera), and the words a
text writes names as, to count a name's mentions and to look it up; a Contribution is a name found.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from dataclasses import dataclass


@dataclass(frozen=True)
class Contribution:
    name: str
    secondary: bool = False  # released alongside the work ("We release X, a toolkit"), not the work itself


# A name is one token: letters, digits, hyphens, inline math (LS$^2$MC-GDA).
_MATH = r"\$[^$\s]{1,12}\$"
NAME = rf"(?P<name>(?:[A-Za-z0-9]|{_MATH})(?:[A-Za-z0-9+\-.]|{_MATH})*(?:[A-Za-z0-9+]|{_MATH}))"
NAME_TOKEN = re.compile(NAME.replace("?P<name>", ""))
QUOTES = "\"'\u201c\u201d\u2018\u2019`"
NOT_NAMES = {"the", "this", "that", "our", "new", "a", "an", "large", "public", "standard", "synthetic", "real",
             "existing", "several", "each", "every", "these", "those", "its", "their", "it", "we", "in", "to",
             "for", "and", "first", "one", "two", "specifically", "here", "there", "then", "thus", "finally",
             "moreover", "furthermore", "however", "experiments", "results"}
_POSSESSIVE = re.compile(r"['\u2019]s\b")
_AROUND_WORDS = ".,;:!?()[]" + QUOTES


def written_words(text: str) -> list[str]:
    """Words as names are written: 'CNNs,' is 'CNNs', "FastGRNN's" is 'FastGRNN', 'CNN-based' is not 'CNN'."""
    if "'s" in text or "\u2019s" in text:
        text = _POSSESSIVE.sub("", text)
    return [word.strip(_AROUND_WORDS) for word in text.split()]


def mention_count(name: str, counts: Counter[str]) -> int:
    """How often the abstract writes a name (for a phrase, its rarest word: counted in one pass)."""
    return min(counts[word] for word in written_words(name)) if written_words(name) else 0


def word_set(words: list[str]) -> set[str]:
    """Words and pairs of neighbouring words, to look names up in."""
    return set(words) | {" ".join(pair) for pair in zip(words, words[1:])}


def marked_words(text: str) -> set[str]:
    """The words of a text that are not all lower case (a capital, a digit), as names are written:
    a quick look for the texts that may write a name."""
    return set(written_words(" ".join(word for word in text.split() if not word.islower())))


def mentions(text: str, name: str) -> bool:
    """Whether the text writes the name, in the singular or the plural."""
    return mentioned(name, word_set(written_words(text)))


def mentioned(name: str, words: set[str]) -> bool:
    """Whether a name is among words (a phrase: its pairs of words, where kept), in the singular or the plural
    ('CNNs' before 'a CNN architecture')."""
    parts = written_words(name)
    pairs = [" ".join(pair) for pair in zip(parts, parts[1:])]
    return all(part in words or f"{part}s" in words for part in pairs or parts)


@functools.lru_cache(maxsize=1 << 14)  # asked of the same words again and again
def is_coined(token: str) -> bool:
    """A name-like token that is not a qualifier ('GPU-friendly', 'Event-Aware') or a word whose capitals spell
    an acronym's letters ('TExt' of 'TExt Generation (TegTok)', 'eVENt' of 'LEgal eVENt (LEVEN)')."""
    return (is_name_like(token) and not is_qualifier(token) and token.count("$") % 2 == 0
            and len(re.findall(r"[A-Za-z]", re.sub(r"\$[^$]*\$", "", token))) >= 2
            and not re.fullmatch(r"[A-Z][a-z]+(?:-[A-Za-z][a-z]+)+|[A-Z]{2}[a-z]{3,}|[a-z]+[A-Z]{2,}[a-z]+", token))


def is_qualifier(word: str) -> bool:
    """'GPU-friendly', 'GAN-based': a word that qualifies a noun."""
    return re.search(r"-[a-z]{3,}$", word) is not None


@functools.lru_cache(maxsize=1 << 14)
def is_name_like(token: str) -> bool:
    """A coined name: mixed case (EgoTSR), several capitals (ASAP), or letters with digits."""
    letters = re.sub(r"\$[^$]*\$", "", token)
    capitals = sum(c.isupper() for c in letters)
    camel = re.search(r"[a-z][A-Z]", letters) is not None
    digits_and_letters = re.search(r"\d", letters) and re.search(r"[A-Za-z]", letters)
    math_and_letters = "$" in token and re.search(r"[A-Za-z]{2}", letters)  # $\alpha$-Balance, DPM-$\lambda$
    distinctive = capitals >= 2 or camel or bool(digits_and_letters) or bool(math_and_letters)
    quantity = re.fullmatch(r"[\d.,]+[KMBkmxD]", letters)  # '12K' samples, '10x', '3D': a number and its unit
    return (2 <= len(letters.strip("-")) <= 40 and distinctive and not quantity
            and not letters.endswith(("-based", "-like")))


@functools.lru_cache(maxsize=1 << 14)
def is_explicit_name(token: str) -> bool:
    """After 'named', 'we call ...' or 'Our framework, X,': also plain words (Tessera, snapshot-rs)."""
    plain_word = re.fullmatch(r"[A-Z][a-z]{2,}\+*|[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+", token) is not None
    return is_name_like(token) or (plain_word and token.lower() not in NOT_NAMES)
