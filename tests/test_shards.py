"""The sharded search index: a fixed number of Pagefind bundles, each page in the one a hash of
its path names, reused when its pages did not change, merged in the browser so that search
behaves as one index over every page would.

The project's seeds are all ICML 2026; here they are split over three venues and years
(ICML 2026, NeurIPS 2025, ICLR 2024) by rewriting their header lines.
"""

from __future__ import annotations

import gzip
import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest
import yaml

from catalogue.search import index as search
from catalogue.search import offline
from catalogue.site.check import check_site
from catalogue.errors import CatalogueError
from catalogue.site.render import KEPT_TYPES
from catalogue.system.codec import Codec
from catalogue.search.index import PAGES_FILE, IndexedPage, read_pages_file, read_record, render_pages_file, shard_of
from conftest import BuiltSite, build_project, copy_built, make_project, run_cli, serve_under_subpath
from catalogue.routes import bucket, paper_page
from site_data import site_records

QUERIES_FILE = Path(__file__).parent / "data" / "search_queries.yaml"
CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; img-src 'self' data:; "
                           "style-src 'self'; frame-ancestors 'none'")  # as netlify.toml sends it
TIMEOUT_MS = 10_000


def make_sharded_project(root: Path) -> Path:
    """The seeds as three venues: the second file becomes NeurIPS 2025, its last six abstracts a
    third file, ICLR 2024."""
    make_project(root)
    _, second = sorted((root / "seeds").glob("*.txt"))
    header, *abstracts = [block for block in second.read_text(encoding="utf-8").split("\n\n") if block.strip()]
    assert header.startswith("ICML 2026") and len(abstracts) == 19
    second.write_text("\n\n".join(["NeurIPS 2025 Accepted Papers", *abstracts[:13]]) + "\n", encoding="utf-8")
    (root / "seeds" / "002_iclr.txt").write_text("\n\n".join(["ICLR 2024 Accepted Papers", *abstracts[13:]]) + "\n",
                                                 encoding="utf-8")
    return root


def shards_file(site: Path) -> dict:
    return json.loads((site / "pagefind" / "shards.json").read_text(encoding="utf-8"))


def bundle_files(site: Path) -> dict[str, tuple[int, bytes]]:
    """Every file of every bundle (not shards.json): its inode and bytes."""
    return {path.relative_to(site / "pagefind").as_posix(): (path.stat().st_ino, path.read_bytes())
            for path in sorted((site / "pagefind").glob("*/**/*")) if path.is_file()}


def fragment_urls(bundle: Path) -> set[str]:
    return {json.loads(gzip.decompress(fragment.read_bytes()).removeprefix(b"pagefind_dcd"))["url"]
            for fragment in (bundle / "fragment").glob("*/*.pf_fragment")}


def venues(site: Path) -> dict[str, str]:
    """slug -> 'VENUE YEAR', from papers.json."""
    papers = site_records(site)
    return {paper["slug"]: f"{paper['venue']} {paper['year']}" for paper in papers}


def shard_names(site: Path) -> dict[str, str]:
    """slug -> the name of the shard its page is in (by shard_of, from the pages the render recorded)."""
    return {page.path.split("/")[2]: f"part-{shard_of(page.path) + 1}" for page in read_pages_file(site)}


def shard_of_venue(site: Path, venue: str) -> set[str]:
    """The shards holding a page of 'VENUE YEAR'."""
    names, by_venue = shard_names(site), venues(site)
    return {names[slug] for slug, shown in by_venue.items() if shown == venue}


@pytest.fixture(scope="module")
def sharded(tmp_path_factory) -> BuiltSite:
    return build_project(make_sharded_project(tmp_path_factory.mktemp("sharded") / "project"))


# --- the pure parts ------------------------------------------------------------------------


def test_a_pages_shard_is_its_buckets_whatever_its_venue():
    paths = [paper_page(f"paper-{n}") for n in range(400)]
    shards = [shard_of(path) for path in paths]
    assert shards == [int(path.split("/")[1], 16) % search.SHARD_COUNT for path in paths]
    assert set(shards) == set(range(search.SHARD_COUNT))
    pages = [IndexedPage(path, ("ICML", "NeurIPS")[n % 2], "2026", "k") for n, path in enumerate(paths[:8])]
    grouped = search.group_shards("en", pages)
    assert len(grouped) <= search.SHARD_COUNT and sum(len(shard.pages) for shard in grouped) == 8  # one page, one shard
    assert all(shard_of(path) + 1 == int(shard.name.removeprefix("part-")) for shard in grouped for path in shard.pages)


@pytest.mark.parametrize("papers, count", [(8, 4), (4 * search.SHARD_PAGES, 4), (4 * search.SHARD_PAGES + 1, 5),
                                           (10 * search.SHARD_PAGES - 1, 10)])
def test_shards_grow_in_number_past_their_pages_never_in_size(papers, count):
    pages = [IndexedPage(paper_page(f"paper-{n}"), "ICML", "2026", "k") for n in range(papers)]
    grouped = search.group_shards("en", pages)
    assert [shard.name for shard in grouped] == [f"part-{number}" for number in range(1, count + 1)]
    assert sum(len(shard.pages) for shard in grouped) == papers
    assert all(abs(len(shard.pages) - papers / count) < 0.05 * papers / count for shard in grouped if papers > 1000)
    assert all(shard_of(path, count) + 1 == int(shard.name.removeprefix("part-")) for shard in grouped for path in shard.pages)


def test_the_pages_record_reads_back_as_written(tmp_path):
    pages = [IndexedPage("papers/b/index.html", "ICML", "2026", "k1"), IndexedPage("papers/a/index.html", "A&B", "", "k2")]
    (tmp_path / PAGES_FILE).write_text(render_pages_file(pages, "zh-CN"), encoding="utf-8")
    assert sorted(read_pages_file(tmp_path), key=lambda page: page.path) == sorted(pages, key=lambda page: page.path)
    assert read_record(tmp_path)[0] == "zh-cn"  # as Pagefind names a language
    (tmp_path / PAGES_FILE).write_text(render_pages_file(pages, ""), encoding="utf-8")
    with pytest.raises(CatalogueError, match="build the site again"):
        read_pages_file(tmp_path)
    (tmp_path / PAGES_FILE).write_text("{not json", encoding="utf-8")
    with pytest.raises(CatalogueError, match="build the site again"):
        read_pages_file(tmp_path)


# --- building -------------------------------------------------------------------------------


def test_a_fixed_number_of_bundles_each_page_in_its_hashs(sharded: BuiltSite):
    site = sharded.out
    listed = shards_file(site)
    names = shard_names(site)
    expected = {name: list(names.values()).count(name) for name in set(names.values())}
    assert {bundle["name"]: bundle["pages"] for bundle in listed["bundles"]} == expected
    assert len(expected) == search.SHARD_COUNT and listed["years"] == ["2024", "2025", "2026"]
    for bundle in listed["bundles"]:
        urls = fragment_urls(site / "pagefind" / bundle["path"])
        assert len(urls) == bundle["pages"]
        assert {names[url.split("/")[3]] for url in urls} == {bundle["name"]}
    assert sorted(p.name for p in (site / "pagefind").iterdir()) == [*sorted(expected), "shards.json", "vocabulary"]
    assert not (site / "pagefind" / "pagefind.js").exists()  # no unsharded bundle
    assert "Indexed 38 pages in 4 shards: 0 unchanged, 4 indexed" in sharded.output
    assert check_site(site, validate_html=False) == []  # every paper indexed, exactly once


def test_the_render_records_every_paper_page_with_the_filters_it_writes(sharded: BuiltSite):
    recorded = {page.path: (page.venue, page.year) for page in read_pages_file(sharded.out)}
    pages = sorted(path.relative_to(sharded.out).as_posix() for path in (sharded.out / "papers").glob("*/*/index.html"))
    assert sorted(recorded) == pages and len(pages) == 38
    for path in pages:
        html = (sharded.out / path).read_text(encoding="utf-8")
        venue = re.search(r'data-pagefind-filter="venue">([^<]*)<', html)[1]
        year = re.search(r'data-pagefind-filter="year">([^<]*)<', html)
        assert "data-pagefind-body" in html and recorded[path] == (venue, year[1] if year else "")


def test_a_renamed_papers_old_page_in_a_shards_buckets_is_not_indexed(tmp_path, seeds_builds):
    """Pagefind reads a shard's buckets (shard_glob): the old address's page that a renamed paper leaves in
    a bucket another paper's page is in is a redirect, which it skips; each bundle holds its recorded pages."""
    built = seeds_builds.copy(tmp_path)
    slugs_by_bucket: dict[str, list[str]] = {}
    for page in read_pages_file(built.out):
        slugs_by_bucket.setdefault(page.path.split("/")[1], []).append(page.path.split("/")[2])
    old = next(sorted(slugs)[0] for _, slugs in sorted(slugs_by_bucket.items()) if len(slugs) > 1)
    path = next(path for path in (built.content / "papers").glob("*.md") if f"\nslug: {old}\n" in path.read_text("utf-8"))
    path.write_text(path.read_text(encoding="utf-8").replace(f"\nslug: {old}\n", f"\nslug: {old}-renamed\n"), "utf-8")
    rebuilt = build_project(built.root)
    assert (rebuilt.out / paper_page(old)).is_file() and f"- {old}" in path.read_text(encoding="utf-8")
    shards = search.read_shards(rebuilt.out)
    assert paper_page(old) not in {page for shard in shards for page in shard.pages}
    assert any(bucket(old) == page.split("/")[1] for shard in shards for page in shard.pages)  # its bucket is read
    for shard in shards:
        entry = json.loads((rebuilt.out / "pagefind" / shard.name / "pagefind-entry.json").read_text(encoding="utf-8"))
        assert entry["languages"]["en"]["page_count"] == len(shard.pages), shard.name


def test_the_vocabulary_holds_each_shards_words(sharded: BuiltSite):
    home = shard_names(sharded.out)["flashsinkhorn"]
    other = next(name for name in sorted(set(shard_names(sharded.out).values())) if name != home)
    words = search.read_bundle_words(sharded.out / "pagefind" / other)
    assert list(words) == ["en"] and "FlashSinkhorn" not in words["en"]  # a paper of another shard
    assert "FlashSinkhorn" in search.read_bundle_words(sharded.out / "pagefind" / home)["en"]
    assert not any(re.fullmatch(r"[0-9a-f]{12}", word) for word in words["en"])  # ids are metadata, not words
    vocabulary = sharded.out / "pagefind" / "vocabulary"
    entry = json.loads((vocabulary / "pagefind-entry.json").read_text(encoding="utf-8"))
    assert {code: index["page_count"] for code, index in entry["languages"].items()} == {"en": search.SHARD_COUNT}
    assert not (vocabulary / "fragment").exists()  # a page of words per shard, counted and never shown


def test_a_rebuild_indexes_only_the_shard_whose_pages_changed(sharded: BuiltSite, tmp_path, monkeypatch):
    project = copy_built(sharded, tmp_path / "project").root
    before = bundle_files(project / "site")

    again = build_project(project)  # nothing changed: the build stops before any stage
    assert "Up to date" in again.output
    assert bundle_files(again.out) == before

    # Edit the title of the NeurIPS paper whose title other papers' pages show most (as related)
    pages = {path: path.read_text(encoding="utf-8") for path in again.out.glob("papers/*/*/index.html")}
    by_venue = venues(again.out)
    neurips = [slug for slug, venue in by_venue.items() if venue == "NeurIPS 2025"]
    titles = {slug: re.search(r'<h1 [^>]*data-pagefind-meta="title">([^<]+)</h1>', pages[again.out / "papers" / bucket(slug) / slug / "index.html"]).group(1)
              for slug in neurips}
    slug = max(neurips, key=lambda s: sum(titles[s] in text for text in pages.values()))
    source = project / "content" / "papers" / f"{slug}.md"
    text = source.read_text(encoding="utf-8")
    source.write_text(re.sub(r"(?m)^title: .*$", "title: Zanzibarite Edited Title", text), encoding="utf-8")
    read_back = []  # the bundles whose words the vocabulary reads: the others' are in the cache
    monkeypatch.setattr(search, "read_bundle_words", lambda bundle: read_back.append(bundle.name) or reading(bundle))
    edited = build_project(project)
    home = shard_names(edited.out)[slug]
    assert read_back == [home]
    assert re.search(rf"3 unchanged, 1 indexed: {home} \(\d+\)", edited.output), edited.output
    after = bundle_files(edited.out)
    for name, (inode, data) in after.items():
        if name.split("/")[0] not in (home, "vocabulary"):
            assert before[name] == (inode, data), f"{name} was indexed again"
    assert not any(name.startswith((f"{home}/", "vocabulary/")) and before.get(name, (0,))[0] == inode
                   for name, (inode, _) in after.items()), "the edited shard and the vocabulary are new"
    names = shard_names(edited.out)
    changed_elsewhere = [path for path, text in pages.items() if names[path.parent.name] != home
                         and path.read_text(encoding="utf-8") != text]
    assert changed_elsewhere, "no page of another shard shows the edited title: pick another paper"
    assert "Zanzibarite" in search.read_bundle_words(edited.out / "pagefind" / home)["en"]
    assert check_site(edited.out, validate_html=False) == []


reading = search.read_bundle_words


def test_an_edit_that_keeps_every_shards_words_keeps_the_vocabulary(sharded: BuiltSite, tmp_path):
    """The vocabulary is a function of the shards' words as written: a title reworded with the same
    words re-indexes the shard, not the vocabulary."""
    project = copy_built(sharded, tmp_path / "project").root
    before, vocabulary = bundle_files(project / "site"), shards_file(project / "site")["vocabulary"]
    neurips = sorted(slug for slug, venue in venues(project / "site").items() if venue == "NeurIPS 2025")
    titles = {slug: re.search(r"(?m)^title: (.*)$", (project / "content" / "papers" / f"{slug}.md").read_text(encoding="utf-8"))[1]
              for slug in neurips}
    edited_slug = next(slug for slug in neurips if re.fullmatch(r"[\w -]+", titles[slug]))  # words alone: any order is YAML
    source = project / "content" / "papers" / f"{edited_slug}.md"
    title = titles[edited_slug]
    source.write_text(source.read_text(encoding="utf-8").replace(f"title: {title}", f"title: {' '.join(reversed(title.split()))}"),
                      encoding="utf-8")
    edited = build_project(project)
    home = shard_names(edited.out)[edited_slug]
    assert f"3 unchanged, 1 indexed: {home}" in edited.output
    after = bundle_files(edited.out)
    assert any(name.startswith(f"{home}/") and before.get(name, (0,))[0] != inode for name, (inode, _) in after.items())
    assert {name: value for name, value in after.items() if name.startswith("vocabulary/")} == \
        {name: value for name, value in before.items() if name.startswith("vocabulary/")}
    assert shards_file(edited.out)["vocabulary"] == vocabulary
    assert check_site(edited.out, validate_html=False) == []


def test_the_offline_index_is_the_same_from_the_abstracts_terms_kept(monkeypatch):
    entries = [offline.SearchEntry(f"papers/p{n}/index.html", "", title, "ICML 2026", (), abstract)
               for n, (title, abstract) in enumerate([
                   ("Sparse attention", "We prune attention heads; pruned heads are sparse attention's cost."),
                   ("强化学习 for robots", "我们提出强化学习的方法 and robots learn 强化学习 policies."),
                   ("Graph networks", "Graph networks pass messages; messages carry the graph's structure.")])]
    expected = offline.OfflineIndex(entries, []).render_all()
    kept = {entry.abstract: Codec(KEPT_TYPES).decode(Codec(KEPT_TYPES).encode(offline.abstract_terms(entry.abstract)))  # as the cache gives them
            for entry in entries}
    assert kept == {entry.abstract: offline.abstract_terms(entry.abstract) for entry in entries}
    with monkeypatch.context() as patched:
        patched.setattr(offline, "abstract_terms", None)  # from now on every abstract's terms are the kept ones
        assert offline.OfflineIndex(entries, [], kept).render_all() == expected


def test_a_venue_that_disappears_takes_its_pages_out_of_their_shards_alone(sharded: BuiltSite, tmp_path):
    project = copy_built(sharded, tmp_path / "project").root
    touched = shard_of_venue(project / "site", "ICLR 2024")
    (project / "seeds" / "002_iclr.txt").unlink()
    run_cli("ingest", "--seeds", str(project / "seeds"), "--content", str(project / "content"), "--prune", "--allow-removals")
    rebuilt = build_project(project)
    assert f"Indexed 32 pages in 4 shards: {4 - len(touched)} unchanged, {len(touched)} indexed" in rebuilt.output, \
        re.search(r"Indexed .*", rebuilt.output)[0]
    assert "2024" not in shards_file(rebuilt.out)["years"]
    assert sum(bundle["pages"] for bundle in shards_file(rebuilt.out)["bundles"]) == 32
    assert check_site(rebuilt.out, validate_html=False) == []


def test_the_index_command_reindexes_in_place_only_what_is_missing_or_stale(sharded: BuiltSite, tmp_path):
    site = Path(shutil.copytree(sharded.out, tmp_path / "site"))
    shutil.copytree(sharded.root / ".site-build", tmp_path / ".site-build")  # the page list the render recorded
    (site / "pagefind" / "pagefind.js").write_text("// an unsharded bundle of an older build")
    shutil.rmtree(site / "pagefind" / "part-3")
    kept = {name: inode for name, (inode, _) in bundle_files(site).items() if name.startswith("part-1/")}
    output = run_cli("index", "--out", str(site))
    assert re.search(r"Indexed 38 pages in 4 shards: 3 unchanged, 1 indexed: part-3 \(\d+\)", output), output
    assert not (site / "pagefind" / "pagefind.js").exists()
    assert {name: inode for name, (inode, _) in bundle_files(site).items() if name.startswith("part-1/")} == kept
    assert check_site(site, validate_html=False) == []


# --- in the browser --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def one_index(sharded: BuiltSite, tmp_path_factory) -> Path:
    """The same site with every paper in one shard: what search must behave like."""
    site = Path(shutil.copytree(sharded.out, tmp_path_factory.mktemp("one-index") / "site"))
    shutil.copytree(sharded.root / ".site-build", site.parent / ".site-build")
    count, search.SHARD_COUNT = search.SHARD_COUNT, 1
    try:
        search.index_site(site)
    finally:
        search.SHARD_COUNT = count
    assert [bundle["pages"] for bundle in shards_file(site)["bundles"]] == [38]
    return site


@pytest.fixture(scope="module")
def served(sharded: BuiltSite, one_index: Path, tmp_path_factory) -> Iterator[dict[str, str]]:
    """Both sites at http://127.0.0.1:PORT/REPO/, the sharded one under the CSP Netlify sends."""
    with serve_under_subpath(sharded.out, tmp_path_factory.mktemp("served-sharded"),
                             policy=CONTENT_SECURITY_POLICY) as sharded_base, \
            serve_under_subpath(one_index, tmp_path_factory.mktemp("served-one")) as one_base:
        yield {"sharded": sharded_base, "one": one_base}


SUBMIT = """params => {
    const results = document.querySelector('#search-results');
    delete results.dataset.query;
    for (const [key, id] of Object.entries({topic: 'filter-topic', venue: 'filter-venue', year: 'filter-year',
                                            sort: 'sort'})) {
        const select = document.getElementById(id);
        select.value = params[key] ?? '';
        if (select.value !== (params[key] ?? '')) throw new Error(`#${id} has no option ${params[key]}`);
    }
    const input = document.querySelector('#search-input');
    input.value = params.q ?? '';
    input.form.requestSubmit();
}"""


class SearchPage:
    """search.html in one tab; `results(params)` opens search.html?params and reads the results;
    `submit(params)` fills the form of the page `load()` opened and submits it, as a reader would."""

    def __init__(self, browser, base: str):
        self.context = browser.new_context()
        self.page = self.context.new_page()
        self.page.set_default_timeout(TIMEOUT_MS)
        self.base = base
        self.errors: list[str] = []
        self.page.on("console", lambda message: message.type == "error" and self.errors.append(message.text))
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))

    def results(self, **params: str) -> tuple[list[str], str]:
        """(result slugs in order, the status line)."""
        self.open(params)
        return self.read(params)

    def open(self, params: dict[str, str]) -> None:
        self.page.goto(self.base + "search.html?" + urlencode(params), wait_until="commit")

    def load(self) -> None:
        self.page.goto(self.base + "search.html")  # until its scripts have run

    def submit(self, params: dict[str, str]) -> None:
        self.page.evaluate(SUBMIT, params)

    def read(self, params: dict[str, str]) -> tuple[list[str], str]:
        """Every result, "Show more" clicked until all are shown."""
        self.page.wait_for_function("q => { const r = document.querySelector('#search-results');"
                                    " return r !== null && r.dataset.engine === 'pagefind' && r.dataset.query === q; }",
                                    arg=params.get("q", ""))
        more = self.page.locator("#search-more")
        while more.is_visible():
            shown = self.page.locator("#search-results .result").count()
            more.click()
            self.page.wait_for_function("n => document.querySelectorAll('#search-results .result').length > n", arg=shown)
        hrefs = self.page.eval_on_selector_all("#search-results a.result-link", "links => links.map(a => a.href)")
        return [urlsplit(href).path.split("/")[4] for href in hrefs], self.page.locator("#search-status").inner_text()


@pytest.fixture(scope="module")
def pages(browser, served) -> Iterator[dict[str, SearchPage]]:
    tabs = {name: SearchPage(browser, base) for name, base in served.items()}
    yield tabs
    for tab in tabs.values():
        tab.context.close()


def test_a_search_finds_papers_of_every_shard_and_the_venue_filter_narrows(pages, sharded: BuiltSite):
    by_venue = venues(sharded.out)
    found, _ = pages["sharded"].results(q="learning")
    assert {by_venue[slug] for slug in found} == {"ICML 2026", "NeurIPS 2025", "ICLR 2024"}, found
    for venue in ("NeurIPS", "ICLR"):
        narrowed, _ = pages["sharded"].results(q="learning", venue=venue)
        assert narrowed and set(narrowed) < set(found), venue
        assert {by_venue[slug].split()[0] for slug in narrowed} == {venue}
        assert sorted(narrowed) == sorted(slug for slug in found if by_venue[slug].startswith(venue + " "))
    newest, _ = pages["sharded"].results(q="learning", sort="newest")
    years = [int(by_venue[slug].split()[1]) for slug in newest]
    assert sorted(newest) == sorted(found) and years == sorted(years, reverse=True), years
    oldest, _ = pages["sharded"].results(q="learning", sort="oldest", topic="Optimization")
    years = [int(by_venue[slug].split()[1]) for slug in oldest]
    assert len(set(years)) > 1 and years == sorted(years), years
    # A name that only one shard has: the others' near misses (Pagefind's fallback to shorter
    # prefixes, "flash...") are not shown, as with one index
    assert pages["sharded"].results(q="flashsinkhorn")[0] == ["flashsinkhorn"]
    assert pages["sharded"].errors == []


def test_search_behaves_as_one_index_over_every_page(pages):
    """The 47 quality queries, misspellings, an exact phrase and filters: the same results (the
    order may differ where scores come from different shards) and the same top-3 quality."""
    queries = [entry["query"] for entry in yaml.safe_load(QUERIES_FILE.read_text(encoding="utf-8"))]
    expected = {entry["query"]: entry["expect"] for entry in yaml.safe_load(QUERIES_FILE.read_text(encoding="utf-8"))}
    searches = [{"q": query} for query in queries] + [
        {"q": "optimal polytreez"}, {"q": "sinkhorm"}, {"q": '"optimal polytree"'}, {"q": "zzzqqqxx"},
        {"q": "diffusion", "venue": "ICML"}, {"q": "model", "year": "2025"}, {"topic": "Optimization"},
        {"venue": "ICLR", "sort": "newest"}, {"q": "learning", "topic": "Optimization", "sort": "oldest"}]
    different, top3 = [], {"sharded": 0, "one": 0}
    for tab in pages.values():
        tab.load()  # search.html once, its engine loaded for every search below
    for params in searches:
        for tab in pages.values():  # both at once
            tab.submit(params)
        outcome = {name: tab.read(params) for name, tab in pages.items()}
        (sharded, sharded_status), (one, one_status) = outcome["sharded"], outcome["one"]
        if sorted(sharded) != sorted(one) or sharded_status != one_status:
            different.append(f"{params}: sharded {sharded} ({sharded_status!r}), one index {one} ({one_status!r})")
        if params.get("q") in expected:
            top3["sharded"] += expected[params["q"]] in sharded[:3]
            top3["one"] += expected[params["q"]] in one[:3]
    assert different == [], "\n".join(different)
    assert top3["sharded"] >= top3["one"] >= 0.9 * len(queries), top3
    assert pages["sharded"].errors == pages["one"].errors == []
