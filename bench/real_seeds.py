"""Text seed lists of any size from the real corpus: real abstracts, recombined only past its size.

    python bench/real_seeds.py --papers 10000 --out /tmp/seeds-10k [--corpus PATH]

The seed lists are what a user writes: one per venue-year (`NeurIPS 2018`, then each abstract as
a paragraph), abstracts only, so ingest derives every name and title (bench/realtext.py's
`write_seed_lists`). Records whose abstract repeats an earlier one (whitespace aside) count once,
as ingest lists them once.

Up to the corpus's size, N papers are N real records spread evenly over the corpus (so over every
venue-year, in the corpus's proportions). Past it, every record is taken and round r = 1, 2, ...
adds one recombined abstract per record: the first half of the record's sentences (rounded up)
followed by the second half (rounded down, at least one sentence) of the record r places after
it in the same venue-year, cyclically (never itself); a recombination that repeats an abstract already taken
moves on to the next partner. A recombined abstract stays in its record's venue-year, so the
venue-years are the corpus's own, each as many times larger as there are rounds. The last round
needed is taken evenly spread over its records. Same corpus and N, same files.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.realtext import CORPUS, SAMPLE, evenly_spaced, read_records, venue_years, write_seed_lists  # noqa: E402
from catalogue.text import split_sentences  # noqa: E402


def default_corpus() -> Path:
    """The shared corpus when it is there (a clean clone may not have it), else the sample."""
    return CORPUS if CORPUS.is_file() else SAMPLE


def _key(abstract: str) -> str:
    return " ".join(abstract.split())


def distinct_records(records: list[dict]) -> list[dict]:
    """The records in order, each abstract (whitespace aside) once: ingest would list a repeat once."""
    seen: set[str] = set()
    kept = []
    for record in records:
        if _key(record["abstract"]) not in seen:
            seen.add(_key(record["abstract"]))
            kept.append(record)
    return kept


def recombined(head: list[str], tail: list[str]) -> str:
    """The first half of head's sentences (rounded up), then the second half of tail's."""
    return " ".join(head[:(len(head) + 1) // 2] + tail[len(tail) // 2:])


def recombination_round(records: list[dict], sentences: list[list[str]], round_: int,
                        seen: set[str]) -> Iterator[dict]:
    """One new abstract per record (in corpus order), its partner `round_` places on in its venue-year."""
    group_of: dict[int, tuple[int, list[int]]] = {}   # record -> (its place in its venue-year, the venue-year)
    for indices in venue_years(records).values():
        for position, index in enumerate(indices):
            group_of[index] = position, indices
    for index, record in enumerate(records):
        position, indices = group_of[index]
        partners = (indices[(position + step) % len(indices)]
                    for step in range(round_, round_ + len(indices)) if step % len(indices))
        for partner in partners:
            abstract = recombined(sentences[index], sentences[partner])
            if abstract not in seen:
                seen.add(abstract)
                yield {"venue": record["venue"], "year": record["year"], "abstract": abstract}
                break


def scaled_records(records: list[dict], count: int) -> list[dict]:
    """`count` records with distinct abstracts: real ones spread over the corpus, then recombined rounds."""
    records = distinct_records(records)
    if count <= len(records):
        return evenly_spaced(records, count)
    sentences = [split_sentences(_key(record["abstract"])) for record in records]
    taken = list(records)
    seen = {_key(record["abstract"]) for record in records}
    round_ = 0
    while len(taken) < count:
        round_ += 1
        added = list(recombination_round(records, sentences, round_, seen))
        if not added:
            raise SystemExit(f"{len(taken):,} distinct abstracts at most from these {len(records):,} records")
        taken += evenly_spaced(added, count - len(taken))
    return taken


def write_corpus_seed_files(count: int, out: Path, corpus: Path | None = None) -> list[Path]:
    """`count` papers of the corpus as text seed lists under out/, one per venue-year; returns the files."""
    records = scaled_records(read_records(corpus or default_corpus()), count)
    write_seed_lists(records, out)
    return sorted(out.glob("*.txt"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--papers", type=int, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--corpus", type=Path, default=None, help="corpus records (default: the shared corpus, "
                                                                   "else tests/data/corpus_sample.jsonl)")
    args = parser.parse_args()
    files = write_corpus_seed_files(args.papers, args.out, args.corpus)
    print(f"{args.papers} papers in {len(files)} files under {args.out}")


if __name__ == "__main__":
    main()
