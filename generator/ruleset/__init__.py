"""The ruleset contract: what the layers above the generators need of a ruleset's code.

A ruleset's implementation (its generator, `generator.generate.base.RulesetGenerator`)
fulfils `RulesetContract` and is registered here when `generator.generate` is imported
(the package imports the module each spec names). Render, pdf and the application layer
ask `contract(ruleset)` for it and so never import the generators themselves.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from generator.errors import InputError
from generator.rulesets import ruleset_ids

if TYPE_CHECKING:
    from generator.loading import Rules
    from generator.ruleset.logcard import Log
    from generator.ruleset.model import Character, Person, Ship, Side


@dataclass(frozen=True)
class Officer:
    """A person aboard a unit who gets sheets of their own in a packet (a high-seas ship's
    Captain): their data, as a character sheet takes it, and who they are, in words
    ("Captain Ann Bonny")."""

    person: Person
    title: str


class RulesetContract(Protocol):
    """A ruleset's implementation, as sheets, packets and the front ends use it."""

    @property
    def ruleset(self) -> str:
        """The ruleset's id (``tactical``)."""

    @property
    def units(self) -> str:
        """The key of a side's list of units: ``ships``, or ``characters`` for a duel."""

    @property
    def unit_word(self) -> str:
        """One unit, in words (``ship``, ``duellist``)."""

    @property
    def people(self) -> bool:
        """Whether the units are people, each with a card of their own on the briefing
        (a duel's duellists), rather than ships."""

    @property
    def strength_measure(self) -> str:
        """How a side's strength is measured, in words for the roster and the briefing."""

    @property
    def house_tables(self) -> tuple[str, ...]:
        """The tables marked ``house: true`` that the generator rolls on."""

    @property
    def dated(self) -> bool:
        """Whether a scenario is set in a year (a duel's people are not dated)."""

    def strength(self, side: Side) -> float:
        """Return the side's strength by `strength_measure`."""

    def years(self, rules: Rules) -> tuple[int, int]:
        """Return the first and last year a scenario of this ruleset can be set in."""

    def ship_log(self, log: Log, rules: Rules, ship: Ship | None, side: Side | None) -> None:
        """Fill `log` with what a ship's log of this ruleset holds (`ship` and `side` None:
        a blank log); raise InputError if the ruleset prints no ship's logs."""

    def ship_log_notes(self, rules: Rules) -> list[str]:
        """Return the notes printed under a page of this ruleset's ship's logs."""

    def officers(self, unit: Ship) -> list[Officer]:
        """Return the people aboard `unit` who get sheets of their own (the packet's
        ``officers`` section), in order; none where the units carry no such people."""

    def roll_character(self, rules: Rules, seed: int) -> Character:
        """Return one person rolled from `seed` (InputError: the units are not people)."""

    def read_character(self, path: Path, rules: Rules) -> Character:
        """Return an edited person read from `path` and checked."""


_IMPLEMENTATIONS: dict[str, RulesetContract] = {}


def register(implementation: RulesetContract) -> None:
    """Make `implementation` the one `contract(implementation.ruleset)` returns."""
    _IMPLEMENTATIONS[implementation.ruleset] = implementation


def registered(ruleset: str) -> bool:
    """Return whether an implementation of `ruleset` has been registered."""
    return ruleset in _IMPLEMENTATIONS


def contract(ruleset: str) -> RulesetContract:
    """Return the implementation of `ruleset`.

    Raises:
        InputError: `ruleset` is no ruleset (the message names those there are).
        RuntimeError: it is one, but `generator.generate` (which registers every ruleset's
            implementation) has not been imported: a fault of the program, not the input.
    """
    known = ruleset_ids()
    if ruleset not in known:
        raise InputError(f"no generator for ruleset '{ruleset}' (known: {', '.join(known)})")
    try:
        return _IMPLEMENTATIONS[ruleset]
    except KeyError:
        raise RuntimeError(
            f"no implementation of ruleset '{ruleset}' is registered: import "
            "generator.generate first (importing it registers every ruleset's generator)"
        ) from None
