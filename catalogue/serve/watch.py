"""`serve --watch`: build again when the inputs change, and reload the pages open in a browser.

The inputs are watched with watchfiles; each change runs `build.py build` as a process of its
own (a failed build prints its message and keeps the previous site, as always). Pages served
by the preview get one script more, /.catalogue-reload.js, added as they are sent (the files
on disk stay as built); it asks /.catalogue-generation every second and reloads the page when
a build has finished since. The build's own writes in content/ (its cache, its lock, the
record of what it derived) are not changes, nor are an editor's scratch files (EDITOR_SCRATCH).
"""

from __future__ import annotations

import re
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path

from watchfiles import watch

from catalogue.serve.handler import QuietHandler

RELOAD_SCRIPT = "/.catalogue-reload.js"
GENERATION = "/.catalogue-generation"
# What a page runs: no module, no library, as the site's own scripts (an external file, so a
# strict content security policy allows it).
RELOADER = b"""(function () {
  var seen = null;
  setInterval(function () {
    fetch("/.catalogue-generation", { cache: "no-store" }).then(function (answer) { return answer.text(); })
      .then(function (generation) {
        if (seen === null) seen = generation;
        else if (generation !== seen) location.reload();
      }).catch(function () {});
  }, 1000);
})();
"""
# Names the build writes in the folders it reads (the cache, locks, temporary files, .trash, ...).
BUILD_OWN = (".cache", ".lock", ".trash", ".derived.json")
# Files editors and tools write beside the file being edited, for a moment or for the session:
# they are no change of an input, so they neither start a build nor appear among the changes.
EDITOR_SCRATCH = re.compile(
    r"sed[A-Za-z0-9]{6}"  # sed -i: its output, renamed over the file when done (sedfesyJi)
    r"|.+\.sw[a-px]"  # vim: swap files (.paper.md.swp, then .swo, ...) and .swx, its test of the folder
    r"|\.#.+|#.+#"  # emacs: a lock (.#paper.md) and an auto-save (#paper.md#)
    r"|.+~|.+\.tmp"  # backups (paper.md~: emacs, vim, gedit) and temporary files (the build's too)
    r"|\.goutputstream-.+|.+\.kate-swp|.+___jb_(?:tmp|old)___")  # gedit, Kate, JetBrains' safe write
# vim's test that it may write in a folder: a file named 4913 (or 4913 + 123k when that exists).
VIM_PROBE_FIRST, VIM_PROBE_STEP = 4913, 123
DEBOUNCE_MS = 300


class Generation:
    """How many builds have finished since the server started (read by every page's script)."""

    def __init__(self) -> None:
        self.value = 0
        self.lock = threading.Lock()

    def advance(self) -> None:
        with self.lock:
            self.value += 1


def is_input_change(_change, path: str) -> bool:
    """A change a person made (not one of the build's own files, not an editor's scratch file)."""
    path = Path(path)
    return not (any(part in BUILD_OWN for part in path.parts) or is_editor_scratch(path.name))


def is_editor_scratch(name: str) -> bool:
    """Whether a file of this name is an editor's or a tool's, written beside the file it edits (EDITOR_SCRATCH)."""
    if re.fullmatch(r"[0-9]+", name) and int(name) >= VIM_PROBE_FIRST:
        return (int(name) - VIM_PROBE_FIRST) % VIM_PROBE_STEP == 0
    return EDITOR_SCRATCH.fullmatch(name) is not None


def rebuild_on_change(watched: list[Path], command: list[str], generation: Generation, stop: threading.Event,
                      say: Callable[[str], None]) -> None:
    """Until `stop`: each batch of changes to `watched` runs `command`; a success advances the generation."""
    for changes in watch(*watched, watch_filter=is_input_change, stop_event=stop, debounce=DEBOUNCE_MS):
        names = sorted({Path(path).name for _, path in changes})
        say(f"Changed: {', '.join(names[:5])}{' ...' if len(names) > 5 else ''}; building")
        if subprocess.run(command).returncode == 0:
            generation.advance()


def reloading_handler(generation: Generation) -> type[QuietHandler]:
    """The preview's handler, serving the reload script and the generation, and adding the script to pages."""

    class ReloadingHandler(QuietHandler):
        def do_GET(self) -> None:
            if self.path == RELOAD_SCRIPT:
                return self.answer(RELOADER, "text/javascript")
            if self.path == GENERATION:
                return self.answer(str(generation.value).encode(), "text/plain")
            page = self.html_file()
            if page is None:
                return super().do_GET()
            body = page.read_bytes()
            end = body.rfind(b"</body>")
            script = f'<script src="{RELOAD_SCRIPT}"></script>'.encode()
            return self.answer(body[:end] + script + body[end:] if end >= 0 else body + script,
                               "text/html; charset=utf-8")

        def html_file(self) -> Path | None:
            """The HTML file a GET names (a folder's index.html), when there is one."""
            path = Path(self.translate_path(self.path))
            if path.is_dir():  # (without its final '/', the handler first redirects to the address with it)
                if not self.path.split("?", 1)[0].split("#", 1)[0].endswith("/"):
                    return None
                path = path / "index.html"
            return path if path.suffix == ".html" and path.is_file() else None

        def answer(self, body: bytes, content_type: str) -> None:
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

    return ReloadingHandler
