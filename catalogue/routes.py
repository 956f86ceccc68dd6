"""Every address of the site, in one place (and the paper files' in content/). Paths are from
the site's root; a page links with its `root` ('../../') in front. The render, the feeds, the checks and the search index use these
functions; the templates get them as `routes`; the browser scripts read PATTERNS from the page
(`<script id="site-routes">`, see assets/common.js's catalogueRoute) instead of typing them again.

Paper addresses are permanent: a shared link must keep working, so only add to these, never
change one (an old slug's page redirects to the new, see `paper_page`).
"""

from __future__ import annotations

import posixpath
import re
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import quote


from catalogue.portable import portable_slug, text_slug, with_hash

HOME = "index.html"
SEARCH = "search.html"
READING_LIST = "list.html"
MAP = "map/index.html"
MAP_DATA = "map/map-data.js"  # the map's dots and its groups' papers, as a script: the map page loads it
STATS = "stats/index.html"
TOPICS_INDEX = "topics/index.html"
VENUES_INDEX = "venues/index.html"
AUTHORS_INDEX = "authors/index.html"
NOT_FOUND = "404.html"
SITE_DATA = "site-data.js"  # the interface strings and address patterns every page's scripts read

PAPERS_FOLDER = "papers/"
CONTENT_PAPERS = "papers"  # the folder of content/ that holds the paper files
LIST_FOLDERS = ("venues/", "topics/", "authors/")  # the folders of the pages listing a venue's, topic's, author's papers

# The addresses the browser scripts build, as patterns with {slug} (or {number}) to fill in; {bucket}
# is the slug's bucket, which assets/common.js computes as `bucket` does.
PATTERNS = {
    "paper": "papers/{bucket}/{slug}/index.html",
    "paper_shared": "papers/{bucket}/{slug}/",
    "topic": "topics/{slug}/index.html",
    "author": "authors/{bucket}/index.html#{slug}",  # an author is a section of their bucket's page
    "author_shared": "authors/{bucket}/#{slug}",
    "venue": "venues/{slug}/index.html",
    "search": SEARCH,
    "list_page": "page/{number}/index.html",  # from a list's folder; the first page is index.html
    "compact": "compact/",  # a list's compact view, a folder of the list's folder
    "venue_list_part": "list-data/venues/{slug}",  # a venue-year's rows for the home page's filters (a .js part)
    "author_index_part": "list-data/authors/{key}",  # the authors index's filter: names by a word's first letter
}
# Addresses of earlier layouts, each with the pattern of its page's address now: 404.html forwards
# a reader who follows an old link there (assets/forward.js), on every host, since no redirect rule
# of a host can compute a bucket. The first pattern that matches wins: an author's page of its own
# in a bucket before the flat one (whose slug would be the bucket).
EARLIER_PAPER, EARLIER_AUTHOR, BUCKETED_AUTHOR = "papers/{slug}/", "authors/{slug}/", "authors/{bucket}/{slug}/"
FORWARDS = ((EARLIER_PAPER, "paper_shared"), (BUCKETED_AUTHOR, "author_shared"), (EARLIER_AUTHOR, "author_shared"))
PAPER_PAGE = re.compile(r"papers/([0-9a-f]{2})/([^/]+)/index\.html")  # its bucket, its slug
AUTHOR_PAGE = re.compile(r"authors/[0-9a-f]{2}/index\.html#(.+)")


BUCKETS = 256


def bucket(slug: str) -> str:
    """The folder a paper's or author's page sits in, inside papers/ or authors/: the low byte of the
    CRC-32 of the slug's UTF-8, as two hex digits. Hosts refuse or slow down on a folder of tens of
    thousands of entries; 256 buckets keep each one small at any catalogue size a host holds, the
    same slug always lands in the same bucket, and a script can compute it (assets/common.js)."""
    return f"{zlib.crc32(slug.encode('utf-8')) % BUCKETS:02x}"


def paper_page(slug: str) -> str:
    return PATTERNS["paper"].format(bucket=bucket(slug), slug=slug)


def paper_folder(slug: str) -> str:
    """The form of a paper's address meant for sharing: papers/b/x/ rather than papers/b/x/index.html."""
    return PATTERNS["paper_shared"].format(bucket=bucket(slug), slug=slug)


def paper_bibtex(slug: str) -> str:
    return f"{paper_folder(slug)}{slug}.bib"


SITE_PREVIEW = "preview.png"  # the site's social-preview card, named by the home page


def venue_preview(slug: str) -> str:
    """The social-preview card of a venue and year (its folder's slug), named by its papers' pages."""
    return f"venues/{slug}/preview.png"


def absolute(base_url: str | None, path: str) -> str | None:
    """The address of a path of the site for sharing; None when the base URL is not known."""
    return base_url + path if base_url else None


@dataclass(frozen=True)
class PaperAddresses:
    """Every address of one paper, made once from its slug, its earlier slugs and the site's base
    URL (None: not known, so no absolute address): what the render, the feeds, the structured data
    and the templates read, so that a change of layout is made here alone."""

    slug: str
    old_slugs: tuple[str, ...] = ()
    base_url: str | None = None
    venue: str | None = None  # the folder of its venue and year's page (venue_slugs), whose card is its preview
    page: str = field(init=False, compare=False)  # papers/<bucket>/<slug>/index.html
    shared: str = field(init=False, compare=False)  # papers/<bucket>/<slug>/, the form meant for sharing
    url: str | None = field(init=False, compare=False)  # the shared form's absolute address

    def __post_init__(self):  # made once: every page that shows the paper reads them
        object.__setattr__(self, "page", paper_page(self.slug))
        object.__setattr__(self, "shared", paper_folder(self.slug))
        object.__setattr__(self, "url", absolute(self.base_url, self.shared))

    @property
    def bibtex(self) -> str:
        return paper_bibtex(self.slug)

    @property
    def preview(self) -> str:
        """Its social-preview image: its venue and year's card (the site's when the venue is not given)."""
        return venue_preview(self.venue) if self.venue else SITE_PREVIEW

    @property
    def bibtex_link(self) -> str:
        """The BibTeX file as the paper's page links it: from the page's folder."""
        return posixpath.relpath(self.bibtex, posixpath.dirname(self.page))

    @property
    def content_file(self) -> str:
        """The paper's file, from content/: papers/<slug>.md."""
        return f"{CONTENT_PAPERS}/{self.slug}.md"

    @property
    def preview_url(self) -> str | None:
        return absolute(self.base_url, self.preview)

    @property
    def old_pages(self) -> tuple[str, ...]:
        """The pages at the paper's earlier addresses, each a redirect to its page."""
        return tuple(paper_page(slug) for slug in self.old_slugs)

    @property
    def moves(self) -> tuple[tuple[str, str], ...]:
        """(earlier folder, folder) for each earlier slug, in this layout and in the one before buckets
        (EARLIER_PAPER), as a host's redirects name them."""
        return tuple((folder, self.shared) for slug in self.old_slugs
                     for folder in (paper_folder(slug), EARLIER_PAPER.format(slug=slug)))

    @property
    def old_bibtex(self) -> tuple[str, ...]:
        """The BibTeX files at the paper's earlier addresses, one for each earlier slug: a shared
        .bib link must still give the citation, not the page (Netlify: a 301 to `bibtex`; a host
        without redirects: a copy of it)."""
        return tuple(paper_bibtex(slug) for slug in self.old_slugs)


def slug_of_paper_page(path: str) -> str | None:
    """'papers/b/x/index.html' -> 'x'; None for any other page."""
    match = PAPER_PAGE.fullmatch(path)
    return match[2] if match else None


def is_paper_page(path: str) -> bool:
    return PAPER_PAGE.fullmatch(path) is not None


def bucket_of_paper_page(path: str) -> str | None:
    """'papers/b/x/index.html' -> 'b'; None for any other page."""
    match = PAPER_PAGE.fullmatch(path)
    return match[1] if match else None


def topic_page(slug: str) -> str:
    return PATTERNS["topic"].format(slug=slug)


def venue_slug(label: str) -> str:
    """The folder of a venue's page: 'ICML 2026' -> 'icml-2026' (a name no system refuses, see portable.py)."""
    slug = text_slug(label)
    return portable_slug(slug, label) if slug else "unknown-venue"


def venue_slugs(labels: Iterable[str]) -> dict[str, str]:
    """Each venue label's folder, no two alike. Of labels whose slugs meet ('A+B 2026' and 'A B 2026',
    'Ünïcode' and 'Unicode'), the first in sorted order of those whose words are the slug's ('A B
    2026') keeps the slug, and every other adds its label's hash. A label alone at its slug keeps
    it, so no address moves until another venue claims it."""
    by_slug: dict[str, list[str]] = {}
    for label in sorted(set(labels)):
        by_slug.setdefault(venue_slug(label), []).append(label)
    slugs: dict[str, str] = {}
    others: list[tuple[str, str]] = []
    for slug, claimants in by_slug.items():
        keeper = claimants[0] if len(claimants) == 1 else next(
            (label for label in claimants if "-".join(label.casefold().split()) == slug), None)
        if keeper is not None:
            slugs[keeper] = slug
        others += [(label, slug) for label in claimants if label != keeper]
    taken = set(slugs.values())
    for label, slug in others:  # a hash another label's slug already is ('A B 2026 fcc8fe') is drawn again
        name, number = with_hash(slug, label), 0
        while name in taken:
            number += 1
            name = with_hash(slug, f"{label}\0{number}")
        slugs[label] = name
        taken.add(name)
    return slugs


def venue_feed(slug: str) -> str:
    """The feed of a venue and year, beside its page (templates/collection.html links it)."""
    return f"venues/{slug}/feed.xml"


def venue_list_part(slug: str) -> str:
    """The part of the list data that holds a venue and year's rows (without .js, as parts are named)."""
    return PATTERNS["venue_list_part"].format(slug=slug)


def author_index_part(key: str) -> str:
    """The part of the authors index's filter data for names with a word starting with `key` (without .js)."""
    return PATTERNS["author_index_part"].format(key=key)


def venue_page(slug: str) -> str:
    return PATTERNS["venue"].format(slug=slug)


def author_page(slug: str) -> str:
    """An author's address: their section of their bucket's page, authors/<bucket>/index.html#<slug>.
    One page per author would cost the whole frame of a page per author; a bucket's page carries it once."""
    return PATTERNS["author"].format(bucket=bucket(slug), slug=slug)


def author_bucket_page(path: str) -> str:
    """The page an author's address is a section of: 'authors/b/index.html#x' -> 'authors/b/index.html'."""
    return path.split("#")[0]


def author_slug_of(path: str) -> str:
    """'authors/b/index.html#x' -> 'x'."""
    return AUTHOR_PAGE.fullmatch(path)[1]


def authors_index_page(number: int) -> str:
    """The authors index in pages: authors/index.html, then authors/page/<n>/index.html."""
    return AUTHORS_INDEX if number == 1 else f"authors/{PATTERNS['list_page'].format(number=number)}"


def list_folder(first_page: str) -> str:
    """A list's folder from its first page: 'topics/x/index.html' -> 'topics/x/', 'index.html' -> ''."""
    return first_page.removesuffix("index.html")


def list_page(folder: str, number: int, compact: bool = False) -> str:
    """Page `number` of the list in `folder`, in its cards view or its compact one."""
    folder += PATTERNS["compact"] if compact else ""
    return f"{folder}index.html" if number == 1 else folder + PATTERNS["list_page"].format(number=number)


def shared_form(path: str) -> str:
    """The form of a path meant for sharing: x/ rather than x/index.html (x/#y for x/index.html#y)."""
    page, mark, fragment = path.partition("#")
    return page.removesuffix("index.html") + mark + fragment


def search_for(query: str) -> str:
    return f"{SEARCH}?q={quote(query)}"
