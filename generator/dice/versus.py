"""Compare two distributions (how often A rolls higher than B), and chart one.

Both take exact distributions as `generator.dice.distribution` gives them (chances summing
to 1) and count in integers over a common denominator: adding Fractions one at a time
is slow over the ten thousand totals of ``1d10000``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from generator.dice.notation import DiceError
from generator.dice.odds import distribution
from generator.errors import InputError


@dataclass(frozen=True)
class Versus:
    """The chances that a roll of A is higher than, equal to or lower than an independent
    roll of B; exact, summing to 1."""

    beats: Fraction
    ties: Fraction
    loses: Fraction


@dataclass(frozen=True)
class Bar:
    """One bar of a chart of a distribution: a total and its chances.

    Attributes:
        total: the total the bar stands for.
        chance: the chance of exactly this total.
        at_least: the chance of this total or more.
        at_most: the chance of this total or less.
        height: the bar's height, the tallest bar's being 1 (``chance`` over the largest).
    """

    total: int
    chance: Fraction
    at_least: Fraction
    at_most: Fraction
    height: Fraction


def _ways(dist: dict[int, Fraction]) -> tuple[int, list[tuple[int, int]]]:
    """Return the common denominator of the chances, and each total (lowest first) with its
    chance times that denominator.

    Raises:
        ValueError: `dist` has no totals (a distribution always has at least one).
    """
    if not dist:
        raise ValueError("a distribution with no totals")
    denominator = math.lcm(*(p.denominator for p in dist.values()))
    return denominator, [
        (value, dist[value].numerator * (denominator // dist[value].denominator))
        for value in sorted(dist)
    ]


def versus(a: dict[int, Fraction], b: dict[int, Fraction]) -> Versus:
    """Return the chances that a roll of `a` is higher than, equal to and lower than an
    independent roll of `b`.

    One pass over both sets of totals, lowest first, keeping the ways of B below the
    current total of A: linear in the number of totals, not their product.
    """
    a_denominator, a_ways = _ways(a)
    b_denominator, b_ways = _ways(b)
    whole = a_denominator * b_denominator
    beats = ties = 0
    below = 0  # ways of B lower than the current total of A
    j = 0
    for value, ways in a_ways:
        while j < len(b_ways) and b_ways[j][0] < value:
            below += b_ways[j][1]
            j += 1
        beats += ways * below
        if j < len(b_ways) and b_ways[j][0] == value:
            ties += ways * b_ways[j][1]
    return Versus(
        beats=Fraction(beats, whole),
        ties=Fraction(ties, whole),
        loses=Fraction(whole - beats - ties, whole),
    )


def bars(dist: dict[int, Fraction]) -> list[Bar]:
    """Return a bar per total of `dist`, lowest total first: the data of a bar chart."""
    denominator, ways = _ways(dist)
    peak = max(w for _, w in ways)
    out: list[Bar] = []
    below = 0
    for value, count in ways:
        out.append(
            Bar(
                total=value,
                chance=Fraction(count, denominator),
                at_least=Fraction(denominator - below, denominator),
                at_most=Fraction(below + count, denominator),
                height=Fraction(count, peak),
            )
        )
        below += count
    return out


def vs_distribution(expression: str) -> dict[int, Fraction]:
    """Return the distribution of the expression given to ``--vs`` (on the command line or
    in a play session).

    Raises:
        InputError: `expression` is not notation or too large to count; the message is the
            `DiceError`'s, after ``--vs:`` so that it is clear which expression is meant.
    """
    try:
        return distribution(expression)
    except DiceError as exc:
        raise InputError(f"--vs: {exc}") from None
