"""A new site made beside the old one and swapped in whole.

A build holds a lock beside site/ (`.site-lock`) from start to end and names its staging folder by
its process id; a staging folder is removed only by its owner or, once its owner is gone (the lock
free), by the next build or clean. The staging folder starts as hard links to the previous site's
files (nothing is copied), so every write (files.write_file) first removes the link: the previous
site is never changed in place. The site a build replaces is kept beside it (`.site-spare`, hard
links too): the next build's staging starts from it and links again only the files that changed, as
the build that replaced it recorded them in the spare (`.site-changes.json`); without that record
(or when site/ is no longer the folder it names) the two trees are compared whole. The build's private
files (its manifest, the search stage's list of pages) are linked in from the record folder beside
site/ at the start and moved back there at the end (record.py): never published.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from catalogue.errors import CatalogueError
from catalogue.publish.files import check_relative, link_file, link_tree, mirror_tree
from catalogue.publish.manifest import (MANAGED_ELSEWHERE, MANIFEST, MARKER, PRIVATE, read_manifest, record_folder,
                                       records, write_manifest, write_marker)
from catalogue.publish.record import commit_records, link_records, stash_records
from catalogue.publish.writer import SiteWriter, WriteReport
from catalogue.system.lock import holding
from catalogue.system.removal import remove_entries, remove_tree

STAGING_PREFIX = ".site-staging-"
CHANGES = ".site-changes.json"  # in the spare: what differs between it and the site that replaced it
CHANGES_FORMAT = 2  # 2: the record names the site by its marker (its manifest is no longer in it)


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

    def writer(self) -> SiteWriter:
        """The writer of this staging folder's pages, which knows what it holds."""
        return SiteWriter(self.path, self.files, self.manifest)

    def write_manifest(self, fingerprint: str | None, report: WriteReport, content: str | None) -> None:
        """Record the build (manifest.write_manifest), last: a staging folder without it is never swapped in."""
        write_manifest(self.path, fingerprint, report.inputs, content, report.sizes)

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
            files = (link_tree(out_dir, staging) if out_dir.is_dir() else []) + link_records(out_dir, staging)
        block = Staging(staging, frozenset(files), set(), manifest)
        yield block
        check_complete(staging)
        write_marker(staging)  # last: the writer sees a first build's staging empty
        record = stash_records(staging, out_dir)
    except BaseException:
        remove_tree(staging, ignore_errors=True)
        raise
    spare = swap_in(staging, out_dir)
    commit_records(record)
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
    if changed is None or records(out_dir) != record_folder(out_dir):  # no record, or one kept in the site (older)
        return mirror_tree(out_dir, staging) + link_records(out_dir, staging), None
    stale, missing, absent = _differing(out_dir, staging, [path for path in changed if path not in PRIVATE])
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
    link_records(out_dir, staging)
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
    which marker that site holds (a new one at every build): a site replaced or rebuilt since by
    other means is compared whole.
    The new site is in place by now: a record that cannot be written (a full disk) is left out,
    and the next build compares the trees whole."""
    fresh = spare / f"{CHANGES}.{os.getpid()}.tmp"
    try:
        record = {"format": CHANGES_FORMAT, "marker": _identity(out_dir / MARKER),
                  "changed": sorted(changed | {MANIFEST, MARKER})}
        fresh.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
        os.replace(fresh, spare / CHANGES)  # whole or not at all: a half record would be trusted
    except OSError:
        with suppress(OSError):
            fresh.unlink()


def read_changes(staging: Path, out_dir: Path) -> list[str] | None:
    """The files that differ between staging (the spare renamed) and out_dir, by the spare's record;
    None when there is none, or it is not of out_dir's marker as it is now."""
    try:
        record = json.loads((staging / CHANGES).read_text(encoding="utf-8"))
        current = _identity(out_dir / MARKER)
    except (OSError, ValueError):
        return None
    if not (isinstance(record, dict) and record.get("format") == CHANGES_FORMAT and record.get("marker") == current):
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
