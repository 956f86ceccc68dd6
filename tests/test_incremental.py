"""Incremental builds: nothing changed, nothing done; an edit remakes only the files that show
it; the result always equals a clean build, and the previous site is never changed in place."""

import json
import os
import re
import shutil
from dataclasses import replace
from pathlib import Path

from click.testing import CliRunner

from catalogue.cli import main
from catalogue.config import SiteConfig
from catalogue.content.paper_file import parse_paper_markdown, render_paper_markdown
from catalogue.content.rules import load_catalogue
from catalogue.site import views as paper_views
from catalogue.system import workers as workers_module
from catalogue.system.cache import Cache
from catalogue.system.workers import JOBS_VARIABLE
from catalogue.publish import staging
from catalogue.publish.files import link_tree, mirror_tree
from catalogue.publish.manifest import PRIVATE
from catalogue.publish.staging import CHANGES
from catalogue.site.render import KEPT_TYPES
from conftest import PROJECT, build_project, make_project, run_cli
from catalogue.routes import bucket, paper_folder, paper_page
from site_data import site_records

# Pagefind writes its filter files in a varying order (see test_build); they are compared by name.
VARYING = re.compile(r"pagefind/[^/]+/(filter/.*\.pf_filter|pagefind\..*\.pf_meta|pagefind-entry\.json)$")


def files(site: Path) -> dict[str, bytes | int]:
    """Every file's bytes by path; Pagefind's varying files (hash-named) only by how many there are."""
    found = {}
    for path in sorted(site.rglob("*")):
        relative = path.relative_to(site).as_posix()
        if path.is_file() and VARYING.search(relative):
            kind = re.sub(r"[0-9a-f]{7,}", "#", relative)
            found[kind] = found.get(kind, 0) + 1
        elif path.is_file():
            found[relative] = path.read_bytes()
    return found


def written(output: str) -> int:
    return int(re.search(r"(\d+) written", output)[1])


def edit_paper(content: Path, slug: str, **changes) -> None:
    path = content / "papers" / f"{slug}.md"
    paper = parse_paper_markdown(path.read_text(encoding="utf-8"), path.as_posix())
    path.write_text(render_paper_markdown(replace(paper, **changes)), encoding="utf-8")


def edit_title(content: Path, slug: str, title: str) -> None:
    edit_paper(content, slug, title=title)


def clean_build(project: Path, scratch: Path, *extra: str) -> dict[str, bytes]:
    """The same seeds and content built from nothing elsewhere (no previous site, no cache)."""
    copy = scratch / "clean"
    shutil.copytree(project / "seeds", copy / "seeds")
    shutil.copytree(project / "content", copy / "content", ignore=shutil.ignore_patterns(".cache", ".lock"))
    return files(build_project(copy, *extra).out)


def test_nothing_changed_means_nothing_done(tmp_path, seeds_builds):
    built = seeds_builds.copy(tmp_path / "p")
    project, site = built.root, built.out
    before = {p: p.stat().st_mtime_ns for p in site.rglob("*") if p.is_file()}
    again = build_project(project)
    assert "Up to date" in again.output and "Ingesting" not in again.output
    assert {p: p.stat().st_mtime_ns for p in site.rglob("*") if p.is_file()} == before


def test_after_an_edit_ingest_merged_with_or_without_writing_the_next_build_is_up_to_date(tmp_path, seeds_builds):
    """The fingerprint recorded is taken after ingest when it rewrote a content file, else the one
    taken before it, which stands for the content it left as it was: either is what the next build finds."""
    project = seeds_builds.copy(tmp_path / "p").root
    edit_title(project / "content", "flashsinkhorn", "FlashSinkhorn, retitled by hand")
    assert "1 updated" in build_project(project).output  # ingest wrote the file again in its own form
    assert "Up to date" in build_project(project).output
    path = project / "content" / "papers" / "flashsinkhorn.md"
    path.write_text(path.read_text(encoding="utf-8").replace("retitled by hand", "retitled again"), encoding="utf-8")
    merged = build_project(project)
    assert "0 updated, 1 with hand edits kept" in merged.output and "retitled again" in \
        (project / "site" / "papers" / bucket("flashsinkhorn") / "flashsinkhorn" / "index.html").read_text(encoding="utf-8")
    assert "Up to date" in build_project(project).output


def test_an_edit_remakes_only_what_shows_it_and_equals_a_clean_build(tmp_path, seeds_builds):
    first = seeds_builds.copy(tmp_path / "p")
    project, site = first.root, first.out
    snapshot = tmp_path / "snapshot"  # hard links to the first site's files: an in-place write would show
    shutil.copytree(site, snapshot, copy_function=os.link)
    before = files(snapshot)
    untouched = site / "papers" / bucket("causalgame") / "causalgame" / "index.html"
    inode = untouched.stat().st_ino

    edit_title(project / "content", "flashsinkhorn", "FlashSinkhorn, retitled by hand")
    second = build_project(project)
    assert "retitled by hand" in (site / "papers" / bucket("flashsinkhorn") / "flashsinkhorn" / "index.html").read_text(encoding="utf-8")
    assert 0 < written(second.output) < len(before) / 3  # its page, neighbours, lists, data files
    assert untouched.stat().st_ino == inode  # a page that does not show the paper was kept, not remade
    assert "Indexing for search" in second.output
    assert files(snapshot) == before
    assert files(site) == clean_build(project, tmp_path)


def test_the_next_edit_starts_from_the_replaced_site_and_equals_a_clean_build(tmp_path, seeds_builds):
    project = seeds_builds.copy(tmp_path / "p").root
    edit_title(project / "content", "flashsinkhorn", "FlashSinkhorn, retitled once")
    build_project(project)
    spare = project / ".site-spare"
    assert (spare / "papers" / bucket("flashsinkhorn") / "flashsinkhorn" / "index.html").is_file()  # the first site, kept
    edit_title(project / "content", "causalgame", "CausalGame, retitled too")
    build_project(project)  # its staging is the spare, brought in line with the site it replaces
    assert "retitled too" in (project / "site" / "papers" / bucket("causalgame") / "causalgame" / "index.html").read_text(encoding="utf-8")
    assert "retitled too" not in (spare / "papers" / bucket("causalgame") / "causalgame" / "index.html").read_text(encoding="utf-8")  # the second
    assert files(project / "site") == clean_build(project, tmp_path)


def build_with_a_broken_template(project: Path, tmp_path: Path, template: str):
    """A build after one more title edit, with `template` failing as it renders; the click Result (a failure)."""
    broken = tmp_path / "templates"
    shutil.copytree(PROJECT / "templates", broken)
    (broken / template).write_text("{% extends 'base.html' %}{% block main %}{{ no_such_thing }}{% endblock %}")
    edit_title(project / "content", "causalgame", "CausalGame, retitled too")
    result = CliRunner().invoke(main, ["build", "--seeds", str(project / "seeds"), "--content", str(project / "content"),
                                       "--out", str(project / "site"), "--templates", str(broken)])
    assert result.exit_code != 0 and "no_such_thing" in result.output
    return result


def test_a_build_from_the_spare_that_fails_leaves_the_site_as_it_was(tmp_path, seeds_builds):
    project = seeds_builds.copy(tmp_path / "p").root
    edit_title(project / "content", "flashsinkhorn", "FlashSinkhorn, retitled once")
    build_project(project)
    assert (project / ".site-spare").is_dir()
    before = files(project / "site")
    build_with_a_broken_template(project, tmp_path, "paper.html")
    assert files(project / "site") == before
    assert [p.name for p in project.iterdir() if p.name.startswith(".site-")] == [".site-build"]  # its staging, the spare, went
    build_project(project)
    assert files(project / "site") == clean_build(project, tmp_path)


def test_a_build_that_fails_while_pagefind_runs_leaves_the_site_as_it_was(tmp_path, seeds_builds):
    """Pagefind starts once the paper pages are written, beside the map: a map that fails then
    waits for it, and leaves neither its staging nor its scratch bundles."""
    project = seeds_builds.copy(tmp_path / "p").root
    edit_title(project / "content", "flashsinkhorn", "FlashSinkhorn, retitled once")
    build_project(project)
    before = files(project / "site")
    result = build_with_a_broken_template(project, tmp_path, "map.html")
    assert "Rendering and writing the map" in result.output  # it failed there, after the paper pages
    assert files(project / "site") == before
    assert [p.name for p in project.iterdir() if p.name.startswith(".site-")] == [".site-build"]
    build_project(project)
    assert files(project / "site") == clean_build(project, tmp_path)


def test_a_file_put_into_the_site_is_not_carried_into_the_next_site(tmp_path, seeds_builds):
    """The next staging is the spare brought in line with what the last build wrote (its record),
    or with site/ whole when there is none: either way a file put into site/ by hand is not kept,
    and one removed from it by hand is made again."""
    project = seeds_builds.copy(tmp_path / "p").root
    for attempt, title in enumerate(("FlashSinkhorn, retitled once", "FlashSinkhorn, retitled twice")):
        edit_title(project / "content", "flashsinkhorn", title)
        build_project(project)
        assert (project / ".site-spare").is_dir()
        (project / "site" / "papers" / bucket("flashsinkhorn") / "flashsinkhorn" / "notes.txt").write_text("by hand")
        (project / "site" / "papers" / bucket("flashsinkhorn") / "flashsinkhorn" / "index.html").unlink()  # written by that build, gone by hand
        if attempt:  # the record is of another site: compared whole
            (project / ".site-spare" / CHANGES).write_text('{"format": 2, "marker": [0], "changed": []}')
        edit_title(project / "content", "causalgame", f"CausalGame, retitled {attempt}")
        build_project(project)
        assert not (project / "site" / "papers" / bucket("flashsinkhorn") / "flashsinkhorn" / "notes.txt").exists()
        assert files(project / "site") == clean_build(project, tmp_path / str(attempt))


def test_the_spare_records_what_differs_from_the_site_and_the_next_staging_follows_it(tmp_path, seeds_builds,
                                                                                      monkeypatch):
    project = seeds_builds.copy(tmp_path / "p").root
    edit_title(project / "content", "flashsinkhorn", "FlashSinkhorn, retitled once")
    build_project(project)
    edit_title(project / "content", "causalgame", "CausalGame, retitled once")
    built = build_project(project)
    record = json.loads((project / ".site-spare" / CHANGES).read_text(encoding="utf-8"))
    assert written(built.output) < len(record["changed"]) < written(built.output) + 5  # the written, the records
    assert paper_page("causalgame") in record["changed"] and paper_page("flashsinkhorn") not in record["changed"]
    spare = project / ".site-spare"
    differing = {p.relative_to(spare).as_posix() for p in spare.rglob("*") if p.is_file() and not p.is_relative_to(
        spare / "pagefind") and not p.is_relative_to(spare / "assets") and p.name != CHANGES and not (
        (project / "site" / p.relative_to(spare)).is_file() and (project / "site" / p.relative_to(spare)).samefile(p))}
    assert differing <= set(record["changed"])  # whatever differs (pagefind/ and assets/ aside) is listed
    mirror, compared = staging.mirror_tree, []  # the trees compared whole: only the folders other stages write, by the record
    monkeypatch.setattr(staging, "mirror_tree", lambda source, target: compared.append(source.name) or mirror(source, target))
    edit_title(project / "content", "egotsr", "EgoTSR, retitled once")
    build_project(project)  # its staging: the spare, brought in line by the record
    assert sorted(compared) == ["assets", "pagefind"]
    assert files(project / "site") == clean_build(project, tmp_path)
    manifest = json.loads((project / ".site-build" / ".build-manifest.json").read_text(encoding="utf-8"))
    assert manifest["sizes"] == {path: (project / ("site" if path not in PRIVATE else ".site-build") / path).stat().st_size
                                 for path in manifest["files"]}


def test_a_record_that_cannot_be_written_leaves_the_build_done_and_the_next_one_whole(tmp_path, seeds_builds,
                                                                                     monkeypatch):
    project = seeds_builds.copy(tmp_path / "p").root
    edit_title(project / "content", "flashsinkhorn", "FlashSinkhorn, retitled once")
    build_project(project)

    def unreadable(path: Path) -> list[int]:
        raise OSError(5, "Input/output error", str(path))
    edit_title(project / "content", "causalgame", "CausalGame, retitled once")
    with monkeypatch.context() as patched:
        patched.setattr(staging, "_identity", unreadable)
        build_project(project)  # the site is in place; only its record is missing
    assert not (project / ".site-spare" / CHANGES).exists()
    assert [p.name for p in (project / ".site-spare").iterdir() if p.name.startswith(CHANGES)] == []
    edit_title(project / "content", "egotsr", "EgoTSR, retitled once")
    build_project(project)
    assert files(project / "site") == clean_build(project, tmp_path)


def test_mirror_tree_brings_a_mirror_of_an_older_tree_in_line(tmp_path):
    source, target, snapshot = tmp_path / "source", tmp_path / "target", tmp_path / "snapshot"
    for path, text in (("a", "a"), ("d/b", "b"), ("d/e/c", "c"), ("f", "f"), ("g/h", "h")):
        (source / path).parent.mkdir(parents=True, exist_ok=True)
        (source / path).write_text(text)
    link_tree(source, target)
    shutil.copytree(source, snapshot, copy_function=os.link)  # the older tree's files, to see any written through
    (source / "a").unlink()  # gone
    (source / "d" / "b").unlink()
    (source / "d" / "b").write_text("b, new")  # replaced by another file
    shutil.rmtree(source / "d" / "e")
    (source / "d" / "e").write_text("a file where a folder was")
    (source / "f").unlink()
    (source / "f").mkdir()  # a folder where a file was
    (source / "f" / "inside").write_text("i")
    (source / "x" / "y").mkdir(parents=True)  # new folders, one empty
    (source / "x" / "z").write_text("z")
    listed = mirror_tree(source, target)

    def entries(root: Path) -> dict[str, int | None]:
        return {p.relative_to(root).as_posix(): None if p.is_dir() else p.stat().st_ino for p in root.rglob("*")}
    assert entries(target) == entries(source)  # the same tree, every file the source's own
    assert sorted(listed) == sorted(path for path, inode in entries(target).items() if inode is not None)
    assert {path: p.read_text() for path, p in ((q.relative_to(snapshot).as_posix(), q) for q in snapshot.rglob("*"))
            if p.is_file()} == {"a": "a", "d/b": "b", "d/e/c": "c", "f": "f", "g/h": "h"}


def test_template_edits_and_pruned_papers_reach_the_site(tmp_path):
    project = make_project(tmp_path / "p")
    templates = tmp_path / "templates"
    shutil.copytree(PROJECT / "templates", templates)
    build_project(project, "--templates", str(templates), "--no-search")
    base = templates / "base.html"
    base.write_text(base.read_text(encoding="utf-8").replace("</footer>", "<p>Hosted by us</p></footer>"),
                    encoding="utf-8")
    seed = sorted((project / "seeds").glob("*.txt"))[0]
    paragraphs = seed.read_text(encoding="utf-8").split("\n\n")
    seed.write_text("\n\n".join(paragraphs[:-1]) + "\n", encoding="utf-8")  # the last paper leaves the list
    run_cli("ingest", "--seeds", str(project / "seeds"), "--content", str(project / "content"), "--prune", "--allow-removals")
    rebuilt = build_project(project, "--templates", str(templates), "--no-search")
    pages = [page.read_text(encoding="utf-8") for page in rebuilt.out.rglob("*.html")]
    framed = [page for page in pages if '<meta http-equiv="refresh"' not in page]  # forwarding pages have no frame
    assert framed and all("Hosted by us" in page for page in framed)
    assert len(list((rebuilt.out / "papers").glob("*/*/index.html"))) == 37
    assert "1 removed" in rebuilt.output or re.search(r"[1-9]\d* removed", rebuilt.output)
    assert files(rebuilt.out) == clean_build(project, tmp_path, "--templates", str(templates), "--no-search")


def test_a_lost_cache_changes_nothing(tmp_path, seeds_builds):
    built = seeds_builds.copy(tmp_path / "p", "--no-search")
    project, first = built.root, files(built.out)
    shutil.rmtree(project / "content" / ".cache")
    shutil.rmtree(project / "site")
    assert files(build_project(project, "--no-search").out) == first


def test_author_pages_show_exactly_their_papers_and_equal_a_clean_build(tmp_path, seeds_builds):
    project = seeds_builds.copy(tmp_path / "p", "--no-search").root
    content = project / "content"
    edit_paper(content, "egotsr", authors=("Ada Lovelace", "Alan Turing"))
    edit_paper(content, "flashsinkhorn", authors=("ada  lovelace",))
    site = build_project(project, "--no-search").out
    # each on the page of their bucket, which holds no one else: the seeds have no other authors
    ada, alan = site / "authors" / bucket("ada-lovelace") / "index.html", site / "authors" / bucket("alan-turing") / "index.html"
    assert ada != alan and paper_page("flashsinkhorn") in ada.read_text(encoding="utf-8")
    inode = alan.stat().st_ino

    edit_title(content, "flashsinkhorn", "FlashSinkhorn, retitled by hand")
    build_project(project, "--no-search")
    assert "retitled by hand" in ada.read_text(encoding="utf-8")  # it lists that paper
    assert alan.stat().st_ino == inode  # it does not: kept, not remade
    assert files(site) == clean_build(project, tmp_path / "first", "--no-search")

    edit_paper(content, "egotsr", authors=("Ada Lovelace",))  # Alan has no paper left, Ada's spelling is a tie
    build_project(project, "--no-search")
    assert not alan.exists() and '<section id="ada-lovelace"><h2>Ada Lovelace</h2>' in ada.read_text(encoding="utf-8")
    assert files(site) == clean_build(project, tmp_path / "second", "--no-search")


def test_an_edit_on_many_lists_an_added_and_a_removed_paper_equal_a_clean_build(tmp_path, seeds_builds):
    """The views of unchanged papers come from the cache (paper_views.view_papers); a paper that moves
    between topics and authors, a new paper and one gone from the seeds reach every list and data file."""
    project = seeds_builds.copy(tmp_path / "p", "--no-search").root
    content = project / "content"
    edit_paper(content, "flashsinkhorn", title="FlashSinkhorn, retitled by hand",
               topics=("optimization", "learning-theory"), authors=("Ada Lovelace", "Alan Turing", "Grace Hopper"))
    first, second = sorted((project / "seeds").glob("*.txt"))
    paragraphs = first.read_text(encoding="utf-8").split("\n\n")
    first.write_text("\n\n".join(paragraphs[:-1]) + "\n", encoding="utf-8")  # its last paper leaves the list
    added = json.loads((PROJECT / "tests" / "data" / "corpus_sample.jsonl").read_text(encoding="utf-8").split("\n")[0])
    second.write_text(second.read_text(encoding="utf-8").rstrip("\n") + "\n\n" + " ".join(added["abstract"].split())
                      + "\n", encoding="utf-8")  # another list gains a paper
    run_cli("ingest", "--seeds", str(project / "seeds"), "--content", str(content), "--prune", "--allow-removals")
    site = build_project(project, "--no-search").out
    page = (site / "authors" / bucket("grace-hopper") / "index.html").read_text(encoding="utf-8")
    records = json.dumps(site_records(site))
    assert "retitled by hand" in page and "retitled by hand" in records
    assert "Estimating the expected output quality" in records
    assert len(list((site / "papers").glob("*/*/index.html"))) == 38  # one paper gone, one new
    assert files(site) == clean_build(project, tmp_path, "--no-search")


def test_views_are_made_again_only_for_what_changed(tmp_path, seeds_builds, monkeypatch):
    """A paper's view parts are kept by a key of the paper, the settings and this code: an edited
    paper is viewed again alone, another base URL or other code views every paper again, and a
    view from the cache equals one made from nothing."""
    content = seeds_builds.copy(tmp_path / "p", "--no-search").content
    cache, asked = Cache(tmp_path / "cache.sqlite", KEPT_TYPES), []
    converted = paper_views.converted_texts

    def recording(papers, cache):
        papers = list(papers)
        asked.append({paper.slug for paper in papers})
        return converted(papers, cache)
    monkeypatch.setattr(paper_views, "converted_texts", recording)

    def views(config=SiteConfig()):
        asked.clear()
        return paper_views.view_papers(load_catalogue(content, cache), config, cache)
    everyone = {view.paper.slug for view in views()}
    assert asked == [everyone] and len(everyone) > 30
    assert views() and asked == []
    edit_title(content, "flashsinkhorn", "FlashSinkhorn, retitled by hand")
    made = views()
    assert asked == [{"flashsinkhorn"}]
    assert made == paper_views.view_papers(load_catalogue(content, Cache(None, KEPT_TYPES)), SiteConfig(), Cache(None, KEPT_TYPES))
    hosted = SiteConfig(base_url="https://example.org/")
    assert "https://example.org/" + paper_folder("flashsinkhorn") in next(v.bibtex for v in views(hosted) if v.paper.slug == "flashsinkhorn")
    assert asked == [everyone]
    monkeypatch.setattr(paper_views, "code_version", lambda module: "other code")
    assert views(hosted) and asked == [everyone]


def test_views_made_by_workers_equal_those_made_in_one_process(tmp_path, seeds_builds, monkeypatch):
    content = seeds_builds.copy(tmp_path / "p", "--no-search").content
    catalogue = load_catalogue(content, Cache(None, KEPT_TYPES))
    made_in = []
    workers = workers_module.run_in_workers

    def counted(*args, **kwargs):
        made_in.append("workers")
        return workers(*args, **kwargs)
    monkeypatch.setattr(workers_module, "run_in_workers", counted)
    alone = paper_views.view_papers(catalogue, SiteConfig(), Cache(None, KEPT_TYPES))
    assert made_in == []
    monkeypatch.setattr(paper_views, "PARALLEL_CONVERSION_FROM", 10)
    monkeypatch.setenv(JOBS_VARIABLE, "2")
    shared = paper_views.view_papers(catalogue, SiteConfig(), Cache(None, KEPT_TYPES))
    assert made_in == ["workers", "workers"]  # the texts converted, then the parts made
    assert shared == alone and len(alone) > 30


def test_a_fresh_checkout_with_the_kept_records_restored_builds_incrementally(tmp_path, seeds_builds):
    """CI keeps content/.cache, site/ and .site-build/ between runs (tests/test_hosting.py checks that
    the Pages workflow and the Netlify plugin name them). In a fresh checkout elsewhere, where every
    other file is new (new inodes and times), the build finds nothing changed; a pushed edit remakes
    only what shows it, and the site equals a clean build: a kept record is a shortcut, never a source."""
    built = seeds_builds.built()
    checkout = tmp_path / "checkout"
    shutil.copytree(built.seeds, checkout / "seeds", copy_function=shutil.copy)
    shutil.copytree(built.content, checkout / "content", copy_function=shutil.copy,
                    ignore=shutil.ignore_patterns(".cache", ".lock"))
    for kept in (built.content / ".cache", built.out, built.out.with_name(f".{built.out.name}-build")):
        shutil.copytree(kept, checkout / kept.relative_to(built.root), symlinks=True)  # as a tar restores them
    assert "Up to date" in build_project(checkout).output
    edit_title(checkout / "content", "flashsinkhorn", "FlashSinkhorn, retitled in a push")
    pushed = build_project(checkout)
    assert 0 < written(pushed.output) < len(files(pushed.out)) / 2, pushed.output
    assert files(pushed.out) == clean_build(checkout, tmp_path)
