"""Dice at the table: a roll shown die by die, and the exact odds of every total.

Only the dice are imported: the roll and odds commands start in a blink.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from generator.app.requests import fresh_seed
from generator.dice import distribution, mean, parse, roll
from generator.dice.rolling import RollResult, check_times


@dataclass(frozen=True)
class Rolls:
    """Dice rolled: every roll in turn, and the seed that rolls them again."""

    seed: int
    results: tuple[RollResult, ...]


def roll_dice(expression: str, times: int = 1, seed: int | None = None) -> Rolls:
    """Roll `expression` `times` times from `seed` (None: a fresh one, returned)."""
    node = parse(expression)
    check_times(expression, node, times)
    used = fresh_seed() if seed is None else seed
    rng = random.Random(used)
    results = tuple(roll(node, rng) for _ in range(times))
    for result in results:
        result.expression = expression
    return Rolls(used, results)


@dataclass(frozen=True)
class Odds:
    """The exact chance of every total of `expression`, and the mean."""

    expression: str
    chances: dict[int, Fraction]
    mean: Fraction


def dice_odds(expression: str) -> Odds:
    """Return the exact chance of every total `expression` rolls."""
    chances = distribution(expression)
    return Odds(expression, chances, mean(chances))


def versus_odds(vs: str) -> dict[int, Fraction]:
    """Return the exact chances of the expression another is compared with (``--vs``)."""
    # imported here: `roll` starts without the comparison code (it is asked for by --vs)
    from generator.dice.versus import vs_distribution

    return vs_distribution(vs)
