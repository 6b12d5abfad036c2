"""The roster: a scenario's sides at a glance.

For each side its name, navy, commander (admiral, flagship, or what the ruleset has) and a
table of every unit with its key values (the columns, facts and tags are the ``roster``
section of the ruleset's spec), and the side's strength by the generator's own
measure (`RulesetGenerator.strength`, described by ``strength_measure``), under the
scenario's title and seed. A scenario given one side (a game-night packet's handout) prints
that side alone. Without a scenario the sheet is a blank roster to write a force into.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from generator.generate.base import get_generator
from generator.loading import Rules
from generator.render import expressions
from generator.render.sheets import PAPERS
from generator.rulesets import SpecError, sheet_section

BLANK_ROWS = {"a4": 16, "letter": 14}  # unit rows of a blank roster (one side, one page)
CLASSES = ("name", "num", "text", "small")  # a column's CSS class in the template

Column = tuple[str, str]  # (title, CSS class: name, num, text or small)
Row = dict[str, Any]


def strength_text(value: float) -> str:
    """A side's strength as the sheets print it: a whole number (a half rounds up), the
    same on the roster and the briefing."""
    return str(math.floor(value + 0.5))


@dataclass(frozen=True)
class Printed:
    """A value the roster prints: a Jinja text, shown when `condition` holds (if given)."""

    value: str
    where: str
    label: str = ""
    condition: str | None = None
    blank: bool = True  # a fact: written in on a blank roster

    def shown(self, **context: Any) -> bool:
        return self.condition is None or expressions.holds(self.condition, self.where, **context)

    def text(self, **context: Any) -> str:
        return expressions.text(self.value, self.where, **context)


@dataclass(frozen=True)
class RosterSpec:
    """What a ruleset's roster shows: from the ``roster`` section of its spec."""

    word: str  # what a side is called: "Strength of the fleet"
    facts: tuple[Printed, ...]  # about a side (label, value)
    tags: tuple[Printed, ...]  # beside a ship's name
    columns: tuple[tuple[str, str, Printed], ...]  # (title, class, value)
    sub: Printed | None  # a line under a ship's row


def _printed(raw: Any, where: str, *, text_key: str = "value", label: bool = False) -> Printed:
    keys = {text_key, "if"} | ({"label", "blank"} if label else set())
    if not isinstance(raw, dict) or not isinstance(raw.get(text_key), str) or set(raw) - keys:
        raise SpecError(f"{where}: expected a mapping of {', '.join(sorted(keys))}")
    return Printed(
        value=raw[text_key],
        where=where,
        label=str(raw.get("label", "")),
        condition=str(raw["if"]) if "if" in raw else None,
        blank=raw.get("blank", True) is not False,
    )


@cache
def roster_spec(ruleset: str) -> RosterSpec:
    """Return the roster section of `ruleset`'s spec, checked."""
    raw, spec = sheet_section(ruleset, "roster")
    allowed = {"word", "facts", "tags", "columns", "sub"}
    if set(raw) - allowed or not isinstance(raw.get("word"), str):
        raise SpecError(f"{spec.where('roster')}: a roster has a 'word' and {', '.join(allowed)}")
    columns = []
    for index, column in enumerate(raw.get("columns") or []):
        where = spec.where("roster", "columns", index)
        if not isinstance(column, dict) or column.get("class", "text") not in CLASSES:
            raise SpecError(f"{where}: a column has a title, a value and a class ({CLASSES})")
        cell = {"value": column.get("value")}
        columns.append(
            (str(column.get("title", "")), str(column.get("class", "text")), _printed(cell, where))
        )
    sub = raw.get("sub")
    return RosterSpec(
        word=raw["word"],
        facts=tuple(
            _printed(fact, spec.where("roster", "facts", i), label=True)
            for i, fact in enumerate(raw.get("facts") or [])
        ),
        tags=tuple(
            _printed(tag, spec.where("roster", "tags", i), text_key="text")
            for i, tag in enumerate(raw.get("tags") or [])
        ),
        columns=tuple(columns),
        sub=_printed({"value": sub}, spec.where("roster", "sub")) if sub is not None else None,
    )


def _row(spec: RosterSpec, ship: dict[str, Any], navy: Callable[[Any], str]) -> Row:
    scope = {"ship": ship, "navy": navy}
    return {
        "name": str(ship["name"]),
        "tags": [tag.text(**scope) for tag in spec.tags if tag.shown(**scope)],
        "cells": [value.text(**scope) for _, _, value in spec.columns],
        "sub": spec.sub.text(**scope) if spec.sub else "",
    }


def _side_facts(
    spec: RosterSpec, side: dict[str, Any], ships: list[Any], navy: Callable[[Any], str]
) -> list[tuple[str, str]]:
    flagship = next((s for s in ships if isinstance(s, dict) and s.get("flagship")), None)
    scope = {"side": side, "ships": ships, "flagship": flagship, "navy": navy}
    facts = []
    for fact in spec.facts:
        if fact.shown(**scope):
            value = fact.text(**scope)
            if value:
                facts.append((fact.label, value))
    return facts


def context(
    rules: Rules, data: dict[str, Any] | None, paper: str, ruleset: str | None
) -> dict[str, Any]:
    assert ruleset is not None
    spec = roster_spec(ruleset)
    columns = [("Ship", "name"), *((title, cls) for title, cls, _ in spec.columns)]
    word = spec.word
    gen = get_generator(ruleset)
    navies = {k: str(v["title"]) for k, v in rules.names.navies.items()} if rules.names else {}
    short = {k: v.split(" (")[0] for k, v in navies.items()}

    def navy_name(key: Any) -> str:
        return short.get(str(key), "allied")

    sides: list[dict[str, Any]] = []
    if data is None:
        sides.append(
            {
                "name": None,
                "navy": "",
                "facts": [(fact.label, None) for fact in spec.facts if fact.blank],
                "strength": None,
                "rows": BLANK_ROWS[PAPERS[paper]["name"]],
            }
        )
        return {
            "scenario": None,
            "ruleset_title": rules.rulesets[ruleset].title,
            "columns": columns,
            "sides": sides,
            "word": word,
            "measure": gen.strength_measure,
            "ratio": None,
            "house_tables": [],
        }
    strengths = []
    for side in data.get("sides", []):
        strength = gen.strength(side)
        strengths.append(strength)
        navy = str(side.get("navy", ""))
        units = side.get(gen.units, [])
        sides.append(
            {
                "name": str(side.get("name", "")),
                "navy": navies.get(navy, navy.capitalize()),
                "facts": _side_facts(spec, side, list(units), navy_name),
                "strength": strength_text(strength),
                "count": len(units),
                "units": [_row(spec, unit, navy_name) for unit in units],
            }
        )
    ratio = None
    if len(strengths) == 2 and max(strengths) > 0:
        ratio = f"{round(100 * min(strengths) / max(strengths))} %"
    return {
        "scenario": data,
        "ruleset_title": rules.rulesets[ruleset].title,
        "columns": columns,
        "sides": sides,
        "word": word,
        "measure": gen.strength_measure,
        "ratio": ratio,
        "house_tables": [str(t) for t in data.get("house_tables", [])],
    }
