"""How far apart the same paper and its look-alikes are under the lookup's rule (catalogue/ingest/lookup/matching.py).

    python3 bench/lookup_match.py [--corpus ../shared/corpus/papers.jsonl.gz] [--sample N]

For N real abstracts of the corpus: the similarity of each to itself as the service gives it back
(markup stripped, words as whitespace runs: what an inverted index rebuilds), to another version of
itself (a sentence dropped and one word in twenty changed, seeded), and to its five nearest papers
on the same topic, a paper of the same title excepted (the same paper at two venues, shown apart) (TF-IDF cosine over the whole corpus: the look-alikes a search by its words
returns). Prints each group's lowest, 1st percentile and highest similarity against SAME_PAPER.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.corpus_sample import CORPUS, read_corpus  # noqa: E402
from catalogue.ingest.lookup.matching import SAME_PAPER, abstract_words, similarity  # noqa: E402
from catalogue.text import split_sentences  # noqa: E402


def as_served(abstract: str) -> str:
    """The abstract as an inverted index rebuilds it: tags and dollar signs gone, one space between words."""
    return " ".join(re.sub(r"<[^>]+>|\$", " ", abstract).split())


def other_version(abstract: str, chance: random.Random) -> str:
    sentences = split_sentences(abstract)
    if len(sentences) > 2:
        del sentences[chance.randrange(1, len(sentences))]
    tokens = " ".join(sentences).split()
    for at in chance.sample(range(len(tokens)), len(tokens) // 20):
        tokens[at] = "changed"
    return " ".join(tokens)


def quantiles(values: list[float]) -> str:
    values = sorted(values)
    return (f"lowest {values[0]:.3f}, 1% {values[len(values) // 100]:.3f}, median {values[len(values) // 2]:.3f}, "
            f"99% {values[len(values) * 99 // 100]:.3f}, highest {values[-1]:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--sample", type=int, default=500)
    options = parser.parse_args()
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.neighbors import NearestNeighbors
    records = read_corpus(options.corpus)
    chance = random.Random(42)
    sample = sorted(chance.sample(range(len(records)), options.sample))
    matrix = TfidfVectorizer(sublinear_tf=True, stop_words="english").fit_transform(r["abstract"] for r in records)
    neighbours = NearestNeighbors(n_neighbors=6, metric="cosine").fit(matrix)
    _, nearest = neighbours.kneighbors(matrix[sample])
    served, versions, alike, twins = [], [], [], []
    for at, row in zip(sample, nearest):
        ours = abstract_words(records[at]["abstract"])
        served.append(similarity(ours, abstract_words(as_served(records[at]["abstract"]))))
        versions.append(similarity(ours, abstract_words(other_version(records[at]["abstract"], chance))))
        for other in row:
            if other != at:  # the same title at another venue is the same paper, not a look-alike
                same = records[other]["title"].casefold() == records[at]["title"].casefold()
                (twins if same else alike).append(similarity(ours, abstract_words(as_served(records[other]["abstract"]))))
    print(f"{options.sample} papers of {len(records)}; threshold SAME_PAPER = {SAME_PAPER}")
    print(f"same abstract as served: {quantiles(served)}")
    print(f"another version:         {quantiles(versions)}; below the threshold: "
          f"{sum(value < SAME_PAPER for value in versions)} of {len(versions)}")
    print(f"same title, other venue: {', '.join(f'{value:.3f}' for value in sorted(twins))}")
    print(f"5 nearest look-alikes:   {quantiles(alike)}; at or above the threshold: "
          f"{sum(value >= SAME_PAPER for value in alike)} of {len(alike)}")


if __name__ == "__main__":
    main()
