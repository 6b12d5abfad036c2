"""A house table keeps the shape of the built-in table it replaces (checked at load).

The resolvers, generators and sheets read a table's params, modifiers, axes, cell fields
and dice by name; a house file that drops one is refused when it loads, with the file,
the line and the table, instead of crashing later. No PDF is rendered here.
"""

from __future__ import annotations

import copy
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from generator.errors import DataError
from generator.loading import load_rules
from generator.loading.house_shape import check_house_table
from generator.loading.problems import Problems
from generator.resources import data_dir
from generator.yamlfile import YamlDoc, read_yaml
from tests.conftest import REPO, run

_DUMPER: Any = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


@cache
def _builtin_raw(ruleset: str) -> dict[str, Any]:
    """The raw tables of a built-in ruleset file, read once."""
    tables: dict[str, Any] = read_yaml(data_dir() / f"{ruleset}.yaml").data["tables"]
    return tables


def _table(table_id: str) -> dict[str, Any]:
    """A fresh copy of a built-in table as written in data/, to change in a test."""
    ruleset, _, key = table_id.partition(".")
    table: dict[str, Any] = copy.deepcopy(_builtin_raw(ruleset)[key])
    return table


def _house(tmp_path: Path, tables: dict[str, Any], name: str = "house.yaml") -> Path:
    """Write a house file with `tables` ({"flob.tacking": {...}}) and return its path."""
    data: dict[str, dict[str, Any]] = {}
    for table_id, table in tables.items():
        ruleset, _, key = table_id.partition(".")
        data.setdefault(ruleset, {})[key] = table
    path = tmp_path / name
    text = yaml.dump(data, Dumper=_DUMPER, sort_keys=False, allow_unicode=True, width=1000)
    path.write_text(text, encoding="utf-8")
    return path


def _problems(path: Path) -> list[str]:
    with pytest.raises(DataError) as caught:
        load_rules(path)
    return list(caught.value.problems)


def _line_of(path: Path, pattern: str, nth: int = 0) -> int:
    """The 1-based line of the `nth` (from 0) line of `path` matching `pattern`."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [i + 1 for i, line in enumerate(lines) if re.search(pattern, line)][nth]


# ---------------------------------------------------------------- the three reproductions


def _no_gale(tmp_path: Path) -> Path:
    mods = _table("flob.tacking-modifiers")
    mods["items"] = [item for item in mods["items"] if item["id"] != "gale"]
    return _house(tmp_path, {"flob.tacking-modifiers": mods})


def _gunnery_roll(tmp_path: Path, roll: object) -> Path:
    procedure = _table("flob.gunnery-procedure")
    procedure["params"]["roll"] = roll
    return _house(tmp_path, {"flob.gunnery-procedure": procedure})


def _no_target(tmp_path: Path) -> Path:
    tacking = _table("flob.tacking")
    del tacking["params"]["target"]
    return _house(tmp_path, {"flob.tacking": tacking})


def test_a_dropped_modifier_is_refused_naming_file_line_table_and_id(tmp_path: Path) -> None:
    path = _no_gale(tmp_path)
    line = _line_of(path, r"^    items:")
    assert _problems(path) == [
        f"{path}:{line}: flob.tacking-modifiers items: the house table drops the modifier "
        "'gale' that the resolvers read (the built-in table has: captain-skill, unused-turn, "
        "mast-lost, gale)"
    ]


@pytest.mark.parametrize(
    ("roll", "why"),
    [
        ("2D6+1", "expected plain dice such as 2d6"),
        ("2x6", "at position 2: unexpected 'x'"),
        ("two dice", "unexpected 't'"),
        (12, "like the built-in '2d6', not int 12"),
    ],
)
def test_a_dice_param_must_still_be_dice(tmp_path: Path, roll: object, why: str) -> None:
    path = _gunnery_roll(tmp_path, roll)
    (problem,) = _problems(path)
    line = _line_of(path, r"^      roll:")
    assert problem.startswith(f"{path}:{line}: flob.gunnery-procedure params.roll: param 'roll' ")
    assert "like the built-in '2d6'" in problem
    assert why in problem


def test_a_dice_param_may_change_its_dice(tmp_path: Path) -> None:
    rules = load_rules(_gunnery_roll(tmp_path, "3d6"))
    assert rules.table("flob.gunnery-procedure").params["roll"] == "3d6"


def test_a_dropped_param_is_refused_naming_file_line_table_and_name(tmp_path: Path) -> None:
    path = _no_target(tmp_path)
    line = _line_of(path, r"^    params:")
    assert _problems(path) == [
        f"{path}:{line}: flob.tacking params: the house table drops the param 'target' "
        "(the built-in table has: unused_turn_points_needed, roll, target, failure); keep "
        "every param, the code reads them by name"
    ]


@pytest.mark.parametrize(
    ("make", "args", "name"),
    [
        (_no_gale, ("resolve", "flob.tacking", "gale=yes"), "'gale'"),
        (_no_target, ("resolve", "flob.tacking", "gale=yes"), "'target'"),
        (
            lambda p: _gunnery_roll(p, "2D6+1"),
            ("resolve", "flob.broadside", "attack=3"),
            "'2D6+1'",
        ),
        (
            lambda p: _gunnery_roll(p, "2x6"),
            ("lookup", "flob.broadside", "attack=3", "roll=7"),
            "'2x6'",
        ),
    ],
)
def test_the_command_line_refuses_the_house_file_in_one_line_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, make: Any, args: tuple[str, ...], name: str
) -> None:
    path = make(tmp_path)
    code, out, err = run(capsys, *args, "--rules", str(path))
    assert code == 2
    assert out == ""
    (line,) = err.strip().splitlines()
    assert re.match(rf"error: {re.escape(str(path))}:\d+: flob\.[a-z-]+ [a-z.]+: ", line), line
    assert name in line
    assert "internal error" not in err and "Traceback" not in err


def test_nothing_is_written_when_the_house_file_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "qr.pdf"
    args = ("sheet", "quick-reference", "--ruleset", "flob", "-o", str(target))
    code, out, err = run(capsys, *args, "--rules", str(_no_gale(tmp_path)))
    assert code == 2 and out == ""
    assert "drops the modifier 'gale'" in err
    assert not target.exists()


# ---------------------------------------------------------------- the other parts of a table


def test_a_changed_kind_is_refused(tmp_path: Path) -> None:
    table = {
        "title": "Wind change (club rule)",
        "kind": "rules",
        "source": {"house": "club rule"},
        "house": True,
        "params": {"when": "at the beginning of each turn"},
        "items": ["Roll 1d6: on a 5 or 6 the wind changes."],
    }
    path = _house(tmp_path, {"tactical.wind-change": table})
    (problem,) = _problems(path)
    assert problem == (
        f"{path}:{_line_of(path, r'^    kind:')}: tactical.wind-change kind: the house table is "
        "of kind 'rules' but the built-in one is 'table': a house table keeps the kind the "
        "code reads"
    )


def test_a_renamed_axis_is_refused(tmp_path: Path) -> None:
    table = _table("tactical.broadside")
    table["axes"][0]["name"] = "die"
    path = _house(tmp_path, {"tactical.broadside": table})
    (problem,) = _problems(path)
    assert problem.startswith(f"{path}:{_line_of(path, r'^    axes:')}: tactical.broadside axes: ")
    assert "the house table's axes are die but the built-in table's are roll" in problem


def test_an_axis_keeps_numbers_or_labels_and_its_dice(tmp_path: Path) -> None:
    table = _table("tactical.broadside")
    table["axes"][0] = {"name": "roll", "values": ["low", "middling", "high", "very high"]}
    problems = _problems(_house(tmp_path, {"tactical.broadside": table}))
    assert any(
        "tactical.broadside axes[0].values: axis 'roll' must hold numbers and ranges" in p
        for p in problems
    ), problems
    assert any("axis 'roll' is rolled on 1d10 in the built-in table" in p for p in problems)


@pytest.mark.parametrize("dice", ["1x10", "1d10+2", "d"])
def test_a_bad_dice_string_in_an_axis_is_refused(tmp_path: Path, dice: str) -> None:
    table = _table("tactical.broadside")
    table["axes"][0]["dice"] = dice
    path = _house(tmp_path, {"tactical.broadside": table})
    (problem,) = _problems(path)
    line = _line_of(path, r"^      dice:")
    assert problem.startswith(f"{path}:{line}: tactical.broadside axes[0].dice: ")
    assert f"cannot read dice '{dice}'" in problem


def test_a_param_keeps_its_type(tmp_path: Path) -> None:
    tacking = _table("flob.tacking")
    tacking["params"]["target"] = "five or better"
    (problem,) = _problems(_house(tmp_path, {"flob.tacking": tacking}))
    assert "flob.tacking params.target: param 'target' must be a number" in problem
    assert "(5), not text" in problem


def test_a_modifier_keeps_its_choices_and_whole_number_value(tmp_path: Path) -> None:
    mods = _table("flob.tacking-modifiers")
    del mods["items"][0]["by"]["inept"]
    mods["items"][3]["value"] = "-1 in a gale"
    mods["items"].append({"id": "fog", "label": "in fog", "value": -1})  # new ones are fine
    problems = _problems(_house(tmp_path, {"flob.tacking-modifiers": mods}))
    assert len(problems) == 2, problems
    assert "items[0].by: modifier 'captain-skill' drops the choice 'inept'" in problems[0]
    assert "items[3].value: modifier 'gale' needs a whole-number 'value'" in problems[1]


def test_a_cell_field_every_cell_has_is_kept(tmp_path: Path) -> None:
    table = _table("tactical.broadside")
    del table["cells"][1]["attributes_lost"]
    table["cells"][2] = "The target loses two rating points"
    path = _house(tmp_path, {"tactical.broadside": table})
    first, second = _problems(path)
    assert first == (
        f"{path}:{_line_of(path, r'^    - result:', nth=1)}: "
        "tactical.broadside cells[1]: the cell has no 'attributes_lost', which every cell of "
        "the built-in table has and the code reads"
    )
    assert "tactical.broadside cells[2]: the cell must be a mapping with 'result', " in second


def test_a_cell_found_by_name_keeps_its_own_fields(tmp_path: Path) -> None:
    table = _table("duel.brawling")
    del table["cells"][4]["serious_damage"]
    (problem,) = _problems(_house(tmp_path, {"duel.brawling": table}))
    assert (
        "duel.brawling cells[4]: the cell for attack 'Kick' has no 'serious_damage', which "
        "the built-in cell for attack 'Kick' has and the code reads by name"
    ) in problem


def test_rows_found_by_name_may_move_and_rolled_rows_may_lose_rare_fields(
    tmp_path: Path,
) -> None:
    brawling = _table("duel.brawling")
    brawling["axes"][0]["values"].reverse()
    brawling["cells"].reverse()
    location = _table("duel.hit-location")
    for cell in location["cells"]:
        cell.pop("side", None)  # read with .get: only some cells have it
    rules = load_rules(_house(tmp_path, {"duel.brawling": brawling, "duel.hit-location": location}))
    assert rules.table("duel.brawling").axes[0].labels[0] == "Kick"


def test_text_cells_stay_text_and_keep_their_format(tmp_path: Path) -> None:
    table = _table("flob.broadside")
    del table["cell_format"]
    (problem,) = _problems(_house(tmp_path, {"flob.broadside": table}))
    assert "flob.broadside cell_format: the built-in table reads its cells as " in problem
    assert "'cell_format: flob-broadside'" in problem
    fires = _table("impulse.fire-checks")
    fires["cells"][0][0] = {"result": "none", "checks": 0}
    (problem,) = _problems(_house(tmp_path, {"impulse.fire-checks": fires}))
    assert "impulse.fire-checks cells[0][0]: the cell must be text or a number" in problem


@pytest.mark.parametrize(
    ("table_id", "where", "value", "refused"),
    [
        ("duel.weapons", (3, "damage"), "1dx", "cells[3].damage: 'damage' must be dice notation"),
        ("duel.weapons", (3, "damage"), "2d6+2", None),  # an expression where some are
        ("duel.weapons", (3, "damage"), "—", None),  # a dash where the built-in has one
        ("flob.lost-masts", (3, 1), "one die", "cells[3][1]: the cell must be dice notation"),
        ("flob.lost-masts", (3, 1), "1d6-3", None),
        (
            "duel.wound-effects",
            (2, "useless_days"),
            "1d6+1",
            "cells[2].useless_days: 'useless_days' must be plain dice",
        ),
        ("duel.attributes", (0, "result"), "3d6, best three of four", None),  # printed only
    ],
)
def test_dice_in_cells_must_parse(
    tmp_path: Path, table_id: str, where: tuple[Any, Any], value: str, refused: str | None
) -> None:
    table = _table(table_id)
    table["cells"][where[0]][where[1]] = value
    path = _house(tmp_path, {table_id: table})
    if refused is None:
        load_rules(path)
        return
    (problem,) = _problems(path)
    assert f"{table_id} {refused}" in problem


def test_every_problem_of_a_file_is_collected(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    mods = _table("flob.tacking-modifiers")
    mods["items"] = mods["items"][:1]
    tacking = _table("flob.tacking")
    tacking["params"] = {}
    broadside = _table("tactical.broadside")
    broadside["axes"][0]["name"] = "die"
    path = _house(
        tmp_path,
        {"flob.tacking": tacking, "flob.tacking-modifiers": mods, "tactical.broadside": broadside},
    )
    problems = _problems(path)
    assert len(problems) == 4 + 3 + 1, problems
    assert all(p.startswith(f"{path}:") and "\n" not in p for p in problems)
    assert capsys.readouterr().out == ""  # the loader never prints


# ---------------------------------------------------------------- did you mean


def test_an_unknown_table_names_the_nearest_and_the_tables_of_its_ruleset(tmp_path: Path) -> None:
    path = _house(tmp_path, {"flob.tackng": _table("flob.tacking")})
    (problem,) = _problems(path)
    assert problem.startswith(
        f"{path}:2: unknown table 'flob.tackng': did you mean 'flob.tacking'? (tables of flob: "
        "flob.turn-sequence, "
    )
    assert "flob.scenario); house rules replace built-in tables, they cannot add new ones" in (
        problem
    )


def test_an_unknown_ruleset_names_the_nearest(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = _house(tmp_path, {"flb.tacking": _table("flob.tacking")})
    known = "duel, high-seas, impulse, convoy, tactical, flob"
    problem = f"{path}:1: unknown ruleset 'flb': did you mean 'flob'? (known: {known})"
    assert _problems(path) == [problem]
    code, out, err = run(capsys, "tables", "flob", "--rules", str(path))
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [f"error: {problem}"]


def test_an_unknown_id_far_from_every_name_just_lists_them(tmp_path: Path) -> None:
    path = _house(tmp_path, {"flob.xyzzy-plugh-quux": _table("flob.tacking")})
    (problem,) = _problems(path)
    assert "unknown table 'flob.xyzzy-plugh-quux' (tables of flob: " in problem


# ---------------------------------------------------------------- never the built-in data


def test_every_builtin_table_passes_the_check_against_itself() -> None:
    rules = load_rules()
    problems = Problems()
    doc = YamlDoc(Path("built-in"), None)
    count = 0
    for table in rules.all_tables():
        check_house_table(doc, (table.ruleset, table.key), table, table, problems)
        count += 1
    assert problems.messages == []
    assert count > 150


def test_the_builtin_data_written_out_as_one_house_file_loads(tmp_path: Path) -> None:
    rules = load_rules()
    tables = {table.id: _builtin_raw(table.ruleset)[table.key] for table in rules.all_tables()}
    house = load_rules(_house(tmp_path, tables))
    assert [t.id for t in house.all_tables()] == [t.id for t in rules.all_tables()]


def test_the_builtin_load_never_runs_the_check(monkeypatch: pytest.MonkeyPatch) -> None:
    import generator.loading as loading

    def refuse(*_: object) -> None:
        raise AssertionError("the shape check ran for the built-in data")

    monkeypatch.setattr(loading, "check_house_table", refuse)
    problems = Problems()
    rulesets, _ = loading._load_files(data_dir(), problems)
    assert problems.messages == [] and "flob" in rulesets


def _house_block(document: Path) -> str:
    """The first YAML block of the "House rules" section of a Markdown file."""
    text = document.read_text(encoding="utf-8")
    section = text[text.index("## House rules") :]
    found = re.search(r"```yaml\n(.*?)```", section, re.S)
    assert found is not None
    return found[1]


@pytest.mark.parametrize("document", ["README.md", "docs/data-format.md"])
def test_the_house_rules_examples_in_the_docs_load(tmp_path: Path, document: str) -> None:
    path = tmp_path / "example.yaml"
    path.write_text(_house_block(REPO / document), encoding="utf-8")
    rules = load_rules(path)
    assert any(table.house for table in rules.all_tables())
    assert load_rules(REPO / "docs" / "house-rules-example.yaml").table("tactical.broadside").house
