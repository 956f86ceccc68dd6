"""Search on real titles: the 500 real papers of tests/data/corpus_sample.jsonl, built as JSON lines
seed lists (one per venue-year, titles and authors as given), and a fresh random 300 of them
queried by the three rarest words of their title (bench/search_titles.py has the rule). The
paper must come among the first three results for at least 95% hosted (Pagefind, the site served
over http under /REPO/) and 85% from disk (the offline index, search.html from file://).

The draw follows the run's Hypothesis seed (tests/conftest.py: fresh each run, printed in the
header, the summary and any failure here; `pytest --hypothesis-seed=N` replays it). Both engines'
pages run their 300 queries at the same time, each in one page (no navigation per query).
`python bench/corpus_build.py` gives the same figures for the whole corpus.
"""

from __future__ import annotations

import shutil
import sys

import pytest

from conftest import PROJECT, BuiltSite, build_project, hypothesis_seed_line, serve_under_subpath

sys.path.insert(0, str(PROJECT))

from bench.corpus_build import write_jsonl_seed_lists  # noqa: E402
from bench.realtext import SAMPLE, read_records  # noqa: E402
from bench.search_titles import (ENGINE_NAMES, TARGETS, Outcome, draw, read_site_papers, report,  # noqa: E402
                                 run_queries, title_frequency, title_query, title_words)

QUERIES = 300


@pytest.mark.parametrize("title, words", [
    ("Sparse Embedded $k$-Means Clustering", ["sparse", "embedded", "means", "clustering"]),  # math removed
    ("L-CoDer: Language-Based Colorization", ["coder", "language", "based", "colorization"]),  # punctuation
    ("On the Use of GANs, \\(x^2\\) and 3D", ["gans"]),  # stop words, words under 3 letters
    ("Graphs of Graphs: Über-Learning", ["graphs", "über", "learning"]),  # each word once, any letters
])
def test_title_words(title, words):
    assert title_words(title) == words


@pytest.mark.parametrize("title, query", [
    ("Learning Deep Sparse Codes", "learning sparse codes"),  # the rarest three, in title order
    ("Deep Graphs", "deep graphs"),  # fewer than three: all of them
    ("Learning for Deep Graphs", "learning deep graphs"),
    ("Graphs and Learning Sparse Codes", "graphs sparse codes"),  # ties (graphs, learning) by order in the title
    ("On the Use of It", ""),  # none: no query
])
def test_title_query_takes_the_rarest_words(title, query):
    frequency = title_frequency(["Deep Learning for Graphs", "Deep Graphs", "Learning Deep Sparse Codes"])
    assert title_query(title, frequency) == query


@pytest.fixture(scope="module")
def sample_site(tmp_path_factory) -> BuiltSite:
    root = tmp_path_factory.mktemp("titles")
    write_jsonl_seed_lists(read_records(SAMPLE), root / "seeds")
    (root / "content").mkdir()
    shutil.copy(PROJECT / "content" / "topics.yaml", root / "content" / "topics.yaml")
    return build_project(root)


@pytest.fixture(scope="module")
def seed(request) -> int | str:
    value = request.config.getoption("hypothesis_seed")
    return int(value) if str(value).isdigit() else value


@pytest.fixture(scope="module")
def outcomes(sample_site: BuiltSite, seed, browser, tmp_path_factory) -> dict[str, list[Outcome]]:
    queries = draw(read_site_papers(sample_site.out), QUERIES, seed)
    assert len(queries) == QUERIES
    with serve_under_subpath(sample_site.out, tmp_path_factory.mktemp("served-titles")) as base:
        contexts = {engine: browser.new_context() for engine in TARGETS}
        try:
            pages = {"pagefind": (contexts["pagefind"].new_page(), f"{base}search.html"),
                     "fallback": (contexts["fallback"].new_page(), (sample_site.out / "search.html").as_uri())}
            return run_queries(pages, queries)
        finally:
            for context in contexts.values():
                context.close()


def test_the_sample_builds_with_given_titles(sample_site: BuiltSite):
    papers = read_site_papers(sample_site.out)
    assert len(papers) == 500
    titles = {record["title"] for record in read_records(SAMPLE)}
    assert {title for _, title in papers} == titles, "each paper keeps the title its record gives"


@pytest.mark.parametrize("engine", ["pagefind", "fallback"])
def test_three_rare_title_words_find_the_paper(engine: str, outcomes, seed, request, capsys):
    found = outcomes[engine]
    table = report(engine, found, seed)
    with capsys.disabled():
        print(f"\n{table}\n{hypothesis_seed_line(request.config)}")
    engines = {outcome.engine for outcome in found if not outcome.timed_out}
    assert engines == {engine}, f"#search-results[data-engine] should be {engine!r}, saw {engines}"
    rate = sum(outcome.hit for outcome in found) / len(found)
    assert rate >= TARGETS[engine], (f"{ENGINE_NAMES[engine]}: top-3 rate {rate:.1%} < {TARGETS[engine]:.0%}\n"
                                     f"{table}\n{hypothesis_seed_line(request.config)}")
