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
from .topics import rank_topics
from .urls import find_urls

MAX_TITLE = 110

_INTRODUCE = re.compile(
    r"\b(?:we|this (?:paper|work)|and)\s+(?:\w+ly\s+|also\s+|further\s+|then\s+|first\s+)?"
    r"(?:propos|introduc|present|describ|develop|design|build|built|construct|releas|contribut|devis|creat|"
    r"curat|assembl|collect)(?:e|es|ed|s|d)?\b",
    re.IGNORECASE,
)
_CLAIM_VERBS = ("propose|introduce|present|develop|devise|design|build|construct|create",
                "study|investigate|analy[sz]e|examine|explore|formali[sz]e|characteri[sz]e|"
                "consider|initiate|address|tackle|revisit|identify|uncover|establish|provide|derive|give",
                "show|demonstrate|prove|find|argue|reveal|observe")
_NOT_A_SUBJECT = re.compile(r"^(?:which|how|whether|what|why|when|where|it|its|this|these|those|them|"
                            r"their|such|two|three|several)\b", re.IGNORECASE)
# A name is one token: letters, digits, hyphens, inline math (LS$^2$MC-GDA).
_NAME = (r"(?P<name>(?:[A-Za-z0-9]|\$[^$\s]{1,12}\$)(?:[A-Za-z0-9+\-.]|\$[^$\s]{1,12}\$)*"
         r"(?:[A-Za-z0-9+]|\$[^$\s]{1,12}\$))")
_LEAD = r"^\s*(?:(?:a|an|the|our)\s+)?(?:(?:novel|new|simple|general|unified|generic)\s+)?"
_ENDS_NAME = re.compile(r"[\"”'’]?\s*(?:[,.;:()]|$|\s(?:and|or|but|is|as|which|that|for|to|in|on|with)\b)")
_AFTER_NAME = r"\s*(?:,|\(|:|\u2014|\u2013| - |\.|;|$|\s(?:is|as|which|that|for|to)\b)"
_NAMED = re.compile(rf"(?<!so-)\b(?:called|named|dubbed|termed|coined|namely)\s+[\"“']?{_NAME}")
# "We call the resulting sampler X", "we refer to this approach as X", "which we term X".
_NAMING = re.compile(r"\bwe\s+(?:call|name|term|dub)\b|\bwe\s+refer\s+to\s+[^,.;]{1,50}?\s+as\b", re.IGNORECASE)
# "Our framework, X, ...", "Our method (X) ...", "Our first contribution is X, a corpus ...".
_OUR_THING = re.compile(
    r"\bour\s+(?:[\w-]+\s+){0,2}?(?:method|framework|model|system|approach|implementation|tool|toolkit|library|"
    r"algorithm|benchmark|dataset|corpus|pipeline|agent|architecture|contribution|technique|platform|suite)"
    rf"(?:\s*,\s*{_NAME}\s*,|\s*\(\s*{_NAME.replace('?P<name>', '?P<name2>')}\s*\)"
    rf"|\s+is\s+{_NAME.replace('?P<name>', '?P<name3>')}\s*,\s*(?:an?|the)\s)", re.IGNORECASE)
# The opening sentence "MedSight-7B is an open model for ...": a coined name that is the subject.
_SUBJECT_NAME = re.compile(rf"^{_NAME}\s+is\s+(?:an?|the)\s+(?P<description>.+)")
# A Title Case phrase right after the verb, before ", a ...": "We propose Contrastive Preference Distillation, a ..."
_TITLE_PHRASE = re.compile(r"^\s*(?P<name>[A-Z][a-z]{2,}(?:[\s-][A-Z][a-z]+){0,4})\s*,\s*(?:an?|the)\s")
_APPOSITIVE = re.compile(rf"^(?P<description>[^,.;:()]{{3,90}}?),\s*{_NAME}\s*,")
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


@dataclass(frozen=True)
class Contribution:
    name: str
    description: str | None
    secondary: bool = False  # released alongside the work ("We release X, a toolkit"), not the work itself


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
    found: list[Contribution] = []
    sentences = split_sentences(plain_for_extraction(abstract))
    for number, sentence in enumerate(sentences, 1):
        contribution = _contribution_in(sentence)
        if contribution and all(c.name != contribution.name for c in found):
            released = re.search(rf"\brelease[sd]?\s+(?:the\s+|our\s+)?{re.escape(contribution.name)}", sentence)
            if number == len(sentences) > 2 and released:
                contribution = replace(contribution, secondary=True)  # the closing "We release X" is an extra
            found.append(contribution)
    if not found and sentences:
        subject = _SUBJECT_NAME.match(sentences[0])
        coined = subject and re.search(r"\d|-|[a-z][A-Z]", subject["name"]) and is_name_like(subject["name"])
        if coined and " ".join(sentences[1:]).count(subject["name"]) >= 1:  # and the abstract returns to it
            found.append(Contribution(subject["name"], _clean_description(subject["description"])))
    return found


def _contribution_in(sentence: str) -> Contribution | None:
    verb = _INTRODUCE.search(sentence)
    if verb:
        rest = sentence[verb.end():]
        for rule in (_name_first, _expansion_then_acronym, _appositive_name):
            contribution = rule(rest)
            if contribution:
                return contribution
    named = _NAMED.search(sentence)
    if named and is_explicit_name(named["name"]):
        start = verb.end() if verb and verb.end() < named.start() else None
        description = sentence[start:named.start()] if start is not None else None
        return Contribution(named["name"], _clean_description(description))
    naming = _NAMING.search(sentence)
    if naming:
        named_part = _clause(sentence[naming.end():])
        acronym = _expansion_then_acronym(named_part)  # "which we call Anchored Lookahead Extragradient (ALEG)"
        if acronym:
            return acronym
        token = next((t for t in re.finditer(_NAME, named_part) if is_explicit_name(t["name"])), None)
        if token and _ENDS_NAME.match(named_part[token.end():]):  # "X and ...", not "the X dimension"
            return Contribution(token["name"], None)
    ours = _OUR_THING.search(sentence)
    if ours:
        name = ours["name"] or ours["name2"] or ours["name3"]
        if is_explicit_name(name):
            return Contribution(name, None)
    return None


def _name_first(rest: str) -> Contribution | None:
    """'we propose WZ-LLM, a neuro-symbolic framework ...', '**TIME** (Tensor ...)', 'Lantern, an ...'."""
    phrase = _TITLE_PHRASE.match(rest)
    if phrase and phrase["name"].split()[0].lower() not in _NOT_NAMES:
        description = re.match(r"\s*,\s*((?:an?|the)\s.*)", rest[phrase.end("name"):])
        return Contribution(phrase["name"], _clause(description[1]))
    match = re.match(_LEAD + _NAME + _AFTER_NAME, rest)
    lower_case_name = match and re.fullmatch(r"[a-z][a-z0-9]{3,}", match["name"]) \
        and re.match(r"\s*,\s*(?:an?|the)\s", rest[match.end("name"):]) and match["name"] not in _NOT_NAMES \
        and rest.count(match["name"]) >= 2  # "We present pagelet, a cache manager ... pagelet keeps ..."
    if not match or not (is_name_like(match["name"]) or lower_case_name):
        return None
    after = rest[match.end("name"):]
    expansion = re.match(r"\s*\(([^()]{3,120})\)", after)
    if expansion and acronym_matches(match["name"], expansion[1]):
        return Contribution(match["name"], normalise_expansion(expansion[1]))
    description = re.match(r"\s*,\s*((?:an?|the)\s.*)", after)
    return Contribution(match["name"], _clause(description[1]) if description else None)


def _expansion_then_acronym(rest: str) -> Contribution | None:
    """'we introduce Item Response Scaling Laws (IRSL), ...'."""
    match = re.match(_LEAD + r"(?P<expansion>[^,;.()]{3,140}?)\s*\(\s*" + _NAME + r"\s*\)", rest)
    if not match or not is_name_like(match["name"]):
        return None
    if len(match["expansion"].split()) > 14 or not acronym_matches(match["name"], match["expansion"]):
        return None
    return Contribution(match["name"], normalise_expansion(match["expansion"]))


def _appositive_name(rest: str) -> Contribution | None:
    """'we propose a novel federated learning algorithm, LS$^2$MC-GDA, that ...', 'a system, Relay, that'."""
    match = _APPOSITIVE.match(rest.strip())
    if not match or not is_explicit_name(match["name"]):
        return None
    return Contribution(match["name"], _clean_description(match["description"]))


def is_name_like(token: str) -> bool:
    """A coined name: mixed case (EgoTSR), several capitals (ASAP), or letters with digits."""
    letters = re.sub(r"\$[^$]*\$", "", token)
    capitals = sum(c.isupper() for c in letters)
    camel = re.search(r"[a-z][A-Z]", letters) is not None
    digits_and_letters = re.search(r"\d", letters) and re.search(r"[A-Za-z]", letters)
    math_and_letters = "$" in token and re.search(r"[A-Za-z]{2}", letters)  # $\alpha$-Balance, DPM-$\lambda$
    distinctive = capitals >= 2 or camel or bool(digits_and_letters) or bool(math_and_letters)
    return 2 <= len(letters.strip("-")) <= 40 and distinctive and not letters.endswith(("-based", "-like"))


def is_explicit_name(token: str) -> bool:
    """After 'named', 'we call ...' or 'Our framework, X,': also plain words (Tessera, snapshot-rs)."""
    plain_word = re.fullmatch(r"[A-Z][a-z]{2,}|[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+", token) is not None
    return is_name_like(token) or (plain_word and token.lower() not in _NOT_NAMES)


def acronym_matches(acronym: str, expansion: str) -> bool:
    """True when the acronym's letters appear, in order, in the expansion, starting with its first word."""
    letters = [c.lower() for c in re.sub(r"\$[^$]*\$", "", acronym) if c.isalpha()]
    words = expansion.lower()
    if not letters or not words or words[0] != letters[0]:
        return False
    position = 0
    for letter in letters:
        position = words.find(letter, position)
        if position < 0:
            return False
        position += 1
    return True


def normalise_expansion(expansion: str) -> str:
    """Undo capitals that mark an acronym's letters: 'REconstruction' -> 'Reconstruction'."""
    words = []
    for word in expansion.split():
        if re.fullmatch(r"[A-Z]{2}[a-z]{3,}", word):
            word = word.capitalize()
        elif re.fullmatch(r"[a-z]+[A-Z][a-z]+", word):
            word = word.lower()
        words.append(word)
    return " ".join(words)


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
