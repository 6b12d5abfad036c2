"""At the table: a resolved procedure answered at once, and the resolvers to choose from.

Apart from `generator.app.table` so that `lookup` starts without the resolvers (they cost
it about 40 ms).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from generator.app.inputs import load_rules
from generator.app.requests import fresh_seed
from generator.assignments import parse_assignments
from generator.errors import InputError
from generator.loading import HouseRules, Rules
from generator.resolve import Resolver, all_resolvers, get_resolver, parse_inputs
from generator.resolve.engine import Resolution, odds, run
from generator.suggest import unknown


@dataclass(frozen=True)
class Resolvers:
    """Resolvers to list or explain, with the rules that give their inputs' choices."""

    rules: Rules
    resolvers: tuple[Resolver, ...]


def find_resolver(resolver_id: str, rules_file: Path | HouseRules | None = None) -> Resolvers:
    """Return the one resolver `resolver_id` names (found before the rules are read)."""
    resolver = get_resolver(resolver_id)
    return Resolvers(load_rules(rules_file), (resolver,))


def find_resolvers(target: str | None, rules_file: Path | HouseRules | None = None) -> Resolvers:
    """Return every resolver, a ruleset's (``flob``), or one (``flob.broadside``),
    refusing a ruleset that has none."""
    rules = load_rules(rules_file)
    if target is not None and "." in target:
        return Resolvers(rules, (get_resolver(target),))
    chosen = tuple(r for r in all_resolvers().values() if target in (None, r.ruleset))
    if target is not None and not chosen:
        raise InputError(unknown("ruleset", target, rules.rulesets))
    return Resolvers(rules, chosen)


@dataclass(frozen=True)
class ResolveRequest:
    """A procedure to resolve: the resolver, its inputs typed as ``NAME=VALUE`` words, and
    the seed (None: a fresh one)."""

    resolver_id: str
    values: tuple[str, ...] = ()
    seed: int | None = None
    rules_file: Path | HouseRules | None = None  # a house-rules file, or one in hand


def _read(request: ResolveRequest) -> tuple[Rules, Resolver, dict[str, Any]]:
    rules = load_rules(request.rules_file)
    resolver = get_resolver(request.resolver_id)
    inputs = parse_inputs(resolver, rules, parse_assignments(list(request.values), "inputs"))
    return rules, resolver, inputs


def resolve(request: ResolveRequest) -> Resolution:
    """Resolve a procedure with dice from the seed: the dice, each modifier, what changes."""
    rules, resolver, inputs = _read(request)
    seed = fresh_seed() if request.seed is None else request.seed
    return run(resolver, rules, inputs, seed)


@dataclass(frozen=True)
class Chances:
    """The exact chance of each outcome of a resolver with its inputs."""

    resolver: Resolver
    inputs: dict[str, Any]
    chances: dict[str, Fraction]


def resolve_odds(request: ResolveRequest) -> Chances:
    """Count the exact chance of each outcome of a procedure (the seed is not used)."""
    rules, resolver, inputs = _read(request)
    return Chances(resolver, inputs, odds(resolver, rules, inputs))
