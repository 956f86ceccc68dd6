"""A built site's bytes and files by part, its fullest folder and its largest file.

    python bench/site_parts.py SITE [--json FILE]

Parts: paper pages, author pages, previews (share images), search (Pagefind and the offline
index), data files (papers.json, BibTeX, feeds, sitemaps, list data), lists (home, venues, topics,
authors index and every other page), assets. Bytes are the files' own sizes (what a host stores),
and the tar size GitHub Pages' upload action makes of them (512-byte headers, 512-byte blocks).
"""

import argparse
import json
import sys
from pathlib import Path, PurePosixPath

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from catalogue.site import hosts  # noqa: E402

PREVIEW_SUFFIXES = (".png", ".jpg", ".jpeg")
DATA_NAMES = ("papers", "catalogue", "feed", "sitemap", "list-", "feeds", "data")


def part_of(relative: PurePosixPath) -> str:
    """The part a published file belongs to, read from its address."""
    top = relative.parts[0]
    if relative.suffix in PREVIEW_SUFFIXES and top != "assets":
        return "previews"
    if top == "papers":
        return "paper pages"
    if top == "authors" and len(relative.parts) > 2:
        return "author pages"
    if top.startswith("pagefind") or top == "search-index" or relative.name.startswith("search-index"):
        return "search"
    if top == "assets":
        return "assets"
    if relative.suffix in (".json", ".bib", ".xml", ".js") or top.startswith(DATA_NAMES):
        return "data files"
    return "lists and other pages"


def tar_bytes(size: int) -> int:
    return 512 + (size + 511) // 512 * 512


def measure(site: Path) -> dict:
    shape = hosts.measure(site)  # the walk `check` makes
    parts: dict[str, dict] = {}
    for relative, size in shape.files.items():
        part = parts.setdefault(part_of(PurePosixPath(relative)), {"bytes": 0, "files": 0})
        part["bytes"] += size
        part["files"] += 1
    fullest, largest = shape.fullest(), shape.largest()
    return {
        "parts": dict(sorted(parts.items(), key=lambda item: -item[1]["bytes"])),
        "total": {"bytes": shape.total(), "files": len(shape.files),
                  "tar": 1024 + sum(tar_bytes(size) for size in shape.files.values())},
        "fullest folder": {"path": fullest[0], "entries": fullest[1]},
        "largest file": {"path": largest[0], "bytes": largest[1]},
    }


def show(figures: dict) -> None:
    print(f"{'part':<24}{'MB':>10}{'files':>9}")
    for name, part in figures["parts"].items():
        print(f"{name:<24}{part['bytes'] / 1e6:>10.1f}{part['files']:>9}")
    total = figures["total"]
    print(f"{'total':<24}{total['bytes'] / 1e6:>10.1f}{total['files']:>9}  (as a tar: {total['tar'] / 1e6:.1f} MB)")
    fullest, largest = figures["fullest folder"], figures["largest file"]
    print(f"fullest folder: {fullest['path']} ({fullest['entries']} entries)")
    print(f"largest file: {largest['path']} ({largest['bytes'] / 1e6:.2f} MB)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("--json", type=Path, help="save the figures")
    args = parser.parse_args()
    figures = measure(args.site)
    show(figures)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
