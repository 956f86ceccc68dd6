"""Lists in pages: a list of papers in its two views (cards, compact lines) page by page, with its
pager; the authors index page by page, by initial; the lines of an overview and the crumb above a
list. Addresses come from routes."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace

from catalogue import routes
from catalogue.site.authors import initial
from catalogue.site.groups import AuthorGroup


VIEWS = ("cards", "compact")  # the two views of a list of papers
CARD_AUTHORS = 3  # names a card or a compact line shows before "et al." (assets/search.js, filter.js as many)
PAGER_REACH = 2  # page numbers a pager shows on each side of the current page, besides the first and the last


@dataclass(frozen=True)
class PageSizes:
    """What a page of each paginated list holds. At these sizes the home page stays under 150 KB
    and every list page under 400 KB at any catalogue size (tests/test_lists.py)."""

    cards: int = 50
    lines: int = 200  # compact lines
    authors: int = 1000  # names on a page of the authors index


@dataclass(frozen=True)
class Crumb:
    """The page a list belongs to, linked above its heading."""

    label: str
    path: str


@dataclass(frozen=True)
class ListPage:
    """A page of a list of papers (the home page's, a topic's, a venue's) in one of
    its views: cards, or compact lines (one a paper, under <base>compact/)."""

    base: str  # the list's folder from the site root: '' for the home page, 'topics/x/'
    view: str
    number: int
    total: int  # papers in the list
    sizes: PageSizes
    views: tuple[str, ...]  # the views the list has

    def per_view(self, view: str) -> int:
        return self.sizes.cards if view == "cards" else self.sizes.lines

    @property
    def per_page(self) -> int:
        return self.per_view(self.view)

    @property
    def count(self) -> int:
        return max(1, -(-self.total // self.per_page))

    @property
    def start(self) -> int:
        return (self.number - 1) * self.per_page

    @property
    def path(self) -> str:
        return self.address(self.number)

    def address(self, number: int, view: str | None = None) -> str:
        """Page `number` of this list in `view` (this page's view by default)."""
        return routes.list_page(self.base, number, compact=(view or self.view) == "compact")

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

    def switch(self, view: str) -> str:
        """The page of `view` that shows this page's first paper."""
        return self.address(self.start // self.per_view(view) + 1, view)

    def in_view(self, path: str) -> str:
        """Another list's first page (its cards page, e.g. topics/x/index.html) in this page's view."""
        return routes.list_page(routes.list_folder(path), 1, compact=True) if self.view == "compact" else path


def list_pages(base: str, total: int, sizes: PageSizes, views: tuple[str, ...]) -> list[ListPage]:
    """Every page of a list of `total` papers in each of `views` (an empty list has one, empty, page)."""
    first = [ListPage(base, view, 1, total, sizes, views) for view in views]
    return [replace(page, number=number) for page in first for number in range(1, page.count + 1)]


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
