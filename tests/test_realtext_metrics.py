"""The instrument of tests/test_real_abstracts.py and bench/realtext.py: each metric on small cases
it must get right, and the checkers find what is planted for them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from catalogue.model import Paper, Source, Topic

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

from bench.realtext import read_pairs, write_seed_lists  # noqa: E402
from bench.realtext_metrics import (abstract_math, benchmark_scores, dataset_key, name_is_right,  # noqa: E402
                                    named_topics, read_result_labels, result_scores, silver_name, slug_leaks,
                                    tag_leaks, title_defects, token_f1, tokens)


@pytest.mark.parametrize("text, expected", [
    ("<b>N</b>euron Networks", ["neuron", "networks"]),
    ("$\\alpha$-Divergence", ["alpha", "divergence"]),
    ("A Study: of Things", ["a", "study", "of", "things"]),
    ("$k<n$ and $m>2$", ["k", "n", "and", "m", "2"]),  # comparisons are no tags
])
def test_tokens(text, expected):
    assert tokens(text) == expected


@pytest.mark.parametrize("derived, real, expected", [
    ("Deep Nets", "Deep Nets", 1.0),
    ("Deep Nets Work", "Deep Nets", 0.8),  # P 2/3, R 1
    ("Other", "Deep Nets", 0.0),
    ("", "Deep Nets", 0.0),
])
def test_token_f1(derived, real, expected):
    assert token_f1(derived, real) == pytest.approx(expected)


COMMON = frozenset({"learning", "the"})


@pytest.mark.parametrize("title, abstract, expected", [
    ("SparseVLM: Token Sparsification", "We propose SparseVLM, a method.", "SparseVLM"),
    ("Deep Reactive Policy: Planning", "Deep Reactive Policy (DRP) plans.", "Deep Reactive Policy"),
    ("Learning: A Survey", "Learning is what we study.", None),  # a common word
    ("On the Limits of Very Deep Nets: A Study", "On the Limits of Very Deep Nets", None),  # too long
    ("lowercase: a title", "lowercase appears", None),  # no capital or digit
    ("GraphX: Fast Graphs", "We propose graphx.", None),  # not in the abstract as written
    ("No Colon Here", "No Colon Here", None),
])
def test_silver_name(title, abstract, expected):
    assert silver_name({"title": title, "abstract": abstract}, COMMON) == expected


@pytest.mark.parametrize("predicted, silver, abstract, expected", [
    ("DRP", "DRP", "", True),
    ("DRP", "Deep Reactive Policy", "we propose Deep Reactive Policy (DRP), a planner", True),
    ("Deep Reactive Policy", "DRP", "we propose Deep Reactive Policy (**DRP**), a planner", True),
    ("DRP", "Deep Reactive Policy", "Deep Reactive Policy plans; DRP is fast", False),
    ("Policy", "Deep Reactive Policy", "Deep Reactive Policy (DRP)", False),
])
def test_name_is_right(predicted, silver, abstract, expected):
    assert name_is_right(predicted, silver, abstract) is expected


@pytest.mark.parametrize("title, abstract, defects", [
    ("LieNLSD: Lie Symmetry Discovery", "", []),
    ("LieNLSD: LieNLSD", "", ["name alone repeated"]),
    ("Graph Methods between the Low-", "", ["ends on a small word or hyphen"]),
    ("A Study of the Effect of", "", ["ends on a small word or hyphen"]),
    ("Ranking What Matters to This", "", ["ends on a small word or hyphen"]),
    ("A Analysis of Sparse Codes", "", ["'a' before a vowel sound"]),
    ("X: a Efficient Solver", "", ["'a' before a vowel sound"]),
    ("A LSTM for Tagging", "", ["'a' before a vowel sound"]),
    ("A Unified View of a User Model", "", []),
    ("Learning $x_{t+1} = a X_t$ Fast", "we learn $x_{t+1} = A x_t$ fast", ["math changed"]),
    ("Learning $x_{t+1} = A x_t$ Fast", "we learn $x_{t+1} = A x_t$ fast", []),
    ("Learning $x_{t+1}", "we learn $x_{t+1}$", ["math changed"]),
    ("Word " * 23, "", ["longer than 110 characters"]),
    ("$\\mathcal{O}(n)$ " + "Word " * 20, "$\\mathcal{O}(n)$", []),  # what a reader sees is shorter
    ("Causal Graph Using at Most O(log", "", ["a bracket left open or closed alone"]),
    ("N)-Space Approximation Algorithms", "", ["a bracket left open or closed alone"]),
    ("N)-Space Approximation in O(log", "", ["a bracket left open or closed alone"]),  # as many, wrong order
    ("Learning in $O(\\log n)$ Rounds (Almost)", "we learn in $O(\\log n)$ rounds", []),
])
def test_title_defects(title, abstract, defects):
    assert title_defects(title.strip(), abstract) == defects


TAXONOMY = (Topic("reinforcement-learning", "Reinforcement learning", ("reinforcement learning", "bandit")),
            Topic("graphs", "Graphs and structured data", ("graph neural network",)))


@pytest.mark.parametrize("keywords, expected", [
    (["Reinforcement Learning"], ("reinforcement-learning",)),
    (["bandits", "Graph  Neural Networks"], ("reinforcement-learning", "graphs")),
    (["graphs and structured data"], ("graphs",)),
    (["deep learning", "graph"], ()),
])
def test_named_topics(keywords, expected):
    assert named_topics({"keywords": keywords}, TAXONOMY) == expected


def test_benchmark_precision_counts_spellings_of_a_labelled_dataset():
    labels = {"T": (frozenset({dataset_key("MS MARCO"), dataset_key("MSMARCO")}), frozenset({dataset_key("GLUE")}))}
    derived = Paper(id="x", slug="x", title="T", abstract="", source=Source("s"),
                    benchmarks=("the MS MARCO dataset", "GLUE benchmark", "BLEU"))
    scores = benchmark_scores([({"title": "T"}, derived), ({"title": "unlabelled"}, derived)], labels)
    assert (scores.labelled, scores.listed, scores.right) == (1, 3, 2)
    assert "BLEU" in scores.wrong[0].shows


def test_result_scores_read_each_shown_result_by_its_label(tmp_path):
    lines = [{"seed": 1, "paper": "V 2020: T", "result": "34% success rate", "label": "right", "rules": "old"},
             {"seed": 1, "paper": "V 2020: T", "result": "by 11%", "label": "vague", "rules": "old"}]
    path = tmp_path / "labels.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    record = {"venue": "V", "year": 2020, "title": "T"}
    derived = Paper(id="x", slug="x", title="T", abstract="", source=Source("s"),
                    results=("34% success rate", "2x faster"))
    scores = result_scores([(record, derived), ({"venue": "V", "year": 2021, "title": "T"}, derived)],
                           read_result_labels(path))
    assert (scores.labelled, scores.shown, scores.counts) == (1, 2, {"right": 1, "unlabelled": 1})
    assert scores.share("right") == 0.5 and "2x faster" in scores.unlabelled[0].shows


LEAKING = {
    "papers/x/index.html": '<html><head><title>A &lt;b&gt;bold&lt;/b&gt; title</title></head><body></body></html>',
    "papers/y/index.html": '<meta name="description" content="A &lt;em&gt;word&lt;/em&gt;"><p>fine</p>',
    "papers/z/index.html": '<title>Raw <i>tag</i> in a title</title>',
    "papers/w/index.html": '<script type="application/ld+json">{"name": "a \\u003csub\\u003e2\\u003c/sub\\u003e"}</script>',
    "papers/v/index.html": '<p>see &lt;a href="https://x.org"&gt;here&lt;/a&gt;</p>',
    "feed.xml": '<feed><entry><title>&lt;strong&gt;X&lt;/strong&gt;</title></entry></feed>',
    "papers/x/x.bib": "@inproceedings{x, title = {A <tt>tool</tt>}}",
    "papers.json": json.dumps({"papers": [{"title": "H<sub>2</sub>O", "abstract": "H<sub>2</sub>O"}]}),
    "list-data.js": "window.CATALOGUE_LIST = " + json.dumps({"x": ["x", '<b class="k">X</b>']}) + ";",
    "search-index.js": "window.CATALOGUE_SEARCH = " + json.dumps({"papers": [["x", "N<br>ew"]]}) + ";",
    "search-index/1.js": "window.CATALOGUE_SEARCH_PART_1 = " + json.dumps([["x", "N<sub>2</sub>"]]) + ";",
}
CLEAN = {
    "index.html": '<p><b>bold</b> and <a href="https://x.org">a link</a>; a &lt; b and c &gt; d; x&lt;n</p>'
                  '<script>const html = "<b>" + x + "</b>";</script>',
    "feed.xml": '<feed><entry><summary type="html">&lt;b&gt;bold&lt;/b&gt; text</summary></entry></feed>',
    "assets/search.js": 'element.innerHTML = "<b>" + label + "</b>";',
    "papers.json": json.dumps({"papers": [{"title": "a < b and c > d", "abstract": "<b>as written</b>"}]}),
}


def write_site(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_tag_leaks_finds_every_planted_tag(tmp_path):
    leaks = tag_leaks(write_site(tmp_path, LEAKING))
    assert sorted({leak.file for leak in leaks}) == sorted(LEAKING)


def test_tag_leaks_passes_real_markup(tmp_path):
    assert tag_leaks(write_site(tmp_path, CLEAN)) == []


@pytest.mark.parametrize("slug, name, title, leaks", [
    ("b-mats-b", "<b>MATS</b>", "", True),
    ("mats", "MATS", "", False),
    ("u-net", "U-Net", "", False),
    ("sub-optimal-i-o", None, "Sub-optimal I/O", False),
    ("h-sub-2-sub-o-sensing", None, "H<sub>2</sub>O Sensing", True),
])
def test_slug_leaks(slug, name, title, leaks):
    paper = Paper(id="x", slug=slug, title=title or name, abstract="", source=Source("s"), name=name)
    assert bool(slug_leaks([paper])) is leaks


def test_abstract_math_counts_converted_and_written_math():
    page = ('<section class="abstract"><p>Let <math><mi>x</mi></math> and <code class="tex">$\\eps$</code>; '
            'with $ x $ and \\(y^2\\), it costs $5 and $10 per day.</p></section><p>$z$ outside</p>')
    converted, written = abstract_math(page)
    assert converted == 1
    assert written == ["$\\eps$", "$ x $", "\\(y^2\\)"]


def test_seed_lists_keep_each_abstract_whole_and_trace_it_back(tmp_path):
    records = [{"venue": "ICML", "year": 2019, "title": "A", "abstract": "First part.\n\nICML 2020 Papers\n\nEnd."},
               {"venue": "ICML", "year": 2019, "title": "B", "abstract": "Second   abstract\nhere."},
               {"venue": "CoRL", "year": 2021, "title": "C", "abstract": "Third."}]
    places = write_seed_lists(records, tmp_path / "seeds")
    text = (tmp_path / "seeds" / "icml-2019.txt").read_text()
    assert text == "ICML 2019\n\nFirst part. ICML 2020 Papers End.\n\nSecond abstract here.\n"
    assert places == {("seeds/icml-2019.txt", 3): 0, ("seeds/icml-2019.txt", 5): 1, ("seeds/corl-2021.txt", 3): 2}
    papers_dir = tmp_path / "content" / "papers"
    papers_dir.mkdir(parents=True)
    for slug, line, pid in (("b", 5, "b" * 12), ("stray", 9, "c" * 12)):
        (papers_dir / f"{slug}.md").write_text(f"---\nid: {pid}\nslug: {slug}\ntitle: {slug}\nvenue: ICML\n"
                                              f"year: 2019\nsource: seeds/icml-2019.txt:{line}\n---\n\nText.\n")
    pairs, strays = read_pairs(tmp_path / "content", records, places)
    assert [(record["title"], paper.slug) for record, paper in pairs] == [("B", "b")]
    assert [paper.slug for paper in strays] == ["stray"]


def run_realtext(*options: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(PROJECT / "bench" / "realtext.py"), *options],
                          capture_output=True, text=True, timeout=300)


def test_realtext_prints_every_item_with_its_target(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    done = run_realtext("--sample", "--limit", "20", "--work", str(work), "--json", str(tmp_path / "table.json"))
    assert done.returncode == 0, done.stdout + done.stderr
    rows = [line.split("|") for line in done.stdout.splitlines() if line.count("|") == 4]
    items = [cells[0].strip() for cells in rows[2:]]  # after the header and its rule
    assert sorted(set(items)) == ["1 markup", "2 math", "3 names", "4 titles", "5 topics", "6 benchmarks", "7 speed"]
    assert all(cells[4].strip() in ("met", "NOT MET", "no data") for cells in rows[2:] if cells[3].strip() != "-"), done.stdout
    assert "20 papers traced to their records" in done.stdout
    assert not list(work.iterdir()), "the scratch folder is removed"
    saved = json.loads((tmp_path / "table.json").read_text())
    assert [row["item"] for row in saved["rows"]] == items and saved["records"] == 20


def test_realtext_says_in_one_line_when_the_corpus_is_missing(tmp_path):
    done = run_realtext(str(tmp_path / "papers.jsonl.gz"))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "no such file" in done.stderr and not done.stdout

