"""Related papers and the map: scores checked against a TF-IDF computed by hand, the order and
ties of neighbours, the terms shown for a pair, edge cases, and the map's layout."""

from __future__ import annotations

import io
import math
import os
import pickle
import random
import signal
import subprocess
import sys
from collections import Counter
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.synthetic import PROJECT, real_sentences, synthetic_abstract
from catalogue.discovery import related
from catalogue.discovery.changes import text_digests
from catalogue.discovery.kept_related import LINE, RelatedState, _kept_vectors, found_related, updated_related
from catalogue.discovery.map import MAP_GROUPS, full_map, map_groups, map_layout, updated_map
from catalogue.discovery.neighbours import (COMMON_SHARE, Neighbour, _nearest, _split_by_frequency, neighbours_by_row,
                                            related_papers)
from catalogue.discovery.terms import STOPWORDS, phrases, term_key
from catalogue.discovery.vectors import tfidf, vectorise, written_form
from catalogue.system.cache import Cache
from catalogue.errors import CatalogueError
from catalogue.text import words
from catalogue.discovery.related import SimilarityProcess, is_small_catalogue

DIFFUSION = [
    ("Denoising diffusion models generate images by reversing a gradual noising process. We propose "
     "a faster sampler for diffusion models that needs fewer denoising steps."),
    ("Latent diffusion models compress images into a latent space before denoising. Our classifier-free "
     "guidance makes text-to-image diffusion sampling follow the prompt."),
    ("We study score-based diffusion models: denoising score matching learns the noise schedule, and our "
     "sampler for image diffusion halves the number of denoising steps."),
]
GRAPHS = [
    ("Graph neural networks pass messages between the nodes of a graph. We propose a message passing "
     "scheme that avoids oversmoothing in deep graph neural networks."),
    ("Node classification on large graphs is hard for graph neural networks. Our neighbour sampling lets "
     "message passing scale to graphs with millions of nodes."),
    ("We analyse the expressive power of graph neural networks through the Weisfeiler-Lehman test and "
     "propose higher-order message passing on the graph structure."),
]
OTHERS = [
    "Reinforcement learning agents explore sparse-reward environments with a curiosity bonus.",
    "We prove regret bounds for online convex optimization with delayed feedback.",
]
CORPUS = DIFFUSION + GRAPHS + OTHERS


def synthetic(count: int, seed: int = 0) -> list[str]:
    sentences = real_sentences(PROJECT / "seeds")
    rng = random.Random(seed)
    return [synthetic_abstract(n, sentences, rng) for n in range(count)]


def reference_cosines(texts: list[str]) -> np.ndarray:
    """The full similarity matrix, by the book: sublinear tf, smoothed idf, L2 norm, dot product."""
    counts = [Counter(term_key(phrase) for phrase in phrases(text)) for text in texts]
    frequency = Counter(term for count in counts for term in count)
    n = len(texts)
    vectors = []
    for count in counts:
        vector = {term: (1 + math.log(times)) * (math.log((1 + n) / (1 + frequency[term])) + 1)
                  for term, times in count.items()}
        length = math.sqrt(sum(v * v for v in vector.values())) or 1.0
        vectors.append({term: v / length for term, v in vector.items()})
    return np.array([[sum(v * b.get(t, 0.0) for t, v in a.items()) for b in vectors] for a in vectors])


def scores_of(related: list[tuple[Neighbour, ...]]) -> dict[tuple[int, int], float]:
    return {(i, n.index): n.score for i, neighbours in enumerate(related) for n in neighbours}


def check_well_formed(related: list[tuple[Neighbour, ...]], texts: list[str], count: int) -> None:
    assert len(related) == len(texts)
    for i, neighbours in enumerate(related):
        assert len(neighbours) <= min(count, len(texts) - 1)
        assert all(n.index != i for n in neighbours), "a paper is never its own neighbour"
        assert len({n.index for n in neighbours}) == len(neighbours)
        assert all(0 < n.score <= 1 for n in neighbours)
        keys = [(-n.score, n.index) for n in neighbours]
        assert keys == sorted(keys), "highest score first, ties by index"


# --- Scores ----------------------------------------------------------------------------------


def test_scores_are_the_cosines_of_tfidf_vectors_and_symmetric():
    related = related_papers(CORPUS, count=len(CORPUS))
    expected = reference_cosines(CORPUS)
    scores = scores_of(related)
    for i, j in combinations(range(len(CORPUS)), 2):
        if round(expected[i, j], 6) > 0:
            assert scores[i, j] == scores[j, i], "the score of i -> j is the score of j -> i"
            assert scores[i, j] == pytest.approx(expected[i, j], abs=2e-6)
        else:
            assert (i, j) not in scores and (j, i) not in scores, "papers with nothing in common are left out"


def test_each_paper_finds_its_own_kind_first():
    related = related_papers(CORPUS, count=2)
    for group in (range(3), range(3, 6)):
        for i in group:
            assert [n.index for n in related[i]] == sorted((j for j in group if j != i),
                                                          key=lambda j: (-scores_of(related)[i, j], j))
            assert all(n.index in group for n in related[i])


@pytest.mark.parametrize("common_share, dense_terms", [(COMMON_SHARE, "some"), (0.0, "all"), (1.1, "none")])
def test_the_top_count_matches_a_brute_force_ranking_across_many_blocks(monkeypatch, common_share, dense_terms):
    texts = synthetic(300) + synthetic(5, seed=1)[:3] * 2  # three duplicated abstracts: tied scores
    # 7 rows a block: 44 blocks on the thread pool; terms in a dense product: some, all, none
    monkeypatch.setattr("catalogue.discovery.neighbours.BLOCK_CELLS", 300 * 7)
    monkeypatch.setattr("catalogue.discovery.neighbours.COMMON_SHARE", common_share)
    weights = vectorise(tuple(texts)).weights.astype(np.float64)
    common, rare = _split_by_frequency(weights)
    assert {"some": 0 < common.shape[1] < weights.shape[1], "all": rare.nnz == 0, "none": common.shape[1] == 0}[dense_terms]
    related = related_papers(texts, count=4)
    check_well_formed(related, texts, 4)
    full = np.rint(np.minimum((weights @ weights.T).toarray(), 1.0) * 1e6)
    for i, neighbours in enumerate(related):
        full[i, i] = -1
        best = sorted((j for j in range(len(texts)) if full[i, j] > 0), key=lambda j: (-full[i, j], j))[:4]
        assert [n.index for n in neighbours] == best
        assert [n.score for n in neighbours] == [full[i, j] / 1e6 for j in best]
    scores = scores_of(related)
    assert all(scores[j, i] == score for (i, j), score in scores.items() if (j, i) in scores)
    # RelatedState parts its lists of terms by this mark: no term holds one
    assert not any(LINE in phrase for text in texts for phrase in phrases(text))


def test_same_texts_same_answer():
    texts = synthetic(200)
    assert related_papers(texts) == related_papers(list(texts))


def test_duplicates_are_each_others_neighbours_never_their_own():
    texts = [DIFFUSION[0], GRAPHS[0], DIFFUSION[0], DIFFUSION[0]]
    related = related_papers(texts, count=3)
    check_well_formed(related, texts, 3)
    assert [(n.index, n.score) for n in related[0][:2]] == [(2, 1.0), (3, 1.0)]
    assert [(n.index, n.score) for n in related[2][:2]] == [(0, 1.0), (3, 1.0)]
    assert [(n.index, n.score) for n in related[3][:2]] == [(0, 1.0), (2, 1.0)]


# --- Terms ------------------------------------------------------------------------------------


def test_terms_are_written_as_the_catalogue_writes_them_and_hold_no_stop_word():
    vectors = vectorise(tuple(CORPUS))
    lower_case = set(vectors.spellings)
    everything = " ".join(CORPUS).lower()
    for t in range(len(vectors.terms)):
        written = written_form(vectors, t, lower_case)
        assert written.lower() in everything, f"{written!r} is a spelling the catalogue uses, not a stem"
        assert not any(word in STOPWORDS for word in words(written)), written


@pytest.mark.parametrize("texts, term", [
    (["Pre-training LLMs on code.", "Continual pre-training of LLMs."], "pre-training"),
    (["Pre-training LLMs on code.", "Continual pre-training of LLMs."], "LLMs"),
    (["Diffusion models draw images.", "We train diffusion models on audio."], "diffusion models"),
    (["Graph networks on ImageNet.", "ImageNet labels are noisy."], "ImageNet"),
])
def test_terms_keep_hyphens_and_capitals_that_mean_something(texts, term):
    """As the map's groups are named (written_form): the spelling the texts use most."""
    vectors = vectorise(tuple(texts))
    lower_case = set(vectors.spellings)
    assert term in {written_form(vectors, t, lower_case) for t in range(len(vectors.terms))}


def test_chinese_text_has_neighbours():
    texts = ["扩散模型用于图像生成，我们提出新的去噪方法。",  # diffusion models make images; a denoiser
             "我们研究图神经网络在分子性质预测中的应用。",  # graph neural networks for molecules
             "扩散模型的去噪过程可以加速图像生成。"]  # denoising in diffusion models, faster images
    related = related_papers(texts)
    check_well_formed(related, texts, 5)
    assert related[0][0].index == 2 and related[2][0].index == 0


# --- Edge cases ------------------------------------------------------------------------------


@pytest.mark.parametrize("texts", [
    [],
    ["A single paper about diffusion models."],
    ["", ""],
    ["", "   ", "\n"],
    ["a", "the", "x", "42"],
    ["Diffusion models.", "", "Diffusion models again."],
    ["Graph neural networks."] * 4,
    ["Visit https://github.com/org/repo or mail a@b.org.", "See https://github.com/org/repo."],
    ["扩散模型", "GPT模型 and diffusion", "😀 ∑ κ ≤ ε", "Ünïcödé wörds, çà et là."],
])
def test_edge_cases_give_well_formed_answers(texts):
    for count in (0, 1, 5, 10):
        related = related_papers(texts, count=count)
        check_well_formed(related, texts, count)
        if count == 0:
            assert related == [()] * len(texts)
    points = map_layout(texts)
    assert len(points) == len(texts)
    assert all(0.0 <= x <= 1.0 and 0.0 <= y <= 1.0 for x, y in points)


def test_empty_and_wordless_texts_have_no_neighbours_and_are_no_ones():
    texts = ["Diffusion models denoise images.", "", "Diffusion models draw images.", "of the and 42"]
    related = related_papers(texts)
    assert related[1] == () and related[3] == ()
    assert [n.index for n in related[0]] == [2] and [n.index for n in related[2]] == [0]


def test_fewer_papers_than_asked_for():
    related = related_papers(DIFFUSION, count=5)
    assert [len(neighbours) for neighbours in related] == [2, 2, 2]


def test_links_and_boilerplate_are_not_terms():
    texts = ["Our state-of-the-art method: https://github.com/a/b. Extensive experiments on graphs.",
             "A state-of-the-art approach, code at https://github.com/a/b; extensive experiments on graphs."]
    vectors = vectorise(tuple(texts))
    assert [vectors.terms[t] for t in vectors.weights[0].multiply(vectors.weights[1]).nonzero()[1]] == [("graph",)]
    assert [len(neighbours) for neighbours in related_papers(texts)] == [1, 1]  # through that term alone


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.sampled_from(["a", "b", "de", "graph", "graphs", "LLM", " ", " ", "-", ".", "ß", "图像",
                                           "模型", "的", "42", "|", "/"]), max_size=16).map("".join), max_size=7),
       st.integers(min_value=0, max_value=8))
def test_any_texts_give_well_formed_neighbours(texts, count):
    related = related_papers(texts, count=count)
    check_well_formed(related, texts, count)
    scores = scores_of(related)
    assert all(scores[j, i] == score for (i, j), score in scores.items() if (j, i) in scores)


# --- The map ---------------------------------------------------------------------------------


def mean_distance(points: list[tuple[float, float]], pairs) -> float:
    return float(np.mean([math.dist(points[i], points[j]) for i, j in pairs]))


def test_map_places_similar_papers_nearer_than_dissimilar_ones():
    texts = DIFFUSION * 2 + GRAPHS * 2  # 12 papers: t-SNE lays them out directly
    texts = [f"{text} Variant {k}." for k, text in enumerate(texts)]
    points = map_layout(texts)
    assert all(0.0 <= x <= 1.0 and 0.0 <= y <= 1.0 for x, y in points)
    diffusion, graphs = range(6), range(6, 12)
    within = mean_distance(points, [*combinations(diffusion, 2), *combinations(graphs, 2)])
    across = mean_distance(points, [(i, j) for i in diffusion for j in graphs])
    assert within < 0.8 * across
    for i, point in enumerate(points):
        nearest = min((j for j in range(12) if j != i), key=lambda j: math.dist(point, points[j]))
        assert (nearest < 6) == (i < 6), "each paper's nearest on the map is of its own kind"


def test_map_of_many_papers_groups_them_and_still_keeps_kinds_apart(monkeypatch):
    # 90 papers > 12: k-means groups, t-SNE on their centres
    monkeypatch.setattr("catalogue.discovery.map.MAP_CLUSTERS", 12)
    rng = random.Random(0)
    kinds = [DIFFUSION, GRAPHS, OTHERS]
    labels = [k % 3 for k in range(90)]
    texts = [" ".join(rng.sample(kinds[label], 2)) + f" Paper {k}." for k, label in enumerate(labels)]
    points = map_layout(texts)
    assert len(points) == 90 and all(0.0 <= x <= 1.0 and 0.0 <= y <= 1.0 for x, y in points)
    assert map_layout(texts) == points
    same = [(i, j) for i, j in combinations(range(90), 2) if labels[i] == labels[j]]
    other = [(i, j) for i, j in combinations(range(90), 2) if labels[i] != labels[j]]
    assert mean_distance(points, same) < mean_distance(points, other) / 2


def test_map_is_the_same_each_time():
    texts = synthetic(120)
    assert map_layout(texts) == map_layout(list(texts))


def test_map_fills_the_square_on_one_axis_at_least():
    points = np.array(map_layout(CORPUS))
    assert points.min() == 0.0 and points.max() == 1.0


@pytest.mark.parametrize("texts, expected", [
    ([], []),
    (["Only one paper."], [(0.5, 0.5)]),
    (["Graph neural networks.", "Graph neural networks."], [(0.5, 0.5), (0.5, 0.5)]),
    (["Same words here."] * 5, [(0.5, 0.5)] * 5),
])
def test_map_edge_cases(texts, expected):
    assert map_layout(texts) == expected


def test_map_of_two_different_papers_sets_them_apart():
    first, second = map_layout([DIFFUSION[0], GRAPHS[0]])
    assert math.dist(first, second) == pytest.approx(1.0)


def check_groups(groups, count: int) -> None:
    """Groups that share the papers out: each once, largest group first, at most MAP_GROUPS."""
    assert 1 <= len(groups) <= MAP_GROUPS
    members = [i for _, papers in groups for i in papers]
    assert sorted(members) == list(range(count))
    assert [len(papers) for _, papers in groups] == sorted((len(papers) for _, papers in groups), reverse=True)
    for named, _ in groups:
        assert len(named) <= 3 and len({w for phrase in named for w in term_key(phrase)}) == \
            sum(len(term_key(phrase)) for phrase in named)  # no word in two phrases


def test_map_groups_keep_kinds_apart_and_are_named_by_their_words():
    rng = random.Random(0)
    kinds = [DIFFUSION, GRAPHS, OTHERS]
    labels = [k % 3 for k in range(90)]
    texts = [" ".join(rng.sample(kinds[label], 2)) + f" Paper {k}." for k, label in enumerate(labels)]
    groups = map_groups(texts)
    check_groups(groups, 90)
    assert len(groups) == 7  # as many as the distinct texts (3 + 3 + 1 pairs of sentences), below sqrt(90)
    for named, papers in groups:
        assert len({labels[i] for i in papers}) == 1, "a group holds one kind of paper"
        kind = labels[papers[0]]
        said = " ".join(named).lower()
        assert {0: "diffusion", 1: "graph", 2: "reward"}.get(kind, "") in said or kind == 2, (kind, named)
    assert map_groups(texts) == groups  # the same each time


def test_map_groups_of_real_abstracts_name_their_subject():
    texts = synthetic(200)
    groups = map_groups(texts)
    check_groups(groups, 200)
    assert len(groups) == MAP_GROUPS
    assert all(words for words, _ in groups)


@pytest.mark.parametrize("texts, expected", [
    ([], []),
    (["Only one paper."], [((), (0,))]),
    (["", "of the and 42", ""], [((), (0, 1, 2))]),
])
def test_map_groups_edge_cases(texts, expected):
    assert map_groups(texts) == expected


def test_identical_papers_make_one_group():
    groups = map_groups(["Graph neural networks pass messages."] * 6)
    assert [papers for _, papers in groups] == [(0, 1, 2, 3, 4, 5)]
    assert groups[0][0][0].lower() in ("graph neural", "neural networks", "graph neural networks", "messages")


def test_a_failing_similarity_process_stops_the_build_with_its_message(monkeypatch):
    monkeypatch.setattr(related, "ANSWERING", "similarity_fakes:failing")  # fails at once, saying why
    with SimilarityProcess() as process, \
            pytest.raises(CatalogueError, match="(?s)finding related papers failed.*MemoryError: out of memory"):
        process.ask(["a text about graphs", "another text about graphs"], Cache(None))
        process.related()


def test_a_process_that_answers_garbage_and_goes_on_is_stopped(monkeypatch):
    monkeypatch.setattr(related, "ANSWERING", "similarity_fakes:chatty")  # then never ends by itself
    monkeypatch.setattr(related, "ENDING_SECONDS", 0.5)
    with SimilarityProcess() as process, pytest.raises(CatalogueError, match="finding related papers failed"):
        process.ask(["a text about graphs", "another text about graphs"], Cache(None))
        process.related()
    assert process.process.exitcode == -signal.SIGKILL  # stopped, not waited for forever


def test_the_processes_of_one_build_process_are_forked_from_one_server_that_imported_the_map_tools(monkeypatch):
    """So a process that builds more than once imports scikit-learn once, and never itself."""
    monkeypatch.setattr(related, "ANSWERING", "similarity_fakes:where_forked")
    seen = []
    for _ in range(2):
        with SimilarityProcess() as process:  # small: t-SNE is loaded ahead (no in-process build here is large)
            process.ask(["a text about graphs", "another text about graphs"], Cache(None))
            seen.append(process.related())
    assert seen[0] == seen[1]
    server, loaded = seen[0]
    assert server != os.getpid() and loaded


def test_a_catalogue_is_small_up_to_the_papers_t_sne_lays_out(tmp_path):
    papers = tmp_path / "papers"
    assert is_small_catalogue(papers)  # no folder yet: a first build
    papers.mkdir()
    for n in range(related.MAP_CLUSTERS):
        (papers / f"{n}.md").touch()
    assert is_small_catalogue(papers)
    (papers / "one-more.md").touch()
    assert not is_small_catalogue(papers)


def test_the_similarity_process_answers_as_the_functions_do():
    texts = synthetic(40)
    done = subprocess.run([sys.executable, "-m", "catalogue.discovery.similarity_process"],
                          input=pickle.dumps((texts, None, None)), capture_output=True, check=True, cwd=PROJECT)
    answers = io.BytesIO(done.stdout)
    related, positions = pickle.load(answers), pickle.load(answers)  # related papers first, then the map
    assert related == [tuple(n.index for n in neighbours) for neighbours in related_papers(texts)]
    assert positions == map_layout(texts)
    assert pickle.load(answers) == map_groups(texts)  # then the map's groups
    assert pickle.load(answers) == tuple(full_map(texts))  # and the map's state, for the next build
    assert answers.read() == b""


def test_finding_related_papers_imports_no_scikit_learn():
    """Its import takes seconds; only a map laid out anew needs it."""
    code = ("import sys; from catalogue.discovery.kept_related import found_related; "
            "from catalogue.discovery.map import updated_map; "
            "found_related(['Diffusion models denoise images.', 'Denoising diffusion for images.'], None); "
            "print(sorted(name for name in sys.modules if name.split('.')[0] == 'sklearn'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=PROJECT)
    assert done.stdout.strip() == "[]"


def test_tfidf_is_scikit_learns_to_the_bit():
    from sklearn.feature_extraction.text import TfidfTransformer
    vectors = vectorise(tuple(synthetic(200) + CORPUS))
    counts = vectors.weights.copy()
    counts.data = np.rint(np.random.default_rng(0).uniform(1, 4, counts.nnz)).astype(np.float32)
    ours, idf = tfidf(counts)
    theirs = TfidfTransformer(sublinear_tf=True).fit(counts)
    assert np.array_equal(idf.view(np.uint32), theirs.idf_.astype(np.float32).view(np.uint32))
    assert np.array_equal(ours.data.view(np.uint32), theirs.transform(counts).tocsr().data.view(np.uint32))


# --- the map kept across an edit (updated_map) ----------------------------------------------


@pytest.fixture
def small_clusters(monkeypatch):
    """A grouped layout from 20 papers on, so that a catalogue of a few hundred texts is one to keep."""
    monkeypatch.setattr("catalogue.discovery.map.MAP_CLUSTERS", 20)


def edited(texts: list[str], *indices: int) -> list[str]:
    return [f"{text} Our edit adds this sentence." if n in indices else text for n, text in enumerate(texts)]


def test_an_edit_keeps_every_other_place_and_puts_the_paper_among_its_neighbours(small_clusters):
    texts = synthetic(300)
    last = full_map(texts)
    changed = edited(texts, 7)
    neighbours = related_papers(changed)
    kept = updated_map(changed, last, neighbours)
    assert kept is not None and kept.laid_out == last.laid_out and kept.digests != last.digests
    assert [p for n, p in enumerate(kept.positions) if n != 7] == [p for n, p in enumerate(last.positions) if n != 7]
    weights = np.array([n.score for n in neighbours[7]])
    places = np.array([last.positions[n.index] for n in neighbours[7]])
    assert kept.positions[7] == pytest.approx(tuple(weights @ places / weights.sum()), abs=1e-4)
    group = next(members for _, members in kept.groups if 7 in members)
    assert group[-1] == 7  # the least typical of its group
    def without_it(groups):
        return sorted((words, tuple(m for m in members if m != 7)) for words, members in groups)
    assert without_it(kept.groups) == without_it(last.groups)  # each other paper in its group, in order


def test_the_map_is_laid_out_anew_past_the_share_of_texts_changed(small_clusters):
    texts = synthetic(300)  # MAP_KEPT_SHARE of 300 papers: 3 texts
    last = full_map(texts)
    for changed, kept in ((edited(texts, 1, 2, 3), True), (edited(texts, 1, 2, 3, 4), False),
                          (texts[:298], True), (texts[:297], False),  # 3 gone is more than 1% of 297
                          (texts + synthetic(3, seed=1), True), (texts + synthetic(4, seed=1), False)):
        assert (updated_map(changed, last, related_papers(changed)) is not None) == kept
    # The share counts from the last full layout, not the last build: edits add up.
    twice = updated_map(edited(texts, 1, 2), last, related_papers(edited(texts, 1, 2)))
    again = edited(texts, 1, 2, 5, 6)
    assert updated_map(again, twice, related_papers(again)) is None
    # A text written back as it was laid out counts no more (its place is found again among its neighbours).
    back = updated_map(texts, twice, related_papers(texts))
    assert back is not None and back.positions[3:] == last.positions[3:]
    others = edited(texts, 5, 6, 7)
    assert updated_map(others, back, related_papers(others)) is not None


def test_a_small_map_is_always_laid_out_anew():
    texts = synthetic(60)
    assert updated_map(texts, full_map(texts), related_papers(texts)) is None  # not beyond MAP_CLUSTERS


def test_the_map_and_its_texts_are_kept_for_the_next_build_of_this_code():
    texts, cache = synthetic(30), Cache(None)
    with SimilarityProcess() as process:
        process.ask(texts, cache)
        positions, groups = process.positions(), process.groups()
    assert cache.get(related.MAP_KIND, related.similarity_version()) == (text_digests(texts), text_digests(texts), positions, groups)


def test_answers_are_kept_until_a_text_changes(monkeypatch):
    texts, cache = synthetic(30), Cache(None)
    with SimilarityProcess() as process:
        process.ask(texts, cache)
        first = process.related(), process.positions(), process.groups()
    monkeypatch.setattr(related, "ANSWERING", "similarity_fakes:failing")  # no process could answer now: the cache must
    with SimilarityProcess() as process:
        process.ask(list(texts), cache)
        assert (process.related(), process.positions(), process.groups()) == first
    with SimilarityProcess() as process, pytest.raises(CatalogueError):
        process.ask(texts[:-1] + [texts[-1] + " One more sentence."], cache)
        process.related()


# --- related papers kept across an edit (updated_related) -----------------------------------


@pytest.fixture
def kept_from_fewer(monkeypatch):
    """Related papers kept from 20 papers on, so that a catalogue of a few hundred texts is one to keep."""
    monkeypatch.setattr("catalogue.discovery.kept_related.RELATED_FOUND_ANEW_UP_TO", 20)


def exact_under(state: RelatedState, texts: list[str]) -> list[tuple[Neighbour, ...]]:
    """Every paper's neighbours found from scratch (_nearest) over the vectors a state keeps."""
    return neighbours_by_row(*_nearest(_kept_vectors(state).weights, 5), len(texts))


def test_related_papers_found_anew_are_those_of_a_clean_build_and_a_small_catalogue_is_always_found_anew():
    texts = synthetic(300)
    found, state = found_related(texts, None)
    assert found == related_papers(texts)
    assert state.digests == state.computed == text_digests(texts)
    assert updated_related(edited(texts, 7), state) is None  # not beyond RELATED_FOUND_ANEW_UP_TO


def test_an_edit_finds_exact_neighbours_under_the_kept_weights_and_keeps_every_unchanged_pair(kept_from_fewer):
    texts = synthetic(300)
    last, state = found_related(texts, None)
    changed = edited(texts, 7, 150)
    kept, new_state = updated_related(changed, state)
    assert new_state.computed == state.computed and new_state.digests == text_digests(changed)
    assert kept == exact_under(new_state, changed)  # each paper's five best under the kept weights, found anew
    for paper, neighbours in enumerate(last):  # a pair of unchanged papers keeps its score
        if paper not in (7, 150):
            before = {n.index: n for n in neighbours if n.index not in (7, 150)}
            assert all(before[n.index] == n for n in kept[paper] if n.index in before)
    assert any(7 in {n.index for n in neighbours} for paper, neighbours in enumerate(kept) if paper != 7)
    # The next edit starts from this one's state and still counts from the last full computation.
    again, third = updated_related(edited(changed, 8), new_state)
    assert third.computed == state.computed and again == exact_under(third, edited(changed, 8))


def test_related_papers_kept_stay_close_to_a_clean_builds(kept_from_fewer):
    """The bound: the kept weights differ from a clean build's by the few texts changed, so each
    paper's neighbours are, scored as a clean build scores them, within 0.02 of its best ones."""
    texts = synthetic(300)
    _, state = found_related(texts, None)
    changed = edited(texts, 1, 2, 3)
    kept, _ = updated_related(changed, state)
    clean = related_papers(changed)
    cosines = reference_cosines(changed)
    for paper, (ours, theirs) in enumerate(zip(kept, clean)):
        assert len(ours) == len(theirs)
        for mine, best in zip(ours, theirs):
            assert cosines[paper, mine.index] >= best.score - 0.02
    assert sum(a == b for a, b in zip(kept, clean)) > len(clean) / 2  # most lists are the very same


def test_related_papers_are_found_anew_past_the_share_of_texts_changed_or_in_a_new_order(kept_from_fewer):
    texts = synthetic(300)  # RELATED_KEPT_SHARE of 300 papers: 3 texts
    _, state = found_related(texts, None)
    for changed, kept in ((edited(texts, 1, 2, 3), True), (edited(texts, 1, 2, 3, 4), False),
                          (texts[:298], True), (texts[:297], False),
                          (texts + synthetic(3, seed=1), True), (texts + synthetic(4, seed=1), False),
                          (edited(texts, 0)[1:] + edited(texts, 0)[:1], True),  # the changed paper moved
                          (texts[2:3] + texts[:2] + texts[3:], False)):  # unchanged papers in a new order
        assert (updated_related(changed, state) is not None) == kept
    twice = updated_related(edited(texts, 1, 2), state)[1]
    assert updated_related(edited(texts, 1, 2, 5, 6), twice) is None  # edits add up from the full computation
    back = updated_related(texts, twice)  # written back as they were: counted no more
    assert back is not None and back[0] == related_papers(texts)
    removed = texts[:100] + texts[101:]
    assert updated_related(removed, state)[0] == exact_under(updated_related(removed, state)[1], removed)


def test_the_process_keeps_related_papers_and_their_vectors_for_the_next_build_of_this_code(tmp_path):
    texts, cache = synthetic(40), Cache(tmp_path / "cache.sqlite")
    with SimilarityProcess() as process:
        process.ask(texts, cache)
        process.related(), process.groups()
    # the process stored the state itself (the build waits for it at the end): the build never holds it
    assert cache.get(related.RELATED_KIND, related.similarity_version()) == tuple(found_related(texts, None)[1])
    changed = edited(texts, 3)
    with SimilarityProcess(cache.path) as process:  # named at the start: the process reads the state at once
        process.ask(changed, cache)
        assert process.related() == [tuple(n.index for n in found) for found in related_papers(changed)]
        process.groups()
    assert RelatedState(*cache.get(related.RELATED_KIND, related.similarity_version())).digests == text_digests(changed)
