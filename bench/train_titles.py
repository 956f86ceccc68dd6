"""Learn catalogue/ingest/title_model.json from the corpus's title-abstract pairs, and say how well it does.

    python3 bench/train_titles.py [--corpus ../shared/corpus/papers.jsonl.gz] [--every N]

The model gives each word of an abstract the probability that the real title holds it
(logistic regression over the features of catalogue.ingest.title_model.token_features). Training uses
four venue-years in five (every fifth, in sorted order, is held out) and never a record of
the test sample (tests/data/corpus_sample.jsonl), so both report on unseen papers. Same corpus,
same model: the split, the order and the solver are deterministic.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from array import array
from collections import Counter
from pathlib import Path

import numpy as np
from scipy.sparse import csr_matrix
from sklearn.linear_model import LogisticRegression

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.corpus_sample import CORPUS, SAMPLE, read_corpus  # noqa: E402
from bench.titles import derive_titles, title_scores  # noqa: E402
from catalogue.markup.cleanup import clean_abstract  # noqa: E402
from catalogue.ingest.extract import find_contributions  # noqa: E402
from catalogue.ingest.abstract_words import (CLOSERS, LINKING, OPENERS, plain_words, read_abstract,  # noqa: E402
                                             tokens_of)
from catalogue.ingest.title_model import MODEL, content_pairs, load_model, token_features  # noqa: E402

HELD_OUT_EVERY = 5
MIN_DOCUMENTS = 20  # a word is known by itself when this many training abstracts hold it
REGULARISATION = 0.5
# A word is a finite verb when this share of its uses follow a subject ('we propose', 'which allows'),
# it is used at least MIN_DOCUMENTS times, and titles hold it (past their first word) at most VERB_TITLE_RATE
# times as often as they hold a word of their abstract on average.
SUBJECTS = {"we", "it", "they", "which", "who"}
VERB_SHARE = 0.03
VERB_TITLE_RATE = 0.2
# Two words are a field's name ('neural networks') when this share of the training abstracts write them together.
COMMON_PAIR_SHARE = 0.004
# A word is a modifier ('single', 'multi-class', 'neural'), which a title never ends on, when the training titles
# hold it at least MODIFIER_TITLES times and end on it at most MODIFIER_LAST_SHARE of them, and the abstracts,
# using it MIN_DOCUMENTS times or more, end a sentence or clause on it at most MODIFIER_END_SHARE of them: a noun
# ends many ('for each user.'), and so does an adjective said of something ('is efficient.'). A word in -ing is
# none: titles open on gerunds ('Finding ...'), yet one may be a noun that ends a phrase ('Density Mode Finding').
# Nor is a linking word ('of', 'and'), which a phrase drops from its end by itself.
MODIFIER_TITLES = 10
MODIFIER_LAST_SHARE = 0.01
MODIFIER_END_SHARE = 0.05
# Nor is a word whose plural (or third person) the abstracts write this often beside it: a noun ('feature',
# 'features') or a verb ('detect', 'detects'); an adjective has no plural.
MODIFIER_PLURAL_SHARE = 0.1
MODIFIER = re.compile(r"-?[a-z][a-z-]*")


def split(records: list[dict], sample: set[str]) -> tuple[list[dict], list[dict]]:
    """(training records, held-out records): whole venue-years apart, the test sample in neither."""
    venue_years = sorted({(r["venue"], int(r["year"])) for r in records})
    held_out = set(venue_years[HELD_OUT_EVERY // 2::HELD_OUT_EVERY])
    unseen = [r for r in records if r["abstract"] not in sample]
    return ([r for r in unseen if (r["venue"], int(r["year"])) not in held_out],
            [r for r in unseen if (r["venue"], int(r["year"])) in held_out])


def vocabulary_of(abstracts: list[tuple]) -> set[str]:
    documents: dict[str, int] = {}
    for abstract in abstracts:
        for token in abstract.counts:
            documents[token] = documents.get(token, 0) + 1
    return {f"w:{token}" for token, count in documents.items() if count >= MIN_DOCUMENTS}


def train(records: list[dict]) -> dict:
    cleaned = [clean_abstract(r["abstract"])[0] for r in records]
    model = train_words(records, cleaned)
    model["verbs"] = verbs_of(records, cleaned)
    model["common_pairs"] = common_pairs_of(cleaned)
    model["modifiers"] = modifiers_of(records, cleaned)
    named = [(n, r["title"]) for n, r in ((_primary_name(r), r) for r in records) if n]
    model["name_in_title"] = round(sum(set(tokens_of(n)) <= set(tokens_of(t)) for n, t in named) / len(named), 3)
    return model


def verbs_of(records: list[dict], abstracts: list[str]) -> list[str]:
    """Finite verbs ('allows', 'contain'): words abstracts often write right after a subject and titles
    seldom hold past their first word ('we frame ...' but 'Frame Networks': a noun)."""
    uses: Counter = Counter()
    documents: Counter = Counter()
    after_subject: Counter = Counter()
    in_titles: Counter = Counter()
    for record, abstract in zip(records, abstracts):
        words = plain_words(abstract)
        uses.update(words)
        documents.update(set(words))
        after_subject.update(word for before, word in zip(words, words[1:]) if before in SUBJECTS)
        in_titles.update(set(plain_words(record["title"])[1:]) & set(words))
    title_rate = sum(in_titles.values()) / sum(documents.values())  # of a word an abstract holds, on average
    return sorted(word for word, count in after_subject.items()
                  if word.isalpha() and not _adverb(word) and uses[word] >= MIN_DOCUMENTS
                  and count >= VERB_SHARE * uses[word]
                  and in_titles[word] < VERB_TITLE_RATE * title_rate * documents[word])


def modifiers_of(records: list[dict], abstracts: list[str]) -> list[str]:
    """Words that need the noun after them ('a single', 'in multi-class'): the titles' last parts (after any
    colon) hold them and never end on them, the abstracts seldom end a sentence or clause on them. A word's
    last part after a hyphen counts as well, as '-efficient' ('memory-efficient', 'sample-efficient')."""
    in_titles: Counter = Counter()
    last: Counter = Counter()
    for record in records:
        words = [word for word in map(_bare, record["title"].rpartition(":")[2].split()) if word]
        for word in words:
            in_titles.update(_forms(word))
        last.update(_forms(words[-1]) if words else ())
    uses: Counter = Counter()
    ends: Counter = Counter()
    for abstract in abstracts:
        for piece in abstract.split():
            for form in _forms(_bare(piece)):
                uses[form] += 1
                ends[form] += piece.rstrip(CLOSERS)[-1:] in ",;:.!?"
    return sorted(word for word, count in in_titles.items()
                  if MODIFIER.fullmatch(word) and word not in LINKING and not word.endswith("ing")
                  and count >= MODIFIER_TITLES and last[word] <= MODIFIER_LAST_SHARE * count
                  and uses[word] >= MIN_DOCUMENTS and ends[word] <= MODIFIER_END_SHARE * uses[word]
                  and uses[_plural(word)] < MODIFIER_PLURAL_SHARE * uses[word])


def _forms(word: str) -> tuple[str, ...]:
    """A word, and its last part after a hyphen marked by it ('sample-efficient': '-efficient')."""
    head = word.rpartition("-")[2]
    return (word, f"-{head}") if head and head != word else (word,)


def _plural(word: str) -> str:
    """The regular plural, or third person: 'features', 'anomalies', 'approaches'."""
    if word.endswith("y") and word[-2:-1] not in set("aeiou"):
        return word[:-1] + "ies"
    return word + ("es" if word.endswith(("s", "x", "z", "ch", "sh")) else "s")


def _bare(piece: str) -> str:
    """A word as a title or an abstract writes it, lowercased, without brackets, quotes and punctuation around it."""
    return piece.lstrip(OPENERS).rstrip(CLOSERS + ",;:.!?").lower()


def _adverb(word: str) -> bool:
    """'directly', 'largely': a title holds them ('Models Directly on ...'); 'apply' and 'supply' are verbs."""
    return word.endswith("ly") and not word.endswith("ply")


def common_pairs_of(abstracts: list[str]) -> list[str]:
    """Pairs of tokens side by side, neither a small word, that many abstracts write: the names of fields."""
    documents: Counter = Counter()
    for abstract in abstracts:
        documents.update(set(content_pairs(tokens_of(abstract))))
    return sorted(pair for pair, count in documents.items() if count >= COMMON_PAIR_SHARE * len(abstracts))


def train_words(records: list[dict], cleaned: list[str]) -> dict:
    abstracts = [read_abstract(text) for text in cleaned]
    vocabulary = vocabulary_of(abstracts)
    columns: dict[str, int] = {}
    indices, pointers, labels = array("i"), array("q", [0]), array("b")
    for words, record in zip(abstracts, records):
        in_title = set(tokens_of(record["title"]))
        for index, per_word in token_features(words, vocabulary).items():
            for token, features in zip(words.words[index].tokens, per_word):
                indices.extend(columns.setdefault(f, len(columns)) for f in features)
                pointers.append(len(indices))
                labels.append(token in in_title)
    matrix = csr_matrix((np.ones(len(indices)), np.frombuffer(indices, dtype=np.int32),
                         np.frombuffer(pointers, dtype=np.int64)), shape=(len(labels), len(columns)))
    model = LogisticRegression(C=REGULARISATION, solver="lbfgs", max_iter=500)
    model.fit(matrix, np.frombuffer(labels, dtype=np.int8))
    return {
        "bias": round(float(model.intercept_[0]), 4),
        "title_tokens": round(sum(len(tokens_of(r["title"])) for r in records) / len(records), 2),
        "weights": {f: round(float(model.coef_[0][i]), 4) for f, i in sorted(columns.items())},
    }


def _primary_name(record: dict) -> str | None:
    """The name extract() gives the record, which its title will lead with."""
    contributions = find_contributions(clean_abstract(record["abstract"])[0])
    return next((c.name for c in contributions if not c.secondary), None)


def report(label: str, records: list[dict]) -> None:
    scores = title_scores(records, derive_titles(records), examples=0)
    defects = ", ".join(f"{d} {n}" for d, n in scores["defects"].items()) or "no defects"
    print(f"{label}: {scores['papers']} papers, mean token F1 {scores['mean_f1']:.3f}; {defects}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--every", type=int, default=1, help="train and report on every Nth record (faster)")
    parser.add_argument("--out", type=Path, default=MODEL)
    args = parser.parse_args()
    sample = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]
    training, held_out = split(read_corpus(args.corpus), {r["abstract"] for r in sample})
    training, held_out = training[::args.every], held_out[::args.every]
    model = train(training)
    args.out.write_text(json.dumps(model, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{args.out}: {len(model['weights'])} weights from {len(training)} papers")
    load_model.cache_clear()
    if args.out == MODEL:
        report("training venue-years", training[::4])
        report("held-out venue-years", held_out)
        report("test sample", sample)


if __name__ == "__main__":
    main()
