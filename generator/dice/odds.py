"""Exact distributions of dice expressions, computed by icepool.

We parse the notation ourselves and translate the tree into icepool dice only here;
icepool does the convolution, keep-highest pools and re-roll/explode arithmetic exactly.
Explosions stop after `EXPLODE_DEPTH` per die, the same limit the roller uses, so the
distribution is exact for what `roll` does.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any

from generator.dice.notation import (
    EXPLODE_DEPTH,
    BinOp,
    Const,
    Dice,
    DiceError,
    Neg,
    Node,
    parse,
)

MAX_OUTCOMES = 200_000
MAX_POOL_WORK = 2_000_000


def _support(node: Node) -> int:
    """Return an upper bound on the number of distinct totals `node` can give."""
    if isinstance(node, Const):
        return 1
    if isinstance(node, Neg):
        return _support(node.operand)
    if isinstance(node, Dice):
        if node.success is not None:
            return node.kept_count() + 1
        per_die = node.sides * (EXPLODE_DEPTH + 1 if node.explode else 1)
        return node.kept_count() * per_die + 1
    left, right = _support(node.left), _support(node.right)
    return left * right if node.op == "*" else left + right


def _check_size(expression: str, node: Node) -> None:
    for group in _groups(node):
        faces = group.sides * (EXPLODE_DEPTH if group.explode else 1)
        if group.keep is not None and group.count * faces > MAX_POOL_WORK // 100:
            raise DiceError(
                expression,
                None,
                f"too large to count exactly: keeping from {group.count} dice of {faces} outcomes",
            )
        if group.explode is not None and group.count * group.sides > 2000:
            raise DiceError(expression, None, "too many exploding dice to count exactly")
    if _support(node) > MAX_OUTCOMES:
        raise DiceError(
            expression, None, f"too many possible totals to count exactly (over {MAX_OUTCOMES})"
        )


def _groups(node: Node) -> list[Dice]:
    if isinstance(node, Dice):
        return [node]
    if isinstance(node, Neg):
        return _groups(node.operand)
    if isinstance(node, BinOp):
        return _groups(node.left) + _groups(node.right)
    return []


def _to_icepool(node: Node) -> Any:
    import icepool

    if isinstance(node, Const):
        return icepool.Die([node.value])
    if isinstance(node, Neg):
        return -_to_icepool(node.operand)
    if isinstance(node, BinOp):
        left, right = _to_icepool(node.left), _to_icepool(node.right)
        if node.op == "+":
            return left + right
        if node.op == "-":
            return left - right
        return left * right
    die = icepool.d(node.sides)
    if node.reroll is not None:
        cond = node.reroll
        die = die.reroll(lambda x: cond.test(x), depth=1 if node.reroll_once else "inf")
    if node.explode is not None:
        boom = node.explode
        die = die.explode(lambda x: boom.test(x), depth=EXPLODE_DEPTH)
    success = node.success
    if node.keep is None:
        if success is not None:
            return node.count @ die.map(lambda x: 1 if success.test(x) else 0)
        return node.count @ die
    pool = die.pool(node.count)
    kept = node.kept_count()
    chosen = pool.highest(kept) if node.keep[0] in ("kh", "dl") else pool.lowest(kept)
    if success is not None:
        return chosen.keep_outcomes(lambda x: success.test(x)).size()
    return chosen.sum()


@lru_cache(maxsize=512)
def distribution(expression: str) -> dict[int, Fraction]:
    """Return the exact chance of each total of `expression`, zero chances left out."""
    node = parse(expression)
    _check_size(expression, node)
    die = _to_icepool(node)
    denominator = die.denominator()
    return {
        int(outcome): Fraction(quantity, denominator)
        for outcome, quantity in die.items()
        if quantity
    }


def mean(dist: dict[int, Fraction]) -> Fraction:
    """Return the expected total of a distribution."""
    return sum((Fraction(v) * p for v, p in dist.items()), Fraction(0))
