"""What assets/cite.js needs to write a paper's BibTeX entry as cite.py does, and whether it can.

cite.js escapes text as tex.py does, one character at a time: printable ASCII through tex.py's
TEXT_ESCAPES, any other character through the table written here (tex-letters.js, made from
tex.py itself, so the two never differ), loaded only by a page or an export that needs it. What it
cannot write (math, LaTeX commands, HTML, characters outside the table) the page or the reading
list's record carries as cite.py wrote it."""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import replace

from catalogue.markup.inline_html import without_inline_html
from catalogue.model import Paper
from catalogue.site.cite import booktitle, citation_key, entry_url, render_bibtex
from catalogue.site.json_text import plain_script_json
from catalogue.site.tex import tex_letters

TEX_LETTERS = "tex-letters"  # the table's part name: tex-letters.js, as assets/parts.js loads a part
# The blocks whose characters the table holds: Latin (names), Greek, punctuation, letter-like
# symbols, arrows and operators. Others (CJK: `?` to pdflatex) stay with the page.
_BLOCKS = ((0xA0, 0x250), (0x370, 0x400), (0x1E00, 0x1F00), (0x2000, 0x20D0), (0x2100, 0x2300))
# Characters the table leaves out: what NFC changes, marks and controls (tex.py treats them by their
# neighbours), and what JavaScript's \s and Python's disagree on.
_LEFT_OUT = frozenset(("Cc", "Cf", "Mn", "Me", "Cs", "Co", "Cn", "Zl", "Zp"))
_PRINTABLE_ASCII = re.compile(r"[ -#%-\[\]-~]*")  # without `$` (math) and `\` (LaTeX's commands)
_ADDRESS = re.compile(r"[!-~]*")


@functools.cache
def tex_table() -> dict[str, str]:
    """Each character of _BLOCKS as tex.py writes it, but those it cannot name (`?`)."""
    table = {}
    for start, end in _BLOCKS:
        for char in map(chr, range(start, end)):
            if unicodedata.normalize("NFC", char) == char and unicodedata.category(char) not in _LEFT_OUT \
                    and char not in "\x85\ufeff\u180e" and (written := tex_letters(char)) != "?":
                table[char] = written
    return table


def render_tex_table() -> str:
    """tex-letters.js: the table as a part (assets/parts.js)."""
    name = plain_script_json(TEX_LETTERS)
    return f"(window.CATALOGUE_PARTS = window.CATALOGUE_PARTS || {{}})[{name}] = {plain_script_json(tex_table())};\n"


def script_writes(text: str) -> bool:
    """Whether cite.js escapes the text as tex.py does: printable ASCII but `$` and `\\`, and the table's."""
    text = unicodedata.normalize("NFC", text)
    return bool(_PRINTABLE_ASCII.fullmatch(text)) or all(_PRINTABLE_ASCII.fullmatch(char) or char in tex_table()
                                                           for char in text)


def needs_table(texts) -> bool:
    return not all(text.isascii() for text in texts)


def script_inputs(paper: Paper, title: str, authors: tuple[str, ...], page_url: str | None) -> dict:
    """What cite.js reads (catalogueBibtex): the title and authors as the page says them, the
    booktitle, year, addresses, DOI and key as cite.py writes them."""
    return {"title": title, "authors": list(authors), "booktitle": booktitle(paper.venue, paper.year) if paper.venue else "",
            "year": str(paper.year or ""), "url": entry_url(paper, page_url) or "", "pdf": paper.pdf or "",
            "doi": paper.doi or "", "key": citation_key(paper)}


def script_makes(paper: Paper, inputs: dict, bibtex: str) -> bool:
    """Whether cite.js, given `inputs`, writes `bibtex` (cite.py's entry): each text is one it escapes
    as tex.py does, the title holds no HTML, and cite.py writes the same entry from those texts."""
    texts = (inputs["title"], inputs["booktitle"], *inputs["authors"])
    if not all(map(script_writes, texts)) or without_inline_html(inputs["title"]) != inputs["title"] \
            or not all(_ADDRESS.fullmatch(inputs[name]) for name in ("url", "pdf", "doi")):
        return False
    said = replace(paper, title=inputs["title"], authors=tuple(inputs["authors"]), pdf=inputs["pdf"] or None, url=None,
                   doi=inputs["doi"] or None, cite_key=inputs["key"])
    return inputs["booktitle"] == (booktitle(paper.venue, paper.year) if paper.venue else "") and \
        render_bibtex(said, inputs["url"] or None) == bibtex
