"""Search: Pagefind indexes the built pages (site/pagefind/) for the hosted site; pages opened from
disk, where Pagefind cannot load, search the offline index the render writes (offline.py).

What to index is what the render recorded (PAGES_FILE): each paper page with its venue, year and
a key of what its indexed part is made from. No page is read back to learn it.

Pagefind's index is sharded: SHARD_COUNT bundles (site/pagefind/part-N/), more for a catalogue
whose shards would pass SHARD_PAGES pages, each page in the one its bucket (a stable hash of its slug) names,
so that indexing memory is bounded by a shard, a shard whose pages did not change since the last
build is reused instead of indexed again, and a query fetches the same number of index chunks
however many venues and years the catalogue has (venue and year are Pagefind filters of every
page). The browser merges the bundles (Pagefind's
mergeIndex). One more bundle, site/pagefind/vocabulary/, holds one page per shard with all the
words of that shard: Pagefind falls back to shorter prefixes for a word an index lacks, and a
shard lacking a word another shard has would otherwise add such near misses, which one index
over every page never shows. The browser searches the vocabulary first and keeps the shards
that match, as one index would. It is one index for that reason (split, each part would fall back
on its own), and it is indexed again only when a shard's words change, not at every edit of a page.
site/pagefind/shards.json lists the bundles for assets/search.js.
Running Pagefind and trimming its bundles: bundles.py.
"""

from __future__ import annotations

import gzip
import hashlib
import html
import json
import re
import threading
import zlib
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from catalogue import routes
from catalogue.errors import CatalogueError
from catalogue.search.bundles import (ENTRY_FILE, FRAGMENT_SIGNATURE, build_bundle, bundle_languages, drop_runtime,
                                      fragment_files, keep_runtime, run_pagefind)
from catalogue.publish.manifest import SEARCH_PAGES
from catalogue.publish.site_folder import SiteFolder
from catalogue.system.cache import Cache, code_version, digest
from catalogue.system.removal import remove_tree
from catalogue.system.terminal import counted

BUNDLE_DIR = "pagefind"
SHARDS_FILE = "shards.json"  # in BUNDLE_DIR: the bundles search.js merges, and their fingerprints
PAGES_FILE = SEARCH_PAGES  # written by the render: the pages to index, their filters and keys (never published)
SHARDS_FORMAT = 7  # bump when the way a shard is indexed changes, so that every shard is indexed again
VOCABULARY = "vocabulary"  # the bundle of each shard's words (a folder in BUNDLE_DIR)
WORDS_KIND = "shard-words"  # cache entries: a shard's words by language, by the shard's fingerprint
SHARD_COUNT = 4  # the fewest shards: a query fetches each shard's index chunks, so its cost grows with the count
# A shard's pages, past SHARD_COUNT shards: Pagefind holds every page of the bundle it indexes (about a
# tenth of a megabyte each), and an edit indexes its page's whole shard again.
SHARD_PAGES = 10_000
SHARD_PREFIX = "part-"
TEXT_META = ("name", "title")  # metadata that is also the page's text (not its id, nor the derived mark)


@dataclass(frozen=True)
class Shard:
    """Pages indexed together into one Pagefind bundle, site/pagefind/<name>/."""

    name: str  # part-1 ... part-<shard_count>
    pages: tuple[str, ...]  # paths relative to the site, sorted
    fingerprint: str  # changes when any page, Pagefind's version or the way of indexing changes


@dataclass(frozen=True)
class IndexedPage:
    """A page Pagefind indexes, as the render recorded it in PAGES_FILE."""

    path: str  # from the site's root
    venue: str  # the page's venue and year filters as the page writes them ("" when it names none)
    year: str
    key: str  # a digest of everything the page's indexed part is made from: a new key, a new index


def render_pages_file(pages: list[IndexedPage], language: str) -> str:
    """The record of the pages to index and the site's language (its pages' lang)."""
    rows = sorted([page.path, page.venue, page.year, page.key] for page in pages)
    return json.dumps({"format": 2, "language": language, "pages": rows}, ensure_ascii=False, separators=(",", ":")) + "\n"


def read_pages_file(site_dir: Path) -> list[IndexedPage]:
    """The pages the render recorded for the index; a site without the record was not built by this version."""
    return read_record(site_dir)[1]


def read_record(site_dir: Path) -> tuple[str, list[IndexedPage]]:
    """The site's language, as Pagefind names it (lower case), and the pages the render recorded."""
    try:
        record = json.loads(SiteFolder(site_dir).private(PAGES_FILE).read_text(encoding="utf-8"))
        language = str(record["language"]).lower()
        if not language:
            raise ValueError("no language")
        return language, [IndexedPage(*(str(field) for field in row)) for row in record["pages"] if len(row) == 4]
    except (OSError, ValueError, KeyError, TypeError):
        raise CatalogueError(f"{site_dir}/{PAGES_FILE}: missing or unreadable; build the site again "
                             "(python3 build.py render) before indexing it") from None


def shard_count(pages: int) -> int:
    """SHARD_COUNT shards, or more when they would hold over SHARD_PAGES pages on average (at most
    one per bucket)."""
    return min(max(SHARD_COUNT, -(-pages // SHARD_PAGES)), routes.BUCKETS)


def shard_of(path: str, count: int = SHARD_COUNT) -> int:
    """A paper page's shard of `count`: its bucket's (routes.bucket, a stable hash of its slug), so
    that a page stays in its shard whatever else changes (while the count does), and Pagefind finds
    a shard's pages by a pattern of its buckets (shard_glob)."""
    bucket = routes.bucket_of_paper_page(path)
    if bucket is None:
        raise CatalogueError(f"{PAGES_FILE}: {path!r} is not a paper page; build the site again")
    return int(bucket, 16) % count


def shard_glob(shard: Shard) -> str:
    """The pattern of the shard's pages, by their buckets: the other paper pages its buckets hold
    are the site's old addresses, which Pagefind skips (no data-pagefind-body)."""
    buckets = sorted({routes.bucket_of_paper_page(path) for path in shard.pages})
    return routes.PATTERNS["paper"].format(bucket="{" + ",".join(buckets) + "}", slug="*")


def read_shards(site_dir: Path) -> list[Shard]:
    """The pages the render recorded for Pagefind (PAGES_FILE), grouped into shards, with fingerprints."""
    return group_shards(*read_record(site_dir))


def group_shards(language: str, recorded: list[IndexedPage]) -> list[Shard]:
    """The pages grouped by shard_of into shard_count shards, with fingerprints (which the site's
    language is part of)."""
    count = shard_count(len(recorded))
    groups: dict[int, list[IndexedPage]] = defaultdict(list)
    for page in recorded:
        groups[shard_of(page.path, count)].append(page)
    shards = []
    for number, pages in sorted(groups.items()):
        pages.sort(key=lambda page: page.path)
        shards.append(Shard(f"{SHARD_PREFIX}{number + 1}", tuple(page.path for page in pages),
                            fingerprint(language, *(f"{page.path} {page.key}" for page in pages))))
    return shards


def fingerprint(*lines: str) -> str:
    """A hash of the lines, Pagefind's version and SHARDS_FORMAT."""
    try:
        version = metadata.version("pagefind")
    except metadata.PackageNotFoundError:
        version = "unknown"
    return hashlib.sha256("\n".join([f"{SHARDS_FORMAT} pagefind {version}", *lines]).encode()).hexdigest()[:32]


def index_site(site_dir: Path, previous: Path | None = None, jobs: int = 1, cache: Cache | None = None) -> str:
    """Index site_dir with Pagefind, one bundle per shard plus the vocabulary; returns a summary.

    A bundle whose fingerprint matches the one recorded in `previous` (an earlier build of the
    site; by default site_dir itself) is kept from there (as hard links when previous is another
    folder, unless site_dir holds those links already). The others are indexed, `jobs` Pagefinds at
    a time; bundles no longer needed are removed. `cache` keeps each shard's words for the
    vocabulary, so that only the shards indexed now are read back; the vocabulary is kept while
    every shard's words are those it was made from."""
    language, pages_recorded = read_record(site_dir)
    shards = group_shards(language, pages_recorded)
    if not shards:
        raise CatalogueError(f"{site_dir}: no pages to index for search")
    previous = previous or site_dir
    bundle_root = site_dir / BUNDLE_DIR
    recorded = read_fingerprints(previous / BUNDLE_DIR)
    wanted = {shard.name: shard.fingerprint for shard in shards}
    reusable = {name for name, mark in wanted.items() if recorded.get(name) == mark
                and (previous / BUNDLE_DIR / name / ENTRY_FILE).is_file()}
    if bundle_root.is_dir():  # bundles no longer wanted, files of an unsharded index, unfinished work
        for entry in bundle_root.iterdir():
            if not (entry.name in reusable | {VOCABULARY} and same_bundle(entry, previous / BUNDLE_DIR / entry.name)):
                remove_tree(entry) if entry.is_dir() and not entry.is_symlink() else entry.unlink()
    bundle_root.mkdir(exist_ok=True)
    for name in sorted(reusable):
        if not (bundle_root / name).exists():
            SiteFolder(previous).link(f"{BUNDLE_DIR}/{name}", bundle_root / name)
    stale = [shard for shard in shards if shard.name not in reusable]
    # One thread more than Pagefinds at once: a shard's bundle is tidied and read while other shards' Pagefinds run.
    pagefinds = threading.Semaphore(max(1, jobs))
    with ThreadPoolExecutor(max_workers=max(1, jobs) + 1) as pool:
        read_now = dict(zip((shard.name for shard in stale),
                            pool.map(lambda shard: index_shard(site_dir, shard, language, pagefinds), stale)))
    words = shard_words(site_dir, shards, cache or Cache(None), read_now)
    wanted[VOCABULARY] = fingerprint(code_version(__name__), *(f"{shard.name} {words[shard.name][0]}" for shard in shards))
    if recorded.get(VOCABULARY) == wanted[VOCABULARY] and (previous / BUNDLE_DIR / VOCABULARY / ENTRY_FILE).is_file():
        if not (bundle_root / VOCABULARY).exists():  # the same words as the last build's: its vocabulary holds
            SiteFolder(previous).link(f"{BUNDLE_DIR}/{VOCABULARY}", bundle_root / VOCABULARY)
    else:
        index_vocabulary(site_dir, shards, words, language)
    (bundle_root / SHARDS_FILE).write_text(render_shards_file(
        shards, wanted[VOCABULARY], sorted({page.year for page in pages_recorded if page.year})), encoding="utf-8")
    pages = sum(len(shard.pages) for shard in shards)
    indexed = ", ".join(f"{shard.name} ({len(shard.pages)})" for shard in stale)
    return (f"Indexed {counted(pages, 'page')} in {counted(len(shards), 'shard')}: "
            f"{len(shards) - len(stale)} unchanged, {len(stale)} indexed" + (f": {indexed}" if stale else ""))


def index_shard(site_dir: Path, shard: Shard, language: str, pagefinds: threading.Semaphore) -> dict[str, list[str]]:
    """Run Pagefind over the shard's pages (shard_glob: its buckets) into site/pagefind/<name>/, once
    `pagefinds` lets it; the words indexed (read_bundle_words). The site holds no paper page the render
    did not record (SiteWriter.remove_gone), so Pagefind indexes the shard's pages, all of them."""
    result = build_bundle(site_dir / BUNDLE_DIR, shard.name, lambda output: run_pagefind(
        site_dir, output, language, shard_glob(shard)), drop_runtime, pagefinds)
    found = re.search(r"Indexed (\d+) page", result)
    if not found or int(found.group(1)) != len(shard.pages):
        raise CatalogueError(f"Pagefind indexed {found.group(1) if found else 'none'} of the {len(shard.pages)} "
                             f"pages of shard {shard.name}:\n{result.strip()[-2000:]}")
    return read_bundle_words(site_dir / BUNDLE_DIR / shard.name)


def same_bundle(bundle: Path, previous: Path) -> bool:
    """Whether `bundle` is `previous` itself or its hard links (a staging folder's copy of the
    previous site), so that a bundle to reuse need not be linked again."""
    try:
        return bundle.is_dir() and not bundle.is_symlink() and (bundle / ENTRY_FILE).samefile(previous / ENTRY_FILE)
    except OSError:
        return False


def shard_words(site_dir: Path, shards: list[Shard], cache: Cache,
                read_now: dict[str, dict[str, list[str]]]) -> dict[str, tuple[str, tuple]]:
    """{shard: (a digest of its words, ((language, its words), ...))}: as `read_now` holds them (the
    shards just indexed), else kept in `cache` by the shard's fingerprint, else read back from the
    shard's fragments (read_bundle_words)."""
    keys = {shard.name: digest(code_version(__name__), shard.fingerprint) for shard in shards}

    def read(name: str) -> tuple[str, tuple]:
        indexed = read_now[name] if name in read_now else read_bundle_words(site_dir / BUNDLE_DIR / name)
        found = tuple((language, tuple(words)) for language, words in indexed.items())
        return digest(found), found

    kept = cache.kept(WORDS_KIND, {key: name for name, key in keys.items()}, read)
    return {name: kept[key] for name, key in keys.items()}


def index_vocabulary(site_dir: Path, shards: list[Shard], words: dict[str, tuple[str, tuple]], language: str) -> None:
    """The vocabulary bundle: for each shard and language, one page with every word Pagefind
    indexed there (shard_words), filtered as vocabulary:<shard>."""
    def place(pages: Path) -> None:
        pages.mkdir(parents=True)
        for shard in shards:
            for code, indexed in words[shard.name][1]:
                (pages / f"{shard.name}.{code}.html").write_text(
                    render_vocabulary_page(shard.name, code, indexed), encoding="utf-8")

    pages = site_dir / BUNDLE_DIR / f".{VOCABULARY}.pages"
    try:
        place(pages)
        build_bundle(site_dir / BUNDLE_DIR, VOCABULARY, lambda output: run_pagefind(pages, output, language), keep_runtime)
    finally:
        remove_tree(pages, ignore_errors=True)


def read_bundle_words(bundle: Path) -> dict[str, list[str]]:
    """{language: the distinct words of its pages' text}, from a bundle's fragments (named
    <language>_<hash>.pf_fragment); surrounding punctuation is dropped, Pagefind drops it too."""
    languages = sorted(bundle_languages(bundle), key=len, reverse=True)
    words: dict[str, set[str]] = defaultdict(set)
    for fragment in fragment_files(bundle):
        try:
            data = json.loads(gzip.decompress(fragment.read_bytes()).removeprefix(FRAGMENT_SIGNATURE))
        except (OSError, EOFError, zlib.error, ValueError) as error:
            raise CatalogueError(f"{fragment}: unreadable Pagefind fragment ({error})")
        language = next((code for code in languages if fragment.name.startswith(f"{code}_")), "unknown")
        meta = data.get("meta", {})
        text = " ".join([data.get("content", ""), *(str(meta[key]) for key in TEXT_META if key in meta)])
        words[language].update(word for word in (token.strip(".,;:!?()[]{}\"'") for token in text.split()) if word)
    return {language: sorted(found) for language, found in sorted(words.items())}


def render_vocabulary_page(shard: str, language: str, words: list[str]) -> str:
    return (f'<!DOCTYPE html>\n<html lang="{html.escape(language)}"><head><meta charset="utf-8"><title>{shard}</title>'
            f'</head><body><main data-pagefind-body data-pagefind-filter="vocabulary:{shard}">\n'
            + html.escape(" ".join(words)) + "\n</main></body></html>\n")


def render_shards_file(shards: list[Shard], vocabulary: str, years: list[str]) -> str:
    """shards.json: the vocabulary bundle and each shard's bundle (folders relative to
    site/pagefind/), with their name, page count and fingerprint; and the years the pages name
    (a sort by year searches one year at a time)."""
    bundles = [{"name": shard.name, "path": f"{shard.name}/", "pages": len(shard.pages),
                "fingerprint": shard.fingerprint} for shard in shards]
    return json.dumps({"format": SHARDS_FORMAT, "vocabulary": {"path": f"{VOCABULARY}/", "fingerprint": vocabulary},
                       "years": years, "bundles": bundles}, ensure_ascii=False, indent=1) + "\n"


def read_fingerprints(bundle_root: Path) -> dict[str, str]:
    """{bundle folder: fingerprint} recorded in bundle_root/shards.json; empty when there is none."""
    try:
        data = json.loads((bundle_root / SHARDS_FILE).read_text(encoding="utf-8"))
        if data.get("format") != SHARDS_FORMAT:
            return {}
        return {bundle["path"].rstrip("/"): bundle["fingerprint"] for bundle in [*data["bundles"], data["vocabulary"]]}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}
