"""What each family of templates is rendered with, typed. Every page gets the site's shared parts
(SiteParts) and the few values render_page adds (its path, the way back to the site's top, its
canonical address, title, description and papers); a family's page gets its own values too, and a
paper's page what it adds when it is made (paper_extras.PaperExtras)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields

from markupsafe import Markup as SafeHtml

from catalogue.i18n.strings import Strings
from catalogue.model import Paper, Topic
from catalogue.site.groups import AuthorGroup
from catalogue.site.pagination import Crumb, Entry, ListPage, Letter
from catalogue.site.views import PaperView


@dataclass(frozen=True)
class SiteParts:
    """What every page shows alike: the topics and venues, the interface strings, the page parts
    made once a build (a paper's card, a page's frame)."""

    topics: tuple[Topic, ...]  # those with papers, largest first
    topic_counts: dict[str, int]
    paper_count: int
    venues: list[Entry]
    has_authors: bool
    card_authors: int
    t: Strings
    venue_label: Callable[[Paper], str]  # a venue as pages name it, in the site's language
    card: Callable[..., SafeHtml]  # (view, root, excerpt, topic, venue) -> the paper's card
    reuse: Callable[..., SafeHtml]


@dataclass(frozen=True)
class ListValues:
    """A page of a list of papers: the home page (index.html), a topic's or a venue's (collection.html)."""

    heading: str
    listing: ListPage
    parent: Crumb | None = None  # the overview the list belongs to
    topic: str | None = None  # the slug of the topic whose papers these are, which their cards leave out
    venue: str | None = None  # the label of the venue whose papers these are, which their cards leave out


@dataclass(frozen=True)
class ForwardValues:
    """An earlier address of a page of a list, forwarding to the page that shows its papers now."""

    target: str  # from the site's root, with the view it showed


@dataclass(frozen=True)
class SearchValues:
    venue_names: list[str]
    years: list[int]


@dataclass(frozen=True)
class OverviewValues:
    """The topics or the venues, each with its paper count."""

    lede: str
    entries: list[Entry]


@dataclass(frozen=True)
class StatsValues:
    named_count: int
    code_count: int
    code_share: int  # percent
    topic_chart: SafeHtml
    venue_chart: SafeHtml
    code_chart: SafeHtml
    benchmark_chart: SafeHtml | None


@dataclass(frozen=True)
class AuthorsIndexValues:
    """A page of the authors index."""

    sections: tuple[Letter, ...]
    jumps: tuple[tuple[str, str], ...]
    author_count: int
    number: int
    page_count: int
    previous_page: str | None
    next_page: str | None


@dataclass(frozen=True)
class AuthorsPageValues:
    """A bucket's page of authors: a section per author, by family name."""

    authors: tuple[AuthorGroup, ...]


@dataclass(frozen=True)
class PaperValues:
    previous: PaperView | None
    next: PaperView | None
    related: list[PaperView]  # the most similar papers, most similar first


@dataclass(frozen=True)
class MapGroup:
    """A group of the map, as the list below it shows it: its colour index, its words, its number of
    papers (assets/map.js lists them from the map's data)."""

    index: int
    words: tuple[str, ...]
    swatch: SafeHtml
    size: int


@dataclass(frozen=True)
class MapValues:
    map_svg: SafeHtml
    map_groups: list[MapGroup]


Values = (ListValues | ForwardValues | SearchValues | OverviewValues | StatsValues | AuthorsIndexValues | AuthorsPageValues
          | PaperValues | MapValues)


def named_values(values: object | None) -> dict[str, object]:
    """A typed context's values by name, as a template reads them."""
    return {field.name: getattr(values, field.name) for field in fields(values)} if values is not None else {}
