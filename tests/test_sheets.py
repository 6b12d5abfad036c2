"""Sheets: rendered at both papers, colour and mono, fillable; read back with pypdf."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from generator.errors import InputError
from generator.generate.duel import roll_character
from generator.loading import Rules
from generator.render.sheets import layout_sheet, render_sheet, sheet_kinds
from tests.pdfs import MM, PAGE_SIZES, extracted_text, flat, page_size, page_text, read, widgets

LONGEST_NAME = "Nuestra Señora de la Santísima Trinidad <&> Barbarigo della Terrazza"


def boxes(box: Any) -> Iterator[Any]:
    """Every box of a laid-out page, the page's own first."""
    yield box
    for child in getattr(box, "children", None) or []:
        yield from boxes(child)


def test_every_manifest_names_an_existing_template_or_draws() -> None:
    """A kind is laid out from its template by WeasyPrint, or drawn by its module with
    ReportLab: one engine a kind, never both."""
    import importlib

    from generator.resources import resource_dir

    templates = {p.name for p in resource_dir("templates").glob("*.html.j2")}
    for kind in sheet_kinds().values():
        module = importlib.import_module(f"generator.render.kinds.{kind.kind.replace('-', '_')}")
        assert callable(module.context), kind.kind
        if kind.drawn:
            assert callable(module.draw), kind.kind
            stem = kind.kind.replace("-", "_")
            assert not any(name.startswith(stem) for name in templates), kind.kind
        else:
            assert kind.template in templates and not hasattr(module, "draw"), kind.kind
    assert sheet_kinds()["cards"].drawn


# the seed's record sheet: two blocks of 21 turns (front and back), each a page with the grid,
# the rules box and the actions table; turns numbered on from the front to the back
BLOCKS = [range(1, 22), range(22, 43)]
# the blank header has all the filled one prints (issue 22): words, numbers, two weapons
WORDS = {"name", "nationality", "height", "style", "armour"}
NUMBERS = {
    "hit_points", *(f"attr_{a}" for a in ("strength", "endurance", "dexterity", "wit")),
    *(f"expertise_{n}" for n in range(1, 6)),
}  # fmt: skip
WEAPONS = {
    f"weapon{n}_{c}"
    for n in (1, 2)
    for c in ("name", "hand", "damage", "min_str", "adv_str", "bonus", "parry")
}
WRITE_INS = WORDS | NUMBERS | WEAPONS
FIGURES = NUMBERS | {name for name in WEAPONS if not name.endswith("_name")}
# a write-in a pencil can use: for words (the narrowest column of the turn grid is 31 mm),
# and for a number or two
MIN_WRITE_IN_MM = 25.0
MIN_NUMBER_MM = 8.0


def block_rows(page_text: str) -> list[int]:
    """The turn numbers that open a row of the grid (a number alone before the row's
    circle-one words), in the order printed."""
    return [int(n) for n in re.findall(r"(?m)^\s*(\d+)\s*\n?\s*thrust", page_text)]


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("mono", [False, True])
@pytest.mark.parametrize("fillable", [False, True])
def test_duel_record_blank(rules: Rules, paper: str, mono: bool, fillable: bool) -> None:
    reader = read(render_sheet("duel-record", rules, paper=paper, mono=mono, fillable=fillable))
    assert len(reader.pages) == len(BLOCKS) == 2
    for index, turns in enumerate(BLOCKS):
        assert page_size(reader, index) == PAGE_SIZES[paper]
        content = page_text(reader.pages[index])
        for word in ("Turn", "Opponent", "Action 1", "Action 2", "Parry Guess (circle one)"):
            assert word in content
        assert block_rows(content) == list(turns)
        assert len(re.findall(r"thrust\s+slash\s+lunge", content)) == len(turns) == 21
        # the rules box and the actions table below each block, as the seed prints them
        for box in ("Turns:", "Action types:", "Order of actions:", "Order of attacks:"):
            assert box in content, (index, box)
        assert "Normal actions" in content and "Long actions" in content
        # the block names its page in the footer (the style of every kind: pagenumbers.py)
        assert f"Turns {turns[0]}–{turns[-1]} · Page {index + 1} of {len(BLOCKS)}" in content
    fields = reader.get_fields() or {}
    if fillable:
        assert set(fields) >= WRITE_INS
        found = widgets(reader, unit=MM)
        for index, turns in enumerate(BLOCKS):
            for turn in turns:
                names = {
                    w.name for w in found if w.page == index and w.name.startswith(f"t{turn}_")
                }
                assert names == {
                    f"t{turn}_{n}" for n in ("opponent", "action1", "action2", "parry_guess")
                }, turn
                # the guess is one choice a turn: a radio group of the three words
                guess = [w for w in found if w.name == f"t{turn}_parry_guess"]
                assert len(guess) == 3 and {w.kind for w in guess} == {"/Btn"}, turn
        assert not [w.name for w in found if w.name == "t43_opponent"]
        narrow = {
            w.name: round(w.width, 1)
            for w in found
            if w.kind == "/Tx"
            and w.width < (MIN_NUMBER_MM if w.name in FIGURES else MIN_WRITE_IN_MM)
        }
        assert narrow == {}
        hit_points = {w.name for w in found if w.name.startswith("hp_") and w.kind == "/Btn"}
        assert hit_points == {f"hp_{n}" for n in range(1, 25)}  # the most 3d6 give
        assert {w.name for w in found if w.name in WRITE_INS and w.page == 0} == WRITE_INS
    else:
        assert not fields
    assert reader.metadata is not None
    assert reader.metadata.title == "Duel record sheet"
    assert reader.metadata.subject and "two blocks of 21 turn rows" in reader.metadata.subject


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_duel_record_blank_write_ins_are_printed_at_a_usable_width(
    rules: Rules, paper: str
) -> None:
    """Expertise and Style once shrank to stubs a few points wide: every printed write-in
    line of the blank header is at least 25 mm for words, 8 mm for a number (measured on
    the laid-out page), each beside its label."""
    document = layout_sheet("duel-record", rules, paper=paper)
    px_per_mm = 96 / 25.4
    widths = {
        "".join(label.element.itertext()): cell.border_width() / px_per_mm
        for row in boxes(document.pages[0]._page_box)
        if type(row).__name__ == "TableRowBox"
        for label, cell in itertools.pairwise(row.children)
        if "wi" in (cell.element.get("class") or "").split()
    }
    words = ("Name", "Nationality", "Height", "Style", "Armour")
    numbers = ("STR", "END", "DEX", "WIT", "Dueling", "Brawling", "Hit points")
    assert set(widths) >= {*words, *numbers} and len(widths) == len(WORDS | NUMBERS)
    assert min(widths[w] for w in words) >= MIN_WRITE_IN_MM, widths
    assert min(widths[n] for n in numbers) >= MIN_NUMBER_MM, widths


def test_duel_record_of_a_duellist_without_armour(rules: Rules) -> None:
    """The armour table's row "None" prints as a word, not as a program's None."""
    person = roll_character(rules, 7)
    person["armour"] = "None"
    content = flat(read(render_sheet("duel-record", rules, data=person)))
    assert "Armour none" in content and "None" not in content


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_duel_record_with_the_longest_name(rules: Rules, paper: str) -> None:
    person = roll_character(rules, 7)
    person["name"] = LONGEST_NAME
    reader = read(render_sheet("duel-record", rules, data=person, paper=paper, mono=True))
    assert len(reader.pages) == 2
    content = extracted_text(reader)
    assert "Santísima Trinidad <&> Barbarigo" in content.replace("\n", " ")
    weapon = person["weapons"][0]
    row = f"{weapon['name']} {weapon['hand']} {weapon['damage']} {weapon['min_str']} "
    assert row + f"{weapon['adv_str']}" in content and "MinSTR AdvSTR" in content
    # in the fighting style table's words, and the house tables counted in one line
    style = {"none": "No style", "French": "French Style", "Italian": "Italian Style"}
    assert f"Style {style[person['style']]}" in content
    assert f"Nationality {person['nationality'].capitalize()}" in content
    assert re.search(
        r"House tables used: [A-Z][^.]+(, [A-Z][^.,]+){2}\.", " ".join(content.split())
    )
    assert "Notes for the GM" not in content
    assert "duel." not in content
    assert reader.metadata is not None and LONGEST_NAME in str(reader.metadata.title)
    # the back page carries the duellist's name and the second block of turns
    back = page_text(reader.pages[1])
    assert "Santísima" in back and block_rows(back) == list(BLOCKS[1])
    assert block_rows(page_text(reader.pages[0])) == list(BLOCKS[0])


def test_bad_sheet_options_are_refused(rules: Rules) -> None:
    with pytest.raises(
        InputError,
        match=r"unknown sheet kind 'duel-recrod': did you mean 'duel-record'\? "
        r"\(kinds: .*duel-record",
    ):
        render_sheet("duel-recrod", rules)
    with pytest.raises(InputError, match=r"--paper a5: choose a4 or letter"):
        render_sheet("duel-record", rules, paper="a5")


def test_sheet_command_writes_the_pdf(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from generator.cli import main

    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as caught:
        main(["sheet", "duel-record", "--seed", "7", "--paper", "letter"])
    assert caught.value.code == 0
    written = tmp_path / "output" / "duel-record-7-letter.pdf"
    assert written.is_file()
    assert page_size(read(written.read_bytes())) == PAGE_SIZES["letter"]
    assert [p.name for p in (tmp_path / "output").iterdir()] == ["duel-record-7-letter.pdf"]


def test_bundled_fonts_cover_every_character_the_data_can_print(rules: Rules) -> None:
    from fontTools.ttLib import TTFont

    from generator.resources import data_dir, resource_dir

    used = set()
    for path in data_dir().glob("*.yaml"):
        used |= {c for c in path.read_text(encoding="utf-8") if ord(c) > 32}
    fonts = sorted((resource_dir("templates") / "fonts").glob("QM*"))
    assert len(fonts) == 6
    for font in fonts:
        if "Italic" in font.name and "Serif" in font.name:
            continue  # the stylesheet falls back to QM Sans for ≤ ≥ in serif italics
        cmap = TTFont(font).getBestCmap()
        missing = sorted(c for c in used if ord(c) not in cmap)
        assert not missing, (font.name, missing)
    assert (resource_dir("templates") / "fonts" / "LICENSE-Lato.txt").is_file()
    assert (resource_dir("templates") / "fonts" / "LICENSE-EBGaramond.txt").is_file()
