"""Where an abstract's math is: its text cut into prose and math segments.

Math is written between dollars ($x$, $$x$$), LaTeX's brackets (\\(x\\), \\[x\\]) or in a display
environment (\\begin{equation}); a dollar sign may also be a price, or a stray one in a sentence.
Unclosed delimiters stay prose and are reported, and no input takes more than linear time.
"""

from __future__ import annotations

import bisect
import functools
import re
from dataclasses import dataclass
from typing import Literal

Kind = Literal["text", "math", "display"]


@dataclass(frozen=True)
class Segment:
    kind: Kind
    content: str  # for math: the LaTeX between the delimiters
    written: str  # exactly as in the abstract, delimiters included


_DISPLAY_ENVIRONMENTS = ("equation", "equation*", "align", "align*", "gather", "gather*",
                         "displaymath", "multline", "multline*")
# Words of prose: a "math" span containing these is really two dollar signs in a sentence.
_PROSE = re.compile(r"(?<![a-z])[a-z]{3,} [a-z]{3,} [a-z]{3,}")
# Inline math longer than this is a stray dollar sign, not a formula: real abstracts' longest
# inline formulas are a few hundred characters.
MAX_INLINE_MATH = 1000
_PRICE = re.compile(r"\$\d")
# What makes "$ ... $" with spaces inside a formula: a macro or an operator, or a lone symbol.
_MATH_SIGN = re.compile(r"[\\^_=<>|]")
_ONE_SYMBOL = re.compile(r"\s*[^\W_]{1,2}\s*")
_MATH_START = re.compile(r"\\\$|\$|\\[(\[]|\\begin\{")
_ENVIRONMENT = re.compile(r"\\begin\{([A-Za-z*]{1,20})\}")


@functools.lru_cache(maxsize=16)  # the conversion and the title read the same abstract's formulas
def split_math(text: str) -> tuple[tuple[Segment, ...], tuple[str, ...]]:
    """Cut text into prose and math segments; unclosed delimiters stay prose and are reported.

    One pass: the dollar signs are found once, and a closing delimiter found missing is not
    looked for again, so that no input takes more than linear time.
    """
    segments: list[Segment] = []
    problems: list[str] = []
    dollars = _Dollars.of(text)
    missing: set[str] = set()  # closing delimiters absent after some point, hence after any later one
    prose_start = position = 0
    while candidate := _MATH_START.search(text, position):
        position = candidate.start()
        if candidate.group() == "\\$":  # an escaped dollar is prose
            position = candidate.end()
            continue
        found = _match_math(text, position, dollars, missing)
        if isinstance(found, str):
            problems.append(found)
            found = None
        if found is None:
            position += 1
            continue
        segment, end = found
        if position > prose_start:
            segments.append(Segment("text", text[prose_start:position], text[prose_start:position]))
        segments.append(segment)
        position = prose_start = end
    if prose_start < len(text):
        segments.append(Segment("text", text[prose_start:], text[prose_start:]))
    return tuple(segments), tuple(dict.fromkeys(problems))  # each kind of problem once


def _match_math(text: str, i: int, dollars: _Dollars, missing: set[str]) -> tuple[Segment, int] | str | None:
    """The math segment starting at i and the index after it; a message if it never closes."""
    for opening, closing, kind in (("$$", "$$", "display"), ("\\[", "\\]", "display"),
                                   ("\\(", "\\)", "math")):
        if text.startswith(opening, i):
            end = _find_closing(text, closing, i + len(opening), missing)
            if end < 0:
                return f"unclosed '{opening}' in abstract; the text is shown as written"
            stop = end + len(closing)
            return Segment(kind, text[i + len(opening):end], text[i:stop]), stop
    if environment := _ENVIRONMENT.match(text, i):
        if environment[1] in _DISPLAY_ENVIRONMENTS:
            end = _find_closing(text, f"\\end{{{environment[1]}}}", i, missing)
            if end < 0:
                return f"unclosed '\\begin{{{environment[1]}}}' in abstract; the text is shown as written"
            stop = end + len(f"\\end{{{environment[1]}}}")
            return Segment("display", text[environment.end():end], text[i:stop]), stop
    if text[i] != "$":
        return None
    end = dollars.closing(text, i)
    if end is None or _looks_like_prose(text[i + 1:end]):
        if _PRICE.match(text, i):
            return None
        return "unbalanced '$' in abstract; the text is shown as written"
    return Segment("math", text[i + 1:end], text[i:end + 1]), end + 1


def _find_closing(text: str, closing: str, start: int, missing: set[str]) -> int:
    """text.find(closing, start), remembering a closing that is missing."""
    end = -1 if closing in missing else text.find(closing, start)
    if end < 0:
        missing.add(closing)
    return end


@dataclass(frozen=True)
class _Dollars:
    """Where a text's unescaped dollar signs are, to find any formula's closing one at once."""
    unescaped: tuple[int, ...]
    not_before_digit: tuple[int, ...]

    @classmethod
    def of(cls, text: str) -> _Dollars:
        unescaped = tuple(j for j in (m.start() for m in re.finditer(r"\$", text))
                          if not (text[j - 1] == "\\" and text[j - 2:j] != "\\\\"))
        return cls(unescaped, tuple(j for j in unescaped if not text[j + 1:j + 2].isdigit()))

    def closing(self, text: str, start: int) -> int | None:
        """Index of the $ closing the inline math opened at start, or None.

        A $ right before a digit closes only when the opening one was not a price ($<$2% is math).
        """
        if start + 1 >= len(text):
            return None
        candidates = self.not_before_digit if _PRICE.match(text, start) else self.unescaped
        index = bisect.bisect_right(candidates, start + 1)
        if index == len(candidates) or candidates[index] - start > MAX_INLINE_MATH:
            return None
        end = candidates[index]
        spaced = text[start + 1].isspace()
        if spaced and not (_MATH_SIGN.search(text, start, end) or _ONE_SYMBOL.fullmatch(text, start + 1, end)):
            return None  # "$ 5 and $ 10" is prices; "$ k \\ge 2 $" and "$ x $" are formulas
        return end


def _looks_like_prose(content: str) -> bool:
    """True for the words between two prices ($5 per run, $10 per day) or other stray dollars."""
    words = re.sub(r"\\(?:text\w*|emph|mathrm|mbox)\{[^{}]*\}|\\[A-Za-z]+", "", content)
    return bool(_PROSE.search(words) or (_PRICE.match("$" + content) and re.search(r"\s[A-Za-z]{2,}", words)))
