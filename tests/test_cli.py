"""The CLI: output shapes, JSON, exit codes and one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, run
from tests.pdfs import flat, read


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
        "assert 'reportlab' not in sys.modules, 'reportlab was imported'\n"
        "assert 'jinja2' not in sys.modules, 'jinja2 was imported'\n"
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


def refused_in_one_line(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """Run `args`: exit 2, nothing on stdout, exactly one ``error:`` line (returned), and no
    "seed N" note before it."""
    code, out, err = run(capsys, *args)
    assert (code, out) == (2, ""), err
    (line,) = err.splitlines()
    assert line.startswith("error: ")
    return line.removeprefix("error: ")


def test_an_unknown_command_suggests_once(capsys: pytest.CaptureFixture[str]) -> None:
    line = refused_in_one_line(capsys, "tabels")
    assert line.startswith("unknown command 'tabels': did you mean 'tables'? (known: rulesets")
    assert line.count("did you mean") + line.count("Did you mean") == 1
    line = refused_in_one_line(capsys, "xyzzy")
    assert line.startswith("unknown command 'xyzzy' (known: rulesets, tables")


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (("fleet", "flob", "--navy", "britsh"), "--navy"),
        (("scenario", "flob", "--navies", "british,frnch"), "--navies"),
        (("packet", "flob", "--navies", "britsh"), "--navies"),
        (("batch", "flob", "--count", "1", "--navies", "britsh", "-o", "never"), "--navies"),
    ],
)
def test_a_misspelt_navy_is_named_by_its_option_with_the_nearest(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    args: tuple[str, ...],
    option: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    line = refused_in_one_line(capsys, *args)
    typed = args[-1 if args[0] != "batch" else -3].split(",")[-1]
    nearest = {"britsh": "british", "frnch": "french"}[typed]
    assert line.startswith(f"{option}: unknown navy '{typed}': did you mean '{nearest}'? (")
    assert "flob fields: american, british" in line
    # a navy the ruleset knows but did not field that year says the year, not a guess
    line = refused_in_one_line(capsys, "fleet", "flob", "--navy", "american", "--year", "1760")
    assert line.startswith("--navy american: flob fields british") and line.endswith("in 1760")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("args", "takes"),
    [
        (("scenario", "flob"), "--from takes a scenario file"),
        (("packet",), "--from takes a scenario file"),
        (("fleet", "flob"), "--from takes a fleet file"),
        (("character",), "--from takes a character file"),
        (("sheet", "roster"), "--from takes a scenario or fleet file"),
        (("sheet", "character"), "--from takes a character file"),
    ],
)
def test_a_pdf_given_to_from_is_named_for_what_it_is(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: tuple[str, ...], takes: str
) -> None:
    pdf = tmp_path / "packet.pdf"
    pdf.write_bytes(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n")
    target = tmp_path / ("out.pdf" if args[0] in ("packet", "sheet") else "out.json")
    line = refused_in_one_line(capsys, *args, "--from", str(pdf), "-o", str(target))
    assert line.startswith(f"{pdf}: this is a PDF; {takes} (JSON or YAML, as 'quartermaster ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["packet.pdf"]
    binary = tmp_path / "picture.png"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    line = refused_in_one_line(capsys, *args, "--from", str(binary))
    assert line.startswith(f"{binary}: this is a PNG image; {takes}")


def test_a_pdf_given_as_house_rules_or_a_side_is_named_too(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pdf = tmp_path / "rules.pdf"
    pdf.write_bytes(b"%PDF-1.4\n")
    line = refused_in_one_line(capsys, "tables", "flob", "--rules", str(pdf))
    assert line == f"{pdf}: this is a PDF; --rules takes a house-rules file (YAML)"
    line = refused_in_one_line(capsys, "scenario", "flob", "--side", str(pdf))
    assert line.startswith(f"{pdf}: this is a PDF; --side takes a fleet file")


@pytest.mark.parametrize(
    "args",
    [
        ("packet", "duel", "--title", " "),
        ("fleet", "flob", "--navy", "britsh"),
        ("scenario", "flob", "--ships", "99"),
        ("scenario", "flob", "-o", "scenario.pdf"),
        ("batch", "duel", "--count", "10001", "-o", "con"),
        ("character", "-o", "character.txt"),
        ("character", "--seed", "3", "--from", "character.yaml"),
    ],
)
def test_no_seed_note_comes_before_an_error_about_what_was_typed(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    args: tuple[str, ...],
) -> None:
    monkeypatch.chdir(tmp_path)
    refused_in_one_line(capsys, *args)  # one line: the error, no "seed N" before it
    assert list(tmp_path.iterdir()) == []


def test_the_seed_is_said_once_a_run_has_passed_its_checks(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import generator.pdf.packet

    seen: list[str] = []

    def fake_build(*args: object, **kwargs: object) -> object:
        seen.append(capsys.readouterr().err)  # what was said before the work began
        raise generator.errors.QuartermasterError("the renderer failed")

    monkeypatch.setattr(generator.pdf.packet, "build_packet", fake_build)
    code, _, err = run(capsys, "packet", "duel", "-o", str(tmp_path / "p.pdf"))
    assert code == 1 and err == "error: the renderer failed\n"
    (note,) = seen
    assert note.startswith("seed ") and note.removeprefix("seed ").strip().isdigit()


def test_the_blank_roster_is_fillable_and_a_rolled_one_says_why_not(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from pypdf import PdfReader, PdfWriter

    from generator.loading import load_rules
    from generator.render.kinds.roster import context

    target = tmp_path / "roster.pdf"
    code, _, err = run(
        capsys, "sheet", "roster", "--ruleset", "tactical", "--fillable", "-o", str(target)
    )
    assert code == 0, err
    blank = context(load_rules(), None, "a4", "tactical")
    (side,) = blank["sides"]
    facts = [f"fact_{n}" for n in range(1, len(side["facts"]) + 1)]
    cells = [
        f"ship{row}_{col}"
        for row in range(1, side["rows"] + 1)
        for col in range(1, len(blank["columns"]) + 1)
    ]
    fields = PdfReader(target).get_fields() or {}
    assert sorted(fields) == sorted(["side_name", "side_navy", *facts, *cells, "strength"])
    assert all(field.get("/FT") == "/Tx" for field in fields.values())
    # filled with pypdf, read back
    writer = PdfWriter(clone_from=PdfReader(target))
    values = {"side_name": "Channel Fleet", "ship1_1": "Victory", "strength": "42"}
    writer.update_page_form_field_values(writer.pages[0], values, auto_regenerate=False)
    filled = tmp_path / "filled.pdf"
    writer.write(filled)
    got = PdfReader(filled).get_fields() or {}
    assert {name: got[name].get("/V") for name in values} == values

    rolled = tmp_path / "rolled.pdf"
    args = ("sheet", "roster", "--ruleset", "tactical", "--seed", "5", "--fillable")
    line = refused_in_one_line(capsys, *args, "-o", str(rolled))
    assert line == (
        "--fillable: only the blank roster sheet has write-in fields (no --seed or --from)"
    )
    assert not rolled.exists()


def test_a_packet_from_an_edited_file_does_not_claim_its_seed_rolls_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import yaml

    import generator.pdf.packet
    from generator.render.kinds.briefing import seed_note

    rolled = tmp_path / "rolled.yaml"
    code, _, err = run(
        capsys, "scenario", "flob", "--seed", "5", "--navies", "british", "-o", str(rolled)
    )
    assert code == 0, err
    edited = tmp_path / "edited.yaml"
    data = yaml.safe_load(rolled.read_text(encoding="utf-8"))
    data["sides"][0]["ships"][0]["name"] = "Hand-named"
    edited.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")

    given: list[dict[str, object]] = []

    def fake_build(rules: object, scenario: dict[str, object], **kwargs: object) -> object:
        given.append(scenario)
        raise generator.errors.QuartermasterError("stop here")

    monkeypatch.setattr(generator.pdf.packet, "build_packet", fake_build)
    for path in (rolled, edited):
        code, _, _ = run(capsys, "packet", "--from", str(path), "-o", str(tmp_path / "p.pdf"))
        assert code == 1
    # a retitled packet is still the scenario its seed rolls
    run(capsys, "packet", "--from", str(rolled), "--title", "Mine", "-o", str(tmp_path / "p.pdf"))
    assert [seed_note(s) for s in given] == [
        "the same seed rolls the same scenario",
        "changed since it was rolled: the seed alone does not make it again",
        "the same seed rolls the same scenario",
    ]
    # and the briefing prints it
    monkeypatch.undo()
    target = tmp_path / "briefing.pdf"
    code, _, err = run(capsys, "sheet", "briefing", "--from", str(edited), "-o", str(target))
    assert code == 0, err
    text = flat(read(target.read_bytes()))
    assert "5 (changed since it was rolled: the seed alone does not make it again)" in text
    assert "the same seed rolls" not in text
