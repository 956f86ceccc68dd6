"""How well the topics the extractor gives real papers agree with the papers' own author keywords.

    python3 bench/topics.py [--corpus ../shared/corpus/papers.jsonl.gz] [--every 1]

A paper's author keywords name a topic of the taxonomy when one of them is the topic's label or
one of its keywords, or the plural of one ("-s", "-es", "-ies"), written in any case and with a
hyphen, a space or nothing between its words: the extractor reads keywords so too. Coverage is the share of (paper,
named topic) pairs whose topic is among the paper's derived topics. The keyword-bearing papers
are split in two halves by a digest of their title: errors were studied on the "study" half
only; the "check" half shows how the rules generalise. Whole venue-years are held out too: of
the seven that carry keywords, every third from the third (train_titles.py's every fifth holds
none of them), whose errors were never read; and the project's usual hold-out, every fifth of
all the corpus's sorted venue-years from the fifth, as far as those carry keywords.
Over all papers the script also prints how many topics each gets, the share left with only the
fallback topic, and the share of papers under each topic (no topic should take most papers).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.corpus_sample import CORPUS, read_corpus  # noqa: E402
from catalogue.markup.cleanup import clean_abstract  # noqa: E402
from catalogue.content.taxonomy import read_taxonomy  # noqa: E402
from catalogue.ingest.extract import extract  # noqa: E402
from catalogue.ingest.topics import keyword_key  # noqa: E402
from catalogue.model import Topic  # noqa: E402

PROJECT = Path(__file__).resolve().parent.parent
TARGET = 0.85
CONFUSIONS = 15
HELD_OUT_FROM, HELD_OUT_EVERY = 2, 3
EVERY_FIFTH_FROM, EVERY_FIFTH = 4, 5


def derived_topics(records: list[dict], taxonomy: tuple[tuple[Topic, ...], str]) -> list[tuple[str, ...]]:
    """Each record's topics as ingest derives them: from the cleaned abstract alone."""
    topics, fallback = taxonomy
    return [extract(clean_abstract(record["abstract"])[0], topics, fallback).topics for record in records]


def named_topics(keywords: list[str], topics: tuple[Topic, ...]) -> tuple[str, ...]:
    """The slugs of the topics whose label or keywords one of the author keywords is."""
    written = {keyword_key(k) for k in keywords}
    singular = (written | {k[:-1] for k in written if k.endswith("s")} | {k[:-2] for k in written if k.endswith("es")}
                | {k[:-3] + "y" for k in written if k.endswith("ies")})
    return tuple(t.slug for t in topics if singular & {keyword_key(k) for k in (t.label, *t.keywords)})


def study_half(record: dict) -> bool:
    """The half whose errors may be studied; the other half is only measured."""
    return hashlib.sha256(record["title"].encode("utf-8")).digest()[0] % 2 == 0


def held_out_venue_years(records: list[dict]) -> set[tuple[str, int]]:
    """The keyword-bearing venue-years whose papers were only measured, never studied."""
    venue_years = sorted({(r["venue"], int(r["year"])) for r in records if r.get("keywords")})
    return set(venue_years[HELD_OUT_FROM::HELD_OUT_EVERY])


def every_fifth_venue_year(records: list[dict]) -> set[tuple[str, int]]:
    """The venue-years the project holds out when it learns rules: every fifth of all, sorted."""
    venue_years = sorted({(r["venue"], int(r["year"])) for r in records})
    return set(venue_years[EVERY_FIFTH_FROM::EVERY_FIFTH])


def topic_scores(records: list[dict], taxonomy: tuple[tuple[Topic, ...], str],
                 predicted: list[tuple[str, ...]] | None = None) -> dict:
    """Figures over `records` (corpus records) with `taxonomy` as read_taxonomy returns it.
    `predicted` are the records' derived topics when the caller has them already.

    coverage: share of (paper, named topic) pairs whose topic is among the paper's topics;
    named_pairs and named_papers: what it counts; papers: all records; topics_per_paper:
    {count: papers}; fallback_share: share whose only topic is the fallback; topic_share:
    {slug: share of papers having it}; confusions: [(named topic, first derived topic, times)]
    for the missed pairs, most frequent first."""
    topics, fallback = taxonomy
    predicted = derived_topics(records, taxonomy) if predicted is None else predicted
    pairs = hits = papers_named = 0
    confusions: Counter[tuple[str, str]] = Counter()
    for record, got in zip(records, predicted):
        named = named_topics(record.get("keywords") or [], topics)
        papers_named += bool(named)
        for slug in named:
            pairs += 1
            if slug in got:
                hits += 1
            else:
                confusions[(slug, got[0])] += 1
    having = Counter(slug for got in predicted for slug in got)
    total = len(records)
    return {
        "coverage": hits / pairs if pairs else 1.0,
        "named_pairs": pairs,
        "named_papers": papers_named,
        "papers": total,
        "topics_per_paper": dict(sorted(Counter(len(got) for got in predicted).items())),
        "fallback_share": sum(got == (fallback,) for got in predicted) / total if total else 0.0,
        "topic_share": {slug: having[slug] / total for slug, _ in having.most_common()},
        "confusions": [(named, got, n) for (named, got), n in confusions.most_common(CONFUSIONS)],
    }


def coverage_line(label: str, scores: dict) -> str:
    return (f"{label}: coverage {scores['coverage']:.3f} of {scores['named_pairs']} named topics "
            f"({scores['named_papers']} of {scores['papers']} papers name one; target >= {TARGET})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--every", type=int, default=1, help="take every n-th record (faster while iterating)")
    args = parser.parse_args()
    records = read_corpus(args.corpus)[::args.every]
    taxonomy = read_taxonomy(PROJECT / "content")
    predicted = derived_topics(records, taxonomy)
    keyworded = [i for i, record in enumerate(records) if record.get("keywords")]
    held_out = held_out_venue_years(records)
    unseen = {i for i in keyworded if (records[i]["venue"], int(records[i]["year"])) in held_out}
    fifth = every_fifth_venue_year(records)
    fifth_kept = sorted({(records[i]["venue"], int(records[i]["year"])) for i in keyworded} & fifth)
    for label, chosen in (("keyword-bearing papers", keyworded),
                          ("  study half", [i for i in keyworded if study_half(records[i])]),
                          ("  check half", [i for i in keyworded if not study_half(records[i])]),
                          ("  held-out venue-years " + ", ".join(f"{v} {y}" for v, y in sorted(held_out)),
                           sorted(unseen)),
                          ("  other venue-years", [i for i in keyworded if i not in unseen]),
                          ("  every fifth venue-year " + ", ".join(f"{v} {y}" for v, y in fifth_kept),
                           [i for i in keyworded if (records[i]["venue"], int(records[i]["year"])) in fifth])):
        print(coverage_line(label, topic_scores([records[i] for i in chosen], taxonomy, [predicted[i] for i in chosen])))
    everything = topic_scores(records, taxonomy, predicted)
    print(f"\nall {everything['papers']} papers: topics per paper {everything['topics_per_paper']}, "
          f"fallback only {everything['fallback_share']:.3f}")
    print("share of papers under each topic: " + ", ".join(
        f"{slug} {share:.2f}" for slug, share in everything["topic_share"].items()))
    print("\nmost frequent misses on keyword-bearing papers (named topic -> first derived topic):")
    for named, got, n in topic_scores([records[i] for i in keyworded], taxonomy,
                                      [predicted[i] for i in keyworded])["confusions"]:
        print(f"  {n:4}  {named} -> {got}")


if __name__ == "__main__":
    main()
