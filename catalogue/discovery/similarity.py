"""Related papers and a map of the catalogue, from the words of their titles and abstracts.

Pure functions of a list of plain texts (title + abstract, one a paper) that name a paper by
its position in the list. Same texts, same answer: every random choice is seeded, scores
are rounded to six decimals and map positions to four, ties go to the lower index.

A text's terms are its words and pairs of neighbouring words, folded as the offline search
folds them (lower case, plurals: `search.stem`), without stop words; Chinese and Japanese,
which have no spaces, count as overlapping pairs of characters. Terms are weighted by TF-IDF
(sublinear tf, smoothed idf, rows of length 1), and two papers are as similar as the cosine of
their vectors.
"""

from __future__ import annotations

import functools
import math
import pickle
import re
import sys
import warnings
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from hashlib import blake2b
from itertools import pairwise
from typing import NamedTuple

import numpy as np
from scipy import sparse
from sklearn.cluster import KMeans
from sklearn.decomposition import TruncatedSVD
from sklearn.exceptions import ConvergenceWarning
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS, TfidfTransformer
from sklearn.manifold import TSNE
from sklearn.preprocessing import normalize
from threadpoolctl import threadpool_limits

from catalogue.system.workers import cores
from catalogue.text import CJK_CHARACTERS, STOPWORDS, stem

SHARED_TERMS = 5
SCORE_DECIMALS = 6
BLOCK_CELLS = 2 ** 19  # scores a thread holds at once (float64: 4 MB), a square tile of them
PARTNER_LIMIT = 2 ** 32 - 1  # papers are numbered below this, in the low bits of a neighbour's key
COMMON_SHARE = 0.05  # a term in this share of the papers or more is cheaper in a dense product
DENSE_CELLS = 2 ** 22  # at most this many values in that dense part (32 MB)
PAIRS_AT_ONCE = 2000  # pairs of neighbours whose shared terms are found together
MAP_DIMENSIONS = 50  # TF-IDF is reduced to this many dimensions before the map is drawn
MAP_CLUSTERS = 500  # t-SNE lays out at most this many points: papers, or groups of similar papers
MAP_SPREAD = 0.5  # a group's radius on the map, as a share of the distance between neighbouring groups
MAP_GROUPS = 12  # the map shows at most this many groups of papers, one colour each (charts.PALETTE)
GROUP_TERMS = 3  # words that name a group
MAP_KEPT_SHARE = 0.01  # the map is kept and changed papers placed among it while at most this share differs

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

_HAS_CJK = re.compile(f"[{CJK_CHARACTERS}]")
_CJK_OR_NOT = re.compile(f"[{CJK_CHARACTERS}]+|[^{CJK_CHARACTERS}]+")
_HYPHEN = re.compile("[-\u2010\u2011]")
_TOKEN = re.compile(r"[^\W_]+(?:[-\u2010\u2011][^\W_]+)*|[^\w\s'\u2019]")  # a word, or a mark that ends a phrase
_PARTICLE = re.compile("[的了是在和与及或]")  # Chinese function characters: a pair with one is no term
_LINK = re.compile(r"(?:https?://|www\.)\S+|\S+@\S+")  # links and e-mail addresses: not words


@dataclass(frozen=True)
class Neighbour:
    """Another paper like this one: its index, the cosine of the two, the terms they share."""

    index: int
    score: float  # in (0, 1], six decimals
    shared_terms: tuple[str, ...]  # at most SHARED_TERMS, most telling first, as the catalogue writes them


def related_papers(texts: list[str], count: int = 5) -> list[tuple[Neighbour, ...]]:
    """For each text, the `count` most similar other texts: highest score first, ties by index.

    A paper is never its own neighbour; a duplicate is (score 1.0). Papers that share no term
    (score 0) are left out, so an empty or tiny text may have fewer neighbours, or none.
    """
    if count <= 0 or len(texts) < 2:
        return [() for _ in texts]
    vectors = _vectorise(tuple(texts))
    rows, columns, scores = _nearest(vectors.weights, count)
    terms = _shared_terms(vectors, rows, columns, texts)
    bounds = np.searchsorted(rows, np.arange(len(texts) + 1)).tolist()
    columns_, scores_ = columns.tolist(), scores.tolist()
    return [tuple(Neighbour(columns_[p], scores_[p], terms[p]) for p in range(bounds[i], bounds[i + 1]))
            for i in range(len(texts))]


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
    distinct = len(np.unique(np.round(reduced, 6), axis=0))
    k = min(MAP_GROUPS, max(1, round(math.sqrt(n))), distinct)
    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        fitted = KMeans(k, n_init=4, random_state=0).fit(reduced) if k > 1 else None
    labels = fitted.labels_ if fitted is not None else np.zeros(n, dtype=np.int64)
    closeness = (reduced * (fitted.cluster_centers_[labels] if fitted is not None else reduced.mean(axis=0))).sum(axis=1)
    vectors = _vectorise(tuple(texts))
    weights = vectors.weights
    overall = np.asarray(weights.mean(axis=0)).ravel()
    lower_case = {spelling for spelling in vectors.spellings if spelling.islower()}
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
    n = len(texts)
    weights = _vectorise(texts).weights if n > 1 else None
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


def _group_words(ranked: list[int], vectors: _Vectors, lower_case: set[str], limit: int,
                 written_in: Callable[[str], bool]) -> tuple[str, ...]:
    """The first `limit` phrases of the ranked terms, as written, none sharing a word with another:
    a pair of words takes the place of the chosen words it holds ('question', 'answering' ->
    'question answering'), and two pairs that chain make one phrase of three words ('stochastic
    gradient' + 'gradient descent' -> 'stochastic gradient descent') if the group's texts write
    those three words (`written_in`)."""
    chosen: list[tuple[tuple[str, ...], str]] = []  # (folded words, as written)
    for t in ranked:
        words, written = vectors.terms[t], _written_form(vectors, t, lower_case)
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


# --- Words -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Vectors:
    weights: sparse.csr_matrix  # papers x terms: TF-IDF (float32), rows of length 1, or 0 without terms
    terms: list[tuple[str, ...]]  # each term's folded words, sorted
    spellings: list[str]  # each phrase as written somewhere in the catalogue
    spelling_counts: np.ndarray  # how often each is written
    term_spellings: list[np.ndarray]  # for each term, its spellings


def phrases(text: str) -> list[str]:
    """The terms of a text as written: each word, and each pair of neighbouring words.

    Stop words, numbers, one-letter words, links and e-mail addresses are left out, and so
    is 'state-of-the-art'. A stop word or a punctuation mark ends a phrase; the parts of a
    hyphenated word pair with their hyphen ('pre-training'). A run of Chinese or Japanese
    characters gives its overlapping pairs of characters.
    """
    return _phrases(text, {})


def _phrases(text: str, known: dict[str, str | tuple]) -> list[str]:
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
        for piece in _CJK_OR_NOT.findall(word) if _HAS_CJK.search(word) else (word,):
            if _HAS_CJK.match(piece):
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


@functools.lru_cache(maxsize=1)  # a build asks for related papers, then the map, of the same texts
def _vectorise(texts: tuple[str, ...]) -> _Vectors:
    """Each text's TF-IDF vector, and the spellings to show its terms by."""
    known: dict[str, str | tuple] = {}
    spelling_ids: dict[str, int] = {}
    indices: list[int] = []
    indptr = [0]
    for text in texts:
        indices += [spelling_ids.setdefault(phrase, len(spelling_ids)) for phrase in _phrases(text, known)]
        indptr.append(len(indices))
    spellings = list(spelling_ids)
    written = sparse.csr_matrix((np.ones(len(indices), dtype=np.float32), np.array(indices, dtype=np.int64),
                                 np.array(indptr, dtype=np.int64)), shape=(len(texts), len(spellings)))
    keys = [term_key(spelling) for spelling in spellings]
    terms = sorted(set(keys))
    term_ids = {term: t for t, term in enumerate(terms)}
    spelling_term = np.array([term_ids[key] for key in keys], dtype=np.int64)
    to_terms = sparse.csr_matrix((np.ones(len(spellings), dtype=np.float32),
                                  (np.arange(len(spellings)), spelling_term)), shape=(len(spellings), len(terms)))
    counts = (written @ to_terms).tocsr()  # papers x terms
    if terms:
        weights = TfidfTransformer(sublinear_tf=True).fit_transform(counts).tocsr().astype(np.float32)
    else:
        weights = counts
    weights.sort_indices()
    by_term = np.argsort(spelling_term, kind="stable")
    bounds = np.searchsorted(spelling_term[by_term], np.arange(len(terms) + 1))
    return _Vectors(weights, terms, spellings, np.asarray(written.sum(axis=0)).ravel(),
                    [by_term[bounds[t]:bounds[t + 1]] for t in range(len(terms))])


def _written_form(vectors: _Vectors, term: int, lower_case: set[str]) -> str:
    """A term as the catalogue writes it most often ('models' for model/models), each word in
    lower case if it is ever written so (`lower_case`): 'LLMs' and 'ImageNet' keep their capitals,
    a sentence's first word loses its."""
    variants = [(vectors.spellings[s], int(vectors.spelling_counts[s])) for s in vectors.term_spellings[term]]
    by_lower: Counter[str] = Counter()
    for spelling, times in variants:
        by_lower[spelling.lower()] += times
    lower = min(by_lower, key=lambda form: (-by_lower[form], form))
    spelling = min((v for v in variants if v[0].lower() == lower), key=lambda v: (-v[1], v[0]))[0]
    return re.sub(r"[^\s\-\u2010\u2011]+", lambda word: word[0].lower() if word[0].lower() in lower_case else word[0],
                  spelling)


# --- Neighbours ------------------------------------------------------------------------------


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
    best = np.sort(best, axis=1)[:, ::-1]  # best first: highest score, then lowest column
    scores, columns = best >> 32, PARTNER_LIMIT - (best & PARTNER_LIMIT)
    found = scores > 0
    rows = np.broadcast_to(np.arange(n)[:, None], best.shape)
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
        return _best_of_rows(block, k)
    scale = 10 ** SCORE_DECIMALS
    rows, columns = np.nonzero(block >= ((floor - 0.501) / scale)[:, None])  # (a little below: rint decides)
    scores = np.rint(np.minimum(block[rows, columns], 1.0) * scale).astype(np.int64)
    keep = scores >= floor[rows]
    return rows[keep], columns[keep], scores[keep]


def _best_of_rows(block: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
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


def _shared_terms(vectors: _Vectors, rows: np.ndarray, columns: np.ndarray,
                  texts: list[str]) -> list[tuple[str, ...]]:
    """For each pair, the terms with the largest product of the two papers' weights, as written."""
    n = vectors.weights.shape[0]
    pairs, which = np.unique(np.minimum(rows, columns) * n + np.maximum(rows, columns), return_inverse=True)
    first, second = np.divmod(pairs, n)
    lower_case = {spelling for spelling in vectors.spellings if spelling.islower()}
    written: dict[int, str] = {}
    shared = []
    characters = {t for t, words in enumerate(vectors.terms) if _HAS_CJK.match(words[0])}
    for start in range(0, len(pairs), PAIRS_AT_ONCE):  # a few pairs at a time: their products are big
        chunk = slice(start, start + PAIRS_AT_ONCE)
        products = vectors.weights[first[chunk]].multiply(vectors.weights[second[chunk]]).tocsr()
        products.eliminate_zeros()
        products.sort_indices()
        pair = np.repeat(np.arange(products.shape[0]), np.diff(products.indptr))
        # By pair, then largest product (exact: float32 products in float64), equal products by term.
        ranked = products.indices[np.argsort(pair * 2.0 - products.data, kind="stable")].tolist()
        for p, (low, high) in enumerate(pairwise(products.indptr.tolist()), start):
            candidates = ranked[low:min(high, low + 3 * SHARED_TERMS)]
            joining = bool(characters) and not characters.isdisjoint(candidates)
            chosen = _fewest_repeats(candidates, vectors.terms, len(candidates) if joining else SHARED_TERMS)
            for t in chosen:
                if t not in written:
                    written[t] = _written_form(vectors, t, lower_case)
            terms = [written[t] for t in chosen]
            if joining:  # pairs of characters first joined, then cut to SHARED_TERMS
                terms = _join_characters(terms, texts[first[p]], texts[second[p]])[:SHARED_TERMS]
            shared.append(tuple(terms))
    return [shared[p] for p in which.ravel().tolist()]


def _join_characters(terms: list[str], text: str, other: str) -> list[str]:
    """Overlapping pairs of CJK characters joined back into the run both texts write
    ('图像', '像生', '生成' -> '图像生成'), in the place of the first."""
    joined = True
    while joined:
        joined = False
        for a, b in ((a, b) for a in range(len(terms)) for b in range(len(terms)) if a != b):
            left, right = terms[a], terms[b]
            run = left + right[1:]
            if _HAS_CJK.match(left) and _HAS_CJK.match(right) and left[-1] == right[0] and run in text and run in other:
                terms[min(a, b)] = run
                del terms[max(a, b)]
                joined = True
                break
    return terms


def _fewest_repeats(ranked: list[int], terms: list[tuple[str, ...]], limit: int) -> list[int]:
    """The first `limit` terms, leaving out a word a chosen bigram already shows, and letting
    a bigram take the place of the chosen words it contains ('diffusion' -> 'diffusion model')."""
    chosen: list[int] = []
    shown: set[str] = set()
    for t in ranked:
        words = terms[t]
        if len(words) == 1:
            if len(chosen) < limit and words[0] not in shown:
                chosen.append(t)
                shown.add(words[0])
            continue
        inside = [c for c in chosen if len(terms[c]) == 1 and terms[c][0] in words]
        if inside:
            chosen[chosen.index(inside[0])] = t
            chosen = [c for c in chosen if c not in inside[1:]]
            shown.update(words)
        elif len(chosen) < limit and not shown.issuperset(words):
            chosen.append(t)
            shown.update(words)
    return chosen


# --- The map ---------------------------------------------------------------------------------


class MapState(NamedTuple):
    """A map and what it was drawn from: the digest of each paper's text, the digests of the
    texts the last full layout laid out, each paper's place and the groups (map_groups)."""

    digests: tuple[str, ...]
    laid_out: tuple[str, ...]
    positions: list[tuple[float, float]]
    groups: list[tuple[tuple[str, ...], tuple[int, ...]]]


def text_digests(texts: list[str]) -> tuple[str, ...]:
    return tuple(blake2b(text.encode("utf-8"), digest_size=16).hexdigest() for text in texts)


def full_map(texts: list[str]) -> MapState:
    """The map laid out anew (map_layout, map_groups)."""
    digests = text_digests(texts)
    return MapState(digests, digests, map_layout(texts), map_groups(texts))


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
    if last is None or len(last.laid_out) <= MAP_CLUSTERS:
        return None
    digests = text_digests(texts)
    current, laid_out = Counter(digests), Counter(last.laid_out)
    if max((current - laid_out).total(), (laid_out - current).total()) > MAP_KEPT_SHARE * len(texts):
        return None
    places: dict[str, list[int]] = {}
    for index in reversed(range(len(last.digests))):
        places.setdefault(last.digests[index], []).append(index)
    was = [places[digest].pop() if places.get(digest) else None for digest in digests]
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
    perplexity = min(30.0, (len(points) - 1) / 3)
    # 500 iterations, not 1,000: the layout of a few hundred points has settled by then (KL 0.88 against 0.86).
    return TSNE(2, perplexity=perplexity, init="pca", learning_rate="auto", max_iter=500,
                random_state=0).fit_transform(points)


def _grouped_layout(points: np.ndarray) -> np.ndarray:
    """Groups of similar papers laid out by t-SNE; each paper near its group's centre."""
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


def main() -> None:
    """`python -m catalogue.discovery.similarity`, as the build runs it in a process of its own (related.py):
    on stdin, pickled, the texts and the last build's map (a MapState as a tuple, or None); on stdout,
    pickled as plain tuples (reading them needs no scikit-learn), first each paper's related papers
    as (index, shared terms), then each paper's place on the map, then the map's groups (map_groups),
    then the new MapState as a tuple."""
    texts, last = pickle.load(sys.stdin.buffer)
    neighbours = related_papers(texts)
    pickle.dump([tuple((n.index, n.shared_terms) for n in found) for found in neighbours], sys.stdout.buffer)
    sys.stdout.buffer.flush()  # the build writes paper pages while the map is drawn
    state = updated_map(texts, MapState(*last) if last else None, neighbours) or full_map(texts)
    pickle.dump(state.positions, sys.stdout.buffer)
    pickle.dump(state.groups, sys.stdout.buffer)
    pickle.dump(tuple(state), sys.stdout.buffer)


if __name__ == "__main__":
    main()
