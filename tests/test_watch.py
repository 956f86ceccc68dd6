"""`serve --watch`: a change to the inputs rebuilds the site and reloads the open page; the files
on disk stay as built."""

from __future__ import annotations

import functools
import http.server
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import urllib.request

import pytest

from catalogue.serve.watch import (GENERATION, RELOAD_SCRIPT, Generation, is_input_change, rebuild_on_change,
                                   reloading_handler)

from conftest import PROJECT

SERVING = re.compile(r"Serving .* on (http://127\.0\.0\.1:\d+/)")


@pytest.mark.parametrize("path, change", [
    ("content/papers/x.md", True), ("seeds/icml.jsonl", True), ("templates/paper.html", True),
    ("content/.cache/abc", False), ("content/.lock", False), ("content/.derived.json", False),
    ("content/papers/.x.md.tmp", False), ("templates/paper.html.swp", False), ("content/.trash/1/papers/x.md", False),
    # editors' and tools' scratch files beside the file they edit
    ("content/papers/sedfesyJi", False), ("content/papers/.x.md.swx", False), ("content/papers/.x.md.swo", False),
    ("content/papers/4913", False), ("content/papers/5036", False), ("content/papers/.#x.md", False),
    ("content/papers/#x.md#", False), ("content/papers/x.md~", False), ("seeds/.goutputstream-AB12CD", False),
    ("templates/paper.html.kate-swp", False), ("seeds/icml.jsonl___jb_tmp___", False),
    # ... and inputs whose names only look a little like them
    ("seeds/sed2024.txt", True), ("assets/4914", True), ("seeds/2024", True), ("content/papers/sedative-net.md", True),
    ("seeds/#1 list.txt", True),
])
def test_only_what_a_person_changes_starts_a_build(path, change):
    assert is_input_change(None, f"/p/{path}") is change


def test_an_editors_scratch_files_are_not_among_the_changes(tmp_path):
    """Real sed -i and vim (when installed) write their own files beside the one they edit, and
    others are made by hand: one build runs, and it names the edited file alone."""
    paper = tmp_path / "x.md"
    paper.write_text("title: a\n", encoding="utf-8")
    said, stop = queue.Queue(), threading.Event()
    watcher = threading.Thread(target=rebuild_on_change, args=([tmp_path], [sys.executable, "-c", ""], Generation(),
                                                               stop, said.put))
    watcher.start()
    try:
        probe = tmp_path / "probe.md"
        for attempt in range(50):  # until the watcher is up: it reports a change to probe.md
            probe.write_text(str(attempt), encoding="utf-8")
            try:
                assert said.get(timeout=0.2) == "Changed: probe.md; building"
                break
            except queue.Empty:
                continue
        quiet_reports(said)  # a probe seen late reports once more
        for name in ("4913", ".#x.md", "#x.md#", "x.md~", "x.md.tmp", ".x.md.swp", ".goutputstream-AB12CD"):
            (tmp_path / name).write_text("scratch", encoding="utf-8")
            (tmp_path / name).unlink()
        if shutil.which("vim"):
            subprocess.run(["vim", "-es", "-u", "NONE", "-i", "NONE", "-c", "s/a/b/", "-c", "wq", str(paper)], check=True)
        subprocess.run(["sed", "-i", "s/: ./: c/", str(paper)], check=True)
        # vim and sed may land in one batch or two (a loaded machine starts sed late): each batch
        # names the edited file alone, and the scratch files made no batch of their own
        reports = [said.get(timeout=10), *quiet_reports(said)]
        assert set(reports) == {"Changed: x.md; building"}, reports
        assert len(reports) <= 2, reports
        assert paper.read_text(encoding="utf-8") == "title: c\n"
    finally:
        stop.set()
        watcher.join(timeout=10)


def quiet_reports(said: queue.Queue, quiet: float = 1.0) -> list[str]:
    """The reports that arrive until none has come for `quiet` seconds."""
    reports = []
    while True:
        try:
            reports.append(said.get(timeout=quiet))
        except queue.Empty:
            return reports


@pytest.fixture
def preview(tmp_path):
    (tmp_path / "papers" / "a").mkdir(parents=True)
    (tmp_path / "index.html").write_text("<html><body><p>home</p></body></html>", encoding="utf-8")
    (tmp_path / "papers" / "a" / "index.html").write_text("<html><body>a</body></html>", encoding="utf-8")
    (tmp_path / "data.json").write_text("{}", encoding="utf-8")
    generation = Generation()
    handler = functools.partial(reloading_handler(generation), directory=str(tmp_path))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}", generation, tmp_path
    server.shutdown()
    server.server_close()


def fetch(address: str) -> str:
    with urllib.request.urlopen(address) as answer:
        return answer.read().decode("utf-8")


def test_served_pages_get_the_reload_script_and_the_files_stay_as_built(preview):
    address, generation, folder = preview
    script = f'<script src="{RELOAD_SCRIPT}"></script>'
    assert fetch(address + "/") == f"<html><body><p>home</p>{script}</body></html>"
    assert fetch(address + "/papers/a/index.html").endswith(f"a{script}</body></html>")
    assert fetch(address + "/data.json") == "{}"
    assert "location.reload()" in fetch(address + RELOAD_SCRIPT)
    assert fetch(address + GENERATION) == "0"
    generation.advance()
    assert fetch(address + GENERATION) == "1"
    assert script not in (folder / "index.html").read_text(encoding="utf-8")


def ctrl_c_stops() -> None:
    """Ctrl+C (SIGINT) as a terminal delivers it, even when the suite itself was started in the
    background, where the shell has SIGINT ignored and every child would inherit that."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_an_edit_rebuilds_the_site_and_reloads_the_open_page(tmp_path, browser):
    shutil.copytree(PROJECT / "seeds", tmp_path / "seeds")
    (tmp_path / "content").mkdir()
    shutil.copy(PROJECT / "content" / "topics.yaml", tmp_path / "content")
    server = subprocess.Popen([sys.executable, str(PROJECT / "build.py"), "serve", "--watch", "--port", "0",
                               "--seeds", str(tmp_path / "seeds"), "--content", str(tmp_path / "content"),
                               "--out", str(tmp_path / "site")], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, preexec_fn=ctrl_c_stops)
    try:
        address = None
        for line in server.stdout:
            if found := SERVING.search(line):
                address = found[1]
                break
        assert address, "the server never said where it serves"
        assert (tmp_path / "site" / "index.html").is_file()  # built before serving
        for line in server.stdout:
            if line.startswith("Watching"):
                break
        path = sorted((tmp_path / "content" / "papers").glob("*.md"))[0]
        page = browser.new_page()
        page.goto(f"{address}papers/{path.stem}/index.html")  # a content file is named by its slug
        text = path.read_text(encoding="utf-8")
        title = re.search(r"^title: (.*)$", text, re.M)[1]
        path.write_text(text.replace(f"title: {title}", "title: A Title Changed While Watching", 1), encoding="utf-8")
        page.wait_for_function("() => document.body.innerText.includes('A Title Changed While Watching')",
                               timeout=90_000)
        page.close()
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)
