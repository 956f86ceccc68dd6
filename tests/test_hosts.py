"""`check` knows the hosts: a site's size, file count, fullest folder and largest file against
GitHub Pages', Netlify's and this project's limits (failing, naming the path) and Cloudflare
Pages' (shown only). Small limits stand in for the real ones."""

import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from catalogue.cli import main
from catalogue.site import hosts
from catalogue.site.check import check_site
from catalogue.site.hosts import Limits, host_problems, measure

ROOMY = Limits(site_bytes=10**6, netlify_entries=100, folder_entries=50, file_bytes=1000,
               cloudflare_files=20, cloudflare_file_bytes=500)


@pytest.fixture
def tree(tmp_path) -> Path:
    """A small folder tree of known shape: 12 files, the largest big/blob.bin (900 bytes)."""
    site = tmp_path / "tree"
    (site / "many").mkdir(parents=True)
    (site / "big").mkdir()
    for number in range(10):
        (site / "many" / f"{number}.html").write_text("x" * number, encoding="utf-8")
    (site / "big" / "blob.bin").write_bytes(b"\0" * 900)
    (site / "index.html").write_text("home", encoding="utf-8")
    return site


def test_one_walk_measures_sizes_and_entries(tree):
    shape = measure(tree)
    assert len(shape.files) == 12
    assert shape.total() == sum(range(10)) + 900 + 4
    assert shape.fullest() == ("many", 10)
    assert shape.entries[""] == 3
    assert shape.largest() == ("big/blob.bin", 900)


def test_under_every_limit_no_problem(tree):
    assert host_problems(measure(tree), ROOMY) == []


@pytest.mark.parametrize("limits, expected", [
    (replace(ROOMY, site_bytes=500), [": 949 bytes in all, over GitHub Pages' limit"]),
    (replace(ROOMY, folder_entries=9), ["many/: 10 entries, over this project's limit of 9 in one folder"]),
    (replace(ROOMY, folder_entries=2), [": 3 entries, over this project's limit of 2 in one folder",
                                        "many/: 10 entries, over this project's limit of 2 in one folder"]),
    (replace(ROOMY, netlify_entries=9), ["many/: 10 entries, over Netlify's limit of 9 in one folder"]),
    (replace(ROOMY, file_bytes=899), ["big/blob.bin: 900 bytes, over this project's limit of"]),
])
def test_each_limit_passed_is_a_problem_naming_the_path(tree, limits, expected):
    problems = sorted(host_problems(measure(tree), limits))
    assert len(problems) == len(expected), problems
    assert all(problem.startswith(start) for problem, start in zip(problems, expected)), problems


def test_cloudflare_limits_are_shown_never_failed(tree):
    limits = replace(ROOMY, cloudflare_files=1, cloudflare_file_bytes=1)
    assert host_problems(measure(tree), limits) == []
    lines = hosts.host_lines(measure(tree), limits)
    assert any("files: 12 (Cloudflare Pages: at most 1," in line for line in lines)


def test_the_real_limits_are_the_hosts(tree):
    assert (hosts.LIMITS.site_bytes, hosts.LIMITS.netlify_entries, hosts.LIMITS.folder_entries,
            hosts.LIMITS.file_bytes, hosts.LIMITS.cloudflare_files, hosts.LIMITS.cloudflare_file_bytes) == (
        10**9, 54_000, 10_000, 20 * 10**6, 20_000, 25 * 2**20)


@pytest.fixture
def site(tmp_path, built_site) -> Path:
    return Path(shutil.copytree(built_site.out, tmp_path / "site"))


def test_the_built_seeds_pass_and_check_prints_each_measure(site, monkeypatch):
    said = []
    assert check_site(site, validate_html=False, tell=said.append) == []
    shape = measure(site)
    folder, entries = shape.fullest()
    largest, _ = shape.largest()
    assert said[0].startswith(f"  size: {hosts.amount(shape.total())} (GitHub Pages: at most 1 GB)")
    assert said[1].startswith(f"  files: {len(shape.files):,} (Cloudflare Pages: at most 20,000")
    assert f"fullest folder: {folder}/, {entries:,} entries" in said[2] and "Netlify: at most 54,000" in said[2]
    assert f"largest file: {largest}, " in said[3] and "Cloudflare Pages: at most 25 MiB" in said[3]


def test_the_check_command_fails_naming_the_path_and_the_limit(site, monkeypatch):
    _, size = measure(site).largest()
    ok = CliRunner().invoke(main, ["check", "--out", str(site), "--no-html"])
    assert ok.exit_code == 0 and "largest file: " in ok.output and "no problems" in ok.output
    monkeypatch.setattr(hosts, "LIMITS", replace(hosts.LIMITS, file_bytes=size - 1, folder_entries=3))
    failed = CliRunner().invoke(main, ["check", "--out", str(site), "--no-html"])
    assert failed.exit_code == 1
    assert f"{site}/papers/: " in failed.output and "over this project's limit of 3 in one folder" in failed.output
    assert "over this project's limit of" in failed.output and " a file" in failed.output
