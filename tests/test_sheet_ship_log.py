"""Ship's logs, drawn with ReportLab: every ruleset on both papers, the biggest forces, blank
and fillable logs, the numbers worked out from a ship's ratings and the thresholds on her
rows; read back with pypdf, and checked against the layout the sheet's context planned."""

from __future__ import annotations

import copy
import dataclasses
import math
import re
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from generator.errors import InputError
from generator.generate import convoy as convoy_gen
from generator.generate import flob as flob_gen
from generator.generate import high_seas as high_seas_gen
from generator.generate import impulse as impulse_gen
from generator.generate import tactical as tactical_gen
from generator.generate.scenario import dump, read_scenario, roll_scenario
from generator.loading import Rules
from generator.render import draw
from generator.render.draw import LEADING, Drawing, text_width_mm
from generator.render.kinds import ship_log
from generator.render.kinds.ship_log import body as log_body
from generator.render.kinds.ship_log.items import (
    SHIP_MARK_LEVEL,
    Band,
    Bookmark,
    CrossBox,
    Frame,
    Item,
    Items,
    Text,
    TrackMark,
    TurnField,
    WriteBox,
)
from generator.render.paper import get_paper
from generator.render.sheets import draw_sheet, page_boxes, render_sheet
from generator.render.specs import spec_problems
from generator.ruleset import logcard
from generator.ruleset.logcard import Checks, Choice, LogCard, Table, TextCell, Track, Tracks
from generator.rulesets import get_spec
from generator.text import signed
from tests.fullest import SEEDS, fullest
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
    widgets,
)

LONG_NAME = "Nuestra Señora de la Santísima Trinidad <&>"
RULESETS = ("tactical", "flob", "high-seas", "impulse", "convoy")
# logs a page can hold at most (a side's first page holds fewer under its introduction)
MOST_PER_PAGE = {"tactical": 6, "flob": 2, "high-seas": 2, "impulse": 3, "convoy": 6}
# the seeds of the biggest forces the generators make (tests/fullest.py)
BIGGEST = {ruleset: SEEDS[ruleset] for ruleset in RULESETS}
# two ships of the line (740 Hull HP, 250 Rigging HP, 600 crew), the first side's first
LINE_SEED = 26
HEADING = "— ship’s log"


# ---------------------------------------------------------------- reading the layout back


def planned(context: dict[str, Any]) -> dict[str, tuple[int, tuple[float, float, float, float]]]:
    """Return every form field the context plans: its page and its rectangle, in mm from
    the page's bottom-left as pypdf reads a widget's."""
    height = get_paper(context["paper"]).height_mm
    found = {}
    for number, page in enumerate(context["pages"]):
        for item in page["items"]:
            if isinstance(item, CrossBox | WriteBox | TurnField):
                name = item.name if isinstance(item, TurnField) else item.field
                x, y, w, h = item.x, item.y, item.w, item.h
                found[name] = (number, (x, height - y - h, x + w, height - y))
    return found


def check_widgets(reader: PdfReader, paper: str) -> set[str]:
    """Every field is at least 5 mm, inside the page's margins, and overlaps no other."""
    width, height = (v / MM for v in PAGE_SIZES[paper])
    found = widgets(reader, unit=MM)
    names = [name for _, name, _, _ in found]
    assert len(names) == len(set(names)), "field names repeat"
    by_page: dict[int, list[tuple[float, float, float, float]]] = {}
    for page, name, _, (x0, y0, x1, y1) in found:
        assert y1 - y0 >= 5 - 0.01 and x1 - x0 >= 5 - 0.01, (name, x1 - x0, y1 - y0)
        assert x0 >= 11 - 0.01 and x1 <= width - 11 + 0.01, (name, x0, x1)
        assert y0 >= 10 - 0.01 and y1 <= height - 10 + 0.01, (name, y0, y1)
        by_page.setdefault(page, []).append((x0, y0, x1, y1))
    for rects in by_page.values():
        rects.sort()
        for i, (ax0, ay0, ax1, ay1) in enumerate(rects):
            for bx0, by0, _, by1 in rects[i + 1 :]:
                if bx0 >= ax1 - 0.01:
                    break
                assert not (by0 < ay1 - 0.01 and ay0 < by1 - 0.01), ((ax0, ay0), (bx0, by0))
    return set(names)


def check_fields_over_boxes(reader: PdfReader, context: dict[str, Any], prefix: str = "") -> None:
    """Every printed box and write-in box has its field, laid exactly over it, on its page."""
    plan = planned(context)
    found = {name: (page, rect) for page, name, _, rect in widgets(reader, unit=MM)}
    assert set(found) == {prefix + name for name in plan}
    for name, (page, rect) in plan.items():
        got_page, got = found[prefix + name]
        assert got_page == page, name
        assert all(abs(a - b) < 0.05 for a, b in zip(got, rect, strict=True)), (name, got, rect)


def cards(context: dict[str, Any]) -> list[LogCard]:
    return [card for side in context["sides"] for card in side["logs"]]


def key_values(scenario: dict[str, Any]) -> list[str]:
    """Text each ruleset's logs must show, from the scenario's first ship of each side."""
    ruleset = scenario["ruleset"]
    out = []
    for side in scenario["sides"]:
        ship = side["ships"][0]
        if ruleset == "tactical":
            r = ship["ratings"]
            out += [
                f"Sails {r['sails']}",
                f"Cannon {r['cannon']}",
                f"Courage {signed(r['courage'])}",
            ]
            out += ["Damaged this turn", "Fled", "Captured", "Movement 2D6"]
            out += ["Boarding action 1D6"]
            out += ["at 0: cannot move", "roundshot"]
        elif ruleset == "flob":
            out += [f"Broadside {ship['broadside']}", f"Hull {ship['hull']}"]
            out += [f"Crew parties {ship['crew_parties']}", f"Mizzen {ship['mast_rating']}"]
            out += ["MF", "Hull fires", "Reload actions", "Captain wounded", "Entangled"]
            out += ["Attack number Point Blank", "over 4: out of control"]
        elif ruleset == "high-seas":
            out += [f"Hull HP {ship['hull_hp']}", f"Rigging HP {ship['rigging_hp']}"]
            out += [f"{o['role']} {o['name']} {o['hit_points']}" for o in ship["officers"]]
            out += ["10 a box", "Wet sails", "Hard turn", "Grappled", "Loaded", "Firepower"]
            out += ["To hit Long", "at 0: sinks"]
        elif ruleset == "impulse":
            out += [f"Hull {ship['hull']}", f"Rigging {ship['rigging']}", f"Crew {ship['crew']}"]
            out += ["Crew Status", "Broken", "Handy", "Fire checks", "Port loaded"]
            out += ["all marked: sinks", "Hull type bonus"]
        else:
            out += [f"Crew {ship['crew']}", f"Guns {ship['guns']}", f"Sail {ship['sail']}"]
            out += ["Struck", "Captured", "Aground", "In fog", "Gunnery", "at 0:"]
    return out


def expected_pages(scenario: dict[str, Any]) -> tuple[int, int]:
    """Each side starts a page and never has more pages than ships."""
    most = MOST_PER_PAGE[scenario["ruleset"]]
    counts = [len(side["ships"]) for side in scenario["sides"]]
    return sum(math.ceil(n / most) for n in counts), sum(counts)


def check_log(reader: PdfReader, scenario: dict[str, Any], paper: str) -> str:
    low, high = expected_pages(scenario)
    assert low <= len(reader.pages) <= high
    assert all(page_size(reader, i) == PAGE_SIZES[paper] for i in range(len(reader.pages)))
    content = flat(reader)
    for side in scenario["sides"]:
        assert f"{side['name']} {HEADING}" in content
        for ship in side["ships"]:
            assert ship["name"] in content, ship["name"]
    for value in key_values(scenario):
        assert value in content, value
    assert f"seed {scenario['seed']}" in content and "House tables used" in content
    assert smallest_text(reader) >= 6.99
    assert reader.metadata is not None
    assert reader.metadata.title == f"Ship's log — {scenario['title']}"
    assert reader.metadata.subject and "turn log" in reader.metadata.subject
    return content


def check_running_heads(reader: PdfReader, scenario: dict[str, Any]) -> None:
    """Every page names its side and says which of the side's pages it is; each side starts
    a page of its own."""
    texts = [page_text(page) for page in reader.pages]
    at = 0
    for side in scenario["sides"]:
        heading = f"{side['name']} {HEADING}"
        count = sum(text.startswith(heading) for text in texts)
        assert count >= 1
        for number in range(1, count + 1):
            words = " ".join(texts[at].split())
            assert words.startswith(f"{heading} Page {number} of {count}"), words[:80]
            assert ("seed" in words) == (number == 1)  # the introduction: first page only
            at += 1
    assert at == len(texts)


# each ruleset on one paper here and on the other in the biggest-force test below
PAPER = {"tactical": "a4", "flob": "letter", "high-seas": "a4", "impulse": "letter", "convoy": "a4"}
OTHER = {"a4": "letter", "letter": "a4"}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_logs_of_a_scenario(rules: Rules, ruleset: str) -> None:
    scenario = roll_scenario(rules, ruleset, 3)
    paper = PAPER[ruleset]
    mono = ruleset in ("tactical", "impulse", "convoy")
    reader = read(render_sheet("ship-log", rules, data=scenario, paper=paper, mono=mono))
    check_log(reader, scenario, paper)
    check_running_heads(reader, scenario)
    assert not widgets(reader)
    if mono:
        assert colours(reader) <= {(0.0, 0.0, 0.0), (1.0, 1.0, 1.0), (0.0,), (1.0,)}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_biggest_forces_and_the_longest_name(rules: Rules, ruleset: str) -> None:
    # the biggest side alone, its first ship with the longest name (the print check
    # renders the same, tests/fullest.py)
    scenario = fullest("ship-log", ruleset, rules)
    assert scenario["sides"][0]["ships"][0]["name"] == LONG_NAME
    paper = OTHER[PAPER[ruleset]]
    fillable = ruleset in ("high-seas", "convoy")
    pdf = render_sheet("ship-log", rules, data=scenario, paper=paper, fillable=fillable)
    reader = read(pdf)
    content = check_log(reader, scenario, paper)
    check_running_heads(reader, scenario)
    assert LONG_NAME in content
    ships = [len(side["ships"]) for side in scenario["sides"]]
    if ruleset == "tactical":
        assert ships == [12]
        assert sum(s["ally"] for s in scenario["sides"][0]["ships"]) == 6
    if ruleset == "convoy":
        assert sum(s["kind"] == "merchant" for s in scenario["sides"][0]["ships"]) == 8
    if ruleset == "high-seas":
        # the most officers: every one has his row of hit points
        largest = max(s["hull_hp"] for s in scenario["sides"][0]["ships"])
        assert f"Hull HP {largest}" in content and "½" in content
        for ship in scenario["sides"][0]["ships"]:
            for officer in ship["officers"]:
                assert squeeze(officer["name"]) in squeeze(content), officer["name"]
    if fillable:
        names = check_widgets(reader, paper)
        assert f"{ship_log.slug(scenario['sides'][0]['name'])}_1_log_1_notes" in names
        check_fields_over_boxes(reader, ship_log.context(rules, scenario, paper, ruleset))


@pytest.mark.parametrize(
    ("ruleset", "paper", "fillable"),
    [
        ("tactical", "a4", True),
        ("flob", "letter", True),
        ("high-seas", "a4", False),
        ("high-seas", "letter", True),
        ("impulse", "letter", True),
        ("convoy", "letter", False),
    ],
)
def test_a_blank_page_of_logs(rules: Rules, ruleset: str, paper: str, fillable: bool) -> None:
    reader = read(render_sheet("ship-log", rules, ruleset=ruleset, paper=paper, fillable=fillable))
    assert len(reader.pages) == 1
    assert page_size(reader) == PAGE_SIZES[paper]
    content = flat(reader)
    assert content.startswith("Ship’s log ")
    # numbered as every other sheet is (the spare log had no page label)
    assert content.count("Page 1 of 1") == 1
    assert content.count("Ship’s name") == ship_log.layout_of(ruleset).blank_logs
    assert "cross out the boxes" in content and "House tables used" not in content
    assert "Work out her numbers from her ratings:" in content
    assert smallest_text(reader) >= 6.99
    assert reader.metadata is not None and reader.metadata.title == "Ship's log"
    if fillable:
        names = check_widgets(reader, paper)
        assert {"blank_1_name", "blank_1_log_1_turn", "blank_1_log_1_notes"} <= names
        assert any(name.startswith("blank_1_hull_") for name in names)
        assert any(name.startswith("blank_1_figure_") for name in names)
        check_fields_over_boxes(reader, ship_log.context(rules, None, paper, ruleset))
    else:
        assert not widgets(reader)


def test_a_fillable_scenario_log_in_colour(rules: Rules) -> None:
    scenario = roll_scenario(rules, "tactical", 3)
    scenario["sides"] = scenario["sides"][1:]
    reader = read(render_sheet("ship-log", rules, data=scenario, fillable=True))
    names = check_widgets(reader, "a4")
    side = ship_log.slug(scenario["sides"][0]["name"])
    count = len(scenario["sides"][0]["ships"])
    sails = scenario["sides"][0]["ships"][-1]["ratings"]["sails"]
    assert f"{side}_{count}_sails_{sails}" in names
    assert f"{side}_{count}_sails_{sails + 1}" not in names
    assert {f"{side}_1_fled", f"{side}_1_damaged_this_turn", f"{side}_1_log_2_notes"} <= names
    check_fields_over_boxes(reader, ship_log.context(rules, scenario, "a4", "tactical"))
    assert colours(reader) - {(0.0, 0.0, 0.0), (1.0, 1.0, 1.0), (0.0,), (1.0,)}
    kinds = {name: kind for _, name, kind, _ in widgets(reader)}
    assert kinds[f"{side}_1_fled"] == "/Btn" and kinds[f"{side}_1_log_1_notes"] == "/Tx"


def test_a_packet_gives_the_fields_its_prefix(rules: Rules) -> None:
    """Drawn into a packet's canvas with a prefix, every field still lies over its box."""
    scenario = roll_scenario(rules, "convoy", 3)
    drawing = Drawing("letter")
    draw_sheet(drawing, "ship-log", rules, data=scenario, fillable=True, field_prefix="s2_")
    reader = read(drawing.finish())
    check_fields_over_boxes(reader, ship_log.context(rules, scenario, "letter", "convoy"), "s2_")


def test_one_side_of_a_scenario(rules: Rules) -> None:
    """A game-night packet gives each side's sheets the scenario with that side only."""
    scenario = roll_scenario(rules, "flob", 3)
    scenario["sides"] = scenario["sides"][1:]
    reader = read(render_sheet("ship-log", rules, data=scenario, paper="letter"))
    content = check_log(reader, scenario, "letter")
    assert "Utrecht" not in content


def test_an_edited_scenario_without_optional_fields(rules: Rules, tmp_path: Path) -> None:
    scenario = roll_scenario(rules, "tactical", 3)
    side = scenario["sides"][0]
    for key in ("admiral_name", "ally_navy"):
        side.pop(key, None)
    for ship in side["ships"]:
        ship.pop("captain")
        ship.pop("navy")
    scenario["sides"] = [side]
    path = tmp_path / "edited.yaml"
    path.write_text(dump(scenario, "yaml"), encoding="utf-8")
    edited = read_scenario(path, rules, "tactical")
    reader = read(render_sheet("ship-log", rules, data=edited))
    content = flat(reader)
    assert side["ships"][0]["name"] in content and "· Captain" not in content


def test_the_sheet_command_writes_logs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from generator.cli import main

    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as caught:
        main(["sheet", "ship-log", "--ruleset", "convoy", "--seed", "3", "--paper", "letter"])
    assert caught.value.code == 0
    written = tmp_path / "output" / "ship-log-convoy-3-letter.pdf"
    reader = read(written.read_bytes())
    assert page_size(reader) == PAGE_SIZES["letter"]
    assert reader.metadata is not None and "Convoy off" in str(reader.metadata.title)


def test_a_ruleset_the_logs_do_not_serve_is_refused(rules: Rules) -> None:
    serves = "high-seas, impulse, convoy, tactical, flob"
    with pytest.raises(InputError, match=rf"--ruleset: the ship-log sheet serves {serves}"):
        render_sheet("ship-log", rules, ruleset="duel")


def test_same_inputs_give_the_same_bytes(rules: Rules) -> None:
    scenario = roll_scenario(rules, "impulse", 3)
    first = render_sheet("ship-log", rules, data=scenario, fillable=True)
    assert render_sheet("ship-log", rules, data=copy.deepcopy(scenario), fillable=True) == first


# ---------------------------------------------------------------- the design


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_page_is_filled_and_every_item_stays_in_its_log(rules: Rules, ruleset: str) -> None:
    """A page's spare height becomes turn-log rows: the last log ends within a row of the
    frame's foot, logs side by side are as tall as each other; and every text, box and line
    of a log lies inside its border, every line of text as wide as its box allows."""
    for paper in ("a4", "letter"):
        for data in (fullest("ship-log", ruleset, rules), None):
            context = ship_log.context(rules, data, paper, ruleset)
            bottom = page_boxes("ship-log", paper)["art"][3]
            for page in context["pages"]:
                frames = [
                    i for i in page["items"] if isinstance(i, Frame) and i.pt == ship_log.BORDER_PT
                ]
                assert frames
                last = max(f.y + f.h for f in frames)
                assert bottom - ship_log.LOG_ROW_MM - 0.01 <= last <= bottom + 0.01
                rows: dict[float, set[float]] = {}
                for frame in frames:
                    rows.setdefault(round(frame.y, 3), set()).add(round(frame.h, 3))
                assert all(len(heights) == 1 for heights in rows.values())
                check_items_inside(page["items"])


def check_items_inside(items: list[Item]) -> None:
    frame: Frame | None = None
    for item in items:
        if isinstance(item, Frame) and item.pt == ship_log.BORDER_PT:
            frame = item
            continue
        if isinstance(item, Text):
            for line in item.lines:
                assert text_width_mm(line, item.font, item.size) <= item.w + 0.05, line
            if item.size < 7.0:
                raise AssertionError(f"text under 7 pt: {item.lines}")
        if frame is None or isinstance(item, TrackMark | Bookmark):
            continue  # a point, not a box
        height = len(item.lines) * item.size * LEADING / MM if isinstance(item, Text) else item.h
        right, foot = item.x + item.w, item.y + height
        assert frame.x - 0.01 <= item.x and right <= frame.x + frame.w + 0.01, item
        assert frame.y - 0.01 <= item.y and foot <= frame.y + frame.h + 0.01, item


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_ratings_stand_in_one_column(rules: Rules, ruleset: str) -> None:
    """Every row of boxes of every log of a sheet starts at one x (a group of rows, the
    officers', at its own), its label and value left of it."""
    for data in (roll_scenario(rules, ruleset, BIGGEST[ruleset]), None):
        context = ship_log.context(rules, data, "a4", ruleset)
        boxes = {
            item.field: item
            for page in context["pages"]
            for item in page["items"]
            if isinstance(item, CrossBox)
        }
        for side in context["sides"]:
            for card in side["logs"]:
                starts: dict[bool, set[float]] = {}
                for section in card.sections():
                    if not isinstance(section, Tracks):
                        continue
                    for track in section.rows:
                        if track.boxes:
                            first = boxes[track.boxes[0]]
                            starts.setdefault(bool(section.group), set()).add(round(first.x, 2))
                # the pair rows' left column and the full rows share the column
                assert all(len(xs) == 1 for xs in starts.values()), (card.name, starts)


def test_a_long_row_breaks_into_lines_with_its_half_mark(rules: Rules) -> None:
    """74 boxes and the ½ mark after the 37th, in a column with room for 22 boxes a line:
    four lines, the boxes in order, the mark between the 37th and the 38th box."""
    log = logcard.Log("x", "Ship")
    track = log.track("Hull HP", 74, 740, half_after=37, sub="10 a box")
    out = Items()
    label = 27.0
    bottom = log_body._track(out, track, 0.0, label + 22 * log_body.PITCH_MM, 0.0, label, 8.0)
    boxes = [item for item in out.items if isinstance(item, CrossBox)]
    assert tuple(b.field for b in boxes) == track.boxes
    lines = sorted({b.y for b in boxes})
    assert lines == [0.0, 6.0, 12.0, 18.0] and bottom >= 18.0 + log_body.ROW_MM
    assert all(label <= b.x and b.x + 5.0 <= label + 22 * 5.5 for b in boxes)
    (mark,) = [item for item in out.items if isinstance(item, TrackMark)]
    before, after = boxes[36], boxes[37]
    assert mark.half and mark.y == before.y == after.y
    assert before.x + 5.0 < mark.x < after.x
    assert after.x - before.x == pytest.approx(5.0 + log_body.HALF_MM)


def test_no_table_ids_or_program_values_on_the_logs(rules: Rules) -> None:
    ids = re.compile(r"\b(tactical|flob|convoy|impulse|high-seas|duel)\.[a-z]")
    for ruleset in RULESETS:
        for data in (roll_scenario(rules, ruleset, 3), None):
            content = flat(read(render_sheet("ship-log", rules, data=data, ruleset=ruleset)))
            assert not ids.search(content), ids.search(content)
            for value in ("True", "False", "None", "[", "{", "_"):
                assert value not in content, (ruleset, value)
            # remarks about the program or about sheets the players do not hold
            for remark in REMARKS:
                assert remark not in content.casefold(), (ruleset, remark)


# words about how the sheet was made, or pointing to a page a player does not hold
REMARKS = (
    "a box a point",
    "hundreds of boxes",
    "would be",
    "listed on the briefing",
    "notes for the gm",
    "program",
    "quartermaster",
)


def _writes(page: dict[str, Any]) -> dict[str, WriteBox]:
    return {item.field: item for item in page["items"] if isinstance(item, WriteBox)}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_blank_logs_labels_stand_left_of_their_boxes(rules: Rules, ruleset: str) -> None:
    """On a blank log every particular, rating and number has its label on its box's line,
    left of it, as on a headed log (the tactical ratings once stood above theirs); her
    numbers stand in their band, as a headed log's do."""
    for paper in ("a4", "letter"):
        context = ship_log.context(rules, None, paper, ruleset)
        (page,) = context["pages"]
        writes = _writes(page)
        texts = [item for item in page["items"] if isinstance(item, Text)]
        bands = [item for item in page["items"] if isinstance(item, Band)]
        for card in cards(context):
            entries = (*card.heads, *card.facts, *card.figures)
            assert entries
            for entry in entries:
                box = writes[entry.field]
                (label,) = [t for t in texts if t.lines == (entry.label,)
                            and abs(t.y - box.y) < box.h and t.x < box.x
                            and abs(t.x + t.w - box.x) < 2.0]  # fmt: skip
                assert box.y <= label.y < box.y + box.h, entry.label
            for figure in card.figures:
                box = writes[figure.field]
                assert any(
                    b.x <= box.x and box.x + box.w <= b.x + b.w
                    and b.y <= box.y and box.y + box.h <= b.y + b.h
                    for b in bands
                ), figure.label  # fmt: skip


def _turn_rows(page_items: list[Item], prefix: str) -> int:
    turn = re.compile(rf"{re.escape(prefix)}_log_\d+_turn")
    return sum(
        1 for item in page_items if isinstance(item, TurnField) and turn.fullmatch(item.name)
    )


@pytest.mark.parametrize(
    ("ruleset", "turns"), [("flob", 12), ("impulse", 12), ("convoy", 16), ("tactical", None)]
)
def test_a_log_has_a_row_for_every_turn(rules: Rules, ruleset: str, turns: int | None) -> None:
    """A log's turn log has a row for every turn the game can last: FLoB's 12 (the house
    scenario's length), impulse's 12, as many as the battle clock allows (its loop moved 3
    spaces a turn: 16 for the longest loop, a blank log's); tactical sets no length."""
    assert ship_log.layout_of(ruleset).game_turns(rules, None) == turns
    for data in (None, *(roll_scenario(rules, ruleset, seed) for seed in (2, 3, 5))):
        expected = turns
        if data is not None and ruleset == "convoy":
            clock = data["battle_clock"]
            expected = math.ceil(clock["loop"] / min(clock["moves"]))
        for paper in ("a4", "letter"):
            context = ship_log.context(rules, data, paper, ruleset)
            assert context["turns"] == expected
            items = [item for page in context["pages"] for item in page["items"]]
            for card in cards(context):
                rows, columns = card.turn_log
                if expected is not None:
                    assert rows * columns >= expected, (card.name, card.turn_log)
                assert _turn_rows(items, card.prefix) >= (expected or 1)


def test_the_convoy_log_follows_the_scenarios_battle_clock(rules: Rules) -> None:
    """A 36-space loop is 12 turns at 3 spaces a turn (convoy seed 2's); at 4 or 5 spaces a
    turn a 42-space loop is 11 (10.5, and a turn that completes it)."""
    scenario = roll_scenario(rules, "convoy", 2)
    scenario["battle_clock"] = {"loop": 36, "moves": [3, 4, 5]}
    assert ship_log.layout_of("convoy").game_turns(rules, scenario) == 12
    scenario["battle_clock"] = {"loop": 42, "moves": [4, 5]}
    assert ship_log.layout_of("convoy").game_turns(rules, scenario) == 11


def test_a_game_length_that_is_not_a_number_is_refused(rules: Rules) -> None:
    broken = dataclasses.replace(ship_log.layout_of("flob"), turns="{{ 'twelve' }}")
    with pytest.raises(ship_log.SpecError, match=r"flob\.yaml:\d+: turns must come to a whole"):
        broken.game_turns(rules, None)


def test_the_house_tables_are_named_on_the_log(rules: Rules) -> None:
    """A log names the house tables its scenario was rolled with, by their short titles,
    on the page itself: the briefing and the Notes for the GM are not the players'."""
    scenario = roll_scenario(rules, "flob", 3)
    content = " ".join(flat(read(render_sheet("ship-log", rules, data=scenario))).split())
    titles = [rules.table(t).title for t in scenario["house_tables"]]
    assert len(titles) >= 3
    assert f"House tables used: {', '.join(titles)}." in content
    assert "Squadron Composition" in titles and "(house table)" not in content


def test_each_ship_is_bookmarked_under_her_sides_log(rules: Rules) -> None:
    """A packet nests a log's ships under its "Ship's log" entry (level 2): each ship's
    entry is at level 3 and points at the top of her log."""
    scenario = roll_scenario(rules, "flob", 3)
    drawing = Drawing("a4")
    draw_sheet(drawing, "ship-log", rules, data=scenario, bookmarks=(("Ship's log", 2),))
    names = [ship["name"] for side in scenario["sides"] for ship in side["ships"]]
    assert [(m.label, m.level) for m in drawing.marks] == [("Ship's log", 2)] + [
        (name, SHIP_MARK_LEVEL) for name in names
    ]
    context = ship_log.context(rules, scenario, "a4", "flob")
    tops = [
        (number, item.y)
        for number, page in enumerate(context["pages"])
        for item in page["items"]
        if isinstance(item, Frame) and item.pt == ship_log.BORDER_PT
    ]
    height = get_paper("a4").height_mm
    for mark, (number, top) in zip(drawing.marks[1:], tops, strict=True):
        assert mark.page == number
        assert mark.top_pt == pytest.approx((height - top - ship_log.PAD_MM) * MM)
    assert SHIP_MARK_LEVEL == 3


# ---------------------------------------------------------------- what the logs hold


def _checks(card: LogCard) -> list[str]:
    return [
        item.label
        for section in card.sections()
        if isinstance(section, Checks)
        for item in section.entries
    ]


def _tracks(card: LogCard) -> dict[str, Track]:
    return {
        track.label: track
        for section in card.sections()
        if isinstance(section, Tracks)
        for track in section.rows
    }


def _figures(card: LogCard) -> dict[str, str | None]:
    return {figure.label: figure.value for figure in card.figures}


def test_what_each_ruleset_tracks(rules: Rules) -> None:
    flob = roll_scenario(rules, "flob", 3)
    logs = ship_log.context(rules, flob, "a4", "flob")["sides"][0]["logs"]
    ship = flob["sides"][0]["ships"][0]
    assert ship["flagship"] and "Admiral wounded" in _checks(logs[0])
    assert "Admiral wounded" not in _checks(logs[1])
    tracks = _tracks(logs[0])
    assert len(tracks["Broadside"].boxes) == ship["broadside"]
    assert [k for k in tracks if "mast" in k.lower() or k == "Mizzen"] == [
        "Foremast", "Mainmast", "Mizzen",
    ]  # fmt: skip
    two_masts = copy.deepcopy(flob)
    two_masts["sides"][0]["ships"][0]["masts"] = 2
    logs = ship_log.context(rules, two_masts, "a4", "flob")["sides"][0]["logs"]
    assert "Mizzen" not in _tracks(logs[0])

    seas = roll_scenario(rules, "high-seas", LINE_SEED)
    line = seas["sides"][0]["ships"][0]
    card = ship_log.context(rules, seas, "letter", "high-seas")["sides"][0]["logs"][0]
    tracks = _tracks(card)
    assert len(tracks["Hull HP"].boxes) == 74 and len(tracks["Rigging HP"].boxes) == 25
    assert sum(1 for label in tracks if label.startswith(("Captain ", "First Mate "))) == 2
    officer = line["officers"][0]
    assert len(tracks[f"Captain {officer['name']}"].boxes) == officer["hit_points"]
    assert {"Wet sails", "Hard turn", "Rudder damaged", "Grappled", "Struck"} <= set(_checks(card))

    impulse = roll_scenario(rules, "impulse", 3)
    card = ship_log.context(rules, impulse, "a4", "impulse")["sides"][0]["logs"][0]
    (choice,) = [s for s in card.sections() if isinstance(s, Choice)]
    start = [o.label for o in choice.options if o.start]
    assert start == [impulse["sides"][0]["ships"][0]["morale"]]

    convoy = roll_scenario(rules, "convoy", 3)
    sides = ship_log.context(rules, convoy, "a4", "convoy")["sides"]
    assert all("Escaped" not in _checks(card) for card in sides[1]["logs"])  # raiders
    merchants = [c for c in sides[0]["logs"] if "Merchant" in c.tags]
    assert merchants and all("Escaped" in _checks(card) for card in merchants)


def test_thresholds_and_what_the_last_box_brings(rules: Rules) -> None:
    """A tick where the rules say something happens, and the effect of the last box,
    in the rules' words (each by hand from the data files)."""
    tactical = roll_scenario(rules, "tactical", 3)
    card = cards(ship_log.context(rules, tactical, "a4", "tactical"))[0]
    tracks = _tracks(card)
    # a flight test is 1 worse for a ship that has lost 2 or more points in one rating
    assert all(t.marks == ((2, "tick"),) for t in tracks.values())
    assert tracks["Sails"].end == "at 0: cannot move"
    assert tracks["Hull"].end == "at 0: cannot move, sinks in 1D6 turns"
    assert tracks["Crew"].end == "at 0: cannot move, cannot board, loses any boarding"
    assert tracks["Cannon"].end == "at 0: blows its hold and sinks at once"

    flob = roll_scenario(rules, "flob", 3)
    fires = _tracks(cards(ship_log.context(rules, flob, "a4", "flob"))[0])["Hull fires"]
    # critical hit 4: "If this takes it over 4HF the fire is out of control"
    assert len(fires.boxes) == 5 and fires.marks == ((4, "tick"),)
    assert "over 4: out of control" in fires.end

    seas = roll_scenario(rules, "high-seas", LINE_SEED)
    tracks = _tracks(cards(ship_log.context(rules, seas, "a4", "high-seas"))[0])
    # 740 points in 74 boxes of 10: over half once the 37th box is crossed off
    assert tracks["Hull HP"].marks == ((37, "half"),)
    assert tracks["Hull HP"].end == (
        "over ½: -1 handling, takes on water · at 0: sinks, the crew have 2 turns to escape"
    )
    assert tracks["Rigging HP"].marks == ((12, "half"),)  # 250 points: 125 is 12 boxes
    assert tracks["Rigging HP"].end == (
        "over ½: speed halved (rounded up), chase rolls 1d6 · at 0: crippled, may only "
        "circle, at -5 handling"
    )

    impulse = roll_scenario(rules, "impulse", 3)
    tracks = _tracks(cards(ship_log.context(rules, impulse, "a4", "impulse"))[0])
    assert tracks["Hull"].end == "all marked: sinks"
    assert tracks["Crew"].end == "all marked: she strikes"
    assert tracks["Rigging"].end == "all marked: she is dismasted and cannot move"

    convoy = roll_scenario(rules, "convoy", 3)
    tracks = _tracks(cards(ship_log.context(rules, convoy, "a4", "convoy"))[0])
    assert tracks["Crew"].end == "at 0: 1D6 recovery roll. Gunnery -2D6"
    assert tracks["Guns"].end == "at 0: No initial 2D6 per gun. Just modifiers."
    assert tracks["Sail"].end.startswith("at 0: No movement hexes may be rolled for.")


def test_blank_logs_are_as_long_as_the_largest_rating(rules: Rules) -> None:
    """By hand from the data: a 1st Class ship's Crew and Cannon 6, +1 for a national and a
    fleet bonus, +1 twice for a flagship's two Ship rolls: 10 (Sails and Hull have no
    bonus: 6); FLoB's 1st rate; the ship of the line's 740 and 250 Hit Points and an officer
    with Endurance and Strength 18 (18 + 6); impulse's two-decker; a large warship's markers.
    No fleet the generators roll has a longer row than its blank log."""
    assert {k: tactical_gen.most_ratings(rules)[k] for k in tactical_gen.TRACKS} == {
        "sails": 6, "hull": 6, "crew": 10, "cannon": 10,
    }  # fmt: skip
    assert flob_gen.most_ratings(rules) == {
        "broadside": 14, "hull": 12, "masts": 3, "mast_rating": 5, "crew_parties": 8,
    }  # fmt: skip
    assert high_seas_gen.most_points(rules) == {"hull_hp": 740, "rigging_hp": 250, "officer": 24}
    assert impulse_gen.most_boxes(rules) == {"hull": 42, "rigging": 30, "crew": 28}
    assert convoy_gen.most_markers(rules) == {"crew": 4, "guns": 3, "sail": 3}
    for ruleset in RULESETS:
        blank = _tracks(cards(ship_log.context(rules, None, "a4", ruleset))[0])
        longest = {label: len(track.boxes) for label, track in blank.items()}
        for seed in range(25):
            for card in cards(
                ship_log.context(rules, roll_scenario(rules, ruleset, seed), "a4", ruleset)
            ):
                for label, track in _tracks(card).items():
                    key = next((k for k in longest if label.split(" ")[0] in k), None)
                    if key is not None:
                        assert len(track.boxes) <= longest[key], (ruleset, seed, label)
    blank = _tracks(cards(ship_log.context(rules, None, "a4", "tactical"))[0])
    assert {k: len(v.boxes) for k, v in blank.items()} == {
        "Sails": 6, "Hull": 6, "Crew": 10, "Cannon": 10,
    }  # fmt: skip


def _scenario_with(rules: Rules, ruleset: str, *ships: dict[str, Any]) -> dict[str, Any]:
    """A scenario of `ruleset` whose first side's first ships are changed as given."""
    scenario = roll_scenario(rules, ruleset, 3)
    side = scenario["sides"][0]
    while len(side["ships"]) < len(ships):  # a ship more, as her first
        side["ships"].append({**copy.deepcopy(side["ships"][0]), "flagship": False})
        side["ships"][-1]["name"] = f"Copy {len(side['ships'])}"
    for ship, changes in zip(side["ships"], ships, strict=False):
        for key, value in changes.items():
            if isinstance(value, dict):
                ship[key] = {**ship[key], **value}
            else:
                ship[key] = value
    scenario["sides"] = [side]
    return scenario


def test_the_numbers_worked_out_from_a_tactical_ships_ratings(rules: Rules) -> None:
    """By hand from the rules: Movement 2D6 - 4 + Sails + Skill + Swiftness; Broadside
    1D10 + Cannon + Gunnery; range 4 + Gunnery, roundshot +2, grapeshot -2; Boarding 1D6 +
    Crew + Boarding; Flight 1D6, flagship +2, +1 a point of Courage, small ship -1, ally
    -1."""
    big = {
        "class": "1st Class", "flagship": True, "ally": False,
        "ratings": {"sails": 5, "skill": 1, "swiftness": -2, "cannon": 6, "gunnery": 2,
                    "crew": 7, "boarding": 1, "courage": 2},
    }  # fmt: skip
    small = {
        "class": "Small Frigate", "flagship": False, "ally": True,
        "ratings": {"sails": 1, "skill": 0, "swiftness": 2, "cannon": 1, "gunnery": 0,
                    "crew": 1, "boarding": 0, "courage": 0},
    }  # fmt: skip
    scenario = _scenario_with(rules, "tactical", big, small)
    logs = cards(ship_log.context(rules, scenario, "a4", "tactical"))
    assert _figures(logs[0]) == {
        "Movement": "2D6",
        "Broadside": "1D10+8",
        "Range": "roundshot 8 · chainshot 6 · grapeshot 4",
        "Boarding action": "1D6+8",
        "Flight": "1D6+4",
    }
    assert _figures(logs[1]) == {
        "Movement": "2D6-1",
        "Broadside": "1D10+1",
        "Range": "roundshot 6 · chainshot 4 · grapeshot 2",
        "Boarding action": "1D6+1",
        "Flight": "1D6-2",
    }
    hows = {f.label: f.how for f in logs[0].figures}
    assert hows["Movement"] == "-4 + Sails 5 + Skill 1 + Swiftness -2"
    assert hows["Flight"] == "flees on 2 or less; Flagship +2, Courage +2"
    content = flat(read(render_sheet("ship-log", rules, data=scenario)))
    assert "Movement 2D6 -4 + Sails 5 + Skill 1 + Swiftness -2" in content
    assert "Flight 1D6-2 flees on 2 or less; Small Ship -1, Ship is an Ally -1" in content


def test_the_attack_numbers_of_a_flob_ship(rules: Rules) -> None:
    """By hand: Broadside + the range modifier of her gunnery class (A: +4, +1, 0, -4; D:
    +6, +1, n/a, n/a) + her crew's (Elite +2, Poor -1), before the target's Hull."""
    line = {"broadside": 11, "gunnery_class": "A", "crew_quality": "Elite", "rate": "3rd"}
    schooner = {"broadside": 4, "gunnery_class": "D", "crew_quality": "Poor", "rate": "Unrated"}
    scenario = _scenario_with(rules, "flob", line, schooner)
    logs = cards(ship_log.context(rules, scenario, "a4", "flob"))
    assert _figures(logs[0]) == {
        "Attack number": "Point Blank 17 · Short 14 · Medium 13 · Long 9",
        "Range": "Point Blank 0-10 cm · Short 10-20 cm · Medium 20-40 cm · Long 40-60 cm",
    }
    assert _figures(logs[1]) == {
        "Attack number": "Point Blank 9 · Short 4 · Medium — · Long —",
        "Range": "Point Blank 0-10 cm · Short 10-20 cm · Medium 20-30 cm · Long 30-40 cm",
    }
    content = flat(read(render_sheet("ship-log", rules, data=scenario)))
    assert "Attack number Point Blank 17 · Short 14 · Medium 13 · Long 9" in content


def test_the_gunnery_dice_of_a_convoy_ship(rules: Rules) -> None:
    """By hand: 2D6 a gun marker, short range +3, battle hardened +2, scurvy -2, an
    opportunity or return shot -3, never under 2D6; chasers 1D6 to 2 hexes; the range of a
    medium warship 4 hexes, a large 5, a merchant 3."""
    scurvy = {"kind": "warship", "size": "medium", "guns": 2, "condition": "scurvy"}
    hardened = {"kind": "warship", "size": "large", "guns": 3, "condition": "battle hardened"}
    merchant = {"kind": "merchant", "size": "small", "guns": 0, "condition": "normal"}
    scenario = _scenario_with(rules, "convoy", scurvy, hardened, merchant)
    logs = cards(ship_log.context(rules, scenario, "a4", "convoy"))
    chasers = " · chasers 1D6 to 2 hexes"
    assert [_figures(card)["Gunnery"] for card in logs[:3]] == [
        "2D6 to 4 hexes · short range 5D6 · opportunity or return 2D6" + chasers,
        "8D6 to 5 hexes · short range 11D6 · opportunity or return 5D6" + chasers,
        "2D6 to 3 hexes · short range 3D6 · opportunity or return 2D6" + chasers,
    ]


def test_the_broadside_and_hull_bonus_of_an_impulse_ship(rules: Rules) -> None:
    """By hand: a die a gun fired, carronades doubled at 3 movement points or less; the
    hull type bonus die 1d6 + crew quality on her hull type's row (Slow: 1-3 +1, 4-5 +2, 6
    +3; Average: 1-2 +1, 3-4 +2, 5-6 +3)."""
    heavy = {"guns": 15, "carronades": 11, "hull_type": "Slow", "crew_quality": 0}
    frigate = {"guns": 13, "carronades": 3, "hull_type": "Average", "crew_quality": 2}
    scenario = _scenario_with(rules, "impulse", heavy, frigate)
    logs = cards(ship_log.context(rules, scenario, "a4", "impulse"))
    assert _figures(logs[0]) == {
        "Broadside": "26 dice · 37 at 3 MP or less",
        "Hull type bonus": "1-3: +1 · 4-5: +2 · 6: +3",
    }
    # Average with +2: faces 1-2 read 3-4 (+2), 3-6 read 5 or more (+3)
    assert _figures(logs[1]) == {
        "Broadside": "16 dice · 19 at 3 MP or less",
        "Hull type bonus": "1-2: +2 · 3-6: +3",
    }


def test_the_firepower_damage_and_to_hit_of_a_high_seas_ship(rules: Rules) -> None:
    """By hand: firepower the battery's guns / 10 rounded up, damage 3d6 times it; to hit
    d20 or less, Long 6/4, Medium 10/8, Short 14/12, Close automatic/18 (hull/rigging), a
    Navy warship +1, a Master Superior chief gunner +2."""
    navy = {"navy_ship": True, "chief_gunner_master_superior": False,
            "batteries": {"port": 34, "starboard": 34, "stern": 2, "chasers": 0}}  # fmt: skip
    other = {"navy_ship": False, "chief_gunner_master_superior": True}
    scenario = _scenario_with(rules, "high-seas", navy, other)
    logs = cards(ship_log.context(rules, scenario, "a4", "high-seas"))
    assert _figures(logs[0]) == {
        "To hit": "Long 7 / 5 · Medium 11 / 9 · Short 15 / 13 · Close auto / 19"
    }
    assert _figures(logs[1]) == {
        "To hit": "Long 8 / 6 · Medium 12 / 10 · Short 16 / 14 · Close auto / 20"
    }
    (table,) = [s for s in logs[0].sections() if isinstance(s, Table)]
    assert table.head[:4] == ("Broadside", "Guns", "Firepower", "Damage")
    printed = {
        row.label: [c.text if isinstance(c, TextCell) else None for c in row.cells[:3]]
        for row in table.rows
    }
    assert printed == {
        "Port": ["34", "4", "3d6×4"],
        "Starboard": ["34", "4", "3d6×4"],
        "Stern guns": ["2", "1", "3d6×1"],
        "Chasers": ["0", "0", "—"],
    }


def test_tally_tracks_keep_to_a_hundred_boxes() -> None:
    assert logcard.tally(740) == (74, 10)
    assert logcard.tally(145) == (15, 10)
    assert logcard.tally(5) == (1, 10)
    assert logcard.tally(0) == (1, 10)
    boxes, unit = logcard.tally(10_000)
    assert boxes <= logcard.MAX_TALLY_BOXES and boxes * unit >= 10_000 and unit == 100


def test_a_spec_without_its_ship_log_keys_is_refused(rules: Rules) -> None:
    broken = {"layout": "sideways", "blank_logs": 4, "turn_log": [2], "widths": {}}
    spec = dataclasses.replace(get_spec("tactical"), sheets={"ship-log": broken})
    problems = [problem.split(": ", 1)[1] for problem in spec_problems(spec, rules)]
    assert problems == [
        "sheets.ship-log.layout: 'sideways' is not a layout (allowed: half, full)",
        "sheets.ship-log.turn_log: expected exactly 2 numbers, found 1",
        "sheets.ship-log.widths: missing 'label' (number: at least 0 (mm))",
        "sheets.ship-log.widths: missing 'right' (number: at least 0 (mm))",
        "sheets.ship-log.widths: missing 'check' (number: at least 0 (mm))",
    ]


def test_a_trait_rolled_twice_is_said_once_on_the_log(rules: Rules) -> None:
    """The log read "Captain: Swashbuckler, Swashbuckler" where the roster printed the trait
    once: both say it once, with its count (it counts twice)."""
    scenario = roll_scenario(rules, "tactical", 5)
    ship = scenario["sides"][0]["ships"][0]
    first = ship["traits"][0]
    ship["traits"] = [first, dict(first), *ship["traits"][1:]]
    (card, *_) = cards(ship_log.context(rules, scenario, "a4", "tactical"))
    said = f"{first['table'].capitalize()}: {first['result']} ×2"
    assert any(said in line for line in card.lines), card.lines
    content = flat(read(render_sheet("ship-log", rules, data=scenario)))
    assert f"{first['result']} ×2" in content
    assert f"{first['result']}, {first['result']}" not in content


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_boarding_rating_and_the_boarding_roll_are_told_apart(rules: Rules, paper: str) -> None:
    """The tactical log has a Boarding rating and the boarding action roll (1D6 + Crew +
    Boarding): the spare log labelled both "Boarding"."""
    blank = read(render_sheet("ship-log", rules, ruleset="tactical", paper=paper))
    labels = [r.text for page in blank.pages for r in runs(page)]
    logs = labels.count("Ship’s name")
    assert logs >= 4
    assert labels.count("Boarding") == labels.count("Boarding action") == logs
    assert "Boarding action: 1D6 + Crew + Boarding" in flat(blank)
    scenario = roll_scenario(rules, "tactical", 5)
    content = flat(read(render_sheet("ship-log", rules, data=scenario, paper=paper)))
    ships = sum(len(side["ships"]) for side in scenario["sides"])
    assert len(re.findall(r"Boarding action (1D6[+-]\d+|cannot board)", content)) == ships


def test_the_cache_key_follows_the_logs_helper_modules(monkeypatch: pytest.MonkeyPatch) -> None:
    """A blank log's cached PDF is keyed by the code that draws it: the items, the body's
    layout and the painting as much as the package's own module."""
    kind = "generator.render.kinds.ship_log"
    helpers = {f"{kind}.{part}" for part in ("items", "body", "paint")}
    assert helpers <= set(draw.drawing_modules(kind))
    before = draw.source_fingerprint(kind)
    source = draw.module_source
    for helper in sorted(helpers):
        monkeypatch.setattr(
            draw, "module_source", lambda name, h=helper: source(name) + b"#" * (name == h)
        )
        assert draw.source_fingerprint(kind) != before, helper
