"""LaTeX text commands in an abstract's prose -> Markdown (not yet escaped).

Text macros (\\emph{}, \\textbf{}), font switches ({\\em }), accents (Cram\\'er), quotes (``like this''),
dashes, ties and escaped characters become Markdown emphasis or the characters they print; a math macro
written in prose becomes its text. Unknown commands, unbalanced braces and too-deep nests are shown as
written and reported.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from pylatexenc.latex2text import get_default_latex_context_db as get_default_text_context_db
from pylatexenc.macrospec import LatexContextDb

from catalogue.markup.formulas import latex2text, latex_macros, math_to_text, mathml_macros, resolve_macro

# {\\url{...}}, {$x$}: LaTeX's grouping around a fragment the conversion holds in a placeholder, unseen
_GROUPED_PLACEHOLDER = re.compile("(?<!\\\\)\\{(\ufdd0\\d+\ufdd1)\\}")

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


def is_latex_macro(name: str) -> bool:
    """Whether \\name is a LaTeX command that abstracts use (in math or in text)."""
    return f"\\{name}" in mathml_macros() or name in _TEXT_MACROS or name in _SWITCHES


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
    letter = unicodedata.normalize("NFC", latex2text().latex_to_text(written, latex_context=latex_macros()))
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
    if f"\\{name}" not in mathml_macros():
        resolved = resolve_macro(name, False)
        known = not resolved.startswith(("\\operatorname{", "\\mathbf{"))
        return macro.start() + 1 + len(name) if known else None  # \\eps, \\sqrtT: their argument is in the name
    spec = latex_macros().get_macro_spec(name)
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
    if latex_macros().get_macro_spec(name) is not None:
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
def _latex_text_macros() -> LatexContextDb:
    """pylatexenc's table of what macros stand for in text."""
    return get_default_text_context_db()
