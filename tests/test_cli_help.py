"""A command line that helps: did-you-mean, values completed by the shell, input as people
type it, quoted examples, and `-o` that never replaces a file of another kind or an input.

No test here lays out a PDF."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from generator import completion
from generator.suggest import nearest, unknown
from tests.conftest import run

ROOT = Path(__file__).resolve().parent.parent


# --- did you mean -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ("packet", "tacticl"),
            "error: unknown ruleset 'tacticl': did you mean 'tactical'? "
            "(known: duel, high-seas, impulse, convoy, tactical, flob)",
        ),
        (("fleet", "flb"), "error: unknown ruleset 'flb': did you mean 'flob'?"),
        (("resolvers", "impluse"), "error: unknown ruleset 'impluse': did you mean 'impulse'?"),
        (
            ("lookup", "impulse.damage-efects"),
            "error: unknown table 'impulse.damage-efects': did you mean "
            "'impulse.damage-effects'? (tables of impulse: impulse.damage-effects,",
        ),
        (
            ("lookup", "tacticl.broadside"),
            "error: unknown table 'tacticl.broadside': did you mean 'tactical.broadside'?",
        ),
        (
            ("resolve", "flob.broadsid"),
            "error: unknown resolver 'flob.broadsid': did you mean 'flob.broadside'? "
            "(resolvers of flob: flob.turn-order,",
        ),
        (
            ("resolve", "flb.tacking"),
            "error: unknown resolver 'flb.tacking': did you mean 'flob.tacking'?",
        ),
        (
            ("resolve", "flob.broadside", "atack=5"),
            "error: flob.broadside: unknown input 'atack': did you mean 'attack'? (inputs: fire,",
        ),
        (
            ("sheet", "ship-lg"),
            "error: unknown sheet kind 'ship-lg': did you mean 'ship-log'? (kinds: briefing,",
        ),
        (("tables", "tactcal"), "error: unknown ruleset 'tactcal': did you mean 'tactical'?"),
        (
            ("packet", "--without", "mapp"),
            "error: --without: unknown section 'mapp': did you mean 'map'? (choose from: map,",
        ),
    ],
)
def test_an_unknown_name_gets_the_nearest_one_then_the_list(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], line: str
) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1
    assert err.startswith(line)


def test_nothing_close_gives_the_list_alone() -> None:
    assert unknown("ruleset", "zzz", ["flob", "duel"]) == (
        "unknown ruleset 'zzz' (known: flob, duel)"
    )
    assert nearest("BROADSIDE", ["flob.broadside", "broadside"]) == "broadside"
    assert nearest("target admiral", ["target_admiral_on_board", "target_hull"]) is not None
    assert nearest("", ["a"]) is None


# --- one resolver explained -----------------------------------------------------------


def test_the_root_help_lists_the_commands_group_by_group(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # the order of generator.cli's modules: tables, dice, resolvers, rolled data, printing,
    # the web app and its games
    code, out, _ = run(capsys, "--help")
    commands = out.split("Commands:\n", 1)[1]
    listed = [line.split()[0] for line in commands.splitlines() if line.strip()]
    assert code == 0
    assert listed == [
        *("rulesets", "tables", "lookup"),
        *("roll", "odds"),
        *("resolvers", "resolve", "play"),
        *("fleet", "character", "scenario"),
        *("sheet", "packet", "batch"),
        *("serve", "game"),
    ]


def test_resolvers_with_an_id_explains_every_input(capsys: pytest.CaptureFixture[str]) -> None:
    from generator.loading import load_rules
    from generator.resolve import get_resolver

    resolver = get_resolver("flob.broadside")
    rules = load_rules()
    code, out, err = run(capsys, "resolvers", "flob.broadside")
    assert code == 0, err
    flat = " ".join(out.split())
    assert "flob.broadside" in flat
    for param in resolver.params:
        assert param.name in flat
        assert " ".join(param.help.split()) in flat
    # a choice's words, a range, a default
    assert "Double Round Shot" in flat
    ammo = next(p for p in resolver.params if p.name == "ammo")
    assert all(" ".join(w.split()) in flat for w in ammo.allowed(rules))
    code, out, _ = run(capsys, "resolvers", "flob.broadside", "--json")
    assert code == 0
    assert json.loads(out)["id"] == "flob.broadside"


def test_resolve_help_with_an_id_explains_it_and_without_one_is_plain_help(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "resolve", "flob.tacking", "--help")
    assert code == 0
    assert out.startswith("Usage: quartermaster resolve")
    explained = out.split("flob.tacking  Tacking (5.7)", 1)[1]
    for name in ("captain", "unused_points", "masts_lost", "gale"):
        assert name in explained
    assert "the weather is a gale" in explained and "yes/no; default no" in explained
    code, plain, _ = run(capsys, "resolve", "--help")
    assert code == 0 and "gale" not in plain
    # arguments have their help printed (Typer 0.25 with click 8.2+ lost it)
    assert "Resolver id, e.g. flob.broadside." in plain
    assert plain.count("RESOLVER_ID") >= 2 and "Positional arguments" not in plain
    code, _, err = run(capsys, "resolve")
    assert code == 2 and "Missing argument 'RESOLVER_ID'" in err
    code, _, err = run(capsys, "resolve", "flob.tackin", "--help")
    assert code == 2 and "did you mean 'flob.tacking'?" in err


# --- shell completion of values -------------------------------------------------------


def complete(capsys: pytest.CaptureFixture[str], line: str) -> list[str]:
    """Ask the CLI for bash completions of `line` (the last word is being typed)."""
    words = line.split(" ")
    env = {
        "_QUARTERMASTER_COMPLETE": "complete_bash",
        "COMP_WORDS": line,
        "COMP_CWORD": str(len(words) - 1),
    }
    with pytest.MonkeyPatch.context() as patch:
        for key, value in env.items():
            patch.setenv(key, value)
        code, out, _ = run(capsys, *words[1:])
    assert code == 0
    return out.split()


@pytest.mark.parametrize(
    ("line", "wanted"),
    [
        ("quartermaster packet ta", ["tactical"]),
        ("quartermaster play fl", ["flob"]),
        ("quartermaster batch tactical,f", ["tactical,flob"]),
        ("quartermaster lookup flob.bro", ["flob.broadside"]),
        ("quartermaster lookup impulse.damage-effects ", ["roll=", "hits="]),
        ("quartermaster lookup impulse.damage-effects roll=3 ", ["hits="]),
        ("quartermaster tables fl", ["flob", "flob."]),
        ("quartermaster resolvers flob.t", ["flob.turn-order", "flob.tacking"]),
        ("quartermaster resolve flob.tac", ["flob.tacking"]),
        ("quartermaster resolve flob.broadside am", ["ammo="]),
        (
            "quartermaster resolve flob.broadside ammo=double",
            ["ammo=double-round-shot", "ammo=double-round-shot-with-grape"],
        ),
        ("quartermaster resolve flob.tacking gale=", ["gale=yes", "gale=no"]),
        ("quartermaster sheet sh", ["ship-log"]),
        ("quartermaster sheet roster --paper ", ["a4", "letter"]),
        ("quartermaster packet --paper l", ["letter"]),
        ("quartermaster packet --without map,c", ["map,counters", "map,cards"]),
    ],
)
def test_the_shell_completes_values(
    capsys: pytest.CaptureFixture[str], line: str, wanted: list[str]
) -> None:
    assert complete(capsys, line) == wanted


def test_bash_splits_at_equals_and_gets_the_bare_words(capsys: pytest.CaptureFixture[str]) -> None:
    # bash hands 'ammo=do' over as three words: ammo, =, do
    got = complete(capsys, "quartermaster resolve flob.broadside ammo = do")
    assert got == ["double-round-shot", "double-round-shot-with-grape"]


def test_a_completion_that_fails_offers_nothing(tmp_path: Path) -> None:
    class Broken:
        def __init__(self) -> None:
            self.params = {"rules_file": str(tmp_path / "none.yaml"), "table_id": "flob.broadside"}
            self.args: list[str] = []

    assert completion.lookup_values(Broken(), "") == []  # type: ignore[arg-type]


# --- input as people type it ---------------------------------------------------------


def test_roll_and_odds_take_spaces(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "roll", "2d6", "+", "3", "--seed", "1")
    assert code == 0 and out.startswith("2d6 + 3 = ")
    _, joined, _ = run(capsys, "roll", "2d6+3", "--seed", "1")
    assert out.split("=")[1].split()[0] == joined.split("=")[1].split()[0]
    code, out, _ = run(capsys, "odds", "3d6", "+", "2", "--json")
    assert code == 0 and '"mean"' in out


def test_an_unquoted_comparison_is_caught_and_the_shells_file_removed(tmp_path: Path) -> None:
    # 'quartermaster odds 8d6>=5' unquoted: the shell runs 'odds 8d6' into a file named =5
    target = tmp_path / "=5"
    with target.open("w") as stdout:
        done = subprocess.run(
            [sys.executable, "-m", "generator", "odds", "8d6"],
            stdout=stdout,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
            cwd=tmp_path,
        )
    assert done.returncode == 2
    assert done.stderr.startswith(
        "error: the shell read '>=5' as 'write to the file =5': quote the expression, "
        "e.g. quartermaster odds '8d6>=5'"
    )
    assert not target.exists()


def test_lookup_takes_values_alone_in_axis_order(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "lookup", "tactical.broadside", "7", "--json")
    assert code == 0 and '"roll": 7' in out
    _, named, _ = run(capsys, "lookup", "flob.broadside", "attack=5", "roll=7")
    _, bare, _ = run(capsys, "lookup", "flob.broadside", "5", "7")
    _, mixed, _ = run(capsys, "lookup", "flob.broadside", "roll=7", "5")
    assert named == bare == mixed and "→ rr" in named
    code, _, err = run(capsys, "lookup", "flob.broadside", "5")
    assert code == 2 and err == (
        "error: flob.broadside: 1 value without a name, for the axes attack, roll; write "
        "attack=VALUE roll=VALUE, or one value per axis in that order\n"
    )


def _examples(text: str) -> list[str]:
    return re.findall(r"quartermaster [^;\n`]*", text)


def test_examples_with_comparisons_are_quoted_in_help_and_readme(
    capsys: pytest.CaptureFixture[str],
) -> None:
    texts = [(ROOT / "README.md").read_text(encoding="utf-8")]
    texts += [p.read_text(encoding="utf-8") for p in (ROOT / "docs").glob("*.md")]
    for command in ("roll", "odds", "lookup", "resolve", "packet", "batch", "fleet"):
        texts.append(run(capsys, command, "--help")[1])
    unquoted = [
        example
        for text in texts
        for example in _examples(text)
        if re.search(r"(?<!')\b\d*d\d+[^ ']*[<>]", example)
    ]
    assert unquoted == []
    assert "quartermaster odds '8d6>=5'" in run(capsys, "odds", "--help")[1]


# --- -o never replaces a file of another kind, nor an input ---------------------------


def test_output_kind_and_inputs_are_checked_before_any_work(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    battle = tmp_path / "battle.yaml"
    assert run(capsys, "scenario", "convoy", "--seed", "2", "-o", str(battle))[0] == 0
    before = battle.read_bytes()
    # the file says its ruleset: no 'needs a tactical scenario'
    code, _, err = run(capsys, "packet", "--from", str(battle), "-o", str(battle))
    assert code == 2
    assert err == (f"error: {battle}: this command writes a PDF; give a file name ending in .pdf\n")
    code, _, err = run(capsys, "scenario", "convoy", "--from", str(battle), "-o", str(battle))
    assert code == 2 and "is a file this command reads" in err
    code, _, err = run(
        capsys, "scenario", "convoy", "--from", str(battle), "-o", str(battle), "--force"
    )
    assert code == 2 and "is a file this command reads" in err
    assert battle.read_bytes() == before
    fleet = tmp_path / "fleet.json"
    assert run(capsys, "fleet", "tactical", "--seed", "2", "-o", str(fleet))[0] == 0
    code, _, err = run(capsys, "sheet", "roster", "--from", str(fleet), "-o", str(fleet))
    assert code == 2 and "writes a PDF" in err
    code, _, err = run(capsys, "fleet", "tactical", "--seed", "2", "-o", str(tmp_path / "f.pdf"))
    assert (
        code == 2 and "writes data (JSON or YAML); give a file name ending in .json or .yaml" in err
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["battle.yaml", "fleet.json"]


def test_packet_from_a_file_takes_its_ruleset(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    battle = tmp_path / "battle.yaml"
    run(capsys, "scenario", "convoy", "--seed", "2", "-o", str(battle))
    (tmp_path / "out.pdf").write_text("not ours")
    # refused at the last check before layout: the convoy file was read as convoy
    code, _, err = run(capsys, "packet", "--from", str(battle), "-o", str(tmp_path / "out.pdf"))
    assert code == 2 and "exists and was not written by Quartermaster" in err


# --- a long packet shows what it is doing on a terminal --------------------------------


def test_status_shows_steps_on_a_terminal_only(monkeypatch: pytest.MonkeyPatch) -> None:
    from generator.cli.common import status

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    quiet = io.StringIO()
    monkeypatch.setattr(sys, "stderr", quiet)
    with status("Making the packet") as step:
        step("Ship log: HMS Victory")
    assert quiet.getvalue() == ""
    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    with status("Making the packet") as step:
        step("Ship log: <HMS [Victory]>")
    assert "Making the packet" in screen.getvalue()


def test_ctrl_c_on_a_packet_says_nothing_of_batches(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import generator.pdf.packet as packet

    def pressed(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(packet, "build_packet", pressed)
    code, out, err = run(capsys, "packet", "duel", "--seed", "1", "-o", str(tmp_path / "p.pdf"))
    assert code == 130 and out == ""
    assert err == "error: interrupted: nothing was left half-written\n"
    assert list(tmp_path.iterdir()) == []
