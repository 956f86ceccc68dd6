"""The social-preview card: a valid 1200x630 PNG, the same bytes for the same text, text kept
inside its margins and lines, legible as a thumbnail, and no input that makes it fail."""

from __future__ import annotations

import io
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageFont

from catalogue.site.share_image import (
    BACKGROUND, ELLIPSIS, FOOTER, FOOTER_HEIGHT, HEIGHT, MARGIN, RING, TEXT, TEXT_WIDTH, WIDTH,
    fit_charset, render_card_png, wrap_lines,
)

ICML = dict(heading="ICML 2026", detail="1,234 papers", footer="Paper Catalogue")
LONG_TITLE = ("Towards Robust and Efficient Learning of Long-Horizon Policies " * 5)[:300]


def open_png(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    Image.open(io.BytesIO(data)).verify()  # checks the chunks' CRCs; the image is unusable after
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    assert image.size == (WIDTH, HEIGHT) == (1200, 630)
    assert image.mode == "P"  # a palette: a third of the bytes of RGB for the same look
    return image.convert("RGB")


def chunk_types(data: bytes) -> list[str]:
    types, at = [], 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at:at + 4])
        types.append(data[at + 4:at + 8].decode("ascii"))
        at += length + 12
    return types


def rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))


def assert_margins_clear(image: Image.Image) -> None:
    """Nothing is drawn in the side margins: only the flat background, the rings (drawn
    without anti-aliasing) and the footer band; text would bring blended colours."""
    for box in ((0, 0, MARGIN - 6, HEIGHT), (MARGIN + TEXT_WIDTH + 4, 0, WIDTH, HEIGHT)):
        colours = {colour for _, colour in image.crop(box).getcolors(WIDTH * HEIGHT)}
        assert colours <= {rgb(BACKGROUND), rgb(RING), rgb(FOOTER)}


def test_a_valid_png_of_the_open_graph_size():
    data = render_card_png(**ICML)
    image = open_png(data)
    assert len(image.getcolors(WIDTH * HEIGHT)) > 12  # anti-aliased text, not a blank card
    assert len(data) < 20_000  # a card for each venue and year stays cheap


def test_the_same_text_gives_the_same_bytes_and_no_metadata():
    first = render_card_png(**ICML)
    assert render_card_png(**dict(ICML)) == first
    assert chunk_types(first) == ["IHDR", "PLTE", "IDAT", "IEND"]  # no tEXt/tIME/eXIf chunks
    assert open_png(first).info.keys() <= {"dpi", "gamma"}  # nothing Pillow read as metadata


@pytest.mark.parametrize("change", [{"heading": "ICML 2025"}, {"detail": "1,235 papers"}, {"footer": "Paper Catalog"}])
def test_every_input_shows_in_the_image(change):
    base = open_png(render_card_png(**ICML))
    other = open_png(render_card_png(**{**ICML, **change}))
    assert base.tobytes() != other.tobytes()


def ink_rows(image: Image.Image, colour: str, box: tuple[int, int, int, int]) -> list[int]:
    """The rows of box where a pixel is near colour (text of that colour, anti-aliased or not)."""
    target = rgb(colour)
    crop = image.crop(box)
    pixels = crop.load()
    return [y for y in range(crop.height)
            if any(sum(abs(a - b) for a, b in zip(pixels[x, y], target)) < 60 for x in range(crop.width))]


def test_the_heading_is_large_enough_to_read_as_a_thumbnail():
    """Shown 300 px wide, as a feed shows a card, the venue's capitals stay at least 20 px tall."""
    image = open_png(render_card_png(**ICML))
    rows = ink_rows(image, TEXT, (MARGIN, 0, WIDTH // 2, HEIGHT - FOOTER_HEIGHT))  # left of the rings
    assert rows and (max(rows) - min(rows)) * 300 / WIDTH >= 20


def test_the_count_the_font_cannot_spell_shows_its_number():
    chinese = open_png(render_card_png(heading="ICML 2026", detail="1234 篇论文", footer="Paper Catalogue"))
    number = open_png(render_card_png(heading="ICML 2026", detail="1234", footer="Paper Catalogue"))
    assert chinese.tobytes() == number.tobytes()


@pytest.mark.parametrize("heading, detail, footer", [
    (LONG_TITLE, "3 papers", "Paper Catalogue"),
    ("W" * 300, "V" * 300, "S" * 300),
    ("NeurIPS 2017", "", ""),
    ("LS²MC 2026", "1 paper", "Paper Catalogue"),
    ("β-Workshop 2026", "Learning α-divergences with Σ-statistics and ∇ψ in ℝⁿ", "Paper Catalogue"),
    ("中文会议 2026", "基于课程学习的时空推理框架" * 3, "论文目录"),
    ('<script>alert("x")</script>', "&amp; <img src=x onerror=alert(1)>", "Paper Catalogue"),
    ("😀 Emoji", "مرحبا Arabic, עברית Hebrew, and e\u0301 combining", "Paper Catalogue"),
    ("a\x00b", "Controls\t\n\r\x0b and zero\u200bwidth\u200d and a lone \ud800 surrogate", "\U0010ffff"),
    ("", "", ""),
    ("   ", "   \n  ", " "),
])
def test_hostile_and_unusual_text_still_gives_the_card(heading, detail, footer):
    assert_margins_clear(open_png(render_card_png(heading=heading, detail=detail, footer=footer)))


@pytest.mark.parametrize("length", range(6, 40, 3))
def test_headings_of_every_length_stay_inside_the_margins(length):
    """Each length lands differently against the heading sizes' widths: some just fit, some are cut."""
    assert_margins_clear(open_png(render_card_png(heading="M" * length, detail="2 papers", footer="Paper Catalogue")))


# Wide and narrow letters, digits, Greek, CJK, symbols and spaces, so that lines end anywhere.
TEXT_CHARS = st.text(alphabet="WMmwil1 .-:²αΣ中文<>&\u00e9\u2014" + "abcdefgh" * 3, max_size=320)


@settings(max_examples=60, deadline=None)
@given(heading=TEXT_CHARS, detail=TEXT_CHARS, footer=TEXT_CHARS)
def test_any_text_stays_inside_the_margins(heading, detail, footer):
    assert_margins_clear(open_png(render_card_png(heading=heading, detail=detail, footer=footer)))


def test_text_stays_above_the_footer_band():
    image = open_png(render_card_png(heading=LONG_TITLE, detail=LONG_TITLE, footer=""))
    band = image.crop((0, HEIGHT - FOOTER_HEIGHT, WIDTH, HEIGHT))
    assert band.getcolors() == [(WIDTH * FOOTER_HEIGHT, rgb(FOOTER))]


@pytest.fixture(scope="module")
def font() -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=46)


def test_the_bundled_font_is_a_scalable_aileron(font):
    assert isinstance(font, ImageFont.FreeTypeFont)
    assert font.getname() == ("Aileron", "Regular")
    assert ImageFont.load_default(size=92).getlength("Paper") == pytest.approx(2 * font.getlength("Paper"), rel=0.03)


@pytest.mark.parametrize("text, width, max_lines", [
    (LONG_TITLE, TEXT_WIDTH, 4),
    (LONG_TITLE, 300, 4),
    (LONG_TITLE, 300, 1),
    ("A" * 200, TEXT_WIDTH, 4),
    ("A" * 200, TEXT_WIDTH, 1),
    ("Unbreakable" * 30 + " then some ordinary words", 500, 3),
    ("Short words, a very " + "long" * 40 + " word and more", 400, 10),
    ("A B", 1, 2),
])
def test_wrapped_lines_fit_their_width_and_number(font, text, width, max_lines):
    lines = wrap_lines(text, font, width, max_lines)
    assert 1 <= len(lines) <= max_lines
    for line in lines:
        assert line and line == line.strip()
        assert font.getlength(line) <= width or len(line) == 1 or line == ELLIPSIS  # 1: no room for less
    assert "".join(lines).replace(ELLIPSIS, "").replace(" ", "") in text.replace(" ", "")


def test_a_title_that_fits_is_wrapped_between_words_and_kept_whole(font):
    title = "EgoTSR: A Curriculum-Based Framework for Learning Task-Oriented Spatiotemporal Reasoning"
    lines = wrap_lines(title, font, 700, 4)
    assert 2 <= len(lines) <= 4
    assert " ".join(lines) == title
    assert not any(line.endswith(ELLIPSIS) for line in lines)


def test_a_title_too_long_is_cut_between_words_with_an_ellipsis(font):
    lines = wrap_lines(LONG_TITLE, font, TEXT_WIDTH, 4)
    assert len(lines) == 4
    assert lines[-1].endswith(ELLIPSIS)
    shown = " ".join(lines).removesuffix(ELLIPSIS)
    assert LONG_TITLE.startswith(shown)
    assert LONG_TITLE[len(shown)] == " "  # the cut falls between words
    assert not shown.endswith((",", ":", " "))


def test_a_word_wider_than_the_line_is_broken():
    font = ImageFont.load_default(size=46)
    lines = wrap_lines("A" * 200, font, TEXT_WIDTH, 10)
    assert len(lines) > 1
    assert "".join(lines) == "A" * 200
    assert all(font.getlength(line) <= TEXT_WIDTH for line in lines)


def test_empty_text_gives_no_lines(font):
    assert wrap_lines("", font, TEXT_WIDTH, 4) == []
    assert wrap_lines("   ", font, TEXT_WIDTH, 4) == []


@pytest.mark.parametrize("text, expected", [
    ("LS²MC-GDA", "LS2MC-GDA"),
    ("β-VAE and Σ-nets", "beta-VAE and Sigma-nets"),
    ("naïve café, e\u0301", "naive cafe, e"),
    ("rate–distortion; LMs—such as", "rate-distortion; LMs - such as"),
    ("ＡＢＣ 100\u202fGiB x\u00a0y", "ABC 100 GiB x y"),
    ("zero\u200bwidth\x00 and\t\nlines", "zerowidth and lines"),
    ("“Quoted” … © 2026", "“Quoted” … © 2026"),  # the font has these: kept
    ("中文", "中文"),  # no spelling in ASCII: drawn as boxes
    ("<script>", "<script>"),
])
def test_characters_the_font_lacks_are_spelt_in_ones_it_has(text, expected):
    assert fit_charset(text) == expected
