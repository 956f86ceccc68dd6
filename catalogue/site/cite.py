"""A paper's BibTeX from its front matter, and its venue as pages name it (assets/cite.js writes its
citation as text and as Markdown)."""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import quote

import yaml

from catalogue.text import replace_unsafe
from catalogue.markup.inline_html import without_inline_html
from catalogue.model import Paper
from catalogue.content.cite_keys import base_key
from catalogue.site.tex import tex_text, tex_with_math

_MATH = re.compile(r"\$[^$]*\$")
_LINE_BREAKS = re.compile(r"[\t\n\r\x0c\u2028\u2029]")
_INNER_CAPITAL = re.compile(r"[^\s\-][A-Z]")
# What a word's letters are read through: `G{\"O}DEL` is GODEL to a style that changes case.
_COMMAND_OR_BRACE = re.compile(r"\\(?:[A-Za-z]+|.)|[{}]")
PROCEEDINGS = Path(__file__).with_name("proceedings.yaml")  # venue -> its proceedings' full name
# Authors a BibTeX entry names before "and others" (BibTeX's et al.): bibtex holds a field in a
# buffer of limited size, and a longer list is cut mid-name.
MAX_BIBTEX_AUTHORS = 100
# Words of a title that name an entry with no authors (its `key`): a formula counts as one word.
KEY_WORDS = 4
_WORD = re.compile(r"(?:\$[^$]*\$|\S)+")
# What could end the field or, typeset, start a command (`^^5c` is TeX's backslash): percent-encoded.
_URL_ESCAPES = str.maketrans({"{": "%7B", "}": "%7D", "\\": "%5C", "^": "%5E"})
DOI_RESOLVER = "https://doi.org/"
# What a DOI keeps in its address: the DOI Handbook asks to percent-encode `%"#?` and space, and advises
# `<>{}^[]`|\` too (assets/cite.js decodes it back: decodeURIComponent).
_DOI_KEPT = "/:;()!*,=@$&'+"


def citation_key(paper: Paper) -> str:
    """author-year-word, as recorded in its content file (content/cite_keys.py): krichene2014convergence."""
    return paper.cite_key or base_key(paper)


@functools.cache
def _proceedings() -> dict[str, str]:
    return {venue.casefold(): name for venue, name in yaml.safe_load(PROCEEDINGS.read_text(encoding="utf-8")).items()}


def booktitle(venue: str | None, year: int | None) -> str:
    """What an entry names the venue by: its proceedings' full name when proceedings.yaml knows the
    venue (the year is a field of its own), else the venue and year as pages name them."""
    return _proceedings().get((venue or "").casefold()) or venue_year_label(venue, year, "")


def bibtex_field(text: str, math: bool = False) -> str:
    """A field value for BibTeX, braced: the text as TeX prints it (tex.py), with its safe formulas
    kept as math when `math` is set. Braces come only in matched pairs, so the value cannot end
    its entry; control characters go."""
    text = unicodedata.normalize("NFC", _printable(text))  # a name's é may come as e and U+0301
    return "{" + (tex_with_math(text) if math else tex_text(text)) + "}"


def bibtex_url(url: str) -> str:
    """An address as a braced field: the characters that could end the field are percent-encoded,
    which leaves the address the same."""
    return "{" + _printable(url).translate(_URL_ESCAPES) + "}"


def doi_address(doi: str) -> str:
    """The DOI's address at its resolver: https://doi.org/10.1002/(SICI)...%3C693::AID-ASI4%3E3.0.CO;2-O."""
    return DOI_RESOLVER + quote(doi, safe=_DOI_KEPT)


def _printable(text: str) -> str:
    """Line breaks and tabs as spaces, other control characters (and noncharacters) removed."""
    return replace_unsafe(_LINE_BREAKS.sub(" ", text), "")


def protect_capitals(title: str) -> str:
    """Braces around words with inner capitals (WZ-LLM, EgoTSR, LS$^2$MC, G{\\"O}DEL), which styles would
    lower-case; 'Neuro-Symbolic' and `{\\"U}ber` only start their parts with capitals and are left alone."""
    def protect(word: str) -> str:
        letters = _COMMAND_OR_BRACE.sub("", _MATH.sub("", word) if "$" in word else word)
        return "{" + word + "}" if _INNER_CAPITAL.search(letters) else word
    return " ".join(protect(word) for word in title.split(" "))


def entry_url(paper: Paper, page_url: str | None) -> str | None:
    """The entry's `url`: the paper's page on the site when the base URL is known, else its page in
    the proceedings when the list gives one."""
    return page_url or paper.url


def proceedings_names(venues: Iterable[str]) -> dict[str, str]:
    """venue -> its proceedings' name, for the catalogue's venues proceedings.yaml knows (site-data.js:
    cite.js names the booktitle from it, so that no page need say it)."""
    return {venue: name for venue in sorted(set(venues)) if (name := _proceedings().get(venue.casefold()))}


def render_bibtex(paper: Paper, url: str | None) -> str:
    """An entry with what is known of the paper (no note: a derived title is marked on the site, and a
    citation manager would carry the note into every bibliography). @inproceedings needs authors, a
    venue and a year (plain.bst warns of each one missing, biblatex wants all but the year); else it
    is @misc, which needs only a title, with the venue as `howpublished` and, without authors, a `key`
    of the title's first words, which bibtex sorts by and natbib shows in their place."""
    plain_title = unicodedata.normalize("NFC", _printable(without_inline_html(paper.title)))  # LaTeX has no HTML
    fields = [("title", "{" + tex_with_math(plain_title, protect_capitals) + "}")]
    in_proceedings = bool(paper.authors and paper.venue and paper.year)
    if paper.authors:
        listed = paper.authors[:MAX_BIBTEX_AUTHORS] + (("others",) if len(paper.authors) > MAX_BIBTEX_AUTHORS else ())
        fields.append(("author", bibtex_field(" and ".join(listed))))
    else:
        fields.append(("key", bibtex_field(" ".join(_WORD.findall(plain_title)[:KEY_WORDS]), math=True)))
    if paper.venue:
        venue = bibtex_field(booktitle(paper.venue, paper.year))
        fields.append(("booktitle" if in_proceedings else "howpublished", venue))
    if paper.year:
        fields.append(("year", str(paper.year)))
    if paper.doi:  # verbatim to biblatex, url.sty's \url to plainnat (its \doi): escaped as an address
        fields.append(("doi", bibtex_url(paper.doi)))
    if url := entry_url(paper, url):
        fields.append(("url", bibtex_url(url)))
    if paper.pdf:
        fields.append(("pdf", bibtex_url(paper.pdf)))
    body = ",\n".join(f"  {name} = {value}" for name, value in fields)
    return f"@{'inproceedings' if in_proceedings else 'misc'}{{{citation_key(paper)},\n{body}\n}}\n"


def venue_label(paper: Paper, unknown: str = "Unknown venue") -> str:
    return venue_year_label(paper.venue, paper.year, unknown)


def venue_year_label(venue: str | None, year: int | None, unknown: str = "Unknown venue") -> str:
    """'ICML 2026': the name of a venue's page (and what a citation gives as the venue); `unknown`
    without a venue (pages pass it in their language)."""
    if not venue:
        return unknown
    return f"{venue} {year}" if year else venue
