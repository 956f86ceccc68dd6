"""Words joined by a dash: Pagefind and the offline index part them alike, the reader sees them as written.

Pagefind parts words at ASCII punctuation only; catalogue/search/joiners.py's mark_joiners marks every
other dash and joining mark in a paper page's indexed text, and words() (the offline index) parts
words at every mark. The engine tests index hand-made pages with the Pagefind binary and search
them with Pagefind's own script in Chromium.
"""

from __future__ import annotations

import html
import re
import string
import unicodedata
from collections.abc import Iterator

import pytest
from hypothesis import given, strategies as st

from catalogue.search.bundles import run_pagefind
from catalogue.search.joiners import is_joining_dash, mark_joiners
from catalogue.text import words
from conftest import BuiltSite, serve_folder
from catalogue.routes import bucket

DASHES = tuple(chr(code) for code in range(0x80, 0x110000) if unicodedata.category(chr(code)) == "Pd")
# Other marks that join words in real abstracts (../shared/corpus): an ellipsis, a middle dot, an
# arrow, a multiplication sign, a bracket beyond ASCII.
OTHER_JOINERS = ("\u2026", "\u00b7", "\u2192", "\u00d7", "\u27e8")
JOINERS = DASHES + OTHER_JOINERS
TAG = re.compile(r"<[^>]*>")
TIMEOUT_MS = 10_000


def visible(markup: str) -> str:
    """The text a reader sees (and copies) of some HTML."""
    return html.unescape(TAG.sub("", markup))


def pair(number: int) -> tuple[str, str]:
    """Two made-up words no stemmer changes, distinct for each number."""
    letters = "bcdfgkmnprtvz"
    code = "".join(letters[number // len(letters) ** place % len(letters)] for place in range(3))
    return f"qvel{code}", f"zorb{code}"


# --- the marks: where they go, and that the reader sees nothing of them ----------------------


MARK = '<span data-pagefind-ignore data-pagefind-index-attrs="data-indexed" data-indexed="{} ">{}</span>'


@pytest.mark.parametrize("text, marked", [
    ("symmetry\u2014e.g.", "symmetry" + MARK.format("\u2014", "\u2014") + "e.g."),
    # A dash that joins words: the whole word, indexed with a hyphen (Pagefind also indexes it joined).
    ("<p>Kullback\u2013Leibler bound</p>", "<p>" + MARK.format("Kullback-Leibler", "Kullback\u2013Leibler") + " bound</p>"),
    ('say "a\u2013b"', "say " + MARK.format("&quot;a-b&quot;", '"a\u2013b"')),
    ("state\u2013of\u2014art", MARK.format("state-of \u2014 art", "state\u2013of\u2014art")),
    # A word split by an inline tag stays one word: only its dash is marked.
    ("<b>N</b>euron\u2013based", "<b>N</b>euron" + MARK.format("\u2013", "\u2013") + "based"),
    ("3\u00d73 and x\u2192y", "3" + MARK.format("\u00d7", "\u00d7") + "3 and x" + MARK.format("\u2192", "\u2192") + "y"),
])
def test_joiners_are_marked(text, marked):
    assert mark_joiners(text) == marked


@pytest.mark.parametrize("text", [
    "a \u2014 b", "ends\u2014", "\u2014starts",  # a dash beside a space parts nothing
    "model\u2019s \u201cquoted\u201d words",  # quotation marks are not joiners
    "\u65b9\u6cd5\u2014\u5b83",  # Chinese: Pagefind's segmenter cuts it
    '<math><mi>a</mi><mo>\u2013</mo><mi>b</mi></math>', '<a href="x\u2013y">link</a>',  # math and tags as they are
    "plain ASCII - text",
])
def test_text_without_joiners_is_left_as_it_is(text):
    assert mark_joiners(text) == text


PIECES = st.sampled_from(["word", "Leibler", "e.g.", " ", "\u00a0", "<em>", "</em>", "<p>", "</p>", "&amp;", '"',
                          "\u2019", "\u65b9", "<math><mo>\u2212</mo></math>", *JOINERS[:6], *OTHER_JOINERS])


@given(st.lists(PIECES, max_size=30))
def test_the_reader_sees_the_text_as_written(pieces):
    text = "".join(pieces)
    marked = mark_joiners(text)
    assert visible(marked) == visible(text)
    assert marked.count("<span") == marked.count("</span>")


def test_a_paper_page_marks_its_abstract_and_keeps_it_as_written(built_site: BuiltSite):
    page = (built_site.out / "papers" / bucket("high-dimensional-word-embedding-models") / "high-dimensional-word-embedding-models" / "index.html").read_text(
        encoding="utf-8")
    abstract = re.search(r'<section class="abstract".*?</section>', page, re.DOTALL)[0]
    assert 'data-indexed="\u2014 "' in abstract
    assert "translation symmetry\u2014e.g" in visible(abstract)


# --- the two engines part the same words ------------------------------------------------------


def page_html(text: str) -> str:
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>t</title></head><body>'
            f'<main data-pagefind-body><p>{text}</p></main></body></html>\n')


@pytest.fixture(scope="module")
def pagefind_search(browser, tmp_path_factory) -> Iterator:
    """search(query) -> the pages Pagefind finds among: marked/<n>.html and as-written/<n>.html,
    the words of pair(n) joined by JOINERS[n], with and without mark_joiners."""
    root = tmp_path_factory.mktemp("joiners")
    pages = root / "pages"
    for folder, prepare in (("marked", mark_joiners), ("as-written", str)):
        (pages / folder).mkdir(parents=True)
        for number, joiner in enumerate(JOINERS):
            left, right = pair(number)
            (pages / folder / f"{number}.html").write_text(page_html(prepare(f"{left}{joiner}{right}")),
                                                           encoding="utf-8")
    run_pagefind(pages, root / "site" / "pagefind", "en")
    (root / "site" / "index.html").write_text("<!DOCTYPE html><title>search</title>", encoding="utf-8")
    with serve_folder(root / "site") as address:
        context = browser.new_context()
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(address + "index.html")

        def search(queries: list[str]) -> list[set[str]]:
            return [set(found) for found in page.evaluate("""async queries => {
                const pagefind = await import(new URL('pagefind/pagefind.js', document.baseURI).href);
                const found = [];
                for (const query of queries) {
                    const search = await pagefind.search(query);
                    found.push(await Promise.all(search.results.map(async r => (await r.data()).url)));
                }
                return found;
            }""", queries)]

        yield search
        context.close()


def test_pagefind_alone_keeps_every_joiner_inside_a_word(pagefind_search):
    """Why the marks: as written, no joiner parts the words it joins."""
    found = pagefind_search([pair(number)[1] for number in range(len(JOINERS))])
    parted = [f"U+{ord(joiner):04X}" for number, joiner in enumerate(JOINERS) if f"/as-written/{number}.html" in found[number]]
    assert parted == [], "Pagefind now parts words at these itself"


def test_pagefind_and_the_offline_index_part_words_at_every_joiner(pagefind_search):
    queries = [word for number in range(len(JOINERS)) for word in pair(number)]
    found = iter(pagefind_search(queries))
    missed = []
    for number, joiner in enumerate(JOINERS):
        left, right = pair(number)
        if not all(f"/marked/{number}.html" in next(found) for _ in (left, right)):
            missed.append(f"Pagefind U+{ord(joiner):04X}")
        if words(f"{left}{joiner}{right}") != [left, right]:
            missed.append(f"words() U+{ord(joiner):04X}")
    assert missed == []


def test_a_word_joined_by_a_dash_is_found_as_typed_with_a_hyphen(pagefind_search):
    """As Pagefind indexes "low-rank": the parts, and the word joined ("Kullback–Leibler" is found by "Kullback-Leibler")."""
    joining = [number for number, joiner in enumerate(JOINERS) if is_joining_dash(joiner)]
    assert len(joining) > len(DASHES) / 2
    found = pagefind_search(["-".join(pair(number)) for number in joining])
    assert [f"U+{ord(JOINERS[n]):04X}" for n, hits in zip(joining, found) if f"/marked/{n}.html" not in hits] == []


def test_words_part_ascii_punctuation_as_pagefind_does():
    for number, mark in enumerate(string.punctuation):
        left, right = pair(number)
        assert words(f"{left}{mark}{right}") == [left, right], mark
