"""The targets of issue 18 on real text: the 500 sampled corpus papers (tests/data/corpus_sample.jsonl),
written as seed lists per venue-year, ingested and rendered once; each target asserted on what a
reader gets (content/ and the site). The figures are bench/realtext_metrics.py's, the same as
`python bench/realtext.py` prints for the whole corpus.
"""

from __future__ import annotations

import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from catalogue.text import replace_unsafe
from catalogue.ingest.quotes import unquoted
from catalogue.markup.cleanup import clean_abstract
from catalogue.content.taxonomy import read_taxonomy
from catalogue.model import Paper, Topic
from conftest import PROJECT, run_cli

sys.path.insert(0, str(PROJECT))

from bench.realtext import LABELS, SAMPLE, read_pairs, read_records, write_seed_lists  # noqa: E402
from bench.realtext_metrics import (DEFECTS, benchmark_scores, common_words, extracted_pairs,  # noqa: E402
                                    math_scores, name_scores, read_benchmark_labels, slug_leaks, tag_leaks,
                                    title_scores, topic_scores)

WORST = 10  # examples a failure message shows
# Issue 18 asks for title F1 >= 0.40 and topic coverage >= 0.85; neither is reached yet (bench/README.md,
# "Real abstracts", says why). These floors are what the extractor reaches on the sample, so that a change
# that makes either worse fails here. Titles are judged by reading since issue 42 (bench/data/title_grading.md):
# the claim's object paraphrases the real title, so its F1 floor guards against collapse only.
TITLE_F1_FLOOR, TITLE_F1_TARGET = 0.30, 0.40
TOPIC_COVERAGE_FLOOR, TOPIC_COVERAGE_TARGET = 0.75, 0.85


@dataclass(frozen=True)
class RealSite:
    records: list[dict]
    pairs: list[tuple[dict, Paper]]
    site: Path
    taxonomy: tuple[Topic, ...]
    fallback: str


@pytest.fixture(scope="module")
def real(tmp_path_factory) -> RealSite:
    root = tmp_path_factory.mktemp("real")
    records = read_records(SAMPLE)
    places = write_seed_lists(records, root / "seeds")
    content, site = root / "content", root / "site"
    content.mkdir()
    shutil.copy(PROJECT / "content" / "topics.yaml", content / "topics.yaml")
    run_cli("ingest", "--seeds", str(root / "seeds"), "--content", str(content))
    run_cli("render", "--content", str(content), "--out", str(site))
    pairs, strays = read_pairs(content, records, places)
    assert not strays, [paper.source for paper in strays]
    return RealSite(records, pairs, site, *read_taxonomy(content))


def worst(examples) -> str:
    return "\n".join(f"  {example.where}: {example.shows}" for example in list(examples)[:WORST])


def test_every_sampled_abstract_becomes_its_own_paper(real):
    """Abstracts with blank lines or header-like lines survive the seed lists whole (without the quote
    marks a list wraps some in)."""
    assert len(real.pairs) == len(real.records) == 500
    changed = [record["title"] for record, paper in real.pairs
               if clean_abstract(replace_unsafe(" ".join(unquoted(record["abstract"]).split())))[0] != paper.abstract]
    assert not changed


def test_in_process_extraction_gives_what_the_reader_gets(real):
    """So bench scripts that extract in-process (extracted_pairs) measure the catalogue a reader sees."""
    extracted = extracted_pairs([record for record, _ in real.pairs], real.taxonomy, real.fallback)
    fields = ("name", "title", "topics", "benchmarks")
    differ = [(record["title"], field) for (record, paper), (_, derived) in zip(real.pairs, extracted)
              for field in fields if getattr(paper, field) != getattr(derived, field)]
    assert not differ, differ[:WORST]


def test_no_allowlisted_tag_is_shown_as_text(real):
    leaks = tag_leaks(real.site) + slug_leaks(paper for _, paper in real.pairs)
    assert not leaks, f"{len(leaks)} allowlisted tags shown as text:\n" + "\n".join(
        f"  {leak.file}: {leak.text}" for leak in leaks[:WORST])


def test_math_is_shown_converted(real):
    math = math_scores(real.site, (paper.slug for _, paper in real.pairs))
    assert math.segments > 100  # the sample has math: the measure sees it
    assert math.share <= 0.01, (f"{math.share:.2%} of {math.segments} math segments shown as written:\n"
                                + worst(math.examples))


@pytest.fixture(scope="module")
def names(real):
    return name_scores(real.pairs, common_words(record["abstract"] for record in real.records))


def test_names_are_precise(names):
    assert names.silver >= 40
    assert names.precision >= 0.95, (f"name precision {names.precision:.3f} ({names.right} of {names.predicted}); "
                                     f"wrong:\n{worst(names.wrong)}")


def test_names_are_found(names):
    assert names.recall >= 0.85, (f"name recall {names.recall:.3f} ({names.right} of {names.silver}); "
                                  f"missed:\n{worst(names.missed)}\nwrong:\n{worst(names.wrong)}")


@pytest.fixture(scope="module")
def titles(real):
    return title_scores(real.pairs)


def test_titles_resemble_the_real_ones(titles):
    assert titles.mean_f1 >= TITLE_F1_FLOOR, (f"mean title token F1 {titles.mean_f1:.3f} (floor {TITLE_F1_FLOOR}, "
                                              f"target {TITLE_F1_TARGET}); worst:\n{worst(titles.worst)}")


@pytest.mark.parametrize("defect", DEFECTS)
def test_no_title_has_a_defect(titles, defect):
    found = titles.defects[defect]
    assert not found, f"{len(found)} titles: {defect}:\n{worst(found)}"


def test_topics_named_by_author_keywords_are_shown(real):
    topics = topic_scores(real.pairs, real.taxonomy)
    assert topics.named >= 20
    assert topics.coverage >= TOPIC_COVERAGE_FLOOR, (
        f"topic coverage {topics.coverage:.1%} (floor {TOPIC_COVERAGE_FLOOR:.0%}, target {TOPIC_COVERAGE_TARGET:.0%}; "
        f"{topics.covered} of {topics.named} named in {topics.papers} papers); missed:\n{worst(topics.missed)}")


def test_benchmarks_are_datasets(real):
    labels = read_benchmark_labels(LABELS)
    benchmarks = benchmark_scores(real.pairs, labels)
    assert benchmarks.labelled >= 50, f"{LABELS.relative_to(PROJECT)} labels {benchmarks.labelled} sampled papers"
    assert benchmarks.precision >= 0.9, (f"benchmark precision {benchmarks.precision:.3f} ({benchmarks.right} of "
                                         f"{benchmarks.listed}); not datasets:\n{worst(benchmarks.wrong)}")
