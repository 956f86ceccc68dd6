"""The text rules of catalogue/text.py, and the browser's copy of them (assets/common.js) agreeing.

The search page folds a query into words in the browser and looks them up among words the build
folded in Python: any difference between the two is a search that finds nothing. Node runs the
page's script over every distinct word of the real corpus sample and of the seeds."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from catalogue import text

PROJECT = Path(__file__).resolve().parent.parent
SAMPLE = PROJECT / "tests" / "data" / "corpus_sample.jsonl"
COMMON_JS = PROJECT / "assets" / "common.js"
# common.js in Node: a page without the interface strings' and addresses' elements.
RUN_IN_NODE = """
const fs = require("fs"), vm = require("vm");
globalThis.window = globalThis;
globalThis.document = { getElementById: () => null };
vm.runInThisContext(fs.readFileSync(process.argv[1], "utf8"));
const texts = JSON.parse(fs.readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(texts.map((t) => window.catalogueWords(t))));
"""


def script_words(texts: list[str]) -> list[list[str]]:
    done = subprocess.run(["node", "-e", RUN_IN_NODE, str(COMMON_JS)], input=json.dumps(texts), capture_output=True,
                          text=True, check=True, timeout=120)
    return json.loads(done.stdout)


def disagreements(texts: list[str]) -> list[tuple[str, list[str], list[str]]]:
    return [(t, text.words(t), js) for t, js in zip(texts, script_words(texts)) if text.words(t) != js]


def corpus_texts(path: Path) -> list[str]:
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [f"{r.get('title', '')} {r.get('abstract', '')} {' '.join(r.get('authors') or [])}" for r in records]


def test_the_script_folds_every_word_of_real_abstracts_as_python_does():
    texts = corpus_texts(SAMPLE) + [path.read_text(encoding="utf-8") for path in sorted((PROJECT / "seeds").glob("*.txt"))]
    vocabulary = sorted({token for t in texts for token in t.split()})
    assert len(vocabulary) > 10_000
    assert disagreements(vocabulary) == []
    assert disagreements(texts) == []  # whole texts: words across punctuation, CJK runs among Latin words


@pytest.mark.parametrize("written", [
    "强化学习 Transformers", "İstanbul ΣΟΦΟΣ straße", "x²-norms, ½ and ⅷ", "studies classes boxes bus glass",
    "ＦＵＬＬ－ＷＩＤＴＨ ｶﾀｶﾅ 한국어문장", "naïve café (e\u0301) \u00adsoft", "豈更 compatibility ideographs", ""])
def test_the_script_folds_written_edge_cases_as_python_does(written):
    assert script_words([written]) == [text.words(written)]


def test_the_script_writes_the_same_cjk_ranges():
    assert f'var CJK = "{text.CJK_CHARACTERS.encode("unicode_escape").decode()}";' in COMMON_JS.read_text("utf-8")


@pytest.mark.parametrize("word, folded", [("transformers", "transformer"), ("studies", "study"), ("boxes", "box"),
                                          ("glass", "glass"), ("bus", "bus"), ("gas", "gas"), ("is", "is")])
def test_plurals_fold_to_the_singular(word, folded):
    assert text.stem(word) == folded


def test_cjk_runs_become_overlapping_pairs():
    assert text.words("强化学习 RL") == ["强化", "化学", "学习", "rl"]
    assert text.has_cjk("a 学") and not text.has_cjk("naïve")
    assert re.fullmatch(f"[{text.CJK_CHARACTERS}]+", "ひらがなカタカナ漢字한글")


@pytest.mark.parametrize("written", ["We PROPOSE a model", "we propose", "\u017fo we propose", "WE PROPO\u017fE"])
def test_any_case_answers_as_ignorecase_does(written):
    pattern = r"\bwe\s+propos"
    assert text.AnyCase(pattern).found_in(written) == bool(re.search(pattern, written, re.IGNORECASE))
    assert text.AnyCase(pattern, needs=("propos",)).found_in(written) == bool(re.search(pattern, written, re.IGNORECASE))


@pytest.mark.parametrize("written", ["We PROPOSE a model, and we Propose another", "\u017fo We propose", "no match"])
def test_any_case_matches_where_ignorecase_does(written):
    pattern = r"\bwe\s+propos"
    expected = [match.span() for match in re.finditer(pattern, written, re.IGNORECASE)]
    assert [match.span() for match in text.AnyCase(pattern).finditer(written)] == expected
    found = text.AnyCase(pattern, needs=("propos",)).search(written)
    assert (found.span() if found else None) == (expected[0] if expected else None)


def test_any_case_looks_only_between_start_and_end():
    assert text.AnyCase(r"\bwe\b").found_in("Here we are", 0, 7)
    assert not text.AnyCase(r"\bwe\b").found_in("Here we are", 0, 5)


@pytest.mark.parametrize("written", ["plain\x07text", "caf\u00e9\x07", "\U0001fffe and \x85", "clean text",
                                     "\U00020000 extension B", "\U0010fffd private use"])
def test_unsafe_characters_are_replaced_in_ascii_and_other_text(written):
    assert text.replace_unsafe(written) == text.UNSAFE.sub("\ufffd", written)
    assert text.replace_unsafe(written, "") == text.UNSAFE.sub("", written)
    assert text.has_unsafe(written) == (text.UNSAFE.search(written) is not None)
    assert text.count_unsafe(written) == len(text.UNSAFE.findall(written))


def test_the_quick_unsafe_search_agrees_with_unsafe_on_every_character():
    """replace_unsafe, has_unsafe and count_unsafe search a wider class first: every code point."""
    every = "".join(chr(point) for point in range(sys.maxunicode + 1) if not 0xD800 <= point <= 0xDFFF)
    unsafe = text.UNSAFE.findall(every)
    assert len(unsafe) == 2 * 17 + 32 + 65 - 4  # noncharacters, U+FDD0-U+FDEF, controls but \t \n \f \r
    for character in unsafe:  # each found alone, wherever the wider class would first look
        assert text.has_unsafe(character) and text.count_unsafe(f"a{character}b") == 1
        assert text.replace_unsafe(f"a{character}b") == "a\ufffdb"
    safe = text.UNSAFE.sub("", every)
    assert not text.has_unsafe(safe) and text.count_unsafe(safe) == 0 and text.replace_unsafe(safe) == safe
    assert text.count_unsafe(every) == len(unsafe) and text.replace_unsafe(every, "") == safe
