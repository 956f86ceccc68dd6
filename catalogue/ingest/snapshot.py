"""What the last whole ingest left in content/papers/, so that the next ingest of the same seeds
looks only at the content files a person changed since, on this machine or on any other.

The record is content/.ingested.json, beside content/.derived.json and committed with it: a
clone (a CI runner with no build cache) finds it too. It names everything that ingest read but
the content files (`inputs`: the seed files' names and bytes, the taxonomy, the flags, this code),
the digest of content/.derived.json as it left it, what it reported, and for each content file
the digest of its bytes, its id and addresses, its title's source, whether it holds hand edits and
whether its paper is still in the seeds.
A content file whose bytes are as recorded is as that ingest left it; the others are merged again
(run.py). One line per content file, so that git merges two branches' records line by line.

The record is only a shortcut: one that is missing, unreadable or not of this shape is ignored,
and the whole ingest writes it anew.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from catalogue.content.paper_file import write_text_atomic
from catalogue.errors import CatalogueError
from catalogue.ingest.seed_files import seeds_state
from catalogue.ingest.state import STATE_FILE
from catalogue.model import Paper, Problem, Source, Topic
from catalogue.routes import CONTENT_PAPERS
from catalogue.system.cache import KnownFiles, digest, read_regular_file

RECORD_FILE = ".ingested.json"
TITLE_SOURCES = ("derived", "given", "lookup", "edited")
ABOUT = ("Written by 'build.py ingest': what it last left in this folder, so that an ingest of the same seeds "
         "reads only the content files changed since. Safe to delete.")
ABOUT_LINE = f'"about": {json.dumps(ABOUT)},'.encode()  # a merge conflict keeps it: both sides write it alike


@dataclass(frozen=True)
class ContentFile:
    """A content file as the last whole ingest left it."""

    name: str  # in content/papers/
    digest: str  # of its bytes (KnownFiles' digest)
    id: str
    addresses: str  # addresses_of the paper it holds
    title_source: str  # as written then
    edited: bool  # holds fields a person edited (counted in the report's kept edits)
    in_seeds: bool  # False: marked as gone from the seeds (changed, it takes a whole ingest)


@dataclass(frozen=True)
class IngestSnapshot:
    inputs: str  # snapshot_key of the ingest that wrote it
    state: str  # the digest of content/.derived.json's bytes as it left them
    files: tuple[ContentFile, ...]
    papers: int
    problems: tuple[Problem, ...]  # what an ingest of the same inputs reports again


def snapshot_key(code: str, seeds_dir: Path, content_dir: Path, taxonomy: tuple[Topic, ...], fallback: str,
                 prune: bool, allow_removals: bool, lookup: bool = False) -> str:
    """Everything an ingest's outcome follows from, the content files aside; `code`: the ingest stage's
    code_version; `lookup`: whether papers are looked up (a first ingest with it asks the service)."""
    return digest(code, seeds_state(seeds_dir, content_dir.parent), taxonomy, fallback, prune,
                  allow_removals, *((True,) if lookup else ()))


def addresses_of(paper: Paper) -> str:
    """What a hand edit must leave alone for the paper to need no whole ingest: its slug and old slugs."""
    return digest(paper.slug, paper.old_slugs)


def content_digests(content_dir: Path, known: KnownFiles) -> dict[str, str] | None:
    """The digest of each content file's bytes by name, and of content/.derived.json under its own
    name (read only where `known` has no settled record); None when a paper's entry is a link or not
    a regular file (the whole ingest reads and reports those)."""
    papers_dir = content_dir / CONTENT_PAPERS
    found: dict[str, str] = {}
    if papers_dir.is_dir():
        with os.scandir(papers_dir) as entries:
            for entry in entries:
                if not entry.name.endswith(".md"):
                    continue
                if entry.is_symlink() or not entry.is_file():
                    return None
                found[entry.name] = known.file_digest(f"{CONTENT_PAPERS}/{entry.name}", entry.stat(),
                                                      lambda path=entry.path: read_regular_file(path))
    state = content_dir / STATE_FILE
    if state.is_file() and not state.is_symlink():
        found[STATE_FILE] = known.file_digest(STATE_FILE, state.stat(), lambda: read_regular_file(str(state)))
    return found


def changed_files(snapshot: IngestSnapshot, digests: dict[str, str]) -> list[ContentFile] | None:
    """The recorded files whose bytes differ now; None when a file came or went, or content/.derived.json
    is not as the snapshot's ingest left it."""
    recorded = {row.name: row for row in snapshot.files}
    if recorded.keys() | {STATE_FILE} != digests.keys() or digests[STATE_FILE] != snapshot.state:
        return None
    return [row for name, row in sorted(recorded.items()) if row.digest != digests[name]]


def read_snapshot(content_dir: Path) -> IngestSnapshot | None:
    """content/.ingested.json, or None when it is missing or a record of another shape that this tool
    wrote (a merge conflict, an older format: it still holds its "about" line). Anything but a regular
    file is refused, as content/.derived.json is, and so is a file this tool did not write: the
    ingest would replace it."""
    path = content_dir / RECORD_FILE
    if not path.exists() and not path.is_symlink():
        return None
    if path.is_symlink() or not path.is_file():
        raise CatalogueError(f"{path.as_posix()}: not a regular file; remove it (ingest writes it anew)")
    text = path.read_bytes()
    refuse_unless_ours(path, text)
    try:
        data = json.loads(text)
        return IngestSnapshot(
            inputs=_text(data["inputs"]), state=_text(data["state"]), papers=_count(data["papers"]),
            files=tuple(ContentFile(_text(name), _text(digest_), _text(pid), _text(addresses), _source(source),
                                    _flag(edited), _flag(in_seeds))
                        for name, (digest_, pid, addresses, source, edited, in_seeds) in data["files"].items()),
            problems=tuple(Problem(Source(_placed(_text(where), _flag(inside), content_dir), _count(line), _count(place)),
                                   _text(message)) for where, inside, line, place, message in data["problems"]))
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError):  # not JSON, or JSON of another shape
        return None


def refuse_unless_ours(path: Path, text: bytes) -> None:
    """A file of the record's name that does not say it is the record (its "about" line) is not
    replaced nor removed: it may be the user's own."""
    if ABOUT_LINE not in text:
        raise CatalogueError(f"{path.as_posix()}: not the record ingest writes under this name (it lacks the line "
                             "that says what it is); move this file elsewhere: ingest keeps its record here")


def write_snapshot(content_dir: Path, snapshot: IngestSnapshot | None) -> bool:
    """content/.ingested.json written when it changed (its time kept otherwise, as content/.derived.json's),
    or removed when `snapshot` is None (the last whole ingest left files it cannot account for);
    whether the file changed."""
    path = content_dir / RECORD_FILE
    present = path.read_bytes() if path.is_file() and not path.is_symlink() else None
    if present is not None:
        refuse_unless_ours(path, present)
    if snapshot is None:
        if present is not None:
            path.unlink()
            return True
        return False
    head = {"about": ABOUT, "inputs": snapshot.inputs, "state": snapshot.state, "papers": snapshot.papers,
            "problems": [[*_portable(p.source.path, content_dir), p.source.line, p.source.record, p.message]
                         for p in snapshot.problems]}
    # ASCII: a note may hold a lone surrogate (a file name's undecodable byte), which UTF-8 cannot write
    lines = [f"{json.dumps(key)}: {json.dumps(value)}," for key, value in head.items()]
    rows = {row.name: [row.digest, row.id, row.addresses, row.title_source, row.edited, row.in_seeds]
            for row in snapshot.files}
    files = [f"{json.dumps(name)}: {json.dumps(row)}" for name, row in rows.items()]
    text = "{\n" + "\n".join(lines) + '\n"files": {\n' + ",\n".join(files) + "\n}\n}\n"
    if present == text.encode("utf-8"):
        return False
    write_text_atomic(path, text)
    return True


def _portable(path: str, content_dir: Path) -> tuple[str, bool]:
    """A problem's file as the record keeps it: inside content/, relative to it (a clone is elsewhere)."""
    if Path(path).is_relative_to(content_dir):
        return Path(path).relative_to(content_dir).as_posix(), True
    return path, False


def _placed(path: str, inside: bool, content_dir: Path) -> str:
    if not inside:
        return path
    if Path(path).is_absolute() or ".." in Path(path).parts:
        raise ValueError(path)
    return (content_dir / path).as_posix()


def _text(value) -> str:
    if not isinstance(value, str):
        raise TypeError(value)
    return value


def _count(value) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise TypeError(value)
    return value


def _flag(value) -> bool:
    if not isinstance(value, bool):
        raise TypeError(value)
    return value


def _source(value) -> str:
    if value not in TITLE_SOURCES:
        raise ValueError(value)
    return value
