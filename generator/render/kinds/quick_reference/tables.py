"""The quick reference's tables as printed: a rolled table as a grid of headings, rows and
odds (on the bare dice, per value of a modifier where the spec asks, or the chance of an
outcome along a roll), whether it goes across the page, and the rules and modifiers lists
with the odds of the roll they change. Every number comes from the rules and the dice
module, so a house-rules file prints by itself.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from generator.dice import DiceError, distribution, plain_dice
from generator.loading import Axis, Modifier, RuleItem, Rules, Table
from generator.loading.cells import parse_cell
from generator.lookup import cell_text
from generator.render.kinds.quick_reference.spec import COLUMN_CHARS, Layout, OddsBy
from generator.text import signed

TEXT_KEYS = ("result", "printed", "text")
# a table cell's padding and rule, in characters
CELL_PADDING = 1.2
THRESHOLD = re.compile(r"(\d+) or (better|more|less)")
POOL_SUCCESS = re.compile(r"each ((\d+)(?: or \d+)*) (?:is a success|hits)")
NET_MODIFIERS = range(-3, 4)


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
