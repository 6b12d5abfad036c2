"""The nodes a file format is declared with: `Text`, `Whole`, `Number`, `Flag`, `Null`,
`Choice`, `Maybe`, `OneOf`, `Items`, `Record` (with `Field` and `Check`), `Variant`, `Plain`
and `Mapping`. Each checks a value and describes itself for the docs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from collections.abc import Mapping as MappingType
from dataclasses import dataclass, field
from typing import Any

from generator.loading import Rules
from generator.schema.context import (
    CONTROL,
    LINE_LENGTH,
    NAME_LENGTH,
    TITLE_LENGTH,
    Ctx,
    Dyn,
    article,
    close_match,
    found,
    key_path,
    label,
    listing,
    span_text,
)
from generator.yamlfile import KeyPath


@dataclass(frozen=True)
class Row:
    """One line of a file format's table: a key path and what it holds."""

    key: str
    kind: str
    required: bool | str  # or when it is: "with kind grid"
    allowed: str
    help: str


class Node:
    """A kind of value in a file: checks one, and describes it for the docs."""

    kind = "value"
    plural = "values"

    def check(self, ctx: Ctx, value: Any, path: KeyPath) -> bool:
        """Report what is wrong with `value` at `path`; return whether all was well."""
        raise NotImplementedError

    def fits(self, value: Any) -> bool:
        """Return whether `value` is of this node's type."""
        return True

    def kind_text(self, ctx: Ctx) -> str:
        return self.kind

    def plural_text(self, ctx: Ctx) -> str:
        return self.plural

    def allowed(self, ctx: Ctx) -> str:
        return ""

    def summary(self, ctx: Ctx) -> str:
        """Say in a few words what a value must be (for a missing key)."""
        allowed = self.allowed(ctx)
        return f"{self.kind_text(ctx)}: {allowed}" if allowed else self.kind_text(ctx)

    def walk(self, ctx: Ctx, key: str, rows: list[Row], checks: list[tuple[str, str]]) -> None:
        """Add the rows of what this value holds (a mapping's keys ...) under `key`."""


@dataclass(frozen=True, eq=False)
class Text(Node):
    """Text: not empty after stripping (unless `empty`), no control characters, at most
    `max_length` characters."""

    max_length: int = 200
    empty: bool = False
    kind = "text"
    plural = "text"

    def fits(self, value: Any) -> bool:
        return isinstance(value, str)

    def check(self, ctx: Ctx, value: Any, path: KeyPath) -> bool:
        if not isinstance(value, str):
            ctx.fail(path, f"expected text, found {found(value)}")
            return False
        ok = True
        if not value.strip() and not self.empty:
            ctx.fail(path, f"{label(path)} is empty")
            ok = False
        bad = CONTROL.search(value)
        if bad:
            code = ord(bad.group())
            ctx.fail(path, f"{label(path)} holds a control character (U+{code:04X})")
            ok = False
        if len(value) > self.max_length:
            ctx.fail(
                path, f"{label(path)} is longer than {self.max_length} characters ({len(value)})"
            )
            ok = False
        return ok

    def allowed(self, ctx: Ctx) -> str:
        return f"at most {self.max_length} characters" + (", may be empty" if self.empty else "")


def _bounds(ctx: Ctx, node: Whole | Number) -> tuple[Any, Any]:
    if node.span is not None:
        low, high = ctx.of(node.span)
        return low, high
    return ctx.get(node.low), ctx.get(node.high)


def _check_range(ctx: Ctx, node: Whole | Number, value: float, path: KeyPath) -> bool:
    low, high = _bounds(ctx, node)
    if (low is None or value >= low) and (high is None or value <= high):
        return True
    why = ctx.get(node.why)
    tail = f" ({why})" if why else ""
    if low is not None and high is not None:
        ctx.fail(path, f"{value} is out of range {low}..{high} for {label(path)}{tail}")
    else:
        ctx.fail(path, f"{value} is out of range for {label(path)}: {span_text(low, high)}{tail}")
    return False


def _range_allowed(ctx: Ctx, node: Whole | Number) -> str:
    low, high = _bounds(ctx, node)
    why = ctx.get(node.why)
    text = "" if low is None and high is None else span_text(low, high)
    return f"{text} ({why})" if why and text else text


@dataclass(frozen=True, eq=False)
class Whole(Node):
    """A whole number, from `low` to `high` (either may be open), or in `span`; `why` says
    where the range comes from."""

    low: Dyn[int | None] = None
    high: Dyn[int | None] = None
    span: Callable[[Rules], tuple[int, int]] | None = None
    why: Dyn[str] = ""
    kind = "whole number"
    plural = "whole numbers"

    def fits(self, value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    def check(self, ctx: Ctx, value: Any, path: KeyPath) -> bool:
        if not self.fits(value):
            ctx.fail(path, f"expected a whole number, found {found(value)}")
            return False
        return _check_range(ctx, self, value, path)

    def allowed(self, ctx: Ctx) -> str:
        return _range_allowed(ctx, self)


@dataclass(frozen=True, eq=False)
class Number(Node):
    """A number, whole or not, from `low` to `high`."""

    low: Dyn[float | None] = None
    high: Dyn[float | None] = None
    span: Callable[[Rules], tuple[float, float]] | None = None
    why: Dyn[str] = ""
    kind = "number"
    plural = "numbers"

    def fits(self, value: Any) -> bool:
        return isinstance(value, int | float) and not isinstance(value, bool)

    def check(self, ctx: Ctx, value: Any, path: KeyPath) -> bool:
        if not self.fits(value) or value != value:  # NaN is no number
            ctx.fail(path, f"expected a number, found {found(value)}")
            return False
        return _check_range(ctx, self, value, path)

    def allowed(self, ctx: Ctx) -> str:
        return _range_allowed(ctx, self)


@dataclass(frozen=True, eq=False)
class Flag(Node):
    """true or false."""

    kind = "true or false"
    plural = "true or false values"

    def fits(self, value: Any) -> bool:
        return isinstance(value, bool)

    def check(self, ctx: Ctx, value: Any, path: KeyPath) -> bool:
        if not isinstance(value, bool):
            ctx.fail(path, f"expected true or false, found {found(value)}")
            return False
        return True


@dataclass(frozen=True, eq=False)
class Null(Node):
    """Only null; `why` says why nothing else is allowed."""

    why: str = ""
    kind = "null"
    plural = "nulls"

    def fits(self, value: Any) -> bool:
        return value is None

    def check(self, ctx: Ctx, value: Any, path: KeyPath) -> bool:
        if value is not None:
            tail = f" ({self.why})" if self.why else ""
            ctx.fail(path, f"{label(path)} must be null{tail}, found {found(value)}")
            return False
        return True

    def allowed(self, ctx: Ctx) -> str:
        return self.why


@dataclass(frozen=True, eq=False)
class Choice(Node):
    """One of `options` (text, or whole numbers), `what` naming them in a message
    ("wind direction"). With `docs`, the docs say that instead of listing the options
    (a long list, or one that changes with the name lists)."""

    options: Dyn[Sequence[str | int]]
    what: str = "allowed value"
    docs: str = ""

    def _numeric(self, ctx: Ctx) -> bool:
        options = ctx.get(self.options)
        return bool(options) and all(isinstance(o, int) for o in options)

    def kind_text(self, ctx: Ctx) -> str:
        return "whole number" if self._numeric(ctx) else "text"

    def plural_text(self, ctx: Ctx) -> str:
        return "whole numbers" if self._numeric(ctx) else "text"

    def fits(self, value: Any) -> bool:
        return isinstance(value, str | int) and not isinstance(value, bool)

    def check(self, ctx: Ctx, value: Any, path: KeyPath) -> bool:
        options = ctx.get(self.options)
        if self.fits(value) and value in options:
            return True
        ctx.fail(
            path,
            f"{found(value)} is not {article(self.what)} (allowed: {listing(options)})"
            + close_match(value, options),
        )
        return False

    def allowed(self, ctx: Ctx) -> str:
        if self.docs:
            return self.docs
        options = ctx.get(self.options)
        if len(options) == 1:
            return f"{options[0]}"
        return "one of: " + listing(options, limit=10_000)


@dataclass(frozen=True, eq=False)
class Maybe(Node):
    """`node`, or null."""

    node: Node

    def fits(self, value: Any) -> bool:
        return value is None or self.node.fits(value)

    def check(self, ctx: Ctx, value: Any, path: KeyPath) -> bool:
        return value is None or self.node.check(ctx, value, path)

    def kind_text(self, ctx: Ctx) -> str:
        return f"{self.node.kind_text(ctx)} or null"

    def allowed(self, ctx: Ctx) -> str:
        return self.node.allowed(ctx)

    def walk(self, ctx: Ctx, key: str, rows: list[Row], checks: list[tuple[str, str]]) -> None:
        self.node.walk(ctx, key, rows, checks)


@dataclass(frozen=True, eq=False)
class OneOf(Node):
    """A value of the type of one of `nodes` (text or a whole number; a list or a mapping),
    checked by the first node whose type it is."""

    nodes: tuple[Node, ...]

    def fits(self, value: Any) -> bool:
        return any(node.fits(value) for node in self.nodes)

    def check(self, ctx: Ctx, value: Any, path: KeyPath) -> bool:
        for node in self.nodes:
            if node.fits(value):
                return node.check(ctx, value, path)
        ctx.fail(path, f"expected {self.kind_text(ctx)}, found {found(value)}")
        return False

    def kind_text(self, ctx: Ctx) -> str:
        return " or ".join(node.kind_text(ctx) for node in self.nodes)

    def plural_text(self, ctx: Ctx) -> str:
        return " or ".join(node.plural_text(ctx) for node in self.nodes)

    def allowed(self, ctx: Ctx) -> str:
        said = [(node.kind_text(ctx), node.allowed(ctx)) for node in self.nodes]
        return "; ".join(f"as {kind}: {allowed}" for kind, allowed in said if allowed)

    def walk(self, ctx: Ctx, key: str, rows: list[Row], checks: list[tuple[str, str]]) -> None:
        for node in self.nodes:
            node.walk(ctx, key, rows, checks)


@dataclass(frozen=True, eq=False)
class Items(Node):
    """A list of `of`, from `minimum` to `maximum` long; `noun` names one and many."""

    of: Node
    minimum: Dyn[int] = 0
    maximum: Dyn[int | None] = None
    noun: tuple[str, str] = ("entry", "entries")
    docs: str = ""
    kind = "list"
    plural = "lists"

    def fits(self, value: Any) -> bool:
        return isinstance(value, list)

    def check(self, ctx: Ctx, value: Any, path: KeyPath) -> bool:
        if not isinstance(value, list):
            ctx.fail(path, f"expected a list of {self.noun[1]}, found {found(value)}")
            return False
        ok = True
        low, high = ctx.get(self.minimum), ctx.get(self.maximum)
        count = len(value)
        if count < low or (high is not None and count > high):
            if low == high:
                want = f"exactly {low}"
            elif count < low:
                want = f"at least {low}"
            else:
                want = f"at most {high}"
            noun = self.noun[0] if want.endswith(" 1") else self.noun[1]
            ctx.fail(path, f"expected {want} {noun}, found {count}")
            ok = False
        for index, item in enumerate(value):
            ok = self.of.check(ctx, item, (*path, index)) and ok
        return ok

    def kind_text(self, ctx: Ctx) -> str:
        return f"list of {self.of.plural_text(ctx)}"

    def allowed(self, ctx: Ctx) -> str:
        if self.docs:
            return self.docs
        low, high = ctx.get(self.minimum), ctx.get(self.maximum)
        if low == high:
            count = f"exactly {low}"
        elif low and high is not None:
            count = f"{low}..{high}"
        elif low:
            count = f"at least {low}"
        elif high is not None:
            count = f"at most {high}"
        else:
            count = ""
        inner = "" if isinstance(self.of, Record | Variant) else self.of.allowed(ctx)
        return "; ".join(part for part in (count, f"each {inner}" if inner else "") if part)

    def walk(self, ctx: Ctx, key: str, rows: list[Row], checks: list[tuple[str, str]]) -> None:
        self.of.walk(ctx, f"{key}[]", rows, checks)


@dataclass(frozen=True, eq=False)
class Field:
    """A key of a `Record`: its value, whether it must be there, and what it means."""

    node: Node
    required: bool = True
    help: str = ""


def req(node: Node, help: str = "") -> Field:
    return Field(node, True, help)


def opt(node: Node, help: str = "") -> Field:
    return Field(node, False, help)


CheckFunction = Callable[[Ctx, dict[str, Any], KeyPath], None]


@dataclass(frozen=True, eq=False)
class Check:
    """A rule across a record's keys: `run` reports through ``ctx.fail``; it runs only when
    every key it `needs` (dotted for a key inside one: ``wind.strength``) is there and had
    no problem reported in it. `text` says it in the docs."""

    text: str
    run: CheckFunction
    needs: tuple[str, ...] = ()


@dataclass(frozen=True, eq=False)
class Record(Node):
    """A mapping with the keys `fields` (a function of the rules, where they come from a
    table), no others, and the `checks` across them. `what` names it in a message."""

    fields: Dyn[MappingType[str, Field]]
    checks: tuple[Check, ...] = ()
    what: str = "a mapping"
    kind = "mapping"
    plural = "mappings"

    def fits(self, value: Any) -> bool:
        return isinstance(value, dict)

    def summary(self, ctx: Ctx) -> str:
        return self.what

    def check(self, ctx: Ctx, value: Any, path: KeyPath) -> bool:
        if not isinstance(value, dict):
            ctx.fail(path, f"expected {self.what}, found {found(value)}")
            return False
        fields = ctx.get(self.fields)
        ok = True
        for key in value:
            if key not in fields:
                keys = list(fields)
                ctx.fail(
                    (*path, key),
                    f"unknown key {found(key)} (allowed: {', '.join(keys)})"
                    + close_match(key, keys),
                )
                ok = False
        for key, entry in fields.items():
            if key not in value:
                if entry.required:
                    ctx.fail(path, f"missing '{key}' ({entry.node.summary(ctx)})")
                    ok = False
            elif not entry.node.check(ctx, value[key], (*path, key)):
                ok = False
        for rule in self.checks:
            if all(ctx.sound(value, path, need) for need in rule.needs):
                before = ctx.failures
                rule.run(ctx, value, path)
                ok = ok and ctx.failures == before
        return ok

    def walk(self, ctx: Ctx, key: str, rows: list[Row], checks: list[tuple[str, str]]) -> None:
        for name, entry in ctx.get(self.fields).items():
            node, where = entry.node, key_path(key, name)
            rows.append(
                Row(where, node.kind_text(ctx), entry.required, node.allowed(ctx), entry.help)
            )
            node.walk(ctx, where, rows, checks)
        checks.extend((key, rule.text) for rule in self.checks)


@dataclass(frozen=True, eq=False)
class Variant(Node):
    """A mapping whose keys depend on its `tag` key: the record of `cases` it names, or
    `default` when the tag is absent (None: the tag is required)."""

    tag: str
    cases: Dyn[MappingType[str, Record]]
    default: Record | None = None
    what: str = "kind"
    kind = "mapping"
    plural = "mappings"

    def fits(self, value: Any) -> bool:
        return isinstance(value, dict)

    def check(self, ctx: Ctx, value: Any, path: KeyPath) -> bool:
        cases = ctx.get(self.cases)
        if not isinstance(value, dict):
            ctx.fail(path, f"expected a mapping, found {found(value)}")
            return False
        if self.tag not in value:
            if self.default is not None:
                return self.default.check(ctx, value, path)
            ctx.fail(path, f"missing '{self.tag}' (one of: {listing(list(cases))})")
            return False
        tag = value[self.tag]
        if not isinstance(tag, str) or tag not in cases:
            ctx.fail(
                (*path, self.tag),
                f"{found(tag)} is not {article(self.what)} (allowed: {listing(list(cases))})"
                + close_match(tag, list(cases)),
            )
            return False
        return cases[tag].check(ctx, value, path)

    def walk(self, ctx: Ctx, key: str, rows: list[Row], checks: list[tuple[str, str]]) -> None:
        named = list(ctx.get(self.cases).items())
        cases = [(f"{self.tag} {name}", record) for name, record in named]
        if self.default is not None:
            cases.append((f"no {self.tag}", self.default))
        found_rows: dict[str, list[tuple[str, Row]]] = {}
        for when, record in cases:
            case_rows: list[Row] = []
            case_checks: list[tuple[str, str]] = []
            record.walk(ctx, key, case_rows, case_checks)
            for row in case_rows:
                found_rows.setdefault(row.key, []).append((when, row))
            checks.extend(c for c in case_checks if c not in checks)
        tag_key = key_path(key, self.tag)
        for row_key, variants in found_rows.items():
            first = variants[0][1]
            if row_key == tag_key:
                allowed = "one of: " + listing([name for name, _ in named], limit=10_000)
                rows.append(Row(row_key, first.kind, self.default is None, allowed, first.help))
                continue
            if len({row.allowed for _, row in variants}) == 1:
                allowed = first.allowed
            else:
                allowed = "; ".join(f"with {when}: {row.allowed}" for when, row in variants)
            whens = ", ".join(when for when, _ in variants)
            required: bool | str = all(row.required is True for _, row in variants)
            if len(variants) < len(cases):
                required = f"with {whens}" if required else False
            rows.append(Row(row_key, first.kind, required, allowed, first.help))


@dataclass(frozen=True, eq=False)
class Plain(Node):
    """Any plain value: text, a number, true or false, null, or a list or mapping (with
    text keys) of plain values."""

    kind = "any plain value"
    plural = "plain values"

    def check(self, ctx: Ctx, value: Any, path: KeyPath) -> bool:
        if value is None or isinstance(value, str | int | float | bool):
            return True
        if isinstance(value, list):
            return all([self.check(ctx, item, (*path, i)) for i, item in enumerate(value)])
        if isinstance(value, dict):
            ok = True
            for key, item in value.items():
                if not isinstance(key, str):
                    ctx.fail((*path, key), f"a key must be text, found {found(key)}")
                    ok = False
                ok = self.check(ctx, item, (*path, key)) and ok
            return ok
        ctx.fail(
            path,
            f"expected a plain value (text, a number, true or false, null, or a list or "
            f"mapping of them), found {found(value)}",
        )
        return False

    def allowed(self, ctx: Ctx) -> str:
        return "text, a number, true or false, null, or a list or mapping of them"


@dataclass(frozen=True, eq=False)
class Mapping(Node):
    """A mapping of text keys (checked by `keys`) to `values`, any keys at all."""

    values: Node
    keys: Node = field(default_factory=lambda: Text(NAME_LENGTH))
    kind = "mapping"
    plural = "mappings"

    def fits(self, value: Any) -> bool:
        return isinstance(value, dict)

    def check(self, ctx: Ctx, value: Any, path: KeyPath) -> bool:
        if not isinstance(value, dict):
            ctx.fail(path, f"expected a mapping, found {found(value)}")
            return False
        ok = True
        for key, item in value.items():
            ok = self.keys.check(ctx, key, (*path, key)) and ok
            ok = self.values.check(ctx, item, (*path, key)) and ok
        return ok

    def allowed(self, ctx: Ctx) -> str:
        return f"keys: {self.keys.kind_text(ctx)} ({self.keys.allowed(ctx)})"

    def walk(self, ctx: Ctx, key: str, rows: list[Row], checks: list[tuple[str, str]]) -> None:
        rows.append(
            Row(f"{key}.*", self.values.kind_text(ctx), False, self.values.allowed(ctx), "any key")
        )
        self.values.walk(ctx, f"{key}.*", rows, checks)


NAME = Text(NAME_LENGTH)
TITLE = Text(TITLE_LENGTH)
LINE = Text(LINE_LENGTH)
LINES = Items(LINE, noun=("line", "lines"))
