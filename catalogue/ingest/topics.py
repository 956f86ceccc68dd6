"""The topics a paper is about, from its derived title and abstract and the taxonomy's keywords.

A topic is right when the paper is about it, not when one of its words occurs once. So:
- a keyword (or the topic's label) counts where the text writes it as whole words, in any case,
  with a hyphen, a space or nothing between its words, in the plural ("-s", "-es", "-ies") and in
  British spelling ("optimisation");
- an acronym in brackets right after a keyword, ending with its words' initials ("deep
  reinforcement learning (DRL)", "optimal transport (OT)"), is that keyword where it recurs;
- at each word the longest keyword wins, so a phrase hides the words inside it: "doubly robust"
  is causal inference, not robustness, when the taxonomy lists it under causality;
- a phrase, or an acronym written in capitals (RL, LLMs), is stronger evidence than one word;
- a keyword repeated all along the abstract counts only REPEATS_COUNTED times, so one word does
  not drown the others; mentions in the derived title count again;
- up to TOPICS_ON_MIN_EVIDENCE topics with at least MIN_EVIDENCE (two mentions of a word, or one of a phrase) are
  kept, best first; a fourth only with STRONG_EVIDENCE, more than a third needs (a phrase and a word,
  or three mentions): the authors' keywords confirm such a fourth topic about as often as a third
  said only twice, while a fourth said only twice is rarely theirs; when no topic has MIN_EVIDENCE,
  the one with the most evidence; the fallback topic when no keyword occurs at all.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from catalogue.model import Topic

TOPICS_ON_MIN_EVIDENCE = 3  # the topics MIN_EVIDENCE keeps; one more needs STRONG_EVIDENCE
TITLE_WEIGHT = 1  # the title is derived from the abstract: its mentions count a second time
PHRASE_WEIGHT = 2  # a keyword of two or more words, against one of a single word
MIN_EVIDENCE = 2
STRONG_EVIDENCE = 3  # what a fourth topic needs
REPEATS_COUNTED = 2
_WORD = re.compile(r"[^\W_]+")


@dataclass(frozen=True)
class _Index:
    topics: dict[str, tuple[tuple[str, int], ...]]  # keyword with its words run together -> ((slug, weight), ...)
    forms: dict[str, str]  # the keyword and its plurals -> the keyword
    prefixes: frozenset[str]  # every start of the forms: where to stop reading on


def keyword_key(keyword: str) -> str:
    """A keyword with its words run together, lower-cased: "Auto-Encoder", "auto encoder" and
    "autoencoder" are one keyword."""
    return "".join(_WORD.findall(keyword.lower()))


@functools.lru_cache(maxsize=16)
def _keyword_index(taxonomy: tuple[Topic, ...]) -> _Index:
    """Each keyword and label of the taxonomy, its words run together ("auto-encoder" and
    "autoencoder" are then one keyword)."""
    topics: dict[str, dict[str, int]] = {}
    for topic in taxonomy:
        for keyword in (topic.label.lower(), *topic.keywords):
            words = _WORD.findall(keyword)
            if words:
                slugs = topics.setdefault(keyword_key(keyword), {})
                slugs[topic.slug] = max(PHRASE_WEIGHT if len(words) > 1 else 1, slugs.get(topic.slug, 0))
    forms = {form: key for key in topics for form in _word_family(key)} | {key: key for key in topics}
    prefixes = frozenset(form[:end] for form in forms for end in range(1, len(form) + 1))
    return _Index({key: tuple(slugs.items()) for key, slugs in topics.items()}, forms, prefixes)


def _plurals(word: str) -> tuple[str, ...]:
    return (word + "s", word + "es", word[:-1] + "ies") if word.endswith("y") else (word + "s", word + "es")


# American spellings and the British ones papers also write ("optimisation", "behaviour", "modelling").
_BRITISH = (("ization", "isation"), ("ize", "ise"), ("yze", "yse"), ("avior", "aviour"), ("eling", "elling"))


def _word_family(word: str) -> tuple[str, ...]:
    """The plurals of `word` and its British spelling with its plurals."""
    british = word
    for american, spelling in _BRITISH:
        british = british.replace(american, spelling)
    return _plurals(word) + ((british, *_plurals(british)) if british != word else ())


def keyword_evidence(text: str, taxonomy: tuple[Topic, ...], weight: int = 1) -> dict[str, int]:
    """Each topic's evidence in `text`: its keywords' mentions, each weighted, longest keyword first.
    An acronym the text defines after a keyword ("deep reinforcement learning (DRL)") is that
    keyword wherever it is written."""
    return _evidence(text, _keyword_index(taxonomy), weight)


def _evidence(text: str, index: _Index, weight: int) -> dict[str, int]:
    written = _WORD.findall(text)
    words = [word.lower() for word in written]  # (sooner than reading the lower-cased text again)
    prefixes, forms = index.prefixes, index.forms
    mentions: dict[tuple[str, bool], int] = {}  # (keyword with its words run together, as an acronym) -> times
    defined: dict[str, str] = {}  # acronym, lower-cased -> the keyword it stands for
    spans: list[tuple[int, int]] = []  # where each word is, found only when an acronym may follow a keyword
    start, count = 0, len(words)
    while start < count:
        joined, found, end = words[start], None, start
        while joined in prefixes:  # read on while the words run together still start a keyword
            if joined in forms:
                found = end + 1
            end += 1
            if end == count:
                break
            joined += words[end]
        if found is None:
            if defined and words[start] in defined and _is_acronym(written[start]):
                mention = (defined[words[start]], True)
                mentions[mention] = mentions.get(mention, 0) + 1
            start += 1
            continue
        keyword = forms["".join(words[start:found])]
        mention = (keyword, found == start + 1 and _is_acronym(written[start]))
        mentions[mention] = mentions.get(mention, 0) + 1
        if found - start > 1 and found < count and _is_acronym(written[found], longest=5):
            spans = spans or [match.span() for match in _WORD.finditer(text)]
            if _defines_acronym(text, spans, written, start, found):
                defined[words[found]] = keyword
                found += 1  # the acronym in brackets is the same mention
        start = found
    evidence: dict[str, int] = {}
    for (keyword, acronym), times in mentions.items():
        for slug, strength in index.topics[keyword]:
            strength = PHRASE_WEIGHT if acronym else strength
            evidence[slug] = evidence.get(slug, 0) + strength * weight * min(times, REPEATS_COUNTED)
    return evidence


def _defines_acronym(text: str, spans: list[tuple[int, int]], written: list[str], start: int, end: int) -> bool:
    """Whether the word after the keyword's words (start to end) is in brackets and ends with their
    initials: "deep reinforcement learning (DRL)", "optimal transport (OT)"."""
    if text[spans[end - 1][1]:spans[end][0]].strip() != "(":
        return False
    initials = "".join(word[0] for word in written[start:end]).lower()
    letters = written[end].lower()
    return letters.removesuffix("s").endswith(initials) or letters.endswith(initials)


def _is_acronym(word: str, longest: int = 4) -> bool:
    """RL, LLMs, GNNs: a short word in capitals stands for a phrase ("reinforcement learning")."""
    letters = word[:-1] if word.endswith("s") else word
    return 2 <= len(letters) <= longest and letters.isupper()


def rank_topics(title: str, abstract: str, taxonomy: tuple[Topic, ...], fallback: str) -> tuple[str, ...]:
    """One to four topics the paper is about, best first (the module's docstring says how)."""
    index = _keyword_index(taxonomy)  # (once: the taxonomy is hashed to find it)
    evidence = _evidence(abstract, index, 1)
    for slug, extra in _evidence(title, index, TITLE_WEIGHT).items():
        evidence[slug] = evidence.get(slug, 0) + extra
    order = {topic.slug: number for number, topic in enumerate(taxonomy)}
    ranked = sorted(evidence, key=lambda slug: (-evidence[slug], order[slug]))
    kept = [slug for slug in ranked[:TOPICS_ON_MIN_EVIDENCE] if evidence[slug] >= MIN_EVIDENCE]
    kept += [slug for slug in ranked[TOPICS_ON_MIN_EVIDENCE:TOPICS_ON_MIN_EVIDENCE + 1]
             if evidence[slug] >= STRONG_EVIDENCE]
    return tuple(kept or ranked[:1]) or (fallback,)
