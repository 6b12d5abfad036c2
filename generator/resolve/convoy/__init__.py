"""Resolvers for the convoy ruleset (seed 002): dice pools of d6 for everything, in a module
for each part of play (movement, gunnery, the turn's own steps, death rolls, boarding, and
the shallows and fog).

Readings (rules-notes.md, convoy): gunnery modifiers are dice, never fewer than 2d6, each
6 hits, broadsides re-roll their misses once, chasers roll 1d6 with no modifiers; boarding,
recovery and wind-change pools count 5s and 6s.
"""

# Each part registers its resolvers when imported; the parts are imported in the order
# `quartermaster resolvers` lists those resolvers, so they are not sorted.
# isort: off
from generator.resolve.convoy import movement as movement
from generator.resolve.convoy import gunnery as gunnery
from generator.resolve.convoy import turn as turn
from generator.resolve.convoy import damage as damage
from generator.resolve.convoy import boarding as boarding
from generator.resolve.convoy import hazards as hazards
# isort: on
