"""The Form Line of Battle files: a squadron of rated ships with an admiral, and a
scenario's year, wind, weather and table layout in cm (generator.generate.flob).

A ship's numbers run from the least to the most any rate's row of flob.ship-ratings holds
(guns: over its guns_range column). The wind's strength and the weather's gunnery, gale and
effect are what flob.weather gives for the weather rolled.
"""

from __future__ import annotations

import re
from typing import Any

from generator.loading import Rules
from generator.ruleset.flob import RATING_FIELDS, scenario_years
from generator.schema.assembly import RulesetSchema
from generator.schema.context import Ctx
from generator.schema.damage import DAMAGE, damage_check
from generator.schema.naval import NAVY, one_flagship, weather, wind
from generator.schema.nodes import NAME, TITLE, Check, Choice, Flag, Items, Record, Text, Whole, req
from generator.schema.overrides import Between, Expected, derived, override
from generator.schema.tables import by_label, by_result, follows, labels, results, spread, values
from generator.yamlfile import KeyPath

RULESET = "flob"
FEATURE_TYPES = ("island", "shoal", "coast")
# the numbers a ship copies from her rate's row of flob.ship-ratings
NUMBERS = (
    ("movement_class", "her movement class"),
    ("broadside", "her Broadside"),
    ("hull", "her Hull"),
    ("masts", "her masts"),
    ("mast_rating", "the Mast rating of each mast"),
    ("crew_parties", "her crew parties"),
)
_RANGE = re.compile(r"\d+")


def guns_span(rules: Rules) -> tuple[int, int]:
    """The fewest and most guns any rate carries (its guns_range, else its guns)."""
    numbers = []
    for cell in rules.table("flob.ship-ratings").cells:
        numbers += [int(n) for n in _RANGE.findall(str(cell.get("guns_range", "")))]
        numbers.append(int(cell["guns"]))
    return min(numbers), max(numbers)


def _number(key: str) -> Whole:
    return Whole(span=spread("flob.ship-ratings", key), why="the least and most a rate has")


def _from_rate(ctx: Ctx, ship: dict[str, Any]) -> Expected:
    """What her rate's row of flob.ship-ratings gives her: each number as it is, her guns
    within the rate's guns_range (its guns where it has none)."""
    row = ctx.of(by_label("flob.ship-ratings")).get(ship["rate"])
    if row is None:
        return []
    source = f"a {ship['rate']} rate's row of flob.ship-ratings"
    found: Expected = []
    for key in RATING_FIELDS:
        want: Any = row[key]
        if key == "guns":
            span = [int(n) for n in _RANGE.findall(str(row.get("guns_range", "")))]
            want = Between(min(span), max(span)) if len(span) == 2 else int(row["guns"])
        found.append(((key,), want, source))
    return found


SHIP = Record(
    {
        "name": req(NAME, "the ship's name"),
        "rate": req(Choice(labels("flob.ship-ratings"), "rate"), "her rate (flob.ship-ratings)"),
        "guns": req(
            Whole(span=guns_span, why="the fewest and most guns a rate carries"), "her guns"
        ),
        "rig": req(Choice(labels("flob.sailing-movement", "rig"), "rig"), "her rig"),
        "movement_class": req(_number("movement_class"), "her movement class"),
        "gunnery_class": req(
            Choice(labels("flob.range-modifiers", "gunnery_class"), "gunnery class"),
            "her gunnery class (flob.range-modifiers)",
        ),
        **{key: req(_number(key), help) for key, help in NUMBERS[1:]},
        "crew_quality": req(
            Choice(results("flob.crew-quality"), "crew quality"), "her crew (flob.crew-quality)"
        ),
        "captain": req(NAME, "her captain's name"),
        "captain_quality": req(
            Choice(results("flob.captain-quality"), "captain quality"),
            "her captain (flob.captain-quality)",
        ),
        "flagship": req(Flag(), "whether she is the squadron's flagship (the admiral's)"),
        "override": override(list(RATING_FIELDS)),
        **DAMAGE,
    },
    checks=(
        derived(
            "guns, rig, movement_class, gunnery_class, broadside, hull, masts, mast_rating "
            "and crew_parties are what her rate's row of flob.ship-ratings gives (guns within "
            "its guns_range)",
            _from_rate,
            needs=("rate",),
        ),
    ),
    what="a ship",
)

SIDE = Record(
    {
        "name": req(TITLE, "the squadron's name"),
        "navy": req(NAVY, "the squadron's navy"),
        "admiral": req(
            Record(
                {
                    "name": req(NAME, "the admiral's name"),
                    "quality": req(
                        Choice(results("flob.admiral-quality"), "admiral quality"),
                        "the admiral (flob.admiral-quality)",
                    ),
                },
                what="an admiral (name, quality)",
            ),
            "the admiral, aboard the flagship",
        ),
        "ships": req(Items(SHIP, 1, None, ("ship", "ships")), "the ships, in order of battle"),
    },
    checks=(one_flagship("squadron"), damage_check(RULESET)),
    what="a flob squadron",
)


def _box(what: str, extra: dict[str, Any]) -> Record:
    return Record(
        {
            **extra,
            "x_cm": req(Whole(0, None), "its west edge, in cm from the table's west edge"),
            "y_cm": req(Whole(0, None), "its north edge, in cm from the table's north edge"),
            "w_cm": req(Whole(1, None), "its width (west to east) in cm"),
            "h_cm": req(Whole(1, None), "its height (north to south) in cm"),
        },
        what=what,
    )


FEATURE = _box(
    "a feature (type, label, x_cm, y_cm, w_cm, h_cm)",
    {
        "type": req(Choice(FEATURE_TYPES, "feature type"), "what it is"),
        "label": req(NAME, "its name on the map"),
    },
)
ZONE = _box(
    "a deployment zone (side, x_cm, y_cm, w_cm, h_cm)",
    {"side": req(Whole(0, None), "the side it is for (0 first)")},
)


def _overlaps(a: dict[str, int], b: dict[str, int]) -> bool:
    return (
        a["x_cm"] < b["x_cm"] + b["w_cm"]
        and b["x_cm"] < a["x_cm"] + a["w_cm"]
        and a["y_cm"] < b["y_cm"] + b["h_cm"]
        and b["y_cm"] < a["y_cm"] + a["h_cm"]
    )


_BOX_KEYS = ("x_cm", "y_cm", "w_cm", "h_cm")


def _whole_box(item: Any) -> bool:
    return isinstance(item, dict) and all(
        isinstance(item.get(k), int) and not isinstance(item.get(k), bool) for k in _BOX_KEYS
    )


def _boxes(data: dict[str, Any], key: str) -> list[tuple[int, dict[str, Any]]]:
    """The features or zones whose corner and size are whole numbers, with their index."""
    items = data.get(key)
    return [
        (i, item)
        for i, item in enumerate(items if isinstance(items, list) else ())
        if _whole_box(item)
    ]


def _on_table(ctx: Ctx, data: dict[str, Any], path: KeyPath) -> None:
    width, height = data["width_cm"], data["height_cm"]
    for key in ("features", "deployment"):
        for index, item in _boxes(data, key):
            if item["x_cm"] + item["w_cm"] > width or item["y_cm"] + item["h_cm"] > height:
                ctx.fail((*path, key, index), f"lies outside the {width} × {height} cm table")
    zones = [zone for _, zone in _boxes(data, "deployment")]
    for index, item in _boxes(data, "features"):
        for zone in zones:
            if _overlaps(item, zone):
                ctx.fail(
                    (*path, "features", index),
                    f"overlaps the deployment zone of side {zone.get('side')}",
                )


MAP = Record(
    {
        "kind": req(Choice(["table"], "map kind"), "a table layout in cm"),
        "width_cm": req(Whole(30, 1000), "the table's width (west to east) in cm"),
        "height_cm": req(Whole(30, 1000), "the table's depth (north to south) in cm"),
        "features": req(Items(FEATURE, noun=("feature", "features")), "islands, shoals, coast"),
        "deployment": req(Items(ZONE, noun=("zone", "zones")), "each side's deployment zone"),
        "wind_from": req(Whole(0, 359), "the bearing the wind blows from (wind.from_bearing)"),
    },
    checks=(
        Check(
            "every feature and zone lies on the table, and no feature overlaps a zone",
            _on_table,
            needs=("width_cm", "height_cm"),
        ),
    ),
    what="a table layout",
)


_WEATHER_ROWS = by_result("flob.weather")


def _strength(ctx: Ctx, data: dict[str, Any], path: KeyPath) -> None:
    """The wind's strength is the weather's."""
    strength, weather_result = data["wind"]["strength"], data["weather"]["result"]
    cell = ctx.of(_WEATHER_ROWS).get(weather_result)
    if cell is not None and strength != cell["wind_strength"]:
        ctx.fail(
            ("wind", "strength"),
            f"strength {strength} does not match weather {weather_result} "
            f"(flob.weather gives {cell['wind_strength']})",
        )


def _wind_from(ctx: Ctx, data: dict[str, Any], path: KeyPath) -> None:
    """The map's wind is the wind's."""
    wind_from, bearing = data["map"]["wind_from"], data["wind"]["from_bearing"]
    if wind_from != bearing:
        ctx.fail(
            ("map", "wind_from"),
            f"wind_from {wind_from} does not match the wind's from_bearing {bearing}",
        )


def _zones(ctx: Ctx, data: dict[str, Any], path: KeyPath) -> None:
    """A zone for a side there is, and at most one a side."""
    sides, zones = data.get("sides"), data["map"]["deployment"]
    count = len(sides) if isinstance(sides, list) else None
    seen: set[int] = set()
    for index, zone in enumerate(zones if isinstance(zones, list) else ()):
        side = zone.get("side") if isinstance(zone, dict) else None
        if not isinstance(side, int) or isinstance(side, bool) or side < 0:
            continue
        if count is not None and side >= count:
            ctx.fail(
                ("map", "deployment", index, "side"),
                f"side {side} is out of range 0..{count - 1} (the scenario has {count} sides)",
            )
        elif side in seen:
            ctx.fail(("map", "deployment", index, "side"), f"side {side} has two zones")
        seen.add(side)


SCHEMA = RulesetSchema(
    ruleset=RULESET,
    notes=__doc__ or "",
    side=SIDE,
    setting={
        "wind": req(
            wind(
                "flob.wind",
                {
                    "strength": req(
                        Choice(values("flob.weather", "wind_strength"), "wind strength"),
                        "the wind's strength (flob.weather's wind_strength for the weather)",
                    )
                },
            ),
            "the wind (flob.wind)",
        ),
        "weather": req(
            weather(
                "flob.weather",
                {
                    "gunnery": req(Text(60), "its effect on gunnery"),
                    "gale": req(Flag(), "whether it blows a gale"),
                },
                checks=(
                    follows("gunnery", "result", "flob.weather", "gunnery"),
                    follows("gale", "result", "flob.weather", "gale"),
                ),
            ),
            "the weather (flob.weather)",
        ),
        "map": req(MAP, "the table layout"),
    },
    checks=(
        Check(
            "wind.strength is what flob.weather gives for weather.result",
            _strength,
            needs=("wind.strength", "weather.result"),
        ),
        Check(
            "map.wind_from is wind.from_bearing",
            _wind_from,
            needs=("map.wind_from", "wind.from_bearing"),
        ),
        Check(
            "every deployment zone's side is one of sides, and no side has two zones",
            _zones,
            needs=("map.deployment",),
        ),
    ),
    sides=(1, None),
    years=scenario_years,
    year_required=True,
)
