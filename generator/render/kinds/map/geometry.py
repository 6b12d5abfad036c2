"""The map as shapes: a square grid or flat-topped hex map at play scale, or a table's plan,
drawn as typed shapes in canvas mm that the map sheet prints and the briefing shrinks.

A grid map prints with squares the size of the square counters, a hex map with flat-topped
hexes the size of the hex counters (cells.SQUARE_MM, cells.HEX_MM). The map, with a narrow
margin for the edge labels, is the "canvas". Every cell carries its coordinates, column
then row (0507: column 5, row 7), faint, at 7 pt. A table map (measured in cm, for
miniatures) is drawn as a plan at a round scale.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from generator.errors import InputError
from generator.render.cells import HEX_MM, SQUARE_MM
from generator.render.draw import LEADING, fit, text_width_mm
from generator.render.kinds.map.shapes import PT_MM, TEXT_PT, Element, Text
from generator.render.kinds.map.shapes import line as _line
from generator.render.kinds.map.shapes import poly as _poly
from generator.render.kinds.map.shapes import rect as _rect
from generator.render.kinds.map.shapes import text as _text
from generator.render.kinds.map.styles import TERRAIN
from generator.render.paper import get_paper
from generator.ruleset.model import Map, Side

MARGIN_MM = 5.0  # around the map, on the canvas: edge labels, the exit edge
PLAN_SCALES = (10, 12.5, 15, 20, 25, 30, 40, 50, 75, 100)
COORD_TOP_MM = 1.2  # a cell's coordinates: their line's top below the cell's top
# ... which keep this far off an overlap or trim line (as the dashed lines keep off words):
# cut or folded along a seam, a number is lost; where a seam runs through one it moves,
# within the band along its cell's top or bottom edge, to the nearest place clear of it
SEAM_CLEAR_MM = 0.8
COORD_EDGE_MM = 0.3  # the least room between the coordinates and their cell's edge
NAME_SIZES = (8.0, 7.5, 7.0)  # a ship's name in her start hex


@dataclass(frozen=True)
class EdgeLabel:
    """Words along a map edge, placed on each page that shows enough of it: the longest of
    `texts` that fits, from `start` to `end` along the edge (mm), with arrows pointing off
    the map if `arrows`."""

    edge: str  # north, east, south, west
    texts: tuple[str, ...]
    style: str
    start: float
    end: float
    arrows: bool = False


@dataclass
class Canvas:
    """The whole map as shapes in canvas mm, plus what the pages' labels need."""

    width: float
    height: float
    map_box: tuple[float, float, float, float]
    elements: list[Element]
    edge_labels: list[EdgeLabel]  # placed per page
    legend: list[dict[str, str]]
    description: str


def _terrain(legend: Mapping[str, Any], char: str) -> tuple[str, str]:
    name = str(legend.get(char, "sea" if char == "." else char))
    return name, TERRAIN.get(name.lower(), "other")


def _legend_entries(legend: Mapping[str, Any]) -> list[dict[str, str]]:
    seen: list[dict[str, str]] = []
    for name in legend.values():
        style = TERRAIN.get(str(name).lower(), "other")
        if all(e["name"] != str(name).capitalize() for e in seen):
            seen.append({"style": style, "name": str(name).capitalize()})
    return seen


def coordinate(col: int, row: int, digits: int = 2) -> str:
    """Name a cell, column then row, from 01: 0507 is column 5, row 7."""
    return f"{col + 1:0{digits}d}{row + 1:0{digits}d}"


def digits_for(cols: int, rows: int) -> int:
    return max(2, len(str(max(cols, rows))))


def place_coordinate(
    col: int,
    row: int,
    digits: int,
    cx: float,
    top: float,
    backed: bool,
    cell_h: float,
    half_room: float,
) -> Text:
    """A cell's coordinates, along its top edge; `cell_h` is its height and `half_room`
    half the width its top and bottom edges leave the words (the flat edge of a hex). The
    bands the words may move within, off a seam, are kept with them as ``room``."""
    line = TEXT_PT * LEADING * PT_MM
    made = _text([coordinate(col, row, digits)], cx, top + COORD_TOP_MM + line / 2, "coord",
                 backing=backed)  # fmt: skip
    left, right, bottom = cx - half_room, cx + half_room, top + cell_h
    band = cell_h / 4  # the middle half is the cell's own: a start hex's ship names
    room = (
        (left, top + COORD_EDGE_MM, right, top + band),
        (left, bottom - band, right, bottom - COORD_EDGE_MM),
    )
    return replace(made, room=room)


def _crossed(box: Sequence[float], xs: Sequence[float], ys: Sequence[float]) -> bool:
    """Whether a seam (a line at x in `xs` down the whole map, or at y in `ys` across it)
    runs through `box` or within SEAM_CLEAR_MM of it."""
    x0, y0, x1, y1 = box
    c = SEAM_CLEAR_MM - 1e-6
    return any(x0 - c < x < x1 + c for x in xs) or any(y0 - c < y < y1 + c for y in ys)


def clear_of_seams(element: Text, xs: Sequence[float], ys: Sequence[float]) -> Text | None:
    """Return a cell's coordinates moved off the seams at `xs` and `ys` (themselves, if
    no seam comes near): to the nearest place in their bands; None if there is none."""
    if not _crossed(element.box, xs, ys):
        return element
    x0, y0, x1, y1 = element.box
    half_w, half_h = (x1 - x0) / 2, (y1 - y0) / 2
    cx, cy = element.cx, element.cy
    places = []
    for left, top, right, bottom in element.room:
        across = [cx, left + half_w, right - half_w]
        across += [x + sign * (SEAM_CLEAR_MM + half_w) for x in xs for sign in (-1, 1)]
        down = [cy, top + half_h, bottom - half_h]
        down += [y + sign * (SEAM_CLEAR_MM + half_h) for y in ys for sign in (-1, 1)]
        for x in across:
            for y in down:
                box = (x - half_w, y - half_h, x + half_w, y + half_h)
                inside = left - 1e-6 <= box[0] and box[2] <= right + 1e-6
                inside = inside and top - 1e-6 <= box[1] and box[3] <= bottom + 1e-6
                if inside and not _crossed(box, xs, ys):
                    places.append((math.hypot(x - cx, y - cy), y, x))
    if not places:
        return None
    _, y, x = min(places)
    moved = _text(element.lines, x, y, "coord", backing=element.backing)
    return replace(moved, room=element.room)


def _cells(grid: Mapping[str, Any], legend: Mapping[str, Any]) -> dict[tuple[int, int], str]:
    """The style of every cell, by (column, row)."""
    return {
        (col, row): _terrain(legend, char)[1]
        for row, line in enumerate(grid["rows"])
        for col, char in enumerate(line)
    }


def grid_canvas(grid: Map, sides: Sequence[Side]) -> Canvas:
    """Draw a square grid map at SQUARE_MM a square."""
    s, m = SQUARE_MM, MARGIN_MM
    cols, rows = int(grid["width"]), int(grid["height"])
    legend = dict(grid.get("legend") or {".": "sea", "#": "land"})
    width, height = cols * s + 2 * m, rows * s + 2 * m
    right, bottom = m + cols * s, m + rows * s
    cells = _cells(grid, legend)
    elements: list[Element] = [_rect(m, m, cols * s, rows * s, "sea")]
    start = int(grid.get("start_columns") or 0)
    zones = [(0, 0, start), (1, cols - start, start)] if start else []
    for side, first, n in zones:
        elements.append(_rect(m + first * s, m, n * s, rows * s, f"zone{side}"))
    terrain = sorted({style for style in cells.values() if style != "sea"})
    for style in terrain:
        for (c, r), found in sorted(cells.items()):
            if found == style:
                elements.append(_rect(m + c * s, m + r * s, s, s, style))
    for c in range(1, cols):
        elements.append(_line(m + c * s, m, m + c * s, bottom, "gridline"))
    for r in range(1, rows):
        elements.append(_line(m, m + r * s, right, m + r * s, "gridline"))
    for style in terrain:
        for (c, r), found in sorted(cells.items()):
            if found != style:
                continue
            x0, y0, x1, y1 = m + c * s, m + r * s, m + (c + 1) * s, m + (r + 1) * s
            for (dc, dr), edge in (
                ((0, -1), (x0, y0, x1, y0)),
                ((1, 0), (x1, y0, x1, y1)),
                ((0, 1), (x0, y1, x1, y1)),
                ((-1, 0), (x0, y0, x0, y1)),
            ):
                if cells.get((c + dc, r + dr)) != style:
                    elements.append(_line(*edge, f"{style}edge"))
    for side, first, n in zones:
        x = m + first * s
        elements.append(_rect(x + 0.35, m + 0.35, n * s - 0.7, rows * s - 0.7, f"zoneline{side}"))
    elements.append(_rect(m, m, cols * s, rows * s, "border"))
    digits = digits_for(cols, rows)
    zoned = {c for _, first, n in zones for c in range(first, first + n)}
    for r in range(rows):
        for c in range(cols):
            backed = c in zoned or cells.get((c, r), "sea") != "sea"
            elements.append(
                place_coordinate(c, r, digits, m + c * s + s / 2, m + r * s, backed, s, s / 2)
            )
    edge_labels: list[EdgeLabel] = []
    if start:
        for side, edge_name in ((0, "west"), (1, "east")):
            if side < len(sides):
                name = str(sides[side].get("name", f"Side {side + 1}"))
                texts = (
                    f"{name}: start zone, the {start} {edge_name}ernmost columns",
                    f"{name}: start zone",
                )
                edge_labels.append(EdgeLabel(edge_name, texts, f"text{side}", m, bottom))
    entries = _legend_entries(legend)
    for side, _first, _n in zones:
        if side < len(sides):
            entries.append(
                {"style": f"zonekey{side}", "name": f"{sides[side].get('name', '')} start zone"}
            )
    description = f"{cols} × {rows} squares of {s:g} mm (the counters' size), north up"
    return Canvas(width, height, (m, m, right, bottom), elements, edge_labels, entries, description)


def hex_centre(col: int, row: int) -> tuple[float, float]:
    """Return the centre of hex (col, row) on the canvas: flat-topped, odd columns lower."""
    f = HEX_MM
    r = f / math.sqrt(3)
    return MARGIN_MM + r + 1.5 * r * col, MARGIN_MM + f / 2 + f * row + (f / 2 if col % 2 else 0)


def hex_points(cx: float, cy: float, inset: float = 0.0) -> list[tuple[float, float]]:
    """The corners of a hex, from the east one clockwise (edge i runs from corner i to the
    next: south-east, south, south-west, north-west, north, north-east)."""
    f = HEX_MM - 2 * inset
    r, h = f / math.sqrt(3), f / 2
    return [
        (cx + x, cy + y)
        for x, y in ((r, 0), (r / 2, h), (-r / 2, h), (-r, 0), (-r / 2, -h), (r / 2, -h))
    ]


def hex_neighbours(col: int, row: int) -> list[tuple[int, int]]:
    """The hexes across each edge of hex (col, row), in hex_points' order of edges."""
    odd = col % 2
    return [
        (col + 1, row + odd),
        (col, row + 1),
        (col - 1, row + odd),
        (col - 1, row - 1 + odd),
        (col, row - 1),
        (col + 1, row - 1 + odd),
    ]


def hex_canvas(grid: Map, sides: Sequence[Mapping[str, Any]], units: str) -> Canvas:
    """Draw a flat-topped odd-q hex map at HEX_MM across the flats."""
    f, m = HEX_MM, MARGIN_MM
    r = f / math.sqrt(3)
    cols, rows = int(grid["width"]), int(grid["height"])
    legend = dict(grid.get("legend") or {".": "sea"})
    map_w = 1.5 * r * (cols - 1) + 2 * r
    map_h = f * rows + (f / 2 if cols > 1 else 0)
    width, height = map_w + 2 * m, map_h + 2 * m
    cells = _cells(grid, legend)
    starts = grid.get("start") or {}
    placed: list[dict[str, Any]] = []
    for side_index, side in enumerate(sides):
        # keyed by the side's index as text: the schema takes no other key
        spots = starts.get(str(side_index)) or []
        for ship, where in zip(side.get(units, []), spots, strict=False):
            col, row = int(where[0]), int(where[1])
            placed.append(
                {"side": side_index, "cell": (col, row), "name": str(ship.get("name", ""))}
            )
    elements: list[Element] = []
    for spot in placed:  # start hexes are sea: their patterns lie under nothing
        elements.append(_poly(hex_points(*hex_centre(*spot["cell"]), 0.2), f"start{spot['side']}"))
    terrain = sorted({style for style in cells.values() if style != "sea"})
    for style in terrain:
        for cell, found in sorted(cells.items()):
            if found == style:
                elements.append(_poly(hex_points(*hex_centre(*cell)), style))
    for row in range(rows):
        for col in range(cols):
            elements.append(_poly(hex_points(*hex_centre(col, row)), "hexline"))
    for style in terrain:
        for (col, row), found in sorted(cells.items()):
            if found != style:
                continue
            corners = hex_points(*hex_centre(col, row))
            for i, other in enumerate(hex_neighbours(col, row)):
                if cells.get(other) != style:
                    (x1, y1), (x2, y2) = corners[i], corners[(i + 1) % 6]
                    elements.append(_line(x1, y1, x2, y2, f"{style}edge"))
    for spot in placed:
        elements.append(
            _poly(hex_points(*hex_centre(*spot["cell"]), 0.6), f"zoneline{spot['side']}")
        )
    digits = digits_for(cols, rows)
    started = {spot["cell"] for spot in placed}
    for row in range(rows):
        for col in range(cols):
            cx, cy = hex_centre(col, row)
            backed = (col, row) in started or cells.get((col, row), "sea") != "sea"
            elements.append(place_coordinate(col, row, digits, cx, cy - f / 2, backed, f, r / 2))
    for spot in placed:
        cx, cy = hex_centre(*spot["cell"])
        fitted = fit(spot["name"], "sans-bold", r * 1.2, f * 0.5, NAME_SIZES)
        if fitted is None:
            raise InputError(f"ship name '{spot['name']}' does not fit its start hex at 7 pt")
        elements.append(
            _text(fitted.lines, cx, cy + 1.0, f"text{spot['side']}", font="sans-bold",
                  size=fitted.size, backing=True)
        )  # fmt: skip
    edge = str(grid.get("exit_edge") or "")
    edge_labels: list[EdgeLabel] = []
    if edge:
        left, top, right, bottom = m, m, m + map_w, m + map_h
        pos = {"west": left - 1.2, "east": right + 1.2, "north": top - 1.2, "south": bottom + 1.2}[
            edge
        ]
        if edge in ("east", "west"):
            elements.append(_line(pos, top, pos, bottom, "exit"))
        else:
            elements.append(_line(left, pos, right, pos, "exit"))
        along = (top, bottom) if edge in ("east", "west") else (left, right)
        edge_labels.append(
            EdgeLabel(
                edge,
                ("Exit edge: the merchants escape off the map here", "Exit edge"),
                "text",
                *along,
                arrows=True,
            )
        )
    entries = _legend_entries(legend)
    for side_index, side in enumerate(sides[:2]):
        entries.append(
            {"style": f"startkey{side_index}", "name": f"{side.get('name', '')} start hex"}
        )
    if edge:
        entries.append({"style": "exitkey", "name": f"Exit edge ({edge})"})
    description = (
        f"{cols} × {rows} flat-topped hexes, {f:g} mm across the flats (the counters' size), "
        "north up"
    )
    return Canvas(
        width, height, (m, m, m + map_w, m + map_h), elements, edge_labels, entries, description
    )


# ---------------------------------------------------------------- a table's plan


def plan_scale(width_cm: float, height_cm: float, room_w: float, room_h: float) -> float:
    """Return the smallest 1:N of PLAN_SCALES at which the table fits room_w x room_h mm."""
    for n in PLAN_SCALES:
        if width_cm * 10 / n <= room_w and height_cm * 10 / n <= room_h:
            return float(n)
    raise InputError(f"a table of {width_cm} × {height_cm} cm is too large to print as a plan")


PLAN_LEFT_MM = 6.0  # room left of the plan for the tick labels (cm down the table)


@dataclass(frozen=True)
class Tick:
    """A tick label along the plan's edge: `at` mm along it, the cm it stands for."""

    at: float
    text: str


@dataclass(frozen=True)
class TablePlan:
    """A table map drawn as a plan at 1:N (`scale`), `width` by `height` mm, `k` mm on
    paper to a cm on the table; its shapes in mm from its top-left, its tick labels (cm
    across the top, down the side) and its size in words."""

    scale: str
    scale_note: str
    k: float
    width: float
    height: float
    elements: tuple[Element, ...]
    xticks: tuple[Tick, ...]
    yticks: tuple[Tick, ...]
    size_text: str


def table_plan(
    layout: Mapping[str, Any], sides: Sequence[Mapping[str, Any]], paper: str
) -> TablePlan:
    """Draw a table map (cm) as a plan at a round scale that fits the page width; shapes
    in mm from the plan's top-left (the plan's edge 1 mm in)."""
    pw, _ = get_paper(paper).printable_mm
    width_cm, height_cm = float(layout["width_cm"]), float(layout["height_cm"])
    n = plan_scale(width_cm, height_cm, pw - PLAN_LEFT_MM - 2, 150)
    k = 10 / n  # mm on paper per cm on the table
    m = 1.0
    w, h = width_cm * k, height_cm * k
    elements: list[Element] = [_rect(m, m, w, h, "sea")]
    for zone in layout.get("deployment", []):
        side = int(zone["side"])
        elements.append(
            _rect(m + zone["x_cm"] * k, m + zone["y_cm"] * k, zone["w_cm"] * k,
                  zone["h_cm"] * k, f"deploy{side}")
        )  # fmt: skip
    step = 10
    for x in range(step, int(width_cm), step):
        elements.append(_line(m + x * k, m, m + x * k, m + h, "planline"))
    for y in range(step, int(height_cm), step):
        elements.append(_line(m, m + y * k, m + w, m + y * k, "planline"))
    labels: list[Element] = []
    for feature in layout.get("features", []):
        style = TERRAIN.get(str(feature.get("type", "")).lower(), "other")
        x, y = m + feature["x_cm"] * k, m + feature["y_cm"] * k
        fw, fh = feature["w_cm"] * k, feature["h_cm"] * k
        elements.append(_rect(x, y, fw, fh, style))
        elements.append(_rect(x, y, fw, fh, "border"))
        label = str(feature.get("label", feature.get("type", "")))
        lw = text_width_mm(label, "sans-bold", TEXT_PT) + 1.6
        if lw <= fw and fh >= 4:
            labels.append(_text([label], x + fw / 2, y + fh / 2, font="sans-bold", backing=True))
        else:
            below = y + fh + 2.4 if y + fh + 4 < m + h else y - 2.4
            labels.append(_text([label], x + fw / 2, below, font="sans-bold", backing=True))
    for zone in layout.get("deployment", []):
        side = int(zone["side"])
        x, y = m + zone["x_cm"] * k, m + zone["y_cm"] * k
        zw, zh = zone["w_cm"] * k, zone["h_cm"] * k
        elements.append(_rect(x + 0.35, y + 0.35, zw - 0.7, zh - 0.7, f"zoneline{side}"))
        name = str(sides[side].get("name", f"Side {side + 1}")) if side < len(sides) else ""
        text = next(
            (
                t
                for t in (f"{name} deploys here", name, "Deployment")
                if t and text_width_mm(t, "sans-bold", TEXT_PT) <= zh - 4
            ),
            None,
        )
        if text:
            labels.append(
                _text([text], x + zw / 2, y + zh / 2, f"text{side}", font="sans-bold",
                      rotate=-90, backing=True)
            )  # fmt: skip
    elements.append(_rect(m, m, w, h, "border"))
    ticks = []
    for x in range(0, int(width_cm) + 1, 30):
        # centred on its line, but never past the plan's right edge
        half = text_width_mm(str(x), "sans", TEXT_PT) / 2
        ticks.append(Tick(round(min(m + x * k, m + w - half), 2), f"{x}"))
    yticks = [Tick(round(m + y * k, 2), f"{y}") for y in range(0, int(height_cm) + 1, 30)]
    return TablePlan(
        scale=f"1:{n:g}",
        scale_note=(
            f"scale 1:{n:g}: 1 mm on the plan is 1 cm on the table"
            if n == 10
            else f"scale 1:{n:g}: 1 cm on the plan is {n / 10:g} cm on the table"
        ),
        k=k,
        width=round(w + 2 * m, 2),
        height=round(h + 2 * m, 2),
        elements=tuple(elements + labels),
        xticks=tuple(ticks),
        yticks=tuple(yticks),
        size_text=f"{width_cm:g} × {height_cm:g} cm",
    )
