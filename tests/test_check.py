"""The site checker: the built seeds pass, and each kind of damage to a copy is reported by file."""

import gzip
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from catalogue.cli import main
from catalogue.site.check import check_reference, check_site
from conftest import PROJECT
from catalogue.routes import bucket, paper_folder, paper_page

FILES = {"index.html", "search.html", "assets/style.css", "papers/egotsr/index.html", "papers/a b/index.html"}
EGOTSR = paper_page("egotsr")  # a paper page of the seeds' site


@pytest.fixture
def site(tmp_path, built_site) -> Path:
    """A copy of the built seeds, safe to damage."""
    return Path(shutil.copytree(built_site.out, tmp_path / "site"))


def edit(path: Path, old: str, new: str) -> None:
    html = path.read_text(encoding="utf-8")
    assert old in html, f"{old!r} not in {path}"
    path.write_text(html.replace(old, new, 1), encoding="utf-8")


def problems_about(problems: list[str], page: str) -> list[str]:
    return [problem for problem in problems if problem.startswith(f"{page}:")]


@pytest.mark.parametrize("page, reference, expected", [
    ("index.html", "papers/egotsr/index.html", None),
    ("papers/egotsr/index.html", "../../assets/style.css?v=2#top", None),
    ("papers/egotsr/index.html", "../a%20b/index.html", None),
    ("index.html", "#main", None),
    ("index.html", "?q=x", None),
    ("index.html", "https://example.org/", None),
    ("index.html", "mailto:someone@example.org", None),
    ("index.html", "papers/nope/index.html", "there is no file papers/nope/index.html"),
    ("papers/egotsr/index.html", "../../../outside.html", "points outside the site"),
    ("index.html", "papers/egotsr/", "names a folder"),
    ("index.html", "papers/egotsr", "there is no file papers/egotsr"),
    ("index.html", "/papers/egotsr/index.html", "root-absolute"),
    ("index.html", "//cdn.example.org/x.js", "protocol-relative"),
    ("index.html", "javascript:alert(1)", "javascript: scheme"),
    ("index.html", " JavaScript:alert(1)", "javascript: scheme"),
    ("index.html", "data:image/png;base64,AAAA", "data: scheme"),
    ("index.html", "file:///etc/passwd", "file: scheme"),
])
def test_a_reference_works_from_disk_and_under_a_subpath(page, reference, expected):
    problem = check_reference(page, reference, FILES)
    assert problem is None if expected is None else expected in problem


@pytest.mark.parametrize("reference, expected", [
    ("/REPO/assets/style.css", None),
    ("/REPO/index.html", None),
    ("/REPO/papers/egotsr/index.html?x#y", None),
    ("/REPO/", "names a folder"),
    ("/REPO/nope.html", "there is no file nope.html"),
    ("/index.html", "does not start with the site's base path '/REPO/'"),
    ("index.html", "does not start with the site's base path '/REPO/'"),
])
def test_the_404_page_links_from_its_base_path(reference, expected):
    problem = check_reference("404.html", reference, FILES, base="/REPO/")
    assert problem is None if expected is None else expected in problem


def test_the_built_seeds_have_no_problems(built_site):
    assert check_site(built_site.out) == []  # runs vnu.jar


def test_invalid_html_is_reported_with_file_and_line(site):
    edit(site / "index.html", "</main>", "</div></main>")
    edit(site / f"{EGOTSR}", "<main ", '<p id="main"></p><main ')
    problems = check_site(site)  # runs vnu.jar
    assert any(p.startswith("index.html:") and "Stray end tag" in p for p in problems), problems
    duplicate = [p for p in problems if "Duplicate ID" in p]
    assert len(duplicate) == 1 and duplicate[0].startswith(f"{EGOTSR}:"), problems
    assert not any("first occurrence" in p for p in problems), "vnu's warnings are not problems"
    assert len(problems) == 2, problems


def test_broken_root_absolute_and_folder_links(site):
    edit(site / "index.html", 'href="papers/', 'href="papers/no-such-paper/index.html" data-x="')
    edit(site / "search.html", 'href="index.html"', 'href="/index.html"')
    edit(site / "topics/index.html", 'href="../index.html"', 'href="../papers/egotsr/"')
    problems = check_site(site, validate_html=False)
    assert "there is no file papers/no-such-paper/index.html" in " ".join(problems_about(problems, "index.html"))
    assert "root-absolute" in " ".join(problems_about(problems, "search.html"))
    assert "names a folder" in " ".join(problems_about(problems, "topics/index.html"))
    assert len(problems) == 3, problems


def test_missing_asset_is_reported_on_every_page(site):
    (site / "assets" / "style.css").unlink()
    problems = check_site(site, validate_html=False)
    assert "index.html: 'assets/style.css' is broken: there is no file assets/style.css" in problems
    assert f"{EGOTSR}: '../../../assets/style.css' is broken: there is no file assets/style.css" in problems
    assert "404.html: '/assets/style.css' is broken: there is no file assets/style.css" in problems


def test_javascript_and_data_urls_are_problems(site):
    edit(site / f"{EGOTSR}", 'href="../../../index.html"', 'href="javascript:alert(1)"')
    edit(site / "search.html", "<main ", '<img alt="" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><main ')
    problems = check_site(site, validate_html=False)
    assert "javascript: scheme" in " ".join(problems_about(problems, f"{EGOTSR}"))
    assert "data: scheme" in " ".join(problems_about(problems, "search.html"))


def test_a_page_needs_a_title_and_a_description(site):
    page = site / "topics/index.html"
    html = page.read_text(encoding="utf-8")
    start, end = html.index("<title>"), html.index("</title>")
    page.write_text(html[:start] + "<title> </title>" + html[end + 8:], encoding="utf-8")
    edit(page, '<meta name="description" content="', '<meta name="description" data-content="')
    problems = check_site(site, validate_html=False)
    assert problems == ["topics/index.html: no <meta name=\"description\">", "topics/index.html: no <title>"]


def test_the_404_page_under_a_subpath(site):
    page = site / "404.html"
    page.write_text(page.read_text(encoding="utf-8").replace('="/', '="/REPO/'), encoding="utf-8")
    assert check_site(site, validate_html=False) == []
    edit(page, 'href="/REPO/search.html"', 'href="search.html"')
    edit(page, 'href="/REPO/topics/index.html"', 'href="/REPO/topics/nope.html"')
    problems = check_site(site, validate_html=False)
    assert any(p.startswith("404.html: 'search.html' does not start with the site's base path") for p in problems)
    assert "404.html: '/REPO/topics/nope.html' is broken: there is no file topics/nope.html" in problems
    assert len(problems) == 2, problems


def test_the_search_index_covers_exactly_the_paper_pages(site):
    shutil.copytree(site / paper_folder("egotsr"), site / paper_folder("never-indexed"))
    fragments = None  # the folder of egotsr's shard
    for fragment in sorted(site.glob("pagefind/part-*/fragment/*/*.pf_fragment")):
        data = gzip.decompress(fragment.read_bytes())
        assert data.startswith(b"pagefind_dcd{")
        url = json.loads(data.removeprefix(b"pagefind_dcd"))["url"]
        if url == f"/{paper_folder('flashsinkhorn')}":
            fragment.unlink()
        elif url == f"/{paper_folder('egotsr')}":
            fragments = fragment.parent
            (site / "pagefind" / "vocabulary" / "fragment").mkdir(exist_ok=True)  # the vocabulary keeps none
            (site / "pagefind" / "vocabulary" / "fragment" / fragment.name).write_bytes(fragment.read_bytes())
            shutil.copy(fragment, fragments / "en_twice.pf_fragment")
    (fragments / "en_stale.pf_fragment").write_bytes(gzip.compress(b'pagefind_dcd{"url":"/papers/gone/","content":""}'))
    (fragments / "en_bad.pf_fragment").write_bytes(b"not gzip")
    shard = fragments.relative_to(site / "pagefind").as_posix()  # part-N/fragment/<letter>
    problems = check_site(site, validate_html=False)
    assert f"{paper_page('never-indexed')}: missing from the search index" in problems
    assert f"{paper_page('flashsinkhorn')}: missing from the search index" in problems
    assert f"pagefind/{shard}/en_stale.pf_fragment: indexes papers/gone/index.html, which is not a " \
           "paper page" in problems
    assert any(p.startswith(f"pagefind/{shard}/en_bad.pf_fragment: unreadable") for p in problems)
    assert any(p.startswith(f"pagefind/{shard}/") and f"indexes {EGOTSR} again" in p
               for p in problems), problems  # (the vocabulary bundle's fragments are not pages of the site)
    assert len(problems) == 5, problems


def test_every_bundle_named_in_shards_json_is_there(site):
    shutil.rmtree(site / "pagefind" / "vocabulary")
    assert check_site(site, validate_html=False) == [
        "pagefind/vocabulary/: named in shards.json, but not a Pagefind bundle"]
    (site / "pagefind" / "shards.json").unlink()
    assert [p.split(" (")[0] for p in check_site(site, validate_html=False)] == [
        "pagefind/shards.json: missing or unreadable"]


def test_a_site_built_without_search_says_so(site):
    shutil.rmtree(site / "pagefind")
    assert check_site(site, validate_html=False) == [
        "pagefind/: missing; the site was built without search (--no-search, or by render alone): "
        "run 'python3 build.py index'"]


def test_the_check_command_advises_indexing_the_site_it_checked(site, tmp_path, monkeypatch):
    shutil.rmtree(site / "pagefind")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", "--out", str(site), "--no-html"])
    assert result.exit_code == 1
    assert f"run 'python3 build.py index --out {site.relative_to(tmp_path).as_posix()}'" in result.output


def test_not_a_built_site(tmp_path):
    assert check_site(tmp_path) == [f"index.html: missing; is {tmp_path} a built site?"]


def test_the_check_command_names_a_missing_tool_as_itself_not_as_a_file_of_the_site(site, monkeypatch):
    monkeypatch.setenv("VNU_JAR", str(site / "no-such.jar"))
    result = CliRunner().invoke(main, ["check", "--out", str(site)])
    assert result.exit_code == 1
    assert [line for line in result.output.splitlines() if "not found" in line] == [
        f"vnu.jar: not found at {site / 'no-such.jar'}; run 'npm install' in {PROJECT} (or set $VNU_JAR)"]


def test_missing_validator_is_one_problem_saying_how_to_install(site, monkeypatch):
    monkeypatch.setenv("VNU_JAR", str(site / "no-such.jar"))
    problems = check_site(site)
    assert len(problems) == 1 and "vnu.jar: not found" in problems[0] and "npm install" in problems[0]
    monkeypatch.setenv("PATH", "")
    assert check_site(site) == [
        "java: not found; the HTML check needs Java 17+ (Debian: apt-get install default-jre-headless)"]


def test_check_command_exit_status(site):
    from click.testing import CliRunner

    from catalogue.cli import main

    ok = CliRunner().invoke(main, ["check", "--out", str(site), "--no-html"])
    assert ok.exit_code == 0 and "no problems" in ok.output
    (site / "papers" / bucket("egotsr") / "egotsr" / "index.html").unlink()
    broken = CliRunner().invoke(main, ["check", "--out", str(site), "--no-html"])
    assert broken.exit_code == 1
    assert f"{EGOTSR}" in broken.output and "problem" in broken.output
