"""The map of the catalogue: a place in [0, 1] x [0, 1] for each paper, similar papers near each
other (`map_layout`); groups of similar papers with the words that name them (`map_groups`); and
the map kept across an edit, changed papers placed among their neighbours (`MapState`,
`updated_map`). Every random choice is seeded and places are rounded to four decimals;
scikit-learn is imported only when a map is laid out (related.MAP_TOOLS).
"""

from __future__ import annotations

import functools
import math
import warnings
from collections import Counter
from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from threadpoolctl import threadpool_limits

from catalogue.discovery.changes import previous_places, text_digests, within_share
from catalogue.discovery.neighbours import Neighbour
from catalogue.discovery.related import MAP_CLUSTERS
from catalogue.discovery.vectors import Vectors, vectorise, written_form

MAP_DIMENSIONS = 50  # TF-IDF is reduced to this many dimensions before the map is drawn
MAP_SPREAD = 0.5  # a group's radius on the map, as a share of the distance between neighbouring groups
MAP_GROUPS = 12  # the map shows at most this many groups of papers, one colour each (charts.PALETTE)
GROUP_TERMS = 3  # words that name a group
MAP_KEPT_SHARE = 0.01  # the map is kept and changed papers placed among it while at most this share differs


def map_layout(texts: list[str]) -> list[tuple[float, float]]:
    """A point in [0, 1] x [0, 1] for each text, similar texts near each other.

    TF-IDF is reduced by truncated SVD to MAP_DIMENSIONS and each row scaled to length 1.
    Up to MAP_CLUSTERS papers, t-SNE lays them out. Beyond, k-means gathers them into
    MAP_CLUSTERS groups, t-SNE lays out the groups' centres, and each paper goes near its
    group's centre, placed within the group by the group's own two main directions. Both axes
    are scaled by one factor, so a distance means the same across as down.
    """
    n = len(texts)
    reduced = _map_vectors(tuple(texts))
    if reduced is None:
        return [(0.5, 0.5)] * n
    with threadpool_limits(1):  # one thread: sums then add up in the same order on any machine
        if n <= 3 or np.ptp(reduced, axis=0).max() < 1e-9:
            points = _principal_plane(reduced)
        elif n <= MAP_CLUSTERS:
            points = _tsne(reduced)
        else:
            points = _grouped_layout(reduced)
    return _unit_square(points)


def map_groups(texts: list[str]) -> list[tuple[tuple[str, ...], tuple[int, ...]]]:
    """The papers in at most MAP_GROUPS groups of similar ones: (the words that name a group,
    its papers' indices, most typical first), the largest group first.

    k-means (k-means++, four starts, seeded) on the vectors map_layout lays out, with about the
    square root of the number of papers for k (6 groups for 38 papers, MAP_GROUPS from 144). A
    group's words are the terms that set its papers apart: a high mean weight in the group that
    is also well above the catalogue's (mean x log(1 + mean / the catalogue's mean)), at most
    GROUP_TERMS phrases, none repeating a word of another (_group_words). Papers without a term are one group without
    words; ties in size go to the group with the lower first paper.
    """
    n = len(texts)
    reduced = _map_vectors(tuple(texts))
    if reduced is None:
        return [((), tuple(range(n)))] if n else []
    from sklearn.cluster import KMeans
    from sklearn.exceptions import ConvergenceWarning
    distinct = len(np.unique(np.round(reduced, 6), axis=0))
    k = min(MAP_GROUPS, max(1, round(math.sqrt(n))), distinct)
    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        fitted = KMeans(k, n_init=4, random_state=0).fit(reduced) if k > 1 else None
    labels = fitted.labels_ if fitted is not None else np.zeros(n, dtype=np.int64)
    closeness = (reduced * (fitted.cluster_centers_[labels] if fitted is not None else reduced.mean(axis=0))).sum(axis=1)
    vectors = vectorise(tuple(texts))
    weights = vectors.weights
    overall = np.asarray(weights.mean(axis=0)).ravel()
    lower_case = set(vectors.spellings)  # (see vectors.written_form)
    groups = []
    for group in range(k):
        members = np.flatnonzero(labels == group)
        if not len(members):
            continue
        mean = np.asarray(weights[members].mean(axis=0)).ravel()
        with np.errstate(divide="ignore", invalid="ignore"):
            score = np.where(mean > 0, mean * np.log1p(mean / overall), 0.0)
        ranked = [t for t in np.argsort(-score, kind="stable")[:6 * GROUP_TERMS].tolist() if score[t] > 0]
        folded = [texts[i].casefold() for i in members]
        words = _group_words(ranked, vectors, lower_case, GROUP_TERMS,
                             lambda phrase: any(phrase.casefold() in text for text in folded))
        order = members[np.lexsort((members, -np.round(closeness[members], 6)))]  # most typical first
        groups.append((words, tuple(order.tolist())))
    return sorted(groups, key=lambda group: (-len(group[1]), min(group[1])))


@functools.lru_cache(maxsize=1)  # the layout and the groups read the same vectors
def _map_vectors(texts: tuple[str, ...]) -> np.ndarray | None:
    """Each text's TF-IDF reduced by truncated SVD to MAP_DIMENSIONS, rows of length 1; None
    when fewer than two texts, or none with a term."""
    from sklearn.decomposition import TruncatedSVD
    from sklearn.preprocessing import normalize
    n = len(texts)
    weights = vectorise(texts).weights if n > 1 else None
    if weights is None or weights.nnz == 0:
        return None
    with threadpool_limits(1):
        dimensions = min(MAP_DIMENSIONS, n - 1, weights.shape[1] - 1)
        if dimensions >= 2:
            with np.errstate(divide="ignore", invalid="ignore"):  # its variance ratios, of no use here
                reduced = TruncatedSVD(dimensions, algorithm="randomized", random_state=0).fit_transform(weights)
        else:  # one or two terms in the whole catalogue
            reduced = weights.toarray()
        return normalize(reduced)


def _group_words(ranked: list[int], vectors: Vectors, lower_case: set[str], limit: int,
                 written_in: Callable[[str], bool]) -> tuple[str, ...]:
    """The first `limit` phrases of the ranked terms, as written, none sharing a word with another:
    a pair of words takes the place of the chosen words it holds ('question', 'answering' ->
    'question answering'), and two pairs that chain make one phrase of three words ('stochastic
    gradient' + 'gradient descent' -> 'stochastic gradient descent') if the group's texts write
    those three words (`written_in`)."""
    chosen: list[tuple[tuple[str, ...], str]] = []  # (folded words, as written)
    for t in ranked:
        words, written = vectors.terms[t], written_form(vectors, t, lower_case)
        overlapping = [n for n, (others, _) in enumerate(chosen) if set(words) & set(others)]
        if not overlapping:
            if len(chosen) < limit:
                chosen.append((words, written))
        elif len(words) > 1 and all(len(chosen[n][0]) == 1 for n in overlapping):
            chosen[overlapping[0]] = (words, written)
            chosen = [phrase for n, phrase in enumerate(chosen) if n not in overlapping[1:]]
        elif len(overlapping) == 1 and len(words) == 2 and len(chosen[overlapping[0]][0]) == 2:
            others, shown = chosen[overlapping[0]]
            first, second = written.split(" ") if written.count(" ") == 1 else (None, None)
            if first and others[-1] == words[0] and shown.count(" ") == 1 and written_in(f"{shown} {second}"):
                chosen[overlapping[0]] = (others + words[1:], f"{shown} {second}")
            elif first and others[0] == words[-1] and shown.count(" ") == 1 and written_in(f"{first} {shown}"):
                chosen[overlapping[0]] = (words[:1] + others, f"{first} {shown}")
    return tuple(written for _, written in chosen)


class MapState(NamedTuple):
    """A map and what it was drawn from: the digest of each paper's text, the digests of the
    texts the last full layout laid out, each paper's place and the groups (map_groups)."""

    digests: tuple[str, ...]
    laid_out: tuple[str, ...]
    positions: list[tuple[float, float]]
    groups: list[tuple[tuple[str, ...], tuple[int, ...]]]


def full_map(texts: list[str]) -> MapState:
    """The map laid out anew (map_layout, map_groups)."""
    digests = text_digests(texts)
    return MapState(digests, digests, map_layout(texts), map_groups(texts))


def may_keep_map(texts: list[str], last: MapState | None) -> bool:
    """Whether updated_map may keep the last map: False when it will surely be laid out anew."""
    return (last is not None and len(last.laid_out) > MAP_CLUSTERS
            and within_share(text_digests(texts), last.laid_out, MAP_KEPT_SHARE))


def updated_map(texts: list[str], last: MapState | None, neighbours: list[tuple[Neighbour, ...]]) -> MapState | None:
    """The last map kept, with the papers whose text is new placed among their neighbours; None
    when it must be laid out anew (full_map).

    The rule, so that the map never drifts far from a full layout: the last map is kept only
    when its full layout was of more than MAP_CLUSTERS papers (a smaller map is laid out anew
    in a moment) and the texts differ from those it laid out by at most MAP_KEPT_SHARE of the
    papers (as multisets: the larger of the texts added and the texts gone; an edit is one of each). A paper whose text the
    last map holds keeps its place and its group (a repeated text takes the places in order).
    A new text goes to the mean place of its related papers that kept theirs, weighted by
    their scores, and joins the group holding most of that weight, as its least typical
    paper; one with no such neighbour makes the whole map laid out anew. The groups keep
    their words."""
    if not may_keep_map(texts, last):
        return None
    digests = text_digests(texts)
    was = previous_places(digests, last.digests)
    new_index = {old: index for index, old in enumerate(was) if old is not None}
    group_of = {old: number for number, (_, group) in enumerate(last.groups) for old in group}
    positions = [last.positions[old] if old is not None else None for old in was]
    members = [[new_index[old] for old in group if old in new_index] for _, group in last.groups]
    for index in (index for index, old in enumerate(was) if old is None):
        placed = [(n.score, was[n.index]) for n in neighbours[index] if was[n.index] is not None]
        if not placed:
            return None
        total = sum(score for score, _ in placed)
        positions[index] = tuple(round(sum(score * last.positions[old][axis] for score, old in placed) / total, 4)
                                 for axis in (0, 1))
        weight = Counter()
        for score, old in placed:
            weight[group_of[old]] += score
        members[min(weight, key=lambda group: (-weight[group], group))].append(index)
    groups = [(words, tuple(found)) for (words, _), found in zip(last.groups, members) if found]
    return MapState(digests, last.laid_out, positions, sorted(groups, key=lambda group: (-len(group[1]), min(group[1]))))


def _tsne(points: np.ndarray) -> np.ndarray:
    from sklearn.manifold import TSNE
    perplexity = min(30.0, (len(points) - 1) / 3)
    # 500 iterations, not 1,000: the layout of a few hundred points has settled by then (KL 0.88 against 0.86).
    return TSNE(2, perplexity=perplexity, init="pca", learning_rate="auto", max_iter=500,
                random_state=0).fit_transform(points)


def _grouped_layout(points: np.ndarray) -> np.ndarray:
    """Groups of similar papers laid out by t-SNE; each paper near its group's centre."""
    from sklearn.cluster import KMeans
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.preprocessing import normalize
    with warnings.catch_warnings():  # duplicates can leave fewer distinct groups: those stay empty
        warnings.simplefilter("ignore", ConvergenceWarning)
        # Random first centres, not k-means++: several times faster, and the groups are as tight
        # (inertia; bench/README.md has the figures).
        groups = KMeans(MAP_CLUSTERS, init="random", n_init=1, max_iter=100, random_state=0).fit(points)
    centres = normalize(groups.cluster_centers_)
    placed = _tsne(centres)
    gaps = np.sqrt(((placed[:, None, :] - placed[None, :, :]) ** 2).sum(axis=2))
    np.fill_diagonal(gaps, np.inf)
    spacing = float(np.median(gaps.min(axis=1)))
    sizes = np.bincount(groups.labels_, minlength=MAP_CLUSTERS)
    typical_size = sizes[sizes > 0].mean()
    result = np.empty((len(points), 2))
    for group in range(MAP_CLUSTERS):
        members = np.flatnonzero(groups.labels_ == group)
        if len(members) == 0:
            continue
        within = _principal_plane(points[members] - centres[group])
        typical = np.sqrt((within ** 2).sum(axis=1).mean())
        radius = MAP_SPREAD * spacing * np.sqrt(len(members) / typical_size)
        result[members] = placed[group] + (within / typical * radius if typical > 0 else 0.0)
    return result


def _principal_plane(points: np.ndarray) -> np.ndarray:
    """Points projected on their two main directions (a sign fixed so the output is stable)."""
    centred = points - points.mean(axis=0)
    if len(points) < 2:
        return np.zeros((len(points), 2))
    _, _, axes = np.linalg.svd(centred, full_matrices=False)
    axes = axes[:2] * np.where(axes[:2].sum(axis=1) < 0, -1.0, 1.0)[:, None]
    projected = centred @ axes.T
    return np.hstack([projected, np.zeros((len(points), 2 - projected.shape[1]))])


def _unit_square(points: np.ndarray) -> list[tuple[float, float]]:
    """Points scaled into [0, 1] x [0, 1] by one factor for both axes, centred, rounded to 4 places."""
    points = points.astype(np.float64)
    low, high = points.min(axis=0), points.max(axis=0)
    span = float((high - low).max())
    if not span > 1e-12:
        return [(0.5, 0.5)] * len(points)
    scaled = np.clip(np.round((points - (low + high) / 2) / span + 0.5, 4), 0.0, 1.0)
    return [(float(x), float(y)) for x, y in scaled]
