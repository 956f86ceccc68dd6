"""The build's private files (its manifest, the search stage's list of pages) are kept beside the
site, in `.site-build/`, never in the published folder; the marker that stays names the build, and
a record of another build is never read as this site's."""

import json
import shutil

import pytest
from click.testing import CliRunner

from catalogue.cli import main
from catalogue.publish.manifest import MANIFEST, MARKER, PRIVATE, SEARCH_PAGES, read_build, read_marker
from conftest import build_project
from test_incremental import clean_build, edit_title, files, written

RECORD = ".site-build"


def test_no_private_file_is_published_and_the_marker_names_the_build(built_site):
    published = {path.relative_to(built_site.out).as_posix() for path in built_site.out.rglob("*")}
    assert not published & set(PRIVATE)
    record = built_site.root / RECORD
    assert sorted(path.name for path in record.iterdir()) == sorted(PRIVATE)
    marker = built_site.out / MARKER
    assert marker.stat().st_size < 1024
    assert read_marker(built_site.out)["build"] == read_build(record)
    manifest = json.loads((record / MANIFEST).read_text(encoding="utf-8"))
    assert read_marker(built_site.out)["entries"] == [name for name in manifest["entries"] if name not in PRIVATE]
    assert ".nojekyll" in published


def test_an_edit_still_remakes_only_what_shows_it(tmp_path, seeds_builds):
    project = seeds_builds.copy(tmp_path / "p").root
    before = files(project / "site")
    edit_title(project / "content", "flashsinkhorn", "FlashSinkhorn, retitled once")
    second = build_project(project)
    assert 0 < written(second.output) < len(before) / 3
    assert not {path.name for path in (project / "site").iterdir()} & set(PRIVATE)
    assert files(project / "site") == clean_build(project, tmp_path)


@pytest.mark.parametrize("removed", [RECORD, "site"])
def test_a_build_after_the_record_or_the_site_is_deleted_makes_every_file(tmp_path, seeds_builds, removed):
    project = seeds_builds.copy(tmp_path / "p").root
    total = len([path for path in (project / "site").rglob("*") if path.is_file()])
    shutil.rmtree(project / removed)
    edit_title(project / "content", "flashsinkhorn", "FlashSinkhorn, retitled once")
    again = build_project(project)
    assert written(again.output) > total / 2  # with no record, no file is known to be up to date
    assert (project / RECORD / MANIFEST).is_file()
    assert files(project / "site") == clean_build(project, tmp_path)


def test_a_record_of_another_build_is_not_read(tmp_path, seeds_builds):
    project = seeds_builds.copy(tmp_path / "p").root
    total = len([path for path in (project / "site").rglob("*") if path.is_file()])
    other = seeds_builds.copy(tmp_path / "other").root
    edit_title(other / "content", "causalgame", "CausalGame, elsewhere")
    build_project(other)
    shutil.rmtree(project / RECORD)
    shutil.copytree(other / RECORD, project / RECORD)  # describes the other site
    assert read_build(project / RECORD) != read_marker(project / "site")["build"]
    edit_title(project / "content", "flashsinkhorn", "FlashSinkhorn, retitled once")
    again = build_project(project)
    assert written(again.output) > total / 2
    assert files(project / "site") == clean_build(project, tmp_path)


def test_a_site_built_with_its_records_inside_is_built_incrementally_without_them(tmp_path, seeds_builds):
    """A site of an earlier version (its manifest and page list in it, a marker naming no build):
    the next build reads them there, keeps what did not change and moves them out."""
    project = seeds_builds.copy(tmp_path / "p").root
    for name in PRIVATE:
        shutil.move(project / RECORD / name, project / "site" / name)
    (project / RECORD).rmdir()
    (project / "site" / MARKER).write_text(
        "A site built by paper-catalogue (python3 build.py); build and clean replace this folder whole.\n")
    before = files(project / "site")
    edit_title(project / "content", "flashsinkhorn", "FlashSinkhorn, retitled once")
    again = build_project(project)
    assert 0 < written(again.output) < len(before) / 3
    assert not {path.name for path in (project / "site").iterdir()} & set(PRIVATE)
    assert files(project / "site") == clean_build(project, tmp_path)
    edit_title(project / "content", "causalgame", "CausalGame, retitled once")  # from the older site, now the spare
    build_project(project)
    assert not {path.name for path in (project / "site").iterdir()} & set(PRIVATE)
    assert files(project / "site") == clean_build(project, tmp_path / "again")


@pytest.mark.parametrize("stranger", ["notes.txt", SEARCH_PAGES + ".bak"])
def test_a_record_folder_holding_files_not_ours_stops_the_build(tmp_path, seeds_builds, stranger):
    project = seeds_builds.copy(tmp_path / "p").root
    (project / RECORD / stranger).write_text("mine")
    before = files(project / "site")
    edit_title(project / "content", "flashsinkhorn", "FlashSinkhorn, retitled once")
    result = CliRunner().invoke(main, ["build", "--seeds", str(project / "seeds"), "--content",
                                       str(project / "content"), "--out", str(project / "site")])
    assert result.exit_code != 0
    assert f"{(project / RECORD).as_posix()}, where it keeps its build's records, holds files" in result.output
    assert (project / RECORD / stranger).read_text() == "mine" and files(project / "site") == before


def test_a_folder_not_ours_is_still_refused(tmp_path, seeds_builds):
    project = seeds_builds.copy(tmp_path / "p").root
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "index.html").write_text("my own page")
    result = CliRunner().invoke(main, ["build", "--seeds", str(project / "seeds"), "--content",
                                       str(project / "content"), "--out", str(foreign)])
    assert result.exit_code != 0 and "holds files this tool did not make (index.html)" in result.output
    assert [path.name for path in foreign.iterdir()] == ["index.html"]
    assert not (tmp_path / ".mine-build").exists()


def test_clean_removes_the_record_with_the_site(tmp_path, seeds_builds):
    project = seeds_builds.copy(tmp_path / "p").root
    result = CliRunner().invoke(main, ["clean", "--out", str(project / "site")])
    assert result.exit_code == 0, result.output
    assert not (project / "site").exists() and not (project / RECORD).exists()


def test_indexing_a_built_site_reads_its_page_list_from_the_record(tmp_path, seeds_builds):
    project = seeds_builds.copy(tmp_path / "p").root
    shutil.rmtree(project / "site" / "pagefind")
    result = CliRunner().invoke(main, ["index", "--out", str(project / "site")])
    assert result.exit_code == 0, result.output
    assert (project / "site" / "pagefind" / "shards.json").is_file()
    (project / RECORD / SEARCH_PAGES).unlink()
    result = CliRunner().invoke(main, ["index", "--out", str(project / "site")])
    assert result.exit_code != 0 and "missing or unreadable" in result.output
