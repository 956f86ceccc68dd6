"""What the lists do not carry, derived from the abstract alone: name, title, topics, links.

The rules read the sentence in which the authors introduce their contribution ("we propose
X, a ...", "we introduce Long Name (LN)", "... named X"). They prefer no name to a wrong
one: an acronym for an existing field ("Deep Reinforcement Learning (DRL) has emerged")
is not introduced by the authors and is ignored.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace

from . import benchmarks
from .markup import text_only_math, without_inline_html
from .model import Link, Topic
from .names import Contribution, find_names, is_name_like
from .topics import rank_topics
from .urls import find_urls

MAX_TITLE = 110

_CLAIM_VERBS = ("propose|introduce|present|develop|devise|design|build|construct|create",
                "study|investigate|analy[sz]e|examine|explore|formali[sz]e|characteri[sz]e|"
                "consider|initiate|address|tackle|revisit|identify|uncover|establish|provide|derive|give",
                "show|demonstrate|prove|find|argue|reveal|observe")
_NOT_A_SUBJECT = re.compile(r"^(?:which|how|whether|what|why|when|where|it|its|this|these|those|them|"
                            r"their|such|two|three|several)\b", re.IGNORECASE)
_CLAUSE_END = re.compile(r"[,;:.](?:\s|$)|[，；：。]|\s[-\u2013\u2014]\s|\s\(|---|\u2014"
                         r"|\s(?:and|but)\s(?:we\s)?(?:propose|introduce|present|develop|show|prove|demonstrate)")
_CUT_BEFORE = ("that", "which", "where", "whose", "while", "by", "with", "for", "in", "on", "via", "from",
               "through", "using", "across", "under", "to", "and", "based")
_SMALL_WORDS = {"a", "an", "the", "and", "or", "but", "nor", "for", "of", "in", "on", "at", "to", "by",
                "via", "with", "from", "as", "into", "over", "per", "vs", "than", "through", "across",
                "under", "within", "without", "between", "among", "beyond", "toward", "towards", "upon"}
_SENTENCE_END = re.compile(r"(?<![A-Z]\.)(?<!e\.g\.)(?<!i\.e\.)(?<!al\.)(?<!vs\.)(?<!cf\.)(?<=[.!?])\s+(?=[\"“*$\\(A-Z0-9])"
                           r"|(?<=[。！？])\s*")  # Chinese and Japanese full stops need no space


@dataclass(frozen=True)
class Extraction:
    name: str | None
    other_names: tuple[str, ...]
    title: str
    topics: tuple[str, ...]
    links: tuple[Link, ...]
    benchmarks: tuple[str, ...]
    results: tuple[str, ...]


def extract(abstract: str, taxonomy: tuple[Topic, ...], fallback_topic: str) -> Extraction:
    """Everything derived from one abstract."""
    contributions = find_contributions(abstract)
    primary = next((c for c in contributions if not c.secondary), None)
    title = derive_title(abstract, primary)
    return Extraction(
        name=primary.name if primary else None,
        other_names=tuple(c.name for c in contributions if c is not primary),
        title=title,
        topics=rank_topics(title, abstract, taxonomy, fallback_topic),
        links=find_links(abstract),
        benchmarks=find_benchmarks(abstract, tuple(c.name for c in contributions)),
        results=find_results(abstract),
    )


@functools.lru_cache(maxsize=16)  # each rule below reads the same abstract's sentences
def _sentences(text: str) -> tuple[str, ...]:
    return tuple(s.strip() for s in _SENTENCE_END.split(text) if s.strip())


def split_sentences(text: str) -> list[str]:
    return list(_sentences(text))


@functools.lru_cache(maxsize=16)
def plain_for_extraction(abstract: str) -> str:
    """The abstract with inline HTML tags and emphasis markers gone, entities decoded and
    $\\textbf{...}$ turned back into text."""
    text = re.sub(r"\$(\\text\w*\{[^$]*\})\$", lambda m: text_only_math(m[1]) or m[0], without_inline_html(abstract))
    text = re.sub(r"\\(?:emph|textit|textbf)\{([^{}]*)\}", r"\1", text)
    # Markdown's emphasis markers go; a formula's subscripts ($x_{t+1}$) stay as written.
    return re.sub(r"(\$[^$]*+\$)|\*+|(?<!\w)_+|(?<!_)_++(?!\w)", lambda found: found[1] or "", text)


def find_contributions(abstract: str) -> list[Contribution]:
    """Named contributions in the order the abstract introduces them (first = primary)."""
    named = find_names(split_sentences(plain_for_extraction(abstract)))
    return [replace(c, description=_clean_description(c.description)) for c in named]


def _clause(text: str) -> str:
    """Text up to the end of its clause."""
    end = _CLAUSE_END.search(text)
    return text[:end.start()] if end else text.rstrip(".")


def _clean_description(description: str | None) -> str | None:
    if not description:
        return None
    description = re.sub(r"^\s*(?:(a|an|the)\s+)?(?:novel|new)\s+", lambda m: (m[1] or "") + " ", description)
    description = " ".join(description.split())
    return _clause(description) or None


def derive_title(abstract: str, primary: Contribution | None) -> str:
    """'Name: Description' for a named contribution; else the main claim, in title case."""
    if primary and primary.description:
        return fit_title(f"{primary.name}: ", primary.description)
    plain = plain_for_extraction(abstract)
    claim = main_claim(plain)
    if primary:
        return fit_title(f"{primary.name}: ", claim) if claim else primary.name
    sentences = split_sentences(plain)
    opening = _clause(sentences[0].lstrip(" .,;:*_-\u2013\u2014")) if sentences else ""
    title = fit_title("", claim or opening).strip()
    return title or fit_title("", " ".join(abstract.split()[:12])) or "Untitled abstract"


def main_claim(text: str) -> str | None:
    """The object of the strongest 'we <verb>' sentence: 'We devise an algorithm that ...'."""
    sentences = split_sentences(text)
    for verbs in _CLAIM_VERBS:
        pattern = re.compile(rf"\bwe\s+(?:\w+ly\s+|also\s+|further\s+|then\s+|first\s+)?(?:{verbs})(?:s|d)?\s+(?:that\s+)?(.+)",
                             re.IGNORECASE)
        for sentence in sentences:
            match = pattern.search(sentence)
            if match and not _NOT_A_SUBJECT.match(match[1]):
                return _clean_description(match[1].rstrip("."))
    return None


def fit_title(prefix: str, phrase: str) -> str:
    """Title-cased prefix + phrase, cut before a clause word so that it reads whole and fits."""
    words = phrase.split()
    length, fits = _visible_length(prefix), 0
    for word in words:  # the longest run of words that fits
        length += _visible_length(word) + (1 if fits else 0)
        if length > MAX_TITLE:
            break
        fits += 1
    cut = fits
    if fits < len(words):
        cut = max((i for i in range(1, fits + 1) if words[i].lower() in _CUT_BEFORE), default=fits)
        while cut > 2 and re.fullmatch(r"[a-z]+(?:ed|ing)|is|are|was|were|that|this|these|the|an?|of|and|or",
                                        words[cut - 1]):
            cut -= 1  # "... Benchmark Designed" or "... This Tradeoff Is" reads cut off
    title = prefix + title_case(" ".join(words[:cut] or words[:1]).rstrip(",;:"))
    return title if _visible_length(title) <= MAX_TITLE else _cut_characters(title)


def _cut_characters(title: str) -> str:
    """A title with no word boundary to cut at (a Chinese sentence): cut it, never inside math."""
    cut = title[:MAX_TITLE - 1]
    if cut.count("$") % 2:
        cut = cut[:cut.rindex("$")]
    return cut.rstrip() + "\u2026"


def _visible_length(text: str) -> int:
    return len(re.sub(r"\$|\\[A-Za-z]+|[{}^_]", "", text))


def title_case(text: str) -> str:
    """Capitalise words, hyphen parts included; keep small words, acronyms and math as written."""
    out = []
    for index, word in enumerate(text.split()):
        if "$" in word or "\\" in word:
            out.append(word)
            continue
        parts = word.split("-")
        small_allowed = index > 0
        cased = [_case_word(part, small_allowed and n > 0 or (index > 0 and len(parts) == 1))
                 for n, part in enumerate(parts)]
        out.append("-".join(cased))
    return " ".join(out)


def _case_word(word: str, small_allowed: bool) -> str:
    """Small words stay lower case, except as the first word or the first part of a compound."""
    if not word or any(c.isupper() for c in word[1:]) or any(c.isdigit() for c in word):
        return word  # an acronym, a coined name or a number: as written
    if word.lower() in _SMALL_WORDS and small_allowed:
        return word.lower()
    return word[0].upper() + word[1:]


def find_links(abstract: str) -> tuple[Link, ...]:
    """Code and project links, in order, each once."""
    links: list[Link] = []
    for _, _, href in find_urls(abstract):
        host = re.sub(r"^https?://", "", href).split("/")[0].lower()
        label = "Code" if host in {"github.com", "gitlab.com", "bitbucket.org", "huggingface.co"} else "Project page"
        if all(link.url != href for link in links):
            links.append(Link(href, label))
    return tuple(links)


def find_benchmarks(abstract: str, own_names: tuple[str, ...] = ()) -> tuple[str, ...]:
    """Named benchmarks and datasets the abstract evaluates on or introduces, in order of mention."""
    return benchmarks.find_benchmarks(split_sentences(plain_for_extraction(abstract)), own_names)


_NOT_NAMES = {"the", "this", "that", "our", "new", "a", "an", "large", "public", "standard", "synthetic", "real",
              "existing", "several", "each", "every", "these", "those", "its", "their"}


def find_results(abstract: str) -> tuple[str, ...]:
    """Up to three short phrases with headline numbers, each saying what it measures."""
    return benchmarks.find_results(split_sentences(benchmarks.plain_math(plain_for_extraction(abstract))))
