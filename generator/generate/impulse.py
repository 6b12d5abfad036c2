"""Impulse squadrons and scenarios: ships from the house class table, on a square grid.

The seed gives hull types (Fast, Average, Slow), crew quality as a die roll modifier, the
Handy and Unfit morale states and carronades, but no ship statistics; those come from the
house tables ``impulse.ship-classes``, ``squadron-size``, ``squadron-composition``,
``crew-quality``, ``morale`` and ``crew-status``. The seed plays on squares ("only if both
ships are in same square"), so the map is a grid like tactical's.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any, Final

from generator.generate.base import RulesetGenerator, register
from generator.generate.common import (
    Names,
    pick,
    resolution,
    roll_on,
    weather_entry,
    wind_entry,
)
from generator.loading import Rules
from generator.ruleset import impulse as impulse_rules
from generator.ruleset.logcard import Log, dice, tracks
from generator.ruleset.model import Map, Setting, Ship, Side
from generator.schema import by_label
from generator.text import signed
from generator.yamlfile import KeyPath

MORALE_WEIGHT = {"Handy": 2, "Unfit": -2, "Broken": -4}
QUALITY_WEIGHT = 2
LEGEND = {".": "sea", "#": "land"}


def class_row(rules: Rules, ship_class: str) -> dict[str, Any]:
    """Return the ``impulse.ship-classes`` row of `ship_class` as a plain dict."""
    table = rules.table("impulse.ship-classes")
    return dict(table.cell(table.axes[0].labels.index(ship_class)))


@register
class ImpulseGenerator(RulesetGenerator):
    ruleset = "impulse"
    strength_measure = (
        "sum over the ships of guns + carronades + hull, rigging and crew boxes, plus 2 per "
        "point of crew quality, +2 for a Handy and -2 for an Unfit crew"
    )
    house_tables = (
        "impulse.crew-quality",
        "impulse.crew-status",
        "impulse.morale",
        "impulse.scenario",
        "impulse.ship-classes",
        "impulse.squadron-composition",
        "impulse.squadron-size",
        "impulse.weather",
        "impulse.wind",
    )

    def ship_log(self, log: Log, rules: Rules, ship: Ship | None, side: Side | None) -> None:
        _log(log, rules, ship, list(rules.table("impulse.crew-status").axes[0].labels))

    def ship_log_notes(self, rules: Rules) -> list[str]:
        return _log_notes(rules)

    def roll_side(
        self, rules: Rules, rng: random.Random, names: Names, navy: str, ships: int | None = None
    ) -> Side:
        size = roll_on(rules, "impulse.squadron-size", rng)
        asked, count = ships, int(size.cell["ships"]) if ships is None else ships
        nationality = names.nationality_for(navy)
        fleet: list[Ship] = []
        for _ in range(count):
            ship_class = roll_on(rules, "impulse.squadron-composition", rng).result
            quality = roll_on(rules, "impulse.crew-quality", rng)
            modifier = int(quality.cell["quality"])
            morale = roll_on(rules, "impulse.morale", rng, modifier)
            row = class_row(rules, ship_class)
            fleet.append(
                {
                    "name": names.ship(navy),
                    "class": ship_class,
                    # her class's row (generator.ruleset.impulse.CLASS_FIELDS)
                    "hull_type": row["hull_type"],
                    "guns": row["guns"],
                    "carronades": row["carronades"],
                    "hull": row["hull"],
                    "rigging": row["rigging"],
                    "crew": row["crew"],
                    "crew_quality": modifier,
                    "morale": morale.result,
                    "captain": names.person(nationality, "male"),
                }
            )
        return {
            "name": self.side_name(names, navy),
            "navy": navy,
            "squadron": size.to_json()
            if asked is None
            else {"ships": asked, "result": f"{asked} ship{'s' * (asked != 1)}"},
            "ships": fleet,
        }

    def strength(self, side: Side) -> float:
        total = 0
        for ship in side["ships"]:
            total += sum(
                int(ship[key]) for key in ("guns", "carronades", "hull", "rigging", "crew")
            )
            total += QUALITY_WEIGHT * int(ship["crew_quality"])
            total += MORALE_WEIGHT.get(ship["morale"], 0)
        return float(total)

    def roll_setting(
        self, rules: Rules, rng: random.Random, sides: list[Side], names: Names
    ) -> Setting:
        scenario = rules.table("impulse.scenario")
        params = scenario.params
        wind = roll_on(rules, "impulse.wind", rng)
        weather = roll_on(rules, "impulse.weather", rng)
        grid = self._map(rng, params)
        place = names.place([side["navy"] for side in sides])
        first, second = sides[0]["name"], sides[1]["name"]
        special = [item.text for item in scenario.items if item.label == "Special rule"]
        if any(ship["carronades"] for side in sides for ship in side["ships"]):
            special.append(
                "Carronade values are doubled at a range of three or fewer movement points "
                "(impulse.combat-process)."
            )
        statuses = {
            str(cell["result"]): str(cell["effect_text"])
            for cell in rules.table("impulse.crew-status").cells
        }
        for side in sides:
            for ship in side["ships"]:
                if ship["morale"] in ("Handy", "Unfit"):
                    special.append(
                        f"{ship['name']} ({side['name']}) starts {ship['morale']}: "
                        f"{statuses[ship['morale']]}"
                    )
        return {
            "title": f"Action off {place}",
            "wind": wind_entry(wind),
            "weather": weather_entry(weather),
            "map": grid,
            "setup": [
                f"{first} starts in the {params['start_columns']} westernmost columns, "
                f"{second} in the {params['start_columns']} easternmost.",
                *(item.text for item in scenario.items if item.label == "Set-up"),
                f"The wind blows from the {wind.result.lower()} all game: firing to leeward is "
                "-1, to windward +1 on the Damage Effects roll (impulse.damage-modifiers).",
            ],
            "victory": [item.text for item in scenario.items if item.label == "Victory"],
            "special_rules": special,
        }

    def _map(self, rng: random.Random, params: Any) -> Map:
        width, height = int(params["map_width"]), int(params["map_height"])
        start = int(params["start_columns"])
        cells = [["." for _ in range(width)] for _ in range(height)]
        low, high = params["islands"]
        size_low, size_high = params["island_size"]
        for _ in range(rng.randint(int(low), int(high))):
            x, y = rng.randrange(start + 2, width - start - 2), rng.randrange(height)
            for _ in range(rng.randint(int(size_low), int(size_high))):
                cells[y][x] = "#"
                dx, dy = pick(rng, [(1, 0), (-1, 0), (0, 1), (0, -1)])
                x = min(max(x + dx, start + 1), width - start - 2)
                y = min(max(y + dy, 0), height - 1)
        return {
            "kind": "grid",
            "width": width,
            "height": height,
            "rows": ["".join(row) for row in cells],
            "legend": dict(LEGEND),
            "start_columns": start,
        }

    def derived(
        self, rules: Rules, side: Mapping[str, Any], unit: Mapping[str, Any]
    ) -> dict[KeyPath, Any]:
        """Return what the rules derive for an impulse ship (`RulesetGenerator.derived`)."""
        return derived_values(rules, side, unit)


# ---------------------------------------------------------------- the ship's log
# What a ship's log of this ruleset tracks: a card built with `Log` (generator.ruleset.logcard).


TRACKS: Final = ("hull", "rigging", "crew")  # boxes marked by the H, R and C results
# "A ship with every hull box marked sinks; with every crew box marked, or ..., she strikes"
_ALL_MARKED = re.compile(r"every (\w+) box marked(?:, or [^,]*,)? (.+)")


def most_boxes(rules: Rules) -> dict[str, int]:
    """Return the most hull, rigging and crew boxes a class has."""

    cells = rules.table("impulse.ship-classes").cells
    return {key: max(int(cell[key]) for cell in cells) for key in TRACKS}


def all_marked(rules: Rules) -> dict[str, str]:
    """Return what a ship suffers when every box of a row is marked, as the scenario's
    special rule says it (hull: sinks ...)."""
    found: dict[str, str] = {}
    for item in rules.table("impulse.scenario").items:
        for clause in item.text.split(";"):
            match = _ALL_MARKED.search(clause)
            if match:
                found[match.group(1)] = match.group(2).strip().rstrip(".")
    return found


def _log(log: Log, rules: Rules, ship: Ship | None, statuses: list[str]) -> None:
    if ship:
        log.lines(
            f"{ship['class']} · {ship['hull_type']} hull · {ship['guns']} guns and "
            f"{ship['carronades']} carronades a broadside",
            f"Captain {ship['captain']} · crew quality {signed(ship['crew_quality'])}",
        )
        counts = {key: int(ship[key]) for key in TRACKS}
    else:
        for label, width in (
            ("Class", 30), ("Hull type", 16), ("Guns", 10), ("Carronades", 10),
            ("Crew quality", 10), ("Captain", 56),
        ):  # fmt: skip
            log.head(label, width)
        counts = most_boxes(rules)
    _figures(log, rules, ship)
    ends = all_marked(rules)
    log.full(
        tracks(
            *(
                log.track(
                    key.capitalize(),
                    n,
                    n if ship else None,
                    blank=ship is None,
                    write_width=6.5,
                    end=f"all marked: {ends[key]}" if key in ends else "",
                )
                for key, n in counts.items()
            )
        )
    )
    log.pair(
        [tracks(log.track("Fire checks", 8))],
        [log.choice("Crew Status", statuses, ship.get("morale") if ship else None)],
    )
    checks = ("Port loaded", "Starboard loaded", "Grappled", "Dismasted", "Struck", "Sunk")
    log.full(log.checks(*checks, "Left the map"))


def _figures(log: Log, rules: Rules, ship: Ship | None) -> None:
    """Her broadside's dice (carronades doubled when close) and her hull type bonus on each
    face of its die, as the fire-combat and hull-type resolvers work them out."""

    close = int(rules.table("impulse.combat-process").params["carronade_max_range_mp"])
    if ship is None:
        log.figure(
            "Broadside", None,
            f"a die a gun, carronades doubled at {close} or fewer movement points", width=16.0,
        )  # fmt: skip
        log.figure("Hull type bonus", None, "1d6 + crew quality on her hull type's row", width=30.0)
        return
    guns, carronades = int(ship["guns"]), int(ship["carronades"])
    pools = []
    for mp in (close + 1, close):
        fired = resolution(
            rules, "impulse.fire-combat", guns=guns + carronades, carronades=carronades,
            range_mp=mp, to_hit=6,
        )  # fmt: skip
        pools.append(int(fired.rolls[0].expression.split("d")[0]) if fired else 0)
    far, near = pools
    value = f"{far} dice" + (f" · {near} at {close} MP or less" if near != far else "")
    log.figure(
        "Broadside",
        value,
        f"{guns} guns and {carronades} carronades, a die each"
        + (", carronades doubled when close" if near != far else ""),
    )
    faces = _hull_bonus(rules, str(ship["hull_type"]), int(ship["crew_quality"]))
    die = str(next(a for a in rules.table("impulse.hull-type-bonus").axes if a.name == "roll").dice)
    if faces:
        runs: list[tuple[int, int, int]] = []  # first face, last face, bonus
        for face, bonus in faces:
            if runs and runs[-1][2] == bonus:
                runs[-1] = (runs[-1][0], face, bonus)
            else:
                runs.append((face, face, bonus))
        log.figure(
            "Hull type bonus",
            " · ".join(f"{a}{'' if a == b else f'-{b}'}: {bonus:+d}" for a, b, bonus in runs),
            f"the die, {dice(die, int(ship['crew_quality']))} for crew quality, on the "
            f"{ship['hull_type']} row",
        )


def _hull_bonus(rules: Rules, hull: str, quality: int) -> list[tuple[int, int]]:
    """Return (face, bonus) for every face of the hull type bonus die, as its resolver
    reads each face (the odds engine's context replays one face at a time)."""
    from generator.resolve import ResolveInputError, get_resolver, parse_inputs
    from generator.resolve.engine import EnumeratingContext

    resolver = get_resolver("impulse.hull-type-bonus")
    try:
        inputs = parse_inputs(resolver, rules, {"hull": hull, "crew_quality": quality})
    except ResolveInputError:
        return []
    axis = next(a for a in rules.table("impulse.hull-type-bonus").axes if a.name == "roll")
    sides = int(str(axis.dice or "1d6").split("d")[1])
    found = []
    for index in range(sides):
        outcome = resolver.resolve(EnumeratingContext(rules, (index,)), inputs)
        found.append((index + 1, int(dict(outcome.details)["bonus"])))
    return found


def _log_notes(rules: Rules) -> list[str]:
    status = rules.table("impulse.crew-status")
    track = " ".join(
        f"{label}: {str(cell['effect_text']).rstrip('.')}."
        for label, cell in zip(status.axes[0].labels, status.cells, strict=True)
    )
    return [
        "Mark a hull, rigging or crew box for every H, R or C of the Damage Effects Table; "
        "what every box of a row marked brings is printed after it. Tally the fire checks to "
        "make. Crew Status moves one space left when any Morale roll fails; her starting "
        f"space is underlined. {track}"
    ]


def derived_values(
    rules: Rules, side: Mapping[str, Any], ship: Mapping[str, Any]
) -> dict[KeyPath, Any]:
    row = by_label("impulse.ship-classes")(rules).get(str(ship.get("class")))
    if row is None:
        return {}
    return {(key,): row[key] for key in impulse_rules.CLASS_FIELDS}
