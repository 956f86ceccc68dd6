"""Abstracts a list wraps whole in quote marks are unwrapped at ingest (catalogue/ingest/quotes.py),
on real abstracts (ECCV's list wraps them) and on generated ones."""

import json
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from catalogue.ingest.formats import parse_seed_records
from catalogue.ingest.quotes import PAIRS, unquoted

DATA = Path(__file__).parent / "data"


def corpus(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines()]


def test_real_wrapped_abstracts_lose_their_quote_marks_alone():
    wrapped = [row["abstract"].strip() for row in corpus("corpus_sample.jsonl")
               if row["abstract"].strip()[:1] == '"' and row["abstract"].strip()[-1:] == '"']
    assert len(wrapped) > 20
    for text in wrapped:
        assert unquoted(text) == text[1:-1].strip()


@pytest.mark.parametrize("row", corpus("quoted_abstracts.jsonl"), ids=lambda row: row["title"][:30])
def test_real_abstracts_that_are_not_one_quotation_keep_their_marks(row):
    assert unquoted(row["abstract"]) == row["abstract"]


@pytest.mark.parametrize("text, expected", [
    ('"We present X."', "We present X."),
    ('  \u201cWe present X.\u201d ', "We present X."),
    ('"We call it "Y" here."', 'We call it "Y" here.'),
    ('"A model\'s view, \u201cquoted\u201d."', "A model's view, \u201cquoted\u201d."),
    ('"Y" and "Z"', '"Y" and "Z"'),  # two quotations, not one around all
    ('"Y", we say, is "Z"', '"Y", we say, is "Z"'),
    ('\u201cY\u201d is \u201cZ\u201d', '\u201cY\u201d is \u201cZ\u201d'),
    ('"An open quote "never closed."', '"An open quote "never closed."'),
    ('"Unclosed', '"Unclosed'),
    ("'Single quotes are left alone.'", "'Single quotes are left alone.'"),
    ('""', '""'),
])
def test_the_rule(text, expected):
    assert unquoted(text) == expected


QUOTELESS = st.text(alphabet=st.characters(blacklist_characters="".join(PAIRS) + "".join(PAIRS.values()),
                                           blacklist_categories=("Cs",)), min_size=1).filter(lambda text: text.strip())


@given(QUOTELESS, st.sampled_from(sorted(PAIRS.items())))
def test_generated_texts_wrapped_whole_are_unwrapped(text, pair):
    assert unquoted(pair[0] + text + pair[1]) == text.strip()
    assert unquoted(text) == text  # and a text without them is left as it is


@given(QUOTELESS, QUOTELESS, QUOTELESS)
def test_generated_texts_with_two_quotations_are_kept(first, between, last):
    text = f'"{first.strip()}" {between.strip()} "{last.strip()}"'
    assert unquoted(text) == text


# Real titles from ../shared/corpus: ECCV 2022's list wraps some whole; others quote a part.
WRAPPED_TITLES = ['"A Simple Approach and Benchmark for 21,000-Category Object Detection"',
                  '"CHORE: Contact, Human and Object REconstruction from a Single RGB Image"']
QUOTING_TITLES = ["\u201cConvex Until Proven Guilty\u201d: Dimension-Free Acceleration of Gradient Descent on Non-Convex Functions",
                  "\u201cStyle\u201d Transfer for Musical Audio Using Multiple Time-Frequency Representations",
                  '"Good Robot! Now Watch This!": Repurposing Reinforcement Learning for Task-to-Task Transfer']


def test_titles_wrapped_whole_lose_their_marks_and_titles_quoting_a_part_keep_them():
    titles = WRAPPED_TITLES + QUOTING_TITLES
    records, _ = parse_seed_records("\n".join(json.dumps({"title": title, "abstract": "We present a method for it."})
                                              for title in titles).encode(), "eccv-2022.jsonl")
    assert [record.title for record in records] == [title[1:-1] for title in WRAPPED_TITLES] + QUOTING_TITLES


def test_ingest_unwraps_both_kinds_of_list():
    records, _ = parse_seed_records(b'{"title": "T", "abstract": "\\"We present X, a method.\\""}\n', "eccv-2022.jsonl")
    assert records[0].abstract == "We present X, a method."
    records, _ = parse_seed_records('ECCV 2022\n\n\u201cWe present Y, a method.\u201d\n'.encode(), "eccv.txt")
    assert records[0].abstract == "We present Y, a method."
