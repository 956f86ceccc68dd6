"""A structured list's record as its format gives it, before any of its values is checked: the
common ground of the JSON, CSV and BibTeX readers and of the step that makes Records of their rows."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from catalogue.model import Source

# Field names as JSON keys, CSV/TSV headers and BibTeX fields write them, compared after
# normalize_name ("Paper_Title" -> "paper title"), mapped to the Record's field. The corpus's
# own names come first (../shared/corpus/README.md); its `track`, `tldr` and `status`, like every
# name not listed, are ignored.
FIELD_NAMES = {
    "title": "title", "paper title": "title",
    "abstract": "abstract",
    "authors": "authors", "author": "authors", "author names": "authors",
    "keywords": "keywords", "keyword": "keywords",
    "venue": "venue", "conference": "venue", "booktitle": "venue", "journal": "venue",
    "year": "year",
    "date": "published", "published": "published", "publication date": "published",
    "pdf": "pdf", "pdf url": "pdf",
    "github": "code", "code": "code", "code url": "code",
    "project": "project", "project page": "project",
    "site": "url", "url": "url", "link": "url",
    "doi": "doi",
}
# Authors (or keywords) of one record, at most: past them a reader need not even convert a name.
MAX_NAMES = 1000


@dataclass(frozen=True)
class Row:
    """One record as its format gives it: (field name as written, value) pairs."""

    source: Source
    fields: tuple[tuple[str, Any], ...]


@functools.lru_cache(maxsize=1024)  # a file repeats its few names in every record
def normalize_name(name: str) -> str:
    """"Paper_Title " -> "paper title": lower case, `_` and `-` as spaces, spaces folded."""
    return " ".join(name.lower().replace("_", " ").replace("-", " ").split())
