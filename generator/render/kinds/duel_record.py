"""The record sheet of the seed's duels, from the tables of the ruleset it serves
(``record-sheet``, ``sheet-rules``, ``actions``).

The seed prints the sheet as blocks of turn rows (``rows_per_block``), each with the rules
box and the table of actions below it, ``blocks_printed`` times: front and back. Each block
is a page; the turns are numbered on from one block to the next (1-21, 22-42).

Above the first block stands the duellist, from the character tables (``attributes``,
``expertise``, ``weapons``): filled from a generated character, or, on a blank record, the
same header as write-ins, so a spare record carries all a filled one does. The hit points
are boxes to cross off, marked where the wounds resolver finds unconsciousness and death.
"""

from __future__ import annotations

from typing import Any

from generator.loading import Rules, thaw
from generator.lookup import cell_text
from generator.render.kinds.character import hit_point_boxes, most_hit_points, person
from generator.render.paper import get_paper
from generator.render.words import house_tables_line
from generator.ruleset.model import Person

# the turn rows' height (mm): what the page leaves under the duellist's header
ROW_MM = {"a4": 6.8, "letter": 6.0}
# weapon rows on a blank record: the right hand's and the left's
BLANK_WEAPON_ROWS = 2
# what each page of a block is, in the seed's order
SIDES = ("front", "back")


def context(rules: Rules, data: Person | None, paper: str, ruleset: str | None) -> dict[str, Any]:
    assert ruleset is not None  # render_sheet settles the ruleset before asking
    tables = rules.rulesets[ruleset].tables
    sheet = tables["record-sheet"]
    columns = [thaw(c) for c in sheet.cells]
    attributes = tables["attributes"]
    actions = tables["actions"]
    # the house tables the header reads (the sheet counts them; the Notes for the GM list
    # them): a blank one prints the attributes and weapon groups, a filled one the weapons too
    house = [tables[key].id for key in ("weapons", "attributes", "expertise")]
    who = person(tables, data) if data is not None else None
    if who is not None and who["armour"].casefold() in ("", "none"):
        who["armour"] = "none"  # the armour table's row "None", as a word
    rows = int(sheet.params["rows_per_block"])
    blocks = [
        {
            "side": SIDES[index % len(SIDES)],
            "turns": list(range(index * rows + 1, (index + 1) * rows + 1)),
        }
        for index in range(int(sheet.params["blocks_printed"]))
    ]
    return {
        "person": who,
        "columns": columns,
        "blocks": blocks,
        "guess_words": next(c["choices"] for c in columns if "choices" in c),
        "sheet_rules": tables["sheet-rules"].items,
        "action_lengths": actions.axes[1].labels,
        "actions": [
            {"type": label, "cells": [cell_text(c) for c in row]}
            for label, row in zip(actions.axes[0].labels, actions.cells, strict=True)
        ],
        "house_tables": house if data else house[1:],
        "house_line": house_tables_line(rules, house if data else house[1:]),
        "row_height": f"{ROW_MM[get_paper(paper).name]}mm",
        "attributes": [
            {"key": label.casefold(), "label": label, "abbreviation": cell["abbreviation"]}
            for label, cell in zip(attributes.axes[0].labels, attributes.cells, strict=True)
        ],
        "groups": list(tables["expertise"].params["groups"]),
        "weapon_rows": who["weapons"] if who else [None] * BLANK_WEAPON_ROWS,
        "hp_boxes": hit_point_boxes(
            tables, who["hit_points"] if who else most_hit_points(tables), marked=who is not None
        ),
    }
