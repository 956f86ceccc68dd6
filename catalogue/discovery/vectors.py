"""Each text's TF-IDF vector over the catalogue's terms (sublinear tf, smoothed idf, rows of
length 1), computed as scikit-learn computes it without importing scikit-learn, and the spellings
a term is shown by (`written_form`).
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from dataclasses import dataclass
from itertools import pairwise

import numpy as np
from scipy import sparse

from catalogue.discovery.terms import phrases_with, term_key


@dataclass(frozen=True)
class Vectors:
    weights: sparse.csr_matrix  # papers x terms: TF-IDF (float32), rows of length 1, or 0 without terms
    terms: list[tuple[str, ...]] | Terms  # each term's folded words, sorted
    spellings: list[str]  # each phrase as written somewhere in the catalogue
    spelling_counts: np.ndarray  # how often each is written
    term_spellings: Spellings  # for each term, its spellings
    idf: np.ndarray  # each term's idf (float32)
    spelling_terms: np.ndarray  # each spelling's term


@functools.lru_cache(maxsize=1)  # a build asks for related papers, then the map, of the same texts
def vectorise(texts: tuple[str, ...]) -> Vectors:
    """Each text's TF-IDF vector, and the spellings to show its terms by."""
    known: dict[str, str | tuple] = {}
    spelling_ids: dict[str, int] = {}
    indices: list[int] = []
    indptr = [0]
    for text in texts:
        indices += [spelling_ids.setdefault(phrase, len(spelling_ids)) for phrase in phrases_with(text, known)]
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
    weights, idf = tfidf(counts) if terms else (counts, np.zeros(0, dtype=np.float32))
    weights.sort_indices()
    return Vectors(weights, terms, spellings, np.asarray(written.sum(axis=0)).ravel(),
                    Spellings.of_terms(spelling_term, len(terms)), idf, spelling_term)


class Spellings:
    """For each term, its spellings (indices), found when asked for."""

    def __init__(self, order: np.ndarray, bounds: np.ndarray):
        self.order, self.bounds = order, bounds

    @classmethod
    def of_terms(cls, spelling_terms: np.ndarray, count: int) -> Spellings:
        order = np.argsort(spelling_terms, kind="stable")
        return cls(order, np.searchsorted(spelling_terms[order], np.arange(count + 1)))

    def __getitem__(self, term: int) -> np.ndarray:
        return self.order[self.bounds[term]:self.bounds[term + 1]]


class Terms:
    """The terms of a kept vocabulary (RelatedState.terms), each split into its words when asked for."""

    def __init__(self, lines: list[str]):
        self.lines = lines

    def __len__(self) -> int:
        return len(self.lines)

    def __getitem__(self, term: int) -> tuple[str, ...]:
        return tuple(self.lines[term].split(" "))


def tfidf(counts: sparse.csr_matrix, idf: np.ndarray | None = None) -> tuple[sparse.csr_matrix, np.ndarray]:
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


def written_form(vectors: Vectors, term: int, lower_case: set[str]) -> str:
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
