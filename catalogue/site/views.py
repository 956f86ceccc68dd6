"""What a paper's view derives from the paper alone (its texts converted, its citation, its
entry in the reading list's BibTeX), as the build cache keeps it: an edit rebuilds the views of the
papers it changed and reads every other view back (render.view_papers)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from catalogue.search.index import AbstractTerms

VIEW_PARTS = "view"  # the cache's kind for ViewParts, by the view's key


@dataclass(frozen=True)
class ViewParts:
    """A paper's view without the paper and what the whole catalogue decides (its topics, its
    authors' spelling): the HTML fields are markup that is safe as it is."""

    name_html: str | None
    name_text: str
    title_html: str
    title_text: str
    plain_abstract: str
    bibtex: str
    abstract_html: str
    excerpt: str
    description: str
    bibtex_entry: str  # its entry in list-bibtex.js: "id":"bibtex" as JSON
    terms: AbstractTerms  # what the offline search index reads of its abstract
    conversions: tuple[str, ...]  # the cache keys of its converted texts, kept as long as the view
