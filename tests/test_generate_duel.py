"""Duellists: the house character tables, invariants and checks of edited files."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from generator.errors import DataError
from generator.generate.duel import read_character, roll_character
from generator.loading import Rules
from generator.lookup import lookup


def test_character_shape_and_invariants(rules: Rules) -> None:
    divisor = int(rules.table("duel.attributes").params["hit_points_strength_divisor"])
    groups = list(rules.table("duel.expertise").params["groups"])
    for seed in range(300):
        person = roll_character(rules, seed)
        attrs = person["attributes"]
        assert set(attrs) == {"strength", "endurance", "dexterity", "wit"}
        assert all(3 <= v <= 18 for v in attrs.values())
        assert person["hit_points"] == attrs["endurance"] + math.ceil(attrs["strength"] / divisor)
        assert list(person["expertise"]) == groups
        assert all(5 <= v <= 15 for v in person["expertise"].values())
        assert person["style"] in ("none", "French", "Italian")
        assert 155 <= person["height_cm"] <= 185
        assert person["weapons"][0]["hand"] == "right"
        for weapon in person["weapons"]:
            stats = lookup(rules, "duel.weapons", {"weapon": weapon["name"]}).cell
            assert weapon["min_str"] == stats["min_str"] and weapon["adv_str"] == stats["adv_str"]
            assert weapon["weapon_bonus"] == stats["weapon_bonus"]
        assert person["armour"] in rules.table("duel.armour").axes[0].labels
        assert set(person["skills"]) == {"Seamanship", "Acrobatics", "Strategy", "Gunnery"}


def test_character_round_trips_and_bad_edits_are_refused(rules: Rules, tmp_path: Path) -> None:
    person = roll_character(rules, 7)
    path = tmp_path / "c.json"
    path.write_text(json.dumps(person, ensure_ascii=False), encoding="utf-8")
    assert read_character(path, rules) == person
    person["attributes"]["strength"] = "strong"
    person["weapons"][0]["name"] = "Lightsaber"
    path.write_text(json.dumps(person, indent=1), encoding="utf-8")
    with pytest.raises(DataError) as caught:
        read_character(path, rules)
    text = "\n".join(caught.value.problems)
    assert "attributes.strength: expected a whole number, found 'strong'" in text
    assert "weapons[0].name: 'Lightsaber' is not a weapon (allowed: Dagger" in text
    assert all(p.startswith(f"{path}:") for p in caught.value.problems)
