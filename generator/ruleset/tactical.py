"""What the tactical rules derive, for the generator and the file format alike: a ship's
nine ratings, her class's base values plus every bonus rolled for her and her fleet.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator.loading import Rules

RATINGS = (
    "sails",
    "hull",
    "crew",
    "cannon",
    "skill",
    "swiftness",
    "gunnery",
    "boarding",
    "courage",
)


def effect_of(cell: Mapping[str, Any]) -> dict[str, int]:
    """Return the rating changes a tactical table's cell gives (its ``effect``)."""
    return dict(cell.get("effect") or {})


def class_ratings(rules: Rules, ship_class: str, effects: list[dict[str, int]]) -> dict[str, int]:
    """Return a ship's ratings: her class's base values plus every one of `effects` (the
    side's national, fleet and admiral bonuses, her traits'). The schema checks an edited
    ship against the same sum."""
    types = rules.table("tactical.ship-types")
    base = types.cell(types.axes[0].labels.index(ship_class))
    ratings = {name: int(base.get(name, types.params.get(name, 0))) for name in RATINGS}
    for effect in effects:
        for name, change in effect.items():
            ratings[name] += change
    return ratings


def most_ratings(rules: Rules) -> dict[str, int]:
    """Return the largest value each rating can reach: the largest class's, plus the best
    bonus of every table rolled for a fleet (the admiral's only where it applies to every
    ship) and of every ship table, rolled twice for a flagship (bonuses stack)."""
    setup = rules.table("tactical.setup").params
    types = rules.table("tactical.ship-types")
    most = {
        name: max(int(cell.get(name, types.params.get(name, 0))) for cell in types.cells)
        for name in RATINGS
    }

    def best(table: str, name: str) -> int:
        cells = rules.table(f"tactical.{table}").cells
        if table == "admiral":
            cells = tuple(c for c in cells if c.get("applies_to") == "every ship in the fleet")
        return max([0, *(int(effect_of(c).get(name, 0)) for c in cells)])

    for name in RATINGS:
        most[name] += sum(best(t, name) for t in setup["fleet_tables"])
        rolls = int(setup["flagship_rolls_per_ship_table"])
        most[name] += rolls * sum(best(t, name) for t in setup["ship_tables"])
    return most
