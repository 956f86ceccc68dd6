"""The papers grouped as the site lists them: by author (each author's section, on their bucket's
page) and by venue and year."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from catalogue import routes
from catalogue.errors import CatalogueError, shown
from catalogue.model import Paper
from catalogue.site.authors import author_key, index_order
from catalogue.site.cite import venue_label
from catalogue.site.views import AuthorRef, PaperView


@dataclass(frozen=True)
class AuthorGroup:
    """An author's section: the spelling it shows, its address, their papers (newest first, then by title)."""

    name: str
    path: str
    papers: tuple[PaperView, ...]


def author_groups(views: tuple[PaperView, ...]) -> list[AuthorGroup]:
    """Every author with their papers, in the index's order. Two authors at one address (hashed
    slugs that share their hash by chance) stop the build: neither may take the other's page."""
    members: dict[str, dict[str, PaperView]] = {}  # author page -> paper id -> paper
    first: dict[str, tuple[AuthorRef, PaperView]] = {}  # author page -> how a paper names them
    for view in views:
        for author in view.authors:
            named, other = first.setdefault(author.path, (author, view))
            if author_key(named.name) != author_key(author.name):
                raise CatalogueError(
                    f"{author.path}: would be the page of two authors, {shown(named.name)} ({other.paper.source}) "
                    f"and {shown(author.name)} ({view.paper.source}); write one of the names another way")
            members.setdefault(author.path, {})[view.paper.id] = view
    order = {view.paper.id: newest_then_title(view) for view in views}  # once a paper, not once an author of it
    groups = [AuthorGroup(first[path][0].shown, path,
                          tuple(sorted(papers.values(), key=lambda view: order[view.paper.id])))
              for path, papers in members.items()]
    return sorted(groups, key=lambda group: index_order(group.name))


def author_pages(groups: list[AuthorGroup]) -> list[tuple[str, tuple[AuthorGroup, ...]]]:
    """(page, its authors) for each bucket's page of authors, in the order of its path; each page's
    authors in the order of `groups` (the index's: by family name), so a page reads as an index."""
    pages: dict[str, list[AuthorGroup]] = {}
    for group in groups:
        pages.setdefault(routes.author_bucket_page(group.path), []).append(group)
    return [(page, tuple(members)) for page, members in sorted(pages.items())]


def newest_then_title(view: PaperView) -> tuple:
    return -(view.paper.year or 0), view.title_text.casefold(), view.title_text, view.paper.id


def venue_groups(views: tuple[PaperView, ...], shown_as: Callable[[Paper], str] = venue_label
                 ) -> list[tuple[str, str, tuple[PaperView, ...]]]:
    """(slug, label, papers) per venue and year, newest year first; the label as `shown_as` names
    it (the slug stays the same in every language: unknown-venue)."""
    groups: dict[str, list[PaperView]] = {}
    for view in views:
        groups.setdefault(venue_label(view.paper), []).append(view)
    ordered = sorted(groups.items(), key=lambda item: (-(item[1][0].paper.year or 0), item[0]))
    slugs = routes.venue_slugs(groups)
    return [(slugs[label], shown_as(members[0].paper), tuple(members)) for label, members in ordered]
