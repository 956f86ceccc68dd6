import html
import json
import re
import shutil
import sys
from html.parser import HTMLParser

import pytest

from catalogue.ingest.extract import plain_for_extraction
from catalogue.markup.convert import TextConverter
from catalogue.markup.formulas import math_to_text, render_math, repair_math
from catalogue.markup.inline_html import without_inline_html
from catalogue.markup.segments import split_math
from catalogue.search.offline import read_offline_index
from catalogue.text import find_urls

from conftest import PROJECT, run_cli
from tag_leaks import find_tag_leaks

sys.path.insert(0, str(PROJECT))
from bench.markup_corpus import CONSTRUCTS, math_counts  # noqa: E402
from catalogue.routes import bucket, paper_page

SAMPLE = [json.loads(line) for line in (PROJECT / "tests" / "data" / "corpus_sample.jsonl").open(encoding="utf-8")]


@pytest.fixture(scope="module")
def markup():
    return TextConverter()


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
    assert html.count('<math display="inline">') == 2  # no xmlns: the HTML parser implies MathML's namespace
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
    assert [s.kind for s in segments] == kinds and problems == ()
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


# --- Inline HTML as venues publish it (issue 18, item 1) -------------------------------------
# The corpus holds almost no tags (newer ICML abstracts have many): these examples are written.

@pytest.mark.parametrize("text, expected", [
    ("<b>N</b>euron", "<b>N</b>euron"),
    ("CO<sub>2</sub> and 10<sup>-3</sup>", "CO<sub>2</sub> and 10<sup>-3</sup>"),
    ("<i>a</i> <em>b</em> <strong>c</strong> <u>d</u>", "<i>a</i> <em>b</em> <strong>c</strong> <u>d</u>"),
    ("<code>torch</code>, <tt>jax</tt>, <small>tiny</small>", "<code>torch</code>, <tt>jax</tt>, <small>tiny</small>"),
    ("one<br>two<br/>three<br />four", "one<br>two<br>three<br>four"),
    ("<B>Upper</B>", "<b>Upper</b>"),
    ('<b class="x" onclick="alert(1)">attributes go</b>', "<b>attributes go</b>"),
    ('<a href="https://github.com/a/b" target="_blank" onclick="x()">code</a>', '<a href="https://github.com/a/b">code</a>'),
    ("<a href='http://x.org/?a=1&amp;b=2'>site</a>", '<a href="http://x.org/?a=1&amp;b=2">site</a>'),
])
def test_allowlisted_tags_mean_what_they_say(markup, text, expected):
    assert markup.abstract_html(text).html == f"<p>{expected}</p>"


@pytest.mark.parametrize("text", [
    "<span>x</span>", "<script>alert(1)</script>", '<img src=x onerror="alert(1)">', "<div>x</div>",
    '<a href="javascript:alert(1)">x</a>', '<a href="data:text/html,x">x</a>', "<a>no address</a>",
    "<s, a, r> tuples", "an <image, question> pair", "<b, c>",
])
def test_every_other_tag_is_text(markup, text):
    converted = markup.abstract_html(text)
    assert "&lt;" in converted.html
    assert "<" not in re.sub(r"</?p>", "", converted.html), converted.html  # no element but the paragraph
    assert "<" in converted.plain  # shown as written


@pytest.mark.parametrize("text, plain", [
    ("<b>N</b>euron <b>A</b>ware", "Neuron Aware"),
    ("CO<sub>2</sub>", "CO2"),
    ("first<br>second", "first second"),
    ('see <a href="https://x.org">our site</a>.', "see our site."),
    ("<b>unclosed and </i>stray", "unclosed and stray"),
])
def test_tags_never_show_in_plain_text_and_split_no_word(markup, text, plain):
    assert markup.plain(text) == plain
    assert markup.abstract_html(text).plain == plain


class _Nesting(HTMLParser):
    """Fails on an end tag that does not close the innermost open element; collects what stays open."""
    VOID = {"br"}

    def __init__(self):
        super().__init__()
        self.open: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_endtag(self, tag):
        assert self.open and self.open[-1] == tag, f"</{tag}> closes {self.open}"
        self.open.pop()


@pytest.mark.parametrize("text", [
    "<b>never closed", "closed </b> never opened", "<b><i>crossed</b></i>", "*<b>a* b</b>", "<b>*a</b> b*",
    "<b>a $x$ b</b>", "<a href=\"https://a.io\">https://a.io and <a href=\"https://b.io\">b</a></a>",
    "<sub><sup><b>" * 20, "</b>" * 20,
])
def test_tags_are_balanced_whatever_the_abstract_writes(markup, text):
    for fragment in (markup.abstract_html(text).html, markup.inline_html(text)):
        checker = _Nesting()
        checker.feed(fragment)
        assert checker.open == [], fragment


def test_titles_hold_no_links(markup):
    title = markup.inline_html('<a href="https://x.org">Site</a> of \\href{https://y.org}{Y} and [Z](https://z.org)')
    assert "<a" not in title and title == "Site of Y and Z"


def test_a_link_inside_a_link_is_text(markup):
    converted = markup.abstract_html('<a href="https://x.org/a">https://x.org/a</a>')
    assert converted.html == '<p><a href="https://x.org/a">https://x.org/a</a></p>'


@pytest.mark.parametrize("text, expected", [
    ("We call it <b>TWA</b>.", "We call it TWA."),
    ("a<br>b", "a b"),
    ("<span>kept</span>", "<span>kept</span>"),
    ("Q&amp;A and &#39;quotes&#39;", "Q&A and 'quotes'"),
])
def test_without_inline_html_is_what_the_extractor_reads(text, expected):
    assert without_inline_html(text) == expected


@pytest.mark.parametrize("abstract, read", [
    ("called Training with Annotations (<b>TWA</b>).", "called Training with Annotations (TWA)."),
    ("<b>N</b>euron <b>A</b>ware <b>T</b>raining", "Neuron Aware Training"),
    ("We propose **FooNet** and _BarNet_.", "We propose FooNet and BarNet."),
    ("the system $x_{t+1} = A x_t + w_t$ and $a^*$", "the system $x_{t+1} = A x_t + w_t$ and $a^*$"),
    ("we present \\texttt{Hummer}, an \\underline{e}lastic \\textsc{Net}", "we present Hummer, an elastic Net"),
    ("a novel framework \\emphMultiple Instance LEArning", "a novel framework Multiple Instance LEArning"),
])
def test_the_extractor_reads_words_not_tags_and_formulas_as_written(abstract, read):
    assert plain_for_extraction(abstract) == read


@pytest.mark.parametrize("text, plain", [
    ("Q&amp;A", "Q&A"), ("it&#39;s", "it\u2019s"), ("x &lt; y", "x < y"), ("&amp;lt;", "&lt;"),
    ("&lt;b&gt;shown&lt;/b&gt;", "<b>shown</b>"),  # decoded once: the tag is text, as the venue wrote it
    ("R&D and AT&T stay", "R&D and AT&T stay"),
])
def test_html_entities_are_decoded_once(markup, text, plain):
    converted = markup.abstract_html(text)
    assert converted.plain == plain
    assert "<b>" not in converted.html


# --- LaTeX and Markdown in text (issue 18, item 2) --------------------------------------------

@pytest.mark.parametrize("text, expected", [
    (r"Code: \url{https://github.com/a/b}.", 'Code: <a href="https://github.com/a/b">https://github.com/a/b</a>.'),
    (r"at \url{sites.google.com/view/x}", 'at <a href="https://sites.google.com/view/x">sites.google.com/view/x</a>'),
    (r"\href{https://github.com/a/b}{\textit{this repo}}", '<a href="https://github.com/a/b"><em>this repo</em></a>'),
    ("[https://a.io/x](https://a.io/x)", '<a href="https://a.io/x">https://a.io/x</a>'),
    ("on the [website](https://a.io)", 'on the <a href="https://a.io">website</a>'),
    (r"{\em small} {\bf big} {\it it}", "<em>small</em> <strong>big</strong> <em>it</em>"),
    (r"in \em small clusters", "in small clusters"),
    (r"5\% \& a\_b", "5% &amp; a_b"),
    (r"a \cdot b \geq c, O(\log n), \| T \|", "a · b ≥ c, O(log n), ‖ T ‖"),
    (r"\emph{a $x$ b}", "<em>a \u2060x\u2060 b</em>"),
    (r"as in \cite{smith2020} and \eg here", "as in [smith2020] and e.g. here"),
    (r"rate O(\sqrt T) and \mathbbR^n", "rate O(√(T)) and ℝ^n"),
    (r"we show: \begin{itemize} \item one \item two \end{itemize}", "we show: • one • two"),
    # braces an export lost: the styled word stays, the citation goes
    (r"the method \emphcanonical correlation analysis, \textitAppGrad", "the method canonical correlation analysis, AppGrad"),
    (r"known results \citep and bounds \citetRakhShaSri.", "known results and bounds."),
    (r"the Cram\'er-Rao bound, Erd\H{o}s, G\"{o}del, a na{\"i}ve Poincar\'{e} map, \c{c}a, Mart\'{\i}n",
     "the Cramér-Rao bound, Erdős, Gödel, a naïve Poincaré map, ça, Martín"),
    # braces around a word print nothing in LaTeX; a set's stay
    (r"Polyak–{Ł}ojasiewicz, Fr{é}chet, ({ReasoNet}) {—} a set {1,2,3}", "Polyak–Łojasiewicz, Fréchet, (ReasoNet) — a set {1,2,3}"),
])
def test_latex_and_markdown_in_text(markup, text, expected):
    converted = markup.abstract_html(text)
    shown = re.sub(r"<math.*?</math>", "\u2060x\u2060", converted.html, flags=re.S)
    assert shown == f"<p>{expected}</p>"
    assert converted.problems == ()


@pytest.mark.parametrize("text", [
    "[https://github.com/a/b](https://github.com/a/b)", "[code](https://github.com/a/b)", "(https://github.com/a/b)",
])
def test_a_markdown_link_holds_no_broken_address(text):
    assert {href for _, _, href in find_urls(text)} == {"https://github.com/a/b"}


@pytest.mark.parametrize("latex, text", [
    (r"\\boldsymbol{\\mu}", "μ"),  # escaped twice
    (r"\\mathrm{SE}(3)", "SE(3)"),
    (r"\eps", "ϵ"), (r"\R^n", "ℝⁿ"), (r"\cO(d/n)", "𝒪(d/n)"), (r"\mathbbR", "ℝ"), (r"\sqrtT", "√(T)"),
    (r"\poly(mn)", "poly(mn)"), (r"\OPT", "OPT"), (r"\wt{O}(d)", "Õ(d)"), (r"\vectheta", "θ"),
])
def test_a_papers_own_macros_convert(latex, text):
    assert render_math(latex, display=False) is not None
    assert math_to_text(latex) == text


@pytest.mark.parametrize("latex", [r"\frac{2\gamma{(1-\gamma)^2}\epsilon", r"\frac{1}", r"\sqrt"])
def test_a_formula_missing_an_argument_reads_as_written(latex):
    """pylatexenc fills a macro's text from its arguments ('%s/%s'); without them the formula is shown as written."""
    assert math_to_text(latex) == latex


@pytest.mark.parametrize("text, formulas", [
    (r"as long as $ k \ge \sqrt{2n}$, it works", 1),
    (r"unit $ \ell^{2} $ rows", 1),
    ("a point $ x $ here", 1),
    ("costs $ 5 and $ 10 later", 0),
])
def test_dollars_with_spaces_inside(markup, text, formulas):
    converted = markup.abstract_html(text)
    assert converted.html.count("<math") == formulas
    assert ("$" in converted.plain) == (formulas == 0)


# --- The corpus sample: what real abstracts write ----------------------------------------------

@pytest.mark.parametrize("construct", [c for c in CONSTRUCTS if any(c.written.search(r["abstract"]) for r in SAMPLE)],
                         ids=lambda construct: construct.name)
def test_corpus_constructs_never_show_in_plain_text(markup, construct):
    writing = [r["abstract"] for r in SAMPLE if construct.written.search(r["abstract"])]
    left = [markup.plain(abstract) for abstract in writing if construct.left.search(markup.plain(abstract))]
    allowed = len(writing) // 10 if construct.name == "any LaTeX command" else 0  # a paper's own text macros
    assert len(left) <= allowed, left[:3]


def test_corpus_math_is_converted():
    total, unconverted = math_counts([r["abstract"] for r in SAMPLE])
    assert total >= 100 and len(unconverted) <= total // 100, unconverted


# --- A built site: no allowlisted tag shown as text anywhere ----------------------------------

TAGGED = """ICML 2025 paper list

Spiking networks are hard to train at scale. We introduce <b>N</b>euron <b>A</b>ware <b>T</b>raining (<b>NAT</b>), \
a method that trains spiking <i>neuron</i> models. NAT cuts CO<sub>2</sub> emissions by 40% and reaches 10<sup>-3</sup> \
error on CIFAR-10.<br>Code: <a href="https://github.com/example/nat">github.com/example/nat</a>.

Annotation is costly for dense prediction. We propose <em>Training with Annotations</em> (<strong>TWA</strong>), a \
framework that learns from <u>partial</u> labels with <code>torch</code> and <tt>jax</tt>, <small>at no cost</small>. \
TWA improves mIoU on ADE20K &amp; Cityscapes, and <span>other tags</span> stay text.
"""


@pytest.fixture(scope="module")
def tagged_site(tmp_path_factory):
    """Two written abstracts with tags and the sample's abstracts that write LaTeX, built with search."""
    root = tmp_path_factory.mktemp("tagged")
    (root / "seeds").mkdir()
    (root / "content").mkdir()
    shutil.copy(PROJECT / "content" / "topics.yaml", root / "content" / "topics.yaml")
    latex = [r["abstract"] for r in SAMPLE if re.search(r"\\[A-Za-z]+\{|\$", r["abstract"])][:20]
    (root / "seeds" / "000_tags.txt").write_text(TAGGED, encoding="utf-8")
    (root / "seeds" / "001_latex.txt").write_text("NeurIPS 2018 paper list\n\n" + "\n\n".join(latex) + "\n",
                                                  encoding="utf-8")
    run_cli("build", "--seeds", str(root / "seeds"), "--content", str(root / "content"), "--out", str(root / "site"))
    return root / "site"


def test_a_built_site_shows_no_tag_as_text(tagged_site):
    assert find_tag_leaks(tagged_site) == []
    page = (tagged_site / "papers" / bucket("nat") / "nat" / "index.html").read_text(encoding="utf-8")
    assert "<b>N</b>euron" in page and "CO<sub>2</sub>" in page
    assert re.search(r"<title>NAT: [^<&]+</title>", page)  # the name is read through the tags, the title is text
    assert "&lt;span&gt;" in (tagged_site / "papers" / bucket("twa") / "twa" / "index.html").read_text(encoding="utf-8")


def test_search_indexes_words_split_by_tags_as_one(tagged_site):
    offline = json.dumps(read_offline_index(tagged_site)["papers"], ensure_ascii=False)
    assert "neuron" in offline.lower() and "euron" not in offline.lower().replace("neuron", "")


@pytest.mark.parametrize("relative, leak", [
    (paper_page("nat"), "<p>&lt;b&gt;N&lt;/b&gt;euron</p>"),
    ("feed.xml", "<summary>&lt;i&gt;x&lt;/i&gt;</summary>"),
    ("data/unknown-venue.bib", "title = {<sub>2</sub>}"),
    ("search-index.js", '{"title":"\\u003cem\\u003ex"}'),
])
def test_the_checker_finds_a_planted_leak(tagged_site, tmp_path, relative, leak):
    site = tmp_path / "site"
    shutil.copytree(tagged_site, site)
    with (site / relative).open("a", encoding="utf-8") as file:
        file.write(leak)
    found = find_tag_leaks(site)
    assert len(found) >= 1 and all(line.startswith(f"{relative}: ") for line in found), found


def test_the_checker_reads_papers_json_parts_in_plain_text(tagged_site, tmp_path):
    site = tmp_path / "site"
    shutil.copytree(tagged_site, site)
    index = json.loads((site / "papers.json").read_text(encoding="utf-8"))
    part = index["parts"][0]["url"]
    catalogue = json.loads((site / part).read_text(encoding="utf-8"))
    assert find_tag_leaks(site) == [] and any("Neuron" in paper["abstract"] for paper in catalogue["papers"])
    catalogue["papers"][0]["title"] = "<b>N</b>euron"
    (site / part).write_text(json.dumps(catalogue), encoding="utf-8")
    assert [line.split(":")[0] for line in find_tag_leaks(site)] == [part, part]
