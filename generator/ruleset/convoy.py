"""What the convoy rules fix, for the generator and the file format alike: a ship's
markers by her kind and size (convoy.ship-markers), the sizes and crew conditions as ships
carry them, and what the characters of a hex map stand for.
"""

from __future__ import annotations

from generator.loading import Rules

MARKERS = ("crew", "guns", "sail")  # the markers a ship starts with and hits take away
LEGEND = {".": "sea", "~": "fog", ":": "shallows"}


def sizes(rules: Rules) -> list[str]:
    """Return the ship sizes as ships carry them: small, medium, large."""
    return [label.lower() for label in rules.table("convoy.ship-markers").axes[1].labels]


def conditions(rules: Rules) -> list[str]:
    """Return the crew conditions as ships carry them: scurvy, normal, battle hardened."""
    return [str(cell["result"]).lower() for cell in rules.table("convoy.crew-condition").cells]


def markers(rules: Rules, kind: str, size: str) -> dict[str, int]:
    """Return the starting crew, guns and sail markers of a `kind` ship of `size`."""
    table = rules.table("convoy.ship-markers")
    kinds = [label.lower() for label in table.axes[0].labels]
    cell = table.cell(kinds.index(kind), sizes(rules).index(size))
    return {key: int(cell[key]) for key in MARKERS}
