"""The command line: thin Typer commands that convert options and call one core function.

Every `QuartermasterError` becomes one line per problem on stderr and its exit code
(2 for bad input); a usage error is one line too. No traceback reaches the user.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import click
import typer

from generator import __version__, completion
from generator.assignments import parse_assignments
from generator.errors import DataError, InputError, QuartermasterError, one_line
from generator.suggest import unknown

if TYPE_CHECKING:
    from generator.generate.scenario import Order
    from generator.loading import Rules, Ruleset


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


def check_ruleset(rules: Rules, ruleset_id: str) -> Ruleset:
    """Return the ruleset `ruleset_id`, or refuse naming the nearest and the list."""
    ruleset = rules.rulesets.get(ruleset_id)
    if ruleset is None:
        raise InputError(unknown("ruleset", ruleset_id, rules.rulesets))
    return ruleset


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
    from generator.listing import show_table, show_tables, table_json, tables_json
    from generator.lookup import find_table

    rules = _load_rules(rules_file)
    if "." in target:
        table = find_table(rules, target)
        if as_json:
            _print_json(table_json(table))
        else:
            show_table(table)
        return
    ruleset = check_ruleset(rules, target)
    if as_json:
        _print_json(tables_json(ruleset))
    else:
        show_tables(ruleset)


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
    from generator.listing import show_lookup
    from generator.lookup import find_table, lookup, read_values

    rules = _load_rules(rules_file)
    result = lookup(rules, table_id, read_values(find_table(rules, table_id), values or []))
    if as_json:
        _print_json(result.to_json())
    else:
        show_lookup(result)


SeedOption = Annotated[
    int | None,
    typer.Option("--seed", help="Seed for the random source; the same seed repeats the result."),
]


def fresh_seed() -> int:
    """Return a new seed to print, so any unseeded result can be repeated."""
    import secrets

    return secrets.randbelow(2**31)


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
    import random

    from generator.dice import parse, roll
    from generator.dice.rolling import check_times
    from generator.dice.show import show_roll

    expression = _expression(words, "roll")
    node = parse(expression)
    check_times(expression, node, times)
    used = fresh_seed() if seed is None else seed
    rng = random.Random(used)
    results = [roll(node, rng) for _ in range(times)]
    for result in results:
        result.expression = expression
    if as_json:
        objects = [{**r.to_json(), "seed": used} for r in results]
        _print_json(objects[0] if times == 1 else objects)
        return
    for i, result in enumerate(results):
        show_roll(result, used if i == len(results) - 1 else None)


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
    from generator.dice import distribution, mean
    from generator.dice.show import odds_json, show_odds, show_versus, versus_json
    from generator.dice.versus import vs_distribution

    expression = _expression(words, "odds")

    dist = distribution(expression)
    if vs is not None:
        # 'odds '1d20<=14' --vs 1d6>=5' unquoted: the shell took '>=5' from --vs
        vs = _expression([vs], f"odds '{expression}' --vs")
        vs_dist = vs_distribution(vs)
        if as_json:
            _print_json(versus_json(expression, dist, vs, vs_dist))
        else:
            show_versus(expression, dist, vs, vs_dist)
    elif as_json:
        _print_json(odds_json(expression, dist, mean(dist)))
    else:
        show_odds(expression, dist, mean(dist))


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
    from generator.resolve import all_resolvers, get_resolver
    from generator.resolve.show import (
        resolver_json,
        resolvers_json,
        show_resolver,
        show_resolvers,
    )

    rules = _load_rules(rules_file)
    if ruleset is not None and "." in ruleset:
        resolver = get_resolver(ruleset)
        if as_json:
            _print_json(resolver_json(resolver, rules))
        else:
            show_resolver(resolver, rules)
        return
    chosen = [r for r in all_resolvers().values() if ruleset in (None, r.ruleset)]
    if ruleset is not None and not chosen:
        raise InputError(unknown("ruleset", ruleset, rules.rulesets))
    if as_json:
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
    if show_help or resolver_id is None:
        if resolver_id is None and not show_help:
            raise click.UsageError("Missing argument 'RESOLVER_ID'.", ctx)
        typer.echo(ctx.get_help())
        if resolver_id is not None:
            from generator.resolve import get_resolver
            from generator.resolve.show import show_resolver

            typer.echo("")
            show_resolver(get_resolver(resolver_id), _load_rules(rules_file))
        return
    from generator.resolve import get_resolver, parse_inputs
    from generator.resolve.engine import odds, run
    from generator.resolve.show import odds_json, show_odds, show_resolution

    rules = _load_rules(rules_file)
    resolver = get_resolver(resolver_id)
    inputs = parse_inputs(resolver, rules, parse_assignments(values or [], "inputs"))
    if want_odds:
        chances = odds(resolver, rules, inputs)
        if as_json:
            _print_json(odds_json(resolver, inputs, chances))
        else:
            show_odds(resolver, inputs, chances)
        return
    resolution = run(resolver, rules, inputs, fresh_seed() if seed is None else seed)
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


def _numbers(option: str, text: str | None) -> tuple[int, ...]:
    if text is None:
        return ()
    try:
        return tuple(int(part) for part in text.split(","))
    except ValueError:
        raise InputError(f"{option} {text}: whole numbers, e.g. 3 or 3,4") from None


def _words(text: str | None) -> tuple[str, ...]:
    return tuple(p.strip().lower() for p in text.split(",")) if text else ()


def _order(ships: str | None, navies: str | None, year: int | None, balanced: bool = True) -> Order:
    from generator.generate.scenario import Order

    return Order(_numbers("--ships", ships), _words(navies), year, balanced)


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


def _check_data_output(
    output: Path | None, force: bool, inputs: Sequence[Path | None] = ()
) -> None:
    """Refuse, before anything is read or rolled, an ``-o`` file the command may not write.

    `inputs` are the files the command reads: `output` never replaces one of them.
    """
    if output is not None:
        from generator.output import check_target

        check_target(output, force=force, kind="data", inputs=inputs)


def _check_pdf_output(output: Path | None, force: bool, inputs: Sequence[Path | None]) -> None:
    """Refuse, before anything is read or rolled, an ``-o`` PDF the command may not write
    (a file named after what is rolled is checked once it is known)."""
    if output is not None:
        from generator.output import check_target

        check_target(output, force=force, kind="pdf", inputs=inputs)


def _check_input(path: Path | None, option: str, takes: str) -> None:
    """Refuse a file given to `option` that is plainly not the text file it takes (a PDF,
    say), naming what it is and what the option takes, rather than a byte it trips on."""
    if path is None:
        return
    try:
        with path.open("rb") as stream:
            head = stream.read(1024)
    except OSError:
        return  # missing or unreadable: the reader says which, naming the file
    for magic, what in NOT_TEXT.items():
        if head.startswith(magic):
            raise InputError(f"{path}: this is {what}; {option} takes {takes}")


# files people hand over by mistake, by how they start (a stray control character in a
# text file is the YAML reader's to report, with its line)
NOT_TEXT = {
    b"%PDF-": "a PDF",
    b"PK\x03\x04": "a ZIP archive (or an office document)",
    b"\x89PNG\r\n": "a PNG image",
    b"\xff\xd8\xff": "a JPEG image",
}

# what each file option takes, for `_check_input`
SCENARIO_FILE = "a scenario file (JSON or YAML, as 'quartermaster scenario -o' writes)"
FLEET_FILE = "a fleet file (JSON or YAML, as 'quartermaster fleet -o' writes)"
SCENARIO_OR_FLEET_FILE = (
    "a scenario or fleet file (JSON or YAML, as 'quartermaster scenario -o' or 'fleet -o' writes)"
)
CHARACTER_FILE = "a character file (JSON or YAML, as 'quartermaster character -o' writes)"
RULES_FILE = "a house-rules file (YAML)"


def _load_rules(rules_file: Path | None) -> Rules:
    """Return the rules, with the house rules in `rules_file` (checked first) if given."""
    from generator.loading import load_rules

    _check_input(rules_file, "--rules", RULES_FILE)
    return load_rules(rules_file)


def _check_navies(
    rules: Rules, ruleset: str, navies: Sequence[str], year: int | None, option: str
) -> None:
    """Refuse a navy the ruleset does not field, naming `option` as it was typed, with the
    nearest navy it does field; `check_order` checks the rest of the order."""
    from generator.generate.base import get_generator
    from generator.generate.scenario import fielded_navies

    gen = get_generator(ruleset)
    if gen.units != "ships" or not navies:
        return
    if year is not None:
        low, high = gen.years(rules)
        if not low <= year <= high:
            return  # `check_order` refuses the year first
    every = fielded_navies(rules, gen, None)
    can = every if year is None else fielded_navies(rules, gen, year)
    when = f" in {year}" if year is not None else ""
    for navy in navies:
        if navy in every and navy not in can:
            raise InputError(f"{option} {navy}: {ruleset} fields {', '.join(can)}{when}")
        if navy not in can:
            listing = f"{ruleset} fields{when}"
            raise InputError(f"{option}: {unknown('navy', navy, can, listing=listing)}")


def _say_uneven(scenario: dict[str, Any]) -> None:
    """Say on stderr, in one line, that the sides could not be balanced (the briefing
    prints the same line)."""
    from generator.generate.scenario import balance_warning

    uneven = balance_warning(scenario)
    if uneven is not None:
        typer.echo(f"warning: {uneven}", err=True)


def _emit(
    data: dict[str, object],
    as_json: bool,
    as_yaml: bool,
    output: Path | None,
    force: bool,
) -> bool:
    """Print or write generated data; return True if it was handled (not human output).

    `output` was checked by `_check_data_output` before anything was rolled or read.
    """
    from generator.generate.scenario import dump
    from generator.output import write_atomic

    if output is not None:
        fmt = "yaml" if as_yaml or output.suffix.lower() in (".yaml", ".yml") else "json"
        write_atomic(output, dump(data, fmt).encode("utf-8"))
        typer.echo(f"wrote {output}")
        return True
    if as_json or as_yaml:
        sys.stdout.write(dump(data, "yaml" if as_yaml else "json"))
        return True
    return False


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
    from generator.generate.base import get_generator
    from generator.generate.scenario import check_order, read_force, roll_force
    from generator.generate.show import show_force

    rules = _load_rules(rules_file)
    check_ruleset(rules, ruleset)
    gen = get_generator(ruleset)
    if gen.units != "ships":
        raise InputError(
            f"{ruleset} has no fleets: use 'quartermaster character' or "
            f"'quartermaster scenario {ruleset}'"
        )
    order = _order(None if ships is None else str(ships), navy, year, balanced=False)
    _check_navies(rules, ruleset, order.navies, year, "--navy")
    check_order(rules, ruleset, order)
    if from_file is not None and (
        seed is not None or ships is not None or navy or year is not None
    ):
        raise InputError(
            "--from: the fleet is read from the file; no --seed, --ships, --navy or --year"
        )
    _check_input(from_file, "--from", FLEET_FILE)
    _check_data_output(output, force_write, (from_file, rules_file))
    force = (
        read_force(from_file, rules, ruleset)
        if from_file
        else roll_force(rules, ruleset, _seed(seed), order)
    )
    if not _emit(force, as_json, as_yaml, output, force_write):
        show_force(force, gen.units, gen.summary_fields)


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
    from generator.generate.base import get_generator
    from generator.generate.show import show_force
    from generator.rulesets import serving

    rules = _load_rules(rules_file)
    gen = get_generator(serving("character")[0])
    if from_file is not None and seed is not None:
        raise InputError("--from: the character is read from the file; no --seed")
    _check_input(from_file, "--from", CHARACTER_FILE)
    _check_data_output(output, force, (from_file, rules_file))
    person = (
        gen.read_character(from_file, rules)
        if from_file
        else gen.roll_character(rules, _seed(seed))
    )
    if not _emit(person, as_json, as_yaml, output, force):
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
    from generator.generate.base import get_generator
    from generator.generate.scenario import (
        check_order,
        read_scenario,
        roll_scenario,
        scenario_from_sides,
    )
    from generator.generate.show import show_scenario

    rules = _load_rules(rules_file)
    check_ruleset(rules, ruleset)
    order = _order(ships, navies, year, balanced)
    _check_navies(rules, ruleset, order.navies, year, "--navies")
    check_order(rules, ruleset, order)
    if from_file is not None and (sides or seed is not None):
        raise InputError("--from: the scenario is read from the file; no --seed or --side")
    if sides and (ships or navies):
        raise InputError("--side: the fleet files say the ships and navies; no --ships or --navies")
    _check_input(from_file, "--from", SCENARIO_FILE)
    for side in sides or ():
        _check_input(side, "--side", FLEET_FILE)
    _check_data_output(output, force, (from_file, rules_file, *(sides or ())))
    if from_file is not None:
        scenario = read_scenario(from_file, rules, ruleset)
    elif sides:
        scenario = scenario_from_sides(rules, ruleset, sides, _seed(seed), year, balanced)
    else:
        scenario = roll_scenario(rules, ruleset, _seed(seed), order)
    _say_uneven(scenario)
    if not _emit(scenario, as_json, as_yaml, output, force):
        gen = get_generator(ruleset)
        show_scenario(scenario, gen.units, gen.summary_fields)


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
    from generator.output import check_target, write_atomic
    from generator.render.sheets import (
        FLEET_KINDS,
        PAPERS,
        default_path,
        get_kind,
        load_sheet_data,
        render_sheet,
    )

    rules = _load_rules(rules_file)
    sheet = get_kind(kind)
    if ruleset is not None and ruleset not in sheet.rulesets:
        raise InputError(
            f"--ruleset {ruleset}: the {kind} sheet serves {', '.join(sheet.rulesets)}"
        )
    if paper.lower() not in PAPERS:
        raise InputError(f"--paper {paper}: choose a4 or letter")
    if sheet.data == "character":
        takes = CHARACTER_FILE
    elif kind in FLEET_KINDS:
        takes = SCENARIO_OR_FLEET_FILE
    else:
        takes = SCENARIO_FILE
    _check_input(from_file, "--from", takes)
    _check_pdf_output(output, force, (from_file, rules_file))
    data = load_sheet_data(sheet, rules, ruleset, from_file, seed)
    chosen = ruleset or (str(data["ruleset"]) if data and "ruleset" in data else None)
    target = output or default_path(kind, chosen, seed, paper.lower(), mono, fillable)
    check_target(target, force=force, kind="pdf", inputs=(from_file, rules_file))
    pdf = render_sheet(
        kind, rules, data=data, ruleset=chosen, paper=paper.lower(), mono=mono, fillable=fillable
    )
    write_atomic(target, pdf)
    typer.echo(f"wrote {target}")


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
    from generator.generate.scenario import check_order, read_scenario, roll_scenario
    from generator.output import check_target, write_atomic
    from generator.pdf.packet import build_packet, check_packet_options
    from generator.rulesets import default_ruleset

    paper = paper.lower()
    leave_out = _words(without)
    check_packet_options(paper, leave_out, spares)
    if title is not None and (not title.strip() or len(title) > 120):
        raise InputError("--title: from 1 to 120 characters")
    rules = _load_rules(rules_file)
    if ruleset is not None:
        check_ruleset(rules, ruleset)
    if from_file is not None:
        if seed is not None or ships or navies or year is not None:
            raise InputError(
                "--from: the scenario is read from the file; no --seed, --ships, --navies or --year"
            )
        _check_input(from_file, "--from", SCENARIO_FILE)
        _check_pdf_output(output, force, (from_file, rules_file))
        # without a RULESET, the file says which it is
        scenario = read_scenario(from_file, rules, ruleset)
        ruleset = str(scenario["ruleset"])
    else:
        ruleset = ruleset or default_ruleset()
        order = _order(ships, navies, year, balanced)
        _check_navies(rules, ruleset, order.navies, year, "--navies")
        check_order(rules, ruleset, order)
        _check_pdf_output(output, force, (rules_file,))
        scenario = roll_scenario(rules, ruleset, _seed(seed), order)
    _say_uneven(scenario)
    if title is not None:
        scenario["title"] = title.strip()
    suffix = "".join(
        part
        for part, on in (("-letter", paper == "letter"), ("-mono", mono), ("-fillable", fillable))
        if on
    )
    target = output or Path("output") / f"packet-{ruleset}-{scenario['seed']}{suffix}.pdf"
    handout_paths = handout_names(target, scenario) if handouts else []
    for path in (target, *handout_paths):
        check_target(path, force=force, kind="pdf", inputs=(from_file, rules_file))
    _say_notes()  # every check passed: the seed is worth saying while the packet is made
    with _status("Making the packet") as step:
        packet = build_packet(
            rules,
            scenario,
            paper=paper,
            mono=mono,
            fillable=fillable,
            without=frozenset(leave_out),
            spares=spares,
            progress=step,
        )
        step("putting the pages together")
        pdfs = [packet.write()]
        for index in range(len(handout_paths)):
            step(f"handout for {scenario['sides'][index].get('name', '')}")
            pdfs.append(packet.write(sides={index}))
    write_atomic(target, pdfs[0])
    typer.echo(f"wrote {target}")
    for index, handout in enumerate(handout_paths):
        side = scenario["sides"][index]
        write_atomic(handout, pdfs[index + 1])
        typer.echo(f"wrote {handout} ({side.get('name', '')})")


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


def handout_names(target: Path, scenario: dict[str, Any]) -> list[Path]:
    """Return the paths of the sides' handouts beside `target`, named by navy
    (``packet-flob-7-british.pdf``), numbered where two sides share a navy."""
    navies = [str(side.get("navy") or f"side{i + 1}") for i, side in enumerate(scenario["sides"])]
    names = [f"{navy}-{i + 1}" if navies.count(navy) > 1 else navy for i, navy in enumerate(navies)]
    return [target.with_name(f"{target.stem}-{name}.pdf") for name in names]


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
    from generator.generate.scenario import check_order
    from generator.pdf.batch import (
        BatchOptions,
        check_batch_options,
        check_batch_targets,
        read_manifest,
        run_batch,
    )
    from generator.pdf.packet import check_packet_options

    paper = paper.lower()
    leave_out = _words(without)
    check_packet_options(paper, leave_out, spares)
    rules = _load_rules(rules_file)
    chosen = _words(rulesets)
    for ruleset in chosen:
        check_ruleset(rules, ruleset)
    order = _order(ships, navies, year, balanced)
    for ruleset in chosen:
        _check_navies(rules, ruleset, order.navies, year, "--navies")
        check_order(rules, ruleset, order)
    if seed is None and resume:
        existing = read_manifest(output)
        seed = int(existing["seed"]) if existing else None
    options = BatchOptions(
        rulesets=chosen,
        seed=_seed(seed),
        count=count,
        balanced=balanced,
        paper=paper,
        mono=mono,
        fillable=fillable,
        cache=not no_cache,
        rules_file=str(rules_file) if rules_file else None,
        ships=order.ships,
        navies=order.navies,
        year=year,
        without=leave_out,
        spares=spares,
    )
    check_batch_options(options, jobs)
    check_batch_targets(output, options, force=force)
    _say_notes()  # every check passed: the seed is worth saying while the batch runs
    if sys.stderr.isatty():
        from rich.progress import Progress

        with Progress(transient=False) as bar:
            task = bar.add_task(f"{', '.join(chosen)} packets", total=count)
            manifest = run_batch(
                output,
                options,
                jobs=jobs,
                resume=resume,
                progress=lambda done, total: bar.update(task, completed=done),
            )
    else:
        manifest = run_batch(output, options, jobs=jobs, resume=resume)
    pages = sum(p["pages"] for p in manifest["packets"])
    typer.echo(f"wrote {len(manifest['packets'])} packets ({pages} pages) to {output}")


# what a command has to say on stderr once it is past its checks ("seed N"): never before
# an error about what was typed, which the note would only bury
_NOTES: list[str] = []


def _seed(seed: int | None) -> int:
    """Return `seed`, or a fresh one, which is said ("seed N") when the work is under way
    (`_say_notes`) or done, never ahead of an error about what was typed."""
    if seed is None:
        chosen = fresh_seed()
        _NOTES.append(f"seed {chosen}")
        return chosen
    return seed


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
