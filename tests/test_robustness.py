"""Bad input gets a clear message and a correct site; builds are atomic and one at a time."""

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from catalogue.cli import main
from catalogue.portable import is_portable
from catalogue.content.papers import read_papers
from catalogue.errors import CatalogueError
from catalogue.system.lock import exclusive
from catalogue.publish.writer import Output, SiteWriter
from conftest import PROJECT, build_project, make_project

sys.path.insert(0, str(PROJECT / "bench"))
from synthetic import write_seed_files  # noqa: E402

ABSTRACT = "We study how models learn from data and report results on several benchmarks."
# Papers in one long file of near-identical abstracts: distinct slugs and titles for many alike, and
# line numbers far down the file.
MANY = 300


def seed(folder: Path, name: str, text: str | bytes) -> None:
    path = folder / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))


def bad_seeds(folder: Path) -> None:
    """One file per kind of trouble seen in copy-pasted lists."""
    folder.mkdir(parents=True)
    seed(folder, "a_empty.txt", "")
    seed(folder, "b_header_only.txt", "ICML 2026 论文列表\n")
    seed(folder, "c_no_header.txt", f"{ABSTRACT} First.\n\n{ABSTRACT} Second.\n")
    seed(folder, "d_unknown_header.txt", f"Accepted papers\n\n{ABSTRACT} Third.\n")
    seed(folder, "e_not_utf8.txt", f"ICML 2026\n\n{ABSTRACT} Caf\xe9.\n".encode("latin-1"))
    seed(folder, "f_crlf_bom.txt", f"\ufeffICLR 2025\r\n\r\n{ABSTRACT} Fourth.\r\n".encode("utf-8"))
    seed(folder, "g_huge.txt", "NeurIPS 2025\n\n" + " ".join(f"word{i}" for i in range(30000)) + ".\n")
    seed(folder, "h_many.txt", "NeurIPS 2025\n\n" + "\n\n".join(
        f"Line paper {i} studies learning problem number {i} in depth." for i in range(MANY)) + "\n\nShort.\n")
    seed(folder, "i_latex.txt", "ICML 2026\n\n" + "\n\n".join([
        f"{ABSTRACT} A lone $ sign here.",
        f"{ABSTRACT} Braces $x^{{2$ open.",
        f"{ABSTRACT} A line break $a \\\\ b$ in math.",
        f"{ABSTRACT} An equation \\begin{{equation}}E = mc^2\\end{{equation}} here.",
        f"{ABSTRACT} Display $$a + b$$ math.",
        f"{ABSTRACT} Inline \\(c + d\\) math.",
        f"{ABSTRACT} It costs $5 per run and $10 per day.",
    ]) + "\n")
    seed(folder, "j_html.txt", "ICML 2026\n\n" + "\n\n".join([
        f"{ABSTRACT} <script>alert(1)</script>",
        f"{ABSTRACT} {{{{ config }}}} and {{% raw %}}",
    ]) + "\n")
    seed(folder, "k_names.txt", "ICML 2026\n\n" + "\n\n".join([
        "We propose Foo/Bar, a method with a slash in its name. It works.",
        "We propose v1.2-Net, a method with dots in its name. It works.",
        "We propose ΔΣNet, a method with Greek letters in its name. It works.",
        "我们提出了一种新的方法来解决大规模语言模型中的推理问题。实验表明该方法有效。",
        "We propose " + "X" * 200 + ", a method with a very long name. It works.",
        "We propose CON, a method whose name is reserved on Windows. It works.",
        "We propose NUL-Net, a method. It works well on many tasks.",
    ]) + "\n")


@pytest.fixture(scope="module")
def bad_build(tmp_path_factory):
    root = tmp_path_factory.mktemp("bad")
    make_project(root)
    (root / "seeds").rename(root / "good-seeds")
    bad_seeds(root / "seeds")
    return build_project(root, "--no-search")


def test_bad_input_still_builds_a_site(bad_build):
    papers = read_papers(bad_build.content)
    # c:2 d:1 e:1 f:1 g:1 h:MANY i:7 j:2 k:7
    assert len(papers) == MANY + 22
    assert (bad_build.out / "index.html").exists()
    assert len(list((bad_build.out / "papers").glob("*/*/index.html"))) == MANY + 22


@pytest.mark.parametrize("where, message", [
    ("a_empty.txt:1", "no abstracts"),
    ("b_header_only.txt:1", "no abstracts"),
    ("c_no_header.txt:1", "no header"),
    ("d_unknown_header.txt:1", "names no venue"),
    ("e_not_utf8.txt:3", "not UTF-8"),
    (f"h_many.txt:{2 * MANY + 3}", "too short"),
    ("i_latex.txt:3", "unbalanced '$'"),
    ("i_latex.txt:5", "could not be converted"),
    ("i_latex.txt:7", "could not be converted"),
])
def test_each_problem_is_reported_with_file_and_line(bad_build, where, message):
    lines = [line for line in bad_build.output.splitlines() if f"{where}: " in line]
    assert any(message in line for line in lines), (where, lines)


def test_math_and_prices_in_bad_input_render_sensibly(bad_build):
    pages = {p.read_text(encoding="utf-8") for p in (bad_build.out / "papers").glob("*/*/index.html")}
    text = "\n".join(pages)
    assert "It costs $5 per run and $10 per day." in text
    assert text.count('display="block"') >= 2  # the equation environment and $$...$$
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text and "{{ config }}" in text


def test_odd_names_give_safe_slugs(bad_build):
    slugs = {p.slug for p in read_papers(bad_build.content).values()}
    assert "v1-2-net" in slugs and "dsnet" in slugs
    assert all(is_portable(slug) for slug in slugs) and any(slug.startswith("con-") for slug in slugs)
    assert "con" not in slugs and "nul" not in slugs
    assert all(len(slug) <= 60 for slug in slugs)
    chinese = [p for p in read_papers(bad_build.content).values() if p.abstract.startswith("我们")]
    assert len(chinese) == 1 and chinese[0].slug and len(chinese[0].title) <= 111
    for path in (bad_build.content / "papers").iterdir():
        assert path.parent == bad_build.content / "papers"


def test_no_output_path_leaves_the_site(tmp_path):
    for evil in ("../evil.html", "/etc/evil.html", "papers/../../evil.html", "", ".", "papers/./x.html", "papers/"):
        with pytest.raises(CatalogueError):
            SiteWriter(tmp_path / "site").write([Output(evil, "inputs", lambda: "x")])
    assert not (tmp_path / "evil.html").exists()


def test_a_second_build_at_the_same_time_refuses_clearly(tmp_path):
    project = make_project(tmp_path)
    with exclusive(project / "content"):
        result = CliRunner().invoke(main, ["build", "--seeds", str(project / "seeds"), "--content",
                                           str(project / "content"), "--out", str(project / "site"), "--no-search"])
    assert result.exit_code == 1
    assert "another build or ingest is using" in result.output and str(os.getpid()) in result.output
    assert not (project / "site").exists()
    build_project(project, "--no-search")  # the lock is free again
    assert (project / "site" / "index.html").exists()


def digest(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


KILLED_BUILD_PAPERS = 400  # added to the seeds: enough pages that the kill lands while they are written


def test_a_build_killed_midway_leaves_the_previous_site_whole(tmp_path, seeds_builds):
    built = seeds_builds.copy(tmp_path, "--no-search")
    project = built.root
    before = digest(built.out)
    seeded = len(list((built.out / "papers").glob("*/*/index.html")))
    write_seed_files(KILLED_BUILD_PAPERS, project / "seeds", seeds_dir=PROJECT / "seeds")
    command = [sys.executable, str(PROJECT / "build.py"), "--seeds", str(built.seeds), "--content",
               str(built.content), "--out", str(built.out)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    staging = []
    deadline = time.monotonic() + 120
    while process.poll() is None and time.monotonic() < deadline:
        staging = [p for p in tmp_path.iterdir() if p.name.startswith(".site-staging-site-")]
        if staging and any(staging[0].glob("papers/*/*/index.html")):
            break
        time.sleep(0.02)
    process.send_signal(signal.SIGKILL)
    assert process.wait() == -signal.SIGKILL, "the build ended before it could be killed"
    assert staging, "the kill did not land while the new site was being written"
    assert digest(built.out) == before
    read_papers(built.content)  # content/ is readable: every file whole

    rebuilt = build_project(project, "--no-search")
    assert len(list((rebuilt.out / "papers").glob("*/*/index.html"))) == seeded + KILLED_BUILD_PAPERS
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".site-staging")] == []
