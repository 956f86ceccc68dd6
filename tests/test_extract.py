import pytest

from catalogue.extract import (acronym_matches, extract, find_benchmarks, find_contributions,
                               find_links, find_results,
                               is_name_like, rank_topics)
from catalogue.model import Topic

TAXONOMY = (
    Topic("rl", "Reinforcement learning", ("reinforcement learning", "policy", "reward")),
    Topic("vision", "Computer vision", ("image", "video")),
    Topic("general", "Machine learning", ()),
)


@pytest.mark.parametrize("abstract, name", [
    ("Tasks are hard. We propose ZetaNet, a graph model for tasks.", "ZetaNet"),
    ("To this end, we present **FooBar**, an IO-aware solver.", "FooBar"),
    ("We introduce Quantum Widget Search (QWS), a unified framework.", "QWS"),
    ("We propose a novel federated algorithm, AB$^2$C-GD, that is fast.", "AB$^2$C-GD"),
    ("We propose **XYZ** (**X**-ray **Y**ield **Z**oom), a method.", "XYZ"),
    ("We propose an **I**mage **D**enoiser with **C**ontext (IDC).", "IDC"),
    ("We propose $\\textbf{Long Name Retrieval (LN-R)}$, a framework.", "LN-R"),
    ("We develop a doubly robust method named TRIX to learn rules.", "TRIX"),
    ("We propose *Orbit Subspace Pooling* (OSP) layer, a module.", "OSP"),
    ("We release UDM-GRPO, the first framework to do it.", "UDM-GRPO"),
])
def test_names_the_contribution(abstract, name):
    assert find_contributions(abstract)[0].name == name


@pytest.mark.parametrize("abstract", [
    "Deep Reinforcement Learning (DRL) has emerged as a promising approach. We study its limits.",
    "We introduce a training scheme enhanced by Model-Agnostic Meta-Learning (MAML) for speed.",
    "We propose that symmetries drive grokking.",
    "We study continual pre-training (CPT) as a mechanism for adaptation.",
    "We propose LLM-based agents that plan.",
])
def test_no_name_when_the_abstract_introduces_none(abstract):
    assert find_contributions(abstract) == []


def test_several_contributions_keep_their_order():
    abstract = "We present PhotoBot, a system for editing. We also introduce UGC-Set, a benchmark of photos."
    assert [c.name for c in find_contributions(abstract)] == ["PhotoBot", "UGC-Set"]


@pytest.mark.parametrize("word, expected", [
    ("EgoTSR", True), ("ASAP", True), ("WZ-LLM", True), ("LS$^2$MC-GDA", True), ("3B", True),
    ("Transformer", False), ("method", False), ("A", False), ("LLM-based", False),
])
def test_is_name_like(word, expected):
    assert is_name_like(word) is expected


@pytest.mark.parametrize("acronym, expansion, expected", [
    ("IRSL", "Item Response Scaling Laws", True),
    ("MAML", "training framework enhanced by Model-Agnostic Meta-Learning", False),
    ("PFT", "phonon fine-tuning", True),
])
def test_acronym_matches(acronym, expansion, expected):
    assert acronym_matches(acronym, expansion) is expected


def test_topics_are_ranked_never_empty_and_at_most_three():
    text = "A policy maximises reward with reinforcement learning on video."
    assert rank_topics(text, TAXONOMY, "general") == ("rl", "vision")
    assert rank_topics(text + " The policy wins.", TAXONOMY, "general") == ("rl",)  # video: under a third
    assert rank_topics("Nothing matches here.", TAXONOMY, "general") == ("general",)
    many = tuple(Topic(f"t{i}", f"T{i}", (f"word{i}",)) for i in range(5))
    assert len(rank_topics("word0 word1 word2 word3 word4", many, "t0")) == 3


def test_links_full_and_bare_once_each():
    links = find_links("See https://github.com/x/y. Project: x.github.io and https://github.com/x/y again.")
    assert [(l.url, l.label) for l in links] == [("https://github.com/x/y", "Code"),
                                                   ("https://x.github.io", "Project page")]


@pytest.mark.parametrize("abstract, expected", [
    ("Experiments on VQA-Set and the Foo dataset show gains. ZetaNet achieves 3% more on MMLU-Pro.",
     ("VQA-Set", "Foo", "MMLU-Pro")),
    ("We evaluate on CLEVR, GQA, and TextVQA, outperforming LLMs and GPT-style models.", ("CLEVR", "GQA", "TextVQA")),
    ("Results on Llama-3.1-8B and on our ZetaBench show that ZetaNet works.", ()),  # a model; its own name
    ("We study graphs and prove bounds.", ()),
])
def test_benchmarks(abstract, expected):
    assert find_benchmarks(abstract, ("ZetaNet", "ZetaBench")) == expected


@pytest.mark.parametrize("abstract, expected", [
    ("ZetaNet achieves a 34\\% success rate on Foo-Test (100 items), beating baselines.",
     ("34% success rate on Foo-Test",)),
    ("It delivers up to $32\\times$ forward-pass speedup and reduces memory by over 50%.",
     ("up to 32× forward-pass speedup", "reduces memory by over 50%")),
    ("Accuracy improves from $69\\\\%$ to $96\\\\%$ on the test set.", ("Accuracy improves from 69% to 96%",)),
    ("We use 50% of the data for training.", ()),  # a number, but no outcome
])
def test_results(abstract, expected):
    assert find_results(abstract) == expected


def test_a_closing_release_is_a_secondary_name():
    abstract = ("We study how pretraining shapes spectra. Spectra shift early in training. "
                "We release SpecKit, an open-source toolkit for spectral analysis.")
    found = extract(abstract, TAXONOMY, "general")
    assert found.name is None and found.other_names == ("SpecKit",)
    assert not found.title.startswith("SpecKit")
