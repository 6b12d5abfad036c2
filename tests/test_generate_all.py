"""Every ruleset's generator: repeatable, round-trips, unique names, honest about house tables."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from generator.errors import InputError
from generator.generate.base import get_generator
from generator.generate.scenario import Order, dump, read_scenario, roll_scenario
from generator.loading import Rules
from generator.rulesets import ruleset_ids

RULESETS = list(ruleset_ids())


def _names(scenario: dict[str, Any]) -> list[str]:
    out = []
    units = get_generator(scenario["ruleset"]).units
    for side in scenario["sides"]:
        for unit in side[units]:
            out.append(unit["name"])
            for officer in unit.get("officers", []):
                out.append(officer["name"])
            for key in ("captain",):
                if isinstance(unit.get(key), str):
                    out.append(unit[key])
    return out


@pytest.mark.parametrize("ruleset", RULESETS)
def test_scenarios_are_repeatable_and_differ_by_seed(rules: Rules, ruleset: str) -> None:
    first = roll_scenario(rules, ruleset, 1805)
    assert first == roll_scenario(rules, ruleset, 1805)
    assert first != roll_scenario(rules, ruleset, 1806)
    assert first["ruleset"] == ruleset and first["seed"] == 1805
    assert len(first["sides"]) == 2
    for key in ("title", "wind", "weather", "setup", "victory", "special_rules"):
        assert key in first, key


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_name_twice_in_a_scenario(rules: Rules, ruleset: str) -> None:
    for seed in range(30):
        names = _names(roll_scenario(rules, ruleset, seed))
        assert len(names) == len(set(names)), (seed, names)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_house_tables_used_are_listed_and_are_house_tables(rules: Rules, ruleset: str) -> None:
    scenario = roll_scenario(rules, ruleset, 3)
    assert scenario["house_tables"], "every generator rolls on some house table"
    for table_id in scenario["house_tables"]:
        assert rules.table(table_id).house, table_id


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_scenarios_round_trip_through_files(
    rules: Rules, tmp_path: Path, ruleset: str, fmt: str
) -> None:
    scenario = roll_scenario(rules, ruleset, 21)
    path = tmp_path / f"s.{fmt}"
    path.write_text(dump(scenario, fmt), encoding="utf-8")
    again = read_scenario(path, rules, ruleset)
    assert again == scenario
    assert dump(again, fmt) == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_balanced_scenarios_are_within_ten_percent(rules: Rules, ruleset: str) -> None:
    gen = get_generator(ruleset)
    for seed in range(3):
        scenario = roll_scenario(rules, ruleset, seed, Order())
        strengths = [gen.strength(side) for side in scenario["sides"]]
        assert min(strengths) >= 0.9 * max(strengths), strengths
        assert scenario["balance"]["measure"] == gen.strength_measure


def test_a_scenario_file_of_another_ruleset_is_refused(rules: Rules, tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text(dump(roll_scenario(rules, "duel", 1), "json"), encoding="utf-8")
    with pytest.raises(
        InputError,
        match=r"s\.json: this is a duel scenario; --from needs a tactical scenario \(make one with",
    ):
        read_scenario(path, rules, "tactical")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_same_bytes_in_other_processes_and_hash_seeds(ruleset: str) -> None:
    outputs = set()
    for hash_seed in ("0", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        proc = subprocess.run(
            [sys.executable, "-m", "generator", "scenario", ruleset, "--seed", "5", "--yaml"],
            capture_output=True,
            env=env,
            check=True,
        )
        outputs.add(proc.stdout)
    assert len(outputs) == 1
