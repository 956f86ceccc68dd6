"""CPU time to parse a content file (front matter checked, the Paper built), as a build that
finds nothing in its cache does for every file.

    python bench/content_parse.py CONTENT_DIR [--runs 7]

Every file of CONTENT_DIR/papers/ is read once, then parsed in each run; the median run is printed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from catalogue.content.paper_file import parse_paper_markdown  # noqa: E402
from catalogue.content.papers import PAPERS_DIR  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("content", type=Path)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    paths = sorted((args.content / PAPERS_DIR).glob("*.md"))
    texts = [(path.read_text(encoding="utf-8"), path.as_posix()) for path in paths]
    runs = []
    for _ in range(args.runs):
        started = time.process_time()
        for text, shown in texts:
            parse_paper_markdown(text, shown)
        runs.append((time.process_time() - started) / len(texts) * 1e6)
    print(f"{statistics.median(runs):.1f} µs per file ({len(texts)} files, median of {args.runs} runs)")


if __name__ == "__main__":
    main()
