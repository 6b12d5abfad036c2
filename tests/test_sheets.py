"""Sheets: rendered at both papers, colour and mono, fillable; read back with pypdf."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.errors import InputError
from generator.generate.duel import roll_character
from generator.loading import Rules
from generator.render.sheets import render_sheet, sheet_kinds
from tests.pdfs import PAGE_SIZES, extracted_text, page_size, read

LONGEST_NAME = "Nuestra Señora de la Santísima Trinidad <&> Barbarigo della Terrazza"


def test_every_manifest_names_an_existing_template() -> None:
    import importlib

    from generator.resources import resource_dir

    for kind in sheet_kinds().values():
        assert (resource_dir("templates") / kind.template).is_file(), kind.kind
        module = importlib.import_module(f"generator.render.kinds.{kind.kind.replace('-', '_')}")
        assert callable(module.context), kind.kind


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("mono", [False, True])
@pytest.mark.parametrize("fillable", [False, True])
def test_duel_record_blank(rules: Rules, paper: str, mono: bool, fillable: bool) -> None:
    reader = read(render_sheet("duel-record", rules, paper=paper, mono=mono, fillable=fillable))
    assert len(reader.pages) == 1
    assert page_size(reader) == PAGE_SIZES[paper]
    content = extracted_text(reader)
    for word in (
        "Turn",
        "Opponent",
        "Action 1",
        "Action 2",
        "Parry Guess",
        "thrust",
        "slash",
        "lunge",
    ):
        assert word in content
    assert "21" in content
    assert "Order of attacks" in content and "Normal actions" in content
    fields = reader.get_fields() or {}
    if fillable:
        assert "t21_action2" in fields and "t1_lunge" in fields and "name" in fields
    else:
        assert not fields
    assert reader.metadata is not None
    assert reader.metadata.title == "Duel record sheet"
    assert reader.metadata.subject and "21 turn rows" in reader.metadata.subject


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_duel_record_with_the_longest_name(rules: Rules, paper: str) -> None:
    person = roll_character(rules, 7)
    person["name"] = LONGEST_NAME
    reader = read(render_sheet("duel-record", rules, data=person, paper=paper, mono=True))
    assert len(reader.pages) == 1
    content = extracted_text(reader)
    assert "Santísima Trinidad <&> Barbarigo" in content.replace("\n", " ")
    assert f"MinSTR {person['weapons'][0]['min_str']}" in content
    assert "House tables used" in content
    assert reader.metadata is not None and LONGEST_NAME in str(reader.metadata.title)


def test_bad_sheet_options_are_refused(rules: Rules) -> None:
    with pytest.raises(
        InputError, match=r"unknown sheet kind 'duel-recrod' \(kinds: .*duel-record"
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
