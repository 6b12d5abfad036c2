"""What the impulse rules fix, for the generator and the file format alike: the numbers a
ship copies from her class's row of impulse.ship-classes.
"""

from __future__ import annotations

# the statistics a class row gives a ship, copied as they are
CLASS_FIELDS = ("hull_type", "guns", "carronades", "hull", "rigging", "crew")
