"""Catalogue + config -> {site path: HTML}. Pure: nothing here touches the disk but templates.

Every internal link is relative and names its file, so one build works from file://, under
a subpath and at a domain root. `root` in the template context is the way back to the
site's top from the page being rendered ('' or '../../'); 404.html, which hosts serve at any
depth, uses the base URL's absolute path instead.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, replace
from urllib.parse import quote
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, TemplateError, TemplateSyntaxError, select_autoescape
from markupsafe import Markup as SafeHtml
from slugify import slugify

from .config import SiteConfig
from .errors import CatalogueError
from .markup import Markup
from .charts import MapPoint, render_bar_chart, render_map
from .cite import render_bibtex, render_markdown_citation, render_plain_citation, venue_label
from .i18n import Strings, load_strings, localise_topic
from .feeds import paper_record, render_atom, render_papers_json, render_robots, render_sitemap
from .model import Catalogue, Paper, Topic
from .preview import render_preview_png
from .search import FALLBACK_FILE, SearchEntry, render_fallback_index
from .similarity import map_layout, related_papers

EXCERPT_LENGTH = 260
DESCRIPTION_LENGTH = 160


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


def make_environment(templates_dir: Path) -> Environment:
    """Templates compiled once; autoescape on; a misspelt variable fails the build."""
    return Environment(
        loader=FileSystemLoader(templates_dir),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def paper_path(paper: Paper) -> str:
    return f"papers/{paper.slug}/index.html"


def topic_path(topic: Topic) -> str:
    return f"topics/{topic.slug}/index.html"


def pretty_url(path: str) -> str:
    """The form of a path meant for sharing: papers/x/ rather than papers/x/index.html."""
    return path.removesuffix("index.html")


def shorten(text: str, limit: int) -> str:
    """text cut at a word boundary, with an ellipsis when cut."""
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0].rstrip(",;:.") + "\u2026"


def view_papers(catalogue: Catalogue, markup: Markup, config: SiteConfig) -> tuple[PaperView, ...]:
    topics = {t.slug: t for t in catalogue.topics}
    views = []
    for paper in catalogue.papers:
        plain = markup.plain(paper.abstract)
        url = config.absolute_url(pretty_url(paper_path(paper)))
        views.append(PaperView(
            paper=paper,
            path=paper_path(paper),
            name_html=SafeHtml(markup.inline_html(paper.name)) if paper.name else None,
            name_text=markup.plain(paper.name) if paper.name else "",
            title_html=SafeHtml(markup.inline_html(paper.title)),
            title_text=markup.plain(paper.title),
            plain_abstract=plain,
            url=url,
            bibtex=render_bibtex(paper, url),
            abstract_html=SafeHtml(markup.abstract_html(paper.abstract).html),
            excerpt=shorten(plain, EXCERPT_LENGTH),
            description=shorten(plain, DESCRIPTION_LENGTH),
            topics=tuple(topics[slug] for slug in paper.topics),
        ))
    return tuple(views)


def render_site(catalogue: Catalogue, config: SiteConfig, env: Environment) -> dict[str, str | bytes]:
    """Every file of the site but assets and search bundle, keyed by its path under site/."""
    strings = load_strings(config.language)
    catalogue = replace(catalogue, topics=tuple(localise_topic(t, config.language) for t in catalogue.topics))
    views = view_papers(catalogue, Markup(), config)
    pages = render_html_pages(catalogue, views, config, env, strings)
    return pages | render_data_files(catalogue, views, config, sorted(pages))


def render_html_pages(catalogue: Catalogue, views: tuple[PaperView, ...], config: SiteConfig,
                      env: Environment, strings: Strings) -> dict[str, str]:
    t = strings.text
    counts = {t.slug: sum(t in v.topics for v in views) for t in catalogue.topics}
    order = {t.slug: n for n, t in enumerate(catalogue.topics)}
    used_topics = tuple(sorted((t for t in catalogue.topics if counts[t.slug]),
                               key=lambda t: (-counts[t.slug], order[t.slug])))  # largest first
    venues = venue_groups(views)
    shared = {"t": strings, "script_strings": script_json(strings.script_strings()),
              "topics": used_topics, "topic_counts": counts, "paper_count": len(views),
              "venues": [Entry(label, venue_path(slug), len(members)) for slug, label, members in venues]}
    pages = {
        "index.html": render_page(env, "index.html", config, "index.html", shared,
                                  title=config.title, description=config.description, papers=views),
        "search.html": render_page(env, "search.html", config, "search.html", shared,
                                   title=t("search.title"), description=t("search.description", site=config.title), papers=(),
                                   venue_names=sorted({p.venue for p in catalogue.papers if p.venue}),
                                   years=sorted({p.year for p in catalogue.papers if p.year}, reverse=True)),
        "topics/index.html": render_page(
            env, "overview.html", config, "topics/index.html", shared, title=t("overview.topics_title"),
            description=t("overview.topics_description", site=config.title), papers=(),
            lede=t("overview.topics_lede"),
            entries=[Entry(t.label, topic_path(t), counts[t.slug]) for t in used_topics]),
        "venues/index.html": render_page(
            env, "overview.html", config, "venues/index.html", shared, title=t("overview.venues_title"),
            description=t("overview.venues_description", site=config.title), papers=(),
            lede=t("overview.venues_lede"),
            entries=[Entry(label, venue_path(slug), len(members)) for slug, label, members in venues]),
        "404.html": render_page(env, "404.html", config, "404.html", shared,
                                title=t("not_found.title"), description=t("not_found.description"), papers=()),
    }
    texts = [f"{view.title_text}. {view.plain_abstract}" for view in views]
    related = related_papers(texts)
    pages["list.html"] = render_page(env, "list.html", config, "list.html", shared, title=t("nav.my_list"), papers=(),
                                     description=t("list.description", site=config.title))
    pages["map/index.html"] = render_page(
        env, "map.html", config, "map/index.html", shared, title=t("map.title"), papers=views,
        description=t("map.description", len(views), site=config.title),
        map_svg=SafeHtml(render_catalogue_map(views, map_layout(texts), catalogue.topics)))
    pages["stats/index.html"] = render_page(
        env, "stats.html", config, "stats/index.html", shared, title=t("stats.title"), papers=views,
        description=t("stats.description", site=config.title),
        **statistics(views, used_topics, counts, venues, strings))
    for index, view in enumerate(views):
        neighbours = {"previous": views[index - 1] if index else None,
                      "next": views[index + 1] if index + 1 < len(views) else None,
                      "related": [Related(views[n.index], n.shared_terms) for n in related[index]]}
        pages[view.path] = render_page(env, "paper.html", config, view.path, shared, title=view.title_text,
                                       description=view.description, papers=(view,), **neighbours,
                                       citation=citations(view), structured_data=structured_data(view, config))
        for old_slug in view.paper.old_slugs:  # a renamed paper keeps its old address working
            path = f"papers/{old_slug}/index.html"
            pages[path] = render_page(env, "redirect.html", config, path, shared, title=t("moved.title", title=view.title_text),
                                      description=view.description, papers=(view,), canonical_path=view.path)
    for topic in used_topics:
        members = tuple(v for v in views if topic in v.topics)
        path = topic_path(topic)
        pages[path] = render_page(env, "collection.html", config, path, shared, title=topic.label,
                                  description=t("collection.topic_description", len(members), topic=topic.label,
                                                site=config.title),
                                  papers=members, parent=Entry(t("nav.topics"), "topics/index.html", len(used_topics)))
    for slug, label, members in venues:
        path = venue_path(slug)
        pages[path] = render_page(env, "collection.html", config, path, shared, title=label,
                                  description=t("collection.venue_description", len(members), venue=label,
                                                site=config.title),
                                  papers=members, parent=Entry(t("nav.venues"), "venues/index.html", len(venues)))
    return pages


@dataclass(frozen=True)
class Related:
    view: PaperView
    terms: tuple[str, ...]


def render_catalogue_map(views: tuple[PaperView, ...], positions: list[tuple[float, float]],
                         topics: tuple[Topic, ...]) -> str:
    """The map: one dot per paper, coloured by its first topic; short labels keep it small."""
    colour = {t.slug: n for n, t in enumerate(topics)}
    points = [MapPoint(x, y, f"../{v.path}", v.name_text or shorten(v.title_text, 60),
                       colour[v.topics[0].slug] if v.topics else 0) for v, (x, y) in zip(views, positions)]
    used = {v.topics[0].slug for v in views if v.topics}
    legend = [(t.label, f"../{topic_path(t)}" if t.slug in used else "") for t in topics]
    return render_map(points, legend)


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
        "topic_chart": SafeHtml(render_bar_chart([(t.label, counts[t.slug], f"../{topic_path(t)}") for t in topics],
                                                 title=t("stats.per_topic"), unit=papers)),
        "venue_chart": SafeHtml(render_bar_chart([(label, len(members), f"../{venue_path(slug)}")
                                                  for slug, label, members in venues],
                                                 title=t("stats.per_venue"), unit=papers)),
        "code_chart": SafeHtml(render_bar_chart(
            [(label, round(100 * sum(1 for v in members if v.paper.links) / len(members)), f"../{venue_path(slug)}")
             for slug, label, members in venues], title=t("stats.code_share_chart"), unit="%")),
        "benchmark_chart": SafeHtml(render_bar_chart(
            [(name, count, f"../search.html?q={quote(name)}") for name, count in top_benchmarks],
            title=t("stats.benchmarks"), unit=papers)) if top_benchmarks else None,
    }


@dataclass(frozen=True)
class Entry:
    """A line of an overview: a label, the page it links to, how many papers are there."""

    label: str
    path: str
    count: int


def venue_groups(views: tuple[PaperView, ...]) -> list[tuple[str, str, tuple[PaperView, ...]]]:
    """(slug, label, papers) per venue and year, newest year first."""
    groups: dict[str, list[PaperView]] = {}
    for view in views:
        groups.setdefault(venue_label(view.paper), []).append(view)
    ordered = sorted(groups.items(), key=lambda item: (-(item[1][0].paper.year or 0), item[0]))
    return [(slugify(label) or "unknown-venue", label, tuple(members)) for label, members in ordered]


def script_json(data) -> SafeHtml:
    """JSON to embed in a <script> element: '<', '>' and '&' escaped so it cannot close the element."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return SafeHtml(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def venue_path(slug: str) -> str:
    return f"venues/{slug}/index.html"


def render_data_files(catalogue: Catalogue, views: tuple[PaperView, ...], config: SiteConfig,
                      html_paths: list[str]) -> dict[str, str | bytes]:
    """Citations, feeds, the offline search index, redirects and preview images."""
    labels = {t.slug: t.label for t in catalogue.topics}
    topic_index = {t.slug: n for n, t in enumerate(catalogue.topics)}
    files: dict[str, str | bytes] = {
        ".nojekyll": "",  # GitHub Pages: serve the site as it is, no Jekyll
        "_redirects": render_netlify_redirects(catalogue),
        "robots.txt": render_robots(config),
        "feed.xml": render_atom(catalogue, {v.paper.id: v.title_text for v in views},
                                {v.paper.id: v.description for v in views}, config),
        "papers.json": render_papers_json([paper_record(v.paper, labels, v.title_text, v.plain_abstract, config)
                                           for v in views], config),
        "list-data.js": render_list_data(views),
        "catalogue.bib": "\n".join(v.bibtex for v in views),
        FALLBACK_FILE: render_fallback_index(
            [SearchEntry(v.path, v.name_text, v.title_text, venue_label(v.paper),
                         tuple(topic_index[t.slug] for t in v.topics), v.plain_abstract) for v in views],
            [t.label for t in catalogue.topics]),
    }
    redirects = {f"papers/{slug}/index.html" for v in views for slug in v.paper.old_slugs}
    sitemap = render_sitemap([p for p in html_paths if p != "404.html" and p not in redirects], config)
    if sitemap:
        files["sitemap.xml"] = sitemap
    for view in views:
        paper = view.paper
        files[f"papers/{paper.slug}/{paper.slug}.bib"] = view.bibtex
        if config.base_url:  # only a shared link shows a preview, and only an absolute URL can name it
            files[preview_path(paper)] = render_preview_png(name=view.name_text or None, title=view.title_text,
                                                            venue=venue_label(paper), site_title=config.title)
    return files


def render_list_data(views: tuple[PaperView, ...]) -> str:
    """For the reading list page: id -> [slug, title, venue, BibTeX], as a plain script."""
    data = {v.paper.id: [v.paper.slug, v.title_text, venue_label(v.paper), v.bibtex] for v in views}
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return "window.CATALOGUE_LIST = " + text.replace("<", "\\u003c") + ";\n"


def preview_path(paper: Paper) -> str:
    return f"papers/{paper.slug}/preview.png"


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
        "author": [{"@type": "Person", "name": name} for name in paper.authors] or None,
        "url": view.url, "image": config.absolute_url(preview_path(paper)),
    }
    return script_json({k: v for k, v in data.items() if v is not None})


def render_netlify_redirects(catalogue: Catalogue) -> str:
    """Netlify's _redirects: real 301s from every old paper address (the pages there are the fallback)."""
    lines = ["# Old paper addresses, kept when a slug is renamed in content/ (see old_slugs)."]
    for paper in catalogue.papers:
        for old_slug in paper.old_slugs:
            lines += [f"/papers/{old_slug}/*  /papers/{paper.slug}/  301!", f"/papers/{old_slug}  /papers/{paper.slug}/  301!"]
    return "\n".join(lines) + "\n"


def render_page(env: Environment, template: str, config: SiteConfig, path: str, shared: dict, *,
                title: str, description: str, papers: tuple[PaperView, ...], canonical_path: str | None = None,
                **extra) -> str:
    """One page; the single place that builds a template context."""
    context = {
        "site": config,
        "path": path,
        "root": config.base_path if path == "404.html" else "../" * path.count("/"),
        "canonical": config.absolute_url(pretty_url(canonical_path or path)) if path != "404.html" else None,
        "title": title,
        "description": description,
        "papers": papers,
        "topic_path": topic_path,
        "preview_path": preview_path,
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
