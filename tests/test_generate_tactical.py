"""Tactical fleets and scenarios: the seed's fleet tables exactly, invariants, odds, round trips."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from generator.dice import distribution
from generator.errors import DataError
from generator.generate.common import Names
from generator.generate.scenario import (
    Order,
    balance_ratio,
    dump,
    read_force,
    read_scenario,
    roll_force,
    roll_scenario,
)
from generator.generate.tactical import TacticalGenerator
from generator.loading import Rules
from generator.lookup import lookup
from generator.ruleset.tactical import RATINGS


def test_fleet_json_has_the_promised_shape(rules: Rules) -> None:
    fleet = roll_force(rules, "tactical", 1805)
    assert {"ruleset", "seed", "admiral", "national", "fleet", "ships"} <= set(fleet)
    assert fleet["ruleset"] == "tactical" and fleet["seed"] == 1805
    for key in ("admiral", "national", "fleet"):
        assert {"roll", "result"} <= set(fleet[key])
    for ship in fleet["ships"]:
        assert {"name", "class", "flagship", "ally", "traits", "ratings"} <= set(ship)
        for trait in ship["traits"]:
            assert set(trait) == {"table", "roll", "result"}
            assert trait["table"] in ("ship", "captain", "crew")
        assert set(ship["ratings"]) == set(RATINGS)


def _fleets(rules: Rules, count: int, start: int = 0) -> list[dict[str, object]]:
    return [roll_force(rules, "tactical", seed) for seed in range(start, start + count)]


def test_fleet_invariants_over_many_seeds(rules: Rules) -> None:
    types = rules.table("tactical.ship-types")
    order = list(types.axes[0].labels)
    seen_diplomat = False
    for fleet in _fleets(rules, 400):
        ships = fleet["ships"]
        assert isinstance(ships, list)
        diplomat = fleet["admiral"]["result"] == "Diplomat"  # type: ignore[index]
        seen_diplomat |= diplomat
        assert len(ships) == (12 if diplomat else 8)
        flagships = [s for s in ships if s["flagship"]]
        assert len(flagships) == 1
        flag = flagships[0]
        assert not flag["ally"]
        assert sum(s["ally"] for s in ships) == (6 if diplomat else 0)
        assert order.index(flag["class"]) == min(order.index(s["class"]) for s in ships)
        for ship in ships:
            per_table = Counter(t["table"] for t in ship["traits"])
            expected = 2 if ship["flagship"] else 1
            assert per_table == {"ship": expected, "captain": expected, "crew": expected}
        names = [s["name"] for s in ships]
        assert len(set(names)) == len(names)
    assert seen_diplomat


def test_ratings_are_class_base_plus_every_bonus(rules: Rules) -> None:
    for fleet in _fleets(rules, 60, start=500):
        fleet_effects: Counter[str] = Counter()
        for key in ("national", "fleet", "admiral"):
            cell = lookup(rules, f"tactical.{key}", {"roll": fleet[key]["roll"]}).cell  # type: ignore[index]
            if key != "admiral" or cell.get("applies_to") == "every ship in the fleet":
                fleet_effects.update(dict(cell.get("effect", {})))
        for ship in fleet["ships"]:  # type: ignore[attr-defined]
            base = lookup(rules, "tactical.ship-types", {"class": ship["class"]}).cell
            expected = Counter({r: int(base.get(r, 0)) for r in RATINGS})
            expected.update(fleet_effects)
            for trait in ship["traits"]:
                cell = lookup(rules, f"tactical.{trait['table']}", {"roll": trait["roll"]}).cell
                expected.update(dict(cell.get("effect", {})))
            assert ship["ratings"] == {r: expected[r] for r in RATINGS}


class Faces(random.Random):
    """Every die shows `face`, or its highest face if that is lower; all else as seeded."""

    def __init__(self, face: int) -> None:
        super().__init__(face)
        self.face = face

    def randint(self, a: int, b: int) -> int:
        return max(a, min(self.face, b))


FLEET_TABLES = ("admiral", "national", "fleet")
SHIP_TRAITS = ("ship", "captain", "crew")


def test_table_results_appear_with_their_chances(rules: Rules) -> None:
    """Exactly, over every face of the die: each face of each fleet and ship table gives
    the result its row covers, each table is rolled as often as the rules say (the
    flagship twice on each ship table), so each result has the chance its rows give."""
    gen = TacticalGenerator()
    setup = rules.table("tactical.setup").params
    faces: dict[str, dict[int, set[str]]] = {t: {} for t in (*FLEET_TABLES, *SHIP_TRAITS)}
    for face in range(1, 9):
        rng = Faces(face)
        side = gen.roll_side(rules, rng, Names(rules, rng), "british")
        for key in FLEET_TABLES:
            faces[key].setdefault(face, set()).add(side[key]["result"])
        for ship in side["ships"]:
            rolls = setup["flagship_rolls_per_ship_table"] if ship["flagship"] else 1
            assert Counter(t["table"] for t in ship["traits"]) == dict.fromkeys(SHIP_TRAITS, rolls)
            for trait in ship["traits"]:
                assert trait["roll"] == min(face, 8 if trait["table"] != "ship" else 6)
                faces[trait["table"]].setdefault(face, set()).add(trait["result"])
        assert sum(ship["flagship"] for ship in side["ships"]) == 1
    for table_name, seen in faces.items():
        table = rules.table(f"tactical.{table_name}")
        (axis,) = table.axes
        sides = int((axis.dice or "").partition("d")[2])
        dist = distribution(axis.dice or "")
        assert dist == {face: Fraction(1, sides) for face in range(1, sides + 1)}
        for value, cell in zip(axis.values, table.cells, strict=True):
            chance = sum((p for v, p in dist.items() if value.contains(v)), Fraction(0))
            shown = [f for f in range(1, sides + 1) if seen[f] == {cell["result"]}]
            assert Fraction(len(shown), sides) == chance, (table_name, cell["result"])
        assert all(len(seen[f]) == 1 for f in range(1, sides + 1)), table_name


def test_same_seed_same_output_different_seed_different(rules: Rules) -> None:
    assert roll_scenario(rules, "tactical", 42) == roll_scenario(rules, "tactical", 42)
    assert roll_scenario(rules, "tactical", 42) != roll_scenario(rules, "tactical", 43)


def test_same_seed_same_bytes_across_processes_and_hash_seeds() -> None:
    outputs = set()
    for hash_seed in ("0", "1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        proc = subprocess.run(
            [sys.executable, "-m", "generator", "scenario", "tactical", "--seed", "77", "--json"],
            capture_output=True,
            env=env,
            check=True,
        )
        outputs.add(proc.stdout)
    assert len(outputs) == 1


def test_balanced_scenarios_are_within_ten_percent(rules: Rules) -> None:
    gen = TacticalGenerator()
    for seed in range(5):
        scenario = roll_scenario(rules, "tactical", seed, Order())
        assert balance_ratio(gen, scenario) >= 0.9
        assert scenario["balance"]["balanced"] is True
        strengths = [gen.strength(s) for s in scenario["sides"]]
        assert scenario["balance"]["strengths"] == strengths


def test_scenario_has_everything_a_briefing_needs(rules: Rules) -> None:
    scenario = roll_scenario(rules, "tactical", 3)
    assert len(scenario["sides"]) == 2
    assert scenario["sides"][0]["navy"] != scenario["sides"][1]["navy"]
    assert scenario["wind"]["direction"]
    assert scenario["weather"]["result"]
    grid = scenario["map"]
    assert len(grid["rows"]) == grid["height"] and all(
        len(r) == grid["width"] for r in grid["rows"]
    )
    start = grid["start_columns"]
    assert all(row[:start] == "." * start and row[-start:] == "." * start for row in grid["rows"])
    assert (
        any("#" in row for row in grid["rows"])
        or rules.table("tactical.scenario").params["islands"][0] == 0
    )
    assert scenario["setup"] and scenario["victory"]
    assert "tactical.fleet-composition" in scenario["house_tables"]
    names = [ship["name"] for side in scenario["sides"] for ship in side["ships"]]
    people = [ship["captain"] for side in scenario["sides"] for ship in side["ships"]]
    assert len(set(names)) == len(names)
    assert len(set(people)) == len(people)


@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_generated_edited_and_reread_round_trips(rules: Rules, tmp_path: Path, fmt: str) -> None:
    scenario = roll_scenario(rules, "tactical", 9)
    scenario["sides"][0]["ships"][0]["name"] = "Bellerophon <&> “Billy Ruffian”"
    scenario["sides"][1]["ships"][2]["ratings"]["hull"] = 5  # within what the rules allow (1..6)
    scenario["sides"][1]["ships"][2]["override"] = ["hull"]  # the GM's own value, kept
    path = tmp_path / f"scenario.{fmt}"
    path.write_text(dump(scenario, fmt), encoding="utf-8")
    again = read_scenario(path, rules, "tactical")
    assert again == scenario
    assert dump(again, fmt) == path.read_text(encoding="utf-8")


def test_edited_file_errors_name_the_key_path_and_line(rules: Rules, tmp_path: Path) -> None:
    scenario = roll_scenario(rules, "tactical", 9)
    scenario["sides"][1]["ships"][2]["ratings"]["hull"] = "lots"
    scenario["sides"][0]["ships"][1]["class"] = "Galleon"
    scenario["sides"][0]["ships"][0]["flagship"] = not scenario["sides"][0]["ships"][0]["flagship"]
    path = tmp_path / "bad.yaml"
    path.write_text(dump(scenario, "yaml"), encoding="utf-8")
    with pytest.raises(DataError) as caught:
        read_scenario(path, rules, "tactical")
    text = "\n".join(caught.value.problems)
    assert "sides[1].ships[2].ratings.hull: expected a whole number, found 'lots'" in text
    assert "sides[0].ships[1].class: 'Galleon' is not a ship class (allowed: 1st Class" in text
    assert "a fleet has exactly one flagship" in text
    assert all(p.startswith(f"{path}:") for p in caught.value.problems)


def test_force_file_round_trips(rules: Rules, tmp_path: Path) -> None:
    fleet = roll_force(rules, "tactical", 11)
    path = tmp_path / "fleet.json"
    path.write_text(json.dumps(fleet), encoding="utf-8")
    assert read_force(path, rules, "tactical") == fleet
