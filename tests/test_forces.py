"""Balance the sides and build a side to a strength (generator.generate.building, and the
application layer's generator.app.forces): on every ruleset, from a seed, within the rules'
limits, refused in words, each change checked whole and kept in one transaction."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from generator.app.forces import balance_game_night, build_game_night, read_strength
from generator.app.inputs import load_rules
from generator.app.saved import open_store
from generator.app.store import Conflict, NotFound, Store
from generator.errors import InputError
from generator.generate import building
from generator.generate.base import get_generator
from generator.generate.common import MAX_SHIPS
from generator.generate.scenario import (
    BALANCE_TOLERANCE,
    Order,
    checked_scenario,
    roll_scenario,
)
from generator.loading import Rules
from generator.ruleset.model import Scenario, units_of

SHIPS = ["convoy", "flob", "high-seas", "impulse", "tactical"]
EVERY = [*SHIPS, "duel"]


@pytest.fixture(scope="module")
def rules() -> Rules:
    return load_rules(None)


def rolled(rules: Rules, ruleset: str, seed: int = 5) -> Scenario:
    return roll_scenario(rules, ruleset, seed)


def weakened(scenario: Scenario) -> Scenario:
    """Return a copy of `scenario` whose second side is far weaker: one ship, or a
    duellist of the least attributes."""
    weak = copy.deepcopy(scenario)
    side = weak["sides"][1]
    if "characters" in side:
        person = side["characters"][0]
        person["attributes"] = dict.fromkeys(person["attributes"], 1)
    else:
        del side["ships"][1:]
    return weak


def strength_of(rules: Rules, scenario: Scenario, side: int) -> float:
    return get_generator(str(scenario["ruleset"])).strength(scenario["sides"][side])


@pytest.mark.parametrize("ruleset", SHIPS)
def test_a_side_is_built_near_the_strength_asked_and_checked(rules: Rules, ruleset: str) -> None:
    scenario = rolled(rules, ruleset)
    before = copy.deepcopy(scenario)
    asked = round(strength_of(rules, scenario, 0) * 0.6)
    changed = building.build_side(rules, scenario, 0, asked, seed=3)
    made = checked_scenario(rules, changed.scenario)
    reached = strength_of(rules, made, 0)
    assert changed.changed
    assert abs(reached - asked) <= BALANCE_TOLERANCE * asked
    assert f"to strength {reached:g}" in changed.said[0]
    assert f"(asked {asked:g})" in changed.said[0] and "from seed 3" in changed.said[0]
    # the other side, the navy, the year and the place are as they were; the scenario
    # given is not changed
    assert made["sides"][1] == before["sides"][1]
    assert made["sides"][0]["navy"] == before["sides"][0]["navy"]
    assert made.get("year") == before.get("year")
    assert made["title"] == before["title"]
    assert scenario == before
    assert made["balance"]["strengths"][0] == round(reached, 2)
    # the same seed builds the same side again
    again = building.build_side(rules, scenario, 0, asked, seed=3)
    assert again.scenario == changed.scenario and again.said == changed.said


@pytest.mark.parametrize("ruleset", EVERY)
def test_the_chosen_side_is_rolled_again_until_the_sides_are_even(
    rules: Rules, ruleset: str
) -> None:
    gen = get_generator(ruleset)
    weak = weakened(rolled(rules, ruleset))
    assert building._ratio(*(gen.strength(s) for s in weak["sides"])) < 1 - BALANCE_TOLERANCE
    changed = building.balance_sides(rules, weak, 1, seed=42)
    made = checked_scenario(rules, changed.scenario)
    assert changed.changed
    assert made["sides"][0] == weak["sides"][0]
    assert made["sides"][1]["navy"] == weak["sides"][1]["navy"]
    if gen.mirrored and gen.units == "ships":  # as many ships as the other side
        assert len(units_of(made["sides"][1])) == len(units_of(made["sides"][0]))
    balance = made["balance"]
    assert balance["balanced"] and 1 <= balance["attempt"] <= balance["rolls"]
    ratio = building._ratio(gen.strength(made["sides"][0]), gen.strength(made["sides"][1]))
    assert ratio >= 1 - BALANCE_TOLERANCE
    assert changed.said[0].startswith("Rolled ")
    assert f"roll {balance['attempt']} of seed 42" in changed.said[0]
    assert changed.said[0].endswith("within 10 %.")
    assert changed.said[-1].startswith("The setting was rolled again for these sides")
    assert building.balance_sides(rules, weak, 1, seed=42).scenario == changed.scenario


def test_when_no_roll_comes_within_ten_percent_the_words_say_so(rules: Rules) -> None:
    scenario = copy.deepcopy(rolled(rules, "impulse"))
    for ship in scenario["sides"][0]["ships"]:
        ship["guns"] = 500  # beyond any roll of the other side
    changed = building.balance_sides(rules, scenario, 1, seed=42)
    balance = changed.scenario["balance"]
    assert not balance["balanced"] and balance["rolls"] == 200
    # as the command line's balance warning says it, and the briefing prints it
    assert changed.said[0] == balance["warning"]
    assert changed.said[0].startswith("Uneven sides: ")
    assert changed.said[0].endswith(
        "more than 10 % apart; none of 200 rolls of seed 42 came closer."
    )
    assert changed.scenario["sides"][0] == scenario["sides"][0]


def test_sides_within_ten_percent_are_left_as_they_are(rules: Rules) -> None:
    even = roll_scenario(rules, "convoy", 7, Order())  # balanced as the command line does
    assert even["balance"]["balanced"]
    changed = building.balance_sides(rules, even, 1, seed=1)
    assert not changed.changed and changed.scenario is even
    assert "already within 10 %" in changed.said[0] and "nothing was changed" in changed.said[0]


def test_the_setting_keeps_its_wind_and_says_what_else_changed(rules: Rules) -> None:
    scenario = rolled(rules, "impulse", seed=3)
    changed = building.build_side(rules, scenario, 1, 150, seed=5)
    made = changed.scenario
    assert made["wind"] == scenario["wind"]
    assert made["title"] == scenario["title"]
    words = changed.said[-1]
    assert "keeping the year, the place, the wind" in words
    # the briefing's lines name the new side's ships, not the old ones
    names = {ship["name"] for ship in made["sides"][1]["ships"]}
    gone = {ship["name"] for ship in scenario["sides"][1]["ships"]} - names
    lines = " ".join([*made["setup"], *made["special_rules"]])
    assert not any(name in lines for name in gone)


def test_a_duels_title_names_the_duellist_rolled_again(rules: Rules) -> None:
    changed = building.balance_sides(rules, weakened(rolled(rules, "duel")), 1, seed=42)
    person = changed.scenario["sides"][1]["characters"][0]["name"]
    assert changed.scenario["title"].endswith(f"against {person}")


def test_a_title_of_the_gms_own_is_kept(rules: Rules) -> None:
    scenario = copy.deepcopy(rolled(rules, "impulse", seed=3))
    scenario["title"] = "The Battle of the Fog"
    changed = building.build_side(rules, scenario, 0, 120, seed=2)
    assert changed.scenario["title"] == "The Battle of the Fog"
    assert "your title" in changed.said[-1]


def test_a_side_is_never_built_beyond_the_ships_a_side_may_be_asked(rules: Rules) -> None:
    scenario = rolled(rules, "impulse", seed=3)
    gen = get_generator("impulse")
    one = building.roll_side_again(rules, gen, scenario, 1, 1, MAX_SHIPS)
    most = gen.strength(one)
    changed = building.build_side(rules, scenario, 1, most * 1.05, seed=1)
    assert len(changed.scenario["sides"][1]["ships"]) <= MAX_SHIPS
    assert "1 to 16 ships" in changed.said[0]


def test_a_side_is_never_built_beyond_the_room_the_setting_has(
    rules: Rules, monkeypatch: pytest.MonkeyPatch
) -> None:
    # more ships than a side may be asked for, to reach the convoy map's start hexes
    monkeypatch.setattr(building, "MAX_SHIPS", 80)
    monkeypatch.setattr(building, "ROLLS_PER_SIZE", 2)
    scenario = rolled(rules, "convoy")
    with pytest.raises(InputError, match=r"gave 5 to \d+; the setting has no room for \d+ ships"):
        building.build_side(rules, scenario, 1, 500, seed=3)
    changed = building.build_side(rules, scenario, 1, 150, seed=3)
    made: dict[str, Any] = dict(checked_scenario(rules, changed.scenario))
    hexes = made["map"]["start"]["1"]
    assert len(hexes) == len(changed.scenario["sides"][1]["ships"]) > MAX_SHIPS


@pytest.mark.parametrize(
    ("ruleset", "side", "strength", "words"),
    [
        ("impulse", 0, 99999, r"strength 99999: out of reach for the .* squadron: 192 rolls "),
        ("impulse", 0, 0.5, r"strength 0.5: out of reach for the .* squadron: \d+ rolls of 1 to 1"),
        ("impulse", 2, 100, r"side 2: a scenario's sides are 0 \(the first\) to 1"),
        ("impulse", 0, -3, r"strength -3: a number above 0"),
        ("impulse", 0, float("nan"), r"strength nan: a number above 0"),
        ("duel", 0, 20, r"duel: a side is one duellist; only a side of ships is built"),
    ],
)
def test_a_strength_or_side_the_rules_cannot_meet_is_refused_in_words(
    rules: Rules, ruleset: str, side: int, strength: float, words: str
) -> None:
    scenario = rolled(rules, ruleset)
    before = copy.deepcopy(scenario)
    with pytest.raises(InputError, match=words):
        building.build_side(rules, scenario, side, strength, seed=1)
    assert scenario == before


def test_a_balance_of_a_side_there_is_not_is_refused(rules: Rules) -> None:
    with pytest.raises(InputError, match=r"side 5: a scenario's sides are 0"):
        building.balance_sides(rules, rolled(rules, "convoy"), 5, seed=1)


# --- the application layer: kept whole, in one transaction -----------------------------


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return open_store(tmp_path)


def test_a_built_side_is_kept_as_a_new_version(rules: Rules, store: Store) -> None:
    saved = store.add_scenario(dict(rolled(rules, "impulse", seed=3)))
    done = build_game_night(store, saved.id, 1, 150, seed=5, version=saved.version)
    assert done.changed and done.saved.version == saved.version + 1
    assert store.scenario(saved.id).scenario == done.saved.scenario
    alike = building.build_side(rules, rolled(rules, "impulse", seed=3), 1, 150, seed=5)
    assert done.saved.scenario == alike.scenario
    assert done.said[0].startswith("Built the ")


def test_a_stale_version_or_a_refusal_keeps_nothing(rules: Rules, store: Store) -> None:
    saved = store.add_scenario(dict(rolled(rules, "impulse", seed=3)))
    build_game_night(store, saved.id, 0, 150, seed=5)
    kept = store.scenario(saved.id)
    with pytest.raises(Conflict, match=r"changed elsewhere \(version 2, not 1\): reload it"):
        balance_game_night(store, saved.id, 1, seed=9, version=saved.version)
    with pytest.raises(InputError, match="out of reach"):
        build_game_night(store, saved.id, 0, 99999, seed=5)
    assert store.scenario(saved.id) == kept
    with pytest.raises(NotFound, match="game night 99: there is no such game night"):
        build_game_night(store, 99, 0, 150, seed=5)


def test_even_sides_are_not_kept_again(rules: Rules, store: Store) -> None:
    saved = store.add_scenario(dict(roll_scenario(rules, "convoy", 7, Order())))
    done = balance_game_night(store, saved.id, seed=1)
    assert not done.changed and done.saved == saved
    assert store.scenario(saved.id).version == saved.version


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        ("abc", r"strength 'abc': a number, e.g. 15"),
        ("0", r"strength 0: a number above 0, at most 1,000,000"),
        ("1e9", r"strength 1e\+09: a number above 0, at most 1,000,000"),
        ("inf", r"strength inf: a number above 0"),
    ],
)
def test_a_strength_typed_is_read_or_refused(typed: str, words: str) -> None:
    with pytest.raises(InputError, match=words):
        read_strength(typed)
    assert read_strength(" 14.5 ") == 14.5
