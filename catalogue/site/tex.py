"""Text as TeX reads it: a list's titles, names and venues become characters, never commands.

Whoever compiles the exported BibTeX runs TeX on it, perhaps with `--shell-escape`. Every
character TeX acts on in text (`\\ { } $ & % # _ ^ ~`) is written as the command that prints it,
so `\\input{/etc/passwd}` prints those characters. Only math (`$...$`, `\\(...\\)`) made of a safe
subset stays math: letters, digits, operators, braces, `^` and `_`, and the commands that draw
symbols (latex2mathml's table) or shape formulas (SHAPING). Any other formula is text too.

Beyond ASCII, pdflatex (and what BibTeX styles sort and change case on) expects each character as a
command: `{\\"o}`, `{$\\rho$}`, `\\infty` in math (pylatexenc's table), each braced as one letter.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from latex2mathml.symbols_parser import SYMBOLS
from pylatexenc.latex2text._defaultspecs import unicode_accents_list
from pylatexenc.latexencode import UnicodeToLatexEncoder

from catalogue.markup.latex_text import with_accents
from catalogue.markup.segments import split_math

# Each character TeX acts on, as a command that prints it. Braces print through commands of their
# own: BibTeX counts every brace, escaped or not, so `\{` would leave an entry unbalanced.
TEXT_ESCAPES = str.maketrans({
    "\\": r"\textbackslash{}", "{": r"\textbraceleft{}", "}": r"\textbraceright{}", "$": r"\$", "&": r"\&",
    "%": r"\%", "#": r"\#", "_": r"\_", "^": r"\textasciicircum{}", "~": r"\textasciitilde{}",
})
# Commands that shape a formula rather than draw a symbol.
SHAPING = frozenset("""frac dfrac tfrac sqrt binom mathbb mathcal mathrm mathbf mathit mathsf mathtt mathfrak
boldsymbol bm hat widehat tilde widetilde bar overline underline vec dot ddot acute grave breve check left right
middle big Big bigg Bigg bigl bigr Bigl Bigr bigm Bigm operatorname text textrm textit textbf mathop limits nolimits
log exp ln lg sin cos tan sec csc cot arcsin arccos arctan sinh cosh tanh max min sup inf lim liminf limsup arg det
dim ker deg gcd Pr hom mod bmod pmod quad qquad displaystyle textstyle scriptstyle""".split())
SAFE_COMMANDS = SHAPING | {name[1:] for name in SYMBOLS if name[1:].isalpha()}
# A command (a backslash and letters, or a backslash and one other character).
COMMAND = re.compile(r"\\([A-Za-z]+|.)", re.S)
# What a safe formula may hold besides commands: no '%', '#', '&', '~' or '$', nothing beyond ASCII.
SAFE_MATH_CHARACTERS = re.compile(r"[A-Za-z0-9\s+\-*/=<>()\[\]|,.;:!?'^_{}\\]*")
SAFE_ESCAPED = frozenset(",;:! {}|_")  # \, \; \: \! \  \{ \} \| \_
# LaTeX's text accents by the combining character each draws (pylatexenc's table: \' \" \v \c ...), for
# a letter whose accent Unicode has no composed form of (x plus U+0301) or pylatexenc no command for (ǎ, ț).
ACCENTS = {mark: name for name, mark in unicode_accents_list if len(name) == 1}
_UNCOMPOSED = re.compile("([^\\W\\d_])([" + "".join(ACCENTS) + "]+)")
# pylatexenc writes í as the accent over a dotless i, `\\'\\i`, which pdflatex prints but biber reads back as
# ı and a combining accent (U+0301), which inputenc cannot print: `\\'i`, which LaTeX also prints as í.
_ACCENTED_DOTLESS_I = re.compile(r"^(\\[`'^\"])\\i$")
# pylatexenc marks math symbols \ensuremath{...}: in text that becomes a formula of its own.
_ENSUREMATH = re.compile(r"\\ensuremath\{(.*)\}", re.S)


def tex_text(text: str) -> str:
    """Text TeX prints as written, character for character (LaTeX's accents, which pages show as
    accented letters, first become those letters, then TeX's commands for them)."""
    return tex_letters(unicodedata.normalize("NFC", with_accents(text)).translate(TEXT_ESCAPES))


def tex_letters(text: str, math: bool = False) -> str:
    """Each character beyond ASCII as the command TeX draws it with, in braces (`{\\'e}`; in text a math
    symbol is a formula, `{$\\rho$}`). A letter whose accent has no command keeps its letter (ț: t); a
    character with none at all (a Chinese one, an emoji) becomes `?`, one that draws nothing goes."""
    if text.isascii():
        return text
    text = _UNCOMPOSED.sub(lambda letter: _accented(letter[1], letter[2], math), unicodedata.normalize("NFC", text))
    return (_MATH_ENCODER if math else _TEXT_ENCODER).unicode_to_latex(text)


def _accented(letters: str, marks: str, math: bool) -> str:
    """Letters with accents Unicode has no composed character of (x and U+0301), or pylatexenc no command
    for (ǎ), as LaTeX's accents over them; an accent LaTeX has no command for goes (ț: t). Each letter is
    written alone: the encoder composes what it is given, and would give ǎ back."""
    written = "".join(tex_letters(letter.translate(TEXT_ESCAPES), math) for letter in letters)
    for mark in marks:
        written = "\\" + ACCENTS[mark] + "{" + written + "}" if mark in ACCENTS else written
    return "{" + written + "}" if marks else written


def _unknown(char: str, math: bool) -> str:
    """What pylatexenc has no command for: its compatibility or accent decomposition when it has one
    (Ⅻ: XII, ǎ: a and a caron), else `?`, or nothing for what draws nothing (a combining mark left alone)."""
    decomposed = unicodedata.normalize("NFKD", char)
    if decomposed == char:
        return "" if unicodedata.category(char) in ("Mn", "Me", "Cf") else "?"
    marks = "".join(c for c in decomposed if unicodedata.combining(c))
    return _accented("".join(c for c in decomposed if not unicodedata.combining(c)), marks, math)


def _in_text(latex: str) -> str:
    symbol = _ENSUREMATH.fullmatch(latex)
    return "{$" + symbol[1] + "$}" if symbol else "{" + _ACCENTED_DOTLESS_I.sub(r"\1i", latex) + "}"


def _in_math(latex: str) -> str:
    symbol = _ENSUREMATH.fullmatch(latex)
    return "{" + (symbol[1] if symbol else latex) + "}"


_TEXT_ENCODER = UnicodeToLatexEncoder(non_ascii_only=True, replacement_latex_protection=_in_text,
                                      unknown_char_policy=lambda char: _unknown(char, False), unknown_char_warning=False)
_MATH_ENCODER = UnicodeToLatexEncoder(non_ascii_only=True, replacement_latex_protection=_in_math,
                                      unknown_char_policy=lambda char: _unknown(char, True), unknown_char_warning=False)


def tex_with_math(text: str, protect: Callable[[str], str] = str) -> str:
    """Text with its safe formulas kept as math, each in braces (`{$...$}`: a style that lower-cases
    titles would otherwise make `\\Box` the primitive `\\box`); display math becomes inline. The rest
    is tex_text, then `protect` (which may brace words of it)."""
    if "$" not in text and "\\(" not in text and "\\[" not in text:
        return protect(tex_text(text))
    segments, _ = split_math(text)
    return "".join(_formula(segment.content) or protect(tex_text(segment.written)) if segment.kind != "text"
                   else protect(tex_text(segment.written)) for segment in segments)


def _formula(latex: str) -> str | None:
    """A formula as math, its symbols beyond ASCII as their commands (`$\\ell_∞$`: `$\\ell_{\\infty}$`),
    or None when it is not of the safe subset then."""
    latex = tex_letters(unicodedata.normalize("NFC", latex), math=True)
    return "{$" + latex + "$}" if is_safe_math(latex) else None


def is_safe_math(latex: str) -> bool:
    """Whether a formula is of the safe subset: its characters, its commands, balanced braces, no `^^`
    (TeX's notation for any character by its code, a backslash included). Braces balance as TeX counts
    them and as BibTeX does (every brace, `\\{` too)."""
    if not latex.strip() or latex.endswith("\\") or not SAFE_MATH_CHARACTERS.fullmatch(latex) or "^^" in latex:
        return False  # an empty formula would be `$$`, display math; a final backslash would take the closing `$`
    for command in COMMAND.finditer(latex):
        name = command[1]
        if name not in SAFE_COMMANDS and not (len(name) == 1 and name in SAFE_ESCAPED):
            return False
    return balanced(re.findall(r"[{}]", latex)) and balanced(re.findall(r"(?<!\\)[{}]", latex))


def balanced(braces: list[str]) -> bool:
    depth = 0
    for brace in braces:
        depth += 1 if brace == "{" else -1
        if depth < 0:
            return False
    return depth == 0
