"""The paper (generator/render/paper.py): A4 and Letter described once, the printable area
derived from the size and the page margins, and every sheet's page taken from there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.errors import InputError
from generator.loading import Rules
from generator.render.draw import MM, Drawing
from generator.render.paper import PAPERS, get_paper
from generator.render.sheets import page_boxes, render_sheet, sheet_html
from tests.pdfs import read

GENERATOR = Path(__file__).resolve().parents[1] / "generator"


def test_the_printable_area_is_the_paper_inside_its_margins() -> None:
    # the sizes the map tiles, the counters and the briefing's overview were designed to
    assert get_paper("a4").printable_mm == (188.0, 277.0)
    assert get_paper("letter").printable_mm == (193.9, 259.4)
    for paper in PAPERS.values():
        down, across = paper.margin_mm
        assert paper.printable_mm == (paper.width_mm - 2 * across, paper.height_mm - 2 * down)
        assert paper.css_margin == "10mm 11mm"


def test_a_paper_is_found_by_its_name_in_any_case() -> None:
    assert get_paper("Letter") is PAPERS["letter"] and get_paper("a4").css == "A4"
    with pytest.raises(InputError, match=r"^--paper A5: choose a4 or letter$"):
        get_paper("A5")


@pytest.mark.parametrize("name", list(PAPERS))
def test_both_engines_take_the_page_from_the_paper(rules: Rules, name: str) -> None:
    paper = get_paper(name)
    html = sheet_html("quick-reference", rules, ruleset="tactical", paper=name)
    assert f"@page {{ size: {paper.css}; margin: {paper.css_margin}; }}" in html
    assert Drawing(name).size_mm == paper.size_mm
    reader = read(render_sheet("cards", rules, ruleset="tactical", paper=name))
    box = reader.pages[0].mediabox
    assert (float(box.width) / MM, float(box.height) / MM) == pytest.approx(paper.size_mm)
    # a frame is measured in from the paper's edges
    left, top, right, bottom = page_boxes("briefing", name)["art"]
    assert (left, top) == (11.0, 10.0)
    assert (right + 11.0, bottom + 5.0) == pytest.approx(paper.size_mm)


def test_no_other_module_writes_a_paper_size_down() -> None:
    sizes = re.compile(r"\b(?:215\.9|279\.4|297(?:\.0)?|210\.0)\b")
    found = [
        f"{path.relative_to(GENERATOR)}:{n}"
        for path in sorted(GENERATOR.rglob("*.py"))
        if path.name != "paper.py"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if sizes.search(line.split("#", 1)[0])
    ]
    assert found == []
