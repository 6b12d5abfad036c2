"""The resolver framework: inputs, the context every roll goes through, and outcomes.

A resolver is written once, against `Context`. Run with a seeded `SamplingContext` it rolls
real dice and records every roll, modifier and table it used; run by `odds()` with an
`EnumeratingContext` the same code is explored over every possible roll, giving the
exact chance of each outcome. Resolvers never copy a table: they read values through
``ctx.modifier`` and ``ctx.lookup`` from the loaded rules, so a house rule changes them.

A procedure that runs in rounds (a boarding action fought to its end) is a
`SteppedResolver`: a hashable state and a ``step`` that advances it one round. The odds
engine then merges equal states between rounds, so long fights stay exact and fast.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from generator.errors import InputError, shown
from generator.loading import Rules, Table
from generator.lookup import MAX_DIGITS, LookupResult, lookup, too_long_number
from generator.text import fold

Inputs = Mapping[str, Any]

REQUIRED: Any = object()


class ResolveInputError(InputError):
    """A resolver id, input name or input value is not valid."""


@dataclass(frozen=True)
class Param:
    """One input of a resolver.

    Args:
        name: the input name typed as NAME=VALUE.
        help: one line for the listing.
        kind: ``int``, ``choice``, ``bool`` or ``text``.
        default: used when the input is not given; `REQUIRED` if it must be given.
        choices: the allowed words for a ``choice``.
        choices_from: ``(table_id, axis_name)`` to take the choices from a table axis (its
            values' ``match:`` words are accepted too), or ``(table_id, "modifiers")`` to
            take them from a modifiers list's ids.
        choices_by: ``(table_id, (modifier_id, ...))`` to take the choices from those
            modifiers' ``by:`` keys.
        extra: words of the resolver's own, allowed before the table's choices.
        minimum, maximum: bounds for an ``int``.

    An input whose default is None is optional: leaving it out means "not given".
    """

    name: str
    help: str
    kind: str = "int"
    default: Any = REQUIRED
    choices: tuple[str, ...] = ()
    choices_from: tuple[str, str] | None = None
    choices_by: tuple[str, tuple[str, ...]] | None = None
    extra: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    def default_text(self) -> str:
        """Say what happens when the input is left out, for listings."""
        if self.required:
            return "required"
        if self.default is None:
            return "optional"
        if isinstance(self.default, bool):
            return f"default {'yes' if self.default else 'no'}"
        return f"default {self.default}"

    def _axis(self, rules: Rules) -> Any:
        if self.choices_from is None or self.choices_from[1] == "modifiers":
            return None
        table = rules.table(self.choices_from[0])
        return next(a for a in table.axes if a.name == self.choices_from[1])

    def allowed(self, rules: Rules) -> tuple[str, ...]:
        """Return the allowed words of a ``choice`` input."""
        words: dict[str, None] = dict.fromkeys(self.extra)
        words.update(dict.fromkeys(self.choices))
        if self.choices_by is not None:
            table = rules.table(self.choices_by[0])
            for modifier_id in self.choices_by[1]:
                words.update(dict.fromkeys(table.modifier(modifier_id).by))
        if self.choices_from is not None:
            table = rules.table(self.choices_from[0])
            if self.choices_from[1] == "modifiers":
                words.update(dict.fromkeys(m.id for m in table.modifiers))
            else:
                words.update(dict.fromkeys(self._axis(rules).labels))
        return tuple(words)

    def describe(self, rules: Rules) -> str:
        if self.kind == "int":
            low = "" if self.minimum is None else str(self.minimum)
            high = "" if self.maximum is None else str(self.maximum)
            span = f" {low}..{high}" if low or high else ""
            return f"whole number{span}"
        if self.kind == "bool":
            return "yes/no"
        if self.kind == "choice":
            return " | ".join(self.allowed(rules))
        return "text"

    def convert(self, resolver_id: str, raw: Any, rules: Rules) -> Any:
        """Return `raw` converted to this input's kind, or raise naming what is wrong."""
        where = f"{resolver_id}: {self.name}={shown(raw)}"
        if self.kind == "int":
            if isinstance(raw, bool):
                raise ResolveInputError(f"{where}: expected a whole number")
            if not isinstance(raw, int) and too_long_number(str(raw)):
                raise ResolveInputError(f"{where}: too many digits (at most {MAX_DIGITS})")
            try:
                value = raw if isinstance(raw, int) else int(str(raw).strip())
            except ValueError:
                raise ResolveInputError(f"{where}: expected a whole number") from None
            if self.minimum is not None and value < self.minimum:
                raise ResolveInputError(f"{where}: at least {self.minimum}")
            if self.maximum is not None and value > self.maximum:
                raise ResolveInputError(f"{where}: at most {self.maximum}")
            return value
        if self.kind == "bool":
            if isinstance(raw, bool):
                return raw
            text = str(raw).strip().casefold()
            if text in ("yes", "y", "true", "1", "on"):
                return True
            if text in ("no", "n", "false", "0", "off"):
                return False
            raise ResolveInputError(f"{where}: expected yes or no")
        if self.kind == "choice":
            allowed = self.allowed(rules)
            for choice in allowed:
                if fold(choice) == fold(str(raw)):
                    return choice
            axis = self._axis(rules)
            if axis is not None:
                for value in axis.values:
                    if value.matches(str(raw)):
                        return value.label
            raise ResolveInputError(f"{where}: not one of {', '.join(allowed)}")
        text = str(raw)
        if not text.strip():
            raise ResolveInputError(f"{where}: may not be empty")
        return text


@dataclass(frozen=True)
class Choice(Param):
    """A `Param` of kind ``choice`` (the common case, spelled shorter)."""

    kind: str = "choice"


@dataclass(frozen=True)
class Applied:
    """A modifier that was applied, with the table or rule it came from."""

    label: str
    value: int
    source: str

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "value": self.value, "source": self.source}


#: who an `Effect` falls on: the ship acting (firing, boarding) or the ship it acts on
EFFECT_WHO = ("ship", "target")


@dataclass(frozen=True)
class Effect:
    """A loss or a state the rules determine for a ship, as data (the words are `changes`).

    Args:
        who: ``"ship"`` (the ship acting, firing, boarding) or ``"target"`` (the ship it acts on).
        what: the rating or count the rules name, as a short stable key (``"hull"``,
            ``"crew"``, ``"crew_parties"``, ``"mast"``, ``"hull_fires"`` ...).
        amount: how much is lost, a whole number in the rules' unit (0 when only a state is set).
        state: a state the rules set (``"struck"``, ``"captured"``, ``"sinking"`` ...), if any.
    """

    who: str
    what: str
    amount: int = 0
    state: str | None = None

    def __post_init__(self) -> None:
        if self.who not in EFFECT_WHO:
            raise ValueError(f"effect on '{self.who}': expected one of {', '.join(EFFECT_WHO)}")

    def to_json(self) -> dict[str, Any]:
        found: dict[str, Any] = {"who": self.who, "what": self.what, "amount": self.amount}
        if self.state is not None:
            found["state"] = self.state
        return found


@dataclass(frozen=True)
class Outcome:
    """How a procedure ended.

    Args:
        result: a short name of the outcome; ``--odds`` counts chances per result.
        changes: what to note on the sheet (``"Target: -1 crew party"``).
        details: structured fields for JSON (numbers, flags), as key-value pairs.
        effects: the same losses and states as data, where the rules determine them (a
            choice the rules leave to a player is in `changes` only).
    """

    result: str
    changes: tuple[str, ...] = ()
    details: tuple[tuple[str, Any], ...] = ()
    effects: tuple[Effect, ...] = ()


class Context(ABC):
    """What a resolver may do: roll, apply modifiers, look up tables, explain."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules

    @abstractmethod
    def roll(self, expression: str, reason: str) -> int:
        """Roll dice notation and return its total."""

    @abstractmethod
    def roll_dice(self, count: int, sides: int, reason: str) -> tuple[int, ...]:
        """Roll `count` separate dice and return each face (when faces matter, e.g. doubles)."""

    def explain(self, text: str) -> None:  # noqa: B027 - optional hook, no-op when counting
        """Add a line to the explanation (ignored while counting odds)."""

    def record(self, applied: Applied) -> None:  # noqa: B027 - optional hook, no-op when counting
        """Note an applied modifier (ignored while counting odds)."""

    def table(self, table_id: str) -> Table:
        return self.rules.table(table_id)

    def modifier(
        self,
        table_id: str,
        modifier_id: str,
        *,
        choice: str | None = None,
        times: int = 1,
    ) -> int:
        """Return a modifier's value from a modifiers table, times `times`, and record it.

        For a modifier printed with per-choice values (``by:``), `choice` picks one.
        """
        mod = self.rules.table(table_id).modifier(modifier_id)
        if choice is not None:
            if choice not in mod.by:
                raise KeyError(f"{table_id}:{modifier_id} has no value for '{choice}'")
            value = mod.by[choice]
        elif isinstance(mod.value, int):
            value = mod.value
        else:
            raise TypeError(f"{table_id}:{modifier_id} is printed '{mod.value}': give a choice")
        total = value * times
        if total or times:
            label = mod.label + (f" ({choice})" if choice else "")
            if times != 1:
                label += f" ×{times}"
            self.record(Applied(label, total, f"{table_id}:{modifier_id}"))
        return total

    def add(self, label: str, value: int, source: str) -> int:
        """Record and return a modifier that a rule states (not a modifiers list)."""
        self.record(Applied(label, value, source))
        return value

    def lookup(self, table_id: str, **inputs: Any) -> LookupResult:
        """Look up a table cell and explain which cell was used."""
        result = lookup(self.rules, table_id, inputs)
        where = ", ".join(f"{k} {v}" for k, v in result.inputs.items())
        cell = result.cell
        printed = not isinstance(cell, Mapping) or any(
            k in cell for k in ("result", "printed", "text")
        )
        found = result.text if printed else "row " + ", ".join(result.matched.values())
        self.explain(f"{result.table.marked_title} ({table_id}), {where}: {found}")
        return result

    def param(self, table_id: str, name: str) -> Any:
        """Return a number the rules state, from a table's ``params``."""
        return self.rules.table(table_id).params[name]


class Resolver(ABC):
    """A procedure of a ruleset, resolved in one go."""

    id: ClassVar[str]
    title: ClassVar[str]
    summary: ClassVar[str]
    params: ClassVar[tuple[Param, ...]] = ()
    tables: ClassVar[tuple[str, ...]] = ()
    # Inputs (as typed on the command line) that the tests and the help run; at least one.
    examples: ClassVar[tuple[dict[str, str], ...]] = ({},)

    @property
    def ruleset(self) -> str:
        return self.id.split(".", 1)[0]

    def check(self, inputs: Inputs, rules: Rules) -> None:  # noqa: B027
        """Refuse input combinations the rules do not allow (raise ResolveInputError)."""

    @abstractmethod
    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        """Resolve the procedure, rolling through `ctx`."""


class SteppedResolver(Resolver):
    """A procedure fought in rounds until it ends; states must be hashable."""

    max_steps: ClassVar[int] = 500

    @abstractmethod
    def start(self, rules: Rules, inputs: Inputs) -> Hashable:
        """Return the state before the first round (no rolls here)."""

    @abstractmethod
    def step(self, ctx: Context, inputs: Inputs, state: Any) -> Any:
        """Advance one round: return the next state, or an `Outcome` when it is over."""

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        state = self.start(ctx.rules, inputs)
        for _ in range(self.max_steps):
            state = self.step(ctx, inputs, state)
            if isinstance(state, Outcome):
                return state
        raise InputError(f"{self.id}: did not finish in {self.max_steps} rounds")


@dataclass
class RollRecord:
    """One roll made during a resolution."""

    reason: str
    expression: str
    total: int
    dice: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "reason": self.reason,
            "expression": self.expression,
            "total": self.total,
            "dice": self.dice,
        }
