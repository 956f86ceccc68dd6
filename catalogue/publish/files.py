"""Files of a site, placed safely: written only at a plain path inside the site, never through a
hard link to the previous site; trees mirrored by hard links (copies where the file system cannot
link); the assets copied in, once checked to hold only regular files of their own folder."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

from catalogue.errors import CatalogueError, shown
from catalogue.system.removal import remove_entries

NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)  # O_BINARY: Windows


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
