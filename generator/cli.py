"""The command line: thin Typer commands that convert options into a request, call one
function of the application layer (`generator.app`, which the web app calls too) and
report what it made.

Every `QuartermasterError` becomes one line per problem on stderr and its exit code
(2 for bad input); a usage error is one line too. No traceback reaches the user.

Each command imports the part of `generator.app` it calls when it runs, not at the top:
`roll 2d6` answers in a blink because it loads neither the rules nor the renderers.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import click
import typer

from generator import __version__, completion
from generator.app import (
    BatchRequest,
    CharacterRequest,
    FleetRequest,
    Listener,
    PacketRequest,
    PrintOptions,
    ScenarioRequest,
    SheetRequest,
    fresh_seed,
)
from generator.errors import DataError, InputError, QuartermasterError, one_line
from generator.suggest import unknown

if TYPE_CHECKING:
    from generator.app.generated import Generated
    from generator.loading import Rules


class _Argument(typer.core.TyperArgument):
    """Typer 0.25's argument, keeping its help: click 8.2+ gives `click.Argument` a `help`
    of its own, which Typer's constructor (setting it before calling click's) loses, so
    '--help' printed no argument's help."""

    def __init__(self, *args: Any, help: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, help=help, **kwargs)
        self.help = help


typer.main.TyperArgument = _Argument  # type: ignore[attr-defined]


class _Command(typer.core.TyperCommand):
    """A Typer command whose help lists the arguments once: Typer's 'Arguments' section,
    not also click 8.5's 'Positional arguments'."""

    def format_arguments(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Typer's `format_options` lists the arguments already."""


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


@app.command("rulesets", cls=_Command)
def rulesets_command(rules_file: RulesOption = None, as_json: JsonOption = False) -> None:
    """List the rulesets and their tables.

    Example: quartermaster rulesets
    """
    from generator.listing import ruleset_summaries, show_rulesets

    rules = _load_rules(rules_file)
    if as_json:
        _print_json(ruleset_summaries(rules))
    else:
        show_rulesets(rules)


@app.command("tables", cls=_Command)
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
        _print_json(table_json(found))
    elif isinstance(found, Table):
        show_table(found)
    elif as_json:
        _print_json(tables_json(found))
    else:
        show_tables(found)


@app.command("lookup", cls=_Command)
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
        _print_json(result.to_json())
    else:
        show_lookup(result)


SeedOption = Annotated[
    int | None,
    typer.Option("--seed", help="Seed for the random source; the same seed repeats the result."),
]


@app.command("roll", cls=_Command)
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
        _print_json(objects[0] if times == 1 else objects)
        return
    for i, result in enumerate(rolls.results):
        show_roll(result, rolls.seed if i == len(rolls.results) - 1 else None)


@app.command("odds", cls=_Command)
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
            _print_json(versus_json(expression, dist, vs, vs_dist))
        else:
            show_versus(expression, dist, vs, vs_dist)
    elif as_json:
        _print_json(odds_json(expression, dist, odds.mean))
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


@app.command("resolvers", cls=_Command)
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
    from generator.app.table import find_resolvers
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
        _print_json(resolver_json(chosen[0], rules))
    elif one:
        show_resolver(chosen[0], rules)
    elif as_json:
        _print_json(resolvers_json(chosen, rules))
    else:
        show_resolvers(chosen, rules)


@app.command("resolve", cls=_Command, context_settings={"help_option_names": []})
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
    from generator.app.table import ResolveRequest, find_resolver, resolve, resolve_odds
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
            _print_json(odds_json(made.resolver, made.inputs, made.chances))
        else:
            show_odds(made.resolver, made.inputs, made.chances)
        return
    resolution = resolve(request)
    if as_json:
        _print_json(resolution.to_json())
    else:
        show_resolution(resolution)


@app.command("play", cls=_Command)
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
) -> None:
    """Resolve calls at the table in short form, with repeat, undo and a dated log.

    Example: quartermaster play flob   (then type: broadside attack=5, again, undo, quit)
    """
    from generator.play import PlaySession, run_prompt

    session = PlaySession(
        _load_rules(rules_file), ruleset, fresh_seed() if seed is None else seed, output
    )
    run_prompt(session, sys.stdin.isatty(), typer.echo)


YamlOption = Annotated[bool, typer.Option("--yaml", help="Print YAML instead of JSON.")]
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
OutputFile = Annotated[
    Path | None,
    typer.Option("-o", "--output", help="Write to this file (.json or .yaml).", dir_okay=False),
]
PdfOutputFile = Annotated[
    Path | None,
    typer.Option(
        "-o", "--output", help="Write the PDF here instead of under output/.", dir_okay=False
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


def _load_rules(rules_file: Path | None) -> Rules:
    """Return the rules, with the house rules in `rules_file` (checked first) if given."""
    from generator.app.inputs import load_rules

    return load_rules(rules_file)


class _Told(Listener):
    """What the command line says while a use works: the notes (the seed drawn) kept for
    `_say_notes`, warnings on stderr at once, and on a terminal the steps of the work
    (`_status`) or a batch's progress bar, closed with the command's ``with`` block."""

    def __init__(self, status: str | None = None, bar: tuple[str, int] | None = None) -> None:
        self._status = status
        self._bar = bar
        self._open = contextlib.ExitStack()
        self._step: Callable[[str], None] = lambda what: None
        self._progress: Callable[[int], None] = lambda done: None

    def __enter__(self) -> _Told:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._open.__exit__(kind, error, trace)

    def note(self, message: str) -> None:
        _NOTES.append(message)

    def warn(self, message: str) -> None:
        typer.echo(f"warning: {message}", err=True)

    def start(self) -> None:
        _say_notes()  # every check passed: the seed is worth saying while the work runs
        if self._status is not None:
            self._step = self._open.enter_context(_status(self._status))
        if self._bar is not None and sys.stderr.isatty():
            from rich.progress import Progress

            bar = self._open.enter_context(Progress(transient=False))
            task = bar.add_task(self._bar[0], total=self._bar[1])
            self._progress = lambda done: bar.update(task, completed=done)

    def step(self, what: str) -> None:
        self._step(what)

    def progress(self, done: int, total: int) -> None:
        self._progress(done)


def _report(made: Generated, as_json: bool, as_yaml: bool) -> bool:
    """Say where generated data was written, or print it as JSON or YAML; return False if
    it is for a terminal listing instead."""
    if made.written is not None:
        typer.echo(f"wrote {made.written}")
    elif as_json or as_yaml:
        sys.stdout.write(made.text(as_yaml))
    else:
        return False
    return True


@app.command("fleet", cls=_Command)
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
    made = make_fleet(request, _Told())
    if not _report(made, as_json, as_yaml):
        show_force(made.data, made.units, made.fields)


@app.command("character", cls=_Command)
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
    made = make_character(request, _Told())
    if not _report(made, as_json, as_yaml):
        person = made.data
        show_force(
            {"name": person["name"], "seed": person.get("seed"), "characters": [person]},
            "characters",
        )


@app.command("scenario", cls=_Command)
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
        ships=ships,
        navies=navies,
        year=year,
        balanced=balanced,
        sides=tuple(sides or ()),
        from_file=from_file,
        rules_file=rules_file,
        output=output,
        as_yaml=as_yaml,
        force=force,
    )
    made = make_scenario(request, _Told())
    if not _report(made, as_json, as_yaml):
        show_scenario(made.data, made.units, made.fields)


@app.command("sheet", cls=_Command)
def sheet_command(
    kind: Annotated[
        str,
        typer.Argument(
            help="Sheet kind, e.g. duel-record (see --help for the list).",
            autocompletion=completion.sheet_kinds,
        ),
    ],
    ruleset: Annotated[
        str | None,
        typer.Option(
            "--ruleset",
            help="The ruleset, for kinds that serve several.",
            autocompletion=completion.rulesets,
        ),
    ] = None,
    from_file: FromOption = None,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Roll the data the sheet is about from this seed.")
    ] = None,
    paper: Annotated[
        str, typer.Option("--paper", help="a4 or letter.", autocompletion=completion.papers)
    ] = "a4",
    mono: Annotated[
        bool, typer.Option("--mono", help="Black and white only, for laser printers.")
    ] = False,
    fillable: Annotated[
        bool, typer.Option("--fillable", help="Make write-in boxes PDF form fields.")
    ] = False,
    rules_file: RulesOption = None,
    output: PdfOutputFile = None,
    force: ForceOption = False,
) -> None:
    """Print one sheet to PDF: blank, from a generated file (--from) or rolled (--seed).

    Kinds: briefing, roster, ship-log, map, counters, cards, playsheet, quick-reference,
    character, duel-record. A kind that does not serve the ruleset asked for says which
    rulesets it serves.

    Example: quartermaster sheet ship-log --ruleset tactical --seed 1805 --paper letter
    """
    from generator.app.printed import write_sheet

    request = SheetRequest(
        kind=kind,
        ruleset=ruleset,
        from_file=from_file,
        seed=seed,
        printing=PrintOptions(paper, mono, fillable),
        rules_file=rules_file,
        output=output,
        force=force,
    )
    typer.echo(f"wrote {write_sheet(request).name}")


PaperOption = Annotated[
    str, typer.Option("--paper", help="a4 or letter.", autocompletion=completion.papers)
]
MonoOption = Annotated[
    bool, typer.Option("--mono", help="Black and white only, for laser printers.")
]
FillableOption = Annotated[
    bool, typer.Option("--fillable", help="Make write-in boxes PDF form fields.")
]
WithoutOption = Annotated[
    str | None,
    typer.Option(
        "--without",
        metavar="SECTIONS",
        help="Leave out these sections, comma-separated: map, counters, cards, playsheet, "
        "quick-reference, spares, gm-notes.",
        autocompletion=completion.sections,
    ),
]
SparesOption = Annotated[
    int | None,
    typer.Option("--spares", help="How many blank logs (or records) to add; default 1."),
]


@app.command("packet", cls=_Command)
def packet_command(
    ruleset: Annotated[
        str | None,
        typer.Argument(
            help="The ruleset (default: the one 'quartermaster rulesets' marks).",
            autocompletion=completion.rulesets,
        ),
    ] = None,
    seed: SeedOption = None,
    ships: ShipsOption = None,
    navies: NaviesOption = None,
    year: YearOption = None,
    balanced: BalancedOption = True,
    from_file: FromOption = None,
    without: WithoutOption = None,
    spares: SparesOption = None,
    title: Annotated[
        str | None,
        typer.Option("--title", help="The scenario's title instead of the rolled one."),
    ] = None,
    paper: PaperOption = "a4",
    mono: MonoOption = False,
    fillable: FillableOption = False,
    handouts: Annotated[
        bool,
        typer.Option(
            "--handouts",
            help="Also write one PDF per side with only what its players need (their roster "
            "and logs, the quick reference), named by navy.",
        ),
    ] = False,
    rules_file: RulesOption = None,
    output: PdfOutputFile = None,
    force: ForceOption = False,
) -> None:
    """Make a game-night packet: briefing, each side's roster and logs, quick reference,
    cards, counters and map, bookmarked, imposed for double-sided printing.

    The sides are balanced (strengths within 10 %) unless --unbalanced.

    Examples: quartermaster packet tactical --seed 1805 --paper letter --handouts;
    quartermaster packet flob --ships 3 --navies british,french --year 1798 --without map
    """
    from generator.app.printed import write_packet

    request = PacketRequest(
        ruleset=ruleset,
        seed=seed,
        ships=ships,
        navies=navies,
        year=year,
        balanced=balanced,
        from_file=from_file,
        without=without,
        spares=spares,
        title=title,
        printing=PrintOptions(paper, mono, fillable),
        handouts=handouts,
        rules_file=rules_file,
        output=output,
        force=force,
    )
    with _Told(status="Making the packet") as told:
        files = write_packet(request, told)
    for made in files:
        typer.echo(f"wrote {made.name}" + ("" if made.side is None else f" ({made.side})"))


@contextlib.contextmanager
def _status(what: str) -> Iterator[Callable[[str], None]]:
    """Show what is being made on a terminal (stderr), one changing line that goes away
    when done; elsewhere (a pipe, a log, a test) nothing. Yields the function to call with
    each step."""
    if not sys.stderr.isatty():
        yield lambda step: None
        return
    from rich.console import Console
    from rich.markup import escape

    with Console(stderr=True).status(f"{what}…") as status:
        yield lambda step: status.update(f"{what}: {escape(step)}…")


@app.command("batch", cls=_Command)
def batch_command(
    rulesets: Annotated[
        str,
        typer.Argument(
            help="The ruleset, or several comma-separated (taken in turn), e.g. tactical,flob.",
            autocompletion=completion.ruleset_list,
        ),
    ],
    count: Annotated[int, typer.Option("--count", help="How many packets.", min=1)],
    output: Annotated[
        Path, typer.Option("-o", "--output", help="Folder for the batch.", file_okay=False)
    ],
    seed: SeedOption = None,
    ships: ShipsOption = None,
    navies: NaviesOption = None,
    year: YearOption = None,
    balanced: BalancedOption = True,
    without: WithoutOption = None,
    spares: SparesOption = None,
    jobs: Annotated[int, typer.Option("--jobs", help="Worker processes.", min=1)] = 2,
    resume: Annotated[
        bool, typer.Option("--resume", help="Finish an interrupted batch, keeping whole packets.")
    ] = False,
    no_cache: Annotated[
        bool, typer.Option("--no-cache", help="Lay every page out afresh (same bytes, slower).")
    ] = False,
    paper: PaperOption = "a4",
    mono: MonoOption = False,
    fillable: FillableOption = False,
    rules_file: RulesOption = None,
    force: ForceOption = False,
) -> None:
    """Make a convention batch: COUNT different, reproducible packets with distinct titles,
    a manifest and an index. The sides are balanced unless --unbalanced.

    Examples: quartermaster batch tactical --count 40 --seed 2026 -o con/;
    quartermaster batch tactical,flob --count 12 --ships 4 --without gm-notes -o club/
    """
    from generator.app.checks import words
    from generator.app.printed import make_batch

    request = BatchRequest(
        rulesets=rulesets,
        count=count,
        output=output,
        seed=seed,
        ships=ships,
        navies=navies,
        year=year,
        balanced=balanced,
        without=without,
        spares=spares,
        jobs=jobs,
        resume=resume,
        cache=not no_cache,
        printing=PrintOptions(paper, mono, fillable),
        rules_file=rules_file,
        force=force,
    )
    with _Told(bar=(f"{', '.join(words(rulesets))} packets", count)) as told:
        manifest = make_batch(request, told)
    pages = sum(p["pages"] for p in manifest["packets"])
    typer.echo(f"wrote {len(manifest['packets'])} packets ({pages} pages) to {output}")


# what a command has to say on stderr once it is past its checks ("seed N"): never before
# an error about what was typed, which the note would only bury
_NOTES: list[str] = []


def _say_notes() -> None:
    """Print the notes kept so far on stderr, each once: for a long run, as its work starts
    (what was typed has been checked); else as the command ends, unless it failed on
    what was typed (exit 2)."""
    for note in _NOTES:
        sys.stderr.write(note + "\n")
    _NOTES.clear()


def _fail(problems: str | Sequence[str], code: int) -> NoReturn:
    """Print each problem as one ``error:`` line and exit with `code`.

    A problem quoting what was typed or read (a newline, a terminal escape) shows those
    characters as escapes, so each problem stays exactly one line. The notes kept
    (`_say_notes`) come first, but not after bad input (exit 2): the seed of a run that
    never rolled is noise.
    """
    if code == 2:
        _NOTES.clear()
    _say_notes()
    for problem in [problems] if isinstance(problems, str) else problems or [""]:
        sys.stderr.write(f"error: {one_line(problem)}\n")
    sys.exit(code)


def _unknown_command(exc: click.exceptions.NoSuchCommand) -> str:
    """Return the one line for a command that is not one: the nearest, then the list."""
    group = exc.ctx.command if exc.ctx is not None else None
    names = group.list_commands(exc.ctx) if isinstance(group, click.Group) and exc.ctx else []
    return unknown("command", exc.command_name, names)


# Ctrl-C anywhere but in a batch (which says how far it got: `BatchInterrupted`)
INTERRUPTED = "interrupted: nothing was left half-written"


def main(argv: list[str] | None = None) -> None:
    """Run the CLI; turn our errors and usage errors into one-line messages."""
    _NOTES.clear()
    try:
        code = app(args=argv, prog_name="quartermaster", standalone_mode=False)
    except DataError as exc:
        _fail(exc.problems, exc.exit_code)
    except QuartermasterError as exc:
        _fail(str(exc), exc.exit_code)
    except click.exceptions.NoArgsIsHelpError as exc:
        # 'quartermaster' alone: the help is the answer, not an error (Click's exit code 2)
        sys.stderr.write(exc.format_message() + "\n")
        sys.exit(2)
    except click.exceptions.NoSuchCommand as exc:
        _fail(_unknown_command(exc), 2)
    except click.UsageError as exc:
        hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else ""
        _fail(f"{exc.format_message()}{hint}", 2)
    except click.ClickException as exc:
        _fail(exc.format_message(), exc.exit_code)
    except (click.exceptions.Abort, KeyboardInterrupt):
        _fail(INTERRUPTED, 130)
    except Exception as exc:
        # a bug, not bad input: one line for the user, the traceback with QM_DEBUG=1
        if os.environ.get("QM_DEBUG"):
            raise
        where = exc.__traceback__
        while where is not None and where.tb_next is not None:
            where = where.tb_next
        origin = f" in {where.tb_frame.f_code.co_filename.rsplit('/', 1)[-1]}" if where else ""
        _fail(
            f"internal error ({type(exc).__name__}{origin}: {exc}); please report it "
            "with the command you ran (QM_DEBUG=1 shows the traceback)",
            1,
        )
    if code == 130:  # Typer returns Ctrl-C as this exit code (no command returns it)
        _fail(INTERRUPTED, 130)
    _say_notes()
    sys.exit(code if isinstance(code, int) else 0)
