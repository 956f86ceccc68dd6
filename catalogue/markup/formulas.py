"""One formula (the LaTeX between its delimiters) as MathML, or as readable plain text.

What copy-pasting did to a formula is repaired first, and macros a paper defined for itself become
what such shorthands stand for. latex2mathml makes the MathML at build time, kept only when it holds
the tags and attributes MathML may (else None: the caller shows the formula as written); pylatexenc
makes the plain text, writing a superscript or subscript as it was grouped (κ^(3/2), never κ³/2).
"""

from __future__ import annotations

import functools
import logging
import re

from latex2mathml import commands as latex_commands
from latex2mathml.converter import convert as latex_to_mathml
from latex2mathml.symbols_parser import SYMBOLS as latex_symbols
from pylatexenc.latex2text import LatexNodes2Text
from pylatexenc.latexwalker import LatexCharsNode, LatexGroupNode, LatexMacroNode, get_default_latex_context_db
from pylatexenc.macrospec import LatexContextDb

from catalogue.markup.inline_html import ATTRIBUTE, TAG

# pylatexenc logs what it cannot read ("macro '\\frac' failed its substitution!") to stderr, without
# the paper it came from; the conversion's own notes name the file and line instead.
logging.getLogger("pylatexenc").addHandler(logging.NullHandler())

# The superscripts plain text writes as Unicode characters: digits, signs and ⁿ (ℝⁿ); other letters'
# superscripts are missing from many fonts (and q has none). Subscripts stay written with _ (x_i, x_(ij)),
# as Unicode has subscripts for digits but for few letters.
_SUPERSCRIPT_FORMS = "0123456789+-=()n"
_SUPERSCRIPTS = str.maketrans(_SUPERSCRIPT_FORMS, "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿ")
_ONE_SUPERSCRIPT = re.compile(rf"\^([{re.escape(_SUPERSCRIPT_FORMS)}])(?![0-9])")  # x^2; x^12 unbraced stays

# What latex2mathml may emit; anything else (an href, say) sends the span back to text.
_MATHML_TAGS = {
    "math", "mrow", "mi", "mn", "mo", "ms", "mtext", "mspace", "msup", "msub", "msubsup",
    "mfrac", "msqrt", "mroot", "mover", "munder", "munderover", "mtable", "mtr", "mtd",
    "mstyle", "mpadded", "mphantom", "menclose", "semantics", "annotation", "merror",
}
_MATHML_ATTRIBUTES = {
    "display", "stretchy", "mathvariant", "fence", "separator", "lspace", "rspace",
    "accent", "accentunder", "movablelimits", "form", "minsize", "maxsize", "symmetric",
    "columnalign", "rowspacing", "columnspacing", "columnlines", "rowlines", "frame",
    "linethickness", "width", "height", "depth", "displaystyle", "scriptlevel", "notation",
    "largeop", "align",
}

# latex2mathml names MathML's namespace on every <math>: the HTML parser puts <math> in it by
# itself, and the formulas go into HTML pages only (the feed and data files carry plain text).
_NAMESPACE = ' xmlns="http://www.w3.org/1998/Math/MathML"'


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
        mathml = latex_to_mathml(repaired, display="block" if display else "inline").replace(_NAMESPACE, "", 1)
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


class _MathText(LatexNodes2Text):
    """pylatexenc's text of a formula, its scripts as grouped. pylatexenc drops a group's braces
    (κ^{3/2} -> κ^3/2); here a script's group, or a macro with arguments (^\\frac{1}{2}), becomes
    superscript characters only when every character of its text has one (x^{10} -> x¹⁰, x^{-1} -> x⁻¹),
    else it stays after its ^ or _, in parentheses when longer than one character (κ^(3/2), x_(ij))."""

    def chars_node_to_text(self, node, textcol=0):
        return _ONE_SUPERSCRIPT.sub(lambda m: m[1].translate(_SUPERSCRIPTS), super().chars_node_to_text(node, textcol))

    def nodelist_to_text(self, nodelist):
        text, start = "", 0
        for index in range(1, len(nodelist)):
            mark = _script_mark(nodelist[index - 1])
            if mark and _is_script_argument(nodelist[index]):
                before = super().nodelist_to_text(nodelist[start:index]).rstrip()
                text += before.removesuffix(mark) + _script(mark, self.node_to_text(nodelist[index]).strip())
                start = index + 1
        return text + super().nodelist_to_text(nodelist[start:])


def _script_mark(node) -> str | None:
    """^ or _ when node is text that ends with one, its script to come."""
    if node.isNodeType(LatexCharsNode) and node.chars.rstrip().endswith(("^", "_")):
        return node.chars.rstrip()[-1]
    return None


def _is_script_argument(node) -> bool:
    """A group, or a macro with arguments: a script that may be longer than one character. A bare
    macro (^\\top, ^\\alpha) is one symbol, which pylatexenc writes as it should."""
    if node.isNodeType(LatexMacroNode):
        return bool(node.nodeargd and node.nodeargd.argnlist)
    return node.isNodeType(LatexGroupNode)


def _script(mark: str, text: str) -> str:
    """A script's text after its base: in superscript characters if all of it has them, else after its mark."""
    if mark == "^" and text and all(char in _SUPERSCRIPT_FORMS for char in text):
        return text.translate(_SUPERSCRIPTS)
    if len(text) > 1 and not _parenthesized(text):
        return f"{mark}({text})"
    return mark + text if text else ""  # x^{}: TeX prints nothing


def _parenthesized(text: str) -> bool:
    """(t) but not (a)(b): x^{(t)} reads x^(t), without a second pair."""
    if not text.startswith("("):
        return False
    depth = 0
    for char in text[:-1]:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0:
            return False
    return text.endswith(")") and depth == 1


@functools.lru_cache(maxsize=1)
def latex2text() -> LatexNodes2Text:
    """One converter for the process: building it costs more than converting a formula."""
    return _MathText(math_mode="text")


@functools.lru_cache(maxsize=1)
def latex_macros() -> LatexContextDb:
    """pylatexenc's table of known macros, which its parser otherwise rebuilds for every formula."""
    return get_default_latex_context_db()


_TEMPLATE = re.compile(r"%(?:\(\w+\))?s")  # pylatexenc's placeholder for a macro's arguments


@functools.lru_cache(maxsize=4096)
def math_to_text(latex: str) -> str:
    """A readable plain-text form of a formula: O(κ^(3/2)/Nϵ³), LS²MC."""
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
    return text.strip()
