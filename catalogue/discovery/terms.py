"""A text's terms: its words and pairs of neighbouring words, folded as the offline search folds
them (lower case, plurals: `text.stem`), without stop words; Chinese and Japanese, which have no
spaces, count as overlapping pairs of characters. `phrases` gives them as written, `term_key`
what each counts as.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from catalogue.text import CJK_CHARACTERS, STOPWORDS, stem


def _english_stop_words() -> frozenset[str]:
    """scikit-learn's English stop words, read from their own module file: importing any part of
    scikit-learn imports most of it (and SciPy's statistics) first, which related papers need not
    wait for. Its t-SNE, k-means and SVD are imported only when a map is laid out (related.MAP_TOOLS)."""
    location = Path(importlib.util.find_spec("sklearn").origin).parent / "feature_extraction" / "_stop_words.py"
    spec = importlib.util.spec_from_file_location("sklearn_english_stop_words", location)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.ENGLISH_STOP_WORDS


ENGLISH_STOP_WORDS = _english_stop_words()

# The offline search's stop words; scikit-learn's English ones less those that name things
# ('system', 'computer', 'fire', ...); and what abstracts say whatever they are about, which
# would otherwise be what two unrelated papers "share".
STOPWORDS = STOPWORDS | (ENGLISH_STOP_WORDS - frozenset("""amount back bill bottom call computer
    detail empty fill fire front full interest keep mill move name part serious side system thick
    thin top""".split())) | frozenset("""ability able achieve address advance aim allow appear apply
    approach art based better capability capture case challenge challenging compare compared
    consistently critical current demonstrate develop different directly effective effectiveness
    emerge emerged enable enhance ensure establish evaluate evidence example exhibit existing
    experiment extensive extend fail finally find framework fundamental furthermore gain generally
    given goal highly important improve improved improvement improving include including increase
    increasingly introduce introducing issue key known lack large lead leading leverage leveraging
    limitation limited main make making method methodology moreover need notably obtain offer
    outperform outperforming overall perform performance powerful practical present previous
    previously principled problem promising propose proposed provide range real recent recently
    reduce reducing remain require research result reveal significant significantly simple
    specific specifically strong study substantial substantially suffer superior support task
    technique terms typically validate various way widely work yield
    我们 本文 提出 一种 通过 进行 以及 可以 这些 这种 其中 并且 然而 此外""".split())

HAS_CJK = re.compile(f"[{CJK_CHARACTERS}]")
_CJK_OR_NOT = re.compile(f"[{CJK_CHARACTERS}]+|[^{CJK_CHARACTERS}]+")
_HYPHEN = re.compile("[-\u2010\u2011]")
_TOKEN = re.compile(r"[^\W_]+(?:[-\u2010\u2011][^\W_]+)*|[^\w\s'\u2019]")  # a word, or a mark that ends a phrase
_PARTICLE = re.compile("[的了是在和与及或]")  # Chinese function characters: a pair with one is no term
_LINK = re.compile(r"(?:https?://|www\.)\S+|\S+@\S+")  # links and e-mail addresses: not words


def phrases(text: str) -> list[str]:
    """The terms of a text as written: each word, and each pair of neighbouring words.

    Stop words, numbers, one-letter words, links and e-mail addresses are left out, and so
    is 'state-of-the-art'. A stop word or a punctuation mark ends a phrase; the parts of a
    hyphenated word pair with their hyphen ('pre-training'). A run of Chinese or Japanese
    characters gives its overlapping pairs of characters.
    """
    return phrases_with(text, {})


def phrases_with(text: str, known: dict[str, str | tuple]) -> list[str]:
    """phrases(text), with `known` remembering what each token gave (tokens repeat a lot)."""
    found: list[str] = []
    add = found.append
    previous = ""  # the last word kept, if nothing has ended the phrase since
    if "://" in text or "www." in text or "@" in text:
        text = _LINK.sub(" . ", text)
    for token in _TOKEN.findall(text):
        word = known.get(token)
        if word is None:
            word = known[token] = _read_token(token)
        if word.__class__ is str:  # most tokens: one word, or '' for one left out
            if word:
                add(word)
                if previous:
                    add(previous + " " + word)
            previous = word
            continue
        joint = " "
        for part in word:  # the parts of a hyphenated word; a tuple is a run of CJK characters
            if part.__class__ is tuple:
                found += part
                part = ""
            elif part:
                add(part)
                if previous:
                    add(previous + joint + part)
            previous = part
            joint = "-"
    return found


def _read_token(token: str) -> str | tuple:
    """The word a token gives ('' for none); a tuple of them for a hyphenated word or one with
    CJK characters in it, where a run of those is a tuple of its pairs of characters."""
    if not token[0].isalnum() or token.lower() == "state-of-the-art":
        return ""
    parts: list[str | tuple[str, ...]] = []
    for word in _HYPHEN.split(token):
        for piece in _CJK_OR_NOT.findall(word) if HAS_CJK.search(word) else (word,):
            if HAS_CJK.match(piece):
                pairs = (piece[k:k + 2] for k in range(max(1, len(piece) - 1)))
                parts.append(tuple(pair for pair in pairs if pair not in STOPWORDS and not _PARTICLE.search(pair)))
                continue
            lower = piece.lower()
            kept = len(piece) > 1 and not lower.isdigit() and lower not in STOPWORDS and stem(lower) not in STOPWORDS
            parts.append(piece if kept else "")
    return parts[0] if len(parts) == 1 and isinstance(parts[0], str) else tuple(parts)


def term_key(phrase: str) -> tuple[str, ...]:
    """What a phrase counts as: its words in lower case with plurals folded, as search folds them."""
    return tuple(stem(word) for word in _HYPHEN.sub(" ", phrase.lower()).split(" "))
