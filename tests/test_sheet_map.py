"""The map sheet, drawn with ReportLab: tiling, page grids per ruleset and paper, the scale
measured on the drawn PDF, the cells' coordinates, the patterns, the wind rose; read back
with pypdf (and rasterised with PDFium where what matters is the ink)."""

from __future__ import annotations

import collections
import copy
import itertools
import math
import re
from functools import cache
from typing import Any

import pytest
from pypdf import PageObject, PdfReader

from generator.errors import InputError
from generator.generate.scenario import roll_scenario
from generator.loading import Rules, load_rules
from generator.render.cells import HEX_MM, PRINTABLE_MM, SQUARE_MM
from generator.render.draw import text_width_mm, wrap
from generator.render.kinds import map as map_kind
from generator.render.sheets import render_sheet
from tests.pdfs import (
    BLACK_AND_WHITE,
    MM,
    PAGE_SIZES,
    colours,
    flat,
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


def paths(page: PageObject) -> list[tuple[list[tuple[float, float]], bool]]:
    """The subpaths drawn with m, l (and h) on a page: their points in mm from the page's
    top-left, and whether each is closed. Rectangles (re) and curves are left out."""
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
    starts = map_kind.spans(total, window, overlap)
    assert starts[0] <= 0 and starts[-1] + window >= total
    for a, b in itertools.pairwise(starts):
        assert a + window - b == pytest.approx(overlap)  # each neighbour repeats 10 mm
    if len(starts) > 1:  # the fewest pages: one less would not reach across
        assert window + (len(starts) - 2) * (window - overlap) < total
    assert -starts[0] == pytest.approx(starts[-1] + window - total, abs=1e-3)  # centred


def test_tiles_cover_every_point_of_the_map() -> None:
    columns, rows, tiles = map_kind.tile(674, 454, 187.8, 249.0)
    assert (columns, rows) == (4, 2)
    assert [t.label for t in tiles] == ["A1", "B1", "C1", "D1", "A2", "B2", "C2", "D2"]
    for x in range(0, 675, 3):
        for y in range(0, 455, 3):
            assert any(t.x <= x <= t.x + t.width and t.y <= y <= t.y + t.height for t in tiles)
    assert map_kind.column_letters(25) == "Z" and map_kind.column_letters(26) == "AA"
    with pytest.raises(ValueError, match="wider than the overlap"):
        map_kind.spans(100, 10, 10)


def test_the_scales_are_the_counters() -> None:
    assert (SQUARE_MM, HEX_MM) == (22.0, 26.0)
    assert map_kind.plan_scale(180, 120, 186, 150) == 10
    assert map_kind.plan_scale(360, 240, 186, 150) == 20
    with pytest.raises(InputError, match="too large to print as a plan"):
        map_kind.plan_scale(100000, 100, 186, 150)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_page_grids_follow_from_map_size_and_paper(rules: Rules, paper: str) -> None:
    for ruleset in ("tactical", "impulse", "convoy", "flob"):
        found = map_kind.context(rules, scenario(ruleset), paper, ruleset)
        assert (found["columns"], found["rows"]) == GRIDS[ruleset, paper]
        if ruleset == "flob":
            continue
        grid = scenario(ruleset)["map"]
        width, height = map_kind.window(paper)
        if grid["kind"] == "grid":
            canvas = (grid["width"] * SQUARE_MM, grid["height"] * SQUARE_MM)
        else:
            r = HEX_MM / 3**0.5
            canvas = (1.5 * r * (grid["width"] - 1) + 2 * r, HEX_MM * (grid["height"] + 0.5))
        canvas = (canvas[0] + 2 * map_kind.MARGIN_MM, canvas[1] + 2 * map_kind.MARGIN_MM)
        columns, rows, _ = map_kind.tile(*canvas, width, height)
        assert (columns, rows) == GRIDS[ruleset, paper]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_page_headers_fit_in_three_lines(rules: Rules, paper: str) -> None:
    big = copy.deepcopy(scenario("tactical"))
    big["map"]["width"], big["map"]["height"] = 45, 36
    big["map"]["rows"] = ["." * 45] * 36
    width = map_kind.header_text_width(paper)
    for data in (scenario("tactical"), scenario("convoy"), big):
        found = map_kind.context(rules, data, paper, None)
        for page in found["pages"]:
            note = f"{found['ruleset_name']}: {page['note']}"
            assert len(wrap(note, "sans", 7.0, width)) <= 3, note
            assert page["note_lines"] == wrap(note, "sans", 7.0, width)  # as drawn
        title = f"Map — {found['scenario_title']}"
        assert text_width_mm(title, "serif", found["title_size"]) <= width
    found = map_kind.context(rules, big, paper, None)
    assert found["columns"] * found["rows"] >= 9
    middle = next(p for p in found["pages"] if p["label"] == "B2")
    assert "Trim the solid left and top edges" in middle["note"]
    assert "C2 goes on the dashed strip at the right, B3 on the one below" in middle["note"]


# ---------------------------------------------------------------- rendered


@pytest.mark.parametrize("ruleset", ["tactical", "impulse", "convoy", "flob"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_map_pages(rules: Rules, ruleset: str, paper: str) -> None:
    mono = paper == "letter"
    data = scenario(ruleset)
    reader = read(render_sheet("map", rules, data=data, paper=paper, mono=mono))
    columns, rows = GRIDS[ruleset, paper]
    assert len(reader.pages) == columns * rows
    assert {page_size(reader, i) for i in range(len(reader.pages))} == {PAGE_SIZES[paper]}
    content = flat(reader)
    assert smallest_text(reader) >= 6.99  # none set under 7 pt
    if ruleset != "flob":
        for r in range(rows):
            for c in range(columns):
                # "page B1" is bold, " of 4×2" not: two runs, which pypdf may join
                label = rf"page {'ABCD'[c]}{r + 1}\s?of {columns}×{rows}"
                assert re.search(label, content), label
        assert content.count("overlap mark") == columns * rows
    else:
        assert "scale 1:10" in content and "180 × 120 cm" in content
        for feature in data["map"]["features"]:
            assert feature["label"] in content
    for word in LEGEND[ruleset]:
        assert word in content, word
    assert "House tables used" in content
    assert reader.metadata is not None
    assert reader.metadata.title == f"Scenario map — {data['title']}"
    assert reader.metadata.subject and "overlap strips" in reader.metadata.subject


def test_convoy_start_hexes_print_long_names(rules: Rules) -> None:
    data = copy.deepcopy(scenario("convoy", 255))  # 8 merchants and 2 escorts, 4 raiders
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
    every = {map_kind.coordinate(c, r) for c in range(grid["width"]) for r in range(grid["height"])}
    assert set(found) == every
    assert map_kind.coordinate(4, 6) == "0507" and map_kind.coordinate(4, 6, 3) == "005007"
    # faint: the map's own grey, not the ink of the words
    assert map_kind.STYLES["colour"]["coord"]["fill"] != map_kind.STYLES["colour"]["text"]["fill"]
    faint = tuple(int(map_kind.STYLES["colour"]["coord"]["fill"][i : i + 2], 16) / 255
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
    grid, s, m = data["map"], SQUARE_MM, map_kind.MARGIN_MM
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
        x, y, w, h = page["x"], page["y"], page["w"], page["h"]
        for c, r in sea:
            x0, y0 = m + c * s, m + r * s
            if x0 < x + 14 or y0 < y + 14 or x0 + s > x + w - 14 or y0 + s > y + h - 14:
                continue  # near a seam: its marks
            left, top = 11.0 + x0 - x, 10.0 + map_kind.HEADER_MM + y0 - y
            assert _ink(pages[index], (left + 3, top + 5, left + s - 3, top + s - 3)) == 0.0
            checked += 1
    assert checked >= 40


def test_terrain_and_start_zones_are_patterns_that_read_in_mono() -> None:
    """Land, shallows, fog and each side's start zone have a pattern of their own, in black
    and white as in colour: no two alike, none a flat tint; the two sides' outlines differ."""
    for look in ("colour", "mono"):
        patterns = map_kind.PATTERNS[look]
        drawn_as = {
            name: (p["kind"], p.get("angle"), p["step"])
            for name, p in patterns.items()
            if name in ("land", "shallows", "fog", "zone0", "zone1")
        }
        assert len(set(drawn_as.values())) == 5, look
        kinds = {p["kind"] for p in patterns.values()}
        assert kinds <= {"hatch", "cross", "dots", "dashes", "plus"}
        styles = map_kind.STYLES[look]
        for name in ("land", "shallows", "fog", "zone0", "zone1", "start0", "start1"):
            assert styles[name]["fill"].startswith("pattern:"), name
        assert styles["zoneline0"].get("dash") != styles["zoneline1"].get("dash")
    for p in map_kind.PATTERNS["mono"].values():
        assert p["ink"] == "#000000" and p["ground"] in (None, "#ffffff")
    # the strokes of a hatch cover its box, a line every `step` across it
    land = map_kind.PATTERNS["mono"]["land"]
    lines = map_kind.pattern_lines(land, (0.0, 0.0, 22.0, 22.0))
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
    width, height = map_kind.window(paper)

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
    top_blank = first[1] - 10.0 - map_kind.HEADER_MM
    bottom = extent(columns * rows - 1)
    bottom_blank = 10.0 + map_kind.HEADER_MM + height - bottom[3]
    assert top_blank == pytest.approx(bottom_blank, abs=0.6)
    assert width == pytest.approx(PRINTABLE_MM[paper][0] - 0.2)


@pytest.mark.parametrize("bearing", range(0, 360, 5))
def test_the_wind_arrow_never_covers_the_north(bearing: int) -> None:
    rose = map_kind.wind_rose({"from_bearing": bearing, "direction": "somewhere"})
    cx, cy = rose["centre"]
    shaft, head = rose["shaft"], rose["head"]
    points = [(shaft["x1"], shaft["y1"]), (shaft["x2"], shaft["y2"]), *head["pts"]]
    half = map_kind.STYLES["colour"]["arrowline"]["width"] / 2
    for x, y in points:
        assert math.hypot(x - cx, y - cy) + half < rose["r"]  # inside the ring
    north = rose["north"]["box"]
    assert north[3] < cy - rose["r"]  # the N stands above the ring: nothing inside reaches it
    assert rose["north"]["lines"] == ["N"]
    # the arrow blows from the bearing: its tail towards it
    tail = (shaft["x1"] - cx, -(shaft["y1"] - cy))
    assert math.degrees(math.atan2(tail[0], tail[1])) % 360 == pytest.approx(bearing, abs=0.01)


def test_calm_and_unknown_winds_draw_no_arrow() -> None:
    assert map_kind.wind_rose(None)["calm"] and "shaft" not in map_kind.wind_rose(None)
    rose = map_kind.wind_rose({"direction": "Variable"})
    assert rose["calm"] and rose["text"] == "Wind: variable"


def test_start_zone_names_are_on_white_and_fitted(rules: Rules) -> None:
    """Every ship of a convoy scenario has her start hex with her name set on white over the
    side's pattern, at 7 pt or more; a name too long for a hex is refused."""
    data = scenario("convoy", 255)
    found = map_kind.hex_canvas(data["map"], data["sides"], "ships")
    names = [e for e in found.elements if e["t"] == "text" and e["style"] in ("text0", "text1")]
    ships = [s["name"] for side in data["sides"] for s in side["ships"]]
    assert len(names) == len(ships)
    assert all(e["backing"] and e["size"] >= 7.0 for e in names)
    text = " ".join(" ".join(e["lines"]) for e in names)
    for ship in ships:
        assert all(word in text for word in ship.split())
    data = copy.deepcopy(data)
    data["sides"][0]["ships"][0]["name"] = "W" * 60
    with pytest.raises(InputError, match="does not fit its start hex at 7 pt"):
        map_kind.hex_canvas(data["map"], data["sides"], "ships")


def test_the_same_map_gives_the_same_bytes(rules: Rules) -> None:
    one = render_sheet("map", rules, data=scenario("convoy"), mono=True)
    assert one == render_sheet("map", rules, data=scenario("convoy"), mono=True)
    assert b"/ArtBox" in one
    assert "page A1 of 3×2" in " ".join(page_text(drawn("convoy").pages[0]).split())
