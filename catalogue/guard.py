"""Where a site may be written or removed: only a folder that is absent, empty or a site this
tool built, and never one that holds (or is) what the user owns.

`refuse_site_folder` decides from resolved paths and what the folder holds, touching nothing;
`check_site_folder` looks at the disk and raises the refusal as one line.
"""

from __future__ import annotations

import enum
import os
from collections.abc import Mapping
from pathlib import Path

from .errors import CatalogueError
from .output import MARKER, read_manifest


class Holds(enum.Enum):
    """What a would-be site folder holds."""

    NOTHING = "absent"
    EMPTY = "empty"
    OUR_SITE = "a site this tool built"
    NOT_A_FOLDER = "a file"
    OTHER_FILES = "files this tool did not make"


def refuse_site_folder(out: Path, holds: Holds, inputs: Mapping[str, Path], places: Mapping[str, Path]) -> str | None:
    """Why `out` may not become (or be removed as) a site, or None if it may. All paths resolved.

    `inputs` (the content, seeds, templates and assets folders, by name) may not be the site,
    hold it or lie inside it: the site replaces its folder whole, and a site inside content/
    would be read, or published, as content. `places` (the project folder, the home folder,
    the root) may hold the site, but the site may not be one of them or hold one."""
    for name, folder in {**places, **inputs}.items():
        if out == folder:
            return f"it is {name}"
    for name, folder in {**places, **inputs}.items():
        if out in folder.parents:
            return f"it holds {name} ({folder.as_posix()})"
    for name, folder in inputs.items():
        if folder in out.parents:
            return f"it is inside {name} ({folder.as_posix()}), which would read or publish the site as its own"
    if holds is Holds.NOT_A_FOLDER:
        return "it is a file, not a folder"
    if holds is Holds.OTHER_FILES:
        return f"it holds files this tool did not make (no {MARKER} marker)"
    return None


def folder_holds(folder: Path) -> Holds:
    """A site this tool built carries its marker, or (built before the marker) a valid manifest."""
    if not folder.exists():
        return Holds.NOTHING
    if not folder.is_dir():
        return Holds.NOT_A_FOLDER
    if not any(os.scandir(folder)):
        return Holds.EMPTY
    if (folder / MARKER).is_file() or isinstance(read_manifest(folder).get("files"), dict):
        return Holds.OUR_SITE
    return Holds.OTHER_FILES


def check_site_folder(out: Path, shown: str, inputs: Mapping[str, Path], project: Path, *,
                      doing: str = "refusing to write the site there",
                      advice: str = "choose a new or empty folder with --out") -> Holds:
    """Refuse (one line naming `shown`, the folder as the user gave it) unless `out` may hold a site;
    returns what it holds. Paths are compared resolved, so a symbolic link is judged by its target."""
    places = {"the project folder": project, "your home folder": Path.home(), "the root folder": Path("/")}
    holds = folder_holds(out)
    reason = refuse_site_folder(out.resolve(), holds, {name: path.resolve() for name, path in inputs.items()},
                                {name: path.resolve() for name, path in places.items()})
    if reason:
        raise CatalogueError(f"{shown}: {doing}: {reason}; {advice}")
    return holds
