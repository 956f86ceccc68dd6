"""Hostile input takes ordinary time (issue 23): ingest of one paragraph (tidy it, convert it,
extract from it) is linear in its length, whatever the paragraph holds.

Each paragraph below, 10 to 40 KB, once took seconds to minutes (a pattern re-run from every
position, a closing delimiter looked for again from every opening one, recursion per nested
macro). It is timed against real abstracts (seeds/) joined into one paragraph of the same
length, in the same run: no wall-clock limit, only a ratio, so a slow or busy machine does not
matter. A quadratic cost at these lengths is hundreds of times the ordinary one.
"""

from __future__ import annotations

import functools
import time

import pytest

from catalogue.content.taxonomy import read_taxonomy
from catalogue.ingest.derive import derive_paper
from catalogue.markup.convert import TextConverter
from catalogue.model import Record, Source
from catalogue.ingest.text_lists import read_seed_document

from conftest import PROJECT

# A linear cost may be a few times the ordinary one (a paragraph of nothing but formulas or
# emphasis markers does more work per character); the floor absorbs a busy machine's jitter.
RATIO = 10
FLOOR_SECONDS = 0.2

PATHOLOGICAL = {
    # The findings, at 20-40 KB
    "prices $5$5$5...": "$5" * 10_000,
    "10,000 digits after 'improve'": "We improve " + "1" * 20_000,
    "a.a.a...": "a." * 20_000,
    "A-A-A-...": "A-" * 10_000,
    "two backquotes x20,000": "``" * 20_000,
    "< x40,000": "<" * 40_000,
    # Our own
    "\\emph{ nested 2,000 deep": "\\emph{" * 2_000 + "x" + "}" * 2_000,
    "\\emph{ x4,000 never closed": "\\emph{" * 4_000,
    "{ x20,000": "{" * 20_000,
    "\\ x20,000": "\\" * 20_000,
    "_* alternating": "_*" * 10_000,
    "*a _b alternating": "*a _b " * 5_000,
    "* x20,000": "*" * 20_000,
    "a 40 KB word": "a" * 40_000,
    "a word with 20,000 underscores inside": "a" + "_" * 20_000 + "b",
    "5,000 URLs": "see https://a.io/x " * 5_000,
    "5,000 bare domains": "ab.io " * 5_000,
    "a URL and 40,000 parentheses": "https://a.io/" + ")" * 40_000,
    "[ x10,000": "[" * 10_000,
    "$ x20,000": "$" * 20_000,
    "\\( x10,000 never closed": "\\(" * 10_000,
    "\\begin{equation} x2,000 never closed": "\\begin{equation}" * 2_000,
    "prices around prose": "$5 abc def ghi " * 1_500,
    "5,000 numbered sentences": " ".join(f"A{number}." for number in range(5_000)),
    "evaluated on 6,000 names": "We evaluate on " + "A1 " * 6_000 + "benchmark.",
    "10,000 straight quotes": '"a ' * 10_000,
    "10,000 numbered sentences": " ".join(f"A{number}." for number in range(10_000)),
    # Inline HTML, links and LaTeX of real abstracts (issue 18)
    "<b> x10,000 never closed": "<b>" * 10_000,
    "</b> x10,000 never opened": "</b>" * 10_000,
    "a tag's attributes x5,000, never closed": "<a" + " b=c" * 5_000,
    "<a b x10,000": "<a b" * 10_000,
    "<a href> x5,000 around one URL": '<a href="https://a.io">' * 5_000 + "https://a.io",
    "[ then 20,000 letters": "[" + "a" * 20_000,
    "[a]( x5,000": "[a](" * 5_000,
    "\\href{ x5,000": "\\href{" * 5_000,
    "\\url{ x5,000": "\\url{https://a.io" * 2_000,
    "&# x10,000": "&#" * 10_000,
    "$ \\x $ x5,000": "$ \\x $ " * 5_000,
    "$ and a space x10,000": "$ " * 10_000,
    "\\sqrt x10,000": "\\sqrt" * 10_000,
    "\\frac{ x10,000": "\\frac{" * 10_000,
    "{\\em x5,000 never closed": "{\\em " * 5_000,
    "2,000 sentences that each name something": " ".join(f"We propose FooNet{n}, a model named BarNet{n}."
                                                          for n in range(2_000)),
}


@functools.lru_cache(maxsize=1)
def context() -> tuple:
    taxonomy, fallback = read_taxonomy(PROJECT / "content")
    return taxonomy, fallback, TextConverter()


def ingest_seconds(*texts: str) -> list[float]:
    """For each text ingested as one paragraph, the fastest of three ingests (the least disturbed);
    the texts take turns, so that a machine busy with other work slows each alike."""
    taxonomy, fallback, markup = context()
    records = [Record(Source("seeds/x.txt", 3), text, venue="ICML", year=2026) for text in texts]
    times = [[] for _ in texts]
    for _ in range(3):
        for record, taken in zip(records, times):
            start = time.perf_counter()
            derive_paper("x", record, taxonomy, fallback, markup)
            taken.append(time.perf_counter() - start)
    return [min(taken) for taken in times]


@functools.lru_cache(maxsize=None)
def ordinary_text(length: int) -> str:
    """Real abstracts joined into one paragraph of this length."""
    abstracts = [paragraph.text for path in sorted((PROJECT / "seeds").glob("*.txt"))
                 for paragraph in read_seed_document(path).paragraphs[1:]]
    text = " ".join(abstracts)
    while len(text) < length:
        text = f"{text} {text}"
    return text[:length]


@pytest.mark.parametrize("text", PATHOLOGICAL.values(), ids=PATHOLOGICAL.keys())
def test_hostile_paragraph_takes_ordinary_time(text):
    seconds, ordinary = ingest_seconds(text, ordinary_text(len(text)))
    assert seconds <= RATIO * ordinary + FLOOR_SECONDS, \
        f"{seconds:.2f} s for {len(text):,} characters; real abstracts of that length take {ordinary:.3f} s"


@pytest.mark.parametrize("text", [
    "\\emph{" * 2_000 + "deep" + "}" * 2_000,
    "We study \\textbf{" * 2_000 + "deep",
])
def test_a_deep_macro_nest_is_shown_as_written_with_a_note(text):
    taxonomy, fallback, markup = context()
    record = Record(Source("seeds/x.txt", 3), text, venue="ICML", year=2026)
    paper, notes, converted = derive_paper("x", record, taxonomy, fallback, markup)
    assert "deep" in converted.plain and "deep" in converted.html
    assert paper.title
    assert any(note.source == Source("seeds/x.txt", 3) and "nested more than" in note.message
               for note in notes), notes
