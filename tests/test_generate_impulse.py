"""Impulse squadrons and scenarios: house class rows, invariants, odds, round trips, checks."""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from generator.dice import distribution
from generator.errors import DataError
from generator.generate.common import Names
from generator.generate.impulse import ImpulseGenerator
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
    "class",
    "hull_type",
    "guns",
    "carronades",
    "hull",
    "rigging",
    "crew",
    "crew_quality",
    "morale",
    "captain",
}


def _scenarios(rules: Rules, count: int, start: int = 0) -> list[dict[str, Any]]:
    return [roll_scenario(rules, "impulse", seed) for seed in range(start, start + count)]


def test_force_json_has_the_promised_shape(rules: Rules) -> None:
    force = roll_force(rules, "impulse", 1805)
    assert force["ruleset"] == "impulse" and force["seed"] == 1805
    assert {"name", "navy", "squadron", "ships"} <= set(force)
    assert {"roll", "result"} <= set(force["squadron"])
    for ship in force["ships"]:
        assert set(ship) == SHIP_KEYS
        assert isinstance(ship["guns"], int) and isinstance(ship["crew_quality"], int)


def test_ships_are_their_house_class_rows_over_many_seeds(rules: Rules) -> None:
    qualities = {int(c["quality"]) for c in rules.table("impulse.crew-quality").cells}
    seen_classes: set[str] = set()
    for scenario in _scenarios(rules, 300):
        names: list[str] = []
        for side in scenario["sides"]:
            size = lookup(rules, "impulse.squadron-size", {"roll": side["squadron"]["roll"]})
            assert side["squadron"]["result"] == size.text
            assert len(side["ships"]) == size.cell["ships"]
            for ship in side["ships"]:
                row = lookup(rules, "impulse.ship-classes", {"class": ship["class"]}).cell
                for key in ("hull_type", "guns", "carronades", "hull", "rigging", "crew"):
                    assert ship[key] == row[key], (ship["class"], key)
                assert ship["hull_type"] in ("Fast", "Average", "Slow")
                assert ship["crew_quality"] in qualities
                assert ship["morale"] in ("Unfit", "Steady", "Handy")
                seen_classes.add(ship["class"])
                names += [ship["name"], ship["captain"]]
        assert len(names) == len(set(names)), scenario["seed"]
    assert seen_classes == set(rules.table("impulse.ship-classes").axes[0].labels)


def test_crew_quality_moves_the_starting_morale_roll(rules: Rules) -> None:
    gen = ImpulseGenerator()
    rng = random.Random(7)
    by_quality: dict[int, Counter[str]] = {q: Counter() for q in range(-2, 3)}
    for _ in range(2000):
        side = gen.roll_side(rules, rng, Names(rules, rng), "british")
        for ship in side["ships"]:
            by_quality[ship["crew_quality"]][ship["morale"]] += 1
    # 1d6+2 is never 1 or less, 1d6-2 never 6 or more
    assert by_quality[2]["Unfit"] == 0 and by_quality[2]["Handy"] > 0
    assert by_quality[-2]["Handy"] == 0 and by_quality[-2]["Unfit"] > 0
    assert set(by_quality[0]) == {"Unfit", "Steady", "Handy"}


def test_classes_appear_with_their_chances(rules: Rules) -> None:
    gen = ImpulseGenerator()
    rng = random.Random(20261121)
    observed: Counter[str] = Counter()
    for _ in range(4000):
        for ship in gen.roll_side(rules, rng, Names(rules, rng), "french")["ships"]:
            observed[ship["class"]] += 1
    table = rules.table("impulse.squadron-composition")
    (axis,) = table.axes
    dist = distribution(axis.dice or "")
    total = sum(observed.values())
    for value, cell in zip(axis.values, table.cells, strict=True):
        chance = float(sum((p for v, p in dist.items() if value.contains(v)), Fraction(0)))
        expected = chance * total
        sigma = (expected * (1 - chance)) ** 0.5
        assert abs(observed[cell["result"]] - expected) < 5 * sigma, cell["result"]


def test_same_seed_same_output_different_seed_different(rules: Rules) -> None:
    assert roll_scenario(rules, "impulse", 42) == roll_scenario(rules, "impulse", 42)
    assert roll_scenario(rules, "impulse", 42) != roll_scenario(rules, "impulse", 43)
    assert roll_force(rules, "impulse", 5) == roll_force(rules, "impulse", 5)


def test_balanced_scenarios_are_within_ten_percent(rules: Rules) -> None:
    gen = ImpulseGenerator()
    for seed in range(8):
        scenario = roll_scenario(rules, "impulse", seed, Order())
        assert balance_ratio(gen, scenario) >= 0.9
        assert scenario["balance"]["balanced"] is True
        assert scenario["balance"]["strengths"] == [gen.strength(s) for s in scenario["sides"]]


def test_strength_follows_its_measure(rules: Rules) -> None:
    ship = {
        "guns": 10,
        "carronades": 2,
        "hull": 20,
        "rigging": 15,
        "crew": 12,
        "crew_quality": -1,
        "morale": "Handy",
    }
    unfit = {**ship, "crew_quality": 2, "morale": "Unfit"}
    side = {"ships": [ship, unfit]}
    assert ImpulseGenerator().strength(side) == (59 - 2 + 2) + (59 + 4 - 2)


def test_scenario_has_everything_a_briefing_needs(rules: Rules) -> None:
    params = rules.table("impulse.scenario").params
    saw_land = False
    for scenario in _scenarios(rules, 40, start=100):
        assert scenario["title"].startswith("Action off ")
        assert scenario["sides"][0]["navy"] != scenario["sides"][1]["navy"]
        assert scenario["wind"]["direction"] in {
            c["result"] for c in rules.table("impulse.wind").cells
        }
        assert scenario["weather"]["result"]
        grid = scenario["map"]
        assert grid["kind"] == "grid" and grid["legend"] == {".": "sea", "#": "land"}
        assert (grid["width"], grid["height"]) == (params["map_width"], params["map_height"])
        assert len(grid["rows"]) == grid["height"]
        start = grid["start_columns"]
        for row in grid["rows"]:
            assert len(row) == grid["width"] and set(row) <= {".", "#"}
            assert row[:start] == "." * start and row[-start:] == "." * start
        saw_land |= any("#" in row for row in grid["rows"])
        assert scenario["setup"] and scenario["victory"] and scenario["special_rules"]
        assert "impulse.ship-classes" in scenario["house_tables"]
        for table_id in scenario["house_tables"]:
            assert rules.table(table_id).house
    assert saw_land


@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_generated_edited_and_reread_round_trips(rules: Rules, tmp_path: Path, fmt: str) -> None:
    scenario = roll_scenario(rules, "impulse", 9)
    scenario["sides"][0]["ships"][0]["name"] = "Bellerophon <&> “Billy Ruffian”"
    scenario["sides"][1]["ships"][0]["hull"] = 33
    scenario["sides"][1]["ships"][0]["override"] = ["hull"]  # the GM's own value, kept
    path = tmp_path / f"scenario.{fmt}"
    path.write_text(dump(scenario, fmt), encoding="utf-8")
    again = read_scenario(path, rules, "impulse")
    assert again == scenario
    assert dump(again, fmt) == path.read_text(encoding="utf-8")


def test_edited_file_errors_name_the_key_path_and_line(rules: Rules, tmp_path: Path) -> None:
    scenario = roll_scenario(rules, "impulse", 9)
    ship = scenario["sides"][0]["ships"][0]
    ship["hull_type"] = "Speedy"
    ship["guns"] = "many"
    ship["crew_quality"] = 5
    ship["morale"] = "Jolly"
    scenario["sides"][1]["ships"][0]["class"] = "Galleon"
    scenario["wind"]["direction"] = "Up"
    scenario["map"]["rows"][0] = "#" + scenario["map"]["rows"][0][1:]
    path = tmp_path / "bad.yaml"
    path.write_text(dump(scenario, "yaml"), encoding="utf-8")
    with pytest.raises(DataError, match=r"sides\[0\]\.ships\[0\]\.hull_type") as caught:
        read_scenario(path, rules, "impulse")
    text = "\n".join(caught.value.problems)
    assert (
        "sides[0].ships[0].hull_type: 'Speedy' is not a hull type (allowed: Fast, Average, Slow)"
        in text
    )
    assert "sides[0].ships[0].guns: expected a whole number, found 'many'" in text
    assert "sides[0].ships[0].crew_quality: 5 is out of range -2..2" in text
    assert (
        "sides[0].ships[0].morale: 'Jolly' is not " in text
        and "(allowed: Broken, Unfit, Steady, Handy" in text
    )
    assert "sides[1].ships[0].class: 'Galleon' is not " in text and "(allowed: Cutter" in text
    assert "wind.direction: 'Up' is not " in text and "(allowed: North" in text
    assert "map.rows[0]: land in a side's starting columns" in text
    assert all(p.startswith(f"{path}:") for p in caught.value.problems)
    lines = path.read_text(encoding="utf-8").splitlines()
    on_line = {int(p.split(":")[1]): p for p in caught.value.problems}
    for written in ("hull_type: Speedy", "guns: many", "morale: Jolly", "class: Galleon"):
        line = next(i for i, text in enumerate(lines, 1) if text.strip() == written)
        assert written.split(":")[0] in on_line[line], (written, on_line.get(line))


def test_a_missing_field_is_named(rules: Rules, tmp_path: Path) -> None:
    scenario = roll_scenario(rules, "impulse", 4)
    del scenario["sides"][1]["ships"][0]["captain"]
    del scenario["map"]["start_columns"]
    path = tmp_path / "bad.json"
    path.write_text(dump(scenario, "json"), encoding="utf-8")
    with pytest.raises(DataError, match=r"sides\[1\]\.ships\[0\]: missing 'captain'") as caught:
        read_scenario(path, rules, "impulse")
    assert any("map: missing 'start_columns'" in p for p in caught.value.problems)


def test_force_file_round_trips(rules: Rules, tmp_path: Path) -> None:
    force = roll_force(rules, "impulse", 11)
    path = tmp_path / "force.json"
    path.write_text(json.dumps(force), encoding="utf-8")
    assert read_force(path, rules, "impulse") == force


def test_impulse_is_a_square_grid_game_never_a_hex_game(rules: Rules) -> None:
    """The seed plays on squares ("only if both ships are in same square"; rules-notes.md:
    nothing in this ruleset is a hex): no description of it may call it a hex game."""
    import generator.generate.impulse as generating
    import generator.resolve.impulse as resolving
    from generator.resources import data_dir

    chosen = rules.rulesets["impulse"]
    assert chosen.title == "Impulse: twelve-impulse square-grid naval game"
    assert chosen.description.startswith("A naval game on a square grid")
    assert "hex" not in chosen.description.lower()
    assert "nothing in this ruleset is a hex" in chosen.notes[0]
    # the data file names a hex once: in the note that says nothing in it is one
    text = (data_dir() / "impulse.yaml").read_text(encoding="utf-8")
    hexes = [line.strip() for line in text.splitlines() if "hex" in line.lower()]
    assert hexes == ['both ships are in same square)" says; nothing in this ruleset is a hex.']
    for module in (generating, resolving):
        assert module.__doc__ and "hex" not in module.__doc__.lower(), module.__name__
    assert generating.__doc__ is not None and "square grid" in generating.__doc__
    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if line.startswith("| `impulse` |"))
    assert "square-grid game" in row and "hex" not in row
    # the map the scenarios roll is a grid of squares
    assert roll_scenario(rules, "impulse", 3)["map"]["kind"] == "grid"
