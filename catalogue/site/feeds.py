"""The catalogue for machines: sitemap.xml (an index of sitemaps past SITEMAP_URLS), robots.txt, Atom
feeds of the newest papers, and papers.json's records."""

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
FEED = "feed.xml"  # the site's feed; a venue's is routes.venue_feed(slug)
FEED_ENTRIES = 50  # the newest papers a feed carries: a reader polls for news, not the archive
# URLs a sitemap file lists before sitemap.xml becomes an index of parts. The protocol allows 50,000;
# fewer keeps each part near 1 MB, far under every host's limit on a file.
SITEMAP_URLS = 10_000
SITEMAP = "sitemap.xml"
SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


def escape(text: str) -> str:
    """Text for an XML element."""
    return saxutils.escape(NOT_XML.sub("", text))


def quoteattr(text: str) -> str:
    """Text for an XML attribute, quotes included."""
    return saxutils.quoteattr(NOT_XML.sub("", text))


def feed_id(catalogue: Catalogue, config: SiteConfig, path: str = FEED, papers: Iterable[Paper] | None = None) -> str:
    """The id of the feed at `path`, an IRI that stays the same for these papers (the catalogue's by
    default): the site's address (with the feed's folder for a venue's feed) when known, else a
    name-based UUID of the site's title and description, the papers (two catalogues with the
    default title differ) and the feed's path. It follows from the feed's own papers alone, so a
    venue's feed changes only with its venue."""
    folder = path.rpartition("/")[0] + "/" if "/" in path else ""
    if config.base_url:
        return config.base_url + folder
    papers = catalogue.papers if papers is None else papers
    name = [config.title, config.description, sorted(paper.id for paper in papers)] + ([folder] if folder else [])
    return uuid.uuid5(uuid.NAMESPACE_URL, json.dumps(name)).urn  # ASCII


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
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{SITEMAP_NS}">\n{entries}</urlset>\n'


def sitemap_parts(paths: list[str], limit: int = SITEMAP_URLS) -> list[list[str]]:
    """The pages in sorted order, cut into sitemaps of at most `limit` URLs: one when they fit."""
    ordered = sorted(paths)
    return [ordered[start:start + limit] for start in range(0, len(ordered), limit)] or [[]]


def sitemap_part_path(number: int) -> str:
    return f"sitemaps/sitemap-{number}.xml"


def render_sitemap_index(count: int, config: SiteConfig) -> str:
    """sitemap.xml as an index naming `count` parts, sitemaps/sitemap-1.xml, ... (absolute, as the protocol asks)."""
    entries = "".join(f"  <sitemap><loc>{escape(config.base_url + sitemap_part_path(n))}</loc></sitemap>\n"
                      for n in range(1, count + 1))
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="{SITEMAP_NS}">\n{entries}</sitemapindex>\n'


def render_robots(config: SiteConfig) -> str:
    sitemap = f"Sitemap: {config.base_url}{SITEMAP}\n" if config.base_url else ""
    return f"User-agent: *\nAllow: /\n{sitemap}"


def render_atom(catalogue: Catalogue, titles: dict[str, str], summaries: dict[str, str],
                addresses: dict[str, PaperAddresses], config: SiteConfig, venue: Callable[[Paper], str] = venue_label,
                *, papers: Iterable[Paper] | None = None, path: str = FEED, title: str | None = None,
                limit: int = FEED_ENTRIES) -> str:
    """The `limit` newest of `papers` (the catalogue's by default), by the date the catalogue added
    them; the feed at `path`, named `title` (the site's by default). An entry (its title, summary
    and addresses by its id) is `published` on the day its venue published it when the list gave
    that day, else on the day it was added, and `updated` on the later of the two (no edit time is
    kept); links are absolute with a base URL, else relative to the site's root, where the main feed
    sits. `venue` names a paper's venue. An entry names the paper's authors, if any: the feed's own
    author (the site's title) stands for the rest, as Atom allows, rather than an invented name."""
    papers = catalogue.papers if papers is None else tuple(papers)
    newest = newest_first(papers)[:limit]
    updated = EPOCH
    base = config.base_url or ""
    entries = []
    for date, paper in newest:
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
    self_link = f'  <link rel="self" href={quoteattr(base + path)}/>\n' if base else ""
    name = escape(config.title if title is None else f"{title} · {config.title}")
    return ('<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n'
            f"  <title>{name}</title>\n  <subtitle>{escape(config.description)}</subtitle>\n"
            f"  <id>{escape(feed_id(catalogue, config, path, papers))}</id>\n  <updated>{updated}</updated>\n"
            f"  <author><name>{escape(config.title)}</name></author>\n"
            f"  <link href={quoteattr(base or routes.HOME)}/>\n{self_link}{''.join(entries)}</feed>\n")


def paper_record(paper: Paper, addresses: PaperAddresses, abstract_text: str) -> dict:
    """One paper of a papers.json part: what a machine reader needs (its fields are listed in the README;
    `doi` only for a paper that has one)."""
    return {"id": paper.id, "slug": paper.slug, "url": addresses.url, "title": paper.title,
            "title_source": paper.title_source, "authors": list(paper.authors), "venue": paper.venue,
            "year": paper.year, "topics": list(paper.topics), "pdf": paper.pdf, "proceedings_url": paper.url,
            **({"doi": paper.doi} if paper.doi else {}), "abstract": abstract_text}


def render_papers_part(records: Iterable[dict], venue: str | None, year: int | None) -> bytes:
    """A part of the catalogue's records (one venue and year) as compact JSON, a record at a time."""
    head = json.dumps({"venue": venue, "year": year}, ensure_ascii=False, separators=(",", ":"))
    body = b",".join(json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode("utf-8") for record in records)
    return head[:-1].encode("utf-8") + b',"papers":[' + body + b"]}\n"


def render_papers_index(config: SiteConfig, count: int, topics: list[dict], parts: list[dict]) -> str:
    """papers.json: the site, its paper count, topic labels, and each part's venue, year, count and files."""
    index = {"title": config.title, "base_url": config.base_url, "count": count, "topics": topics, "parts": parts}
    return json.dumps(index, ensure_ascii=False, indent=1) + "\n"
