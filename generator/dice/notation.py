"""Parse dice notation into an immutable expression tree.

Grammar (case-insensitive, spaces allowed between tokens)::

    expr     := sum (CMP SIGNED)?              compare the total: worth 1 or 0
    sum      := term (("+" | "-") term)*
    term     := unary (("*" | "/") unary)*     "/" rounds down
    unary    := ("-" | "+") unary | primary
    primary  := NUMBER | dice | "(" expr ")"
              | "(" expr ("," expr)+ ")" keep?  a group of rolls; "{...}" is the same
              | ("floor" | "ceil") "(" expr ")" the argument a division at its top
    dice     := NUMBER? "d" (NUMBER | "%" | "F") modifier* success?
    modifier := ("kh" | "kl" | "dh" | "dl" | "k") NUMBER      keep or drop
              | ("r" | "ro") CMP? NUMBER                      re-roll (until / once)
              | "!" (CMP? NUMBER)?                            explode (default: top face)
              | ("mi" | "ma") NUMBER                          per-die minimum / maximum
    success  := CMP NUMBER ("f" CMP? NUMBER)?                 count successes (- failures)
    CMP      := ">=" | "<=" | "==" | "=" | ">" | "<"

A comparison right after a dice group counts that group's dice (Roll20's success counting);
anywhere else it compares the total (as d20 does). A condition with no operator written
(``r1``, ``!5``, ``f1``) means "equal to". `str` of a tree reads back as the same tree.

Sizes that could not finish, and conditions that could never or would always hold, are
refused here, before anything is rolled or counted.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import lru_cache

from generator.errors import InputError

MAX_DICE = 1000
MAX_SIDES = 10_000
MAX_TOTAL_DICE = 10_000
MAX_CONSTANT = 10**9
MAX_LENGTH = 500
MAX_MEMBERS = 100
EXPLODE_DEPTH = 20
SUPPORT_LIMIT = 4096
"""The most values `support` lists before it gives a range instead."""

COMPARISONS = (">=", "<=", "==", "=", ">", "<")


class DiceError(InputError):
    """A dice expression is malformed or too large; says where."""

    def __init__(self, expression: str, position: int | None, message: str) -> None:
        self.expression = expression
        self.position = position
        where = f" at position {position + 1}" if position is not None else ""
        super().__init__(f"dice expression '{expression}'{where}: {message}")


@dataclass(frozen=True)
class Condition:
    """A comparison against a number: ``>= 5``."""

    op: str
    value: int

    def test(self, number: int) -> bool:
        if self.op == ">=":
            return number >= self.value
        if self.op == "<=":
            return number <= self.value
        if self.op == ">":
            return number > self.value
        if self.op == "<":
            return number < self.value
        return number == self.value

    def words(self) -> str:
        """Say the condition as a die's face would meet it: ``5 or more``."""
        return {
            ">=": f"{self.value} or more",
            "<=": f"{self.value} or less",
            ">": f"more than {self.value}",
            "<": f"less than {self.value}",
        }.get(self.op, str(self.value))

    def bare(self) -> str:
        """Write the condition after ``r``, ``!`` or ``f``, where "equal" goes unwritten."""
        return str(self.value) if self.op == "==" else str(self)

    def __str__(self) -> str:
        return f"{self.op}{self.value}"


@dataclass(frozen=True)
class Const:
    value: int

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True)
class Dice:
    """``count`` dice of ``sides`` faces, with optional re-roll, per-die minimum and
    maximum, explode, keep, and success (and failure) counting.

    Fudge dice (``dF``) have ``fudge`` set and three sides showing -1, 0 and +1.
    """

    count: int
    sides: int
    keep: tuple[str, int] | None = None  # ("kh"|"kl"|"dh"|"dl", n)
    reroll: Condition | None = None
    reroll_once: bool = False
    explode: Condition | None = None
    success: Condition | None = None
    failure: Condition | None = None
    minimum: int | None = None
    maximum: int | None = None
    fudge: bool = False

    def kept_count(self) -> int:
        return kept_count(self.keep, self.count)

    def raw_faces(self) -> list[int]:
        """The faces the die shows as thrown: 1..sides, or -1, 0, 1 for ``dF``."""
        return [-1, 0, 1] if self.fudge else list(range(1, self.sides + 1))

    def clamp(self, face: int) -> int:
        """Return `face` raised to the minimum and lowered to the maximum, if any."""
        if self.minimum is not None and face < self.minimum:
            face = self.minimum
        if self.maximum is not None and face > self.maximum:
            face = self.maximum
        return face

    def faces(self) -> list[int]:
        """The faces one die can count as, after re-rolls and min/max (one die of a chain)."""
        raw = self.raw_faces()
        if self.reroll is not None and not self.reroll_once:
            raw = [f for f in raw if not self.reroll.test(f)]
        return sorted({self.clamp(f) for f in raw})

    def die_text(self) -> str:
        """Name one die with what changes its faces: ``d6``, ``d6r1``, ``d20ma15``."""
        return _dice_text(self, count=False, explode=False, keep=False, success=False)

    def net(self, face: int) -> int:
        """Return what one face of a success pool is worth: 1, -1 (a failure) or 0."""
        if self.success is not None and self.success.test(face):
            return 1
        if self.failure is not None and self.failure.test(face):
            return -1
        return 0

    def __str__(self) -> str:
        return _dice_str(self)


@lru_cache(maxsize=1024)
def _dice_str(node: Dice) -> str:
    """Return `node` as notation (the roller names a group with it at every roll)."""
    return _dice_text(node)


def _dice_text(
    node: Dice,
    count: bool = True,
    explode: bool = True,
    keep: bool = True,
    success: bool = True,
) -> str:
    text = f"{node.count if count else ''}d"
    text += "F" if node.fudge else "%" if node.sides == 100 else str(node.sides)
    if node.reroll is not None:
        text += f"{'ro' if node.reroll_once else 'r'}{node.reroll.bare()}"
    if node.minimum is not None:
        text += f"mi{node.minimum}"
    if node.maximum is not None:
        text += f"ma{node.maximum}"
    if explode and node.explode is not None:
        top = node.faces()[-1]
        if node.explode == Condition(">=", top) and (not success or node.success is None):
            text += "!"  # on the top face; written out when a success count follows
        else:
            text += f"!{node.explode.bare()}"
    if keep and node.keep is not None:
        text += f"{node.keep[0]}{node.keep[1]}"
    if success and node.success is not None:
        text += str(node.success)
        if node.failure is not None:
            text += f"f{node.failure.bare()}"
    return text


def kept_count(keep: tuple[str, int] | None, count: int) -> int:
    """Return how many of `count` dice (or rolls of a group) `keep` keeps."""
    if keep is None:
        return count
    mode, n = keep
    return min(n, count) if mode in ("kh", "kl") else max(count - n, 0)


@dataclass(frozen=True)
class Neg:
    operand: Node

    def __str__(self) -> str:
        return f"-{_wrap(self.operand, 3)}"


@dataclass(frozen=True)
class BinOp:
    """``left op right`` with op one of ``+``, ``-``, ``*``."""

    op: str
    left: Node
    right: Node

    def __str__(self) -> str:
        level = 2 if self.op == "*" else 1
        return f"{_wrap(self.left, level)}{self.op}{_wrap(self.right, level + 1)}"


@dataclass(frozen=True)
class Div:
    """``left / right`` rounded down (``floor``) or up (``ceil``)."""

    left: Node
    right: Node
    rounding: str = "floor"

    def __str__(self) -> str:
        text = f"{_wrap(self.left, 2)}/{_wrap(self.right, 3)}"
        return f"ceil({text})" if self.rounding == "ceil" else text


@dataclass(frozen=True)
class Group:
    """Several rolls, ``(1d20+5, 1d20+5)kh1``: the sum of the kept ones (all if no keep)."""

    members: tuple[Node, ...]
    keep: tuple[str, int] | None = None

    def kept_count(self) -> int:
        return kept_count(self.keep, len(self.members))

    def __str__(self) -> str:
        keep = f"{self.keep[0]}{self.keep[1]}" if self.keep is not None else ""
        return f"({', '.join(str(m) for m in self.members)}){keep}"


@dataclass(frozen=True)
class Compare:
    """The total of ``left`` compared with a number: worth 1 if it holds, else 0."""

    left: Node
    condition: Condition

    def __str__(self) -> str:
        left = _wrap(self.left, 1)
        if _ends_in_dice(self.left) and not left.endswith(")"):
            left = f"({left})"  # else the comparison would count the dice
        return f"{left}{self.condition}"


Node = Const | Dice | Neg | BinOp | Div | Group | Compare


def _level(node: Node) -> int:
    """How tightly `node` binds when printed: 0 a comparison .. 4 an atom."""
    if isinstance(node, Compare):
        return 0
    if isinstance(node, BinOp):
        return 2 if node.op == "*" else 1
    if isinstance(node, Div):
        return 4 if node.rounding == "ceil" else 2
    if isinstance(node, Neg):
        return 3
    return 4


def _wrap(node: Node, level: int) -> str:
    """Print `node`, in parentheses if it binds less tightly than `level` asks."""
    return f"({node})" if _level(node) < level else str(node)


def _ends_in_dice(node: Node) -> bool:
    """Say whether `node` prints with a dice group last (a comparison after it would count
    that group's dice)."""
    if isinstance(node, Dice):
        return True
    if isinstance(node, Neg):
        return _level(node.operand) >= 3 and _ends_in_dice(node.operand)
    if isinstance(node, BinOp | Div) and _level(node) < 4:
        right_level = _level(node) + 1
        return _level(node.right) >= right_level and _ends_in_dice(node.right)
    return False


def children(node: Node) -> Iterator[Node]:
    """Yield the nodes directly inside `node`."""
    if isinstance(node, Neg):
        yield node.operand
    elif isinstance(node, BinOp | Div):
        yield node.left
        yield node.right
    elif isinstance(node, Group):
        yield from node.members
    elif isinstance(node, Compare):
        yield node.left


def dice_groups(node: Node) -> Iterator[Dice]:
    """Yield every dice group in `node`, left to right."""
    if isinstance(node, Dice):
        yield node
    for child in children(node):
        yield from dice_groups(child)


# --- what an expression can come to: for the divisor check --------------------------


def support(node: Node) -> frozenset[int] | tuple[int, int]:
    """Return every value `node` can come to, or (when there would be more than
    `SUPPORT_LIMIT` of them) the lowest and highest."""
    if isinstance(node, Const):
        return frozenset({node.value})
    if isinstance(node, Compare):
        return frozenset({0, 1})
    if isinstance(node, Dice):
        return _dice_support(node)
    if isinstance(node, Neg):
        inner = support(node.operand)
        if isinstance(inner, tuple):
            return -inner[1], -inner[0]
        return frozenset(-v for v in inner)
    if isinstance(node, Group):
        parts = [support(m) for m in node.members]
        kept = node.kept_count()
        if kept == 0:
            return frozenset({0})
        lows = sorted(_low(p) for p in parts)
        highs = sorted((_high(p) for p in parts), reverse=True)
        return sum(lows[:kept]), sum(highs[:kept])
    left, right = support(node.left), support(node.right)
    if isinstance(node, Div):

        def combine(a: int, b: int) -> int:
            return _divide(a, b, node.rounding)
    elif node.op == "+":

        def combine(a: int, b: int) -> int:
            return a + b
    elif node.op == "-":

        def combine(a: int, b: int) -> int:
            return a - b
    else:

        def combine(a: int, b: int) -> int:
            return a * b

    if (
        isinstance(left, frozenset)
        and isinstance(right, frozenset)
        and len(left) * len(right) <= SUPPORT_LIMIT * 4
    ):
        values = frozenset(
            combine(a, b) for a in left for b in right if b or not isinstance(node, Div)
        )
        if len(values) <= SUPPORT_LIMIT:
            return values
    corners = [
        combine(a, b)
        for a in (_low(left), _high(left))
        for b in (_low(right), _high(right))
        if b or not isinstance(node, Div)
    ]
    return min(corners), max(corners)


def _low(values: frozenset[int] | tuple[int, int]) -> int:
    return min(values) if isinstance(values, frozenset) else values[0]


def _high(values: frozenset[int] | tuple[int, int]) -> int:
    return max(values) if isinstance(values, frozenset) else values[1]


def _divide(a: int, b: int, rounding: str) -> int:
    """Return a/b rounded down (``floor``) or up (``ceil``), in integers."""
    return a // b if rounding == "floor" else -((-a) // b)


def _dice_support(node: Dice) -> frozenset[int] | tuple[int, int]:
    kept = node.kept_count()
    if node.success is not None:
        chain = EXPLODE_DEPTH + 1 if node.explode is not None else 1
        low = -kept * chain if node.failure is not None else 0
        return low, kept * chain
    one: set[int] = set(node.faces())
    if node.explode is not None:
        boom = node.explode
        ends = {f for f in one if not boom.test(f)}
        carry = {f for f in one if boom.test(f)}
        totals = set(ends)
        for depth in range(EXPLODE_DEPTH):
            last = depth == EXPLODE_DEPTH - 1
            nxt = {c + f for c in carry for f in one}
            totals |= nxt if last else {c + f for c in carry for f in ends}
            carry = {c + f for c in carry for f in one if boom.test(f)}
            if not carry or len(totals) > SUPPORT_LIMIT:
                break
        if len(totals) > SUPPORT_LIMIT:
            return min(one) * kept, max(one) * (EXPLODE_DEPTH + 1) * kept
        one = totals
    if kept == 0:
        return frozenset({0})
    sums: set[int] = set(one)
    for _ in range(kept - 1):
        sums = {s + f for s in sums for f in one}
        if len(sums) > SUPPORT_LIMIT:
            return min(one) * kept, max(one) * kept
    return frozenset(sums)


# --- the parser ---------------------------------------------------------------------

_TOKEN = re.compile(
    r"\s*(?:(\d+)|(floor|ceil|kh|kl|dh|dl|ro|mi|ma|!(?===)|!=|>=|<=|==|[dfkr!%(){}+\-*/<>=,]))",
    re.IGNORECASE,
)


_TOP = Condition(">=", 0)  # a placeholder: "explode on the top face", until it is known


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens: list[tuple[str, int]] = []
        pos = 0
        while pos < len(text):
            if text[pos:].strip() == "":
                break
            match = _TOKEN.match(text, pos)
            if not match:
                start = pos + len(text[pos:]) - len(text[pos:].lstrip())
                raise DiceError(text, start, f"unexpected '{text[start]}'")
            start = match.start(1) if match.group(1) else match.start(2)
            token = (match.group(1) or match.group(2)).lower()
            if token == "!=":
                raise DiceError(
                    text,
                    start,
                    "'!=' is not a comparison here: to explode on a 1, write 1d20!1; to count "
                    "dice that are not a 1, write 1d20>1",
                )
            self.tokens.append((token, start))
            pos = match.end()
        self.index = 0
        self.total_dice = 0
        # where the innermost parenthesis or group member being read starts, for hints
        self.level_starts = [0]

    def peek(self) -> str | None:
        return self.tokens[self.index][0] if self.index < len(self.tokens) else None

    def position(self) -> int:
        return self.tokens[self.index][1] if self.index < len(self.tokens) else len(self.text)

    def take(self) -> str:
        token = self.tokens[self.index][0]
        self.index += 1
        return token

    def fail(self, message: str) -> DiceError:
        return DiceError(self.text, self.position(), message)

    def number(self, what: str) -> int:
        token = self.peek()
        if token is None or not token.isdigit():
            found = "the end" if token is None else f"'{token}'"
            raise self.fail(f"expected {what}, found {found}")
        value = int(self.take())
        if value > MAX_CONSTANT:
            raise self.fail(f"{value} is too large (at most {MAX_CONSTANT})")
        return value

    def total_form(self, at: int) -> str:
        """Return the text with what comes before the comparison at `at` (back to the
        start of its parenthesis or group member) in parentheses: ``(2d6)>=7``."""
        start = self.level_starts[-1]
        while start < at and self.text[start].isspace():
            start += 1
        inner = self.text[start:at].strip()
        return f"{self.text[:start]}({inner}){self.text[at:].strip()}".strip()

    def parse(self) -> Node:
        if not self.tokens:
            raise DiceError(self.text, None, "empty expression (try 2d6+3)")
        node = self.expr()
        token = self.peek()
        if token is not None:
            if token in COMPARISONS:
                raise self.fail(
                    "an expression compares its total once: put the first comparison in "
                    "parentheses to compare again, e.g. ((2d6)>=7)>=1"
                )
            raise self.fail(f"unexpected '{token}'")
        return node

    def expr(self) -> Node:
        node = self.sum()
        if self.peek() in COMPARISONS:
            op = self.take()
            op = "==" if op in ("=", "==") else op
            negative = False
            if self.peek() == "-":
                self.take()
                negative = True
            value = self.number("a number after the comparison")
            node = Compare(node, Condition(op, -value if negative else value))
        return node

    def sum(self) -> Node:
        node = self.term()
        while self.peek() in ("+", "-"):
            op = self.take()
            node = BinOp(op, node, self.term())
        return node

    def term(self) -> Node:
        node = self.unary()
        while self.peek() in ("*", "/"):
            at = self.position()
            if self.take() == "*":
                node = BinOp("*", node, self.unary())
                continue
            divisor = self.unary()
            node = Div(node, divisor)
            self.check_divisor(divisor, at)
        return node

    def check_divisor(self, divisor: Node, at: int) -> None:
        values = support(divisor)
        zero = 0 in values if isinstance(values, frozenset) else values[0] <= 0 <= values[1]
        if zero:
            raise DiceError(self.text, at, f"the divisor {divisor} can be 0")

    def unary(self) -> Node:
        if self.peek() == "-":
            self.take()
            return Neg(self.unary())
        if self.peek() == "+":
            self.take()
            return self.unary()
        return self.primary()

    def primary(self) -> Node:
        token = self.peek()
        if token in ("(", "{"):
            return self.parenthesis()
        if token in ("floor", "ceil"):
            return self.rounding()
        if token == "d":
            return self.dice(1)
        if token is not None and token.isdigit():
            value = self.number("a number")
            if self.peek() == "d":
                return self.dice(value)
            return Const(value)
        found = "the end" if token is None else f"'{token}'"
        raise self.fail(f"expected a number, 'd' or '(', found {found}")

    def parenthesis(self) -> Node:
        opening = self.take()
        closing = ")" if opening == "(" else "}"
        members = [self.member()]
        while self.peek() == ",":
            self.take()
            members.append(self.member())
        if self.peek() != closing:
            raise self.fail(f"expected '{closing}'")
        self.take()
        keep = None
        if self.peek() in ("kh", "kl", "dh", "dl", "k"):
            at = self.position()
            keep = self.keep(len(members), "rolls")
            if len(members) < 2:
                raise DiceError(
                    self.text,
                    at,
                    "keep or drop needs a group of two or more rolls, e.g. (1d20+5, 1d20+5)kh1",
                )
        if len(members) == 1:
            return members[0]
        if len(members) > MAX_MEMBERS:
            raise self.fail(f"{len(members)} rolls in a group is too many (at most {MAX_MEMBERS})")
        return Group(tuple(members), keep)

    def member(self) -> Node:
        self.level_starts.append(self.position())
        try:
            return self.expr()
        finally:
            self.level_starts.pop()

    def rounding(self) -> Node:
        at = self.position()
        name = self.take()
        if self.peek() != "(":
            raise self.fail(f"expected '(' after {name}")
        self.take()
        inner = self.member()
        if self.peek() != ")":
            raise self.fail("expected ')'")
        self.take()
        if not isinstance(inner, Div):
            raise DiceError(
                self.text,
                at,
                f"{name}(...) rounds a division {'up' if name == 'ceil' else 'down'}: "
                f"write e.g. {name}(1d6/2)",
            )
        return Div(inner.left, inner.right, name)

    def keep(self, count: int, what: str) -> tuple[str, int]:
        at = self.position()
        token = self.take()
        n = self.number(f"how many {what} after '{token}'")
        if n > count:
            raise DiceError(self.text, at, f"cannot {token} {n} of {count} {what}")
        return ("kh" if token == "k" else token, n)

    def condition(self, default_op: str | None) -> Condition:
        token = self.peek()
        if token in COMPARISONS:
            op = "==" if self.take() in ("=", "==") else self.tokens[self.index - 1][0]
        elif default_op is not None:
            op = default_op
        else:
            raise self.fail("expected a comparison such as >=5")
        return Condition(op, self.number("a number after the comparison"))

    def dice(self, count: int) -> Dice:
        start = self.position()
        self.take()  # "d"
        fudge = False
        if self.peek() == "%":
            self.take()
            sides = 100
        elif self.peek() == "f":
            self.take()
            sides, fudge = 3, True
        else:
            sides = self.number("the number of sides after 'd'")
        if count < 1:
            raise DiceError(self.text, start, "roll at least one die")
        if count > MAX_DICE:
            raise DiceError(
                self.text, start, f"{count} dice is too many (at most {MAX_DICE} per group)"
            )
        if sides < 1 or sides > MAX_SIDES:
            raise DiceError(self.text, start, f"a die needs 1 to {MAX_SIDES} sides, not {sides}")
        self.total_dice += count
        if self.total_dice > MAX_TOTAL_DICE:
            raise DiceError(self.text, start, f"more than {MAX_TOTAL_DICE} dice in one expression")
        node = Dice(count, sides, fudge=fudge)
        seen: set[str] = set()
        while self.peek() in ("kh", "kl", "dh", "dl", "k", "r", "ro", "!", "mi", "ma"):
            at = self.position()
            token = self.peek() or ""
            kind = {"kh": "keep", "kl": "keep", "dh": "keep", "dl": "keep", "k": "keep"}.get(
                token, "reroll" if token in ("r", "ro") else token
            )
            if fudge and kind != "keep":
                raise DiceError(self.text, at, "dF takes only keep or drop after it, e.g. 4dFkh2")
            if kind in seen:
                what = {
                    "keep": "keep or drop",
                    "reroll": "re-roll",
                    "!": "explode",
                    "mi": "minimum (mi)",
                    "ma": "maximum (ma)",
                }[kind]
                raise DiceError(self.text, at, f"only one {what} per dice group")
            seen.add(kind)
            if kind == "keep":
                node = replace(node, keep=self.keep(count, "dice"))
            elif kind == "reroll":
                self.take()
                node = replace(node, reroll=self.condition("=="), reroll_once=token == "ro")
            elif kind == "!":
                self.take()
                if self.peek() in COMPARISONS or (self.peek() or "").isdigit():
                    node = replace(node, explode=self.condition("=="))
                else:  # on the highest face it can show: set once all is read
                    node = replace(node, explode=_TOP)
            else:
                self.take()
                value = self.number(f"a number after '{token}'")
                if not 1 <= value <= sides:
                    raise DiceError(self.text, at, f"{token}{value}: a d{sides} shows 1 to {sides}")
                if token == "mi":
                    node = replace(node, minimum=value)
                else:
                    node = replace(node, maximum=value)
                if (
                    node.minimum is not None
                    and node.maximum is not None
                    and node.minimum > node.maximum
                ):
                    raise DiceError(self.text, at, f"mi{node.minimum} is over ma{node.maximum}")
        if node.explode is _TOP:
            node = replace(node, explode=Condition(">=", node.faces()[-1]))
        self.check_modifiers(node, start)
        if self.peek() == "f":
            raise self.fail("failures (f) are counted after a success condition, e.g. 10d10>=7f1")
        following = self.tokens[self.index + 1][0] if self.index + 1 < len(self.tokens) else None
        if self.peek() in COMPARISONS and following != "-":  # no die shows a negative face:
            if fudge:  # a comparison with a negative number compares the total
                raise self.fail("dF takes only keep or drop after it, e.g. 4dFkh2")
            at = self.position()
            node = replace(node, success=self.condition(None))
            self.check_count(node, node.success, at, "success")
            if self.peek() == "f":
                fat = self.position()
                self.take()
                node = replace(node, failure=self.condition("=="))
                self.check_count(node, node.failure, fat, "failure")
            if self.peek() in COMPARISONS:
                raise self.fail(
                    "a dice group takes one success condition: to compare the count, "
                    f"write {self.total_form(self.position())}"
                )
        return node

    def check_modifiers(self, node: Dice, start: int) -> None:
        """Refuse a re-roll or explosion that could never happen or would never stop."""
        if node.reroll is not None:
            raw = node.raw_faces()
            if not any(node.reroll.test(f) for f in raw):
                raise DiceError(
                    self.text,
                    start,
                    f"no d{node.sides} shows {node.reroll.words()}: nothing would be re-rolled",
                )
            if not node.reroll_once and all(node.reroll.test(f) for f in raw):
                raise DiceError(
                    self.text,
                    start,
                    f"re-rolling {node.reroll} would never stop on a d{node.sides}",
                )
        if node.explode is not None:
            faces = node.faces()
            if all(node.explode.test(f) for f in faces):
                raise DiceError(
                    self.text,
                    start,
                    f"exploding on {node.explode} would never stop on a {node.die_text()}",
                )
            if not any(node.explode.test(f) for f in faces):
                raise DiceError(
                    self.text,
                    start,
                    f"no {node.die_text()} shows {node.explode.words()}: it would never explode",
                )

    def check_count(self, node: Dice, cond: Condition | None, at: int, what: str) -> None:
        """Refuse a success or failure condition no die meets or every die meets."""
        assert cond is not None
        faces = node.faces()
        die = node.die_text()
        hits = [f for f in faces if cond.test(f)]
        if what == "success":
            if not hits or len(hits) == len(faces):
                which = "no" if not hits else "every"
                raise DiceError(
                    self.text,
                    at,
                    f"{which} {die} shows {cond.words()}: to compare the total, write "
                    f"{self.total_form(at)}",
                )
            return
        if not hits:
            raise DiceError(
                self.text, at, f"no {die} shows {cond.words()}: nothing would be a failure"
            )
        assert node.success is not None
        both = [f for f in hits if node.success.test(f)]
        if both:
            raise DiceError(
                self.text,
                at,
                f"a die cannot be both a success and a failure (a {both[0]} would be both)",
            )


@lru_cache(maxsize=1024)
def parse(expression: str) -> Node:
    """Parse `expression` into a tree, or raise `DiceError` saying where it is wrong."""
    if len(expression) > MAX_LENGTH:
        raise DiceError(expression[:40] + "...", None, f"longer than {MAX_LENGTH} characters")
    return _Parser(expression).parse()


def plain_dice(expression: str) -> Dice:
    """Return the dice of a plain roll such as ``2d6`` or ``d%`` (no modifier, keep, re-roll,
    explosion or success count): for rules that read each die or count the dice.

    Raises:
        DiceError: `expression` is not notation, or not plain dice.
    """
    node = parse(expression)
    if not isinstance(node, Dice) or node != Dice(node.count, node.sides):
        raise DiceError(expression, None, "expected plain dice such as 2d6")
    return node
