"""The scenario briefing: the cover page of a packet.

Written for the players: the scenario's conditions as sentences, each said once (the wind
the generator rolled replaces a set-up line telling the players to roll it; a set-up line
that repeats a condition is left out), the sides with the same strengths as the roster (a
card per duellist, for a game of people), set-up, victory, special rules, and an overview of
the map with a legend. Table ids become the tables' titles (`player_words`); the house
tables are named in one line (`house_tables_line`).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping, Sequence
from typing import Any

from generator.errors import InputError
from generator.loading import Rules
from generator.render.draw import wrap
from generator.render.kinds.character import person as character_person
from generator.render.kinds.map import has_map
from generator.render.kinds.map.geometry import grid_canvas, hex_canvas, table_plan
from generator.render.kinds.map.shapes import Text, merge
from generator.render.kinds.map.styles import PATTERNS, STYLES, TERRAIN
from generator.render.kinds.map.tiles import tile, window
from generator.render.kinds.roster import strength_text
from generator.render.paper import get_paper
from generator.render.words import direction_words, house_tables_line, player_words, wind_words
from generator.ruleset import contract
from generator.ruleset.model import Scenario, units_of
from generator.ruleset.scenario import ROLLS_AGAIN, balance_warning
from generator.text import listed, signed

# the cover's map overview: at most this size (mm; Letter is 18 mm shorter than A4), less
# if the page has less room left under the words (`_map_room`); its page labels at 7.5 pt
OVERVIEW_W, LABEL_MM = 188.0, 7.5 * 25.4 / 72  # A4's width inside the margins
OVERVIEW_H = {"a4": 110.0, "letter": 95.0}
# the start zones' outlines on the overview, mm on paper: drawn to the cover's size, not
# shrunk with the map (they would print as hairlines that mono cannot tell from the fog's)
ZONE_LINE_MM = 0.5
ZONE_DASH_MM = (1.6, 0.9)
EXIT_LINE_MM = 0.7  # the exit edge, likewise
FOG_LINE_MM = 0.2  # the fog's dashed edge at most: under half a start zone's outline
SWATCH_MM = (7.0, 4.4)  # a legend entry's sample
OVERVIEW_MIN_H = 40.0  # smaller than this, the overview goes whole to a page of its own...
OVERVIEW_PAGE_H = {"a4": 150.0, "letter": 135.0}  # ... where it may be this high, page-wide
PT = 25.4 / 72

# a set-up line stating the wind the generator rolled; a clause telling players to roll it
_WIND_STATED = re.compile(r"^The wind blows from the ([A-Za-z-]+)(.*)$")
_WIND_ROLL = re.compile(r"^roll for the wind\b", re.IGNORECASE)


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else f"{text}."


def _weather_words(weather: Mapping[str, Any] | None, rules: Rules) -> tuple[str, str]:
    """Return the weather as a sentence, and its effect as the generator wrote it."""
    if not weather:
        return "", ""
    result = str(weather.get("result") or "")
    effect = str(weather.get("effect") or "")
    words = _sentence(result)
    if effect:
        words = f"{words} {_sentence(player_words(rules, effect))}"
    return words, effect


def _clock_words(clock: Mapping[str, Any]) -> str:
    said = listed([str(m) for m in clock.get("moves", [])], "or")
    return f"{clock['loop']} spaces; each turn it moves {said}."


def conditions(rules: Rules, data: Scenario) -> dict[str, Any]:
    """Return the scenario's conditions, each said once: the facts (label, sentence) and
    the set-up, victory and special rules left to say, in players' words."""
    lines = {
        key: [str(line) for line in found or []]
        for key, found in (
            ("setup", data.get("setup")),
            ("victory", data.get("victory")),
            ("special_rules", data.get("special_rules")),
        )
    }
    facts: list[tuple[str, str]] = []

    # the wind: one instruction, in the rules' terms. A line stating the rolled wind is
    # that instruction; a clause telling the players to roll it is done (the generator
    # rolled it): the rolled wind stands in its place.
    wind = wind_words(data.get("wind"))
    said = ""
    for found in lines.values():
        for index, line in enumerate(found):
            stated = _WIND_STATED.match(line)
            clauses = line.split("; ")
            if stated and wind.startswith(f"from the {direction_words(stated[1])}"):
                said = f"{wind}{stated[2]}"
            elif wind and _WIND_ROLL.match(clauses[0]):
                said = "; ".join([f"{wind} at the start", *clauses[1:]])
            else:
                continue
            del found[index]
            break
        if said:
            break
    weather, effect = _weather_words(data.get("weather"), rules)
    if wind and not said and wind in weather.lower():
        wind = ""  # the weather says it ("Overcast with a fresh breeze")
    if said or wind:
        # "from the ..." in lower case: the label and its words read as one sentence ("Wind
        # from the south."); anything else as a sentence of its own ("Calm at the start")
        words = player_words(rules, said or wind)
        words = words if words.startswith("from the ") else words[:1].upper() + words[1:]
        facts.append(("Wind", words if words.endswith(".") else f"{words}."))
    if weather:
        facts.append(("Weather", weather))
        # a special rule that repeats the weather's effect ("Thick weather: ...")
        if effect.strip():
            for key in ("setup", "special_rules"):
                lines[key] = [line for line in lines[key] if effect.strip() not in line]

    everything = " ".join(line for found in lines.values() for line in found)
    venue = data.get("venue")
    if isinstance(venue, Mapping) and venue.get("result"):
        facts.append(("Venue", _sentence(str(venue["result"]))))
    band = data.get("range")
    if isinstance(band, Mapping) and f"{band.get('band')} range" not in everything:
        facts.append(("Range", f"{band.get('band')} ({band.get('meters')} m)."))
    clock = data.get("battle_clock")
    if isinstance(clock, Mapping) and clock.get("moves"):
        facts.append(("Battle clock", _clock_words(clock)))
        # the set-up line that says the same ("The battle clock is a loop of 42 spaces ...")
        lines["setup"] = [
            line
            for line in lines["setup"]
            if not ("battle clock" in line.lower() and str(clock["loop"]) in line)
        ]
    year = data.get("year")
    if year is not None and str(year) not in everything:
        facts.append(("Year", str(year)))
    return {
        "facts": facts,
        **{key: [player_words(rules, line) for line in found] for key, found in lines.items()},
    }


def _duellist(rules: Rules, ruleset: str, unit: Mapping[str, Any]) -> dict[str, Any]:
    """A duellist as the cover shows them: who, how they fight, how much they can take."""
    person = character_person(rules.rulesets[ruleset].tables, unit)
    facts = [p for p in (person["nationality"], person["height"], person["style"]) if p]
    weapons = [
        f"{w['name']} ({w['hand']} hand): damage {w['damage']}, bonus {signed(w['weapon_bonus'])}"
        + (f", parry {signed(w['parry_bonus'])}" if w["can_parry"] is not False else "")
        for w in person["weapons"]
    ]
    armour = person["armour"]
    return {
        "name": person["name"],
        "about": " · ".join(facts),
        "weapons": "; ".join(weapons),
        "hit_points": person["hit_points"],
        "armour": "no armour" if armour.lower() in ("", "none") else armour.lower(),
        "attributes": " · ".join(f"{k.capitalize()} {v}" for k, v in person["attributes"].items()),
        "expertise": " · ".join(f"{k} {v}" for k, v in person["expertise"].items()),
    }


def _swatch(style: str) -> dict[str, str]:
    """A legend entry's sample, mm on paper: the shape filled with `fill`'s style and
    outlined with `edge`'s."""
    w, h = SWATCH_MM
    box = f"M0.3,0.3h{w - 0.6:g}v{h - 0.6:g}h{0.6 - w:g}Z"
    if style.startswith("zonekey"):
        return {"fill": f"zone{style[-1]}", "d": box, "edge": f"zoneline{style[-1]}"}
    if style.startswith("startkey"):
        hexagon = (
            f"M1.4,0.3L{w - 1.4:g},0.3L{w - 0.3:g},{h / 2:g}L{w - 1.4:g},{h - 0.3:g}"
            f"L1.4,{h - 0.3:g}L0.3,{h / 2:g}Z"
        )
        return {"fill": f"start{style[-1]}", "d": hexagon, "edge": f"zoneline{style[-1]}"}
    if style == "exitkey":
        return {"fill": "", "d": f"M0.3,{h / 2:g}L{w - 0.3:g},{h / 2:g}", "edge": "exit"}
    return {"fill": style, "d": box, "edge": f"{style}edge"}


def _overview_styles(scale: float) -> dict[str, dict[str, dict[str, Any]]]:
    """The map sheet's styles (mm on the map), but the start zones' outlines and the exit
    edge at the cover's size, and the fog's edge no heavier than FOG_LINE_MM on paper."""
    styles = copy.deepcopy(STYLES)
    for look in styles.values():
        look["exit"]["width"] = round(EXIT_LINE_MM / scale, 3)
        fog = look["fogedge"]
        fog["width"] = round(min(float(fog["width"]), FOG_LINE_MM / scale), 3)
        for side in (0, 1):
            line = look[f"zoneline{side}"]
            line["width"] = round(ZONE_LINE_MM / scale, 3)
            if side:
                line["dash"] = tuple(round(d / scale, 3) for d in ZONE_DASH_MM)
    return styles


def _on_paper(styles: Mapping[str, Mapping[str, Any]], scale: float) -> dict[str, Any]:
    """Styles with their lines in mm on paper, as the overview prints them."""
    out: dict[str, Any] = {}
    for name, style in styles.items():
        found = dict(style)
        if "width" in found:
            found["width"] = round(float(found["width"]) * scale, 3)
        if found.get("dash"):
            found["dash"] = tuple(round(float(d) * scale, 3) for d in found["dash"])
        out[name] = found
    return out


def _legend(entries: Sequence[Mapping[str, str]], used: set[str]) -> list[dict[str, str]]:
    """The legend's entries for what the overview shows, each with its sample."""
    known = STYLES["colour"]
    out = []
    for entry in entries:
        style = entry["style"]
        if style in ("", "sea") or (style in known and style not in used):
            continue  # the sea is the paper; terrain the map does not have
        out.append({"name": entry["name"], **_swatch(style)})
    return out


def _plan_legend(
    grid: Mapping[str, Any], sides: Sequence[Mapping[str, Any]]
) -> list[dict[str, str]]:
    """A table map's legend: its features by kind of terrain, each side's deployment zone."""
    kinds: dict[str, list[str]] = {}
    for feature in grid.get("features", []):
        kind = str(feature.get("type", ""))
        style = TERRAIN.get(kind.lower(), "other")
        if kind.lower() not in [k.lower() for k in kinds.setdefault(style, [])]:
            kinds[style].append(kind)
    entries = [
        {"style": style, "name": ", ".join(found).capitalize()} for style, found in kinds.items()
    ]
    for zone in grid.get("deployment", []):
        side = int(zone["side"])
        name = str(sides[side].get("name", "")) if side < len(sides) else ""
        entries.append({"style": f"zonekey{side}", "name": f"{name} deploys here".strip()})
    return entries


def overview(
    data: Scenario, paper: str, most: tuple[float, float] | None = None
) -> dict[str, Any] | None:
    """The whole map, shrunk to fit the cover (`most` mm wide and high at most, or
    OVERVIEW_W by OVERVIEW_H), without its words, with the printed pages' outlines and names
    on it and a legend (None for a ruleset played without a map)."""
    grid = data.get("map")
    if not isinstance(grid, dict) or not has_map(str(data.get("ruleset"))):
        return None
    # printed in a packet (or a side's handout) without its map: no tiles to outline
    printing = data.get("printing")
    printed = not printing or "map" in printing.get("kinds", ("map",))
    sides = list(data.get("sides", []))
    paper = get_paper(paper).name
    kind = str(grid.get("kind", ""))
    tiles: list[dict[str, Any]] = []
    if kind == "table":
        plan = table_plan(grid, sides, paper)
        width, height, elements = float(plan.width), float(plan.height), list(plan.elements)
        caption = (
            f"The table, {plan.size_text}; the map section has it at {plan.scale}."
            if printed
            else f"The table, {plan.size_text}: the map is not printed with these pages."
        )
        entries = _plan_legend(grid, sides)
    elif kind in ("grid", "hex"):
        units = contract(str(data["ruleset"])).units
        canvas = grid_canvas(grid, sides) if kind == "grid" else hex_canvas(grid, sides, units)
        width, height, elements = canvas.width, canvas.height, canvas.elements
        columns, rows, cut = tile(width, height, *window(paper))
        for piece in cut if printed else ():
            x0, y0 = max(piece.x, 0.0), max(piece.y, 0.0)
            x1, y1 = min(piece.x + piece.width, width), min(piece.y + piece.height, height)
            tiles.append({"x": x0, "y": y0, "w": x1 - x0, "h": y1 - y0, "label": piece.label})
        caption = (
            f"{canvas.description}. Printed on {columns * rows} "
            f"page{'s' if columns * rows > 1 else ''} (dashed), overlapping so they can be "
            "taped together."
            if printed
            else f"{canvas.description}. The map is not printed with these pages: set it "
            "out on the table from this overview."
        )
        entries = list(canvas.legend)
    else:
        return None
    most_w, most_h = most or (OVERVIEW_W, OVERVIEW_H[paper])
    scale = min(most_w / width, most_h / height)
    font = LABEL_MM / scale
    for t in tiles:
        t.update(
            {
                "tx": round(t["x"] + font * 0.5, 2),
                "ty": round(t["y"] + font * 1.2, 2),
                "bw": round(font * (0.68 * len(t["label"]) + 0.6), 2),
                "bh": round(font * 1.5, 2),
                "bx": round(t["x"] + font * 0.2, 2),
                "by": round(t["y"] + font * 0.2, 2),
                "x": round(t["x"], 2),
                "y": round(t["y"], 2),
                "w": round(t["w"], 2),
                "h": round(t["h"], 2),
            }
        )
    shapes = [e for e in elements if not isinstance(e, Text)]
    used = {e.style for e in shapes}
    styles = _overview_styles(scale)
    return {
        "w": round(width * scale, 2),
        "h": round(height * scale, 2),
        "view": f"0 0 {width:.2f} {height:.2f}",
        "elements": merge(shapes),
        "tiles": tiles,
        "font": round(font, 3),
        "line": round(0.3 / scale, 3),
        # the patterns half as big on the cover as on the map sheet, not shrunk with the
        # map (they would print as a grey smudge)
        "pattern_scale": round(0.5 / scale, 3),
        "caption": caption,
        "styles": styles,
        "patterns": PATTERNS,
        "legend": _legend(entries, used),
        "legend_styles": {look: _on_paper(found, scale) for look, found in styles.items()},
        "swatch": {"w": SWATCH_MM[0], "h": SWATCH_MM[1]},
    }


def _lines(texts: Sequence[str], font: str, size: float, width: float) -> int:
    return sum(len(wrap(text, font, size, width)) for text in texts)


# steps between baselines, mm, as the stylesheet sets the cover (measured on its PDFs)
STEP = {
    "title": 8.5,  # the title's last line to the first fact's
    "fact": 4.5,
    "box": 10.6,  # the last fact to a side's heading
    "unit": 3.5,
    "person": 3.8,
    "measure": 8.5,  # a side's last line to the strength's measure
    "heading": 6.1,  # the measure to the set-up's heading
    "uneven": 5.2,  # the measure to the line saying the sides are uneven
    "list": 5.7,  # a heading to its first item
    "item": 4.4,
    "next": 6.8,  # a list's last line to the next heading
}


def _map_heading(found: Mapping[str, Any], paper: str) -> float:
    """Estimate, in mm from the top of the page's frame, the baseline of the map's heading:
    the words above it wrapped with the fonts' own widths, set at the steps the
    stylesheet gives them (STEP)."""
    width = get_paper(paper).printable_mm[0]
    at = 2.6 + _lines([found["scenario"]["title"]], "serif", 26, width) * 26 * 1.1 * PT
    note = f" ({found['seed_note']})" if found["seed_note"] else ""
    facts = [f"Seed {found['scenario']['seed']}{note}"]
    facts += [value for _, value in found["facts"]]
    at += STEP["title"] - STEP["fact"] + _lines(facts, "sans", 9.5, width - 24) * STEP["fact"]
    card = (width + 10) / 2 - 5 - 6.5  # a side's box, less its padding
    boxes = []
    for side in found["sides"]:
        if found["people"]:
            texts = [
                line
                for p in side["people"]
                for line in (p["about"], f"Hit points {p['hit_points']} · {p['armour']} · "
                             f"strength {side['strength']}", p["weapons"], p["attributes"],
                             f"Expertise: {p['expertise']}")
            ]  # fmt: skip
            boxes.append(_lines(texts, "sans", 9, card) * STEP["person"] + 3.6)
        else:
            # two columns of names, each name on as many lines as it wraps to
            half = (len(side["units"]) + 1) // 2
            columns = (side["units"][:half], side["units"][half:])
            rows = max(_lines(names, "sans", 8.5, card / 2 - 2) for names in columns)
            boxes.append(3.6 + 3.9 + (rows - 1) * STEP["unit"])
    at += STEP["box"] + max(boxes, default=0.0) + STEP["measure"]
    at += (_lines([f"Strength: {found['measure']}."], "sans", 7.5, width) - 1) * 3.2
    if found["uneven"]:
        at += STEP["uneven"] + (_lines([found["uneven"]], "sans-bold", 9, width) - 1) * 4.1
    at += STEP["heading"]
    for key in ("setup", "victory", "special_rules"):
        if found[key] or key != "special_rules":
            items = _lines(found[key], "sans", 9.5, width - 5)
            at += STEP["list"] + (max(items, 1) - 1) * STEP["item"] + STEP["next"]
    return at


def _map_room(found: Mapping[str, Any], paper: str, view: Mapping[str, Any]) -> float:
    """Return the most height (mm) the overview may take for the cover to stay one page."""
    width, height = get_paper(paper).printable_mm
    legend = "   ".join(f"xxxx {k['name']}" for k in view["legend"])
    below = (
        5.8  # the heading's baseline to the drawing's top, and its margins
        + _lines([view["caption"]], "sans", 8, width) * 3.4
        + _lines([legend], "sans", 7.5, width) * 5.8
        + 5.8  # the house tables' line
        + 5  # to spare
    )
    printing = found.get("printing")
    if printing:
        # the box saying how to print the packet: its heading, a line a sentence, padding
        below += 9.5 + _lines(printing["lines"], "sans", 8, width - 7) * 3.55
    return height - _map_heading(found, paper) - below


def seed_note(scenario: Scenario) -> str:
    """Return what the briefing says its seed is good for: rolling the same scenario again,
    unless the scenario is no longer what its seed rolls (edited, or made from fleets), as
    the application layer found (`ROLLS_AGAIN`); nothing where it was not told."""
    again = scenario.get(ROLLS_AGAIN)
    if again is None:
        return ""
    if not again:
        return "changed since it was rolled: the seed alone does not make it again"
    return "the same seed rolls the same scenario"


def context(rules: Rules, data: Scenario | None, paper: str, ruleset: str | None) -> dict[str, Any]:
    if data is None:
        raise InputError("the briefing is about a scenario: give --seed or --from")
    played = str(data["ruleset"])
    gen = contract(played)
    people = gen.people
    sides = []
    for side in data["sides"]:
        units = units_of(side)
        sides.append(
            {
                "name": side.get("name", ""),
                "units": [u.get("name", "") for u in units],
                "people": [_duellist(rules, played, u) for u in units] if people else [],
                "count": len(units),
                "strength": strength_text(gen.strength(side)),
            }
        )
    found = {
        "scenario": data,
        "ruleset_title": rules.rulesets[played].title,
        "seed_note": seed_note(data),
        **conditions(rules, data),
        "sides": sides,
        "people": people,
        "unit_word": "Duellist" if people else "Ships",
        "measure": gen.strength_measure,
        # the sides could not be balanced: said under the sides, as on the command line
        "uneven": balance_warning(data),
        "house_tables": [str(t) for t in data.get("house_tables", [])],
        "house_line": house_tables_line(rules, data.get("house_tables", [])),
        # how to print the packet, on its cover (generator.pdf.packet.printing_notes)
        "printing": data.get("printing"),
    }
    view = overview(data, paper)
    if view is not None:
        # as big as the page has room for; if that is too small to read, on a page of its
        # own, as big as the page's width
        room = _map_room(found, paper, view)
        if OVERVIEW_MIN_H <= room < float(view["h"]):
            view = overview(data, paper, (OVERVIEW_W, room))
        elif room < OVERVIEW_MIN_H:
            width = get_paper(paper).printable_mm[0]
            view = overview(data, paper, (width, OVERVIEW_PAGE_H[get_paper(paper).name]))
    return {**found, "overview": view}
