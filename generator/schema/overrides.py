"""The values the rules derive (a ship's ratings from her class ...): the check that a
record holds them, and the ``override`` list of those a GM set by hand against them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from generator.schema.context import Ctx, Dyn, found
from generator.schema.nodes import Check, Choice, Field, Items, opt
from generator.yamlfile import KeyPath

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
