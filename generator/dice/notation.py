"""Parse dice notation into an immutable expression tree.

Grammar (case-insensitive, spaces allowed between tokens)::

    expr    := term (("+" | "-") term)*
    term    := unary ("*" unary)*
    unary   := ("-" | "+") unary | primary
    primary := NUMBER | NUMBER? "d" (NUMBER | "%") suffix* success? | "(" expr ")"
    suffix  := ("kh" | "kl" | "dh" | "dl" | "k") NUMBER     keep or drop
             | ("r" | "ro") CMP? NUMBER                      re-roll (until / once)
             | "!" (CMP? NUMBER)?                            explode (default: top face)
    success := CMP NUMBER                                    count dice meeting it
    CMP     := ">=" | "<=" | "==" | "=" | ">" | "<"

Sizes that could not finish are refused here, before anything is rolled or counted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from generator.errors import InputError

MAX_DICE = 1000
MAX_SIDES = 10_000
MAX_TOTAL_DICE = 10_000
MAX_CONSTANT = 10**9
MAX_LENGTH = 500
EXPLODE_DEPTH = 20


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

    def __str__(self) -> str:
        return f"{self.op}{self.value}"


@dataclass(frozen=True)
class Const:
    value: int

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True)
class Dice:
    """``count`` dice of ``sides`` faces, with optional re-roll, explode, keep and success."""

    count: int
    sides: int
    keep: tuple[str, int] | None = None  # ("kh"|"kl"|"dh"|"dl", n)
    reroll: Condition | None = None
    reroll_once: bool = False
    explode: Condition | None = None
    success: Condition | None = None

    def kept_count(self) -> int:
        if self.keep is None:
            return self.count
        mode, n = self.keep
        return min(n, self.count) if mode in ("kh", "kl") else max(self.count - n, 0)

    def __str__(self) -> str:
        text = f"{self.count}d{'%' if self.sides == 100 else self.sides}"
        if self.reroll is not None:
            cond = "" if self.reroll.op == "==" else self.reroll.op
            text += f"{'ro' if self.reroll_once else 'r'}{cond}{self.reroll.value}"
        if self.explode is not None:
            text += "!" if self.explode == Condition(">=", self.sides) else f"!{self.explode}"
        if self.keep is not None:
            text += f"{self.keep[0]}{self.keep[1]}"
        if self.success is not None:
            text += str(self.success)
        return text


@dataclass(frozen=True)
class Neg:
    operand: Node

    def __str__(self) -> str:
        return f"-{self.operand}"


@dataclass(frozen=True)
class BinOp:
    op: str
    left: Node
    right: Node

    def __str__(self) -> str:
        right = f"({self.right})" if isinstance(self.right, BinOp) else str(self.right)
        left = str(self.left)
        if self.op == "*" and isinstance(self.left, BinOp) and self.left.op != "*":
            left = f"({left})"
        if self.op == "*" and isinstance(self.right, BinOp):
            right = f"({self.right})"
        return f"{left}{self.op}{right}"


Node = Const | Dice | Neg | BinOp

_TOKEN = re.compile(r"\s*(?:(\d+)|(kh|kl|dh|dl|ro|>=|<=|==|[dkr!%()+\-*<>=]))", re.IGNORECASE)


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
            self.tokens.append(((match.group(1) or match.group(2)).lower(), start))
            pos = match.end()
        self.index = 0
        self.total_dice = 0

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

    def parse(self) -> Node:
        if not self.tokens:
            raise DiceError(self.text, None, "empty expression (try 2d6+3)")
        node = self.expr()
        if self.peek() is not None:
            token = self.peek()
            if token in (">=", "<=", "==", "=", ">", "<"):
                raise self.fail(
                    "a comparison counts successes on dice: put it right after a dice "
                    "group, e.g. 8d6>=5"
                )
            raise self.fail(f"unexpected '{token}'")
        return node

    def expr(self) -> Node:
        node = self.term()
        while self.peek() in ("+", "-"):
            op = self.take()
            node = BinOp(op, node, self.term())
        return node

    def term(self) -> Node:
        node = self.unary()
        while self.peek() == "*":
            self.take()
            node = BinOp("*", node, self.unary())
        return node

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
        if token == "(":
            self.take()
            node = self.expr()
            if self.peek() != ")":
                raise self.fail("expected ')'")
            self.take()
            return node
        if token == "d":
            return self.dice(1)
        if token is not None and token.isdigit():
            value = self.number("a number")
            if self.peek() == "d":
                return self.dice(value)
            return Const(value)
        found = "the end" if token is None else f"'{token}'"
        raise self.fail(f"expected a number, 'd' or '(', found {found}")

    def condition(self, default_op: str | None) -> Condition:
        token = self.peek()
        if token in (">=", "<=", "==", "=", ">", "<"):
            op = "==" if self.take() in ("=", "==") else self.tokens[self.index - 1][0]
        elif default_op is not None:
            op = default_op
        else:
            raise self.fail("expected a comparison such as >=5")
        return Condition(op, self.number("a number after the comparison"))

    def dice(self, count: int) -> Dice:
        start = self.position()
        self.take()  # "d"
        if self.peek() == "%":
            self.take()
            sides = 100
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
        keep: tuple[str, int] | None = None
        reroll: Condition | None = None
        once = False
        explode: Condition | None = None
        while self.peek() in ("kh", "kl", "dh", "dl", "k", "r", "ro", "!"):
            at = self.position()
            token = self.take()
            if token in ("kh", "kl", "dh", "dl", "k"):
                if keep is not None:
                    raise DiceError(self.text, at, "only one keep or drop per dice group")
                n = self.number(f"how many dice after '{token}'")
                keep = ("kh" if token == "k" else token, n)
                if n > count:
                    raise DiceError(self.text, at, f"cannot {token} {n} of {count} dice")
            elif token in ("r", "ro"):
                if reroll is not None:
                    raise DiceError(self.text, at, "only one re-roll per dice group")
                reroll = self.condition("==")
                once = token == "ro"
                faces = [f for f in range(1, sides + 1) if reroll.test(f)]
                if not once and len(faces) == sides:
                    raise DiceError(
                        self.text, at, f"re-rolling {reroll} would never stop on a d{sides}"
                    )
            else:
                if explode is not None:
                    raise DiceError(self.text, at, "only one explode per dice group")
                if (
                    self.peek() in (">=", "<=", "==", "=", ">", "<")
                    or (self.peek() or "").isdigit()
                ):
                    explode = self.condition("==")
                else:
                    explode = Condition(">=", sides)
                if all(explode.test(f) for f in range(1, sides + 1)):
                    raise DiceError(
                        self.text, at, f"exploding on {explode} would never stop on a d{sides}"
                    )
        success = None
        if self.peek() in (">=", "<=", "==", "=", ">", "<"):
            success = self.condition(None)
        return Dice(count, sides, keep, reroll, once, explode, success)


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
