"""The one way the build works in parallel: results in order, errors raised in the build, a dead
worker naming the item it was at, and no worker left behind."""

import multiprocessing
import os

import pytest

from catalogue.errors import CatalogueError
from click.testing import CliRunner

from catalogue.cli import main
from catalogue.system.progress import Progress
from catalogue.system.workers import JOBS_VARIABLE, cores, made_for_each, run_in_workers


def chunks_of(total: int, size: int):
    return (range(start, min(start + size, total)) for start in range(0, total, size))


def died(at: int, code) -> str:
    return f"item {at} stopped (exit code {code})"


@pytest.mark.parametrize("total, size, jobs", [(0, 3, 2), (1, 3, 2), (10, 3, 2), (97, 10, 3), (5, 1, 1)])
def test_results_come_back_in_order(total, size, jobs):
    assert run_in_workers(lambda i: i * i, chunks_of(total, size), died, jobs=jobs) == [i * i for i in range(total)]
    assert multiprocessing.active_children() == []


@pytest.mark.parametrize("count, jobs, by_workers", [(9, "2", False), (10, "2", True), (40, "1", False)])
def test_few_items_or_one_core_are_made_in_this_process_and_the_rest_by_workers(monkeypatch, count, jobs, by_workers):
    monkeypatch.setenv(JOBS_VARIABLE, jobs)
    with Progress("Squaring", count) as progress:
        made = made_for_each(lambda i: (i * i, os.getpid()), count, died, alone_below=10, chunk=3, progress=progress)
    assert [square for square, _ in made] == [i * i for i in range(count)] and progress.done == count
    assert ({pid for _, pid in made} != {os.getpid()}) == by_workers


def test_the_workers_see_what_the_build_held_before_forking():
    table = {i: f"value {i}" for i in range(50)}  # inherited, never pickled
    assert run_in_workers(table.__getitem__, chunks_of(50, 7), died, jobs=2) == list(table.values())


class Unpicklable(Exception):
    def __reduce__(self):
        raise TypeError("not picklable")


@pytest.mark.parametrize("error, message", [(CatalogueError("seeds/x.txt:3: bad"), "seeds/x.txt:3: bad"),
                                            (Unpicklable("odd"), "Unpicklable: odd")])
def test_an_error_in_a_task_is_raised_in_the_build(error, message):
    def task(i):
        if i == 13:
            raise error
        return i
    with pytest.raises(CatalogueError, match=message):
        run_in_workers(task, chunks_of(40, 4), died, jobs=2)
    assert multiprocessing.active_children() == []


def test_a_worker_that_dies_ends_the_run_naming_its_item():
    def task(i):
        if i == 21:
            os._exit(7)
        return i
    with pytest.raises(CatalogueError) as raised:
        run_in_workers(task, chunks_of(40, 4), died, jobs=2)
    assert raised.value.message == "item 21 stopped (exit code 7)"
    assert multiprocessing.active_children() == []


def test_the_default_is_every_core_this_process_may_use():
    assert 1 <= cores() <= (os.cpu_count() or 1)



@pytest.mark.parametrize("given, expected", [("3", 3), ("16", 16), ("0", None), ("x", None), ("", None)])
def test_jobs_override_the_cores_and_nonsense_is_ignored(monkeypatch, given, expected):
    monkeypatch.setenv(JOBS_VARIABLE, "")  # recorded, so the value the test sets goes at the end
    machine = cores()
    monkeypatch.setenv(JOBS_VARIABLE, given)
    assert cores() == (expected or machine)


def test_the_jobs_option_reaches_every_stage_and_the_processes_it_starts(tmp_path, monkeypatch):
    monkeypatch.setenv(JOBS_VARIABLE, "")  # recorded, so the value the test sets goes at the end
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    (seeds / "a.txt").write_text("ICML 2026\n\nWe propose JobNet, a method for scheduling many jobs on few cores.\n")
    result = CliRunner().invoke(main, ["ingest", "--jobs", "5", "--seeds", str(seeds), "--content", str(tmp_path / "content")])
    assert result.exit_code == 0, result.output
    assert os.environ[JOBS_VARIABLE] == "5" and cores() == 5
    assert CliRunner().invoke(main, ["ingest", "--jobs", "0", "--seeds", str(seeds)]).exit_code == 2  # at least one
