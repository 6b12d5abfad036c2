"""Resolvers for the tactical ruleset (seed 003), a module per phase of its turn.

Readings (rules-notes.md, tactical): attribute losses roll the 1D8 attribute table once per
point, re-rolling repeats so the attributes differ; grapeshot losses all go to Crew;
chainshot Hull losses are ignored; the broadside table's "1-5" row is 5 or less. Zero
ratings: at zero Hull or zero Crew a ship cannot move; at zero Hull it sinks in 1D6 turns;
at zero Cannon it sinks at once; at zero Crew it cannot board and loses any boarding.
"""

# Each part registers its resolvers when imported; the parts are imported in the order
# `quartermaster resolvers` lists those resolvers, so they are not sorted.
# isort: off
from generator.resolve.tactical import morale as morale
from generator.resolve.tactical import movement as movement
from generator.resolve.tactical import broadside as broadside
from generator.resolve.tactical import boarding as boarding
from generator.resolve.tactical import turn as turn
from generator.resolve.tactical import sinking as sinking
# isort: on
