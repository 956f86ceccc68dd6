"""Names that are the field's, not the paper's: read across the papers of one venue-year.

An abstract read alone cannot tell "we train a GAN (GAN)" from "we propose FooGAN (FooGAN)": both
introduce something with a name. Its venue-year can: a name that at least SHARED_BY other
abstracts of the same venue and year write too (GAN, SVM, MCMC, ImageNet) is a term of the field.
The paper's name is then looked for among what else it introduces (often nothing), and its derived
title keeps its phrase without the term. A name a paper coins is rarely written by several other
papers of its own venue-year, which had not read it yet. Only derived names are judged: a title
the list gives names its paper itself.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

from catalogue.ingest.extract import extract, plain_for_extraction
from catalogue.ingest.names import marked_words, mentions
from catalogue.model import Paper, Topic

SHARED_BY = 3  # other abstracts of the venue-year that write a name make it the field's


def field_terms(papers: list[Paper]) -> dict[str, frozenset[str]]:
    """{paper id: its derived names that SHARED_BY other abstracts of its venue-year write}."""
    venue_years: dict[tuple, list[Paper]] = defaultdict(list)
    for paper in papers:
        venue_years[paper.venue, paper.year].append(paper)
    terms: dict[str, frozenset[str]] = {}
    for group in venue_years.values():
        judged = [paper for paper in group if paper.title_source == "derived" and paper.name]
        if len(group) <= SHARED_BY or not judged:
            continue
        plain = {paper.id: plain_for_extraction(paper.abstract) for paper in group}  # as the names were read
        writing = _writers(plain)
        for paper in judged:
            shared = frozenset(name for name in (paper.name, *paper.other_names)
                               if len(_papers_writing(name, writing, plain) - {paper.id}) >= SHARED_BY)
            if shared:
                terms[paper.id] = shared
    return terms


def _writers(plain: dict[str, str]) -> dict[str, set[str]]:
    """{a word not all in lower case (a capital, a digit): the ids of the papers whose plain abstract writes it}."""
    writing: dict[str, set[str]] = defaultdict(set)
    for pid, text in plain.items():
        for word in marked_words(text):
            writing[word].add(pid)
    return writing


def _papers_writing(name: str, writing: dict[str, set[str]], plain: dict[str, str]) -> set[str]:
    """The ids of the papers whose abstract writes the name, in the singular or the plural. A
    name all in lower case is not looked for."""
    marked = [writing.get(word, set()) | writing.get(f"{word}s", set()) for word in marked_words(name)]
    if not marked:
        return set()
    found = set.intersection(*marked)
    if len(found) < SHARED_BY or " " not in name.strip():
        return found
    return {pid for pid in found if mentions(plain[pid], name)}  # a phrase: its words in order


def without_field_terms(papers: list[Paper], taxonomy: tuple[Topic, ...], fallback: str) -> list[Paper]:
    """The papers, in order; those whose derived name is a field term (field_terms) derived again
    without it: name, other names, title, topics and benchmarks (a dataset is no longer the paper's own)."""
    terms = field_terms(papers)
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
