"""The scenario briefing: the cover page of a packet."""

from __future__ import annotations

from typing import Any

from generator.errors import InputError
from generator.generate.base import get_generator
from generator.loading import Rules
from generator.render.sheets import PAPERS

# the cover's map overview: at most this size (mm; Letter is 18 mm shorter than A4), its
# page labels at 7.5 pt
OVERVIEW_W, LABEL_MM = 120.0, 7.5 * 25.4 / 72
OVERVIEW_H = {"a4": 80.0, "letter": 62.0}


def _describe(value: Any) -> str:
    if isinstance(value, dict):
        parts = [
            str(v) for k, v in value.items() if k not in ("roll",) and v not in (None, "", "—")
        ]
        return ", ".join(parts)
    return "" if value is None else str(value)


def overview(data: dict[str, Any], paper: str) -> dict[str, Any] | None:
    """The whole map, shrunk to fit the cover, without its words, with the printed pages'
    outlines and names on it (None for a ruleset played without a map)."""
    from generator.render.kinds import map as maps

    grid = data.get("map")
    if not isinstance(grid, dict) or not maps.has_map(str(data.get("ruleset"))):
        return None
    sides = list(data.get("sides", []))
    paper = PAPERS[paper]["name"]
    kind = str(grid.get("kind", ""))
    tiles: list[dict[str, Any]] = []
    if kind == "table":
        plan = maps.table_plan(grid, sides, paper)
        width, height, elements = float(plan["width"]), float(plan["height"]), plan["elements"]
        caption = f"The table, {plan['size_text']}; the map section has it at {plan['scale']}."
    elif kind in ("grid", "hex"):
        units = get_generator(str(data["ruleset"])).units
        canvas = (
            maps.grid_canvas(grid, sides) if kind == "grid" else maps.hex_canvas(grid, sides, units)
        )
        width, height, elements = canvas.width, canvas.height, canvas.elements
        columns, rows, cut = maps.tile(width, height, *maps.window(paper))
        for piece in cut:
            x0, y0 = max(piece.x, 0.0), max(piece.y, 0.0)
            x1, y1 = min(piece.x + piece.width, width), min(piece.y + piece.height, height)
            tiles.append({"x": x0, "y": y0, "w": x1 - x0, "h": y1 - y0, "label": piece.label})
        caption = (
            f"{canvas.description}. Printed on {columns * rows} "
            f"page{'s' if columns * rows > 1 else ''} (dashed), overlapping so they can be "
            "taped together."
        )
    else:
        return None
    scale = min(OVERVIEW_W / width, OVERVIEW_H[paper] / height)
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
    return {
        "w": round(width * scale, 2),
        "h": round(height * scale, 2),
        "view": f"0 0 {width:.2f} {height:.2f}",
        "elements": maps.merge([e for e in elements if e["t"] != "text"]),
        "tiles": tiles,
        "font": round(font, 3),
        "line": round(0.3 / scale, 3),
        # the patterns half as big on the cover as on the map sheet, not shrunk with the
        # map (they would print as a grey smudge)
        "pattern_scale": round(0.5 / scale, 3),
        "caption": caption,
        "styles": maps.STYLES,
        "patterns": maps.PATTERNS,
    }


def context(
    rules: Rules, data: dict[str, Any] | None, paper: str, ruleset: str | None
) -> dict[str, Any]:
    if data is None:
        raise InputError("the briefing is about a scenario: give --seed or --from")
    gen = get_generator(str(data["ruleset"]))
    sides = []
    for side in data["sides"]:
        units = side.get(gen.units, [])
        sides.append(
            {
                "name": side.get("name", ""),
                "units": [u.get("name", "") for u in units],
                "count": len(units),
                "strength": round(gen.strength(side), 1),
            }
        )
    house = [f"{t} ({rules.table(t).title})" for t in data.get("house_tables", [])]
    return {
        "scenario": data,
        "ruleset_title": rules.rulesets[str(data["ruleset"])].title,
        "wind": _describe(data.get("wind")),
        "weather": _describe(data.get("weather")),
        "extra": {
            key: _describe(data[key])
            for key in ("venue", "range", "battle_clock", "year")
            if data.get(key) not in (None, "", {})
        },
        "sides": sides,
        "unit_word": "Duellist" if gen.units == "characters" else "Ships",
        "measure": gen.strength_measure,
        "house_tables": house,
        "overview": overview(data, paper),
    }
