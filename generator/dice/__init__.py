"""Dice: notation, seeded rolls and exact odds.

Parsing and rolling are ours (every roll comes from a `random.Random` made from a seed,
never the global one); exact distributions come from icepool, imported only for odds;
`versus` compares two rolls and `bars` gives a distribution as the data of a bar chart.
"""

from generator.dice.notation import DiceError, Node, parse, plain_dice
from generator.dice.odds import distribution, mean
from generator.dice.rolling import DieRoll, GroupRoll, RollResult, roll
from generator.dice.versus import Bar, Versus, bars, versus

__all__ = [
    "Bar",
    "DiceError",
    "DieRoll",
    "GroupRoll",
    "Node",
    "RollResult",
    "Versus",
    "bars",
    "distribution",
    "mean",
    "parse",
    "plain_dice",
    "roll",
    "versus",
]
