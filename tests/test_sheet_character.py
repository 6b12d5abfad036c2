"""The duellist's character sheet: blank, fillable and filled; read back with pypdf."""

from __future__ import annotations

import math
import re

import pytest

from generator.errors import InputError
from generator.generate.duel import roll_character
from generator.loading import Rules
from generator.render.kinds import character, duel_record
from generator.render.sheets import render_sheet
from generator.text import signed
from tests.pdfs import (
    BLACK_AND_WHITE,
    MM,
    PAGE_SIZES,
    colours,
    flat,
    page_text,
    read,
    smallest_text,
    widgets,
)
from tests.resolving import chances, resolve

LONGEST_NAME = "Nuestra Señora de la Santísima Trinidad <&> Barbarigo della Terrazza"


@pytest.mark.parametrize(
    ("paper", "mono", "fillable"),
    [("a4", False, False), ("a4", True, True), ("letter", True, False), ("letter", False, True)],
)
def test_blank_sheet(rules: Rules, paper: str, mono: bool, fillable: bool) -> None:
    reader = read(render_sheet("character", rules, paper=paper, mono=mono, fillable=fillable))
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert (round(float(box.width), 1), round(float(box.height), 1)) == PAGE_SIZES[paper]
    text = flat(reader)
    for word in (
        "Name", "Nationality", "Height", "Style", "Strength", "Endurance", "Dexterity", "Wit",
        "Hit points", "Expertise", "Dueling", "Brawling", "Skills", "Seamanship", "Master Superior",
        "Weapons", "Damage", "MinSTR", "AdvSTR", "Bonus", "Parry", "Armour", "Damage reduction",
        "Buff coat", "Chest/Flank, Arm", "Wounds by location", "Head", "Left leg",
        "Stunned this turn", "Unconscious", "Useless", "Notes", "No armour",
        "House tables used: ",
        "Endurance + Strength / 3, rounded up",
    ):  # fmt: skip
        assert word.casefold() in text.casefold(), word
    assert smallest_text(reader) >= 6.99
    fields = widgets(reader)
    if fillable:
        names = {field.name for field in fields}
        assert {"name", "nationality", "height", "style", "attr_strength", "hit_points"} <= names
        assert {"weapon4_parry", "notes_1", "stunned_2", "unconscious", "useless_left_leg"} <= names
        assert {"hp_24", "wound_head_and_chest_flank_13", "wound_right_arm_12", "armour_5"} <= names
        assert len(names) == len(fields)  # every field its own name
        for field in fields:
            if field.kind == "/Tx":  # write-in boxes at least 5 mm
                assert field.height >= 5 * MM - 0.01 and field.width >= 5 * MM, field.name
        # the write-ins for words are usable widths (issue 12: the duel record's Expertise
        # and Style once shrank to 0 mm); the skill levels get the width of their column
        words = ("name", "nationality", "height", "style", "loadout", "weapon1_name", "notes_1")
        width = {field.name: field.width / MM for field in fields}
        assert {name: round(width[name], 1) for name in words if width[name] < 25} == {}
        assert min(width[f"skill_{n}"] for n in range(1, 5)) >= 20
    else:
        assert not fields
    if mono:
        assert colours(reader) <= BLACK_AND_WHITE
    assert reader.metadata is not None
    assert reader.metadata.title == "Duellist's character sheet"
    assert reader.metadata.subject and "wound tracker by location" in reader.metadata.subject


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_filled_sheet_with_the_longest_name(rules: Rules, paper: str) -> None:
    person = roll_character(rules, 7)
    person["name"] = LONGEST_NAME
    reader = read(render_sheet("character", rules, data=person, paper=paper, mono=True))
    assert len(reader.pages) == 1
    text = flat(reader)
    assert LONGEST_NAME in text
    weapon = person["weapons"][0]
    assert weapon["name"] in text and weapon["damage"] in text
    assert person["nationality"].capitalize() in text and f"{person['height_cm']} cm" in text
    for value in person["skills"].values():
        assert value in text
    # the loadout and the armour worn are rolled on house tables too
    named = re.search(r"House tables used: ([^.]+)\.", text)
    assert named is not None and "Notes for the GM" not in text
    assert len(named[1].split(", ")) >= 5  # the loadout, armour, attributes ... by name
    assert "duel." not in text and "Tables:" not in text
    assert smallest_text(reader) >= 6.99
    assert colours(reader) <= BLACK_AND_WHITE
    assert reader.metadata is not None and LONGEST_NAME in str(reader.metadata.title)


def test_the_thresholds_follow_the_hit_points(rules: Rules) -> None:
    person = roll_character(rules, 7)
    context = character.context(rules, person, "a4", "duel")
    hp = person["hit_points"]
    half = math.ceil(hp / 2)
    assert context["person"]["half_hit_points"] == half
    assert [b["mark"] for b in context["hp_boxes"]][-2:] == ["U", "†"]
    assert len(context["hp_boxes"]) == hp + 1
    rows = {row["label"]: row for row in context["wound_rows"]}
    assert list(rows) == [
        "Head and Chest/Flank", "Right arm", "Left arm", "Right leg", "Left leg"
    ]  # fmt: skip
    vital = rows["Head and Chest/Flank"]
    assert len(vital["boxes"]) == half + 1 and vital["boxes"][half - 1]["mark"] == "U"
    assert vital["thresholds"] == f"U at {half} · † at {half + 1}"
    assert rows["Left leg"]["boxes"][-1]["mark"] == "½" and len(rows["Left leg"]["boxes"]) == half
    blank = character.context(rules, None, "a4", "duel")
    assert len(blank["hp_boxes"]) == 24  # 18 + ceil(18 / 3), the most 3d6 can give
    assert not any(b["mark"] for b in blank["hp_boxes"])
    assert not any(b["mark"] for row in blank["wound_rows"] for b in row["boxes"])
    assert [len(row["boxes"]) for row in blank["wound_rows"]] == [13, 12, 12, 12, 12]


def marked(boxes: list[dict[str, object]], mark: str) -> int:
    """The damage at which a track's box carries `mark` (boxes count from 1)."""
    return next(int(str(box["n"])) for box in boxes if box["mark"] == mark)


def wounds(rules: Rules, hit_points: int, location: str, before: int, **raw: str) -> set[str]:
    """What duel.wounds can find when one more point lands on `location` after `before`
    points there (and nowhere else, unless `total_before` says so)."""
    inputs = {"total_before": str(before), **raw}
    found = chances(
        rules, "duel.wounds", location=location, damage="1", hit_points=str(hit_points),
        here_before=str(before), **inputs,
    )  # fmt: skip
    return set(found)


@pytest.mark.parametrize("hit_points", [4, 7, 11, 14, 15, 20, 24])
def test_the_wound_tracks_mark_what_the_resolver_finds(rules: Rules, hit_points: int) -> None:
    """Issue 22: the sheet kept the head and the chest/flank on tracks of their own, each
    with its U and †, while duel.wounds counts them together: 7 chest then 1 head knocks a
    15-hit-point duellist out, and left both tracks short of their U. One track now, its
    marks where duel.wounds finds each effect, whichever of the two the point lands on."""
    person = {**roll_character(rules, 7), "hit_points": hit_points}
    context = character.context(rules, person, "a4", "duel")
    rows = {row["label"]: row for row in context["wound_rows"]}
    vital = rows["Head and Chest/Flank"]["boxes"]
    out, dies = marked(vital, "U"), marked(vital, "†")
    assert len(vital) == dies
    for location in ("head", "chest"):
        assert "unconscious" not in wounds(rules, hit_points, location, out - 2)
        assert wounds(rules, hit_points, location, out - 1) == {"unconscious"}
        assert wounds(rules, hit_points, location, dies - 1) == {"dead"}
    # the whole body: U where the total knocks out, † at the first point more
    track = context["hp_boxes"]
    out, dies = marked(track, "U"), marked(track, "†")
    assert len(track) == dies
    assert wounds(rules, hit_points, "arm", 0, total_before=str(out - 1)) == {"unconscious"}
    assert wounds(rules, hit_points, "arm", 0, total_before=str(dies - 1)) == {"dead"}
    # the duel record's hit-point boxes are the same track
    assert duel_record.context(rules, person, "a4", "duel")["hp_boxes"] == track
    # each arm and leg: ½ where that limb becomes useless
    for label, location in (("Right arm", "arm"), ("Left leg", "leg")):
        useless = marked(rows[label]["boxes"], "½")
        assert len(rows[label]["boxes"]) == useless
        assert wounds(rules, hit_points, location, useless - 1) == {f"{location} useless"}
        if useless > 1:
            assert wounds(rules, hit_points, location, useless - 2) == {"no further effect"}


def test_seven_chest_then_one_head_reaches_the_u_on_the_sheet(rules: Rules) -> None:
    """The issue's duellist: 15 hit points, 7 points to the chest, then 1 to the head."""
    person = {**roll_character(rules, 7), "hit_points": 15}
    reader = read(render_sheet("character", rules, data=person))
    text = flat(reader)
    assert "Head and Chest/Flank" in text and "U at 8 · † at 9" in text
    assert "They count together" in text
    context = character.context(rules, person, "a4", "duel")
    vital = context["wound_rows"][0]["boxes"]
    assert vital[7 + 1 - 1]["mark"] == "U"  # the 8th box crossed off: chest 7, head 1
    resolved = resolve(rules, "duel.wounds", 1, location="chest", damage="7", hit_points="15")
    assert resolved.outcome.result == "stunned"
    resolved = resolve(
        rules, "duel.wounds", 1, location="head", damage="1", hit_points="15",
        here_before="7", total_before="7",
    )  # fmt: skip
    assert resolved.outcome.result == "unconscious"


def test_strongest_character_with_two_weapons_fits_one_page(rules: Rules) -> None:
    person = roll_character(rules, 7)
    person.update(
        hit_points=24,
        armour="Helmet and cuirass",
        weapons=[
            {"name": "Two-handed sword", "hand": "right", "min_str": 14, "adv_str": 17,
             "weapon_bonus": -1, "parry_bonus": 0},
            {"name": "Main gauche", "hand": "left", "min_str": 5, "adv_str": 14,
             "weapon_bonus": 0, "parry_bonus": 1},
        ],
    )  # fmt: skip
    for key in ("skills", "style", "loadout"):  # an edited file may leave these out
        del person[key]
    reader = read(render_sheet("character", rules, data=person, paper="letter", fillable=True))
    assert len(reader.pages) == 1
    text = flat(reader)
    assert "Two-handed sword" in text and "2d6" in text and "Main gauche" in text
    assert "cannot parry" not in text
    names = {field.name for field in widgets(reader)}
    assert "notes_1" in names and "wound_head_and_chest_flank_13" in names and "hp_25" in names
    assert "name" not in names and "attr_strength" not in names


def test_character_sheet_options(rules: Rules) -> None:
    with pytest.raises(InputError, match=r"--ruleset: the character sheet serves duel"):
        render_sheet("character", rules, ruleset="convoy")
    with pytest.raises(InputError, match=r"--paper a5: choose a4 or letter"):
        render_sheet("character", rules, paper="a5")


def longest_loadout(rules: Rules) -> str:
    """The longest loadout the house table rolls ("Rapier and wheellock pistol")."""
    from generator.lookup import cell_text

    return max((cell_text(c) for c in rules.table("duel.loadout").cells), key=len)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("fillable", [False, True])
def test_the_longest_loadout_stays_on_its_line_and_the_page(
    rules: Rules, paper: str, fillable: bool
) -> None:
    """The loadout once wrapped past its rule, and on Letter pushed the sheet's last line
    onto a second page of its own."""
    person = roll_character(rules, 654)  # two weapons, armour, the most hit points
    person["name"] = LONGEST_NAME
    person["loadout"] = longest_loadout(rules)
    assert len(person["loadout"]) >= 27
    reader = read(render_sheet("character", rules, data=person, paper=paper, fillable=fillable))
    assert len(reader.pages) == 1
    lines = page_text(reader.pages[0]).splitlines()
    assert any(person["loadout"] in line for line in lines)  # on one line


# the duel record's header is the same duellist (issue 22: the spare record lacked most of it)
RECORD_LABELS = (
    "Nationality", "Height", "Style", "Armour", "STR", "END", "DEX", "WIT", "Expertise",
    "Dueling", "Brawling", "Weapons", "Hand", "Damage", "MinSTR", "AdvSTR", "Bonus", "Parry",
    "Hit points",
)  # fmt: skip


@pytest.mark.parametrize(("paper", "mono"), [("a4", False), ("letter", True)])
def test_a_blank_duel_record_has_all_a_filled_one_prints(
    rules: Rules, paper: str, mono: bool
) -> None:
    for data in (None, roll_character(rules, 654)):
        reader = read(render_sheet("duel-record", rules, data=data, paper=paper, mono=mono))
        front = page_text(reader.pages[0])
        missing = [label for label in RECORD_LABELS if label not in front]
        assert missing == [], (data is None, missing)
    blank = duel_record.context(rules, None, paper, "duel")
    assert blank["weapon_rows"] == [None, None]  # room for a second weapon
    assert len(blank["hp_boxes"]) == 24 and not any(b["mark"] for b in blank["hp_boxes"])


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_each_weapon_of_the_duel_record_stays_on_its_line(rules: Rules, paper: str) -> None:
    """Two weapons once ran on as one wrapped line on A4, leaving a lone "0" below."""
    person = roll_character(rules, 654)
    assert len(person["weapons"]) == 2
    reader = read(render_sheet("duel-record", rules, data=person, paper=paper))
    lines = [" ".join(line.split()) for line in page_text(reader.pages[0]).splitlines()]
    assert not [line for line in lines if line in ("0", "0, parry 0", "parry 0")]
    for weapon in person["weapons"]:
        row = (
            f"{weapon['name']} {weapon['hand']} {weapon['damage']} {weapon['min_str']} "
            f"{weapon['adv_str']} {signed(weapon['weapon_bonus'])} {signed(weapon['parry_bonus'])}"
        )
        assert any(line.startswith(row) for line in lines), (row, lines[:12])
