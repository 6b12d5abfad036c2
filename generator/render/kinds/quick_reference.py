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
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from typing import Any

from generator.dice import DiceError, distribution, plain_dice
from generator.loading import Axis, Modifier, RuleItem, Rules, Table
from generator.loading.cells import parse_cell
from generator.lookup import cell_text
from generator.render.pagenumbers import CSS_PAGE_LABEL
from generator.rulesets import SpecError, sheet_section
from generator.text import signed

TEXT_KEYS = ("result", "printed", "text")
# a table cell's padding and rule, in characters
CELL_PADDING = 1.2
# the body sizes a spec may ask for, in pt (nothing on paper under 7 pt), and the size of
# a spec that does not say
MIN_FONT_PT = 7.0
MAX_FONT_PT = 9.0
DEFAULT_FONT_PT = 8.0
# the body sizes tried when the spec's leaves the last page mostly empty, this far apart
FONT_STEP_PT = 0.25
# the share of its height the last page fills at least, where a body size can make it so:
# a sheet whose last page holds a few lines is a page wasted (or one set too small)
GOOD_FILL = 0.5
# a column of the three-column layout (63 mm on A4, the narrower paper) holds about this
# many characters of 7 pt text
COLUMN_CHARS = 49
# a rules text up to this many characters is kept whole in one column (a longer one may go
# on in the next column rather than leave a gap the height of a column)
WHOLE_RULES_CHARS = 300
HOUSE_SUFFIX = re.compile(r"\s*\(house table\)\s*$", re.IGNORECASE)
SECTION_NUMBER = re.compile(r"^(\d+(?:\.\d+)+)\s*[–-]\s")
THRESHOLD = re.compile(r"(\d+) or (better|more|less)")
POOL_SUCCESS = re.compile(r"each ((\d+)(?: or \d+)*) (?:is a success|hits)")
NET_MODIFIERS = range(-3, 4)


@dataclass(frozen=True)
class Section:
    """A heading of the sheet and the keys of the tables under it, in printed order.

    A ``gm`` section holds tables players do not consult in play: tables that only set up a
    game (the scenario generator's house tables, character generation) or that restate a
    printed table as the dice read it. It is printed on the Notes for the GM instead.
    """

    title: str
    tables: tuple[str, ...]
    gm: bool = False


@dataclass(frozen=True)
class OddsBy:
    """Odds of a modified roll table for each value of one modifier (the spec's ``odds_by``).

    Instead of the chance of each row on the bare dice, the table prints a column per value
    v: the chance of each row on the dice plus the modifier taken v times, no other modifier.

    Attributes:
        modifier: ``(modifiers table key, modifier id)`` in the same ruleset; its value is a
            whole number (per point of something).
        heading: the word over each column, before the value ("Cannon" prints "Cannon 3").
        values: the values, when the spec lists them.
        field_name: else the values run from the lowest to the highest `field_name` of the
            cells of table `source`...
        source: ...that table's key...
        plus: ...the highest raised by the largest ``effect`` on it in each of these
            tables (a table listed twice counts twice: a second roll on it).
    """

    modifier: tuple[str, str]
    heading: str
    values: tuple[int, ...] = ()
    field_name: str = ""
    source: str = ""
    plus: tuple[str, ...] = ()


@dataclass(frozen=True)
class Layout:
    """A ruleset's quick reference: the ``quick-reference`` section of its spec.

    Attributes:
        sections: every table of the ruleset exactly once (the tests check it), the turn
            and the rules of play in play order, as on the seeds' own reference sheets;
            the ``gm`` ones go on the Notes for the GM.
        columns: by table key, the columns of a table whose cells are mappings: field
            names, "field=heading" to print another heading; "result" (or "printed",
            "text") is the cell's own text. A one-axis table not listed prints that text
            or, if its cells have none, every plain field; a two-axis table listed prints
            the fields in each cell, joined by "/".
        odds_columns: by table key, for a two-axis table whose columns are a roll: extra
            columns (heading, field), each the chance on that roll that a row's cell (as
            its cell format parses it) has the field set.
        odds_by: by table key, for a one-axis table on a modified roll: its odds printed
            per value of one modifier instead of on the bare dice (`OddsBy`).
        font_size: the body size in pt (7 to 9) the sheet is set at, unless its last page
            would then be mostly empty: `body_size` sets it smaller, down to 7 pt, where
            that saves the page, else larger, up to 9 pt, to fill it.
    """

    sections: tuple[Section, ...]
    columns: Mapping[str, tuple[str, ...]]
    odds_columns: Mapping[str, tuple[tuple[str, str], ...]]
    odds_by: Mapping[str, OddsBy]
    font_size: float = DEFAULT_FONT_PT

    @property
    def column_chars(self) -> float:
        """The characters of body text a column of the three-column layout holds."""
        return COLUMN_CHARS * MIN_FONT_PT / self.font_size


def _names(raw: Any, where: str) -> tuple[str, ...]:
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
        raise SpecError(f"{where}: expected a list of names")
    return tuple(raw)


@cache
def layout_of(ruleset: str) -> Layout:
    """Return the quick-reference section of `ruleset`'s spec, checked."""
    raw, spec = sheet_section(ruleset, "quick-reference")
    keys = {"sections", "columns", "odds_columns", "odds_by", "font_size"}
    if set(raw) - keys or not raw.get("sections"):
        raise SpecError(
            f"{spec.where('quick-reference')}: a quick reference has sections, and may have "
            "columns, odds_columns, odds_by and font_size"
        )
    sections = []
    for i, section in enumerate(raw["sections"]):
        where = spec.where("quick-reference", "sections", i)
        if (
            not isinstance(section, dict)
            or not {"title", "tables"} <= set(section) <= {"title", "tables", "gm"}
            or not isinstance(section.get("gm", False), bool)
        ):
            raise SpecError(f"{where}: a section has a title and tables, and may say gm: true")
        sections.append(
            Section(
                str(section["title"]),
                _names(section["tables"], where),
                gm=bool(section.get("gm", False)),
            )
        )
    columns = {
        key: _names(names, spec.where("quick-reference", "columns", key))
        for key, names in (raw.get("columns") or {}).items()
    }
    odds: dict[str, tuple[tuple[str, str], ...]] = {}
    for key, entries in (raw.get("odds_columns") or {}).items():
        where = spec.where("quick-reference", "odds_columns", key)
        if not isinstance(entries, list) or not all(
            isinstance(e, dict) and set(e) == {"head", "field"} for e in entries
        ):
            raise SpecError(f"{where}: expected a list of {{head, field}}")
        odds[key] = tuple((str(e["head"]), str(e["field"])) for e in entries)
    odds_by = {
        key: _odds_by(entry, spec.where("quick-reference", "odds_by", key))
        for key, entry in (raw.get("odds_by") or {}).items()
    }
    size = raw.get("font_size", DEFAULT_FONT_PT)
    if (
        not isinstance(size, int | float)
        or isinstance(size, bool)
        or not MIN_FONT_PT <= size <= MAX_FONT_PT
    ):
        raise SpecError(
            f"{spec.where('quick-reference', 'font_size')}: font_size: expected a size in pt "
            f"from {MIN_FONT_PT:g} to {MAX_FONT_PT:g}"
        )
    return Layout(tuple(sections), columns, odds, odds_by, float(size))


def _odds_by(raw: Any, where: str) -> OddsBy:
    """Return one entry of a spec's ``odds_by``, checked."""
    if not isinstance(raw, dict) or set(raw) != {"modifier", "heading", "values"}:
        raise SpecError(f"{where}: expected modifier, heading and values")
    table, dot, modifier = str(raw["modifier"]).partition(".")
    if not dot or not table or not modifier:
        raise SpecError(f"{where}: modifier: expected 'modifiers-table.modifier-id'")
    values = raw["values"]
    heading = str(raw["heading"])
    if isinstance(values, list):
        if not values or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            raise SpecError(f"{where}: values: expected a list of whole numbers")
        return OddsBy((table, modifier), heading, values=tuple(values))
    if not isinstance(values, dict) or not {"table", "field"} <= set(values) <= {
        "table",
        "field",
        "plus",
    }:
        raise SpecError(
            f"{where}: values: expected a list of whole numbers, or table, field and "
            "optionally plus"
        )
    plus = _names(values.get("plus") or [], f"{where}: values: plus")
    return OddsBy(
        (table, modifier),
        heading,
        field_name=str(values["field"]),
        source=str(values["table"]),
        plus=plus,
    )


def dice_at_start(roll: str) -> tuple[int, int] | None:
    """Return the count and sides of the plain dice a roll's words start with ("2d6, 5 or
    better succeeds", "Basic 4D6 ..."), read by the dice parser, or None."""
    words = roll.replace(",", " ").replace(";", " ").split()
    if words and words[0].casefold() == "basic":
        words = words[1:]
    try:
        dice = plain_dice(words[0]) if words else None
    except DiceError:
        return None
    return (dice.count, dice.sides) if dice else None


def percent(chance: Fraction) -> str:
    """Write a chance as a short percentage, halves rounded up: 50%, 13%, 2.8%, 0.5%; 0 as —."""
    if chance == 0:
        return "—"
    value = chance * 100
    if value.denominator == 1:
        return f"{value.numerator}%"
    if value < 10:
        tenths = math.floor(value * 10 + Fraction(1, 2))
        return f"{tenths // 10}.{tenths % 10}%"
    return f"{math.floor(value + Fraction(1, 2))}%"


def context(
    rules: Rules, data: dict[str, Any] | None, paper: str, ruleset: str | None
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


# ---------------------------------------------------------------- the body size


def body_size(sheet: Callable[[float], Mapping[str, Any]], paper: str, size: float) -> float:
    """Return the body size in pt a quick reference is set at on `paper`: `size` (the
    spec's), or the size `fitted_size` finds by laying it out, when at `size` its last page
    would be mostly empty. `sheet` gives the template's context at a body size.

    Each sheet is laid out at most a few times, once per process and paper, and the size
    found is kept in the disk cache beside the PDFs (its key is the HTML at `size` and this
    module's source), so a quick reference costs a layout, as before, once it is known.
    """
    from generator.render import cache as disk
    from generator.render.draw import source_fingerprint
    from generator.render.pdf import layout
    from generator.render.sheets import PAPERS, get_kind
    from generator.render.templating import render_html

    template = get_kind("quick-reference").template
    assert template is not None  # a laid-out kind

    def html(at: float) -> str:
        # the size decides the layout; colours and metadata do not
        return render_html(
            template,
            doc_title="",
            doc_subject="",
            bookmarks=(),
            paper=PAPERS[paper],
            mono=False,
            fillable=False,
            **sheet(at),
        )

    key = disk.sheet_key(html(size) + source_fingerprint(__name__), fillable=False)
    if key in _BODY_SIZES:
        return _BODY_SIZES[key]
    stored = disk.load(key, ".size")
    try:
        found = float(stored.decode("ascii")) if stored is not None else None
    except ValueError:
        found = None  # an entry this code did not write: lay it out again
    if found is None or not MIN_FONT_PT <= found <= MAX_FONT_PT:

        def measure(at: float) -> tuple[int, float]:
            document = layout(html(at))
            return len(document.pages), last_page_fill(document)

        found = fitted_size(measure, size)
        disk.store(key, f"{found:g}".encode("ascii"), ".size")
    _BODY_SIZES[key] = found
    return found


_BODY_SIZES: dict[str, float] = {}


def fitted_size(measure: Callable[[float], tuple[int, float]], size: float) -> float:
    """Return the body size a sheet is set at, given what it takes at a size.

    Args:
        measure: lays the sheet out at a body size (pt) and returns its number of pages
            and the share of its height the last page fills.
        size: the size the sheet would be set at (the spec's).

    Returns:
        `size`, if its last page is filled to `GOOD_FILL` or it has one page; else the
        largest size from 7 pt (in steps of `FONT_STEP_PT`) at which it takes a page
        fewer; else, where even 7 pt cannot save the page, the largest size up to 9 pt at
        which it takes no more pages than at `size` (its last page then fills up).
    """
    measured: dict[float, tuple[int, float]] = {}

    def at(candidate: float) -> tuple[int, float]:
        if candidate not in measured:
            measured[candidate] = measure(candidate)
        return measured[candidate]

    pages, fill = at(size)
    if pages == 1 or fill >= GOOD_FILL:
        return size
    steps = round((MAX_FONT_PT - MIN_FONT_PT) / FONT_STEP_PT)
    sizes = [MIN_FONT_PT + i * FONT_STEP_PT for i in range(steps + 1)]
    smaller = [s for s in sizes if s < size]
    if smaller and at(smaller[0])[0] < pages:
        return _largest(smaller, lambda s: at(s)[0] < pages)
    larger = [size, *(s for s in sizes if s > size)]
    return _largest(larger, lambda s: at(s)[0] <= pages)


def _largest(sizes: Sequence[float], fits: Callable[[float], bool]) -> float:
    """Return the largest of `sizes` (ascending) that `fits`, the first being known to fit:
    a binary search, since a sheet set larger never takes fewer pages."""
    low, high = 0, len(sizes) - 1
    while low < high:
        middle = (low + high + 1) // 2
        if fits(sizes[middle]):
            low = middle
        else:
            high = middle - 1
    return sizes[low]


def last_page_fill(document: Any) -> float:
    """Return the share of its content height the last page of a WeasyPrint document fills:
    down to the foot of its lowest line of text, running footers aside."""
    # WeasyPrint has no public view of a page's boxes: its page box is what it laid out
    page = document.pages[-1]._page_box
    bottom = page.content_box_y()
    for child in page.children:
        if type(child).__name__ != "MarginBox":
            for box in _descendants(child):
                if type(box).__name__ == "TextBox":
                    bottom = max(bottom, box.position_y + box.height)
    return float((bottom - page.content_box_y()) / page.height)


def _descendants(box: Any) -> Any:
    yield box
    for child in getattr(box, "children", None) or ():
        yield from _descendants(child)


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


TABLE_ID = re.compile(r"\b([a-z]+(?:-[a-z]+)?)\.([a-z0-9]+(?:-[a-z0-9]+)*)\b")
# what a block holds that is not printed, or not words
_UNPRINTED = {"id", "note", "kind", "anchor"}


def table_titles(rules: Rules, text: str) -> str:
    """Return `text` with every table id in it ("ruleset.table-key") written as the table's title
    in quotes (“Blocking”): a reader has the titles, not the ids."""

    def title(match: re.Match[str]) -> str:
        found = rules.rulesets.get(match[1])
        if found is None or match[2] not in found.tables:
            return match[0]
        return f"“{short_title(found.tables[match[2]])}”"

    return TABLE_ID.sub(title, text)


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


def short_title(table: Table) -> str:
    """Return the title without a trailing "(house table)": the sheet tags those instead."""
    return HOUSE_SUFFIX.sub("", table.title) or table.title


def block(table: Table, plan: Layout | None = None, rules: Rules | None = None) -> dict[str, Any]:
    """Return everything the template prints for one table (laid out as `plan`, by default
    its own ruleset's quick reference; `rules` gives the other tables its odds may read)."""
    plan = plan or layout_of(table.id.split(".", 1)[0])
    number = SECTION_NUMBER.match(table.source.heading or "")
    out: dict[str, Any] = {
        "id": table.id,
        "title": short_title(table),
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


def row_label(label: str) -> str:
    """A row's label as printed: a row named "None" (no armour) as the word "none", which
    cannot be taken for a program's empty value."""
    return "none" if label == "None" else label


def plain(value: Any) -> str:
    """Write a field or param value for print: lists joined, booleans as yes or no."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {plain(v)}" for k, v in value.items())
    if isinstance(value, tuple | list):
        return ", ".join(plain(v) for v in value)
    return str(value)


# ---------------------------------------------------------------- rules and modifiers


def rule_item(item: RuleItem) -> dict[str, Any]:
    return {
        "label": item.label or "",
        "text": item.text,
        "items": [rule_item(sub) for sub in item.items],
    }


def modifier_groups(modifiers: Sequence[Modifier]) -> list[dict[str, Any]]:
    """Return the modifiers in printed order, each run of one group under its sub-heading.

    A note every line of a group shares is printed once, beside the sub-heading.
    """
    groups: list[dict[str, Any]] = []
    for mod in modifiers:
        if not groups or groups[-1]["group"] != (mod.group or ""):
            groups.append({"group": mod.group or "", "note": "", "items": []})
        per = mod.per or ""
        if _fold(per) in _fold(mod.label):
            per = ""  # the label already says "for each ..."
        groups[-1]["items"].append(
            {"label": mod.label, "value": signed(mod.value), "per": per, "note": mod.note or ""}
        )
    for group in groups:
        notes = {item["note"] for item in group["items"]}
        if group["group"] and len(group["items"]) > 1 and len(notes) == 1 and "" not in notes:
            group["note"] = notes.pop()
            for item in group["items"]:
                item["note"] = ""
    return groups


def _fold(text: str) -> str:
    return re.sub(r"[\W_]+", " ", text.casefold()).strip()


def modifier_odds(table: Table) -> dict[str, Any] | None:
    """Return the odds of the roll a modifiers list changes, where the roll names its dice.

    A roll against a target ("2d6, 5 or better succeeds") gets its chance for each net
    modifier; a pool of dice that count successes ("Basic 4D6 ...; each 5 or 6 is a
    success") gets the chance of each number of successes of the basic pool.
    """
    roll = table.roll or ""
    dice = dice_at_start(roll)
    if dice is None:
        return None
    count, sides = dice
    target = THRESHOLD.search(roll)
    pool = POOL_SUCCESS.search(roll)
    if target is not None:
        dist = distribution(f"{count}d{sides}")
        number, below = int(target[1]), target[2] == "less"
        cells = []
        for net in NET_MODIFIERS:
            chance = sum(
                (p for v, p in dist.items() if (v + net <= number if below else v + net >= number)),
                Fraction(0),
            )
            cells.append({"key": signed(net), "chance": percent(chance) if chance else "0%"})
        return {"head": "Net modifier", "label": f"{target[0]} on {count}d{sides}", "cells": cells}
    if pool is not None and count > 1:
        dist = distribution(f"{count}d{sides}>={pool[2]}")
        cells = [
            {"key": str(n), "chance": percent(dist.get(n, Fraction(0)))} for n in range(count + 1)
        ]
        return {"head": "Successes", "label": f"on {count}d{sides}, each {pool[1]}", "cells": cells}
    return None


# ---------------------------------------------------------------- tables


def axis_title(axis: Axis) -> str:
    return axis.title or axis.name.replace("_", " ")


def value_chances(axis: Axis) -> list[Fraction]:
    """Return the chance of each value of a rolled axis on the unmodified dice."""
    assert axis.dice is not None
    dist = distribution(axis.dice)
    return [
        sum((p for total, p in dist.items() if value.contains(total)), Fraction(0))
        for value in axis.values
    ]


def _spec(table: Table, plan: Layout) -> list[tuple[str, str]] | None:
    spec = plan.columns.get(table.key)
    if spec is None:
        return None
    columns = []
    for entry in spec:
        key, _, heading = entry.partition("=")
        columns.append((key, heading or key.replace("_", " ")))
    return columns


def columns_of(table: Table, plan: Layout) -> list[tuple[str, str]]:
    """Return (field, heading) of each printed column of a one-axis table.

    The field "" is the cell's own text (printed under "Result" if the axis is a roll).
    A house-rules table of another shape than the layout's columns expect prints as if
    unlisted.
    """
    mappings = all(isinstance(cell, Mapping) for cell in table.cells)
    spec = _spec(table, plan)
    if spec is not None and mappings:
        return spec
    if not mappings or any(key in table.cells[0] for key in TEXT_KEYS):
        return [("", "Result" if table.axes[0].dice else "")]
    keys: list[str] = []
    for cell in table.cells:
        keys += [k for k, v in cell.items() if k not in keys and not isinstance(v, Mapping)]
    return [(key, key.replace("_", " ")) for key in keys]


def field_text(cell: Any, key: str) -> str:
    """Return one column of a cell: its own text for "" or a text key, else the field."""
    if not isinstance(cell, Mapping) or key == "":
        return cell_text(cell)
    if key in cell:
        return plain(cell[key])
    return cell_text(cell) if key in TEXT_KEYS else "—"


def cell_chance(table: Table, cell: Any) -> str:
    """Return the chance a target cell succeeds: a d6 target, or a number to roll under."""
    if isinstance(cell, Mapping):
        return ""
    if table.cell_format == "d6-target":
        faces = parse_cell("d6-target", cell)["faces"]
        return percent(Fraction(len(faces), 6)) if faces else ""
    die = table.params.get("die")
    if table.params.get("roll_under") and isinstance(die, str) and isinstance(cell, int):
        dist = distribution(die)
        return percent(sum((p for v, p in dist.items() if v <= cell), Fraction(0)))
    return ""


def target_caption(table: Table) -> str:
    if table.cell_format == "d6-target":
        return "%: chance of rolling the target on 1d6 (before modifiers)."
    return f"%: chance of rolling the number or less on {table.params.get('die')}."


def odds_caption(axis: Axis, what: str) -> str | None:
    """Say which dice the odds are for, unless the axis heading already does."""
    assert axis.dice is not None
    if axis.modified:
        return f"{what}: chance on {axis.dice} before modifiers."
    if axis.dice.casefold() in axis_title(axis).casefold():
        return None
    return f"{what}: chance on {axis.dice}."


def table_grid(table: Table, plan: Layout, rules: Rules | None = None) -> dict[str, Any]:
    """Lay out a table of kind ``table`` as a grid: headings, rows of cells, odds."""
    if len(table.axes) == 1:
        return one_axis_grid(table, plan, rules)
    return two_axis_grid(table, plan)


def one_axis_grid(table: Table, plan: Layout, rules: Rules | None = None) -> dict[str, Any]:
    axis = table.axes[0]
    columns = columns_of(table, plan)
    wanted = plan.odds_by.get(table.key)
    if wanted is not None and rules is not None:
        step = modifier_step(table, rules, wanted)
        by_value = odds_by_value(table, rules, wanted)
        if step is not None and by_value:
            return _grid_by_value(table, columns, wanted, step, by_value)
    chances = value_chances(axis) if axis.dice else None
    rows = []
    targets = False
    for i, (value, cell) in enumerate(zip(axis.values, table.cells, strict=True)):
        cells = []
        for key, _ in columns:
            chance = cell_chance(table, cell) if key == "" else ""
            targets = targets or bool(chance)
            cells.append({"text": field_text(cell, key), "chance": chance})
        extra = [percent(chances[i])] if chances is not None else []
        rows.append({"label": row_label(value.label), "cells": cells, "extra": extra})
    captions: list[str | None] = []
    if chances is not None:
        captions.append(odds_caption(axis, "Odds"))
    if targets:
        captions.append(target_caption(table))
    return aligned(
        {
            "corner": axis_title(axis),
            "col_title": "",
            "heads": [heading for _, heading in columns],
            "extra_heads": ["Odds"] if chances is not None else [],
            "odds_row": None,
            "rows": rows,
            "captions": [c for c in captions if c],
        }
    )


def odds_by_values(table: Table, rules: Rules, wanted: OddsBy) -> tuple[int, ...] | None:
    """Return the values an ``odds_by`` entry prints for `table`, read from `rules`.

    None where the rules do not give them (a house table of another shape).
    """
    if wanted.values:
        return wanted.values
    tables = rules.rulesets[table.ruleset].tables
    source = tables.get(wanted.source)
    if source is None:
        return None
    found = [
        cell[wanted.field_name]
        for cell in _flat_cells(source)
        if isinstance(cell.get(wanted.field_name), int)
        and not isinstance(cell[wanted.field_name], bool)
    ]
    if not found:
        return None
    top = max(found)
    for key in wanted.plus:
        bonus = tables.get(key)
        if bonus is None:
            return None
        effects = [
            cell["effect"][wanted.field_name]
            for cell in _flat_cells(bonus)
            if isinstance(cell.get("effect"), Mapping)
            and isinstance(cell["effect"].get(wanted.field_name), int)
        ]
        top += max([0, *effects])
    return tuple(range(min(found), top + 1))


def _flat_cells(table: Table) -> list[Mapping[str, Any]]:
    """Return the cells of a table of any shape that are mappings, row by row."""
    cells = [c for row in table.cells for c in (row if isinstance(row, tuple) else (row,))]
    return [c for c in cells if isinstance(c, Mapping)]


def odds_by_value(
    table: Table, rules: Rules, wanted: OddsBy
) -> list[tuple[int, list[Fraction]]] | None:
    """Return, per value v, the chance of each row of a modified roll table on its dice plus
    the modifier taken v times (no other modifier).

    None where the table or the rules do not fit the entry (a house table of another shape):
    the table then prints the odds on its bare dice.
    """
    if len(table.axes) != 1 or table.axes[0].dice is None or not table.axes[0].numeric:
        return None
    axis = table.axes[0]
    step = modifier_step(table, rules, wanted)
    values = odds_by_values(table, rules, wanted)
    if step is None or values is None:
        return None
    assert axis.dice is not None
    dist = distribution(axis.dice)
    return [
        (
            value,
            [
                sum(
                    (p for total, p in dist.items() if row.contains(total + step * value)),
                    Fraction(0),
                )
                for row in axis.values
            ],
        )
        for value in values
    ]


def modifier_step(table: Table, rules: Rules, wanted: OddsBy) -> int | None:
    """Return the value of an ``odds_by`` modifier, or None if the rules have no such number."""
    mods = rules.rulesets[table.ruleset].tables.get(wanted.modifier[0])
    if mods is None or mods.kind != "modifiers":
        return None
    try:
        step = mods.modifier(wanted.modifier[1]).value
    except KeyError:
        return None
    return step if isinstance(step, int) else None


def _grid_by_value(
    table: Table,
    columns: list[tuple[str, str]],
    wanted: OddsBy,
    step: int,
    by_value: list[tuple[int, list[Fraction]]],
) -> dict[str, Any]:
    """Lay out a one-axis roll table with a column of odds for each value of a modifier."""
    axis = table.axes[0]
    rows = []
    for i, (value, cell) in enumerate(zip(axis.values, table.cells, strict=True)):
        cells = [{"text": field_text(cell, key), "chance": ""} for key, _ in columns]
        extra = [percent(chances[i]) for _, chances in by_value]
        rows.append({"label": row_label(value.label), "cells": cells, "extra": extra})
    name = wanted.heading
    low, high = by_value[0][0], by_value[-1][0]
    added = f"+ {name}" if step == 1 else f"{signed(step)} × {name}"
    caption = (
        f"Odds by {name} {low}-{high}: the chance of each row on {axis.dice} {added}, "
        "with no other modifier."
    )
    if step == 1:
        caption += f" With other modifiers, read the column of {name} plus their net total."
    return aligned(
        {
            "corner": axis_title(axis),
            "col_title": "",
            "heads": [heading for _, heading in columns],
            "extra_heads": [f"{name} {value}" for value, _ in by_value],
            "odds_row": None,
            "rows": rows,
            "captions": [caption],
        }
    )


def two_axis_grid(table: Table, plan: Layout) -> dict[str, Any]:
    row_axis, col_axis = table.axes[0], table.axes[1]
    spec = _spec(table, plan)
    row_chances = value_chances(row_axis) if row_axis.dice else None
    col_chances = value_chances(col_axis) if col_axis.dice else None
    outcomes = plan.odds_columns.get(table.key, ()) if col_chances else ()
    rows = []
    targets = False
    for i, (value, line) in enumerate(zip(row_axis.values, table.cells, strict=True)):
        cells = []
        for cell in line:
            chance = cell_chance(table, cell)
            targets = targets or bool(chance)
            if spec and isinstance(cell, Mapping):
                text = "/".join(field_text(cell, key) for key, _ in spec)
            else:
                text = cell_text(cell)
            cells.append({"text": text, "chance": chance})
        extra = [percent(row_chances[i])] if row_chances is not None else []
        if outcomes and col_chances is not None and table.cell_format:
            parsed = [parse_cell(table.cell_format, cell) for cell in line]
            for _, name in outcomes:
                hits = (p for p, f in zip(col_chances, parsed, strict=True) if f.get(name))
                extra.append(percent(sum(hits, Fraction(0))))
        rows.append({"label": row_label(value.label), "cells": cells, "extra": extra})
    extra_heads = ["Odds"] if row_chances is not None else []
    captions: list[str | None] = []
    if spec:
        captions.append(f"Each cell: {'/'.join(heading for _, heading in spec)}.")
    if row_chances is not None:
        captions.append(odds_caption(row_axis, "Odds"))
    if col_chances is not None:
        captions.append(odds_caption(col_axis, "Odds row"))
    if outcomes:
        extra_heads += [name for name, _ in outcomes]
        # the headings, as words in a sentence: "Any damage" is "any damage"
        names = [name[:1].lower() + name[1:] for name, _ in outcomes]
        counted = " and of ".join([", of ".join(names[:-1]), names[-1]] if names[1:] else names)
        captions.append(f"Right: the chance on {col_axis.dice} of {counted}, row by row.")
    if targets:
        captions.append(target_caption(table))
    # a table printed with captions on its head and foot rows (a staircase whose halves
    # are read two ways) carries them as params: they print on the table, as in the seed
    header, footer = table.params.get("header_caption"), table.params.get("footer_caption")
    return aligned(
        {
            "corner": axis_title(row_axis),
            "col_title": str(header) if header else axis_title(col_axis),
            "heads": list(col_axis.labels),
            "extra_heads": extra_heads,
            "odds_row": [percent(c) for c in col_chances] if col_chances is not None else None,
            "rows": rows,
            "footer": str(footer) if footer else "",
            "captions": [c for c in captions if c],
        }
    )


# a cell that is a number: a count, a modifier, a range of rolls, a chance, a bearing, or
# the dash of none ("3", "+2", "-1", "1-5", "14+", ">21", "<0", "17%", "45°", "—")
NUMBER = re.compile(r"[<>]?[+\-−–]?\d+(?:\.\d+)?[%°]?(?:\s*[-–]\s*\d+(?:\.\d+)?[%°]?|\+)?|[—–-]")


def is_number(text: str) -> bool:
    """Return whether a cell's text is a number (as `NUMBER` says) rather than words."""
    return NUMBER.fullmatch(text.strip()) is not None


def heading(text: str) -> str:
    """Return a heading as printed: starting with a capital ("effect" is "Effect", "from°"
    is "From°"); one that starts with a figure or a sign stays as it is ("1D10")."""
    return text[:1].upper() + text[1:] if text[:1].islower() else text


def aligned(grid: dict[str, Any]) -> dict[str, Any]:
    """Return a grid with its headings capitalised (`heading`) and its number columns
    marked: ``numeric`` (the row labels) and ``aligns`` (a flag per column of cells) say
    which columns hold only numbers, printed centred under centred headings."""
    rows = grid["rows"]
    labels = [row["label"] for row in rows]
    columns = len(grid["heads"])
    cells = [[row["cells"][i]["text"] for row in rows] for i in range(columns)]

    def numbers(texts: Sequence[str]) -> bool:
        return (
            bool(texts)
            and all(is_number(t) for t in texts)
            and any(any(ch.isdigit() for ch in t) for t in texts)
        )

    return {
        **grid,
        "corner": heading(grid["corner"]),
        "col_title": heading(grid["col_title"]),
        "heads": [heading(h) for h in grid["heads"]],
        "extra_heads": [heading(h) for h in grid["extra_heads"]],
        "numeric": numbers(labels),
        "aligns": [numbers(texts) for texts in cells],
    }


def grid_is_wide(grid: Mapping[str, Any], column_chars: float = COLUMN_CHARS) -> bool:
    """Return whether a grid is better printed across the page than in one column.

    It must go across when its longest words do not fit side by side in a column (of
    `column_chars` characters), and should when it would be more than three times as tall
    in a column as across the page (across, it takes the height of all three columns).
    """
    table = [
        [row["label"]] + [f"{c['text']} {c['chance']}" for c in row["cells"]] + row["extra"]
        for row in grid["rows"]
    ]
    if grid["odds_row"]:
        table.append(["odds", *grid["odds_row"], *["" for _ in grid["extra_heads"]]])
    heads = [grid["corner"], *grid["heads"], *grid["extra_heads"]]
    # headings break between words, never inside one: their longest word counts in full
    least = sum(
        max([_longest_word(head)] + [_longest_word(row[i]) for row in table]) + CELL_PADDING
        for i, head in enumerate(heads)
    )
    if least > column_chars:
        return True
    natural = [
        max(len(text) for text in [head] + [row[i] for row in table]) + CELL_PADDING
        for i, head in enumerate(heads)
    ]
    return _lines(table, natural, column_chars) > 3.3 * _lines(table, natural, column_chars * 3)


def _longest_word(text: str) -> int:
    return max((len(word) for word in re.split(r"\s+|(?<=-)", text)), default=0)


def _lines(table: list[list[str]], natural: Sequence[float], width: float) -> int:
    """Estimate the lines a table takes at `width` characters, shared as browsers share."""
    total = sum(natural)
    shares = [max(width * n / total, 3.0) if total > width else float(n) for n in natural]
    return sum(
        max(
            -(-len(text) // max(int(share) - 1, 1)) for text, share in zip(row, shares, strict=True)
        )
        for row in table
    )
