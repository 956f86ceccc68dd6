"""Web addresses written in abstracts: full URLs and bare domains like causalgame.github.io."""

from __future__ import annotations

import functools
import re

from catalogue.text import AnyCase

# Bare domains count only with a TLD that abstracts use for project pages, so that
# "e.g." or "Node.js" never become links.
_BARE_TLDS = r"(?:github\.io|gitlab\.io|com|org|net|io|ai|dev|edu|info|app|page|site)"
# Square brackets end an address: Markdown's [https://a.io](https://a.io) holds two. (Of any case: AnyCase.)
URL = AnyCase(
    r"(?<![\w@/.-])(?:https?://[^\s<>\"'`{}\\\[\]]+"
    rf"|(?:[a-z0-9][a-z0-9-]*\.)+{_BARE_TLDS}(?![\w-])(?:/[^\s<>\"'`{{}}\\\[\]]*)?)",
)
_TRAILING = ".,;:!?'\")]"
# Every address holds "://" or a dot before one of those domains; most texts hold neither, and this
# answers for them much faster than looking for a whole address.
_MAY_HOLD_ADDRESS = AnyCase(rf"://|\.{_BARE_TLDS}(?![\w-])")


@functools.lru_cache(maxsize=16)  # the conversion and the links read the same abstract
def find_urls(text: str) -> tuple[tuple[int, int, str], ...]:
    """(start, end, href) of each address in text; trailing punctuation stays outside."""
    if not _MAY_HOLD_ADDRESS.found_in(text):
        return ()
    found = []
    for match in URL.finditer(text):
        start, end = match.span()
        # A URL like .../Foo_(bar) keeps its closing parenthesis; the counts follow the cut.
        opening, closing = match[0].count("("), match[0].count(")")
        while end > start and text[end - 1] in _TRAILING and not (text[end - 1] == ")" and opening >= closing):
            closing -= text[end - 1] == ")"
            end -= 1
        written = text[start:end]
        href = written if re.match(r"https?://", written, re.IGNORECASE) else f"https://{written}"
        found.append((start, end, href))
    return tuple(found)
