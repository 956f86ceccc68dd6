import html
import re

import pytest

from catalogue.markup import Markup, repair_math, split_math


@pytest.fixture(scope="module")
def markup():
    return Markup()


def visible_text(html: str) -> str:
    """What a reader sees outside math: tags dropped, entities kept as written."""
    return re.sub(r"<[^>]+>", "", re.sub(r"<math.*?</math>", "", html, flags=re.S))


@pytest.mark.parametrize("text, expected", [
    ("**bold** and *italic*", "<strong>bold</strong> and <em>italic</em>"),
    ("**T**ensor **I**ntrinsic", "<strong>T</strong>ensor <strong>I</strong>ntrinsic"),
    (r"\emph{semantic stratification}", "<em>semantic stratification</em>"),
    (r"\textbf{strong}", "<strong>strong</strong>"),
    (r"a 34\% rate", "a 34% rate"),
    ("Lean~4", "Lean\u00a04"),
    ("rate--distortion", "rate\u2013distortion"),
    ("LMs---such as", "LMs\u2014such as"),
    ("``quoted''", "\u201cquoted\u201d"),
    ('"skills" and the model\'s', "\u201cskills\u201d and the model\u2019s"),
    (r"100\,GiB", "100\u202fGiB"),
])
def test_text_macros_and_emphasis(markup, text, expected):
    assert html.unescape(markup.abstract_html(text).html) == f"<p>{expected}</p>"


@pytest.mark.parametrize("text", [
    "<script>alert(1)</script>",
    '<img src=x onerror="alert(1)">',
    "[click](javascript:alert(1))",
    "{{ config }} {% raw %}",
    "</title><svg onload=alert(1)>",
])
def test_html_in_abstracts_is_shown_not_run(markup, text):
    html = markup.abstract_html(text).html
    assert "<script" not in html and "<img" not in html and "<svg" not in html
    assert "href" not in html
    assert "&lt;" in html or "{{" in html or "[click]" in html


def test_percent_in_math_is_kept(markup):
    # $69\\%$ as written in a seed: a naive converter reads a line break and a comment.
    html = markup.abstract_html(r"rises from $8\\%$ to $69\\%$.").html
    assert html.count("<math") == 2
    assert html.count("&#x00025;") == 2  # the percent sign, inside the math
    assert markup.plain(r"rises from $8\\%$ to $69\\%$.") == "rises from 8% to 69%."


def test_inline_math_becomes_mathml_and_no_dollar_remains(markup):
    html = markup.abstract_html(r"complexity $O(\kappa^{3/2}/N\epsilon^3)$ and $\mathcal{O}(3^n)$").html
    assert html.count("<math") == 2 and "<msup>" in html
    assert "$" not in visible_text(html) and "\\" not in visible_text(html)


def test_superscript_attached_to_a_name(markup):
    assert "<msup>" in markup.inline_html("LS$^2$MC-GDA")
    assert markup.plain("LS$^2$MC-GDA") == "LS\u00b2MC-GDA"


def test_math_holding_only_text_becomes_text(markup):
    html = markup.abstract_html(r'''we propose $\textbf{Thought Guidance (TG)}$, and $\textbf{``Interrupt" (IRG)}$''').html
    assert "<math" not in html
    assert "<strong>Thought Guidance (TG)</strong>" in html
    assert "<strong>\u201cInterrupt\u201d (IRG)</strong>" in html


@pytest.mark.parametrize("text, problem", [
    (r"bad $x^{2$ here", "could not be converted"),
    (r"a lone $ sign", "unbalanced '$'"),
    (r"a line break $a \\ b$ inline", "could not be converted"),
    (r"link $\href{javascript:alert(1)}{x}$", "could not be converted"),
    (r"\(x + y", "unclosed"),
])
def test_malformed_math_is_shown_as_written_and_reported(markup, text, problem):
    rendered = markup.abstract_html(text)
    assert any(problem in message for message in rendered.problems)
    assert "href=" not in rendered.html
    assert "<math" not in rendered.html


@pytest.mark.parametrize("text", ["costs $5 per run", "from $5 to $10 a day"])
def test_prices_are_not_math(markup, text):
    rendered = markup.abstract_html(text)
    assert rendered.html == f"<p>{text}</p>" and rendered.problems == ()


@pytest.mark.parametrize("text, kinds", [
    ("$a$ and $$b$$ and \\(c\\) and \\[d\\]", ["math", "text", "display", "text", "math", "text", "display"]),
    ("with $<$2% collisions", ["text", "math", "text"]),
    ("$\\epsilon > 0 $ for", ["math", "text"]),
])
def test_split_math(text, kinds):
    segments, problems = split_math(text)
    assert [s.kind for s in segments] == kinds and problems == []
    assert "".join(s.written for s in segments) == text


@pytest.mark.parametrize("latex, repaired", [
    (r"69\\%", r"69\%"), ("50%", r"50\%"), ("^2", "{}^2"), (r"\kappa", r"\kappa"),
])
def test_repair_math(latex, repaired):
    assert repair_math(latex) == repaired


def test_urls_and_bare_domains_become_links(markup):
    html = markup.abstract_html("Code: https://github.com/a/b. Site: causalgame.github.io, e.g. here.").html
    assert '<a href="https://github.com/a/b">https://github.com/a/b</a>.' in html
    assert '<a href="https://causalgame.github.io">causalgame.github.io</a>,' in html
    assert html.count("<a ") == 2


@pytest.mark.parametrize("written, shown", [
    ("\ue0000\ue001", "\ue0000\ue001"),  # private-use characters, as PDFs carry them: text
    ("\ufdd00\ufdd1", "\ufffd0\ufffd"),  # the noncharacters our placeholders use: replaced
])
def test_text_that_looks_like_a_placeholder_is_kept_as_text(markup, written, shown):
    converted = markup.abstract_html(f"see $x$ and {written} here")
    assert converted.html.count("<math") == 1 and f"</math> and {shown} here</p>" in converted.html
    assert converted.plain == f"see x and {shown} here"


LEAKS = re.compile("klzzwxh|[\x02\x03\ufdd0\ufdd1]")  # Python-Markdown's placeholders and ours
OUR_TAGS = re.compile(r"</?(?:p|em|strong|b|i|u|sub|sup|code|tt|small)>|<br>|<a href=\"[^\"<>]*\">|</a>|<math.*?</math>",
                      re.S)


@pytest.mark.parametrize("text", [
    r"*a \emph{b* } < *c*",  # leaked klzzwxh:0000 through Python-Markdown 3.11.3 (issue 17)
    r"**a \textbf{b** } <b> **c**",
    r"*a `b* } < `*c*",
    r"_a \emph{b_ } <i>x</i> _c_ [d](e) <https://a.io>",
    r"*$x$ \emph{<y>* } < *$z$*",
    r"<!-- *a* --> <script>*b*</script> &lt;*c*&gt;",
    "\\emph{a\\\n*b* }",
])
def test_emphasis_across_macros_and_html_never_leaks_a_placeholder(markup, text):
    converted = markup.abstract_html(text)
    title = markup.inline_html(text)
    for output in (converted.html, converted.plain, title, markup.plain(text)):
        assert not LEAKS.search(output), output
    for fragment in (converted.html, title):
        assert "<" not in OUR_TAGS.sub("", fragment), fragment  # every '<' of the text is escaped
    if "<math" not in converted.html:  # the plain text is what a reader sees, markup aside
        assert " ".join(html.unescape(visible_text(converted.html)).split()) == converted.plain
