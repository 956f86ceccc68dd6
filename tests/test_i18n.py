"""Interface languages: complete string catalogues, --lang, and a Chinese build end to end."""

import json
import re
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from xml.etree import ElementTree

import pytest
from markupsafe import Markup

from catalogue.errors import CatalogueError
from catalogue.i18n.strings import LOCALES_DIR, Strings, available_languages, load_strings, localise_topic, read_table
from catalogue.model import Topic
from conftest import PROJECT, make_project, run_cli
from catalogue.routes import bucket
from site_data import list_rows, part_data, site_records


def test_english_and_chinese_are_available():
    assert {"en", "zh-CN"} <= set(available_languages())


@pytest.mark.parametrize("language", available_languages())
def test_every_catalogue_is_complete(language):
    strings = load_strings(language)  # refuses missing keys or placeholders that differ
    assert set(strings.table) == set(read_table("en"))
    assert all(isinstance(v, dict) or v.strip() for v in strings.table.values())


@pytest.mark.parametrize("tag, found", [("zh-CN", "zh-CN"), ("zh-cn", "zh-CN"), ("zh_CN", "zh-CN"), ("zh", "zh-CN"),
                                        ("en", "en"), ("en-GB", "en")])
def test_language_tags_find_their_catalogue(tag, found):
    assert load_strings(tag).language == found


def test_an_unknown_language_names_the_ones_there_are():
    with pytest.raises(CatalogueError, match=r"'fr'.*en, zh-CN"):
        load_strings("fr")


def test_a_catalogue_missing_a_key_or_placeholder_is_refused(tmp_path, monkeypatch):
    english = (LOCALES_DIR / "en.yaml").read_text(encoding="utf-8")
    broken = english.replace("  papers: Papers\n", "").replace("Add {paper} to my list", "Add to my list")
    (tmp_path / "en.yaml").write_text(english, encoding="utf-8")
    (tmp_path / "xx.yaml").write_text(broken, encoding="utf-8")
    monkeypatch.setattr("catalogue.i18n.strings.LOCALES_DIR", tmp_path)
    read_table.cache_clear()
    try:
        with pytest.raises(CatalogueError, match=r"xx.yaml: missing 'nav.papers'.*'star.add' uses \{\}, English uses \{paper\}"):
            load_strings("xx")
    finally:
        read_table.cache_clear()


@pytest.mark.parametrize("count, expected", [(0, "0 papers"), (1, "1 paper"), (2, "2 papers")])
def test_plural_forms_follow_the_count(count, expected):
    assert load_strings("en").text("count.papers", count) == expected
    assert load_strings("zh-CN").text("count.papers", count) == f"{count} 篇论文"  # Chinese has one form


def test_values_are_escaped_unless_already_markup():
    strings = Strings("en", {"a": "Add {paper} & more", "b": "Now {link}."})
    assert strings("a", paper="<b>x</b>") == "Add &lt;b&gt;x&lt;/b&gt; &amp; more"
    assert strings("b", link=Markup('<a href="x">y</a>')) == 'Now <a href="x">y</a>.'
    assert strings.text("a", paper="<b>") == "Add <b> & more"  # plain text for Python callers


def used_keys() -> set[str]:
    """Every key the templates, the package and the scripts ask for."""
    keys = set()
    for path in [*(PROJECT / "templates").glob("*.html"), *(PROJECT / "catalogue").rglob("*.py")]:
        keys |= set(re.findall(r"""\bt\(\s*["']([a-z_.]+)["']""", path.read_text(encoding="utf-8")))
    for path in (PROJECT / "assets").glob("*.js"):
        source = path.read_text(encoding="utf-8")
        keys |= {f"script.{k}" for k in re.findall(r"""\btext\(\s*["']([a-z_]+)["']""", source)}
        keys |= {f"script.{k}" for k in re.findall(r"""catalogueText\(\s*["']([a-z_]+)["']""", source)}
        keys |= {f"script.{k}" for k in re.findall(r"""catalogueSite\(\s*["']strings["']\)\.([a-z_]+)""", source)}
    i18n = (PROJECT / "catalogue" / "i18n" / "strings.py").read_text(encoding="utf-8")
    keys |= {f"script.{k}" for k in re.findall(r'SCRIPT_GROUP \+ "([a-z_]+)"', i18n)}
    return keys


def test_every_string_is_used_and_every_used_string_exists():
    table = set(read_table("en"))
    # search.js composes the no-match keys from their parts; the language's own name is for people.
    composed = {"script.no_match", "script.no_match_query", "script.no_match_filters", "script.no_match_query_filters"}
    assert used_keys() - table == set()
    assert table - used_keys() - composed - {"language_name"} == set()


@pytest.mark.parametrize("language, label", [("zh-CN", "图学习"), ("zh", "图学习"), ("zh_cn", "图学习"),
                                             ("en", "Graphs"), ("fr", "Graphs")])
def test_topic_labels_follow_the_language(language, label):
    topic = Topic("graphs", "Graphs", ("graph",), (("zh-CN", "图学习"),))
    assert localise_topic(topic, language).label == label


CHINESE_SEED = """ICLR 2026 论文列表

我们提出 GraphZen，一种用于强化学习的图神经网络方法，在十个基准上显著提高了样本效率并降低了训练成本。

我们研究大语言模型在数学定理证明中的推理能力，提出了一个新的评测基准，并分析了常见的失败模式。
"""


@pytest.fixture(scope="module")
def chinese_site(tmp_path_factory):
    root = make_project(tmp_path_factory.mktemp("zh"))
    for english in (root / "seeds").glob("*.txt"):  # Chinese papers only: any English left is the interface's
        english.unlink()
    (root / "seeds" / "zh_iclr_2026.txt").write_text(CHINESE_SEED, encoding="utf-8")
    (root / "site.toml").write_text('title = "论文目录"\ndescription = "可浏览、搜索、引用和分享的会议论文。"\n', encoding="utf-8")
    run_cli("build", "--seeds", str(root / "seeds"), "--content", str(root / "content"), "--out", str(root / "site"),
            "--config", str(root / "site.toml"), "--lang", "zh-CN")
    return root / "site"


def visible_text(html: str) -> str:
    """The page's text outside abstracts, citations and data (what the interface itself says)."""
    html = re.sub(r"<(script|style|pre)\b.*?</\1>", " ", html, flags=re.S)
    html = re.sub(r'<section class="abstract".*?</section>', " ", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


def test_chinese_build_has_no_english_interface_text(chinese_site: Path):
    english = [text for key, text in read_table("en").items()
               if isinstance(text, str) and "{" not in text and len(text) > 5 and not key.startswith("script.")
               and text != read_table("zh-CN")[key]]
    pages = [chinese_site / "index.html", chinese_site / "search.html", chinese_site / "list.html",
             chinese_site / "stats" / "index.html", chinese_site / "404.html",
             *sorted((chinese_site / "papers").glob("*/*/index.html"))[:5]]
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert '<html lang="zh-CN"' in html
        leaked = [text for text in english if re.search(rf"\b{re.escape(text)}\b", visible_text(html))]
        assert leaked == [], f"{page.relative_to(chinese_site)} shows English: {leaked}"


def test_chinese_interface_and_search_in_chromium(chinese_site: Path, browser):
    from conftest import serve_under_subpath

    page = browser.new_page()
    page.goto((chinese_site / "search.html").as_uri() + "?q=" + "图神经网络")  # from disk: the offline index
    page.wait_for_selector("#search-results a.result-link")
    assert "GraphZen" in page.inner_text("#search-results")
    assert "条结果" in page.inner_text("#search-status")
    with serve_under_subpath(chinese_site, chinese_site.parent / "served") as address:
        for query, expected in [("样本效率", "GraphZen"), ("失败模式", "失败模式")]:
            page.goto(address + "search.html?q=" + query)  # hosted: Pagefind, which segments Chinese
            page.wait_for_selector("#search-results[data-engine='pagefind'] a.result-link")
            assert expected in page.inner_text("#search-results li:first-child")
        page.goto(address + "index.html")
        page.locator("#paper-list button.star").first.click()
        assert page.locator("#paper-list button.star").first.get_attribute("aria-pressed") == "true"
        assert page.inner_text(".site-nav") .split()[0] == "论文"
    page.close()


def test_the_scripts_speak_chinese_from_site_data_in_chromium(chinese_site: Path, browser):
    """A Chinese build's site-data.js gives the scripts their Chinese strings: the shortcuts' help
    and what copying a link says, on a paper page opened from disk."""
    strings = read_table("zh-CN")
    page = browser.new_page()
    page.goto(sorted((chinese_site / "papers").glob("*/*/index.html"))[0].as_uri())
    page.keyboard.press("?")
    assert page.locator("dialog#shortcuts").evaluate("dialog => dialog.open")
    assert page.inner_text("#shortcuts h2") == strings["script.shortcuts_title"]
    assert page.inner_text("#shortcuts button") == strings["script.shortcuts_close"]
    page.keyboard.press("Escape")
    page.locator("[data-copy-link]").click()
    page.wait_for_function("document.querySelector('.copy-status').textContent !== ''")
    assert page.inner_text(".copy-status") in (strings["script.copied_link"], strings["script.copy_by_hand"])
    page.close()


# --- The seeds built in Chinese: no English interface text on any page ------------------------

# English words of en.yaml that stay as they are in Chinese: names of formats and programs.
PROPER_NOUNS = {"PDF", "BibTeX", "Markdown", "arXiv", "JavaScript", "MathML", "Pagefind"}
# What the papers say (English in the seeds), skipped when scanning a page: elements with these
# classes, a paper page's title, abstracts, and every link to a paper (its text is its title).
CONTENT_CLASSES = {"name", "card-title", "excerpt", "card-authors", "result", "results", "benchmark", "authors",
                   "shared", "map-label", "group-words", "bar-label"}
SCANNED_ATTRIBUTES = ("title", "aria-label", "alt", "placeholder")
VOID_ELEMENTS = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr",
                 "circle", "rect", "path", "line", "ellipse", "polygon", "polyline", "use", "stop"}


def english_pieces() -> list[str]:
    """Each English interface string (plural forms too) that Chinese writes otherwise, cut at its
    {placeholders}: the pieces longer than 3 characters, proper nouns left out."""
    english, chinese = read_table("en"), read_table("zh-CN")
    pieces = set()
    for key, entry in english.items():
        forms = entry.values() if isinstance(entry, dict) else [entry]
        theirs = set(chinese[key].values()) if isinstance(chinese[key], dict) else {chinese[key]}
        for form in forms:
            if form in theirs or key == "language_name":
                continue
            for piece in re.split(r"\{\w+\}", form):
                piece = piece.strip(" .,:;·“”()")
                if len(piece) > 3 and piece not in PROPER_NOUNS and re.search("[A-Za-z]", piece):
                    pieces.add(piece)
    return sorted(pieces)


class InterfaceText(HTMLParser):
    """A page's text and scanned attributes, without script, data and what the papers say."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = []  # (tag, skipped)
        self.texts: list[str] = []

    def skipped(self) -> bool:
        return bool(self.stack) and self.stack[-1][1]

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        classes = set((attributes.get("class") or "").split())
        inside = {t for t, _ in self.stack}
        skip = self.skipped() or tag in ("script", "style", "pre", "code") or bool(classes & CONTENT_CLASSES) \
            or (tag == "h1" and "data-pagefind-meta" in attributes) \
            or (tag == "a" and re.search(r"(^|/)papers/[0-9a-f]{2}/[^/]+/index\.html$", attributes.get("href") or "")) \
            or (tag == "p" and "abstract" in self.classes_above() and "notice" not in classes) \
            or (tag == "title" and "svg" in inside and not (attributes.get("id") or "").startswith("chart-"))
        if not skip:
            self.texts += [attributes[name] for name in SCANNED_ATTRIBUTES if attributes.get(name)]
        if tag not in VOID_ELEMENTS:
            self.stack.append((tag, skip))
            self.class_stack.append(classes)

    def classes_above(self) -> set[str]:
        return set().union(*self.class_stack) if self.class_stack else set()

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID_ELEMENTS:
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        for at in range(len(self.stack) - 1, -1, -1):  # close up to the matching start tag
            if self.stack[at][0] == tag:
                del self.stack[at:]
                del self.class_stack[at:]
                return

    def handle_data(self, data):
        if not self.skipped() and data.strip():
            self.texts.append(data)

    class_stack: list[set[str]]

    def reset(self):
        super().reset()
        self.class_stack = []


@pytest.fixture(scope="module")
def chinese_seed_site(tmp_path_factory):
    """The project's seeds (English abstracts) built with a Chinese interface and no setting (an empty file),
    with one more paper that has no venue and no authors, links to its code, project page and PDF,
    and an abstract that ingest tidies (a sentence pasted twice)."""
    root = make_project(tmp_path_factory.mktemp("zh-seeds"))
    (root / "seeds" / "links.jsonl").write_text(json.dumps({
        "title": "Vortex: Fluid Simulation with Learned Pressure Solvers",
        "abstract": "We propose Vortex, a learned pressure solver that speeds up fluid simulation tenfold while "
                    "keeping divergence below the error of classical multigrid solvers on smoke and water scenes. "
                    "It needs no tuning. We propose Vortex, a learned pressure solver that speeds up fluid "
                    "simulation tenfold while keeping divergence below the error of classical multigrid solvers "
                    "on smoke and water scenes.",
        "github": "https://github.com/example/vortex", "project": "https://example.org/vortex",
        "pdf": "https://example.org/vortex.pdf"}) + "\n", encoding="utf-8")
    (root / "empty.toml").write_text("", encoding="utf-8")  # no setting: a --config that names no file is an error
    run_cli("build", "--seeds", str(root / "seeds"), "--content", str(root / "content"), "--out", str(root / "site"),
            "--config", str(root / "empty.toml"), "--lang", "zh-CN", "--no-search")
    return root / "site"


def english_pattern() -> re.Pattern:
    pieces = english_pieces()
    assert {"Map of the catalogue", "Unknown venue", "Project page", "Paper Catalogue",
            "collapsed runs of whitespace"} <= set(pieces)
    return re.compile("|".join(rf"(?<![A-Za-z]){re.escape(piece)}(?![A-Za-z])"
                               for piece in sorted(pieces, key=len, reverse=True)))


def listed_papers(site: Path) -> list[dict]:
    """Each paper's record, with its title as shown and its name from the reading list's data."""
    rows = list_rows(site)
    return [record | {"title_text": rows[record["id"]][2], "name": rows[record["id"]][3]} for record in site_records(site)]


def test_the_seeds_built_in_chinese_show_no_english_interface_text(chinese_seed_site: Path):
    pattern = english_pattern()
    pages = sorted(chinese_seed_site.rglob("*.html"))
    assert len(pages) > 40
    papers = sorted({text for paper in listed_papers(chinese_seed_site) for text in (paper["title_text"], paper["name"])
                     if text}, key=len, reverse=True)
    leaks = {}
    for page in pages:
        markup = page.read_text(encoding="utf-8")
        assert '<html lang="zh-CN"' in markup
        parser = InterfaceText()
        parser.feed(markup)
        text = "\n".join(parser.texts)
        for paper in papers:  # in the page's <title>, in a star's label, ...
            text = text.replace(paper, " ")
        found = sorted({match[0] for match in pattern.finditer(text)})
        if found:
            leaks[page.relative_to(chinese_seed_site).as_posix()] = found
    assert leaks == {}


def test_a_chinese_site_without_settings_has_a_chinese_title_and_description(chinese_seed_site: Path):
    home = (chinese_seed_site / "index.html").read_text(encoding="utf-8")
    strings = read_table("zh-CN")
    assert f"<title>{strings['site.title']}</title>" in home
    assert f'<meta name="description" content="{strings["site.description"]}">' in home


# --- The files that are not pages: what a feed reader, a reference manager or a list's script shows ---

ATOM = "{http://www.w3.org/2005/Atom}"
BIBTEX_FIELD = re.compile(r"^\s*(\w+) = \{(.*)\},?$", re.MULTILINE)
# What the paper says (a key is its title's first words), addresses, and its venue: its proceedings'
# own name (catalogue/site/proceedings.yaml: a proper name, cited as the venue publishes it) or the
# venue as its list names it.
PAPERS_OWN_FIELDS = {"title", "key", "author", "url", "pdf", "doi", "booktitle", "howpublished"}
# Files no reader is shown: the catalogue's data (papers.json and its parts give each paper's fields
# as its content file holds them, in every language), addresses, the build's own records; and
# assets/, copied as they are (the text their scripts show comes from each page's script strings,
# scanned above).
NOT_SHOWN = re.compile(r"papers\.json|data/[^/]+\.json|_redirects|robots\.txt|sitemap\.xml|\.build-manifest\.json|\.search-pages\.json"
                       r"|\.paper-catalogue-site"
                       r"|\.nojekyll|assets/.*|.*\.(?:html|png)")


def feed_texts(site: Path, relative: str = "feed.xml") -> list[str]:
    """A feed's own text: its title and subtitle (its author too), each entry's venue and any author
    the paper does not name (an entry's title and summary are the paper's)."""
    feed = ElementTree.parse(site / relative).getroot()
    authors = {author for paper in listed_papers(site) for author in paper["authors"]}
    texts = [feed.findtext(f"{ATOM}title"), feed.findtext(f"{ATOM}subtitle")]
    for entry in feed.iter(f"{ATOM}entry"):
        texts += [category.get("term") for category in entry.iter(f"{ATOM}category")]
        texts += [name.text for name in entry.iter(f"{ATOM}name") if name.text not in authors]
    return texts


def script_data(path: Path) -> dict:
    """The data of a script that sets window.X = {...};"""
    return json.loads(path.read_text(encoding="utf-8").split(" = ", 1)[1].rstrip().removesuffix(";"))


def bibtex_texts(bibtex: str) -> list[str]:
    return [value for field, value in BIBTEX_FIELD.findall(bibtex) if field not in PAPERS_OWN_FIELDS]


def shown_texts(site: Path, relative: str) -> list[str] | None:
    """What a reader is shown of a generated file other than a page (venues, topics, a feed's own
    text, citations' fields), or None for a file this test does not know."""
    path = site / relative
    if relative == "feed.xml" or re.fullmatch(r"venues/[^/]+/feed\.xml", relative):
        return feed_texts(site, relative)
    if relative.startswith("list-data/"):  # rows of the papers' own text, their venues and topics by their place
        return [text for row in part_data(path) if len(row) > 9 and isinstance(row[9], str)  # in list-data.js; an
                for text in bibtex_texts(row[9])]                                               # entry cite.js cannot write
    if relative == "tex-letters.js":
        return []  # TeX's commands for letters beyond ASCII (assets/cite.js)
    if relative in ("list-data.js", "search-index.js"):
        data = part_data(path) if relative == "list-data.js" else script_data(path)
        venues = [venue[0] if isinstance(venue, list) else venue for venue in data["venues"]]
        return venues + [topic[1] if isinstance(topic, list) else topic for topic in data["topics"]]
    if relative == "map/map-data.js":  # places, colours, slugs, and the papers' own names and titles
        data = script_data(path)
        assert all(len(point) == 6 for point in data["points"])
        return []
    if relative.startswith("search-index/"):  # the offline index's parts: the papers' own words (names,
        return []                              # titles, key terms, authors); venues and topics are the manifest's
    if relative == "site-data.js":  # the interface strings scripts show, without their {placeholders}
        strings = script_data(path)["strings"]
        return [re.sub(r"\{\w+\}", "", form) for value in strings.values()
                for form in (value.values() if isinstance(value, dict) else [value])]
    if relative.endswith(".bib"):
        return bibtex_texts(path.read_text(encoding="utf-8"))
    return None


def test_the_seeds_built_in_chinese_write_no_english_in_feeds_data_or_citations(chinese_seed_site: Path):
    pattern = english_pattern()
    files = sorted(path.relative_to(chinese_seed_site).as_posix() for path in chinese_seed_site.rglob("*")
                   if path.is_file())
    unknown, leaks = [], {}
    for relative in files:
        if NOT_SHOWN.fullmatch(relative):
            continue
        texts = shown_texts(chinese_seed_site, relative)
        if texts is None:
            unknown.append(relative)
            continue
        found = sorted({match[0] for text in texts if text for match in pattern.finditer(text)})
        if found:
            leaks[relative] = found
    assert unknown == [], "generated files this test does not scan: say what a reader sees of them"
    assert leaks == {}
    strings = read_table("zh-CN")
    assert strings["paper.unknown_venue"] in feed_texts(chinese_seed_site)


def test_the_notes_of_a_tidied_abstract_are_in_the_site_language(chinese_seed_site: Path):
    page = (chinese_seed_site / "papers" / bucket("vortex") / "vortex" / "index.html").read_text(encoding="utf-8")
    strings = read_table("zh-CN")
    note = strings["paper.tidy_removed_repeat"].format(sentence=3, first=1)
    assert strings["paper.tidied"].format(notes=note) in page


NUMBERS_IN_NODE = """
const fs = require("fs"), vm = require("vm");
const [script, strings] = process.argv.slice(1);
globalThis.window = globalThis;
globalThis.CATALOGUE_SITE = { strings: JSON.parse(strings) };
vm.runInThisContext(fs.readFileSync(script, "utf8"));
const numbers = JSON.parse(fs.readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(numbers.map((n) => [window.catalogueNumber(n),
                                                        window.catalogueText("shown_of", {shown: n, total: n})])));
"""


@pytest.mark.parametrize("language", available_languages())
def test_numbers_are_grouped_alike_by_python_and_the_scripts(language):
    strings = load_strings(language)
    numbers = [0, 7, 999, 1000, 10000, 12345, 999999, 1234567]
    assert strings.number(1234567) == "1{0}234{0}567".format(strings.table["script.digit_group"])
    done = subprocess.run(["node", "-e", NUMBERS_IN_NODE, str(PROJECT / "assets" / "common.js"),
                           json.dumps(strings.script_strings())], input=json.dumps(numbers), capture_output=True,
                          text=True, check=True, timeout=60)
    assert json.loads(done.stdout) == [[strings.number(n), strings.text("script.shown_of", shown=n, total=n)]
                                       for n in numbers]
