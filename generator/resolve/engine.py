"""Run a resolver with seeded dice, or count the exact chance of each outcome."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

from generator.dice import distribution, parse, roll
from generator.errors import InputError
from generator.loading import Rules
from generator.resolve.base import (
    Applied,
    Context,
    Inputs,
    Outcome,
    ResolveInputError,
    Resolver,
    RollRecord,
    SteppedResolver,
)

MAX_PATHS = 300_000
MAX_STATES = 50_000


class SamplingContext(Context):
    """Rolls real dice from a seeded random source and records everything."""

    def __init__(self, rules: Rules, rng: random.Random) -> None:
        super().__init__(rules)
        self.rng = rng
        self.rolls: list[RollRecord] = []
        self.applied: list[Applied] = []
        self.lines: list[str] = []

    def roll(self, expression: str, reason: str) -> int:
        result = roll(parse(expression), self.rng)
        record = RollRecord(reason, expression, result.total, [d.to_json() for d in result.dice()])
        self.rolls.append(record)
        self.lines.append(f"{reason}: {result.account} → {result.total}")
        return result.total

    def roll_dice(self, count: int, sides: int, reason: str) -> tuple[int, ...]:
        faces = tuple(self.rng.randint(1, sides) for _ in range(count))
        dice = [{"sides": sides, "value": f, "kept": True} for f in faces]
        self.rolls.append(RollRecord(reason, f"{count}d{sides}", sum(faces), dice))
        self.lines.append(f"{reason}: {count}d{sides} {list(faces)}")
        return faces

    def explain(self, text: str) -> None:
        self.lines.append(text)

    def record(self, applied: Applied) -> None:
        self.applied.append(applied)
        sign = f"{applied.value:+d}"
        self.lines.append(f"  {sign} {applied.label} [{applied.source}]")


@lru_cache(maxsize=512)
def _options(expression: str) -> tuple[tuple[int, Fraction], ...]:
    """Return the totals of `expression` with their chances, lowest first."""
    return tuple(sorted(distribution(expression).items()))


class _PathsExceeded(Exception):
    pass


class EnumeratingContext(Context):
    """Replays one path of roll choices; records where new choices branch."""

    def __init__(self, rules: Rules, prefix: tuple[int, ...]) -> None:
        super().__init__(rules)
        self.prefix = prefix
        self.taken: list[int] = []
        self.options: list[Sequence[tuple[Any, Fraction]]] = []
        self.chance = Fraction(1)

    def _choose(self, options: Sequence[tuple[Any, Fraction]]) -> Any:
        depth = len(self.taken)
        index = self.prefix[depth] if depth < len(self.prefix) else 0
        self.taken.append(index)
        self.options.append(options)
        value, chance = options[index]
        self.chance *= chance
        return value

    def roll(self, expression: str, reason: str) -> int:
        return int(self._choose(_options(expression)))

    def roll_dice(self, count: int, sides: int, reason: str) -> tuple[int, ...]:
        face = Fraction(1, sides)
        return tuple(self._choose([(f, face) for f in range(1, sides + 1)]) for _ in range(count))


class _Budget:
    """The paths one `odds()` call may still explore, shared by all its explorations."""

    def __init__(self, paths: int) -> None:
        self.left = paths

    def spend(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise _PathsExceeded


def _explore(rules: Rules, run: Any, budget: _Budget) -> dict[Any, Fraction]:
    """Run `run(ctx)` down every path of roll choices; return result → chance."""
    results: dict[Any, Fraction] = defaultdict(Fraction)
    pending: list[tuple[int, ...]] = [()]
    while pending:
        prefix = pending.pop()
        ctx = EnumeratingContext(rules, prefix)
        result = run(ctx)
        results[result] += ctx.chance
        budget.spend()
        for depth in range(len(prefix), len(ctx.taken)):
            base = tuple(ctx.taken[:depth])
            for other in range(1, len(ctx.options[depth])):
                pending.append((*base, other))
    return results


def odds(resolver: Resolver, rules: Rules, inputs: Inputs) -> dict[str, Fraction]:
    """Return the exact chance of each outcome result of `resolver` with `inputs`."""
    # one budget for the whole count: a fight in rounds explores each state it reaches,
    # and big crews over many rounds would otherwise run for hours (issue #7)
    budget = _Budget(MAX_PATHS)
    try:
        if isinstance(resolver, SteppedResolver):
            return _stepped_odds(resolver, rules, inputs, budget)
        outcomes = _explore(rules, lambda ctx: resolver.resolve(ctx, inputs), budget)
    except _PathsExceeded:
        raise ResolveInputError(
            f"{resolver.id}: too many possible rolls to count exactly (over {MAX_PATHS})"
        ) from None
    by_result: dict[str, Fraction] = defaultdict(Fraction)
    for outcome, chance in outcomes.items():
        by_result[outcome.result] += chance
    return dict(by_result)


def _stepped_odds(
    resolver: SteppedResolver, rules: Rules, inputs: Inputs, budget: _Budget
) -> dict[str, Fraction]:
    live: dict[Any, Fraction] = {resolver.start(rules, inputs): Fraction(1)}
    finished: dict[str, Fraction] = defaultdict(Fraction)
    # a state's step distribution depends on the state alone: explore each state once
    steps: dict[Any, dict[Any, Fraction]] = {}
    for _ in range(resolver.max_steps):
        if not live:
            return dict(finished)
        following: dict[Any, Fraction] = defaultdict(Fraction)
        for state, chance in live.items():
            if state not in steps:
                steps[state] = _explore(
                    rules, lambda ctx, s=state: resolver.step(ctx, inputs, s), budget
                )
            for nxt, p in steps[state].items():
                if isinstance(nxt, Outcome):
                    finished[nxt.result] += chance * p
                else:
                    following[nxt] += chance * p
        if len(following) > MAX_STATES:
            raise ResolveInputError(f"{resolver.id}: too many states to count exactly")
        live = following
    raise InputError(f"{resolver.id}: did not finish in {resolver.max_steps} rounds")


@dataclass
class Resolution:
    """A resolved procedure: outcome, dice, modifiers with sources, explanation, changes."""

    resolver: Resolver
    inputs: dict[str, Any]
    seed: int | None
    outcome: Outcome
    rolls: list[RollRecord] = field(default_factory=list)
    applied: list[Applied] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "resolver": self.resolver.id,
            "inputs": self.inputs,
            "seed": self.seed,
            "outcome": self.outcome.result,
            "rolls": [r.to_json() for r in self.rolls],
            "modifiers": [a.to_json() for a in self.applied],
            "changes": list(self.outcome.changes),
            "effects": [e.to_json() for e in self.outcome.effects],
            "details": dict(self.outcome.details),
            "explanation": list(self.lines),
        }


def run(resolver: Resolver, rules: Rules, inputs: Inputs, seed: int) -> Resolution:
    """Resolve once with dice from `seed`; same seed and inputs, same resolution."""
    ctx = SamplingContext(rules, random.Random(seed))
    outcome = resolver.resolve(ctx, inputs)
    return Resolution(resolver, dict(inputs), seed, outcome, ctx.rolls, ctx.applied, ctx.lines)
