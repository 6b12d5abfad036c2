"""The map's pages: the frame of a map page (header, window, footer) and the cutting of
the map's canvas into page windows.

The canvas is cut into page windows that overlap their neighbours by OVERLAP_MM, centred
so that the paper left over is shared by the map's outer edges (the first and last columns
and rows of pages). The briefing's overview outlines the same windows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from generator.render.paper import get_paper

OVERLAP_MM = 10.0
HEADER_MM = 16.0
# the header's ink ends this far above the map window: on a page laid over its neighbour
# above, the window's top edge is the trim line, and a cut that wanders must not touch it
HEAD_CLEAR_MM = 2.0
LEGEND_GAP_MM = 2.2  # between the map window (its last row, an overlap strip) and the legend
LEGEND_ROWS = 2  # what the footer has room for
LEGEND_ROW_MM = 5.0
SWATCH_MM = (7.0, 4.4)
FOOTER_MM = LEGEND_GAP_MM + (LEGEND_ROWS - 1) * LEGEND_ROW_MM + SWATCH_MM[1]
HEAD_RIGHT_MM = 82.0  # the wind rose and its words on one line, the page label, the key map


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
    return round(get_paper(paper).printable_mm[0] - 0.2 - HEAD_RIGHT_MM, 1)


def window(paper: str) -> tuple[float, float]:
    """Return the map window of one page of `paper` (mm): the printable area less the
    header and footer."""
    width, height = get_paper(paper).printable_mm
    return round(width - 0.2, 1), round(height - 1.0 - HEADER_MM - FOOTER_MM, 1)
