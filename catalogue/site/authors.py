"""Authors: which spellings of a name are one author, the spelling a page shows, each author's
address, and where a name files in the authors index (by family name).

Two spellings are one author when their keys are equal: the name NFC-normalised, case folded
(str.casefold), whitespace runs folded to one space, stripped. Nothing else is folded, so
different names are never merged by a guess ('J. Smith' and 'John Smith' stay two authors).

An author's slug follows from its key alone, so a link never breaks when authors are added. A
key of plain words ([a-z0-9], single spaces) gets its python-slugify slug ('ada lovelace' ->
ada-lovelace); any other key gets its slug and the first 6 hex digits of the key's SHA-256
('josé garcía' -> jose-garcia-<hash>). A plain key whose last word is 6 hex digits ('ada
decade'), whose slug is long, or that Windows reads as a device ('con', 'nul'), is hashed too: so no plain slug ends as a hashed one does.
Two hashed slugs meet only if two keys share both their letters and their hash; the build then
stops and names both (render.author_groups) rather than give one author the other's page.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from functools import cache


from catalogue.portable import is_device_name, text_slug
from catalogue import routes
from catalogue.text import without_invisible

PLAIN_KEY = re.compile(r"[a-z0-9]+(?: [a-z0-9]+)*")
HASHED_ENDING = re.compile(r" [0-9a-f]{6}$")  # a plain key ending so would slug as every hashed slug ends
SLUG_LENGTH = 80  # characters before the hash: a folder name stays far below file systems' limits
HASH_LENGTH = 6
OTHER_INITIAL = "#"  # the index's group for names whose family name does not start with a Latin letter
NAME_SUFFIXES = frozenset({"jr", "sr", "ii", "iii", "iv"})  # words after a family name that are not one


@cache  # asked for each of a name's papers, on every page that names it
def author_key(name: str) -> str:
    """What makes two spellings one author: 'Ada  LOVELACE ' -> 'ada lovelace'; invisible and
    direction characters do not count ('Ada\u200b Lovelace' is Ada Lovelace)."""
    return " ".join(without_invisible(unicodedata.normalize("NFC", name))[0].casefold().split())


def author_path(name: str) -> str:
    """The page of the author this spelling of a name is."""
    return routes.author_page(author_slug(author_key(name)))


@cache  # asked for each of an author's papers, and again for the index
def author_slug(key: str) -> str:
    """An author's folder under authors/, from its key (see the module's docstring)."""
    slug = latin(key)
    if PLAIN_KEY.fullmatch(key) and not HASHED_ENDING.search(key) and len(slug) <= SLUG_LENGTH \
            and not is_device_name(slug):
        return slug
    base = (slug if len(slug) < SLUG_LENGTH else text_slug(key, max_length=SLUG_LENGTH, word_boundary=True)) or "author"
    return f"{base}-{hashlib.sha256(key.encode('utf-8')).hexdigest()[:HASH_LENGTH]}"


def shown_names(author_lists: Iterable[tuple[str, ...]]) -> dict[str, str]:
    """{key: the spelling pages show}: the most common among the papers (a paper counts once
    per spelling), the smallest string on a tie."""
    papers = Counter(name for authors in author_lists for name in set(authors))  # each spelling's papers
    shown: dict[str, str] = {}
    for name, count in papers.items():  # most authors have one spelling: one look-up each
        key = author_key(name)
        other = shown.setdefault(key, name)
        if (-count, name) < (-papers[other], other):
            shown[key] = name
    return shown


@cache  # asked for each of an author's papers, and again for the index
def family_and_given(name: str) -> tuple[str, str]:
    """A name's family name and given names in Latin letters (accents dropped, other scripts
    transliterated, as in its slug): the last word is the family name, a suffix after it ('Jr.',
    'III') aside, as DBLP and the ACL Anthology file names; a name written without spaces (张伟)
    is filed whole. 'Ada King Lovelace' -> ('lovelace', 'ada king')."""
    words = author_key(name).split()
    last = len(words) - 1
    while last > 0 and latin(words[last]) in NAME_SUFFIXES:
        last -= 1
    given = words[:last] + words[last + 1:]
    return latin(words[last] if words else "", separator=" "), latin(" ".join(given), separator=" ")


def latin(text: str, separator: str = "-") -> str:
    """python-slugify's slug of text; plain words (most names) are their own slug, found without it."""
    if PLAIN_KEY.fullmatch(text):
        return text.replace(" ", separator)
    return text_slug(text, separator=separator)


def index_order(name: str) -> tuple[bool, str, str, str]:
    """Where a name files in the authors index and on its bucket's page: by family name, then
    given names, names whose family name has no Latin initial last."""
    family, given = family_and_given(name)
    return not family[:1].isalpha(), family, given, author_key(name)


def initial(name: str) -> str:
    """The index's letter for a name, its family name's: 'José García' -> 'G', '张伟' -> 'Z', 'Lab 3D' -> '#'."""
    family = family_and_given(name)[0]
    return family[0].upper() if family[:1].isalpha() else OTHER_INITIAL
