"""What a cold search costs a reader: bytes, requests and time to the first results.

    python bench/search_cost.py --site SITE [--query "selective classification" ...]

Serves the built site on 127.0.0.1 with a server that counts the bytes and requests it answers,
and for each query opens search.html?q=<query> in a fresh Chromium context (empty cache, as a
first visit), waits until the results (or the line saying there are none) are shown, and prints
everything fetched from the navigation on (the page, its styles and scripts, the search index),
the part under pagefind/ and search-index* (with --parts: by kind of file), the time from the navigation's start to the status
line's text (the page's own clock), and the page's layout shift (CLS) meanwhile.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import sys
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from catalogue.serve.handler import QuietHandler  # noqa: E402  (the preview server's content types)

QUERIES = ("selective classification", "sergey levine", "diffusion model", "reinforcement learning", "zzqqxx")
CLS_SCRIPT = """window.__cls = 0; new PerformanceObserver(list => { for (const entry of list.getEntries())
  if (!entry.hadRecentInput) window.__cls += entry.value; }).observe({type: 'layout-shift', buffered: true});
new MutationObserver(() => { const status = document.getElementById('search-status');
  if (status && status.textContent && !window.__shown) window.__shown = performance.now(); })
  .observe(document, {subtree: true, childList: true, characterData: true});"""


KINDS = (("metadata", (".pf_meta", "pagefind-entry.json", "shards.json")), ("index", (".pf_index", ".pf_filter")),
         ("fragments", (".pf_fragment",)), ("runtime", ("pagefind.js", "pagefind-worker.js", ".pagefind")))


def kind(path: str) -> str:
    """What a served file is to search: the page's own, or a part of Pagefind's index."""
    path = path.split("?")[0]
    return next((name for name, endings in KINDS if path.endswith(endings)), "page")


class CountingHandler(QuietHandler):
    """QuietHandler that adds each response's body bytes and path to `served`."""

    served: list[tuple[str, int]] = []

    def send_header(self, keyword, value):
        if keyword.lower() == "content-length":
            self.served.append((self.path, int(value)))
        super().send_header(keyword, value)


def measure(browser, base: str, query: str, served: list) -> dict:
    context = browser.new_context()
    page = context.new_page()
    page.add_init_script(CLS_SCRIPT)
    served.clear()
    page.goto(f"{base}/search.html?q={query.replace(' ', '+')}")
    page.wait_for_function("q => document.querySelector('#search-results').dataset.query === q "
                           "&& document.querySelector('#search-status').textContent", arg=query, timeout=60_000)
    elapsed = page.evaluate("window.__shown") / 1000  # from the navigation's start, by the page's clock
    page.wait_for_timeout(200)  # layout shifts right after the results, if any
    cls = page.evaluate("window.__cls")
    results = page.locator("#search-results > li").count()
    first = page.locator("#search-results .result-link").first.text_content() if results else ""
    context.close()
    search = [size for path, size in served if "/pagefind/" in path or "search-index" in path]
    parts = {name: sum(size for path, size in served if kind(path) == name) for name, _ in (*KINDS, ("page", ()))}
    return {"query": query, "bytes": sum(size for _, size in served), "requests": len(served), "parts": parts,
            "search_bytes": sum(search), "search_requests": len(search), "seconds": elapsed, "cls": cls,
            "results": results, "first": first}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--site", type=Path, default=Path("site"))
    parser.add_argument("--query", action="append", help="a query (repeat); by default a few of each kind")
    parser.add_argument("--rounds", type=int, default=1, help="cold searches of each query; the fastest is shown "
                        "(a shared machine's load slows some)")
    parser.add_argument("--parts", action="store_true", help="also the KB of each kind of file (page, metadata, ...)")
    args = parser.parse_args()
    served: list[tuple[str, int]] = []
    CountingHandler.served = served
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(CountingHandler, directory=str(args.site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    print(f"{'query':<28} {'KB':>7} {'requests':>8} {'search KB':>9} {'search req':>10} {'seconds':>7} {'CLS':>5}  first result")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
        measure(browser, base, "warm up the server's disk cache", served)
        for query in args.query or QUERIES:
            rows = [measure(browser, base, query, served) for _ in range(max(1, args.rounds))]
            row = min(rows, key=lambda one: one["seconds"])
            print(f"{query:<28} {row['bytes'] / 1000:>7.0f} {row['requests']:>8} {row['search_bytes'] / 1000:>9.0f} "
                  f"{row['search_requests']:>10} {row['seconds']:>7.2f} {row['cls']:>5.2f}  "
                  f"({row['results']}) {row['first'][:60]}")
            if args.parts:
                print(" " * 29 + "  ".join(f"{name} {size / 1000:.0f} KB" for name, size in row["parts"].items()))
        browser.close()
    server.shutdown()


if __name__ == "__main__":
    main()
