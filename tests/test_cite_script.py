"""assets/cite.js makes a paper's BibTeX entry, for the copy button and the shown citations, from what
its page says: the same entry as catalogue/site/cite.py writes into its .bib, whenever the page does
not carry it (paper_extras.script_makes_bibtex)."""

from __future__ import annotations

import json
import random
import re
import subprocess
from pathlib import Path

from catalogue.model import Paper, Source
from catalogue.site.cite import render_bibtex
from catalogue.site.paper_extras import bibtex_as_written

PROJECT = Path(__file__).resolve().parent.parent

BIBTEX_IN_NODE = """
const fs = require("fs"), vm = require("vm");
globalThis.window = globalThis;
globalThis.document = { querySelector: () => null, querySelectorAll: () => [], getElementById: () => null };
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


def bibtex_by_script(papers: list[Paper], urls: list[str | None]) -> list[str]:
    """cite.js's entries for the papers as their pages say them (venue and year as one label, the year a string)."""
    given = [{"title": p.title, "authors": list(p.authors), "venue": f"{p.venue} {p.year or ''}".strip() if p.venue else "",
              "year": str(p.year or ""), "url": url or "", "pdf": p.pdf or "", "slug": p.slug} for p, url in zip(papers, urls)]
    done = subprocess.run(["node", "-e", BIBTEX_IN_NODE, str(PROJECT / "assets" / "cite.js")], input=json.dumps(given),
                          capture_output=True, text=True, check=True, timeout=60)
    return json.loads(done.stdout)


def cases() -> list[tuple[Paper, str | None]]:
    made = []
    for n, title in enumerate(TITLES):
        for m, authors in enumerate(AUTHORS):
            venue, year = VENUES[(n + m) % len(VENUES)]
            made.append((Paper(id=f"{len(made):012x}", slug=SLUGS[n % len(SLUGS)], title=title, abstract="",
                               source=Source("s.txt", 1), authors=authors, venue=venue, year=year,
                               pdf=ADDRESSES[m % len(ADDRESSES)]), ADDRESSES[(n + 1) % len(ADDRESSES)]))
    # And printable ASCII at random: half of it without what TeX or HTML acts on, half with it.
    chance, every = random.Random(39), [chr(c) for c in range(32, 127)] + [" ", "A", "a"]
    for n in range(300):
        letters = every if n % 4 < 2 else [c for c in every if c not in "\\{}$&%#_^~<>"]
        text = "".join(chance.choice(letters) for _ in range(chance.randint(0, 30)))
        made.append((Paper(id=f"f{n:011x}", slug="x", title=text, abstract="", source=Source("s.txt", 1),
                           authors=(text[::-1],) if n % 2 else (), venue="ICML" if n % 3 else None,
                           year=2024 if n % 5 else None), None))
    return made


def test_the_script_writes_the_entry_cite_py_writes_whenever_the_texts_are_held_as_written():
    given = cases()
    made = bibtex_by_script([paper for paper, _ in given], [url for _, url in given])
    plain = [(paper, url, entry) for (paper, url), entry in zip(given, made) if bibtex_as_written(paper, url)]
    assert len(plain) > 100 and len(plain) < len(given) / 2  # both kinds are tested
    for paper, url, entry in plain:
        assert entry == render_bibtex(paper, url), paper
    assert any(" and others}" in entry for _, _, entry in plain) and any("{EgoTSR:}" in entry for _, _, entry in plain)
    assert any(entry.startswith("@misc{") and "  key = {" in entry for _, _, entry in plain)


def test_what_tex_or_html_would_read_otherwise_stays_in_the_page():
    """Math, braces, backslashes, TeX's specials, HTML, accents, control characters and addresses with braces
    are never left to the script: the page carries cite.py's entry."""
    for paper, url in cases():
        texts = (paper.title, paper.venue or "", *paper.authors)
        escaped = any(re.search(r"[^ -~]|[\\{}$&%#_^~<>]", text) for text in texts) or \
            any(re.search(r"[{}\\^]", address) for address in (url, paper.pdf) if address)
        assert bibtex_as_written(paper, url) is not escaped, paper


def test_a_page_without_its_entry_copies_and_shows_the_entry_of_its_bib(built_site, browser):
    """In the browser, on every paper page of a build: the entry shown is its .bib's, carried or made (and
    its formulas are MathML)."""
    pages = sorted((built_site.out / "papers").glob("*/*/index.html"))
    made = [page for page in pages if 'id="cite-bibtex"' not in page.read_text(encoding="utf-8")]
    assert made and len(made) < len(pages)  # both kinds
    context = browser.new_context()
    tab = context.new_page()
    formulas = 0
    for page in pages:
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
