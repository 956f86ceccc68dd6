"""A blind sample for grading derived titles by reading (issue 42 item 2; rules: bench/data/title_grading.md).

    python3 bench/title_sample.py titles --code DIR --out FILE [--slice SLICE]         # one code's titles
    python3 bench/title_sample.py pool BEFORE AFTER [--round N]                              # the blind pool to grade
    python3 bench/title_sample.py summary [--round N]                                        # counts, once graded

The sample is fixed: SEED below, the seeds' abstracts (seeds/*.txt, the same files as ../shared/seeds/) and
CORPUS_PAPERS papers of ../shared/corpus/papers.jsonl.gz drawn from one slice of its venue-years. Venue-years
are sorted; the "test" slice is every fifth from the third (2::5: the venue-years bench/train_titles.py holds
out, so the word model never saw them either), the "tune" slice every fifth from the first (0::5), which is
the only one read while changing the code. Records of tests/data/corpus_sample.jsonl are in neither. Round 1
graded the "test" slice; the code changed after it (tuned on "tune" only), so round 2 grades a slice not read
before, "test2" (every fifth from the fifth, 4::5), with the same seed abstracts; the code changed again after
round 2 (its failures read as kinds, each rule tested on generated text), so round 3 grades "test3" (1::5).

`titles` derives a title for each paper with the code of DIR (a checkout: main's before, the branch's after),
through bench.titles.derive_titles, so each venue-year's papers are derived together as ingest does.
`pool` writes bench/data/title_pool.jsonl: for each paper its abstract and its distinct titles in an order
shuffled by SEED, saying nothing of which code made which; the key goes to bench/data/title_key.json, read
only by `summary`. Grades go in bench/data/title_grades.jsonl, one row per distinct (paper, title).
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
SEEDS = PROJECT / "seeds"
CORPUS = Path("/work/shared/corpus/papers.jsonl.gz")
TEST_SAMPLE = PROJECT / "tests" / "data" / "corpus_sample.jsonl"
DATA = PROJECT / "bench" / "data"
ROUND_SLICES = {1: "test", 2: "test2", 3: "test3"}
SEED = 4242
CORPUS_PAPERS = 90
SLICES = {"test": 2, "tune": 0, "test2": 4, "test3": 1}


def files(round_: int) -> tuple[Path, Path, Path]:
    """The pool, the key and the grades of a round."""
    suffix = "" if round_ == 1 else str(round_)
    return (DATA / f"title_pool{suffix}.jsonl", DATA / f"title_key{suffix}.json", DATA / f"title_grades{suffix}.jsonl")


def seed_records() -> list[dict]:
    """Each abstract of the seed lists once: the header line gives venue and year, each other line is an abstract."""
    records, seen = [], set()
    for path in sorted(SEEDS.glob("*.txt")):
        lines = [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        venue, year = lines[0].split()[:2]
        for line in lines[1:]:
            if line not in seen:
                seen.add(line)
                records.append({"id": f"seed-{len(records):03d}", "venue": venue, "year": int(year), "abstract": line})
    return records


def corpus_records(which: str) -> list[dict]:
    with gzip.open(CORPUS, "rt", encoding="utf-8") as lines:
        rows = [json.loads(line) for line in lines]
    excluded = {json.loads(line)["abstract"] for line in TEST_SAMPLE.read_text(encoding="utf-8").splitlines()}
    venue_years = sorted({(r["venue"], int(r["year"])) for r in rows})
    chosen = set(venue_years[SLICES[which]::5])
    pool = [r for r in rows if (r["venue"], int(r["year"])) in chosen and r["abstract"] not in excluded]
    drawn = random.Random(SEED).sample(pool, CORPUS_PAPERS)
    return [{"id": f"{which}-{n:03d}", "venue": r["venue"], "year": int(r["year"]), "abstract": r["abstract"]}
            for n, r in enumerate(drawn)]


def sample(which: str) -> list[dict]:
    return (seed_records() if which != "tune" else []) + corpus_records(which)


def titles(code: Path, out: Path, which: str) -> None:
    """Derive with the code of another checkout: in a process of its own, so its modules are the ones imported."""
    records = sample(which)
    program = ("import json, sys; from bench.titles import derive_titles; records = json.load(sys.stdin); "
               "print(json.dumps([t for t, _, _ in derive_titles(records)]))")
    done = subprocess.run([sys.executable, "-c", program], cwd=code, input=json.dumps(records), text=True,
                          capture_output=True, check=True)
    made = json.loads(done.stdout)
    out.write_text(json.dumps({r["id"]: t for r, t in zip(records, made)}, indent=0, ensure_ascii=False) + "\n",
                   encoding="utf-8")


def pool(before: Path, after: Path, round_: int) -> None:
    pool_file, key_file, _ = files(round_)
    made = {"before": json.loads(before.read_text(encoding="utf-8")),
            "after": json.loads(after.read_text(encoding="utf-8"))}
    shuffle = random.Random(SEED)
    records = sample(ROUND_SLICES[round_])
    shuffle.shuffle(records)
    rows, key = [], {}
    for record in records:
        distinct = sorted({made["before"][record["id"]], made["after"][record["id"]]})
        shuffle.shuffle(distinct)
        rows.append({"id": record["id"], "abstract": record["abstract"], "titles": distinct})
        key[record["id"]] = {code: made[code][record["id"]] for code in made}
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
    for part in ("seed", ROUND_SLICES[round_] + "-"):
        for code in ("before", "after"):
            counts = Counter(grades[pid, made[code]] for pid, made in key.items() if pid.startswith(part))
            print(f"  {part} {code}: " + ", ".join(f"{g} {counts[g]}" for g in "ABC") + f" of {sum(counts.values())}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    made = commands.add_parser("titles")
    made.add_argument("--code", type=Path, default=PROJECT)
    made.add_argument("--out", type=Path, required=True)
    made.add_argument("--slice", choices=sorted(SLICES), default="test")
    pooled = commands.add_parser("pool")
    pooled.add_argument("before", type=Path)
    pooled.add_argument("after", type=Path)
    pooled.add_argument("--round", type=int, choices=sorted(ROUND_SLICES), default=1)
    summarised = commands.add_parser("summary")
    summarised.add_argument("--round", type=int, choices=sorted(ROUND_SLICES), default=1)
    arguments = parser.parse_args()
    if arguments.command == "titles":
        titles(arguments.code, arguments.out, arguments.slice)
    elif arguments.command == "pool":
        pool(arguments.before, arguments.after, arguments.round)
    else:
        summary(arguments.round)


if __name__ == "__main__":
    main()
