"""The lists of a built site: how large their pages are, and how fast the home page's filters
act on the whole catalogue in Chromium (from disk, as a reader who downloads the site).

    python bench/lists.py site/            # e.g. a build of 10,000 papers of ../shared/corpus

Prints the home page's size, the largest page of any list (home, topic, venue, author, the
authors index), list-data.js and its largest part; then, over the catalogue, the milliseconds of
the first filter (which loads list-data.js and the venue's part) and of later ones (venue, each
sort order, a topic: those whose parts are not in yet count only until their loading starts), each
measured with performance.now around the change, best of three page loads.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

LIST_PAGE = re.compile(r"(?:(?:topics|venues)/[^/]+/)?(?:compact/)?(?:page/\d+/)?index\.html|authors/(?:[0-9a-f]{2}/|page/\d+/)?index\.html")
CHROMIUM = "/usr/bin/chromium"

FIRST_FILTER = """venue => new Promise(done => {
  const start = performance.now();
  new MutationObserver((changes, observer) => { observer.disconnect(); done(performance.now() - start); })
    .observe(document.getElementById('paper-list'), {childList: true});
  const select = document.getElementById('venue-filter');
  select.value = venue;
  select.dispatchEvent(new Event('change'));
})"""

LATER_FILTERS = """venue => {
  const select = document.getElementById('venue-filter'), sort = document.getElementById('sort-order');
  const timed = change => { const start = performance.now(); change(); return performance.now() - start; };
  const choose = (element, value) => () => { element.value = value; element.dispatchEvent(new Event('change')); };
  return {
    "venue": timed(choose(select, venue)),
    "sort newest": timed(choose(sort, 'newest')),
    "sort by name": timed(choose(sort, 'name')),
    "sort by title": timed(choose(sort, 'title')),
    "all venues": timed(choose(select, '')),
    "topic": timed(() => document.querySelector('.chips a[data-topic]').click()),
  };
}"""


def page_sizes(site: Path) -> dict[str, int]:
    return {path.relative_to(site).as_posix(): path.stat().st_size for path in site.rglob("index.html")
            if LIST_PAGE.fullmatch(path.relative_to(site).as_posix())}


def filter_times(site: Path, runs: int = 3) -> dict[str, float]:
    from playwright.sync_api import sync_playwright

    best: dict[str, float] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for _ in range(runs):
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto((site / "index.html").as_uri())
            venues = page.eval_on_selector_all("#venue-filter option", "options => options.map(o => o.value)")[1:]
            times = {"first filter (loads list-data.js and the venue's part)": page.evaluate(FIRST_FILTER, venues[0]),
                     **page.evaluate(LATER_FILTERS, venues[-1])}
            best = {label: min(value, best.get(label, value)) for label, value in times.items()}
            page.close()
        browser.close()
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("site", type=Path)
    args = parser.parse_args()
    sizes = page_sizes(args.site)
    largest = max(sizes, key=sizes.get)
    papers = len(list((args.site / "papers").glob("*/*/index.html")))
    print(f"{papers} paper pages, {len(sizes)} list pages")
    print(f"home page: {sizes['index.html'] / 1000:.1f} KB; largest list page: {largest} {sizes[largest] / 1000:.1f} KB; "
          f"list-data.js: {(args.site / 'list-data.js').stat().st_size / 1000:.0f} KB, its largest part: "
          f"{max(path.stat().st_size for path in (args.site / 'list-data').rglob('*.js')) / 1000:.0f} KB")
    print(json.dumps({label: round(value, 1) for label, value in filter_times(args.site).items()}, indent=1))


if __name__ == "__main__":
    main()
