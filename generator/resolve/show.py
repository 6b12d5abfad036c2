"""Show resolvers, resolutions and outcome odds on the terminal, or as JSON-ready data."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from generator.dice.show import fraction_text
from generator.loading import Rules
from generator.resolve.base import Resolver
from generator.resolve.engine import Resolution


def _console() -> Console:
    return Console(highlight=False)


def resolvers_json(resolvers: list[Resolver], rules: Rules) -> list[dict[str, Any]]:
    """Return each resolver with its inputs, JSON-ready."""
    return [
        {
            "id": r.id,
            "title": r.title,
            "summary": r.summary,
            "tables": list(r.tables),
            "inputs": [
                {
                    "name": p.name,
                    "kind": p.kind,
                    "accepts": p.describe(rules),
                    "required": p.required,
                    **({} if p.required or p.default is None else {"default": p.default}),
                    "help": p.help,
                }
                for p in r.params
            ],
        }
        for r in resolvers
    ]


def show_resolvers(resolvers: list[Resolver], rules: Rules) -> None:
    """Print the resolvers and their inputs."""
    table = Table(title="Resolvers", show_lines=True)
    table.add_column("id", style="bold", no_wrap=True)
    table.add_column("what it resolves")
    table.add_column("inputs")
    for r in resolvers:
        inputs = "\n".join(f"{p.name}={p.describe(rules)} ({p.default_text()})" for p in r.params)
        table.add_row(r.id, escape(f"{r.title}: {r.summary}"), escape(inputs or "none"))
    _console().print(table)


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
