"""The named datasets and benchmarks an abstract evaluates on or introduces.

It reads the abstract's sentences as plain text (catalogue.ingest.extract splits and cleans them).

A dataset is recognised by how the text places it (catalogue.ingest.benchmark_phrases), never by a
list of known datasets:
- next to a kind word: "the GLUE benchmark", "on ScanNetV2 and S3DIS datasets", "datasets such as
  A, B and C", "a dataset called X", "X, a new dataset of videos";
- in its own name: VBench, HumanEval, CoqGym;
- or as a coined name (CIFAR-10, TriviaQA) after "on"/"across" in a sentence about evaluation.
The last, weaker reading drops what the abstract shows to be something else: the paper's own
method, an acronym it defines for a method or task, a model ("the X model", "X outperforms"), a
measure ("2.1 BLEU", "X score") and the acronyms of fields, model families, hardware and metrics.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from catalogue.ingest.benchmark_phrases import (KIND_STARTS, MAX_NAMES, SIZE, after_on, beside_kind_words, coined,
                                                initials_match, is_kind, named_as_benchmarks, sentence_tokens,
                                                spelling)
from catalogue.text import AnyCase, holds_any

_EVALUATION = AnyCase(r"benchmark|dataset|evaluat|experiment|outperform|achiev|accuracy|results|improv|score|"
                      r"perform|surpass|test|state[\s-]of[\s-]the[\s-]art",
                      needs=("benchmark", "dataset", "evaluat", "experiment", "outperform", "achiev", "accuracy",
                             "results", "improv", "score", "perform", "surpass", "test", "state"))
# Acronyms of fields, model families, hardware and metrics: never a dataset's name.
_GENERIC = {"LLM", "LLMs", "VLM", "VLMs", "MLLM", "MLLMs", "LM", "LMs", "RL", "AI", "ML", "NLP", "CV", "GPU", "GPUs",
            "CPU", "CPUs", "TPU", "SOTA", "CNN", "CNNs", "RNN", "RNNs", "GNN", "GNNs", "MLP", "MLPs", "ViT", "ViTs",
            "GAN", "GANs", "VAE", "VAEs", "API", "APIs", "OCR", "IO", "PDE", "PDEs", "ODE", "ODEs", "SGD", "KL",
            "RAG", "VLA", "VLAs", "RGB", "RGB-D", "EEG", "MRI", "CT", "BLEU", "ROUGE", "METEOR", "CIDEr", "PSNR",
            "SSIM", "LPIPS", "FID", "AUC", "AUROC", "mAP", "AP", "IoU", "mIoU", "F1", "EM", "MRR", "NDCG", "WER",
            "FLOPs", "FLOP", "FPS", "VR", "AR", "CoT", "RLHF", "SFT", "QA", "VQA", "NER", "MT", "NMT", "ASR", "TTS",
            "NLI", "US"}
# Widely used model families: "on ResNet-50", "GPT-2 outperforms" name the model trained, not the data.
_MODEL_FAMILY = re.compile(r"(?:ResNet|ResNeXt|VGG|AlexNet|GoogLeNet|Inception|MobileNet|EfficientNet|DenseNet|BERT|"
                           r"RoBERTa|GPT|LLaMA|Llama|ViT|DeiT|Swin|CLIP|T5)(?:[-.]?\d[\w.\-]*|-\w+)?")
# What only a method or model is said to be or do ("the X model", "X outperforms").
_AGENT_AFTER = re.compile(r"\s+(?:models?|networks?|architectures?|backbones?|encoders?|decoders?|embeddings?|"
                          r"agents?|polic(?:y|ies)|baselines?|algorithms?|methods?|frameworks?|detectors?|trackers?|"
                          r"classifiers?|solvers?|optimi[sz]ers?|features|family|variants?|outperforms|achieves|"
                          r"learns|generates|predicts|surpasses|obtains|improves|performs|uses)\b"
                          r"|[\s-](?:based|like|style)\b")
# A measure reads as a unit after a number ("2.1 BLEU", "5.4% AUC") or names itself ("X score").
_MEASURE_BEFORE = re.compile(r"\d(?:%|\s*points?)?\s+$")
# ... and then ends its phrase: "+6.7 BLEU over", not "+1% ImageNet top-1 accuracy"
_UNIT_END = re.compile(r"\s*(?:[,.;:)]|$)|\s+(?:on|in|over|and|or|points?|higher|lower|better|worse|improvements?|"
                       r"gains?|increase|drop)\b")
_MEASURE_AFTER = re.compile(r"\s+(?:scores?|metrics?|points?|gains?)\b")
_HARDWARE = {"GPU", "GPUs", "CPU", "CPUs", "TPU", "TPUs"}  # "on A100 GPUs"
_MODEL_SIZE = re.compile(r"(?:^|[-\s])\d+(?:\.\d+)?[BM]$")  # Llama-3.1-8B is a model; Human3.6M is data
_MAX_WEIGHED = 40  # names weighed per abstract: each reads the whole abstract, so hostile lists are cut short


def find_benchmarks(sentences: list[str], own_names: tuple[str, ...] = ()) -> tuple[str, ...]:
    """Named benchmarks and datasets, in order of mention, each once."""
    abstract = " ".join(sentences)
    found: dict[str, str] = {}
    weighed: set[tuple[str, bool]] = set()
    for sentence in sentences:
        has_kind_word = holds_any(sentence, KIND_STARTS)
        shaped = "Bench" in sentence or "Eval" in sentence or "Arena" in sentence or "Gym" in sentence
        evaluates = _EVALUATION.found_in(sentence)
        if not (has_kind_word or shaped or evaluates):
            continue  # no word a name could stand by (most sentences): not worth reading into tokens
        tokens = sentence_tokens(sentence)
        strong = beside_kind_words(tokens) if has_kind_word else []
        if shaped:
            strong += named_as_benchmarks(tokens)
        weak = after_on(tokens) if evaluates else []
        for position, name, is_strong in sorted([(p, n, True) for p, n in strong] + [(p, n, False) for p, n in weak]):
            key = _key(name)
            if key in found or (key, is_strong) in weighed:
                continue
            if len(weighed) == _MAX_WEIGHED or len(found) == MAX_NAMES:
                break
            weighed.add((key, is_strong))
            if _is_dataset_name(name, position, abstract, own_names, is_strong):
                found[key] = name
    names = list(found.values())
    # "a Multi-modal ... Emotional Dialogue dataset, M3ED": the acronym is the name the text goes on using
    return tuple(name for name in names if not any(initials_match(other, name.split()) for other in names
                                                   if other != name))[:MAX_NAMES]


def _key(name: str) -> str:
    return " ".join(re.findall(r"\w+", name.lower()))


def _is_dataset_name(name: str, position: int, abstract: str, own_names: tuple[str, ...], strong: bool) -> bool:
    words = name.split()
    if (not words or all(SIZE.fullmatch(word) for word in words) or name in _GENERIC
            or _MODEL_SIZE.search(name) or _MODEL_FAMILY.fullmatch(words[0]) or words[-1] in _HARDWARE
            or any(re.fullmatch(r"[\d.]*\.\d{2,}", word) for word in words)):
        return False  # a size, a field, a model, a measured value ("FID 22.18")
    if any((len(word) == 1 and word.isalpha()) or re.fullmatch(r"[A-Za-z]_\w+", word) for word in words):
        return False  # "Expressions A and B", "dataset B", "L_2 norm": a variable, not a name
    expansion = _spelled_out_in(name, abstract)
    if strong:
        # "the ECoG dataset" after "electrocorticographic (ECoG)": an acronym for a common phrase names a kind of data
        lower_case_phrase = expansion is not None and all(not word[0].isupper() for word in expansion[1:] or expansion)
        # "a standard LJP dataset" after "Legal Judgment Prediction (LJP)" and "LJP models": a task's acronym
        task_acronym = expansion is not None and _used_as_other(name, abstract)
        return not (lower_case_phrase or task_acronym or (len(words) == 1 and not coined(words) and position == 0))
    defined_for_other = expansion is not None and not any(is_kind(word) for word in expansion)
    return not (name in own_names or defined_for_other or _used_as_other(name, abstract))


def _spelled_out_in(acronym: str, abstract: str) -> list[str] | None:
    """The words an acronym stands for where the abstract defines it: 'Joint Goal Accuracy (JGA)',
    'CIHP (Crowd Instance-level Human Parsing)'."""
    if len(acronym.split()) != 1:
        return None
    for start, end in _written_at(acronym, abstract):
        before = abstract[max(0, start - 130):start].rstrip()
        after = abstract[end:end + 130].lstrip()
        if before.endswith("(") and after.startswith(")"):
            words = re.split(r"\s+", before[-120:-1].strip())
            spelled = spelling(acronym, words[-8:])
        elif after.startswith("(") and ")" in after[:120]:
            spelled = spelling(acronym, after[1:after.index(")")].split())
        else:
            continue
        if spelled:
            return spelled
    return None


def _used_as_other(name: str, abstract: str) -> bool:
    """Somewhere the abstract calls it a model or method, makes it act, or measures with it."""
    for start, end in _written_at(name, abstract, alone=True):
        after = abstract[end:end + 40]
        before = abstract[max(0, start - 12):start]
        if (_AGENT_AFTER.match(after) or _MEASURE_AFTER.match(after)
                or (_MEASURE_BEFORE.search(before) and _UNIT_END.match(after))):
            return True
    return False


def _written_at(name: str, text: str, alone: bool = False) -> Iterator[tuple[int, int]]:
    """Where the text writes the name, left to right, never overlapping; `alone`: not as part of a word or of
    a hyphenated compound. (Found as a pattern would find them, without compiling one per name.)"""
    at = text.find(name)
    while at >= 0 and name:
        end = at + len(name)
        if not alone or not (_joins(text[at - 1:at]) or _joins(text[end:end + 1])):
            yield at, end
            at = text.find(name, end)
        else:
            at = text.find(name, at + 1)


def _joins(character: str) -> bool:
    """Whether a character beside a name makes it part of a longer word (as `[\\w-]` reads it)."""
    return character != "" and (character.isalnum() or character in "_-")
