"""The lookup itself: each paper to ask about searched by its abstract's words (at most three
requests, plus retries), its best candidate taken when the abstract matches, and the papers the
service could not answer counted with the reason, so that the build goes on without them."""

from __future__ import annotations

from catalogue.model import Paper
from catalogue.system.progress import Progress
from catalogue.ingest.lookup.answers import LookupReport, answered, best_match
from catalogue.ingest.lookup.openalex import Junk, Work, parse_works, search_spans, works_address
from catalogue.ingest.lookup.service import LookupSettings, Service, Unanswered

GIVE_UP_AFTER = 3  # papers in a row left unanswered: the service is down, the rest wait for the next build


def look_up(papers: dict[str, Paper], asking: list[str], settings: LookupSettings,
            today: str) -> tuple[dict[str, Paper], LookupReport]:
    """`papers` with the answers for those of `asking` (ids) the service answered, and the report."""
    service = Service(settings)
    papers = dict(papers)
    found = unknown = unanswered = in_a_row = 0
    reason = None
    with Progress("Looking up titles", len(asking)) as progress:
        for pid in asking:
            progress.advance()
            if in_a_row >= GIVE_UP_AFTER:
                unanswered += 1
                continue
            try:
                work = find(service, papers[pid], settings)
            except Unanswered as error:
                unanswered, in_a_row, reason = unanswered + 1, in_a_row + 1, str(error)
                continue
            except Junk as error:
                unanswered, in_a_row, reason = unanswered + 1, in_a_row + 1, f"the service answered junk: {error}"
                continue
            in_a_row = 0
            found, unknown = found + (work is not None), unknown + (work is None)
            papers[pid] = answered(papers[pid], work, today)
    return papers, LookupReport(len(asking), found, unknown, unanswered, reason)


def find(service: Service, paper: Paper, settings: LookupSettings) -> Work | None:
    """The work that is this paper, or None when no candidate's abstract matches."""
    for span in search_spans(paper.abstract):
        address = works_address(settings.url, span, settings.mailto, settings.api_key)
        if match := best_match(paper, parse_works(service.get_json(address))):
            return match
    return None
