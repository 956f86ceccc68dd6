"""A local stand-in for OpenAlex's works API (127.0.0.1, a thread): it answers each search with
what a test set for the paper whose words it searches by, in OpenAlex's documented shape, and
counts the requests. Works are made from real corpus records (tests/data/corpus_sample.jsonl)."""

from __future__ import annotations

import http.server
import json
import threading
from collections import defaultdict
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import parse_qs, urlparse

from catalogue.ingest.lookup.openalex import search_spans

SAMPLE = Path(__file__).resolve().parent / "data" / "corpus_sample.jsonl"


def corpus_records() -> list[dict]:
    return [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]


def inverted_index(abstract: str) -> dict[str, list[int]]:
    """The abstract as OpenAlex serves it: each whitespace-separated word and its places."""
    index = defaultdict(list)
    for place, word in enumerate(abstract.split()):
        index[word].append(place)
    return dict(index)


def work(record: dict, number: int) -> dict:
    """A corpus record as an OpenAlex Work (the fields the lookup selects)."""
    return {
        "id": f"https://openalex.org/W{number}",
        "title": record["title"],
        "doi": f"https://doi.org/10.5555/w{number}",
        "authorships": [{"author_position": "middle", "author": {"id": f"https://openalex.org/A{number}{at}",
                                                                "display_name": name}}
                        for at, name in enumerate(record["authors"])],
        "primary_location": {"landing_page_url": record.get("site") or f"https://example.org/w{number}",
                             "pdf_url": None},
        "best_oa_location": {"landing_page_url": None, "pdf_url": record.get("pdf")},
        "abstract_inverted_index": inverted_index(record["abstract"]),
    }


def results(*works: dict) -> tuple[int, bytes]:
    return 200, json.dumps({"meta": {"count": len(works), "page": 1, "per_page": 5}, "results": list(works)}).encode()


class StandIn:
    """answers[abstract] = a list of (status, body) given in turn to that paper's searches (the last
    one again when they run out); a search by words of no listed abstract gets no results."""

    def __init__(self):
        self.answers: dict[str, list[tuple[int, bytes]]] = {}
        self.requests: list[str] = []
        self.lock = threading.Lock()

    def answer(self, search: str) -> tuple[int, bytes]:
        with self.lock:
            for abstract, given in self.answers.items():
                if search in search_spans(abstract):
                    return given.pop(0) if len(given) > 1 else given[0]
        return results()


@contextmanager
def serving(stand_in: StandIn):
    """The stand-in's address while it runs."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            address = urlparse(self.path)
            with stand_in.lock:
                stand_in.requests.append(self.path)
            if address.path != "/works":
                status, body = 404, b'{"error": "not found"}'
            else:
                status, body = stand_in.answer(parse_qs(address.query).get("search", [""])[0])
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            if status == 429:
                self.send_header("Retry-After", "0")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
