"""The map's pages laid out: what each page of a grid or hex map shows of the canvas, its
seams (trim and fold lines, registration marks), its edge labels, its header's right block
(wind rose, page label, key map) and its legend.

Every page draws the shapes that reach into its window, clipped to it, so the overlap strips
repeat exactly. Assembly: each page with a neighbour to its left (above) is trimmed along its
solid left (top) frame line and laid on that neighbour up to the dashed line there; the
registration marks sit on that line, half on each page.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from generator.errors import InputError, QuartermasterError
from generator.render.draw import text_width_mm, wrap
from generator.render.kinds.map.geometry import MARGIN_MM, Canvas, EdgeLabel, clear_of_seams
from generator.render.kinds.map.shapes import TEXT_PT, Element, Shape, Text, inside
from generator.render.kinds.map.shapes import arrow_head as _arrow_head
from generator.render.kinds.map.shapes import circle as _circle
from generator.render.kinds.map.shapes import line as _line
from generator.render.kinds.map.shapes import poly as _poly
from generator.render.kinds.map.shapes import rect as _rect
from generator.render.kinds.map.shapes import text as _text
from generator.render.kinds.map.tiles import (
    HEAD_CLEAR_MM,
    HEAD_RIGHT_MM,
    HEADER_MM,
    LEGEND_ROW_MM,
    LEGEND_ROWS,
    OVERLAP_MM,
    SWATCH_MM,
    Tile,
    column_letters,
    header_text_width,
    tile,
    window,
)
from generator.render.pagenumbers import page_label
from generator.render.words import wind_words

NOTE_LINES = 3  # the header's note, under the title
MARK_EVERY_MM = 45.0  # registration marks along a seam
MARK_SLIDE_MM = (0.0, 2.0, -2.0, 4.0, -4.0, 6.0, -6.0, 8.0, -8.0, 10.0, -10.0)


@dataclass(frozen=True)
class Page:
    """One page of a grid or hex map: its tile's window on the canvas (mm), the shapes and
    words that reach into it, its seams' marks, its header's right block (`header_right`)
    and the note under its title, as wrapped."""

    label: str
    column: int
    row: int
    x: float
    y: float
    w: float
    h: float
    elements: tuple[Element, ...]
    marks: tuple[Shape, ...]
    head: HeaderRight
    note: str
    note_lines: tuple[str, ...]


def _edge_label(
    spec: EdgeLabel, canvas: Canvas, core: tuple[float, float, float, float]
) -> list[Element]:
    """Place an edge's label (and its arrows) on one page, inside the page's own part of the
    canvas (not in an overlap strip), if that part shows the edge."""
    x0, y0, x1, y1 = core
    left, top, right, bottom = canvas.map_box
    edge = spec.edge
    vertical = edge in ("east", "west")
    lo, hi = max(spec.start, y0 if vertical else x0), min(spec.end, y1 if vertical else x1)
    if spec.arrows:
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
    room = hi - lo - (12 if spec.arrows else 0)
    text = next((t for t in spec.texts if text_width_mm(t, "sans", TEXT_PT) <= room), None)
    if text is None:
        return []
    middle = (lo + hi) / 2
    rotate = {"west": -90, "east": 90}.get(edge, 0)
    out: list[Element] = [
        _text([text], pos, middle, spec.style, rotate=rotate)
        if vertical
        else _text([text], middle, pos, spec.style)
    ]
    if spec.arrows:
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


def _seam_marks(t: Tile, columns: int, rows: int, texts: Sequence[Sequence[float]]) -> list[Shape]:
    """The overlap marks of one page: solid trim lines on its left and top edges where it
    lies over a neighbour, dashed lines where a neighbour lies over it, and registration
    marks on those lines (half on each page once assembled), each slid along its seam off
    any words (the same on both pages of a seam: they are worked out from the seam alone)."""
    out: list[Shape] = []
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
                if not any(inside(box, (cx - 4, cy - 4, cx + 4, cy + 4)) for box in near):
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


@dataclass(frozen=True)
class KeyCell:
    """A page's square on the header's key map, mm from the right block's top-left, with
    its name where it fits; `here` is the page it is printed on."""

    x: float
    y: float
    here: bool
    label: str


@dataclass(frozen=True)
class HeaderRight:
    """The right block of a page's header, `w` wide: the page label (its bold name at
    `label_x`, the rest set right), the key map's cells (`cw` by `ch` each), and where the
    wind's words must end (`left`)."""

    w: float
    label_x: float
    bold: str
    rest: str
    size: float
    cells: tuple[KeyCell, ...]
    cw: float
    ch: float
    left: float


def header_right(t: Tile, columns: int, rows: int) -> HeaderRight:
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
    cells: list[KeyCell] = []
    for r in range(rows):
        for c in range(columns):
            name = f"{column_letters(c)}{r + 1}"
            fits = text_width_mm(name, "sans-bold", TEXT_PT) + 0.6 <= cw and ch >= 3.2
            cells.append(
                KeyCell(
                    x=round(width - key_w + c * cw, 2),
                    y=round(HEADER_MM - HEAD_CLEAR_MM - key_h + r * ch, 2),
                    here=(c, r) == (t.column, t.row),
                    label=name if fits else "",
                )
            )
    return HeaderRight(
        w=width,
        label_x=round(width - label_w, 2),
        bold=bold,
        rest=rest,
        size=size,
        cells=tuple(cells),
        cw=round(cw, 2),
        ch=round(ch, 2),
        left=round(width - max(key_w, label_w), 2),  # the words of the wind end here
    )


@dataclass(frozen=True)
class WindRose:
    """The wind rose, mm from its box (ROSE_BOX_MM square): its ring, the N above it, the
    arrow inside (none when there is no bearing) and the words beside it."""

    centre: tuple[float, float]
    r: float
    north: Text
    text: str
    shaft: Shape | None = None
    head: Shape | None = None

    @property
    def calm(self) -> bool:
        """Whether it has no arrow."""
        return self.shaft is None


def wind_rose(wind: Mapping[str, Any] | None) -> WindRose:
    """The wind rose: a ring with N above it (outside, so the arrow never covers it) and an
    arrow inside, blowing from `from_bearing` (degrees, north 0, clockwise); mm from the
    rose's box, ROSE_CENTRE its centre."""
    cx, cy = ROSE_CENTRE
    north = _text(["N"], cx, cy - ROSE_R - 2.05, font="sans-bold")
    if not wind:
        return WindRose(ROSE_CENTRE, ROSE_R, north, "no wind given")
    # said as the briefing says it, and the rules: "from the north-west", not "nw"
    bearing = wind.get("from_bearing")
    if not isinstance(bearing, int | float) or isinstance(bearing, bool):
        return WindRose(ROSE_CENTRE, ROSE_R, north, f"Wind: {wind_words(wind) or 'none'}")
    b = math.radians(float(bearing))
    ux, uy = math.sin(b), -math.cos(b)  # towards where the wind comes from (y down)
    tail = (cx + ARROW_R * ux, cy + ARROW_R * uy)
    tip = (cx - ARROW_R * ux, cy - ARROW_R * uy)
    head = _arrow_head(tip[0], tip[1], -ux, -uy, 2.3)
    neck = (tip[0] + ux * 1.8, tip[1] + uy * 1.8)  # the shaft stops inside the head
    return WindRose(
        ROSE_CENTRE,
        ROSE_R,
        north,
        f"Wind {wind_words(wind) or f'from {float(bearing):g}°'}",
        shaft=_line(tail[0], tail[1], neck[0], neck[1], "arrowline"),
        head=head,
    )


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


def lay_out_pages(canvas: Canvas, paper: str, ruleset_name: str) -> tuple[int, int, list[Page]]:
    """Cut the canvas into pages of `paper`; return (columns, rows, pages), the pages row
    by row. A cell's coordinates move off the seams, or are left out where they cannot."""
    w, h = window(paper)
    columns, rows, tiles = tile(canvas.width, canvas.height, w, h)
    # the seams: each is a trim line on one page and the dashed line on its neighbour
    xs = sorted({t.x for t in tiles if t.column > 0})
    ys = sorted({t.y for t in tiles if t.row > 0})
    placed = [
        clear_of_seams(e, xs, ys) if isinstance(e, Text) and e.style == "coord" else e
        for e in canvas.elements
    ]
    drawn = [e for e in placed if e is not None]
    texts = [e.box for e in drawn if isinstance(e, Text)]
    room = header_text_width(paper)
    laid: list[Page] = []
    for t in tiles:
        view = (t.x, t.y, t.x + t.width, t.y + t.height)
        elements = [e for e in drawn if inside(e.box, view)]
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
        laid.append(
            Page(
                label=t.label,
                column=t.column,
                row=t.row,
                x=t.x,
                y=t.y,
                w=t.width,
                h=t.height,
                elements=tuple(elements),
                marks=tuple(_seam_marks(t, columns, rows, texts)),
                head=header_right(t, columns, rows),
                note=note,
                note_lines=tuple(lines),
            )
        )
    return columns, rows, laid


@dataclass(frozen=True)
class LegendItem:
    """A legend entry: its swatch's style (none: words alone) at (x, y), its words at
    `text_x`, mm from the legend's top-left."""

    style: str
    name: str
    x: float
    y: float
    text_x: float


@dataclass(frozen=True)
class Legend:
    """The legend's entries in rows, `w` by `h` mm."""

    w: float
    h: float
    items: tuple[LegendItem, ...]


def legend_layout(entries: Sequence[Mapping[str, str]], width: float, note: str = "") -> Legend:
    """Place the legend's swatches and words in rows across `width` mm, and a `note` after
    them (words without a swatch), in at most LEGEND_ROWS rows."""
    items: list[LegendItem] = []
    x, y = 0.0, 0.0
    for entry in [*entries, *([{"style": "", "name": note}] if note else [])]:
        sample = SWATCH_MM[0] + 1.2 if entry["style"] else 0.0
        w = sample + text_width_mm(entry["name"], "sans", TEXT_PT) + 3.0
        if x and x + w > width:
            x, y = 0.0, y + LEGEND_ROW_MM
            if y >= LEGEND_ROW_MM * LEGEND_ROWS:
                raise InputError("the map's legend does not fit its footer")
        items.append(
            LegendItem(
                entry["style"], entry["name"], round(x, 2), round(y, 2), round(x + sample, 2)
            )
        )
        x += w
    return Legend(round(width, 2), round(y + 4.6, 2), tuple(items))


def swatch(style: str) -> Sequence[Shape]:
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
