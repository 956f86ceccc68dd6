"""What a build records of the site it writes. Privately (never published): `.build-manifest.json`,
every file's digest of its inputs (a file whose digest is unchanged is kept by the next build), the
content folder the site was built from (seen from the site folder) and the fingerprint of everything
the build read; `.search-pages.json`, what the search stage indexes. A build writes them into its
staging folder, where the writer and the search stage read them, and moves them to the site's record
folder beside it (`.<site>-build/`, record.py) as the site is swapped in. In the site:
`.paper-catalogue-site`, the mark of a site this tool built, naming the build (a digest of its
manifest, so that equal builds are equal bytes) and the entries at the top of the site; a record
folder whose manifest names another build describes another site and is not read."""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path

from catalogue.publish.files import write_file

MANIFEST = ".build-manifest.json"
MARKER = ".paper-catalogue-site"  # in every site this tool builds: build and clean replace only such a folder
MARKER_TEXT = "A site built by paper-catalogue (python3 build.py); build and clean replace this folder whole.\n"
MANAGED_ELSEWHERE = ("assets/", "pagefind/")  # written by copy_assets and the search stage
SEARCH_PAGES = ".search-pages.json"  # the search stage's, written by the render as one of its files
PRIVATE = (SEARCH_PAGES, MANIFEST)  # in the order the record folder takes them: the manifest (it names the build) last
MARKER_BYTES = 4096  # the most read of a marker (it is far smaller)


def record_folder(site_dir: Path) -> Path:
    """The folder beside the site that keeps its private files: `.site-build/` for site/."""
    resolved = site_dir.resolve()
    return resolved.with_name(f".{resolved.name}-build")


def records(site_dir: Path) -> Path | None:
    """Where the private files of the site in site_dir are: in it while it holds its manifest (a
    staging folder, or a site built before they moved out), else in its record folder when that
    describes this very site (the marker and the manifest name the same build); None without one."""
    if (site_dir / MANIFEST).is_file():
        return site_dir
    build = read_marker(site_dir).get("build")
    return record_folder(site_dir) if build and read_build(record_folder(site_dir)) == build else None


def read_marker(site_dir: Path) -> dict:
    """What the marker names: {"build": ..., "entries": [...]}; empty for a marker without them (older) or none."""
    try:
        with open(site_dir / MARKER, encoding="utf-8") as file:
            lines = file.read(MARKER_BYTES).splitlines()
        marker = json.loads(lines[1]) if len(lines) > 1 else {}
    except (OSError, ValueError):
        return {}
    return marker if isinstance(marker, dict) else {}


def write_marker(site_dir: Path) -> None:
    """The marker, naming the build its manifest records and the entries at the top of the site, private ones aside."""
    build, entries = read_build(site_dir), read_manifest_entries(site_dir) or []
    named = {"build": build, "entries": [entry for entry in entries if entry not in PRIVATE]}
    write_file(site_dir, MARKER, MARKER_TEXT + json.dumps(named, ensure_ascii=False) + "\n")


def read_manifest(site_dir: Path) -> dict:
    """The last build's record: {"build": ..., "entries": [...], "content": ..., "files": {path: digest},
    "fingerprint": ...}, wherever it is kept (records); empty if there is none."""
    folder = records(site_dir)
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8")) if folder else None
    except (OSError, ValueError):
        return {}
    return manifest if isinstance(manifest, dict) else {}


# The manifest's last line but its brace (write_manifest writes "fingerprint" last)
FINGERPRINT_AT_END = re.compile(rb'\n"fingerprint": ("[0-9a-f]*"|null)\n\}\n\Z')
TAIL_BYTES = 4096


def read_fingerprint(site_dir: Path) -> str | None:
    """The last build's fingerprint, from the manifest's end: a build that finds the site up to
    date need not parse the digest of every file (a manifest of another form is read whole)."""
    folder = records(site_dir)
    try:
        if folder is None:
            return None
        with open(folder / MANIFEST, "rb") as file:
            file.seek(max(0, file.seek(0, os.SEEK_END) - TAIL_BYTES))
            tail = file.read()
    except OSError:
        return None
    if match := FINGERPRINT_AT_END.search(tail):
        return json.loads(match[1])
    fingerprint = read_manifest(site_dir).get("fingerprint")
    return fingerprint if isinstance(fingerprint, str) else None


# The manifest's beginning: the build (but in a manifest written before it was named), then the
# names at the top of the site that it lists files under
BUILD_AT_START = re.compile(r'\{\n"build": "([0-9a-f]+)",\n')
ENTRIES_AT_START = '"entries": '
HEAD_CHARS = 65536


def read_build(folder: Path) -> str | None:
    """The build that the manifest in `folder` (not looked for elsewhere) records, from its first line."""
    try:
        with open(folder / MANIFEST, encoding="utf-8") as file:
            head = file.read(HEAD_CHARS)
    except (OSError, ValueError):
        return None
    return match[1] if (match := BUILD_AT_START.match(head)) else None


def read_manifest_entries(site_dir: Path) -> list[str] | None:
    """The names at the top of the site that the manifest lists files under, from its beginning:
    telling a site of ours from other files need not parse the digest of every file. None when the
    manifest does not begin with them (missing, older, or longer than its head)."""
    folder = records(site_dir)
    try:
        if folder is None:
            return None
        with open(folder / MANIFEST, encoding="utf-8") as file:
            head = file.read(HEAD_CHARS)
    except (OSError, ValueError):  # a decoding error is a ValueError too
        return None
    start = match.end() if (match := BUILD_AT_START.match(head)) else len("{\n")
    if not head.startswith(ENTRIES_AT_START, start):
        return None
    try:
        entries, _ = json.JSONDecoder().raw_decode(head, start + len(ENTRIES_AT_START))
    except ValueError:  # not JSON, or longer than the head
        return None
    return entries if isinstance(entries, list) and all(isinstance(entry, str) for entry in entries) else None


def write_manifest(site_dir: Path, fingerprint: str | None, inputs: dict[str, str], content: str | None = None,
                   sizes: dict[str, int] | None = None) -> None:
    """`content`: the content folder the site was built from, as content_seen_from gives it;
    `sizes`: each file's bytes. The build is named by a digest of the rest. The keys in this
    order: read_build and read_manifest_entries read the file's beginning, read_fingerprint its end."""
    manifest = {"entries": sorted({path.split("/")[0] for path in inputs}), "content": content,
                "files": dict(sorted(inputs.items())), **({"sizes": dict(sorted(sizes.items()))} if sizes else {}),
                "fingerprint": fingerprint}
    text = lines_json(manifest)
    build = hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]
    # lines_json({"build": build, **manifest}), without encoding the manifest again
    write_file(site_dir, MANIFEST, "{\n" + f'"build": {json.dumps(build)},\n' + text.removeprefix("{\n") + "\n")


def lines_json(value: object) -> str:
    """json.dumps(value, indent=0), a member per line, made by the C encoder: with an indent,
    json.dumps runs its Python encoder, slow over a large site's files. A dict or list holding no
    other (a site's files) is one call of the C encoder, its separator a comma and a new line."""
    if isinstance(value, dict) and value:
        if all(isinstance(key, str) and not isinstance(item, (dict, list)) for key, item in value.items()):
            return "{\n" + json.dumps(value, separators=LINES)[1:-1] + "\n}"
        return "{\n" + ",\n".join(f"{json.dumps(key)}: {lines_json(item)}" for key, item in value.items()) + "\n}"
    if isinstance(value, list) and value:
        if not any(isinstance(item, (dict, list)) for item in value):
            return "[\n" + json.dumps(value, separators=LINES)[1:-1] + "\n]"
        return "[\n" + ",\n".join(lines_json(item) for item in value) + "\n]"
    return json.dumps(value)


LINES = (",\n", ": ")  # json.dumps's separators for a member per line


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
