"""The text rules every stage shares: characters a page must not carry, the only line breaks seed
files have, the CJK ranges, how text folds into searchable words, and where a text's web addresses
and sentences are."""

from __future__ import annotations

import functools
import re
import sys
import unicodedata
from collections.abc import Iterator

# Kana, CJK ideographs (extension A, unified, compatibility) and Hangul syllables: scripts written
# without spaces between words. As a regular-expression class body (assets/common.js has the same).
CJK_CHARACTERS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"

# C0/C1 control characters other than tab, line feed, form feed and carriage return, Unicode
# noncharacters and lone surrogates (half a character, which a JSON escape can write): HTML forbids
# them, UTF-8 cannot carry the last, and they arrive from PDFs, spreadsheets and exports.
_NONCHARACTERS = "".join(chr(plane * 0x10000 + 0xFFFE) + chr(plane * 0x10000 + 0xFFFF) for plane in range(17))
UNSAFE = re.compile(f"[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef{_NONCHARACTERS}]")
# Editors and `grep -n` count lines this way; str.splitlines also breaks on \f, \x1c or \u2028.
LINE_BREAK = re.compile(r"\r\n|\r|\n")


# UNSAFE's characters and every other one from U+1FFFE up (rare in text: CJK extension B onwards and
# private use): one range for the sixteen pairs of noncharacters there, many times quicker to search.
_MAYBE_UNSAFE = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff"
                           "\U0001fffe-\U0010ffff]")


def replace_unsafe(text: str, by: str = "\ufffd") -> str:
    return UNSAFE.sub(by, text) if _MAYBE_UNSAFE.search(text) else text


def has_unsafe(text: str) -> bool:
    return _MAYBE_UNSAFE.search(text) is not None and UNSAFE.search(text) is not None


def count_unsafe(text: str) -> int:
    return len(UNSAFE.findall(text)) if _MAYBE_UNSAFE.search(text) else 0


def split_lines(text: str) -> list[str]:
    return LINE_BREAK.split(text)


# Characters that show nothing or reorder what follows: bidi embeddings, overrides, isolates and marks,
# zero-width spaces and joiners, the word joiner, invisible operators, the byte-order mark, the soft
# hyphen, tags. Lists carry them by accident (a PDF copy) or to spoof a title or a name.
INVISIBLE = re.compile("[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff"
                       "\ufff9-\ufffb\U000e0001\U000e0020-\U000e007f]")
# Zero-width non-joiner and joiner between two letters of a script that needs them (Persian, Indic
# scripts, emoji sequences): kept there, removed between Latin letters or beside a space.
_JOINER = re.compile(r"(?<=[^\x00-\x7f\s])[\u200c\u200d](?=[^\x00-\x7f\s])")


def without_invisible(text: str) -> tuple[str, int]:
    """(text without INVISIBLE's characters, how many were removed); a joiner a script needs stays."""
    if text.isascii():  # most text: nothing to look at
        return text, 0
    kept = [match.start() for match in _JOINER.finditer(text) if _joins_letters(text, match.start())]
    if not kept:
        cleaned = INVISIBLE.sub("", text)
        return cleaned, len(text) - len(cleaned)
    parts, start = [], 0
    for at in kept:
        parts += [INVISIBLE.sub("", text[start:at]), text[at]]
        start = at + 1
    cleaned = "".join(parts) + INVISIBLE.sub("", text[start:])
    return cleaned, len(text) - len(cleaned)


def _joins_letters(text: str, at: int) -> bool:
    """Whether the joiner at `at` stands between two letters, marks or symbols (not digits or punctuation)."""
    return all(unicodedata.category(text[side])[0] in "LMS" for side in (at - 1, at + 1))


# What must not reach a terminal or a one-line message: control characters (line breaks and
# tabs included), and the marks that reorder or break lines (a name could hide its real text).
TERMINAL_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def printable(text: str) -> str:
    """text with every character a terminal would act on written as an escape (\\x1b, \\u202e)."""
    return TERMINAL_UNSAFE.sub(lambda match: match[0].encode("unicode_escape", "backslashreplace").decode("ascii"),
                               text)


# Words too common to search for or to relate papers by.
STOPWORDS = frozenset("""a about above across after again against all also although among an and any are as at
be because been before being below between both but by can could did do does doing done during each either
even every few for from further had has have having here how however i if in into is it its itself just
less many may more most much must new no nor not novel of off often on once only or other our ours out over
own paper per propose proposed rather same several should show shows so some such than that the their them
then there these they this those through thus to too under until up upon us use used uses using very via
was we were what when where whether which while who whom why will with within without would yet""".split())


# Chinese, Japanese and Korean runs have no spaces between words: they are cut into overlapping
# two-character pieces (强化学习 -> 强化 化学 学习), which match a query cut the same way.
WORD = re.compile(r"[^\W_]+")
CJK_RUN = re.compile(f"[{CJK_CHARACTERS}]+")


def has_cjk(text: str) -> bool:
    """Whether text holds Chinese, Japanese or Korean characters (ASCII text, most of it, is not searched)."""
    return not text.isascii() and CJK_RUN.search(text) is not None


def words(text: str) -> list[str]:
    """Lower-case words with plurals folded, CJK runs as bigrams (assets/common.js's catalogueWords
    does the same: tests/test_text.py compares them over the corpus)."""
    text = text.lower()
    if not has_cjk(text):  # most text: words only
        return list(map(stem, WORD.findall(text)))
    result = []
    for token in WORD.findall(CJK_RUN.sub(lambda run: f" {run.group()} ", text)):
        if CJK_RUN.fullmatch(token):
            result += [token[i:i + 2] for i in range(max(1, len(token) - 1))]
        else:
            result.append(stem(token))
    return result


@functools.lru_cache(maxsize=1 << 16)  # a catalogue has a few tens of thousands of distinct words
def stem(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith("es") and word[-3] in "sxzh":
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


# Written after a pattern's first letter where `\b` would stand before it ('w(?<!\w\w)e' for '\bwe'): the
# same matches, but a pattern that opens with a letter lets the engine skip to that letter instead of
# trying the whole pattern at every character.
WORD_START = r"(?<!\w\w)"


class AnyCase:
    """A regular expression of lower-case text, found in text of any case. ASCII text is lower-cased
    and searched case-sensitively, several times faster than re.IGNORECASE with the same matches;
    other text (where "ſ" or "K" fold to ASCII letters) is searched with re.IGNORECASE. A match's
    positions are the text's (lower-casing ASCII keeps every character's place), its groups may be
    lower-cased: read the text at those positions."""

    def __init__(self, pattern: str, needs: tuple[str, ...] = ()) -> None:
        """`needs`: lower-case words one of which every match holds; text without any is answered at once."""
        self._exact = re.compile(pattern)
        self._folded = re.compile(pattern, re.IGNORECASE)
        self._needs = needs

    def found_in(self, text: str, start: int = 0, end: int = sys.maxsize) -> bool:
        return self.search(text, start, end) is not None

    def search(self, text: str, start: int = 0, end: int = sys.maxsize) -> re.Match | None:
        lowered = _ascii_lowered(text)
        if lowered is None:
            return self._folded.search(text, start, end)
        return self._exact.search(lowered, start, end) if self._may_hold(lowered) else None

    def finditer(self, text: str) -> Iterator[re.Match]:
        lowered = _ascii_lowered(text)
        if lowered is None:
            return self._folded.finditer(text)
        return self._exact.finditer(lowered) if self._may_hold(lowered) else iter(())

    def _may_hold(self, lowered: str) -> bool:
        return not self._needs or holds_any(lowered, self._needs)


def holds_any(text: str, parts: tuple[str, ...]) -> bool:
    """Whether the text holds one of the parts (a loop: any() over a generator costs more than most tests)."""
    for part in parts:
        if part in text:
            return True
    return False


@functools.lru_cache(maxsize=64)  # several patterns read each sentence in turn
def _ascii_lowered(text: str) -> str | None:
    """The text in lower case when it is ASCII (every character keeps its place), else None."""
    return text.lower() if text.isascii() else None


# Web addresses written in abstracts: full URLs and bare domains like causalgame.github.io.
# Bare domains count only with a TLD that abstracts use for project pages, so that
# "e.g." or "Node.js" never become links.
_BARE_TLDS = r"(?:github\.io|gitlab\.io|com|org|net|io|ai|dev|edu|info|app|page|site)"
# Square brackets end an address: Markdown's [https://a.io](https://a.io) holds two. (Of any case: AnyCase.)
URL = AnyCase(
    r"(?<![\w@/.-])(?:https?://[^\s<>\"'`{}\\\[\]]+"
    rf"|(?:[a-z0-9][a-z0-9-]*\.)+{_BARE_TLDS}(?![\w-])(?:/[^\s<>\"'`{{}}\\\[\]]*)?)",
)
_TRAILING = ".,;:!?'\")]"
# Every address holds "://" or a dot before one of those domains; most texts hold neither, and this
# answers for them much faster than looking for a whole address.
_MAY_HOLD_ADDRESS = AnyCase(rf"://|\.{_BARE_TLDS}(?![\w-])")


@functools.lru_cache(maxsize=16)  # the conversion and the links read the same abstract
def find_urls(text: str) -> tuple[tuple[int, int, str], ...]:
    """(start, end, href) of each address in text; trailing punctuation stays outside."""
    if not _MAY_HOLD_ADDRESS.found_in(text):
        return ()
    found = []
    for match in URL.finditer(text):
        start, end = match.span()
        # A URL like .../Foo_(bar) keeps its closing parenthesis; the counts follow the cut.
        opening, closing = match[0].count("("), match[0].count(")")
        while end > start and text[end - 1] in _TRAILING and not (text[end - 1] == ")" and opening >= closing):
            closing -= text[end - 1] == ")"
            end -= 1
        written = text[start:end]
        href = written if re.match(r"https?://", written, re.IGNORECASE) else f"https://{written}"
        found.append((start, end, href))
    return tuple(found)


# An abstract's sentences, which the rules that read prose take one at a time.
# (The pattern starts with the space, which the regular expression engine skips to at once; the looks behind
# hold it. Most spaces have no full stop before them, and the other looks are then skipped.)
_SENTENCE_END = re.compile(r"\s(?<=[.!?]\s)(?<![A-Z]\.\s)(?<!e\.g\.\s)(?<!i\.e\.\s)(?<!al\.\s)(?<!vs\.\s)(?<!cf\.\s)"
                           r"\s*(?=[\"“*$\\(A-Z0-9])")
_CJK_STOPS = "。！？"  # Chinese and Japanese full stops need no space
_ANY_SENTENCE_END = re.compile(rf"{_SENTENCE_END.pattern}|(?<=[{_CJK_STOPS}])\s*")


@functools.lru_cache(maxsize=16)  # each rule of extraction reads the same abstract's sentences
def _sentences(text: str) -> tuple[str, ...]:
    ends = _ANY_SENTENCE_END if any(stop in text for stop in _CJK_STOPS) else _SENTENCE_END
    return tuple(s.strip() for s in ends.split(text) if s.strip())


def split_sentences(text: str) -> list[str]:
    return list(_sentences(text))
