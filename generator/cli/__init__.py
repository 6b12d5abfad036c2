"""The command line: thin Typer commands that convert options into a request, call one
function of the application layer (`generator.app`, which the web app calls too) and
report what it made.

`app` gathers the commands of the modules beside this one, in the order `quartermaster
--help` lists them: tables (rulesets, tables, lookup), dice (roll, odds), resolve
(resolvers, resolve, play), generate (fleet, character, scenario), printing (sheet, packet,
batch); common holds what they share. `main` runs it: every `QuartermasterError` becomes one
line per problem on stderr and its exit code (2 for bad input); a usage error is one line
too. No traceback reaches the user.

Each command imports the part of `generator.app` it calls when it runs, not at the top:
`roll 2d6` answers in a blink because it loads neither the rules nor the renderers.
"""

from __future__ import annotations

import functools
import os
import sys
from typing import Annotated

import click
import typer

from generator import __version__
from generator.cli import dice, generate, printing, resolve, tables, web
from generator.cli.common import NOTES, fail, say_notes
from generator.errors import DataError, QuartermasterError
from generator.suggest import unknown

app = typer.Typer(
    name="quartermaster",
    help="Rule tables, dice and printable sheets for age-of-sail wargames and duels.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    # an unknown command is answered by `main` through `unknown`, as every other name is
    # (Typer's suggestion came on top of Click's: 'Did you mean' twice)
    suggest_commands=False,
)
# added without a name, a module's commands join the root's, in this order
app.add_typer(tables.commands)
app.add_typer(dice.commands)
app.add_typer(resolve.commands)
app.add_typer(generate.commands)
app.add_typer(printing.commands)
app.add_typer(web.commands)


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


def _unknown_command(exc: click.exceptions.NoSuchCommand) -> str:
    """Return the one line for a command that is not one: the nearest, then the list."""
    group = exc.ctx.command if exc.ctx is not None else None
    names = group.list_commands(exc.ctx) if isinstance(group, click.Group) and exc.ctx else []
    return unknown("command", exc.command_name, names)


@functools.cache
def _command() -> click.Command:
    """The Click command of `app`, built once per process: calling `app` has Typer build it
    again from every command's signature each time (60 ms, most of a quick command's run
    when `main` is called in-process: the tests, the docs check)."""
    return typer.main.get_command(app)


# Ctrl-C anywhere but in a batch (which says how far it got: `BatchInterrupted`)
INTERRUPTED = "interrupted: nothing was left half-written"


def main(argv: list[str] | None = None) -> None:
    """Run the CLI; turn our errors and usage errors into one-line messages."""
    NOTES.clear()
    try:
        code = _command()(args=argv, prog_name="quartermaster", standalone_mode=False)
    except DataError as exc:
        fail(exc.problems, exc.exit_code)
    except QuartermasterError as exc:
        fail(str(exc), exc.exit_code)
    except click.exceptions.NoArgsIsHelpError as exc:
        # 'quartermaster' alone: the help is the answer, not an error (Click's exit code 2)
        sys.stderr.write(exc.format_message() + "\n")
        sys.exit(2)
    except click.exceptions.NoSuchCommand as exc:
        fail(_unknown_command(exc), 2)
    except click.UsageError as exc:
        hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else ""
        fail(f"{exc.format_message()}{hint}", 2)
    except click.ClickException as exc:
        fail(exc.format_message(), exc.exit_code)
    except (click.exceptions.Abort, KeyboardInterrupt):
        fail(INTERRUPTED, 130)
    except Exception as exc:
        # a bug, not bad input: one line for the user, the traceback with QM_DEBUG=1
        if os.environ.get("QM_DEBUG"):
            raise
        where = exc.__traceback__
        while where is not None and where.tb_next is not None:
            where = where.tb_next
        origin = f" in {where.tb_frame.f_code.co_filename.rsplit('/', 1)[-1]}" if where else ""
        fail(
            f"internal error ({type(exc).__name__}{origin}: {exc}); please report it "
            "with the command you ran (QM_DEBUG=1 shows the traceback)",
            1,
        )
    if code == 130:  # Typer returns Ctrl-C as this exit code (no command returns it)
        fail(INTERRUPTED, 130)
    say_notes()
    sys.exit(code if isinstance(code, int) else 0)
