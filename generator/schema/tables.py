"""What the rule tables give a file format: a table's results, labels, values and spreads,
the range of its die, and the checks and records of values that follow from a table (a
bearing from a wind direction, a roll and its result).
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping as MappingType
from functools import cache
from typing import Any

from generator.dice import DiceError, distribution, plain_dice
from generator.loading import Rules
from generator.schema.context import Ctx, found
from generator.schema.nodes import Check, Choice, Field, Record, Whole, req
from generator.yamlfile import KeyPath

# Functions of the rules for the schemas: each made once, at import, so what it gives is
# worked out once per Rules (Ctx.get keeps it by the function).


def results(table_id: str) -> Callable[[Rules], list[str]]:
    """The results of a one-axis table, in order."""

    def compute(rules: Rules) -> list[str]:
        return [str(cell["result"]) for cell in rules.table(table_id).cells]

    return compute


def labels(table_id: str, axis: str | None = None) -> Callable[[Rules], list[str]]:
    """The labels of a table's first axis, or of the axis named `axis`."""

    def compute(rules: Rules) -> list[str]:
        axes = rules.table(table_id).axes
        found_axis = axes[0] if axis is None else next(a for a in axes if a.name == axis)
        return list(found_axis.labels)

    return compute


def values(table_id: str, key: str) -> Callable[[Rules], list[Any]]:
    """The distinct values of `key` in a table's cells (every axis), in order."""

    def compute(rules: Rules) -> list[Any]:
        return list(dict.fromkeys(cell[key] for cell in cells(rules, table_id) if key in cell))

    return compute


def cells(rules: Rules, table_id: str) -> list[Any]:
    """Every cell of a table, row by row."""
    found_cells: list[Any] = []

    def gather(node: Any) -> None:
        if isinstance(node, tuple | list):
            for item in node:
                gather(item)
        else:
            found_cells.append(node)

    gather(rules.table(table_id).cells)
    return found_cells


def spread(table_id: str, key: str) -> Callable[[Rules], tuple[int, int]]:
    """The least and most whole number of `key` in a table's cells."""

    def compute(rules: Rules) -> tuple[int, int]:
        numbers = [int(cell[key]) for cell in cells(rules, table_id) if key in cell]
        return min(numbers), max(numbers)

    return compute


@cache
def by_result(table_id: str) -> Callable[[Rules], dict[str, Any]]:
    """A one-axis table's cells by their result (one function a table, so that what it
    gives is worked out once per Rules however often a check asks)."""

    def compute(rules: Rules) -> dict[str, Any]:
        return {str(cell["result"]): cell for cell in rules.table(table_id).cells}

    return compute


@cache
def by_label(table_id: str) -> Callable[[Rules], dict[str, Any]]:
    """A one-axis table's cells by their row label (one function a table, as `by_result`)."""

    def compute(rules: Rules) -> dict[str, Any]:
        table = rules.table(table_id)
        return dict(zip(table.axes[0].labels, table.cells, strict=True))

    return compute


def dice_span(expression: str) -> tuple[int, int]:
    """The least and most a dice expression can roll."""
    try:
        dice = plain_dice(expression)
    except DiceError:
        totals = distribution(expression)
        return min(totals), max(totals)
    return dice.count, dice.count * dice.sides


def die_range(
    table_id: str, modifier: Callable[[Rules], tuple[int, int]] | None = None
) -> Callable[[Rules], tuple[int, int]]:
    """What a roll on a table can total: its die (the first axis with dice), plus the least
    and most `modifier` the generator adds."""

    def compute(rules: Rules) -> tuple[int, int]:
        axis = next(a for a in rules.table(table_id).axes if a.dice)
        low, high = dice_span(str(axis.dice))
        if modifier is not None:
            least, most = modifier(rules)
            low, high = low + least, high + most
        return low, high

    return compute


def table_ids(rules: Rules) -> list[str]:
    return sorted(table.id for table in rules.all_tables())


def navies(rules: Rules) -> list[str]:
    return sorted(rules.names.navies) if rules.names is not None else []


def nationalities(rules: Rules) -> list[str]:
    return sorted(rules.names.people) if rules.names is not None else []


def follows(
    field_key: str,
    source: str,
    table_id: str,
    cell_key: str,
    lookup: Callable[[Rules], dict[str, Any]] | None = None,
) -> Check:
    """A check that `field_key` is what `table_id` gives for the value of `source` (the row
    whose result, or label with `lookup`, it is): a bearing for a wind direction ..."""
    rows = lookup or by_result(table_id)

    def run(ctx: Ctx, data: dict[str, Any], path: KeyPath) -> None:
        cell = ctx.of(rows).get(data[source])
        if cell is None:
            return
        expected = cell.get(cell_key)
        if expected is None or data[field_key] == expected:
            return
        ctx.fail(
            (*path, field_key),
            f"{field_key} {found(data[field_key])} does not match {source} {data[source]} "
            f"({table_id} gives {found(expected)})",
        )

    return Check(
        f"{field_key} is what {table_id} gives for {source}", run, needs=(source, field_key)
    )


def copied(
    keys: tuple[str, ...],
    source: str,
    table_id: str,
    lookup: Callable[[Rules], dict[str, Any]] | None = None,
) -> Check:
    """A check that each of `keys` is what `table_id` gives under the same key for the
    value of `source` (the numbers a weapon copies from its row ...)."""
    rows = lookup or by_result(table_id)

    def run(ctx: Ctx, data: dict[str, Any], path: KeyPath) -> None:
        cell = ctx.of(rows).get(data[source])
        if cell is None:
            return
        for key in keys:
            expected = cell.get(key)
            if expected is not None and data[key] != expected:
                ctx.fail(
                    (*path, key),
                    f"{key} {found(data[key])} does not match {source} {data[source]} "
                    f"({table_id} gives {found(expected)})",
                )

    return Check(
        f"{', '.join(keys)} are what {table_id} gives for {source}", run, needs=(source, *keys)
    )


def rolled(
    table_id: str,
    what: str,
    extra: MappingType[str, Field] | None = None,
    tag: bool = False,
    modifier: Callable[[Rules], tuple[int, int]] | None = None,
) -> Record:
    """A roll on a table as the generators write it: the roll and its result (and, with
    `tag`, the table's id under ``table``)."""
    fields: dict[str, Field] = {}
    if tag:
        fields["table"] = req(Choice([table_id], "table id"), "the table rolled on")
    fields["roll"] = req(
        Whole(span=die_range(table_id, modifier), why=f"the die of {table_id}"),
        "the die roll",
    )
    fields["result"] = req(Choice(results(table_id), what), f"the result {table_id} gives")
    fields.update(extra or {})
    return Record(fields, what=f"a roll on {table_id}")
