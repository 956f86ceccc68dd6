"""The whole-catalogue data cut into parts no host refuses and no reader loads whole: papers.json's
records and the BibTeX per venue and year (data/<venue-slug>.json and .bib, with papers.json as their
index), a feed per venue and year, and the reading list's data by the last hex digits of a paper's
id (list-data/<digits>.js: even for ids not made by hashing, each row with what the BibTeX export
of the list needs) and per venue and year for the filters of the home page
(list-data/venues/<venue-slug>.js), list-data.js naming what the parts refer to, and tex-letters.js,
the table assets/cite.js escapes with. Each part is keyed by its own papers, so an edit remakes only
the parts it touches."""

from __future__ import annotations

from collections.abc import Callable

from catalogue import routes
from catalogue.config import SiteConfig
from catalogue.model import Catalogue, Paper, Topic
from catalogue.publish.writer import Output
from catalogue.site.cite import booktitle
from catalogue.site.cite_script import TEX_LETTERS, render_tex_table, script_inputs
from catalogue.site.feeds import paper_record, render_atom, render_papers_index, render_papers_part
from catalogue.site.json_text import plain_script_json
from catalogue.site.pagination import CARD_AUTHORS
from catalogue.site.views import AuthorRef, PaperView
from catalogue.system.cache import digest

DATA_FOLDER = "data/"
PART_PAPERS = 500  # a venue-year of more papers is cut into parts of this many: each file stays under 1 MB
LIST_ROOT = "list-data.js"
PART_TARGET = 64  # papers a reading-list part holds at most on average, which sets the ending's length
MAX_DIGITS = 3  # 4,096 parts: a folder well under every host's limit
BIBTEX_INDEX = "catalogue.bib"  # where earlier builds put every entry: its address keeps working
VENUE_FEED_ENTRIES = 20  # a venue-year's feed: its newest papers, for a reader who follows that venue


def papers_parts(groups: list[tuple[str, str, tuple[PaperView, ...]]]) -> list[tuple[str, str, tuple[PaperView, ...]]]:
    """(part name, venue slug, papers) per venue and year, newest first: data/<slug>.json, and for a
    venue-year of more than PART_PAPERS papers data/<slug>.2.json and on (no slug holds a dot)."""
    parts = []
    for slug, _, members in groups:
        for number, start in enumerate(range(0, len(members), PART_PAPERS), 1):
            parts.append((slug if number == 1 else f"{slug}.{number}", slug, members[start:start + PART_PAPERS]))
    return parts


def plan_catalogue_parts(catalogue: Catalogue, views: tuple[PaperView, ...], config: SiteConfig, everything: str,
                         venue: Callable[[Paper], str], groups: list[tuple[str, str, tuple[PaperView, ...]]]) -> list[Output]:
    """papers.json (the index) with its parts, the BibTeX parts, and each venue-year's feed."""
    files, index = [], []
    for name, slug, members in papers_parts(groups):
        key = digest(everything, [v.key for v in members])
        paper = members[0].paper
        json_path, bib_path = f"{DATA_FOLDER}{name}.json", f"{DATA_FOLDER}{name}.bib"
        files += [Output(json_path, key, lambda members=members, paper=paper: render_papers_part(
                      (paper_record(v.paper, v.addresses, v.plain_abstract) for v in members),
                      paper.venue, paper.year)),
                  Output(bib_path, key, lambda members=members: "\n".join(v.bibtex for v in members))]
        index.append({"venue": paper.venue, "year": paper.year, "count": len(members), "url": json_path,
                      "bib": bib_path, "feed": routes.venue_feed(slug)})
    topics = [{"slug": t.slug, "label": t.label} for t in catalogue.topics]
    files.append(Output("papers.json", digest(everything, index, topics),
                        lambda: render_papers_index(config, len(views), topics, index)))
    files.append(Output(BIBTEX_INDEX, digest(everything, index), lambda: render_bibtex_index(index, config)))
    for slug, label, members in groups:
        files.append(Output(routes.venue_feed(slug), digest(everything, [v.key for v in members]), lambda members=members, slug=slug, label=label: render_atom(
            catalogue, {v.paper.id: v.title_text for v in members}, {v.paper.id: v.description for v in members},
            {v.paper.id: v.addresses for v in members}, config, venue, papers=[v.paper for v in members],
            path=routes.venue_feed(slug), title=label, limit=VENUE_FEED_ENTRIES)))
    return files


def render_bibtex_index(index: list[dict], config: SiteConfig) -> str:
    """catalogue.bib, once every entry in one file (past any host's size at scale), now a note naming
    the files that hold them, one per venue and year; BibTeX tools skip an @comment, whose braces
    must balance: an address carries none."""
    addresses = [routes.absolute(config.base_url, part["bib"]) or part["bib"] for part in index]
    lines = ["@comment{The entries are in one file per venue and year:}"]
    lines += ["@comment{" + address.replace("{", "%7B").replace("}", "%7D") + "}" for address in addresses]
    return "\n".join(lines) + "\n"


def part_digits(count: int) -> int:
    """How many of a paper id's last hex digits name its reading-list part: parts of about PART_TARGET papers."""
    digits = 1
    while count > PART_TARGET * 16 ** digits and digits < MAX_DIGITS:
        digits += 1
    return digits


def plan_list_parts(views: tuple[PaperView, ...], topics: tuple[Topic, ...], everything: str,
                    venue: Callable[[Paper], str], groups: list[tuple[str, str, tuple[PaperView, ...]]]) -> list[Output]:
    """list-data.js (venues with their booktitles, topics, how many digits name a part, the venues in
    catalogue order, each venue's count of papers and of each topic's papers, for the home page's
    filters), its parts by the ids' last digits (rows with their citation, list_row) and by venue-year,
    and the table of TeX's letters (loaded only for a BibTeX export)."""
    venues = [[label, members[0].paper.year, slug, venue_booktitle(members[0].paper)] for slug, label, members in groups]
    venue_index = {venue(members[0].paper): n for n, (_, _, members) in enumerate(groups)}
    topic_index = {t.slug: n for n, t in enumerate(topics)}
    digits = part_digits(len(views))
    order = list(dict.fromkeys(venue_index[venue(v.paper)] for v in views))  # the venues' parts in catalogue order
    counts = [[len(members)] + [0] * len(topics) for _, _, members in groups]  # a venue's papers, then of each topic
    for view in views:
        for topic in dict.fromkeys(t.slug for t in view.topics):
            counts[venue_index[venue(view.paper)]][1 + topic_index[topic]] += 1
    # The site's base URL ("" when not known), from which the BibTeX export makes a paper's address.
    base = views[0].url.removesuffix(views[0].addresses.shared) if views and views[0].url else ""
    tables = {"venues": venues, "topics": [[t.slug, t.label] for t in topics], "digits": digits, "order": order,
              "counts": counts, "base": base}
    shared = digest(everything, venues, tables["topics"], digits)  # a row names its venue and topics by their place

    def row(v: PaperView) -> list:
        return ([v.paper.id, v.paper.slug, v.title_text, v.name_text, venue_index[venue(v.paper)],
                 [topic_index[t.slug] for t in v.topics], [author_entry(a) for a in v.authors[:CARD_AUTHORS]],
                 len(v.authors)] + ([1] if v.paper.title_source == "derived" else []))

    def venue_row(v: PaperView) -> list:
        """A row with the names of the authors after the card's, which a venue's page filters by (assets/venue.js)."""
        more = [a.shown for a in v.authors[CARD_AUTHORS:]]
        made = row(v)
        return made + ([0] * (9 - len(made)) + [more] if more else [])

    by_ending: dict[str, list[PaperView]] = {}
    for view in views:
        by_ending.setdefault(view.paper.id[-digits:], []).append(view)
    files = [Output(LIST_ROOT, digest(everything, tables), lambda: part_script("list-data", tables))]
    for ending, members in sorted(by_ending.items()):
        key = digest(shared, [v.key for v in members])
        files.append(Output(f"list-data/{ending}.js", key, lambda members=members, ending=ending: part_script(
            f"list-data/{ending}", [list_row(row(v), v, venues[venue_index[venue(v.paper)]][3]) for v in members])))
    files.append(Output(f"{TEX_LETTERS}.js", everything, render_tex_table))
    for slug, _, members in groups:
        files.append(Output(f"{routes.venue_list_part(slug)}.js", digest(shared, [v.key for v in members]),
                            lambda members=members, slug=slug: part_script(routes.venue_list_part(slug), [venue_row(v) for v in members])))
    return files


def part_script(name: str, data) -> str:
    """A part as a plain script (so it loads from disk too) that files its data under its name, as
    assets/parts.js asks: window.CATALOGUE_PARTS[name]."""
    return f"(window.CATALOGUE_PARTS = window.CATALOGUE_PARTS || {{}})[{plain_script_json(name)}] = {plain_script_json(data)};\n"


def venue_booktitle(paper: Paper) -> str:
    return booktitle(paper.venue, paper.year) if paper.venue else ""


def list_row(row: list, view: PaperView, venue_booktitle: str) -> list:
    """A reading-list row (row[8] 1 for a derived title, else 0) and, ninth, what the list's BibTeX
    export needs beyond the row and its venue's booktitle to write the paper's entry as cite.py does
    (assets/reader.js, cite.js): its key `k`, its PDF `p`, its DOI `d`, its authors `a` when the row's
    names are not all of them as the paper writes them, its entry's address `u` when that is not its
    page's address; or, when cite.js cannot write it (the view's cite_by_script, with the paper's own
    booktitle: cite.js takes its venue's), the entry itself."""
    inputs = script_inputs(view.paper, view.title_text, tuple(a.name for a in view.authors), view.url)
    if not view.cite_by_script or venue_booktitle != inputs["booktitle"]:
        return row[:8] + [row[8] if len(row) > 8 else 0, view.bibtex]
    shown = [entry if isinstance(entry, str) else entry[0] for entry in row[6]]
    said = {"k": inputs["key"], "p": inputs["pdf"], "d": inputs["doi"], "u": inputs["url"] if inputs["url"] != (view.url or "") else "",
            "a": inputs["authors"] if inputs["authors"] != shown else []}
    return row[:8] + [row[8] if len(row) > 8 else 0, {name: value for name, value in said.items() if value}]


def author_entry(author: AuthorRef) -> str | list[str]:
    """An author in the list data: [name, slug], or the name alone when the slug is the name in
    lower case with hyphens for spaces, as for most names."""
    slug = routes.author_slug_of(author.path)
    return author.shown if author.shown.isascii() and author.shown.lower().replace(" ", "-") == slug else [author.shown, slug]
