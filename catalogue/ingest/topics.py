"""The topics a paper is about, from its derived title and abstract and the taxonomy's keywords.

A topic is right when the paper is about it, not when one of its words occurs once. So:
- a keyword (or the topic's label) counts where the text writes it as whole words, in any case,
  with a hyphen, a space or nothing between its words, and in the plural ("-s", "-es", "-ies");
- at each word the longest keyword wins, so a phrase hides the words inside it: "doubly robust"
  is causal inference, not robustness, when the taxonomy lists it under causality;
- a phrase, or an acronym written in capitals (RL, LLMs), is stronger evidence than one word;
- a keyword repeated all along the abstract counts only REPEATS_COUNTED times, so one word does
  not drown the others; mentions in the derived title count again;
- up to three topics with at least MIN_EVIDENCE (two mentions of a word, or one of a phrase) are
  kept, best first; when no topic has that much, the one with the most evidence; the fallback
  topic when no keyword occurs at all.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from dataclasses import dataclass

from catalogue.model import Topic

MAX_TOPICS = 3
TITLE_WEIGHT = 1  # the title is derived from the abstract: its mentions count a second time
PHRASE_WEIGHT = 2  # a keyword of two or more words, against one of a single word
MIN_EVIDENCE = 2
REPEATS_COUNTED = 2
_WORD = re.compile(r"[^\W_]+")


@dataclass(frozen=True)
class _Index:
    topics: dict[str, tuple[tuple[str, int], ...]]  # keyword with its words run together -> ((slug, weight), ...)
    forms: dict[str, str]  # the keyword and its plurals -> the keyword
    prefixes: frozenset[str]  # every start of the forms: where to stop reading on


@functools.lru_cache(maxsize=16)
def _keyword_index(taxonomy: tuple[Topic, ...]) -> _Index:
    """Each keyword and label of the taxonomy, its words run together ("auto-encoder" and
    "autoencoder" are then one keyword)."""
    topics: dict[str, dict[str, int]] = {}
    for topic in taxonomy:
        for keyword in (topic.label.lower(), *topic.keywords):
            words = _WORD.findall(keyword)
            if words:
                slugs = topics.setdefault("".join(words), {})
                slugs[topic.slug] = max(PHRASE_WEIGHT if len(words) > 1 else 1, slugs.get(topic.slug, 0))
    forms = {plural: key for key in topics for plural in _plurals(key)} | {key: key for key in topics}
    prefixes = frozenset(form[:end] for form in forms for end in range(1, len(form) + 1))
    return _Index({key: tuple(slugs.items()) for key, slugs in topics.items()}, forms, prefixes)


def _plurals(word: str) -> tuple[str, ...]:
    return (word + "s", word + "es", word[:-1] + "ies") if word.endswith("y") else (word + "s", word + "es")


def keyword_evidence(text: str, taxonomy: tuple[Topic, ...], weight: int = 1) -> dict[str, int]:
    """Each topic's evidence in `text`: its keywords' mentions, each weighted, longest keyword first."""
    index = _keyword_index(taxonomy)
    written = _WORD.findall(text)
    words = [word.lower() for word in written]
    mentions: Counter[tuple[str, bool]] = Counter()  # (keyword with its words run together, as an acronym)
    start = 0
    while start < len(words):
        joined, found = "", None
        for end in range(start, len(words)):  # read on while the words run together still start a keyword
            joined += words[end]
            if joined not in index.prefixes:
                break
            if joined in index.forms:
                found = (index.forms[joined], end + 1)
        if found:
            keyword, end = found
            mentions[(keyword, end == start + 1 and _is_acronym(written[start]))] += 1
            start = end
        else:
            start += 1
    evidence: dict[str, int] = {}
    for (keyword, acronym), times in mentions.items():
        for slug, strength in index.topics[keyword]:
            strength = PHRASE_WEIGHT if acronym else strength
            evidence[slug] = evidence.get(slug, 0) + strength * weight * min(times, REPEATS_COUNTED)
    return evidence


def _is_acronym(word: str) -> bool:
    """RL, LLMs, GNNs: a short word in capitals stands for a phrase ("reinforcement learning")."""
    letters = word[:-1] if word.endswith("s") else word
    return 2 <= len(letters) <= 4 and letters.isupper()


def rank_topics(title: str, abstract: str, taxonomy: tuple[Topic, ...], fallback: str) -> tuple[str, ...]:
    """One to three topics the paper is about, best first (the module's docstring says how)."""
    evidence = keyword_evidence(abstract, taxonomy)
    for slug, extra in keyword_evidence(title, taxonomy, TITLE_WEIGHT).items():
        evidence[slug] = evidence.get(slug, 0) + extra
    order = {topic.slug: number for number, topic in enumerate(taxonomy)}
    ranked = sorted(evidence, key=lambda slug: (-evidence[slug], order[slug]))[:MAX_TOPICS]
    kept = [slug for slug in ranked if evidence[slug] >= MIN_EVIDENCE]
    return tuple(kept or ranked[:1]) or (fallback,)
