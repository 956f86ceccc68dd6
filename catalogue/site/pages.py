"""The site's HTML pages as Outputs (PagePlanner): the lists, overviews and statistics, the paper
pages with their related papers, the map. A page's inputs are its template, its path and its
values, each family's values typed (contexts.py)."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace

from jinja2 import Environment
from markupsafe import Markup as SafeHtml

from catalogue import routes
from catalogue.config import SiteConfig
from catalogue.i18n.strings import Strings
from catalogue.model import Catalogue, Topic
from catalogue.publish.writer import Output
from catalogue.site.contexts import (AuthorsIndexValues, AuthorsPageValues, ForwardValues, ListValues, MapGroup, MapValues,
                                     OverviewValues, PaperValues, SearchValues, SiteParts, StatsValues, Values, named_values)
from catalogue.site.charts import render_bar_chart, render_swatch
from catalogue.site.cite import venue_label
from catalogue.site.groups import AuthorGroup, author_groups, author_pages, venue_groups
from catalogue.site.map_page import Groups, MapEntry, map_entries, map_points, render_catalogue_map, render_map_data
from catalogue.site.pagination import CARD_AUTHORS, Crumb, Entry, PageSizes, earlier_pages, letter_jumps, list_pages, paginate_authors
from catalogue.site.paper_extras import PaperExtras, paper_extras
from catalogue.site.templating import EntryMaker, PartReuser, render_page
from catalogue.site.views import PaperView
from catalogue.system.cache import digest


class PagePlanner:
    """The site's HTML pages as Outputs. A page's inputs are its template, its path and its values."""

    def __init__(self, catalogue: Catalogue, views: tuple[PaperView, ...], config: SiteConfig, env: Environment,
                 strings: Strings, everything: str, sizes: PageSizes = PageSizes()):
        self.catalogue, self.views, self.config, self.strings = catalogue, views, config, strings
        self.authors, self.sizes = author_groups(views), sizes
        counts = Counter(slug for v in views for slug in v.paper.topics)
        self.counts = {topic.slug: counts[topic.slug] for topic in catalogue.topics}
        order = {topic.slug: n for n, topic in enumerate(catalogue.topics)}
        self.used_topics = tuple(sorted((topic for topic in catalogue.topics if self.counts[topic.slug]),
                                        key=lambda topic: (-self.counts[topic.slug], order[topic.slug])))  # largest first
        self.venue = functools.partial(venue_label, unknown=strings.text("paper.unknown_venue"))
        self.venues = venue_groups(views, self.venue)
        shown = {"topics": self.used_topics, "topic_counts": self.counts, "paper_count": len(views),
                 "venues": [Entry(label, routes.venue_page(slug), len(members)) for slug, label, members in self.venues],
                 "has_authors": bool(self.authors), "card_authors": CARD_AUTHORS}
        base = digest(everything, inputs_of(shown))
        shown |= {"t": strings, "venue_label": self.venue}
        macros = env.get_template("_macros.html").make_module({**shown, "routes": routes})
        self.frame = PageFrame(env, config, SiteParts(**shown, card=EntryMaker(macros.paper_card), reuse=PartReuser()), base)
        self.page = self.frame.page

    def map_planner(self) -> MapPlanner:
        """The map's planner, which holds what the map shows of each paper and nothing else of the views
        (nor the cards the lists made: the map shows none)."""
        shared = replace(self.frame.shared, card=EntryMaker(self.frame.shared.card.macro))
        return MapPlanner(replace(self.frame, shared=shared), self.strings, map_entries(self.views))

    def plan_lists(self) -> list[Output]:
        """Every page but the paper pages and the map: lists, overviews, statistics, old addresses."""
        page, t, config, views, catalogue = self.page, self.strings.text, self.config, self.views, self.catalogue
        counts, used_topics, venues = self.counts, self.used_topics, self.venues
        pages = self.plan_list("", views, "index.html", t("listing.home_title"), config.description)
        pages += [
            page(routes.SEARCH, "search.html", t("search.title"), t("search.description", site=config.title),
                 values=SearchValues(venue_names=sorted({p.venue for p in catalogue.papers if p.venue}),
                                     years=sorted({p.year for p in catalogue.papers if p.year}, reverse=True))),
            page(routes.TOPICS_INDEX, "overview.html", t("overview.topics_title"),
                 t("overview.topics_description", site=config.title),
                 values=OverviewValues(t("overview.topics_lede"), [Entry(topic.label, routes.topic_page(topic.slug),
                                                                         counts[topic.slug]) for topic in used_topics])),
            page(routes.VENUES_INDEX, "overview.html", t("overview.venues_title"),
                 t("overview.venues_description", site=config.title),
                 values=OverviewValues(t("overview.venues_lede"), [Entry(label, routes.venue_page(slug), len(members))
                                                                   for slug, label, members in venues])),
            page(routes.NOT_FOUND, "404.html", t("not_found.title"), t("not_found.description")),
            page(routes.READING_LIST, "list.html", t("nav.my_list"), t("list.description", site=config.title)),
            page(routes.STATS, "stats.html", t("stats.title"), t("stats.description", site=config.title), papers=views,
                 values=statistics(views, used_topics, counts, venues, self.strings)),
        ]
        for view in views:
            for old_page in view.addresses.old_pages:  # a renamed paper keeps its old address working
                pages.append(page(old_page, "redirect.html", t("moved.title", title=view.title_text), view.description,
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
                                    parent=Crumb(t("nav.topics"), routes.TOPICS_INDEX), topic=topic.slug)
        for slug, label, members in venues:
            pages += self.plan_list(routes.list_folder(routes.venue_page(slug)), members, "collection.html", label,
                                    t("collection.venue_description", len(members), venue=label, site=config.title),
                                    parent=Crumb(t("nav.venues"), routes.VENUES_INDEX), venue=label)
        return pages + self.plan_authors()

    def plan_list(self, base: str, members: tuple[PaperView, ...], template: str, heading: str, description: str,
                  compact: bool = True, parent: Crumb | None = None,
                  topic: str | None = None, venue: str | None = None) -> list[Output]:
        """Every page of a list of papers: its cards at <base>index.html, <base>page/2/index.html, ...
        (compact lines are a view of the same pages), and a page forwarding from each address its pages
        had before that none has now (when `compact`, its compact view's too: <base>compact/index.html)."""
        t = self.strings.text
        pages = []
        for listing in list_pages(base, len(members), self.sizes):
            title, about = heading, description
            if listing.path == routes.HOME:
                title = self.config.title  # the home page is named by the site
            if listing.number > 1:
                title = t("listing.page_title", title=title, page=listing.number, pages=listing.count)
                about = t("listing.page_description", description=about, page=listing.number, pages=listing.count)
            pages.append(self.page(listing.path, template, title, about,
                                   papers=members[listing.start:listing.start + listing.per_page],
                                   values=ListValues(heading, listing, parent, topic, venue)))
        views = ("cards", "compact") if compact else ("cards",)
        for forward in earlier_pages(base, len(members), self.sizes, views):
            pages.append(self.page(forward.path, "forward.html", heading, description,
                                   values=ForwardValues(forward.target), canonical_path=forward.target.split("?")[0]))
        return pages

    def plan_authors(self) -> list[Output]:
        """A page per bucket of authors (authors/<bucket>/index.html), a section per author with their
        papers, and the authors index (none without authors). The page's inputs are its authors and
        their papers: a change to any of them, and only that, makes it again."""
        t, site = self.strings.text, self.config.title
        pages = []
        for path, authors in author_pages(self.authors):
            first, last, count = authors[0].name, authors[-1].name, len(authors)
            pages.append(self.page(path, "author_page.html", t("authors.bucket_title", count, first=first, last=last),
                                   t("authors.bucket_description", count, first=first, last=last, site=site),
                                   values=AuthorsPageValues(authors)))
        return pages + self.plan_author_index()

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
            pages.append(self.page(part.path, "authors.html", title, description, values=AuthorsIndexValues(
                sections=part.sections, jumps=jumps, author_count=count, number=part.number, page_count=len(index),
                previous_page=index[at - 1].path if at else None,
                next_page=index[at + 1].path if at + 1 < len(index) else None)))
        return pages

    def plan_papers(self, related: list[tuple[int, ...]]) -> list[Output]:
        """A page per paper, with its related papers (their indices, most similar first)."""
        views = self.views
        return [self.page(view.path, "paper.html", view.title_text, view.description, papers=(view,),
                          values=PaperValues(previous=views[index - 1] if index else None,
                                             next=views[index + 1] if index + 1 < len(views) else None,
                                             related=[views[other] for other in related[index]]),
                          later=functools.partial(paper_extras, view, self.strings))
                for index, view in enumerate(views)]


@dataclass(frozen=True)
class PageFrame:
    """What every page is made with: the templates, the settings, the parts pages share, and the
    digest of all those (`base`)."""

    env: Environment
    config: SiteConfig
    shared: SiteParts
    base: str

    def page(self, path: str, template: str, title: str, description: str, papers: tuple[PaperView, ...] = (),
             values: Values | None = None, canonical_path: str | None = None,
             later: Callable[[], PaperExtras] | None = None) -> Output:
        """A page whose inputs are its template, its path and its values (views stand in by their key);
        `later` makes values that follow from those (so they need not be held until the page is made)."""
        env, config, shared = self.env, self.config, self.shared
        inputs = digest(self.base, template, path, title, description, inputs_of(papers), canonical_path, inputs_of(values))
        return Output(path, inputs, lambda: render_page(env, template, config, path, shared, title=title,
                                                        description=description, papers=papers, values=values,
                                                        canonical_path=canonical_path, extras=later and later()))


@dataclass(frozen=True)
class MapPlanner:
    """The map page and its data script (map_page.py), planned once the similarity process has drawn
    the map: the search index is made meanwhile, so this holds only what the map shows of each paper."""

    frame: PageFrame
    strings: Strings
    entries: tuple[MapEntry, ...]

    def plan(self, positions: list[tuple[float, float]], groups: Groups) -> list[Output]:
        """The map page and its data, from each paper's place and the groups (the similarity process's answers)."""
        t, entries = self.strings.text, self.entries
        map_groups = [MapGroup(n, words, SafeHtml(render_swatch(n)), len(members)) for n, (words, members) in enumerate(groups)]
        points = map_points(entries, positions, groups)
        svg = SafeHtml(render_catalogue_map(points, groups, t("map.heading"), t("map.empty")))
        data = Output(routes.MAP_DATA, digest(self.frame.base, [entry.key for entry in entries], positions, groups),
                      lambda: render_map_data(entries, points, groups))
        return [self.frame.page(routes.MAP, "map.html", t("map.title"),
                                t("map.description", len(entries), site=self.frame.config.title),
                                values=MapValues(svg, map_groups)), data]


def inputs_of(value: object) -> object:
    """A cheap stand-in for a value in a digest: a paper view by its key, containers item by item."""
    if isinstance(value, PaperView):
        return value.key
    if isinstance(value, AuthorGroup):
        return value.name, value.path, tuple(view.key for view in value.papers)
    if isinstance(value, Values):
        return type(value).__name__, inputs_of(named_values(value))
    if isinstance(value, dict):
        return tuple((key, inputs_of(item)) for key, item in sorted(value.items()))
    if isinstance(value, (list, tuple)):
        if all(type(item) is PaperView for item in value):  # a page's papers: the usual case, made short
            return tuple(item.key for item in value)
        return tuple(inputs_of(item) for item in value)
    return value


def statistics(views: tuple[PaperView, ...], topics: tuple[Topic, ...], counts: dict[str, int],
               venues: list[tuple[str, str, tuple[PaperView, ...]]], strings: Strings) -> StatsValues:
    """The numbers and charts of the statistics page."""
    t = strings.text
    papers = t("stats.unit_papers")
    with_code = [v for v in views if v.paper.links]
    mentions = Counter(b for v in views for b in v.paper.benchmarks)
    top_benchmarks = sorted(mentions.items(), key=lambda item: (-item[1], item[0]))[:15]
    return StatsValues(
        named_count=sum(1 for v in views if v.paper.name),
        code_count=len(with_code),
        code_share=round(100 * len(with_code) / len(views)) if views else 0,
        topic_chart=SafeHtml(render_bar_chart([(t.label, counts[t.slug], f"../{routes.topic_page(t.slug)}") for t in topics],
                                                 title=t("stats.per_topic"), unit=papers, number=strings.number)),
        venue_chart=SafeHtml(render_bar_chart([(label, len(members), f"../{routes.venue_page(slug)}")
                                                  for slug, label, members in venues],
                                                 title=t("stats.per_venue"), unit=papers, number=strings.number)),
        code_chart=SafeHtml(render_bar_chart(
            [(label, round(100 * sum(1 for v in members if v.paper.links) / len(members)), f"../{routes.venue_page(slug)}")
             for slug, label, members in venues], title=t("stats.code_share_chart"), unit="%", maximum=100)),
        benchmark_chart=SafeHtml(render_bar_chart(
            [(name, count, f"../{routes.search_for(name)}") for name, count in top_benchmarks],
            title=t("stats.benchmarks"), unit=papers, number=strings.number)) if top_benchmarks else None,
    )
