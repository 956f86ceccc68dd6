"""The map page's parts: its SVG (frame, groups, labels) and its data script, map/map-data.js, with a
dot per paper, which assets/map.js draws. The dots are data rather than markup so that the page stays
small at any size of catalogue (the data is fetched once and cached), and a script file rather than
JSON so that it loads from disk too."""

from __future__ import annotations

from typing import NamedTuple

from catalogue.site.charts import PALETTE, MapPoint, map_position, render_map
from catalogue.site.json_text import plain_script_json
from catalogue.site.views import PaperView, shorten

Groups = list[tuple[tuple[str, ...], tuple[int, ...]]]  # each group's words and its papers (most typical first)


class MapEntry(NamedTuple):
    """What the map shows of a paper, and its view's key (which covers all of it)."""

    key: str
    path: str
    slug: str
    name: str
    title: str


def map_entries(views: tuple[PaperView, ...]) -> tuple[MapEntry, ...]:
    """What the map shows of each paper, in the catalogue's order (the similarity process's)."""
    return tuple(MapEntry(v.key, v.path, v.paper.slug, v.name_text, v.title_text) for v in views)


def map_points(entries: tuple[MapEntry, ...], positions: list[tuple[float, float]], groups: Groups) -> list[MapPoint]:
    """A point per paper, coloured by its group; short labels keep the tooltips small."""
    colour = {member: n for n, (_, members) in enumerate(groups) for member in members}
    return [MapPoint(x, y, f"../{entry.path}", entry.name or shorten(entry.title, 60), colour.get(i, 0))
            for i, (entry, (x, y)) in enumerate(zip(entries, positions))]


def render_catalogue_map(points: list[MapPoint], groups: Groups, heading: str, empty: str) -> str:
    """The map's SVG: its frame, a group for each colour's dots (drawn from the data) and the labels."""
    return render_map(points, [words for words, _ in groups], title=heading, empty=empty)


def render_map_data(entries: tuple[MapEntry, ...], points: list[MapPoint], groups: Groups) -> str:
    """window.CATALOGUE_MAP = {"points": [[x, y, colour, slug, name, title], ...], "groups": [[point,
    ...], ...]}: each paper's place in the map's viewBox (as drawn), its group's colour (as the SVG's
    data-group), its slug (assets/common.js makes its address), its name and title (its dot's label
    and its line in its group's list); each group's papers by their place in points, most typical first."""
    rows = []
    for entry, point in zip(entries, points):
        x, y = map_position(point)
        rows.append([x, y, point.colour_index % len(PALETTE), entry.slug, entry.name, entry.title])
    data = {"points": rows, "groups": [list(members) for _, members in groups]}
    return "window.CATALOGUE_MAP = " + plain_script_json(data) + ";\n"
