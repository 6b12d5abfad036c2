"""Ship's logs: a record for every ship of a scenario, several to a page.

Every rating or capacity a ruleset wears down is a row of boxes to cross off, every state
its rules track is a check box, and each log ends in a turn grid (turn, notes). What a
ruleset tracks comes from its rules:

- tactical: Sails, Hull, Crew and Cannon rating points lost (tactical.broadside-attribute,
  tactical.zero-ratings); damaged this turn (tactical.flight-test), fled, captured, sinking.
- flob: Broadside, Hull, each mast's rating and crew parties (flob.ammunition-effects,
  flob.boarding-resolution); hull fires HF and mast fires MF (flob.critical-hits,
  flob.fire-fighting); each broadside and chaser loaded, its ammunition and reload actions
  (flob.reloading, flob.ammunition-loading); wheel and rudder, captain and admiral wounded
  or killed, strike tests (flob.strike-modifiers); grappled, entangled, struck, shattered.
- high-seas: Hull and Rigging Hit Points as tally tracks, each box 10 points (a box a point
  would be 740 boxes for a ship of the line), half-way marked (high-seas.damage); guns and
  guns lost per battery, batteries loaded (high-seas.cannon-fire); crew and fighters killed;
  wet sails, hard turn, rudder (high-seas.wet-sails, high-seas.hard-turn); grappled; the
  four officers' hit points.
- impulse: hull, rigging and crew boxes (impulse.ship-classes), the Crew Status track
  (impulse.crew-status), fire checks (impulse.fire-checks), broadsides loaded, grappled.
- convoy: crew, gun and sail markers (convoy.ship-markers); struck, captured, aground, in
  fog, paused, burnt, escaped (convoy.struck-ships, convoy.captured-ships, convoy.shallows,
  convoy.fog, convoy.boarding-result, convoy.death-rolls).

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
from typing import Any

from generator.loading import Rules
from generator.render.sheets import PAPERS

CONTENT_MM = {"a4": 188.0, "letter": 193.9}  # the page less its 11 mm side margins
GAP_MM = 3.0  # between two logs side by side, and under every log
PADDING_MM = 4.6  # a log's side padding and borders
RIGHT_PAD_MM = 2.5  # between the left and the right column of a log
BOX_MM, BOX_GAP_MM = 5.0, 0.5  # a box to cross off, and the space after it
SAFETY_MM = 0.4  # spare width in every row of boxes, against rounding
TURN_MM, RULE_PT = 10.0, 0.5  # turn log: the turn column, and the lines
TALLY_POINTS = 10  # a high-seas Hit Points box is worth 10 points ...
MAX_TALLY_BOXES = 100  # ... or 20, 50, 100 ... so that no track has more boxes than this
OFFICER_ROLES = ("Captain", "First Mate", "Chief Gunner", "Master-at-Arms")


class Ruleset:
    """How the logs of a ruleset are laid out (widths in mm)."""

    def __init__(
        self,
        layout: str,
        blank_logs: int,
        log_rows: tuple[int, int],
        label: float,
        right: float,
        check: float,
        group_label: float = 0.0,
        blank_label: float = 5.0,
    ) -> None:
        self.layout = layout  # "half": two logs side by side; "full": the page's width
        self.blank_logs = blank_logs  # logs on a blank page
        self.log_rows = log_rows  # turn log (rows, columns of rows)
        self.label = label  # the label column of a row of boxes
        self.right = right  # the right-hand column of a "pair" row
        self.check = check  # one labelled check box, when check boxes stand in columns
        self.group_label = group_label  # the officers' label column (high-seas)
        self.blank_label = blank_label  # added to `label` on a blank log (a write-in box)


RULESETS = {
    "tactical": Ruleset("half", 6, (3, 1), label=15.5, right=26, check=26),
    "flob": Ruleset("full", 2, (4, 2), label=25, right=78, check=36.5),
    "high-seas": Ruleset("full", 2, (2, 2), label=22, right=104, check=34.5, group_label=50),
    "impulse": Ruleset("full", 2, (3, 2), label=18, right=92, check=30, blank_label=0.4),
    "convoy": Ruleset("half", 6, (3, 1), label=12, right=38, check=19),
}
MAST_NAMES = {
    1: ("Mainmast",),
    2: ("Foremast", "Mainmast"),
    3: ("Foremast", "Mainmast", "Mizzen"),
    4: ("Foremast", "Mainmast", "Mizzen", "Jigger"),
}
# short names for the ammunition of flob.ammunition-loading, by row label
FLOB_AMMO = {
    "Single Round Shot": "RS",
    "Grapeshot": "G",
    "Chainshot": "C",
    "Single Round Shot with Grape": "RS+G",
    "Double Round Shot": "DS",
    "Double Round Shot with Grape": "DS+G",
}
TACTICAL_TRACKS = ("sails", "hull", "crew", "cannon")
TACTICAL_VALUES = ("skill", "swiftness", "gunnery", "boarding", "courage")
BATTERY_LABELS = {
    "port": "Port broadside",
    "starboard": "Starboard broadside",
    "stern": "Stern guns",
    "chasers": "Chasers",
}


def slug(text: str) -> str:
    """Return `text` as part of a PDF field name: lower-case ASCII, digits and ``_``."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "_", ascii_text.lower()).strip("_") or "x"


def signed(value: Any) -> str:
    """Write a rating bonus with its sign: +2, -1, 0."""
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:+d}" if value else "0"
    return str(value)


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


# ---------------------------------------------------------------- tactical


def _tactical(log: Log, ship: dict[str, Any] | None, navies: dict[str, str]) -> None:
    ratings = ship.get("ratings", {}) if ship else {}
    if ship:
        if ship.get("flagship"):
            log.card["tags"].append("Flagship")
        if ship.get("ally"):
            log.card["tags"].append(f"Ally ({navies.get(str(ship.get('navy')), 'allied')})")
        captain = ship.get("captain")
        log.card["lines"].append(
            str(ship.get("class", "")) + (f" · Captain {captain}" if captain else "")
        )
        traits: dict[str, list[str]] = {}
        for trait in ship.get("traits", []):
            traits.setdefault(str(trait.get("table", "")), []).append(str(trait.get("result")))
        if traits:
            log.card["lines"].append(
                "; ".join(f"{table.capitalize()}: {', '.join(r)}" for table, r in traits.items())
            )
    else:
        log.head("Class", 24)
        log.head("Captain", 38)
    for key in TACTICAL_VALUES:
        log.fact(key.capitalize(), signed(ratings[key]) if ship else None)
    rows = []
    for key in TACTICAL_TRACKS:
        count = int(ratings[key]) if ship else 7
        rows.append(log.track(key.capitalize(), count, count if ship else None, blank=not ship))
    log.pair([tracks(*rows)], [log.checks("Damaged this turn", "Fled", "Captured", "Sinking")])


def _tactical_notes(rules: Rules) -> list[str]:
    zero = rules.table("tactical.zero-ratings")
    effects = {
        label: str(cell["result"])
        for label, cell in zip(zero.axes[0].labels, zero.cells, strict=True)
    }
    short = {
        "Hull": "cannot move, sinks in 1D6 turns",
        "Crew": "cannot move or repel boarders",
        "Cannon": "blows her hold and sinks at once",
        "Sails": "cannot move",
    }
    zeros = "; ".join(f"{label} {short.get(label, effects[label])}" for label in effects)
    return [
        "Cross off a box for every rating point lost (tactical.broadside-attribute). At zero "
        f"(tactical.zero-ratings): {zeros}. Roll 1D6 in the Morale Phase for every ship "
        "damaged this turn: 2 or less, she flees (tactical.flight-test)."
    ]


# ---------------------------------------------------------------- flob


def _flob(log: Log, ship: dict[str, Any] | None, admiral: dict[str, Any] | None) -> None:
    blank = ship is None
    if ship:
        if ship.get("flagship"):
            log.card["tags"].append("Flagship")
            if admiral:
                log.card["tags"].append(f"Admiral {admiral['name']} ({admiral['quality']})")
        log.card["lines"] += [
            f"{ship['rate']} rate, {ship['guns']} guns · {ship['rig']} · movement class "
            f"{ship['movement_class']} · gunnery class {ship['gunnery_class']}",
            f"Captain {ship['captain']} ({ship['captain_quality']}) · crew {ship['crew_quality']}",
        ]
        masts, rating = int(ship["masts"]), int(ship["mast_rating"])
        values = {k: int(ship[k]) for k in ("broadside", "hull", "crew_parties")}
    else:
        for label, width in (
            ("Rate", 12), ("Guns", 12), ("Rig", 30), ("Movement class", 8),
            ("Gunnery class", 8), ("Captain", 56), ("Crew quality", 24),
        ):  # fmt: skip
            log.head(label, width)
        masts, rating = 3, 6
        values = {"broadside": 13, "hull": 12, "crew_parties": 8}

    def value(number: int) -> int | None:
        return None if blank else number

    rows = [
        log.track("Broadside", values["broadside"], value(values["broadside"]), blank=blank),
        log.track("Hull", values["hull"], value(values["hull"]), blank=blank),
    ]
    for name in MAST_NAMES.get(masts, MAST_NAMES[3]) if masts > 0 else ():
        rows.append(
            log.track(
                name,
                rating,
                value(rating),
                blank=blank,
                after=[
                    log.check("MF", key=f"{name} fire"),
                    log.check("fallen", key=f"{name} fallen"),
                ],
            )
        )
    rows.append(
        log.track(
            "Crew parties", values["crew_parties"], value(values["crew_parties"]), blank=blank
        )
    )
    rows.append(log.track("Hull fires", 5, note="HF; over 4: out of control"))
    guns = {
        "kind": "table",
        "head": ["Guns", "Loaded", "Ammunition", "Reload actions"],
        "rows": [
            {
                "label": label,
                "cells": [
                    {"kind": "checks", "fields": [log.field(label, "loaded")]},
                    {"kind": "write", "field": log.field(label, "ammunition"), "width": "17mm"},
                    {
                        "kind": "checks",
                        "fields": [log.field(label, "reload", i) for i in (1, 2, 3)],
                    },
                ],
            }
            for label in ("Port", "Starboard", "Bow chaser", "Stern chaser")
        ],
    }
    log.pair([tracks(*rows)], [guns])
    labels: list[str | tuple[str, int]] = [
        "Wheel shot away", "Rudder damaged", "Captain wounded", "Captain killed",
    ]  # fmt: skip
    if ship is None or ship.get("flagship"):
        labels += ["Admiral wounded", "Admiral killed"]
    labels += [
        "Grappled", "Entangled", "Aground", "Anchored", "Drifting", "Off table",
        ("Strike tests", 3), "Struck", "Shattered",
    ]  # fmt: skip
    log.full(log.checks(*labels))


def _flob_notes(rules: Rules) -> list[str]:
    loading = rules.table("flob.ammunition-loading")
    ammo = ", ".join(
        f"{FLOB_AMMO.get(label, label)} {label.lower()} ({cell['reload_actions']})"
        for label, cell in zip(loading.axes[0].labels, loading.cells, strict=True)
    )
    return [
        "Cross off Broadside, Hull, mast and crew party points as the rr results take them "
        "(flob.ammunition-effects). HF counts hull fires, MF marks a burning mast "
        "(flob.critical-hits, flob.fire-fighting).",
        f"Ammunition, with the reload actions it takes (flob.ammunition-loading): {ammo}.",
    ]


# ---------------------------------------------------------------- high-seas


def _high_seas(log: Log, ship: dict[str, Any] | None) -> None:
    if ship:
        log.card["tags"].append("Navy warship" if ship.get("navy_ship") else "not Navy")
        log.card["lines"] += [
            f"{ship['type']} · size {ship['size']} · {ship['guns']} guns · speed "
            f"{ship['speed']} · handling {ship['handling']} · {ship['swivels']} swivels",
            f"Crew {ship['crew']}: {ship['trained_fighters']} trained fighters "
            f"({ship['fighters_share']}), {ship['pistols']} with pistols",
        ]
        wide = []
        for key, label in (("hull_hp", "Hull"), ("rigging_hp", "Rigging")):
            points = int(ship[key])
            boxes, unit = tally(points)
            rest = points - (boxes - 1) * unit
            last = f", last {rest}" if rest != unit else ""
            wide.append(
                log.track(
                    f"{label} HP",
                    boxes,
                    points,
                    half_after=(points // 2) // unit,
                    sub=f"{unit} a box{last}",
                )
            )
        batteries: dict[str, Any] = dict(ship["batteries"])
        officers = [o for o in ship.get("officers", []) if isinstance(o, dict)]
    else:
        for label, width in (
            ("Type", 30), ("Size", 8), ("Guns", 10), ("Speed", 8), ("Handling", 8),
            ("Crew", 14), ("Trained fighters", 12), ("Pistols", 10),
        ):  # fmt: skip
            log.head(label, width)
        wide = [
            log.track(f"{label} HP", count, blank=True, sub="10 a box")
            for label, count in (("Hull", 54), ("Rigging", 27))
        ]
        batteries = dict.fromkeys(BATTERY_LABELS)
        officers = [{"role": role} for role in OFFICER_ROLES]
    log.full(tracks(*wide))
    table = {
        "kind": "table",
        "head": ["Battery", "Guns", "Lost", "Loaded"],
        "rows": [
            {
                "label": BATTERY_LABELS.get(key, key),
                "cells": [
                    {"kind": "text", "text": str(guns)}
                    if guns is not None
                    else {"kind": "write", "field": log.field(key, "guns"), "width": "9mm"},
                    {"kind": "write", "field": log.field(key, "lost"), "width": "12mm"},
                    {"kind": "checks", "fields": [log.field(key, "loaded")]},
                ],
            }
            for key, guns in batteries.items()
        ],
    }
    log.pair(
        [table],
        [
            log.writeins(("Crew killed", 30), ("Fighters killed", 30)),
            log.checks(
                ("Wet sails", 2),
                "Half speed next turn",
                "Hard turn",
                "Rudder damaged",
                "Grappled",
                ("Sinking", 2),
                "Sunk",
                "Struck",
                "Escaped",
            ),
        ],
    )
    rows = []
    for officer in officers:
        hp = officer.get("hit_points")
        name = officer.get("name")
        label = str(officer.get("role", "Officer")) + (f" {name}" if name else "")
        rows.append(
            log.track(
                label, int(hp) if hp is not None else 24, hp, blank=hp is None, write_width=28.0
            )
        )
    log.full(
        tracks(*rows, group="Officers: hit points" if ship else "Officers: name and hit points")
    )


def _high_seas_notes(rules: Rules) -> list[str]:
    return [
        "Hit Points are tallied in boxes of 10 points (a box a point would be hundreds of "
        "boxes): cross one off for every 10 points of damage; ½ marks half the track "
        "(high-seas.damage). Hull over half: handling -1, she takes on water; every 10 points "
        "destroy a gun and its crew; at 0 she sinks, and the crew has 2 turns to escape. "
        "Rigging over half: speed halved, chase rolls 1d6; every 5 points kill a man on sail "
        "duty; at 0 she is crippled. Wet sails last 2 turns (high-seas.wet-sails); a damaged "
        "rudder is -1 handling (high-seas.hard-turn)."
    ]


# ---------------------------------------------------------------- impulse


def _impulse(log: Log, ship: dict[str, Any] | None, statuses: list[str]) -> None:
    if ship:
        log.card["lines"] += [
            f"{ship['class']} · {ship['hull_type']} hull · {ship['guns']} guns and "
            f"{ship['carronades']} carronades a broadside",
            f"Captain {ship['captain']} · crew quality {signed(ship['crew_quality'])}",
        ]
        counts = {key: int(ship[key]) for key in ("hull", "rigging", "crew")}
    else:
        for label, width in (
            ("Class", 30), ("Hull type", 16), ("Guns", 10), ("Carronades", 10),
            ("Crew quality", 10), ("Captain", 56),
        ):  # fmt: skip
            log.head(label, width)
        counts = {"hull": 42, "rigging": 30, "crew": 28}
    log.full(
        tracks(
            *(
                log.track(
                    key.capitalize(), n, n if ship else None, blank=ship is None, write_width=6.5
                )
                for key, n in counts.items()
            )
        )
    )
    start = ship.get("morale") if ship else None
    choice = {
        "kind": "choice",
        "label": "Crew Status",
        "options": [
            {"label": status, "start": status == start, "field": log.field("status", status)}
            for status in statuses
        ],
    }
    log.pair(
        [tracks(log.track("Fire checks", 8)), choice],
        [
            log.checks(
                "Port loaded",
                "Starboard loaded",
                "Grappled",
                "Dismasted",
                "Struck",
                "Sunk",
                "Left the map",
            )
        ],
    )


def _impulse_notes(rules: Rules) -> list[str]:
    status = rules.table("impulse.crew-status")
    track = "; ".join(
        f"{label}: {cell['effect_text']}"
        for label, cell in zip(status.axes[0].labels, status.cells, strict=True)
    )
    return [
        "Mark a hull, rigging or crew box for every H, R or C of the Damage Effects Table: all "
        "hull boxes marked, she sinks; all crew boxes, she strikes; all rigging boxes, she is "
        "dismasted. Tally the fire checks to make (impulse.fire-checks). Crew Status moves "
        "one space left when any Morale roll fails; her starting space is underlined "
        f"(impulse.crew-status). {track}"
    ]


# ---------------------------------------------------------------- convoy


def _convoy(log: Log, ship: dict[str, Any] | None) -> None:
    if ship:
        log.card["tags"].append(str(ship["kind"]).capitalize())
        log.card["lines"].append(
            f"{str(ship['size']).capitalize()} {ship['kind']} · crew {ship['condition']}"
        )
        counts = {key: int(ship[key]) for key in ("crew", "guns", "sail")}
    else:
        log.head("Kind", 16)
        log.head("Size", 14)
        log.head("Condition", 20)
        counts = dict.fromkeys(("crew", "guns", "sail"), 5)
    rows = [
        log.track(key.capitalize(), n, n if ship else None, blank=ship is None,
                  note="" if n or not ship else "zero level")
        for key, n in counts.items()
    ]  # fmt: skip
    labels = ["Struck", "Captured", "Aground", "In fog", "Paused", "Burnt"]
    if ship is None or ship.get("kind") == "merchant":
        labels.append("Escaped")
    log.pair([tracks(*rows)], [log.checks(*labels)])


def _convoy_notes(rules: Rules) -> list[str]:
    zero = rules.table("convoy.zero-level")
    levels = "; ".join(
        f"{label} 0: {cell['result']}"
        for label, cell in zip(zero.axes[0].labels, zero.cells, strict=True)
    )
    return [
        f"Cross off a marker for every hit (convoy.ship-markers). Zero level: {levels}. With "
        "no markers left, 1D6 a hit: 1 burns (convoy.death-rolls). Aground: no shooting, "
        "refloats at the end of her next turn (convoy.shallows). Paused: misses her next turn "
        "after a failed boarding (convoy.boarding-result)."
    ]


NOTES = {
    "tactical": _tactical_notes,
    "flob": _flob_notes,
    "high-seas": _high_seas_notes,
    "impulse": _impulse_notes,
    "convoy": _convoy_notes,
}


def ship_log(
    rules: Rules,
    ruleset: str,
    prefix: str,
    ship: dict[str, Any] | None,
    side: dict[str, Any] | None,
) -> dict[str, Any]:
    """Return the log of `ship` of `side` (both None: a blank log) as plain data."""
    log = Log(prefix, str(ship["name"]) if ship else None)
    if ruleset == "tactical":
        navies = {
            k: str(v["title"]).split(" (")[0]
            for k, v in (rules.names.navies.items() if rules.names else ())
        }
        _tactical(log, ship, navies)
    elif ruleset == "flob":
        _flob(log, ship, side.get("admiral") if side else None)
    elif ruleset == "high-seas":
        _high_seas(log, ship)
    elif ruleset == "impulse":
        _impulse(log, ship, list(rules.table("impulse.crew-status").axes[0].labels))
    else:
        _convoy(log, ship)
    log.turn_log(*RULESETS[ruleset].log_rows)
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


def _fit(card: dict[str, Any], spec: Ruleset, inner: float, blank: bool) -> None:
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


def _dims(spec: Ruleset, card: float, blank: bool) -> dict[str, str]:
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
    spec = RULESETS[ruleset]
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
        "notes": NOTES[ruleset](rules),
        "house_tables": [str(t) for t in data.get("house_tables", [])] if data else [],
    }
