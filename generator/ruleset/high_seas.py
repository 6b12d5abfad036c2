"""What the high-seas rules derive, for the generator and the file format alike: the
tables a ship action is rolled on, a ship's batteries, the share of her crew that are
trained fighters and carry pistols, her officers' posts and skill levels, and what the
weather does in play.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from generator.loading import Rules

SHIP_TYPES = "high-seas.ship-types"
SHIP_ROLL = "high-seas.ship-roll"
SQUADRON_SIZE = "high-seas.squadron-size"
CREW_FIGHTERS = "high-seas.crew-fighters"
WEATHER = "high-seas.weather"
START_RANGE = "high-seas.start-range"
SCENARIO = "high-seas.scenario"
CREWS = "high-seas.crews"
RANGE = "high-seas.range"
DAMAGE = "high-seas.damage"
CANNON_MODS = "high-seas.cannon-modifiers"
DUEL_SKILLS = "duel.skills"

# the keys of a ship's batteries, in the order of high-seas.ship-types params batteries
BATTERIES = ("port", "starboard", "stern", "chasers")


def share(count: int, fraction: Fraction, rounding: str = "up") -> int:
    """Return `fraction` of `count` men, rounded ``up`` or ``down``."""
    exact = count * fraction
    return math.ceil(exact) if rounding == "up" else math.floor(exact)


def crew_fractions(rules: Rules) -> tuple[Fraction, Fraction, str]:
    """Return the share of a Navy crew that are trained fighters, the share of those with
    pistols (high-seas.crews) and how a share is rounded (high-seas.crew-fighters)."""
    params = rules.table(CREWS).params
    rounding = str(rules.table(CREW_FIGHTERS).params["rounding"])
    return (
        Fraction(str(params["trained_fraction"])),
        Fraction(str(params["pistol_fraction_of_trained"])),
        rounding,
    )


def officer_roles(rules: Rules) -> list[str]:
    """Return the posts a ship's officers hold, in order (Captain ...)."""
    return [str(r) for r in rules.table(SHIP_TYPES).params["officer_roles"]]


def skill_levels(rules: Rules) -> dict[str, int]:
    """Return each duel.skills result (Untrained ... Master Superior) with its level."""
    return {str(c["result"]): int(c["level"]) for c in rules.table(DUEL_SKILLS).cells}


def master_superior(rules: Rules) -> str:
    """Return the highest skill level's name, the one the chief gunner's +2 asks for."""
    levels = skill_levels(rules)
    return max(levels, key=lambda name: levels[name])


def weather_effect(rules: Rules, cell: Mapping[str, Any]) -> str:
    """Return what a high-seas.weather result does in play: its cannon modifier and its
    rules, in words."""
    parts = []
    if cell.get("modifier"):
        mod = rules.table(CANNON_MODS).modifier(str(cell["modifier"]))
        value = mod.value if isinstance(mod.value, str) else f"{mod.value:+d}"
        parts.append(f"{mod.label}: {value} to hit with cannon (high-seas.cannon-modifiers).")
    if cell.get("rules"):
        parts.append(str(cell["rules"]))
    return " ".join(parts)
