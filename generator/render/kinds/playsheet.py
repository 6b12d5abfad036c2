"""The convoy playsheet, front and back (the seed is itself a two-sided playsheet).

Every table of the convoy ruleset that records a side (params.side) is printed on that
side, whole, from the data; the layout below only says which tables share a heading and
which column they stand in. A table with a side that the layout does not place, or placed
on the wrong side, is an error, so a new table in the data cannot go missing silently.

The battle clock track: the seed prints "Battle clock = 3, 4, 5" but not the length of the
loop; the house scenario table (convoy.scenario, clock_loop_spaces) rolls 36, 42 or 48
spaces, so the track has as many boxes as the longest loop, with the other ends marked.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from generator.errors import InputError
from generator.loading import RuleItem, Rules, Table
from generator.lookup import cell_text

# side -> where on the page -> sections; a section is (the table whose title heads it, or
# None to go on under the previous heading, and the tables in it, printed in file order)
Section = tuple[str | None, list[str]]
LAYOUT: dict[str, dict[str, list[Section]]] = {
    "front": {
        "wide": [],
        "left": [
            ("death-rolls", ["death-rolls"]),
            ("recovery", ["recovery"]),
            ("captured-ships", ["captured-ships"]),
            ("struck-ships", ["struck-ships"]),
            ("fog", ["fog", "fog-roll"]),
            ("shallows", ["shallows", "shallows-dice"]),
        ],
        "right": [("boarding-grapple", ["boarding-grapple", "boarding-fight", "boarding-result"])],
    },
    "back": {
        "wide": [("sailing-movement", ["sailing-movement"])],
        "left": [
            (None, ["sailing-notes"]),
            ("gunnery", ["gunnery-range", "gunnery-modifiers", "gunnery"]),
        ],
        "right": [
            ("wind-change", ["wind-change"]),
            ("battle-clock", ["battle-clock"]),
            ("turn-sequence", ["turn-sequence"]),
            ("zero-level", ["zero-level"]),
        ],
    },
}
# the sides, in page order, and what heads each page
SIDES = (("front", "Front"), ("back", "Back"))
CLOCK_PER_ROW = 12
# rows of write-in boxes under a modifiers table without groups (the boarding stages: the
# seed prints a ruled row under them), one for each side of the opposed roll
TALLY_ROWS = ("Boarder", "Target")


def _signed(value: Any) -> str:
    return f"{value:+d}" if isinstance(value, int) and not isinstance(value, bool) else str(value)


def _items(items: Iterable[RuleItem]) -> list[dict[str, Any]]:
    return [{"label": item.label, "text": item.text, "items": _items(item.items)} for item in items]


def _block(table: Table, heading: str) -> dict[str, Any]:
    """Return one table as the template prints it, titled unless the heading says it."""
    title = table.title
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
                {"label": mod.label, "value": _signed(mod.value)}
            )
        block["groups"] = [{"name": name, "items": items} for name, items in groups.items()]
        block["tally"] = list(TALLY_ROWS) if list(groups) == [""] else []
    else:
        items = _items(table.items)
        block["ordered"] = table.ordered
        block["as_table"] = table.ordered and any(item.label for item in table.items)
        block["items"] = items
    return block


def _clock(rules: Rules) -> dict[str, Any] | None:
    clock = rules.table("convoy.battle-clock")
    scenario = rules.table("convoy.scenario")
    loops = sorted(int(n) for n in scenario.params.get("clock_loop_spaces", ()))
    if not loops:
        return None
    return {
        "moves": ", ".join(str(n) for n in clock.params["clock_moves"]),
        "spaces": loops[-1],
        "ends": loops,
        "per_row": CLOCK_PER_ROW,
        "house": f"{scenario.title.replace(' (house table)', '').lower()} ({scenario.id})",
    }


def context(
    rules: Rules, data: dict[str, Any] | None, paper: str, ruleset: str | None
) -> dict[str, Any]:
    convoy = rules.rulesets["convoy"]
    placed: dict[str, str] = {}
    pages = []
    for side, label in SIDES:
        page: dict[str, Any] = {"side": side, "label": label}
        printed: set[str] = set()
        for where, sections in LAYOUT[side].items():
            page[where] = []
            for heading_key, keys in sections:
                tables = [convoy.tables[key] for key in keys]
                heading = convoy.tables[heading_key].title.split(": ")[0] if heading_key else ""
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
    sided = {t.key for t in convoy.tables.values() if "side" in t.params}
    if sided != set(placed):
        missing = ", ".join(sorted(sided - set(placed)))
        raise InputError(f"the playsheet does not place convoy tables: {missing}")
    clock = _clock(rules)
    return {
        "game": convoy.title,
        "pages": pages,
        "clock": clock,
        "house_tables": [clock["house"]] if clock else [],
    }
