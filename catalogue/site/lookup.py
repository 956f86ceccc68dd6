"""Where to look a paper up when its list links neither a PDF nor its proceedings: search
addresses at arXiv, Semantic Scholar, Google Scholar and OpenReview, by the paper's title.

A derived title was written from the abstract, not by the authors, so arXiv searches all its
fields for it rather than titles alone (the other three search abstracts anyway)."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote, urlencode


@dataclass(frozen=True)
class FindLink:
    service: str  # a proper name, the same in every language
    url: str


def find_links(title: str, derived: bool = False) -> tuple[FindLink, ...]:
    """The search addresses for a plain-text title (none for an empty one)."""
    title = " ".join(title.split())
    if not title:
        return ()

    def query(**fields: str) -> str:
        return urlencode(fields, quote_via=quote)

    return (
        FindLink("arXiv", "https://arxiv.org/search/?" + query(query=title, searchtype="all" if derived else "title")),
        FindLink("Semantic Scholar", "https://www.semanticscholar.org/search?" + query(q=title)),
        FindLink("Google Scholar", "https://scholar.google.com/scholar?" + query(q=title)),
        FindLink("OpenReview", "https://openreview.net/search?" + query(term=title, content="all", group="all",
                                                                      source="all")),
    )
