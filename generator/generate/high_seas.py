"""High-seas squadrons and ship actions, from the house ship tables and the seed's crew rules.

The seed (000, "Ship Combat") fixes the rules a ship needs: four batteries (two broadsides,
stern guns, chasers), Hull and Rigging Hit Points, speed and handling for the 2d6 rolls, size
for grappling and the "Enemy Ship is larger" modifier, one third of a Navy crew trained
fighters and one fifth of those with pistols, and the officers Captain, First Mate, Chief
Gunner and Master-at-Arms. It gives no ship statistics: those are house tables in
data/high-seas.yaml (ship-types, ship-roll, squadron-size, crew-fighters, weather,
start-range, scenario). Officers are full duellists rolled by `duel.roll_person`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from generator.generate.base import RulesetGenerator, register
from generator.generate.common import Names, resolution, roll_on
from generator.generate.duel import derived_values as duel_derived
from generator.generate.duel import roll_person
from generator.loading import Rules, thaw
from generator.ruleset import Officer
from generator.ruleset import high_seas as high_seas_rules
from generator.ruleset.high_seas import (
    BATTERIES,
    CANNON_MODS,
    CREW_FIGHTERS,
    DAMAGE,
    DUEL_SKILLS,
    RANGE,
    SCENARIO,
    SHIP_ROLL,
    SHIP_TYPES,
    SQUADRON_SIZE,
    START_RANGE,
    WEATHER,
    crew_fractions,
    master_superior,
    officer_roles,
    share,
    skill_levels,
    weather_effect,
)
from generator.ruleset.logcard import TALLY_POINTS, Log, tally, tracks
from generator.ruleset.model import CrewOfficer, Setting, Ship, Side
from generator.schema import OVERRIDE, by_label
from generator.yamlfile import KeyPath

CAPTAIN, FIRST_MATE, CHIEF_GUNNER = "Captain", "First Mate", "Chief Gunner"


def firepower(guns: int, per: int = 10) -> int:
    """Return a battery's firepower: its guns divided by `per` (10), rounded up."""
    return -(-guns // per)


def type_row(rules: Rules, ship_type: str) -> dict[str, Any]:
    """Return the high-seas.ship-types row of `ship_type` as plain data."""
    table = rules.table(SHIP_TYPES)
    return dict(thaw(table.cell(table.axes[0].labels.index(ship_type))))


def _officer(ship: Ship, role: str) -> CrewOfficer | None:
    officers = ship.get("officers")
    for officer in officers if isinstance(officers, list) else []:
        if isinstance(officer, dict) and officer.get("role") == role:
            return officer
    return None


@register
class HighSeasGenerator(RulesetGenerator):
    ruleset = "high-seas"
    summary_fields = (
        "name",
        "type",
        "size",
        "guns",
        "hull_hp",
        "rigging_hp",
        "speed",
        "handling",
        "crew",
        "trained_fighters",
        "pistols",
    )
    strength_measure = (
        "per ship: 10 x firepower (each battery's guns / 10, rounded up, summed over the four "
        "batteries) + Hull Hit Points + Rigging Hit Points + trained fighters; summed over "
        "the side's ships"
    )
    house_tables = (
        SHIP_TYPES,
        SHIP_ROLL,
        SQUADRON_SIZE,
        CREW_FIGHTERS,
        WEATHER,
        START_RANGE,
        SCENARIO,
        "duel.attributes",
        "duel.height",
        "duel.expertise",
        "duel.fighting-style",
        DUEL_SKILLS,
        "duel.weapons",
        "duel.armour",
        "duel.loadout",
        "duel.armour-worn",
    )

    def ship_log(self, log: Log, rules: Rules, ship: Ship | None, side: Side | None) -> None:
        _log(log, rules, ship)

    def ship_log_notes(self, rules: Rules) -> list[str]:
        return _log_notes(rules)

    def side_name(self, names: Names, navy: str) -> str:
        return f"{names.navy_title(navy).split(' (')[0]} squadron"

    def officers(self, unit: Ship) -> list[Officer]:
        """Return a ship's officers, each with a character sheet of their own in a packet
        (the duel rules' duellists), named by post ("Captain Ann Bonny")."""
        return [
            Officer(officer, f"{officer.get('role', 'Officer')} {officer['name']}")
            for officer in unit.get("officers", [])
        ]

    def roll_side(
        self, rules: Rules, rng: random.Random, names: Names, navy: str, ships: int | None = None
    ) -> Side:
        rolled = int(roll_on(rules, SQUADRON_SIZE, rng).cell["ships"])
        count = rolled if ships is None else ships
        fleet = [self._ship(rules, rng, names, navy) for _ in range(count)]
        nation = names.navy_title(navy).split(" (")[0]
        if count == 1:
            name = f"{nation} {fleet[0]['type'].lower()} {fleet[0]['name']}"
        else:
            name = f"{nation} squadron"
        return {"name": name, "navy": navy, "ships": fleet}

    def _ship(self, rules: Rules, rng: random.Random, names: Names, navy: str) -> Ship:
        ship_type = roll_on(rules, SHIP_ROLL, rng).result
        row = type_row(rules, ship_type)
        trained_fraction, pistol_fraction, rounding = crew_fractions(rules)
        navy_ship = bool(row["navy"])
        fighters_roll: int | None = None
        if navy_ship:
            fraction = trained_fraction
        else:
            rolled = roll_on(rules, CREW_FIGHTERS, rng, int(row["fighters_modifier"]))
            fighters_roll = rolled.roll
            fraction = Fraction(str(rolled.cell["fraction"]))
        crew = int(row["crew"])
        trained = share(crew, fraction, rounding)
        name = names.ship(navy if row["names"] == "navy" else str(row["names"]))
        nationality = names.nationality_for(navy)
        # naval officers of the period were men
        officers: list[CrewOfficer] = [
            {"role": role, **roll_person(rules, rng, names, nationality, gender="male")}
            for role in officer_roles(rules)
        ]
        gunner = next(o for o in officers if o["role"] == CHIEF_GUNNER)
        return {
            "name": name,
            "type": ship_type,
            "size": int(row["size"]),
            "navy_ship": navy_ship,
            "guns": int(row["guns"]),
            "batteries": {b: int(row[b]) for b in BATTERIES},
            "hull_hp": int(row["hull_hp"]),
            "rigging_hp": int(row["rigging_hp"]),
            "speed": int(row["speed"]),
            "handling": int(row["handling"]),
            "crew": crew,
            "trained_fighters": trained,
            "pistols": share(trained, pistol_fraction, rounding),
            "fighters_share": f"{fraction.numerator}/{fraction.denominator}",
            "fighters_roll": fighters_roll,
            "swivels": int(row["swivels"]),
            "chief_gunner_master_superior": gunner["skills"]["Gunnery"] == master_superior(rules),
            "officers": officers,
        }

    def strength(self, side: Side) -> float:
        total = 0
        for ship in side["ships"]:
            fire = sum(firepower(int(n)) for n in ship["batteries"].values())
            total += 10 * fire + ship["hull_hp"] + ship["rigging_hp"] + ship["trained_fighters"]
        return float(total)

    def roll_setting(
        self, rules: Rules, rng: random.Random, sides: list[Side], names: Names
    ) -> Setting:
        weather = roll_on(rules, WEATHER, rng)
        start = roll_on(rules, START_RANGE, rng)
        place = names.place([side["navy"] for side in sides])
        scenario = rules.table(SCENARIO)
        band = start.result
        meters = self._meters(rules, band)
        effect = weather_effect(rules, weather.cell)
        first, second = sides[0]["name"], sides[1]["name"]
        special = [item.text for item in scenario.items if item.label == "Special rule"]
        if effect:
            special.append(f"{weather.result}: {effect}")
        for side in sides:
            for ship in side["ships"]:
                line = self._ship_notes(rules, ship)
                if line:
                    special.append(f"{ship['name']} ({side['name']}): {line}")
        return {
            "title": f"Action off {place}",
            "wind": {"result": str(weather.cell["wind"])},
            "weather": {"roll": weather.roll, "result": weather.result, "effect": effect},
            "map": None,
            "range": {"roll": start.roll, "band": band, "meters": meters},
            "setup": [
                f"{first} and {second} start at {band} range ({meters} m, the standard column "
                "of high-seas.range).",
                *(item.text for item in scenario.items if item.label == "Set-up"),
            ],
            "victory": [item.text for item in scenario.items if item.label == "Victory"],
            "special_rules": special,
        }

    @staticmethod
    def _meters(rules: Rules, band: str) -> str:
        table = rules.table(RANGE)
        return str(table.cell(table.axes[0].labels.index(band), 0))

    @staticmethod
    def _ship_notes(rules: Rules, ship: Ship) -> str:
        mods = rules.table(CANNON_MODS)
        notes = []
        if ship["navy_ship"]:
            navy = mods.modifier("navy-warship")
            notes.append(f"{navy.label}, {navy.value:+d} to hit.")
        gunner = _officer(ship, CHIEF_GUNNER)
        if ship["chief_gunner_master_superior"] and gunner:
            master = mods.modifier("master-gunner")
            notes.append(
                f"Chief Gunner {gunner['name']} is {master_superior(rules)} in Gunnery, "
                f"{master.value:+d} to hit."
            )
        levels = skill_levels(rules)
        for role in (CAPTAIN, FIRST_MATE):
            officer = _officer(ship, role)
            skill = str(officer["skills"]["Strategy"]) if officer else ""
            if officer and levels.get(skill, 0) > 0:
                notes.append(
                    f"{role} {officer['name']} rolls for Brilliant Maneuver (Strategy {skill})."
                )
                break
        return " ".join(notes)

    # ------------------------------------------------------------------ checking

    def derived(
        self, rules: Rules, side: Mapping[str, Any], unit: Mapping[str, Any]
    ) -> dict[KeyPath, Any]:
        """Return what the rules derive for a high-seas ship (`RulesetGenerator.derived`)."""
        return derived_values(rules, side, unit)


# ---------------------------------------------------------------- the ship's log
# What a ship's log of this ruleset tracks: a card built with `Log` (generator.ruleset.logcard).

BATTERY_LABELS = {
    "port": "Port",
    "starboard": "Starboard",
    "stern": "Stern guns",
    "chasers": "Chasers",
}
LOG_OFFICERS = ("Captain", "First Mate", "Chief Gunner", "Master-at-Arms")  # a blank log's


def most_points(rules: Rules) -> dict[str, int]:
    """Return the most Hull and Rigging Hit Points a ship type has, and the most hit points
    an officer can roll (every attribute at its highest)."""
    cells = rules.table(SHIP_TYPES).cells
    attributes = rules.table("duel.attributes").params
    top = int(attributes["attribute_max"])
    return {
        "hull_hp": max(int(c["hull_hp"]) for c in cells),
        "rigging_hp": max(int(c["rigging_hp"]) for c in cells),
        "officer": top + math.ceil(top / int(attributes["hit_points_strength_divisor"])),
    }


def _damage_words(rules: Rules, target: str, points: int) -> str:
    """Say what the damage rules do to her over half and at zero, from the resolver."""
    words = []
    for when, damage in (("over ½", points // 2 + 1), ("at 0", points)):
        hit = resolution(rules, "high-seas.damage", target=target, damage=damage, points=points)
        if hit is not None and hit.outcome.changes:
            words.append(f"{when}: {hit.outcome.changes[-1].removeprefix('Ship: ')}")
    return " · ".join(words)


def _log(log: Log, rules: Rules, ship: Ship | None) -> None:
    most = most_points(rules)
    damage = rules.table(DAMAGE).params
    per = int(damage["guns_per_firepower"])
    if ship:
        log.tag("Navy warship" if ship.get("navy_ship") else "not Navy")
        log.lines(
            f"{ship['type']} · size {ship['size']} · {ship['guns']} guns · speed "
            f"{ship['speed']} · handling {ship['handling']} · {ship['swivels']} swivels",
            f"Crew {ship['crew']}: {ship['trained_fighters']} trained fighters "
            f"({ship['fighters_share']}), {ship['pistols']} with pistols",
        )
        points = {"hull": int(ship["hull_hp"]), "rigging": int(ship["rigging_hp"])}
        batteries: dict[str, Any] = dict(ship["batteries"])
        # a blank log's officers are their posts alone
        officers: list[Mapping[str, Any]] = [
            o for o in ship.get("officers", []) if isinstance(o, dict)
        ]
    else:
        for label, width in (
            ("Type", 30), ("Size", 8), ("Guns", 10), ("Speed", 8), ("Handling", 8),
            ("Crew", 14), ("Trained fighters", 12), ("Pistols", 10),
        ):  # fmt: skip
            log.head(label, width)
        points = {"hull": most["hull_hp"], "rigging": most["rigging_hp"]}
        batteries = dict.fromkeys(BATTERY_LABELS)
        officers = [{"role": role} for role in LOG_OFFICERS]
    _figures(log, rules, ship)
    wide = []
    for key, label in (("hull", "Hull"), ("rigging", "Rigging")):
        boxes, unit = tally(points[key])
        rest = points[key] - (boxes - 1) * unit
        last = f", last {rest}" if rest != unit and ship else ""
        wide.append(
            log.track(
                f"{label} HP",
                boxes,
                points[key] if ship else None,
                blank=ship is None,
                half_after=(points[key] // 2) // unit if ship else None,
                sub=f"{unit} a box{last}",
                end=_damage_words(rules, key, points[key]),
            )
        )
    log.full(tracks(*wide))
    batteries_rows: list[tuple[str, list[Any]]] = []
    for key, guns in batteries.items():
        cells: list[Any]
        if guns is None:
            cells = [
                log.cell_write(key, "guns", width=9.0),
                log.cell_write(key, "firepower", width=9.0),
                log.cell_write(key, "damage", width=12.0),
            ]
        else:
            power = firepower(int(guns), per)
            cells = [str(guns), str(power), f"{damage['damage_dice']}×{power}" if power else "—"]
        cells += [log.cell_write(key, "lost", width=10.0), log.cell_checks(key, "loaded")]
        batteries_rows.append((BATTERY_LABELS.get(key, key), cells))
    table = log.table(
        ["Broadside", "Guns", "Firepower", "Damage", "Lost", "Loaded"], batteries_rows
    )
    log.pair(
        [table],
        [
            log.writeins(("Crew killed", 30), ("Fighters killed", 30)),
            log.checks(
                ("Wet sails", 2),
                "Half speed next turn",
                "Hard turn",
                "Rudder damaged",
                "Grappled",
                ("Sinking", 2),
                "Sunk",
                "Struck",
                "Escaped",
            ),
        ],
    )
    rows = []
    for officer in officers:
        hp = officer.get("hit_points")
        name = officer.get("name")
        label = str(officer.get("role", "Officer")) + (f" {name}" if name else "")
        rows.append(
            log.track(
                label,
                int(hp) if hp is not None else most["officer"],
                hp,
                blank=hp is None,
                write_width=28.0,
            )
        )
    log.full(
        tracks(*rows, group="Officers: hit points" if ship else "Officers: name and hit points")
    )


def _figures(log: Log, rules: Rules, ship: Ship | None) -> None:
    """Her numbers to hit at each range, with her own modifiers, from the cannon resolver."""
    hit = rules.table("high-seas.cannon-hit")
    ranges = next(a for a in hit.axes if a.name == "range").labels
    die = str(hit.params["die"])
    if ship is None:
        log.figure(
            "To hit", None, f"{die} or less, hull / rigging, by range, with her own modifiers",
            width=40.0,
        )  # fmt: skip
        return
    flags = {
        "navy": bool(ship.get("navy_ship")),
        "master_gunner": bool(ship.get("chief_gunner_master_superior")),
    }
    found = []
    own: dict[str, int] = {}
    for band in ranges:
        numbers = []
        for target in ("hull", "rigging"):
            fired = resolution(
                rules, "high-seas.cannon-fire", range=band, target=target, guns=1, **flags
            )
            if fired is None:
                numbers.append("—")
                continue
            details = dict(fired.outcome.details)
            numbers.append(str(details["target"]) if "target" in details else "auto")
            own |= {a.label: a.value for a in fired.applied if a.source.startswith(CANNON_MODS)}
        found.append(f"{band} {' / '.join(numbers)}")
    why = ", ".join(f"{label} {value:+d}" for label, value in own.items())
    log.figure(
        "To hit",
        " · ".join(found),
        f"{die} or less, hull / rigging" + (f"; {why}" if why else ""),
    )


def _log_notes(rules: Rules) -> list[str]:
    damage = rules.table(DAMAGE).params
    wet = rules.table("high-seas.wet-sails").params
    turn = rules.table("high-seas.hard-turn").params
    return [
        f"Each Hit Points box is {TALLY_POINTS} points: cross one off for every "
        f"{TALLY_POINTS} points of damage; ½ "
        f"marks half the track. Every {damage['hull_damage_per_gun_lost']} points of hull "
        "damage destroy a gun and its crew; every "
        f"{damage['rigging_damage_per_sail_crew_killed']} points of rigging damage kill a man "
        f"on sail duty. Damage is {damage['damage_dice']} × firepower (the battery's guns / "
        f"{damage['guns_per_firepower']}, rounded up). Wet sails last {wet['lasts_turns']} "
        f"turns; a damaged rudder is {turn['handling_penalty']} handling until "
        f"{turn['penalty_until']}."
    ]


#: what a high-seas ship copies from her type's row of high-seas.ship-types (the batteries
#: under ``batteries``), as the schema checks it
HIGH_SEAS_COPIED = ("size", "guns", "hull_hp", "rigging_hp", "speed", "handling", "crew", "swivels")


def derived_values(
    rules: Rules, side: Mapping[str, Any], ship: Mapping[str, Any]
) -> dict[KeyPath, Any]:
    """Her type's numbers; her trained fighters her fighters_share of her crew, her pistols
    high-seas.crews' share of them (of the crew and fighters she will have: worked out
    first, unless set by hand); her officers' as a duellist's."""
    found: dict[KeyPath, Any] = {}
    row = by_label(high_seas_rules.SHIP_TYPES)(rules).get(str(ship.get("type")))
    kept = ship.get(OVERRIDE)
    own = {str(key) for key in kept} if isinstance(kept, list) else set()
    if row is not None:
        found.update({(key,): int(row[key]) for key in HIGH_SEAS_COPIED})
        found.update({("batteries", key): int(row[key]) for key in high_seas_rules.BATTERIES})
    _, pistols, rounding = high_seas_rules.crew_fractions(rules)
    crew = ship.get("crew") if "crew" in own or ("crew",) not in found else found[("crew",)]
    try:
        fraction = Fraction(str(ship.get("fighters_share")))
    except (ValueError, ZeroDivisionError):
        fraction = None  # not a share: its problem is reported
    if isinstance(crew, int) and not isinstance(crew, bool) and fraction is not None:
        found[("trained_fighters",)] = high_seas_rules.share(crew, fraction, rounding)
    trained = ship.get("trained_fighters")
    if "trained_fighters" not in own and ("trained_fighters",) in found:
        trained = found[("trained_fighters",)]
    if isinstance(trained, int) and not isinstance(trained, bool):
        found[("pistols",)] = high_seas_rules.share(trained, pistols, rounding)
    for index, officer in enumerate(ship.get("officers") or []):
        if isinstance(officer, dict):
            for path, value in duel_derived(rules, side, officer).items():
                found[("officers", index, *path)] = value
    return found
