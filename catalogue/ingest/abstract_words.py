"""An abstract read as the words a title may be made of: its opening sentences and the first that state a
claim, each word with what the title rules ask of the word alone (its shape, whether a phrase may open
or close on it, the brackets it opens), math held whole as the abstract writes it; with the lists of
words those rules read.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections import Counter
from typing import NamedTuple

from catalogue.markup.formulas import text_only_math
from catalogue.markup.latex_text import TIE
from catalogue.markup.segments import split_math
from catalogue.text import WORD_START, AnyCase

LONGEST_SPAN = 14
# The title is looked for in the opening sentences and in the first sentences that state a claim.
_OPENING_SENTENCES = 2
_CLAIM_SENTENCES = 2

ARTICLES = {"a", "an", "the"}
SMALL_WORDS = {"a", "an", "the", "and", "or", "but", "nor", "for", "of", "in", "on", "at", "to", "by",
               "via", "with", "from", "as", "into", "over", "per", "vs", "than", "through", "across",
               "under", "within", "without", "between", "among", "beyond", "toward", "towards", "upon"}
# Words after which a phrase is not finished.
LINKING = SMALL_WORDS | {
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
NOT_FIRST = (LINKING - ARTICLES) | {"however", "moreover", "furthermore", "additionally", "finally",
                                    "specifically", "instead", "therefore", "consequently", "further"}
# Where a phrase may end: before one of these words, or at punctuation.
_PHRASE_BREAK = LINKING | {"using", "called", "named", "termed", "dubbed", "known", "leading", "resulting",
                           "achieving", "making", "allowing", "enabling", "yielding", "showing", "without"}
# Words that make a sentence of a phrase (a verb follows them, or they are one): never inside a title.
CLAUSAL = {"is", "are", "was", "were", "be", "been", "being", "has", "have", "had", "can", "could", "may", "might",
           "will", "would", "should", "must", "do", "does", "did", "we", "it", "they", "which", "who", "whose",
           "where", "when", "whether", "how", "what", "why", "if", "our", "their", "not", "also"}
# A phrase that ends right before one of these most likely ends on a verb ("... networks define the").
DETERMINERS = {"the", "a", "an", "this", "these", "those", "our", "their", "its", "each", "every", "all", "any",
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
# Each claim verb as written (proposes, studied, ...), and the kind of claim it makes.
CLAIM_FORMS = {form: kind for verb, kind in _CLAIM_VERBS.items()
               for form in ((verb, verb[:-1] + "ies", verb[:-1] + "ied") if verb.endswith("y") else
                            (verb, verb + "s", verb + "d", verb + "ed", verb + "es"))}
# A sentence ends at . ! or ? (and a closing quote or bracket) before a capital, a digit or a formula;
# not after an initial (J. Smith, U.S.) or a common abbreviation. (The pattern starts with the space, which the
# regular expression engine skips to at once; the looks behind hold it and are tried only there.)
_SENTENCE_END = re.compile(r"\s(?:(?<=[.!?]\s)(?<!\b[A-Z]\.\s)(?<!e\.g\.\s)(?<!i\.e\.\s)(?<!\bal\.\s)(?<!vs\.\s)"
                           r"(?<!cf\.\s)|(?<=[.!?][\"'\u201d\u2019)\]]\s))\s*(?=[\"\u201c'(\[]?[A-Z0-9\ufdd0])")
_CLAIM = AnyCase(rf"(?:w{WORD_START}e|p{WORD_START}aper|w{WORD_START}ork|i{WORD_START})\s++(?:\S++\s++){{0,2}}?(?:" + "|".join(sorted(CLAIM_FORMS, reverse=True))
                  + r")\b")
_HELD = re.compile("\ufdd0(\\d+)\ufdd1")
_NOT_TEXT = {0xFDD0: " ", 0xFDD1: " "}
_EMPHASIS = re.compile(r"\\(?:emph|textit|textbf|textsc|texttt|textrm|text)\{([^{}]*)\}|\*+|(?<!\w)_+|(?<!_)_++(?!\w)")
OPENERS = "([{\"'\u201c\u2018"
CLOSERS = ")]}\"'\u201d\u2019"
_PUNCTUATION = CLOSERS + ".,;:!?"
TOKEN = re.compile(r"\w+")


class Word(NamedTuple):
    core: str           # as in the abstract (math verbatim), without surrounding brackets, quotes and punctuation
    lowered: str        # core in lower case
    sentence: int
    tokens: tuple[str, ...]  # lower-case word tokens, as token F1 counts them
    opens: bool         # starts with a bracket or a quote
    closes: bool        # ends a phrase: punctuation, a closing bracket or quote after it
    shape: str          # of core, as the word model sees it (_shape)
    # What the phrase rules ask of the word alone, read once with it (a word recurs in many abstracts):
    clausal: bool       # makes a sentence of a phrase (CLAUSAL): never in a title
    may_open: bool      # a phrase may start on it (as far as the word tells: _may_start)
    may_close: bool     # a phrase may end on it (as far as the word tells: _phrase_parts)
    breaks: bool        # a phrase may end before it (_PHRASE_BREAK, a determiner aside)
    brackets: int       # the brackets it opens, less those it closes (open_brackets)


def tokens_of(text: str) -> tuple[str, ...]:
    """Lower-case words, after `$`, backslashes of commands and HTML tags are removed."""
    text = re.sub(r"<[^<>]*>", " ", text)
    text = re.sub(r"\\(?=[A-Za-z])", "", text).replace("$", " ")
    return tuple(TOKEN.findall(text.lower()))


class Abstract(NamedTuple):
    """What a title is chosen from."""
    words: tuple[Word, ...]  # of the sentences that may hold the title: the opening ones and the claims
    counts: Counter          # of each token in the whole abstract
    last_sentence: int


def read_abstract(abstract: str) -> Abstract:
    text, held = _hold_math(abstract)
    sentences = _SENTENCE_END.split(text)
    tokens = TOKEN.findall((_HELD.sub(" ", text) if held else text).lower())
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
    core = _with_math(bare.lstrip(OPENERS), held)
    return _new_word(core, core.lower(), sentence, tokens_of(core), *_opens_closes(piece, bare))


@functools.lru_cache(maxsize=1 << 16)  # abstracts share most of their words, and the first sentences' numbers
def _prose_word(piece: str, sentence: int) -> Word:
    bare = piece.rstrip(_PUNCTUATION)
    core = bare.lstrip(OPENERS)
    lowered = core.lower()
    return _new_word(core, lowered, sentence, tuple(TOKEN.findall(lowered)), *_opens_closes(piece, bare))


def _new_word(core: str, lowered: str, sentence: int, tokens: tuple[str, ...], opens: bool, closes: bool) -> Word:
    may_close = bool(tokens) and lowered not in LINKING and not lowered.endswith(("-", "\u2013", "\u2014", "ly")) \
        and not (lowered.endswith("ed") and not lowered.endswith("eed"))  # "... Sensitivities Induced"
    return Word(core, lowered, sentence, tokens, opens, closes, _shape(core), clausal=lowered in CLAUSAL,
                may_open=bool(tokens) and lowered not in NOT_FIRST, may_close=may_close,
                breaks=lowered in _PHRASE_BREAK and lowered not in DETERMINERS, brackets=open_brackets(core))


def open_brackets(core: str) -> int:
    """The brackets a word opens, less those it closes: a title closes what it opens, never "... at Most
    O(log" nor "n)-Space ..."."""
    return core.count("(") + core.count("[") - core.count(")") - core.count("]")


def _opens_closes(piece: str, bare: str) -> tuple[bool, bool]:
    stray = "$" in piece or "\\" in piece or "<" in piece  # a dollar, macro or tag outside math: never in a title
    return piece[:1] in OPENERS or stray, len(bare) < len(piece) or "(" in bare or stray


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


def plain_words(text: str) -> list[str]:
    """The text's words in lower case without the brackets, quotes and punctuation around them, as a
    Word's `lowered`."""
    return [piece.rstrip(_PUNCTUATION).lstrip(OPENERS) for piece in text.lower().split()]


def math_safe_split(text: str) -> list[str]:
    held_text, held = _hold_math(text)
    return [_with_math(piece, held) for piece in held_text.split()]


def sentence_pieces(abstract: str) -> list[list[str]]:
    """The abstract's sentences, each as its whitespace-separated pieces (punctuation attached), math whole."""
    text, held = _hold_math(abstract)
    return [[_with_math(piece, held) for piece in sentence.split()] for sentence in _SENTENCE_END.split(text)]


def _with_math(piece: str, held: list[str]) -> str:
    """A piece of text held by _hold_math with its math put back."""
    return _HELD.sub(lambda m: held[int(m[1])], piece) if held else piece
