"""The names an abstract gives to what it introduces: 'we propose EgoTSR, a ...', 'called Long Name (LN)'.

A name counts only where the authors introduce it: after 'we propose', 'this paper presents',
'is proposed', 'by introducing', 'called', 'we call ...' or 'our <kind of thing>'. An acronym is
read with the words it stands for, found as Schwartz and Hearst do (the shortest run of words
before the parenthesis that holds its letters in order, the first at the start of a word). The
rules prefer no name to a wrong one: an acronym for an existing field ("Deep Reinforcement
Learning (DRL) has emerged") or a name in a phrase that qualifies the object ("a scheme enhanced
by Model-Agnostic Meta-Learning (MAML)") is not the paper's.

The cues are read in name_cues, the phrases they point at in name_phrases, a name's shapes in
name_shapes and acronyms in acronyms; this module chooses among what they find, abstract by abstract,
and reads the name a given title opens with.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Sequence

from catalogue.ingest.name_cues import candidates_in
from catalogue.ingest.name_shapes import (NAME, NOT_NAMES, Contribution, is_coined, is_name_like, mention_count,
                                          mentioned, word_set, written_words)

_ADDITION = re.compile(r"(?:In\s+addition|Additionally|Besides|Moreover|Furthermore|Further|As\s+a\s+by-?product)\b"
                       r"|We\s+(?:also|further|additionally)\b")
_RELEASE = re.compile(r"\brelease[sd]?\s+(?:the\s+|our\s+)?")  # then the name: a pattern per name would be compiled anew
# Words a title's opening phrase starts with that make it a statement, not a name.
_TITLE_OPENERS = {"beyond", "towards", "toward", "on", "when", "why", "how", "what", "is", "are", "do", "does", "can",
                  "from", "to", "the", "a", "an", "not", "rethinking", "revisiting", "understanding", "learning"}
MAX_NAME = 60  # longer is a phrase read wrongly (a run of symbols), never a name a reader would use


def find_names(sentences: Sequence[str]) -> list[Contribution]:
    """Named contributions in the order the abstract introduces them (first = primary)."""
    found: list[Contribution] = []
    sentences = [_plain_name_marks(sentence) for sentence in sentences]
    words = [written_words(sentence) for sentence in sentences]
    counts = Counter(itertools.chain.from_iterable(words))
    earlier = _WordsBefore(words)
    named: set[str] = set()
    added: set[str] = set()  # names of what the abstract adds to its work: 'In addition, we propose a metric (FAED)'
    for number, sentence in enumerate(sentences, 1):
        if sentence.endswith("?"):  # a question introduces nothing: 'Where was Michael Jordan educated?'
            sentence = sentence[:sentence.rfind(". ") + 1]  # (a sentence before it the splitter missed may)
        # a name written before it is introduced is something that exists already
        contribution = next((c for c in candidates_in(sentence, counts) if len(c.name) <= MAX_NAME
                             and _balanced(c.name) and not mentioned(c.name, earlier.sentences_before(number))), None)
        if not contribution or contribution.name in named:
            continue
        named.add(contribution.name)
        if _ADDITION.match(sentence):
            added.add(contribution.name)
        released = any(sentence.startswith(contribution.name, at.end()) for at in _RELEASE.finditer(sentence))
        found.append(Contribution(contribution.name, secondary=number == len(sentences) > 2 and released))
    if len(found) > 1:  # the abstract's own subject is the name it returns to most (first on a tie), of those
        primary = max((c for c in found if not c.secondary),  # not introduced as an addition to the work
                      key=lambda c: (c.name not in added, mention_count(c.name, counts)), default=None)
        if primary is not None:
            found.remove(primary)
            found.insert(0, primary)
    for sentence in sentences if not found else ():  # 'MedSight-7B is an open model for ...'
        subject = _SUBJECT_NAME.match(sentence)
        coined = subject and _COINED_MARK.search(subject["name"]) and is_name_like(subject["name"])
        if coined and counts[subject["name"]] >= 2:  # and the abstract returns to it
            found.append(Contribution(subject["name"]))
            break
    return found


_SUBJECT_NAME = re.compile(rf"{NAME}\s+is\s+(?:an?|the)\s+(?:novel\s+|new\s+)?")
_COINED_MARK = re.compile(r"\d|-|[a-z][A-Z]")


class _WordsBefore:
    """The words of an abstract's sentences before a given one, gathered only when a name is looked up in them
    (most sentences offer none). A sentence's first word is left out: a name that opens a sentence may still
    be the paper's ('X tackles this. We introduce X, ...')."""

    def __init__(self, words: list[list[str]]) -> None:
        self._words = words
        self._gathered: set[str] = set()
        self._sentences = 0  # how many sentences' words are gathered

    def sentences_before(self, number: int) -> set[str]:
        """The words of sentences 1 to number - 1."""
        while self._sentences < number - 1:
            self._gathered |= word_set(self._words[self._sentences][1:])
            self._sentences += 1
        return self._gathered


def _balanced(name: str) -> bool:
    """'AA{' is the start of something else, not a name; 'LS$^{2}$MC' closes what it opens."""
    return name.count("{") == name.count("}") and name.count("(") == name.count(")") and name.count("$") % 2 == 0


_DASH = re.compile(r"-(?:-|\s|(?:an?|the|that|which)\s)")  # what each kind of dash below has after its first '-'


def _plain_name_marks(sentence: str) -> str:
    """'X--a ...', 'task - X - ...', 'X-a novel ...' and '(LANA)-an approach' are dashes, '$i$-RevNet' is i-RevNet,
    '({ReasoNet})' is (ReasoNet)."""
    if _DASH.search(sentence):  # (the dash pattern is tried at every character: hyphens alone are let through sooner)
        sentence = re.sub(r"\s*-{2,3}\s*|\s+-\s+|(?<=[\w)])-(?=(?:a|an|the|that|which)\s)", " \u2014 ", sentence)
    if "$" in sentence and "-" in sentence:
        sentence = re.sub(r"\$([A-Za-z])\$(?=-)", r"\1", sentence)
    if "{" in sentence:
        sentence = re.sub(r"(?<![\w^_\\])\{([A-Za-z0-9][\w+.-]*)\}", r"\1", sentence)
    return sentence


def name_from_title(title: str, abstract: str) -> str | None:
    """The short name a given title opens with ('SparseVLM: Visual Token Sparsification ...'): one
    to three words before the first ': ', one of them coined (mixed case, capitals, digits), or a
    single capitalised word the abstract also writes in mid-sentence ('... we propose Mamba'); a
    title's plain phrase ('Deep Learning: A Survey') names nothing."""
    prefix, colon, rest = title.partition(": ")
    words = prefix.split()
    if not colon or not rest.strip() or not 1 <= len(words) <= 3 or len(prefix) > MAX_NAME:
        return None
    if words[0].endswith("ing") or words[0].lower() in _TITLE_OPENERS:  # 'Revisiting X:', 'Beyond X:'
        return None
    if any(is_coined(word) for word in words):
        return prefix.strip()
    proper = len(words) == 1 and re.fullmatch(r"[A-Z][a-z]{2,}", prefix.strip()) and prefix.lower() not in NOT_NAMES
    if proper and re.search(rf"[a-z,]\s+{re.escape(prefix.strip())}\b", abstract):
        return prefix.strip()
    return None
