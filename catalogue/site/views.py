"""Each paper ready for any template (PaperView): its texts converted once, its addresses, its
citation, its authors as the catalogue spells them. What a view derives from the paper alone is
kept in the build cache (ViewParts, by the view's key): an edit rebuilds the views of the papers it
changed and reads every other view back (view_papers)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from markupsafe import Markup as SafeHtml

from catalogue.config import SiteConfig
from catalogue.errors import CatalogueError
from catalogue.markup.convert import CONVERTED, Converted, TextConverter, conversion_key, inline
from catalogue.model import Catalogue, Paper, Topic
from catalogue.routes import PaperAddresses, venue_slugs
from catalogue.search.offline import AbstractTerms, abstract_terms
from catalogue.site.authors import author_key, author_path, shown_names
from catalogue.site.cite import render_bibtex, venue_label
from catalogue.site.cite_script import script_inputs, script_makes
from catalogue.content.cite_keys import citation_keys
from catalogue.content.papers import paper_digest
from catalogue.system.cache import Cache, code_version, digest
from catalogue.system.progress import Progress
from catalogue.system.workers import made_for_each

VIEW_PARTS = "view"  # the cache's kind for ViewParts, by the view's key


@dataclass(frozen=True)
class ViewParts:
    """A paper's view without the paper and what the whole catalogue decides (its topics, its
    authors' spelling): the HTML fields are markup that is safe as it is."""

    name_html: str | None
    name_text: str
    title_html: str
    title_text: str
    plain_abstract: str
    bibtex: str
    abstract_html: str
    excerpt: str
    description: str
    terms: AbstractTerms  # what the offline search index reads of its abstract
    cite_by_script: bool  # whether assets/cite.js writes its BibTeX entry as cite.py does (cite_script.script_makes)
    conversions: tuple[str, ...]  # the cache keys of its converted texts, kept as long as the view


KEPT_TYPES = (ViewParts, AbstractTerms)  # the records the views keep in the build cache (its stage joins them: ingest/run.py, site/render.py)


EXCERPT_LENGTH = 260
DESCRIPTION_LENGTH = 160
PARALLEL_CONVERSION_FROM = 500  # fewer texts convert faster in one process
CONVERSION_CHUNK = 100  # texts a worker converts between two requests
NOTHING = Converted("", "", ())  # the abstract of a paper its list gives none for


@dataclass(frozen=True)
class AuthorRef:
    """An author of a paper: the paper's spelling (for citations), the author's spelling (shown on
    every page, as on their own), their page."""

    name: str
    shown: str
    path: str


@dataclass(frozen=True)
class PaperView:
    """A paper with its text converted once, ready for any template."""

    paper: Paper
    addresses: PaperAddresses
    name_html: SafeHtml | None
    name_text: str
    title_html: SafeHtml
    title_text: str
    plain_abstract: str
    bibtex: str
    abstract_html: SafeHtml
    excerpt: str
    description: str
    topics: tuple[Topic, ...]
    authors: tuple[AuthorRef, ...]
    terms: AbstractTerms  # what the offline search index reads of its abstract
    cite_by_script: bool  # whether assets/cite.js writes its BibTeX entry as cite.py does (cite_script.script_makes)
    key: str  # a digest of everything above: pages that show the paper change when it changes

    @property
    def path(self) -> str:
        """Its page, from the site's root."""
        return self.addresses.page

    @property
    def url(self) -> str | None:
        """Its page's address for sharing, when the base URL is known."""
        return self.addresses.url

    @property
    def name_badge(self) -> bool:
        """Whether its name is shown beside its title: not when the title begins with it."""
        return bool(self.name_text) and not name_begins_title(self.name_text, self.title_text)


def name_begins_title(name: str, title: str) -> bool:
    """'MIMICause' begins 'MIMICause: Representation...' (as a word: not 'BERTology'); as
    assets/common.js's catalogueNameInTitle, which the cards made there follow."""
    name, title = name.casefold(), title.casefold()
    return title.startswith(name) and not title[len(name):len(name) + 1].isalnum()


def shorten(text: str, limit: int) -> str:
    """text cut at a word boundary, with an ellipsis when cut."""
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0].rstrip(",;:.") + "\u2026"


def converted_texts(papers: Iterable[Paper], cache: Cache) -> Callable[[str, bool], Converted]:
    """These papers' texts converted, looked up by (text, links). Each text is converted once:
    a text converted before (by an earlier build, or by ingest, which converts abstracts to
    check their math) comes from the cache."""
    wanted: dict[str, tuple[str, bool]] = {}
    labels: dict[str, str] = {}  # which paper's text it is, for a message
    for paper in papers:
        for text, links, part in ((paper.abstract, True, "abstract"), (paper.title, False, "title"),
                                  (paper.name, False, "name")):
            if text:
                key = conversion_key(text, links)
                wanted[key] = text, links
                labels.setdefault(key, f"{paper.source}: the {part} of paper '{paper.slug}'")
    converted = cache.get_many(CONVERTED, wanted)
    missing = [key for key in wanted if key not in converted]
    if missing:
        fresh = dict(zip(missing, convert_texts([wanted[key] for key in missing], [labels[key] for key in missing])))
        cache.put_many(CONVERTED, fresh)
        converted |= fresh
    by_text = {text_and_links: converted[key] for key, text_and_links in wanted.items()}
    return lambda text, links: by_text[text, links] if text else NOTHING


def view_papers(catalogue: Catalogue, config: SiteConfig, cache: Cache,
                venue: Callable[[Paper], str] = venue_label) -> tuple[PaperView, ...]:
    """Every paper ready for the templates; `venue` names a paper's venue as pages show it. The
    parts a view derives from its paper alone are kept in the cache by the view's key: only the
    papers whose key is new have their texts converted and their parts made."""
    topics = {t.slug: t for t in catalogue.topics}
    shown_as = {key: (name, author_path(name))
                for key, name in shown_names(p.authors for p in catalogue.papers).items()}
    # one reference per spelling, shared by the papers that spell the author so
    spellings = {author for paper in catalogue.papers for author in paper.authors}
    refs = {author: AuthorRef(author, *shown_as[author_key(author)]) for author in spellings}
    settings = digest(code_version(__name__), config)
    topic_keys = {slug: digest(topic) for slug, topic in topics.items()}
    venues = venue_slugs(venue_label(paper) for paper in catalogue.papers)  # as venue_groups names their pages
    cite_keys = citation_keys(catalogue.papers)  # recorded by ingest; a file without one gets one here
    shown = [(paper if paper.cite_key == cite_keys[paper.id] else replace(paper, cite_key=cite_keys[paper.id]),
              tuple(topics[slug] for slug in paper.topics),
              tuple(refs[author] for author in paper.authors),
              PaperAddresses(paper.slug, paper.old_slugs, config.base_url, venues[venue_label(paper)]))
             for paper in catalogue.papers]
    keys = [digest(settings, digest_of_paper, [topic_keys[slug] for slug in paper.topics],
                   [(ref.name, ref.shown, ref.path) for ref in refs], venue(paper), addresses.venue, paper.cite_key)
            for (paper, _, refs, addresses), digest_of_paper in zip(shown, catalogue.digests or map(paper_digest, catalogue.papers))]
    parts = cache.get_many(VIEW_PARTS, keys)
    missing = {key: (paper, addresses) for (paper, _, _, addresses), key in zip(shown, keys) if key not in parts}
    if missing:
        converted = converted_texts([paper for paper, _ in missing.values()], cache)
        made = dict(zip(missing, make_view_parts(list(missing.values()), converted, venue)))
        cache.put_many(VIEW_PARTS, made)
        parts |= made
    cache.keep_only(VIEW_PARTS, keys)
    cache.keep_only(CONVERTED, [conversion for key in keys for conversion in parts[key].conversions])
    return tuple(view_paper(paper, paper_topics, refs, addresses, parts[key], key)
                 for (paper, paper_topics, refs, addresses), key in zip(shown, keys))


def convert_texts(texts: list[tuple[str, bool]], labels: list[str]) -> list[Converted]:
    """Texts (with links or not) converted, on every core when there are many: the costly part of
    a first build. `labels` name each text in a message, should its conversion fail."""
    with Progress("Converting text", len(texts)) as progress:
        return made_for_each(functools.partial(_convert, texts, labels), len(texts), lambda at, code: (
            f"{labels[at]}: the process converting it stopped (exit code {code}); the previous site is kept"),
            alone_below=PARALLEL_CONVERSION_FROM, chunk=CONVERSION_CHUNK, progress=progress)


def _convert(texts: list[tuple[str, bool]], labels: list[str], index: int, markup: TextConverter = TextConverter()) -> Converted:
    """One text converted; any failure is a CatalogueError that names it (in a worker, a traceback would name nothing)."""
    try:
        return markup.convert(*texts[index])
    except Exception as error:  # noqa: BLE001 - reported with the text's name
        raise CatalogueError(f"{labels[index]}: could not be converted ({type(error).__name__}: {error})") from error


def make_view_parts(new: list[tuple[Paper, PaperAddresses]], converted: Callable[[str, bool], Converted],
                    venue: Callable[[Paper], str]) -> list[ViewParts]:
    """view_parts of each paper, on every core when there are many (a first build, a new version)."""
    def make(index: int) -> ViewParts:
        return view_parts(*new[index], converted, venue)

    return made_for_each(make, len(new), lambda at, code: (
        f"{new[at][0].source}: the process making the page parts of paper '{new[at][0].slug}' stopped (exit code {code}); "
        "the previous site is kept"), alone_below=PARALLEL_CONVERSION_FROM, chunk=CONVERSION_CHUNK)


def view_parts(paper: Paper, addresses: PaperAddresses, converted: Callable[[str, bool], Converted],
               venue: Callable[[Paper], str] = venue_label) -> ViewParts:
    """What a paper's view derives from the paper alone, its texts from `converted(text, links)`."""
    name = converted(paper.name, False) if paper.name else None
    title = converted(paper.title, False)
    abstract = converted(paper.abstract, True)
    bibtex = render_bibtex(paper, addresses.url)
    cite_inputs = script_inputs(paper, title.plain, paper.authors, addresses.url)
    return ViewParts(name_html=inline(name.html) if name else None,
                     name_text=name.plain if name else "",
                     title_html=inline(title.html),
                     title_text=title.plain,
                     plain_abstract=abstract.plain,
                     bibtex=bibtex,
                     abstract_html=abstract.html,
                     excerpt=shorten(abstract.plain, EXCERPT_LENGTH),
                     description=shorten(abstract.plain or f"{title.plain} ({venue(paper)})", DESCRIPTION_LENGTH),
                     terms=abstract_terms(abstract.plain),
                     cite_by_script=script_makes(paper, cite_inputs, bibtex),
                     conversions=tuple(conversion_key(text, links) for text, links in (
                         (paper.abstract, True), (paper.title, False), (paper.name, False)) if text))


def view_paper(paper: Paper, topics: tuple[Topic, ...], authors: tuple[AuthorRef, ...], addresses: PaperAddresses,
               parts: ViewParts, key: str) -> PaperView:
    """A paper ready for the templates from its parts; `key` is a digest of all it shows. A text
    equal to the paper's own (most: no markup) is the paper's string, not a second copy."""
    return PaperView(paper, addresses,
                     name_html=SafeHtml(parts.name_html) if parts.name_html is not None else None,
                     name_text=parts.name_text,
                     title_html=SafeHtml(parts.title_html),
                     title_text=paper.title if parts.title_text == paper.title else parts.title_text,
                     plain_abstract=paper.abstract if parts.plain_abstract == paper.abstract else parts.plain_abstract,
                     bibtex=parts.bibtex,
                     abstract_html=SafeHtml(parts.abstract_html),
                     excerpt=parts.excerpt,
                     description=parts.description,
                     topics=topics,
                     authors=authors,
                     terms=parts.terms,
                     cite_by_script=parts.cite_by_script,
                     key=key)
