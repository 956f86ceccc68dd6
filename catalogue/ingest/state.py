"""content/.derived.json: for each paper, a hash of what ingest last derived for each field
(and its slug), by which a later ingest tells a person's edit from its own output.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from catalogue.content.paper_file import write_text_atomic
from catalogue.errors import CatalogueError, shown

STATE_FILE = ".derived.json"


def read_state(path: Path) -> dict:
    """content/.derived.json, or {} when there is none; anything but a regular file holding a JSON
    object is refused (a FIFO would make the read wait forever)."""
    if not path.exists() and not path.is_symlink():
        return {}
    if path.is_symlink() or not path.is_file():
        raise CatalogueError(f"{path.as_posix()}: not a regular file; remove it (ingest writes it anew)")
    try:
        state = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise CatalogueError(f"{path.as_posix()}: not valid JSON ({shown(str(error))}); remove it (ingest writes it "
                             "anew, and takes differing fields for hand edits)")
    if not isinstance(state, dict):
        raise CatalogueError(f"{path.as_posix()}: not a JSON object; remove it (ingest writes it anew)")
    return state


def refuse_unless_ours(path: Path, state: dict) -> None:
    """A JSON object of another shape than the record's is not ingest's: it may be the user's own, and
    is not rewritten. (Not asked of a file the last ingest's record vouches for by its digest.)"""
    if not all(isinstance(fields, dict) and all(isinstance(digest, str) for digest in fields.values())
               for fields in state.values()):
        raise CatalogueError(f"{path.as_posix()}: not the record of derived fields ingest writes under this name "
                             "(each paper's fields and their digests); move this file elsewhere: ingest keeps "
                             "that record here")


def write_state(path: Path, state: dict) -> None:
    """content/.derived.json, written only when it changed."""
    state_text = json.dumps(state, indent=0, sort_keys=True) + "\n"
    if not path.exists() or path.read_text(encoding="utf-8") != state_text:
        write_text_atomic(path, state_text)  # unchanged files keep their time: the next build sees no change


def value_hash(value) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=lambda v: v.__dict__)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]
