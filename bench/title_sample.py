"""A blind sample for grading derived titles by reading (issue 42 item 2; rules: bench/data/title_grading.md).

    python3 bench/title_sample.py titles --code DIR --out FILE     # one checkout's titles for the sample
    python3 bench/title_sample.py pool BEFORE AFTER                # the blind pool to grade, and its key
    python3 bench/title_sample.py summary                          # counts, once every title is graded

The sample is fixed: SEED below and SAMPLED papers of ../shared/corpus/papers.jsonl.gz from the venue-years of
SLICE (venue-years sorted, every fifth from the fourth), which no earlier round read and no rule was written from
(rounds 1-3, on the branch titles42, read slices 0, 1, 2 and 4; the seeds were read in each). Records of
tests/data/corpus_sample.jsonl are left out.

`titles` derives each paper's title with the code of DIR (a checkout: main's before, the change's after) through
bench.titles.derive_titles, so a venue-year's papers are derived together as ingest does. `pool` writes
bench/data/title_pool4.jsonl: each paper's abstract and its distinct titles in an order shuffled by SEED, saying
nothing of which code made which; the key goes to bench/data/title_key4.json, read only by `summary`. Grades go in
bench/data/title_grades4.jsonl, one row per distinct (paper, title), each with a one-line reason.
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
POOL, KEY, GRADES = (DATA / name for name in ("title_pool4.jsonl", "title_key4.json", "title_grades4.jsonl"))
SEED = 4242
SAMPLED = 128
SLICE = 3


def sample() -> list[dict]:
    with gzip.open(CORPUS, "rt", encoding="utf-8") as lines:
        rows = [json.loads(line) for line in lines]
    excluded = {json.loads(line)["abstract"] for line in TEST_SAMPLE.read_text(encoding="utf-8").splitlines()}
    venue_years = sorted({(row["venue"], int(row["year"])) for row in rows})
    chosen = set(venue_years[SLICE::5])
    pool_ = [row for row in rows if (row["venue"], int(row["year"])) in chosen and row["abstract"] not in excluded]
    drawn = random.Random(SEED).sample(pool_, SAMPLED)
    return [{"id": f"s{SLICE}-{n:03d}", "venue": row["venue"], "year": int(row["year"]), "abstract": row["abstract"]}
            for n, row in enumerate(drawn)]


def titles(code: Path, out: Path) -> None:
    """Derive with the code of another checkout, in a process of its own so its modules are the ones imported."""
    records = sample()
    program = ("import json, sys; from bench.titles import derive_titles; records = json.load(sys.stdin); "
               "print(json.dumps([t for t, _, _ in derive_titles(records)]))")
    done = subprocess.run([sys.executable, "-c", program], cwd=code, input=json.dumps(records), text=True,
                          capture_output=True, check=True)
    made = json.loads(done.stdout)
    out.write_text(json.dumps({r["id"]: t for r, t in zip(records, made)}, indent=0, ensure_ascii=False) + "\n",
                   encoding="utf-8")


def pool(before: Path, after: Path) -> None:
    made = {"before": json.loads(before.read_text(encoding="utf-8")),
            "after": json.loads(after.read_text(encoding="utf-8"))}
    shuffle = random.Random(SEED)
    records = sample()
    shuffle.shuffle(records)
    rows, key = [], {}
    for record in records:
        distinct = sorted({made["before"][record["id"]], made["after"][record["id"]]})
        shuffle.shuffle(distinct)
        rows.append({"id": record["id"], "abstract": record["abstract"], "titles": distinct})
        key[record["id"]] = {code: made[code][record["id"]] for code in made}
    POOL.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    KEY.write_text(json.dumps(key, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def summary() -> None:
    key = json.loads(KEY.read_text(encoding="utf-8"))
    grades = {}
    for line in GRADES.read_text(encoding="utf-8").splitlines():
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
    made.add_argument("--code", type=Path, default=PROJECT)
    made.add_argument("--out", type=Path, required=True)
    pooled = commands.add_parser("pool", help="the blind pool to grade, and its key")
    pooled.add_argument("before", type=Path)
    pooled.add_argument("after", type=Path)
    commands.add_parser("summary", help="counts, once every title is graded")
    arguments = parser.parse_args()
    if arguments.command == "titles":
        titles(arguments.code, arguments.out)
    elif arguments.command == "pool":
        pool(arguments.before, arguments.after)
    else:
        summary()


if __name__ == "__main__":
    main()
