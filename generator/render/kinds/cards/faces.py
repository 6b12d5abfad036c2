"""A card drawn: its face (an action card, a suit card, a reference card) and its back,
each in its slot of a sheet of cards, turned a quarter where the cards lie turned (the
package's `GRIDS`).

Faces carry the rules' words fitted to the card (never under 7 pt); a back is its colour to
the cut and 2 mm past the block's outer cuts (a bleed), or in black and white a lattice of
hairlines under a white panel, and the game and the deck in its middle.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from reportlab.lib.colors import HexColor

from generator.errors import QuartermasterError
from generator.render.draw import MM, Box, Drawing, Fitted, fit_or_refuse, text_width_mm, write

CARD_MM = (63.5, 88.9)  # poker size, upright
PAD_MM = 4.2  # inside a face
BLEED_MM = 2.0  # a back's colour beyond the block's outer cuts (Letter leaves 4.35 mm)
LATTICE_MM = 2.0  # the spacing of a black-and-white back's hairlines, each way
LATTICE_PT = 0.3  # their width: thin and close, they print as a light grey


def colour_of(drawing: Drawing, name: str) -> Any:
    return HexColor(drawing.colours[name])


def draw_face(
    drawing: Drawing, context: dict[str, Any], slot: dict[str, Any], g: dict[str, Any]
) -> None:
    card = slot["card"]
    with _upright(drawing, slot, g, back=False) as (x, y, w, h):
        if card["style"] == "action":
            _action_face(drawing, card, context, x, y, w, h)
        elif card["style"] == "turn":
            _turn_face(drawing, card, context, x, y, w, h)
        else:
            _reference_face(drawing, card, context, x, y, w, h)


@contextmanager
def _upright(
    drawing: Drawing, slot: Mapping[str, Any], g: Mapping[str, Any], *, back: bool
) -> Iterator[tuple[float, float, float, float]]:
    """Draw one card as if upright: yield the box (x, y, width, height in mm) to draw it
    in. Where the cards lie turned (`GRIDS`), the canvas is turned for the while: a face's
    top to the left, and a back's to the right, so that a back stands the right way up
    behind its face once the sheet is printed flipping on the long edge and the card is
    turned over side to side."""
    x, y = slot["x"], slot["y"]
    if not g["turned"]:
        yield x, y, g["card_w"], g["card_h"]
        return
    canvas = drawing.canvas
    canvas.saveState()
    # the upright card is drawn at the page's top-left corner, then turned about that
    # corner and moved onto its slot: a face's top-left corner goes to the slot's
    # bottom-left, a back's to its top-right
    if back:
        canvas.translate(drawing.x(x + g["card_w"]), drawing.y(y))
        canvas.rotate(-90)
    else:
        canvas.translate(drawing.x(x), drawing.y(y + g["card_h"]))
        canvas.rotate(90)
    canvas.translate(-drawing.x(0), -drawing.y(0))
    try:
        yield 0.0, 0.0, CARD_MM[0], CARD_MM[1]
    finally:
        canvas.restoreState()


def _fitted(text: str, font: str, width: float, height: float, sizes: tuple[float, ...]) -> Fitted:
    return fit_or_refuse(text, font, width, height, sizes, "card text does not fit")


def _foot(
    drawing: Drawing, context: dict[str, Any], x: float, y: float, w: float, h: float
) -> None:
    canvas = drawing.canvas
    canvas.setStrokeColor(colour_of(drawing, "rule"))
    canvas.setLineWidth(0.5)
    line = y + h - 7.4
    canvas.line(drawing.x(x + PAD_MM), drawing.y(line), drawing.x(x + w - PAD_MM), drawing.y(line))
    game = _fitted(context["game"], "sans", w - 2 * PAD_MM, 3.2, (7.0,))
    write(drawing, game, x + PAD_MM, line + 0.9, w - 2 * PAD_MM, colour="faint")


def _action_face(
    drawing: Drawing,
    card: dict[str, Any],
    context: dict[str, Any],
    x: float,
    y: float,
    w: float,
    h: float,
) -> None:
    canvas = drawing.canvas
    inner = w - 2 * PAD_MM
    # the band: the deck's name
    canvas.setFillColor(colour_of(drawing, "tint"))
    drawing.rect(x, y, w, 9, stroke=0, fill=1)
    canvas.setStrokeColor(colour_of(drawing, "accent"))
    canvas.setLineWidth(0.8)
    canvas.line(drawing.x(x), drawing.y(y + 9), drawing.x(x + w), drawing.y(y + 9))
    band = _fitted(str(context["deck"]).upper(), "sans", inner, 3.2, (7.0,))
    write(drawing, band, x + PAD_MM, y + 4.1, inner, colour="faint")
    # the name and the card's words
    name = _fitted(card["name"], "serif", inner, 15.0, (18.0, 16.0, 14.0, 12.0, 11.0, 10.0))
    below = write(drawing, name, x + PAD_MM, y + 13, inner, align="center", colour="accent")
    # the effect: one row a structured field, label left and value right (it may wrap)
    label_w, value_w = inner * 0.5, inner * 0.5 - 2.0
    rows = []
    for row in card["effect"]:
        label = _fitted(row["label"], "sans", label_w - 1, 3.6, (7.5, 7.0))
        value = _fitted(row["value"], "sans-bold", value_w, 7.2, (7.5, 7.0))
        rows.append((label, value, max(label.height_mm, value.height_mm) + 1.2))
    table_top = y + h - 8.6 - sum(height for _, _, height in rows)
    # the card's words, between two rules, in the middle of the room left
    space_top, space_bottom = below + 2.0, table_top - 2.0
    text = _fitted(
        card["text"],
        "serif",
        inner - 2,
        space_bottom - space_top - 6.0,
        (14.0, 13.0, 12.0, 11.0, 10.0, 9.0, 8.0, 7.5, 7.0),
    )
    text_top = space_top + (space_bottom - space_top - text.height_mm) / 2
    write(drawing, text, x + PAD_MM + 1, text_top, inner - 2, align="center")
    canvas.setStrokeColor(colour_of(drawing, "rule"))
    canvas.setLineWidth(0.5)
    for rule in (text_top - 2.6, text_top + text.height_mm + 2.2):
        canvas.line(
            drawing.x(x + PAD_MM), drawing.y(rule), drawing.x(x + w - PAD_MM), drawing.y(rule)
        )
    top = table_top
    for index, (label, value, height) in enumerate(rows):
        if index % 2 == 0:
            canvas.setFillColor(colour_of(drawing, "tint"))
            drawing.rect(x + PAD_MM, top, inner, height, stroke=0, fill=1)
        write(drawing, label, x + PAD_MM + 1, top + 0.6, label_w - 1)
        write(drawing, value, x + PAD_MM + label_w, top + 0.6, value_w + 1, align="right")
        top += height
    _foot(drawing, context, x, y, w, h)


def _suit(
    drawing: Drawing, kind: str, cx: float, cy: float, size: float, colour: Any, outline: bool
) -> None:
    """A heart or a spade `size` mm tall, centred on (cx, cy) mm; `outline` draws it open
    (a red suit in black and white)."""
    canvas = drawing.canvas
    s = size / 2

    def point(dx: float, dy: float) -> tuple[float, float]:
        # dy upward, in units of half the size
        return drawing.x(cx + dx * s), drawing.y(cy - dy * s)

    path = canvas.beginPath()
    if kind == "heart":
        path.moveTo(*point(0, -1))
        path.curveTo(*point(-0.55, -0.45), *point(-1.0, -0.05), *point(-1.0, 0.42))
        path.curveTo(*point(-1.0, 0.85), *point(-0.45, 1.05), *point(0, 0.6))
        path.curveTo(*point(0.45, 1.05), *point(1.0, 0.85), *point(1.0, 0.42))
        path.curveTo(*point(1.0, -0.05), *point(0.55, -0.45), *point(0, -1))
    else:  # a spade: an upturned heart on a stem
        path.moveTo(*point(0, 1))
        path.curveTo(*point(-0.5, 0.5), *point(-1.0, 0.15), *point(-1.0, -0.28))
        path.curveTo(*point(-1.0, -0.72), *point(-0.45, -0.88), *point(-0.08, -0.45))
        path.lineTo(*point(-0.3, -1))
        path.lineTo(*point(0.3, -1))
        path.lineTo(*point(0.08, -0.45))
        path.curveTo(*point(0.45, -0.88), *point(1.0, -0.72), *point(1.0, -0.28))
        path.curveTo(*point(1.0, 0.15), *point(0.5, 0.5), *point(0, 1))
    path.close()
    canvas.setFillColor(colour)
    canvas.setStrokeColor(colour)
    canvas.setLineWidth(0.8)
    canvas.drawPath(path, stroke=1 if outline else 0, fill=0 if outline else 1)


def _turn_face(
    drawing: Drawing,
    card: dict[str, Any],
    context: dict[str, Any],
    x: float,
    y: float,
    w: float,
    h: float,
) -> None:
    red = card["colour"] == "red"
    colour = colour_of(drawing, "accent" if red else "ink")
    outline = drawing.mono and red
    canvas = drawing.canvas
    word = str(card["colour"]).upper()
    # the corner indices: the suit and its colour, the lower one turned about
    for turned in (False, True):
        canvas.saveState()
        if turned:
            canvas.translate(drawing.x(x + w), drawing.y(y + h))
            canvas.rotate(180)
            canvas.translate(-drawing.x(x), -drawing.y(y))
        _suit(drawing, card["suit"], x + 6.0, y + 6.0, 4.2, colour, outline)
        index = _fitted(word, "sans-bold", 11.0, 3.2, (7.0,))
        write(
            drawing,
            index,
            x + 0.5,
            y + 9.2,
            11.0,
            align="center",
            colour="accent" if red else "ink",
        )
        canvas.restoreState()
    game = _fitted(context["game"], "sans", w - 26, 3.2, (7.0,))
    write(drawing, game, x + 13, y + 3.6, w - 26, align="center", colour="faint")
    _suit(drawing, card["suit"], x + w / 2, y + 26.0, 18.0, colour, outline)
    big = _fitted(word, "serif", w - 12, 9.0, (20.0,))
    after = write(
        drawing, big, x + 6, y + 38.5, w - 12, align="center", colour="accent" if red else "ink"
    )
    reminder = _fitted(
        " ".join(card["reminder"]), "sans", w - 2 * PAD_MM - 6, h - (after - y) - 16, (7.5, 7.0)
    )
    write(drawing, reminder, x + PAD_MM + 3, after + 3.0, w - 2 * PAD_MM - 6, align="center")


def _reference_face(
    drawing: Drawing,
    card: dict[str, Any],
    context: dict[str, Any],
    x: float,
    y: float,
    w: float,
    h: float,
) -> None:
    canvas = drawing.canvas
    inner = w - 2 * PAD_MM
    title = _fitted(card["name"], "serif", inner, 10.0, (11.0, 10.5, 10.0, 9.0))
    below = write(drawing, title, x + PAD_MM, y + 4.0, inner, colour="accent")
    canvas.setStrokeColor(colour_of(drawing, "rule"))
    canvas.setLineWidth(0.6)
    canvas.line(
        drawing.x(x + PAD_MM),
        drawing.y(below + 1.0),
        drawing.x(x + w - PAD_MM),
        drawing.y(below + 1.0),
    )
    room = y + h - 8.4 - (below + 2.4)
    steps = card["steps"]
    numbered = bool(card.get("ordered")) and len(steps) > 1
    for size in (8.0, 7.5, 7.0):
        numbers = [f"{i}." if numbered else "" for i in range(1, len(steps) + 1)]
        indent = max(text_width_mm(n, "sans", size) for n in numbers) + 1.0 if numbered else 0.0
        fitted = [_fitted(step, "sans", inner - indent, 999.0, (size,)) for step in steps]
        gap = size * 0.35 / MM
        height = sum(f.height_mm for f in fitted) + gap * (len(steps) - 1)
        if height <= room or size == 7.0:
            break
    if height > room:
        raise QuartermasterError(f"the {card['name']} card's steps do not fit at 7 pt")
    top = below + 2.4
    for number, step in zip(numbers, fitted, strict=True):
        if number:
            label = _fitted(number, "sans-bold", indent, step.line_mm, (step.size,))
            write(drawing, label, x + PAD_MM, top, indent, colour="accent")
        top = write(drawing, step, x + PAD_MM + indent, top, inner - indent) + gap
    _foot(drawing, context, x, y, w, h)


def draw_back(
    drawing: Drawing, context: dict[str, Any], slot: dict[str, Any], g: dict[str, Any]
) -> None:
    """A card's back: its colour to the cut (and 2 mm past the block's outer cuts), or in
    black and white a lattice of hairlines, then the game and the deck; no frame."""
    card = slot["card"]
    cols, rows = g["cols"], g["rows"]
    x, y, w, h = slot["x"], slot["y"], g["card_w"], g["card_h"]
    left = BLEED_MM if slot["column"] == 0 else 0.0
    right = BLEED_MM if slot["column"] == cols - 1 else 0.0
    top = BLEED_MM if slot["row"] == 0 else 0.0
    bottom = BLEED_MM if slot["row"] == rows - 1 else 0.0
    area = (x - left, y - top, x + w + right, y + h + bottom)
    reference = card["style"] == "reference"
    canvas = drawing.canvas
    if drawing.mono:
        _lattice(drawing, area)
    else:
        canvas.setFillColor(colour_of(drawing, "tint" if reference else "accent"))
        canvas.rect(
            drawing.x(area[0]),
            drawing.y(area[3]),
            (area[2] - area[0]) * MM,
            (area[3] - area[1]) * MM,
            stroke=0,
            fill=1,
        )
    with _upright(drawing, slot, g, back=True) as (x, y, w, h):
        _back_words(drawing, context, card, x, y, w, h)


def _lattice(drawing: Drawing, area: Box) -> None:
    """Fill `area` (left, top, right, bottom in mm) with a lattice of black hairlines, the
    two diagonals `LATTICE_MM` apart, which prints as a light grey on any printer.

    The lines lie on one lattice for the whole page, so neighbouring backs meet without a
    seam, and a back's lines are one path: its pieces in the bleed, outside the cut, are
    not taken for crop marks.
    """
    canvas = drawing.canvas
    x0, y0, x1, y1 = area
    step = LATTICE_MM * math.sqrt(2)  # along a side, between lines at 45 degrees
    path = canvas.beginPath()
    # the lines x + y = c (down to the left) and x - y = c (down to the right), each from
    # where it enters the area to where it leaves
    for k in range(math.floor((x0 + y0) / step), math.ceil((x1 + y1) / step) + 1):
        c = k * step
        low, high = max(x0, c - y1), min(x1, c - y0)
        if low < high:
            path.moveTo(drawing.x(low), drawing.y(c - low))
            path.lineTo(drawing.x(high), drawing.y(c - high))
    for k in range(math.floor((x0 - y1) / step), math.ceil((x1 - y0) / step) + 1):
        c = k * step
        low, high = max(x0, y0 + c), min(x1, y1 + c)
        if low < high:
            path.moveTo(drawing.x(low), drawing.y(low - c))
            path.lineTo(drawing.x(high), drawing.y(high - c))
    canvas.setStrokeColor(colour_of(drawing, "ink"))
    canvas.setLineWidth(LATTICE_PT)
    canvas.drawPath(path, stroke=1, fill=0)


def _back_words(
    drawing: Drawing,
    context: dict[str, Any],
    card: dict[str, Any],
    x: float,
    y: float,
    w: float,
    h: float,
) -> None:
    """The game and the deck in the middle of a back (upright, in the box given); in black
    and white on a white panel over the lattice."""
    reference = card["style"] == "reference"
    ink = "accent" if reference or drawing.mono else "paper"
    inner = w - 2 * PAD_MM - 4
    game = _fitted(context["game_full"], "serif", inner, 16.0, (12.0, 11.0, 10.0, 9.0))
    deck_name = "Phase reference" if reference else str(context["deck"])
    name = _fitted(deck_name, "serif", inner, 20.0, (19.0, 16.0, 14.0))
    hint = (
        [f"not part of the {str(context['deck']).lower()}"]
        if reference
        else list(context["back_hint"])
    )
    words = _fitted(" ".join(hint), "sans", inner, 30.0, (7.5, 7.0)) if hint else None
    # the words in the middle of the card
    height = game.height_mm + 4 + name.height_mm + (4 + words.height_mm if words else 0)
    top = y + (h - height) / 2
    if drawing.mono:
        canvas = drawing.canvas
        canvas.setFillColor(colour_of(drawing, "paper"))
        canvas.setStrokeColor(colour_of(drawing, "ink"))
        canvas.setLineWidth(0.6)
        pad = 2.5
        canvas.rect(
            drawing.x(x + PAD_MM),
            drawing.y(top + height + pad),
            (w - 2 * PAD_MM) * MM,
            (height + 2 * pad) * MM,
            stroke=1,
            fill=1,
        )
    below = write(drawing, game, x + PAD_MM + 2, top, inner, align="center", colour=ink)
    below = write(drawing, name, x + PAD_MM + 2, below + 4, inner, align="center", colour=ink)
    if words:
        write(drawing, words, x + PAD_MM + 2, below + 4, inner, align="center", colour=ink)
