"""The catalogue's data: frozen records passed from stage to stage."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True, order=True)
class Source:
    """Where something came from: a file and a 1-based line (0 when unknown), or for a record of a
    JSON or BibTeX list, its 1-based place in the file (`seeds/icml.json:record 3`)."""

    path: str
    line: int = 0
    record: int = 0

    def __str__(self) -> str:
        if self.record:
            return f"{self.path}:record {self.record}"
        return f"{self.path}:{self.line}" if self.line else self.path


@dataclass(frozen=True)
class Problem:
    """Something in the input worth telling the maintainer; the build goes on.

    (What stops the build is raised as a CatalogueError instead.)
    """

    source: Source
    message: str

    def __str__(self) -> str:
        return f"{self.source}: {self.message}"


@dataclass(frozen=True)
class Paragraph:
    """One blank-line-separated paragraph of a seed document."""

    text: str
    line: int


@dataclass(frozen=True)
class SeedDocument:
    """A parsed seed file: its venue and year (when the header names them) and its abstracts."""

    path: str
    venue: str | None
    year: int | None
    paragraphs: tuple[Paragraph, ...]
    problems: tuple[Problem, ...] = ()


@dataclass(frozen=True)
class Record:
    """One paper as a seed list gives it, before extraction: a text list gives the abstract alone,
    a structured list (JSON, CSV, BibTeX) may give any of the fields (texts stripped; "" or None
    when not given)."""

    source: Source
    abstract: str
    title: str | None = None
    authors: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    venue: str | None = None
    year: int | None = None
    published: str | None = None  # the day the venue published it, an ISO date (2026-07-12)
    pdf: str | None = None  # the paper itself
    url: str | None = None  # its page in the proceedings or at the venue
    doi: str | None = None  # 10.1000/xyz, checked as a content file checks it
    code: str | None = None
    project: str | None = None


@dataclass(frozen=True)
class Link:
    """A code or project link found in an abstract."""

    url: str
    label: str


@dataclass(frozen=True)
class Topic:
    """One area of the taxonomy in topics.yaml."""

    slug: str
    label: str
    keywords: tuple[str, ...]
    translations: tuple[tuple[str, str], ...] = ()  # (language, label), from `labels:` in topics.yaml


@dataclass(frozen=True)
class Paper:
    """One paper: what extraction derived from its abstract plus what a person added."""

    id: str
    slug: str
    title: str
    abstract: str
    source: Source
    name: str | None = None
    other_names: tuple[str, ...] = ()
    # from the abstract, the list, the lookup service (OpenAlex), a person
    title_source: Literal["derived", "given", "lookup", "edited"] = "derived"
    venue: str | None = None
    year: int | None = None
    published: str | None = None  # the day the venue published it (an ISO date), when the list gives it
    topics: tuple[str, ...] = ()
    links: tuple[Link, ...] = ()
    benchmarks: tuple[str, ...] = ()  # named benchmarks and datasets it evaluates on
    results: tuple[str, ...] = ()  # headline numbers, as short phrases
    cleaned: tuple[str, ...] = ()  # what ingest changed in the abstract (see cleanup.py)
    authors: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()  # the authors' own keywords, when the list gives them
    pdf: str | None = None  # the paper itself
    url: str | None = None  # its page in the proceedings or at the venue ("Proceedings")
    doi: str | None = None  # 10.1000/xyz, as its list or the lookup service gave it
    openalex: str | None = None  # the work the lookup found (W2741809807)
    looked_up: str | None = None  # when the lookup service was last asked about it, an ISO date
    in_seeds: bool = True  # False: gone from the seed lists, kept until `ingest --prune`
    old_slugs: tuple[str, ...] = ()  # earlier addresses, each kept as a redirect
    added: str | None = None  # when the catalogue first had it, an ISO date (2026-12-04); None until ingest dates it
    cite_key: str | None = None  # its BibTeX key, recorded when it first arrives (content/cite_keys.py)


@dataclass(frozen=True)
class Catalogue:
    """Everything the site is rendered from, in display order."""

    papers: tuple[Paper, ...]
    topics: tuple[Topic, ...]
    notes: tuple[Problem, ...] = ()  # what loading the content set right, for the maintainer
    digests: tuple[str, ...] = ()  # each paper's paper_digest (content/papers.py), in order; () when not known


RECORDS = (Paper, Source, Link, Topic, Problem)  # what the stages pass on and keep in the build cache
