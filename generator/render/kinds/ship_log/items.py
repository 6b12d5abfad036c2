"""What a page of ship's logs is made of: typed items in mm, and the sizes they share.

The layout (`body`, and the package's pages) makes the items and the painter (`paint`)
draws them, printed boxes and the form fields over them alike. Every item is a frozen
dataclass placed from the page's top-left corner (from a log's inner corner while a log is
laid out, then `moved` onto its page).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Self

from generator.render.draw import LEADING, MM, text_width_mm, wrap

GAP_MM = 3.0  # between two logs side by side, and under every log
PAD_MM = 2.2  # inside a log's border
BORDER_PT = 0.8
BOX_MM, BOX_GAP_MM = 5.0, 0.5  # a box to cross off, and the space after it
PITCH_MM = BOX_MM + BOX_GAP_MM
ROW_MM = 6.0  # a row of boxes: a box and the space under it
HALF_MM, TICK_MM = 3.4, 2.0  # the room the ½ mark and a tick take between two boxes
TICK_PT = 1.3
# a box crossed off already (a scenario's damage): its X's stroke, and how far in from the
# box's edges it stays (its round ends reach CROSS_PT / 2 further)
CROSS_PT, CROSS_INSET_MM = 1.2, 0.9
WRITE_MM = 5.5  # a write-in box's height
BLOCK_MM = 1.0  # between the parts of a log
TURN_MM, LOG_HEAD_MM, LOG_ROW_MM = 10.0, 4.2, 6.0  # turn log: turn column, heading, a row
RULE_PT = 0.5
BOX_PT = 0.7
# a ship's outline entry: under her side (level 1) and its ship's log (level 2) in a packet
SHIP_MARK_LEVEL = 3


def line_mm(size: float) -> float:
    """Return the height of a line of text at `size` pt, in mm."""
    return size * LEADING / MM


def width_mm(text: str, font: str, size: float) -> float:
    """Return the width of `text` in `font` at `size` pt, in mm."""
    return text_width_mm(text, font, size)


def middle(size: float, height: float = BOX_MM) -> float:
    """Return how far below a box's top a line of `size` pt starts, to stand in its middle."""
    return (height - line_mm(size)) / 2


@dataclass(frozen=True)
class Placed:
    """An item's top-left corner, in mm."""

    x: float
    y: float

    def moved(self, dx: float, dy: float) -> Self:
        """Return the item moved by (dx, dy)."""
        return dataclasses.replace(self, x=self.x + dx, y=self.y + dy)


@dataclass(frozen=True)
class Text(Placed):
    """Lines of text set from (x, y) down, `w` wide."""

    w: float
    font: str
    size: float
    lines: tuple[str, ...]
    align: str = "left"
    colour: str = "ink"


@dataclass(frozen=True)
class FieldBox(Placed):
    """A box the player marks, a form field when fillable; `field` names it in the log."""

    w: float
    h: float
    field: str
    tip: str = ""  # its tooltip, set once the log is placed (`LogCard.tips`)


@dataclass(frozen=True)
class CrossBox(FieldBox):
    """A box to cross off (a check box field when fillable); `marked`: crossed already
    (damage a scenario carries), drawn crossed or a field already checked."""

    marked: bool = False


@dataclass(frozen=True)
class WriteBox(FieldBox):
    """A box to write in (a text field when fillable)."""


@dataclass(frozen=True)
class TurnField(Placed):
    """A turn log's cell: ruled already, a text field only when fillable."""

    w: float
    h: float
    name: str
    tip: str


@dataclass(frozen=True)
class Rule(Placed):
    """A line from (x, y) to (x + w, y + h)."""

    w: float
    h: float
    colour: str
    pt: float


@dataclass(frozen=True)
class Frame(Placed):
    """An open rectangle: a log's border, or a table's."""

    w: float
    h: float
    colour: str
    pt: float


@dataclass(frozen=True)
class Band(Placed):
    """A tinted band (in black and white framed, or with `head`, a heading ruled under)."""

    w: float
    h: float
    head: bool = False


@dataclass(frozen=True)
class TrackMark(Placed):
    """Where the rules say something happens on a row of boxes: the ½ mark, or a tick."""

    half: bool


@dataclass(frozen=True)
class Bookmark(Placed):
    """A ship's outline entry, pointing at (x, y)."""

    label: str


Item = Text | CrossBox | WriteBox | TurnField | Rule | Frame | Band | TrackMark | Bookmark


class Items:
    """The items of a log or a page, in the order they are painted."""

    def __init__(self) -> None:
        self.items: list[Item] = []

    def add(self, item: Item) -> None:
        self.items.append(item)

    def text(
        self,
        text: str,
        font: str,
        size: float,
        x: float,
        y: float,
        w: float,
        *,
        align: str = "left",
        colour: str = "ink",
        lines: Sequence[str] | None = None,
    ) -> float:
        """Set `text` wrapped to `w` from `y` down; return the mm under it."""
        found = tuple(lines) if lines is not None else tuple(wrap(text, font, size, w))
        self.add(Text(x, y, w, font, size, found, align, colour))
        return y + len(found) * line_mm(size)

    def box(self, x: float, y: float, field: str) -> None:
        self.add(CrossBox(x, y, BOX_MM, BOX_MM, field))

    def write_in(self, x: float, y: float, w: float, h: float, field: str) -> None:
        self.add(WriteBox(x, y, w, h, field))

    def line(
        self, x: float, y: float, w: float, h: float, *, colour: str = "rule", pt: float = RULE_PT
    ) -> None:
        self.add(Rule(x, y, w, h, colour, pt))

    def shifted(self, dx: float, dy: float) -> list[Item]:
        """Return the items moved by (dx, dy)."""
        return [item.moved(dx, dy) for item in self.items]
