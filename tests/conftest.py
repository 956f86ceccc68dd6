"""Shared fixtures: the seeds built once into a temporary folder, and Debian's Chromium."""

from __future__ import annotations

import functools
import gzip
import http.server
import os
import random
import shutil
import threading
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import hypothesis
import pytest
from click.testing import CliRunner

from catalogue.cli import main
from catalogue.serve.handler import QuietHandler

PROJECT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
SUBPATH = "REPO"
# No time limit on running an example, nor on drawing the first ones (Hypothesis's too_slow health
# check): a loaded machine is slow (the suite's other worker builds sites meanwhile), and timings
# belong in bench/, not in tests.
hypothesis.settings.register_profile("catalogue", deadline=None,
                                     suppress_health_check=[hypothesis.HealthCheck.too_slow])
hypothesis.settings.load_profile("catalogue")


@pytest.hookimpl(tryfirst=True)  # before Hypothesis's plugin reads the option
def pytest_configure(config: pytest.Config) -> None:
    """Property tests draw fresh examples on every run, CI included, from one seed per run;
    `pytest --hypothesis-seed=N` replays the run that printed N."""
    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None:  # a pytest-xdist worker: the run's seed, drawn once by the controller
        config.option.hypothesis_seed = workerinput["hypothesis_seed"]
    elif config.getoption("hypothesis_seed", None) is None:
        config.option.hypothesis_seed = str(random.SystemRandom().randrange(2**32))


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node) -> None:
    """pytest-xdist: every worker draws from the seed the controller prints."""
    node.workerinput["hypothesis_seed"] = node.config.option.hypothesis_seed


# The longest test files, longest first, run before all others: pytest-xdist (--dist loadfile, with
# --no-loadscope-reorder from pytest.ini) hands files to idle workers in collection order, so a
# long file handed out last would keep one worker busy while the other has nothing left to do.
LONGEST_FILES = ("test_incremental.py", "test_accessibility.py", "test_title_search.py", "test_lighthouse.py",
                 "test_injection.py", "test_build.py", "test_attacks.py", "test_properties.py", "test_pathological.py",
                 "test_bench.py", "test_shards.py", "test_lists.py", "test_real_abstracts.py", "test_browser.py",
                 "test_authors.py", "test_reader.py", "test_cache_safety.py", "test_robustness.py", "test_hosting.py",
                 "test_similarity.py", "test_check.py", "test_search_page.py", "test_i18n.py", "test_share.py")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The longest files first (LONGEST_FILES), the others after them in their usual order."""
    tests = Path(__file__).parent
    if missing := [name for name in LONGEST_FILES if not (tests / name).is_file()]:
        raise pytest.UsageError(f"tests/conftest.py's LONGEST_FILES names files that are not in tests/: {missing}")
    rank = {name: at for at, name in enumerate(LONGEST_FILES)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


def hypothesis_seed_line(config: pytest.Config) -> str:
    seed = config.getoption("hypothesis_seed")
    return f"hypothesis seed: {seed} (replay with: python -m pytest --hypothesis-seed={seed})"


def pytest_report_header(config: pytest.Config) -> str:
    return hypothesis_seed_line(config)


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    """The seed again at the end, where a failure is read (and -q hides the header)."""
    terminalreporter.write_line(hypothesis_seed_line(config))


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


def copy_built(built: BuiltSite, root: Path) -> BuiltSite:
    """A copy of a built project at `root`, its cache and manifest included: the same project a
    build there would leave, so that the next build there is incremental from it."""
    shutil.copytree(built.root, root, symlinks=True, dirs_exist_ok=True)
    return BuiltSite(root, root / "seeds", root / "content", root / "site", built.output)


class SeedsBuilds:
    """`build_project(make_project(root), *extra)` for the project's seeds, made once per set of
    options (per pytest-xdist worker) and handed out read-only (`built`) or as a copy (`copy`)."""

    def __init__(self, scratch: pytest.TempPathFactory):
        self.scratch = scratch
        self.made: dict[tuple[str, ...], BuiltSite] = {}

    def built(self, *extra: str) -> BuiltSite:
        """The build itself, shared: a test must not write to it."""
        if extra not in self.made:
            self.made[extra] = build_project(make_project(self.scratch.mktemp("seeds-built") / "project"), *extra)
        return self.made[extra]

    def copy(self, root: Path, *extra: str) -> BuiltSite:
        """A copy of the build at `root` (copy_built), for a test to change."""
        return copy_built(self.built(*extra), root)


@pytest.fixture(scope="session")
def seeds_builds(tmp_path_factory) -> SeedsBuilds:
    return SeedsBuilds(tmp_path_factory)


@pytest.fixture(scope="session")
def built_site(seeds_builds: SeedsBuilds) -> BuiltSite:
    """The two seed documents built once, with search, at no base URL."""
    return seeds_builds.built()


@pytest.fixture(scope="session")
def authored_site(tmp_path_factory) -> Path:
    """tests/authored.py's papers rendered with its base URL and indexed for search."""
    from authored import BASE, write_content

    root = tmp_path_factory.mktemp("authored")
    content = write_content(root)
    run_cli("render", "--content", str(content), "--out", str(root / "site"), "--base-url", BASE)
    run_cli("index", "--out", str(root / "site"))
    return root / "site"


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


@pytest.fixture
def page(browser):
    """A fresh page of its own context that fails its test on any page error or console error (a
    file the browser looked for and did not find is one)."""
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    yield page
    context.close()
    assert errors == []


class SiteHandler(QuietHandler):
    """A static host: correct types for Pagefind's files and, like GitHub Pages, the site's
    404.html (with status 404) for any missing address when `not_found` names it."""

    not_found: Path | None = None
    policy: str | None = None  # a Content-Security-Policy header for every response
    compress: bool = False  # text files gzipped for a client that accepts it, as GitHub Pages and Netlify send them

    def do_GET(self):
        path = self.translate_path(self.path)
        if os.path.isdir(path) and urllib.parse.urlsplit(self.path).path.endswith("/"):
            path = os.path.join(path, "index.html")
        kind = self.guess_type(path)
        if not (self.compress and "gzip" in self.headers.get("Accept-Encoding", "") and os.path.isfile(path)
                and kind.startswith(("text/", "application/json", "image/svg+xml"))):
            return super().do_GET()
        body = gzip.compress(Path(path).read_bytes())
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def end_headers(self):
        if self.policy:
            self.send_header("Content-Security-Policy", self.policy)
        super().end_headers()

    def not_found_page(self):
        return self.not_found


@contextmanager
def serve_folder(docroot: Path, *, not_found: Path | None = None, policy: str | None = None,
                 compress: bool = False) -> Iterator[str]:
    """Serve `docroot` at http://127.0.0.1:PORT/ (text gzipped when `compress`); yields that address.
    The port is bound first, so the folder may be filled (e.g. built with that address as its base
    URL) afterwards."""
    handler_class = type("Handler", (SiteHandler,), {"not_found": not_found, "policy": policy, "compress": compress})
    handler = functools.partial(handler_class, directory=str(docroot))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        SERVERS_TO_STOP.append(server)


SERVERS_TO_STOP: list[http.server.ThreadingHTTPServer] = []


@pytest.fixture(autouse=True)
def servers_outlive_the_page() -> Iterator[None]:
    """A server a test started stops after the test's page has closed, not as its `with` block
    ends: a request the page makes as the test ends (a prefetch, a late script) then meets the
    server, as it would on a real host, rather than a reset connection the page reports as an error."""
    yield
    while SERVERS_TO_STOP:
        server = SERVERS_TO_STOP.pop()
        server.shutdown()
        server.server_close()


@contextmanager
def serve_under_subpath(site: Path, scratch: Path, *, not_found: bool = False,
                        policy: str | None = None) -> Iterator[str]:
    """Serve a copy of `site` at http://127.0.0.1:PORT/REPO/; yields that address."""
    docroot = scratch / "docroot"
    shutil.copytree(site, docroot / SUBPATH)
    with serve_folder(docroot, not_found=docroot / SUBPATH / "404.html" if not_found else None,
                      policy=policy) as address:
        yield f"{address}{SUBPATH}/"
