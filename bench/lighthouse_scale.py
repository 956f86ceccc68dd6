"""Lighthouse on a large build of real papers: the home page, a topic page and a paper page.

    python3 bench/lighthouse_scale.py [--papers 10000] [--work DIR]

The first N records of ../shared/corpus/papers.jsonl.gz become JSON lines seed lists per
venue-year (as bench/corpus_build.py writes them), built with the address they are served at,
served with the Content-Security-Policy of netlify.toml, and audited by Lighthouse (mobile
defaults, as tests/test_lighthouse.py does for the seeds). Prints each page's four scores.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from bench.corpus_build import write_jsonl_seed_lists  # noqa: E402
from bench.realtext import CORPUS, read_records  # noqa: E402
from conftest import serve_folder  # noqa: E402
from test_lighthouse import CATEGORIES, netlify_policy, run_lighthouse  # noqa: E402
from catalogue.routes import bucket

PROJECT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--papers", type=int, default=10_000)
    parser.add_argument("--work", type=Path, default=None)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(dir=args.work))
    (work / "content").mkdir()
    (work / "content" / "topics.yaml").write_bytes((PROJECT / "content" / "topics.yaml").read_bytes())
    write_jsonl_seed_lists(read_records(CORPUS)[:args.papers], work / "seeds")
    site = work / "site"
    with serve_folder(site, not_found=site / "404.html", policy=netlify_policy()) as address:
        subprocess.run([sys.executable, str(PROJECT / "build.py"), "--seeds", str(work / "seeds"), "--content",
                        str(work / "content"), "--out", str(site), "--base-url", address], check=True)
        topic = sorted((site / "topics").glob("*/index.html"))[0].parent.name
        paper = sorted((site / "papers").glob("*/*/index.html"))[0].parent.name
        pages = {"home": "", "topic": f"topics/{topic}/index.html", "paper": f"papers/{bucket(paper)}/{paper}/index.html"}
        print(f"| page ({args.papers:,} papers) | " + " | ".join(CATEGORIES) + " |")
        print("|---|" + "---:|" * len(CATEGORIES))
        for name, path in pages.items():
            report = run_lighthouse(address + path, work / f"{name}.json")
            scores = [report["categories"][category]["score"] for category in CATEGORIES]
            print(f"| {name} (`{path or 'index.html'}`) | " + " | ".join(f"{score:.2f}" for score in scores) + " |")


if __name__ == "__main__":
    main()
