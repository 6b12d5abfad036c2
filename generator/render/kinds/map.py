"""The scenario's map, drawn with ReportLab at play scale across as many pages as it needs.

A grid map (the scenario's ``map.kind``) prints with squares the size of the square
counters, a hex map with flat-topped hexes the size of the hex counters (cells.SQUARE_MM,
cells.HEX_MM). The map, with a narrow margin for the edge labels, is the "canvas": a list
of shapes and words in canvas mm, plain data (the briefing draws the same shapes, shrunk, as
its map overview). The canvas is cut into page windows that overlap their neighbours by
OVERLAP_MM, centred so that the paper left over is shared by the map's outer edges (the
first and last columns and rows of pages). Every page draws the shapes that reach into its
window, clipped to it, so the overlap strips repeat exactly. A table map (measured in cm,
for miniatures) prints as a scaled plan on one page.

The sea is the white paper with the grid on it; land, shallows, fog and the start zones are
patterns (hatching, dots, dashes, crosses) that read in black and white as in colour, each
side's start zone its own pattern and outline. Every cell carries its coordinates, column
then row (0507: column 5, row 7), faint, at 7 pt.

Assembly: each page with a neighbour to its left (above) is trimmed along its solid left
(top) frame line and laid on that neighbour up to the dashed line there; the registration
marks sit on that line, half on each page.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from generator.errors import InputError, QuartermasterError
from generator.loading import Rules
from generator.render.cells import HEX_MM, PRINTABLE_MM, SQUARE_MM
from generator.render.draw import (
    LEADING,
    MM,
    Box,
    Drawing,
    Fitted,
    fit,
    fit_or_refuse,
    text_width_mm,
    wrap,
    write,
)
from generator.render.house import house_tables_line
from generator.render.pagenumbers import page_label
from generator.render.sheets import PAPERS
from generator.render.words import wind_words
from generator.ruleset import contract
from generator.rulesets import SpecError, ruleset_ids, serving, sheet_section

PT_MM = 25.4 / 72
OVERLAP_MM = 10.0
MARGIN_MM = 5.0  # around the map, on the canvas: edge labels, the exit edge
HEADER_MM = 16.0
# the header's ink ends this far above the map window: on a page laid over its neighbour
# above, the window's top edge is the trim line, and a cut that wanders must not touch it
HEAD_CLEAR_MM = 2.0
LEGEND_GAP_MM = 2.2  # between the map window (its last row, an overlap strip) and the legend
LEGEND_ROWS = 2  # what the footer has room for
LEGEND_ROW_MM = 5.0
SWATCH_MM = (7.0, 4.4)
FOOTER_MM = LEGEND_GAP_MM + (LEGEND_ROWS - 1) * LEGEND_ROW_MM + SWATCH_MM[1]
TITLE_SIZES = (13.0, 12.0, 11.0, 10.0, 9.0)
NOTE_LINES = 3  # the header's note, under the title
HEAD_RIGHT_MM = 82.0  # the wind rose and its words on one line, the page label, the key map
MARK_EVERY_MM = 45.0  # registration marks along a seam
MARK_SLIDE_MM = (0.0, 2.0, -2.0, 4.0, -4.0, 6.0, -6.0, 8.0, -8.0, 10.0, -10.0)
PLAN_SCALES = (10, 12.5, 15, 20, 25, 30, 40, 50, 75, 100)
TEXT_PT = 7.0
COORD_TOP_MM = 1.2  # a cell's coordinates: their line's top below the cell's top
# ... which keep this far off an overlap or trim line (as the dashed lines keep off words):
# cut or folded along a seam, a number is lost; where a seam runs through one it moves,
# within the band along its cell's top or bottom edge, to the nearest place clear of it
SEAM_CLEAR_MM = 0.8
COORD_EDGE_MM = 0.3  # the least room between the coordinates and their cell's edge
NAME_SIZES = (8.0, 7.5, 7.0)  # a ship's name in her start hex
BACKING_PAD_MM = 1.4  # white beside words set on a pattern

# terrain names (the values of the map legend) and how each is drawn
TERRAIN = {
    "sea": "sea",
    "land": "land",
    "island": "land",
    "coast": "land",
    "fog": "fog",
    "shallows": "shallows",
    "shoal": "shallows",
}

# How each style of shape is drawn: "fill" a colour, "none" or "pattern:NAME" (PATTERNS),
# "stroke" and "width" (mm) and "dash" (mm) for lines. The sea is the paper.
STYLES: dict[str, dict[str, dict[str, Any]]] = {
    "colour": {
        "sea": {"fill": "none"},
        "land": {"fill": "pattern:land"},
        "fog": {"fill": "pattern:fog"},
        "shallows": {"fill": "pattern:shallows"},
        "other": {"fill": "pattern:other"},
        "landedge": {"stroke": "#6e5b32", "width": 0.45},
        "fogedge": {"stroke": "#6f7b8b", "width": 0.3, "dash": (1.2, 0.8)},
        "shallowsedge": {"stroke": "#a08638", "width": 0.3, "dash": (0.4, 0.7)},
        "otheredge": {"stroke": "#555555", "width": 0.35},
        "gridline": {"stroke": "#8ea6b4", "width": 0.25},
        "hexline": {"stroke": "#8ea6b4", "width": 0.25},
        "border": {"stroke": "#1d1b16", "width": 0.5},
        "zone0": {"fill": "pattern:zone0"},
        "zone1": {"fill": "pattern:zone1"},
        "start0": {"fill": "pattern:zone0"},
        "start1": {"fill": "pattern:zone1"},
        "zoneline0": {"stroke": "#7a2a18", "width": 0.7},
        "zoneline1": {"stroke": "#1f4e79", "width": 0.7, "dash": (2.2, 1.2)},
        "deploy0": {"fill": "pattern:zone0"},
        "deploy1": {"fill": "pattern:zone1"},
        "text": {"fill": "#1d1b16"},
        "text0": {"fill": "#7a2a18"},
        "text1": {"fill": "#1f4e79"},
        # the coordinates: faint beside the ink, yet 4.9:1 on the white paper and on their
        # white backing (WCAG asks 4.5:1 of small text)
        "coord": {"fill": "#5f7380"},
        "exit": {"stroke": "#1d1b16", "width": 0.9},
        "arrow": {"fill": "#1d1b16"},
        "cut": {"stroke": "#1d1b16", "width": 0.3},
        "fold": {"stroke": "#1d1b16", "width": 0.3, "dash": (1.5, 1.0)},
        "mark": {"stroke": "#1d1b16", "width": 0.25},
        "planline": {"stroke": "#b9cbd6", "width": 0.2},
        "rose": {"stroke": "#1d1b16", "width": 0.3},
        "arrowline": {"stroke": "#1d1b16", "width": 0.7},
    },
    "mono": {
        "sea": {"fill": "none"},
        "land": {"fill": "pattern:land"},
        "fog": {"fill": "pattern:fog"},
        "shallows": {"fill": "pattern:shallows"},
        "other": {"fill": "pattern:other"},
        "landedge": {"stroke": "#000000", "width": 0.45},
        "fogedge": {"stroke": "#000000", "width": 0.25, "dash": (1.2, 0.8)},
        "shallowsedge": {"stroke": "#000000", "width": 0.25, "dash": (0.4, 0.7)},
        "otheredge": {"stroke": "#000000", "width": 0.35},
        "gridline": {"stroke": "#000000", "width": 0.15},
        "hexline": {"stroke": "#000000", "width": 0.15},
        "border": {"stroke": "#000000", "width": 0.5},
        "zone0": {"fill": "pattern:zone0"},
        "zone1": {"fill": "pattern:zone1"},
        "start0": {"fill": "pattern:zone0"},
        "start1": {"fill": "pattern:zone1"},
        "zoneline0": {"stroke": "#000000", "width": 0.7},
        "zoneline1": {"stroke": "#000000", "width": 0.7, "dash": (2.2, 1.2)},
        "deploy0": {"fill": "pattern:zone0"},
        "deploy1": {"fill": "pattern:zone1"},
        "text": {"fill": "#000000"},
        "text0": {"fill": "#000000"},
        "text1": {"fill": "#000000"},
        # black and white has no grey: the coordinates print as hairline outlines
        "coord": {"fill": "#000000", "outline": 0.1},
        "exit": {"stroke": "#000000", "width": 0.9},
        "arrow": {"fill": "#000000"},
        "cut": {"stroke": "#000000", "width": 0.3},
        "fold": {"stroke": "#000000", "width": 0.3, "dash": (1.5, 1.0)},
        "mark": {"stroke": "#000000", "width": 0.25},
        "planline": {"stroke": "#000000", "width": 0.12, "dash": (0.4, 1.2)},
        "rose": {"stroke": "#000000", "width": 0.3},
        "arrowline": {"stroke": "#000000", "width": 0.7},
    },
}

# The patterns: a ground (None: the paper shows through) and ink drawn as `kind`:
# hatch (lines `step` mm apart, turned `angle` degrees clockwise from upright; dotted, a dot
# every `dots` mm, where it has `dots`), cross (two hatches at right angles), dots (`width`
# across, two a `step` square), dashes (rows `step`/2 apart, dashes `dash` long every 2
# `step`) or plus (crosses `arm` mm long, `step` apart).
# Land, shallows and fog each have their own; each side's start zone too, sparse, so that
# a zone reads as a zone and not as terrain: dotted upright lines (never solid ones, which
# would read as more grid lines) and crosses, never a diagonal hatch like the land's (in
# black and white, the strokes' shape and direction are all that tell them apart).
PATTERNS: dict[str, dict[str, dict[str, Any]]] = {
    "colour": {
        "land": {"ground": "#e9dcb4", "ink": "#8f7a4c", "kind": "hatch", "angle": 45,
                 "step": 1.3, "width": 0.3},
        "fog": {"ground": "#eceef1", "ink": "#6f7b8b", "kind": "dashes", "step": 1.6,
                "dash": 1.7, "width": 0.3},
        "shallows": {"ground": "#f5edcf", "ink": "#a08638", "kind": "dots", "step": 1.8,
                     "width": 0.6},
        "other": {"ground": "#ececec", "ink": "#555555", "kind": "cross", "angle": 45,
                  "step": 2.0, "width": 0.25},
        "zone0": {"ground": None, "ink": "#7a2a18", "kind": "hatch", "angle": 0,
                  "step": 3.0, "width": 0.3, "dots": 0.8},
        "zone1": {"ground": None, "ink": "#1f4e79", "kind": "plus", "step": 6.0,
                  "arm": 1.4, "width": 0.22},
    },
    "mono": {
        "land": {"ground": "#ffffff", "ink": "#000000", "kind": "hatch", "angle": 45,
                 "step": 1.3, "width": 0.25},
        "fog": {"ground": "#ffffff", "ink": "#000000", "kind": "dashes", "step": 1.6,
                "dash": 1.7, "width": 0.25},
        "shallows": {"ground": "#ffffff", "ink": "#000000", "kind": "dots", "step": 1.8,
                     "width": 0.55},
        "other": {"ground": "#ffffff", "ink": "#000000", "kind": "cross", "angle": 45,
                  "step": 2.0, "width": 0.2},
        "zone0": {"ground": None, "ink": "#000000", "kind": "hatch", "angle": 0,
                  "step": 3.0, "width": 0.3, "dots": 0.8},
        "zone1": {"ground": None, "ink": "#000000", "kind": "plus", "step": 6.0,
                  "arm": 1.4, "width": 0.18},
    },
}  # fmt: skip


# ---------------------------------------------------------------- tiling (pure)


@dataclass(frozen=True)
class Tile:
    """One page's window on the canvas, in mm."""

    column: int
    row: int
    x: float
    y: float
    width: float
    height: float

    @property
    def label(self) -> str:
        return f"{column_letters(self.column)}{self.row + 1}"


def column_letters(index: int) -> str:
    """A, B ... Z, AA, AB ...: the page column's name."""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(ord("A") + rest) + name
    return name


def spans(total: float, window: float, overlap: float) -> list[float]:
    """Return the starts of the fewest windows that cover [0, total], each overlapping the
    next by `overlap`, centred on the span: the paper left over is shared by both ends."""
    if window <= overlap:
        raise ValueError("the window must be wider than the overlap")
    step = window - overlap
    count = 1 if total <= window else 1 + math.ceil((total - window) / step - 1e-9)
    spare = window + (count - 1) * step - total
    return [round(-spare / 2 + i * step, 3) for i in range(count)]


def tile(
    width: float, height: float, window_w: float, window_h: float, overlap: float = OVERLAP_MM
) -> tuple[int, int, list[Tile]]:
    """Cut a `width` x `height` canvas into page windows; return (columns, rows, tiles),
    the tiles row by row (A1, B1 ... A2, B2 ...)."""
    xs = spans(width, window_w, overlap)
    ys = spans(height, window_h, overlap)
    tiles = [
        Tile(c, r, x, y, window_w, window_h) for r, y in enumerate(ys) for c, x in enumerate(xs)
    ]
    return len(xs), len(ys), tiles


def header_text_width(paper: str) -> float:
    """The width of the header's words (title, scale, assembly), left of the key."""
    return round(PRINTABLE_MM[paper][0] - 0.2 - HEAD_RIGHT_MM, 1)


def window(paper: str) -> tuple[float, float]:
    """Return the map window of one page of `paper` (mm): the printable area less the
    header and footer."""
    width, height = PRINTABLE_MM[paper]
    return round(width - 0.2, 1), round(height - 1.0 - HEADER_MM - FOOTER_MM, 1)


# ---------------------------------------------------------------- shapes (plain data)


def _box(points: Sequence[tuple[float, float]]) -> tuple[float, float, float, float]:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def _poly(points: Sequence[tuple[float, float]], style: str) -> dict[str, Any]:
    pts = [(round(x, 3), round(y, 3)) for x, y in points]
    return {"t": "poly", "pts": pts, "style": style, "box": _box(pts)}


def _rect(x: float, y: float, w: float, h: float, style: str) -> dict[str, Any]:
    return {
        "t": "rect",
        "x": x,
        "y": y,
        "w": w,
        "h": h,
        "style": style,
        "box": (x, y, x + w, y + h),
    }


def _line(x1: float, y1: float, x2: float, y2: float, style: str) -> dict[str, Any]:
    return {
        "t": "line",
        "x1": x1,
        "y1": y1,
        "x2": x2,
        "y2": y2,
        "style": style,
        "box": (min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)),
    }


def _circle(cx: float, cy: float, r: float, style: str) -> dict[str, Any]:
    return {"t": "circle", "cx": cx, "cy": cy, "r": r, "style": style,
            "box": (cx - r, cy - r, cx + r, cy + r)}  # fmt: skip


def _text(
    lines: Sequence[str],
    cx: float,
    cy: float,
    style: str = "text",
    *,
    font: str = "sans",
    size: float = TEXT_PT,
    rotate: int = 0,
    backing: bool = False,
) -> dict[str, Any]:
    """Lines of text centred on (cx, cy), turned `rotate` degrees clockwise about it (90:
    read from the top down, -90: from the bottom up); `backing` sets them on white."""
    width = max(text_width_mm(line, font, size) for line in lines)
    height = len(lines) * size * LEADING * PT_MM
    half_w, half_h = width / 2, height / 2
    if rotate % 180:
        half_w, half_h = half_h, half_w
    return {
        "t": "text",
        "lines": list(lines),
        "font": font,
        "size": size,
        "cx": cx,
        "cy": cy,
        "w": width,
        "h": height,
        "rotate": rotate,
        "style": style,
        "backing": backing,
        "box": (cx - half_w, cy - half_h, cx + half_w, cy + half_h),
    }


def _arrow_head(x: float, y: float, dx: float, dy: float, size: float = 2.2) -> dict[str, Any]:
    """A filled arrowhead with its tip at (x, y), pointing along (dx, dy)."""
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    px, py = -uy, ux
    back = (x - ux * size, y - uy * size)
    return _poly(
        [
            (x, y),
            (back[0] + px * size * 0.5, back[1] + py * size * 0.5),
            (back[0] - px * size * 0.5, back[1] - py * size * 0.5),
        ],
        "arrow",
    )


def _path_data(element: Mapping[str, Any]) -> str:
    """An element as SVG path data (the briefing's overview)."""
    kind = element["t"]
    if kind == "poly":
        first, *rest = (f"{x:.2f},{y:.2f}" for x, y in element["pts"])
        return f"M{first}L{' '.join(rest)}Z"
    if kind == "rect":
        x, y, w, h = (round(element[k], 2) for k in ("x", "y", "w", "h"))
        return f"M{x},{y}h{w}v{h}h{-w}Z"
    if kind == "circle":
        cx, cy, r = (round(element[k], 2) for k in ("cx", "cy", "r"))
        return f"M{cx - r:.2f},{cy}a{r},{r} 0 1,0 {2 * r},0a{r},{r} 0 1,0 {-2 * r},0Z"
    x1, y1, x2, y2 = (round(element[k], 2) for k in ("x1", "y1", "x2", "y2"))
    return f"M{x1},{y1}L{x2},{y2}"


def merge(elements: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Join runs of shapes of one style into one SVG path each ("d"), for the briefing's
    overview; words are passed on as they are."""
    out: list[dict[str, Any]] = []
    for element in elements:
        if element["t"] not in ("poly", "rect", "line", "circle"):
            out.append(dict(element))
            continue
        last = out[-1] if out else None
        if last is not None and last["t"] == "path" and last["style"] == element["style"]:
            last["d"] += _path_data(element)
        else:
            out.append({"t": "path", "d": _path_data(element), "style": element["style"]})
    return out


def _inside(box: Sequence[float], view: Sequence[float]) -> bool:
    x0, y0, x1, y1 = box
    vx0, vy0, vx1, vy1 = view
    return x1 >= vx0 and x0 <= vx1 and y1 >= vy0 and y0 <= vy1


# ---------------------------------------------------------------- grid and hex canvases


@dataclass
class Canvas:
    """The whole map as shapes in canvas mm, plus what the pages' labels need."""

    width: float
    height: float
    map_box: tuple[float, float, float, float]
    elements: list[dict[str, Any]]
    edge_labels: list[dict[str, Any]]  # {edge, texts, style, from, to}: placed per page
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


def _digits(cols: int, rows: int) -> int:
    return max(2, len(str(max(cols, rows))))


def _coordinate(
    col: int,
    row: int,
    digits: int,
    cx: float,
    top: float,
    backed: bool,
    cell_h: float,
    half_room: float,
) -> dict[str, Any]:
    """A cell's coordinates, along its top edge; `cell_h` is its height and `half_room`
    half the width its top and bottom edges leave the words (the flat edge of a hex). The
    bands the words may move within, off a seam, are kept with them as ``room``."""
    line = TEXT_PT * LEADING * PT_MM
    made = _text([coordinate(col, row, digits)], cx, top + COORD_TOP_MM + line / 2, "coord",
                 backing=backed)  # fmt: skip
    left, right, bottom = cx - half_room, cx + half_room, top + cell_h
    band = cell_h / 4  # the middle half is the cell's own: a start hex's ship names
    made["room"] = [
        (left, top + COORD_EDGE_MM, right, top + band),
        (left, bottom - band, right, bottom - COORD_EDGE_MM),
    ]
    return made


def _crossed(box: Sequence[float], xs: Sequence[float], ys: Sequence[float]) -> bool:
    """Whether a seam (a line at x in `xs` down the whole map, or at y in `ys` across it)
    runs through `box` or within SEAM_CLEAR_MM of it."""
    x0, y0, x1, y1 = box
    c = SEAM_CLEAR_MM - 1e-6
    return any(x0 - c < x < x1 + c for x in xs) or any(y0 - c < y < y1 + c for y in ys)


def clear_of_seams(
    element: dict[str, Any], xs: Sequence[float], ys: Sequence[float]
) -> dict[str, Any] | None:
    """Return a cell's coordinates moved off the seams at `xs` and `ys` (themselves, if
    no seam comes near): to the nearest place in their bands; None if there is none."""
    if not _crossed(element["box"], xs, ys):
        return element
    x0, y0, x1, y1 = element["box"]
    half_w, half_h = (x1 - x0) / 2, (y1 - y0) / 2
    cx, cy = element["cx"], element["cy"]
    places = []
    for left, top, right, bottom in element["room"]:
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
    moved = _text(element["lines"], x, y, "coord", backing=element["backing"])
    moved["room"] = element["room"]
    return moved


def _cells(grid: Mapping[str, Any], legend: Mapping[str, Any]) -> dict[tuple[int, int], str]:
    """The style of every cell, by (column, row)."""
    return {
        (col, row): _terrain(legend, char)[1]
        for row, line in enumerate(grid["rows"])
        for col, char in enumerate(line)
    }


def grid_canvas(grid: Mapping[str, Any], sides: Sequence[Mapping[str, Any]]) -> Canvas:
    """Draw a square grid map at SQUARE_MM a square."""
    s, m = SQUARE_MM, MARGIN_MM
    cols, rows = int(grid["width"]), int(grid["height"])
    legend = dict(grid.get("legend") or {".": "sea", "#": "land"})
    width, height = cols * s + 2 * m, rows * s + 2 * m
    right, bottom = m + cols * s, m + rows * s
    cells = _cells(grid, legend)
    elements = [_rect(m, m, cols * s, rows * s, "sea")]
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
    digits = _digits(cols, rows)
    zoned = {c for _, first, n in zones for c in range(first, first + n)}
    for r in range(rows):
        for c in range(cols):
            backed = c in zoned or cells.get((c, r), "sea") != "sea"
            elements.append(
                _coordinate(c, r, digits, m + c * s + s / 2, m + r * s, backed, s, s / 2)
            )
    edge_labels = []
    if start:
        for side, edge_name in ((0, "west"), (1, "east")):
            if side < len(sides):
                name = str(sides[side].get("name", f"Side {side + 1}"))
                edge_labels.append(
                    {
                        "edge": edge_name,
                        "texts": [
                            f"{name}: start zone, the {start} {edge_name}ernmost columns",
                            f"{name}: start zone",
                        ],
                        "style": f"text{side}",
                        "from": m,
                        "to": bottom,
                    }
                )
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


def hex_canvas(grid: Mapping[str, Any], sides: Sequence[Mapping[str, Any]], units: str) -> Canvas:
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
        spots = starts.get(str(side_index), starts.get(side_index)) or []
        for ship, spot in zip(side.get(units, []), spots, strict=False):
            col, row = int(spot[0]), int(spot[1])
            placed.append(
                {"side": side_index, "cell": (col, row), "name": str(ship.get("name", ""))}
            )
    elements: list[dict[str, Any]] = []
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
    digits = _digits(cols, rows)
    started = {spot["cell"] for spot in placed}
    for row in range(rows):
        for col in range(cols):
            cx, cy = hex_centre(col, row)
            backed = (col, row) in started or cells.get((col, row), "sea") != "sea"
            elements.append(_coordinate(col, row, digits, cx, cy - f / 2, backed, f, r / 2))
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
    edge_labels = []
    if edge:
        left, top, right, bottom = m, m, m + map_w, m + map_h
        pos = {"west": left - 1.2, "east": right + 1.2, "north": top - 1.2, "south": bottom + 1.2}[
            edge
        ]
        if edge in ("east", "west"):
            elements.append(_line(pos, top, pos, bottom, "exit"))
        else:
            elements.append(_line(left, pos, right, pos, "exit"))
        edge_labels.append(
            {
                "edge": edge,
                "texts": ["Exit edge: the merchants escape off the map here", "Exit edge"],
                "style": "text",
                "from": top if edge in ("east", "west") else left,
                "to": bottom if edge in ("east", "west") else right,
                "arrows": True,
            }
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


# ---------------------------------------------------------------- pages


def _edge_label(
    spec: Mapping[str, Any], canvas: Canvas, core: tuple[float, float, float, float]
) -> list[dict[str, Any]]:
    """Place an edge's label (and its arrows) on one page, inside the page's own part of the
    canvas (not in an overlap strip), if that part shows the edge."""
    x0, y0, x1, y1 = core
    left, top, right, bottom = canvas.map_box
    edge = spec["edge"]
    vertical = edge in ("east", "west")
    lo, hi = max(spec["from"], y0 if vertical else x0), min(spec["to"], y1 if vertical else x1)
    if spec.get("arrows"):
        pos = {"west": left - 3.3, "east": right + 3.3, "north": top - 3.3, "south": bottom + 3.3}[
            edge
        ]
    else:
        pos = {
            "west": left - MARGIN_MM / 2 - 0.6,
            "east": right + MARGIN_MM / 2 + 0.6,
            "north": top - MARGIN_MM / 2 - 0.6,
            "south": bottom + MARGIN_MM / 2 + 0.6,
        }[edge]
    shown = (x0 <= pos <= x1) if vertical else (y0 <= pos <= y1)
    if not shown or hi - lo < 20:
        return []
    lo, hi = lo + 5, hi - 5  # clear of the registration marks on the seams
    room = hi - lo - (12 if spec.get("arrows") else 0)
    text = next((t for t in spec["texts"] if text_width_mm(t, "sans", TEXT_PT) <= room), None)
    if text is None:
        return []
    middle = (lo + hi) / 2
    rotate = {"west": -90, "east": 90}.get(edge, 0)
    out = [
        _text([text], pos, middle, spec["style"], rotate=rotate)
        if vertical
        else _text([text], middle, pos, spec["style"])
    ]
    if spec.get("arrows"):
        half = text_width_mm(text, "sans", TEXT_PT) / 2 + 4
        out_dir = {"west": (-1, 0), "east": (1, 0), "north": (0, -1), "south": (0, 1)}[edge]
        tip = {"west": left - 0.2, "east": right + 0.2, "north": top - 0.2, "south": bottom + 0.2}[
            edge
        ]
        tip = tip + 4.6 * (out_dir[0] + out_dir[1])
        for along in (middle - half, middle + half):
            if vertical:
                out.append(_arrow_head(tip, along, *out_dir))
            else:
                out.append(_arrow_head(along, tip, *out_dir))
    return out


def _gaps(
    lo: float, hi: float, at: float, boxes: Sequence[Sequence[float]], vertical: bool
) -> list[tuple[float, float]]:
    """Return the stretches of the line `at` from `lo` to `hi` that miss every box (text),
    so a dashed overlap line never runs through a ship's name or a cell's coordinates."""
    cuts = sorted(
        (b[1] - 0.8, b[3] + 0.8) if vertical else (b[0] - 0.8, b[2] + 0.8)
        for b in boxes
        if (b[0] - 0.8 <= at <= b[2] + 0.8 if vertical else b[1] - 0.8 <= at <= b[3] + 0.8)
    )
    out, start = [], lo
    for a, b in cuts:
        if a > start:
            out.append((start, min(a, hi)))
        start = max(start, b)
    if start < hi:
        out.append((start, hi))
    return [(a, b) for a, b in out if b > a]


def _seam_marks(
    t: Tile, columns: int, rows: int, texts: Sequence[Sequence[float]]
) -> list[dict[str, Any]]:
    """The overlap marks of one page: solid trim lines on its left and top edges where it
    lies over a neighbour, dashed lines where a neighbour lies over it, and registration
    marks on those lines (half on each page once assembled), each slid along its seam off
    any words (the same on both pages of a seam: they are worked out from the seam alone)."""
    out: list[dict[str, Any]] = []
    x0, y0, x1, y1 = t.x, t.y, t.x + t.width, t.y + t.height
    seams: list[tuple[str, float]] = []
    if t.column > 0:
        out.append(_line(x0 + 0.15, y0, x0 + 0.15, y1, "cut"))
        seams.append(("v", x0))
    if t.row > 0:
        out.append(_line(x0, y0 + 0.15, x1, y0 + 0.15, "cut"))
        seams.append(("h", y0))
    if t.column < columns - 1:
        x = x1 - OVERLAP_MM
        out += [_line(x, a, x, b, "fold") for a, b in _gaps(y0, y1, x, texts, vertical=True)]
        seams.append(("v", x))
    if t.row < rows - 1:
        y = y1 - OVERLAP_MM
        out += [_line(a, y, b, y, "fold") for a, b in _gaps(x0, x1, y, texts, vertical=False)]
        seams.append(("h", y))
    for direction, at in seams:
        lo, hi = (y0, y1) if direction == "v" else (x0, x1)
        across = (0, 2) if direction == "v" else (1, 3)
        near = [b for b in texts if b[across[0]] - 4 <= at <= b[across[1]] + 4]
        k = math.ceil((lo + 12) / MARK_EVERY_MM)
        while k * MARK_EVERY_MM <= hi - 12:
            for slide in MARK_SLIDE_MM:
                along = k * MARK_EVERY_MM + slide
                cx, cy = (at, along) if direction == "v" else (along, at)
                if not any(_inside(box, (cx - 4, cy - 4, cx + 4, cy + 4)) for box in near):
                    out.append(_circle(cx, cy, 1.6, "mark"))
                    out.append(_line(cx - 3, cy, cx + 3, cy, "mark"))
                    out.append(_line(cx, cy - 3, cx, cy + 3, "mark"))
                    break
            k += 1
    return out


KEY_ROOM = (26.0, 9.2)  # the key map's largest size in the header, mm
LABEL_SIZES = (9.0, 8.0, 7.0)  # the page label's, the largest at which it keeps to LABEL_MM
LABEL_MM = 32.0
ROSE_CENTRE = (6.2, 7.8)  # the wind rose in its box, mm from the box's top-left
ROSE_R = 4.4  # its ring
ROSE_BOX_MM = 14.0  # the rose's box; its words stand to its right
ARROW_R = 3.4  # the arrow's tail and tip from the centre: inside the ring, clear of the N


def page_name(t: Tile) -> str:
    """The name a tile's page goes by on the sheet and its key map: "Tile A1"."""
    return f"Tile {t.label}"


def header_right(t: Tile, columns: int, rows: int) -> dict[str, Any]:
    """Lay out the page label ("Tile B1 · Page 2 of 8", the tiles counted row by row, as
    they are printed) and the key map of the pages (this one filled), mm from the right
    block's top-left (HEAD_RIGHT_MM - 2 wide); the key map ends HEAD_CLEAR_MM above the
    map window."""
    width = HEAD_RIGHT_MM - 2
    cw, ch = min(6.0, KEY_ROOM[0] / columns), min(4.6, KEY_ROOM[1] / rows)
    key_w, key_h = columns * cw, rows * ch
    bold = page_name(t)
    rest = page_label(t.row * columns + t.column + 1, columns * rows, bold)[len(bold) :]
    size = LABEL_SIZES[-1]
    for size in LABEL_SIZES:
        if text_width_mm(bold, "sans-bold", size) + text_width_mm(rest, "sans", size) <= LABEL_MM:
            break
    label_w = text_width_mm(bold, "sans-bold", size) + text_width_mm(rest, "sans", size)
    cells = []
    for r in range(rows):
        for c in range(columns):
            name = f"{column_letters(c)}{r + 1}"
            fits = text_width_mm(name, "sans-bold", TEXT_PT) + 0.6 <= cw and ch >= 3.2
            cells.append(
                {
                    "x": round(width - key_w + c * cw, 2),
                    "y": round(HEADER_MM - HEAD_CLEAR_MM - key_h + r * ch, 2),
                    "here": (c, r) == (t.column, t.row),
                    "label": name if fits else "",
                }
            )
    return {
        "w": width,
        "label": {"x": round(width - label_w, 2), "bold": bold, "rest": rest, "size": size},
        "cells": cells,
        "cw": round(cw, 2),
        "ch": round(ch, 2),
        "left": round(width - max(key_w, label_w), 2),  # the words of the wind end here
    }


def wind_rose(wind: Mapping[str, Any] | None) -> dict[str, Any]:
    """The wind rose: a ring with N above it (outside, so the arrow never covers it) and an
    arrow inside, blowing from `from_bearing` (degrees, north 0, clockwise); mm from the
    rose's box, ROSE_CENTRE its centre."""
    cx, cy = ROSE_CENTRE
    rose: dict[str, Any] = {
        "calm": True,
        "centre": ROSE_CENTRE,
        "r": ROSE_R,
        "north": _text(["N"], cx, cy - ROSE_R - 2.05, font="sans-bold"),
    }
    if not wind:
        return rose | {"text": "no wind given"}
    # said as the briefing says it, and the rules: "from the north-west", not "nw"
    bearing = wind.get("from_bearing")
    if not isinstance(bearing, int | float) or isinstance(bearing, bool):
        return rose | {"text": f"Wind: {wind_words(wind) or 'none'}"}
    b = math.radians(float(bearing))
    ux, uy = math.sin(b), -math.cos(b)  # towards where the wind comes from (y down)
    tail = (cx + ARROW_R * ux, cy + ARROW_R * uy)
    tip = (cx - ARROW_R * ux, cy - ARROW_R * uy)
    head = _arrow_head(tip[0], tip[1], -ux, -uy, 2.3)
    neck = (tip[0] + ux * 1.8, tip[1] + uy * 1.8)  # the shaft stops inside the head
    return rose | {
        "calm": False,
        "shaft": _line(tail[0], tail[1], neck[0], neck[1], "arrowline"),
        "head": head,
        "text": f"Wind {wind_words(wind) or f'from {float(bearing):g}°'}",
    }


def assembly_note(t: Tile, columns: int, rows: int) -> str:
    """Say how page `t` is joined to its neighbours."""
    if columns * rows == 1:
        return "The whole map is on this page."
    trims = [side for side, has in (("left", t.column > 0), ("top", t.row > 0)) if has]
    words = []
    if trims:
        many = len(trims) > 1
        words.append(
            f"Trim the solid {' and '.join(trims)} {'edges' if many else 'edge'}; lay this page "
            f"on {'its neighbours' if many else 'its neighbour'} up to the dashed "
            f"{'lines' if many else 'line'}, marks matched."
        )
    right = f"{column_letters(t.column + 1)}{t.row + 1}" if t.column < columns - 1 else ""
    below = f"{column_letters(t.column)}{t.row + 2}" if t.row < rows - 1 else ""
    if right and below:
        words.append(f"{right} goes on the dashed strip at the right, {below} on the one below.")
    elif right or below:
        words.append(
            f"{right or below} goes on the dashed strip {'at the right' if right else 'below'}."
        )
    return " ".join(words)


def _pages(canvas: Canvas, paper: str, ruleset_name: str) -> tuple[int, int, list[dict[str, Any]]]:
    w, h = window(paper)
    columns, rows, tiles = tile(canvas.width, canvas.height, w, h)
    # the seams: each is a trim line on one page and the dashed line on its neighbour
    xs = sorted({t.x for t in tiles if t.column > 0})
    ys = sorted({t.y for t in tiles if t.row > 0})
    placed = [
        clear_of_seams(e, xs, ys) if e["t"] == "text" and e["style"] == "coord" else e
        for e in canvas.elements
    ]
    drawn = [e for e in placed if e is not None]
    texts = [e["box"] for e in drawn if e["t"] == "text"]
    room = header_text_width(paper)
    pages = []
    for t in tiles:
        view = (t.x, t.y, t.x + t.width, t.y + t.height)
        elements = [e for e in drawn if _inside(e["box"], view)]
        core = (
            t.x + (OVERLAP_MM if t.column > 0 else 0),
            t.y + (OVERLAP_MM if t.row > 0 else 0),
            t.x + t.width - (OVERLAP_MM if t.column < columns - 1 else 0),
            t.y + t.height - (OVERLAP_MM if t.row < rows - 1 else 0),
        )
        for spec in canvas.edge_labels:
            elements += _edge_label(spec, canvas, core)
        note = f"{canvas.description}. {assembly_note(t, columns, rows)}"
        lines = wrap(f"{ruleset_name}: {note}", "sans", TEXT_PT, room)
        if len(lines) > NOTE_LINES:
            raise QuartermasterError(f"the map page's note does not fit its header: {note}")
        pages.append(
            {
                "label": t.label,
                "column": t.column,
                "row": t.row,
                "x": t.x,
                "y": t.y,
                "w": t.width,
                "h": t.height,
                "elements": elements,
                "marks": _seam_marks(t, columns, rows, texts),
                "head": header_right(t, columns, rows),
                "note": note,
                "note_lines": lines,
            }
        )
    return columns, rows, pages


# ---------------------------------------------------------------- a table's plan


def plan_scale(width_cm: float, height_cm: float, room_w: float, room_h: float) -> float:
    """Return the smallest 1:N of PLAN_SCALES at which the table fits room_w x room_h mm."""
    for n in PLAN_SCALES:
        if width_cm * 10 / n <= room_w and height_cm * 10 / n <= room_h:
            return float(n)
    raise InputError(f"a table of {width_cm} × {height_cm} cm is too large to print as a plan")


PLAN_LEFT_MM = 6.0  # room left of the plan for the tick labels (cm down the table)


def table_plan(
    layout: Mapping[str, Any], sides: Sequence[Mapping[str, Any]], paper: str
) -> dict[str, Any]:
    """Draw a table map (cm) as a plan at a round scale that fits the page width; shapes
    in mm from the plan's top-left (the plan's edge 1 mm in)."""
    pw, _ = PRINTABLE_MM[paper]
    width_cm, height_cm = float(layout["width_cm"]), float(layout["height_cm"])
    n = plan_scale(width_cm, height_cm, pw - PLAN_LEFT_MM - 2, 150)
    k = 10 / n  # mm on paper per cm on the table
    m = 1.0
    w, h = width_cm * k, height_cm * k
    elements: list[dict[str, Any]] = [_rect(m, m, w, h, "sea")]
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
    labels: list[dict[str, Any]] = []
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
        ticks.append({"x": round(min(m + x * k, m + w - half), 2), "text": f"{x}"})
    yticks = [{"y": round(m + y * k, 2), "text": f"{y}"} for y in range(0, int(height_cm) + 1, 30)]
    return {
        "scale": f"1:{n:g}",
        "scale_note": (
            f"scale 1:{n:g}: 1 mm on the plan is 1 cm on the table"
            if n == 10
            else f"scale 1:{n:g}: 1 cm on the plan is {n / 10:g} cm on the table"
        ),
        "k": k,
        "width": round(w + 2 * m, 2),
        "height": round(h + 2 * m, 2),
        "elements": elements + labels,
        "xticks": ticks,
        "yticks": yticks,
        "size_text": f"{width_cm:g} × {height_cm:g} cm",
    }


# ---------------------------------------------------------------- the legend


def legend_layout(
    entries: Sequence[Mapping[str, str]], width: float, note: str = ""
) -> dict[str, Any]:
    """Place the legend's swatches and words in rows across `width` mm, and a `note` after
    them (words without a swatch), in at most LEGEND_ROWS rows."""
    items, x, y = [], 0.0, 0.0
    for entry in [*entries, *([{"style": "", "name": note}] if note else [])]:
        swatch = SWATCH_MM[0] + 1.2 if entry["style"] else 0.0
        w = swatch + text_width_mm(entry["name"], "sans", TEXT_PT) + 3.0
        if x and x + w > width:
            x, y = 0.0, y + LEGEND_ROW_MM
            if y >= LEGEND_ROW_MM * LEGEND_ROWS:
                raise InputError("the map's legend does not fit its footer")
        items.append(
            {"style": entry["style"], "name": entry["name"], "x": round(x, 2), "y": round(y, 2),
             "text_x": round(x + swatch, 2)}
        )  # fmt: skip
        x += w
    return {"w": round(width, 2), "h": round(y + 4.6, 2), "items": items}


def _swatch(style: str) -> list[dict[str, Any]]:
    """The shapes of a legend swatch, mm from its top-left (SWATCH_MM)."""
    w, h = SWATCH_MM
    if style.startswith("zonekey"):
        side = style[7:]
        return [_rect(0.2, 0.2, w - 0.4, h - 0.4, f"zone{side}"),
                _rect(0.55, 0.55, w - 1.1, h - 1.1, f"zoneline{side}")]  # fmt: skip
    if style.startswith("startkey"):
        side = style[8:]
        outer = [(1.3, 0.2), (w - 1.3, 0.2), (w - 0.1, h / 2), (w - 1.3, h - 0.2),
                 (1.3, h - 0.2), (0.1, h / 2)]  # fmt: skip
        inner = [(1.6, 0.65), (w - 1.6, 0.65), (w - 0.65, h / 2), (w - 1.6, h - 0.65),
                 (1.6, h - 0.65), (0.65, h / 2)]  # fmt: skip
        return [_poly(outer, f"start{side}"), _poly(inner, f"zoneline{side}")]
    if style == "exitkey":
        return [_line(0.3, h / 2, w - 2.2, h / 2, "exit"), _arrow_head(w - 0.1, h / 2, 1, 0, 2.4)]
    if style == "markkey":
        cx, cy = w / 2, h / 2
        return [_circle(cx, cy, 1.5, "mark"), _line(cx - 2.9, cy, cx + 2.9, cy, "mark"),
                _line(cx, cy - 2.2, cx, cy + 2.2, "mark")]  # fmt: skip
    if style in ("sea", ""):
        return [_rect(0.2, 0.2, w - 0.4, h - 0.4, "gridline")] if style else []
    box = _rect(0.2, 0.2, w - 0.4, h - 0.4, style)
    x0, y0, x1, y1 = 0.2, 0.2, w - 0.2, h - 0.2
    edge = f"{style}edge"
    return [box] + [_line(*e, edge) for e in ((x0, y0, x1, y0), (x1, y0, x1, y1),
                                               (x1, y1, x0, y1), (x0, y1, x0, y0))]  # fmt: skip


# ---------------------------------------------------------------- the context


def has_map(ruleset: str) -> bool:
    """Return whether `ruleset` is played on a map (its spec has a ``map`` section)."""
    return ruleset in serving("map")


@cache
def map_house_tables(ruleset: str) -> tuple[str, ...]:
    """Return the house tables the map of `ruleset` is drawn from (its layout, the wind),
    as its spec's ``map`` section lists them: those a scenario rolled on are named on the
    map itself, where its players read it."""
    raw, spec = sheet_section(ruleset, "map")
    listed = raw.get("house_tables", [])
    if (
        set(raw) - {"house_tables"}
        or not isinstance(listed, list)
        or not all(isinstance(t, str) and t.startswith(f"{ruleset}.") for t in listed)
    ):
        raise SpecError(
            f"{spec.where('map')}: a map section may have house_tables, the ids of the "
            f"{ruleset} house tables the map is drawn from"
        )
    return tuple(listed)


def context(
    rules: Rules, data: dict[str, Any] | None, paper: str, ruleset: str | None
) -> dict[str, Any]:
    if data is None:
        raise InputError("the map is a scenario's: give --seed or --from")
    found = str(data.get("ruleset", ruleset))
    grid = data.get("map")
    if grid is None or not has_map(found):
        without = [r for r in ruleset_ids() if not has_map(r)]
        raise InputError(
            f"a {found} scenario has no map ({', '.join(without)} are played without one): "
            f"the map sheet serves {', '.join(serving('map'))}"
        )
    if ruleset is not None and found != ruleset:
        raise InputError(f"this is a {found} scenario, not {ruleset}")
    paper = PAPERS[paper]["name"]
    sides = list(data.get("sides", []))
    if len(sides) > 2:
        raise InputError(f"the map sheet marks two sides, this scenario has {len(sides)}")
    kind = str(grid.get("kind", ""))
    drawn_from = map_house_tables(found)
    house = [str(t) for t in data.get("house_tables", []) if t in drawn_from]
    wind = dict(data.get("wind") or {})
    title = str(data.get("title", ""))
    room = header_text_width(paper)
    title_size = next(
        (s for s in TITLE_SIZES if text_width_mm(f"Map — {title}", "serif", s) <= room),
        TITLE_SIZES[-1],
    )
    side_names = [str(s.get("name", "")) for s in sides]
    width = round(PRINTABLE_MM[paper][0] - 0.2, 1)
    common: dict[str, Any] = {
        "scenario_title": title,
        "title_size": title_size,
        "ruleset_name": found.capitalize(),
        "ruleset_title": rules.rulesets[found].title if found in rules.rulesets else found,
        "map_kind": kind,
        "house_tables": house,
        "house_note": house_tables_line(rules, house),
        "page_height": round(PRINTABLE_MM[paper][1] - 1.0, 1),
        "page_width": width,
        "sides": side_names,
    }
    if kind == "table":
        if "wind_from" in grid and "from_bearing" not in wind:
            wind["from_bearing"] = grid["wind_from"]
        legend = [
            {"style": "sea", "name": "Sea"},
            {"style": "land", "name": "Land: coast, island"},
            {"style": "shallows", "name": "Shoal"},
        ]
        for i, name in enumerate(side_names[:2]):
            legend.append({"style": f"zonekey{i}", "name": f"{name} deployment zone"})
        return common | {
            "plan": table_plan(grid, sides, paper),
            "columns": 1,
            "rows": 1,
            "pages": [],
            "legend": legend_layout(legend, width),
            "wind": wind_rose(wind),
            "features": [dict(f) for f in grid.get("features", [])],
            "deployment": [
                dict(z)
                | {"name": side_names[int(z["side"])] if int(z["side"]) < len(sides) else ""}
                for z in grid.get("deployment", [])
            ],
        }
    units = contract(found).units
    if kind == "grid":
        canvas = grid_canvas(grid, sides)
    elif kind == "hex":
        canvas = hex_canvas(grid, sides, units)
    else:
        raise InputError(f"map kind '{kind}': the map sheet prints grid, hex and table maps")
    rose = wind_rose(wind)
    columns, rows, pages = _pages(canvas, paper, common["ruleset_name"])
    digits = _digits(int(grid["width"]), int(grid["height"]))
    entries = [
        *canvas.legend,
        *([{"style": "markkey", "name": "overlap mark"}] if columns * rows > 1 else []),
        {"style": "", "name": f"Cells: {coordinate(4, 6, digits)} is column 5, row 7"},
    ]
    return common | {
        "plan": None,
        "columns": columns,
        "rows": rows,
        "pages": pages,
        "legend": legend_layout(entries, width),
        # the first page's footer names the house tables the map was drawn from
        "legend_first": legend_layout(entries, width, common["house_note"]),
        "description": canvas.description,
        "wind": rose,
        "window_w": window(paper)[0],
        "window_h": window(paper)[1],
    }


# ---------------------------------------------------------------- drawing


class _Painter:
    """Draws shapes given in some frame's mm onto the page: (x, y) of the frame is
    (ox + x, oy + y) mm from the page's top-left; `view` (frame mm) bounds the patterns."""

    def __init__(
        self, drawing: Drawing, ox: float, oy: float, view: tuple[float, float, float, float]
    ) -> None:
        self.drawing = drawing
        self.canvas = drawing.canvas
        self.ox, self.oy = ox, oy
        self.top = drawing.size_mm[1] - oy  # the frame's y = 0, in mm from the page's bottom
        self.view = view
        look = "mono" if drawing.mono else "colour"
        self.styles = STYLES[look]
        self.patterns = PATTERNS[look]

    def X(self, x: float) -> float:  # (a coordinate)
        return (self.ox + x) * MM

    def Y(self, y: float) -> float:
        return (self.top - y) * MM

    def paint(self, elements: Iterable[Mapping[str, Any]]) -> None:
        """Draw the elements in order, each run of shapes of one style as one path; the
        canvas's colours, pen and dashes are as they were after."""
        self.canvas.saveState()
        self._paint(elements)
        self.canvas.restoreState()

    def _paint(self, elements: Iterable[Mapping[str, Any]]) -> None:
        run: list[Mapping[str, Any]] = []
        for element in elements:
            if element["t"] == "text":
                self._shapes(run)
                run = []
                self.text(element)
            elif run and run[0]["style"] != element["style"]:
                self._shapes(run)
                run = [element]
            else:
                run.append(element)
        self._shapes(run)

    def _path(self, run: Sequence[Mapping[str, Any]]) -> str:
        """The run's shapes as PDF path operators, in points to 0.01 pt (written here: the
        canvas's own number formatting took most of a page's time)."""
        ox, top = self.ox, self.top
        ops: list[str] = []
        add = ops.append
        for e in run:
            kind = e["t"]
            if kind == "rect":
                add(f"{(ox + e['x']) * MM:.2f} {(top - e['y'] - e['h']) * MM:.2f} "
                    f"{e['w'] * MM:.2f} {e['h'] * MM:.2f} re")  # fmt: skip
            elif kind == "poly":
                (x, y), *rest = e["pts"]
                add(f"{(ox + x) * MM:.2f} {(top - y) * MM:.2f} m")
                for x, y in rest:
                    add(f"{(ox + x) * MM:.2f} {(top - y) * MM:.2f} l")
                add("h")
            elif kind == "line":
                add(f"{(ox + e['x1']) * MM:.2f} {(top - e['y1']) * MM:.2f} m "
                    f"{(ox + e['x2']) * MM:.2f} {(top - e['y2']) * MM:.2f} l")  # fmt: skip
            elif kind == "circle":
                add(_circle_ops((ox + e["cx"]) * MM, (top - e["cy"]) * MM, e["r"] * MM))
        return "\n".join(ops)

    def _stroke(self, style: Mapping[str, Any]) -> None:
        from reportlab.lib.colors import HexColor

        self.canvas.setStrokeColor(HexColor(style["stroke"]))
        self.canvas.setLineWidth(style["width"] * MM)
        dash = style.get("dash")
        if dash:
            self.canvas.setDash([d * MM for d in dash])
        else:
            self.canvas.setDash()

    def _shapes(self, run: Sequence[Mapping[str, Any]]) -> None:
        from reportlab.lib.colors import HexColor

        if not run:
            return
        style = self.styles[run[0]["style"]]
        fill = str(style.get("fill", "none"))
        if fill.startswith("pattern:"):
            self._pattern(run, fill[8:])
            return
        stroke = "stroke" in style
        if fill == "none" and not stroke:
            return
        if fill != "none":
            self.canvas.setFillColor(HexColor(fill))
        if stroke:
            self._stroke(style)
        paint = "B" if stroke and fill != "none" else "S" if stroke else "f"
        self.canvas.addLiteral(f"{self._path(run)}\n{paint}")

    def _pattern(self, run: Sequence[Mapping[str, Any]], name: str) -> None:
        """Fill the run's shapes with their ground, then draw the pattern clipped to them."""
        from reportlab.lib.colors import HexColor

        spec = self.patterns[name]
        canvas = self.canvas
        outline = self._path(run)
        if spec["ground"]:
            canvas.setFillColor(HexColor(spec["ground"]))
            canvas.addLiteral(f"{outline}\nf")
        vx0, vy0, vx1, vy1 = self.view
        boxes = [
            (max(b[0], vx0), max(b[1], vy0), min(b[2], vx1), min(b[3], vy1))
            for b in (e["box"] for e in run)
        ]
        boxes = [b for b in boxes if b[2] > b[0] and b[3] > b[1]]
        if not boxes:
            return
        canvas.saveState()
        canvas.addLiteral(f"{outline}\nW n")  # clip to the shapes
        canvas.setStrokeColor(HexColor(spec["ink"]))
        canvas.setLineWidth(spec["width"] * MM)
        canvas.setDash()
        if spec.get("dots"):  # dotted lines: round dots of no length, `dots` mm apart
            canvas.setLineCap(1)
            canvas.setDash([0, float(spec["dots"]) * MM])
        ox, top = self.ox, self.top
        if spec["kind"] == "dots":
            canvas.setLineCap(1)  # a round cap on a dash of no length is a dot
            # a pattern's strokes to 0.1 pt (0.04 mm): a dense one is most of a page's bytes
            ink = [
                f"{(ox + x) * MM:.1f} {(top - y) * MM:.1f} m {(ox + x) * MM + 0.1:.1f} "
                f"{(top - y) * MM:.1f} l"
                for x, y in pattern_dots(spec["step"], boxes)
            ]
        else:
            ink = [
                f"{(ox + ax) * MM:.1f} {(top - ay) * MM:.1f} m "
                f"{(ox + bx) * MM:.1f} {(top - by) * MM:.1f} l"
                for (ax, ay), (bx, by) in pattern_strokes(spec, boxes)
            ]
        canvas.addLiteral("\n".join(ink) + "\nS")
        canvas.restoreState()

    def text(self, e: Mapping[str, Any]) -> None:
        """Draw a text element: its lines centred on its centre, turned, on white if asked."""
        from reportlab.lib.colors import HexColor

        canvas = self.canvas
        style = self.styles[e["style"]]
        size, w, h = e["size"], e["w"], e["h"]
        line = size * LEADING * PT_MM
        turned = bool(e["rotate"])
        outline = style.get("outline")
        if turned or outline:
            canvas.saveState()  # the turn and the outline mode hold until restored
        x_of: Callable[[float], float] = self.X
        y_of: Callable[[float], float] = self.Y
        left, top, cx = e["cx"] - w / 2, e["cy"] - h / 2, e["cx"]
        if turned:  # set about the text's centre, in the turned frame
            canvas.translate(self.X(e["cx"]), self.Y(e["cy"]))
            canvas.rotate(-e["rotate"])  # ReportLab turns anticlockwise
            left, top, cx = -w / 2, -h / 2, 0.0
            x_of, y_of = (lambda v: v * MM), (lambda v: -v * MM)
        if e["backing"]:
            pad = BACKING_PAD_MM
            canvas.setFillColor(HexColor("#ffffff"))
            canvas.rect(x_of(left - pad), y_of(top + h + 0.2), (w + 2 * pad) * MM, (h + 0.4) * MM,
                        stroke=0, fill=1)  # fmt: skip
        canvas.setFillColor(HexColor(style["fill"]))
        text = canvas.beginText()
        text.setFont(e["font"], size)
        if outline:
            canvas.setStrokeColor(HexColor(style["fill"]))
            canvas.setLineWidth(outline * MM)
            text.setTextRenderMode(1)  # the glyphs' outlines only: faint in black and white
        for i, words in enumerate(e["lines"]):
            baseline = top + line * (i + 0.78)
            width = text_width_mm(words, e["font"], size)
            text.setTextOrigin(x_of(cx - width / 2), y_of(baseline))
            text.textOut(words)
        canvas.drawText(text)
        if turned or outline:
            canvas.restoreState()


Segment = tuple[tuple[float, float], tuple[float, float]]
KAPPA = 0.5523  # a quarter circle's Bézier handles, in radii


def _circle_ops(cx: float, cy: float, r: float) -> str:
    """A circle as PDF path operators (points)."""
    k = KAPPA * r
    return (
        f"{cx + r:.2f} {cy:.2f} m "
        f"{cx + r:.2f} {cy + k:.2f} {cx + k:.2f} {cy + r:.2f} {cx:.2f} {cy + r:.2f} c "
        f"{cx - k:.2f} {cy + r:.2f} {cx - r:.2f} {cy + k:.2f} {cx - r:.2f} {cy:.2f} c "
        f"{cx - r:.2f} {cy - k:.2f} {cx - k:.2f} {cy - r:.2f} {cx:.2f} {cy - r:.2f} c "
        f"{cx + k:.2f} {cy - r:.2f} {cx + r:.2f} {cy - k:.2f} {cx + r:.2f} {cy:.2f} c h"
    )


def pattern_lines(spec: Mapping[str, Any], box: Box) -> list[Segment]:
    """The strokes of a hatch, cross, dashes or plus pattern over `box` (mm, y down)."""
    return pattern_strokes(spec, [box])


def pattern_strokes(spec: Mapping[str, Any], boxes: Sequence[Box]) -> list[Segment]:
    """The strokes of a hatch, cross, dashes or plus pattern over the union of `boxes`,
    each stroke once: one lattice wherever it is drawn, so neighbouring shapes' patterns
    join up, and nothing is drawn where no shape is (a page's scattered shallows do not
    fill the page with dots to clip)."""
    step = float(spec["step"])
    kind = spec["kind"]
    out: list[Segment] = []
    if kind in ("hatch", "cross"):
        for angle in (spec["angle"], spec["angle"] + 90) if kind == "cross" else (spec["angle"],):
            a = math.radians(angle)
            c, s = math.cos(a), math.sin(a)
            spans: dict[int, list[tuple[float, float]]] = {}
            for x0, y0, x1, y1 in boxes:
                corners = ((x0, y0), (x1, y0), (x0, y1), (x1, y1))
                us = [c * x + s * y for x, y in corners]  # across the lines
                vs = [-s * x + c * y for x, y in corners]  # along them
                for k in range(math.ceil(min(us) / step), math.floor(max(us) / step) + 1):
                    spans.setdefault(k, []).append((min(vs), max(vs)))
            for k, found in sorted(spans.items()):
                u = k * step
                for v0, v1 in _union(found):
                    out.append(((c * u - s * v0, s * u + c * v0), (c * u - s * v1, s * u + c * v1)))
    elif kind == "dashes":
        dash, row = float(spec["dash"]), step / 2
        marks: set[tuple[int, int]] = set()
        for x0, y0, x1, y1 in boxes:
            for j in range(math.floor(y0 / row), math.ceil(y1 / row) + 1):
                shift = (j % 2) * step
                first = math.floor((x0 - shift - dash) / (2 * step))
                for i in range(first, math.ceil((x1 - shift) / (2 * step)) + 1):
                    marks.add((j, i))
        for j, i in sorted(marks):
            x, y = (j % 2) * step + i * 2 * step, j * row + row / 2
            out.append(((x, y), (x + dash, y)))
    elif kind == "plus":
        arm = float(spec["arm"]) / 2
        crosses: set[tuple[int, int]] = set()
        for x0, y0, x1, y1 in boxes:
            for j in range(math.floor(y0 / step) - 1, math.ceil(y1 / step) + 1):
                for i in range(math.floor(x0 / step) - 1, math.ceil(x1 / step) + 1):
                    crosses.add((j, i))
        for j, i in sorted(crosses):
            x, y = i * step + (j % 2) * step / 2 + step / 4, j * step + step / 2
            out.append(((x - arm, y), (x + arm, y)))
            out.append(((x, y - arm), (x, y + arm)))
    return out


def _union(spans: list[tuple[float, float]]) -> list[tuple[float, float]]:
    out: list[tuple[float, float]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def pattern_dots(step: float, boxes: Sequence[Box]) -> list[tuple[float, float]]:
    """The dots of a dots pattern over the union of `boxes`: two a `step` square,
    staggered, each once."""
    found: set[tuple[int, int, int]] = set()
    for x0, y0, x1, y1 in boxes:
        for j in range(math.floor(y0 / step) - 1, math.ceil(y1 / step) + 1):
            for i in range(math.floor(x0 / step) - 1, math.ceil(x1 / step) + 1):
                found.add((j, i, 0))
                found.add((j, i, 1))
    return [(i * step + step * (1 + 2 * h) / 4, j * step + step * (1 + 2 * h) / 4)
            for j, i, h in sorted(found)]  # fmt: skip


def _origin(boxes: Mapping[str, Box]) -> tuple[float, float]:
    """The frame's top-left, mm from the paper's: where the sheet's ink begins."""
    art = boxes.get("art")
    if art is not None:
        return art[0], art[1]
    return 11.0, 10.0


def _colour(name: str) -> Any:
    from reportlab.lib.colors import HexColor

    return HexColor(name)


def _fitted(text: str, font: str, width: float, height: float, sizes: tuple[float, ...]) -> Fitted:
    return fit_or_refuse(text, font, width, height, sizes, "the map's words do not fit")


def draw(
    drawing: Drawing,
    context: dict[str, Any],
    *,
    boxes: Mapping[str, Box],
    fillable: bool,
    field_prefix: str,
) -> None:
    """Draw the map: a page for each tile, or the table's plan on one page."""
    left, top = _origin(boxes)
    if context["plan"] is not None:
        drawing.new_page(boxes)
        _draw_plan(drawing, context, left, top)
        return
    for index, page in enumerate(context["pages"]):
        drawing.new_page(boxes)
        _draw_header(drawing, context, page, left, top)
        _draw_tile(drawing, page, left, top + HEADER_MM)
        legend = context["legend_first"] if index == 0 else context["legend"]
        window_bottom = top + context["page_height"] - FOOTER_MM
        _draw_legend(drawing, legend, left, window_bottom + LEGEND_GAP_MM)


def _draw_tile(drawing: Drawing, page: Mapping[str, Any], left: float, top: float) -> None:
    """One page's window on the map, clipped to it."""
    x, y, w, h = page["x"], page["y"], page["w"], page["h"]
    canvas = drawing.canvas
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(drawing.x(left), drawing.y(top + h), w * MM, h * MM)
    canvas.clipPath(clip, stroke=0, fill=0)
    painter = _Painter(drawing, left - x, top - y, (x, y, x + w, y + h))
    painter.paint(page["elements"])
    painter.paint(page["marks"])
    canvas.restoreState()


def _draw_header(
    drawing: Drawing, context: Mapping[str, Any], page: Mapping[str, Any], left: float, top: float
) -> None:
    canvas = drawing.canvas
    room = header_text_width(drawing.paper)
    title = _fitted(f"Map — {context['scenario_title']}", "serif", room, 8.0,
                    (float(context["title_size"]),))  # fmt: skip
    below = write(drawing, title, left, top - 0.6, room, colour="accent")
    note = Fitted("sans", TEXT_PT, tuple(page["note_lines"]))
    write(drawing, note, left, below + 0.1, room)
    # the right block: the wind rose and its words, the page label and the key map
    head = page["head"]
    rx = left + context["page_width"] - head["w"]
    _draw_rose(drawing, context["wind"], rx, top, head["left"] - ROSE_BOX_MM - 1.5)
    label = head["label"]
    canvas.setFillColor(_colour(drawing.colours["ink"]))
    baseline = drawing.y(top + LABEL_SIZES[0] * PT_MM * 0.85)
    canvas.setFont("sans-bold", label["size"])
    canvas.drawString(drawing.x(rx + label["x"]), baseline, label["bold"])
    canvas.setFont("sans", label["size"])
    canvas.drawRightString(drawing.x(rx + head["w"]), baseline, label["rest"])
    cw, ch = head["cw"], head["ch"]
    canvas.setStrokeColor(_colour(drawing.colours["ink"]))
    canvas.setLineWidth(0.25 * MM)
    for cell in head["cells"]:
        x, y = rx + cell["x"], top + cell["y"]
        canvas.setFillColor(_colour(drawing.colours["ink" if cell["here"] else "paper"]))
        canvas.rect(drawing.x(x), drawing.y(y + ch), cw * MM, ch * MM, stroke=1, fill=1)
        if cell["label"]:
            font = "sans-bold" if cell["here"] else "sans"
            canvas.setFillColor(_colour(drawing.colours["paper" if cell["here"] else "ink"]))
            canvas.setFont(font, TEXT_PT)
            canvas.drawCentredString(
                drawing.x(x + cw / 2), drawing.y(y + ch / 2 + TEXT_PT * PT_MM * 0.36), cell["label"]
            )


def _draw_rose(
    drawing: Drawing,
    rose: Mapping[str, Any],
    left: float,
    top: float,
    words_w: float,
    *,
    centred: bool = False,
) -> None:
    """The wind rose at (left, top) and its words to its right, `words_w` wide, at the top
    (beside the page label) or `centred` on the rose."""
    painter = _Painter(drawing, left, top, (0.0, 0.0, ROSE_BOX_MM, ROSE_BOX_MM))
    cx, cy = rose["centre"]
    painter.paint(
        [
            _circle(cx, cy, rose["r"], "rose"),
            _line(cx, cy - rose["r"], cx, cy - rose["r"] + 1.0, "rose"),
        ]
    )
    painter.paint([rose["north"]])
    if not rose["calm"]:
        painter.paint([rose["shaft"], rose["head"]])
    words = _fitted(rose["text"], "sans", words_w, HEADER_MM - HEAD_CLEAR_MM, (7.5, 7.0))
    words_top = top + cy - words.height_mm / 2 if centred else top + 0.3
    write(drawing, words, left + ROSE_BOX_MM, words_top, words_w)


def _draw_legend(drawing: Drawing, legend: Mapping[str, Any], left: float, top: float) -> None:
    canvas = drawing.canvas
    for item in legend["items"]:
        x, y = left + item["x"], top + item["y"]
        if item["style"]:
            w, h = SWATCH_MM
            _Painter(drawing, x, y, (0.0, 0.0, w, h)).paint(_swatch(item["style"]))
        canvas.setFillColor(_colour(drawing.colours["ink"]))
        canvas.setFont("sans", TEXT_PT)
        canvas.drawString(
            drawing.x(left + item["text_x"]),
            drawing.y(y + SWATCH_MM[1] / 2 + TEXT_PT * PT_MM * 0.36),
            item["name"],
        )


def _draw_plan(drawing: Drawing, context: Mapping[str, Any], left: float, top: float) -> None:
    """The table's plan on one page: title, plan, wind, legend and the table of positions."""
    canvas = drawing.canvas
    width = context["page_width"]
    plan = context["plan"]
    # the page label at the title's right, the title keeping clear of it
    label = page_label(1, 1)
    size = LABEL_SIZES[0]
    label_w = text_width_mm(label, "sans", size) + 3.0
    title = _fitted(f"Table plan — {context['scenario_title']}", "serif", width - label_w, 16.0,
                    (16.0, 14.0, 12.0, 11.0, 10.0))  # fmt: skip
    canvas.setFillColor(_colour(drawing.colours["faint"]))
    canvas.setFont("sans", size)
    baseline = top + title.size * LEADING * PT_MM * 0.78
    canvas.drawRightString(drawing.x(left + width), drawing.y(baseline), label)
    y = write(drawing, title, left, top, width - label_w, colour="accent")
    intro = (
        f"{context['ruleset_title']}: the table, {plan['size_text']}, north at the top; "
        f"{plan['scale_note']}. Grid lines every 10 cm; the numbers are cm from the north-west "
        "corner."
    )
    y = write(drawing, _fitted(intro, "sans", width, 12.0, (8.0, 7.5, 7.0)), left, y + 0.8, width)
    # the plan, its tick labels above and to the left
    ox, oy = left + PLAN_LEFT_MM, y + 5.0
    canvas.setFillColor(_colour(drawing.colours["ink"]))
    canvas.setFont("sans", TEXT_PT)
    for tick in plan["xticks"]:
        canvas.drawCentredString(drawing.x(ox + tick["x"]), drawing.y(oy - 1.2), tick["text"])
    for tick in plan["yticks"]:
        canvas.drawRightString(
            drawing.x(ox - 1.0), drawing.y(oy + tick["y"] + TEXT_PT * PT_MM * 0.36), tick["text"]
        )
    painter = _Painter(drawing, ox, oy, (0.0, 0.0, plan["width"], plan["height"]))
    painter.paint(plan["elements"])
    y = oy + plan["height"] + 3.0
    # the wind and the legend
    _draw_rose(drawing, context["wind"], left, y, width - 16.0, centred=True)
    y += HEADER_MM + 1.0
    _draw_legend(drawing, context["legend"], left, y)
    y += context["legend"]["h"] + 3.0
    # the table of positions
    heading = _fitted("On the table", "serif", width, 8.0, (13.0,))
    y = write(drawing, heading, left, y, width, colour="accent")
    canvas.setStrokeColor(_colour(drawing.colours["rule"]))
    canvas.setLineWidth(0.4 * MM)
    canvas.line(drawing.x(left), drawing.y(y + 0.4), drawing.x(left + width), drawing.y(y + 0.4))
    rows = [("Zone or feature", "x (cm)", "y (cm)", "size (cm)")]
    for z in context["deployment"]:
        rows.append(_position(f"{z['name']} deployment zone", z))
    for f in context["features"]:
        rows.append(_position(f"{f.get('label', '')} ({f.get('type', '')})", f))
    y = _draw_table(drawing, rows, left, y + 1.6, width)
    if context["house_note"]:
        note = _fitted(context["house_note"], "sans-italic", width, 8.0, (7.5, 7.0))
        write(drawing, note, left, y + 2.0, width, colour="faint")


def _position(name: str, item: Mapping[str, Any]) -> tuple[str, str, str, str]:
    x, y, w, h = (item[k] for k in ("x_cm", "y_cm", "w_cm", "h_cm"))
    return name, f"{x:g}–{x + w:g}", f"{y:g}–{y + h:g}", f"{w:g} × {h:g}"


def _draw_table(
    drawing: Drawing, rows: Sequence[Sequence[str]], left: float, top: float, width: float
) -> float:
    """A plain table, the first row its heading; return the mm under it."""
    size, pad = 7.5, 1.6
    widths = [
        max(
            text_width_mm(row[i], "sans-bold" if j == 0 else "sans", size)
            for j, row in enumerate(rows)
        )
        + 2 * pad
        for i in range(len(rows[0]))
    ]
    scale = min(1.0, width / sum(widths))
    widths = [w * scale for w in widths]
    line = size * LEADING * PT_MM + 0.8
    canvas = drawing.canvas
    canvas.setStrokeColor(_colour(drawing.colours["rule"]))
    canvas.setLineWidth(0.25 * MM)
    y = top
    for j, row in enumerate(rows):
        if j == 0 and not drawing.mono:
            canvas.setFillColor(_colour(drawing.colours["tint"]))
            canvas.rect(
                drawing.x(left), drawing.y(y + line), sum(widths) * MM, line * MM, stroke=0, fill=1
            )
        x = left
        for cell, w in zip(row, widths, strict=True):
            fitted = _fitted(
                cell, "sans-bold" if j == 0 else "sans", w - 2 * pad, line, (size, 7.0)
            )
            write(drawing, fitted, x + pad, y + 0.4, w - 2 * pad)
            x += w
        y += line
        canvas.line(drawing.x(left), drawing.y(y), drawing.x(left + sum(widths)), drawing.y(y))
    x = left
    for w in [0.0, *widths]:
        x += w
        canvas.line(drawing.x(x), drawing.y(top), drawing.x(x), drawing.y(y))
    canvas.line(drawing.x(left), drawing.y(top), drawing.x(left + sum(widths)), drawing.y(top))
    return y
