"""Abstract text -> safe HTML (math as MathML) and -> plain text.

Abstracts mix three notations: Markdown emphasis (**bold**, *italic*), LaTeX text macros
(\\emph{}, \\%, ~, --, ``quotes'') and inline math ($...$). The text is split into math and
prose first; prose is escaped, its LaTeX macros become Markdown, and a Markdown converter
that knows only emphasis and paragraphs turns it into HTML. Math becomes MathML at build
time, so pages need no script to show it. Anything that cannot be converted is shown as
written and reported, never dropped.
"""

from __future__ import annotations

import functools
import html
import re
from dataclasses import dataclass
from typing import Literal

import markdown
from latex2mathml.converter import convert as latex_to_mathml
from pylatexenc.latex2text import LatexNodes2Text

from .cache import code_version, digest
from .characters import replace_unsafe
from .urls import find_urls

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
_HOLD = "\ue000{}\ue001"
_HELD = re.compile("\ue000(\\d+)\ue001")

# LaTeX text macros and what they become in Markdown; their argument is kept.
_TEXT_MACROS = {
    "emph": "*", "textit": "*", "textsl": "*", "textbf": "**",
    "text": "", "textrm": "", "textsf": "", "texttt": "", "textsc": "", "textnormal": "",
    "mathrm": "", "underline": "", "url": "", "mbox": "",
}
_DISPLAY_ENVIRONMENTS = ("equation", "equation*", "align", "align*", "gather", "gather*",
                         "displaymath", "multline", "multline*")
# LaTeX quotes and spaces; dashes, straight quotes and "..." are left to Markdown's smarty.
_SYMBOLS = [("``", "\u201c"), ("''", "\u201d"), ("\\,", "\u202f"), ("\\ ", " ")]
_ESCAPED_CHAR = re.compile(r"\\\\?([%&#_$])")  # \% and the doubly escaped \\% both mean %
_UNKNOWN_MACRO = re.compile(r"\\([A-Za-z]+)")
_TIE = re.compile(r"(?<=\S)~(?=\S)")
# Words of prose: a "math" span containing these is really two dollar signs in a sentence.
_PROSE = re.compile(r"[a-z]{3,} [a-z]{3,} [a-z]{3,}")
_PRICE = re.compile(r"\$\d")
_MATH_START = re.compile(r"\\\$|\$|\\[(\[]|\\begin\{")
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
_TAG = re.compile(r"<\s*/?\s*([A-Za-z][\w:-]*)([^>]*)>")
_ATTRIBUTE = re.compile(r"([A-Za-z_:][\w:.-]*)\s*=")


def split_math(text: str) -> tuple[list[Segment], list[str]]:
    """Cut text into prose and math segments; unclosed delimiters stay prose and are reported."""
    segments: list[Segment] = []
    problems: list[str] = []
    prose_start = position = 0
    while candidate := _MATH_START.search(text, position):
        position = candidate.start()
        if candidate.group() == "\\$":  # an escaped dollar is prose
            position = candidate.end()
            continue
        found = _match_math(text, position)
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
    return segments, problems


def _match_math(text: str, i: int) -> tuple[Segment, int] | str | None:
    """The math segment starting at i and the index after it; a message if it never closes."""
    for opening, closing, kind in (("$$", "$$", "display"), ("\\[", "\\]", "display"),
                                   ("\\(", "\\)", "math")):
        if text.startswith(opening, i):
            end = text.find(closing, i + len(opening))
            if end < 0:
                return f"unclosed '{opening}' in abstract; the text is shown as written"
            stop = end + len(closing)
            return Segment(kind, text[i + len(opening):end], text[i:stop]), stop
    if text.startswith("\\begin{", i):
        environment = text[i + 7:text.find("}", i)]
        if environment in _DISPLAY_ENVIRONMENTS:
            closing = f"\\end{{{environment}}}"
            end = text.find(closing, i)
            if end < 0:
                return f"unclosed '\\begin{{{environment}}}' in abstract; the text is shown as written"
            stop = end + len(closing)
            return Segment("display", text[i + 8 + len(environment):end], text[i:stop]), stop
    if text[i] != "$":
        return None
    end = _closing_dollar(text, i)
    if end is None or _looks_like_prose(text[i + 1:end]):
        if _PRICE.match(text, i):
            return None
        return "unbalanced '$' in abstract; the text is shown as written"
    return Segment("math", text[i + 1:end], text[i:end + 1]), end + 1


def _closing_dollar(text: str, start: int) -> int | None:
    """Index of the $ closing the inline math opened at start, or None.

    A $ right before a digit closes only when the opening one was not a price ($<$2% is math).
    """
    if start + 1 >= len(text) or text[start + 1].isspace():
        return None
    j = start + 1
    while (j := text.find("$", j)) >= 0:
        escaped = text[j - 1] == "\\" and text[j - 2:j] != "\\\\"
        next_price = j + 1 < len(text) and text[j + 1].isdigit() and _PRICE.match(text, start)
        if not escaped and not next_price and j > start + 1:
            return j
        j += 1
    return None


def _looks_like_prose(content: str) -> bool:
    """True for the words between two prices ($5 per run, $10 per day) or other stray dollars."""
    words = re.sub(r"\\(?:text\w*|emph|mathrm|mbox)\{[^{}]*\}|\\[A-Za-z]+", "", content)
    return bool(_PROSE.search(words) or (_PRICE.match("$" + content) and re.search(r"\s[A-Za-z]{2,}", words)))


def repair_math(latex: str) -> str:
    """Fix what copy-pasting does to inline math, before conversion.

    `\\\\%` (a doubled escape) means `\\%`, and a bare `%` is never a TeX comment in an
    abstract: converters that read it as one silently drop the rest of the formula.
    """
    latex = re.sub(r"\\\\(?=[%$&#_{}])", r"\\", latex.strip())
    latex = re.sub(r"(?<!\\)%", r"\\%", latex)
    if latex.startswith(("^", "_")):
        latex = "{}" + latex  # LS$^2$MC: a superscript attached to the text before it
    return latex


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
    text = _replace_text_macros(text, problems)
    text = _ESCAPED_CHAR.sub(r"\1", text)
    for written, symbol in _SYMBOLS:
        text = text.replace(written, symbol)
    text = re.sub("\u201c([^\"\u201d]*)\"", "\u201c\\1\u201d", text)  # ``like this"
    text = _TIE.sub("\u00a0", text)
    for name in sorted(set(_UNKNOWN_MACRO.findall(text))):
        problems.append(f"unknown LaTeX command '\\{name}' in abstract; shown as written")
    return text, problems


def _replace_text_macros(text: str, problems: list[str]) -> str:
    out: list[str] = []
    i = 0
    pattern = re.compile(r"\\(" + "|".join(sorted(_TEXT_MACROS, key=len, reverse=True)) + r")\s*\{")
    while match := pattern.search(text, i):
        end = _matching_brace(text, match.end() - 1)
        if end is None:
            problems.append(f"unbalanced braces after '\\{match[1]}' in abstract; shown as written")
            break
        marker = _TEXT_MACROS[match[1]]
        inner = _replace_text_macros(text[match.end():end], problems)
        out.append(text[i:match.start()] + f"{marker}{inner}{marker}")
        i = end + 1
    out.append(text[i:])
    return "".join(out)


def _matching_brace(text: str, opening: int) -> int | None:
    depth = 0
    for index in range(opening, len(text)):
        if text[index] == "{" and text[index - 1] != "\\":
            depth += 1
        elif text[index] == "}" and text[index - 1] != "\\":
            depth -= 1
            if depth == 0:
                return index
    return None


@functools.lru_cache(maxsize=1)
def _latex_to_text() -> LatexNodes2Text:
    """One converter for the process: building it costs more than converting a formula."""
    return LatexNodes2Text(math_mode="text")


def math_to_text(latex: str) -> str:
    """A readable plain-text form of a formula: O(κ^3/2/Nϵ^3), LS²MC."""
    markdown_text = text_only_math(latex)
    if markdown_text is not None:
        return markdown_text.strip("*")
    try:
        # \url would come out as <address>: plain text has no angle brackets of ours
        text = _latex_to_text().latex_to_text(repair_math(latex).replace("\\url{", "\\texttt{"))
    except Exception:  # pylatexenc gives up on some malformed input: show it as written
        return latex
    return re.sub(r"\^([0-9n+\-=()])(?![0-9])", lambda m: m[1].translate(_SUPERSCRIPTS), text).strip()


class Markup:
    """Converts abstracts, titles and names; build one per process (it holds a converter)."""

    def __init__(self) -> None:
        self._markdown = _emphasis_only_markdown()

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
        """Both forms of a text from one Markdown pass: math and links wait in placeholders, as
        HTML for one form and as text for the other."""
        as_written = _as_written(text)
        if as_written:
            return as_written
        held: list[tuple[str, str]] = []  # (html, plain text) of each placeholder
        problems: list[str] = []

        def hold(fragment: str, as_text: str) -> str:
            held.append((fragment, html.escape(as_text, quote=False)))
            return _HOLD.format(len(held) - 1)

        segments, split_problems = split_math(replace_unsafe(text))
        problems += split_problems
        pieces: list[str] = []
        for segment in segments:
            if segment.kind != "text":
                as_text = text_only_math(segment.content)
                if as_text is not None:
                    segment = Segment("text", as_text, segment.written)
            if segment.kind == "text":
                prose, prose_problems = self._prose(segment.content, links, hold)
                pieces.append(prose)
                problems += prose_problems
                continue
            mathml = render_math(segment.content, display=segment.kind == "display")
            if mathml is None:
                problems.append(f"math {segment.written!r} could not be converted; shown as written")
                mathml = f'<code class="tex">{html.escape(segment.written)}</code>'
            pieces.append(hold(mathml, math_to_text(segment.content)))
        converted = self._markdown.reset().convert("".join(pieces))
        plain = _TAG.sub("", _HELD.sub(lambda m: held[int(m[1])][1], converted))
        return Converted(_HELD.sub(lambda m: held[int(m[1])][0], converted),
                         " ".join(html.unescape(plain).split()), tuple(problems))

    def _prose(self, text: str, links: bool, hold) -> tuple[str, list[str]]:
        """Escaped Markdown for a prose segment; URLs become held links first."""
        pieces: list[str] = []
        problems: list[str] = []
        position = 0
        for start, end, href in (find_urls(text) if links else []):
            before, before_problems = latex_text_to_markdown(text[position:start])
            pieces.append(_escape(before))
            problems += before_problems
            pieces.append(hold(f'<a href="{html.escape(href)}">{html.escape(text[start:end])}</a>', text[start:end]))
            position = end
        rest, rest_problems = latex_text_to_markdown(text[position:])
        pieces.append(_escape(rest))
        return "".join(pieces), problems + rest_problems


def _as_written(text: str) -> Converted | None:
    """A text with nothing to convert (most titles and names) as conversion would give it, sooner."""
    if _NOTHING_TO_CONVERT.fullmatch(text) and "--" not in text and "..." not in text and "  " not in text:
        return Converted(f"<p>{text}</p>", text, ())
    return None


def inline(paragraphs: str) -> str:
    """Paragraphs of HTML as one line of inline HTML."""
    return re.sub(r"^<p>|</p>$", "", paragraphs).replace("</p>\n<p>", " ")


def _escape(text: str) -> str:
    """Text made safe for the Markdown stage; placeholder characters in it become entities."""
    return html.escape(text, quote=False).replace("\ue000", "&#xe000;").replace("\ue001", "&#xe001;")


def _emphasis_only_markdown() -> markdown.Markdown:
    """Markdown that knows paragraphs, emphasis and typography only: no raw HTML, links, code or headings."""
    converter = markdown.Markdown(extensions=["smarty"])  # typographic quotes, dashes, ellipses
    for name in ("backtick", "reference", "link", "image_link", "image_reference", "short_reference",
                 "short_image_ref", "autolink", "automail", "linebreak", "html"):
        converter.inlinePatterns.deregister(name)
    for name in ("indent", "code", "hashheader", "setextheader", "hr", "olist", "ulist", "quote",
                 "reference"):
        converter.parser.blockprocessors.deregister(name)
    converter.preprocessors.deregister("html_block")
    return converter
