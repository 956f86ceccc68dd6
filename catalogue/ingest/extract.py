"""What the lists do not carry, derived from the abstract alone: name, title, topics, links,
benchmarks and headline results. Each has its own module (names, titles, topics, benchmarks, results);
this one reads the abstract's sentences once and hands them on.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from catalogue.ingest import benchmarks, results
from catalogue.markup.formulas import text_only_math
from catalogue.markup.inline_html import without_inline_html
from catalogue.model import Link, Topic
from catalogue.ingest.names import Contribution, find_names
from catalogue.ingest.titles import derive_title
from catalogue.ingest.topics import rank_topics
from catalogue.text import find_urls, split_sentences


@dataclass(frozen=True)
class Extraction:
    name: str | None
    other_names: tuple[str, ...]
    title: str
    topics: tuple[str, ...]
    links: tuple[Link, ...]
    benchmarks: tuple[str, ...]
    results: tuple[str, ...]


def extract(abstract: str, taxonomy: tuple[Topic, ...], fallback_topic: str, title: str | None = None,
            keywords: tuple[str, ...] = (), not_names: frozenset[str] = frozenset()) -> Extraction:
    """Everything derived from one abstract; a title the list gives is used, not derived, and the
    authors' keywords count as the title's words do for topics. `not_names`: what the abstract
    seems to introduce that is not its own (the field's terms: shared_names.py)."""
    contributions = [c for c in find_contributions(abstract) if c.name not in not_names] if abstract else []
    primary = next((c for c in contributions if not c.secondary), None)
    title = title or derive_title(abstract, primary.name if primary else None)
    return Extraction(
        name=primary.name if primary else None,
        other_names=tuple(c.name for c in contributions if c is not primary),
        title=title,
        topics=rank_topics(" ; ".join((title, *keywords)), abstract, taxonomy, fallback_topic),
        links=find_links(abstract),
        benchmarks=find_benchmarks(abstract, tuple(c.name for c in contributions)),
        results=find_results(abstract),
    )


@functools.lru_cache(maxsize=16)
def plain_for_extraction(abstract: str) -> str:
    """The abstract with inline HTML tags and emphasis markers gone, entities decoded and
    $\\textbf{...}$ turned back into text."""
    text = re.sub(r"\$(\\text\w*\{[^$]*\})\$", lambda m: text_only_math(m[1]) or m[0], without_inline_html(abstract))
    # LaTeX's text styles keep their words ('\\texttt{Hummer}', '\\underline{e}lastic'); a style whose braces
    # the venue lost ('\\emphMultiple Instance') goes too
    text = re.sub(r"\\(?:emph|text(?:it|bf|tt|sc|sf|rm|sl|up)|underline)\{([^{}]*)\}|\\(?:emph|textit|textbf)(?=[A-Z])",
                  lambda found: found[1] or "", text)
    # Markdown's emphasis markers go; a formula's subscripts ($x_{t+1}$) stay as written.
    if "*" not in text and "_" not in text:
        return text  # no marker to take out (formulas alone are kept as they are)
    return re.sub(r"(\$[^$]*+\$)|\*+|(?<!\w)_+|(?<!_)_++(?!\w)", lambda found: found[1] or "", text)


def find_contributions(abstract: str) -> list[Contribution]:
    """Named contributions in the order the abstract introduces them (first = primary)."""
    return find_names(split_sentences(plain_for_extraction(abstract)))


def find_links(abstract: str) -> tuple[Link, ...]:
    """Code and project links, in order, each once."""
    links: list[Link] = []
    for _, _, href in find_urls(abstract):
        host = re.sub(r"^https?://", "", href).split("/")[0].lower()
        label = "Code" if host in {"github.com", "gitlab.com", "bitbucket.org", "huggingface.co"} else "Project page"
        if all(link.url != href for link in links):
            links.append(Link(href, label))
    return tuple(links)


def find_benchmarks(abstract: str, own_names: tuple[str, ...] = ()) -> tuple[str, ...]:
    """Named benchmarks and datasets the abstract evaluates on or introduces, in order of mention."""
    return benchmarks.find_benchmarks(split_sentences(plain_for_extraction(abstract)), own_names)


def find_results(abstract: str) -> tuple[str, ...]:
    """Up to three short phrases with headline numbers, each saying what it measures."""
    return results.find_results(split_sentences(results.plain_math(plain_for_extraction(abstract))))
