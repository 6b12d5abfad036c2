"""A house table is marked by ``house: true``, never by its title: the listings, the lookups
and the resolvers' texts add "(house table)" after the title, the sheets print the title."""

from __future__ import annotations

import json

import pytest

from generator.loading import Rules
from tests.conftest import run

MARK = "(house table)"


def test_no_title_in_the_data_says_house_table(rules: Rules) -> None:
    tables = [t for r in rules.rulesets.values() for t in r.tables.values()]
    assert [t.id for t in tables if MARK in t.title.casefold()] == []
    assert sum(t.house for t in tables) == 54  # the project's own tables, all marked
    for table in tables:
        expected = f"{table.title} {MARK}" if table.house else table.title
        assert table.marked_title == expected, table.id


def test_the_tables_listing_marks_a_house_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "tables", "tactical.weather")
    assert code == 0 and "tactical.weather: Weather (house table)" in out
    code, out, _ = run(capsys, "tables", "tactical.weather", "--json")
    assert code == 0 and json.loads(out)["title"] == "Weather (house table)"
    code, out, _ = run(capsys, "tables", "tactical", "--json")
    titles = {t["id"]: t["title"] for t in json.loads(out)["tables"]}
    assert titles["tactical.weather"] == "Weather (house table)"
    assert titles["tactical.broadside"] == "Broadside Table"


def test_a_lookup_and_a_resolver_name_a_house_table_as_such(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "lookup", "duel.hit-location", "roll=3")
    assert code == 0 and out.startswith("Hit location (house table) (duel.hit-location)")
    code, out, _ = run(
        capsys,
        "resolve",
        "duel.attack",
        "expertise=10",
        "weapon=rapier",
        "strength=10",
        "--seed",
        "3",
    )
    assert code == 0
    assert "Hit location (house table): 1d20" in out
    assert "Weapons (house table) (duel.weapons), weapon Rapier" in out
