"""A paper's DOI, from its list or the lookup, shown wherever a reader or a machine looks for one: its
page's links, Scholar's citation_doi, its JSON-LD, its BibTeX (the .bib, the entry cite.js makes, the
reading list's export), its text and Markdown citations, and papers.json's records; nothing of it for a
paper without one. On tests/authored.py's site: `numbers` has a DOI holding `_`, `<`, `>` and `;`,
`anonymous` (no authors, so no Scholar tags) a Springer chapter's, `engines` none."""

from __future__ import annotations

import html
import json
import re

from authored import BASE, SICI_DOI
from catalogue.routes import bucket
from site_data import list_rows, site_records

SPRINGER_DOI = "10.1007/978-3-030-58452-8_13"
# The DOI Handbook's encoding of a DOI in an address: `<` and `>` percent-encoded, `;`, `(`, `:` kept.
SICI_ADDRESS = "https://doi.org/10.1002/(SICI)1097-4571(199806)49:8%3C693::AID-ASI4_2%3E3.0.CO;2-O"
SPRINGER_ADDRESS = "https://doi.org/" + SPRINGER_DOI


def page_of(site, slug: str) -> str:
    return (site / "papers" / bucket(slug) / slug / "index.html").read_text(encoding="utf-8")


def bib_of(site, slug: str) -> str:
    return (site / "papers" / bucket(slug) / slug / f"{slug}.bib").read_text(encoding="utf-8")


def json_ld(page: str) -> dict:
    return json.loads(re.search(r'<script type="application/ld\+json">(.*?)</script>', page, re.S)[1])


def test_a_doi_shows_in_the_page_its_data_and_its_bibtex_and_nothing_without_one(authored_site):
    for slug, doi, address in (("numbers", SICI_DOI, SICI_ADDRESS), ("anonymous", SPRINGER_DOI, SPRINGER_ADDRESS)):
        page = page_of(authored_site, slug)
        links = re.search(r'<ul class="paper-links".*?</ul>', page, re.S)[0]
        assert re.findall(r'<a class="button" href="([^"]+)">([^<]+)</a>', links) == [(address, "DOI")]
        assert "find-links" not in page  # the DOI leads to the paper: no searches for it
        assert json_ld(page)["identifier"] == address
        assert f"  doi = {{{doi}}},\n" in bib_of(authored_site, slug)
    scholar = re.findall(r'<meta name="citation_doi" content="([^"]+)">', page_of(authored_site, "numbers"))
    assert [html.unescape(doi) for doi in scholar] == [SICI_DOI]
    assert "citation_" not in page_of(authored_site, "anonymous")  # no authors: no Scholar tags, the DOI in JSON-LD
    records = {record["slug"]: record for record in site_records(authored_site)}
    assert records["numbers"]["doi"] == SICI_DOI and records["anonymous"]["doi"] == SPRINGER_DOI
    rows = {row[1]: row for row in list_rows(authored_site).values()}
    assert rows["numbers"][9]["d"] == SICI_DOI and rows["anonymous"][9]["d"] == SPRINGER_DOI
    # A paper without a DOI: not a byte of one.
    engines = page_of(authored_site, "engines")
    assert "doi" not in engines.lower() and "doi" not in bib_of(authored_site, "engines")
    assert "doi" not in records["engines"] and "d" not in rows["engines"][9]


def test_cite_js_writes_the_doi_as_the_bib_does_and_the_citations_link_it(authored_site, page):
    """The pages carry no entry: cite.js makes it, the DOI read from the JSON-LD, and the text and
    Markdown citations give the DOI's address rather than the page's."""
    for slug, address in (("numbers", SICI_ADDRESS), ("anonymous", SPRINGER_ADDRESS)):
        assert 'id="cite-bibtex"' not in page_of(authored_site, slug)
        page.goto((authored_site / "papers" / bucket(slug) / slug / "index.html").as_uri())
        page.click("details.citations summary")
        assert page.text_content("#cite-bibtex") == bib_of(authored_site, slug)
        assert page.text_content("#cite-plain").endswith(f". ICML {2024 if slug == 'numbers' else 2026}. {address}")
        markdown = page.text_content("#cite-markdown")
        assert f"paper]({address.replace('(', '%28').replace(')', '%29')})." in markdown
        assert f"{BASE}papers/" not in markdown + page.text_content("#cite-plain")


def test_the_reading_list_exports_the_dois(authored_site, page):
    rows = {row[1]: row for row in list_rows(authored_site).values()}
    ids = [rows[slug][0] for slug in ("numbers", "anonymous", "engines")]
    page.goto((authored_site / "list.html").as_uri() + "#ids=" + ",".join(ids))
    page.wait_for_function("() => document.querySelectorAll('#my-list .card').length === 3")
    with page.expect_download() as download:
        page.click("#export-bibtex")
    exported = open(download.value.path(), encoding="utf-8").read()
    assert exported == "\n".join(bib_of(authored_site, slug) for slug in ("numbers", "anonymous", "engines"))
    assert exported.count("  doi = {") == 2
