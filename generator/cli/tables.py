"""The table commands: rulesets, tables, lookup.

Each imports the part of the application layer it calls, and the listing it prints, when it
runs: every command module is imported at each start-up, and these pull in the rules'
loader (YAML and the tables, about 45 to 75 ms of imports, measured with ``python -X
importtime``), which `roll 2d6` and shell completion never need.
"""

from __future__ import annotations

from typing import Annotated

import typer

from generator import completion
from generator.cli.common import Command, JsonOption, RulesOption, load_rules, print_json

commands = typer.Typer()


@commands.command("rulesets", cls=Command)
def rulesets_command(rules_file: RulesOption = None, as_json: JsonOption = False) -> None:
    """List the rulesets and their tables.

    Example: quartermaster rulesets
    """
    from generator.listing import ruleset_summaries, show_rulesets

    rules = load_rules(rules_file)
    if as_json:
        print_json(ruleset_summaries(rules))
    else:
        show_rulesets(rules)


@commands.command("tables", cls=Command)
def tables_command(
    target: Annotated[
        str,
        typer.Argument(
            help="A ruleset id (lists its tables) or a table id (prints it whole).",
            autocompletion=completion.tables_or_rulesets,
        ),
    ],
    rules_file: RulesOption = None,
    as_json: JsonOption = False,
) -> None:
    """List a ruleset's tables with their axes, or print one table whole.

    Examples: quartermaster tables flob; quartermaster tables flob.broadside
    """
    from generator.app.table import find_tables
    from generator.listing import show_table, show_tables, table_json, tables_json
    from generator.loading import Table

    found = find_tables(target, rules_file)
    if isinstance(found, Table) and as_json:
        print_json(table_json(found))
    elif isinstance(found, Table):
        show_table(found)
    elif as_json:
        print_json(tables_json(found))
    else:
        show_tables(found)


@commands.command("lookup", cls=Command)
def lookup_command(
    table_id: Annotated[
        str,
        typer.Argument(help="Table id, e.g. flob.broadside.", autocompletion=completion.tables),
    ],
    values: Annotated[
        list[str] | None,
        typer.Argument(
            help="One AXIS=VALUE per axis, e.g. attack=5 roll=7 (a one-axis table takes the "
            "value alone: lookup tactical.broadside 7).",
            show_default=False,
            autocompletion=completion.lookup_values,
        ),
    ] = None,
    rules_file: RulesOption = None,
    as_json: JsonOption = False,
) -> None:
    """Print one cell of a table.

    Example: quartermaster lookup impulse.damage-effects roll=14 hits=6
    """
    from generator.app.table import look_up
    from generator.listing import show_lookup

    result = look_up(table_id, values or [], rules_file)
    if as_json:
        print_json(result.to_json())
    else:
        show_lookup(result)
