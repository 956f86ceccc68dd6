"""Where an abstract's sentence places a dataset's name, read as tokens: beside a kind word ("the GLUE
benchmark", "on ScanNetV2 and S3DIS datasets", "datasets such as A, B and C", "a dataset called X", "X, a
new dataset of videos"), in a name coined as a benchmark's (VBench, HumanEval, CoqGym), or in a list after
"on"/"across" that holds a coined name (CIFAR-10, TriviaQA); with the runs of name words, the lists and
the acronyms these readings share. What each reading finds is weighed in catalogue.ingest.benchmarks.
"""

from __future__ import annotations

import functools
import re

# Sentences are read as tokens: words (with inner - . + # / ' kept: CIFAR-10, v2.0, MSMARCO's) and
# the punctuation that separates list items.
_TOKEN = re.compile(r"#?\w(?:[\w+#/]|[\-'’](?=\w)|\.(?=[a-z0-9]))*|[(),;:.\[\]]")
_ADDRESS = re.compile(r"\.[a-z]{2,}/")
KIND_STARTS = ("data", "bench", "corp", "chall", "leader", "treeb", "Data", "Bench", "Corp", "Chall", "Leader",
               "Treeb")
_KIND = re.compile(r"(?:data-?sets?|benchmarks?|corpus|corpora|challenges?|leaderboards?|treebanks?)", re.IGNORECASE)
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
_BENCHMARK_SHAPED = re.compile(r"(?:[a-z0-9\-]Bench|[a-z0-9\-]Eval|[a-z0-9\-]Arena|[a-z]Gym)(?:-\w+)?$")
SIZE = re.compile(r"[\d.,]+(?:[A-Za-z]{1,2}|-[a-z]+)?|top-\d+")  # 2D, 150x, 65GB, 1-shot: sizes, not names
MAX_NAMES = 8
_MAX_RUN = 5
_MAX_DESCRIPTORS = 2  # "the KITTI BEV object detection benchmark"
_MAX_GAP = 12  # "datasets for fine-grained, object, scene and texture classification: A, B"


def sentence_tokens(sentence: str) -> list[str]:
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


def is_kind(token: str) -> bool:
    """'dataset', 'benchmarks', 'corpus'; a challenge only when it is part of a name ('AI City Challenge')."""
    return (token.startswith(KIND_STARTS) and _KIND.fullmatch(token) is not None
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


def coined(words: list[str]) -> bool:
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
    if len(inside) == 1 and coined(inside):  # the acronym is the name the text goes on using
        names = [(end + 1, inside[0])]
        end, _ = _run_before(tokens, end)
    elif len(listed) > 1 and sum(len(name.split()) for _, name in listed) + len(listed) - 1 == len(inside):
        return listed  # "real-world (PEMS-SF, CMU-MOSI) datasets"
    else:
        descriptors = 0
        while descriptors < _MAX_DESCRIPTORS and end > 0 and _is_descriptor(tokens[end - 1]):
            end, descriptors = end - 1, descriptors + 1
        start, words = _run_before(tokens, end)
        if not words or (descriptors and not coined(words)):
            return []
        name = " ".join(words + [tokens[kind]] if tokens[kind][0].isupper() and not descriptors else words)
        names, end = [(start, name)], start
    while len(names) < MAX_NAMES:  # more items of the list, leftwards
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
    if single and (determiner in {"a", "an"} or (determiner in _DESCRIBING and not coined(single.split()))):
        return True
    head = kind  # "English benchmark datasets": the last kind word is the head
    while head + 1 < len(tokens) and is_kind(tokens[head + 1]):
        head += 1
    if not _is_plural(tokens[head]) or tokens[kind][0].isupper() or determiner == "the":
        return False
    if not any(coined(name.split()) for _, name in names):
        return True
    in_a_list = determiner in {",", "and", "or"}  # "... final pass and KITTI 2015 benchmarks"
    return bool(single and not in_a_list and (re.fullmatch(r"[A-Z]+", single) or single[0].isdigit()))


def _names_after(tokens: list[str], kind: int) -> list[tuple[int, str]]:
    """'datasets such as A, B and C', 'benchmarks: A, B', 'a dataset called X', 'the benchmark FetchBench'."""
    nxt = kind + 1
    if nxt < len(tokens) and _is_name_token(tokens[nxt]) and not is_kind(tokens[nxt]):
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
    while position < len(tokens) and len(names) < MAX_NAMES:
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
            and token not in _NOT_NAME_WORDS and not is_kind(token) and not _OTHER_HEADS.match(token))


def _defines_acronym(tokens: list[str], opening: int) -> bool:
    """'Chinese Grammatical Error Correction (CGEC)': a parenthesis that defines an acronym, not a list."""
    inside = tokens[opening + 1:opening + 3]
    before = tokens[max(0, opening - 8):opening]
    return len(inside) == 2 and inside[1] == ")" and spelling(inside[0], before) is not None


def initials_match(acronym: str, words: list[str]) -> bool:
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
                if words and coined(words):
                    return [(start, " ".join(words))]
            return []
        if token in "(),;:.[]" or is_kind(token):
            return []  # only the kind's own words stand between: "X, a new Dark Web dataset"
    return []


def beside_kind_words(tokens: list[str]) -> list[tuple[int, str]]:
    names: list[tuple[int, str]] = []
    for position, token in enumerate(tokens):
        if is_kind(token):
            after = _names_after(tokens, position)
            before = _names_before(tokens, position)
            appositive = _appositive(tokens, position)
            if (after or appositive) and len(before) == 1:  # "the EAE dataset RAMS", "CoDA, a Dark Web dataset":
                before = []  # the word before the kind says what the data is about
            names += before + after + appositive
    return names


def named_as_benchmarks(tokens: list[str]) -> list[tuple[int, str]]:
    """Names coined as benchmarks wherever they stand: VBench, HumanEval, CoqGym, MT-Bench."""
    return [(position, " ".join(_run_after(tokens, position))) for position, token in enumerate(tokens)
            if _BENCHMARK_SHAPED.search(token) and _run_after(tokens, position)]  # "SemEval 2014 Task 4" whole


def after_on(tokens: list[str]) -> list[tuple[int, str]]:
    """'... outperforms the state of the art on CIFAR-10, CIFAR-100, and SVHN.': a list with a coined name."""
    names = []
    for position, token in enumerate(tokens):
        if token.lower() not in {"on", "across"} or (position and tokens[position - 1].lower() in _NOT_EVALUATED_ON):
            continue
        start = position + 1
        while start < len(tokens) and tokens[start].lower() in {"the", "both", "all"}:
            start += 1
        listed = _list_after(tokens, start - 1)
        if not any(coined(name.split()) for _, name in listed):
            continue
        for name_start, name in listed:
            end = name_start + len(name.split())
            follows = tokens[end] if end < len(tokens) else "."
            counted = re.fullmatch(r"#?\d[\d.,]*", name.split()[0]) or SIZE.fullmatch(name.split()[0])
            # "on 10 NLU datasets", "on 2D Euclidean graphs": a count or a size, then what is counted
            if not counted and not _OTHER_HEADS.match(follows):  # "on MRC tasks"
                names.append((name_start, name))
    return names


def spelling(acronym: str, words: list[str]) -> list[str] | None:
    """The longest tail of words starting with the acronym's first letter and holding all its letters in order."""
    letters = [c.lower() for c in acronym if c.isalpha()]
    if not letters:
        return None
    for start, word in enumerate(words):
        if word[:1].lower() == letters[0] and _in_order("".join(letters), " ".join(words[start:]).lower()):
            return words[start:]
    return None
