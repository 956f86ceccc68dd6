"""Names of published files and folders that Windows, macOS and Linux all accept, and that a zip of
the site unpacks to on each.

Every folder name the site publishes from a list's text (a paper's, author's, venue's or topic's
slug, a search shard) is made of lower-case ASCII letters, digits and single hyphens: no reserved
character (`<>:"/\\|?*`), no trailing dot or space, no case to fold. What remains are Windows'
device names, which no file or folder may be called, even with an extension (`con`, `nul.txt`,
`com1`, `lpt9`, ...), and length. This module is the one rule for both; the address room (routes.py)
and the readers of content/ ask it.
"""

from __future__ import annotations

import hashlib
import re

from slugify import slugify

# Windows refuses these as a file or folder name, in any case and before any extension (CON, nul.txt).
DEVICE_NAMES = frozenset({"con", "prn", "aux", "nul", "conin$", "conout$",
                          *(f"com{n}" for n in "0123456789¹²³"), *(f"lpt{n}" for n in "0123456789¹²³")})
MAX_NAME = 100  # characters of a folder name: far below every file system's 255 bytes, with room for a suffix
HASH_LENGTH = 6
_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def text_slug(text: str, **options) -> str:
    """python-slugify's slug of text (its options as given), other scripts transliterated by
    text-unidecode always: its default would take Unidecode were that installed (other slugs), and
    looks for that module through every folder of the import path on each call that needs one."""
    return slugify(text, backend="text-unidecode", **options)


def is_device_name(name: str) -> bool:
    """Whether Windows reads the name as a device: 'con', 'NUL', 'com1.bib', 'aux.tar.gz'."""
    return name.split(".", 1)[0].rstrip(" ").lower() in DEVICE_NAMES


def is_portable(name: str) -> bool:
    """Whether a slug may name a published folder: slug characters, not a device, not too long."""
    return _SLUG.fullmatch(name) is not None and not is_device_name(name) and len(name) <= MAX_NAME


def short_hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:HASH_LENGTH]


def portable_slug(slug: str, key: str) -> str:
    """The slug, or when it cannot name a folder (a device name, too long, empty), with_hash's name."""
    return slug if is_portable(slug) else with_hash(slug, key)


def with_hash(slug: str, key: str) -> str:
    """The slug, cut at a hyphen to leave room, followed by the key's hash: 'con' -> 'con-1a2b3c'. At
    most MAX_NAME characters; the same key always gives the same name."""
    cut = slug[:MAX_NAME - HASH_LENGTH - 1]
    if len(slug) > len(cut) and "-" in cut:
        cut = cut.rsplit("-", 1)[0]
    return "-".join(filter(None, [cut.strip("-"), short_hash(key)]))
