"""One process at a time: one build or ingest per content/ folder, one build or clean per site
folder. A second one refuses with a clear message naming the running process."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from catalogue.errors import CatalogueError

LOCK_FILE = ".lock"


@contextmanager
def exclusive(content_dir: Path) -> Iterator[None]:
    """Hold content_dir's lock for the block; the system releases it if the process dies."""
    content_dir.mkdir(parents=True, exist_ok=True)
    with holding(content_dir / LOCK_FILE, f"another build or ingest is using {content_dir.as_posix()}/"):
        yield


@contextmanager
def holding(path: Path, busy: str) -> Iterator[None]:
    """Hold the lock file at `path` for the block, or refuse with `busy` and the holder's process id.

    The file keeps the holder's process id while it is held and is removed when the block ends,
    so nothing is left beside the user's folders. Removed before it is unlocked: a process that
    locked the old file after that finds it gone from `path` and tries again. It is opened with
    os.open so that a test can make it fail as a read-only folder or a full disk would."""
    while True:
        handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(handle, 64).decode("ascii", "replace").strip() or "unknown"
            os.close(handle)
            raise CatalogueError(f"{busy} (process {holder}); run again when it has finished") from None
        if _same_file(handle, path):
            break
        os.close(handle)  # its holder removed it while we waited: lock the file that is there now
    try:
        os.ftruncate(handle, 0)
        os.write(handle, str(os.getpid()).encode("ascii"))
        yield
    finally:
        with suppress(FileNotFoundError):
            os.unlink(path)
        os.close(handle)  # closing releases the lock


def _same_file(handle: int, path: Path) -> bool:
    try:
        return os.path.samestat(os.fstat(handle), os.stat(path))
    except FileNotFoundError:
        return False
