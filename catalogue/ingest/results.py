"""An abstract's headline results: a number with a percent sign or a multiplier, and what it measures, in
a sentence that reports an outcome ('34% proof success rate on LCI-Test'); the sentences are read as
plain text, their inline math as readable text (plain_math).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

from catalogue.markup.formulas import math_to_text
from catalogue.text import AnyCase

# A number starts where a run of digits starts, and its digits are never given back: a long run
# is read once, not once from each of its digits. A range may carry its unit twice ("4x-11.6x", "2 to 5
# times", "26∼35×", TeX's "4--27 times": without its start, "35×" would read as the result);
# a sign says the number is a change ("+12% success rate", "-28.2% BD-rate").
_SIGN = r"(?:\+|(?<![\w.\-])[\-\u2212])?"  # a minus, not a hyphen ("ResNet-50")
_NUMBER = (rf"(?<!\d){_SIGN}\d++(?:\.\d++)?(?:\s*(?:%|×|x\b))?(?:\s*(?:--?|[\u2013~\u223c]|to\b)\s*\d++(?:\.\d++)?)?"
           r"(?:\s*(?:%|×|x\b|-fold)|\s+times\b)")
_PLAIN = r"(?<![\d.])\d++(?:\.\d++)?"
_ABOUT = (r"(?:\b(?:up to|over|nearly|about|by|more than|less than|at least|at most|almost|around)\s+){0,2}"
          r"(?:(?:<=|>=|[<>\u2264\u2265])\s*)?")  # "(<= 1% accuracy degradation)": a bound, not a level
_HEADLINE_NUMBER = re.compile(rf"(?:from\s+{_NUMBER}\s+to\s+{_ABOUT}{_NUMBER})|{_ABOUT}{_NUMBER}"
                              rf"|(?:from\s+)?{_PLAIN}\s*(?:→|->)\s*{_PLAIN}%?")  # "from 61.0 → 88.9 accuracy"
_OUTCOME = AnyCase(r"achiev|improv|outperform|reduc|speed|gain|reach|rise|rises|surpass|boost|cut|"
                   r"accelerat|increas|decreas|lower|yield|deliver|attain|faster")
_DIGIT = re.compile(r"\d")  # every headline number has one: most sentences need no further look
# What a number can measure. A phrase without one ("outperforms them by 11.1%", "99.9% reduction")
# does not say what it measures, and is not shown; nor do words for any measure ("performance",
# "metrics", "results").
# Words are matched in lower case (a capitalised "Faster R-CNN" is a model), acronyms as written.
_CHANGE_NOUN = r"(?:improvement|gain|reduction|increase|decrease|drop|boost)s?"
_NOT_A_MEASURE = (r"(?!(?:[a-z\-]+\s+)?performance\b)"
                  r"(?!(?:up|about|over|around|nearly|approximately|roughly|almost|only|the|a)\b)")
_MEASURE = re.compile(r"\b(?:accura|error|speed|faster|slower|laten|throughput|time\b|runtime|memory|cost|comput|"
                      r"flop|energy|power|param|size|smaller|compress|score|precision|recall|perplexit|"
                      # not a change's rate ("an improvement rate of 20.8%") nor a change's loss ("a loss of 0.02%")
                      r"(?<!improvement\s)(?<!growth\s)rates?\b|loss(?!\s+of\b)|"
                      r"reward|return|success|wins?\b|win rate|(?<!-)bits?\b|bandwidth|storage|coverage|correlat|"
                      r"regret|sample|label|annotation|quer|token|exact match|top-\d|hits?\b|quality|efficien|"
                      r"robust|agreement|fps\b|frames|f-?measure|f-?score|acceleration|intersection.over.union|"
                      r"false positive|false negative|operations|"
                      r"BLEU|ROUGE|METEOR|CIDEr|F1|AUC|mAP|AP\b|IoU|mIoU|PSNR|SSIM|LPIPS|FID\b|MSE|RMSE|MAE\b|EM\b|"
                      r"NDCG|MRR|WER\b|CER\b|FLOPs|GPU|Acc\b|Acc@"
                      # or says it in so many words: "40% improvements in empirical safety", "in Recall@1"; but
                      # after "performance", "of" says whose ("performance drop of student model"), and a task's
                      # performance is no measure ("improvement in segmentation performance")
                      rf"|{_CHANGE_NOUN}\s+in\s+{_NOT_A_MEASURE}[A-Za-z]"
                      rf"|(?<!performance\s){_CHANGE_NOUN}\s+of\s+{_NOT_A_MEASURE}[a-z])")
# What follows these is what a number is compared with, not what it measures.
_COMPARED_WITH = re.compile(r"\s(?:than|over|versus|vs\.?|compared)\s")
# How far around a number its phrase is looked for: seven words after it or six before fit easily,
# and a bounded window keeps a sentence of many numbers linear.
_RESULT_WINDOW = 300
# (a sentence may end on a quote: the corpus's ECCV abstracts end with one)
_RESULT_STOP = re.compile(r"[,;:()]|\.[\"'\u201d]?(?:\s|$)|\s(?:while|whereas|and|but|compared|outperforming|which|"
                          r"thereby|demonstrating|showing|when|respectively|vs\.?|versus)\b")
# Verbs of an outcome: a phrase before its number starts at one ("PreTraM reduces their errors by 5.5%"
# is "reduces their errors by 5.5%"), and after its number a verb that is neither a participle nor a noun
# starts another clause ("30% reduction of channels even outperforms ...", not "1.3x parameter increase").
_OUTCOME_VERB = re.compile(r"\b(?:(?:achiev|improv|reduc|increas|decreas|sav|accelerat)(?:es?|ed|ing)|"
                           r"(?:out-?perform|attain|obtain|yield|deliver)(?:s|ed|ing)?|(?:boost|lower)(?:s|ed|ing)|"
                           r"(?:compress|surpass|reach)(?:es|ed|ing)?|cut(?:s|ting))\b")
# After its number, an auxiliary starts another clause too ("100% heterogeneity DisTrans has accuracy of").
_FINITE_AUXILIARY = re.compile(r"\s(?:is|are|was|were|has|have|had|can|could|will|would)\b")
# Before its number, a phrase may also start at a verb that after a number would be a noun ("speed up ViTs
# by 1.7x", "boost the efficiency by 86%", "bring down its accuracy to less than 0.1%"), or at the verb of
# a measure that changes ("accuracy rises from 8% to 57%").
_LEADING_VERB = re.compile(rf"{_OUTCOME_VERB.pattern}|(?:speed|boost|bring|rise|drop|fall)s?|sped|rose|fell")
# Words that say a number is a change, right before it: "saving 11% parameters", "reducing 89% computation"
# (without them, "11% parameters" reads as what is kept).
_CHANGE_WORD = (r"(?:\b(?:reduc|increas|decreas|sav|accelerat|improv)(?:es?|ed|ing)|"
                r"\b(?:boost|lower)(?:s|ed|ing)|\bcut(?:s|ting)?|\bcompress(?:es|ed|ing)?|"
                rf"\b{_CHANGE_NOUN}\s+of)")
_CHANGE_BEFORE = re.compile(rf"({_CHANGE_WORD})\s+$")
# ... or before the number an "and" joins it to: "saving 11% parameters and 13% computational cost", "by 7.0%
# mAP and 8.1% AP50".
_SHARED_CHANGE = re.compile(rf"({_CHANGE_WORD}|\bby)\s+{_ABOUT}{_NUMBER}[^\d,;.()]{{1,60}}?\s(?:and|or)\s+$")
# "from 45%" whose "to" was not read: half a change.
_FROM_BEFORE = re.compile(r"\bfrom\s+$")
# A number written right against another, with no word or range mark between ("25%/13.8% RMSE", "3.41 4.60
# times", a thousands separator read as a space "2, 500 times"): which one the phrase belongs to cannot be read.
_NUMBER_JUST_BEFORE = re.compile(r"(?:^|[\s(/])\d+(?:\.\d+)?[%\u00d7x]?(?:\s*/\s*|\s+)$")
_NUMBER_JUST_AFTER = re.compile(r"\s*/\s*\d|\s+\d")
_THOUSANDS_BEFORE = re.compile(r"(?:^|\s)\d{1,3},\s?$")
_THOUSANDS = re.compile(r"\d{3}(?!\d)")
# A number right after another method's name gives that method's number: "where prior art has 27.9%
# accuracy", "comparable to the full-precision accuracy 71.88%", "a character baseline of 14.8% WER".
_OTHERS = {"prior", "previous", "baseline", "baselines", "existing", "full-precision", "competing", "runner-up"}
# A number right after what introduces a comparison is what is compared with: "78.1% test accuracy ...,
# compared to 77.0% test accuracy", "80.4% vs. 72.1% or lower for other approaches".
_COMPARED_NUMBER = re.compile(r"\b(?:compared\s+(?:to|with)|vs\.?|versus|against)\s+$", re.IGNORECASE)
# "... which has 57% more parameters than ours": what is compared with is the paper's own.
_THAN_OURS = re.compile(r"\bthan\s+(?:ours|us|our)\b")
# Verbs whose object is a rival, not a measure: "outperforms MAE by +0.8%" (MAE the model).
_RIVAL_VERB = re.compile(r"(?:outperform|surpass|beat|exceed)\w*")
_ARTICLES = {"the", "a", "an"}
_AUXILIARIES = {"is", "are", "was", "were", "be", "been", "being", "has", "have", "had", "can", "could", "may",
                "might", "will", "would", "further", "also"}
_MAX_RESULTS = 3
_RESULT_WORDS = 7  # after the number, at most
_LIST_WORDS = 4  # the last item of a list a phrase is cut inside ("and the Cityscapes dataset")
_VERB_WORDS = 9  # before the number, how far back its outcome verb is looked for
_PHRASE_WORDS = 6  # before the number, at most, when no verb starts the phrase
_SUBJECT_WORDS = 3  # a subject that names the measure: "the time cost is reduced by"
# Words that start a phrase of their own, or only join one: no measure, no phrase's start or end.
_FUNCTION_WORDS = {"of", "in", "on", "to", "and", "or", "the", "a", "an", "while", "with", "for", "from", "at",
                   "over", "than", "by", "when", "respectively", "without", "using", "across", "under", "within",
                   "after", "via", "through", "among", "despite", "during", "compared", "even",
                   "whereas", "given", "due", "thanks", "against", "beyond", "toward", "towards", "per", "until",
                   "since", "that", "which", "is", "are", "was", "were", "be", "it", "this", "can", "vs", "only",
                   "just", "also", "still"}
# Words after which a noun that names its number ("an F-score of 62.82%") completes another phrase.
_COMPLEMENTED = {"with", "to", "that", "for", "by", "at", "on"}
# Where a phrase after its number can be cut back to: the start of its last prepositional phrase.
_PREPOSITIONS = _FUNCTION_WORDS - _ARTICLES - {"and", "or"}
# Words that start a clause of their own after "and" ("... on COCO and we ...").
_CLAUSE_STARTS = {"we", "our", "it", "its", "they", "their", "this", "these", "also"}
# Words that only qualify a measure ("mean IoU", "absolute accuracy"), and compare nothing.
_MODIFIERS = {"absolute", "relative", "average", "overall", "additional", "consistent", "significant",
              "substantial", "mean"}
_COMPARATIVES = {"higher", "lower", "better", "worse", "more", "less", "fewer", "greater", "larger", "longer",
                 "shorter", "cheaper", "denser", "finer"} | _MODIFIERS
# A measure's acronym: two capitals or more ("PQ", "mIOU", "GFLOPs"), or a capital and a digit ("AP50",
# "FPR95"), with fewer than three small letters ("ImageNet" and "ResNet" are names).
_ACRONYM = re.compile(r"(?=(?:[^A-Z]*[A-Z]){2}|.*[A-Z].*\d|.*\d.*[A-Z])(?!(?:[^a-z]*[a-z]){3})[\w\-@]+")
_MULTIPLIER = re.compile(r"(?:[x\u00d7]|times|fold)$")
# Words that say a number changed, not what it measures ("10% absolute improvement over the best prior result").
_VAGUE_HEADS = _FUNCTION_WORDS | {"improvement", "improvements", "gain", "gains", "increase", "increases",
                                  "reduction", "reductions", "boost", "drop", "decrease", "margin", "times", "fold",
                                  "overall", "points", "versus", "performance", "results", "result", "metrics", "as"}
# How much data a method was given ("only 10% labeled data", "10% training set") is its setting, not a
# result, unless the number compares it ("10x fewer labels"): the noun after the number says which.
_SETTING_HEADS = {"data", "set", "sets", "labels", "samples", "examples", "annotations", "subset", "shots",
                  "supervision"}


def find_results(sentences: list[str]) -> tuple[str, ...]:
    """Up to three short phrases with headline numbers: '34% proof success rate on LCI-Test'."""
    results: list[str] = []
    for sentence in sentences:
        # a sentence that pairs its numbers with things "respectively" says what each measures only as a whole
        if not _DIGIT.search(sentence) or not _OUTCOME.found_in(sentence) or "respectively" in sentence:
            continue
        for match in _HEADLINE_NUMBER.finditer(sentence):
            phrase = _result_phrase(sentence, match)
            if phrase is None or not _says_what_it_measures(*phrase[1:]):
                continue
            text = " ".join(part for part in phrase if part).strip(" .,;:\"'\u201c\u201d")
            if not any(text in r or r in text for r in results):
                results.append(text)
                if len(results) == _MAX_RESULTS:
                    return tuple(results)
    return tuple(results)


def _says_what_it_measures(before: str, number: str, after: str) -> bool:
    """A measure word before any "than" or "over" (what is compared with is not what is measured: "30% higher
    than methods for efficient inference"), or right after the number a measure's acronym or a noun counted
    by a comparative: "46.5% PQ", "17% more formulas"."""
    words = after.split()
    noun = list(itertools.takewhile(lambda word: word.lower() not in _FUNCTION_WORDS, words))
    if noun and noun[-1].lower() in _SETTING_HEADS and not _COMPARATIVES.intersection(map(str.lower, noun)):
        return False
    if _names_a_measure(f"{_without_rival(before)} {_COMPARED_WITH.split(f' {after} ')[0]}".strip()):
        return True
    compared = False
    while words and words[0].lower() in _COMPARATIVES:
        compared = words.pop(0).lower() not in _MODIFIERS or compared
    if not words or words[0].lower() in _VAGUE_HEADS or words[0].endswith(("ed", "ly")):  # "averaged across"
        return False
    if _MEASURE.search(" ".join(noun).lower()):  # capitalised: "71.8% Multi-Object Tracking Accuracy"
        return True
    # a noun no measure word names is shown only when it counts things ("10x fewer labels", "17% more
    # formulas") or is a measure's acronym ("46.5% PQ"); a multiplier's acronym is what it is compared
    # with ("0.001x VVC"), and a lower-case noun may be anything ("20% missingness", "10-fold repetition")
    return (re.fullmatch(r"[A-Za-z][\w\-]*", words[0]) is not None
            and (compared or (_ACRONYM.fullmatch(words[0]) is not None and not _MULTIPLIER.search(number))))


def _without_rival(before: str) -> str:
    """The words before a number without the object of a rival verb ("outperforms MAE by" -> "outperforms by";
    "outperforms the baseline in accuracy by" keeps "in accuracy by")."""
    words = before.split()
    rival = next((at for at, word in enumerate(words) if _RIVAL_VERB.fullmatch(word.lower())), None)
    if rival is None:
        return before
    end = rival + 1
    while end < len(words) and (words[end].lower() in _ARTICLES or words[end].lower() not in _FUNCTION_WORDS):
        end += 1
    return " ".join(words[:rival + 1] + words[end:])


def _names_a_measure(text: str) -> bool:
    return _MEASURE.search(text) is not None or _MEASURE.match(text[:12].lower()) is not None  # "Accuracy improves"


def _result_phrase(sentence: str, match: re.Match) -> tuple[str, str, str, str] | None:
    """(a word saying the number is a change, words before, the number, words after): the number with the
    words after it ('34% success rate'), and a word before it that says it is a change ('saving 11%
    parameters'); or with the words before it, from their outcome verb, when it closes its clause ('reduces
    memory by over 50%'). A number that cannot be read whole this way gives no phrase."""
    preceding = sentence[max(0, match.start() - _RESULT_WINDOW):match.start()]
    following = sentence[match.end():match.end() + _RESULT_WINDOW]
    if (_FROM_BEFORE.search(preceding) or _NUMBER_JUST_BEFORE.search(preceding)
            or (_THOUSANDS_BEFORE.search(preceding) and _THOUSANDS.match(match[0]))
            or _NUMBER_JUST_AFTER.match(following) or _THAN_OURS.search(following[:80])
            or _COMPARED_NUMBER.search(preceding)):
        return None
    clause = _RESULT_STOP.split(preceding)[-1].split()
    if _led_by_others(clause):
        return None
    words = _words_after(sentence, match)
    if words and re.match(r"[A-Za-z]", words[0]) and words[0].lower() not in _FUNCTION_WORDS:
        change = _CHANGE_BEFORE.search(preceding) or _SHARED_CHANGE.search(preceding)
        return (change[1].strip() if change else ""), "", match[0], " ".join(words)
    if _HEADLINE_NUMBER.search(" ".join(clause[-_PHRASE_WORDS:])):
        return None  # "achieves 80% accuracy using only 20%": the phrase belongs to the first number
    before = _after_last_number(clause[-_VERB_WORDS:])
    verb = next((at for at, word in enumerate(before) if _LEADING_VERB.fullmatch(word.lower())), None)
    if verb is None:
        # a noun that names its number reads whole ("a mean error reduction of 34%"), as does a change with
        # both its ends ("error rate from 18.44% to 7.05%"); a change by an amount without its verb does not
        # ("... and the energy consumption by 1.9x": the verb is another clause's)
        if not before or ([w.lower() for w in _without_end(before, _is_adverb)][-1:] != ["of"]
                          and not match[0].startswith("from")):
            return None
        before = before[-_PHRASE_WORDS:]
        if not match[0].startswith("from"):  # "benchmark with [an F-score of]"
            before = _after_what_it_completes(before)
    else:  # from the verb, or from its subject when that names the measure ("Accuracy improves by")
        auxiliaries = verb - len(_without_end(before[:verb], _is_auxiliary))
        subject = before[:verb - auxiliaries][-_SUBJECT_WORDS:]
        before = (subject + before[verb - auxiliaries:] if _names_a_measure(" ".join(subject))
                  else before[verb:])
    while before and before[0].lower() in _FUNCTION_WORDS:
        before.pop(0)
    return ("", " ".join(before), match[0], "") if before else None


def _after_what_it_completes(words: list[str]) -> list[str]:
    """A noun that names its number, without the phrase it completes: "an F-score of", not "intermediate
    benchmark with an F-score of"."""
    return words[max((at + 1 for at, word in enumerate(words) if word.lower() in _COMPLEMENTED), default=0):]


def _after_last_number(words: list[str]) -> list[str]:
    numbers = [at for at, word in enumerate(words) if _HEADLINE_NUMBER.search(word)]
    return words[numbers[-1] + 1:] if numbers else words


def _without_end(words: list[str], dropped: Callable[[str], bool]) -> list[str]:
    """The words without those at their end that `dropped` says go ("error of only", "has been significantly")."""
    end = len(words)
    while end and dropped(words[end - 1]):
        end -= 1
    return words[:end]


def _is_adverb(word: str) -> bool:
    return word.lower() == "only" or word.endswith("ly")


def _is_auxiliary(word: str) -> bool:
    """An auxiliary or an adverb between a subject and its verb ("has been significantly")."""
    return word.lower() in _AUXILIARIES or word.endswith("ly")


def _led_by_others(clause: list[str]) -> bool:
    """Another method is named, and neither an outcome verb in the clause ("outperforms the baseline by 5.5%")
    nor a preposition other than "of" after the name ("baseline with less than 1% ...") makes the number the
    paper's."""
    others = [at for at, word in enumerate(clause) if word.lower() in _OTHERS]
    return (bool(others) and not any(_LEADING_VERB.fullmatch(word.lower()) for word in clause)
            and not any(word.lower() in _PREPOSITIONS - {"of"} for word in clause[others[-1] + 1:]))


def _words_after(sentence: str, match: re.Match) -> list[str]:
    """The clause after the number, to its end, the next number or the next verb, in at most _RESULT_WORDS
    words; when cut short, it ends where a phrase ends, not on "with only minor"; a phrase stopped inside a
    list takes the list's last item ("on both CLEVR and CLEVR-CoGenT"), and one cut inside a noun and its "of"
    ("than the previous state of the art") is left out."""
    after = sentence[match.end():match.end() + _RESULT_WINDOW]
    stop = _RESULT_STOP.search(after)
    ends = [found.start() for found in (stop, _HEADLINE_NUMBER.search(after), _FINITE_AUXILIARY.search(after))
            if found]
    verbs = [found.start() for found in _OUTCOME_VERB.finditer(after) if not found[0].endswith(("ed", "e"))][:1]
    clause = after[:min(ends + verbs)].split() if ends or verbs else after.split()
    if verbs and min(verbs) < min(ends, default=len(after)):  # "... significantly outperforms": its adverb goes too
        while clause and clause[-1].endswith("ly"):
            clause.pop()
    words = clause[:_RESULT_WORDS]
    if len(clause) > _RESULT_WORDS:  # ... and without the participle that led to it ("averaged on")
        phrase_ends = [at for at, word in enumerate(words) if at and word.lower() in _FUNCTION_WORDS]
        words = words[:phrase_ends[-1]] if phrase_ends else words
        if len(words) > 1 and words[-1].endswith("ed") and not words[-1].endswith("eed"):
            words.pop()
    words = _trimmed(words)
    if len(clause) <= _RESULT_WORDS and stop is not None and stop.start() == min(ends + verbs):
        last_item = _last_list_item(after[stop.start():])
        if words and last_item:
            return words + last_item
    while 0 < len(words) < len(clause) and clause[len(words)].lower() == "of":  # "the state", "7 different kinds"
        at = _last_preposition(words)
        led_by = words[at + 1].lower() if at + 1 < len(words) else ""
        if (led_by not in _ARTICLES and not led_by[:1].isdigit()) or _names_a_measure(" ".join(words[at:])):
            break  # ("in the misclassification rate of ..." is whole)
        words = _trimmed(words[:at])
    return words


def _last_preposition(words: list[str]) -> int:
    """Where the phrase's last prepositional phrase starts (its length when it has none)."""
    return next((at for at in range(len(words) - 1, 0, -1) if words[at].lower() in _PREPOSITIONS), len(words))


def _trimmed(words: list[str]) -> list[str]:
    """Without the words at the end that only join a phrase."""
    return _without_end(words, lambda word: word.lower() in _FUNCTION_WORDS or not re.search(r"\w", word))


def _last_list_item(rest: str) -> list[str]:
    """An "and" or "or" followed by a few words, no number and no verb, up to the clause's end joins the
    phrase's last noun to another ("in mAP and F1 scores compared to"): the phrase stopped there would be cut
    inside a list, so it takes that item too. A longer run is a clause of its own ("on TOP dataset and
    retains competitive performance ...")."""
    conjunction = re.match(r"\s(?:and|or)\b", rest)
    if conjunction is None:
        return []
    rest = rest[conjunction.end():]
    found = [found for found in (_RESULT_STOP.search(rest), _HEADLINE_NUMBER.search(rest)) if found]
    end = min(found, key=lambda found: found.start(), default=None)
    if end is not None and end.re is _HEADLINE_NUMBER:
        return []  # "... for classifications and a 7.9% lower ...": another result
    words = _trimmed((rest[:end.start()] if end else rest).split())
    lower = [word.lower() for word in words]
    joins = (0 < len(words) <= _LIST_WORDS and re.match(r"[a-z]|\d+[a-z]\b", lower[0]) is not None
             and lower[0] not in _CLAUSE_STARTS and (lower[0] in _ARTICLES or lower[0] not in _FUNCTION_WORDS)
             and not any(_LEADING_VERB.fullmatch(word) for word in lower) and not _starts_a_clause(lower))
    return [conjunction[0].strip(), *words] if joins else []


def _starts_a_clause(words: list[str]) -> bool:
    """A verb in the present before its object: "produces better results", "requires the same memory" (no
    part-of-speech tagger: a word in -s before an article or a comparative is a verb, not a noun)."""
    return len(words) > 1 and words[0].endswith("s") and words[1] in _ARTICLES | _COMPARATIVES - _MODIFIERS


def plain_math(text: str) -> str:
    """Inline math as readable text ($32\\times$ -> 32×, $69\\\\%$ -> 69%), and \\% as %."""
    if "$" in text:  # (most abstracts have neither)
        text = re.sub(r"\$([^$]{1,80})\$", lambda m: math_to_text(m[1]), text)
    return re.sub(r"\\{1,2}%", "%", text) if "\\%" in text else text
