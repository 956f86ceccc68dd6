"""The build's stages by name; the command line (cli.py) calls them and nothing else does the work.

    ingest(seeds, content, prune, allow_removals) -> IngestReport      seeds/ -> content/
    render(content, out, config, templates, assets, search, ...) -> SiteReport
                                                                       content/ -> site/ (search index included),
                                                                       in phases: load, plan, write (and index)
    index(site) -> summary                                             site/ -> site/pagefind/
    check(site, validate_html) -> problems                             site/ -> what is wrong with it
    build(seeds, content, out, config, ...) -> SiteReport | None       ingest, then render (None: up to date)

Around them: where a site may be written (`writing_site`), the settings (`site_config`) and the
fingerprint of everything a build reads (`build_fingerprint`, `up_to_date`).

The modules that ingest, render and index are imported by the stages that use them, so that
`--help` and a build that finds the site up to date start in a fraction of the time.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import closing, contextmanager, nullcontext
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from catalogue.config import SiteConfig, host_base_url, read_config
from catalogue.errors import CatalogueError, shown
from catalogue.model import Catalogue
from catalogue.i18n.strings import load_strings
from catalogue.publish.files import copy_assets, refuse_strange_assets
from catalogue.publish.site_folder import SiteFolder
from catalogue.publish.staging import Staging
from catalogue.publish.writer import Batch, SiteWriter, WriteReport
from catalogue.system.cache import CACHE_DIR, Cache, KnownFiles, digest, package_version, tree_state
from catalogue.system.lock import LOCK_FILE, exclusive
from catalogue.system.memory import give_back
from catalogue.system.removal import remove_tree
from catalogue.system.terminal import counted, display, say, stage
from catalogue.ingest.seed_files import at_their_places, check_seeds_folder, seeds_state
from catalogue.ingest.trash import TRASH_DIR

if TYPE_CHECKING:  # imported where used: a build that is up to date never loads ingest
    from catalogue.discovery.related import SimilarityProcess
    from catalogue.ingest.lookup.service import LookupSettings
    from catalogue.ingest.run import IngestReport

PROJECT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class SiteReport:
    size: int  # bytes of the site's files
    files: int
    papers: int


def build(seeds: Path, content: Path, out: Path, config: SiteConfig, templates: Path, assets: Path, search: bool,
          allow_removals: bool, lookup: LookupSettings | None = None) -> SiteReport | None:
    """Ingest the seeds (looking titles up with `lookup`), render every page, index them for search;
    None when `out` is up to date."""
    check_seeds_folder(seeds)  # a mistyped --seeds stops before anything is touched
    with writing_site(out, seeds=seeds, content=content, templates=templates, assets=assets):
        if up_to_date(out, before := build_fingerprint(seeds, content, templates, assets, config, search, lookup)):
            return None
        from catalogue.content.papers import PAPERS_DIR
        from catalogue.discovery.related import SimilarityProcess, is_small_catalogue
        small = is_small_catalogue(content / PAPERS_DIR)
        with SimilarityProcess(Cache.file_beside(content), small) as similarity:  # started now: its start-up overlaps ingest
            report = ingest(seeds, content, allow_removals=allow_removals, lookup=lookup)
            # taken after ingest (unless it wrote nothing), before content/ is read: a file edited during the
            # render changes the next build's; a lookup the service left unfinished, too (it asks again)
            fingerprint = build_fingerprint(seeds, content, templates, assets, config, search, lookup) \
                if report.content_written else before
            if report.lookup and report.lookup.unanswered:
                fingerprint = digest(fingerprint, "lookup unfinished")
            return render(content, out, config, templates, assets, search, fingerprint, similarity)


def render_only(content: Path, out: Path, config: SiteConfig, templates: Path, assets: Path) -> SiteReport | None:
    """content/ -> site/ without the seeds or the search index; None when `out` is up to date."""
    with writing_site(out, content=content, templates=templates, assets=assets):
        fingerprint = build_fingerprint(None, content, templates, assets, config, False)
        if up_to_date(out, fingerprint):
            return None
        return render(content, out, config, templates, assets, False, fingerprint)


def ingest(seeds: Path, content: Path, prune: bool = False, allow_removals: bool = False,
           repeat_notes: bool = False, lookup: LookupSettings | None = None) -> IngestReport:
    """seeds/ -> content/papers/*.md, keeping every hand edit, looking titles up with `lookup`; returns
    the IngestReport (also said). Notes about seeds unread since they were said are counted, not
    listed again, unless `repeat_notes`."""
    from catalogue.content.taxonomy import write_default_taxonomy
    from catalogue.ingest.run import KEPT_TYPES, ingest as ingest_seeds, ingest_date
    from catalogue.system.notes import note_lines
    if taxonomy := write_default_taxonomy(content):  # a new catalogue: it builds at once
        say(f"{display(taxonomy)}: no topic taxonomy; wrote the default one (edit it to change topics)")
    folder = f"{display(seeds)}{'/' if seeds.is_dir() else ''}"
    with stage(f"Ingesting {folder} into {display(content)}/"), closing(Cache.beside(content, KEPT_TYPES)) as cache:
        today = ingest_date(source_date_epoch(os.environ.get("SOURCE_DATE_EPOCH")))
        report = ingest_seeds(seeds, content, prune, cache, allow_removals, today, lookup)
    listed = repeat_notes or not report.notes_said_before
    if listed:
        for line in note_lines(at_their_places(report.problems, seeds, content.parent)):
            say(line)
    notes = counted(len(report.problems), 'note') + ("" if listed or not report.problems else
                                                     " (said when the seeds were last read; 'build.py ingest' lists them)")
    say(f"  {counted(report.papers, 'paper')}: {report.added} new, {report.updated} updated, "
        f"{report.kept_edits} with hand edits kept, {report.pruned} pruned, {notes}")
    if report.lookup and report.lookup.asked:
        say(f"  Titles {report.lookup.summary()}")
    return replace(report, content_written=True) if taxonomy else report


def render(content: Path, out: Path, config: SiteConfig, templates: Path, assets: Path, search: bool,
           fingerprint: str, similarity: SimilarityProcess | None = None) -> SiteReport:
    """content/ -> a complete new site/, remaking only files whose inputs changed, indexed when `search`.

    `fingerprint` (build_fingerprint) is taken before content/ is read: a file edited during the
    build makes the next build's fingerprint differ, so that build is not skipped. `similarity`:
    a process started earlier, else one is started now."""
    from catalogue.content.papers import PAPERS_DIR
    from catalogue.discovery.related import SimilarityProcess, is_small_catalogue
    from catalogue.site.render import KEPT_TYPES
    with closing(Cache.beside(content, KEPT_TYPES)) as cache, nullcontext(similarity) if similarity else \
            SimilarityProcess(cache.path, is_small_catalogue(content / PAPERS_DIR)) as similarity, cycles_left_alone():
        catalogue = load(content, cache)
        papers = len(catalogue.papers)
        batches = plan(catalogue, config, templates, cache, similarity)
        del catalogue  # the batches hold what they need, and write lets each go once it is written
        site = SiteFolder(out, display(out))
        with site.staged() as staging:
            report = write(batches, staging, assets, search, out, content)
            staging.write_manifest(fingerprint, report, site.content_seen(content))
    return SiteReport(report.size, len(report.inputs), papers)


def load(content: Path, cache: Cache) -> Catalogue:
    """content/ read and checked whole, its notes said."""
    from catalogue.content.rules import load_catalogue
    from catalogue.system.notes import note_lines
    with stage(f"Loading {display(content)}/"):
        catalogue = load_catalogue(content, cache)
    for line in note_lines(catalogue.notes):
        say(line)
    return catalogue


def plan(catalogue: Catalogue, config: SiteConfig, templates: Path, cache: Cache,
         similarity: SimilarityProcess) -> list[Batch]:
    """Every file of the site planned, in batches (site/render.py): the texts converted, what changed found."""
    from catalogue.site.render import plan_site
    from catalogue.site.templating import make_environment
    with stage(f"Preparing {counted(len(catalogue.papers), 'paper')} (text, what changed)"):
        batches = plan_site(catalogue, config, make_environment(templates), cache, similarity)
    if config.base_url is None:
        say("note: no base URL (--base-url or site.toml): canonical and preview tags, preview images and "
            "the sitemap are left out, and 404.html assumes the site is served at the domain root.")
    return batches


def write(batches: list[Batch], staging: Staging, assets: Path, search: bool, out: Path, content: Path) -> WriteReport:
    """Each batch made and written into the staging folder (only files whose inputs changed), the
    assets copied, and, when `search`, Pagefind run beside the writing once the pages it reads are written;
    `batches` is left empty, and what only they held is given back to the system as Pagefind starts and
    before it waits for Pagefind."""
    from catalogue.search.index import BUNDLE_DIR
    with ThreadPoolExecutor(max_workers=1) as beside:  # its exit waits for Pagefind
        writer = staging.writer()
        indexing = None
        while batches:  # each let go once written: the catalogue and its views go with the last
            batch = batches.pop(0)
            if search and indexing is None and not batch.searched:
                indexing = start_indexing(beside, writer, staging.path, out, content)
                if indexing is not None:
                    give_back()  # what only the searched batches held (the views), while Pagefind starts
            with stage(f"Rendering and writing {batch.label}"):
                writer.write(batch.plan(), forking=indexing is None)
        batch = None  # the last one's too
        if search and indexing is None:
            indexing = start_indexing(beside, writer, staging.path, out, content)
        copy_assets(assets, staging.path)
        report = writer.finish()
        say(f"  {report.written} written, {report.kept} unchanged since the last build, {report.removed} removed")
        staging.record(report.changed)
        if not search:
            remove_tree(staging.path / BUNDLE_DIR, ignore_errors=True)  # an old index would not match the pages
        elif indexing:
            give_back()  # Pagefind needs as much again
            with stage("Indexing for search (Pagefind, started once the pages it reads were written)"):
                summary = indexing.result()
            say(f"  {summary}")
        else:
            say("Search index: no page it reads changed, kept as it was")
    return report


def start_indexing(beside: ThreadPoolExecutor, writer: SiteWriter, staging: Path, out: Path,
                   content: Path) -> Future[str] | None:
    """Pagefind over the staging folder, in `beside`, once every page it reads is written (the
    rest of the site is written meanwhile); None when none of them changed and an index is there.
    The thread opens the cache anew: an SQLite connection serves the thread that made it."""
    from catalogue import routes
    from catalogue.search.index import BUNDLE_DIR
    writer.remove_gone(routes.is_paper_page)  # Pagefind reads every paper page its shard's buckets hold
    if not writer.written and (staging / BUNDLE_DIR).is_dir():
        return None

    def run() -> str:
        with closing(Cache.beside(content)) as cache:
            return index_site(staging, previous=out, cache=cache)
    return beside.submit(run)


def index(site: Path) -> str:
    """site/ -> site/pagefind/ (reusing the shards whose pages did not change); a one-line summary."""
    with stage("Indexing for search (Pagefind)"):
        return index_site(site)


def index_site(site: Path, previous: Path | None = None, cache: Cache | None = None) -> str:
    """site/ -> site/pagefind/, reusing `previous`'s shards whose pages did not change and the
    shards' words kept in `cache`, a Pagefind per core at a time; a one-line summary."""
    from catalogue.search.index import index_site as index_shards
    from catalogue.system.workers import cores
    return index_shards(site, previous=previous, jobs=cores(), cache=cache)


def check(site: Path, validate_html: bool, index_command: str) -> list[str]:
    """What is wrong with a built site: broken links from disk or a subpath, invalid HTML, ...
    (`index_command`: the command that indexes this site, advised when it has no search index)."""
    from catalogue.site.check import check_site
    with stage(f"Checking {display(site)}/"):
        return check_site(site, validate_html=validate_html, index_command=index_command, tell=say)


def protected_inputs(**given: Path) -> dict[str, Path]:
    """The folders a site may not replace, hold or lie in, by name: those given, else the project's."""
    return {f"the {name} folder": given.get(name, PROJECT / name) for name in ("content", "seeds", "templates", "assets")}


@contextmanager
def writing_site(out: Path, content: Path, assets: Path, **inputs: Path) -> Iterator[None]:
    """For a whole build into `out`: refuse a folder that is not ours, a new content folder over
    another's site, and assets that are not ours (before writing anything), then hold content/'s
    lock and the site's."""
    site = SiteFolder(out, display(out))
    site.check(protected_inputs(content=content, assets=assets, **inputs), PROJECT)
    refuse_new_content_over_another_site(content, site)
    refuse_strange_assets(assets, display(assets))
    with exclusive(content), site.lock():
        yield


def refuse_new_content_over_another_site(content: Path, site: SiteFolder) -> None:
    """A content folder that does not exist starts a new catalogue (the default topics, every seed
    ingested); over a site built from another content folder, that is most likely a mistyped
    --content, and the build would replace that site."""
    if content.exists() or content.is_symlink():
        return
    source = site.built_from()  # read only here: a build from an existing folder never parses the manifest whole
    if source is None or source == content.resolve():
        return
    raise CatalogueError(f"{display(content)}/: no such content folder, and {site.shown}/ holds the site built from "
                         f"{display(source)}/; check --content, or choose another --out to start a new catalogue "
                         "(nothing was written)")


def site_config(config_path: Path, base_url: str | None, language: str | None) -> SiteConfig:
    """site.toml, overridden by the host's address and by the flags; an unknown language stops here."""
    config = read_config(config_path, base_url=base_url or host_base_url(dict(os.environ)), language=language)
    load_strings(config.language)  # an unknown or incomplete language stops the build before any work
    return config


def source_date_epoch(value: str | None) -> int | None:
    """$SOURCE_DATE_EPOCH (reproducible-builds.org): the date ingest gives a new paper instead of the clock's."""
    if not value:
        return None
    if not value.isdigit():
        raise CatalogueError(f"SOURCE_DATE_EPOCH must be a number of seconds, not {shown(value)}")
    return int(value)


@contextmanager
def cycles_left_alone() -> Iterator[None]:
    """No cycle collection while the catalogue is loaded and the site planned: millions of new
    objects and hardly a reference cycle, which the collector would only walk over and over.
    Page makers turn it back on (system/workers.py): Jinja's page contexts do make cycles.
    At the end what was made meanwhile joins the oldest generation unexamined (frozen, then
    thawed there): enabled as it is, the next collection would walk all of it first."""
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()
        gc.unfreeze()


def build_fingerprint(seeds: Path | None, content: Path, templates: Path, assets: Path, config: SiteConfig,
                      search: bool, lookup: LookupSettings | None = None) -> str:
    """Everything a build reads (file names and bytes, settings, this code): equal fingerprints, equal sites.
    A build that looks titles up is another build (the first asks the service)."""
    with known_files(content) as known:
        return digest(package_version(), seeds_state(seeds, content.parent, known("seeds")) if seeds else None,
                      tree_state(content, (LOCK_FILE, CACHE_DIR, TRASH_DIR), known("content")),
                      tree_state(templates), tree_state(assets), config, search,
                      *((lookup.url,) if lookup else ()))


@contextmanager
def known_files(content: Path) -> Iterator[Callable[[str], KnownFiles | None]]:
    """The seed and content files' digests with their stat, by folder, kept beside content/ (none
    before content/ exists): the catalogue's many files, all read, would take most of a build that
    finds nothing to do. What the fingerprint found is saved when it is done."""
    if not content.is_dir():
        yield lambda folder: None
        return
    with closing(Cache(Cache.file_beside(content))) as cache:
        opened: dict[str, KnownFiles] = {}

        def known(folder: str) -> KnownFiles:
            if folder not in opened:
                opened[folder] = KnownFiles(cache, folder)
            return opened[folder]

        yield known
        for files in opened.values():
            files.save()


def up_to_date(out: Path, fingerprint: str) -> bool:
    """True, and says so, when the site in `out` was built from exactly these inputs."""
    if SiteFolder(out, display(out)).fingerprint() != fingerprint or not (out / "index.html").is_file():
        return False
    say(f"Up to date: nothing changed since {display(out)}/ was built.")
    return True
