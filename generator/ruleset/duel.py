"""What the duel rules derive, for the generator and the file format alike: a duellist's
four attributes and the hit points they give. High-seas officers are duellists too.
"""

from __future__ import annotations

import math

from generator.loading import Rules

ATTRIBUTES = ("strength", "endurance", "dexterity", "wit")


def hit_points(rules: Rules, strength: int, endurance: int) -> int:
    """Return a duellist's hit points: Endurance + ceil(Strength / the divisor of
    duel.attributes)."""
    divisor = int(rules.table("duel.attributes").params["hit_points_strength_divisor"])
    return endurance + math.ceil(strength / divisor)
