"""The figures of issue 18, each defined once, on real papers and what the catalogue derived for them.

A *pair* is (record, derived): a corpus record (a dict with the real `title`, `abstract`,
`keywords`, `venue`, `year`) and what the reader gets for it, any object with the attributes
`name`, `title`, `topics` and `benchmarks` (a catalogue.model.Paper read from content/, or a
catalogue.ingest.extract.Extraction computed in-process). The site checks read a built site/.

    name_scores(pairs, common)        item 3: precision, recall, names given where the title has no ':'
    title_scores(pairs)               item 4: mean token F1, each defect with examples
    topic_scores(pairs, taxonomy)     item 5: coverage of the topics the author keywords name
    benchmark_scores(pairs, labels)   item 6: precision on hand-labelled records
    result_scores(pairs, labels)      item 6: headline results on hand-labelled held-out records
    tag_leaks(site)                   item 1: allowlisted tags shown as text anywhere on the site
    math_scores(site, slugs)          item 2: math segments of the abstracts shown unconverted
    extraction_cpu_ms(abstracts, ...) item 7: CPU time of clean-up + extraction + markup per abstract

extracted_pairs(records, taxonomy, fallback) gives the pairs in-process, without a site;
papers_read_alone(records, taxonomy, fallback) the papers before what a venue-year's papers tell together.
"""

from __future__ import annotations

import functools
import html
import json
import re
import statistics
import time
import xml.etree.ElementTree as ElementTree
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import yaml
from slugify import slugify

from catalogue.text import replace_unsafe
from catalogue.markup.cleanup import clean_abstract
from catalogue.ingest.titles import HTML_TAG, title_words
from catalogue.ingest.extract import extract
from catalogue.ingest.topics import keyword_key
from catalogue.markup.convert import TextConverter
from catalogue.ingest.derive import across_venue_years
from catalogue.model import Paper, Source, Topic
from catalogue.routes import bucket

Pair = tuple[dict, object]
EXAMPLES = 5  # worst examples kept per figure


@dataclass(frozen=True)
class Example:
    """One record that counts against a figure: where it is and what it shows."""

    where: str  # the real title, or a file of the site
    shows: str


def extracted_pairs(records: Iterable[dict], taxonomy: tuple[Topic, ...], fallback: str) -> list[Pair]:
    """(record, Paper) as ingest derives it (control characters replaced as seed files have them,
    clean-up, the extractor, then what the papers of a venue-year tell together), without building
    a site: for measuring one item quickly."""
    records = list(records)
    return list(zip(records, across_venue_years(papers_read_alone(records, taxonomy, fallback), taxonomy, fallback)))


def papers_read_alone(records: list[dict], taxonomy: tuple[Topic, ...], fallback: str) -> list[Paper]:
    """Each record as the extractor derives it from its abstract alone (ids are the records' places)."""
    papers = []
    for number, record in enumerate(records):
        cleaned = clean_abstract(replace_unsafe(record["abstract"]))[0]
        found = extract(cleaned, taxonomy, fallback)
        papers.append(Paper(id=str(number), slug="", title=found.title, abstract=cleaned, source=Source("corpus"),
                            name=found.name, other_names=found.other_names, venue=record["venue"],
                            year=record["year"], topics=found.topics, links=found.links,
                            benchmarks=found.benchmarks, results=found.results))
    return papers


# ---------------------------------------------------------------------------------------------
# Tokens (shared by titles and names)

def tokens(text: str) -> list[str]:
    """Lower-case words without HTML tags, `$` or LaTeX backslashes, as ingest compares titles."""
    return title_words(text)


def token_f1(derived: str, real: str) -> float:
    """2PR/(P+R) over the two titles' token multisets; 0 when either is empty."""
    ours, theirs = Counter(tokens(derived)), Counter(tokens(real))
    shared = sum((ours & theirs).values())
    if not shared:
        return 0.0
    precision, recall = shared / sum(ours.values()), shared / sum(theirs.values())
    return 2 * precision * recall / (precision + recall)


# ---------------------------------------------------------------------------------------------
# Item 3: names against silver names from the real titles

COMMON_SHARE = 0.01  # a word written in lower case in this share of the abstracts is a common word


def common_words(abstracts: Iterable[str]) -> frozenset[str]:
    """Words that appear in lower case in at least COMMON_SHARE of the abstracts."""
    counts: Counter[str] = Counter()
    total = 0
    for abstract in abstracts:
        total += 1
        counts.update({word for word in re.findall(r"\w+", abstract) if word.islower()})
    return frozenset(word for word, count in counts.items() if count >= COMMON_SHARE * total)


def silver_name(record: dict, common: frozenset[str]) -> str | None:
    """The real title's prefix before its first ':' when it names what the abstract introduces:
    at most three words, a capital or a digit, not a common word, written in the abstract."""
    prefix, colon, _ = record["title"].partition(":")
    prefix = prefix.strip()
    if not colon or not 1 <= len(prefix.split()) <= 3 or not re.search(r"[A-Z0-9]", prefix):
        return None
    if prefix.lower() in common or prefix not in record["abstract"]:
        return None
    return prefix


def name_is_right(predicted: str, silver: str, abstract: str) -> bool:
    """Equal, or the abstract writes one as the other's expansion: `Deep Reactive Policy (DRP)`."""
    if predicted == silver:
        return True
    text = " ".join(HTML_TAG.sub("", abstract).replace("*", "").split())
    quote = "[\"“”'‘’]?"
    return any(re.search(rf"{re.escape(long)}{quote}\s*\(\s*{quote}{re.escape(short)}{quote}\s*[),;]", text)
               for long, short in ((silver, predicted), (predicted, silver)))


@dataclass(frozen=True)
class NameScores:
    silver: int  # records with a silver name
    predicted: int  # names given on those records
    right: int
    unprefixed_named: int  # names given on records whose title has no ':' at all
    unprefixed: int  # records whose title has no ':'
    wrong: tuple[Example, ...]  # a name given that is not the silver one
    missed: tuple[Example, ...]  # no name given where there is a silver one

    @property
    def precision(self) -> float:
        return self.right / self.predicted if self.predicted else 0.0

    @property
    def recall(self) -> float:
        return self.right / self.silver if self.silver else 0.0


def name_scores(pairs: list[Pair], common: frozenset[str]) -> NameScores:
    silver = predicted = right = unprefixed_named = unprefixed = 0
    wrong, missed = [], []
    for record, derived in pairs:
        if ":" not in record["title"]:
            unprefixed += 1
            unprefixed_named += derived.name is not None
        expected = silver_name(record, common)
        if expected is None:
            continue
        silver += 1
        if derived.name is None:
            missed.append(Example(record["title"], f"no name; silver {expected!r}"))
            continue
        predicted += 1
        if name_is_right(derived.name, expected, record["abstract"]):
            right += 1
        else:
            wrong.append(Example(record["title"], f"name {derived.name!r}; silver {expected!r}"))
    return NameScores(silver, predicted, right, unprefixed_named, unprefixed, tuple(wrong), tuple(missed))


# ---------------------------------------------------------------------------------------------
# Item 4: titles

MAX_TITLE = 110  # characters a reader sees
# Words a title cannot end on: articles, prepositions, conjunctions, and pointing words.
_BAD_LAST_WORDS = frozenset("""
    a an the this that these those
    of in on at to for with by from via into onto upon about among amongst between through across against
    toward towards within without under over than as like per versus vs during despite throughout beyond
    after before around along behind below above
    and or but nor yet so because while whereas although though if whether unless
""".split())
# Acronyms are read letter by letter: these letters' names start with a vowel sound (an LSTM, an RL agent).
_VOWEL_LETTERS = "AEFHILMNORSX"
# Spellings that start with a vowel letter but a consonant sound (a unified, a user, a one-shot, a European).
_CONSONANT_SOUND = re.compile(r"u(?:ni|s[eu]|ti|biq|ra|re|ro|k)|eu|ewe|one\b|once\b", re.IGNORECASE)
_SILENT_H = ("hour", "honest", "honor", "honour", "heir")
_MATH = re.compile(r"\$[^$]*\$")
DEFECTS = ("name alone repeated", "ends on a small word or hyphen", "'a' before a vowel sound",
           "math changed", "same title in one venue-year", f"longer than {MAX_TITLE} characters",
           "a bracket left open or closed alone")


@functools.lru_cache(maxsize=1)
def _markup() -> TextConverter:
    return TextConverter()


def starts_with_vowel_sound(word: str) -> bool:
    if re.fullmatch(r"[A-Z]{2,}\w*", word.split("-")[0]):  # an acronym: said letter by letter
        return word[0] in _VOWEL_LETTERS
    lowered = word.lower()
    return lowered.startswith(_SILENT_H) or (lowered[0] in "aeiou" and not _CONSONANT_SOUND.match(lowered))


def title_defects(title: str, abstract: str) -> list[str]:
    """The defects of one derived title (those that need no other paper)."""
    found = []
    prefix, colon, rest = title.partition(":")
    if colon and tokens(prefix) and tokens(prefix) == tokens(rest):
        found.append(DEFECTS[0])
    stripped = title.rstrip(" .,;:")
    last = re.sub(r"^\W+|\W+$", "", stripped.split()[-1]) if stripped.split() else ""
    if stripped.endswith(("-", "\u2010", "\u2013")) or (last.lower() in _BAD_LAST_WORDS and not stripped.endswith("$")):
        found.append(DEFECTS[1])
    prose = _MATH.sub(" ", title)
    # "a" as an article: lower case, or "A" where a title or its part after the name starts
    articles = [m for m in re.finditer(r"(?<![\w$\\'-])([Aa])\s+([A-Za-z][\w'-]*)", prose)
                if m[1] == "a" or not prose[:m.start()].strip() or prose[:m.start()].endswith(": ")]
    if any(starts_with_vowel_sound(match[2]) for match in articles):
        found.append(DEFECTS[2])
    written = " ".join(abstract.split())
    if title.count("$") % 2 or any(" ".join(math.split()) not in written for math in _MATH.findall(title)):
        found.append(DEFECTS[3])
    if len(_markup().plain(title)) > MAX_TITLE:
        found.append(DEFECTS[5])
    if unbalanced(prose):
        found.append(DEFECTS[6])
    return found


def unbalanced(text: str) -> bool:
    """Whether a bracket of the text is left open ("at Most O(log") or closes none ("N)-Space"), read in
    order: as many of each kind can still be wrong ("N)-Space ... O(log")."""
    for opening, closing in ("()", "[]"):
        depth = 0
        for character in text:
            depth += (character == opening) - (character == closing)
            if depth < 0:
                return True
        if depth:
            return True
    return False


@dataclass(frozen=True)
class TitleScores:
    titles: int
    mean_f1: float
    defects: dict[str, tuple[Example, ...]]  # every defect of DEFECTS, with all the titles that have it
    worst: tuple[Example, ...]  # lowest F1 first


def title_scores(pairs: list[Pair]) -> TitleScores:
    defects: dict[str, list[Example]] = {defect: [] for defect in DEFECTS}
    scored = []
    by_venue_year: dict[tuple, list[tuple[dict, object]]] = defaultdict(list)
    for record, derived in pairs:
        f1 = token_f1(derived.title, record["title"])
        scored.append((f1, record["title"], derived.title))
        for defect in title_defects(derived.title, record["abstract"]):
            defects[defect].append(Example(record["title"], derived.title))
        by_venue_year[record["venue"], record["year"], " ".join(tokens(derived.title))].append((record, derived))
    for (_, _, _), group in sorted(by_venue_year.items()):
        if len(group) > 1:
            defects[DEFECTS[4]] += [Example(record["title"], f"{derived.title} ({len(group)} papers of "
                                                             f"{record['venue']} {record['year']})")
                                    for record, derived in group]
    scored.sort(key=lambda item: (item[0], item[1]))
    worst = tuple(Example(real, f"{ours} (F1 {f1:.2f})") for f1, real, ours in scored[:EXAMPLES])
    mean = statistics.fmean(f1 for f1, _, _ in scored) if scored else 0.0
    return TitleScores(len(scored), mean, {name: tuple(found) for name, found in defects.items()}, worst)


# ---------------------------------------------------------------------------------------------
# Item 5: topics the author keywords name


def named_topics(record: dict, taxonomy: tuple[Topic, ...]) -> tuple[str, ...]:
    """Slugs of the topics whose label or one of whose keywords is an author keyword (plural allowed;
    any case, and a hyphen, a space or nothing between words, as the extractor reads keywords)."""
    named = []
    for keyword in record.get("keywords") or ():
        written = keyword_key(keyword)
        forms = {written, written.removesuffix("s"), written.removesuffix("es")}
        for topic in taxonomy:
            if topic.slug not in named and forms & {keyword_key(k) for k in (topic.label, *topic.keywords)}:
                named.append(topic.slug)
    return tuple(named)


@dataclass(frozen=True)
class TopicScores:
    papers: int  # papers whose author keywords name a topic
    named: int  # (paper, named topic) pairs
    covered: int  # of those, the topic is among the paper's topics
    missed: tuple[Example, ...]

    @property
    def coverage(self) -> float:
        return self.covered / self.named if self.named else 0.0


def topic_scores(pairs: list[Pair], taxonomy: tuple[Topic, ...]) -> TopicScores:
    papers = named = covered = 0
    missed = []
    for record, derived in pairs:
        expected = named_topics(record, taxonomy)
        papers += bool(expected)
        for slug in expected:
            named += 1
            if slug in derived.topics:
                covered += 1
            else:
                missed.append(Example(record["title"], f"keywords name {slug}; topics {', '.join(derived.topics)}"))
    return TopicScores(papers, named, covered, tuple(missed))


# ---------------------------------------------------------------------------------------------
# Item 6: benchmarks against hand labels


_KIND_WORDS = {"dataset", "datasets", "benchmark", "benchmarks", "corpus", "data", "set"}


def dataset_key(name: str) -> str:
    """A name as it is compared with the labels: its words in lower case, without a leading "the"
    or a trailing "dataset", "benchmark" and the like."""
    words = re.findall(r"\w+", name.lower())
    if words[:1] == ["the"]:
        words = words[1:]
    while len(words) > 1 and words[-1] in _KIND_WORDS:
        words.pop()
    return " ".join(words)


def read_benchmark_labels(path: Path) -> dict[str, tuple[frozenset[str], ...]]:
    """{real title: one set of accepted spellings per dataset or benchmark its abstract names}, from
    tests/data/labelled_benchmarks.yaml (a list of `{title, benchmarks: [name or [spellings]]}`);
    {} when the file is missing."""
    if not path.is_file():
        return {}
    return {entry["title"]: tuple(frozenset(map(dataset_key, [spellings] if isinstance(spellings, str) else spellings))
                                  for spellings in entry.get("benchmarks") or ())
            for entry in yaml.safe_load(path.read_text(encoding="utf-8")) or ()}


@dataclass(frozen=True)
class BenchmarkScores:
    labelled: int  # labelled records present
    listed: int  # benchmarks listed on them
    right: int
    wrong: tuple[Example, ...]

    @property
    def precision(self) -> float:
        return self.right / self.listed if self.listed else 0.0


def benchmark_scores(pairs: list[Pair], labels: dict[str, tuple[frozenset[str], ...]]) -> BenchmarkScores:
    """Precision of the benchmarks listed on the labelled records: listed names that are one of
    the record's labelled datasets or benchmarks."""
    labelled = listed = right = 0
    wrong = []
    for record, derived in pairs:
        if record["title"] not in labels:
            continue
        labelled += 1
        for benchmark in derived.benchmarks:
            listed += 1
            if any(dataset_key(benchmark) in spellings for spellings in labels[record["title"]]):
                right += 1
            else:
                wrong.append(Example(record["title"], f"{benchmark!r} is not a labelled dataset or benchmark"))
    return BenchmarkScores(labelled, listed, right, tuple(wrong))


RESULT_KINDS = ("right", "garbled", "vague", "wrong")


def paper_key(record: dict) -> str:
    """How the result labels name a record: venue, year and real title."""
    return f"{record['venue']} {record['year']}: {record['title']}"


def read_result_labels(path: Path) -> dict[str, dict[str, str]]:
    """{paper key: {result as shown: label}} from bench/data/results_labels.jsonl (one JSON object a line:
    `paper`, `result`, `label` among RESULT_KINDS, with the draw's `seed` and the `rules` it was shown by);
    {} when the file is missing."""
    labels: dict[str, dict[str, str]] = defaultdict(dict)
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                entry = json.loads(line)
                labels[entry["paper"]][entry["result"]] = entry["label"]
    return dict(labels)


@dataclass(frozen=True)
class ResultScores:
    labelled: int  # labelled records present
    counts: dict[str, int]  # results shown on them, by label; "unlabelled" for a result no label names
    unlabelled: tuple[Example, ...]

    @property
    def shown(self) -> int:
        return sum(self.counts.values())

    def share(self, kind: str) -> float:
        return self.counts.get(kind, 0) / self.shown if self.shown else 0.0


def result_scores(pairs: list[Pair], labels: dict[str, dict[str, str]]) -> ResultScores:
    """The labels of the headline results shown on the labelled records."""
    labelled = 0
    counts: Counter = Counter()
    unlabelled = []
    for record, derived in pairs:
        known = labels.get(paper_key(record))
        if known is None:
            continue
        labelled += 1
        for result in derived.results:
            counts[known.get(result, "unlabelled")] += 1
            if result not in known:
                unlabelled.append(Example(paper_key(record), f"{result!r} has no label"))
    return ResultScores(labelled, dict(counts), tuple(unlabelled))


# ---------------------------------------------------------------------------------------------
# Item 1: allowlisted tags shown as text anywhere on the site

ALLOWED_TAGS = ("b", "strong", "i", "em", "u", "sub", "sup", "br", "code", "tt", "small")
# A tag: its name, then nothing or attributes (`name=`); `a` needs an attribute or nothing. A
# comparison such as `a < b and c > d` is no tag.
_ATTRIBUTES = r"(?:\s+[A-Za-z_:][\w:.-]*\s*=[^<>]*)"
LITERAL_TAG = re.compile(rf"<\s*/?\s*(?:{'|'.join(ALLOWED_TAGS)}|a){_ATTRIBUTES}?\s*/?\s*>", re.IGNORECASE)
_JSON_SCRIPT = ("application/json", "application/ld+json")
_JS_VALUE = re.compile(r"\s*window\.\w+\s*=\s*(.*?);?\s*", re.DOTALL)


@dataclass(frozen=True)
class Leak:
    file: str  # relative to the site
    text: str  # the literal tag with some context


class _VisibleText(HTMLParser):
    """Collects what a reader or a machine reads as text from a page: text, attribute values,
    the strings of JSON scripts, and whatever stands inside <title> (where no tag is a tag)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self._script: str | None = None  # the type of the script being read

    def handle_starttag(self, tag, attrs):
        self.texts += [value for _, value in attrs if value]
        if tag == "script":
            self._script = dict(attrs).get("type") or "text/javascript"

    def handle_endtag(self, tag):
        if tag == "script":
            self._script = None

    def handle_data(self, data):
        if self._script is None:
            self.texts.append(data)
        elif self._script in _JSON_SCRIPT:
            self.texts += json_strings(json.loads(data))


def json_strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for key, item in value.items() for text in [key, *json_strings(item)]]
    if isinstance(value, list):
        return [text for item in value for text in json_strings(item)]
    return []


def _without_source_abstracts(data):
    """papers.json without each paper's `abstract`: the abstract as written in content/ (its source
    markup, as its `$...$`); `abstract_text` and every other field are read."""
    if isinstance(data, dict) and isinstance(data.get("papers"), list):
        return data | {"papers": [{key: value for key, value in paper.items() if key != "abstract"}
                                  for paper in data["papers"] if isinstance(paper, dict)]}
    return data


def _leaks_in(texts: Iterable[str], file: str) -> list[Leak]:
    return [Leak(file, " ".join(text[max(0, m.start() - 30):m.end() + 30].split()))
            for text in texts for m in LITERAL_TAG.finditer(text)]


def page_texts(raw: str) -> list[str]:
    parser = _VisibleText()
    parser.feed(raw)
    parser.close()
    titles = re.findall(r"<title>(.*?)</title>", raw, re.DOTALL)  # RCDATA: a tag in it is shown as text
    return parser.texts + [html.unescape(title) for title in titles]


def feed_texts(raw: str) -> list[str]:
    texts = []
    for element in ElementTree.fromstring(raw).iter():
        texts += [value for value in element.attrib.values()]
        if element.text and element.get("type") in ("html", "xhtml"):
            texts += page_texts(element.text)
        elif element.text:
            texts.append(element.text)
    return texts


def tag_leaks(site: Path) -> list[Leak]:
    """Every allowlisted tag shown as text: in pages (text, attributes, <title>, JSON-LD), feeds,
    BibTeX, papers.json and the offline index, and slugs made from a tag's letters."""
    leaks = []
    for path in sorted(site.rglob("*")):
        relative = path.relative_to(site)
        if not path.is_file() or relative.parts[0] in ("assets", "pagefind"):
            continue
        raw = path.read_text(encoding="utf-8", errors="replace")
        if path.suffix == ".html":
            texts = page_texts(raw)
        elif path.suffix == ".xml":
            texts = feed_texts(raw)
        elif path.suffix == ".json":
            texts = json_strings(_without_source_abstracts(json.loads(raw)))
        elif path.suffix == ".js" and (value := _JS_VALUE.fullmatch(raw)):
            texts = json_strings(json.loads(value[1]))
        else:  # .bib and any other text the site serves
            texts = [raw]
        leaks += _leaks_in(texts, relative.as_posix())
    return leaks


def slug_leaks(papers: Iterable[object]) -> list[Leak]:
    """Slugs holding a part that the paper's name (or title) as plain text without tags does not
    give: `b-mats-b` for <b>MATS</b>."""
    leaks = []
    for paper in papers:
        written = paper.name or paper.title
        expected = set(slugify(HTML_TAG.sub("", _markup().plain(written))).split("-"))
        strays = [part for part in paper.slug.split("-") if part in ALLOWED_TAGS + ("a",) and part not in expected]
        if strays:
            leaks.append(Leak(f"papers/{bucket(paper.slug)}/{paper.slug}/", f"slug part(s) {', '.join(strays)} of {written!r}"))
    return leaks


# ---------------------------------------------------------------------------------------------
# Item 2: math shown unconverted

_ABSTRACT_SECTION = re.compile(r'<section class="abstract"[^>]*>(.*?)</section>', re.DOTALL)
# Math left as written in the text a reader sees: $...$, \(...\), \[...\] whose inside is no
# sentence (words between two prices are prose) and does not start as an amount ($5).
_WRITTEN_MATH = re.compile(r"\$\$[^$]+\$\$|\$(?!\d)[^$]{1,300}\$|\\\((?:[^\\]|\\(?!\))){1,300}\\\)"
                           r"|\\\[(?:[^\\]|\\(?!\])){1,300}\\\]")
_PROSE = re.compile(r"[a-z]{3,} [a-z]{3,} [a-z]{3,}")


class _AbstractMath(HTMLParser):
    """Counts <math> elements and <code class="tex"> (math shown as written), and keeps the text
    outside both."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.converted = self.as_code = 0
        self.code: list[str] = []
        self.prose: list[str] = []
        self._inside: list[str] = []

    def handle_starttag(self, tag, attrs):
        if self._inside:
            self._inside.append(tag)
        elif tag == "math":
            self.converted += 1
            self._inside.append(tag)
        elif tag == "code" and "tex" in (dict(attrs).get("class") or "").split():
            self.as_code += 1
            self._inside.append(tag)

    def handle_endtag(self, tag):
        if self._inside and self._inside[-1] == tag:
            self._inside.pop()

    def handle_data(self, data):
        if not self._inside:
            self.prose.append(data)
        elif self._inside[0] == "code":
            self.code.append(data)


@dataclass(frozen=True)
class MathScores:
    segments: int
    unconverted: int
    examples: tuple[Example, ...]

    @property
    def share(self) -> float:
        return self.unconverted / self.segments if self.segments else 0.0


def abstract_math(page: str) -> tuple[int, list[str]]:
    """(math converted, math shown as written) in the abstract section of a paper page."""
    section = _ABSTRACT_SECTION.search(page)
    parser = _AbstractMath()
    parser.feed(section[1] if section else "")
    parser.close()
    written = [m[0] for m in _WRITTEN_MATH.finditer(" ".join(parser.prose)) if not _PROSE.search(m[0])]
    return parser.converted, parser.code + written


def math_scores(site: Path, slugs: Iterable[str]) -> MathScores:
    segments = unconverted = 0
    examples = []
    for slug in slugs:
        converted, written = abstract_math((site / "papers" / bucket(slug) / slug / "index.html").read_text(encoding="utf-8"))
        segments += converted + len(written)
        unconverted += len(written)
        examples += [Example(f"papers/{bucket(slug)}/{slug}/", math) for math in written]
    return MathScores(segments, unconverted, tuple(examples))


# ---------------------------------------------------------------------------------------------
# Item 7: CPU time per abstract


def extraction_cpu_ms(abstracts: Iterable[str], taxonomy: tuple[Topic, ...], fallback: str) -> list[float]:
    """CPU milliseconds of what ingest does with each abstract: clean-up, conversion to HTML, extraction."""
    markup = _markup()
    times = []
    for abstract in abstracts:
        started = time.process_time()
        cleaned, _ = clean_abstract(abstract)
        markup.abstract_html(cleaned)
        extract(cleaned, taxonomy, fallback)
        times.append((time.process_time() - started) * 1000)
    return times
