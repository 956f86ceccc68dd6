"""What a build records in the site it writes: `.build-manifest.json`, every file's digest of
its inputs (a file whose digest is unchanged is kept by the next build), the content folder the
site was built from (seen from the site folder, so that no absolute path is published) and the
fingerprint of everything the build read; `.paper-catalogue-site`, the mark of a site this tool
built."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from catalogue.publish.files import write_file

MANIFEST = ".build-manifest.json"
MARKER = ".paper-catalogue-site"  # in every site this tool builds: build and clean replace only such a folder
MARKER_TEXT = "A site built by paper-catalogue (python3 build.py); build and clean replace this folder whole.\n"
MANAGED_ELSEWHERE = ("assets/", "pagefind/")  # written by copy_assets and the search stage


def read_manifest(site_dir: Path) -> dict:
    """The last build's record: {"entries": [...], "content": ..., "files": {path: digest}, "fingerprint": ...};
    empty if there is none."""
    try:
        manifest = json.loads((site_dir / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return manifest if isinstance(manifest, dict) else {}


# The manifest's last line but its brace (write_manifest writes "fingerprint" last)
FINGERPRINT_AT_END = re.compile(rb'\n"fingerprint": ("[0-9a-f]*"|null)\n\}\n\Z')
TAIL_BYTES = 4096


def read_fingerprint(site_dir: Path) -> str | None:
    """The last build's fingerprint, from the manifest's end: a build that finds the site up to
    date need not parse the digest of every file (a manifest of another form is read whole)."""
    try:
        with open(site_dir / MANIFEST, "rb") as file:
            file.seek(max(0, file.seek(0, os.SEEK_END) - TAIL_BYTES))
            tail = file.read()
    except OSError:
        return None
    if match := FINGERPRINT_AT_END.search(tail):
        return json.loads(match[1])
    fingerprint = read_manifest(site_dir).get("fingerprint")
    return fingerprint if isinstance(fingerprint, str) else None


# The manifest's beginning: the names at the top of the site that it lists files under (written first)
ENTRIES_AT_START = '{\n"entries": '
HEAD_CHARS = 65536


def read_manifest_entries(site_dir: Path) -> list[str] | None:
    """The names at the top of the site that the manifest lists files under, from its beginning:
    telling a site of ours from other files need not parse the digest of every file. None when the
    manifest does not begin with them (missing, older, or longer than its head)."""
    try:
        with open(site_dir / MANIFEST, encoding="utf-8") as file:
            head = file.read(HEAD_CHARS)
    except (OSError, ValueError):  # a decoding error is a ValueError too
        return None
    if not head.startswith(ENTRIES_AT_START):
        return None
    try:
        entries, _ = json.JSONDecoder().raw_decode(head, len(ENTRIES_AT_START))
    except ValueError:  # not JSON, or longer than the head
        return None
    return entries if isinstance(entries, list) and all(isinstance(entry, str) for entry in entries) else None


def write_manifest(site_dir: Path, fingerprint: str | None, inputs: dict[str, str], content: str | None = None,
                   sizes: dict[str, int] | None = None) -> None:
    """`content`: the content folder the site was built from, as content_seen_from gives it;
    `sizes`: each file's bytes. The keys in this order: read_manifest_entries and read_fingerprint
    read one end of the file each."""
    manifest = {"entries": sorted({path.split("/")[0] for path in inputs}), "content": content,
                "files": dict(sorted(inputs.items())), **({"sizes": dict(sorted(sizes.items()))} if sizes else {}),
                "fingerprint": fingerprint}
    write_file(site_dir, MANIFEST, json.dumps(manifest, indent=0) + "\n")


def content_seen_from(content: Path, out_dir: Path) -> str:
    """The content folder relative to the site folder: it names no one's home folder when the
    site is published, and still holds when the project is moved whole."""
    try:
        return Path(os.path.relpath(content.resolve(), out_dir.resolve())).as_posix()
    except ValueError:  # on another drive (Windows): no relative path leads there
        return content.resolve().as_posix()


def built_from(site_dir: Path) -> Path | None:
    """The content folder the site in site_dir was built from; None for a manifest without it (older)."""
    content = read_manifest(site_dir).get("content")
    return Path(os.path.normpath(site_dir.resolve() / content)) if isinstance(content, str) and content else None
