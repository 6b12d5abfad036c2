"""The ``quick-reference`` section of a ruleset's spec: the order and grouping of the sheet's
tables (`Section`), which structured fields of a table print as columns, the odds columns
and odds by a modifier's value (`OddsBy`), and the body size (`Layout`), checked.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from generator.render.specs import section, table_key
from generator.schema.context import NAME_LENGTH, Ctx
from generator.schema.nodes import (
    Check,
    Flag,
    Items,
    Number,
    OneOf,
    Record,
    Text,
    Whole,
    opt,
    req,
)
from generator.schema.nodes import Mapping as Keyed
from generator.yamlfile import KeyPath

# the body sizes a spec may ask for, in pt (nothing on paper under 7 pt), and the size of
# a spec that does not say
MIN_FONT_PT = 7.0
MAX_FONT_PT = 9.0
DEFAULT_FONT_PT = 8.0
# a column of the three-column layout (63 mm on A4, the narrower paper) holds about this
# many characters of 7 pt text
COLUMN_CHARS = 49


@dataclass(frozen=True)
class Section:
    """A heading of the sheet and the keys of the tables under it, in printed order.

    A ``gm`` section holds tables players do not consult in play: tables that only set up a
    game (the scenario generator's house tables, character generation) or that restate a
    printed table as the dice read it. It is printed on the Notes for the GM instead.
    """

    title: str
    tables: tuple[str, ...]
    gm: bool = False


@dataclass(frozen=True)
class OddsBy:
    """Odds of a modified roll table for each value of one modifier (the spec's ``odds_by``).

    Instead of the chance of each row on the bare dice, the table prints a column per value
    v: the chance of each row on the dice plus the modifier taken v times, no other modifier.

    Attributes:
        modifier: ``(modifiers table key, modifier id)`` in the same ruleset; its value is a
            whole number (per point of something).
        heading: the word over each column, before the value ("Cannon" prints "Cannon 3").
        values: the values, when the spec lists them.
        field_name: else the values run from the lowest to the highest `field_name` of the
            cells of table `source`...
        source: ...that table's key...
        plus: ...the highest raised by the largest ``effect`` on it in each of these
            tables (a table listed twice counts twice: a second roll on it).
    """

    modifier: tuple[str, str]
    heading: str
    values: tuple[int, ...] = ()
    field_name: str = ""
    source: str = ""
    plus: tuple[str, ...] = ()


@dataclass(frozen=True)
class Layout:
    """A ruleset's quick reference: the ``quick-reference`` section of its spec.

    Attributes:
        sections: every table of the ruleset exactly once (the tests check it), the turn
            and the rules of play in play order, as on the seeds' own reference sheets;
            the ``gm`` ones go on the Notes for the GM.
        columns: by table key, the columns of a table whose cells are mappings: field
            names, "field=heading" to print another heading; "result" (or "printed",
            "text") is the cell's own text. A one-axis table not listed prints that text
            or, if its cells have none, every plain field; a two-axis table listed prints
            the fields in each cell, joined by "/".
        odds_columns: by table key, for a two-axis table whose columns are a roll: extra
            columns (heading, field), each the chance on that roll that a row's cell (as
            its cell format parses it) has the field set.
        odds_by: by table key, for a one-axis table on a modified roll: its odds printed
            per value of one modifier instead of on the bare dice (`OddsBy`).
        font_size: the body size in pt (7 to 9) the sheet is set at, unless its last page
            would then be mostly empty: `body_size` sets it smaller, down to 7 pt, where
            that saves the page, else larger, up to 9 pt, to fill it.
    """

    sections: tuple[Section, ...]
    columns: Mapping[str, tuple[str, ...]]
    odds_columns: Mapping[str, tuple[tuple[str, str], ...]]
    odds_by: Mapping[str, OddsBy]
    font_size: float = DEFAULT_FONT_PT

    @property
    def column_chars(self) -> float:
        """The characters of body text a column of the three-column layout holds."""
        return COLUMN_CHARS * MIN_FONT_PT / self.font_size


def _odds_modifier(ruleset: str) -> Check:
    """The rule that an ``odds_by`` names a modifier of a modifiers table of `ruleset`."""

    def run(ctx: Ctx, data: dict[str, Any], path: KeyPath) -> None:
        table, _, modifier = str(data["modifier"]).partition(".")
        tables = ctx.rules.rulesets[ruleset].tables
        if not table or not modifier:
            ctx.fail((*path, "modifier"), "expected 'modifiers-table.modifier-id'")
        elif table not in tables or tables[table].kind != "modifiers":
            ctx.fail((*path, "modifier"), f"'{table}' is not a modifiers table of {ruleset}")
        elif modifier not in (mod.id for mod in tables[table].modifiers):
            ctx.fail((*path, "modifier"), f"{ruleset}.{table} has no modifier '{modifier}'")

    return Check("`modifier` names a modifier of a modifiers table", run, ("modifier",))


@cache
def section_schema(ruleset: str) -> Record:
    """Return the shape of `ruleset`'s quick-reference section (the tables it names are
    the ruleset's)."""
    table = table_key(ruleset)
    tables = Items(table, minimum=1, noun=("table", "tables"))
    names = Items(Text(NAME_LENGTH), minimum=1, noun=("field", "fields"))
    odds_by = Record(
        {
            "modifier": req(Text(NAME_LENGTH), "'modifiers-table.modifier-id', a whole number"),
            "heading": req(Text(NAME_LENGTH), "the word over each column, before the value"),
            "values": req(
                OneOf(
                    (
                        Items(Whole(), minimum=1, noun=("value", "values")),
                        Record(
                            {
                                "table": req(table, "the table whose cells give the values"),
                                "field": req(Text(NAME_LENGTH), "the field of its cells"),
                                "plus": opt(tables, "tables whose largest effect raises it"),
                            },
                            what="a mapping of table, field and plus",
                        ),
                    )
                ),
                "the modifier's values, or where the rules give them",
            ),
        },
        (_odds_modifier(ruleset),),
        what="a mapping of modifier, heading and values",
    )
    return Record(
        {
            "font_size": opt(
                Number(MIN_FONT_PT, MAX_FONT_PT, why="pt"),
                f"the body's size in pt (else {DEFAULT_FONT_PT:g})",
            ),
            "sections": req(
                Items(
                    Record(
                        {
                            "title": req(Text(NAME_LENGTH), "its heading"),
                            "tables": req(tables, "in printed order"),
                            "gm": opt(Flag(), "on the Notes for the GM instead"),
                        },
                        what="a mapping of title, tables and gm",
                    ),
                    minimum=1,
                    noun=("section", "sections"),
                ),
                "every table of the ruleset exactly once, in play order",
            ),
            "columns": opt(
                Keyed(names, keys=table),
                "by table, the fields of its cells printed as columns ('field=heading')",
            ),
            "odds_columns": opt(
                Keyed(
                    Items(
                        Record(
                            {"head": req(Text(NAME_LENGTH)), "field": req(Text(NAME_LENGTH))},
                            what="a mapping of head and field",
                        ),
                        minimum=1,
                        noun=("column", "columns"),
                    ),
                    keys=table,
                ),
                "by table, extra columns: the chance that a row's cell has the field set",
            ),
            "odds_by": opt(
                Keyed(odds_by, keys=table), "by table, its odds per value of one modifier"
            ),
        },
        what="a quick-reference section",
    )


@cache
def layout_of(ruleset: str) -> Layout:
    """Return the quick-reference section of `ruleset`'s spec, checked."""
    raw, _ = section(ruleset, "quick-reference")
    return Layout(
        tuple(
            Section(str(entry["title"]), tuple(entry["tables"]), gm=bool(entry.get("gm", False)))
            for entry in raw["sections"]
        ),
        {key: tuple(names) for key, names in raw.get("columns", {}).items()},
        {
            key: tuple((str(e["head"]), str(e["field"])) for e in entries)
            for key, entries in raw.get("odds_columns", {}).items()
        },
        {key: _odds_by(entry) for key, entry in raw.get("odds_by", {}).items()},
        float(raw.get("font_size", DEFAULT_FONT_PT)),
    )


def _odds_by(raw: Mapping[str, Any]) -> OddsBy:
    """Return one entry of a spec's ``odds_by`` (checked), read."""
    table, _, modifier = str(raw["modifier"]).partition(".")
    values, heading = raw["values"], str(raw["heading"])
    if isinstance(values, list):
        return OddsBy((table, modifier), heading, values=tuple(values))
    return OddsBy(
        (table, modifier),
        heading,
        field_name=str(values["field"]),
        source=str(values["table"]),
        plus=tuple(values.get("plus", ())),
    )
