"""Property-based tests (Hypothesis): seed parsing, abstract markup, extraction and ingest
hold their promises for any text, not only for the examples in the other test files.

Texts come from two kinds of strategy: Hypothesis's arbitrary `st.text()`, and documents built
like copy-pasted paper lists (BOM, a header line, paragraphs of words mixed with LaTeX, Markdown,
HTML and CJK, mixed line endings and blank lines), whose expected paragraphs are known exactly.
"""

from __future__ import annotations

import re
import shutil
import string
import tempfile
from pathlib import Path

import html5lib
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from catalogue.text import WORD_START, replace_unsafe, without_invisible
from catalogue.ingest.benchmarks import _written_at
from catalogue.system.cache import Cache
from catalogue.content.papers import CONTENT, content_key, read_papers
from catalogue.ingest.extract import extract
from catalogue.ingest.titles import MAX_TITLE
from catalogue.ingest.run import ingest
from catalogue.markup import convert as markup_module
from catalogue.markup.convert import TextConverter
from catalogue.markup.formulas import _MATHML_ATTRIBUTES, _MATHML_TAGS
from catalogue.markup.inline_html import INLINE_TAGS
from catalogue.markup.segments import split_math
from catalogue.model import Source, Topic
from catalogue.ingest.structured_lists import parse_record_file
from catalogue.ingest.text_lists import parse_seed_document
from catalogue.ingest.run import KEPT_TYPES

from conftest import PROJECT

# Fresh random examples on every run, CI included: the run's seed is printed at the start and at
# the end (tests/conftest.py), and `python -m pytest --hypothesis-seed=N` replays it; a failure also
# prints the @reproduce_failure line that replays that one example. Locally, failures are replayed
# from .hypothesis/ (which ignores itself in git). Inputs that Hypothesis once found failing are
# pinned with @example, so that they are tried on every run.
COMMON = dict(print_blob=True)

# ---------------------------------------------------------------------------------------------
# Strategies
# ---------------------------------------------------------------------------------------------

CJK = "论文列表机器学习模型方法数据图神经网络的研究我们提出一种新"
# Text copied from PDFs carries private-use characters.
WORD_ALPHABET = string.ascii_letters + string.digits + "$\\{}*<>&\"~%" + CJK + "-.,;:()'^_/!?#[]=+|@`" \
    + "\ue000\ue001"
TOKENS = [
    "we", "We", "propose", "introduce", "present", "a", "an", "the", "novel", "framework", "method", "for",
    "of", "that", "with", "and", "policy", "reward", "image", "graph", "We propose", "we introduce",
    "ZetaNet,", "FooBar", "LS$^2$MC-GDA,", "Item Response Scaling Laws (IRSL),", "(FN)", "named", "TRIX",
    "$x^2$", "$\\alpha$", "$O(n\\log n)$", "$$E=mc^2$$", "\\(a+b\\)", "\\[x\\]", "$\\frac{a}{b}$", "$<$2%",
    "$\\textbf{Long Name (LN)}$", "$x^{2$", "$\\foo{x}$", "$\\href{javascript:alert(1)}{x}$", "$5", "$10",
    "\\begin{equation}E=mc^2\\end{equation}", "\\begin{align}", "\\emph{robust}", "\\textbf{bold}",
    "\\emph{", "\\textit{a}", "\\url{x}", "**bold**", "*it*", "**T**ensor", "_under_", "34\\%", "69\\\\%",
    "Lean~4", "``quoted''", "rate--distortion", "LMs---such", "...", "e.g.", "i.e.,", "100\\,GiB", "a\\ b",
    "https://github.com/a/b", "https://github.com/a/b.", "http://x.org/(a)", "causalgame.github.io",
    "HTTPS://EXAMPLE.COM/x", "javascript:alert(1)", "<script>alert(1)</script>", "<img src=x onerror=alert(1)>",
    "</p>", "<b>", "</b>", "<I>", "</i>", "<sub>", "</sup>", "<br/>", '<a href="https://a.io/x">', "</a>",
    "<a href=javascript:x>", "<em class=x>", "\\href{https://a.io}{\\emph{t}}", "[t](https://a.io)", "<!--", "-->", "&amp;", "&lt;", "&#60;", "{{", "}}", "{%", "[click](javascript:x)",
    "***", "* * *", "#", "---", "1.", ">", "\ue0000\ue001", "\ue0001\ue001", "`code`", "klzzwxh:0000",
    "在无空格的长句子中我们提出了一种新的方法来解决这个问题",
]
LONG_TOKENS = st.text(alphabet=CJK, min_size=60, max_size=250) | st.text(
    alphabet=string.ascii_letters, min_size=60, max_size=250)
WORDS = st.one_of(st.sampled_from(TOKENS), st.text(alphabet=WORD_ALPHABET, min_size=1, max_size=12), LONG_TOKENS)
# White space around a line; "\x0c" is the form feed pdftotext writes at each page break.
PADDING = st.sampled_from(["", "", " ", "  ", "\t", " \t ", "\x0c"])
HEADERS = ["ICML 2026 论文列表", "ICLR 2025 Accepted Papers", "NeurIPS'24 papers", "CVPR2024", "Accepted papers",
           "Top 100 papers"]

# One line of words without its padding (words hold no white space at their ends, none inside but
# single spaces), and a paragraph as a list of such lines.
LINES = st.lists(WORDS, min_size=1, max_size=12).map(" ".join)
PARAGRAPHS = st.lists(LINES, min_size=1, max_size=4)
# Abstracts as ingest passes them on: one line, no white space at the ends.
ONE_LINE_ABSTRACTS = st.lists(WORDS, min_size=1, max_size=40).map(" ".join)
# A few of the tokens alone: separator lines ("***", "---"), lone markup, a bare URL.
TOKEN_RUNS = st.lists(st.sampled_from(TOKENS), min_size=1, max_size=6).map(" ".join)
# Arbitrary text squeezed onto one line (what a seed paragraph can hold).
ONE_LINE_TEXT = st.text().map(lambda text: " ".join(text.split())).filter(bool)
# Few characters, many of them white space and line breaks of every kind Python knows.
BREAKY_TEXT = st.text(alphabet="ab.\ufeff \t\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029", max_size=40)
ENDINGS = st.sampled_from(["\n", "\n", "\r\n", "\r"])


@st.composite
def seed_documents(draw):
    """(text, expected): a seed document and its blocks (header included) as (text, first line)."""
    header = draw(st.none() | st.sampled_from(HEADERS) | LINES)
    blocks = ([[header]] if header is not None else []) + draw(st.lists(PARAGRAPHS, max_size=5))
    lines: list[tuple[str, str]] = []  # (content, ending)
    expected: list[tuple[str, int]] = []

    def blank_lines(least: int) -> None:
        for _ in range(draw(st.integers(least, least + 2))):
            lines.append((draw(st.sampled_from(["", "", " ", "\t", "  \t"])), draw(ENDINGS)))

    blank_lines(0)
    for number, block in enumerate(blocks):
        if number:
            blank_lines(1)
        expected.append((" ".join(block), len(lines) + 1))
        for content in block:
            lines.append((draw(PADDING) + content + draw(PADDING), draw(ENDINGS)))
    blank_lines(0)
    if lines and draw(st.booleans()):
        lines[-1] = (lines[-1][0], "")  # no line break at the end of the file
    text = "\ufeff" if draw(st.booleans()) else ""
    previous = ""
    for content, ending in lines:
        if previous == "\r" and not content and ending == "\n":
            ending = "\r\n"  # "\r" + "\n" would be one line break, not a blank line
        text += content + ending
        previous = ending
    return text, expected


DOCUMENTS = seed_documents()
ANY_TEXT = st.one_of(st.text(), BREAKY_TEXT, DOCUMENTS.map(lambda document: document[0]))
ABSTRACTS = st.one_of(st.text(), ONE_LINE_ABSTRACTS, TOKEN_RUNS, PARAGRAPHS.map("\n".join),
                      PARAGRAPHS.map("\n\n".join), DOCUMENTS.map(lambda document: document[0]))


def universal_line_count(text: str) -> int:
    """Lines as an editor and `grep -n` count them: \\n, \\r\\n and \\r end a line."""
    return len(re.findall(r"\r\n|\r|\n", text)) + 1


# ---------------------------------------------------------------------------------------------
# 1. Seed documents
# ---------------------------------------------------------------------------------------------

@settings(max_examples=200, deadline=None, **COMMON)
@example(document=("ICML 2026\n\nWe study graphs and\n\x0cprove bounds on them.\n\nA second abstract.\n",
                   [("ICML 2026", 1), ("We study graphs and prove bounds on them.", 3), ("A second abstract.", 6)]))
@example(document=("\x0cwe\n", [("we", 1)]))
@given(document=DOCUMENTS)
def test_seed_paragraphs_are_exactly_the_blank_line_separated_blocks(document):
    text, expected = document
    parsed = parse_seed_document(text, "x.txt")
    found = [(p.text, p.line) for p in parsed.paragraphs]
    messages = [(p.source, p.message) for p in parsed.problems]
    if not expected:  # an empty file: that alone is said
        assert found == [] and [message for _, message in messages if "header" in message] == []
        assert any(source == Source("x.txt", 1) and "no abstracts" in message for source, message in messages)
    elif len(found) == len(expected):  # the first block was not taken for a header
        assert found == expected
        assert parsed.venue is None and parsed.year is None
        assert any(source == Source("x.txt", 1) and "no header" in message for source, message in messages)
    else:  # the first block is the header: it names venue and year, or is reported at its line
        assert found == expected[1:]
        header, line = expected[0]
        if parsed.venue is None:
            assert any(source == Source("x.txt", line) and "header" in message for source, message in messages)
        else:
            assert header.startswith(parsed.venue) and 1900 <= parsed.year <= 2099
    if not found:
        assert any("no abstracts" in message for _, message in messages)


@settings(max_examples=200, deadline=None, **COMMON)  # a loaded machine is slow: timings belong in bench/
@example(text="\u2028.")
@example(text="ICML 2026\n\nFirst abstract.\x0c\x0cSecond line.\n")
@given(text=ANY_TEXT)
def test_seed_parsing_never_raises_and_keeps_every_paragraph(text):
    parsed = parse_seed_document(text, "x.txt")
    lines = universal_line_count(text)
    for paragraph in parsed.paragraphs:
        assert paragraph.text and paragraph.text == paragraph.text.strip()
        assert "\n" not in paragraph.text and "\r" not in paragraph.text
        assert 1 <= paragraph.line <= lines, f"paragraph {paragraph.text!r} at line {paragraph.line} of {lines}"
    for problem in parsed.problems:
        assert 1 <= problem.source.line <= lines
    # Nothing lost, nothing invented: the input's non-blank content is the header's, then the papers'.
    # control characters become U+FFFD, invisible ones go
    content = "".join(without_invisible(replace_unsafe(text.lstrip("\ufeff")))[0].split())
    kept = "".join("".join(p.text.split()) for p in parsed.paragraphs)
    assert content.endswith(kept)
    header = content[:len(content) - len(kept)]
    messages = [problem.message for problem in parsed.problems]
    if header:
        assert parsed.venue is not None or any(m.startswith("header ") for m in messages)
    else:  # no header: said as such, or, for a file with nothing in it, as that
        assert parsed.venue is None and any(("no header" if kept else "no abstracts") in m for m in messages)


@settings(max_examples=200, deadline=None, **COMMON)
@example(path="seeds/x.csv", header="Title;Abstract", ending="\r", text="A;x\rB;y\r")  # a lone CR ends each line
@given(path=st.sampled_from(["seeds/x.csv", "seeds/x.tsv", "seeds/x.json", "seeds/x.jsonl"]),
       header=st.sampled_from(["", "Title,Abstract", "Title;Abstract", "Title\tAbstract", '{"title": "A"}']),
       ending=ENDINGS, text=ANY_TEXT)
def test_structured_list_parsing_never_raises_and_names_its_file(path, header, ending, text):
    parsed = parse_record_file(header + ending + text, path)
    assert all(problem.source.path == path for problem in parsed.problems)
    assert all(record.title or record.abstract for record in parsed.records)


# ---------------------------------------------------------------------------------------------
# 2. Abstract markup
# ---------------------------------------------------------------------------------------------

MARKUP = TextConverter()
STRICT = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
MATHML = "{http://www.w3.org/1998/Math/MathML"
INLINE = {"b", "strong", "i", "em", "u", "sub", "sup", "br", "code", "tt", "small"}  # markup.INLINE_TAGS but links
HTML_ATTRIBUTES = {"p": set(), "a": {"href"}} | {name: set() for name in INLINE} | {"code": {"class"}}
NEVER = {"script", "style", "iframe", "img", "svg", "object", "embed", "link", "meta", "base", "form", "input",
         "textarea", "title", "frame", "frameset"}
# Characters that HTML calls parse errors in a document (controls and noncharacters).
INVALID_IN_HTML = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f\ufdd0-\ufdef\ufffe\uffff]|"
                             + "|".join(chr(plane * 0x10000 + 0xfffe) + "|" + chr(plane * 0x10000 + 0xffff)
                                        for plane in range(1, 17)))
TAG = re.compile(r"</?([A-Za-z][A-Za-z0-9]*)[^<>]*>")


def check_html(fragment: str, allowed: set[str]) -> None:
    """Well-formed, safe HTML: only the elements and attributes that markup.py means to write."""
    assert not INVALID_IN_HTML.search(fragment), f"control character or noncharacter in HTML: {fragment!r}"
    tree = STRICT.parseFragment(fragment)  # raises html5lib's ParseError on any parse error
    names = []
    for element in tree.iter():
        if element is tree:
            continue
        assert isinstance(element.tag, str), f"a comment or other non-element node in {fragment!r}"
        namespace, _, name = element.tag.rpartition("}")
        names.append(name)
        attributes = {key.rpartition("}")[2]: value for key, value in element.attrib.items()}
        assert name.lower() not in NEVER
        assert not any(key.lower().startswith("on") for key in attributes)
        if namespace == MATHML:
            assert name in _MATHML_TAGS, f"<{name}> in math"
            assert set(attributes) <= _MATHML_ATTRIBUTES, f"<{name} {attributes}> in math"
        else:
            assert name in allowed, f"<{name}> in {fragment!r}"
            assert set(attributes) <= HTML_ATTRIBUTES[name], f"<{name} {attributes}> in {fragment!r}"
        if name == "a":
            assert attributes["href"].lower().startswith(("http://", "https://")), attributes["href"]
    # Round trip: every '<' is one of the tags the parser saw, in the same order; no stray '<' or '>'.
    assert [match[1] for match in TAG.finditer(fragment) if not match[0].startswith("</")] == names
    outside = TAG.sub("", fragment)
    assert "<" not in outside and ">" not in outside, f"unescaped '<' or '>' in {fragment!r}"


@settings(max_examples=200, deadline=None, **COMMON)
@example(text="\ue0000\ue001")
@example(text="an escape character \x1b from a PDF")
@given(text=ABSTRACTS)
def test_abstract_html_is_well_formed_and_safe(text):
    rendered = MARKUP.abstract_html(text)
    check_html(rendered.html, {"p", "a"} | INLINE)
    assert not leaked_markers(text, rendered.html), f"placeholder in {rendered.html!r}"
    assert all(isinstance(problem, str) and problem for problem in rendered.problems)


@settings(max_examples=200, deadline=None, **COMMON)
@example(text="\ue0000\ue001")
@example(text="\x08")
@given(text=ABSTRACTS)
def test_inline_html_is_well_formed_safe_and_has_no_paragraph_or_link(text):
    check_html(MARKUP.inline_html(text), INLINE)


def joined(fragments: list[str], most: int = 12) -> st.SearchStrategy[str]:
    """Texts of up to `most` of these fragments, in any order, repeats allowed."""
    return st.lists(st.sampled_from(fragments), max_size=most).map("".join)


TITLE_LIKE = joined(["Graph", "net", "2", "论文", "é", " ", "  ", "-", "--", ",", ".", "...", ":", ";",
                    "(", ")", "?", "+", "=", "_", "'", "\"", "*", "&", "<", "/", "#", "1."])


@settings(max_examples=300, deadline=None, **COMMON)
@example(text="A Model That Works.")
@example(text="1. Introduction")
@example(text="Rate--Distortion")
@given(text=TITLE_LIKE)
def test_a_text_with_nothing_to_convert_skips_the_converter_with_the_same_result(text):
    converted = MARKUP.convert(text, links=False)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(markup_module, "_as_written", lambda text: None)
        assert MARKUP.convert(text, links=False) == converted


def test_plain_titles_and_names_skip_the_converter():
    for text in ("A Model That Works.", "GraphZen", "Scaling Laws for 3D Point Clouds: A Study", "图神经网络"):
        assert markup_module._as_written(text) == MARKUP.convert(text, links=False)
    assert markup_module._as_written("Rate--Distortion") is None


PROSE_LIKE = joined(["Graph", "net", "2", "论文", "é", " ", "\u00a0", "\u2003", "\u200b", "\x0c", "\x1c",
                    "&", "&amp;", "<", ">", "-", ".", "$", "#", "[a](b)", "~", "+", "\ufdd00\ufdd1",
                    "'", "*", "_", "\\", "\n"])


@settings(max_examples=300, deadline=None, **COMMON)
@example(text=" leading space")
@example(text="trailing space\u00a0")
@example(text="a\x1c")
@given(text=PROSE_LIKE)
def test_prose_that_markdown_would_only_escape_skips_it_with_the_same_html(text):
    assert MARKUP._paragraphs(text) == MARKUP._markdown.render(text).removesuffix("\n")


# Words and marks around them, where a word boundary or a hyphen decides a match.
WORDISH = st.text(alphabet=st.sampled_from(list("ab-_ .,\u00e91")), max_size=24)


@settings(max_examples=300, deadline=None, **COMMON)
@given(text=WORDISH, name=st.text(alphabet=st.sampled_from(list("ab-")), min_size=1, max_size=3))
def test_a_names_places_are_those_its_pattern_finds(text, name):
    for alone, pattern in ((False, re.escape(name)), (True, rf"(?<![\w\-]){re.escape(name)}(?![\w\-])")):
        assert list(_written_at(name, text, alone)) == [found.span() for found in re.finditer(pattern, text)]


@settings(max_examples=300, deadline=None, **COMMON)
@given(text=WORDISH, flags=st.sampled_from([0, re.IGNORECASE]))
def test_word_start_after_a_first_letter_is_a_word_boundary_before_it(text, flags):
    for word in ("a", "ab", "ba"):
        written = re.compile(rf"{word[0]}{WORD_START}{word[1:]}", flags)
        assert [m.span() for m in written.finditer(text)] == [m.span() for m in re.finditer(rf"\b{word}", text, flags)]


def leaked_markers(text: str, output: str) -> list[str]:
    """Placeholders left in output: Python-Markdown's stash (klzzwxh:0000) and STX/ETX ones, and
    markup.py's noncharacter ones. The input's own controls and noncharacters never reach output
    (they become U+FFFD); the word klzzwxh may, when the input wrote it."""
    found = re.findall("[\x02\x03\ufdd0\ufdd1]", output)
    return found + (["klzzwxh"] if "klzzwxh" in output and "klzzwxh" not in text else [])


def loosely(text: str) -> str:
    """The text without the characters that markup consumes ($, backslashes, braces, emphasis)."""
    return re.sub(r"[$\\{}*_\s]", "", text)


@settings(max_examples=200, deadline=None, **COMMON)
@example(text="\ue0000\ue001")
@given(text=ABSTRACTS)
def test_plain_text_has_no_markup_of_ours_and_no_math_delimiters(text):
    plain = MARKUP.plain(text)
    assert plain == " ".join(plain.split())
    # A tag-like '<x' in plain text is one the abstract itself wrote (and we escaped), never ours.
    for tag in re.findall(r"</?[A-Za-z]+", plain):
        assert tag in loosely(text), f"{tag!r} in plain text {plain!r}"
    assert not leaked_markers(text, plain), f"a placeholder is left in {plain!r}"
    # The '$' that delimit math are gone: only the abstract's other '$' can remain.
    segments, _ = split_math(text)
    delimiters = sum(s.written.count("$") - s.content.count("$") for s in segments if s.kind != "text")
    assert plain.count("$") <= text.count("$") - delimiters, f"math delimiters left in {plain!r}"


# Text made of what Markdown, LaTeX and HTML give meaning to: emphasis, backquotes, macros,
# angle brackets, dollars, brackets, escapes, quotes, links and paragraph breaks.
MARKUP_SOUP = joined([
    "*", "**", "_", "__", "`", "``", "''", "\\emph{", "\\textbf{", "{", "}", "<", "<b>", "</p>", ">", "&", "&lt;",
    "$", "$$", "$5", "\\(", "\\)", "\\[", "\\]", "[", "]", "](", "(", ")", "\\", '"', "'", "~", "--", "...",
    " ", " ", "a", "b c", "x_1", "https://a.io/x", "\n", "\n\n", "\ufdd00\ufdd1", "\x02"], most=60)


@settings(max_examples=300, deadline=None, **COMMON)
@example(text="*a \\emph{b* } < *c*")
@given(text=st.one_of(MARKUP_SOUP, MARKUP_SOUP.map(lambda soup: f"We propose FooNet, a {soup} model."),
                      ONE_LINE_ABSTRACTS, st.text()))
def test_no_placeholder_and_no_stray_angle_bracket_reaches_html_plain_text_or_title(text):
    converted = MARKUP.abstract_html(text)
    title = extract(text, TAXONOMY, "general").title
    outputs = [converted.html, converted.plain, MARKUP.inline_html(title), MARKUP.plain(title)]
    for output in outputs:
        assert not leaked_markers(text, output), f"placeholder in {output!r}"
    check_html(converted.html, {"p", "a"} | INLINE)  # every '<' is a tag of ours
    check_html(outputs[2], INLINE)


# ---------------------------------------------------------------------------------------------
# 3. Extraction
# ---------------------------------------------------------------------------------------------

TAXONOMY = (
    Topic("rl", "Reinforcement learning", ("reinforcement learning", "policy", "reward")),
    Topic("vision", "Computer vision", ("image", "video")),
    Topic("graphs", "Graphs", ("graph", "node")),
    Topic("language", "Language models", ("llm", "language model", "token")),
    Topic("general", "Machine learning", ()),
)
# fit_title aims at MAX_TITLE visible characters; a name prefix or a last word may overrun a little.
TITLE_LIMIT = MAX_TITLE + 20
SENTENCES = st.one_of(
    LINES.map(lambda words: words + "."),
    st.tuples(st.sampled_from(["We propose", "We introduce", "we present", "This paper develops", "We study",
                               "We show that", "We devise"]), LINES).map(" ".join).map(lambda s: s + "."),
    st.tuples(st.sampled_from(["ZetaNet", "LS$^2$MC-GDA", "**FooBar**", "$\\textbf{Long Name (LN)}$", "TRIX"]),
              LINES).map(lambda t: f"We propose {t[0]}, a {t[1]}."),
)
EXTRACTION_TEXTS = st.one_of(st.text().filter(str.strip), ONE_LINE_ABSTRACTS, ONE_LINE_TEXT, TOKEN_RUNS,
                             st.lists(SENTENCES, min_size=1, max_size=4).map(" ".join))


def visible_length(title: str) -> int:
    """Characters a reader sees: math delimiters, macro names, braces and scripts are not."""
    return len(re.sub(r"\$|\\[A-Za-z]+|[{}^_]", "", title))


def untagged(text: str) -> str:
    """The abstract without the inline HTML tags a reader does not see (`<b>N</b>euron` reads Neuron),
    spaces as a page shows them."""
    return re.sub(r"\s+", " ", re.sub(r"</?(?i:" + "|".join(sorted(INLINE_TAGS)) + r")\b[^<>]*>", "", text))


def unmarked(text: str) -> str:
    """The abstract as a reader sees it, also without emphasis and text macros, from which names are read."""
    return re.sub(r"\\(?:emph|textit|textbf|text\w*)\{|[*_{}$]", "", untagged(text))


@settings(max_examples=200, deadline=None, **COMMON)
@example(text="* * *")
@example(text="\u2014 We study how graphs grow and prove tight bounds.")
@example(text="WE PROPOS'A<A>_A")
@given(text=EXTRACTION_TEXTS)
@example(
    text='WE PROPOS"0000000000000000000000000000000000000<AA 000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000',
).via('discovered failure')
def test_extraction_gives_a_short_title_known_topics_and_names_from_the_text(text):
    found = extract(text, TAXONOMY, "general")
    assert found.title.strip()
    assert visible_length(found.title) <= TITLE_LIMIT, f"{visible_length(found.title)} characters: {found.title!r}"
    assert 1 <= len(found.topics) <= 4 and len(set(found.topics)) == len(found.topics)
    assert set(found.topics) <= {topic.slug for topic in TAXONOMY}
    for name in filter(None, (found.name, *found.other_names)):
        # an underscore that opens no emphasis stays as written ("A<a>_B" reads "A_B")
        assert any(name in seen for seen in (text, untagged(text), unmarked(text))), \
            f"name {name!r} is not in the abstract"
    for link in found.links:
        assert link.url.lower().startswith(("http://", "https://"))


# ---------------------------------------------------------------------------------------------
# 4. Ingest, end to end on a scratch folder
# ---------------------------------------------------------------------------------------------

SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
SKIPPED = re.compile(r"same abstract|skipped")  # a paragraph that is listed once, or is not an abstract


def snapshot(folder: Path) -> dict[str, bytes]:
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in sorted(folder.rglob("*"))
            if path.is_file()}


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow], **COMMON)
@example(paragraphs=["\u2014 We study how graphs grow and prove tight bounds."])
@example(paragraphs=["* * * * *"])
@example(paragraphs=["We study it with \ue0000\ue001 here."])
@given(paragraphs=st.lists(st.one_of(ONE_LINE_ABSTRACTS, ONE_LINE_TEXT, TOKEN_RUNS),
                           min_size=1, max_size=5))
def test_ingest_makes_one_paper_per_paragraph_with_a_valid_slug_and_is_repeatable(paragraphs):
    # A fresh folder for each example: pytest's tmp_path would be shared by all of them.
    with tempfile.TemporaryDirectory() as scratch:
        seeds, content = Path(scratch, "seeds"), Path(scratch, "content")
        seeds.mkdir()
        content.mkdir()
        shutil.copy(PROJECT / "content" / "topics.yaml", content / "topics.yaml")
        (seeds / "000_list.txt").write_text("ICML 2026 论文列表\n\n" + "\n\n".join(paragraphs) + "\n",
                                            encoding="utf-8")

        cache = Cache(None, KEPT_TYPES)
        report = ingest(seeds, content, cache=cache)
        skipped = [problem for problem in report.problems if SKIPPED.search(problem.message)]
        if any(problem.message.startswith("not a text file") for problem in skipped):  # NUL: the whole file
            assert report.papers == 0 and len(skipped) == 1
        else:
            assert report.papers + len(skipped) == len(paragraphs)
        papers = read_papers(content)  # what ingest wrote, read back by the strict reader
        assert len(papers) == report.papers == report.added
        for path, paper in papers.items():
            assert SLUG.match(paper.slug) and path.name == f"{paper.slug}.md"
        # Ingest remembers each file it wrote as read: what the next build takes from the cache
        # instead of parsing is exactly what parsing gives.
        remembered = cache.get_many(CONTENT, [content_key(str(path), path.stat()) for path in papers])
        assert sorted(remembered.values(), key=lambda p: p.id) == sorted(papers.values(), key=lambda p: p.id)

        before = snapshot(content)
        again = ingest(seeds, content)
        assert snapshot(content) == before
        assert (again.papers, again.added, again.updated) == (report.papers, 0, 0)
