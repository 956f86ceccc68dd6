"""content/.trash/: where ingest --prune moves papers, so that a removal can be undone by hand."""

from __future__ import annotations

import os
from datetime import datetime, timezone
from pathlib import Path

TRASH_DIR = ".trash"  # inside content/, never read as content nor part of the build's fingerprint


def move_to_trash(content_dir: Path, files: list[Path]) -> Path:
    """Move files (from content/papers/) to content/.trash/<UTC date-time>/papers/; returns that folder."""
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H-%M-%SZ")
    trash = content_dir / TRASH_DIR
    trash.mkdir(exist_ok=True)
    for attempt in range(1, 1000):  # two prunes within a second get folders of their own
        folder = trash / (stamp if attempt == 1 else f"{stamp}-{attempt}")
        try:
            folder.mkdir()
            break
        except FileExistsError:
            continue
    (folder / "papers").mkdir()
    for path in files:
        os.replace(path, folder / "papers" / path.name)  # one rename each: a paper is in one place or the other
    return folder
