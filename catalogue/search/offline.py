"""The offline index: a plain script (site/search-index.js), so that search works from file://
too, where Pagefind cannot load: each paper with its name, title, venue, topics, authors and the
abstract words that set it apart most."""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import dataclass

from catalogue import routes
from catalogue.text import CJK_RUN, STOPWORDS, has_cjk, words

FALLBACK_FILE = "search-index.js"
TERMS_PER_PAPER = 16
CJK_PIECES_PER_PAPER = 400


@dataclass(frozen=True)
class SearchEntry:
    """What the offline search knows of a paper (plain text, no markup)."""

    path: str
    name: str
    title: str
    venue: str
    topics: tuple[int, ...]  # indexes into the topic labels
    abstract: str
    authors: tuple[str, ...] = ()
    id: str = ""  # the paper's id, which the reading list keeps
    derived: bool = False  # whether the title was derived from the abstract


@dataclass(frozen=True)
class AbstractTerms:
    """What the offline index reads of an abstract: its telling words and how often each occurs,
    and its Chinese, Japanese and Korean pieces in the order they first occur."""

    words: tuple[str, ...]  # without stop words and words of two letters or fewer
    counts: tuple[int, ...]
    pieces: tuple[str, ...]


def abstract_terms(abstract: str) -> AbstractTerms:
    found = words(abstract)
    document = {w: n for w, n in Counter(found).items() if w not in STOPWORDS and len(w) > 2}
    pieces = tuple(dict.fromkeys(w for w in found if CJK_RUN.match(w))) if has_cjk(abstract) else ()
    return AbstractTerms(tuple(document), tuple(document.values()), pieces)


def render_fallback_index(entries: list[SearchEntry], topic_labels: list[str],
                          terms: dict[str, AbstractTerms] | None = None) -> str:
    """A script that sets window.CATALOGUE_SEARCH: papers with their most telling words.

    Each paper is a row: its slug, name, title, venue (an index into `venues`), topics (indexes
    into `topics`), the abstract words that set it apart most (tf-idf), so the file stays small
    while names, titles and key terms match, its authors, its id, and a 1 when its title was derived.
    An empty name means the title begins with it. `terms`: the abstracts' terms when known
    (the views keep them).
    """
    terms = terms or {}
    documents = [terms.get(e.abstract) or abstract_terms(e.abstract) for e in entries]
    frequency = Counter()
    for document in documents:
        frequency.update(document.words)  # the number of papers each word is in
    venues = sorted({e.venue for e in entries})
    papers = []
    rarity = {word: math.log(len(entries) / count + 1) for word, count in frequency.items()}
    for entry, document in zip(entries, documents):
        in_title = set(words(f"{entry.name} {entry.title}"))
        ranked = sorted((-count * rarity[w], w) for w, count in zip(document.words, document.counts) if w not in in_title)
        name = "" if entry.title.startswith(entry.name) else entry.name  # most titles begin with the name
        # CJK pieces are too many and too alike to rank: a paper keeps them all (up to a cap).
        pieces = [w for w in document.pieces if w not in in_title]
        terms_kept = [w for _, w in ranked[:TERMS_PER_PAPER]] + pieces[:CJK_PIECES_PER_PAPER]
        row = [routes.slug_of_paper_page(entry.path), name, entry.title,
               venues.index(entry.venue), list(entry.topics), " ".join(terms_kept), list(entry.authors), entry.id]
        papers.append(row + [1] if entry.derived else row)
    data = {"stopwords": " ".join(sorted(STOPWORDS)), "topics": topic_labels, "venues": venues, "papers": papers}
    return "window.CATALOGUE_SEARCH = " + json.dumps(data, ensure_ascii=False, separators=(",", ":")) + ";\n"
