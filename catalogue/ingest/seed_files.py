"""Finding and opening seed files safely: only regular files with a seed extension that live in
the seeds folder are read, never more than a cap, and only when their bytes are text.

A seeds folder is input a person points at, sometimes by mistake and sometimes holding things
no one meant to publish (a link to /etc/passwd, a FIFO, a PDF saved as .txt). Each such file
is skipped with a note; a folder that is missing or holds no seed file at all stops the run
before anything is written.
"""

from __future__ import annotations

import codecs
import errno
import hashlib
import os
import stat
from dataclasses import dataclass, replace
from pathlib import Path

from catalogue.text import TERMINAL_UNSAFE, count_unsafe, printable, split_lines
from catalogue.system.cache import KnownFiles, bytes_digest
from catalogue.system.terminal import display
from catalogue.errors import CatalogueError
from catalogue.model import Problem, Source
from catalogue.ingest.structured_lists import STRUCTURED_EXTENSIONS

SEED_EXTENSIONS = (".txt", *STRUCTURED_EXTENSIONS)  # compared in lower case: Windows tools write .TXT
MAX_SEED_BYTES = 50 * 2**20
TOO_LARGE = f"larger than {MAX_SEED_BYTES // 2**20} MB; split it into smaller lists. Skipped"
# Byte-order marks, longest first: UTF-32's little-endian mark begins with UTF-16's.
BOMS = ((codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"), (codecs.BOM_UTF8, "utf-8"),
        (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))
# The first bytes of files people save as .txt by mistake.
MAGIC = ((b"%PDF", "a PDF"), (b"PK\x03\x04", "a zip archive, such as a .docx or .xlsx"), (b"\x89PNG", "a PNG image"),
         (b"GIF8", "a GIF image"), (b"\xff\xd8\xff", "a JPEG image"), (b"{\\rtf", "an RTF document"))
# Text copied from PDFs carries a stray control character now and then (replaced and reported by
# line); binary data is full of them.
MAX_CONTROL_SHARE = 0.02
MIN_CONTROLS = 32
MAX_UNDECODABLE_SHARE = 0.10


@dataclass(frozen=True)
class SeedFile:
    """A seed file found in the seeds folder, checked but not yet opened."""

    path: Path  # the entry in the seeds folder (a link's own name)
    shown: str  # how content/ and messages name it: seeds/x.txt
    identity: tuple[int, int]  # (device, inode) of the file read, to notice a swap before opening


def is_seed_name(name: str) -> bool:
    return name.lower().endswith(SEED_EXTENSIONS)


def check_seeds_folder(seeds_dir: Path) -> None:
    """A CatalogueError, one line naming the path given, unless seeds_dir is a folder that holds seed
    files or is one seed file."""
    shown = printable(seeds_dir.as_posix())
    if not seeds_dir.exists():
        raise CatalogueError(f"{shown}: no such file or folder; check --seeds (nothing was read or written)")
    if not seeds_dir.is_dir():
        if not is_seed_name(seeds_dir.name):
            raise CatalogueError(f"{shown}: not a seed list ({', '.join('*' + e for e in SEED_EXTENSIONS)}) nor a "
                                 "folder of them; check --seeds (nothing was read or written)")
        return
    try:
        names = os.listdir(seeds_dir)
    except OSError as error:
        raise CatalogueError(f"{shown}: cannot be read ({error.strerror})")
    if not any(is_seed_name(name) for name in names):
        raise CatalogueError(f"{shown}: no seed files ({', '.join('*' + e for e in SEED_EXTENSIONS)}) in this "
                             "folder; check --seeds (nothing was read or written)")


def find_seed_files(seeds_dir: Path, project: Path) -> tuple[list[SeedFile], list[Problem]]:
    """The seed files of a folder, by name, and a note for each entry with a seed extension that is skipped.

    Nothing is opened here: links are resolved and must stay inside the folder, and the file
    they name must be a regular file of at most MAX_SEED_BYTES.
    """
    check_seeds_folder(seeds_dir)
    folder, entries = seed_entries(seeds_dir)
    files, problems = [], []
    for name, path in entries:
        if not is_seed_name(name):
            continue
        shown = source_path(folder / name, project, folder)
        info, reason = checked_entry(path, folder)
        reason = unreadable_name(name) or reason
        if reason:
            problems.append(Problem(Source(shown), reason))
            continue
        files.append(SeedFile(path, shown, (info.st_dev, info.st_ino)))
    return files, problems


def seed_entries(seeds_dir: Path) -> tuple[Path, list[tuple[str, Path]]]:
    """The folder whose files are read (resolved) and its entries to look at, (name, path) by name:
    --seeds names a folder, or one file, whose folder is read for that file alone."""
    if seeds_dir.is_dir():
        return seeds_dir.resolve(), [(name, seeds_dir / name) for name in sorted(os.listdir(seeds_dir))]
    return seeds_dir.parent.resolve(), [(seeds_dir.name, seeds_dir)]


def unreadable_name(name: str) -> str | None:
    """A name that `source:` could not carry, or None."""
    if TERMINAL_UNSAFE.search(name):
        return "the file name holds a control character (such as a line break); rename the file. Skipped"
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return "the file name is not UTF-8; rename the file. Skipped"
    return None


def checked_entry(path: Path, folder: Path) -> tuple[os.stat_result | None, str | None]:
    """(what path names, None) for a file that may be read, else (None, why not)."""
    try:
        if stat.S_ISLNK(os.lstat(path).st_mode) and not path.resolve().is_relative_to(folder):
            return None, (f"a link to a file outside {folder.name}/; copy the file there instead of linking to it. "
                          "Skipped")
        info = os.stat(path)
    except OSError as error:
        return None, f"cannot be read ({error.strerror}); skipped"
    except RuntimeError:  # a loop of links (Python before 3.13; later ones raise OSError ELOOP)
        return None, f"cannot be read ({os.strerror(errno.ELOOP)}); skipped"
    if stat.S_ISDIR(info.st_mode):
        return None, "a folder, not a seed file; skipped"
    if not stat.S_ISREG(info.st_mode):
        return None, "not a regular file (a pipe, socket or device); skipped"
    if info.st_size > MAX_SEED_BYTES:
        return None, TOO_LARGE
    return info, None


class Unreadable(Exception):
    """A seed file that cannot be read after all; the message says why."""


def read_seed_bytes(seed: SeedFile) -> bytes:
    """The file's bytes, or Unreadable if it is too large or no longer the file that was checked.

    Opened without blocking (a FIFO swapped in would otherwise wait for a writer) and checked
    again once open; the size on disk is not trusted (files in /proc say 0), the bytes read are."""
    try:
        fd = os.open(seed.path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        with os.fdopen(fd, "rb") as file:
            info = os.fstat(fd)
            if (info.st_dev, info.st_ino) != seed.identity or not stat.S_ISREG(info.st_mode):
                raise Unreadable("changed while being read; skipped")
            data = file.read(MAX_SEED_BYTES + 1)
    except OSError as error:
        raise Unreadable(f"cannot be read ({error.strerror}); skipped")
    if len(data) > MAX_SEED_BYTES:
        raise Unreadable(TOO_LARGE)
    return data


@dataclass(frozen=True)
class SeedText:
    """A seed file's bytes as text, or why they are not text."""

    text: str | None
    why_not: str = ""
    replaced: bool = False  # bytes that are not UTF-8 became U+FFFD


# The note for a file with a few stray bytes: kept, since the rest of the line is still worth reading.
REPLACED_BYTES = "bytes that are not UTF-8 were replaced by '\ufffd'; save the file as UTF-8 to keep those characters"


def replaced_bytes(decoded: SeedText, path: str) -> tuple[Problem, ...]:
    """A note for each line where decoding replaced bytes (none when it replaced nothing: a U+FFFD
    the file itself writes in UTF-8 is a character like any other)."""
    if not decoded.replaced or decoded.text is None:
        return ()
    return tuple(Problem(Source(path, number), REPLACED_BYTES)
                 for number, line in enumerate(split_lines(decoded.text), 1) if "\ufffd" in line)


def decode_seed_bytes(data: bytes) -> SeedText:
    """UTF-8 with or without a byte-order mark, UTF-16 or UTF-32 with one; bytes that are not
    UTF-8 become U+FFFD. Binary data and files of other kinds are not text (pure: no I/O)."""
    for magic, kind in MAGIC:
        if data.startswith(magic):
            return SeedText(None, f"not a text file (looks like {kind}); skipped")
    bom, encoding = next(((bom, name) for bom, name in BOMS if data.startswith(bom)), (b"", "utf-8"))
    try:
        text, replaced = data[len(bom):].decode(encoding), False
    except UnicodeDecodeError:
        text, replaced = data[len(bom):].decode(encoding, errors="replace"), True
    if "\x00" in text:  # git's rule too: no editor writes NUL into text
        return SeedText(None, "not a text file (binary data: it holds NUL bytes; UTF-16 needs a byte-order mark); "
                              "skipped")
    controls = count_unsafe(text)
    if controls >= MIN_CONTROLS and controls > MAX_CONTROL_SHARE * len(text):
        return SeedText(None, "not a text file (binary data: many control characters); skipped")
    if text.count("\ufffd") > MAX_UNDECODABLE_SHARE * len(text):
        return SeedText(None, "not UTF-8 text (nor UTF-16 or UTF-32 with a byte-order mark); save it as UTF-8. "
                              "Skipped")
    return SeedText(text, replaced=replaced)


def seeds_state(seeds_dir: Path, project: Path, known: KnownFiles | None = None) -> str:
    """A hash of what ingest reads from the seeds folder (names and bytes of the seed files, and which
    are skipped), for the build's fingerprint; with `known`, a file it vouches for is not read again.
    Raises CatalogueError as find_seed_files does."""
    files, skipped = find_seed_files(seeds_dir, project)
    hashed = hashlib.blake2b(digest_size=16)
    for problem in skipped:
        hashed.update(f"{problem}\0".encode("utf-8", "surrogateescape"))
    for seed in files:
        try:
            found = seed_digest(seed, known)
        except Unreadable as error:
            found = str(error)
        hashed.update(seed.shown.encode("utf-8", "surrogateescape") + b"\0" + found.encode() + b"\0")
    return hashed.hexdigest()


def seed_digest(seed: SeedFile, known: KnownFiles | None) -> str:
    """The digest of a seed file's bytes (Unreadable as read_seed_bytes)."""
    if known is None:
        return bytes_digest(read_seed_bytes(seed))
    try:
        info = os.stat(seed.path)
    except OSError as error:
        raise Unreadable(f"cannot be read ({error.strerror}); skipped")
    if (info.st_dev, info.st_ino) != seed.identity:  # swapped since it was checked: as read_seed_bytes says
        raise Unreadable("changed while being read; skipped")
    return known.file_digest(seed.shown, info, lambda: read_seed_bytes(seed))


def seed_places(seeds_dir: Path, project: Path) -> dict[str, Path]:
    """Where each seed file named by its label (seeds/x.txt, from the project) really is: a note must
    lead to the file from the working directory, never to the project's own seeds/ when the seeds lie
    elsewhere, nor to a seeds/ of the working directory when the project is elsewhere."""
    folder, entries = seed_entries(seeds_dir)
    return {source_path(folder / name, project, folder): folder / name for name, _ in entries if is_seed_name(name)}


def at_their_places(problems: list[Problem], seeds_dir: Path, project: Path) -> list[Problem]:
    """The problems, each naming its seed file where it is from the working directory."""
    places = seed_places(seeds_dir, project)
    return [replace(problem, source=replace(problem.source, path=display(places[problem.source.path])))
            if problem.source.path in places else problem for problem in problems]


def source_path(seed_path: Path, project: Path, folder: Path) -> str:
    """How a seed file is named in content/ and in messages: relative to the project (seeds/x.txt),
    or seeds/<file name> when the seeds folder is elsewhere (no absolute path is ever published)."""
    try:
        return seed_path.relative_to(project.resolve()).as_posix()
    except ValueError:
        return f"seeds/{seed_path.name}"
