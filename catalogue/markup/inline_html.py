"""Tags and links inside an abstract's prose, as venues write them.

The inline HTML tags a page keeps (INLINE_TAGS; any other is text), links as HTML, LaTeX (\\url, \\href)
and Markdown write them and the addresses they may point to, HTML entities; and a text's words without
its tags, for the rules that read them. TAG reads back the markup the conversion made.
"""

from __future__ import annotations

import html
import re

from catalogue.text import find_urls

# A tag's attributes never hold '<', and a name starts where a name starts: both read once.
TAG = re.compile(r"<\s*/?\s*([A-Za-z][\w:-]*)([^<>]*)>")
ATTRIBUTE = re.compile(r"(?<![\w:.-])([A-Za-z_:][\w:.-]*)\s*=")

# Inline HTML as venues publish it: these tags are rendered as what they mean (without their
# attributes, but for a link's http(s) address); any other tag is shown as text.
INLINE_TAGS = frozenset({"b", "strong", "i", "em", "u", "sub", "sup", "br", "code", "tt", "small", "a"})
# A tag: its name, then attributes (bare, or with a quoted or bare value); it never crosses a '<',
# so that each '<' is read once.
_HTML_TAG = (r"<(?P<end>/?)(?P<tag>[A-Za-z][A-Za-z0-9]*+)(?P<attributes>(?:\s++[A-Za-z_:][\w:.-]*+"
             r"(?:\s*+=\s*+(?:\"[^\"<>]*+\"|'[^'<>]*+'|[^\s\"'=<>`]++))?+)*+)\s*+/?>")
_INLINE_TAG = re.compile(_HTML_TAG.replace("[A-Za-z][A-Za-z0-9]*+", "(?i:" + "|".join(sorted(INLINE_TAGS)) + r")\b"))
_HREF = re.compile(r"(?:^|\s)href\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s\"'=<>`]+))", re.IGNORECASE)
_WEB_ADDRESS = re.compile(r"https?://[^\s<>\"'`\\]+", re.IGNORECASE)
# Links as LaTeX (\url{address}, \href{address}{text}) and Markdown ([text](address)) write them.
INLINE_PARTS = re.compile(_HTML_TAG + r"|\\url\{(?P<url>[^{}\s]++)\}"
                          r"|\\href\{(?P<href>[^{}\s]++)\}\{(?P<label>(?:[^{}]|\{[^{}]*+\})*+)\}"
                          r"|\[(?P<text>[^\[\]]{1,300}+)\]\((?P<target>[^()\s]++)\)")
_ENTITY = re.compile(r"&(?:[A-Za-z][A-Za-z0-9]{1,31}|#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6});")


def tag_href(attributes: str) -> str | None:
    """The http(s) address of an <a> tag's href, decoded; None without one."""
    found = _HREF.search(attributes)
    if not found:
        return None
    href = html.unescape(found[1] or found[2] or found[3] or "").strip()
    return href if _WEB_ADDRESS.fullmatch(href) else None


def link_address(written: str) -> str | None:
    """The href of an address a link macro gives (a URL or a bare domain); None for anything else."""
    found = find_urls(written)
    return found[0][2] if len(found) == 1 and found[0][:2] == (0, len(written)) else None


def decode_entities(text: str) -> str:
    """HTML entities (&amp;, &lt;, &#39;) as the characters they stand for, once."""
    return _ENTITY.sub(lambda entity: html.unescape(entity[0]), text) if "&" in text else text


def without_inline_html(text: str) -> str:
    """The text as a reader reads its words, for rules that read them (names, titles, citations):
    allowlisted tags gone (a line break as a space), HTML entities decoded once."""
    if "<" in text:
        text = _INLINE_TAG.sub(lambda tag: " " if tag["tag"].lower() == "br" else "", text)
    return decode_entities(text)
