"""Cell formats: the shared ones of the loader, and each ruleset's own, registered by the
module its spec names under ``cell_formats`` (the loader names no ruleset's code)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from generator.loading import cells as cells_module
from generator.loading import check_files
from generator.loading.cells import CellFormatError, cell_format, cell_formats, parse_cell
from generator.resources import data_dir
from generator.rulesets import SpecError, ruleset_specs

SHARED = {"pair", "signed", "d6-target", "range-change"}


@pytest.fixture
def fresh_registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Let a test change the registry and re-import the rulesets' formats, then undo it."""
    monkeypatch.setattr(cells_module, "_FORMATS", dict(cells_module._FORMATS))
    cells_module._import_ruleset_formats.cache_clear()
    yield
    cells_module._import_ruleset_formats.cache_clear()


def test_the_loader_keeps_only_the_shared_formats() -> None:
    """A ruleset's own format is its ruleset's code, reached through its spec."""
    formats = cell_formats()
    home = {name: parser.__module__ for name, parser in formats.items()}
    assert {name for name, module in home.items() if module == cells_module.__name__} == SHARED
    assert home["hrc"] == "generator.ruleset.impulse"
    assert home["flob-broadside"] == "generator.ruleset.flob"
    named = {spec.cell_formats for spec in ruleset_specs().values()} - {None}
    assert named == {"generator.ruleset.impulse", "generator.ruleset.flob"}


@pytest.mark.parametrize(
    ("name", "cell", "fields"),
    [
        ("hrc", "2H2R2C", {"hull": 2, "rigging": 2, "crew": 2}),
        ("hrc", "11R1H1C", {"hull": 1, "rigging": 11, "crew": 1}),
        ("hrc", "1H", {"hull": 1, "rigging": 0, "crew": 0}),
        ("flob-broadside", "—", {"rr": 0, "shattered": False, "strike_test": False}),
        ("flob-broadside", "rr", {"rr": 1, "shattered": False, "strike_test": False}),
        ("flob-broadside", "3rr, s", {"rr": 3, "shattered": True, "strike_test": False}),
        ("flob-broadside", "3rr, str", {"rr": 3, "shattered": False, "strike_test": True}),
        ("pair", "7/6", {"first": 7, "second": 6}),
        ("signed", "−2", {"modifier": -2}),
        ("d6-target", "4, 5 or 6", {"faces": [4, 5, 6], "min": 4, "possible": True}),
        ("range-change", "no change", {"change": 0}),
    ],
)
def test_every_format_reads_its_cells(name: str, cell: str, fields: dict[str, Any]) -> None:
    assert parse_cell(name, cell) == fields


@pytest.mark.parametrize(
    ("name", "cell", "message"),
    [
        ("hrc", "2H1H", r"'2H1H' names H twice"),
        ("hrc", "2X", r"'2X' is not hits such as 2H1R1C"),
        ("flob-broadside", "4r", r"'4r' is not a broadside result such as 2rr"),
        ("d6-target", "4, 6", r"'4, 6' is not an unbroken run of d6 faces"),
    ],
)
def test_a_cell_out_of_its_format_says_what_it_should_be(
    name: str, cell: str, message: str
) -> None:
    with pytest.raises(CellFormatError, match=message):
        parse_cell(name, cell)


def test_a_data_file_naming_an_unregistered_format_fails_at_load(tmp_path: Path) -> None:
    """File, line, table and key, and the formats there are (the rulesets' own too)."""
    text = (data_dir() / "flob.yaml").read_text(encoding="utf-8")
    assert text.count("cell_format: flob-broadside") == 1
    broken = tmp_path / "flob.yaml"
    broken.write_text(text.replace("cell_format: flob-broadside", "cell_format: broadside"))
    line = 1 + text[: text.index("cell_format: flob-broadside")].count("\n")
    problems = check_files([broken])
    assert problems[0] == (
        f"{broken}:{line}: flob.broadside cell_format: unknown cell_format 'broadside' "
        "(known: d6-target, flob-broadside, hrc, pair, range-change, signed)"
    )


def test_a_format_registered_twice_is_refused(fresh_registry: None) -> None:
    @cell_format("hrc-test")
    def first(text: str) -> dict[str, Any]:
        return {}

    def second(text: str) -> dict[str, Any]:
        return {}

    with pytest.raises(RuntimeError, match=r"cell format 'hrc-test' registered twice \(.*first"):
        cell_format("hrc-test")(second)
    assert cell_formats()["hrc-test"] is first


def test_a_spec_whose_module_registers_no_format_is_refused(
    fresh_registry: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As if the module the impulse spec names registered nothing when imported."""
    shared = {
        n: p for n, p in cells_module._FORMATS.items() if p.__module__ == cells_module.__name__
    }
    monkeypatch.setattr(cells_module, "_FORMATS", shared)
    monkeypatch.setattr(cells_module, "import_code", lambda spec, key: None)
    with pytest.raises(
        SpecError,
        match=r"impulse\.yaml:\d+: importing generator\.ruleset\.impulse registered no cell "
        r"format for 'impulse'",
    ):
        cell_formats()


def test_the_rules_snapshot_is_keyed_by_the_formats_code() -> None:
    """The disk cache of the checked data is made again when a format's parser changes."""
    sources = cells_module.format_sources()
    assert {path.name for path in sources} == {"cells.py", "impulse.py", "flob.py"}
    assert all(re.search(r"generator/(loading|ruleset)/", path.as_posix()) for path in sources)
