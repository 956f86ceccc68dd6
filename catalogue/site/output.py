"""The only writer of site/: a staging folder that replaces site/ when complete, filled with
only the files whose inputs changed since the last build.

A build that fails or is killed leaves the previous site/ as it was. A build holds a lock
beside site/ (`.site-lock`) from start to end and names its staging folder by its process id;
a staging folder is removed only by its owner or, once its owner is gone (the lock free), by
the next build or clean. The staging folder starts as hard links to the previous site's
files (nothing is copied), so every write here first removes the link: the previous site is
never changed in place. The site a build replaces is kept beside it (`.site-spare`, hard links
too): the next build's staging starts from it and links again only the files that changed, as
the build that replaced it recorded them in the spare (`.site-changes.json`); without that record
(or when site/ is no longer the folder it names) the two trees are compared whole.
`.build-manifest.json` records, for every file, a digest of what it was made from; a file whose
digest is unchanged is kept. It also records the content folder the site was built from (seen
from the site folder, so that no absolute path is published): a build refuses a mistyped
--content that would replace the site with a new, empty catalogue's. `.paper-catalogue-site`
marks the folder as a site this tool built (guard.py: build and clean replace only such a folder).
"""

from __future__ import annotations

import gc
import json
import multiprocessing
import multiprocessing.connection
import os
import re
import shutil
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from catalogue.errors import CatalogueError, shown
from catalogue.system.lock import holding
from catalogue.system.removal import remove_entries, remove_tree
from catalogue.system.workers import cores, run_in_workers
from catalogue.system.progress import Progress

STAGING_PREFIX = ".site-staging-"
MANIFEST = ".build-manifest.json"
MARKER = ".paper-catalogue-site"  # in every site this tool builds: build and clean replace only such a folder
MARKER_TEXT = "A site built by paper-catalogue (python3 build.py); build and clean replace this folder whole.\n"
MANAGED_ELSEWHERE = ("assets/", "pagefind/")  # written by copy_assets and the search stage
CHANGES = ".site-changes.json"  # in the spare: what differs between it and the site that replaced it
CHANGES_FORMAT = 1
PARALLEL_FROM = 200  # fewer files than this render faster in one process than in a pool
CHUNK = 16  # the most outputs a worker makes between two requests: few, so neither waits long for the other at the end
NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)  # O_BINARY: Windows


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


@contextmanager
def site_lock(out_dir: Path, shown: str) -> Iterator[None]:
    """Own out_dir and its staging folders for the block (a second build or a clean refuses);
    staging folders left by builds that died are removed first. `shown` names out_dir as given."""
    out_dir = out_dir.resolve()
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    with holding(out_dir.parent / f".{out_dir.name}-lock", f"another build is writing {shown}/"):
        for stale in staging_folders(out_dir):
            remove_tree(stale)  # its owner is gone: it held the lock we now hold
        yield


def staging_folders(out_dir: Path) -> list[Path]:
    """The staging folders of builds into out_dir (of no other folder, whatever its name)."""
    own = re.compile(re.escape(f"{STAGING_PREFIX}{out_dir.name}-") + r"\d+(-old)?")
    return sorted(path for path in out_dir.parent.iterdir() if own.fullmatch(path.name))


def spare_folder(out_dir: Path) -> Path:
    """Where the site a build replaced is kept (`.site-spare`), as the start of the next build's staging."""
    return out_dir.with_name(f".{out_dir.name}-spare")


def our_spare(out_dir: Path) -> Path | None:
    """The spare beside out_dir when it is a site this tool built (a folder of that name that is not ours is left alone)."""
    spare = spare_folder(out_dir)
    return spare if not spare.is_symlink() and (spare / MARKER).is_file() else None


@dataclass(frozen=True)
class Staging:
    """A staging folder; `files`: what it holds (paths relative to it) as the making of it found
    them, so that the writer need not walk it again to find what to remove."""

    path: Path
    files: frozenset[str]
    changed: set[str]  # what the block wrote or removed besides the marker and MANAGED_ELSEWHERE
    manifest: dict | None = None  # its manifest, when the making of it read it (the writer reads it once)

    def record(self, changed: Iterable[str]) -> None:
        """Say what the block wrote or removed (the writer's report), so that the next build's
        staging relinks only those; a block that says nothing leaves the next build a whole comparison."""
        self.changed.update(changed)
        self.changed.add(MANIFEST)


@contextmanager
def staged_site(out_dir: Path) -> Iterator[Staging]:
    """A folder beside out_dir holding hard links to out_dir's files; it becomes out_dir only if the
    block succeeds. It starts from the spare (the site the last build replaced), so that only the
    files that build changed are linked again, else from nothing. The caller holds site_lock(out_dir)."""
    out_dir = out_dir.resolve()
    staging = out_dir.with_name(f"{STAGING_PREFIX}{out_dir.name}-{os.getpid()}")
    spare = our_spare(out_dir)
    if spare and not (out_dir.is_dir() and os.stat(spare).st_dev == os.stat(out_dir).st_dev):
        remove_tree(spare)  # nothing to mirror, or on another file system (where an inode names another file)
        spare = None
    if spare:
        spare.rename(staging)
    else:
        staging.mkdir()
    try:
        manifest = None
        if spare:
            files, manifest = catch_up(out_dir, staging)
        else:
            files = link_tree(out_dir, staging) if out_dir.is_dir() else []
        block = Staging(staging, frozenset(files), set(), manifest)
        yield block
        write_file(staging, MARKER, MARKER_TEXT)  # last: the writer sees a first build's staging empty
        check_complete(staging)
    except BaseException:
        remove_tree(staging, ignore_errors=True)
        raise
    spare = swap_in(staging, out_dir)
    if spare and block.changed:
        record_changes(spare, out_dir, block.changed)


def catch_up(out_dir: Path, staging: Path) -> tuple[list[str], dict | None]:
    """Bring staging, the spare renamed, in line with out_dir; returns its files then, and its
    manifest when read. By the spare's record of what the build that replaced it changed, when it
    holds one for out_dir as it is (the folders of MANAGED_ELSEWHERE compared whole); else by
    comparing the trees whole."""
    changed = read_changes(staging, out_dir)
    with suppress(FileNotFoundError):
        os.unlink(staging / CHANGES)
    if changed is None:
        return mirror_tree(out_dir, staging), None
    stale, missing, absent = _differing(out_dir, staging, changed)
    remove_entries([os.path.join(staging, path) for path in stale])
    for path in missing:
        _link_making_folders(os.path.join(out_dir, path), os.path.join(staging, path))
    for folder in (name.rstrip("/") for name in MANAGED_ELSEWHERE):
        theirs, ours = out_dir / folder, staging / folder
        if theirs.is_dir() and ours.is_dir() and not ours.is_symlink():
            mirror_tree(theirs, ours)
            continue
        if os.path.lexists(ours):
            remove_entries([str(ours)])
        if theirs.is_dir():
            link_tree(theirs, ours)
    gone = set(absent)  # of the manifest's files, those removed from site/ by hand since: the staging lacks them too
    manifest = read_manifest(staging)
    return [path for path in [*manifest.get("files", {}), MANIFEST, MARKER] if path not in gone], manifest


def _differing(out_dir: Path, staging: Path, paths: list[str]) -> tuple[list[str], list[str], list[str]]:
    """Of `paths`: those staging holds that are not out_dir's very file (to remove), those out_dir
    holds that staging will then lack (to link), and those out_dir lacks."""
    stale, missing, absent = [], [], []
    for path in paths:
        theirs = _identity_or_none(os.path.join(out_dir, path))
        ours = _identity_or_none(os.path.join(staging, path))
        if ours is not None and ours != theirs:
            stale.append(path)
        if theirs is None:
            absent.append(path)
        elif ours != theirs:
            missing.append(path)
    return stale, missing, absent


def _identity_or_none(path: str) -> tuple[int, int] | None:
    """The device and inode of the entry at `path` (not following a link); None when there is none."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    return info.st_dev, info.st_ino


def _link_making_folders(source: str, target: str) -> None:
    """link_file, making the target's folder when it is missing (a folder new in the site)."""
    try:
        link_file(source, target)
    except FileNotFoundError:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        link_file(source, target)


def record_changes(spare: Path, out_dir: Path, changed: set[str]) -> None:
    """Write into the spare what differs between it and out_dir (the site that replaced it), and
    which manifest that site holds: a site replaced or rebuilt since by other means is compared whole.
    The new site is in place by now: a record that cannot be written (a full disk) is left out,
    and the next build compares the trees whole."""
    fresh = spare / f"{CHANGES}.{os.getpid()}.tmp"
    try:
        record = {"format": CHANGES_FORMAT, "manifest": _identity(out_dir / MANIFEST),
                  "changed": sorted(changed | {MANIFEST, MARKER})}
        fresh.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
        os.replace(fresh, spare / CHANGES)  # whole or not at all: a half record would be trusted
    except OSError:
        with suppress(OSError):
            fresh.unlink()


def read_changes(staging: Path, out_dir: Path) -> list[str] | None:
    """The files that differ between staging (the spare renamed) and out_dir, by the spare's record;
    None when there is none, or it is not of out_dir's manifest as it is now."""
    try:
        record = json.loads((staging / CHANGES).read_text(encoding="utf-8"))
        current = _identity(out_dir / MANIFEST)
    except (OSError, ValueError):
        return None
    if not (isinstance(record, dict) and record.get("format") == CHANGES_FORMAT and record.get("manifest") == current):
        return None
    changed = record.get("changed")
    if not isinstance(changed, list) or not all(isinstance(path, str) for path in changed):
        return None
    try:
        for path in changed:
            check_relative(path, staging)  # a record naming a path outside is not followed
    except CatalogueError:
        return None
    return changed


def _identity(path: Path) -> list[int]:
    """A file's device, inode, size and change time: another file in its place (another site swapped in) differs."""
    info = os.stat(path, follow_symlinks=False)
    return [info.st_dev, info.st_ino, info.st_size, info.st_ctime_ns]


def check_complete(staging: Path) -> None:
    """Never swap in a site that was not fully written (its manifest is written last)."""
    missing = [] if (staging / "index.html").is_file() else ["index.html"]
    if not isinstance(read_manifest(staging).get("files"), dict):
        missing.append(MANIFEST)
    if missing:
        raise CatalogueError(f"{staging}: the new site is incomplete ({', '.join(missing)} missing); "
                             "the previous site is kept")


def link_tree(source: Path, target: Path, copy: Callable[[str, str], object] | None = None) -> list[str]:
    """target mirrors source with hard links (copies where the file system cannot link), or with
    `copy`; returns the files linked, relative to target. Unlike shutil.copytree, the first error
    stops it and is raised as it is, naming its path (copytree gathers them into one shutil.Error,
    whose message is the whole list)."""
    linked: list[str] = []
    for folder, _, files in os.walk(source, followlinks=True):  # a linked folder is copied, as copytree does
        relative = os.path.relpath(folder, source)
        into = os.path.join(target, relative)
        os.makedirs(into, exist_ok=True)
        prefix = "" if relative == "." else Path(relative).as_posix() + "/"
        for name in files:
            (copy or link_file)(os.path.join(folder, name), os.path.join(into, name))
            linked.append(prefix + name)
    return linked


def mirror_tree(source: Path, target: Path) -> list[str]:
    """Make target, a tree of hard links that mirrored an earlier source, mirror source as
    link_tree would: an entry that is already the file source holds (the same inode) is kept,
    any other is removed (several at once: each removal may wait on the disk, see removal.py)
    and linked again, so only what changed since is touched. Returns target's files then,
    relative to it."""
    stale: list[str] = []  # entries of target to remove
    missing: list[tuple[str, str, str]] = []  # (entry of source, where it goes in target, relative) to link
    files: list[str] = []
    _compare(str(source), str(target), "", stale, missing, files)
    remove_entries(stale)
    for source_path, target_path, relative in missing:
        if os.path.isdir(source_path):
            files += [f"{relative}/{path}" for path in link_tree(Path(source_path), Path(target_path))]
        else:
            link_file(source_path, target_path)
            files.append(relative)
    return files


def _compare(source: str, target: str, prefix: str, stale: list[str], missing: list[tuple[str, str, str]],
             files: list[str]) -> None:
    """Walks source and target side by side; `files` receives the files of target kept as they are."""
    wanted, present = _entries(source), _entries(target)
    stale += [entry.path for name, entry in present.items() if not _same_entry(wanted.get(name), entry)]
    for name, entry in wanted.items():
        if not _same_entry(entry, present.get(name)):
            missing.append((entry.path, os.path.join(target, name), prefix + name))
        elif entry.is_dir():
            _compare(entry.path, os.path.join(target, name), f"{prefix}{name}/", stale, missing, files)
        else:
            files.append(prefix + name)


def _entries(folder: str) -> dict[str, os.DirEntry]:
    with os.scandir(folder) as entries:
        return {entry.name: entry for entry in entries}


def _same_entry(wanted: os.DirEntry | None, present: os.DirEntry | None) -> bool:
    """Whether present (in the mirror, never a link) stands for wanted: both folders, or the same file."""
    if wanted is None or present is None or present.is_symlink():
        return False
    if wanted.is_dir():
        return present.is_dir(follow_symlinks=False)
    return not present.is_dir(follow_symlinks=False) and present.inode() == (
        wanted.stat().st_ino if wanted.is_symlink() else wanted.inode())


def link_file(source: Path | str, target: Path | str) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def swap_in(staging: Path, out_dir: Path) -> Path | None:
    """Replace out_dir by staging with two renames, so site/ is never half-written; the old site
    becomes the spare (removing it would take longer than the rest of a small edit's build), which
    is returned (None when there was no old site, or a folder not ours holds the spare's name)."""
    retired = staging.with_name(staging.name + "-old")
    if out_dir.exists():
        out_dir.rename(retired)
    staging.rename(out_dir)
    if not retired.exists():
        return None
    if (retired / MARKER).is_file() and not spare_folder(out_dir).exists():  # else no site, or a folder not ours
        retired.rename(spare_folder(out_dir))
        return spare_folder(out_dir)
    remove_tree(retired, ignore_errors=True)
    return None


def read_manifest(site_dir: Path) -> dict:
    """The last build's record: {"entries": [...], "content": ..., "files": {path: digest}, "fingerprint": ...};
    empty if there is none."""
    try:
        manifest = json.loads((site_dir / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return manifest if isinstance(manifest, dict) else {}


# The manifest's last line but its brace (write_manifest writes "fingerprint" last)
FINGERPRINT_AT_END = re.compile(rb'\n"fingerprint": ("[0-9a-f]*"|null)\n\}\n\Z')
TAIL_BYTES = 4096


def read_fingerprint(site_dir: Path) -> str | None:
    """The last build's fingerprint, from the manifest's end: a build that finds the site up to
    date need not parse the digest of every file (a manifest of another form is read whole)."""
    try:
        with open(site_dir / MANIFEST, "rb") as file:
            file.seek(max(0, file.seek(0, os.SEEK_END) - TAIL_BYTES))
            tail = file.read()
    except OSError:
        return None
    if match := FINGERPRINT_AT_END.search(tail):
        return json.loads(match[1])
    fingerprint = read_manifest(site_dir).get("fingerprint")
    return fingerprint if isinstance(fingerprint, str) else None


# The manifest's beginning: the names at the top of the site that it lists files under (written first)
ENTRIES_AT_START = '{\n"entries": '
HEAD_CHARS = 65536


def read_manifest_entries(site_dir: Path) -> list[str] | None:
    """The names at the top of the site that the manifest lists files under, from its beginning:
    telling a site of ours from other files need not parse the digest of every file. None when the
    manifest does not begin with them (missing, older, or longer than its head)."""
    try:
        with open(site_dir / MANIFEST, encoding="utf-8") as file:
            head = file.read(HEAD_CHARS)
    except (OSError, ValueError):  # a decoding error is a ValueError too
        return None
    if not head.startswith(ENTRIES_AT_START):
        return None
    try:
        entries, _ = json.JSONDecoder().raw_decode(head, len(ENTRIES_AT_START))
    except ValueError:  # not JSON, or longer than the head
        return None
    return entries if isinstance(entries, list) and all(isinstance(entry, str) for entry in entries) else None


def write_manifest(site_dir: Path, fingerprint: str | None, inputs: dict[str, str], content: str | None = None,
                   sizes: dict[str, int] | None = None) -> None:
    """`content`: the content folder the site was built from, as content_seen_from gives it;
    `sizes`: each file's bytes. The keys in this order: read_manifest_entries and read_fingerprint
    read one end of the file each."""
    manifest = {"entries": sorted({path.split("/")[0] for path in inputs}), "content": content,
                "files": dict(sorted(inputs.items())), **({"sizes": dict(sorted(sizes.items()))} if sizes else {}),
                "fingerprint": fingerprint}
    write_file(site_dir, MANIFEST, json.dumps(manifest, indent=0) + "\n")


def content_seen_from(content: Path, out_dir: Path) -> str:
    """The content folder relative to the site folder: it names no one's home folder when the
    site is published, and still holds when the project is moved whole."""
    try:
        return Path(os.path.relpath(content.resolve(), out_dir.resolve())).as_posix()
    except ValueError:  # on another drive (Windows): no relative path leads there
        return content.resolve().as_posix()


def built_from(site_dir: Path) -> Path | None:
    """The content folder the site in site_dir was built from; None for a manifest without it (older)."""
    content = read_manifest(site_dir).get("content")
    return Path(os.path.normpath(site_dir.resolve() / content)) if isinstance(content, str) and content else None


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

    def write(self, outputs: list[Output], forking: bool = True) -> None:
        """Make and write the outputs that changed, on both cores when there are many, unless not
        `forking` (while another thread runs: a forked child would hold only this one, and any lock
        the other held stays locked there)."""
        for output in outputs:
            check_relative(output.path, self.site_dir)  # refuse a bad path before writing it
            self.inputs[output.path] = output.inputs
        todo = [o for o in outputs if self.recorded.get(o.path) != o.inputs or not self.holds(o.path)]
        self.written.update(zip((o.path for o in todo), _make_and_write_all(todo, self.site_dir, forking)))

    def holds(self, path: str) -> bool:
        """Whether site_dir holds the file at the start (by the listing, when given)."""
        return path in self.present if self.present is not None else (self.site_dir / path).is_file()

    def finish(self) -> WriteReport:
        if self.started_empty:
            removed = []
        elif self.present is not None:  # the files written since are outputs: kept
            removed = remove_listed(self.site_dir, self.present, set(self.inputs))
        else:
            removed = remove_others(self.site_dir, set(self.inputs))
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


def remove_others(site_dir: Path, keep: set[str]) -> list[str]:
    """Delete the files of the previous build that this build does not make (a paper pruned, a page
    renamed), found by a walk of site_dir; returns them."""
    removed: list[str] = []
    for folder, folders, files in os.walk(site_dir):
        relative = Path(folder).relative_to(site_dir).as_posix()
        prefix = "" if relative == "." else relative + "/"
        folders[:] = [name for name in folders if not f"{prefix}{name}/".startswith(MANAGED_ELSEWHERE)]
        removed += remove_listed(site_dir, [prefix + name for name in files], keep)
    return removed


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


def check_relative(relative: str, site_dir: Path) -> None:
    """A path that stays inside the site, by its form alone (cheap enough for every file of a build)."""
    parts = relative.split("/")
    if "\\" in relative or ":" in parts[0] or any(part in ("", ".", "..") for part in parts):  # "" also: "/x", "x/"
        raise CatalogueError(f"refusing to write {shown(relative)}: not a plain path inside {site_dir}")


def write_file(site_dir: Path, relative: str, content: str | bytes) -> int:
    """Write one file under site_dir (never through a hard link to the previous site); returns bytes.

    The path's form keeps it inside (check_relative): the staging folder holds no symbolic
    links that could lead elsewhere, since link_tree copies what a link points to. The file is
    created only if it does not exist (one system call when it does not, the common case); one
    that does is a link to the previous site's file and is unlinked first."""
    check_relative(relative, site_dir)
    path = os.path.join(site_dir, relative)
    data = content if isinstance(content, bytes) else content.encode("utf-8")
    try:
        handle = os.open(path, NEW_FILE, 0o666)
    except FileExistsError:
        os.unlink(path)
        handle = os.open(path, NEW_FILE, 0o666)
    except FileNotFoundError:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        handle = os.open(path, NEW_FILE, 0o666)
    with open(handle, "wb") as file:
        file.write(data)
    return len(data)


def copy_assets(assets_dir: Path, site_dir: Path) -> None:
    """assets/ into site/assets/, replacing what the last build had there."""
    if not assets_dir.is_dir():
        raise CatalogueError(f"{assets_dir}: the assets folder is missing")
    shutil.rmtree(site_dir / "assets", ignore_errors=True)  # unlinks: the previous site keeps its own
    link_tree(assets_dir, site_dir / "assets", copy=shutil.copy2)


def refuse_strange_assets(assets_dir: Path, shown: str) -> None:
    """Only regular files and links that stay inside assets/ are published (a link to
    /etc/passwd must not be, and a FIFO would make the copy wait forever); `shown` names
    assets_dir as given. Checked before the build writes anything."""
    inside = assets_dir.resolve()
    for folder, folders, files in os.walk(assets_dir):
        for name in folders + files:
            path = Path(folder, name)
            where = f"{shown}/{path.relative_to(assets_dir).as_posix()}"
            target = path.resolve()
            if path.is_symlink() and inside != target and inside not in target.parents:
                raise CatalogueError(f"{where}: a link to something outside {shown}/; copy the file here instead")
            if not (target.is_file() or target.is_dir()) or (name in files and not target.is_file()):
                raise CatalogueError(f"{where}: not a regular file; remove it")
