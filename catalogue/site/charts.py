"""Charts as inline SVG: a horizontal bar chart and a scatter map of the catalogue. Pure.

Every function returns markup that goes straight into a page served under a strict CSP
(`style-src 'self'`): no `style` attributes, no `<style>` or `<script>` elements. Colours are
presentation attributes that read well on their own (`currentColor` for text, so dark mode
works) and CSS classes that assets/style.css may refine:

  chart chart-bars   the bar chart's <svg>;  .bar-row  .bar  .bar-label  .bar-value  .bar-hit  .chart-empty
  chart map          the map's <svg>;  .map-frame  .dots (a group's dots, which assets/map.js draws from the
                     map's data)  .map-labels  .map-label (its words, .more: all but the first)  .tN (one
                     per colour: fill)  .swatch (a colour's dot in a list)

Both charts scale with their container (a viewBox and width="100%"). Text inside an SVG scales
with it, so the bar chart is drawn narrow (labels above their bars) to stay readable on a
360 px phone, and the map's labels are sized by CSS for the width of the screen (attributes
give sizes for the SVG alone).

Accessibility: the <svg> is a group named by its <title> (aria-labelledby too, for older
screen readers); the bars form a list; every bar is named by its own <title> child, which is
also the hover tooltip, and every dot of the map by its link's aria-label (assets/map.js).
"""

from __future__ import annotations

import hashlib
import html
import math
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

# Twelve colours for the map's groups, one palette for a light background and one for a dark one
# (assets/style.css holds the dark one, for prefers-color-scheme: dark). Each colour has at least
# 3:1 contrast with its background, and the two palettes were searched (OKLab, near a hand-picked
# blue, salmon, brown, orchid, teal, plum, crimson, olive, violet, slate, green, grey) for the
# largest least difference between any two colours, seen with normal vision and with simulated
# protanopia, deuteranopia and tritanopia (tests/colour_vision.py). The order makes the first
# colours the most distinct: a small catalogue, with fewer groups, uses only those.
PALETTE: tuple[str, ...] = (
    "#3d53fe", "#d2756a", "#674503", "#b247b8", "#38a19d", "#8c046f",
    "#d1045b", "#888700", "#5c1bb7", "#223540", "#1f6c4b", "#6c6485",
)
PALETTE_DARK: tuple[str, ...] = (
    "#4b8bf7", "#f9ba7c", "#b68924", "#fa3c9b", "#2ce5f8", "#dd8bd3",
    "#f77c70", "#d5e02a", "#9b7dc5", "#69b3fb", "#87ce09", "#c2b6ba",
)

SVG_NS = "http://www.w3.org/2000/svg"

# Bar chart geometry, in viewBox units. 360 units wide: at a 360 px phone (about 330 px of
# content) labels are drawn at about 13 px; give the chart a max-width in CSS for wide screens.
BAR_WIDTH = 360
BAR_LABEL_SIZE = 14
BAR_VALUE_SIZE = 13
BAR_ROW = 38  # one row: a label line, then the bar
BAR_LABEL_BASELINE = 14
BAR_TOP = 19  # the bar's top within its row
BAR_HEIGHT = 12
BAR_VALUE_GAP = 5

# Map geometry: a 4:3 plot (squarer reads better on a phone); points sit inside a margin so edge dots are not cut.
MAP_WIDTH = 1000
MAP_HEIGHT = 750
MAP_MARGIN = 14
# A dot can be tapped this far from its centre (viewBox units): about 12 px on a 360 px phone,
# where the map is about 330 px wide. CSS narrows it on wider screens and as the map zooms.
HIT_RADIUS = 40
MAP_LABEL_SIZE = 26  # a group's label (viewBox units): CSS sets it by the width of the screen
MAP_LABEL_SIZE_NARROW = 36  # its largest size, on a phone (where it shows only its first word)
MAP_LABEL_WORDS = 2  # words of a group that its label shows (the list below the map shows all)
DENSITY_GRID = 12  # cells across the map where a label looks for the densest part of its group

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


@dataclass(frozen=True)
class MapPoint:
    """One paper on the map: x, y in [0, 1] (y grows upwards), its link, its name, its topic colour."""

    x: float
    y: float
    href: str
    label: str
    colour_index: int


def palette_colour(index: int) -> str:
    """The colour of a group index; indices past the palette wrap around."""
    return PALETTE[index % len(PALETTE)]


# --- bar chart ---------------------------------------------------------------------------


def render_bar_chart(bars: list[tuple[str, int, str | None]], *, title: str, unit: str,
                     maximum: int | None = None, empty: str | None = None, number: Callable[[int], str] = str) -> str:
    """A horizontal bar chart: one row per (label, value, href or None), in the given order.

    Each label sits above its bar and is cut with an ellipsis when too long (the full text is
    in the row's <title>); the value follows the end of the bar, the first one with its unit,
    written by `number` (the language's digit grouping).
    Bar lengths are proportional to the values, from zero; with `maximum` (100 for a share in
    percent) the full width stands for it, else for the largest value. A row with an href is
    one link. No bars: a chart that says so (`empty`, by default "No <unit> to show").
    """
    for label, value, _ in bars:
        if value < 0:
            raise ValueError(f"bar chart {title!r}: {label!r} has a negative value ({value})")
        if maximum is not None and value > maximum:
            raise ValueError(f"bar chart {title!r}: {label!r} is {value}, above the chart's maximum ({maximum})")
    value_texts = [_value_text(number(value), unit if n == 0 else "") for n, (_, value, _) in enumerate(bars)]
    values = [value for _, value, _ in bars]
    if maximum is not None and bars:  # the scale a bar of `maximum` (with its value) would need
        values, value_texts = values + [maximum], value_texts + [_value_text(number(maximum), unit)]
    scale = _bar_scale(values, value_texts)
    rows = [_bar_row(n, label, value, href, value_texts[n], scale, unit)
            for n, (label, value, href) in enumerate(bars)]
    height = max(BAR_ROW * len(bars), BAR_ROW) + 2
    body = ('<g role="list">\n' + "".join(rows) + "</g>\n") if bars else (
        f'<text class="chart-empty" x="0" y="{BAR_LABEL_BASELINE + 8}" font-size="{BAR_LABEL_SIZE}" '
        f'fill="currentColor">{_escape(empty or f"No {unit} to show")}</text>\n')
    return _svg_open("chart chart-bars", BAR_WIDTH, height, title, body) + body + "</svg>\n"


def _bar_scale(values: list[int], value_texts: list[str]) -> float:
    """Units per value so that every bar plus its value text fits the width."""
    scales = [(BAR_WIDTH - BAR_VALUE_GAP - _text_width(text, BAR_VALUE_SIZE) - 1) / value
              for value, text in zip(values, value_texts) if value > 0]
    return max(min(scales), 0.0) if scales else 0.0


def _bar_row(n: int, label: str, value: int, href: str | None, value_text: str, scale: float, unit: str) -> str:
    top = n * BAR_ROW
    width = value * scale
    if value > 0:
        width = max(width, 1.5)  # the smallest value still shows
    shown = _truncate(label, BAR_LABEL_SIZE, BAR_WIDTH)
    name = f"{label}: {value} {unit}".rstrip()
    parts = [
        f"<title>{_escape(name)}</title>",
        f'<rect class="bar-hit" y="{_num(top)}" width="{BAR_WIDTH}" height="{BAR_ROW - 2}" fill="transparent"/>',
        f'<text class="bar-label" x="0" y="{_num(top + BAR_LABEL_BASELINE)}">{_escape(shown)}</text>',
    ]
    if width > 0:
        parts.append(f'<rect class="bar" y="{_num(top + BAR_TOP)}" width="{_num(width)}" height="{BAR_HEIGHT}" '
                     f'rx="2"/>')
    parts.append(f'<text class="bar-value" x="{_num(width + BAR_VALUE_GAP if width else 0)}" '
                 f'y="{_num(top + BAR_TOP + BAR_HEIGHT - 1.5)}" font-size="{BAR_VALUE_SIZE}">{_escape(value_text)}</text>')
    inner = "".join(parts)
    if href is None:
        return f'<g class="bar-row" role="listitem"><g role="img">{inner}</g></g>\n'
    return f'<g class="bar-row" role="listitem"><a href="{_escape(href)}">{inner}</a></g>\n'


def _value_text(value: str, unit: str) -> str:
    return f"{value} {unit}" if unit else value


# --- map ---------------------------------------------------------------------------------


def map_dot_style(count: int) -> tuple[float, float]:
    """(radius in viewBox units, fill opacity) for a map of `count` points.

    Large, solid dots for a few dozen papers; small, slightly transparent ones for thousands,
    so dense regions read as density instead of a solid blot.
    """
    radius = min(12.0, max(2.0, 12.0 * (40 / max(count, 1)) ** 0.3))
    opacity = min(1.0, max(0.6, 1.0 - 0.17 * math.log10(max(count, 1) / 300))) if count > 300 else 1.0
    return round(radius, 1), round(opacity, 2)


@dataclass(frozen=True)
class MapLabel:
    """A group's label as placed: its colour index, its text (all words, and the first alone for
    narrow screens), the middle of its baseline."""

    colour_index: int
    words: tuple[str, ...]
    x: float
    y: float


def render_map(points: list[MapPoint], groups: list[tuple[str, ...]], *, title: str = "Map of the catalogue",
               empty: str = "No papers to show") -> str:
    """A scatter map's SVG without its dots, coloured by group, each group labelled: a page loads the
    dots as data (map_places gives where each is drawn) and assets/map.js draws them, one link each.

    `groups[i]` are the words that name the group of colour index i (a point's colour_index);
    its label, drawn on the middle of the group's densest part, shows a dot of its colour and its
    first MAP_LABEL_WORDS words (the first alone on a narrow screen, by CSS). Labels stay clear of
    each other and let pointers through to the dots. Each colour that has dots gets a group for them
    (data-group: its index; data-r: a dot's radius; one fill per group, not per dot), whose
    transparent stroke widens each dot where it can be tapped (HIT_RADIUS, narrowed by CSS on wider
    screens).
    """
    places = map_places(points)
    radius, opacity = map_dot_style(len(points))
    fill_opacity = f' fill-opacity="{_num(opacity, 2)}"' if opacity < 1 else ""
    frame = (f'<rect class="map-frame" x="0.5" y="0.5" width="{MAP_WIDTH - 1}" height="{MAP_HEIGHT - 1}" rx="6" '
             f'fill="none" stroke="currentColor" stroke-opacity="0.18"/>\n')
    body = [frame]
    for index in sorted(places):
        body.append(f'<g class="dots t{index}" data-group="{index}" data-r="{_num(radius)}" fill="{PALETTE[index]}"'
                    f'{fill_opacity} stroke="transparent" stroke-width="{2 * HIT_RADIUS}"></g>\n')
    if not points:
        body.append(f'<text x="{MAP_WIDTH // 2}" y="{MAP_HEIGHT // 2}" text-anchor="middle" font-size="32" '
                    f'fill="currentColor">{_escape(empty)}</text>\n')
    labels = place_map_labels(places, groups)
    if labels:
        body.append(f'<g class="map-labels" font-size="{MAP_LABEL_SIZE}" text-anchor="middle" pointer-events="none" '
                    f'stroke="#ffffff" stroke-width="{_num(MAP_LABEL_SIZE / 4)}" stroke-linejoin="round" '
                    f'paint-order="stroke">\n')
        body.extend(_map_label(label) for label in labels)
        body.append("</g>\n")
    content = "".join(body)
    return _svg_open("chart map", MAP_WIDTH, MAP_HEIGHT, title, content) + content + "</svg>\n"


def map_places(points: list[MapPoint]) -> dict[int, list[tuple[float, float]]]:
    """Each colour's dots' places in the viewBox (map_position), in the order of the points; a point
    off the map is refused."""
    places: dict[int, list[tuple[float, float]]] = {}
    for point in points:
        if not (0 <= point.x <= 1 and 0 <= point.y <= 1):
            raise ValueError(f"map point {point.label!r} ({point.href}) lies outside [0, 1]: "
                             f"x={point.x}, y={point.y}")
        places.setdefault(point.colour_index % len(PALETTE), []).append(map_position(point))
    return places


def map_position(point: MapPoint) -> tuple[float, float]:
    """A point's place in the map's viewBox, rounded as drawn."""
    span_x, span_y = MAP_WIDTH - 2 * MAP_MARGIN, MAP_HEIGHT - 2 * MAP_MARGIN
    return round(MAP_MARGIN + point.x * span_x, 1), round(MAP_MARGIN + (1 - point.y) * span_y, 1)


def _map_label(label: MapLabel) -> str:
    index = label.colour_index
    first, *more = label.words[:MAP_LABEL_WORDS]
    rest = f'<tspan class="more">{_escape("".join(" · " + word for word in more))}</tspan>' if more else ""
    return (f'<text class="map-label" x="{_num(label.x)}" y="{_num(label.y)}">'
            f'<tspan class="t{index}" fill="{PALETTE[index]}" aria-hidden="true">\u25cf</tspan>'
            f' {_escape(first)}{rest}</text>\n')


def place_map_labels(places: dict[int, list[tuple[float, float]]], groups: list[tuple[str, ...]]) -> list[MapLabel]:
    """A label for each group that has dots and words, largest group first, centred on the middle of
    the densest part of its dots (a grid's 3 x 3 cells with most of them: the cluster a reader sees
    as the group), inside the frame. A label that would overlap one placed before, as a wide screen
    shows them (all words) or as a phone does (the first, larger), moves by steps up or down, then
    sideways, to the nearest place clear of them all (or stays if none is)."""
    placed: list[tuple[tuple[float, float, float, float], ...]] = []
    labels = []
    for index in sorted(places, key=lambda i: (-len(places[i]), i)):
        words = groups[index] if index < len(groups) else ()
        if not words:
            continue
        x, y = _densest_middle(places[index])
        sizes = _label_boxes(words[:MAP_LABEL_WORDS])
        width, height = max(w for w, _ in sizes), max(h for _, h in sizes)
        centres = [_inside_frame(x + dx, y + dy, width, height) for dy, dx in _label_moves(sizes)]
        options = [tuple((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2) for w, h in sizes) for cx, cy in centres]
        free = (n for n, boxes in enumerate(options)
                if not any(_overlaps(box, other[k]) for other in placed for k, box in enumerate(boxes)))
        best = next(free, 0)
        placed.append(options[best])
        cx, cy = centres[best]
        labels.append(MapLabel(index, words, round(cx, 1), round(cy + height * 0.22, 1)))  # the baseline
    return labels


def _densest_middle(places: list[tuple[float, float]]) -> tuple[float, float]:
    """The mean of the dots in the 3 x 3 grid cells (of DENSITY_GRID across) that hold most of them."""
    cell = MAP_WIDTH / DENSITY_GRID
    counts: dict[tuple[int, int], int] = {}
    for x, y in places:
        key = (int(x // cell), int(y // cell))
        counts[key] = counts.get(key, 0) + 1
    def around(key: tuple[int, int]) -> int:
        return sum(counts.get((key[0] + i, key[1] + j), 0) for i in (-1, 0, 1) for j in (-1, 0, 1))
    best = min(counts, key=lambda key: (-around(key), key[1], key[0]))
    near = [(x, y) for x, y in places if abs(int(x // cell) - best[0]) <= 1 and abs(int(y // cell) - best[1]) <= 1]
    return sum(x for x, _ in near) / len(near), sum(y for _, y in near) / len(near)


def _label_boxes(words: tuple[str, ...]) -> tuple[tuple[float, float], tuple[float, float]]:
    """(width, height) of a label as CSS draws it at its largest: all its words at MAP_LABEL_SIZE, and
    its first alone at MAP_LABEL_SIZE_NARROW on a narrow screen."""
    full = "\u25cf " + " · ".join(words)
    short = "\u25cf " + words[0]
    return ((_text_width(full, MAP_LABEL_SIZE) + MAP_LABEL_SIZE / 2, MAP_LABEL_SIZE * 1.3),
            (_text_width(short, MAP_LABEL_SIZE_NARROW) + MAP_LABEL_SIZE_NARROW / 2, MAP_LABEL_SIZE_NARROW * 1.3))


def _label_moves(sizes: tuple[tuple[float, float], ...]) -> list[tuple[float, float]]:
    """Offsets (dy, dx) to try for a label of these sizes, nearest first: up and down by steps of
    0.6 of its lower height across the whole map (so a crowded map still has a free place), and
    sideways by half its width or all of it."""
    width, step = max(w for w, _ in sizes), min(h for _, h in sizes) * 0.6
    rows = [0.0] + [sign * n * step for n in range(1, math.ceil(MAP_HEIGHT / step) + 1) for sign in (-1, 1)]
    moves = [(dy, dx) for dx in (0.0, -width / 2, width / 2, -width, width) for dy in rows]
    return sorted(moves, key=lambda move: math.hypot(*move))  # stable: of equal distance, the earlier


def _inside_frame(x: float, y: float, width: float, height: float) -> tuple[float, float]:
    """The centre of a label's box of this size centred on (x, y), moved inside the frame."""
    return (min(max(x, MAP_MARGIN + width / 2), MAP_WIDTH - MAP_MARGIN - width / 2),
            min(max(y, MAP_MARGIN + height / 2), MAP_HEIGHT - MAP_MARGIN - height / 2))


def _overlaps(one: tuple[float, float, float, float], other: tuple[float, float, float, float]) -> bool:
    return one[0] < other[2] and other[0] < one[2] and one[1] < other[3] and other[1] < one[3]


def render_swatch(index: int) -> str:
    """A dot of a colour index's colour, for a list that names the map's groups."""
    index %= len(PALETTE)
    return (f'<svg class="swatch" xmlns="{SVG_NS}" viewBox="0 0 10 10" width="12" height="12" aria-hidden="true">'
            f'<circle class="t{index}" cx="5" cy="5" r="5" fill="{PALETTE[index]}"/></svg>')


# --- shared ------------------------------------------------------------------------------


def _svg_open(css_class: str, width: int, height: float, title: str, content: str) -> str:
    """The <svg> start tag and its <title>; the title's id is derived from the content, so
    it is stable from build to build and differs between charts on one page."""
    digest = hashlib.sha1(f"{css_class}\0{title}\0{content}".encode()).hexdigest()[:10]
    title_id = f"chart-{digest}"
    return (f'<svg class="{css_class}" xmlns="{SVG_NS}" viewBox="0 0 {width} {_num(height)}" width="100%" '
            f'role="group" aria-labelledby="{title_id}" font-size="{BAR_LABEL_SIZE}" fill="currentColor">\n'
            f'<title id="{title_id}">{_escape(title)}</title>\n')


def _escape(text: str) -> str:
    """Text safe in XML content and attribute values (characters XML forbids are dropped)."""
    return html.escape(_NOT_XML.sub("", text), quote=True)


def _num(value: float, digits: int = 1) -> str:
    """A coordinate rounded to `digits` decimals without trailing zeros: 12.0 -> '12'."""
    text = f"{value:.{digits}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _char_width(char: str) -> float:
    """A generous estimate of a character's advance in em, measured on DejaVu Sans (one of the
    widest system sans-serifs, so text sized by it fits in the others too)."""
    if unicodedata.east_asian_width(char) in ("W", "F"):
        return 1.0
    if char in "iljtfrI.,:;'!|()[] ":
        return 0.36
    if char in "mwMW@%":
        return 0.98
    if char.isupper() or char.isdigit() or char in "<>=+~#&?":
        return 0.74
    return 0.62


def _text_width(text: str, size: float) -> float:
    return sum(_char_width(c) for c in text) * size


def _truncate(text: str, size: float, width: float) -> str:
    """text, cut with an ellipsis so that it fits `width` units at font `size`."""
    if _text_width(text, size) <= width:
        return text
    budget = width - _text_width("\u2026", size)
    kept, used = [], 0.0
    for char in text:
        used += _char_width(char) * size
        if used > budget:
            break
        kept.append(char)
    return "".join(kept).rstrip() + "\u2026"
