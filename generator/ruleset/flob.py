"""What the Form Line of Battle rules fix, for the generator and the file format alike:
the numbers a ship copies from her rate's row of flob.ship-ratings, and the years an
action is set in.
"""

from __future__ import annotations

from generator.loading import Rules

# the values a ship copies from its rate's row of flob.ship-ratings, in output order
RATING_FIELDS = (
    "guns",
    "rig",
    "movement_class",
    "gunnery_class",
    "broadside",
    "hull",
    "masts",
    "mast_rating",
    "crew_parties",
)


def scenario_years(rules: Rules) -> tuple[int, int]:
    """Return the years a Form Line of Battle action is set in (flob.scenario's years)."""
    first, last = rules.table("flob.scenario").params["years"]
    return int(first), int(last)
