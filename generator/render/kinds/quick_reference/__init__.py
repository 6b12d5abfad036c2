"""The quick reference of one ruleset: every table and rule of play, grouped to be found fast,
on one sheet of paper (two pages).

It holds what a player needs at the table, in the rules' words and numbers: how a table was
read, its source and its parameters are for the GM (`generator.render.kinds.gm_notes`), and
so are the tables players do not consult in play (the spec's ``gm`` sections). Everything
printed comes from the rules, so a house-rules file shows on the sheet by itself. The
ruleset's spec decides the order and grouping, the body size and which structured fields of
a table print as columns (`Layout`); this module decides whether a table goes across the
page, and adds the odds of every rolled table from the dice module: on the bare dice, or,
where the spec asks (`OddsBy`), for the roll players make, one column per value of a
modifier. It also sets the body size on each paper so that the sheet takes the pages it
needs and no page is left mostly empty (`body_size`).

Here the sheet is put together; beside it, `spec` reads the spec's section, `tables` lays
each table out and `size` finds the body size.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from generator.loading import RuleItem, Rules, Table
from generator.render.kinds.quick_reference.size import body_size
from generator.render.kinds.quick_reference.spec import Layout, layout_of
from generator.render.kinds.quick_reference.tables import (
    grid_is_wide,
    modifier_groups,
    modifier_odds,
    rule_item,
    table_grid,
)
from generator.render.pagenumbers import CSS_PAGE_LABEL
from generator.render.words import table_title, table_titles
from generator.ruleset.model import SheetData

# a rules text up to this many characters is kept whole in one column (a longer one may go
# on in the next column rather than leave a gap the height of a column)
WHOLE_RULES_CHARS = 300
SECTION_NUMBER = re.compile(r"^(\d+(?:\.\d+)+)\s*[–-]\s")


def context(
    rules: Rules, data: SheetData | None, paper: str, ruleset: str | None
) -> dict[str, Any]:
    """Return the sheet's sections of play and its runs of blocks, one block per table."""
    assert ruleset is not None  # render_sheet settles the ruleset before asking
    chosen = rules.rulesets[ruleset]

    def sheet(size: float) -> dict[str, Any]:
        # which tables go across the page depends on the size: built afresh for each
        sections = drop_repeated_notes(section_blocks(rules, ruleset, gm=False, font_size=size))
        return {
            "ruleset": {"id": chosen.id, "title": chosen.title},
            "sections": sections,
            "runs": runs(sections),
            "house": any(b["house"] for s in sections for b in s["blocks"]),
            "page_label_css": CSS_PAGE_LABEL,
            "font_size": f"{size:g}",
        }

    return sheet(body_size(sheet, paper, layout_of(ruleset).font_size))


def drop_repeated_notes(sections: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Print a footnote of the source once, under the first table of the sheet that has it
    (two tables may share the source's footnotes, as a broadside table and its ammunition
    table do), and not at all where a table of the sheet prints its words: a key the source
    prints under one table and again as a table of its own ("Combat Results: H= Hull
    Hits ...") is printed once, as the table."""
    seen: set[str] = set()
    for section in sections:
        for blk in section["blocks"]:
            if blk["kind"] == "rules":
                seen.add(f"{blk['title']}:")
                seen.update(_item_texts(blk["items"]))
    for section in sections:
        for blk in section["blocks"]:
            blk["notes"] = [n for n in blk["notes"] if n not in seen]
            seen.update(blk["notes"])
    return sections


def _item_texts(items: Sequence[Mapping[str, Any]]) -> list[str]:
    """Return the printed words of rule items and their sub-items, one string an item."""
    texts: list[str] = []
    for item in items:
        label = f"{item['label']}: " if item["label"] else ""
        texts.append(f"{label}{item['text']}")
        texts += _item_texts(item["items"])
    return texts


def section_blocks(
    rules: Rules, ruleset: str, *, gm: bool, font_size: float | None = None
) -> list[dict[str, Any]]:
    """Return the sections of `ruleset`'s layout printed on the Notes for the GM (`gm`) or on
    the quick reference, each with its heading, an anchor and a block per table; the tables
    are laid out for a body of `font_size` (by default the spec's)."""
    chosen = rules.rulesets[ruleset]
    plan = layout_of(ruleset)
    if font_size is not None:
        plan = replace(plan, font_size=font_size)
    return [
        {
            "title": section.title,
            "anchor": f"s{number}",
            "blocks": [
                retitled(block(chosen.tables[key], plan, rules), rules) for key in section.tables
            ],
        }
        for number, section in enumerate(plan.sections, start=1)
        if section.gm == gm
    ]


# what a block holds that is not printed, or not words
_UNPRINTED = {"id", "note", "kind", "anchor"}


def retitled(value: Any, rules: Rules) -> Any:
    """Return a block (or any part of one) with the table ids in its printed words written
    as titles (`table_titles`)."""
    if isinstance(value, str):
        return table_titles(rules, value)
    if isinstance(value, Mapping):
        return {k: v if k in _UNPRINTED else retitled(v, rules) for k, v in value.items()}
    if isinstance(value, list):
        return [retitled(v, rules) for v in value]
    return value


def runs(sections: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Return the sheet's headings and blocks as runs, each in the columns or across the page.

    A heading goes across with a first table that does.
    """
    items: list[tuple[bool, dict[str, Any]]] = []
    for section in sections:
        blocks = section["blocks"]
        heading = {"heading": section["title"], "anchor": section["anchor"]}
        items.append((bool(blocks) and bool(blocks[0]["wide"]), heading))
        items += [(bool(b["wide"]), {"block": b}) for b in blocks]
    out: list[dict[str, Any]] = []
    for wide, item in items:
        if not out or out[-1]["wide"] != wide:
            out.append({"wide": wide, "items": []})
        out[-1]["items"].append(item)
    return out


def block(table: Table, plan: Layout | None = None, rules: Rules | None = None) -> dict[str, Any]:
    """Return everything the template prints for one table (laid out as `plan`, by default
    its own ruleset's quick reference; `rules` gives the other tables its odds may read)."""
    plan = plan or layout_of(table.id.split(".", 1)[0])
    number = SECTION_NUMBER.match(table.source.heading or "")
    out: dict[str, Any] = {
        "id": table.id,
        "title": table_title(table),
        "number": number[1] if number else "",
        "house": table.house,
        # how the table was read: not printed here, but on the Notes for the GM
        "note": table.note or "",
        # the source's own footnotes: rule words, printed under the table
        "notes": list(table.notes),
        "kind": table.kind,
        "captions": [],
        "wide": False,
        "whole": True,
    }
    if table.kind == "rules":
        out["ordered"] = table.ordered
        out["items"] = [rule_item(item) for item in table.items]
        out["whole"] = _rules_chars(table.items) <= WHOLE_RULES_CHARS
    elif table.kind == "modifiers":
        out["roll"] = table.roll or ""
        out["groups"] = modifier_groups(table.modifiers)
        out["odds"] = modifier_odds(table)
    else:
        out.update(table_grid(table, plan, rules))
        out["wide"] = grid_is_wide(out, plan.column_chars)
    return out


def _rules_chars(items: Sequence[RuleItem]) -> int:
    return sum(len(i.label or "") + len(i.text) + _rules_chars(i.items) for i in items)
