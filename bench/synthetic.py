"""Synthetic seed lists of any size, made by recombining sentences of the real seed abstracts.

    python bench/synthetic.py --papers 10000 --out /tmp/seeds-10k

Each abstract is distinct (a numbered method name is woven in). Papers are spread evenly over
6 venues x 3 years (18 venue-years, in contiguous blocks: 100,000 papers give 18 venue-years
of ~5,600), each venue-year in files of at most 500 papers. Fewer than 18 papers use fewer
venue-years. Same arguments, same files.
"""

from __future__ import annotations

import argparse
import random
import re
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
VENUE_NAMES = ("ICML", "NeurIPS", "ICLR", "ACL", "CVPR", "AAAI")
YEARS = (2026, 2025, 2024)
VENUES = [(venue, year) for year in YEARS for venue in VENUE_NAMES]  # 18 venue-years
PER_FILE = 500


def real_sentences(seeds_dir: Path) -> list[str]:
    sentences = []
    for path in sorted(seeds_dir.glob("*.txt")):
        for paragraph in path.read_text(encoding="utf-8").split("\n\n")[1:]:
            sentences += [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z])", paragraph.strip()) if len(s) > 40]
    return sentences


def synthetic_abstract(number: int, sentences: list[str], rng: random.Random) -> str:
    picked = rng.sample(sentences, 6)
    name = f"Synth{number:06d}Net"
    picked.insert(rng.randrange(1, 4), f"We propose {name}, a method for {rng.choice(TOPICS)}.")
    return " ".join(picked)


TOPICS = ["federated optimization", "diffusion models", "graph learning", "robot manipulation",
          "language model reasoning", "causal inference", "image editing", "theorem proving"]


def write_seed_files(count: int, out: Path, seeds_dir: Path = PROJECT / "seeds", seed: int = 0) -> list[Path]:
    """count papers in out/NNN_<venue>_<year>.txt files; returns the files.

    Paper n's abstract depends only on (n, seed, the real seeds), not on how papers are filed."""
    sentences = real_sentences(seeds_dir)
    rng = random.Random(seed)
    abstracts = [synthetic_abstract(n, sentences, rng) for n in range(count)]
    out.mkdir(parents=True, exist_ok=True)
    files = []
    groups = min(len(VENUES), count)
    for group, (venue, year) in enumerate(VENUES[:groups]):
        block = abstracts[group * count // groups:(group + 1) * count // groups]
        for start in range(0, len(block), PER_FILE):
            path = out / f"{len(files):03d}_{venue.lower()}_{year}.txt"
            chunk = block[start:start + PER_FILE]
            path.write_text(f"{venue} {year} Accepted Papers\n\n" + "\n\n".join(chunk) + "\n", encoding="utf-8")
            files.append(path)
    return files


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--papers", type=int, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    files = write_seed_files(args.papers, args.out, seed=args.seed)
    print(f"{args.papers} papers in {len(files)} files under {args.out}")


if __name__ == "__main__":
    main()
