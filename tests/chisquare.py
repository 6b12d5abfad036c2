"""A chi-square goodness-of-fit check of seeded rolls against an exact distribution."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction


def chi_square_critical(df: int, z: float = 3.0902) -> float:
    """Upper critical value of chi-square at alpha 0.001 (Wilson-Hilferty approximation)."""
    k = float(df)
    return k * (1 - 2 / (9 * k) + z * math.sqrt(2 / (9 * k))) ** 3


def chi_square(observed: Counter[int], dist: dict[int, Fraction], n: int) -> tuple[float, int]:
    """Return the statistic of `n` observed totals against `dist`, and its degrees of
    freedom; totals are binned in order until each bin expects at least 5 (the tail's
    remainder joins the last bin)."""
    bins: list[tuple[float, int]] = []
    expected_acc, observed_acc = 0.0, 0
    for value, chance in sorted(dist.items()):
        expected_acc += float(chance) * n
        observed_acc += observed.get(value, 0)
        if expected_acc >= 5:
            bins.append((expected_acc, observed_acc))
            expected_acc, observed_acc = 0.0, 0
    if expected_acc:
        last_e, last_o = bins.pop()
        bins.append((last_e + expected_acc, last_o + observed_acc))
    return sum((o - e) ** 2 / e for e, o in bins), len(bins) - 1


def fits(observed: Counter[int], dist: dict[int, Fraction], n: int) -> tuple[bool, float, int]:
    """Return whether the rolls fit `dist` at alpha 0.001, with the statistic and df."""
    statistic, df = chi_square(observed, dist, n)
    return statistic < chi_square_critical(df), statistic, df
