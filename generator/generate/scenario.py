"""Whole scenarios and single forces, from a seed; and reading edited ones back.

A scenario is plain data (JSON/YAML): ruleset, seed, sides, wind, weather, map, set-up,
victory conditions and special rules. A GM can edit it and hand it back with ``--from``;
it is checked before use and refused with the file, the key path and what was wrong.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import yaml

from generator import __version__
from generator.errors import InputError
from generator.generate.base import RulesetGenerator, get_generator
from generator.generate.common import Checker, Names
from generator.loading import Rules
from generator.loading.yamlfile import read_yaml

BALANCE_TOLERANCE = 0.10
MAX_BALANCE_ATTEMPTS = 200


def _two_navies(names: Names, rng: random.Random) -> list[str]:
    navies = [n for n in names.navies() if n not in ("merchant", "pirate")]
    first = navies[rng.randrange(len(navies))]
    rest = [n for n in navies if n != first]
    return [first, rest[rng.randrange(len(rest))]]


def _build(rules: Rules, gen: RulesetGenerator, seed: int, rng: random.Random) -> dict[str, Any]:
    names = Names(rules, rng)
    sides = []
    for index, navy in enumerate(_two_navies(names, rng)):
        names.side = index
        side = gen.roll_side(rules, rng, names, navy)
        side.setdefault("name", gen.side_name(names, navy))
        side.setdefault("navy", navy)
        sides.append(side)
    setting = gen.roll_setting(rules, rng, sides)
    scenario: dict[str, Any] = {
        "ruleset": gen.ruleset,
        "seed": seed,
        "title": setting.pop("title"),
        "sides": sides,
        **setting,
    }
    house = sorted({*gen.house_tables, *setting.get("house_tables", [])})
    scenario["house_tables"] = house
    scenario["generator"] = f"quartermaster {__version__}"
    return scenario


def balance_ratio(gen: RulesetGenerator, scenario: dict[str, Any]) -> float:
    """Return weaker/stronger side strength (1.0 is perfectly even)."""
    strengths = [gen.strength(side) for side in scenario["sides"]]
    high = max(strengths)
    return 1.0 if high <= 0 else min(strengths) / high


def roll_scenario(rules: Rules, ruleset: str, seed: int, balanced: bool = False) -> dict[str, Any]:
    """Roll a whole scenario for `ruleset` from `seed`.

    With `balanced`, reroll (from sub-seeds drawn from `seed`, so still repeatable) until
    the sides' strengths are within 10 % of each other.
    """
    gen = get_generator(ruleset)
    master = random.Random(f"balance:{seed}")
    attempts = MAX_BALANCE_ATTEMPTS if balanced else 1
    best: dict[str, Any] | None = None
    best_ratio = -1.0
    for attempt in range(1, attempts + 1):
        rng = random.Random(seed) if attempt == 1 else random.Random(master.randrange(2**32))
        scenario = _build(rules, gen, seed, rng)
        ratio = balance_ratio(gen, scenario)
        if ratio > best_ratio:
            best, best_ratio = scenario, ratio
            best["balance"] = {
                "measure": gen.strength_measure,
                "strengths": [round(gen.strength(s), 2) for s in scenario["sides"]],
                "ratio": round(ratio, 3),
                "attempt": attempt,
                "balanced": ratio >= 1 - BALANCE_TOLERANCE,
            }
        if not balanced or ratio >= 1 - BALANCE_TOLERANCE:
            break
    assert best is not None
    if balanced and not best["balance"]["balanced"]:
        raise InputError(
            f"{ruleset}: no scenario within 10 % in {MAX_BALANCE_ATTEMPTS} tries from seed {seed}; "
            "try another seed"
        )
    return best


def roll_force(rules: Rules, ruleset: str, seed: int) -> dict[str, Any]:
    """Roll one side's force (``quartermaster fleet``) from `seed`."""
    gen = get_generator(ruleset)
    rng = random.Random(seed)
    names = Names(rules, rng)
    navy = _two_navies(names, rng)[0]
    side = gen.roll_side(rules, rng, names, navy)
    side.setdefault("name", gen.side_name(names, navy))
    side.setdefault("navy", navy)
    return {"ruleset": ruleset, "seed": seed, **side}


def dump(data: dict[str, Any], fmt: str) -> str:
    """Write generated data as ``json`` or ``yaml`` text (stable key order, UTF-8)."""
    if fmt == "yaml":
        return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def _is_table(rules: Rules, table_id: str) -> bool:
    ruleset, _, key = table_id.partition(".")
    return ruleset in rules.rulesets and key in rules.rulesets[ruleset].tables


def read_scenario(path: Path, rules: Rules, ruleset: str | None = None) -> dict[str, Any]:
    """Read an edited scenario file (JSON or YAML), check it, and return it.

    Raises:
        DataError: every problem, each with the file, line and key path.
    """
    doc = read_yaml(path)
    checker = Checker(doc)
    data = checker.mapping(doc.data, ())
    if data is None:
        checker.raise_if_any()
        raise AssertionError("unreachable")
    found = checker.choice(data, "ruleset", (), sorted(rules.rulesets))
    if found is None:
        checker.raise_if_any()
    assert found is not None
    if ruleset is not None and found != ruleset:
        raise InputError(f"{path}: this is a {found} scenario, not {ruleset}")
    gen = get_generator(found)
    checker.integer(data, "seed", (), 0, None)
    checker.text(data, "title", ())
    sides = checker.items(checker.require(data, "sides", ()), ("sides",), minimum=1)
    for i, side in enumerate(sides):
        gen.check_side(checker, rules, side, ("sides", i))
    gen.check_setting(checker, rules, data)
    for key in ("setup", "victory", "special_rules"):
        lines = checker.items(checker.require(data, key, ()), (key,))
        for i, line in enumerate(lines):
            if not isinstance(line, str) or not line.strip():
                checker.fail((key, i), f"expected text, found {line!r}")
    if "house_tables" in data:
        for i, table_id in enumerate(checker.items(data["house_tables"], ("house_tables",))):
            if not isinstance(table_id, str) or not _is_table(rules, table_id):
                checker.fail(("house_tables", i), f"{table_id!r} is not a table id")
    if "balance" in data:
        balance = checker.mapping(data["balance"], ("balance",))
        if balance is not None:
            checker.text(balance, "measure", ("balance",), max_length=1000)
    checker.raise_if_any()
    return data


def read_force(path: Path, rules: Rules, ruleset: str | None = None) -> dict[str, Any]:
    """Read an edited single force (``fleet`` output) and check it."""
    doc = read_yaml(path)
    checker = Checker(doc)
    data = checker.mapping(doc.data, ())
    if data is None:
        checker.raise_if_any()
        raise AssertionError("unreachable")
    found = checker.choice(data, "ruleset", (), sorted(rules.rulesets))
    checker.raise_if_any()
    assert found is not None
    if ruleset is not None and found != ruleset:
        raise InputError(f"{path}: this is a {found} force, not {ruleset}")
    get_generator(found).check_side(checker, rules, data, ())
    checker.raise_if_any()
    return data
