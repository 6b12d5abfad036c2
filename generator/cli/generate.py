"""The commands that roll data: fleet, character, scenario.

Each imports the part of the application layer it calls, and the way it prints, when it
runs: every command module is imported at each start-up, and these pull in the generators
and the ruleset specs (about 150 ms of imports, measured with ``python -X importtime``),
which `roll 2d6` and shell completion never need.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from generator import completion
from generator.app import CharacterRequest, FleetRequest, OrderOptions, ScenarioRequest
from generator.cli.common import (
    BalancedOption,
    Command,
    ForceOption,
    FromOption,
    JsonOption,
    NaviesOption,
    RulesOption,
    SeedOption,
    ShipsOption,
    Told,
    YearOption,
)

if TYPE_CHECKING:
    from generator.app.generated import Generated

YamlOption = Annotated[bool, typer.Option("--yaml", help="Print YAML instead of JSON.")]
OutputFile = Annotated[
    Path | None,
    typer.Option("-o", "--output", help="Write to this file (.json or .yaml).", dir_okay=False),
]

commands = typer.Typer()


def _report(made: Generated[Any], as_json: bool, as_yaml: bool) -> bool:
    """Say where generated data was written, or print it as JSON or YAML; return False if
    it is for a terminal listing instead."""
    if made.written is not None:
        typer.echo(f"wrote {made.written}")
    elif as_json or as_yaml:
        sys.stdout.write(made.text(as_yaml))
    else:
        return False
    return True


@commands.command("fleet", cls=Command)
def fleet_command(
    ruleset: Annotated[
        str, typer.Argument(help="The ruleset, e.g. tactical.", autocompletion=completion.rulesets)
    ],
    seed: SeedOption = None,
    ships: Annotated[
        int | None,
        typer.Option("--ships", help="How many ships; default: the rules' size or their roll."),
    ] = None,
    navy: Annotated[
        str | None, typer.Option("--navy", help="The navy, e.g. british (default: rolled).")
    ] = None,
    year: YearOption = None,
    from_file: FromOption = None,
    rules_file: RulesOption = None,
    as_json: JsonOption = False,
    as_yaml: YamlOption = False,
    output: OutputFile = None,
    force_write: ForceOption = False,
) -> None:
    """Roll one side's force (fleet, squadron or convoy) by the ruleset's tables.

    Examples: quartermaster fleet tactical --seed 1805 --json;
    quartermaster fleet flob --ships 3 --navy british --year 1798 -o british.yaml
    """
    from generator.app.generated import make_fleet
    from generator.generate.show import show_force

    request = FleetRequest(
        ruleset=ruleset,
        seed=seed,
        ships=ships,
        navy=navy,
        year=year,
        from_file=from_file,
        rules_file=rules_file,
        output=output,
        as_yaml=as_yaml,
        force=force_write,
    )
    made = make_fleet(request, Told())
    if not _report(made, as_json, as_yaml):
        show_force(made.data, made.units, made.fields)


@commands.command("character", cls=Command)
def character_command(
    seed: SeedOption = None,
    from_file: FromOption = None,
    rules_file: RulesOption = None,
    as_json: JsonOption = False,
    as_yaml: YamlOption = False,
    output: OutputFile = None,
    force: ForceOption = False,
) -> None:
    """Roll one duellist: attributes, hit points, expertise, style, weapons, armour, skills.

    Example: quartermaster character --seed 7 --yaml
    """
    from generator.app.generated import make_character
    from generator.generate.show import show_force

    request = CharacterRequest(
        seed=seed,
        from_file=from_file,
        rules_file=rules_file,
        output=output,
        as_yaml=as_yaml,
        force=force,
    )
    made = make_character(request, Told())
    if not _report(made, as_json, as_yaml):
        person = made.data
        show_force(
            {"name": person["name"], "seed": person.get("seed"), "characters": [person]},
            "characters",
        )


@commands.command("scenario", cls=Command)
def scenario_command(
    ruleset: Annotated[
        str, typer.Argument(help="The ruleset, e.g. tactical.", autocompletion=completion.rulesets)
    ],
    seed: SeedOption = None,
    ships: ShipsOption = None,
    navies: NaviesOption = None,
    year: YearOption = None,
    balanced: BalancedOption = True,
    sides: Annotated[
        list[Path] | None,
        typer.Option(
            "--side",
            help="A fleet file (from 'quartermaster fleet', edited or not) for a side; give "
            "it twice for both sides. The rest is rolled from the seed.",
            dir_okay=False,
        ),
    ] = None,
    from_file: FromOption = None,
    rules_file: RulesOption = None,
    as_json: JsonOption = False,
    as_yaml: YamlOption = False,
    output: OutputFile = None,
    force: ForceOption = False,
) -> None:
    """Roll a whole scenario: two sides, wind and weather, map, set-up, victory, special rules.

    The sides are balanced (strengths within 10 %) unless --unbalanced.

    Examples: quartermaster scenario tactical --seed 1805 -o output/trafalgar.yaml;
    quartermaster scenario flob --ships 3 --navies british,french --year 1798;
    quartermaster scenario flob --side british.yaml --side french.yaml --seed 7
    """
    from generator.app.generated import make_scenario
    from generator.generate.show import show_scenario

    request = ScenarioRequest(
        ruleset=ruleset,
        seed=seed,
        order=OrderOptions(ships, navies, year, balanced),
        sides=tuple(sides or ()),
        from_file=from_file,
        rules_file=rules_file,
        output=output,
        as_yaml=as_yaml,
        force=force,
    )
    made = make_scenario(request, Told())
    if not _report(made, as_json, as_yaml):
        show_scenario(made.data, made.units, made.fields)
