"""Convoy scenarios: convoy against raiders, house marker rows, the hex map, round trips, checks."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from generator.errors import DataError
from generator.generate.common import Names
from generator.generate.convoy import ConvoyGenerator, neighbours, start_areas
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

SHIP_KEYS = {"name", "kind", "size", "crew", "guns", "sail", "condition"}
MAP_KEYS = {
    "kind",
    "orientation",
    "layout",
    "width",
    "height",
    "rows",
    "legend",
    "exit_edge",
    "start",
}


def _scenarios(rules: Rules, count: int, start: int = 0) -> list[dict[str, Any]]:
    return [roll_scenario(rules, "convoy", seed) for seed in range(start, start + count)]


def test_scenario_json_has_the_promised_shape(rules: Rules) -> None:
    scenario = roll_scenario(rules, "convoy", 1805)
    convoy, raiders = scenario["sides"]
    assert (convoy["role"], raiders["role"]) == ("convoy", "raiders")
    for side in scenario["sides"]:
        assert {"name", "navy", "role", "composition", "ships"} <= set(side)
        for ship in side["ships"]:
            assert set(ship) == SHIP_KEYS
    assert set(scenario["map"]) == MAP_KEYS
    assert set(scenario["map"]["start"]) == {"0", "1"}
    assert set(scenario["battle_clock"]) == {"loop", "moves"}
    assert scenario["battle_clock"]["moves"] == [3, 4, 5]


def test_force_is_a_convoy(rules: Rules) -> None:
    force = roll_force(rules, "convoy", 12)
    assert force["role"] == "convoy"
    assert any(ship["kind"] == "merchant" for ship in force["ships"])


def test_sides_ships_and_markers_over_many_seeds(rules: Rules) -> None:
    sizes = {"small", "medium", "large"}
    conditions = {"normal", "battle hardened", "scurvy"}
    seen: set[tuple[str, str, str]] = set()
    for scenario in _scenarios(rules, 300):
        convoy, raiders = scenario["sides"]
        assert convoy["navy"] != raiders["navy"]
        made = lookup(rules, "convoy.convoy-composition", {"roll": convoy["composition"]["roll"]})
        kinds = [ship["kind"] for ship in convoy["ships"]]
        assert kinds.count("merchant") == made.cell["merchants"]
        assert kinds.count("warship") == made.cell["escorts"]
        made = lookup(rules, "convoy.raider-composition", {"roll": raiders["composition"]["roll"]})
        assert len(raiders["ships"]) == made.cell["warships"]
        assert all(ship["kind"] == "warship" for ship in raiders["ships"])
        names = []
        for side in scenario["sides"]:
            for ship in side["ships"]:
                assert ship["size"] in sizes and ship["condition"] in conditions
                row = lookup(
                    rules, "convoy.ship-markers", {"kind": ship["kind"], "size": ship["size"]}
                ).cell
                assert [ship[k] for k in ("crew", "guns", "sail")] == [
                    row["crew"],
                    row["guns"],
                    row["sail"],
                ]
                seen.add((ship["kind"], ship["size"], ship["condition"]))
                names.append(ship["name"])
        assert len(names) == len(set(names)), scenario["seed"]
    assert {(k, s) for k, s, _ in seen} == {(k, s) for k in ("warship", "merchant") for s in sizes}
    assert {c for _, _, c in seen} == conditions


def test_map_start_hexes_exit_edge_fog_and_shallows_over_many_seeds(rules: Rules) -> None:
    params = rules.table("convoy.scenario").params
    width, height, depth = params["map_width"], params["map_height"], params["start_depth"]
    edges: set[str] = set()
    loops: set[int] = set()
    for scenario in _scenarios(rules, 200, start=1000):
        grid = scenario["map"]
        assert (grid["kind"], grid["orientation"], grid["layout"]) == ("hex", "flat", "odd-q")
        assert grid["legend"] == {".": "sea", "~": "fog", ":": "shallows"}
        assert (grid["width"], grid["height"]) == (width, height)
        assert len(grid["rows"]) == height
        assert all(len(row) == width and set(row) <= {".", "~", ":"} for row in grid["rows"])
        text = "".join(grid["rows"])
        assert "~" in text and ":" in text
        edges.add(grid["exit_edge"])
        taken = []
        for key, side in (("0", scenario["sides"][0]), ("1", scenario["sides"][1])):
            hexes = grid["start"][key]
            assert len(hexes) == len(side["ships"])
            for col, row in hexes:
                assert 0 <= col < width and 0 <= row < height
                assert grid["rows"][row][col] == "."
            taken += [tuple(h) for h in hexes]
        assert len(taken) == len(set(taken))
        # the convoy starts at the edge opposite its exit
        far = {"east": 0, "west": width - 1, "north": height - 1, "south": 0}[grid["exit_edge"]]
        axis = 0 if grid["exit_edge"] in ("east", "west") else 1
        assert all(abs(h[axis] - far) < depth for h in grid["start"]["0"])
        loops.add(scenario["battle_clock"]["loop"])
        merchants = sum(s["kind"] == "merchant" for s in scenario["sides"][0]["ships"])
        assert f"The raiders need {(merchants + 1) // 2} of the {merchants}" in " ".join(
            scenario["victory"]
        )
    assert edges == {"east", "west", "north", "south"}
    assert loops == set(params["clock_loop_spaces"])


def test_start_areas_are_apart_and_where_the_note_says() -> None:
    for exit_edge, flank in (("east", "north"), ("west", "south"), ("north", "east")):
        convoy, raiders = start_areas(22, 16, 3, exit_edge, flank)
        assert not set(convoy) & set(raiders)
        assert len(convoy) == 3 * (16 if exit_edge in ("east", "west") else 22)
    convoy, raiders = start_areas(22, 16, 3, "east", "north")
    assert all(c < 3 for c, _ in convoy)
    assert all(r < 3 and c >= 11 for c, r in raiders)


def test_hex_neighbours_are_mutual_on_odd_q() -> None:
    for col in range(4):
        for row in range(4):
            around = neighbours(col, row)
            assert len(set(around)) == 6
            for other in around:
                assert (col, row) in neighbours(*other)
    assert neighbours(1, 1) == [(1, 0), (2, 1), (2, 2), (1, 2), (0, 2), (0, 1)]


def test_misty_and_thick_weather_say_they_add_fog(rules: Rules) -> None:
    extra = {c["result"]: c["extra_fog"] for c in rules.table("convoy.weather").cells}
    seen = set()
    for scenario in _scenarios(rules, 60):
        weather = scenario["weather"]["result"]
        seen.add(weather)
        said = [line for line in scenario["special_rules"] if line.startswith(f"{weather}:")]
        assert len(said) == (1 if extra[weather] else 0), weather
    assert seen == set(extra)


def test_same_seed_same_output_different_seed_different(rules: Rules) -> None:
    assert roll_scenario(rules, "convoy", 42) == roll_scenario(rules, "convoy", 42)
    assert roll_scenario(rules, "convoy", 42) != roll_scenario(rules, "convoy", 43)


def test_balanced_scenarios_are_within_ten_percent(rules: Rules) -> None:
    gen = ConvoyGenerator()
    for seed in range(8):
        scenario = roll_scenario(rules, "convoy", seed, Order())
        assert balance_ratio(gen, scenario) >= 0.9
        assert scenario["balance"]["balanced"] is True
        assert scenario["balance"]["strengths"] == [gen.strength(s) for s in scenario["sides"]]


def test_strength_counts_merchants_half(rules: Rules) -> None:
    rng = random.Random(3)
    gen = ConvoyGenerator()
    side = gen.roll_side(rules, rng, Names(rules, rng), "british")
    expected = 0.0
    for ship in side["ships"]:
        value = ship["crew"] + ship["guns"] + ship["sail"]
        value += {"battle hardened": 1, "scurvy": -1}.get(ship["condition"], 0)
        expected += value / 2 if ship["kind"] == "merchant" else value
    assert gen.strength(side) == expected


@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_generated_edited_and_reread_round_trips(rules: Rules, tmp_path: Path, fmt: str) -> None:
    scenario = roll_scenario(rules, "convoy", 9)
    scenario["sides"][0]["ships"][0]["name"] = "Earl of <&> “Abergavenny”"
    scenario["sides"][1]["ships"][0]["guns"] = 2  # within what the marker table gives (0..3)
    scenario["sides"][1]["ships"][0]["override"] = ["guns"]  # the GM's own value, kept
    path = tmp_path / f"scenario.{fmt}"
    path.write_text(dump(scenario, fmt), encoding="utf-8")
    again = read_scenario(path, rules, "convoy")
    assert again == scenario
    assert dump(again, fmt) == path.read_text(encoding="utf-8")


def test_edited_file_errors_name_the_key_path_and_line(rules: Rules, tmp_path: Path) -> None:
    scenario = roll_scenario(rules, "convoy", 9)
    convoy, raiders = scenario["sides"]
    convoy["ships"][0]["size"] = "huge"
    convoy["ships"][1]["condition"] = "seasick"
    raiders["ships"][0]["kind"] = "merchant"
    raiders["ships"][1]["sail"] = -1
    grid = scenario["map"]
    grid["exit_edge"] = "up"
    col, row = grid["start"]["0"][0]
    grid["rows"][row] = grid["rows"][row][:col] + "~" + grid["rows"][row][col + 1 :]
    grid["start"]["1"][0] = [99, 0]
    path = tmp_path / "bad.yaml"
    path.write_text(dump(scenario, "yaml"), encoding="utf-8")
    with pytest.raises(DataError, match=r"sides\[0\]\.ships\[0\]\.size: 'huge'") as caught:
        read_scenario(path, rules, "convoy")
    text = "\n".join(caught.value.problems)
    assert (
        "sides[0].ships[0].size: 'huge' is not a ship size (allowed: small, medium, large)" in text
    )
    assert "sides[0].ships[1].condition: 'seasick' is not " in text and "(allowed: scurvy" in text
    assert "sides[1].ships[0].kind: merchants sail only on the convoy side" in text
    assert "sides[1].ships[1].sail: -1 is out of range 1..3 for sail" in text
    assert "map.exit_edge: 'up' is not " in text and "(allowed: east, west, north, south" in text
    assert f"map.start.0[0]: hex [{col}, {row}] is fog, not sea" in text
    assert "map.start.1[0]: hex [99, 0] is off the 22 × 16 map" in text
    assert all(p.startswith(f"{path}:") for p in caught.value.problems)
    lines = path.read_text(encoding="utf-8").splitlines()
    on_line = {int(p.split(":")[1]): p for p in caught.value.problems}
    for written in ("size: huge", "condition: seasick", "sail: -1", "exit_edge: up"):
        line = next(i for i, text in enumerate(lines, 1) if text.strip() == written)
        assert written.split(":")[0] in on_line[line], (written, on_line.get(line))


def test_sides_in_the_wrong_order_are_refused(rules: Rules, tmp_path: Path) -> None:
    scenario = roll_scenario(rules, "convoy", 5)
    scenario["sides"].reverse()
    path = tmp_path / "swapped.json"
    path.write_text(dump(scenario, "json"), encoding="utf-8")
    with pytest.raises(DataError, match=r"sides\[0\]\.role: side 0 must be the convoy"):
        read_scenario(path, rules, "convoy")


def test_a_convoy_without_merchants_is_refused(rules: Rules, tmp_path: Path) -> None:
    force = roll_force(rules, "convoy", 6)
    force["ships"] = [s for s in force["ships"] if s["kind"] == "warship"]
    path = tmp_path / "escort.json"
    path.write_text(json.dumps(force), encoding="utf-8")
    with pytest.raises(DataError, match=r"ships: a convoy needs at least one merchant"):
        read_force(path, rules, "convoy")


def test_force_file_round_trips(rules: Rules, tmp_path: Path) -> None:
    force = roll_force(rules, "convoy", 11)
    path = tmp_path / "force.json"
    path.write_text(json.dumps(force), encoding="utf-8")
    assert read_force(path, rules, "convoy") == force
