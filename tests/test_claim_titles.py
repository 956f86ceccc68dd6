"""Titles from the abstract's claim (catalogue/ingest/claim_titles.py): each rule on a written abstract, whose title
would differ without the rule. Real papers are judged in tests/test_titles.py and by reading (bench/data)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from catalogue.ingest import claim_titles
from catalogue.ingest.claim_titles import claim_title
from catalogue.ingest.title_model import load_model
from catalogue.ingest.titles import derive_title

MODEL = load_model()


def title(abstract: str, name: str | None = None) -> str | None:
    return claim_title(abstract, name, MODEL)


@pytest.mark.parametrize("abstract, name, expected", [
    ("Sampling is slow. We propose FastGP, a method for sampling Gaussian processes on GPUs.", "FastGP",
     "FastGP: A Method for Sampling Gaussian Processes on GPUs"),
    ("We study the problem of causal discovery from interventional data.", None,
     "Causal Discovery from Interventional Data"),
    ("In this paper, we propose to learn a Mahalanobis distance for aligning time series.", None,
     "Learning a Mahalanobis Distance for Aligning Time Series"),
    ("We introduce gravitational pivoting, a constrained version of in-hand manipulation.", None,
     "Gravitational Pivoting: A Constrained Version of In-Hand Manipulation"),
    ("This paper presents a simple, efficient sampler for determinantal point processes.", None,
     "A Simple, Efficient Sampler for Determinantal Point Processes"),
])
def test_a_claim_names_the_title(abstract, name, expected):
    assert title(abstract, name) == expected


def test_the_claimant_is_the_verbs_subject():
    """'We let users give feedback' is no claim of 'give': the object would be 'feedback in natural language'."""
    assert title("We let users give feedback in natural language.") is None
    assert title("We give feedback in natural language to image retrieval systems.") is not None


def test_a_claim_of_generic_words_makes_no_title():
    assert title("We propose a simple and effective new approach.") is None
    assert title("We propose a simple and effective new approach to protein folding.") is not None


def test_a_name_keeps_its_expansion_over_a_generic_kind(monkeypatch):
    """'RIM: A Learning Framework' says less than 'RIM: Recurrent Inference Machines', which a later claim gives."""
    abstract = ("We propose a novel learning framework which abandons the dichotomy between model and inference. "
                "Instead, we introduce Recurrent Inference Machines (RIM), a class of recurrent networks.")
    assert title(abstract, "RIM") == "RIM: Recurrent Inference Machines"
    monkeypatch.setattr(claim_titles, "_GENERIC", claim_titles._GENERIC - {"learning", "framework"})
    assert title(abstract, "RIM") == "RIM: A Learning Framework"


def test_a_phrase_pointing_back_is_cut_before_it_starts():
    assert title("To this end, we propose a graph network to address these problems.") == "A Graph Network"


def test_a_long_object_is_cut_where_a_phrase_starts_not_inside_one():
    """A participle that follows its noun starts a phrase ('labels provided by ...'); so does a preposition. A
    phrase of two words left before the cut goes with it ('using tools' of 'using tools from optimal transport')."""
    provided = ("This paper studies the optimal error rate for aggregating crowdsourced labels provided by a large "
                "collection of amateur workers in online labour markets.")
    assert title(provided) == "The Optimal Error Rate for Aggregating Crowdsourced Labels"
    tools = ("We revisit the problem of recovering a low-rank positive semidefinite matrix from rank-one projections "
             "using tools from optimal transport.")
    assert title(tools) == "Recovering a Low-Rank Positive Semidefinite Matrix from Rank-One Projections"


def test_between_needs_its_second_term():
    whole = "We propose a metric that compares the distributions between documents and summaries."
    assert title(whole) == "A Metric That Compares the Distributions between Documents and Summaries"
    cut = ("We propose a metric that compares the distributions between documents in a large corpus and the "
           "summaries written by experts.")
    assert title(cut) == "A Metric That Compares the Distributions"


def test_a_title_never_ends_on_a_word_that_needs_another():
    for abstract in ("We propose an augmented training procedure for generative adversarial networks designed to "
                     "address shortcomings of the original by directing the generator.",
                     "We present AT-LUCB, a pure exploration algorithm for multi-armed bandits that requires a "
                     "prediction of the top arms at every step of its run."):
        made = title(abstract, "AT-LUCB" if "AT-LUCB" in abstract else None)
        assert made and made.split()[-1].lower() not in {"designed", "that", "requires", "to", "by", "of"}, made


@pytest.mark.parametrize("abstract, name, expected", [
    # an enumeration's '1)' closes a bracket the phrase never opened: the phrase ends before it
    ("We propose XSkill, a cross-embodiment skill discovery framework that 1) discovers shared skills, 2) transfers "
     "them.", "XSkill", "XSkill: A Cross-Embodiment Skill Discovery Framework"),
    # a citation in square brackets is an aside, and the participle left before it goes too
    ("We study the cost function for hierarchical clusterings introduced by [Dasgupta, 2016] in this setting.", None,
     "The Cost Function for Hierarchical Clusterings"),
    # an aside in brackets at the end leaves 'for' last: it goes, and what is left is generic
    ("We propose SDA-Bayes, a framework for (S)treaming, (D)istributed, (A)synchronous computation.", "SDA-Bayes",
     None),
    # an em dash inside a word starts an aside
    ("We introduce a new anomaly detection method\u2014Deep SVDD\u2014trained on normal data only.", None,
     "A New Anomaly Detection Method"),
    # a name cut inside its brackets never leads a title
    ("We propose LSTD(\u03bb, a least-squares temporal-difference algorithm with eligibility traces.", "LSTD(\u03bb",
     None),
    # 'to what degree' has no verb to make a gerund of
    ("We investigate to what degree language models capture visual attributes.", None, None),
])
def test_no_title_ends_open_or_leaves_a_bracket(abstract, name, expected):
    assert title(abstract, name) == expected


def test_a_modifier_keeps_its_noun(monkeypatch):
    """A comma after a modifier lists qualities of the noun to come ('a single, scalable deep network'); a phrase
    cut before its noun does not end on the modifier ('in multi-class' of 'in multi-class classification')."""
    single = ("In this work we investigate the construction of a single, scalable deep network that can capture the "
              "style of many paintings.")
    assert title(single) == "The Construction of a Single, Scalable Deep Network"
    cut = ("We study low-distortion finite metric embeddings of structured outputs in multi-class (and multi-label) "
           "classification over very large alphabets.")
    assert title(cut).split()[-1].lower() not in MODEL.modifiers
    monkeypatch.setattr(claim_titles, "load_model", lambda: replace(MODEL, modifiers=frozenset()))
    assert claim_title(single, None) == "The Construction of a Single"


@pytest.mark.parametrize("abstract, without", [
    # a naming word ends the thing named ('titled X')
    ("We propose an efficient bipartite ranking approach titled TopPush for optimizing accuracy at the top.",
     "Titled"),
    # nor does the claimant belong in it ('... we call X')
    ("We propose a nonlinear estimation strategy we call the semantic feature engine that uses set functions.", "We"),
    # a purpose is not the thing ('in order to be able to answer ...')
    ("We introduce an input module for images in order to be able to answer visual questions.", "Order"),
    # 'the same X' points at something else ('... as the EM algorithm')
    ("We present a neural-network approach that optimizes the same likelihood function as the EM algorithm.", "Same"),
    # a long object is cut before a means ('by casting X' of 'by casting X into Y')
    ("We investigate the trade-off between efficiency and statistical power by casting the multi-armed bandit "
     "experimental design into a minimax multi-objective optimization problem.", "Casting"),
])
def test_a_title_holds_the_thing_not_what_follows_it(abstract, without):
    made = title(abstract)
    assert made and without not in made.split(), made
