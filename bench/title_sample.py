"""A blind sample for grading derived titles by reading (issue 42 item 2; rules: bench/data/title_grading.md).

    python3 bench/title_sample.py titles --round N --code DIR --out FILE   # one checkout's titles for the sample
    python3 bench/title_sample.py pool --round N BEFORE AFTER              # the blind pool to grade, and its key
    python3 bench/title_sample.py summary --round N                        # counts, once every title is graded

Each round's sample is fixed: its seed (ROUNDS) draws SAMPLED papers of ../shared/corpus/papers.jsonl.gz from the
venue-years of its slice (venue-years sorted, every fifth from the slice's), leaving out records of
tests/data/corpus_sample.jsonl and every paper an earlier round's pool holds (rounds 1-3 too, whose pools came
from the branch titles42). Round 4 read slice 3 first (rounds 1-3 read slices 2, 4 and 1, tuning read 0; the
seeds were read in each); round 5 draws papers of the same venue-years that no round read, after rules were
written from round 4's grades. Rounds 6 and 7 draw unread papers of slice 2, the venue-years bench/train_titles.py
holds out, so that no title the model learns from is graded: round 6's changed titles were looked at while the
modifiers' rule was written (its pool is kept ungraded, so that no later round reads its papers), round 7 is graded.

`titles` derives each paper's title with the code of DIR (a checkout: main's before, the change's after) through
bench.titles.derive_titles, so a venue-year's papers are derived together as ingest does. `pool` writes
bench/data/title_poolN.jsonl: each paper's abstract and its distinct titles in an order shuffled by the seed,
saying nothing of which code made which; the key goes to bench/data/title_keyN.json, read only by `summary`. Grades
go in bench/data/title_gradesN.jsonl, one row per distinct (paper, title), each with a one-line reason.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
CORPUS = PROJECT.parent / "shared" / "corpus" / "papers.jsonl.gz"
TEST_SAMPLE = PROJECT / "tests" / "data" / "corpus_sample.jsonl"
DATA = PROJECT / "bench" / "data"
ROUNDS = {4: (4242, 3), 5: (5353, 3), 6: (6464, 2), 7: (7575, 2), 8: (8686, 2)}  # each round's seed and slice
SAMPLED = 128


def files(round_: int) -> tuple[Path, Path, Path]:
    """The pool, the key and the grades of a round."""
    return DATA / f"title_pool{round_}.jsonl", DATA / f"title_key{round_}.json", DATA / f"title_grades{round_}.jsonl"


def sample(round_: int) -> list[dict]:
    with gzip.open(CORPUS, "rt", encoding="utf-8") as lines:
        rows = [json.loads(line) for line in lines]
    excluded = {json.loads(line)["abstract"] for line in TEST_SAMPLE.read_text(encoding="utf-8").splitlines()}
    for earlier in range(1, round_):
        excluded |= {json.loads(line)["abstract"] for line in files(earlier)[0].read_text(encoding="utf-8").splitlines()}
    seed, slice_ = ROUNDS[round_]
    venue_years = sorted({(row["venue"], int(row["year"])) for row in rows})
    chosen = set(venue_years[slice_::5])
    pool_ = [row for row in rows if (row["venue"], int(row["year"])) in chosen and row["abstract"] not in excluded]
    drawn = random.Random(seed).sample(pool_, SAMPLED)
    return [{"id": f"r{round_}-{n:03d}" if round_ > 4 else f"s{slice_}-{n:03d}", "venue": row["venue"],
             "year": int(row["year"]), "abstract": row["abstract"]} for n, row in enumerate(drawn)]


def titles(round_: int, code: Path, out: Path) -> None:
    """Derive with the code of another checkout, in a process of its own so its modules are the ones imported."""
    records = sample(round_)
    program = ("import json, sys; from bench.titles import derive_titles; records = json.load(sys.stdin); "
               "print(json.dumps([t for t, _, _ in derive_titles(records)]))")
    done = subprocess.run([sys.executable, "-c", program], cwd=code, input=json.dumps(records), text=True,
                          capture_output=True, check=True)
    made = json.loads(done.stdout)
    out.write_text(json.dumps({r["id"]: t for r, t in zip(records, made)}, indent=0, ensure_ascii=False) + "\n",
                   encoding="utf-8")


def pool(round_: int, before: Path, after: Path) -> None:
    made = {"before": json.loads(before.read_text(encoding="utf-8")),
            "after": json.loads(after.read_text(encoding="utf-8"))}
    shuffle = random.Random(ROUNDS[round_][0])
    records = sample(round_)
    shuffle.shuffle(records)
    rows, key = [], {}
    for record in records:
        distinct = sorted({made["before"][record["id"]], made["after"][record["id"]]})
        shuffle.shuffle(distinct)
        rows.append({"id": record["id"], "abstract": record["abstract"], "titles": distinct})
        key[record["id"]] = {code: made[code][record["id"]] for code in made}
    pool_file, key_file, _ = files(round_)
    pool_file.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    key_file.write_text(json.dumps(key, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def summary(round_: int) -> None:
    _, key_file, grades_file = files(round_)
    key = json.loads(key_file.read_text(encoding="utf-8"))
    grades = {}
    for line in grades_file.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        grades[row["id"], row["title"]] = row["grade"]
    for code in ("before", "after"):
        counts = Counter(grades[pid, made[code]] for pid, made in key.items())
        total = sum(counts.values())
        print(f"{code}: " + ", ".join(f"{g} {counts[g]} ({counts[g] / total:.0%})" for g in "ABC") + f" of {total}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    made = commands.add_parser("titles", help="one checkout's titles for the sample")
    made.add_argument("--round", type=int, choices=sorted(ROUNDS), required=True)
    made.add_argument("--code", type=Path, default=PROJECT)
    made.add_argument("--out", type=Path, required=True)
    pooled = commands.add_parser("pool", help="the blind pool to grade, and its key")
    pooled.add_argument("--round", type=int, choices=sorted(ROUNDS), required=True)
    pooled.add_argument("before", type=Path)
    pooled.add_argument("after", type=Path)
    summarised = commands.add_parser("summary", help="counts, once every title is graded")
    summarised.add_argument("--round", type=int, choices=sorted(ROUNDS), required=True)
    arguments = parser.parse_args()
    if arguments.command == "titles":
        titles(arguments.round, arguments.code, arguments.out)
    elif arguments.command == "pool":
        pool(arguments.round, arguments.before, arguments.after)
    else:
        summary(arguments.round)


if __name__ == "__main__":
    main()
