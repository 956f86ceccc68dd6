"""The site's record folder (`.site-build/` beside site/): the build's private files (manifest.PRIVATE),
kept out of the published folder. A build links them into its staging folder at the start (where
the writer and the search stage read them, as before) and moves them back as the new site is swapped
in: first beside the old ones under temporary names, then in place once the site is, the manifest
last. A build killed between the two leaves a record that names another build, which is not read
(the next build remakes every file), never a record mistaken for the new site's."""

from __future__ import annotations

import os
import re
from contextlib import suppress
from pathlib import Path

from catalogue.publish.files import link_file
from catalogue.publish.manifest import PRIVATE, record_folder, records

TEMPORARY = re.compile("|".join(re.escape(name) for name in PRIVATE) + r"\.\d+\.tmp")


def is_ours(record: Path) -> bool:
    """Whether `record` is a record folder this tool made: a folder (not a link) holding only the private files."""
    if record.is_symlink() or not record.is_dir():
        return False
    return all(name in PRIVATE or TEMPORARY.fullmatch(name) for name in os.listdir(record))


def foreign_record(site_dir: Path) -> Path | None:
    """The site's record folder when something this tool did not make holds its name."""
    record = record_folder(site_dir)
    return record if os.path.lexists(record) and not is_ours(record) else None


def link_records(out_dir: Path, staging: Path) -> list[str]:
    """The private files of the site in out_dir, when its record folder describes it, linked into
    staging (what staging held at those names removed); returns those linked."""
    source = records(out_dir)
    if source is None or source == out_dir:  # none, or in the site itself (built before they moved out): linked with it
        return []
    linked = []
    for name in PRIVATE:
        with suppress(FileNotFoundError):  # an older spare's, say: only the record's may stay
            os.unlink(staging / name)
        if (source / name).is_file():
            link_file(source / name, staging / name)
            linked.append(name)
    return linked


def stash_records(staging: Path, out_dir: Path) -> Path:
    """Move the private files out of staging into out_dir's record folder, under temporary names
    (those a killed build left there removed first); returns the record folder."""
    record = record_folder(out_dir)
    record.mkdir(exist_ok=True)
    for name in os.listdir(record):
        if TEMPORARY.fullmatch(name):
            os.unlink(record / name)
    for name in PRIVATE:
        if (staging / name).is_file():
            os.replace(staging / name, record / f"{name}.{os.getpid()}.tmp")
    return record


def commit_records(record: Path) -> None:
    """Put the stashed files in place, the manifest last; a private file this build did not make is removed."""
    for name in PRIVATE:
        stashed = record / f"{name}.{os.getpid()}.tmp"
        if stashed.is_file():
            os.replace(stashed, record / name)
        else:
            with suppress(FileNotFoundError):
                os.unlink(record / name)


def remove_records(site_dir: Path) -> bool:
    """Remove the site's record folder when this tool made it; whether there was one."""
    record = record_folder(site_dir)
    if not is_ours(record):
        return False
    for name in os.listdir(record):
        os.unlink(record / name)
    record.rmdir()
    return True
