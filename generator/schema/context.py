"""What every check and description of a file shares: the rules it is made against, where
its problems go, what it has worked out from the rules (kept per `Rules`), and the words
its messages are made of.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar, Union

from generator.loading import Rules
from generator.yamlfile import KeyPath

T = TypeVar("T")
# a value, or a function of the loaded rules that gives it (worked out once per Rules)
Dyn = Union[T, Callable[[Rules], T]]  # noqa: UP007 (a generic alias needs Union)

NAME_LENGTH = 60  # a ship's or a person's name
TITLE_LENGTH = 120  # a scenario's title, a side's name
LINE_LENGTH = 1000  # a line of rules text
LISTED = 30  # the most choices a message lists
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


class Reporter(Protocol):
    """What problems are reported to (an edited file's checker, which adds its file and
    line)."""

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
    return repr(short) if CONTROL.search(short) else f"'{short}'"


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


def close_match(value: Any, options: Sequence[Any]) -> str:
    """Return "; did you mean 'x'?" for the option closest to a mistyped `value`, or ""."""
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
