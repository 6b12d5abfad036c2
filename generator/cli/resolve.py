"""The resolver commands: resolvers, resolve, play.

Each imports the part of the application layer it calls, and the way it prints, when it
runs: every command module is imported at each start-up, and these pull in the rules and
every ruleset's resolvers (about 100 ms of imports, measured with ``python -X importtime``),
which `roll 2d6` and shell completion never need.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import click
import typer

from generator import completion
from generator.app import fresh_seed
from generator.cli.common import (
    Command,
    JsonOption,
    RulesOption,
    SeedOption,
    load_rules,
    print_json,
)

commands = typer.Typer()


@commands.command("resolvers", cls=Command)
def resolvers_command(
    ruleset: Annotated[
        str | None,
        typer.Argument(
            help="Only this ruleset's resolvers, or one resolver (e.g. flob.broadside) "
            "explained in full.",
            autocompletion=completion.resolvers_or_rulesets,
        ),
    ] = None,
    rules_file: RulesOption = None,
    as_json: JsonOption = False,
) -> None:
    """List the resolvers (every procedure of every ruleset) and their inputs, or explain
    one resolver: every input with its kind, range or choices, default and help.

    Examples: quartermaster resolvers flob; quartermaster resolvers flob.broadside
    """
    from generator.app.resolving import find_resolvers
    from generator.resolve.show import (
        resolver_json,
        resolvers_json,
        show_resolver,
        show_resolvers,
    )

    found = find_resolvers(ruleset, rules_file)
    rules, chosen = found.rules, list(found.resolvers)
    one = ruleset is not None and "." in ruleset
    if one and as_json:
        print_json(resolver_json(chosen[0], rules))
    elif one:
        show_resolver(chosen[0], rules)
    elif as_json:
        print_json(resolvers_json(chosen, rules))
    else:
        show_resolvers(chosen, rules)


@commands.command("resolve", cls=Command, context_settings={"help_option_names": []})
def resolve_command(
    ctx: typer.Context,
    resolver_id: Annotated[
        str | None,
        typer.Argument(
            help="Resolver id, e.g. flob.broadside.",
            metavar="RESOLVER_ID",
            show_default=False,
            autocompletion=completion.resolvers,
        ),
    ] = None,
    values: Annotated[
        list[str] | None,
        typer.Argument(
            help="Inputs as NAME=VALUE, e.g. attack=5 ammo=double-round-shot.",
            show_default=False,
            autocompletion=completion.resolver_inputs,
        ),
    ] = None,
    seed: SeedOption = None,
    want_odds: Annotated[
        bool,
        typer.Option("--odds", help="Show the exact chance of each outcome instead of rolling."),
    ] = False,
    rules_file: RulesOption = None,
    as_json: JsonOption = False,
    show_help: Annotated[
        bool,
        typer.Option(
            "--help",
            "-h",
            help="Show this message and exit; after a resolver id, explain its inputs too.",
        ),
    ] = False,
) -> None:
    """Resolve a procedure: the dice, each modifier and its source, and what changes.

    'quartermaster resolve RESOLVER_ID --help' explains that resolver's inputs.

    Example: quartermaster resolve tactical.flight-test flagship=yes courage=1 --seed 7
    """
    from generator.app.resolving import ResolveRequest, find_resolver, resolve, resolve_odds
    from generator.resolve.show import odds_json, show_odds, show_resolution, show_resolver

    if show_help or resolver_id is None:
        if resolver_id is None and not show_help:
            raise click.UsageError("Missing argument 'RESOLVER_ID'.", ctx)
        typer.echo(ctx.get_help())
        if resolver_id is not None:
            typer.echo("")
            found = find_resolver(resolver_id, rules_file)
            show_resolver(found.resolvers[0], found.rules)
        return
    request = ResolveRequest(resolver_id, tuple(values or ()), seed=seed, rules_file=rules_file)
    if want_odds:
        made = resolve_odds(request)
        if as_json:
            print_json(odds_json(made.resolver, made.inputs, made.chances))
        else:
            show_odds(made.resolver, made.inputs, made.chances)
        return
    resolution = resolve(request)
    if as_json:
        print_json(resolution.to_json())
    else:
        show_resolution(resolution)


@commands.command("play", cls=Command)
def play_command(
    ruleset: Annotated[
        str,
        typer.Argument(
            help="The ruleset being played, e.g. flob.", autocompletion=completion.rulesets
        ),
    ],
    seed: SeedOption = None,
    rules_file: RulesOption = None,
    output: Annotated[
        Path, typer.Option("-o", "--output", help="Folder for the session log.", file_okay=False)
    ] = Path("output"),
    game: Annotated[
        int | None,
        typer.Option(
            "--game",
            help="A game kept by 'quartermaster serve' or 'game start': resolve with its "
            "ships (broadside Victory -> Redoutable) and cross their losses off (apply).",
        ),
    ] = None,
    data: Annotated[
        Path | None,
        typer.Option(
            "--data",
            help="The folder the game is kept in (default: as 'serve' keeps it).",
            file_okay=False,
        ),
    ] = None,
) -> None:
    """Resolve calls at the table in short form, with repeat, undo and a dated log.

    Example: quartermaster play flob   (then type: broadside attack=5, again, undo, quit)
    """
    from generator.play import PlaySession, run_prompt

    link = None
    rules = None
    if game is not None:
        from generator.app.games import TableGame, game_rules
        from generator.app.games import game as kept_game
        from generator.app.saved import open_store
        from generator.errors import InputError

        if rules_file is not None:
            raise InputError("--rules: a game is played by its own house rules; leave it out")
        store = open_store(data)
        found = kept_game(store, game)
        if found.ruleset != ruleset:
            raise InputError(f"--game: game {game} is played by {found.ruleset}, not {ruleset}")
        link = TableGame(store, found)
        rules = game_rules(found)
    session = PlaySession(
        rules or load_rules(rules_file),
        ruleset,
        fresh_seed() if seed is None else seed,
        output,
        game=link,
    )
    run_prompt(session, sys.stdin.isatty(), typer.echo)
