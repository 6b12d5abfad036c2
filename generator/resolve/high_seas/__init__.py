"""Resolvers for the high-seas ruleset (seed 000, "Ship Combat"): maneuver, fire, damage,
boarding, a module each.

Every number comes from data/high-seas.yaml: the tactics matrix and the guns-bear table, the
cannon to-hit table and its modifiers, and the ``params`` of the rules tables. Rounding is
up, as the same book always rounds (duel.rounding). Where the seed is silent the resolver
says which reading it takes, in its summary and in the explanation the GM reads.
"""

# Each part registers its resolvers when imported; the parts are imported in the order
# `quartermaster resolvers` lists those resolvers, so they are not sorted.
# isort: off
from generator.resolve.high_seas import maneuver as maneuver
from generator.resolve.high_seas import gunnery as gunnery
from generator.resolve.high_seas import boarding as boarding
# isort: on
