"""What the last whole ingest left in content/papers/, so that the next ingest of the same seeds
looks only at the content files a person changed since.

The record is kept in the build cache under a key of everything an ingest reads but the content
files (the seed files' names and bytes, the taxonomy, the flags, this code). It holds each content
file's size and modification time as that ingest saw them (after its own writes), its id and
addresses, and whether it holds hand edits; and, apart, each paper as the seeds derive it. A
content file whose size and time are as recorded reads as that ingest read it (the rule the
parsed-file cache already follows), so only the others need merging.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from catalogue.ingest.seed_files import seeds_state
from catalogue.model import Paper, Problem, Topic
from catalogue.system.cache import digest

SNAPSHOT = "ingest-snapshot"  # cache kind: the last whole ingest's outcome, by snapshot_key
DERIVED = "ingest-derived"  # cache kind: a paper as the seeds derive it, by derived_key


@dataclass(frozen=True)
class ContentFile:
    """A content file as the last ingest left it."""

    name: str  # in content/papers/
    size: int
    mtime_ns: int
    id: str
    addresses: str  # addresses_of the paper it holds
    edited: bool  # holds fields a person edited (counted in the report's kept edits)


@dataclass(frozen=True)
class IngestSnapshot:
    state: tuple[int, int]  # content/.derived.json's size and modification time
    files: tuple[ContentFile, ...]
    papers: int
    problems: tuple[Problem, ...]  # what an ingest of the same inputs reports again


KEPT_TYPES = (ContentFile, IngestSnapshot)  # the records ingest keeps in the build cache (its stage joins them: ingest/run.py, site/render.py)


def snapshot_key(code: str, seeds_dir: Path, content_dir: Path, taxonomy: tuple[Topic, ...], fallback: str,
                 prune: bool, allow_removals: bool, lookup: bool = False) -> str:
    """Everything an ingest's outcome follows from, the content files aside; `code`: the ingest stage's
    code_version; `lookup`: whether papers are looked up (a first ingest with it asks the service)."""
    return digest(code, seeds_state(seeds_dir, content_dir.parent), taxonomy, fallback, prune,
                  allow_removals, *((True,) if lookup else ()))


def derived_key(snapshot: str, pid: str) -> str:
    return digest(snapshot, pid)


def addresses_of(paper: Paper) -> str:
    """What a hand edit must leave alone for the paper to need no whole ingest: its slug and old slugs."""
    return digest(paper.slug, paper.old_slugs)


def file_stat(path: Path) -> tuple[int, int]:
    info = path.stat()
    return info.st_size, info.st_mtime_ns


def content_stats(papers_dir: Path) -> dict[str, tuple[int, int]] | None:
    """Each content file's (size, modification time) by name; None when an entry is a link or not
    a regular file (the whole ingest reads and reports those)."""
    if not papers_dir.is_dir():
        return {}
    stats = {}
    with os.scandir(papers_dir) as entries:
        for entry in entries:
            if not entry.name.endswith(".md"):
                continue
            if entry.is_symlink() or not entry.is_file():
                return None
            info = entry.stat()
            stats[entry.name] = info.st_size, info.st_mtime_ns
    return stats


def changed_files(snapshot: IngestSnapshot, stats: dict[str, tuple[int, int]]) -> list[ContentFile] | None:
    """The recorded files whose size or time differ now; None when a file came or went."""
    recorded = {row.name: row for row in snapshot.files}
    if recorded.keys() != stats.keys():
        return None
    return [row for name, row in sorted(recorded.items()) if (row.size, row.mtime_ns) != stats[name]]
