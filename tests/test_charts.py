"""Inline SVG charts: well-formed, CSP-safe, escaped, deterministic, compact, accessible."""

from __future__ import annotations

import math
import random
import re
import xml.etree.ElementTree as ET
from itertools import combinations

import pytest

from catalogue.site.charts import (
    MAP_HEIGHT,
    MAP_MARGIN,
    MAP_WIDTH,
    PALETTE,
    PALETTE_DARK,
    MapPoint,
    _label_boxes,
    map_dot_style,
    map_places,
    map_position,
    palette_colour,
    place_map_labels,
    render_bar_chart,
    render_map,
    render_swatch,
)
from colour_vision import SIMULATIONS, contrast, distance
from conftest import PROJECT

SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = '<script>alert("x")</script> & \'quotes\''
NUMBER_ATTRIBUTES = ("x", "y", "width", "height", "cx", "cy", "r")


# --- helpers -------------------------------------------------------------------------------


def parse(markup: str) -> ET.Element:
    return ET.fromstring(markup)


def local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def elements(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if local(e.tag) == name]


def the_svg(root: ET.Element) -> ET.Element:
    return root if local(root.tag) == "svg" else root.find(f"{SVG}svg")


def assert_csp_safe(root: ET.Element) -> None:
    for element in root.iter():
        assert local(element.tag) not in ("style", "script", "foreignObject"), element.tag
        assert "style" not in element.attrib, element.attrib
        assert not any(name.startswith("on") for name in element.attrib), element.attrib


def assert_scales(svg: ET.Element) -> None:
    assert re.fullmatch(r"0 0 \d+(\.\d)? \d+(\.\d)?", svg.get("viewBox"))
    assert svg.get("width") == "100%" and svg.get("height") is None


def assert_rounded(root: ET.Element) -> None:
    for element in root.iter():
        if local(element.tag) == "svg":
            continue  # width="100%"
        for name in NUMBER_ATTRIBUTES:
            if name in element.attrib:
                assert re.fullmatch(r"-?\d+(\.\d)?", element.get(name)), (element.tag, name, element.get(name))


def bars_of(count: int, *, linked: bool = True) -> list[tuple[str, int, str | None]]:
    return [(f"Topic {n}", 3 * n, f"topics/t{n}/index.html" if linked else None) for n in range(count)]


def points_of(count: int, seed: int = 1) -> list[MapPoint]:
    rng = random.Random(seed)
    return [MapPoint(rng.random(), rng.random(), f"papers/paper-{n}/index.html",
                     f"Paper {n}: a title of a usual length", rng.randrange(25))
            for n in range(count)]


def dot_groups(root: ET.Element) -> dict[str, ET.Element]:
    """The groups the map's script draws each colour's dots in, by their class."""
    return {g.get("class"): g for g in elements(the_svg(root), "g") if "dots" in g.get("class", "")}


def radius(root: ET.Element) -> float:
    radii = {float(g.get("data-r")) for g in dot_groups(root).values()}
    assert len(radii) == 1
    return radii.pop()


# --- bar chart -----------------------------------------------------------------------------


@pytest.mark.parametrize("count", [0, 1, 2, 40])
def test_bar_chart_is_well_formed_safe_and_scales(count):
    root = parse(render_bar_chart(bars_of(count), title="Papers per topic", unit="papers"))
    assert local(root.tag) == "svg"
    assert_csp_safe(root)
    assert_scales(root)
    assert_rounded(root)
    assert len(elements(root, "a")) == count
    assert len(elements(root, "rect")) == 2 * count - (1 if count else 0)  # Topic 0 has value 0: no bar


def test_bar_chart_is_named_for_assistive_technology():
    root = parse(render_bar_chart(bars_of(3), title="Papers per topic", unit="papers"))
    title = root.find(f"{SVG}title")
    assert root.get("role") == "group" and title.text == "Papers per topic"
    assert root.get("aria-labelledby") == title.get("id")
    items = [g for g in elements(root, "g") if g.get("role") == "listitem"]
    assert len(items) == 3
    assert [a.find(f"{SVG}title").text for a in elements(root, "a")] == [
        "Topic 0: 0 papers", "Topic 1: 3 papers", "Topic 2: 6 papers"]


def test_two_charts_get_different_title_ids():
    first = parse(render_bar_chart(bars_of(3), title="A", unit="papers"))
    second = parse(render_bar_chart(bars_of(3), title="B", unit="papers"))
    assert first.get("aria-labelledby") != second.get("aria-labelledby")


def test_bars_keep_their_order_and_length_follows_value():
    bars = [("Small", 2, None), ("Large", 20, None), ("Middle", 10, "m.html")]
    root = parse(render_bar_chart(bars, title="t", unit="papers"))
    labels = [t.text for t in elements(root, "text") if t.get("class") == "bar-label"]
    assert labels == ["Small", "Large", "Middle"]
    widths = [float(r.get("width")) for r in elements(root, "rect") if r.get("class") == "bar"]
    assert widths[1] > widths[2] > widths[0] > 0
    assert widths[1] == pytest.approx(10 * widths[0], rel=0.01)
    values = [t.text for t in elements(root, "text") if t.get("class") == "bar-value"]
    assert values == ["2 papers", "20", "10"]  # the unit once, on the first bar


@pytest.mark.parametrize("shares", [[13, 5], [100, 50, 1], [0, 0], [7]])
def test_shares_are_drawn_to_scale_of_a_hundred(shares):
    """13 % is an eighth of the width a full 100 % bar would take, not a nearly full bar."""
    root = parse(render_bar_chart([(f"V{n}", share, None) for n, share in enumerate(shares)],
                                  title="Share with code", unit="%", maximum=100))
    widths = [float(r.get("width")) for r in elements(root, "rect") if r.get("class") == "bar"]
    full = render_bar_chart([("Full", 100, None)], title="t", unit="%", maximum=100)
    full_width = float(next(r.get("width") for r in elements(parse(full), "rect") if r.get("class") == "bar"))
    assert widths == [pytest.approx(share * full_width / 100, abs=0.06) for share in shares if share > 0]
    assert full_width > 0.75 * 360


def test_a_value_above_the_maximum_is_refused():
    with pytest.raises(ValueError, match="maximum"):
        render_bar_chart([("Too much", 101, None)], title="t", unit="%", maximum=100)


def test_only_bars_with_an_href_are_links():
    bars = [("Linked", 3, "topics/a/index.html"), ("Plain", 2, None)]
    root = parse(render_bar_chart(bars, title="t", unit="papers"))
    assert [a.get("href") for a in elements(root, "a")] == ["topics/a/index.html"]
    images = [g for g in elements(root, "g") if g.get("role") == "img"]
    assert [g.find(f"{SVG}title").text for g in images] == ["Plain: 2 papers"]


def test_bars_fit_the_width_with_their_values():
    root = parse(render_bar_chart([("A", 10_000, None), ("B", 1, None)], title="t", unit="papers"))
    width = float(root.get("viewBox").split()[2])
    for rect in elements(root, "rect"):
        assert float(rect.get("x", 0)) + float(rect.get("width")) <= width
    value_xs = [float(t.get("x")) for t in elements(root, "text") if t.get("class") == "bar-value"]
    assert max(value_xs) < width * 0.8  # "10000 papers" still has room after its bar
    assert float(elements(root, "rect")[-1].get("width")) >= 1  # the smallest value is visible


def test_zero_values_draw_no_bar_but_say_zero():
    root = parse(render_bar_chart([("None yet", 0, None), ("Also none", 0, "x.html")], title="t", unit="papers"))
    assert [r for r in elements(root, "rect") if r.get("class") == "bar"] == []
    assert [t.text for t in elements(root, "text") if t.get("class") == "bar-value"] == ["0 papers", "0"]


def test_no_bars_says_so():
    root = parse(render_bar_chart([], title="Papers per topic", unit="papers"))
    assert "No papers to show" in "".join(root.itertext())
    assert float(root.get("viewBox").split()[3]) > 0


def test_negative_values_are_refused():
    with pytest.raises(ValueError, match="Bad"):
        render_bar_chart([("Bad", -1, None)], title="t", unit="papers")


def test_long_labels_are_cut_with_an_ellipsis_and_kept_whole_in_the_title():
    label = "A label far longer than any chart could show on one line at this size, really much longer"
    root = parse(render_bar_chart([(label, 4, "x.html")], title="t", unit="papers"))
    shown = next(t.text for t in elements(root, "text") if t.get("class") == "bar-label")
    assert shown.endswith("\u2026") and label.startswith(shown[:-1]) and len(shown) < 50
    assert elements(root, "a")[0].find(f"{SVG}title").text == f"{label}: 4 papers"


def test_wide_characters_are_cut_sooner():
    root = parse(render_bar_chart([("论文" * 30, 4, None)], title="t", unit="篇"))
    shown = next(t.text for t in elements(root, "text") if t.get("class") == "bar-label")
    assert shown.endswith("\u2026") and len(shown) <= 26


def test_bar_chart_text_is_escaped():
    markup = render_bar_chart([(HOSTILE, 1, 'x.html?a=1&b="2"')], title=HOSTILE, unit="<b>papers</b>")
    root = parse(markup)
    assert "<script>" not in markup and "<b>" not in markup
    assert_csp_safe(root)
    assert root.find(f"{SVG}title").text == HOSTILE
    assert elements(root, "a")[0].get("href") == 'x.html?a=1&b="2"'
    assert elements(root, "a")[0].find(f"{SVG}title").text == f"{HOSTILE}: 1 <b>papers</b>"


def test_characters_xml_forbids_are_dropped():
    root = parse(render_bar_chart([("bell\x07 and nul\x00", 1, None)], title="t\x1b", unit="papers"))
    assert root.find(f"{SVG}title").text == "t"


def test_bar_chart_is_deterministic():
    bars = bars_of(12) + [(HOSTILE, 5, None)]
    assert render_bar_chart(bars, title="t", unit="papers") == render_bar_chart(list(bars), title="t", unit="papers")


# --- map -----------------------------------------------------------------------------------


GROUPS = [(f"words{n}", f"more{n}", f"third{n}") for n in range(12)]


@pytest.mark.parametrize("count", [0, 1, 38, 10_000])
def test_map_is_well_formed_safe_and_scales(count):
    svg = parse(render_map(points_of(count), GROUPS))
    assert local(svg.tag) == "svg"
    assert_csp_safe(svg)
    assert_scales(svg)
    assert_rounded(svg)
    assert elements(svg, "a") == [] and elements(svg, "circle") == []  # the dots are data (map_page.py)
    groups = dot_groups(svg)
    assert sorted(int(g.get("data-group")) for g in groups.values()) == sorted(
        {p.colour_index % len(PALETTE) for p in points_of(count)})
    assert all(len(g) == 0 for g in groups.values())


def test_map_places_are_inside_the_plot_with_y_upwards():
    points = [MapPoint(0, 0, "a.html", "bottom left", 0), MapPoint(1, 1, "b.html", "top right", 0)]
    svg = parse(render_map(points, []))
    _, _, width, height = map(float, svg.get("viewBox").split())
    (x0, y0), (x1, y1) = map_places(points)[0]
    r = radius(svg)
    assert r <= x0 < x1 <= width - r and r <= y1 < y0 <= height - r
    assert map_places(points)[0] == [map_position(point) for point in points]


def test_map_dots_are_coloured_by_group_with_the_palette_wrapping():
    points = [MapPoint(0.5, 0.5 + n / 10, f"p{n}.html", f"P{n}", index) for n, index in enumerate([0, 3, len(PALETTE) + 3])]
    groups = dot_groups(parse(render_map(points, GROUPS)))
    assert set(groups) == {"dots t0", "dots t3"}
    assert groups["dots t3"].get("fill") == PALETTE[3] == palette_colour(len(PALETTE) + 3)
    assert groups["dots t3"].get("data-group") == "3"
    assert map_places(points)[3] == [map_position(points[1]), map_position(points[2])]  # in given order


def test_dots_shrink_and_fade_as_the_map_fills():
    few, many = parse(render_map(points_of(38), GROUPS)), parse(render_map(points_of(10_000), GROUPS))
    assert radius(many) < radius(few) / 3
    dots = lambda root: [g for g in elements(root, "g") if "dots" in g.get("class", "")]
    assert all(g.get("fill-opacity") is None for g in dots(few))
    assert all(0.5 <= float(g.get("fill-opacity")) < 1 for g in dots(many))
    sizes = [map_dot_style(n) for n in (1, 38, 100, 1000, 10_000, 100_000)]
    assert sizes == sorted(sizes, reverse=True)


def test_every_dot_can_be_tapped_a_finger_s_width_around_it():
    """A transparent stroke widens each dot to at least 24 px on a 330 px wide map."""
    svg = parse(render_map(points_of(38), GROUPS))
    for group in (g for g in elements(svg, "g") if "dots" in g.get("class", "")):
        assert group.get("stroke") == "transparent"
        assert (float(group.get("stroke-width")) + 2 * radius(svg)) * 330 / MAP_WIDTH >= 24


# The twelve palettes' colours: each seen apart from every other with normal vision and with
# each of three colour-vision deficiencies (OKLab distance x 100; 2 is just noticeable), and
# each with 3:1 contrast on its background (a graphic's minimum, WCAG 1.4.11).
@pytest.mark.parametrize("palette, background", [(PALETTE, "#ffffff"), (PALETTE_DARK, "#1b1f26")])
def test_the_palettes_hold_twelve_colours_everyone_tells_apart(palette, background):
    assert len(palette) == len(set(palette)) == 12
    for colour in palette:
        assert contrast(colour, background) >= 3, colour
    for one, other in combinations(palette, 2):
        assert distance(one, other) >= 10, (one, other)
        for vision in SIMULATIONS:
            assert distance(one, other, vision) >= 6, (one, other, vision)
    first = palette[:6]  # what a small catalogue uses: further apart still
    assert min(distance(a, b, v) for a, b in combinations(first, 2) for v in [None, *SIMULATIONS]) >= 8


def test_the_stylesheet_gives_dark_screens_the_dark_palette():
    css = (PROJECT / "assets" / "style.css").read_text(encoding="utf-8")
    dark = css[css.index("charts.PALETTE_DARK"):]
    assert re.findall(r"svg \.t(\d+) \{ fill: (#[0-9a-f]{6}); \}", dark)[:12] == [
        (str(n), colour) for n, colour in enumerate(PALETTE_DARK)]


def test_each_group_is_labelled_in_the_svg_where_its_dots_are():
    """Labels are SVG text (readable without script or CSS), clear of each other, in the frame."""
    rng = random.Random(3)
    centres = [(0.2, 0.2), (0.8, 0.8), (0.2, 0.8), (0.8, 0.2), (0.5, 0.5)]
    points = [MapPoint(min(1, max(0, cx + rng.gauss(0, 0.04))), min(1, max(0, cy + rng.gauss(0, 0.04))),
                       f"p{g}-{n}.html", f"P{g}-{n}", g) for g, (cx, cy) in enumerate(centres) for n in range(20)]
    svg = parse(render_map(points, [("diffusion models", "sampling", "images"), ("graphs", "nodes", "edges"),
                                    ("bandits", "regret", "arms"), ("proteins", "folding", "structure"), ()]))
    layer = next(g for g in elements(svg, "g") if g.get("class") == "map-labels")
    assert layer.get("pointer-events") == "none"  # taps go through to the dots
    labels = elements(layer, "text")
    assert ["".join(label.itertext()) for label in labels] == [
        "\u25cf diffusion models · sampling", "\u25cf graphs · nodes", "\u25cf bandits · regret",
        "\u25cf proteins · folding"]  # the group without words has no label
    for label, (cx, cy) in zip(labels, centres):
        bullet = label.find(f"{SVG}tspan")
        assert bullet.get("aria-hidden") == "true" and bullet.get("class") in {f"t{n}" for n in range(4)}
        assert bullet.get("fill") == PALETTE[int(bullet.get("class")[1:])]
        x, y = float(label.get("x")), float(label.get("y"))
        assert 0 < x < MAP_WIDTH and 0 < y < MAP_HEIGHT
        assert math.dist((x, y), (MAP_MARGIN + cx * (MAP_WIDTH - 2 * MAP_MARGIN),
                                  MAP_MARGIN + (1 - cy) * (MAP_HEIGHT - 2 * MAP_MARGIN))) < 120
        assert [t.text for t in label.iter(f"{SVG}tspan")][1].startswith(" · ")  # .more: hidden on phones


def test_crowded_labels_do_not_overlap():
    """Neither as a wide screen shows them (all their words) nor as a phone does (the first, larger)."""
    points = [MapPoint(0.5 + n / 1000, 0.5, f"p{n}.html", f"P{n}", n % 12) for n in range(120)]  # all in one spot
    placed = place_map_labels({n: [map_position(p) for p in points if p.colour_index == n] for n in range(12)}, GROUPS)
    assert len(placed) == 12
    for screen in (0, 1):
        boxes = []
        for label in placed:
            sizes = _label_boxes(label.words[:2])
            centre = label.y - max(h for _, h in sizes) * 0.22
            width, height = sizes[screen]
            boxes.append((label.x - width / 2, centre - height / 2, label.x + width / 2, centre + height / 2))
            assert MAP_MARGIN - 0.1 <= boxes[-1][0] and boxes[-1][2] <= MAP_WIDTH - MAP_MARGIN + 0.1
        for one, other in combinations(boxes, 2):
            assert not (one[0] < other[2] - 0.5 and other[0] < one[2] - 0.5 and one[1] < other[3] - 0.5
                        and other[1] < one[3] - 0.5), (screen, one, other)


def test_a_label_sits_on_its_group_when_it_has_room():
    """On the middle of its group's densest part: not pushed aside by the dots it covers."""
    rng = random.Random(5)
    points = [MapPoint(min(1, max(0, 0.3 + rng.gauss(0, 0.05))), min(1, max(0, 0.6 + rng.gauss(0, 0.05))),
                       f"p{n}.html", f"P{n}", 0) for n in range(200)]
    (label,) = place_map_labels({0: [map_position(p) for p in points]}, [("graphs", "nodes")])
    xs, ys = zip(*(map_position(p) for p in points))
    assert math.dist((label.x, label.y), (sum(xs) / len(xs), sum(ys) / len(ys))) < 25


def test_a_swatch_shows_its_group_s_colour():
    swatch = parse(render_swatch(len(PALETTE) + 2))
    assert swatch.get("aria-hidden") == "true"
    circle = swatch.find(f"{SVG}circle")
    assert circle.get("fill") == PALETTE[2] and circle.get("class") == "t2"


def test_map_text_is_escaped():
    point = MapPoint(0.5, 0.5, 'p.html?a=1&b="<x>"', HOSTILE, 2)
    markup = render_map([point], [(), (), (HOSTILE,)], title=HOSTILE)
    svg = parse(markup)
    assert "<script>" not in markup
    assert_csp_safe(svg)
    assert "".join(elements(svg, "text")[0].itertext()) == "\u25cf " + HOSTILE
    assert svg.find(f"{SVG}title").text == HOSTILE


@pytest.mark.parametrize("x, y", [(-0.1, 0.5), (0.5, 1.01), (float("nan"), 0.5)])
def test_points_off_the_map_are_refused(x, y):
    with pytest.raises(ValueError, match="outside"):
        render_map([MapPoint(x, y, "p.html", "Lost", 0)], [])


def test_map_is_deterministic():
    assert render_map(points_of(500), GROUPS) == render_map(points_of(500), GROUPS)


def test_ten_thousand_dots_add_nothing_to_the_svg():
    """The page's SVG holds the frame, a group per colour and the labels, whatever the number of dots."""
    few, many = render_map(points_of(38), GROUPS), render_map(points_of(10_000), GROUPS)
    assert len(many.encode()) < 6_000 and abs(len(many) - len(few)) < 500


# --- in a browser --------------------------------------------------------------------------


def test_charts_render_under_a_strict_policy(browser, tmp_path):
    """No CSP violation (a style attribute would be one); the bars are named (the map's dots: test_map_page.py)."""
    page_html = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Charts</title>'
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'self'; style-src 'self'\">"
        '</head><body>' + render_bar_chart(bars_of(5), title="Papers per topic", unit="papers")
        + render_map(points_of(38), GROUPS) + "</body></html>")
    (tmp_path / "charts.html").write_text(page_html, encoding="utf-8")
    context = browser.new_context()
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda message: message.type == "error" and errors.append(message.text))
        page.goto((tmp_path / "charts.html").as_uri())
        svg_box = page.locator("svg.map").bounding_box()
        assert svg_box["width"] > 300 and svg_box["height"] > 200
        assert 'link "Topic 1: 3 papers"' in page.locator("svg.chart-bars").aria_snapshot()
        assert errors == []
    finally:
        context.close()
