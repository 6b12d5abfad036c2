"""The roster: every ruleset's sides on both papers, the biggest forces, one side and a blank
roster; read back with pypdf."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from pypdf import PageObject, PdfReader

from generator.errors import InputError
from generator.generate.base import get_generator
from generator.generate.scenario import dump, read_scenario, roll_scenario
from generator.loading import Rules
from generator.pdf.packet import LEAVE_OUT, build_packet
from generator.render.kinds import roster
from generator.render.sheets import render_sheet, sheet_html
from generator.text import counted
from tests.fullest import fullest
from tests.pdfs import (
    MM,
    PAGE_SIZES,
    colours,
    flat,
    page_size,
    page_text,
    read,
    runs,
    smallest_text,
    squeeze,
)

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


def check_roster(rules: Rules, reader: PdfReader, scenario: dict[str, Any], paper: str) -> str:
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
    # the house tables named on the sheet itself: the players do not hold the GM's notes
    titles = [rules.table(t).title for t in scenario["house_tables"]]
    assert squeeze(f"House tables used: {', '.join(titles)}.") in squeeze(content)
    assert "Notes for the GM" not in content and "(house table)" not in content
    # "Page N of M", the style of every kind
    assert f"Page 1 of {len(reader.pages)}" in content
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
    content = check_roster(rules, reader, scenario, paper)
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
    content = check_roster(rules, reader, scenario, paper)
    assert f"{LONG_NAME} " in content
    if ruleset == "tactical":
        assert [len(side["ships"]) for side in scenario["sides"]] == [12, 12]
        assert "Diplomat" in content and "ally" in content


def test_the_commanders(rules: Rules) -> None:
    # seed 8: a Diplomat admiral, his flagship a 3rd Class, six Venetian allies
    tactical = roll_scenario(rules, "tactical", 8)
    sides = roster.context(rules, tactical, "a4", "tactical")["sides"]
    facts = dict(sides[0]["facts"])
    assert facts["Admiral"].startswith(f"{tactical['sides'][0]['admiral_name']}, Diplomat")
    (flagship,) = [s for s in tactical["sides"][0]["ships"] if s["flagship"]]
    assert facts["Flagship"] == f"{flagship['name']} (3rd Class)"
    assert facts["Allies"] == "6 Venetian ships"
    flob = roll_scenario(rules, "flob", 3)
    facts = dict(roster.context(rules, flob, "a4", "flob")["sides"][1]["facts"])
    admiral = flob["sides"][1]["admiral"]
    assert facts["Admiral"] == f"{admiral['name']} ({admiral['quality']})"
    assert facts["Flagship"].endswith("(3rd rate)")
    convoy = roll_scenario(rules, "convoy", 3)
    sides = roster.context(rules, convoy, "a4", "convoy")["sides"]
    assert dict(sides[0]["facts"])["Role"] == "the convoy"
    assert dict(sides[1]["facts"])["Composition"] == convoy["sides"][1]["composition"]["result"]


def test_one_side_of_a_scenario(rules: Rules) -> None:
    """A game-night packet gives each side's sheets the scenario with that side only."""
    scenario = roll_scenario(rules, "impulse", 12)
    scenario["sides"] = scenario["sides"][:1]
    reader = read(render_sheet("roster", rules, data=scenario, paper="a4"))
    content = check_roster(rules, reader, scenario, "a4")
    assert "of the stronger" not in content and " against " not in content


def test_an_edited_scenario(rules: Rules, tmp_path: Path) -> None:
    scenario = roll_scenario(rules, "tactical", 3)
    scenario.pop("balance")
    side = scenario["sides"][1]
    side.pop("admiral_name")
    for ship in side["ships"]:
        ship.pop("captain")
    before = get_generator("tactical").strength(side)
    cannon = side["ships"][0]["ratings"]["cannon"]
    # a GM's deliberate change of a rating the rules derive is marked as such
    side["ships"][0]["ratings"]["cannon"] = 9
    side["ships"][0]["override"] = ["cannon"]
    path = tmp_path / "edited.json"
    path.write_text(dump(scenario, "json"), encoding="utf-8")
    edited = read_scenario(path, rules)
    content = flat(read(render_sheet("roster", rules, data=edited, mono=True)))
    assert f"Strength of the fleet: {strength('tactical', edited['sides'][1])}" in content
    assert strength("tactical", edited["sides"][1]) == roster.strength_text(before + 9 - cannon)


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


def test_only_the_blank_roster_has_form_fields(rules: Rules) -> None:
    # blank, every box is a write-in (tests/test_cli.py fills them with pypdf); filled
    # from a scenario, none is
    fields = read(render_sheet("roster", rules, ruleset="convoy", fillable=True)).get_fields()
    assert fields and {"side_name", "side_navy", "ship1_1", "strength"} <= set(fields)
    scenario = roll_scenario(rules, "convoy", 3)
    with pytest.raises(InputError, match=r"--fillable: only the blank roster sheet has write-in"):
        render_sheet("roster", rules, data=scenario, fillable=True)


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


# ---------------------------------------------------------------- issue 22: the paper


def _first_column_lefts(
    reader: PdfReader, context: dict[str, Any]
) -> tuple[set[float], set[float]]:
    """Return where (x, pt) the first column after the ships' names starts its text, in
    the first side's table and in the second's."""
    found = runs(reader.pages[0])
    split = next(r.y for r in found if r.text.startswith(context["sides"][1]["name"]))
    lefts: tuple[set[float], set[float]] = (set(), set())
    for index, side in enumerate(context["sides"]):
        for unit in side["units"]:
            first = str(unit["cells"][0])
            lefts[index].update(
                round(r.x, 1)
                for r in found
                if r.text.startswith(first) and (r.y > split) == (index == 1)
            )
    return lefts


@pytest.mark.parametrize("ruleset", ["tactical", "flob", "impulse"])
def test_both_sides_tables_have_the_same_columns(rules: Rules, ruleset: str) -> None:
    """The two sides' tables of one roster line up: one set of column widths for the
    sheet (once each side's table was laid out on its own, each a little different)."""
    scenario = roll_scenario(rules, ruleset, 5)
    context = roster.context(rules, scenario, "a4", ruleset)
    widths = context["widths"]
    assert len(widths) == len(context["columns"]) + 1
    left, _, right, _ = roster.page_boxes("roster", "a4")["art"]
    assert sum(widths) == pytest.approx(right - left, abs=0.05)
    html = sheet_html("roster", rules, data=scenario)
    colgroup = "".join(f'<col style="width: {w}mm">' for w in widths)
    assert html.count(colgroup) == len(scenario["sides"]) == 2
    reader = read(render_sheet("roster", rules, data=scenario))
    assert len(reader.pages) == 1
    first, second = _first_column_lefts(reader, context)
    assert len(first) == 1 and first == second, (first, second)


def test_column_widths_share_the_page_as_the_cells_ask() -> None:
    columns = [("Ship", "name"), ("Class", "text"), ("Sails", "num"), ("Traits", "small")]
    unit = {"name": "Royal George", "tags": [], "cells": ["3rd Class", "4", "Seaworthy"]}
    long = {**unit, "cells": ["3rd Class", "4", "Carronades, Seaworthy, Initiative " * 4]}
    roomy = roster.column_widths(columns, [{"units": [unit]}], 188.0)
    assert roomy[0] == roster.INDEX_MM and sum(roomy) == pytest.approx(188.0, abs=0.05)
    tight = roster.column_widths(columns, [{"units": [unit]}, {"units": [long]}], 188.0)
    assert sum(tight) == pytest.approx(188.0, abs=0.05)
    # the short columns keep to one line, the long one takes the rest
    one_line = roster.text_width_mm("3rd Class", "sans", 8.0) + roster.CELL_PAD_MM
    assert tight[2] == pytest.approx(one_line, abs=0.01)
    assert tight[4] > 100.0


@pytest.mark.parametrize(
    ("ruleset", "words"),
    [
        ("tactical", "Every ship's ratings already include her bonuses"),
        ("flob", "are not added to them"),
        ("impulse", "her crew quality is not added to them"),
        ("convoy", "her crew's condition (battle hardened or scurvy) is not added to them"),
    ],
)
def test_the_roster_says_whether_the_bonuses_are_in_the_ratings(
    rules: Rules, ruleset: str, words: str
) -> None:
    for data in (roll_scenario(rules, ruleset, 3), None):
        content = flat(read(render_sheet("roster", rules, data=data, ruleset=ruleset)))
        assert squeeze(words) in squeeze(content)


def test_the_tactical_ratings_do_hold_the_bonuses(rules: Rules) -> None:
    """What the tactical roster says is so: a ship's ratings are her class's plus the
    national, fleet and every-ship admiral's bonuses and her traits'."""
    scenario = roll_scenario(rules, "tactical", 5)
    types = rules.table("tactical.ship-types")
    effects: dict[str, dict[str, int]] = {}
    for table in ("national", "fleet", "admiral", "ship", "captain", "crew"):
        for cell in rules.table(f"tactical.{table}").cells:
            effects[str(cell["result"])] = dict(cell.get("effect") or {})
    for side in scenario["sides"]:
        common = [side["national"]["result"], side["fleet"]["result"]]
        admiral = rules.table("tactical.admiral")
        cell = next(c for c in admiral.cells if c["result"] == side["admiral"]["result"])
        if cell.get("applies_to") == "every ship in the fleet":
            common.append(side["admiral"]["result"])
        for ship in side["ships"]:
            base = types.cell(types.axes[0].labels.index(ship["class"]))
            expected = {k: int(base.get(k, types.params.get(k, 0))) for k in ship["ratings"]}
            for result in [*common, *(t["result"] for t in ship["traits"])]:
                for key, change in effects[result].items():
                    expected[key] += change
            assert ship["ratings"] == expected, ship["name"]


# ---------------------------------------------------------------- issue 22: the reviewer's pages


def _header_cells(page: PageObject) -> list[tuple[float, float]]:
    """Return the left and right x (pt) of every shaded cell of a page's table heads (and
    anything as tall: the side's rule), in page order: where the columns stand."""
    found: set[tuple[float, float]] = set()

    def on_operator(op: bytes, args: list[Any], cm: list[float], tm: list[float]) -> None:
        if op == b"re" and cm[1] == 0 and cm[2] == 0:
            x, _, w, h = (float(v) for v in args)
            if 5 < abs(h * cm[3]) < 30 and abs(w * cm[0]) > 5:
                left = x * cm[0] + cm[4]
                found.add((round(left, 2), round(left + w * cm[0], 2)))

    page.extract_text(visitor_operand_before=on_operator)
    return sorted(found)


def _roster_pages(reader: PdfReader) -> list[PageObject]:
    return [page for page in reader.pages if page_text(page).lstrip().startswith("Roster —")]


@pytest.mark.parametrize("ruleset", ["tactical", "flob", "impulse"])
def test_a_packets_rosters_have_the_same_columns(rules: Rules, ruleset: str) -> None:
    """In a packet each side's roster is laid out from that side alone: each side's columns
    are still the whole scenario's (once Ship and Class were wider on one side, Sails 9 px
    further along), and so are a handout's, which holds its own side's roster only."""
    scenario = roll_scenario(rules, ruleset, 5)
    packet = build_packet(rules, scenario, without=frozenset(LEAVE_OUT))
    pages = _roster_pages(read(packet.write()))
    assert len(pages) == 2
    first, second = (_header_cells(page) for page in pages)
    assert len(first) == len(roster.roster_spec(ruleset).columns) + 3  # No., Ship, rule
    assert first == second
    for index in (0, 1):
        (handout,) = _roster_pages(read(packet.write(sides={index})))
        assert _header_cells(handout) == first
    # the widths are the whole scenario's as one sheet lays it out (measured on every side)
    whole = roster.context(rules, scenario, "a4", ruleset)["widths"]
    alone = [{**scenario, "sides": [side]} for side in scenario["sides"]]
    # the bug, held: one side alone asks for other widths
    assert any(roster.context(rules, one, "a4", ruleset)["widths"] != whole for one in alone)
    for one in alone:
        one[roster.EVERY_SIDE] = scenario["sides"]
        assert roster.context(rules, one, "a4", ruleset)["widths"] == whole


def test_the_officers_line_spans_the_table(rules: Rules) -> None:
    """The high-seas officers' line under a ship's row is one cell across the whole table:
    no column rule runs through the names."""
    scenario = roll_scenario(rules, "high-seas", 5)
    columns = roster.context(rules, scenario, "a4", "high-seas")["columns"]
    html = sheet_html("roster", rules, data=scenario)
    rows = re.findall(r'<tr class="sub">(.*?)</tr>', html, flags=re.S)
    assert len(rows) == sum(len(side["ships"]) for side in scenario["sides"])
    for row in rows:
        cells = re.findall(r"<td([^>]*)>", row)
        assert cells == [f' colspan="{len(columns) + 1}"'], row
        assert "Captain " in row


def test_a_trait_rolled_twice_is_said_once_with_its_count(rules: Rules) -> None:
    """A flagship rolls twice on each ship table: a trait rolled twice counts twice (her
    ratings hold both bonuses), and the roster says so once, with the count."""
    scenario = roll_scenario(rules, "tactical", 5)
    ship = scenario["sides"][0]["ships"][0]
    first = ship["traits"][0]
    ship["traits"] = [first, dict(first), *ship["traits"][1:]]
    (row, *_) = roster.context(rules, scenario, "a4", "tactical")["sides"][0]["units"]
    traits = row["cells"][-1].split(", ")
    assert traits[0] == f"{first['result']} ×2"
    assert first["result"] not in traits and len(traits) == len(set(traits))
    content = flat(read(render_sheet("roster", rules, data=scenario)))
    assert f"{first['result']} ×2" in content
    assert squeeze('a trait she rolled twice, "×2", counts twice') in squeeze(content)
    assert counted(["Swashbuckler", "Seaworthy", "Swashbuckler", "Swashbuckler"]) == [
        "Swashbuckler ×3",
        "Seaworthy",
    ]


def _write_lines(page: PageObject) -> list[tuple[float, float, float]]:
    """Return the stroked horizontal lines of a page (the write-in lines): x0, x1 and y
    from the top, in pt."""
    height = float(page.mediabox.height)
    lines: list[tuple[float, float, float]] = []
    start: list[tuple[float, float]] = []

    def on_operator(op: bytes, args: list[Any], cm: list[float], tm: list[float]) -> None:
        if op in (b"m", b"l") and len(args) == 2:
            x, y = (float(v) for v in args)
            point = (x * cm[0] + y * cm[2] + cm[4], x * cm[1] + y * cm[3] + cm[5])
            if op == b"l" and start and abs(start[-1][1] - point[1]) < 0.01:
                x0, x1 = sorted((start[-1][0], point[0]))
                lines.append((x0, x1, height - point[1]))
            start.append(point)

    page.extract_text(visitor_operand_before=on_operator)
    return lines


@pytest.mark.parametrize(
    ("ruleset", "paper", "fillable"),
    [("tactical", "a4", True), ("tactical", "a4", False), ("flob", "letter", False)],
)
def test_a_blank_rosters_labels_sit_on_their_lines(
    rules: Rules, ruleset: str, paper: str, fillable: bool
) -> None:
    """Name, Admiral ... Strength stood half a line above their write-in lines, Strength
    touching the table: each label's baseline is on its line (its descenders below)."""
    reader = read(render_sheet("roster", rules, ruleset=ruleset, paper=paper, fillable=fillable))
    page = reader.pages[0]
    lines = _write_lines(page)
    labels = ["Name", *(fact.label for fact in roster.roster_spec(ruleset).facts if fact.blank)]
    found = [r for r in runs(page) if r.text.split(" ")[0] in [*labels, "Strength"]]
    assert {r.text.split(" ")[0] for r in found} == {*labels, "Strength"}
    for run in found:
        below = [y for x0, _, y in lines if x0 > run.x and -0.1 <= y - run.y <= 12]
        assert below, run
        assert min(below) - run.y <= 0.8 * MM, (run.text, min(below) - run.y)
