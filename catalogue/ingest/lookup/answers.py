"""What a lookup gives a paper, and how the answer lives in its content file.

A paper whose list gives no title is asked about once (`ask_about`). A candidate whose abstract is
this paper's (matching.py) gives it its title, authors, DOI and PDF and landing addresses, with
`title_source: lookup`, the work's id (`openalex`) and the day it was asked (`looked_up`); a
paper the service does not know keeps its derived title and records the day only, and is asked
again after ASK_AGAIN_DAYS. The content file is the record: every later ingest takes the answer
back from it (`as_recorded`), with or without --lookup, so no request is made twice, and a field
a person changed since is not taken back, so the edit wins as any hand edit does (merge.py).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date

from catalogue.model import Paper
from catalogue.ingest.lookup.matching import abstract_words, similarity, SAME_PAPER
from catalogue.ingest.lookup.openalex import Work
from catalogue.ingest.state import value_hash

LOOKED_UP = ("title", "authors", "doi", "pdf", "url")  # the fields an answer gives
ASK_AGAIN_DAYS = 180  # a paper the service did not know yet may be known later


def as_recorded(fresh: Paper, current: Paper | None, recorded: dict | None) -> Paper:
    """The paper as derived from its list (`fresh`), with the answer its content file (`current`)
    records; of the answer's fields, only those as ingest last wrote them (`recorded`: their hashes
    in content/.derived.json)."""
    if fresh.title_source != "derived" or current is None or not (current.openalex or current.looked_up):
        return fresh
    paper = replace(fresh, openalex=current.openalex, looked_up=current.looked_up)
    if not current.openalex or not recorded:
        return paper
    kept = {name: getattr(current, name) for name in LOOKED_UP
            if recorded.get(name) == value_hash(getattr(current, name))}
    return replace(paper, **kept, title_source="lookup" if "title" in kept else paper.title_source)


def ask_about(paper: Paper, current: Paper | None, today: str) -> bool:
    """Whether to ask the service about this paper: its title is derived (not given, looked up or
    edited) and it was not asked about lately."""
    if paper.title_source != "derived" or paper.openalex or (current and current.title_source == "edited"):
        return False
    return not paper.looked_up or (date.fromisoformat(today) - date.fromisoformat(paper.looked_up)).days >= ASK_AGAIN_DAYS


def best_match(paper: Paper, works: list[Work]) -> Work | None:
    """The candidate whose abstract is most like the paper's, if it passes the rule (matching.py)."""
    ours = abstract_words(paper.abstract)
    scored = [(similarity(ours, abstract_words(work.abstract)), work.id, work) for work in works]
    best = max(scored, default=None, key=lambda entry: entry[:2])
    return best[2] if best and best[0] >= SAME_PAPER else None


def answered(paper: Paper, work: Work | None, today: str) -> Paper:
    """The paper as the service's answer leaves it: `work`'s fields when it is this paper, else the day only.
    What the list gave (a PDF, a landing page, authors) stays."""
    if work is None:
        return replace(paper, looked_up=today)
    return replace(paper, title=work.title, title_source="lookup", authors=paper.authors or work.authors,
                   doi=paper.doi or work.doi, pdf=paper.pdf or work.pdf, url=paper.url or work.url,
                   openalex=work.id, looked_up=today)


@dataclass(frozen=True)
class LookupReport:
    """How a lookup went: papers asked about, found, not known to the service, and left unasked
    or unanswered (with the reason the service gave last)."""

    asked: int = 0
    found: int = 0
    unknown: int = 0
    unanswered: int = 0
    reason: str | None = None

    def summary(self) -> str:
        said = f"looked up {self.asked}: {self.found} found, {self.unknown} not known to the service"
        if self.unanswered:
            said += f", {self.unanswered} not looked up ({self.reason}; they keep their titles, and the next " \
                    "build with --lookup asks again)"
        return said
