"""Show rolls and distributions on the terminal, or as JSON-ready data."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from generator.dice.rolling import RollResult

BAR_WIDTH = 30


def fraction_text(value: Fraction) -> str:
    """Write a chance as ``num/den`` (reduced), as the JSON output promises."""
    return f"{value.numerator}/{value.denominator}"


def odds_json(expression: str, dist: dict[int, Fraction], average: Fraction) -> dict[str, Any]:
    """Return the ``odds --json`` object."""
    return {
        "expression": expression,
        "outcomes": {str(v): fraction_text(p) for v, p in sorted(dist.items())},
        "mean": str(average),
    }


def show_roll(result: RollResult, seed: int | None, console: Console | None = None) -> None:
    """Print a roll: total, every group with its dice, and the seed to repeat it."""
    console = console or Console(highlight=False)
    console.print(f"[bold]{escape(result.expression)}[/bold] = [bold]{result.total}[/bold]")
    console.print(f"  {escape(result.account)}")
    if seed is not None:
        console.print(f"  seed {seed}", style="dim")


def show_odds(expression: str, dist: dict[int, Fraction], average: Fraction) -> None:
    """Print each total with its chance, at-least and at-most columns and a bar chart."""
    console = Console(highlight=False)
    exact = "" if average.denominator == 1 else f" ({average})"
    table = Table(title=f"{escape(expression)}   mean {float(average):.4g}{exact}")
    table.add_column("total", justify="right", style="bold")
    table.add_column("chance", justify="right")
    table.add_column("%", justify="right")
    table.add_column("at least", justify="right")
    table.add_column("at most", justify="right")
    table.add_column("")
    values = sorted(dist)
    peak = max(dist.values())
    at_most = Fraction(0)
    running = []
    for value in values:
        at_most += dist[value]
        running.append(at_most)
    for i, value in enumerate(values):
        chance = dist[value]
        at_least = 1 - (running[i - 1] if i else Fraction(0))
        bar = "█" * max(1, round(BAR_WIDTH * chance / peak)) if chance else ""
        table.add_row(
            str(value),
            fraction_text(chance),
            f"{float(chance) * 100:.2f}",
            f"{float(at_least) * 100:.2f}",
            f"{float(running[i]) * 100:.2f}",
            bar,
        )
    console.print(table)
