"""The whole lookup (the searches, then the rule) against the corpus as a search service.

    python3 bench/lookup_search.py [--corpus ../shared/corpus/papers.jsonl.gz] [--sample N]

The corpus stands in for OpenAlex: a search returns the five records holding every word searched
for (stop words aside, as OpenAlex drops them), those sharing most words with the search first,
each served as OpenAlex serves a work (its abstract as an inverted index). For N sampled papers
it counts, when the service knows the paper, how often the lookup finds it and takes its title;
when the service knows another version of it (bench/lookup_match.py's: a sentence dropped, one
word in twenty changed), the same; and, when the service does not know it (the paper taken out of
the index), how often a look-alike's title would be taken instead. The last must be zero.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from bench.corpus_sample import CORPUS, read_corpus  # noqa: E402
from bench.lookup_match import other_version  # noqa: E402
from catalogue.ingest.lookup.ask import find  # noqa: E402
from catalogue.ingest.lookup.openalex import WORD  # noqa: E402
from catalogue.ingest.lookup.service import LookupSettings  # noqa: E402
from catalogue.model import Paper, Source  # noqa: E402
from catalogue.text import STOPWORDS  # noqa: E402
from openalex_standin import work  # noqa: E402
from urllib.parse import parse_qs, urlparse  # noqa: E402


class CorpusSearch:
    """A Service whose answers come from the corpus, less the records in `hidden`."""

    def __init__(self, records: list[dict]):
        self.records = records
        self.words = [set(word.lower() for word in WORD.findall(record["abstract"])) for record in records]
        self.hidden: set[int] = set()
        self.versions: dict[int, dict] = {}  # records served in another version
        self.requests = 0

    def get_json(self, address: str) -> dict:
        self.requests += 1
        searched = parse_qs(urlparse(address).query)["search"][0].split()
        needed = {word for word in searched if word not in STOPWORDS}
        held = [at for at, words in enumerate(self.words) if at not in self.hidden and needed <= self.words_of(at)]
        held.sort(key=lambda at: (-len(self.words_of(at) & set(searched)), at))
        return {"results": [work(self.versions.get(at, self.records[at]), at) for at in held[:5]]}

    def words_of(self, at: int) -> set[str]:
        if at in self.versions:
            return set(word.lower() for word in WORD.findall(self.versions[at]["abstract"]))
        return self.words[at]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--sample", type=int, default=500)
    options = parser.parse_args()
    records = read_corpus(options.corpus)
    service = CorpusSearch(records)
    settings = LookupSettings()
    found = right = wrong_known = wrong_absent = version_found = version_right = 0
    chance = random.Random(7)
    sample = sorted(random.Random(42).sample(range(len(records)), options.sample))
    for at in sample:
        paper = Paper(id="0" * 12, slug="x", title="derived", abstract=records[at]["abstract"], source=Source("x", 1))
        service.hidden = set()
        match = find(service, paper, settings)
        found += match is not None
        right += match is not None and records[int(match.id[1:])]["title"] == records[at]["title"]
        wrong_known += match is not None and records[int(match.id[1:])]["title"] != records[at]["title"]
        service.versions = {at: records[at] | {"abstract": other_version(records[at]["abstract"], chance)}}
        match = find(service, paper, settings)
        version_found += match is not None
        version_right += match is not None and match.title == records[at]["title"]
        service.versions = {}
        service.hidden = {other for other, record in enumerate(records) if record["title"] == records[at]["title"]}
        wrong_absent += find(service, paper, settings) is not None
    print(f"{options.sample} papers, {service.requests} requests ({service.requests / options.sample / 3:.2f} a paper a run)")
    print(f"known to the service: {found} found, {right} with the right title, {wrong_known} with another's title")
    print(f"known in another version: {version_found} found, {version_right} with the right title")
    print(f"not known to the service: {wrong_absent} given another paper's title")


if __name__ == "__main__":
    main()
