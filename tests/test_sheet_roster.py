"""The roster: every ruleset's sides on both papers, the biggest forces, one side and a blank
roster; read back with pypdf."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from generator.errors import InputError
from generator.generate.base import get_generator
from generator.generate.scenario import dump, read_scenario, roll_scenario
from generator.loading import Rules
from generator.render.kinds import roster
from generator.render.sheets import render_sheet, sheet_html
from tests.fullest import fullest
from tests.pdfs import PAGE_SIZES, colours, flat, page_size, read, runs, smallest_text, squeeze

LONG_NAME = "Nuestra Señora de la Santísima Trinidad <&>"
RULESETS = ("tactical", "flob", "high-seas", "impulse", "convoy")
BIGGEST = {"tactical": 14, "flob": 11, "high-seas": 64, "impulse": 12, "convoy": 5}


def key_values(ruleset: str, ship: dict[str, Any]) -> list[str]:
    """Values a unit's row must show."""
    if ruleset == "tactical":
        return [str(ship["captain"]), str(ship["class"]), str(ship["traits"][0]["result"])]
    if ruleset == "flob":
        return [f"{ship['captain']} ({ship['captain_quality']})", str(ship["rig"]), ship["rate"]]
    if ruleset == "high-seas":
        b = ship["batteries"]
        captain = ship["officers"][0]
        return [
            f"{b['port']} / {b['starboard']} / {b['stern']} / {b['chasers']}",
            f"Captain {captain['name']} (HP {captain['hit_points']})",
            str(ship["type"]),
        ]
    if ruleset == "impulse":
        return [str(ship["captain"]), str(ship["class"]), str(ship["morale"])]
    return [str(ship["condition"]).capitalize(), str(ship["kind"]).capitalize()]


def strength(ruleset: str, side: dict[str, Any]) -> str:
    """A side's strength as printed: a whole number."""
    return roster.strength_text(get_generator(ruleset).strength(side))


def check_roster(reader: PdfReader, scenario: dict[str, Any], paper: str) -> str:
    assert 1 <= len(reader.pages) <= 2
    assert all(page_size(reader, i) == PAGE_SIZES[paper] for i in range(len(reader.pages)))
    content = flat(reader)
    ruleset = scenario["ruleset"]
    assert f"Roster — {scenario['title']}" in content and f"seed {scenario['seed']}" in content
    for side in scenario["sides"]:
        assert side["name"] in content
        word = roster.roster_spec(ruleset).word
        assert f"Strength of the {word}: {strength(ruleset, side)}" in content
        # a long name or value may wrap, at a space or its own hyphen
        for ship in side["ships"]:
            assert squeeze(ship["name"]) in squeeze(content), ship["name"]
            for value in key_values(ruleset, ship):
                assert squeeze(value) in squeeze(content), value
    assert "Strength, for comparing the sides:" in content
    # the house tables in one short line; the Notes for the GM list them
    count = len(scenario["house_tables"])
    assert f"House tables used: {count}; the Notes for the GM list them." in content
    assert smallest_text(reader) >= 6.99
    assert reader.metadata is not None
    assert reader.metadata.title == f"Roster — {scenario['title']}"
    assert reader.metadata.subject and "at a glance" in reader.metadata.subject
    return content


PAPER = {"tactical": "a4", "flob": "letter", "high-seas": "a4", "impulse": "letter", "convoy": "a4"}
OTHER = {"a4": "letter", "letter": "a4"}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_roster_of_a_scenario(rules: Rules, ruleset: str) -> None:
    scenario = roll_scenario(rules, ruleset, 3)
    paper = PAPER[ruleset]
    mono = ruleset in ("flob", "high-seas", "convoy")
    reader = read(render_sheet("roster", rules, data=scenario, paper=paper, mono=mono))
    content = check_roster(reader, scenario, paper)
    assert len(reader.pages) == 1
    if mono:
        assert colours(reader) <= {(0.0, 0.0, 0.0), (1.0, 1.0, 1.0), (0.0,), (1.0,)}
    else:
        assert colours(reader) - {(0.0, 0.0, 0.0), (1.0, 1.0, 1.0), (0.0,), (1.0,)}
    strengths = [get_generator(ruleset).strength(side) for side in scenario["sides"]]
    assert f"has {round(100 * min(strengths) / max(strengths))} % of the stronger" in content


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_biggest_forces_and_the_longest_name(rules: Rules, ruleset: str) -> None:
    # the biggest forces, the first ships with the longest name (as the print check's)
    scenario = fullest("roster", ruleset, rules)
    assert scenario["sides"][0]["ships"][0]["name"] == LONG_NAME
    paper = OTHER[PAPER[ruleset]]
    reader = read(render_sheet("roster", rules, data=scenario, paper=paper))
    content = check_roster(reader, scenario, paper)
    assert f"{LONG_NAME} " in content
    if ruleset == "tactical":
        assert [len(side["ships"]) for side in scenario["sides"]] == [12, 12]
        assert "Diplomat" in content and "ally" in content


def test_the_commanders(rules: Rules) -> None:
    tactical = roll_scenario(rules, "tactical", 3)
    sides = roster.context(rules, tactical, "a4", "tactical")["sides"]
    facts = dict(sides[0]["facts"])
    assert facts["Admiral"].startswith(f"{tactical['sides'][0]['admiral_name']}, Diplomat")
    assert facts["Flagship"] == "Witte Olifant (2nd Class)"
    assert facts["Allies"] == "6 American ships"
    flob = roll_scenario(rules, "flob", 3)
    facts = dict(roster.context(rules, flob, "a4", "flob")["sides"][1]["facts"])
    admiral = flob["sides"][1]["admiral"]
    assert facts["Admiral"] == f"{admiral['name']} ({admiral['quality']})"
    assert facts["Flagship"].endswith("(2nd rate)")
    convoy = roll_scenario(rules, "convoy", 3)
    sides = roster.context(rules, convoy, "a4", "convoy")["sides"]
    assert dict(sides[0]["facts"])["Role"] == "the convoy"
    assert dict(sides[1]["facts"])["Composition"] == convoy["sides"][1]["composition"]["result"]


def test_one_side_of_a_scenario(rules: Rules) -> None:
    """A game-night packet gives each side's sheets the scenario with that side only."""
    scenario = roll_scenario(rules, "impulse", 12)
    scenario["sides"] = scenario["sides"][:1]
    reader = read(render_sheet("roster", rules, data=scenario, paper="a4"))
    content = check_roster(reader, scenario, "a4")
    assert "of the stronger" not in content and " against " not in content


def test_an_edited_scenario(rules: Rules, tmp_path: Path) -> None:
    scenario = roll_scenario(rules, "tactical", 3)
    scenario.pop("balance")
    side = scenario["sides"][1]
    side.pop("admiral_name")
    for ship in side["ships"]:
        ship.pop("captain")
    side["ships"][0]["ratings"]["cannon"] = 9
    path = tmp_path / "edited.json"
    path.write_text(dump(scenario, "json"), encoding="utf-8")
    edited = read_scenario(path, rules)
    content = flat(read(render_sheet("roster", rules, data=edited, mono=True)))
    assert f"Strength of the fleet: {strength('tactical', edited['sides'][1])}" in content
    assert strength("tactical", edited["sides"][1]) == str(174 + 9 - 4)


@pytest.mark.parametrize(("ruleset", "paper"), [("tactical", "letter"), ("high-seas", "a4")])
def test_a_blank_roster(rules: Rules, ruleset: str, paper: str) -> None:
    reader = read(render_sheet("roster", rules, ruleset=ruleset, paper=paper))
    assert len(reader.pages) == 1
    assert page_size(reader) == PAGE_SIZES[paper]
    content = flat(reader)
    assert "Write in a side and its ships" in content and "Strength" in content
    assert str(roster.BLANK_ROWS[paper]) in content
    assert "House tables used" not in content
    assert reader.metadata is not None and reader.metadata.title == "Roster"


def test_the_roster_has_no_form_fields(rules: Rules) -> None:
    with pytest.raises(InputError, match=r"--fillable: the roster sheet has no write-in fields"):
        render_sheet("roster", rules, ruleset="convoy", fillable=True)


def test_strengths_are_whole_numbers() -> None:
    """A convoy's merchants count half: the sheets print the nearest whole number (a half
    rounds up, the same on the roster and the briefing), never "15.0"."""
    assert [roster.strength_text(v) for v in (15.0, 15.5, 14.5, 0.4, 246.0)] == [
        "15", "16", "15", "0", "246"
    ]  # fmt: skip


def test_the_ship_header_is_set_as_the_other_headers(rules: Rules) -> None:
    """The name column's serif at 10 pt is for the names: the "Ship" header cell was set in
    it too, in a bold the serif does not have (drawn fake-bold)."""
    scenario = roll_scenario(rules, "tactical", 3)
    reader = read(render_sheet("roster", rules, data=scenario))
    found = runs(reader.pages[0])
    # the header row, one run from "Ship" on: one size
    headers = [r for r in found if r.text.startswith("Ship Class Captain")]
    assert len(headers) == 2 and {round(r.size, 1) for r in headers} == {7.0}
    name = scenario["sides"][0]["ships"][0]["name"]
    assert {round(r.size, 1) for r in found if r.text == name} == {10.0}
    html = sheet_html("roster", rules, data=scenario)
    assert "table.units td.name {" in html and "table.units .name {" not in html
