"""Each paper's most similar others (`related_papers`): two papers are as similar as the cosine
of their TF-IDF vectors, scores rounded to six decimals, ties going to the lower index.
"""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
from scipy import sparse
from threadpoolctl import threadpool_limits

from catalogue.discovery.vectors import vectorise
from catalogue.system.workers import cores

SCORE_DECIMALS = 6
BLOCK_CELLS = 2 ** 19  # scores a thread holds at once (float64: 4 MB), a square tile of them
PARTNER_LIMIT = 2 ** 32 - 1  # papers are numbered below this, in the low bits of a neighbour's key
COMMON_SHARE = 0.05  # a term in this share of the papers or more is cheaper in a dense product
DENSE_CELLS = 2 ** 22  # at most this many values in that dense part (32 MB)


@dataclass(frozen=True)
class Neighbour:
    """Another paper like this one: its index and the cosine of the two."""

    index: int
    score: float  # in (0, 1], six decimals


def related_papers(texts: list[str], count: int = 5) -> list[tuple[Neighbour, ...]]:
    """For each text, the `count` most similar other texts: highest score first, ties by index.

    A paper is never its own neighbour; a duplicate is (score 1.0). Papers that share no term
    (score 0) are left out, so an empty or tiny text may have fewer neighbours, or none.
    """
    if count <= 0 or len(texts) < 2:
        return [() for _ in texts]
    vectors = vectorise(tuple(texts))
    rows, columns, scores = _nearest(vectors.weights, count)
    return neighbours_by_row(rows, columns, scores, len(texts))


def neighbours_by_row(rows: np.ndarray, columns: np.ndarray, scores: np.ndarray, papers: int) -> list[tuple[Neighbour, ...]]:
    """Each paper's neighbours from the (row, column, score) of every pair, sorted by row."""
    bounds = np.searchsorted(rows, np.arange(papers + 1)).tolist()
    columns_, scores_ = columns.tolist(), scores.tolist()
    return [tuple(Neighbour(columns_[p], scores_[p]) for p in range(bounds[i], bounds[i + 1])) for i in range(papers)]


def _nearest(weights: sparse.csr_matrix, count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows, columns and scores of each paper's `count` nearest others with score > 0, sorted by
    row, then descending score, then column.

    Each pair's cosine is computed once: the square tiles on and above the diagonal of the
    papers x papers scores, on each core (numpy and scipy let go of the GIL), and a tile gives
    the best few of its rows and, transposed, of its columns: once a paper has its k best so
    far, only the cells that reach the k-th. Those are merged into each paper's best so far,
    so memory grows with the papers, not their pairs. Terms in many papers make most of the
    work of a sparse product, so their part of each cosine is a dense product (BLAS) and only
    the rest is sparse. Sums are in float64, far below the rounding to six
    decimals; a score of (i, j) is also that of (j, i), since it is the same number.
    """
    n = weights.shape[0]
    k = min(count, n - 1)
    side = max(1, math.isqrt(BLOCK_CELLS))
    starts = range(0, n, side)
    common, rare = _split_by_frequency(weights)
    rare_columns = {start: rare[start:start + side].T.tocsr() for start in starts}  # terms x papers, once each

    def tile_best(tile: tuple[int, int]) -> tuple[int, int, tuple, tuple | None]:
        top, left = tile
        scores = common[top:top + side] @ common[left:left + side].T
        rare_part = (rare[top:top + side] @ rare_columns[left]).tocoo()
        scores[rare_part.row, rare_part.col] += rare_part.data  # (each cell once: no repeats to add up)
        if top == left:  # a tile on the diagonal holds both (i, j) and (j, i): its rows say it all
            np.fill_diagonal(scores, -1.0)  # never itself
            return top, left, _candidates(scores, floor[top:top + side], k), None
        return (top, left, _candidates(scores, floor[top:top + side], k),
                _candidates(scores.T, floor[left:left + side], k))

    best = np.full((n, k), -1, dtype=np.int64)  # each paper's best keys so far (_keep_best); -1: none yet
    # Each paper's k-th best rounded score so far (0 until it has k): a tile's cell below it cannot
    # be among the best. Only the merging thread writes it, and only upwards, so a tile reading it
    # while it changes still reads a bound that holds.
    floor = np.zeros(n, dtype=np.int64)
    tiles = [(top, left) for top in starts for left in starts if left >= top]
    with threadpool_limits(1), ThreadPoolExecutor(cores()) as pool:  # one BLAS thread in each of ours
        for top, left, by_row, by_column in pool.map(tile_best, tiles):
            _keep_best(best, floor, top, *by_row, left)
            if by_column:
                _keep_best(best, floor, left, *by_column, top)
    return pairs_of_keys(best)


def pairs_of_keys(best: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows, columns and scores of each paper's best keys (as _keep_best orders them) above zero,
    sorted by row, then best first."""
    best = np.sort(best, axis=1)[:, ::-1]  # best first: highest score, then lowest column
    scores, columns = best >> 32, PARTNER_LIMIT - (best & PARTNER_LIMIT)
    found = scores > 0
    rows = np.broadcast_to(np.arange(len(best))[:, None], best.shape)
    return rows[found], columns[found], scores[found] / 10 ** SCORE_DECIMALS


def _keep_best(best: np.ndarray, floor: np.ndarray, first_row: int, rows: np.ndarray, columns: np.ndarray,
               scores: np.ndarray, first_column: int) -> None:
    """Merge a tile's candidates (rows, columns counted from its corner, rounded scores; rows in
    order) into `best`, each row's k highest keys. A key orders pairs as the answer does: the
    rounded score in the high bits, the column reversed in the low ones, so the k highest keys
    of what two tiles found are the k highest of both."""
    if not len(rows):
        return
    keys = (scores << 32) | (PARTNER_LIMIT - (columns + first_column))
    height = int(rows[-1]) + 1
    in_row = np.arange(len(rows)) - np.searchsorted(rows, rows)  # each candidate's place in its row
    tile = np.full((height, int(in_row.max()) + 1), -1, dtype=np.int64)
    tile[rows, in_row] = keys
    both = np.concatenate([best[first_row:first_row + height], tile], axis=1)
    k = best.shape[1]
    kept = best[first_row:first_row + height] = np.partition(both, both.shape[1] - k, axis=1)[:, -k:]
    lowest = kept.min(axis=1) >> 32  # the k-th best score (-1 while a row has fewer than k)
    np.maximum(floor[first_row:first_row + height], lowest, out=floor[first_row:first_row + height])


def _split_by_frequency(weights: sparse.csr_matrix) -> tuple[np.ndarray, sparse.csr_matrix]:
    """The columns of terms in at least COMMON_SHARE of the papers, dense (at most DENSE_CELLS
    values), and the other terms' columns, sparse. A term in d of n papers costs a sparse
    product d * d multiplications, one at a time, and a dense one n * n, many at a time."""
    n = weights.shape[0]
    papers_with = np.bincount(weights.indices, minlength=weights.shape[1])
    by_frequency = np.argsort(-papers_with, kind="stable")[:max(0, DENSE_CELLS // max(n, 1))]
    common = np.sort(by_frequency[papers_with[by_frequency] >= COMMON_SHARE * n])
    is_common = np.zeros(weights.shape[1], dtype=bool)
    is_common[common] = True
    rare = weights.astype(np.float64)
    rare.data[is_common[rare.indices]] = 0.0
    rare.eliminate_zeros()
    return weights[:, common].toarray().astype(np.float64), rare


def _candidates(block: np.ndarray, floor: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Row, column and rounded score of each cell that may be among its row's k best: those
    whose rounded score reaches the row's floor (its k-th best so far), or, while a row has no
    floor yet, the row's k best in this block and any that tie with the k-th."""
    if not floor.min() > 0:
        return best_of_rows(block, k)
    scale = 10 ** SCORE_DECIMALS
    rows, columns = np.nonzero(block >= ((floor - 0.501) / scale)[:, None])  # (a little below: rint decides)
    scores = np.rint(np.minimum(block[rows, columns], 1.0) * scale).astype(np.int64)
    keep = scores >= floor[rows]
    return rows[keep], columns[keep], scores[keep]


def best_of_rows(block: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Row, column and rounded score (an integer) of each row's k best scores above zero, and of
    any that tie with the k-th once rounded."""
    scale = 10 ** SCORE_DECIMALS
    if block.shape[1] > k:
        kth = np.partition(block, block.shape[1] - k, axis=1)[:, block.shape[1] - k]
        cut = np.maximum(kth - 1.0 / scale, 0.0)[:, None]
    else:
        cut = 0.0
    rows, columns = np.nonzero(block > cut)
    scores = np.rint(np.minimum(block[rows, columns].astype(np.float64), 1.0) * scale).astype(np.int64)
    keep = scores > 0
    return rows[keep], columns[keep], scores[keep]
