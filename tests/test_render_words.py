"""A table in words for paper (generator/render/words.py): its title, table ids in a text as
quoted titles, and the line naming a scenario's house tables on the sheets players hold."""

from __future__ import annotations

import re

from generator.generate.scenario import roll_scenario
from generator.loading import Rules
from generator.render.words import (
    game_name,
    game_title,
    house_table_titles,
    house_tables_line,
    quoted_title,
    table_title,
    table_titles,
)


def test_a_sheet_prints_a_house_tables_title_without_the_mark(rules: Rules) -> None:
    weather = rules.table("tactical.weather")
    assert weather.house and weather.marked_title == "Weather (house table)"
    assert table_title(weather) == "Weather" and quoted_title(weather) == "“Weather”"
    blocking = rules.table("tactical.cards")
    assert not blocking.house and table_title(blocking) == blocking.title


def test_table_ids_in_a_text_become_quoted_titles(rules: Rules) -> None:
    text = "Roll on flob.weather, then tactical.scenario; map.start stays."
    assert table_titles(rules, text) == "Roll on “Weather”, then “Scenario”; map.start stays."


def test_the_house_tables_are_named_by_their_titles(rules: Rules) -> None:
    ids = ["tactical.fleet-composition", "tactical.scenario", "tactical.weather"]
    assert all(rules.table(t).house for t in ids)
    assert house_tables_line(rules, ids) == (
        "House tables used: Fleet Composition, Scenario, Weather."
    )


def test_each_title_once_and_none_for_no_tables(rules: Rules) -> None:
    # two rulesets' scenario tables share a title: it is named once
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
            assert rules.table(table_id).title in line


def test_a_sheet_names_the_game_by_its_title_or_its_short_name(rules: Rules) -> None:
    games = rules.rulesets
    assert game_title(games["flob"]) == "Form Line of Battle 5.1"  # "(quick reference)" off
    assert game_title(games["convoy"]) == "Convoy: warships against merchants"
    assert game_title(games["duel"]) == "Duelling"
    # a card's corner and the playsheet's footer
    assert game_name(games["tactical"]) == "Tactical Sea Combat"
    assert game_name(games["convoy"]) == "Convoy"
    assert game_name(games["flob"]) == "Form Line of Battle 5.1"
