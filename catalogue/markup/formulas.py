"""One formula (the LaTeX between its delimiters) as MathML, or as readable plain text.

What copy-pasting did to a formula is repaired first, and macros a paper defined for itself become
what such shorthands stand for. latex2mathml makes the MathML at build time, kept only when it holds
the tags and attributes MathML may (else None: the caller shows the formula as written); pylatexenc
makes the plain text.
"""

from __future__ import annotations

import functools
import logging
import re

from latex2mathml import commands as latex_commands
from latex2mathml.converter import convert as latex_to_mathml
from latex2mathml.symbols_parser import SYMBOLS as latex_symbols
from pylatexenc.latex2text import LatexNodes2Text
from pylatexenc.latexwalker import get_default_latex_context_db
from pylatexenc.macrospec import LatexContextDb

from catalogue.markup.inline_html import ATTRIBUTE, TAG

# pylatexenc logs what it cannot read ("macro '\\frac' failed its substitution!") to stderr, without
# the paper it came from; the conversion's own notes name the file and line instead.
logging.getLogger("pylatexenc").addHandler(logging.NullHandler())

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
    if f"\\{name}" in mathml_macros():
        return f"\\{name}"
    if name in _SHORTHANDS:
        return _SHORTHANDS[name]
    if before_brace and len(name) > 1 and name in _STYLES:  # \\wt{O}, \\mb{R}
        return _STYLES[name]
    for style, command in _STYLES.items():
        rest = name.removeprefix(style)
        if rest != name and len(rest) == 1:
            return f"{command}{{{rest}}}"
        if rest != name and len(rest) > 1 and f"\\{rest}" in mathml_macros():
            return f"{command}{{\\{rest}}}"
    return f"\\mathbf{{{name}}}" if len(name) == 1 else f"\\operatorname{{{name}}}"


@functools.lru_cache(maxsize=1)
def mathml_macros() -> frozenset[str]:
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
    for tag in TAG.finditer(mathml):
        if tag[1] not in _MATHML_TAGS:
            return False
        if any(name not in _MATHML_ATTRIBUTES for name in ATTRIBUTE.findall(tag[2])):
            return False
    return True


@functools.lru_cache(maxsize=1)
def latex2text() -> LatexNodes2Text:
    """One converter for the process: building it costs more than converting a formula."""
    return LatexNodes2Text(math_mode="text")


@functools.lru_cache(maxsize=1)
def latex_macros() -> LatexContextDb:
    """pylatexenc's table of known macros, which its parser otherwise rebuilds for every formula."""
    return get_default_latex_context_db()


_TEMPLATE = re.compile(r"%(?:\(\w+\))?s")  # pylatexenc's placeholder for a macro's arguments


@functools.lru_cache(maxsize=4096)
def math_to_text(latex: str) -> str:
    """A readable plain-text form of a formula: O(κ^3/2/Nϵ^3), LS²MC."""
    markdown_text = text_only_math(latex)
    if markdown_text is not None:
        return markdown_text.strip("*")
    try:
        # \url would come out as <address>: plain text has no angle brackets of ours
        text = latex2text().latex_to_text(repair_math(latex).replace("\\url{", "\\texttt{"),
                                          latex_context=latex_macros())
    except Exception:  # pylatexenc gives up on some malformed input: show it as written
        return latex
    if _TEMPLATE.search(text) and not _TEMPLATE.search(latex):  # a macro's text it could not fill in: '%s/%s'
        return latex
    return re.sub(r"\^([0-9n+\-=()])(?![0-9])", lambda m: m[1].translate(_SUPERSCRIPTS), text).strip()
