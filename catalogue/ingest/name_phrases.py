"""A name read from the phrase a cue points at: the object of 'we propose ...' (or the subject of '... is
proposed'), the words after 'called', a definition ('Long Name (LN)', 'LN (Long Name)'), a name set off
by a comma or a colon ('a new method for MARL, QTRAN, which'), a name in quotes. Each reading prefers no
name to a wrong one: an acronym that qualifies what is introduced ('a CNN-based model') is not its name.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

from catalogue.ingest.acronyms import acronym_matches, expansion_before
from catalogue.ingest.name_shapes import (NAME, NAME_TOKEN, NOT_NAMES, QUOTES, Contribution, is_coined,
                                          is_explicit_name, is_name_like, is_qualifier, mention_count, mentioned,
                                          word_set, written_words)

KINDS = (r"algorithm|method|framework|model|system|approach|library|toolkit|dataset|benchmark|corpus|architecture|"
         r"network|format|technique|procedure|estimator|module|paradigm|scheme|strategy|mechanism|simulator|platform")
_QUALIFIES = re.compile(r"-\w|\s+based\b(?!\s+(?:on|upon)\b)")  # '(CNN)-based', '(MTL) based'; not '(X) based on'
_SMALL_WORDS = r"a|an|the|of|for|in|on|at|to|by|with|from|into|via|as|and|or|that|which|who|is|are|was|were"
_SMALL_WORD = re.compile(_SMALL_WORDS)
_CLASS_OF_THINGS = re.compile(  # '(MMD) kernel two-sample tests', '(GDA) methods'; not '(GDS) for linear models'
    rf"\s+(?:(?!(?:{_SMALL_WORDS})\b)[a-z][\w-]*\s+){{0,2}}?(?:(?:{KINDS})e?s|tests|fields)\b")
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
# A name the authors put in quotes: '``RotationNet,\'\'', '"Neural Illumination,"', '\u2018TibGM\u2019'.
_QUOTED = re.compile(rf"[{QUOTES}]{{1,2}}(?P<quoted>[A-Za-z0-9$][^{QUOTES}]{{0,48}}?)[,.]?[{QUOTES}]{{1,2}}")
_QUOTED_WORDS = 4
# The quoted name ends its phrase ('"Co-teaching" for ...', '"Neural Illumination," a new approach'); it only
# qualifies one that goes on ('"Contrastive-Prototypical" self-supervised learning for Kriging (KCP)').
_QUOTED_END = re.compile(r"\s*(?:[,.;:)\u2014\u2013-]|$|\s(?:an?|the|which|that|for|to|is|as|in|on|with|and|or)\b)")
_QUOTED_REACH = 120  # characters of an object that a kind of thing and a quoted name may start in
_ANY_QUOTE = re.compile(f"[{QUOTES}]")
_KIND_BEFORE_QUOTE = re.compile(rf"\b(?:{KINDS})\s+(?=[{QUOTES}])")


def named_after(text: str) -> Contribution | None:
    """The name right after a naming word: 'Long Name (LN)', 'LN (Long Name)', 'Split LBI', 'TRIX', '"Co-teaching"'."""
    quoted = _quoted_name(text.lstrip())
    if quoted:
        return quoted
    text = text.lstrip(" " + QUOTES)
    text = re.sub(r"^(?:as|an?|the)\s+", "", text, flags=re.IGNORECASE)
    defined = _definition_at_start(text)
    if defined:
        return defined
    phrase = _TITLE_PHRASE.match(text)
    if phrase:
        words = phrase[0].rstrip("." + QUOTES).split()
        rest = text[phrase.start() + len(" ".join(words)):].lstrip(QUOTES)
        alias = re.match(rf"\s*,?\s+or\s+{NAME}", rest)  # 'Dynamic Recurrent ... Networks, or DRAGNN'
        if alias and is_name_like(alias["name"]) and acronym_matches(alias["name"], " ".join(words)):
            return Contribution(alias["name"])
        while len(words) > 1 and words[-1].lower() in {"of", "for", "with", "and", "the", "to", "via", "in", "on"}:
            words.pop()
        ends = re.match(rf"[{QUOTES}]?\s*(?:[,.;:()\u2014\u2013]|$|\s(?:and|or|but|is|as|which|that|for|to|in|on|"
                        r"with|outperforms|achieves|can)\b)", rest)
        if ends and (len(words) > 1 and words[0].lower() not in NOT_NAMES or is_explicit_name(words[0])):
            return Contribution(" ".join(words).strip(QUOTES))
        if len(words) > 1:
            return None
    token = NAME_TOKEN.match(text)
    # the name ends there: 'named TRIX to learn', not 'the Stackelberg-Littlestone dimension'
    ends = (rf"[{QUOTES}]?\s*(?:[,.;:()\u2014\u2013]|$|\s(?:and|or|is|are|as|which|that|to|for|in|on|with|"
            r"achieves|outperforms|can|\w+ly)\b)")
    if token and is_explicit_name(token[0]) and re.match(ends, text[token.end():]):
        return Contribution(token[0])
    return None


_KIND_AFTER = re.compile(rf"\s+(?:{KINDS})\b")


def object_names(rest: str, counts: Counter[str], whole: bool = False, longest: int = 10,
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
        if appositive and words[0].lower() not in NOT_NAMES and (len(words) > 1 or is_explicit_name(words[0])):
            yield Contribution(phrase[0])
        # 'We introduce Deep Voice 2, which', 'the Softstar algorithm': a Title Case name the abstract returns to
        version = re.match(r"\s+\d+(?:\.\d+)*\b", obj[phrase.end():])
        name = phrase[0] + (version[0] if version else "")
        after = obj[len(name):]
        kind = _KIND_AFTER.match(after)
        ends = re.match(r"\s*(?:[,(]|\s(?:which|that|to)\b)", after)
        if (kind or ends and len(name.split()) > 1) and words[0].lower() not in NOT_NAMES \
                and not is_qualifier(words[-1]) and mention_count(name, counts) >= 2:  # not 'a GAN-based framework'
            yield Contribution(name)
    token = NAME_TOKEN.match(obj)
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
    coined = [i for i, word in enumerate(words) if is_coined(word.strip(QUOTES))]
    if not coined:
        return None
    first = last = coined[-1]
    while first > 0 and last - first < 3 and (re.fullmatch(r"[A-Z][a-z]+(?:-[A-Z][a-z]+)*", words[first - 1])
                                              or is_coined(words[first - 1])):
        first -= 1
    while last + 1 < len(words) and last - first < 3 and re.match(r"[A-Z]|\d+(?:\.\d+)*$", words[last + 1]):
        last += 1
    return " ".join(words[first:last + 1]).strip(QUOTES)


_LOWER_CASE_NAME = re.compile(r"[a-z][a-z0-9]{3,}")
_KIND_WORD = re.compile(KINDS)
_APPOSED_KIND = re.compile(r"\s*,\s*(?:an?|the)\s")


def _repeated_lower_case_name(token: str, text: str) -> bool:
    """'We present pagelet, a cache manager ... pagelet keeps ...'."""
    return (_LOWER_CASE_NAME.fullmatch(token) is not None and token not in NOT_NAMES
            and _KIND_WORD.fullmatch(token) is None
            and _APPOSED_KIND.match(text, len(token)) is not None
            and len(re.findall(rf"\b{re.escape(token)}\b", text)) >= 2)  # as a word: 'work' is not in 'networks'


_APPOSED = re.compile(rf"\s?[-,:\u2014\u2013]\s*[{QUOTES}]?(?:the\s+)?(?P<phrase>{_TITLE_PHRASE.pattern}|{NAME})"
                      rf"[{QUOTES}]?\s*(?:[,().;:\u2014\u2013]|$|\s(?:which|that|for|to|is|as|by|with|in|on)\b)")


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
    if not small_word_first and (is_coined(phrase) or (len(words) > 1 and words[0].lower() not in NOT_NAMES)):
        return Contribution(phrase)
    if is_explicit_name(phrase) and mention_count(phrase, counts) >= 2:  # 'we develop, Stripformer, a ...'
        return Contribution(phrase)
    return None


def _definition_at_start(text: str) -> Contribution | None:
    """'Long Name (LN)' or 'LN (Long Name)' at the start of text."""
    paren = re.match(r"([^()]{1,160}?)\s*\(\s*([^()]{1,120}?)\s*\)", text)
    if not paren:
        return None
    before, inside = paren[1].strip(QUOTES + " -"), paren[2].strip(QUOTES + " ")
    if NAME_TOKEN.fullmatch(before) and is_name_like(before) and len(inside.split()) > 1 \
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
        inside = paren[1].strip(QUOTES + " ")
        before = text[:paren.start()].rstrip(QUOTES + " -\u2014")
        a_name = is_name_like(inside) or is_explicit_name(inside)
        if NAME_TOKEN.fullmatch(inside) and a_name and inside.count("$") % 2 == 0:
            expansion = expansion_before(inside, before) if is_name_like(inside) else None
            if expansion is None and is_name_like(inside) and len(before.split()) <= 14 \
                    and not re.search(r"[,;:]", before) and acronym_matches(inside, before):
                expansion = before  # a long expansion that starts the object: 'Information-guided ... (IDCD)'
            if expansion is None:  # 'a large-scale dataset (RELiC)', 'a primal-dual method (Quartz)'
                plain = len(before.split()) <= 6 and not _OBJECT_END.search(f" {before}") and before[-1:].islower()
                gloss = inside[0].islower() and not is_name_like(inside)  # 'exact (non-asymptotic) intervals'
                named = unexpanded and plain and not gloss and not mentioned(inside, word_set(written_words(before)))
                return Contribution(inside) if named else None
            gap = before[:len(before) - len(expansion)].rstrip(", ")
            kind = re.search(rf"\b(?:{KINDS})$", gap)  # 'the novel adaptation method Generative Pseudo Labeling (GPL)'
            if len(gap.split()) <= (6 if kind else 3) and not _OBJECT_END.search(f" {gap}"):
                return Contribution(inside)
            return None
        position = paren.end()
    return None
