"""The rules issue 42 sets derived titles (catalogue/ingest/titles.py, title_claims.py, title_spans.py), each on
written abstracts: the claim's phrase before a background one, a quoted claim or opening, marked as a quotation,
rather than a fragment, and no phrase lifted from mid-clause, pointing back, or cut before what it needs."""

from __future__ import annotations

import pytest

from catalogue.ingest.abstract_words import read_abstract
from catalogue.ingest.title_claims import claim_objects
from catalogue.ingest.titles import MAX_TITLE, derive_title

BACKGROUND = "Deep neural networks have achieved remarkable success in image classification tasks across many benchmarks. "


def test_the_claims_phrase_outranks_a_background_one():
    title = derive_title(BACKGROUND + "We propose a sparse attention mechanism for long document summarization.", None)
    assert title == "Sparse Attention Mechanism for Long Document Summarization"


def test_a_names_subtitle_comes_from_its_claim_not_the_background():
    abstract = BACKGROUND + "We propose TIME (Tensor Intrinsic Mixture of Experts), a routing framework for lifelong editing."
    assert derive_title(abstract, "TIME").endswith("Routing Framework for Lifelong Editing")


def test_the_first_claim_outranks_a_later_one():
    abstract = ("We introduce CausalGame, a benchmark of causal thinking for language agents. "
                "We also design fourteen game settings with selection bias.")
    assert derive_title(abstract, "CausalGame").endswith(": Benchmark of Causal Thinking for Language Agents")


def test_a_claim_without_a_title_phrase_is_quoted_and_marked():
    abstract = BACKGROUND + "We propose to learn a deep recurrent validator model, which can estimate validity."
    title = derive_title(abstract, None)
    assert title == "\u201cWe propose to learn a deep recurrent validator model \u2026\u201d"


@pytest.mark.parametrize("claim", ["We propose a simple and effective method to address this issue.",
                                   "We propose a new approach, which works well."])
def test_a_claim_that_says_nothing_read_alone_is_not_quoted(claim):
    assert "\u201c" not in derive_title(BACKGROUND + claim, None)


def test_without_any_phrase_the_opening_is_quoted_and_marked():
    title = derive_title("Results are shown. We are here.", None)
    assert title.startswith("\u201c") and title.endswith("\u2026\u201d")


def test_a_quoted_claim_fits_a_title():
    abstract = BACKGROUND + "We propose to " + " ".join(["learn"] * 40) + " models."
    assert len(derive_title(abstract, "Name")) <= MAX_TITLE


@pytest.mark.parametrize("abstract, not_first", [
    ("Probabilistic logic programs are studied by means of credal probabilistic facts and weighted rules.", "Means"),
    ("Models now work in the realm of large multimodal models with many images and long videos.", "Realm"),
    ("Inspired by the loop perforation technique from source code optimization, we speed up convolutional networks.",
     "Inspired"),
])
def test_no_title_starts_mid_clause(abstract, not_first):
    assert not derive_title(abstract, None).startswith((not_first, "The " + not_first))


@pytest.mark.parametrize("abstract, not_last", [
    ("Diffusion models are slow. We propose reduced-step and CFG-free sampling for diffusion models of discrete data.",
     "CFG-Free"),
    ("Most methods study the transfer of experience samples between reinforcement learning tasks in detail.",
     "Transfer"),
    ("Learning is studied with gradient descent on the population quadratic loss in the case that data are linear.",
     "Case"),
    ("We present tools to assess the calibration of neural machine translation models at scale.", "Assess"),
])
def test_no_title_is_cut_before_what_its_last_word_needs(abstract, not_last):
    assert not derive_title(abstract, None).endswith(not_last)


def test_no_title_points_back_at_the_abstract():
    abstract = "Matrix completion is studied. We propose a spectral algorithm for these two tasks called MaCBetH."
    assert "These" not in derive_title(abstract, "MaCBetH").split()


def test_a_names_subtitle_says_more_than_a_word():
    abstract = "Building software is hard for agents. We introduce BuildArena, the first benchmark. We release the code."
    assert derive_title(abstract, "BuildArena") == "BuildArena"


def test_a_claims_object_starts_after_the_name_and_its_bracket():
    words = read_abstract("We propose TIME (Tensor Intrinsic Mixture of Experts), a routing framework.").words
    starts = {words[at].lowered for at in claim_objects(words, ("time",))}
    assert {"a", "routing", "framework"} <= starts


def test_a_passive_claim_is_a_claim_but_not_a_relative_clause():
    words = read_abstract("A probabilistic framework for relational data is developed here.").words
    assert claim_objects(words)
    words = read_abstract("Existing schemes, which are proposed for dual tasks, fail.").words
    assert not claim_objects(words)
