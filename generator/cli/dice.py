"""The dice commands: roll, odds.

Each imports the dice it rolls and the way it prints them when it runs: every command module
is imported at each start-up, and these (about 40 ms of imports, measured with ``python -X
importtime``) would slow every other command and each shell completion.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from generator.cli.common import Command, JsonOption, SeedOption, print_json
from generator.errors import InputError

commands = typer.Typer()


@commands.command("roll", cls=Command)
def roll_command(
    words: Annotated[
        list[str],
        typer.Argument(
            help="Dice notation, e.g. 2d6+3 (spaces allowed: 2d6 + 3), 4d6kh3, '8d6>=5', "
            "'1d20+5>=15' (quote anything with > or <).",
            metavar="EXPRESSION",
            show_default=False,
        ),
    ],
    seed: SeedOption = None,
    times: Annotated[
        int, typer.Option("--times", min=1, max=10_000, help="Roll this many times.")
    ] = 1,
    as_json: JsonOption = False,
) -> None:
    """Roll dice and show every die, kept and dropped.

    Examples: quartermaster roll 2d6+3; quartermaster roll 4d6kh3 --seed 1805 --times 6;
    quartermaster roll '8d6>=5'
    """
    from generator.app.rolls import roll_dice
    from generator.dice.show import show_roll

    rolls = roll_dice(_expression(words, "roll"), times, seed)
    if as_json:
        objects = [{**r.to_json(), "seed": rolls.seed} for r in rolls.results]
        print_json(objects[0] if times == 1 else objects)
        return
    for i, result in enumerate(rolls.results):
        show_roll(result, rolls.seed if i == len(rolls.results) - 1 else None)


@commands.command("odds", cls=Command)
def odds_command(
    words: Annotated[
        list[str],
        typer.Argument(
            help="Dice notation, e.g. 2d6, 3d6 + 2, '8d6>=5', '1d20<=14' (quote anything "
            "with > or <: the shell reads them as redirections).",
            metavar="EXPRESSION",
            show_default=False,
        ),
    ],
    vs: Annotated[
        str | None,
        typer.Option(
            "--vs",
            help="Compare with this dice expression: show how often the first rolls higher "
            "(beats), the same (ties) or lower (loses), e.g. --vs 1d20+3. Quote it if it "
            "has spaces.",
            metavar="EXPRESSION",
            show_default=False,
        ),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Show the exact chance of every total, with at-least and at-most columns; with --vs,
    the chance that one roll beats, ties or loses to another.

    Examples: quartermaster odds 2d6; quartermaster odds '8d6>=5' --json;
    quartermaster odds 1d20+5 --vs 1d20+3
    """
    from generator.app.rolls import dice_odds, versus_odds
    from generator.dice.show import odds_json, show_odds, show_versus, versus_json

    odds = dice_odds(_expression(words, "odds"))
    expression, dist = odds.expression, odds.chances
    if vs is not None:
        # 'odds '1d20<=14' --vs 1d6>=5' unquoted: the shell took '>=5' from --vs
        vs = _expression([vs], f"odds '{expression}' --vs")
        vs_dist = versus_odds(vs)
        if as_json:
            print_json(versus_json(expression, dist, vs, vs_dist))
        else:
            show_versus(expression, dist, vs, vs_dist)
    elif as_json:
        print_json(odds_json(expression, dist, odds.mean))
    else:
        show_odds(expression, dist, odds.mean)


def _expression(words: list[str], command: str) -> str:
    """Return the dice expression typed as one or more words (``2d6 + 3``).

    An unquoted ``8d6>=5`` reaches us as ``8d6`` with the shell writing our output to a
    file named ``=5``: that is refused (and the empty file the shell made is removed)
    rather than answering a question that was not asked.
    """
    expression = " ".join(words)
    redirected = _shell_redirect()
    if redirected is not None and not any(c in expression for c in "<>"):
        name, path = redirected
        try:
            path.unlink()
            removed = f" (the empty file '{name}' the shell made was removed)"
        except OSError:
            removed = ""
        raise InputError(
            f"the shell read '>{name}' as 'write to the file {name}': quote the expression, "
            f"e.g. quartermaster {command} '{expression}>{name}'{removed}"
        )
    return expression


def _shell_redirect() -> tuple[str, Path] | None:
    """Return the name and path of the file stdout was sent to, if it looks like the rest of
    an unquoted comparison (``=5``, ``=14``) and is still empty; else None."""
    try:
        target = Path(os.readlink("/proc/self/fd/1"))
        size = os.fstat(1).st_size
    except OSError:
        return None
    name = target.name
    if size == 0 and name.startswith("=") and name[1:].strip().isdigit():
        return name, target
    return None
