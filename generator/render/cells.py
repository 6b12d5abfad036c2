"""The cells of the play area, which the map and the counters share: a counter stands on a
cell of the map sheet, so both are drawn to the same sizes."""

from __future__ import annotations

# one map square (and the square a square counter stands on)
SQUARE_MM = 22.0
# one map hex, across the flats (across the corners is 2/sqrt(3) more)
HEX_MM = 26.0
