"""The catalogue for machines: sitemap.xml, robots.txt, an Atom feed and papers.json."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable, Iterable
from xml.sax import saxutils

from catalogue import routes
from catalogue.routes import PaperAddresses
from catalogue.site.cite import venue_label
from catalogue.config import SiteConfig
from catalogue.model import Catalogue, Paper

# What XML 1.0 forbids in a document: most C0 controls, surrogates, U+FFFE and U+FFFF. Removed,
# whatever the text: a single one makes the whole feed unreadable.
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
EPOCH = "1970-01-01T00:00:00Z"  # the date of an empty feed


def escape(text: str) -> str:
    """Text for an XML element."""
    return saxutils.escape(NOT_XML.sub("", text))


def quoteattr(text: str) -> str:
    """Text for an XML attribute, quotes included."""
    return saxutils.quoteattr(NOT_XML.sub("", text))


def feed_id(catalogue: Catalogue, config: SiteConfig) -> str:
    """The feed's id, an IRI that stays the same for this catalogue: its address when known, else a
    name-based UUID of its title, description and papers (two catalogues with the default title differ)."""
    if config.base_url:
        return config.base_url
    name = json.dumps([config.title, config.description, sorted(paper.id for paper in catalogue.papers)])  # ASCII
    return uuid.uuid5(uuid.NAMESPACE_URL, name).urn


def entry_date(paper: Paper) -> str:
    """When the catalogue first had the paper (its `added` date), as Atom writes a moment; for a paper
    ingest has not dated yet (its content file written by an older version, rendered without an
    ingest), 1 January of its year, as the feed said before papers had dates, else the epoch."""
    if paper.added:
        return atom_moment(paper.added)
    return atom_moment(f"{paper.year:04d}-01-01") if paper.year else EPOCH


def published_date(paper: Paper) -> str | None:
    """The day the venue published the paper, as Atom writes a moment, when its list gave it."""
    return atom_moment(paper.published) if paper.published else None


def atom_moment(day: str) -> str:
    """An ISO day as the moment Atom dates need: its start, in UTC."""
    return f"{day}T00:00:00Z"


def newest_first(papers: Iterable[Paper]) -> list[tuple[str, Paper]]:
    """Each paper with its entry_date, newest first; papers of the same day in catalogue order."""
    dated = [(entry_date(paper), paper) for paper in papers]
    return sorted(dated, key=lambda pair: pair[0], reverse=True)  # stable: ties keep their order


def render_sitemap(paths: list[str], config: SiteConfig) -> str | None:
    """Absolute page addresses; None without a base URL (a sitemap must be absolute)."""
    if config.base_url is None:
        return None
    entries = "".join(f"  <url><loc>{escape(config.base_url + routes.shared_form(path))}</loc></url>\n"
                      for path in sorted(paths))
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n{entries}</urlset>\n')


def render_robots(config: SiteConfig) -> str:
    sitemap = f"Sitemap: {config.base_url}sitemap.xml\n" if config.base_url else ""
    return f"User-agent: *\nAllow: /\n{sitemap}"


def render_atom(catalogue: Catalogue, titles: dict[str, str], summaries: dict[str, str],
                addresses: dict[str, PaperAddresses], config: SiteConfig, venue: Callable[[Paper], str] = venue_label) -> str:
    """One entry per paper (its title, summary and addresses by its id), newest first by the date the
    catalogue added it. An entry is `published` on the day its venue published it when the list gave
    that day, else on the day it was added, and `updated` on the later of the two (no edit time is
    kept); links are absolute with a base URL, else relative to the feed. `venue` names a paper's
    venue. An entry names the paper's authors, if any: the feed's own author (the site's title)
    stands for the rest, as Atom allows, rather than an invented name."""
    papers = newest_first(catalogue.papers)
    updated = EPOCH
    base = config.base_url or ""
    entries = []
    for date, paper in papers:
        link = addresses[paper.id].url or addresses[paper.id].page
        published = published_date(paper) or date
        updated = max(updated, published, date)
        authors = "".join(f"\n    <author><name>{escape(name)}</name></author>" for name in paper.authors)
        entries.append(
            f"  <entry>\n    <id>urn:paper-catalogue:{paper.id}</id>\n"
            f"    <title>{escape(titles[paper.id])}</title>\n    <link href={quoteattr(link)}/>\n"
            f"    <published>{published}</published>\n    <updated>{max(published, date)}</updated>{authors}\n"
            f"    <category term={quoteattr(venue(paper))}/>\n"
            f"    <summary>{escape(summaries[paper.id])}</summary>\n  </entry>\n")
    self_link = f'  <link rel="self" href={quoteattr(base + "feed.xml")}/>\n' if base else ""
    return ('<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n'
            f"  <title>{escape(config.title)}</title>\n  <subtitle>{escape(config.description)}</subtitle>\n"
            f"  <id>{escape(feed_id(catalogue, config))}</id>\n  <updated>{updated}</updated>\n"
            f"  <author><name>{escape(config.title)}</name></author>\n"
            f"  <link href={quoteattr(base or routes.HOME)}/>\n{self_link}{''.join(entries)}</feed>\n")


def paper_record(paper: Paper, addresses: PaperAddresses, topic_labels: dict[str, str], title_text: str,
                 abstract_text: str) -> dict:
    """One paper of papers.json (its fields are listed in the README)."""
    return {
        "id": paper.id, "slug": paper.slug, "path": addresses.page, "url": addresses.url, "name": paper.name, "other_names": list(paper.other_names),
        "title": paper.title, "title_text": title_text, "title_source": paper.title_source,
        "venue": paper.venue, "year": paper.year,
        "topics": [{"slug": slug, "label": topic_labels[slug]} for slug in paper.topics],
        "links": [{"url": link.url, "label": link.label} for link in paper.links],
        "benchmarks": list(paper.benchmarks), "results": list(paper.results), "authors": list(paper.authors),
        "keywords": list(paper.keywords), "pdf": paper.pdf, "proceedings_url": paper.url, "abstract": paper.abstract, "abstract_text": abstract_text,
        "source": str(paper.source), "added": paper.added, "in_seeds": paper.in_seeds, "old_slugs": list(paper.old_slugs),
    }


def render_papers_json(records: Iterable[dict], config: SiteConfig) -> bytes:
    """Compact JSON (the C encoder, a smaller file), encoded a record at a time: one string of
    the whole catalogue would take several times the file's size in memory."""
    head = json.dumps({"title": config.title, "base_url": config.base_url}, ensure_ascii=False, separators=(",", ":"))
    body = b",".join(json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode("utf-8") for record in records)
    return head[:-1].encode("utf-8") + b',"papers":[' + body + b"]}\n"
