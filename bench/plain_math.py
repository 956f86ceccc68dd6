"""Superscripts and subscripts of real abstracts in plain text: groups cut in two.

    python bench/plain_math.py [--every 4] [--project /path/to/other/checkout] [--examples 10]

A script group of more than one character (`\\kappa^{3/2}`) reads wrongly in plain text when part
of it is written in Unicode script characters and the rest follows as plain text: "κ³/2" reads as
κ³ divided by 2. The detector starts from the LaTeX, not from the converter: for each `^{...}` or
`_{...}` of every formula of every corpus abstract whose text (the group's own content as text) is
longer than one character, it looks in the formula's plain text, and in the abstract's plain text
(what descriptions, feeds, search and citations are made from), for a first part of the group in
any of Unicode's superscript (or subscript) forms directly followed by the rest of the group as
written (spaces aside). --project measures another checkout's catalogue package (the main branch, say).
"""

from __future__ import annotations

import functools
import re
import sys
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.markup_corpus import CORPUS, corpus_arguments, read_abstracts  # noqa: E402

_SCRIPT_START = re.compile(r"(?<!\\)([\^_])\s*(\\[A-Za-z]+\s*)?(?=\{)")  # ^{...}, and ^\frac{1}{4}


@functools.cache
def script_forms() -> dict[str, dict[str, str]]:
    """For ^ and _, each character that Unicode writes as a superscript (subscript) and all its forms:
    {"^": {"3": "³", "n": "ⁿ", ...}, "_": {"3": "₃", ...}}, from Unicode's own <super> and <sub> mappings."""
    forms: dict[str, dict[str, str]] = {"^": {}, "_": {}}
    for code in range(0x80, 0x20000):
        tag, _, base = unicodedata.decomposition(chr(code)).partition(" ")
        if tag in ("<super>", "<sub>") and base and " " not in base:
            mark = "^" if tag == "<super>" else "_"
            forms[mark][chr(int(base, 16))] = forms[mark].get(chr(int(base, 16)), "") + chr(code)
    for mark in forms:  # ⁻ and ₋ are a minus sign's; formulas' text writes a hyphen for it
        forms[mark]["-"] = forms[mark]["\u2212"]
    return forms


def script_groups(latex: str) -> list[tuple[str, str]]:
    """(mark, content) of each braced superscript or subscript of a formula, nested ones included:
    ^{3/2} gives 3/2, and a macro with braced arguments, ^\\frac{1}{4}, gives the macro and its arguments."""
    groups = []
    for start in _SCRIPT_START.finditer(latex):
        end = _group_end(latex, start.end())
        while start[2] and end is not None and latex[end:end + 1] == "{":
            end = _group_end(latex, end)  # the macro's next argument
        if end is not None:  # a group without its braces; a macro with its arguments
            groups.append((start[1], latex[start.start(2):end] if start[2] else latex[start.end() + 1:end - 1]))
    return groups


def _group_end(latex: str, index: int) -> int | None:
    """Where the braced group opening at index ends (after its closing brace); None if it never does."""
    depth = 0
    while index < len(latex):
        if latex[index] == "\\":
            index += 1  # an escaped brace is text
        elif latex[index] in "{}":
            depth += 1 if latex[index] == "{" else -1
            if depth == 0:
                return index + 1
        index += 1
    return None


def cut_group(mark: str, text: str) -> re.Pattern | None:
    """What a group's text looks like cut in two: a first part in script forms, the rest as written."""
    forms = script_forms()[mark]
    cuts = []
    for split in range(1, len(text)):
        if all(char in forms for char in text[:split]):
            cuts.append("".join(f"[{forms[char]}]" for char in text[:split]) + re.escape(text[split:]))
    return re.compile("|".join(cuts)) if cuts else None


def unspaced(text: str) -> str:
    """Text without its spaces: a group's text alone and in its formula may be spaced differently."""
    return "".join(text.split())


@dataclass
class Counts:
    groups: int = 0  # script groups longer than one character
    formulas: int = 0  # formulas holding one
    cut_groups: int = 0  # of those groups, cut in their formula's plain text
    cut_formulas: int = 0
    cut_plains: int = 0  # abstracts whose plain text cuts one
    examples: list[str] = field(default_factory=list)


def count_cut_groups(abstracts: list[str]) -> Counts:
    from catalogue.markup.convert import TextConverter
    from catalogue.markup.formulas import math_to_text
    from catalogue.markup.segments import split_math
    markup, counts = TextConverter(), Counts()
    for abstract in abstracts:
        plain, cut_here = None, False
        for segment in split_math(abstract)[0]:
            if segment.kind == "text":
                continue
            texts = [(mark, unspaced(math_to_text(content))) for mark, content in script_groups(segment.content)]
            patterns = [cut_group(mark, text) for mark, text in texts if len(text) > 1]
            if not patterns:
                continue
            counts.groups += len(patterns)
            counts.formulas += 1
            text = unspaced(math_to_text(segment.content))
            cut = sum(1 for pattern in patterns if pattern and pattern.search(text))
            counts.cut_groups += cut
            if cut:
                counts.cut_formulas += 1
                counts.examples.append(f"{segment.written[:100]} -> {text[:100]}")
            plain = unspaced(markup.plain(abstract)) if plain is None else plain
            cut_here = cut_here or any(pattern and pattern.search(plain) for pattern in patterns)
        counts.cut_plains += cut_here
    return counts


def main() -> None:
    args = corpus_arguments(__doc__, "cut groups")
    abstracts = read_abstracts(args.every)
    counts = count_cut_groups(abstracts)
    print(f"{len(abstracts)} abstracts ({CORPUS.name}, every {args.every}), catalogue from {args.project}")
    print(f"script groups longer than one character: {counts.groups}, in {counts.formulas} formulas")
    print(f"such groups cut in their formula's plain text: {counts.cut_groups}, in {counts.cut_formulas} formulas")
    print(f"abstracts whose plain text cuts such a group: {counts.cut_plains}")
    for example in counts.examples[:args.examples]:
        print("   ", example)


if __name__ == "__main__":
    main()
