"""The build cache and the inputs' fingerprint: never run stored code, never trust a planted or
stale entry, never open a special file, never hang on a dead worker, and publish the same bytes
wherever the project is checked out."""

from __future__ import annotations

import json
import math
import os
import pickle
import re
import shutil
import socket
import sqlite3
import stat
import subprocess
import sys
from contextlib import closing
from importlib import metadata
from pathlib import Path

import pytest
from click.testing import CliRunner

from catalogue.system import cache as cache_module
from catalogue.system.cache import (CACHE_DIR, CACHE_FILE, KEY_FILE, SHAPING_DISTRIBUTIONS, Cache, KnownFiles,
                                    code_version, tree_state)
from catalogue.cli import main
from catalogue.content.papers import PAPERS_DIR, content_key, read_papers
from catalogue.markup.convert import CONVERTED, Converted, conversion_key
from catalogue.model import Link, Paper, Problem, Source, Topic
from catalogue.site.render import KEPT_TYPES
from conftest import PROJECT, make_project, run_cli
from catalogue.routes import bucket

HANG_GUARD = 300  # seconds: only so that a hang fails the test instead of stalling CI


def make_render_project(root: Path) -> Path:
    """Seeds, content ingested from them, and the project's templates, assets and settings."""
    make_project(root)
    for folder in ("templates", "assets"):
        shutil.copytree(PROJECT / folder, root / folder)
    shutil.copy(PROJECT / "site.toml", root / "site.toml")
    run_cli("ingest", "--seeds", str(root / "seeds"), "--content", str(root / "content"))
    return root


def render_args(root: Path, out: str = "site") -> list[str]:
    return ["render", "--content", str(root / "content"), "--out", str(root / out), "--templates",
            str(root / "templates"), "--assets", str(root / "assets"), "--config", str(root / "site.toml")]


def published(site: Path) -> dict[str, bytes]:
    return {path.relative_to(site).as_posix(): path.read_bytes() for path in sorted(site.rglob("*")) if path.is_file()}


@pytest.fixture
def fresh_versions():
    """code_version() computed anew in the test, and again after it (the fakes must not outlive it)."""
    cache_module.library_versions.cache_clear()
    code_version.cache_clear()
    cache_module.package_version.cache_clear()
    yield
    cache_module.library_versions.cache_clear()
    code_version.cache_clear()
    cache_module.package_version.cache_clear()


# --- Versions of Python and of the libraries that shape the output --------------------------

@pytest.mark.parametrize("changed", [*SHAPING_DISTRIBUTIONS, "python"])
def test_a_new_version_of_python_or_of_a_shaping_library_changes_every_key(changed, monkeypatch, fresh_versions):
    before = code_version("catalogue.pipeline")
    if changed == "python":
        monkeypatch.setattr(sys, "version", sys.version + " (another build)")
    else:
        real = metadata.version

        def faked(name):
            return "999.0" if name == changed else real(name)
        monkeypatch.setattr(metadata, "version", faked)
    cache_module.library_versions.cache_clear()
    code_version.cache_clear()
    cache_module.package_version.cache_clear()
    assert code_version("catalogue.pipeline") != before
    assert conversion_key("a text", True) != cache_module.digest(before, "a text", True)


def test_an_upgraded_library_misses_the_cache_and_is_not_up_to_date(tmp_path, monkeypatch, fresh_versions):
    root = make_render_project(tmp_path / "p")
    run_cli(*render_args(root))
    assert "Up to date" in run_cli(*render_args(root))
    titles = [paper.title for paper in read_papers(root / "content").values()]
    with closing(Cache.beside(root / "content", KEPT_TYPES)) as stored:
        assert len(stored.get_many(CONVERTED, [conversion_key(t, False) for t in titles])) == len(set(titles))
    real = metadata.version
    monkeypatch.setattr(metadata, "version", lambda name: "4.0.0" if name == "latex2mathml" else real(name))
    cache_module.library_versions.cache_clear()
    code_version.cache_clear()
    cache_module.package_version.cache_clear()
    with closing(Cache.beside(root / "content", KEPT_TYPES)) as stored:
        assert stored.get_many(CONVERTED, [conversion_key(t, False) for t in titles]) == {}
    output = run_cli(*render_args(root))
    assert "Up to date" not in output and re.search(r"\b0 unchanged since the last build", output), output


# --- Stored values: data only, sealed with this cache's own key -----------------------------

class CreatesAFile:
    """Unpickled, this would create `path`: what a planted pickle could do."""

    def __init__(self, path: Path):
        self.path = path

    def __reduce__(self):
        return os.mkdir, (str(self.path),)


VALUES = [
    Paper(id="0123456789ab", slug="x", title="T", abstract="A $x$", source=Source("seeds/a.txt", 3), name="X",
          other_names=("Y",), topics=("rl",), links=(Link("https://e.org", "code"),), year=2026, in_seeds=False),
    (Paper(id="0123456789ab", slug="x", title="T", abstract="A", source=Source("s")), (Problem(Source("s", 1), "m"),)),
    Converted("<p>x</p>", "x", ("note",)),
    Topic("rl", "RL", ("reinforcement",), (("zh-CN", "强化学习"),)),
    ([(1, 2), ()], [(0.5, 0.25), (1.0, 0.0)]),  # related papers and the map
    True, None, 3, 2.5, "text", (), [],
    ("a lone surrogate \ud800, as a YAML escape can make one", "强化学习"),
    2 ** 64 - 1, -2 ** 63, (2 ** 70, "past 64 bits"), [-2 ** 64], float("inf"), (-float("inf"), 1e16, -0.0),
]


@pytest.mark.parametrize("value", VALUES, ids=[type(v).__name__ for v in VALUES])
def test_values_come_back_equal_and_of_the_same_types(value, tmp_path):
    store = Cache(tmp_path / CACHE_FILE, KEPT_TYPES)
    store.put("kind", "k", value)
    store.close()
    again = Cache(tmp_path / CACHE_FILE, KEPT_TYPES).get("kind", "k")
    assert again == value and repr(again) == repr(value)  # repr tells tuples from lists


def test_a_float_that_is_not_a_number_comes_back_so(tmp_path):
    store = Cache(tmp_path / CACHE_FILE, KEPT_TYPES)
    store.put("kind", "k", (float("nan"), 1.5))
    again = store.get("kind", "k")
    assert type(again) is tuple and math.isnan(again[0]) and again[1] == 1.5


# What older builds stored (no integer past 64 bits: none of their values held one).
OLDER_VALUES = [value for value in VALUES if value not in ((2 ** 70, "past 64 bits"), [-2 ** 64])]


@pytest.mark.parametrize("value", OLDER_VALUES, ids=[type(v).__name__ for v in OLDER_VALUES])
def test_an_entry_written_by_the_standard_json_codec_of_older_builds_is_read(value, tmp_path):
    store = Cache(tmp_path / CACHE_FILE, KEPT_TYPES)
    text = json.dumps(store.codec._plain(value), ensure_ascii=False, separators=(",", ":"))
    old = text.encode("utf-8", "surrogatepass")
    with store.connection:
        store.connection.execute("INSERT INTO entries VALUES (?, ?, ?, ?)",
                                 ("kind", "k", old, store._seal("kind", "k", old)))
    again = store.get("kind", "k")
    assert again == value and repr(again) == repr(value)


def test_a_value_the_codec_does_not_know_is_refused_when_stored(tmp_path):
    with pytest.raises(TypeError, match="cannot keep a CreatesAFile"):
        Cache(None, KEPT_TYPES).put("kind", "k", CreatesAFile(tmp_path / "x"))


def forged_seal(*_) -> bytes:
    return bytes(16)


def seal_with_the_key(store: Cache, kind: str, key: str, value: bytes) -> bytes:
    return store._seal(kind, key, value)


@pytest.mark.parametrize("value, seal", [
    (pickle.dumps(CreatesAFile(Path("MARK"))), forged_seal),  # the old format, planted without the key
    (pickle.dumps(CreatesAFile(Path("MARK"))), seal_with_the_key),  # ... or with it: still not JSON
    (b'{"@":"Converted","html":"<p>PLANTED</p>","plain":"PLANTED","problems":[]}', forged_seal),  # data, unsealed
    (b'{"@":"posix.system","command":"mkdir MARK"}', seal_with_the_key),  # sealed, but not a type the codec knows
    (b'{"@":"Converted","html":"<p>PLANTED</p>","plain":"PLANTED","problems":[],"run":1}', seal_with_the_key),
], ids=["pickle-unsealed", "pickle-sealed", "json-unsealed", "unknown-type", "unknown-field"])
def test_a_planted_entry_is_ignored_and_runs_nothing(value, seal, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    store = Cache(tmp_path / CACHE_FILE)
    value = value.replace(b"MARK", str(tmp_path / "ran").encode())
    with store.connection:
        store.connection.execute("INSERT INTO entries VALUES (?, ?, ?, ?)",
                                 ["converted", "k", value, seal(store, "converted", "k", value)])
    assert store.get_many("converted", ["k"]) == {}
    assert sorted(os.listdir(tmp_path)) == sorted([CACHE_FILE, KEY_FILE, f"{CACHE_FILE}-shm", f"{CACHE_FILE}-wal"])


def test_a_build_ignores_pickles_planted_at_the_keys_it_reads(tmp_path):
    """Entries at keys computable from the repository (a title's conversion, a content file's
    parse), in the old table a pickle-era cache has: the build reads none and creates nothing."""
    root = make_render_project(tmp_path / "p")
    marker = tmp_path / "ran"
    payload = pickle.dumps(CreatesAFile(marker))
    papers = read_papers(root / "content")
    shutil.rmtree(root / "content" / CACHE_DIR)
    (root / "content" / CACHE_DIR).mkdir()
    planted = [(CONVERTED, conversion_key(paper.title, False), payload) for paper in papers.values()]
    planted += [("content", content_key(str(path), path.stat()), payload) for path in papers]
    with closing(sqlite3.connect(root / "content" / CACHE_DIR / CACHE_FILE)) as old, old:
        old.execute("CREATE TABLE entries (kind TEXT, key TEXT, value BLOB, PRIMARY KEY (kind, key))")
        old.executemany("INSERT INTO entries VALUES (?, ?, ?)", planted)
    output = run_cli(*render_args(root))
    assert f"Rendered {len(papers)} papers" in output
    assert not marker.exists()
    some = next(iter(papers.values()))
    assert some.title.split()[0] in (root / "site" / "papers" / bucket(some.slug) / some.slug / "index.html").read_text(encoding="utf-8")


def test_a_key_file_others_can_read_is_replaced_and_old_entries_are_ignored(tmp_path):
    store = Cache(tmp_path / CACHE_FILE)
    store.put("kind", "k", "value")
    store.close()
    key = tmp_path / KEY_FILE
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert Cache(tmp_path / CACHE_FILE).get("kind", "k") == "value"
    key.chmod(0o644)  # as a checkout or a copied folder would have it: its seals prove nothing
    assert Cache(tmp_path / CACHE_FILE).get("kind", "k") is None
    assert stat.S_IMODE(key.stat().st_mode) == 0o600


# --- Inputs' fingerprint: regular files only ----------------------------------------------------

def test_tree_state_reads_regular_files_and_names_links_and_special_files(tmp_path):
    folder, outside = tmp_path / "content", tmp_path / "outside.txt"
    folder.mkdir()
    outside.write_text("secret one")
    (folder / "a.md").write_text("a")
    (folder / "link.md").symlink_to(outside)
    os.mkfifo(folder / "pipe.md")  # opened, it would wait for a writer forever
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(folder / "socket"))
        first = tree_state(folder)
        outside.write_text("secret two")  # what a link leads to is not read
        assert tree_state(folder) == first
        (folder / "a.md").write_text("b")
        changed = tree_state(folder)
        assert changed != first
        (folder / "link.md").unlink()
        (folder / "link.md").symlink_to(tmp_path / "elsewhere.txt")
        assert tree_state(folder) != changed


def walk_counting_reads(folder: Path, cache: Cache, monkeypatch) -> tuple[str, list[str]]:
    """tree_state with the cache's known files, and the names of the files it read."""
    read = []
    real = cache_module.read_regular_file
    monkeypatch.setattr(cache_module, "read_regular_file", lambda path: read.append(Path(path).name) or real(path))
    known = KnownFiles(cache, "content")
    state = tree_state(folder, known=known)
    known.save()
    monkeypatch.setattr(cache_module, "read_regular_file", real)
    return state, read


def test_known_files_are_read_again_only_when_their_stat_changed(tmp_path, monkeypatch):
    folder = tmp_path / "content"
    (folder / "sub").mkdir(parents=True)
    for name in ("a.md", "b.md", "sub/c.md"):
        (folder / name).write_text(name)
    monkeypatch.setattr(KnownFiles, "SETTLED_NS", 0)  # these files were written just now
    with closing(Cache(tmp_path / "cache.sqlite", )) as cache:
        assert walk_counting_reads(folder, cache, monkeypatch) == (tree_state(folder), ["a.md", "b.md", "c.md"])
        assert walk_counting_reads(folder, cache, monkeypatch) == (tree_state(folder), [])
        stamp = (folder / "a.md").stat().st_mtime_ns - 10**9  # another time: this test turned the settling off
        (folder / "a.md").write_text("A.md")  # the same size
        os.utime(folder / "a.md", ns=(stamp, stamp))
        (folder / "sub" / "d.md").write_text("new")
        state, read = walk_counting_reads(folder, cache, monkeypatch)
        assert (state, sorted(read)) == (tree_state(folder), ["a.md", "d.md"])
        (folder / "b.md").unlink()
        assert walk_counting_reads(folder, cache, monkeypatch) == (tree_state(folder), [])
        assert tree_state(folder) != state


def test_a_file_hashed_soon_after_it_changed_is_read_again(tmp_path, monkeypatch):
    """Within its time stamps' resolution, a file may change again and keep its stat."""
    folder = tmp_path / "content"
    folder.mkdir()
    (folder / "a.md").write_text("a")
    with closing(Cache(tmp_path / "cache.sqlite", )) as cache:
        for _ in range(2):
            assert walk_counting_reads(folder, cache, monkeypatch)[1] == ["a.md"]


def test_known_seed_files_are_read_again_only_when_their_stat_changed(tmp_path, monkeypatch):
    from catalogue.ingest import seed_files
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    for name in ("a.txt", "b.txt"):
        (seeds / name).write_text(f"ICML 2024\n\nThe abstract of {name}.\n")
    monkeypatch.setattr(KnownFiles, "SETTLED_NS", 0)  # these files were written just now
    read = []
    real = seed_files.read_seed_bytes
    monkeypatch.setattr(seed_files, "read_seed_bytes", lambda seed: read.append(seed.path.name) or real(seed))
    with closing(Cache(tmp_path / "cache.sqlite", )) as cache:
        def walk() -> str:
            known = KnownFiles(cache, "seeds")
            state = seed_files.seeds_state(seeds, tmp_path, known)
            known.save()
            return state
        first = walk()
        assert read == ["a.txt", "b.txt"] and walk() == first and read == ["a.txt", "b.txt"]
        (seeds / "b.txt").write_text("ICML 2024\n\nAnother abstract.\n")
        assert walk() == seed_files.seeds_state(seeds, tmp_path) != first
        assert read[2:] == ["b.txt", "a.txt", "b.txt"]  # the walk, then the state without known files


def run_bounded(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True, timeout=HANG_GUARD,
                          env={**os.environ, "PYTHONPATH": str(PROJECT)})


def test_a_fifo_under_content_does_not_hang_the_build(tmp_path):
    root = make_render_project(tmp_path / "p")
    os.mkfifo(root / "content" / "notes.md")
    done = run_bounded(str(PROJECT / "build.py"), *render_args(root), cwd=root)
    assert done.returncode == 0 and "Rendered 38 papers" in done.stderr, done.stderr


@pytest.mark.parametrize("make, message", [
    (lambda path, root: path.symlink_to(root / "outside.md"), "a link to a file outside {content}/; copy the file here"),
    (lambda path, root: os.mkfifo(path), "not a regular file; remove it"),
    (lambda path, root: path.mkdir(), "not a regular file; remove it"),
], ids=["link-outside", "fifo", "folder"])
def test_content_papers_refuses_links_outside_and_special_files(make, message, tmp_path):
    root = make_render_project(tmp_path / "p")
    (root / "outside.md").write_text((next((root / "content" / PAPERS_DIR).glob("*.md"))).read_text()
                                     .replace("id: ", "id: f").replace("slug: ", "slug: x"))
    bad = root / "content" / PAPERS_DIR / "zz-bad.md"
    make(bad, root)
    before = published_tree(root)
    result = CliRunner().invoke(main, render_args(root))
    assert result.exit_code == 1
    assert f"{bad.as_posix()}: {message.format(content=(root / 'content').as_posix())}" in result.output
    assert published_tree(root) == before and not (root / "site").exists()


def test_a_link_inside_content_is_read(tmp_path):
    root = make_render_project(tmp_path / "p")
    papers = root / "content" / PAPERS_DIR
    first = sorted(papers.glob("*.md"))[0]
    kept = root / "content" / "kept.md"
    first.rename(kept)
    first.symlink_to(kept)
    assert read_papers(root / "content")[first].slug == first.stem


def published_tree(root: Path) -> dict[str, bytes | str]:
    """Every path under root: a file's bytes, a link's target, a special file's kind."""
    found: dict[str, bytes | str] = {}
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root).as_posix()
        if relative.startswith(("content/.cache", "content/.lock")):
            continue
        if path.is_symlink():
            found[relative] = f"-> {os.readlink(path)}"
        elif path.is_fifo():
            found[relative] = "fifo"
        elif path.is_file():
            found[relative] = path.read_bytes()
    return found


# --- Published bytes do not depend on where the project is -------------------------------------

def test_two_checkouts_publish_the_same_bytes(tmp_path):
    first = make_render_project(tmp_path / "one")
    second = make_render_project(tmp_path / "a" / "much" / "deeper" / "two")
    run_cli(*render_args(first))
    run_cli(*render_args(second))
    one, two = published(first / "site"), published(second / "site")
    assert ".paper-catalogue-site" in one and one.keys() == two.keys()
    assert [path for path in one if one[path] != two[path]] == []
    assert published(first / ".site-build") == published(second / ".site-build") != {}  # the build's records too


# --- A dead worker ends the build, naming what it was converting -------------------------------

KILLING_RENDER = """
import os, signal, sys
from catalogue.markup import convert as markup
from catalogue.site import views
from catalogue.cli import main
views.PARALLEL_CONVERSION_FROM = 1  # workers even for a few texts
convert = markup.TextConverter.convert
def dies_on(self, text, links):
    if text == sys.argv[1]:
        os.kill(os.getpid(), signal.SIGKILL)
    return convert(self, text, links)
markup.TextConverter.convert = dies_on
main(sys.argv[2:])
"""


def test_a_worker_killed_while_converting_ends_the_build_naming_the_paper(tmp_path):
    root = make_render_project(tmp_path / "p")
    paper = sorted(read_papers(root / "content").values(), key=lambda p: p.slug)[5]
    done = run_bounded("-c", KILLING_RENDER, paper.title, *render_args(root), cwd=root)
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == (f"Error: {paper.source}: the title of paper '{paper.slug}': the process converting "
                                   f"it stopped (exit code -9); the previous site is kept"), done.stderr
    assert not (root / "site").exists()


KILLING_INGEST = """
import os, signal, sys
from catalogue.ingest import derive
from catalogue.cli import main
derive.PARALLEL_FROM = 1  # workers even for a few abstracts
derive_paper = derive.derive_paper
def dies_on(pid, record, *rest):
    if sys.argv[1] in record.abstract:
        os.kill(os.getpid(), signal.SIGKILL)
    return derive_paper(pid, record, *rest)
derive.derive_paper = dies_on
main(sys.argv[2:])
"""


def test_a_worker_killed_while_reading_an_abstract_ends_the_ingest_naming_it(tmp_path):
    root = tmp_path / "p"
    (root / "content").mkdir(parents=True)
    shutil.copytree(PROJECT / "seeds", root / "seeds")
    seed = sorted((root / "seeds").glob("*.txt"))[0]
    paragraphs = seed.read_text(encoding="utf-8").split("\n\n")
    line = 1 + seed.read_text(encoding="utf-8").split(paragraphs[3])[0].count("\n")
    done = run_bounded("-c", KILLING_INGEST, paragraphs[3].strip()[:60], "ingest", "--seeds", str(root / "seeds"),
                       "--content", str(root / "content"), cwd=root)
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == (f"Error: seeds/{seed.name}:{line}: the process reading this abstract "
                                            "stopped (exit code -9); nothing was written"), done.stderr
    assert not list((root / "content").glob("papers/*.md"))
