"""Exact distributions of dice expressions, computed by icepool.

We parse the notation ourselves and translate the tree into icepool dice only here;
icepool does the convolution, keep-highest pools and re-roll/explode arithmetic exactly.
Explosions stop after `EXPLODE_DEPTH` per die, the same limit the roller uses, so the
distribution is exact for what `roll` does.

Counting can take far longer than anyone waits (``200d100kh100`` would take minutes), so
before anything is counted a cost model estimates icepool's work in *steps* (a step is
about a microsecond of icepool's pure-Python work on a slow machine) and refuses what is
over `MAX_STEPS`, naming the part that costs most. As a backstop for anything the model
misjudges, the count itself runs under a `DEADLINE_SECONDS` alarm when it can (on Unix,
in the main thread). Either way the refusal is one `DiceError` line.
"""

from __future__ import annotations

import math
import shlex
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from generator.dice.notation import (
    EXPLODE_DEPTH,
    BinOp,
    Compare,
    Condition,
    Const,
    Dice,
    DiceError,
    Div,
    Group,
    Neg,
    Node,
    parse,
)

MAX_OUTCOMES = 200_000
"""Refuse expressions that could give more different totals than this."""
MAX_STEPS = 2_000_000
"""Refuse expressions whose estimated work is over this many steps (about 2 s)."""
DEADLINE_SECONDS = 3.0
#: how soon the deadline's alarm fires again if its first exception was swallowed
RETRY_SECONDS = 0.1
"""Give up counting after this long (when an alarm can be set: Unix, main thread)."""
SAMPLE_TIMES = 1000
"""How many rolls a refusal suggests sampling instead."""

# Cost model, in steps (about 1 microsecond each on the slow 2-core machine it was
# calibrated on; see `estimate`). Each constant is the cost of one operation of icepool's
# pure-Python loops, fitted (least relative squares) to timings of about a hundred
# expressions: NdM, NdMkhK, NdMklK, Nd6!, NdM>=T, NdMkhK>=T, sums, products, mixes.
PAIR_STEPS = 0.23
"""Adding or subtracting two distributions: one pair of outcomes."""
PRODUCT_PAIR_STEPS = 1.0
"""Multiplying two distributions: one pair of outcomes (their products scatter)."""
OUTCOME_STEPS = 1.9
"""A sum or difference: one outcome of the result made, sorted and stored."""
POOL_STATE_STEPS = 0.46
"""A keep-highest/lowest pool: one evaluator transition (state x dice showing a face)."""
POOL_POP_STEPS = 4.3
"""A keep-highest/lowest pool: one way of taking dice off the face it is at ..."""
POOL_POP_DICE = 400
"""... twice as dear with this many dice in the pool ..."""
POOL_POP_BITS = 1.5
"""... and dearer still when the faces weigh differently (exploding dice): this times
the dice times the bits of a face's weight, over `WEIGHT_BITS`, more ..."""
POOL_SPLIT_FACE_STEPS = 0.036
"""... and this more per face of the die (the die is hashed to look the split up)."""
POOL_FACE_STEPS = 1.0
"""A keep-highest/lowest pool: one face of the die, copied at each face it walks."""
EXPLODE_STEPS = 2.9
"""An exploding die: one outcome carried through one more level of explosion."""
MAP_PAIR_STEPS = 3.0
"""Dividing two distributions: one pair of outcomes through a Python function."""
NET_STEPS = 6.0
"""A success pool that explodes or counts failures: one outcome of a die made into one
integer (its total and its net count)."""
MIXED_POOL_FACTOR = 2.0
"""A group of different rolls to keep from costs this many times a pool of as many dice."""
WEIGHT_BITS = 4000
"""Integer weights this many bits long make each step cost about twice as much."""
_HUGE = 10**30  # more totals than this are refused anyway; keeps the estimates finite


class _Overtime(BaseException):
    """The counting alarm went off (a BaseException, so no library code swallows it)."""


@dataclass(frozen=True)
class _Shape:
    """What the cost model knows of a distribution: how many totals, their range, and
    how long icepool's integer weights get (log2 of the denominator)."""

    outcomes: int
    low: int
    high: int
    bits: float
    uneven: float = 0.0  # log2 of the largest weight of one outcome (0 if all weigh 1)


@dataclass
class Estimate:
    """The cost model's verdict on an expression, before anything is counted.

    Attributes:
        steps: estimated work in all (a step is about a microsecond on a slow machine).
        what: the dearest part in words, e.g. ``keeping the highest 100 of 200d100``.
        outcomes: an upper bound on how many different totals it gives.
        faces: the most faces of a die in a keep pool (icepool recurses once per face).
        dearest: the steps of the dearest part.
    """

    steps: float = 0.0
    what: str = ""
    outcomes: int = 1
    faces: int = 0
    dearest: float = 0.0

    def add(self, steps: float, what: str) -> None:
        """Count `steps` more of work, for the part described by `what`."""
        self.steps += steps
        if steps > self.dearest:
            self.dearest, self.what = steps, what


def _weight_factor(bits: float) -> float:
    """Return how much dearer a step is when icepool's integers are `bits` long."""
    return 1 + bits / WEIGHT_BITS


def _faces_matching(cond: Condition, sides: int) -> tuple[int, int]:
    """Return the first and last face of 1..sides that `cond` holds for (an interval)."""
    value = cond.value
    first, last = {
        ">=": (value, sides),
        ">": (value + 1, sides),
        "<=": (1, value),
        "<": (1, value - 1),
    }.get(cond.op, (value, value))
    return max(first, 1), min(last, sides)


def _one_die(node: Dice, work: Estimate) -> _Shape:
    """Return the shape of one die of the group, after its re-roll and explosion."""
    sides = node.sides
    shape = _Shape(sides, 1, sides, math.log2(sides) if sides > 1 else 0.0)
    if node.reroll is not None:
        first, last = _faces_matching(node.reroll, sides)
        if node.reroll_once:
            shape = _Shape(sides, 1, sides, 2 * shape.bits, shape.bits)
        else:
            # the faces left are 1..sides minus the interval first..last (not empty)
            removed = max(last - first + 1, 0)
            low = 1 if first > 1 or removed == 0 else last + 1
            high = sides if last < sides or removed == 0 else first - 1
            shape = _Shape(sides - removed, low, high, math.log2(max(sides - removed, 1)))
        work.add(sides * OUTCOME_STEPS, f"re-rolling a d{sides}")
    if node.fudge:
        shape = _Shape(3, -1, 1, math.log2(3))
    if node.minimum is not None or node.maximum is not None:
        faces = node.faces()
        shape = _Shape(len(faces), faces[0], faces[-1], shape.bits, shape.uneven)
        work.add(sides * MAP_PAIR_STEPS, f"limiting a d{sides}")
    if node.explode is not None:
        first, last = _faces_matching(node.explode, sides)
        exploding = max(min(last, shape.high) - max(first, shape.low) + 1, 1)
        depth = EXPLODE_DEPTH
        high = shape.high + depth * min(last, shape.high)
        outcomes = min(high - shape.low + 1, shape.outcomes * (depth + 1))
        # each level adds one more die to every exploding face's outcomes
        work.add(
            EXPLODE_STEPS * exploding * shape.outcomes * depth * (depth + 1) / 2,
            f"exploding a d{sides} up to {depth} times",
        )
        bits = shape.bits * (depth + 1)
        shape = _Shape(outcomes, shape.low, high, bits, bits - shape.bits)
    return shape


def _sum_of(die: _Shape, count: int, work: Estimate, what: str) -> _Shape:
    """Cost of adding `count` copies of `die` one at a time, as `_to_icepool` does."""
    span = die.high - die.low
    n = count
    # after i dice there are at most i*span+1 totals; each takes every outcome of one die
    pairs = die.outcomes * (span * n * (n - 1) / 2 + (n - 1))
    made = span * (n * (n + 1) / 2 - 1) + (n - 1)
    weights = _weight_factor(2 / 3 * n * die.bits)
    work.add((PAIR_STEPS * pairs + OUTCOME_STEPS * made) * weights, what)
    return _Shape(span * n + 1, die.low * n, die.high * n, die.bits * n)


def _pool(node: Dice, die: _Shape, work: Estimate, what: str | None = None) -> _Shape:
    """Cost of icepool's keep-highest/lowest pool evaluation of a group.

    icepool walks the faces from the kept end. At each face, for each number k of dice
    still to be kept (only all K at the first face), it splits off how many of them show
    that face and carries every partial result of the faces below to the next face: a
    count of successes (up to k+1 of them) or a sum of up to k faces (up to k times the
    faces' range). That is about K**3/6 transitions per face for a count, and K**3/6
    times the range of the faces below for a sum; splitting the dice (every way for all
    the dice left) makes about faces x K x N pool objects, each hashing the die; and the
    die itself is copied, one face shorter, at every face.
    """
    count, kept = node.count, node.kept_count()
    faces = die.outcomes
    work.faces = max(work.faces, faces)
    if kept == 0:  # nothing kept (3d6dl3): a total of 0, but icepool still walks the faces
        work.add(POOL_FACE_STEPS * faces * faces / 30, f"dropping all of {_group(node)}")
        return _Shape(1, 0, 0, 0.0)
    inner = max(faces - 2, 0)  # faces with every number of kept dice: not the first or last
    spacing = (die.high - die.low) / max(faces - 1, 1)
    cubes = kept * (kept + 1) * (kept + 2) / 6
    squares = kept * (kept + 1) / 2
    if node.success is not None:
        # the count only changes at faces that are successes: elsewhere it has one value
        first, last = _faces_matching(node.success, die.high)
        hits = min(max(min(last, die.high) - max(first, die.low) + 1, 0), inner)
        transitions = hits * cubes + inner * squares + kept
        result = _Shape(kept + 1, 0, kept, die.bits * count)
    else:
        transitions = (
            cubes * spacing * inner * (inner - 1) / 2 + inner * squares * (1 + spacing) + kept
        )
        span = die.high - die.low
        result = _Shape(span * kept + 1, die.low * kept, die.high * kept, die.bits * count)
    splits = inner * (kept * (count - kept) + squares) + count
    per_split = POOL_POP_STEPS * (
        1 + count / POOL_POP_DICE + count * die.uneven * POOL_POP_BITS / WEIGHT_BITS
    )
    per_split += POOL_SPLIT_FACE_STEPS * faces
    steps = POOL_STATE_STEPS * transitions * _weight_factor(count * die.bits)
    steps += splits * per_split + POOL_FACE_STEPS * faces * faces / 2
    side = "highest" if node.keep is not None and node.keep[0] in ("kh", "dl") else "lowest"
    plain = Dice(count, node.sides, None, node.reroll, node.reroll_once, node.explode)
    work.add(steps, f"keeping the {side} {kept} of {what or _group(plain)}")
    return result


def _shape(node: Node, work: Estimate) -> _Shape:
    """Return the shape of `node`'s distribution, adding the cost of counting it."""
    if isinstance(node, Const):
        return _Shape(1, node.value, node.value, 0.0)
    if isinstance(node, Neg):
        inner = _shape(node.operand, work)
        work.add(OUTCOME_STEPS * inner.outcomes, f"negating {_short(node.operand)}")
        return _Shape(inner.outcomes, -inner.high, -inner.low, inner.bits)
    if isinstance(node, Dice):
        return _dice_shape(node, work)
    if isinstance(node, Compare):
        inner = _shape(node.left, work)
        work.add(OUTCOME_STEPS * inner.outcomes, f"comparing {_short(node.left)}")
        return _Shape(2, 0, 1, inner.bits)
    if isinstance(node, Group):
        return _group_shape(node, work)
    left, right = _shape(node.left, work), _shape(node.right, work)
    pairs = left.outcomes * right.outcomes
    bits = left.bits + right.bits
    if isinstance(node, Div):
        divisors = {right.low, right.high} | {b for b in (-1, 1) if right.low <= b <= right.high}
        corners = [a // b for a in (left.low, left.high) for b in divisors if b]
        low, high = min(corners) - 1, max(corners) + 1
        outcomes = min(pairs, high - low + 1, _HUGE)
        steps = MAP_PAIR_STEPS * pairs * _weight_factor(bits)
        what = f"dividing {_short(node.left)} by {_short(node.right)}"
    elif node.op == "*":
        corners = [a * b for a in (left.low, left.high) for b in (right.low, right.high)]
        low, high = min(corners), max(corners)
        outcomes = min(pairs, high - low + 1, _HUGE)
        steps = PRODUCT_PAIR_STEPS * pairs * _weight_factor(bits)
        what = f"multiplying {_short(node.left)} by {_short(node.right)}"
    else:
        if node.op == "+":
            low, high = left.low + right.low, left.high + right.high
        else:
            low, high = left.low - right.high, left.high - right.low
        outcomes = min(pairs, high - low + 1, _HUGE)
        steps = (PAIR_STEPS * pairs + OUTCOME_STEPS * outcomes) * _weight_factor(bits)
        verb = "adding" if node.op == "+" else "subtracting"
        what = f"{verb} {_short(node.left)} and {_short(node.right)}"
    work.add(steps, what)
    return _Shape(outcomes, low, high, bits)


def _dice_shape(node: Dice, work: Estimate) -> _Shape:
    """Return the shape of a dice group's distribution, adding the cost of counting it."""
    die = _one_die(node, work)
    chain = EXPLODE_DEPTH + 1 if node.explode is not None else 1
    low = -chain if node.failure is not None else 0
    if node.success is not None and (node.explode is not None or node.failure is not None):
        # each die becomes one integer (total and net count): like a sum of faces to keep,
        # then a small count to add up
        work.add(NET_STEPS * die.outcomes, f"counting the chains of {_group(node)}")
        if node.keep is not None:
            # as many kinds of die as totals times the net counts a face can have
            nets = len({node.net(f) for f in node.faces()})
            die = _Shape(die.outcomes * nets, die.low, die.high, die.bits, die.uneven)
            counted = Dice(node.count, node.sides, node.keep, success=node.success)
            _pool(counted, die, work)
            kept = node.kept_count()
            return _Shape(kept * (chain - low) + 1, kept * low, kept * chain, die.bits * node.count)
        net = _Shape(min(die.outcomes, chain - low + 1), low, chain, die.bits)
        return _sum_of(net, node.count, work, f"counting successes on {_group(node)}")
    if node.keep is not None:
        return _pool(node, die, work)
    if node.success is not None:
        die = _Shape(2, 0, 1, die.bits)
        return _sum_of(die, node.count, work, f"counting successes on {_group(node)}")
    return _sum_of(die, node.count, work, f"adding up {_group(node)}")


def _group_shape(node: Group, work: Estimate) -> _Shape:
    """Return the shape of a group of rolls, adding the cost of counting it."""
    members = [_shape(m, work) for m in node.members]
    if node.keep is None:
        total = members[0]
        for member in members[1:]:
            pairs = total.outcomes * member.outcomes
            low, high = total.low + member.low, total.high + member.high
            outcomes = min(pairs, high - low + 1, _HUGE)
            bits = total.bits + member.bits
            steps = (PAIR_STEPS * pairs + OUTCOME_STEPS * outcomes) * _weight_factor(bits)
            work.add(steps, f"adding up {_short(node)}")
            total = _Shape(outcomes, low, high, bits)
        return total
    # a pool of different dice: priced as a pool of as many dice of all their outcomes
    low = min(m.low for m in members)
    high = max(m.high for m in members)
    faces = min(high - low + 1, sum(m.outcomes for m in members))
    bits = max(m.bits for m in members)
    die = _Shape(faces, low, high, bits)
    pooled = Dice(len(members), max(faces, 1), node.keep)
    pool = Estimate()
    result = _pool(pooled, die, pool, _short(Group(node.members)))
    work.faces = max(work.faces, pool.faces)
    work.add(MIXED_POOL_FACTOR * pool.steps, pool.what)
    return result


def _short(node: Node) -> str:
    """Return `node` as notation for a message, cut short, dice written ``d100``."""
    text = _group(node)
    return text if len(text) <= 30 else text[:27] + "..."


def _group(node: Node) -> str:
    """Return `node` as notation for a message, ``d%`` written ``d100``."""
    return str(node).replace("d%", "d100")


def estimate(node: Node) -> Estimate:
    """Estimate the work of counting `node` exactly, without counting anything.

    Calibrated against icepool 2.1 on a slow shared 2-core machine: on about 80 chosen
    expressions (``NdM``, ``NdMkhK``, ``NdMkhK>=T``, ``Nd6!``, products) and 100 random
    ones costing 0.3 to 2 s, the estimate was 0.6 to 1.5 times the real time in
    microseconds; what it misjudges worse is caught by `DEADLINE_SECONDS`.
    """
    work = Estimate()
    work.outcomes = _shape(node, work).outcomes
    return work


def _about(number: float) -> str:
    """Return a count rounded to two significant figures, with thousands separators."""
    if number < 100:
        return f"{number:,.0f}"
    digits = math.floor(math.log10(number)) - 1
    return f"{round(number, -digits):,.0f}"


def _sampling_hint(expression: str, node: Node) -> str:
    """Return the advice to roll many times instead, within `roll --times` limits."""
    from generator.dice.rolling import MAX_ROLLED_DICE, dice_count

    times = max(min(SAMPLE_TIMES, MAX_ROLLED_DICE // max(dice_count(node), 1)), 1)
    command = f"quartermaster roll {shlex.quote(expression)} --times {times}"
    return f"try fewer dice, or sample it: {command}"


def _check_size(expression: str, node: Node) -> Estimate:
    """Refuse `node` up front if counting it would take too long or give too many totals.

    Returns:
        The estimate, when it passes.
    """
    cost = estimate(node)
    if cost.steps > MAX_STEPS:
        if cost.dearest >= 0.9 * cost.steps:
            size = f"{cost.what} is about {_about(cost.steps)} steps"
        else:
            size = f"it is about {_about(cost.steps)} steps, the most for {cost.what}"
        raise DiceError(
            expression,
            None,
            f"too large to count exactly: {size} (the limit is {MAX_STEPS:,}); "
            f"{_sampling_hint(expression, node)}",
        )
    if cost.outcomes > MAX_OUTCOMES:
        raise DiceError(
            expression,
            None,
            f"too many possible totals to count exactly: up to {_about(cost.outcomes)} "
            f"(the limit is {MAX_OUTCOMES:,}); {_sampling_hint(expression, node)}",
        )
    return cost


@contextmanager
def _recursion_room(frames: int) -> Iterator[None]:
    """Let the body recurse `frames` deeper than the current limit allows, then restore it.

    icepool's pool evaluation recurses once per face of the die.
    """
    previous = sys.getrecursionlimit()
    if frames:
        sys.setrecursionlimit(previous + frames + 100)
    try:
        yield
    finally:
        sys.setrecursionlimit(previous)


@contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    """Raise `_Overtime` in the body after `seconds`, when an alarm can be set.

    Only in the main thread on a system with `signal.setitimer`; elsewhere the body runs
    unbounded (the cost model still applies). The previous SIGALRM handler is restored,
    and a timer already running is left alone if it fires first, or re-armed afterwards
    with the time it had left.
    """
    if (
        seconds <= 0
        or not hasattr(signal, "setitimer")
        or threading.current_thread() is not threading.main_thread()
    ):
        yield
        return
    outer_delay, outer_interval = signal.getitimer(signal.ITIMER_REAL)
    if outer_delay and outer_delay <= seconds:
        yield
        return

    # The alarm repeats until the body is over: an exception raised where Python swallows
    # it (a garbage-collector callback, a destructor) is raised again a moment later. Python
    # hands a swallowed one to sys.unraisablehook, which would print it ("Exception ignored
    # in ...") or, under pytest, fail the test: while the body runs, the hook lets ours go
    # unsaid, and no alarm is raised inside the hook itself.
    live = [True]
    in_hook = [False]

    def expire(signum: int, frame: object) -> None:
        if live[0] and not in_hook[0]:
            raise _Overtime

    outer_hook = sys.unraisablehook

    def swallowed(unraisable: Any) -> None:
        in_hook[0] = True
        try:
            if not isinstance(unraisable.exc_value, _Overtime):
                outer_hook(unraisable)
        finally:
            in_hook[0] = False

    started = time.monotonic()
    previous = signal.signal(signal.SIGALRM, expire)
    sys.unraisablehook = swallowed
    try:
        signal.setitimer(signal.ITIMER_REAL, seconds, RETRY_SECONDS)
        yield
    finally:
        while live[0]:
            try:  # an alarm landing here, before live is cleared, only makes us go round
                live[0] = False
                signal.setitimer(signal.ITIMER_REAL, 0)
            except _Overtime:
                live[0] = True
        sys.unraisablehook = outer_hook
        signal.signal(signal.SIGALRM, previous if previous is not None else signal.SIG_DFL)
        if outer_delay:
            left = max(outer_delay - (time.monotonic() - started), 0.001)
            signal.setitimer(signal.ITIMER_REAL, left, outer_interval)


def _sum_dice(die: Any, count: int) -> Any:
    """Return the sum of `count` rolls of `die`, added one at a time.

    The same as icepool's ``count @ die``, whose recursion overflows the stack near a
    thousand dice.
    """
    total = die
    for _ in range(count - 1):
        total = total + die
    return total


#: a die of a success pool that explodes, or counts failures, is counted as one integer:
#: its total times `_NET_SCALE` plus its net count (successes minus failures, at most
#: EXPLODE_DEPTH + 1 either way), so that explosions add both up at once and a keep ranks
#: dice by total, then by net count, as the roller does
_NET_SCALE = 4 * (EXPLODE_DEPTH + 1)


def _net_of(code: int) -> int:
    """Return the net count of a die counted as one integer."""
    return (code + _NET_SCALE // 2) % _NET_SCALE - _NET_SCALE // 2


def _total_of(code: int) -> int:
    """Return the total of a die counted as one integer."""
    return (code - _net_of(code)) // _NET_SCALE


def _to_icepool(node: Node) -> Any:
    """Translate an expression tree into an icepool die."""
    import icepool

    if isinstance(node, Const):
        return icepool.Die([node.value])
    if isinstance(node, Neg):
        return -_to_icepool(node.operand)
    if isinstance(node, Compare):
        cond = node.condition
        return _to_icepool(node.left).map(lambda x: 1 if cond.test(x) else 0)
    if isinstance(node, Group):
        members = [_to_icepool(m) for m in node.members]
        if node.keep is None:
            total = members[0]
            for member in members[1:]:
                total = total + member
            return total
        pool = icepool.Pool(members)
        kept = node.kept_count()
        if kept == 0:
            return icepool.Die([0])
        return (pool.highest(kept) if node.keep[0] in ("kh", "dl") else pool.lowest(kept)).sum()
    if isinstance(node, Div):
        left, right = _to_icepool(node.left), _to_icepool(node.right)
        if node.rounding == "floor":
            return icepool.map(lambda a, b: a // b, left, right)
        return icepool.map(lambda a, b: -((-a) // b), left, right)
    if isinstance(node, BinOp):
        left, right = _to_icepool(node.left), _to_icepool(node.right)
        if node.op == "+":
            return left + right
        if node.op == "-":
            return left - right
        return left * right
    return _dice_to_icepool(node)


def _dice_to_icepool(node: Dice) -> Any:
    """Translate one dice group into an icepool die."""
    import icepool

    die = icepool.Die([-1, 0, 1]) if node.fudge else icepool.d(node.sides)
    if node.reroll is not None:
        cond = node.reroll
        die = die.reroll(lambda x: cond.test(x), depth=1 if node.reroll_once else "inf")
    if node.minimum is not None or node.maximum is not None:
        die = die.map(node.clamp)
    success = node.success
    if success is not None and (node.explode is not None or node.failure is not None):
        return _net_pool(node, die)
    if node.explode is not None:
        boom = node.explode
        die = die.explode(lambda x: boom.test(x), depth=EXPLODE_DEPTH)
    if node.keep is None:
        if success is not None:
            return _sum_dice(die.map(lambda x: 1 if success.test(x) else 0), node.count)
        return _sum_dice(die, node.count)
    pool = die.pool(node.count)
    kept = node.kept_count()
    chosen = pool.highest(kept) if node.keep[0] in ("kh", "dl") else pool.lowest(kept)
    if success is not None:
        return chosen.keep_outcomes(lambda x: success.test(x)).size()
    return chosen.sum()


def _net_pool(node: Dice, die: Any) -> Any:
    """Count a success pool whose dice explode or count failures: every face of a chain is
    a success (+1), a failure (-1) or neither."""
    import icepool

    net = node.net
    encoded = die.map(lambda x: x * _NET_SCALE + net(x))
    if node.explode is not None:
        boom = node.explode
        encoded = encoded.explode(lambda c: boom.test(_total_of(c)), depth=EXPLODE_DEPTH)
    if node.keep is None:
        return _sum_dice(encoded.map(_net_of), node.count)
    kept = node.kept_count()
    if kept == 0:
        return icepool.Die([0])
    pool = encoded.pool(node.count)
    chosen = pool.highest(kept) if node.keep[0] in ("kh", "dl") else pool.lowest(kept)
    return chosen.sum(map=_net_of)


@lru_cache(maxsize=512)
def distribution(expression: str) -> dict[int, Fraction]:
    """Return the exact chance of each total of `expression`, zero chances left out.

    Raises:
        DiceError: `expression` is not notation, or too large to count: refused up front
            by the cost model, or given up after `DEADLINE_SECONDS`.
    """
    node = parse(expression)
    cost = _check_size(expression, node)
    try:
        with _deadline(DEADLINE_SECONDS), _recursion_room(cost.faces):
            die = _to_icepool(node)
            denominator = die.denominator()
            return {
                int(outcome): Fraction(quantity, denominator)
                for outcome, quantity in die.items()
                if quantity
            }
    except _Overtime:
        reason = f"it could not be counted within {DEADLINE_SECONDS:g} s"
    except RecursionError:  # the recursion room was misjudged
        reason = "it nests too deeply to count"
    raise DiceError(
        expression,
        None,
        f"too large to count exactly: {reason}; {_sampling_hint(expression, node)}",
    )


def mean(dist: dict[int, Fraction]) -> Fraction:
    """Return the expected total of a distribution (over a common denominator, in
    integers: summing Fractions takes seconds over a hundred thousand totals)."""
    denominator = math.lcm(*(p.denominator for p in dist.values()))
    total = sum(v * p.numerator * (denominator // p.denominator) for v, p in dist.items())
    return Fraction(total, denominator)
