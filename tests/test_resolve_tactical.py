"""Tactical resolvers, checked against the rules' own numbers."""

from __future__ import annotations

from fractions import Fraction

from generator.loading import Rules
from generator.resolve import get_resolver, parse_inputs
from generator.resolve.engine import odds, run


def chances(rules: Rules, resolver_id: str, **raw: str) -> dict[str, Fraction]:
    resolver = get_resolver(resolver_id)
    return odds(resolver, rules, parse_inputs(resolver, rules, raw))


def test_flight_test_flees_on_two_or_less(rules: Rules) -> None:
    assert chances(rules, "tactical.flight-test") == {
        "flees": Fraction(2, 6),
        "stays": Fraction(4, 6),
    }
    # flagship +2: only a modified 2 or less flees, which a d6 + 2 never is
    assert chances(rules, "tactical.flight-test", flagship="yes") == {"stays": Fraction(1)}
    # ally -1 and a fleet ship fled -1: 4 or less flees
    assert chances(rules, "tactical.flight-test", ally="yes", fleet_fled="yes")[
        "flees"
    ] == Fraction(4, 6)
    # courage +1 per point
    assert chances(rules, "tactical.flight-test", courage="1")["flees"] == Fraction(1, 6)


def test_flight_test_records_modifiers_with_sources(rules: Rules) -> None:
    resolver = get_resolver("tactical.flight-test")
    inputs = parse_inputs(resolver, rules, {"ally": "yes", "courage": "2"})
    resolution = run(resolver, rules, inputs, seed=3)
    sources = {a.source: a.value for a in resolution.applied}
    assert sources == {"tactical.flight-modifiers:ally": -1, "tactical.flight-modifiers:courage": 2}
    if resolution.outcome.result == "flees":
        assert "Every allied ship of the fleet flees too" in resolution.outcome.changes
