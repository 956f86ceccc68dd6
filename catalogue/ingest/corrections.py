"""Which new abstracts are corrections of old ones: pairs of word lists that are nearly the same.

The measure is difflib's SequenceMatcher ratio (autojunk off) over whitespace-separated words:
2 * matched words / (words in both). Comparing every new abstract with every old one is too
slow when a whole list is replaced (a million pairs), so only pairs that could reach the
threshold are compared. A pair with ratio r shares at least r / (2 - r) of each side's words
(counted with their repeats), so sorting each side's words rarest first, the pair must share a
word among the first len - ceil(share * len) + 1 of each ("prefix filtering", Chaudhuri, Ganti
and Kaushik, ICDE 2006): an exact filter, not an estimate.
"""

from __future__ import annotations

import difflib
import math
from collections import Counter, defaultdict

Token = tuple[str, int]  # a word and which repeat of it: multisets as sets


def alike_pairs(news: dict[str, list[str]], olds: dict[str, list[str]],
                threshold: float) -> list[tuple[float, str, str]]:
    """(ratio, new key, old key) for every pair of word lists whose ratio is at least threshold."""
    tokens = {("new", key): occurrences(words) for key, words in news.items()}
    tokens |= {("old", key): occurrences(words) for key, words in olds.items()}
    frequency = Counter(token for found in tokens.values() for token in found)
    rank = {token: place for place, token in enumerate(sorted(frequency, key=lambda token: (frequency[token], token)))}
    share = threshold / (2 - threshold) - 1e-9  # a shorter prefix would miss pairs; a longer one only costs time

    def prefix(found: frozenset[Token]) -> list[Token]:
        rarest = sorted(found, key=rank.__getitem__)
        return rarest[:len(rarest) - math.ceil(share * len(rarest)) + 1]

    index: dict[Token, list[str]] = defaultdict(list)
    for key in sorted(olds):
        for token in prefix(tokens["old", key]):
            index[token].append(key)
    pairs = []
    matcher = difflib.SequenceMatcher(None, autojunk=False)
    for new in sorted(news):
        matcher.set_seq2(news[new])
        mine = tokens["new", new]
        for old in sorted({key for token in prefix(mine) for key in index.get(token, ())}):
            theirs = tokens["old", old]
            # Upper bounds of the ratio first, as difflib.get_close_matches does: the shorter list
            # all matched, then the words shared with their repeats (its quick_ratio, as sets).
            total = len(mine) + len(theirs)
            if 2 * min(len(mine), len(theirs)) < threshold * total or 2 * len(mine & theirs) < threshold * total:
                continue
            matcher.set_seq1(olds[old])
            if (ratio := matcher.ratio()) >= threshold:
                pairs.append((ratio, new, old))
    return pairs


def occurrences(words: list[str]) -> frozenset[Token]:
    """Each word with the number of times it came before: ("a", 0), ("b", 0), ("a", 1)."""
    seen: dict[str, int] = {}
    tokens = []
    for word in words:
        tokens.append((word, seen.get(word, 0)))
        seen[word] = tokens[-1][1] + 1
    return frozenset(tokens)
