"""Helpers the resolver tests share: exact odds and a seeded resolution from typed inputs."""

from __future__ import annotations

from fractions import Fraction

from generator.loading import Rules
from generator.resolve import get_resolver, parse_inputs
from generator.resolve.engine import Resolution, odds, run


def chances(rules: Rules, resolver_id: str, **raw: str) -> dict[str, Fraction]:
    """Return the exact chance of each outcome of `resolver_id` with inputs as typed."""
    resolver = get_resolver(resolver_id)
    return odds(resolver, rules, parse_inputs(resolver, rules, raw))


def resolve(rules: Rules, resolver_id: str, seed: int, **raw: str) -> Resolution:
    """Resolve `resolver_id` once with dice from `seed` and inputs as typed."""
    resolver = get_resolver(resolver_id)
    return run(resolver, rules, parse_inputs(resolver, rules, raw), seed=seed)
