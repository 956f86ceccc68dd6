"""Learn catalogue/ingest/field_terms.json, the names the field shares, from the corpus; and say what it changes.

    python3 bench/train_field_terms.py [--corpus ../shared/corpus/papers.jsonl.gz] [--seed 11]

A term is a name the extractor may give (one it derives from a training abstract, or a coined word:
names.is_coined) that the abstracts of at least FIELD_SHARE of the training venue-years write, as names
are written (singular or plural; a phrase, its words in order), and that titles no training paper
(its silver name, the title's prefix: 'SAGA: A Fast ...' names a paper with a word later papers
write). With each term, the first year a training abstract writes it (a paper older than that may
have coined it) and the expansions at least EXPANDED_BY training abstracts write for it ('Markov
random field (MRF)'): an abstract that spells the term out otherwise coins a name
(shared_names.is_known_term). Training uses the venue-years bench/train_titles.py trains on (every
fifth held out, the test sample in neither): same corpus, same list.

Then, on the held-out venue-years, without the list and with it: name precision and recall against
the silver names (each venue-year read whole, as bench/names.py does), and the papers read as
reading lists of LIST_SIZE, where the venue-year rule rarely sees a term: the names given, the
names that are the list's terms, and READ of the names the list changes drawn at random (--seed).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.corpus_sample import CORPUS, SAMPLE, read_corpus  # noqa: E402
from bench.names import name_scores  # noqa: E402
from bench.realtext_metrics import common_words, papers_read_alone, silver_name  # noqa: E402
from bench.train_titles import split  # noqa: E402
from catalogue.content.taxonomy import read_taxonomy  # noqa: E402
from catalogue.ingest.extract import find_contributions, plain_for_extraction  # noqa: E402
from catalogue.ingest.name_shapes import is_coined  # noqa: E402
from catalogue.ingest.shared_names import (FIELD_TERMS, Known, papers_writing, shipped_terms, spelled_out,  # noqa: E402
                                           without_field_terms, writers)
from catalogue.markup.cleanup import clean_abstract  # noqa: E402
from catalogue.model import Paper  # noqa: E402
from catalogue.text import replace_unsafe  # noqa: E402

PROJECT = Path(__file__).resolve().parent.parent
FIELD_SHARE = 0.2  # of the training venue-years whose abstracts write a term
LIST_SIZE = 40  # papers of a reading list
READ = 40  # changed names printed to read
EXPANDED_BY = 2  # abstracts that write an expansion for a term make it the field's
_PARENTHESIS = re.compile(r"\(([^()\s]{2,40})\)")


def learn(records: list[dict]) -> dict:
    """{'share', 'venue_years', 'terms': {term: {'since', 'expansions'}}} from the training records."""
    cleaned = [clean_abstract(replace_unsafe(r["abstract"]))[0] for r in records]
    plain = {str(number): plain_for_extraction(abstract) for number, abstract in enumerate(cleaned)}
    venue_year = {str(number): (r["venue"], int(r["year"])) for number, r in enumerate(records)}
    least = math.ceil(FIELD_SHARE * len(set(venue_year.values())))
    writing = writers(plain)

    def venue_years_writing(name: str) -> int:
        return len({venue_year[pid] for pid in papers_writing(name, writing, plain)})

    derived = {c.name for abstract in cleaned for c in find_contributions(abstract)}
    coined = {word for word, found in writing.items()
              if len({venue_year[pid] for pid in found}) >= least and is_coined(word)}
    common = common_words(r["abstract"] for r in records)
    titled = {silver_name(r, common) for r in records} - {None}
    terms = {name for name in derived | coined if name not in titled and venue_years_writing(name) >= least}
    first_year = min(year for _, year in venue_year.values())
    since = {term: min(venue_year[pid][1] for pid in papers_writing(term, writing, plain)) for term in terms}
    return {"share": FIELD_SHARE, "venue_years": len(set(venue_year.values())),
            "terms": {term: {"since": since[term] if since[term] > first_year else None, "expansions": keys}
                      for term, keys in sorted(expansions_of(terms, plain.values()).items())}}


def expansions_of(terms: set[str], plain: Iterable[str]) -> dict[str, list[str]]:
    """{term: the keys of the expansions at least EXPANDED_BY abstracts write for it, sorted}."""
    writers_of: dict[str, Counter] = {term: Counter() for term in terms}
    for text in plain:
        for inside in set(_PARENTHESIS.findall(text)) & terms:
            spelled = spelled_out(inside, text)
            if spelled:
                writers_of[inside][spelled] += 1
    return {term: sorted(key for key, count in counts.items() if count >= EXPANDED_BY)
            for term, counts in writers_of.items()}


def reading_lists(papers: list[Paper]) -> list[list[Paper]]:
    """Each venue-year's papers, in order, as lists of LIST_SIZE."""
    venue_years: dict[tuple, list[Paper]] = defaultdict(list)
    for paper in papers:
        venue_years[paper.venue, paper.year].append(paper)
    return [group[start:start + LIST_SIZE] for group in venue_years.values()
            for start in range(0, len(group), LIST_SIZE)]


def names_in_lists(papers: list[Paper], known: Known) -> dict[str, str | None]:
    """{paper id: its name} with the papers read as reading lists."""
    taxonomy, fallback = read_taxonomy(PROJECT / "content")
    return {paper.id: paper.name for group in reading_lists(papers)
            for paper in without_field_terms(group, taxonomy, fallback, known)}


def report(held_out: list[dict], common: frozenset[str], seed: int) -> None:
    shipped = shipped_terms()
    taxonomy, fallback = read_taxonomy(PROJECT / "content")
    papers = papers_read_alone(held_out, taxonomy, fallback)
    print(f"held-out venue-years, {len(held_out)} papers, each venue-year read whole:")
    for label, known in (("without the list", {}), ("with the list", shipped)):
        names = [paper.name for paper in without_field_terms(papers, taxonomy, fallback, known)]
        scores = name_scores(held_out, common, names)
        print(f"  {label}: precision {scores['precision']:.3f} ({scores['right']} of {scores['given']}), "
              f"recall {scores['recall']:.3f}, names on titles without ':' "
              f"{scores['names_on_unprefixed_titles']} of {scores['unprefixed_titles']}")
    before, after = names_in_lists(papers, {}), names_in_lists(papers, shipped)
    print(f"the same papers as {len(reading_lists(papers))} reading lists of at most {LIST_SIZE}:")
    for label, names in (("without the list", before), ("with the list", after)):
        given = [name for name in names.values() if name]
        print(f"  {label}: {len(given)} names, {sum(name in shipped for name in given)} of them the list's terms")
    changed = [paper for paper in papers if before[paper.id] != after[paper.id]]
    print(f"names the list changes: {len(changed)} ({sum(after[p.id] is None for p in changed)} now without a name); "
          f"{min(READ, len(changed))} drawn with seed {seed} (before -> after | real title):")
    titles = {str(number): record["title"] for number, record in enumerate(held_out)}
    for paper in random.Random(seed).sample(changed, min(READ, len(changed))):
        print(f"  {before[paper.id]!r} -> {after[paper.id]!r} | {titles[paper.id]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--out", type=Path, default=FIELD_TERMS)
    parser.add_argument("--seed", type=int, default=11, help="of the changed names drawn to read")
    args = parser.parse_args()
    sample = {json.loads(line)["abstract"] for line in SAMPLE.read_text(encoding="utf-8").splitlines()}
    corpus = read_corpus(args.corpus)
    training, held_out = split(corpus, sample)
    learned = learn(training)
    args.out.write_text(json.dumps(learned, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{args.out}: {len(learned['terms'])} terms from {len(training)} papers "
          f"of {learned['venue_years']} venue-years")
    shipped_terms.cache_clear()
    if args.out == FIELD_TERMS:
        report(held_out, common_words(record["abstract"] for record in corpus), args.seed)


if __name__ == "__main__":
    main()
