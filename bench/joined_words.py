"""Words joined by a dash in real abstracts, and what marking them (catalogue.search.joiners.mark_joiners) gives search.

    python bench/joined_words.py

Over every corpus abstract, converted as a paper page shows it and read outside math: how many
put an em dash (or any dash) between two letters; how many mark_joiners changes, with how many
marks and bytes; and how many have a word of three letters or more that Pagefind could find only
joined to a mark before and finds now. Pagefind's rule is applied here as its indexer applies it
(the text is parted at spaces, each piece is indexed whole without its marks and, parted at ASCII
punctuation, piece by piece; a mark's data-indexed text is read in its place), without running it.
"""

from __future__ import annotations

import gzip
import html
import json
import re
import sys
import time
import unicodedata
from collections import Counter
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))
CORPUS = PROJECT.parent / "shared" / "corpus" / "papers.jsonl.gz"
if not CORPUS.exists():
    CORPUS = Path("/work/shared/corpus/papers.jsonl.gz")

from catalogue.markup.convert import TextConverter  # noqa: E402 - after the project is on the path
from catalogue.search.joiners import mark_joiners  # noqa: E402

MATH = re.compile(r"<math\b.*?</math>", re.DOTALL)
TAG = re.compile(r"<[^>]*>")
ASCII_PUNCTUATION = re.compile(r"[!-/:-@\[-`{-~]")
INDEXED_AS = re.compile(r'<span data-pagefind-ignore [^>]*data-indexed="([^"]*)">[^<]*</span>')
DASH_BETWEEN_LETTERS = re.compile(r"(?<=[^\W\d_])(\S)(?=[^\W\d_])")


def text_outside_math(page_html: str) -> str:
    return TAG.sub("", MATH.sub(" ", page_html))


def pagefind_words(text: str) -> set[str]:
    """The words of three letters or more Pagefind indexes for text."""
    found = set()
    for piece in text.split():
        found.add(re.sub(r"\W", "", piece).lower())
        found.update(re.sub(r"\W", "", part).lower() for part in ASCII_PUNCTUATION.split(piece))
    return {word for word in found if len(word) >= 3 and word.isalpha()}


def is_dash_beyond_ascii(char: str) -> bool:
    return not char.isascii() and unicodedata.category(char) == "Pd"


def indexed_text(marked_html: str) -> str:
    """What Pagefind reads of marked HTML: each mark's data-indexed text between spaces in its place."""
    return text_outside_math(INDEXED_AS.sub(lambda mark: f" {html.unescape(mark[1])} ", marked_html))


def main() -> None:
    markup = TextConverter()
    with gzip.open(CORPUS, "rt", encoding="utf-8") as lines:
        abstracts = [markup.convert(json.loads(line)["abstract"], True).html for line in lines]
    started = time.perf_counter()
    marked = [mark_joiners(abstract) for abstract in abstracts]
    seconds = time.perf_counter() - started
    dashes = Counter()
    gained_papers = gained_words = 0
    for abstract, marks in zip(abstracts, marked):
        text = text_outside_math(abstract)
        found = {mark for mark in DASH_BETWEEN_LETTERS.findall(text) if is_dash_beyond_ascii(mark)}
        dashes.update(found | ({"any"} if found else set()))
        gained = pagefind_words(indexed_text(marks)) - pagefind_words(text)
        gained_papers += bool(gained)
        gained_words += len(gained)
    changed = [(before, after) for before, after in zip(abstracts, marked) if before != after]
    added = [len(after.encode()) - len(before.encode()) for before, after in changed]
    print(f"abstracts: {len(abstracts)}")
    print(f"with a dash beyond ASCII between two letters (outside math): {dashes['any']}"
          + "".join(f"; {unicodedata.name(mark).lower()} {count}" for mark, count in dashes.most_common() if mark != "any"))
    print(f"changed by mark_joiners: {len(changed)}, {sum(after.count('data-indexed=') for _, after in changed)} marks, "
          f"{sum(added)} bytes (at most {max(added, default=0)} in one abstract), in {seconds:.2f} s")
    print(f"with a word Pagefind finds only now: {gained_papers} ({gained_words} words)")


if __name__ == "__main__":
    main()
