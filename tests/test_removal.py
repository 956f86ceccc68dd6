"""remove_tree: shutil.rmtree with the folders two levels down removed in parallel."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from catalogue.system.removal import remove_tree


def make_tree(root: Path, folders: int, files: int) -> None:
    """A site-like tree: root/papers/<n>/{index.html, paper.bib}, root/assets/*, files at the top."""
    for n in range(folders):
        (root / "papers" / f"p{n}" / "deeper").mkdir(parents=True)
        (root / "papers" / f"p{n}" / "index.html").write_text(f"page {n}")
        (root / "papers" / f"p{n}" / "deeper" / "x.png").write_bytes(b"x")
    (root / "assets").mkdir()
    for n in range(files):
        (root / "assets" / f"a{n}.js").write_text("js")
        (root / f"top{n}.html").write_text("top")


def test_every_file_and_folder_goes(tmp_path):
    site = tmp_path / "site"
    make_tree(site, folders=60, files=10)
    assert sum(1 for _ in site.rglob("*")) > 250
    remove_tree(site)
    assert not site.exists()
    assert list(tmp_path.iterdir()) == []


def test_links_are_removed_not_followed(tmp_path):
    """A link to a folder or file outside (planted at either level) goes; what it points to stays."""
    outside = tmp_path / "outside"
    (outside / "inner").mkdir(parents=True)
    (outside / "keep.txt").write_text("mine")
    (outside / "inner" / "keep.txt").write_text("mine too")
    site = tmp_path / "site"
    make_tree(site, folders=5, files=2)
    os.symlink(outside, site / "linked-folder")
    os.symlink(outside, site / "papers" / "linked-folder")
    os.symlink(outside / "keep.txt", site / "papers" / "p0" / "linked-file")
    remove_tree(site)
    assert not site.exists()
    assert (outside / "keep.txt").read_text() == "mine"
    assert (outside / "inner" / "keep.txt").read_text() == "mine too"


def test_a_missing_folder_raises_as_rmtree_does_unless_ignored(tmp_path):
    with pytest.raises(FileNotFoundError):
        remove_tree(tmp_path / "absent")
    remove_tree(tmp_path / "absent", ignore_errors=True)


def test_a_link_given_as_the_folder_is_refused_as_rmtree_refuses_it(tmp_path):
    make_tree(tmp_path / "real", folders=5, files=2)
    before = sorted(path.relative_to(tmp_path) for path in (tmp_path / "real").rglob("*"))
    os.symlink(tmp_path / "real", tmp_path / "link")
    with pytest.raises(OSError):
        remove_tree(tmp_path / "link")
    assert sorted(path.relative_to(tmp_path) for path in (tmp_path / "real").rglob("*")) == before
