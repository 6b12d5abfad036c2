"""What the command modules share: the command class, the options several commands take,
JSON printing, the notes and errors said on stderr, and `Told`, what the command line says
while a use of the application layer works.

The rules (`load_rules`) and Rich's status line and progress bar are imported when they are
used, not at the top: this module is imported at every start-up, and `roll 2d6` needs none
of them (the rules' loader alone is about 45 ms of imports, measured with ``python -X
importtime``; Rich's progress bar about 40 ms).
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import click
import typer

from generator.app import Listener
from generator.errors import one_line

if TYPE_CHECKING:
    from generator.loading import Rules


class _Argument(typer.core.TyperArgument):
    """Typer 0.25's argument, keeping its help: click 8.2+ gives `click.Argument` a `help`
    of its own, which Typer's constructor (setting it before calling click's) loses, so
    '--help' printed no argument's help."""

    def __init__(self, *args: Any, help: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, help=help, **kwargs)
        self.help = help


typer.main.TyperArgument = _Argument  # type: ignore[attr-defined]


class Command(typer.core.TyperCommand):
    """A Typer command whose help lists the arguments once: Typer's 'Arguments' section,
    not also click 8.5's 'Positional arguments'."""

    def format_arguments(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Typer's `format_options` lists the arguments already."""


RulesOption = Annotated[
    Path | None,
    typer.Option(
        "--rules",
        help="House-rules YAML file whose tables replace built-in ones.",
        dir_okay=False,
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
SeedOption = Annotated[
    int | None,
    typer.Option("--seed", help="Seed for the random source; the same seed repeats the result."),
]
BalancedOption = Annotated[
    bool,
    typer.Option(
        "--balanced/--unbalanced",
        help="Reroll (from the seed, so still repeatable) until the sides' strengths are "
        "within 10 %; --unbalanced keeps the first roll.",
    ),
]
ShipsOption = Annotated[
    str | None,
    typer.Option(
        "--ships",
        metavar="N[,M]",
        help="Ships a side (N,M for uneven sides); default: the rules' size or their roll.",
    ),
]
NaviesOption = Annotated[
    str | None,
    typer.Option(
        "--navies",
        metavar="A[,B]",
        help="The sides' navies, e.g. british,french (one name fixes the first side).",
    ),
]
YearOption = Annotated[
    int | None,
    typer.Option("--year", help="The year of the action: navies, names and places fit it."),
]
FromOption = Annotated[
    Path | None,
    typer.Option(
        "--from",
        help="A generated file (JSON or YAML) you edited, to use instead of rolling.",
        dir_okay=False,
    ),
]
ForceOption = Annotated[
    bool,
    typer.Option(
        "--force",
        help="Overwrite existing files even if Quartermaster did not write them "
        "(its own output is always replaced).",
    ),
]


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def load_rules(rules_file: Path | None) -> Rules:
    """Return the rules, with the house rules in `rules_file` (checked first) if given."""
    from generator.app.inputs import load_rules

    return load_rules(rules_file)


# what a command has to say on stderr once it is past its checks ("seed N"): never before
# an error about what was typed, which the note would only bury
NOTES: list[str] = []


def say_notes() -> None:
    """Print the notes kept so far on stderr, each once: for a long run, as its work starts
    (what was typed has been checked); else as the command ends, unless it failed on
    what was typed (exit 2)."""
    for note in NOTES:
        sys.stderr.write(note + "\n")
    NOTES.clear()


def fail(problems: str | Sequence[str], code: int) -> NoReturn:
    """Print each problem as one ``error:`` line and exit with `code`.

    A problem quoting what was typed or read (a newline, a terminal escape) shows those
    characters as escapes, so each problem stays exactly one line. The notes kept
    (`say_notes`) come first, but not after bad input (exit 2): the seed of a run that
    never rolled is noise.
    """
    if code == 2:
        NOTES.clear()
    say_notes()
    for problem in [problems] if isinstance(problems, str) else problems or [""]:
        sys.stderr.write(f"error: {one_line(problem)}\n")
    sys.exit(code)


@contextlib.contextmanager
def status(what: str) -> Iterator[Callable[[str], None]]:
    """Show what is being made on a terminal (stderr), one changing line that goes away
    when done; elsewhere (a pipe, a log, a test) nothing. Yields the function to call with
    each step."""
    if not sys.stderr.isatty():
        yield lambda step: None
        return
    from rich.console import Console
    from rich.markup import escape

    with Console(stderr=True).status(f"{what}…") as shown:
        yield lambda step: shown.update(f"{what}: {escape(step)}…")


class Told(Listener):
    """What the command line says while a use works: the notes (the seed drawn) kept for
    `say_notes`, warnings on stderr at once, and on a terminal the steps of the work
    (`status`) or a batch's progress bar, closed with the command's ``with`` block."""

    def __init__(self, status: str | None = None, bar: tuple[str, int] | None = None) -> None:
        self._status = status
        self._bar = bar
        self._open = contextlib.ExitStack()
        self._step: Callable[[str], None] = lambda what: None
        self._progress: Callable[[int], None] = lambda done: None

    def __enter__(self) -> Told:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._open.__exit__(kind, error, trace)

    def note(self, message: str) -> None:
        NOTES.append(message)

    def warn(self, message: str) -> None:
        typer.echo(f"warning: {message}", err=True)

    def start(self) -> None:
        say_notes()  # every check passed: the seed is worth saying while the work runs
        if self._status is not None:
            self._step = self._open.enter_context(status(self._status))
        if self._bar is not None and sys.stderr.isatty():
            from rich.progress import Progress

            bar = self._open.enter_context(Progress(transient=False))
            task = bar.add_task(self._bar[0], total=self._bar[1])
            self._progress = lambda done: bar.update(task, completed=done)

    def step(self, what: str) -> None:
        self._step(what)

    def progress(self, done: int, total: int) -> None:
        self._progress(done)
