"""What the hosts accept, measured on a built site in one walk: its total size, its file count,
its fullest folder and its largest file, each against GitHub Pages', Netlify's and Cloudflare
Pages' published limits and this project's own (one folder or file that passes a limit fails
`check`; Cloudflare Pages' limits are shown, never failed: the project does not promise it)."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

GB, MB, MIB = 10**9, 10**6, 2**20


@dataclass(frozen=True)
class Limits:
    """The limits a site is held to; tests give smaller ones."""

    site_bytes: int = 1 * GB  # GitHub Pages: a published site of at most 1 GB
    netlify_entries: int = 54_000  # Netlify fails a deploy with more entries in one folder
    folder_entries: int = 10_000  # this project's rule, so that any host's folder limit is far
    file_bytes: int = 20 * MB  # this project's rule: no file a browser must fetch whole grows past it
    cloudflare_files: int = 20_000  # Cloudflare Pages, information only
    cloudflare_file_bytes: int = 25 * MIB


LIMITS = Limits()


@dataclass(frozen=True)
class SiteShape:
    """A site's files (path relative to it: bytes) and each folder's count of entries ('' is the top)."""

    files: dict[str, int]
    entries: dict[str, int]

    def total(self) -> int:
        return sum(self.files.values())

    def fullest(self) -> tuple[str, int]:
        """The folder with the most entries (the first by path of equals)."""
        return min(self.entries.items(), key=lambda item: (-item[1], item[0]))

    def largest(self) -> tuple[str, int]:
        return min(self.files.items(), key=lambda item: (-item[1], item[0]), default=("", 0))


def measure(site: Path) -> SiteShape:
    """One walk of the site: every file's size (a link counts as what it points to) and every folder's entries."""
    files: dict[str, int] = {}
    entries: dict[str, int] = {}
    pending = [("", str(site))]
    while pending:
        relative, folder = pending.pop()
        with os.scandir(folder) as listing:
            found = list(listing)
        entries[relative] = len(found)
        for entry in found:
            path = f"{relative}/{entry.name}" if relative else entry.name
            if entry.is_dir(follow_symlinks=False):
                pending.append((path, entry.path))
            elif entry.is_file():
                files[path] = entry.stat().st_size
    return SiteShape(files, entries)


def amount(size: int) -> str:
    return f"{size / GB:.2f} GB" if size >= GB else f"{size / MB:.1f} MB" if size >= MB else f"{size:,} bytes"


def capped(size: int, unit: int = MB, name: str = "MB") -> str:
    return f"{size / unit:g} {name}"


def shown_folder(folder: str) -> str:
    return f"{folder}/" if folder else "the top folder"


def host_lines(shape: SiteShape, limits: Limits) -> list[str]:
    """What check prints: each measure against the limits that apply to it."""
    folder, count = shape.fullest()
    largest, size = shape.largest()
    return [
        f"  size: {amount(shape.total())} (GitHub Pages: at most {capped(limits.site_bytes, GB, 'GB')})",
        f"  files: {len(shape.files):,} (Cloudflare Pages: at most {limits.cloudflare_files:,}, for information)",
        f"  fullest folder: {shown_folder(folder)}, {count:,} entries (this project: at most "
        f"{limits.folder_entries:,}; Netlify: at most {limits.netlify_entries:,})",
        f"  largest file: {largest or 'none'}, {amount(size)} (this project: at most {capped(limits.file_bytes)}; "
        f"Cloudflare Pages: at most {capped(limits.cloudflare_file_bytes, MIB, 'MiB')}, for information)",
    ]


def host_problems(shape: SiteShape, limits: Limits) -> list[str]:
    """Problems `path: message`, path relative to the site ('' for the site itself, so that it reads `site/: ...`)."""
    problems = []
    if (total := shape.total()) > limits.site_bytes:
        problems.append(f": {amount(total)} in all, over GitHub Pages' limit of "
                        f"{capped(limits.site_bytes, GB, 'GB')} a site")
    for folder, count in shape.entries.items():
        for most, whose in ((limits.netlify_entries, "Netlify's"), (limits.folder_entries, "this project's")):
            if count > most:
                problems.append(f"{folder + '/' if folder else ''}: {count:,} entries, over {whose} limit of "
                                f"{most:,} in one folder")
                break
    problems += [f"{path}: {amount(size)}, over this project's limit of {capped(limits.file_bytes)} a file"
                 for path, size in shape.files.items() if size > limits.file_bytes]
    return problems


def report_hosts(site: Path, limits: Limits, tell: Callable[[str], None] | None) -> tuple[set[str], list[str]]:
    """The site's files (for the other checks), and its problems with the hosts' limits; the lines said by `tell`."""
    shape = measure(site)
    if tell:
        for line in host_lines(shape, limits):
            tell(line)
    return set(shape.files), host_problems(shape, limits)
