"""The names an abstract gives to what it introduces: 'we propose EgoTSR, a ...', 'called Long Name (LN)'.

A name counts only where the authors introduce it: after 'we propose', 'this paper presents',
'is proposed', 'by introducing', 'called', 'we call ...' or 'our <kind of thing>'. An acronym is
read with the words it stands for, found as Schwartz and Hearst do (the shortest run of words
before the parenthesis that holds its letters in order, the first at the start of a word). The
rules prefer no name to a wrong one: an acronym for an existing field ("Deep Reinforcement
Learning (DRL) has emerged") or a name in a phrase that qualifies the object ("a scheme enhanced
by Model-Agnostic Meta-Learning (MAML)") is not the paper's.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from catalogue.text import WORD_START, AnyCase, holds_any


@dataclass(frozen=True)
class Contribution:
    name: str
    secondary: bool = False  # released alongside the work ("We release X, a toolkit"), not the work itself


# A name is one token: letters, digits, hyphens, inline math (LS$^2$MC-GDA).
_MATH = r"\$[^$\s]{1,12}\$"
NAME = rf"(?P<name>(?:[A-Za-z0-9]|{_MATH})(?:[A-Za-z0-9+\-.]|{_MATH})*(?:[A-Za-z0-9+]|{_MATH}))"
_TOKEN = re.compile(NAME.replace("?P<name>", ""))

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
_KINDS = (r"algorithm|method|framework|model|system|approach|library|toolkit|dataset|benchmark|corpus|architecture|"
          r"network|format|technique|procedure|estimator|module|paradigm|scheme|strategy|mechanism|simulator|platform")
_QUALIFIES = re.compile(r"-\w|\s+based\b(?!\s+(?:on|upon)\b)")  # '(CNN)-based', '(MTL) based'; not '(X) based on'
_SMALL_WORDS = r"a|an|the|of|for|in|on|at|to|by|with|from|into|via|as|and|or|that|which|who|is|are|was|were"
_SMALL_WORD = re.compile(_SMALL_WORDS)
_CLASS_OF_THINGS = re.compile(  # '(MMD) kernel two-sample tests', '(GDA) methods'; not '(GDS) for linear models'
    rf"\s+(?:(?!(?:{_SMALL_WORDS})\b)[a-z][\w-]*\s+){{0,2}}?(?:(?:{_KINDS})e?s|tests|fields)\b")
# What 'namely X' may follow: 'Our proposed framework, namely', 'a new monolingual language model ..., namely'.
_INTRODUCED_KIND = re.compile(rf"\b[Oo]ur\s+(?:proposed\s+|new\s+)?(?:[\w-]+\s+)?(?:{_KINDS}),\s*$"
                              r"|\ban?\s+(?:new|novel)\s")
# The object ends where a clause or a qualifying phrase starts ('a scheme enhanced by ...').
_OBJECT_END = re.compile(
    r"[,;:!?()\u2014\u2013]|\.(?!\d)|\s-{1,3}\s|---|\s(?:that|which|who|whose|where|to|for|with|by|in|on|of|"
    r"based(?=\s+(?:on|upon))|from|using|via|as|but|under|through|into|over|at|against|than|while|when|enhanced|"
    r"trained|built|inspired|guided|driven|designed|combined|is|are|was|were|has|have|can|will|outperform\w*|achiev\w*|show\w*|"
    r"yield\w*)\b", re.IGNORECASE)
_LEAD = re.compile(r"^\s*(?:(?:a|an|the|our|two|three)\s+)?(?:(?:family|set|class|suite|series|pair)\s+of\s+)?"
                   r"(?:(?:novel|new|simple|general|unified|generic|first)\s+)?",
                   re.IGNORECASE)
# A Title Case phrase after a naming word or before ', a ...': 'Augmented CycleGAN', 'Split LBI'.
_TITLE_WORD = r"(?:[A-Z]|\$)(?:[\w$^{}+'\u2019-]|\.(?=\w))*"
# A small word joins plain capitalised words only: 'Learning to Imagine', not 'MTFormer for MTL'.
_TITLE_PHRASE = re.compile(rf"{_TITLE_WORD}(?:\s+(?:(?:of|for|with|and|the|to|via|in|on|as|then)\s+"
                           rf"(?=[A-Z][a-z]+(?![\w$-])))?{_TITLE_WORD}){{0,5}}")
_QUOTES = "\"'\u201c\u201d\u2018\u2019`"
# A name the authors put in quotes: '``RotationNet,\'\'', '"Neural Illumination,"', '\u2018TibGM\u2019'.
_QUOTED = re.compile(rf"[{_QUOTES}]{{1,2}}(?P<quoted>[A-Za-z0-9$][^{_QUOTES}]{{0,48}}?)[,.]?[{_QUOTES}]{{1,2}}")
_QUOTED_WORDS = 4
# The quoted name ends its phrase ('"Co-teaching" for ...', '"Neural Illumination," a new approach'); it only
# qualifies one that goes on ('"Contrastive-Prototypical" self-supervised learning for Kriging (KCP)').
_QUOTED_END = re.compile(r"\s*(?:[,.;:)\u2014\u2013-]|$|\s(?:an?|the|which|that|for|to|is|as|in|on|with|and|or)\b)")
_QUOTED_REACH = 120  # characters of an object that a kind of thing and a quoted name may start in
_ANY_QUOTE = re.compile(f"[{_QUOTES}]")
_KIND_BEFORE_QUOTE = re.compile(rf"\b(?:{_KINDS})\s+(?=[{_QUOTES}])")
_NOT_NAMES = {"the", "this", "that", "our", "new", "a", "an", "large", "public", "standard", "synthetic", "real",
              "existing", "several", "each", "every", "these", "those", "its", "their", "it", "we", "in", "to",
              "for", "and", "first", "one", "two", "specifically", "here", "there", "then", "thus", "finally",
              "moreover", "furthermore", "however", "experiments", "results"}


_ADDITION = re.compile(r"(?:In\s+addition|Additionally|Besides|Moreover|Furthermore|Further|As\s+a\s+by-?product)\b"
                       r"|We\s+(?:also|further|additionally)\b")
_POSSESSIVE = re.compile(r"['\u2019]s\b")
_RELEASE = re.compile(r"\brelease[sd]?\s+(?:the\s+|our\s+)?")  # then the name: a pattern per name would be compiled anew
# Words a title's opening phrase starts with that make it a statement, not a name.
_TITLE_OPENERS = {"beyond", "towards", "toward", "on", "when", "why", "how", "what", "is", "are", "do", "does", "can",
                  "from", "to", "the", "a", "an", "not", "rethinking", "revisiting", "understanding", "learning"}
MAX_NAME = 60  # longer is a phrase read wrongly (a run of symbols), never a name a reader would use


def find_names(sentences: Sequence[str]) -> list[Contribution]:
    """Named contributions in the order the abstract introduces them (first = primary)."""
    found: list[Contribution] = []
    sentences = [_plain_name_marks(sentence) for sentence in sentences]
    words = [_words(sentence) for sentence in sentences]
    counts = Counter(itertools.chain.from_iterable(words))
    earlier = _WordsBefore(words)
    named: set[str] = set()
    added: set[str] = set()  # names of what the abstract adds to its work: 'In addition, we propose a metric (FAED)'
    for number, sentence in enumerate(sentences, 1):
        if sentence.endswith("?"):  # a question introduces nothing: 'Where was Michael Jordan educated?'
            sentence = sentence[:sentence.rfind(". ") + 1]  # (a sentence before it the splitter missed may)
        # a name written before it is introduced is something that exists already
        contribution = next((c for c in candidates_in(sentence, counts) if len(c.name) <= MAX_NAME
                             and _balanced(c.name) and not _mentioned(c.name, earlier.sentences_before(number))), None)
        if not contribution or contribution.name in named:
            continue
        named.add(contribution.name)
        if _ADDITION.match(sentence):
            added.add(contribution.name)
        released = any(sentence.startswith(contribution.name, at.end()) for at in _RELEASE.finditer(sentence))
        found.append(Contribution(contribution.name, secondary=number == len(sentences) > 2 and released))
    if len(found) > 1:  # the abstract's own subject is the name it returns to most (first on a tie), of those
        primary = max((c for c in found if not c.secondary),  # not introduced as an addition to the work
                      key=lambda c: (c.name not in added, _mentions(c.name, counts)), default=None)
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
            self._gathered |= _word_set(self._words[self._sentences][1:])
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


_AROUND_WORDS = ".,;:!?()[]" + _QUOTES


def _words(text: str) -> list[str]:
    """Words as names are written: 'CNNs,' is 'CNNs', "FastGRNN's" is 'FastGRNN', 'CNN-based' is not 'CNN'."""
    if "'s" in text or "\u2019s" in text:
        text = _POSSESSIVE.sub("", text)
    return [word.strip(_AROUND_WORDS) for word in text.split()]


def _mentions(name: str, counts: Counter[str]) -> int:
    """How often the abstract writes a name (for a phrase, its rarest word: counted in one pass)."""
    return min(counts[word] for word in _words(name)) if _words(name) else 0


def _word_set(words: list[str]) -> set[str]:
    """Words and pairs of neighbouring words, to look names up in."""
    return set(words) | {" ".join(pair) for pair in zip(words, words[1:])}


def marked_words(text: str) -> set[str]:
    """The words of a text that are not all lower case (a capital, a digit), as names are written:
    a quick look for the texts that may write a name."""
    return set(_words(" ".join(word for word in text.split() if not word.islower())))


def mentions(text: str, name: str) -> bool:
    """Whether the text writes the name, in the singular or the plural."""
    return _mentioned(name, _word_set(_words(text)))


def _mentioned(name: str, words: set[str]) -> bool:
    """Whether a name is among words (a phrase: its pairs of words, where kept), in the singular or the plural
    ('CNNs' before 'a CNN architecture')."""
    parts = _words(name)
    pairs = [" ".join(pair) for pair in zip(parts, parts[1:])]
    return all(part in words or f"{part}s" in words for part in pairs or parts)


def candidates_in(sentence: str, counts: Counter[str] | None = None) -> Iterator[Contribution]:
    """The names a sentence may introduce, the likeliest first (counts: the abstract's words)."""
    counts = Counter(_words(sentence)) if counts is None else counts
    yield from _named_by_naming_words(sentence)
    yield from _named_by_verbs(sentence, counts)
    yield from _named_by_passive(sentence, counts)
    proposed = _PROPOSED.search(sentence)
    if proposed:
        yield from _object_names(sentence[proposed.end():], counts, longest=3, apposed=2)
    ours = _OUR_THING.search(sentence)
    if ours:
        group = next(group for group in ("name", "name2", "name3") if ours[group])
        name = sentence[ours.start(group):ours.end(group)]
        if is_explicit_name(name):
            yield Contribution(name)
    defined = _DEFINED_BY_COLON.search(sentence) if ":" in sentence else None
    # by the authors: not 'One of the most popular algorithms is KwikCluster: an algorithm that ...'
    if defined and _TOKEN.fullmatch(defined[1]) and is_coined(defined[1]) and _WE.found_in(sentence, 0, defined.start()):
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
        named = _named_after(after)
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
        yield from (c for c in _object_names(sentence[verb.end():], counts)
                    if not _mentioned(c.name, _word_set(_words(sentence[:verb.start()]))))


def _named_by_passive(sentence: str, counts: Counter[str]) -> Iterator[Contribution]:
    """The subject of '... is proposed': 'a X (X) is proposed', 'Applying sigma-consensus, MAGSAC is proposed',
    'AdapterBias, a simple adapter architecture, is proposed'."""
    passive = _PASSIVE.search(sentence)
    if not passive:
        return
    subject = [part.strip() for part in sentence[:passive.start()].split(", ") if part.strip()]
    if subject and re.match(r"(?:an?|the)\s", subject[-1], re.IGNORECASE):
        yield from _object_names(subject[-1], counts, whole=True)
    # a coined name: not 'CycleGAN was recently proposed' (it exists already) nor '..., MiCT-Net, is also
    # proposed' (a second one)
    named = [part for part in subject[-2:] if _TOKEN.fullmatch(part) and is_coined(part)]
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


_CAPITALISED = re.compile(rf"[{_QUOTES}]?[A-Z$]")


def _last_capitalised_run(text: str) -> int:
    """Where the last run of capitalised or coined words of text's first clause starts (0 if none)."""
    end = re.search(r"[,;:.(\u2014\u2013]|\s-\s|\s(?:which|that|to|for|and|as|in|on|with)\s", text)
    start, previous = 0, False
    for word in re.finditer(r"\S+", text[:end.start() if end else len(text)]):
        capitalised = bool(_CAPITALISED.match(word[0]) or is_coined(word[0].strip(_QUOTES)))
        if capitalised and not previous:
            start = word.start()
        previous = capitalised
    return start


def _named_after(text: str) -> Contribution | None:
    """The name right after a naming word: 'Long Name (LN)', 'LN (Long Name)', 'Split LBI', 'TRIX', '"Co-teaching"'."""
    quoted = _quoted_name(text.lstrip())
    if quoted:
        return quoted
    text = text.lstrip(" " + _QUOTES)
    text = re.sub(r"^(?:as|an?|the)\s+", "", text, flags=re.IGNORECASE)
    defined = _definition_at_start(text)
    if defined:
        return defined
    phrase = _TITLE_PHRASE.match(text)
    if phrase:
        words = phrase[0].rstrip("." + _QUOTES).split()
        rest = text[phrase.start() + len(" ".join(words)):].lstrip(_QUOTES)
        alias = re.match(rf"\s*,?\s+or\s+{NAME}", rest)  # 'Dynamic Recurrent ... Networks, or DRAGNN'
        if alias and is_name_like(alias["name"]) and acronym_matches(alias["name"], " ".join(words)):
            return Contribution(alias["name"])
        while len(words) > 1 and words[-1].lower() in {"of", "for", "with", "and", "the", "to", "via", "in", "on"}:
            words.pop()
        ends = re.match(rf"[{_QUOTES}]?\s*(?:[,.;:()\u2014\u2013]|$|\s(?:and|or|but|is|as|which|that|for|to|in|on|"
                        r"with|outperforms|achieves|can)\b)", rest)
        if ends and (len(words) > 1 and words[0].lower() not in _NOT_NAMES or is_explicit_name(words[0])):
            return Contribution(" ".join(words).strip(_QUOTES))
        if len(words) > 1:
            return None
    token = _TOKEN.match(text)
    # the name ends there: 'named TRIX to learn', not 'the Stackelberg-Littlestone dimension'
    ends = (rf"[{_QUOTES}]?\s*(?:[,.;:()\u2014\u2013]|$|\s(?:and|or|is|are|as|which|that|to|for|in|on|with|"
            r"achieves|outperforms|can|\w+ly)\b)")
    if token and is_explicit_name(token[0]) and re.match(ends, text[token.end():]):
        return Contribution(token[0])
    return None


_KIND_AFTER = re.compile(rf"\s+(?:{_KINDS})\b")


def _object_names(rest: str, counts: Counter[str], whole: bool = False, longest: int = 10,
                  apposed: int = 16) -> Iterator[Contribution]:
    """Names in the object of 'we propose ...' (or, passive, the subject of '... is proposed')."""
    lead = _LEAD.match(rest)
    obj = rest[lead.end() if lead else 0:]

    defined = _definition_in(obj)
    if defined:
        yield defined
    # 'we propose "Neural Illumination," a ...', 'a ... model ``RotationNet,\'\' which', 'framework \u2018TibGM\u2019'
    if _ANY_QUOTE.search(obj, 0, _QUOTED_REACH):
        kind = _KIND_BEFORE_QUOTE.search(obj, 0, _QUOTED_REACH)
        quoted = _quoted_name(obj[kind.end() if kind else 0:])
        if quoted:
            yield quoted
    if re.match(r"to\s", obj):  # 'we propose to verify generated SQL': an action, not a thing
        return
    phrase = _TITLE_PHRASE.match(obj)
    if phrase and not whole:  # 'Contrastive Preference Distillation, a ...', 'Lantern, an ...'
        words = phrase[0].split()
        appositive = re.match(r"\s*,\s*((?:an?|the)\s.*)", obj[phrase.end():])
        if appositive and words[0].lower() not in _NOT_NAMES and (len(words) > 1 or is_explicit_name(words[0])):
            yield Contribution(phrase[0])
        # 'We introduce Deep Voice 2, which', 'the Softstar algorithm': a Title Case name the abstract returns to
        version = re.match(r"\s+\d+(?:\.\d+)*\b", obj[phrase.end():])
        name = phrase[0] + (version[0] if version else "")
        after = obj[len(name):]
        kind = _KIND_AFTER.match(after)
        ends = re.match(r"\s*(?:[,(]|\s(?:which|that|to)\b)", after)
        if (kind or ends and len(name.split()) > 1) and words[0].lower() not in _NOT_NAMES \
                and not _is_qualifier(words[-1]) and _mentions(name, counts) >= 2:  # not 'a GAN-based framework'
            yield Contribution(name)
    token = _TOKEN.match(obj)
    if token and (is_coined(token[0]) or _repeated_lower_case_name(token[0], obj)):
        after = obj[token.end():]
        expansion = re.match(r"\s*\(([^()]{3,120})\)", after)
        if expansion and acronym_matches(token[0], expansion[1]) \
                or re.match(r"\s*(?:[,.;:(\u2014\u2013]|$|\s(?:is|as|which|that|for|to|and)\b)", after):
            yield Contribution(token[0])
    end = _OBJECT_END.search(obj)
    head = obj[:end.start() if end else len(obj)]
    if longest < 10:  # after 'our': 'our proposed Text2Interaction framework invokes ...'
        head = " ".join(head.split()[:longest])
    run = _coined_run(head) if len(head.split()) <= longest else None  # 'a variational inference framework OCEAN'
    # a coined word that qualifies the head gives way to a name set off after it: 'a powerful RGBD fusion network,
    # SwinDRNet, for ...'; one before a kind of thing names it: 'a CapSal model which ...'
    after_run = head[head.rfind(run) + len(run):].split() if run and run in head else []
    qualifies = bool(after_run) and _KIND_WORD.fullmatch(after_run[0]) is None
    if run and not qualifies:
        yield Contribution(run)
    yield from _appositives(obj, counts, whole, apposed)
    if run and qualifies:
        yield Contribution(run)


def _appositives(obj: str, counts: Counter[str], whole: bool, apposed: int) -> Iterator[Contribution]:
    """The first name set off by a comma, colon or dash in the object's first few words."""
    for number, punctuation in enumerate(re.finditer(r"[,:;\u2014\u2013]|\s-\s|\.(?:\s|$)", obj)):
        # 'a new method for MARL, QTRAN, which ...', 'a light-weight, power efficient, and general network, ESPNetv2,'
        before = obj[:punctuation.start()]
        if number == 3 or whole or punctuation[0].strip() not in (",", ":", "-", "\u2014", "\u2013") \
                or len(before.split()) > apposed:
            break
        if before.count("(") > before.count(")") and not re.search(r"\(\s*i\.e\.$", before):
            continue  # '... of sizes (e.g., FLOPs)', '(NTMs, NRAMs)': examples; '(i.e., GTT)' names
        appositive = _appositive(obj, before, counts)
        if appositive:
            yield appositive
            return


def _quoted_name(text: str) -> Contribution | None:
    """A name in quotes at the start of text: a few words, the first capitalised or the word coined
    (not scare quotes: 'processors called "stragglers"'). A quoted expansion of an acronym ('"Nearly
    Optimal RST (NORST)"', '"Multiplicative Integration" (MI)') is read as the other definitions are."""
    quoted = _QUOTED.match(text)
    if not quoted or "(" in quoted[0] or not _QUOTED_END.match(text, quoted.end()):
        return None
    name = quoted["quoted"].strip()
    words = name.split()
    if len(words) <= _QUOTED_WORDS and (re.match(r"[A-Z0-9$]", name) or is_coined(words[0])):
        return Contribution(name)
    return None


def _coined_run(head: str) -> str | None:
    """The last coined word of a phrase with the capitalised words and version numbers around it."""
    words = head.split()
    coined = [i for i, word in enumerate(words) if is_coined(word.strip(_QUOTES))]
    if not coined:
        return None
    first = last = coined[-1]
    while first > 0 and last - first < 3 and (re.fullmatch(r"[A-Z][a-z]+(?:-[A-Z][a-z]+)*", words[first - 1])
                                              or is_coined(words[first - 1])):
        first -= 1
    while last + 1 < len(words) and last - first < 3 and re.match(r"[A-Z]|\d+(?:\.\d+)*$", words[last + 1]):
        last += 1
    return " ".join(words[first:last + 1]).strip(_QUOTES)


_LOWER_CASE_NAME = re.compile(r"[a-z][a-z0-9]{3,}")
_KIND_WORD = re.compile(_KINDS)
_APPOSED_KIND = re.compile(r"\s*,\s*(?:an?|the)\s")


def _repeated_lower_case_name(token: str, text: str) -> bool:
    """'We present pagelet, a cache manager ... pagelet keeps ...'."""
    return (_LOWER_CASE_NAME.fullmatch(token) is not None and token not in _NOT_NAMES
            and _KIND_WORD.fullmatch(token) is None
            and _APPOSED_KIND.match(text, len(token)) is not None
            and len(re.findall(rf"\b{re.escape(token)}\b", text)) >= 2)  # as a word: 'work' is not in 'networks'


_APPOSED = re.compile(rf"\s?[-,:\u2014\u2013]\s*[{_QUOTES}]?(?:the\s+)?(?P<phrase>{_TITLE_PHRASE.pattern}|{NAME})"
                      rf"[{_QUOTES}]?\s*(?:[,().;:\u2014\u2013]|$|\s(?:which|that|for|to|is|as|by|with|in|on)\b)")


def _appositive(rest: str, before: str, counts: Counter[str]) -> Contribution | None:
    """A name set off after `before`, the start of `rest`: 'a new method for MARL, QTRAN, which'."""
    after = rest[len(before):]
    apposed = _APPOSED.match(after)
    if not apposed:
        return None
    phrase = apposed["phrase"]
    defined = _definition_at_start(after[apposed.start("phrase"):])
    if defined:
        return Contribution(defined.name)
    words = phrase.split()
    # a phrase a small word opens names nothing: 'For CIFAR-10, we ...', 'With O(n) space, we ...'
    small_word_first = len(words) > 1 and _SMALL_WORD.fullmatch(words[0].lower()) is not None
    if not small_word_first and (is_coined(phrase) or (len(words) > 1 and words[0].lower() not in _NOT_NAMES)):
        return Contribution(phrase)
    if is_explicit_name(phrase) and _mentions(phrase, counts) >= 2:  # 'we develop, Stripformer, a ...'
        return Contribution(phrase)
    return None


def _definition_at_start(text: str) -> Contribution | None:
    """'Long Name (LN)' or 'LN (Long Name)' at the start of text."""
    paren = re.match(r"([^()]{1,160}?)\s*\(\s*([^()]{1,120}?)\s*\)", text)
    if not paren:
        return None
    before, inside = paren[1].strip(_QUOTES + " -"), paren[2].strip(_QUOTES + " ")
    if _TOKEN.fullmatch(before) and is_name_like(before) and len(inside.split()) > 1 \
            and acronym_matches(before, inside):
        return Contribution(before)
    return _definition_in(text, unexpanded=False)


_SHORT_PARENTHESIS = re.compile(r"\(\s*([^()]{1,40}?)\s*\)")


def _definition_in(text: str, unexpanded: bool = True) -> Contribution | None:
    """'(LN)' whose expansion starts the text, give or take a few words: 'augmenting Long Name (LN)'."""
    position = 0
    for _ in range(3):  # the first parentheses only: '(RGB-D) panorama synthesis (BIPS)'
        paren = _SHORT_PARENTHESIS.search(text, position, position + 300)
        if not paren or re.search(r"[;:.]\s", text[position:paren.start()]):
            return None
        # 'a Convolutional Neural Network (CNN)-based model', 'a Multi-Task Learning (MTL) based model', 'a family of
        # maximum mean discrepancy (MMD) kernel tests': the acronym qualifies what is introduced, or a class of things
        # the work's belong to
        if _QUALIFIES.match(text, paren.end()) or _CLASS_OF_THINGS.match(text, paren.end()):
            position = paren.end()
            continue
        inside = paren[1].strip(_QUOTES + " ")
        before = text[:paren.start()].rstrip(_QUOTES + " -\u2014")
        a_name = is_name_like(inside) or is_explicit_name(inside)
        if _TOKEN.fullmatch(inside) and a_name and inside.count("$") % 2 == 0:
            expansion = expansion_before(inside, before) if is_name_like(inside) else None
            if expansion is None and is_name_like(inside) and len(before.split()) <= 14 \
                    and not re.search(r"[,;:]", before) and acronym_matches(inside, before):
                expansion = before  # a long expansion that starts the object: 'Information-guided ... (IDCD)'
            if expansion is None:  # 'a large-scale dataset (RELiC)', 'a primal-dual method (Quartz)'
                plain = len(before.split()) <= 6 and not _OBJECT_END.search(f" {before}") and before[-1:].islower()
                gloss = inside[0].islower() and not is_name_like(inside)  # 'exact (non-asymptotic) intervals'
                named = unexpanded and plain and not gloss and not _mentioned(inside, _word_set(_words(before)))
                return Contribution(inside) if named else None
            gap = before[:len(before) - len(expansion)].rstrip(", ")
            kind = re.search(rf"\b(?:{_KINDS})$", gap)  # 'the novel adaptation method Generative Pseudo Labeling (GPL)'
            if len(gap.split()) <= (6 if kind else 3) and not _OBJECT_END.search(f" {gap}"):
                return Contribution(inside)
            return None
        position = paren.end()
    return None


def expansion_before(short: str, before: str) -> str | None:
    """The words before '(short)' that it abbreviates: their initials when they spell it ('edge enhanced graph
    neural network (EEGNN)'), else the shortest run that holds its letters, after Schwartz and Hearst (2003)."""
    letters = [c.lower() for c in re.sub(r"\$[^$]*\$", "", short) if c.isalpha()]  # C3AE: C, A, E
    if not letters:
        return None
    words = before.split()
    initials = words[-len(letters):]
    if len(initials) == len(letters) and [word[0].lower() for word in initials] == letters:
        return " ".join(initials)
    text = " ".join(words[-min(len(letters) + 5, 2 * len(letters)):])
    position = len(text) - 1
    for index in range(len(letters) - 1, -1, -1):
        while position >= 0 and (text[position].lower() != letters[index]
                                 or (index == 0 and position > 0 and text[position - 1].isalnum())):
            position -= 1
        if position < 0:
            return None
        position -= 1
    expansion = text[text.rfind(" ", 0, position + 1) + 1:]
    return expansion if short not in expansion.split() else None


@functools.lru_cache(maxsize=1 << 14)  # asked of the same words again and again
def is_coined(token: str) -> bool:
    """A name-like token that is not a qualifier ('GPU-friendly', 'Event-Aware') or a word whose capitals spell
    an acronym's letters ('TExt' of 'TExt Generation (TegTok)', 'eVENt' of 'LEgal eVENt (LEVEN)')."""
    return (is_name_like(token) and not _is_qualifier(token) and token.count("$") % 2 == 0
            and len(re.findall(r"[A-Za-z]", re.sub(r"\$[^$]*\$", "", token))) >= 2
            and not re.fullmatch(r"[A-Z][a-z]+(?:-[A-Za-z][a-z]+)+|[A-Z]{2}[a-z]{3,}|[a-z]+[A-Z]{2,}[a-z]+", token))


def _is_qualifier(word: str) -> bool:
    """'GPU-friendly', 'GAN-based': a word that qualifies a noun."""
    return re.search(r"-[a-z]{3,}$", word) is not None


@functools.lru_cache(maxsize=1 << 14)
def is_name_like(token: str) -> bool:
    """A coined name: mixed case (EgoTSR), several capitals (ASAP), or letters with digits."""
    letters = re.sub(r"\$[^$]*\$", "", token)
    capitals = sum(c.isupper() for c in letters)
    camel = re.search(r"[a-z][A-Z]", letters) is not None
    digits_and_letters = re.search(r"\d", letters) and re.search(r"[A-Za-z]", letters)
    math_and_letters = "$" in token and re.search(r"[A-Za-z]{2}", letters)  # $\alpha$-Balance, DPM-$\lambda$
    distinctive = capitals >= 2 or camel or bool(digits_and_letters) or bool(math_and_letters)
    quantity = re.fullmatch(r"[\d.,]+[KMBkmxD]", letters)  # '12K' samples, '10x', '3D': a number and its unit
    return (2 <= len(letters.strip("-")) <= 40 and distinctive and not quantity
            and not letters.endswith(("-based", "-like")))


@functools.lru_cache(maxsize=1 << 14)
def is_explicit_name(token: str) -> bool:
    """After 'named', 'we call ...' or 'Our framework, X,': also plain words (Tessera, snapshot-rs)."""
    plain_word = re.fullmatch(r"[A-Z][a-z]{2,}\+*|[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+", token) is not None
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


_ACRONYM_CAPITALS = re.compile(r"[A-Z]{2}[a-z]{3,}")
_ONE_INNER_CAPITAL = re.compile(r"[a-z]+[A-Z][a-z]+")


def normalise_expansion(expansion: str) -> str:
    """Undo capitals that mark an acronym's letters: 'REconstruction' -> 'Reconstruction'."""
    words = []
    for word in expansion.split():
        if _ACRONYM_CAPITALS.fullmatch(word):
            word = word.capitalize()
        elif _ONE_INNER_CAPITAL.fullmatch(word):
            word = word.lower()
        words.append(word)
    return " ".join(words)


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
    proper = len(words) == 1 and re.fullmatch(r"[A-Z][a-z]{2,}", prefix.strip()) and prefix.lower() not in _NOT_NAMES
    if proper and re.search(rf"[a-z,]\s+{re.escape(prefix.strip())}\b", abstract):
        return prefix.strip()
    return None
