"""One paper -> its social-preview image (Open Graph / Twitter card), as PNG bytes. Pure.

The font is the Aileron Regular that Pillow bundles (`ImageFont.load_default(size=...)`):
no network, no system fonts, the same glyphs on every machine, so the same paper gives the
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
FOOTER_HEIGHT = 84
PILL_TOP, PILL_HEIGHT = 64, 52
CONTENT_TOP, CONTENT_BOTTOM = PILL_TOP + PILL_HEIGHT + 36, HEIGHT - FOOTER_HEIGHT - 36

BACKGROUND = "#1f4e8c"  # the site's accent blue
RING = "#225394"  # barely lighter: texture that does not compete with the text
FOOTER = "#183f72"
TEXT = "#ffffff"
SOFT_TEXT = "#d8e3f2"
MUTED_TEXT = "#b4c8e3"
PILL = "#f5b97a"  # the site's name colour in its dark theme: the venue stands apart
PILL_TEXT = "#3a2206"

NAME_SIZES = (112, 100, 88, 76, 64)
TITLE_SIZES_WITH_NAME = (46, 42, 38)
TITLE_SIZES_ALONE = (88, 76, 64, 56, 48)  # without a name the title is the headline
TITLE_MAX_LINES = 4
LINE_SPACING = 1.28
NAME_STROKE = 2  # a stroke in the fill colour makes the regular weight read as bold,
TITLE_STROKE_ALONE = 2  # which the bundled font lacks (at most this; 1 below 66 px)
ELLIPSIS = "\u2026"

Font = ImageFont.FreeTypeFont

# Common characters the font lacks and Unicode normalisation does not spell in ASCII.
_REPLACEMENTS = {"\u2013": "-", "\u2014": " - ", "\u2212": "-", "\u00d7": "x", "\u2192": "->",
                 "\u2190": "<-", "\u2264": "<=", "\u2265": ">=", "\u2260": "!=", "\u2248": "~"}


def render_preview_png(*, name: str | None, title: str, venue: str, site_title: str) -> bytes:
    """A 1200x630 PNG: venue, short name (if any), title (at most four lines), site title."""
    name, title = fit_charset(name or ""), fit_charset(title)
    venue, site_title = fit_charset(venue), fit_charset(site_title)
    if name and title.startswith(name + ":") and title[len(name) + 1:].strip():
        title = title[len(name) + 1:].strip()  # "EgoTSR: A Framework ..." under a large "EgoTSR"

    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    x, y = WIDTH - 40, 40
    for radius, width in ((300, 56), (190, 36)):  # two faint rings off the top-right corner
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), outline=RING, width=width)

    # Footer band: the site's name, small, where a reader looks last.
    footer_top = HEIGHT - FOOTER_HEIGHT
    draw.rectangle((0, footer_top, WIDTH, HEIGHT), fill=FOOTER)
    footer_font = _font(28)
    for line in wrap_lines(site_title, footer_font, TEXT_WIDTH, 1):
        draw.text((MARGIN, footer_top + FOOTER_HEIGHT // 2), line, font=footer_font,
                  fill=MUTED_TEXT, anchor="lm")

    # Venue and year in a pill, top left.
    pill_font = _font(30)
    for label in wrap_lines(venue, pill_font, TEXT_WIDTH - 44, 1):
        right = MARGIN + round(pill_font.getlength(label)) + 44
        draw.rounded_rectangle((MARGIN, PILL_TOP, right, PILL_TOP + PILL_HEIGHT),
                               radius=PILL_HEIGHT // 2, fill=PILL)
        draw.text((MARGIN + 22, PILL_TOP + PILL_HEIGHT // 2), label, font=pill_font,
                  fill=PILL_TEXT, anchor="lm")

    # Name and title as one block, placed by baselines, centred (a little high) in the space left.
    top = 0  # the block's top, relative to the block until it is placed
    if name:
        name_font, name_line = _fit_one_line(name, TEXT_WIDTH - 2 * NAME_STROKE)
        name_baseline = _cap_height(name_font)
        top = name_baseline + round(name_font.size * 0.25) + 20
    title_stroke = 0 if name else TITLE_STROKE_ALONE
    title_font, lines = _fit_lines(title, TITLE_SIZES_WITH_NAME if name else TITLE_SIZES_ALONE,
                                   TEXT_WIDTH - 2 * title_stroke, CONTENT_BOTTOM - CONTENT_TOP - top)
    if not name:
        title_stroke = min(title_stroke, round(title_font.size / 44))  # heavy enough, not blobby
    block_height = top + _block_height(title_font, max(1, len(lines)))
    offset = CONTENT_TOP + max(0, round((CONTENT_BOTTOM - CONTENT_TOP - block_height) * 0.45))

    if name:
        draw.text((MARGIN - NAME_STROKE, offset + name_baseline), name_line, font=name_font,
                  fill=TEXT, anchor="ls", stroke_width=NAME_STROKE, stroke_fill=TEXT)
    colour = SOFT_TEXT if name else TEXT
    baseline = offset + top + _cap_height(title_font)
    for line in lines:
        draw.text((MARGIN - title_stroke, baseline), line, font=title_font, fill=colour, anchor="ls",
                  stroke_width=title_stroke, stroke_fill=colour)
        baseline += round(title_font.size * LINE_SPACING)

    out = io.BytesIO()
    # No pnginfo, so no metadata: the same inputs give the same bytes. Level 1 is the
    # fastest zlib level, and the card stays small (about 60 kB).
    image.save(out, format="PNG", optimize=False, compress_level=1)
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


def _fit_one_line(text: str, width: int) -> tuple[Font, str]:
    """The largest name size at which text fits on one line, else the smallest, cut."""
    for size in NAME_SIZES:
        font = _font(size)
        if font.getlength(text) <= width:
            return font, text
    return font, wrap_lines(text, font, width, 1)[0]


def _fit_lines(text: str, sizes: tuple[int, ...], width: int, height: int) -> tuple[Font, list[str]]:
    """The largest size at which text fits uncut in the lines that fit in height (at most
    TITLE_MAX_LINES), else the smallest size, cut with an ellipsis."""
    for size in sizes:
        font = _font(size)
        max_lines = TITLE_MAX_LINES
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
