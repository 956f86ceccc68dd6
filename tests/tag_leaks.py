"""Find allowlisted inline HTML tags shown as text anywhere in a built site (issue 18, item 1).

`find_tag_leaks(site)` reads every page, the feeds, the BibTeX files, papers.json and its parts, the offline
search index and Pagefind's fragments, and returns one line per tag a reader or a search would
see as text ("papers/x/index.html: &lt;b&gt;N&lt;/b&gt;euron"). An empty list means no leak.

In HTML and XML a tag shown as text is escaped (`&lt;b&gt;`), or JSON-escaped inside a script
(`\\u003cb\\u003e`); a tag written as `<b>` there is markup. In the other files (BibTeX, JSON,
JavaScript, Pagefind's plain-text fragments) any form of the tag is text: every field of every
record of papers.json's parts is plain text.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

from catalogue.markup.inline_html import INLINE_TAGS
from catalogue.search.offline import FALLBACK_FILE, PARTS_DIR

_NAMES = "|".join(sorted(INLINE_TAGS, key=len, reverse=True))
_OPEN, _CLOSE = r"(?:<|&lt;|&#0*60;|&#x0*3c;|\\u003c)", r"(?:>|&gt;|&#0*62;|&#x0*3e;|\\u003e)"
# A tag in any of its written forms: a name, then attributes after a space (never a '<' or '>' of
# any form); a tuple such as <b, c> is not a tag.
_ANY_FORM = re.compile(rf"{_OPEN}\s*/?\s*(?:{_NAMES})(?:\s(?:(?!{_OPEN}|{_CLOSE}).){{0,200}}?)?\s*/?{_CLOSE}",
                       re.IGNORECASE | re.DOTALL)
_MARKUP_SUFFIXES = {".html", ".xml", ".htm"}
_FRAGMENT_SIGNATURE = b"pagefind_dcd"  # Pagefind 1.x writes it before each fragment's JSON
_CONTEXT = 40


def find_tag_leaks(site: Path) -> list[str]:
    """'relative/path: context' for each allowlisted tag shown as text in the built site, in path order."""
    leaks: list[str] = []
    for path in sorted(p for p in site.rglob("*") if p.is_file()):
        text = _readable_text(path, site)
        if text is None:
            continue
        in_markup = path.suffix in _MARKUP_SUFFIXES
        for found in _ANY_FORM.finditer(text):
            if in_markup and found[0].startswith("<"):
                continue  # a real element of the page
            context = text[max(0, found.start() - _CONTEXT):found.end() + _CONTEXT]
            leaks.append(f"{path.relative_to(site).as_posix()}: {' '.join(context.split())}")
    return leaks


def _readable_text(path: Path, site: Path) -> str | None:
    """The text of a file the checker reads, else None."""
    relative = path.relative_to(site).as_posix()
    if path.suffix == ".pf_fragment":
        data = gzip.decompress(path.read_bytes())
        return data.removeprefix(_FRAGMENT_SIGNATURE).decode("utf-8")
    offline = relative == FALLBACK_FILE or relative.startswith(f"{PARTS_DIR}/")
    if path.suffix not in _MARKUP_SUFFIXES | {".bib", ".json"} and not offline:
        return None  # the site's own scripts, styles and images
    return path.read_text(encoding="utf-8")
