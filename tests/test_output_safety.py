"""User mistakes and faults around the site folder: a build or clean never writes into, or
removes, what the tool did not make; one build owns its staging folder; faults the user or
the system can cause end in one line and a non-zero exit, the previous site kept.

Each scenario runs in a scratch project (seeds/, content/ from one ingest of two abstracts,
a rendered site/, and files a user has: build.py, README.md, .git/, Documents/) and asserts
the exact files before and after, the message and the exit code."""

from __future__ import annotations

import errno
import functools
import http.server
import io
import os
import re
import shutil
import socket
import threading
import urllib.error
import urllib.request
from pathlib import Path

import json

import pytest
from click.testing import CliRunner, Result
from hypothesis import given
from hypothesis import strategies as st

from catalogue import cli
from catalogue.publish import manifest as site_manifest
from catalogue.cli import main
from catalogue.errors import CatalogueError
from catalogue.system.faults import fault_message
from catalogue.publish.guard import Folder, Holds, read_folder, refuse_site_folder
from catalogue.publish.site_folder import SiteFolder
from catalogue.site.bundle import is_a_bundle
from catalogue.publish.files import write_file
from catalogue.publish.manifest import MANIFEST, MARKER, PRIVATE, SEARCH_PAGES
from catalogue.publish.staging import site_lock, staged_site
from catalogue.serve.handler import QuietHandler
from conftest import make_project, run_cli

SEED = ("ICML 2026\n\n"
        "We propose FooNet, a method that learns sparse features from raw audio. Experiments on three "
        "benchmarks show it improves accuracy over strong baselines.\n\n"
        "We present BarGraph, a graph neural network for molecule property prediction. It outperforms "
        "prior work on several datasets while using fewer parameters.\n")
BUILD = ["build", "--seeds", "seeds", "--content", "content", "--no-search", "--out"]
RENDER = ["render", "--content", "content", "--out"]
WRITE_ADVICE = "choose a new or empty folder with --out"
CLEAN_ADVICE = "nothing was removed"


@pytest.fixture(scope="module")
def scratch_project(tmp_path_factory) -> Path:
    """Ingested and rendered once; each test works on a copy."""
    root = make_project(tmp_path_factory.mktemp("safety") / "p")
    shutil.rmtree(root / "seeds")
    (root / "seeds").mkdir()
    (root / "seeds" / "icml.txt").write_text(SEED, encoding="utf-8")
    run_cli("ingest", "--seeds", str(root / "seeds"), "--content", str(root / "content"))
    run_cli("render", "--content", str(root / "content"), "--out", str(root / "site"))
    (root / "build.py").write_text("from catalogue.cli import main\nmain()\n")
    (root / "README.md").write_text("# My catalogue\n")
    (root / ".git").mkdir()
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (root / "Documents").mkdir()
    (root / "Documents" / "letter.txt").write_text("Dear reader,\n")
    (root / "notes.txt").write_text("my notes\n")
    (root / "link-to-content").symlink_to("content", target_is_directory=True)
    return root


@pytest.fixture
def project(scratch_project, tmp_path, monkeypatch) -> Path:
    """A fresh copy of the scratch project, the working directory (so paths are given as a user would)."""
    root = tmp_path / "p"
    shutil.copytree(scratch_project, root, symlinks=True)
    monkeypatch.chdir(root)
    return root


def tree(root: Path) -> dict[str, bytes | str]:
    """Every entry under root: a file's bytes, a link's target, a folder as "folder"."""
    found: dict[str, bytes | str] = {}
    for folder, folders, files in os.walk(root):
        for name in folders + files:
            path = Path(folder) / name
            relative = path.relative_to(root).as_posix()
            if path.is_symlink():
                found[relative] = f"-> {os.readlink(path)}"
            elif path.is_dir():
                found[relative] = "folder"
            elif not path.is_file():
                found[relative] = "special file"  # a FIFO: reading it would wait forever
            else:
                found[relative] = path.read_bytes()
    return found


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def assert_one_line_error(result: Result, message: str, code: int = 1) -> None:
    """The whole output is the one error line (no traceback), and the exit code is `code`."""
    assert result.output == f"Error: {message}\n", result.output
    assert result.exit_code == code
    assert isinstance(result.exception, SystemExit)


# --- build and render refuse folders that are not theirs, before writing anything --------------

@pytest.mark.parametrize("out, reason", [
    (".", "it holds the content folder ({p}/content)"),
    ("content", "it is the content folder"),
    ("seeds", "it is the seeds folder"),
    ("..", "it holds the content folder ({p}/content)"),
    ("Documents", "it holds files this tool did not make (letter.txt)"),
    ("content/site", "it is inside the content folder ({p}/content), which would read or publish the site as its own"),
    ("seeds/site", "it is inside the seeds folder ({p}/seeds), which would read or publish the site as its own"),
    ("link-to-content", "it is the content folder"),
])
def test_build_refuses_a_folder_that_is_not_a_site_before_writing(project, out, reason):
    before = tree(project.parent)
    result = invoke(*BUILD, out)
    assert_one_line_error(result, f"{out}: refusing to write the site there: "
                                  f"{reason.format(p=project.resolve())}; {WRITE_ADVICE}")
    assert tree(project.parent) == before


@pytest.mark.parametrize("command", [BUILD, RENDER, ["index", "--out"], ["clean", "--out"]])
def test_the_root_folder_is_refused(project, monkeypatch, command):
    """Only the refusal is asserted: should the guard ever fail, the locks (the first writes of
    every command) stop the command instead of letting it touch /."""
    def no_writing(*_):
        raise AssertionError("the command went past the guard")

    monkeypatch.setattr(cli, "exclusive", no_writing)
    monkeypatch.setattr(SiteFolder, "lock", no_writing)
    doing = "refusing to remove it" if command[0] == "clean" else "refusing to write the site there"
    advice = CLEAN_ADVICE if command[0] == "clean" else WRITE_ADVICE
    assert_one_line_error(invoke(*command, "/"), f"/: {doing}: it is the root folder; {advice}")


def test_a_file_given_as_out_is_refused(project):
    before = tree(project)
    result = invoke(*RENDER, "notes.txt")
    assert result.exit_code == 2 and "Directory 'notes.txt' is a file" in result.output
    assert tree(project) == before


def test_the_home_folder_is_refused_even_when_empty(project, tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    before = tree(tmp_path)
    assert_one_line_error(invoke(*RENDER, str(home)),
                          f"{home}: refusing to write the site there: it is your home folder; {WRITE_ADVICE}")
    assert tree(tmp_path) == before


def test_a_folder_holding_the_seeds_is_refused(project):
    (project / "lists").mkdir()
    (project / "seeds").rename(project / "lists" / "2026")
    before = tree(project)
    result = invoke("build", "--seeds", "lists/2026", "--content", "content", "--no-search", "--out", "lists")
    assert_one_line_error(result, f"lists: refusing to write the site there: it holds the seeds folder "
                                  f"({project.resolve()}/lists/2026); {WRITE_ADVICE}")
    assert tree(project) == before


def test_a_marked_project_folder_is_still_refused(project):
    """The marker makes a folder a candidate, never the project or what holds content/."""
    (project / MARKER).write_text("planted\n")
    before = tree(project)
    assert_one_line_error(invoke(*BUILD, "."), f".: refusing to write the site there: it holds the content "
                                               f"folder ({project.resolve()}/content); {WRITE_ADVICE}")
    assert_one_line_error(invoke("clean", "--out", "."),
                          ".: refusing to remove it: it holds files this tool did not make "
                          f"(.git, .site-build, Documents, ...); {CLEAN_ADVICE}")
    assert tree(project) == before


def test_a_site_holding_the_users_files_is_refused(project):
    (project / "site" / "CNAME").write_text("papers.example.org\n")
    before = tree(project)
    assert_one_line_error(invoke(*RENDER, "site"), "site: refusing to write the site there: it holds files "
                                                   f"this tool did not make (CNAME); {WRITE_ADVICE}")
    assert tree(project) == before


@pytest.mark.parametrize("prepare", ["absent", "empty"])
def test_an_absent_or_empty_folder_gets_a_marked_site(project, prepare):
    if prepare == "empty":
        (project / "public").mkdir()
    before = tree(project)
    result = invoke(*RENDER, "public")
    assert result.exit_code == 0, result.output
    assert "Rendered 2 papers" in result.output and "-> public/index.html" in result.output
    after = tree(project)
    new = {path for path in without_cache(after) if path not in before}  # the cache's own files may come and go
    record = {".public-build", *(f".public-build/{name}" for name in PRIVATE)}  # the build's, beside the site
    assert {path for path in new if not path.startswith("public/")} == ({"public"} if prepare == "absent" else set()) | record
    assert after[f"public/{MARKER}"].startswith(site_manifest.MARKER_TEXT.encode())
    assert read_folder(project / "public").holds is Holds.OUR_SITE
    assert without_cache({path: after[path] for path in before}) == without_cache(before)  # nothing else changed


def test_a_site_built_before_the_marker_existed_is_accepted(project):
    """Its manifest and page list in it (where builds kept them then), no marker: the next build moves them out."""
    (project / "site" / MARKER).unlink()
    for name in PRIVATE:
        shutil.move(project / ".site-build" / name, project / "site" / name)
    (project / ".site-build").rmdir()
    manifest = project / "site" / MANIFEST
    manifest.write_text(manifest.read_text().replace('"fingerprint": "', '"fingerprint": "older'))
    before = tree(project)
    result = invoke(*RENDER, "site")
    assert result.exit_code == 0, result.output
    after = tree(project)
    assert after[f"site/{MARKER}"].startswith(site_manifest.MARKER_TEXT.encode())
    assert not {f"site/{name}" for name in PRIVATE} & after.keys()
    assert after[f".site-build/{SEARCH_PAGES}"] == before[f"site/{SEARCH_PAGES}"]
    private = {f"site/{name}" for name in PRIVATE}
    assert without_cache({path: after[path] for path in before if path not in private}) == without_cache(
        {path: value for path, value in before.items() if path not in private})


# --- a mistyped --content over another catalogue's site --------------------------------------------

NEW_CONTENT_REFUSED = ("contnet/: no such content folder, and site/ holds the site built from content/; check "
                       "--content, or choose another --out to start a new catalogue (nothing was written)")


@pytest.mark.parametrize("command", [
    ["build", "--seeds", "seeds", "--content", "contnet", "--no-search", "--out", "site"],
    ["render", "--content", "contnet", "--out", "site"],
])
def test_a_missing_content_folder_over_a_site_built_from_another_is_refused(project, command):
    before = tree(project.parent)
    assert_one_line_error(invoke(*command), NEW_CONTENT_REFUSED)
    assert tree(project.parent) == before


def test_the_site_names_its_content_folder_as_seen_from_itself(project):
    """Relative, so that a published site names no one's folders, and a moved project still holds."""
    assert site_manifest.read_manifest(project / "site")["content"] == "../content"
    assert site_manifest.built_from(project / "site") == (project / "content").resolve()


@pytest.mark.parametrize("out", ["public", "empty"])
def test_a_new_catalogue_into_a_new_or_empty_folder_is_built(project, out):
    (project / "empty").mkdir()
    result = invoke("build", "--seeds", "seeds", "--content", "fresh", "--no-search", "--out", out)
    assert result.exit_code == 0, result.output
    assert "Built 2 papers" in result.output and (project / "fresh" / "topics.yaml").is_file()
    assert site_manifest.built_from(project / out) == (project / "fresh").resolve()


def test_the_content_folder_a_site_was_built_from_may_start_again(project):
    shutil.rmtree(project / "content")
    result = invoke(*BUILD, "site")
    assert result.exit_code == 0, result.output
    assert "Built 2 papers" in result.output


def test_a_site_whose_manifest_does_not_name_its_content_folder_is_not_refused(project):
    manifest = project / ".site-build" / MANIFEST
    manifest.write_text(manifest.read_text().replace('"content": "../content",\n', ""))
    assert site_manifest.built_from(project / "site") is None
    result = invoke("build", "--seeds", "seeds", "--content", "contnet", "--no-search", "--out", "site")
    assert result.exit_code == 0, result.output
    assert site_manifest.built_from(project / "site") == (project / "contnet").resolve()


@pytest.mark.parametrize("fingerprint", ["0123abcd" * 4, None])
def test_the_fingerprint_is_read_from_the_manifests_end_as_written(tmp_path, fingerprint):
    files = {f"papers/p{n}/index.html": f"{n:032x}" for n in range(2000)} | {"fingerprint": "not-the-build's"}
    site_manifest.write_manifest(tmp_path, fingerprint, files)
    assert site_manifest.read_fingerprint(tmp_path) == fingerprint == site_manifest.read_manifest(tmp_path)["fingerprint"]


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.text(),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
                           max_leaves=20)


@given(JSON_VALUES)
def test_the_manifests_lines_are_json_dumps_with_indent_0(value):
    assert site_manifest.lines_json(value) == json.dumps(value, indent=0)


def test_a_manifest_of_another_form_gives_its_fingerprint_read_whole(tmp_path):
    (tmp_path / MANIFEST).write_text('{"fingerprint": "abc1", "files": {"index.html": "x"}}')
    assert site_manifest.read_fingerprint(tmp_path) == "abc1"
    (tmp_path / MANIFEST).write_text('{"files": {}, "fingerprint": "abc1"')  # cut short: no fingerprint
    assert site_manifest.read_fingerprint(tmp_path) is None
    assert site_manifest.read_fingerprint(tmp_path / "nothing") is None


def test_the_guard_reads_the_manifests_beginning_only(tmp_path, monkeypatch):
    site = tmp_path / "site"
    site.mkdir()
    for name in ("index.html", MARKER):
        (site / name).write_text("x")
    site_manifest.write_manifest(site, "abc1", {"index.html": "1", "papers/a/index.html": "2", "papers/b/index.html": "3"})
    assert site_manifest.read_manifest_entries(site) == ["index.html", "papers"]
    monkeypatch.setattr("catalogue.publish.guard.read_manifest", lambda path: pytest.fail("read whole"))
    assert read_folder(site).holds is Holds.OUR_SITE
    (site / "papers").mkdir()
    (site / "notes.txt").write_text("mine")
    assert read_folder(site) == Folder(Holds.OTHER_FILES, ("notes.txt",))


def test_a_manifest_that_does_not_begin_with_its_entries_is_read_whole(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("x")  # no marker: only a valid manifest makes it ours
    (site / MANIFEST).write_text('{"files": {"index.html": "1"}, "fingerprint": "abc1"}')
    assert site_manifest.read_manifest_entries(site) is None and read_folder(site).holds is Holds.OUR_SITE
    (site / MANIFEST).write_text('{\n"entries": ["index.html", "pap')  # cut short
    assert site_manifest.read_manifest_entries(site) is None and read_folder(site).holds is Holds.OTHER_FILES


def test_index_refuses_a_folder_it_did_not_build(project):
    (project / "Documents" / "index.html").write_text("<p>mine</p>")
    before = tree(project)
    assert_one_line_error(invoke("index", "--out", "Documents"),
                          "Documents: refusing to write the site there: it holds files this tool did not make "
                          f"(index.html, letter.txt); {WRITE_ADVICE}")
    assert tree(project) == before


# --- clean removes only a site this tool built --------------------------------------------------

@pytest.mark.parametrize("out, strangers", [
    (".", ".git, .site-build, Documents, ..."),
    ("content", ".cache, .derived.json, .ingested.json, ..."),
    ("seeds", "icml.txt"),
    ("Documents", "letter.txt"),
])
def test_clean_refuses_what_it_did_not_build(project, out, strangers):
    before = tree(project)
    assert_one_line_error(invoke("clean", "--out", out), f"{out}: refusing to remove it: it holds files this tool "
                                                         f"did not make ({strangers}); {CLEAN_ADVICE}")
    assert tree(project) == before


def test_clean_removes_a_site_it_built_and_dead_builds_staging(project):
    (project / ".site-staging-site-999999999").mkdir()  # left by a build that was killed
    (project / ".site-staging-site-999999999" / "index.html").write_text("half")
    (project / ".site-staging-site-2-999999999").mkdir()  # another folder's (site-2): not ours to judge
    shutil.copytree(project / "site", project / ".site-spare")  # the site a build replaced
    before = tree(project)
    result = invoke("clean", "--out", "site")
    assert result.exit_code == 0 and result.output == "Removed site/\n"
    assert tree(project) == {path: value for path, value in before.items()
                             if not path.startswith(("site", ".site-staging-site-999999999", ".site-spare", ".site-build"))
                             or path.startswith(".site-staging-site-2-")}


def test_a_folder_named_as_the_spare_that_is_not_ours_is_left_alone(project):
    (project / ".site-spare").mkdir()
    (project / ".site-spare" / "notes.txt").write_text("mine")
    for _ in range(2):  # the second build would start from a spare of its own
        result = invoke(*BUILD, "site")
        assert result.exit_code == 0, result.output
    assert [p.name for p in (project / ".site-spare").iterdir()] == ["notes.txt"]
    assert invoke("clean", "--out", "site").exit_code == 0
    assert [p.name for p in (project / ".site-spare").iterdir()] == ["notes.txt"]


@pytest.mark.parametrize("out", ["nowhere/site", "Documents/site"])
def test_clean_of_an_absent_folder_removes_nothing(project, out):
    before = tree(project)
    result = invoke("clean", "--out", out)
    assert result.exit_code == 0 and result.output == f"Nothing to remove: {out}/ does not exist\n"
    assert tree(project) == before


def test_clean_of_an_absent_site_removes_a_dead_builds_staging(project):
    shutil.rmtree(project / "site")
    (project / ".site-staging-site-999999999").mkdir()
    before = tree(project)
    result = invoke("clean", "--out", "site")
    assert result.exit_code == 0 and result.output == "Nothing to remove: site/ does not exist\n"
    assert tree(project) == {path: value for path, value in before.items()
                             if not path.startswith((".site-staging-site-999999999", ".site-build"))}


# --- one build owns its staging folder -----------------------------------------------------------

def test_a_second_build_into_the_same_folder_refuses_and_the_first_keeps_its_staging(project):
    with site_lock(project / "site", "site"):  # the first build, still running
        staging = project / f".site-staging-site-{os.getpid()}"
        staging.mkdir()
        (staging / "index.html").write_text("being written")
        before = tree(project)
        result = invoke(*RENDER, "site")
        assert_one_line_error(result, f"another build is writing site/ (process {os.getpid()}); "
                                      "run again when it has finished")
        assert tree(project) == before
        result = invoke("clean", "--out", "site")
        assert_one_line_error(result, f"another build is writing site/ (process {os.getpid()}); "
                                      "run again when it has finished")
        assert tree(project) == before


def test_a_dead_builds_staging_is_removed_by_the_next_build(project):
    for stale in (".site-staging-site-999999999", ".site-staging-site-999999999-old"):
        (project / stale).mkdir()
        (project / stale / "index.html").write_text("half")
    result = invoke(*BUILD, "site")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in project.iterdir() if p.name.startswith(".site-staging")) == []


def test_an_incomplete_staged_site_is_never_swapped_in(project):
    before = tree(project)
    with pytest.raises(CatalogueError, match=r"the new site is incomplete \(index.html, .build-manifest.json "
                                             r"missing\); the previous site is kept"):
        with site_lock(project / "site", "site"), staged_site(project / "site") as staged:
            staging = staged.path
            (staging / "index.html").unlink()  # as if another process had removed what was written
            (staging / MANIFEST).unlink()
            write_file(staging, "papers/x/index.html", "new")
    assert tree(project) == before


# --- serve ---------------------------------------------------------------------------------------

def test_serve_on_a_busy_port_says_so_in_one_line(project):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = invoke("serve", "--out", "site", "--port", str(port))
    assert_one_line_error(result, f"port {port} is already in use (another server?); choose another with --port, "
                                  f"e.g. --port {port + 1}")


def test_serve_answers_unknown_addresses_with_the_sites_404_page(project):
    handler = functools.partial(QuietHandler, directory=str(project / "site"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    address = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(address + "papers/no-such-paper/")
        assert missing.value.code == 404
        assert missing.value.read() == (project / "site" / "404.html").read_bytes()
        with urllib.request.urlopen(address) as found:
            assert found.status == 200 and found.read() == (project / "site" / "index.html").read_bytes()
    finally:
        server.shutdown()
        server.server_close()


# --- bundle --------------------------------------------------------------------------------------

def test_bundle_into_a_missing_folder_says_so(project):
    before = tree(project)
    assert_one_line_error(invoke("bundle", "--out", "site", "--zip", "gone/site.zip"),
                          "gone/: no such folder for the zip; create it or choose another --zip")
    assert tree(project) == before


@pytest.mark.parametrize("target", ["README.md", "seeds/icml.txt", "Documents/letter.txt"])
def test_bundle_never_overwrites_a_file_it_did_not_write(project, target):
    before = tree(project)
    assert_one_line_error(invoke("bundle", "--out", "site", "--zip", target),
                          f"{target}: exists and is not a bundle this command wrote; choose another --zip, or move "
                          "that file away (nothing was written)")
    assert tree(project) == before


def test_bundle_leaves_a_file_named_like_a_partial_zip_alone(project):
    (project / "offline.zip.partial").write_text("my draft\n")
    before = tree(project)
    assert invoke("bundle", "--out", "site", "--zip", "offline.zip").exit_code == 0
    after = tree(project)
    assert set(after) - set(before) == {"offline.zip"} and is_a_bundle(project / "offline.zip")
    assert after["offline.zip.partial"] == b"my draft\n"
    own = f"offline.zip.{os.getpid()}.partial"  # the name this process writes: not overwritten either
    (project / own).write_text("mine\n")
    before = tree(project)
    assert_one_line_error(invoke("bundle", "--out", "site", "--zip", "offline.zip"),
                          f"{own}: exists, and this command did not write it; move it away and run again "
                          "(nothing was written)")
    assert tree(project) == before


def test_a_bundle_that_fails_leaves_no_partial_zip(project, monkeypatch):
    def full_disk(*_):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr("catalogue.site.bundle.entry", full_disk)
    before = tree(project)
    result = invoke("bundle", "--out", "site", "--zip", "offline.zip")
    assert result.exit_code == 1 and "No space left on device" in result.output, result.output
    assert tree(project) == before


def test_bundle_replaces_its_own_zip_and_refuses_to_write_into_the_site(project):
    assert invoke("bundle", "--out", "site", "--zip", "offline.zip").exit_code == 0
    first = (project / "offline.zip").read_bytes()
    (project / "site" / "index.html").write_text((project / "site" / "index.html").read_text() + " ")
    assert invoke("bundle", "--out", "site", "--zip", "offline.zip").exit_code == 0
    assert (project / "offline.zip").read_bytes() != first  # replaced: the zip holds the new page
    before = tree(project)
    assert_one_line_error(invoke("bundle", "--out", "site", "--zip", "site/offline.zip"),
                          "site/offline.zip: inside the site it would zip; choose a --zip outside site/ "
                          "(nothing was written)")
    assert tree(project) == before


@pytest.mark.parametrize("command, advice", [
    (["serve", "--out"], "gone/index.html does not exist; run 'python3 build.py --out gone' first"),
    (["bundle", "--out"], "gone/index.html does not exist; run 'python3 build.py --out gone' first"),
    (["index", "--out"], "gone/ is not a built site; run 'python3 build.py render --out gone' first"),
])
def test_a_missing_site_names_the_command_that_makes_that_very_site(project, command, advice):
    before = tree(project)
    assert_one_line_error(invoke(*command, "gone"), advice)
    assert tree(project) == before


# --- faults of the system: one line, non-zero, the previous site kept ----------------------------

def failing_under(folder: Path, code: int | None, monkeypatch, after: int = 0) -> None:
    """Creating a file or folder under `folder` (os.open with O_CREAT, io.open for writing, os.mkdir)
    fails once, after `after` that succeed, with the OSError of errno `code` naming the path, as a
    read-only folder or a full disk would (tests run as root, whom chmod does not stop), or with
    KeyboardInterrupt (Ctrl-C) when `code` is None."""

    def error(path) -> BaseException:
        return KeyboardInterrupt() if code is None else OSError(code, os.strerror(code), os.fspath(path))

    real_open, real_io_open, real_mkdir = os.open, io.open, os.mkdir
    calls = {"left": after}

    def fails(path) -> bool:
        if not os.path.abspath(path).startswith(os.fspath(folder)):
            return False
        calls["left"] -= 1
        return calls["left"] == -1

    def fake_open(path, flags, mode=0o777, *args, **kwargs):
        if flags & os.O_CREAT and fails(path):
            raise error(path)
        return real_open(path, flags, mode, *args, **kwargs)

    def fake_mkdir(path, mode=0o777, *args, **kwargs):
        if not os.path.exists(path) and fails(path):
            raise error(path)
        return real_mkdir(path, mode, *args, **kwargs)

    def fake_io_open(path, mode="r", *args, **kwargs):
        if isinstance(path, (str, os.PathLike)) and set(mode) & set("wax+") and fails(path):
            raise error(path)
        return real_io_open(path, mode, *args, **kwargs)

    monkeypatch.setattr(os, "open", fake_open)
    monkeypatch.setattr(io, "open", fake_io_open)
    monkeypatch.setattr(os, "mkdir", fake_mkdir)


def without_cache(found: dict[str, bytes | str]) -> dict[str, bytes | str]:
    """content/.cache is the build's own (it may change with any build); the rest is compared."""
    return {path: value for path, value in found.items() if not path.startswith("content/.cache")}


def test_a_read_only_output_parent_is_one_line(project, monkeypatch):
    (project / "published").mkdir()
    before = tree(project)
    failing_under(project / "published", errno.EACCES, monkeypatch)
    result = invoke(*RENDER, "published/site")
    assert_one_line_error(result, "published/.site-lock: Permission denied; make it writable (or readable) for "
                                  "you, or choose another folder")
    assert tree(project) == before


def test_read_only_content_is_one_line(project, monkeypatch):
    before = tree(project)
    failing_under(project / "content", errno.EROFS, monkeypatch)
    result = invoke(*RENDER, "site")
    assert_one_line_error(result, "content/.lock: Read-only file system; choose a folder on a writable disk")
    assert tree(project) == before


def test_a_full_disk_keeps_the_previous_site(project, monkeypatch):
    (project / "content" / "papers" / "foonet.md").write_text(
        (project / "content" / "papers" / "foonet.md").read_text().replace("FooNet", "FooNet2"))
    before = tree(project)
    staging = project / f".site-staging-site-{os.getpid()}"
    failing_under(staging, errno.ENOSPC, monkeypatch, after=3)
    result = invoke(*RENDER, "site")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert re.fullmatch(rf"Error: \.site-staging-site-{os.getpid()}/\S+: No space left on device; "
                        "free some space and run again", result.output.splitlines()[-1])
    assert without_cache(tree(project)) == without_cache(before)


def test_ctrl_c_while_writing_keeps_the_previous_site(project, monkeypatch):
    (project / "content" / "papers" / "foonet.md").write_text(
        (project / "content" / "papers" / "foonet.md").read_text().replace("FooNet", "FooNet2"))
    before = tree(project)
    failing_under(project / f".site-staging-site-{os.getpid()}", None, monkeypatch, after=3)
    result = invoke(*RENDER, "site")
    assert result.exit_code == 130 and "Traceback" not in result.output
    assert result.output.splitlines()[-1] == "Error: interrupted; the previous site is kept"
    assert without_cache(tree(project)) == without_cache(before)


# --- the rule itself, as a table -----------------------------------------------------------------

INPUTS = {"the content folder": Path("/p/content"), "the seeds folder": Path("/p/seeds")}
PLACES = {"the project folder": Path("/p"), "your home folder": Path("/home/u"), "the root folder": Path("/")}


@pytest.mark.parametrize("out, folder, reason", [
    ("/p/site", Folder(Holds.NOTHING), None),
    ("/p/site", Folder(Holds.EMPTY), None),
    ("/p/site", Folder(Holds.OUR_SITE), None),
    ("/home/u/sites/cat", Folder(Holds.OUR_SITE), None),
    ("/p/site", Folder(Holds.NOT_A_FOLDER), "it is a file, not a folder"),
    ("/p/site", Folder(Holds.OTHER_FILES, ("a", "b", "c", "d")), "it holds files this tool did not make (a, b, c, ...)"),
    ("/p", Folder(Holds.OUR_SITE), "it is the project folder"),
    ("/", Folder(Holds.OUR_SITE), "it is the root folder"),
    ("/home/u", Folder(Holds.EMPTY), "it is your home folder"),
    ("/home", Folder(Holds.OUR_SITE), "it holds your home folder (/home/u)"),
    ("/p/content", Folder(Holds.OUR_SITE), "it is the content folder"),
    ("/p/seeds", Folder(Holds.NOTHING), "it is the seeds folder"),
    ("/p/content/site", Folder(Holds.NOTHING),
     "it is inside the content folder (/p/content), which would read or publish the site as its own"),
    ("/p/seeds/a/b", Folder(Holds.EMPTY),
     "it is inside the seeds folder (/p/seeds), which would read or publish the site as its own"),
    ("/p/contents", Folder(Holds.NOTHING), None),  # a name that starts like content/ is another folder
])
def test_refuse_site_folder(out, folder, reason):
    assert refuse_site_folder(Path(out), folder, INPUTS, PLACES) == reason


@pytest.mark.parametrize("error, message", [
    (OSError(errno.ENOSPC, "No space left on device", "/x/site/a.html"),
     "/x/site/a.html: No space left on device; free some space and run again"),
    (PermissionError(errno.EACCES, "Permission denied", b"/x/bytes"),
     "/x/bytes: Permission denied; make it writable (or readable) for you, or choose another folder"),
    (OSError(errno.EXDEV, "Invalid cross-device link", "/x/a", None, "/y/b"),
     "/x/a -> /y/b: Invalid cross-device link; run again once that is fixed"),
    (OSError(errno.EROFS, "Read-only file system"), "Read-only file system; choose a folder on a writable disk"),
    (OSError("odd"), "odd; run again once that is fixed"),
    (FileExistsError(errno.EEXIST, "File exists", "README.md"),
     "README.md: File exists; is a file there where a folder is needed? Check the path"),
])
def test_fault_message(error, message):
    assert fault_message(error, lambda path: path.as_posix()) == message


def test_a_site_folder_under_a_file_is_one_line_naming_the_file(project):
    before = tree(project)
    assert_one_line_error(invoke(*RENDER, "README.md/site"),
                          "README.md: File exists; is a file there where a folder is needed? Check the path")
    assert tree(project) == before


def test_read_only_content_during_ingest_is_one_line(project, monkeypatch):
    (project / "seeds" / "icml.txt").write_text(SEED.replace("FooNet", "BazNet"), encoding="utf-8")
    before = tree(project)
    failing_under(project / "content" / "papers", errno.EACCES, monkeypatch)
    result = invoke("ingest", "--seeds", "seeds", "--content", "content")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert re.fullmatch(r"Error: content/papers/\S+\.md\S*: Permission denied; make it writable \(or "
                        r"readable\) for you, or choose another folder", result.output.splitlines()[-1])
    assert without_cache(tree(project)) == without_cache(before)


@pytest.mark.parametrize("make, message", [
    (lambda path: path.symlink_to("/etc/passwd"), "{path}: a link to something outside {assets}/; copy the file here instead"),
    (lambda path: os.mkfifo(path), "{path}: not a regular file; remove it"),
    (lambda path: path.symlink_to("missing.css"), "{path}: not a regular file; remove it"),
], ids=["link-outside", "fifo", "dangling-link"])
def test_assets_publish_only_their_own_regular_files(project, make, message):
    assets = project / "my-assets"
    shutil.copytree(cli.PROJECT / "assets", assets)
    make(assets / "extra.css")
    before = tree(project)
    result = invoke(*RENDER, "site", "--assets", "my-assets")
    assert_one_line_error(result, message.format(path="my-assets/extra.css", assets="my-assets"))
    assert tree(project) == before


def test_a_link_inside_assets_is_published_as_its_file(project):
    assets = project / "my-assets"
    shutil.copytree(cli.PROJECT / "assets", assets)
    (assets / "copy.css").symlink_to("style.css")
    result = invoke(*RENDER, "site", "--assets", "my-assets")
    assert result.exit_code == 0, result.output
    assert (project / "site" / "assets" / "copy.css").read_bytes() == (assets / "style.css").read_bytes()
