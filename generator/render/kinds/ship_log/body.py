"""A ship's log laid out: its body (name, particulars, ratings, numbers, rows of boxes, check
boxes, tables) and its turn log, as `items` in mm from the log's inner corner.

What a log holds is its `LogCard` (the ruleset's to say); this module only decides where each
part stands: the rows of boxes start at one x (`Columns`, shared by every log of a sheet),
a row's boxes wrap at the log's width with the ½ mark and ticks between them, and what a
row's last box brings stands beside its boxes or under them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from generator.errors import QuartermasterError
from generator.render.draw import Fitted, fit, wrap
from generator.render.kinds.ship_log.items import (
    BLOCK_MM,
    BOX_GAP_MM,
    BOX_MM,
    HALF_MM,
    LOG_HEAD_MM,
    LOG_ROW_MM,
    PITCH_MM,
    ROW_MM,
    RULE_PT,
    TICK_MM,
    TURN_MM,
    WRITE_MM,
    Band,
    Bookmark,
    Frame,
    Items,
    TrackMark,
    TurnField,
    line_mm,
    middle,
    width_mm,
)
from generator.ruleset.logcard import (
    Cell,
    Check,
    Checks,
    Choice,
    Fact,
    Figure,
    Full,
    Head,
    LogCard,
    Section,
    Table,
    TextCell,
    Track,
    Tracks,
    WriteCell,
    WriteIn,
    WriteIns,
    tooltip,
)

FACT_WRITE_MM = 9.0  # a blank log's write-in box for a rating ("+2")
NAME_WRITE_MM = 70.0  # a blank log's name box, where her particulars follow on its line ...
HEADS_BESIDE_MM = 60.0  # ... when the log leaves this much beside it
RIGHT_GAP_MM = 2.5  # between the left and the right column of a log
LABEL_GAP_MM = 0.6  # between a check box (and its space) and its label


@dataclass(frozen=True)
class Columns:
    """The widths a sheet's logs share, in mm."""

    label: float  # the label column of the rows of boxes
    group: float  # the label column of a group of rows
    check: float  # the least width of a labelled check box
    right: float  # the right-hand column of a pair row


def card_body(card: LogCard, width: float, cols: Columns) -> tuple[Items, float]:
    """Lay out a log but its turn log, `width` mm wide; return its items and height."""
    out = Items()
    y, after_name = _name_row(out, card, width)
    for line in card.lines:
        y = out.text(line, "sans", 7.5, 0, y, width)
    # a blank log stands as a headed one does: her particulars, her ratings, then her
    # numbers in their band (written in; the page says how to work them out)
    heads, figures = card.heads, card.figures
    if heads and after_name is not None and not card.lines:
        # a wide log: her particulars follow her name on its line
        y = _writeins(out, heads, 0, width, 0.25, start=after_name) + 0.6
    elif heads:
        y = _writeins(out, heads, 0, width, y + BLOCK_MM * 0.6)
    if card.facts:
        y = _facts(out, card.facts, width, y + BLOCK_MM * 0.6)
    if figures:
        y = _figures(out, figures, width, y + BLOCK_MM * 0.6)
    for row in card.rows:
        y += BLOCK_MM
        if isinstance(row, Full):
            for section in row.sections:
                y = _section(out, section, 0, width, y, cols) + BLOCK_MM * 0.5
            y -= BLOCK_MM * 0.5
        else:
            right = min(cols.right, width - 40.0)
            left_w = width - right - RIGHT_GAP_MM
            bottom = y
            for where, x0, w in (
                (row.left, 0.0, left_w),
                (row.right, left_w + RIGHT_GAP_MM, right),
            ):
                at = y
                for section in where:
                    at = _section(out, section, x0, w, at, cols) + BLOCK_MM * 0.5
                bottom = max(bottom, at - BLOCK_MM * 0.5)
            y = bottom
    return out, y


def _name_row(out: Items, card: LogCard, width: float) -> tuple[float, float | None]:
    """Lay out her name (a write-in box on a blank log); return the mm under it and, on a
    blank log wide enough for her particulars to follow on the name's line, where they
    start."""
    name = card.name
    if name is None:
        label = "Ship’s name"
        lw = width_mm(label, "sans", 7.5)
        out.text(label, "sans", 7.5, 0, middle(7.5, 6.0), lw + 0.5, colour="faint")
        box = width - lw - 1.5
        follow = box - NAME_WRITE_MM >= HEADS_BESIDE_MM
        if follow:
            box = NAME_WRITE_MM
        out.write_in(lw + 1.5, 0, box, 6.0, card.name_field)
        return 6.0 + 0.6, (lw + 1.5 + box + 3.0 if follow else None)
    tags = " · ".join(card.tags)
    tags_w = min(width_mm(tags, "sans-bold", 7.5) + 0.2, width * 0.45) if tags else 0.0
    room = width - tags_w - (2.5 if tags else 0.0)
    fitted = fit(name, "serif", room, 2 * line_mm(13), (13, 12, 11, 10, 9, 8), max_lines=2)
    if fitted is None:  # a name too long even at 8 pt on two lines: let it run on
        fitted = Fitted("serif", 8.0, tuple(wrap(name, "serif", 8.0, room)))
    out.add(Bookmark(0.0, 0.0, name))
    below = out.text(name, "serif", fitted.size, 0, 0, room, colour="accent", lines=fitted.lines)
    if tags:
        # the tags' first line sits on the name's first baseline
        top = fitted.line_mm * 0.78 - line_mm(7.5) * 0.78
        below = max(
            below,
            out.text(
                tags, "sans-bold", 7.5, width - tags_w, top, tags_w, align="right", colour="accent"
            ),
        )
    return below + 0.3, None


def _writeins(
    out: Items,
    entries: Sequence[Head | WriteIn],
    x0: float,
    width: float,
    y: float,
    start: float | None = None,
) -> float:
    """Labelled write-in boxes, flowing left to right (the first line from `start`)."""
    x = x0 if start is None else start
    for entry in entries:
        lw = width_mm(entry.label, "sans", 7)
        box = min(float(entry.width), width - lw - 1.0)
        if x > x0 and x + lw + 1.0 + box > x0 + width + 0.01:
            x, y = x0, y + WRITE_MM + 1.0
        out.text(entry.label, "sans", 7, x, y + middle(7, WRITE_MM), lw + 0.5, colour="faint")
        out.write_in(x + lw + 1.0, y, box, WRITE_MM, entry.field)
        x += lw + 1.0 + box + 3.0
    return y + WRITE_MM


def _facts(out: Items, facts: Sequence[Fact], width: float, y: float) -> float:
    if any(f.value is None for f in facts):
        # a blank log: each label left of its write-in box, as her particulars stand, in
        # even columns (the boxes one above another) on as few lines as they fit
        label_w = max(width_mm(f.label, "sans", 7) for f in facts) + 1.0
        per_line = max(1, min(len(facts), int((width + 3.0) // (label_w + FACT_WRITE_MM + 3.0))))
        per_line = math.ceil(len(facts) / math.ceil(len(facts) / per_line))
        column = width / per_line
        for index, fact in enumerate(facts):
            line, place = divmod(index, per_line)
            x, top = place * column, y + line * (WRITE_MM + 1.0)
            out.text(
                fact.label, "sans", 7, x, top + middle(7, WRITE_MM), label_w,
                colour="faint", lines=[fact.label],
            )  # fmt: skip
            out.write_in(x + label_w, top, FACT_WRITE_MM, WRITE_MM, fact.field)
        lines = math.ceil(len(facts) / per_line)
        return y + lines * (WRITE_MM + 1.0) - 1.0
    x, height = 0.0, line_mm(9)
    for fact in facts:
        assert fact.value is not None
        lw, vw = width_mm(fact.label, "sans", 7), width_mm(fact.value, "sans-bold", 9)
        if x > 0 and x + lw + 1.0 + vw > width:
            x, y = 0.0, y + height
        # the label's baseline on the value's
        out.text(
            fact.label,
            "sans",
            7,
            x,
            y + (line_mm(9) - line_mm(7)) * 0.78,
            lw + 0.5,
            colour="faint",
            lines=[fact.label],
        )
        out.text(fact.value, "sans-bold", 9, x + lw + 1.0, y, vw + 0.5, lines=[fact.value])
        x += lw + 1.0 + vw + 3.5
    return y + height


def _figures(out: Items, figures: Sequence[Figure], width: float, y: float) -> float:
    """The numbers worked out from her ratings, in a band: label, number, how it is made."""
    pad = 1.0
    label_w = max(width_mm(f.label, "sans-bold", 7.5) for f in figures) + 2.0
    top, start = y, len(out.items)
    y += 0.6
    inner = width - 2 * pad
    if all(f.value is None for f in figures):
        # a blank log: her numbers' write-in boxes flow along the band (the page says how
        # to work each out)
        x = pad
        for figure in figures:
            lw = width_mm(figure.label, "sans-bold", 7.5)
            box = min(float(figure.width), inner - lw - 1.0)
            if x > pad and x + lw + 1.0 + box > pad + inner + 0.01:
                x, y = pad, y + WRITE_MM + 0.6
            out.text(
                figure.label, "sans-bold", 7.5, x, y + middle(7.5, WRITE_MM), lw + 0.3,
                lines=[figure.label],
            )  # fmt: skip
            out.write_in(x + lw + 1.0, y, box, WRITE_MM, figure.field)
            x += lw + 1.0 + box + 3.0
        y += WRITE_MM + 0.6
        out.items.insert(start, Band(0.0, top, width, y - top))
        return y
    for figure in figures:
        x = pad
        out.text(figure.label, "sans-bold", 7.5, x, y + 0.35, label_w, lines=[figure.label])
        x += label_w
        if figure.value is None:
            box = float(figure.width)
            out.write_in(x, y, box, WRITE_MM, figure.field)
            row = WRITE_MM
            value_w = box
            first = (WRITE_MM - line_mm(7)) / 2
        else:
            value_w = min(width_mm(figure.value, "sans-bold", 8), inner - label_w)
            bottom = out.text(figure.value, "sans-bold", 8, x, y, value_w + 0.3, colour="accent")
            row = bottom - y
            first = (line_mm(8) - line_mm(7)) * 0.78
        how = figure.how
        if how:
            hx = x + value_w + 2.0
            room = pad + inner - hx
            if (
                room < 30.0 and width_mm(how, "sans", 7) > room
            ):  # no room beside the number: under it
                hx, room, first = x, pad + inner - x, row
            bottom = out.text(how, "sans", 7, hx, y + first, room, colour="faint")
            row = max(row, bottom - y)
        y += row + 0.5
    # the band is painted under its text
    out.items.insert(start, Band(0.0, top, width, y - top + 0.1))
    return y + 0.1


def _section(
    out: Items, section: Section, x0: float, width: float, y: float, cols: Columns
) -> float:
    if isinstance(section, Tracks):
        return _tracks(out, section, x0, width, y, cols)
    if isinstance(section, Checks):
        return _checks(out, section.entries, x0, width, y, cols.check)
    if isinstance(section, WriteIns):
        return _writeins(out, section.entries, x0, width, y)
    if isinstance(section, Choice):
        return _choice(out, section, x0, width, y, cols)
    return _table(out, section, x0, width, y)


def track_label_width(track: Track, size: float) -> float:
    """Return the width a row's label and value (or write-in box) need, in mm."""
    need = width_mm(track.label, "sans", size) + 1.0
    if track.value is not None:
        need += width_mm(track.value, "sans-bold", 9) + 1.0
    elif track.value_field:
        need += float(track.write_width) + 1.0
    return need + 1.5


def _tracks(out: Items, section: Tracks, x0: float, width: float, y: float, cols: Columns) -> float:
    group = bool(section.group)
    if group:
        y = out.text(section.group, "sans-bold", 7.5, x0, y, width) + 0.4
    label_w = cols.group if group else cols.label
    # what the rows' last boxes bring stands in one column, after the longest row that
    # keeps to one line
    ends = [row_width(t) for t in section.rows if t.note or t.end]
    single = [w for w in ends if label_w + w <= width - 30.0]
    end_at = x0 + label_w + max(single) + 0.5 if len(single) > 1 else None
    for track in section.rows:
        y = _track(out, track, x0, width, y, label_w, 7.5 if group else 8.0, end_at)
    return y


def row_width(track: Track) -> float:
    """Return the width of a row's boxes, marks and check boxes on one line, in mm."""
    width = len(track.boxes) * PITCH_MM
    for _, mark in track.marks:
        width += (HALF_MM if mark == "half" else TICK_MM) - BOX_GAP_MM
    for item in track.after:
        width += 1.0 + len(item.fields) * PITCH_MM + LABEL_GAP_MM + width_mm(item.label, "sans", 7)
        width += BOX_GAP_MM
    return width


def _track(
    out: Items,
    track: Track,
    x0: float,
    width: float,
    y: float,
    label_w: float,
    size: float,
    end_at: float | None = None,
) -> float:
    bx, right = x0 + label_w, x0 + width
    # the label, then its value (or write-in box) at the column's right
    room = label_w - 1.5
    value_w = width_mm(track.value, "sans-bold", 9) if track.value is not None else 0.0
    if track.value is not None:
        room -= value_w + 1.0
    elif track.value_field:
        room -= float(track.write_width) + 1.0
    lines = wrap(track.label, "sans", size, room)
    bottom = out.text(track.label, "sans", size, x0, y + middle(size), room, lines=lines)
    if track.value is not None:
        out.text(
            track.value, "sans-bold", 9, bx - 1.5 - value_w - 0.2, y + middle(9),
            value_w + 0.2, align="right", lines=[track.value],
        )  # fmt: skip
    elif track.value_field:
        width_in = float(track.write_width)
        out.write_in(bx - 1.5 - width_in, y, width_in, BOX_MM, track.value_field)
    if track.sub:
        bottom = out.text(track.sub, "sans", 7, x0, bottom, label_w - 1.5, colour="faint")
    # the boxes, the marks between them, and the check boxes after them
    marks = dict(track.marks)
    x, line = bx, y
    for index, name in enumerate(track.boxes):
        mark = marks.get(index)
        slot = (HALF_MM if mark == "half" else TICK_MM) - BOX_GAP_MM if mark else 0.0
        if x > bx and x + slot + BOX_MM > right + 0.01:
            x, line = bx, line + ROW_MM
        if mark:
            centre = x - BOX_GAP_MM / 2 + slot / 2 if x > bx else x + slot / 2
            out.add(TrackMark(centre, line, mark == "half"))
            x += slot
        out.box(x, line, name)
        x += PITCH_MM
    for item in track.after:
        lw = width_mm(item.label, "sans", 7)
        need = len(item.fields) * PITCH_MM + LABEL_GAP_MM + lw
        x += 1.0
        if x > bx and x + need > right + 0.01:
            x, line = bx, line + ROW_MM
        for name in item.fields:
            out.box(x, line, name)
            x += PITCH_MM
        x += LABEL_GAP_MM
        out.text(item.label, "sans", 7, x, line + middle(7), lw + 0.3, lines=[item.label])
        x += lw + BOX_GAP_MM
    bottom = max(bottom, line + ROW_MM)
    # what the row means: its note and what its last box brings, beside the boxes or under
    words = " · ".join(w for w in (track.note, track.end) if w)
    if words:
        start = x + 1.0 if x > bx else bx
        if end_at is not None and line == y:
            start = max(start, end_at)
        beside = wrap(words, "sans-italic", 7, right - start) if right - start >= 14.0 else []
        if beside and len(beside) * line_mm(7) <= ROW_MM + 0.01:
            top = line + middle(7) if len(beside) == 1 else line + (BOX_MM - 2 * line_mm(7)) / 2
            out.text(
                words, "sans-italic", 7, start, top, right - start, colour="faint", lines=beside
            )
        else:
            under = out.text(
                words, "sans-italic", 7, bx, line + BOX_MM + 0.4, right - bx, colour="faint"
            )
            bottom = max(bottom, under + 0.6)
    return bottom


def _checks(
    out: Items,
    entries: Sequence[Check],
    x0: float,
    width: float,
    y: float,
    least: float,
) -> float:
    """Labelled check boxes: on one line if they fit, else in as many even columns as
    their labels leave room for."""
    needs = [
        len(e.fields) * PITCH_MM + LABEL_GAP_MM + width_mm(e.label, "sans", 7.5) + 2.0
        for e in entries
    ]
    if sum(needs) <= width + 1e-6:  # one line, the spare width shared out between them
        columns = len(entries)
        spare = (width - sum(needs)) / columns
        cells = [n + spare for n in needs]
    else:
        columns = max(1, int((width + 1e-6) // max(least, *needs)))
        cells = [width / columns] * columns
    lefts = [x0 + sum(cells[:i]) for i in range(columns)]
    rows = math.ceil(len(entries) / columns)
    for index, entry in enumerate(entries):
        row, column = divmod(index, columns)
        x, top = lefts[column], y + row * ROW_MM
        for name in entry.fields:
            out.box(x, top, name)
            x += PITCH_MM
        x += LABEL_GAP_MM
        room = lefts[column] + cells[column] - x - 1.0
        lines = wrap(entry.label, "sans", 7.5, room)
        size = 7.5 if len(lines) == 1 else 7.0
        lines = lines if size == 7.5 else wrap(entry.label, "sans", 7.0, room)
        top_text = (
            top + middle(size)
            if len(lines) == 1
            else top + (BOX_MM - len(lines) * line_mm(size)) / 2
        )
        out.text(entry.label, "sans", size, x, top_text, room, lines=lines)
    return y + rows * ROW_MM - (ROW_MM - BOX_MM)


def _choice(out: Items, section: Choice, x0: float, width: float, y: float, cols: Columns) -> float:
    label_w = min(cols.label, width / 3)
    out.text(section.label, "sans", 8, x0, y + middle(8), label_w - 1.5)
    x, line = x0 + label_w, y
    for option in section.options:
        font = "sans-bold" if option.start else "sans"
        lw = width_mm(option.label, font, 7.5)
        if x > x0 + label_w and x + PITCH_MM + LABEL_GAP_MM + lw > x0 + width:
            x, line = x0 + label_w, line + ROW_MM
        out.box(x, line, option.field)
        top = line + middle(7.5)
        out.text(
            option.label, font, 7.5, x + PITCH_MM + LABEL_GAP_MM, top, lw + 0.3,
            lines=[option.label],
        )  # fmt: skip
        if option.start:  # her starting space, underlined
            out.line(
                x + PITCH_MM + LABEL_GAP_MM,
                top + line_mm(7.5) * 0.86,
                lw,
                0.0,
                colour="ink",
                pt=0.6,
            )
        x += PITCH_MM + LABEL_GAP_MM + lw + 3.0
    return line + BOX_MM


def _cell_width(cell: Cell) -> float:
    if isinstance(cell, TextCell):
        return width_mm(cell.text, "sans", 8.5)
    if isinstance(cell, WriteCell):
        return float(cell.width)
    return len(cell.fields) * PITCH_MM - BOX_GAP_MM


TABLE_HEAD_MM, TABLE_ROW_MM, TABLE_PAD_MM = 4.6, 5.9, 2.4


def _table(out: Items, section: Table, x0: float, width: float, y: float) -> float:
    head, rows = section.head, section.rows
    need = [
        max(
            [width_mm(head[0], "sans-bold", 7)]
            + [width_mm(r.label, "sans-bold", 7.5) for r in rows]
        )
        + TABLE_PAD_MM
    ]
    for i in range(1, len(head)):
        need.append(
            max([width_mm(head[i], "sans-bold", 7)] + [_cell_width(r.cells[i - 1]) for r in rows])
            + TABLE_PAD_MM
        )
    spare = width - sum(need)
    if spare < -0.01:
        raise QuartermasterError(f"a ship's log table is {-spare:.1f} mm too wide: {list(head)}")
    widths = [w + spare / len(need) for w in need]
    lefts = [x0 + sum(widths[:i]) for i in range(len(widths))]
    out.add(Band(x0, y, width, TABLE_HEAD_MM, head=True))
    for i, title in enumerate(head):
        align = "left" if i == 0 else "center"
        x = lefts[i] + (1.2 if i == 0 else 0.0)
        out.text(
            title,
            "sans-bold",
            7,
            x,
            y + middle(7, TABLE_HEAD_MM),
            widths[i] - (1.2 if i == 0 else 0),
            align=align,
            lines=[title],
        )
    top = y + TABLE_HEAD_MM
    for row in rows:
        out.line(x0, top, width, 0.0)
        out.text(
            row.label,
            "sans-bold",
            7.5,
            lefts[0] + 1.2,
            top + middle(7.5, TABLE_ROW_MM),
            widths[0] - 1.2,
            lines=[row.label],
        )
        for i, cell in enumerate(row.cells, start=1):
            centre = lefts[i] + widths[i] / 2
            if isinstance(cell, TextCell):
                out.text(
                    cell.text,
                    "sans",
                    8.5,
                    lefts[i],
                    top + middle(8.5, TABLE_ROW_MM),
                    widths[i],
                    align="center",
                    lines=[cell.text],
                )
            elif isinstance(cell, WriteCell):
                w = float(cell.width)
                out.write_in(centre - w / 2, top + (TABLE_ROW_MM - 5.2) / 2, w, 5.2, cell.field)
            else:
                x = centre - _cell_width(cell) / 2
                for name in cell.fields:
                    out.box(x, top + (TABLE_ROW_MM - BOX_MM) / 2, name)
                    x += PITCH_MM
        top += TABLE_ROW_MM
    out.add(Frame(x0, y, width, top - y, "rule", RULE_PT))
    for left in lefts[1:]:
        out.line(left, y, 0.0, top - y)
    return top


def turn_log(
    out: Items, card: LogCard, x0: float, width: float, y: float, rows: int, columns: int
) -> float:
    """The turn log: a heading and `rows` rows of Turn and Notes in `columns` columns."""
    prefix = card.prefix
    out.add(Band(x0, y, width, LOG_HEAD_MM, head=True))
    column = width / columns
    for c in range(columns):
        left = x0 + c * column
        out.text(
            "Turn",
            "sans-bold",
            7,
            left + 1.0,
            y + middle(7, LOG_HEAD_MM),
            TURN_MM - 1.0,
            lines=["Turn"],
        )
        out.text(
            "Notes",
            "sans-bold",
            7,
            left + TURN_MM + 1.0,
            y + middle(7, LOG_HEAD_MM),
            column - TURN_MM - 1.0,
            lines=["Notes"],
        )
    top = y + LOG_HEAD_MM
    bottom = top + rows * LOG_ROW_MM
    for r in range(rows):
        line = top + r * LOG_ROW_MM
        out.line(x0, line, width, 0.0)
        for c in range(columns):
            number = r * columns + c + 1
            left = x0 + c * column
            inset = 0.25
            out.add(
                TurnField(
                    x=left + inset,
                    y=line + inset,
                    w=TURN_MM - 2 * inset,
                    h=LOG_ROW_MM - 2 * inset,
                    name=f"{prefix}_log_{number}_turn",
                    tip=tooltip(card.name, f"Turn log, entry {number}: turn"),
                )
            )
            out.add(
                TurnField(
                    x=left + TURN_MM + inset,
                    y=line + inset,
                    w=column - TURN_MM - 2 * inset,
                    h=LOG_ROW_MM - 2 * inset,
                    name=f"{prefix}_log_{number}_notes",
                    tip=tooltip(card.name, f"Turn log, entry {number}: notes"),
                )
            )
    for c in range(columns):
        left = x0 + c * column
        if c:
            out.line(left, y, 0.0, bottom - y)
        out.line(left + TURN_MM, y, 0.0, bottom - y)
    out.add(Frame(x0, y, width, bottom - y, "rule", RULE_PT))
    return bottom
