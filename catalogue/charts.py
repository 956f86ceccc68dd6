"""Charts as inline SVG: a horizontal bar chart and a scatter map of the catalogue. Pure.

Every function returns markup that goes straight into a page served under a strict CSP
(`style-src 'self'`): no `style` attributes, no `<style>` or `<script>` elements. Colours are
presentation attributes that read well on their own (`currentColor` for text, so dark mode
works) and CSS classes that assets/style.css may refine:

  chart chart-bars   the bar chart's <svg>;  .bar-row  .bar  .bar-label  .bar-value  .bar-hit  .chart-empty
  chart-map          the map's wrapper <div>; .chart.map (its <svg>)  .map-frame  .dots  .tN (one per colour)
                     .map-legend (<ul>)  .swatch (a legend item's colour dot)

Both charts scale with their container (a viewBox and width="100%"). Text inside an SVG scales
with it, so the bar chart is drawn narrow (labels above their bars) to stay readable on a
360 px phone, and the map keeps its text out of the SVG: its legend is an HTML list that wraps.

Accessibility: the <svg> is a group named by its <title> (aria-labelledby too, for older
screen readers); the bars form a list; every link or bar is named by its own <title> child,
which is also the hover tooltip, so one string serves both and 10,000 dots stay small.
"""

from __future__ import annotations

import hashlib
import html
import math
import re
import unicodedata
from dataclasses import dataclass

# Twenty categorical colours, mid-tone so that each keeps about 3:1 contrast on the light
# background (#fbfbf9) and on the dark one (#14171c); the first ten are the most distinct
# hues, the next ten the same hues turned a little, alternately lighter and darker.
PALETTE: tuple[str, ...] = (
    "#538ae6", "#d26c28", "#36a558", "#c664a8", "#af8600", "#00a29b", "#d86165", "#9b74d9",
    "#819808", "#009dd0", "#7b88f3", "#a2650a", "#37a37e", "#ab5374", "#969542", "#008799",
    "#e56f4a", "#915ca2", "#60a14b", "#247bb5",
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
    """The colour of a topic index; indices past the palette wrap around."""
    return PALETTE[index % len(PALETTE)]


# --- bar chart ---------------------------------------------------------------------------


def render_bar_chart(bars: list[tuple[str, int, str | None]], *, title: str, unit: str) -> str:
    """A horizontal bar chart: one row per (label, value, href or None), in the given order.

    Each label sits above its bar and is cut with an ellipsis when too long (the full text is
    in the row's <title>); the value follows the end of the bar, the first one with its unit.
    A row with an href is one link. No bars: a chart that says so.
    """
    for label, value, _ in bars:
        if value < 0:
            raise ValueError(f"bar chart {title!r}: {label!r} has a negative value ({value})")
    value_texts = [_value_text(value, unit if n == 0 else "") for n, (_, value, _) in enumerate(bars)]
    scale = _bar_scale([value for _, value, _ in bars], value_texts)
    rows = [_bar_row(n, label, value, href, value_texts[n], scale, unit)
            for n, (label, value, href) in enumerate(bars)]
    height = max(BAR_ROW * len(bars), BAR_ROW) + 2
    body = ('<g role="list">\n' + "".join(rows) + "</g>\n") if bars else (
        f'<text class="chart-empty" x="0" y="{BAR_LABEL_BASELINE + 8}" font-size="{BAR_LABEL_SIZE}" '
        f'fill="currentColor">No {_escape(unit)} to show</text>\n')
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


def _value_text(value: int, unit: str) -> str:
    return f"{value} {unit}" if unit else str(value)


# --- map ---------------------------------------------------------------------------------


def map_dot_style(count: int) -> tuple[float, float]:
    """(radius in viewBox units, fill opacity) for a map of `count` points.

    Large, solid dots for a few dozen papers; small, slightly transparent ones for thousands,
    so dense regions read as density instead of a solid blot.
    """
    radius = min(12.0, max(2.0, 12.0 * (40 / max(count, 1)) ** 0.3))
    opacity = min(1.0, max(0.6, 1.0 - 0.17 * math.log10(max(count, 1) / 300))) if count > 300 else 1.0
    return round(radius, 1), round(opacity, 2)


def render_map(points: list[MapPoint], legend: list[tuple[str, str]], *,
               title: str = "Map of the catalogue") -> str:
    """A scatter map of papers, one link per paper, coloured by topic, with a legend below.

    `legend[i]` is (topic label, href of its page or "") for colour index i; its swatch shows
    palette_colour(i). Dots carry no visible text: each link's <title> is its tooltip and its
    accessible name. Dots are grouped by colour (one fill per group, not per dot), in the
    order of the points within a group; y grows upwards.

    Returns a <div class="chart-map"> holding the <svg> and the legend as an HTML <ul>, so the
    legend wraps and keeps its text size on any screen.
    """
    for point in points:
        if not (0 <= point.x <= 1 and 0 <= point.y <= 1):
            raise ValueError(f"map point {point.label!r} ({point.href}) lies outside [0, 1]: "
                             f"x={point.x}, y={point.y}")
    radius, opacity = map_dot_style(len(points))
    groups: dict[int, list[str]] = {}
    span_x, span_y = MAP_WIDTH - 2 * MAP_MARGIN, MAP_HEIGHT - 2 * MAP_MARGIN
    r = _num(radius)
    for point in points:
        cx, cy = _num(MAP_MARGIN + point.x * span_x), _num(MAP_MARGIN + (1 - point.y) * span_y)
        groups.setdefault(point.colour_index % len(PALETTE), []).append(
            f'<a href="{_escape(point.href)}"><title>{_escape(point.label)}</title>'
            f'<circle cx="{cx}" cy="{cy}" r="{r}"/></a>\n')
    fill_opacity = f' fill-opacity="{_num(opacity, 2)}"' if opacity < 1 else ""
    # a thin ring in the background colour (stroke from CSS) parts touching dots; none when dense
    outline = f' stroke-width="{_num(radius / 5 if len(points) <= 300 else 0)}"'
    frame = (f'<rect class="map-frame" x="0.5" y="0.5" width="{MAP_WIDTH - 1}" height="{MAP_HEIGHT - 1}" rx="6" '
             f'fill="none" stroke="currentColor" stroke-opacity="0.18"/>\n')
    body = [frame]
    for index in sorted(groups):
        body.append(f'<g class="dots t{index}" fill="{PALETTE[index]}"{fill_opacity}{outline}>\n')
        body.extend(groups[index])
        body.append("</g>\n")
    if not points:
        body.append(f'<text x="{MAP_WIDTH // 2}" y="{MAP_HEIGHT // 2}" text-anchor="middle" font-size="32" '
                    f'fill="currentColor">No papers to show</text>\n')
    content = "".join(body)
    svg = _svg_open("chart map", MAP_WIDTH, MAP_HEIGHT, title, content) + content + "</svg>\n"
    return f'<div class="chart-map">\n{svg}{render_map_legend(legend)}</div>\n'


def render_map_legend(legend: list[tuple[str, str]]) -> str:
    """The map's legend: one item per (label, href or "") in colour-index order."""
    if not legend:
        return ""
    items = []
    for index, (label, href) in enumerate(legend):
        colour = palette_colour(index)
        swatch = (f'<svg class="swatch t{index % len(PALETTE)}" xmlns="{SVG_NS}" viewBox="0 0 10 10" width="12" '
                  f'height="12" aria-hidden="true"><circle cx="5" cy="5" r="5" fill="{colour}"/></svg>')
        text = f'<a href="{_escape(href)}">{_escape(label)}</a>' if href else _escape(label)
        items.append(f"<li>{swatch} {text}</li>\n")
    return f'<ul class="map-legend" aria-label="Legend">\n{"".join(items)}</ul>\n'


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
