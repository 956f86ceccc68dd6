"""How a list of texts differs from an earlier build's, by the digest of each text: by how many
texts (as multisets) and where each text that stayed was; related papers and the map are kept
across an edit by these.
"""

from __future__ import annotations

from collections import Counter
from hashlib import blake2b


def text_digests(texts: list[str]) -> tuple[str, ...]:
    return tuple(blake2b(text.encode("utf-8"), digest_size=16).hexdigest() for text in texts)


def within_share(digests: tuple[str, ...], computed: tuple[str, ...], share: float) -> bool:
    """Whether the texts differ from those of the last full computation by at most `share` of
    them, as multisets: the larger of the texts added and the texts gone (an edit is one of each)."""
    current, before = Counter(digests), Counter(computed)
    return max((current - before).total(), (before - current).total()) <= share * len(digests)


def previous_places(digests: tuple[str, ...], previous: tuple[str, ...]) -> list[int | None]:
    """Each paper's index in the previous list of texts, None for a text it did not hold (a
    repeated text takes the places in order)."""
    places: dict[str, list[int]] = {}
    for index in reversed(range(len(previous))):
        places.setdefault(previous[index], []).append(index)
    return [places[digest].pop() if places.get(digest) else None for digest in digests]
