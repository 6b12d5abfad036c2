"""Form Line of Battle squadrons and scenarios, from the house tables of data/flob.yaml.

The quick reference sheet prints no ship statistics, so every number a ship carries comes
from the house table flob.ship-ratings, one row per rate (1st to 6th, Unrated): rig,
movement class, gunnery class, Broadside, Hull, masts, Mast rating per mast and crew
parties. A squadron is 4 to 7 ships rolled on flob.squadron-composition, each with a crew
(flob.crew-quality) and a captain (flob.captain-quality); the largest rate is the flagship
and carries the Admiral (flob.admiral-quality). A scenario adds the wind (flob.wind), the
weather (flob.weather), a table layout in cm and the set-up, victory and special rules of
flob.scenario.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any

from generator.generate.base import RulesetGenerator, register
from generator.generate.common import Names, resolution, roll_on
from generator.loading import Rules, thaw
from generator.ruleset import flob as flob_rules
from generator.ruleset.flob import scenario_years
from generator.ruleset.logcard import Log, tracks
from generator.ruleset.model import Admiral, Box, Deployment, Feature, Map, Setting, Ship, Side
from generator.schema import by_label
from generator.yamlfile import KeyPath

# The sheet's printed modifiers, used only by `strength` (which is given no rules): crew
# Elite +2, Veteran +1, Poor -1 (tactical, reload, fire-fighting, strike and boarding
# modifiers); captain and admiral Superior +2, Inspired +1, Inept -1 (5.7, 6.8, 8.1, 6.11).
# Any other quality counts 0. The tests check these against the data.
CREW_MODIFIERS: Mapping[str, int] = {"Elite": 2, "Veteran": 1, "Poor": -1}
OFFICER_MODIFIERS: Mapping[str, int] = {"Superior": 2, "Inspired": 1, "Inept": -1}
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
PLACEMENT_TRIES = 40


def ship_row(rules: Rules, rate: str) -> dict[str, Any]:
    """Return the flob.ship-ratings row of `rate` as plain data."""
    table = rules.table("flob.ship-ratings")
    return dict(thaw(table.cell(table.axes[0].labels.index(rate))))


def _axis_labels(rules: Rules, table_id: str, axis_name: str) -> list[str]:
    axis = next(a for a in rules.table(table_id).axes if a.name == axis_name)
    return list(axis.labels)


def _overlaps(a: Box, b: Box, gap: int = 0) -> bool:
    """Return whether two boxes (x_cm, y_cm, w_cm, h_cm) come closer than `gap`."""
    return (
        a["x_cm"] < b["x_cm"] + b["w_cm"] + gap
        and b["x_cm"] < a["x_cm"] + a["w_cm"] + gap
        and a["y_cm"] < b["y_cm"] + b["h_cm"] + gap
        and b["y_cm"] < a["y_cm"] + a["h_cm"] + gap
    )


def _box(x: int, y: int, w: int, h: int) -> Box:
    return {"x_cm": x, "y_cm": y, "w_cm": w, "h_cm": h}


def _span(value: Any) -> tuple[int, int]:
    low, high = value
    return int(low), int(high)


@register
class FlobGenerator(RulesetGenerator):
    ruleset = "flob"
    strength_measure = (
        "sum over the squadron's ships of Broadside + Hull + masts × Mast rating + crew "
        "parties, plus each ship's crew modifier (Elite +2, Veteran +1, Poor -1) and "
        "captain modifier (Superior +2, Inspired +1, Inept -1), plus the Admiral's modifier "
        "(the same) once"
    )
    house_tables = (
        "flob.ship-ratings",
        "flob.squadron-composition",
        "flob.crew-quality",
        "flob.captain-quality",
        "flob.admiral-quality",
        "flob.wind",
        "flob.weather",
        "flob.scenario",
    )

    def ship_log(self, log: Log, rules: Rules, ship: Ship | None, side: Side | None) -> None:
        _log(log, rules, ship, _admiral(side) if side else None)

    def ship_log_notes(self, rules: Rules) -> list[str]:
        return _log_notes(rules)

    def roll_side(
        self, rules: Rules, rng: random.Random, names: Names, navy: str, ships: int | None = None
    ) -> Side:
        low, high = _span(rules.table("flob.squadron-composition").params["ships"])
        count = rng.randint(low, high) if ships is None else ships
        rates = [
            str(roll_on(rules, "flob.squadron-composition", rng).cell["rate"]) for _ in range(count)
        ]
        rows = {rate: ship_row(rules, rate) for rate in sorted(set(rates))}
        # order of battle: largest rate (lowest rate number) first, equals as rolled; the
        # first ship is the flagship
        rates.sort(key=lambda rate: int(rows[rate]["rate_number"]))
        nationality = names.nationality_for(navy)
        admiral = roll_on(rules, "flob.admiral-quality", rng)
        fleet: list[Ship] = []
        for i, rate in enumerate(rates):
            crew = roll_on(rules, "flob.crew-quality", rng)
            captain = roll_on(rules, "flob.captain-quality", rng)
            fleet.append(
                {
                    "name": names.ship(navy),
                    "rate": rate,
                    # her rate's row (generator.ruleset.flob.RATING_FIELDS)
                    "guns": rows[rate]["guns"],
                    "rig": rows[rate]["rig"],
                    "movement_class": rows[rate]["movement_class"],
                    "gunnery_class": rows[rate]["gunnery_class"],
                    "broadside": rows[rate]["broadside"],
                    "hull": rows[rate]["hull"],
                    "masts": rows[rate]["masts"],
                    "mast_rating": rows[rate]["mast_rating"],
                    "crew_parties": rows[rate]["crew_parties"],
                    "crew_quality": crew.result,
                    "captain": names.person(nationality, "male"),
                    "captain_quality": captain.result,
                    "flagship": i == 0,
                }
            )
        return {
            "name": self.side_name(names, navy),
            "navy": navy,
            "admiral": {"name": names.person(nationality, "male"), "quality": admiral.result},
            "ships": fleet,
        }

    def years(self, rules: Rules) -> tuple[int, int]:
        return scenario_years(rules)

    def strength(self, side: Side) -> float:
        total = OFFICER_MODIFIERS.get(_admiral(side)["quality"], 0)
        for ship in side["ships"]:
            total += (
                ship["broadside"]
                + ship["hull"]
                + ship["masts"] * ship["mast_rating"]
                + ship["crew_parties"]
                + CREW_MODIFIERS.get(str(ship["crew_quality"]), 0)
                + OFFICER_MODIFIERS.get(ship["captain_quality"], 0)
            )
        return float(total)

    def roll_setting(
        self, rules: Rules, rng: random.Random, sides: list[Side], names: Names
    ) -> Setting:
        scenario = rules.table("flob.scenario")
        params = scenario.params
        wind = roll_on(rules, "flob.wind", rng)
        weather = roll_on(rules, "flob.weather", rng)
        first_year, last_year = _span(params["years"])
        year = rng.randint(first_year, last_year) if names.year is None else names.year
        place = names.place([side["navy"] for side in sides])
        from_bearing = int(wind.cell["from_bearing"])
        layout = self._layout(rng, params, from_bearing)
        items = {
            label: [item.text for item in scenario.items if item.label == label]
            for label in ("Set-up", "Victory", "Special rule")
        }
        return {
            "title": f"Action off {place}, {year}",
            "year": year,
            "wind": {
                "roll": wind.roll,
                "direction": wind.result,
                "from_bearing": from_bearing,
                "strength": str(weather.cell["wind_strength"]),
            },
            "weather": {
                "roll": weather.roll,
                "result": weather.result,
                "gunnery": str(weather.cell["gunnery"]),
                "gale": bool(weather.cell["gale"]),
                "effect": str(weather.cell["effect_text"]),
            },
            "map": layout,
            "setup": [*self._placement(layout, sides, wind.result), *items["Set-up"]],
            "victory": [
                f"The action lasts {int(params['turns'])} turns (house).",
                *items["Victory"],
            ],
            "special_rules": [
                f"Weather: {weather.result}. {weather.cell['effect_text']}",
                *self._admirals(sides),
                self._year_rule(year),
                *items["Special rule"],
            ],
        }

    def _layout(self, rng: random.Random, params: Mapping[str, Any], wind_from: int) -> Map:
        width, height = int(params["table_width_cm"]), int(params["table_height_cm"])
        depth, margin = int(params["deployment_depth_cm"]), int(params["deployment_margin_cm"])
        west = rng.randrange(2)
        zones = {
            west: _box(0, margin, depth, height - 2 * margin),
            1 - west: _box(width - depth, margin, depth, height - 2 * margin),
        }
        deployment: list[Deployment] = [{"side": side, **zones[side]} for side in (0, 1)]
        features: list[Feature] = []
        if rng.randint(1, 6) <= int(params["coast_on_1d6"]):
            low, high = _span(params["coast_depth_cm"])
            deep = min(rng.randint(low, high), margin)
            north = rng.randrange(2) == 0
            if deep > 0:
                features.append(
                    {
                        "type": "coast",
                        "label": f"{'North' if north else 'South'} coast",
                        **_box(0, 0 if north else height - deep, width, deep),
                    }
                )
        letters = iter(LETTERS)
        for kind, count_key, size_key in (
            ("island", "islands", "island_size_cm"),
            ("shoal", "shoals", "shoal_size_cm"),
        ):
            low, high = _span(params[count_key])
            for _ in range(rng.randint(low, high)):
                box = self._place(rng, params, size_key, list(zones.values()), features)
                if box is not None:
                    label = f"{kind.capitalize()} {next(letters)}"
                    features.append({"type": kind, "label": label, **box})
        return {
            "kind": "table",
            "width_cm": width,
            "height_cm": height,
            "features": features,
            "deployment": deployment,
            "wind_from": wind_from,
        }

    def _place(
        self,
        rng: random.Random,
        params: Mapping[str, Any],
        size_key: str,
        zones: list[Box],
        features: list[Feature],
    ) -> Box | None:
        """Return a box inside the table, clear of the zones and the other features."""

        width, height = int(params["table_width_cm"]), int(params["table_height_cm"])
        clearance = int(params["clearance_cm"])
        low, high = _span(params[size_key])
        for _ in range(PLACEMENT_TRIES):
            w, h = rng.randint(low, high), rng.randint(low, high)
            if w > width or h > height:
                continue
            box = _box(rng.randint(0, width - w), rng.randint(0, height - h), w, h)
            if any(_overlaps(box, zone, clearance) for zone in zones):
                continue
            if any(_overlaps(box, other, clearance // 2) for other in features):
                continue
            return box
        return None

    def _placement(self, layout: Map, sides: list[Side], direction: str) -> list[str]:
        width, height = layout["width_cm"], layout["height_cm"]
        lines = [
            f"The table is {width} × {height} cm, north at the top edge; positions are in cm "
            "from the north-west corner (x east, y south) to a zone's or feature's "
            "north-west corner."
        ]
        west_side = None
        for zone in layout["deployment"]:
            name = sides[zone["side"]]["name"]
            edge = "western" if zone["x_cm"] == 0 else "eastern"
            if edge == "western":
                west_side = zone["side"]
            lines.append(
                f"{name} deploys in the {edge} zone: x {zone['x_cm']}-"
                f"{zone['x_cm'] + zone['w_cm']} cm, y {zone['y_cm']}-"
                f"{zone['y_cm'] + zone['h_cm']} cm."
            )
        terrain = [
            f"{f['label']} (x {f['x_cm']}-{f['x_cm'] + f['w_cm']} cm, "
            f"y {f['y_cm']}-{f['y_cm'] + f['h_cm']} cm)"
            for f in layout["features"]
        ]
        lines.append(
            f"Terrain: {'; '.join(terrain)}."
            if terrain
            else "Open sea: no islands, shoals or coast."
        )
        bearing = layout["wind_from"] % 360
        if bearing % 180 == 0 or west_side is None:
            lines.append(
                f"The wind blows from the {direction.lower()}, along the table: neither side "
                "has the weather gauge."
            )
        else:
            # the wind comes from the east for bearings 1-179, else from the west
            gauge = 1 - west_side if bearing < 180 else west_side
            lines.append(
                f"The wind blows from the {direction.lower()}: {sides[gauge]['name']} has the "
                "weather gauge."
            )
        return lines

    def _admirals(self, sides: list[Side]) -> list[str]:
        lines = []
        for side in sides:
            flagship = next(ship for ship in side["ships"] if ship["flagship"])
            admiral = _admiral(side)
            lines.append(
                f"{side['name']}: Admiral {admiral['name']} ({admiral['quality']}) flies his "
                f"flag in {flagship['name']} ({flagship['rate']} rate)."
            )
        return lines

    def _year_rule(self, year: int) -> str:
        if year >= 1780:
            return (
                f"The year is {year}: a 4th rate attacking a 1st to 3rd rate has its damage "
                "reduced like a 5th or 6th rate (flob.damage-reduction, from 1780)."
            )
        return (
            f"The year is {year}, before 1780: only 5th and 6th rates (and unrated craft) "
            "have their damage reduced against 1st to 3rd rates (flob.damage-reduction)."
        )

    def derived(
        self, rules: Rules, side: Mapping[str, Any], unit: Mapping[str, Any]
    ) -> dict[KeyPath, Any]:
        """Return what the rules derive for a FLoB ship (`RulesetGenerator.derived`)."""
        return derived_values(rules, side, unit)


# ---------------------------------------------------------------- the ship's log
# What a ship's log of this ruleset tracks: a card built with `Log` (generator.ruleset.logcard).

MAST_NAMES = {
    1: ("Mainmast",),
    2: ("Foremast", "Mainmast"),
    3: ("Foremast", "Mainmast", "Mizzen"),
    4: ("Foremast", "Mainmast", "Mizzen", "Jigger"),
}
# short names for the ammunition of flob.ammunition-loading, by row label
AMMO = {
    "Single Round Shot": "RS",
    "Grapeshot": "G",
    "Chainshot": "C",
    "Single Round Shot with Grape": "RS+G",
    "Double Round Shot": "DS",
    "Double Round Shot with Grape": "DS+G",
}


def most_ratings(rules: Rules) -> dict[str, int]:
    """Return the largest of each number a ship copies from flob.ship-ratings."""
    cells = rules.table("flob.ship-ratings").cells
    return {
        key: max(int(cell[key]) for cell in cells)
        for key in ("broadside", "hull", "masts", "mast_rating", "crew_parties")
    }


def _admiral(side: Side) -> Admiral:
    """Return a flob side's admiral (named, with a quality; not a roll, as tactical's)."""
    admiral = side["admiral"]
    assert "quality" in admiral, f"{side['name']}: not a flob admiral"
    return admiral


def _log(log: Log, rules: Rules, ship: Ship | None, admiral: Admiral | None) -> None:
    blank = ship is None
    if ship:
        if ship.get("flagship"):
            log.tag("Flagship")
            if admiral:
                log.tag(f"Admiral {admiral['name']} ({admiral['quality']})")
        log.lines(
            f"{ship['rate']} rate, {ship['guns']} guns · {ship['rig']} · movement class "
            f"{ship['movement_class']} · gunnery class {ship['gunnery_class']}",
            f"Captain {ship['captain']} ({ship['captain_quality']}) · crew {ship['crew_quality']}",
        )
        masts, rating = int(ship["masts"]), int(ship["mast_rating"])
        values = {k: int(ship[k]) for k in ("broadside", "hull", "crew_parties")}
    else:
        for label, width in (
            ("Rate", 12), ("Guns", 12), ("Rig", 30), ("Movement class", 8),
            ("Gunnery class", 8), ("Captain", 56), ("Crew quality", 24),
        ):  # fmt: skip
            log.head(label, width)
        most = most_ratings(rules)
        masts, rating = most["masts"], most["mast_rating"]
        values = {k: most[k] for k in ("broadside", "hull", "crew_parties")}
    _figures(log, rules, ship)

    def value(number: int) -> int | None:
        return None if blank else number

    rows = [
        log.track("Broadside", values["broadside"], value(values["broadside"]), blank=blank),
        log.track("Hull", values["hull"], value(values["hull"]), blank=blank),
    ]
    for name in MAST_NAMES.get(masts, MAST_NAMES[3]) if masts > 0 else ():
        rows.append(
            log.track(
                name,
                rating,
                value(rating),
                blank=blank,
                after=[
                    log.check("MF", key=f"{name} fire"),
                    log.check("fallen", key=f"{name} fallen"),
                ],
            )
        )
    rows.append(
        log.track(
            "Crew parties", values["crew_parties"], value(values["crew_parties"]), blank=blank
        )
    )
    above = _out_of_control(rules)
    rows.append(
        log.track(
            "Hull fires",
            above + 1 if above else 5,
            ticks=[above] if above else (),
            end=f"HF; over {above}: out of control" if above else "HF",
        )
    )
    guns = log.table(
        ["Guns", "Loaded", "Ammunition", "Reload actions"],
        [
            (
                label,
                [
                    log.cell_checks(label, "loaded"),
                    log.cell_write(label, "ammunition", width=17.0),
                    log.cell_checks(label, "reload", count=3),
                ],
            )
            for label in ("Port", "Starboard", "Bow chaser", "Stern chaser")
        ],
    )
    log.pair([tracks(*rows)], [guns])
    labels: list[str | tuple[str, int]] = [
        "Wheel shot away", "Rudder damaged", "Captain wounded", "Captain killed",
    ]  # fmt: skip
    if ship is None or ship.get("flagship"):
        labels += ["Admiral wounded", "Admiral killed"]
    labels += [
        "Grappled", "Entangled", "Aground", "Anchored", "Drifting", "Off table",
        ("Strike tests", 3), "Struck", "Shattered",
    ]  # fmt: skip
    log.full(log.checks(*labels))


def _out_of_control(rules: Rules) -> int | None:
    """Return the hull fires over which a fire is out of control (the critical hits')."""
    for cell in rules.table("flob.critical-hits").cells:
        if "out_of_control_above" in cell:
            return int(cell["out_of_control_above"])
    return None


def _figures(log: Log, rules: Rules, ship: Ship | None) -> None:
    """Her attack number at each range band, and the bands' distances for her rate, as the
    broadside resolver works them out from her Broadside, gunnery class and crew."""
    from generator.resolve.flob import _band, _range_labels

    bands = _range_labels(rules)
    if ship is None:
        log.figure(
            "Attack number",
            None,
            "Broadside, with the range modifier of her gunnery class and her crew's; less "
            "the target's Hull (firing low) or total Masts (high)",
            width=40.0,
        )
        log.figure("Range", None, f"{', '.join(bands)}, in cm for her rate", width=40.0)
        return
    row = (
        ship_row(rules, str(ship["rate"]))
        if ship["rate"] in _axis_labels(rules, "flob.ship-ratings", "rate")
        else {}
    )
    number = int(row.get("rate_number", 3))
    rate = "unrated" if number > 6 else str(number)
    crew = str(ship.get("crew_quality", "average")).casefold()
    found = []
    for band in bands:
        fired = resolution(
            rules, "flob.broadside", broadside=max(int(ship["broadside"]), 0), target_hull=0,
            range=band, gunnery_class=str(ship["gunnery_class"]), crew=crew, rate=rate,
        )  # fmt: skip
        found.append(f"{band} {'—' if fired is None else dict(fired.outcome.details)['attack']}")
    quality = rules.table("flob.crew-quality")
    modifier = next(
        (int(c["modifier"]) for c in quality.cells if str(c["result"]).casefold() == crew), 0
    )
    with_crew = f", crew {ship['crew_quality']} {modifier:+d}" if modifier else ""
    log.figure(
        "Attack number",
        " · ".join(found),
        f"Broadside {ship['broadside']} with the range modifier of gunnery class "
        f"{ship['gunnery_class']}{with_crew}; less the target's Hull (firing low) or total "
        "Masts (high)",
    )
    log.figure(
        "Range",
        " · ".join(f"{band} {_band(rules, band, rate)['printed']}" for band in bands),
        f"for a {ship['rate']} rate",
    )


def _log_notes(rules: Rules) -> list[str]:
    loading = rules.table("flob.ammunition-loading")
    ammo = ", ".join(
        f"{AMMO.get(label, label)} {label.lower()} ({cell['reload_actions']})"
        for label, cell in zip(loading.axes[0].labels, loading.cells, strict=True)
    )
    return [
        "Cross off Broadside, Hull, mast and crew party points as the rr results of the "
        "ammunition take them. HF counts hull fires, MF marks a burning mast. Her attack "
        "numbers are worked out at full Broadside: take a point off for every Broadside box "
        "crossed off.",
        f"Ammunition, with the reload actions it takes: {ammo}.",
    ]


def derived_values(
    rules: Rules, side: Mapping[str, Any], ship: Mapping[str, Any]
) -> dict[KeyPath, Any]:
    row = by_label("flob.ship-ratings")(rules).get(str(ship.get("rate")))
    if row is None:
        return {}
    found: dict[KeyPath, Any] = {}
    for key in flob_rules.RATING_FIELDS:
        if key != "guns":
            found[(key,)] = row[key]
            continue
        span = [int(n) for n in re.findall(r"\d+", str(row.get("guns_range", "")))]
        guns = ship.get("guns")
        if len(span) == 2 and isinstance(guns, int) and min(span) <= guns <= max(span):
            continue  # within her rate's guns_range: hers to choose
        found[(key,)] = int(row["guns"])
    return found
