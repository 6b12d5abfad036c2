"""The duel files: a duellist (a character file, or a side of one), and a scenario's
venue, weather and wind (generator.generate.duel). High-seas officers are duellists too.

Attributes run over duel.attributes' attribute_min..attribute_max; hit points are
Endurance + ceil(Strength / the divisor of duel.attributes); height, expertise, fighting
style, skill levels, armour and loadout come from their house tables; a weapon carries
the numbers duel.weapons gives it, one weapon a hand, a two-handed one alone.
"""

from __future__ import annotations

from typing import Any

from generator.loading import Rules
from generator.ruleset.duel import ATTRIBUTES, hit_points
from generator.ruleset.navies import year_span
from generator.schema.assembly import RulesetSchema, fixed
from generator.schema.context import Ctx
from generator.schema.naval import NAVY, wind_from_weather
from generator.schema.nodes import (
    NAME,
    Check,
    Choice,
    Field,
    Flag,
    Items,
    Null,
    Record,
    Text,
    Whole,
    req,
)
from generator.schema.tables import (
    by_label,
    copied,
    follows,
    labels,
    nationalities,
    results,
    rolled,
    spread,
    values,
)
from generator.yamlfile import KeyPath

RULESET = "duel"
WEAPONS = "duel.weapons"
HANDS = ("right", "left")
WEAPON_NUMBERS = ("min_str", "adv_str", "weapon_bonus", "parry_bonus")
_WEAPON_ROWS = by_label(WEAPONS)


def _attribute_span(rules: Rules) -> tuple[int, int]:
    params = rules.table("duel.attributes").params
    return int(params["attribute_min"]), int(params["attribute_max"])


def _hit_point_span(rules: Rules) -> tuple[int, int]:
    low, high = _attribute_span(rules)
    return hit_points(rules, low, low), hit_points(rules, high, high)


def _attributes(rules: Rules) -> dict[str, Field]:
    whole = Whole(span=_attribute_span, why="duel.attributes' attribute_min..attribute_max")
    return {name: req(whole, f"{name.capitalize()}, rolled on 3d6") for name in ATTRIBUTES}


def _expertise(rules: Rules) -> dict[str, Field]:
    whole = Whole(span=spread("duel.expertise", "expertise"), why="the least and most of it")
    return {
        str(group): req(whole, f"expertise with {str(group).lower()} (duel.expertise)")
        for group in rules.table("duel.expertise").params["groups"]
    }


def _skills(rules: Rules) -> dict[str, Field]:
    level = Choice(results("duel.skills"), "skill level")
    return {
        str(skill): req(level, f"{skill} (duel.skills)")
        for skill in rules.table("duel.skills").params["skills"]
    }


WEAPON = Record(
    {
        "name": req(Choice(labels(WEAPONS), "weapon"), f"the weapon ({WEAPONS})"),
        "hand": req(Choice(HANDS, "hand"), "the hand it is held in"),
        "type": req(Choice(values(WEAPONS, "type"), "weapon type"), "its type"),
        "damage": req(Text(20), "its damage dice"),
        **{
            key: req(
                Whole(span=spread(WEAPONS, key), why=f"the least and most of {WEAPONS}"),
                f"its {key} ({WEAPONS})",
            )
            for key in WEAPON_NUMBERS
        },
        "can_parry": req(Flag(), "whether it can parry"),
    },
    checks=(
        copied(("type", "damage", *WEAPON_NUMBERS, "can_parry"), "name", WEAPONS, _WEAPON_ROWS),
    ),
    what="a weapon",
)


def _hit_points(ctx: Ctx, data: dict[str, Any], path: KeyPath) -> None:
    """Hit points follow from the attributes."""
    strength, endurance = data["attributes"]["strength"], data["attributes"]["endurance"]
    expected = hit_points(ctx.rules, strength, endurance)
    if data["hit_points"] != expected:
        formula = ctx.rules.table("duel.attributes").params.get("hit_points", "")
        ctx.fail(
            (*path, "hit_points"),
            f"hit_points {data['hit_points']} does not follow from endurance {endurance} and "
            f"strength {strength} ({formula} gives {expected})",
        )


def _hands(ctx: Ctx, data: dict[str, Any], path: KeyPath) -> None:
    """One weapon a hand, a two-handed one alone."""
    weapons = data.get("weapons")
    if not isinstance(weapons, list):
        return
    rows = ctx.of(_WEAPON_ROWS)
    held: set[str] = set()
    for index, weapon in enumerate(weapons):
        if not isinstance(weapon, dict) or weapon.get("hand") not in HANDS:
            continue
        where = (*path, "weapons", index)
        if weapon["hand"] in held:
            ctx.fail((*where, "hand"), f"two weapons in the {weapon['hand']} hand")
        held.add(weapon["hand"])
        cell = rows.get(str(weapon.get("name")))
        if cell is not None and int(cell.get("hands", 1)) > 1 and len(weapons) > 1:
            ctx.fail((*where, "name"), f"a {weapon['name']} takes both hands: no other weapon")


PERSON_FIELDS: dict[str, Field] = {
    "name": req(NAME, "the duellist's name"),
    "nationality": req(
        Choice(nationalities, "nationality", docs="a nationality of the name lists"),
        "the people the name is drawn from (data/names.yaml)",
    ),
    "attributes": req(Record(_attributes, what="the attributes"), "the four attributes"),
    "hit_points": req(
        Whole(span=_hit_point_span, why="from the least and most attributes"),
        "Endurance + ceil(Strength / 3) (duel.attributes)",
    ),
    "height_cm": req(
        Whole(span=spread("duel.height", "cm"), why="the least and most of duel.height"),
        "height in cm (duel.height)",
    ),
    "style": req(
        Choice(values("duel.fighting-style", "style"), "fighting style"),
        "the fighting style (duel.fighting-style)",
    ),
    "expertise": req(Record(_expertise, what="the expertise"), "expertise per weapon group"),
    "skills": req(Record(_skills, what="the skills"), "skill levels"),
    "weapons": req(
        Items(WEAPON, 1, 2, ("weapon", "weapons")), "the weapons held, right hand first"
    ),
    "armour": req(Choice(labels("duel.armour"), "armour"), "the armour worn (duel.armour)"),
    "loadout": req(Choice(results("duel.loadout"), "loadout"), "the loadout rolled (duel.loadout)"),
}
PERSON_CHECKS = (
    Check(
        "hit_points is Endurance + ceil(Strength / 3) (duel.attributes)",
        _hit_points,
        needs=("attributes.strength", "attributes.endurance", "hit_points"),
    ),
    Check("at most one weapon a hand, and a two-handed weapon alone", _hands),
)
PERSON = Record(PERSON_FIELDS, checks=PERSON_CHECKS, what="a duellist")

SIDE = Record(
    {
        "name": req(NAME, "the side's name: its duellist's"),
        "navy": req(NAVY, "the navy (nation) the duellist comes from"),
        "characters": req(Items(PERSON, 1, None, ("duellist", "duellists")), "the side's duellist"),
    },
    what="a duel side",
)


def _winds(rules: Rules) -> list[str]:
    """The winds duel.weather gives (— where a weather names none)."""
    return list(dict.fromkeys(str(c.get("wind", "—")) for c in rules.table("duel.weather").cells))


SCHEMA = RulesetSchema(
    ruleset=RULESET,
    notes=__doc__ or "",
    side=SIDE,
    setting={
        "wind": req(
            Record(
                {
                    "result": req(
                        Choice(_winds, "wind"),
                        "the wind (duel.weather's wind for the weather)",
                    )
                },
                what="a wind (result)",
            ),
            "the wind",
        ),
        "weather": req(rolled("duel.weather", "weather result"), "the weather (duel.weather)"),
        "venue": req(
            Record(
                {
                    **fixed(rolled("duel.venue", "venue")),
                    "at_sea": req(Flag(), "whether the venue is at sea (duel.venue)"),
                },
                checks=(follows("at_sea", "result", "duel.venue", "at_sea"),),
                what="a venue (roll, result, at_sea)",
            ),
            "where the duel is fought (duel.venue)",
        ),
        "map": req(Null("a duel has no map"), "null"),
    },
    checks=(wind_from_weather("duel.weather", "—"),),
    sides=(1, None),
    years=year_span,  # the generator's years (RulesetGenerator.years)
    person=PERSON,
    units="characters",
)
