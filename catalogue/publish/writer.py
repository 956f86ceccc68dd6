"""The writer of a site's pages: each Output (a path, a digest of its inputs, how to make it) made
and written only when its inputs changed since the manifest was written, on every core when there
are many; the files the site no longer has removed at the end."""

from __future__ import annotations

import gc
import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from catalogue.publish.files import check_relative, write_file
from catalogue.publish.manifest import MANAGED_ELSEWHERE, MANIFEST, MARKER, read_manifest
from catalogue.system.progress import Progress
from catalogue.system.workers import cores, run_in_workers

PARALLEL_FROM = 200  # fewer files than this render faster in one process than in a pool
CHUNK = 16  # the most outputs a worker makes between two requests: few, so neither waits long for the other at the end


@dataclass(frozen=True)
class Output:
    """One file of the site: where it goes, a digest of everything it is made from, how to make it."""

    path: str
    inputs: str
    make: Callable[[], str | bytes]


@dataclass(frozen=True)
class WriteReport:
    written: int  # files rendered and written
    kept: int  # files unchanged since the last build
    removed: int  # files of the last build that are no longer part of the site
    size: int  # bytes of all the outputs, written or kept
    inputs: dict[str, str]  # every output's path and the digest of its inputs, for the manifest
    changed: frozenset[str] = frozenset()  # the files written or removed (paths relative to the site)
    sizes: dict[str, int] | None = None  # every output's bytes, for the manifest (so that the next build need not stat it)


class SiteWriter:
    """Writes outputs into site_dir, batch by batch, only those whose inputs changed since the
    manifest there was written; finish() removes the files the site no longer has. `present`:
    the files site_dir holds at the start, when the caller knows them (staged_site does), else
    they are found by a walk at the end; `manifest`: site_dir's, when the caller has read it."""

    def __init__(self, site_dir: Path, present: frozenset[str] | None = None, manifest: dict | None = None):
        self.site_dir = site_dir
        self.present = present
        manifest = read_manifest(site_dir) if manifest is None else manifest
        self.recorded = manifest.get("files", {})
        self.recorded_sizes = manifest.get("sizes", {}) if isinstance(manifest.get("sizes"), dict) else {}
        self.inputs: dict[str, str] = {}  # every output so far: path -> digest of its inputs
        self.written: dict[str, int] = {}  # path -> bytes
        self.started_empty = not site_dir.is_dir() or not any(os.scandir(site_dir))  # then all it holds is ours
        self.removed: list[str] = []  # files of the last build removed before finish (remove_gone)

    def write(self, outputs: list[Output], forking: bool = True) -> None:
        """Make and write the outputs that changed, on both cores when there are many, unless not
        `forking` (while another thread runs: a forked child would hold only this one, and any lock
        the other held stays locked there)."""
        for output in outputs:
            check_relative(output.path, self.site_dir)  # refuse a bad path before writing it
            self.inputs[output.path] = output.inputs
        todo = [o for o in outputs if self.recorded.get(o.path) != o.inputs or not self.holds(o.path)]
        self.written.update(zip((o.path for o in todo), _make_and_write_all(todo, self.site_dir, forking)))

    def files_at_start(self) -> Iterable[str]:
        """The files site_dir held at the start: by the listing, when given, else by a walk (which
        finds the outputs written since too, and they are outputs)."""
        return self.present if self.present is not None else site_files(self.site_dir)

    def holds(self, path: str) -> bool:
        """Whether site_dir holds the file at the start (by the listing, when given)."""
        return path in self.present if self.present is not None else (self.site_dir / path).is_file()

    def remove_gone(self, which: Callable[[str], bool]) -> None:
        """Remove now, not at the end, the files of the last build that `which` picks and no output
        so far is: for a reader of the folder before it is finished (Pagefind, of the paper pages)."""
        if not self.started_empty:
            self.removed += remove_listed(self.site_dir, filter(which, self.files_at_start()), set(self.inputs))

    def finish(self) -> WriteReport:
        removed = self.removed
        if not self.started_empty:
            removed += remove_listed(self.site_dir, self.files_at_start(), set(self.inputs))
        kept = [path for path in self.inputs if path not in self.written]
        sizes = self.written | {path: self.kept_size(path) for path in kept}
        return WriteReport(len(self.written), len(kept), len(removed), sum(sizes.values()), self.inputs,
                           frozenset(self.written) | frozenset(removed), sizes)

    def kept_size(self, path: str) -> int:
        """The bytes of a file kept from the last build: as its manifest recorded them, else found now."""
        recorded = self.recorded_sizes.get(path)
        return recorded if type(recorded) is int else os.stat(os.path.join(self.site_dir, path)).st_size


@dataclass(frozen=True)
class Batch:
    """Outputs planned only when asked for: planning may wait for work that overlaps the writing
    of the batch before (the site's related papers, found by another process)."""

    label: str
    plan: Callable[[], list[Output]]
    searched: bool = True  # whether the search index reads what it writes (Pagefind starts once those are written)


def _make_and_write_all(todo: list[Output], site_dir: Path, forking: bool = True) -> list[int]:
    """Outputs made on every core when there are many (and `forking`), written one at a time (two
    processes creating files at once in one folder tree take longer than one: ext4 here, measured);
    returns the bytes of each."""
    with Progress("Writing pages", len(todo)) as progress:
        if len(todo) < PARALLEL_FROM or cores() == 1 or not forking:
            written = []
            for output in todo:
                written.append(write_file(site_dir, output.path, output.make()))
                progress.advance()
            return written
        # Workers are forked: they inherit the outputs (templates compiled, text converted) as they are.
        # Freezing the collector's view first keeps it from touching (and so copying) every inherited object.
        gc.freeze()
        try:
            return _in_workers(todo, site_dir, progress)
        finally:
            gc.unfreeze()


def _in_workers(todo: list[Output], site_dir: Path, progress: Progress) -> list[int]:
    """Forked workers make the outputs, a chunk at a time; each file is written under one lock."""
    writing = multiprocessing.get_context("fork").Lock()

    def make_and_write(index: int) -> int:
        content = todo[index].make()
        with writing:
            return write_file(site_dir, todo[index].path, content)

    return list(run_in_workers(make_and_write, _chunks(len(todo)), lambda at, code: (
        f"a page maker stopped (exit code {code}) while making {todo[at].path}"), progress, cores()))


def _chunks(total: int) -> Iterator[range]:
    """Chunks that grow from 1 output to CHUNK: planners put a batch's few costly outputs first
    (whole-catalogue files, long lists), which are so shared out one by one, and the many cheap
    ones after, which go CHUNK at a time."""
    start = count = 0
    while start < total:
        size = min(CHUNK, 1 + count // 4)
        yield range(start, min(start + size, total))
        start, count = start + size, count + 1


def site_files(site_dir: Path) -> Iterator[str]:
    """The files of a site folder (relative to it) but those under folders other stages write."""
    for folder, folders, files in os.walk(site_dir):
        relative = Path(folder).relative_to(site_dir).as_posix()
        prefix = "" if relative == "." else relative + "/"
        folders[:] = [name for name in folders if not f"{prefix}{name}/".startswith(MANAGED_ELSEWHERE)]
        yield from (prefix + name for name in files)


def remove_listed(site_dir: Path, files: Iterable[str], keep: set[str]) -> list[str]:
    """Delete those of `files` (relative to site_dir) that are neither in `keep` nor the site's own
    records nor under folders other stages write; returns them."""
    removed = []
    for relative in files:
        if relative not in keep and relative not in (MANIFEST, MARKER) and not relative.startswith(MANAGED_ELSEWHERE):
            with suppress(FileNotFoundError):  # gone from the site by other means since its build: nothing to remove
                os.unlink(os.path.join(site_dir, relative))
                removed.append(relative)
    return removed
