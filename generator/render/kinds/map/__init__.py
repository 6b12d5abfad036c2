"""The scenario's map, drawn with ReportLab at play scale across as many pages as it needs.

A grid or hex map (the scenario's ``map.kind``) is drawn as shapes on a canvas
(`geometry`), cut into overlapping page windows (`tiles`), laid out page by page with their
seams, labels and legends (`pages`) and painted (`paint`); a table map (measured in cm, for
miniatures) prints as a scaled plan on one page. The briefing draws the same shapes,
shrunk, as its map overview.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from generator.errors import InputError
from generator.loading import Rules
from generator.render.draw import Box, Drawing, text_width_mm
from generator.render.kinds.map.geometry import (
    coordinate,
    digits_for,
    grid_canvas,
    hex_canvas,
    table_plan,
)
from generator.render.kinds.map.pages import lay_out_pages, legend_layout, wind_rose
from generator.render.kinds.map.paint import draw_header, draw_legend, draw_plan, draw_tile
from generator.render.kinds.map.tiles import (
    FOOTER_MM,
    HEADER_MM,
    LEGEND_GAP_MM,
    header_text_width,
    window,
)
from generator.render.paper import get_paper
from generator.render.specs import section
from generator.render.words import house_tables_line
from generator.ruleset import contract
from generator.ruleset.model import Scenario
from generator.rulesets import ruleset_ids, serving
from generator.schema.nodes import Choice, Items, Record, opt

TITLE_SIZES = (13.0, 12.0, 11.0, 10.0, 9.0)


def has_map(ruleset: str) -> bool:
    """Return whether `ruleset` is played on a map (its spec has a ``map`` section)."""
    return ruleset in serving("map")


@cache
def _house_ids(ruleset: str) -> Callable[[Rules], tuple[str, ...]]:
    def ids(rules: Rules) -> tuple[str, ...]:
        tables = rules.rulesets[ruleset].tables.values() if ruleset in rules.rulesets else ()
        return tuple(table.id for table in tables if table.house)

    return ids


@cache
def section_schema(ruleset: str) -> Record:
    """Return the shape of `ruleset`'s map section: the house tables it names are the
    ruleset's."""
    house = Choice(_house_ids(ruleset), what=f"{ruleset} house table", docs="a house table's id")
    return Record(
        {
            "house_tables": opt(
                Items(house, noun=("table", "tables")),
                "the house tables the map is drawn from: those a scenario rolled on are named",
            )
        },
        what="a map section",
    )


@cache
def map_house_tables(ruleset: str) -> tuple[str, ...]:
    """Return the house tables the map of `ruleset` is drawn from (its layout, the wind),
    as its spec's ``map`` section lists them: those a scenario rolled on are named on the
    map itself, where its players read it."""
    return tuple(section(ruleset, "map")[0].get("house_tables", ()))


def context(rules: Rules, data: Scenario | None, paper: str, ruleset: str | None) -> dict[str, Any]:
    if data is None:
        raise InputError("the map is a scenario's: give --seed or --from")
    found = str(data.get("ruleset", ruleset))
    grid = data.get("map")
    if grid is None or not has_map(found):
        without = [r for r in ruleset_ids() if not has_map(r)]
        raise InputError(
            f"a {found} scenario has no map ({', '.join(without)} are played without one): "
            f"the map sheet serves {', '.join(serving('map'))}"
        )
    if ruleset is not None and found != ruleset:
        raise InputError(f"this is a {found} scenario, not {ruleset}")
    paper = get_paper(paper).name
    sides = list(data.get("sides", []))
    if len(sides) > 2:
        raise InputError(f"the map sheet marks two sides, this scenario has {len(sides)}")
    kind = str(grid.get("kind", ""))
    drawn_from = map_house_tables(found)
    house = [str(t) for t in data.get("house_tables", []) if t in drawn_from]
    wind = dict(data.get("wind") or {})
    title = str(data.get("title", ""))
    room = header_text_width(paper)
    title_size = next(
        (s for s in TITLE_SIZES if text_width_mm(f"Map — {title}", "serif", s) <= room),
        TITLE_SIZES[-1],
    )
    side_names = [str(s.get("name", "")) for s in sides]
    width = round(get_paper(paper).printable_mm[0] - 0.2, 1)
    common: dict[str, Any] = {
        "scenario_title": title,
        "title_size": title_size,
        "ruleset_name": found.capitalize(),
        "ruleset_title": rules.rulesets[found].title if found in rules.rulesets else found,
        "map_kind": kind,
        "house_tables": house,
        "house_note": house_tables_line(rules, house),
        "page_height": round(get_paper(paper).printable_mm[1] - 1.0, 1),
        "page_width": width,
        "sides": side_names,
    }
    if kind == "table":
        if "wind_from" in grid and "from_bearing" not in wind:
            wind["from_bearing"] = grid["wind_from"]
        legend = [
            {"style": "sea", "name": "Sea"},
            {"style": "land", "name": "Land: coast, island"},
            {"style": "shallows", "name": "Shoal"},
        ]
        for i, name in enumerate(side_names[:2]):
            legend.append({"style": f"zonekey{i}", "name": f"{name} deployment zone"})
        return common | {
            "plan": table_plan(grid, sides, paper),
            "columns": 1,
            "rows": 1,
            "pages": [],
            "legend": legend_layout(legend, width),
            "wind": wind_rose(wind),
            "features": [dict(f) for f in grid.get("features", [])],
            "deployment": [
                dict(z)
                | {"name": side_names[int(z["side"])] if int(z["side"]) < len(sides) else ""}
                for z in grid.get("deployment", [])
            ],
        }
    units = contract(found).units
    if kind == "grid":
        canvas = grid_canvas(grid, sides)
    elif kind == "hex":
        canvas = hex_canvas(grid, sides, units)
    else:
        raise InputError(f"map kind '{kind}': the map sheet prints grid, hex and table maps")
    rose = wind_rose(wind)
    columns, rows, pages = lay_out_pages(canvas, paper, common["ruleset_name"])
    digits = digits_for(int(grid["width"]), int(grid["height"]))
    entries = [
        *canvas.legend,
        *([{"style": "markkey", "name": "overlap mark"}] if columns * rows > 1 else []),
        {"style": "", "name": f"Cells: {coordinate(4, 6, digits)} is column 5, row 7"},
    ]
    return common | {
        "plan": None,
        "columns": columns,
        "rows": rows,
        "pages": pages,
        "legend": legend_layout(entries, width),
        # the first page's footer names the house tables the map was drawn from
        "legend_first": legend_layout(entries, width, common["house_note"]),
        "description": canvas.description,
        "wind": rose,
        "window_w": window(paper)[0],
        "window_h": window(paper)[1],
    }


def _origin(boxes: Mapping[str, Box]) -> tuple[float, float]:
    """The frame's top-left, mm from the paper's: where the sheet's ink begins."""
    art = boxes.get("art")
    if art is not None:
        return art[0], art[1]
    return 11.0, 10.0


def draw(
    drawing: Drawing,
    context: dict[str, Any],
    *,
    boxes: Mapping[str, Box],
    fillable: bool,
    field_prefix: str,
) -> None:
    """Draw the map: a page for each tile, or the table's plan on one page."""
    left, top = _origin(boxes)
    if context["plan"] is not None:
        drawing.new_page(boxes)
        draw_plan(drawing, context, left, top)
        return
    for index, page in enumerate(context["pages"]):
        drawing.new_page(boxes)
        draw_header(drawing, context, page, left, top)
        draw_tile(drawing, page, left, top + HEADER_MM)
        legend = context["legend_first"] if index == 0 else context["legend"]
        window_bottom = top + context["page_height"] - FOOTER_MM
        draw_legend(drawing, legend, left, window_bottom + LEGEND_GAP_MM)
