"""Roll a parsed dice expression with a given `random.Random`, keeping every die."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from generator.dice.notation import EXPLODE_DEPTH, BinOp, Const, Dice, Neg, Node, parse
from generator.errors import InputError

# dice one command may roll over all its repeats (--times): a million dice already print
# a hundred megabytes of JSON
MAX_ROLLED_DICE = 100_000


@dataclass
class DieRoll:
    """One die of a group: its final value and what happened to it."""

    sides: int
    value: int
    kept: bool = True
    rerolled: list[int] = field(default_factory=list)
    explosions: list[int] = field(default_factory=list)
    success: bool | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"sides": self.sides, "value": self.value, "kept": self.kept}
        if self.rerolled:
            out["rerolled"] = list(self.rerolled)
        if self.explosions:
            out["exploded"] = list(self.explosions)
        if self.success is not None:
            out["success"] = self.success
        return out

    def __str__(self) -> str:
        text = str(self.value)
        if self.explosions:
            text += "!"
        if self.rerolled:
            text = "→".join(str(r) for r in self.rerolled) + "→" + text
        if self.success:
            text += "*"
        return text if self.kept else f"({text})"


@dataclass
class GroupRoll:
    """The dice of one group (``4d6kh3``) and the group's value."""

    notation: str
    dice: list[DieRoll]
    value: int

    def __str__(self) -> str:
        return f"{self.notation} [{', '.join(str(d) for d in self.dice)}]"


@dataclass
class RollResult:
    """A rolled expression: its total, every group of dice, and a one-line account."""

    expression: str
    total: int
    groups: list[GroupRoll]
    account: str

    def dice(self) -> list[DieRoll]:
        return [d for g in self.groups for d in g.dice]

    def to_json(self) -> dict[str, Any]:
        return {
            "expression": self.expression,
            "total": self.total,
            "dice": [{"group": g.notation, **d.to_json()} for g in self.groups for d in g.dice],
        }


def _draw(node: Dice, rng: random.Random, die: DieRoll) -> int:
    value = rng.randint(1, node.sides)
    if node.reroll is not None:
        while node.reroll.test(value):
            die.rerolled.append(value)
            value = rng.randint(1, node.sides)
            if node.reroll_once:
                break
    return value


def _roll_group(node: Dice, rng: random.Random) -> GroupRoll:
    dice = []
    for _ in range(node.count):
        die = DieRoll(node.sides, 0)
        last = _draw(node, rng, die)
        value = last
        depth = 0
        while node.explode is not None and node.explode.test(last) and depth < EXPLODE_DEPTH:
            last = _draw(node, rng, die)
            die.explosions.append(last)
            value += last
            depth += 1
        die.value = value
        dice.append(die)
    if node.keep is not None:
        highest_first = node.keep[0] in ("kh", "dl")
        order = sorted(range(len(dice)), key=lambda i: dice[i].value, reverse=highest_first)
        for i in order[node.kept_count() :]:
            dice[i].kept = False
    kept = [d for d in dice if d.kept]
    if node.success is not None:
        for d in kept:
            d.success = node.success.test(d.value)
        value = sum(1 for d in kept if d.success)
    else:
        value = sum(d.value for d in kept)
    return GroupRoll(str(node), dice, value)


def _evaluate(node: Node, rng: random.Random, groups: list[GroupRoll]) -> tuple[int, str]:
    if isinstance(node, Const):
        return node.value, str(node.value)
    if isinstance(node, Dice):
        group = _roll_group(node, rng)
        groups.append(group)
        return group.value, f"{group} = {group.value}" if node.count > 1 or node.keep else str(
            group
        )
    if isinstance(node, Neg):
        value, text = _evaluate(node.operand, rng, groups)
        return -value, f"-{text}"
    left, left_text = _evaluate(node.left, rng, groups)
    right, right_text = _evaluate(node.right, rng, groups)
    if isinstance(node.right, BinOp):
        right_text = f"({right_text})"
    if node.op == "+":
        return left + right, f"{left_text} + {right_text}"
    if node.op == "-":
        return left - right, f"{left_text} - {right_text}"
    return left * right, f"{left_text} × {right_text}"


def roll(expression: str | Node, rng: random.Random) -> RollResult:
    """Roll `expression` (text or a parsed tree) with `rng`; same rng state, same result."""
    node = parse(expression) if isinstance(expression, str) else expression
    groups: list[GroupRoll] = []
    total, account = _evaluate(node, rng, groups)
    text = expression if isinstance(expression, str) else str(expression)
    return RollResult(text, total, groups, account)


def dice_count(node: Node) -> int:
    """Return how many dice one roll of `node` throws (before re-rolls and explosions)."""
    if isinstance(node, Dice):
        return node.count
    if isinstance(node, Neg):
        return dice_count(node.operand)
    if isinstance(node, BinOp):
        return dice_count(node.left) + dice_count(node.right)
    return 0


def check_times(expression: str, node: Node, times: int) -> None:
    """Refuse to roll `node` `times` times when that throws over `MAX_ROLLED_DICE` dice."""
    each = dice_count(node)
    if each * times > MAX_ROLLED_DICE:
        raise InputError(
            f"--times {times}: {expression} throws {each} dice a time, over "
            f"{MAX_ROLLED_DICE} in all (at most --times {max(MAX_ROLLED_DICE // each, 1)})"
        )
