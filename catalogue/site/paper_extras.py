"""What a paper's page shows beside its view, made only when the page is: whether it carries
Scholar's tags, its structured data (JSON-LD) for search engines, where to look the paper up,
whether it carries its BibTeX entry, and what ingest tidied in its abstract."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from markupsafe import Markup as SafeHtml

from catalogue.i18n.strings import Strings
from catalogue.model import Paper
from catalogue.markup.cleanup import COLLAPSED_WHITESPACE, REMOVED_REPEAT, RESTORED_COMMANDS, read_note
from catalogue.site.cite import doi_address, venue_label
from catalogue.site.cite_script import needs_table, script_inputs
from catalogue.site.json_text import script_json
from catalogue.site.lookup import FindLink, find_links
from catalogue.site.views import PaperView


@dataclass(frozen=True)
class PaperExtras:
    scholar_tags: bool  # whether the page carries citation_* tags (see known_for_scholar)
    structured_data: SafeHtml
    find_links: tuple[FindLink, ...]  # none when the list links its PDF or its proceedings, or it has a DOI
    doi_url: str | None  # its DOI's address (https://doi.org/...), linked among its links
    bibtex_in_page: bool  # whether the page carries its BibTeX entry (see script_makes_bibtex)
    cite_data: dict  # what cite.js reads to make it otherwise (data-* attributes of the cite section)
    tex_letters: bool  # whether cite.js needs the table of TeX's letters (tex-letters.js) for it
    tidied: str


def paper_extras(view: PaperView, strings: Strings) -> PaperExtras:
    """What a paper page adds to its view: Scholar's tags or none, structured data, where to look the paper up
    when neither its PDF, its proceedings nor a DOI leads to it, and what ingest tidied in its abstract."""
    paper = view.paper
    find = () if paper.pdf or paper.url or paper.doi else find_links(view.title_text, paper.title_source == "derived")
    scholar = known_for_scholar(paper)
    made = script_makes_bibtex(view, scholar)
    letters = made is not None and needs_table((view.title_text, paper.venue or "", *(a.name for a in view.authors)))
    return PaperExtras(scholar, structured_data(view), find, doi_address(paper.doi) if paper.doi else None,
                       made is None, made or {}, letters, tidy_notes(paper.cleaned, strings.text))


def known_for_scholar(paper: Paper) -> bool:
    """Whether the paper's title and authors are known, so that its page may carry Highwire
    `citation_*` tags: Google Scholar's inclusion guidelines require a title, at least one author
    and a date, and a reference manager (Zotero) saves what the tags say. A derived title, or none
    of the authors, would be claimed as fact; a title the list gave, a person edited or (any other
    source) was looked up is known."""
    return bool(paper.authors) and paper.title_source != "derived"


def script_makes_bibtex(view: PaperView, scholar_tags: bool) -> dict | None:
    """What assets/cite.js reads, beside what the page says anyway (title, JSON-LD, year) and site-data.js's
    proceedings names, to make the paper's BibTeX entry, the same as its .bib, so that the page need
    not carry it (the key, the entry's address when the JSON-LD gives none, the PDF when no Scholar
    tag does); None when it cannot (the view's cite_by_script)."""
    if not view.cite_by_script:
        return None
    inputs = script_inputs(view.paper, view.title_text, tuple(author.name for author in view.authors), view.url)
    said = {"key": inputs["key"], "url": inputs["url"] if inputs["url"] != (view.url or "") else "",
            "pdf": inputs["pdf"] if not scholar_tags else ""}
    return {name: value for name, value in said.items() if value}


def tidy_notes(notes: tuple[str, ...], t: Callable[..., str]) -> str:
    """The notes of what ingest tidied in an abstract (cleanup.py) in the site's language; a note
    written by hand in the content file as it is."""
    said = []
    for note in notes:
        kind, values = read_note(note)
        said.append(t("paper.tidy_restored_commands") if kind == RESTORED_COMMANDS
                    else t("paper.tidy_collapsed_whitespace") if kind == COLLAPSED_WHITESPACE
                    else t("paper.tidy_removed_repeat", **values) if kind == REMOVED_REPEAT else note)
    return t("paper.tidy_separator").join(said)


def structured_data(view: PaperView) -> SafeHtml:
    """JSON-LD ScholarlyArticle for search engines, kept small (the page says the rest): its name,
    authors, date, venue, address and DOI (its `identifier`, as its https://doi.org/ address, which
    cite.js reads); '<' escaped so it cannot close the script. A derived title is not the paper's:
    schema.org requires no `name`, so such a paper has none."""
    paper = view.paper
    data = {
        "@context": "https://schema.org", "@type": "ScholarlyArticle",
        "name": view.title_text if paper.title_source != "derived" else None,
        "author": [{"@type": "Person", "name": author.name} for author in view.authors] or None,
        "datePublished": paper.published or (str(paper.year) if paper.year else None),
        "isPartOf": {"@type": "CreativeWork", "name": venue_label(paper)} if paper.venue else None,
        "url": view.url,
        "identifier": doi_address(paper.doi) if paper.doi else None,
    }
    return script_json({k: v for k, v in data.items() if v is not None})
