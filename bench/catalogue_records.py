"""(helper) Real records with titles and authors, any number of them, as JSON lines seed lists.

    python bench/catalogue_records.py --papers 100000 --out /tmp/seeds100k

Up to the corpus's size: that many real records spread over its venue-years, as they are. Past
it, in rounds: round r gives every record a partner r places on in its venue-year (in corpus
order) and makes one new record of the two, in the venue of the first and its year plus r:
  - the abstract is the first half of the record's sentences and the second half of the
    partner's (bench/real_seeds.py's rule);
  - the title is the first half of the record's title words and the second half of the partner's;
  - each author keeps their given names and takes the family name of the author standing
    r * 7919 places on in the list of every author, so that new people join as papers do.
Each round's records are spread over the corpus like the real ones, until there are enough.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.corpus_build import write_jsonl_seed_lists  # noqa: E402
from bench.real_seeds import _key, default_corpus, distinct_records, recombined  # noqa: E402
from bench.realtext import evenly_spaced, read_records, venue_years  # noqa: E402
from catalogue.text import split_sentences  # noqa: E402

AUTHOR_STEP = 7919  # a prime, so that the renamed authors of a round spread over every name


def halves(head: list[str], tail: list[str]) -> list[str]:
    return head[:(len(head) + 1) // 2] + tail[len(tail) // 2:]


def renamed(author: str, families: list[str], index: int, round_: int) -> str:
    given = author.rsplit(" ", 1)[0] if " " in author else author
    return f"{given} {families[(index + round_ * AUTHOR_STEP) % len(families)]}"


def round_records(records: list[dict], round_: int, families: list[str], index_of: dict[str, int],
                  seen: set[str]) -> list[dict]:
    """One new record per record (see the module's text)."""
    made = []
    for indices in venue_years(records).values():
        for position, index in enumerate(indices):
            partner = records[indices[(position + round_) % len(indices)]]
            record = records[index]
            abstract = recombined(split_sentences(_key(record["abstract"])), split_sentences(_key(partner["abstract"])))
            if abstract in seen or partner is record:
                continue
            seen.add(abstract)
            authors = record.get("authors") or []
            made.append({"venue": record["venue"], "year": int(record["year"]) + round_,
                         "title": " ".join(halves(record["title"].split(), partner["title"].split())),
                         "authors": [renamed(name, families, index_of[name], round_) for name in authors],
                         "abstract": abstract})
    return made


def catalogue_records(count: int, corpus: Path | None = None) -> list[dict]:
    real = distinct_records(read_records(corpus or default_corpus()))
    if count <= len(real):
        return evenly_spaced(real, count)
    names = sorted({name for record in real for name in record.get("authors") or []})
    index_of = {name: index for index, name in enumerate(names)}
    families = [name.rsplit(" ", 1)[-1] for name in names]
    taken = list(real)
    seen = {_key(record["abstract"]) for record in real}
    round_ = 0
    while len(taken) < count:
        round_ += 1
        added = round_records(real, round_, families, index_of, seen)
        if not added:
            raise SystemExit(f"{len(taken):,} distinct records at most from {len(real):,}")
        taken += evenly_spaced(added, count - len(taken))
    return taken


def write_catalogue_lists(count: int, seeds: Path, corpus: Path | None = None) -> int:
    """`count` records as one JSON lines list per venue-year under seeds/; returns how many lists."""
    return write_jsonl_seed_lists(catalogue_records(count, corpus), seeds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--papers", type=int, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--corpus", type=Path, default=None)
    args = parser.parse_args()
    lists = write_catalogue_lists(args.papers, args.out, args.corpus)
    print(f"{args.papers:,} papers in {lists} lists under {args.out}")


if __name__ == "__main__":
    main()
