"""Names the extractor gives, against silver labels taken from the real titles of the corpus.

    python bench/names.py [--corpus PATH] [--every N] [--sample] [--show 25]

Silver name of a record: the real title's prefix before its first ":" when that prefix is at
most three words, holds a capital letter or a digit, is not a common English word (lower-cased,
not among the words written in lower case in at least 1% of the corpus's abstracts) and occurs
in the abstract as written. A predicted name is right when it equals the silver name or the
abstract writes one as the other's expansion ("Deep Reactive Policy (DRP)").

Recall = right / records with a silver name; precision = right / names given on those records.
Also printed: how many names are given on records whose title has no ":" at all (papers that
name nothing in their title, so a name there is more likely wrong), and the median CPU time per
abstract of finding its names (clean-up included, one process). Names are judged as ingest gives
them: after the papers of each venue-year are read together (catalogue/ingest/shared_names.py).
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import statistics
import sys
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

from bench.corpus_sample import CORPUS  # noqa: E402
from bench.realtext_metrics import common_words, extracted_pairs, silver_name  # noqa: E402
from catalogue.content.taxonomy import read_taxonomy  # noqa: E402
from catalogue.markup.cleanup import clean_abstract  # noqa: E402
from catalogue.ingest.extract import find_contributions, plain_for_extraction  # noqa: E402

SAMPLE = PROJECT / "tests" / "data" / "corpus_sample.jsonl"


def read_records(path: Path) -> list[dict]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def predicted_name(abstract: str) -> str | None:
    cleaned, _ = clean_abstract(abstract)
    primary = next((c for c in find_contributions(cleaned) if not c.secondary), None)
    return primary.name if primary else None


def _one_expands_the_other(name: str, other: str, abstract: str) -> bool:
    """'Long Name (LN)' written in the abstract, as published or as the extractor reads it."""
    texts = (abstract, plain_for_extraction(clean_abstract(abstract)[0]))
    flats = [" ".join(re.sub(r"[*_]|</?\w+>", "", text).split()) for text in texts]
    return any(f"{long} ({short})" in flat or f"{long}({short})" in flat
               for flat in flats for long, short in ((name, other), (other, name)))


def is_right(predicted: str, silver: str, abstract: str) -> bool:
    return predicted == silver or _one_expands_the_other(predicted, silver, abstract)


def name_scores(records: list[dict], common: frozenset[str] | None = None,
                names: list[str | None] | None = None) -> dict:
    """Precision, recall and counts of the names given (as ingest gives them, unless `names` are
    given, one a record), with the misses and false names."""
    common = common_words(record["abstract"] for record in records) if common is None else common
    labelled = given = right = unprefixed = unprefixed_given = 0
    misses: list[tuple[str, str]] = []  # (silver, title)
    wrong: list[tuple[str, str, str]] = []  # (predicted, silver, title)
    unprefixed_names: list[tuple[str, str]] = []  # (predicted, title)
    seconds: list[float] = []
    taxonomy, fallback = read_taxonomy(PROJECT / "content")
    if names is None:
        names = [paper.name for _, paper in extracted_pairs(records, taxonomy, fallback)]  # as ingest gives them
    for record, predicted in zip(records, names):
        started = time.process_time()
        predicted_name(record["abstract"])  # (the time of finding an abstract's names, read alone)
        seconds.append(time.process_time() - started)
        silver = silver_name(record, common)
        if ":" not in record["title"]:
            unprefixed += 1
            if predicted:
                unprefixed_given += 1
                unprefixed_names.append((predicted, record["title"]))
        if silver is None:
            continue
        labelled += 1
        if predicted is None:
            misses.append((silver, record["title"]))
            continue
        given += 1
        if is_right(predicted, silver, record["abstract"]):
            right += 1
        else:
            wrong.append((predicted, silver, record["title"]))
    return {
        "records": len(records),
        "labelled": labelled,
        "given": given,
        "right": right,
        "precision": right / given if given else 1.0,
        "recall": right / labelled if labelled else 1.0,
        "unprefixed_titles": unprefixed,
        "names_on_unprefixed_titles": unprefixed_given,
        "misses": misses,
        "wrong": wrong,
        "unprefixed_names": unprefixed_names,
        "ms_per_abstract": 1000 * statistics.median(seconds) if seconds else 0.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--sample", action="store_true", help=f"score {SAMPLE.relative_to(PROJECT)} instead")
    parser.add_argument("--every", type=int, default=1, help="score every Nth record only (faster)")
    parser.add_argument("--show", type=int, default=25, help="misses and false names to print")
    args = parser.parse_args()
    if not args.sample and not args.corpus.exists():
        sys.exit(f"no corpus at {args.corpus}")
    corpus = read_records(args.corpus) if args.corpus.exists() else []
    records = read_records(SAMPLE) if args.sample else corpus[::args.every]
    common = common_words(record["abstract"] for record in corpus or records)  # common words come from the whole corpus when it is there
    scores = name_scores(records, common)
    print(f"records {scores['records']}, with a silver name {scores['labelled']}, names given on those "
          f"{scores['given']}, right {scores['right']}")
    print(f"precision {scores['precision']:.3f}  recall {scores['recall']:.3f}  "
          f"names on titles without ':' {scores['names_on_unprefixed_titles']} of {scores['unprefixed_titles']}  "
          f"median {scores['ms_per_abstract']:.2f} ms CPU per abstract")
    print(f"\nfalse names (predicted | silver | title), {len(scores['wrong'])}:")
    for predicted, silver, title in scores["wrong"][:args.show]:
        print(f"  {predicted!r} | {silver!r} | {title}")
    print(f"\nmisses (silver | title), {len(scores['misses'])}:")
    for silver, title in scores["misses"][:args.show]:
        print(f"  {silver!r} | {title}")
    print(f"\nnames on titles without ':' (predicted | title), {len(scores['unprefixed_names'])}:")
    for predicted, title in scores["unprefixed_names"][:args.show]:
        print(f"  {predicted!r} | {title}")


if __name__ == "__main__":
    main()
