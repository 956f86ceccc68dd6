"""The whole real corpus as seed lists with titles and authors: one cold full build, and search on its titles.

    python bench/corpus_build.py [CORPUS] [--sample] [--limit N] [--queries 300] [--seed N] [--work DIR] [--keep]

CORPUS is ../shared/corpus/papers.jsonl.gz (19,951 real papers); --sample uses
tests/data/corpus_sample.jsonl (500 of them), --limit N takes N records spread over the corpus.
The records are written as they are, one JSON lines seed list per venue-year
(`seeds/neurips-2018.jsonl`), into a scratch project; then

    python3 build.py --seeds seeds --content content --out docroot/REPO/

runs as one process (cold: content/ holds only the taxonomy, there is no cache and no previous
site), measured by bench/scale.py's `measure()`: wall time, the peak memory summed over the
process tree (Pagefind and the build's own workers included) and the stage times the build
prints. Then the title-search figure (bench/search_titles.py): for --queries random papers (the
seed is printed; --seed replays it), a query of the three rarest words of the paper's title is
typed into search.html, hosted (Pagefind, the site served over http under /REPO/) and from disk
(the offline index, search.html opened from file://); a hit is the paper among the first three
results. One table, Markdown, is printed at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.realtext import CORPUS, SAMPLE, evenly_spaced, read_records, venue_years  # noqa: E402
from bench.scale import git_commit, measure, memory_total_mb  # noqa: E402
from bench.search_titles import (ENGINE_NAMES, TARGETS, Outcome, draw, hit_rate, new_seed,  # noqa: E402
                                 read_site_papers, report, run_queries)

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT / "tests"))
from conftest import CHROMIUM, SUBPATH, serve_folder  # noqa: E402

QUERIES = 300
MISSES_SHOWN = 20


def write_jsonl_seed_lists(records: list[dict], seeds: Path) -> int:
    """One JSON lines seed list per venue-year, each record as it is; returns how many lists."""
    seeds.mkdir(parents=True, exist_ok=True)
    lists = venue_years(records)
    for (_, _, stem), indices in lists.items():
        (seeds / f"{stem}.jsonl").write_text(
            "".join(json.dumps(records[index], ensure_ascii=False) + "\n" for index in indices), encoding="utf-8")
    return len(lists)


def site_size(site: Path) -> tuple[int, int]:
    """(files, bytes) of a built site."""
    files = size = 0
    for folder, _, names in os.walk(site):
        for name in names:
            files += 1
            size += os.lstat(os.path.join(folder, name)).st_size
    return files, size


def search_titles(docroot: Path, site: Path, queries, say) -> dict[str, list[Outcome]]:
    """Every query through search.html, hosted (docroot served, the site at /REPO/) and from disk."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright, serve_folder(docroot) as address:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            started = time.perf_counter()
            outcomes = run_queries({"pagefind": (browser.new_context().new_page(), f"{address}{SUBPATH}/search.html"),
                                    "fallback": (browser.new_context().new_page(), (site / "search.html").as_uri())},
                                   queries)
            say(f"{len(queries)} queries per engine in {time.perf_counter() - started:.1f} s")
        finally:
            browser.close()
    return outcomes


def render_table(rows: list[tuple[str, str]]) -> str:
    width = max(len(figure) for figure, _ in rows)
    lines = [f"| {'figure':<{width}} | value |", f"|{'-' * (width + 2)}|------:|"]
    lines += [f"| {figure:<{width}} | {value} |" for figure, value in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", nargs="?", type=Path, default=CORPUS, help="papers.jsonl.gz (default: %(default)s)")
    parser.add_argument("--sample", action="store_true", help=f"use {SAMPLE.relative_to(PROJECT)} (500 papers)")
    parser.add_argument("--limit", type=int, default=None, help="at most N records, evenly spaced")
    parser.add_argument("--queries", type=int, default=QUERIES, help="papers queried by title (default %(default)s; "
                                                                       "0: no search figure)")
    parser.add_argument("--seed", type=int, default=None, help="replay the random draw of a run (it prints its seed)")
    parser.add_argument("--work", type=Path, default=None, help="scratch folder (default: a new one under /tmp)")
    parser.add_argument("--keep", action="store_true", help="keep the seeds, content and site")
    parser.add_argument("--timeout", type=float, default=3600, help="seconds before the build is killed")
    parser.add_argument("--max-mb", type=float, default=round(memory_total_mb() * 0.6),
                        help="kill the build when its process tree holds more (default: 60%% of RAM)")
    args = parser.parse_args(argv)

    def say(message: str) -> None:
        print(message, flush=True)

    source = SAMPLE if args.sample else args.corpus
    if not source.is_file():
        say(f"{source}: no such file; the corpus lives in ../shared/corpus/ beside the project (or give its path, "
            "or --sample)")
        return 2
    records = evenly_spaced(read_records(source), args.limit)
    seed = new_seed() if args.seed is None else args.seed
    if args.work:
        args.work.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="corpus-build-", dir=args.work))
    seeds, content, docroot = work / "seeds", work / "content", work / "docroot"
    site = docroot / SUBPATH
    commit = git_commit(PROJECT)
    say(f"{len(records):,} records of {source} at {commit} -> {work} (load {os.getloadavg()[0]:.2f})")
    try:
        lists = write_jsonl_seed_lists(records, seeds)
        content.mkdir()
        shutil.copy(PROJECT / "content" / "topics.yaml", content / "topics.yaml")
        command = [sys.executable, PROJECT / "build.py", "--seeds", "seeds", "--content", "content", "--out",
                   site.relative_to(work)]
        say(f"{lists} seed lists written; building: {' '.join(map(str, command))}")
        run = measure(command, work / "build.log", work, args.timeout, args.max_mb)
        if not run.ok:
            say(f"the build failed ({run.failure()}); see {run.log}")
            return 1
        for label, seconds in run.lines:
            say(f"  {label} ... {seconds:.2f} s")
        say(f"  {run.summary}")

        papers = sum(1 for _ in site.glob("papers/*/*/index.html"))
        authors = sum(page.read_text(encoding="utf-8").count("<section id=")
                      for page in site.glob("authors/[0-9a-f][0-9a-f]/index.html"))
        files, size = site_size(site)
        pagefind_mb = max((mb for name, mb in run.programs.items() if "pagefind" in name), default=0.0)
        rows = [("records", f"{len(records):,} ({source.name})"),
                ("papers (site/papers/*/*/index.html)", f"{papers:,}"),
                ("venue-years (seed lists)", f"{lists}"),
                ("authors (sections of site/authors/<bucket>/index.html)",
                 f"{authors:,}" if authors else "0 (this build makes no author pages)"),
                ("site size", f"{size / 1e6:,.0f} MB in {files:,} files"),
                ("total time (cold full build, wall)", f"{run.seconds:.1f} s"),
                *((f"  {label}", f"{seconds:.1f} s") for label, seconds in run.lines),
                ("peak memory, process tree summed", f"{run.tree_mb:,.0f} MB"),
                ("peak memory, largest process", f"{run.peak_mb:,.0f} MB (Pagefind alone {pagefind_mb:,.0f} MB)")]
        if args.queries:
            queries = draw(read_site_papers(site), args.queries, seed)
            say(f"\ntitle search: {len(queries)} papers drawn with seed {seed} (replay: --seed {seed})")
            outcomes = search_titles(docroot, site, queries, say)
            for engine, found in outcomes.items():
                rate = hit_rate(found)
                rows.append((f"title search, {ENGINE_NAMES[engine]}: top 3 (target {TARGETS[engine]:.0%})",
                             f"{rate:.1%} ({sum(o.hit for o in found)} of {len(found)})"
                             + ("" if rate >= TARGETS[engine] else " NOT MET")))
                say(report(engine, found, seed, MISSES_SHOWN))
        rows.append(("commit, date, load after", f"{commit}, {time.strftime('%Y-%m-%d')}, {os.getloadavg()[0]:.2f}"))
        if args.queries:
            rows.append(("search seed", f"{seed}"))
        say("\n" + render_table(rows))
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
