"""The impulse files: a squadron of ships from the house class table, and a scenario's
wind, weather and map of squares (generator.generate.impulse).

A ship's guns, carronades and hull, rigging and crew boxes run from the least to the most
any class of impulse.ship-classes has; her crew quality from the worst to the best of
impulse.crew-quality.
"""

from __future__ import annotations

from typing import Any

from generator.ruleset.impulse import CLASS_FIELDS
from generator.ruleset.navies import year_span
from generator.schema.assembly import RulesetSchema
from generator.schema.context import Ctx
from generator.schema.damage import DAMAGE, damage_check
from generator.schema.naval import NAVY, grid_map, start_columns, weather, wind
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
from generator.schema.overrides import Expected, derived, override
from generator.schema.tables import by_label, by_result, labels, rolled, spread
from generator.yamlfile import KeyPath

RULESET = "impulse"
CLASSES = "impulse.ship-classes"
NUMBERS = (
    ("guns", "her guns a broadside"),
    ("carronades", "her carronades a broadside"),
    ("hull", "her hull boxes"),
    ("rigging", "her rigging boxes"),
    ("crew", "her crew boxes"),
)


def _from_class(ctx: Ctx, ship: dict[str, Any]) -> Expected:
    """What her class's row of impulse.ship-classes gives her."""
    row = ctx.of(by_label(CLASSES)).get(ship["class"])
    if row is None:
        return []
    source = f"the {ship['class']} row of {CLASSES}"
    return [((key,), row[key], source) for key in CLASS_FIELDS]


def _squadron_size(ctx: Ctx, data: dict[str, Any], path: KeyPath) -> None:
    """The squadron's size (rolled, or asked for) is the number of ships listed."""
    squadron, ships = data["squadron"], data["ships"]
    if not isinstance(ships, list) or not isinstance(squadron, dict):
        return
    if squadron.get("table") == "impulse.squadron-size":
        cell = ctx.of(by_result("impulse.squadron-size")).get(str(squadron.get("result")))
        size = None if cell is None else cell.get("ships")
        where = (*path, "squadron", "result")
    else:
        size = squadron.get("ships")
        where = (*path, "squadron", "ships")
    if isinstance(size, int) and size != len(ships):
        ctx.fail(
            where,
            f"the squadron's size says {size} ship{'s' * (size != 1)}, but 'ships' lists "
            f"{len(ships)}: make them agree",
        )
    words = squadron.get("result")
    if "ships" in squadron and isinstance(words, str):
        number = next((int(w) for w in words.split() if w.isdigit()), None)
        if number is not None and number != len(ships):
            ctx.fail(
                (*path, "squadron", "result"),
                f"{words!r} does not match the {len(ships)} ships listed: make them agree",
            )


def _number(key: str) -> Whole:
    return Whole(span=spread(CLASSES, key), why="the least and most a class has")


SHIP = Record(
    {
        "name": req(NAME, "the ship's name"),
        "class": req(Choice(labels(CLASSES), "ship class"), f"her class ({CLASSES})"),
        "hull_type": req(
            Choice(labels("impulse.hull-type-bonus", "hull"), "hull type"),
            "Fast, Average or Slow (impulse.hull-type-bonus)",
        ),
        **{key: req(_number(key), help) for key, help in NUMBERS},
        "crew_quality": req(
            Whole(
                span=spread("impulse.crew-quality", "quality"),
                why="the worst and best of impulse.crew-quality",
            ),
            "her crew's quality, a die roll modifier",
        ),
        "morale": req(
            Choice(labels("impulse.crew-status"), "crew status"),
            "her crew status at the start (impulse.crew-status)",
        ),
        "captain": req(NAME, "her captain's name"),
        "override": override(list(CLASS_FIELDS)),
        **DAMAGE,
    },
    checks=(
        derived(
            "hull_type, guns, carronades, hull, rigging and crew are what her class's row of "
            f"{CLASSES} gives",
            _from_class,
            needs=("class",),
        ),
    ),
    what="a ship",
)

# the squadron's size as rolled, or (a size the GM asked for) the ships and in words
_CHOSEN = Record(
    {
        "ships": opt(Whole(1, None), "the ships asked for"),
        "result": req(TITLE, "the squadron's size in words"),
    },
    what="a squadron size (ships, result)",
)

SIDE = Record(
    {
        "name": req(TITLE, "the squadron's name"),
        "navy": req(NAVY, "the squadron's navy"),
        "squadron": req(
            Variant(
                "table",
                {
                    "impulse.squadron-size": rolled(
                        "impulse.squadron-size", "squadron size", tag=True
                    )
                },
                default=_CHOSEN,
                what="table id",
            ),
            "the squadron's roll on impulse.squadron-size (or the size asked for: ships, result)",
        ),
        "ships": req(Items(SHIP, 1, None, ("ship", "ships")), "the ships"),
    },
    checks=(
        Check(
            "the squadron's size (its roll's ships, or ships and result) is the number of "
            "ships listed",
            _squadron_size,
            needs=("squadron", "ships"),
        ),
        damage_check(RULESET),
    ),
    what="an impulse squadron",
)

_START, _START_CHECK = start_columns("square")

MAP = Variant(
    "kind",
    {
        "grid": grid_map(
            {".": "sea", "#": "land"}, "square", "grid", {"start_columns": _START}, (_START_CHECK,)
        ),
        "none": Record(
            {"kind": req(Choice(["none"], "map kind"), "no map: play on an open table")},
            what="no map (kind: none)",
        ),
    },
    what="map kind",
)

SCHEMA = RulesetSchema(
    ruleset=RULESET,
    notes=__doc__ or "",
    side=SIDE,
    setting={
        "wind": req(wind("impulse.wind"), "the wind, all game (impulse.wind)"),
        "weather": req(weather("impulse.weather"), "the weather (impulse.weather)"),
        "map": req(MAP, "the map: a grid of sea and land squares (or kind: none)"),
    },
    sides=(1, None),
    years=year_span,  # the generator's years (RulesetGenerator.years)
)
