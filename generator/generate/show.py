"""Show generated forces and scenarios on the terminal."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table


def _scalar(value: Any) -> bool:
    return isinstance(value, str | int | float | bool) or value is None


def units_table(side: dict[str, Any], units: str, fields: tuple[str, ...] | None = None) -> Table:
    """Return a table of a side's ships or characters: names, classes and ratings."""
    rows = side.get(units, [])
    table = Table(title=escape(str(side.get("name", ""))), show_lines=False)
    if not rows:
        return table
    columns = [k for k, v in rows[0].items() if _scalar(v) and k not in ("navy",)]
    if fields is not None:
        columns = [k for k in fields if k in rows[0]]
    nested = [
        k
        for k, v in rows[0].items()
        if isinstance(v, dict)
        and all(_scalar(x) for x in v.values())
        and (fields is None or k in fields)
    ]
    sub = {k: list(rows[0][k]) for k in nested}
    short = {"flagship": "flag", "captain": "captain"}
    for key in columns:
        table.add_column(short.get(key, key), no_wrap=key in ("name", "class"))
    for key in nested:
        for name in sub[key]:
            table.add_column(name[:4], justify="right")
    for row in rows:
        cells = [escape(_cell(row.get(k))) for k in columns]
        cells += [escape(_cell(row.get(k, {}).get(n))) for k in nested for n in sub[k]]
        table.add_row(*cells)
    return table


def person_lines(person: dict[str, Any]) -> list[str]:
    """Return a duellist as a few readable lines (a table row cannot hold one)."""
    attrs = person["attributes"]
    head = f"{person['name']}"
    if person.get("role"):
        head = f"{person['role']}: {head}"
    lines = [
        f"{head} ({person['nationality']}), {person['height_cm']} cm, style {person['style']}",
        "  "
        + "  ".join(f"{k[:3].upper()} {v}" for k, v in attrs.items())
        + f"   hit points {person['hit_points']}",
        "  expertise: " + ", ".join(f"{k} {v}" for k, v in person["expertise"].items()),
        "  skills: " + ", ".join(f"{k} {v}" for k, v in person["skills"].items()),
    ]
    for weapon in person["weapons"]:
        lines.append(
            f"  {weapon['hand']} hand: {weapon['name']}, damage {weapon['damage']}, "
            f"MinSTR {weapon['min_str']}, AdvSTR {weapon['adv_str']}, "
            f"bonus {weapon['weapon_bonus']:+d}, parry {weapon['parry_bonus']:+d}"
        )
    lines.append(f"  armour: {person['armour']}")
    return lines


def _cell(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else ""
    return "" if value is None else str(value)


def _print_side(
    console: Console, side: dict[str, Any], units: str, fields: tuple[str, ...] | None
) -> None:
    if units == "characters":
        for person in side[units]:
            for line in person_lines(person):
                console.print(escape(line))
        return
    console.print(units_table(side, units, fields))
    for unit in side[units]:
        for officer in unit.get("officers", []):
            console.print(escape(f"  {unit['name']}: " + person_lines(officer)[0]))


def show_force(force: dict[str, Any], units: str, fields: tuple[str, ...] | None = None) -> None:
    """Print one side's force."""
    console = Console(highlight=False)
    _print_side(console, force, units, fields)
    console.print(f"seed {force.get('seed')}", style="dim")


def show_scenario(
    scenario: dict[str, Any], units: str, fields: tuple[str, ...] | None = None
) -> None:
    """Print a scenario's briefing and each side's units."""
    console = Console(highlight=False)
    console.print(
        f"[bold]{escape(scenario['title'])}[/bold]  "
        f"({scenario['ruleset']}, seed {scenario['seed']})"
    )
    for key in ("wind", "weather"):
        value = scenario.get(key)
        if isinstance(value, dict):
            text = ", ".join(
                f"{k} {v}" for k, v in value.items() if _scalar(v) and v not in ("", None)
            )
            console.print(f"{key}: {escape(text)}")
        elif value:
            console.print(f"{key}: {escape(str(value))}")
    for side in scenario["sides"]:
        _print_side(console, side, units, fields)
    for key in ("setup", "victory", "special_rules"):
        lines = scenario.get(key) or []
        if lines:
            console.print(f"[bold]{key.replace('_', ' ').capitalize()}[/bold]")
            for line in lines:
                console.print(f"  • {escape(str(line))}")
    balance = scenario.get("balance")
    if balance:
        console.print(
            f"balance: {escape(str(balance.get('strengths')))} ({escape(balance['measure'])})",
            style="dim",
        )
