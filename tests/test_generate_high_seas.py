"""High-seas squadrons and actions: house ship tables, seed crew rules, officers, round trips."""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from generator.errors import DataError
from generator.generate.common import Names
from generator.generate.high_seas import HighSeasGenerator
from generator.generate.scenario import (
    Order,
    balance_ratio,
    dump,
    read_force,
    read_scenario,
    roll_force,
    roll_scenario,
)
from generator.loading import Rules
from generator.lookup import lookup

SHIP_KEYS = {
    "name",
    "type",
    "size",
    "navy_ship",
    "guns",
    "batteries",
    "hull_hp",
    "rigging_hp",
    "speed",
    "handling",
    "crew",
    "trained_fighters",
    "pistols",
    "fighters_share",
    "fighters_roll",
    "swivels",
    "chief_gunner_master_superior",
    "officers",
}
ROLES = ["Captain", "First Mate", "Chief Gunner", "Master-at-Arms"]
# the columns of high-seas.ship-types copied onto every ship unchanged
COPIED = ("size", "guns", "hull_hp", "rigging_hp", "speed", "handling", "crew", "swivels")


def _ships(side: dict[str, Any]) -> list[dict[str, Any]]:
    ships: list[dict[str, Any]] = side["ships"]
    return ships


def _sides(rules: Rules, count: int, start: int = 0) -> list[dict[str, Any]]:
    gen = HighSeasGenerator()
    rng = random.Random(f"high-seas sides {start}")
    navies = [n for n in Names(rules, rng).navies() if n not in ("merchant", "pirate")]
    out = []
    for i in range(count):
        names = Names(rules, rng)
        out.append(gen.roll_side(rules, rng, names, navies[i % len(navies)]))
    return out


def test_force_json_has_the_promised_shape(rules: Rules) -> None:
    force = roll_force(rules, "high-seas", 1797)
    assert force["ruleset"] == "high-seas" and force["seed"] == 1797
    assert {"name", "navy", "ships"} <= set(force)
    for ship in force["ships"]:
        assert set(ship) == SHIP_KEYS
        assert set(ship["batteries"]) == {"port", "starboard", "stern", "chasers"}
        assert [o["role"] for o in ship["officers"]] == ROLES
        for officer in ship["officers"]:
            assert {"name", "attributes", "hit_points", "skills", "weapons", "armour"} <= set(
                officer
            )
            assert {"Strategy", "Gunnery", "Seamanship"} <= set(officer["skills"])


def test_ships_follow_the_house_table_and_the_seed_crew_rules(rules: Rules) -> None:
    crews = rules.table("high-seas.crews").params
    trained_share = Fraction(str(crews["trained_fraction"]))
    pistol_share = Fraction(str(crews["pistol_fraction_of_trained"]))
    assert (trained_share, pistol_share) == (Fraction(1, 3), Fraction(1, 5))
    assert rules.table("high-seas.crew-fighters").params["rounding"] == "up"
    people = rules.names.people if rules.names else {}
    counts: Counter[int] = Counter()
    types: Counter[str] = Counter()
    navy_seen = {True: 0, False: 0}
    for side in _sides(rules, 300):
        ships = _ships(side)
        counts[len(ships)] += 1
        for ship in ships:
            types[ship["type"]] += 1
            row = lookup(rules, "high-seas.ship-types", {"type": ship["type"]}).cell
            for key in COPIED:
                assert ship[key] == row[key], (ship["type"], key)
            assert ship["navy_ship"] is row["navy"]
            navy_seen[ship["navy_ship"]] += 1
            assert ship["batteries"] == {b: row[b] for b in ship["batteries"]}
            assert sum(ship["batteries"].values()) == ship["guns"]
            if ship["navy_ship"]:
                share = trained_share
                assert ship["fighters_roll"] is None
            else:
                natural = ship["fighters_roll"] - row["fighters_modifier"]
                assert 1 <= natural <= 6
                cell = lookup(rules, "high-seas.crew-fighters", {"roll": ship["fighters_roll"]})
                share = Fraction(str(cell.cell["fraction"]))
            assert ship["fighters_share"] == f"{share.numerator}/{share.denominator}"
            assert ship["trained_fighters"] == math.ceil(ship["crew"] * share)
            assert ship["pistols"] == math.ceil(ship["trained_fighters"] * pistol_share)
            if ship["navy_ship"]:
                assert ship["trained_fighters"] == -(-ship["crew"] // 3)
            officers = ship["officers"]
            assert [o["role"] for o in officers] == ROLES
            for officer in officers:
                male = people[officer["nationality"]]["given_male"]
                assert any(officer["name"].startswith(f"{g} ") for g in male), officer["name"]
            gunner = officers[2]
            master = gunner["skills"]["Gunnery"] == "Master Superior"
            assert ship["chief_gunner_master_superior"] is master
    assert set(counts) == {1, 2, 3}
    assert set(types) == set(rules.table("high-seas.ship-types").axes[0].labels)
    assert navy_seen[True] and navy_seen[False]


def test_master_superior_is_the_gunnery_level_the_modifier_names(rules: Rules) -> None:
    label = rules.table("high-seas.cannon-modifiers").modifier("master-gunner").label
    levels = {c["result"]: c["level"] for c in rules.table("duel.skills").cells}
    assert max(levels, key=lambda k: levels[k]) == "Master Superior"
    assert "Master Superior in Gunnery" in label


def test_names_are_unique_across_both_sides(rules: Rules) -> None:
    for seed in range(60):
        scenario = roll_scenario(rules, "high-seas", seed)
        names = []
        for side in scenario["sides"]:
            for ship in side["ships"]:
                names.append(ship["name"])
                names += [o["name"] for o in ship["officers"]]
        assert len(names) == len(set(names)), (seed, names)


def test_same_seed_same_output_different_seed_different(rules: Rules) -> None:
    assert roll_scenario(rules, "high-seas", 42) == roll_scenario(rules, "high-seas", 42)
    assert roll_scenario(rules, "high-seas", 42) != roll_scenario(rules, "high-seas", 43)
    assert roll_force(rules, "high-seas", 7) == roll_force(rules, "high-seas", 7)


def test_strength_is_the_documented_measure(rules: Rules) -> None:
    gen = HighSeasGenerator()
    side = roll_force(rules, "high-seas", 5)
    expected = 0
    for ship in side["ships"]:
        fire = sum(math.ceil(n / 10) for n in ship["batteries"].values())
        expected += 10 * fire + ship["hull_hp"] + ship["rigging_hp"] + ship["trained_fighters"]
    assert gen.strength(side) == expected
    assert "firepower" in gen.strength_measure and "trained fighters" in gen.strength_measure


def test_balanced_scenarios_are_within_ten_percent(rules: Rules) -> None:
    gen = HighSeasGenerator()
    for seed in range(6):
        scenario = roll_scenario(rules, "high-seas", seed, Order())
        assert balance_ratio(gen, scenario) >= 0.9
        assert scenario["balance"]["balanced"] is True
        assert scenario["balance"]["strengths"] == [gen.strength(s) for s in scenario["sides"]]


def test_scenario_has_everything_a_briefing_needs(rules: Rules) -> None:
    assert rules.names is not None
    bands = list(rules.table("high-seas.range").params["standard_bands"])
    weathers: Counter[str] = Counter()
    for seed in range(40):
        scenario = roll_scenario(rules, "high-seas", seed)
        assert len(scenario["sides"]) == 2
        assert scenario["sides"][0]["navy"] != scenario["sides"][1]["navy"]
        assert scenario["map"] is None
        assert scenario["title"].removeprefix("Action off ") in rules.names.places
        band = scenario["range"]["band"]
        assert band in bands
        meters = lookup(rules, "high-seas.range", {"band": band, "column": "Standard"}).cell
        assert scenario["range"]["meters"] == meters
        assert f"{band} range ({meters} m" in scenario["setup"][0]
        assert scenario["wind"]["result"]
        weather = scenario["weather"]
        weathers[weather["result"]] += 1
        foul = weather["result"] in ("Fog", "Storm")
        assert ("-3 to hit" in weather["effect"]) is foul
        assert any("-3 to hit" in line for line in scenario["special_rules"]) is foul
        assert scenario["setup"] and scenario["victory"] and scenario["special_rules"]
        for side in scenario["sides"]:
            for ship in side["ships"]:
                lines = [r for r in scenario["special_rules"] if r.startswith(f"{ship['name']} (")]
                text = " ".join(lines)
                assert ("Navy Warship, +1 to hit" in text) is ship["navy_ship"]
                assert ("+2 to hit" in text) is ship["chief_gunner_master_superior"]
        assert "high-seas.ship-types" in scenario["house_tables"]
        assert "duel.skills" in scenario["house_tables"]
    assert len(weathers) >= 4


@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_generated_edited_and_reread_round_trips(rules: Rules, tmp_path: Path, fmt: str) -> None:
    scenario = roll_scenario(rules, "high-seas", 4)
    ship = scenario["sides"][0]["ships"][0]
    ship["name"] = "Bonhomme <&> “Richard”"
    ship["hull_hp"] -= 10
    ship["override"] = ["hull_hp"]  # the GM's own value, kept
    path = tmp_path / f"scenario.{fmt}"
    path.write_text(dump(scenario, fmt), encoding="utf-8")
    again = read_scenario(path, rules, "high-seas")
    assert again == scenario
    assert dump(again, fmt) == path.read_text(encoding="utf-8")


def _bad_scenario(rules: Rules) -> dict[str, Any]:
    for seed in range(100):
        scenario = roll_scenario(rules, "high-seas", seed)
        if len(scenario["sides"][1]["ships"]) >= 2:
            return scenario
    raise AssertionError("no seed gives a second side of two ships")


def test_edited_file_errors_name_the_key_path_and_line(rules: Rules, tmp_path: Path) -> None:
    scenario = _bad_scenario(rules)
    first = scenario["sides"][0]["ships"][0]
    second = scenario["sides"][1]["ships"][1]
    first["batteries"]["port"] += 1
    first["trained_fighters"] = "lots"
    first["officers"][3]["role"] = "Bosun"
    first["chief_gunner_master_superior"] = not first["chief_gunner_master_superior"]
    second["type"] = "Dreadnought"
    second["officers"][0]["skills"]["Strategy"] = "Genius"
    second["pistols"] = second["trained_fighters"] + 1
    scenario["range"]["band"] = "Too Far"
    scenario["map"] = {"kind": "grid"}
    path = tmp_path / "bad.yaml"
    path.write_text(dump(scenario, "yaml"), encoding="utf-8")
    with pytest.raises(DataError, match=r"bad\.yaml:\d+: ") as caught:
        read_scenario(path, rules, "high-seas")
    text = "\n".join(caught.value.problems)
    assert "sides[0].ships[0].batteries: the four batteries hold" in text
    assert "sides[0].ships[0].trained_fighters: expected a whole number, found 'lots'" in text
    assert (
        "sides[0].ships[0].officers[3].role: 'Bosun' is not an officer's role (allowed: Captain"
        in text
    )
    assert "sides[0].ships[0].officers: a ship has one each of Captain" in text
    assert "sides[0].ships[0].chief_gunner_master_superior: is " in text
    assert "sides[1].ships[1].type: 'Dreadnought' is not " in text and "(allowed: Cutter" in text
    assert "sides[1].ships[1].officers[0].skills.Strategy: 'Genius' is not " in text
    assert "sides[1].ships[1].pistols: " in text and "is more than the trained fighters" in text
    assert (
        "range.band: 'Too Far' is not " in text
        and "(allowed: Far, Long, Medium, Short, Close" in text
    )
    assert "map: map must be null (high seas uses range bands), found a mapping" in text
    assert all(p.startswith(f"{path}:") for p in caught.value.problems)
    lines = path.read_text(encoding="utf-8").splitlines()
    (bosun,) = [p for p in caught.value.problems if "'Bosun'" in p]
    line = int(bosun.split(":")[1])
    assert "Bosun" in lines[line - 1]


def test_force_file_round_trips_and_is_checked(rules: Rules, tmp_path: Path) -> None:
    force = roll_force(rules, "high-seas", 11)
    path = tmp_path / "squadron.json"
    path.write_text(json.dumps(force), encoding="utf-8")
    assert read_force(path, rules, "high-seas") == force
    del force["ships"][0]["officers"][1]
    path.write_text(json.dumps(force, indent=1), encoding="utf-8")
    with pytest.raises(
        DataError, match=r"ships\[0\]\.officers: expected exactly 4 officers, found 3"
    ):
        read_force(path, rules, "high-seas")
