"""The catalogue's data: frozen records passed from stage to stage."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True, order=True)
class Source:
    """Where something came from: a file and a 1-based line (0 when unknown)."""

    path: str
    line: int = 0

    def __str__(self) -> str:
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
    title_source: Literal["derived", "edited"] = "derived"
    venue: str | None = None
    year: int | None = None
    topics: tuple[str, ...] = ()
    links: tuple[Link, ...] = ()
    benchmarks: tuple[str, ...] = ()  # named benchmarks and datasets it evaluates on
    results: tuple[str, ...] = ()  # headline numbers, as short phrases
    cleaned: tuple[str, ...] = ()  # what ingest changed in the abstract (see cleanup.py)
    authors: tuple[str, ...] = ()
    pdf: str | None = None
    in_seeds: bool = True  # False: gone from the seed lists, kept until `ingest --prune`
    old_slugs: tuple[str, ...] = ()  # earlier addresses, each kept as a redirect


@dataclass(frozen=True)
class Catalogue:
    """Everything the site is rendered from, in display order."""

    papers: tuple[Paper, ...]
    topics: tuple[Topic, ...]
    notes: tuple[Problem, ...] = ()  # what loading the content set right, for the maintainer
