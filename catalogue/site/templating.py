"""The templates: their Jinja environment (compiled once per state of their files), the parts of a
page made once a build however many pages show them (a paper's card, the frame of a page at a
depth), and the one place that builds a template's context (render_page).

Every internal link is relative and names its file, so one build works from file://, under a
subpath and at a domain root. `root` in the template context is the way back to the site's top
from the page being rendered ('' or '../../'); 404.html, which hosts serve at any depth, uses the
base URL's absolute path instead.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, TemplateError, TemplateSyntaxError, select_autoescape
from markupsafe import Markup as SafeHtml, escape

from catalogue import routes
from catalogue.config import SiteConfig
from catalogue.errors import CatalogueError
from catalogue.search.joiners import mark_joiners
from catalogue.site.contexts import SiteParts, Values, named_values
from catalogue.site.paper_extras import PaperExtras
from catalogue.site.views import PaperView
from catalogue.system.cache import digest


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


def templates_state(env: Environment) -> str:
    """A digest of the template files, so that editing one re-renders the pages."""
    return digest(*[files_state(Path(folder)) for folder in env.loader.searchpath])  # not where the project is


class EntryMaker:
    """Each paper's entry in a list (a macro: its card) made once per build for each way lists show it
    (the macro's further arguments), however many lists show it: made with a stand-in for the way back
    to the site's top, which each page then fills in."""

    ROOT = SafeHtml("<root>")  # passed unescaped, so it cannot be confused with any text (whose '<' is escaped)

    def __init__(self, macro):
        self.macro = macro
        self.made: dict[tuple, str] = {}

    def __call__(self, view: PaperView, root: str, *shown: object) -> SafeHtml:
        key = (view.key, *shown)
        if key not in self.made:
            self.made[key] = str(self.macro(view, self.ROOT, *shown))
        return SafeHtml(self.made[key].replace(self.ROOT, root))


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


def render_page(env: Environment, template: str, config: SiteConfig, path: str, shared: SiteParts, *,
                title: str, description: str, papers: tuple[PaperView, ...], canonical_path: str | None = None,
                values: Values | None = None, extras: PaperExtras | None = None) -> str:
    """One page; the single place that builds a template context: the values every page has, the
    site's shared parts, the page family's values and what a paper's page adds when it is made."""
    context = {
        "site": config,
        "path": path,
        "root": config.base_path if path == routes.NOT_FOUND else "../" * path.count("/"),
        "canonical": config.absolute_url(routes.shared_form(canonical_path or path)) if path != routes.NOT_FOUND else None,
        "title": title,
        "description": description,
        "papers": papers,
        "routes": routes,
        **named_values(shared),
        **named_values(values),
        **named_values(extras),
    }
    try:
        return env.get_template(template).render(context)
    except TemplateSyntaxError as error:
        raise CatalogueError(f"{error.filename or template}:{error.lineno}: template error: {error.message}")
    except TemplateError as error:
        raise CatalogueError(f"templates/{template}: {error.message} (while rendering {path})")
