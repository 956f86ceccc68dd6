"""Time extraction (clean-up + name, title, topics, links, benchmarks, results) per abstract.

    python bench/extraction.py [--papers 10000]

Abstracts are synthetic (bench/synthetic.py), so the figure is repeatable; extraction is a
pure function of the text, so the timing covers no I/O.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.synthetic import PROJECT, real_sentences, synthetic_abstract  # noqa: E402
from catalogue.markup.cleanup import clean_abstract  # noqa: E402
from catalogue.content.taxonomy import read_taxonomy  # noqa: E402
from catalogue.ingest.extract import extract  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--papers", type=int, default=10_000)
    args = parser.parse_args()
    sentences = real_sentences(PROJECT / "seeds")
    rng = random.Random(0)
    abstracts = [synthetic_abstract(n, sentences, rng) for n in range(args.papers)]
    taxonomy, fallback = read_taxonomy(PROJECT / "content")
    started = time.perf_counter()
    named = 0
    for abstract in abstracts:
        cleaned, _ = clean_abstract(abstract)
        named += extract(cleaned, taxonomy, fallback).name is not None
    elapsed = time.perf_counter() - started
    print(f"{args.papers} abstracts in {elapsed:.2f} s: {elapsed / args.papers * 1000:.2f} ms per abstract "
          f"({named} named)")


if __name__ == "__main__":
    main()
