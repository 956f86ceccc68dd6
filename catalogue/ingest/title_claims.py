"""Where an abstract says what its paper adds, for the title to say it too (issue 42: a title from a background
sentence names the field or others' work, not the paper).

A claim is a claim verb ('propose', 'present', 'study': abstract_words.CLAIM_FORMS) after its claimant ('we', 'this
paper', 'our work') in one sentence, or a passive one ('A method ... is proposed'). Its object starts within a few
words of the verb, after a framing ('the problem of'); a phrase from deeper in the sentence is a fragment of it.
When the claim offers no phrase that makes a title, the title quotes the claim, marked as a quotation, rather than
take a phrase from another sentence.
"""

from __future__ import annotations

from catalogue.ingest.abstract_words import ARTICLES, CLAIM_FORMS, LINKING, Word
from catalogue.ingest.title_spans import ANAPHORA, generic

_CLAIMANTS = {"we", "paper", "work", "i"}  # who makes a claim: 'we propose', 'this paper studies', 'our work presents'
_CLAIM_WORDS = 3  # the object of a claim starts within: 'we propose [a [simple [method ...' or 'we propose X, a ...'
_FRAMES = {"problem", "task", "question", "study", "setting"}  # 'we study the problem of X': X is the object
_PASSIVE = {"is", "are", "was", "were"}  # 'A probabilistic framework ... is developed': the subject is the object


def claim_objects(words: tuple[Word, ...], name: tuple[str, ...] = ()) -> dict[int, tuple[str, int]]:
    """Where the object of a claim may start: the claim's kind ('introduce', 'study', 'show') and its order among
    the claims. The name's words and a bracket ('we propose X (Long Name), a ...') do not count towards the few
    words within which the object starts."""
    found: dict[int, tuple[str, int]] = {}
    for index, word in enumerate(words):
        kind = CLAIM_FORMS.get(word.lowered)
        if not kind:
            continue
        same = [at for at in range(max(0, index - 3), index) if words[at].sentence == word.sentence]
        order = len({claim for claim in found.values()})
        if any(words[at].lowered in _CLAIMANTS for at in same):
            for at in _object_starts(words, index, name):
                found.setdefault(at, (kind, order))
            frame = _after_frame(words, index + 1)
            if frame is not None:
                found.setdefault(frame, (kind, order))
        elif _passive(words, index, same):
            first = next(at for at in range(index, -1, -1) if at == 0 or words[at - 1].sentence != word.sentence)
            found.setdefault(first, (kind, order))
    return found


def _object_starts(words: tuple[Word, ...], verb: int, name: tuple[str, ...]) -> list[int]:
    """The words after a claim verb its object may start on: the first _CLAIM_WORDS, and when the name comes first
    ('we propose X (Long Name), a ...'), the first _CLAIM_WORDS after the break that ends the name and its bracket."""
    same = [at for at in range(verb + 1, min(len(words), verb + 1 + _NAMED_REACH))
            if words[at].sentence == words[verb].sentence]
    starts = same[:_CLAIM_WORDS]
    if name and same and any(set(words[at].tokens) & set(name) for at in same[:2]):
        after = next((n + 1 for n, at in enumerate(same)
                      if words[at].closes and not words[at].opens and n + 1 < len(same)), None)
        if after is not None:
            starts += same[after:after + _CLAIM_WORDS]
    return starts


_NAMED_REACH = 16  # words after a claim verb within which a name and its bracket end


def _passive(words: tuple[Word, ...], index: int, same: list[int]) -> bool:
    """'A framework ... is developed', not the relative clause of 'schemes, which are proposed to ...'."""
    return bool(same) and words[index - 1].lowered in _PASSIVE and words[index].lowered.endswith("ed") \
        and not (len(same) > 1 and words[index - 2].lowered in _RELATIVE)


_RELATIVE = {"which", "that", "who"}


def _after_frame(words: tuple[Word, ...], start: int) -> int | None:
    """Where the subject of 'the problem of X' starts, when the object opens on such a frame."""
    at = start + (start < len(words) and words[start].lowered in ARTICLES)
    if at + 2 < len(words) and words[at].lowered in _FRAMES and words[at + 1].lowered == "of" \
            and words[at + 2].sentence == words[start].sentence:
        return at + 2
    return None


def quoted_claim(words: tuple[Word, ...], room: int) -> str | None:
    """The first claim of what the paper adds, quoted from its claimant ('We', 'This paper') or, for a passive
    claim, its sentence's start, to the first break after its object opens ('“We propose to explain the predictions
    of a deep neural network …”') in `room` characters, never ending on a word that needs another; None without
    such a claim."""
    begin = None
    for index, word in enumerate(words):
        if CLAIM_FORMS.get(word.lowered) != "introduce":
            continue
        same = [at for at in range(max(0, index - 3), index) if words[at].sentence == word.sentence]
        claimant = max((at for at in same if words[at].lowered in _CLAIMANTS), default=None)  # 'this paper, we'
        if claimant is None and not _passive(words, index, same):
            continue
        if claimant is not None:
            begin = claimant - (claimant > 0 and words[claimant].lowered in {"paper", "work"}
                                and words[claimant - 1].sentence == word.sentence)  # 'this paper', 'our work'
            break
        begin = next(at for at in range(index, -1, -1) if at == 0 or words[at - 1].sentence != word.sentence)
        break
    if begin is None or _generic_object(words, index):
        return None
    quoted: list[str] = []
    for word in words[begin:begin + _QUOTED_WORDS]:
        if word.sentence != words[begin].sentence:
            break
        quoted.append(word.core)
        if word.closes and len(quoted) > 5:
            break
    while quoted and (quoted[-1].lower() in LINKING or len(" ".join(quoted)) + 4 > room):
        quoted.pop()
    if any(word.lower() in ANAPHORA for word in quoted):
        return None  # ('we propose a method to address this issue …' says nothing read alone)
    text = " ".join(quoted)
    return f"\u201c{text[:1].upper()}{text[1:]} \u2026\u201d"


def _generic_object(words: tuple[Word, ...], verb: int) -> bool:
    """Whether the claim's object, to its first break, is generic words alone ('we propose a new approach, ...'):
    quoted, it would say nothing a title should."""
    end = verb + 1
    while end + 1 < len(words) and words[end + 1].sentence == words[verb].sentence and not words[end].closes:
        end += 1
    return generic(words, verb + 1, end)


_QUOTED_WORDS = 18  # a claim quoted this far says what the paper adds; a whole sentence would be no title
