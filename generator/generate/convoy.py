"""Convoy scenarios: a convoy with its escort against raiding warships, on a hex map.

Side 0 is the convoy (merchants and escorting warships), side 1 the raiders (warships
only); `names.side` says which is being rolled (``quartermaster fleet convoy`` rolls the
convoy). Markers come from
the house table ``convoy.ship-markers``; sizes, conditions and numbers from the other
house tables. The map is flat-topped hexes (odd-q) with fog banks and shallows, the
merchants' exit edge, and a start hex for every ship.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from generator.errors import InputError
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
from generator.ruleset import convoy as convoy_rules
from generator.ruleset.convoy import LEGEND, MARKERS, markers
from generator.ruleset.logcard import Log, tracks
from generator.ruleset.model import Composition, Map, Setting, Ship, Side
from generator.text import listed
from generator.yamlfile import KeyPath

OPPOSITE = {"east": "west", "west": "east", "north": "south", "south": "north"}
# flat-topped hexes, odd columns half a hex lower: the six neighbours by column parity
_NEIGHBOURS = (
    ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1)),
    ((0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)),
)
CONDITION_WEIGHT = {"battle hardened": 1, "scurvy": -1}

Hex = tuple[int, int]


def _either(values: list[Any]) -> str:
    return listed([str(v) for v in values], "or")


def neighbours(col: int, row: int) -> list[Hex]:
    """Return the six hexes around (col, row) on an odd-q map, off-map ones included."""
    return [(col + dc, row + dr) for dc, dr in _NEIGHBOURS[col % 2]]


def start_areas(
    width: int, height: int, depth: int, exit_edge: str, flank: str
) -> tuple[list[Hex], list[Hex]]:
    """Return the convoy's and the raiders' starting hexes (sorted lists).

    The convoy starts within `depth` hexes of the edge opposite `exit_edge`; the raiders
    within `depth` hexes of the `flank` edge, in the half of it nearer the exit.
    """
    every = [(c, r) for r in range(height) for c in range(width)]

    def near(edge: str, hex_: Hex) -> bool:
        c, r = hex_
        return {
            "west": c < depth,
            "east": c >= width - depth,
            "north": r < depth,
            "south": r >= height - depth,
        }[edge]

    def exit_half(hex_: Hex) -> bool:
        c, r = hex_
        return {
            "east": c >= width - width // 2,
            "west": c < width // 2,
            "north": r < height // 2,
            "south": r >= height - height // 2,
        }[exit_edge]

    convoy = [h for h in every if near(OPPOSITE[exit_edge], h)]
    raiders = [h for h in every if near(flank, h) and exit_half(h) and h not in convoy]
    return sorted(convoy), sorted(raiders)


@register
class ConvoyGenerator(RulesetGenerator):
    ruleset = "convoy"
    mirrored = False
    strength_measure = (
        "sum over the ships of crew, gun and sail markers, +1 for a battle hardened and -1 "
        "for a scurvy crew; a merchant counts half"
    )
    house_tables = (
        "convoy.convoy-composition",
        "convoy.crew-condition",
        "convoy.merchant-size",
        "convoy.raider-composition",
        "convoy.scenario",
        "convoy.ship-markers",
        "convoy.warship-size",
        "convoy.weather",
        "convoy.wind",
    )

    def ship_log(self, log: Log, rules: Rules, ship: Ship | None, side: Side | None) -> None:
        _log(log, rules, ship)

    def ship_log_notes(self, rules: Rules) -> list[str]:
        return _log_notes(rules)

    def roll_side(
        self, rules: Rules, rng: random.Random, names: Names, navy: str, ships: int | None = None
    ) -> Side:
        # the convoy is always rolled first, while no name is taken yet (see module doc)
        role = "convoy" if names.side == 0 else "raiders"
        if role == "convoy":
            composition = roll_on(rules, "convoy.convoy-composition", rng)
            escorts, merchants = (
                int(composition.cell["escorts"]),
                int(composition.cell["merchants"]),
            )
        else:
            composition = roll_on(rules, "convoy.raider-composition", rng)
            escorts, merchants = int(composition.cell["warships"]), 0
        if ships is not None:
            # the size asked for, in the share of escorts the roll gave (a convoy of two or
            # more keeps at least one escort)
            rolled = escorts + merchants
            share = round(ships * escorts / rolled) if rolled else ships
            escorts = min(ships, max(share, 1 if ships > 1 and escorts else 0))
            merchants = ships - escorts
        fleet = [
            self._ship(rules, rng, names.ship(navy), kind)
            for kind, n in (("warship", escorts), ("merchant", merchants))
            for _ in range(n)
        ]
        title = names.navy_title(navy)
        made: Composition = composition.to_json()
        if ships is not None:
            # the roster's Composition line says what the side is, not what was rolled
            parts = [
                (merchants, "merchant"),
                (escorts, "escort" if role == "convoy" else "warship"),
            ]
            made = {
                "ships": ships,
                "result": ", ".join(f"{n} {word}{'s' * (n != 1)}" for n, word in parts if n),
            }
        return {
            "name": f"{title} convoy" if role == "convoy" else f"{title} raiders",
            "navy": navy,
            "role": role,
            "composition": made,
            "ships": fleet,
        }

    def _ship(self, rules: Rules, rng: random.Random, name: str, kind: str) -> Ship:
        size = roll_on(rules, f"convoy.{kind}-size", rng).result.lower()
        condition = roll_on(rules, "convoy.crew-condition", rng).result.lower()
        start = markers(rules, kind, size)  # MARKERS, key by key for the types
        return {
            "name": name,
            "kind": kind,
            "size": size,
            "crew": start["crew"],
            "guns": start["guns"],
            "sail": start["sail"],
            "condition": condition,
        }

    def strength(self, side: Side) -> float:
        total = 0.0
        for ship in side["ships"]:
            value = sum(int(_marker(ship, key)) for key in MARKERS)
            value += CONDITION_WEIGHT.get(ship["condition"], 0)
            total += value / 2 if ship["kind"] == "merchant" else value
        return total

    def roll_setting(
        self, rules: Rules, rng: random.Random, sides: list[Side], names: Names
    ) -> Setting:
        scenario = rules.table("convoy.scenario")
        params = scenario.params
        wind = roll_on(rules, "convoy.wind", rng)
        weather = roll_on(rules, "convoy.weather", rng)
        grid, flank = self._map(rng, params, sides, int(weather.cell.get("extra_fog", 0)))
        loop = int(pick(rng, list(params["clock_loop_spaces"])))
        clock = rules.table("convoy.battle-clock")
        place = names.place([side["navy"] for side in sides])
        convoy, raiders = sides[0], sides[1]
        merchant_count = sum(ship["kind"] == "merchant" for ship in convoy["ships"])
        escort_count = len(convoy["ships"]) - merchant_count
        exit_edge, depth = grid["exit_edge"], int(params["start_depth"])
        game_end = [item.text for item in clock.items if item.text.startswith("Game ends")]
        special = [item.text for item in scenario.items if item.label == "Special rule"]
        if weather.cell.get("extra_fog"):
            special.append(f"{weather.result}: {weather.cell['effect_text']}")
        return {
            "title": f"Convoy off {place}",
            "wind": wind_entry(wind),
            "weather": weather_entry(weather),
            "map": grid,
            "battle_clock": {"loop": loop, "moves": list(clock.params["clock_moves"])},
            "setup": [
                f"{convoy['name']} ({merchant_count} merchants, {escort_count} "
                f"{'escort' if escort_count == 1 else 'escorts'}) starts within {depth} hexes "
                f"of the {OPPOSITE[exit_edge]} edge; its merchants escape by the "
                f"{exit_edge} edge.",
                f"{raiders['name']} start within {depth} hexes of the {flank} edge, in its "
                f"{exit_edge}ern half.",
                *(item.text for item in scenario.items if item.label == "Set-up"),
                f"The battle clock is a loop of {loop} spaces; each turn it moves "
                f"{_either(list(clock.params['clock_moves']))} spaces "
                "(convoy.battle-clock).",
                f"The wind blows from the {wind.result.lower()}.",
            ],
            "victory": [
                *game_end,
                *(item.text for item in scenario.items if item.label == "Victory"),
                f"The raiders need {-(-merchant_count // 2)} of the {merchant_count} merchants.",
            ],
            "special_rules": special,
        }

    def _map(
        self, rng: random.Random, params: Any, sides: list[Side], extra_fog: int
    ) -> tuple[Map, str]:
        width, height = int(params["map_width"]), int(params["map_height"])
        depth = int(params["start_depth"])
        exit_edge = str(pick(rng, list(params["exit_edges"])))
        flanks = ["north", "south"] if exit_edge in ("east", "west") else ["west", "east"]
        flank = str(pick(rng, flanks))
        convoy_area, raider_area = start_areas(width, height, depth, exit_edge, flank)
        kept_clear = set(convoy_area) | set(raider_area)
        free = [(c, r) for r in range(height) for c in range(width) if (c, r) not in kept_clear]
        cells = [["." for _ in range(width)] for _ in range(height)]
        for char, count_key, size_key, extra in (
            (":", "shallows_patches", "shallows_size", 0),
            ("~", "fog_patches", "fog_size", extra_fog),
        ):
            low, high = params[count_key]
            size_low, size_high = params[size_key]
            for _ in range(rng.randint(int(low), int(high)) + extra):
                col, row = pick(rng, free)
                for _ in range(rng.randint(int(size_low), int(size_high))):
                    if cells[row][col] == ".":
                        cells[row][col] = char
                    step = pick(rng, neighbours(col, row))
                    if step in kept_clear or not (0 <= step[0] < width and 0 <= step[1] < height):
                        continue
                    col, row = step
        start: dict[str, list[list[int]]] = {}
        for index, area in enumerate((convoy_area, raider_area)):
            needed = len(sides[index]["ships"])
            if needed > len(area):
                raise InputError(
                    f"convoy.scenario: {needed} ships do not fit in {len(area)} start hexes; "
                    "make the map or start_depth larger"
                )
            start[str(index)] = [[c, r] for c, r in rng.sample(area, needed)]
        grid: Map = {
            "kind": "hex",
            "orientation": "flat",
            "layout": "odd-q",
            "width": width,
            "height": height,
            "rows": ["".join(row) for row in cells],
            "legend": dict(LEGEND),
            "exit_edge": exit_edge,
            "start": start,
        }
        return grid, flank

    def derived(
        self, rules: Rules, side: Mapping[str, Any], unit: Mapping[str, Any]
    ) -> dict[KeyPath, Any]:
        """Return what the rules derive for a convoy ship (`RulesetGenerator.derived`)."""
        return derived_values(rules, side, unit)


# ---------------------------------------------------------------- the ship's log
# What a ship's log of this ruleset tracks: a card built with `Log` (generator.ruleset.logcard).


def most_markers(rules: Rules) -> dict[str, int]:
    """Return the most crew, gun and sail markers a ship starts with."""

    cells = [cell for row in rules.table("convoy.ship-markers").cells for cell in row]
    return {key: max(int(cell[key]) for cell in cells) for key in MARKERS}


def _marker(ship: Mapping[str, Any], key: str) -> Any:
    """Return the markers of one of MARKERS a ship has."""
    return ship[key]


def _log(log: Log, rules: Rules, ship: Ship | None) -> None:
    if ship:
        log.tag(str(ship["kind"]).capitalize())
        log.lines(f"{str(ship['size']).capitalize()} {ship['kind']} · crew {ship['condition']}")
        counts = {key: int(_marker(ship, key)) for key in MARKERS}
    else:
        log.head("Kind", 16)
        log.head("Size", 14)
        log.head("Condition", 20)
        counts = most_markers(rules)
    _figures(log, rules, ship)
    zero = rules.table("convoy.zero-level")
    at_zero = {
        str(label).casefold(): str(cell["result"])
        for label, cell in zip(zero.axes[0].labels, zero.cells, strict=True)
    }
    rows = [
        log.track(
            key.capitalize(),
            n,
            n if ship else None,
            blank=ship is None,
            end=f"at 0: {at_zero[key]}" if key in at_zero else "",
        )
        for key, n in counts.items()
    ]
    labels = ["Struck", "Captured", "Aground", "In fog", "Paused", "Burnt"]
    if ship is None or ship.get("kind") == "merchant":
        labels.append("Escaped")
    log.full(tracks(*rows))
    log.full(log.checks(*labels))


def _figures(log: Log, rules: Rules, ship: Ship | None) -> None:
    """Her gunnery pool at her range, at short range and for an opportunity or return
    shot, and her chasers', as the gunnery resolver builds them from her guns and crew."""
    from generator.lookup import lookup

    gunnery = rules.table("convoy.gunnery").params
    per_gun = rules.table("convoy.gunnery-modifiers").modifier("per-gun-marker").value
    how = (
        f"each {gunnery['hit_on']} hits and a broadside re-rolls its misses; {per_gun}D6 less "
        f"for every Guns box crossed off, never under {gunnery['min_dice']}D6"
    )
    if ship is None:
        log.figure(
            "Gunnery",
            None,
            f"{per_gun}D6 a gun marker and the modifiers in dice; {how}",
            width=40.0,
        )
        return
    shooter = "merchant" if ship.get("kind") == "merchant" else str(ship.get("size", "medium"))
    reach = int(lookup(rules, "convoy.gunnery-range", {"ship": shooter}).fields()["hexes"])
    chasers = int(lookup(rules, "convoy.gunnery-range", {"ship": "chasers"}).fields()["hexes"])
    condition = str(ship.get("condition", "")).casefold()
    crew = {"battle_hardened": condition == "battle hardened", "scurvy": condition == "scurvy"}
    guns = max(int(ship["guns"]), 0)
    most = int(gunnery["opportunity_max_range_hexes"])

    def pool(**inputs: Any) -> str:
        shot = resolution(rules, "convoy.gunnery", shooter=shooter, guns=guns, **inputs)
        return "—" if shot is None else f"{dict(shot.outcome.details)['dice']}D6"

    log.figure(
        "Gunnery",
        f"{pool(range=reach, **crew)} to {reach} hexes · short range "
        f"{pool(range=most, short_range=True, **crew)} · opportunity or return "
        f"{pool(range=most, shot='opportunity', **crew)} · chasers "
        f"{pool(range=chasers, chaser=True)} to {chasers} hexes",
        how + (f"; crew {condition}" if condition in ("battle hardened", "scurvy") else ""),
    )


def _log_notes(rules: Rules) -> list[str]:
    zero = rules.table("convoy.zero-level")
    levels = "; ".join(
        f"{label} 0: {str(cell['result']).rstrip('.')}"
        for label, cell in zip(zero.axes[0].labels, zero.cells, strict=True)
    )
    return [
        f"Cross off a marker for every hit. Zero level: {levels}. With no markers left, "
        "1D6 a hit: 1 burns. Aground: no shooting, refloats at the end of her next turn. "
        "Paused: misses her next turn after a failed boarding."
    ]


def derived_values(
    rules: Rules, side: Mapping[str, Any], ship: Mapping[str, Any]
) -> dict[KeyPath, Any]:
    kind, size = ship.get("kind"), ship.get("size")
    if kind not in ("warship", "merchant") or size not in convoy_rules.sizes(rules):
        return {}
    return {(key,): value for key, value in convoy_rules.markers(rules, kind, size).items()}
