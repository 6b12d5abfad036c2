"""What the name lists mean to every ruleset: the lists that are no navy of their own, and
the years the navies fought in (a ruleset's years, unless its rules fix others).
"""

from __future__ import annotations

from generator.loading import Rules

FLAGS_OF_CONVENIENCE = ("merchant", "pirate")  # name lists that are no navy of their own


def year_span(rules: Rules) -> tuple[int, int]:
    """Return the first and last year any navy of the name lists fought in."""
    assert rules.names is not None
    spans = [
        rules.names.navy_years(navy)
        for navy in rules.names.navies
        if navy not in FLAGS_OF_CONVENIENCE
    ]
    return min(a for a, _ in spans), max(b for _, b in spans)
