"""Write the fixed sample of real papers the tests judge the extractor on: tests/data/corpus_sample.jsonl.

    python3 bench/corpus_sample.py [--corpus ../shared/corpus/papers.jsonl.gz] [--size 500]

The source is ../shared/corpus/papers.jsonl.gz (19,951 real papers gathered by Paper Copilot,
papercopilot/paperlists on GitHub, from OpenReview, the proceedings sites and open-access pages;
see that folder's README). Each venue-year gives its share of the sample, rounded by largest
remainder; within a venue-year the records with the smallest SHA-256 of their abstract are taken,
so the sample is the same on every machine and changes only when the corpus does.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
from collections import defaultdict
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
CORPUS = PROJECT.parent / "shared" / "corpus" / "papers.jsonl.gz"
SAMPLE = PROJECT / "tests" / "data" / "corpus_sample.jsonl"


def read_corpus(path: Path = CORPUS) -> list[dict]:
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def stratified_sample(records: list[dict], size: int) -> list[dict]:
    """`size` records, each venue-year in proportion, ordered by venue, year and digest."""
    groups: dict[tuple[str, int], list[dict]] = defaultdict(list)
    for record in records:
        groups[(record["venue"], int(record["year"]))].append(record)
    shares = {key: len(group) * size / len(records) for key, group in groups.items()}
    counts = {key: int(share) for key, share in shares.items()}
    by_remainder = sorted(shares, key=lambda key: (counts[key] - shares[key], key))
    for key in by_remainder[:size - sum(counts.values())]:
        counts[key] += 1
    sample = []
    for key in sorted(groups):
        ordered = sorted(groups[key], key=lambda r: hashlib.sha256(r["abstract"].encode()).hexdigest())
        sample += ordered[:counts[key]]
    return sample


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--size", type=int, default=500)
    parser.add_argument("--out", type=Path, default=SAMPLE)
    args = parser.parse_args()
    sample = stratified_sample(read_corpus(args.corpus), args.size)
    with args.out.open("w", encoding="utf-8") as out:
        for record in sample:
            out.write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")
    print(f"{args.out}: {len(sample)} records")


if __name__ == "__main__":
    main()
