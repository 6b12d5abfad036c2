"""The map sheet, drawn with ReportLab: tiling, page grids per ruleset and paper, the scale
measured on the drawn PDF, the cells' coordinates, the patterns, the wind rose; read back
with pypdf (and rasterised with PDFium where what matters is the ink)."""

from __future__ import annotations

import collections
import copy
import dataclasses
import itertools
import math
import re
import weakref
from functools import cache
from typing import Any

import pytest
from pypdf import PageObject, PdfReader

from generator.errors import InputError
from generator.generate.scenario import roll_scenario
from generator.loading import Rules, load_rules
from generator.pdf.packet import build_packet
from generator.render.cells import HEX_MM, SQUARE_MM
from generator.render.draw import Drawing, text_width_mm, wrap
from generator.render.kinds import map as map_kind
from generator.render.kinds.map import geometry as map_geometry
from generator.render.kinds.map import pages as map_pages
from generator.render.kinds.map import paint as map_paint
from generator.render.kinds.map import shapes as map_shapes
from generator.render.kinds.map import styles as map_styles
from generator.render.kinds.map import tiles as map_tiles
from generator.render.paper import get_paper
from generator.render.sheets import render_sheet
from generator.render.specs import spec_problems
from generator.render.words import house_tables_line
from generator.rulesets import get_spec
from tests.fullest import fullest_packet
from tests.pdfs import (
    BLACK_AND_WHITE,
    MM,
    PAGE_SIZES,
    colours,
    drawn_text,
    flat,
    outline,
    page_size,
    page_text,
    read,
    runs,
    smallest_text,
)

LONG_NAME = "Nuestra Señora de la Santísima Trinidad"
# (columns, rows) of pages: 30 x 20 squares of 22 mm, 22 x 16 hexes of 26 mm, one plan
GRIDS = {
    ("tactical", "a4"): (4, 2),
    ("tactical", "letter"): (4, 2),
    ("impulse", "a4"): (4, 2),
    ("impulse", "letter"): (4, 2),
    ("convoy", "a4"): (3, 2),
    ("convoy", "letter"): (3, 2),
    ("flob", "a4"): (1, 1),
    ("flob", "letter"): (1, 1),
}
LEGEND = {
    "tactical": ["Sea", "Land", "start zone", "overlap mark"],
    "impulse": ["Sea", "Land", "start zone", "overlap mark"],
    "convoy": ["Sea", "Fog", "Shallows", "start hex", "Exit edge", "overlap mark"],
    "flob": ["Sea", "Land: coast, island", "Shoal", "deployment zone", "Wind from the"],
}


@cache
def scenario(ruleset: str, seed: int = 3) -> dict[str, Any]:
    return roll_scenario(load_rules(), ruleset, seed)


@cache
def drawn(ruleset: str, paper: str = "a4", mono: bool = False, seed: int = 3) -> PdfReader:
    """The map sheet of `scenario(ruleset, seed)`, drawn once per process and options."""
    return read(render_sheet("map", load_rules(), data=scenario(ruleset, seed), paper=paper,
                             mono=mono))  # fmt: skip


Subpath = tuple[list[tuple[float, float]], bool]
_PATHS: weakref.WeakKeyDictionary[PdfReader, dict[int, list[Subpath]]] = weakref.WeakKeyDictionary()


def paths(page: PageObject) -> list[Subpath]:
    """The subpaths drawn with m, l (and h) on a page: their points in mm from the page's
    top-left, and whether each is closed. Rectangles (re) and curves are left out. A page
    of a reader is read once (the tests measure the maps `drawn` keeps: the same pages)."""
    reader, ref = page.pdf, page.indirect_reference
    if not isinstance(reader, PdfReader) or ref is None:
        return _paths(page)
    found = _PATHS.setdefault(reader, {})
    if ref.idnum not in found:
        found[ref.idnum] = _paths(page)
    return found[ref.idnum]


def _paths(page: PageObject) -> list[Subpath]:
    height = float(page.mediabox.height)
    stack: list[list[float]] = []
    cm = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0]
    out: list[tuple[list[tuple[float, float]], bool]] = []
    current: list[tuple[float, float]] = []

    def at(x: float, y: float) -> tuple[float, float]:
        px = cm[0] * x + cm[2] * y + cm[4]
        py = cm[1] * x + cm[3] * y + cm[5]
        return px / MM, (height - py) / MM

    contents = page.get_contents()
    assert contents is not None
    for operands, op in contents.operations:
        if op == b"q":
            stack.append(list(cm))
        elif op == b"Q":
            cm = stack.pop()
        elif op == b"cm":
            a, b, c, d, e, f = (float(v) for v in operands)
            cm = [
                a * cm[0] + b * cm[2], a * cm[1] + b * cm[3],
                c * cm[0] + d * cm[2], c * cm[1] + d * cm[3],
                e * cm[0] + f * cm[2] + cm[4], e * cm[1] + f * cm[3] + cm[5],
            ]  # fmt: skip
        elif op == b"m":
            if len(current) > 1:
                out.append((current, False))
            current = [at(float(operands[0]), float(operands[1]))]
        elif op == b"l":
            current.append(at(float(operands[0]), float(operands[1])))
        elif op == b"h":
            out.append((current, True))
            current = []
        elif op in (b"S", b"s", b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*", b"n", b"W", b"W*"):
            if len(current) > 1:
                out.append((current, False))
            current = []
    return out


# ---------------------------------------------------------------- tiling, without rendering


@pytest.mark.parametrize(
    ("total", "window", "overlap"),
    [(674, 187.8, 10), (450, 231.4, 10), (515, 193.7, 10), (100, 187.8, 10), (187.8, 187.8, 10)],
)
def test_spans_cover_the_canvas_with_the_overlap(
    total: float, window: float, overlap: float
) -> None:
    starts = map_tiles.spans(total, window, overlap)
    assert starts[0] <= 0 and starts[-1] + window >= total
    for a, b in itertools.pairwise(starts):
        assert a + window - b == pytest.approx(overlap)  # each neighbour repeats 10 mm
    if len(starts) > 1:  # the fewest pages: one less would not reach across
        assert window + (len(starts) - 2) * (window - overlap) < total
    assert -starts[0] == pytest.approx(starts[-1] + window - total, abs=1e-3)  # centred


def test_tiles_cover_every_point_of_the_map() -> None:
    columns, rows, tiles = map_tiles.tile(674, 454, 187.8, 249.0)
    assert (columns, rows) == (4, 2)
    assert [t.label for t in tiles] == ["A1", "B1", "C1", "D1", "A2", "B2", "C2", "D2"]
    for x in range(0, 675, 3):
        for y in range(0, 455, 3):
            assert any(t.x <= x <= t.x + t.width and t.y <= y <= t.y + t.height for t in tiles)
    assert map_tiles.column_letters(25) == "Z" and map_tiles.column_letters(26) == "AA"
    with pytest.raises(ValueError, match="wider than the overlap"):
        map_tiles.spans(100, 10, 10)


def test_the_scales_are_the_counters() -> None:
    assert (SQUARE_MM, HEX_MM) == (22.0, 26.0)
    assert map_geometry.plan_scale(180, 120, 186, 150) == 10
    assert map_geometry.plan_scale(360, 240, 186, 150) == 20
    with pytest.raises(InputError, match="too large to print as a plan"):
        map_geometry.plan_scale(100000, 100, 186, 150)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_page_grids_follow_from_map_size_and_paper(rules: Rules, paper: str) -> None:
    for ruleset in ("tactical", "impulse", "convoy", "flob"):
        found = map_kind.context(rules, scenario(ruleset), paper, ruleset)
        assert (found["columns"], found["rows"]) == GRIDS[ruleset, paper]
        if ruleset == "flob":
            continue
        grid = scenario(ruleset)["map"]
        width, height = map_tiles.window(paper)
        if grid["kind"] == "grid":
            canvas = (grid["width"] * SQUARE_MM, grid["height"] * SQUARE_MM)
        else:
            r = HEX_MM / 3**0.5
            canvas = (1.5 * r * (grid["width"] - 1) + 2 * r, HEX_MM * (grid["height"] + 0.5))
        canvas = (canvas[0] + 2 * map_geometry.MARGIN_MM, canvas[1] + 2 * map_geometry.MARGIN_MM)
        columns, rows, _ = map_tiles.tile(*canvas, width, height)
        assert (columns, rows) == GRIDS[ruleset, paper]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_page_headers_fit_in_three_lines(rules: Rules, paper: str) -> None:
    big = copy.deepcopy(scenario("tactical"))
    big["map"]["width"], big["map"]["height"] = 45, 36
    big["map"]["rows"] = ["." * 45] * 36
    width = map_tiles.header_text_width(paper)
    for data in (scenario("tactical"), scenario("convoy"), big):
        found = map_kind.context(rules, data, paper, None)
        for page in found["pages"]:
            note = f"{found['ruleset_name']}: {page.note}"
            assert len(wrap(note, "sans", 7.0, width)) <= 3, note
            assert list(page.note_lines) == wrap(note, "sans", 7.0, width)  # as drawn
        title = f"Map — {found['scenario_title']}"
        assert text_width_mm(title, "serif", found["title_size"]) <= width
    found = map_kind.context(rules, big, paper, None)
    assert found["columns"] * found["rows"] >= 9
    middle = next(p for p in found["pages"] if p.label == "B2")
    assert "Trim the solid left and top edges" in middle.note
    assert "C2 goes on the dashed strip at the right, B3 on the one below" in middle.note


# ---------------------------------------------------------------- rendered


@pytest.mark.parametrize("ruleset", ["tactical", "impulse", "convoy", "flob"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_map_pages(rules: Rules, ruleset: str, paper: str) -> None:
    data = scenario(ruleset)
    reader = drawn(ruleset, paper, mono=paper == "letter")
    columns, rows = GRIDS[ruleset, paper]
    assert len(reader.pages) == columns * rows
    assert {page_size(reader, i) for i in range(len(reader.pages))} == {PAGE_SIZES[paper]}
    content = flat(reader)
    assert smallest_text(reader) >= 6.99  # none set under 7 pt
    if ruleset != "flob":
        for r in range(rows):
            for c in range(columns):
                # "Tile B1" is bold, " · Page 2 of 8" not: two runs, which pypdf may join;
                # the pages are counted row by row, as they are printed
                number = r * columns + c + 1
                label = rf"Tile {'ABCD'[c]}{r + 1}\s?· Page {number} of {columns * rows}"
                assert re.search(label, content), label
        assert content.count("overlap mark") == columns * rows
    else:
        assert "scale 1:10" in content and "180 × 120 cm" in content
        # the plan is numbered as every sheet is (it had no page label)
        assert content.count("Page 1 of 1") == 1
        for feature in data["map"]["features"]:
            assert feature["label"] in content
    for word in LEGEND[ruleset]:
        assert word in content, word
    assert "House tables used" in content
    assert reader.metadata is not None
    assert reader.metadata.title == f"Scenario map — {data['title']}"
    assert reader.metadata.subject and "overlap strips" in reader.metadata.subject


def test_convoy_start_hexes_print_long_names(rules: Rules) -> None:
    data = copy.deepcopy(scenario("convoy", 246))  # 8 merchants and 2 escorts, 4 raiders
    ships = data["sides"][0]["ships"]
    assert sum(s["kind"] == "merchant" for s in ships) == 8
    ships[0]["name"] = LONG_NAME
    ships[1]["name"] = "Swan <&> Crow"
    reader = read(render_sheet("map", rules, data=data, paper="a4", mono=True))
    assert len(reader.pages) == 6
    content = flat(reader)
    assert smallest_text(reader) >= 6.99  # none set under 7 pt
    assert "Swan <&> Crow" in content
    assert "Exit edge" in content and data["map"]["exit_edge"] == "south"


def test_a_scenario_without_a_map_is_refused(rules: Rules) -> None:
    for ruleset in ("high-seas", "duel"):
        data = scenario(ruleset)
        assert data["map"] is None
        with pytest.raises(InputError, match=rf"a {ruleset} scenario has no map"):
            map_kind.context(rules, data, "a4", ruleset)
        with pytest.raises(InputError, match=r"the map sheet serves impulse, convoy, tactical"):
            render_sheet("map", rules, data=data)
    with pytest.raises(InputError, match=r"the map is a scenario's: give --seed or --from"):
        map_kind.context(rules, None, "a4", "tactical")
    with pytest.raises(InputError, match=r"this is a convoy scenario, not tactical"):
        map_kind.context(rules, scenario("convoy"), "a4", "tactical")


# ---------------------------------------------------------------- measured on the drawn PDF


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_square_is_22_mm_on_paper(paper: str) -> None:
    """The grid lines run the map's whole height (width): on every page, neighbouring ones
    are exactly a square apart, so a counter fits a square."""
    grid = scenario("tactical")["map"]
    reader = drawn("tactical", paper)
    for page in reader.pages:
        columns, rows = set(), set()
        for points, closed in paths(page):
            (x1, y1), (x2, y2) = points[0], points[-1]
            if closed or len(points) != 2:
                continue
            if abs(x1 - x2) < 1e-3 and abs(y2 - y1) > grid["height"] * SQUARE_MM - 1:
                columns.add(round(x1, 3))
            if abs(y1 - y2) < 1e-3 and abs(x2 - x1) > grid["width"] * SQUARE_MM - 1:
                rows.add(round(y1, 3))
        assert len(columns) >= 5 and len(rows) >= 8
        for found in (sorted(columns), sorted(rows)):
            for a, b in itertools.pairwise(found):
                assert b - a == pytest.approx(SQUARE_MM, abs=0.005)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_hex_is_26_mm_across_the_flats_on_paper(paper: str) -> None:
    reader = drawn("convoy", paper)
    for page in reader.pages:
        hexes = [points for points, closed in paths(page) if closed and len(points) == 6]
        sizes = collections.Counter(
            (round(max(y for _, y in p) - min(y for _, y in p), 2),
             round(max(x for x, _ in p) - min(x for x, _ in p), 2))
            for p in hexes
        )  # fmt: skip
        (flats, corners), count = sizes.most_common(1)[0]
        assert count >= 40  # every hex of the grid on the page
        assert flats == pytest.approx(HEX_MM, abs=0.01)
        assert corners == pytest.approx(HEX_MM * 2 / math.sqrt(3), abs=0.01)
        # a column's hexes touch flat to flat: their centres a hex apart
        centres = sorted(
            {
                (round(sum(x for x, _ in p) / 6, 2), round(sum(y for _, y in p) / 6, 3))
                for p in hexes
                if round(max(y for _, y in p) - min(y for _, y in p), 2) == flats
            }
        )
        steps = [
            b[1] - a[1] for a, b in itertools.pairwise(centres) if a[0] == b[0] and b[1] - a[1] < 30
        ]
        assert steps and all(step == pytest.approx(HEX_MM, abs=0.005) for step in steps)


@pytest.mark.parametrize("ruleset", ["tactical", "convoy"])
def test_every_cell_has_its_coordinates_faint_at_7pt(ruleset: str) -> None:
    """0507 is column 5, row 7, in every cell (the overlap strips repeat some), set at 7 pt
    in the faint colour, and once per page at most."""
    grid = scenario(ruleset)["map"]
    reader = drawn(ruleset)
    found: collections.Counter[str] = collections.Counter()
    for page in reader.pages:
        names = [run.text for run in runs(page) if re.fullmatch(r"\d{4}", run.text)]
        assert len(names) == len(set(names))
        found.update(names)
        assert all(
            run.size == pytest.approx(7.0, abs=0.01)
            for run in runs(page)
            if re.fullmatch(r"\d{4}", run.text)
        )
    every = {
        map_geometry.coordinate(c, r) for c in range(grid["width"]) for r in range(grid["height"])
    }
    assert set(found) == every
    assert map_geometry.coordinate(4, 6) == "0507" and map_geometry.coordinate(4, 6, 3) == "005007"
    # faint: the map's own grey, not the ink of the words
    assert (
        map_styles.STYLES["colour"]["coord"]["fill"] != map_styles.STYLES["colour"]["text"]["fill"]
    )
    faint = tuple(int(map_styles.STYLES["colour"]["coord"]["fill"][i : i + 2], 16) / 255
                  for i in (1, 3, 5))  # fmt: skip
    assert any(all(abs(a - b) < 0.002 for a, b in zip(c, faint, strict=True))
               for c in colours(reader) if len(c) == 3)  # fmt: skip
    assert "Cells: 0507 is column 5, row 7" in flat(reader)


def _rasters(pdf: bytes) -> list[Any]:
    """Every page of a PDF rasterised in grey at 36 dpi (PIL images)."""
    import pypdfium2 as pdfium  # type: ignore[import-untyped]

    doc = pdfium.PdfDocument(pdf)
    try:
        return [doc[i].render(scale=0.5, grayscale=True).to_pil() for i in range(len(doc))]
    finally:
        doc.close()


def _ink(image: Any, box_mm: tuple[float, float, float, float]) -> float:
    """The share of the pixels in `box_mm` (left, top, right, bottom) that are not white."""
    px = 36 / 25.4
    histogram = image.crop(tuple(round(v * px) for v in box_mm)).histogram()
    return sum(histogram[:250]) / sum(histogram)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_sea_is_white_paper(rules: Rules, paper: str) -> None:
    """No tint over the page (the old pages were pale blue all over): inside every square
    of open sea, clear of its coordinates and of the seams, the paper is white."""
    data = scenario("tactical")
    grid, s, m = data["map"], SQUARE_MM, map_geometry.MARGIN_MM
    pages = _rasters(render_sheet("map", rules, data=data, paper=paper))
    found = map_kind.context(rules, data, paper, "tactical")
    zone = int(grid["start_columns"])
    sea = [
        (c, r)
        for r, line in enumerate(grid["rows"])
        for c, char in enumerate(line)
        if char == "." and zone <= c < grid["width"] - zone
    ]
    checked = 0
    for index, page in enumerate(found["pages"]):
        x, y, w, h = page.x, page.y, page.w, page.h
        for c, r in sea:
            x0, y0 = m + c * s, m + r * s
            if x0 < x + 14 or y0 < y + 14 or x0 + s > x + w - 14 or y0 + s > y + h - 14:
                continue  # near a seam: its marks
            left, top = 11.0 + x0 - x, 10.0 + map_tiles.HEADER_MM + y0 - y
            assert _ink(pages[index], (left + 3, top + 5, left + s - 3, top + s - 3)) == 0.0
            checked += 1
    assert checked >= 40


def test_terrain_and_start_zones_are_patterns_that_read_in_mono() -> None:
    """Land, shallows, fog and each side's start zone have a pattern of their own, in black
    and white as in colour: no two alike, none a flat tint; the two sides' outlines differ."""
    for look in ("colour", "mono"):
        patterns = map_styles.PATTERNS[look]
        drawn_as = {
            name: (p["kind"], p.get("angle"), p["step"])
            for name, p in patterns.items()
            if name in ("land", "shallows", "fog", "zone0", "zone1")
        }
        assert len(set(drawn_as.values())) == 5, look
        kinds = {p["kind"] for p in patterns.values()}
        assert kinds <= {"hatch", "cross", "dots", "dashes", "plus"}
        styles = map_styles.STYLES[look]
        for name in ("land", "shallows", "fog", "zone0", "zone1", "start0", "start1"):
            assert styles[name]["fill"].startswith("pattern:"), name
        assert styles["zoneline0"].get("dash") != styles["zoneline1"].get("dash")
    for p in map_styles.PATTERNS["mono"].values():
        assert p["ink"] == "#000000" and p["ground"] in (None, "#ffffff")
    # the strokes of a hatch cover its box, a line every `step` across it
    land = map_styles.PATTERNS["mono"]["land"]
    lines = map_paint.pattern_lines(land, (0.0, 0.0, 22.0, 22.0))
    assert len(lines) == pytest.approx(22 * math.sqrt(2) / land["step"], abs=2)


@pytest.mark.parametrize("ruleset", ["tactical", "convoy", "flob"])
def test_mono_is_black_and_white(ruleset: str) -> None:
    reader = drawn(ruleset, "a4", mono=True)
    assert colours(reader) <= BLACK_AND_WHITE


@pytest.mark.parametrize("ruleset", ["tactical", "convoy"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_spare_paper_is_shared_by_the_map_s_outer_edges(
    rules: Rules, ruleset: str, paper: str
) -> None:
    """The paper the map does not fill lies at its outer edges, as much beyond the first
    column of pages as beyond the last (and above the first row as below the last), read
    off the drawn border of the map."""
    found = map_kind.context(rules, scenario(ruleset), paper, ruleset)
    reader = drawn(ruleset, paper)
    columns, rows = found["columns"], found["rows"]
    width, height = map_tiles.window(paper)

    grid = scenario(ruleset)["map"]

    def extent(index: int) -> tuple[float, float, float, float]:
        """The map's drawn extent on a page (left, top, right, bottom, mm from the paper's
        edges): from its grid lines a square in, or from its hexes."""
        xs, ys = [], []
        for points, closed in paths(reader.pages[index]):
            tall = max(y for _, y in points) - min(y for _, y in points)
            if grid["kind"] == "hex" and closed and len(points) == 6 and tall > HEX_MM - 0.01:
                xs += [x for x, _ in points]
                ys += [y for _, y in points]
            elif grid["kind"] == "grid" and len(points) == 2 and not closed:
                (x1, y1), (x2, y2) = points
                if abs(x1 - x2) < 1e-3 and abs(y2 - y1) > grid["height"] * SQUARE_MM - 1:
                    xs += [x1 - SQUARE_MM, x1 + SQUARE_MM]
                if abs(y1 - y2) < 1e-3 and abs(x2 - x1) > grid["width"] * SQUARE_MM - 1:
                    ys += [y1 - SQUARE_MM, y1 + SQUARE_MM]
        return min(xs), min(ys), max(xs), max(ys)

    first, last = extent(0), extent(columns - 1)
    left_blank = first[0] - 11.0
    right_blank = 11.0 + width - last[2]
    assert left_blank == pytest.approx(right_blank, abs=0.6)
    top_blank = first[1] - 10.0 - map_tiles.HEADER_MM
    bottom = extent(columns * rows - 1)
    bottom_blank = 10.0 + map_tiles.HEADER_MM + height - bottom[3]
    assert top_blank == pytest.approx(bottom_blank, abs=0.6)
    assert width == pytest.approx(get_paper(paper).printable_mm[0] - 0.2)


@pytest.mark.parametrize("bearing", range(0, 360, 5))
def test_the_wind_arrow_never_covers_the_north(bearing: int) -> None:
    rose = map_pages.wind_rose({"from_bearing": bearing, "direction": "somewhere"})
    cx, cy = rose.centre
    shaft, head = rose.shaft, rose.head
    assert isinstance(shaft, map_shapes.Line) and isinstance(head, map_shapes.Poly)
    points = [(shaft.x1, shaft.y1), (shaft.x2, shaft.y2), *head.pts]
    half = map_styles.STYLES["colour"]["arrowline"]["width"] / 2
    for x, y in points:
        assert math.hypot(x - cx, y - cy) + half < rose.r  # inside the ring
    north = rose.north.box
    assert north[3] < cy - rose.r  # the N stands above the ring: nothing inside reaches it
    assert rose.north.lines == ("N",)
    # the arrow blows from the bearing: its tail towards it
    tail = (shaft.x1 - cx, -(shaft.y1 - cy))
    assert math.degrees(math.atan2(tail[0], tail[1])) % 360 == pytest.approx(bearing, abs=0.01)


def test_calm_and_unknown_winds_draw_no_arrow() -> None:
    calm = map_pages.wind_rose(None)
    assert calm.calm and calm.shaft is None and calm.head is None
    rose = map_pages.wind_rose({"direction": "Variable"})
    assert rose.calm and rose.shaft is None and rose.text == "Wind: variable"


def test_start_zone_names_are_on_white_and_fitted(rules: Rules) -> None:
    """Every ship of a convoy scenario has her start hex with her name set on white over the
    side's pattern, at 7 pt or more; a name too long for a hex is refused."""
    data = scenario("convoy", 42)
    found = map_geometry.hex_canvas(data["map"], data["sides"], "ships")
    names = [
        e
        for e in found.elements
        if isinstance(e, map_shapes.Text) and e.style in ("text0", "text1")
    ]
    ships = [s["name"] for side in data["sides"] for s in side["ships"]]
    assert len(names) == len(ships)
    assert all(e.backing and e.size >= 7.0 for e in names)
    text = " ".join(" ".join(e.lines) for e in names)
    for ship in ships:
        assert all(word in text for word in ship.split())
    data = copy.deepcopy(data)
    data["sides"][0]["ships"][0]["name"] = "W" * 60
    with pytest.raises(InputError, match="does not fit its start hex at 7 pt"):
        map_geometry.hex_canvas(data["map"], data["sides"], "ships")


def test_the_same_map_gives_the_same_bytes(rules: Rules) -> None:
    one = render_sheet("map", rules, data=scenario("convoy"), mono=True)
    assert one == render_sheet("map", rules, data=scenario("convoy"), mono=True)
    assert b"/ArtBox" in one
    assert "Tile A1 · Page 1 of 6" in " ".join(page_text(drawn("convoy").pages[0]).split())


# ---------------------------------------------------------------- header, footer, house tables


def _window(paper: str) -> tuple[float, float]:
    """The map window's top and bottom edges, mm from the paper's top (the frame is 10 mm
    in): a tile laid over its neighbour above is trimmed along the top one."""
    top = 10.0 + map_tiles.HEADER_MM
    return top, top + map_tiles.window(paper)[1]


@pytest.mark.parametrize("ruleset", ["tactical", "convoy"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_header_and_the_legend_keep_clear_of_the_map_window(
    rules: Rules, ruleset: str, paper: str
) -> None:
    """Read off the drawn pages: the header's words end at least 2 mm above the trim line
    (the window's top edge), the legend's begin at least 2 mm below the window's last row
    (an overlap strip); the key map and the rose, from their geometry, end above too."""
    top, bottom = _window(paper)
    reader = drawn(ruleset, paper)
    found = map_kind.context(rules, scenario(ruleset), paper, ruleset)
    assert found["rows"] > 1  # there is a trim line along a window's top
    for page in reader.pages:
        header = [run for run in drawn_text(page) if run.y / MM < top]
        legend = [run for run in drawn_text(page) if run.y / MM > bottom]
        assert header and legend
        for run in header:  # a descender reaches a quarter of the size below the baseline
            assert (run.y + 0.25 * run.size) / MM <= top - 2.0, run
        for run in legend:  # a capital reaches 0.72 of the size above it
            assert (run.y - 0.72 * run.size) / MM >= bottom + 2.0, run
            assert run.y / MM <= 10.0 + get_paper(paper).printable_mm[1]
    assert map_tiles.LEGEND_GAP_MM >= 2.0  # the swatches stand on the words' line
    clear = map_tiles.HEADER_MM - 2.0
    for page in found["pages"]:
        assert all(cell.y + page.head.ch <= clear + 1e-6 for cell in page.head.cells)
    assert map_pages.ROSE_CENTRE[1] + map_pages.ROSE_R <= clear


def test_cell_numbers_read_at_4_5_to_1() -> None:
    """WCAG's contrast for small text, from the colours used: the coordinates' colour on
    the white paper and on the white set behind them on patterns."""

    def luminance(colour: str) -> float:
        channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    for look in ("colour", "mono"):
        ink = map_styles.STYLES[look]["coord"]["fill"]
        for ground in ("#ffffff",):  # the sea is the paper; a backing is white
            lighter, darker = sorted((luminance(ink), luminance(ground)), reverse=True)
            assert (lighter + 0.05) / (darker + 0.05) >= 4.5, (look, ink)
    assert map_paint.BACKING_PAD_MM > 0  # (the backing: "#ffffff" in _Painter.text)


def _look(pattern: dict[str, Any]) -> tuple[str, int | None, bool]:
    """What a pattern looks like in black and white: its kind, for lines their slant (45
    and 135 degrees are both "diagonal": mirror images read alike), and whether they are
    dotted."""
    slant = int(pattern["angle"]) % 90 if pattern["kind"] in ("hatch", "cross") else None
    return pattern["kind"], slant, bool(pattern.get("dots"))


def test_land_and_the_start_zones_look_different_in_black_and_white() -> None:
    for look in ("colour", "mono"):
        patterns = map_styles.PATTERNS[look]
        looks = [_look(patterns[name]) for name in ("land", "shallows", "fog", "zone0", "zone1")]
        assert len(set(looks)) == len(looks), (look, looks)
    assert _look(map_styles.PATTERNS["mono"]["land"]) == ("hatch", 45, False)  # diagonal
    # dotted upright lines: neither the land's hatch nor more (solid) grid lines
    assert _look(map_styles.PATTERNS["mono"]["zone0"]) == ("hatch", 0, True)


def test_a_dotted_pattern_is_drawn_dotted() -> None:
    """The zone's dots are round caps on dashes of no length, `dots` mm apart."""
    drawing = Drawing("a4", mono=True)
    drawing.new_page()
    zone = map_shapes.rect(0.0, 0.0, 22.0, 22.0, "zone0")
    map_paint.Painter(drawing, 20.0, 20.0, (0.0, 0.0, 22.0, 22.0)).paint([zone])
    content = read(drawing.finish()).pages[0].get_contents()
    assert content is not None
    data = content.get_data()
    dash = re.search(rb"\n1 J\n\[0 ([\d.]+)\] 0 d\n", data)  # round caps, then the dots
    assert dash is not None
    assert float(dash[1]) / MM == pytest.approx(map_styles.PATTERNS["mono"]["zone0"]["dots"])


COMPASS = {
    "North": 0, "NE": 45, "North-east": 60, "East": 90, "SE": 135, "South-east": 120,
    "South": 180, "SW": 225, "South-west": 240, "West": 270, "NW": 315, "North-west": 300,
}  # fmt: skip


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_wind_is_said_in_words_on_one_line(paper: str) -> None:
    """The wind said as the rules say it ("Wind from the north-west"), on one line beside
    the rose, for every direction a wind table rolls and pages up to 12 × 12."""
    for direction, bearing in COMPASS.items():
        rose = map_pages.wind_rose({"direction": direction, "from_bearing": bearing})
        assert re.fullmatch(r"Wind from the (north|south)?-?(east|west)?", rose.text)
        assert "-" in rose.text or len(direction) > 2  # "NW" is "north-west"
        for columns, rows in ((1, 1), (4, 2), (12, 12)):
            tile = map_tiles.Tile(columns - 1, rows - 1, 0, 0, 10, 10)
            head = map_pages.header_right(tile, columns, rows)
            room = head.left - map_pages.ROSE_BOX_MM - 1.5
            assert text_width_mm(rose.text, "sans", 7.0) <= room, (rose.text, columns)
    assert map_pages.wind_rose({"direction": "NW", "from_bearing": 315}).text == (
        "Wind from the north-west"
    )


def test_the_drawn_header_says_the_wind_and_the_page_in_words(rules: Rules) -> None:
    data = copy.deepcopy(scenario("tactical"))
    data["wind"] = {"roll": 10, "direction": "NW", "from_bearing": 315}
    reader = read(render_sheet("map", rules, data=data))
    first = [run.text for run in runs(reader.pages[0])]
    assert "Wind from the north-west" in first  # one run: one line
    assert "Tile A1" in first and "· Page 1 of 8" in [text.strip() for text in first]
    assert not any(re.search(r"\bnw\b", text, re.IGNORECASE) for text in first)


def test_the_map_names_the_house_tables_it_is_drawn_from(rules: Rules) -> None:
    """On the map itself (its first page, or the plan), by title: the house tables the
    spec says the map is drawn from that the scenario rolled on; never a pointer to a
    sheet its players may not hold."""
    for ruleset in ("tactical", "impulse", "convoy", "flob"):  # each spec's list: house tables
        assert all(rules.table(t).house for t in map_kind.map_house_tables(ruleset)), ruleset
    for ruleset in ("tactical", "convoy", "flob"):
        data = scenario(ruleset)
        listed = map_kind.map_house_tables(ruleset)
        used = [t for t in data["house_tables"] if t in listed]
        line = house_tables_line(rules, used)
        assert line.startswith("House tables used: ") and "Scenario" in line
        pages = [" ".join(page_text(page).split()) for page in drawn(ruleset).pages]
        assert line in pages[0], ruleset
        assert all("House tables" not in page for page in pages[1:])
        assert all("briefing" not in page for page in pages)
    edited = copy.deepcopy(scenario("convoy"))
    edited["house_tables"] = []
    assert map_kind.context(rules, edited, "a4", "convoy")["house_note"] == ""


def test_a_map_section_with_anything_but_its_house_tables_is_refused(rules: Rules) -> None:
    for raw, message in (
        ({"house_tables": "convoy.scenario"}, "house_tables: expected a list of tables"),
        ({"house_tables": ["tactical.scenario"]}, "house_tables[0]: 'tactical.scenario' is not"),
        ({"tiles": 4}, "tiles: unknown key 'tiles' (allowed: house_tables)"),
    ):
        spec = dataclasses.replace(get_spec("convoy"), sheets={"map": raw})
        (problem,) = spec_problems(spec, rules)
        assert re.match(rf".*convoy\.yaml:\d+: sheets\.map\.{re.escape(message)}", problem)


# ---------------------------------------------------------------- the packet's printing notes


def _cover(pdf: bytes) -> str:
    """The packet's cover, as text: the pages before its second top bookmark."""
    reader = read(pdf)
    second = [page for depth, _title, page in outline(reader) if depth == 0][1]
    return " ".join(" ".join(page_text(reader.pages[i]).split()) for i in range(second - 1))


def _span(pdf: bytes, title: str) -> tuple[int, int]:
    reader = read(pdf)
    tops = [(name, page) for depth, name, page in outline(reader) if depth == 0]
    index = [name for name, _ in tops].index(title)
    end = tops[index + 1][1] - 1 if index + 1 < len(tops) else len(reader.pages)
    return tops[index][1], end


def test_a_flob_packet_s_cover_fits_its_one_page_plan(rules: Rules) -> None:
    """The FLoB table plan is one page: nothing to trim or overlap, "has" a blank back, and
    "page 15", not "pages 15"."""
    pdf = fullest_packet(rules, "flob", "a4")  # the packet the print check reads
    cover = _cover(pdf)
    first, last = _span(pdf, "Scenario map")
    assert last == first + 1 and first % 2 == 1  # the plan and its blank back
    assert f"Scenario map (pages {first}–{last}): the whole map is on one page" in cover
    assert "trim each page" not in cover and "overlapping" not in cover
    assert "The page of the scenario map has a blank back." in cover
    assert f"and only page {first} single-sided" in cover
    assert not re.search(r"\bpages \d+ single-sided", cover)
    assert "have blank backs" not in cover


def test_a_tiled_map_packet_s_cover_lists_the_fronts_to_print(rules: Rules) -> None:
    without = frozenset({"cards", "quick-reference", "spares", "gm-notes", "playsheet"})
    packet = build_packet(rules, roll_scenario(rules, "tactical", 8), without=without)
    pdf = packet.write()
    cover = _cover(pdf)
    tiles = _span(pdf, "Scenario map")
    counter_pages = _span(pdf, "Ship counters")
    assert tiles[1] - tiles[0] + 1 == 16  # 8 tiles, each with its blank back
    assert f"Scenario map (pages {tiles[0]}–{tiles[1]}): trim each page" in cover
    assert "The pages of the scenario map and ship counters have blank backs." in cover
    fronts = [*range(tiles[0], tiles[1] + 1, 2), *range(counter_pages[0], counter_pages[1], 2)]
    assert fronts == list(range(fronts[0], fronts[-1] + 1, 2))  # one run of fronts
    assert f"only the odd pages from {fronts[0]} to {fronts[-1]} single-sided" in cover


def seams(page: map_pages.Page, columns: int, rows: int) -> tuple[list[float], list[float]]:
    """The overlap and trim lines a page prints, canvas mm: (xs of the lines down it, ys of
    those across it): trim lines on its left and top edges where it lies over a neighbour,
    dashed overlap lines where a neighbour lies over it."""
    x0, y0, x1, y1 = page.x, page.y, page.x + page.w, page.y + page.h
    xs = [x0] if page.column > 0 else []
    xs += [x1 - map_tiles.OVERLAP_MM] if page.column < columns - 1 else []
    ys = [y0] if page.row > 0 else []
    ys += [y1 - map_tiles.OVERLAP_MM] if page.row < rows - 1 else []
    return xs, ys


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("ruleset", ["convoy", "impulse", "tactical"])
def test_no_cell_number_lies_on_an_overlap_or_trim_line(
    rules: Rules, ruleset: str, paper: str
) -> None:
    """The dashed overlap line ran through 0909, 1109, 1309, 1509 (convoy, A4, tile B1),
    and on tile A2 the numbers 0109-0709 sat on the trim edge: cut or folded, a number is
    lost. Every number keeps clear of every seam on every tile, and none is dropped."""
    found = map_kind.context(rules, scenario(ruleset, 5), paper, ruleset)
    columns, rows = found["columns"], found["rows"]
    assert columns * rows > 1
    numbered: set[str] = set()
    for page in found["pages"]:
        xs, ys = seams(page, columns, rows)
        assert xs or ys
        view = (page.x, page.y, page.x + page.w, page.y + page.h)
        for element in page.elements:
            if not isinstance(element, map_shapes.Text) or element.style != "coord":
                continue
            x0, y0, x1, y1 = element.box
            if not (x1 > view[0] and x0 < view[2] and y1 > view[1] and y0 < view[3]):
                continue  # off this page's window
            numbered.add(element.lines[0])
            for x in xs:
                assert not x0 - 0.5 < x < x1 + 0.5, (page.label, element.lines, x)
            for y in ys:
                assert not y0 - 0.5 < y < y1 + 0.5, (page.label, element.lines, y)
            # still in its own cell's band, along its top or bottom edge
            assert any(
                r[0] - 1e-6 <= x0 and x1 <= r[2] + 1e-6 and r[1] - 1e-6 <= y0 and y1 <= r[3] + 1e-6
                for r in element.room
            ), element.lines
    grid = scenario(ruleset, 5)["map"]
    digits = max(2, len(str(max(grid["width"], grid["height"]))))
    every = {
        map_geometry.coordinate(c, r, digits)
        for c in range(grid["width"])
        for r in range(grid["height"])
    }
    assert numbered == every


def test_a_number_on_a_seam_moves_to_the_nearest_clear_place() -> None:
    number = map_geometry.place_coordinate(
        8, 8, 2, 100.0, 50.0, False, HEX_MM, HEX_MM / math.sqrt(3) / 2
    )
    _x0, y0, _x1, y1 = number.box
    assert map_geometry.clear_of_seams(number, [], [y1 + 5]) is number  # no seam near: unmoved
    # a seam across its top: below it, in the band along the top edge
    moved = map_geometry.clear_of_seams(number, [], [y0 + 0.2])
    assert moved is not None and moved.cx == number.cx
    assert moved.box[1] >= y0 + 0.2 + map_geometry.SEAM_CLEAR_MM - 1e-6
    assert moved.box[3] <= number.room[0][3] + 1e-6
    # a seam down its middle: beside it, on the side nearer
    aside = map_geometry.clear_of_seams(number, [100.3], [])
    assert aside is not None and aside.box[2] <= 100.3 - map_geometry.SEAM_CLEAR_MM + 1e-6
    # nowhere clear in either band (seams 2 mm apart across the cell): left out, not cut
    assert map_geometry.clear_of_seams(number, [90.0 + 2 * i for i in range(11)], []) is None
