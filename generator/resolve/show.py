"""Show resolvers, resolutions and outcome odds on the terminal, or as JSON-ready data."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rich.cells import cell_len
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from generator.dice.show import fraction_text
from generator.loading import Rules
from generator.resolve.base import Param, Resolver
from generator.resolve.engine import Resolution
from generator.text import wrap_items, wrap_text


def _console() -> Console:
    return Console(highlight=False)


def resolver_json(resolver: Resolver, rules: Rules) -> dict[str, Any]:
    """Return one resolver with its inputs, JSON-ready (one entry of `resolvers_json`)."""
    return {
        "id": resolver.id,
        "title": resolver.title,
        "summary": resolver.summary,
        "tables": list(resolver.tables),
        "inputs": [
            {
                "name": p.name,
                "kind": p.kind,
                "accepts": p.describe(rules),
                "required": p.required,
                **({} if p.required or p.default is None else {"default": p.default}),
                "help": p.help,
            }
            for p in resolver.params
        ],
    }


def resolvers_json(resolvers: list[Resolver], rules: Rules) -> list[dict[str, Any]]:
    """Return each resolver with its inputs, JSON-ready."""
    return [resolver_json(r, rules) for r in resolvers]


# A line to print: its text, the part of it (after the indent) in bold, and its style.
_Line = tuple[str, str, str]

_KINDS = {"int": "number", "bool": "yes/no", "choice": "choice", "text": "text"}


def _choices(param: Param, rules: Rules) -> list[str]:
    """The allowed words of a choice input as items to wrap: "A |", "B |", "C"."""
    words = list(param.allowed(rules))
    return [f"{w} |" for w in words[:-1]] + words[-1:]


def _range_text(param: Param) -> str:
    """An ``int`` input's bounds in words: "0 to 99", "at least 1", or ""."""
    low, high = param.minimum, param.maximum
    if low is not None and high is not None:
        return f"{low} to {high}"
    if low is not None:
        return f"at least {low}"
    if high is not None:
        return f"at most {high}"
    return ""


def _input_lines(
    param: Param, rules: Rules, width: int, lead: str, column: int, full: bool
) -> list[_Line]:
    """One input as lines, its name at `lead` and what follows it at `column`.

    Compact: what it accepts (its range or choices) and its default. Full: its help,
    then its kind with its range or every choice, and its default. A name too wide for
    the column stands on a line of its own.
    """
    indent = " " * column
    first = f"{lead}{param.name}".ljust(column)
    lines: list[_Line] = []
    if cell_len(f"{lead}{param.name}") + 2 > column:
        lines.append((f"{lead}{param.name}", param.name, ""))
        first = indent
    kind = _KINDS.get(param.kind, param.kind)
    if not full:
        accepts = _choices(param, rules) if param.kind == "choice" else [param.describe(rules)]
        body = wrap_items(
            [*accepts[:-1], f"{accepts[-1]},", param.default_text()], width, first, indent
        )
    else:
        if param.kind == "choice":
            kind_items = [f"{kind}, one of:", *_choices(param, rules)]
        elif param.kind == "int" and _range_text(param):
            kind_items = [f"{kind}, {_range_text(param)}"]
        else:
            kind_items = [kind]
        default = "optional (may be left out)" if param.default is None else param.default_text()
        kind_items[-1] += ";"
        what = [*kind_items, default]
        if param.help:
            body = wrap_text(param.help, width, first, indent)
            body += wrap_items(what, width, indent, indent + "  ")
        else:
            body = wrap_items(what, width, first, indent + "  ")
    named = bool(body) and body[0].startswith(first) and first != indent
    lines += [(line, param.name if n == 0 and named else "", "") for n, line in enumerate(body)]
    return lines


def _column(resolver: Resolver, width: int, lead: str) -> int:
    """Where inputs' details start: past the longest input name, if that leaves room."""
    longest = max((len(p.name) for p in resolver.params), default=0)
    column = len(lead) + longest + 2
    return column if column <= width // 2 else len(lead) + 4


def resolver_lines(resolver: Resolver, rules: Rules, width: int, full: bool = False) -> list[_Line]:
    """Return a resolver as lines of at most `width` cells (a word longer than a line aside).

    Compact (the list): its id and title, its summary, each input with what it accepts
    and its default. Full (one resolver explained): the same head, the tables it reads,
    then each input with its help, its kind, its range or every choice, and its default.
    The list and the full view share this code, so they say the same things alike.
    """
    head = wrap_items([f"{resolver.id} ", *resolver.title.split()], width, "", "    ")
    lines: list[_Line] = [
        (line.rstrip(), resolver.id if n == 0 else "", "") for n, line in enumerate(head)
    ]
    base = "  " if full else "    "
    lines += [(line, "", "") for line in wrap_text(resolver.summary, width, base, base)]
    if full and resolver.tables:
        tables = [f"{t}," for t in resolver.tables[:-1]] + [resolver.tables[-1]]
        lines += [(line, "", "dim") for line in wrap_items(tables, width, "  Tables: ", "    ")]
    if not resolver.params:
        lines.append((f"{base}no inputs", "", "dim"))
        return lines
    if full:
        lines += [("", "", ""), ("Inputs (NAME=VALUE):", "Inputs", "")]
        lead = "  "
    else:
        lines.append((f"{base}inputs:", "", "dim"))
        lead = base + "  "
    column = _column(resolver, width, lead)
    for param in resolver.params:
        lines += _input_lines(param, rules, width, lead, column, full)
    return lines


def _print(console: Console, lines: list[_Line]) -> None:
    for line, bold, style in lines:
        text = Text(line, style=style)
        if bold:
            start = len(line) - len(line.lstrip())
            text.stylize("bold", start, start + len(bold))
        console.print(text, soft_wrap=True)


def show_resolvers(resolvers: list[Resolver], rules: Rules, console: Console | None = None) -> None:
    """Print the resolvers, one compact block each: id, title, summary and inputs."""
    console = console or _console()
    for n, resolver in enumerate(resolvers):
        if n:
            console.print()
        _print(console, resolver_lines(resolver, rules, console.width))


def show_resolver(resolver: Resolver, rules: Rules, console: Console | None = None) -> None:
    """Print one resolver in full: every input with its help, kind, range or choices and
    default."""
    console = console or _console()
    _print(console, resolver_lines(resolver, rules, console.width, full=True))


def odds_json(
    resolver: Resolver, inputs: dict[str, Any], chances: dict[str, Fraction]
) -> dict[str, Any]:
    """Return the ``resolve --odds --json`` object."""
    ordered = sorted(chances.items(), key=lambda kv: (-kv[1], kv[0]))
    return {
        "resolver": resolver.id,
        "inputs": inputs,
        "outcomes": {k: fraction_text(v) for k, v in ordered if v},
    }


def show_odds(resolver: Resolver, inputs: dict[str, Any], chances: dict[str, Fraction]) -> None:
    """Print each outcome with its exact chance."""
    console = _console()
    given = " ".join(f"{k}={v}" for k, v in inputs.items())
    console.print(f"[bold]{escape(resolver.title)}[/bold] ({resolver.id})")
    console.print(f"  {escape(given)}", style="dim")
    table = Table()
    table.add_column("outcome", style="bold")
    table.add_column("chance", justify="right")
    table.add_column("%", justify="right")
    for result, chance in sorted(chances.items(), key=lambda kv: (-kv[1], kv[0])):
        if chance:
            exact = fraction_text(chance)
            shown = exact if len(exact) <= 15 else "(see --json)"
            table.add_row(escape(result), shown, f"{float(chance) * 100:.2f}")
    console.print(table)


def show_resolution(resolution: Resolution) -> None:
    """Print a resolution: outcome, the dice and modifiers line by line, and the changes."""
    console = _console()
    resolver = resolution.resolver
    console.print(f"[bold]{escape(resolver.title)}[/bold] ({resolver.id})")
    for line in resolution.lines:
        console.print(f"  {escape(line)}")
    console.print(f"  → [bold]{escape(resolution.outcome.result)}[/bold]")
    for change in resolution.outcome.changes:
        console.print(f"  • {escape(change)}")
    console.print(f"  seed {resolution.seed}", style="dim")
