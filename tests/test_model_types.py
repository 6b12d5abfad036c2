"""The TypedDicts of generator.ruleset.model hold exactly the keys the generators write and
the schemas accept: none missing, none unknown, for every ruleset."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_type_hints

import pytest
import yaml

from generator.generate.base import get_generator
from generator.generate.common import Names
from generator.generate.scenario import Order, roll_force, roll_scenario, scenario_from_sides
from generator.loading import load_rules
from generator.ruleset import model
from generator.rulesets import ruleset_ids
from generator.schema.assembly import record_of, schema_for
from generator.schema.context import Ctx
from generator.schema.nodes import Items, Maybe, Node, Record, Variant

RULESETS = ruleset_ids()
SEEDS = (1, 7, 1805)


@pytest.fixture(scope="module")
def rules() -> Any:
    return load_rules()


def _orders(ruleset: str) -> list[Order]:
    orders = [Order(), Order(balanced=False)]
    if get_generator(ruleset).units == "ships":
        orders.append(Order(ships=(1, 3), balanced=False))  # asked sizes: Composition
    return orders


def _keys_fit(value: Any, typed: Any, where: str) -> list[str]:
    """Return what is wrong with `value`'s keys for the TypedDict `typed`, both ways."""
    assert isinstance(value, dict), f"{where}: not a mapping"
    keys = set(value)
    problems = []
    missing = typed.__required_keys__ - keys
    unknown = keys - typed.__required_keys__ - typed.__optional_keys__
    if missing:
        problems.append(f"{where}: {typed.__name__} requires {sorted(missing)}")
    if unknown:
        problems.append(f"{where}: {typed.__name__} has no {sorted(unknown)}")
    return problems


def _person(person: Any, typed: Any, where: str) -> Iterator[str]:
    yield from _keys_fit(person, typed, where)
    for index, weapon in enumerate(person.get("weapons", [])):
        yield from _keys_fit(weapon, model.Weapon, f"{where}.weapons[{index}]")


def _side(side: Any, typed: Any, where: str) -> Iterator[str]:
    yield from _keys_fit(side, typed, where)
    for key in ("national", "fleet"):
        if key in side:
            yield from _keys_fit(side[key], model.RolledBonus, f"{where}.{key}")
    if "admiral" in side:
        admiral = model.RolledBonus if "table" in side["admiral"] else model.Admiral
        yield from _keys_fit(side["admiral"], admiral, f"{where}.admiral")
    for key in ("squadron", "composition"):
        if key in side:
            made = model.Rolled if "table" in side[key] else model.AskedSize
            yield from _keys_fit(side[key], made, f"{where}.{key}")
    for index, person in enumerate(side.get("characters", [])):
        yield from _person(person, model.Person, f"{where}.characters[{index}]")
    for index, ship in enumerate(side.get("ships", [])):
        at = f"{where}.ships[{index}]"
        yield from _keys_fit(ship, model.Ship, at)
        for number, trait in enumerate(ship.get("traits", [])):
            yield from _keys_fit(trait, model.Rolled, f"{at}.traits[{number}]")
        for number, officer in enumerate(ship.get("officers", [])):
            yield from _person(officer, model.CrewOfficer, f"{at}.officers[{number}]")


SETTING = {
    "wind": model.Wind,
    "weather": model.Weather,
    "venue": model.Venue,
    "range": model.StartRange,
    "battle_clock": model.BattleClock,
    "balance": model.Balance,
}


def _scenario(scenario: Any, where: str) -> Iterator[str]:
    yield from _keys_fit(scenario, model.Scenario, where)
    for key, typed in SETTING.items():
        if key in scenario:
            yield from _keys_fit(scenario[key], typed, f"{where}.{key}")
    if scenario.get("map") is not None:
        yield from _keys_fit(scenario["map"], model.Map, f"{where}.map")
        for index, feature in enumerate(scenario["map"].get("features", [])):
            yield from _keys_fit(feature, model.Feature, f"{where}.map.features[{index}]")
        for index, zone in enumerate(scenario["map"].get("deployment", [])):
            yield from _keys_fit(zone, model.Deployment, f"{where}.map.deployment[{index}]")
    for index, side in enumerate(scenario["sides"]):
        yield from _side(side, model.Side, f"{where}.sides[{index}]")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_generated_scenarios_have_the_typed_keys(rules: Any, ruleset: str) -> None:
    problems = [
        problem
        for seed in SEEDS
        for order in _orders(ruleset)
        for problem in _scenario(
            roll_scenario(rules, ruleset, seed, order), f"{ruleset} {seed} {order}"
        )
    ]
    assert problems == []


@pytest.mark.parametrize("ruleset", [r for r in RULESETS if get_generator(r).units == "ships"])
def test_generated_fleets_have_the_typed_keys(rules: Any, ruleset: str) -> None:
    problems = [
        problem
        for seed in SEEDS
        for problem in _side(roll_force(rules, ruleset, seed), model.Force, f"{ruleset} {seed}")
    ]
    assert problems == []


def test_generated_characters_have_the_typed_keys(rules: Any) -> None:
    people = [r for r in RULESETS if get_generator(r).people]
    assert people, "no ruleset whose units are people"
    problems = [
        problem
        for ruleset in people
        for seed in SEEDS
        for problem in _person(
            get_generator(ruleset).roll_character(rules, seed), model.Character, ruleset
        )
    ]
    assert problems == []


@pytest.mark.parametrize("ruleset", RULESETS)
def test_rolled_settings_have_the_typed_keys(rules: Any, ruleset: str) -> None:
    gen = get_generator(ruleset)
    problems = []
    for seed in SEEDS:
        scenario = roll_scenario(rules, ruleset, seed)
        names = Names(rules, random.Random(seed), year=scenario.get("year"))
        setting = gen.roll_setting(rules, random.Random(seed), scenario["sides"], names)
        problems += _keys_fit(setting, model.Setting, f"{ruleset} {seed}")
    assert problems == []


def test_a_setting_is_a_scenarios_own_keys() -> None:
    """A setting holds the scenario's keys but those the scenario is put together with (and
    what a sheet is told), each of the same type."""
    added = {"ruleset", "seed", "sides", "generator", "balance", "options", *model.TOLD_ONLY}
    setting, scenario = get_type_hints(model.Setting), get_type_hints(model.Scenario)
    assert sorted(setting) == sorted(set(scenario) - added)
    assert {k: setting[k] for k in setting} == {k: scenario[k] for k in setting}


# ---------------------------------------------------------------- against the schemas


class _Quiet:
    def fail(self, *args: object) -> None:
        raise AssertionError(f"a schema reported {args} while being read")


def _record(ctx: Ctx, node: Node) -> list[dict[str, bool]]:
    """Return the key -> required of each record `node` may be (a list's items, a
    nullable value, each case of a variant)."""
    while isinstance(node, Items | Maybe):
        node = node.of if isinstance(node, Items) else node.node
    if isinstance(node, Variant):
        cases = list(ctx.get(node.cases).values())
        records = [*cases, *([node.default] if node.default else [])]
        return [found for record in records for found in _record(ctx, record)]
    if isinstance(node, Record):
        return [{k: f.required for k, f in ctx.get(node.fields).items()}]
    return []


def _field(ctx: Ctx, record: Record, key: str) -> list[dict[str, bool]]:
    fields = ctx.get(record.fields)
    return _record(ctx, fields[key].node) if key in fields else []


def _schema_records(rules: Any) -> dict[str, list[dict[str, bool]]]:
    """Every ruleset's records, by the TypedDict that types them."""
    ctx = Ctx(rules, _Quiet())
    found: dict[str, list[dict[str, bool]]] = {}

    def add(name: str, records: list[dict[str, bool]]) -> None:
        found.setdefault(name, []).extend(records)

    for ruleset in RULESETS:
        schema = schema_for(ruleset)
        assert schema is not None, f"{ruleset} has no schema"
        scenario = record_of(schema, "scenario")
        add("Scenario", _record(ctx, scenario))
        for key, typed in SETTING.items():
            add(typed.__name__, _field(ctx, scenario, key))
        add("Map", _field(ctx, scenario, "map"))
        for record in _field(ctx, scenario, "map"):
            assert record  # a map names its kind
        side = record_of(schema, "side")
        add("Side", _record(ctx, side))
        add("Force", _record(ctx, record_of(schema, "fleet")))
        units = _field(ctx, side, schema.units)
        add("Person" if schema.units == "characters" else "Ship", units)
        units_node = ctx.get(side.fields)[schema.units].node
        assert isinstance(units_node, Items) and isinstance(units_node.of, Record)
        unit = units_node.of
        if schema.units == "ships":
            officers = ctx.get(unit.fields).get("officers")
            if officers is not None:
                add("CrewOfficer", _record(ctx, officers.node))
        if schema.person is not None:
            add("Character", _record(ctx, record_of(schema, "character")))
    return found


TYPED = {
    "Scenario": model.Scenario,
    "Side": model.Side,
    "Force": model.Force,
    "Ship": model.Ship,
    "Person": model.Person,
    "CrewOfficer": model.CrewOfficer,
    "Character": model.Character,
    "Map": model.Map,
    **{typed.__name__: typed for typed in SETTING.values()},
}


@pytest.mark.parametrize("name", sorted(TYPED))
def test_typed_keys_are_the_schemas_keys(rules: Any, name: str) -> None:
    """Every key a schema accepts is typed and every typed key some schema accepts (bar what
    a sheet is told beside a scenario); a required key is one every schema requires."""
    typed = TYPED[name]
    records = _schema_records(rules)[name]
    assert records, f"no schema has a {name}"
    accepted = set().union(*records)
    told = set(model.TOLD_ONLY) if typed is model.Scenario else set()
    declared = typed.__required_keys__ | typed.__optional_keys__
    assert sorted(declared - told) == sorted(accepted)
    always = {key for key in accepted if all(record.get(key) is True for record in records)}
    assert typed.__required_keys__ <= always
    # the keys every schema requires but the type does not: only a scenario's setting,
    # which a fleet printed as a one-side scenario lacks (see `Scenario`)
    loose = always - typed.__required_keys__
    if typed is model.Scenario:
        assert loose == {"wind", "weather", "map", "setup", "victory", "special_rules"}
    elif typed is not model.Map:  # a map's keys are its kind's: every kind requires its own
        assert loose == set()


def test_side_of_keeps_only_a_sides_keys(rules: Any, tmp_path: Path) -> None:
    """A fleet file's ``options`` (free-form, what was asked) stay out of the side a
    scenario is made around: a side has no such key, and the scenario would not read back."""
    force = roll_force(rules, "tactical", 3)
    force["options"] = {"ships": [8]}
    fleet = tmp_path / "fleet.yaml"
    fleet.write_text(yaml.safe_dump(dict(force)), encoding="utf-8")
    scenario = scenario_from_sides(rules, "tactical", [fleet], 5, balanced=False)
    assert list(_keys_fit(scenario["sides"][0], model.Side, "side")) == []
    assert model.side_of(force) == {
        k: v for k, v in force.items() if k not in ("ruleset", "seed", "options", "year")
    }
