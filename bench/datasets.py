"""Benchmarks and headline results the extractor lists, against hand labels of real papers.

    python bench/datasets.py [--misses] [--corpus ../shared/corpus/papers.jsonl.gz]

The labels (tests/data/labelled_benchmarks.yaml) were written by reading 100 abstracts of
tests/data/corpus_sample.jsonl before any rule was run on them. Figures:

- benchmark precision: listed names that are a labelled dataset of that paper / names listed;
  recall: labelled datasets listed / labelled datasets. A name matches a label when both read
  the same after dropping case, punctuation, a leading "the" and a trailing "dataset" or
  "benchmark" (a label may give several spellings of one dataset).
- results shown: headline-result phrases listed; meaningful: those that name what the number
  measures, i.e. share a word with what the labels say that paper's numbers measure.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from catalogue.markup.cleanup import clean_abstract  # noqa: E402
from catalogue.errors import CatalogueError  # noqa: E402
from catalogue.ingest.extract import extract  # noqa: E402
from bench.realtext_metrics import dataset_key  # noqa: E402

PROJECT = Path(__file__).resolve().parent.parent
SAMPLE = PROJECT / "tests" / "data" / "corpus_sample.jsonl"
LABELS = PROJECT / "tests" / "data" / "labelled_benchmarks.yaml"

# Words too common in result descriptions to show that a phrase names its measure.
_PLAIN_WORDS = {"the", "a", "an", "and", "of", "in", "on", "over", "with", "by", "to", "for", "at", "up", "from",
                "than", "more", "less", "higher", "lower", "times", "fold", "rate"}


@dataclass(frozen=True)
class Predicted:
    benchmarks: tuple[str, ...]
    results: tuple[str, ...]


def read_labels(path: Path = LABELS) -> list[dict]:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def read_records(path: Path = SAMPLE) -> list[dict]:
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def predict(abstract: str) -> Predicted:
    """What the catalogue would list for this abstract (the ingest's clean-up, then the extractor)."""
    cleaned, _ = clean_abstract(abstract)
    found = extract(cleaned, (), "general")
    return Predicted(found.benchmarks, found.results)


def _spellings(entry: str | list[str]) -> set[str]:
    return {dataset_key(spelling) for spelling in ([entry] if isinstance(entry, str) else entry)}


def _stems(text: str) -> set[str]:
    """Word starts, so 'improvement' and 'improves' meet; numbers and filler words are not measures."""
    return {word[:5] for word in re.findall(r"[a-z][a-z0-9\-]+", text.lower()) if word not in _PLAIN_WORDS}


def says_what_it_measures(result: str, measures: list[str]) -> bool:
    return bool(_stems(result) & set().union(*map(_stems, measures))) if measures else False


@dataclass(frozen=True)
class Misses:
    wrong: tuple[tuple[str, str], ...]  # (title, listed name that is no labelled dataset)
    missed: tuple[tuple[str, str], ...]  # (title, labelled dataset not listed)
    vague: tuple[tuple[str, str], ...]  # (title, result phrase that does not say what it measures)


def score(records: list[dict], labels: list[dict]) -> tuple[dict, Misses]:
    by_title = {record["title"]: record for record in records}
    listed = right = labelled = found = shown = meaningful = labelled_results = 0
    wrong, missed, vague = [], [], []
    for label in labels:
        if label["title"] not in by_title:
            raise CatalogueError(f"{LABELS.name}: no record titled {label['title']!r} among the records given")
        predicted = predict(by_title[label["title"]]["abstract"])
        entries = [_spellings(entry) for entry in label["benchmarks"]]
        for name in predicted.benchmarks:
            listed += 1
            if any(dataset_key(name) in entry for entry in entries):
                right += 1
            else:
                wrong.append((label["title"], name))
        keys = {dataset_key(name) for name in predicted.benchmarks}
        for entry, raw in zip(entries, label["benchmarks"]):
            labelled += 1
            if entry & keys:
                found += 1
            else:
                missed.append((label["title"], raw if isinstance(raw, str) else raw[0]))
        measures = label.get("results", [])
        labelled_results += len(measures)
        for result in predicted.results:
            shown += 1
            if says_what_it_measures(result, measures):
                meaningful += 1
            else:
                vague.append((label["title"], result))
    scores = {
        "papers": len(labels), "benchmarks listed": listed, "benchmarks right": right,
        "precision": right / listed if listed else 1.0,
        "datasets labelled": labelled, "datasets found": found, "recall": found / labelled if labelled else 1.0,
        "results labelled": labelled_results, "results shown": shown, "results meaningful": meaningful,
    }
    return scores, Misses(tuple(wrong), tuple(missed), tuple(vague))


def benchmark_scores(records: list[dict], labels: list[dict]) -> dict:
    """Precision and recall of the benchmarks listed, and how many headline results are shown and say
    what they measure, over the labelled papers (each label is paired with the record of its title)."""
    return score(records, labels)[0]


def corpus_counts(records: list[dict]) -> dict:
    """What a reader of the whole corpus would see: how many papers list benchmarks, and how much."""
    predicted = [predict(record["abstract"]) for record in records]
    return {"papers": len(records), "papers with benchmarks": sum(bool(p.benchmarks) for p in predicted),
            "benchmarks listed": sum(len(p.benchmarks) for p in predicted),
            "papers with results": sum(bool(p.results) for p in predicted),
            "results shown": sum(len(p.results) for p in predicted)}


def read_corpus(path: Path) -> list[dict]:
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--misses", action="store_true", help="also list every wrong, missed and vague item")
    parser.add_argument("--corpus", type=Path, default=None,
                        help="also count what is listed over a corpus file (../shared/corpus/papers.jsonl.gz)")
    args = parser.parse_args()
    if args.corpus is not None:
        if not args.corpus.is_file():
            sys.exit(f"{args.corpus}: no such corpus file")
        for key, value in corpus_counts(read_corpus(args.corpus)).items():
            print(f"corpus {key:20} {value}")
    scores, misses = score(read_records(), read_labels())
    for key, value in scores.items():
        print(f"{key:20} {value:.3f}" if isinstance(value, float) else f"{key:20} {value}")
    if args.misses:
        for heading, items in (("listed, not a labelled dataset", misses.wrong),
                               ("labelled, not listed", misses.missed),
                               ("result that does not say what it measures", misses.vague)):
            print(f"\n{heading}:")
            for title, text in items:
                print(f"  {text!r:45} {title[:70]}")


if __name__ == "__main__":
    main()
