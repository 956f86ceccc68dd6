"""Related papers and the map for a render: from the cache, or from the similarity process.

`python -m catalogue.discovery.similarity_process` runs beside the build, so scikit-learn (large) and the
matrices never enter the build process, nor the page writers forked from it. It starts
before the seeds are ingested (or the catalogue loaded), so that its start-up (importing scikit-learn)
overlaps that work; it answers related papers first and the map (positions, then groups) after, so that
paper pages are written while the map is still being drawn. The last build's map goes along, and the
process reads and stores the related papers' state (their vectors: tens of megabytes) in the cache
itself, so that an edit of a few papers keeps them (map.updated_map and kept_related.updated_related say
when) while the build neither reads nor holds that state.

Each build's process is forked from one server process per build process (multiprocessing's
forkserver), which has imported the similarity code, and for a small catalogue the map's
scikit-learn tools, once: a process that builds more than once (the tests, a program calling the
pipeline) does not import them again.
"""

from __future__ import annotations

import importlib
import itertools
import multiprocessing
import os
import pickle
import tempfile
import threading
from contextlib import suppress
from hashlib import blake2b
from multiprocessing.connection import Connection
from pathlib import Path
from typing import BinaryIO

from catalogue.system.cache import Cache, code_version
from catalogue.system.workers import JOBS_VARIABLE
from catalogue.errors import CatalogueError

KIND = "similarity"  # cache entries: (related papers, map positions, map groups) of one list of texts
MAP_KIND = "map"  # the one entry, by the code's version: the last build's map and what it was drawn from (MapState)
RELATED_KIND = "related"  # the one entry, by the code's version: the last build's related papers and vectors (RelatedState)
ANSWERS = 4  # related papers, map positions, map groups, the map's state
ENDING_SECONDS = 5  # how long a process whose answer broke off may take to end by itself
STORING_SECONDS = 60  # how long a process that answered may take to store the related papers' state
SIMILARITY_CODE = "catalogue.discovery.similarity_process"  # the module the process runs, by name: not imported here
ANSWERING = f"{SIMILARITY_CODE}:main"  # the function (module:name) that answers a build
# (Here rather than in map.py: the build reads them, and must not import numpy to do so.)
MAP_CLUSTERS = 500  # t-SNE lays out at most this many points: papers, or groups of similar papers
MAP_TOOLS = ("sklearn.cluster", "sklearn.decomposition", "sklearn.exceptions", "sklearn.manifold", "sklearn.preprocessing")
FORKING = multiprocessing.get_context("forkserver")


def similarity_version() -> str:
    """The code version of what finds related papers and the map: the process's, run by name."""
    return code_version(SIMILARITY_CODE)


def is_small_catalogue(papers: Path) -> bool:
    """Whether the folder holds at most MAP_CLUSTERS papers (and so its map is laid out anew each build)."""
    try:
        with os.scandir(papers) as entries:
            return sum(1 for _ in itertools.islice(entries, MAP_CLUSTERS + 1)) <= MAP_CLUSTERS
    except OSError:  # no folder yet: a first build
        return True


class SimilarityProcess:
    """`with SimilarityProcess() as similarity: similarity.ask(texts, cache); ... similarity.related()`."""

    def __init__(self, cache_file: Path | None = None, small: bool = True):
        """`cache_file`: the cache the answers will be kept in, from which the process reads the last
        related papers' state while the build ingests and loads. `small` (is_small_catalogue): the
        forkserver, if this is the first process it forks, loads the map's tools before it."""
        self.cache: Cache | None = None
        self.key: str | None = None
        self.found: list | None = None  # [related, positions] as far as they are known
        self.errors = tempfile.TemporaryFile()  # not a pipe: a chatty process must not stall on a full one
        requests_read, requests_write = os.pipe()
        answers_read, answers_write = os.pipe()
        self.requests, self.answers = open(requests_write, "wb"), open(answers_read, "rb")
        ends = (Connection(requests_read), Connection(answers_write), Connection(os.dup(self.errors.fileno())))
        stored = (str(cache_file), RELATED_KIND, similarity_version()) if cache_file else None
        answering = ANSWERING.partition(":")[0]
        FORKING.set_forkserver_preload([answering, *MAP_TOOLS] if small else [answering])  # (once it runs, kept)
        jobs = os.environ.get(JOBS_VARIABLE)  # this build's, not the forkserver's environment's
        self.process = FORKING.Process(target=answer_build, args=(ANSWERING, *ends, stored, jobs), daemon=True)
        self.not_started: BaseException | None = None
        self.lock, self.started, self.stopping = threading.Lock(), False, False
        # Started aside: the first start waits for the forkserver's imports, which the build need not wait for.
        self.starting = threading.Thread(target=self._start, args=(ends,), daemon=True)
        self.starting.start()

    def _start(self, ends: tuple[Connection, ...]) -> None:
        try:
            self.process.start()
        except BaseException as error:  # said when an answer is asked for: the pipe's end closed below ends it
            self.not_started = error
        finally:
            for end in ends:  # the process holds its own copies: its end of the answers closes when it ends
                end.close()
        with self.lock:
            self.started, stop_now = True, self.stopping
        if stop_now:  # stopped before it started (e.g. the answer was cached): nothing to wait for
            self._stop(0)

    def __enter__(self) -> SimilarityProcess:
        return self

    def __exit__(self, failed, *_) -> None:
        answered = self.found is not None and len(self.found) == ANSWERS and self.key is not None
        # Still running: storing the related papers' state (let it), not needed (the answer was cached), or the build failed.
        self._stop(STORING_SECONDS if answered and not failed else 0)
        for stream in (self.requests, self.answers, self.errors):
            with suppress(OSError):  # texts left unsent to a killed process: nothing to flush them to
                stream.close()

    def ask(self, texts: list[str], cache: Cache) -> None:
        """Each paper's text (title and abstract); the answers are kept in `cache` until a text changes."""
        self.cache = cache
        hashed = blake2b(similarity_version().encode(), digest_size=16)
        for text in texts:  # one text at a time: a digest of the list would copy the whole catalogue's text
            hashed.update(text.encode("utf-8") + b"\0")
        self.key = hashed.hexdigest()
        cached = cache.get(KIND, self.key)
        if cached is not None:
            self.found = [*cached, None]  # the map's state: kept in the cache when these were found
            self.key = None  # nothing for the process to store
            self._stop(0)
            return
        self.found = []
        version = similarity_version()  # new code: a map laid out anew, related papers found anew
        stored = (str(cache.path), RELATED_KIND, version) if cache.path else None  # (an in-memory cache keeps no state)
        request = pickle.dumps((texts, cache.get(MAP_KIND, version), stored))
        # A thread writes: the pipe holds 64 KB and the process reads only once its imports are done.
        threading.Thread(target=self._send, args=(request,), daemon=True).start()

    def related(self) -> list[tuple[int, ...]]:
        """Each paper's related papers, by their indices, most similar first."""
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
            self.requests.write(data)
            self.requests.close()
        except (OSError, ValueError):  # the process ended early (or the build, closing the pipe): the answer says why
            pass

    def _stop(self, grace: float) -> None:
        """Let the process end within `grace` seconds (it may be writing why it failed), else kill it;
        one that has not started yet is killed as soon as it has (_start), without waiting for it."""
        with self.lock:
            self.stopping = True
            if not self.started:
                return
        if self.process.pid is None:  # never started (not_started says why)
            return
        self.process.join(grace)
        if self.process.exitcode is None:  # e.g. it wrote something other than an answer and went on
            self.process.kill()
            self.process.join()

    def _answer(self, which: int):
        if self.found is None:
            raise RuntimeError("ask() first")
        while len(self.found) <= which:
            try:
                self.found.append(pickle.load(self.answers))
            except (EOFError, pickle.UnpicklingError) as error:
                self.starting.join()  # (it has started, or failed to: its end of the answers is closed)
                self._stop(ENDING_SECONDS)
                self.errors.seek(0)
                said = self.errors.read().decode("utf-8", "replace").strip() or self.not_started
                raise CatalogueError(f"finding related papers failed:\n{said or error or 'no answer'}") from None
            if len(self.found) == ANSWERS:
                self.cache.put(KIND, self.key, tuple(self.found[:3]))
                self.cache.keep_only(KIND, [self.key])
                self.cache.put(MAP_KIND, similarity_version(), self.found[3])
                self.cache.keep_only(MAP_KIND, [similarity_version()])
        return self.found[which]


def answer_build(answering: str, requests: Connection, answers: Connection, errors: Connection,
                 stored: tuple[str, str, str] | None, jobs: str | None) -> None:
    """In the forked process: `answering` (module:name) answers the build over the pipes, saying on
    `errors` why it failed, with the build's --jobs."""
    os.dup2(errors.fileno(), 2)  # where Python writes a traceback, and libraries their complaints
    errors.close()
    os.environ.pop(JOBS_VARIABLE, None)
    if jobs is not None:
        os.environ[JOBS_VARIABLE] = jobs
    module, _, name = answering.partition(":")
    with _stream(requests, "rb") as reading, _stream(answers, "wb") as writing:
        getattr(importlib.import_module(module), name)(reading, writing, stored)


def _stream(end: Connection, mode: str) -> BinaryIO:
    """A pipe's end handed over as a Connection, as a buffered file (the answers are pickles, not messages)."""
    stream = open(os.dup(end.fileno()), mode)
    end.close()
    return stream
