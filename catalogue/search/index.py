"""Search: Pagefind indexes the built pages (site/pagefind/) for the hosted site; pages opened from
disk, where Pagefind cannot load, search the offline index the render writes (offline.py).

What to index is what the render recorded (PAGES_FILE): each paper page with its venue, year and
a key of what its indexed part is made from. No page is read back to learn it.

Pagefind's index is sharded: SHARD_COUNT bundles (site/pagefind/part-N/), more for a catalogue
whose shards would pass SHARD_PAGES pages, each page in the one a stable hash of its path names,
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

A bundle carries only what the browser reads of it. The browser runs the vocabulary's runtime
(pagefind.js, its worker and WebAssembly); a merged index never loads its own, so a shard keeps
its index, filters, fragments and metadata alone. The vocabulary's results are only counted, never
shown, so it keeps no fragments. Every page is indexed in the site's language (Pagefind's
force_language), one index the reader's page finds, and the vocabulary keeps the one WebAssembly
file that language reads (wasm.en for English; Chinese reads the language-neutral wasm.unknown).
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import html
import json
import re
import subprocess
import threading
import zlib
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from catalogue.errors import CatalogueError
from catalogue.publish.manifest import SEARCH_PAGES
from catalogue.publish.site_folder import SiteFolder
from catalogue.system.cache import Cache, code_version, digest
from catalogue.system.removal import remove_tree
from catalogue.system.terminal import counted

BUNDLE_DIR = "pagefind"
SHARDS_FILE = "shards.json"  # in BUNDLE_DIR: the bundles search.js merges, and their fingerprints
PAGES_FILE = SEARCH_PAGES  # written by the render: the pages to index, their filters and keys (never published)
SHARDS_FORMAT = 6  # bump when the way a shard is indexed changes, so that every shard is indexed again
VOCABULARY = "vocabulary"  # the bundle of each shard's words (a folder in BUNDLE_DIR)
WORDS_KIND = "shard-words"  # cache entries: a shard's words by language, by the shard's fingerprint
ENTRY_FILE = "pagefind-entry.json"  # in every bundle: its languages
SHARD_COUNT = 4  # the fewest shards: a query fetches each shard's index chunks, so its cost grows with the count
# A shard's pages, past SHARD_COUNT shards: Pagefind holds every page of the bundle it indexes (about a
# tenth of a megabyte each), and an edit indexes its page's whole shard again.
SHARD_PAGES = 10_000
SHARD_PREFIX = "part-"
# Pagefind's ready-made interfaces: the site has its own (assets/search.js), so these are not kept.
UNUSED_FILES = ("pagefind-ui.js", "pagefind-ui.css", "pagefind-modular-ui.js", "pagefind-modular-ui.css",
                "pagefind-component-ui.js", "pagefind-component-ui.css", "pagefind-highlight.js")
RUNTIME_FILES = ("pagefind.js", "pagefind-worker.js")  # with wasm.*.pagefind: the vocabulary's alone are loaded
FRAGMENT_SIGNATURE = b"pagefind_dcd"  # Pagefind 1.x puts this before each fragment's JSON
# A shard holds a quarter of the catalogue: its fragments go in folders by their name's last
# letter (fragment/<letter>/<name>), so that no folder grows past a host's limit, and the runtime
# is told so (its one line that names a fragment's address).
FRAGMENT_ADDRESS = "`${this.basePath}fragment/${hash}.pf_fragment`"
FOLDED_FRAGMENT_ADDRESS = "`${this.basePath}fragment/${hash.slice(-1)}/${hash}.pf_fragment`"
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
    """SHARD_COUNT shards, or more when they would hold over SHARD_PAGES pages on average."""
    return max(SHARD_COUNT, -(-pages // SHARD_PAGES))


def shard_of(path: str, count: int = SHARD_COUNT) -> int:
    """A page's shard of `count`: a stable hash of its path, so that a page stays in its shard
    whatever else changes (while the count does)."""
    return zlib.crc32(path.encode("utf-8")) % count


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
    # One thread more than Pagefinds at once: a shard's pages are placed, and its bundle tidied and
    # read, while other shards' Pagefinds run.
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
    """Run Pagefind over the shard's pages alone (hard links at their paths in a scratch folder,
    so that the URLs in the index are the site's) into site/pagefind/<name>/, once `pagefinds`
    lets it; the words indexed (read_bundle_words)."""
    def place(pages: Path) -> None:
        site = SiteFolder(site_dir)
        for relative in shard.pages:
            site.link(relative, pages / relative)

    result = build_bundle(site_dir / BUNDLE_DIR, shard.name, place, language, drop_runtime, pagefinds)
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

    build_bundle(site_dir / BUNDLE_DIR, VOCABULARY, place, language, keep_runtime)


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


@functools.cache
def pagefind_binary() -> str:
    """The executable `python -m pagefind` runs (its extended build when installed, or $PAGEFIND_BINARY_PATH),
    run directly: a Python start per bundle costs more than indexing a small one."""
    try:
        from pagefind.service import get_executable
    except ImportError as error:
        raise CatalogueError(f"cannot run Pagefind ({error}); install it with 'pip install -r requirements.txt'")
    binary = get_executable()
    if binary is None:
        raise CatalogueError("cannot find the Pagefind binary; install it with 'pip install -r requirements.txt'")
    return str(binary)


def build_bundle(bundle_root: Path, name: str, place, language: str, trim,
                 pagefinds: threading.Semaphore | None = None) -> str:
    """Pagefind over a scratch folder that place(folder) fills, in `language`, into bundle_root/name
    (replaced only when complete), trimmed by trim(bundle) to what the browser reads of it, Pagefind
    run once `pagefinds` lets it; returns Pagefind's output."""
    pages, output = bundle_root / f".{name}.pages", bundle_root / f".{name}.bundle"
    try:
        place(pages)
        with pagefinds or nullcontext():
            result = run_pagefind(pages, output, language)
        for unused in UNUSED_FILES:
            (output / unused).unlink(missing_ok=True)
        trim(output)
        remove_tree(bundle_root / name, ignore_errors=True)
        output.rename(bundle_root / name)
    finally:
        remove_tree(pages, ignore_errors=True)
        remove_tree(output, ignore_errors=True)
    return result


def drop_runtime(bundle: Path) -> None:
    """A shard's bundle, merged into the vocabulary's, is read for its data alone; its fragments
    go in folders by their name's last letter (FRAGMENT_ADDRESS)."""
    for unused in [*RUNTIME_FILES, *(path.name for path in bundle.glob("wasm.*.pagefind"))]:
        (bundle / unused).unlink()
    for fragment in sorted((bundle / "fragment").glob("*.pf_fragment")):
        folder = fragment.parent / fragment.stem[-1]
        folder.mkdir(exist_ok=True)
        fragment.rename(folder / fragment.name)


def fragment_files(bundle: Path) -> list[Path]:
    """A shard's fragments, one per page (in fragment/<letter>/)."""
    return sorted((bundle / "fragment").glob("*/*.pf_fragment"))


def keep_runtime(bundle: Path) -> None:
    """The vocabulary's bundle: the runtime with the WebAssembly its languages read (Pagefind
    writes wasm.unknown whatever the languages), and no fragments (its pages are never shown)."""
    needed = {f"wasm.{index.get('wasm') or 'unknown'}.pagefind" for index in bundle_languages(bundle).values()}
    for path in bundle.glob("wasm.*.pagefind"):
        if path.name not in needed:
            path.unlink()
    remove_tree(bundle / "fragment")
    for name in RUNTIME_FILES:
        script = bundle / name
        code = script.read_text(encoding="utf-8")
        if code.count(FRAGMENT_ADDRESS) != 1:
            raise CatalogueError(f"{script}: this Pagefind's runtime does not name a fragment's address as "
                                 f"{FRAGMENT_ADDRESS}; search cannot find fragments in folders (pin the Pagefind "
                                 "version of requirements.txt)")
        script.write_text(code.replace(FRAGMENT_ADDRESS, FOLDED_FRAGMENT_ADDRESS), encoding="utf-8")


def bundle_languages(bundle: Path) -> dict[str, dict]:
    """{language: its index's entry} of a bundle (its pagefind-entry.json)."""
    try:
        return dict(json.loads((bundle / ENTRY_FILE).read_text(encoding="utf-8"))["languages"])
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise CatalogueError(f"{bundle}: unreadable Pagefind bundle ({error})")


def run_pagefind(site: Path, output: Path, language: str) -> str:
    """Pagefind's output for indexing `site` into `output`, every page in `language`; a
    CatalogueError when it fails."""
    command = [pagefind_binary(), "--site", str(site), "--output-path", str(output), "--force-language", language]
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=1800)
    except OSError as error:
        raise CatalogueError(f"cannot run Pagefind ({error}); install it with 'pip install -r requirements.txt'")
    if result.returncode != 0 or not (output / "pagefind.js").exists():
        text = (result.stderr or result.stdout).strip()[-2000:]
        raise CatalogueError(f"Pagefind failed (exit {result.returncode}):\n{text}\n"
                             "Is it installed? 'pip install -r requirements.txt' brings it; or build with --no-search.")
    return result.stdout


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
