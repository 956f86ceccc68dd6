"""How well `catalogue.ingest.extract.extract` names papers and picks topics, measured on hand-labelled abstracts.

Three labelled sets live in tests/data/:

* labelled_seeds.yaml: the abstracts in seeds/*.txt, found by their source ("seeds/<file>:<line>").
* labelled_written.yaml: abstracts written for this measurement, in the styles real abstracts use.
  The extractor's rules were developed while looking at this set, so it is no longer a fair measure.
* labelled_heldout.yaml: abstracts in the same format, written and labelled afterwards without
  looking at the extractor or running it; the held-out measure of how the rules generalise.

For each set the test computes:

* name precision: correct predicted names / predicted names. A predicted name that differs from the
  label, or any name where the label is null, counts against it.
* name recall: correct predicted names / labelled (non-null) names.
* first-topic agreement: share of abstracts whose first predicted topic is an acceptable one, and
  any-topic agreement: share where at least one predicted topic is acceptable.

Names are compared exactly after removing emphasis markers (`*`, `_`) and surrounding whitespace; the
label or any `also_acceptable` entry counts. On a null label, `also_acceptable` lists names that are
tolerated (a prediction of one is not counted against precision) but not required (recall ignores it).

Run with `pytest tests/test_extraction_quality.py -s` to see the table of figures and the misses.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml

from catalogue.content.taxonomy import read_taxonomy
from catalogue.ingest.extract import extract
from catalogue.ingest.text_lists import read_seed_document
from conftest import PROJECT

DATA = PROJECT / "tests" / "data"
SEED_LABELS = DATA / "labelled_seeds.yaml"
WRITTEN_LABELS = DATA / "labelled_written.yaml"
HELDOUT_LABELS = DATA / "labelled_heldout.yaml"
WRITTEN_SETS = {"written": WRITTEN_LABELS, "heldout": HELDOUT_LABELS}  # sets whose entries carry their own text
SETS = ("seeds", *WRITTEN_SETS)

NAME_PRECISION_TARGET = 0.95
NAME_RECALL_TARGET = 0.90
FIRST_TOPIC_TARGET = 0.70

MIN_WRITTEN = 60
MIN_HELDOUT = 40
MIN_ABSTRACTS = {"written": MIN_WRITTEN, "heldout": MIN_HELDOUT}
SEED_KEYS = {"source", "starts_with", "name", "also_acceptable", "topics", "note"}
WRITTEN_KEYS = {"id", "kind", "text", "name", "also_acceptable", "topics", "note"}

# Error kinds, in the order they are reported.
MISSED = "missed name (labelled, none predicted)"
WRONG = "wrong name (labelled, another predicted)"
SPURIOUS = "spurious name (none labelled, one predicted)"
TOPIC = "first topic not acceptable"
CRASH = "extractor raised"


# --- loading ---------------------------------------------------------------------------------------

def load_yaml_list(path: Path) -> list[dict]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(data, list), f"{path}: expected a list of entries"
    return data


def seed_paragraphs() -> dict[str, str]:
    """Every seed abstract's text by its source, "seeds/<file>.txt:<first line>"."""
    texts = {}
    for path in sorted((PROJECT / "seeds").glob("*.txt")):
        shown = f"seeds/{path.name}"
        for paragraph in read_seed_document(path, shown).paragraphs:
            texts[f"{shown}:{paragraph.line}"] = paragraph.text
    return texts


@dataclass(frozen=True)
class Labelled:
    key: str  # the seed source or the written abstract's id
    text: str
    name: str | None
    also_acceptable: tuple[str, ...]
    topics: frozenset[str]
    kind: tuple[str, ...] = ()


def labelled_set(which: str) -> list[Labelled]:
    if which == "seeds":
        texts = seed_paragraphs()
        return [Labelled(entry["source"], texts[entry["source"]], entry["name"],
                         tuple(entry.get("also_acceptable") or ()), frozenset(entry["topics"]))
                for entry in load_yaml_list(SEED_LABELS)]
    return [Labelled(entry["id"], " ".join(entry["text"].split()), entry["name"],
                     tuple(entry.get("also_acceptable") or ()), frozenset(entry["topics"]),
                     tuple(entry.get("kind") or ()))
            for entry in load_yaml_list(WRITTEN_SETS[which])]


def normalise_name(name: str | None) -> str | None:
    """A name without emphasis markers and surrounding whitespace; None for no name."""
    if name is None:
        return None
    return re.sub(r"[*_]", "", name).strip() or None


# --- scoring -------------------------------------------------------------------------------------

@dataclass
class Miss:
    error: str
    item: Labelled
    expected: str
    predicted: str

    def line(self) -> str:
        words = " ".join(self.item.text.split()[:7])
        kind = f" [{', '.join(self.item.kind)}]" if self.item.kind else ""
        return f"  {self.item.key}{kind} \"{words} ...\": expected {self.expected}, predicted {self.predicted}"


@dataclass
class Score:
    label: str
    abstracts: int = 0
    labelled_names: int = 0
    predicted_names: int = 0
    correct_predicted: int = 0  # predictions that are the label or an also_acceptable entry
    correct_labelled: int = 0  # of those, the ones on a non-null label (recall's numerator)
    first_topic_ok: int = 0
    any_topic_ok: int = 0
    misses: list[Miss] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.correct_predicted / self.predicted_names if self.predicted_names else 1.0

    @property
    def recall(self) -> float:
        return self.correct_labelled / self.labelled_names if self.labelled_names else 1.0

    @property
    def first_topic(self) -> float:
        return self.first_topic_ok / self.abstracts if self.abstracts else 1.0

    @property
    def any_topic(self) -> float:
        return self.any_topic_ok / self.abstracts if self.abstracts else 1.0


def score(label: str, items: list[Labelled]) -> Score:
    taxonomy, fallback = read_taxonomy(PROJECT / "content")
    result = Score(label)
    for item in items:
        result.abstracts += 1
        expected = normalise_name(item.name)
        accepted = {normalise_name(name) for name in (item.name, *item.also_acceptable)} - {None}
        if expected is not None:
            result.labelled_names += 1
        shown_expected = repr(item.name) if item.name else "no name"
        if item.also_acceptable:
            shown_expected += f" (or {', '.join(map(repr, item.also_acceptable))})"
        try:
            extraction = extract(item.text, taxonomy, fallback)
        except Exception as error:  # noqa: BLE001 - a crash is a finding, not a reason to stop measuring
            result.misses.append(Miss(CRASH, item, shown_expected, f"{type(error).__name__}: {error}"))
            continue
        predicted = normalise_name(extraction.name)
        if predicted is not None:
            result.predicted_names += 1
            if predicted in accepted:
                result.correct_predicted += 1
                result.correct_labelled += expected is not None
            else:
                error = SPURIOUS if expected is None else WRONG
                result.misses.append(Miss(error, item, shown_expected, repr(extraction.name)))
        elif expected is not None:
            result.misses.append(Miss(MISSED, item, shown_expected, "no name"))
        topics = tuple(extraction.topics)
        result.first_topic_ok += bool(topics) and topics[0] in item.topics
        result.any_topic_ok += any(topic in item.topics for topic in topics)
        if not topics or topics[0] not in item.topics:
            result.misses.append(Miss(TOPIC, item, f"one of {sorted(item.topics)}", f"{list(topics)}"))
    return result


def table(scores: list[Score]) -> str:
    header = (f"{'set':<9}{'abstracts':>10}{'labelled':>10}{'predicted':>10}{'correct':>9}"
              f"{'precision':>11}{'recall':>8}{'1st topic':>11}{'any topic':>11}")
    rows = [f"{s.label:<9}{s.abstracts:>10}{s.labelled_names:>10}{s.predicted_names:>10}{s.correct_predicted:>9}"
            f"{s.precision:>11.3f}{s.recall:>8.3f}{s.first_topic:>11.3f}{s.any_topic:>11.3f}" for s in scores]
    targets = (f"targets: name precision >= {NAME_PRECISION_TARGET}, name recall >= {NAME_RECALL_TARGET}, "
               f"first-topic agreement >= {FIRST_TOPIC_TARGET}")
    return "\n".join(["Extraction quality (names: labelled / predicted / correct predictions)", header, *rows, targets])


def misses_report(result: Score) -> str:
    grouped: dict[str, list[Miss]] = defaultdict(list)
    for miss in result.misses:
        grouped[miss.error].append(miss)
    lines = [f"Misses on the {result.label} set:"]
    for error in (CRASH, MISSED, WRONG, SPURIOUS, TOPIC):
        if grouped[error]:
            lines.append(f" {error}: {len(grouped[error])}")
            lines.extend(miss.line() for miss in grouped[error])
    if len(lines) == 1:
        lines.append("  none")
    return "\n".join(lines)


# --- tests ---------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def scores() -> dict[str, Score]:
    results = {which: score(which, labelled_set(which)) for which in SETS}
    print("\n" + table(list(results.values())))
    return results


@pytest.mark.parametrize("which", SETS)
def test_extraction_quality(scores, which):
    result = scores[which]
    report = table([result]) + "\n" + misses_report(result)
    print("\n" + report)
    failures = []
    if result.precision < NAME_PRECISION_TARGET:
        failures.append(f"name precision {result.precision:.3f} < {NAME_PRECISION_TARGET}")
    if result.recall < NAME_RECALL_TARGET:
        failures.append(f"name recall {result.recall:.3f} < {NAME_RECALL_TARGET}")
    if result.first_topic < FIRST_TOPIC_TARGET:
        failures.append(f"first-topic agreement {result.first_topic:.3f} < {FIRST_TOPIC_TARGET}")
    if any(miss.error == CRASH for miss in result.misses):
        failures.append("the extractor raised on some abstracts")
    assert not failures, f"{which}: " + "; ".join(failures) + "\n" + report


def check_label_fields(where: str, entry: dict, allowed: set[str], slugs: set[str]) -> list[str]:
    problems = [f"{where}: unknown keys {sorted(set(entry) - allowed)}"] if set(entry) - allowed else []
    name = entry.get("name", "missing")
    if name is not None and not (isinstance(name, str) and name.strip()):
        problems.append(f"{where}: name must be a non-empty string or null, not {name!r}")
    also = entry.get("also_acceptable") or []
    if not (isinstance(also, list) and all(isinstance(a, str) and a.strip() for a in also)):
        problems.append(f"{where}: also_acceptable must be a list of names")
    topics = entry.get("topics")
    if not (isinstance(topics, list) and 1 <= len(topics) <= 5 and len(set(topics)) == len(topics)):
        problems.append(f"{where}: topics must be a list of 1 to 5 distinct slugs, not {topics!r}")
    else:
        problems += [f"{where}: topic {t!r} is not in content/topics.yaml" for t in topics if t not in slugs]
    return problems


def test_labelled_files_are_well_formed():
    taxonomy, _ = read_taxonomy(PROJECT / "content")
    slugs = {topic.slug for topic in taxonomy}
    problems: list[str] = []

    texts = seed_paragraphs()
    seeds = load_yaml_list(SEED_LABELS)
    sources = [entry.get("source") for entry in seeds]
    problems += [f"seeds: {s} is labelled {sources.count(s)} times" for s in sorted(set(sources), key=str)
                 if sources.count(s) > 1]
    problems += [f"seeds: {s} is not labelled" for s in sorted(set(texts) - set(sources))]
    problems += [f"seeds: {s} is not a seed abstract" for s in sorted(set(sources) - set(texts), key=str)]
    for entry in seeds:
        where = f"seeds {entry.get('source')}"
        problems += check_label_fields(where, entry, SEED_KEYS, slugs)
        text = texts.get(entry.get("source"))
        if text is not None and not text.startswith(str(entry.get("starts_with", "")).rstrip()):
            problems.append(f"{where}: starts_with does not match the abstract ({text[:60]!r})")

    all_ids: dict[str, str] = {}
    for which, path in WRITTEN_SETS.items():
        written = load_yaml_list(path)
        if len(written) < MIN_ABSTRACTS[which]:
            problems.append(f"{which}: {len(written)} abstracts, fewer than {MIN_ABSTRACTS[which]}")
        ids = [entry.get("id") for entry in written]
        problems += [f"{which}: id {i!r} is used {ids.count(i)} times" for i in set(ids) if ids.count(i) > 1]
        for i in set(ids):
            if i in all_ids:
                problems.append(f"{which}: id {i!r} is also used in the {all_ids[i]} set")
            all_ids.setdefault(i, which)
        for entry in written:
            where = f"{which} {entry.get('id')}"
            problems += check_label_fields(where, entry, WRITTEN_KEYS, slugs)
            text = entry.get("text")
            if not (isinstance(text, str) and text.strip()):
                problems.append(f"{where}: no text")
                continue
            name = entry.get("name")
            if isinstance(name, str) and normalise_name(name) not in re.sub(r"[*_]", "", text):
                problems.append(f"{where}: the name {name!r} does not occur in the text")

    assert not problems, "\n".join(problems)
