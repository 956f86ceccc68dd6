"""A readable title derived from an abstract: the span of its words most likely to be the title.

Each word of the abstract gets the probability that the real title holds it, from a small
logistic model learned from real title-abstract pairs (catalogue/title_model.json, written by
bench/train_titles.py). Candidate spans are whole phrases of one sentence: they start where a
phrase starts and end where one ends, never on a word that needs another after it. The chosen
span maximises the expected token F1 against a title of typical length, so a span of unlikely
words loses to a shorter one: when nothing fits well the title says less. A named contribution
leads the title ("Name: span"). Math is kept exactly as the abstract writes it.
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from .markup import split_math, text_only_math

MAX_TITLE = 110
MODEL = Path(__file__).with_name("title_model.json")
_LONGEST_SPAN = 14
# A title without a name needs a few words to tell its paper from others ("Deep Neural Networks").
_SHORTEST_SPAN = {True: 2, False: 4}
_RERANKED = 40  # the span model reorders this many of the phrases with the best expected F1

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
}
# Words a title does not start with (a title may start with an article).
_NOT_FIRST = (_LINKING - _ARTICLES) | {"however", "moreover", "furthermore", "additionally", "finally",
                                       "specifically", "instead", "therefore", "consequently", "further"}
# Where a phrase may end: before one of these words, or at punctuation.
_PHRASE_BREAK = _LINKING | {"using", "called", "named", "termed", "dubbed", "known", "leading", "resulting",
                            "achieving", "making", "allowing", "enabling", "yielding", "showing", "without"}
# Words a phrase begins after: prepositions, articles, conjunctions, linking verbs, namings.
_PHRASE_BEFORE = (_SMALL_WORDS - {"to"}) | {"is", "are", "was", "were", "be", "been", "about", "versus", "against",
                                            "during", "called", "named", "termed", "dubbed", "using", "namely"}
# Words that make a sentence of a phrase (a verb follows them, or they are one): never inside a title.
_CLAUSAL = {"is", "are", "was", "were", "be", "been", "being", "has", "have", "had", "can", "could", "may", "might",
            "will", "would", "should", "must", "do", "does", "did", "we", "it", "they", "which", "who", "whose",
            "where", "when", "our", "their", "not", "also"}
# A phrase that ends right before one of these most likely ends on a verb ("... networks define the").
_DETERMINERS = {"the", "a", "an", "this", "these", "those", "our", "their", "its", "each", "every", "all", "any",
                "some", "such"}
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
_ABBREVIATIONS = {"e.g.", "i.e.", "al.", "vs.", "cf.", "etc.", "fig.", "eq.", "resp.", "approx.", "w.r.t."}
_HELD = re.compile("\ufdd0(\\d+)\ufdd1")
_EMPHASIS = re.compile(r"\\(?:emph|textit|textbf|textsc|texttt|textrm|text)\{([^{}]*)\}|\*+|(?<!\w)_+|_+(?!\w)")
_OPENERS = "([{\"'\u201c\u2018"
_CLOSERS = ")]}\"'\u201d\u2019"


@dataclass(frozen=True)
class Word:
    written: str        # as in the abstract, math verbatim
    core: str           # without surrounding brackets, quotes and punctuation
    sentence: int
    tokens: tuple[str, ...]  # lower-case word tokens, as token F1 counts them
    opens: bool         # starts with a bracket or a quote
    closes: bool        # ends a phrase: punctuation, a closing bracket or quote after it


@dataclass(frozen=True)
class TitleModel:
    weights: dict[str, float]
    bias: float
    title_tokens: float     # the typical length of a real title, in tokens
    name_in_title: float    # how often a named contribution's name is in the real title
    span_weights: tuple[float, ...]  # a linear score of span_features


def tokens_of(text: str) -> tuple[str, ...]:
    """Lower-case words, after `$`, backslashes of commands and HTML tags are removed."""
    text = re.sub(r"<[^<>]*>", " ", text)
    text = re.sub(r"\\(?=[A-Za-z])", "", text).replace("$", " ")
    return tuple(re.findall(r"\w+", text.lower()))


def words_of(abstract: str) -> tuple[Word, ...]:
    """The abstract's words in order; a formula is one word, written as in the abstract."""
    held: list[str] = []
    pieces = []
    for segment in split_math(abstract)[0]:
        text_only = text_only_math(segment.content) if segment.kind == "math" else None
        if segment.kind == "text" or text_only is not None:
            pieces.append(_EMPHASIS.sub(lambda m: m[1] or "", text_only or segment.written))
        else:
            held.append(segment.written)
            pieces.append(f"\ufdd0{len(held) - 1}\ufdd1")
    raw = "".join(pieces).split()
    words = []
    sentence = 0
    for index, piece in enumerate(raw):
        written = _HELD.sub(lambda m: held[int(m[1])], piece)
        core = piece.lstrip(_OPENERS).rstrip(_CLOSERS + ".,;:!?")
        core = _HELD.sub(lambda m: held[int(m[1])], core)
        trailing = piece[len(piece.rstrip(_CLOSERS + ".,;:!?")):]
        words.append(Word(written, core, sentence, tokens_of(written), piece[:1] in _OPENERS,
                          bool(trailing) or piece.count("(") > piece.count(")")))
        following = raw[index + 1] if index + 1 < len(raw) else ""
        if _ends_sentence(piece, following):
            sentence += 1
    return tuple(words)


def _ends_sentence(piece: str, following: str) -> bool:
    stripped = piece.rstrip(_CLOSERS)
    if not stripped.endswith((".", "!", "?")) or piece.lower() in _ABBREVIATIONS:
        return False
    if re.search(r"(?:^|\.)[A-Z]\.$", stripped):  # an initial: "J. Smith", "U.S."
        return False
    return not following or following.lstrip(_OPENERS)[:1].isupper() or following[:1].isdigit() \
        or following[:1] in "\ufdd0$"


def token_features(words: tuple[Word, ...], vocabulary: Collection[str]) -> list[list[list[str]]]:
    """For each word, for each of its tokens: the features the model weighs (shared with training).

    A token is known by itself when `vocabulary` holds its feature, else as one of the rare words.
    """
    counts: dict[str, int] = {}
    sentences: dict[str, set[int]] = {}
    for word in words:
        for token in word.tokens:
            counts[token] = counts.get(token, 0) + 1
            sentences.setdefault(token, set()).add(word.sentence)
    pairs: dict[tuple[str, str], int] = {}  # a phrase the abstract repeats is what it is about
    for before, after in zip(words, words[1:]):
        if before.tokens and after.tokens and before.sentence == after.sentence:
            pair = (before.tokens[-1], after.tokens[0])
            pairs[pair] = pairs.get(pair, 0) + 1
    last_sentence = words[-1].sentence if words else 0
    claims = _claims(words)
    expanded = _before_acronyms(words)
    features = []
    seen: set[str] = set()
    position = 0
    for index, word in enumerate(words):
        sentence = word.sentence
        position = 0 if index == 0 or words[index - 1].sentence != sentence else position + 1
        place = "last" if sentence == last_sentence and sentence > 2 else str(min(sentence, 4))
        claim = claims.get(index, "none")
        shape = _shape(word.core)
        where = "0" if position == 0 else "1" if position < 4 else "4" if position < 10 else "10"
        previous = words[index - 1].tokens[-1:] if index and words[index - 1].tokens else ()
        following = words[index + 1].tokens[:1] if index + 1 < len(words) and words[index + 1].tokens else ()
        repeated = max(pairs.get((previous[0], word.tokens[0]), 0) if previous and word.tokens else 0,
                       pairs.get((word.tokens[-1], following[0]), 0) if following and word.tokens else 0)
        phrase = f"pair:{min(repeated, 3)}"
        acronym = "acr:yes" if index in expanded else "acr:no"
        per_word = []
        for token in word.tokens:
            count = counts[token]
            frequency = "1" if count == 1 else "2" if count == 2 else "3" if count <= 4 else "5"
            spread = str(min(len(sentences[token]), 3))
            identity = f"w:{token}"
            per_word.append([identity if identity in vocabulary else "w:?", f"tf:{frequency}", f"s:{place}",
                             f"c:{claim}", f"sh:{shape}", f"tf-sh:{frequency}:{shape}", f"c-s:{claim}:{place}",
                             "seen" if token in seen else "new", f"pos:{where}", f"spread:{spread}",
                             f"first:{min(min(sentences[token]), 3)}", f"spread-sh:{spread}:{shape}", phrase,
                             acronym, f"{phrase}:{shape}"])
            seen.add(token)
        features.append(per_word)
    return features


def _before_acronyms(words: tuple[Word, ...]) -> set[int]:
    """Words of a phrase the abstract abbreviates: the five before '(ABC)'."""
    found: set[int] = set()
    for index, word in enumerate(words):
        if word.opens and _shape(word.core) == "caps":
            found.update(i for i in range(max(0, index - 5), index) if words[i].sentence == word.sentence)
    return found


def _shape(core: str) -> str:
    if "$" in core or "\\" in core:
        return "math"
    letters = core.replace("-", "")
    if not letters:
        return "other"
    if any(c.isdigit() for c in letters):
        return "digit"
    if sum(c.isupper() for c in letters) >= 2:
        return "caps"
    if letters[:1].isupper():
        return "cap"
    return "long" if len(letters) > 7 else "short"


def _claims(words: tuple[Word, ...]) -> dict[int, str]:
    """Words that follow a claim ('we propose ...', 'this paper studies ...') in its sentence, by its kind."""
    found: dict[int, str] = {}
    for index, word in enumerate(words):
        kind = _claim_kind(word.core.lower())
        if not kind or not any(w.core.lower() in {"we", "paper", "work", "i"} for w in words[max(0, index - 3):index]
                               if w.sentence == word.sentence):
            continue
        for after in range(index + 1, min(len(words), index + 1 + _LONGEST_SPAN)):
            if words[after].sentence != word.sentence:
                break
            found.setdefault(after, kind)
    return found


def _claim_kind(lowered: str) -> str | None:
    for ending in ("", "s", "es", "d", "ed"):
        if ending and lowered.endswith(ending) and lowered[:-len(ending)] in _CLAIM_VERBS:
            return _CLAIM_VERBS[lowered[:-len(ending)]]
    return _CLAIM_VERBS.get(lowered)


@functools.cache
def load_model(path: Path = MODEL) -> TitleModel:
    data = json.loads(path.read_text(encoding="utf-8"))
    return TitleModel(data["weights"], data["bias"], data["title_tokens"], data["name_in_title"],
                      tuple(data["span_weights"]))


def token_probabilities(words: tuple[Word, ...], model: TitleModel) -> list[list[float]]:
    weights = model.weights
    return [[1 / (1 + math.exp(-(model.bias + sum(weights.get(f, 0.0) for f in features))))
             for features in per_word] for per_word in token_features(words, weights)]


@dataclass(frozen=True)
class Span:
    start: int
    end: int  # exclusive
    expected_f1: float  # of the title this span makes, from the words' probabilities


def candidate_spans(words: tuple[Word, ...], probabilities: list[list[float]], model: TitleModel,
                    name: str | None, room: int) -> list[Span]:
    """Every well-formed phrase of one sentence that fits in `room` characters, best expected F1 first."""
    name_tokens = len(tokens_of(name)) if name else 0
    name_gain = model.name_in_title * name_tokens
    naming = _name_words(words, name)
    shortest = _SHORTEST_SPAN[bool(name)]
    spans = []
    for start, word in enumerate(words):
        if start in naming or not _may_start(words, start):
            continue
        gain, length, characters = name_gain, name_tokens, -1
        held: set[str] = set()  # a token said twice in a title matches the real title's once
        for end in range(start, min(len(words), start + _LONGEST_SPAN)):
            current = words[end]
            if current.sentence != word.sentence or (end > start and current.opens) or end in naming \
                    or current.core.lower() in _CLAUSAL:
                break
            for token, probability in zip(current.tokens, probabilities[end]):
                gain += 0.0 if token in held else probability
                held.add(token)
            length += len(current.tokens)
            characters += 1 + len(current.core)
            if characters > room:
                break
            if end - start + 1 >= shortest and _may_end(words, end):
                spans.append(Span(start, end + 1, 2 * gain / (length + model.title_tokens)))
            if current.closes:
                break
    spans.sort(key=lambda span: (-span.expected_f1, span.start, span.end))
    return spans


def span_features(words: tuple[Word, ...], probabilities: list[list[float]], span: Span,
                  claims: dict[int, str], named: bool) -> list[float]:
    """What the span model weighs beyond the expected F1: where the phrase is and how it is built."""
    first, last = words[span.start], words[span.end - 1]
    before = [w.core.lower() for w in words[max(0, span.start - 2):span.start] if w.sentence == first.sentence]
    lowered = [w.core.lower() for w in words[span.start:span.end]]
    inside = [p for per_word in probabilities[span.start:span.end] for p in per_word]
    size = span.end - span.start
    last_sentence = words[-1].sentence
    right_after_claim = bool(before) and (_claim_kind(before[-1]) is not None or (
        len(before) == 2 and before[-1] in _ARTICLES and _claim_kind(before[0]) is not None))
    return [
        span.expected_f1, size / 10, (size / 10) ** 2, len(inside) / 10, float(named),
        sum(inside) / max(1, len(inside)), min(inside, default=0.0), sum(probabilities[span.start]),
        sum(probabilities[span.end - 1]),
        float(first.sentence == 0), float(first.sentence == 1), float(first.sentence == last_sentence),
        float(claims.get(span.start) == "introduce"), float(claims.get(span.start) == "study"),
        float(claims.get(span.start) == "show"), float(right_after_claim),
        float(lowered[0] in _ARTICLES), float(first.core[:1].isupper() and bool(before)),
        float(lowered[0].endswith("ing")), float(lowered[-1].endswith("ing")), float(lowered[-1].endswith("s")),
        float(lowered[-1].endswith("ed")), float(last.closes), float(any(w in _SMALL_WORDS for w in lowered[1:])),
        float("of" in lowered), float("for" in lowered), float("and" in lowered),
        float(any("$" in w.core for w in words[span.start:span.end])), float(_shape(last.core) in {"caps", "cap"}),
        sum(w.core[:1].isupper() for w in words[span.start:span.end]) / size,
    ]


def best_span(words: tuple[Word, ...], model: TitleModel, name: str | None, room: int) -> Span | None:
    """The candidate phrase the span model scores highest, among the best by expected F1."""
    probabilities = token_probabilities(words, model)
    spans = candidate_spans(words, probabilities, model, name, room)[:_RERANKED]
    if not spans:
        return None
    claims = _claims(words)
    scores = [sum(w * f for w, f in zip(model.span_weights,
                                        span_features(words, probabilities, span, claims, bool(name))))
              for span in spans]
    return spans[max(range(len(spans)), key=lambda i: (scores[i], -i))]


def _name_words(words: tuple[Word, ...], name: str | None) -> set[int]:
    """Where the abstract writes the name, which the title already leads with (a name may be several words)."""
    if not name:
        return set()
    parts = name.split()
    found = set()
    for index in range(len(words) - len(parts) + 1):
        if parts[0] in words[index].core and all(
                part.lower() == words[index + n].core.lower() for n, part in enumerate(parts[1:], 1)):
            found.update(range(index, index + len(parts)))
    return found


def _may_start(words: tuple[Word, ...], index: int) -> bool:
    word = words[index]
    lowered = word.core.lower()
    if not word.core or lowered in _NOT_FIRST or not word.tokens:
        return False
    if index == 0 or words[index - 1].sentence != word.sentence or words[index - 1].closes or word.opens:
        return True
    before = words[index - 1].core.lower()
    return before in _PHRASE_BEFORE or _claim_kind(before) is not None


def _may_end(words: tuple[Word, ...], index: int) -> bool:
    word = words[index]
    lowered = word.core.lower()
    if lowered in _LINKING or lowered.endswith(("-", "ly")) or not word.tokens:
        return False
    if word.closes or index + 1 == len(words) or words[index + 1].sentence != word.sentence:
        return True
    following = words[index + 1]
    lowered = following.core.lower()
    return following.opens or (lowered in _PHRASE_BREAK and lowered not in _DETERMINERS)


def derive_title(abstract: str, name: str | None, model: TitleModel | None = None) -> str:
    """'Name: phrase' when the abstract names its contribution, else the phrase, in title case."""
    model = model or load_model()
    words = words_of(abstract)
    prefix = f"{name}: " if name else ""
    span = best_span(words, model, name, MAX_TITLE - len(prefix) - 1)  # 'a' may become 'an'
    if span is None:
        return name or _opening(words) or "Untitled abstract"
    return title_of(words, span, name)


def title_of(words: tuple[Word, ...], span: Span, name: str | None) -> str:
    phrase = [words[index].core for index in range(span.start, span.end)]
    return (f"{name}: " if name else "") + title_case(_articles_agree(phrase))


def _opening(words: tuple[Word, ...]) -> str:
    """The first words of the abstract, when no phrase qualifies (a text of one long formula, say)."""
    text = " ".join(w.core for w in words[:12] if w.sentence == 0 and w.core)
    return text if len(text) <= MAX_TITLE else _cut_characters(text)


def _cut_characters(text: str) -> str:
    """A text with no word boundary to cut at (a Chinese sentence): cut it, never inside math."""
    cut = text[:MAX_TITLE - 1]
    if cut.count("$") % 2:
        cut = cut[:cut.rindex("$")]
    return cut.rstrip() + "\u2026"


def _articles_agree(phrase: list[str]) -> list[str]:
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
        cased = [_case_word(part, index > 0 and (n > 0 or len(parts) == 1)) for n, part in enumerate(parts)]
        out.append("-".join(cased))
    return " ".join(out)


def _math_safe_split(text: str) -> list[str]:
    return [w.written for w in words_of(text)]


def _case_word(word: str, small_allowed: bool) -> str:
    """Small words stay lower case, except as the first word or the first part of a compound."""
    if not word or any(c.isupper() for c in word[1:]) or any(c.isdigit() for c in word):
        return word  # an acronym, a coined name or a number: as written
    if word.lower() in _SMALL_WORDS and small_allowed:
        return word.lower()
    return word[0].upper() + word[1:]
