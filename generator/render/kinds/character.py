"""A duellist's full character sheet: blank or filled from a generated character.

Everything printed comes from the tables of the ruleset the sheet serves: the attributes
and what they are used for (``attributes``), weapon groups (``expertise``), skills and
their levels (``skills``), weapon statistics (``weapons``), armour (``armour``), hit
locations (``hit-location``), the wound thresholds (``wound-effects``, ``wound-totals``)
and stun (``stun``). Half the hit points is rounded up (``rounding``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from generator.loading import Rules, Table, thaw
from generator.lookup import cell_text
from generator.render.sheets import PAPERS

WEAPON_ROWS = 4  # weapon rows on the sheet, filled ones first
NOTE_LINES = {  # (blank, filled): what is left of the page
    "a4": (5, 5),
    "letter": (3, 3),
}
# a mark inside the box at which a wound threshold is reached
UNCONSCIOUS, DEATH, USELESS = "U", "†", "½"


def _short(title: str) -> str:
    return title.replace(" (house table)", "")


def _marks(count: int, marks: Mapping[int, str]) -> list[dict[str, Any]]:
    """Return `count` boxes, numbered from 1; some carry a threshold mark."""
    return [{"n": n, "mark": marks.get(n, "")} for n in range(1, count + 1)]


def _style_names(tables: Mapping[str, Table]) -> dict[str, str]:
    table = tables["fighting-style"]
    return {str(c["style"]): cell_text(c) for c in table.cells}


def _weapon(tables: Mapping[str, Table], given: Mapping[str, Any]) -> dict[str, Any]:
    """Return a weapon of the character, its missing statistics taken from the weapons."""
    table = tables["weapons"]
    name = str(given.get("name", ""))
    row: dict[str, Any] = {}
    for index, value in enumerate(table.axes[0].values):
        if value.matches(name):
            row = thaw(table.cell(index))
            name = value.label
    merged = {**row, **given, "name": name}
    return {
        "name": name,
        "hand": str(merged.get("hand", "")),
        "type": str(merged.get("type", "")),
        "damage": str(merged.get("damage", "")),
        "min_str": merged.get("min_str", ""),
        "adv_str": merged.get("adv_str", ""),
        "weapon_bonus": merged.get("weapon_bonus", ""),
        "parry_bonus": merged.get("parry_bonus", ""),
        "can_parry": merged.get("can_parry"),
    }


def person(tables: Mapping[str, Table], data: Mapping[str, Any]) -> dict[str, Any]:
    """Return the character as the sheets print it (an edited file may lack some fields):
    the briefing's duellists too."""
    styles = _style_names(tables)
    style = data.get("style")
    return {
        "name": str(data.get("name", "")),
        "role": str(data["role"]).capitalize() if data.get("role") else None,
        "nationality": str(data.get("nationality", "")).capitalize() or None,
        "height": f"{data['height_cm']} cm" if "height_cm" in data else None,
        "style": styles.get(str(style), str(style)) if style is not None else None,
        "attributes": {str(k).casefold(): v for k, v in dict(data.get("attributes", {})).items()},
        "hit_points": int(data["hit_points"]),
        "expertise": dict(data.get("expertise", {})),
        "skills": dict(data.get("skills", {})),
        "weapons": [_weapon(tables, w) for w in data.get("weapons", [])],
        "armour": str(data.get("armour", "")),
        "loadout": str(data["loadout"]) if data.get("loadout") else None,
    }


def context(
    rules: Rules, data: dict[str, Any] | None, paper: str, ruleset: str | None
) -> dict[str, Any]:
    assert ruleset is not None  # render_sheet settles the ruleset before asking
    from generator.render.kinds.briefing import player_words  # it reads this module

    tables = rules.rulesets[ruleset].tables
    who = person(tables, data) if data is not None else None
    attributes = tables["attributes"]
    expertise = tables["expertise"]
    skills = tables["skills"]
    armour = tables["armour"]
    locations = tables["hit-location"]
    effects = tables["wound-effects"]
    totals = tables["wound-totals"]
    stun = tables["stun"]

    # hit points: the character's, or room for the most the house tables give
    top = int(attributes.params["attribute_max"])
    divisor = int(attributes.params["hit_points_strength_divisor"])
    most_hit_points = top + math.ceil(top / divisor)
    hit_points = who["hit_points"] if who else most_hit_points
    if who:
        half = float(totals.params["head_chest_unconscious_at_fraction"])
        who["half_hit_points"] = math.ceil(hit_points * half)
    at = float(totals.params["total_unconscious_at_fraction"])
    hp_marks = {math.ceil(hit_points * at): UNCONSCIOUS} if who else {}
    hp_boxes = _marks(hit_points + 1 if who else hit_points, hp_marks)
    if who:
        hp_boxes[-1]["mark"] = DEATH

    # the wound tracker: one row per hit location, thresholds from the wound effects
    effect_of = {
        label: thaw(cell) for label, cell in zip(effects.axes[0].labels, effects.cells, strict=True)
    }
    rows: list[dict[str, Any]] = []
    for cell in locations.cells:
        location = str(cell["location"])
        effect = effect_of[location]
        fraction = float(
            effect.get("unconscious_total_fraction", effect.get("useless_total_fraction", 0.5))
        )
        half = math.ceil(hit_points * fraction)
        if "death_above_fraction" in effect:
            marks = {half: UNCONSCIOUS, half + 1: DEATH} if who else {}
            count = half + 1
        else:
            marks = {half: USELESS} if who else {}
            count = half
        rows.append(
            {
                "label": str(cell["result"]),
                "key": str(cell["result"]).casefold().replace(" ", "_").replace("/", "_"),
                "location": location,
                "boxes": _marks(count, marks),
                "text": str(effect["result"]),
                "span": 0,
            }
        )
    # the effect text once per location (right and left arm share theirs)
    for i, row in enumerate(rows):
        if i == 0 or rows[i - 1]["location"] != row["location"]:
            row["span"] = sum(1 for r in rows[i:] if r["location"] == row["location"])
    limbs = [r for r in rows if "useless_effect" in effect_of[r["location"]]]

    worn = who["armour"] if who else None
    armour_rows = [
        {
            # the table's row "None" as words: "No armour"
            "name": value.label
            if value.label.casefold() != "none"
            else f"No {_short(armour.title).lower()}",
            "reduction": cell["damage_reduction"],
            "locations": cell["locations"],
            "worn": worn is not None and value.matches(worn),
        }
        for value, cell in zip(armour.axes[0].values, armour.cells, strict=True)
    ]

    # the house tables the sheet's boxes come from (the sheet counts them; the Notes for the
    # GM list them)
    house = [
        tables[key].id
        for key in (
            "attributes",
            "height",
            "fighting-style",
            "expertise",
            "skills",
            "weapons",
            "armour",
            "hit-location",
        )
    ]
    if who:
        house += [tables[key].id for key in ("loadout", "armour-worn")]

    blank_lines, filled_lines = NOTE_LINES[PAPERS[paper]["name"]]
    weapons = who["weapons"] if who else []
    return {
        "person": who,
        "attributes": [
            {
                "key": label.casefold(),
                "label": label,
                "abbreviation": cell["abbreviation"],
                "used_for": cell["used_for"],
            }
            for label, cell in zip(attributes.axes[0].labels, attributes.cells, strict=True)
        ],
        "attribute_dice": attributes.params["attribute_dice"],
        "hit_points_rule": player_words(rules, str(attributes.params["hit_points"])),
        "groups": list(expertise.params["groups"]),
        "skills": list(skills.params["skills"]),
        "skill_levels": [cell_text(c) for c in skills.cells],
        "weapon_rows": weapons + [None] * max(0, WEAPON_ROWS - len(weapons)),
        "armour_rows": armour_rows,
        "hp_boxes": hp_boxes,
        "hp_text": [item.text for item in totals.items if "equals hit points" in item.text],
        "wound_rows": rows,
        "limbs": limbs,
        "unconscious_hours": totals.params["unconscious_hours"],
        "useless_days": next((effect_of[r["location"]]["useless_days"] for r in limbs), ""),
        "game": rules.rulesets[ruleset].title.split(" (")[0],
        "marks": {"unconscious": UNCONSCIOUS, "death": DEATH, "useless": USELESS},
        "stun_text": [item.text for item in stun.items],
        "stun_boxes": int(stun.params["no_actions_at_stuns"]),
        "note_lines": filled_lines if who else blank_lines,
        "house_tables": house,
    }
