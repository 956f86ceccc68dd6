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

import base64
import functools
import importlib.util
import math
import pickle
import re
import sys
import threading
import warnings
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from hashlib import blake2b
from itertools import pairwise
from pathlib import Path
from typing import BinaryIO, NamedTuple

import numpy as np
from scipy import sparse
from threadpoolctl import threadpool_limits

from catalogue.discovery.related import MAP_CLUSTERS, MAP_TOOLS
from catalogue.system.cache import Cache
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
MAP_SPREAD = 0.5  # a group's radius on the map, as a share of the distance between neighbouring groups
MAP_GROUPS = 12  # the map shows at most this many groups of papers, one colour each (charts.PALETTE)
GROUP_TERMS = 3  # words that name a group
MAP_KEPT_SHARE = 0.01  # the map is kept and changed papers placed among it while at most this share differs
RELATED_KEPT_SHARE = 0.01  # the last vocabulary and weights are kept while at most this share of texts differs
RELATED_FOUND_ANEW_UP_TO = 500  # a catalogue this small has its related papers found anew, in a moment
LINE, PART = "|", "/"  # never in a term (letters, digits, hyphens, spaces), unlike a line break


def _english_stop_words() -> frozenset[str]:
    """scikit-learn's English stop words, read from their own module file: importing any part of
    scikit-learn imports most of it (and SciPy's statistics) first, which related papers need not
    wait for. Its t-SNE, k-means and SVD are imported only when a map is laid out (MAP_TOOLS)."""
    location = Path(importlib.util.find_spec("sklearn").origin).parent / "feature_extraction" / "_stop_words.py"
    spec = importlib.util.spec_from_file_location("sklearn_english_stop_words", location)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.ENGLISH_STOP_WORDS


ENGLISH_STOP_WORDS = _english_stop_words()

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
    from sklearn.cluster import KMeans
    from sklearn.exceptions import ConvergenceWarning
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
    lower_case = set(vectors.spellings)  # (see _shared_terms)
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
    terms: list[tuple[str, ...]] | _Terms  # each term's folded words, sorted
    spellings: list[str]  # each phrase as written somewhere in the catalogue
    spelling_counts: np.ndarray  # how often each is written
    term_spellings: _Spellings  # for each term, its spellings
    idf: np.ndarray  # each term's idf (float32)
    spelling_terms: np.ndarray  # each spelling's term


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
    weights, idf = _tfidf(counts) if terms else (counts, np.zeros(0, dtype=np.float32))
    weights.sort_indices()
    return _Vectors(weights, terms, spellings, np.asarray(written.sum(axis=0)).ravel(),
                    _Spellings.of_terms(spelling_term, len(terms)), idf, spelling_term)


class _Spellings:
    """For each term, its spellings (indices), found when asked for."""

    def __init__(self, order: np.ndarray, bounds: np.ndarray):
        self.order, self.bounds = order, bounds

    @classmethod
    def of_terms(cls, spelling_terms: np.ndarray, count: int) -> _Spellings:
        order = np.argsort(spelling_terms, kind="stable")
        return cls(order, np.searchsorted(spelling_terms[order], np.arange(count + 1)))

    def __getitem__(self, term: int) -> np.ndarray:
        return self.order[self.bounds[term]:self.bounds[term + 1]]


class _Terms:
    """The terms of a kept vocabulary (RelatedState.terms), each split into its words when asked for."""

    def __init__(self, lines: list[str]):
        self.lines = lines

    def __len__(self) -> int:
        return len(self.lines)

    def __getitem__(self, term: int) -> tuple[str, ...]:
        return tuple(self.lines[term].split(" "))


def _tfidf(counts: sparse.csr_matrix, idf: np.ndarray | None = None) -> tuple[sparse.csr_matrix, np.ndarray]:
    """TF-IDF (sublinear tf, smoothed idf, rows of length 1) of a papers x terms count matrix, and
    the idf, taken from the counts unless given: as scikit-learn's TfidfTransformer computes them,
    to the bit (float32, each row's length summed in float64 in the order of its terms), without
    importing scikit-learn."""
    weights = counts.astype(np.float32)  # a copy
    if idf is None:
        papers_with = np.bincount(weights.indices, minlength=weights.shape[1]).astype(np.float32) + np.float32(1)
        idf = np.full_like(papers_with, weights.shape[0] + 1)
        idf /= papers_with
        np.log(idf, out=idf)
        idf += np.float32(1)
    np.log(weights.data, out=weights.data)
    weights.data += np.float32(1)
    weights.data *= idf[weights.indices]
    _scale_rows(weights)
    return weights, idf


def _scale_rows(weights: sparse.csr_matrix) -> None:
    """Each row divided by its length, in place; the squares (float32) added up one after the
    other in float64, as scikit-learn does, so the same rows give the same bits."""
    lengths = np.diff(weights.indptr)
    rows = np.repeat(np.arange(weights.shape[0]), lengths)
    place = np.arange(weights.nnz) - weights.indptr[rows]  # each value's place in its row
    by_place = np.argsort(place, kind="stable")
    bounds = np.searchsorted(place[by_place], np.arange(int(lengths.max(initial=0)) + 1))
    squares = (weights.data * weights.data).astype(np.float64)
    sums = np.zeros(weights.shape[0])
    for start, end in pairwise(bounds.tolist()):  # the first value of every row, then the second, ...
        taken = by_place[start:end]
        sums[rows[taken]] += squares[taken]
    norms = np.sqrt(sums)[rows]
    scaled = norms > 0
    weights.data[scaled] = (weights.data[scaled].astype(np.float64) / norms[scaled]).astype(np.float32)


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
    lower_case = set(vectors.spellings)  # a word is written in lower case somewhere if its lower case is a spelling
    written: dict[int, str] = {}
    shared = []
    characters = {t for t in range(len(vectors.terms)) if _HAS_CJK.match(vectors.terms[t][0])} \
        if any(_HAS_CJK.search(texts[p]) for p in np.unique(first).tolist()) else set()
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


# --- Related papers kept across an edit ------------------------------------------------------


class RelatedState(NamedTuple):
    """Related papers and what they were found from, for the next build (updated_related): the
    digest of each paper's text and of the texts the last full computation read; that
    computation's vocabulary (its terms, their idf, their spellings and how often each is
    written); each paper's TF-IDF vector and neighbours (their papers, scores and shared terms).
    Arrays are packed as (dtype, base64), lists of words as text parted by LINE and PART: the
    cache keeps JSON, and these need no escapes there."""

    digests: tuple[str, ...]
    computed: tuple[str, ...]
    terms: str  # a term a LINE, its words parted by spaces
    idf: tuple[str, str]
    spellings: str  # a spelling a LINE
    spelling_counts: tuple[str, str]
    spelling_terms: tuple[str, str]
    weights: tuple[tuple[str, str], tuple[str, str], tuple[str, str]]  # CSR: data, indices, indptr
    neighbours: tuple[tuple[str, str], tuple[str, str], tuple[str, str]]  # each paper's first, columns, scores
    shared_terms: str  # a neighbour a LINE, its terms parted by PART


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
        return found, _related_state(digests, digests, ("", _packed(np.zeros(0, np.float32)), "",
                                                        _packed(np.zeros(0, np.float32)), _packed(np.zeros(0, np.int64))),
                                     sparse.csr_matrix((len(texts), 0), dtype=np.float32), found)
    vectors = _vectorise(tuple(texts))
    vocabulary = (LINE.join(" ".join(term) for term in vectors.terms), _packed(vectors.idf), LINE.join(vectors.spellings),
                  _packed(vectors.spelling_counts), _packed(vectors.spelling_terms))
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
    (a term it alone brings counts for nothing, a spelling keeps the written form it had) and
    compared with every paper; every other paper keeps its vector, so a pair of unchanged
    papers keeps its score and shared terms. Each paper then has exactly its `count` best
    neighbours under the kept weights: a paper whose last neighbours include a changed one is
    compared with every paper again, the others with the changed papers alone."""
    if last is None or len(last.computed) <= RELATED_FOUND_ANEW_UP_TO or count <= 0:
        return None
    digests = text_digests(texts)
    if not _within_share(digests, last.computed, RELATED_KEPT_SHARE):
        return None
    was = _previous_places(digests, last.digests)
    unchanged = [old for old in was if old is not None]
    if unchanged != sorted(unchanged):  # ties go to the lower index: a new order could break them otherwise
        return None
    kept = _kept_vectors(last)
    changed = [index for index, old in enumerate(was) if old is None]
    rows = sparse.vstack([kept.weights, _weigh(kept, last.terms, [texts[index] for index in changed])]).tocsr()
    added = iter(range(kept.weights.shape[0], rows.shape[0]))
    weights = rows[[old if old is not None else next(added) for old in was]]
    weights.sort_indices()
    vectors = replace(kept, weights=weights)
    first, columns, scores = (_unpacked(packed) for packed in last.neighbours)
    shared = [tuple(line.split(PART)) if line else () for line in last.shared_terms.split(LINE)]
    new_index = np.full(len(last.digests), -1, dtype=np.int64)  # old paper -> new (-1: its text is gone)
    new_index[unchanged] = [index for index, old in enumerate(was) if old is not None]
    best, known = _kept_neighbours(was, first, new_index[columns], scores, shared, count)
    _add_changed(best, weights, changed)
    found = _from_keys(best, vectors, texts, known)
    return found, _related_state(digests, last.computed, last[2:7], weights, found)


def _within_share(digests: tuple[str, ...], computed: tuple[str, ...], share: float) -> bool:
    """Whether the texts differ from those of the last full computation by at most `share` of
    them, as multisets: the larger of the texts added and the texts gone (an edit is one of each)."""
    current, before = Counter(digests), Counter(computed)
    return max((current - before).total(), (before - current).total()) <= share * len(digests)


def _previous_places(digests: tuple[str, ...], previous: tuple[str, ...]) -> list[int | None]:
    """Each paper's index in the previous list of texts, None for a text it did not hold (a
    repeated text takes the places in order)."""
    places: dict[str, list[int]] = {}
    for index in reversed(range(len(previous))):
        places.setdefault(previous[index], []).append(index)
    return [places[digest].pop() if places.get(digest) else None for digest in digests]


def _kept_neighbours(was: list[int | None], first: np.ndarray, columns: np.ndarray, scores: np.ndarray,
                     shared: list[tuple[str, ...]], count: int) -> tuple[np.ndarray, dict[tuple[int, int], tuple]]:
    """Each paper's best keys so far (as _keep_best orders them): the last neighbours of a paper
    whose text and neighbours are all kept (`columns`: the neighbours' new indices, -1 for a text
    gone), -1 for the others, found anew; and the shared terms of each kept pair, by (paper, neighbour)."""
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
    known = dict(zip(zip(rows.tolist(), columns[keep].tolist()), (shared[at] for at in np.flatnonzero(keep).tolist())))
    return best, known


def _add_changed(best: np.ndarray, weights: sparse.csr_matrix, changed: list[int]) -> None:
    """Each paper's best neighbours with the changed papers among the candidates; a paper
    without kept neighbours (changed, or one of its neighbours changed) compared with all.
    Products of float32 weights summed in float64, as _nearest sums them."""
    k = best.shape[1]
    weights = weights.astype(np.float64)
    lost = np.flatnonzero(best[:, 0] < 0)  # found anew: compared with every paper
    anew = set(lost.tolist())
    for start in range(0, len(lost), 256):  # a few rows at a time: each is a row of the whole catalogue
        taken = lost[start:start + 256]
        block = (weights[taken] @ weights.T).toarray()
        block[np.arange(len(taken)), taken] = -1.0  # never itself
        rows, found, scores = _best_of_rows(block, k)
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


def _from_keys(best: np.ndarray, vectors: _Vectors, texts: list[str],
               known: dict[tuple[int, int], tuple[str, ...]]) -> list[tuple[Neighbour, ...]]:
    """Each paper's neighbours from its best keys, their shared terms kept where the pair was
    kept, found (_shared_terms) for the others."""
    best = np.sort(best, axis=1)[:, ::-1]
    scores, columns = best >> 32, PARTNER_LIMIT - (best & PARTNER_LIMIT)
    found = scores > 0
    rows = np.broadcast_to(np.arange(len(best))[:, None], best.shape)[found]
    columns, scores = columns[found], scores[found]
    pairs = list(zip(rows.tolist(), columns.tolist()))
    missing = [p for p, pair in enumerate(pairs) if pair not in known]
    terms = _shared_terms(vectors, rows[missing], columns[missing], texts) if missing else []
    made = dict(zip((pairs[p] for p in missing), terms))
    bounds = np.searchsorted(rows, np.arange(len(texts) + 1)).tolist()
    values = (scores / 10 ** SCORE_DECIMALS).tolist()
    return [tuple(Neighbour(pairs[p][1], values[p], known[pairs[p]] if pairs[p] in known else made[pairs[p]])
                  for p in range(bounds[i], bounds[i + 1])) for i in range(len(texts))]


def _weigh(vectors: _Vectors, terms: str, texts: list[str]) -> sparse.csr_matrix:
    """The texts' TF-IDF vectors in the vocabulary of `vectors` (`terms`: as RelatedState keeps
    them), with its idf; terms it lacks left out."""
    term_ids = dict(zip(terms.split(LINE), range(len(vectors.terms)))) if terms else {}
    indices: list[int] = []
    indptr = [0]
    for text in texts:
        counted = Counter(term_ids.get(" ".join(term_key(phrase))) for phrase in _phrases(text, {}))
        counted.pop(None, None)
        indices += sorted(counted.elements())
        indptr.append(len(indices))
    ones = np.ones(len(indices), dtype=np.float32)
    counts = sparse.csr_matrix((ones, np.array(indices, dtype=np.int64), np.array(indptr, dtype=np.int64)),
                               shape=(len(texts), len(vectors.terms)))
    counts.sum_duplicates()
    return _tfidf(counts, vectors.idf)[0]


def _related_state(digests: tuple[str, ...], computed: tuple[str, ...], vocabulary: tuple,
                   weights: sparse.csr_matrix, found: list[tuple[Neighbour, ...]]) -> RelatedState:
    first = np.cumsum([0] + [len(neighbours) for neighbours in found])
    flat = [n for neighbours in found for n in neighbours]
    return RelatedState(digests, computed, *vocabulary,
                        (_packed(weights.data), _packed(weights.indices), _packed(weights.indptr)),
                        (_packed(first), _packed(np.array([n.index for n in flat], dtype=np.int64)),
                         _packed(np.array([round(n.score * 10 ** SCORE_DECIMALS) for n in flat], dtype=np.int64))),
                        LINE.join(PART.join(n.shared_terms) for n in flat))


def _kept_vectors(state: RelatedState) -> _Vectors:
    """The vectors and vocabulary a RelatedState keeps, as _vectorise made them."""
    terms = _Terms(state.terms.split(LINE) if state.terms else [])
    spelling_terms = _unpacked(state.spelling_terms)
    data, indices, indptr = (_unpacked(packed) for packed in state.weights)
    weights = sparse.csr_matrix((data, indices, indptr), shape=(len(state.digests), len(terms)))
    return _Vectors(weights, terms, state.spellings.split(LINE) if state.spellings else [],
                    _unpacked(state.spelling_counts), _Spellings.of_terms(spelling_terms, len(terms)),
                    _unpacked(state.idf), spelling_terms)


def _packed(array: np.ndarray) -> tuple[str, str]:
    return array.dtype.str, base64.b64encode(np.ascontiguousarray(array).tobytes()).decode("ascii")


def _unpacked(packed: tuple[str, str]) -> np.ndarray:
    dtype, data = packed
    return np.frombuffer(base64.b64decode(data), dtype=np.dtype(dtype)).copy()


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


def may_keep_map(texts: list[str], last: MapState | None) -> bool:
    """Whether updated_map may keep the last map: False when it will surely be laid out anew."""
    return (last is not None and len(last.laid_out) > MAP_CLUSTERS
            and _within_share(text_digests(texts), last.laid_out, MAP_KEPT_SHARE))


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
    was = _previous_places(digests, last.digests)
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


def main(requests: BinaryIO, answers: BinaryIO, named: tuple[str, str, str] | None) -> None:
    """Answer one build (related.py forks a process to run this; `python -m catalogue.discovery.similarity
    [CACHE_FILE KIND KEY]` runs it on stdin and stdout): on `requests`, pickled, the texts, the last
    build's map (a MapState as a tuple, or None) and where the related papers' state is kept (the
    cache's file, the entry's kind and key; or None); on `answers`, pickled as plain tuples (reading
    them needs no scikit-learn), first each paper's related papers as (index, shared terms), then
    each paper's place on the map, then the map's groups (map_groups), then the new MapState as a
    tuple. It stores the new RelatedState where the last one was kept once the related papers are
    sent, before the map is drawn, which so does not hold it. `named`, that place is read at once,
    while the build ingests."""
    # (Only a cache that exists: the build makes a new one, with its key.)
    cache, last_related = _stored_related(named if named and Path(named[0]).is_file() else None)
    small = last_related is None or len(RelatedState(*last_related).computed) <= MAP_CLUSTERS
    loading = threading.Thread(target=lambda: [importlib.import_module(name) for name in MAP_TOOLS], daemon=True)
    if small:  # no state, or a small catalogue's: its map will be laid out anew, so load what that needs now
        loading.start()
    texts, last_map, stored = pickle.load(requests)
    last_map = MapState(*last_map) if last_map else None
    if not small and not may_keep_map(texts, last_map):  # loaded while related papers are found
        loading.start()
    where = tuple(stored) if stored else None
    if where != named or cache is None:  # not read at the start, or asked with another cache than the one named
        if cache:
            cache.close()
        cache, last_related = _stored_related(where)
    neighbours, related = found_related(texts, RelatedState(*last_related) if last_related else None)
    del last_related
    pickle.dump([tuple((n.index, n.shared_terms) for n in found) for found in neighbours], answers)
    answers.flush()  # the build writes paper pages while the map is drawn
    if cache:  # stored before the map is drawn, and let go: the map needs none of it
        cache.put(where[1], where[2], tuple(related))
        cache.keep_only(where[1], [where[2]])
        cache.close()
    del related
    state = updated_map(texts, last_map, neighbours)
    del neighbours, last_map  # a map laid out anew reads only the texts
    if state is None:
        if loading.is_alive():
            loading.join()  # not two threads importing one package: either could see it half made
        state = full_map(texts)
    pickle.dump(state.positions, answers)
    pickle.dump(state.groups, answers)
    pickle.dump(tuple(state), answers)
    answers.flush()


def _stored_related(where: tuple[str, str, str] | None) -> tuple[Cache | None, tuple | None]:
    """The cache of (file, kind, key) and the RelatedState kept there as a tuple (or None); (None, None) for no place."""
    if where is None:
        return None, None
    cache = Cache(Path(where[0]), plain=True)
    return cache, cache.get(where[1], where[2])


if __name__ == "__main__":
    main(sys.stdin.buffer, sys.stdout.buffer, tuple(sys.argv[1:4]) if len(sys.argv) == 4 else None)
