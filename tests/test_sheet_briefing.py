"""The scenario briefing (a packet's cover): facts, sides, and an overview of the map."""

from __future__ import annotations

import pytest

from generator.generate.base import get_generator
from generator.generate.scenario import roll_scenario
from generator.loading import Rules
from generator.render.kinds import briefing
from generator.render.kinds import map as maps
from generator.render.sheets import render_sheet, sheet_html
from generator.rulesets import ruleset_ids
from tests.pdfs import read


@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_briefing_names_every_side_and_unit_and_shows_the_map(rules: Rules, ruleset: str) -> None:
    scenario = roll_scenario(rules, ruleset, 23)
    reader = read(render_sheet("briefing", rules, data=scenario))
    text = " ".join(p.extract_text() for p in reader.pages).replace("\n", " ")
    assert scenario["title"] in text
    assert f"Seed {scenario['seed']}" in text
    units = get_generator(ruleset).units
    for side in scenario["sides"]:
        assert side["name"] in text
        for unit in side[units]:
            assert unit["name"] in text
    view = briefing.overview(scenario, "a4")
    if not maps.has_map(ruleset):
        assert view is None
        assert "Printed on" not in text
        return
    assert view is not None
    assert float(view["w"]) <= briefing.OVERVIEW_W + 0.01
    assert float(view["h"]) <= briefing.OVERVIEW_H["a4"] + 0.01
    assert not [e for e in view["elements"] if e["t"] == "text"], "no words shrunk below 7 pt"
    # the overview paints the map sheet's own shapes: its grid lines, its patterns
    html = sheet_html("briefing", rules, data=scenario)
    lines = {"grid": "gridline", "hex": "hexline", "table": "planline"}[scenario["map"]["kind"]]
    assert lines in {e["style"] for e in view["elements"]}
    assert f'stroke="{maps.STYLES["colour"][lines]["stroke"]}"' in html
    for name in {e["style"] for e in view["elements"]} & {"land", "fog", "shallows"}:
        assert f'<pattern id="o{name}"' in html and f'fill="url(#o{name})"' in html
    if scenario["map"]["kind"] == "table":
        assert "The table," in text
        return
    pages = maps.context(rules, scenario, "a4", ruleset)["pages"]
    assert f"Printed on {len(pages)} page" in text
    assert [t["label"] for t in view["tiles"]] == [p["label"] for p in pages]
    # the page names are set at 7.5 pt on paper, whatever the map's scale
    scale = float(view["w"]) / float(view["view"].split()[2])
    assert float(view["font"]) * scale == pytest.approx(briefing.LABEL_MM, rel=1e-3)


@pytest.mark.parametrize("ruleset", ["tactical", "convoy", "impulse"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_cover_with_a_map_stays_on_one_page(rules: Rules, ruleset: str, paper: str) -> None:
    for seed in (5, 6, 7):
        scenario = roll_scenario(rules, ruleset, seed)
        pdf = render_sheet("briefing", rules, data=scenario, paper=paper, mono=True)
        assert len(read(pdf).pages) == 1, seed
