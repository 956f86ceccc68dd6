"""Every address of the site comes from catalogue/routes.py: the scripts read its patterns from the page."""

import json
import posixpath
import random
import re
import subprocess
from pathlib import Path

import pytest

from catalogue import routes

PROJECT = Path(__file__).resolve().parent.parent
# How an address would look if typed outside routes.py: a site folder in a string literal; in a
# script also a page (in Python 'search.html' is also the name of a template).
TYPED_FOLDER = re.compile(r"""["'`](?:[^"'`\n]*/)?(?:papers|topics|authors|venues)/""")
TYPED_PAGE = re.compile(r"""["'`](?:search|list)\.html\b""")


@pytest.mark.parametrize("slug", ["x", "flashoptim-4ed4dd", "a-b"])
def test_functions_and_the_scripts_patterns_give_the_same_addresses(slug):
    patterns, bucket = routes.PATTERNS, routes.bucket(slug)
    assert routes.paper_page(slug) == patterns["paper"].format(slug=slug, bucket=bucket)
    assert routes.paper_folder(slug) == patterns["paper_shared"].format(slug=slug, bucket=bucket)
    assert routes.shared_form(routes.paper_page(slug)) == routes.paper_folder(slug)
    assert routes.topic_page(slug) == patterns["topic"].format(slug=slug)
    assert routes.author_page(slug) == patterns["author"].format(slug=slug, bucket=bucket)
    assert routes.shared_form(routes.author_page(slug)) == patterns["author_shared"].format(slug=slug, bucket=bucket)
    assert routes.venue_page(slug) == patterns["venue"].format(slug=slug)
    assert routes.slug_of_paper_page(routes.paper_page(slug)) == slug
    assert routes.author_slug_of(routes.author_page(slug)) == slug
    assert routes.author_bucket_page(routes.author_page(slug)) == f"authors/{bucket}/index.html"


# common.js in Node (no page): each slug's bucket as the browser computes it.
BUCKETS_IN_NODE = """
const fs = require("fs"), vm = require("vm");
globalThis.window = globalThis;
globalThis.document = { getElementById: () => null };
vm.runInThisContext(fs.readFileSync(process.argv[1], "utf8"));
process.stdout.write(JSON.stringify(JSON.parse(fs.readFileSync(0, "utf8")).map((s) => window.catalogueBucket(s))));
"""


def test_the_browser_puts_a_slug_in_the_bucket_the_build_does():
    seed = random.randrange(2**32)
    print(f"random slugs drawn with seed {seed}")
    draw = random.Random(seed)
    letters = "abcdefghijklmnopqrstuvwxyz0123456789-éüßø中文"
    slugs = ["x", "a-b", "3d", "josé-garcía", "名前"] + [
        "".join(draw.choice(letters) for _ in range(draw.randint(1, 40))) for _ in range(500)]
    done = subprocess.run(["node", "-e", BUCKETS_IN_NODE, str(PROJECT / "assets" / "common.js")],
                          input=json.dumps(slugs), capture_output=True, text=True, check=True, timeout=120)
    assert json.loads(done.stdout) == [routes.bucket(slug) for slug in slugs]


# common.js in Node with the page's patterns: each slug's addresses as the browser makes them.
ROUTES_IN_NODE = """
const fs = require("fs"), vm = require("vm");
const input = JSON.parse(fs.readFileSync(0, "utf8"));
globalThis.window = globalThis;
globalThis.document = { getElementById: () => null };
globalThis.CATALOGUE_SITE = { routes: input.patterns };  // as site-data.js sets it
vm.runInThisContext(fs.readFileSync(process.argv[1], "utf8"));
process.stdout.write(JSON.stringify(input.slugs.map((slug) => input.names.map((name) => window.catalogueRoute(name, {slug})))));
"""


def test_the_browser_makes_the_addresses_the_build_does():
    slugs = ["x", "ada-lovelace", "jose-garcia-1a2b3c", "con-1143da", "ed"]
    names = ["paper", "paper_shared", "author", "author_shared", "topic", "venue"]
    done = subprocess.run(["node", "-e", ROUTES_IN_NODE, str(PROJECT / "assets" / "common.js")],
                          input=json.dumps({"patterns": routes.PATTERNS, "slugs": slugs, "names": names}),
                          capture_output=True, text=True, check=True, timeout=120)
    assert json.loads(done.stdout) == [[routes.paper_page(slug), routes.paper_folder(slug), routes.author_page(slug),
                                        routes.shared_form(routes.author_page(slug)), routes.topic_page(slug),
                                        routes.venue_page(slug)] for slug in slugs]


def test_buckets_spread_slugs_evenly_so_no_folder_fills():
    slugs = [f"paper-{n}" for n in range(25_600)]
    counts = {}
    for slug in slugs:
        counts[routes.bucket(slug)] = counts.get(routes.bucket(slug), 0) + 1
    assert len(counts) == 256 and max(counts.values()) < 2 * len(slugs) / 256


@pytest.mark.parametrize("base_url", [None, "https://example.org/REPO/"])
def test_a_papers_addresses_are_one_object(base_url):
    addresses = routes.PaperAddresses("new-slug", ("old", "older"), base_url)
    assert addresses.page == routes.paper_page("new-slug") and addresses.shared == routes.paper_folder("new-slug")
    assert posixpath.normpath(posixpath.join(posixpath.dirname(addresses.page), addresses.bibtex_link)) == addresses.bibtex
    assert addresses.bibtex.startswith(addresses.shared)
    assert addresses.preview == routes.SITE_PREVIEW  # no venue given: the site's card
    carded = routes.PaperAddresses("new-slug", (), base_url, "icml-2026")
    assert carded.preview == routes.venue_preview("icml-2026") == "venues/icml-2026/preview.png"
    assert posixpath.dirname(carded.preview) == posixpath.dirname(routes.venue_page("icml-2026"))  # beside its page
    assert addresses.content_file == "papers/new-slug.md"
    assert addresses.old_pages == (routes.paper_page("old"), routes.paper_page("older"))
    assert addresses.moves == tuple((folder, addresses.shared) for slug in ("old", "older")
                                    for folder in (routes.paper_folder(slug), f"papers/{slug}/"))
    if base_url:
        assert addresses.url == base_url + addresses.shared and addresses.preview_url == base_url + addresses.preview
        assert carded.preview_url == base_url + "venues/icml-2026/preview.png"
    else:
        assert addresses.url is None and addresses.preview_url is None


def test_no_paper_address_is_composed_outside_routes():
    """The templates and the render read a paper's addresses from its PaperAddresses (view.addresses)."""
    composed = re.compile(r"\bpaper_(?:page|folder|bibtex)\(|paper\.slug \}\}\.bib")
    sources = [*(PROJECT / "catalogue" / "site").glob("*.py"), *(PROJECT / "templates").glob("*.html")]
    assert [path.name for path in sources if composed.search(path.read_text(encoding="utf-8"))] == []


@pytest.mark.parametrize("folder", ["", "topics/x/"])
def test_list_pages_follow_the_patterns(folder):
    assert routes.list_page(folder, 1) == folder + routes.HOME
    assert routes.list_page(folder, 3) == folder + routes.PATTERNS["list_page"].format(number=3)
    assert routes.list_page(folder, 2, compact=True) == (folder + routes.PATTERNS["compact"]
                                                        + routes.PATTERNS["list_page"].format(number=2))
    assert routes.list_folder(routes.list_page(folder, 1)) == folder


def test_other_pages_are_not_paper_pages():
    for path in (routes.HOME, routes.MAP, routes.topic_page("x"), "papers/x/y/index.html", "papers/x/preview.png"):
        assert routes.slug_of_paper_page(path) is None


def code_lines(path: Path):
    comment = "#" if path.suffix == ".py" else "//"
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        code = line.split(comment, 1)[0] if not line.lstrip().startswith(('"""', "'")) else ""
        yield number, code


def test_no_script_or_module_types_an_address_of_its_own():
    sources = [*(PROJECT / "assets").glob("*.js"), *(PROJECT / "catalogue").rglob("*.py")]
    typed = [f"{path.relative_to(PROJECT)}:{number}: {code.strip()}" for path in sources
             if path.name != "routes.py" for number, code in code_lines(path)
             if TYPED_FOLDER.search(code) or (path.suffix == ".js" and TYPED_PAGE.search(code))]
    assert typed == []


def test_the_scan_would_see_a_typed_address():
    assert TYPED_FOLDER.search('link.href = root + "papers/" + slug;')
    assert TYPED_FOLDER.search("return f\"authors/{slug}/index.html\"")
    assert TYPED_PAGE.search('more.href = root + "search.html?q="')
    assert not TYPED_FOLDER.search('route("paper", {slug: slug})') and not TYPED_PAGE.search('route("search")')
