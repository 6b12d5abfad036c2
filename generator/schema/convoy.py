"""The convoy files: the convoy (merchants and escorts) and the raiders, their markers and
crews, and a scenario's wind, weather, battle clock and hex map (generator.generate.convoy).

Side 0 is the convoy, side 1 the raiders; only the convoy has merchants. A ship's crew, gun
and sail markers run from the least to the most convoy.ship-markers gives any ship. A start
hex is a sea hex of the map, one a ship, in the order of the side's ships.
"""

from __future__ import annotations

from typing import Any

from generator.loading import Rules
from generator.ruleset.convoy import LEGEND, MARKERS, conditions, markers, sizes
from generator.ruleset.navies import year_span
from generator.schema.assembly import RulesetSchema
from generator.schema.context import Ctx
from generator.schema.damage import DAMAGE, damage_check
from generator.schema.naval import NAVY, grid_map, weather, wind
from generator.schema.nodes import (
    NAME,
    TITLE,
    Check,
    Choice,
    Items,
    Record,
    Variant,
    Whole,
    opt,
    req,
)
from generator.schema.overrides import derived, override
from generator.schema.tables import by_result, rolled, spread
from generator.yamlfile import KeyPath

RULESET = "convoy"
ROLES = ("convoy", "raiders")
KINDS = ("warship", "merchant")
COMPOSITIONS = {"convoy": "convoy.convoy-composition", "raiders": "convoy.raider-composition"}


def _params(key: str) -> Any:
    def compute(rules: Rules) -> list[Any]:
        return list(rules.table("convoy.scenario").params[key])

    return compute


def _clock(rules: Rules) -> list[int]:
    return [int(n) for n in rules.table("convoy.battle-clock").params["clock_moves"]]


def _loops(rules: Rules) -> list[int]:
    return [int(n) for n in rules.table("convoy.scenario").params["clock_loop_spaces"]]


SHIP = Record(
    {
        "name": req(NAME, "the ship's name"),
        "kind": req(Choice(KINDS, "kind of ship"), "a warship, or a merchant (the convoy's)"),
        "size": req(Choice(sizes, "ship size"), "her size (convoy.ship-markers)"),
        **{
            key: req(
                Whole(
                    span=spread("convoy.ship-markers", key),
                    why="the least and most convoy.ship-markers gives a ship",
                ),
                f"her {key} markers",
            )
            for key in MARKERS
        },
        "condition": req(Choice(conditions, "crew condition"), "her crew (convoy.crew-condition)"),
        "override": override(list(MARKERS)),
        **DAMAGE,
    },
    checks=(
        derived(
            "crew, guns and sail are the markers convoy.ship-markers gives her kind and size",
            lambda ctx, ship: [
                ((key,), value, f"convoy.ship-markers for a {ship['size']} {ship['kind']}")
                for key, value in markers(ctx.rules, ship["kind"], ship["size"]).items()
            ],
            needs=("kind", "size"),
        ),
    ),
    what="a ship",
)

# a composition as rolled, or (a size the GM asked for) the ships and what they are
_CHOSEN = Record(
    {
        "ships": opt(Whole(1, None), "the ships asked for"),
        "result": req(TITLE, "what the side is made of"),
    },
    what="a composition (ships, result)",
)


def _compositions(rules: Rules) -> dict[str, Record]:
    return {table: rolled(table, "composition", tag=True) for table in COMPOSITIONS.values()}


def _side(ctx: Ctx, data: dict[str, Any], path: KeyPath) -> None:
    """The composition is rolled on the role's table; merchants sail with the convoy only,
    and a convoy has one at least."""
    role = data["role"]
    composition = data.get("composition")
    if isinstance(composition, dict) and composition.get("table") not in (
        None,
        COMPOSITIONS[role],
    ):
        ctx.fail(
            (*path, "composition", "table"),
            f"the {role} roll on {COMPOSITIONS[role]}, not {composition['table']}",
        )
    ships = data.get("ships")
    if not isinstance(ships, list):
        return
    merchants = 0
    for index, ship in enumerate(ships):
        if isinstance(ship, dict) and ship.get("kind") == "merchant":
            merchants += 1
            if role == "raiders":
                ctx.fail((*path, "ships", index, "kind"), "merchants sail only on the convoy side")
    if role == "convoy" and ships and not merchants:
        ctx.fail((*path, "ships"), "a convoy needs at least one merchant")
    _composition_counts(ctx, composition, ships, (*path, "composition"))


def _composition_counts(ctx: Ctx, composition: Any, ships: list[Any], path: KeyPath) -> None:
    """The composition (its roll's counts, or the ships asked for) is the ships listed."""
    if not isinstance(composition, dict):
        return
    listed = {
        kind: sum(isinstance(s, dict) and s.get("kind") == kind for s in ships) for kind in KINDS
    }
    table = composition.get("table")
    if table in COMPOSITIONS.values():
        cell = ctx.of(by_result(str(table))).get(str(composition.get("result")))
        if cell is None:
            return
        said = {
            "warship": int(cell.get("escorts", cell.get("warships", 0))),
            "merchant": int(cell.get("merchants", 0)),
        }
        if said != listed:
            ctx.fail(
                (*path, "result"),
                f"{composition['result']!r} does not match the ships listed "
                f"({listed['merchant']} merchants, {listed['warship']} warships): make them "
                "agree",
            )
    elif isinstance(composition.get("ships"), int) and composition["ships"] != len(ships):
        ctx.fail(
            (*path, "ships"),
            f"the composition says {composition['ships']} ships, but 'ships' lists "
            f"{len(ships)}: make them agree",
        )


SIDE = Record(
    {
        "name": req(TITLE, "the side's name"),
        "navy": req(NAVY, "the side's navy"),
        "role": req(Choice(ROLES, "role"), "convoy (side 0) or raiders (side 1)"),
        "composition": req(
            Variant("table", _compositions, default=_CHOSEN, what="composition table"),
            "the side's roll on its composition table (or the size asked for: ships, result)",
        ),
        "ships": req(
            Items(SHIP, 1, None, ("ship", "ships")), "the ships: escorts first, then merchants"
        ),
    },
    checks=(
        Check(
            "composition.table is the role's table; only the convoy has merchants, and it has "
            "one at least; the composition (its roll's merchants and escorts or warships, or "
            "the ships asked for) is the ships listed",
            _side,
            needs=("role",),
        ),
        damage_check(RULESET),
    ),
    what="a convoy side",
)

HEX = Items(
    Whole(0, None),
    2,
    2,
    ("number: [column, row]", "numbers: [column, row]"),
    docs="[column, row], whole numbers from 0",
)


def _start_hexes(ctx: Ctx, data: dict[str, Any], path: KeyPath) -> None:
    width, height = data["width"], data["height"]
    found_rows, found_start = data.get("rows"), data.get("start")
    rows: list[Any] = found_rows if isinstance(found_rows, list) else []
    start: dict[str, Any] = found_start if isinstance(found_start, dict) else {}
    taken: set[tuple[int, int]] = set()
    for key, hexes in start.items():
        for index, pair in enumerate(hexes if isinstance(hexes, list) else ()):
            where = (*path, "start", key, index)
            if not (isinstance(pair, list) and len(pair) == 2):
                continue
            col, row = pair
            if not (isinstance(col, int) and isinstance(row, int)):
                continue
            if not (0 <= col < width and 0 <= row < height):
                ctx.fail(where, f"hex [{col}, {row}] is off the {width} × {height} map")
                continue
            line = rows[row] if row < len(rows) and isinstance(rows[row], str) else ""
            if col < len(line) and line[col] != ".":
                ctx.fail(where, f"hex [{col}, {row}] is {LEGEND.get(line[col], '?')}, not sea")
            if (col, row) in taken:
                ctx.fail(where, f"hex [{col}, {row}] holds two ships")
            taken.add((col, row))


_START = Record(
    {
        "0": req(Items(HEX, noun=("hex", "hexes")), "the convoy's start hexes, one a ship"),
        "1": req(Items(HEX, noun=("hex", "hexes")), "the raiders' start hexes, one a ship"),
    },
    what="the start hexes of each side ('0' the convoy, '1' the raiders)",
)


MAP = grid_map(
    LEGEND,
    ("hex", "hexes"),
    "hex",
    {
        "orientation": req(Choice(["flat"], "orientation"), "flat-topped hexes"),
        "layout": req(Choice(["odd-q"], "layout"), "odd columns half a hex lower"),
        "exit_edge": req(Choice(_params("exit_edges"), "edge"), "the edge the merchants escape by"),
        "start": req(
            _START, "each side's start hexes, [column, row] from the north-west, in ship order"
        ),
    },
    (
        Check(
            "every start hex is a sea hex on the map, and no two ships share one",
            _start_hexes,
            needs=("width", "height"),
        ),
    ),
)


def _across(ctx: Ctx, data: dict[str, Any], path: KeyPath) -> None:
    """The convoy then the raiders; a start hex for each of their ships."""
    sides = data.get("sides")
    if not isinstance(sides, list):
        return
    for index, role in enumerate(ROLES[: len(sides)]):
        side = sides[index]
        if isinstance(side, dict) and side.get("role") in ROLES and side["role"] != role:
            ctx.fail(("sides", index, "role"), f"side {index} must be the {role}")
    grid = data.get("map")
    start = grid.get("start") if isinstance(grid, dict) else None
    if not isinstance(start, dict):
        return
    for index in range(min(len(sides), len(ROLES))):
        side, hexes = sides[index], start.get(str(index))
        ships = side.get("ships") if isinstance(side, dict) else None
        if isinstance(ships, list) and isinstance(hexes, list) and len(hexes) != len(ships):
            ctx.fail(
                ("map", "start", str(index)),
                f"expected a start hex for each of {len(ships)} ships, found {len(hexes)}",
            )


SCHEMA = RulesetSchema(
    ruleset=RULESET,
    notes=__doc__ or "",
    side=SIDE,
    setting={
        "wind": req(wind("convoy.wind"), "the wind at the start (convoy.wind)"),
        "weather": req(weather("convoy.weather"), "the weather (convoy.weather)"),
        "map": req(MAP, "the hex map"),
        "battle_clock": req(
            Record(
                {
                    "loop": req(
                        Choice(_loops, "loop length"), "the spaces of the battle clock's loop"
                    ),
                    "moves": req(
                        Items(Choice(_clock, "clock move"), 1, None, ("move", "moves")),
                        "the spaces it may move each turn (convoy.battle-clock)",
                    ),
                },
                what="a battle clock (loop, moves)",
            ),
            "the battle clock",
        ),
    },
    checks=(
        Check(
            "side 0 is the convoy and side 1 the raiders; map.start has a hex for each of "
            "their ships",
            _across,
        ),
    ),
    sides=(2, 2),
    years=year_span,  # the generator's years (RulesetGenerator.years)
)
