"""A venue-year's (or the site's) social-preview card (Open Graph / Twitter card), as PNG bytes. Pure.

One card per venue and year rather than per paper: a card of its own costs each paper about 58 kB,
the card of its venue a few bytes (README, "Hosting and sharing"). The card is large text, legible as
a thumbnail: the venue and year, how many papers, the site's name.

The font is the Aileron Regular that Pillow bundles (`ImageFont.load_default(size=...)`):
no network, no system fonts, the same glyphs on every machine, so the same card gives the
same bytes with the same pinned Pillow. It covers ASCII and a few typographic marks only,
so `fit_charset` spells the rest in characters it has (LS²MC -> LS2MC, é -> e,
β -> beta); what is left, such as Chinese, is drawn as the font's missing-glyph box.
"""

from __future__ import annotations

import functools
import io
import re
import unicodedata

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 1200, 630
MARGIN = 80
TEXT_WIDTH = WIDTH - 2 * MARGIN
FOOTER_HEIGHT = 96
CONTENT_TOP, CONTENT_BOTTOM = 60, HEIGHT - FOOTER_HEIGHT - 40

BACKGROUND = "#1f4e8c"  # the site's accent blue
RING = "#225394"  # barely lighter: texture that does not compete with the text
FOOTER = "#183f72"
TEXT = "#ffffff"
MUTED_TEXT = "#b4c8e3"
DETAIL_TEXT = "#f5b97a"  # the site's name colour in its dark theme: the count stands apart

HEADING_SIZES = (150, 132, 116, 100, 88, 76, 64)
HEADING_MAX_LINES = 2
DETAIL_SIZE = 60
FOOTER_SIZE = 36
DETAIL_GAP = 44  # between the heading's last line and the count
LINE_SPACING = 1.12
HEADING_STROKE = 3  # a stroke in the fill colour makes the regular weight read as bold, which the bundled font lacks
PALETTE_COLOURS = 32
ELLIPSIS = "\u2026"

Font = ImageFont.FreeTypeFont

# Common characters the font lacks and Unicode normalisation does not spell in ASCII.
_REPLACEMENTS = {"\u2013": "-", "\u2014": " - ", "\u2212": "-", "\u00d7": "x", "\u2192": "->",
                 "\u2190": "<-", "\u2264": "<=", "\u2265": ">=", "\u2260": "!=", "\u2248": "~"}


def render_card_png(*, heading: str, detail: str, footer: str) -> bytes:
    """A 1200x630 PNG: heading (a venue and year, or the site's name) in large type on at most two
    lines, detail (how many papers) under it, footer (the site's name) in a band at the bottom.
    Characters of detail that the font lacks are left out ('1000 篇论文' shows '1000'), unless
    it has none."""
    heading, footer = fit_charset(heading), fit_charset(footer)
    detail = fit_charset(detail)
    drawn = " ".join("".join(char for char in detail if _has_glyph(char)).split())
    detail = drawn if any(char.isalnum() for char in drawn) else detail

    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    x, y = WIDTH - 40, 40
    for radius, width in ((300, 56), (190, 36)):  # two faint rings off the top-right corner
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), outline=RING, width=width)

    footer_top = HEIGHT - FOOTER_HEIGHT
    draw.rectangle((0, footer_top, WIDTH, HEIGHT), fill=FOOTER)
    footer_font = _font(FOOTER_SIZE)
    for line in wrap_lines(footer, footer_font, TEXT_WIDTH, 1):
        draw.text((MARGIN, footer_top + FOOTER_HEIGHT // 2), line, font=footer_font, fill=MUTED_TEXT, anchor="lm")

    # Heading and count as one block, placed by baselines, centred (a little high) in the space left.
    detail_font = _font(DETAIL_SIZE)
    details = wrap_lines(detail, detail_font, TEXT_WIDTH, 1)
    below = (DETAIL_GAP if heading else 0) + _cap_height(detail_font) if details else 0
    heading_font, lines = _fit_lines(heading, HEADING_SIZES, TEXT_WIDTH - 2 * HEADING_STROKE,
                                     CONTENT_BOTTOM - CONTENT_TOP - below)
    stroke = min(HEADING_STROKE, round(heading_font.size / 50))  # heavy enough, not blobby
    heading_height = _block_height(heading_font, len(lines)) if lines else 0
    top = CONTENT_TOP + max(0, round((CONTENT_BOTTOM - CONTENT_TOP - heading_height - below) * 0.45))
    baseline = top + _cap_height(heading_font)
    for line in lines:
        draw.text((MARGIN - stroke, baseline), line, font=heading_font, fill=TEXT, anchor="ls",
                  stroke_width=stroke, stroke_fill=TEXT)
        baseline += round(heading_font.size * LINE_SPACING)
    if details:
        draw.text((MARGIN, top + heading_height + below), details[0], font=detail_font, fill=DETAIL_TEXT, anchor="ls")

    out = io.BytesIO()
    # A palette of PALETTE_COLOURS, undithered, looks the same (flat colours, anti-aliased edges) at a
    # third of the bytes. No pnginfo, so no metadata: the same inputs give the same bytes.
    image = image.quantize(colors=PALETTE_COLOURS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def wrap_lines(text: str, font: Font, width: float, max_lines: int) -> list[str]:
    """text in lines no wider than width, broken between words (inside a word only when
    it is wider than a whole line); at most max_lines, the last ending in an ellipsis
    when text was cut."""
    lines = _wrap(text, font, width, max_lines + 1)
    if len(lines) <= max_lines:
        return lines
    kept = lines[:max_lines]
    kept[-1] = _with_ellipsis(kept[-1] + " " + lines[max_lines], font, width)
    return kept


def fit_charset(text: str) -> str:
    """text on one line, with the characters the bundled font lacks spelt in ones it has."""
    return " ".join("".join(_spell(char) for char in text).split())


def _spell(char: str) -> str:
    if _has_glyph(char):
        return char
    if unicodedata.category(char) in ("Cc", "Cf", "Cs", "Mn", "Me"):
        return ""  # controls, zero-width marks, lone surrogates, accents the font cannot place
    if char in _REPLACEMENTS:
        return _REPLACEMENTS[char]
    # Compatibility forms and accents: ² -> 2, ﬁ -> fi, Ｘ -> X, é -> e.
    plain = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
    if plain and plain != char and all(_has_glyph(c) for c in plain):
        return plain
    # Greek letters and their symbol variants: ε, Σ, ϵ (GREEK LUNATE EPSILON SYMBOL), ϕ.
    greek = re.fullmatch(r"GREEK (?:(SMALL|CAPITAL) LETTER |LUNATE )?([A-Z]+)(?: SYMBOL)?", unicodedata.name(char, ""))
    if greek:
        return greek[2].capitalize() if greek[1] == "CAPITAL" else greek[2].lower()
    return char  # drawn as the missing-glyph box


@functools.lru_cache(maxsize=4096)  # titles repeat their letters; the answer never changes
def _has_glyph(char: str) -> bool:
    """Whether the bundled font draws char as itself rather than as its missing-glyph box."""
    if char.isspace():
        return True
    probe = _font(20)
    return bytes(probe.getmask(char)) != bytes(probe.getmask("\ue000"))


def _font(size: int) -> Font:
    font = ImageFont.load_default(size=size)  # cheap (well under a millisecond)
    if not isinstance(font, ImageFont.FreeTypeFont):
        raise RuntimeError("Pillow was built without FreeType; social previews need it")
    return font


def _cap_height(font: Font) -> int:
    return -font.getbbox("H", anchor="ls")[1]


def _block_height(font: Font, lines: int) -> int:
    """From the top of the first line's capitals to the bottom of the last line's descenders."""
    return _cap_height(font) + (lines - 1) * round(font.size * LINE_SPACING) + round(font.size * 0.22)


def _fit_lines(text: str, sizes: tuple[int, ...], width: int, height: int) -> tuple[Font, list[str]]:
    """The largest size at which text fits uncut in the lines that fit in height (at most
    HEADING_MAX_LINES), else the smallest size, cut with an ellipsis."""
    for size in sizes:
        font = _font(size)
        max_lines = HEADING_MAX_LINES
        while max_lines > 1 and _block_height(font, max_lines) > height:
            max_lines -= 1
        if font.getlength(text) > max_lines * (width + font.getlength(" ")):
            continue  # too long for that many lines: no need to wrap
        lines = _wrap(text, font, width, max_lines + 1)
        if len(lines) <= max_lines:
            return font, lines
    return font, wrap_lines(text, font, width, max_lines)


def _wrap(text: str, font: Font, width: float, limit: int) -> list[str]:
    """Greedy wrapping that stops at limit lines (what follows would be cut anyway)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if font.getlength(candidate) <= width:
            current = candidate
            continue
        if current:
            lines.append(current)
        current = word
        while font.getlength(current) > width:  # a word wider than a line: break it
            cut = max(1, _longest_prefix(current, font, width))  # one at least, so it ends
            lines.append(current[:cut])
            current = current[cut:]
        if len(lines) >= limit:
            return lines[:limit]
    if current:
        lines.append(current)
    return lines[:limit]


def _longest_prefix(text: str, font: Font, width: float, suffix: str = "") -> int:
    """How many leading characters of text fit in width followed by suffix (0 if none)."""
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if font.getlength(text[:middle] + suffix) <= width:
            low = middle
        else:
            high = middle - 1
    return low


def _with_ellipsis(text: str, font: Font, width: float) -> str:
    """The longest start of text that fits in width with an ellipsis, cut between words if it can."""
    cut = _longest_prefix(text, font, width, ELLIPSIS)
    start = text[:cut]
    if " " in start and text[cut:cut + 1] not in ("", " "):  # cut inside a word: drop the piece
        start = start.rsplit(" ", 1)[0]
    return start.rstrip(" ,;:.-") + ELLIPSIS
