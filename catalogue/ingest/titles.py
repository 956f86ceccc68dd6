"""A readable title derived from an abstract: the span of its words most likely to be the title.

Each word of the abstract gets the probability that the real title holds it, from a small
logistic model learned from real title-abstract pairs (catalogue/ingest/title_model.json, written by
bench/train_titles.py). Candidate spans are whole phrases of one sentence: they start where a
phrase starts and end where one ends, never on a word that needs another after it, and never run
through a finite verb ('Tasks Contain Uncertainty' is a sentence, not a title). Without a name a
phrase needs five words, or three when two of them side by side are seldom written together (a
field's name, 'Stochastic Gradient Descent', is common to many abstracts) and nothing continues it.
The verbs and the common pairs are learned with the word model. A subject the abstract frames ("we study
the problem of X") is X, which may be two words long; the frame is never part of a title. A phrase that opens on
others' work or the field at large ('Recent Advances in ...', 'Existing Methods for ...': real titles do not) is the
title only when the abstract offers no other phrase. The chosen span maximises the
expected token F1 against a title of typical length, so a span of unlikely words loses to a
shorter one: when nothing fits well the title says less. A named contribution leads the title
("Name: span"). Math is kept exactly as the abstract writes it.

An abstract's words are read in abstract_words, weighed by the word model in title_model, made into
candidate phrases in title_spans and cased in title_casing; this module chooses the title, keeps two
papers of a venue-year from sharing one, and compares titles.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import replace

from catalogue.ingest.abstract_words import (CLAUSAL, LINKING, LONGEST_SPAN, NOT_FIRST, TOKEN, Word, open_brackets,
                                             read_abstract, tokens_of)
from catalogue.ingest.acronyms import normalise_expansion
from catalogue.ingest.claim_titles import claim_title
from catalogue.ingest.title_casing import articles_agree, title_case, without_novel
from catalogue.ingest.title_model import TitleModel, load_model, token_probabilities
from catalogue.ingest.title_spans import Span, candidate_spans
from catalogue.model import Paper

MAX_TITLE = 110
# A title without a name needs a few words to tell its paper from others ("Deep Neural Networks"):
# fewer when two of them are seldom written together ("Fine-Grained Visual Entailment").
_SHORTEST_SPAN = {True: 2, False: 5}
_SHORTEST_SPECIFIC = {True: 2, False: 3}
HTML_TAG = re.compile(r"</?[A-Za-z][\w:-]*(?:\s[^<>]*)?/?>")  # a tag, not the `<` of `$k<n$ or $m>2$`


def derive_title(abstract: str, name: str | None, model: TitleModel | None = None) -> str:
    """'Name: phrase' when the abstract names its contribution, else the phrase, in title case."""
    return next(ranked_titles(abstract, name, model))


def ranked_titles(abstract: str, name: str | None, model: TitleModel | None = None) -> Iterator[str]:
    """The titles the abstract could have, best first (the first is derive_title's), a phrase on others'
    work after every other (_rank); last, what the rule says when no phrase fits: the name alone, else
    the abstract's opening words."""
    model = model or load_model()
    prefix = f"{name}: " if name else ""
    claimed = claim_title(abstract, name, model, MAX_TITLE - 1)
    if claimed:
        yield claimed
    read = read_abstract(abstract)
    words = read.words
    room = MAX_TITLE - len(prefix) - 1  # 'a' may become 'an'
    probabilities = token_probabilities(read, model)
    name_tokens = tokens_of(name) if name else ()
    spans = candidate_spans(words, probabilities, model, name, room, _SHORTEST_SPAN[bool(name)],
                            _SHORTEST_SPECIFIC[bool(name)])
    while spans:
        best = max(spans, key=_rank)  # the first of equals
        spans.remove(best)
        if tuple(t for w in words[best.start:best.end] for t in w.tokens) != name_tokens:
            yield title_of(words, best, name)  # (not the name again in other words: "Pyramid BERT" for Pyramid-BERT)
    yield name or _opening(words) or "Untitled abstract"


def _rank(span: Span) -> tuple[bool, float]:
    """A phrase about others' work is a title only when the abstract offers no other (_BACKGROUND)."""
    return not span.background, span.expected_f1


def title_words(title: str) -> list[str]:
    """A title's lower-case words, without HTML tags, `$` or the backslashes of LaTeX commands:
    `<b>N</b>euron` is one word, `$\\alpha$` is `alpha`."""
    text = HTML_TAG.sub("", title).replace("$", "")
    return TOKEN.findall(re.sub(r"\\(?=[A-Za-z])", "", text).lower())


def title_key(title: str) -> str:
    """What two titles share when they are the same title, case and punctuation aside."""
    return " ".join(title_words(title))


def distinct_titles(papers: list[Paper]) -> list[Paper]:
    """The papers, in order, no two of one venue-year with the same derived title (title_key).

    A title derives from one abstract, blind to the others: several abstracts of a venue-year may
    open with the same field phrase. The first paper (in the order given, the seeds') keeps its
    title; each later one takes its next-best title (ranked_titles) that no derived title of the
    venue-year has, or keeps its own when none is free. A title the list gives is never changed, and
    one a person edited is kept by ingest's merge, as every edited field is.
    """
    venue_years: dict[tuple, list[Paper]] = defaultdict(list)
    for paper in papers:
        if paper.title_source == "derived":
            venue_years[paper.venue, paper.year].append(paper)
    renamed: dict[str, Paper] = {}
    for group in venue_years.values():
        taken = {title_key(paper.title) for paper in group}
        kept: set[str] = set()
        for paper in group:
            if title_key(paper.title) not in kept:
                kept.add(title_key(paper.title))
                continue
            title = next((t for t in ranked_titles(paper.abstract, paper.name) if title_key(t) not in taken), None)
            if title:
                taken.add(title_key(title))
                renamed[paper.id] = replace(paper, title=title)
    return [renamed.get(paper.id, paper) for paper in papers]


def title_of(words: tuple[Word, ...], span: Span, name: str | None) -> str:
    # an expansion's capitals that mark its acronym's letters are not the title's ('REconstruction')
    phrase = [normalise_expansion(words[index].core) for index in range(span.start, span.end)]
    return (f"{name}: " if name else "") + title_case(articles_agree(without_novel(phrase)))


def _opening(words: tuple[Word, ...]) -> str:
    """The opening words of the abstract up to its first break or verb, when no phrase qualifies."""
    opening: list[str] = []
    for word in words[:LONGEST_SPAN]:
        if not opening and word.lowered in NOT_FIRST:  # "We ...", "In ...": from the first word a title may open
            continue
        if word.sentence or word.opens or not word.core or (opening and word.lowered in CLAUSAL):
            break  # a noun phrase, not a sentence
        opening.append(word.core)
        if word.closes:
            break
    while opening and (opening[-1].lower() in LINKING or opening[-1].endswith("-")
                       or sum(open_brackets(word) for word in opening)):
        opening.pop()
    text = title_case(articles_agree(opening)) if opening else ""
    return text if len(text) <= MAX_TITLE else _cut_characters(text)


def _cut_characters(text: str) -> str:
    """A text with no word boundary to cut at (a Chinese sentence): cut it, never inside math."""
    cut = text[:MAX_TITLE - 1]
    if cut.count("$") % 2:
        cut = cut[:cut.rindex("$")]
    return cut.rstrip() + "\u2026"
