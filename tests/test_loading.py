"""Loading and validation: the built-in data, broken data, and house-rules files."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from generator.errors import DataError, InputError
from generator.loading import Rules, load_rules
from generator.loading.ranges import dice_range, parse_range_label
from generator.resources import data_dir
from generator.rulesets import ruleset_ids
from generator.yamlfile import read_yaml
from tests.conftest import FIXTURES

HOUSE = FIXTURES / "house"


def test_builtin_data_loads_clean(rules: Rules) -> None:
    assert tuple(rules.rulesets) == ruleset_ids()
    for ruleset in rules.rulesets.values():
        assert ruleset.tables, ruleset.id
        for table in ruleset.tables.values():
            assert table.title
            assert table.house == (table.source.house is not None), table.id


def test_loaded_rules_are_immutable(rules: Rules) -> None:
    table = rules.table("flob.broadside")
    with pytest.raises(TypeError, match="does not support item assignment"):
        table.cells[0][0] = "x"  # type: ignore[index]
    with pytest.raises(TypeError, match="does not support item assignment"):
        rules.rulesets["flob"].tables["broadside"] = table  # type: ignore[index]
    with pytest.raises(AttributeError, match="cannot assign"):
        table.title = "x"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("label", "expected"),
    [
        ("1-2", (1, 2)),
        ("14+", (14, None)),
        ("12 or better", (12, None)),
        ("-8 or worse", (None, -8)),
        ("≤1", (None, 1)),
        ("≥6", (6, None)),
        ("-3", (-3, -3)),
        ("Hull/Crew", None),
        ("1 (or 2*)/2", None),
    ],
)
def test_range_labels(label: str, expected: tuple[int | None, int | None] | None) -> None:
    assert parse_range_label(label) == expected


def test_dice_ranges() -> None:
    assert dice_range("2d6") == (2, 12)
    assert dice_range("d%") == (1, 100)
    assert dice_range("1D10") == (1, 10)
    assert dice_range("2d6+1") is None


def _problems(path: Path) -> list[str]:
    with pytest.raises(DataError) as caught:
        load_rules(path)
    return list(caught.value.problems)


def test_house_rules_replace_a_table() -> None:
    rules = load_rules(HOUSE / "ok.yaml")
    table = rules.table("tactical.wind-change")
    assert table.house
    assert table.axes[0].labels == ("1-4", "5-6")
    assert rules.house_files == (str(HOUSE / "ok.yaml"),)
    # the built-in rules are untouched
    assert load_rules().table("tactical.wind-change").house is False


def test_house_rules_unknown_ruleset_names_file_and_id() -> None:
    (problem,) = _problems(HOUSE / "unknown-ruleset.yaml")
    assert problem.startswith(f"{HOUSE / 'unknown-ruleset.yaml'}:10: ")
    assert "unknown ruleset 'pirates'" in problem


def test_house_rules_unknown_table_names_file_and_id() -> None:
    (problem,) = _problems(HOUSE / "unknown-table.yaml")
    assert problem.startswith(f"{HOUSE / 'unknown-table.yaml'}:2: ")
    assert "unknown table 'flob.broadsides'" in problem


def test_house_rules_yaml_syntax_error_names_file_and_line() -> None:
    with pytest.raises(InputError, match=r"syntax\.yaml:6: YAML syntax error"):
        load_rules(HOUSE / "syntax.yaml")


def test_alias_bomb_is_refused() -> None:
    with pytest.raises(InputError, match=r"bomb\.yaml: refused: the file expands past"):
        load_rules(HOUSE / "bomb.yaml")


def test_huge_file_is_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_text("x: '" + "a" * (5 * 1024 * 1024) + "'\n")
    with pytest.raises(InputError, match=r"big\.yaml: refused: .* byte limit"):
        read_yaml(big)


def test_gaps_overlaps_and_out_of_range_rolls_are_reported() -> None:
    problems = _problems(HOUSE / "gap-overlap.yaml")
    text = "\n".join(problems)
    assert (
        "tactical.wind axes[0]: axis 'roll' (1d10): nothing covers 4 between '3' and '5-6'" in text
    )
    assert "values '5-6' and '6-8' overlap" in text
    assert "value '5-9' lies outside 1-8" in text
    assert all(p.startswith(str(HOUSE / "gap-overlap.yaml") + ":") for p in problems)


def test_wrong_types_are_all_reported_with_lines() -> None:
    problems = _problems(HOUSE / "types.yaml")
    text = "\n".join(problems)
    kind_problem = "flob.broadside kind: 'kind' must be one of table, modifiers, rules, not 'grid'"
    assert f"types.yaml:4: {kind_problem}" in text
    assert "flob.critical-hits house: 'house' must be true or false" in text
    assert "flob.critical-hits source.heading: missing 'heading'" in text
    assert "axis name 'Roll' must be snake_case" in text
    assert "modifier 'elite' needs a 'value'" in text
    assert "'by' must map choices to whole numbers" in text
    assert len(problems) >= 5


def test_missing_cells_are_reported() -> None:
    problems = _problems(HOUSE / "missing-cell.yaml")
    text = "\n".join(problems)
    assert "high-seas.cannon-hit cells[2]: has 1 entries but axis 'target' has 2 values" in text
    assert "missing cell for target = 'Rigging'" in text
    assert "high-seas.cannon-hit cells[3][1]: missing cell" in text
    assert "missing-cell.yaml:13: high-seas.cannon-hit cells[2]" in text
    assert "missing-cell.yaml:14: high-seas.cannon-hit cells[3][1]" in text


def test_references_to_missing_tables_are_reported() -> None:
    problems = _problems(HOUSE / "bad-ref.yaml")
    assert problems == [
        "tactical.wind-change: 'see' names 'tactical.kraken', which is not a table",
        "tactical.wind-change: 'see' names 'nowhere.at-all', which is not a table",
    ]


def test_cells_are_checked_against_their_format() -> None:
    (problem,) = _problems(HOUSE / "bad-cell-format.yaml")
    assert "flob.broadside cells[0][1]: cell does not read as flob-broadside" in problem
    assert "'2r r'" in problem


def test_broken_builtin_data_reports_every_problem(tmp_path: Path) -> None:
    for path in data_dir().glob("*.yaml"):
        shutil.copy(path, tmp_path / path.name)
    shutil.copy(FIXTURES / "broken" / "convoy.yaml", tmp_path / "convoy.yaml")
    (tmp_path / "names.yaml").write_text("house: true\nnavies: {}\n")
    with pytest.raises(DataError) as caught:
        load_rules(directory=tmp_path)
    text = "\n".join(caught.value.problems)
    assert (
        f"{tmp_path / 'convoy.yaml'}:1: 'ruleset' is 'konvoy' but the file is for 'convoy'" in text
    )
    assert "convoy.fog axes[0]: axis 'roll' (1d6): rolls 5-6 are not covered" in text
    assert "convoy.fog cells: has 3 entries but axis 'roll' has 2 values" in text
    assert (
        "convoy.shallows source.seed: seed '004_42aa0eb0709b29a8.txt' is not this ruleset's seed"
        in text
    )
    assert "convoy.yaml:25: convoy.recovery itmes: unknown key 'itmes'" in text
    assert "names.yaml:2: missing 'navies'" in text
    assert "names.yaml" in text and "missing 'people'" in text


def test_missing_ruleset_file_is_reported(tmp_path: Path) -> None:
    for path in data_dir().glob("*.yaml"):
        if path.stem != "flob":
            shutil.copy(path, tmp_path / path.name)
    with pytest.raises(DataError, match=r"flob\.yaml: missing: every ruleset needs its data file"):
        load_rules(directory=tmp_path)


def test_duplicate_keys_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "dup.yaml"
    path.write_text("tactical:\n  wind: {}\n  wind: {}\n")
    with pytest.raises(InputError, match=r"dup\.yaml:3: duplicate key 'wind'"):
        read_yaml(path)


def test_unsafe_tags_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "evil.yaml"
    path.write_text("x: !!python/object/apply:os.system ['echo hi']\n")
    with pytest.raises(
        InputError,
        match=r"evil\.yaml:1: tag 'tag:yaml.org,2002:python/object/apply:os.system' is not allowed",
    ):
        read_yaml(path)


def _fire_fighting_with(tmp_path: Path, severity: list[object]) -> list[str]:
    """Problems of a house file whose fire-fighting table has these severity values."""
    raw = yaml.safe_load((data_dir() / "flob.yaml").read_text(encoding="utf-8"))
    table = raw["tables"]["fire-fighting"]
    table["axes"][0]["values"] = severity
    path = tmp_path / "house.yaml"
    path.write_text(yaml.safe_dump({"flob": {"fire-fighting": table}}), encoding="utf-8")
    try:
        load_rules(path)
    except DataError as caught:
        return list(caught.problems)
    return []


def test_a_label_axis_may_give_labels_a_numeric_range(rules: Rules, tmp_path: Path) -> None:
    severity = rules.table("flob.fire-fighting").axes[0]
    assert not severity.numeric and severity.values[3].contains(12)
    rows = [{"label": f"{n} HF", "min": n, "max": n} for n in (1, 2, 3)]
    mast = {"label": "MF", "match": ["mf"]}
    assert _fire_fighting_with(tmp_path, [*rows, {"label": "4+ HF", "min": 4}, mast]) == []
    overlapping = [*rows, {"label": "3+ HF", "min": 3}, mast]
    assert any("overlap" in p for p in _fire_fighting_with(tmp_path, overlapping))
    bare = [*rows[:3], 4, mast]
    (problem,) = _fire_fighting_with(tmp_path, bare)
    assert "axis 'severity' mixes numbers and labels" in problem
    assert "as mappings with label and min/max" in problem
