"""The files that carry the whole catalogue rather than a page: citations, feeds, the sitemap, the
reading list's data, the offline search index and what the search stage reads, the host's
redirects; and each paper's own file beside its page (its BibTeX)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable

from catalogue import routes
from catalogue.config import SiteConfig
from catalogue.content.fields import SLUG
from catalogue.errors import CatalogueError, shown
from catalogue.model import Catalogue, Paper, Topic
from catalogue.publish.writer import Output
from catalogue.routes import PaperAddresses
from catalogue.search.index import PAGES_FILE, IndexedPage, render_pages_file
from catalogue.search.offline import OfflineIndex, SearchEntry
from catalogue.site.cite import venue_label
from catalogue.site.feeds import paper_record, render_atom, render_papers_json, render_robots, render_sitemap
from catalogue.site.groups import venue_groups
from catalogue.site.json_text import plain_script_json
from catalogue.site.pagination import CARD_AUTHORS
from catalogue.site.views import AuthorRef, PaperView
from catalogue.system.cache import digest


def plan_data_files(catalogue: Catalogue, views: tuple[PaperView, ...], config: SiteConfig, html_paths: list[str],
                    everything: str, venue: Callable[[Paper], str]) -> list[Output]:
    """The whole catalogue's citations, feeds, offline search index and redirects; `venue` names a
    paper's venue in the site's language."""
    labels = {t.slug: t.label for t in catalogue.topics}
    terms = {v.plain_abstract: v.terms for v in views}  # kept with the views: an edit finds only its own again
    topic_index = {t.slug: n for n, t in enumerate(catalogue.topics)}
    all_views = digest(everything, [v.key for v in views])
    files = [
        Output(".nojekyll", everything, lambda: ""),  # GitHub Pages: serve the site as it is, no Jekyll
        Output("_redirects", all_views, lambda: render_netlify_redirects((v.paper, v.addresses) for v in views)),
        Output("robots.txt", everything, lambda: render_robots(config)),
        Output("feed.xml", all_views, lambda: render_atom(catalogue, {v.paper.id: v.title_text for v in views},
                                                          {v.paper.id: v.description for v in views},
                                                          {v.paper.id: v.addresses for v in views}, config,
                                                          venue)),
        Output("papers.json", all_views, lambda: render_papers_json(
            (paper_record(v.paper, v.addresses, labels, v.title_text, v.plain_abstract) for v in views), config)),
        Output("list-data.js", all_views, lambda: render_list_data(views, catalogue.topics, venue)),
        Output("list-bibtex.js", all_views, lambda: render_list_bibtex(views)),
        Output("catalogue.bib", all_views, lambda: "\n".join(v.bibtex for v in views)),
    ]
    offline = OfflineIndex([SearchEntry(v.path, v.name_text, v.title_text, venue(v.paper),
                                        tuple(topic_index[t.slug] for t in v.topics), v.plain_abstract,
                                        tuple(author.shown for author in v.authors), v.paper.id,
                                        v.paper.title_source == "derived") for v in views],
                           [t.label for t in catalogue.topics], terms)
    files += [Output(path, all_views, functools.partial(offline.render, path)) for path in offline.paths]
    redirects = {page for v in views for page in v.addresses.old_pages}
    listed = [p for p in html_paths if p != routes.NOT_FOUND and p not in redirects]
    if config.base_url:
        files.append(Output("sitemap.xml", digest(everything, listed), lambda: render_sitemap(listed, config)))
    return files


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


def render_site_data(strings: dict, patterns: dict) -> str:
    """What every page's scripts read (assets/common.js), as a plain script, one file for the whole site
    rather than a copy in each page; a script, so that it loads from disk: the interface strings in
    the site's language and the patterns of the site's addresses (routes.PATTERNS)."""
    return "window.CATALOGUE_SITE = " + plain_script_json({"routes": patterns, "strings": strings}) + ";\n"


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
    """An author in list-data.js: [name, slug], or the name alone when the slug is the name in
    lower case with hyphens for spaces, as for most names."""
    slug = routes.author_slug_of(author.path)
    return author.shown if author.shown.isascii() and author.shown.lower().replace(" ", "-") == slug else [author.shown, slug]


def render_list_bibtex(views: tuple[PaperView, ...]) -> str:
    """For the reading list's export: id -> BibTeX, as a plain script (apart from list-data.js, which the home page loads)."""
    entries = ",".join(v.bibtex_entry for v in sorted(views, key=lambda v: v.paper.id))  # as sort_keys orders them
    return "window.CATALOGUE_BIBTEX = {" + entries + "};\n"


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
