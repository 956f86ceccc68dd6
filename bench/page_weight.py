"""What a built site's pages weigh, on average: a paper page by its parts, and the frame every page
shares (its chrome).

    python bench/page_weight.py SITE

A paper page's parts: its head, the header (before <main>), the footer and scripts (after
</main>), and in <main> its abstract, related papers, citations, pager and the rest. The chrome
of a page is what lies outside <main> but the lines that are the page's own (its title,
descriptions, addresses, preview image, Scholar tags and JSON-LD), averaged over paper pages,
author pages and topic pages.
"""

import argparse
import re
import statistics
from pathlib import Path

OWN_LINE = re.compile(r'<(title>|meta name="description"|meta property="og:(title|description|url|type|image)|'
                      r'link rel="(canonical|alternate)"|meta name="twitter:(title|description|image)"|'
                      r'meta name="citation_|script type="application/ld\+json")')
SECTIONS = (("abstract", '<section class="abstract"', "</section>"), ("related", '<section class="related"', "</section>"),
            ("cite", '<section class="cite"', "</section>"), ("pager", '<nav class="pager"', "</nav>"))
PAGES = (("paper pages", "papers/*/*/index.html"), ("author pages", "authors/*/*/index.html"),
         ("topic pages", "topics/*/index.html"))


def size(text: str) -> int:
    return len(text.encode("utf-8"))


def paper_parts(html: str) -> dict[str, int]:
    """A paper page's bytes by part."""
    start, end = html.index('<main id="main"'), html.index("</main>")
    head = html[html.index("<head>"):html.index("</head>")]
    main = html[start:end]
    parts = {"head": size(head), "header": size(html[html.index("</head>"):start]), "footer and scripts": size(html[end:])}
    rest = size(main)
    for name, opening, closing in SECTIONS:
        at = main.find(opening)
        parts[name] = size(main[at:main.index(closing, at) + len(closing)]) if at >= 0 else 0
        rest -= parts[name]
    parts["rest of main"] = rest
    parts["whole page"] = size(html)
    return parts


def chrome(html: str) -> int:
    """The bytes of the frame a page shares with every other: outside <main>, but its own lines."""
    outside = html[:html.index('<main id="main"')] + html[html.index("</main>"):]
    return size("\n".join(line for line in re.split(r"(?<=>)\n|\n(?=<)", outside) if not OWN_LINE.match(line)))


def measure(site: Path) -> dict:
    papers = [paper_parts(path.read_text(encoding="utf-8")) for path in sorted(site.glob(PAGES[0][1]))]
    chromes = {}
    for name, pattern in PAGES:
        pages = sorted(site.glob(pattern))
        if pages:
            chromes[name] = round(statistics.mean(chrome(path.read_text(encoding="utf-8")) for path in pages))
    return {"paper page": {part: round(statistics.mean(page[part] for page in papers)) for part in papers[0]} if papers else {},
            "chrome": chromes}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", type=Path)
    figures = measure(parser.parse_args().site)
    print("paper page, average bytes by part")
    for part, value in figures["paper page"].items():
        print(f"  {part:<22}{value:>8}")
    print("chrome (the shared frame), average bytes")
    for name, value in figures["chrome"].items():
        print(f"  {name:<22}{value:>8}")


if __name__ == "__main__":
    main()
