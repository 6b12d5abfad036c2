"""What the Form Line of Battle rules fix, for the generator and the file format alike:
the numbers a ship copies from her rate's row of flob.ship-ratings, the years an action is
set in, and the results of flob.broadside (cell format ``flob-broadside``, registered when
the loader imports this module: the spec names it under ``cell_formats``).
"""

from __future__ import annotations

import re
from typing import Any

from generator.loading import Rules
from generator.loading.cells import DASH, CellFormatError, cell_format

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


_FLOB = re.compile(r"(\d?)rr(?:, (s|str))?")


@cell_format("flob-broadside")
def parse_flob_broadside(text: str) -> dict[str, Any]:
    """Read a FLoB broadside result: ``—``, ``rr``..``3rr``, with ``, s`` or ``, str``."""
    if text == DASH:
        return {"rr": 0, "shattered": False, "strike_test": False}
    match = _FLOB.fullmatch(text)
    if not match:
        raise CellFormatError(f"'{text}' is not a broadside result such as 2rr or 3rr, str")
    return {
        "rr": int(match[1] or 1),
        "shattered": match[2] == "s",
        "strike_test": match[2] == "str",
    }
