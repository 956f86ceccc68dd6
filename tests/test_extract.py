import pytest

from catalogue.extract import (acronym_matches, derive_title, extract, find_benchmarks, find_contributions,
                               find_links, find_results,
                               is_name_like, rank_topics, title_case)
from catalogue.model import Topic
from catalogue.topics import keyword_evidence

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


@pytest.mark.parametrize("abstract, title", [
    ("We present EgoThing, a curriculum-based framework for learning task-oriented reasoning. More.",
     "EgoThing: A Curriculum-Based Framework for Learning Task-Oriented Reasoning"),
    ("We introduce Item Response Scaling Laws (IRSL), a unified framework.", "IRSL: Item Response Scaling Laws"),
    ("We propose **REconstruction via waSserstein opTimization (REST)**, a model.",
     "REST: Reconstruction via Wasserstein Optimization"),
    ("Polytrees matter. We devise an algorithm that finds the optimal polytree quickly.",
     "An Algorithm That Finds the Optimal Polytree Quickly"),
])
def test_titles(abstract, title):
    contributions = find_contributions(abstract)
    assert derive_title(abstract, contributions[0] if contributions else None) == title


def test_long_titles_are_cut_at_a_clause_boundary():
    abstract = ("We present LongName, a framework that " + "carefully " * 5 + "generates very detailed scenes "
                "from natural language prompts with many constraints across many rooms in large houses.")
    title = extract(abstract, TAXONOMY, "general").title
    assert len(title) <= 110 and title.startswith("LongName: A Framework")
    assert not title.endswith((" With", " with", " That", " that"))


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


def test_title_case_keeps_acronyms_math_and_small_words():
    assert title_case("a per-parameter IO-aware solver for the $O(n)$ case of state-of-the-art") == \
        "A Per-Parameter IO-Aware Solver for the $O(n)$ Case of State-of-the-Art"


TOPICS = (
    Topic("rl", "Reinforcement learning", ("reinforcement learning", "rl", "policy", "reward")),
    Topic("vision", "Computer vision", ("image", "video")),
    Topic("safety", "Safety", ("robust", "adversarial", "adversarial example")),
    Topic("causal", "Causality", ("causal", "doubly robust")),
    Topic("generative", "Generative models", ("generative adversarial network", "autoencoder")),
    Topic("transfer", "Transfer learning", ("multi-task", "a/b testing")),
    Topic("general", "Machine learning", ()),
)


@pytest.mark.parametrize("text, evidence", [
    ("A doubly robust estimator.", {"causal": 2}),  # the phrase hides the word inside it
    ("A robust estimator.", {"safety": 1}),
    ("Generative adversarial networks craft adversarial examples.", {"generative": 2, "safety": 2}),
    ("Multi-task, multi task and multitask models.", {"transfer": 4}),  # one keyword, counted twice at most
    ("Auto-encoders and autoencoders.", {"generative": 2}),
    ("A/B testing.", {"transfer": 2}),
    ("RL and LLMs.", {"rl": 2}),  # an acronym in capitals is as strong as a phrase
    ("rl", {"rl": 1}),
    ("We study reinforcement learning policies.", {"rl": 3}),
    ("Computer vision is hard.", {"vision": 2}),  # the label counts as a keyword
    ("image image image image", {"vision": 2}),
    ("Imagery, imagination and videos.", {"vision": 1}),  # whole words only; plurals count
    ("IMAGE, Image and image.", {"vision": 2}),  # any case; a long word in capitals is no acronym
    ("Nothing here.", {}),
])
def test_keyword_evidence(text, evidence):
    assert keyword_evidence(text, TOPICS) == evidence


@pytest.mark.parametrize("title, abstract, topics", [
    ("", "A policy maximises reward with reinforcement learning on video.", ("rl",)),  # video once: not enough
    ("", "A policy maximises reward with reinforcement learning. We segment each video frame by frame from the "
         "video.", ("rl", "vision")),
    ("", "A doubly robust estimator of the causal effect.", ("causal",)),
    ("", "Nothing matches here.", ("general",)),
    ("", "One image.", ("vision",)),  # only weak evidence: the best topic rather than the fallback
    ("", "Image and video. A reward and a policy. Adversarial and robust. Causal and causal. Multi-task.",
     ("rl", "vision", "safety")),  # at most three; ties in taxonomy order
    ("A Reward Model", "An image and a reward; another image and another reward.", ("rl", "vision")),  # title
])
def test_rank_topics(title, abstract, topics):
    assert rank_topics(title, abstract, TOPICS, "general") == topics


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
