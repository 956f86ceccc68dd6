"""The cues by which a sentence introduces what the authors made: 'we propose', 'this paper presents', 'is
proposed', 'by introducing', 'called', 'we call ...', 'our <kind of thing>', 'X: a ...'; each cue hands
the part of the sentence it points at to catalogue.ingest.name_phrases, the likeliest name first. A
cue for prior work ('a recent work, named X', 'Smith et al. call it X') names nothing.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

from catalogue.ingest.name_phrases import KINDS, named_after, object_names
from catalogue.ingest.name_shapes import (NAME, NAME_TOKEN, QUOTES, Contribution, is_coined, is_explicit_name,
                                          mentioned, word_set, written_words)
from catalogue.text import WORD_START, AnyCase, holds_any

_VERBS = (r"propos|introduc|present|describ|develop|design|build|built|construct|releas|contribut|devis|creat|"
          r"curat|assembl|collect|suggest|offer|provid|deriv|implement|unveil")
_STUDY = ("study", "consider", "explore", "investigate")
_ADVERBS = r"(?:(?:\w+ly|also|further|then|first|thus|hence|therefore|here|now|instead|next|hereby|finally)\s+){0,2}"
# Where the authors introduce something; the name follows (active) or precedes (passive) the cue. (Each
# alternative opens with a letter or a comma, the engine's quick way in: WORD_START.)
_INTRODUCED = (rf"\s+(?:(?:have|has|are|will)\s+)?{_ADVERBS}(?:(?:{_VERBS})(?:e|es|ed|s|d|ing)?\b"
               rf"(?!\s+(?:on|upon)\b)"  # 'build on X'
               rf"|(?:{'|'.join(_STUDY)})\b(?=\s+an?\s+(?:new|novel)\b))")  # 'we study a novel estimator X'
_INTRODUCING = "|".join((
    rf"w{WORD_START}e{_INTRODUCED}", rf"t{WORD_START}his\s+(?:paper|work|study|article|note){_INTRODUCED}",
    rf"t{WORD_START}he\s+(?:present\s+)?paper{_INTRODUCED}", rf"a{WORD_START}nd{_INTRODUCED}",
    rf"b{WORD_START}y\s+(?:{_VERBS})ing\b(?!\s+(?:on|upon)\b)", rf",\s+(?:{_VERBS})ing\b(?!\s+(?:on|upon)\b)",
    rf"w{WORD_START}e\s+{_ADVERBS}put\s+forward\b",
    rf"t{WORD_START}o\s+(?:propos|introduc|present|develop|design|creat|construct)e\b"))  # 'we leverage X to propose Y'
_WE = AnyCase(rf"w{WORD_START}e\b", needs=("we",))
_THIS_WORK = AnyCase(rf"(?:t{WORD_START}his|t{WORD_START}he\s+present|o{WORD_START}ur)\s+(?:paper|work|study|article|note)\b",
                     needs=("paper", "work", "study", "article", "note"))
_PASSIVE_VOICE = rf"(?:i{WORD_START}s|a{WORD_START}re|w{WORD_START}as|w{WORD_START}ere)\s+{_ADVERBS}(?:{_VERBS})(?:ed|d)\b"
_PROPOSED_THING = (rf"(?:t{WORD_START}he\s+(?:proposed|resulting)|t{WORD_START}his\s+(?:proposed|resulting)|"
                   rf"t{WORD_START}his\s+new|o{WORD_START}ur(?:\s+(?:proposed|resulting|new))?|"
                   rf"t{WORD_START}his(?=\s+(?:method|technique|approach|framework|model|algorithm|system|architecture)\s*,))\b")
# (AnyCase finds these much sooner than re.IGNORECASE: the text of a match is read at its positions.)
# (These two open with a few letters the engine skips to: sooner than a look for each of the verbs first.)
_INTRODUCE = AnyCase(_INTRODUCING)
_PASSIVE = AnyCase(_PASSIVE_VOICE)
_PROPOSED = AnyCase(_PROPOSED_THING, needs=("proposed", "resulting", "this", "our"))
# Words that name what follows: 'called X', 'which we call X', 'we refer to this method as X'.
_NAMING_WORDS = ("called", "named", "dubbed", "termed", "coined", "codenamed", "entitled", "nicknamed", "namely",
                 "abbreviated", "shortened", "denoted")
_NAMING = re.compile(  # lower case: 'Named Entity Recognition' names nothing
    rf"\b(?<!so-)(?<!so\s)(?:{'|'.join(_NAMING_WORDS)})(?:\s+as)?\b|\bknown\s+as\b"
    r"|\brefer(?:red)?\s+to\s+(?:[^,.;]{1,50}?\s+)?as\b")
_NAMING_NEEDS = (*_NAMING_WORDS, "known", "refer")  # one of which every match of _NAMING holds
# 'We call the resulting sampler X', 'which we term X', 'we denote ... as X': the name follows a few words of object.
_CALLING = (rf"(?:w{WORD_START}e\s+(?:call|name|term|dub|coin|denote)|a{WORD_START}nd\s+(?:call|name|term|dub|coin|denote)"
            rf"|n{WORD_START}aming)\b")
_WE_CALL = re.compile(_CALLING, re.IGNORECASE)
_HAS_WE_CALL = AnyCase(_CALLING, needs=("call", "name", "term", "dub", "coin", "denote", "naming"))
# A prior work's name ('A recent work, named PRover (Saha et al., 2020)') is not the paper's: a citation
# before the naming word or just after it, or prior work as what the naming word names (no 'we' between).
_CITATION = re.compile(r"\bet\s+al\b|\(\s*\d{4}\s*\)", re.IGNORECASE)
_PRIOR_WORK = re.compile(r"\b(?:recent|previous|prior|existing|earlier)\s+(?:work|method|approach|study)"
                         r"|\brecently\s+(?:introduced|proposed|developed)",
                         re.IGNORECASE)
_CITATION_REACH = 60  # characters after the naming word a citation may follow the name in
_OUR_THING = AnyCase(  # (its name is read at the match's positions: the match may be of the lower-cased text)
    rf"o{WORD_START}ur\s+(?:[\w-]+\s+){{0,2}}?(?:method|framework|model|system|approach|implementation|tool|toolkit|library|"
    r"algorithm|benchmark|dataset|corpus|pipeline|agent|architecture|contribution|technique|platform|suite|network|"
    r"solution)"
    rf"(?:\s*,\s*{NAME}\s*,|\s*\(\s*{NAME.replace('?P<name>', '?P<name2>')}\s*\)"
    rf"|\s+is\s+{NAME.replace('?P<name>', '?P<name3>')}\s*,\s*(?:an?|the)\s)", needs=("our",))
# 'We apply those layers in SchNet: a novel deep learning architecture', 'through RLlib: a library that ...'
# (the word before the colon, found from the colon: a name searched for at every position costs much more).
_DEFINED_BY_COLON = re.compile(r"(?<!\S)(\S+):\s+an?\s")
# What 'namely X' may follow: 'Our proposed framework, namely', 'a new monolingual language model ..., namely'.
_INTRODUCED_KIND = re.compile(rf"\b[Oo]ur\s+(?:proposed\s+|new\s+)?(?:[\w-]+\s+)?(?:{KINDS}),\s*$"
                              r"|\ban?\s+(?:new|novel)\s")


def candidates_in(sentence: str, counts: Counter[str] | None = None) -> Iterator[Contribution]:
    """The names a sentence may introduce, the likeliest first (counts: the abstract's words)."""
    counts = Counter(written_words(sentence)) if counts is None else counts
    yield from _named_by_naming_words(sentence)
    yield from _named_by_verbs(sentence, counts)
    yield from _named_by_passive(sentence, counts)
    proposed = _PROPOSED.search(sentence)
    if proposed:
        yield from object_names(sentence[proposed.end():], counts, longest=3, apposed=2)
    ours = _OUR_THING.search(sentence)
    if ours:
        group = next(group for group in ("name", "name2", "name3") if ours[group])
        name = sentence[ours.start(group):ours.end(group)]
        if is_explicit_name(name):
            yield Contribution(name)
    defined = _DEFINED_BY_COLON.search(sentence) if ":" in sentence else None
    # by the authors: not 'One of the most popular algorithms is KwikCluster: an algorithm that ...'
    if defined and NAME_TOKEN.fullmatch(defined[1]) and is_coined(defined[1]) and _WE.found_in(sentence, 0, defined.start()):
        yield Contribution(defined[1])


def _named_by_naming_words(sentence: str) -> Iterator[Contribution]:
    """'called X', 'which we call X', 'we name our model as X', 'namely X' after what the work introduces."""
    for pattern in (_NAMING, _WE_CALL):
        naming = _may_name(sentence, pattern) and pattern.search(sentence)
        if not naming or _names_prior_work(sentence, naming):
            continue
        # 'namely' also means 'that is', 'known as' also names what exists: the work must be introduced before
        # ('we propose ..., namely X', 'Our proposed framework, namely UCTNet', 'a new language model, namely SwahBERT')
        introduced = (_INTRODUCE.found_in(sentence, 0, naming.start())
                      or _INTRODUCED_KIND.search(sentence[:naming.start()]))
        if not introduced and re.match(r"namely|known", naming[0]):
            continue
        after = sentence[naming.end():]
        if pattern is _WE_CALL:  # 'we name our model as CODE-MVP'; or the name ends the object: 'we call
            named_as = re.match(r"[^,;.]*?\sas\s", after)  # the resulting model a Sinkformer'
            after = after[named_as.end():] if named_as else after[_last_capitalised_run(after):]
        named = named_after(after)
        if named:
            yield named


def _may_name(sentence: str, pattern: re.Pattern) -> bool:
    """Whether the sentence has the words a naming pattern needs (a quicker look than the pattern's)."""
    if pattern is _WE_CALL:
        return _HAS_WE_CALL.found_in(sentence)
    return holds_any(sentence, _NAMING_NEEDS)


def _named_by_verbs(sentence: str, counts: Counter[str]) -> Iterator[Contribution]:
    """Names in the object of each verb that introduces: 'we propose to adapt existing LoRAs ... and introduce a
    Compression-Aware LoRA (CA-LoRA)'."""
    for number, verb in enumerate(_INTRODUCE.finditer(sentence)):
        written = sentence[verb.start():verb.end()]
        if number and written.startswith(","):
            continue  # a later participle tells what the work gives: '..., offering improved understanding (NLU)'
        if written.startswith("to") and not _WE.found_in(sentence, 0, verb.start()):
            continue  # an infinitive introduces only what the authors set out to make: 'methods to construct X'
        if re.match(r"and\s.*[^s]s$", written, re.IGNORECASE) and not _THIS_WORK.found_in(sentence, 0, verb.start()):
            continue  # 'the first stage (ClusterNet) ... and proposes regions (ROOBI)': not the authors
        # not a name written before its verb: 'Networks (CNNs) inspire us to introduce CNNs'
        yield from (c for c in object_names(sentence[verb.end():], counts)
                    if not mentioned(c.name, word_set(written_words(sentence[:verb.start()]))))


def _named_by_passive(sentence: str, counts: Counter[str]) -> Iterator[Contribution]:
    """The subject of '... is proposed': 'a X (X) is proposed', 'Applying sigma-consensus, MAGSAC is proposed',
    'AdapterBias, a simple adapter architecture, is proposed'."""
    passive = _PASSIVE.search(sentence)
    if not passive:
        return
    subject = [part.strip() for part in sentence[:passive.start()].split(", ") if part.strip()]
    if subject and re.match(r"(?:an?|the)\s", subject[-1], re.IGNORECASE):
        yield from object_names(subject[-1], counts, whole=True)
    # a coined name: not 'CycleGAN was recently proposed' (it exists already) nor '..., MiCT-Net, is also
    # proposed' (a second one)
    named = [part for part in subject[-2:] if NAME_TOKEN.fullmatch(part) and is_coined(part)]
    main = re.fullmatch(r"(?:is|are)\s+(?:proposed|introduced|presented)", sentence[passive.start():passive.end()])
    if named and main and (named[-1] == subject[-1] or re.match(r"(?:an?|the)\s", subject[-1])):
        yield Contribution(named[-1])


def _names_prior_work(sentence: str, naming: re.Match) -> bool:
    """'Smith et al. call it X', 'a recent work, named X', 'named X (Saha et al., 2020)'; not 'Unlike previous
    methods, we propose ..., named X' or 'named X, which outperforms previous methods'."""
    before = sentence[:naming.start()]
    own = re.split(r"\bwe\b", before, flags=re.IGNORECASE)[-1]
    return bool(_CITATION.search(before) or _PRIOR_WORK.search(own)
                or _CITATION.search(sentence, naming.end(), naming.end() + _CITATION_REACH))


_CAPITALISED = re.compile(rf"[{QUOTES}]?[A-Z$]")


def _last_capitalised_run(text: str) -> int:
    """Where the last run of capitalised or coined words of text's first clause starts (0 if none)."""
    end = re.search(r"[,;:.(\u2014\u2013]|\s-\s|\s(?:which|that|to|for|and|as|in|on|with)\s", text)
    start, previous = 0, False
    for word in re.finditer(r"\S+", text[:end.start() if end else len(text)]):
        capitalised = bool(_CAPITALISED.match(word[0]) or is_coined(word[0].strip(QUOTES)))
        if capitalised and not previous:
            start = word.start()
        previous = capitalised
    return start
