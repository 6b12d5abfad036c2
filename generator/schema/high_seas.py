"""The high-seas files: a squadron of ships from the house ship tables, each with her four
officers (full duellists), and a scenario's weather, wind and starting range band
(generator.generate.high_seas).

A ship's numbers run from the least to the most any type of high-seas.ship-types has; her
batteries hold her guns; a Navy warship's trained fighters are the share high-seas.crews
gives, any other ship's the share high-seas.crew-fighters gives for her roll.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from generator.loading import Rules
from generator.ruleset.high_seas import (
    BATTERIES,
    CREW_FIGHTERS,
    RANGE,
    SHIP_TYPES,
    WEATHER,
    crew_fractions,
    officer_roles,
    share,
    skill_levels,
    weather_effect,
)
from generator.ruleset.navies import year_span
from generator.schema.assembly import RulesetSchema, fixed
from generator.schema.context import Ctx
from generator.schema.damage import DAMAGE, damage_check
from generator.schema.duel import PERSON_CHECKS, PERSON_FIELDS
from generator.schema.naval import NAVY, wind_from_weather
from generator.schema.nodes import (
    NAME,
    TITLE,
    Check,
    Choice,
    Flag,
    Items,
    Maybe,
    Null,
    Record,
    Text,
    Whole,
    req,
)
from generator.schema.overrides import Expected, derived, override
from generator.schema.tables import by_label, die_range, follows, labels, rolled, spread, values
from generator.yamlfile import KeyPath

RULESET = "high-seas"
NUMBERS = (
    ("hull_hp", "her Hull Hit Points"),
    ("rigging_hp", "her Rigging Hit Points"),
    ("speed", "her speed"),
    ("handling", "her handling"),
    ("crew", "her crew"),
)
_TYPE_ROWS = by_label(SHIP_TYPES)


# what a ship copies from her type's row of high-seas.ship-types (batteries by battery)
COPIED = ("size", "guns", *BATTERIES, *(key for key, _ in NUMBERS), "swivels")
OVERRIDABLE = [*COPIED, "trained_fighters", "pistols"]


def _from_type(ctx: Ctx, ship: dict[str, Any]) -> Expected:
    """What her type's row gives her, and the fighters and pistols her crew and share give
    (rounded as high-seas.crew-fighters says)."""
    row = ctx.of(_TYPE_ROWS).get(ship["type"])
    if row is None:
        return []
    source = f"the {ship['type']} row of {SHIP_TYPES}"
    found: Expected = [
        (("batteries", key) if key in BATTERIES else (key,), int(row[key]), source)
        for key in COPIED
    ]
    crew, trained, fraction = ship.get("crew"), ship.get("trained_fighters"), ship["fighters_share"]
    _, pistols, rounding = crew_fractions(ctx.rules)
    if isinstance(crew, int) and not isinstance(crew, bool):
        words = f"{fraction} of her crew of {crew}"
        found.append((("trained_fighters",), share(crew, Fraction(fraction), rounding), words))
    if isinstance(trained, int) and not isinstance(trained, bool):
        words = f"{pistols} of her {trained} trained fighters (high-seas.crews)"
        found.append((("pistols",), share(trained, pistols, rounding), words))
    return found


def _number(key: str) -> Whole:
    return Whole(span=spread(SHIP_TYPES, key), why=f"the least and most a type of {SHIP_TYPES} has")


def _sizes(rules: Rules) -> tuple[int, int]:
    sizes = [int(s) for s in rules.table(SHIP_TYPES).params["size_classes"]]
    return min(sizes), max(sizes)


def _officers_count(rules: Rules) -> int:
    return len(officer_roles(rules))


def _trained_fraction(rules: Rules) -> str:
    return str(rules.table("high-seas.crews").params["trained_fraction"])


def _shares(rules: Rules) -> list[str]:
    """Every share of a crew that may be trained fighters."""
    rolled_shares = [str(c["fraction"]) for c in rules.table(CREW_FIGHTERS).cells]
    return list(dict.fromkeys([_trained_fraction(rules), *rolled_shares]))


def _share_for(rules: Rules, roll: int) -> str | None:
    """The share high-seas.crew-fighters gives for a (modified) roll."""
    table = rules.table(CREW_FIGHTERS)
    axis = next(a for a in table.axes if a.dice)
    for value, cell in zip(axis.values, table.cells, strict=True):
        if value.contains(roll):
            return str(cell["fraction"])
    return None


OFFICER = Record(
    {
        "role": req(Choice(officer_roles, "officer's role"), f"the post held ({SHIP_TYPES})"),
        **PERSON_FIELDS,
    },
    checks=PERSON_CHECKS,
    what="an officer",
)


def _ship(ctx: Ctx, data: dict[str, Any], path: KeyPath) -> None:
    """Guns in the batteries; fighters and pistols within the crew, at the right share;
    one officer of each role; the master gunner flag as the Chief Gunner's Gunnery."""
    if "guns" in data and isinstance(data.get("batteries"), dict):
        counts = [data["batteries"].get(b) for b in BATTERIES]
        if all(isinstance(n, int) for n in counts) and isinstance(data["guns"], int):
            total = sum(n for n in counts if isinstance(n, int))
            if total != data["guns"]:
                ctx.fail(
                    (*path, "batteries"),
                    f"the four batteries hold {total} guns but guns is {data['guns']}",
                )
    numbers = {k: data.get(k) for k in ("crew", "trained_fighters", "pistols")}
    if all(isinstance(n, int) and not isinstance(n, bool) for n in numbers.values()):
        crew, trained, pistols = numbers["crew"], numbers["trained_fighters"], numbers["pistols"]
        assert isinstance(crew, int) and isinstance(trained, int) and isinstance(pistols, int)
        if trained > crew:
            ctx.fail((*path, "trained_fighters"), f"{trained} is more than the crew ({crew})")
        if pistols > trained:
            ctx.fail((*path, "pistols"), f"{pistols} is more than the trained fighters ({trained})")
    _fighters(ctx, data, path)
    _officers(ctx, data, path)


def _fighters(ctx: Ctx, data: dict[str, Any], path: KeyPath) -> None:
    navy, roll, share = data.get("navy_ship"), data.get("fighters_roll"), data.get("fighters_share")
    if not isinstance(navy, bool) or not isinstance(share, str):
        return
    if navy:
        if roll is not None:
            ctx.fail(
                (*path, "fighters_roll"),
                "a Navy warship (navy_ship: true) rolls for no fighters: fighters_roll is null",
            )
        expected = ctx.of(_trained_fraction)
        if share != expected:
            ctx.fail(
                (*path, "fighters_share"),
                f"a Navy warship trains {expected} of her crew (high-seas.crews), not {share}",
            )
    elif roll is None:
        ctx.fail(
            (*path, "fighters_roll"),
            f"a ship that is no Navy warship rolls on {CREW_FIGHTERS}: a whole number, not null",
        )
    elif isinstance(roll, int) and not isinstance(roll, bool):
        given = _share_for(ctx.rules, roll)
        if given is not None and share != given:
            ctx.fail(
                (*path, "fighters_share"),
                f"fighters_share {share} does not match fighters_roll {roll} "
                f"({CREW_FIGHTERS} gives {given})",
            )


def _officers(ctx: Ctx, data: dict[str, Any], path: KeyPath) -> None:
    officers = data.get("officers")
    if not isinstance(officers, list):
        return
    roles = ctx.of(officer_roles)
    found = [o.get("role") for o in officers if isinstance(o, dict)]
    if officers and sorted(map(str, found)) != sorted(roles):
        ctx.fail(
            (*path, "officers"),
            f"a ship has one each of {', '.join(roles)}; found "
            f"{', '.join(map(str, found)) or 'none'}",
        )
    flag = data.get("chief_gunner_master_superior")
    gunner = next(
        (o for o in officers if isinstance(o, dict) and o.get("role") == "Chief Gunner"), None
    )
    skills = gunner.get("skills") if gunner else None
    if not isinstance(flag, bool) or not isinstance(skills, dict) or "Gunnery" not in skills:
        return
    levels = ctx.of(skill_levels)
    best = max(levels, key=lambda name: levels[name])
    if flag != (skills["Gunnery"] == best):
        ctx.fail(
            (*path, "chief_gunner_master_superior"),
            f"is {str(flag).lower()} but the Chief Gunner's Gunnery is {skills['Gunnery']} "
            f"(true only for {best})",
        )


SHIP = Record(
    {
        "name": req(NAME, "the ship's name"),
        "type": req(Choice(labels(SHIP_TYPES), "ship type"), f"her type ({SHIP_TYPES})"),
        "size": req(Whole(span=_sizes, why="the size classes of high-seas.ship-types"), "her size"),
        "navy_ship": req(Flag(), "whether she is a Navy warship (her type's navy)"),
        "guns": req(_number("guns"), "her guns, all batteries"),
        "batteries": req(
            Record(
                {b: req(_number(b), f"the guns of her {b} battery") for b in BATTERIES},
                what="the batteries (port, starboard, stern, chasers)",
            ),
            "her guns by battery",
        ),
        **{key: req(_number(key), help) for key, help in NUMBERS},
        "trained_fighters": req(Whole(0, None), "the trained fighters of her crew"),
        "pistols": req(Whole(0, None), "the trained fighters with pistols"),
        "fighters_share": req(
            Choice(_shares, "share of the crew"),
            "the share of her crew that are trained fighters",
        ),
        "fighters_roll": req(
            Maybe(
                Whole(
                    span=die_range(CREW_FIGHTERS, spread(SHIP_TYPES, "fighters_modifier")),
                    why=f"the die of {CREW_FIGHTERS} and the types' modifiers",
                )
            ),
            f"her roll on {CREW_FIGHTERS} (null for a Navy warship)",
        ),
        "swivels": req(_number("swivels"), "her swivel guns"),
        "chief_gunner_master_superior": req(
            Flag(), "whether her Chief Gunner is Master Superior in Gunnery"
        ),
        "override": override(OVERRIDABLE),
        "officers": req(
            Items(OFFICER, _officers_count, _officers_count, ("officer", "officers")),
            "her officers, one of each role",
        ),
        **DAMAGE,
    },
    checks=(
        follows("navy_ship", "type", SHIP_TYPES, "navy", lookup=_TYPE_ROWS),
        Check(
            "the batteries hold guns; trained_fighters at most crew and pistols at most "
            "trained_fighters; a Navy warship has no fighters_roll and the share of "
            "high-seas.crews, any other ship the share high-seas.crew-fighters gives for "
            "fighters_roll; one officer of each role; chief_gunner_master_superior true "
            "exactly when the Chief Gunner's Gunnery is the highest skill level",
            _ship,
        ),
        derived(
            "size, guns, the batteries, hull_hp, rigging_hp, speed, handling, crew and swivels "
            f"are what her type's row of {SHIP_TYPES} gives; trained_fighters her "
            "fighters_share of her crew, pistols high-seas.crews' share of them",
            _from_type,
            needs=("type", "fighters_share"),
        ),
    ),
    what="a ship",
)

SIDE = Record(
    {
        "name": req(TITLE, "the side's name"),
        "navy": req(NAVY, "the side's navy"),
        "ships": req(Items(SHIP, 1, None, ("ship", "ships")), "the ships"),
    },
    checks=(damage_check(RULESET),),
    what="a high-seas squadron",
)


def _weather_effect(rules: Rules) -> dict[str, str]:
    """The effect text the generator writes for each weather result."""
    return {str(cell["result"]): weather_effect(rules, cell) for cell in rules.table(WEATHER).cells}


def _meters(rules: Rules) -> dict[str, str]:
    """The meters of the standard column of high-seas.range, by band."""
    table = rules.table(RANGE)
    return {label: str(table.cell(i, 0)) for i, label in enumerate(table.axes[0].labels)}


def _bands(rules: Rules) -> list[str]:
    return [str(b) for b in rules.table(RANGE).params["standard_bands"]]


def _lookup(function: Callable[[Rules], dict[str, str]]) -> Callable[[Rules], dict[str, Any]]:
    def compute(rules: Rules) -> dict[str, Any]:
        return {key: {"value": value} for key, value in function(rules).items()}

    return compute


SCHEMA = RulesetSchema(
    ruleset=RULESET,
    notes=__doc__ or "",
    side=SIDE,
    setting={
        "wind": req(
            Record(
                {
                    "result": req(
                        Choice(values(WEATHER, "wind"), "wind"),
                        f"the wind ({WEATHER}'s wind for the weather)",
                    )
                },
                what="a wind (result)",
            ),
            "the wind",
        ),
        "weather": req(
            Record(
                {
                    **fixed(rolled(WEATHER, "weather result")),
                    "effect": req(Text(1000, empty=True), "what the weather does in play"),
                },
                checks=(
                    follows("effect", "result", WEATHER, "value", lookup=_lookup(_weather_effect)),
                ),
                what="a weather (roll, result, effect)",
            ),
            f"the weather ({WEATHER})",
        ),
        "map": req(Null("high seas uses range bands"), "null: high seas plays on range bands"),
        "range": req(
            Record(
                {
                    "roll": req(
                        Whole(
                            span=die_range("high-seas.start-range"),
                            why="the die of high-seas.start-range",
                        ),
                        "the die roll",
                    ),
                    "band": req(
                        Choice(_bands, "range band"),
                        "the range band the ships start at (high-seas.start-range)",
                    ),
                    "meters": req(
                        Text(20), "the band's meters (standard column of high-seas.range)"
                    ),
                },
                checks=(follows("meters", "band", RANGE, "value", lookup=_lookup(_meters)),),
                what="a range (roll, band, meters)",
            ),
            "the starting range band",
        ),
    },
    checks=(wind_from_weather(WEATHER),),
    sides=(1, None),
    years=year_span,  # the generator's years (RulesetGenerator.years)
)
