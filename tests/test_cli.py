"""The CLI: output shapes, JSON, exit codes and one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, run


def test_rulesets_lists_all_six(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rulesets", "--json")
    assert code == 0
    assert [r["id"] for r in json.loads(out)] == [
        "duel",
        "high-seas",
        "impulse",
        "convoy",
        "tactical",
        "flob",
    ]
    code, out, _ = run(capsys, "rulesets")
    assert code == 0
    assert "high-seas" in out and "flob" in out


def test_tables_lists_ids_axes_and_values(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "tables", "impulse", "--json")
    assert code == 0
    listing = json.loads(out)
    by_id = {t["id"]: t for t in listing["tables"]}
    damage = by_id["impulse.damage-effects"]
    assert [a["name"] for a in damage["axes"]] == ["roll", "hits"]
    assert damage["axes"][0]["values"][0] == ">21"
    assert damage["axes"][1]["values"] == [str(n) for n in range(1, 13)]
    code, out, _ = run(capsys, "tables", "tactical")
    assert code == 0
    assert "tactical.fleet" in out


def test_tables_prints_one_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "tables", "flob.broadside")
    assert code == 0
    assert "12 or better" in out and "3rr, s" in out
    code, out, _ = run(capsys, "tables", "flob.broadside", "--json")
    table = json.loads(out)
    assert len(table["cells"]) == 21 and all(len(r) == 11 for r in table["cells"])


def test_lookup_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "lookup", "impulse.damage-effects", "roll=11", "hits=4", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["table"] == "impulse.damage-effects"
    assert data["inputs"] == {"roll": 11, "hits": 4}
    assert data["result"] == "2H2R2C"
    assert (data["hull"], data["rigging"], data["crew"]) == (2, 2, 2)


def test_lookup_open_end_shows_the_row(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "lookup", "flob.broadside", "attack=15", "roll=2")
    assert code == 0
    assert "3rr, s" in out
    assert "12 or better" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("lookup", "flob.broadside", "attack=5"), "missing roll=VALUE"),
        (
            ("lookup", "flob.broadside", "attack=5", "roll"),
            "'roll': lookup values are written NAME=VALUE",
        ),
        (
            ("lookup", "flob.broadside", "attack=5", "roll=99"),
            "roll=99: not on the table (valid: 2..12)",
        ),
        (("tables", "pirates"), "unknown ruleset 'pirates'"),
        (("lookup", "nope.nope", "a=1"), "unknown table 'nope.nope'"),
        (("rulesets", "--bogus"), "--bogus"),
        (
            ("rulesets", "--rules", str(FIXTURES / "house" / "unknown-table.yaml")),
            "unknown table 'flob.broadsides'",
        ),
        (("rulesets", "--rules", "/no/such/file.yaml"), "/no/such/file.yaml: cannot read"),
    ],
)
def test_bad_input_is_one_line_exit_2(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ")
    assert message in lines[0]
    assert "Traceback" not in err
    if "--bogus" in args:
        assert "No such option" in lines[0]


def test_every_validation_problem_gets_its_own_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "tables", "flob", "--rules", str(FIXTURES / "house" / "types.yaml"))
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) >= 5
    assert all(line.startswith("error: ") and "types.yaml:" in line for line in lines)


def test_house_rules_apply_to_lookup(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("lookup", "tactical.wind-change", "roll=5", "--json")
    _, out, _ = run(capsys, *args)
    assert (
        json.loads(out)["result"].startswith("On a roll of 1-5")
        or "same" in json.loads(out)["result"]
    )
    _, out, _ = run(capsys, *args, "--rules", str(FIXTURES / "house" / "ok.yaml"))
    assert json.loads(out)["result"] == "The wind changes: roll on the wind table"


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--version")
    assert code == 0
    assert out.startswith("quartermaster 0.")


def test_console_script_runs_as_a_process(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "generator", "lookup", "tactical.wind", "roll=3"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "North" in proc.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["roll", "2d6", "--seed", "1"],
        ["odds", "8d6>=5"],
        ["lookup", "flob.broadside", "attack=5", "roll=7"],
        ["resolve", "tactical.flight-test", "--seed", "1"],
        ["resolve", "tactical.flight-test", "--odds"],
    ],
)
def test_table_commands_never_import_weasyprint(args: list[str]) -> None:
    code = (
        "import sys\n"
        "from generator.cli import main\n"
        f"try:\n    main({args!r})\n"
        "except SystemExit as exc:\n    assert exc.code in (0, None), exc.code\n"
        "assert 'weasyprint' not in sys.modules, 'weasyprint was imported'\n"
        "assert 'pypdf' not in sys.modules, 'pypdf was imported'\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr


def test_fleet_json_and_file_output(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "fleet", "tactical", "--seed", "1805", "--json")
    assert code == 0
    fleet = json.loads(out)
    assert fleet["ruleset"] == "tactical" and fleet["seed"] == 1805
    target = tmp_path / "fleet.yaml"
    code, out, _ = run(capsys, "fleet", "tactical", "--seed", "1805", "-o", str(target))
    assert code == 0 and out.strip() == f"wrote {target}"
    code, out, _ = run(capsys, "fleet", "tactical", "--from", str(target), "--json")
    assert code == 0 and json.loads(out) == fleet


def test_scenario_without_seed_prints_the_seed_it_used(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "scenario", "tactical", "--json")
    assert code == 0
    seed = json.loads(out)["seed"]
    assert err.strip() == f"seed {seed}"


def test_character_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "character", "--seed", "7", "--json")
    assert code == 0
    assert json.loads(out)["hit_points"] > 0


def test_bad_from_file_is_refused_with_its_key_path(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("ruleset: tactical\nseed: 1\ntitle: x\nsides: nope\n")
    code, out, err = run(capsys, "scenario", "tactical", "--from", str(bad))
    assert code == 2 and out == ""
    assert f"error: {bad}:4: sides: expected a list of sides, found" in err


def test_fleet_for_duel_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "fleet", "duel")
    assert code == 2
    assert "duel has no fleets" in err


def test_an_internal_error_is_one_line_not_a_traceback(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import generator.lookup

    def broken(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(generator.lookup, "lookup", broken)
    code, out, err = run(capsys, "lookup", "tactical.wind", "roll=3")
    assert code == 1 and out == ""
    (line,) = err.strip().splitlines()
    assert line.startswith(
        "error: internal error (ZeroDivisionError in test_cli.py: division by zero)"
    )
    assert "QM_DEBUG=1" in line
