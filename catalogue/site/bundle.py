"""An offline copy of the site as one zip: unzip anywhere, double-click index.html.

Pagefind's bundle is left out (browsers refuse to load it from disk); search runs on the
offline index (search-index.js) instead. Same site, same bytes: entries are sorted and dated
1980-01-01, the earliest date a zip can hold.
"""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

from catalogue.errors import CatalogueError
from catalogue.search.index import BUNDLE_DIR
from catalogue.search.offline import CJK_PIECES_PER_PAPER, TERMS_PER_PAPER
from catalogue.publish.files import NEW_FILE
from catalogue.system.terminal import display

FOLDER = "paper-catalogue"
FIXED_DATE = (1980, 1, 1, 0, 0, 0)
# What works from disk, as it is: search there has the offline index alone (search/offline.py).
README = ("Paper catalogue, offline copy\n\nOpen index.html in a web browser (double-click it). Every page, and every\n"
          "link between them, works from disk.\n\n"
          "Search from disk uses a compact index, not the full text: each paper's name, title and\n"
          f"authors, and the {TERMS_PER_PAPER} words that most set its abstract apart (for Chinese, Japanese and\n"
          f"Korean, up to {CJK_PIECES_PER_PAPER} two-character pieces). A word found only in an abstract may find nothing\n"
          "here. Full-text search needs the catalogue served over http, as its hosted site is (or run\n"
          "'python3 build.py serve' in the project).\n")


def write_bundle(site_dir: Path, zip_path: Path) -> int:
    """Zip the built site; returns the number of files. Replaces zip_path only when complete: the
    zip is written beside it under a name of this process's own."""
    files = sorted(p for p in site_dir.rglob("*") if p.is_file() and BUNDLE_DIR not in p.relative_to(site_dir).parts[:1])
    partial = zip_path.with_name(f"{zip_path.name}.{os.getpid()}.partial")
    try:
        descriptor = os.open(partial, NEW_FILE, 0o666)  # created here, so that no one else's file is overwritten
    except FileExistsError:
        raise CatalogueError(f"{display(partial)}: exists, and this command did not write it; move it away and run "
                             "again (nothing was written)") from None
    try:
        with os.fdopen(descriptor, "wb") as file, \
                zipfile.ZipFile(file, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
            archive.writestr(entry(f"{FOLDER}/README.txt"), README)
            for path in files:
                archive.writestr(entry(f"{FOLDER}/{path.relative_to(site_dir).as_posix()}"), path.read_bytes())
        os.replace(partial, zip_path)
    except BaseException:
        os.unlink(partial)
        raise
    return len(files) + 1


def is_a_bundle(path: Path) -> bool:
    """Whether path is a zip this command wrote (its README first, every entry in FOLDER/): the one
    kind of file --zip may replace, so that a mistyped --zip never overwrites a user's file."""
    if path.is_symlink() or not path.is_file():  # a FIFO would never end
        return False
    try:
        with zipfile.ZipFile(path) as archive:
            names = archive.namelist()
    except (zipfile.BadZipFile, OSError):
        return False
    return names[:1] == [f"{FOLDER}/README.txt"] and all(name.startswith(f"{FOLDER}/") for name in names)


def entry(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=FIXED_DATE)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    return info
