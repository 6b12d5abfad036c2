"""The impulse files: a squadron of ships from the house class table, and a scenario's
wind, weather and map of squares (generator.generate.impulse).

A ship's guns, carronades and hull, rigging and crew boxes run from the least to the most
any class of impulse.ship-classes has; her crew quality from the worst to the best of
impulse.crew-quality.
"""

from __future__ import annotations

from generator.schema import (
    NAME,
    NAVY,
    TITLE,
    Choice,
    Items,
    Record,
    RulesetSchema,
    Variant,
    Whole,
    grid_map,
    labels,
    opt,
    req,
    rolled,
    spread,
    start_columns,
    weather,
    wind,
    years_of,
)

RULESET = "impulse"
CLASSES = "impulse.ship-classes"
NUMBERS = (
    ("guns", "her guns a broadside"),
    ("carronades", "her carronades a broadside"),
    ("hull", "her hull boxes"),
    ("rigging", "her rigging boxes"),
    ("crew", "her crew boxes"),
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
    },
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
    years=years_of(RULESET),
)
