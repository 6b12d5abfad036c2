"""The file formats: one declarative, typed schema per ruleset of the files Quartermaster
writes and reads back (a scenario, a fleet, a duellist).

Each ruleset's module here (``generator.schema.tactical`` ...) declares its files with the
nodes below: `Text`, `Whole`, `Number`, `Flag`, `Choice`, `Items`, `Record` (with `Field`
and `Check`), `Mapping`, `Maybe`, `Variant`, `Null`, `Plain` and `Bearing`. A range or a list
of choices may be a function of the loaded `Rules`, so it follows the rule tables and the
house rules; it is worked out once per `Rules`. The one declaration

- checks an edited file: `check_scenario`, `check_force` and `check_character` report
  every problem through a `Checker` (``file:line: key.path: what is wrong``), each saying
  what is allowed;
- prints as the file format: `describe` (``python -m generator.schema`` writes
  docs/file-formats.md).

A ruleset's schema is its module's ``SCHEMA`` (a `RulesetSchema`): the module
``generator.schema.<id>`` (``-`` as ``_``), else the ruleset's generator module, so a
ruleset added with its own four files can declare its schema in its generator.
"""

from __future__ import annotations

import difflib
import importlib
import re
from collections.abc import Callable, Sequence
from collections.abc import Mapping as MappingType
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Protocol, TypeVar, Union

from generator.loading import Rules
from generator.loading.yamlfile import KeyPath

T = TypeVar("T")
# a value, or a function of the loaded rules that gives it (worked out once per Rules)
Dyn = Union[T, Callable[[Rules], T]]  # noqa: UP007 (a generic alias needs Union)

NAME_LENGTH = 60  # a ship's or a person's name
TITLE_LENGTH = 120  # a scenario's title, a side's name
LINE_LENGTH = 1000  # a line of rules text
LISTED = 30  # the most choices a message lists
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


class Reporter(Protocol):
    """What problems are reported to: `generator.generate.common.Checker`."""

    def fail(self, path: KeyPath, message: str) -> None: ...


class _Quiet:
    def fail(self, path: KeyPath, message: str) -> None:
        pass


# what has been worked out from each Rules: id -> (the rules, kept alive; value by function)
_MEMO: dict[int, tuple[Rules, dict[Any, Any]]] = {}
_MEMO_SIZE = 8


def _memo_for(rules: Rules) -> dict[Any, Any]:
    entry = _MEMO.get(id(rules))
    if entry is not None and entry[0] is rules:
        return entry[1]
    while len(_MEMO) >= _MEMO_SIZE:
        _MEMO.pop(next(iter(_MEMO)))
    memo: dict[Any, Any] = {}
    _MEMO[id(rules)] = (rules, memo)
    return memo


class Ctx:
    """One check or description: the rules, where problems go, and how many there were."""

    __slots__ = ("_memo", "failed", "failures", "reporter", "rules")

    def __init__(self, rules: Rules, reporter: Reporter | None = None) -> None:
        self.rules = rules
        self.reporter: Reporter = reporter if reporter is not None else _Quiet()
        self.failures = 0
        self.failed: set[KeyPath] = set()  # where a problem was reported
        self._memo = _memo_for(rules)

    def get(self, value: Dyn[T]) -> T:
        """Return `value`, or what the function `value` gives for these rules (kept)."""
        if not callable(value):
            return value
        try:
            found: T = self._memo[value]
        except KeyError:
            found = self._memo[value] = value(self.rules)
        return found

    def of(self, function: Callable[[Rules], T]) -> T:
        """Return what `function` gives for these rules (kept)."""
        try:
            found: T = self._memo[function]
        except KeyError:
            found = self._memo[function] = function(self.rules)
        return found

    def fail(self, path: KeyPath, message: str) -> None:
        self.failures += 1
        self.failed.add(path)
        self.reporter.fail(path, message)

    def sound(self, data: dict[str, Any], path: KeyPath, need: str) -> bool:
        """Return whether the key `need` (dotted: ``wind.strength``) of `data` at `path` is
        there and no problem was reported in it."""
        value: Any = data
        keys = need.split(".")
        for key in keys:
            if not isinstance(value, dict) or key not in value:
                return False
            value = value[key]
        full = (*path, *keys)
        return not any(where[: len(full)] == full for where in self.failed)


# ---------------------------------------------------------------- words


def found(value: Any) -> str:
    """Say what a value is, in plain words (no Python class names)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, str):
        return quoted(value)
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    if hasattr(value, "isoformat"):
        return f"a date ({value.isoformat()})"
    if isinstance(value, bytes):
        return "binary data"
    return "a value of another kind"


def quoted(text: str, limit: int = 60) -> str:
    """Return `text` in quotes, cut short past `limit` characters."""
    short = text if len(text) <= limit else text[: limit - 1] + "…"
    return repr(short) if _CONTROL.search(short) else f"'{short}'"


def article(noun: str) -> str:
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def listing(options: Sequence[Any], limit: int = LISTED) -> str:
    words = [str(o) for o in options]
    if any("," in w for w in words):
        words = [f"'{w}'" for w in words]
    if len(words) > limit:
        return ", ".join(words[:limit]) + f", … ({len(words)} in all)"
    return ", ".join(words)


def label(path: KeyPath) -> str:
    """Name the value at `path` in a message: its key, or the list it is an entry of."""
    if not path:
        return "the file"
    last = path[-1]
    if isinstance(last, str):
        return last
    parent = next((k for k in reversed(path) if isinstance(k, str)), None)
    return f"an entry of {parent}" if parent else "this entry"


def _close(value: Any, options: Sequence[Any]) -> str:
    if not isinstance(value, str):
        return ""
    near = difflib.get_close_matches(value, [str(o) for o in options], n=1, cutoff=0.6)
    return f"; did you mean '{near[0]}'?" if near else ""


_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_ ]*")


def key_path(key: str, name: str) -> str:
    """Return the docs' key path of `name` inside `key`: ``map.width``, ``legend['#']``."""
    if not _PLAIN_KEY.fullmatch(name):
        return f"{key}['{name}']"
    return f"{key}.{name}" if key else name


def span_text(low: float | None, high: float | None) -> str:
    if low is not None and high is not None:
        return f"{low}..{high}"
    if low is not None:
        return f"at least {low}"
    if high is not None:
        return f"at most {high}"
    return "any"


# ---------------------------------------------------------------- the nodes


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
        bad = _CONTROL.search(value)
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
            + _close(value, options),
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
                    f"unknown key {found(key)} (allowed: {', '.join(keys)})" + _close(key, keys),
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
                + _close(tag, list(cases)),
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


# ---------------------------------------------------------------- from the rule tables
# Functions of the rules for the schemas: each made once, at import, so what it gives is
# worked out once per Rules (Ctx.get keeps it by the function).


def results(table_id: str) -> Callable[[Rules], list[str]]:
    """The results of a one-axis table, in order."""

    def compute(rules: Rules) -> list[str]:
        return [str(cell["result"]) for cell in rules.table(table_id).cells]

    return compute


def labels(table_id: str, axis: str | None = None) -> Callable[[Rules], list[str]]:
    """The labels of a table's first axis, or of the axis named `axis`."""

    def compute(rules: Rules) -> list[str]:
        axes = rules.table(table_id).axes
        found_axis = axes[0] if axis is None else next(a for a in axes if a.name == axis)
        return list(found_axis.labels)

    return compute


def values(table_id: str, key: str) -> Callable[[Rules], list[Any]]:
    """The distinct values of `key` in a table's cells (every axis), in order."""

    def compute(rules: Rules) -> list[Any]:
        return list(dict.fromkeys(cell[key] for cell in cells(rules, table_id) if key in cell))

    return compute


def cells(rules: Rules, table_id: str) -> list[Any]:
    """Every cell of a table, row by row."""
    found_cells: list[Any] = []

    def gather(node: Any) -> None:
        if isinstance(node, tuple | list):
            for item in node:
                gather(item)
        else:
            found_cells.append(node)

    gather(rules.table(table_id).cells)
    return found_cells


def spread(table_id: str, key: str) -> Callable[[Rules], tuple[int, int]]:
    """The least and most whole number of `key` in a table's cells."""

    def compute(rules: Rules) -> tuple[int, int]:
        numbers = [int(cell[key]) for cell in cells(rules, table_id) if key in cell]
        return min(numbers), max(numbers)

    return compute


@cache
def by_result(table_id: str) -> Callable[[Rules], dict[str, Any]]:
    """A one-axis table's cells by their result (one function a table, so that what it
    gives is worked out once per Rules however often a check asks)."""

    def compute(rules: Rules) -> dict[str, Any]:
        return {str(cell["result"]): cell for cell in rules.table(table_id).cells}

    return compute


def wind_from_weather(table_id: str, default: str | None = None) -> Check:
    """The scenario check that ``wind.result`` is the wind `table_id` gives for
    ``weather.result`` (`default` where its row names none)."""
    rows = by_result(table_id)

    def run(ctx: Ctx, data: dict[str, Any], path: KeyPath) -> None:
        cell = ctx.of(rows).get(data["weather"]["result"])
        if cell is None:
            return
        expected = str(cell.get("wind", default))
        if data["wind"]["result"] != expected:
            ctx.fail(
                ("wind", "result"),
                f"result {data['wind']['result']} does not match weather "
                f"{data['weather']['result']} ({table_id} gives {expected})",
            )

    return Check(
        f"wind.result is the wind {table_id} gives for weather.result",
        run,
        needs=("wind.result", "weather.result"),
    )


@cache
def by_label(table_id: str) -> Callable[[Rules], dict[str, Any]]:
    """A one-axis table's cells by their row label (one function a table, as `by_result`)."""

    def compute(rules: Rules) -> dict[str, Any]:
        table = rules.table(table_id)
        return dict(zip(table.axes[0].labels, table.cells, strict=True))

    return compute


def dice_span(expression: str) -> tuple[int, int]:
    """The least and most a dice expression can roll."""
    from generator.dice.notation import DiceError, plain_dice

    try:
        dice = plain_dice(expression)
    except DiceError:
        from generator.dice.odds import distribution

        totals = distribution(expression)
        return min(totals), max(totals)
    return dice.count, dice.count * dice.sides


def die_range(
    table_id: str, modifier: Callable[[Rules], tuple[int, int]] | None = None
) -> Callable[[Rules], tuple[int, int]]:
    """What a roll on a table can total: its die (the first axis with dice), plus the least
    and most `modifier` the generator adds."""

    def compute(rules: Rules) -> tuple[int, int]:
        axis = next(a for a in rules.table(table_id).axes if a.dice)
        low, high = dice_span(str(axis.dice))
        if modifier is not None:
            least, most = modifier(rules)
            low, high = low + least, high + most
        return low, high

    return compute


def table_ids(rules: Rules) -> list[str]:
    return sorted(table.id for table in rules.all_tables())


def navies(rules: Rules) -> list[str]:
    return sorted(rules.names.navies) if rules.names is not None else []


def nationalities(rules: Rules) -> list[str]:
    return sorted(rules.names.people) if rules.names is not None else []


DEGREES = Whole(0, 359)
NAVY = Choice(navies, "navy", docs="a navy id of the name lists (data/names.yaml)")
NAME = Text(NAME_LENGTH)
TITLE = Text(TITLE_LENGTH)
LINE = Text(LINE_LENGTH)
LINES = Items(LINE, noun=("line", "lines"))


def follows(
    field_key: str,
    source: str,
    table_id: str,
    cell_key: str,
    lookup: Callable[[Rules], dict[str, Any]] | None = None,
) -> Check:
    """A check that `field_key` is what `table_id` gives for the value of `source` (the row
    whose result, or label with `lookup`, it is): a bearing for a wind direction ..."""
    rows = lookup or by_result(table_id)

    def run(ctx: Ctx, data: dict[str, Any], path: KeyPath) -> None:
        cell = ctx.of(rows).get(data[source])
        if cell is None:
            return
        expected = cell.get(cell_key)
        if expected is None or data[field_key] == expected:
            return
        ctx.fail(
            (*path, field_key),
            f"{field_key} {found(data[field_key])} does not match {source} {data[source]} "
            f"({table_id} gives {found(expected)})",
        )

    return Check(
        f"{field_key} is what {table_id} gives for {source}", run, needs=(source, field_key)
    )


def copied(
    keys: tuple[str, ...],
    source: str,
    table_id: str,
    lookup: Callable[[Rules], dict[str, Any]] | None = None,
) -> Check:
    """A check that each of `keys` is what `table_id` gives under the same key for the
    value of `source` (the numbers a weapon copies from its row ...)."""
    rows = lookup or by_result(table_id)

    def run(ctx: Ctx, data: dict[str, Any], path: KeyPath) -> None:
        cell = ctx.of(rows).get(data[source])
        if cell is None:
            return
        for key in keys:
            expected = cell.get(key)
            if expected is not None and data[key] != expected:
                ctx.fail(
                    (*path, key),
                    f"{key} {found(data[key])} does not match {source} {data[source]} "
                    f"({table_id} gives {found(expected)})",
                )

    return Check(
        f"{', '.join(keys)} are what {table_id} gives for {source}", run, needs=(source, *keys)
    )


def rolled(
    table_id: str,
    what: str,
    extra: MappingType[str, Field] | None = None,
    tag: bool = False,
    modifier: Callable[[Rules], tuple[int, int]] | None = None,
) -> Record:
    """A roll on a table as the generators write it: the roll and its result (and, with
    `tag`, the table's id under ``table``)."""
    fields: dict[str, Field] = {}
    if tag:
        fields["table"] = req(Choice([table_id], "table id"), "the table rolled on")
    fields["roll"] = req(
        Whole(span=die_range(table_id, modifier), why=f"the die of {table_id}"),
        "the die roll",
    )
    fields["result"] = req(Choice(results(table_id), what), f"the result {table_id} gives")
    fields.update(extra or {})
    return Record(fields, what=f"a roll on {table_id}")


@dataclass(frozen=True, eq=False)
class Bearing(Node):
    """A wind's bearing in degrees, 0 to 359, or one of the other marks `table_id` holds
    for it (— for a calm)."""

    table_id: str
    marks: Callable[[Rules], list[str]] = field(init=False)
    kind = "whole number or text"

    def __post_init__(self) -> None:
        every = values(self.table_id, "from_bearing")

        def marks(rules: Rules) -> list[str]:
            return [str(v) for v in every(rules) if not isinstance(v, int)]

        object.__setattr__(self, "marks", marks)

    def _marks(self, ctx: Ctx) -> list[str]:
        return ctx.of(self.marks)

    def fits(self, value: Any) -> bool:
        return isinstance(value, int | str) and not isinstance(value, bool)

    def check(self, ctx: Ctx, value: Any, path: KeyPath) -> bool:
        if isinstance(value, int) and not isinstance(value, bool):
            return DEGREES.check(ctx, value, path)
        if isinstance(value, str) and value in self._marks(ctx):
            return True
        ctx.fail(path, f"{found(value)} is not a bearing (allowed: {self.allowed(ctx)})")
        return False

    def kind_text(self, ctx: Ctx) -> str:
        return "whole number or text" if self._marks(ctx) else "whole number"

    def allowed(self, ctx: Ctx) -> str:
        marks = self._marks(ctx)
        return "0..359" + (f", or {listing(marks)}" if marks else "")


def wind(table_id: str, extra: MappingType[str, Field] | None = None, help: str = "") -> Record:
    """A scenario's wind rolled on a wind table: roll, direction and from_bearing, which
    must be the bearing the table gives for the direction."""
    return Record(
        {
            "roll": req(
                Whole(span=die_range(table_id), why=f"the die of {table_id}"), "the die roll"
            ),
            "direction": req(
                Choice(results(table_id), "wind direction"),
                f"where the wind blows from ({table_id})",
            ),
            "from_bearing": req(
                Bearing(table_id),
                "the compass bearing the wind blows from, in degrees (0 is north)",
            ),
            **(extra or {}),
        },
        checks=(follows("from_bearing", "direction", table_id, "from_bearing"),),
        what="a wind (roll, direction, from_bearing)",
    )


def weather(
    table_id: str,
    extra: MappingType[str, Field] | None = None,
    effect: str | None = "effect_text",
    checks: tuple[Check, ...] = (),
) -> Record:
    """A scenario's weather rolled on a weather table: roll, result and (when `effect`
    names the cell's key) the effect the table gives for the result; `extra` keys, with
    their `checks`."""
    fields: dict[str, Field] = {
        "roll": req(Whole(span=die_range(table_id), why=f"the die of {table_id}"), "the die roll"),
        "result": req(Choice(results(table_id), "weather result"), f"the weather ({table_id})"),
    }
    found_checks: tuple[Check, ...] = ()
    if effect is not None:
        fields["effect"] = req(Text(LINE_LENGTH, empty=True), "what the weather does in play")
        found_checks = (follows("effect", "result", table_id, effect),)
    fields.update(extra or {})
    return Record(fields, checks=(*found_checks, *checks), what="a weather (roll, result ...)")


def grid_map(
    legend: MappingType[str, str],
    cell: str | tuple[str, str],
    kind: str,
    extra: MappingType[str, Field] | None = None,
    checks: tuple[Check, ...] = (),
) -> Record:
    """A map of `width` × `height` cells: `rows` of one character per `cell` ("square", or
    one and many: ("hex", "hexes")), every character in the fixed `legend`."""
    cell, cells = (cell, f"{cell}s") if isinstance(cell, str) else cell
    legend_record = Record(
        {
            char: req(Choice([name], f"{cell} kind"), f"a {cell} of {name}")
            for char, name in legend.items()
        },
        what=f"the legend ({', '.join(f'{c} {n}' for c, n in legend.items())})",
    )
    allowed = ", ".join(f"'{c}' {n}" for c, n in legend.items())

    def rows_fit(ctx: Ctx, data: dict[str, Any], path: KeyPath) -> None:
        rows, width, height = data.get("rows"), data["width"], data["height"]
        if not isinstance(rows, list):
            return
        if len(rows) != height:
            ctx.fail((*path, "rows"), f"expected {height} rows (height), found {len(rows)}")
        for index, row in enumerate(rows):
            if not isinstance(row, str):
                continue
            where = (*path, "rows", index)
            if len(row) != width:
                ctx.fail(where, f"expected {width} {cells} (width), found {len(row)}")
            stray = sorted(set(row) - set(legend))
            if stray:
                ctx.fail(where, f"{quoted(stray[0])} is not a {cell} of the legend ({allowed})")

    return Record(
        {
            "kind": req(Choice([kind], "map kind"), "the kind of map"),
            "width": req(Whole(4, 200), f"{cells} from west to east"),
            "height": req(Whole(4, 200), f"{cells} from north to south"),
            "rows": req(
                Items(Text(200), noun=("row", "rows")),
                f"the map from north to south, one character a {cell}",
            ),
            "legend": req(legend_record, f"what each character of the rows is: {allowed}"),
            **(extra or {}),
        },
        checks=(
            Check(
                f"rows has height rows of width {cells}, each a character of the legend",
                rows_fit,
                needs=("width", "height"),
            ),
            *checks,
        ),
        what=f"a map of {cells}",
    )


def start_columns(cell: str) -> tuple[Field, Check]:
    """A grid's starting columns at each end: the field, and the check that they fit and
    hold no land."""

    def fit(ctx: Ctx, data: dict[str, Any], path: KeyPath) -> None:
        start, width, rows = data["start_columns"], data["width"], data.get("rows")
        if 2 * start > width:
            ctx.fail((*path, "start_columns"), f"{start} columns a side do not fit in {width}")
            return
        for index, row in enumerate(rows if isinstance(rows, list) else ()):
            if isinstance(row, str) and "#" in row[:start] + row[len(row) - start :]:
                ctx.fail((*path, "rows", index), "land in a side's starting columns")
                return

    return (
        req(Whole(1, None), f"the {cell} columns each side starts in, at the west and east"),
        Check(
            "twice start_columns fits in width, and no starting column holds land",
            fit,
            needs=("start_columns", "width"),
        ),
    )


def one_flagship(word: str) -> Check:
    """A check that exactly one of a side's ships is its flagship."""

    def run(ctx: Ctx, data: dict[str, Any], path: KeyPath) -> None:
        ships = data.get("ships")
        if not isinstance(ships, list):
            return
        count = sum(isinstance(ship, dict) and ship.get("flagship") is True for ship in ships)
        if ships and count != 1:
            ctx.fail((*path, "ships"), f"a {word} has exactly one flagship, found {count}")

    return Check("exactly one of ships is the flagship", run)


# ---------------------------------------------------------------- values the rules derive

OVERRIDE = "override"


@dataclass(frozen=True)
class Between:
    """An expected value that may lie anywhere from `low` to `high` (both included)."""

    low: int
    high: int

    def __str__(self) -> str:
        return f"{self.low} to {self.high}"


# what a derived-value check expects: (key path inside the record, the value or a
# `Between`, and what gives it, in words: "a 3rd rate's row of flob.ship-ratings")
Expected = list[tuple[KeyPath, Any, str]]


def override(keys: Dyn[Sequence[str]]) -> Field:
    """A unit's optional ``override``: the keys whose values the GM set by hand."""
    return opt(
        Items(Choice(keys, "value the rules derive"), noun=("key", "keys")),
        "the keys whose values the GM set by hand, against what the rules give: kept as "
        "written, not checked against the rules, and marked on the roster",
    )


def override_words(keys: Sequence[Any]) -> list[str]:
    """Return the keys a GM overrode as the roster says them (``mast_rating``: mast rating)."""
    return [str(key).replace("_hp", " hit points").replace("_", " ") for key in keys]


def compare(ctx: Ctx, data: dict[str, Any], path: KeyPath, expected: Expected, noun: str) -> None:
    """Report each of `expected` that the record `data` at `path` does not hold (a key its
    ``override`` lists is the GM's and is left as written; one missing or already reported
    is left to that report)."""
    kept = data.get(OVERRIDE)
    own = {str(k) for k in kept} if isinstance(kept, list) else set()
    for keys, want, source in expected:
        if keys[-1] in own:
            continue
        value: Any = data
        for key in keys:
            value = value.get(key) if isinstance(value, dict) else None
        full = (*path, *keys)
        if value is None or any(where[: len(full)] == full for where in ctx.failed):
            continue
        if isinstance(want, Between):
            fits = isinstance(value, int) and want.low <= value <= want.high
        else:
            fits = value == want
        if not fits:
            ctx.fail(
                full,
                f"{found(value)} is not what {source} gives: expected {want}; to keep "
                f"{found(value)}, add '{keys[-1]}' to the {noun}'s {OVERRIDE} list",
            )


def derived(
    text: str,
    expected: Callable[[Ctx, dict[str, Any]], Expected],
    needs: tuple[str, ...] = (),
    noun: str = "ship",
) -> Check:
    """A check that a record's values the rules derive (from its class, its rolls ...)
    are what `expected` says they give; a key the record lists under ``override`` is the
    GM's and is left as written."""

    def run(ctx: Ctx, data: dict[str, Any], path: KeyPath) -> None:
        compare(ctx, data, path, expected(ctx, data), noun)

    return Check(f"{text}, unless its {OVERRIDE} lists the key", run, needs)


# ---------------------------------------------------------------- a ruleset's schema


def _default_years(rules: Rules) -> tuple[int, int]:
    return 1500, 1900


@dataclass(frozen=True, eq=False)
class RulesetSchema:
    """What a ruleset's files hold beside the keys every scenario shares.

    Attributes:
        side: one side (a scenario's ``sides[]``; a fleet file is one, with ``ruleset``).
        setting: the scenario's own keys (wind, weather, map ...), in file order.
        checks: rules across the scenario's keys (the map against the sides ...).
        sides: the fewest and most sides a scenario has.
        years: the first and last year a scenario may be set in.
        year_required: whether a scenario must say its year.
        person: a character file's person (a ruleset whose units are people).
        units: the key of a side's units ("ships", "characters").
        notes: a paragraph for the docs.
    """

    ruleset: str
    side: Record
    setting: MappingType[str, Field]
    checks: tuple[Check, ...] = ()
    sides: tuple[int, int | None] = (1, None)
    years: Callable[[Rules], tuple[int, int]] = _default_years
    year_required: bool = False
    person: Record | None = None
    units: str = "ships"
    notes: str = ""


def years_of(ruleset: str) -> Callable[[Rules], tuple[int, int]]:
    """The years a ruleset's generator sets scenarios in (its ``years``; else 1500..1900)."""

    def compute(rules: Rules) -> tuple[int, int]:
        from generator.generate.base import get_generator

        years = getattr(get_generator(ruleset), "years", None)
        return _default_years(rules) if years is None else years(rules)

    return compute


_SCHEMAS: dict[str, RulesetSchema | None] = {}


def schema_for(ruleset: str) -> RulesetSchema | None:
    """Return the schema of `ruleset` (a known id), or None if it declares none."""
    if ruleset in _SCHEMAS:
        return _SCHEMAS[ruleset]
    found_schema = None
    name = f"{__name__}.{ruleset.replace('-', '_')}"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        from generator.rulesets import get_spec

        module = importlib.import_module(get_spec(ruleset).generator)
    found_schema = getattr(module, "SCHEMA", None)
    if found_schema is not None and not isinstance(found_schema, RulesetSchema):
        found_schema = None
    _SCHEMAS[ruleset] = found_schema
    return found_schema


def has_schema(ruleset: str) -> bool:
    """Return whether `ruleset` (a known id) declares a schema of its files."""
    return schema_for(ruleset) is not None


# ---------------------------------------------------------------- the files


def _common_years(schema: RulesetSchema) -> Whole:
    return Whole(span=schema.years, why=f"the years {schema.ruleset} is played in")


def _balance() -> Record:
    return Record(
        {
            "measure": req(Text(LINE_LENGTH), "how a side's strength is measured"),
            "strengths": opt(
                Items(Number(0, None), noun=("strength", "strengths")), "each side's strength"
            ),
            "ratio": opt(Number(0, 1), "the weaker side's strength over the stronger's"),
            "attempt": opt(Whole(1, None), "which roll was kept"),
            "balanced": opt(Flag(), "whether the sides are within 10 % of each other"),
            "rolls": opt(Whole(1, None), "how many rolls were tried to balance the sides"),
            "warning": opt(
                Text(LINE_LENGTH),
                "why the sides are uneven although they were to be fair (the briefing prints it)",
            ),
        },
        what="the balance (measure, strengths, ratio, attempt, balanced, rolls, warning)",
    )


OPTIONS = Mapping(Plain())


def fixed(record: Record) -> MappingType[str, Field]:
    """Return a record's fields, which must not come from the rules (a side's, a person's:
    the fleet and character files add keys to them)."""
    fields = record.fields
    assert not callable(fields), f"{record.what}: its fields must be fixed"
    return fields


def _side_record(schema: RulesetSchema) -> Record:
    return Record(
        {
            **fixed(schema.side),
            "year": opt(_common_years(schema), "the year this side was made for"),
            "size_note": opt(Text(LINE_LENGTH), "how the side's size departs from the rules'"),
        },
        checks=schema.side.checks,
        what=schema.side.what,
    )


_BUILT: dict[tuple[str, str], Record] = {}


def _built(schema: RulesetSchema, kind: str) -> Record:
    key = (schema.ruleset, kind)
    if key not in _BUILT:
        _BUILT[key] = _build(schema, kind)
    return _BUILT[key]


def _build(schema: RulesetSchema, kind: str) -> Record:
    ruleset = Choice([schema.ruleset], "ruleset")
    side = _side_record(schema)
    if kind == "side":
        return side
    if kind == "fleet":
        return Record(
            {
                "ruleset": req(ruleset, "the ruleset"),
                "seed": opt(Whole(0, None), "the seed it was rolled from"),
                **fixed(side),
                "options": opt(OPTIONS, "what was asked for when it was made (free-form)"),
            },
            checks=side.checks,
            what=f"a {schema.ruleset} fleet",
        )
    if kind == "character":
        assert schema.person is not None
        person = fixed(schema.person)
        return Record(
            {
                "ruleset": opt(ruleset, "the ruleset"),
                "seed": opt(Whole(0, None), "the seed it was rolled from"),
                **person,
            },
            checks=schema.person.checks,
            what=f"a {schema.ruleset} character",
        )
    low, high = schema.sides
    fields: dict[str, Field] = {
        "ruleset": req(ruleset, "the ruleset"),
        "seed": req(Whole(0, None), "the seed it was rolled from"),
        "title": req(TITLE, "the scenario's title"),
        "year": Field(
            _common_years(schema), schema.year_required, "the year the action is fought in"
        ),
        "sides": req(Items(side, low, high, ("side", "sides")), "the sides, first to last"),
        **schema.setting,
        "setup": req(LINES, "the set-up, a line each"),
        "victory": req(LINES, "the victory conditions, a line each"),
        "special_rules": req(LINES, "the special rules, a line each"),
        "house_tables": opt(
            Items(Choice(table_ids, "table id", docs="table ids (ruleset.table) that exist")),
            "the house tables the scenario was rolled on",
        ),
        "generator": opt(TITLE, "the program and version that made it"),
        "balance": opt(_balance(), "how even the sides are"),
        "options": opt(OPTIONS, "what was asked for when it was made (free-form)"),
    }
    return Record(fields, checks=schema.checks, what=f"a {schema.ruleset} scenario")


# an open mapping: a ruleset without a schema has its own keys left unchecked
class _Open(Record):
    def check(self, ctx: Ctx, value: Any, path: KeyPath) -> bool:
        if not isinstance(value, dict):
            ctx.fail(path, f"expected {self.what}, found {found(value)}")
            return False
        fields = ctx.get(self.fields)
        ok = True
        for key, entry in fields.items():
            if key in value:
                ok = entry.node.check(ctx, value[key], (*path, key)) and ok
            elif entry.required:
                ctx.fail(path, f"missing '{key}' ({entry.node.summary(ctx)})")
                ok = False
        return ok


def _open_scenario(ruleset: str) -> Record:
    return _Open(
        {
            "ruleset": req(Choice([ruleset], "ruleset")),
            "seed": req(Whole(0, None)),
            "title": req(TITLE),
            "sides": req(Items(_Open({}, what="a side"), 1, None, ("side", "sides"))),
            "setup": req(LINES),
            "victory": req(LINES),
            "special_rules": req(LINES),
            "house_tables": opt(Items(Choice(table_ids, "table id"))),
            "balance": opt(_balance()),
            "options": opt(OPTIONS),
        },
        what=f"a {ruleset} scenario",
    )


def _ruleset_of(ctx: Ctx, data: Any, path: KeyPath, what: str, required: bool = True) -> str | None:
    if not isinstance(data, dict):
        ctx.fail(path, f"expected {what} (a mapping), found {found(data)}")
        return None
    known = sorted(ctx.rules.rulesets)
    if "ruleset" not in data:
        if required:
            ctx.fail(path, f"missing 'ruleset' (one of: {listing(known)})")
        return None
    if Choice(known, "ruleset").check(ctx, data["ruleset"], (*path, "ruleset")):
        return str(data["ruleset"])
    return None


def check_scenario(checker: Reporter, rules: Rules, data: Any) -> str | None:
    """Check a scenario (read from a file; every key, every value, and the rules across
    them), reporting every problem through `checker`.

    Returns:
        its ruleset, or None when it names no ruleset there is (reported). A ruleset
        without a schema (`has_schema`) has only the keys every scenario shares checked.
    """
    ctx = Ctx(rules, checker)
    ruleset = _ruleset_of(ctx, data, (), "a scenario")
    if ruleset is None:
        return None
    schema = schema_for(ruleset)
    record = _open_scenario(ruleset) if schema is None else _built(schema, "scenario")
    record.check(ctx, data, ())
    return ruleset


def check_force(checker: Reporter, rules: Rules, data: Any, path: KeyPath = ()) -> str | None:
    """Check a fleet file (``quartermaster fleet``: ``ruleset``, ``seed`` and one side's
    keys) at `path`, reporting every problem; return its ruleset (None: it names none
    there is, reported)."""
    ctx = Ctx(rules, checker)
    ruleset = _ruleset_of(ctx, data, path, "a fleet")
    if ruleset is None:
        return None
    schema = schema_for(ruleset)
    if schema is not None:
        _built(schema, "fleet").check(ctx, data, path)
    return ruleset


def check_side(checker: Reporter, rules: Rules, ruleset: str, side: Any, path: KeyPath) -> bool:
    """Check one side of a `ruleset` scenario at `path`; return whether all was well."""
    schema = schema_for(ruleset)
    if schema is None:
        return True
    return _built(schema, "side").check(Ctx(rules, checker), side, path)


def _person_ruleset(ruleset: str | None) -> str | None:
    from generator.rulesets import ruleset_ids

    if ruleset is not None:
        return ruleset
    return next(
        (r for r in ruleset_ids() if (s := schema_for(r)) is not None and s.person is not None),
        None,
    )


def check_character(
    checker: Reporter, rules: Rules, data: Any, path: KeyPath = (), ruleset: str | None = None
) -> bool:
    """Check a character file (``quartermaster character``: a person, with ``ruleset``
    and ``seed``) at `path`, reporting every problem; return whether all was well.

    Args:
        ruleset: whose person it is; None for the file's ``ruleset``, else the ruleset
            whose units are people.
    """
    ctx = Ctx(rules, checker)
    named = _ruleset_of(ctx, data, path, "a character", required=False)
    if isinstance(data, dict) and "ruleset" in data and named is None:
        return False
    which = _person_ruleset(named or ruleset)
    schema = schema_for(which) if which is not None else None
    if schema is None or schema.person is None:
        ctx.fail((*path, "ruleset"), f"{which or 'no ruleset'} has no characters of its own")
        return False
    return _built(schema, "character").check(ctx, data, path)


# ---------------------------------------------------------------- the docs

INTRO = """\
# File formats

<!-- Written by `python -m generator.schema` from generator/schema/: do not edit by hand. -->

Quartermaster writes a scenario (`quartermaster scenario RULESET`), a fleet
(`quartermaster fleet RULESET`) and a duellist (`quartermaster character`) as plain data,
JSON or YAML. Edit one and give it back (`--from FILE`, `--side FILE`): it is checked
against the format below first, and refused with every problem on a line of its own,
each naming the file, the line, the key path and what is allowed.

A key path reads `sides[].ships[].name`: the key `name` of every entry of the list
`ships` of every entry of `sides` (`legend['#']`: the key `#` of `legend`). A required key
must be there; the others may be left out. Ranges such as `1..14` include both ends. Where
the allowed values come from the rule tables (ratings, results, classes), house rules
(`--rules FILE`) change them. The checks across keys (a wind's bearing against its
direction, one flagship a side ...) are listed under each table.

The numbers the rules derive (a ship's ratings from her class or rate, her traits and her
side's bonuses; her guns, markers or boxes from her type; the ships a squadron's size
says) are checked value by value: a file that contradicts them is refused, each value on
its own line with the file, the line, the key path and the value the rules give. To keep
a value of your own against the rules (a ship refitted, a house variant), list its key
under the ship's `override`, e.g. `override: [guns, hull]`: those values are kept as
written (within the ranges below) and the roster marks the ship "set by the GM: guns,
hull".
"""


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _required(required: bool | str) -> str:
    return required if isinstance(required, str) else "yes" if required else "no"


def _table(rows: list[Row]) -> list[str]:
    lines = ["| Key | Type | Required | Allowed | Meaning |", "|---|---|---|---|---|"]
    for row in rows:
        lines.append(
            f"| `{row.key}` | {_cell(row.kind)} | {_required(row.required)} "
            f"| {_cell(row.allowed)} | {_cell(row.help)} |"
        )
    return lines


def _checks(checks: list[tuple[str, str]]) -> list[str]:
    if not checks:
        return []
    grouped: dict[str, list[str]] = {}
    for where, text in checks:
        if text not in grouped.setdefault(where, []):
            grouped[where].append(text)
    return [
        "",
        "Checked across keys:",
        "",
        *(
            f"- {f'`{where}`' if where else 'the whole file'}: {'; '.join(texts)}."
            for where, texts in grouped.items()
        ),
    ]


def _section(ctx: Ctx, title: str, record: Record) -> list[str]:
    rows: list[Row] = []
    checks: list[tuple[str, str]] = []
    record.walk(ctx, "", rows, checks)
    return ["", title, "", *_table(rows), *_checks(checks)]


def _top(key: str) -> str:
    return re.split(r"[.\[]", key, maxsplit=1)[0]


def describe(ruleset: str, rules: Rules) -> str:
    """Return the markdown of `ruleset`'s file formats: every key path, its type, whether
    it is required, what is allowed and what it means, and the checks across keys."""
    schema = schema_for(ruleset)
    lines = [f"## {ruleset}"]
    if schema is None:
        lines += [
            "",
            "This ruleset declares no schema: only the keys every scenario shares are checked.",
        ]
        return "\n".join(lines) + "\n"
    ctx = Ctx(rules)
    for paragraph in schema.notes.strip().split("\n\n") if schema.notes else ():
        lines += ["", " ".join(paragraph.split())]
    lines += _section(
        ctx, f"### Scenario (`quartermaster scenario {ruleset}`)", _built(schema, "scenario")
    )
    side_keys = frozenset(ctx.get(_built(schema, "side").fields))
    fleet = _built(schema, "fleet")
    lines += [
        "",
        f"### Fleet (`quartermaster fleet {ruleset}`)",
        "",
        "One side, as `sides[]` above (every key of it, the same checks), with these keys besides:",
    ]
    rows: list[Row] = []
    fleet.walk(ctx, "", rows, [])
    lines += ["", *_table([row for row in rows if _top(row.key) not in side_keys])]
    if schema.person is not None:
        lines += _section(
            ctx, "### Character (`quartermaster character`)", _built(schema, "character")
        )
    return "\n".join(lines) + "\n"


def describe_all(rules: Rules) -> str:
    """Return docs/file-formats.md: the introduction and every ruleset's formats."""
    from generator.rulesets import ruleset_ids

    return "\n".join([INTRO, *(describe(ruleset, rules) for ruleset in ruleset_ids())])


__all__ = [
    "OVERRIDE",
    "Bearing",
    "Between",
    "Check",
    "Choice",
    "Ctx",
    "Expected",
    "Field",
    "Flag",
    "Items",
    "Mapping",
    "Maybe",
    "Null",
    "Number",
    "Plain",
    "Record",
    "Reporter",
    "RulesetSchema",
    "Text",
    "Variant",
    "Whole",
    "check_character",
    "check_force",
    "check_scenario",
    "check_side",
    "compare",
    "derived",
    "describe",
    "describe_all",
    "has_schema",
    "override",
    "override_words",
    "schema_for",
]
