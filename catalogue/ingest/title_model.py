"""The word model of titles: for each word an abstract's title may hold, the probability that the real
title holds it, from a small logistic model over the word's place, shape and count learned from real
title-abstract pairs (catalogue/ingest/title_model.json, written by bench/train_titles.py), with the
finite verbs, the common pairs of words and the modifiers (words a title never ends on) learned beside it.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from pathlib import Path

from catalogue.ingest.abstract_words import CLAIM_FORMS, LONGEST_SPAN, SMALL_WORDS, Abstract, Word

MODEL = Path(__file__).with_name("title_model.json")


@dataclass(frozen=True, eq=False)  # compared by identity: the weight sums below are cached per model
class TitleModel:
    weights: dict[str, float]
    bias: float
    title_tokens: float     # the typical length of a real title, in tokens
    name_in_title: float    # how often a named contribution's name is in the real title
    verbs: frozenset[str]   # words abstracts often write after a subject ('we', 'which'): finite verbs
    common_pairs: frozenset[str]  # two words many abstracts write together ('neural networks'): a field's name
    modifiers: frozenset[str]  # words real titles hold but never end on ('single', '-efficient'): is_modifier


def _describe(abstract: Abstract) -> list[tuple[int, tuple]]:
    """The words that may be in the title, with what the model weighs about each in its place: the word's
    index and the arguments of _context_features. (Its tokens are weighed by their count: _FREQUENCY.)"""
    words, _, last_sentence = abstract
    claims = _claims(words)
    expanded = _before_acronyms(words)
    described = []
    position = 0
    sentence = -1
    place = ""
    for index, word in enumerate(words):
        if word.sentence != sentence:
            sentence, position = word.sentence, 0
            place = "last" if sentence == last_sentence and sentence > 2 else str(min(sentence, 4))
        else:
            position += 1
        if not word.tokens:
            continue
        where = _WHERE[position] if position < len(_WHERE) else "10"
        context = (place, claims.get(index, "none"), word.shape, where, index in expanded)
        described.append((index, context))
    return described


# Buckets of a word's position in its sentence and of a token's count in the abstract.
_WHERE = ("0", "1", "1", "1", "4", "4", "4", "4", "4", "4")
_FREQUENCY = (1, 1, 2, 3, 3, 5)


def _context_features(place: str, claim: str, shape: str, where: str, expanded: bool) -> tuple:
    return (f"s:{place}", f"c:{claim}", f"sh:{shape}", f"c-s:{claim}:{place}", f"pos:{where}", f"acr:{expanded}")


def _token_features(identity: str, frequency: int, shape: str) -> tuple:
    return (identity, f"tf:{frequency}", f"tf-sh:{frequency}:{shape}")


def token_features(abstract: Abstract, vocabulary: Collection[str]) -> dict[int, list[tuple]]:
    """For the words that may be in the title, for each of their tokens: the features the model weighs.

    A token is known by itself when `vocabulary` holds its feature, else as one of the rare words.
    """
    features = {}
    counts = abstract.counts
    for index, context in _describe(abstract):
        shared = _context_features(*context)
        features[index] = [shared + _token_features(_identity(token, vocabulary), _FREQUENCY[min(counts[token], 5)],
                                                    context[2])
                           for token in abstract.words[index].tokens]
    return features


def _identity(token: str, vocabulary: Collection[str]) -> str:
    identity = f"w:{token}"
    return identity if identity in vocabulary else "w:?"


def token_probabilities(abstract: Abstract, model: TitleModel) -> dict[int, tuple[float, ...]]:
    """For the words that may be in the title: the probability that the real title holds each token."""
    words, counts, _ = abstract
    probabilities = {}
    exp = math.exp
    for index, context in _describe(abstract):
        word = words[index]
        if not word.clausal:  # (a word a title never holds needs none)
            base = model.bias + _context_weight(model, *context)
            shape = context[2]
            probabilities[index] = tuple([
                1 / (1 + exp(-base - _token_weight(model, token, _FREQUENCY[min(counts[token], 5)], shape)))
                for token in word.tokens])
    return probabilities


@functools.lru_cache(maxsize=4096)
def _context_weight(model: TitleModel, *context) -> float:
    return sum(model.weights.get(feature, 0.0) for feature in _context_features(*context))


@functools.lru_cache(maxsize=65536)
def _token_weight(model: TitleModel, token: str, *rest) -> float:
    features = _token_features(_identity(token, model.weights), *rest)
    return sum(model.weights.get(feature, 0.0) for feature in features)


def _before_acronyms(words: tuple[Word, ...]) -> set[int]:
    """Words of a phrase the abstract abbreviates: the five before '(ABC)'."""
    found: set[int] = set()
    for index, word in enumerate(words):
        if word.opens and word.shape == "caps":
            found.update(i for i in range(max(0, index - 5), index) if words[i].sentence == word.sentence)
    return found


def _claims(words: tuple[Word, ...]) -> dict[int, str]:
    """Words that follow a claim ('we propose ...', 'this paper studies ...') in its sentence, by its kind."""
    found: dict[int, str] = {}
    for index, word in enumerate(words):
        kind = CLAIM_FORMS.get(word.lowered)
        if not kind or not any(w.lowered in {"we", "paper", "work", "i"} for w in words[max(0, index - 3):index]
                               if w.sentence == word.sentence):
            continue
        for after in range(index + 1, min(len(words), index + 1 + LONGEST_SPAN)):
            if words[after].sentence != word.sentence:
                break
            found.setdefault(after, kind)
    return found


def is_modifier(word: str, modifiers: frozenset[str]) -> bool:
    """Whether a word (lower case) needs the noun after it: one of the modifiers, or a word ending on one's
    last part after a hyphen ('sample-efficient' by '-efficient')."""
    return word in modifiers or "-" in word and f"-{word.rpartition('-')[2]}" in modifiers


@functools.cache
def load_model(path: Path = MODEL) -> TitleModel:
    data = json.loads(path.read_text(encoding="utf-8"))
    return TitleModel(data["weights"], data["bias"], data["title_tokens"], data["name_in_title"],
                      frozenset(data["verbs"]), frozenset(data["common_pairs"]), frozenset(data["modifiers"]))


def content_pairs(tokens: tuple[str, ...]) -> Iterator[str]:
    """Each two tokens side by side, neither a small word ('of', 'the'), as 'first second'."""
    return (f"{first} {second}" for first, second in zip(tokens, tokens[1:])
            if first not in SMALL_WORDS and second not in SMALL_WORDS)
