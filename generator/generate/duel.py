"""Duellists from the house character tables, and duel scenarios.

Attributes are 3d6 each; hit points Endurance + ceil(Strength / 3); expertise 2d6 per
weapon group; a fighting style, height, skills, a loadout of weapons with their MinSTR,
AdvSTR and bonuses, and armour. All of these are house tables in data/duel.yaml: the
seed gives no character generation. High-seas officers are rolled by the same function.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

from generator.errors import InputError
from generator.generate.base import RulesetGenerator, register
from generator.generate.common import Checker, Names, pick, roll_on
from generator.loading import Rules, thaw
from generator.ruleset import duel as duel_rules
from generator.ruleset.duel import ATTRIBUTES, hit_points
from generator.ruleset.model import Character, Person, Setting, Side, Weapon
from generator.schema import by_label, check_character
from generator.yamlfile import KeyPath, read_yaml

HOUSE = (
    "duel.attributes",
    "duel.height",
    "duel.expertise",
    "duel.fighting-style",
    "duel.skills",
    "duel.weapons",
    "duel.armour",
    "duel.loadout",
    "duel.armour-worn",
)


def _weapon(rules: Rules, label: str, hand: str) -> Weapon:
    table = rules.table("duel.weapons")
    index = table.axes[0].labels.index(label)
    cell = thaw(table.cell(index))
    return {
        "name": label,
        "hand": hand,
        "type": cell["type"],
        "damage": cell["damage"],
        "min_str": cell["min_str"],
        "adv_str": cell["adv_str"],
        "weapon_bonus": cell["weapon_bonus"],
        "parry_bonus": cell["parry_bonus"],
        "can_parry": cell["can_parry"],
    }


def roll_person(
    rules: Rules,
    rng: random.Random,
    names: Names,
    nationality: str,
    gender: str | None = None,
) -> Person:
    """Roll one duellist of `nationality` (plain data).

    Args:
        gender: ``male`` or ``female`` to draw the given name from that list; None for either.
    """
    attributes = {name: _roll_attribute(rules, rng) for name in ATTRIBUTES}
    groups = list(rules.table("duel.expertise").params["groups"])
    expertise = {
        group: int(roll_on(rules, "duel.expertise", rng).cell["expertise"]) for group in groups
    }
    style = roll_on(rules, "duel.fighting-style", rng)
    height = roll_on(rules, "duel.height", rng)
    skills = {
        skill: roll_on(rules, "duel.skills", rng).result
        for skill in rules.table("duel.skills").params["skills"]
    }
    loadout = roll_on(rules, "duel.loadout", rng)
    weapons = [_weapon(rules, str(loadout.cell["right"]), "right")]
    left = loadout.cell.get("left", "—")
    if left != "—":
        weapons.append(_weapon(rules, str(left), "left"))
    armour = roll_on(rules, "duel.armour-worn", rng)
    return {
        "name": names.person(nationality, gender),
        "nationality": nationality,
        "attributes": attributes,
        "hit_points": hit_points(rules, attributes["strength"], attributes["endurance"]),
        "height_cm": int(height.cell["cm"]),
        "style": str(style.cell["style"]),
        "expertise": expertise,
        "skills": skills,
        "weapons": weapons,
        "armour": armour.result,
        "loadout": loadout.result,
    }


def _roll_attribute(rules: Rules, rng: random.Random) -> int:
    from generator.dice import roll_total

    return roll_total(str(rules.table("duel.attributes").params["attribute_dice"]), rng)


def roll_character(rules: Rules, seed: int) -> Character:
    """Roll one duellist from `seed` (``quartermaster character``)."""
    rng = random.Random(seed)
    names = Names(rules, rng)
    assert rules.names is not None
    nationality = pick(rng, sorted(rules.names.people))
    return {"ruleset": "duel", "seed": seed, **roll_person(rules, rng, names, nationality)}


def read_character(path: Path, rules: Rules) -> Character:
    """Read an edited duellist file and check it."""
    from generator.generate.scenario import expect_kind

    doc = read_yaml(path)
    expect_kind(path, doc.data, rules, "character", "duel", "--from")
    checker = Checker(doc)
    check_character(checker, rules, doc.data)
    checker.raise_if_any()
    person: Character = doc.data  # what the character schema passed
    if not isinstance(person, dict):
        raise InputError(f"{path}: not a character")
    return person


@register
class DuelGenerator(RulesetGenerator):
    ruleset = "duel"
    units = "characters"
    dated = False
    unit_word = "duellist"
    people = True
    strength_measure = (
        "best weapon expertise + that weapon's bonus + hit points / 2 + Dexterity / 3 "
        "(a duellist's chance to hit, staying power and speed)"
    )
    house_tables = (*HOUSE, "duel.venue", "duel.weather", "duel.scenario")

    def side_name(self, names: Names, navy: str) -> str:
        return names.navy_title(navy).split(" (")[0]

    def roll_character(self, rules: Rules, seed: int) -> Character:
        return roll_character(rules, seed)

    def read_character(self, path: Path, rules: Rules) -> Character:
        return read_character(path, rules)

    def roll_side(
        self, rules: Rules, rng: random.Random, names: Names, navy: str, ships: int | None = None
    ) -> Side:
        person = roll_person(rules, rng, names, names.nationality_for(navy))
        return {"name": person["name"], "navy": navy, "characters": [person]}

    def strength(self, side: Side) -> float:
        person = side["characters"][0]
        groups = {
            "dueling": "Dueling",
            "polearm": "Polearms",
            "missile": "Missile",
            "other": "Other weapons",
        }
        best = 0.0
        for weapon in person["weapons"]:
            group = groups.get(weapon["type"], "Brawling")
            best = max(best, person["expertise"].get(group, 0) + weapon["weapon_bonus"])
        return float(best + person["hit_points"] / 2 + person["attributes"]["dexterity"] / 3)

    def roll_setting(
        self, rules: Rules, rng: random.Random, sides: list[Side], names: Names
    ) -> Setting:
        venue = roll_on(rules, "duel.venue", rng)
        weather = roll_on(rules, "duel.weather", rng)
        scenario = rules.table("duel.scenario")
        first, second = (side["characters"][0]["name"] for side in sides)
        special = [str(venue.cell.get("rules", ""))] if venue.cell.get("rules") else []
        if weather.cell.get("rules"):
            special.append(str(weather.cell["rules"]))
        special += [item.text for item in scenario.items if item.label == "Special rule"]
        return {
            "title": f"{first} against {second}",
            "wind": {"result": str(weather.cell.get("wind", "—"))},
            "weather": {"roll": weather.roll, "result": weather.result},
            "venue": {
                "roll": venue.roll,
                "result": venue.result,
                "at_sea": bool(venue.cell.get("at_sea", False)),
            },
            "map": None,
            "setup": [item.text for item in scenario.items if item.label == "Set-up"],
            "victory": [item.text for item in scenario.items if item.label == "Victory"],
            "special_rules": special,
        }

    def derived(
        self, rules: Rules, side: Mapping[str, Any], unit: Mapping[str, Any]
    ) -> dict[KeyPath, Any]:
        """Return what the rules derive for a duel duellist (`RulesetGenerator.derived`)."""
        return derived_values(rules, side, unit)


#: what a duellist's weapon copies from its row of duel.weapons (the schema's check of it)
DUEL_WEAPON_NUMBERS = (
    "type", "damage", "min_str", "adv_str", "weapon_bonus", "parry_bonus", "can_parry",
)  # fmt: skip


def derived_values(
    rules: Rules, side: Mapping[str, Any], person: Mapping[str, Any]
) -> dict[KeyPath, Any]:
    found: dict[KeyPath, Any] = {}
    attributes = person.get("attributes")
    if isinstance(attributes, dict):
        strength, endurance = attributes.get("strength"), attributes.get("endurance")
        if all(isinstance(v, int) and not isinstance(v, bool) for v in (strength, endurance)):
            found[("hit_points",)] = duel_rules.hit_points(
                rules, cast(int, strength), cast(int, endurance)
            )
    rows = by_label("duel.weapons")(rules)
    for index, weapon in enumerate(person.get("weapons") or []):
        row = rows.get(str(weapon.get("name"))) if isinstance(weapon, dict) else None
        if row is None:
            continue
        for key in DUEL_WEAPON_NUMBERS:
            if row.get(key) is not None:
                found[("weapons", index, key)] = row[key]
    return found
