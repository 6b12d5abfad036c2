"""Dice: notation, seeded rolls and exact odds.

Parsing and rolling are ours (every roll comes from a `random.Random` made from a seed,
never the global one); exact distributions come from icepool, imported only for odds.
`generator.dice.versus` compares two rolls and gives a distribution as a bar chart's data
(not imported here: `roll` starts without it).
"""

from generator.dice.notation import DiceError, Node, parse, plain_dice
from generator.dice.odds import distribution, mean
from generator.dice.rolling import DieRoll, GroupRoll, RollResult, roll, roll_total

__all__ = [
    "DiceError",
    "DieRoll",
    "GroupRoll",
    "Node",
    "RollResult",
    "distribution",
    "mean",
    "parse",
    "plain_dice",
    "roll",
    "roll_total",
]
