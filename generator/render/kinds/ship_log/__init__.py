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

The layout is worked out in `context` (typed items in mm on each page, `items`; a log's
body and turn log by `body`, its pages here) and `draw` only paints it (`paint`): printed
and fillable logs come from the same items, the form fields laid over the printed boxes.
Field names start with the side's and the ship's place, so they stay unique when the logs
of both sides go into one PDF (a game-night packet).
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
from generator.render import expressions, specs
from generator.render.draw import Box, Drawing, Fitted, fit, wrap
from generator.render.kinds.ship_log.body import Columns, card_body, track_label_width, turn_log
from generator.render.kinds.ship_log.items import (
    BLOCK_MM,
    BORDER_PT,
    GAP_MM,
    LOG_HEAD_MM,
    LOG_ROW_MM,
    PAD_MM,
    CrossBox,
    FieldBox,
    Frame,
    Item,
    Items,
    line_mm,
    width_mm,
)
from generator.render.kinds.ship_log.paint import paint
from generator.render.pagenumbers import page_label
from generator.render.sheets import page_boxes
from generator.render.words import house_tables_line
from generator.ruleset import contract
from generator.ruleset.logcard import Log, LogCard, Tracks, slug
from generator.ruleset.model import Scenario, Ship, Side
from generator.rulesets import SpecError
from generator.schema.damage import marked_fields
from generator.schema.nodes import Choice, Number, Record, Whole, opt, req
from generator.schema.nodes import Items as ListOf

LABEL_CAP_MM = 44.0  # a label column never takes more than this; longer labels wrap


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


@cache
def section_schema(ruleset: str) -> Record:
    """Return the shape of a ship-log section (the same for every ruleset)."""
    width = Number(0, None, why="mm")
    return Record(
        {
            "layout": req(Choice(("half", "full"), what="layout"), "half: two logs side by side"),
            "blank_logs": req(Whole(1, None), "logs on a blank page"),
            "turn_log": req(
                ListOf(Whole(1, None), minimum=2, maximum=2, noun=("number", "numbers")),
                "[rows, columns]: the turn log's fewest rows (spare height adds more)",
            ),
            "widths": req(
                Record(
                    {
                        "label": req(width, "the label column of the rows of boxes"),
                        "right": req(width, "the right-hand column of a pair row"),
                        "check": req(width, "one labelled check box, in columns"),
                        "group_label": opt(width, "the label column of a group of rows"),
                        "blank_label": opt(width, "added to label on a blank log"),
                    },
                    what="a mapping of label, right, check, group_label and blank_label",
                ),
                "the least each column takes, in mm",
            ),
            "turns": opt(specs.TEMPLATE, "the most turns a game lasts (Jinja)"),
        },
        what="a ship-log section",
    )


@cache
def layout_of(ruleset: str) -> LogLayout:
    """Return the ship-log section of `ruleset`'s spec, checked."""
    raw, spec = specs.section(ruleset, "ship-log")
    rows, columns = raw["turn_log"]
    return LogLayout(
        layout=raw["layout"],
        blank_logs=raw["blank_logs"],
        turn_log=(rows, columns),
        **{key: float(value) for key, value in raw["widths"].items()},
        turns=str(raw.get("turns", "")),
        where=spec.where("ship-log", "turns"),  # the section's, where it has no turns
    )


# ---------------------------------------------------------------- a log as data


def ship_log(
    rules: Rules,
    ruleset: str,
    prefix: str,
    ship: Ship | None,
    side: Side | None,
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


def log_prefixes(sides: Sequence[Mapping[str, Any]]) -> list[list[str]]:
    """Return the field-name prefix of each ship's log, side by side: her side's name and
    her place in it (``british_squadron_2``), so a game's state names the same fields as
    the packet's fillable logs."""
    used: set[str] = set()
    found: list[list[str]] = []
    for index, side in enumerate(sides):
        prefix = slug(str(side.get("name") or f"Side {index + 1}"))
        if prefix in used:
            prefix = f"{prefix}_{index + 1}"
        used.add(prefix)
        found.append([f"{prefix}_{i + 1}" for i in range(len(side.get("ships") or []))])
    return found


# ---------------------------------------------------------------- the pages


@dataclass
class _Laid:
    """A log laid out: its body's items and height, and its turn log's fewest rows."""

    card: LogCard
    body: Items
    height: float  # the body's
    rows: int
    columns: int
    marked: frozenset[str] = frozenset()  # the boxes crossed off already (her damage)

    def card_height(self, rows: int) -> float:
        return 2 * PAD_MM + self.height + BLOCK_MM + LOG_HEAD_MM + rows * LOG_ROW_MM


def _place(laid: _Laid, x: float, y: float, width: float, height: float, rows: int) -> list[Item]:
    """Return the items of a log at (x, y), `height` tall with `rows` rows of turn log."""
    inner = width - 2 * PAD_MM
    items: list[Item] = [Frame(x, y, width, height, "rule", BORDER_PT)]
    # each box's and write-in's tooltip, kept by its name (`Log.field`)
    tips = laid.card.tips
    for item in laid.body.shifted(x + PAD_MM, y + PAD_MM):
        if isinstance(item, CrossBox) and item.field in laid.marked:
            item = dataclasses.replace(item, tip=tips[item.field], marked=True)
        elif isinstance(item, FieldBox):
            item = dataclasses.replace(item, tip=tips[item.field])
        items.append(item)
    log = Items()
    turn_log(log, laid.card, 0.0, inner, 0.0, rows, laid.columns)
    items += log.shifted(x + PAD_MM, y + height - PAD_MM - LOG_HEAD_MM - rows * LOG_ROW_MM)
    return items


def _header(
    title: str,
    counter: str,
    intro: Sequence[tuple[str, str, float, str]],
    x0: float,
    width: float,
    y: float,
) -> tuple[list[Item], float]:
    """A page's running header (the side and the page), and on a side's first page its
    introduction: (text, font, size, colour) paragraphs."""
    out = Items()
    counter_w = width_mm(counter, "sans-bold", 9) + 0.5 if counter else 0.0
    room = width - counter_w - (4.0 if counter else 0.0)
    fitted = fit(title, "serif", room, line_mm(16), (16, 15, 14, 13, 12, 11, 10, 9, 8), max_lines=1)
    if fitted is None:
        fitted = Fitted("serif", 8.0, tuple(wrap(title, "serif", 8.0, room)))
    below = out.text(title, "serif", fitted.size, x0, y, room, colour="accent", lines=fitted.lines)
    if counter:
        out.text(
            counter,
            "sans-bold",
            9,
            x0 + width - counter_w,
            y + (fitted.line_mm - line_mm(9)) * 0.78,
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


def context(rules: Rules, data: Scenario | None, paper: str, ruleset: str | None) -> dict[str, Any]:
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
        sides.append({"name": None, "navy": "", "logs": logs, "marked": [frozenset()] * len(logs)})
    else:
        every = log_prefixes(data.get("sides", []))
        for index, given in enumerate(data.get("sides", [])):
            name = str(given.get("name") or f"Side {index + 1}")
            navy = str(given.get("navy", ""))
            logs = [
                ship_log(rules, ruleset, prefix, ship, given, turns)
                for prefix, ship in zip(every[index], given.get("ships", []), strict=True)
            ]
            navy_title = str(navies[navy]["title"]) if navy in navies else navy.capitalize()
            # the damage a scenario carries over: those boxes print crossed off
            marked = [
                marked_fields(card, ship)
                for card, ship in zip(logs, given.get("ships", []), strict=True)
            ]
            sides.append({"name": name, "navy": navy_title, "logs": logs, "marked": marked})
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
    for card, marked in zip(side["logs"], side["marked"], strict=True):
        body, height = card_body(card, card_w - 2 * PAD_MM, cols)
        rows, columns_ = card.turn_log
        laid.append(_Laid(card, body, height, rows, columns_, marked))
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
    paint(
        drawing,
        (page["items"] for page in context["pages"]),
        boxes=boxes,
        fillable=fillable,
        field_prefix=field_prefix,
    )
