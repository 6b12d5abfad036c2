"""Fuzz everything a user types: resolver inputs, play lines, lookups and CLI options.

Whatever is typed, the answer is a result or the project's own error, shown as exactly
one ``error:`` line with exit code 2: never a traceback, never an "internal error"
(issue #7). Dice notation has its own fuzzing in test_dice.py. The examples are
derandomized, so CI runs the same cases every time.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import generator.pdf.batch
import generator.pdf.packet
import generator.render.sheets
import generator.resolve.engine as engine
from generator.assignments import parse_assignments
from generator.cli import main
from generator.dice import parse
from generator.dice.rolling import MAX_ROLLED_DICE, check_times
from generator.errors import DataError, InputError, one_line
from generator.loading import load_rules
from generator.lookup import lookup
from generator.play import PlaySession
from generator.resolve import ResolveInputError, Resolver, all_resolvers, get_resolver, parse_inputs

RULES = load_rules()
RESOLVERS = list(all_resolvers().values())
TABLES = [table for ruleset in RULES.rulesets.values() for table in ruleset.tables.values()]
RULESET_IDS = list(RULES.rulesets)


def fuzz(examples: int) -> Any:
    """Hypothesis settings for these tests: deterministic, no deadline, no database."""
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


# What people (and cats on keyboards) type: numbers in every spelling, huge and negative
# ones, empty words, '=' signs, whitespace, line breaks, terminal escapes, bidi overrides,
# combining marks, emoji and markup.
AWKWARD = [
    "",
    " ",
    "0",
    "-0",
    "+5",
    "-1",
    "1e3",
    "1.5",
    "nan",
    "inf",
    "٣",
    "１２",
    "1_000",
    "0x10",
    "9" * 5000,
    "-" + "9" * 40,
    str(2**64),
    "yes",
    "no",
    "none",
    "=",
    "a=b",
    "==",
    "\n",
    "5\n6",
    "\x1b[31mred",
    "\u202eevil",
    "e\u0301",
    "🏴‍☠️",
    "<b>x</b>",
    ",",
    "a,b,,c",
    "\x00",
    "\t7\t",
    "\x1c",
    "\u2028",
]
VALUES = st.one_of(
    st.sampled_from(AWKWARD),
    st.integers().map(str),
    st.integers(-40, 240).map(str),
    st.floats().map(str),
    st.text(max_size=12),
)
SEEDS = st.one_of(st.integers(-(2**70), 2**70), st.integers(0, 2**31))


def _words(resolver: Resolver) -> list[str]:
    """The choice words a resolver accepts, to reach past the first check."""
    words = ["x"]
    for param in resolver.params:
        if param.kind == "choice":
            words.extend(param.allowed(RULES))
    return words


@st.composite
def resolver_call(draw: st.DrawFn, resolver: Resolver) -> list[str]:
    """NAME=VALUE words: one of the resolver's examples with a few words changed or added."""
    example = dict(draw(st.sampled_from(resolver.examples)))
    names = [p.name for p in resolver.params] or ["x"]
    for _ in range(draw(st.integers(0, 3))):
        name = draw(st.one_of(st.sampled_from(names), st.text(max_size=8)))
        example[name] = draw(st.one_of(VALUES, st.sampled_from(_words(resolver))))
    words = [f"{k}={v}" for k, v in example.items()]
    if draw(st.integers(0, 4)) == 0:
        words.append(draw(st.one_of(st.sampled_from(AWKWARD), st.text(max_size=8))))
    return words


# --- running the CLI -----------------------------------------------------------------

SEED_NOTE = re.compile(r"seed -?\d+")


def cli(*args: str, stdin: str = "") -> tuple[int, str, str]:
    """Run `main` in-process; return the exit code, stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    code: Any = 0
    with (
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
        mock.patch.object(sys, "stdin", io.StringIO(stdin)),
    ):
        try:
            main(list(args))
        except SystemExit as exc:
            code = exc.code
    return (
        (code if isinstance(code, int) else 0 if code is None else 1),
        out.getvalue(),
        err.getvalue(),
    )


def assert_answer_or_one_error_line(code: int, err: str, args: tuple[str, ...]) -> None:
    """Exit 0, or exit 2 with exactly one ``error:`` line (a "seed N" note may precede it)."""
    lines = [line for line in err.splitlines() if not SEED_NOTE.fullmatch(line)]
    assert code in (0, 2), f"{args!r} exited {code}: {err}"
    if code == 2:
        assert len(lines) == 1, f"{args!r}: {err!r}"
        assert lines[0].startswith("error: "), f"{args!r}: {err!r}"
    else:
        assert not any(line.startswith("error") for line in lines), f"{args!r}: {err!r}"


# --- resolver inputs -----------------------------------------------------------------


@fuzz(250)
@given(data=st.data())
def test_resolver_inputs_give_a_result_or_an_input_error(data: st.DataObject) -> None:
    resolver = data.draw(st.sampled_from(RESOLVERS), label="resolver")
    words = data.draw(resolver_call(resolver), label="words")
    want_odds = data.draw(st.booleans(), label="odds")
    try:
        inputs = parse_inputs(resolver, RULES, parse_assignments(words, "inputs"))
        if want_odds:
            # a smaller budget keeps the fuzzing fast; refusing is a fine answer here
            with mock.patch.object(engine, "MAX_PATHS", 20_000):
                chances = engine.odds(resolver, RULES, inputs)
            assert sum(chances.values()) == Fraction(1)
        else:
            resolution = engine.run(resolver, RULES, inputs, data.draw(SEEDS, label="seed"))
            json.dumps(resolution.to_json())
    except InputError as exc:
        assert str(exc).strip()


@fuzz(120)
@given(data=st.data())
def test_resolve_command_answers_or_prints_one_error_line(data: st.DataObject) -> None:
    resolver = data.draw(st.sampled_from(RESOLVERS), label="resolver")
    name = data.draw(
        st.one_of(st.just(resolver.id), st.sampled_from(AWKWARD), st.text(max_size=10)),
        label="id",
    )
    args = ["resolve", name, *data.draw(resolver_call(resolver), label="words")]
    seed = data.draw(st.one_of(st.none(), SEEDS.map(str), st.sampled_from(AWKWARD)))
    if seed is not None:
        args += ["--seed", seed]
    args += data.draw(st.lists(st.sampled_from(["--json", "--bogus", "-"]), max_size=2))
    # the odds of the slow ones (fights in rounds) are fuzzed above with a small budget
    if data.draw(st.booleans()) and resolver.id not in ("high-seas.boarding", "flob.boarding"):
        args.append("--odds")
    with mock.patch.object(engine, "MAX_PATHS", 20_000):
        code, out, err = cli(*args)
    assert_answer_or_one_error_line(code, err, tuple(args))
    if code == 0 and "--json" in args:
        json.loads(out)


def test_resolver_inputs_name_what_is_wrong() -> None:
    resolver = get_resolver("tactical.flight-test")
    with pytest.raises(ResolveInputError, match=r"courage=1\.5: expected a whole number"):
        parse_inputs(resolver, RULES, {"courage": "1.5"})
    with pytest.raises(ResolveInputError, match=r"courage=9+: at most 20"):
        parse_inputs(resolver, RULES, {"courage": "9" * 30})
    with pytest.raises(ResolveInputError, match=r"courage=9{40}\.\.\.\(4000 characters\): at most"):
        parse_inputs(resolver, RULES, {"courage": "9" * 4000})
    # more digits than Python reads: said so, and the value shown cut short
    with pytest.raises(
        ResolveInputError, match=r"courage=9{40}\.\.\.\(5000 characters\): too many digits"
    ):
        parse_inputs(resolver, RULES, {"courage": "9" * 5000})
    with pytest.raises(InputError, match=r"attack=-9{39}\.\.\.\(4002 characters\): too many"):
        lookup(RULES, "flob.broadside", {"attack": "-" + "9" * 4001, "roll": "7"})
    with pytest.raises(
        ResolveInputError,
        match=r"unknown input 'c\x1bourage': did you mean 'courage'\? \(inputs: flagship",
    ):
        parse_inputs(resolver, RULES, {"c\x1bourage": "1"})


def test_stepped_odds_share_one_budget() -> None:
    """A fight in rounds with big crews is refused, not counted for hours (issue #7).

    Each round's states used to have a budget of their own, so 300 against 300 over 100
    turns ran for hours; now the whole count shares one.
    """
    resolver = get_resolver("high-seas.boarding")
    inputs = parse_inputs(resolver, RULES, {"boarders_trained": "40", "defenders_trained": "40"})
    with (
        mock.patch.object(engine, "MAX_PATHS", 3000),
        pytest.raises(ResolveInputError, match="too many possible rolls to count exactly"),
    ):
        engine.odds(resolver, RULES, inputs)
    # the examples still count exactly within the real budget
    small = parse_inputs(resolver, RULES, dict(resolver.examples[0]))
    assert sum(engine.odds(resolver, RULES, small).values()) == 1


# --- play ----------------------------------------------------------------------------

PLAY_WORDS = [
    "roll 2d6",
    "roll",
    "roll 1000d10000",
    "odds 2d6",
    "odds",
    "odds 8d6>=5",
    "odds broadside",
    "lookup",
    "lookup broadside attack=5 roll=7",
    "lookup nosuch",
    "again",
    "repeat",
    "undo",
    "log",
    "list",
    "help",
    "?",
    "'unclosed",
    '"',
    "\\",
    "# a comment",
]


@st.composite
def play_line(draw: st.DrawFn) -> str:
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return draw(st.sampled_from(PLAY_WORDS))
    if kind == 1:
        resolver = draw(st.sampled_from(RESOLVERS))
        short = resolver.id.split(".", 1)[1]
        head = draw(st.sampled_from([short, resolver.id, f"odds {short}"]))
        if head.startswith("odds") and resolver.id.endswith("boarding"):
            head = short
        words = " ".join(draw(resolver_call(resolver)))
        return f"{head} {words}"
    if kind == 2:
        table = draw(st.sampled_from(TABLES))
        axes = [a.name for a in table.axes] or ["modifier"]
        words = " ".join(f"{draw(st.sampled_from(axes))}={draw(VALUES)}" for _ in range(2))
        return f"lookup {table.id} {words}"
    return draw(st.text(max_size=20))


@pytest.fixture(scope="module")
def play_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("play")


@fuzz(150)
@given(data=st.data())
def test_play_lines_are_answered_never_raised(data: st.DataObject, play_dir: Path) -> None:
    ruleset = data.draw(st.sampled_from(RULESET_IDS), label="ruleset")
    session = PlaySession(RULES, ruleset, 7, play_dir)
    for line in data.draw(st.lists(play_line(), min_size=1, max_size=4), label="lines"):
        with mock.patch.object(engine, "MAX_PATHS", 20_000):
            reply = session.handle(line)
        assert isinstance(reply, str)
        if reply.startswith("error: "):
            assert len(reply.splitlines()) == 1, reply
            assert one_line(reply) == reply


@fuzz(25)
@given(
    ruleset=st.one_of(st.sampled_from(RULESET_IDS), st.sampled_from(AWKWARD)),
    seed=st.one_of(st.none(), SEEDS.map(str), st.sampled_from(AWKWARD)),
    lines=st.lists(play_line(), max_size=4),
)
def test_play_command_answers_or_prints_one_error_line(
    ruleset: str, seed: str | None, lines: list[str], play_dir: Path
) -> None:
    args = ["play", ruleset, "-o", str(play_dir / "logs")]
    if seed is not None:
        args += ["--seed", seed]
    # a line break inside a typed line would be two lines at the prompt
    stdin = "\n".join(line.replace("\n", " ").replace("\r", " ") for line in lines) + "\n"
    with mock.patch.object(engine, "MAX_PATHS", 20_000):
        code, _, err = cli(*args, stdin=stdin)
    assert_answer_or_one_error_line(code, err, tuple(args))


def test_play_errors_show_control_characters_as_escapes(tmp_path: Path) -> None:
    session = PlaySession(RULES, "flob", 1, tmp_path)
    reply = session.handle("broadside attack=5\x0b6\x1b[2J")
    assert reply.count("\n") == 0 and "\x1b" not in reply
    assert reply.startswith("error: flob.broadside: attack=5\\x0b6\\x1b[2J: expected")


# --- lookups -------------------------------------------------------------------------


@st.composite
def lookup_values(draw: st.DrawFn, table: Any) -> dict[str, str]:
    names = [a.name for a in table.axes] + ["modifier"]
    labels = [v.label for a in table.axes for v in a.values]
    labels += [m.id for m in table.modifiers] + [m.label for m in table.modifiers]
    values = {}
    for name in names:
        if draw(st.integers(0, 5)):
            values[name] = draw(st.one_of(VALUES, st.sampled_from(labels or ["x"])))
    if draw(st.integers(0, 3)) == 0:
        values[draw(st.text(max_size=6))] = draw(VALUES)
    return values


@fuzz(400)
@given(data=st.data())
def test_lookups_give_a_cell_or_a_lookup_error(data: st.DataObject) -> None:
    table = data.draw(st.sampled_from(TABLES), label="table")
    values = data.draw(lookup_values(table), label="values")
    try:
        found = lookup(RULES, table.id, values)
    except InputError as exc:
        assert str(exc).strip()
        return
    json.dumps(found.to_json())


@fuzz(120)
@given(data=st.data())
def test_lookup_command_answers_or_prints_one_error_line(data: st.DataObject) -> None:
    table = data.draw(st.sampled_from(TABLES), label="table")
    table_id = data.draw(
        st.one_of(
            st.just(table.id),
            st.sampled_from(["flob", "flob.", ".broadside", "a.b.c", "", "-"]),
            st.text(max_size=10),
        )
    )
    values = data.draw(lookup_values(table), label="values")
    words = [f"{k}={v}" for k, v in values.items()]
    if data.draw(st.integers(0, 3)) == 0:
        words.append(data.draw(st.sampled_from(AWKWARD)))
    args = ["lookup", table_id, *words]
    if data.draw(st.booleans()):
        args.append("--json")
    code, out, err = cli(*args)
    assert_answer_or_one_error_line(code, err, tuple(args))
    if code == 0 and "--json" in args:
        json.loads(out)


# --- CLI options of every command ----------------------------------------------------

OPTION_VALUES = st.one_of(
    st.sampled_from(AWKWARD),
    st.sampled_from(["a4", "A4", "letter", "LETTER", "legal", "--json", "-o", "--"]),
    st.sampled_from(RULESET_IDS + [t.id for t in TABLES[::7]] + [r.id for r in RESOLVERS[::5]]),
    st.integers().map(str),
    st.text(max_size=10),
)
FLAGS = {"--json", "--yaml", "--odds", "--balanced", "--mono", "--fillable", "--resume"}
FLAGS |= {"--no-cache", "--handouts", "--force"}
COMMANDS: dict[str, list[str]] = {
    "rulesets": ["--json"],
    "tables": ["--json"],
    "lookup": ["--json"],
    "roll": ["--seed", "--times", "--json"],
    "odds": ["--json"],
    "resolvers": ["--json"],
    "resolve": ["--seed", "--json"],
    "fleet": ["--seed", "--json", "--yaml"],
    "character": ["--seed", "--json", "--yaml"],
    "scenario": ["--seed", "--json", "--yaml"],
    "sheet": ["--seed", "--paper", "--ruleset", "--mono", "--fillable", "--force"],
    "packet": ["--seed", "--paper", "--mono", "--fillable", "--handouts", "--force"],
    "batch": ["--seed", "--count", "--jobs", "--paper", "--no-cache", "--mono", "-o"],
}
POSITIONAL: dict[str, list[str]] = {
    "sheet": ["duel-record", "character", "quick-reference", "ship-log", "roster", "map"],
    "roll": ["2d6", "4d6kh3", "8d6>=5", "1000d6"],
    "odds": ["2d6", "8d6>=5"],
}


@st.composite
def command_line(draw: st.DrawFn) -> list[str]:
    command = draw(st.sampled_from(sorted(COMMANDS)))
    args = [command]
    extra = POSITIONAL.get(command, RULESET_IDS)
    if draw(st.integers(0, 3)):
        args.append(draw(st.sampled_from(extra)))
    for _ in range(draw(st.integers(0, 4))):
        if draw(st.booleans()):
            option = draw(st.sampled_from([*COMMANDS[command], "--bogus", "--seeds"]))
            args.append(option)
            if option == "-o":
                args.append(draw(st.sampled_from(["batch", "batch/inner"])))
            elif option not in FLAGS:
                args.append(draw(OPTION_VALUES))
        else:
            args.append(draw(OPTION_VALUES))
    return args


class _Packet:
    def write(self, sides: object = None) -> bytes:
        return b"%PDF-1.7 stub"


@contextlib.contextmanager
def no_pdfs() -> Iterator[None]:
    """Stub the slow renderers (a laid-out sheet still builds its HTML, which checks its
    options; a drawn one is drawn: it is fast)."""

    def sheet(kind: str, rules: Any, **options: Any) -> bytes:
        if generator.render.sheets.get_kind(kind).drawn:
            return generator.render.sheets.drawn_pdf(kind, rules, **options)
        generator.render.sheets.sheet_html(kind, rules, **options)
        return b"%PDF-1.7 stub"

    def batch(folder: Path, options: Any, **kwargs: Any) -> dict[str, Any]:
        return {"packets": []}

    with (
        tempfile.TemporaryDirectory() as folder,
        contextlib.chdir(folder),
        mock.patch.object(generator.render.sheets, "render_sheet", sheet),
        mock.patch.object(generator.pdf.packet, "build_packet", lambda *args, **kwargs: _Packet()),
        mock.patch.object(generator.pdf.batch, "run_batch", batch),
    ):
        yield


@fuzz(300)
@given(args=command_line())
def test_every_command_answers_or_prints_one_error_line(args: list[str]) -> None:
    with no_pdfs():
        code, out, err = cli(*args)
    assert_answer_or_one_error_line(code, err, tuple(args))
    if code == 0 and "--json" in args and not {"--help", "--yaml"} & set(args):
        json.loads(out)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("roll", "2d6", "--seed", "1e3"), "'1e3' is not a valid integer"),
        (("roll", "2d6", "--times", "0"), "0 is not in the range 1<=x<=10000"),
        (("roll", "2d6", "--times", str(2**70)), "is not in the range"),
        (("sheet", "roster", "--paper", "legal"), "--paper legal: choose a4 or letter"),
        (("packet", "tactical", "--paper", "a5"), "--paper a5: choose a4 or letter"),
        (("batch", "tactical", "--count", "0", "-o", "b"), "0 is not in the range x>=1"),
        (("batch", "tactical", "--count", "2", "--jobs", "-1", "-o", "b"), "x>=1"),
        (("scenario", "pirates"), "unknown ruleset 'pirates'"),
        (("tables", "flob.\x1b[2J"), "unknown table 'flob.\\x1b[2J'"),
        (("lookup", "flob.broadside", "attack=5\n6", "roll=7"), "attack=5\\n6: expected"),
        (("resolve", "\u202eflob.broadside"), "unknown resolver '\\u202eflob.broadside'"),
        (("tables", "a", "b\nc"), "Got unexpected extra argument (b\\nc)"),
    ],
)
def test_bad_options_are_one_line(args: tuple[str, ...], message: str) -> None:
    with no_pdfs():
        code, out, err = cli(*args)
    assert code == 2, err
    assert out == ""
    (line,) = err.splitlines()
    assert line.startswith("error: ") and message in line


def test_many_problems_are_one_line_each(monkeypatch: pytest.MonkeyPatch) -> None:
    import generator.loading

    def broken(*args: object, **kwargs: object) -> None:
        raise DataError(["house.yaml:3: 'a\nb' is odd", "house.yaml:9: \x1b[31mred"])

    monkeypatch.setattr(generator.loading, "load_rules", broken)
    code, _, err = cli("rulesets")
    assert code == 2
    assert err.splitlines() == [
        "error: house.yaml:3: 'a\\nb' is odd",
        "error: house.yaml:9: \\x1b[31mred",
    ]


def test_quartermaster_alone_prints_the_help() -> None:
    code, out, err = cli()
    assert code == 2 and out == ""
    assert err.startswith("Usage: quartermaster") and "error:" not in err


def test_rolling_many_times_is_capped_by_the_dice_thrown() -> None:
    """--times 10000 of 10000 dice would print gigabytes; the cap counts dice, not repeats."""
    node = parse("1000d6+2d4")
    check_times("1000d6+2d4", node, MAX_ROLLED_DICE // 1002)
    with pytest.raises(InputError, match=r"--times 100: 1000d6\+2d4 throws 1002 dice a time"):
        check_times("1000d6+2d4", node, 100)
    check_times("7", parse("7"), 10_000)
    code, out, err = cli("roll", "1000d6", "--times", "1000", "--seed", "1")
    assert code == 2 and out == ""
    assert err.strip() == (
        "error: --times 1000: 1000d6 throws 1000 dice a time, over 100000 in all "
        "(at most --times 100)"
    )


# --- the same JSON in every process --------------------------------------------------

JSON_COMMANDS = [
    ["roll", "4d6kh3+2", "--seed", "1805", "--times", "3", "--json"],
    ["odds", "8d6>=5", "--json"],
    ["lookup", "flob.broadside", "attack=5", "roll=7", "--json"],
    ["lookup", "impulse.damage-modifiers", "modifier=with-the-wind", "--json"],
    ["resolve", "flob.broadside", "attack=5", "--seed", "7", "--json"],
    ["resolve", "duel.attack", "expertise=12", "weapon=Rapier", "strength=12", "--json"],
    ["resolve", "tactical.flight-test", "courage=1", "--odds", "--json"],
    ["resolvers", "convoy", "--json"],
    ["tables", "tactical", "--json"],
    ["character", "--seed", "3", "--json"],
    ["fleet", "high-seas", "--seed", "3", "--json"],
]
_PRINT_ALL = (
    "import contextlib, io, json, sys\n"
    "from generator.cli import main\n"
    "outputs = []\n"
    "for args in json.loads(sys.argv[1]):\n"
    "    out = io.StringIO()\n"
    "    with contextlib.redirect_stdout(out):\n"
    "        try:\n"
    "            main(args)\n"
    "        except SystemExit as exc:\n"
    "            assert exc.code in (0, None), (args, exc.code)\n"
    "    outputs.append(out.getvalue())\n"
    "sys.stdout.write(json.dumps(outputs))\n"
)


def test_json_outputs_are_the_same_bytes_in_every_process_and_hash_seed() -> None:
    runs = []
    # the seed of a resolve without --seed is fresh each time; give every command one
    commands = [
        [*c, "--seed", "11"] if c[0] == "resolve" and "--seed" not in c and "--odds" not in c else c
        for c in JSON_COMMANDS
    ]
    for hash_seed in ("0", "12345"):
        proc = subprocess.run(
            [sys.executable, "-c", _PRINT_ALL, json.dumps(commands)],
            capture_output=True,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
            check=True,
        )
        runs.append(proc.stdout)
    assert runs[0] == runs[1]
    outputs = json.loads(runs[0])
    assert all(json.loads(text) for text in outputs)
    # and a separate process of its own gives the same bytes as the batch above
    alone = subprocess.run(
        [sys.executable, "-m", "generator", *commands[0]],
        capture_output=True,
        env={**os.environ, "PYTHONHASHSEED": "random"},
        check=True,
    )
    assert alone.stdout.decode("utf-8") == outputs[0]
