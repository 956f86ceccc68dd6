"""Catalogue + config -> {site path: HTML}. Pure: nothing here touches the disk but templates.

Every internal link is relative and names its file, so one build works from file://, under
a subpath and at a domain root. `root` in the template context is the way back to the
site's top from the page being rendered ('' or '../../'); 404.html, which hosts serve at any
depth, uses the base URL's absolute path instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, TemplateError, TemplateSyntaxError, select_autoescape
from markupsafe import Markup as SafeHtml

from .config import SiteConfig
from .errors import CatalogueError
from .markup import Markup
from .model import Catalogue, Paper, Topic
from .search import FALLBACK_FILE, SearchEntry, render_fallback_index

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


def venue_label(paper: Paper) -> str:
    if not paper.venue:
        return "Unknown venue"
    return f"{paper.venue} {paper.year}" if paper.year else paper.venue


def pretty_url(path: str) -> str:
    """The form of a path meant for sharing: papers/x/ rather than papers/x/index.html."""
    return path.removesuffix("index.html")


def shorten(text: str, limit: int) -> str:
    """text cut at a word boundary, with an ellipsis when cut."""
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0].rstrip(",;:.") + "\u2026"


def view_papers(catalogue: Catalogue, markup: Markup) -> tuple[PaperView, ...]:
    topics = {t.slug: t for t in catalogue.topics}
    views = []
    for paper in catalogue.papers:
        plain = markup.plain(paper.abstract)
        views.append(PaperView(
            paper=paper,
            path=paper_path(paper),
            name_html=SafeHtml(markup.inline_html(paper.name)) if paper.name else None,
            name_text=markup.plain(paper.name) if paper.name else "",
            title_html=SafeHtml(markup.inline_html(paper.title)),
            title_text=markup.plain(paper.title),
            plain_abstract=plain,
            abstract_html=SafeHtml(markup.abstract_html(paper.abstract).html),
            excerpt=shorten(plain, EXCERPT_LENGTH),
            description=shorten(plain, DESCRIPTION_LENGTH),
            topics=tuple(topics[slug] for slug in paper.topics),
        ))
    return tuple(views)


def render_site(catalogue: Catalogue, config: SiteConfig, env: Environment) -> dict[str, str]:
    """Every page of the site, keyed by its path under site/."""
    views = view_papers(catalogue, Markup())
    counts = {t.slug: sum(t in v.topics for v in views) for t in catalogue.topics}
    order = {t.slug: n for n, t in enumerate(catalogue.topics)}
    used_topics = tuple(sorted((t for t in catalogue.topics if counts[t.slug]),
                               key=lambda t: (-counts[t.slug], order[t.slug])))  # largest first
    shared = {"topics": used_topics, "topic_counts": counts, "paper_count": len(views)}
    pages = {
        "index.html": render_page(env, "index.html", config, "index.html", shared,
                                  title=config.title, description=config.description, papers=views),
        "search.html": render_page(env, "search.html", config, "search.html", shared,
                                   title="Search", description=f"Search {config.title}", papers=(),
                                   venues=sorted({p.venue for p in catalogue.papers if p.venue}),
                                   years=sorted({p.year for p in catalogue.papers if p.year}, reverse=True)),
        "topics/index.html": render_page(env, "topics.html", config, "topics/index.html", shared,
                                         title="Topics", description=f"Topics of {config.title}", papers=()),
        "404.html": render_page(env, "404.html", config, "404.html", shared,
                                title="Page not found", description="This page does not exist.", papers=()),
    }
    for index, view in enumerate(views):
        neighbours = {"previous": views[index - 1] if index else None,
                      "next": views[index + 1] if index + 1 < len(views) else None}
        pages[view.path] = render_page(env, "paper.html", config, view.path, shared, title=view.title_text,
                                       description=view.description, papers=(view,), **neighbours)
    topic_index = {t.slug: n for n, t in enumerate(catalogue.topics)}
    pages[FALLBACK_FILE] = render_fallback_index(
        [SearchEntry(v.path, v.name_text, v.title_text, venue_label(v.paper),
                     tuple(topic_index[t.slug] for t in v.topics), v.plain_abstract) for v in views],
        [t.label for t in catalogue.topics])
    for topic in used_topics:
        members = tuple(v for v in views if topic in v.topics)
        path = topic_path(topic)
        pages[path] = render_page(env, "topic.html", config, path, shared, title=topic.label,
                                  description=f"{len(members)} papers on {topic.label.lower()} in {config.title}",
                                  papers=members, topic=topic)
    return pages


def render_page(env: Environment, template: str, config: SiteConfig, path: str, shared: dict, *,
                title: str, description: str, papers: tuple[PaperView, ...], **extra) -> str:
    """One page; the single place that builds a template context."""
    context = {
        "site": config,
        "path": path,
        "root": config.base_path if path == "404.html" else "../" * path.count("/"),
        "canonical": config.absolute_url(pretty_url(path)) if path != "404.html" else None,
        "title": title,
        "description": description,
        "papers": papers,
        "paper_path": paper_path,
        "topic_path": topic_path,
        **shared,
        **extra,
    }
    try:
        return env.get_template(template).render(context)
    except TemplateSyntaxError as error:
        raise CatalogueError(f"{error.filename or template}:{error.lineno}: template error: {error.message}")
    except TemplateError as error:
        raise CatalogueError(f"templates/{template}: {error.message} (while rendering {path})")
