"""Form Line of Battle squadrons and scenarios: house tables, invariants, odds, round trips."""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from generator.dice import distribution
from generator.errors import DataError
from generator.generate.common import roll_on
from generator.generate.flob import CREW_MODIFIERS, OFFICER_MODIFIERS, FlobGenerator
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
from generator.ruleset.flob import RATING_FIELDS

SHIP_KEYS = {
    "name",
    "rate",
    "guns",
    "rig",
    "movement_class",
    "gunnery_class",
    "broadside",
    "hull",
    "masts",
    "mast_rating",
    "crew_parties",
    "crew_quality",
    "captain",
    "captain_quality",
    "flagship",
}


def _results(rules: Rules, table_id: str) -> list[str]:
    return [cell["result"] for cell in rules.table(table_id).cells]


def _row(rules: Rules, rate: str) -> Any:
    return lookup(rules, "flob.ship-ratings", {"rate": rate}).cell


def _overlap(a: dict[str, int], b: dict[str, int]) -> bool:
    return (
        a["x_cm"] < b["x_cm"] + b["w_cm"]
        and b["x_cm"] < a["x_cm"] + a["w_cm"]
        and a["y_cm"] < b["y_cm"] + b["h_cm"]
        and b["y_cm"] < a["y_cm"] + a["h_cm"]
    )


def test_force_has_the_promised_shape(rules: Rules) -> None:
    force = roll_force(rules, "flob", 1805)
    assert force["ruleset"] == "flob" and force["seed"] == 1805
    assert {"name", "navy", "admiral", "ships"} <= set(force)
    assert set(force["admiral"]) == {"name", "quality"}
    for ship in force["ships"]:
        assert set(ship) == SHIP_KEYS
        assert isinstance(ship["flagship"], bool)
        for key in ("guns", "movement_class", "broadside", "hull", "masts", "mast_rating"):
            assert isinstance(ship[key], int), key


def test_squadron_invariants_over_many_seeds(rules: Rules) -> None:
    low, high = rules.table("flob.squadron-composition").params["ships"]
    rates = list(rules.table("flob.ship-ratings").axes[0].labels)
    crews = _results(rules, "flob.crew-quality")
    captains = _results(rules, "flob.captain-quality")
    admirals = _results(rules, "flob.admiral-quality")
    seen_rates: Counter[str] = Counter()
    for seed in range(300):
        force = roll_force(rules, "flob", seed)
        ships = force["ships"]
        assert low <= len(ships) <= high
        assert force["admiral"]["quality"] in admirals
        flagships = [s for s in ships if s["flagship"]]
        assert len(flagships) == 1
        rate_numbers = [_row(rules, s["rate"])["rate_number"] for s in ships]
        assert _row(rules, flagships[0]["rate"])["rate_number"] == min(rate_numbers)
        for ship in ships:
            assert ship["rate"] in rates
            seen_rates[ship["rate"]] += 1
            row = _row(rules, ship["rate"])
            assert {k: ship[k] for k in RATING_FIELDS} == {k: row[k] for k in RATING_FIELDS}
            assert ship["crew_quality"] in crews
            assert ship["captain_quality"] in captains
        people = [s["captain"] for s in ships] + [force["admiral"]["name"]]
        names = [s["name"] for s in ships]
        assert len(set(names)) == len(names)
        assert len(set(people)) == len(people)
    assert set(seen_rates) == set(rates)


def test_ship_ratings_agree_with_the_quick_reference(rules: Rules) -> None:
    table = rules.table("flob.ship-ratings")
    assert table.house and table.note
    rigs = rules.table("flob.sailing-movement").axes[1].labels
    gunnery = rules.table("flob.range-modifiers").axes[1].labels
    unrated = rules.table("flob.boarding-initiation-modifiers").params["unrated_rate"]
    rows = [(label, table.cell(i)) for i, label in enumerate(table.axes[0].labels)]
    for number, (label, row) in enumerate(rows, start=1):
        assert row["rate_number"] == (unrated if label == "Unrated" else number)
        assert row["rig"] in rigs
        assert row["gunnery_class"] in gunnery
        assert row["movement_class"] in (1, 2)
        # the range band column of the sheet for this rate (1st-3rd, 4th or smaller)
        band = lookup(rules, "flob.range-bands", {"range": "Short", "rate": label})
        assert row["range_band"] == band.matched["rate"]
        assert row["masts"] == (2 if label == "Unrated" else 3)
        assert row["broadside"] >= row["hull"]
    # a larger rate is never weaker or smaller than a lesser one
    for (_, big), (_, small) in pairwise(rows):
        for key in ("guns", "broadside", "hull", "mast_rating", "crew_parties"):
            assert big[key] >= small[key], key
        assert big["movement_class"] <= small["movement_class"]
    composition = rules.table("flob.squadron-composition")
    assert {cell["rate"] for cell in composition.cells} == set(table.axes[0].labels)


def test_quality_tables_use_the_sheets_modifiers(rules: Rules) -> None:
    tactical = rules.table("flob.tactical-modifiers")
    for cell in rules.table("flob.crew-quality").cells:
        name = cell["result"]
        expected = CREW_MODIFIERS.get(name, 0)
        if name in ("Elite", "Veteran", "Poor"):
            assert tactical.modifier(f"{name.lower()}-crew").value == expected
        assert cell["modifier"] == expected
        footnote = rules.table("flob.sailing-movement").params["footnote_crews"]
        assert cell["beating_option"] == (name.lower() in footnote)
    skill = rules.table("flob.tacking-modifiers").modifier("captain-skill").by
    strike = rules.table("flob.strike-modifiers")
    for table_id in ("flob.captain-quality", "flob.admiral-quality"):
        for cell in rules.table(table_id).cells:
            name = cell["result"]
            assert cell["modifier"] == skill[name.lower()] == OFFICER_MODIFIERS.get(name, 0)
            if name != "Average":
                assert strike.modifier(f"admiral-{name.lower()}").value == cell["modifier"]


def test_weather_effects_are_the_sheets(rules: Rules) -> None:
    printed = rules.table("flob.tactical-modifiers").modifier("weather").value
    assert printed == "-1 or -2 or x ½"
    options = [part.strip() for part in str(printed).split("or")]
    for cell in rules.table("flob.weather").cells:
        assert cell["gunnery"] == "none" or cell["gunnery"] in options
        assert cell["gale"] == (cell["result"] == "Gale")
    assert rules.table("flob.tacking-modifiers").modifier("gale").value == -1


@pytest.mark.parametrize(
    "table_id",
    [
        "flob.squadron-composition",
        "flob.crew-quality",
        "flob.captain-quality",
        "flob.admiral-quality",
        "flob.wind",
        "flob.weather",
    ],
)
def test_rolled_tables_give_results_with_their_chances(rules: Rules, table_id: str) -> None:
    rng = random.Random(table_id)
    rolls = 6000
    observed = Counter(roll_on(rules, table_id, rng).result for _ in range(rolls))
    table = rules.table(table_id)
    (axis,) = table.axes
    dist = distribution(axis.dice or "")
    for value, cell in zip(axis.values, table.cells, strict=True):
        chance = float(sum((p for v, p in dist.items() if value.contains(v)), Fraction(0)))
        expected = chance * rolls
        sigma = (expected * (1 - chance)) ** 0.5
        assert abs(observed[cell["result"]] - expected) < 5 * sigma, (cell["result"], expected)


def test_strength_follows_the_measure(rules: Rules) -> None:
    gen = FlobGenerator()
    side = roll_force(rules, "flob", 7)
    expected = OFFICER_MODIFIERS.get(side["admiral"]["quality"], 0)
    for ship in side["ships"]:
        row = _row(rules, ship["rate"])
        expected += row["broadside"] + row["hull"] + row["masts"] * row["mast_rating"]
        expected += row["crew_parties"] + CREW_MODIFIERS.get(ship["crew_quality"], 0)
        expected += OFFICER_MODIFIERS.get(ship["captain_quality"], 0)
    assert gen.strength(side) == expected
    assert "Broadside + Hull" in gen.strength_measure


def test_same_seed_same_output_different_seed_different(rules: Rules) -> None:
    assert roll_scenario(rules, "flob", 42) == roll_scenario(rules, "flob", 42)
    assert roll_scenario(rules, "flob", 42) != roll_scenario(rules, "flob", 43)


def test_balanced_scenarios_are_within_ten_percent(rules: Rules) -> None:
    gen = FlobGenerator()
    for seed in range(5):
        scenario = roll_scenario(rules, "flob", seed, Order())
        assert balance_ratio(gen, scenario) >= 0.9
        assert scenario["balance"]["balanced"] is True
        assert scenario["balance"]["strengths"] == [gen.strength(s) for s in scenario["sides"]]


def test_scenario_has_everything_a_briefing_needs(rules: Rules) -> None:
    scenario = roll_scenario(rules, "flob", 3)
    assert len(scenario["sides"]) == 2
    assert scenario["sides"][0]["navy"] != scenario["sides"][1]["navy"]
    assert scenario["title"].startswith("Action off ")
    assert scenario["wind"]["direction"] in _results(rules, "flob.wind")
    assert scenario["wind"]["strength"]
    assert scenario["weather"]["result"] in _results(rules, "flob.weather")
    assert scenario["map"]["kind"] == "table"
    assert scenario["map"]["wind_from"] == scenario["wind"]["from_bearing"]
    assert scenario["setup"] and scenario["victory"] and scenario["special_rules"]
    assert any("strike" in line for line in scenario["victory"])
    assert set(scenario["house_tables"]) == set(FlobGenerator.house_tables)
    assert all(rules.table(t).house for t in scenario["house_tables"])
    for side in scenario["sides"]:
        flagship = next(s for s in side["ships"] if s["flagship"])
        admiral = side["admiral"]["name"]
        assert any(
            admiral in line and flagship["name"] in line for line in scenario["special_rules"]
        )


def test_layouts_stay_on_the_table_and_clear_of_deployment(rules: Rules) -> None:
    params = rules.table("flob.scenario").params
    kinds: Counter[str] = Counter()
    for seed in range(200):
        scenario = roll_scenario(rules, "flob", seed)
        layout = scenario["map"]
        width, height = layout["width_cm"], layout["height_cm"]
        assert (width, height) == (params["table_width_cm"], params["table_height_cm"])
        zones = layout["deployment"]
        assert [z["side"] for z in zones] == [0, 1]
        assert not _overlap(zones[0], zones[1])
        boxes = [*zones, *layout["features"]]
        for box in boxes:
            assert box["x_cm"] >= 0 and box["y_cm"] >= 0 and box["w_cm"] > 0 and box["h_cm"] > 0
            assert box["x_cm"] + box["w_cm"] <= width and box["y_cm"] + box["h_cm"] <= height
        for feature in layout["features"]:
            kinds[feature["type"]] += 1
            assert all(not _overlap(feature, zone) for zone in zones), (seed, feature)
            others = [f for f in layout["features"] if f is not feature]
            assert all(not _overlap(feature, other) for other in others), (seed, feature)
        labels = [f["label"] for f in layout["features"]]
        assert len(set(labels)) == len(labels)
        # the weather gauge goes to the side whose zone the wind blows from
        bearing = scenario["wind"]["from_bearing"]
        gauge = next(line for line in scenario["setup"] if "weather gauge" in line)
        if bearing % 180 == 0:
            assert "neither side" in gauge
        else:
            east = next(z["side"] for z in zones if z["x_cm"] > 0)
            upwind = east if bearing < 180 else 1 - east
            assert f"{scenario['sides'][upwind]['name']} has the weather gauge" in gauge
    assert set(kinds) == {"island", "shoal", "coast"}


@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_generated_edited_and_reread_round_trips(rules: Rules, tmp_path: Path, fmt: str) -> None:
    scenario = roll_scenario(rules, "flob", 9)
    scenario["sides"][0]["ships"][0]["name"] = "Bellerophon <&> “Billy Ruffian”"
    scenario["sides"][1]["ships"][0]["hull"] = 9
    scenario["sides"][1]["ships"][0]["override"] = ["hull"]  # the GM's own value, kept
    path = tmp_path / f"scenario.{fmt}"
    path.write_text(dump(scenario, fmt), encoding="utf-8")
    again = read_scenario(path, rules, "flob")
    assert again == scenario
    assert dump(again, fmt) == path.read_text(encoding="utf-8")


def test_edited_file_errors_name_the_key_path_and_line(rules: Rules, tmp_path: Path) -> None:
    scenario = roll_scenario(rules, "flob", 9)
    scenario["sides"][1]["ships"][1]["hull"] = "lots"
    scenario["sides"][0]["ships"][1]["rate"] = "Galleon"
    scenario["sides"][0]["ships"][1]["flagship"] = True
    scenario["sides"][1]["admiral"]["quality"] = "Drunk"
    zone = scenario["map"]["deployment"][0]
    scenario["map"]["features"].append(
        {"type": "island", "label": "Rock", "x_cm": zone["x_cm"], "y_cm": zone["y_cm"]}
        | {"w_cm": 5, "h_cm": 5}
    )
    feature = len(scenario["map"]["features"]) - 1
    path = tmp_path / "bad.yaml"
    path.write_text(dump(scenario, "yaml"), encoding="utf-8")
    with pytest.raises(DataError, match="expected a whole number") as caught:
        read_scenario(path, rules, "flob")
    text = "\n".join(caught.value.problems)
    assert "sides[1].ships[1].hull: expected a whole number, found 'lots'" in text
    assert "sides[0].ships[1].rate: 'Galleon' is not a rate (allowed: 1st, 2nd, 3rd" in text
    assert "sides[0].ships: a squadron has exactly one flagship, found 2" in text
    assert "sides[1].admiral.quality: 'Drunk' is not " in text and "(allowed: Inept" in text
    assert f"map.features[{feature}]: overlaps the deployment zone of side 0" in text
    assert all(p.startswith(f"{path}:") for p in caught.value.problems)
    lines = path.read_text(encoding="utf-8").splitlines()
    hull = next(p for p in caught.value.problems if ".hull:" in p)
    number = int(hull.split(":")[1])
    assert lines[number - 1].strip() == "hull: lots"


def test_force_file_round_trips(rules: Rules, tmp_path: Path) -> None:
    force = roll_force(rules, "flob", 11)
    path = tmp_path / "squadron.json"
    path.write_text(json.dumps(force), encoding="utf-8")
    assert read_force(path, rules, "flob") == force
