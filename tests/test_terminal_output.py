"""What fleets, scenarios and resolvers look like on a terminal: nothing cut with "…" at
80, 60 or 120 columns, every name whole, short headers explained, side-wide fields said.

Cheap: everything is rolled from seeds and printed to a recording console of a set width.
"""

from __future__ import annotations

import copy
import io
import re
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from rich.cells import cell_len
from rich.console import Console

from generator.generate.base import get_generator
from generator.generate.scenario import roll_force, roll_scenario
from generator.generate.show import columns, key_lines, show_force, show_scenario
from generator.loading import Rules, load_rules
from generator.resolve import all_resolvers, get_resolver
from generator.resolve.show import (
    resolver_json,
    resolver_lines,
    resolvers_json,
    show_resolver,
    show_resolvers,
)
from generator.rulesets import ruleset_ids
from tests.conftest import run

RULESETS = ruleset_ids()
FLEETS = tuple(r for r in RULESETS if get_generator(r).units == "ships")
SEEDS = (1, 5, 9)
WIDTHS = (80, 60, 120)
LONG_NAME = "Sovereign of the Seas and Pride of Albion"  # 41 characters


def printed(width: int, show: Callable[[Console], None]) -> str:
    """What `show` prints on a console `width` columns wide, as plain text."""
    console = Console(width=width, record=True, file=io.StringIO(), highlight=False)
    show(console)
    return console.export_text()


def check_fits(text: str, width: int) -> None:
    """Nothing cut, and no line wider than the console (so the terminal wraps nothing)."""
    assert "…" not in text
    for line in text.splitlines():
        assert cell_len(line.rstrip()) <= width, line


def unit_names(side: dict[str, Any], units: str) -> list[str]:
    return [str(unit["name"]) for unit in side.get(units, [])]


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("ruleset", FLEETS)
def test_fleets_fit_the_width_with_every_name_whole(rules: Rules, ruleset: str, width: int) -> None:
    gen = get_generator(ruleset)
    for seed in SEEDS:
        force = roll_force(rules, ruleset, seed)
        text = printed(width, partial(show_force, force, gen.units, gen.summary_fields))
        check_fits(text, width)
        for name in unit_names(force, gen.units):
            assert name in text, (ruleset, seed, name)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_scenarios_fit_the_width_with_every_name_whole(
    rules: Rules, ruleset: str, width: int
) -> None:
    gen = get_generator(ruleset)
    for seed in SEEDS:
        scenario = roll_scenario(rules, ruleset, seed)
        text = printed(width, partial(show_scenario, scenario, gen.units, gen.summary_fields))
        check_fits(text, width)
        for side in scenario["sides"]:
            for name in unit_names(side, gen.units):
                assert name in text, (ruleset, seed, name)


@pytest.mark.parametrize("ruleset", FLEETS)
def test_long_ship_names_and_classes_are_never_cut(rules: Rules, ruleset: str) -> None:
    gen = get_generator(ruleset)
    force = copy.deepcopy(roll_force(rules, ruleset, 3))
    ships = force[gen.units]
    ships[0]["name"] = LONG_NAME
    if "class" in ships[0]:
        ships[-1]["class"] = "Fourth Rate Ship of the Line (Razee)"
    for width in WIDTHS:
        text = printed(width, lambda c: show_force(force, gen.units, gen.summary_fields, c))
        check_fits(text, width)
        assert LONG_NAME in text
        if "class" in ships[0]:
            assert "Fourth Rate Ship of the Line (Razee)" in text


@pytest.mark.parametrize("ruleset", FLEETS)
def test_short_headers_are_unique_and_explained_by_the_key(rules: Rules, ruleset: str) -> None:
    gen = get_generator(ruleset)
    rows = roll_force(rules, ruleset, 5)[gen.units]
    cols = columns(rows, gen.summary_fields)
    assert len({c.short for c in cols}) == len(cols)
    key = flat(" ".join(key_lines(cols, 80)))
    for col in cols:
        assert len(col.short) <= 5 or col.short == col.label
        if col.short != col.label:
            assert f"{col.short} = {col.label}" in key


def test_a_table_with_short_headers_prints_its_key(rules: Rules) -> None:
    """At 120 columns a tactical fleet is a table with short rating headers and a key."""
    gen = get_generator("tactical")
    force = roll_force(rules, "tactical", 5)
    text = printed(120, lambda c: show_force(force, gen.units, gen.summary_fields, c))
    header = next(line for line in text.splitlines() if line.startswith("name "))
    key = flat(text.split("Key: ", 1)[1])
    for short, label in (("can", "cannon"), ("swf", "swiftness"), ("gun", "gunnery")):
        assert re.search(rf"\b{short}\b", header)
        assert f"{short} = {label}" in key


def test_tactical_says_the_admiral_national_and_fleet_character(rules: Rules) -> None:
    gen = get_generator("tactical")
    for seed in SEEDS:
        force = roll_force(rules, "tactical", seed)
        for width in (80, 60):
            text = flat(printed(width, partial(show_force, force, gen.units, None)))
            admiral = force["admiral"]
            assert f"Admiral: {force['admiral_name']}, {admiral['result']}" in text
            assert admiral["bonus"] in text
            for key, label in (("national", "National character"), ("fleet", "Fleet character")):
                assert f"{label}: {force[key]['result']} ({force[key]['bonus']})" in text


@pytest.mark.parametrize(
    ("ruleset", "expected"),
    [
        (
            "flob",
            lambda f: [f"Admiral: {f['admiral']['name']} (quality {f['admiral']['quality']})"],
        ),
        ("impulse", lambda f: [f"Squadron: {f['squadron']['result']}"]),
        (
            "convoy",
            lambda f: [f"Role: {f['role']}", f"Composition: {f['composition']['result']}"],
        ),
    ],
)
def test_side_wide_fields_are_labelled(
    rules: Rules, ruleset: str, expected: Callable[[dict[str, Any]], list[str]]
) -> None:
    gen = get_generator(ruleset)
    force = roll_force(rules, ruleset, 2)
    text = flat(printed(80, lambda c: show_force(force, gen.units, None, c)))
    for line in expected(force):
        assert line in text


def test_a_scenario_shows_each_side_like_a_fleet(rules: Rules) -> None:
    scenario = roll_scenario(rules, "tactical", 5)
    text = flat(printed(80, lambda c: show_scenario(scenario, "ships", None, c)))
    for side in scenario["sides"]:
        assert f"Admiral: {side['admiral_name']}, {side['admiral']['result']}" in text
        assert f"Fleet character: {side['fleet']['result']}" in text


def test_a_duellist_is_wrapped_with_an_indent(rules: Rules) -> None:
    scenario = roll_scenario(rules, "duel", 5)
    text = printed(60, lambda c: show_scenario(scenario, "characters", None, c))
    check_fits(text, 60)
    lines = text.splitlines()
    skills = next(n for n, line in enumerate(lines) if line.startswith("  skills: "))
    assert lines[skills + 1].startswith("      ")  # a continuation, not a new field


@pytest.mark.parametrize("width", (80, 60))
@pytest.mark.parametrize("ruleset", RULESETS)
def test_resolver_lists_fit_with_every_input_whole(rules: Rules, ruleset: str, width: int) -> None:
    chosen = [r for r in all_resolvers().values() if r.ruleset == ruleset]
    text = printed(width, lambda c: show_resolvers(chosen, rules, c))
    check_fits(text, width)
    lines = text.splitlines()
    for resolver in chosen:
        assert any(line.startswith(f"{resolver.id}  ") for line in lines), resolver.id
        for param in resolver.params:
            assert any(re.match(rf" +{param.name}( |$)", line) for line in lines), param.name


def inputs_explained(resolver_id: str, rules: Rules, width: int) -> dict[str, str]:
    """Each input of a resolver's full view: its name and the text of its block."""
    resolver = get_resolver(resolver_id)
    lines = [line for line, _, _ in resolver_lines(resolver, rules, width, full=True)]
    start = lines.index("Inputs (NAME=VALUE):") + 1
    blocks: dict[str, str] = {}
    name = ""
    for line in lines[start:]:
        if line.startswith("  ") and not line.startswith("   "):
            name = line.split()[0]
            blocks[name] = line.removeprefix(f"  {name}")
        else:
            blocks[name] += " " + line
    return {k: flat(v) for k, v in blocks.items()}


# the longest ones, and the first of each ruleset with inputs
EXPLAINED = dict.fromkeys(
    [
        "flob.broadside",
        "duel.attack",
        *(
            next(r.id for r in all_resolvers().values() if r.ruleset == s and r.params)
            for s in RULESETS
        ),
    ]
)


@pytest.mark.parametrize("resolver_id", list(EXPLAINED))
@pytest.mark.parametrize("width", (80, 60))
def test_one_resolver_explains_every_input(rules: Rules, resolver_id: str, width: int) -> None:
    resolver = get_resolver(resolver_id)
    text = printed(width, lambda c: show_resolver(resolver, rules, c))
    check_fits(text, width)
    assert flat(text).startswith(f"{resolver.id} {flat(resolver.title)} ")
    assert flat(resolver.summary) in flat(text)
    blocks = inputs_explained(resolver_id, rules, width)
    assert list(blocks) == [p.name for p in resolver.params]
    for param in resolver.params:
        block = blocks[param.name]
        assert flat(param.help) in block
        if param.required:
            assert "required" in block
        elif param.default is None:
            assert "optional" in block
        else:
            assert param.default_text() in block
        if param.kind == "choice":
            assert "choice, one of:" in block
            for choice in param.allowed(rules):
                assert choice in block, (param.name, choice)
        elif param.kind == "int":
            assert block.startswith(flat(param.help) + " number")
        elif param.kind == "bool":
            assert "yes/no" in block


def test_a_resolver_without_inputs_says_so(rules: Rules) -> None:
    resolver = next(r for r in all_resolvers().values() if not r.params)
    text = printed(80, lambda c: show_resolver(resolver, rules, c))
    assert "no inputs" in text


def test_one_resolver_as_json_is_its_entry_in_the_list(rules: Rules) -> None:
    for resolver in list(all_resolvers().values())[:10]:
        assert resolver_json(resolver, rules) == resolvers_json([resolver], rules)[0]


@pytest.mark.parametrize(
    "args",
    [
        ("fleet", "tactical", "--seed", "5"),
        ("fleet", "convoy", "--seed", "2"),
        ("scenario", "high-seas", "--seed", "5"),
        ("resolvers", "flob"),
    ],
)
def test_the_commands_fit_80_columns(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...]
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    code, out, err = run(capsys, *args)
    assert code == 0, err
    check_fits(out, 80)


# --- tables: every table of every ruleset fits, split and keyed where it must ----------

TABLES = [
    table.id for ruleset in load_rules().rulesets.values() for table in ruleset.tables.values()
]


def table_text(rules: Rules, table_id: str, width: int, terminal: bool) -> str:
    from generator.listing import show_table
    from generator.lookup import find_table

    out = io.StringIO()
    console = Console(
        width=width, file=out, force_terminal=terminal, color_system=None, highlight=False
    )
    show_table(find_table(rules, table_id), console)
    return out.getvalue()


@pytest.mark.parametrize("terminal", [True, False], ids=["terminal", "piped"])
@pytest.mark.parametrize("table_id", TABLES)
def test_every_table_fits_80_columns(rules: Rules, table_id: str, terminal: bool) -> None:
    check_fits(table_text(rules, table_id, 80, terminal), 80)


@pytest.mark.parametrize("table_id", ["impulse.damage-effects", "flob.broadside"])
def test_the_widest_tables_fit_80_columns_piped_from_the_command_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, table_id: str
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    code, out, err = run(capsys, "tables", table_id)
    assert code == 0, err
    check_fits(out, 80)


def test_a_wide_table_is_split_with_its_headings_keyed_and_no_cell_lost(rules: Rules) -> None:
    from generator.lookup import cell_text, find_table

    table = find_table(rules, "flob.broadside")
    rows, cols = table.axes
    text = table_text(rules, "flob.broadside", 80, True)
    assert "Broadside Table (1 of 2)" in text and "Broadside Table (2 of 2)" in text
    assert "attack \\ roll" in text
    assert "Key: attack = Attack Number; roll = Die Roll (2d6)" in text
    # every row of every part: its label, then its cells in the columns' order
    lines = [[c.strip() for c in line.split("│")[1:-1]] for line in text.splitlines()]
    got: dict[str, list[str]] = {}
    for cells in lines:
        if cells and cells[0] in rows.labels:
            got.setdefault(cells[0], []).extend(cells[1:])
    assert got == {
        label: [cell_text(c) for c in row]
        for label, row in zip(rows.labels, table.cells, strict=True)
    }
    # wide enough, the same table is printed whole with its full headings and no key
    whole = table_text(rules, "flob.broadside", 130, True)
    assert "(1 of" not in whole and "Key:" not in whole
    assert f"{rows.title} \\ {cols.title}" in whole


def test_a_table_of_prose_wraps_its_cells_rather_than_splitting(rules: Rules) -> None:
    text = table_text(rules, "high-seas.guns-bear", 80, True)
    assert "(1 of" not in text
    check_fits(text, 80)
    assert "Stern Guns" in text and "broadsides." in flat(text)


def test_too_narrow_for_any_table_the_rows_are_blocks(rules: Rules) -> None:
    text = table_text(rules, "impulse.damage-effects", 24, True)
    check_fits(text, 24)
    assert "┃" not in text  # no table at all
    assert "Hits achieved 12: 11R1H1C" in flat(text)
