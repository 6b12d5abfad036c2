"""The scenario's map, printed at play scale across as many pages as it needs.

A grid map (the scenario's ``map.kind``) prints with squares the size of the square
counters, a hex map with flat-topped hexes the size of the hex counters (cells.SQUARE_MM,
cells.HEX_MM). The map, with a narrow margin for the edge labels, is the "canvas"; it is
cut into page windows that overlap their neighbours by OVERLAP_MM, centred so the blank
paper is shared by the first and last pages. Every page draws the same canvas through its
own window (the SVG viewBox), so the overlap strips repeat exactly. A table map (measured
in cm, for miniatures) prints as a scaled plan on one page.

Assembly: each page with a neighbour to its left (above) is trimmed along its solid left
(top) frame line and laid on that neighbour up to the dashed line there; the registration
marks sit on that line, half on each page.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from generator.errors import InputError
from generator.generate.base import get_generator
from generator.loading import Rules
from generator.render.cells import HEX_MM, PRINTABLE_MM, SQUARE_MM
from generator.render.kinds.counters import (
    PT_MM,
    centred_x,
    fit_text,
    font_mm,
    text_lines,
    text_width,
)
from generator.render.sheets import PAPERS
from generator.rulesets import ruleset_ids, serving

OVERLAP_MM = 10.0
MARGIN_MM = 5.0  # around the map, on the canvas: edge labels, the exit edge
HEADER_MM = 14.5
FOOTER_MM = 12.5
TITLE_SIZES = (13.0, 12.0, 11.0, 10.0, 9.0)
HEAD_RIGHT_MM = 60.0  # the wind, the page label and the key map
MARK_EVERY_MM = 45.0  # registration marks along a seam
PLAN_SCALES = (10, 12.5, 15, 20, 25, 30, 40, 50, 75, 100)
TEXT_PT = 7.0

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

STYLES: dict[str, dict[str, dict[str, str]]] = {
    "colour": {
        "sea": {"fill": "#e8f1f6"},
        "land": {"fill": "pattern:land"},
        "fog": {"fill": "pattern:fog"},
        "shallows": {"fill": "pattern:shallows"},
        "other": {"fill": "pattern:other"},
        "gridline": {"stroke": "#8ea6b4", "width": "0.25"},
        "hexline": {"stroke": "#8ea6b4", "width": "0.25", "fill": "none"},
        "border": {"stroke": "#1d1b16", "width": "0.5", "fill": "none"},
        "zone0": {"fill": "#f3e1da"},
        "zone1": {"fill": "#dde7f2"},
        "zoneline0": {"stroke": "#7a2a18", "width": "0.7", "fill": "none"},
        "zoneline1": {"stroke": "#1f4e79", "width": "0.7", "fill": "none", "dash": "2.2 1.2"},
        "start0": {"fill": "#f3e1da"},
        "start1": {"fill": "#dde7f2"},
        "text": {"fill": "#1d1b16"},
        "text0": {"fill": "#7a2a18"},
        "text1": {"fill": "#1f4e79"},
        "exit": {"stroke": "#1d1b16", "width": "0.9", "fill": "none"},
        "arrow": {"fill": "#1d1b16"},
        "cut": {"stroke": "#1d1b16", "width": "0.3", "fill": "none"},
        "fold": {"stroke": "#1d1b16", "width": "0.3", "fill": "none", "dash": "1.5 1"},
        "mark": {"stroke": "#1d1b16", "width": "0.25", "fill": "none"},
        "planline": {"stroke": "#b9cbd6", "width": "0.2"},
        "deploy0": {"fill": "#f3e1da"},
        "deploy1": {"fill": "#dde7f2"},
    },
    "mono": {
        "sea": {"fill": "#ffffff"},
        "land": {"fill": "pattern:land"},
        "fog": {"fill": "pattern:fog"},
        "shallows": {"fill": "pattern:shallows"},
        "other": {"fill": "pattern:other"},
        "gridline": {"stroke": "#000000", "width": "0.2"},
        "hexline": {"stroke": "#000000", "width": "0.2", "fill": "none"},
        "border": {"stroke": "#000000", "width": "0.5", "fill": "none"},
        "zone0": {"fill": "none"},
        "zone1": {"fill": "none"},
        "zoneline0": {"stroke": "#000000", "width": "0.7", "fill": "none"},
        "zoneline1": {"stroke": "#000000", "width": "0.7", "fill": "none", "dash": "2.2 1.2"},
        "start0": {"fill": "#ffffff"},
        "start1": {"fill": "#ffffff"},
        "text": {"fill": "#000000"},
        "text0": {"fill": "#000000"},
        "text1": {"fill": "#000000"},
        "exit": {"stroke": "#000000", "width": "0.9", "fill": "none"},
        "arrow": {"fill": "#000000"},
        "cut": {"stroke": "#000000", "width": "0.3", "fill": "none"},
        "fold": {"stroke": "#000000", "width": "0.3", "fill": "none", "dash": "1.5 1"},
        "mark": {"stroke": "#000000", "width": "0.25", "fill": "none"},
        "planline": {"stroke": "#000000", "width": "0.12", "dash": "0.4 1.2"},
        "deploy0": {"fill": "none"},
        "deploy1": {"fill": "none"},
    },
}
# the patterns' colours: (background, lines or dots)
PATTERNS = {
    "colour": {
        "land": ("#dccb9f", "#8f7a4c"),
        "fog": ("#e3e6ea", "#6f7b8b"),
        "shallows": ("#f1e6bd", "#a08638"),
        "other": ("#e6e6e6", "#555555"),
    },
    "mono": {
        "land": ("#ffffff", "#000000"),
        "fog": ("#ffffff", "#000000"),
        "shallows": ("#ffffff", "#000000"),
        "other": ("#ffffff", "#000000"),
    },
}


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
    next by `overlap`, centred on the span (the spare paper shared by both ends)."""
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


# ---------------------------------------------------------------- drawing primitives


def _box(points: list[tuple[float, float]]) -> tuple[float, float, float, float]:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def _poly(points: list[tuple[float, float]], style: str) -> dict[str, Any]:
    return {
        "t": "poly",
        "points": " ".join(f"{x:.2f},{y:.2f}" for x, y in points),
        "style": style,
        "box": _box(points),
    }


def _rect(x: float, y: float, w: float, h: float, style: str) -> dict[str, Any]:
    return {
        "t": "rect",
        "x": round(x, 2),
        "y": round(y, 2),
        "w": round(w, 2),
        "h": round(h, 2),
        "style": style,
        "box": (x, y, x + w, y + h),
    }


def _line(x1: float, y1: float, x2: float, y2: float, style: str) -> dict[str, Any]:
    return {
        "t": "line",
        "x1": round(x1, 2),
        "y1": round(y1, 2),
        "x2": round(x2, 2),
        "y2": round(y2, 2),
        "style": style,
        "box": (min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)),
    }


def _circle(cx: float, cy: float, r: float, style: str) -> dict[str, Any]:
    return {
        "t": "circle",
        "cx": round(cx, 2),
        "cy": round(cy, 2),
        "r": r,
        "style": style,
        "box": (cx - r, cy - r, cx + r, cy + r),
    }


def _label(
    text: str, x: float, y: float, style: str = "text", rotate: int = 0, bold: bool = False
) -> dict[str, Any]:
    """One line of 7 pt text centred on (x, y), turned `rotate` degrees about that point."""
    size = TEXT_PT * PT_MM
    width = text_width(text, TEXT_PT, bold)
    half_w, half_h = width / 2, size * 0.6
    if rotate % 180:
        half_w, half_h = half_h, half_w
    return {
        "t": "text",
        "text": {
            "size": font_mm(TEXT_PT),
            "bold": bold,
            "lines": [
                {
                    "text": text,
                    "x": centred_x(text, x, TEXT_PT, bold),
                    "y": round(y + size * 0.36, 2),
                }
            ],
        },
        "rotate": f"rotate({rotate} {x:.2f} {y:.2f})" if rotate else "",
        "style": style,
        "box": (x - half_w, y - half_h, x + half_w, y + half_h),
    }


def _block_text(placed: dict[str, Any], style: str, box: tuple[float, ...]) -> dict[str, Any]:
    return {"t": "text", "text": placed, "rotate": "", "style": style, "box": box}


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


def _path_data(element: dict[str, Any]) -> str:
    if element["t"] == "poly":
        first, *rest = element["points"].split()
        return f"M{first}L{' '.join(rest)}Z"
    if element["t"] == "rect":
        x, y, w, h = element["x"], element["y"], element["w"], element["h"]
        return f"M{x},{y}h{w}v{h}h{-w}Z"
    if element["t"] == "circle":
        cx, cy, r = element["cx"], element["cy"], element["r"]
        return f"M{cx - r:.2f},{cy}a{r},{r} 0 1,0 {2 * r},0a{r},{r} 0 1,0 {-2 * r},0Z"
    return f"M{element['x1']},{element['y1']}L{element['x2']},{element['y2']}"


def merge(elements: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Join runs of shapes of one style into one path each (the same drawing, far fewer
    SVG nodes for WeasyPrint to parse, style and draw)."""
    out: list[dict[str, Any]] = []
    for element in elements:
        if element["t"] not in ("poly", "rect", "line", "circle"):
            out.append(element)
            continue
        last = out[-1] if out else None
        if last is not None and last["t"] == "path" and last["style"] == element["style"]:
            last["d"] += _path_data(element)
        else:
            out.append({"t": "path", "d": _path_data(element), "style": element["style"]})
    return out


def _inside(box: tuple[float, ...], view: tuple[float, float, float, float]) -> bool:
    x0, y0, x1, y1 = box
    vx0, vy0, vx1, vy1 = view
    return x1 >= vx0 and x0 <= vx1 and y1 >= vy0 and y0 <= vy1


# ---------------------------------------------------------------- grid and hex canvases


@dataclass
class Canvas:
    """The whole map drawn once, in canvas mm, plus what the page labels need."""

    width: float
    height: float
    map_box: tuple[float, float, float, float]
    elements: list[dict[str, Any]]
    edge_labels: list[dict[str, Any]]  # {edge, text, style, from, to}: placed per page
    legend: list[dict[str, str]]
    description: str


def _terrain(legend: dict[str, Any], char: str) -> tuple[str, str]:
    name = str(legend.get(char, "sea" if char == "." else char))
    return name, TERRAIN.get(name.lower(), "other")


def _legend_entries(legend: dict[str, Any]) -> list[dict[str, str]]:
    seen: list[dict[str, str]] = []
    for name in legend.values():
        style = TERRAIN.get(str(name).lower(), "other")
        if all(e["name"] != str(name) for e in seen):
            seen.append({"style": style, "name": str(name).capitalize()})
    return seen


def grid_canvas(grid: dict[str, Any], sides: list[dict[str, Any]]) -> Canvas:
    """Draw a square grid map at SQUARE_MM a square."""
    s, m = SQUARE_MM, MARGIN_MM
    cols, rows = int(grid["width"]), int(grid["height"])
    legend = dict(grid.get("legend") or {".": "sea", "#": "land"})
    width, height = cols * s + 2 * m, rows * s + 2 * m
    right, bottom = m + cols * s, m + rows * s
    elements = [_rect(m, m, cols * s, rows * s, "sea")]
    start = int(grid.get("start_columns") or 0)
    zones = []
    if start:
        zones = [(0, m, start), (1, right - start * s, start)]
        for side, x, n in zones:
            elements.append(_rect(x, m, n * s, rows * s, f"zone{side}"))
    for r, line in enumerate(grid["rows"]):
        for c, char in enumerate(line):
            if char == ".":
                continue
            _, style = _terrain(legend, char)
            if style != "sea":
                elements.append(_rect(m + c * s, m + r * s, s, s, style))
    for c in range(1, cols):
        elements.append(_line(m + c * s, m, m + c * s, bottom, "gridline"))
    for r in range(1, rows):
        elements.append(_line(m, m + r * s, right, m + r * s, "gridline"))
    for side, x, n in zones:
        elements.append(_rect(x + 0.35, m + 0.35, n * s - 0.7, rows * s - 0.7, f"zoneline{side}"))
    elements.append(_rect(m, m, cols * s, rows * s, "border"))
    edge_labels = []
    if start:
        for side, edge in ((0, "west"), (1, "east")):
            if side < len(sides):
                name = str(sides[side].get("name", f"Side {side + 1}"))
                edge_labels.append(
                    {
                        "edge": edge,
                        "texts": [
                            f"{name}: start zone, the {start} {edge}ernmost columns",
                            f"{name}: start zone",
                        ],
                        "style": f"text{side}",
                        "from": m,
                        "to": bottom,
                    }
                )
    entries = _legend_entries(legend)
    for side, _x, _n in zones:
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
    f = HEX_MM - 2 * inset
    r, h = f / math.sqrt(3), f / 2
    return [
        (cx + x, cy + y)
        for x, y in ((r, 0), (r / 2, h), (-r / 2, h), (-r, 0), (-r / 2, -h), (r / 2, -h))
    ]


def hex_canvas(grid: dict[str, Any], sides: list[dict[str, Any]], units: str) -> Canvas:
    """Draw a flat-topped odd-q hex map at HEX_MM across the flats."""
    f, m = HEX_MM, MARGIN_MM
    r = f / math.sqrt(3)
    cols, rows = int(grid["width"]), int(grid["height"])
    legend = dict(grid.get("legend") or {".": "sea"})
    map_w = 1.5 * r * (cols - 1) + 2 * r
    map_h = f * rows + (f / 2 if cols > 1 else 0)
    width, height = map_w + 2 * m, map_h + 2 * m
    elements: list[dict[str, Any]] = []
    for row, line in enumerate(grid["rows"]):
        for col, char in enumerate(line):
            _, style = _terrain(legend, char)
            elements.append(_poly(hex_points(*hex_centre(col, row)), style))
    elements.sort(key=lambda e: str(e["style"]))  # hexes do not overlap: group them to merge
    starts = grid.get("start") or {}
    placed: list[dict[str, Any]] = []
    for side_index, side in enumerate(sides):
        spots = starts.get(str(side_index), starts.get(side_index)) or []
        ships = side.get(units, [])
        for ship, spot in zip(ships, spots, strict=False):
            cx, cy = hex_centre(int(spot[0]), int(spot[1]))
            elements.append(_poly(hex_points(cx, cy, 0.2), f"start{side_index}"))
            placed.append(
                {"side": side_index, "cx": cx, "cy": cy, "name": str(ship.get("name", ""))}
            )
    for row in range(rows):
        for col in range(cols):
            elements.append(_poly(hex_points(*hex_centre(col, row)), "hexline"))
    for spot in placed:
        cx, cy, side_index = spot["cx"], spot["cy"], spot["side"]
        elements.append(_poly(hex_points(cx, cy, 0.6), f"zoneline{side_index}"))
        fitted = fit_text(spot["name"], r * 1.2, f * 0.62, (8.0, 7.5, 7.0), bold=True)
        if fitted is None:
            raise InputError(f"ship name '{spot['name']}' does not fit its start hex at 7 pt")
        text = text_lines(fitted, cx, cy - f * 0.31, f * 0.62, bold=True)
        elements.append(
            _block_text(text, f"text{side_index}", (cx - r, cy - f / 2, cx + r, cy + f / 2))
        )
    edge = str(grid.get("exit_edge") or "")
    edge_labels = []
    if edge:
        left, top, right, bottom = m, m, m + map_w, m + map_h
        x_or_y = {
            "west": left - 1.2,
            "east": right + 1.2,
            "north": top - 1.2,
            "south": bottom + 1.2,
        }
        pos = x_or_y[edge]
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
    spec: dict[str, Any], canvas: Canvas, core: tuple[float, float, float, float]
) -> list[dict[str, Any]]:
    """Place an edge's label (and its arrows) on one page, inside the page's own part of the
    canvas (not in an overlap strip), if that part shows the edge."""
    x0, y0, x1, y1 = core
    left, top, right, bottom = canvas.map_box
    edge = spec["edge"]
    vertical = edge in ("east", "west")
    lo, hi = max(spec["from"], y0 if vertical else x0), min(spec["to"], y1 if vertical else x1)
    pos = {"west": left - MARGIN_MM / 2 - 0.6, "east": right + MARGIN_MM / 2 + 0.6}.get(edge)
    if pos is None:
        pos = top - MARGIN_MM / 2 - 0.6 if edge == "north" else bottom + MARGIN_MM / 2 + 0.6
    if spec.get("arrows"):
        pos = {"west": left - 3.3, "east": right + 3.3, "north": top - 3.3, "south": bottom + 3.3}[
            edge
        ]
    shown = (x0 <= pos <= x1) if vertical else (y0 <= pos <= y1)
    if not shown or hi - lo < 20:
        return []
    out: list[dict[str, Any]] = []
    lo, hi = lo + 5, hi - 5  # clear of the registration marks on the seams
    room = hi - lo - (12 if spec.get("arrows") else 0)
    text = next((t for t in spec["texts"] if text_width(t, TEXT_PT) <= room), None)
    if text is None:
        return []
    middle = (lo + hi) / 2
    rotate = {"west": -90, "east": 90}.get(edge, 0)
    if vertical:
        out.append(_label(text, pos, middle, spec["style"], rotate))
    else:
        out.append(_label(text, middle, pos, spec["style"], rotate))
    if spec.get("arrows"):
        half = text_width(text, TEXT_PT) / 2 + 4
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
    lo: float, hi: float, at: float, boxes: list[tuple[float, ...]], vertical: bool
) -> list[tuple[float, float]]:
    """Return the stretches of the line `at` from `lo` to `hi` that miss every box (text),
    so a dashed overlap line never runs through a ship's name."""
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


def _seam_marks(t: Tile, columns: int, rows: int, canvas: Canvas) -> list[dict[str, Any]]:
    """The overlap marks of one page: solid trim lines on its left and top edges where it
    lies over a neighbour, dashed lines where a neighbour lies over it, and registration
    marks on those lines (half on each page once assembled)."""
    out: list[dict[str, Any]] = []
    x0, y0, x1, y1 = t.x, t.y, t.x + t.width, t.y + t.height
    seams: list[tuple[str, float]] = []
    if t.column > 0:
        out.append(_line(x0 + 0.15, y0, x0 + 0.15, y1, "cut"))
        seams.append(("v", x0))
    if t.row > 0:
        out.append(_line(x0, y0 + 0.15, x1, y0 + 0.15, "cut"))
        seams.append(("h", y0))
    texts = [e["box"] for e in canvas.elements if e["t"] == "text"]
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
        k = math.ceil((lo + 12) / MARK_EVERY_MM)
        while k * MARK_EVERY_MM <= hi - 12:
            along = k * MARK_EVERY_MM
            cx, cy = (at, along) if direction == "v" else (along, at)
            if any(_inside(box, (cx - 4, cy - 4, cx + 4, cy + 4)) for box in texts):
                k += 1
                continue
            out.append(_circle(cx, cy, 1.6, "mark"))
            out.append(_line(cx - 3, cy, cx + 3, cy, "mark"))
            out.append(_line(cx, cy - 3, cx, cy + 3, "mark"))
            k += 1
    return out


KEY_ROOM = (26.0, 9.2)  # the key map's largest size in the header, mm
LABEL_PT = 9.0


def header_right(t: Tile, columns: int, rows: int, wind: dict[str, Any]) -> dict[str, Any]:
    """Lay out the right of a page's header (one SVG): the wind rose and its words, the
    page label and the key map of the pages with this one filled."""
    width = HEAD_RIGHT_MM - 2
    cw, ch = min(6.0, KEY_ROOM[0] / columns), min(4.6, KEY_ROOM[1] / rows)
    key_w, key_h = columns * cw, rows * ch
    label = f"page {t.label}"
    rest = f" of {columns}×{rows}"
    label_w = text_width(label, LABEL_PT, True) + text_width(rest, LABEL_PT)
    right_w = max(key_w, label_w)
    size = LABEL_PT * PT_MM
    cells = []
    for r in range(rows):
        for c in range(columns):
            name = f"{column_letters(c)}{r + 1}"
            fits = text_width(name, TEXT_PT, True) + 0.6 <= cw and ch >= 3.2
            cells.append(
                {
                    "x": round(width - key_w + c * cw, 2),
                    "y": round(HEADER_MM - 0.4 - key_h + r * ch, 2),
                    "here": (c, r) == (t.column, t.row),
                    "label": name if fits else "",
                    "tx": centred_x(name, width - key_w + c * cw + cw / 2, TEXT_PT, True),
                    "ty": round(
                        HEADER_MM - 0.4 - key_h + r * ch + ch / 2 + TEXT_PT * PT_MM * 0.36, 2
                    ),
                }
            )
    words_w = width - 14.0 - right_w - 1.5
    fitted = fit_text(wind["text"], words_w, HEADER_MM - 1, (7.5, 7.0))
    if fitted is None:
        raise InputError(f"the wind '{wind['text']}' does not fit the map's header")
    return {
        "w": width,
        "h": HEADER_MM,
        "label": {
            "x": round(width - label_w, 2),
            "y": round(size * 0.8, 2),
            "x2": round(width - label_w + text_width(label, LABEL_PT, True) / 1.03, 2),
            "size": font_mm(LABEL_PT),
            "bold": label,
            "rest": rest.strip(),
        },
        "cells": cells,
        "cw": round(cw, 2),
        "ch": round(ch, 2),
        "wind": _start_at(text_lines(fitted, 14.0, 0.3, fitted.height), 14.0),
    }


def _start_at(placed: dict[str, Any], x: float) -> dict[str, Any]:
    for line in placed["lines"]:
        line["x"] = x
    return placed


LEGEND_ROWS = 2  # what the footer has room for


def legend_layout(entries: list[dict[str, str]], width: float, note: str = "") -> dict[str, Any]:
    """Place the legend's swatches and words in rows across `width` mm (one SVG), and a
    `note` after them (words without a swatch), in at most LEGEND_ROWS rows."""
    items, x, y = [], 0.0, 0.0
    for entry in [*entries, *([{"style": "", "name": note}] if note else [])]:
        swatch = 8.2 if entry["style"] else 0.0
        w = swatch + text_width(entry["name"], TEXT_PT) + 3.0
        if x and x + w > width:
            x, y = 0.0, y + 5.0
            if y >= 5.0 * LEGEND_ROWS:
                raise InputError("the map's legend does not fit its footer")
        items.append(
            {
                "style": entry["style"],
                "name": entry["name"],
                "x": round(x, 2),
                "y": round(y, 2),
                "text": {
                    "size": font_mm(TEXT_PT),
                    "bold": False,
                    "lines": [
                        {"text": entry["name"], "x": round(x + swatch, 2), "y": round(y + 3.1, 2)}
                    ],
                },
            }
        )
        x += w
    return {"w": round(width, 2), "h": round(y + 4.6, 2), "items": items}


def wind_rose(wind: dict[str, Any] | None) -> dict[str, Any]:
    """The wind arrow: blowing from `from_bearing` (degrees, north 0, clockwise)."""
    north = centred_x("N", 6.5, TEXT_PT, True)
    if not wind:
        return {"calm": True, "text": "no wind given", "north_x": north}
    bearing = wind.get("from_bearing")
    direction = str(wind.get("direction") or "")
    if not isinstance(bearing, int | float) or isinstance(bearing, bool):
        return {"calm": True, "text": f"Wind: {direction.lower() or 'none'}", "north_x": north}
    b = math.radians(float(bearing))
    c, r = 6.5, 4.3
    fx, fy = c + r * math.sin(b), c - r * math.cos(b)
    tx, ty = c - r * math.sin(b), c + r * math.cos(b)
    head = _arrow_head(tx, ty, tx - fx, ty - fy, 2.4)
    strength = f", {str(wind['strength']).lower()}" if wind.get("strength") else ""
    return {
        "calm": False,
        "north_x": north,
        "x1": round(fx, 2),
        "y1": round(fy, 2),
        "x2": round(tx - (tx - fx) / (2 * r) * 1.8, 2),
        "y2": round(ty - (ty - fy) / (2 * r) * 1.8, 2),
        "head": head["points"],
        "text": f"Wind from the {direction.lower()}{strength}",
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


def _pages(
    canvas: Canvas, paper: str, wind: dict[str, Any]
) -> tuple[int, int, list[dict[str, Any]]]:
    w, h = window(paper)
    columns, rows, tiles = tile(canvas.width, canvas.height, w, h)
    pages = []
    for t in tiles:
        view = (t.x, t.y, t.x + t.width, t.y + t.height)
        elements = [e for e in canvas.elements if _inside(e["box"], view)]
        core = (
            t.x + (OVERLAP_MM if t.column > 0 else 0),
            t.y + (OVERLAP_MM if t.row > 0 else 0),
            t.x + t.width - (OVERLAP_MM if t.column < columns - 1 else 0),
            t.y + t.height - (OVERLAP_MM if t.row < rows - 1 else 0),
        )
        for spec in canvas.edge_labels:
            elements += _edge_label(spec, canvas, core)
        pages.append(
            {
                "label": t.label,
                "view": f"{t.x:.2f} {t.y:.2f} {t.width:.2f} {t.height:.2f}",
                "x": t.x,
                "y": t.y,
                "elements": merge(elements + _seam_marks(t, columns, rows, canvas)),
                "head": header_right(t, columns, rows, wind),
                "note": f"{canvas.description}. {assembly_note(t, columns, rows)}",
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


def table_plan(layout: dict[str, Any], sides: list[dict[str, Any]], paper: str) -> dict[str, Any]:
    """Draw a table map (cm) as a plan at a round scale that fits the page width."""
    pw, _ = PRINTABLE_MM[paper]
    width_cm, height_cm = float(layout["width_cm"]), float(layout["height_cm"])
    n = plan_scale(width_cm, height_cm, pw - 2, 150)
    k = 10 / n  # mm on paper per cm on the table
    m = 1.0
    w, h = width_cm * k, height_cm * k
    elements: list[dict[str, Any]] = [_rect(m, m, w, h, "sea")]
    for zone in layout.get("deployment", []):
        side = int(zone["side"])
        elements.append(
            _rect(
                m + zone["x_cm"] * k,
                m + zone["y_cm"] * k,
                zone["w_cm"] * k,
                zone["h_cm"] * k,
                f"deploy{side}",
            )
        )
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
        lw = text_width(label, TEXT_PT, True) + 1.6
        if lw <= fw and fh >= 4:
            labels.append(_label(label, x + fw / 2, y + fh / 2, "text", bold=True))
            labels[-1]["backing"] = _backing(labels[-1])
        else:
            below = y + fh + 2.4 if y + fh + 4 < m + h else y - 2.4
            labels.append(_label(label, x + fw / 2, below, "text", bold=True))
            labels[-1]["backing"] = _backing(labels[-1])
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
                if text_width(t, TEXT_PT, True) <= zh - 4
            ),
            None,
        )
        if text:
            labels.append(
                _label(text, x + zw / 2, y + zh / 2, f"text{side}", rotate=-90, bold=True)
            )
            labels[-1]["backing"] = _backing(labels[-1])
    elements.append(_rect(m, m, w, h, "border"))
    ticks = []
    for x in range(0, int(width_cm) + 1, 30):
        # centred on its line, but never past the plan's right edge (the svg has no gutter
        # there: at 1:10 the plan fills the A4 column)
        start = min(centred_x(str(x), m + x * k, TEXT_PT), m + w - text_width(str(x), TEXT_PT))
        ticks.append({"x": round(start, 2), "text": f"{x}"})
    yticks = []
    for y in range(0, int(height_cm) + 1, 30):
        yticks.append(
            {
                "x": round(-1 - text_width(str(y), TEXT_PT) / 1.03, 2),
                "y": round(m + y * k, 2),
                "text": f"{y}",
            }
        )
    return {
        "scale": f"1:{n:g}",
        "scale_note": (
            f"scale 1:{n:g}: 1 mm on the plan is 1 cm on the table"
            if n == 10
            else f"scale 1:{n:g}: 1 cm on the plan is {n / 10:g} cm on the table"
        ),
        "width": round(w + 2 * m, 2),
        "height": round(h + 2 * m, 2),
        "elements": elements + labels,
        "xticks": ticks,
        "yticks": yticks,
        "size_text": f"{width_cm:g} × {height_cm:g} cm",
    }


def _backing(label: dict[str, Any]) -> dict[str, float]:
    x0, y0, x1, y1 = label["box"]
    return {
        "x": round(x0 - 0.6, 2),
        "y": round(y0 - 0.2, 2),
        "w": round(x1 - x0 + 1.2, 2),
        "h": round(y1 - y0 + 0.4, 2),
    }


# ---------------------------------------------------------------- the context


def has_map(ruleset: str) -> bool:
    """Return whether `ruleset` is played on a map (its spec has a ``map`` section)."""
    return ruleset in serving("map")


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
    house = [str(t) for t in data.get("house_tables", [])]
    wind = dict(data.get("wind") or {})
    title = str(data.get("title", ""))
    room = header_text_width(paper)
    title_size = next(
        (
            size
            for size in TITLE_SIZES
            if text_width(f"Map — {title}", size, False, "serif") <= room
        ),
        TITLE_SIZES[-1],
    )
    side_names = [str(s.get("name", "")) for s in sides]
    common = {
        "scenario_title": title,
        "title_size": title_size,
        "ruleset_name": found.capitalize(),
        "ruleset_title": rules.rulesets[found].title if found in rules.rulesets else found,
        "map_kind": kind,
        "house_tables": house,
        "styles": STYLES,
        "patterns": PATTERNS,
        "page_height": round(PRINTABLE_MM[paper][1] - 1.0, 1),
        "page_width": round(PRINTABLE_MM[paper][0] - 0.2, 1),
        "header_mm": HEADER_MM,
        "head_right_mm": HEAD_RIGHT_MM,
        "head_left_mm": header_text_width(paper),
        "footer_mm": FOOTER_MM,
        "sides": side_names,
    }
    if kind == "table":
        if "wind_from" in grid and "from_bearing" not in wind:
            wind["from_bearing"] = grid["wind_from"]
        plan = table_plan(grid, sides, paper)
        legend = [
            {"style": "sea", "name": "Sea"},
            {"style": "land", "name": "Land: coast, island"},
            {"style": "shallows", "name": "Shoal"},
        ]
        for i, name in enumerate(side_names[:2]):
            legend.append({"style": f"zonekey{i}", "name": f"{name} deployment zone"})
        return common | {
            "plan": plan,
            "columns": 1,
            "rows": 1,
            "pages": [],
            "legend": legend_layout(legend, PRINTABLE_MM[paper][0] - 0.2),
            "wind": wind_rose(wind),
            "features": [dict(f) for f in grid.get("features", [])],
            "deployment": [
                dict(z)
                | {"name": side_names[int(z["side"])] if int(z["side"]) < len(sides) else ""}
                for z in grid.get("deployment", [])
            ],
        }
    units = get_generator(found).units
    if kind == "grid":
        canvas = grid_canvas(grid, sides)
    elif kind == "hex":
        canvas = hex_canvas(grid, sides, units)
    else:
        raise InputError(f"map kind '{kind}': the map sheet prints grid, hex and table maps")
    rose = wind_rose(wind)
    columns, rows, pages = _pages(canvas, paper, rose)
    entries = canvas.legend + (
        [{"style": "markkey", "name": "overlap mark"}] if columns * rows > 1 else []
    )
    # the first page's footer says, in one line, that the briefing lists the house tables
    note = f"House tables used: {len(house)}, listed on the briefing" if house else ""
    return common | {
        "plan": None,
        "columns": columns,
        "rows": rows,
        "pages": pages,
        "legend": legend_layout(entries, PRINTABLE_MM[paper][0] - 0.2),
        "legend_first": legend_layout(entries, PRINTABLE_MM[paper][0] - 0.2, note),
        "description": canvas.description,
        "wind": rose,
        "window_w": window(paper)[0],
        "window_h": window(paper)[1],
    }
