"""A title from what the abstract says the paper adds: the object of its claim ('We propose X, a method for Y';
'We study the problem of Z'), as a phrase a reader can take alone (issue 42).

A claim is a claim verb (abstract_words.CLAIM_FORMS) after its claimant ('we', 'this paper', 'our work'), or a
passive one ('A method ... is proposed'). What the paper introduces is read before what it studies; a claim that
only shows something ('we show that ...') names no thing. The object runs from the verb to the first place where
the phrase stops naming it: a clause ('which', 'while', 'and' before a verb), a naming ('called X'), a comma after
its head, a phrase pointing back at the abstract ('to address these problems'), or the end of the sentence. A
long object is cut where a phrase of it starts ('for', 'with', 'that'), never inside one; one of generic words
alone ('a new approach') makes no title. A name the claim gives leads the title ('X: A Method for Y').
"""

from __future__ import annotations

import re

from catalogue.ingest.abstract_words import (ARTICLES, CLAIM_FORMS, LINKING, OPENERS, open_brackets, sentence_pieces,
                                             tokens_of)
from catalogue.ingest.acronyms import normalise_expansion
from catalogue.ingest.title_casing import articles_agree, title_case, without_novel
from catalogue.ingest.title_model import TitleModel, is_modifier, load_model

MOST_WORDS = 14  # real titles seldom run longer
_CLAIMANTS = {"we", "paper", "work", "article", "i", "manuscript", "note", "chapter"}
_PASSIVE = {"is", "are"}
_TRAILING = ",;:.!?)]}\"'\u201d\u2019"
# Words before which a claim's object has stopped naming the thing: clauses, namings, asides.
_STOP_BEFORE = {"we", "which", "where", "when", "whereby", "wherein", "while", "whose", "who", "thereby", "thus",
                "hence", "but", "whereas", "although", "because", "since", "i.e.", "e.g.", "namely", "so", "here",
                "called", "named", "termed", "dubbed", "coined", "titled", "entitled", "referred", "known", "as", "if",
                "leading", "resulting", "yielding", "allowing", "enabling", "making", "achieving", "showing",
                "outperforming", "including"}
# Words that point back at what the abstract said before: a title is read alone.
_POINTING_BACK = {"this", "these", "those", "such", "above", "aforementioned", "above-mentioned", "said", "latter",
                  "former", "them", "it", "its", "their", "our", "same"}
# Others' work or the field at large: a phrase of the object holding one is background, not the paper's.
_BACKGROUND = {"existing", "previous", "prior", "conventional", "traditional", "standard", "classic", "classical",
               "current", "popular", "recent"}
_COUNTS = {"two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "several", "many", "some",
           "various", "multiple", "numerous"}
# Words where a phrase of the object starts: a long object is cut before one of them.
_PHRASE_STARTS = {"for", "in", "on", "with", "via", "by", "using", "through", "that", "to", "from", "under", "over",
                  "across", "without", "based", "given", "at", "towards", "toward", "into", "against", "beyond",
                  "inspired", "built", "designed", "tailored", "trained", "guided"}
_MEANS = {"by", "via", "through"}  # before a gerund, how the thing is done ('by casting ...'): not what it is
# Frames of a subject: 'we study the problem of X' is about X.
_FRAMES = {"problem", "task", "question", "challenge", "issue", "setting"}
# Words that say what kind of thing a contribution is, or praise it, without saying what it is.
_GENERIC = {"approach", "method", "methods", "framework", "model", "models", "algorithm", "algorithms", "technique",
            "techniques", "system", "scheme", "strategy", "paradigm", "architecture", "solution", "tool", "procedure",
            "way", "mechanism", "pipeline", "formulation", "analysis", "study", "methodology", "simple", "effective",
            "efficient", "general", "unified", "new", "principled", "generic", "flexible", "powerful", "practical",
            "scalable", "novel", "first", "alternative", "different", "various", "several", "two", "three", "set",
            "family", "class", "variant", "type", "kind", "form", "extension", "generalization", "version",
            "improved", "end-to-end", "lightweight", "robust", "fast", "theoretical", "empirical",
            "comprehensive", "systematic", "detailed", "thorough", "extensive", "large-scale", "effectiveness",
            "problem", "setting", "task", "benchmark", "dataset", "results", "result", "insights", "understanding",
            "perspective", "view", "idea", "concept", "notion", "collection", "suite", "series", "number",
            "evaluation", "investigation", "experiments", "experimental", "work", "bound", "bounds", "upper", "lower",
            "tight", "major", "main", "key", "important", "four", "five", "angle", "contribution", "contributions",
            "findings", "observations", "technical", "some", "many", "open-source", "code", "implementation", "source",
            "means", "direction", "directions", "step", "steps", "answer", "answers", "questions", "question",
            "shortcoming", "shortcomings", "limitation", "limitations", "challenge", "challenges", "gap", "effect",
            "effects", "role", "impact", "behavior", "behaviour", "properties", "performance", "learning", "enhanced",
            "conceptually", "regularization"}


def claim_title(abstract: str, name: str | None, model: TitleModel | None = None, room: int = 110) -> str | None:
    """'Name: Object' or 'Object' from the abstract's claim, in title case; None when no claim names a
    specific thing in `room` characters. The title model's verbs are read as verbs after 'and' ('and show
    ...'); a phrase never ends on one of its modifiers ('a single')."""
    model = model or load_model()
    for pieces in sentence_pieces(abstract):
        for kind in ("introduce", "study", "show"):
            found = _claim_object(pieces, kind, model.verbs)
            if not found or kind == "show" and _lower(found[0]) != "how":
                continue
            title = _title(found, name, model, room)
            if title:
                return title
    return None


def _core(piece: str) -> str:
    return piece.lstrip(OPENERS).rstrip(_TRAILING)


def _lower(piece: str) -> str:
    return _core(piece).lower()


def _claim_object(pieces: list[str], kind: str, verbs: frozenset[str]) -> list[str] | None:
    """The words after the sentence's first claim verb of `kind` whose subject is the claimant ('we also propose',
    not 'we let users give'), or a passive claim's subject."""
    lowered = [_lower(piece) for piece in pieces]
    for index, word in enumerate(lowered):
        if CLAIM_FORMS.get(word) != kind:
            continue
        before = lowered[max(0, index - 3):index]
        claimant = max((n for n, w in enumerate(before) if w in _CLAIMANTS), default=None)
        if claimant is not None and all(
                w in _BETWEEN or w.endswith("ly") or w in verbs or w in CLAIM_FORMS for w in before[claimant + 1:]) \
                and not any(p.endswith((",", ";", ":")) for p in pieces[index - len(before) + claimant:index]):
            return pieces[index + 1:]
        if kind == "introduce" and before[-1:] and before[-1] in _PASSIVE and word.endswith("ed") and index > 2:
            subject = pieces[:index - 1]
            opening = next((n + 1 for n, piece in enumerate(subject[:5]) if piece.endswith(",")), 0)
            subject = subject[opening:]  # 'In this paper, a method ... is proposed'
            if subject and _lower(subject[0]) in ARTICLES:
                return subject
    return None


# Words between a claim verb and its object that say how the claim is made ('we propose here', 'we study formally'),
# not what the object is ('widely used', 'weakly supervised').
_ADVERBS = {"here", "also", "first", "further", "then", "now", "formally", "briefly", "empirically", "theoretically",
            "systematically", "thoroughly", "carefully", "rigorously", "extensively", "explicitly", "finally",
            "additionally", "specifically", "instead", "therefore", "thus", "herein", "subsequently", "next"}
# Words between a claimant and its verb: 'we also propose', 'we formally define and study'.
_BETWEEN = {"and", "also", "here", "further", "first", "then", "now", "thus", "therefore", "instead", "additionally",
            "finally", "next", "subsequently", "hence"}


def _title(pieces: list[str], name: str | None, model: TitleModel, room: int) -> str | None:
    pieces = _opening(pieces)
    if not pieces:
        return None
    named, pieces = _named(pieces, name)
    if named and open_brackets(named):
        return None  # ('LSTD(λ': a name cut inside its brackets)
    phrase = _cut(_long_head(_object(pieces, name or named, model)), room - len(f"{named}: ") if named else room,
                  model.modifiers)
    # ('a framework for (...)' ends on 'for' once the aside goes)
    phrase = _closed(_without_brackets(phrase), model.modifiers)
    specific = [w for piece in phrase for w in tokens_of(piece) if w not in LINKING and w not in _GENERIC]
    if len([w for piece in phrase for w in tokens_of(piece) if w not in LINKING]) < 2 or len(specific) < 2:
        return None  # ('RIM: A Learning Framework' says less than the name's own words)
    words = [piece.strip("\"\u201c\u201d") for piece in phrase]
    words[-1] = words[-1].rstrip(",;:.!?")
    words = [normalise_expansion(word) for word in without_novel(words)]
    text = title_case(articles_agree(words))
    if named and tokens_of(text) == tokens_of(named):
        return None  # ('Tensor Analyzers: Tensor Analyzers')
    if named and named.islower():
        named = title_case(named)
    return f"{named}: {text}" if named else text


def _without_brackets(phrase: list[str]) -> list[str]:
    """The phrase without its asides in brackets ('(GEC)', '(rankings of two objects)', '[Lee et al.]'); math
    keeps its own."""
    kept, depth = [], 0
    for piece in phrase:
        if depth or piece.startswith(("(", "[")):
            depth = max(0, depth + open_brackets(piece))
            continue
        kept.append(piece)
    return kept


def _opening(pieces: list[str]) -> list[str]:
    """The object from its first word: past adverbs ('here', 'formally'), 'in this paper', a frame ('the problem
    of'); 'to learn X' becomes 'Learning X'. Empty when the claim names no thing ('we show that', 'whether')."""
    while pieces:
        word = _lower(pieces[0])
        if word in _ADVERBS:
            pieces = pieces[1:]
        elif word == "in" and len(pieces) > 2 and _lower(pieces[2]) in {"paper", "work", "article"}:
            pieces = pieces[3:]
        else:
            break
    if not pieces:
        return []
    word = _lower(pieces[0])
    if word in {"that", "whether", "if", "why", "what"} or word in _POINTING_BACK or word in _COUNTS \
            or word[:1].isdigit() or word in LINKING and word not in ARTICLES and word not in {"to", "both", "how"}:
        return []  # not a thing: 'that ...', 'upon recent results', 'two assessment dimensions'

    if word == "both" and len(pieces) > 1:
        pieces, word = pieces[1:], _lower(pieces[1])
    if word == "to" and len(pieces) > 1 and _lower(pieces[1]) in LINKING | {"what", "which", "whom"}:
        return []  # ('to what degree ...': no verb to make a gerund of)
    if word == "to" and len(pieces) > 1:
        return [_gerund(_core(pieces[1])) + pieces[1][len(_core(pieces[1])):]] + pieces[2:]
    at = 1 if word in ARTICLES else 0
    if len(pieces) > at + 2 and _lower(pieces[at]) in _FRAMES and _lower(pieces[at + 1]) == "of" \
            and not pieces[at].endswith(_TRAILING):
        return pieces[at + 2:]
    return pieces


def _named(pieces: list[str], name: str | None) -> tuple[str | None, list[str]]:
    """A name the object opens on ('X, a method for ...', 'X (Long Name): a ...', '“typicality”, a ...'), and the
    object after it: the title leads with the name and says what it is."""
    first = pieces[0]
    if name and first.lower().startswith((name.lower() + "-", name.lower() + "\u2014")) and len(first) > len(name) + 1:
        pieces = [first[len(name) + 1:]] + pieces[1:]  # 'ChunkyGAN-a paradigm for ...'
        return name, pieces
    spelled = _name_length(pieces, name)
    # 'X, a ...' or 'Gravitational Pivoting, a ...': a few words set before an article by a comma name the object
    comma = next((n for n, piece in enumerate(pieces[:3]) if piece.endswith(",")), None)
    appositive = comma is not None and len(pieces) > comma + 1 and _lower(pieces[comma + 1]) in ARTICLES \
        and not any(_lower(piece) in LINKING or piece.startswith(OPENERS[:3]) for piece in pieces[:comma + 1])
    if appositive and not spelled:
        return (name or " ".join(_core(piece) for piece in pieces[:comma + 1])), pieces[comma + 1:]
    if not spelled:
        return (name if name else None), pieces
    last, rest = pieces[spelled - 1], pieces[spelled:]
    if rest and rest[0].startswith("(") and not last.endswith(","):
        closing = next((n for n, piece in enumerate(rest) if ")" in piece), None)
        rest = rest[closing + 1:] if closing is not None else []
    if rest and _lower(rest[0]) in {"which", "that", "to"}:
        return name, []
    return name, rest


def _name_length(pieces: list[str], name: str | None) -> int:
    """How many of the object's first pieces spell the name ('Tensor Analyzers (TA), a ...'); 0 when they do not."""
    if not name:
        return 0
    wanted = tokens_of(name)
    for count in range(1, min(len(pieces), len(name.split())) + 1):
        if tokens_of(" ".join(_core(piece) for piece in pieces[:count])) == wanted:
            return count
    return 0


def _object(pieces: list[str], name: str | None, model: TitleModel) -> list[str]:
    """The object's words up to where it stops naming the thing."""
    name_tokens = tokens_of(name) if name else ()
    phrase: list[str] = []
    depth = 0  # brackets open in the phrase: an enumeration's '1)' closes one it never opened
    for index, piece in enumerate(pieces):
        word = _lower(piece)
        depth += open_brackets(piece)
        if depth < 0:
            break
        if "\u2014" in piece.strip("\u2014"):  # 'method—Deep SVDD— ...': an aside
            if re.search(r"\w", piece.partition("\u2014")[0]):
                phrase.append(piece.partition("\u2014")[0])
            break
        names = bool(name_tokens) and tokens_of(_core(piece)) == name_tokens
        if _markup(piece) or phrase and (word in _STOP_BEFORE or names):
            break
        following = _lower(pieces[index + 1]) if index + 1 < len(pieces) else ""
        if word in {"and", "or"} and (following in model.verbs or following in CLAIM_FORMS or following == "to") \
                or word == "in" and following == "order":  # ('in order to answer ...': a purpose, not the thing)
            break
        if not re.search(r"\w", piece) or word in _POINTING_BACK or word in _BACKGROUND:  # (a lone dash: an aside)
            starts = [n for n, p in enumerate(phrase) if _lower(p) in _PHRASE_STARTS]
            phrase = phrase[:starts[-1]] if starts else []
            break
        phrase.append(piece)
        if piece.endswith((";", ":", ".", "!", "?")):
            break
        if piece.endswith(",") and (not is_modifier(word, model.modifiers) or following in model.verbs) \
                and not (len(phrase) <= 4 and following and following not in ARTICLES
                         and following not in LINKING and following not in _STOP_BEFORE
                         and not any(_lower(p) in LINKING and _lower(p) not in ARTICLES for p in phrase[1:])):
            break  # (a comma after a modifier or among the first words lists qualities: 'a simple, efficient method')
    return phrase


def _markup(piece: str) -> bool:
    """An HTML tag or a LaTeX command outside math ('<b>N</b>euron', '{\\em Fast}'): never in a title."""
    return "<" in piece or ("\\" in piece or "{" in piece) and "$" not in piece


def _cut(phrase: list[str], room: int, modifiers: frozenset[str]) -> list[str]:
    """The phrase within MOST_WORDS and `room` characters, cut before a phrase of it starts (a preposition, 'that'),
    never ending on a word that needs another (a participle: 'Labels Provided'; 'between X' without its 'and Y'; a
    modifier), nor inside brackets. A phrase of two words or fewer left before the cut goes too ('Using Tools' of
    'using tools from optimal transport'): its complement is what was cut; so does a means ('by casting X' of
    'by casting X into Y'), which says how, not what."""
    if len(phrase) > MOST_WORDS or len(" ".join(phrase)) > room:
        starts = [n for n in range(2, min(len(phrase), MOST_WORDS + 1))
                  if _lower(phrase[n]) in _PHRASE_STARTS and len(" ".join(phrase[:n])) <= room]
        cut = starts[-1] if starts else 0
        if len(starts) > 1 and cut - starts[-2] <= 2:
            cut = starts[-2]
        cut = next((n for n in starts if n < cut and _lower(phrase[n]) in _MEANS
                    and _lower(phrase[n + 1]).endswith("ing")), cut)
        phrase = phrase[:cut]
    between = next((n for n, piece in enumerate(phrase) if _lower(piece) == "between"), None)
    if between is not None and not any(_lower(piece) == "and" for piece in phrase[between:]):
        phrase = phrase[:between]
    return _closed(phrase, modifiers)



def _closed(phrase: list[str], modifiers: frozenset[str]) -> list[str]:
    """The phrase without the words at its end that need another; a modifier whose noun is gone takes the phrase
    it was in ('in Multi-Class'), as what is left before it may be a modifier too ('Region' of 'region feature')."""
    while phrase and _open_end(phrase, modifiers):
        if is_modifier(_lower(phrase[-1]), modifiers):
            starts = [n for n, piece in enumerate(phrase) if _lower(piece) in _PHRASE_STARTS]
            phrase = phrase[:starts[-1]] if starts else []
        else:
            phrase = phrase[:-1]
    return phrase


def _long_head(phrase: list[str]) -> list[str]:
    """A long object whose head is generic ('a novel framework for [16 words]') is said by what the head is for."""
    if len(phrase) <= MOST_WORDS:
        return phrase
    head = next((n for n, piece in enumerate(phrase[:5]) if _lower(piece) in {"for", "of"}), None)
    if head and _generic(phrase[:head]) and len(phrase) - head - 1 >= 3:
        return phrase[head + 1:]
    return phrase


# Participles that follow the noun they qualify ('labels provided by ...'): a title does not end on one.
_AFTER_NOUN = {"provided", "designed", "based", "trained", "used", "proposed", "obtained", "learned", "generated",
               "defined", "induced", "given", "required", "needed", "built", "tailored", "inspired", "guided",
               "introduced", "developed", "presented", "described", "derived", "computed", "collected", "produced",
               "caused", "associated", "observed", "equipped", "motivated", "constructed", "formulated"}


def _open_end(phrase: list[str], modifiers: frozenset[str]) -> bool:
    """Whether the phrase ends on a word that needs another: a linking word, a participle, a verb, a modifier."""
    last = _lower(phrase[-1])
    return last in LINKING or last.endswith(_NEEDS_NOUN) or last in _AFTER_NOUN or is_modifier(last, modifiers) \
        or (len(phrase) > 1 and _lower(phrase[-2]) in {"that", "which", "who", "to"}) \
        or open_brackets(phrase[-1]) > 0 or sum(open_brackets(p) for p in phrase) > 0


_NEEDS_NOUN = ("-", "ly", "-based", "-aware", "-driven", "-guided", "-oriented", "-specific")


def _generic(phrase: list[str]) -> bool:
    """Whether the phrase says only what kind of thing it is ('A Simple and Effective Method')."""
    words = [w for piece in phrase for w in tokens_of(piece) if w not in LINKING and w not in ARTICLES]
    return not words or all(word in _GENERIC for word in words)


def _gerund(verb: str) -> str:
    """'learn' -> 'learning', 'use' -> 'using', 'map' -> 'mapping'."""
    lowered = verb.lower()
    if lowered.endswith("ie"):
        return verb[:-2] + "ying"
    if lowered.endswith("e") and not lowered.endswith(("ee", "ye", "oe")):
        return verb[:-1] + "ing"
    if re.fullmatch(r"[^aeiou]*[aeiou][^aeiouwxy]", lowered):
        return verb + verb[-1] + "ing"
    return verb + "ing"
