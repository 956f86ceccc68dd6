"""End to end: the seeds built into a temporary folder, checked file by file."""

import hashlib
import json
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import html5lib
import pytest
from click.testing import CliRunner

from catalogue.cli import main
from catalogue.model import Paper, Source
from catalogue.routes import bucket, PaperAddresses, paper_folder, paper_page
from catalogue.site.check import check_redirects
from catalogue.site.data_files import render_netlify_redirects
from conftest import PROJECT, build_project, make_project


class References(HTMLParser):
    """Collects href and src attributes."""

    def __init__(self):
        super().__init__()
        self.found = []

    def handle_starttag(self, tag, attrs):
        self.found += [value for name, value in attrs if name in ("href", "src") and value]


def references(html: str) -> list[str]:
    parser = References()
    parser.feed(html)
    return parser.found


def pages(site: Path) -> list[Path]:
    return sorted(p for p in site.rglob("*.html") if "pagefind" not in p.parts)


def test_one_page_per_paper_and_one_content_file_each(built_site):
    papers = sorted((built_site.out / "papers").glob("*/*/index.html"))
    assert len(papers) == 38
    assert len(list((built_site.content / "papers").glob("*.md"))) == 38
    assert (built_site.out / "papers" / bucket("egotsr") / "egotsr" / "index.html").exists()
    for page in ("index.html", "search.html", "404.html", "topics/index.html"):
        assert (built_site.out / page).exists(), page


def test_a_paper_page_links_its_venue_and_years_list(built_site):
    """The venue and year above the title lead to that venue-year's list, which lists the paper."""
    pages = sorted((built_site.out / "papers").glob("*/*/index.html"))
    assert pages
    for page in pages:
        html = page.read_text(encoding="utf-8")
        venue = re.search(r'<span class="venue"[^>]*><a href="([^"]+)"><span dir="auto"[^>]*>([^<]+)</span>', html)
        assert venue, page
        target = (page.parent / venue[1]).resolve()
        assert target.is_file() and venue[2] in target.read_text(encoding="utf-8"), page
        assert page.parent.name in target.read_text(encoding="utf-8")  # the list links the paper


def test_every_internal_link_resolves_to_a_file_inside_the_site(built_site):
    site = built_site.out.resolve()
    checked = 0
    for page in pages(site):
        for reference in references(page.read_text(encoding="utf-8")):
            parts = urlsplit(reference)
            if parts.scheme or reference.startswith("#"):
                continue
            assert not reference.endswith("/"), f"{page}: {reference} names a folder, not a file"
            if page.name == "404.html" and page.parent == site:
                target = site / unquote(parts.path).lstrip("/")  # root-absolute by design
            else:
                assert not reference.startswith("/"), f"{page}: {reference} is root-absolute"
                target = (page.parent / unquote(parts.path)).resolve()
            assert target.is_relative_to(site) and target.is_file(), f"{page}: {reference} does not resolve"
            checked += 1
    assert checked > 38 * 5


def test_every_page_is_well_formed_html(built_site):
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    for page in pages(built_site.out):
        document = parser.parse(page.read_text(encoding="utf-8"))
        assert document.find(".//title").text.strip(), page
        assert document.find(".//main") is not None, page
        assert document.get("lang") == "en"
        headings = [int(e.tag[1]) for e in document.iter() if re.fullmatch(r"h[1-6]", str(e.tag))]
        assert headings[0] == 1 and headings.count(1) == 1, page
        assert all(b - a <= 1 for a, b in zip(headings, headings[1:])), f"{page}: skipped heading level"


def test_each_page_frame_fits_the_page_though_it_is_rendered_once_per_depth(built_site):
    """The header and footer are reused between pages (base.html's reuse): each page still links
    back by its own depth and marks its own section, and only that, as the current one."""
    site = built_site.out
    sections = {"index.html": "index.html", "topics": "topics/index.html", "venues": "venues/index.html",
                "map": "map/index.html", "stats": "stats/index.html", "list.html": "list.html"}
    for page in pages(site):
        relative = page.relative_to(site).as_posix()
        if relative == "404.html" or "http-equiv" in page.read_text(encoding="utf-8"):  # root-based; redirects
            continue
        html = page.read_text(encoding="utf-8")
        root = "../" * relative.count("/")
        current = re.findall(r'<a href="([^"]*)" aria-current="page">', html)
        own = sections.get(relative.split("/")[0])
        assert current == ([root + own] if own else []), relative
        assert f'<a class="brand" href="{root}index.html">' in html and f'href="{root}assets/style.css"' in html, relative


def test_paper_pages_render_math_and_no_raw_latex(built_site):
    for page in sorted((built_site.out / "papers").glob("*/*/index.html")):
        html = page.read_text(encoding="utf-8")
        abstract = html[html.index('<section class="abstract"'):html.index("</section>")]
        text = re.sub(r"<[^>]+>", "", re.sub(r"<math.*?</math>", "", abstract, flags=re.S))
        for raw in ("$", "\\textbf", "\\\\%", "\\emph", "**"):
            assert raw not in text, f"{page}: {raw!r} in the abstract"
    ls2 = (built_site.out / "papers" / bucket("ls2mc-gda") / "ls2mc-gda" / "index.html").read_text(encoding="utf-8")
    assert "<math" in ls2 and "<msup>" in ls2


def test_the_percent_sign_of_a_doubly_escaped_percent_survives(built_site):
    # A seed writes $69\\%$; the page must show 69%.
    seeds = "".join(p.read_text(encoding="utf-8") for p in built_site.seeds.glob("*.txt"))
    assert "$69\\\\%$" in seeds
    hits = [p for p in (built_site.out / "papers").glob("*/*/index.html")
            if "<mn>69</mn><mi>&#x00025;</mi>" in p.read_text(encoding="utf-8")]
    assert len(hits) == 1


def test_pagefind_indexed_every_paper(built_site):
    bundles = built_site.out / "pagefind"
    shards = json.loads((bundles / "shards.json").read_text())
    assert sum(shard["pages"] for shard in shards["bundles"]) == 38 and len(shards["bundles"]) == 4  # both seeds
    counts = [json.loads((bundles / shard["path"] / "pagefind-entry.json").read_text())["languages"]["en"]["page_count"]
              for shard in shards["bundles"]]
    assert counts == [shard["pages"] for shard in shards["bundles"]]
    assert (bundles / "vocabulary" / "pagefind.js").exists()  # the one search.js loads
    assert "Indexed 38 pages in 4 shards" in built_site.output


def test_paper_page_marks_its_search_metadata(built_site):
    html = (built_site.out / "papers" / bucket("flashsinkhorn") / "flashsinkhorn" / "index.html").read_text(encoding="utf-8")
    assert "data-pagefind-body" in html
    # The name and title as Pagefind's metadata: the element's text when that is the text itself.
    # Its title begins with its name: the name is hidden (not repeated above the title), still searched.
    assert '<span class="name" hidden dir="auto" data-pagefind-weight="10" data-pagefind-meta="name">FlashSinkhorn</span>' in html
    assert re.search(r'<h1 [^>]*data-pagefind-meta="title">[^<]+</h1>', html) and "data-title" not in html
    assert 'data-pagefind-filter="topic"' in html and 'data-pagefind-filter="venue">ICML<' in html
    index = (built_site.out / "index.html").read_text(encoding="utf-8")
    assert "data-pagefind-body" not in index


def test_links_in_abstracts_are_clickable(built_site):
    html = (built_site.out / "papers" / bucket("causalgame") / "causalgame" / "index.html").read_text(encoding="utf-8")
    assert '<a href="https://causalgame.github.io">causalgame.github.io</a>' in html


def test_same_input_same_bytes(tmp_path, built_site):
    again = build_project(make_project(tmp_path / "again"))

    def digest(site):
        return {p.relative_to(site).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
                for p in sorted(site.rglob("*")) if p.is_file()}

    first, second = digest(built_site.out), digest(again.out)
    # Pagefind 1.5.2 writes its filter data in an order that varies from run to run (seen with
    # the same input twice); those files, and the two that name them by hash, are compared by count.
    varying = re.compile(r"pagefind/[^/]+/(filter/.*\.pf_filter|pagefind\..*\.pf_meta|pagefind-entry\.json)$")
    stable_first = {k: v for k, v in first.items() if not varying.match(k)}
    stable_second = {k: v for k, v in second.items() if not varying.match(k)}
    assert stable_first == stable_second
    assert len(first) == len(second) and len(stable_first) > 100


def test_a_failed_build_leaves_the_previous_site_intact(tmp_path, seeds_builds):
    built = seeds_builds.copy(tmp_path, "--no-search")
    before = {p: p.read_bytes() for p in built.out.rglob("*") if p.is_file()}
    broken = tmp_path / "templates"
    shutil.copytree(PROJECT / "templates", broken)
    (broken / "paper.html").write_text("{% extends 'base.html' %}{% block main %}{{ no_such_thing }}{% endblock %}")
    result = CliRunner().invoke(main, ["build", "--seeds", str(built.seeds), "--content", str(built.content),
                                       "--out", str(built.out), "--templates", str(broken), "--no-search"])
    assert result.exit_code != 0
    assert "paper.html" in result.output and "no_such_thing" in result.output
    assert {p: p.read_bytes() for p in built.out.rglob("*") if p.is_file()} == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".site-staging")] == []


def test_abstracts_cannot_inject_markup(tmp_path):
    project = make_project(tmp_path)
    payload = ("We propose EvilNet, a <script>alert(1)</script> method with "
               "<img src=x onerror=alert(2)> and [x](javascript:alert(3)) and {{ 7*7 }}. It is bad.")
    (project / "seeds" / "002_evil.txt").write_text(f"ICML 2026\n\n{payload}\n", encoding="utf-8")
    built = build_project(project, "--no-search")
    html = (built.out / "papers" / bucket("evilnet") / "evilnet" / "index.html").read_text(encoding="utf-8")
    assert "<script>alert" not in html and "<img src=x" not in html and 'href="javascript' not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "{{ 7*7 }}" in html


def test_bad_content_file_fails_the_build_naming_file_and_key(tmp_path, seeds_builds):
    built = seeds_builds.copy(tmp_path, "--no-search")
    path = built.content / "papers" / "egotsr.md"
    path.write_text(path.read_text(encoding="utf-8").replace("venue: ICML", "venue: ICML\nvenu: typo"), "utf-8")
    result = CliRunner().invoke(main, ["build", "--seeds", str(built.seeds), "--content", str(built.content),
                                       "--out", str(built.out), "--no-search"])
    assert result.exit_code == 1
    assert "egotsr.md: unknown front-matter key 'venu'" in result.output


def test_build_py_entry_point_defaults_to_build(tmp_path):
    project = make_project(tmp_path)
    command = [sys.executable, str(PROJECT / "build.py"), "--seeds", str(project / "seeds"),
               "--content", str(project / "content"), "--out", str(project / "site"), "--no-search"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "Built 38 papers" in result.stderr
    assert (project / "site" / "index.html").exists()
    help_text = subprocess.run([sys.executable, str(PROJECT / "build.py"), "--help"], capture_output=True,
                               text=True, timeout=60).stdout
    for command_name in ("build", "ingest", "serve", "clean"):
        assert command_name in help_text
    commands = help_text.split("Commands:")[1]
    assert "..." not in commands  # each command's summary whole, not cut off by click


@pytest.mark.parametrize("base_url, expected", [
    ("https://example.org/REPO", '<link rel="stylesheet" href="/REPO/assets/style.css">'),
    (None, '<link rel="stylesheet" href="/assets/style.css">'),
])
def test_404_links_from_the_site_root(seeds_builds, base_url, expected):
    built = seeds_builds.built("--no-search", *(["--base-url", base_url] if base_url else []))
    assert expected in (built.out / "404.html").read_text(encoding="utf-8")
    canonical = f'<link rel="canonical" href="https://example.org/REPO/{paper_folder("egotsr")}">'
    assert (canonical in (built.out / paper_page("egotsr")).read_text(encoding="utf-8")) == bool(base_url)


def test_a_renamed_slug_keeps_the_old_address_working(tmp_path, seeds_builds):
    built = seeds_builds.copy(tmp_path, "--no-search")
    project = built.root
    path = built.content / "papers" / "egotsr.md"
    path.write_text(path.read_text(encoding="utf-8").replace("slug: egotsr", "slug: ego-tsr"), "utf-8")
    rebuilt = build_project(project, "--base-url", "https://example.org/cat/")
    assert "old_slugs:\n- egotsr" in path.read_text(encoding="utf-8")
    old = (rebuilt.out / "papers" / bucket("egotsr") / "egotsr" / "index.html").read_text(encoding="utf-8")
    assert f'<meta http-equiv="refresh" content="0; url=../../../{paper_page("ego-tsr")}">' in old
    assert f'<link rel="canonical" href="https://example.org/cat/{paper_folder("ego-tsr")}">' in old
    assert (rebuilt.out / "papers" / bucket("ego-tsr") / "ego-tsr" / "index.html").exists()
    redirects = (rebuilt.out / "_redirects").read_text(encoding="utf-8")
    assert f"/{paper_folder('egotsr')}*  /{paper_folder('ego-tsr')}  301!" in redirects
    # The old .bib gives the citation: on Netlify a 301 that wins over its folder's, on GitHub Pages (no
    # redirects) the file itself.
    for old in (paper_folder("egotsr"), "papers/egotsr/"):  # in this layout and in the one before buckets
        assert netlify_destination(redirects, f"/{old}egotsr.bib") == f"/{paper_folder('ego-tsr')}ego-tsr.bib"
        assert netlify_destination(redirects, f"/{old}index.html") == f"/{paper_folder('ego-tsr')}"
    bibtex = (rebuilt.out / "papers" / bucket("ego-tsr") / "ego-tsr" / "ego-tsr.bib").read_bytes()
    assert (rebuilt.out / "papers" / bucket("egotsr") / "egotsr" / "egotsr.bib").read_bytes() == bibtex and b"EgoTSR" in bibtex
    assert check_redirects(rebuilt.out) == []
    again = build_project(project, "--no-search")  # the mark stays once, the redirect stays
    assert path.read_text(encoding="utf-8").count("- egotsr") == 1
    assert (again.out / "papers" / bucket("egotsr") / "egotsr" / "index.html").exists()
    assert (again.out / "papers" / bucket("egotsr") / "egotsr" / "egotsr.bib").read_bytes() == \
        (again.out / "papers" / bucket("ego-tsr") / "ego-tsr" / "ego-tsr.bib").read_bytes()  # remade with it (no url now)


def netlify_destination(redirects: str, path: str) -> str | None:
    """Where Netlify sends `path` by a _redirects file: the first rule that matches, read top to
    bottom (Netlify's redirect docs: processing stops at the first match); a `from` that ends in `*`
    matches every path that starts with the rest, any other the path itself, with or without its slash."""
    for line in redirects.splitlines():
        if line.strip() and not line.startswith("#"):
            source, target, _ = line.split()
            if path.startswith(source[:-1]) if source.endswith("*") else path.rstrip("/") == source.rstrip("/"):
                return target
    return None


def test_each_old_bibtex_address_is_sent_to_its_papers_bibtex_before_its_folder_is():
    papers = [Paper(id="0123456789ab", slug="new", title="T", abstract="A", source=Source("s.txt", 1),
                    old_slugs=("first", "second")),
              Paper(id="0123456789ac", slug="other", title="T", abstract="A", source=Source("s.txt", 3),
                    old_slugs=("firsts",))]
    redirects = render_netlify_redirects((paper, PaperAddresses(paper.slug, paper.old_slugs)) for paper in papers)
    for old, new in (("first", "new"), ("second", "new"), ("firsts", "other")):
        assert netlify_destination(redirects, f"/papers/{bucket(old)}/{old}/{old}.bib") == f"/papers/{bucket(new)}/{new}/{new}.bib"
        assert netlify_destination(redirects, f"/papers/{bucket(old)}/{old}/") == netlify_destination(redirects, f"/papers/{old}") \
            == netlify_destination(redirects, f"/papers/{bucket(old)}/{old}/anything") == f"/papers/{bucket(new)}/{new}/"
    assert netlify_destination(redirects, f"/{paper_folder('new')}new.bib") is None  # the paper's own files are served as they are


def test_related_papers_and_the_map_are_computed_outside_the_build_process(tmp_path):
    """scikit-learn and its matrices stay in a process of their own, so neither the build nor the
    page writers forked from it carry them; the pages still list related papers."""
    project = make_project(tmp_path)
    script = ("import sys; from catalogue.cli import main\n"
              f"main(['build', '--seeds', {str(project / 'seeds')!r}, '--content', {str(project / 'content')!r},"
              f" '--out', {str(project / 'site')!r}, '--no-search'],"
              " standalone_mode=False)\n"
              "assert 'sklearn' not in sys.modules, 'scikit-learn was imported by the build process'\n")
    subprocess.run([sys.executable, "-c", script], cwd=PROJECT, check=True, capture_output=True)
    paper = next((project / "site" / "papers").glob("*/*/index.html")).read_text(encoding="utf-8")
    assert '<section class="related"' in paper
