"""Removing a folder tree of many small files (an old site, a search bundle's scratch pages).

Where each removal waits on the disk (a virtual disk that discards freed blocks, a network file
system), removing one file after another takes most of a rebuild; removals in several folders at
once overlap those waits. bench/README.md has the measurement.
"""

from __future__ import annotations

import os
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

THREADS = 8  # removals waiting on the disk at once: threads wait, they do not compute


def remove_tree(folder: Path, ignore_errors: bool = False) -> None:
    """shutil.rmtree(folder), the folders two levels down (`papers/<slug>/`) removed in parallel
    first. Like rmtree it never follows a symbolic link: a link is removed, not what it points to."""
    try:
        inner = [] if folder.is_symlink() else [path for outer in _real_folders(folder) for path in _real_folders(outer)]
    except OSError:
        inner = []  # not a folder, or unreadable: rmtree says so (or ignores it)
    if len(inner) > 1:
        with ThreadPoolExecutor(max_workers=THREADS) as pool:
            list(pool.map(lambda path: shutil.rmtree(path, ignore_errors=True), inner))
    shutil.rmtree(folder, ignore_errors=ignore_errors)  # what is left, and any error, as rmtree gives it


def _real_folders(folder: Path) -> list[Path]:
    """The folders directly inside `folder`, not links to folders."""
    with os.scandir(folder) as entries:
        return [Path(entry.path) for entry in entries if entry.is_dir(follow_symlinks=False)]


def remove_entries(paths: list[str]) -> None:
    """Remove each of these files, links and folders (never following a link), several at once."""
    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        list(pool.map(_remove_entry, paths))


def _remove_entry(path: str) -> None:
    if os.path.isdir(path) and not os.path.islink(path):
        remove_tree(Path(path))
    else:
        os.unlink(path)
