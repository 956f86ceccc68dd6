"""Records -> papers: what a record gives (title, authors, links) as given, the rest derived from
its abstract, on every core when there are many and through the cache; then what only the papers
of a venue-year together tell.
"""

from __future__ import annotations

import re
from dataclasses import replace

from catalogue.system.cache import Cache, code_version, digest
from catalogue.content.rules import one_spelling_per_venue
from catalogue.markup.convert import CONVERTED, Converted, TextConverter, conversion_key
from catalogue.model import RECORDS, Link, Paper, Problem, Record, Topic
from catalogue.system.progress import Progress
from catalogue.system.workers import made_for_each

CONVERSIONS_AT_ONCE = 2000  # papers derived (and their converted abstracts held) before they go to the cache
PARALLEL_FROM = 200  # fewer abstracts are read faster in one process than in workers
DERIVE_CHUNK = 25  # abstracts a worker reads between two requests
DERIVATIONS = "ingest"  # the cache's kind: a record's paper and notes, by the record and what extraction reads
KEPT_TYPES = RECORDS  # what DERIVATIONS hold


def derive_arrivals(arrivals: dict[str, Record], continued: dict[str, str], taxonomy: tuple[Topic, ...],
                    fallback: str, cache: Cache) -> tuple[dict[str, Paper], list[Problem]]:
    """Each arriving record's paper by id (under the id of the paper it continues, if any), with
    the notes on them; a record derived before with the same taxonomy and code is not derived again."""
    context = digest(code_version(__name__), taxonomy, fallback)
    keys = {pid: digest(context, record) for pid, record in arrivals.items()}
    known = cache.get_many(DERIVATIONS, keys.values())
    missing = [pid for pid in arrivals if keys[pid] not in known]
    computed: dict[str, tuple[Paper, tuple[Problem, ...]]] = {}
    with Progress("Deriving papers", len(missing)) as progress:
        for start in range(0, len(missing), CONVERSIONS_AT_ONCE):  # (all at once would hold every abstract twice over)
            batch = missing[start:start + CONVERSIONS_AT_ONCE]
            conversions: dict[str, Converted] = {}
            for pid, (paper, notes, converted) in zip(batch, derive_papers([arrivals[pid] for pid in batch], batch,
                                                                           taxonomy, fallback, progress)):
                known[keys[pid]] = computed[keys[pid]] = paper, notes
                if converted:
                    conversions[conversion_key(paper.abstract, True)] = converted  # the render need not convert again
            cache.put_many(CONVERTED, conversions)
    derived: dict[str, Paper] = {}
    problems: list[Problem] = []
    for pid in arrivals:
        paper, notes = known[keys[pid]]
        if pid in continued:
            paper = replace(paper, id=continued[pid])
        derived[paper.id] = paper
        problems += notes
    derived, venue_notes = one_spelling_per_venue(derived, lambda _, paper: paper.source)
    problems += venue_notes
    derived = {paper.id: paper for paper in across_venue_years(list(derived.values()), taxonomy, fallback)}
    cache.put_many(DERIVATIONS, computed)
    cache.keep_only(DERIVATIONS, keys.values())
    return derived, problems


def derive_papers(records: list[Record], pids: list[str], taxonomy: tuple[Topic, ...], fallback: str,
                  progress: Progress) -> list[tuple[Paper, tuple[Problem, ...], Converted | None]]:
    """derive_paper for each record, on every core when there are many."""
    markup = TextConverter()

    def derive(index: int):
        return derive_paper(pids[index], records[index], taxonomy, fallback, markup)

    return made_for_each(derive, len(records), lambda at, code: (
        f"{records[at].source}: the process reading this abstract stopped (exit code {code}); nothing was written"),
        alone_below=PARALLEL_FROM, chunk=DERIVE_CHUNK, progress=progress)


def derive_paper(pid: str, record: Record, taxonomy: tuple[Topic, ...], fallback: str,
                 markup: TextConverter) -> tuple[Paper, tuple[Problem, ...], Converted | None]:
    """The paper a record makes: what it gives (title, authors, links) as given, the rest derived
    from its abstract (name, title, topics, ...); with notes on the abstract's tidying and math,
    and the tidied abstract converted (to find what its math has wrong), when it has one."""
    from catalogue.ingest.extract import extract
    from catalogue.ingest.names import name_from_title
    from catalogue.markup.cleanup import clean_abstract
    abstract, cleaned = clean_abstract(record.abstract) if record.abstract else ("", ())
    converted = markup.abstract_html(abstract) if abstract else None
    notes = [Problem(record.source, message) for message in (converted.problems if converted else ())]
    notes += [Problem(record.source, f"{note}; the seed line keeps the original") for note in cleaned]
    found = extract(abstract, taxonomy, fallback, record.title, record.keywords)
    name, other_names = found.name, found.other_names
    if record.title:  # the title's own short name, else the abstract's if the title writes it too
        titled = name_from_title(record.title, abstract)
        if titled or not (name and re.search(rf"(?<!\w){re.escape(name)}(?!\w)", record.title)):
            name, other_names = titled, tuple(n for n in (found.name, *found.other_names) if n and n != titled)
    given_links = [Link(url, label) for url, label in ((record.code, "Code"), (record.project, "Project page")) if url]
    links = tuple(given_links + [link for link in found.links if link.url not in {l.url for l in given_links}])
    paper = Paper(id=pid, slug="", title=found.title, abstract=abstract, source=record.source, name=name,
                  other_names=other_names, title_source="given" if record.title else "derived",
                  venue=record.venue, year=record.year, published=record.published, topics=found.topics, links=links,
                  benchmarks=found.benchmarks, results=found.results, cleaned=cleaned, authors=record.authors,
                  keywords=record.keywords, pdf=record.pdf, url=record.url, doi=record.doi)
    return paper, tuple(notes), converted


def across_venue_years(papers: list[Paper], taxonomy: tuple[Topic, ...], fallback: str) -> list[Paper]:
    """The papers, in order, once each is derived alone: what only the papers of a venue-year
    together tell. A name the field shares is no paper's (shared_names), then no two titles are alike."""
    from catalogue.ingest.shared_names import without_field_terms
    from catalogue.ingest.titles import distinct_titles
    return distinct_titles(without_field_terms(papers, taxonomy, fallback))

