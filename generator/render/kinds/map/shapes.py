"""The map's shapes as typed plain data, in canvas mm (y down): polygons, rectangles,
lines, circles and lines of words, each with the box round it.

The map sheet paints them page by page (`paint`); the briefing merges runs of one style
into SVG paths (`merge`) for its overview.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from generator.render.draw import LEADING, text_width_mm

PT_MM = 25.4 / 72
TEXT_PT = 7.0

Box = tuple[float, float, float, float]  # left, top, right, bottom
Point = tuple[float, float]


@dataclass(frozen=True)
class Poly:
    """A closed polygon through `pts`."""

    pts: tuple[Point, ...]
    style: str
    box: Box


@dataclass(frozen=True)
class Rect:
    """A rectangle: its top-left corner, width and height."""

    x: float
    y: float
    w: float
    h: float
    style: str
    box: Box


@dataclass(frozen=True)
class Line:
    """A straight line from (x1, y1) to (x2, y2)."""

    x1: float
    y1: float
    x2: float
    y2: float
    style: str
    box: Box


@dataclass(frozen=True)
class Circle:
    """A circle: its centre and radius."""

    cx: float
    cy: float
    r: float
    style: str
    box: Box


@dataclass(frozen=True)
class Text:
    """Lines of words centred on (cx, cy), `w` by `h`, turned `rotate` degrees clockwise
    about their centre, on white if `backing`; a cell's coordinates keep the bands they may
    move within, off a seam (`room`)."""

    lines: tuple[str, ...]
    font: str
    size: float
    cx: float
    cy: float
    w: float
    h: float
    rotate: int
    style: str
    backing: bool
    box: Box
    room: tuple[Box, ...] = ()


@dataclass(frozen=True)
class Path:
    """Shapes of one style joined into one SVG path (`d`): the briefing's overview."""

    d: str
    style: str


Shape = Poly | Rect | Line | Circle
Element = Shape | Text


def _box(points: Sequence[Point]) -> Box:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def poly(points: Sequence[Point], style: str) -> Poly:
    pts = tuple((round(x, 3), round(y, 3)) for x, y in points)
    return Poly(pts, style, _box(pts))


def rect(x: float, y: float, w: float, h: float, style: str) -> Rect:
    return Rect(x, y, w, h, style, (x, y, x + w, y + h))


def line(x1: float, y1: float, x2: float, y2: float, style: str) -> Line:
    return Line(x1, y1, x2, y2, style, (min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)))


def circle(cx: float, cy: float, r: float, style: str) -> Circle:
    return Circle(cx, cy, r, style, (cx - r, cy - r, cx + r, cy + r))


def text(
    lines: Sequence[str],
    cx: float,
    cy: float,
    style: str = "text",
    *,
    font: str = "sans",
    size: float = TEXT_PT,
    rotate: int = 0,
    backing: bool = False,
) -> Text:
    """Lines of text centred on (cx, cy), turned `rotate` degrees clockwise about it (90:
    read from the top down, -90: from the bottom up); `backing` sets them on white."""
    width = max(text_width_mm(words, font, size) for words in lines)
    height = len(lines) * size * LEADING * PT_MM
    half_w, half_h = width / 2, height / 2
    if rotate % 180:
        half_w, half_h = half_h, half_w
    box = (cx - half_w, cy - half_h, cx + half_w, cy + half_h)
    return Text(tuple(lines), font, size, cx, cy, width, height, rotate, style, backing, box)


def arrow_head(x: float, y: float, dx: float, dy: float, size: float = 2.2) -> Poly:
    """A filled arrowhead with its tip at (x, y), pointing along (dx, dy)."""
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    px, py = -uy, ux
    back = (x - ux * size, y - uy * size)
    return poly(
        [
            (x, y),
            (back[0] + px * size * 0.5, back[1] + py * size * 0.5),
            (back[0] - px * size * 0.5, back[1] - py * size * 0.5),
        ],
        "arrow",
    )


def path_data(shape: Shape) -> str:
    """A shape as SVG path data (the briefing's overview)."""
    if isinstance(shape, Poly):
        first, *rest = (f"{x:.2f},{y:.2f}" for x, y in shape.pts)
        return f"M{first}L{' '.join(rest)}Z"
    if isinstance(shape, Rect):
        x, y, w, h = (round(v, 2) for v in (shape.x, shape.y, shape.w, shape.h))
        return f"M{x},{y}h{w}v{h}h{-w}Z"
    if isinstance(shape, Circle):
        cx, cy, r = (round(v, 2) for v in (shape.cx, shape.cy, shape.r))
        return f"M{cx - r:.2f},{cy}a{r},{r} 0 1,0 {2 * r},0a{r},{r} 0 1,0 {-2 * r},0Z"
    x1, y1, x2, y2 = (round(v, 2) for v in (shape.x1, shape.y1, shape.x2, shape.y2))
    return f"M{x1},{y1}L{x2},{y2}"


def merge(shapes: Iterable[Shape]) -> list[Path]:
    """Join runs of shapes of one style into one SVG path each, for the briefing's
    overview."""
    out: list[Path] = []
    for shape in shapes:
        if out and out[-1].style == shape.style:
            out[-1] = Path(out[-1].d + path_data(shape), shape.style)
        else:
            out.append(Path(path_data(shape), shape.style))
    return out


def inside(box: Sequence[float], view: Sequence[float]) -> bool:
    """Whether `box` reaches into `view` (both left, top, right, bottom)."""
    x0, y0, x1, y1 = box
    vx0, vy0, vx1, vy1 = view
    return x1 >= vx0 and x0 <= vx1 and y1 >= vy0 and y0 <= vy1
