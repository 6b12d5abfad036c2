"""The line naming a scenario's house tables on the sheets the players hold."""

from __future__ import annotations

import re

from generator.generate.scenario import roll_scenario
from generator.loading import Rules
from generator.render.house import house_table_titles, house_tables_line


def test_the_house_tables_are_named_by_their_short_titles(rules: Rules) -> None:
    ids = ["tactical.fleet-composition", "tactical.scenario", "tactical.weather"]
    assert [rules.table(t).title for t in ids] == [
        "Fleet Composition (house table)",
        "Scenario (house table)",
        "Weather (house table)",
    ]
    assert house_tables_line(rules, ids) == (
        "House tables used: Fleet Composition, Scenario, Weather."
    )


def test_each_title_once_and_none_for_no_tables(rules: Rules) -> None:
    # two rulesets' scenario tables share a short title: it is named once
    ids = ["flob.scenario", "convoy.scenario", "flob.weather"]
    assert house_table_titles(rules, ids) == ["Scenario", "Weather"]
    assert house_tables_line(rules, []) == ""


def test_every_scenarios_line_names_every_table(rules: Rules) -> None:
    for ruleset in ("tactical", "flob", "high-seas", "impulse", "convoy", "duel"):
        scenario = roll_scenario(rules, ruleset, 3)
        line = house_tables_line(rules, scenario["house_tables"])
        assert line.startswith("House tables used: ") and line.endswith(".")
        assert "(house table)" not in line and not re.search(r"\b[a-z-]+\.[a-z]", line)
        for table_id in scenario["house_tables"]:
            assert rules.table(table_id).title.split(" (")[0] in line
