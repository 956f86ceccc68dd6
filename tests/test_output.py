"""Writing many outputs on both cores: every file whole, and a failure (an error, or a worker
that dies) stops the build with a message instead of hanging it."""

import multiprocessing
import os

import pytest

from catalogue.errors import CatalogueError
from catalogue.publish.writer import CHUNK, PARALLEL_FROM, Output, SiteWriter, _chunks
from catalogue.system.workers import JOBS_VARIABLE

MANY = PARALLEL_FROM + 7 * CHUNK + 3  # enough for the workers, and a last chunk that is not full


@pytest.fixture(autouse=True)
def two_workers(monkeypatch):
    monkeypatch.setenv(JOBS_VARIABLE, "2")  # as on any machine with two cores or more


def page(n: int) -> Output:
    return Output(f"papers/p{n}/index.html", f"inputs {n}", lambda: f"page {n} " * n)


def test_many_outputs_are_all_written_whole(tmp_path):
    writer = SiteWriter(tmp_path / "site")
    writer.write([page(n) for n in range(MANY)])
    report = writer.finish()
    assert report.written == MANY
    for n in range(MANY):
        assert (tmp_path / "site" / f"papers/p{n}/index.html").read_text() == f"page {n} " * n
    assert report.size == sum(len(f"page {n} " * n) for n in range(MANY))


def failing(error: Exception):
    def make():
        raise error
    return make


class Unpicklable(Exception):
    def __reduce__(self):
        raise TypeError("not picklable")


@pytest.mark.parametrize("error, message", [
    (CatalogueError("templates/paper.html: 'x' is undefined"), "templates/paper.html: 'x' is undefined"),
    (Unpicklable("odd"), "Unpicklable: odd"),
])
def test_an_error_in_a_worker_stops_the_build_with_its_message(tmp_path, error, message):
    outputs = [page(n) for n in range(MANY)]
    outputs[MANY - 2] = Output("papers/bad/index.html", "inputs", failing(error))
    with pytest.raises(CatalogueError, match=message):
        SiteWriter(tmp_path / "site").write(outputs)
    assert multiprocessing.active_children() == []


def test_a_worker_that_dies_stops_the_build_and_names_what_it_was_making(tmp_path):
    dying = 2 * CHUNK + 1
    outputs = [page(n) for n in range(MANY)]
    outputs[dying] = Output(f"papers/p{dying}/index.html", "inputs", lambda: os._exit(3))
    with pytest.raises(CatalogueError) as raised:
        SiteWriter(tmp_path / "site").write(outputs)
    assert raised.value.message == f"a page maker stopped (exit code 3) while making papers/p{dying}/index.html"
    assert multiprocessing.active_children() == []


@pytest.mark.parametrize("total", [1, 5, PARALLEL_FROM, 10_007])
def test_chunks_cover_every_output_once_the_first_alone(total):
    chunks = list(_chunks(total))
    assert [index for chunk in chunks for index in chunk] == list(range(total))
    assert len(chunks[0]) == 1 and max(len(chunk) for chunk in chunks) <= CHUNK
    assert [len(chunk) for chunk in chunks[:-1]] == sorted(len(chunk) for chunk in chunks[:-1])  # growing
