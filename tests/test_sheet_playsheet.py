"""The convoy playsheet, front and back; read back with pypdf."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from generator.errors import InputError
from generator.loading import Rules
from generator.lookup import cell_text
from generator.render.kinds import playsheet
from generator.render.sheets import render_sheet
from tests.pdfs import (
    MM,
    PAGE_SIZES,
    colours,
    page_text,
    read,
    smallest_text,
    squeeze,
    widgets,
)

FRONT = ["Death rolls", "Recovery", "Captured ships", "Struck ships", "Fog", "Boarding", "Shallows"]
BACK = [
    "Sailing movement", "Gunnery", "Range in hexes", "Modifiers in D6", "Wind change",
    "Battle clock", "Game turn sequence", "Zero (low) level",
]  # fmt: skip


@pytest.mark.parametrize(
    ("paper", "mono", "fillable"),
    [("a4", False, False), ("a4", True, True), ("letter", True, False), ("letter", False, True)],
)
def test_two_pages_front_and_back(rules: Rules, paper: str, mono: bool, fillable: bool) -> None:
    reader = read(render_sheet("playsheet", rules, paper=paper, mono=mono, fillable=fillable))
    assert len(reader.pages) == 2
    for page in reader.pages:
        box = page.mediabox
        assert (round(float(box.width), 1), round(float(box.height), 1)) == PAGE_SIZES[paper]
    front, back = (page_text(page) for page in reader.pages)
    assert "Front" in front and "Back" in back
    for title in FRONT:
        assert title in front, title
    for title in BACK:
        assert title in back and title not in front, title
    assert "Death rolls" not in back and "Shallows" not in back
    assert all(str(n) in back for n in (36, 42, 48))
    note = " ".join(back.split())
    assert "The clock moves 3, 4 or 5 spaces a turn. Its loop is 36, 42 or 48 spaces" in note
    assert "House tables used: Scenario." in note  # the loop lengths
    assert smallest_text(reader) >= 6.99
    fields = widgets(reader)
    if fillable:
        names = {field.name for field in fields}
        assert {"clock_1", "clock_48", "boarding-grapple_boarder_1"} <= names
        assert {"boarding-fight_target_4", "boarding-fight_target_dice"} <= names
        assert len(names) == len(fields)
        assert all(field.height >= 5 * MM - 0.01 for field in fields if field.kind == "/Tx")
    else:
        assert not fields
    if mono:
        assert colours(reader) <= {(0.0, 0.0, 0.0), (1.0, 1.0, 1.0), (0.0,), (1.0,)}
    assert reader.metadata is not None and reader.metadata.title == "Convoy playsheet"
    assert reader.metadata.subject and "front and back" in reader.metadata.subject


def test_every_sided_table_is_printed_whole_on_its_side(rules: Rules) -> None:
    reader = read(render_sheet("playsheet", rules, paper="letter"))
    pages = {"front": squeeze(page_text(reader.pages[0]))}
    pages["back"] = squeeze(page_text(reader.pages[1]))
    tables = [t for t in rules.rulesets["convoy"].tables.values() if "side" in t.params]
    assert len(tables) == 20
    for table in tables:
        page = pages[table.params["side"]]
        if table.kind == "table":
            texts = [*table.axes[0].labels, *(cell_text(c) for c in _cells(table.cells))]
        elif table.kind == "modifiers":
            texts = [m.label for m in table.modifiers]
        else:
            texts = [item.text for top in table.items for item in top.walk()]
        texts += list(table.notes)
        for text in texts:
            assert squeeze(text) in page, (table.id, text)


def _cells(cells: Any) -> list[Any]:
    out: list[Any] = []
    for cell in cells:
        out += _cells(cell) if isinstance(cell, tuple) else [cell]
    return out


def test_the_layout_must_place_every_sided_table(
    rules: Rules, monkeypatch: pytest.MonkeyPatch
) -> None:
    layout = copy.deepcopy(playsheet.layout_of("convoy"))
    layout["front"]["left"] = layout["front"]["left"][:-1]  # shallows left out
    monkeypatch.setattr(playsheet, "layout_of", lambda ruleset: layout)
    with pytest.raises(InputError, match=r"does not place convoy tables: shallows, shallows-dice"):
        playsheet.context(rules, None, "a4", "convoy")
    layout["front"]["left"].append(("zero-level", ["zero-level"]))
    with pytest.raises(InputError, match=r"convoy.zero-level: the playsheet puts it on the front"):
        playsheet.context(rules, None, "a4", "convoy")


def test_battle_clock_track_and_house_note(rules: Rules) -> None:
    context = playsheet.context(rules, None, "a4", "convoy")
    clock = context["clock"]
    assert clock["moves"] == "3, 4 or 5" and clock["spaces"] == 48
    assert clock["loops"] == [36, 42, 48] and clock["ends"] == "36, 42 or 48"
    # counted on the sheet in one line; the Notes for the GM list it
    assert context["house_tables"] == ["convoy.scenario"]
    front, back = context["pages"]
    boarding = front["right"][0]
    assert boarding["heading"] == "Boarding"
    assert [b["title"] for b in boarding["blocks"]] == [
        "Stage 1 = the grapple", "Stage 2 = the fight", "Stage 3 = the result"
    ]  # fmt: skip
    sequence = next(b for s in back["right"] for b in s["blocks"] if b["key"] == "turn-sequence")
    assert sequence["as_table"] and not sequence["notes"]  # the game end is in the battle clock


def test_playsheet_options(rules: Rules) -> None:
    with pytest.raises(InputError, match=r"--ruleset: the playsheet sheet serves convoy"):
        render_sheet("playsheet", rules, ruleset="flob")
