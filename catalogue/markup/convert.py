"""Abstract text -> safe HTML (math as MathML) and -> plain text.

Abstracts mix three notations: Markdown emphasis (**bold**, *italic*), LaTeX text macros
(\\emph{}, \\%, ~, --, ``quotes'') and inline math ($...$). The text is split into math and
prose first; the prose's LaTeX macros become Markdown, and a Markdown converter that knows
only paragraphs, emphasis and typographic quotes turns it into HTML, escaping everything else.
Math becomes MathML at build time, so pages need no script to show it. Anything that cannot be converted is shown as
written and reported, never dropped.

The one pass is here; where the math is (segments), what a formula becomes (formulas), the LaTeX text
commands (latex_text) and the inline HTML and links (inline_html) have their own modules.
"""

from __future__ import annotations

import bisect
import html
import re
from dataclasses import dataclass

from markdown_it import MarkdownIt

from catalogue.system.cache import code_version, digest
from catalogue.text import find_urls, replace_unsafe
from catalogue.errors import shown
from catalogue.markup.formulas import math_to_text, render_math, text_only_math
from catalogue.markup.inline_html import INLINE_PARTS, INLINE_TAGS, TAG, decode_entities, link_address, tag_href
from catalogue.markup.latex_text import latex_text_to_markdown
from catalogue.markup.segments import split_math


@dataclass(frozen=True)
class Converted:
    html: str  # safe HTML paragraphs
    plain: str  # the same text without markup, on one line
    problems: tuple[str, ...]


KEPT_TYPES = (Converted,)  # the records this stage keeps in the build cache (its stage joins them: ingest/run.py, site/render.py)
CONVERTED = "converted"  # the cache's kind for Converted texts, by conversion_key


def conversion_key(text: str, links: bool) -> str:
    """The cache key of a text's conversion: ingest converts abstracts, the render reuses them."""
    return digest(code_version(__name__), text, links)


# Placeholders for finished HTML fragments (math, links) while the prose goes through Markdown.
# U+FDD0 and U+FDD1 are noncharacters, which replace_unsafe removes from every text first: a
# placeholder can only be one of ours, and Markdown leaves them (and digits) untouched.
_HOLD = "\ufdd0{}\ufdd1"
_HELD = re.compile("\ufdd0(\\d+)\ufdd1")

# Letters, digits, spaces and punctuation that Markdown, LaTeX and typography leave alone,
# one word at each end: such a text converts to itself.
_NOTHING_TO_CONVERT = re.compile(r"[^\W_]+(?:[ ,.;:()?+=-]+[^\W_]+)*[.?)]?")
# A character that pattern never takes: a text holding one is told much sooner by looking for it.
_CONVERTIBLE_CHARACTER = re.compile(r"[^\w ,.;:()?+=-]|_")
# What the Markdown below acts on in a paragraph: emphasis, escapes, smart quotes, line breaks (and NUL).
_READ_BY_MARKDOWN = re.compile(r"[*_\\'\"\n\r\t\0]")


class TextConverter:
    """Converts abstracts, titles and names to safe HTML and plain text; build one per process (it holds a
    Markdown parser)."""

    def __init__(self) -> None:
        self._markdown = _abstract_markdown()

    def abstract_html(self, text: str) -> Converted:
        """Paragraphs of safe HTML with MathML and clickable links (and the same as plain text)."""
        return self.convert(text, links=True)

    def inline_html(self, text: str) -> str:
        """A title or name as inline HTML (no paragraph, no links)."""
        return inline(self.convert(text, links=False).html)

    def plain(self, text: str) -> str:
        """Plain text without markup: for <title>, descriptions and search metadata."""
        return self.convert(text, links=False).plain

    def convert(self, text: str, links: bool) -> Converted:
        """Both forms of a text from one Markdown pass: math, links and tags wait in placeholders,
        as HTML for one form and as text for the other."""
        as_written = _as_written(text)
        if as_written:
            return as_written
        held: list[_Held] = []
        problems: list[str] = []

        def hold(fragment: str, as_text: str, kind: str = "fragment") -> str:
            held.append(_Held(fragment, html.escape(as_text, quote=False), kind))
            return _HOLD.format(len(held) - 1)

        segments, split_problems = split_math(replace_unsafe(text))
        problems += split_problems
        pieces: list[str] = []
        for segment in segments:
            as_text = segment.content if segment.kind == "text" else text_only_math(segment.content)
            if as_text is not None:
                pieces.append(as_text)
                continue
            mathml = render_math(segment.content, display=segment.kind == "display")
            if mathml is None:
                problems.append(f"math {shown(segment.written)} could not be converted; shown as written")
                mathml = f'<code class="tex">{html.escape(segment.written)}</code>'
            pieces.append(hold(mathml, math_to_text(segment.content)))
        # The prose in one piece, its formulas held: \\emph{a $x$ b} and <b>a $x$</b> span them.
        prose, prose_problems = self._prose("".join(pieces), links, hold)
        problems += prose_problems
        converted = self._paragraphs(prose)
        plain = TAG.sub("", _HELD.sub(lambda m: held[int(m[1])].text, converted))
        return Converted(_place(converted, held), " ".join(html.unescape(plain).split()), tuple(problems))

    def _paragraphs(self, prose: str) -> str:
        """Markdown's HTML for the prose; one paragraph it would only escape (nothing it acts on, no space at
        either end for it to trim) is escaped here, sooner."""
        if prose and not (prose[0].isspace() or prose[-1].isspace() or _READ_BY_MARKDOWN.search(prose)):
            return f"<p>{html.escape(prose, quote=False)}</p>"
        return self._markdown.render(prose).removesuffix("\n")

    def _prose(self, text: str, links: bool, hold) -> tuple[str, list[str]]:
        """Markdown for the prose (its formulas held): its links and allowlisted tags held too, entities decoded."""
        pieces: list[str] = []
        position = 0
        for start, end, fragment in self._inline_parts(text, links, hold):
            pieces.append(decode_entities(text[position:start]))
            pieces.append(fragment)
            position = end
        pieces.append(decode_entities(text[position:]))
        return latex_text_to_markdown("".join(pieces))

    def _inline_parts(self, text: str, links: bool, hold) -> list[tuple[int, int, str]]:
        """(start, end, placeholder) of the allowlisted tags, link macros and addresses in text, in order."""
        parts = []
        may_hold_parts = "<" in text or "\\" in text or "[" in text  # where tags, \url, \href and [](...) start
        for part in INLINE_PARTS.finditer(text) if may_hold_parts else ():
            held = self._hold_part(part, links, hold)
            if held is not None:
                parts.append((part.start(), part.end(), held))
        if links:
            starts = [start for start, _, _ in parts]
            for start, end, href in find_urls(text):
                if _HOLD[0] in text[start:end]:
                    continue  # an address running into a formula: where it ends is unclear
                before = bisect.bisect_right(starts, start) - 1  # the part starting last before the address
                inside = before >= 0 and parts[before][1] > start
                if not inside and (before + 1 == len(parts) or parts[before + 1][0] >= end):
                    link = hold(f'<a href="{html.escape(href)}">{html.escape(text[start:end])}</a>',
                                text[start:end], "link")
                    parts.insert(before + 1, (start, end, link))
                    starts.insert(before + 1, start)
        return parts

    def _hold_part(self, part: re.Match, links: bool, hold) -> str | None:
        """The placeholder of a tag or link macro, or None for a tag outside the allowlist (it stays text)."""
        if part["tag"]:
            name = part["tag"].lower()
            if name not in INLINE_TAGS:
                return None
            if name == "br":
                return hold("<br>", " ")
            if part["end"]:
                return hold(f"</{name}>", "", "close")
            if name != "a":
                return hold(f"<{name}>", "", "open")
            href = tag_href(part["attributes"])
            if href is None:
                return None
            return hold(f'<a href="{html.escape(href)}">' if links else "", "", "open" if links else "fragment")
        address = part["url"] or part["href"] or part["target"]
        href = link_address(address)
        if href is None:
            return None if part["target"] else hold(html.escape(address), address)
        label = part["label"] if part["href"] else part["text"]
        if not label:
            label_html, label_text = html.escape(address, quote=False), address
        else:
            converted = self.convert(label, links=False)
            label_html, label_text = inline(converted.html), converted.plain
        if not links:
            return hold(label_html, label_text)
        return hold(f'<a href="{html.escape(href)}">{label_html}</a>', label_text, "link")


@dataclass(frozen=True)
class _Held:
    """A finished piece of HTML waiting in a placeholder while the prose goes through Markdown."""
    html: str
    text: str  # the same as plain text, escaped
    kind: str  # "fragment"; "link" (shown as text inside another link); "open" or "close" (a tag, balanced)


# Markdown's own tags among the held ones, balanced together: an allowlisted tag closed out of turn
# closes the ones opened inside it, a tag that closes nothing is dropped, a paragraph closes all.
_PLACES = re.compile("\ufdd0(\\d+)\ufdd1|<(/?)(p|em|strong)>")


def _place(converted: str, held: list[_Held]) -> str:
    """The converted HTML with its held fragments put back, every tag closed in the order it opened."""
    out: list[str] = []
    opened: list[str] = []
    position = 0
    for found in _PLACES.finditer(converted):
        out.append(converted[position:found.start()])
        position = found.end()
        if found[1] is None:
            tag, closing, name = found[0], bool(found[2]), found[3]
        else:
            fragment = held[int(found[1])]
            if fragment.kind in ("fragment", "link"):
                out.append(fragment.text if fragment.kind == "link" and "a" in opened else fragment.html)
                continue
            tag, closing, name = fragment.html, fragment.kind == "close", re.match(r"</?(\w+)", fragment.html)[1]
        if name == "p" and closing:
            out.extend(f"</{inner}>" for inner in reversed(opened))
            opened.clear()
        if name == "p":
            out.append(tag)
        elif not closing and not (name == "a" and "a" in opened):
            opened.append(name)
            out.append(tag)
        elif closing and name in opened:
            while opened:
                inner = opened.pop()
                out.append(f"</{inner}>")
                if inner == name:
                    break
    out.append(converted[position:])
    out.extend(f"</{inner}>" for inner in reversed(opened))
    return "".join(out)


def _as_written(text: str) -> Converted | None:
    """A text with nothing to convert (most titles and names) as conversion would give it, sooner."""
    if _CONVERTIBLE_CHARACTER.search(text) is None and _NOTHING_TO_CONVERT.fullmatch(text) \
            and "--" not in text and "..." not in text and "  " not in text:
        return Converted(f"<p>{text}</p>", text, ())
    return None


def inline(paragraphs: str) -> str:
    """Paragraphs of HTML as one line of inline HTML."""
    return re.sub(r"^<p>|</p>$", "", paragraphs).replace("</p>\n<p>", " ")


def _abstract_markdown() -> MarkdownIt:
    """Markdown that knows paragraphs, emphasis, backslash escapes and smart quotes only: raw HTML,
    links, code, headings and lists stay text, escaped (dashes and ellipses are LaTeX's, above)."""
    converter = MarkdownIt("zero", {"typographer": True}).enable(["emphasis", "escape", "smartquotes"])
    # A backslash at the end of a line is CommonMark's line break; abstracts have none: as written.
    converter.add_render_rule("hardbreak", lambda *_: "\\\n")
    # Text is escaped as everywhere else in the site: quotes in text need no escaping.
    converter.add_render_rule("text", lambda _, tokens, index, *__: html.escape(tokens[index].content, quote=False))
    return converter
