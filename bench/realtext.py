"""Real abstracts through the whole catalogue, judged by every figure of issue 18 in one table.

    python bench/realtext.py [CORPUS] [--sample] [--limit N] [--work DIR] [--keep]

CORPUS is ../shared/corpus/papers.jsonl.gz beside the project by default (19,951 real papers;
see that folder's README); --sample uses tests/data/corpus_sample.jsonl (500 of them) instead.
The records become seed lists, one per venue-year (`VENUE YEAR`, then each abstract on one line,
a blank line between), as a person would write them; `build.py ingest` and `build.py render`
run on them as separate processes; each paper written to content/ is matched back to its record
by its `source:` (seed file and line). The figures read what a reader gets: the derived fields
in content/papers/*.md and the built site. The CPU time of item 7 is measured in this process.
The metrics themselves are defined in bench/realtext_metrics.py.
"""

from __future__ import annotations

import argparse
import gzip
import json
import logging
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.realtext_metrics import (DEFECTS, benchmark_scores, common_words, extraction_cpu_ms,  # noqa: E402
                                    math_scores, name_scores, read_benchmark_labels, read_result_labels,
                                    result_scores, slug_leaks, tag_leaks, title_scores, topic_scores)
from catalogue.content.papers import read_papers  # noqa: E402
from catalogue.content.taxonomy import read_taxonomy  # noqa: E402
from catalogue.model import Paper, Topic  # noqa: E402

PROJECT = Path(__file__).resolve().parent.parent
# ../shared/corpus beside the project (a git worktree one level deeper finds it one more level up)
CORPUS = next((path for path in (folder / "shared" / "corpus" / "papers.jsonl.gz"
                                 for folder in (PROJECT.parent, PROJECT.parent.parent)) if path.is_file()),
              PROJECT.parent / "shared" / "corpus" / "papers.jsonl.gz")
SAMPLE = PROJECT / "tests" / "data" / "corpus_sample.jsonl"
LABELS = PROJECT / "tests" / "data" / "labelled_benchmarks.yaml"
RESULT_LABELS = PROJECT / "bench" / "data" / "results_labels.jsonl"


def read_records(path: Path) -> list[dict]:
    """Corpus records from a .jsonl or .jsonl.gz file."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def evenly_spaced(records: list[dict], limit: int | None) -> list[dict]:
    """At most `limit` records spread over the whole list (so over every venue-year)."""
    if not limit or limit >= len(records):
        return records
    return [records[i * len(records) // limit] for i in range(limit)]


def venue_years(records: list[dict]) -> dict[tuple[str, int, str], list[int]]:
    """{(venue, year, file name stem such as neurips-2018): indexes of its records}, one entry per
    venue-year, sorted."""
    groups: dict[tuple[str, int], list[int]] = defaultdict(list)
    for index, record in enumerate(records):
        groups[record["venue"], int(record["year"])].append(index)
    return {(venue, year, f"{re.sub(r'[^a-z0-9]+', '-', venue.lower())}-{year}"): indices
            for (venue, year), indices in sorted(groups.items())}


def write_seed_lists(records: list[dict], seeds: Path) -> dict[tuple[str, int], int]:
    """One seed list per venue-year; returns {(source path as content/ names it, line): record index}.

    Each abstract goes on one line, its own line breaks and blank lines turned into spaces: ingest
    joins a paragraph's lines and collapses whitespace anyway, and a blank line inside an abstract
    would split it in two.
    """
    seeds.mkdir(parents=True, exist_ok=True)
    places = {}
    for (venue, year, stem), indices in venue_years(records).items():
        name = f"{stem}.txt"
        lines = [f"{venue} {year}"]
        for index in indices:
            places[f"seeds/{name}", len(lines) + 2] = index  # after a blank line
            lines += ["", " ".join(records[index]["abstract"].split())]
        (seeds / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return places


def read_pairs(content: Path, records: list[dict],
               places: dict[tuple[str, int], int]) -> tuple[list[tuple[dict, Paper]], list[Paper]]:
    """(record, paper) for every paper in content/ traced back to its record, in record order;
    and the papers that could not be traced."""
    found, strays = [], []
    for paper in read_papers(content).values():
        index = places.get((paper.source.path, paper.source.line))
        if index is None:
            strays.append(paper)
        else:
            found.append((index, paper))
    return [(records[index], paper) for index, paper in sorted(found, key=lambda item: item[0])], strays


@dataclass(frozen=True)
class Row:
    item: str
    figure: str
    value: str
    target: str
    met: bool | None  # None: no target (printed for context), or nothing to measure it on

    def cells(self) -> tuple[str, ...]:
        verdict = {True: "met", False: "NOT MET", None: "no data" if self.target != "-" else ""}[self.met]
        return self.item, self.figure, self.value, self.target, verdict


def figures(records: list[dict], pairs: list[tuple[dict, Paper]], site: Path, taxonomy: tuple[Topic, ...],
            labels: dict[str, tuple[frozenset[str], ...]], cpu_ms: list[float],
            result_labels: dict[str, dict[str, str]] | None = None) -> tuple[list[Row], list[str]]:
    """The table's rows and the worst examples under it."""
    papers = [paper for _, paper in pairs]
    rows, notes = [], []

    def examples(label: str, found) -> None:
        notes.extend(f"  {label}: {example.where}: {example.shows}" for example in list(found)[:3])

    leaks = tag_leaks(site) + slug_leaks(papers)
    where = sorted({leak.file.split("/")[0] for leak in leaks})
    rows.append(Row("1 markup", "allowlisted tags shown as text on the site", f"{len(leaks)}", "0", not leaks))
    notes.extend(f"  tag shown as text: {leak.file}: {leak.text}" for leak in leaks[:3])
    if where:
        notes.append(f"  (tags shown as text under: {', '.join(where)})")

    math = math_scores(site, (paper.slug for paper in papers))
    rows.append(Row("2 math", "math segments shown unconverted",
                    f"{math.share:.2%} ({math.unconverted:,} of {math.segments:,})", "<= 1%", math.share <= 0.01))
    examples("math as written", math.examples)

    names = name_scores(pairs, common_words(record["abstract"] for record in records))
    rows += [Row("3 names", f"precision ({names.right:,} of {names.predicted:,} names given)",
                 f"{names.precision:.3f}", ">= 0.95", names.precision >= 0.95),
             Row("3 names", f"recall ({names.right:,} of {names.silver:,} silver names)", f"{names.recall:.3f}",
                 ">= 0.85", names.recall >= 0.85),
             Row("3 names", f"names given where the title has no ':' ({names.unprefixed:,} papers)",
                 f"{names.unprefixed_named:,}", "-", None)]
    examples("wrong name", names.wrong)
    examples("missed name", names.missed)

    titles = title_scores(pairs)
    rows.append(Row("4 titles", "mean token F1 against the real titles", f"{titles.mean_f1:.3f}", ">= 0.40",
                    titles.mean_f1 >= 0.40))
    for defect in DEFECTS:
        rows.append(Row("4 titles", defect, f"{len(titles.defects[defect]):,}", "0", not titles.defects[defect]))
        examples(defect, titles.defects[defect])

    topics = topic_scores(pairs, taxonomy)
    rows.append(Row("5 topics", f"topics named by author keywords that are shown ({topics.named:,} in "
                                f"{topics.papers:,} papers)", f"{topics.coverage:.1%}", ">= 85%",
                    topics.coverage >= 0.85 if topics.named else None))
    examples("topic missed", topics.missed)

    benchmarks = benchmark_scores(pairs, labels)
    labelled = (f"{benchmarks.precision:.3f} ({benchmarks.right} of {benchmarks.listed})" if benchmarks.labelled
                else "- (none labelled)")
    rows.append(Row("6 benchmarks", f"precision on {benchmarks.labelled} labelled papers", labelled, ">= 0.9",
                    benchmarks.precision >= 0.9 if benchmarks.listed else None))
    examples("not a benchmark", benchmarks.wrong)
    results = result_scores(pairs, result_labels or {})
    if results.labelled:
        rows += [Row("6 results", f"headline results that do not say what they measure ({results.shown} shown on "
                                  f"{results.labelled} labelled held-out papers)",
                     f"{results.counts.get('vague', 0)}", "0", not results.counts.get("vague")),
                 Row("6 results", "... that say it rightly (not garbled, not a wrong number)",
                     f"{results.share('right'):.1%}", "-", None)]
        examples("result without a label (label it)", results.unlabelled)

    median = statistics.median(cpu_ms) if cpu_ms else 0.0
    rows.append(Row("7 speed", f"median CPU ms per abstract, extraction + markup ({len(cpu_ms):,} abstracts)",
                    f"{median:.2f}", "<= 2", median <= 2))
    return rows, notes


def table(rows: list[Row]) -> str:
    header = ("item", "figure", "value", "target", "")
    cells = [header, *(row.cells() for row in rows)]
    widths = [max(len(line[i]) for line in cells) for i in range(len(header))]
    lines = [" | ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip() for line in cells]
    lines.insert(1, "-|-".join("-" * width for width in widths))
    return "\n".join(lines)


def run(command: list, log: Path) -> float:
    """Run one build command (its output to log); seconds taken. Exits on failure."""
    started = time.perf_counter()
    with log.open("w") as out:
        done = subprocess.run([str(part) for part in command], cwd=PROJECT, stdout=out, stderr=subprocess.STDOUT)
    if done.returncode:
        sys.exit(f"{' '.join(str(part) for part in command[1:3])} failed (exit {done.returncode}); see {log}")
    return time.perf_counter() - started


def git_commit() -> str:
    found = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=PROJECT, capture_output=True, text=True)
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=PROJECT,
                           capture_output=True, text=True).stdout.strip()
    return (found.stdout.strip() or "unknown") + ("+changes" if dirty else "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", nargs="?", type=Path, default=CORPUS, help="papers.jsonl.gz (default: %(default)s)")
    parser.add_argument("--sample", action="store_true", help=f"use {SAMPLE.relative_to(PROJECT)} (quick)")
    parser.add_argument("--limit", type=int, default=None, help="at most N records, evenly spaced")
    parser.add_argument("--work", type=Path, default=None, help="scratch folder (default: a new one under /tmp)")
    parser.add_argument("--keep", action="store_true", help="keep the seeds, content and site")
    parser.add_argument("--labels", type=Path, default=LABELS, help="benchmark labels (default: %(default)s)")
    parser.add_argument("--json", type=Path, default=None, help="also save the table as JSON (to compare runs)")
    args = parser.parse_args(argv)

    logging.getLogger("pylatexenc").setLevel(logging.ERROR)  # it warns about formulas it reads as text
    source = SAMPLE if args.sample else args.corpus
    if not source.is_file():
        print(f"{source}: no such file; the corpus lives in ../shared/corpus/ beside the project "
              "(or give its path, or --sample)", file=sys.stderr)
        return 2
    records = evenly_spaced(read_records(source), args.limit)
    if args.work:
        args.work.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="realtext-", dir=args.work))
    seeds, content, site = work / "seeds", work / "content", work / "site"
    content.mkdir()
    shutil.copy(PROJECT / "content" / "topics.yaml", content / "topics.yaml")
    print(f"{len(records):,} records of {source} at {git_commit()} -> {work}", flush=True)
    try:
        places = write_seed_lists(records, seeds)
        build = [sys.executable, PROJECT / "build.py"]
        seconds = run([*build, "ingest", "--seeds", seeds, "--content", content], work / "ingest.log")
        print(f"ingest: {seconds:.1f} s", flush=True)
        seconds = run([*build, "render", "--content", content, "--out", site], work / "render.log")
        print(f"render: {seconds:.1f} s", flush=True)
        pairs, strays = read_pairs(content, records, places)
        taxonomy, fallback = read_taxonomy(content)
        cpu_ms = extraction_cpu_ms((record["abstract"] for record in records), taxonomy, fallback)
        rows, notes = figures(records, pairs, site, taxonomy, read_benchmark_labels(args.labels), cpu_ms,
                              read_result_labels(RESULT_LABELS))
        print(f"{len(pairs):,} papers traced to their records ({len(records) - len(pairs):,} records without "
              f"a paper of their own, {len(strays)} papers without a record)\n")
        print(table(rows))
        if args.json:
            args.json.write_text(json.dumps({"commit": git_commit(), "source": str(source), "records": len(records),
                                             "rows": [asdict(row) for row in rows]}, indent=1) + "\n")
        print("\nWorst examples:\n" + "\n".join(notes))
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
