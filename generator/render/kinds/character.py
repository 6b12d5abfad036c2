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
from generator.render.paper import get_paper
from generator.render.words import game_title, house_tables_line, player_words, table_title
from generator.ruleset.model import Person

WEAPON_ROWS = 4  # weapon rows on the sheet, filled ones first
NOTE_LINES = {  # (blank, filled): what is left of the page
    "a4": (5, 5),
    "letter": (3, 3),
}
# a mark inside the box at which a wound threshold is reached
UNCONSCIOUS, DEATH, USELESS = "U", "†", "½"


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


def most_hit_points(tables: Mapping[str, Table]) -> int:
    """Return the most hit points the attribute table gives: a blank sheet's room."""
    params = tables["attributes"].params
    top = int(params["attribute_max"])
    return top + math.ceil(top / int(params["hit_points_strength_divisor"]))


def hit_point_boxes(tables: Mapping[str, Table], hit_points: int, *, marked: bool) -> list[Any]:
    """Return the hit-point track: a box a point of damage, in all locations together.

    Marked (a known character): U where the total knocks out (``wound-totals``) and a last
    box, †, for the first point more, as the wounds resolver counts them; unmarked (a blank
    sheet): room for `hit_points`.
    """
    if not marked:
        return _marks(hit_points, {})
    totals = tables["wound-totals"].params
    unconscious = math.ceil(hit_points * float(totals["total_unconscious_at_fraction"]))
    dies = math.ceil(hit_points * float(totals["total_death_above_fraction"])) + 1
    return _marks(dies, {unconscious: UNCONSCIOUS, dies: DEATH})


def wound_rows(tables: Mapping[str, Table], hit_points: int, *, marked: bool) -> list[Any]:
    """Return the wound tracker's rows, each a track of boxes to cross off.

    The locations that stun (head and chest/flank) share one track: the wounds resolver counts
    their damage together (``wound-effects``), so two tracks would each stay short of a
    threshold the duellist has reached. Each arm and leg counts on its own. Marked, the
    boxes carry U, † and ½ where the wounds resolver finds those effects, and each row says
    the numbers; unmarked (a blank sheet), the rows have room for `hit_points`.
    """
    effects = tables["wound-effects"]
    effect_of = {
        label: thaw(cell) for label, cell in zip(effects.axes[0].labels, effects.cells, strict=True)
    }
    cells = [thaw(cell) for cell in tables["hit-location"].cells]
    shared = [cell for cell in cells if "stun_at" in effect_of[str(cell["location"])]]
    rows: list[dict[str, Any]] = []
    if shared:
        effect = effect_of[str(shared[0]["location"])]
        unconscious = math.ceil(hit_points * float(effect["unconscious_total_fraction"]))
        dies = math.ceil(hit_points * float(effect["death_above_fraction"])) + 1
        labels = [str(cell["result"]) for cell in shared]
        stuns = " or ".join(
            f"{effect_of[str(c['location'])]['stun_at']}+ points to the {str(c['result']).lower()}"
            for c in shared
        )
        hours = effect["unconscious_hours"]
        if marked:
            counts = (
                f"{unconscious} points ({UNCONSCIOUS}): {hours} hours unconscious; "
                f"{dies} ({DEATH}): death."
            )
        else:
            counts = f"half the hit points (rounded up): {hours} hours unconscious; more: death."
        rows.append(
            {
                "label": " and ".join(labels),
                "key": _key(" and ".join(labels)),
                "boxes": _marks(dies, {unconscious: UNCONSCIOUS, dies: DEATH} if marked else {}),
                "limb": False,
                "thresholds": f"{UNCONSCIOUS} at {unconscious} · {DEATH} at {dies}"
                if marked
                else "",
                "text": (
                    f"Stunned by {stuns} from one attack. They count together (write "
                    f"{' or '.join(label[0] for label in labels)} in the box): {counts}"
                ),
                "span": 1,
            }
        )
    for cell in cells:
        effect = effect_of[str(cell["location"])]
        if "stun_at" in effect:
            continue
        useless = math.ceil(hit_points * float(effect["useless_total_fraction"]))
        rows.append(
            {
                "label": str(cell["result"]),
                "key": _key(str(cell["result"])),
                "location": str(cell["location"]),
                "boxes": _marks(useless, {useless: USELESS} if marked else {}),
                "limb": "useless_effect" in effect,
                "thresholds": f"{USELESS} at {useless}" if marked else "",
                "text": str(effect["result"]),
                "span": 0,
            }
        )
    # the effect text once per location (right and left arm share theirs)
    for i, row in enumerate(rows):
        if "location" in row and (i == 0 or rows[i - 1].get("location") != row["location"]):
            row["span"] = sum(1 for r in rows[i:] if r.get("location") == row["location"])
    return rows


def _key(label: str) -> str:
    """Return a form field's name part for a label ("Chest/Flank" -> "chest_flank")."""
    return label.casefold().replace(" ", "_").replace("/", "_")


def person(tables: Mapping[str, Table], data: Mapping[str, Any]) -> dict[str, Any]:
    """Return the character as the sheets print it (an edited file may lack some fields):
    the briefing's duellists too, and a ship's officers (`CrewOfficer`, with a role)."""
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


def context(rules: Rules, data: Person | None, paper: str, ruleset: str | None) -> dict[str, Any]:
    assert ruleset is not None  # render_sheet settles the ruleset before asking
    tables = rules.rulesets[ruleset].tables
    who = person(tables, data) if data is not None else None
    attributes = tables["attributes"]
    expertise = tables["expertise"]
    skills = tables["skills"]
    armour = tables["armour"]
    effects = tables["wound-effects"]
    totals = tables["wound-totals"]
    stun = tables["stun"]

    # hit points: the character's, or room for the most the house tables give
    hit_points = who["hit_points"] if who else most_hit_points(tables)
    if who:
        half = float(totals.params["head_chest_unconscious_at_fraction"])
        who["half_hit_points"] = math.ceil(hit_points * half)
    hp_boxes = hit_point_boxes(tables, hit_points, marked=who is not None)
    rows = wound_rows(tables, hit_points, marked=who is not None)
    effect_of = {
        label: thaw(cell) for label, cell in zip(effects.axes[0].labels, effects.cells, strict=True)
    }
    limbs = [r for r in rows if r["limb"]]

    worn = who["armour"] if who else None
    armour_rows = [
        {
            # the table's row "None" as words: "No armour"
            "name": value.label
            if value.label.casefold() != "none"
            else f"No {table_title(armour).lower()}",
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

    blank_lines, filled_lines = NOTE_LINES[get_paper(paper).name]
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
        "game": game_title(rules.rulesets[ruleset]),
        "marks": {"unconscious": UNCONSCIOUS, "death": DEATH, "useless": USELESS},
        "stun_text": [item.text for item in stun.items],
        "stun_boxes": int(stun.params["no_actions_at_stuns"]),
        "note_lines": filled_lines if who else blank_lines,
        "house_tables": house,
        "house_line": house_tables_line(rules, house),
    }
