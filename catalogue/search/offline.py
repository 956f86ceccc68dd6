"""The offline index: plain scripts, so that search works from file:// too, where Pagefind cannot
load: each paper with its name, title, venue, topics, authors and the abstract words that set it
apart most.

site/search-index.js is the manifest: the stop words, topics, venues and the names of the parts
(search-index/<n>.js), which hold the papers in order, each under PART_BYTES so that no file
grows with the catalogue. The browser loads them with script tags, as a page opened from disk may.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from catalogue import routes
from catalogue.system.cache import digest
from catalogue.text import CJK_RUN, STOPWORDS, has_cjk, words

FALLBACK_FILE = "search-index.js"  # the manifest
PARTS_DIR = "search-index"  # the parts: search-index/1.js, 2.js, ...
PART_BYTES = 180_000  # a part's most bytes: under the file budget of a catalogue of a thousand papers
PART_VARIABLE = "CATALOGUE_SEARCH_PART_"  # part <n> sets window.CATALOGUE_SEARCH_PART_<n> to its rows
TERMS_PER_PAPER = 16
CJK_PIECES_PER_PAPER = 400
TERM = re.compile(r"\b[a-z]{4,}\b")
KNOWN_TERMS = 8000  # the titles' most frequent words the manifest lists, for spelling suggestions


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
    author_slugs: tuple[str, ...] = ()  # each author's slug (their section's anchor), as `authors`


@dataclass(frozen=True)
class AbstractTerms:
    """What the offline index reads of an abstract: its telling words and how often each occurs,
    and its Chinese, Japanese and Korean pieces in the order they first occur. The words are kept
    joined by spaces (a word holds none): every paper's terms are held at once, and a string of
    them takes a fraction of the room of a string per word."""

    spaced_words: str  # without stop words and words of two letters or fewer
    counts: tuple[int, ...]
    spaced_pieces: str

    @property
    def words(self) -> list[str]:
        return self.spaced_words.split(" ") if self.spaced_words else []

    @property
    def pieces(self) -> list[str]:
        return self.spaced_pieces.split(" ") if self.spaced_pieces else []


def abstract_terms(abstract: str) -> AbstractTerms:
    found = words(abstract)
    document = {w: n for w, n in Counter(found).items() if w not in STOPWORDS and len(w) > 2}
    pieces = dict.fromkeys(w for w in found if CJK_RUN.match(w)) if has_cjk(abstract) else ()
    return AbstractTerms(" ".join(document), tuple(document.values()), " ".join(pieces))


class OfflineIndex:
    """The offline index of `entries`, in parts: `paths` (the manifest first) are known at once,
    each with the digest of what it is made from (inputs), and render(path) makes one.

    Each paper is a row: its slug, name, title, venue (an index into `venues`), topics (indexes
    into `topics`), the abstract words that set it apart most (tf-idf), so the index stays small
    while names, titles and key terms match, its authors, its id, and a 1 when its title was derived.
    An empty name means the title begins with it. `terms`: the abstracts' terms when known
    (the views keep them). `keys`: a digest standing for each entry (a view's key), else the entry's.
    """

    def __init__(self, entries: list[SearchEntry], topic_labels: list[str], terms: dict[str, AbstractTerms] | None = None,
                 keys: list[str] | None = None):
        terms = terms or {}
        self.entries, self.topic_labels = entries, topic_labels
        self.keys = keys if keys is not None else [digest(entry) for entry in entries]
        self.documents = [terms.get(e.abstract) or abstract_terms(e.abstract) for e in entries]
        parts = split_parts([row_bound(e, d) for e, d in zip(entries, self.documents)])
        self.parts = {part_path(number): (number, start, end) for number, (start, end) in enumerate(parts, 1)}
        self.paths = [FALLBACK_FILE, *self.parts]
        self.venues = sorted({e.venue for e in entries})
        # A row's words are ranked by their rarity in the whole catalogue: the words of every abstract.
        self.words_key = hashlib.blake2b("\n".join(d.spaced_words for d in self.documents).encode(), digest_size=16).hexdigest()

    def inputs(self, path: str) -> str:
        """A digest of what the file at `path` is made from: a part, of its papers' rows alone (and
        the words that rank them), so that an edit remakes the parts of the papers it changed."""
        if path == FALLBACK_FILE:
            return digest(self.topic_labels, self.venues, self.paths, self.keys)
        _, start, end = self.parts[path]
        return digest(self.topic_labels, self.venues, self.words_key, len(self.entries), self.keys[start:end])

    def render(self, path: str) -> str:
        if path == FALLBACK_FILE:
            manifest = {"stopwords": " ".join(sorted(STOPWORDS)), "topics": self.topic_labels, "venues": self.venues,
                        "parts": self.paths[1:], "terms": known_terms(self.entries)}
            return "window.CATALOGUE_SEARCH = " + compact(manifest) + ";\n"
        number, start, end = self.parts[path]
        rows = index_rows(self.entries[start:end], self.documents[start:end], self.rarity)
        numbers = {venue: number for number, venue in enumerate(self.venues)}
        for row in rows:
            row[3] = numbers[row[3]]
        return f"window.{PART_VARIABLE}{number} = {compact(rows)};\n"

    def render_all(self) -> dict[str, str]:
        return {path: self.render(path) for path in self.paths}

    @functools.cached_property
    def rarity(self) -> dict[str, float]:
        """Each abstract word's weight: the fewer papers hold it, the more."""
        return word_rarity(self.documents)


def known_terms(entries: list[SearchEntry]) -> str:
    """The words of the titles and names (ASCII letters, four or more) that a misspelled query
    word is matched against (assets/search.js), the most frequent first, at most KNOWN_TERMS."""
    counts = Counter(word for entry in entries for word in set(TERM.findall(f"{entry.name} {entry.title}".lower())))
    return " ".join(sorted(counts, key=lambda word: (-counts[word], word))[:KNOWN_TERMS])


def plain_slug(name: str) -> str:
    """The slug assets/search.js makes of an author's name when the row gives none (its plainSlug)."""
    return "-".join(unicodedata.normalize("NFC", name).lower().split())


def part_path(number: int) -> str:
    return f"{PARTS_DIR}/{number}.js"


def compact(data) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def word_rarity(documents: list[AbstractTerms]) -> dict[str, float]:
    """Each word's inverse document frequency over these abstracts."""
    frequency = Counter()
    for document in documents:
        frequency.update(document.words)  # the number of papers each word is in
    return {word: math.log(len(documents) / count + 1) for word, count in frequency.items()}


def index_rows(entries: list[SearchEntry], documents: list[AbstractTerms], rarity: dict[str, float]) -> list[list]:
    """Each paper's row, its venue named (render makes it an index), its words ranked by `rarity`."""
    rows = []
    for entry, document in zip(entries, documents):
        in_title = set(words(f"{entry.name} {entry.title}"))
        ranked = sorted((-count * rarity[w], w) for w, count in zip(document.words, document.counts) if w not in in_title)
        name = "" if entry.title.startswith(entry.name) else entry.name  # most titles begin with the name
        # CJK pieces are too many and too alike to rank: a paper keeps them all (up to a cap).
        pieces = [w for w in document.pieces if w not in in_title]
        terms_kept = [w for _, w in ranked[:TERMS_PER_PAPER]] + pieces[:CJK_PIECES_PER_PAPER]
        row = [routes.slug_of_paper_page(entry.path), name, entry.title,
               entry.venue, list(entry.topics), " ".join(terms_kept), list(entry.authors), entry.id]
        # An author's slug is kept only where the browser would not make it from the name.
        slugs = [slug if slug != plain_slug(author) else 0 for author, slug in zip(entry.authors, entry.author_slugs)]
        if any(slugs):
            rows.append(row + [int(entry.derived), slugs])
        else:
            rows.append(row + [1] if entry.derived else row)
    return rows


def row_bound(entry: SearchEntry, document: AbstractTerms) -> int:
    """No fewer bytes than the paper's row, known before the words are ranked: its longest
    TERMS_PER_PAPER words and first CJK pieces stand for the words it will keep."""
    fields = [routes.slug_of_paper_page(entry.path), entry.name, entry.title, 10**6, list(entry.topics), "",
              list(entry.authors), entry.id, 1, list(entry.author_slugs)]
    # A word (text.WORD: letters and digits) needs no escape in JSON: its bytes and a separator.
    longest = sorted(map(len, map(str.encode, document.words)), reverse=True)[:TERMS_PER_PAPER]
    pieces = list(map(len, map(str.encode, document.pieces[:CJK_PIECES_PER_PAPER])))
    return len(compact(fields).encode()) + 1 + sum(longest) + len(longest) + sum(pieces) + len(pieces)


def split_parts(bounds: list[int]) -> list[tuple[int, int]]:
    """(start, end) of each part: papers in order, as many as fit in PART_BYTES (one at least)."""
    parts, start, size = [], 0, 0
    for at, bound in enumerate(bounds):
        if at > start and size + bound > PART_BYTES:
            parts.append((start, at))
            start, size = at, 0
        size += bound
    return parts + [(start, len(bounds))] if bounds else parts


def read_offline_index(site: Path) -> dict:
    """The offline index of a built site as one: its manifest, with the parts' papers in order
    (for the checks and benchmarks that read what the browser reads)."""
    def data(path: str) -> str:
        return (site / path).read_text(encoding="utf-8").split(" = ", 1)[1].rstrip().removesuffix(";")
    index = json.loads(data(FALLBACK_FILE))
    index["papers"] = [row for path in index["parts"] for row in json.loads(data(path))]
    return index
