"""How good the derived titles are against the real ones, and which defects they show.

    python3 bench/titles.py [--corpus ../shared/corpus/papers.jsonl.gz] [--every N] [--examples K]

`title_scores(records)` is the measure (the harness imports it): mean token F1 of the derived
titles against the real titles, and the count of each defect with a few examples. A record is a
corpus record (venue, year, title, abstract); titles are derived through the public entry point
(clean-up, then extract) unless the caller passes them.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.corpus_sample import CORPUS, read_corpus  # noqa: E402
from bench.realtext_metrics import token_f1, tokens, unbalanced  # noqa: E402
from catalogue.markup.cleanup import clean_abstract  # noqa: E402
from catalogue.content.taxonomy import read_taxonomy  # noqa: E402
from catalogue.ingest.extract import extract  # noqa: E402
from catalogue.ingest.derive import across_venue_years  # noqa: E402
from catalogue.model import Paper, Source  # noqa: E402

PROJECT = Path(__file__).resolve().parent.parent
LIMIT = 110
# A title must not stop on a word that needs another after it.
DANGLING = {
    "a", "an", "the", "this", "that", "these", "those",
    "and", "or", "but", "nor", "yet", "so", "as", "than", "whether", "if", "while", "because", "although",
    "of", "in", "on", "at", "to", "by", "for", "with", "from", "via", "into", "onto", "over", "under", "about",
    "across", "through", "between", "among", "within", "without", "toward", "towards", "upon", "per", "versus",
    "vs", "beyond", "against", "during", "after", "before", "around", "along", "behind", "below", "above",
}
# "a" before these spellings is said "a" (a unified, a user, a one-shot, a European).
_CONSONANT_SOUND = re.compile(r"u(?:ni|s[eu]|ti|biq|ra|re|ro|k)|eu|one\b|once\b", re.IGNORECASE)
# Acronyms whose first letter is said with a vowel sound (an LSTM, an MDP, an RL agent).
_VOWEL_LETTERS = set("AEFHILMNORSX")


def _math(text: str) -> list[str]:
    return re.findall(r"\$[^$]*\$", text)


def _words(text: str) -> list[str]:
    """The title's words outside math."""
    return re.sub(r"\$[^$]*\$", " MATH ", text).split()


def a_before_vowel_sound(title: str) -> bool:
    words = _words(title)
    for word, following in zip(words, words[1:]):
        if word.lower() != "a" or following == "MATH":
            continue
        letters = re.sub(r"^[^\w]+", "", following)
        if not letters:
            continue
        if re.fullmatch(r"[A-Z]{2,}\w*", letters.split("-")[0]):  # an acronym: the letter's name
            if letters[0] in _VOWEL_LETTERS:
                return True
        elif letters[0].lower() in "aeiou" and not _CONSONANT_SOUND.match(letters):
            return True
    return False


def defects_of(title: str, name: str | None, abstract: str) -> list[str]:
    """The defects one derived title shows (duplicates need the whole venue-year: see title_scores)."""
    found = []
    head, colon, rest = title.partition(": ")
    if colon and " ".join(tokens(head)) == " ".join(tokens(rest)):
        found.append("name repeated")
    if name and " ".join(tokens(title)) == " ".join(tokens(name)) * 2:
        found.append("name repeated")
    words = _words(title)
    last = words[-1].strip(".,;:!?\"'()").lower() if words else ""
    if not words or last in DANGLING or title.rstrip().endswith(("-", "\u2013", "\u2014")):
        found.append("dangling end")
    if a_before_vowel_sound(title):
        found.append("a before a vowel sound")
    if any(word.lower() in {"a", "an", "the"} and following.lower() in {"and", "or"}
           for word, following in zip(words, words[1:])):
        found.append("an article before 'and'")
    if title.count("$") % 2 or any(segment not in abstract for segment in _math(title)):
        found.append("math changed")
    if len(title) > LIMIT:
        found.append(f"more than {LIMIT} characters")
    if unbalanced(" ".join(words)):
        found.append("a bracket left open or closed alone")
    return sorted(set(found))


def derive_titles(records: list[dict]) -> list[tuple[str, str | None, str]]:
    """(title, name, cleaned abstract) of each record, through the public entry point and the pass
    ingest makes once a venue-year's papers are derived (across_venue_years)."""
    taxonomy, fallback = read_taxonomy(PROJECT / "content")
    papers = []
    for number, record in enumerate(records):
        cleaned, _ = clean_abstract(record["abstract"])
        extraction = extract(cleaned, taxonomy, fallback)
        papers.append(Paper(id=str(number), slug="", title=extraction.title, abstract=cleaned, source=Source("corpus"),
                            name=extraction.name, venue=record["venue"], year=record["year"]))
    return [(paper.title, paper.name, paper.abstract) for paper in across_venue_years(papers, taxonomy, fallback)]


def title_scores(records: list[dict], derived: list[tuple[str, str | None, str]] | None = None,
                 examples: int = 5) -> dict:
    """Mean token F1 against the real titles; each defect's count and first examples."""
    derived = derived if derived is not None else derive_titles(records)
    f1s = [token_f1(title, record["title"]) for (title, _, _), record in zip(derived, records)]
    counts: Counter = Counter()
    shown: dict[str, list[str]] = defaultdict(list)

    def note(defect: str, example: str) -> None:
        counts[defect] += 1
        if len(shown[defect]) < examples:
            shown[defect].append(example)

    by_venue_year: dict[tuple, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for index, ((title, name, abstract), record) in enumerate(zip(derived, records)):
        for defect in defects_of(title, name, abstract):
            note(defect, title)
        by_venue_year[(record["venue"], record["year"])][" ".join(tokens(title))].append(index)
    for group in by_venue_year.values():
        for indices in group.values():
            for index in indices[1:]:
                note("same title in one venue-year", derived[index][0])
    return {
        "papers": len(records),
        "mean_f1": sum(f1s) / len(f1s) if f1s else 0.0,
        "defects": {defect: counts[defect] for defect in sorted(counts)},
        "examples": dict(sorted(shown.items())),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--every", type=int, default=1, help="measure every Nth record (faster)")
    parser.add_argument("--examples", type=int, default=3)
    args = parser.parse_args()
    records = read_corpus(args.corpus)[::args.every]
    scores = title_scores(records, examples=args.examples)
    print(f"titles of {scores['papers']} papers: mean token F1 {scores['mean_f1']:.3f}")
    for defect, count in scores["defects"].items() or [("no defects", 0)]:
        print(f"  {defect}: {count}")
        for example in scores["examples"].get(defect, []):
            print(f"      {example}")


if __name__ == "__main__":
    main()
