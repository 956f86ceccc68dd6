"""Bytes a reader downloads for a first search on the hosted site, and the offline index size.

    python bench/search_transfer.py [--site site] [--query sinkhorn]

Serves the built site on 127.0.0.1, opens search.html in Debian's Chromium, types the query
and sums the bytes of every response from then until the results are shown.
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--site", type=Path, default=Path("site"))
    parser.add_argument("--query", default="sinkhorn")
    args = parser.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(args.site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sizes: dict[str, int] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page()
        page.goto(f"http://127.0.0.1:{server.server_address[1]}/search.html")
        page.on("response", lambda response: sizes.__setitem__(response.url, len(response.body())))
        page.fill("#search-input", args.query)
        page.wait_for_function("q => document.querySelector('#search-results').dataset.query === q", arg=args.query)
        page.wait_for_timeout(300)
        browser.close()
    server.shutdown()
    for url, size in sorted(sizes.items(), key=lambda item: -item[1]):
        print(f"{size:>9,} B  {url.split('/', 3)[-1]}")
    print(f"{sum(sizes.values()):>9,} B  in {len(sizes)} responses for the first search of {args.query!r}")
    fallback = [args.site / "search-index.js", *sorted((args.site / "search-index").glob("*.js"))]
    print(f"offline index {fallback[0]} and its parts: {sum(path.stat().st_size for path in fallback):,} B "
          f"in {len(fallback)} files")


if __name__ == "__main__":
    main()
