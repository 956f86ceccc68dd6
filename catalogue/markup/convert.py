"""Abstract text -> safe HTML (math as MathML) and -> plain text.

Abstracts mix three notations: Markdown emphasis (**bold**, *italic*), LaTeX text macros
(\\emph{}, \\%, ~, --, ``quotes'') and inline math ($...$). The text is split into math and
prose first; the prose's LaTeX macros become Markdown, and a Markdown converter that knows
only paragraphs, emphasis and typographic quotes turns it into HTML, escaping everything else.
Math becomes MathML at build time, so pages need no script to show it. Anything that cannot be converted is shown as
written and reported, never dropped.
"""

from __future__ import annotations

import bisect
import functools
import html
import logging
import re
import unicodedata
from dataclasses import dataclass
from typing import Literal

from latex2mathml import commands as latex_commands
from latex2mathml.converter import convert as latex_to_mathml
from latex2mathml.symbols_parser import SYMBOLS as latex_symbols
from markdown_it import MarkdownIt
from pylatexenc.latex2text import LatexNodes2Text
from pylatexenc.latex2text import get_default_latex_context_db as get_default_text_context_db
from pylatexenc.latexwalker import get_default_latex_context_db
from pylatexenc.macrospec import LatexContextDb

from catalogue.system.cache import code_version, digest
from catalogue.text import find_urls, replace_unsafe
from catalogue.errors import shown

# pylatexenc logs what it cannot read ("macro '\\frac' failed its substitution!") to stderr, without
# the paper it came from; the conversion's own notes name the file and line instead.
logging.getLogger("pylatexenc").addHandler(logging.NullHandler())

Kind = Literal["text", "math", "display"]


@dataclass(frozen=True)
class Segment:
    kind: Kind
    content: str  # for math: the LaTeX between the delimiters
    written: str  # exactly as in the abstract, delimiters included


@dataclass(frozen=True)
class Converted:
    html: str  # safe HTML paragraphs
    plain: str  # the same text without markup, on one line
    problems: tuple[str, ...]


CONVERTED = "converted"  # the cache's kind for Converted texts, by conversion_key


def conversion_key(text: str, links: bool) -> str:
    """The cache key of a text's conversion: ingest converts abstracts, the render reuses them."""
    return digest(code_version(), text, links)


# Placeholders for finished HTML fragments (math, links) while the prose goes through Markdown.
# U+FDD0 and U+FDD1 are noncharacters, which replace_unsafe removes from every text first: a
# placeholder can only be one of ours, and Markdown leaves them (and digits) untouched.
_HOLD = "\ufdd0{}\ufdd1"
_HELD = re.compile("\ufdd0(\\d+)\ufdd1")
_GROUPED_PLACEHOLDER = re.compile("(?<!\\\\)\\{(\ufdd0\\d+\ufdd1)\\}")  # {\\url{...}}, {$x$}: LaTeX's grouping, unseen

# LaTeX text macros and what they become in Markdown (before and after their argument, which is kept).
_EMPHASIS, _STRONG, _BARE = ("*", "*"), ("**", "**"), ("", "")
_TEXT_MACROS = {
    "emph": _EMPHASIS, "textit": _EMPHASIS, "textsl": _EMPHASIS, "textbf": _STRONG,
    "text": _BARE, "textrm": _BARE, "textsf": _BARE, "texttt": _BARE, "textsc": _BARE, "textnormal": _BARE,
    "mathrm": _BARE, "underline": _BARE, "url": _BARE, "mbox": _BARE,
    "ensuremath": _BARE, "textsuperscript": _BARE, "textsubscript": _BARE, "enquote": ("\u201c", "\u201d"),
    "cite": ("[", "]"), "citep": ("[", "]"), "citet": ("[", "]"), "footnote": (" (", ")"),
}
# Abbreviations papers define as macros, as nearly all of them define them.
_PROSE_SHORTHANDS = {"eg": "e.g.", "ie": "i.e.", "etc": "etc.", "wrt": "w.r.t.", "cf": "cf.", "etal": "et al."}
# Font switches, {\em words} in a brace group; without braces (a venue dropped them) they are dropped.
_SWITCHES = {"em": _EMPHASIS, "it": _EMPHASIS, "sl": _EMPHASIS, "itshape": _EMPHASIS, "bf": _STRONG,
             "bfseries": _STRONG, "rm": _BARE, "sf": _BARE, "tt": _BARE, "sc": _BARE, "normalfont": _BARE}
_DISPLAY_ENVIRONMENTS = ("equation", "equation*", "align", "align*", "gather", "gather*",
                         "displaymath", "multline", "multline*")
# LaTeX quotes and spaces; straight quotes are left to Markdown's smart quotes.
_SYMBOLS = [("``", "\u201c"), ("''", "\u201d"), ("\\,", "\u202f"), ("\\ ", " "), ("\\|", "\u2016")]
# Dashes and ellipses as LaTeX (and typography) mean them; a longer run of either stays as written.
_DASHES_AND_ELLIPSES = re.compile(r"(?<!-)---?(?!-)|(?<!\.)\.\.\.(?!\.)")
_TYPOGRAPHY = {"---": "\u2014", "--": "\u2013", "...": "\u2026"}
# ``like this" and "like this'': quotes of two styles that pair (never across a third quote)
_CURLY_THEN_STRAIGHT = re.compile("\u201c([^\"\u201c\u201d]*)\"")
_STRAIGHT_THEN_CURLY = re.compile("\"([^\"\u201c\u201d]*)\u201d")
# A letter with a LaTeX accent: Cram\\'er, G\\"{o}del, na{\\"i}ve, Erd\\H{o}s, \\c{c}, \\'{\\i}.
_ACCENT = re.compile(r"(\{)?\\(?:['\"`^~=.]|[Hcvuk](?![A-Za-z]))\s*"
                     r"(?:\{\s*(?:\\[ij]|[A-Za-z])\s*\}|\\[ij](?![A-Za-z])|[A-Za-z])(?(1)\})")
# A brace group of one word, a dash or nothing, or a macro with its argument, which stays (nor are a subscript's,
# an option's or an escaped brace prose; a set, {1,2,3}, keeps its braces).
_WORD_GROUP = re.compile(r"(\\[A-Za-z]+\s*(?:\{[^{}]*\})?)|(?<![_^}\]\\])\{((?:[^\W\d_]+|[\u2013\u2014-]+)?)\}")
_ESCAPED_CHAR = re.compile(r"\\\\?([%&#_$])")  # \% and the doubly escaped \\% both mean %
_UNKNOWN_MACRO = re.compile(r"\\([A-Za-z]+)( ?)")
_TEXT_MACRO_OR_BRACE = re.compile(r"\\(" + "|".join(sorted(_TEXT_MACROS, key=len, reverse=True)) + r")\s*\{"
                                  r"|\{\s*\\(" + "|".join(_SWITCHES) + r")(?![A-Za-z])\s*|(?<!\\)[{}]")
# Deeper nests of text macros are junk, not prose: shown as written rather than converted.
MAX_MACRO_DEPTH = 50
TIE = re.compile(r"(?<=\S)~(?=\S)")  # LaTeX's unbreakable space, "descent~(SGD)"
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
_SUPERSCRIPTS = str.maketrans("0123456789+-=()n", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿ")

# What latex2mathml may emit; anything else (an href, say) sends the span back to text.
_MATHML_TAGS = {
    "math", "mrow", "mi", "mn", "mo", "ms", "mtext", "mspace", "msup", "msub", "msubsup",
    "mfrac", "msqrt", "mroot", "mover", "munder", "munderover", "mtable", "mtr", "mtd",
    "mstyle", "mpadded", "mphantom", "menclose", "semantics", "annotation", "merror",
}
_MATHML_ATTRIBUTES = {
    "xmlns", "display", "stretchy", "mathvariant", "fence", "separator", "lspace", "rspace",
    "accent", "accentunder", "movablelimits", "form", "minsize", "maxsize", "symmetric",
    "columnalign", "rowspacing", "columnspacing", "columnlines", "rowlines", "frame",
    "linethickness", "width", "height", "depth", "displaystyle", "scriptlevel", "notation",
    "largeop", "align",
}
# Letters, digits, spaces and punctuation that Markdown, LaTeX and typography leave alone,
# one word at each end: such a text converts to itself.
_NOTHING_TO_CONVERT = re.compile(r"[^\W_]+(?:[ ,.;:()?+=-]+[^\W_]+)*[.?)]?")
# A character that pattern never takes: a text holding one is told much sooner by looking for it.
_CONVERTIBLE_CHARACTER = re.compile(r"[^\w ,.;:()?+=-]|_")
# What the Markdown below acts on in a paragraph: emphasis, escapes, smart quotes, line breaks (and NUL).
_READ_BY_MARKDOWN = re.compile(r"[*_\\'\"\n\r\t\0]")
# A tag's attributes never hold '<', and a name starts where a name starts: both read once.
_TAG = re.compile(r"<\s*/?\s*([A-Za-z][\w:-]*)([^<>]*)>")
_ATTRIBUTE = re.compile(r"(?<![\w:.-])([A-Za-z_:][\w:.-]*)\s*=")

# Inline HTML as venues publish it: these tags are rendered as what they mean (without their
# attributes, but for a link's http(s) address); any other tag is shown as text.
INLINE_TAGS = frozenset({"b", "strong", "i", "em", "u", "sub", "sup", "br", "code", "tt", "small", "a"})
# A tag: its name, then attributes (bare, or with a quoted or bare value); it never crosses a '<',
# so that each '<' is read once.
_HTML_TAG = (r"<(?P<end>/?)(?P<tag>[A-Za-z][A-Za-z0-9]*+)(?P<attributes>(?:\s++[A-Za-z_:][\w:.-]*+"
             r"(?:\s*+=\s*+(?:\"[^\"<>]*+\"|'[^'<>]*+'|[^\s\"'=<>`]++))?+)*+)\s*+/?>")
_INLINE_TAG = re.compile(_HTML_TAG.replace("[A-Za-z][A-Za-z0-9]*+", "(?i:" + "|".join(sorted(INLINE_TAGS)) + r")\b"))
_HREF = re.compile(r"(?:^|\s)href\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s\"'=<>`]+))", re.IGNORECASE)
_WEB_ADDRESS = re.compile(r"https?://[^\s<>\"'`\\]+", re.IGNORECASE)
# Links as LaTeX (\url{address}, \href{address}{text}) and Markdown ([text](address)) write them.
_INLINE_PARTS = re.compile(_HTML_TAG + r"|\\url\{(?P<url>[^{}\s]++)\}"
                           r"|\\href\{(?P<href>[^{}\s]++)\}\{(?P<label>(?:[^{}]|\{[^{}]*+\})*+)\}"
                           r"|\[(?P<text>[^\[\]]{1,300}+)\]\((?P<target>[^()\s]++)\)")
_ENTITY = re.compile(r"&(?:[A-Za-z][A-Za-z0-9]{1,31}|#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6});")


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


def repair_math(latex: str) -> str:
    """Fix what copy-pasting does to inline math, before conversion.

    `\\\\%` (a doubled escape) means `\\%`, and a bare `%` is never a TeX comment in an
    abstract: converters that read it as one silently drop the rest of the formula. A formula
    whose every backslash is doubled (`\\\\boldsymbol{\\\\mu}`) was escaped twice. Macros the
    paper defined for itself become what such macros stand for (see resolve_macro).
    """
    latex = latex.strip()
    if _DOUBLED_MACRO.search(latex) and not _SINGLE_MACRO.search(latex):
        latex = latex.replace("\\\\", "\\")
    latex = re.sub(r"\\\\(?=[%$&#_{}])", r"\\", latex)
    latex = re.sub(r"(?<!\\)%", r"\\%", latex)
    if latex.startswith(("^", "_")):
        latex = "{}" + latex  # LS$^2$MC: a superscript attached to the text before it
    if "\\" not in latex:
        return latex
    return _MACRO.sub(lambda macro: resolve_macro(macro[1], bool(macro[2])) + macro[2], latex)


_DOUBLED_MACRO = re.compile(r"\\\\[A-Za-z]")
_SINGLE_MACRO = re.compile(r"(?<!\\)\\[A-Za-z]")
_MACRO = re.compile(r"(?<!\\)\\([A-Za-z]+)(\s*\{|)")
# Shorthands that papers define in their preambles, as nearly all of them define them.
_SHORTHANDS = {
    "eps": r"\epsilon", "R": r"\mathbb{R}", "RR": r"\mathbb{R}", "Real": r"\mathbb{R}", "Reals": r"\mathbb{R}",
    "real": r"\mathbb{R}", "reals": r"\mathbb{R}", "N": r"\mathbb{N}", "Z": r"\mathbb{Z}", "E": r"\mathbb{E}",
    "EE": r"\mathbb{E}", "O": r"\mathcal{O}", "Tilde": r"\tilde", "nicefrac": r"\frac", "textsc": r"\text",
    "mat": r"\mathbf", "bs": r"\boldsymbol",
}
# A style written into a shorthand's name, before one letter or symbol (\\cO, \\bbR, \\bx, \\vectheta),
# and \\sqrtT or \\mathbbR, whose braces a venue dropped; the longest style first.
_STYLES = {"mathcal": r"\mathcal", "cal": r"\mathcal", "mc": r"\mathcal", "c": r"\mathcal",
           "mathbb": r"\mathbb", "bb": r"\mathbb", "mb": r"\mathbb", "mathbf": r"\boldsymbol", "vec": r"\boldsymbol",
           "bf": r"\boldsymbol", "bm": r"\boldsymbol", "b": r"\boldsymbol", "v": r"\boldsymbol", "sqrt": r"\sqrt",
           "widehat": r"\widehat", "hat": r"\hat", "wh": r"\hat", "widetilde": r"\widetilde", "tilde": r"\tilde",
           "wt": r"\tilde", "bar": r"\bar"}


@functools.lru_cache(maxsize=1024)
def resolve_macro(name: str, before_brace: bool) -> str:
    """A macro as latex2mathml can convert it. A paper's own macro (which its abstract cannot
    define) becomes what such shorthands stand for: a conventional one (\\eps, \\R), a style and a
    letter (\\cO, \\bx), else its name as an operator (\\poly, \\OPT) or a letter in bold (\\x)."""
    if f"\\{name}" in _mathml_macros():
        return f"\\{name}"
    if name in _SHORTHANDS:
        return _SHORTHANDS[name]
    if before_brace and len(name) > 1 and name in _STYLES:  # \\wt{O}, \\mb{R}
        return _STYLES[name]
    for style, command in _STYLES.items():
        rest = name.removeprefix(style)
        if rest != name and len(rest) == 1:
            return f"{command}{{{rest}}}"
        if rest != name and len(rest) > 1 and f"\\{rest}" in _mathml_macros():
            return f"{command}{{\\{rest}}}"
    return f"\\mathbf{{{name}}}" if len(name) == 1 else f"\\operatorname{{{name}}}"


def is_latex_macro(name: str) -> bool:
    """Whether \\name is a LaTeX command that abstracts use (in math or in text)."""
    return f"\\{name}" in _mathml_macros() or name in _TEXT_MACROS or name in _SWITCHES


@functools.lru_cache(maxsize=1)
def _mathml_macros() -> frozenset[str]:
    """Every macro latex2mathml knows: its symbols and the commands it names."""
    names = set(latex_symbols)
    for value in vars(latex_commands).values():
        if isinstance(value, str):
            names.add(value)
        elif isinstance(value, (set, frozenset, list, tuple, dict)):
            names.update(item for item in value if isinstance(item, str))
    return frozenset(name for name in names if name.startswith("\\"))


@functools.lru_cache(maxsize=4096)  # asked of each formula by the conversion, its text form and the title
def text_only_math(latex: str) -> str | None:
    """Markdown for math that holds only text, like $\\textbf{A Name (AN)}$; else None."""
    match = re.fullmatch(r"\s*\\(textbf|textit|emph|text|textrm|mathrm|mathbf)\{(.*)\}\s*", latex, re.S)
    if not match or not braces_balance(match[2]) or re.search(r"[\\^_$]", match[2].replace("\\%", "")):
        return None
    marker = {"textbf": "**", "mathbf": "**", "textit": "*", "emph": "*"}.get(match[1], "")
    return f"{marker}{match[2]}{marker}"


def braces_balance(latex: str) -> bool:
    depth = 0
    for index, char in enumerate(latex):
        if char in "{}" and index and latex[index - 1] == "\\":
            continue
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


@functools.lru_cache(maxsize=4096)  # abstracts repeat their formulas ($x$, $n$)
def render_math(latex: str, display: bool) -> str | None:
    """MathML for latex, or None when it cannot be converted faithfully."""
    repaired = repair_math(latex)
    if not repaired or not braces_balance(repaired):
        return None
    try:
        mathml = latex_to_mathml(repaired, display="block" if display else "inline")
    except Exception:  # latex2mathml raises many kinds of errors on malformed input
        return None
    if "<mi>\\" in mathml or not _is_plain_mathml(mathml):
        return None  # an unknown macro, or markup we do not allow (\href)
    return mathml


def _is_plain_mathml(mathml: str) -> bool:
    for tag in _TAG.finditer(mathml):
        if tag[1] not in _MATHML_TAGS:
            return False
        if any(name not in _MATHML_ATTRIBUTES for name in _ATTRIBUTE.findall(tag[2])):
            return False
    return True


def latex_text_to_markdown(text: str) -> tuple[str, list[str]]:
    """Prose with LaTeX text macros -> Markdown text (not yet escaped)."""
    problems: list[str] = []
    # Each rule runs only where the characters it needs are (most abstracts have few): the same text, sooner.
    if "{\ufdd0" in text:
        text = _GROUPED_PLACEHOLDER.sub(r"\1", text)
    if "\\" in text:
        text = _ACCENT.sub(_accented, text)
    if "{" in text or "}" in text:
        text = _replace_text_macros(_WORD_GROUP.sub(_ungrouped, text), problems)
    text = _ESCAPED_CHAR.sub(r"\1", text)
    for written, symbol in _SYMBOLS:
        text = text.replace(written, symbol)
    text = _CURLY_THEN_STRAIGHT.sub("\u201c\\1\u201d", text)
    if "\u201d" in text:
        text = _STRAIGHT_THEN_CURLY.sub("\u201c\\1\u201d", text)
    if "--" in text or "..." in text:
        text = _DASHES_AND_ELLIPSES.sub(lambda m: _TYPOGRAPHY[m[0]], text)
    if "~" in text:
        text = TIE.sub("\u00a0", text)
    text = _prose_macros(text)
    for name in sorted({macro[1] for macro in _UNKNOWN_MACRO.finditer(text)}):
        problems.append(f"unknown LaTeX command '\\{name}' in abstract; shown as written")
    return text, problems


def with_accents(text: str) -> str:
    """LaTeX's accents as accented letters (Cram\\'er -> Cramér); everything else as written."""
    return _ACCENT.sub(_accented, text) if "\\" in text else text


def _ungrouped(group: re.Match) -> str:
    """Fr{\u00e9}chet, {ReasoNet}, {}: LaTeX's braces around a word print nothing; a macro's argument stays."""
    return group[0] if group[1] else group[2]


def _accented(accent: re.Match) -> str:
    """\\'e, \\"{o}, \\c{c}: the letter with its accent, as pylatexenc writes it."""
    written = accent[0].removeprefix("{").removesuffix("}") if accent[1] else accent[0]
    letter = unicodedata.normalize("NFC", _latex_to_text().latex_to_text(written, latex_context=_latex_macros()))
    return letter if len(letter) == 1 else accent[0]


def _prose_macros(text: str) -> str:
    """Macros left in prose, as what they print: a symbol (\\cdot, \\geq, \\log) as its character, a
    font switch whose braces are lost (\\em words) or a delimiter's size (\\left) as nothing, a formula
    a venue printed without its dollars (\\sqrt T, \\frac12, \\mathbbR) as text; any other as written."""
    out: list[str] = []
    position = 0
    for macro in _UNKNOWN_MACRO.finditer(text):
        if macro.start() < position:
            continue  # inside the arguments of the formula before
        name = macro[1]
        if name in _SWITCHES or name in _SIZES:
            replacement, end = "", macro.end()
        elif (symbol := _PROSE_SHORTHANDS.get(name) or _symbol_of(name)) is not None:
            replacement, end = symbol + macro[2], macro.end()
        elif name == "item":
            replacement, end = "\u2022" + macro[2], macro.end()  # a list's \\begin and \\end are dropped below
        elif name in ("begin", "end") and (environment := _ENVIRONMENT_NAME.match(text, macro.end() - len(macro[2]))):
            replacement, end = "", environment.end()
        elif (end := _formula_end(text, macro)) is not None:
            arguments = _ARGUMENT.findall(text, macro.start() + 1 + len(name), end)
            replacement = math_to_text(f"\\{name}" + "".join("{" + a.strip().strip("{}") + "}" for a in arguments))
        elif _LOST_CITATION.fullmatch(name):
            # \\citep, \\citetSmith: a citation whose key went with its braces says nothing to a reader;
            # one space around it stays
            spaced = macro.start() > position and text[macro.start() - 1] == " "
            out.append(text[position:macro.start() - spaced])
            position = macro.end() - len(macro[2])
            continue
        elif word := _LOST_BRACES.fullmatch(name):
            replacement, end = word[1] + macro[2], macro.end()  # \\emphcanonical: the word it styled, as written
        else:
            continue
        out.append(text[position:macro.start()])
        out.append(replacement)
        position = end
    out.append(text[position:])
    return "".join(out)


_ENVIRONMENT_NAME = re.compile(r"\{[A-Za-z*]{1,20}\}\s?")
# Macros whose braces an export lost, glued to the word after them: a style macro keeps its word (only
# the first word of its argument is certain), a citation goes with its key.
_LOST_BRACES = re.compile(r"(?:emph|textit|textbf|textsl|texttt|textsf|textrm|textsc|underline)([A-Za-z]+)")
_LOST_CITATION = re.compile(r"cite[A-Za-z]*")
_SIZES = {"left", "right", "middle", "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr"}
# One argument of a macro: a brace group, a macro or one character.
_ARGUMENT = re.compile(r"\s*+(?:\{[^{}]*+\}|\\[A-Za-z]++|[^\s{}\\$\ufdd0\ufdd1])")


def _formula_end(text: str, macro: re.Match) -> int | None:
    """Where a math macro written in prose ends with its arguments; None for a macro that is not math."""
    name = macro[1]
    if f"\\{name}" not in _mathml_macros():
        resolved = resolve_macro(name, False)
        known = not resolved.startswith(("\\operatorname{", "\\mathbf{"))
        return macro.start() + 1 + len(name) if known else None  # \\eps, \\sqrtT: their argument is in the name
    spec = _latex_macros().get_macro_spec(name)
    end = macro.start() + 1 + len(name)
    for _ in range(spec.args_parser.argspec.count("{") if spec is not None else 0):  # optional ones are not looked for
        found = _ARGUMENT.match(text, end)
        if not found:
            return None
        end = found.end()
    return end


@functools.lru_cache(maxsize=1024)
def _symbol_of(name: str) -> str | None:
    """pylatexenc's text for a macro that takes no argument; None for others and unknown ones."""
    if _latex_macros().get_macro_spec(name) is not None:
        return None  # it takes arguments: \\sqrt without braces is not a symbol
    spec = _latex_text_macros().get_macro_spec(name)
    replacement = getattr(spec, "simplify_repl", None)
    if not isinstance(replacement, str) or not replacement.strip() or "%" in replacement:
        return None
    return replacement


def _replace_text_macros(text: str, problems: list[str]) -> str:
    """\\emph{x} -> *x*, {\\em x} -> *x* and the like, nested ones too, in one pass over the braces.

    A macro whose brace never closes, or that opens more than MAX_MACRO_DEPTH groups deep,
    is left as written from there on, with a note.
    """
    out: list[str] = []
    # The groups open at this point: (what closes it, or None for a bare brace; the macro's start
    # in text and in out, to fall back to the text as written).
    groups: list[tuple[str | None, int, int]] = []
    position = 0
    for token in _TEXT_MACRO_OR_BRACE.finditer(text):
        out.append(text[position:token.start()])
        position = token.end()
        macro = _TEXT_MACROS.get(token[1]) or _SWITCHES.get(token[2])
        if macro and len(groups) >= MAX_MACRO_DEPTH:
            problems.append(f"LaTeX commands nested more than {MAX_MACRO_DEPTH} deep in abstract; shown as written")
            first = _first_open_macro(groups) or (None, token.start(), len(out))
            return "".join(out[:first[2]]) + text[first[1]:]
        if macro:
            groups.append((macro[1], token.start(), len(out)))
            out.append(macro[0])
        elif token[0] == "{":
            groups.append((None, token.start(), len(out)))
            out.append("{")
        else:
            closing = groups.pop()[0] if groups else None
            out.append("}" if closing is None else closing)
    out.append(text[position:])
    first = _first_open_macro(groups)
    if first is None:
        return "".join(out)
    opened = _TEXT_MACRO_OR_BRACE.match(text, first[1])
    problems.append(f"unbalanced braces after '\\{opened[1] or opened[2]}' in abstract; shown as written")
    return "".join(out[:first[2]]) + text[first[1]:]


def _first_open_macro(groups: list[tuple[str | None, int, int]]) -> tuple[str | None, int, int] | None:
    """The outermost macro still open: from there on, the text is shown as written."""
    return next((group for group in groups if group[0] is not None), None)


@functools.lru_cache(maxsize=1)
def _latex_to_text() -> LatexNodes2Text:
    """One converter for the process: building it costs more than converting a formula."""
    return LatexNodes2Text(math_mode="text")


@functools.lru_cache(maxsize=1)
def _latex_macros() -> LatexContextDb:
    """pylatexenc's table of known macros, which its parser otherwise rebuilds for every formula."""
    return get_default_latex_context_db()


@functools.lru_cache(maxsize=1)
def _latex_text_macros() -> LatexContextDb:
    """pylatexenc's table of what macros stand for in text."""
    return get_default_text_context_db()


_TEMPLATE = re.compile(r"%(?:\(\w+\))?s")  # pylatexenc's placeholder for a macro's arguments


@functools.lru_cache(maxsize=4096)
def math_to_text(latex: str) -> str:
    """A readable plain-text form of a formula: O(κ^3/2/Nϵ^3), LS²MC."""
    markdown_text = text_only_math(latex)
    if markdown_text is not None:
        return markdown_text.strip("*")
    try:
        # \url would come out as <address>: plain text has no angle brackets of ours
        text = _latex_to_text().latex_to_text(repair_math(latex).replace("\\url{", "\\texttt{"),
                                              latex_context=_latex_macros())
    except Exception:  # pylatexenc gives up on some malformed input: show it as written
        return latex
    if _TEMPLATE.search(text) and not _TEMPLATE.search(latex):  # a macro's text it could not fill in: '%s/%s'
        return latex
    return re.sub(r"\^([0-9n+\-=()])(?![0-9])", lambda m: m[1].translate(_SUPERSCRIPTS), text).strip()


class TextConverter:
    """Converts abstracts, titles and names to safe HTML and plain text; build one per process (it holds a
    Markdown parser)."""

    def __init__(self) -> None:
        self._markdown = _abstract_markdown()

    def abstract_html(self, text: str) -> Converted:
        """Paragraphs of safe HTML with MathML and clickable links (and the same as plain text)."""
        return self.convert(text, links=True)

    def inline_html(self, text: str) -> str:
        """A title or name as inline HTML (no paragraph, no links)."""
        return inline(self.convert(text, links=False).html)

    def plain(self, text: str) -> str:
        """Plain text without markup: for <title>, descriptions and search metadata."""
        return self.convert(text, links=False).plain

    def convert(self, text: str, links: bool) -> Converted:
        """Both forms of a text from one Markdown pass: math, links and tags wait in placeholders,
        as HTML for one form and as text for the other."""
        as_written = _as_written(text)
        if as_written:
            return as_written
        held: list[_Held] = []
        problems: list[str] = []

        def hold(fragment: str, as_text: str, kind: str = "fragment") -> str:
            held.append(_Held(fragment, html.escape(as_text, quote=False), kind))
            return _HOLD.format(len(held) - 1)

        segments, split_problems = split_math(replace_unsafe(text))
        problems += split_problems
        pieces: list[str] = []
        for segment in segments:
            as_text = segment.content if segment.kind == "text" else text_only_math(segment.content)
            if as_text is not None:
                pieces.append(as_text)
                continue
            mathml = render_math(segment.content, display=segment.kind == "display")
            if mathml is None:
                problems.append(f"math {shown(segment.written)} could not be converted; shown as written")
                mathml = f'<code class="tex">{html.escape(segment.written)}</code>'
            pieces.append(hold(mathml, math_to_text(segment.content)))
        # The prose in one piece, its formulas held: \\emph{a $x$ b} and <b>a $x$</b> span them.
        prose, prose_problems = self._prose("".join(pieces), links, hold)
        problems += prose_problems
        converted = self._paragraphs(prose)
        plain = _TAG.sub("", _HELD.sub(lambda m: held[int(m[1])].text, converted))
        return Converted(_place(converted, held), " ".join(html.unescape(plain).split()), tuple(problems))

    def _paragraphs(self, prose: str) -> str:
        """Markdown's HTML for the prose; one paragraph it would only escape (nothing it acts on, no space at
        either end for it to trim) is escaped here, sooner."""
        if prose and not (prose[0].isspace() or prose[-1].isspace() or _READ_BY_MARKDOWN.search(prose)):
            return f"<p>{html.escape(prose, quote=False)}</p>"
        return self._markdown.render(prose).removesuffix("\n")

    def _prose(self, text: str, links: bool, hold) -> tuple[str, list[str]]:
        """Markdown for the prose (its formulas held): its links and allowlisted tags held too, entities decoded."""
        pieces: list[str] = []
        position = 0
        for start, end, fragment in self._inline_parts(text, links, hold):
            pieces.append(_decode_entities(text[position:start]))
            pieces.append(fragment)
            position = end
        pieces.append(_decode_entities(text[position:]))
        return latex_text_to_markdown("".join(pieces))

    def _inline_parts(self, text: str, links: bool, hold) -> list[tuple[int, int, str]]:
        """(start, end, placeholder) of the allowlisted tags, link macros and addresses in text, in order."""
        parts = []
        may_hold_parts = "<" in text or "\\" in text or "[" in text  # where tags, \url, \href and [](...) start
        for part in _INLINE_PARTS.finditer(text) if may_hold_parts else ():
            held = self._hold_part(part, links, hold)
            if held is not None:
                parts.append((part.start(), part.end(), held))
        if links:
            starts = [start for start, _, _ in parts]
            for start, end, href in find_urls(text):
                if _HOLD[0] in text[start:end]:
                    continue  # an address running into a formula: where it ends is unclear
                before = bisect.bisect_right(starts, start) - 1  # the part starting last before the address
                inside = before >= 0 and parts[before][1] > start
                if not inside and (before + 1 == len(parts) or parts[before + 1][0] >= end):
                    link = hold(f'<a href="{html.escape(href)}">{html.escape(text[start:end])}</a>',
                                text[start:end], "link")
                    parts.insert(before + 1, (start, end, link))
                    starts.insert(before + 1, start)
        return parts

    def _hold_part(self, part: re.Match, links: bool, hold) -> str | None:
        """The placeholder of a tag or link macro, or None for a tag outside the allowlist (it stays text)."""
        if part["tag"]:
            name = part["tag"].lower()
            if name not in INLINE_TAGS:
                return None
            if name == "br":
                return hold("<br>", " ")
            if part["end"]:
                return hold(f"</{name}>", "", "close")
            if name != "a":
                return hold(f"<{name}>", "", "open")
            href = _tag_href(part["attributes"])
            if href is None:
                return None
            return hold(f'<a href="{html.escape(href)}">' if links else "", "", "open" if links else "fragment")
        address = part["url"] or part["href"] or part["target"]
        href = _link_address(address)
        if href is None:
            return None if part["target"] else hold(html.escape(address), address)
        label = part["label"] if part["href"] else part["text"]
        if not label:
            label_html, label_text = html.escape(address, quote=False), address
        else:
            converted = self.convert(label, links=False)
            label_html, label_text = inline(converted.html), converted.plain
        if not links:
            return hold(label_html, label_text)
        return hold(f'<a href="{html.escape(href)}">{label_html}</a>', label_text, "link")


@dataclass(frozen=True)
class _Held:
    """A finished piece of HTML waiting in a placeholder while the prose goes through Markdown."""
    html: str
    text: str  # the same as plain text, escaped
    kind: str  # "fragment"; "link" (shown as text inside another link); "open" or "close" (a tag, balanced)


# Markdown's own tags among the held ones, balanced together: an allowlisted tag closed out of turn
# closes the ones opened inside it, a tag that closes nothing is dropped, a paragraph closes all.
_PLACES = re.compile("\ufdd0(\\d+)\ufdd1|<(/?)(p|em|strong)>")


def _place(converted: str, held: list[_Held]) -> str:
    """The converted HTML with its held fragments put back, every tag closed in the order it opened."""
    out: list[str] = []
    opened: list[str] = []
    position = 0
    for found in _PLACES.finditer(converted):
        out.append(converted[position:found.start()])
        position = found.end()
        if found[1] is None:
            tag, closing, name = found[0], bool(found[2]), found[3]
        else:
            fragment = held[int(found[1])]
            if fragment.kind in ("fragment", "link"):
                out.append(fragment.text if fragment.kind == "link" and "a" in opened else fragment.html)
                continue
            tag, closing, name = fragment.html, fragment.kind == "close", re.match(r"</?(\w+)", fragment.html)[1]
        if name == "p" and closing:
            out.extend(f"</{inner}>" for inner in reversed(opened))
            opened.clear()
        if name == "p":
            out.append(tag)
        elif not closing and not (name == "a" and "a" in opened):
            opened.append(name)
            out.append(tag)
        elif closing and name in opened:
            while opened:
                inner = opened.pop()
                out.append(f"</{inner}>")
                if inner == name:
                    break
    out.append(converted[position:])
    out.extend(f"</{inner}>" for inner in reversed(opened))
    return "".join(out)


def _tag_href(attributes: str) -> str | None:
    """The http(s) address of an <a> tag's href, decoded; None without one."""
    found = _HREF.search(attributes)
    if not found:
        return None
    href = html.unescape(found[1] or found[2] or found[3] or "").strip()
    return href if _WEB_ADDRESS.fullmatch(href) else None


def _link_address(written: str) -> str | None:
    """The href of an address a link macro gives (a URL or a bare domain); None for anything else."""
    found = find_urls(written)
    return found[0][2] if len(found) == 1 and found[0][:2] == (0, len(written)) else None


def _decode_entities(text: str) -> str:
    """HTML entities (&amp;, &lt;, &#39;) as the characters they stand for, once."""
    return _ENTITY.sub(lambda entity: html.unescape(entity[0]), text) if "&" in text else text


def without_inline_html(text: str) -> str:
    """The text as a reader reads its words, for rules that read them (names, titles, citations):
    allowlisted tags gone (a line break as a space), HTML entities decoded once."""
    if "<" in text:
        text = _INLINE_TAG.sub(lambda tag: " " if tag["tag"].lower() == "br" else "", text)
    return _decode_entities(text)


def _as_written(text: str) -> Converted | None:
    """A text with nothing to convert (most titles and names) as conversion would give it, sooner."""
    if _CONVERTIBLE_CHARACTER.search(text) is None and _NOTHING_TO_CONVERT.fullmatch(text) \
            and "--" not in text and "..." not in text and "  " not in text:
        return Converted(f"<p>{text}</p>", text, ())
    return None


def inline(paragraphs: str) -> str:
    """Paragraphs of HTML as one line of inline HTML."""
    return re.sub(r"^<p>|</p>$", "", paragraphs).replace("</p>\n<p>", " ")


def _abstract_markdown() -> MarkdownIt:
    """Markdown that knows paragraphs, emphasis, backslash escapes and smart quotes only: raw HTML,
    links, code, headings and lists stay text, escaped (dashes and ellipses are LaTeX's, above)."""
    converter = MarkdownIt("zero", {"typographer": True}).enable(["emphasis", "escape", "smartquotes"])
    # A backslash at the end of a line is CommonMark's line break; abstracts have none: as written.
    converter.add_render_rule("hardbreak", lambda *_: "\\\n")
    # Text is escaped as everywhere else in the site: quotes in text need no escaping.
    converter.add_render_rule("text", lambda _, tokens, index, *__: html.escape(tokens[index].content, quote=False))
    return converter
