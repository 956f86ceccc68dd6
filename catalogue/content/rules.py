"""The catalogue the build renders, from content/: taxonomy and papers read and checked against
each other, then the rules that make them one catalogue (no page redirecting to itself, one
spelling per venue, display order).
"""

from __future__ import annotations

import functools
import unicodedata
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Callable, TypeVar

from catalogue.system.cache import Cache
from catalogue.text import without_invisible
from catalogue.errors import CatalogueError, shown
from catalogue.model import Catalogue, Paper, Problem, Source
from catalogue.content.papers import PAPERS_DIR, paper_digest, read_papers_and_digests
from catalogue.content.taxonomy import TOPICS_FILE, read_taxonomy

Key = TypeVar("Key")


def load_catalogue(content_dir: Path, cache: Cache | None = None) -> Catalogue:
    """Everything the build renders, validated, in display order (venue, year, seed position)."""
    topics, _ = read_taxonomy(content_dir)
    papers, digests = read_papers_and_digests(content_dir, cache)
    read = dict(papers)
    known = {t.slug for t in topics}
    errors = [f"{path.as_posix()}: unknown topic '{topic}' (topics are listed in {TOPICS_FILE})"
              for path, paper in papers.items() for topic in paper.topics if topic not in known]
    if errors:
        raise CatalogueError(f"{content_dir.as_posix()}/ has problems:\n  " + "\n  ".join(errors))
    if not papers:
        raise CatalogueError(f"{(content_dir / PAPERS_DIR).as_posix()}: no papers; run 'python3 build.py ingest' first")
    papers, notes = _without_self_redirects(papers)
    papers, venue_notes = one_spelling_per_venue(papers, lambda path, _: Source(path.as_posix()))
    ordered = sorted(papers.items(), key=lambda item: display_order(item[1]))
    return Catalogue(tuple(paper for _, paper in ordered), topics, notes + venue_notes,
                     tuple(digests[path] if paper is read[path] else paper_digest(paper) for path, paper in ordered))


def display_order(paper: Paper) -> tuple:
    """Venue, newest year, seed position (the Source's fields: comparing the records themselves is slower)."""
    source = paper.source
    return paper.venue or "~", -(paper.year or 0), source.path, source.line, source.record, paper.id


def _without_self_redirects(papers: dict[Path, Paper]) -> tuple[dict[Path, Paper], tuple[Problem, ...]]:
    """A slug renamed and renamed back is in its own old_slugs: left out (ingest removes it from the file)."""
    notes = []
    for path, paper in papers.items():
        if paper.slug in paper.old_slugs:
            papers[path] = replace(paper, old_slugs=tuple(s for s in paper.old_slugs if s != paper.slug))
            notes.append(Problem(Source(path.as_posix()), f"old_slugs holds '{paper.slug}', the paper's own slug; "
                                                          "left out (a page cannot redirect to itself)"))
    return papers, tuple(notes)


def one_spelling_per_venue(papers: dict[Key, Paper], place: Callable[[Key, Paper], Source]
                           ) -> tuple[dict[Key, Paper], tuple[Problem, ...]]:
    """Venues written with other capitals, spaces, punctuation or invisible characters ('Icml',
    'ICML.', 'ICML') are one venue (venue_key), written in its most common spelling (the first in
    sorted order on a tie): two would claim one venue page. A note for each other spelling, at the
    first `place` that writes it."""
    spellings: dict[str, Counter] = {}
    for paper in papers.values():
        if paper.venue:
            spellings.setdefault(venue_key(paper.venue), Counter())[paper.venue] += 1
    chosen = {key: min(counts, key=lambda spelling: (-counts[spelling], spelling)) for key, counts in spellings.items()}
    notes = []
    for key, counts in sorted(spellings.items()):
        for spelling in sorted(set(counts) - {chosen[key]}):
            first = min(place(at, paper) for at, paper in papers.items() if paper.venue == spelling)
            notes.append(Problem(first, f"venue {shown(spelling)} ({papers_count(counts[spelling])}) is shown "
                                        f"as {shown(chosen[key])} ({papers_count(counts[chosen[key]])}): the "
                                        "same venue written another way (case, spaces, punctuation or invisible "
                                        "characters); write it with other letters to keep them apart"))
    unified = {at: replace(paper, venue=chosen[venue_key(paper.venue)])
               if paper.venue and paper.venue != chosen[venue_key(paper.venue)] else paper
               for at, paper in papers.items()}
    return unified, tuple(notes)


def papers_count(count: int) -> str:
    return f"{count} paper{'s' if count != 1 else ''}"


@functools.lru_cache(maxsize=4096)  # a catalogue writes its few venues on every paper
def venue_key(venue: str) -> str:
    """What makes two spellings of a venue one venue: its letters, digits and symbols, whatever their
    case, spaces, punctuation ('ICML.', 'I.C.M.L.', 'ACM-MM') and invisible characters. Accents and
    symbols count ('Ünïcode' and 'Unicode', 'A+B' and 'A B' stay two venues, each with its page)."""
    text = without_invisible(unicodedata.normalize("NFKC", venue))[0]
    return "".join(character for character in text.casefold() if unicodedata.category(character)[0] not in "PZC")
