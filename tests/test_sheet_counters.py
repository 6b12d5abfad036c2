"""Ship counters: fitted names, packing into pages, rendered and read back with pypdf."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import pytest

from generator.errors import InputError
from generator.generate.scenario import roll_scenario
from generator.loading import Rules, load_rules
from generator.render import cells
from generator.render.kinds import counters
from generator.render.sheets import render_sheet
from tests.pdfs import PAGE_SIZES, flat, read, smallest_text

LONG_NAME = "Nuestra Señora de la Santísima Trinidad"
ESCAPED = "Swan <&> Crow"


@cache
def scenario(ruleset: str, seed: int = 3) -> dict[str, Any]:
    return roll_scenario(load_rules(), ruleset, seed)


def names(data: dict[str, Any]) -> list[str]:
    return [ship["name"] for side in data["sides"] for ship in side["ships"]]


def expected_pages(data: dict[str, Any], paper: str) -> int:
    shape = counters.shape_for(data["ruleset"])
    return len(counters.paginate([len(s["ships"]) for s in data["sides"]], shape, paper))


# ---------------------------------------------------------------- fitting and packing


def test_names_fit_their_counters_whole() -> None:
    for shape in (counters.Shape(False, cells.SQUARE_MM), counters.Shape(True, cells.HEX_MM)):
        for name in (LONG_NAME, ESCAPED, "Witte Olifant", "Kronprinsessan Lovisa Ulrika"):
            ship = {"name": name, "class": "Heavy frigate (44)", "navy": "portuguese"}
            laid = counters.counter(ship, 0, "portuguese", shape, "impulse", 0, 0)
            lines = [line["text"] for line in laid["name"]["lines"]]
            assert " ".join(lines) == name  # nothing lost, words kept whole
            size_pt = laid["name"]["size"] / counters.PT_MM
            assert size_pt >= counters.MIN_PT - 1e-6
            top = -shape.size / 2 + counters.ARROW_MM
            for line in lines:
                assert counters.text_width(line, size_pt, True) <= 2 * shape.half_width(top)
            assert laid["band_text"]["lines"][0]["text"] == "Portuguese"


def test_fit_text_shrinks_then_wraps_then_splits() -> None:
    short = counters.fit_text("Brutus", 20, 10, bold=True)
    assert short is not None and short.size == 10 and short.lines == ("Brutus",)
    wrapped = counters.fit_text(LONG_NAME, 20, 10, bold=True)
    assert wrapped is not None and 7 <= wrapped.size < 10 and len(wrapped.lines) > 1
    split = counters.fit_text("Oranjeboomoranjeboomoranjeboom", 20, 10, bold=True)
    assert split is not None and "".join(split.lines) == "Oranjeboomoranjeboomoranjeboom"
    assert counters.fit_text("x " * 200, 20, 10) is None


def test_too_long_a_name_is_refused() -> None:
    ship = {"name": "Santísima " * 12, "class": "3rd Class"}
    with pytest.raises(InputError, match=r"does not fit a 22 mm counter at 7 pt"):
        counters.counter(ship, 0, "spanish", counters.shape_for("tactical"), "tactical", 0, 0)


def test_paginate_fills_pages_by_rows() -> None:
    square, hexagon = counters.shape_for("tactical"), counters.shape_for("convoy")
    assert counters.per_row(square, "a4") == 8 and counters.per_row(square, "letter") == 8
    assert counters.per_row(hexagon, "a4") == 7 and counters.per_row(hexagon, "letter") == 8
    assert counters.paginate([12, 12], square, "a4") == [[(0, 0, 12), (1, 0, 12)]]
    pages = counters.paginate([60, 60], square, "a4")
    assert len(pages) == 2
    shown = sorted((side, i) for page in pages for side, a, b in page for i in range(a, b))
    assert shown == [(side, i) for side in (0, 1) for i in range(60)]
    for page in pages:  # a side is split only at the end of a row
        for _side, start, _end in page:
            assert start % 8 == 0


# ---------------------------------------------------------------- rendered


@pytest.mark.parametrize("ruleset", ["tactical", "impulse", "convoy"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_counter_sheets(rules: Rules, ruleset: str, paper: str) -> None:
    data = scenario(ruleset)
    mono = paper == "letter"
    reader = read(render_sheet("counters", rules, data=data, paper=paper, mono=mono))
    assert len(reader.pages) == expected_pages(data, paper) == 1
    assert {tuple(round(float(v), 1) for v in p.mediabox[2:]) for p in reader.pages} == {
        PAGE_SIZES[paper]
    }
    content = flat(reader)
    assert smallest_text(reader) >= 6.99  # none set under 7 pt
    for name in names(data):
        assert name in content, name
    size = "26 mm across the flats" if ruleset == "convoy" else "22 mm squares"
    assert size in content
    assert ("hatched band" if mono else "blue band") in content
    assert "House tables used" in content
    assert reader.metadata is not None
    assert reader.metadata.title == f"Ship counters — {data['title']}"
    assert reader.metadata.subject and "arrow to the bow" in reader.metadata.subject


@pytest.mark.parametrize(("ruleset", "seed"), [("tactical", 264), ("convoy", 255)])
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
    assert len(reader.pages) == expected_pages(data, "a4") == 1
    content = flat(reader)
    assert smallest_text(reader) >= 6.99  # none set under 7 pt
    for name in names(data):
        assert name in content, name


def test_many_ships_take_several_sheets(rules: Rules) -> None:
    data = copy.deepcopy(scenario("tactical"))
    for side, count in zip(data["sides"], (80, 4), strict=True):
        side["ships"] = [dict(side["ships"][0], name=f"Ship {i + 1}") for i in range(count)]
    # letter: 9 rows of 8 on the first sheet, the last row and the second side on the next
    pages = counters.paginate([80, 4], counters.shape_for("tactical"), "letter")
    assert pages == [[(0, 0, 72)], [(0, 72, 80), (1, 0, 4)]]
    reader = read(render_sheet("counters", rules, data=data, paper="letter"))
    assert len(reader.pages) == 2
    content = flat(reader)
    assert smallest_text(reader) >= 6.99  # none set under 7 pt
    assert "(continued)" in content and "Sheet 2 of 2" in content
    assert all(f"Ship {i}" in content for i in range(1, 81))


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
