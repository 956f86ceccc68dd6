"""The files that carry the whole catalogue rather than a page: the feed, the sitemap, the offline
search index and what the search stage reads, the host's redirects, the parts of data_parts.py
(papers.json, BibTeX, venue feeds, the reading list's data); and each paper's own files beside its
page (its BibTeX)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable

from catalogue import routes
from catalogue.config import SiteConfig
from catalogue.content.fields import SLUG
from catalogue.errors import CatalogueError, shown
from catalogue.model import Catalogue, Paper
from catalogue.publish.writer import Output
from catalogue.routes import PaperAddresses
from catalogue.search.index import PAGES_FILE, IndexedPage, render_pages_file
from catalogue.search.offline import OfflineIndex, SearchEntry
from catalogue.site.data_parts import plan_catalogue_parts, plan_list_parts
from catalogue.site.feeds import (FEED, SITEMAP, SITEMAP_URLS, render_atom, render_robots, render_sitemap,
                                  render_sitemap_index, sitemap_part_path, sitemap_parts)
from catalogue.site.groups import venue_groups
from catalogue.site.json_text import plain_script_json
from catalogue.site.views import PaperView
from catalogue.system.cache import digest


def plan_data_files(catalogue: Catalogue, views: tuple[PaperView, ...], config: SiteConfig, html_paths: list[str],
                    everything: str, venue: Callable[[Paper], str]) -> list[Output]:
    """The whole catalogue's citations, feeds, offline search index and redirects; `venue` names a
    paper's venue in the site's language."""
    terms = {v.plain_abstract: v.terms for v in views}  # kept with the views: an edit finds only its own again
    topic_index = {t.slug: n for n, t in enumerate(catalogue.topics)}
    all_views = digest(everything, [v.key for v in views])
    files = [
        Output(".nojekyll", everything, lambda: ""),  # GitHub Pages: serve the site as it is, no Jekyll
        Output("_redirects", all_views, lambda: render_netlify_redirects((v.paper, v.addresses) for v in views)),
        Output("robots.txt", everything, lambda: render_robots(config)),
        Output(FEED, all_views, lambda: render_atom(catalogue, {v.paper.id: v.title_text for v in views},
                                                    {v.paper.id: v.description for v in views},
                                                    {v.paper.id: v.addresses for v in views}, config, venue)),
    ]
    offline = OfflineIndex([SearchEntry(v.path, v.name_text, v.title_text, venue(v.paper),
                                        tuple(topic_index[t.slug] for t in v.topics), v.plain_abstract,
                                        tuple(author.shown for author in v.authors), v.paper.id,
                                        v.paper.title_source == "derived",
                                        tuple(routes.author_slug_of(author.path) for author in v.authors)) for v in views],
                           [t.label for t in catalogue.topics], terms, [v.key for v in views])
    files += [Output(path, digest(everything, offline.inputs(path)), functools.partial(offline.render, path))
              for path in offline.paths]
    groups = venue_groups(views, venue)
    files += plan_catalogue_parts(catalogue, views, config, everything, venue, groups)
    files += plan_list_parts(views, catalogue.topics, everything, venue, groups)
    redirects = {page for v in views for page in v.addresses.old_pages}
    listed = [p for p in html_paths if p != routes.NOT_FOUND and p not in redirects]
    if config.base_url:
        files += plan_sitemaps(listed, config, everything)
    return files


def plan_sitemaps(listed: list[str], config: SiteConfig, everything: str, limit: int = SITEMAP_URLS) -> list[Output]:
    """sitemap.xml listing every page, or, past `limit` pages, naming sitemaps/sitemap-N.xml of `limit` pages each."""
    parts = sitemap_parts(listed, limit)
    if len(parts) == 1:
        return [Output(SITEMAP, digest(everything, listed), lambda: render_sitemap(listed, config))]
    return [Output(SITEMAP, digest(everything, len(parts)), lambda: render_sitemap_index(len(parts), config))] + [
        Output(sitemap_part_path(n), digest(everything, part), lambda part=part: render_sitemap(part, config))
        for n, part in enumerate(parts, 1)]


def plan_index_record(views: tuple[PaperView, ...], everything: str, unknown_venue: str, language: str) -> Output:
    """What the search stage indexes: each paper page with the venue and year filters it writes
    (templates/paper.html) and a key of everything its page is made from but its neighbours, and
    the pages' language."""
    pages = [IndexedPage(view.path, view.paper.venue or unknown_venue, str(view.paper.year or ""), digest(everything, view.key))
             for view in views]
    return Output(PAGES_FILE, digest(everything, [page.key for page in pages]), lambda: render_pages_file(pages, language))


def plan_paper_files(views: tuple[PaperView, ...], everything: str) -> list[Output]:
    """Each paper's citation file (again at each earlier address, where a host without redirects,
    GitHub Pages, serves it as the new file)."""
    files = []
    for view in views:
        bibtex = functools.partial(str, view.bibtex)
        files += [Output(path, digest(everything, view.key), bibtex) for path in (view.addresses.bibtex, *view.addresses.old_bibtex)]
    return files


def render_site_data(strings: dict, patterns: dict, proceedings: dict | None = None) -> str:
    """What every page's scripts read (assets/common.js), as a plain script, one file for the whole site
    rather than a copy in each page; a script, so that it loads from disk: the interface strings in
    the site's language, the patterns of the site's addresses (routes.PATTERNS) and the catalogue's
    venues' proceedings names (cite.proceedings_names, for assets/cite.js)."""
    data = {"routes": patterns, "strings": strings} | ({"proceedings": proceedings} if proceedings else {})
    return "window.CATALOGUE_SITE = " + plain_script_json(data) + ";\n"


def render_netlify_redirects(papers: Iterable[tuple[Paper, PaperAddresses]]) -> str:
    """Netlify's _redirects: real 301s from every old paper address (the pages there are the fallback):
    the old BibTeX file to the new one, then anything else in the old folder to the new page. Netlify
    applies the first rule that matches, top to bottom, so the file's rule comes before its folder's."""
    lines = ["# Old paper addresses, kept when a slug is renamed in content/ (see old_slugs)."]
    for paper, addresses in papers:
        for old_slug in paper.old_slugs:
            if not (SLUG.fullmatch(paper.slug) and SLUG.fullmatch(old_slug)) or old_slug == paper.slug:
                raise CatalogueError(f"{paper.source}: cannot redirect {shown(old_slug)} to {shown(paper.slug)}: "
                                     "both must be distinct slugs")  # load_catalogue lets no such paper through
        for old, new in addresses.moves:
            old_slug = old.rstrip("/").rsplit("/", 1)[1]
            lines += [f"/{old}{old_slug}.bib  /{addresses.bibtex}  301!", f"/{old}*  /{new}  301!",
                      f"/{old.rstrip('/')}  /{new}  301!"]
    return "\n".join(lines) + "\n"
