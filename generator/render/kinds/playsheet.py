"""A two-sided playsheet, front and back, for a ruleset whose seed is itself one.

Every table of the ruleset that records a side (params.side) is printed on that side,
whole, from the data; the ``playsheet`` section of the ruleset's spec only says which
tables share a heading and which column they stand in. A table with a side that the layout
does not place, or placed on the wrong side, is an error, so a new table in the data cannot
go missing silently.

The battle clock track (where the spec names one): the seed prints the clock's moves but
not the length of the loop, which the house scenario table rolls; the track has as many
boxes as the longest loop, with the other ends marked.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

from generator.errors import InputError
from generator.loading import RuleItem, Rules, Table
from generator.lookup import cell_text
from generator.render.specs import param_check, section, table_key
from generator.render.words import game_name, house_tables_line, table_title
from generator.ruleset.model import SheetData
from generator.schema.context import NAME_LENGTH
from generator.schema.nodes import Items, Record, Text, opt, req
from generator.text import listed, signed

# a section: the table whose title heads it (None: go on under the previous heading), and
# the tables in it, printed in file order
Section = tuple[str | None, list[str]]
# where on the page a section stands
PLACE_WORDS = {
    "wide": "across the page",
    "left": "in the left column",
    "right": "in the right column",
}
PLACES = tuple(PLACE_WORDS)
# the sides, in page order, and what heads each page
SIDES = (("front", "Front"), ("back", "Back"))
CLOCK_PER_ROW = 12
# rows of write-in boxes under a modifiers table without groups (the boarding stages: the
# seed prints a ruled row under them), one for each side of the opposed roll
TALLY_ROWS = ("Boarder", "Target")


def _items(items: Iterable[RuleItem]) -> list[dict[str, Any]]:
    return [{"label": item.label, "text": item.text, "items": _items(item.items)} for item in items]


def _block(table: Table, heading: str) -> dict[str, Any]:
    """Return one table as the template prints it, titled unless the heading says it."""
    title = table_title(table)
    if heading and title.startswith(f"{heading}: "):
        title = title[len(heading) + 2 :]
    block: dict[str, Any] = {
        "id": table.id,
        "key": table.key,
        "kind": table.kind,
        "title": None if title == heading else title,
        "notes": list(table.notes),
    }
    if table.kind == "table":
        first = table.axes[0]
        if len(table.axes) == 1:
            block["columns"] = []
            block["rows"] = [
                {"label": label, "cells": [cell_text(cell)]}
                for label, cell in zip(first.labels, table.cells, strict=True)
            ]
        else:
            block["corner"] = first.title
            block["columns"] = list(table.axes[1].labels)
            block["rows"] = [
                {"label": label, "cells": [cell_text(c) for c in row]}
                for label, row in zip(first.labels, table.cells, strict=True)
            ]
    elif table.kind == "modifiers":
        groups: dict[str, list[dict[str, str]]] = {}
        for mod in table.modifiers:
            groups.setdefault(mod.group or "", []).append(
                {"label": mod.label, "value": signed(mod.value)}
            )
        block["groups"] = [{"name": name, "items": items} for name, items in groups.items()]
        block["tally"] = list(TALLY_ROWS) if list(groups) == [""] else []
    else:
        items = _items(table.items)
        block["ordered"] = table.ordered
        block["as_table"] = table.ordered and any(item.label for item in table.items)
        block["items"] = items
    return block


@cache
def section_schema(ruleset: str) -> Record:
    """Return the shape of `ruleset`'s playsheet section (the tables it names are the
    ruleset's)."""
    table = table_key(ruleset)
    sections = Items(
        Record(
            {
                "heading": opt(table, "the table whose title heads it (none: the previous)"),
                "tables": req(Items(table, minimum=1, noun=("table", "tables")), "in it"),
            },
            what="a mapping of heading and tables",
        ),
        noun=("section", "sections"),
    )
    side = Record(
        {place: opt(sections, f"the sections {words}") for place, words in PLACE_WORDS.items()},
        what=f"a mapping of {', '.join(PLACES)}",
    )
    clock = Record(
        {
            "table": req(table, "the battle clock's table"),
            "moves": req(Text(NAME_LENGTH), "its param: the spaces it moves"),
            "loops_table": req(table, "the table that rolls the loop's length"),
            "loops": req(Text(NAME_LENGTH), "its param: the lengths"),
        },
        (param_check(ruleset, "table", "moves"), param_check(ruleset, "loops_table", "loops")),
        what="a mapping of table, moves, loops_table and loops",
    )
    return Record(
        {
            **{name: opt(side, f"the {name} of the sheet") for name, _ in SIDES},
            "clock": opt(clock, "the battle clock track"),
        },
        what="a playsheet section",
    )


@cache
def layout_of(ruleset: str) -> dict[str, Any]:
    """Return the playsheet section of `ruleset`'s spec, checked: by side, by place, the
    sections; and the battle clock's tables and params (or None)."""
    raw, _ = section(ruleset, "playsheet")
    out: dict[str, Any] = {"clock": raw.get("clock")}
    for side, _ in SIDES:
        places = raw.get(side, {})
        out[side] = {
            where: [
                (entry.get("heading"), list(entry["tables"])) for entry in places.get(where, ())
            ]
            for where in PLACES
        }
    return out


def _clock(rules: Rules, ruleset: str, spec: Any) -> dict[str, Any] | None:
    if not spec:
        return None
    tables = rules.rulesets[ruleset].tables
    clock, scenario = tables[spec["table"]], tables[spec["loops_table"]]
    loops = sorted(int(n) for n in scenario.params.get(spec["loops"], ()))
    if not loops:
        return None
    return {
        "moves": listed([str(n) for n in clock.params[spec["moves"]]], "or"),
        "spaces": loops[-1],
        "ends": listed([str(n) for n in loops], "or"),
        "loops": loops,
        "per_row": CLOCK_PER_ROW,
        "house": scenario.id,
    }


def context(
    rules: Rules, data: SheetData | None, paper: str, ruleset: str | None
) -> dict[str, Any]:
    assert ruleset is not None  # render_sheet settles the ruleset before asking
    chosen = rules.rulesets[ruleset]
    plan = layout_of(ruleset)
    placed: dict[str, str] = {}
    pages = []
    for side, label in SIDES:
        page: dict[str, Any] = {"side": side, "label": label}
        printed: set[str] = set()
        for where, sections in plan[side].items():
            page[where] = []
            for heading_key, keys in sections:
                tables = [chosen.tables[key] for key in keys]
                heading = (
                    table_title(chosen.tables[heading_key]).split(": ")[0] if heading_key else ""
                )
                blocks = []
                for table in tables:
                    if table.params.get("side") != side:
                        raise InputError(f"{table.id}: the playsheet puts it on the {side}")
                    placed[table.key] = side
                    block = _block(table, heading)
                    # a note the same side already prints (the game end, in two tables)
                    block["notes"] = [n for n in block["notes"] if n not in printed]
                    printed |= {i["text"] for i in block.get("items", [])}
                    printed |= set(block["notes"])
                    blocks.append(block)
                page[where].append({"heading": heading, "blocks": blocks})
        pages.append(page)
    sided = {t.key for t in chosen.tables.values() if "side" in t.params}
    if sided != set(placed):
        missing = ", ".join(sorted(sided - set(placed)))
        raise InputError(f"the playsheet does not place {ruleset} tables: {missing}")
    clock = _clock(rules, ruleset, plan["clock"])
    return {
        "game": chosen.title,
        "game_name": game_name(chosen),
        "pages": pages,
        "clock": clock,
        "house_tables": [clock["house"]] if clock else [],
        "house_line": house_tables_line(rules, [clock["house"]] if clock else []),
    }
