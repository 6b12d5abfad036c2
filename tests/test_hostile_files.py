"""Hostile edited files given with --from: broken, huge, sly or strangely named (issue #7).

House-rules files (--rules) get the same treatment in test_loading.py; the fuzzing of what
is typed on the command line is in test_fuzz_inputs.py. Every refusal here is the
project's error, one line per problem naming the file, the line and the key path.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from generator.generate.duel import roll_character
from generator.generate.scenario import dump, roll_scenario
from generator.loading import Rules
from tests.conftest import run
from tests.pdfs import flat, read

MARKUP = "<b>Bold</b> & <script>alert(1)</script>"
# right-to-left Hebrew and Arabic, combining accents, an emoji ZWJ sequence, rich markup
ODD = "שלום عالم e\u0301\u0302 🏴\u200d☠️ [bold]x[/bold]"


def write(path: Path, data: Any) -> Path:
    text = dump(data, "yaml") if path.suffix == ".yaml" else json.dumps(data, ensure_ascii=False)
    path.write_text(text, encoding="utf-8")
    return path


def refused(capsys: pytest.CaptureFixture[str], *args: str) -> list[str]:
    """Run a command that must be refused; return its error lines (each one problem)."""
    code, out, err = run(capsys, *args)
    assert code == 2, err
    assert out == ""
    lines = err.splitlines()
    assert lines and all(line.startswith("error: ") for line in lines), err
    assert "internal error" not in err and "Traceback" not in err
    return lines


# --- syntax, size and encoding ------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "name", "text", "where"),
    [
        (("scenario", "tactical"), "s.yaml", "ruleset: tactical\nseed: 1\ntitle: [oops\n", ":4:"),
        (("fleet", "flob"), "f.json", '{"ruleset": "flob",\n "seed": 1,,\n}', ":2:"),
        (("character",), "c.yaml", "ruleset: duel\nname: a\x00b\n", ":2:"),
        (("character",), "c.yaml", "ruleset: duel\n\tname: tab-indented\n", ":2:"),
        (("scenario", "duel"), "s.yaml", "a: 1\na: 2\n", ":2: duplicate key 'a'"),
        (("scenario", "duel"), "s.yaml", "x: !!python/object/apply:os.system [ls]\n", ":1: tag"),
    ],
)
def test_syntax_errors_name_the_file_and_line(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    command: tuple[str, ...],
    name: str,
    text: str,
    where: str,
) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    (line,) = refused(capsys, *command, "--from", str(path))
    assert line.startswith(f"error: {path}{where}"), line


def test_alias_bombs_and_huge_files_are_refused_early(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Refused by counting, not by a clock: the bomb after at most MAX_NODES values built
    (it would expand to 10**9), the huge file before it is parsed at all. How soon is
    measured in benchmarks/bench_interrupts.py."""
    from generator import yamlfile

    built: list[Path] = []  # the file of every value built (the rules' own files too)
    real_build = yamlfile._Builder.build

    def counting(self: Any, node: Any, keypath: Any) -> Any:
        built.append(self.path)
        return real_build(self, node, keypath)

    composed: list[int] = []
    real_compose = yamlfile.yaml.compose

    def compose(text: str, **kwargs: Any) -> Any:
        composed.append(len(text))
        return real_compose(text, **kwargs)

    monkeypatch.setattr(yamlfile._Builder, "build", counting)
    monkeypatch.setattr(yamlfile.yaml, "compose", compose)
    bomb = tmp_path / "bomb.yaml"
    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [{', '.join([f'*{prev}'] * 10)}]")
    bomb.write_text("\n".join(lines) + "\n", encoding="utf-8")
    huge = tmp_path / "huge.json"
    huge.write_text('{"title": "' + "x" * (5 * 1024 * 1024) + '"}', encoding="utf-8")
    (line,) = refused(capsys, "scenario", "tactical", "--from", str(bomb))
    assert f"{bomb}: refused:" in line and "expands past" in line
    assert built.count(bomb) == yamlfile.MAX_NODES + 1
    (line,) = refused(capsys, "scenario", "tactical", "--from", str(huge))
    assert f"{huge}: refused:" in line and "byte limit" in line
    assert huge not in built and len(huge.read_text()) not in composed


def test_unreadable_files_are_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    latin = tmp_path / "latin.yaml"
    latin.write_bytes("ruleset: duel\nname: Jos\xe9\n".encode("latin-1"))
    cases = [
        (latin, "not UTF-8 text"),
        (tmp_path / "missing.yaml", "cannot read"),
        (tmp_path, "is a directory"),
    ]
    for path, message in cases:
        code, _, err = run(capsys, "character", "--from", str(path))
        assert code == 2
        (line,) = err.splitlines()
        assert line.startswith("error: ") and message in line, line


# --- wrong types and unknown ids, each with its key path -----------------------------

Edit = Callable[[dict[str, Any]], None]


def _set(path: tuple[Any, ...], value: Any) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        node = data
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return edit


def _delete(path: tuple[Any, ...]) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        node = data
        for key in path[:-1]:
            node = node[key]
        del node[path[-1]]

    return edit


SCENARIO_EDITS = [
    # a null used to pass as "already reported" and end in an AssertionError
    ("impulse", _set(("ruleset",), None), "ruleset: null is not a ruleset (allowed: convoy, duel,"),
    ("tactical", _set(("title",), None), "title: expected text, found null"),
    ("convoy", _set(("seed",), None), "seed: expected a whole number, found null"),
    ("tactical", _set(("sides", 0, "ships", 0, "flagship"), None), "flagship: expected true"),
    ("tactical", _set(("sides", 0, "ships", 0, "name"), ["a"]), "ships[0].name: expected text"),
    (
        "tactical",
        _set(("sides", 0, "ships", 0, "class"), "Kraken"),
        "'Kraken' is not a ship class (allowed: 1st Class,",
    ),
    ("tactical", _set(("ruleset",), "pirates"), "ruleset: 'pirates' is not a ruleset (allowed: "),
    # the rest used to pass the check and fail later, in the terminal or sheet output
    ("duel", _set(("special_rules",), 5), "special_rules: expected a list of lines, found 5"),
    ("flob", _set(("sides",), True), "sides: expected a list of sides, found true"),
    ("tactical", _set(("map", "rows", 3), 1.5), "map.rows[3]: expected text, found 1.5"),
    ("tactical", _set(("house_tables",), ["tactical.kraken"]), "'tactical.kraken' is not a"),
    ("tactical", _set(("sides", 0, "ships", 0, "ratings", "luck"), [1]), "unknown key 'luck'"),
    (
        "high-seas",
        _set(("sides", 0, "ships", 0, "batteries", "keel"), "x"),
        "batteries.keel: unknown key 'keel'",
    ),
    ("high-seas", _set(("sides", 1, "ships", 0, "officers"), 12), "officers: expected a list"),
    (
        "high-seas",
        _delete(("sides", 0, "ships", 0, "officers", 0, "weapons", 0, "hand")),
        "weapons[0]: missing 'hand'",
    ),
    ("convoy", _delete(("balance", "measure")), "balance: missing 'measure'"),
    ("duel", _delete(("sides", 0, "characters", 0, "nationality")), "missing 'nationality'"),
    (
        "tactical",
        _set(("title",), "x" * 100_000),
        "title: title is longer than 120 characters (100000)",
    ),
    ("tactical", _set(("sides", 0, "ships", 0, "name"), "y" * 61), "longer than 60 characters"),
]


@pytest.mark.parametrize(("ruleset", "edit", "message"), SCENARIO_EDITS)
def test_wrong_values_name_the_file_line_and_key_path(
    capsys: pytest.CaptureFixture[str],
    rules: Rules,
    tmp_path: Path,
    ruleset: str,
    edit: Edit,
    message: str,
) -> None:
    data = roll_scenario(rules, ruleset, 3)
    edit(data)
    path = write(tmp_path / "edited.yaml", data)
    lines = refused(capsys, "scenario", ruleset, "--from", str(path))
    assert any(message in line for line in lines), lines
    assert all(line.startswith(f"error: {path}") for line in lines), lines


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (_delete(("skills",)), "missing 'skills'"),
        (_set(("skills",), 3), "skills: expected the skills, found 3"),
        (_delete(("weapons", 0, "damage")), "weapons[0]: missing 'damage'"),
        (
            _set(("style",), None),
            "style: null is not a fighting style (allowed: none, French, Italian)",
        ),
        (_set(("name",), "z" * 61), "name: name is longer than 60 characters (61)"),
    ],
)
def test_a_character_is_checked_before_it_is_shown(
    capsys: pytest.CaptureFixture[str], rules: Rules, tmp_path: Path, edit: Edit, message: str
) -> None:
    person = roll_character(rules, 3)
    edit(person)
    path = write(tmp_path / "person.json", person)
    lines = refused(capsys, "character", "--from", str(path))
    assert any(message in line for line in lines), lines


# --- markup and odd Unicode: kept as written, never interpreted -------------------------


@pytest.fixture
def marked_up(rules: Rules) -> tuple[dict[str, Any], dict[str, Any]]:
    person = roll_character(rules, 5)
    person["name"] = MARKUP  # the style is a choice from its table now: no free text
    scenario = roll_scenario(rules, "tactical", 5)
    scenario["title"] = f"{MARKUP} {ODD}"
    scenario["sides"][0]["ships"][0]["name"] = ODD
    scenario["sides"][1]["name"] = MARKUP
    return person, scenario


def test_names_are_kept_as_written_in_json_and_yaml(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    marked_up: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    person, scenario = marked_up
    path = write(tmp_path / "person.yaml", person)
    code, out, _ = run(capsys, "character", "--from", str(path), "--json")
    assert code == 0
    assert json.loads(out) == person
    assert MARKUP in out  # not HTML-escaped
    path = write(tmp_path / "scenario.json", scenario)
    code, out, _ = run(capsys, "scenario", "tactical", "--from", str(path), "--yaml")
    assert code == 0
    assert yaml.safe_load(out) == scenario
    assert ODD in out  # not \u-escaped


def test_names_are_shown_not_obeyed_on_the_terminal(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    marked_up: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    person, scenario = marked_up
    code, out, _ = run(capsys, "character", "--from", str(write(tmp_path / "p.json", person)))
    assert code == 0
    assert MARKUP in out
    path = write(tmp_path / "s.json", scenario)
    code, out, _ = run(capsys, "scenario", "tactical", "--from", str(path))
    assert code == 0
    assert MARKUP in " ".join(out.split()) and "[bold]x[/bold]" in out


def test_names_are_escaped_in_sheet_html(
    rules: Rules, marked_up: tuple[dict[str, Any], dict[str, Any]]
) -> None:
    from generator.render.sheets import sheet_html

    person, scenario = marked_up
    pages = [
        sheet_html("character", rules, data=person),
        sheet_html("duel-record", rules, data=person),
        sheet_html("briefing", rules, data=scenario, ruleset="tactical"),
        sheet_html("roster", rules, data=scenario, ruleset="tactical"),
    ]
    for page in pages:
        assert "<script>alert" not in page and "<b>Bold" not in page
        assert html.escape(MARKUP, quote=False) in page or html.escape(MARKUP) in page
    assert ODD in html.unescape(pages[2]) and ODD in html.unescape(pages[3])


def test_markup_in_a_name_prints_as_text_in_the_pdf(rules: Rules) -> None:
    from generator.render.sheets import render_sheet

    person = roll_character(rules, 5)
    person["name"] = MARKUP
    text = flat(read(render_sheet("character", rules, data=person, mono=True)))
    assert MARKUP in text
