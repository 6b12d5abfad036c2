"""The tactical files: a fleet of ships with their classes, traits and nine ratings, and a
scenario's wind, weather and map of squares (generator.generate.tactical).

Ratings run from the least to the most the rules can give a ship: the smallest (largest)
class's base value, plus the worst (best) bonus of every table rolled for a fleet and,
twice for a flagship, of every ship table (a negative bonus of a house table counts).
"""

from __future__ import annotations

from typing import Any

from generator.loading import Rules
from generator.ruleset.navies import year_span
from generator.ruleset.tactical import RATINGS, class_ratings, effect_of, most_ratings
from generator.schema.assembly import RulesetSchema
from generator.schema.context import Ctx
from generator.schema.damage import DAMAGE, damage_check
from generator.schema.naval import NAVY, grid_map, one_flagship, start_columns, weather, wind
from generator.schema.nodes import (
    NAME,
    TITLE,
    Check,
    Choice,
    Field,
    Flag,
    Items,
    Record,
    Text,
    Variant,
    Whole,
    opt,
    req,
)
from generator.schema.overrides import Expected, compare, override
from generator.schema.tables import by_label, by_result, die_range, follows, labels, results, rolled
from generator.yamlfile import KeyPath

RULESET = "tactical"


def _effect(cell: Any) -> dict[str, int]:
    return {str(k): int(v) for k, v in dict(cell.get("effect") or {}).items()}


def rating_spans(rules: Rules) -> dict[str, tuple[int, int]]:
    """Return the least and most each rating can be (see the module doc)."""
    most = most_ratings(rules)
    setup = rules.table("tactical.setup").params
    types = rules.table("tactical.ship-types")
    rolls = int(setup["flagship_rolls_per_ship_table"])

    def worst(table: str, name: str) -> int:
        cells = rules.table(f"tactical.{table}").cells
        if table == "admiral":
            cells = tuple(c for c in cells if c.get("applies_to") == "every ship in the fleet")
        return min([0, *(_effect(c).get(name, 0) for c in cells)])

    spans = {}
    for name in RATINGS:
        least = min(int(cell.get(name, types.params.get(name, 0))) for cell in types.cells)
        least += sum(worst(t, name) for t in setup["fleet_tables"])
        least += rolls * sum(worst(t, name) for t in setup["ship_tables"])
        spans[name] = (least, most[name])
    return spans


def _rating(name: str) -> Whole:
    def span(rules: Rules) -> tuple[int, int]:
        return rating_spans(rules)[name]

    return Whole(span=span, why="the least and most a tactical ship can have")


def _ratings(rules: Rules) -> dict[str, Field]:
    return {name: req(_rating(name), f"her {name.capitalize()} rating") for name in RATINGS}


def _traits(rules: Rules) -> dict[str, Record]:
    """A trait for each ship table: the table's short name, its die roll and a result."""
    return {
        str(table): Record(
            {
                "table": req(Choice([str(table)], "ship table"), "the ship table rolled on"),
                "roll": req(
                    Whole(span=die_range(f"tactical.{table}"), why=f"the die of tactical.{table}"),
                    "the die roll",
                ),
                "result": req(
                    Choice(results(f"tactical.{table}"), f"{table} trait"),
                    "the trait its table gives",
                ),
            },
            what="a trait (table, roll, result)",
        )
        for table in rules.table("tactical.setup").params["ship_tables"]
    }


SHIP = Record(
    {
        "name": req(NAME, "the ship's name"),
        "class": req(
            Choice(labels("tactical.ship-types"), "ship class"), "her class (tactical.ship-types)"
        ),
        "flagship": req(Flag(), "whether she is the fleet's flagship"),
        "ally": req(Flag(), "whether she is an ally (a Diplomat admiral's)"),
        "navy": opt(NAVY, "the navy she sails under: the side's, or its ally_navy for an ally"),
        "captain": opt(NAME, "her captain's name (left out: no captain named on her log)"),
        "traits": req(
            Items(Variant("table", _traits, what="ship table"), noun=("trait", "traits")),
            "her rolls on the ship tables (twice each for the flagship)",
        ),
        "ratings": req(Record(_ratings, what="the nine ratings"), "her ratings, bonuses included"),
        "override": override(list(RATINGS)),
        **DAMAGE,
    },
    what="a ship",
)


def _ratings_given(ctx: Ctx, data: dict[str, Any], path: KeyPath) -> None:
    """Each ship's ratings are her class's base values plus the bonuses of the side's
    National and Fleet results, an Admiral's that counts for every ship, and her traits:
    as the generator adds them up (a rating her override lists is the GM's)."""
    ships = data.get("ships")
    if not isinstance(ships, list):
        return
    effects = []
    for table in ("national", "fleet", "admiral"):
        cell = ctx.of(by_result(f"tactical.{table}")).get(data[table]["result"])
        if cell is None:
            return
        if table != "admiral" or cell.get("applies_to") == "every ship in the fleet":
            effects.append(effect_of(cell))
    words = "her class's row of tactical.ship-types with the bonuses of the side and her traits"
    classes = ctx.of(by_label("tactical.ship-types"))
    for index, ship in enumerate(ships):
        where = (*path, "ships", index)
        if not isinstance(ship, dict) or ship.get("class") not in classes:
            continue
        if not all(ctx.sound(ship, where, key) for key in ("class", "traits", "ratings")):
            continue
        own = []
        for trait in ship["traits"]:
            cell = ctx.of(by_result(f"tactical.{trait['table']}")).get(trait["result"])
            own.append(effect_of(cell) if cell is not None else {})
        given = class_ratings(ctx.rules, ship["class"], [*effects, *own])
        expected: Expected = [(("ratings", name), given[name], words) for name in RATINGS]
        compare(ctx, ship, where, expected, "ship")


def _fleet_roll(table: str, help: str) -> Field:
    table_id = f"tactical.{table}"
    record = rolled(
        table_id,
        f"{table} result",
        {"bonus": req(Text(200, empty=True), "the bonus the result gives")},
        tag=True,
    )
    return req(
        Record(
            record.fields,
            checks=(follows("bonus", "result", table_id, "bonus"),),
            what=record.what,
        ),
        help,
    )


def _navies(ctx: Ctx, data: dict[str, Any], path: KeyPath) -> None:
    """Allies sail under the side's ally_navy and are never the flagship; the rest under
    its navy."""
    ships = data.get("ships")
    if not isinstance(ships, list):
        return
    navy, ally_navy = data["navy"], data.get("ally_navy")
    allies = 0
    for index, ship in enumerate(ships):
        if not isinstance(ship, dict) or not isinstance(ship.get("navy"), str):
            continue
        where = (*path, "ships", index)
        if ship.get("ally") is True:
            allies += 1
            if ship.get("flagship") is True:
                ctx.fail((*where, "ally"), "the flagship is never an ally")
            if isinstance(ally_navy, str) and ship["navy"] != ally_navy:
                ctx.fail(
                    (*where, "navy"),
                    f"an ally sails under the side's ally_navy ({ally_navy}), not {ship['navy']}",
                )
        elif ship.get("ally") is False and ship["navy"] != navy:
            ctx.fail(
                (*where, "navy"),
                f"{ship['navy']} is not the side's navy ({navy}); only an ally (ally: true) "
                "sails under another",
            )
    if allies and ally_navy is None:
        ctx.fail(path, "missing 'ally_navy' (the navy the ally ships sail under)")
    if ally_navy is not None and not allies:
        ctx.fail((*path, "ally_navy"), "no ship is an ally (ally: true)")


SIDE = Record(
    {
        "name": req(TITLE, "the fleet's name"),
        "navy": req(NAVY, "the fleet's navy"),
        "admiral_name": opt(NAME, "the admiral's name"),
        "admiral": _fleet_roll("admiral", "the admiral's roll on tactical.admiral"),
        "national": _fleet_roll("national", "the nation's roll on tactical.national"),
        "fleet": _fleet_roll("fleet", "the fleet's roll on tactical.fleet"),
        "ships": req(Items(SHIP, 1, None, ("ship", "ships")), "the ships"),
        "ally_navy": opt(NAVY, "the navy of the ally ships (a Diplomat admiral's)"),
    },
    checks=(
        one_flagship("fleet"),
        Check(
            "every ship's ratings are her class's base values plus the bonuses of national, "
            "fleet, an admiral's for every ship and her traits, unless her override lists the "
            "rating",
            _ratings_given,
            needs=("ships", "national.result", "fleet.result", "admiral.result"),
        ),
        Check(
            "an ally (ally: true) sails under ally_navy and is never the flagship; every other "
            "ship under navy",
            _navies,
            needs=("navy",),
        ),
        damage_check(RULESET),
    ),
    what="a tactical fleet",
)

_START, _START_CHECK = start_columns("square")

SCHEMA = RulesetSchema(
    ruleset=RULESET,
    notes=__doc__ or "",
    side=SIDE,
    setting={
        "wind": req(wind("tactical.wind"), "the wind at the start (tactical.wind)"),
        "weather": req(weather("tactical.weather"), "the weather (tactical.weather)"),
        "map": req(
            grid_map(
                {".": "sea", "#": "land"},
                "square",
                "grid",
                {"start_columns": _START},
                (_START_CHECK,),
            ),
            "the map: a grid of sea and land squares",
        ),
    },
    sides=(1, None),
    years=year_span,  # the generator's years (RulesetGenerator.years)
)
