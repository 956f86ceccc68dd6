"""Where a site may be written or removed: only a folder that is absent, empty or a site this
tool built, and never one that holds (or is) what the user owns.

`refuse_site_folder` decides from resolved paths and what the folder holds, touching nothing;
`check_site_folder` looks at the disk and raises the refusal as one line.
"""

from __future__ import annotations

import enum
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from catalogue.errors import CatalogueError
from catalogue.publish.manifest import (MANAGED_ELSEWHERE, MARKER, PRIVATE, read_manifest, read_manifest_entries,
                                       read_marker)
from catalogue.publish.record import foreign_record

NAMES_SHOWN = 3  # of the files that make a folder not ours


class Holds(enum.Enum):
    NOTHING = "absent"
    EMPTY = "empty"
    OUR_SITE = "a site this tool built"
    NOT_A_FOLDER = "a file"
    OTHER_FILES = "files this tool did not make"


@dataclass(frozen=True)
class Folder:
    """What a would-be site folder holds; `strangers` are its entries a build does not make."""

    holds: Holds
    strangers: tuple[str, ...] = ()


def refuse_site_folder(out: Path, folder: Folder, inputs: Mapping[str, Path], places: Mapping[str, Path]) -> str | None:
    """Why `out` may not become (or be removed as) a site, or None if it may. All paths resolved.

    `inputs` (the content, seeds, templates and assets folders, by name) may not be the site,
    hold it or lie inside it: the site replaces its folder whole, and a site inside content/
    would be read, or published, as content. `places` (the project folder, the home folder,
    the root) may hold the site, but the site may not be one of them or hold one."""
    for name, path in {**places, **inputs}.items():
        if out == path:
            return f"it is {name}"
    for name, path in {**places, **inputs}.items():
        if out in path.parents:
            return f"it holds {name} ({path.as_posix()})"
    for name, path in inputs.items():
        if path in out.parents:
            return f"it is inside {name} ({path.as_posix()}), which would read or publish the site as its own"
    if folder.holds is Holds.NOT_A_FOLDER:
        return "it is a file, not a folder"
    if folder.holds is Holds.OTHER_FILES:
        names = ", ".join(folder.strangers[:NAMES_SHOWN]) + (", ..." if len(folder.strangers) > NAMES_SHOWN else "")
        return f"it holds files this tool did not make ({names})"
    return None


def read_folder(path: Path) -> Folder:
    """A site this tool built carries its marker, or (built before the marker) a valid manifest,
    and holds nothing beside the entries its marker (or manifest) lists, the assets and the search index."""
    if not path.exists():
        return Folder(Holds.NOTHING)
    if not path.is_dir():
        return Folder(Holds.NOT_A_FOLDER)
    entries = sorted(os.listdir(path))
    if not entries:
        return Folder(Holds.EMPTY)
    listed = listed_entries(path)
    if not (path / MARKER).is_file() and listed is None:
        return Folder(Holds.OTHER_FILES, tuple(entries))
    made = set(listed or ()) | {MARKER, *PRIVATE} | {m.strip("/") for m in MANAGED_ELSEWHERE}
    strangers = tuple(name for name in entries if name not in made)
    return Folder(Holds.OTHER_FILES, strangers) if strangers else Folder(Holds.OUR_SITE)


def listed_entries(path: Path) -> set[str] | None:
    """The names at the top of the site its marker (or, in a site built before the marker named
    them, its manifest) lists files under; None without either."""
    entries = read_marker(path).get("entries")
    if isinstance(entries, list) and all(isinstance(entry, str) for entry in entries):
        return set(entries)
    if (entries := read_manifest_entries(path)) is not None:
        return set(entries)
    listed = read_manifest(path).get("files")  # a manifest written before it began with them
    return {name.split("/")[0] for name in listed} if isinstance(listed, dict) else None


def check_site_folder(out: Path, shown: str, inputs: Mapping[str, Path], project: Path, *,
                      doing: str = "refusing to write the site there",
                      advice: str = "choose a new or empty folder with --out") -> Holds:
    """Refuse (one line naming `shown`, the folder as the user gave it) unless `out` may hold a site;
    returns what it holds. Paths are compared resolved, so a symbolic link is judged by its target."""
    places = {"the project folder": project, "your home folder": Path.home(), "the root folder": Path("/")}
    folder = read_folder(out)
    reason = refuse_site_folder(out.resolve(), folder, {name: path.resolve() for name, path in inputs.items()},
                                {name: path.resolve() for name, path in places.items()})
    if not reason and (record := foreign_record(out)):
        reason = f"{record.as_posix()}, where it keeps its build's records, holds files this tool did not make"
    if reason:
        raise CatalogueError(f"{shown}: {doing}: {reason}; {advice}")
    return folder.holds
