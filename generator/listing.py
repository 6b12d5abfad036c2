"""Show rulesets, tables and looked-up cells on the terminal, or as JSON-ready data.

Everything is laid out for the console's width, on a terminal and piped alike, and nothing
is cut with "…": a table of results is printed whole when it fits, else with its corner
heading shortened to the axes' names (and a key under it), else with long text wrapped,
else split into parts of as many columns as fit, and at the last one block per row.
"""

from __future__ import annotations

import itertools
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table as RichTable
from rich.text import Text

from generator.loading import Axis, RuleItem, Rules, Ruleset, Table, thaw
from generator.loading.model import HOUSE_MARK
from generator.lookup import LookupResult, cell_text, describe_axis_values
from generator.rulesets import default_ruleset


def _console() -> Console:
    return Console(highlight=False, soft_wrap=False)


def _widths(console: Console, grid: RichTable) -> tuple[int, int]:
    """Return the narrowest `grid` can be without breaking a word, and its width with every
    cell on one line (Rich clamps a plain measurement to the width: measured on a wide page)."""
    wide = console.options.update(width=10_000, max_width=10_000)
    measured = console.measure(grid, options=wide)
    return measured.minimum, measured.maximum


#: a table with a cell this long holds prose, which wraps within its column rather than
#: splitting the table (a table of codes such as "3rr, str" is split instead)
PROSE_CELL = 20


def _axis_json(axis: Axis) -> dict[str, Any]:
    out: dict[str, Any] = {
        "name": axis.name,
        "title": axis.title,
        "values": list(axis.labels),
        "accepts": describe_axis_values(axis),
    }
    if axis.dice:
        out["dice"] = axis.dice
        out["modified"] = axis.modified
    return out


def _table_summary(table: Table) -> dict[str, Any]:
    out: dict[str, Any] = {"id": table.id, "title": table.marked_title, "kind": table.kind}
    if table.kind == "table":
        out["axes"] = [_axis_json(a) for a in table.axes]
    elif table.kind == "modifiers":
        out["modifiers"] = [m.id for m in table.modifiers]
    out["source"] = table.source.describe()
    if table.house:
        out["house"] = True
    if table.note:
        out["note"] = table.note
    return out


def ruleset_summaries(rules: Rules) -> list[dict[str, Any]]:
    """Return one JSON-ready summary per ruleset."""
    return [
        {
            "id": r.id,
            "title": r.title,
            "source": r.source,
            "description": r.description,
            "tables": len(r.tables),
        }
        for r in rules.rulesets.values()
    ]


def tables_json(ruleset: Ruleset) -> dict[str, Any]:
    """Return a ruleset's tables with their axes, JSON-ready."""
    return {"ruleset": ruleset.id, "tables": [_table_summary(t) for t in ruleset.tables.values()]}


def _item_json(item: RuleItem) -> Any:
    if not item.label and not item.items:
        return item.text
    out: dict[str, Any] = {"text": item.text}
    if item.label:
        out["label"] = item.label
    if item.items:
        out["items"] = [_item_json(i) for i in item.items]
    return out


def table_json(table: Table) -> dict[str, Any]:
    """Return one whole table, JSON-ready."""
    out = _table_summary(table)
    if table.kind == "table":
        out["cells"] = thaw(table.cells)
    elif table.kind == "modifiers":
        out["modifiers"] = [
            {k: thaw(v) for k, v in vars(m).items() if v not in (None, {}) and v != {}}
            for m in table.modifiers
        ]
    else:
        out["items"] = [_item_json(i) for i in table.items]
    if table.notes:
        out["notes"] = list(table.notes)
    if table.params:
        out["params"] = thaw(table.params)
    return out


def show_rulesets(rules: Rules) -> None:
    """Print the rulesets as a table."""
    grid = RichTable(title="Rulesets", show_lines=False)
    grid.add_column("id", style="bold", overflow="fold")
    grid.add_column("title", overflow="fold")
    grid.add_column("tables", justify="right", overflow="fold")
    grid.add_column("seed", overflow="fold")
    for ruleset in rules.rulesets.values():
        grid.add_row(ruleset.id, escape(ruleset.title), str(len(ruleset.tables)), ruleset.source)
    grid.caption = f"'quartermaster packet' with no ruleset makes a {default_ruleset()} packet"
    _console().print(grid)


def show_tables(ruleset: Ruleset) -> None:
    """Print a ruleset's tables: ids, titles, kinds and axes with their values."""
    grid = RichTable(title=escape(ruleset.title), show_lines=True)
    grid.add_column("id", style="bold", no_wrap=True, overflow="fold")
    grid.add_column("title", overflow="fold")
    grid.add_column("axes / contents", overflow="fold")
    for table in ruleset.tables.values():
        if table.kind == "table":
            detail = "\n".join(f"{_axis_name(a)}: {', '.join(a.labels)}" for a in table.axes)
        elif table.kind == "modifiers":
            detail = f"modifiers: {', '.join(m.id for m in table.modifiers)}"
        else:
            detail = f"rules text, {len(table.items)} item(s)"
        grid.add_row(table.id, escape(table.marked_title), escape(detail))
    _console().print(grid)


def _axis_name(axis: Axis) -> str:
    if not axis.dice:
        return axis.name
    return f"{axis.name} ({axis.dice}{', modified' if axis.modified else ''})"


def _rule_lines(items: tuple[RuleItem, ...], ordered: bool, depth: int = 0) -> list[str]:
    lines = []
    for n, item in enumerate(items, start=1):
        mark = f"{n}." if ordered and depth == 0 else "-"
        lead = f"{item.label}: " if item.label else ""
        lines.append(f"{'  ' * depth}{mark} {lead}{item.text}")
        lines.extend(_rule_lines(item.items, False, depth + 1))
    return lines


def show_table(table: Table, console: Console | None = None) -> None:
    """Print one table whole, with its source and notes, fitted to the console's width."""
    console = console or _console()
    heading = f"{table.id}: {table.marked_title}"
    if table.kind == "table" and len(table.axes) == 2:
        _print_grid(console, table, heading)
    elif table.kind == "table":
        (axis,) = table.axes
        grid = RichTable(title=escape(heading))
        grid.add_column(
            escape(axis.title + (f" ({axis.dice})" if axis.dice else "")),
            style="bold",
            overflow="fold",
        )
        grid.add_column("result", overflow="fold")
        for label, cell in zip(axis.labels, table.cells, strict=True):
            grid.add_row(escape(label), escape(_cell_detail(cell)))
        console.print(grid)
    elif table.kind == "modifiers":
        grid = RichTable(title=escape(heading))
        grid.add_column("modifier", overflow="fold")
        grid.add_column("value", justify="right", overflow="fold")
        # an id is typed as a whole: the modifier's words wrap instead
        grid.add_column("id", style="dim", no_wrap=True, overflow="fold")
        for mod in table.modifiers:
            label = f"{mod.group}: {mod.label}" if mod.group else mod.label
            if mod.per:
                label += f" (per {mod.per})"
            grid.add_row(escape(label), escape(str(mod.value)), mod.id)
        console.print(grid)
        if table.roll:
            console.print(f"Modifies: {escape(table.roll)}")
    else:
        console.print(f"[bold]{escape(heading)}[/bold]")
        for line in _rule_lines(table.items, table.ordered):
            console.print(escape(line))
    for footnote in table.notes:
        console.print(escape(footnote), style="italic")
    if table.note:
        console.print(f"Reading: {escape(table.note)}", style="yellow")
    console.print(f"Source: {escape(table.source.describe())}", style="dim")


def _grid(table: Table, title: str, columns: range, *, keyed: bool, wrap: bool) -> RichTable:
    """Return a two-axis table's `columns` as a Rich table: the corner heading is the axes'
    titles, or with `keyed` their names (`_key` explains them); cells wrap only if `wrap`."""
    rows, cols = table.axes
    corner = f"{rows.name} \\ {cols.name}" if keyed else f"{rows.title} \\ {cols.title}"
    grid = RichTable(title=escape(title), show_lines=wrap)
    grid.add_column(escape(corner), style="bold", no_wrap=not wrap, overflow="fold")
    for index in columns:
        grid.add_column(
            escape(cols.labels[index]), justify="center", no_wrap=not wrap, overflow="fold"
        )
    for label, row in zip(rows.labels, table.cells, strict=True):
        grid.add_row(escape(label), *(escape(cell_text(row[i])) for i in columns))
    return grid


def _key(table: Table) -> str:
    rows, cols = table.axes
    return f"Key: {rows.name} = {rows.title}; {cols.name} = {cols.title}"


def _parts(count: int, size: int) -> list[range]:
    """Split `count` columns into as few parts of at most `size` as can be, evened out."""
    parts = -(-count // size)
    bounds = [round(i * count / parts) for i in range(parts + 1)]
    return [range(low, high) for low, high in itertools.pairwise(bounds)]


def _print_grid(console: Console, table: Table, heading: str) -> None:
    """Print a two-axis table in the first layout that fits the console's width."""
    width = console.width
    every = range(len(table.axes[1].labels))
    prose = any(len(cell_text(c)) > PROSE_CELL for row in table.cells for c in row)
    layouts = [(False, False), (True, False)] + ([(False, True), (True, True)] if prose else [])
    for keyed, wrap in layouts:
        grid = _grid(table, heading, every, keyed=keyed, wrap=wrap)
        narrowest, widest = _widths(console, grid)
        if (narrowest if wrap else widest) <= width:
            console.print(grid)
            if keyed:
                console.print(Text(_key(table), style="dim", overflow="fold"))
            return
    for size in range(len(every) - 1, 0, -1):
        parts = _parts(len(every), size)
        grids = [
            _grid(table, f"{heading} ({n} of {len(parts)})", part, keyed=True, wrap=prose)
            for n, part in enumerate(parts, start=1)
        ]
        if all(_widths(console, g)[0 if prose else 1] <= width for g in grids):
            for grid in grids:
                console.print(grid)
            console.print(Text(_key(table), style="dim", overflow="fold"))
            return
    _print_blocks(console, table, heading)


def _print_blocks(console: Console, table: Table, heading: str) -> None:
    """Print a two-axis table as one block per row: too narrow a console for any table."""
    rows, cols = table.axes
    console.print(Text(heading, style="bold", overflow="fold"))
    for label, row in zip(rows.labels, table.cells, strict=True):
        console.print(Text(f"{rows.title} {label}", style="bold", overflow="fold"))
        for column, cell in zip(cols.labels, row, strict=True):
            console.print(Text(f"  {cols.title} {column}: {cell_text(cell)}", overflow="fold"))


def _cell_detail(cell: Any) -> str:
    text = cell_text(cell)
    if hasattr(cell, "items"):
        extras = [f"{k}: {v}" for k, v in thaw(cell).items() if k not in ("result", "printed")]
        if extras and text != ", ".join(extras):
            return f"{text}  ({'; '.join(extras)})"
    return text


def show_lookup(result: LookupResult) -> None:
    """Print a looked-up cell with the row and column it came from."""
    console = _console()
    where = ", ".join(
        f"{name} {result.inputs[name]}"
        + (f" (row '{label}')" if str(result.inputs[name]) != label else "")
        for name, label in result.matched.items()
    )
    title = escape(result.table.marked_title)
    console.print(f"[bold]{title}[/bold] ({result.table.id}): {escape(where)}")
    console.print(f"  → [bold]{escape(result.text)}[/bold]")
    fields = {k: v for k, v in result.fields().items() if k not in ("printed",)}
    if fields:
        console.print("  " + escape("; ".join(f"{k}: {v}" for k, v in fields.items())))
    if result.table.house:
        console.print(f"  {HOUSE_MARK}", style="yellow")
    console.print(f"  Source: {escape(result.table.source.describe())}", style="dim")
