"""The spans of an abstract that could be its title, each with the expected token F1 of the title it
makes: whole phrases of one sentence that start where a phrase starts and end where one ends, never on
a word that needs another after it, never through a finite verb, closing the brackets they open; of
enough words to tell a paper from others, fewer for a subject the abstract frames ("we study the
problem of X") or two words seldom written together.
"""

from __future__ import annotations

from typing import NamedTuple

from catalogue.ingest.abstract_words import (ARTICLES, CLAIM_FORMS, DETERMINERS, LINKING, LONGEST_SPAN, SMALL_WORDS,
                                             Word, tokens_of)
from catalogue.ingest.title_model import TitleModel, content_pairs, is_modifier

_SHORTEST_SUBJECT = 2  # words of a subject an abstract frames as such: "we study the problem of X"
# Words that point at others' work or the field at large ('Recent Advances in ...', 'Existing Methods'), which real
# titles do not open with: a phrase that starts on one (or on an article and one) is the last resort.
_BACKGROUND = {"recent", "existing", "previous", "current", "conventional", "traditional", "popular", "typical",
               "many", "several", "various", "numerous", "most", "given", "since", "state-of-the-art"}
# Words that point back at what the abstract said before ('Aforementioned Structures', 'Such Models'): a title is
# read alone, so a phrase that opens on one is a last resort too.
_POINTING_BACK = {"aforementioned", "such", "this", "these", "those", "said", "above", "above-mentioned",
                  "latter", "former", "same"}
# Words a phrase begins after: prepositions, articles, conjunctions, linking verbs, namings.
_LINKING_VERBS = {"is", "are", "was", "were", "be", "been"}
_PHRASE_BEFORE = (SMALL_WORDS - {"to"}) | _LINKING_VERBS | {"about", "versus", "against", "during", "called",
                                                            "named", "termed", "dubbed", "using", "namely"}
# Words after which a verb does not make the title a sentence: a noun ('the study'), an infinitive ('to learn'),
# a relative clause, which a title may hold ('Algorithms That Belong to ...').
_NOT_FINITE = DETERMINERS | {"to", "that"}
# Nouns that frame what a sentence is about ("we study the problem of ..."): a title says the subject itself
# when the subject alone makes one.
_FRAMING_HEADS = {"problem", "task", "goal", "aim", "purpose", "question", "issue", "challenge", "notion", "idea",
                  "topic", "context", "case", "setting", "field", "area"}
# Words that open a verb's object.
_OBJECT_START = DETERMINERS | {"many", "several", "multiple", "two", "three", "both", "no"}


class Span(NamedTuple):
    start: int
    end: int  # exclusive
    expected_f1: float  # of the title this span makes, from the words' probabilities
    background: bool = False  # opens on others' work or the field at large: a title only when nothing else is


def candidate_spans(words: tuple[Word, ...], probabilities: dict[int, tuple[float, ...]], model: TitleModel,
                    name: str | None, room: int, shortest: int, shortest_specific: int | None = None) -> list[Span]:
    """Every well-formed phrase of one sentence that fits in `room` characters and closes the brackets it
    opens (none it did not), in the order of the text: of `shortest` words or more, or of
    `shortest_specific` or more besides a leading article when two of its words side by side are not a
    field's name (common_pairs)."""
    shortest_specific = shortest if shortest_specific is None else min(shortest, shortest_specific)
    named = tokens_of(name) if name else ()
    name_tokens = len(named)
    name_gain = model.name_in_title * name_tokens
    naming = _name_words(words, name)
    may_end, blocked, finite, joins = _phrase_parts(words, naming, model)
    chances = [probabilities.get(index, ()) for index in range(len(words))]
    # "the problem of" frames a subject the abstract states: the subject is a candidate even when short
    framings = [_framing(words, index) for index in range(len(words))]
    subjects = {index + framing for index, framing in enumerate(framings) if framing == 3}
    spans = []
    for start in probabilities:
        if blocked[start] or finite[start] or not _may_start(words, start) or framings[start]:
            continue
        background = _background(words, start)
        least = min(shortest, _SHORTEST_SUBJECT) if start in subjects else shortest
        gain, length, characters = name_gain, name_tokens, -1
        held = set(named)  # a token said twice in a title (the name's included) matches the real title's once
        leading_article = words[start].lowered in ARTICLES  # "A Scalable Solution" says two words
        depth = 0  # brackets open in the span
        for end in range(start, min(len(words), start + LONGEST_SPAN)):
            if end > start and not joins[end]:
                break
            current = words[end]
            depth += current.brackets
            if depth < 0:
                break
            for token, probability in zip(current.tokens, chances[end]):
                if token not in held:
                    gain += probability
                    held.add(token)
            length += len(current.tokens)
            characters += 1 + len(current.core)
            if characters > room:
                break
            count = end - start + 1
            if may_end[end] and not depth and (count >= least or count - leading_article >= shortest_specific
                                               and _whole(words, end) and _specific(words, start, end, model)):
                spans.append(Span(start, end + 1, 2 * gain / (length + model.title_tokens), background))
            if current.closes:
                break
    return spans


def _framing(words: tuple[Word, ...], start: int) -> int:
    """How many words of a phrase from `start` frame its subject: 3 for "the problem of ...", 2 for
    "problem of ..." after an article, else 0."""
    head = start + (words[start].lowered in ARTICLES)
    if head + 1 < len(words) and words[head].lowered in _FRAMING_HEADS and words[head + 1].lowered == "of" \
            and head > 0 and words[head - 1].lowered in ARTICLES:
        return head - start + 2
    return 0


def _background(words: tuple[Word, ...], start: int) -> bool:
    """Whether a phrase from `start` opens on what others did or the field at large (_BACKGROUND), or on
    what the abstract said before (_POINTING_BACK)."""
    first = words[start].lowered
    if first in ARTICLES and start + 1 < len(words):
        first = words[start + 1].lowered
    return first in _BACKGROUND or first in _POINTING_BACK


def _whole(words: tuple[Word, ...], index: int) -> bool:
    """Whether a phrase ending on the word is whole: not 'Robust Experimental Design' of '... Design under
    Model Misspecification' (a short phrase must be)."""
    word = words[index]
    return word.closes or index + 1 == len(words) or words[index + 1].sentence != word.sentence \
        or words[index + 1].lowered not in LINKING


def _specific(words: tuple[Word, ...], start: int, end: int, model: TitleModel) -> bool:
    """Whether two words of the phrase side by side (or two parts of one: 'Camera-Radar') are a pair few
    abstracts write together: not a field's name alone."""
    tokens = tuple(token for word in words[start:end + 1] for token in word.tokens)
    return any(pair not in model.common_pairs for pair in content_pairs(tokens))


def _phrase_parts(words: tuple[Word, ...], naming: set[int], model: TitleModel) -> tuple[list[bool], ...]:
    """Each word's part in a phrase, in one pass: whether a phrase may end on it (not on one of the model's
    modifiers: 'in Multi-Class', 'a Single'); whether it blocks one (the name,
    a clausal word, a lone dash or '&'); whether it reads as a finite verb; whether a phrase may run on into it
    from the word before.

    A finite verb ('Tasks Contain Uncertainty') makes a clause of a title: one of the model's verbs, unless an
    article makes it a noun ('a study of'), 'to' an infinitive ('A Method to Learn') or 'that' a relative clause
    (_NOT_FINITE). A verb with its object after it ('requires many', 'supports a', 'showing that') may start a
    title ('Learning the Structure of ...'), never be held further on."""
    verbs = model.verbs
    may_end, blocked, finite, joins = [], [], [], []
    last = len(words) - 1
    before = None
    for index, word in enumerate(words):
        following = words[index + 1] if index < last else None
        ends_sentence = following is None or following.sentence != word.sentence
        lowered = word.lowered
        may_end.append(word.may_close and not is_modifier(lowered, model.modifiers)
                       and (word.closes or ends_sentence or following.opens or following.breaks))
        stops = index in naming or word.clausal or not word.tokens
        blocked.append(stops)
        verb = lowered in verbs and (before is None or before.lowered not in _NOT_FINITE)
        finite.append(verb)
        takes_object = not ends_sentence and not (lowered in _PHRASE_BEFORE or lowered in LINKING) and (
            following.lowered in _OBJECT_START or (following.lowered == "that" and lowered.endswith(("ing", "ed"))))
        joins.append(before is not None and before.sentence == word.sentence
                     and not (stops or word.opens or verb or takes_object))
        before = word
    return may_end, blocked, finite, joins


def _name_words(words: tuple[Word, ...], name: str | None) -> set[int]:
    """Where the abstract writes the name, which the title already leads with (a name may be several words)."""
    if not name:
        return set()
    parts = name.lower().split()
    found = set()
    for index in range(len(words) - len(parts) + 1):
        if parts[0] in words[index].lowered and all(
                part == words[index + n].lowered for n, part in enumerate(parts[1:], 1)):
            found.update(range(index, index + len(parts)))
    return found


def _may_start(words: tuple[Word, ...], index: int) -> bool:
    word = words[index]
    if not word.may_open:
        return False
    if index == 0 or words[index - 1].sentence != word.sentence or words[index - 1].closes or word.opens:
        return True
    before = words[index - 1].lowered
    if before in _LINKING_VERBS:  # "is a method for ...", not "is crucial for ..."
        return word.lowered in ARTICLES
    return before in _PHRASE_BEFORE or before in CLAIM_FORMS
