"""Headline results on held-out real papers, against hand labels of what the rules showed.

    python bench/results.py draw --seed N [--size 80]     # papers to label, with their results
    python bench/results.py score                         # the labelled share, per draw
    python bench/results.py corpus                        # papers with a result, results per paper

A draw takes, in a random order fixed by its seed, held-out papers of no earlier draw (the venue-years
bench/train_titles.py holds out, never a record of tests/data/corpus_sample.jsonl) until `size`
of them show at least one result. bench/data/results_labels.jsonl holds one line per (paper,
shown result) with its label, written by reading the abstract:

- right: says what its number measures, and rightly;
- garbled: says it, but cut or joined so that it reads wrong;
- vague: does not say what its number measures;
- wrong: the number is not a result of the paper, or not the one the phrase gives.

`score` runs the current rules on each labelled draw: a result they show that no line labels is
listed as unlabelled (label it before reading the figure); a labelled result they no longer show
verbatim counts as dropped (most are shown reworded). "when drawn" counts what the rules of the
draw showed (the lines written with it, whose `rules` name them).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.corpus_sample import CORPUS, SAMPLE, read_corpus  # noqa: E402
from bench.train_titles import split  # noqa: E402
from bench.realtext_metrics import RESULT_KINDS as KINDS, paper_key  # noqa: E402
from catalogue.ingest.extract import find_results  # noqa: E402
from catalogue.markup.cleanup import clean_abstract  # noqa: E402

LABELS = Path(__file__).resolve().parent / "data" / "results_labels.jsonl"


def results_of(record: dict) -> tuple[str, ...]:
    """What the catalogue shows for this record (the ingest's clean-up, then the extractor)."""
    return find_results(clean_abstract(record["abstract"])[0])


def held_out(records: list[dict]) -> list[dict]:
    sample = {json.loads(line)["abstract"] for line in SAMPLE.read_text(encoding="utf-8").splitlines()}
    return split(records, sample)[1]


def draw(records: list[dict], seed: int, size: int, labelled: set[str]) -> list[tuple[dict, tuple[str, ...]]]:
    """Papers of no earlier draw (`labelled`), so that each draw is judged fresh."""
    order = [record for record in held_out(records) if paper_key(record) not in labelled]
    random.Random(seed).shuffle(order)
    drawn = []
    for record in order:
        if len(drawn) == size:
            break
        results = results_of(record)
        if results:
            drawn.append((record, results))
    return drawn


def read_labels(path: Path = LABELS) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def score(records: list[dict], labels: list[dict]) -> dict[int, dict]:
    """Per seed: the labelled share of what the current rules show, and what they show unlabelled."""
    by_key = {paper_key(record): record for record in records}
    figures: dict[int, dict] = {}
    for seed in sorted({label["seed"] for label in labels}):
        drawn = [label for label in labels if label["seed"] == seed]
        known = {(label["paper"], label["result"]): label["label"] for label in drawn}
        counts: Counter = Counter()
        unlabelled, dropped = [], []
        papers = sorted({label["paper"] for label in drawn})
        for paper in papers:
            shown = results_of(by_key[paper])
            counts["papers with a result"] += bool(shown)
            for result in shown:
                kind = known.get((paper, result))
                counts[kind or "unlabelled"] += 1
                if kind is None:
                    unlabelled.append((paper, result))
            dropped += [(paper, r, kind) for (p, r), kind in known.items() if p == paper and r not in shown]
        counts["shown"] = sum(counts[kind] for kind in (*KINDS, "unlabelled"))
        counts.update(f"dropped {kind}" for _, _, kind in dropped)
        # what the rules of the draw showed: the labels written with the draw, before any other rules ran on it
        counts.update(f"when drawn {label['label']}" for label in drawn if label["rules"] == drawn[0]["rules"])
        figures[seed] = {"papers": len(papers), **counts, "unlabelled results": unlabelled, "dropped results": dropped}
    return figures


def corpus_counts(records: list[dict]) -> dict:
    shown = [results_of(record) for record in records]
    with_result = sum(bool(results) for results in shown)
    total = sum(len(results) for results in shown)
    return {"papers": len(records), "papers with a result": with_result, "results shown": total,
            "results per paper with one": round(total / with_result, 3) if with_result else 0.0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=("draw", "score", "corpus"))
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--size", type=int, default=80)
    parser.add_argument("--dropped", action="store_true", help="score: also list labelled results no longer shown")
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    args = parser.parse_args()
    records = read_corpus(args.corpus)
    if args.command == "draw":
        if args.seed is None:
            sys.exit("draw needs --seed")
        print(f"seed {args.seed}")
        labelled = {label["paper"] for label in read_labels()} if LABELS.is_file() else set()
        for record, results in draw(records, args.seed, args.size, labelled):
            print(json.dumps({"paper": paper_key(record), "abstract": record["abstract"], "results": results},
                             ensure_ascii=False))
    elif args.command == "score":
        verbose = args.dropped
        for seed, figures in score(records, read_labels()).items():
            unlabelled = figures.pop("unlabelled results")
            dropped = figures.pop("dropped results")
            print(f"seed {seed}: " + ", ".join(f"{key} {value}" for key, value in figures.items()))
            for paper, result in unlabelled:
                print(f"  unlabelled: {result!r}  ({paper[:70]})")
            if verbose:
                for paper, result, kind in dropped:
                    print(f"  no longer shown, {kind}: {result!r}  ({paper[:70]})")
    else:
        for key, value in corpus_counts(records).items():
            print(f"{key:28} {value}")


if __name__ == "__main__":
    main()
