"""The command line: build (the default), ingest, render, index, serve, check, bundle, clean.

The modules that ingest, render and index are imported by the commands that use them, so
that `--help` and a build that finds the site up to date start in a fraction of the time.
"""

from __future__ import annotations

import functools
import gc
import os
import shutil
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import click

from .cache import CACHE_DIR, Cache, code_version, digest, tree_state
from .config import CONFIG_FILE, SiteConfig, host_base_url, read_config
from .i18n import available_languages, load_strings
from .lock import LOCK_FILE, exclusive
from .model import Problem
from .output import STAGING_PREFIX, SiteWriter, copy_assets, read_manifest, staged_site, write_manifest

PROJECT = Path(__file__).resolve().parent.parent


def directory(default: str, help: str):
    return click.option(f"--{default}", type=click.Path(file_okay=False, path_type=Path),
                        default=PROJECT / default, show_default=f"{default}/", help=help)


seeds_option = directory("seeds", "Folder of seed lists (*.txt): a header line, then one abstract per paragraph.")
content_option = directory("content", "Folder of per-paper Markdown files; people edit these.")
out_option = click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=PROJECT / "site",
                          show_default="site/", help="Folder the site is written to (replaced only when complete).")


class BuildByDefault(click.Group):
    """`python build.py [--build-options]` means `python build.py build [--build-options]`."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args or (args[0].startswith("-") and args[0] not in ("-h", "--help")):
            args = ["build", *args]
        return super().parse_args(ctx, args)


@click.group(cls=BuildByDefault, context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """Build a static, searchable catalogue of papers from plain lists of abstracts.

    Without a command, runs `build`: seeds/ -> content/ -> site/ with Pagefind search.
    Options given without a command are build's (`python build.py --no-search`).
    """


def site_options(command):
    """The options shared by build and render: where the site goes and how it looks."""
    for option in reversed((
        out_option,
        click.option("--base-url", envvar="CATALOGUE_BASE_URL", default=None,
                     help="Public address of the site, e.g. https://user.github.io/REPO/ (for sharing links, "
                          "previews, the sitemap and the 404 page). Also read from $CATALOGUE_BASE_URL, from "
                          "Netlify's $URL / $DEPLOY_PRIME_URL while Netlify builds, or from site.toml."),
        click.option("--lang", "language", default=None, metavar="LANGUAGE",
                     help=f"Interface language: {', '.join(available_languages())} (default: site.toml's "
                          "'language', else en). Sets <html lang>, which Pagefind follows when it indexes."),
        click.option("--config", "config_path", type=click.Path(dir_okay=False, path_type=Path),
                     default=PROJECT / CONFIG_FILE, show_default=CONFIG_FILE,
                     help="Site settings (title, language, base_url)."),
        click.option("--templates", type=click.Path(file_okay=False, path_type=Path), default=PROJECT / "templates",
                     show_default="templates/", help="Jinja templates (copy and edit to restyle the site)."),
        click.option("--assets", type=click.Path(file_okay=False, path_type=Path), default=PROJECT / "assets",
                     show_default="assets/", help="CSS, scripts and icons copied into site/assets/."),
    )):
        command = option(command)
    return command


@main.command()
@seeds_option
@content_option
@site_options
@click.option("--no-search", is_flag=True, help="Skip the Pagefind index (faster); search then uses the "
                                               "offline index (search-index.js) everywhere.")
def build(seeds: Path, content: Path, out: Path, base_url: str | None, language: str | None, config_path: Path,
          templates: Path, assets: Path, no_search: bool) -> None:
    """Ingest the seeds, render every page, index them for search (= ingest + render + index)."""
    started = time.perf_counter()
    config = site_config(config_path, base_url, language)
    inputs = functools.partial(build_fingerprint, seeds, content, templates, assets, config, not no_search)
    with exclusive(content):
        if up_to_date(out, inputs()):
            return
        run_ingest(seeds, content)
        size, page_count, paper_count = render_and_write(content, out, config, templates, assets, not no_search,
                                                         inputs())  # what ingest left in content/
    elapsed = time.perf_counter() - started
    say(f"Built {paper_count} papers, {page_count} files ({size / 1e6:.1f} MB) "
        f"in {elapsed:.1f} s -> {display(out)}/index.html")


@main.command()
@content_option
@site_options
def render(content: Path, out: Path, base_url: str | None, language: str | None, config_path: Path, templates: Path,
           assets: Path) -> None:
    """Render content/ into site/ without ingesting the seeds or indexing for search."""
    config = site_config(config_path, base_url, language)
    inputs = functools.partial(build_fingerprint, None, content, templates, assets, config, False)
    with exclusive(content):
        fingerprint = inputs()
        if up_to_date(out, fingerprint):
            return
        size, page_count, paper_count = render_and_write(content, out, config, templates, assets, False, fingerprint)
    say(f"Rendered {paper_count} papers, {page_count} files ({size / 1e6:.1f} MB) -> {display(out)}/index.html")


@main.command("index")
@out_option
def index_command(out: Path) -> None:
    """Index a built site for search with Pagefind (the last stage of build)."""
    from .search import index_site
    if not (out / "index.html").exists():
        raise click.ClickException(f"{display(out)}/index.html does not exist; run 'python build.py render' first")
    with stage("Indexing for search (Pagefind)"):
        summary = index_site(out)
    say(f"  {summary}")


def site_config(config_path: Path, base_url: str | None, language: str | None) -> SiteConfig:
    config = read_config(config_path, base_url=base_url or host_base_url(dict(os.environ)), language=language,
                         source_date_epoch=source_date_epoch(os.environ.get("SOURCE_DATE_EPOCH")))
    load_strings(config.language)  # an unknown or incomplete language stops the build before any work
    return config


def render_and_write(content: Path, out: Path, config: SiteConfig, templates: Path, assets: Path,
                     search: bool, fingerprint: str) -> tuple[int, int, int]:
    """content/ -> a complete new site/, remaking only files whose inputs changed; returns bytes, files, papers.

    `fingerprint` (build_fingerprint) is taken before content/ is read: a file edited during the
    build makes the next build's fingerprint differ, so that build is not skipped."""
    from .content import load_catalogue
    from .related import SimilarityProcess
    from .render import make_environment, plan_site
    from .search import BUNDLE_DIR, index_site
    with closing(Cache.beside(content)) as cache, SimilarityProcess(cache) as similarity, cycles_left_alone():
        with stage("Loading content/"):
            catalogue = load_catalogue(content, cache)
        report_problems(catalogue.notes)
        with stage(f"Preparing {len(catalogue.papers)} papers (text, what changed)"):
            batches = plan_site(catalogue, config, make_environment(templates), cache, similarity)
        if config.base_url is None:
            say("note: no base URL (--base-url or site.toml): canonical and preview tags, preview images and "
                "the sitemap are left out, and 404.html assumes the site is served at the domain root.")
        with staged_site(out) as staging:
            writer = SiteWriter(staging)
            for batch in batches:
                with stage(f"Rendering and writing {batch.label}"):
                    writer.write(batch.plan())
            copy_assets(assets, staging)
            report = writer.finish()
            say(f"  {report.written} written, {report.kept} unchanged since the last build, {report.removed} removed")
            if not search:
                shutil.rmtree(staging / BUNDLE_DIR, ignore_errors=True)  # an old index would not match the pages
            elif report.written or report.removed or not (staging / BUNDLE_DIR).is_dir():
                with stage("Indexing for search (Pagefind)"):
                    summary = index_site(staging, previous=out)
                say(f"  {summary}")
            else:
                say("Search index: no page changed, kept as it was")
            write_manifest(staging, fingerprint, report.inputs)
    return report.size, len(report.inputs), len(catalogue.papers)


@contextmanager
def cycles_left_alone() -> Iterator[None]:
    """No cycle collection while the catalogue is loaded and the site planned: millions of new
    objects and hardly a reference cycle, which the collector, run every 700 allocations, would
    only walk over and over (a fifth of the planning time at 10,000 papers). Page makers turn
    it back on (output.py): Jinja's page contexts do make cycles."""
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def build_fingerprint(seeds: Path | None, content: Path, templates: Path, assets: Path, config: SiteConfig,
                      search: bool) -> str:
    """Everything a build reads (file names and bytes, settings, this code): equal fingerprints, equal sites."""
    return digest(code_version(), tree_state(seeds) if seeds else None, tree_state(content, skip=(LOCK_FILE, CACHE_DIR)),
                  tree_state(templates), tree_state(assets), config, search)


def up_to_date(out: Path, fingerprint: str) -> bool:
    """True, and says so, when the site in `out` was built from exactly these inputs."""
    if read_manifest(out).get("fingerprint") != fingerprint or not (out / "index.html").is_file():
        return False
    say(f"Up to date: nothing changed since {display(out)}/ was built.")
    return True


@main.command("ingest")
@seeds_option
@content_option
@click.option("--prune", is_flag=True, help="Delete papers that are no longer in any seed file "
                                           "(by default they are kept and marked 'in_seeds: false').")
def ingest_command(seeds: Path, content: Path, prune: bool) -> None:
    """Turn the seed lists into content/papers/*.md, keeping every hand edit."""
    with exclusive(content):
        run_ingest(seeds, content, prune)


@main.command()
@out_option
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
def serve(out: Path, port: int) -> None:
    """Preview the built site on http://127.0.0.1:PORT/ (search works there, not from file://)."""
    import http.server

    from .server import QuietHandler
    if not (out / "index.html").exists():
        raise click.ClickException(f"{display(out)}/index.html does not exist; run 'python build.py' first")
    handler = functools.partial(QuietHandler, directory=str(out))
    with http.server.ThreadingHTTPServer(("127.0.0.1", port), handler) as server:
        say(f"Serving {display(out)}/ on http://127.0.0.1:{server.server_address[1]}/ (Ctrl+C to stop)")
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            say("Stopped.")


@main.command()
@out_option
@click.option("--no-html", is_flag=True, help="Skip the Nu Html Checker (which needs Java and 'npm install').")
def check(out: Path, no_html: bool) -> None:
    """Verify a built site: links work from disk and under a subpath, HTML is valid,
    every page has a title and description, search covers every paper."""
    from .check import check_site
    with stage(f"Checking {display(out)}/"):
        problems = check_site(out, validate_html=not no_html)
    for problem in problems:
        say(f"{display(out)}/{problem}")
    if problems:
        raise click.ClickException(f"{len(problems)} problem{'s' if len(problems) > 1 else ''} in {display(out)}/")
    say(f"  no problems in {display(out)}/")


@main.command()
@out_option
@click.option("--zip", "zip_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Where to write the zip (default: next to the site, as <out>.zip).")
def bundle(out: Path, zip_path: Path | None) -> None:
    """Zip the built site for offline reading: unzip anywhere and open index.html."""
    from .bundle import write_bundle
    target = zip_path or out.with_name(out.name + ".zip")
    count = write_bundle(out, target)
    say(f"Wrote {display(target)}: {count} files, {target.stat().st_size / 1e6:.1f} MB. "
        "Unzip it anywhere and open paper-catalogue/index.html.")


@main.command()
@out_option
def clean(out: Path) -> None:
    """Delete the built site (content/ is never touched)."""
    for stale in out.resolve().parent.glob(f"{STAGING_PREFIX}{out.name}-*"):
        shutil.rmtree(stale, ignore_errors=True)
    if out.exists():
        shutil.rmtree(out)
        say(f"Removed {display(out)}/")
    else:
        say(f"Nothing to remove: {display(out)}/ does not exist")


def source_date_epoch(value: str | None) -> int | None:
    """$SOURCE_DATE_EPOCH (reproducible-builds.org): the date the feed carries instead of a guess."""
    if not value:
        return None
    if not value.isdigit():
        raise click.ClickException(f"SOURCE_DATE_EPOCH must be a number of seconds, not {value!r}")
    return int(value)


def run_ingest(seeds: Path, content: Path, prune: bool = False) -> None:
    from .ingest import ingest
    with stage(f"Ingesting {display(seeds)}/ into {display(content)}/"), closing(Cache.beside(content)) as cache:
        report = ingest(seeds, content, prune, cache)
    report_problems(report.problems)
    say(f"  {report.papers} papers: {report.added} new, {report.updated} updated, "
        f"{report.kept_edits} with hand edits kept, {report.pruned} pruned, {len(report.problems)} notes")


def report_problems(problems: tuple[Problem, ...]) -> None:
    for problem in problems:
        say(f"{problem.source}: {problem.message}")


class stage:
    """Prints what is being done and how long it took."""

    def __init__(self, label: str):
        self.label = label

    def __enter__(self):
        self.started = time.perf_counter()
        say(f"{self.label} ...")

    def __exit__(self, kind, *_):
        if kind is None:
            say(f"  done in {time.perf_counter() - self.started:.2f} s")


def say(message: str) -> None:
    click.echo(message, err=True)


def display(path: Path) -> str:
    """A path as short as possible for messages: relative to the working directory when inside it."""
    try:
        return Path(os.path.relpath(path)).as_posix() if not os.path.relpath(path).startswith("..") else path.as_posix()
    except ValueError:
        return path.as_posix()
