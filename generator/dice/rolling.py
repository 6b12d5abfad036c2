"""Roll a parsed dice expression with a given `random.Random`, keeping every die."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from generator.dice.notation import (
    EXPLODE_DEPTH,
    BinOp,
    Compare,
    Const,
    Dice,
    Div,
    Group,
    Neg,
    Node,
    dice_groups,
    parse,
)
from generator.errors import InputError

# dice one command may roll over all its repeats (--times): a million dice already print
# a hundred megabytes of JSON
MAX_ROLLED_DICE = 100_000


@dataclass(slots=True)
class DieRoll:
    """One die of a group: its final value and what happened to it.

    `faces` is the die's chain: the face it showed, then each face it exploded into (after
    re-rolls and min/max). `value` is their sum. In a success pool `successes` and
    `failures` count the faces of the chain that are successes and failures.
    """

    sides: int
    value: int
    kept: bool = True
    rerolled: list[int] = field(default_factory=list)
    explosions: list[int] = field(default_factory=list)
    success: bool | None = None
    faces: list[int] = field(default_factory=list)
    clamped: dict[int, int] | None = None  # chain index: face as thrown, if min/max moved it
    fudge: bool = False
    successes: int = 0
    failures: int | None = None
    net_marks: list[int] | None = None  # each face in a success pool: 1, -1 or 0

    def net(self) -> int:
        """What the die is worth in a success pool: successes minus failures."""
        return self.successes - (self.failures or 0)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "sides": "F" if self.fudge else self.sides,
            "value": self.value,
            "kept": self.kept,
        }
        if self.rerolled:
            out["rerolled"] = list(self.rerolled)
        if self.explosions:
            out["exploded"] = list(self.explosions)
        if self.clamped is not None:
            out["thrown"] = [self.clamped.get(i, f) for i, f in enumerate(self.faces)]
        if self.success is not None:
            if self.explosions:
                out["successes"] = self.successes
                if self.failures is not None:
                    out["failures"] = self.failures
            else:
                out["success"] = self.success
                if self.failures is not None:
                    out["failure"] = self.failures == 1
        return out

    def _face_text(self, index: int, face: int) -> str:
        text = f"{face:+d}" if self.fudge and face else str(face)
        if self.clamped is not None and index in self.clamped:
            thrown = self.clamped[index]
            text = f"{thrown}{'↑' if thrown < face else '↓'}{text}"
        if self.net_marks is not None:
            text += {1: "*", -1: "✗"}.get(self.net_marks[index], "")
        return text

    def __str__(self) -> str:
        if (
            not self.rerolled
            and self.net_marks is None
            and self.clamped is None
            and not (self.explosions or self.fudge)
        ):  # most dice: the face alone
            return str(self.value) if self.kept else f"({self.value})"
        if self.net_marks is not None and self.explosions:
            text = "!".join(self._face_text(i, f) for i, f in enumerate(self.faces))
        elif self.explosions:
            text = f"{self.value}!"
        else:
            text = self._face_text(0, self.faces[0] if self.faces else self.value)
        if self.rerolled:
            text = "→".join(str(r) for r in self.rerolled) + "→" + text
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


def _face(node: Dice, rng: random.Random, die: DieRoll) -> int:
    """Throw one face of `node`'s die: re-rolled as it says, then raised or lowered to its
    minimum or maximum (recorded on `die`)."""
    if node.fudge:
        return rng.randint(1, 3) - 2
    value = rng.randint(1, node.sides)
    if node.reroll is not None:
        while node.reroll.test(value):
            die.rerolled.append(value)
            value = rng.randint(1, node.sides)
            if node.reroll_once:
                break
    if node.minimum is None and node.maximum is None:
        return value
    shown = node.clamp(value)
    if shown != value:
        if die.clamped is None:
            die.clamped = {}
        die.clamped[len(die.faces)] = value
    return shown


def _roll_die(node: Dice, rng: random.Random) -> DieRoll:
    """Throw one die of the group with its explosion chain, and count it if a pool."""
    simple = node.reroll is None and node.minimum is None and node.maximum is None
    if simple and not node.fudge:  # most dice: one face, nothing to record
        last = rng.randint(1, node.sides)
        die = DieRoll(node.sides, last, True, [], [], None, [last])
        if node.explode is None and node.success is None:
            return die
    else:
        die = DieRoll(node.sides, 0, True, [], [], None, [], None, node.fudge)
        last = _face(node, rng, die)
        die.faces.append(last)
    if node.explode is not None:
        while node.explode.test(last) and len(die.faces) <= EXPLODE_DEPTH:
            last = _face(node, rng, die)
            die.faces.append(last)
            die.explosions.append(last)
        die.value = sum(die.faces)
    else:
        die.value = last
    if node.success is not None:
        die.net_marks = [node.net(f) for f in die.faces]
        die.successes = die.net_marks.count(1)
        if node.failure is not None:
            die.failures = die.net_marks.count(-1)
        die.success = die.successes > 0
    return die


def _roll_group(node: Dice, rng: random.Random) -> GroupRoll:
    dice = [_roll_die(node, rng) for _ in range(node.count)]
    if node.keep is not None:
        highest_first = node.keep[0] in ("kh", "dl")
        if node.success is None:
            order = sorted(range(len(dice)), key=lambda i: dice[i].value, reverse=highest_first)
        else:  # ties broken by the net count, as odds counts them
            order = sorted(
                range(len(dice)),
                key=lambda i: (dice[i].value, dice[i].net()),
                reverse=highest_first,
            )
        for i in order[node.kept_count() :]:
            dice[i].kept = False
    kept = [d for d in dice if d.kept]
    counted = node.success is not None
    value = sum(d.net() if counted else d.value for d in kept)
    return GroupRoll(str(node), dice, value)


def _with_total(text: str, value: int) -> str:
    """Return `text` ending with ``= value`` unless it already says so."""
    if text == str(value) or text.endswith(f"= {value}"):
        return text
    return f"{text} = {value}"


def _evaluate(node: Node, rng: random.Random, groups: list[GroupRoll]) -> tuple[int, str]:
    if isinstance(node, Const):
        return node.value, str(node.value)
    if isinstance(node, Dice):
        group = _roll_group(node, rng)
        groups.append(group)
        shown = node.count > 1 or node.keep or (node.success is not None and node.explode)
        return group.value, f"{group} = {group.value}" if shown else str(group)
    if isinstance(node, Neg):
        value, text = _evaluate(node.operand, rng, groups)
        return -value, f"-{text}"
    if isinstance(node, Compare):
        value, text = _evaluate(node.left, rng, groups)
        holds = 1 if node.condition.test(value) else 0
        answer = "yes" if holds else "no"
        return holds, f"{_with_total(text, value)}; {node.condition}? {answer} → {holds}"
    if isinstance(node, Group):
        return _evaluate_group(node, rng, groups)
    left, left_text = _evaluate(node.left, rng, groups)
    right, right_text = _evaluate(node.right, rng, groups)
    if isinstance(node.right, BinOp | Div | Compare):
        right_text = f"({right_text})"
    if isinstance(node, Div):
        quotient = left // right if node.rounding == "floor" else -((-left) // right)
        text = f"{left_text} / {right_text}"
        if quotient * right != left:
            way = "down" if node.rounding == "floor" else "up"
            return quotient, f"{text} = {left}/{right} rounded {way} → {quotient}"
        return quotient, f"{text} → {quotient}"
    if node.op == "+":
        return left + right, f"{left_text} + {right_text}"
    if node.op == "-":
        return left - right, f"{left_text} - {right_text}"
    return left * right, f"{left_text} × {right_text}"


def _evaluate_group(node: Group, rng: random.Random, groups: list[GroupRoll]) -> tuple[int, str]:
    """Roll each member of a group, keep the highest or lowest, and mark the rest dropped."""
    rolled = []
    for member in node.members:
        start = len(groups)
        value, text = _evaluate(member, rng, groups)
        rolled.append((value, _with_total(text, value), groups[start:]))
    kept = list(range(len(rolled)))
    if node.keep is not None:
        highest_first = node.keep[0] in ("kh", "dl")
        order = sorted(kept, key=lambda i: rolled[i][0], reverse=highest_first)
        kept = sorted(order[: node.kept_count()])
    parts = []
    for i, (_, text, member_groups) in enumerate(rolled):
        if i in kept:
            parts.append(text)
            continue
        parts.append(f"({text})")
        for group in member_groups:
            for die in group.dice:
                die.kept = False
    keep = f"{node.keep[0]}{node.keep[1]}" if node.keep is not None else ""
    total = sum(rolled[i][0] for i in kept)
    return total, f"({', '.join(parts)}){keep} = {total}"


def roll(expression: str | Node, rng: random.Random) -> RollResult:
    """Roll `expression` (text or a parsed tree) with `rng`; same rng state, same result."""
    node = parse(expression) if isinstance(expression, str) else expression
    groups: list[GroupRoll] = []
    total, account = _evaluate(node, rng, groups)
    text = expression if isinstance(expression, str) else str(expression)
    return RollResult(text, total, groups, account)


def roll_total(expression: str | Node, rng: random.Random) -> int:
    """Return the total `roll` would give with `rng`, leaving `rng` as `roll` leaves it, for
    a caller that keeps only the total (a generator rolling thousands of table rolls).

    Sums of plain dice (any number, kept highest or lowest or not) and numbers are added up
    as they are thrown, without the account of each die; any other expression is rolled."""
    node = parse(expression) if isinstance(expression, str) else expression
    if not _plain(node):
        return roll(node, rng).total
    return _plain_total(node, rng)


@lru_cache(maxsize=256)
def _plain(node: Node) -> bool:
    """Whether `node` is numbers and plain dice, added, taken away or multiplied."""
    if isinstance(node, Const):
        return True
    if isinstance(node, Dice):
        return (
            node.reroll is None
            and node.minimum is None
            and node.maximum is None
            and node.explode is None
            and node.success is None
            and not node.fudge
        )
    if isinstance(node, Neg):
        return _plain(node.operand)
    if isinstance(node, BinOp):
        return _plain(node.left) and _plain(node.right)
    return False


def _plain_total(node: Node, rng: random.Random) -> int:
    # the dice are thrown in the order `_evaluate` throws them: left before right
    if isinstance(node, Const):
        return node.value
    if isinstance(node, Dice):
        faces = [rng.randint(1, node.sides) for _ in range(node.count)]
        if node.keep is None:
            return sum(faces)
        # the kept dice's sum: which of equal faces is kept does not change it
        faces.sort(reverse=node.keep[0] in ("kh", "dl"))
        return sum(faces[: node.kept_count()])
    if isinstance(node, Neg):
        return -_plain_total(node.operand, rng)
    assert isinstance(node, BinOp)
    left = _plain_total(node.left, rng)
    right = _plain_total(node.right, rng)
    if node.op == "+":
        return left + right
    if node.op == "-":
        return left - right
    return left * right


def dice_count(node: Node) -> int:
    """Return how many dice one roll of `node` throws (before re-rolls and explosions)."""
    return sum(group.count for group in dice_groups(node))


def check_times(expression: str, node: Node, times: int) -> None:
    """Refuse to roll `node` `times` times when that throws over `MAX_ROLLED_DICE` dice."""
    each = dice_count(node)
    if each * times > MAX_ROLLED_DICE:
        raise InputError(
            f"--times {times}: {expression} throws {each} dice a time, over "
            f"{MAX_ROLLED_DICE} in all (at most --times {max(MAX_ROLLED_DICE // each, 1)})"
        )
