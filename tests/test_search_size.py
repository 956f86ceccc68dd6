"""What search publishes, and that it stays small (issue 39): a shard's Pagefind bundle carries its
data alone (the browser runs the vocabulary's runtime), every page is indexed in the site's
language (force_language) and the vocabulary keeps that language's WebAssembly alone; the offline
index is a manifest and parts, none over PART_BYTES, all loaded by script tags from disk."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from catalogue.publish.manifest import record_folder
from catalogue.search import index as search
from catalogue.search import offline
from catalogue.search import bundles
from catalogue.search.bundles import run_pagefind
from catalogue.search.index import PAGES_FILE, read_pages_file, render_pages_file
from catalogue.search.offline import FALLBACK_FILE, PARTS_DIR, OfflineIndex, SearchEntry, read_offline_index
from conftest import BuiltSite, build_project, make_project, serve_folder

RUNTIME = {"pagefind.js", "pagefind-worker.js"}
QUERIES = ["sinkhorn", "EgoTSR", "graph neural", "diffusion", "reinforcement learning", "transformer attention"]


def bundle_names(bundle: Path) -> set[str]:
    return {path.name for path in bundle.iterdir()}


def languages(bundle: Path) -> dict[str, dict]:
    return json.loads((bundle / "pagefind-entry.json").read_text(encoding="utf-8"))["languages"]


# --- Pagefind's bundles -----------------------------------------------------------------------


def test_a_shard_keeps_its_data_and_the_vocabulary_the_runtime_of_one_language(built_site: BuiltSite):
    bundles = built_site.out / "pagefind"
    shard = bundle_names(bundles / "part-1")
    assert {"index", "filter", "fragment", "pagefind-entry.json"} <= shard
    assert not shard & RUNTIME and not [name for name in shard if name.startswith("wasm.")]
    vocabulary = bundle_names(bundles / "vocabulary")
    assert RUNTIME <= vocabulary and {"index", "filter"} <= vocabulary
    assert [name for name in vocabulary if name.startswith("wasm.")] == ["wasm.en.pagefind"]
    assert "fragment" not in vocabulary  # its pages are counted, never shown
    assert languages(bundles / "part-1").keys() == languages(bundles / "vocabulary").keys() == {"en"}


def page_html(lang: str, text: str) -> str:
    return f'<!DOCTYPE html><html lang="{lang}"><head><title>x</title></head><body><main>{text}</main></body></html>'


def test_force_language_indexes_every_page_in_the_sites_language(tmp_path):
    pages = tmp_path / "pages"
    pages.mkdir()
    for name, lang in (("a", "en"), ("b", "fr"), ("c", "")):
        (pages / f"{name}.html").write_text(page_html(lang, f"word{name} shared"), encoding="utf-8")
    run_pagefind(pages, tmp_path / "forced", "en")
    assert {code: index["page_count"] for code, index in languages(tmp_path / "forced").items()} == {"en": 3}
    bundles.keep_runtime(tmp_path / "forced")
    assert sorted(p.name for p in (tmp_path / "forced").glob("wasm.*")) == ["wasm.en.pagefind"]
    run_pagefind(pages, tmp_path / "chinese", "zh-cn")  # Pagefind has no Chinese stemmer: the neutral WebAssembly
    bundles.keep_runtime(tmp_path / "chinese")
    assert languages(tmp_path / "chinese").keys() == {"zh-cn"}
    assert sorted(p.name for p in (tmp_path / "chinese").glob("wasm.*")) == ["wasm.unknown.pagefind"]
    bundles.drop_runtime(tmp_path / "forced")
    assert not bundle_names(tmp_path / "forced") & RUNTIME and not list((tmp_path / "forced").glob("wasm.*"))


def result_links(page, base: str, query: str, engine: str) -> list[str]:
    page.goto(f"{base}search.html?q={query}")
    page.wait_for_selector(f"#search-results[data-engine='{engine}'][data-query='{query}']")
    page.wait_for_function("() => document.querySelector('#search-status').textContent !== ''")
    links = page.locator("#search-results a.result-link").evaluate_all("links => links.map(a => a.href)")
    return [link.split("?")[0].removeprefix(base) for link in links]  # the site's own address left out


def test_a_site_in_chinese_searches_with_the_webassembly_it_keeps(built_site: BuiltSite, tmp_path, page):
    site = Path(shutil.copytree(built_site.out, tmp_path / "site"))
    record = Path(shutil.copytree(record_folder(built_site.out), record_folder(site)))  # the page list the render recorded
    with serve_folder(built_site.out) as address:
        english = {query: result_links(page, address, query, "pagefind") for query in QUERIES[:2]}
    (record / PAGES_FILE).write_text(render_pages_file(read_pages_file(site), "zh-CN"), encoding="utf-8")
    search.index_site(site, previous=built_site.out)
    assert [p.name for p in (site / "pagefind" / "vocabulary").glob("wasm.*")] == ["wasm.unknown.pagefind"]
    assert languages(site / "pagefind" / "part-1").keys() == {"zh-cn"}  # though the pages say lang="en"
    with serve_folder(site) as address:
        found = {query: result_links(page, address, query, "pagefind") for query in QUERIES[:2]}
    assert all(found.values()) and {query: links[0] for query, links in found.items()} == \
        {query: links[0] for query, links in english.items()}


# --- the offline index ------------------------------------------------------------------------


def script_value(text: str):
    """The value a script of the offline index sets (window.X = value;)."""
    return json.loads(text.split(" = ", 1)[1].rstrip().removesuffix(";"))


def entries() -> list[SearchEntry]:
    """Papers of plain English words and of Chinese pieces (a row of many pieces is long)."""
    found = []
    for number in range(60):
        chinese = number % 5 == 0
        abstract = ("我们提出一种新的强化学习方法" * 8 + f"第{number}篇") if chinese else \
            f"We study sparse attention heads number{number} and prune them; the pruned heads cost less memory."
        found.append(SearchEntry(f"papers/00/p{number}/index.html", f"P{number}", f"P{number}: a paper", "ICML 2026",
                                 (number % 3,), abstract, (f"Author {number}",), f"id{number}", number % 7 == 0))
    return found


def test_the_parts_hold_every_paper_once_in_order_each_under_the_limit(monkeypatch):
    whole = OfflineIndex(entries(), ["a", "b", "c"]).render_all()
    assert list(whole) == [FALLBACK_FILE, f"{PARTS_DIR}/1.js"]  # all in one part under the default limit
    monkeypatch.setattr(offline, "PART_BYTES", 2_000)
    index = OfflineIndex(entries(), ["a", "b", "c"])
    files = index.render_all()
    assert list(files) == index.paths and len(files) > 5
    for path, text in files.items():
        if path != FALLBACK_FILE:
            rows = script_value(text)
            assert len(offline.compact(rows).encode()) <= offline.PART_BYTES and rows, path
    manifest = script_value(files[FALLBACK_FILE])
    single = script_value(whole[FALLBACK_FILE])
    assert manifest["parts"] == index.paths[1:] and {**manifest, "parts": []} == {**single, "parts": []}
    parted = [row for path in manifest["parts"] for row in
              script_value(files[path])]
    assert parted == script_value(whole[f"{PARTS_DIR}/1.js"])


def test_an_edit_remakes_the_parts_whose_rows_it_changes(monkeypatch):
    """A title edited changes its own part (and the manifest, which lists the titles' words); an
    abstract edited changes every word's rarity, so every part. The parts remade are the files
    that differ, and a part kept is the file a new index would make."""
    monkeypatch.setattr(offline, "PART_BYTES", 2_000)
    papers = entries()
    before = OfflineIndex(papers, ["a", "b", "c"])
    at = 17
    for edited, changed_all in ((replace(papers[at], title="P17: a renamed paper"), False),
                                (replace(papers[at], abstract=papers[at].abstract + " Heads number99 learn."), True)):
        after = OfflineIndex(papers[:at] + [edited] + papers[at + 1:], ["a", "b", "c"])
        assert after.paths == before.paths
        remade = {path for path in after.paths if after.inputs(path) != before.inputs(path)}
        differ = {path for path in after.paths if after.render(path) != before.render(path)}
        assert differ <= remade
        holding = next(path for path, (_, start, end) in after.parts.items() if start <= at < end)
        assert remade == (set(after.paths) if changed_all else {offline.FALLBACK_FILE, holding}), remade


def test_a_rows_bound_is_never_below_its_bytes():
    papers = entries()
    documents = [offline.abstract_terms(entry.abstract) for entry in papers]
    for entry, document, row in zip(papers, documents, offline.index_rows(papers, documents, offline.word_rarity(documents))):
        row[3] = 0
        assert offline.row_bound(entry, document) >= len(offline.compact(row).encode()) + 1, entry.path


def test_the_built_sites_offline_index_has_every_paper_in_parts_under_the_limit(built_site: BuiltSite):
    index = read_offline_index(built_site.out)
    parts = sorted((built_site.out / PARTS_DIR).iterdir())
    assert [f"{PARTS_DIR}/{part.name}" for part in parts] == index["parts"]
    assert all(part.stat().st_size <= offline.PART_BYTES + 100 for part in parts)
    papers = {path.parent.name for path in (built_site.out / "papers").glob("*/*/index.html")}
    assert sorted(row[0] for row in index["papers"]) == sorted(papers)


@pytest.fixture(scope="module")
def parted_site(tmp_path_factory) -> Path:
    """The seeds built, without Pagefind, with parts of at most 2 KB: many parts."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(offline, "PART_BYTES", 2_000)
        return build_project(make_project(tmp_path_factory.mktemp("parted") / "project"), "--no-search").out


def test_search_from_disk_loads_every_part_and_finds_what_one_part_finds(parted_site: Path, built_site: BuiltSite,
                                                                         page):
    parts = script_value((parted_site / FALLBACK_FILE).read_text(encoding="utf-8"))["parts"]
    assert len(parts) >= 5 and read_offline_index(parted_site)["papers"] == read_offline_index(built_site.out)["papers"]
    whole = {query: result_links(page, built_site.out.as_uri() + "/", query, "fallback") for query in QUERIES}
    parted = {query: result_links(page, parted_site.as_uri() + "/", query, "fallback") for query in QUERIES}
    assert parted == whole and all(whole.values())
    assert page.evaluate(f"Array.from({{length: {len(parts)}}}, (_, n) => "
                         "(window['CATALOGUE_SEARCH_PART_' + (n + 1)] || []).length)") == \
        [len(script_value((parted_site / part).read_text(encoding="utf-8"))) for part in parts]
