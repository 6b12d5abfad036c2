"""The roster: a scenario's sides at a glance.

For each side its name, navy, commander (admiral, flagship, or what the ruleset has) and a
table of every unit with its key values (the columns, facts and tags are the ``roster``
section of the ruleset's spec), and the side's strength by the generator's own
measure (`RulesetContract.strength`, described by ``strength_measure``), under the
scenario's title and seed. A scenario given one side (a game-night packet's handout) prints
that side alone, in columns as wide as the whole scenario's (`EVERY_SIDE`). Without a
scenario the sheet is a blank roster to write a force into.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

from generator.loading import Rules
from generator.render import expressions
from generator.render.draw import text_width_mm
from generator.render.pagenumbers import CSS_PAGE_LABEL
from generator.render.paper import get_paper
from generator.render.sheets import page_boxes
from generator.render.specs import CONDITION, TEMPLATE, section
from generator.render.words import house_tables_line
from generator.ruleset import contract
from generator.ruleset.model import Scenario, Side, Unit, units_of
from generator.schema import OVERRIDE, override_words
from generator.schema.context import LINE_LENGTH, NAME_LENGTH
from generator.schema.nodes import Choice, Flag, Items, Record, Text, opt, req

EVERY_SIDE: Final = "every_side"
"""The key under which a scenario given one side (a packet's sheets for that side, and so its
handout) keeps every side of the scenario: read to lay that side's roster out as the other
sides' (the same column widths), never printed."""
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
    bonuses: str = ""  # whether the bonuses a side rolled are already in the ratings


def _printed(raw: Any, where: str, *, text_key: str = "value") -> Printed:
    """Return a value the roster prints, from its (checked) mapping in the spec."""
    return Printed(
        value=raw[text_key],
        where=where,
        label=str(raw.get("label", "")),
        condition=str(raw["if"]) if "if" in raw else None,
        blank=raw.get("blank", True),
    )


@cache
def section_schema(ruleset: str) -> Record:
    """Return the shape of a roster section (the same for every ruleset)."""
    shown_if = opt(CONDITION, "shown only where this holds")
    return Record(
        {
            "word": req(Text(NAME_LENGTH), 'what a side is called: "Strength of the fleet"'),
            "bonuses": opt(Text(LINE_LENGTH), "whether the ratings already hold the bonuses"),
            "facts": opt(
                Items(
                    Record(
                        {
                            "label": opt(Text(NAME_LENGTH), "its label"),
                            "value": req(TEMPLATE, "what it says"),
                            "if": shown_if,
                            "blank": opt(Flag(), "false: not written in on a blank roster"),
                        },
                        what="a mapping of label, value, if and blank",
                    ),
                    noun=("fact", "facts"),
                ),
                "about a side",
            ),
            "tags": opt(
                Items(
                    Record(
                        {"text": req(TEMPLATE, "what it says"), "if": shown_if},
                        what="a mapping of text and if",
                    ),
                    noun=("tag", "tags"),
                ),
                "beside a ship's name",
            ),
            "columns": opt(
                Items(
                    Record(
                        {
                            "title": opt(Text(NAME_LENGTH), "its heading"),
                            "value": req(TEMPLATE, "a ship's value"),
                            "class": opt(Choice(CLASSES, what="column class"), "(text if none)"),
                        },
                        what="a mapping of title, value and class",
                    ),
                    noun=("column", "columns"),
                ),
                "the units table's columns",
            ),
            "sub": opt(TEMPLATE, "a line under each ship's row"),
        },
        what="a roster section",
    )


@cache
def roster_spec(ruleset: str) -> RosterSpec:
    """Return the roster section of `ruleset`'s spec, checked."""
    raw, spec = section(ruleset, "roster")
    columns = tuple(
        (
            str(column.get("title", "")),
            str(column.get("class", "text")),
            _printed(column, spec.where("roster", "columns", index)),
        )
        for index, column in enumerate(raw.get("columns", ()))
    )
    sub = raw.get("sub")
    return RosterSpec(
        word=raw["word"],
        facts=tuple(
            _printed(fact, spec.where("roster", "facts", i))
            for i, fact in enumerate(raw.get("facts", ()))
        ),
        tags=tuple(
            _printed(tag, spec.where("roster", "tags", i), text_key="text")
            for i, tag in enumerate(raw.get("tags", ()))
        ),
        columns=columns,
        sub=_printed({"value": sub}, spec.where("roster", "sub")) if sub is not None else None,
        bonuses=" ".join(str(raw.get("bonuses", "")).split()),
    )


# how the units table sets each column's cells (templates/roster.html.j2): (font, pt)
CELL_FONTS = {
    "name": ("serif", 10.0),
    "num": ("sans", 8.0),
    "text": ("sans", 8.0),
    "small": ("sans", 7.0),
}
HEAD_FONT = ("sans-bold", 7.0)
TAG_FONT = ("sans-bold", 7.0)
CELL_PAD_MM = 1.6 + 0.2  # a cell's padding (0.8 mm a side) and its rules
INDEX_MM = 5.0  # the column of row numbers
SHORT_MM = 22.0  # a column no wider than this on one line is kept to one line if it can be
WORD = re.compile(r"[\s\u00ad]+")  # a heading breaks at a space or its soft hyphen


def _widths(text: str, font: tuple[str, float], wraps: bool) -> tuple[float, float]:
    """Return the least width `text` takes (its longest word, or all of it when it may
    not wrap) and its width on one line, in mm."""
    whole = text_width_mm(text.replace("\u00ad", ""), *font)
    if not wraps:
        return whole, whole
    words = [w for w in WORD.split(text) if w]
    return max((text_width_mm(w, *font) for w in words), default=0.0), whole


def column_widths(
    columns: list[Column], sides: list[dict[str, Any]], width_mm: float
) -> list[float]:
    """Return the width of every column of the units tables, in mm (the row numbers'
    first), the same for every side of the sheet so that its tables line up: each
    column has room for its longest word (a number column for its longest value) and
    shares what is left as its longest line asks, as a browser's automatic layout would
    for one table holding every side's ships."""
    least, most = [], []
    for index, (title, cls) in enumerate(columns):
        low, high = _widths(title, HEAD_FONT, wraps=True)
        for side in sides:
            for unit in side["units"]:
                if index == 0:
                    cell_low, cell_high = _widths(unit["name"], CELL_FONTS["name"], wraps=True)
                    if unit["tags"]:
                        tags = ", ".join(unit["tags"])
                        tag_low, tag_high = _widths(tags, TAG_FONT, wraps=True)
                        cell_low = max(cell_low, tag_low)
                        cell_high += text_width_mm(" ", *CELL_FONTS["name"]) + tag_high
                else:
                    cell = str(unit["cells"][index - 1])
                    cell_low, cell_high = _widths(cell, CELL_FONTS[cls], wraps=cls != "num")
                low, high = max(low, cell_low), max(high, cell_high)
        least.append(low + CELL_PAD_MM)
        most.append(high + CELL_PAD_MM)
    room = width_mm - INDEX_MM
    if sum(most) <= room:  # every column on one line: the spare shared as they ask
        widths = [w + (room - sum(most)) * w / sum(most) for w in most]
    elif sum(least) < room:
        # a short column ("3rd Class") keeps to one line if the long ones can still have
        # their longest words; the long ones share what is over as they ask
        short = [hi <= SHORT_MM for hi in most]
        if sum(hi if s else lo for s, lo, hi in zip(short, least, most, strict=True)) > room:
            short = [False] * len(most)
        fixed = sum(hi for s, hi in zip(short, most, strict=True) if s)
        low = sum(lo for s, lo in zip(short, least, strict=True) if not s)
        high = sum(hi for s, hi in zip(short, most, strict=True) if not s)
        over = (room - fixed - low) / (high - low)
        widths = [
            hi if s else lo + (hi - lo) * over for s, lo, hi in zip(short, least, most, strict=True)
        ]
    else:  # too narrow even for the longest words: each as it asks, scaled to fit
        widths = [w * room / sum(least) for w in least]
    return [INDEX_MM, *(round(w, 2) for w in widths)]


def _row(spec: RosterSpec, ship: Unit, navy: Callable[[Any], str]) -> Row:
    scope = {"ship": ship, "navy": navy}
    tags = [tag.text(**scope) for tag in spec.tags if tag.shown(**scope)]
    kept = ship.get(OVERRIDE)
    if isinstance(kept, list) and kept:
        # values a GM set against the rules' (generator.schema.override): said, not hidden
        tags.append(f"set by the GM: {', '.join(override_words(kept))}")
    return {
        "name": str(ship["name"]),
        "tags": tags,
        "cells": [value.text(**scope) for _, _, value in spec.columns],
        "sub": spec.sub.text(**scope) if spec.sub else "",
    }


def _side_facts(
    spec: RosterSpec, side: Side, ships: list[Any], navy: Callable[[Any], str]
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


def context(rules: Rules, data: Scenario | None, paper: str, ruleset: str | None) -> dict[str, Any]:
    assert ruleset is not None
    spec = roster_spec(ruleset)
    columns = [("Ship", "name"), *((title, cls) for title, cls, _ in spec.columns)]
    word = spec.word
    gen = contract(ruleset)
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
                "rows": BLANK_ROWS[get_paper(paper).name],
            }
        )
        return {
            "scenario": None,
            "ruleset_title": rules.rulesets[ruleset].title,
            "columns": columns,
            "sides": sides,
            "word": word,
            "measure": gen.strength_measure,
            "bonuses": spec.bonuses,
            "ratio": None,
            "house_line": "",
            "widths": None,
            "page_label_css": CSS_PAGE_LABEL,
        }
    strengths = []
    for side in data.get("sides", []):
        strength = gen.strength(side)
        strengths.append(strength)
        navy = str(side.get("navy", ""))
        units = units_of(side)
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
    # the columns are measured on every side of the scenario, also for a sheet that prints
    # one side (in a packet): each side's roster then lines up with the others'
    every = data.get(EVERY_SIDE)
    measured = every if isinstance(every, list) and every else data.get("sides", [])
    tables = [{"units": [_row(spec, u, navy_name) for u in units_of(s)]} for s in measured]
    left, _, right, _ = page_boxes("roster", paper)["art"]
    return {
        "scenario": data,
        "ruleset_title": rules.rulesets[ruleset].title,
        "columns": columns,
        "sides": sides,
        "word": word,
        "measure": gen.strength_measure,
        "bonuses": spec.bonuses,
        "ratio": ratio,
        "house_line": house_tables_line(rules, data.get("house_tables", [])),
        "widths": column_widths(columns, tables, right - left),
        "page_label_css": CSS_PAGE_LABEL,
    }
