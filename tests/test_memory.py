"""The build gives back what it no longer needs before it waits for Pagefind, which needs as much
memory again beside it (issue 44: the peak of the whole process tree)."""

import gc

from catalogue import pipeline
from catalogue.model import Catalogue, Paper
from catalogue.site.views import PaperView
from catalogue.system.memory import give_back
from conftest import build_project, make_project

KINDS = (Catalogue, Paper, PaperView)


def test_no_paper_nor_view_is_held_while_pagefind_runs(tmp_path, monkeypatch):
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
    assert held == [0]
