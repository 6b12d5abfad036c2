"""Ship's logs: a record for every ship of a scenario, several to a page.

Every rating or capacity a ruleset wears down is a row of boxes to cross off, every state
its rules track is a check box, and each log ends in a turn grid (turn, notes). What a
ruleset's log holds is its generator's to say (`RulesetGenerator.ship_log`, built with
`Log`); how its logs stand on the page is the ``ship-log`` section of its spec.

Each side starts a page. Without a scenario the sheet is one page of blank logs for the
ruleset: write-in boxes for the ship's name and ratings, and spare boxes to cross out.

A log is plain data for the template: its particulars, then ``rows`` of sections, each row
either ``full`` (one list of sections across the log) or ``pair`` (a left and a right list).
Field names start with the side's and the ship's place, so they stay unique when the logs of
both sides go into one PDF (a game-night packet).
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from typing import Any

from generator.generate.base import get_generator
from generator.loading import Rules
from generator.render.sheets import PAPERS
from generator.rulesets import SpecError, sheet_section

CONTENT_MM = {"a4": 188.0, "letter": 193.9}  # the page less its 11 mm side margins
GAP_MM = 3.0  # between two logs side by side, and under every log
PADDING_MM = 4.6  # a log's side padding and borders
RIGHT_PAD_MM = 2.5  # between the left and the right column of a log
BOX_MM, BOX_GAP_MM = 5.0, 0.5  # a box to cross off, and the space after it
SAFETY_MM = 0.4  # spare width in every row of boxes, against rounding
TURN_MM, RULE_PT = 10.0, 0.5  # turn log: the turn column, and the lines
TALLY_POINTS = 10  # a tally track's box is worth 10 points ...
MAX_TALLY_BOXES = 100  # ... or 20, 50, 100 ... so that no track has more boxes than this


@dataclass(frozen=True)
class LogLayout:
    """How the logs of a ruleset are laid out: the ``ship-log`` section of its spec (widths
    in mm)."""

    layout: str  # "half": two logs side by side; "full": the page's width
    blank_logs: int  # logs on a blank page
    turn_log: tuple[int, int]  # turn log: rows, columns of rows
    label: float  # the label column of a row of boxes
    right: float  # the right-hand column of a "pair" row
    check: float  # one labelled check box, when check boxes stand in columns
    group_label: float = 0.0  # the label column of a group of tracks (the officers')
    blank_label: float = 5.0  # added to `label` on a blank log (a write-in box)


WIDTHS = {"label", "right", "check", "group_label", "blank_label"}


@cache
def layout_of(ruleset: str) -> LogLayout:
    """Return the ship-log section of `ruleset`'s spec, checked."""
    raw, spec = sheet_section(ruleset, "ship-log")
    where = spec.where("ship-log")
    widths = raw.get("widths")
    turn_log = raw.get("turn_log")
    if (
        set(raw) != {"layout", "blank_logs", "turn_log", "widths"}
        or raw["layout"] not in ("half", "full")
        or not isinstance(raw["blank_logs"], int)
        or not (isinstance(turn_log, list) and len(turn_log) == 2)
        or not isinstance(widths, dict)
        or not {"label", "right", "check"} <= set(widths) <= WIDTHS
    ):
        raise SpecError(
            f"{where}: a ship-log section has layout (half or full), blank_logs, "
            f"turn_log [rows, columns] and widths ({', '.join(sorted(WIDTHS))})"
        )
    return LogLayout(
        layout=raw["layout"],
        blank_logs=raw["blank_logs"],
        turn_log=(int(turn_log[0]), int(turn_log[1])),
        # as written: 26 prints as 26mm, 15.5 as 15.5mm
        **{key: value for key, value in widths.items() if isinstance(value, int | float)},
    )


def slug(text: str) -> str:
    """Return `text` as part of a PDF field name: lower-case ASCII, digits and ``_``."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "_", ascii_text.lower()).strip("_") or "x"


def tally(points: int) -> tuple[int, int]:
    """Return (boxes, points a box) for a Hit Points track of `points`: 10 points a box, or
    20, 50, 100 ... where 10 would make more than MAX_TALLY_BOXES boxes."""
    unit, steps = TALLY_POINTS, (2.0, 2.5, 2.0)
    step = 0
    while math.ceil(points / unit) > MAX_TALLY_BOXES:
        unit = int(unit * steps[step % 3])
        step += 1
    return max(math.ceil(points / unit), 1), unit


class Log:
    """One ship's log as plain data; every field name starts with the log's prefix."""

    def __init__(self, prefix: str, name: str | None) -> None:
        self.prefix = prefix
        self.card: dict[str, Any] = {
            "name": name,
            "name_field": f"{prefix}_name",
            "tags": [],
            "lines": [],
            "heads": [],
            "facts": [],
            "rows": [],
            "log": [],
            "log_cols": 1,
        }

    def field(self, *parts: Any) -> str:
        return "_".join([self.prefix, *(slug(str(p)) for p in parts)])

    def head(self, label: str, width_mm: float) -> None:
        """A write-in box for a particular of a blank log (class, captain ...)."""
        self.card["heads"].append(
            {"label": label, "field": self.field(label), "width": f"{width_mm}mm"}
        )

    def fact(self, label: str, value: Any | None) -> None:
        """A rating printed (or, when None, written in) beside the particulars."""
        self.card["facts"].append(
            {
                "label": label,
                "value": None if value is None else str(value),
                "field": self.field(label),
            }
        )

    def track(
        self,
        label: str,
        count: int,
        value: Any | None = None,
        *,
        blank: bool = False,
        note: str = "",
        sub: str = "",
        write_width: float = 8.0,
        half_after: int | None = None,
        after: list[dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        """A row of `count` boxes to cross off; `value` prints beside the label, or with
        `blank` a write-in box does."""
        key = slug(label)
        return {
            "kind": "track",
            "label": label,
            "value": None if value is None else str(value),
            "value_field": self.field(key, "value") if blank else None,
            "boxes": [self.field(key, i + 1) for i in range(max(count, 0))],
            "half_after": half_after,
            "note": note,
            "sub": sub,
            "write_width": f"{write_width}mm",
            "after": after or [],
        }

    def check(self, label: str, count: int = 1, key: str | None = None) -> dict[str, Any]:
        """`count` check boxes with their label (`key` names the fields instead)."""
        stem = key or label
        fields = (
            [self.field(stem)] if count == 1 else [self.field(stem, i + 1) for i in range(count)]
        )
        return {"label": label, "fields": fields}

    def checks(self, *labels: str | tuple[str, int]) -> dict[str, Any]:
        """A section of labelled check boxes; a (label, n) pair has n boxes."""
        items = [self.check(*x) if isinstance(x, tuple) else self.check(x) for x in labels]
        return {"kind": "checks", "entries": items}

    def writeins(self, *labels: tuple[str, float]) -> dict[str, Any]:
        """A section of labelled write-in boxes (label, width in mm)."""
        return {
            "kind": "writeins",
            "entries": [
                {"label": label, "field": self.field(label), "width": f"{width}mm"}
                for label, width in labels
            ],
        }

    def full(self, *sections: dict[str, Any]) -> None:
        self.card["rows"].append({"kind": "full", "sections": list(sections)})

    def pair(self, left: list[dict[str, Any]], right: list[dict[str, Any]]) -> None:
        self.card["rows"].append({"kind": "pair", "left": left, "right": right})

    def turn_log(self, rows: int, cols: int) -> None:
        self.card["log_cols"] = cols
        self.card["log"] = [
            [
                {
                    "turn": self.field("log", r * cols + c + 1, "turn"),
                    "notes": self.field("log", r * cols + c + 1, "notes"),
                }
                for c in range(cols)
            ]
            for r in range(rows)
        ]


def tracks(*rows: dict[str, Any], group: str = "") -> dict[str, Any]:
    """A section of rows of boxes (`group`: a title, and the officers' wider labels)."""
    return {"kind": "tracks", "rows": list(rows), "group": group}


def ship_log(
    rules: Rules,
    ruleset: str,
    prefix: str,
    ship: dict[str, Any] | None,
    side: dict[str, Any] | None,
) -> dict[str, Any]:
    """Return the log of `ship` of `side` (both None: a blank log) as plain data: what it
    holds is the ruleset generator's to say (`RulesetGenerator.ship_log`)."""
    log = Log(prefix, str(ship["name"]) if ship else None)
    get_generator(ruleset).ship_log(log, rules, ship, side)
    log.turn_log(*layout_of(ruleset).turn_log)
    return log.card


def segments(fields: list[str], half_after: int | None, capacity: int) -> list[dict[str, Any]]:
    """Split a row of boxes into lines of at most `capacity` boxes (the ½ mark takes the
    place of one), each line into runs of boxes the mark does not interrupt."""
    items: list[str | None] = []  # None is the ½ mark
    for index, name in enumerate(fields):
        if half_after is not None and index == half_after and 0 < index < len(fields):
            items.append(None)
        items.append(name)
    out: list[dict[str, Any]] = []
    for start in range(0, len(items), max(capacity, 1)):
        line = items[start : start + max(capacity, 1)]
        run: list[str] = []
        mid = False
        first = True
        for item in [*line, None]:
            if item is not None:
                run.append(item)
                continue
            if run:
                out.append({"br": first and start > 0, "mid": mid, "fields": run})
                first = False
            mid, run = True, []
        if first and start > 0 and line == [None]:
            out.append({"br": True, "mid": True, "fields": []})
    return out


def _fit(card: dict[str, Any], spec: LogLayout, inner: float, blank: bool) -> None:
    """Break every row of boxes of `card` into lines that fit its column."""
    label = spec.label + (spec.blank_label if blank else 0)
    pitch = BOX_MM + BOX_GAP_MM

    def place(sections: list[dict[str, Any]], width: float) -> None:
        for section in sections:
            if section["kind"] != "tracks":
                continue
            room = width - (spec.group_label if section["group"] else label)
            capacity = max(int((room + BOX_GAP_MM - SAFETY_MM) // pitch), 1)
            for track in section["rows"]:
                track["segments"] = segments(track["boxes"], track["half_after"], capacity)

    for row in card["rows"]:
        if row["kind"] == "full":
            place(row["sections"], inner)
        else:
            place(row["left"], inner - spec.right - RIGHT_PAD_MM)
            place(row["right"], spec.right)
    card["grid"] = _log_grid(inner, card["log_cols"], len(card["log"]))


def _log_grid(inner: float, cols: int, rows: int) -> dict[str, Any]:
    """The printed turn log: its notes columns' widths (a ruled box of inline blocks, which
    WeasyPrint lays out far faster than a table)."""
    notes = (inner - 2 * RULE_PT * 25.4 / 72) / cols - TURN_MM
    return {"notes": f"{notes - 0.2:.2f}mm", "cols": cols, "rows": rows}


def _dims(spec: LogLayout, card: float, blank: bool) -> dict[str, str]:
    inner = card - PADDING_MM
    label = spec.label + (spec.blank_label if blank else 0)
    return {
        "card": f"{card:.1f}mm",
        "label": f"{label}mm",
        "group_label": f"{spec.group_label}mm",
        "right": f"{spec.right}mm",
        "check": f"{spec.check}mm",
        "name": f"{inner - 24:.1f}mm",
        "tags": "26mm" if spec.layout == "half" else "80mm",
    }


def context(
    rules: Rules, data: dict[str, Any] | None, paper: str, ruleset: str | None
) -> dict[str, Any]:
    assert ruleset is not None
    spec = layout_of(ruleset)
    width = CONTENT_MM[PAPERS[paper]["name"]]
    card = (width - GAP_MM) / 2 if spec.layout == "half" else width
    navies = rules.names.navies if rules.names else {}
    sides: list[dict[str, Any]] = []
    if data is None:
        logs = [
            ship_log(rules, ruleset, f"blank_{i + 1}", None, None) for i in range(spec.blank_logs)
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
                ship_log(rules, ruleset, f"{prefix}_{i + 1}", ship, side)
                for i, ship in enumerate(side.get("ships", []))
            ]
            title = str(navies[navy]["title"]) if navy in navies else navy.capitalize()
            sides.append({"name": name, "navy": title, "logs": logs})
    for side in sides:
        for log in side["logs"]:
            _fit(log, spec, card - PADDING_MM, data is None)
    return {
        "scenario": data,
        "ruleset_title": rules.rulesets[ruleset].title,
        "sides": sides,
        "layout": spec.layout,
        "dims": _dims(spec, card, data is None),
        "gap": f"{GAP_MM}mm",
        "notes": get_generator(ruleset).ship_log_notes(rules),
        "house_tables": [str(t) for t in data.get("house_tables", [])] if data else [],
    }
