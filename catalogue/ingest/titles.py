"""A readable title derived from an abstract: the span of its words most likely to be the title.

Each word of the abstract gets the probability that the real title holds it, from a small
logistic model learned from real title-abstract pairs (catalogue/ingest/title_model.json, written by
bench/train_titles.py). Candidate spans are whole phrases of one sentence: they start where a
phrase starts and end where one ends, never on a word that needs another after it, and never run
through a finite verb ('Tasks Contain Uncertainty' is a sentence, not a title). Without a name a
phrase needs five words, or three when two of them side by side are seldom written together (a
field's name, 'Stochastic Gradient Descent', is common to many abstracts) and nothing continues it.
The verbs and the common pairs are learned with the word model. A subject the abstract frames ("we study
the problem of X") is X, which may be two words long; the frame is never part of a title. A phrase that opens on
others' work or the field at large ('Recent Advances in ...', 'Existing Methods for ...': real titles do not) is the
title only when the abstract offers no other phrase. The chosen span maximises the
expected token F1 against a title of typical length, so a span of unlikely words loses to a
shorter one: when nothing fits well the title says less. A named contribution leads the title
("Name: span"). Math is kept exactly as the abstract writes it.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import re
from collections import Counter, defaultdict
from collections.abc import Collection, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import NamedTuple

from catalogue.markup.convert import TIE, split_math, text_only_math
from catalogue.ingest.acronyms import normalise_expansion
from catalogue.model import Paper
from catalogue.text import WORD_START, AnyCase

MAX_TITLE = 110
MODEL = Path(__file__).with_name("title_model.json")
_LONGEST_SPAN = 14
# A title without a name needs a few words to tell its paper from others ("Deep Neural Networks"):
# fewer when two of them are seldom written together ("Fine-Grained Visual Entailment").
_SHORTEST_SPAN = {True: 2, False: 5}
_SHORTEST_SPECIFIC = {True: 2, False: 3}
_SHORTEST_SUBJECT = 2  # words of a subject an abstract frames as such: "we study the problem of X"
# The title is looked for in the opening sentences and in the first sentences that state a claim.
_OPENING_SENTENCES = 2
_CLAIM_SENTENCES = 2

_ARTICLES = {"a", "an", "the"}
_SMALL_WORDS = {"a", "an", "the", "and", "or", "but", "nor", "for", "of", "in", "on", "at", "to", "by",
                "via", "with", "from", "as", "into", "over", "per", "vs", "than", "through", "across",
                "under", "within", "without", "between", "among", "beyond", "toward", "towards", "upon"}
# Words after which a phrase is not finished.
_LINKING = _SMALL_WORDS | {
    "this", "that", "these", "those", "yet", "so", "if", "whether", "while", "because", "although", "about",
    "onto", "against", "during", "after", "before", "around", "along", "behind", "below", "above", "versus",
    "which", "who", "whose", "where", "when", "how", "what", "whereas", "such", "both", "either", "neither",
    "each", "every", "all", "any", "some", "our", "their", "its", "his", "her", "we", "it", "they", "is", "are",
    "was", "were", "be", "been", "being", "has", "have", "had", "can", "could", "may", "might", "will", "would",
    "should", "must", "do", "does", "did", "not", "also", "very", "more", "most", "less", "novel", "new",
    "first", "based", "e.g.", "i.e.", "etc", "namely", "then", "thus", "hence", "there", "here", "them",
    "despite", "like", "unlike", "though", "unless", "throughout", "amongst", "including", "except", "until",
}
# Words a title does not start with (a title may start with an article).
_NOT_FIRST = (_LINKING - _ARTICLES) | {"however", "moreover", "furthermore", "additionally", "finally",
                                       "specifically", "instead", "therefore", "consequently", "further"}
# Words that point at others' work or the field at large ('Recent Advances in ...', 'Existing Methods'), which real
# titles do not open with: a phrase that starts on one (or on an article and one) is the last resort.
_BACKGROUND = {"recent", "existing", "previous", "current", "conventional", "traditional", "popular", "typical",
               "many", "several", "various", "numerous", "most", "given", "since", "state-of-the-art"}
# Where a phrase may end: before one of these words, or at punctuation.
_PHRASE_BREAK = _LINKING | {"using", "called", "named", "termed", "dubbed", "known", "leading", "resulting",
                            "achieving", "making", "allowing", "enabling", "yielding", "showing", "without"}
# Words a phrase begins after: prepositions, articles, conjunctions, linking verbs, namings.
_LINKING_VERBS = {"is", "are", "was", "were", "be", "been"}
_PHRASE_BEFORE = (_SMALL_WORDS - {"to"}) | _LINKING_VERBS | {"about", "versus", "against", "during", "called",
                                                             "named", "termed", "dubbed", "using", "namely"}
# Words that make a sentence of a phrase (a verb follows them, or they are one): never inside a title.
_CLAUSAL = {"is", "are", "was", "were", "be", "been", "being", "has", "have", "had", "can", "could", "may", "might",
            "will", "would", "should", "must", "do", "does", "did", "we", "it", "they", "which", "who", "whose",
            "where", "when", "whether", "how", "what", "why", "if", "our", "their", "not", "also"}
# A phrase that ends right before one of these most likely ends on a verb ("... networks define the").
_DETERMINERS = {"the", "a", "an", "this", "these", "those", "our", "their", "its", "each", "every", "all", "any",
                "some", "such"}
# Words after which a verb does not make the title a sentence: a noun ('the study'), an infinitive ('to learn'),
# a relative clause, which a title may hold ('Algorithms That Belong to ...').
_NOT_FINITE = _DETERMINERS | {"to", "that"}
# Nouns that frame what a sentence is about ("we study the problem of ..."): a title says the subject itself
# when the subject alone makes one.
_FRAMING_HEADS = {"problem", "task", "goal", "aim", "purpose", "question", "issue", "challenge", "notion", "idea",
                  "topic", "context", "case", "setting", "field", "area"}
# Words that open a verb's object.
_OBJECT_START = _DETERMINERS | {"many", "several", "multiple", "two", "three", "both", "no"}
_CLAIM_VERBS = {
    "propose": "introduce", "introduce": "introduce", "present": "introduce", "develop": "introduce",
    "design": "introduce", "devise": "introduce", "describe": "introduce", "build": "introduce",
    "construct": "introduce", "create": "introduce", "release": "introduce", "offer": "introduce",
    "study": "study", "investigate": "study", "analyze": "study", "analyse": "study", "examine": "study",
    "explore": "study", "consider": "study", "address": "study", "tackle": "study", "revisit": "study",
    "formalize": "study", "characterize": "study", "focus": "study", "provide": "study", "give": "study",
    "show": "show", "prove": "show", "demonstrate": "show", "establish": "show", "derive": "show",
    "find": "show", "argue": "show",
}
# Each claim verb as written (proposes, studied, ...), and the kind of claim it makes.
_CLAIM_FORMS = {form: kind for verb, kind in _CLAIM_VERBS.items()
                for form in ((verb, verb[:-1] + "ies", verb[:-1] + "ied") if verb.endswith("y") else
                             (verb, verb + "s", verb + "d", verb + "ed", verb + "es"))}
# A sentence ends at . ! or ? (and a closing quote or bracket) before a capital, a digit or a formula;
# not after an initial (J. Smith, U.S.) or a common abbreviation. (The pattern starts with the space, which the
# regular expression engine skips to at once; the looks behind hold it and are tried only there.)
_SENTENCE_END = re.compile(r"\s(?:(?<=[.!?]\s)(?<!\b[A-Z]\.\s)(?<!e\.g\.\s)(?<!i\.e\.\s)(?<!\bal\.\s)(?<!vs\.\s)"
                           r"(?<!cf\.\s)|(?<=[.!?][\"'\u201d\u2019)\]]\s))\s*(?=[\"\u201c'(\[]?[A-Z0-9\ufdd0])")
_CLAIM = AnyCase(rf"(?:w{WORD_START}e|p{WORD_START}aper|w{WORD_START}ork|i{WORD_START})\s++(?:\S++\s++){{0,2}}?(?:" + "|".join(sorted(_CLAIM_FORMS, reverse=True))
                  + r")\b")
_HELD = re.compile("\ufdd0(\\d+)\ufdd1")
_NOT_TEXT = {0xFDD0: " ", 0xFDD1: " "}
_EMPHASIS = re.compile(r"\\(?:emph|textit|textbf|textsc|texttt|textrm|text)\{([^{}]*)\}|\*+|(?<!\w)_+|(?<!_)_++(?!\w)")
_OPENERS = "([{\"'\u201c\u2018"
_CLOSERS = ")]}\"'\u201d\u2019"
_PUNCTUATION = _CLOSERS + ".,;:!?"
_TOKEN = re.compile(r"\w+")
HTML_TAG = re.compile(r"</?[A-Za-z][\w:-]*(?:\s[^<>]*)?/?>")  # a tag, not the `<` of `$k<n$ or $m>2$`


class Word(NamedTuple):
    core: str           # as in the abstract (math verbatim), without surrounding brackets, quotes and punctuation
    lowered: str        # core in lower case
    sentence: int
    tokens: tuple[str, ...]  # lower-case word tokens, as token F1 counts them
    opens: bool         # starts with a bracket or a quote
    closes: bool        # ends a phrase: punctuation, a closing bracket or quote after it
    shape: str          # of core, as the word model sees it (_shape)
    # What the phrase rules ask of the word alone, read once with it (a word recurs in many abstracts):
    clausal: bool       # makes a sentence of a phrase (_CLAUSAL): never in a title
    may_open: bool      # a phrase may start on it (as far as the word tells: _may_start)
    may_close: bool     # a phrase may end on it (as far as the word tells: _phrase_parts)
    breaks: bool        # a phrase may end before it (_PHRASE_BREAK, a determiner aside)
    brackets: int       # the brackets it opens, less those it closes (_brackets)


@dataclass(frozen=True, eq=False)  # compared by identity: the weight sums below are cached per model
class TitleModel:
    weights: dict[str, float]
    bias: float
    title_tokens: float     # the typical length of a real title, in tokens
    name_in_title: float    # how often a named contribution's name is in the real title
    verbs: frozenset[str]   # words abstracts often write after a subject ('we', 'which'): finite verbs
    common_pairs: frozenset[str]  # two words many abstracts write together ('neural networks'): a field's name


def tokens_of(text: str) -> tuple[str, ...]:
    """Lower-case words, after `$`, backslashes of commands and HTML tags are removed."""
    text = re.sub(r"<[^<>]*>", " ", text)
    text = re.sub(r"\\(?=[A-Za-z])", "", text).replace("$", " ")
    return tuple(_TOKEN.findall(text.lower()))


class Abstract(NamedTuple):
    """What a title is chosen from."""
    words: tuple[Word, ...]  # of the sentences that may hold the title: the opening ones and the claims
    counts: Counter          # of each token in the whole abstract
    last_sentence: int


def read_abstract(abstract: str) -> Abstract:
    text, held = _hold_math(abstract)
    sentences = _SENTENCE_END.split(text)
    tokens = _TOKEN.findall((_HELD.sub(" ", text) if held else text).lower())
    words = []
    claims = 0
    for number, sentence in enumerate(sentences):
        claimed = claims < _CLAIM_SENTENCES and _CLAIM.found_in(sentence)
        claims += claimed
        if number < _OPENING_SENTENCES or claimed:
            pieces = sentence.split()
            words += ([_word(piece, number, held) for piece in pieces] if "\ufdd0" in sentence
                      else map(_prose_word, pieces, itertools.repeat(number)))  # (no formula: prose words alone)
    return Abstract(tuple(words), Counter(tokens), len(sentences) - 1)


def _hold_math(abstract: str) -> tuple[str, list[str]]:
    """The abstract's prose without emphasis markers, each formula held as one placeholder word."""
    held: list[str] = []
    pieces = []
    abstract = abstract.translate(_NOT_TEXT)  # the placeholder's own characters are never text
    for segment in split_math(abstract)[0]:
        text_only = text_only_math(segment.content) if segment.kind == "math" else None
        if segment.kind == "text" or text_only is not None:
            prose = text_only or segment.written
            marked = "*" in prose or "_" in prose or "\\" in prose
            prose = _EMPHASIS.sub(lambda m: m[1] or "", prose) if marked else prose
            pieces.append(TIE.sub(" ", prose) if "~" in prose else prose)  # two words, as the page shows them
        else:
            held.append(segment.written)
            pieces.append(f"\ufdd0{len(held) - 1}\ufdd1")
    return "".join(pieces), held


def _word(piece: str, sentence: int, held: list[str]) -> Word:
    if "\ufdd0" not in piece:
        return _prose_word(piece, sentence)
    bare = piece.rstrip(_PUNCTUATION)
    core = _HELD.sub(lambda m: held[int(m[1])], bare.lstrip(_OPENERS))
    return _new_word(core, core.lower(), sentence, tokens_of(core), *_opens_closes(piece, bare))


@functools.lru_cache(maxsize=1 << 16)  # abstracts share most of their words, and the first sentences' numbers
def _prose_word(piece: str, sentence: int) -> Word:
    bare = piece.rstrip(_PUNCTUATION)
    core = bare.lstrip(_OPENERS)
    lowered = core.lower()
    return _new_word(core, lowered, sentence, tuple(_TOKEN.findall(lowered)), *_opens_closes(piece, bare))


def _new_word(core: str, lowered: str, sentence: int, tokens: tuple[str, ...], opens: bool, closes: bool) -> Word:
    may_close = bool(tokens) and lowered not in _LINKING and not lowered.endswith(("-", "\u2013", "\u2014", "ly")) \
        and not (lowered.endswith("ed") and not lowered.endswith("eed"))  # "... Sensitivities Induced"
    return Word(core, lowered, sentence, tokens, opens, closes, _shape(core), clausal=lowered in _CLAUSAL,
                may_open=bool(tokens) and lowered not in _NOT_FIRST, may_close=may_close,
                breaks=lowered in _PHRASE_BREAK and lowered not in _DETERMINERS, brackets=_brackets(core))


def _brackets(core: str) -> int:
    """The brackets a word opens, less those it closes: a title closes what it opens, never "... at Most
    O(log" nor "n)-Space ..."."""
    return core.count("(") + core.count("[") - core.count(")") - core.count("]")


def _opens_closes(piece: str, bare: str) -> tuple[bool, bool]:
    stray = "$" in piece or "\\" in piece or "<" in piece  # a dollar, macro or tag outside math: never in a title
    return piece[:1] in _OPENERS or stray, len(bare) < len(piece) or "(" in bare or stray


_DIGIT = re.compile(r"\d")
_TWO_CAPITALS = re.compile(r"[A-Z][^A-Z]*[A-Z]")


def _shape(core: str) -> str:
    if "$" in core or "\\" in core:
        return "math"
    if not core.strip("-"):
        return "other"
    if _DIGIT.search(core):
        return "digit"
    if _TWO_CAPITALS.search(core):
        return "caps"
    if core[0].isupper():
        return "cap"
    return "long" if len(core) > 8 else "short"


def _describe(abstract: Abstract) -> list[tuple[int, tuple]]:
    """The words that may be in the title, with what the model weighs about each in its place: the word's
    index and the arguments of _context_features. (Its tokens are weighed by their count: _FREQUENCY.)"""
    words, _, last_sentence = abstract
    claims = _claims(words)
    expanded = _before_acronyms(words)
    described = []
    position = 0
    sentence = -1
    place = ""
    for index, word in enumerate(words):
        if word.sentence != sentence:
            sentence, position = word.sentence, 0
            place = "last" if sentence == last_sentence and sentence > 2 else str(min(sentence, 4))
        else:
            position += 1
        if not word.tokens:
            continue
        where = _WHERE[position] if position < len(_WHERE) else "10"
        context = (place, claims.get(index, "none"), word.shape, where, index in expanded)
        described.append((index, context))
    return described


# Buckets of a word's position in its sentence and of a token's count in the abstract.
_WHERE = ("0", "1", "1", "1", "4", "4", "4", "4", "4", "4")
_FREQUENCY = (1, 1, 2, 3, 3, 5)


def _context_features(place: str, claim: str, shape: str, where: str, expanded: bool) -> tuple:
    return (f"s:{place}", f"c:{claim}", f"sh:{shape}", f"c-s:{claim}:{place}", f"pos:{where}", f"acr:{expanded}")


def _token_features(identity: str, frequency: int, shape: str) -> tuple:
    return (identity, f"tf:{frequency}", f"tf-sh:{frequency}:{shape}")


def token_features(abstract: Abstract, vocabulary: Collection[str]) -> dict[int, list[tuple]]:
    """For the words that may be in the title, for each of their tokens: the features the model weighs.

    A token is known by itself when `vocabulary` holds its feature, else as one of the rare words.
    """
    features = {}
    counts = abstract.counts
    for index, context in _describe(abstract):
        shared = _context_features(*context)
        features[index] = [shared + _token_features(_identity(token, vocabulary), _FREQUENCY[min(counts[token], 5)],
                                                    context[2])
                           for token in abstract.words[index].tokens]
    return features


def _identity(token: str, vocabulary: Collection[str]) -> str:
    identity = f"w:{token}"
    return identity if identity in vocabulary else "w:?"


def token_probabilities(abstract: Abstract, model: TitleModel) -> dict[int, tuple[float, ...]]:
    """For the words that may be in the title: the probability that the real title holds each token."""
    words, counts, _ = abstract
    probabilities = {}
    exp = math.exp
    for index, context in _describe(abstract):
        word = words[index]
        if not word.clausal:  # (a word a title never holds needs none)
            base = model.bias + _context_weight(model, *context)
            shape = context[2]
            probabilities[index] = tuple([
                1 / (1 + exp(-base - _token_weight(model, token, _FREQUENCY[min(counts[token], 5)], shape)))
                for token in word.tokens])
    return probabilities


@functools.lru_cache(maxsize=4096)
def _context_weight(model: TitleModel, *context) -> float:
    return sum(model.weights.get(feature, 0.0) for feature in _context_features(*context))


@functools.lru_cache(maxsize=65536)
def _token_weight(model: TitleModel, token: str, *rest) -> float:
    features = _token_features(_identity(token, model.weights), *rest)
    return sum(model.weights.get(feature, 0.0) for feature in features)


def _before_acronyms(words: tuple[Word, ...]) -> set[int]:
    """Words of a phrase the abstract abbreviates: the five before '(ABC)'."""
    found: set[int] = set()
    for index, word in enumerate(words):
        if word.opens and word.shape == "caps":
            found.update(i for i in range(max(0, index - 5), index) if words[i].sentence == word.sentence)
    return found


def _claims(words: tuple[Word, ...]) -> dict[int, str]:
    """Words that follow a claim ('we propose ...', 'this paper studies ...') in its sentence, by its kind."""
    found: dict[int, str] = {}
    for index, word in enumerate(words):
        kind = _CLAIM_FORMS.get(word.lowered)
        if not kind or not any(w.lowered in {"we", "paper", "work", "i"} for w in words[max(0, index - 3):index]
                               if w.sentence == word.sentence):
            continue
        for after in range(index + 1, min(len(words), index + 1 + _LONGEST_SPAN)):
            if words[after].sentence != word.sentence:
                break
            found.setdefault(after, kind)
    return found


@functools.cache
def load_model(path: Path = MODEL) -> TitleModel:
    data = json.loads(path.read_text(encoding="utf-8"))
    return TitleModel(data["weights"], data["bias"], data["title_tokens"], data["name_in_title"],
                      frozenset(data["verbs"]), frozenset(data["common_pairs"]))


class Span(NamedTuple):
    start: int
    end: int  # exclusive
    expected_f1: float  # of the title this span makes, from the words' probabilities
    background: bool = False  # opens on others' work or the field at large: a title only when nothing else is


def candidate_spans(words: tuple[Word, ...], probabilities: dict[int, tuple[float, ...]], model: TitleModel,
                    name: str | None, room: int, shortest: int, shortest_specific: int | None = None) -> list[Span]:
    """Every well-formed phrase of one sentence that fits in `room` characters and closes the brackets it
    opens (none it did not), in the order of the text: of `shortest` words or more, or of
    `shortest_specific` or more besides a leading article when two of its words side by side are not a
    field's name (common_pairs)."""
    shortest_specific = shortest if shortest_specific is None else min(shortest, shortest_specific)
    named = tokens_of(name) if name else ()
    name_tokens = len(named)
    name_gain = model.name_in_title * name_tokens
    naming = _name_words(words, name)
    may_end, blocked, finite, joins = _phrase_parts(words, naming, model)
    chances = [probabilities.get(index, ()) for index in range(len(words))]
    # "the problem of" frames a subject the abstract states: the subject is a candidate even when short
    framings = [_framing(words, index) for index in range(len(words))]
    subjects = {index + framing for index, framing in enumerate(framings) if framing == 3}
    spans = []
    for start in probabilities:
        if blocked[start] or finite[start] or not _may_start(words, start) or framings[start]:
            continue
        background = _background(words, start)
        least = min(shortest, _SHORTEST_SUBJECT) if start in subjects else shortest
        gain, length, characters = name_gain, name_tokens, -1
        held = set(named)  # a token said twice in a title (the name's included) matches the real title's once
        leading_article = words[start].lowered in _ARTICLES  # "A Scalable Solution" says two words
        depth = 0  # brackets open in the span
        for end in range(start, min(len(words), start + _LONGEST_SPAN)):
            if end > start and not joins[end]:
                break
            current = words[end]
            depth += current.brackets
            if depth < 0:
                break
            for token, probability in zip(current.tokens, chances[end]):
                if token not in held:
                    gain += probability
                    held.add(token)
            length += len(current.tokens)
            characters += 1 + len(current.core)
            if characters > room:
                break
            count = end - start + 1
            if may_end[end] and not depth and (count >= least or count - leading_article >= shortest_specific
                                               and _whole(words, end) and _specific(words, start, end, model)):
                spans.append(Span(start, end + 1, 2 * gain / (length + model.title_tokens), background))
            if current.closes:
                break
    return spans


def _framing(words: tuple[Word, ...], start: int) -> int:
    """How many words of a phrase from `start` frame its subject: 3 for "the problem of ...", 2 for
    "problem of ..." after an article, else 0."""
    head = start + (words[start].lowered in _ARTICLES)
    if head + 1 < len(words) and words[head].lowered in _FRAMING_HEADS and words[head + 1].lowered == "of" \
            and head > 0 and words[head - 1].lowered in _ARTICLES:
        return head - start + 2
    return 0


def _background(words: tuple[Word, ...], start: int) -> bool:
    """Whether a phrase from `start` opens on what others did or the field at large (_BACKGROUND)."""
    first = words[start].lowered
    if first in _ARTICLES and start + 1 < len(words):
        first = words[start + 1].lowered
    return first in _BACKGROUND


def _whole(words: tuple[Word, ...], index: int) -> bool:
    """Whether a phrase ending on the word is whole: not 'Robust Experimental Design' of '... Design under
    Model Misspecification' (a short phrase must be)."""
    word = words[index]
    return word.closes or index + 1 == len(words) or words[index + 1].sentence != word.sentence \
        or words[index + 1].lowered not in _LINKING


def _specific(words: tuple[Word, ...], start: int, end: int, model: TitleModel) -> bool:
    """Whether two words of the phrase side by side (or two parts of one: 'Camera-Radar') are a pair few
    abstracts write together: not a field's name alone."""
    tokens = tuple(token for word in words[start:end + 1] for token in word.tokens)
    return any(pair not in model.common_pairs for pair in content_pairs(tokens))


def content_pairs(tokens: tuple[str, ...]) -> Iterator[str]:
    """Each two tokens side by side, neither a small word ('of', 'the'), as 'first second'."""
    return (f"{first} {second}" for first, second in zip(tokens, tokens[1:])
            if first not in _SMALL_WORDS and second not in _SMALL_WORDS)


def plain_words(text: str) -> list[str]:
    """The text's words in lower case without the brackets, quotes and punctuation around them, as a
    Word's `lowered`."""
    return [piece.rstrip(_PUNCTUATION).lstrip(_OPENERS) for piece in text.lower().split()]


def _phrase_parts(words: tuple[Word, ...], naming: set[int], model: TitleModel) -> tuple[list[bool], ...]:
    """Each word's part in a phrase, in one pass: whether a phrase may end on it; whether it blocks one (the name,
    a clausal word, a lone dash or '&'); whether it reads as a finite verb; whether a phrase may run on into it
    from the word before.

    A finite verb ('Tasks Contain Uncertainty') makes a clause of a title: one of the model's verbs, unless an
    article makes it a noun ('a study of'), 'to' an infinitive ('A Method to Learn') or 'that' a relative clause
    (_NOT_FINITE). A verb with its object after it ('requires many', 'supports a', 'showing that') may start a
    title ('Learning the Structure of ...'), never be held further on."""
    verbs = model.verbs
    may_end, blocked, finite, joins = [], [], [], []
    last = len(words) - 1
    before = None
    for index, word in enumerate(words):
        following = words[index + 1] if index < last else None
        ends_sentence = following is None or following.sentence != word.sentence
        lowered = word.lowered
        may_end.append(word.may_close and (word.closes or ends_sentence or following.opens or following.breaks))
        stops = index in naming or word.clausal or not word.tokens
        blocked.append(stops)
        verb = lowered in verbs and (before is None or before.lowered not in _NOT_FINITE)
        finite.append(verb)
        takes_object = not ends_sentence and not (lowered in _PHRASE_BEFORE or lowered in _LINKING) and (
            following.lowered in _OBJECT_START or (following.lowered == "that" and lowered.endswith(("ing", "ed"))))
        joins.append(before is not None and before.sentence == word.sentence
                     and not (stops or word.opens or verb or takes_object))
        before = word
    return may_end, blocked, finite, joins


def _name_words(words: tuple[Word, ...], name: str | None) -> set[int]:
    """Where the abstract writes the name, which the title already leads with (a name may be several words)."""
    if not name:
        return set()
    parts = name.lower().split()
    found = set()
    for index in range(len(words) - len(parts) + 1):
        if parts[0] in words[index].lowered and all(
                part == words[index + n].lowered for n, part in enumerate(parts[1:], 1)):
            found.update(range(index, index + len(parts)))
    return found


def _may_start(words: tuple[Word, ...], index: int) -> bool:
    word = words[index]
    if not word.may_open:
        return False
    if index == 0 or words[index - 1].sentence != word.sentence or words[index - 1].closes or word.opens:
        return True
    before = words[index - 1].lowered
    if before in _LINKING_VERBS:  # "is a method for ...", not "is crucial for ..."
        return word.lowered in _ARTICLES
    return before in _PHRASE_BEFORE or before in _CLAIM_FORMS


def derive_title(abstract: str, name: str | None, model: TitleModel | None = None) -> str:
    """'Name: phrase' when the abstract names its contribution, else the phrase, in title case."""
    return next(ranked_titles(abstract, name, model))


def ranked_titles(abstract: str, name: str | None, model: TitleModel | None = None) -> Iterator[str]:
    """The titles the abstract could have, best first (the first is derive_title's), a phrase on others'
    work after every other (_rank); last, what the rule says when no phrase fits: the name alone, else
    the abstract's opening words."""
    model = model or load_model()
    read = read_abstract(abstract)
    words = read.words
    prefix = f"{name}: " if name else ""
    room = MAX_TITLE - len(prefix) - 1  # 'a' may become 'an'
    probabilities = token_probabilities(read, model)
    name_tokens = tokens_of(name) if name else ()
    spans = candidate_spans(words, probabilities, model, name, room, _SHORTEST_SPAN[bool(name)],
                            _SHORTEST_SPECIFIC[bool(name)])
    while spans:
        best = max(spans, key=_rank)  # the first of equals
        spans.remove(best)
        if tuple(t for w in words[best.start:best.end] for t in w.tokens) != name_tokens:
            yield title_of(words, best, name)  # (not the name again in other words: "Pyramid BERT" for Pyramid-BERT)
    yield name or _opening(words) or "Untitled abstract"


def _rank(span: Span) -> tuple[bool, float]:
    """A phrase about others' work is a title only when the abstract offers no other (_BACKGROUND)."""
    return not span.background, span.expected_f1


def title_words(title: str) -> list[str]:
    """A title's lower-case words, without HTML tags, `$` or the backslashes of LaTeX commands:
    `<b>N</b>euron` is one word, `$\\alpha$` is `alpha`."""
    text = HTML_TAG.sub("", title).replace("$", "")
    return _TOKEN.findall(re.sub(r"\\(?=[A-Za-z])", "", text).lower())


def title_key(title: str) -> str:
    """What two titles share when they are the same title, case and punctuation aside."""
    return " ".join(title_words(title))


def distinct_titles(papers: list[Paper]) -> list[Paper]:
    """The papers, in order, no two of one venue-year with the same derived title (title_key).

    A title derives from one abstract, blind to the others: several abstracts of a venue-year may
    open with the same field phrase. The first paper (in the order given, the seeds') keeps its
    title; each later one takes its next-best title (ranked_titles) that no derived title of the
    venue-year has, or keeps its own when none is free. A title the list gives is never changed, and
    one a person edited is kept by ingest's merge, as every edited field is.
    """
    venue_years: dict[tuple, list[Paper]] = defaultdict(list)
    for paper in papers:
        if paper.title_source == "derived":
            venue_years[paper.venue, paper.year].append(paper)
    renamed: dict[str, Paper] = {}
    for group in venue_years.values():
        taken = {title_key(paper.title) for paper in group}
        kept: set[str] = set()
        for paper in group:
            if title_key(paper.title) not in kept:
                kept.add(title_key(paper.title))
                continue
            title = next((t for t in ranked_titles(paper.abstract, paper.name) if title_key(t) not in taken), None)
            if title:
                taken.add(title_key(title))
                renamed[paper.id] = replace(paper, title=title)
    return [renamed.get(paper.id, paper) for paper in papers]


def title_of(words: tuple[Word, ...], span: Span, name: str | None) -> str:
    # an expansion's capitals that mark its acronym's letters are not the title's ('REconstruction')
    phrase = [normalise_expansion(words[index].core) for index in range(span.start, span.end)]
    # an abstract's "a novel method" is a title's "A Method": titles seldom call themselves novel
    phrase = [word for word in phrase if word.lower() != "novel"] or phrase
    return (f"{name}: " if name else "") + title_case(articles_agree(phrase))


def _opening(words: tuple[Word, ...]) -> str:
    """The opening words of the abstract up to its first break or verb, when no phrase qualifies."""
    opening: list[str] = []
    for word in words[:_LONGEST_SPAN]:
        if not opening and word.lowered in _NOT_FIRST:  # "We ...", "In ...": from the first word a title may open
            continue
        if word.sentence or word.opens or not word.core or (opening and word.lowered in _CLAUSAL):
            break  # a noun phrase, not a sentence
        opening.append(word.core)
        if word.closes:
            break
    while opening and (opening[-1].lower() in _LINKING or opening[-1].endswith("-")
                       or sum(_brackets(word) for word in opening)):
        opening.pop()
    text = title_case(articles_agree(opening)) if opening else ""
    return text if len(text) <= MAX_TITLE else _cut_characters(text)


def _cut_characters(text: str) -> str:
    """A text with no word boundary to cut at (a Chinese sentence): cut it, never inside math."""
    cut = text[:MAX_TITLE - 1]
    if cut.count("$") % 2:
        cut = cut[:cut.rindex("$")]
    return cut.rstrip() + "\u2026"


def articles_agree(phrase: list[str]) -> list[str]:
    """'a' before a vowel sound is 'an' (an analysis, an LSTM), 'an' before a consonant sound is 'a'."""
    agreed = list(phrase)
    for index, word in enumerate(phrase[:-1]):
        if word.lower() in {"a", "an"}:
            vowel = _vowel_sound(phrase[index + 1])
            if vowel is not None:
                article = "an" if vowel else "a"
                agreed[index] = article.capitalize() if word[0].isupper() else article
    return agreed


_CONSONANT_SOUND = re.compile(r"u(?:ni|s[eu]|ti|biq|ra|re|ro|k)|eu|one\b|once\b", re.IGNORECASE)
_VOWEL_LETTERS = set("AEFHILMNORSX")


def _vowel_sound(word: str) -> bool | None:
    """Whether a word starts with a vowel sound; None when it cannot be told (math, a number)."""
    letters = word.lstrip(_OPENERS)
    if not letters[:1].isalpha():
        return None
    if re.fullmatch(r"[A-Z]{2,}[\w]*", letters.split("-")[0]) and not re.fullmatch(r"[A-Z][a-z]+", letters):
        return letters[0] in _VOWEL_LETTERS  # an acronym is read letter by letter
    return letters[0].lower() in "aeiou" and not _CONSONANT_SOUND.match(letters)


def title_case(text: str | list[str]) -> str:
    """Capitalise words, hyphen parts included; keep small words, acronyms and math as written."""
    words = text if isinstance(text, list) else _math_safe_split(text)
    out = []
    for index, word in enumerate(words):
        if "$" in word or "\\" in word:
            out.append(word)
            continue
        parts = word.split("-")
        cased = [part if n == 0 and len(parts) > 1 and _symbol(part)  # 'f-Divergences', as the abstract writes f
                 else _case_word(part, index > 0 and (n > 0 or len(parts) == 1)) for n, part in enumerate(parts)]
        out.append("-".join(cased))
    return " ".join(out)


def _latin(character: str) -> bool:
    """Latin letters (accents included) take a capital in a title; Greek ones are math symbols."""
    return character < "\u0250"


def _math_safe_split(text: str) -> list[str]:
    held_text, held = _hold_math(text)
    return [_HELD.sub(lambda m: held[int(m[1])], piece) for piece in held_text.split()]


def _symbol(part: str) -> bool:
    """Whether the first part of a compound is a lone letter, a symbol of math ('f-divergences', 'k-means')."""
    return len(part) == 1 and part.isalpha()


def _case_word(word: str, small_allowed: bool) -> str:
    """Small words stay lower case, except as the first word or the first part of a compound."""
    if not word or any(map(str.isupper, word[1:])) or any(map(str.isdigit, word)) or not _latin(word[0]):
        return word  # an acronym, a coined name, a number or a Greek letter ('α-Divergences'): as written
    if word.lower() in _SMALL_WORDS and small_allowed:
        return word.lower()
    return word[0].upper() + word[1:]
