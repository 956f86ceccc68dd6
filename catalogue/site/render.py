"""Catalogue + config -> every file of the site as an Output: its path, a digest of its inputs,
and how to make it. Nothing here writes the site (output.py does); the cache keeps converted
text and the costly whole-catalogue results (related papers, the map) between builds.

Every internal link is relative and names its file, so one build works from file://, under
a subpath and at a domain root. `root` in the template context is the way back to the
site's top from the page being rendered ('' or '../../'); 404.html, which hosts serve at any
depth, uses the base URL's absolute path instead.
"""

from __future__ import annotations

import functools
import itertools
import json
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, TemplateError, TemplateSyntaxError, select_autoescape
from markupsafe import Markup as SafeHtml, escape

from catalogue.site import routes
from catalogue.site.authors import author_key, author_path, index_order, initial, shown_names
from catalogue.system.cache import Cache, code_version, digest, record_digest
from catalogue.markup.cleanup import COLLAPSED_WHITESPACE, REMOVED_REPEAT, RESTORED_COMMANDS, read_note
from catalogue.config import SiteConfig
from catalogue.content.fields import SLUG
from catalogue.errors import CatalogueError, shown
from catalogue.markup.convert import CONVERTED, Converted, TextConverter, conversion_key, inline
from catalogue.site.charts import MapPoint, render_bar_chart, render_map, render_swatch
from catalogue.site.cite import render_bibtex, render_markdown_citation, render_plain_citation, venue_label
from catalogue.site.i18n import Strings, load_strings, localise_topic
from catalogue.site.feeds import paper_record, render_atom, render_papers_json, render_robots, render_sitemap
from catalogue.model import Catalogue, Paper, Topic
from catalogue.site.output import Batch, Output
from catalogue.site.views import VIEW_PARTS, ViewParts
from catalogue.system.progress import Progress
from catalogue.discovery.related import SimilarityProcess
from catalogue.site.lookup import find_links
from catalogue.site.share_image import render_preview_png
from catalogue.system.workers import cores, run_in_workers
from catalogue.system.terminal import counted
from catalogue.search.index import (FALLBACK_FILE, PAGES_FILE, AbstractTerms, IndexedPage, SearchEntry, abstract_terms,
                                    mark_joiners, render_fallback_index, render_pages_file)

EXCERPT_LENGTH = 260
DESCRIPTION_LENGTH = 160
PARALLEL_CONVERSION_FROM = 500  # fewer texts convert faster in one process
CONVERSION_CHUNK = 100  # texts a worker converts between two requests
NOTHING = Converted("", "", ())  # the abstract of a paper its list gives none for
CARD_AUTHORS = 3  # names a card or a compact line shows before "et al." (assets/search.js, filter.js as many)
VIEWS = ("cards", "compact")  # the two views of a list of papers
PAGER_REACH = 2  # page numbers a pager shows on each side of the current page, besides the first and the last


@dataclass(frozen=True)
class PageSizes:
    """What a page of each paginated list holds. At these sizes the home page stays under 150 KB
    and every list page under 400 KB at any catalogue size (tests/test_lists.py)."""

    cards: int = 50
    lines: int = 200  # compact lines
    authors: int = 1000  # names on a page of the authors index


@dataclass(frozen=True)
class AuthorRef:
    """An author of a paper: the paper's spelling (for citations), the author's spelling (shown on
    every page, as on their own), their page."""

    name: str
    shown: str
    path: str


@dataclass(frozen=True)
class PaperView:
    """A paper with its text converted once, ready for any template."""

    paper: Paper
    path: str  # from the site root: papers/<slug>/index.html
    name_html: SafeHtml | None
    name_text: str
    title_html: SafeHtml
    title_text: str
    plain_abstract: str
    url: str | None  # the absolute address for sharing, when the base URL is known
    bibtex: str
    abstract_html: SafeHtml
    excerpt: str
    description: str
    topics: tuple[Topic, ...]
    authors: tuple[AuthorRef, ...]
    bibtex_entry: str  # its entry in list-bibtex.js
    terms: AbstractTerms  # what the offline search index reads of its abstract
    key: str  # a digest of everything above: pages that show the paper change when it changes


def make_environment(templates_dir: Path) -> Environment:
    """Templates compiled once per process for each state of their files (a rebuild in the same
    process, as `serve --watch` and the tests make, reuses them); autoescape on; a misspelt variable
    fails the build. The filter `mark_joiners` marks the text Pagefind indexes so that it splits
    words at every dash."""
    return _environment(templates_dir.resolve(), files_state(templates_dir))


def files_state(folder: Path) -> str:
    """A digest of the files under `folder`: their paths inside it and their bytes."""
    return digest(*[(path.relative_to(folder).as_posix(), path.read_bytes())
                    for path in sorted(folder.rglob("*")) if path.is_file()])


@functools.lru_cache(maxsize=2)
def _environment(templates_dir: Path, state: str) -> Environment:
    env = Environment(
        loader=FileSystemLoader(templates_dir),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,  # a build's templates do not change under it: no check of the files per page
    )
    env.filters["mark_joiners"] = lambda text: SafeHtml(mark_joiners(str(escape(text))))
    return env


def shorten(text: str, limit: int) -> str:
    """text cut at a word boundary, with an ellipsis when cut."""
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0].rstrip(",;:.") + "\u2026"


def converted_texts(papers: Iterable[Paper], cache: Cache) -> Callable[[str, bool], Converted]:
    """These papers' texts converted, looked up by (text, links). Each text is converted once:
    a text converted before (by an earlier build, or by ingest, which converts abstracts to
    check their math) comes from the cache."""
    wanted: dict[str, tuple[str, bool]] = {}
    labels: dict[str, str] = {}  # which paper's text it is, for a message
    for paper in papers:
        for text, links, part in ((paper.abstract, True, "abstract"), (paper.title, False, "title"),
                                  (paper.name, False, "name")):
            if text:
                key = conversion_key(text, links)
                wanted[key] = text, links
                labels.setdefault(key, f"{paper.source}: the {part} of paper '{paper.slug}'")
    converted = cache.get_many(CONVERTED, wanted)
    missing = [key for key in wanted if key not in converted]
    if missing:
        fresh = dict(zip(missing, convert_texts([wanted[key] for key in missing], [labels[key] for key in missing])))
        cache.put_many(CONVERTED, fresh)
        converted |= fresh
    by_text = {text_and_links: converted[key] for key, text_and_links in wanted.items()}
    return lambda text, links: by_text[text, links] if text else NOTHING


def view_papers(catalogue: Catalogue, config: SiteConfig, cache: Cache,
                venue: Callable[[Paper], str] = venue_label) -> tuple[PaperView, ...]:
    """Every paper ready for the templates; `venue` names a paper's venue as pages show it. The
    parts a view derives from its paper alone are kept in the cache by the view's key: only the
    papers whose key is new have their texts converted and their parts made."""
    topics = {t.slug: t for t in catalogue.topics}
    authors = {key: (name, author_path(name)) for key, name in shown_names(p.authors for p in catalogue.papers).items()}
    settings = digest(code_version(), config)
    topic_keys = {slug: digest(topic) for slug, topic in topics.items()}
    shown = [(paper, tuple(topics[slug] for slug in paper.topics),
              tuple(AuthorRef(author, *authors[author_key(author)]) for author in paper.authors))
             for paper in catalogue.papers]
    keys = [digest(settings, paper_digest, [topic_keys[slug] for slug in paper.topics],
                   [(ref.name, ref.shown, ref.path) for ref in refs], venue(paper))
            for (paper, _, refs), paper_digest in zip(shown, catalogue.digests or map(record_digest, catalogue.papers))]
    parts = cache.get_many(VIEW_PARTS, keys)
    missing = [paper for (paper, _, _), key in zip(shown, keys) if key not in parts]
    if missing:
        converted = converted_texts(missing, cache)
        made = {key: view_parts(paper, config, converted, venue)
                for (paper, _, _), key in zip(shown, keys) if key not in parts}
        cache.put_many(VIEW_PARTS, made)
        parts |= made
    cache.keep_only(VIEW_PARTS, keys)
    cache.keep_only(CONVERTED, [conversion for key in keys for conversion in parts[key].conversions])
    return tuple(view_paper(paper, paper_topics, refs, config, parts[key], key)
                 for (paper, paper_topics, refs), key in zip(shown, keys))


def convert_texts(texts: list[tuple[str, bool]], labels: list[str]) -> list[Converted]:
    """Texts (with links or not) converted, on every core when there are many: the costly part of
    a first build. `labels` name each text in a message, should its conversion fail."""
    if len(texts) < PARALLEL_CONVERSION_FROM or cores() == 1:
        return [_convert(texts, labels, index) for index in range(len(texts))]
    chunks = (range(start, min(start + CONVERSION_CHUNK, len(texts))) for start in range(0, len(texts), CONVERSION_CHUNK))
    with Progress("Converting text", len(texts)) as progress:
        return run_in_workers(functools.partial(_convert, texts, labels), chunks, lambda at, code: (
            f"{labels[at]}: the process converting it stopped (exit code {code}); the previous site is kept"), progress)


def _convert(texts: list[tuple[str, bool]], labels: list[str], index: int, markup: TextConverter = TextConverter()) -> Converted:
    """One text converted; any failure is a CatalogueError that names it (in a worker, a traceback would name nothing)."""
    try:
        return markup.convert(*texts[index])
    except Exception as error:  # noqa: BLE001 - reported with the text's name
        raise CatalogueError(f"{labels[index]}: could not be converted ({type(error).__name__}: {error})") from error


def view_parts(paper: Paper, config: SiteConfig, converted: Callable[[str, bool], Converted],
               venue: Callable[[Paper], str] = venue_label) -> ViewParts:
    """What a paper's view derives from the paper alone, its texts from `converted(text, links)`."""
    name = converted(paper.name, False) if paper.name else None
    title = converted(paper.title, False)
    abstract = converted(paper.abstract, True)
    bibtex = render_bibtex(paper, config.absolute_url(routes.paper_folder(paper.slug)))
    return ViewParts(name_html=inline(name.html) if name else None,
                     name_text=name.plain if name else "",
                     title_html=inline(title.html),
                     title_text=title.plain,
                     plain_abstract=abstract.plain,
                     bibtex=bibtex,
                     abstract_html=abstract.html,
                     excerpt=shorten(abstract.plain, EXCERPT_LENGTH),
                     description=shorten(abstract.plain or f"{title.plain} ({venue(paper)})", DESCRIPTION_LENGTH),
                     bibtex_entry=plain_script_json({paper.id: bibtex})[1:-1],
                     terms=abstract_terms(abstract.plain),
                     conversions=tuple(conversion_key(text, links) for text, links in (
                         (paper.abstract, True), (paper.title, False), (paper.name, False)) if text))


def view_paper(paper: Paper, topics: tuple[Topic, ...], authors: tuple[AuthorRef, ...], config: SiteConfig,
               parts: ViewParts, key: str) -> PaperView:
    """A paper ready for the templates from its parts; `key` is a digest of all it shows."""
    return PaperView(paper, routes.paper_page(paper.slug),
                     name_html=SafeHtml(parts.name_html) if parts.name_html is not None else None,
                     name_text=parts.name_text,
                     title_html=SafeHtml(parts.title_html),
                     title_text=parts.title_text,
                     plain_abstract=parts.plain_abstract,
                     url=config.absolute_url(routes.paper_folder(paper.slug)),
                     bibtex=parts.bibtex,
                     abstract_html=SafeHtml(parts.abstract_html),
                     excerpt=parts.excerpt,
                     description=parts.description,
                     topics=topics,
                     authors=authors,
                     bibtex_entry=parts.bibtex_entry,
                     terms=parts.terms,
                     key=key)


def plan_site(catalogue: Catalogue, config: SiteConfig, env: Environment, cache: Cache,
              similarity: SimilarityProcess, sizes: PageSizes = PageSizes()) -> list[Batch]:
    """Every file of the site but assets and search bundle, each with the digest of its inputs,
    unmade, in three batches: what needs neither related papers nor the map (planned now),
    the paper pages, the map. The similarity process works while a batch is written; planning
    the next one waits for its answer."""
    strings = load_strings(config.language)
    catalogue = replace(catalogue, topics=tuple(localise_topic(t, config.language) for t in catalogue.topics))
    t = strings.text
    venue = functools.partial(venue_label, unknown=t("paper.unknown_venue"))  # as pages name it
    views = view_papers(catalogue, config, cache, venue)
    similarity.ask([f"{view.title_text}. {view.plain_abstract}" for view in views], cache)
    everything = digest(code_version(), templates_state(env), config, sorted(strings.table.items()))
    pages = PagePlanner(catalogue, views, config, env, strings, everything, sizes)
    lists = pages.plan_lists()
    paper_paths = [view.path for view in views] + [routes.MAP]
    data = plan_data_files(catalogue, views, config, sorted([o.path for o in lists] + paper_paths), everything, venue,
                           t("feed.unknown_author"))
    data.append(plan_index_record(views, everything, t("paper.unknown_venue")))
    # The few big files first (data, then lists), the many small ones after: no worker is left with a big one at the end.
    first = data + lists + plan_paper_files(views, config, everything, venue)
    return [Batch("lists, feeds and search data (related papers are found meanwhile)", lambda: first),
            Batch(counted(len(views), "paper page"), lambda: pages.plan_papers(similarity.related())),
            Batch("the map", lambda: [pages.plan_map(similarity.positions(), similarity.groups())], searched=False)]


def templates_state(env: Environment) -> str:
    """A digest of the template files, so that editing one re-renders the pages."""
    return digest(*[files_state(Path(folder)) for folder in env.loader.searchpath])  # not where the project is


class PagePlanner:
    """The site's HTML pages as Outputs. A page's inputs are its template, its path and its values."""

    def __init__(self, catalogue: Catalogue, views: tuple[PaperView, ...], config: SiteConfig, env: Environment,
                 strings: Strings, everything: str, sizes: PageSizes = PageSizes()):
        self.catalogue, self.views, self.config, self.env, self.strings = catalogue, views, config, env, strings
        self.authors, self.sizes = author_groups(views), sizes
        counts = Counter(slug for v in views for slug in v.paper.topics)
        self.counts = {topic.slug: counts[topic.slug] for topic in catalogue.topics}
        order = {topic.slug: n for n, topic in enumerate(catalogue.topics)}
        self.used_topics = tuple(sorted((topic for topic in catalogue.topics if self.counts[topic.slug]),
                                        key=lambda topic: (-self.counts[topic.slug], order[topic.slug])))  # largest first
        self.venue = functools.partial(venue_label, unknown=strings.text("paper.unknown_venue"))
        self.venues = venue_groups(views, self.venue)
        shared = {"topics": self.used_topics, "topic_counts": self.counts, "paper_count": len(views),
                  "venues": [Entry(label, routes.venue_page(slug), len(members)) for slug, label, members in self.venues],
                  "has_authors": bool(self.authors), "card_authors": CARD_AUTHORS}
        self.base = digest(everything, inputs_of(shared))
        shared |= {"t": strings, "script_strings": script_json(strings.script_strings()), "venue_label": self.venue,
                   "script_routes": script_json(routes.PATTERNS)}
        macros = env.get_template("_macros.html").make_module({**shared, "routes": routes})
        shared["card"], shared["line"] = EntryMaker(macros.paper_card), EntryMaker(macros.paper_line)
        shared["reuse"] = PartReuser()
        self.shared = shared

    def page(self, path: str, template: str, later=None, **values) -> Output:
        """A page whose inputs are its template, its path and `values` (views stand in by their key);
        `later` makes values that follow from those (so they need not be held until the page is made)."""
        env, config, shared = self.env, self.config, self.shared
        return Output(path, digest(self.base, template, path, inputs_of(values)),
                      lambda: render_page(env, template, config, path, shared, **values, **(later or dict)()))

    def plan_lists(self) -> list[Output]:
        """Every page but the paper pages and the map: lists, overviews, statistics, old addresses."""
        page, t, config, views, catalogue = self.page, self.strings.text, self.config, self.views, self.catalogue
        counts, used_topics, venues = self.counts, self.used_topics, self.venues
        pages = self.plan_list("", views, "index.html", t("listing.home_title"), config.description)
        pages += [
            page(routes.SEARCH, "search.html", title=t("search.title"),
                 description=t("search.description", site=config.title), papers=(),
                 venue_names=sorted({p.venue for p in catalogue.papers if p.venue}),
                 years=sorted({p.year for p in catalogue.papers if p.year}, reverse=True)),
            page(routes.TOPICS_INDEX, "overview.html", title=t("overview.topics_title"),
                 description=t("overview.topics_description", site=config.title), papers=(),
                 lede=t("overview.topics_lede"),
                 entries=[Entry(topic.label, routes.topic_page(topic.slug), counts[topic.slug]) for topic in used_topics]),
            page(routes.VENUES_INDEX, "overview.html", title=t("overview.venues_title"),
                 description=t("overview.venues_description", site=config.title), papers=(),
                 lede=t("overview.venues_lede"),
                 entries=[Entry(label, routes.venue_page(slug), len(members)) for slug, label, members in venues]),
            page(routes.NOT_FOUND, "404.html", title=t("not_found.title"), description=t("not_found.description"), papers=()),
            page(routes.READING_LIST, "list.html", title=t("nav.my_list"), papers=(),
                 description=t("list.description", site=config.title)),
            page(routes.STATS, "stats.html", title=t("stats.title"), papers=views,
                 description=t("stats.description", site=config.title),
                 **statistics(views, used_topics, counts, venues, self.strings)),
        ]
        for view in views:
            for old_slug in view.paper.old_slugs:  # a renamed paper keeps its old address working
                pages.append(page(routes.paper_page(old_slug), "redirect.html",
                                  title=t("moved.title", title=view.title_text), description=view.description,
                                  papers=(view,), canonical_path=view.path))
        members_of: dict[str, list[PaperView]] = {}  # topic slug -> its papers, in catalogue order
        for view in views:
            for slug in dict.fromkeys(view.paper.topics):
                members_of.setdefault(slug, []).append(view)
        for topic in used_topics:
            members = tuple(members_of[topic.slug])
            pages += self.plan_list(routes.list_folder(routes.topic_page(topic.slug)), members, "collection.html", topic.label,
                                    t("collection.topic_description", len(members), topic=topic.label,
                                      site=config.title),
                                    parent=Crumb(t("nav.topics"), routes.TOPICS_INDEX), author=None)
        for slug, label, members in venues:
            pages += self.plan_list(routes.list_folder(routes.venue_page(slug)), members, "collection.html", label,
                                    t("collection.venue_description", len(members), venue=label, site=config.title),
                                    parent=Crumb(t("nav.venues"), routes.VENUES_INDEX), author=None)
        return pages + self.plan_authors()

    def plan_list(self, base: str, members: tuple[PaperView, ...], template: str, heading: str, description: str,
                  compact: bool = True, **values) -> list[Output]:
        """Every page of a list of papers: its cards at <base>index.html, <base>page/2/index.html, ...
        and (when `compact`) its compact lines at <base>compact/index.html, <base>compact/page/2/index.html, ..."""
        t = self.strings.text
        pages = []
        for listing in list_pages(base, len(members), self.sizes, VIEWS if compact else VIEWS[:1]):
            title, about = heading, description
            if listing.path == routes.HOME:
                title = self.config.title  # the home page is named by the site
            if listing.view == "compact":
                title = t("listing.compact_title", title=title)
            if listing.number > 1:
                title = t("listing.page_title", title=title, page=listing.number, pages=listing.count)
                about = t("listing.page_description", description=about, page=listing.number, pages=listing.count)
            pages.append(self.page(listing.path, template, title=title, description=about, heading=heading,
                                   papers=members[listing.start:listing.start + listing.per_page], listing=listing,
                                   **values))
        return pages

    def plan_authors(self) -> list[Output]:
        """A page per author listing their papers, and the authors index (none without authors).
        Most authors have a few papers: only those with more than a page of cards get the compact view too."""
        t, site = self.strings.text, self.config.title
        return [page for author in self.authors
                for page in self.plan_list(routes.list_folder(author.path), author.papers, "collection.html", author.name,
                                           t("collection.author_description", len(author.papers),
                                             author=author.name, site=site),
                                           compact=len(author.papers) > self.sizes.cards,
                                           parent=Crumb(t("nav.authors"), routes.AUTHORS_INDEX), author=author.name)
                ] + self.plan_author_index()

    def plan_author_index(self) -> list[Output]:
        """The authors index, sizes.authors names a page, each page with the letter bar and a pager."""
        t, site, count = self.strings.text, self.config.title, len(self.authors)
        index = paginate_authors(self.authors, self.sizes.authors)
        jumps = letter_jumps(index)
        pages = []
        for at, part in enumerate(index):
            if at == 0:
                title, description = t("authors.title"), t("authors.description", count, site=site)
            else:
                title = t("authors.page_title", page=part.number)
                description = t("authors.page_description", page=part.number, first=part.first, last=part.last,
                                site=site)
            pages.append(self.page(part.path, "authors.html", title=title, description=description, papers=(),
                                   sections=part.sections, jumps=jumps, author_count=count, number=part.number,
                                   page_count=len(index), previous_page=index[at - 1].path if at else None,
                                   next_page=index[at + 1].path if at + 1 < len(index) else None))
        return pages

    def plan_papers(self, related: list[tuple[tuple[int, tuple[str, ...]], ...]]) -> list[Output]:
        """A page per paper, with its related papers (index of the other, terms they share)."""
        views = self.views
        return [self.page(view.path, "paper.html", title=view.title_text, description=view.description,
                          papers=(view,), previous=views[index - 1] if index else None,
                          next=views[index + 1] if index + 1 < len(views) else None,
                          related=[Related(views[other], terms) for other, terms in related[index]],
                          later=functools.partial(paper_extras, view, self.config, self.strings))
                for index, view in enumerate(views)]

    def plan_map(self, positions: list[tuple[float, float]],
                 groups: list[tuple[tuple[str, ...], tuple[int, ...]]]) -> Output:
        t, views = self.strings.text, self.views
        map_groups = [MapGroup(n, words, SafeHtml(render_swatch(n)), tuple(views[i] for i in members))
                      for n, (words, members) in enumerate(groups)]
        return self.page(routes.MAP, "map.html", title=t("map.title"), papers=views,
                         description=t("map.description", len(views), site=self.config.title),
                         map_svg=SafeHtml(render_catalogue_map(views, positions, groups, self.strings)),
                         map_groups=map_groups)


class EntryMaker:
    """Each paper's entry in a list (a macro: its card, its compact line) made once per build, however
    many lists show it: made with a stand-in for the way back to the site's top, which each page then fills in."""

    ROOT = SafeHtml("<root>")  # passed unescaped, so it cannot be confused with any text (whose '<' is escaped)

    def __init__(self, macro):
        self.macro = macro
        self.made: dict[str, str] = {}

    def __call__(self, view: PaperView, root: str) -> SafeHtml:
        if view.key not in self.made:
            self.made[view.key] = str(self.macro(view, self.ROOT))
        return SafeHtml(self.made[view.key].replace(self.ROOT, root))


class PartReuser:
    """`{% call reuse("header", root) %}...{% endcall %}` in a template: the block is rendered
    once per key in a build and reused, since most of a page's frame (header, navigation,
    footer) is the same on every page at the same depth. What the block shows must follow
    from its key, and from the build's settings and strings, which every page shares."""

    def __init__(self):
        self.made: dict[tuple, SafeHtml] = {}

    def __call__(self, *key: object, caller: Callable[[], str]) -> SafeHtml:
        if key not in self.made:
            self.made[key] = SafeHtml(caller())
        return self.made[key]


def paper_extras(view: PaperView, config: SiteConfig, strings: Strings) -> dict:
    """What a paper page adds to its view: citations, structured data, where to look the paper up
    when its list links neither its PDF nor its proceedings, and what ingest tidied in its abstract."""
    paper = view.paper
    find = () if paper.pdf or paper.url else find_links(view.title_text, paper.title_source == "derived")
    return {"citation": citations(view), "structured_data": structured_data(view, config), "find_links": find,
            "tidied": tidy_notes(paper.cleaned, strings.text)}


def tidy_notes(notes: tuple[str, ...], t: Callable[..., str]) -> str:
    """The notes of what ingest tidied in an abstract (cleanup.py) in the site's language; a note
    written by hand in the content file as it is."""
    said = []
    for note in notes:
        kind, values = read_note(note)
        said.append(t("paper.tidy_restored_commands") if kind == RESTORED_COMMANDS
                    else t("paper.tidy_collapsed_whitespace") if kind == COLLAPSED_WHITESPACE
                    else t("paper.tidy_removed_repeat", **values) if kind == REMOVED_REPEAT else note)
    return t("paper.tidy_separator").join(said)


def inputs_of(value: object) -> object:
    """A cheap stand-in for a value in a digest: a paper view by its key, containers item by item."""
    if isinstance(value, PaperView):
        return value.key
    if isinstance(value, Related):
        return value.view.key, value.terms
    if isinstance(value, MapGroup):
        return value.index, value.words, tuple(view.key for view in value.papers)
    if isinstance(value, dict):
        return tuple((key, inputs_of(item)) for key, item in sorted(value.items()))
    if isinstance(value, (list, tuple)):
        if all(type(item) is PaperView for item in value):  # a page's papers: the usual case, made short
            return tuple(item.key for item in value)
        return tuple(inputs_of(item) for item in value)
    return value


@dataclass(frozen=True)
class Related:
    view: PaperView
    terms: tuple[str, ...]


@dataclass(frozen=True)
class MapGroup:
    """A group of the map, as the list below it shows it: its colour index, its words, its papers."""

    index: int
    words: tuple[str, ...]
    swatch: SafeHtml
    papers: tuple[PaperView, ...]  # most typical first


def render_catalogue_map(views: tuple[PaperView, ...], positions: list[tuple[float, float]],
                         groups: list[tuple[tuple[str, ...], tuple[int, ...]]], strings: Strings) -> str:
    """The map: one dot per paper, coloured and labelled by its group; short labels keep it small."""
    colour = {member: n for n, (_, members) in enumerate(groups) for member in members}
    points = [MapPoint(x, y, f"../{v.path}", v.name_text or shorten(v.title_text, 60), colour.get(i, 0))
              for i, (v, (x, y)) in enumerate(zip(views, positions))]
    t = strings.text
    return render_map(points, [words for words, _ in groups], title=t("map.heading"), empty=t("map.empty"))


def statistics(views: tuple[PaperView, ...], topics: tuple[Topic, ...], counts: dict[str, int],
               venues: list[tuple[str, str, tuple[PaperView, ...]]], strings: Strings) -> dict:
    """The numbers and charts of the statistics page."""
    t = strings.text
    papers = t("stats.unit_papers")
    with_code = [v for v in views if v.paper.links]
    mentions = Counter(b for v in views for b in v.paper.benchmarks)
    top_benchmarks = sorted(mentions.items(), key=lambda item: (-item[1], item[0]))[:15]
    return {
        "named_count": sum(1 for v in views if v.paper.name),
        "code_count": len(with_code),
        "code_share": round(100 * len(with_code) / len(views)) if views else 0,
        "topic_chart": SafeHtml(render_bar_chart([(t.label, counts[t.slug], f"../{routes.topic_page(t.slug)}") for t in topics],
                                                 title=t("stats.per_topic"), unit=papers, number=strings.number)),
        "venue_chart": SafeHtml(render_bar_chart([(label, len(members), f"../{routes.venue_page(slug)}")
                                                  for slug, label, members in venues],
                                                 title=t("stats.per_venue"), unit=papers, number=strings.number)),
        "code_chart": SafeHtml(render_bar_chart(
            [(label, round(100 * sum(1 for v in members if v.paper.links) / len(members)), f"../{routes.venue_page(slug)}")
             for slug, label, members in venues], title=t("stats.code_share_chart"), unit="%", maximum=100)),
        "benchmark_chart": SafeHtml(render_bar_chart(
            [(name, count, f"../{routes.search_for(name)}") for name, count in top_benchmarks],
            title=t("stats.benchmarks"), unit=papers, number=strings.number)) if top_benchmarks else None,
    }


@dataclass(frozen=True)
class Crumb:
    """The page a list belongs to, linked above its heading."""

    label: str
    path: str


@dataclass(frozen=True)
class ListPage:
    """A page of a list of papers (the home page's, a topic's, a venue's, an author's) in one of
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
class AuthorGroup:
    """An author's page: the spelling it shows, its address, their papers (newest first, then by title)."""

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
    groups = [AuthorGroup(first[path][0].shown, path, tuple(sorted(papers.values(), key=newest_then_title)))
              for path, papers in members.items()]
    return sorted(groups, key=lambda group: index_order(group.name))


def newest_then_title(view: PaperView) -> tuple:
    return -(view.paper.year or 0), view.title_text.casefold(), view.title_text, view.paper.id


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


@dataclass(frozen=True)
class Entry:
    """A line of an overview: a label, the page it links to, how many papers are there."""

    label: str
    path: str
    count: int


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


def script_json(data) -> SafeHtml:
    """JSON to embed in a <script> element: '<', '>' and '&' escaped so it cannot close the element."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return SafeHtml(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def plan_data_files(catalogue: Catalogue, views: tuple[PaperView, ...], config: SiteConfig, html_paths: list[str],
                    everything: str, venue: Callable[[Paper], str], unknown_author: str) -> list[Output]:
    """The whole catalogue's citations, feeds, offline search index and redirects; `venue` and
    `unknown_author` name a paper's venue and a paper without authors in the site's language."""
    labels = {t.slug: t.label for t in catalogue.topics}
    terms = {v.plain_abstract: v.terms for v in views}  # kept with the views: an edit finds only its own again
    topic_index = {t.slug: n for n, t in enumerate(catalogue.topics)}
    all_views = digest(everything, [v.key for v in views])
    files = [
        Output(".nojekyll", everything, lambda: ""),  # GitHub Pages: serve the site as it is, no Jekyll
        Output("_redirects", all_views, lambda: render_netlify_redirects(catalogue)),
        Output("robots.txt", everything, lambda: render_robots(config)),
        Output("feed.xml", all_views, lambda: render_atom(catalogue, {v.paper.id: v.title_text for v in views},
                                                          {v.paper.id: v.description for v in views}, config,
                                                          venue, unknown_author)),
        Output("papers.json", all_views, lambda: render_papers_json(
            (paper_record(v.paper, labels, v.title_text, v.plain_abstract, config) for v in views), config)),
        Output("list-data.js", all_views, lambda: render_list_data(views, catalogue.topics, venue)),
        Output("list-bibtex.js", all_views, lambda: render_list_bibtex(views)),
        Output("catalogue.bib", all_views, lambda: "\n".join(v.bibtex for v in views)),
        Output(FALLBACK_FILE, all_views, lambda: render_fallback_index(
            [SearchEntry(v.path, v.name_text, v.title_text, venue(v.paper),
                         tuple(topic_index[t.slug] for t in v.topics), v.plain_abstract,
                         tuple(author.shown for author in v.authors), v.paper.id, v.paper.title_source == "derived")
             for v in views],
            [t.label for t in catalogue.topics], terms)),
    ]
    redirects = {routes.paper_page(slug) for v in views for slug in v.paper.old_slugs}
    listed = [p for p in html_paths if p != routes.NOT_FOUND and p not in redirects]
    if config.base_url:
        files.append(Output("sitemap.xml", digest(everything, listed), lambda: render_sitemap(listed, config)))
    return files


def plan_index_record(views: tuple[PaperView, ...], everything: str, unknown_venue: str) -> Output:
    """What the search stage indexes: each paper page with the venue and year filters it writes
    (templates/paper.html) and a key of everything its page is made from but its neighbours."""
    pages = [IndexedPage(view.path, view.paper.venue or unknown_venue, str(view.paper.year or ""), digest(everything, view.key))
             for view in views]
    return Output(PAGES_FILE, digest(everything, [page.key for page in pages]), lambda: render_pages_file(pages))


def plan_paper_files(views: tuple[PaperView, ...], config: SiteConfig, everything: str,
                     venue: Callable[[Paper], str]) -> list[Output]:
    """Each paper's citation file and (with a base URL) its preview image, which names the venue as `venue` does."""
    files = []
    for view in views:
        files.append(Output(routes.paper_bibtex(view.paper.slug), digest(everything, view.key),
                            functools.partial(str, view.bibtex)))
        if config.base_url:  # only a shared link shows a preview, and only an absolute URL can name it
            preview = functools.partial(render_preview_png, name=view.name_text or None, title=view.title_text,
                                        venue=venue(view.paper), site_title=config.title)
            files.append(Output(routes.paper_preview(view.paper.slug), digest(everything, preview.keywords), preview))
    return files


def render_list_data(views: tuple[PaperView, ...], topics: tuple[Topic, ...],
                     venue: Callable[[Paper], str] = venue_label) -> str:
    """Every paper in catalogue order, for the home page's filters and the reading list, as a plain
    script (so it loads from disk): {"papers": [[id, slug, title, name, venue, [topic, ...], [author,
    ...], author count, and 1 when the title was derived], ...], "venues": [[label, year], ...],
    "topics": [[slug, label], ...]}, a venue or topic by its place in those lists (venues newest
    first, labelled as `venue` names them), the first CARD_AUTHORS authors as author_entry gives them."""
    groups = venue_groups(views, venue)
    venues = [(label, members[0].paper.year) for _, label, members in groups]
    venue_index = {venue(members[0].paper): n for n, (_, _, members) in enumerate(groups)}
    topic_index = {t.slug: n for n, t in enumerate(topics)}
    papers = [[v.paper.id, v.paper.slug, v.title_text, v.name_text, venue_index[venue(v.paper)],
               [topic_index[t.slug] for t in v.topics],
               [author_entry(a) for a in v.authors[:CARD_AUTHORS]], len(v.authors)]
              + ([1] if v.paper.title_source == "derived" else []) for v in views]
    data = {"papers": papers, "venues": venues, "topics": [[t.slug, t.label] for t in topics]}
    return "window.CATALOGUE_LIST = " + plain_script_json(data) + ";\n"


def author_entry(author: AuthorRef) -> str | list[str]:
    """An author in list-data.js: [name, folder], or the name alone when the folder is the name in
    lower case with hyphens for spaces, as for most names."""
    folder = routes.author_folder_of(author.path)
    return author.shown if author.shown.isascii() and author.shown.lower().replace(" ", "-") == folder else [author.shown, folder]


def render_list_bibtex(views: tuple[PaperView, ...]) -> str:
    """For the reading list's export: id -> BibTeX, as a plain script (apart from list-data.js, which the home page loads)."""
    entries = ",".join(v.bibtex_entry for v in sorted(views, key=lambda v: v.paper.id))  # as sort_keys orders them
    return "window.CATALOGUE_BIBTEX = {" + entries + "};\n"


def plain_script_json(data) -> str:
    """JSON for a script file; '<' escaped, so no text can read as a tag (a tag-leak check reads these files)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True).replace("<", "\\u003c")


def citations(view: PaperView) -> dict[str, str]:
    return {"bibtex": view.bibtex, "plain": render_plain_citation(view.paper, view.title_text, view.url),
            "markdown": render_markdown_citation(view.paper, view.title_text, view.url)}


def structured_data(view: PaperView, config: SiteConfig) -> SafeHtml:
    """JSON-LD ScholarlyArticle for search engines; '<' escaped so it cannot close the script."""
    paper = view.paper
    data = {
        "@context": "https://schema.org", "@type": "ScholarlyArticle", "identifier": paper.id,
        "headline": view.title_text[:110], "name": view.title_text, "abstract": view.plain_abstract,
        "inLanguage": config.language, "keywords": [t.label for t in view.topics],
        "datePublished": str(paper.year) if paper.year else None,
        "publication": {"@type": "PublicationEvent", "name": venue_label(paper)} if paper.venue else None,
        "author": [person(author, config) for author in view.authors] or None,
        "url": view.url, "image": config.absolute_url(routes.paper_preview(paper.slug)),
    }
    return script_json({k: v for k, v in data.items() if v is not None})


def person(author: AuthorRef, config: SiteConfig) -> dict:
    """A schema.org Person: the name as the paper gives it, and their page here when the base URL is known."""
    url = config.absolute_url(routes.shared_form(author.path))
    return {"@type": "Person", "name": author.name, **({"url": url} if url else {})}


def render_netlify_redirects(catalogue: Catalogue) -> str:
    """Netlify's _redirects: real 301s from every old paper address (the pages there are the fallback)."""
    lines = ["# Old paper addresses, kept when a slug is renamed in content/ (see old_slugs)."]
    for paper in catalogue.papers:
        for old_slug in paper.old_slugs:
            if not (SLUG.fullmatch(paper.slug) and SLUG.fullmatch(old_slug)) or old_slug == paper.slug:
                raise CatalogueError(f"{paper.source}: cannot redirect {shown(old_slug)} to {shown(paper.slug)}: "
                                     "both must be distinct slugs")  # load_catalogue lets no such paper through
            old, new = routes.paper_folder(old_slug), routes.paper_folder(paper.slug)
            lines += [f"/{old}*  /{new}  301!", f"/{old.rstrip('/')}  /{new}  301!"]
    return "\n".join(lines) + "\n"


def render_page(env: Environment, template: str, config: SiteConfig, path: str, shared: dict, *,
                title: str, description: str, papers: tuple[PaperView, ...], canonical_path: str | None = None,
                **extra) -> str:
    """One page; the single place that builds a template context."""
    context = {
        "site": config,
        "path": path,
        "root": config.base_path if path == routes.NOT_FOUND else "../" * path.count("/"),
        "canonical": config.absolute_url(routes.shared_form(canonical_path or path)) if path != routes.NOT_FOUND else None,
        "title": title,
        "description": description,
        "papers": papers,
        "routes": routes,
        "venue_label": venue_label,
        **shared,
        **extra,
    }
    try:
        return env.get_template(template).render(context)
    except TemplateSyntaxError as error:
        raise CatalogueError(f"{error.filename or template}:{error.lineno}: template error: {error.message}")
    except TemplateError as error:
        raise CatalogueError(f"templates/{template}: {error.message} (while rendering {path})")
