"""OpenAlex's works API as this project uses it: the request for a paper's candidates (a search by
the abstract's words) and the candidates read back from its answer, checked field by field.

The answer's shape is OpenAlex's documented Work object: `id` (https://openalex.org/W...), `title`,
`doi` (https://doi.org/...), `authorships[].author.display_name`, `primary_location` and
`best_oa_location` (`landing_page_url`, `pdf_url`), and `abstract_inverted_index` (each word and
the places it stands at). Anything else in an answer is junk and raises Junk.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from urllib.parse import urlencode

from catalogue.text import replace_unsafe, without_invisible

SELECT = "id,title,doi,authorships,primary_location,best_oa_location,abstract_inverted_index"
CANDIDATES = 5  # per request: the paper itself ranks first when the service knows it
QUERY_WORDS = 16  # words of the abstract a request searches by
SEARCHES = 3  # at most, a paper: spans from its start, its first third and its second
WORK_ID = re.compile(r"\A(?:https://openalex\.org/)?(W\d{1,15})\Z")
ADDRESS = re.compile(r"\Ahttps?://[^\s<>\"/?#]+[^\s<>\"]*\Z", re.IGNORECASE)
DOI = re.compile(r"\A(?:https?://(?:dx\.)?doi\.org/)?(10\.\d{4,9}/\S+)\Z", re.IGNORECASE)
TAG = re.compile(r"<[^>]{0,80}>")
WORD = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*")


class Junk(ValueError):
    """An answer that is not the documented shape."""


@dataclass(frozen=True)
class Work:
    """A candidate: what the paper takes from it when its abstract matches."""

    id: str  # W2741809807
    title: str
    authors: tuple[str, ...]
    doi: str | None  # 10.1000/xyz, without the resolver
    pdf: str | None
    url: str | None  # its landing page
    abstract: str  # rebuilt from the inverted index


def search_spans(abstract: str) -> list[str]:
    """The searches for a paper, at most SEARCHES, each of QUERY_WORDS words, from the abstract's
    start, first third and second third, asked in turn until one finds the paper: the service
    finds works holding every word searched for, so a version of the abstract that differs in one
    place is still found by another span. Lower-case words only: punctuation, quotes and upper-case
    AND, OR and NOT mean syntax to the service."""
    found = [word.lower() for word in WORD.findall(TAG.sub(" ", abstract.replace("$", " ")))]
    spans = min(SEARCHES, max(1, len(found) // QUERY_WORDS))
    return [" ".join(found[len(found) * at // spans:][:QUERY_WORDS]) for at in range(spans) if found]


def works_address(base_url: str, search: str, mailto: str | None, api_key: str | None) -> str:
    parameters = {"search": search, "select": SELECT, "per-page": CANDIDATES}
    parameters |= {name: value for name, value in (("mailto", mailto), ("api_key", api_key)) if value}
    return f"{base_url.rstrip('/')}/works?{urlencode(parameters)}"


def parse_works(answer: object) -> list[Work]:
    """The usable candidates of a decoded answer ({"results": [...]}); a candidate without an id, a
    title or an abstract is skipped, an answer of another shape raises Junk."""
    if not isinstance(answer, dict) or not isinstance(answer.get("results"), list):
        raise Junk("no list of results")
    works = []
    for item in answer["results"]:
        if not isinstance(item, dict):
            raise Junk("a result is not an object")
        work = parse_work(item)
        if work:
            works.append(work)
    return works


def parse_work(item: dict) -> Work | None:
    match = WORK_ID.fullmatch(item.get("id")) if isinstance(item.get("id"), str) else None
    title = clean_text(item.get("title"))
    abstract = rebuild_abstract(item.get("abstract_inverted_index"))
    if not (match and title and abstract):
        return None
    located = [place for place in (item.get("best_oa_location"), item.get("primary_location")) if isinstance(place, dict)]
    doi = DOI.fullmatch(item["doi"]) if isinstance(item.get("doi"), str) else None
    return Work(match[1], title, authors_of(item.get("authorships")), doi[1] if doi else None,
                first_address(place.get("pdf_url") for place in located),
                first_address([*(place.get("landing_page_url") for place in located[::-1]),
                               f"https://doi.org/{doi[1]}" if doi else None]), abstract)


def clean_text(value: object) -> str | None:
    """A title or a name as one line of plain text (the service's titles may hold HTML tags and entities)."""
    if not isinstance(value, str):
        return None
    text = " ".join(without_invisible(replace_unsafe(html.unescape(TAG.sub("", value)), ""))[0].split())
    return text or None


def authors_of(authorships: object) -> tuple[str, ...]:
    if not isinstance(authorships, list):
        return ()
    names = (clean_text(entry.get("author", {}).get("display_name")) for entry in authorships
             if isinstance(entry, dict) and isinstance(entry.get("author"), dict))
    return tuple(dict.fromkeys(name for name in names if name))


def first_address(values) -> str | None:
    return next((value for value in values if isinstance(value, str) and ADDRESS.fullmatch(value)), None)


def rebuild_abstract(inverted: object) -> str:
    """The abstract from its inverted index ({word: [places]}); "" when there is none or it is malformed."""
    if not isinstance(inverted, dict):
        return ""
    placed = {}
    for word, places in inverted.items():
        if not isinstance(word, str) or not isinstance(places, list):
            return ""
        for place in places:
            if isinstance(place, int) and not isinstance(place, bool) and 0 <= place < 100_000:
                placed[place] = word
    return " ".join(placed[place] for place in sorted(placed))
