"""Every resolver: its tables exist, its examples run, rolls repeat, odds sum to exactly 1."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from generator.loading import Rules
from generator.resolve import all_resolvers, get_resolver, parse_inputs
from generator.resolve.engine import odds, run

CASES = [
    (resolver_id, i)
    for resolver_id, resolver in all_resolvers().items()
    for i in range(len(resolver.examples))
]


def test_resolvers_are_registered_for_every_ruleset(rules: Rules) -> None:
    rulesets = {r.ruleset for r in all_resolvers().values()}
    assert rulesets <= set(rules.rulesets)


@pytest.mark.parametrize("resolver_id", list(all_resolvers()))
def test_resolver_reads_existing_tables(rules: Rules, resolver_id: str) -> None:
    resolver = get_resolver(resolver_id)
    assert resolver.id.startswith(resolver.ruleset + ".")
    assert resolver.title and resolver.summary
    assert resolver.tables, "a resolver names the tables it reads"
    for table_id in resolver.tables:
        rules.table(table_id)
    for param in resolver.params:
        if param.kind == "choice":
            assert param.allowed(rules), param.name


@pytest.mark.parametrize(("resolver_id", "example"), CASES)
def test_examples_roll_repeatably_and_odds_sum_to_one(
    rules: Rules, resolver_id: str, example: int
) -> None:
    resolver = get_resolver(resolver_id)
    inputs = parse_inputs(resolver, rules, resolver.examples[example])
    first = run(resolver, rules, inputs, seed=1805)
    again = run(resolver, rules, inputs, seed=1805)
    assert json.dumps(first.to_json()) == json.dumps(again.to_json())
    assert first.outcome.result
    assert first.lines, "a resolution explains itself"
    chances = odds(resolver, rules, inputs)
    assert sum(chances.values()) == Fraction(1)
    assert all(chance > 0 for chance in chances.values())
    seen = {run(resolver, rules, inputs, seed=s).outcome.result for s in range(40)}
    assert seen <= set(chances), seen - set(chances)
