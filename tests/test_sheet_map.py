"""The map sheet: tiling, page grids per ruleset and paper, read back with pypdf."""

from __future__ import annotations

import copy
import itertools
import re
from functools import cache
from typing import Any

import pytest

from generator.errors import InputError
from generator.generate.scenario import roll_scenario
from generator.loading import Rules, load_rules
from generator.render.kinds import map as map_kind
from generator.render.kinds.counters import HEX_MM, SQUARE_MM, text_width, wrap
from generator.render.sheets import render_sheet
from tests.pdfs import PAGE_SIZES, flat, page_size, read, smallest_text

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
            assert len(wrap(note, width, 7.0)) <= 3, note
        title = f"Map — {found['scenario_title']}"
        assert text_width(title, found["title_size"], False, "serif") <= width
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
