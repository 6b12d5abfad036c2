"""The counters sheet painted with ReportLab: each page's header, its blocks of pairs (a
counter and its reverse, their cut lines and folds), the markers, the tracks and the key."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from reportlab.lib.colors import Color, HexColor

from generator.errors import InputError
from generator.render.draw import MM, Drawing, Fitted, fit, text_width_mm
from generator.render.kinds.counters.face import (
    BOW_BULGE_MM,
    LABEL_PT,
    PENNANT_MM,
    PT_MM,
    Band,
    Bow,
    Counter,
    Face,
    Pennant,
    Reverse,
    Shape,
    baseline_mm,
)
from generator.render.kinds.counters.sheet import (
    FOLD_WORD,
    KEY_PT,
    MARKER_FRAME_MM,
    MARKER_MM,
    PAGE_LABEL_PT,
    TRACK_BOX_MM,
    CounterPage,
    Crop,
    Fold,
    KeyParagraph,
    MarkerPiece,
    PieceBlock,
    ShipBlock,
    StateMarker,
    TrackBlock,
    TrackMarker,
    WindGauge,
)

FOLD_PT = 0.7
FOLD_DASH_MM = (2.0, 1.2)
CUT_LINE_PT = 0.35
SIDE_WORDS = {  # how a side's band is told apart, in colour and in mono
    "colour": ("red band", "blue band"),
    "mono": ("solid black band", "hatched band"),
}


def paint_page(drawing: Drawing, context: Mapping[str, Any], page: CounterPage) -> None:
    """Paint one page: its header, its blocks and (on the first) the key."""
    _write_header(drawing, context, page)
    for block in page.blocks:
        if isinstance(block, TrackBlock):
            _track(drawing, block)
        elif isinstance(block, PieceBlock):
            _block(drawing, context, block)
    if page.number == 1:
        _write_key(drawing, context, context["frame"])


def _colour(drawing: Drawing, name: str) -> Color:
    return HexColor(drawing.colours.get(name, name))


def _side_colour(drawing: Drawing, side: int) -> Color:
    return _colour(drawing, "accent" if side == 0 else "blue")


def _lines(
    drawing: Drawing,
    fitted: Fitted,
    left: float,
    top: float,
    *,
    colour: str = "ink",
    leading: float = 1.2,
) -> float:
    """Write a fitted paragraph from `top` down; return the mm under it."""
    canvas = drawing.canvas
    canvas.setFillColor(_colour(drawing, colour))
    canvas.setFont(fitted.font, fitted.size)
    line = float(fitted.size) * leading * PT_MM
    for i, text in enumerate(fitted.lines):
        canvas.drawString(drawing.x(left), drawing.y(top + i * line + line * 0.78), text)
    return top + len(fitted.lines) * line


def _write_header(drawing: Drawing, context: Mapping[str, Any], page: CounterPage) -> float:
    frame = context["frame"]
    left, top = frame["left"], frame["top"]
    below = _lines(drawing, context["title"], left, top, colour="accent")
    below = _lines(drawing, context["header"], left, below + 1.0)
    if page.label:
        canvas = drawing.canvas
        canvas.setFont("sans", PAGE_LABEL_PT)
        canvas.setFillColor(_colour(drawing, "faint"))
        canvas.drawRightString(
            drawing.x(left + frame["width"]),
            drawing.y(top + context["title"].size * 1.2 * PT_MM * 0.78),
            page.label,
        )
    return below


def _heading(drawing: Drawing, context: Mapping[str, Any], block: PieceBlock) -> None:
    """A block's heading: its title, what it holds, and a rule under them."""
    frame = context["frame"]
    left, width = frame["left"], frame["width"]
    canvas = drawing.canvas
    title = block.title + (" (continued)" if block.continued else "")
    if isinstance(block, ShipBlock):
        count = block.count
        words = SIDE_WORDS["mono" if drawing.mono else "colour"][block.side]
        small = f"{count} {'ship' if count == 1 else 'ships'} · {words}"
    else:
        small = "cut out each one; a track's marker moves on its track"
    small_w = text_width_mm(small, "sans", 8.0)
    head = fit(title, "serif", width - small_w - 3.0, 5.0, (11.0, 10.0, 9.0, 8.0, 7.0))
    if head is None:
        raise InputError(f"the heading '{title}' does not fit the counters sheet")
    baseline = block.top + 4.6
    canvas.setFillColor(_colour(drawing, "accent"))
    canvas.setFont(head.font, head.size)
    canvas.drawString(drawing.x(left), drawing.y(baseline), head.lines[0])
    canvas.setFillColor(_colour(drawing, "faint"))
    canvas.setFont("sans", 8.0)
    title_w = text_width_mm(head.lines[0], head.font, head.size)
    canvas.drawString(drawing.x(left + title_w + 2.0), drawing.y(baseline), small)
    canvas.setStrokeColor(_colour(drawing, "rule"))
    canvas.setLineWidth(0.5)
    rule = block.top + 6.0
    canvas.line(drawing.x(left), drawing.y(rule), drawing.x(left + width), drawing.y(rule))


def _block(drawing: Drawing, context: Mapping[str, Any], block: PieceBlock) -> None:
    _heading(drawing, context, block)
    shape = Shape(context["shape"]["hexagon"], context["shape"]["size"])
    for item in block.items:
        if isinstance(item.piece, Counter):
            _pair(drawing, shape, item.piece, item.x, item.y)
        else:
            _marker(drawing, item.piece, item.x, item.y)
    if isinstance(block, ShipBlock):
        for fold in block.folds:
            _fold(drawing, fold)
    _crop_marks(drawing, block.crops)


def _crop_marks(drawing: Drawing, marks: Sequence[Crop]) -> None:
    drawing.canvas.setFillColor(_colour(drawing, "ink"))
    for mark in marks:
        drawing.rect(mark.x, mark.y, mark.w, mark.h, stroke=0, fill=1)


def _path(drawing: Drawing, points: Sequence[tuple[float, float]], x: float, y: float) -> Any:
    path = drawing.canvas.beginPath()
    first, *rest = points
    path.moveTo(drawing.x(x + first[0]), drawing.y(y + first[1]))
    for px, py in rest:
        path.lineTo(drawing.x(x + px), drawing.y(y + py))
    path.close()
    return path


def _cut_colour(drawing: Drawing) -> Any:
    return _colour(drawing, "#000000" if drawing.mono else "#9a948a")


def _pair(drawing: Drawing, shape: Shape, made: Counter, x: float, y: float) -> None:
    """A counter and its reverse under it at (x, y), the cut line round both (the fold
    between them is drawn across the whole row: `_fold`)."""
    side = made.side
    _face(drawing, shape, made.face, side, x, y)
    if made.reverse is not None:
        _reverse(drawing, shape, made.reverse, side, x, y + shape.height)
    canvas = drawing.canvas
    canvas.setStrokeColor(_cut_colour(drawing))
    canvas.setLineWidth(CUT_LINE_PT)
    outline = shape.outline()
    if made.reverse is None:
        canvas.drawPath(_path(drawing, outline, x, y), stroke=1, fill=0)
        return
    h = shape.height
    if shape.hexagon:  # two hexes sharing the flat edge between them
        w = shape.width
        points = [
            (w / 4, 0),
            (3 * w / 4, 0),
            (w, h / 2),
            (3 * w / 4, h),
            (w, 3 * h / 2),
            (3 * w / 4, 2 * h),
            (w / 4, 2 * h),
            (0, 3 * h / 2),
            (w / 4, h),
            (0, h / 2),
        ]
    else:
        points = [(0, 0), (shape.width, 0), (shape.width, 2 * h), (0, 2 * h)]
    canvas.drawPath(_path(drawing, points, x, y), stroke=1, fill=0)


def _fold(drawing: Drawing, fold: Fold) -> None:
    """A row's fold: a dashed line in ink across the pairs and the gaps between them, the
    word "fold" at each end."""
    canvas = drawing.canvas
    canvas.saveState()
    canvas.setLineWidth(FOLD_PT)
    y = drawing.y(fold.y)
    # on paper, white under the dashes, so that they show where a band (dark, and in
    # colour the side's) runs along the fold, as white and ink dashes
    canvas.setStrokeColor(_colour(drawing, "paper"))
    canvas.line(drawing.x(fold.x0), y, drawing.x(fold.x1), y)
    canvas.setStrokeColor(_colour(drawing, "ink"))
    canvas.setDash(*(d * MM for d in FOLD_DASH_MM))
    canvas.line(drawing.x(fold.x0), y, drawing.x(fold.x1), y)
    canvas.restoreState()
    canvas.setFillColor(_colour(drawing, "ink"))
    canvas.setFont("sans-bold", LABEL_PT)
    baseline = drawing.y(baseline_mm(fold.y, fold.y, LABEL_PT))
    for x in fold.words:
        canvas.drawString(drawing.x(x), baseline, FOLD_WORD)


def _clip_to(drawing: Drawing, shape: Shape, x: float, y: float) -> None:
    path = _path(drawing, shape.outline(), x, y)
    drawing.canvas.clipPath(path, stroke=0, fill=0)


def _band(drawing: Drawing, shape: Shape, band: Band, side: int, x: float, y: float) -> None:
    """The navy band across the counter, clipped to its outline; in mono the second side's
    is hatched, its word on a white ground."""
    canvas = drawing.canvas
    top, bottom = shape.rows()["band"]
    canvas.saveState()
    _clip_to(drawing, shape, x, y)
    hatched = drawing.mono and side == 1
    if hatched:
        canvas.setStrokeColor(_colour(drawing, "ink"))
        canvas.setLineWidth(0.45)
        step = 1.0
        height = bottom - top
        start = -height
        while start < shape.width:
            canvas.line(
                drawing.x(x + start),
                drawing.y(y + bottom),
                drawing.x(x + start + height),
                drawing.y(y + top),
            )
            start += step
    else:
        canvas.setFillColor(_side_colour(drawing, side))
        canvas.rect(
            drawing.x(x - 1),
            drawing.y(y + bottom),
            (shape.width + 2) * MM,
            (bottom - top) * MM,
            stroke=0,
            fill=1,
        )
    canvas.restoreState()
    width = text_width_mm(band.text, "sans-bold", band.size)
    centre = x + shape.width / 2
    if hatched:
        canvas.setFillColor(_colour(drawing, "paper"))
        canvas.rect(
            drawing.x(centre - width / 2 - 0.7),
            drawing.y(y + bottom - 0.35),
            (width + 1.4) * MM,
            (bottom - top - 0.7) * MM,
            stroke=0,
            fill=1,
        )
    canvas.setFillColor(_colour(drawing, "ink" if hatched else "paper"))
    canvas.setFont("sans-bold", band.size)
    canvas.drawCentredString(drawing.x(centre), drawing.y(y + band.baseline), band.text)


def _bow(drawing: Drawing, bow: Bow, side: int, x: float, y: float) -> None:
    """The bow: a pointed wedge, its tip at the top edge, its sides bowed out like a hull's."""
    canvas = drawing.canvas
    left, width = x + bow.x, bow.w
    top, bottom = y + bow.top - 0.2, y + bow.bottom
    tip = left + width / 2
    # the left side's outward normal, to bow both sides out by BOW_BULGE_MM
    dx, dy = tip - left, top - bottom
    length = math.hypot(dx, dy)
    ox, oy = dy / length * BOW_BULGE_MM, -dx / length * BOW_BULGE_MM
    near = (left + dx / 3 + ox, bottom + dy / 3 + oy)
    far = (left + 2 * dx / 3 + ox, bottom + 2 * dy / 3 + oy)
    path = canvas.beginPath()
    path.moveTo(drawing.x(left), drawing.y(bottom))
    path.curveTo(
        drawing.x(near[0]), drawing.y(near[1]), drawing.x(far[0]), drawing.y(far[1]),
        drawing.x(tip), drawing.y(top),
    )  # fmt: skip
    path.curveTo(
        drawing.x(2 * tip - far[0]), drawing.y(far[1]),
        drawing.x(2 * tip - near[0]), drawing.y(near[1]),
        drawing.x(left + width), drawing.y(bottom),
    )  # fmt: skip
    path.close()
    colour = _colour(drawing, "ink") if drawing.mono else _side_colour(drawing, side)
    canvas.setFillColor(colour)
    canvas.drawPath(path, stroke=0, fill=1)


def _stack(
    drawing: Drawing, shape: Shape, stack: Sequence[Sequence[Any]], x: float, y: float
) -> None:
    canvas = drawing.canvas
    canvas.setFillColor(_colour(drawing, "ink"))
    centre = drawing.x(x + shape.width / 2)
    for text, font, size, baseline in stack:
        canvas.setFont(font, size)
        canvas.drawCentredString(centre, drawing.y(y + baseline), text)


def _face(drawing: Drawing, shape: Shape, face: Face, side: int, x: float, y: float) -> None:
    canvas = drawing.canvas
    canvas.setFillColor(_colour(drawing, "paper"))
    canvas.drawPath(_path(drawing, shape.outline(), x, y), stroke=0, fill=1)
    _band(drawing, shape, face.band, side, x, y)
    _bow(drawing, face.bow, side, x, y)
    _stack(drawing, shape, face.stack, x, y)
    for corner in face.corners:
        at = x + corner.x
        if corner.short:
            canvas.setFillColor(_colour(drawing, "faint"))
            canvas.setFont("sans", LABEL_PT)
            canvas.drawString(drawing.x(at), drawing.y(y + corner.baseline), corner.short)
            at += text_width_mm(corner.short, "sans", LABEL_PT) + 0.35
        canvas.setFillColor(_colour(drawing, "ink"))
        canvas.setFont("sans-bold", corner.size)
        canvas.drawString(drawing.x(at), drawing.y(y + corner.baseline), corner.value)
    if face.pennant:
        _pennant(drawing, face.pennant, side, x, y)


def _pennant(drawing: Drawing, pennant: Pennant, side: int, x: float, y: float) -> None:
    """The flagship's pennant: a staff and a swallow-tailed flag."""
    canvas = drawing.canvas
    top, bottom = pennant.row
    staff = x + pennant.x - PENNANT_MM / 2 + 0.2
    top, bottom = y + top + 0.2, y + bottom - 0.2
    colour = _colour(drawing, "ink") if drawing.mono else _side_colour(drawing, side)
    canvas.setStrokeColor(_colour(drawing, "ink"))
    canvas.setLineWidth(0.5)
    canvas.line(drawing.x(staff), drawing.y(top), drawing.x(staff), drawing.y(bottom))
    flag = [
        (0, 0),
        (PENNANT_MM - 0.2, 0),
        (PENNANT_MM - 1.2, 0.85),
        (PENNANT_MM - 0.2, 1.7),
        (0, 1.7),
    ]
    canvas.setFillColor(colour)
    canvas.drawPath(_path(drawing, flag, staff, top), stroke=0, fill=1)


def _reverse(
    drawing: Drawing, shape: Shape, reverse: Reverse, side: int, x: float, y: float
) -> None:
    """The back of a counter: her side's tint, the bow, her name, her band and the word of
    her state (STRUCK) in a box."""
    canvas = drawing.canvas
    tint = "paper" if drawing.mono else ("#f3e1da" if side == 0 else "#dde7f2")
    canvas.setFillColor(_colour(drawing, tint))
    canvas.drawPath(_path(drawing, shape.outline(), x, y), stroke=0, fill=1)
    _band(drawing, shape, reverse.band, side, x, y)
    _bow(drawing, reverse.bow, side, x, y)
    _stack(drawing, shape, reverse.stack, x, y)
    stamp = reverse.stamp
    red = _colour(drawing, "red")
    canvas.setFillColor(_colour(drawing, "paper"))
    canvas.setStrokeColor(red)
    canvas.setLineWidth(0.7)
    canvas.rect(
        drawing.x(x + stamp.x),
        drawing.y(y + stamp.bottom),
        stamp.w * MM,
        (stamp.bottom - stamp.top) * MM,
        stroke=1,
        fill=1,
    )
    canvas.setFillColor(red)
    canvas.setFont("sans-bold", stamp.size)
    canvas.drawCentredString(
        drawing.x(x + shape.width / 2), drawing.y(y + stamp.baseline), stamp.text
    )


def _marker(drawing: Drawing, piece: MarkerPiece, x: float, y: float) -> None:
    """A marker at (x, y): a state's word on a ruled square, the wind gauge's arrow, or a
    track's marker (white on ink, to stand out on its track)."""
    canvas = drawing.canvas
    size = MARKER_MM
    ink, paper = _colour(drawing, "ink"), _colour(drawing, "paper")
    track = isinstance(piece, TrackMarker)
    canvas.setFillColor(ink if track else paper)
    drawing.rect(x, y, size, size, stroke=0, fill=1)
    canvas.setStrokeColor(_cut_colour(drawing))
    canvas.setLineWidth(CUT_LINE_PT)
    drawing.rect(x, y, size, size, stroke=1, fill=0)
    if isinstance(piece, StateMarker):
        canvas.setStrokeColor(_colour(drawing, "red"))
        canvas.setLineWidth(1.2)
        inset = MARKER_FRAME_MM
        canvas.rect(
            drawing.x(x + inset),
            drawing.y(y + size - inset),
            (size - 2 * inset) * MM,
            (size - 2 * inset) * MM,
            stroke=1,
            fill=0,
        )
    if isinstance(piece, WindGauge):
        _wind_arrow(drawing, x, y, size)
        return
    word = piece.word
    line = word.size * 1.15 * PT_MM
    first = y + (size - len(word.lines) * line) / 2
    canvas.setFillColor(paper if track else ink)
    canvas.setFont("sans-bold", word.size)
    for i, text in enumerate(word.lines):
        top = first + i * line
        canvas.drawCentredString(
            drawing.x(x + size / 2), drawing.y(baseline_mm(top, top + line, word.size)), text
        )


def _wind_arrow(drawing: Drawing, x: float, y: float, size: float) -> None:
    """The wind gauge: a bold arrow pointing where the wind blows, fletched at its tail."""
    canvas = drawing.canvas
    cx = x + size / 2
    head, tail = y + 1.2, y + size - 1.2
    shaft = 0.9
    points = [
        (cx, head),
        (cx + 2.6, head + 3.4),
        (cx + shaft / 2, head + 3.4),
        (cx + shaft / 2, tail - 2.4),
        (cx + 2.0, tail),
        (cx + 0.9, tail),
        (cx, tail - 1.2),
        (cx - 0.9, tail),
        (cx - 2.0, tail),
        (cx - shaft / 2, tail - 2.4),
        (cx - shaft / 2, head + 3.4),
        (cx - 2.6, head + 3.4),
    ]
    canvas.setFillColor(_colour(drawing, "blue"))
    canvas.drawPath(_path(drawing, points, 0, 0), stroke=0, fill=1)
    canvas.setFillColor(_colour(drawing, "ink"))
    canvas.setFont("sans-bold", LABEL_PT)
    canvas.saveState()
    # along the left edge, clear of the arrow's head (2.6 mm each side of its shaft)
    canvas.translate(drawing.x(x + 3.0), drawing.y(y + size / 2))
    canvas.rotate(90)
    canvas.drawCentredString(0, 0, "WIND")
    canvas.restoreState()


def _track(drawing: Drawing, block: TrackBlock) -> None:
    """A track: numbered spaces in rows, its last space marked the end."""
    canvas = drawing.canvas
    left = block.left
    # the heading: the track's name and what it holds
    canvas.setFillColor(_colour(drawing, "accent"))
    canvas.setFont("serif", 11.0)
    title = block.title + (" (continued)" if block.continued else "")
    canvas.drawString(drawing.x(left), drawing.y(block.top + 4.6), title)
    small = f"{block.last} spaces, for the {block.marker.lower()} marker"
    canvas.setFillColor(_colour(drawing, "faint"))
    canvas.setFont("sans", 8.0)
    canvas.drawString(
        drawing.x(left + text_width_mm(title, "serif", 11.0) + 2.0),
        drawing.y(block.top + 4.6),
        small,
    )
    for space in block.spaces:
        last = space.number == block.last
        sx, sy = space.x, space.y
        canvas.setStrokeColor(_colour(drawing, "accent" if last else "rule"))
        canvas.setLineWidth(1.4 if last else 0.5)
        inset = 0.7 if last else 0.0
        canvas.rect(
            drawing.x(sx + inset),
            drawing.y(sy + TRACK_BOX_MM - inset),
            (TRACK_BOX_MM - 2 * inset) * MM,
            (TRACK_BOX_MM - 2 * inset) * MM,
            stroke=1,
            fill=0,
        )
        canvas.setFillColor(_colour(drawing, "faint"))
        canvas.setFont("sans-bold" if last else "sans", LABEL_PT)
        canvas.drawString(drawing.x(sx + 1.3), drawing.y(sy + 3.6), str(space.number))
        if last:
            canvas.setFillColor(_colour(drawing, "accent"))
            canvas.drawCentredString(
                drawing.x(sx + TRACK_BOX_MM / 2), drawing.y(sy + TRACK_BOX_MM - 2.0), "END"
            )


def _write_key(drawing: Drawing, context: Mapping[str, Any], frame: Mapping[str, float]) -> None:
    """The key at the foot of the last page, in two columns."""
    canvas = drawing.canvas
    line = KEY_PT * 1.2 * PT_MM
    canvas.setFillColor(_colour(drawing, "ink"))
    paragraph: KeyParagraph
    for paragraph in context["key"]:
        top = context["key_top"] + paragraph.top
        for i, text in enumerate(paragraph.lines):
            baseline = drawing.y(top + i * line + line * 0.78)
            x = frame["left"] + paragraph.left
            if i == 0:
                canvas.setFont("sans-bold", KEY_PT)
                canvas.drawString(drawing.x(x), baseline, paragraph.lead)
                x += paragraph.lead_w
            canvas.setFont("sans", KEY_PT)
            canvas.drawString(drawing.x(x), baseline, text)
