"""Results worth keeping between builds, and the fingerprints that say when they still hold.

The cache is a SQLite file beside the catalogue (content/.cache/build.sqlite, git-ignored).
Every key is a hash of everything the value was computed from, including this package's own
source, so a stale entry is never found: a changed input or a new version of the code simply
asks for a different key. Deleting the folder is always safe; the next build refills it.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sqlite3
from collections.abc import Iterable
from functools import cache
from pathlib import Path

CACHE_DIR = ".cache"
CACHE_FILE = "build.sqlite"
PACKAGE = Path(__file__).resolve().parent


def digest(*parts: object) -> str:
    """A short stable hash of values whose repr is deterministic (str, numbers, tuples, frozen dataclasses)."""
    return hashlib.blake2b(repr(parts).encode("utf-8"), digest_size=16).hexdigest()


@cache
def code_version() -> str:
    """A hash of this package's code and interface strings: new code, new keys."""
    hashed = hashlib.blake2b(digest_size=16)
    for path in sorted([*PACKAGE.glob("*.py"), *PACKAGE.glob("locales/*.yaml")]):
        hashed.update(path.name.encode() + b"\0" + path.read_bytes())
    return hashed.hexdigest()


def tree_state(folder: Path, skip: Iterable[str] = ()) -> str:
    """A hash of a folder's files, names and bytes (a few tenths of a second for 10,000 papers),
    so equal inputs give equal hashes on any machine and at any path."""
    skipped = set(skip)
    hashed = hashlib.blake2b(digest_size=16)
    for root, folders, files in os.walk(folder):
        folders[:] = sorted(name for name in folders if name not in skipped)
        relative = os.path.relpath(root, folder).replace(os.sep, "/")
        prefix = "" if relative == "." else relative + "/"
        for name in sorted(set(files) - skipped):
            with open(os.path.join(root, name), "rb") as file:
                hashed.update(f"{prefix}{name}".encode("utf-8") + b"\0" + file.read() + b"\0")
    return hashed.hexdigest()


class Cache:
    """A persistent key-value store: get_many / put_many of picklable values, by kind and key."""

    def __init__(self, path: Path | None):
        """path None keeps nothing between builds (an in-memory store)."""
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
        self.connection = sqlite3.connect(":memory:" if path is None else str(path))
        self.connection.execute("PRAGMA journal_mode = WAL")  # a killed build loses at most its own writes
        self.connection.execute("PRAGMA synchronous = NORMAL")
        self.connection.execute("CREATE TABLE IF NOT EXISTS entries "
                                "(kind TEXT, key TEXT, value BLOB, PRIMARY KEY (kind, key))")

    @classmethod
    def beside(cls, content_dir: Path) -> Cache:
        return cls(content_dir / CACHE_DIR / CACHE_FILE)

    def get_many(self, kind: str, keys: Iterable[str]) -> dict[str, object]:
        wanted = list(dict.fromkeys(keys))
        found: dict[str, object] = {}
        for start in range(0, len(wanted), 500):  # SQLite limits the number of parameters
            chunk = wanted[start:start + 500]
            rows = self.connection.execute(
                f"SELECT key, value FROM entries WHERE kind = ? AND key IN ({','.join('?' * len(chunk))})",
                [kind, *chunk])
            found.update((key, pickle.loads(value)) for key, value in rows)
        return found

    def get(self, kind: str, key: str) -> object | None:
        return self.get_many(kind, [key]).get(key)

    def put_many(self, kind: str, items: dict[str, object]) -> None:
        with self.connection:
            self.connection.executemany("INSERT OR REPLACE INTO entries VALUES (?, ?, ?)",
                                        [(kind, key, pickle.dumps(value)) for key, value in items.items()])

    def put(self, kind: str, key: str, value: object) -> None:
        self.put_many(kind, {key: value})

    def keep_only(self, kind: str, keys: Iterable[str]) -> None:
        """Forget the entries of a kind this build did not use, so the file does not grow forever.
        `keys` are stored, all of them (the callers keep what they just found or put)."""
        keys = set(keys)
        (stored,), = self.connection.execute("SELECT COUNT(*) FROM entries WHERE kind = ?", [kind])
        if stored <= len(keys):  # nothing else is stored (the usual case): nothing to forget
            return
        with self.connection:
            self.connection.execute("CREATE TEMP TABLE IF NOT EXISTS used (key TEXT PRIMARY KEY)")
            self.connection.execute("DELETE FROM used")
            self.connection.executemany("INSERT OR IGNORE INTO used VALUES (?)", [(key,) for key in keys])
            self.connection.execute("DELETE FROM entries WHERE kind = ? AND key NOT IN (SELECT key FROM used)", [kind])

    def close(self) -> None:
        self.connection.close()
