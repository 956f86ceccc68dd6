"""Names that are the field's, not the paper's: read across the papers of one venue-year.

An abstract read alone cannot tell "we train a GAN (GAN)" from "we propose FooGAN (FooGAN)": both
introduce something with a name. Its venue-year can: a name that at least SHARED_BY other
abstracts of the same venue and year write too (GAN, SVM, MCMC, ImageNet) is a term of the field.
The paper's name is then looked for among what else it introduces (often nothing), and its derived
title keeps its phrase without the term. A name a paper coins is rarely written by several other
papers of its own venue-year, which had not read it yet. Only derived names are judged: a title
the list gives names its paper itself.

A small list cannot tell: a reading list of a few dozen papers has few that share a term. The
terms many venue-years write (field_terms.json, learned from the corpus by
bench/train_field_terms.py) are the field's in any list, unless the paper is older than the
corpus's first use of the term (it may have coined it) or its abstract spells the term out in other
words than the field does ('Misinfo Reaction Frames (MRF)' coins a name; 'Markov random fields
(MRFs)' does not).
"""

from __future__ import annotations

import functools
import json
import re
from collections import defaultdict
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

from catalogue.ingest.extract import extract, plain_for_extraction
from catalogue.ingest.acronyms import expansion_before
from catalogue.ingest.name_shapes import marked_words, mentions
from catalogue.model import Paper, Topic

SHARED_BY = 3  # other abstracts of the venue-year that write a name make it the field's
FIELD_TERMS = Path(__file__).with_name("field_terms.json")


class FieldTerm(NamedTuple):
    since: int | None  # the first year the corpus writes it; None when the corpus's first year does (it may be older)
    expansions: frozenset[str]  # the keys (expansion_key) of the words the field writes it for


Known = dict[str, FieldTerm]


@functools.lru_cache(maxsize=1)
def shipped_terms() -> Known:
    """The field's terms learned from the corpus (FIELD_TERMS)."""
    terms = json.loads(FIELD_TERMS.read_text(encoding="utf-8"))["terms"]
    return {term: FieldTerm(known["since"], frozenset(known["expansions"])) for term, known in terms.items()}


def field_terms(papers: list[Paper], known: Known | None = None) -> dict[str, frozenset[str]]:
    """{paper id: its derived names that are the field's: known terms (the shipped list unless
    given), or names SHARED_BY other abstracts of its venue-year write}."""
    known = shipped_terms() if known is None else known
    venue_years: dict[tuple, list[Paper]] = defaultdict(list)
    for paper in papers:
        venue_years[paper.venue, paper.year].append(paper)
    terms: dict[str, frozenset[str]] = {}
    for group in venue_years.values():
        judged = [paper for paper in group if paper.title_source == "derived" and paper.name]
        if not judged:
            continue
        plain = {paper.id: plain_for_extraction(paper.abstract) for paper in group}  # as the names were read
        writing = writers(plain) if len(group) > SHARED_BY else {}
        for paper in judged:
            shared = frozenset(name for name in (paper.name, *paper.other_names)
                               if is_known_term(name, paper, plain[paper.id], known)
                               or writing and len(papers_writing(name, writing, plain) - {paper.id}) >= SHARED_BY)
            if shared:
                terms[paper.id] = shared
    return terms


def is_known_term(name: str, paper: Paper, plain: str, known: Known) -> bool:
    """A known term, unless the paper is older than the corpus's first use of it (it may have coined it:
    'SVRG' in the paper that introduced it, which others wrote from the next year) or its abstract spells
    it out in words the field does not."""
    term = known.get(name)
    if term is None or term.since is not None and paper.year is not None and int(paper.year) < term.since:
        return False
    spelled = spelled_out(name, plain)
    return spelled is None or spelled in term.expansions


def spelled_out(name: str, plain: str) -> str | None:
    """The key of the words an abstract writes the name for, 'Markov random fields (MRFs)' (None: none)."""
    at = plain.find(f"({name})")
    words = expansion_before(name, plain[:at].rstrip()) if at > 0 else None
    return expansion_key(words) if words else None


def expansion_key(words: str) -> str:
    """An expansion as compared: lower case, each word without a final 's', hyphens as spaces."""
    return " ".join(word.removesuffix("s") for word in re.findall(r"[a-z0-9]+", words.lower()))


def writers(plain: dict[str, str]) -> dict[str, set[str]]:
    """{a word not all in lower case (a capital, a digit): the ids of the papers whose plain abstract writes it}."""
    writing: dict[str, set[str]] = defaultdict(set)
    for pid, text in plain.items():
        for word in marked_words(text):
            writing[word].add(pid)
    return writing


def papers_writing(name: str, writing: dict[str, set[str]], plain: dict[str, str]) -> set[str]:
    """The ids of the papers whose abstract writes the name, in the singular or the plural. A
    name all in lower case is not looked for."""
    marked = [writing.get(word, set()) | writing.get(f"{word}s", set()) for word in marked_words(name)]
    if not marked:
        return set()
    found = set.intersection(*marked)
    if len(found) < SHARED_BY or " " not in name.strip():
        return found
    return {pid for pid in found if mentions(plain[pid], name)}  # a phrase: its words in order


def without_field_terms(papers: list[Paper], taxonomy: tuple[Topic, ...], fallback: str,
                        known: Known | None = None) -> list[Paper]:
    """The papers, in order; those whose derived name is a field term (field_terms) derived again
    without it: name, other names, title, topics and benchmarks (a dataset is no longer the paper's own)."""
    terms = field_terms(papers, known)
    return [_derived_without(paper, terms[paper.id], taxonomy, fallback) if paper.id in terms else paper
            for paper in papers]


def _derived_without(paper: Paper, terms: frozenset[str], taxonomy: tuple[Topic, ...], fallback: str) -> Paper:
    """The paper's name, other names, topics and benchmarks derived again without the terms. Its
    title keeps its phrase, led by the new name if there is one ("GAN: A Method for X" -> "A
    Method for X"): the phrase was chosen for the paper, the term only led it."""
    prefix = f"{paper.name}: "
    phrase = paper.title.removeprefix(prefix) if paper.title.startswith(prefix) else None
    found = extract(paper.abstract, taxonomy, fallback, title=phrase, keywords=paper.keywords, not_names=terms)
    title = found.title if phrase is None else f"{found.name}: {phrase}" if found.name else phrase
    return replace(paper, name=found.name, other_names=found.other_names, title=title, topics=found.topics,
                   benchmarks=found.benchmarks)
