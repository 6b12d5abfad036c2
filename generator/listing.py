"""Show rulesets, tables and looked-up cells on the terminal, or as JSON-ready data."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table as RichTable

from generator.loading import Axis, RuleItem, Rules, Ruleset, Table, thaw
from generator.lookup import LookupResult, cell_text, describe_axis_values
from generator.rulesets import default_ruleset


def _console() -> Console:
    return Console(highlight=False, soft_wrap=False)


def _print_wide(console: Console, grid: RichTable) -> None:
    """Print a table unwrapped when piped; on a terminal let Rich fit it to the width."""
    if not console.is_terminal:
        needed = console.measure(grid, options=console.options.update(width=10_000)).maximum
        console = Console(highlight=False, soft_wrap=False, width=max(console.width, needed))
    console.print(grid)


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
    out: dict[str, Any] = {"id": table.id, "title": table.title, "kind": table.kind}
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
    grid.add_column("id", style="bold")
    grid.add_column("title")
    grid.add_column("tables", justify="right")
    grid.add_column("seed")
    for ruleset in rules.rulesets.values():
        grid.add_row(ruleset.id, escape(ruleset.title), str(len(ruleset.tables)), ruleset.source)
    grid.caption = f"'quartermaster packet' with no ruleset makes a {default_ruleset()} packet"
    _console().print(grid)


def show_tables(ruleset: Ruleset) -> None:
    """Print a ruleset's tables: ids, titles, kinds and axes with their values."""
    grid = RichTable(title=escape(ruleset.title), show_lines=True)
    grid.add_column("id", style="bold", no_wrap=True)
    grid.add_column("title")
    grid.add_column("axes / contents")
    for table in ruleset.tables.values():
        if table.kind == "table":
            detail = "\n".join(f"{_axis_name(a)}: {', '.join(a.labels)}" for a in table.axes)
        elif table.kind == "modifiers":
            detail = f"modifiers: {', '.join(m.id for m in table.modifiers)}"
        else:
            detail = f"rules text, {len(table.items)} item(s)"
        title = table.title + (
            " [house]" if table.house and "house" not in table.title.casefold() else ""
        )
        grid.add_row(table.id, escape(title), escape(detail))
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


def show_table(table: Table) -> None:
    """Print one table whole, with its source and notes."""
    console = _console()
    marker = " (house table)" if table.house and "house" not in table.title.casefold() else ""
    heading = f"{table.id}: {table.title}{marker}"
    if table.kind == "table" and len(table.axes) == 2:
        rows, cols = table.axes
        grid = RichTable(title=escape(heading), show_lines=False)
        grid.add_column(escape(f"{rows.title} \\ {cols.title}"), style="bold")
        for label in cols.labels:
            grid.add_column(escape(label), justify="center")
        for label, row in zip(rows.labels, table.cells, strict=True):
            grid.add_row(escape(label), *(escape(cell_text(c)) for c in row))
        _print_wide(console, grid)
    elif table.kind == "table":
        (axis,) = table.axes
        grid = RichTable(title=escape(heading))
        grid.add_column(escape(axis.title + (f" ({axis.dice})" if axis.dice else "")), style="bold")
        grid.add_column("result")
        for label, cell in zip(axis.labels, table.cells, strict=True):
            grid.add_row(escape(label), escape(_cell_detail(cell)))
        _print_wide(console, grid)
    elif table.kind == "modifiers":
        grid = RichTable(title=escape(heading))
        grid.add_column("modifier")
        grid.add_column("value", justify="right")
        grid.add_column("id", style="dim")
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
    console.print(f"[bold]{escape(result.table.title)}[/bold] ({result.table.id}): {escape(where)}")
    console.print(f"  → [bold]{escape(result.text)}[/bold]")
    fields = {k: v for k, v in result.fields().items() if k not in ("printed",)}
    if fields:
        console.print("  " + escape("; ".join(f"{k}: {v}" for k, v in fields.items())))
    if result.table.house:
        console.print("  (house table)", style="yellow")
    console.print(f"  Source: {escape(result.table.source.describe())}", style="dim")
