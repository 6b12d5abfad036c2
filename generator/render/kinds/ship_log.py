"""Ship's logs: a record for every ship of a scenario, several to a page, drawn with ReportLab.

Every rating or capacity a ruleset wears down is a row of boxes to cross off, with a tick at
every level where its rules say something happens (the ½ mark, a lost-points threshold) and
the effect of the last box printed after it; every state its rules track is a check box; the
numbers a player would otherwise work out from the ship's ratings (her rolls, ranges, attack
numbers, dice) stand in a band under her particulars; and each log ends in a turn log
(turn, notes) that takes whatever height its page has left. What a ruleset's log holds is
its implementation's to say (`RulesetContract.ship_log`: a frozen `LogCard`, built with
`Log`); how its logs stand on the page is the ``ship-log`` section of its spec.

Each side starts a page; every page has a running header with the side and the page. The
labels of the rows of boxes stand in one column, so that every row's boxes start at one x.
Without a scenario the sheet is one page of blank logs: write-in boxes for the ship's name
and ratings, and rows as long as the largest rating the ruleset's generator can give.

The layout is worked out in `context` (plain data: items in mm on each page) and `draw`
only paints it: printed and fillable logs come from the same items, the form fields laid
over the printed boxes. Field names start with the side's and the ship's place, so they
stay unique when the logs of both sides go into one PDF (a game-night packet).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from generator.errors import QuartermasterError
from generator.loading import Rules
from generator.render import expressions
from generator.render.draw import LEADING, MM, Box, Drawing, Fitted, fit, text_width_mm, wrap, write
from generator.render.house import house_tables_line
from generator.render.pagenumbers import page_label
from generator.render.sheets import page_boxes
from generator.ruleset import contract
from generator.ruleset.logcard import (
    Cell,
    Check,
    Checks,
    Choice,
    Fact,
    Figure,
    Full,
    Head,
    Log,
    LogCard,
    Section,
    Table,
    TextCell,
    Track,
    Tracks,
    WriteCell,
    WriteIn,
    WriteIns,
    slug,
    tooltip,
)
from generator.rulesets import SpecError, sheet_section

GAP_MM = 3.0  # between two logs side by side, and under every log
PAD_MM = 2.2  # inside a log's border
BORDER_PT = 0.8
BOX_MM, BOX_GAP_MM = 5.0, 0.5  # a box to cross off, and the space after it
PITCH_MM = BOX_MM + BOX_GAP_MM
ROW_MM = 6.0  # a row of boxes: a box and the space under it
HALF_MM, TICK_MM = 3.4, 2.0  # the room the ½ mark and a tick take between two boxes
TICK_PT = 1.3
WRITE_MM = 5.5  # a write-in box's height
FACT_WRITE_MM = 9.0  # a blank log's write-in box for a rating ("+2")
NAME_WRITE_MM = 70.0  # a blank log's name box, where her particulars follow on its line ...
HEADS_BESIDE_MM = 60.0  # ... when the log leaves this much beside it
RIGHT_GAP_MM = 2.5  # between the left and the right column of a log
BLOCK_MM = 1.0  # between the parts of a log
TURN_MM, LOG_HEAD_MM, LOG_ROW_MM = 10.0, 4.2, 6.0  # turn log: turn column, heading, a row
RULE_PT = 0.5
BOX_PT = 0.7
LABEL_GAP_MM = 0.6  # between a check box (and its space) and its label
LABEL_CAP_MM = 44.0  # a label column never takes more than this; longer labels wrap
# a ship's outline entry: under her side (level 1) and its ship's log (level 2) in a packet
SHIP_MARK_LEVEL = 3


def _lh(size: float) -> float:
    """Return the height of a line of text at `size` pt, in mm."""
    return size * LEADING / MM


def _w(text: str, font: str, size: float) -> float:
    return text_width_mm(text, font, size)


# ---------------------------------------------------------------- the spec's section


@dataclass(frozen=True)
class LogLayout:
    """How the logs of a ruleset are laid out: the ``ship-log`` section of its spec (widths
    in mm, each the least a column takes: a wider label widens it)."""

    layout: str  # "half": two logs side by side; "full": the page's width
    blank_logs: int  # logs on a blank page
    turn_log: tuple[int, int]  # turn log: the fewest rows, and its columns
    label: float  # the label column of the rows of boxes
    right: float  # the right-hand column of a "pair" row
    check: float  # one labelled check box, when check boxes stand in columns
    group_label: float = 0.0  # the label column of a group of rows (the officers')
    blank_label: float = 5.0  # added to `label` on a blank log (a write-in box)
    # how many turns the game lasts at most, a Jinja text over `scenario` (None: a blank
    # log) and `params` (a table's params by its id); "" when the rules set no length
    turns: str = ""
    where: str = ""  # the spec's file and line of `turns`

    def game_turns(self, rules: Rules, scenario: Mapping[str, Any] | None) -> int | None:
        """Return how many turns a game lasts at most (a log has a row for each), or None
        when the rules set no length."""
        if not self.turns:
            return None
        text = expressions.text(
            self.turns,
            self.where,
            scenario=scenario,
            params=lambda table_id: rules.table(table_id).params,
        )
        if not text.isdigit():
            raise SpecError(f"{self.where}: turns must come to a whole number, not {text!r}")
        return int(text)


WIDTHS = {"label", "right", "check", "group_label", "blank_label"}
KEYS = {"layout", "blank_logs", "turn_log", "widths", "turns"}


@cache
def layout_of(ruleset: str) -> LogLayout:
    """Return the ship-log section of `ruleset`'s spec, checked."""
    raw, spec = sheet_section(ruleset, "ship-log")
    where = spec.where("ship-log")
    widths = raw.get("widths")
    turn_log = raw.get("turn_log")
    if (
        not {"layout", "blank_logs", "turn_log", "widths"} <= set(raw) <= KEYS
        or not isinstance(raw.get("turns", ""), str)
        or raw["layout"] not in ("half", "full")
        or not isinstance(raw["blank_logs"], int)
        or not (isinstance(turn_log, list) and len(turn_log) == 2)
        or not isinstance(widths, dict)
        or not {"label", "right", "check"} <= set(widths) <= WIDTHS
    ):
        raise SpecError(
            f"{where}: a ship-log section has layout (half or full), blank_logs, "
            f"turn_log [rows, columns], widths ({', '.join(sorted(WIDTHS))}) and may have "
            "turns (the game's length, a Jinja text)"
        )
    return LogLayout(
        layout=raw["layout"],
        blank_logs=raw["blank_logs"],
        turn_log=(int(turn_log[0]), int(turn_log[1])),
        **{key: float(value) for key, value in widths.items() if isinstance(value, int | float)},
        turns=str(raw.get("turns", "")),
        where=spec.where("ship-log", "turns") if "turns" in raw else where,
    )


# ---------------------------------------------------------------- a log as data


def ship_log(
    rules: Rules,
    ruleset: str,
    prefix: str,
    ship: dict[str, Any] | None,
    side: dict[str, Any] | None,
    turns: int | None = None,
) -> LogCard:
    """Return the log of `ship` of `side` (both None: a blank log): what it holds is the
    ruleset's to say (`RulesetContract.ship_log`); its turn log
    has a row for each of the game's `turns` (None: the rules set no length)."""
    log = Log(prefix, str(ship["name"]) if ship else None)
    contract(ruleset).ship_log(log, rules, ship, side)
    rows, columns = layout_of(ruleset).turn_log
    if turns:
        rows = max(rows, math.ceil(turns / columns))
    log.turn_log(rows, columns)
    return log.card


# ---------------------------------------------------------------- laying a log out
# Items are plain dicts in mm from the page's top-left (from the log's inner corner while a
# log is laid out): text, box (to cross off), write (a write-in box), line, band (a tinted
# band, framed in black and white), mark (the ½ mark or a tick), bookmark.


@dataclass(frozen=True)
class Columns:
    """The widths a sheet's logs share, in mm."""

    label: float  # the label column of the rows of boxes
    group: float  # the label column of a group of rows
    check: float  # the least width of a labelled check box
    right: float  # the right-hand column of a pair row


class Items:
    """The items of a log or a page, in the order they are painted."""

    def __init__(self) -> None:
        self.items: list[dict[str, Any]] = []

    def add(self, kind: str, **values: Any) -> None:
        self.items.append({"k": kind, **values})

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
        found = list(lines) if lines is not None else wrap(text, font, size, w)
        self.add(
            "text", x=x, y=y, w=w, font=font, size=size, lines=found, align=align, colour=colour
        )
        return y + len(found) * _lh(size)

    def box(self, x: float, y: float, field: str) -> None:
        self.add("box", x=x, y=y, w=BOX_MM, h=BOX_MM, field=field)

    def write_in(self, x: float, y: float, w: float, h: float, field: str) -> None:
        self.add("write", x=x, y=y, w=w, h=h, field=field)

    def line(
        self, x: float, y: float, w: float, h: float, *, colour: str = "rule", pt: float = RULE_PT
    ) -> None:
        self.add("line", x=x, y=y, w=w, h=h, colour=colour, pt=pt)

    def shifted(self, dx: float, dy: float) -> list[dict[str, Any]]:
        """Return the items moved by (dx, dy)."""
        return [{**item, "x": item["x"] + dx, "y": item["y"] + dy} for item in self.items]


def _middle(size: float, height: float = BOX_MM) -> float:
    """Return how far below a box's top a line of `size` pt starts, to stand in its middle."""
    return (height - _lh(size)) / 2


def _card_body(card: LogCard, width: float, cols: Columns) -> tuple[Items, float]:
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
        lw = _w(label, "sans", 7.5)
        out.text(label, "sans", 7.5, 0, _middle(7.5, 6.0), lw + 0.5, colour="faint")
        box = width - lw - 1.5
        follow = box - NAME_WRITE_MM >= HEADS_BESIDE_MM
        if follow:
            box = NAME_WRITE_MM
        out.write_in(lw + 1.5, 0, box, 6.0, card.name_field)
        return 6.0 + 0.6, (lw + 1.5 + box + 3.0 if follow else None)
    tags = " · ".join(card.tags)
    tags_w = min(_w(tags, "sans-bold", 7.5) + 0.2, width * 0.45) if tags else 0.0
    room = width - tags_w - (2.5 if tags else 0.0)
    fitted = fit(name, "serif", room, 2 * _lh(13), (13, 12, 11, 10, 9, 8), max_lines=2)
    if fitted is None:  # a name too long even at 8 pt on two lines: let it run on
        fitted = Fitted("serif", 8.0, tuple(wrap(name, "serif", 8.0, room)))
    out.add("bookmark", x=0.0, y=0.0, label=name)
    below = out.text(name, "serif", fitted.size, 0, 0, room, colour="accent", lines=fitted.lines)
    if tags:
        # the tags' first line sits on the name's first baseline
        top = fitted.line_mm * 0.78 - _lh(7.5) * 0.78
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
        lw = _w(entry.label, "sans", 7)
        box = min(float(entry.width), width - lw - 1.0)
        if x > x0 and x + lw + 1.0 + box > x0 + width + 0.01:
            x, y = x0, y + WRITE_MM + 1.0
        out.text(entry.label, "sans", 7, x, y + _middle(7, WRITE_MM), lw + 0.5, colour="faint")
        out.write_in(x + lw + 1.0, y, box, WRITE_MM, entry.field)
        x += lw + 1.0 + box + 3.0
    return y + WRITE_MM


def _facts(out: Items, facts: Sequence[Fact], width: float, y: float) -> float:
    if any(f.value is None for f in facts):
        # a blank log: each label left of its write-in box, as her particulars stand, in
        # even columns (the boxes one above another) on as few lines as they fit
        label_w = max(_w(f.label, "sans", 7) for f in facts) + 1.0
        per_line = max(1, min(len(facts), int((width + 3.0) // (label_w + FACT_WRITE_MM + 3.0))))
        per_line = math.ceil(len(facts) / math.ceil(len(facts) / per_line))
        column = width / per_line
        for index, fact in enumerate(facts):
            line, place = divmod(index, per_line)
            x, top = place * column, y + line * (WRITE_MM + 1.0)
            out.text(
                fact.label, "sans", 7, x, top + _middle(7, WRITE_MM), label_w,
                colour="faint", lines=[fact.label],
            )  # fmt: skip
            out.write_in(x + label_w, top, FACT_WRITE_MM, WRITE_MM, fact.field)
        lines = math.ceil(len(facts) / per_line)
        return y + lines * (WRITE_MM + 1.0) - 1.0
    x, height = 0.0, _lh(9)
    for fact in facts:
        assert fact.value is not None
        lw, vw = _w(fact.label, "sans", 7), _w(fact.value, "sans-bold", 9)
        if x > 0 and x + lw + 1.0 + vw > width:
            x, y = 0.0, y + height
        # the label's baseline on the value's
        out.text(
            fact.label,
            "sans",
            7,
            x,
            y + (_lh(9) - _lh(7)) * 0.78,
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
    label_w = max(_w(f.label, "sans-bold", 7.5) for f in figures) + 2.0
    top, start = y, len(out.items)
    y += 0.6
    inner = width - 2 * pad
    if all(f.value is None for f in figures):
        # a blank log: her numbers' write-in boxes flow along the band (the page says how
        # to work each out)
        x = pad
        for figure in figures:
            lw = _w(figure.label, "sans-bold", 7.5)
            box = min(float(figure.width), inner - lw - 1.0)
            if x > pad and x + lw + 1.0 + box > pad + inner + 0.01:
                x, y = pad, y + WRITE_MM + 0.6
            out.text(
                figure.label, "sans-bold", 7.5, x, y + _middle(7.5, WRITE_MM), lw + 0.3,
                lines=[figure.label],
            )  # fmt: skip
            out.write_in(x + lw + 1.0, y, box, WRITE_MM, figure.field)
            x += lw + 1.0 + box + 3.0
        y += WRITE_MM + 0.6
        out.items.insert(start, {"k": "band", "x": 0.0, "y": top, "w": width, "h": y - top})
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
            first = (WRITE_MM - _lh(7)) / 2
        else:
            value_w = min(_w(figure.value, "sans-bold", 8), inner - label_w)
            bottom = out.text(figure.value, "sans-bold", 8, x, y, value_w + 0.3, colour="accent")
            row = bottom - y
            first = (_lh(8) - _lh(7)) * 0.78
        how = figure.how
        if how:
            hx = x + value_w + 2.0
            room = pad + inner - hx
            if room < 30.0 and _w(how, "sans", 7) > room:  # no room beside the number: under it
                hx, room, first = x, pad + inner - x, row
            bottom = out.text(how, "sans", 7, hx, y + first, room, colour="faint")
            row = max(row, bottom - y)
        y += row + 0.5
    # the band is painted under its text
    out.items.insert(start, {"k": "band", "x": 0.0, "y": top, "w": width, "h": y - top + 0.1})
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
    need = _w(track.label, "sans", size) + 1.0
    if track.value is not None:
        need += _w(track.value, "sans-bold", 9) + 1.0
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
        width += 1.0 + len(item.fields) * PITCH_MM + LABEL_GAP_MM + _w(item.label, "sans", 7)
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
    value_w = _w(track.value, "sans-bold", 9) if track.value is not None else 0.0
    if track.value is not None:
        room -= value_w + 1.0
    elif track.value_field:
        room -= float(track.write_width) + 1.0
    lines = wrap(track.label, "sans", size, room)
    bottom = out.text(track.label, "sans", size, x0, y + _middle(size), room, lines=lines)
    if track.value is not None:
        out.text(
            track.value, "sans-bold", 9, bx - 1.5 - value_w - 0.2, y + _middle(9),
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
            out.add("mark", x=centre, y=line, mark=mark)
            x += slot
        out.box(x, line, name)
        x += PITCH_MM
    for item in track.after:
        lw = _w(item.label, "sans", 7)
        need = len(item.fields) * PITCH_MM + LABEL_GAP_MM + lw
        x += 1.0
        if x > bx and x + need > right + 0.01:
            x, line = bx, line + ROW_MM
        for name in item.fields:
            out.box(x, line, name)
            x += PITCH_MM
        x += LABEL_GAP_MM
        out.text(item.label, "sans", 7, x, line + _middle(7), lw + 0.3, lines=[item.label])
        x += lw + BOX_GAP_MM
    bottom = max(bottom, line + ROW_MM)
    # what the row means: its note and what its last box brings, beside the boxes or under
    words = " · ".join(w for w in (track.note, track.end) if w)
    if words:
        start = x + 1.0 if x > bx else bx
        if end_at is not None and line == y:
            start = max(start, end_at)
        beside = wrap(words, "sans-italic", 7, right - start) if right - start >= 14.0 else []
        if beside and len(beside) * _lh(7) <= ROW_MM + 0.01:
            top = line + _middle(7) if len(beside) == 1 else line + (BOX_MM - 2 * _lh(7)) / 2
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
        len(e.fields) * PITCH_MM + LABEL_GAP_MM + _w(e.label, "sans", 7.5) + 2.0 for e in entries
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
            top + _middle(size) if len(lines) == 1 else top + (BOX_MM - len(lines) * _lh(size)) / 2
        )
        out.text(entry.label, "sans", size, x, top_text, room, lines=lines)
    return y + rows * ROW_MM - (ROW_MM - BOX_MM)


def _choice(out: Items, section: Choice, x0: float, width: float, y: float, cols: Columns) -> float:
    label_w = min(cols.label, width / 3)
    out.text(section.label, "sans", 8, x0, y + _middle(8), label_w - 1.5)
    x, line = x0 + label_w, y
    for option in section.options:
        font = "sans-bold" if option.start else "sans"
        lw = _w(option.label, font, 7.5)
        if x > x0 + label_w and x + PITCH_MM + LABEL_GAP_MM + lw > x0 + width:
            x, line = x0 + label_w, line + ROW_MM
        out.box(x, line, option.field)
        top = line + _middle(7.5)
        out.text(
            option.label, font, 7.5, x + PITCH_MM + LABEL_GAP_MM, top, lw + 0.3,
            lines=[option.label],
        )  # fmt: skip
        if option.start:  # her starting space, underlined
            out.line(
                x + PITCH_MM + LABEL_GAP_MM, top + _lh(7.5) * 0.86, lw, 0.0, colour="ink", pt=0.6
            )
        x += PITCH_MM + LABEL_GAP_MM + lw + 3.0
    return line + BOX_MM


def _cell_width(cell: Cell) -> float:
    if isinstance(cell, TextCell):
        return _w(cell.text, "sans", 8.5)
    if isinstance(cell, WriteCell):
        return float(cell.width)
    return len(cell.fields) * PITCH_MM - BOX_GAP_MM


TABLE_HEAD_MM, TABLE_ROW_MM, TABLE_PAD_MM = 4.6, 5.9, 2.4


def _table(out: Items, section: Table, x0: float, width: float, y: float) -> float:
    head, rows = section.head, section.rows
    need = [
        max([_w(head[0], "sans-bold", 7)] + [_w(r.label, "sans-bold", 7.5) for r in rows])
        + TABLE_PAD_MM
    ]
    for i in range(1, len(head)):
        need.append(
            max([_w(head[i], "sans-bold", 7)] + [_cell_width(r.cells[i - 1]) for r in rows])
            + TABLE_PAD_MM
        )
    spare = width - sum(need)
    if spare < -0.01:
        raise QuartermasterError(f"a ship's log table is {-spare:.1f} mm too wide: {list(head)}")
    widths = [w + spare / len(need) for w in need]
    lefts = [x0 + sum(widths[:i]) for i in range(len(widths))]
    out.add("band", x=x0, y=y, w=width, h=TABLE_HEAD_MM, style="head")
    for i, title in enumerate(head):
        align = "left" if i == 0 else "center"
        x = lefts[i] + (1.2 if i == 0 else 0.0)
        out.text(
            title,
            "sans-bold",
            7,
            x,
            y + _middle(7, TABLE_HEAD_MM),
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
            top + _middle(7.5, TABLE_ROW_MM),
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
                    top + _middle(8.5, TABLE_ROW_MM),
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
    out.add("frame", x=x0, y=y, w=width, h=top - y, colour="rule", pt=RULE_PT)
    for left in lefts[1:]:
        out.line(left, y, 0.0, top - y)
    return top


def _turn_log(
    out: Items, card: LogCard, x0: float, width: float, y: float, rows: int, columns: int
) -> float:
    """The turn log: a heading and `rows` rows of Turn and Notes in `columns` columns."""
    prefix = card.prefix
    out.add("band", x=x0, y=y, w=width, h=LOG_HEAD_MM, style="head")
    column = width / columns
    for c in range(columns):
        left = x0 + c * column
        out.text(
            "Turn",
            "sans-bold",
            7,
            left + 1.0,
            y + _middle(7, LOG_HEAD_MM),
            TURN_MM - 1.0,
            lines=["Turn"],
        )
        out.text(
            "Notes",
            "sans-bold",
            7,
            left + TURN_MM + 1.0,
            y + _middle(7, LOG_HEAD_MM),
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
                "field",
                x=left + inset,
                y=line + inset,
                w=TURN_MM - 2 * inset,
                h=LOG_ROW_MM - 2 * inset,
                name=f"{prefix}_log_{number}_turn",
                tip=tooltip(card.name, f"Turn log, entry {number}: turn"),
            )
            out.add(
                "field",
                x=left + TURN_MM + inset,
                y=line + inset,
                w=column - TURN_MM - 2 * inset,
                h=LOG_ROW_MM - 2 * inset,
                name=f"{prefix}_log_{number}_notes",
                tip=tooltip(card.name, f"Turn log, entry {number}: notes"),
            )
    for c in range(columns):
        left = x0 + c * column
        if c:
            out.line(left, y, 0.0, bottom - y)
        out.line(left + TURN_MM, y, 0.0, bottom - y)
    out.add("frame", x=x0, y=y, w=width, h=bottom - y, colour="rule", pt=RULE_PT)
    return bottom


# ---------------------------------------------------------------- the pages


@dataclass
class _Laid:
    """A log laid out: its body's items and height, and its turn log's fewest rows."""

    card: LogCard
    body: Items
    height: float  # the body's
    rows: int
    columns: int

    def card_height(self, rows: int) -> float:
        return 2 * PAD_MM + self.height + BLOCK_MM + LOG_HEAD_MM + rows * LOG_ROW_MM


def _place(
    laid: _Laid, x: float, y: float, width: float, height: float, rows: int
) -> list[dict[str, Any]]:
    """Return the items of a log at (x, y), `height` tall with `rows` rows of turn log."""
    inner = width - 2 * PAD_MM
    items = [
        {"k": "frame", "x": x, "y": y, "w": width, "h": height, "colour": "rule", "pt": BORDER_PT}
    ]
    # each box's and write-in's tooltip, kept by its name (`Log.field`)
    tips = laid.card.tips
    items += [
        {**item, "tip": tips[item["field"]]} if item["k"] in ("box", "write") else item
        for item in laid.body.shifted(x + PAD_MM, y + PAD_MM)
    ]
    log = Items()
    _turn_log(log, laid.card, 0.0, inner, 0.0, rows, laid.columns)
    items += log.shifted(x + PAD_MM, y + height - PAD_MM - LOG_HEAD_MM - rows * LOG_ROW_MM)
    return items


def _header(
    title: str,
    counter: str,
    intro: Sequence[tuple[str, str, float, str]],
    x0: float,
    width: float,
    y: float,
) -> tuple[list[dict[str, Any]], float]:
    """A page's running header (the side and the page), and on a side's first page its
    introduction: (text, font, size, colour) paragraphs."""
    out = Items()
    counter_w = _w(counter, "sans-bold", 9) + 0.5 if counter else 0.0
    room = width - counter_w - (4.0 if counter else 0.0)
    fitted = fit(title, "serif", room, _lh(16), (16, 15, 14, 13, 12, 11, 10, 9, 8), max_lines=1)
    if fitted is None:
        fitted = Fitted("serif", 8.0, tuple(wrap(title, "serif", 8.0, room)))
    below = out.text(title, "serif", fitted.size, x0, y, room, colour="accent", lines=fitted.lines)
    if counter:
        out.text(
            counter,
            "sans-bold",
            9,
            x0 + width - counter_w,
            y + (fitted.line_mm - _lh(9)) * 0.78,
            counter_w,
            align="right",
            colour="faint",
            lines=[counter],
        )
    below += 0.5
    out.line(x0, below, width, 0.0, colour="accent", pt=0.7)
    y = below + 1.2
    for text, font, size, colour in intro:
        y = out.text(text, font, size, x0, y, width, colour=colour) + 0.3
    return out.items, y + 2.0


def _spread(count: int, parts: int) -> list[int]:
    base, extra = divmod(count, parts)
    return [base + (1 if i < extra else 0) for i in range(parts)]


def _pages(units: list[float], first: float, other: float) -> list[list[int]]:
    """Return which units (their heights) go on each page, in order: as few pages as they
    need, as evenly filled as fit; `first` and `other` are the heights a side's first and
    later pages have for logs."""

    def room(page: int) -> float:
        return first if page == 0 else other

    greedy: list[list[int]] = [[]]
    used = 0.0
    for index, height in enumerate(units):
        need = height + (GAP_MM if greedy[-1] else 0.0)
        if greedy[-1] and used + need > room(len(greedy) - 1) + 1e-6:
            greedy.append([])
            used, need = 0.0, height
        greedy[-1].append(index)
        used += need
    if len(greedy) == 1:
        return greedy
    start, even = 0, []
    for size in _spread(len(units), len(greedy)):
        even.append(list(range(start, start + size)))
        start += size
    fits = all(
        sum(units[i] for i in page) + GAP_MM * (len(page) - 1) <= room(p) + 1e-6
        for p, page in enumerate(even)
    )
    return even if fits else greedy


def context(
    rules: Rules, data: dict[str, Any] | None, paper: str, ruleset: str | None
) -> dict[str, Any]:
    assert ruleset is not None
    spec = layout_of(ruleset)
    left, top, right, bottom = page_boxes("ship-log", paper)["art"]
    width = right - left
    card_w = (width - GAP_MM) / 2 if spec.layout == "half" else width
    navies = rules.names.navies if rules.names else {}
    title = rules.rulesets[ruleset].title
    sides: list[dict[str, Any]] = []
    turns = spec.game_turns(rules, data)
    if data is None:
        logs = [
            ship_log(rules, ruleset, f"blank_{i + 1}", None, None, turns)
            for i in range(spec.blank_logs)
        ]
        sides.append({"name": None, "navy": "", "logs": logs})
    else:
        used: set[str] = set()
        for index, side in enumerate(data.get("sides", [])):
            name = str(side.get("name") or f"Side {index + 1}")
            prefix = slug(name)
            if prefix in used:
                prefix = f"{prefix}_{index + 1}"
            used.add(prefix)
            navy = str(side.get("navy", ""))
            logs = [
                ship_log(rules, ruleset, f"{prefix}_{i + 1}", ship, side, turns)
                for i, ship in enumerate(side.get("ships", []))
            ]
            navy_title = str(navies[navy]["title"]) if navy in navies else navy.capitalize()
            sides.append({"name": name, "navy": navy_title, "logs": logs})
    blank = data is None
    cols = columns(spec, sides, blank)
    notes = contract(ruleset).ship_log_notes(rules)
    house = house_tables_line(rules, data.get("house_tables", [])) if data else ""
    pages: list[dict[str, Any]] = []
    for side in sides:
        if blank:
            heading = "Ship’s log"
            intro = [
                (
                    f"{title}. Write in each ship’s name and ratings, and cross out the boxes "
                    "she does not have.",
                    "sans",
                    8.0,
                    "ink",
                ),
            ]
        else:
            assert data is not None
            heading = f"{side['name']} — ship’s log"
            about = " · ".join(
                part
                for part in (
                    str(data.get("title", "")),
                    title,
                    f"seed {data.get('seed')}",
                    side["navy"],
                )
                if part
            )
            intro = [(about, "sans", 8.0, "ink")]
        intro += [(note, "sans", 7.5, "ink") for note in notes]
        figures = side["logs"][0].figures if blank and side["logs"] else ()
        if figures:
            intro.append(
                (
                    "Work out her numbers from her ratings: "
                    + "; ".join(f"{f.label}: {f.how}" for f in figures if f.how)
                    + ".",
                    "sans",
                    7.5,
                    "ink",
                )
            )
        if house:
            intro.append((house, "sans-italic", 7.0, "faint"))
        pages += _side_pages(
            side, heading, intro, spec, cols, card_w, (left, top, right, bottom), blank
        )
    return {
        "ruleset": ruleset,
        "paper": paper,
        "ruleset_title": title,
        "layout": spec.layout,
        "turns": turns,
        "columns": dataclasses.asdict(cols),
        "sides": sides,
        "pages": pages,
    }


def columns(spec: LogLayout, sides: Sequence[Mapping[str, Any]], blank: bool) -> Columns:
    """Return the widths every log of the sheet shares: the label columns as wide as the
    widest label (and the spec's least), so that every row's boxes start at one x."""
    label = spec.label + (spec.blank_label if blank else 0.0)
    group = spec.group_label
    for side in sides:
        for card in side["logs"]:
            for section in card.sections():
                if not isinstance(section, Tracks):
                    continue
                for track in section.rows:
                    if section.group:
                        group = max(group, min(track_label_width(track, 7.5), LABEL_CAP_MM))
                    else:
                        label = max(label, min(track_label_width(track, 8.0), LABEL_CAP_MM))
    return Columns(
        label=round(label, 2),
        group=round(group or label, 2),
        check=spec.check,
        right=spec.right,
    )


def _side_pages(
    side: Mapping[str, Any],
    heading: str,
    intro: list[tuple[str, str, float, str]],
    spec: LogLayout,
    cols: Columns,
    card_w: float,
    frame: Box,
    blank: bool,
) -> list[dict[str, Any]]:
    """Lay out one side's logs on pages of their own; spare height becomes turn-log rows."""
    left, top, right, bottom = frame
    width = right - left
    laid = []
    for card in side["logs"]:
        body, height = _card_body(card, card_w - 2 * PAD_MM, cols)
        rows, columns_ = card.turn_log
        laid.append(_Laid(card, body, height, rows, columns_))
    per_unit = 2 if spec.layout == "half" else 1
    units = [laid[i : i + per_unit] for i in range(0, len(laid), per_unit)]
    heights = [max(log.card_height(log.rows) for log in unit) for unit in units]
    _, first_top = _header(heading, page_label(1, 1), intro, left, width, top)
    _, other_top = _header(heading, page_label(1, 1), [], left, width, top)
    plan = _pages(heights, bottom - first_top, bottom - other_top)
    if blank and len(plan) > 1:
        raise QuartermasterError(f"{spec.blank_logs} blank logs do not fit on one page")
    pages = []
    for number, chosen in enumerate(plan, start=1):
        counter = page_label(number, len(plan))
        items, y = _header(heading, counter, intro if number == 1 else [], left, width, top)
        used = sum(heights[i] for i in chosen) + GAP_MM * (len(chosen) - 1)
        extra = _spread(max(int((bottom - y - used + 1e-6) // LOG_ROW_MM), 0), len(chosen))
        for unit_index, more in zip(chosen, extra, strict=True):
            height = heights[unit_index] + more * LOG_ROW_MM
            for slot, log in enumerate(units[unit_index]):
                # a log shorter than its neighbour takes the difference in turn-log rows
                rows = log.rows + int((height - log.card_height(log.rows) + 1e-6) // LOG_ROW_MM)
                x = left + slot * (card_w + GAP_MM)
                items += _place(log, x, y, card_w, height, rows)
            y += height + GAP_MM
        pages.append({"side": side["name"], "number": number, "of": len(plan), "items": items})
    return pages


# ---------------------------------------------------------------- drawing


def draw(
    drawing: Drawing,
    context: dict[str, Any],
    *,
    boxes: Mapping[str, Box],
    fillable: bool,
    field_prefix: str,
) -> None:
    """Draw the logs page by page; with `fillable`, a form field over every box."""
    from reportlab.lib.colors import HexColor

    colours = {name: HexColor(value) for name, value in drawing.colours.items()}
    canvas = drawing.canvas
    form = canvas.acroForm if fillable else None
    for page in context["pages"]:
        drawing.new_page(boxes)
        for item in page["items"]:
            _paint(drawing, canvas, item, colours, form, field_prefix)


def _paint(
    drawing: Drawing,
    canvas: Any,
    item: Mapping[str, Any],
    colours: Mapping[str, Any],
    form: Any,
    prefix: str,
) -> None:
    kind, x, y = item["k"], item["x"], item["y"]
    if kind == "text":
        write(
            drawing,
            Fitted(item["font"], item["size"], tuple(item["lines"])),
            x,
            y,
            item["w"],
            align=item["align"],
            colour=item["colour"],
        )
        return
    if kind == "bookmark":
        drawing.bookmark(item["label"], SHIP_MARK_LEVEL, y)
        return
    if kind == "mark":
        _mark(drawing, canvas, item, colours)
        return
    if kind == "band":
        _band(drawing, canvas, item, colours)
        return
    if kind == "line":
        canvas.setStrokeColor(colours[item["colour"]])
        canvas.setLineWidth(item["pt"])
        canvas.line(drawing.x(x), drawing.y(y), drawing.x(x + item["w"]), drawing.y(y + item["h"]))
        return
    w, h = item["w"], item["h"]
    rect = (drawing.x(x), drawing.y(y + h), w * MM, h * MM)
    if kind == "frame":
        canvas.setStrokeColor(colours[item["colour"]])
        canvas.setLineWidth(item["pt"])
        canvas.rect(*rect, stroke=1, fill=0)
        return
    if kind == "box":
        canvas.setStrokeColor(colours["ink"])
        canvas.setLineWidth(BOX_PT)
        canvas.rect(*rect, stroke=1, fill=0)
        if form is not None:
            _checkbox(
                drawing,
                form,
                prefix + item["field"],
                item["tip"],
                rect[0],
                rect[1],
                w * MM,
                colours["ink"],
            )
        return
    if kind == "write":
        canvas.setStrokeColor(colours["rule"])
        canvas.setLineWidth(0.6)
        canvas.rect(*rect, stroke=1, fill=0)
        if form is not None:
            drawing.text_field(prefix + item["field"], rect, colours["ink"], tooltip=item["tip"])
        return
    if kind == "field":  # a turn log's cell: ruled already, a field only when fillable
        if form is not None:
            drawing.text_field(prefix + item["name"], rect, colours["ink"], tooltip=item["tip"])
        return
    raise QuartermasterError(f"a ship's log has no item of kind '{kind}'")


def _checkbox(
    drawing: Drawing,
    form: Any,
    name: str,
    tooltip: str,
    x: float,
    y: float,
    size: float,
    ink: Any,
) -> None:
    """Lay a check box field over a printed box: ReportLab's `checkbox`, but with its six
    appearance streams made once per size and colour rather than for every box (making
    them took most of a fillable page's time), `tooltip` (/TU: what a viewer shows and
    a screen reader reads) in the sheet's words, and a /DA of its own in the form's
    embedded font (a packet keeps no form-level /DA).

    No /MK /CA caption: ReportLab's is ZapfDingbats' cross code ("5"), which a viewer
    rebuilding the look in the /DA's font would print as a "5". The appearance streams
    draw the cross as lines, in no font; poppler rebuilds a check box only when it has
    no appearance (then drawing a tick), and pypdf only switches its state (/AS)."""
    from reportlab.pdfbase.acroform import annotationFlagValues, makeFlags
    from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFString

    made: dict[tuple[float, str], dict[str, dict[str, Any]]] = form.__dict__.setdefault(
        "_qm_checkbox_appearances", {}
    )
    key = (round(size, 4), str(ink))
    if key not in made:
        looks: dict[str, dict[str, Any]] = {}
        for state in "NDR":
            text, border, fill = form.varyColors(state, ink, None, None)
            looks[state] = {}
            for value in ("Yes", "Off"):
                stream = form.checkboxAP(
                    state, value, buttonStyle="cross", shape="square", fillColor=fill,
                    borderColor=border, textColor=text, borderWidth=0, size=size,
                )  # fmt: skip
                if stream._af_refstr not in form._refMap:
                    form._refMap[stream._af_refstr] = form.getRef(stream)
                looks[state][value] = form._refMap[stream._af_refstr]
        made[key] = looks
    field = PDFDictionary(
        {
            "FT": PDFName("Btn"),
            "P": form.canv._doc.thisPageRef(),
            "V": PDFName("Off"),
            "AS": PDFName("Off"),
            "Rect": PDFArray((x, y, x + size, y + size)),
            "AP": PDFDictionary({s: PDFDictionary(v) for s, v in made[key].items()}),
            "Subtype": PDFName("Widget"),
            "Type": PDFName("Annot"),
            "F": makeFlags("print", annotationFlagValues),
            "Ff": 0,
            "H": PDFName("N"),
            "T": PDFString(name),
            "TU": PDFString(tooltip),
            "DA": PDFString(drawing.form_appearance(ink)),
        }
    )
    form.canv._addAnnotation(field)
    form.fields.append(form.getRef(field))


def _mark(
    drawing: Drawing, canvas: Any, item: Mapping[str, Any], colours: Mapping[str, Any]
) -> None:
    """The ½ mark, or a tick: where the rules say something happens."""
    x, y = item["x"], item["y"]
    if item["mark"] == "half":
        fitted = Fitted("sans-bold", 8.5, ("½",))
        width = _w("½", "sans-bold", 8.5) + 0.4
        write(
            drawing, fitted, x - width / 2, y + _middle(8.5), width, align="center", colour="accent"
        )
        return
    canvas.setStrokeColor(colours["accent"])
    canvas.setLineWidth(TICK_PT)
    canvas.line(drawing.x(x), drawing.y(y - 0.6), drawing.x(x), drawing.y(y + BOX_MM + 0.6))


def _band(
    drawing: Drawing, canvas: Any, item: Mapping[str, Any], colours: Mapping[str, Any]
) -> None:
    """A tinted band (in black and white: framed, or a heading ruled underneath)."""
    x, y, w, h = item["x"], item["y"], item["w"], item["h"]
    if not drawing.mono:
        canvas.setFillColor(colours["tint"])
        canvas.rect(drawing.x(x), drawing.y(y + h), w * MM, h * MM, stroke=0, fill=1)
        return
    canvas.setStrokeColor(colours["ink"])
    if item.get("style") == "head":
        canvas.setLineWidth(1.0)
        canvas.line(drawing.x(x), drawing.y(y + h), drawing.x(x + w), drawing.y(y + h))
    else:
        canvas.setLineWidth(RULE_PT)
        canvas.rect(drawing.x(x), drawing.y(y + h), w * MM, h * MM, stroke=1, fill=0)
