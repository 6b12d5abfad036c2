"""Shared pieces of the generators: rolling on data tables, unique names, checking files.

Generators take a `random.Random` made from the seed and never touch the global one, and
they iterate only over lists and sorted keys, so the same seed gives the same output in
any process (whatever PYTHONHASHSEED is).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from generator.dice import roll_total
from generator.errors import CheckedProblems
from generator.loading import Rules, thaw
from generator.loading.problems import describe_path
from generator.lookup import axis_index, cell_text, lookup
from generator.resolve import ResolveInputError, get_resolver, parse_inputs
from generator.resolve.engine import run
from generator.ruleset.model import Rolled, Weather, Wind
from generator.yamlfile import KeyPath, YamlDoc


@dataclass(frozen=True)
class TableRoll:
    """A roll on a data table: the die total and the cell it landed on (plain data)."""

    table: str
    roll: int
    result: str
    cell: Any

    def to_json(self) -> Rolled:
        return {"table": self.table, "roll": self.roll, "result": self.result}


def roll_on(rules: Rules, table_id: str, rng: random.Random, modifier: int = 0) -> TableRoll:
    """Roll a table's die (its first axis with ``dice``) and return the cell it gives."""
    table = rules.table(table_id)
    axis = next((a for a in table.axes if a.dice), None)
    if axis is None:
        raise ValueError(f"{table_id} has no rolled axis")
    total = roll_total(axis.dice or "", rng) + modifier
    if table.kind == "table" and len(table.axes) == 1:
        # the lookup of a total on a table of one axis, without its checks of typed inputs
        cell = table.cell(axis_index(table, axis, total))
        return TableRoll(table_id, total, cell_text(cell), thaw(cell))
    found = lookup(rules, table_id, {axis.name: total})
    return TableRoll(table_id, total, found.text, thaw(found.cell))


def wind_entry(wind: TableRoll) -> Wind:
    """Return a scenario's wind from a roll on a wind table (direction and bearing)."""
    return {
        "roll": wind.roll,
        "direction": wind.result,
        "from_bearing": wind.cell.get("from_bearing"),
    }


def weather_entry(weather: TableRoll) -> Weather:
    """Return a scenario's weather from a roll on a weather table (result and effect)."""
    return {
        "roll": weather.roll,
        "result": weather.result,
        "effect": weather.cell.get("effect_text", ""),
    }


def pick(rng: random.Random, options: list[Any]) -> Any:
    """Choose one of `options` (a list, so the order and the result are stable)."""
    return options[rng.randrange(len(options))]


# the most ships a side may be asked for (before rules such as tactical's Diplomat add more)
MAX_SHIPS = 16


ROMAN = ("II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X")


@dataclass
class Names:
    """Draws ship and personal names, never the same name twice in one scenario."""

    rules: Rules
    rng: random.Random
    used: set[str] = field(default_factory=set)
    # the year the action is fought in: ship names, navies and places fit it (None: any)
    year: int | None = None
    # which side of the scenario is being rolled (0 first); a generator whose sides differ
    # (convoy: the convoy, then the raiders) reads it
    side: int = 0
    # the two sides' navies, once chosen (an ally is never one of the enemy's)
    in_play: tuple[str, ...] = ()

    def _unique(self, options: list[str], suffix: str = "") -> str:
        """Draw one of `options` (each followed by `suffix`, a person's " Surname") that is
        not used yet, or, all used, one with a Roman number after it."""
        # the options whose name (with the suffix) is used: found from the few names used
        taken = self.used
        if suffix:
            taken = {u[: -len(suffix)] for u in self.used if u.endswith(suffix)}
        # none used, as a rule, is all of them (the same list)
        free = options if taken.isdisjoint(options) else [n for n in options if n not in taken]
        if free:
            name = str(pick(self.rng, free)) + suffix
        else:
            base = str(pick(self.rng, options)) + suffix
            name = next(f"{base} {r}" for r in ROMAN if f"{base} {r}" not in self.used)
        self.used.add(name)
        return name

    def navies(self) -> list[str]:
        """Return the navy ids that have ship names and sail in `year` (sorted, for stable
        choices)."""
        assert self.rules.names is not None
        return self.rules.names.navies_for(self.year)

    def foes(self, navy: str) -> list[str]:
        """Return the navies `navy` fought in `year` (data/names.yaml ``wars``; none when
        the year is open), sorted."""
        assert self.rules.names is not None
        return [] if self.year is None else self.rules.names.foes(navy, self.year)

    def allies(self, navy: str) -> list[str]:
        """Return the navies at war on `navy`'s side in `year` (none when open), sorted."""
        assert self.rules.names is not None
        return [] if self.year is None else self.rules.names.allies(navy, self.year)

    def navy_title(self, navy: str) -> str:
        """Return the navy's title in `year` (the French navy of 1798 is the Republic's)."""
        assert self.rules.names is not None
        return self.rules.names.navy_title(navy, self.year)

    def ship(self, navy: str) -> str:
        """Return an unused ship name of `navy` that a ship of `year` could bear."""
        assert self.rules.names is not None
        return self._unique(self.rules.names.ship_names(navy, self.year))

    def place(self, navies: list[str]) -> str:
        """Return a sea area where every one of `navies` sailed (in `year`)."""
        assert self.rules.names is not None
        return str(pick(self.rng, self.rules.names.places_for(navies, self.year)))

    def person(self, nationality: str, gender: str | None = None) -> str:
        """Return an unused "Given Surname" of `nationality`.

        Args:
            gender: ``male`` or ``female`` to draw from that list, None for either (naval
                officers of the period were men; duellists may be anyone).
        """
        assert self.rules.names is not None
        people = self.rules.names.people[nationality]
        genders = ("male", "female") if gender is None else (gender,)
        given = [name for g in genders for name in people[f"given_{g}"]]
        surname = pick(self.rng, list(people["surnames"]))
        return self._unique(given, f" {surname}")

    def nationality_for(self, navy: str) -> str:
        """Return the people list that crews a navy (data/names.yaml: its ``people``, else
        its own id)."""
        assert self.rules.names is not None
        return self.rules.names.people_of(navy)


class Checker:
    """Checks an edited scenario or force file; every problem names its key path and line."""

    def __init__(self, doc: YamlDoc) -> None:
        self.doc = doc
        self.problems: list[str] = []
        self.located: list[tuple[str, str]] = []

    def fail(self, path: KeyPath, message: str) -> None:
        line = self.doc.line(path)
        where = describe_path(path)
        location = f"{self.doc.path}:{line}" if line else str(self.doc.path)
        self.problems.append(f"{location}: {where or 'top level'}: {message}")
        self.located.append((where, message))

    def raise_if_any(self) -> None:
        if self.problems:
            raise CheckedProblems(self.problems, self.located)


def resolution(rules: Rules, resolver_id: str, **inputs: Any) -> Any | None:
    """Return the resolution of `resolver_id` with `inputs` (seeded dice: only what does not
    hang on the dice is meant to be read off it), or None if the rules refuse the inputs."""
    resolver = get_resolver(resolver_id)
    try:
        return run(resolver, rules, parse_inputs(resolver, rules, inputs), 0)
    except ResolveInputError:
        return None
