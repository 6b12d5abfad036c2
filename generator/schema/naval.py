"""The parts of a naval file format the rulesets share: a navy, a wind's bearing, a wind
and a weather rolled on their tables, a map of squares or hexes with the columns the sides
start in, and one flagship a side.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping as MappingType
from dataclasses import dataclass, field
from typing import Any

from generator.loading import Rules
from generator.schema.context import LINE_LENGTH, Ctx, found, listing, quoted
from generator.schema.nodes import Check, Choice, Field, Items, Node, Record, Text, Whole, req
from generator.schema.tables import by_result, die_range, follows, navies, results, values
from generator.yamlfile import KeyPath

DEGREES = Whole(0, 359)
NAVY = Choice(navies, "navy", docs="a navy id of the name lists (data/names.yaml)")


def wind_from_weather(table_id: str, default: str | None = None) -> Check:
    """The scenario check that ``wind.result`` is the wind `table_id` gives for
    ``weather.result`` (`default` where its row names none)."""
    rows = by_result(table_id)

    def run(ctx: Ctx, data: dict[str, Any], path: KeyPath) -> None:
        cell = ctx.of(rows).get(data["weather"]["result"])
        if cell is None:
            return
        expected = str(cell.get("wind", default))
        if data["wind"]["result"] != expected:
            ctx.fail(
                ("wind", "result"),
                f"result {data['wind']['result']} does not match weather "
                f"{data['weather']['result']} ({table_id} gives {expected})",
            )

    return Check(
        f"wind.result is the wind {table_id} gives for weather.result",
        run,
        needs=("wind.result", "weather.result"),
    )


@dataclass(frozen=True, eq=False)
class Bearing(Node):
    """A wind's bearing in degrees, 0 to 359, or one of the other marks `table_id` holds
    for it (— for a calm)."""

    table_id: str
    marks: Callable[[Rules], list[str]] = field(init=False)
    kind = "whole number or text"

    def __post_init__(self) -> None:
        every = values(self.table_id, "from_bearing")

        def marks(rules: Rules) -> list[str]:
            return [str(v) for v in every(rules) if not isinstance(v, int)]

        object.__setattr__(self, "marks", marks)

    def _marks(self, ctx: Ctx) -> list[str]:
        return ctx.of(self.marks)

    def fits(self, value: Any) -> bool:
        return isinstance(value, int | str) and not isinstance(value, bool)

    def check(self, ctx: Ctx, value: Any, path: KeyPath) -> bool:
        if isinstance(value, int) and not isinstance(value, bool):
            return DEGREES.check(ctx, value, path)
        if isinstance(value, str) and value in self._marks(ctx):
            return True
        ctx.fail(path, f"{found(value)} is not a bearing (allowed: {self.allowed(ctx)})")
        return False

    def kind_text(self, ctx: Ctx) -> str:
        return "whole number or text" if self._marks(ctx) else "whole number"

    def allowed(self, ctx: Ctx) -> str:
        marks = self._marks(ctx)
        return "0..359" + (f", or {listing(marks)}" if marks else "")


def wind(table_id: str, extra: MappingType[str, Field] | None = None, help: str = "") -> Record:
    """A scenario's wind rolled on a wind table: roll, direction and from_bearing, which
    must be the bearing the table gives for the direction."""
    return Record(
        {
            "roll": req(
                Whole(span=die_range(table_id), why=f"the die of {table_id}"), "the die roll"
            ),
            "direction": req(
                Choice(results(table_id), "wind direction"),
                f"where the wind blows from ({table_id})",
            ),
            "from_bearing": req(
                Bearing(table_id),
                "the compass bearing the wind blows from, in degrees (0 is north)",
            ),
            **(extra or {}),
        },
        checks=(follows("from_bearing", "direction", table_id, "from_bearing"),),
        what="a wind (roll, direction, from_bearing)",
    )


def weather(
    table_id: str,
    extra: MappingType[str, Field] | None = None,
    effect: str | None = "effect_text",
    checks: tuple[Check, ...] = (),
) -> Record:
    """A scenario's weather rolled on a weather table: roll, result and (when `effect`
    names the cell's key) the effect the table gives for the result; `extra` keys, with
    their `checks`."""
    fields: dict[str, Field] = {
        "roll": req(Whole(span=die_range(table_id), why=f"the die of {table_id}"), "the die roll"),
        "result": req(Choice(results(table_id), "weather result"), f"the weather ({table_id})"),
    }
    found_checks: tuple[Check, ...] = ()
    if effect is not None:
        fields["effect"] = req(Text(LINE_LENGTH, empty=True), "what the weather does in play")
        found_checks = (follows("effect", "result", table_id, effect),)
    fields.update(extra or {})
    return Record(fields, checks=(*found_checks, *checks), what="a weather (roll, result ...)")


def grid_map(
    legend: MappingType[str, str],
    cell: str | tuple[str, str],
    kind: str,
    extra: MappingType[str, Field] | None = None,
    checks: tuple[Check, ...] = (),
) -> Record:
    """A map of `width` × `height` cells: `rows` of one character per `cell` ("square", or
    one and many: ("hex", "hexes")), every character in the fixed `legend`."""
    cell, cells = (cell, f"{cell}s") if isinstance(cell, str) else cell
    legend_record = Record(
        {
            char: req(Choice([name], f"{cell} kind"), f"a {cell} of {name}")
            for char, name in legend.items()
        },
        what=f"the legend ({', '.join(f'{c} {n}' for c, n in legend.items())})",
    )
    allowed = ", ".join(f"'{c}' {n}" for c, n in legend.items())

    def rows_fit(ctx: Ctx, data: dict[str, Any], path: KeyPath) -> None:
        rows, width, height = data.get("rows"), data["width"], data["height"]
        if not isinstance(rows, list):
            return
        if len(rows) != height:
            ctx.fail((*path, "rows"), f"expected {height} rows (height), found {len(rows)}")
        for index, row in enumerate(rows):
            if not isinstance(row, str):
                continue
            where = (*path, "rows", index)
            if len(row) != width:
                ctx.fail(where, f"expected {width} {cells} (width), found {len(row)}")
            stray = sorted(set(row) - set(legend))
            if stray:
                ctx.fail(where, f"{quoted(stray[0])} is not a {cell} of the legend ({allowed})")

    return Record(
        {
            "kind": req(Choice([kind], "map kind"), "the kind of map"),
            "width": req(Whole(4, 200), f"{cells} from west to east"),
            "height": req(Whole(4, 200), f"{cells} from north to south"),
            "rows": req(
                Items(Text(200), noun=("row", "rows")),
                f"the map from north to south, one character a {cell}",
            ),
            "legend": req(legend_record, f"what each character of the rows is: {allowed}"),
            **(extra or {}),
        },
        checks=(
            Check(
                f"rows has height rows of width {cells}, each a character of the legend",
                rows_fit,
                needs=("width", "height"),
            ),
            *checks,
        ),
        what=f"a map of {cells}",
    )


def start_columns(cell: str) -> tuple[Field, Check]:
    """A grid's starting columns at each end: the field, and the check that they fit and
    hold no land."""

    def fit(ctx: Ctx, data: dict[str, Any], path: KeyPath) -> None:
        start, width, rows = data["start_columns"], data["width"], data.get("rows")
        if 2 * start > width:
            ctx.fail((*path, "start_columns"), f"{start} columns a side do not fit in {width}")
            return
        for index, row in enumerate(rows if isinstance(rows, list) else ()):
            if isinstance(row, str) and "#" in row[:start] + row[len(row) - start :]:
                ctx.fail((*path, "rows", index), "land in a side's starting columns")
                return

    return (
        req(Whole(1, None), f"the {cell} columns each side starts in, at the west and east"),
        Check(
            "twice start_columns fits in width, and no starting column holds land",
            fit,
            needs=("start_columns", "width"),
        ),
    )


def one_flagship(word: str) -> Check:
    """A check that exactly one of a side's ships is its flagship."""

    def run(ctx: Ctx, data: dict[str, Any], path: KeyPath) -> None:
        ships = data.get("ships")
        if not isinstance(ships, list):
            return
        count = sum(isinstance(ship, dict) and ship.get("flagship") is True for ship in ships)
        if ships and count != 1:
            ctx.fail((*path, "ships"), f"a {word} has exactly one flagship, found {count}")

    return Check("exactly one of ships is the flagship", run)
