"""assets/cite.js makes a paper's BibTeX entry, for the copy button and the shown citations, from what
its page says (and the reading list's export from its records): the same entry as
catalogue/site/cite.py writes into its .bib, whenever the page does not carry it
(cite_script.script_makes)."""

from __future__ import annotations

import json
import random
import re
import subprocess
from dataclasses import replace
from pathlib import Path

from catalogue.content.cite_keys import citation_keys
from catalogue.content.papers import read_papers
from catalogue.markup.convert import TextConverter
from catalogue.markup.inline_html import without_inline_html
from catalogue.model import Paper, Source
from catalogue.site.cite import render_bibtex
from catalogue.site.cite_script import render_tex_table, script_inputs, script_makes

PROJECT = Path(__file__).resolve().parent.parent

BIBTEX_IN_NODE = """
const fs = require("fs"), vm = require("vm");
globalThis.window = globalThis;
globalThis.document = { querySelector: () => null, querySelectorAll: () => [], getElementById: () => null };
vm.runInThisContext(fs.readFileSync(process.argv[2], "utf8"));
vm.runInThisContext(fs.readFileSync(process.argv[1], "utf8"));
const cases = JSON.parse(fs.readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(cases.map((given) => window.catalogueBibtex(given))));
"""

# Titles a list might give: attacks on TeX and HTML, math, braces, accents, inner capitals, spacing.
TITLES = ["EgoTSR: Neuro-Symbolic Reasoning for WZ-LLM Agents", "A  title with  two spaces ", "(Almost) Linear-Time",
          "\\input{/etc/passwd} and \\write18{rm -rf}", "}@misc{evil, title={x", "Learning $\\ell_1$ norms",
          "LS$^2$MC and \\(x^2\\)", "Cram\\'er's G{\\\"O}DEL", "Crámer–Rao for Gödel", "50% & #1 ~ _x_ ^y",
          "<i>Italic</i> &amp; more", "Line\nbreak\tand\x07bell", "Ends with backslash \\", "\"Quoted\" `ticks' [x] |y|",
          "Is it? Yes! a=b+c*d/e; f:g @h", "", "One", "MIMICause: Representation", "iPhone-Scale eBPF XLNet"]
AUTHORS = [(), ("Ada Lovelace",), ("Ada Lovelace", "Alan Turing"), ("Kurt Gödel",), ("J. {von} Neumann",),
           ("A_B", "C\\D"), tuple(f"Author {n}" for n in range(120))]
VENUES = [(None, None), ("NeurIPS", 2016), ("ICML", None), (None, 2020), ("Ünïversity Press", 2021), ("A&B", 2022)]
ADDRESSES = [None, "https://example.org/REPO/papers/b1/x/", "https://example.org/a{b}/^c\\"]
SLUGS = ["egotsr", "stochastic-variance-reduction", "x"]
# DOIs: none, Wiley's SICI form, a Springer chapter's, what an entry escapes, one beyond ASCII (left to the page).
DOIS = [None, "10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O", "10.1007/978-3-030-58452-8_13",
        "10.1000/a{b}c\\d^e%f#g&h~i$j\"k'l", "10.1000/über"]


def bibtex_by_script(inputs: list[dict], tmp_path: Path) -> list[str | None]:
    """cite.js's entries for these inputs (cite_script.script_inputs), with the build's table of TeX's letters."""
    table = tmp_path / "tex-letters.js"
    table.write_text(render_tex_table(), encoding="utf-8")
    done = subprocess.run(["node", "-e", BIBTEX_IN_NODE, str(PROJECT / "assets" / "cite.js"), str(table)],
                          input=json.dumps(inputs), capture_output=True, text=True, check=True, timeout=60)
    return json.loads(done.stdout)


def compared(papers: list[tuple[Paper, str, str | None]], tmp_path: Path) -> tuple[int, int]:
    """Each (paper, its title as pages say it, its page's address): wherever script_makes says cite.js
    writes cite.py's entry, it does (and where it says not, cite.js writes another or none, which the
    page then carries). Returns how many it writes and how many fall back."""
    inputs = [script_inputs(paper, title, paper.authors, url) for paper, title, url in papers]
    made = bibtex_by_script(inputs, tmp_path)
    writes = 0
    for (paper, _, url), said, entry in zip(papers, inputs, made):
        expected = render_bibtex(paper, url)
        if script_makes(paper, said, expected):
            assert entry == expected, paper
            writes += 1
        else:
            assert entry != expected, paper  # script_makes never leaves to the page what cite.js writes right
    return writes, len(papers) - writes


def cases() -> list[tuple[Paper, str | None]]:
    made = []
    for n, title in enumerate(TITLES):
        for m, authors in enumerate(AUTHORS):
            venue, year = VENUES[(n + m) % len(VENUES)]
            made.append((Paper(id=f"{len(made):012x}", slug=SLUGS[n % len(SLUGS)], title=title, abstract="",
                               source=Source("s.txt", 1), authors=authors, venue=venue, year=year,
                               pdf=ADDRESSES[m % len(ADDRESSES)], doi=DOIS[(n * 3 + m) % len(DOIS)]),
                         ADDRESSES[(n + 1) % len(ADDRESSES)]))
    # And printable ASCII at random: half of it without what TeX or HTML acts on, half with it.
    chance, every = random.Random(39), [chr(c) for c in range(32, 127)] + [" ", "A", "a"]
    for n in range(300):
        letters = every if n % 4 < 2 else [c for c in every if c not in "\\{}$&%#_^~<>"]
        text = "".join(chance.choice(letters) for _ in range(chance.randint(0, 30)))
        made.append((Paper(id=f"f{n:011x}", slug="x", title=text, abstract="", source=Source("s.txt", 1),
                           authors=(text[::-1],) if n % 2 else (), venue="ICML" if n % 3 else None,
                           year=2024 if n % 5 else None, doi="10.1234/" + "".join(text.split()) if n % 7 < 3 else None),
                     None))
    return made


def test_the_script_writes_the_entry_cite_py_writes_whenever_script_makes_says_so(tmp_path):
    given = cases()
    made = bibtex_by_script([script_inputs(paper, paper.title, paper.authors, url) for paper, url in given], tmp_path)
    plain = [(paper, url, entry) for (paper, url), entry in zip(given, made)
             if script_makes(paper, script_inputs(paper, paper.title, paper.authors, url), render_bibtex(paper, url))]
    assert len(plain) > 100 and len(plain) < len(given) * 0.9  # both kinds are tested
    for paper, url, entry in plain:
        assert entry == render_bibtex(paper, url), paper
    assert any(" and others}" in entry for _, _, entry in plain) and any("{EgoTSR:}" in entry for _, _, entry in plain)
    assert any(entry.startswith("@misc{") and "  key = {" in entry for _, _, entry in plain)
    # A DOI as cite.py writes it, `_`, `<` and `;` as they are, what could end the field percent-encoded.
    assert any("  doi = {10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O},\n" in entry for _, _, entry in plain)
    assert any("  doi = {10.1000/a%7Bb%7Dc%5Cd%5Ee%f#g&h~i$j\"k'l}" in entry for _, _, entry in plain)
    assert any(paper.doi is None for paper, _, _ in plain) and any("  doi = {10.1234/" in e for _, _, e in plain)
    # TeX's specials and letters beyond ASCII are escaped by the script too, as tex.py does.
    assert any("Cr{\\'a}mer" in entry for _, _, entry in plain) and any("50\\% \\&" in entry for _, _, entry in plain)


def test_math_commands_and_html_stay_in_the_page():
    """A title with math or a command, HTML, control characters or a character the table lacks (CJK)
    is never left to the script: the page carries cite.py's entry. (An address's braces the script
    percent-encodes as cite.py does.)"""
    for paper, url in cases():
        texts = (paper.title, paper.venue or "", *paper.authors)
        said = script_inputs(paper, paper.title, paper.authors, url)
        makes = script_makes(paper, said, render_bibtex(paper, url))
        if any(re.search(r"[$\\\x00-\x1f]", text) for text in texts) or without_inline_html(paper.title) != paper.title:
            assert not makes, paper
    cjk = Paper(id="a" * 12, slug="x", title="Title", abstract="", source=Source("s.txt", 1), authors=("王伟",))
    assert not script_makes(cjk, script_inputs(cjk, cjk.title, cjk.authors, None), render_bibtex(cjk, None))
    beyond = replace(cjk, authors=("Ada Lovelace",), doi="10.1000/über")  # a DOI beyond ASCII, as an address
    assert not script_makes(beyond, script_inputs(beyond, beyond.title, beyond.authors, None), render_bibtex(beyond, None))
    assert script_makes(replace(beyond, doi="10.1000/uber"), script_inputs(replace(beyond, doi="10.1000/uber"), beyond.title,
                        beyond.authors, None), render_bibtex(replace(beyond, doi="10.1000/uber"), None))


def test_every_paper_of_the_seeds_build_is_compared_and_few_fall_back(built_site, tmp_path):
    """Over every paper of a real build (the seeds): cite.js writes cite.py's entry wherever
    script_makes says so; the count of those that fall back (the page carries them) is reported."""
    papers = list(read_papers(built_site.content).values())
    keys = citation_keys(papers)
    markup = TextConverter()
    given = [(replace(paper, cite_key=keys[paper.id]), markup.convert(paper.title, False).plain, None) for paper in papers]
    writes, falls_back = compared(given, tmp_path)
    print(f"cite.js writes {writes} of {len(given)} entries; {falls_back} fall back")
    assert writes + falls_back == len(given) > 20 and falls_back <= len(given) // 4


def test_a_page_without_its_entry_copies_and_shows_the_entry_of_its_bib(built_site, browser):
    """In the browser, on the paper pages of a build that carry their entry, and on some that do not, with
    formulas and without: the entry shown is its .bib's, carried or made (and its formulas are MathML).
    That cite.js makes every page's entry as cite.py does is checked without a browser, above."""
    pages = sorted((built_site.out / "papers").glob("*/*/index.html"))
    made = [page for page in pages if 'id="cite-bibtex"' not in page.read_text(encoding="utf-8")]
    assert made and len(made) < len(pages)  # both kinds
    with_math = [page for page in made if "<math" in page.read_text(encoding="utf-8")]
    checked = [page for page in pages if page not in made] + with_math[:3] + [p for p in made if p not in with_math][:3]
    context = browser.new_context()
    tab = context.new_page()
    formulas = 0
    for page in checked:
        tab.goto(page.as_uri())
        # Its formulas carry no xmlns, and are MathML all the same.
        spaces = tab.locator("math").evaluate_all("(all) => all.map((math) => math.namespaceURI)")
        assert spaces == ["http://www.w3.org/1998/Math/MathML"] * len(spaces) and "xmlns" not in page.read_text(encoding="utf-8")
        formulas += len(spaces)
        tab.click("details.citations summary")
        bib = (page.parent / f"{page.parent.name}.bib").read_text(encoding="utf-8")
        assert tab.text_content("#cite-bibtex") == bib, page
        assert tab.locator("details.citations > *").evaluate_all("(all) => all.map((e) => e.id)")[:3] == \
            ["", "bibtex-heading", "cite-bibtex"]
    tab.goto(made[0].as_uri())  # the button copies the entry made, without the details opened
    tab.evaluate("() => { document.execCommand = () => { window.copied = document.querySelector('textarea').value; return true; };"
                 " if (navigator.clipboard) navigator.clipboard.writeText = (text) => { window.copied = text; return Promise.resolve(); }; }")
    tab.click('[data-copy="#cite-bibtex"]')
    tab.wait_for_function("() => window.copied")
    assert tab.evaluate("window.copied") == (made[0].parent / f"{made[0].parent.name}.bib").read_text(encoding="utf-8").strip()
    context.close()
    assert formulas


def test_the_cite_controls_are_within_the_first_screen(built_site, authored_site, page):
    """Copy link, copy BibTeX and the .bib sit under the paper's links, on a desktop and on a phone,
    whatever the paper (the longest title and author list of the build), and the entry they copy is
    the .bib's, made by cite.js with the table of TeX's letters where the page needs it."""
    pages = sorted((built_site.out / "papers").glob("*/*/index.html"))
    fullest = max(pages, key=lambda path: len(path.read_text(encoding="utf-8").split("<section class=\"abstract\"")[0]))
    authored = sorted((authored_site / "papers").glob("*/*/index.html"))  # at a base URL, with names beyond ASCII
    lettered = [path for path in authored if "tex-letters.js" in path.read_text(encoding="utf-8")]
    for width, height in ((1280, 800), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(fullest.as_uri())
        for control in ("[data-copy-link]", '[data-copy="#cite-bibtex"]', ".cite-actions a[download]"):
            box = page.locator(control).bounding_box()
            assert box and box["y"] + box["height"] <= height and box["x"] + box["width"] <= width, (control, width)
        assert page.locator("#cite-bibtex").count() == 1
    for path in lettered:  # a non-ASCII name: the entry is escaped as cite.py escapes it
        page.goto(path.as_uri())
        assert page.text_content("#cite-bibtex") == (path.parent / f"{path.parent.name}.bib").read_text(encoding="utf-8")
    assert lettered  # José García
