"""content/papers/: every content file read into its Paper, through the cache, each problem
reported with its file; ids and slugs (old ones included) unique across the folder.
"""

from __future__ import annotations

import os
from contextlib import nullcontext
from pathlib import Path

from catalogue.system.cache import Cache, bytes_digest, code_version, digest
from catalogue.system.codec import Codec
from catalogue.errors import CatalogueError
from catalogue.model import RECORDS, Paper
from catalogue.content.paper_file import read_paper
from catalogue.routes import CONTENT_PAPERS
from catalogue.system.workers import made_for_each

PAPERS_DIR = CONTENT_PAPERS
CONTENT = "content"  # cache entries: a content file's Paper, by content_key
KEPT_TYPES = RECORDS  # the records a content file's Paper is made of, as the cache keeps them
PAPER_CODEC = Codec(KEPT_TYPES)
PARALLEL_FROM = 500  # fewer files are parsed faster by one process than by workers
PARSE_CHUNK = 50  # files a worker parses between two requests


def paper_digest(paper: Paper) -> str:
    """A digest of a paper by its bytes as the cache keeps them (so as Cache.get_many's `digests`
    gives it): the same in every cache, and cheaper than digest() of a large record."""
    return bytes_digest(PAPER_CODEC.encode(paper))


def content_key(path: str, info: os.stat_result) -> str:
    """The cache key of a content file as it is now: edited (new size or time), it is parsed again."""
    return digest(code_version(__name__), path, info.st_size, info.st_mtime_ns)


def remember_as_read(written: dict[Path, Paper], cache: Cache) -> None:
    """Content files just written from these papers, put in the cache as if read: the text of
    render_paper_markdown reads back as the same Paper (a property the tests check), so the
    build after an ingest need not parse the files again."""
    cache.put_many(CONTENT, {content_key(str(path), path.stat()): paper for path, paper in written.items()})


def read_papers(content_dir: Path, cache: Cache | None = None) -> dict[Path, Paper]:
    """Every paper in content/papers/, by file; all problems reported together.

    With a cache, a file whose size and modification time are as last read is not parsed again.
    """
    return read_papers_and_digests(content_dir, cache)[0]


def read_papers_and_digests(content_dir: Path, cache: Cache | None = None) -> tuple[dict[Path, Paper], dict[Path, str]]:
    """read_papers, and each paper's paper_digest by file (taken from the cached bytes where the
    paper was cached)."""
    papers: dict[Path, Paper] = {}
    errors: list[str] = []
    keys = {}
    inside = content_dir.resolve()
    with os.scandir(content_dir / PAPERS_DIR) if (content_dir / PAPERS_DIR).is_dir() else nullcontext([]) as entries:
        for entry in sorted(entries, key=lambda entry: entry.name):
            if not entry.name.endswith(".md"):
                continue
            if entry.is_symlink() and not Path(os.path.realpath(entry.path)).is_relative_to(inside):
                errors.append(f"{Path(entry.path).as_posix()}: a link to a file outside {content_dir.as_posix()}/; "
                              "copy the file here instead of linking to it")
            elif not entry.is_file():  # a FIFO would never end, a device might not; a folder is no paper
                errors.append(f"{Path(entry.path).as_posix()}: not a regular file; remove it or move it elsewhere")
            else:
                keys[Path(entry.path)] = content_key(entry.path, entry.stat())
    stored: dict[str, str] = {}
    known = cache.get_many(CONTENT, keys.values(), stored) if cache else {}
    unread = [path for path in sorted(keys) if keys[path] not in known]
    read = dict(zip(unread, parse_files(unread)))
    parsed = {}
    digests = {}
    for path in sorted(keys):
        if keys[path] in known:
            papers[path], digests[path] = known[keys[path]], stored[keys[path]]
        elif isinstance(paper := read[path], Paper):
            papers[path] = parsed[keys[path]] = paper
        else:
            errors += paper.split("\n")  # a file's problems, one a line
    if cache:
        cache.put_many(CONTENT, parsed)
        cache.keep_only(CONTENT, keys.values())
    errors += _duplicates(papers, "id") + _duplicates(papers, "slug") + _reused_addresses(papers)
    if errors:
        raise CatalogueError(f"{content_dir.as_posix()}/ has problems:\n  " + "\n  ".join(errors))
    digests |= {path: paper_digest(papers[path]) for path in papers if path not in digests}
    return papers, digests


def parse_files(paths: list[Path]) -> list[Paper | str]:
    """Each content file's Paper, or the message of what is wrong with it; on every core when there
    are many (a clone, or a new version of the tool, finds none in the cache)."""
    def parse(index: int) -> Paper | str:
        try:
            return read_paper(paths[index])
        except CatalogueError as error:
            return error.message

    return made_for_each(parse, len(paths), lambda at, code: (
        f"{paths[at].as_posix()}: the process reading this file stopped (exit code {code})"),
        alone_below=PARALLEL_FROM, chunk=PARSE_CHUNK)


def _duplicates(papers: dict[Path, Paper], key: str) -> list[str]:
    first: dict[str, Path] = {}
    problems = []
    for path, paper in papers.items():
        value = getattr(paper, key)
        if value in first:
            problems.append(f"{path.as_posix()}: {key} '{value}' is also used by {first[value].as_posix()}")
        first.setdefault(value, path)
    return problems


def _reused_addresses(papers: dict[Path, Paper]) -> list[str]:
    """An old slug redirects to its paper, so no other paper may have it, now or before."""
    owner = {paper.slug: path for path, paper in papers.items()}
    problems = []
    for path, paper in papers.items():
        for slug in paper.old_slugs:
            if owner.get(slug, path) != path:
                problems.append(f"{path.as_posix()}: old slug '{slug}' is also the address of {owner[slug].as_posix()}")
            owner.setdefault(slug, path)
    return problems
