"""The named datasets and benchmarks an abstract evaluates on or introduces, and its headline results.

Both read the abstract's sentences as plain text (catalogue.ingest.extract splits and cleans them).

A dataset is recognised by how the text places it, never by a list of known datasets:
- next to a kind word: "the GLUE benchmark", "on ScanNetV2 and S3DIS datasets", "datasets such as
  A, B and C", "a dataset called X", "X, a new dataset of videos";
- in its own name: VBench, HumanEval, CoqGym;
- or as a coined name (CIFAR-10, TriviaQA) after "on"/"across" in a sentence about evaluation.
The last, weaker reading drops what the abstract shows to be something else: the paper's own
method, an acronym it defines for a method or task, a model ("the X model", "X outperforms"), a
measure ("2.1 BLEU", "X score") and the acronyms of fields, model families, hardware and metrics.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable, Iterator

from catalogue.markup.formulas import math_to_text
from catalogue.text import AnyCase, holds_any

# Sentences are read as tokens: words (with inner - . + # / ' kept: CIFAR-10, v2.0, MSMARCO's) and
# the punctuation that separates list items.
_TOKEN = re.compile(r"#?\w(?:[\w+#/]|[\-'’](?=\w)|\.(?=[a-z0-9]))*|[(),;:.\[\]]")
_ADDRESS = re.compile(r"\.[a-z]{2,}/")
_KIND_STARTS = ("data", "bench", "corp", "chall", "leader", "treeb", "Data", "Bench", "Corp", "Chall", "Leader",
                "Treeb")
_KIND = re.compile(r"(?:data-?sets?|benchmarks?|corpus|corpora|challenges?|leaderboards?|treebanks?)", re.IGNORECASE)
_EVALUATION = AnyCase(r"benchmark|dataset|evaluat|experiment|outperform|achiev|accuracy|results|improv|score|"
                      r"perform|surpass|test|state[\s-]of[\s-]the[\s-]art",
                      needs=("benchmark", "dataset", "evaluat", "experiment", "outperform", "achiev", "accuracy",
                             "results", "improv", "score", "perform", "surpass", "test", "state"))
_AFTER_KIND_GAP = {",", "e.g", "i.e"}
# Heads that make a phrase about something other than data: "methods such as A, B", "MRC tasks".
_OTHER_HEADS = re.compile(r"(?:models?|networks?|architectures?|backbones?|methods?|algorithms?|approach(?:es)?|"
                          r"baselines?|techniques?|frameworks?|systems?|solvers?|tools?|metrics?|measures?|"
                          r"tasks?|problems?|settings?|languages?)$")
_CLAUSE_WORDS = {"than", "when", "while", "where", "whereas"}
# "We improve on X", "based on X": X is earlier work, not data.
_NOT_EVALUATED_ON = {"improve", "improves", "improving", "build", "builds", "building", "built", "based", "rely",
                     "relies", "relying", "focus", "focuses", "focusing", "depend", "depends", "conditioned", "act",
                     "acts", "operate", "operates", "draw", "draws", "elaborate", "expand", "expands"}
# Before a single name and its kind, words that make the phrase a description of unnamed data.
_DESCRIBING = {"our", "their", "its", "first", "largest", "new"}
_CALLED = {"called", "named", "termed", "dubbed", "coined", "name", "call"}
_LIST_MARKERS = {":", "(", "such", "as", "including", "like", "namely", "e.g", "i.e", "viz"}
_SEPARATORS = {",", "and", "or", "the"}
_ABBREVIATIONS = {"e.g", "i.e", "al", "vs", "cf", "viz", "etc"}
_NOT_NAME_WORDS = {"the", "a", "an", "this", "that", "these", "those", "our", "we", "its", "their", "in", "on", "for",
                   "to", "of", "with", "from", "by", "at", "as", "and", "or", "both", "all", "each", "every",
                   "existing", "several", "many", "extensive", "experiments", "experimental", "results", "empirical",
                   "finally", "moreover", "furthermore", "additionally", "specifically", "besides", "then", "also",
                   "here", "there", "it", "they", "most", "some", "such", "using", "compared", "unlike"}
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
_BENCHMARK_SHAPED = re.compile(r"(?:[a-z0-9\-]Bench|[a-z0-9\-]Eval|[a-z0-9\-]Arena|[a-z]Gym)(?:-\w+)?$")
_HARDWARE = {"GPU", "GPUs", "CPU", "CPUs", "TPU", "TPUs"}  # "on A100 GPUs"
_MODEL_SIZE = re.compile(r"(?:^|[-\s])\d+(?:\.\d+)?[BM]$")  # Llama-3.1-8B is a model; Human3.6M is data
_SIZE = re.compile(r"[\d.,]+(?:[A-Za-z]{1,2}|-[a-z]+)?|top-\d+")  # 2D, 150x, 65GB, 1-shot: sizes, not names
_MAX_NAMES = 8
_MAX_WEIGHED = 40  # names weighed per abstract: each reads the whole abstract, so hostile lists are cut short
_MAX_RUN = 5
_MAX_DESCRIPTORS = 2  # "the KITTI BEV object detection benchmark"
_MAX_GAP = 12  # "datasets for fine-grained, object, scene and texture classification: A, B"


def find_benchmarks(sentences: list[str], own_names: tuple[str, ...] = ()) -> tuple[str, ...]:
    """Named benchmarks and datasets, in order of mention, each once."""
    abstract = " ".join(sentences)
    found: dict[str, str] = {}
    weighed: set[tuple[str, bool]] = set()
    for sentence in sentences:
        has_kind_word = holds_any(sentence, _KIND_STARTS)
        shaped = "Bench" in sentence or "Eval" in sentence or "Arena" in sentence or "Gym" in sentence
        evaluates = _EVALUATION.found_in(sentence)
        if not (has_kind_word or shaped or evaluates):
            continue  # no word a name could stand by (most sentences): not worth reading into tokens
        tokens = _tokens(sentence)
        strong = _beside_kind_words(tokens) if has_kind_word else []
        if shaped:
            strong += _named_as_benchmarks(tokens)
        weak = _after_on(tokens) if evaluates else []
        for position, name, is_strong in sorted([(p, n, True) for p, n in strong] + [(p, n, False) for p, n in weak]):
            key = _key(name)
            if key in found or (key, is_strong) in weighed:
                continue
            if len(weighed) == _MAX_WEIGHED or len(found) == _MAX_NAMES:
                break
            weighed.add((key, is_strong))
            if _is_dataset_name(name, position, abstract, own_names, is_strong):
                found[key] = name
    names = list(found.values())
    # "a Multi-modal ... Emotional Dialogue dataset, M3ED": the acronym is the name the text goes on using
    return tuple(name for name in names if not any(_initials_match(other, name.split()) for other in names
                                                   if other != name))[:_MAX_NAMES]


def _tokens(sentence: str) -> list[str]:
    """Words without a possessive "'s"; a full stop only where it ends a clause (not after e.g or et al);
    no web addresses (github.com/x/DataSet-Net is not a name)."""
    if "/" in sentence:
        sentence = " ".join(word for word in sentence.split() if "://" not in word and not _ADDRESS.search(word))
    tokens: list[str] = []
    possessive = "'s" in sentence or "\u2019s" in sentence  # (most sentences have none to look for)
    for token in _TOKEN.findall(sentence):
        if token == "." and tokens and tokens[-1].lower() in _ABBREVIATIONS:
            continue
        tokens.append(token[:-2] if possessive and token.endswith(("'s", "\u2019s")) else token)
    return tokens


def _key(name: str) -> str:
    return " ".join(re.findall(r"\w+", name.lower()))


def _is_kind(token: str) -> bool:
    """'dataset', 'benchmarks', 'corpus'; a challenge only when it is part of a name ('AI City Challenge')."""
    return (token.startswith(_KIND_STARTS) and _KIND.fullmatch(token) is not None
            and (token[0].isupper() or not token.startswith("challenge")))


_LOWER_CASE_WORD = re.compile(r"[a-z][a-z\-]*")


@functools.lru_cache(maxsize=1 << 14)  # asked of the same words again and again
def _is_name_token(token: str) -> bool:
    """Part of a proper name: capitalised (Sintel), a coinage (bAbI, nuScenes), a number or a version;
    not an adjective made from a name (L1-regularized, English-language)."""
    if re.search(r"-[a-z]{3,}$", token):
        return False
    return (token[0].isupper() or token[0].isdigit() or token[0] == "#" or re.search(r"[A-Z]", token) is not None
            or re.fullmatch(r"v\d[\d.]*", token) is not None)


def _coined(words: list[str]) -> bool:
    """Written as no English word is: several capitals (MNIST), inner capitals (GeoQuery), letters with
    digits (S3DIS), or a name with a number (KITTI 2015, Friedman #2)."""
    for word in words:
        letters = re.sub(r"[^A-Za-z]", "", word)
        if sum(c.isupper() for c in letters) >= 2 or re.search(r"[a-z][A-Z]", word) or (
                letters and re.search(r"\d", word)):
            return True
    return len(words) >= 2 and any(re.fullmatch(r"#?\d[\d.]*", word) for word in words)


def _run_before(tokens: list[str], end: int) -> tuple[int, list[str]]:
    """The name tokens ending just before index end: (start, words)."""
    start = end
    while start > 0 and end - start < _MAX_RUN and _is_name_token(tokens[start - 1]) and not _KIND.fullmatch(
            tokens[start - 1]):
        start -= 1
    words = tokens[start:end]
    while words and words[0].lower() in _NOT_NAME_WORDS:  # "The GLUE benchmark", "We ..."
        words, start = words[1:], start + 1
    return start, words


def _run_after(tokens: list[str], start: int) -> list[str]:
    end = start
    while end < len(tokens) and end - start < _MAX_RUN and _is_name_token(tokens[end]):
        end += 1
    words = tokens[start:end]
    return [] if words and words[0].lower() in _NOT_NAME_WORDS else words


def _skip_parenthesis_before(tokens: list[str], end: int) -> tuple[int, list[str]]:
    """'Multi-category Pose (MP-100) dataset': the index before the parenthesis and what it holds."""
    if end > 0 and tokens[end - 1] == ")":
        for opening in range(end - 2, max(-1, end - 12), -1):
            if tokens[opening] == "(":
                return opening, tokens[opening + 1:end - 1]
            if tokens[opening] in ")(":
                break
    return end, []


def _names_before(tokens: list[str], kind: int) -> list[tuple[int, str]]:
    """'on CIHP (Crowd ...), MHP v2.0 and DensePose-COCO datasets': every name of the list."""
    end, inside = _skip_parenthesis_before(tokens, kind)
    listed = _list_after(tokens, end) if inside else []
    if len(inside) == 1 and _coined(inside):  # the acronym is the name the text goes on using
        names = [(end + 1, inside[0])]
        end, _ = _run_before(tokens, end)
    elif len(listed) > 1 and sum(len(name.split()) for _, name in listed) + len(listed) - 1 == len(inside):
        return listed  # "real-world (PEMS-SF, CMU-MOSI) datasets"
    else:
        descriptors = 0
        while descriptors < _MAX_DESCRIPTORS and end > 0 and _is_descriptor(tokens[end - 1]):
            end, descriptors = end - 1, descriptors + 1
        start, words = _run_before(tokens, end)
        if not words or (descriptors and not _coined(words)):
            return []
        name = " ".join(words + [tokens[kind]] if tokens[kind][0].isupper() and not descriptors else words)
        names, end = [(start, name)], start
    while len(names) < _MAX_NAMES:  # more items of the list, leftwards
        gap = end
        while gap > 0 and tokens[gap - 1] in _SEPARATORS:
            gap -= 1
        if gap == end:
            break
        gap, _ = _skip_parenthesis_before(tokens, gap)
        start, words = _run_before(tokens, gap)
        if not words:
            break
        names.append((start, " ".join(words)))
        end = start
    return [] if _describes_data(tokens, names, end, kind) else names


def _describes_data(tokens: list[str], names: list[tuple[int, str]], first: int, kind: int) -> bool:
    """Words before a kind that say what the data is, not which: 'an English ToD dataset', 'our Thai
    dataset', 'on English and Chinese datasets', 'existing MWP datasets', '142 NLP datasets' (but 'our
    Swords benchmark', 'two MovieLens datasets' and 'the Visual Decathlon datasets' name it)."""
    determiner = tokens[first - 1].lower() if first > 0 else ""
    single = names[0][1] if len(names) == 1 else None
    if single and (determiner in {"a", "an"} or (determiner in _DESCRIBING and not _coined(single.split()))):
        return True
    head = kind  # "English benchmark datasets": the last kind word is the head
    while head + 1 < len(tokens) and _is_kind(tokens[head + 1]):
        head += 1
    if not _is_plural(tokens[head]) or tokens[kind][0].isupper() or determiner == "the":
        return False
    if not any(_coined(name.split()) for _, name in names):
        return True
    in_a_list = determiner in {",", "and", "or"}  # "... final pass and KITTI 2015 benchmarks"
    return bool(single and not in_a_list and (re.fullmatch(r"[A-Z]+", single) or single[0].isdigit()))


def _names_after(tokens: list[str], kind: int) -> list[tuple[int, str]]:
    """'datasets such as A, B and C', 'benchmarks: A, B', 'a dataset called X', 'the benchmark FetchBench'."""
    nxt = kind + 1
    if nxt < len(tokens) and _is_name_token(tokens[nxt]) and not _is_kind(tokens[nxt]):
        words = _run_after(tokens, nxt)  # "the benchmark FetchBench, featuring", not "benchmark Bayesian networks"
        follows = tokens[nxt + len(words)] if nxt + len(words) < len(tokens) else "."
        if tokens[kind][0].isupper() or not words or re.fullmatch(r"[a-z]\w*", follows):
            return []
        return [(nxt, " ".join(words))]
    for position in range(nxt, min(len(tokens), nxt + _MAX_GAP)):
        token = tokens[position]
        if token.lower() in _CALLED:
            words = _run_after(tokens, position + 1)
            return [(position + 1, " ".join(words))] if words else []
        if token in _LIST_MARKERS or (token == "," and position == nxt):
            names = _list_after(tokens, position)
            plural = _is_plural(tokens[kind])
            if token == "(" and _defines_acronym(tokens, position):
                return []
            if token == "," and (len(names) < 2 if plural else not _closed_by_comma(tokens, names)):
                return []  # "On benchmarks, ZetaNet wins": a comma alone opens a list only of several names
            return names
        if (not (token in _AFTER_KIND_GAP or _LOWER_CASE_WORD.fullmatch(token)) or _OTHER_HEADS.match(token)
                or token in _CLAUSE_WORDS):
            return []  # the list must follow the kind's own phrase: "datasets in the public domain (A and B)"
    return []


def _is_plural(kind: str) -> bool:
    kind = kind.lower()
    return kind == "corpora" or (kind.endswith("s") and not kind.endswith("us"))


def _closed_by_comma(tokens: list[str], names: list[tuple[int, str]]) -> bool:
    """'Our dataset, ActivityNet-Entities, augments', '... dataset, RWTH-PHOENIX-Weather 2014T.': one name set
    off by commas."""
    if len(names) != 1:
        return False
    after = names[0][0] + len(names[0][1].split())
    return after >= len(tokens) or tokens[after] in {",", "."}


def _list_after(tokens: list[str], marker: int) -> list[tuple[int, str]]:
    """'A (Expansion), B v2 and C test': the names of a list, each possibly followed by its expansion
    or a word or two saying what it holds."""
    names: list[tuple[int, str]] = []
    position = marker + 1
    while position < len(tokens) and len(names) < _MAX_NAMES:
        last_item = False
        while position < len(tokens) and tokens[position] in _SEPARATORS | _LIST_MARKERS:
            last_item = last_item or tokens[position] in {"and", "or"}
            position += 1
        words = _run_after(tokens, position) if position < len(tokens) else []
        end = position + len(words)
        if not words or (end < len(tokens) and tokens[end] == "et"):  # a citation: "(Hahn et al. 2021)"
            break
        names.append((position, " ".join(words)))
        if last_item:  # "On COCO and VOC, Dense Teacher shows": the list ended with "and VOC"
            break
        position = end
        if position < len(tokens) and tokens[position] == "(":
            closing = next((i for i in range(position + 1, min(len(tokens), position + 12)) if tokens[i] == ")"), None)
            position = closing + 1 if closing is not None else position
        trailing = position
        while trailing - position < _MAX_DESCRIPTORS and trailing < len(tokens) and _is_descriptor(tokens[trailing]):
            trailing += 1
        if trailing < len(tokens) and tokens[trailing] in _SEPARATORS:
            position = trailing
        if position >= len(tokens) or tokens[position] not in _SEPARATORS:
            break
    return names


def _is_descriptor(token: str) -> bool:
    """A lower-case word that can stand between a name and its kind: 'KITTI object detection benchmark'."""
    return (_LOWER_CASE_WORD.fullmatch(token) is not None and not token.endswith("ed")
            and token not in _NOT_NAME_WORDS and not _is_kind(token) and not _OTHER_HEADS.match(token))


def _defines_acronym(tokens: list[str], opening: int) -> bool:
    """'Chinese Grammatical Error Correction (CGEC)': a parenthesis that defines an acronym, not a list."""
    inside = tokens[opening + 1:opening + 3]
    before = tokens[max(0, opening - 8):opening]
    return len(inside) == 2 and inside[1] == ")" and _spelling(inside[0], before) is not None


def _initials_match(acronym: str, words: list[str]) -> bool:
    """True when the words' initials spell the acronym's capitals: M3ED, 'Multi-modal ... Emotional Dialogue'."""
    initials = "".join(part[0] for word in words for part in re.split(r"-", word) if part and part[0].isupper())
    capitals = re.sub(r"[^A-Z]", "", acronym)
    return len(capitals) >= 2 and len(words) >= 2 and initials.startswith(capitals[0]) and _in_order(capitals,
                                                                                                      initials)


def _in_order(letters: str, text: str) -> bool:
    position = 0
    for letter in letters:
        position = text.find(letter, position) + 1
        if position == 0:
            return False
    return True


def _appositive(tokens: list[str], kind: int) -> list[tuple[int, str]]:
    """'MuCGEC, a multi-reference multi-source evaluation dataset': the name before ', a ... dataset'."""
    for article in range(kind - 1, max(-1, kind - 8), -1):
        token = tokens[article]
        if token.lower() in {"a", "an"}:
            if article >= 2 and tokens[article - 1] == ",":
                start, words = _run_before(tokens, article - 1)
                if words and _coined(words):
                    return [(start, " ".join(words))]
            return []
        if token in "(),;:.[]" or _is_kind(token):
            return []  # only the kind's own words stand between: "X, a new Dark Web dataset"
    return []


def _beside_kind_words(tokens: list[str]) -> list[tuple[int, str]]:
    names: list[tuple[int, str]] = []
    for position, token in enumerate(tokens):
        if _is_kind(token):
            after = _names_after(tokens, position)
            before = _names_before(tokens, position)
            appositive = _appositive(tokens, position)
            if (after or appositive) and len(before) == 1:  # "the EAE dataset RAMS", "CoDA, a Dark Web dataset":
                before = []  # the word before the kind says what the data is about
            names += before + after + appositive
    return names


def _named_as_benchmarks(tokens: list[str]) -> list[tuple[int, str]]:
    """Names coined as benchmarks wherever they stand: VBench, HumanEval, CoqGym, MT-Bench."""
    return [(position, " ".join(_run_after(tokens, position))) for position, token in enumerate(tokens)
            if _BENCHMARK_SHAPED.search(token) and _run_after(tokens, position)]  # "SemEval 2014 Task 4" whole


def _after_on(tokens: list[str]) -> list[tuple[int, str]]:
    """'... outperforms the state of the art on CIFAR-10, CIFAR-100, and SVHN.': a list with a coined name."""
    names = []
    for position, token in enumerate(tokens):
        if token.lower() not in {"on", "across"} or (position and tokens[position - 1].lower() in _NOT_EVALUATED_ON):
            continue
        start = position + 1
        while start < len(tokens) and tokens[start].lower() in {"the", "both", "all"}:
            start += 1
        listed = _list_after(tokens, start - 1)
        if not any(_coined(name.split()) for _, name in listed):
            continue
        for name_start, name in listed:
            end = name_start + len(name.split())
            follows = tokens[end] if end < len(tokens) else "."
            counted = re.fullmatch(r"#?\d[\d.,]*", name.split()[0]) or _SIZE.fullmatch(name.split()[0])
            # "on 10 NLU datasets", "on 2D Euclidean graphs": a count or a size, then what is counted
            if not counted and not _OTHER_HEADS.match(follows):  # "on MRC tasks"
                names.append((name_start, name))
    return names


def _is_dataset_name(name: str, position: int, abstract: str, own_names: tuple[str, ...], strong: bool) -> bool:
    words = name.split()
    if (not words or all(_SIZE.fullmatch(word) for word in words) or name in _GENERIC
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
        return not (lower_case_phrase or task_acronym or (len(words) == 1 and not _coined(words) and position == 0))
    defined_for_other = expansion is not None and not any(_is_kind(word) for word in expansion)
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
            spelled = _spelling(acronym, words[-8:])
        elif after.startswith("(") and ")" in after[:120]:
            spelled = _spelling(acronym, after[1:after.index(")")].split())
        else:
            continue
        if spelled:
            return spelled
    return None


def _spelling(acronym: str, words: list[str]) -> list[str] | None:
    """The longest tail of words starting with the acronym's first letter and holding all its letters in order."""
    letters = [c.lower() for c in acronym if c.isalpha()]
    if not letters:
        return None
    for start, word in enumerate(words):
        if word[:1].lower() == letters[0] and _in_order("".join(letters), " ".join(words[start:]).lower()):
            return words[start:]
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


# Headline results: a number with a percent sign or a multiplier, and what it measures, in
# a sentence that reports an outcome.
# A number starts where a run of digits starts, and its digits are never given back: a long run
# is read once, not once from each of its digits. A range may carry its unit twice ("4x-11.6x", "2 to 5
# times", "26∼35×", TeX's "4--27 times": without its start, "35×" would read as the result);
# a sign says the number is a change ("+12% success rate", "-28.2% BD-rate").
_SIGN = r"(?:\+|(?<![\w.\-])[\-\u2212])?"  # a minus, not a hyphen ("ResNet-50")
_NUMBER = (rf"(?<!\d){_SIGN}\d++(?:\.\d++)?(?:\s*(?:%|×|x\b))?(?:\s*(?:--?|[\u2013~\u223c]|to\b)\s*\d++(?:\.\d++)?)?"
           r"(?:\s*(?:%|×|x\b|-fold)|\s+times\b)")
_PLAIN = r"(?<![\d.])\d++(?:\.\d++)?"
_ABOUT = (r"(?:\b(?:up to|over|nearly|about|by|more than|less than|at least|at most|almost|around)\s+){0,2}"
          r"(?:(?:<=|>=|[<>\u2264\u2265])\s*)?")  # "(<= 1% accuracy degradation)": a bound, not a level
_HEADLINE_NUMBER = re.compile(rf"(?:from\s+{_NUMBER}\s+to\s+{_ABOUT}{_NUMBER})|{_ABOUT}{_NUMBER}"
                              rf"|(?:from\s+)?{_PLAIN}\s*(?:→|->)\s*{_PLAIN}%?")  # "from 61.0 → 88.9 accuracy"
_OUTCOME = AnyCase(r"achiev|improv|outperform|reduc|speed|gain|reach|rise|rises|surpass|boost|cut|"
                   r"accelerat|increas|decreas|lower|yield|deliver|attain|faster")
_DIGIT = re.compile(r"\d")  # every headline number has one: most sentences need no further look
# What a number can measure. A phrase without one ("outperforms them by 11.1%", "99.9% reduction")
# does not say what it measures, and is not shown; nor do words for any measure ("performance",
# "metrics", "results").
# Words are matched in lower case (a capitalised "Faster R-CNN" is a model), acronyms as written.
_CHANGE_NOUN = r"(?:improvement|gain|reduction|increase|decrease|drop|boost)s?"
_NOT_A_MEASURE = (r"(?!(?:[a-z\-]+\s+)?performance\b)"
                  r"(?!(?:up|about|over|around|nearly|approximately|roughly|almost|only|the|a)\b)")
_MEASURE = re.compile(r"\b(?:accura|error|speed|faster|slower|laten|throughput|time\b|runtime|memory|cost|comput|"
                      r"flop|energy|power|param|size|smaller|compress|score|precision|recall|perplexit|"
                      # not a change's rate ("an improvement rate of 20.8%") nor a change's loss ("a loss of 0.02%")
                      r"(?<!improvement\s)(?<!growth\s)rates?\b|loss(?!\s+of\b)|"
                      r"reward|return|success|wins?\b|win rate|(?<!-)bits?\b|bandwidth|storage|coverage|correlat|"
                      r"regret|sample|label|annotation|quer|token|exact match|top-\d|hits?\b|quality|efficien|"
                      r"robust|agreement|fps\b|frames|f-?measure|f-?score|acceleration|intersection.over.union|"
                      r"false positive|false negative|operations|"
                      r"BLEU|ROUGE|METEOR|CIDEr|F1|AUC|mAP|AP\b|IoU|mIoU|PSNR|SSIM|LPIPS|FID\b|MSE|RMSE|MAE\b|EM\b|"
                      r"NDCG|MRR|WER\b|CER\b|FLOPs|GPU|Acc\b|Acc@"
                      # or says it in so many words: "40% improvements in empirical safety", "in Recall@1"; but
                      # after "performance", "of" says whose ("performance drop of student model"), and a task's
                      # performance is no measure ("improvement in segmentation performance")
                      rf"|{_CHANGE_NOUN}\s+in\s+{_NOT_A_MEASURE}[A-Za-z]"
                      rf"|(?<!performance\s){_CHANGE_NOUN}\s+of\s+{_NOT_A_MEASURE}[a-z])")
# What follows these is what a number is compared with, not what it measures.
_COMPARED_WITH = re.compile(r"\s(?:than|over|versus|vs\.?|compared)\s")
# How far around a number its phrase is looked for: seven words after it or six before fit easily,
# and a bounded window keeps a sentence of many numbers linear.
_RESULT_WINDOW = 300
# (a sentence may end on a quote: the corpus's ECCV abstracts end with one)
_RESULT_STOP = re.compile(r"[,;:()]|\.[\"'\u201d]?(?:\s|$)|\s(?:while|whereas|and|but|compared|outperforming|which|"
                          r"thereby|demonstrating|showing|when|respectively|vs\.?|versus)\b")
# Verbs of an outcome: a phrase before its number starts at one ("PreTraM reduces their errors by 5.5%"
# is "reduces their errors by 5.5%"), and after its number a verb that is neither a participle nor a noun
# starts another clause ("30% reduction of channels even outperforms ...", not "1.3x parameter increase").
_OUTCOME_VERB = re.compile(r"\b(?:(?:achiev|improv|reduc|increas|decreas|sav|accelerat)(?:es?|ed|ing)|"
                           r"(?:out-?perform|attain|obtain|yield|deliver)(?:s|ed|ing)?|(?:boost|lower)(?:s|ed|ing)|"
                           r"(?:compress|surpass|reach)(?:es|ed|ing)?|cut(?:s|ting))\b")
# After its number, an auxiliary starts another clause too ("100% heterogeneity DisTrans has accuracy of").
_FINITE_AUXILIARY = re.compile(r"\s(?:is|are|was|were|has|have|had|can|could|will|would)\b")
# Before its number, a phrase may also start at a verb that after a number would be a noun ("speed up ViTs
# by 1.7x", "boost the efficiency by 86%", "bring down its accuracy to less than 0.1%"), or at the verb of
# a measure that changes ("accuracy rises from 8% to 57%").
_LEADING_VERB = re.compile(rf"{_OUTCOME_VERB.pattern}|(?:speed|boost|bring|rise|drop|fall)s?|sped|rose|fell")
# Words that say a number is a change, right before it: "saving 11% parameters", "reducing 89% computation"
# (without them, "11% parameters" reads as what is kept).
_CHANGE_WORD = (r"(?:\b(?:reduc|increas|decreas|sav|accelerat|improv)(?:es?|ed|ing)|"
                r"\b(?:boost|lower)(?:s|ed|ing)|\bcut(?:s|ting)?|\bcompress(?:es|ed|ing)?|"
                rf"\b{_CHANGE_NOUN}\s+of)")
_CHANGE_BEFORE = re.compile(rf"({_CHANGE_WORD})\s+$")
# ... or before the number an "and" joins it to: "saving 11% parameters and 13% computational cost", "by 7.0%
# mAP and 8.1% AP50".
_SHARED_CHANGE = re.compile(rf"({_CHANGE_WORD}|\bby)\s+{_ABOUT}{_NUMBER}[^\d,;.()]{{1,60}}?\s(?:and|or)\s+$")
# "from 45%" whose "to" was not read: half a change.
_FROM_BEFORE = re.compile(r"\bfrom\s+$")
# A number written right against another, with no word or range mark between ("25%/13.8% RMSE", "3.41 4.60
# times", a thousands separator read as a space "2, 500 times"): which one the phrase belongs to cannot be read.
_NUMBER_JUST_BEFORE = re.compile(r"(?:^|[\s(/])\d+(?:\.\d+)?[%\u00d7x]?(?:\s*/\s*|\s+)$")
_NUMBER_JUST_AFTER = re.compile(r"\s*/\s*\d|\s+\d")
_THOUSANDS_BEFORE = re.compile(r"(?:^|\s)\d{1,3},\s?$")
_THOUSANDS = re.compile(r"\d{3}(?!\d)")
# A number right after another method's name gives that method's number: "where prior art has 27.9%
# accuracy", "comparable to the full-precision accuracy 71.88%", "a character baseline of 14.8% WER".
_OTHERS = {"prior", "previous", "baseline", "baselines", "existing", "full-precision", "competing", "runner-up"}
# A number right after what introduces a comparison is what is compared with: "78.1% test accuracy ...,
# compared to 77.0% test accuracy", "80.4% vs. 72.1% or lower for other approaches".
_COMPARED_NUMBER = re.compile(r"\b(?:compared\s+(?:to|with)|vs\.?|versus|against)\s+$", re.IGNORECASE)
# "... which has 57% more parameters than ours": what is compared with is the paper's own.
_THAN_OURS = re.compile(r"\bthan\s+(?:ours|us|our)\b")
# Verbs whose object is a rival, not a measure: "outperforms MAE by +0.8%" (MAE the model).
_RIVAL_VERB = re.compile(r"(?:outperform|surpass|beat|exceed)\w*")
_ARTICLES = {"the", "a", "an"}
_AUXILIARIES = {"is", "are", "was", "were", "be", "been", "being", "has", "have", "had", "can", "could", "may",
                "might", "will", "would", "further", "also"}
_MAX_RESULTS = 3
_RESULT_WORDS = 7  # after the number, at most
_LIST_WORDS = 4  # the last item of a list a phrase is cut inside ("and the Cityscapes dataset")
_VERB_WORDS = 9  # before the number, how far back its outcome verb is looked for
_PHRASE_WORDS = 6  # before the number, at most, when no verb starts the phrase
_SUBJECT_WORDS = 3  # a subject that names the measure: "the time cost is reduced by"
# Words that start a phrase of their own, or only join one: no measure, no phrase's start or end.
_FUNCTION_WORDS = {"of", "in", "on", "to", "and", "or", "the", "a", "an", "while", "with", "for", "from", "at",
                   "over", "than", "by", "when", "respectively", "without", "using", "across", "under", "within",
                   "after", "via", "through", "among", "despite", "during", "compared", "even",
                   "whereas", "given", "due", "thanks", "against", "beyond", "toward", "towards", "per", "until",
                   "since", "that", "which", "is", "are", "was", "were", "be", "it", "this", "can", "vs", "only",
                   "just", "also", "still"}
# Words after which a noun that names its number ("an F-score of 62.82%") completes another phrase.
_COMPLEMENTED = {"with", "to", "that", "for", "by", "at", "on"}
# Where a phrase after its number can be cut back to: the start of its last prepositional phrase.
_PREPOSITIONS = _FUNCTION_WORDS - _ARTICLES - {"and", "or"}
# Words that start a clause of their own after "and" ("... on COCO and we ...").
_CLAUSE_STARTS = {"we", "our", "it", "its", "they", "their", "this", "these", "also"}
# Words that only qualify a measure ("mean IoU", "absolute accuracy"), and compare nothing.
_MODIFIERS = {"absolute", "relative", "average", "overall", "additional", "consistent", "significant",
              "substantial", "mean"}
_COMPARATIVES = {"higher", "lower", "better", "worse", "more", "less", "fewer", "greater", "larger", "longer",
                 "shorter", "cheaper", "denser", "finer"} | _MODIFIERS
# A measure's acronym: two capitals or more ("PQ", "mIOU", "GFLOPs"), or a capital and a digit ("AP50",
# "FPR95"), with fewer than three small letters ("ImageNet" and "ResNet" are names).
_ACRONYM = re.compile(r"(?=(?:[^A-Z]*[A-Z]){2}|.*[A-Z].*\d|.*\d.*[A-Z])(?!(?:[^a-z]*[a-z]){3})[\w\-@]+")
_MULTIPLIER = re.compile(r"(?:[x\u00d7]|times|fold)$")
# Words that say a number changed, not what it measures ("10% absolute improvement over the best prior result").
_VAGUE_HEADS = _FUNCTION_WORDS | {"improvement", "improvements", "gain", "gains", "increase", "increases",
                                  "reduction", "reductions", "boost", "drop", "decrease", "margin", "times", "fold",
                                  "overall", "points", "versus", "performance", "results", "result", "metrics", "as"}
# How much data a method was given ("only 10% labeled data", "10% training set") is its setting, not a
# result, unless the number compares it ("10x fewer labels"): the noun after the number says which.
_SETTING_HEADS = {"data", "set", "sets", "labels", "samples", "examples", "annotations", "subset", "shots",
                  "supervision"}


def find_results(sentences: list[str]) -> tuple[str, ...]:
    """Up to three short phrases with headline numbers: '34% proof success rate on LCI-Test'."""
    results: list[str] = []
    for sentence in sentences:
        # a sentence that pairs its numbers with things "respectively" says what each measures only as a whole
        if not _DIGIT.search(sentence) or not _OUTCOME.found_in(sentence) or "respectively" in sentence:
            continue
        for match in _HEADLINE_NUMBER.finditer(sentence):
            phrase = _result_phrase(sentence, match)
            if phrase is None or not _says_what_it_measures(*phrase[1:]):
                continue
            text = " ".join(part for part in phrase if part).strip(" .,;:\"'\u201c\u201d")
            if not any(text in r or r in text for r in results):
                results.append(text)
                if len(results) == _MAX_RESULTS:
                    return tuple(results)
    return tuple(results)


def _says_what_it_measures(before: str, number: str, after: str) -> bool:
    """A measure word before any "than" or "over" (what is compared with is not what is measured: "30% higher
    than methods for efficient inference"), or right after the number a measure's acronym or a noun counted
    by a comparative: "46.5% PQ", "17% more formulas"."""
    words = after.split()
    noun = list(itertools.takewhile(lambda word: word.lower() not in _FUNCTION_WORDS, words))
    if noun and noun[-1].lower() in _SETTING_HEADS and not _COMPARATIVES.intersection(map(str.lower, noun)):
        return False
    if _names_a_measure(f"{_without_rival(before)} {_COMPARED_WITH.split(f' {after} ')[0]}".strip()):
        return True
    compared = False
    while words and words[0].lower() in _COMPARATIVES:
        compared = words.pop(0).lower() not in _MODIFIERS or compared
    if not words or words[0].lower() in _VAGUE_HEADS or words[0].endswith(("ed", "ly")):  # "averaged across"
        return False
    if _MEASURE.search(" ".join(noun).lower()):  # capitalised: "71.8% Multi-Object Tracking Accuracy"
        return True
    # a noun no measure word names is shown only when it counts things ("10x fewer labels", "17% more
    # formulas") or is a measure's acronym ("46.5% PQ"); a multiplier's acronym is what it is compared
    # with ("0.001x VVC"), and a lower-case noun may be anything ("20% missingness", "10-fold repetition")
    return (re.fullmatch(r"[A-Za-z][\w\-]*", words[0]) is not None
            and (compared or (_ACRONYM.fullmatch(words[0]) is not None and not _MULTIPLIER.search(number))))


def _without_rival(before: str) -> str:
    """The words before a number without the object of a rival verb ("outperforms MAE by" -> "outperforms by";
    "outperforms the baseline in accuracy by" keeps "in accuracy by")."""
    words = before.split()
    rival = next((at for at, word in enumerate(words) if _RIVAL_VERB.fullmatch(word.lower())), None)
    if rival is None:
        return before
    end = rival + 1
    while end < len(words) and (words[end].lower() in _ARTICLES or words[end].lower() not in _FUNCTION_WORDS):
        end += 1
    return " ".join(words[:rival + 1] + words[end:])


def _names_a_measure(text: str) -> bool:
    return _MEASURE.search(text) is not None or _MEASURE.match(text[:12].lower()) is not None  # "Accuracy improves"


def _result_phrase(sentence: str, match: re.Match) -> tuple[str, str, str, str] | None:
    """(a word saying the number is a change, words before, the number, words after): the number with the
    words after it ('34% success rate'), and a word before it that says it is a change ('saving 11%
    parameters'); or with the words before it, from their outcome verb, when it closes its clause ('reduces
    memory by over 50%'). A number that cannot be read whole this way gives no phrase."""
    preceding = sentence[max(0, match.start() - _RESULT_WINDOW):match.start()]
    following = sentence[match.end():match.end() + _RESULT_WINDOW]
    if (_FROM_BEFORE.search(preceding) or _NUMBER_JUST_BEFORE.search(preceding)
            or (_THOUSANDS_BEFORE.search(preceding) and _THOUSANDS.match(match[0]))
            or _NUMBER_JUST_AFTER.match(following) or _THAN_OURS.search(following[:80])
            or _COMPARED_NUMBER.search(preceding)):
        return None
    clause = _RESULT_STOP.split(preceding)[-1].split()
    if _led_by_others(clause):
        return None
    words = _words_after(sentence, match)
    if words and re.match(r"[A-Za-z]", words[0]) and words[0].lower() not in _FUNCTION_WORDS:
        change = _CHANGE_BEFORE.search(preceding) or _SHARED_CHANGE.search(preceding)
        return (change[1].strip() if change else ""), "", match[0], " ".join(words)
    if _HEADLINE_NUMBER.search(" ".join(clause[-_PHRASE_WORDS:])):
        return None  # "achieves 80% accuracy using only 20%": the phrase belongs to the first number
    before = _after_last_number(clause[-_VERB_WORDS:])
    verb = next((at for at, word in enumerate(before) if _LEADING_VERB.fullmatch(word.lower())), None)
    if verb is None:
        # a noun that names its number reads whole ("a mean error reduction of 34%"), as does a change with
        # both its ends ("error rate from 18.44% to 7.05%"); a change by an amount without its verb does not
        # ("... and the energy consumption by 1.9x": the verb is another clause's)
        if not before or ([w.lower() for w in _without_end(before, _is_adverb)][-1:] != ["of"]
                          and not match[0].startswith("from")):
            return None
        before = before[-_PHRASE_WORDS:]
        if not match[0].startswith("from"):  # "benchmark with [an F-score of]"
            before = _after_what_it_completes(before)
    else:  # from the verb, or from its subject when that names the measure ("Accuracy improves by")
        auxiliaries = verb - len(_without_end(before[:verb], _is_auxiliary))
        subject = before[:verb - auxiliaries][-_SUBJECT_WORDS:]
        before = (subject + before[verb - auxiliaries:] if _names_a_measure(" ".join(subject))
                  else before[verb:])
    while before and before[0].lower() in _FUNCTION_WORDS:
        before.pop(0)
    return ("", " ".join(before), match[0], "") if before else None


def _after_what_it_completes(words: list[str]) -> list[str]:
    """A noun that names its number, without the phrase it completes: "an F-score of", not "intermediate
    benchmark with an F-score of"."""
    return words[max((at + 1 for at, word in enumerate(words) if word.lower() in _COMPLEMENTED), default=0):]


def _after_last_number(words: list[str]) -> list[str]:
    numbers = [at for at, word in enumerate(words) if _HEADLINE_NUMBER.search(word)]
    return words[numbers[-1] + 1:] if numbers else words


def _without_end(words: list[str], dropped: Callable[[str], bool]) -> list[str]:
    """The words without those at their end that `dropped` says go ("error of only", "has been significantly")."""
    end = len(words)
    while end and dropped(words[end - 1]):
        end -= 1
    return words[:end]


def _is_adverb(word: str) -> bool:
    return word.lower() == "only" or word.endswith("ly")


def _is_auxiliary(word: str) -> bool:
    """An auxiliary or an adverb between a subject and its verb ("has been significantly")."""
    return word.lower() in _AUXILIARIES or word.endswith("ly")


def _led_by_others(clause: list[str]) -> bool:
    """Another method is named, and neither an outcome verb in the clause ("outperforms the baseline by 5.5%")
    nor a preposition other than "of" after the name ("baseline with less than 1% ...") makes the number the
    paper's."""
    others = [at for at, word in enumerate(clause) if word.lower() in _OTHERS]
    return (bool(others) and not any(_LEADING_VERB.fullmatch(word.lower()) for word in clause)
            and not any(word.lower() in _PREPOSITIONS - {"of"} for word in clause[others[-1] + 1:]))


def _words_after(sentence: str, match: re.Match) -> list[str]:
    """The clause after the number, to its end, the next number or the next verb, in at most _RESULT_WORDS
    words; when cut short, it ends where a phrase ends, not on "with only minor"; a phrase stopped inside a
    list takes the list's last item ("on both CLEVR and CLEVR-CoGenT"), and one cut inside a noun and its "of"
    ("than the previous state of the art") is left out."""
    after = sentence[match.end():match.end() + _RESULT_WINDOW]
    stop = _RESULT_STOP.search(after)
    ends = [found.start() for found in (stop, _HEADLINE_NUMBER.search(after), _FINITE_AUXILIARY.search(after))
            if found]
    verbs = [found.start() for found in _OUTCOME_VERB.finditer(after) if not found[0].endswith(("ed", "e"))][:1]
    clause = after[:min(ends + verbs)].split() if ends or verbs else after.split()
    if verbs and min(verbs) < min(ends, default=len(after)):  # "... significantly outperforms": its adverb goes too
        while clause and clause[-1].endswith("ly"):
            clause.pop()
    words = clause[:_RESULT_WORDS]
    if len(clause) > _RESULT_WORDS:  # ... and without the participle that led to it ("averaged on")
        phrase_ends = [at for at, word in enumerate(words) if at and word.lower() in _FUNCTION_WORDS]
        words = words[:phrase_ends[-1]] if phrase_ends else words
        if len(words) > 1 and words[-1].endswith("ed") and not words[-1].endswith("eed"):
            words.pop()
    words = _trimmed(words)
    if len(clause) <= _RESULT_WORDS and stop is not None and stop.start() == min(ends + verbs):
        last_item = _last_list_item(after[stop.start():])
        if words and last_item:
            return words + last_item
    while 0 < len(words) < len(clause) and clause[len(words)].lower() == "of":  # "the state", "7 different kinds"
        at = _last_preposition(words)
        led_by = words[at + 1].lower() if at + 1 < len(words) else ""
        if (led_by not in _ARTICLES and not led_by[:1].isdigit()) or _names_a_measure(" ".join(words[at:])):
            break  # ("in the misclassification rate of ..." is whole)
        words = _trimmed(words[:at])
    return words


def _last_preposition(words: list[str]) -> int:
    """Where the phrase's last prepositional phrase starts (its length when it has none)."""
    return next((at for at in range(len(words) - 1, 0, -1) if words[at].lower() in _PREPOSITIONS), len(words))


def _trimmed(words: list[str]) -> list[str]:
    """Without the words at the end that only join a phrase."""
    return _without_end(words, lambda word: word.lower() in _FUNCTION_WORDS or not re.search(r"\w", word))


def _last_list_item(rest: str) -> list[str]:
    """An "and" or "or" followed by a few words, no number and no verb, up to the clause's end joins the
    phrase's last noun to another ("in mAP and F1 scores compared to"): the phrase stopped there would be cut
    inside a list, so it takes that item too. A longer run is a clause of its own ("on TOP dataset and
    retains competitive performance ...")."""
    conjunction = re.match(r"\s(?:and|or)\b", rest)
    if conjunction is None:
        return []
    rest = rest[conjunction.end():]
    found = [found for found in (_RESULT_STOP.search(rest), _HEADLINE_NUMBER.search(rest)) if found]
    end = min(found, key=lambda found: found.start(), default=None)
    if end is not None and end.re is _HEADLINE_NUMBER:
        return []  # "... for classifications and a 7.9% lower ...": another result
    words = _trimmed((rest[:end.start()] if end else rest).split())
    lower = [word.lower() for word in words]
    joins = (0 < len(words) <= _LIST_WORDS and re.match(r"[a-z]|\d+[a-z]\b", lower[0]) is not None
             and lower[0] not in _CLAUSE_STARTS and (lower[0] in _ARTICLES or lower[0] not in _FUNCTION_WORDS)
             and not any(_LEADING_VERB.fullmatch(word) for word in lower) and not _starts_a_clause(lower))
    return [conjunction[0].strip(), *words] if joins else []


def _starts_a_clause(words: list[str]) -> bool:
    """A verb in the present before its object: "produces better results", "requires the same memory" (no
    part-of-speech tagger: a word in -s before an article or a comparative is a verb, not a noun)."""
    return len(words) > 1 and words[0].endswith("s") and words[1] in _ARTICLES | _COMPARATIVES - _MODIFIERS


def plain_math(text: str) -> str:
    """Inline math as readable text ($32\\times$ -> 32×, $69\\\\%$ -> 69%), and \\% as %."""
    if "$" in text:  # (most abstracts have neither)
        text = re.sub(r"\$([^$]{1,80})\$", lambda m: math_to_text(m[1]), text)
    return re.sub(r"\\{1,2}%", "%", text) if "\\%" in text else text
