"""The Notes for the GM: every reading of the rules with the heading of the source it reads,
the house tables with what they fill in, and the tables that only set a game up, in sentences
a GM checks against the rulebook; at the end of every packet, never in a player's handout."""

from __future__ import annotations

import pytest

from generator.generate.scenario import roll_scenario
from generator.loading import Rules
from generator.render import pdf as pdfs
from generator.render.kinds import gm_notes
from generator.render.kinds import quick_reference as qr
from generator.render.sheets import cached_sheet_pdf, render_sheet, sheet_kinds
from generator.rulesets import ruleset_ids
from tests.pdfs import extracted_text, read, squeeze
from tests.test_player_words import table_ids

RULESETS = list(ruleset_ids())


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_reading_and_house_table_is_in_the_notes(rules: Rules, ruleset: str) -> None:
    """Blank (for the ruleset), every table with a note is there with its source's heading,
    every house table says what it fills in, and the set-up tables are printed whole."""
    notes = gm_notes.context(rules, None, "a4", ruleset)
    chosen = rules.rulesets[ruleset]
    read_as = {r["title"]: r for s in notes["sections"] for r in s["readings"]}
    house = {h["title"]: h for h in notes["house"]}
    for table in chosen.tables.values():
        title = qr.short_title(table)
        if table.house:
            assert house[title]["why"], title
        elif table.note:
            assert read_as[title]["note"], title
            assert table.source.heading and table.source.heading in read_as[title]["source"]
    gm_tables = {key for s in qr.layout_of(ruleset).sections if s.gm for key in s.tables}
    printed = {b["id"] for s in notes["gm_sections"] for b in s["blocks"]}
    assert printed == {f"{ruleset}.{key}" for key in gm_tables}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_notes_are_written_for_a_gm(rules: Rules, ruleset: str) -> None:
    """Table ids are the tables' titles; the project's notes file and the program's
    parameters are not named."""
    text = extracted_text(read(render_sheet("gm-notes", rules, ruleset=ruleset)))
    assert "Notes for the GM" in text
    assert table_ids(rules).findall(text) == []
    for word in ("rules-notes", "Params", "params "):
        assert word not in text, word


def test_plain_reads_a_note_as_a_gm_does(rules: Rules) -> None:
    note = (
        "Reading: as rules-notes.md says: a tie is rerolled (rules-notes, tacking) "
        "(params rows_per_block); see flob.tacking."
    )
    assert gm_notes.plain(rules, note) == "As: a tie is rerolled; see “Tacking”."


def test_a_scenario_lists_the_house_tables_it_rolled_on(rules: Rules) -> None:
    """High seas officers are rolled on the duel's tables: the notes name them, and the
    ruleset they come from."""
    scenario = roll_scenario(rules, "high-seas", 5)
    notes = gm_notes.context(rules, scenario, "a4", "high-seas")
    listed = [(h["title"], h["from"]) for h in notes["house"]]
    assert len(listed) == len(scenario["house_tables"])
    duel = rules.rulesets["duel"].title
    assert (qr.short_title(rules.table("duel.weapons")), duel) in listed
    assert not notes["house_all"]
    content = squeeze(extracted_text(read(render_sheet("gm-notes", rules, data=scenario))))
    assert squeeze("House tables this game uses") in content


def test_scenarios_on_the_same_house_tables_share_their_notes(
    rules: Rules, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The notes name the ruleset, not the scenario: a packet lays them out once for every
    scenario that rolled on the same house tables (the disk cache, by their HTML)."""
    assert sheet_kinds()["gm-notes"].cached
    first, second = roll_scenario(rules, "tactical", 1), roll_scenario(rules, "tactical", 2)
    assert first["house_tables"] == second["house_tables"] and first["title"] != second["title"]
    made = cached_sheet_pdf("gm-notes", rules, first, ruleset="tactical")

    def no_layout(*args: object, **kwargs: object) -> None:
        raise AssertionError("laid out again")

    monkeypatch.setattr(pdfs, "layout", no_layout)
    assert cached_sheet_pdf("gm-notes", rules, second, ruleset="tactical") == made
    assert first["title"] not in extracted_text(read(made))
