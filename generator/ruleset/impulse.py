"""What the impulse rules fix, for the generator and the file format alike: the numbers a
ship copies from her class's row of impulse.ship-classes, and the damage results of its
tables (cell format ``hrc``, registered when the loader imports this module: the spec
names it under ``cell_formats``).
"""

from __future__ import annotations

import re

from generator.loading.cells import CellFormatError, cell_format

# the statistics a class row gives a ship, copied as they are
CLASS_FIELDS = ("hull_type", "guns", "carronades", "hull", "rigging", "crew")

_HRC = re.compile(r"(\d+)([HRC])")
_HRC_NAMES = {"H": "hull", "R": "rigging", "C": "crew"}


@cell_format("hrc")
def parse_hrc(text: str) -> dict[str, int]:
    """Read impulse damage such as ``2H2R2C`` into hull, rigging and crew hits."""
    if not re.fullmatch(r"(?:\d+[HRC])+", text):
        raise CellFormatError(f"'{text}' is not hits such as 2H1R1C")
    found: dict[str, int] = {"hull": 0, "rigging": 0, "crew": 0}
    seen: set[str] = set()
    for count, letter in _HRC.findall(text):
        if letter in seen:
            raise CellFormatError(f"'{text}' names {letter} twice")
        seen.add(letter)
        found[_HRC_NAMES[letter]] = int(count)
    return found
