"""The ``quick-reference`` section of a ruleset's spec: the order and grouping of the sheet's
tables (`Section`), which structured fields of a table print as columns, the odds columns
and odds by a modifier's value (`OddsBy`), and the body size (`Layout`), checked.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from generator.rulesets import SpecError, sheet_section

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


def _names(raw: Any, where: str) -> tuple[str, ...]:
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
        raise SpecError(f"{where}: expected a list of names")
    return tuple(raw)


@cache
def layout_of(ruleset: str) -> Layout:
    """Return the quick-reference section of `ruleset`'s spec, checked."""
    raw, spec = sheet_section(ruleset, "quick-reference")
    keys = {"sections", "columns", "odds_columns", "odds_by", "font_size"}
    if set(raw) - keys or not raw.get("sections"):
        raise SpecError(
            f"{spec.where('quick-reference')}: a quick reference has sections, and may have "
            "columns, odds_columns, odds_by and font_size"
        )
    sections = []
    for i, section in enumerate(raw["sections"]):
        where = spec.where("quick-reference", "sections", i)
        if (
            not isinstance(section, dict)
            or not {"title", "tables"} <= set(section) <= {"title", "tables", "gm"}
            or not isinstance(section.get("gm", False), bool)
        ):
            raise SpecError(f"{where}: a section has a title and tables, and may say gm: true")
        sections.append(
            Section(
                str(section["title"]),
                _names(section["tables"], where),
                gm=bool(section.get("gm", False)),
            )
        )
    columns = {
        key: _names(names, spec.where("quick-reference", "columns", key))
        for key, names in (raw.get("columns") or {}).items()
    }
    odds: dict[str, tuple[tuple[str, str], ...]] = {}
    for key, entries in (raw.get("odds_columns") or {}).items():
        where = spec.where("quick-reference", "odds_columns", key)
        if not isinstance(entries, list) or not all(
            isinstance(e, dict) and set(e) == {"head", "field"} for e in entries
        ):
            raise SpecError(f"{where}: expected a list of {{head, field}}")
        odds[key] = tuple((str(e["head"]), str(e["field"])) for e in entries)
    odds_by = {
        key: _odds_by(entry, spec.where("quick-reference", "odds_by", key))
        for key, entry in (raw.get("odds_by") or {}).items()
    }
    size = raw.get("font_size", DEFAULT_FONT_PT)
    if (
        not isinstance(size, int | float)
        or isinstance(size, bool)
        or not MIN_FONT_PT <= size <= MAX_FONT_PT
    ):
        raise SpecError(
            f"{spec.where('quick-reference', 'font_size')}: font_size: expected a size in pt "
            f"from {MIN_FONT_PT:g} to {MAX_FONT_PT:g}"
        )
    return Layout(tuple(sections), columns, odds, odds_by, float(size))


def _odds_by(raw: Any, where: str) -> OddsBy:
    """Return one entry of a spec's ``odds_by``, checked."""
    if not isinstance(raw, dict) or set(raw) != {"modifier", "heading", "values"}:
        raise SpecError(f"{where}: expected modifier, heading and values")
    table, dot, modifier = str(raw["modifier"]).partition(".")
    if not dot or not table or not modifier:
        raise SpecError(f"{where}: modifier: expected 'modifiers-table.modifier-id'")
    values = raw["values"]
    heading = str(raw["heading"])
    if isinstance(values, list):
        if not values or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            raise SpecError(f"{where}: values: expected a list of whole numbers")
        return OddsBy((table, modifier), heading, values=tuple(values))
    if not isinstance(values, dict) or not {"table", "field"} <= set(values) <= {
        "table",
        "field",
        "plus",
    }:
        raise SpecError(
            f"{where}: values: expected a list of whole numbers, or table, field and "
            "optionally plus"
        )
    plus = _names(values.get("plus") or [], f"{where}: values: plus")
    return OddsBy(
        (table, modifier),
        heading,
        field_name=str(values["field"]),
        source=str(values["table"]),
        plus=plus,
    )
