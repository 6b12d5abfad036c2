"""Ship counters, drawn with ReportLab: the spec's corners, reverses, markers and tracks,
names fitted, pairs packed into pages with gaps and crop marks; read back with pypdf."""

from __future__ import annotations

import copy
import itertools
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from pypdf import PageObject, PdfReader

from generator.errors import InputError
from generator.generate.scenario import roll_scenario
from generator.loading import Rules, load_rules
from generator.render import cells
from generator.render.draw import text_width_mm
from generator.render.kinds import counters
from generator.render.kinds.counters import face as counter_face
from generator.render.kinds.counters import sheet as counter_sheet
from generator.render.kinds.counters import spec as counter_spec
from generator.render.sheets import render_sheet
from generator.render.specs import spec_problems
from generator.render.words import house_tables_line
from generator.rulesets import _read_spec
from tests.fullest import LONG_NAME, fullest
from tests.pdfs import (
    BLACK_AND_WHITE,
    MM,
    PAGE_SIZES,
    colours,
    flat,
    page_text,
    read,
    runs,
    smallest_text,
    squeeze,
    thin_rects,
)

ESCAPED = "Swan <&> Crow"
RULESETS = ("tactical", "impulse", "convoy")
REVERSE = {"tactical": "CAPTURED", "impulse": "STRUCK", "convoy": "STRUCK"}


@cache
def scenario(ruleset: str, seed: int = 3) -> dict[str, Any]:
    return roll_scenario(load_rules(), ruleset, seed)


def names(data: dict[str, Any]) -> list[str]:
    return [ship["name"] for side in data["sides"] for ship in side["ships"]]


def ships(data: dict[str, Any]) -> int:
    return len(names(data))


def layout(rules: Rules, data: dict[str, Any], paper: str = "a4") -> dict[str, Any]:
    return counters.context(rules, data, paper, data["ruleset"])


@cache
def sheet(ruleset: str, paper: str, mono: bool) -> tuple[PdfReader, dict[str, Any]]:
    """The fullest scenario's counters (the biggest forces, the longest names) and their
    layout."""
    rules = load_rules()
    data = fullest("counters", ruleset, rules)
    pdf = render_sheet("counters", rules, data=data, ruleset=ruleset, paper=paper, mono=mono)
    return read(pdf), layout(rules, data, paper)


def in_mm(page: PageObject) -> list[tuple[str, float, float, float]]:
    """The page's text runs, their x and baseline in mm from the top-left, size in pt."""
    return [(text, x / MM, y / MM, size) for text, x, y, size in runs(page)]


# ---------------------------------------------------------------- the spec


def test_every_counters_spec_reads_and_says_why() -> None:
    for ruleset in RULESETS:
        spec = counter_spec.counter_spec(ruleset)
        assert len(spec.corners) == 4 and all(c.label for c in spec.corners)
        assert spec.reverse is not None and spec.wind is not None and spec.markers
    assert counter_spec.counter_spec("convoy").tracks[0].spaces_from == (
        "scenario",
        "clock_loop_spaces",
    )
    assert [t.label for t in counter_spec.counter_spec("impulse").tracks] == ["Turn", "Impulse"]
    assert counter_spec.counter_spec("tactical").tracks == ()  # the rules count no turns
    assert [m.label for m in counter_spec.counter_spec("convoy").markers] == [
        "Aground",
        "Captured",
        "Burning",
        "Paused",
    ]


SPEC = """\
ruleset: sloops
order: 9
generator: generator.generate.tactical
resolvers: generator.resolve.tactical
packet:
  cover: [briefing]
sheets:
  counters:
    shape: square
    class_line: "{{{{ ship.class }}}}"
{extra}"""


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ("    shape2: 1\n", r"sloops\.yaml:11: sheets\.counters\.shape2: unknown key 'shape2'"),
        (
            "    corners: [1, 2, 3, 4, 5]\n",
            r":11: sheets\.counters\.corners: expected at most 4 corners, found 5",
        ),
        (
            "    corners:\n      - {short: S, value: x}\n",
            r":12: sheets\.counters\.corners\[0\]: missing 'label'",
        ),
        (
            "    markers: {a: 1}\n",
            r":11: sheets\.counters\.markers: expected a list of markers, found a mapping",
        ),
        (
            "    markers:\n      - {label: A, count: 0, note: x}\n",
            r":12: sheets\.counters\.markers\[0\]\.count: 0 is out of range 1\.\.40",
        ),
        (
            "    tracks:\n      - {label: T, spaces: 9, spaces_from: 3}\n",
            r":12: sheets\.counters\.tracks\[0\]\.spaces_from: expected a mapping of table",
        ),
        ("    reverse: {label: Struck}\n", r":11: sheets\.counters\.reverse: missing 'note'"),
    ],
)
def test_a_broken_counters_section_is_named_with_its_line(
    tmp_path: Path, rules: Rules, extra: str, message: str
) -> None:
    path = tmp_path / "sloops.yaml"
    path.write_text(SPEC.format(extra=extra), encoding="utf-8")
    problems = spec_problems(_read_spec(path), rules)
    assert any(re.search(message, problem) for problem in problems), problems


def test_counters_are_80_to_85_percent_of_their_cell() -> None:
    square, hexagon = counter_face.shape_for("tactical"), counter_face.shape_for("convoy")
    assert 0.80 <= square.size / cells.SQUARE_MM <= 0.85
    assert 0.80 <= hexagon.size / cells.HEX_MM <= 0.85
    assert square.hexagon is False and hexagon.hexagon is True
    assert (square.size, hexagon.size) == (18.5, 22.0)


# ---------------------------------------------------------------- fitting


def test_names_fit_their_counters_whole() -> None:
    for ruleset in ("impulse", "convoy"):
        shape = counter_face.shape_for(ruleset)
        zone = shape.rows()["zone"]
        for name in (LONG_NAME, ESCAPED, "Witte Olifant", "Kronprinsessan Lovisa Ulrika"):
            stack = counter_face.fit_stack(name, None, shape, zone)
            assert stack is not None, name
            lines = [text for text, *_ in stack.lines]
            assert " ".join(lines) == name  # nothing lost, words kept whole
            for text, font, size, baseline in stack.lines:
                assert size >= 7.0
                cap = size * counter_face.CAP * counter_face.PT_MM
                assert zone[0] <= baseline - cap and baseline <= zone[1]
                assert text_width_mm(text, font, size) <= shape.span(baseline - cap, baseline)


def test_fit_stack_shrinks_then_wraps_then_splits() -> None:
    shape = counter_face.shape_for("tactical")
    zone = shape.rows()["zone"]
    short = counter_face.fit_stack("Brutus", None, shape, zone)
    assert short is not None and short.name_size == 10 and len(short.lines) == 1
    wrapped = counter_face.fit_stack(LONG_NAME, None, shape, zone)
    assert wrapped is not None and wrapped.name_size == 7 and len(wrapped.lines) == 3
    split = counter_face.fit_stack("Oranjeboomoranjeboomoranjeboom", None, shape, zone)
    assert (
        split is not None
        and "".join(t for t, *_ in split.lines) == "Oranjeboomoranjeboomoranjeboom"
    )
    assert counter_face.fit_stack("x " * 200, None, shape, zone) is None
    # a class line under the name: on one line, or two where it must
    both = counter_face.fit_stack("Brutus", "Heavy frigate (44)", shape, zone)
    assert both is not None and [t for t, *_ in both.lines] == ["Brutus", "Heavy frigate", "(44)"]
    assert (
        counter_face.fit_stack(LONG_NAME, "3rd Class", shape, zone, counter_face.WITH_CLASS) is None
    )


def test_too_long_a_name_is_refused(rules: Rules) -> None:
    data = copy.deepcopy(scenario("tactical"))
    data["sides"][0]["ships"][0]["name"] = "Santísima " * 12
    with pytest.raises(InputError, match=r"does not fit a 18\.5 mm counter at 7 pt"):
        layout(rules, data)


def test_the_class_line_stands_on_every_face_or_on_none(rules: Rules) -> None:
    data = copy.deepcopy(scenario("tactical"))
    for side in data["sides"]:
        for i, ship in enumerate(side["ships"]):
            ship["name"] = f"Ship {i + 1}"
    assert layout(rules, data)["with_class"]
    reader = read(render_sheet("counters", rules, data=data))
    printed = [run.text for page in reader.pages for run in runs(page)]
    classes = [ship["class"] for side in data["sides"] for ship in side["ships"]]
    for name in set(classes):  # on the face and on the reverse of each
        assert printed.count(name) == 2 * classes.count(name), name
    data["sides"][0]["ships"][0]["name"] = LONG_NAME  # three lines at 7 pt leave no room
    assert not layout(rules, data)["with_class"]


# ---------------------------------------------------------------- packing


def test_rows_and_pages() -> None:
    square, hexagon = counter_face.shape_for("tactical"), counter_face.shape_for("convoy")
    for paper in ("a4", "letter"):
        assert counter_sheet.per_row(square.width, paper) == 8
        assert counter_sheet.per_row(hexagon.width, paper) == 6
        assert counter_sheet.per_row(counter_sheet.MARKER_MM, paper) == (
            10 if paper == "a4" else 11
        )
    pair = 2 * square.height
    sides = [
        counter_sheet.Section("ships", "A", list(range(n)), 8, square.width, pair) for n in (60, 60)
    ]
    pages = counter_sheet.paginate(sides, 250.0)
    shown = sorted(
        (s, i) for page in pages for s, a, b in page for i in range(a * 8, min(b * 8, 60))
    )
    assert shown == [(s, i) for s in (0, 1) for i in range(60)]
    assert all(len(page) <= 2 for page in pages)
    # a track stays whole when the next page holds it
    track = counter_sheet.Section("track", "T", list(range(36)), 12, 15.0, 15.0)
    pages = counter_sheet.paginate([sides[0], track], 250.0)
    assert [part for page in pages for part in page if part[0] == 1] == [(1, 0, 3)]
    assert (1, 0, 3) in pages[-1]


def test_many_ships_take_several_sheets(rules: Rules) -> None:
    data = copy.deepcopy(scenario("tactical"))
    for side, count in zip(data["sides"], (80, 4), strict=True):
        side["ships"] = [dict(side["ships"][0], name=f"Ship {i + 1}") for i in range(count)]
    made = layout(rules, data, "letter")
    reader = read(render_sheet("counters", rules, data=data, paper="letter"))
    assert len(reader.pages) == made["sheets"] >= 3
    content = flat(reader)
    assert smallest_text(reader) >= 6.99  # none set under 7 pt
    assert "(continued)" in content and f"Page {made['sheets']} of {made['sheets']}" in content
    assert all(f"Ship {i}" in content for i in range(1, 81))
    # a side is split between pages at the end of a row only, and its blocks go on in order
    blocks = [
        b for page in made["pages"] for b in page.blocks if isinstance(b, counter_sheet.ShipBlock)
    ]
    first = [b for b in blocks if b.side == 0]
    assert len(first) >= 2 and all(len(b.items) % 8 == 0 for b in first[:-1])
    shown = [item.piece.name for b in first for item in b.items]
    assert shown == [f"Ship {i}" for i in range(1, 81)]
    assert [b.continued for b in first] == [False] + [True] * (len(first) - 1)


# ---------------------------------------------------------------- rendered


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_counter_sheets(rules: Rules, ruleset: str, paper: str) -> None:
    data = scenario(ruleset)
    mono = paper == "letter"
    reader = read(render_sheet("counters", rules, data=data, paper=paper, mono=mono))
    assert len(reader.pages) == layout(rules, data, paper)["sheets"]
    assert {tuple(round(float(v), 1) for v in p.mediabox[2:]) for p in reader.pages} == {
        PAGE_SIZES[paper]
    }
    content = flat(reader)
    # every page numbered, a sheet of one page too (the counters had no label then)
    total = len(reader.pages)
    for number, page in enumerate(reader.pages, start=1):
        assert f"Page {number} of {total}" in " ".join(page_text(page).split()), number
    assert smallest_text(reader) >= 6.99  # none set under 7 pt
    for name in names(data):
        # on the face and on the reverse (a word wider than a counter broken in two)
        assert squeeze(content).count(squeeze(name)) >= 2, name
    size = "22 mm across the flats" if ruleset == "convoy" else "18.5 mm squares"
    assert size in content and "The pointed wedge is the bow." in content
    assert ("hatched band" if mono else "blue band") in content
    # the house tables named on the sheet itself, not left to a page its players lack
    assert house_tables_line(rules, data["house_tables"]) in content
    assert "briefing" not in content
    # a player's sheet: no table ids, no program values
    assert f"{ruleset}." not in content and "True" not in content and "[" not in content
    assert reader.metadata is not None
    assert reader.metadata.title == f"Ship counters — {data['title']}"
    assert reader.metadata.subject and "bold bow" in reader.metadata.subject


def test_the_same_scenario_gives_the_same_bytes(rules: Rules) -> None:
    data = scenario("convoy")
    assert render_sheet("counters", rules, data=data, mono=True) == render_sheet(
        "counters", rules, data=data, mono=True
    )


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_pairs_have_their_size_and_gaps_and_crop_marks(ruleset: str, paper: str) -> None:
    """Read off the crop marks: each block's columns and rows are its pieces' size apart,
    with a 3 mm gap between them."""
    reader, made = sheet(ruleset, paper, False)
    shape = made["shape"]
    for page, laid in zip(reader.pages, made["pages"], strict=True):
        marks = thin_rects(page)
        if all(isinstance(block, counter_sheet.TrackBlock) for block in laid.blocks):
            continue  # a track is not cut out
        assert marks and all(min(w, h) >= 0.5 for _, _, w, h in marks)
        for block in laid.blocks:
            if not isinstance(block, counter_sheet.PieceBlock):
                continue
            top, bottom = block.block_top * MM, block.block_bottom * MM
            ships = isinstance(block, counter_sheet.ShipBlock)
            width = shape["width"] if ships else counter_sheet.MARKER_MM
            height = shape["size"] * 2 if ships else counter_sheet.MARKER_MM
            across = sorted(
                round((y + h / 2) / MM, 2)
                for x, y, w, h in marks
                if w > h and top - 1 <= y <= bottom + 1 and x < block.left * MM
            )
            rows = -(-len(block.items) // counter_sheet.per_row(width, paper))
            assert len(across) == 2 * rows
            steps = [round(b - a, 1) for a, b in itertools.pairwise(across)]
            assert steps == [height, counter_sheet.GAP_MM] * (rows - 1) + [height]
            down = sorted(
                round((x + w / 2) / MM, 2)
                for x, y, w, h in marks
                if h > w and top - 5 * MM <= y < top
            )
            if ships and shape["hexagon"]:
                assert down == []  # a hex is cut round its sides, no straight cut
                continue
            steps = [round(b - a, 1) for a, b in itertools.pairwise(down)]
            assert steps[::2] == [round(width, 1)] * (len(down) // 2)
            assert set(steps[1::2]) <= {counter_sheet.GAP_MM}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_corners_reverses_and_markers_on_the_pdf(rules: Rules, ruleset: str) -> None:
    reader, made = sheet(ruleset, "a4", False)
    shape = counter_face.shape_for(ruleset)
    rows = shape.rows()
    spec = counter_spec.counter_spec(ruleset)
    data = fullest("counters", ruleset, rules)
    pairs = [
        (item, number)
        for number, page in enumerate(made["pages"])
        for block in page.blocks
        if isinstance(block, counter_sheet.ShipBlock)
        for item in block.items
    ]
    assert len(pairs) == ships(data)
    texts = [[*run, i] for i, page in enumerate(reader.pages) for run in in_mm(page)]

    def inside(run: list[Any], item: counter_sheet.Placed, top: float, bottom: float) -> bool:
        _, x, y, _, _ = run
        return item.x <= x <= item.x + shape.width and item.y + top <= y <= (item.y + bottom + 0.01)

    # every rating in a corner: in a face's top or bottom row, at its left or right end
    size = made["corner_size"]
    found = []
    for run in texts:
        owner = [
            item
            for item, page in pairs
            if page == run[4]
            and (inside(run, item, *rows["top"]) or inside(run, item, *rows["bottom"]))
        ]
        if run[3] == size and owner:
            assert len(owner) == 1, run
            assert abs(run[1] - owner[0].x - shape.width / 2) > 1.5, run  # not the middle
            found.append(run[0])
    expected = [
        value
        for side in data["sides"]
        for ship in side["ships"]
        for _, value in counter_face.corner_values(ship, side, spec)
        if value
    ]
    assert sorted(found) == sorted(expected) and expected
    # every ship's reverse, under her face
    word = REVERSE[ruleset]
    stamps = [t for t in texts if t[0] == word]
    assert len(stamps) == ships(data)
    for run in stamps:
        assert any(
            page == run[4] and inside(run, item, shape.height, 2 * shape.height)
            for item, page in pairs
        )
    # the markers: each state as many as the spec says (never more than the ships), the
    # wind gauge, each track's marker; each track's spaces, the last marked the end
    words = [t[0] for t in texts if t[3] < 10]  # not the tracks' headings
    for marker in spec.markers:
        assert words.count(marker.label) == min(marker.count, ships(data)), marker.label
    assert words.count("WIND") == 1
    for track in spec.tracks:
        assert words.count(track.marker) == 1
    assert words.count("END") == len(spec.tracks)


def test_the_battle_clock_runs_as_long_as_the_scenario_loop(rules: Rules) -> None:
    data = copy.deepcopy(scenario("convoy"))
    for loop in (36, 42, 48):
        data["battle_clock"]["loop"] = loop
        made = layout(rules, data)
        spaces = [
            space.number
            for page in made["pages"]
            for block in page.blocks
            if isinstance(block, counter_sheet.TrackBlock)
            for space in block.spaces
        ]
        assert spaces == list(range(1, loop + 1))
    del data["battle_clock"]  # an edited file without it: the longest loop the rules allow
    made = layout(rules, data)
    track = [b for p in made["pages"] for b in p.blocks if isinstance(b, counter_sheet.TrackBlock)]
    assert track[-1].last == max(rules.table("convoy.scenario").params["clock_loop_spaces"])


def test_the_key_says_what_the_corners_markers_and_tracks_mean(rules: Rules) -> None:
    data = scenario("impulse")
    content = flat(read(render_sheet("counters", rules, data=data)))
    assert "Corners: top left G Guns; top right Cd Carronades; bottom left H Hull;" in content
    assert "Struck (the back): every crew box marked" in content
    assert "Grappled: grappled with an enemy in the same square" in content
    wind = data["wind"]["direction"].lower()
    assert f"At the start it blows from the {wind}." in content
    assert "Turn: its marker starts on 1" in content
    # the wind as the rules and the map say it, never the table's short form
    data = copy.deepcopy(scenario("tactical"))
    data["wind"] = {"roll": 10, "direction": "NW", "from_bearing": 315}
    key = " ".join(" ".join(paragraph.lines) for paragraph in layout(rules, data)["key"])
    assert "At the start it blows from the north-west." in key and "NW" not in key


def test_the_key_stands_on_the_first_page_under_its_header(rules: Rules) -> None:
    """Where the reader looks first: under the header of the first page, above the
    pieces; not at the foot of the last page (once a page of its own, 80 % empty)."""
    data = copy.deepcopy(scenario("convoy"))
    data["battle_clock"]["loop"] = 48  # the longest clock: the sheet takes two pages
    made = layout(rules, data)
    assert made["sheets"] == 2
    first = made["pages"][0]
    assert made["key_top"] + made["key_h"] < min(block.top for block in first.blocks)
    assert made["key_top"] < made["frame"]["top"] + 30
    reader = read(render_sheet("counters", rules, data=data))
    pages = [" ".join(page_text(page).split()) for page in reader.pages]
    assert "Band: the ship's navy" in pages[0] and "Band:" not in pages[1]
    assert [p.label for p in made["pages"]] == ["Page 1 of 2", "Page 2 of 2"]
    assert "Page 1 of 2" in pages[0] and "Page 2 of 2" in pages[1]
    # a sheet of one page is numbered too, as every sheet is
    assert [p.label for p in layout(rules, scenario("tactical"))["pages"]] == ["Page 1 of 1"]


def _fill(made: dict[str, Any], page: counter_sheet.CounterPage) -> float:
    """How much of the frame's height a page fills: its header, the key, its blocks."""
    return (page.bottom - made["frame"]["top"]) / made["frame"]["height"]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_no_page_is_mostly_empty(rules: Rules, paper: str) -> None:
    """The pieces go on as few pages as they need, filled alike: no last page holding a
    track or a row alone while the page before is full."""
    cases = []
    for ruleset in RULESETS:
        cases.append(copy.deepcopy(scenario(ruleset)))
        cases.append(fullest("counters", ruleset, rules))
    clock = copy.deepcopy(scenario("convoy"))
    clock["battle_clock"]["loop"] = 48
    cases.append(clock)
    many = copy.deepcopy(scenario("tactical"))
    for side, count in zip(many["sides"], (30, 9), strict=True):
        side["ships"] = [dict(side["ships"][0], name=f"Ship {i + 1}") for i in range(count)]
    cases.append(many)
    several = 0
    for data in cases:
        made = layout(rules, data, paper)
        if made["sheets"] == 1:
            continue
        several += 1
        fills = [_fill(made, page) for page in made["pages"]]
        assert min(fills) >= 0.45, (data["ruleset"], fills)
        assert max(fills) - min(fills) <= 0.35, (data["ruleset"], fills)
    assert several >= 2


def test_balance_fills_the_pages_alike() -> None:
    """Two sides of one row of pairs, two rows of markers and a clock of four rows: the
    first fit leaves the clock alone on the last page; balanced, the markers go with it."""
    square = counter_face.shape_for("convoy")
    sections = [
        counter_sheet.Section("ships", "A", list(range(6)), 6, square.width, 2 * square.height),
        counter_sheet.Section("ships", "B", list(range(2)), 6, square.width, 2 * square.height),
        counter_sheet.Section("markers", "M", list(range(20)), 10, 14.0, 14.0),
        counter_sheet.Section("track", "T", list(range(48)), 12, 15.0, 15.0),
    ]
    room, key = 255.0, 32.0
    greedy = counter_sheet.paginate(sections, room, room - key)
    balanced = counter_sheet.balance(sections, room, room - key)
    assert len(greedy) == len(balanced) == 2
    assert greedy[1] == [(3, 0, 4)]  # the clock alone

    def used(page: list[tuple[int, int, int]], first: bool) -> float:
        parts = sum(sections[i].height(b - a) + counter_sheet.SECTION_SPACE_MM for i, a, b in page)
        return parts + (key if first else 0.0)

    before = [used(page, i == 0) for i, page in enumerate(greedy)]
    after = [used(page, i == 0) for i, page in enumerate(balanced)]
    assert max(after) < max(before) and min(after) > min(before)
    assert balanced == [[(0, 0, 1), (1, 0, 1)], [(2, 0, 2), (3, 0, 4)]]
    # what fits one page stays on one
    assert counter_sheet.balance(sections[:2], room, room - key) == [[(0, 0, 1), (1, 0, 1)]]


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_each_row_of_pairs_folds_on_a_labelled_line(ruleset: str, paper: str) -> None:
    """The fold between a counter and her reverse runs across the whole row, through the
    gaps between the pairs and past the block's ends, with the word "fold" at each end,
    inside the page's frame."""
    reader, made = sheet(ruleset, paper, paper == "letter")
    size, frame = made["shape"]["size"], made["frame"]
    word = text_width_mm("fold", "sans-bold", counter_face.LABEL_PT)
    for page, laid in zip(reader.pages, made["pages"], strict=True):
        folds = []
        for block in laid.blocks:
            if not isinstance(block, counter_sheet.ShipBlock):
                assert not hasattr(block, "folds")
                continue
            tops = sorted({item.y for item in block.items})
            assert [fold.y for fold in block.folds] == [round(y + size, 3) for y in tops]
            for fold in block.folds:
                assert fold.x0 < block.left and fold.x1 > block.right
                left, right = fold.words
                assert left + word < fold.x0 and right > fold.x1
                assert left >= frame["left"] and right + word <= frame["left"] + frame["width"]
            folds += block.folds
        assert folds or not any(isinstance(b, counter_sheet.ShipBlock) for b in laid.blocks)
        words = [run for run in in_mm(page) if run[0] == "fold"]
        assert len(words) == 2 * len(folds)
        for fold in folds:
            beside = sorted(run[1] for run in words if abs(run[2] - fold.y) < 1.5)
            assert beside == pytest.approx(fold.words, abs=0.05)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_mono_is_black_and_white(ruleset: str) -> None:
    reader, _ = sheet(ruleset, "letter", True)
    assert colours(reader) <= BLACK_AND_WHITE
    assert "hatched band" in flat(reader)


@pytest.mark.parametrize(("ruleset", "seed"), [("tactical", 264), ("convoy", 42)])
def test_the_biggest_forces_with_the_longest_names(rules: Rules, ruleset: str, seed: int) -> None:
    data = copy.deepcopy(scenario(ruleset, seed))
    sizes = [len(side["ships"]) for side in data["sides"]]
    if ruleset == "tactical":
        assert sizes == [12, 12]  # a Diplomat's fleet with its allies
    else:
        assert sum(s["kind"] == "merchant" for s in data["sides"][0]["ships"]) == 8
    data["sides"][0]["ships"][0]["name"] = LONG_NAME
    data["sides"][1]["ships"][-1]["name"] = ESCAPED
    reader = read(render_sheet("counters", rules, data=data, paper="a4", mono=True))
    assert len(reader.pages) == layout(rules, data)["sheets"]
    content = flat(reader)
    assert smallest_text(reader) >= 6.99  # none set under 7 pt
    for name in names(data):
        assert content.count(name) >= 2, name


def test_counters_need_a_scenario_with_a_map(rules: Rules) -> None:
    with pytest.raises(InputError, match=r"the counters are the ships of a scenario"):
        counters.context(rules, None, "a4", "tactical")
    with pytest.raises(InputError, match=r"the counters sheet serves impulse, convoy, tactical"):
        render_sheet("counters", rules, data=scenario("flob"))
    with pytest.raises(InputError, match=r"this is a convoy scenario, not tactical"):
        counters.context(rules, scenario("convoy"), "a4", "tactical")
    three = copy.deepcopy(scenario("tactical"))
    three["sides"].append(three["sides"][0])
    with pytest.raises(InputError, match=r"prints two sides, this scenario has 3"):
        counters.context(rules, three, "a4", "tactical")
