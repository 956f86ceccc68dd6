"""Work shared out to forked worker processes: the one way the build runs in parallel.

Workers are forked, so they inherit what the task needs (compiled templates, converted text,
the taxonomy) without pickling it; each asks for a chunk of item numbers, sends back the
chunk's results, and asks again. Not multiprocessing.Pool: a worker that dies (killed, out of
memory) would make it wait forever, and its threads in this process wake for every result.
Here each worker notes in shared memory which item it is at, so a death ends the run at once
with that item's name; an error in a task is raised in this process; a failed or interrupted
run kills the workers, and a worker whose build is gone ends by itself.
"""

from __future__ import annotations

import gc
import multiprocessing
import multiprocessing.connection
import os
import pickle
from collections.abc import Callable, Iterable, Iterator
from contextlib import suppress
from typing import TypeVar

from catalogue.errors import CatalogueError
from catalogue.system.progress import Progress

T = TypeVar("T")


JOBS_VARIABLE = "CATALOGUE_JOBS"  # set by --jobs; the similarity process is handed it


def cores() -> int:
    """How many workers a parallel stage runs: --jobs (CATALOGUE_JOBS) when given, else the cores
    this process may use (a container's or taskset's share, not the machine's)."""
    if (jobs := os.environ.get(JOBS_VARIABLE, "")).isdigit() and int(jobs) > 0:
        return int(jobs)
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def even_chunks(total: int, size: int) -> Iterator[range]:
    """range(total) in consecutive chunks of `size` (the last one shorter), for run_in_workers."""
    return (range(start, min(start + size, total)) for start in range(0, total, size))


def made_for_each(task: Callable[[int], T], count: int, died: Callable[[int, int | None], str], *,
                  alone_below: int, chunk: int, progress: Progress | None = None) -> list[T]:
    """[task(i) for i in range(count)]: in this process when there are fewer than `alone_below`
    (starting workers would cost more than they save) or one core, else by workers (run_in_workers),
    `chunk` items at a time."""
    if count < alone_below or cores() == 1:
        made = [task(index) for index in range(count)]
        if progress:
            progress.advance(count)
        return made
    return run_in_workers(task, even_chunks(count, chunk), died, progress)


def run_in_workers(task: Callable[[int], T], chunks: Iterable[range], died: Callable[[int, int | None], str],
                   progress: Progress | None = None, jobs: int | None = None) -> list[T]:
    """[task(i) for every i of the chunks], in that order, made by `jobs` forked workers (the cores
    by default). `died(item, exit code)` is the message when a worker stops while at `item`."""
    context = multiprocessing.get_context("fork")
    chunks = iter(chunks)
    results: dict[int, T] = {}
    making: dict = {}  # connection to a worker -> (the worker, the item it is at, the chunk it has or None)
    # What exists now is out of the workers' cycle collections (frozen while they fork): a
    # collection that walked it would write to every page the build shares with them, copying it.
    gc.freeze()
    try:
        for _ in range(max(1, jobs or cores())):
            ours, theirs = context.Pipe()
            at = context.RawValue("q", -1)
            worker = context.Process(target=_work, args=(theirs, [*making, ours], task, at), daemon=True)
            worker.start()
            theirs.close()
            making[ours] = (worker, at, None)
    finally:
        gc.unfreeze()
    try:
        for connection in making:
            _hand_out(connection, making, chunks)
        while busy := [connection for connection, (_, _, chunk) in making.items() if chunk]:
            for connection in multiprocessing.connection.wait(busy):
                worker, at, chunk = making[connection]
                try:
                    failure, made = connection.recv()
                except EOFError:
                    worker.join()
                    raise CatalogueError(died(at.value if at.value >= 0 else chunk.start, worker.exitcode)) from None
                if failure is not None:
                    raise failure
                results.update(zip(chunk, made))
                if progress:
                    progress.advance(len(chunk))
                _hand_out(connection, making, chunks)
    except BaseException:
        for worker, _, _ in making.values():
            worker.kill()  # the run failed: no one needs the rest
        raise
    finally:
        for connection, (worker, _, _) in making.items():
            worker.join()
            connection.close()
    return [results[index] for index in sorted(results)]


def _hand_out(connection, making: dict, chunks) -> None:
    """The next chunk to a worker that has finished one, or None when all are handed out (it ends)."""
    worker, at, _ = making[connection]
    chunk = next(chunks, None)
    making[connection] = (worker, at, chunk)
    connection.send(chunk)


def _work(connection, builds_ends: list, task: Callable[[int], T], at) -> None:
    """A worker: for each chunk received, (None, its results) or (the error, None) sent back, until None."""
    for end in builds_ends:
        end.close()  # inherited copies: with only the build holding them, a worker sees the end if the build dies
    gc.enable()  # the build may have paused it (pipeline.cycles_left_alone); rendering pages makes cycles
    # The build is gone (killed): no one to answer. Ctrl-C reaches the workers too: the build
    # says it, in one line, and ends them.
    with suppress(EOFError, BrokenPipeError, KeyboardInterrupt):
        while (chunk := connection.recv()) is not None:
            try:
                made = []
                for index in chunk:
                    at.value = index
                    made.append(task(index))
                at.value = -1  # between chunks: a death now is no item's doing
                answer = (None, made)
            except Exception as error:  # noqa: BLE001 - raised again in the build
                answer = (error, None)
            connection.send(_picklable(answer))


def _picklable(answer: tuple):
    """The answer, or for an error that cannot be pickled, a CatalogueError with its text."""
    error, _ = answer
    if error is None:
        return answer
    try:
        pickle.dumps(error)
        return answer
    except Exception:  # noqa: BLE001 - any failure to pickle
        return CatalogueError(f"{type(error).__name__}: {error}"), None
