"""The command line: thin Typer commands that convert options and call one core function.

Every `QuartermasterError` becomes one line per problem on stderr and its exit code
(2 for bad input); a usage error is one line too. No traceback reaches the user.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from generator import __version__
from generator.errors import InputError, QuartermasterError

app = typer.Typer(
    name="quartermaster",
    help="Rule tables, dice and printable sheets for age-of-sail wargames and duels.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

RulesOption = Annotated[
    Path | None,
    typer.Option(
        "--rules",
        help="House-rules YAML file whose tables replace built-in ones.",
        dir_okay=False,
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]


def _version(value: bool) -> None:
    if value:
        typer.echo(f"quartermaster {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Show the version."),
    ] = False,
) -> None:
    """Quartermaster: rule tables, dice and printable sheets for age-of-sail games."""


def _print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


@app.command("rulesets")
def rulesets_command(rules_file: RulesOption = None, as_json: JsonOption = False) -> None:
    """List the rulesets and their tables.

    Example: quartermaster rulesets
    """
    from generator.listing import ruleset_summaries, show_rulesets
    from generator.loading import load_rules

    rules = load_rules(rules_file)
    if as_json:
        _print_json(ruleset_summaries(rules))
    else:
        show_rulesets(rules)


@app.command("tables")
def tables_command(
    target: Annotated[
        str,
        typer.Argument(help="A ruleset id (lists its tables) or a table id (prints it whole)."),
    ],
    rules_file: RulesOption = None,
    as_json: JsonOption = False,
) -> None:
    """List a ruleset's tables with their axes, or print one table whole.

    Examples: quartermaster tables flob; quartermaster tables flob.broadside
    """
    from generator.listing import show_table, show_tables, table_json, tables_json
    from generator.loading import load_rules
    from generator.lookup import find_table

    rules = load_rules(rules_file)
    if "." in target:
        table = find_table(rules, target)
        if as_json:
            _print_json(table_json(table))
        else:
            show_table(table)
        return
    ruleset = rules.rulesets.get(target)
    if ruleset is None:
        raise InputError(f"unknown ruleset '{target}' (known: {', '.join(rules.rulesets)})")
    if as_json:
        _print_json(tables_json(ruleset))
    else:
        show_tables(ruleset)


def parse_assignments(pairs: list[str], what: str) -> dict[str, str]:
    """Turn ``NAME=VALUE`` words into a mapping, or raise naming the bad word."""
    out: dict[str, str] = {}
    for pair in pairs:
        name, eq, value = pair.partition("=")
        if not eq or not name.strip() or not value.strip():
            raise InputError(f"'{pair}': {what} are written NAME=VALUE, e.g. roll=7")
        if name.strip() in out:
            raise InputError(f"'{pair}': {name.strip()} is given twice")
        out[name.strip()] = value.strip()
    return out


@app.command("lookup")
def lookup_command(
    table_id: Annotated[str, typer.Argument(help="Table id, e.g. flob.broadside.")],
    values: Annotated[
        list[str] | None,
        typer.Argument(help="One AXIS=VALUE per axis, e.g. attack=5 roll=7.", show_default=False),
    ] = None,
    rules_file: RulesOption = None,
    as_json: JsonOption = False,
) -> None:
    """Print one cell of a table.

    Example: quartermaster lookup impulse.damage-effects roll=14 hits=6
    """
    from generator.listing import show_lookup
    from generator.loading import load_rules
    from generator.lookup import lookup

    rules = load_rules(rules_file)
    result = lookup(rules, table_id, parse_assignments(values or [], "lookup values"))
    if as_json:
        _print_json(result.to_json())
    else:
        show_lookup(result)


def _fail(message: str, code: int) -> NoReturn:
    for line in message.splitlines() or [message]:
        sys.stderr.write(f"error: {line}\n")
    sys.exit(code)


def main(argv: list[str] | None = None) -> None:
    """Run the CLI; turn our errors and usage errors into one-line messages."""
    try:
        code = app(args=argv, prog_name="quartermaster", standalone_mode=False)
    except QuartermasterError as exc:
        _fail(str(exc), exc.exit_code)
    except typer.TyperException as exc:
        ctx = getattr(exc, "ctx", None)
        hint = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
        _fail(f"{exc.format_message()}{hint}", exc.exit_code if exc.exit_code else 2)
    except (typer.Abort, KeyboardInterrupt):
        _fail("interrupted", 130)
    sys.exit(code if isinstance(code, int) else 0)
