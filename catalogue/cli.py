"""The command line: build (the default), ingest, render, index, serve, check, bundle, clean.

Each command reads its options and calls a stage of pipeline.py (serve, bundle and clean are
small enough to be here). Modules that do heavy work are imported by the commands that use them,
so that `--help` starts in a fraction of a second.
"""

from __future__ import annotations

import errno
import functools
import os
import shlex
import subprocess
import sys
import threading
import time
from pathlib import Path

import click

from catalogue import pipeline
from catalogue.config import CONFIG_FILE
from catalogue.errors import CatalogueError
from catalogue.ingest.seed_files import check_seeds_folder
from catalogue.i18n.strings import available_languages
from catalogue.system.faults import fault_message
from catalogue.publish.guard import Holds
from catalogue.publish.site_folder import SiteFolder
from catalogue.system.lock import exclusive
from catalogue.system.removal import remove_tree
from catalogue.system.workers import JOBS_VARIABLE
from catalogue.system.terminal import counted, display, say

PROJECT = Path(__file__).resolve().parent.parent


def directory(default: str, help: str, file_okay: bool = False):
    return click.option(f"--{default}", type=click.Path(file_okay=file_okay, path_type=Path),
                        default=PROJECT / default, show_default=f"{default}/", help=help)


seeds_option = directory("seeds", "Folder of seed lists, or one list: text (*.txt: a header line such as 'ICML 2026 "
                                  "Accepted Papers', then one abstract per paragraph), JSON (*.json, *.jsonl), CSV "
                                  "(*.csv, *.tsv) or BibTeX (*.bib) with titles, authors and links.", file_okay=True)
content_option = directory("content", "Folder of per-paper Markdown files; people edit these.")
allow_removals_option = click.option(
    "--allow-removals", is_flag=True, help="Let ingest mark more than half of the papers as gone from the seeds, "
                                           "or prune any (without it, such an ingest stops and lists them).")


def set_jobs(context: click.Context, parameter: click.Parameter, jobs: int | None) -> None:
    if jobs:
        os.environ[JOBS_VARIABLE] = str(jobs)  # read by every parallel stage, and by the processes it starts


def jobs_option_for(work: str):
    return click.option("--jobs", type=click.IntRange(1), default=None, expose_value=False, callback=set_jobs,
                        metavar="N", help=f"{work} (default: the cores this process may use).")


jobs_option = jobs_option_for("Worker processes for ingest, text conversion, page writing and Pagefind")


def site_folder_option(help_text: str):
    return click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=PROJECT / "site",
                        show_default="site/", help=help_text)


out_option = site_folder_option("Folder the site is written to (replaced only when complete).")
built_site_option = site_folder_option("Folder of the built site (as given to build's --out).")


LOOKUP_VARIABLE = "CATALOGUE_LOOKUP"  # the one setting a host's build turns lookup on with
OFF, ON = ("", "0", "false", "no", "off"), ("1", "true", "yes", "on")


def lookup_wanted(context: click.Context, parameter: click.Parameter, given: bool) -> bool:
    """--lookup/--no-lookup when given, else $CATALOGUE_LOOKUP (1 or 0; unset or empty: off)."""
    if context.get_parameter_source(parameter.name) is not click.core.ParameterSource.DEFAULT:
        return given
    value = os.environ.get(LOOKUP_VARIABLE, "").strip().lower()
    if value not in OFF + ON:
        raise CatalogueError(f"${LOOKUP_VARIABLE} is {value!r}; set it to 1 to look titles up, or 0 (nothing was "
                             "read or written)")
    return value in ON


def lookup_options(command):
    """Looking titles up at OpenAlex: whether, where, and the contact address sent with each request."""
    for option in reversed((
        click.option("--lookup/--no-lookup", default=False, callback=lookup_wanted,
                     help="Ask OpenAlex for the real title, authors, DOI and PDF of each paper whose list gives no "
                          "title (its abstract's words are sent), and record them in content/; default: "
                          f"${LOOKUP_VARIABLE} (1 or 0), else off. See README, 'Titles looked up'."),
        click.option("--lookup-url", envvar="CATALOGUE_LOOKUP_URL", default="https://api.openalex.org",
                     show_default=True, help="The works API asked (also $CATALOGUE_LOOKUP_URL)."),
        click.option("--lookup-mailto", envvar="CATALOGUE_LOOKUP_MAILTO", default=None, metavar="EMAIL",
                     help="Your address, sent with each request as OpenAlex asks of polite clients (also "
                          "$CATALOGUE_LOOKUP_MAILTO). An API key, if you have one, is read from $OPENALEX_API_KEY."),
    )):
        command = option(command)
    return command


def lookup_settings(lookup: bool, url: str, mailto: str | None):
    """The lookup's settings, or None when off."""
    if not lookup:
        return None
    if not url.lower().startswith(("https://", "http://")):
        raise CatalogueError(f"--lookup-url {url!r}: give the service's http(s) address, such as "
                             "https://api.openalex.org (nothing was read or written)")
    from catalogue.ingest.lookup.service import LookupSettings
    return LookupSettings(url=url, mailto=mailto or None, api_key=os.environ.get("OPENALEX_API_KEY") or None)


class Interrupted(CatalogueError):
    exit_code = 130  # the shells' code for a command stopped by Ctrl-C


class BuildByDefault(click.Group):
    """`python3 build.py [--build-options]` means `python3 build.py build [--build-options]`.

    What the user or the system can cause ends in one line, not a traceback: Ctrl-C, and any
    OSError (a read-only folder, a full disk, a missing folder). Other exceptions are bugs and
    keep their traceback."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args or (args[0].startswith("-") and args[0] not in ("-h", "--help")):
            args = ["build", *args]
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise Interrupted("interrupted; the previous site is kept") from None
        except OSError as error:
            raise CatalogueError(fault_message(error, display)) from None


@click.group(cls=BuildByDefault, context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """Build a static, searchable catalogue of papers from plain lists of abstracts.

    Without a command, runs `build`: seeds/ -> content/ -> site/ with Pagefind search.
    Options given without a command are build's (`python3 build.py --no-search`).
    """


def given_config_exists(context: click.Context, parameter: click.Parameter, path: Path) -> Path:
    """The project's site.toml is optional, but a --config that names no file is a slip, not a choice
    of the defaults."""
    if context.get_parameter_source(parameter.name) is not click.core.ParameterSource.DEFAULT and not path.exists():
        raise CatalogueError(f"{display(path)}: no such settings file; check --config (nothing was read or written)")
    return path


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
                     default=PROJECT / CONFIG_FILE, show_default=CONFIG_FILE, callback=given_config_exists,
                     help="Site settings (title, language, base_url)."),
        click.option("--templates", type=click.Path(file_okay=False, path_type=Path), default=PROJECT / "templates",
                     show_default="templates/", help="Jinja templates (copy and edit to restyle the site)."),
        click.option("--assets", type=click.Path(file_okay=False, path_type=Path), default=PROJECT / "assets",
                     show_default="assets/", help="CSS, scripts and icons copied into site/assets/."),
    )):
        command = option(command)
    return command


@main.command(short_help="seeds/ -> content/ -> site/ with search (the default command).")
@seeds_option
@content_option
@site_options
@click.option("--no-search", is_flag=True, help="Skip the Pagefind index (faster); search then uses the "
                                               "offline index (search-index.js) everywhere.")
@allow_removals_option
@lookup_options
@jobs_option
def build(seeds: Path, content: Path, out: Path, base_url: str | None, language: str | None, config_path: Path,
          templates: Path, assets: Path, no_search: bool, allow_removals: bool, lookup: bool, lookup_url: str,
          lookup_mailto: str | None) -> None:
    """Ingest the seeds, render every page, index them for search (= ingest + render + index)."""
    started = time.perf_counter()
    config = pipeline.site_config(config_path, base_url, language)
    report = pipeline.build(seeds, content, out, config, templates, assets, not no_search, allow_removals,
                            lookup_settings(lookup, lookup_url, lookup_mailto))
    if report:
        say(f"Built {counted(report.papers, 'paper')}, {counted(report.files, 'file')} ({report.size / 1e6:.1f} MB) "
            f"in {time.perf_counter() - started:.1f} s -> {display(out)}/index.html")


@main.command(short_help="content/ -> site/, without ingest or search.")
@content_option
@site_options
@jobs_option
def render(content: Path, out: Path, base_url: str | None, language: str | None, config_path: Path, templates: Path,
           assets: Path) -> None:
    """Render content/ into site/ without ingesting the seeds or indexing for search."""
    config = pipeline.site_config(config_path, base_url, language)
    if report := pipeline.render_only(content, out, config, templates, assets):
        say(f"Rendered {counted(report.papers, 'paper')}, {counted(report.files, 'file')} ({report.size / 1e6:.1f} MB) "
            f"-> {display(out)}/index.html")


@main.command("index", short_help="Index a built site for search (Pagefind).")
@built_site_option
@jobs_option_for("How many venue-years Pagefind indexes at once")
def index_command(out: Path) -> None:
    """Index a built site for search with Pagefind (the last stage of build)."""
    site = SiteFolder(out, display(out))
    if site.check(pipeline.protected_inputs(), PROJECT) is not Holds.OUR_SITE:
        raise CatalogueError(f"{display(out)}/ is not a built site; run 'python3 build.py render{out_flag(out)}' first")
    with site.lock():
        say(f"  {pipeline.index(out)}")


@main.command("ingest", short_help="seeds/ -> content/ (a Markdown file a paper), keeping hand edits.")
@seeds_option
@content_option
@click.option("--prune", is_flag=True, help="Move papers that are no longer in any seed file to "
                                           "content/.trash/<date-time>/ (by default they are kept and marked "
                                           "'in_seeds: false'); needs --allow-removals.")
@allow_removals_option
@lookup_options
@jobs_option
def ingest_command(seeds: Path, content: Path, prune: bool, allow_removals: bool, lookup: bool, lookup_url: str,
                   lookup_mailto: str | None) -> None:
    """Turn the seed lists into content/papers/*.md, keeping every hand edit."""
    check_seeds_folder(seeds)  # a mistyped --seeds stops before content/ is touched
    with exclusive(content):
        pipeline.ingest(seeds, content, prune, allow_removals, repeat_notes=True,
                        lookup=lookup_settings(lookup, lookup_url, lookup_mailto))


@main.command(short_help="Preview the built site on http://127.0.0.1:8000/.")
@built_site_option
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port to listen on, on 127.0.0.1 only (0: any free port).")
@click.option("--watch", is_flag=True, help="Build first, then again whenever seeds/, content/, templates/, assets/ "
                                            "or site.toml change, and reload the pages open in the browser.")
@seeds_option
@content_option
def serve(out: Path, port: int, watch: bool, seeds: Path, content: Path) -> None:
    """Preview the built site on http://127.0.0.1:PORT/ (full-text search works there; from file:// only the
    smaller offline index does)."""
    import http.server

    from catalogue.serve.handler import QuietHandler
    if watch:
        from catalogue.serve.watch import Generation, rebuild_on_change, reloading_handler
        command = [sys.executable, str(PROJECT / "build.py"), "build", "--seeds", str(seeds), "--content", str(content),
                   "--out", str(out)]
        subprocess.run(command)  # a failed first build is reported; the previous site, if any, is served
        generation = Generation()
        handler_class = reloading_handler(generation)
    else:
        handler_class = QuietHandler
    require_index(out)
    handler = functools.partial(handler_class, directory=str(out))
    try:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    except OSError as error:
        if error.errno != errno.EADDRINUSE:
            raise
        raise CatalogueError(f"port {port} is already in use (another server?); choose another with --port, "
                             f"e.g. --port {port + 1 if port < 65535 else 8000}") from None
    with server:
        say(f"Serving {display(out)}/ on http://127.0.0.1:{server.server_address[1]}/ (Ctrl+C to stop)")
        stop = threading.Event()
        if watch:
            watched = [path for path in (seeds, content, PROJECT / "templates", PROJECT / "assets", PROJECT / "site.toml")
                       if path.exists()]
            threading.Thread(target=rebuild_on_change, args=(watched, command, generation, stop, say),
                             daemon=True).start()
            say(f"Watching {', '.join(display(path) for path in watched)}")
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            say("Stopped.")
        finally:
            stop.set()


@main.command(short_help="Verify a built site: links, HTML, titles, search.")
@built_site_option
@click.option("--no-html", is_flag=True, help="Skip the Nu Html Checker (which needs Java and 'npm install').")
def check(out: Path, no_html: bool) -> None:
    """Verify a built site: links work from disk and under a subpath, HTML is valid,
    every page has a title and description, search covers every paper."""
    from catalogue.site.check import TOOL_PROBLEMS
    problems = pipeline.check(out, validate_html=not no_html, index_command=f"python3 build.py index{out_flag(out)}")
    for problem in problems:
        say(problem if problem.startswith(TOOL_PROBLEMS) else f"{display(out)}/{problem}")
    if problems:
        raise click.ClickException(f"{counted(len(problems), 'problem')} in {display(out)}/")
    say(f"  no problems in {display(out)}/")


@main.command(short_help="Zip the built site for reading offline.")
@built_site_option
@click.option("--zip", "zip_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Where to write the zip (default: next to the site, as <out>.zip).")
def bundle(out: Path, zip_path: Path | None) -> None:
    """Zip the built site for offline reading: unzip anywhere and open paper-catalogue/index.html."""
    from catalogue.site.bundle import is_a_bundle, write_bundle
    require_index(out)
    target = zip_path or out.with_name(out.name + ".zip")
    if not target.parent.is_dir():
        raise CatalogueError(f"{display(target.parent)}/: no such folder for the zip; create it or choose another --zip")
    if target.resolve().is_relative_to(out.resolve()):
        raise CatalogueError(f"{display(target)}: inside the site it would zip; choose a --zip outside "
                             f"{display(out)}/ (nothing was written)")
    if os.path.lexists(target) and not is_a_bundle(target):
        raise CatalogueError(f"{display(target)}: exists and is not a bundle this command wrote; choose another "
                             "--zip, or move that file away (nothing was written)")
    count = write_bundle(out, target)
    say(f"Wrote {display(target)}: {counted(count, 'file')}, {target.stat().st_size / 1e6:.1f} MB. "
        "Unzip it anywhere and open paper-catalogue/index.html.")


@main.command(short_help="Delete a site this tool built (nothing else).")
@built_site_option
def clean(out: Path) -> None:
    """Delete the built site: only a folder this tool built (content/ and seeds/ never)."""
    site = SiteFolder(out, display(out))
    holds = site.check(pipeline.protected_inputs(), PROJECT, doing="refusing to remove it", advice="nothing was removed")
    if holds is Holds.NOTHING and next(site.leftovers(), None) is None:
        say(f"Nothing to remove: {display(out)}/ does not exist")
        return
    with site.lock():  # not during a build; staging folders of dead builds go
        site.remove_beside()
        if site.holds() is Holds.OUR_SITE:
            remove_tree(out.resolve())
            say(f"Removed {display(out)}/")
        else:
            say(f"Nothing to remove: {display(out)}/ {'is empty' if out.exists() else 'does not exist'}")


def require_index(out: Path) -> None:
    if not (out / "index.html").is_file():
        raise CatalogueError(f"{display(out)}/index.html does not exist; run 'python3 build.py{out_flag(out)}' first")


def out_flag(out: Path) -> str:
    """The --out a suggested command needs to make the same site (none for the default)."""
    return "" if out == PROJECT / "site" else f" --out {shlex.quote(display(out))}"
