"""The interface each ruleset's generator implements, and the registry of them."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from generator.errors import InputError, QuartermasterError
from generator.generate.common import Names
from generator.loading import Rules
from generator.ruleset import Officer, contract
from generator.ruleset import register as register_implementation
from generator.ruleset.logcard import Log
from generator.ruleset.model import Character, Setting, Ship, Side
from generator.ruleset.navies import FLAGS_OF_CONVENIENCE, year_span
from generator.schema.assembly import RulesetSchema, register_schema
from generator.yamlfile import KeyPath


class RulesetGenerator(ABC):
    """Rolls one side's force and the setting of a scenario for one ruleset."""

    ruleset: ClassVar[str]
    # the key of a side's list of units: "ships", or "characters" for duel
    units: ClassVar[str] = "ships"
    # one of them, in words ("ship", "duellist")
    unit_word: ClassVar[str] = "ship"
    # whether they are people, each with a card of their own on the briefing (a duel's
    # duellists), rather than ships
    people: ClassVar[bool] = False
    # how a side's strength is measured for --balanced, in words for the sheet and README
    strength_measure: ClassVar[str]
    # data tables marked house: true that this generator rolls on
    house_tables: ClassVar[tuple[str, ...]] = ()
    # the file format of its fleets and scenarios, where the ruleset declares it here
    # rather than in its own module of generator.schema (registered with the generator)
    schema: ClassVar[RulesetSchema | None] = None
    # the unit fields a terminal summary shows (None: every plain field)
    summary_fields: ClassVar[tuple[str, ...] | None] = None
    # whether a scenario is set in a year (rolled first when not asked, so that ship names,
    # navies and their titles fit it); a duel's people are not dated
    dated: ClassVar[bool] = True
    # whether the two sides are alike (a side rolled against a given fleet has as many
    # ships); False where they differ by the rules (convoy: the convoy, then raiders
    # rolled at the rules' own size)
    mirrored: ClassVar[bool] = True

    @abstractmethod
    def roll_side(
        self, rules: Rules, rng: random.Random, names: Names, navy: str, ships: int | None = None
    ) -> Side:
        """Return one side's force as plain data (a dict with ``self.units``).

        Args:
            ships: the number of ships the GM asked for (rules that change a fleet's size,
                such as tactical's Diplomat, still do); None for the rules' size or roll.
        """

    @abstractmethod
    def strength(self, side: Side) -> float:
        """Return the side's strength by `strength_measure`."""

    @abstractmethod
    def roll_setting(
        self, rules: Rules, rng: random.Random, sides: list[Side], names: Names
    ) -> Setting:
        """Return wind, weather, map, setup, victory and special rules as plain data
        (`names` gives a place that fits the sides' navies and `names.year`)."""

    def navies(self, names: Names) -> list[str]:
        """Return the navies this ruleset's sides can sail under (in `names.year`, when
        set), sorted: every navy with ship names but the merchants and pirates."""
        return [n for n in names.navies() if n not in FLAGS_OF_CONVENIENCE]

    def years(self, rules: Rules) -> tuple[int, int]:
        """Return the first and last year a scenario of this ruleset can be set in."""
        return year_span(rules)

    def size_departure(self, rules: Rules, sides: list[Side], asked: tuple[int, ...]) -> str | None:
        """Return the briefing's sentence saying how the sides' sizes depart from the size
        the rules fix, or None (the rules roll the size, or none was asked)."""
        return None

    def side_name(self, names: Names, navy: str) -> str:
        return f"{names.navy_title(navy)} squadron"

    def ship_log(self, log: Log, rules: Rules, ship: Ship | None, side: Side | None) -> None:
        """Fill `log` with what a ship's log of this ruleset holds: its particulars, the
        numbers worked out from her ratings through the resolvers (`Log.figure`), her
        ratings as rows of boxes to cross off with a tick where the rules say something
        happens and what the last box brings, the states its rules track as check boxes
        (`ship` and `side` None: a blank log to write a ship into, its rows as long as the
        largest rating this generator can give)."""
        raise InputError(f"{self.ruleset} has no ship's log")

    def ship_log_notes(self, rules: Rules) -> list[str]:
        """Return the notes printed under a page of this ruleset's ship's logs."""
        return []

    def derived(
        self, rules: Rules, side: Mapping[str, Any], unit: Mapping[str, Any]
    ) -> dict[KeyPath, Any]:
        """Return the values the rules derive for `unit` of `side`, by key path inside the
        unit (``("ratings", "hull")``): what the schema's checks of derived values expect
        (ratings from a class and traits, markers from a kind and size, hit points ...).
        Inputs the rules do not know (a class there is not) derive nothing; so does a
        ruleset whose units derive nothing (this default)."""
        return {}

    def officers(self, unit: Ship) -> list[Officer]:
        """Return the people aboard `unit` with sheets of their own in a packet: none."""
        return []

    def roll_character(self, rules: Rules, seed: int) -> Character:
        """Return one person rolled from `seed`, for a ruleset whose units are people."""
        raise InputError(f"{self.ruleset} has no characters of its own")

    def read_character(self, path: Path, rules: Rules) -> Character:
        """Return an edited person read from `path` and checked."""
        raise InputError(f"{self.ruleset} has no characters of its own")


def register(cls: type[RulesetGenerator]) -> type[RulesetGenerator]:
    """Class decorator: make a ruleset's generator available (`generator.ruleset.contract`),
    and the schema it declares (`generator.schema.schema_for`)."""
    register_implementation(cls())
    if cls.schema is not None:
        register_schema(cls.schema)
    return cls


def get_generator(ruleset: str) -> RulesetGenerator:
    """Return the generator of `ruleset` (importing this package registers every one), or
    raise naming the rulesets there are."""
    found = contract(ruleset)
    if not isinstance(found, RulesetGenerator):
        raise QuartermasterError(f"ruleset '{ruleset}' is registered without a generator")
    return found
