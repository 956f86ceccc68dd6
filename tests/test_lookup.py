"""Real titles looked up at OpenAlex (issue 42, items 1 and 3), against a local stand-in of its
works API (tests/openalex_standin.py) serving real corpus records in the documented shape: the
rule that refuses look-alikes, polite retries, a build that goes on when the service fails, the
answer kept in content/ (no request again, hand edits win), and the answer shown as a given
title and authors are. No test reaches the internet."""

from __future__ import annotations

import json
import re
import shutil
import socket
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
from click.testing import CliRunner

from catalogue.cli import main
from catalogue.content.paper_file import read_paper
from catalogue.ingest.lookup.answers import best_match
from catalogue.ingest.lookup.matching import SAME_PAPER, abstract_words, similarity
from catalogue.ingest.lookup.openalex import Junk, parse_works, rebuild_abstract, search_spans
from catalogue.ingest.lookup.service import LookupSettings, Service, Unanswered
from catalogue.model import Paper, Source
from openalex_standin import StandIn, corpus_records, inverted_index, results, serving, work

PROJECT = Path(__file__).resolve().parent.parent
RECORDS = corpus_records()


@pytest.fixture
def waits(monkeypatch) -> list[float]:
    """The pauses the client asks for (backoff and pace), recorded instead of slept."""
    asked: list[float] = []
    monkeypatch.setattr(Service, "pause", lambda self, seconds: asked.append(seconds))
    return asked


def closed_port() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}"  # closed when the socket is


def as_paper(record: dict) -> Paper:
    return Paper(id="0" * 12, slug="x", title="derived", abstract=record["abstract"], source=Source("seeds/x.txt", 1))


def nearest_other(record: dict) -> dict:
    """The sample's record sharing most words with this one's abstract: a look-alike on the same topic."""
    ours = set(abstract_words(record["abstract"]))
    return max((other for other in RECORDS if other is not record),
               key=lambda other: len(ours & set(abstract_words(other["abstract"]))) / len(ours | set(abstract_words(other["abstract"]))))


def test_the_abstract_is_rebuilt_from_its_inverted_index():
    text = RECORDS[0]["abstract"]
    assert rebuild_abstract(inverted_index(text)) == " ".join(text.split())
    assert rebuild_abstract({"word": "nowhere"}) == "" and rebuild_abstract(None) == ""


@pytest.mark.parametrize("answer", [[], {"results": 3}, {"results": [1]}, "junk", {"meta": {}}])
def test_an_answer_of_another_shape_is_junk(answer):
    with pytest.raises(Junk):
        parse_works(answer)


def test_a_candidate_without_a_title_or_an_abstract_is_skipped_and_addresses_are_checked():
    whole = work(RECORDS[1], 7) | {"title": "<i>Deep</i> &amp; wide", "doi": "https://doi.org/10.1234/abc"}
    whole["best_oa_location"]["pdf_url"] = "javascript:alert(1)"
    found = parse_works({"results": [work(RECORDS[0], 1) | {"title": None},
                                     work(RECORDS[0], 2) | {"abstract_inverted_index": None}, whole]})
    assert [(w.id, w.title, w.doi, w.pdf) for w in found] == [("W7", "Deep & wide", "10.1234/abc", None)]


@pytest.mark.parametrize("at", range(0, 500, 50))
def test_the_paper_itself_is_taken_and_its_closest_look_alike_refused(at):
    record, other = RECORDS[at], nearest_other(RECORDS[at])
    assert similarity(abstract_words(record["abstract"]), abstract_words(other["abstract"])) < SAME_PAPER
    works = parse_works({"results": [work(other, 2), work(record, 1)]})
    assert best_match(as_paper(record), works).id == "W1"
    assert best_match(as_paper(record), works[:1]) is None


def test_searches_are_at_most_three_spans_of_the_abstracts_words():
    spans = search_spans(RECORDS[3]["abstract"])
    assert len(spans) == 3 and len(set(spans)) == 3 and all(len(span.split()) == 16 for span in spans) and all(re.fullmatch(r"[\w' -]+", span) for span in spans)
    assert spans[0].split()[:3] == re.sub(r"[^\w\s'-]", " ", RECORDS[3]["abstract"]).lower().split()[:3]
    assert search_spans("We study AND NOT graphs") == ["we study and not graphs"] and search_spans("$$") == []


def test_a_429_is_waited_out_and_asked_again(waits):
    stand_in = StandIn()
    stand_in.answers["x"] = [(429, b"{}"), results(work(RECORDS[0], 1))]
    with serving(stand_in) as url:
        answer = Service(LookupSettings(url=url, backoff=0.5)).get_json(f"{url}/works?search=x")
    assert [w["id"] for w in answer["results"]] == ["https://openalex.org/W1"]
    assert len(stand_in.requests) == 2 and 0.5 in waits


@pytest.mark.parametrize("status, body, retried, said", [
    (500, b"oops", True, "HTTP 500"),
    (200, b"<html>not json</html>", False, "not JSON"),
    (400, b'{"error": "Invalid filter"}', False, "HTTP 400"),
])
def test_errors_and_junk_end_in_a_reason_after_a_few_tries(waits, status, body, retried, said):
    stand_in = StandIn()
    stand_in.answers["x"] = [(status, body)]
    with serving(stand_in) as url, pytest.raises(Unanswered, match=said):
        Service(LookupSettings(url=url, retries=2, backoff=1.0)).get_json(f"{url}/works?search=x")
    assert len(stand_in.requests) == (3 if retried else 1)
    assert ([1.0, 2.0] if retried else []) == [wait for wait in waits if wait >= 1]


def test_a_closed_port_is_unreachable(waits):
    with pytest.raises(Unanswered, match="unreachable"):
        Service(LookupSettings(url=closed_port(), retries=1)).get_json(f"{closed_port()}/works?search=x")


def seeds_of(root: Path, records: list[dict]) -> Path:
    """A project whose text list holds these records' abstracts (no titles), in order."""
    (root / "seeds").mkdir(parents=True)
    (root / "content").mkdir()
    shutil.copy(PROJECT / "content" / "topics.yaml", root / "content" / "topics.yaml")
    text = "ICML 2019 Accepted Papers\n\n" + "\n\n".join(record["abstract"] for record in records) + "\n"
    (root / "seeds" / "list.txt").write_text(text, encoding="utf-8")
    return root


def run(root: Path, command: str, *extra: str, env: dict | None = None) -> str:
    where = ["--seeds", str(root / "seeds"), "--content", str(root / "content")]
    where += ["--out", str(root / "site"), "--no-search", "--base-url", "https://example.org/r/"] if command == "build" else []
    result = CliRunner().invoke(main, [command, *where, *extra], env=env or {}, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def content_files(root: Path) -> dict[str, Paper]:
    """The content files by their abstract's first words."""
    papers = [read_paper(path) for path in (root / "content" / "papers").glob("*.md")]
    return {" ".join(paper.abstract.split()[:6]): paper for paper in papers}


def key(record: dict) -> str:
    return " ".join(record["abstract"].split()[:6])


FOUND, LOOK_ALIKE, FAILING = RECORDS[40], RECORDS[41], RECORDS[42]


@pytest.fixture
def stand_in() -> StandIn:
    """The service knows FOUND (after a 429), offers only a look-alike for LOOK_ALIKE, and fails on FAILING."""
    served = StandIn()
    served.answers[FOUND["abstract"]] = [(429, b"{}"), results(work(nearest_other(FOUND), 2), work(FOUND, 1))]
    served.answers[LOOK_ALIKE["abstract"]] = [results(work(nearest_other(LOOK_ALIKE), 3))]
    served.answers[FAILING["abstract"]] = [(500, b"oops")]
    return served


def test_ingest_records_the_answer_and_never_asks_again(tmp_path, waits, stand_in):
    root = seeds_of(tmp_path, [FOUND, LOOK_ALIKE, FAILING])
    with serving(stand_in) as url:
        said = run(root, "ingest", env={"CATALOGUE_LOOKUP": "1", "CATALOGUE_LOOKUP_URL": url,
                                        "CATALOGUE_LOOKUP_MAILTO": "me@example.org"})
        assert "looked up 3: 1 found, 1 not known to the service, 1 not looked up (the service gave no answer: HTTP 500" in said
        assert all("mailto=me%40example.org" in request for request in stand_in.requests)
        papers = content_files(root)
        found = papers[key(FOUND)]
        assert (found.title, found.title_source, found.authors) == (FOUND["title"], "lookup", tuple(FOUND["authors"]))
        assert (found.openalex, found.doi, found.pdf) == ("W1", "10.5555/w1", FOUND["pdf"])
        refused = papers[key(LOOK_ALIKE)]
        assert refused.title_source == "derived" and refused.openalex is None and refused.looked_up
        assert papers[key(FAILING)].looked_up is None  # unanswered: asked again next time
        files = {path: path.read_bytes() for path in (root / "content" / "papers").glob("*.md")}

        asked = len(stand_in.requests)
        run(root, "ingest", "--no-lookup", env={"CATALOGUE_LOOKUP": "1", "CATALOGUE_LOOKUP_URL": url})
        assert len(stand_in.requests) == asked
        assert {path: path.read_bytes() for path in files} == files  # the answer is kept offline

        path = next(path for path in files if read_paper(path).openalex)
        path.write_text(path.read_text(encoding="utf-8").replace(FOUND["title"], "My own title"), encoding="utf-8")
        run(root, "ingest", "--lookup", "--lookup-url", url)
        failing = set(search_spans(FAILING["abstract"]))
        assert stand_in.requests[asked:] and all(parse_qs(urlparse(request).query)["search"][0] in failing
                                                 for request in stand_in.requests[asked:])  # the failing one alone
        edited = read_paper(path)
        assert (edited.title, edited.title_source, edited.openalex) == ("My own title", "edited", "W1")
        assert edited.authors == tuple(FOUND["authors"])


def test_a_hand_edit_after_a_lookup_keeps_the_rest_of_the_answer(tmp_path, waits, stand_in):
    """The ingest that merges hand edits alone (the seeds unchanged) takes the answer back from the file too."""
    root = seeds_of(tmp_path, [FOUND, LOOK_ALIKE])
    with serving(stand_in) as url:
        run(root, "ingest", "--lookup", "--lookup-url", url)
        path = next(path for path in (root / "content" / "papers").glob("*.md") if read_paper(path).openalex)
        path.write_text(path.read_text(encoding="utf-8").replace(FOUND["title"], "My own title"), encoding="utf-8")
        asked = len(stand_in.requests)
        said = run(root, "ingest", "--lookup", "--lookup-url", url)
    edited = read_paper(path)
    assert (edited.title, edited.title_source, edited.authors, edited.pdf) == (
        "My own title", "edited", tuple(FOUND["authors"]), FOUND["pdf"])
    assert len(stand_in.requests) == asked and "1 with hand edits kept" in said


def test_an_unreachable_service_loses_nothing_and_stops_asking(tmp_path, waits):
    root = seeds_of(tmp_path, RECORDS[50:55])
    said = run(root, "ingest", "--lookup", "--lookup-url", closed_port())
    assert "looked up 5: 0 found, 0 not known to the service, 5 not looked up (the service gave no answer: unreachable" in said
    papers = content_files(root)
    assert len(papers) == 5 and all(paper.title_source == "derived" and not paper.looked_up for paper in papers.values())
    assert len([wait for wait in waits if wait >= 1]) == 3 * 3  # three papers tried, with their retries; then none


@pytest.mark.parametrize("env, said", [({"CATALOGUE_LOOKUP": "sometimes"}, "CATALOGUE_LOOKUP"),
                                        ({"CATALOGUE_LOOKUP": "1", "CATALOGUE_LOOKUP_URL": "file:///etc"}, "--lookup-url")])
def test_a_setting_that_is_neither_on_nor_off_or_not_a_web_address_is_refused(tmp_path, env, said):
    root = seeds_of(tmp_path, RECORDS[:1])
    result = CliRunner().invoke(main, ["ingest", "--seeds", str(root / "seeds"), "--content", str(root / "content")],
                                env=env)
    assert result.exit_code != 0 and said in result.output
    assert not (root / "content" / "papers").exists()


def test_what_the_lookup_brings_shows_where_given_titles_and_authors_show(tmp_path, waits, stand_in):
    root = seeds_of(tmp_path, [FOUND, LOOK_ALIKE])
    with serving(stand_in) as url:
        run(root, "build", "--lookup", "--lookup-url", url)
        asked = len(stand_in.requests)
        assert "Up to date" in run(root, "build", "--lookup", "--lookup-url", url)
        assert len(stand_in.requests) == asked  # no request on a rebuild
    site = root / "site"
    found = content_files(root)[key(FOUND)]
    page = next(site.glob(f"papers/*/{found.slug}/index.html")).read_text(encoding="utf-8")
    title, first = FOUND["title"], FOUND["authors"][0]
    assert f'<meta name="citation_title" content="{title}">' in page
    assert f'<meta name="citation_author" content="{first}">' in page
    ld = json.loads(re.search(r'<script type="application/ld\+json">(.*?)</script>', page, re.S)[1])
    assert ld["name"] == title and first in json.dumps(ld)
    assert f'href="{FOUND["pdf"]}"' in page and "arxiv.org/search" not in page  # straight to the PDF
    bib = next(site.glob(f"papers/*/{found.slug}/{found.slug}.bib")).read_text(encoding="utf-8")
    assert title.split(":")[0] in bib and FOUND["authors"][-1].split()[-1] in bib
    assert 'class="title-note"' not in page and 'data-pagefind-meta="derived:1"' not in page
    assert any(first in path.read_text(encoding="utf-8") and title in path.read_text(encoding="utf-8")
               for path in site.glob("authors/**/*.html"))
    assert f"<name>{first}</name>" in (site / "feed.xml").read_text(encoding="utf-8")
    assert any(title in path.read_text(encoding="utf-8") for path in site.glob("search-index*/**/*.js"))  # offline search
    parts = [json.loads(path.read_text(encoding="utf-8")) for path in site.glob("data/*.json")]
    listed = {paper["title"]: paper for part in parts for paper in part["papers"]}
    assert listed[title]["title_source"] == "lookup" and listed[title]["authors"] == FOUND["authors"]
    refused = content_files(root)[key(LOOK_ALIKE)]
    assert 'data-pagefind-meta="derived:1"' in next(site.glob(f"papers/*/{refused.slug}/index.html")).read_text(encoding="utf-8")


def test_the_pages_workflow_and_netlify_turn_the_lookup_on_with_one_setting():
    import tomllib

    import yaml

    from catalogue.cli import LOOKUP_VARIABLE, OFF, ON
    workflow = yaml.safe_load((PROJECT / ".github" / "workflows" / "pages.yml").read_text(encoding="utf-8"))
    build = next(step for step in workflow["jobs"]["build"]["steps"] if step.get("name") == "Build")
    assert build["env"][LOOKUP_VARIABLE] == "${{ vars.CATALOGUE_LOOKUP }}" and "python build.py" in build["run"]
    netlify = tomllib.loads((PROJECT / "netlify.toml").read_text(encoding="utf-8"))
    assert netlify["build"]["environment"][LOOKUP_VARIABLE] in OFF + ON
    assert "python3 build.py" in netlify["build"]["command"]


def test_requests_keep_their_pace(waits):
    stand_in = StandIn()
    with serving(stand_in) as url:
        service = Service(LookupSettings(url=url, interval=0.5))
        service.get_json(f"{url}/works?search=x")
        service.get_json(f"{url}/works?search=y")
    assert len(stand_in.requests) == 2 and len(waits) == 1 and 0.3 < waits[0] <= 0.5


@pytest.mark.parametrize("line, key", [("openalex: X12", "openalex"), ("doi: doi.org/10.1/x", "doi"),
                                       ("title_source: guessed", "title_source"), ("looked_up: yesterday", "looked_up")])
def test_a_content_file_with_a_malformed_answer_names_the_key(line, key):
    from catalogue.content.paper_file import parse_paper_markdown
    from catalogue.errors import ContentFileError
    text = f"---\nid: 0123456789ab\nslug: x\ntitle: T\n{line}\nsource: seeds/x.txt:3\n---\n\nAn abstract.\n"
    with pytest.raises(ContentFileError, match=f"'{key}'"):
        parse_paper_markdown(text, "content/papers/x.md")
    good = "openalex: W12\ndoi: 10.1234/x.y\ntitle_source: lookup\nlooked_up: 2026-12-05"
    assert parse_paper_markdown(text.replace(line, good), "x.md").openalex == "W12"
