"""Shared fixtures: the seeds built once into a temporary folder, and Debian's Chromium."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from catalogue.cli import main

PROJECT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"


@dataclass(frozen=True)
class BuiltSite:
    root: Path  # a scratch project: seeds/, content/, site/
    seeds: Path
    content: Path
    out: Path
    output: str  # what the build printed


def make_project(root: Path) -> Path:
    """A scratch copy of the project's seeds and taxonomy (content/papers starts empty)."""
    shutil.copytree(PROJECT / "seeds", root / "seeds")
    (root / "content").mkdir(parents=True)
    shutil.copy(PROJECT / "content" / "topics.yaml", root / "content" / "topics.yaml")
    return root


def run_cli(*args: str) -> str:
    """Run the command line in-process; fail the test with its output if it fails."""
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def build_project(root: Path, *extra: str) -> BuiltSite:
    seeds, content, out = root / "seeds", root / "content", root / "site"
    output = run_cli("build", "--seeds", str(seeds), "--content", str(content), "--out", str(out), *extra)
    return BuiltSite(root, seeds, content, out, output)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> BuiltSite:
    """The two seed documents built once, with search, at no base URL."""
    return build_project(make_project(tmp_path_factory.mktemp("project")))


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium driven by Playwright (never a downloaded browser)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"],
        )
        yield chromium
        chromium.close()
