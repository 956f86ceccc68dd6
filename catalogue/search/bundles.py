"""Pagefind run over a site's pages into a bundle, and the bundle trimmed to what the browser reads.

A bundle carries only what the browser reads of it. The browser runs the vocabulary's runtime
(pagefind.js, its worker and WebAssembly); a merged index never loads its own, so a shard keeps
its index, filters, fragments and metadata alone. The vocabulary's results are only counted, never
shown, so it keeps no fragments. Every page is indexed in the site's language (Pagefind's
force_language), one index the reader's page finds, and the vocabulary keeps the one WebAssembly
file that language reads (wasm.en for English; Chinese reads the language-neutral wasm.unknown).
"""

from __future__ import annotations

import functools
import json
import subprocess
import threading
from collections.abc import Callable
from contextlib import nullcontext
from pathlib import Path

from catalogue.errors import CatalogueError
from catalogue.system.removal import remove_tree

ENTRY_FILE = "pagefind-entry.json"  # in every bundle: its languages
# Pagefind's ready-made interfaces: the site has its own (assets/search.js), so these are not kept.
UNUSED_FILES = ("pagefind-ui.js", "pagefind-ui.css", "pagefind-modular-ui.js", "pagefind-modular-ui.css",
                "pagefind-component-ui.js", "pagefind-component-ui.css", "pagefind-highlight.js")
RUNTIME_FILES = ("pagefind.js", "pagefind-worker.js")  # with wasm.*.pagefind: the vocabulary's alone are loaded
FRAGMENT_SIGNATURE = b"pagefind_dcd"  # Pagefind 1.x puts this before each fragment's JSON
# A shard holds thousands of pages: its fragments go in folders by their name's last
# letter (fragment/<letter>/<name>), so that no folder grows past a host's limit, and the runtime
# is told so (its one line that names a fragment's address).
FRAGMENT_ADDRESS = "`${this.basePath}fragment/${hash}.pf_fragment`"
FOLDED_FRAGMENT_ADDRESS = "`${this.basePath}fragment/${hash.slice(-1)}/${hash}.pf_fragment`"


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


def build_bundle(bundle_root: Path, name: str, index: Callable[[Path], str], trim: Callable[[Path], None],
                 pagefinds: threading.Semaphore | None = None) -> str:
    """index(output) (a Pagefind run) into bundle_root/name (replaced only when complete), trimmed by
    trim(bundle) to what the browser reads of it, run once `pagefinds` lets it; returns Pagefind's output."""
    output = bundle_root / f".{name}.bundle"
    try:
        with pagefinds or nullcontext():
            result = index(output)
        for unused in UNUSED_FILES:
            (output / unused).unlink(missing_ok=True)
        trim(output)
        remove_tree(bundle_root / name, ignore_errors=True)
        output.rename(bundle_root / name)
    finally:
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


def run_pagefind(site: Path, output: Path, language: str, glob: str | None = None) -> str:
    """Pagefind's output for indexing `site` (its pages that `glob` matches, else all) into `output`,
    every page in `language`; a CatalogueError when it fails."""
    command = [pagefind_binary(), "--site", str(site), "--output-path", str(output), "--force-language", language,
               *(("--glob", glob) if glob else ())]
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=1800)
    except OSError as error:
        raise CatalogueError(f"cannot run Pagefind ({error}); install it with 'pip install -r requirements.txt'")
    if result.returncode != 0 or not (output / "pagefind.js").exists():
        text = (result.stderr or result.stdout).strip()[-2000:]
        raise CatalogueError(f"Pagefind failed (exit {result.returncode}):\n{text}\n"
                             "Is it installed? 'pip install -r requirements.txt' brings it; or build with --no-search.")
    return result.stdout
