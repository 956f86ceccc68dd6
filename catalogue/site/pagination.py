"""Lists in pages: a list of papers page by page, with its pager, and the addresses its pages had
before; the authors index page by page, by initial; the lines of an overview and the crumb above a
list. Addresses come from routes."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace

from catalogue import routes
from catalogue.site.authors import initial
from catalogue.site.groups import AuthorGroup


CARD_AUTHORS = 3  # names a card shows before "et al." (assets/search.js, filter.js as many)
PAGER_REACH = 2  # page numbers a pager shows on each side of the current page, besides the first and the last
# The views a list had when each was a set of pages of its own (<base>page/2/, <base>compact/page/2/), with
# the papers a page of each held: their addresses forward to the page that shows the same papers now.
EARLIER_VIEWS = (("cards", 50), ("compact", 200))
COMPACT_QUERY = "?view=compact"  # a list page's address asking for its compact view (assets/listview.js)


@dataclass(frozen=True)
class PageSizes:
    """What a page of each paginated list holds. At these sizes the home page stays under 150 KB
    and every list page under 400 KB at any catalogue size (tests/test_lists.py)."""

    cards: int = 100  # papers on a page of a list, in either view
    authors: int = 1000  # names on a page of the authors index


@dataclass(frozen=True)
class Crumb:
    """The page a list belongs to, linked above its heading."""

    label: str
    path: str


@dataclass(frozen=True)
class ListPage:
    """A page of a list of papers (the home page's, a topic's, a venue's). Its two views,
    cards and compact lines, are the same page: a class the reader switches (assets/listview.js)."""

    base: str  # the list's folder from the site root: '' for the home page, 'topics/x/'
    number: int
    total: int  # papers in the list
    per_page: int

    @property
    def count(self) -> int:
        return max(1, -(-self.total // self.per_page))

    @property
    def start(self) -> int:
        return (self.number - 1) * self.per_page

    @property
    def path(self) -> str:
        return self.address(self.number)

    def address(self, number: int) -> str:
        return routes.list_page(self.base, number)

    @property
    def previous(self) -> str | None:
        return self.address(self.number - 1) if self.number > 1 else None

    @property
    def next(self) -> str | None:
        return self.address(self.number + 1) if self.number < self.count else None

    @property
    def numbers(self) -> tuple[int | None, ...]:
        """The page numbers the pager links: the first, the last and those near this one; None for a gap."""
        near = range(max(1, self.number - PAGER_REACH), min(self.count, self.number + PAGER_REACH) + 1)
        shown = sorted({1, self.count, *near})
        numbers: list[int | None] = []
        for number in shown:
            if numbers and number - numbers[-1] > 1:
                numbers.append(None if number - numbers[-1] > 2 else number - 1)  # a gap of one page shows it
            numbers.append(number)
        return tuple(numbers)


def list_pages(base: str, total: int, sizes: PageSizes) -> list[ListPage]:
    """Every page of a list of `total` papers (an empty list has one, empty, page)."""
    first = ListPage(base, 1, total, sizes.cards)
    return [replace(first, number=number) for number in range(1, first.count + 1)]


@dataclass(frozen=True)
class Forward:
    """An address a list's page had before, and the page (with its view) that shows its papers now."""

    path: str
    target: str


def earlier_pages(base: str, total: int, sizes: PageSizes, views: tuple[str, ...] = ("cards", "compact")) -> list[Forward]:
    """The earlier addresses of a list's pages (in `views`, those it had) that no page has now: each
    forwards to the page that shows its first paper, in the same view."""
    now = {page.path for page in list_pages(base, total, sizes)}
    forwards = []
    for view, per_page in EARLIER_VIEWS:
        if view not in views:
            continue
        for number in range(1, max(1, -(-total // per_page)) + 1):
            path = routes.list_page(base, number, compact=view == "compact")
            if path not in now:
                target = routes.list_page(base, (number - 1) * per_page // sizes.cards + 1)
                forwards.append(Forward(path, target + (COMPACT_QUERY if view == "compact" else "")))
    return forwards


@dataclass(frozen=True)
class Entry:
    """A line of an overview: a label, the page it links to, how many papers are there."""

    label: str
    path: str
    count: int


@dataclass(frozen=True)
class Letter:
    """The names of a page of the authors index that share an initial, with their paper counts."""

    letter: str
    anchor: str  # the id of its heading
    entries: tuple[Entry, ...]


@dataclass(frozen=True)
class IndexPage:
    """A page of the authors index: its number, its address, its names by initial."""

    number: int
    path: str
    sections: tuple[Letter, ...]

    @property
    def first(self) -> str:
        return self.sections[0].entries[0].label

    @property
    def last(self) -> str:
        return self.sections[-1].entries[-1].label


def paginate_authors(groups: list[AuthorGroup], per_page: int) -> list[IndexPage]:
    """The index in pages of per_page names: authors/index.html, then authors/page/<n>/index.html."""
    entries = [Entry(group.name, group.path, len(group.papers)) for group in groups]
    pages = []
    for number, start in enumerate(range(0, len(entries), per_page), 1):
        by_initial = itertools.groupby(entries[start:start + per_page], key=lambda entry: initial(entry.label))
        sections = tuple(Letter(letter, letter_anchor(letter), tuple(names)) for letter, names in by_initial)
        pages.append(IndexPage(number, routes.authors_index_page(number), sections))
    return pages


def letter_jumps(pages: list[IndexPage]) -> tuple[tuple[str, str], ...]:
    """(initial, where its first names are) for every initial of the index, in its order."""
    jumps: dict[str, str] = {}
    for page in pages:
        for section in page.sections:
            jumps.setdefault(section.letter, f"{page.path}#{section.anchor}")
    return tuple(jumps.items())


def letter_anchor(letter: str) -> str:
    return f"letter-{letter.lower()}" if letter.isalpha() else "letter-other"
