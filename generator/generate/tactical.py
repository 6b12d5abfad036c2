"""Tactical fleets, exactly by the seed's fleet tables, and tactical scenarios.

Admiral, National and Fleet are rolled once per fleet; Ship, Captain and Crew per ship,
twice for the flagship (bonuses stack). Eight ships, or twelve with a Diplomat admiral,
six of them allies (never the flagship). Classes come from the house composition table;
ratings are the class's base values plus every bonus.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any

from generator.generate.base import RulesetGenerator, register
from generator.generate.common import (
    Names,
    TableRoll,
    pick,
    resolution,
    roll_on,
    weather_entry,
    wind_entry,
)
from generator.loading import Rules
from generator.ruleset import tactical as tactical_rules
from generator.ruleset.logcard import Log, dice, tracks
from generator.ruleset.model import Map, RolledBonus, Setting, Ship, Side
from generator.ruleset.tactical import class_ratings, effect_of, most_ratings
from generator.schema import by_result
from generator.text import counted, signed
from generator.yamlfile import KeyPath

SHIP_TABLES = ("ship", "captain", "crew")


@register
class TacticalGenerator(RulesetGenerator):
    ruleset = "tactical"
    strength_measure = (
        "sum of every ship's ratings (Sails, Hull, Crew, Cannon, Skill, Swiftness, Gunnery, "
        "Boarding, Courage), allies included"
    )
    house_tables = ("tactical.fleet-composition", "tactical.scenario", "tactical.weather")

    def ship_log(self, log: Log, rules: Rules, ship: Ship | None, side: Side | None) -> None:
        navies = {
            k: str(v["title"]).split(" (")[0]
            for k, v in (rules.names.navies.items() if rules.names else ())
        }
        _log(log, rules, ship, navies)

    def ship_log_notes(self, rules: Rules) -> list[str]:
        return _log_notes(rules)

    def side_name(self, names: Names, navy: str) -> str:
        return f"{names.navy_title(navy)} fleet"

    def roll_side(
        self, rules: Rules, rng: random.Random, names: Names, navy: str, ships: int | None = None
    ) -> Side:
        setup = rules.table("tactical.setup").params
        admiral = roll_on(rules, "tactical.admiral", rng)
        national = roll_on(rules, "tactical.national", rng)
        fleet = roll_on(rules, "tactical.fleet", rng)
        # a Diplomat's fleet is larger by the same share whatever the size asked for
        # (12 for the rules' 8, half of them allies): rounded down
        base = int(setup["ships"])
        asked = base if ships is None else ships
        count = asked * int(admiral.cell.get("ships", base)) // base
        allies = count * int(admiral.cell.get("allies", 0)) // int(admiral.cell.get("ships", base))
        classes = [roll_on(rules, "tactical.fleet-composition", rng).result for _ in range(count)]
        order = rules.table("tactical.ship-types").axes[0].labels
        flagship = min(range(count), key=lambda i: (order.index(classes[i]), i))
        # allies: the last `allies` ships other than the flagship
        ally_slots = [i for i in range(count) if i != flagship][-allies:] if allies else []
        ally_navy = None
        if allies:
            ally_navy = pick(rng, self._ally_navies(names, navy))
        fleet_effects = [effect_of(national.cell), effect_of(fleet.cell)]
        if admiral.cell.get("applies_to") == "every ship in the fleet":
            fleet_effects.append(effect_of(admiral.cell))
        nationality = names.nationality_for(navy)
        made: list[Ship] = []
        for i, ship_class in enumerate(classes):
            is_ally = i in ally_slots
            is_flag = i == flagship
            rolls = setup["flagship_rolls_per_ship_table"] if is_flag else 1
            traits: list[TableRoll] = [
                roll_on(rules, f"tactical.{t}", rng) for t in SHIP_TABLES for _ in range(rolls)
            ]
            ratings = self._ratings(
                rules, ship_class, [*fleet_effects, *(effect_of(t.cell) for t in traits)]
            )
            ship_navy = ally_navy if is_ally and ally_navy else navy
            made.append(
                {
                    "name": names.ship(ship_navy),
                    "class": ship_class,
                    "flagship": is_flag,
                    "ally": is_ally,
                    "navy": ship_navy,
                    "captain": names.person(names.nationality_for(ship_navy), "male"),
                    "traits": [
                        {"table": t.table.split(".", 1)[1], "roll": t.roll, "result": t.result}
                        for t in traits
                    ],
                    "ratings": ratings,
                }
            )
        side: Side = {
            "name": self.side_name(names, navy),
            "navy": navy,
            "admiral_name": names.person(nationality, "male"),
            "admiral": _with_bonus(admiral),
            "national": _with_bonus(national),
            "fleet": _with_bonus(fleet),
            "ships": made,
        }
        if ally_navy:
            side["ally_navy"] = ally_navy
        return side

    def _ally_navies(self, names: Names, navy: str) -> list[str]:
        """Return the navies a Diplomat's allies may sail under: `navy`'s allies in a war
        of the year, else navies neither side fought that year, else any other than the
        two sides' (data/names.yaml ``wars`` and its note)."""

        fielded = self.navies(names)
        sides = {navy, *names.in_play}
        fought = {n for side in sides for n in names.foes(side)}
        for pool in (
            [n for n in names.allies(navy) if n in fielded and n not in sides],
            [n for n in fielded if n not in sides and n not in fought],
            [n for n in fielded if n not in sides],
        ):
            if pool:
                return pool
        return [navy]

    def _ratings(
        self, rules: Rules, ship_class: str, effects: list[dict[str, int]]
    ) -> dict[str, int]:
        return class_ratings(rules, ship_class, effects)

    def strength(self, side: Side) -> float:
        return float(sum(sum(ship["ratings"].values()) for ship in side["ships"]))

    def size_departure(self, rules: Rules, sides: list[Side], asked: tuple[int, ...]) -> str | None:
        base = int(rules.table("tactical.setup").params["ships"])
        if not asked or all(n == base for n in asked):
            return None
        sizes = [asked[min(i, len(asked) - 1)] for i in range(len(sides))]
        ships = [f"{n} ship{'s' * (n != 1)}" for n in sizes]
        if len(set(sizes)) == 1:
            each = f"Each fleet has {ships[0]}"
        else:
            each = f"The {sides[0]['name']} has {ships[0]} and the {sides[1]['name']} {sizes[1]}"
        return (
            f"{each}, not the {base} of the rules' Basic Scenario"
            " (a Diplomat admiral still adds half as many again, as allies)."
        )

    def roll_setting(
        self, rules: Rules, rng: random.Random, sides: list[Side], names: Names
    ) -> Setting:
        scenario = rules.table("tactical.scenario")
        params = scenario.params
        wind = roll_on(rules, "tactical.wind", rng)
        weather = roll_on(rules, "tactical.weather", rng)
        grid = self._map(rng, params)
        place = names.place([side["navy"] for side in sides])
        first, second = sides[0]["name"], sides[1]["name"]
        special = [item.text for item in scenario.items if item.label == "Special rule"]
        for side in sides:
            rolled = side["admiral"]
            assert "bonus" in rolled  # a tactical admiral is rolled, with a bonus
            admiral = rolled["result"]
            if admiral in ("Diplomat", "Brilliant", "Tactician", "Charismatic"):
                special.append(
                    f"{side['name']}: Admiral {side['admiral_name']} is {admiral} "
                    f"({rolled['bonus']})."
                )
        return {
            "title": f"Action off {place}",
            "wind": wind_entry(wind),
            "weather": weather_entry(weather),
            "map": grid,
            "setup": [
                f"{first} starts in the {params['start_columns']} westernmost columns, "
                f"{second} in the {params['start_columns']} easternmost "
                "(fleets start at opposite ends of the map).",
                *(item.text for item in scenario.items if item.label == "Set-up"),
            ],
            "victory": [item.text for item in scenario.items if item.label == "Victory"],
            "special_rules": special,
        }

    def _map(self, rng: random.Random, params: Any) -> Map:
        width, height = int(params["map_width"]), int(params["map_height"])
        start = int(params["start_columns"])
        cells = [["." for _ in range(width)] for _ in range(height)]
        low, high = params["islands"]
        for _ in range(rng.randint(int(low), int(high))):
            size_low, size_high = params["island_size"]
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
            "legend": {".": "sea", "#": "land"},
            "start_columns": start,
        }

    def derived(
        self, rules: Rules, side: Mapping[str, Any], unit: Mapping[str, Any]
    ) -> dict[KeyPath, Any]:
        """Return what the rules derive for a tactical ship (`RulesetGenerator.derived`)."""
        return derived_values(rules, side, unit)


def _with_bonus(rolled: TableRoll) -> RolledBonus:
    """Return a roll on a table whose result gives a bonus, with the bonus in words."""
    return {**rolled.to_json(), "bonus": rolled.cell.get("bonus", "")}


# ---------------------------------------------------------------- the ship's log
# What a ship's log of this ruleset tracks: a card built with `Log` (generator.ruleset.logcard).

TRACKS = ("sails", "hull", "crew", "cannon")  # rating points crossed off
VALUES = ("skill", "swiftness", "gunnery", "boarding", "courage")  # printed signed
MOVE, BOARDING, FLIGHT = "tactical.movement", "tactical.boarding", "tactical.flight-test"
# "Ship has lost (from damage) 2 or more points in any 1 rating": the flight test's tick
_LOST_POINTS = re.compile(r"lost\b.*?\b(\d+) or more points in any")
_PER = re.compile(r"^Per Bonus Point of | ×\d+$")  # "Per Bonus Point of Courage ×2": Courage


def _log(log: Log, rules: Rules, ship: Ship | None, navies: dict[str, str]) -> None:
    ratings = ship.get("ratings", {}) if ship else {}
    if ship:
        if ship.get("flagship"):
            log.tag("Flagship")
        if ship.get("ally"):
            log.tag(f"Ally ({navies.get(str(ship.get('navy')), 'allied')})")
        captain = ship.get("captain")
        log.lines(str(ship.get("class", "")) + (f" · Captain {captain}" if captain else ""))
        traits: dict[str, list[str]] = {}
        for trait in ship.get("traits", []):
            traits.setdefault(str(trait.get("table", "")), []).append(str(trait.get("result")))
        if traits:
            log.lines(
                "; ".join(
                    f"{table.capitalize()}: {', '.join(counted(r))}" for table, r in traits.items()
                )
            )
    else:
        log.head("Class", 24)
        log.head("Captain", 38)
    for key in VALUES:
        log.fact(key.capitalize(), signed(ratings[key]) if ship else None)
    _figures(log, rules, ship)
    most = most_ratings(rules)
    zero = rules.table("tactical.zero-ratings")
    at_zero = {
        str(label).casefold(): str(cell.get("in_play") or cell["result"])
        for label, cell in zip(zero.axes[0].labels, zero.cells, strict=True)
    }
    lost = _lost_points(rules)
    rows = []
    for key in TRACKS:
        count = int(ratings[key]) if ship else most[key]
        rows.append(
            log.track(
                key.capitalize(),
                count,
                count if ship else None,
                blank=not ship,
                ticks=[lost] if lost else (),
                end=f"at 0: {at_zero[key]}" if key in at_zero else "",
            )
        )
    log.full(tracks(*rows))
    log.full(log.checks("Damaged this turn", "Fled", "Captured", "Sinking"))


def _lost_points(rules: Rules) -> int | None:
    """Return the points lost in one rating that cost a flight test its modifier."""
    for modifier in rules.table("tactical.flight-modifiers").modifiers:
        found = _LOST_POINTS.search(modifier.label)
        if found:
            return int(found.group(1))
    return None


def _figures(log: Log, rules: Rules, ship: Ship | None) -> None:
    """Her rolls and ranges, worked out by the resolvers from her ratings."""
    from generator.resolve.tactical.broadside import Broadside

    move = rules.table(MOVE).params
    adds = [str(r) for r in move["movement_adds"]]
    boarding = rules.table(BOARDING).params
    ammo = rules.table("tactical.ammunition").axes[0].labels
    shot = rules.table("tactical.broadside-rules").params
    flees = rules.table(FLIGHT).params
    if ship is None:
        # a blank log: a box to write each in, and how to work it out (the page prints it)
        log.figure(
            "Movement",
            None,
            f"{str(move['movement_dice']).upper()} "
            f"{signed(int(move['movement_base_modifier']))} + "
            + " + ".join(r.capitalize() for r in adds),
        )
        log.figure("Broadside", None, "1D10 + Cannon + Gunnery")
        log.figure(
            "Range", None, f"{shot['base_range']} + {str(shot['range_adds']).capitalize()}, by shot"
        )
        # "Boarding action", the rules' roll (tactical.boarding), not the Boarding rating the
        # log also prints
        log.figure(
            "Boarding action",
            None,
            f"{str(boarding['roll']).upper()} + "
            + " + ".join(str(r).capitalize() for r in boarding["adds"]),
        )
        log.figure(
            "Flight",
            None,
            f"{str(flees['roll']).upper()}; flees on {flees['flees_on_or_below']} or less",
        )
        return
    r = {key: int(value) for key, value in ship["ratings"].items()}
    moved = resolution(rules, MOVE, **{k: r[k] for k in adds}, calm=True)
    if moved is None or not moved.rolls:
        log.figure("Movement", "may not move")
    else:
        total = sum(a.value for a in moved.applied)
        parts = [
            f"{a.label.removesuffix(' rating')} {a.value}"
            if a.label.endswith(" rating")
            else signed(a.value)
            for a in moved.applied
        ]
        log.figure(
            "Movement", dice(moved.rolls[0].expression, total, upper=True), " + ".join(parts)
        )
    fired = resolution(
        rules,
        "tactical.broadside",
        ammo="chainshot",
        distance=1,
        cannon=max(r["cannon"], 0),
        gunnery=max(r["gunnery"], 0),
    )
    if fired is not None:
        own = [
            a for a in fired.applied if a.source.endswith((":attacker-cannon", ":attacker-gunnery"))
        ]
        log.figure(
            "Broadside",
            dice(fired.rolls[0].expression, sum(a.value for a in own), upper=True),
            f"Cannon {r['cannon']} + Gunnery {r['gunnery']}",
        )
    reach = [
        (label, Broadside._range(rules, {"ammo": label, "gunnery": r["gunnery"]})[0])
        for label in ammo
    ]
    log.figure(
        "Range",
        " · ".join(f"{label.lower()} {n}" for label, n in sorted(reach, key=lambda x: -x[1])),
        f"{shot['base_range']} + Gunnery {r['gunnery']}",
    )
    boarded = resolution(
        rules, BOARDING, boarder_crew=r["crew"], boarder_boarding=max(r["boarding"], 0)
    )
    if boarded is None:
        log.figure("Boarding action", "cannot board")
    else:
        own = [a for a in boarded.applied if a.label.startswith("Boarder:")]
        log.figure(
            "Boarding action",
            dice(boarded.rolls[0].expression, sum(a.value for a in own), upper=True),
            " + ".join(
                f"{a.label.split(': ', 1)[1].removesuffix(' rating')} {a.value}" for a in own
            ),
        )
    types = rules.table("tactical.ship-types")
    small = (
        bool(types.cell(types.axes[0].labels.index(ship["class"])).get("small"))
        if ship.get("class") in types.axes[0].labels
        else False
    )
    flight = resolution(
        rules, FLIGHT, flagship=bool(ship.get("flagship")), courage=max(r["courage"], 0),
        small=small, ally=bool(ship.get("ally")),
    )  # fmt: skip
    if flight is not None:
        total = sum(a.value for a in flight.applied)
        why = ", ".join(f"{_PER.sub('', a.label)} {signed(a.value)}" for a in flight.applied)
        log.figure(
            "Flight",
            dice(flight.rolls[0].expression, total, upper=True),
            f"flees on {flees['flees_on_or_below']} or less" + (f"; {why}" if why else ""),
        )


def _log_notes(rules: Rules) -> list[str]:
    zero = rules.table("tactical.zero-ratings")
    # each rating's reading in short (in_play), or the printed line of a house table without
    zeros = "; ".join(
        f"{label} {cell.get('in_play') or cell['result']}"
        for label, cell in zip(zero.axes[0].labels, zero.cells, strict=True)
    )
    lost = _lost_points(rules)
    flees = rules.table(FLIGHT).params
    tick = (
        f" The tick after the {lost}{'nd' if lost == 2 else 'th'} box: she has lost {lost} or "
        "more points in one rating, -1 on her flight test."
        if lost
        else ""
    )
    return [
        f"Cross off a box for every rating point lost. At zero: {zeros}.{tick} Roll "
        f"{str(flees['roll']).upper()} in the Morale Phase for every ship damaged this turn: "
        f"{flees['flees_on_or_below']} or less, she flees. Her rolls are worked out from her "
        "ratings at the start: a box crossed off takes a point off those it adds to."
    ]


def derived_values(
    rules: Rules, side: Mapping[str, Any], ship: Mapping[str, Any]
) -> dict[KeyPath, Any]:
    classes = rules.table("tactical.ship-types").axes[0].labels
    if ship.get("class") not in classes:
        return {}
    effects = []
    for table in ("national", "fleet", "admiral"):
        roll = side.get(table)
        result = str(roll.get("result")) if isinstance(roll, dict) else ""
        cell = by_result(f"tactical.{table}")(rules).get(result)
        if cell is None:
            return {}  # a side roll the rules do not know: its problem is reported
        if table != "admiral" or cell.get("applies_to") == "every ship in the fleet":
            effects.append(tactical_rules.effect_of(cell))
    for trait in ship.get("traits") or []:
        if not isinstance(trait, dict):
            return {}
        cell = by_result(f"tactical.{trait.get('table')}")(rules).get(str(trait.get("result")))
        if cell is None:
            return {}
        effects.append(tactical_rules.effect_of(cell))
    given = tactical_rules.class_ratings(rules, str(ship["class"]), effects)
    return {("ratings", name): value for name, value in given.items()}
