"""The scenario briefing (a packet's cover): the conditions in sentences, each said once, the
sides (a card per duellist), and an overview of the map with a legend."""

from __future__ import annotations

import re
from typing import Any

import pytest

from generator.generate.base import get_generator
from generator.generate.scenario import roll_scenario
from generator.loading import Rules
from generator.render.kinds import briefing, roster
from generator.render.kinds import map as maps
from generator.render.kinds.map import shapes as map_shapes
from generator.render.kinds.map import styles as map_styles
from generator.render.paper import get_paper
from generator.render.sheets import render_sheet, sheet_html
from generator.render.words import house_tables_line, wind_words
from generator.ruleset.scenario import ROLLS_AGAIN
from generator.rulesets import ruleset_ids, serving
from tests.fullest import fullest_scenario
from tests.pdfs import MM, drawn_text, flat, page_text, read
from tests.test_player_words import table_ids

MAPPED = [r for r in ruleset_ids() if maps.has_map(r)]


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
    # the house tables named in one short line, on the page the players hold
    line = house_tables_line(rules, scenario["house_tables"])
    assert line.startswith("House tables used: ") and line in " ".join(text.split())
    view = briefing.overview(scenario, "a4")
    if not maps.has_map(ruleset):
        assert view is None
        assert "Printed on" not in text
        return
    assert view is not None
    assert float(view["w"]) <= briefing.OVERVIEW_W + 0.01
    assert float(view["h"]) <= briefing.OVERVIEW_H["a4"] + 0.01
    # no words shrunk below 7 pt: shapes only, merged into paths
    assert all(isinstance(e, map_shapes.Path) for e in view["elements"])
    # the overview paints the map sheet's own shapes: its grid lines, its patterns
    html = sheet_html("briefing", rules, data=scenario)
    lines = {"grid": "gridline", "hex": "hexline", "table": "planline"}[scenario["map"]["kind"]]
    assert lines in {e.style for e in view["elements"]}
    assert f'stroke="{map_styles.STYLES["colour"][lines]["stroke"]}"' in html
    for name in {e.style for e in view["elements"]} & {"land", "fog", "shallows"}:
        assert f'<pattern id="o{name}"' in html and f'fill="url(#o{name})"' in html
    # a dotted pattern (a start zone) is dotted in the overview too, as on the map sheet
    for style in {e.style for e in view["elements"]}:
        spec = view["patterns"]["colour"].get(style) or {}
        if spec.get("dots"):
            assert f'stroke-dasharray="0 {spec["dots"]}"' in html, style
    # a legend of what the overview shows: each side's start, the terrain it has
    legend = [k["name"] for k in view["legend"]]
    assert legend and all(name in " ".join(text.split()) for name in legend)
    for side in scenario["sides"][:2]:
        assert any(name.startswith(side["name"]) for name in legend), side["name"]
    assert html.count('<span class="key"><svg') == len(legend)
    if scenario["map"]["kind"] == "table":
        assert "The table," in text
        return
    pages = maps.context(rules, scenario, "a4", ruleset)["pages"]
    assert f"Printed on {len(pages)} page" in text
    assert [t["label"] for t in view["tiles"]] == [p.label for p in pages]
    # the page names are set at 7.5 pt on paper, whatever the map's scale
    scale = float(view["w"]) / float(view["view"].split()[2])
    assert float(view["font"]) * scale == pytest.approx(briefing.LABEL_MM, rel=1e-3)


@pytest.mark.parametrize("ruleset", MAPPED)
def test_start_zones_fog_and_terrain_stay_apart_in_mono(rules: Rules, ruleset: str) -> None:
    """Shrunk with the map, the start zones' outlines printed as hairlines, and in black and
    white a zone could not be told from the fog: they are drawn at the cover's own size,
    solid for one side and dashed for the other, over patterns of their own."""
    view = briefing.overview(roll_scenario(rules, ruleset, 23), "a4")
    assert view is not None
    scale = float(view["w"]) / float(view["view"].split()[2])
    for look in ("colour", "mono"):
        styles = view["styles"][look]
        for side in (0, 1):
            line = styles[f"zoneline{side}"]
            assert float(line["width"]) * scale == pytest.approx(briefing.ZONE_LINE_MM, rel=1e-2)
        assert "dash" not in styles["zoneline0"] and styles["zoneline1"]["dash"]
        assert float(styles["zoneline0"]["width"]) > 2 * float(styles["fogedge"]["width"])
        mono = view["patterns"]["mono"]
        looks = [
            (mono[name]["kind"], mono[name].get("angle"), mono[name]["step"])
            for name in ("zone0", "zone1", "fog", "land", "shallows")
        ]
        assert len(set(looks)) == len(looks)
        # the legend's samples: the same lines, mm on paper
        sample = view["legend_styles"][look]["zoneline0"]
        assert float(sample["width"]) == pytest.approx(briefing.ZONE_LINE_MM, rel=1e-2)


@pytest.mark.parametrize("ruleset", MAPPED)
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_cover_with_a_map_stays_on_one_page(rules: Rules, ruleset: str, paper: str) -> None:
    """The overview takes the room the page has left (never less than OVERVIEW_MIN_H): the
    cover is one page; a scenario with too much to say (Form Line of Battle's terrain and
    house rules, on Letter) has its map whole on a second page, never a line or two."""
    for scenario in [fullest_scenario(rules, ruleset), *(roll_scenario(rules, ruleset, s)
                                                        for s in (5, 6, 7))]:  # fmt: skip
        context = briefing.context(rules, scenario, paper, ruleset)
        view = context["overview"]
        room = briefing._map_room(context, paper, briefing.overview(scenario, paper))
        reader = read(render_sheet("briefing", rules, data=scenario, paper=paper, mono=True))
        if room >= briefing.OVERVIEW_MIN_H:
            assert len(reader.pages) == 1, scenario["seed"]
            assert float(view["h"]) <= room + 0.01
        else:
            assert len(reader.pages) == 2, scenario["seed"]
            # the page's width, or the height a page of its own allows
            width = get_paper(paper).printable_mm[0]
            assert float(view["h"]) == pytest.approx(
                min(briefing.OVERVIEW_PAGE_H[paper], width * view["h"] / view["w"]), abs=0.01
            )
            second = page_text(reader.pages[1])
            assert second.lstrip().startswith("Map") and "House tables used" in second
        # the estimate of where the map's heading stands errs on the generous side
        heading = [
            r.y / MM - 10
            for page in reader.pages[:1]
            for r in drawn_text(page)
            if r.text == "Map" and r.size > 12
        ]
        estimate = briefing._map_heading(context, paper)
        assert all(0 <= estimate - y <= 6 for y in heading), (heading, estimate)


def words(context: dict[str, Any]) -> str:
    """The briefing's conditions and rules, as one text."""
    facts = " ".join(f"{label} {value}" for label, value in context["facts"])
    lines = [line for key in ("setup", "victory", "special_rules") for line in context[key]]
    return " ".join([facts, *lines])


@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_the_conditions_are_said_once_in_players_words(rules: Rules, ruleset: str) -> None:
    """The wind once, in the rules' terms (the generator rolled it: no "roll for the wind"
    after "Wind Calm"); the weather's effect once; no table ids, no program values."""
    ids = table_ids(rules)
    for seed in range(0, 40):
        scenario = roll_scenario(rules, ruleset, seed)
        context = briefing.conditions(rules, scenario)
        said = words(context)
        labels = [label for label, _ in context["facts"]]
        assert len(labels) == len(set(labels))
        assert not ids.findall(said), seed
        assert not re.search(r"\b(?:True|False|None)\b|\[\d|\d\.0\b", said), said
        assert not re.search(r"roll for the wind|The wind blows from", said, re.IGNORECASE)
        wind = scenario.get("wind") or {}
        if wind.get("direction") and isinstance(wind.get("from_bearing"), int):
            where = wind_words(wind).split(" (")[0]  # "from the south-west"
            # (a table's positions are measured "from the north-west corner")
            found = re.findall(rf"{where}(?![\w-]| corner)", said.lower())
            assert len(found) == 1, (seed, said)
            assert dict(context["facts"])["Wind"].startswith(where)
        effect = str((scenario.get("weather") or {}).get("effect") or "")
        if effect:
            assert said.count(effect.split(" (")[0].rstrip(".")) == 1, (seed, said)


def test_the_briefing_in_sentences(rules: Rules) -> None:
    convoy = flat(read(render_sheet("briefing", rules, data=roll_scenario(rules, "convoy", 23))))
    assert "Battle clock 42 spaces; each turn it moves 3, 4 or 5." in convoy
    assert "Wind from the south-west." in convoy and "South-west, 240" not in convoy
    assert "Weather Thick weather. Two more fog banks on the map." in convoy
    assert convoy.count("Two more fog banks") == 1 and convoy.count("loop of 42") == 0
    assert "(see “Wind change”)" in convoy and "map.start" not in convoy
    tactical = briefing.conditions(rules, roll_scenario(rules, "tactical", 30))  # a west wind
    assert dict(tactical["facts"])["Wind"] == (
        "from the west at the start; each turn after, roll 1D6: on a 6 the wind changes."
    )
    calm = roll_scenario(rules, "tactical", 23)
    calm["wind"] = {"roll": 1, "direction": "Calm", "from_bearing": "—"}
    assert dict(briefing.conditions(rules, calm)["facts"])["Wind"].startswith(
        "Calm at the start; each turn after"
    )
    calm["wind"] = {"roll": 4, "direction": "NE", "from_bearing": 45}
    assert dict(briefing.conditions(rules, calm)["facts"])["Wind"].startswith(
        "from the north-east at the start"
    )


@pytest.mark.parametrize("ruleset", sorted(set(serving("roster")) & set(ruleset_ids())))
def test_the_strengths_are_the_rosters(rules: Rules, ruleset: str) -> None:
    for scenario in (roll_scenario(rules, ruleset, 23), fullest_scenario(rules, ruleset)):
        cover = briefing.context(rules, scenario, "a4", ruleset)["sides"]
        sheet = roster.context(rules, scenario, "a4", ruleset)["sides"]
        assert [s["strength"] for s in cover] == [s["strength"] for s in sheet]
        assert all(re.fullmatch(r"\d+", s["strength"]) for s in cover)


def test_a_card_for_each_duellist(rules: Rules) -> None:
    """A duel's cover pictures the fight: who, from where, how they fight, with what, and
    how much they can take."""
    scenario = roll_scenario(rules, "duel", 23)
    text = flat(read(render_sheet("briefing", rules, data=scenario)))
    for side in scenario["sides"]:
        (person,) = side["characters"]
        assert person["nationality"].capitalize() in text
        assert f"{person['height_cm']} cm" in text
        assert f"Hit points {person['hit_points']}" in text
        for weapon in person["weapons"]:
            assert f"{weapon['name']} ({weapon['hand']} hand): damage {weapon['damage']}" in text
        for key, value in person["attributes"].items():
            assert f"{key.capitalize()} {value}" in text
    assert "No style" in text and "Ships:" not in text  # the fighting style table's words
    assert "Venue A sandbar at low tide." in text
    assert "Weather Overcast with a fresh breeze." in text and "Wind" not in text


def test_the_seed_is_said_to_roll_again_only_as_the_application_found(rules: Rules) -> None:
    """Whether a seed rolls its scenario again takes a generator to find out: the
    application layer finds it and tells the sheet (`ROLLS_AGAIN`); untold, the cover
    gives the seed alone."""
    scenario = roll_scenario(rules, "duel", 23)
    said = {
        again: flat(read(render_sheet("briefing", rules, data={**scenario, ROLLS_AGAIN: again})))
        for again in (True, False)
    }
    assert f"{scenario['seed']} (the same seed rolls the same scenario)" in said[True]
    assert f"{scenario['seed']} (changed since it was rolled: the seed alone" in said[False]
    untold = flat(read(render_sheet("briefing", rules, data=scenario)))
    assert f"Seed {scenario['seed']} " in untold
    assert "the same seed" not in untold and "changed since" not in untold
