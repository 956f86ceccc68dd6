"""The build gives back what it no longer needs as Pagefind starts and before it waits for it:
Pagefind needs as much memory again beside it (issue 44: the peak of the whole process tree)."""

import gc

import pytest

from catalogue import pipeline
from catalogue.system import memory
from catalogue.model import Catalogue, Paper
from catalogue.site.views import PaperView
from catalogue.system.memory import give_back
from conftest import build_project, make_project

KINDS = (Catalogue, Paper, PaperView)


def test_no_paper_nor_view_is_held_while_pagefind_runs(tmp_path, monkeypatch):
    """Counted each time the build gives back: as Pagefind starts (the map, written beside it, holds
    no view) and before the build waits for it."""
    gc.collect()
    # Other tests in this process may keep papers of their own: those alive now are held here, so that
    # no new object takes one's id, and left out of the count.
    before = {id(thing): thing for thing in gc.get_objects() if isinstance(thing, KINDS)}
    held = []

    def counted_then_given_back():
        gc.collect()
        held.append(sum(isinstance(thing, KINDS) and id(thing) not in before for thing in gc.get_objects()))
        give_back()

    monkeypatch.setattr(pipeline, "give_back", counted_then_given_back)
    built = build_project(make_project(tmp_path / "project"))
    assert "Indexing for search" in built.output
    assert held == [0, 0]


class CLibrary:
    """A stand-in for the C library, with or without glibc's malloc_trim."""

    def __init__(self, trims: bool):
        self.trimmed = []
        if trims:
            self.malloc_trim = lambda pad: self.trimmed.append(pad)


@pytest.mark.parametrize("platform, trims, trimmed", [("linux", True, [0]), ("linux", False, []), ("darwin", True, [])],
                         ids=["glibc", "musl", "macos"])
def test_the_heap_is_trimmed_where_glibc_can_and_nothing_fails_elsewhere(monkeypatch, platform, trims, trimmed):
    library = CLibrary(trims)
    monkeypatch.setattr(memory.sys, "platform", platform)
    monkeypatch.setattr(memory.ctypes, "CDLL", lambda name: library)
    memory.give_back()
    assert library.trimmed == trimmed
