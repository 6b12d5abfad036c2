"""Make the plain data a game starts from: a scenario, a fleet, a character; rolled from a
seed or read back from a file a GM edited, and written to ``-o`` when asked."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Generic, TypeVar

from generator.app.checks import check_output, read_order, say_uneven
from generator.app.inputs import (
    CHARACTER_FILE,
    FLEET_FILE,
    SCENARIO_FILE,
    check_input,
    check_ruleset,
    load_rules,
)
from generator.app.requests import (
    QUIET,
    CharacterRequest,
    FleetRequest,
    Listener,
    OrderOptions,
    ScenarioRequest,
    fresh_seed,
)
from generator.errors import InputError
from generator.generate import scenario as scenarios
from generator.generate.base import get_generator
from generator.loading import Rules
from generator.output import write_atomic
from generator.ruleset.model import Character, Force, Scenario
from generator.rulesets import serving
from generator.yamlfile import read_yaml

# what is made: a scenario, a fleet or a character (any of them, read from a file)
Made = TypeVar("Made", Scenario, Force, Character, Scenario | Force | Character)


@dataclass(frozen=True)
class Generated(Generic[Made]):
    """What was made, and how a terminal lists it.

    Attributes:
        kind: ``scenario``, ``fleet`` or ``character``.
        data: the scenario, fleet or character, as written to JSON or YAML.
        units: the key of a side's list of units (``ships``, ``characters``).
        fields: the unit fields a summary shows (None: the usual ones).
        written: the file it was written to (the request's output), or None.
    """

    kind: str
    data: Made
    units: str
    fields: tuple[str, ...] | None = None
    written: Path | None = None

    def text(self, as_yaml: bool) -> str:
        """Return the data as YAML or JSON text, as it is written to a file."""
        return scenarios.dump(self.data, "yaml" if as_yaml else "json")


def seed_or_fresh(seed: int | None, listener: Listener) -> int:
    """Return `seed`, or a fresh one, noted (``seed N``) so that the result can be repeated."""
    if seed is None:
        chosen = fresh_seed()
        listener.note(f"seed {chosen}")
        return chosen
    return seed


def _save(made: Generated[Made], output: Path | None, as_yaml: bool) -> Generated[Made]:
    """Write `made` to `output` (checked before the work), in YAML when asked or named so."""
    if output is None:
        return made
    in_yaml = as_yaml or output.suffix.lower() in (".yaml", ".yml")
    write_atomic(output, made.text(in_yaml).encode("utf-8"))
    return replace(made, written=output)


def make_scenario(request: ScenarioRequest, listener: Listener = QUIET) -> Generated[Scenario]:
    """Roll a whole scenario, make one around fleet files, or read an edited one."""
    rules = load_rules(request.rules_file)
    ruleset = request.ruleset
    check_ruleset(rules, ruleset)
    order = read_order(request.order)
    scenarios.check_order(rules, ruleset, order)
    if request.from_file is not None and (request.sides or request.seed is not None):
        raise InputError("--from: the scenario is read from the file; no --seed or --side")
    if request.sides and (request.order.ships or request.order.navies):
        raise InputError("--side: the fleet files say the ships and navies; no --ships or --navies")
    check_input(request.from_file, "--from", SCENARIO_FILE)
    for side in request.sides:
        check_input(side, "--side", FLEET_FILE)
    inputs = (request.from_file, request.rules_file, *request.sides)
    check_output(request.output, request.force, "data", inputs)
    if request.from_file is not None:
        scenario = scenarios.read_scenario(request.from_file, rules, ruleset)
    elif request.sides:
        seed = seed_or_fresh(request.seed, listener)
        scenario = scenarios.scenario_from_sides(
            rules, ruleset, list(request.sides), seed, order.year, order.balanced
        )
    else:
        scenario = roll_scenario(rules, ruleset, request.seed, order, listener)
    say_uneven(scenario, listener)
    gen = get_generator(ruleset)
    made = Generated("scenario", scenario, gen.units, gen.summary_fields)
    return _save(made, request.output, request.as_yaml)


def roll_scenario(
    rules: Rules, ruleset: str, seed: int | None, order: scenarios.Order, listener: Listener
) -> Scenario:
    """Roll the scenario `order` asks for from `seed` (None: a fresh one, noted)."""
    return scenarios.roll_scenario(rules, ruleset, seed_or_fresh(seed, listener), order)


def make_fleet(request: FleetRequest, listener: Listener = QUIET) -> Generated[Force]:
    """Roll one side's force (fleet, squadron or convoy), or read an edited fleet file."""
    rules = load_rules(request.rules_file)
    ruleset = request.ruleset
    check_ruleset(rules, ruleset)
    gen = get_generator(ruleset)
    if gen.units != "ships":
        raise InputError(
            f"{ruleset} has no fleets: use 'quartermaster character' or "
            f"'quartermaster scenario {ruleset}'"
        )
    ships = None if request.ships is None else str(request.ships)
    order = read_order(OrderOptions(ships, request.navy, request.year, balanced=False))
    scenarios.check_order(rules, ruleset, order, "--navy")
    if request.from_file is not None and _asked_to_roll(request):
        raise InputError(
            "--from: the fleet is read from the file; no --seed, --ships, --navy or --year"
        )
    check_input(request.from_file, "--from", FLEET_FILE)
    check_output(request.output, request.force, "data", (request.from_file, request.rules_file))
    if request.from_file is not None:
        force = scenarios.read_force(request.from_file, rules, ruleset)
    else:
        seed = seed_or_fresh(request.seed, listener)
        force = scenarios.roll_force(rules, ruleset, seed, order)
    made = Generated("fleet", force, gen.units, gen.summary_fields)
    return _save(made, request.output, request.as_yaml)


def _asked_to_roll(request: FleetRequest) -> bool:
    return bool(
        request.seed is not None
        or request.ships is not None
        or request.navy
        or request.year is not None
    )


def make_character(request: CharacterRequest, listener: Listener = QUIET) -> Generated[Character]:
    """Roll one duellist, or read an edited character file."""
    rules = load_rules(request.rules_file)
    gen = get_generator(serving("character")[0])
    if request.from_file is not None and request.seed is not None:
        raise InputError("--from: the character is read from the file; no --seed")
    check_input(request.from_file, "--from", CHARACTER_FILE)
    check_output(request.output, request.force, "data", (request.from_file, request.rules_file))
    if request.from_file is not None:
        person = gen.read_character(request.from_file, rules)
    else:
        person = gen.roll_character(rules, seed_or_fresh(request.seed, listener))
    return _save(Generated("character", person, "characters"), request.output, request.as_yaml)


#: what `read_file` takes
GENERATED_FILE = "a scenario, fleet or character file (JSON or YAML, as Quartermaster writes)"


def read_file(
    path: Path, rules_file: Path | None = None
) -> Generated[Scenario | Force | Character]:
    """Read a file a user made or edited (a scenario, a fleet or a character, whichever it
    is) and check it against its ruleset's schema, every problem at once.

    Raises:
        InputError: not such a file (a PDF, a house-rules file ...), in one line.
        DataError: every problem, each with the file, line, key path and what is allowed.
    """
    rules = load_rules(rules_file)
    check_input(path, "--from", GENERATED_FILE)
    kind, _ = scenarios.identify(read_yaml(path).data, sorted(rules.rulesets))
    if kind == "character":
        gen = get_generator(serving("character")[0])
        return Generated("character", gen.read_character(path, rules), "characters")
    kind, data = scenarios.read_generated(path, rules, ("scenario", "fleet"))
    gen = get_generator(str(data["ruleset"]))
    return Generated(kind, data, gen.units, gen.summary_fields)
