"""Results worth keeping between builds, and the fingerprints that say when they still hold.

The cache is a SQLite file beside the catalogue (content/.cache/build.sqlite, git-ignored).
Every key is a hash of everything the value was computed from, including the source of the code
that computes it (code_version: the module and all it imports) and the versions of Python and of
the libraries that shape the output, so a stale entry is never found: a changed input or a new
version of the code simply asks for a different key, and an edit to one stage's code leaves the
others' entries found. Deleting the folder is always safe; the next build refills it.

Values are stored as JSON (codec.py; never pickles, which run code when read), each sealed with a
keyed hash whose key is made at random for this cache and kept beside it, readable by its
owner only: an entry planted or copied from elsewhere does not carry a valid seal and is
ignored, as is one that names a type outside those the stages declare (Cache's `kept`).
"""

from __future__ import annotations

import ast
import hashlib
import hmac
import json
import os
import secrets
import sqlite3
import stat
import sys
import time
from collections.abc import Callable, Iterable
from contextlib import suppress
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import TypeVar

from catalogue.system.codec import Codec

T = TypeVar("T")  # what a cached value is made from (Cache.kept)

CACHE_DIR = ".cache"
CACHE_FILE = "build.sqlite"
KEY_FILE = "key"  # the seals' secret, beside CACHE_FILE
KEY_SIZE = 32
PACKAGE = Path(__file__).resolve().parents[1]  # catalogue/
# Distributions whose version can change what a build writes (markup, math, templates, slugs,
# YAML, images, related papers and the map, the search index); one not installed counts as such.
SHAPING_DISTRIBUTIONS = ("markdown-it-py", "mdurl", "jinja2", "markupsafe", "latex2mathml",
                         "pylatexenc", "bibtexparser", "python-slugify", "text-unidecode", "pyyaml", "pillow", "numpy", "scipy",
                         "scikit-learn", "pagefind", "pagefind-bin", "pagefind-bin-extended")


def digest(*parts: object) -> str:
    """A short stable hash of values whose repr is deterministic (str, numbers, tuples, frozen dataclasses)."""
    return hashlib.blake2b(repr(parts).encode("utf-8"), digest_size=16).hexdigest()


@cache
def code_version(module: str) -> str:
    """A hash of the code `module` (a module of this package by name: its caller's __name__) runs:
    its source, the source of every module of this package it imports, directly or not, the data
    beside them (a module's folder's data files: interface strings, the title model, the default
    topics), and the versions of Python and of the libraries that shape the output. New code or
    an upgraded library, new keys; an edit to code a module never imports leaves its keys, and so
    what it keeps, as they were."""
    return files_version(module_file(name) for name in modules_reached(module))


@cache
def package_version() -> str:
    """code_version of the whole package: what a build's fingerprint covers (a process the build
    runs by name, discovery's, is code no import reaches)."""
    return files_version(PACKAGE.rglob("*.py"))


def files_version(sources: Iterable[Path]) -> str:
    """A hash of these source files, the data files beside them and the shaping libraries' versions."""
    files = set()
    for source in sources:
        files |= {source, *folder_data(source.parent)}
    hashed = hashlib.blake2b(repr(library_versions()).encode("utf-8"), digest_size=16)
    for path in sorted(files):
        hashed.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0" + path.read_bytes())
    return hashed.hexdigest()


@cache
def folder_data(folder: Path) -> tuple[Path, ...]:
    """The data files (*.json, *.yaml) of a package's folder, in it or in its folders that are no package."""
    found = [path for pattern in ("*.json", "*.yaml") for path in folder.glob(pattern)]
    for inner in folder.iterdir():
        if inner.is_dir() and not (inner / "__init__.py").exists() and inner.name != "__pycache__":
            found += [path for pattern in ("*.json", "*.yaml") for path in inner.rglob(pattern)]
    return tuple(sorted(found))


def modules_reached(module: str) -> set[str]:
    """`module` and every module of this package it imports, directly or not (an import inside a
    function too: the stages import what they use where they use it), with their packages."""
    imports = package_imports()
    if module not in imports:
        raise ValueError(f"{module}: not a module of {PACKAGE.name}")
    reached, todo = set(), [module]
    while todo:
        name = todo.pop()
        if name not in reached:
            reached.add(name)
            todo += imports[name]
    return reached


@cache
def package_imports() -> dict[str, tuple[str, ...]]:
    """Each module of this package (by name) and the modules of it that it, or its package, imports."""
    files = {".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__"): path
             for path in PACKAGE.rglob("*.py")}
    imports = {}
    for name, path in files.items():
        found, statements = set(), ast.parse(path.read_bytes()).body
        while statements:  # an import is a statement: the expressions, most of the nodes, need no visit
            node = statements.pop()
            statements += [inner for block in ("body", "orelse", "finalbody", "handlers", "cases")
                           for inner in getattr(node, block, ())]
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                found |= {f"{node.module}.{alias.name}" if f"{node.module}.{alias.name}" in files else node.module
                          for alias in node.names}
            elif isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
        found.add(name.rpartition(".")[0])  # a module's package runs first
        imports[name] = tuple(sorted(other for other in found if other in files and other != name))
    return imports


def module_file(name: str) -> Path:
    path = PACKAGE.parent.joinpath(*name.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


@cache
def library_versions() -> tuple[tuple[str, str | None], ...]:
    """(name, version) of Python and of each of SHAPING_DISTRIBUTIONS (None: not installed)."""
    def installed(name: str) -> str | None:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            return None
    return (("python", sys.version), *((name, installed(name)) for name in SHAPING_DISTRIBUTIONS))


def tree_state(folder: Path, skip: Iterable[str] = (), known: KnownFiles | None = None) -> str:
    """A hash of a folder's files, names and bytes (fast enough for every build),
    so equal inputs give equal hashes on any machine and at any path.

    Only regular files are read. A symbolic link counts by the path it holds, a FIFO, socket or
    device by its name alone: opening a FIFO would wait for a writer forever, a device may never
    end, and a link may lead out of the folder. A file counts by the digest of its bytes; with
    `known`, one its record vouches for by the digest recorded, without being read again."""
    parts: list[bytes] = []
    _hash_tree(parts, str(folder), "", set(skip), known)
    return bytes_digest(b"".join(parts))  # hashed at once: a folder of many small files is many small updates


def _hash_tree(parts: list[bytes], folder: str, prefix: str, skipped: set[str], known: KnownFiles | None) -> None:
    with os.scandir(folder) as scan:
        entries = sorted((entry for entry in scan if entry.name not in skipped), key=lambda entry: entry.name)
    for entry in entries:
        relative = f"{prefix}{entry.name}"
        name = relative.encode("utf-8", "surrogateescape")
        if entry.is_dir(follow_symlinks=False):
            _hash_tree(parts, entry.path, f"{relative}/", skipped, known)
        elif entry.is_symlink():
            parts.append(name + b"\0link\0" + os.fsencode(os.readlink(entry.path)) + b"\0")
        elif entry.is_file(follow_symlinks=False):
            found = (known.file_digest(relative, entry.stat(follow_symlinks=False), lambda: read_regular_file(entry.path))
                     if known else bytes_digest(read_regular_file(entry.path)))
            parts.append(name + b"\0" + found.encode() + b"\0")
        else:
            parts.append(name + b"\0special\0")


class KnownFiles:
    """Each file's digest as tree_state last found it, with the file's stat then, kept in the cache
    (one entry per folder) so that a build reads only the files changed since.

    A file counts as unchanged when its size, modification and change times and inode are as
    recorded and it was hashed well after its last change: a file written again within its time
    stamps' resolution of being hashed could look unchanged while its bytes are not (git's
    "racily clean" files), so it is read again until a hashing comes late enough."""

    KIND = "file-records"
    SETTLED_NS = 2_000_000_000  # the coarsest time stamps (FAT's two seconds)

    def __init__(self, cache: Cache, folder: str):
        self.cache, self.folder = cache, folder
        stored = cache.get(self.KIND, folder)  # JSON text, each file's record one string: small to hold
        self.recorded: dict[str, str] = json.loads(stored) if isinstance(stored, str) else {}
        self.found: dict[str, str] = {}

    def file_digest(self, relative: str, info: os.stat_result, read: Callable[[], bytes]) -> str:
        """The digest of the bytes of the file `info` describes: recorded, or `read` now."""
        signature = f"{info.st_size} {info.st_mtime_ns} {info.st_ctime_ns} {info.st_ino}"
        if record := self.recorded.get(relative):  # "<signature> <hashed at> <digest>"
            recorded, hashed_at, found = record.rsplit(" ", 2)
            if recorded == signature and int(hashed_at) - max(info.st_mtime_ns, info.st_ctime_ns) >= self.SETTLED_NS:
                self.found[relative] = record
                return found
        hashed_at = time.time_ns()  # before reading: a change during the read is after it
        found = bytes_digest(read())
        self.found[relative] = f"{signature} {hashed_at} {found}"
        return found

    def save(self) -> None:
        """Record what this walk found, if it differs from the record (files gone included)."""
        if self.found != self.recorded:
            self.cache.put(self.KIND, self.folder, json.dumps(self.found, separators=(",", ":"), sort_keys=True))
        self.recorded, self.found = self.found, {}  # a next walk starts afresh


def read_regular_file(path: str) -> bytes:
    """The bytes of a regular file; b"" if it became something else since it was listed (never
    follows a link, never waits on a FIFO)."""
    handle = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    with open(handle, "rb") as file:
        return file.read() if stat.S_ISREG(os.fstat(handle).st_mode) else b""


def bytes_digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def read_or_make_key(path: Path) -> bytes:
    """The cache's secret: read if it is a regular file of ours that no one else can read or
    write, else made anew (which leaves every stored entry unsealed, so ignored)."""
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        with open(handle, "rb") as file:
            info = os.fstat(handle)
            key = file.read(KEY_SIZE + 1)
        if (stat.S_ISREG(info.st_mode) and info.st_uid == os.getuid() and not info.st_mode & 0o077
                and len(key) == KEY_SIZE):
            return key
    except OSError:  # missing, a link, unreadable: make a new one
        pass
    key = secrets.token_bytes(KEY_SIZE)
    fresh = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with suppress(FileNotFoundError):
        os.unlink(fresh)  # left by a killed build that had this process id
    handle = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with open(handle, "wb") as file:
        file.write(key)
    os.replace(fresh, path)
    return key


class Cache:
    """A persistent key-value store: get_many / put_many of values the codec knows, by kind and key."""

    def __init__(self, path: Path | None, kept: Iterable[type] = ()):
        """path None keeps nothing between builds (an in-memory store). `kept`: the record classes
        its values may be, besides plain values (each stage declares its KEPT_TYPES): an entry
        holding another is missing when read, and refused when stored."""
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.secret = secrets.token_bytes(KEY_SIZE) if path is None else read_or_make_key(path.with_name(KEY_FILE))
        self.codec = Codec(kept)
        self.connection = sqlite3.connect(":memory:" if path is None else str(path))
        self.connection.execute("PRAGMA journal_mode = WAL")  # a killed build loses at most its own writes
        self.connection.execute("PRAGMA synchronous = NORMAL")
        columns = {row[1] for row in self.connection.execute("PRAGMA table_info(entries)")}
        if columns and "seal" not in columns:  # an older version's entries (pickles): never to be read
            self.connection.execute("DROP TABLE entries")
        self.connection.execute("CREATE TABLE IF NOT EXISTS entries "
                                "(kind TEXT, key TEXT, value BLOB, seal BLOB, PRIMARY KEY (kind, key))")

    @classmethod
    def beside(cls, content_dir: Path, kept: Iterable[type] = ()) -> Cache:
        return cls(cls.file_beside(content_dir), kept)

    @staticmethod
    def file_beside(content_dir: Path) -> Path:
        return content_dir / CACHE_DIR / CACHE_FILE

    def get_many(self, kind: str, keys: Iterable[str], digests: dict[str, str] | None = None) -> dict[str, object]:
        """The values stored under these keys; an entry without this cache's seal, or that does
        not decode, is missing. `digests`, when given, receives each value's digest by key (bytes_digest of its stored bytes)
        (from the stored bytes: no value is encoded again)."""
        wanted = sorted(set(keys))  # in the index's order, each chunk's lookups fall on neighbouring pages
        found: dict[str, object] = {}
        for start in range(0, len(wanted), 500):  # SQLite limits the number of parameters
            chunk = wanted[start:start + 500]
            rows = self.connection.execute(
                f"SELECT key, value, seal FROM entries WHERE kind = ? AND key IN ({','.join('?' * len(chunk))})",
                [kind, *chunk])
            for key, value, seal in rows:
                if not (isinstance(value, bytes) and isinstance(seal, bytes)
                        and hmac.compare_digest(self._seal(kind, key, value), seal)):
                    continue
                try:
                    found[key] = self.codec.decode(value)
                except (ValueError, TypeError):  # e.g. a record whose fields changed under an unchanged key
                    continue
                if digests is not None:
                    digests[key] = bytes_digest(value)
        return found

    def get(self, kind: str, key: str) -> object | None:
        return self.get_many(kind, [key]).get(key)

    def put_many(self, kind: str, items: dict[str, object]) -> None:
        rows = []
        for key, value in items.items():
            data = self.codec.encode(value)
            rows.append((kind, key, data, self._seal(kind, key, data)))
        with self.connection:
            self.connection.executemany("INSERT OR REPLACE INTO entries VALUES (?, ?, ?, ?)", rows)

    def put(self, kind: str, key: str, value: object) -> None:
        self.put_many(kind, {key: value})

    def _seal(self, kind: str, key: str, value: bytes) -> bytes:
        """A keyed hash of the entry: only this cache's secret makes it."""
        hashed = hashlib.blake2b(key=self.secret, digest_size=16)
        hashed.update(f"{kind}\0{key}\0".encode("utf-8", "surrogateescape") + value)
        return hashed.digest()

    def kept(self, kind: str, wanted: dict[str, T], make: Callable[[T], object]) -> dict[str, object]:
        """{key: value} for every key of `wanted` ({key: what its value is made from}): stored values,
        and the missing ones made now and stored; the kind keeps only these keys."""
        found = self.get_many(kind, wanted)
        made = {key: make(source) for key, source in wanted.items() if key not in found}
        self.put_many(kind, made)
        self.keep_only(kind, wanted)
        return found | made

    def keep_only(self, kind: str, keys: Iterable[str]) -> None:
        """Forget the entries of a kind this build did not use, so the file does not grow forever.
        `keys` are stored, all of them (the callers keep what they just found or put)."""
        keys = set(keys)
        (stored,), = self.connection.execute("SELECT COUNT(*) FROM entries WHERE kind = ?", [kind])
        if stored <= len(keys):  # nothing else is stored (the usual case): nothing to forget
            return
        # The stored keys are listed and the unused deleted by key: an edit leaves a few, and the keys
        # in use need not be written into a table of their own.
        gone = [(kind, key) for (key,) in self.connection.execute("SELECT key FROM entries WHERE kind = ?", [kind])
                if key not in keys]
        with self.connection:
            self.connection.executemany("DELETE FROM entries WHERE kind = ? AND key = ?", gone)

    def close(self) -> None:
        self.connection.close()
