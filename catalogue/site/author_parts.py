"""The authors index's filter data (assets/authors.js): for each first letter, the authors who have a
word of their name starting with it, as plain-script parts (list-data/authors/<letter>.js), so a
reader who types a name loads only the part of its first letter."""

from __future__ import annotations

import re
import unicodedata

from catalogue import routes
from catalogue.publish.writer import Output
from catalogue.site.data_parts import part_script
from catalogue.site.groups import AuthorGroup
from catalogue.system.cache import digest

OTHER = "other"  # the part of words that start with no letter a-z or digit (assets/authors.js names it so too)


def name_words(name: str) -> list[str]:
    """A name's words as assets/authors.js folds them: accents dropped, lower case, letters and digits."""
    folded = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c)).lower()
    return re.findall(r"[^\W_]+", folded)


def part_key(word: str) -> str:
    return word[0] if word[0] in "abcdefghijklmnopqrstuvwxyz0123456789" else OTHER


def author_row(group: AuthorGroup) -> list:
    """[name, papers], with the slug of their address after them when it is not the name in lower
    case with hyphens for spaces."""
    slug = routes.author_slug_of(group.path)
    row: list = [group.name, len(group.papers)]
    return row if group.name.isascii() and group.name.lower().replace(" ", "-") == slug else row + [slug]


def plan_author_parts(groups: list[AuthorGroup], everything: str) -> list[Output]:
    """A part per first letter of a word of a name, each in the index's order."""
    parts: dict[str, list[list]] = {}
    for group in groups:
        row = author_row(group)  # one row, in the part of each letter that starts a word of the name
        for key in dict.fromkeys(part_key(word) for word in name_words(group.name)):
            parts.setdefault(key, []).append(row)
    files = []
    for key, rows in sorted(parts.items()):
        name = routes.author_index_part(key)
        files.append(Output(f"{name}.js", digest(everything, name, rows), lambda name=name, rows=rows: part_script(name, rows)))
    return files
