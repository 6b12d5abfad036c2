"""The ruleset contract (`generator.ruleset`): the registry every layer above the
generators asks for a ruleset's implementation, and the log card as a frozen model that the
generators build and render lays out, neither importing the other."""

from __future__ import annotations

import ast
import dataclasses
import subprocess
import sys
from pathlib import Path
from types import MappingProxyType

import pytest

import generator.generate as generate_package
from generator import ruleset as contract_module
from generator.errors import InputError
from generator.generate.base import RulesetGenerator, get_generator
from generator.loading import Rules
from generator.ruleset import Officer, RulesetContract, contract
from generator.ruleset.logcard import (
    Check,
    CheckCell,
    Checks,
    Choice,
    Full,
    Log,
    LogCard,
    Pair,
    Table,
    TextCell,
    Tracks,
    WriteCell,
    WriteIns,
    tracks,
)
from generator.rulesets import SpecError, ruleset_ids, serving
from tests.conftest import REPO

PACKAGE = REPO / "generator"
# what the contract promises, as the layers above read it
MEMBERS = (
    "ruleset",
    "units",
    "unit_word",
    "people",
    "strength_measure",
    "house_tables",
    "dated",
    "strength",
    "years",
    "ship_log",
    "ship_log_notes",
    "officers",
    "roll_character",
    "read_character",
)


@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_every_ruleset_is_registered_when_the_generators_are_imported(ruleset: str) -> None:
    found = contract(ruleset)
    assert found is get_generator(ruleset)
    assert isinstance(found, RulesetGenerator) and found.ruleset == ruleset
    assert all(hasattr(found, member) for member in MEMBERS)
    assert found.units in ("ships", "characters") and found.unit_word


def test_an_unknown_ruleset_names_those_there_are() -> None:
    with pytest.raises(InputError, match=r"no generator for ruleset 'nelson' \(known: .*tactical"):
        contract("nelson")


def test_a_ruleset_not_registered_says_to_import_the_generators(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(contract_module, "_IMPLEMENTATIONS", {})
    with pytest.raises(RuntimeError, match=r"'tactical' is registered: import generator\.generate"):
        contract("tactical")


def test_the_registry_is_empty_until_the_generators_are_imported() -> None:
    """The contract layer imports no generator: a process that imports only it has none
    registered, and importing `generator.generate` registers every ruleset's."""
    script = (
        "import sys\n"
        "from generator.ruleset import contract, registered\n"
        "from generator.rulesets import ruleset_ids\n"
        "assert not any(m.startswith('generator.generate') for m in sys.modules)\n"
        "assert not any(registered(r) for r in ruleset_ids())\n"
        "import generator.generate\n"
        "print(' '.join(contract(r).ruleset for r in ruleset_ids()))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == list(ruleset_ids())


def test_a_spec_whose_module_registers_nothing_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(generate_package, "import_code", lambda spec, key: None)
    monkeypatch.setattr(generate_package, "registered", lambda ruleset: ruleset != "flob")
    with pytest.raises(
        SpecError, match=r"flob\.yaml:\d+: importing generator\.generate\.flob registered no"
    ):
        generate_package._register_all()


def test_a_generator_fulfils_the_contract_as_typed() -> None:
    """A `RulesetGenerator` is a `RulesetContract` (mypy checks the assignment too)."""
    implementation: RulesetContract = get_generator("flob")
    assert implementation.house_tables == get_generator("flob").house_tables


# ---------------------------------------------------------------- the log card


def _built() -> tuple[Log, LogCard]:
    log = Log("s_1", "Victory")
    log.tag("Flagship")
    log.lines("Ship of the line", "Captain Hardy")
    log.fact("Skill", "+1")
    log.figure("Move", "2D6", "Sails 5")
    hull = log.track(
        "Hull", 6, 6, half_after=3, ticks=[2], end="at 0: sinks", after=[log.check("fire")]
    )
    log.full(tracks(hull), log.checks("Fled", ("Reload", 2)))
    log.pair(
        [log.writeins(("Crew killed", 30))],
        [
            log.choice("Status", ["fresh", "shaken"], "fresh"),
            log.table(
                ["Battery", "Guns", "Loaded", "Lost"],
                [("port", ["12", log.cell_checks("port", "loaded"), log.cell_write("port")])],
            ),
        ],
    )
    log.turn_log(4, 2)
    return log, log.card


def test_a_log_card_is_typed_and_frozen() -> None:
    log, card = _built()
    assert card.name == "Victory" and card.tags == ("Flagship",)
    assert card.lines == ("Ship of the line", "Captain Hardy") and card.turn_log == (4, 2)
    full, pair = card.rows
    assert isinstance(full, Full) and isinstance(pair, Pair)
    kinds = [type(section) for section in card.sections()]
    assert kinds == [Tracks, Checks, WriteIns, Choice, Table]
    (hull,) = next(s for s in card.sections() if isinstance(s, Tracks)).rows
    assert hull.value == "6" and len(hull.boxes) == 6
    assert hull.marks == ((2, "tick"), (3, "half")) and hull.end == "at 0: sinks"
    assert hull.after == (Check("fire", ("s_1_fire",)),)
    (row,) = next(s for s in card.sections() if isinstance(s, Table)).rows
    assert [type(cell) for cell in row.cells] == [TextCell, CheckCell, WriteCell]
    assert card.tips["s_1_hull_3"] == "Victory: Hull, box 3"
    assert card.tips["s_1_port_loaded"] == "Victory: Port: loaded"
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'tags'"):
        card.tags = ()  # type: ignore[misc]
    with pytest.raises(TypeError, match="does not support item assignment"):
        card.tips["s_1_name"] = "changed"  # type: ignore[index]
    # a card is a snapshot: what the builder adds later is not in it
    log.tag("Ally")
    assert card.tags == ("Flagship",) and log.card.tags == ("Flagship", "Ally")


def test_every_ruleset_log_card_holds_only_tuples(rules: Rules) -> None:
    """No list or dict inside a card a generator builds (blank logs): it is frozen all
    the way down."""

    def walk(value: object) -> None:
        assert not isinstance(value, list | dict | set), value
        if dataclasses.is_dataclass(value):
            for found in dataclasses.fields(value):
                if found.name != "tips":  # a read-only mapping, checked below
                    walk(getattr(value, found.name))
        elif isinstance(value, tuple):
            for item in value:
                walk(item)

    assert len(serving("ship-log")) >= 5
    for ruleset in serving("ship-log"):
        log = Log("blank_1", None)
        contract(ruleset).ship_log(log, rules, None, None)
        card = log.card
        walk(card)
        assert isinstance(card.tips, MappingProxyType) and card.name_field in card.tips
        assert card.name is None and card.rows, ruleset


# ---------------------------------------------------------------- the layers


def _imports(path: Path) -> set[str]:
    """Every module `path` imports, at its top or inside a function."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def _importing(paths: list[Path], prefixes: tuple[str, ...]) -> dict[str, list[str]]:
    return {
        str(path.relative_to(REPO)): bad
        for path in paths
        if (bad := sorted(m for m in _imports(path) if m.startswith(prefixes)))
    }


def test_the_contract_imports_nothing_above_it() -> None:
    above = ("generator.generate", "generator.render", "generator.pdf", "generator.cli")
    assert _importing(sorted((PACKAGE / "ruleset").glob("*.py")), above) == {}


def test_the_generators_do_not_import_render() -> None:
    paths = sorted((PACKAGE / "generate").glob("*.py"))
    assert _importing(paths, ("generator.render", "generator.pdf")) == {}


def test_the_drawn_sheets_ask_the_contract_not_the_generators() -> None:
    kinds = PACKAGE / "render" / "kinds"
    names = ("ship_log", "roster", "counters", "map")
    # a kind is a module, or a package of them
    found = {
        name: [*kinds.glob(f"{name}.py"), *sorted((kinds / name).rglob("*.py"))] for name in names
    }
    assert all(found.values()), found
    paths = [path for name in names for path in found[name]]
    assert _importing(paths, ("generator.generate",)) == {}


def test_no_render_module_imports_the_generators() -> None:
    """Render draws what it is given: what only a generator works out comes as data (the
    application layer's `told`), a ruleset's code through the contract."""
    assert _importing(sorted((PACKAGE / "render").rglob("*.py")), ("generator.generate",)) == {}


def test_a_batch_is_laid_out_from_scenarios_the_application_layer_rolled() -> None:
    assert _importing([PACKAGE / "pdf" / "batch.py"], ("generator.generate",)) == {}


def test_the_units_are_people_only_in_a_duel() -> None:
    assert [r for r in ruleset_ids() if contract(r).people] == ["duel"]


def test_a_ships_officers_are_said_by_the_ruleset(rules: Rules) -> None:
    """The packet's officers section takes the people aboard a unit from the contract."""
    ship = {
        "name": "Swallow",
        "officers": [
            {"role": "Captain", "name": "Ann Bonny"},
            {"name": "Jack Rackham"},
        ],
    }
    assert contract("high-seas").officers(ship) == [
        Officer(ship["officers"][0], "Captain Ann Bonny"),
        Officer(ship["officers"][1], "Officer Jack Rackham"),
    ]
    assert contract("tactical").officers(ship) == []
