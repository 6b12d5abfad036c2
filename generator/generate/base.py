"""The interface each ruleset's generator implements, and the registry of them."""

from __future__ import annotations

import importlib
import random
from abc import ABC, abstractmethod
from typing import Any, ClassVar

from generator.errors import InputError
from generator.generate.common import Checker, Names
from generator.loading import Rules
from generator.loading.yamlfile import KeyPath


class RulesetGenerator(ABC):
    """Rolls one side's force and the setting of a scenario for one ruleset."""

    ruleset: ClassVar[str]
    # the key of a side's list of units: "ships", or "characters" for duel
    units: ClassVar[str] = "ships"
    # how a side's strength is measured for --balanced, in words for the sheet and README
    strength_measure: ClassVar[str]
    # data tables marked house: true that this generator rolls on
    house_tables: ClassVar[tuple[str, ...]] = ()
    # the unit fields a terminal summary shows (None: every plain field)
    summary_fields: ClassVar[tuple[str, ...] | None] = None

    @abstractmethod
    def roll_side(
        self, rules: Rules, rng: random.Random, names: Names, navy: str
    ) -> dict[str, Any]:
        """Return one side's force as plain data (a dict with ``self.units``)."""

    @abstractmethod
    def strength(self, side: dict[str, Any]) -> float:
        """Return the side's strength by `strength_measure`."""

    @abstractmethod
    def roll_setting(
        self, rules: Rules, rng: random.Random, sides: list[dict[str, Any]]
    ) -> dict[str, Any]:
        """Return wind, weather, map, setup, victory and special rules as plain data."""

    @abstractmethod
    def check_side(self, checker: Checker, rules: Rules, side: Any, path: KeyPath) -> None:
        """Check an edited side; report each problem through `checker`."""

    def check_setting(self, checker: Checker, rules: Rules, scenario: dict[str, Any]) -> None:  # noqa: B027
        """Check an edited scenario's setting (wind, map ...); optional."""

    def side_name(self, names: Names, navy: str) -> str:
        return f"{names.navy_title(navy)} squadron"


_MODULES = {
    "tactical": "tactical",
    "flob": "flob",
    "high-seas": "high_seas",
    "impulse": "impulse",
    "convoy": "convoy",
    "duel": "duel",
}
_REGISTRY: dict[str, RulesetGenerator] = {}


def register(cls: type[RulesetGenerator]) -> type[RulesetGenerator]:
    """Class decorator: make a ruleset's generator available."""
    _REGISTRY[cls.ruleset] = cls()
    return cls


def get_generator(ruleset: str) -> RulesetGenerator:
    """Return the generator of `ruleset`, or raise naming the ones there are."""
    module = _MODULES.get(ruleset)
    if module is not None and ruleset not in _REGISTRY:
        try:
            importlib.import_module(f"generator.generate.{module}")
        except ModuleNotFoundError as exc:
            if exc.name != f"generator.generate.{module}":
                raise
    if ruleset not in _REGISTRY:
        for name in _MODULES.values():
            try:
                importlib.import_module(f"generator.generate.{name}")
            except ModuleNotFoundError as exc:
                if exc.name != f"generator.generate.{name}":
                    raise
        known = ", ".join(r for r in _MODULES if r in _REGISTRY)
        raise InputError(f"no generator for ruleset '{ruleset}' (known: {known})")
    return _REGISTRY[ruleset]
