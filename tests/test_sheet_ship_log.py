"""Ship's logs: every ruleset on both papers, the biggest forces, blank and fillable logs;
read back with pypdf."""

from __future__ import annotations

import copy
import math
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from generator.errors import InputError
from generator.generate.scenario import dump, read_scenario, roll_scenario
from generator.loading import Rules
from generator.render.kinds import ship_log
from generator.render.sheets import render_sheet
from generator.text import signed
from tests.fullest import fullest
from tests.pdfs import (
    MM,
    PAGE_SIZES,
    colours,
    flat,
    page_size,
    page_text,
    read,
    smallest_text,
    widgets,
)

LONG_NAME = "Nuestra Señora de la Santísima Trinidad <&>"
RULESETS = ("tactical", "flob", "high-seas", "impulse", "convoy")
# logs a page can hold at most (a side's first page holds fewer under its heading)
MOST_PER_PAGE = {"tactical": 6, "flob": 2, "high-seas": 2, "impulse": 3, "convoy": 8}
# the seeds of the biggest forces the generators make: a Diplomat admiral's 12 ships a side,
# 7 ships a side, three ships of the line (740 Hull HP, 600 crew), 4 ships a side, and a
# convoy of 8 merchants and 2 escorts
BIGGEST = {"tactical": 14, "flob": 11, "high-seas": 64, "impulse": 12, "convoy": 5}


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


def check_lines(reader: PdfReader, context: dict[str, Any]) -> None:
    """Every row of boxes lies on as many lines as the layout planned: none wraps early."""
    tops = {name: round(rect[1], 1) for _, name, _, rect in widgets(reader, unit=MM)}
    rows = 0
    for side in context["sides"]:
        for card in side["logs"]:
            for row in card["rows"]:
                for section in row.get("sections", []) + row.get("left", []):
                    for track in section.get("rows", []) if section["kind"] == "tracks" else []:
                        lines = {tops[name] for name in track["boxes"]}
                        planned = 1 + sum(seg["br"] for seg in track["segments"])
                        assert len(lines) == (planned if track["boxes"] else 0), track["label"]
                        rows += 1
    assert rows


def key_values(scenario: dict[str, Any]) -> list[str]:
    """Text each ruleset's logs must show, from the scenario's first ship of each side."""
    ruleset = scenario["ruleset"]
    out = []
    for side in scenario["sides"]:
        ship = side["ships"][0]
        if ruleset == "tactical":
            r = ship["ratings"]
            courage = signed(r["courage"])
            out += [f"Sails {r['sails']}", f"Cannon {r['cannon']}", f"Courage {courage}"]
            out += ["Damaged this turn", "Fled", "Captured"]
        elif ruleset == "flob":
            out += [f"Broadside {ship['broadside']}", f"Hull {ship['hull']}"]
            out += [f"Crew parties {ship['crew_parties']}", f"Mizzen {ship['mast_rating']}"]
            out += ["MF", "Hull fires", "Reload actions", "Captain wounded", "Entangled"]
        elif ruleset == "high-seas":
            out += [f"Hull HP {ship['hull_hp']}", f"Rigging HP {ship['rigging_hp']}"]
            out += [f"{o['role']} {o['name']} {o['hit_points']}" for o in ship["officers"]]
            out += ["10 a box", "Wet sails", "Hard turn", "Grappled", "Loaded"]
        elif ruleset == "impulse":
            out += [f"Hull {ship['hull']}", f"Rigging {ship['rigging']}", f"Crew {ship['crew']}"]
            out += ["Crew Status", "Broken", "Handy", "Fire checks", "Port loaded"]
        else:
            out += [f"Crew {ship['crew']}", f"Guns {ship['guns']}", f"Sail {ship['sail']}"]
            out += ["Struck", "Captured", "Aground", "In fog"]
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
        assert f"Ship’s log — {side['name']}" in content
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
    assert not widgets(reader)
    if mono:
        assert colours(reader) <= {(0.0, 0.0, 0.0), (1.0, 1.0, 1.0), (0.0,), (1.0,)}
    # each side starts its own page
    first = [page_text(page) for page in reader.pages]
    for side in scenario["sides"]:
        assert sum(f"Ship’s log — {side['name']}" in text for text in first) == 1


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
    assert LONG_NAME in content
    ships = [len(side["ships"]) for side in scenario["sides"]]
    if ruleset == "tactical":
        assert ships == [12]
        assert sum(s["ally"] for s in scenario["sides"][0]["ships"]) == 6
    if ruleset == "convoy":
        assert sum(s["kind"] == "merchant" for s in scenario["sides"][0]["ships"]) == 8
    if ruleset == "high-seas":
        # seed 64 has three ships of the line, two on the side printed
        line = [s for side in scenario["sides"] for s in side["ships"] if s["hull_hp"] == 740]
        assert len(line) == 2 and all(s["crew"] == 600 for s in line)
        assert "Hull HP 740" in content and "½" in content
    if fillable:
        names = check_widgets(reader, paper)
        assert f"{ship_log.slug(scenario['sides'][0]['name'])}_1_log_1_notes" in names
        check_lines(reader, ship_log.context(rules, scenario, paper, ruleset))


@pytest.mark.parametrize(
    ("ruleset", "paper", "fillable"),
    [
        ("tactical", "a4", True),
        ("flob", "letter", True),
        ("high-seas", "a4", False),
        ("impulse", "letter", True),
        ("convoy", "letter", False),
    ],
)
def test_a_blank_page_of_logs(rules: Rules, ruleset: str, paper: str, fillable: bool) -> None:
    reader = read(render_sheet("ship-log", rules, ruleset=ruleset, paper=paper, fillable=fillable))
    assert len(reader.pages) == 1
    assert page_size(reader) == PAGE_SIZES[paper]
    content = flat(reader)
    assert content.count("Ship’s name") == ship_log.layout_of(ruleset).blank_logs
    assert "cross out the boxes" in content and "House tables used" not in content
    assert smallest_text(reader) >= 6.99
    assert reader.metadata is not None and reader.metadata.title == "Ship's log"
    if fillable:
        names = check_widgets(reader, paper)
        assert {"blank_1_name", "blank_1_log_1_turn", "blank_2_log_1_notes"} <= names
        assert any(name.startswith("blank_1_hull_") for name in names)
        check_lines(reader, ship_log.context(rules, None, paper, ruleset))
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
    assert {f"{side}_1_fled", f"{side}_1_damaged_this_turn", f"{side}_1_log_3_notes"} <= names
    check_lines(reader, ship_log.context(rules, scenario, "a4", "tactical"))
    assert colours(reader) - {(0.0, 0.0, 0.0), (1.0, 1.0, 1.0), (0.0,), (1.0,)}


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


# ---------------------------------------------------------------- the logs as data


def test_tally_tracks_keep_to_a_hundred_boxes() -> None:
    assert ship_log.tally(740) == (74, 10)
    assert ship_log.tally(145) == (15, 10)
    assert ship_log.tally(5) == (1, 10)
    assert ship_log.tally(0) == (1, 10)
    boxes, unit = ship_log.tally(10_000)
    assert boxes <= ship_log.MAX_TALLY_BOXES and boxes * unit >= 10_000 and unit == 100


def test_rows_of_boxes_break_into_lines_that_fit() -> None:
    fields = [f"f{i}" for i in range(74)]
    lines = ship_log.segments(fields, 37, 28)
    assert [name for seg in lines for name in seg["fields"]] == fields
    assert sum(seg["br"] for seg in lines) == 2  # 75 places (74 boxes and ½) on 3 lines
    assert [seg["mid"] for seg in lines].count(True) == 1
    marked = next(seg for seg in lines if seg["mid"])
    assert marked["fields"][0] == "f37"
    assert ship_log.segments(["a", "b"], None, 5) == [
        {"br": False, "mid": False, "fields": ["a", "b"]}
    ]


def _checks(card: dict[str, Any]) -> list[str]:
    labels = []
    for row in card["rows"]:
        for section in row.get("sections", []) + row.get("left", []) + row.get("right", []):
            if section["kind"] == "checks":
                labels += [item["label"] for item in section["entries"]]
    return labels


def _tracks(card: dict[str, Any]) -> dict[str, int]:
    found = {}
    for row in card["rows"]:
        for section in row.get("sections", []) + row.get("left", []) + row.get("right", []):
            if section["kind"] == "tracks":
                found.update({t["label"]: len(t["boxes"]) for t in section["rows"]})
    return found


def test_what_each_ruleset_tracks(rules: Rules) -> None:
    flob = roll_scenario(rules, "flob", 3)
    logs = ship_log.context(rules, flob, "a4", "flob")["sides"][0]["logs"]
    ship = flob["sides"][0]["ships"][0]
    assert ship["flagship"] and "Admiral wounded" in _checks(logs[0])
    assert "Admiral wounded" not in _checks(logs[1])
    tracks = _tracks(logs[0])
    assert tracks["Broadside"] == ship["broadside"] and tracks["Hull fires"] == 5
    assert [k for k in tracks if "mast" in k.lower() or k == "Mizzen"] == [
        "Foremast", "Mainmast", "Mizzen",
    ]  # fmt: skip
    two_masts = copy.deepcopy(flob)
    two_masts["sides"][0]["ships"][0]["masts"] = 2
    logs = ship_log.context(rules, two_masts, "a4", "flob")["sides"][0]["logs"]
    assert "Mizzen" not in _tracks(logs[0])

    seas = roll_scenario(rules, "high-seas", BIGGEST["high-seas"])
    line = seas["sides"][0]["ships"][0]
    card = ship_log.context(rules, seas, "letter", "high-seas")["sides"][0]["logs"][0]
    tracks = _tracks(card)
    assert tracks["Hull HP"] == 74 and tracks["Rigging HP"] == 25
    assert sum(1 for label in tracks if label.startswith(("Captain ", "First Mate "))) == 2
    assert tracks[f"Captain {line['officers'][0]['name']}"] == line["officers"][0]["hit_points"]
    assert {"Wet sails", "Hard turn", "Rudder damaged", "Grappled", "Struck"} <= set(_checks(card))

    impulse = roll_scenario(rules, "impulse", 3)
    card = ship_log.context(rules, impulse, "a4", "impulse")["sides"][0]["logs"][0]
    choice = next(s for r in card["rows"] for s in r.get("left", []) if s["kind"] == "choice")
    start = [o["label"] for o in choice["options"] if o["start"]]
    assert start == [impulse["sides"][0]["ships"][0]["morale"]]

    convoy = roll_scenario(rules, "convoy", 3)
    sides = ship_log.context(rules, convoy, "a4", "convoy")["sides"]
    assert all("Escaped" not in _checks(card) for card in sides[1]["logs"])  # raiders
    merchants = [c for c in sides[0]["logs"] if "Merchant" in c["tags"]]
    assert merchants and all("Escaped" in _checks(card) for card in merchants)


def test_check_labels_fit_their_columns(rules: Rules) -> None:
    """Measured with the bundled font: a labelled check box never runs into the next."""
    from fontTools.ttLib import TTFont

    from generator.resources import resource_dir

    font = TTFont(resource_dir("templates") / "fonts" / "QMSans-Lato-Regular.ttf")
    cmap, advances, units = font.getBestCmap(), font["hmtx"], font["head"].unitsPerEm

    def width_mm(text: str) -> float:
        return sum(advances[cmap[ord(c)]][0] for c in text) / units * 7 / MM

    for ruleset in RULESETS:
        spec = ship_log.layout_of(ruleset)
        for data in (roll_scenario(rules, ruleset, BIGGEST[ruleset]), None):
            for side in ship_log.context(rules, data, "a4", ruleset)["sides"]:
                for card in side["logs"]:
                    for row in card["rows"]:
                        for where in ("sections", "left", "right"):
                            room = spec.right if spec.layout == "half" else spec.check
                            for section in row.get(where, []):
                                if section["kind"] != "checks":
                                    continue
                                for item in section["entries"]:
                                    boxes = len(item["fields"]) * 5.5 + 0.3
                                    assert boxes + width_mm(item["label"]) <= room, item
