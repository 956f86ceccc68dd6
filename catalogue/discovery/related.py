"""Related papers and the map for a render: from the cache, or from the similarity process.

`python -m catalogue.discovery.similarity` runs beside the build, so scikit-learn (large) and the
matrices never enter the build process, nor the page writers forked from it. It starts
before the seeds are ingested (or the catalogue loaded), so that its start-up (importing scikit-learn)
overlaps that work; it answers related papers first and the map (positions, then groups) after, so that
paper pages are written while the map is still being drawn. The last build's map goes along, and the
process reads and stores the related papers' state (their vectors: tens of megabytes) in the cache
itself, so that an edit of a few papers keeps them (similarity.updated_map and updated_related say
when) while the build neither reads nor holds that state.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import tempfile
import threading
from contextlib import suppress
from hashlib import blake2b
from pathlib import Path

from catalogue.system.cache import Cache, code_version
from catalogue.errors import CatalogueError

KIND = "similarity"  # cache entries: (related papers, map positions, map groups) of one list of texts
MAP_KIND = "map"  # the one entry, by the code's version: the last build's map and what it was drawn from (MapState)
RELATED_KIND = "related"  # the one entry, by the code's version: the last build's related papers and vectors (RelatedState)
ANSWERS = 4  # related papers, map positions, map groups, the map's state
ENDING_SECONDS = 5  # how long a process whose answer broke off may take to end by itself
STORING_SECONDS = 60  # how long a process that answered may take to store the related papers' state


class SimilarityProcess:
    """`with SimilarityProcess() as similarity: similarity.ask(texts, cache); ... similarity.related()`."""

    def __init__(self, cache_file: Path | None = None):
        """`cache_file`: the cache the answers will be kept in, from which the process reads the last
        related papers' state while the build ingests and loads."""
        self.cache: Cache | None = None
        self.key: str | None = None
        self.found: list | None = None  # [related, positions] as far as they are known
        self.errors = tempfile.TemporaryFile()  # not a pipe: a chatty process must not stall on a full one
        package_parent = str(Path(__file__).resolve().parents[2])
        environment = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [package_parent,
                                                                                 os.environ.get("PYTHONPATH")]))}
        stored = [str(cache_file), RELATED_KIND, code_version()] if cache_file else []
        self.process = subprocess.Popen([sys.executable, "-m", "catalogue.discovery.similarity", *stored],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.errors, env=environment)

    def __enter__(self) -> SimilarityProcess:
        return self

    def __exit__(self, failed, *_) -> None:
        answered = self.found is not None and len(self.found) == ANSWERS and self.key is not None
        # Still running: storing the related papers' state (let it), not needed (the answer was cached), or the build failed.
        self._stop(STORING_SECONDS if answered and not failed else 0)
        for stream in (self.process.stdin, self.process.stdout, self.errors):
            with suppress(OSError):  # texts left unsent to a killed process: nothing to flush them to
                stream.close()

    def ask(self, texts: list[str], cache: Cache) -> None:
        """Each paper's text (title and abstract); the answers are kept in `cache` until a text changes."""
        self.cache = cache
        hashed = blake2b(code_version().encode(), digest_size=16)
        for text in texts:  # one text at a time: a digest of the list would copy the whole catalogue's text
            hashed.update(text.encode("utf-8") + b"\0")
        self.key = hashed.hexdigest()
        cached = cache.get(KIND, self.key)
        if cached is not None:
            self.found = [*cached, None]  # the map's state: kept in the cache when these were found
            self.key = None  # nothing for the process to store
            self.process.kill()
            return
        self.found = []
        version = code_version()  # new code: a map laid out anew, related papers found anew
        stored = (str(cache.path), RELATED_KIND, version) if cache.path else None  # (an in-memory cache keeps no state)
        request = pickle.dumps((texts, cache.get(MAP_KIND, version), stored))
        # A thread writes: the pipe holds 64 KB and the process reads only once its imports are done.
        threading.Thread(target=self._send, args=(request,), daemon=True).start()

    def related(self) -> list[tuple[tuple[int, tuple[str, ...]], ...]]:
        """Each paper's related papers: (index of the other paper, the terms they share)."""
        return self._answer(0)

    def positions(self) -> list[tuple[float, float]]:
        """Each paper's place on the map, in [0, 1] x [0, 1]."""
        return self._answer(1)

    def groups(self) -> list[tuple[tuple[str, ...], tuple[int, ...]]]:
        """The map's groups: (the words that name it, its papers' indices), largest first."""
        groups = self._answer(2)
        self._answer(3)  # the map's state, which the cache keeps for the next build
        return groups

    def _send(self, data: bytes) -> None:
        try:
            self.process.stdin.write(data)
            self.process.stdin.close()
        except (OSError, ValueError):  # the process ended early (or the build, closing the pipe): the answer says why
            pass

    def _stop(self, grace: float) -> None:
        """Let the process end within `grace` seconds (it may be writing why it failed), else kill it."""
        try:
            self.process.wait(timeout=grace)
        except subprocess.TimeoutExpired:  # e.g. it wrote something other than an answer and went on
            self.process.kill()
            self.process.wait()

    def _answer(self, which: int):
        if self.found is None:
            raise RuntimeError("ask() first")
        while len(self.found) <= which:
            try:
                self.found.append(pickle.load(self.process.stdout))
            except (EOFError, pickle.UnpicklingError) as error:
                self._stop(ENDING_SECONDS)
                self.errors.seek(0)
                said = self.errors.read().decode("utf-8", "replace").strip()
                raise CatalogueError(f"finding related papers failed:\n{said or error or 'no answer'}") from None
            if len(self.found) == ANSWERS:
                self.cache.put(KIND, self.key, tuple(self.found[:3]))
                self.cache.keep_only(KIND, [self.key])
                self.cache.put(MAP_KIND, code_version(), self.found[3])
                self.cache.keep_only(MAP_KIND, [code_version()])
        return self.found[which]
