"""Text as TeX reads it: a list's titles, names and venues become characters, never commands.

Whoever compiles the exported BibTeX runs TeX on it, perhaps with `--shell-escape`. Every
character TeX acts on in text (`\\ { } $ & % # _ ^ ~`) is written as the command that prints it,
so `\\input{/etc/passwd}` prints those characters. Only math (`$...$`, `\\(...\\)`) made of a safe
subset stays math: letters, digits, operators, braces, `^` and `_`, and the commands that draw
symbols (latex2mathml's table) or shape formulas (SHAPING). Any other formula is text too.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from latex2mathml.symbols_parser import SYMBOLS

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


def tex_text(text: str) -> str:
    """Text TeX prints as written, character for character (LaTeX's accents, which pages show as
    accented letters, first become those letters)."""
    return with_accents(text).translate(TEXT_ESCAPES)


def tex_with_math(text: str, protect: Callable[[str], str] = str) -> str:
    """Text with its safe formulas kept as math, each in braces (`{$...$}`: a style that lower-cases
    titles would otherwise make `\\Box` the primitive `\\box`); display math becomes inline. The rest
    is tex_text, then `protect` (which may brace words of it)."""
    if "$" not in text and "\\(" not in text and "\\[" not in text:
        return protect(tex_text(text))
    segments, _ = split_math(text)
    return "".join("{$" + segment.content + "$}" if segment.kind != "text" and is_safe_math(segment.content)
                   else protect(tex_text(segment.written)) for segment in segments)


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
