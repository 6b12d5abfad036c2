"""What a scenario says of itself that the sheets print and no generator is needed to read:
whether its sides could be balanced, and (told by whoever hands it to a sheet, the
application layer) whether its seed rolls it again as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

# the key under which the application layer tells a sheet whether the scenario's seed, with
# the options it was rolled with, rolls it again as it is (True or False; absent: not known,
# and the briefing says nothing of it). Like a packet's printing notes, it is what a sheet
# is given besides the scenario, not part of the scenario's file.
ROLLS_AGAIN: Final = "rolls_again"


def balance_warning(scenario: Mapping[str, Any]) -> str | None:
    """Return the line saying a scenario's sides could not be balanced, or None."""
    balance = scenario.get("balance")
    if not isinstance(balance, dict):
        return None
    warning = balance.get("warning")
    return warning if isinstance(warning, str) else None
