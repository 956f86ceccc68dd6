"""What Pagefind costs per page: the floor under an edit's index stage.

    python bench/pagefind_cost.py --site SITE [--shard part-1]

Runs Pagefind, as the build runs it (catalogue/search/bundles.run_pagefind), over one shard of a built
site and over a quarter and a sixteenth of that shard's buckets, into a scratch folder, and prints for
each the pages indexed, the seconds and Pagefind's peak memory. Then the same shard again with each
page cut down to what Pagefind keeps of it (its fragment's text, filters and metadata in a bare page),
which tells whether the pages' size matters or only their number.
"""

from __future__ import annotations

import argparse
import gzip
import html
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from catalogue import routes  # noqa: E402
from catalogue.search.bundles import FRAGMENT_SIGNATURE, fragment_files, run_pagefind  # noqa: E402
from catalogue.search.index import BUNDLE_DIR, Shard, group_shards, read_record, shard_glob  # noqa: E402


def measure(site: Path, language: str, glob: str | None) -> tuple[int, float, float]:
    """(pages indexed, seconds, the largest peak memory in MB of the Pagefind runs so far) of one run."""
    with tempfile.TemporaryDirectory() as scratch:
        start = time.perf_counter()
        output = run_pagefind(site, Path(scratch) / "bundle", language, glob)
        seconds = time.perf_counter() - start
    pages = int(output.split("Indexed ")[2].split(" page")[0]) if output.count("Indexed ") >= 2 else -1
    return pages, seconds, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def bare_pages(bundle: Path, into: Path) -> None:
    """Each page of a shard as Pagefind kept it (its fragment), in a bare page at its address."""
    for fragment in fragment_files(bundle):
        data = json.loads(gzip.decompress(fragment.read_bytes()).removeprefix(FRAGMENT_SIGNATURE))
        hidden = "".join(f'<span data-pagefind-filter="{html.escape(name)}">{html.escape(value)}</span>'
                         for name, values in data["filters"].items() for value in values)
        hidden += "".join(f'<span data-pagefind-meta="{html.escape(name)}">{html.escape(value)}</span>'
                          for name, value in data["meta"].items())
        page = into / data["url"].strip("/") / "index.html"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(f'<!DOCTYPE html><html><head><title>-</title></head><body><main data-pagefind-body>'
                        f'<p>{html.escape(data["content"])}</p><div hidden>{hidden}</div></main></body></html>',
                        encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, required=True)
    parser.add_argument("--shard", help="the shard to measure (default: the first)")
    args = parser.parse_args()
    language, pages = read_record(args.site)
    shards = group_shards(language, pages)
    shard = next(s for s in shards if s.name == (args.shard or shards[0].name))
    print(f"{args.site}: {len(pages)} pages in {len(shards)} shards; {shard.name} holds {len(shard.pages)}")
    print(f"{'pages given':>28} {'indexed':>8} {'seconds':>8} {'ms/page':>8} {'peak MB':>8}")
    buckets = sorted({routes.bucket_of_paper_page(path) for path in shard.pages})
    for part in (16, 4, 1):
        some = set(buckets[:max(1, len(buckets) // part)])
        within = tuple(path for path in shard.pages if routes.bucket_of_paper_page(path) in some)
        pages, seconds, peak = measure(args.site, language, shard_glob(Shard(shard.name, within, shard.fingerprint)))
        print(f"{f'1/{part} of its buckets':>28} {pages:>8} {seconds:>8.2f} {1000 * seconds / pages:>8.2f} {peak:>8.0f}")
    with tempfile.TemporaryDirectory() as scratch:
        bare_pages(args.site / BUNDLE_DIR / shard.name, Path(scratch))
        pages, seconds, peak = measure(Path(scratch), language, None)
        per_page = 1000 * seconds / pages
        print(f"{'the same, bare pages':>28} {pages:>8} {seconds:>8.2f} {per_page:>8.2f} {peak:>8.0f}")


if __name__ == "__main__":
    main()
