"""Check that a house table keeps the shape of the built-in table it replaces."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator.errors import shown
from generator.loading.dice_spots import dice_problem, dice_spot
from generator.loading.fields import is_int
from generator.loading.model import Table
from generator.loading.problems import Problems, TableContext
from generator.yamlfile import KeyPath, YamlDoc

#: cell keys that hold the printed text (what `generator.lookup.cell_text` prints), not a
#: value a program parses: a die roll printed there ("3d6") is only printed
PRINTED_FIELDS = frozenset({"result", "printed", "text"})


def _param_type(value: Any) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, list | tuple):
        return "a list"
    return "text"


def _check_house_params(ctx: TableContext, builtin: Table, house: Table) -> None:
    """Every built-in param is kept, of its type, with dice where the built-in has dice."""
    for name, value in builtin.params.items():
        if name not in house.params:
            ctx.add(
                ("params",),
                f"the house table drops the param '{name}' (the built-in table has: "
                f"{', '.join(builtin.params)}); keep every param, the code reads them by name",
            )
            continue
        mine = house.params[name]
        wanted, found = _param_type(value), _param_type(mine)
        if wanted != found and not (wanted == "text" and found == "a number"):
            ctx.add(
                ("params", name),
                f"param '{name}' must be {wanted}, as in the built-in table "
                f"({shown(_as_written(value))}), not {found}",
            )
            continue
        # a list of dice (d6, d8, d10) is checked item by item
        listed = isinstance(value, tuple)
        spot = dice_spot(list(value) if listed else [value])
        if spot is None:
            continue
        places = [((name, i), item) for i, item in enumerate(mine)] if listed else [((name,), mine)]
        for at, item in places:
            problem = dice_problem(item, spot, f"param '{name}'")
            if problem:
                ctx.add(("params", *at), problem)


def _as_written(value: Any) -> Any:
    """Return a frozen param as written in YAML (a tuple as a list), for a message."""
    return list(value) if isinstance(value, tuple) else value


def _check_house_modifiers(ctx: TableContext, builtin: Table, house: Table) -> None:
    """Every built-in modifier id is kept, with its choices and its kind of value."""
    where = {mod.id: i for i, mod in enumerate(house.modifiers)}
    ids = ", ".join(mod.id for mod in builtin.modifiers)
    for mod in builtin.modifiers:
        index = where.get(mod.id)
        if index is None:
            ctx.add(
                ("items",),
                f"the house table drops the modifier '{mod.id}' that the resolvers read "
                f"(the built-in table has: {ids})",
            )
            continue
        mine = house.modifiers[index]
        dropped = [choice for choice in mod.by if choice not in mine.by]
        if dropped:
            ctx.add(
                ("items", index, "by"),
                f"modifier '{mod.id}' drops the choice '{dropped[0]}' of its 'by' that the "
                f"resolvers pass (the built-in one has: {', '.join(mod.by)})",
            )
        if is_int(mod.value) and not is_int(mine.value):
            ctx.add(
                ("items", index, "value"),
                f"modifier '{mod.id}' needs a whole-number 'value' like the built-in one "
                f"({mod.value}) that the resolvers add, not '{shown(mine.value)}'",
            )


def _check_house_axes(ctx: TableContext, builtin: Table, house: Table) -> bool:
    """The axes keep their names and order, numbers or labels, and their dice; False
    when the names differ (then the cells cannot be compared)."""
    names = [axis.name for axis in builtin.axes]
    mine = [axis.name for axis in house.axes]
    if names != mine:
        ctx.add(
            ("axes",),
            f"the house table's axes are {', '.join(mine)} but the built-in table's are "
            f"{', '.join(names)}: keep the axis names, in this order (the resolvers look "
            "axes up by name)",
        )
        return False
    for i, (axis, own) in enumerate(zip(builtin.axes, house.axes, strict=True)):
        if axis.numeric and not own.numeric:
            ctx.add(
                ("axes", i, "values"),
                f"axis '{axis.name}' must hold numbers and ranges, as in the built-in table "
                f"({', '.join(axis.labels)}): the code looks it up by number",
            )
        elif own.numeric and not axis.numeric:
            ctx.add(
                ("axes", i, "values"),
                f"axis '{axis.name}' must hold labels, as in the built-in table "
                f"({', '.join(axis.labels)}): the code looks it up by name",
            )
        if axis.dice is not None and own.dice is None:
            ctx.add(
                ("axes", i),
                f"axis '{axis.name}' is rolled on {axis.dice} in the built-in table: "
                "say which dice with 'dice:' here too",
            )
    return True


def _leaves(cells: Any, depth: int, at: tuple[int, ...] = ()) -> list[tuple[tuple[int, ...], Any]]:
    """Return every cell of a table with its indices, one per axis."""
    if depth == 0:
        return [(at, cells)]
    found: list[tuple[tuple[int, ...], Any]] = []
    for i, entry in enumerate(cells):
        found.extend(_leaves(entry, depth - 1, (*at, i)))
    return found


def _quoted(names: list[str]) -> str:
    return ", ".join(f"'{name}'" for name in names)


def _check_house_cells(ctx: TableContext, builtin: Table, house: Table) -> None:
    """The cells keep the fields and dice the code reads (see `check_house_table`)."""
    if builtin.cell_format is not None and house.cell_format != builtin.cell_format:
        ctx.add(
            ("cell_format",),
            f"the built-in table reads its cells as 'cell_format: {builtin.cell_format}'; "
            f"the house table must too (the code reads the fields it gives), "
            f"not {house.cell_format or 'no cell_format'}",
        )
    depth = len(builtin.axes)
    cells = _leaves(builtin.cells, depth)
    mappings = [cell for _, cell in cells if isinstance(cell, Mapping)]
    texts = [cell for _, cell in cells if not isinstance(cell, Mapping)]
    common = [key for key in mappings[0] if all(key in c for c in mappings)] if mappings else []
    fields = list(dict.fromkeys(key for cell in mappings for key in cell))
    spots = {
        key: spot
        for key in fields
        if key not in PRINTED_FIELDS
        and (spot := dice_spot([c[key] for c in mappings if key in c])) is not None
    }
    text_spot = dice_spot(texts)
    mine = _leaves(house.cells, depth)
    for at, cell in mine:
        rel: KeyPath = ("cells", *at)
        if not isinstance(cell, Mapping):
            if not texts:
                ctx.add(
                    rel,
                    "the cell must be a mapping with "
                    f"{_quoted(common) or 'fields'}, as every built-in cell is "
                    "(the code reads its fields)",
                )
                continue
            problem = dice_problem(cell, text_spot, "the cell") if text_spot else None
            if problem:
                ctx.add(rel, problem)
            continue
        if not mappings:
            ctx.add(
                rel,
                "the cell must be text or a number, as every built-in cell is "
                "(the code reads the cell itself)",
            )
            continue
        missing = [key for key in common if key not in cell]
        if missing:
            ctx.add(
                rel,
                f"the cell has no {_quoted(missing)}, which every cell of the built-in table "
                "has and the code reads",
            )
        for key, spot in spots.items():
            if key in cell:
                problem = dice_problem(cell[key], spot, f"'{key}'")
                if problem:
                    ctx.add((*rel, key), problem)
    if mappings and not any(axis.numeric for axis in builtin.axes):
        _check_named_cells(ctx, builtin, house, cells, set(common))


def _check_named_cells(
    ctx: TableContext,
    builtin: Table,
    house: Table,
    cells: list[tuple[tuple[int, ...], Any]],
    common: set[str],
) -> None:
    """In a table of labels the code finds a cell by name and reads what that cell has
    (the Kick row's 'serious_damage'): a house cell under the same labels keeps it."""
    for at, cell in cells:
        if not isinstance(cell, Mapping):
            continue
        own = [key for key in cell if key not in common]
        if not own:
            continue
        labels = [axis.values[i].label for axis, i in zip(builtin.axes, at, strict=True)]
        found: list[int] = []
        for axis, label in zip(house.axes, labels, strict=True):
            index = next((j for j, v in enumerate(axis.values) if v.matches(label)), None)
            if index is None:
                break
            found.append(index)
        if len(found) != len(labels):
            continue
        mine = house.cell(*found)
        if not isinstance(mine, Mapping):
            continue
        missing = [key for key in own if key not in mine]
        if missing:
            named = ", ".join(
                f"{axis.name} '{label}'" for axis, label in zip(builtin.axes, labels, strict=True)
            )
            ctx.add(
                ("cells", *found),
                f"the cell for {named} has no {_quoted(missing)}, which the built-in cell for "
                f"{named} has and the code reads by name",
            )


def check_house_table(
    doc: YamlDoc, base: KeyPath, builtin: Table, house: Table, problems: Problems
) -> None:
    """Check that a house table keeps the shape of the built-in table it replaces.

    The resolvers, generators and sheets read a table by its parts' names, so a house
    table keeps: the kind; every param (of its type: a number stays a number); every
    modifier id, with its `by` choices, a whole-number value staying one; the axis names
    in order, numbers or labels as built in, a rolled axis still rolled; the cell_format;
    mapping cells where the built-in cells are all mappings (text where all text); every
    field every built-in cell has, in every cell; in a table of labels, the fields of a
    built-in cell in the house cell under the same labels. Where every built-in value of a
    param, a cell field or the text cells is dice notation, the house values must be too:
    plain dice (``2d6``) where the built-in ones are all plain, else any expression.
    Problems go to `problems`, one line each, with the line in `doc` under `base`.
    """
    ctx = TableContext(doc, base, house.id, problems)
    if house.kind != builtin.kind:
        ctx.add(
            ("kind",),
            f"the house table is of kind '{house.kind}' but the built-in one is "
            f"'{builtin.kind}': a house table keeps the kind the code reads",
        )
        return
    _check_house_params(ctx, builtin, house)
    if builtin.kind == "modifiers":
        _check_house_modifiers(ctx, builtin, house)
    elif builtin.kind == "table" and _check_house_axes(ctx, builtin, house):
        _check_house_cells(ctx, builtin, house)
