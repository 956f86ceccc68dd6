"""One build or ingest at a time per content/ folder: a second one refuses with a clear message."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .errors import CatalogueError

LOCK_FILE = ".lock"


@contextmanager
def exclusive(content_dir: Path) -> Iterator[None]:
    """Hold content_dir's lock for the block; the system releases it if the process dies."""
    content_dir.mkdir(parents=True, exist_ok=True)
    path = content_dir / LOCK_FILE
    with open(path, "a+", encoding="utf-8") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "unknown"
            raise CatalogueError(f"another build or ingest is using {content_dir.as_posix()}/ (process {holder}); "
                                 "run again when it has finished")
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        try:
            yield
        finally:
            handle.truncate(0)
            fcntl.flock(handle, fcntl.LOCK_UN)
