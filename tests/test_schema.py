"""The file formats (generator.schema): every file the generators write passes its ruleset's
schema; an edited file is refused with each problem on its own line, naming the file, the
line, the key path and what is allowed; docs/file-formats.md is what the schemas print.

No sheet is rendered here: the whole module costs a few seconds of CPU.
"""

from __future__ import annotations

import copy
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from generator.generate.base import get_generator
from generator.generate.common import Checker
from generator.generate.scenario import Order, dump, roll_force, roll_scenario
from generator.loading import Rules, load_rules
from generator.rulesets import ruleset_ids
from generator.schema import (
    assembly,
    check_character,
    check_force,
    check_scenario,
    context,
    describe_all,
    has_schema,
    schema_for,
)
from generator.schema.tactical import rating_spans
from generator.yamlfile import read_yaml
from tests.conftest import REPO

SEEDS = range(60)
RULESETS = ruleset_ids()
# the ruleset whose units are people: its generator rolls characters
PEOPLE = next(r for r in RULESETS if get_generator(r).units == "characters")


class Problems:
    """Collects what a schema reports (a Checker without a file)."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def fail(self, path: tuple[str | int, ...], message: str) -> None:
        where = "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in path).lstrip(".")
        self.problems.append(f"{where or 'top level'}: {message}")


def _problems(check: Callable[[Problems], object]) -> list[str]:
    found = Problems()
    check(found)
    return found.problems


# ---------------------------------------------------------------- generated files pass


def test_every_ruleset_declares_its_schema() -> None:
    assert [r for r in RULESETS if not has_schema(r)] == []


@pytest.mark.parametrize("ruleset", RULESETS)
def test_generated_scenarios_and_fleets_pass(rules: Rules, ruleset: str) -> None:
    failed = []
    for seed in SEEDS:
        scenario = roll_scenario(rules, ruleset, seed)
        found = _problems(lambda p, s=scenario: check_scenario(p, rules, s))
        failed += [f"scenario seed {seed}: {problem}" for problem in found]
        force = roll_force(rules, ruleset, seed)
        found = _problems(lambda p, f=force: check_force(p, rules, f))
        failed += [f"fleet seed {seed}: {problem}" for problem in found]
    assert failed == []


def test_generated_characters_pass(rules: Rules) -> None:
    failed = []
    for seed in SEEDS:
        person = get_generator(PEOPLE).roll_character(rules, seed)
        found = _problems(lambda p, c=person: check_character(p, rules, c))
        failed += [f"seed {seed}: {problem}" for problem in found]
    assert failed == []


def test_a_scenario_checked_again_works_nothing_out_from_the_rules_again(rules: Rules) -> None:
    """What the rules give (ranges, rows, choices) is worked out once per Rules: checking
    another scenario stores nothing new. Counted, not timed (a loaded machine is slow)."""

    class Counting(dict[Any, Any]):
        stores = 0

        def __setitem__(self, key: Any, value: Any) -> None:
            Counting.stores += 1
            super().__setitem__(key, value)

    for ruleset in RULESETS:
        scenarios = [roll_scenario(rules, ruleset, seed) for seed in (7, 8, 9)]
        for scenario in scenarios:
            check_scenario(Problems(), rules, scenario)
        memo = context._memo_for(rules)
        context._MEMO[id(rules)] = (rules, Counting(memo))
        try:
            for scenario in scenarios:
                edited = copy.deepcopy(scenario)
                assert _problems(lambda p, e=edited: check_scenario(p, rules, e)) == []
        finally:
            context._MEMO[id(rules)] = (rules, memo)
        assert Counting.stores == 0, ruleset


# ---------------------------------------------------------------- edited files fail


def _set(data: Any, path: tuple[str | int, ...], value: Any) -> None:
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


def _keypath(path: tuple[str | int, ...]) -> str:
    return "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in path).lstrip(".")


def _line_of(text: str, needle: str) -> int:
    lines = [
        number
        for number, line in enumerate(text.splitlines(), 1)
        if line.strip().removeprefix("- ").strip() == needle
    ]
    assert len(lines) == 1, f"{needle!r} is on lines {lines}"
    return lines[0]


def _refused(
    tmp_path: Path,
    data: dict[str, Any],
    edits: list[tuple[tuple[str | int, ...], Any]],
    needle: str,
    check: Callable[[Checker, Any], object],
) -> tuple[list[str], str]:
    """Edit `data`, write it as YAML, read it back and check it: return the problems and
    the prefix (file:line: key.path:) the first edit's problem must have."""
    edited = copy.deepcopy(data)
    for path, value in edits:
        _set(edited, path, value)
    text = dump(edited, "yaml")
    file = tmp_path / "edited.yaml"
    file.write_text(text, encoding="utf-8")
    doc = read_yaml(file)
    checker = Checker(doc)
    check(checker, doc.data)
    return checker.problems, f"{file}:{_line_of(text, needle)}: {_keypath(edits[0][0])}: "


SHIP = ("sides", 0, "ships", 0)
PERSON = ("sides", 0, "characters", 0)
OFFICER = (*SHIP, "officers", 0)

# (ruleset, what is wrong, the edits (the first is the one reported), the line it is on
# in the file, a fragment of the message)
EDITS: list[tuple[str, str, list[tuple[tuple[str | int, ...], Any]], str, str]] = [
    # tactical
    ("tactical", "rating", [((*SHIP, "ratings", "hull"), 40)], "hull: 40",
     "40 is out of range {hull} for hull (the least and most a tactical ship can have)"),
    ("tactical", "direction", [(("wind", "direction"), "Nroth")], "direction: Nroth",
     "'Nroth' is not a wind direction (allowed: Calm, North, NE, East, SE, South, SW, West, "
     "NW); did you mean 'North'?"),
    ("tactical", "bearing",
     [(("wind", "from_bearing"), 90), (("wind", "direction"), "North")], "from_bearing: 90",
     "from_bearing 90 does not match direction North (tactical.wind gives 0)"),
    ("tactical", "empty name", [((*SHIP, "name"), "")], "name: ''", "name is empty"),
    ("tactical", "unknown key", [((*SHIP, "hul"), 3)], "hul: 3",
     "unknown key 'hul' (allowed: name, class, flagship, ally, navy, captain, traits, ratings, "
     "override, damage, marked)"),
    ("tactical", "class", [((*SHIP, "class"), "4th Class")], "class: 4th Class",
     "'4th Class' is not a ship class (allowed: 1st Class, 2nd Class, 3rd Class, Large "
     "Frigate, Frigate, Small Frigate)"),
    ("tactical", "type", [((*SHIP, "ratings", "sails"), "four")], "sails: four",
     "expected a whole number, found 'four'"),
    ("tactical", "trait", [((*SHIP, "traits", 0, "result"), "Leaky")], "result: Leaky",
     "'Leaky' is not a"),
    ("tactical", "long name", [((*SHIP, "captain"), "x" * 61)], f"captain: {'x' * 61}",
     "captain is longer than 60 characters (61)"),
    # flob
    ("flob", "rating", [((*SHIP, "hull"), 40)], "hull: 40",
     "40 is out of range 3..12 for hull (the least and most a rate has)"),
    ("flob", "direction", [(("wind", "direction"), "Nroth")], "direction: Nroth",
     "'Nroth' is not a wind direction (allowed: North, North-east, East, South-east, South, "
     "South-west, West, North-west); did you mean 'North'?"),
    ("flob", "bearing",
     [(("wind", "from_bearing"), 90), (("wind", "direction"), "North"),
      (("map", "wind_from"), 90)], "from_bearing: 90",
     "from_bearing 90 does not match direction North (flob.wind gives 0)"),
    ("flob", "empty name", [((*SHIP, "name"), "  ")], "name: '  '", "name is empty"),
    ("flob", "unknown key", [((*SHIP, "hul"), 3)], "hul: 3", "unknown key 'hul' (allowed: "),
    ("flob", "rate", [((*SHIP, "rate"), "8th")], "rate: 8th",
     "'8th' is not a rate (allowed: 1st, 2nd, 3rd, 4th, 5th, 6th, Unrated)"),
    ("flob", "type", [((*SHIP, "broadside"), "ten")], "broadside: ten",
     "expected a whole number, found 'ten'"),
    ("flob", "year", [(("year",), 1700)], "year: 1700",
     "1700 is out of range 1756..1815 for year (the years flob is played in)"),
    # convoy
    ("convoy", "markers", [((*SHIP, "crew"), 40)], "crew: 40",
     "40 is out of range 1..4 for crew (the least and most convoy.ship-markers gives a ship)"),
    ("convoy", "direction", [(("wind", "direction"), "Nroth")], "direction: Nroth",
     "'Nroth' is not a wind direction (allowed: North, North-east, South-east, South, "
     "South-west, North-west); did you mean 'North'?"),
    ("convoy", "bearing",
     [(("wind", "from_bearing"), 60), (("wind", "direction"), "North")], "from_bearing: 60",
     "from_bearing 60 does not match direction North (convoy.wind gives 0)"),
    ("convoy", "empty name", [((*SHIP, "name"), "")], "name: ''", "name is empty"),
    ("convoy", "unknown key", [((*SHIP, "hul"), 3)], "hul: 3",
     "unknown key 'hul' (allowed: name, kind, size, crew, guns, sail, condition, override, "
     "damage, marked)"),
    ("convoy", "size", [((*SHIP, "size"), "huge")], "size: huge",
     "'huge' is not a ship size (allowed: small, medium, large)"),
    ("convoy", "type", [((*SHIP, "guns"), "two")], "guns: two",
     "expected a whole number, found 'two'"),
    # impulse
    ("impulse", "boxes", [((*SHIP, "hull"), 400)], "hull: 400",
     "400 is out of range 8..42 for hull (the least and most a class has)"),
    ("impulse", "direction", [(("wind", "direction"), "Nroth")], "direction: Nroth",
     "'Nroth' is not a wind direction (allowed: North, "),
    ("impulse", "bearing",
     [(("wind", "from_bearing"), 90), (("wind", "direction"), "North")], "from_bearing: 90",
     "from_bearing 90 does not match direction North (impulse.wind gives 0)"),
    ("impulse", "empty name", [((*SHIP, "name"), "")], "name: ''", "name is empty"),
    ("impulse", "unknown key", [((*SHIP, "hul"), 3)], "hul: 3", "unknown key 'hul' (allowed: "),
    ("impulse", "class", [((*SHIP, "class"), "Galleon")], "class: Galleon",
     "'Galleon' is not a ship class (allowed: Cutter, Brig-sloop, "),
    ("impulse", "type", [((*SHIP, "guns"), "many")], "guns: many",
     "expected a whole number, found 'many'"),
    # high-seas
    ("high-seas", "points", [((*SHIP, "hull_hp"), 99999)], "hull_hp: 99999",
     "99999 is out of range 80..740 for hull_hp (the least and most a type of "
     "high-seas.ship-types has)"),
    ("high-seas", "wind", [(("wind", "result"), "Gael")], "result: Gael",
     "'Gael' is not a wind (allowed: Moderate breeze, Fresh breeze, Light airs, Strong "
     "breeze, Gale); did you mean 'Gale'?"),
    ("high-seas", "meters", [(("range", "meters"), "32"), (("range", "band"), "Far")],
     "meters: '32'", "meters '32' does not match band Far (high-seas.range gives '192+')"),
    ("high-seas", "empty name", [((*SHIP, "name"), "")], "name: ''", "name is empty"),
    ("high-seas", "unknown key", [((*SHIP, "hul"), 3)], "hul: 3", "unknown key 'hul' (allowed: "),
    ("high-seas", "type", [((*SHIP, "type"), "Junk")], "type: Junk",
     "'Junk' is not a ship type (allowed: Cutter, Pirate schooner, "),
    ("high-seas", "wrong type", [((*SHIP, "crew"), "lots")], "crew: lots",
     "expected a whole number, found 'lots'"),
    ("high-seas", "officer", [((*OFFICER, "attributes", "wit"), 0)], "wit: 0",
     "0 is out of range 3..18 for wit"),
    # duel
    ("duel", "attribute", [((*PERSON, "attributes", "strength"), 40)], "strength: 40",
     "40 is out of range 3..18 for strength (duel.attributes' attribute_min..attribute_max)"),
    ("duel", "wind", [(("wind", "result"), "Gael")], "result: Gael",
     "'Gael' is not a wind (allowed: Calm, Fresh breeze, Strong breeze, Gale); did you mean "
     "'Gale'?"),
    ("duel", "wind and weather",
     [(("wind", "result"), "Calm"), (("weather", "result"), "Storm")], "result: Calm",
     "result Calm does not match weather Storm (duel.weather gives Gale)"),
    ("duel", "empty name", [((*PERSON, "name"), "")], "name: ''", "name is empty"),
    ("duel", "unknown key", [((*PERSON, "attributes", "strenght"), 12)], "strenght: 12",
     "unknown key 'strenght' (allowed: strength, endurance, dexterity, wit); did you mean "
     "'strength'?"),
    ("duel", "weapon", [((*PERSON, "weapons", 0, "name"), "Lightsaber")], "name: Lightsaber",
     "'Lightsaber' is not a weapon (allowed: Dagger, Main gauche, "),
    ("duel", "type", [((*PERSON, "height_cm"), "tall")], "height_cm: tall",
     "expected a whole number, found 'tall'"),
]  # fmt: skip


def _edit_id(edit: tuple[Any, ...]) -> str:
    return f"{edit[0]}-{edit[1].replace(' ', '-')}"


@pytest.mark.parametrize("edit", EDITS, ids=[_edit_id(e) for e in EDITS])
def test_an_edited_scenario_is_refused_saying_where_and_what_is_allowed(
    rules: Rules, tmp_path: Path, edit: tuple[Any, ...]
) -> None:
    ruleset, _, edits, needle, message = edit
    # a wind other than the one the edit makes, so the edit is the only problem
    scenario = next(
        s
        for s in (roll_scenario(rules, ruleset, seed) for seed in range(3, 40))
        if not isinstance(s["wind"], dict) or s["wind"].get("direction") not in ("Calm", "North")
    )
    if "{hull}" in message:
        low, high = rating_spans(rules)["hull"]
        message = message.replace("{hull}", f"{low}..{high}")
    problems, where = _refused(
        tmp_path, scenario, edits, needle, lambda c, d: check_scenario(c, rules, d)
    )
    assert len(problems) == 1, problems
    assert problems[0].startswith(where), problems
    assert message in problems[0], problems


def test_every_ruleset_has_its_edits_tested() -> None:
    kinds = {"bearing", "direction", "empty name", "unknown key", "type"}
    for ruleset in RULESETS:
        tested = {e[1] for e in EDITS if e[0] == ruleset}
        assert len(tested) >= 6, ruleset
        assert {"empty name", "unknown key"} <= tested, ruleset
    assert {e[1] for e in EDITS} >= kinds


def test_an_edited_fleet_and_character_are_refused(rules: Rules, tmp_path: Path) -> None:
    force = roll_force(rules, "tactical", 5)
    problems, where = _refused(
        tmp_path,
        force,
        [(("ships", 0, "ratings", "hull"), 40)],
        "hull: 40",
        lambda c, d: check_force(c, rules, d),
    )
    assert len(problems) == 1 and problems[0].startswith(where), problems
    assert "40 is out of range" in problems[0]
    person = get_generator(PEOPLE).roll_character(rules, 5)
    problems, where = _refused(
        tmp_path,
        person,
        [(("hit_points",), 99)],
        "hit_points: 99",
        lambda c, d: check_character(c, rules, d),
    )
    assert len(problems) == 1 and problems[0].startswith(where), problems
    assert "99 is out of range" in problems[0]


def test_every_problem_is_reported_at_once(rules: Rules) -> None:
    scenario = roll_scenario(rules, "tactical", 4)
    edited = copy.deepcopy(scenario)
    edited["titel"] = edited.pop("title")
    edited["seed"] = -1
    ships = edited["sides"][1]["ships"]
    for ship in ships:
        ship["flagship"] = False
    ships[0]["ratings"] = "strong"
    del edited["wind"]
    found = _problems(lambda p: check_scenario(p, rules, edited))
    assert found == [
        "titel: unknown key 'titel' (allowed: ruleset, seed, title, year, sides, wind, weather, "
        "map, setup, victory, special_rules, house_tables, generator, balance, options); did "
        "you mean 'title'?",
        "seed: -1 is out of range for seed: at least 0",
        "top level: missing 'title' (text: at most 120 characters)",
        "sides[1].ships[0].ratings: expected the nine ratings, found 'strong'",
        "sides[1].ships: a fleet has exactly one flagship, found 0",
        "top level: missing 'wind' (a wind (roll, direction, from_bearing))",
    ]


def test_the_keys_being_added_are_accepted(rules: Rules) -> None:
    for ruleset in RULESETS:
        scenario = roll_scenario(rules, ruleset, 2)
        scenario["year"] = 1790
        scenario["options"] = {"ships": [3, 4], "navies": ["british"], "balanced": True}
        scenario["sides"][0]["year"] = 1790
        scenario["sides"][0]["size_note"] = "Three ships, not the rules' eight."
        assert _problems(lambda p, s=scenario: check_scenario(p, rules, s)) == [], ruleset
        force = {**roll_force(rules, ruleset, 2), "year": 1790}
        assert _problems(lambda p, f=force: check_force(p, rules, f)) == [], ruleset


def test_a_file_that_is_no_scenario_is_refused(rules: Rules) -> None:
    assert _problems(lambda p: check_scenario(p, rules, ["a", "list"])) == [
        "top level: expected a scenario (a mapping), found a list"
    ]
    found = _problems(lambda p: check_scenario(p, rules, {"ruleset": "tactics"}))
    assert len(found) == 1
    assert found[0].startswith("ruleset: 'tactics' is not a ruleset (allowed: ")
    assert found[0].endswith("did you mean 'tactical'?")


def test_a_ruleset_without_a_schema_has_the_shared_keys_checked(
    rules: Rules, monkeypatch: pytest.MonkeyPatch
) -> None:
    # as a ruleset added with its own four files and no SCHEMA: its own keys are open
    monkeypatch.setitem(assembly._SCHEMAS, "tactical", None)
    assert not has_schema("tactical")
    scenario = roll_scenario(rules, "tactical", 3)
    scenario["sides"][0]["anything"] = "goes"
    assert _problems(lambda p: check_scenario(p, rules, scenario)) == []
    scenario["seed"] = "three"
    del scenario["victory"]
    assert _problems(lambda p: check_scenario(p, rules, scenario)) == [
        "seed: expected a whole number, found 'three'",
        "top level: missing 'victory' (list of text: each at most 1000 characters)",
    ]
    assert _problems(lambda p: check_force(p, rules, roll_force(rules, "tactical", 3))) == []


HOUSE = """\
tactical:
  ship:
    title: "Ship Table (house: leaky hulls)"
    kind: table
    house: true
    source: {house: "test: a ship may be leaky"}
    params: {rolled: once per ship, flagship_rolls: 2}
    axes:
      - {name: roll, title: "1D6", dice: 1d6, values: ["1-2", "3-4", "5-6"]}
    cells:
      - {result: "Leaky", bonus: "-1 to Hull Rating", effect: {hull: -1}}
      - {result: "Carronades", bonus: "+1 to Cannon Rating", effect: {cannon: 1}}
      - {result: "Royal Marines", bonus: "+1 to Crew Rating", effect: {crew: 1}}
"""


def test_house_rules_change_what_is_allowed(rules: Rules, tmp_path: Path) -> None:
    path = tmp_path / "house.yaml"
    path.write_text(HOUSE, encoding="utf-8")
    house = load_rules(path)
    # a flagship rolls the ship table twice: two leaky rolls take 2 off the least hull
    assert rating_spans(house)["hull"][0] == rating_spans(rules)["hull"][0] - 2
    for seed in range(20):
        scenario = roll_scenario(house, "tactical", seed)
        assert _problems(lambda p, s=scenario: check_scenario(p, house, s)) == [], seed
    scenario = roll_scenario(rules, "tactical", 1)
    traits = [t for t in scenario["sides"][0]["ships"][0]["traits"] if t["table"] == "ship"]
    traits[0]["result"] = "Seaworthy"
    found = _problems(lambda p: check_scenario(p, house, scenario))
    assert any("'Seaworthy' is not a ship trait (allowed: Leaky, " in f for f in found), found


# ---------------------------------------------------------------- the docs


def test_the_file_formats_doc_is_what_the_schemas_print(
    rules: Rules, capsys: pytest.CaptureFixture[str]
) -> None:
    from generator.schema.__main__ import main

    main()
    printed = capsys.readouterr().out
    assert printed == describe_all(rules)
    doc = (REPO / "docs" / "file-formats.md").read_text(encoding="utf-8")
    assert doc == printed, "docs/file-formats.md is stale: python -m generator.schema > it"
    for ruleset in RULESETS:
        assert f"### Scenario (`quartermaster scenario {ruleset}`)" in doc
    assert "`sides[].ships[].ratings.hull`" in doc


def test_the_file_formats_are_checked_and_printed_without_the_generators() -> None:
    """The schemas stand below the generators: every ruleset's file format is printed and
    a file checked with no generator, sheet or PDF module imported."""
    code = (
        "import sys\n"
        "from generator.loading import load_rules\n"
        "from generator.schema import check_scenario, describe_all\n"
        "class Quiet:\n"
        "    def fail(self, path, message): pass\n"
        "rules = load_rules()\n"
        "assert describe_all(rules)\n"
        "check_scenario(Quiet(), rules, {'ruleset': 'tactical'})\n"
        "above = sorted(m for m in sys.modules if m.split('.')[:2] in (\n"
        "    ['generator', 'generate'], ['generator', 'render'], ['generator', 'pdf']))\n"
        "assert not above, above\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_files_year_is_one_the_generator_sets_scenarios_in(rules: Rules, ruleset: str) -> None:
    """--year and a year read from a file are held to the same years."""
    schema = schema_for(ruleset)
    assert schema is not None
    assert schema.years(rules) == get_generator(ruleset).years(rules)


# ---------------------------------------------------------------- values the rules derive


def _first(rules: Rules, ruleset: str, wanted: Callable[[dict[str, Any]], bool]) -> Any:
    """Return (a fleet, the index of its first ship that is `wanted`) over seeds 0-59."""
    for seed in SEEDS:
        force = roll_force(rules, ruleset, seed)
        for index, ship in enumerate(force["ships"]):
            if wanted(ship):
                return force, index
    raise AssertionError(f"no {ruleset} ship wanted in seeds 0-59")


CLASSES = ("2nd Class", "Small Frigate")


def _derived_cases(rules: Rules) -> list[tuple[str, dict[str, Any], list[Any], str, str]]:
    """(ruleset, a fleet, its edits, the key path reported, what its message says), a case
    per ruleset whose rules derive a ship's numbers."""
    cases = []
    # a Small Frigate given a 2nd-class ship's ratings
    force, i = _first(rules, "tactical", lambda s: s["class"] == "2nd Class")
    hull = force["ships"][i]["ratings"]["hull"]
    types = rules.table("tactical.ship-types")
    second, small = (types.cell(types.axes[0].labels.index(c))["hull"] for c in CLASSES)
    cases.append(
        ("tactical", force, [(("ships", i, "class"), "Small Frigate")],
         f"ships[{i}].ratings.hull",
         f"{hull} is not what her class's row of tactical.ship-types with the bonuses of the "
         f"side and her traits gives: expected {hull - second + small}")
    )  # fmt: skip
    # a Cutter with 22 guns (11 a broadside, so the batteries still hold them all)
    force, i = _first(rules, "high-seas", lambda s: s["type"] == "Cutter")
    cases.append(
        ("high-seas", force,
         [(("ships", i, "guns"), 22), (("ships", i, "batteries", "port"), 10),
          (("ships", i, "batteries", "starboard"), 10)],
         f"ships[{i}].guns", "22 is not what the Cutter row of high-seas.ship-types gives: "
         "expected 10; to keep 22, add 'guns' to the ship's override list")
    )  # fmt: skip
    force, i = _first(rules, "flob", lambda s: s["rate"] == "3rd")
    cases.append(
        ("flob", force, [(("ships", i, "hull"), 3)], f"ships[{i}].hull",
         "3 is not what a 3rd rate's row of flob.ship-ratings gives: expected 10")
    )  # fmt: skip
    force, i = _first(rules, "impulse", lambda s: s["class"] == "Cutter")
    cases.append(
        ("impulse", force, [(("ships", i, "crew"), 12)], f"ships[{i}].crew",
         "12 is not what the Cutter row of impulse.ship-classes gives: expected 6")
    )  # fmt: skip
    force, i = _first(rules, "convoy", lambda s: (s["kind"], s["size"]) == ("warship", "large"))
    cases.append(
        ("convoy", force, [(("ships", i, "crew"), 1)], f"ships[{i}].crew",
         "1 is not what convoy.ship-markers for a large warship gives: expected 4")
    )  # fmt: skip
    return cases


def _edited(force: dict[str, Any], edits: list[Any]) -> dict[str, Any]:
    edited = copy.deepcopy(force)
    for path, value in edits:
        _set(edited, path, value)
    return edited


def test_a_derived_rating_that_contradicts_the_rules_is_refused_with_the_expected(
    rules: Rules,
) -> None:
    tested = set()
    for ruleset, force, edits, keypath, message in _derived_cases(rules):
        assert _problems(lambda p, f=force: check_force(p, rules, f)) == [], ruleset
        edited = _edited(force, edits)
        problems = _problems(lambda p, f=edited: check_force(p, rules, f))
        assert f"{keypath}: {message}" in "\n".join(problems), (ruleset, problems)
        assert all("to the ship's override list" in p for p in problems), problems
        tested.add(ruleset)
    assert tested == {"tactical", "high-seas", "flob", "impulse", "convoy"}


def test_a_gms_override_is_kept_and_said_on_the_roster(rules: Rules) -> None:
    from generator.render.kinds.roster import context

    for ruleset, force, edits, _, _ in _derived_cases(rules):
        edited = _edited(force, edits)
        index = edits[0][0][1]
        refused = _problems(lambda p, f=edited: check_force(p, rules, f))
        # the GM lists what was changed on purpose: every value refused
        keys = sorted({problem.split(":")[0].rsplit(".", 1)[1] for problem in refused})
        edited["ships"][index]["override"] = keys
        assert _problems(lambda p, f=edited: check_force(p, rules, f)) == [], ruleset
        scenario = roll_scenario(rules, ruleset, 1)
        scenario["sides"][0] = {k: v for k, v in edited.items() if k not in ("ruleset", "seed")}
        rows = context(rules, scenario, "a4", ruleset)["sides"][0]["units"]
        tags = " ".join(rows[index]["tags"])
        said = tags.split("set by the GM: ")[1]
        assert said.count(",") == len(keys) - 1 and "_" not in said, (ruleset, tags)


def test_a_squadron_line_that_disagrees_with_its_ships_is_refused(
    rules: Rules, tmp_path: Path
) -> None:
    """A roster header "3 ships" under a Squadron line "2 ships" passed."""
    asked = roll_force(rules, "impulse", 3, Order(ships=(3,)))
    problems, where = _refused(
        tmp_path, asked, [(("squadron", "ships"), 2)], "ships: 2",
        lambda c, d: check_force(c, rules, d),
    )  # fmt: skip
    assert problems[0] == (
        f"{where}the squadron's size says 2 ships, but 'ships' lists 3: make them agree"
    )
    rolled = roll_force(rules, "impulse", 3)
    rolled["ships"].append(copy.deepcopy(rolled["ships"][0]) | {"name": "Extra"})
    found = _problems(lambda p: check_force(p, rules, rolled))
    assert found == [
        f"squadron.result: the squadron's size says {rolled['squadron']['result']}, but "
        f"'ships' lists {len(rolled['ships'])}: make them agree"
    ]
    convoy = roll_force(rules, "convoy", 3, Order(navies=("british",)))
    if convoy.get("role") == "convoy":
        convoy["ships"].pop()
        found = _problems(lambda p: check_force(p, rules, convoy))
        assert len(found) == 1 and "does not match the ships listed" in found[0], found


def test_a_contradicted_fleet_is_one_line_on_the_command_line(
    rules: Rules, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.conftest import run

    force, i = _first(rules, "flob", lambda s: s["rate"] == "3rd")
    force["ships"][i]["hull"] = 3
    path = tmp_path / "fleet.yaml"
    text = dump(force, "yaml")
    path.write_text(text, encoding="utf-8")
    target = tmp_path / "roster.pdf"
    code, _, err = run(capsys, "sheet", "roster", "--from", str(path), "-o", str(target))
    assert code == 2 and not target.exists()
    line = _line_of(text, "hull: 3")
    assert err.count("\n") == 1 and f"{path}:{line}: ships[{i}].hull: 3 is not what" in err
    assert "expected 10" in err and "Traceback" not in err
