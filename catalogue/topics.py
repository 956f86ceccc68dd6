"""The topics a paper is about, from its derived title and abstract and the taxonomy's keywords.

A keyword counts where the text writes it as whole words (lower case; a hyphen, a space or
nothing between its words; an optional plural "s"/"es"). At each word the longest keyword wins,
so a phrase hides the words inside it: "doubly robust" is causal inference, not robustness.
A phrase is stronger evidence than a single word, and the title (the contribution the abstract
introduces) more than the rest. A topic is kept when its evidence is near the best topic's,
and one passing mention of a single word is not enough.
"""

from __future__ import annotations

import functools
import re
from collections import Counter

from .model import Topic

MAX_TOPICS = 3
TITLE_WEIGHT = 1  # the title's mentions count on top of the abstract's (the title repeats the abstract)
PHRASE_WEIGHT = 2  # a keyword of two or more words, against one of a single word
MIN_EVIDENCE = 2  # one single-word mention in the abstract alone does not make a topic
NEAR_BEST = 6  # kept topics have at least 1/NEAR_BEST of the best topic's evidence
REPEATS_COUNTED = 2  # a word repeated all along the abstract does not drown the others
_WORD = re.compile(r"[^\W_]+")


@functools.lru_cache(maxsize=16)
def _keyword_index(taxonomy: tuple[Topic, ...]) -> tuple[dict[str, tuple[tuple[str, int], ...]], int]:
    """Each keyword (and label) with its words run together -> ((slug, weight), ...); the most words
    a keyword may be written in ("auto-encoder" is two words for the keyword "autoencoder")."""
    index: dict[str, dict[str, int]] = {}
    longest = 0
    for topic in taxonomy:
        for keyword in (topic.label.lower(), *topic.keywords):
            words = _WORD.findall(keyword)
            if words:
                slugs = index.setdefault("".join(words), {})
                slugs[topic.slug] = max(PHRASE_WEIGHT if len(words) > 1 else 1, slugs.get(topic.slug, 0))
                longest = max(longest, len(words) + 2)
    return {form: tuple(slugs.items()) for form, slugs in index.items()}, longest


def _singular(word: str) -> tuple[str, ...]:
    if word.endswith("es"):
        return (word, word[:-1], word[:-2])
    return (word, word[:-1]) if word.endswith("s") else (word,)


def keyword_evidence(text: str, taxonomy: tuple[Topic, ...], weight: int = 1) -> dict[str, int]:
    """Each topic's evidence in `text`: its keywords' mentions, each weighted, longest keyword first."""
    index, longest = _keyword_index(taxonomy)
    written = _WORD.findall(text)
    words = [word.lower() for word in written]
    mentions: Counter[tuple[str, bool]] = Counter()  # (keyword with its words run together, as an acronym)
    start = 0
    while start < len(words):
        for length in range(min(longest, len(words) - start), 0, -1):
            joined = "".join(words[start:start + length])
            form = next((form for form in _singular(joined) if form in index), None)
            if form:
                mentions[(form, length == 1 and _is_acronym(written[start]))] += 1
                start += length
                break
        else:
            start += 1
    evidence: dict[str, int] = {}
    for (form, acronym), times in mentions.items():
        for slug, strength in index[form]:
            strength = PHRASE_WEIGHT if acronym else strength
            evidence[slug] = evidence.get(slug, 0) + strength * weight * min(times, REPEATS_COUNTED)
    return evidence


def _is_acronym(word: str) -> bool:
    """RL, LLMs, GNNs: a word in capitals stands for a phrase ("reinforcement learning")."""
    letters = word[:-1] if word.endswith("s") else word
    return len(letters) >= 2 and letters.isupper()


def rank_topics(title: str, abstract: str, taxonomy: tuple[Topic, ...], fallback: str) -> tuple[str, ...]:
    """One to three topics the paper is about, best first. A topic needs MIN_EVIDENCE; when none
    has it, the one with the most evidence; the fallback when no keyword occurs at all."""
    evidence = keyword_evidence(abstract, taxonomy)
    for slug, extra in keyword_evidence(title, taxonomy, TITLE_WEIGHT).items():
        evidence[slug] = evidence.get(slug, 0) + extra
    order = {topic.slug: number for number, topic in enumerate(taxonomy)}
    ranked = sorted(evidence, key=lambda slug: (-evidence[slug], order[slug]))[:MAX_TOPICS]
    best = evidence[ranked[0]] if ranked else 0
    kept = [slug for slug in ranked if evidence[slug] >= MIN_EVIDENCE and evidence[slug] * NEAR_BEST >= best]
    return tuple(kept or ranked[:1]) or (fallback,)
