"""Every form field says what it is in the sheet's words: its /TU, the tooltip a PDF viewer
shows and a screen reader reads ("Turn 1: opponent", "Hit points, box 3"), never the
program's name for it (`t1_opponent`), which a viewer falls back to when /TU is missing.

Issue 22: WeasyPrint set /TU to the input's name on every fillable sheet it lays out (the
duel record, the character sheet, the blank roster, the playsheet), and the fillable ship's
logs drawn with ReportLab had no /TU at all.
"""

from __future__ import annotations

import re

import pytest
from pypdf import PdfReader

from generator.generate.scenario import roll_scenario
from generator.loading import Rules
from generator.render.sheets import get_kind, render_sheet, sheet_kinds
from generator.rulesets import serving
from tests.pdfs import fields, read

# a program's name: snake_case, kebab-case, or letters run into digits ("hp_3", "t1_opponent",
# "boarding-fight_boarder_1", "clock3")
PROGRAM_NAME = re.compile(r"^[a-z0-9]+(?:[_-][a-z0-9]+)+$|^[a-z]+\d+$")


def tooltips(reader: PdfReader) -> dict[str, str]:
    """Each field's name (/T) and what a viewer shows for it: its /TU, else its /T."""
    return {str(f["/T"]): str(f.get("/TU", f["/T"])) for f in fields(reader)}


def forms(*, drawn: bool) -> list[tuple[str, str]]:
    """(kind, ruleset): each fillable kind drawn with ReportLab (`drawn`) or laid out by
    WeasyPrint, for each ruleset it serves."""
    return [
        (name, ruleset)
        for name, kind in sheet_kinds().items()
        if (kind.fillable or kind.fillable_blank) and kind.drawn == drawn
        for ruleset in serving(name)
    ]


def laid_out_forms() -> list[tuple[str, str]]:
    return forms(drawn=False)


def assert_said_in_words(said: dict[str, str]) -> None:
    assert said, "a fillable sheet has fields"
    program = {name: tip for name, tip in said.items() if PROGRAM_NAME.match(tip) or tip == name}
    assert program == {}
    # the sheet's words: a capital first, no soft hyphen from a heading that may break
    assert not [tip for tip in said.values() if not tip[:1].isupper() or "\u00ad" in tip]


def test_the_program_name_pattern() -> None:
    for name in ("t1_opponent", "hp_3", "boarding-fight_boarder_1", "weapon1_min_str", "s2"):
        assert PROGRAM_NAME.match(name), name
    for words in ("Turn 1: opponent", "Hit points, box 3", "Armour", "Weapon 1: MinSTR"):
        assert not PROGRAM_NAME.match(words), words


def test_every_laid_out_fillable_kind_is_checked() -> None:
    kinds = {kind for kind, _ in laid_out_forms()}
    assert {"duel-record", "character", "roster", "playsheet"} <= kinds
    assert not any(get_kind(kind).drawn for kind in kinds)


@pytest.mark.parametrize(("kind", "ruleset"), laid_out_forms())
def test_weasyprint_fields_say_what_they_are(rules: Rules, kind: str, ruleset: str) -> None:
    reader = read(render_sheet(kind, rules, ruleset=ruleset, fillable=True))
    said = tooltips(reader)
    assert_said_in_words(said)
    if kind == "duel-record":
        assert said["t1_opponent"] == "Turn 1: opponent"
        assert said["t42_parry_guess"] == "Turn 42: parry guess"
        assert said["hp_3"] == "Hit points, box 3"
        assert said["weapon2_min_str"] == "Weapon 2: MinSTR"
    if kind == "character":
        assert said["hp_3"] == "Hit points, box 3"
        assert said["notes_1"] == "Notes, line 1"
    if kind == "roster":
        # the column's heading, without the soft hyphen it may break at on paper
        assert not [t for t in said.values() if "\u00ad" in t]
        assert said["strength"] == "Strength"


def test_every_drawn_fillable_kind_is_checked() -> None:
    assert {kind for kind, _ in forms(drawn=True)} >= {"ship-log"}


@pytest.mark.parametrize(("kind", "ruleset"), forms(drawn=True))
def test_drawn_fields_say_what_they_are(rules: Rules, kind: str, ruleset: str) -> None:
    """The ship's logs, blank and of a scenario: every box and write-in (the check boxes,
    the text fields, the turn log's cells) in words; a named ship's with her name first,
    as a page holds several logs."""
    blank = tooltips(read(render_sheet(kind, rules, ruleset=ruleset, fillable=True)))
    assert_said_in_words(blank)
    assert "Ship’s name" in blank.values()
    assert "Turn log, entry 1: turn" in blank.values()
    assert any(re.fullmatch(r".+, box 2", tip) for tip in blank.values())
    scenario = roll_scenario(rules, ruleset, 23)
    filled = tooltips(
        read(render_sheet(kind, rules, data=scenario, ruleset=ruleset, fillable=True))
    )
    assert_said_in_words(filled)
    ships = [str(ship["name"]) for side in scenario["sides"] for ship in side["ships"]]
    unnamed = [tip for tip in filled.values() if not any(tip.startswith(f"{n}: ") for n in ships)]
    assert unnamed == []
    assert f"{ships[0]}: Turn log, entry 1: notes" in filled.values()
