"""The roster: a scenario's sides at a glance.

For each side its name, navy, commander (admiral, flagship, or what the ruleset has) and a
table of every unit with its key values, and the side's strength by the generator's own
measure (`RulesetGenerator.strength`, described by ``strength_measure``), under the
scenario's title and seed. A scenario given one side (a game-night packet's handout) prints
that side alone. Without a scenario the sheet is a blank roster to write a force into.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from generator.generate.base import get_generator
from generator.loading import Rules
from generator.render.sheets import PAPERS

BLANK_ROWS = {"a4": 16, "letter": 14}  # unit rows of a blank roster (one side, one page)

Column = tuple[str, str]  # (title, CSS class: name, num, text or small)
Row = dict[str, Any]


def _number(value: float) -> str:
    return f"{value:g}"


def _signed(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:+d}" if value else "0"
    return str(value)


def _text(value: Any) -> str:
    return "" if value is None else str(value)


# ---------------------------------------------------------------- per ruleset: columns, rows

TACTICAL_RATINGS = (
    ("Sails", "sails"),
    ("Hull", "hull"),
    ("Crew", "crew"),
    ("Cannon", "cannon"),
    ("Skill", "skill"),
    ("Swift", "swiftness"),
    ("Gunn.", "gunnery"),
    ("Board.", "boarding"),
    ("Cour.", "courage"),
)
SIGNED_RATINGS = {"skill", "swiftness", "gunnery", "boarding", "courage"}


def _tactical_columns() -> list[Column]:
    return [
        ("Ship", "name"),
        ("Class", "text"),
        ("Captain", "text"),
        *((title, "num") for title, _ in TACTICAL_RATINGS),
        ("Traits", "small"),
    ]


def _tactical_row(ship: dict[str, Any], navies: dict[str, str]) -> Row:
    ratings = ship.get("ratings", {})
    tags = []
    if ship.get("flagship"):
        tags.append("flagship")
    if ship.get("ally"):
        tags.append(f"ally, {navies.get(str(ship.get('navy')), 'allied')}")
    traits = ", ".join(str(t.get("result", "")) for t in ship.get("traits", []))
    values = [
        _signed(ratings.get(key)) if key in SIGNED_RATINGS else _text(ratings.get(key))
        for _, key in TACTICAL_RATINGS
    ]
    return {
        "name": str(ship["name"]),
        "tags": tags,
        "cells": [_text(ship.get("class")), _text(ship.get("captain")), *values, traits],
    }


def _tactical_side(side: dict[str, Any], navies: dict[str, str]) -> list[tuple[str, str]]:
    facts = []
    admiral = side.get("admiral") or {}
    name = side.get("admiral_name")
    facts.append(
        (
            "Admiral",
            f"{name + ', ' if name else ''}{admiral.get('result', '')}"
            + (f" ({admiral['bonus']})" if admiral.get("bonus") else ""),
        )
    )
    for key, label in (("national", "National"), ("fleet", "Fleet")):
        entry = side.get(key) or {}
        bonus = f" ({entry['bonus']})" if entry.get("bonus") else ""
        facts.append((label, f"{entry.get('result', '')}{bonus}"))
    flagship = next((s for s in side.get("ships", []) if s.get("flagship")), None)
    if flagship:
        facts.append(("Flagship", f"{flagship['name']} ({flagship.get('class', '')})"))
    if side.get("ally_navy"):
        allies = sum(bool(s.get("ally")) for s in side.get("ships", []))
        facts.append(("Allies", f"{allies} {navies.get(str(side['ally_navy']), 'allied')} ships"))
    return facts


def _flob_columns() -> list[Column]:
    return [
        ("Ship", "name"),
        ("Rate", "text"),
        ("Guns", "num"),
        ("Rig", "text"),
        ("Move", "num"),
        ("Gun class", "num"),
        ("Broad­side", "num"),
        ("Hull", "num"),
        ("Masts", "num"),
        ("Crew parties", "num"),
        ("Crew", "text"),
        ("Captain", "text"),
    ]


def _flob_row(ship: dict[str, Any], navies: dict[str, str]) -> Row:
    return {
        "name": str(ship["name"]),
        "tags": ["flagship"] if ship.get("flagship") else [],
        "cells": [
            _text(ship["rate"]),
            _text(ship["guns"]),
            _text(ship["rig"]),
            _text(ship["movement_class"]),
            _text(ship["gunnery_class"]),
            _text(ship["broadside"]),
            _text(ship["hull"]),
            f"{ship['masts']} × {ship['mast_rating']}",
            _text(ship["crew_parties"]),
            _text(ship["crew_quality"]),
            f"{ship['captain']} ({ship['captain_quality']})",
        ],
    }


def _flob_side(side: dict[str, Any], navies: dict[str, str]) -> list[tuple[str, str]]:
    admiral = side.get("admiral") or {}
    facts = [("Admiral", f"{admiral.get('name', '')} ({admiral.get('quality', '')})")]
    flagship = next((s for s in side.get("ships", []) if s.get("flagship")), None)
    if flagship:
        facts.append(("Flagship", f"{flagship['name']} ({flagship['rate']} rate)"))
    return facts


def _high_seas_columns() -> list[Column]:
    return [
        ("Ship", "name"),
        ("Type", "text"),
        ("Size", "num"),
        ("Guns", "num"),
        ("Port / stbd / stern / chase", "num"),
        ("Hull HP", "num"),
        ("Rigging HP", "num"),
        ("Speed", "num"),
        ("Hand­ling", "num"),
        ("Crew", "num"),
        ("Fighters", "num"),
        ("Pistols", "num"),
        ("Swivels", "num"),
    ]


def _high_seas_row(ship: dict[str, Any], navies: dict[str, str]) -> Row:
    batteries = ship.get("batteries", {})
    officers = [o for o in ship.get("officers", []) if isinstance(o, dict)]
    sub = " · ".join(
        f"{o.get('role', 'Officer')} {o.get('name', '')} (HP {o.get('hit_points', '?')})"
        for o in officers
    )
    return {
        "name": str(ship["name"]),
        "tags": ["Navy"] if ship.get("navy_ship") else [],
        "cells": [
            _text(ship["type"]),
            _text(ship["size"]),
            _text(ship["guns"]),
            " / ".join(_text(batteries.get(k)) for k in ("port", "starboard", "stern", "chasers")),
            _text(ship["hull_hp"]),
            _text(ship["rigging_hp"]),
            _text(ship["speed"]),
            _text(ship["handling"]),
            _text(ship["crew"]),
            f"{ship['trained_fighters']} ({ship['fighters_share']})",
            _text(ship["pistols"]),
            _text(ship["swivels"]),
        ],
        "sub": sub,
    }


def _high_seas_side(side: dict[str, Any], navies: dict[str, str]) -> list[tuple[str, str]]:
    ships = side.get("ships", [])
    if not ships:
        return []
    captains = [
        f"{o.get('name', '')} ({ship['name']})"
        for ship in ships
        for o in ship.get("officers", [])
        if isinstance(o, dict) and o.get("role") == "Captain"
    ]
    return [("Captains", ", ".join(captains))] if captains else []


def _impulse_columns() -> list[Column]:
    return [
        ("Ship", "name"),
        ("Class", "text"),
        ("Hull type", "text"),
        ("Guns", "num"),
        ("Carron­ades", "num"),
        ("Hull", "num"),
        ("Rigging", "num"),
        ("Crew", "num"),
        ("Quality", "num"),
        ("Crew Status", "text"),
        ("Captain", "text"),
    ]


def _impulse_row(ship: dict[str, Any], navies: dict[str, str]) -> Row:
    return {
        "name": str(ship["name"]),
        "tags": [],
        "cells": [
            _text(ship["class"]),
            _text(ship["hull_type"]),
            _text(ship["guns"]),
            _text(ship["carronades"]),
            _text(ship["hull"]),
            _text(ship["rigging"]),
            _text(ship["crew"]),
            _signed(ship["crew_quality"]),
            _text(ship["morale"]),
            _text(ship["captain"]),
        ],
    }


def _impulse_side(side: dict[str, Any], navies: dict[str, str]) -> list[tuple[str, str]]:
    squadron = side.get("squadron") or {}
    if not squadron:
        return []
    return [("Squadron", f"{squadron.get('result', '')} (roll {squadron.get('roll', '?')})")]


def _convoy_columns() -> list[Column]:
    return [
        ("Ship", "name"),
        ("Kind", "text"),
        ("Size", "text"),
        ("Crew", "num"),
        ("Guns", "num"),
        ("Sail", "num"),
        ("Condition", "text"),
    ]


def _convoy_row(ship: dict[str, Any], navies: dict[str, str]) -> Row:
    return {
        "name": str(ship["name"]),
        "tags": [],
        "cells": [
            _text(ship["kind"]).capitalize(),
            _text(ship["size"]).capitalize(),
            _text(ship["crew"]),
            _text(ship["guns"]),
            _text(ship["sail"]),
            _text(ship["condition"]).capitalize(),
        ],
    }


def _convoy_side(side: dict[str, Any], navies: dict[str, str]) -> list[tuple[str, str]]:
    facts = []
    if side.get("role"):
        facts.append(("Role", "the convoy" if side["role"] == "convoy" else "the raiders"))
    composition = side.get("composition") or {}
    if composition:
        facts.append(("Composition", str(composition.get("result", ""))))
    return facts


RowBuilder = Callable[[dict[str, Any], dict[str, str]], Row]
SideBuilder = Callable[[dict[str, Any], dict[str, str]], list[tuple[str, str]]]
RULESETS: dict[str, tuple[Callable[[], list[Column]], RowBuilder, SideBuilder, str]] = {
    "tactical": (_tactical_columns, _tactical_row, _tactical_side, "fleet"),
    "flob": (_flob_columns, _flob_row, _flob_side, "squadron"),
    "high-seas": (_high_seas_columns, _high_seas_row, _high_seas_side, "squadron"),
    "impulse": (_impulse_columns, _impulse_row, _impulse_side, "squadron"),
    "convoy": (_convoy_columns, _convoy_row, _convoy_side, "side"),
}
# a blank roster's write-in particulars of a side, by ruleset
BLANK_FACTS = {
    "tactical": ["Admiral", "National", "Fleet", "Flagship"],
    "flob": ["Admiral", "Flagship"],
    "high-seas": ["Captains"],
    "impulse": ["Squadron"],
    "convoy": ["Role", "Composition"],
}


def context(
    rules: Rules, data: dict[str, Any] | None, paper: str, ruleset: str | None
) -> dict[str, Any]:
    assert ruleset is not None
    columns, row, side_facts, word = RULESETS[ruleset]
    gen = get_generator(ruleset)
    navies = {k: str(v["title"]) for k, v in rules.names.navies.items()} if rules.names else {}
    short = {k: v.split(" (")[0] for k, v in navies.items()}
    sides: list[dict[str, Any]] = []
    if data is None:
        sides.append(
            {
                "name": None,
                "navy": "",
                "facts": [(label, None) for label in BLANK_FACTS[ruleset]],
                "strength": None,
                "rows": BLANK_ROWS[PAPERS[paper]["name"]],
            }
        )
        return {
            "scenario": None,
            "ruleset_title": rules.rulesets[ruleset].title,
            "columns": columns(),
            "sides": sides,
            "word": word,
            "measure": gen.strength_measure,
            "ratio": None,
            "house_tables": [],
        }
    strengths = []
    for side in data.get("sides", []):
        strength = gen.strength(side)
        strengths.append(strength)
        navy = str(side.get("navy", ""))
        units = side.get(gen.units, [])
        sides.append(
            {
                "name": str(side.get("name", "")),
                "navy": navies.get(navy, navy.capitalize()),
                "facts": side_facts(side, short),
                "strength": _number(strength),
                "count": len(units),
                "units": [{"sub": "", **row(unit, short)} for unit in units],
            }
        )
    ratio = None
    if len(strengths) == 2 and max(strengths) > 0:
        ratio = f"{min(strengths) / max(strengths):.2f}"
    return {
        "scenario": data,
        "ruleset_title": rules.rulesets[ruleset].title,
        "columns": columns(),
        "sides": sides,
        "word": word,
        "measure": gen.strength_measure,
        "ratio": ratio,
        "house_tables": [str(t) for t in data.get("house_tables", [])],
    }
