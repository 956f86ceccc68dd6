"""Related papers kept across an edit: the state a build leaves for the next one (`RelatedState`,
packed for the cache's JSON), and the rule by which a few changed texts are weighed with the kept
vocabulary and compared with every paper, instead of all papers being compared anew
(`found_related`, `updated_related`).
"""

from __future__ import annotations

import base64
from collections import Counter
from typing import NamedTuple

import numpy as np
from scipy import sparse

from catalogue.discovery.changes import previous_places, text_digests, within_share
from catalogue.discovery.neighbours import (PARTNER_LIMIT, SCORE_DECIMALS, Neighbour, best_of_rows, neighbours_by_row,
                                            pairs_of_keys, related_papers)
from catalogue.discovery.terms import phrases_with, term_key
from catalogue.discovery.vectors import Terms, tfidf, vectorise

RELATED_KEPT_SHARE = 0.01  # the last vocabulary and weights are kept while at most this share of texts differs
RELATED_FOUND_ANEW_UP_TO = 500  # a catalogue this small has its related papers found anew, in a moment
LINE = "|"  # never in a term (letters, digits, hyphens, spaces), unlike a line break


class RelatedState(NamedTuple):
    """Related papers and what they were found from, for the next build (updated_related): the
    digest of each paper's text and of the texts the last full computation read; that
    computation's vocabulary (its terms and their idf); each paper's TF-IDF vector and
    neighbours (their papers and scores).
    Arrays are packed as (dtype, base64), lists of words as text parted by LINE: the
    cache keeps JSON, and these need no escapes there."""

    digests: tuple[str, ...]
    computed: tuple[str, ...]
    terms: str  # a term a LINE, its words parted by spaces
    idf: tuple[str, str]
    weights: tuple[tuple[str, str], tuple[str, str], tuple[str, str]]  # CSR: data, indices, indptr
    neighbours: tuple[tuple[str, str], tuple[str, str], tuple[str, str]]  # each paper's first, columns, scores


class KeptVectors(NamedTuple):
    """What a RelatedState keeps of vectorise's Vectors: each paper's weights, the terms, their idf."""

    weights: sparse.csr_matrix
    terms: Terms
    idf: np.ndarray


def found_related(texts: list[str], last: RelatedState | None,
                  count: int = 5) -> tuple[list[tuple[Neighbour, ...]], RelatedState]:
    """Related papers (as related_papers finds them, or by updated_related's rule from `last`),
    and the state to keep for the next build."""
    kept = updated_related(texts, last, count)
    if kept is not None:
        return kept
    found = related_papers(texts, count)
    digests = text_digests(texts)
    if len(texts) < 2:  # no vectors: nothing to keep
        return found, _related_state(digests, digests, ("", _packed(np.zeros(0, np.float32))),
                                     sparse.csr_matrix((len(texts), 0), dtype=np.float32), found)
    vectors = vectorise(tuple(texts))
    vocabulary = (LINE.join(" ".join(term) for term in vectors.terms), _packed(vectors.idf))
    return found, _related_state(digests, digests, vocabulary, vectors.weights, found)


def updated_related(texts: list[str], last: RelatedState | None,
                    count: int = 5) -> tuple[list[tuple[Neighbour, ...]], RelatedState] | None:
    """The last build's related papers, brought up to date with the vocabulary and weights of the
    last full computation; None when they must be found anew (related_papers).

    The rule, so that related papers never drift far from a clean build's: the last vocabulary
    and term weights (idf) are kept only while the last full computation was of more than
    RELATED_FOUND_ANEW_UP_TO papers and the texts differ from those it read by at most
    RELATED_KEPT_SHARE of the papers (as multisets, as updated_map counts them), and the papers
    whose text is unchanged keep their order. A changed text is weighed with the kept vocabulary
    (a term it alone brings counts for nothing) and compared with every paper; every other paper
    keeps its vector, so a pair of unchanged papers keeps its score. Each paper then has exactly
    its `count` best neighbours under the kept weights: a paper whose last neighbours include a
    changed one is compared with every paper again, the others with the changed papers alone."""
    if last is None or len(last.computed) <= RELATED_FOUND_ANEW_UP_TO or count <= 0:
        return None
    digests = text_digests(texts)
    if not within_share(digests, last.computed, RELATED_KEPT_SHARE):
        return None
    was = previous_places(digests, last.digests)
    unchanged = [old for old in was if old is not None]
    if unchanged != sorted(unchanged):  # ties go to the lower index: a new order could break them otherwise
        return None
    kept = _kept_vectors(last)
    changed = [index for index, old in enumerate(was) if old is None]
    rows = sparse.vstack([kept.weights, _weigh(kept, [texts[index] for index in changed])]).tocsr()
    added = iter(range(kept.weights.shape[0], rows.shape[0]))
    weights = rows[[old if old is not None else next(added) for old in was]]
    weights.sort_indices()
    del kept, rows  # the weights as kept and as stacked: the catalogue's vectors twice over
    first, columns, scores = (_unpacked(packed) for packed in last.neighbours)
    new_index = np.full(len(last.digests), -1, dtype=np.int64)  # old paper -> new (-1: its text is gone)
    new_index[unchanged] = [index for index, old in enumerate(was) if old is not None]
    best = _kept_neighbours(was, first, new_index[columns], scores, count)
    _add_changed(best, weights, changed)
    found = neighbours_by_row(*pairs_of_keys(best), len(best))
    return found, _related_state(digests, last.computed, (last.terms, last.idf), weights, found)


def _kept_neighbours(was: list[int | None], first: np.ndarray, columns: np.ndarray, scores: np.ndarray,
                     count: int) -> np.ndarray:
    """Each paper's best keys so far (as neighbours._keep_best orders them): the last neighbours of a paper
    whose text and neighbours are all kept (`columns`: the neighbours' new indices, -1 for a text
    gone), -1 for the others, found anew."""
    best = np.full((len(was), count), -1, dtype=np.int64)
    old = np.array([-1 if index is None else index for index in was], dtype=np.int64)
    owner = np.repeat(np.arange(len(first) - 1), np.diff(first))  # the old paper each last neighbour is of
    lost = np.zeros(len(first), dtype=bool)
    lost[owner[columns < 0]] = True
    new_of_old = np.full(len(first), -1, dtype=np.int64)
    new_of_old[old[old >= 0]] = np.flatnonzero(old >= 0)
    keep = ~lost[owner] & (new_of_old[owner] >= 0)
    rows, place = new_of_old[owner[keep]], (np.arange(len(owner)) - first[owner])[keep]
    best[rows, place] = (scores[keep] << 32) | (PARTNER_LIMIT - columns[keep])
    return best


def _add_changed(best: np.ndarray, weights: sparse.csr_matrix, changed: list[int]) -> None:
    """Each paper's best neighbours with the changed papers among the candidates; a paper
    without kept neighbours (changed, or one of its neighbours changed) compared with all.
    Products of float32 weights summed in float64, as neighbours._nearest sums them."""
    k = best.shape[1]
    weights = weights.astype(np.float64)
    lost = np.flatnonzero(best[:, 0] < 0)  # found anew: compared with every paper
    anew = set(lost.tolist())
    for start in range(0, len(lost), 256):  # a few rows at a time: each is a row of the whole catalogue
        taken = lost[start:start + 256]
        block = (weights[taken] @ weights.T).toarray()
        block[np.arange(len(taken)), taken] = -1.0  # never itself
        rows, found, scores = best_of_rows(block, k)
        _merge_keys(best, taken[rows], found, scores)
    if not changed:
        return
    block = (weights[changed] @ weights.T).toarray().T  # papers x changed
    block[changed, np.arange(len(changed))] = -1.0
    scale = 10 ** SCORE_DECIMALS
    rows, found = np.nonzero(block > 0)
    keep = np.isin(rows, list(anew), invert=True)  # those were compared with everything already
    rows, found = rows[keep], found[keep]
    scores = np.rint(np.minimum(block[rows, found], 1.0) * scale).astype(np.int64)
    _merge_keys(best, rows, np.asarray(changed, dtype=np.int64)[found], scores)


def _merge_keys(best: np.ndarray, rows: np.ndarray, columns: np.ndarray, scores: np.ndarray) -> None:
    """Candidates (paper, neighbour, rounded score; no pair already among the best) merged into
    each paper's best keys."""
    keep = scores > 0
    rows, columns, scores = rows[keep], columns[keep], scores[keep]
    if not len(rows):
        return
    order = np.argsort(rows, kind="stable")
    rows, columns, scores = rows[order], columns[order], scores[order]
    k = best.shape[1]
    present, starts = np.unique(rows, return_index=True)
    in_row = np.arange(len(rows)) - starts[np.searchsorted(present, rows)]
    tile = np.full((len(present), int(in_row.max()) + 1), -1, dtype=np.int64)
    tile[np.searchsorted(present, rows), in_row] = (scores << 32) | (PARTNER_LIMIT - columns)
    both = np.concatenate([best[present], tile], axis=1)
    best[present] = np.sort(both, axis=1)[:, -k:]


def _weigh(vectors: KeptVectors, texts: list[str]) -> sparse.csr_matrix:
    """The texts' TF-IDF vectors in the kept vocabulary, with its idf; terms it lacks left out."""
    term_ids = dict(zip(vectors.terms.lines, range(len(vectors.terms))))
    indices: list[int] = []
    indptr = [0]
    for text in texts:
        counted = Counter(term_ids.get(" ".join(term_key(phrase))) for phrase in phrases_with(text, {}))
        counted.pop(None, None)
        indices += sorted(counted.elements())
        indptr.append(len(indices))
    ones = np.ones(len(indices), dtype=np.float32)
    counts = sparse.csr_matrix((ones, np.array(indices, dtype=np.int64), np.array(indptr, dtype=np.int64)),
                               shape=(len(texts), len(vectors.terms)))
    counts.sum_duplicates()
    return tfidf(counts, vectors.idf)[0]


def _related_state(digests: tuple[str, ...], computed: tuple[str, ...], vocabulary: tuple,
                   weights: sparse.csr_matrix, found: list[tuple[Neighbour, ...]]) -> RelatedState:
    first = np.cumsum([0] + [len(neighbours) for neighbours in found])
    flat = [n for neighbours in found for n in neighbours]
    return RelatedState(digests, computed, *vocabulary,
                        (_packed(weights.data), _packed(weights.indices), _packed(weights.indptr)),
                        (_packed(first), _packed(np.array([n.index for n in flat], dtype=np.int64)),
                         _packed(np.array([round(n.score * 10 ** SCORE_DECIMALS) for n in flat], dtype=np.int64))))


def _kept_vectors(state: RelatedState) -> KeptVectors:
    terms = Terms(state.terms.split(LINE) if state.terms else [])
    data, indices, indptr = (_unpacked(packed) for packed in state.weights)
    weights = sparse.csr_matrix((data, indices, indptr), shape=(len(state.digests), len(terms)))
    return KeptVectors(weights, terms, _unpacked(state.idf))


def _packed(array: np.ndarray) -> tuple[str, str]:
    return array.dtype.str, base64.b64encode(np.ascontiguousarray(array).tobytes()).decode("ascii")


def _unpacked(packed: tuple[str, str]) -> np.ndarray:
    dtype, data = packed
    return np.frombuffer(base64.b64decode(data), dtype=np.dtype(dtype)).copy()
