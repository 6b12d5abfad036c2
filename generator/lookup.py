"""Look up a cell of a rules table by its axis values."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from generator.assignments import parse_assignments
from generator.errors import LookupInputError, shown
from generator.loading import Axis, Rules, Table, thaw
from generator.loading.cells import parse_cell
from generator.suggest import nearest, unknown

# Python refuses to read whole numbers of over 4300 digits; no table needs as many
MAX_DIGITS = 4000


def too_long_number(text: str) -> bool:
    """Say whether `text` is a whole number with more digits than Python will read."""
    digits = text.strip().lstrip("+-")
    return digits.isdecimal() and len(digits) > MAX_DIGITS


def find_table(rules: Rules, table_id: str) -> Table:
    """Return the table `table_id` (``ruleset.table``) or raise a one-line error."""
    ruleset_id, dot, key = table_id.partition(".")
    ruleset = rules.rulesets.get(ruleset_id)
    if ruleset is None or not dot:
        if not dot and ruleset is not None:
            choices = [t.id for t in ruleset.tables.values() if t.kind != "rules"]
            raise LookupInputError(
                f"'{shown(table_id)}' is a ruleset; a table id is RULESET.TABLE "
                f"(tables of {ruleset_id}: {', '.join(choices)})"
            )
        every = [t.id for r in rules.rulesets.values() for t in r.tables.values()]
        guess = (nearest(table_id, every) if dot else None) or nearest(ruleset_id, rules.rulesets)
        hint = f": did you mean '{guess}'?" if guess is not None else ""
        raise LookupInputError(
            f"unknown table '{shown(table_id)}'{hint} (ids are RULESET.TABLE, "
            f"with RULESET one of: {', '.join(rules.rulesets)})"
        )
    table = ruleset.tables.get(key)
    if table is None:
        choices = [t.id for t in ruleset.tables.values() if t.kind != "rules"]
        raise LookupInputError(
            unknown("table", table_id, choices, listing=f"tables of {ruleset_id}")
        )
    return table


def read_values(table: Table, words: list[str]) -> dict[str, str]:
    """Return a lookup's inputs from typed words: ``AXIS=VALUE``, and values typed alone
    for the axes not named, in the table's axis order (``lookup tactical.broadside 7``,
    ``lookup flob.broadside 5 7`` for attack 5, roll 7)."""
    named = parse_assignments([w for w in words if "=" in w], "lookup values")
    bare = [w for w in words if "=" not in w]
    if not bare:
        return named
    axes = ["modifier"] if table.kind == "modifiers" else [a.name for a in table.axes]
    for word in bare:
        if word.strip() in axes:  # 'roll' for 'roll=7': a name without its value
            parse_assignments([word], "lookup values")
    free = [name for name in axes if name not in named]
    if len(bare) != len(free):
        wanted = " ".join(f"{name}=VALUE" for name in axes)
        values = "1 value" if len(bare) == 1 else f"{len(bare)} values"
        left = ", ".join(free) or "none left"
        raise LookupInputError(
            f"{table.id}: {values} without a name, for the axes {left}; write {wanted}, "
            "or one value per axis in that order"
        )
    return {**named, **dict(zip(free, (w.strip() for w in bare), strict=True))}


def describe_axis_values(axis: Axis) -> str:
    """Say which inputs an axis accepts, for error messages and listings."""
    if axis.numeric:
        lows = [v.low for v in axis.values if v.low is not None]
        highs = [v.high for v in axis.values if v.high is not None]
        low = "any" if any(v.low is None for v in axis.values) else str(min(lows))
        high = "any" if any(v.high is None for v in axis.values) else str(max(highs))
        if low == "any" and high == "any":
            return "any whole number"
        if low == "any":
            return f"whole numbers up to {high}"
        if high == "any":
            return f"whole numbers from {low}"
        return f"{low}..{high}"
    return ", ".join(axis.labels)


def axis_index(table: Table, axis: Axis, raw: str | int) -> int:
    """Return the index on `axis` of the input `raw`, or raise naming the valid choices."""
    if isinstance(raw, int) and axis.numeric:
        # a rolled total (the generators roll thousands): found without the checks text needs
        for i, value in enumerate(axis.values):
            if value.contains(raw):
                return i
    where = f"{table.id}: {axis.name}={shown(raw)}"
    if axis.numeric:
        if not isinstance(raw, int) and too_long_number(str(raw)):
            raise LookupInputError(f"{where}: too many digits (at most {MAX_DIGITS})")
        try:
            number = raw if isinstance(raw, int) else int(str(raw).strip())
        except ValueError:
            raise LookupInputError(
                f"{where}: expected a whole number ({describe_axis_values(axis)})"
            ) from None
        for i, value in enumerate(axis.values):
            if value.contains(number):
                return i
        raise LookupInputError(f"{where}: not on the table (valid: {describe_axis_values(axis)})")
    text = str(raw)
    for i, value in enumerate(axis.values):
        if value.matches(text):
            return i
    if not too_long_number(text):
        try:
            number = int(text.strip())
        except ValueError:
            pass
        else:
            for i, value in enumerate(axis.values):
                if value.contains(number):
                    return i
    raise LookupInputError(f"{where}: no such {axis.name} (valid: {describe_axis_values(axis)})")


def cell_text(cell: Any) -> str:
    """Return a cell as printed: text as is, a mapping by its result or its fields."""
    if isinstance(cell, Mapping):
        for key in ("result", "printed", "text"):
            if key in cell:
                return str(cell[key])
        return ", ".join(f"{k} {v}" for k, v in cell.items() if not isinstance(v, Mapping))
    return str(cell)


@dataclass(frozen=True)
class LookupResult:
    """A looked-up cell, with the inputs and the row and column it came from."""

    table: Table
    inputs: Mapping[str, int | str]
    matched: Mapping[str, str]
    cell: Any

    @property
    def text(self) -> str:
        return cell_text(self.cell)

    def fields(self) -> dict[str, Any]:
        """Return structured fields: parsed from a text cell, or a mapping cell's keys."""
        if isinstance(self.cell, Mapping):
            return {k: thaw(v) for k, v in self.cell.items() if k != "result"}
        if self.table.cell_format is None:
            return {}
        parsed = parse_cell(self.table.cell_format, self.cell)
        names = self.table.params.get("pair_fields")
        if self.table.cell_format == "pair" and names:
            parsed = {names[0]: parsed["first"], names[1]: parsed["second"]}
        return parsed

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "table": self.table.id,
            "inputs": dict(self.inputs),
            "result": self.text,
        }
        for key, value in self.fields().items():
            out.setdefault(key, value)
        out["matched"] = dict(self.matched)
        return out


def lookup(rules: Rules, table_id: str, inputs: Mapping[str, str | int]) -> LookupResult:
    """Return the cell of `table_id` at the given axis values.

    Args:
        rules: the loaded rules.
        table_id: ``ruleset.table``.
        inputs: one value per axis name, e.g. ``{"attack": "5", "roll": "7"}``.

    Raises:
        LookupInputError: unknown table, missing or unknown axis, or a value off the table.
    """
    table = find_table(rules, table_id)
    if table.kind == "rules":
        raise LookupInputError(
            f"{table.id} is rules text, not a table to look up; "
            f"'quartermaster tables {table.id}' prints it"
        )
    if table.kind == "modifiers":
        return _lookup_modifier(table, inputs)
    names = [axis.name for axis in table.axes]
    unknown = [name for name in inputs if name not in names]
    if unknown:
        raise LookupInputError(
            f"{table.id}: unknown input '{shown(unknown[0])}' (this table takes {', '.join(names)})"
        )
    missing = [name for name in names if name not in inputs]
    if missing:
        wanted = "; ".join(
            f"{a.name}: {describe_axis_values(a)}" for a in table.axes if a.name in missing
        )
        raise LookupInputError(
            f"{table.id}: missing {', '.join(f'{m}=VALUE' for m in missing)} ({wanted})"
        )
    indices = []
    clean: dict[str, int | str] = {}
    matched: dict[str, str] = {}
    for axis in table.axes:
        index = axis_index(table, axis, inputs[axis.name])
        indices.append(index)
        value = axis.values[index]
        clean[axis.name] = int(str(inputs[axis.name]).strip()) if axis.numeric else value.label
        matched[axis.name] = value.label
    return LookupResult(table, clean, matched, table.cell(*indices))


def _lookup_modifier(table: Table, inputs: Mapping[str, str | int]) -> LookupResult:
    if set(inputs) != {"modifier"}:
        raise LookupInputError(f"{table.id}: a modifiers list takes modifier=ID")
    wanted = str(inputs["modifier"])
    for mod in table.modifiers:
        if mod.id == wanted or mod.label.casefold() == wanted.casefold():
            cell: dict[str, Any] = {"result": str(mod.value), "label": mod.label}
            if mod.by:
                cell["by"] = dict(mod.by)
            for key in ("group", "per", "note"):
                if getattr(mod, key):
                    cell[key] = getattr(mod, key)
            return LookupResult(table, {"modifier": mod.id}, {"modifier": mod.label}, cell)
    ids = ", ".join(m.id for m in table.modifiers)
    raise LookupInputError(f"{table.id}: modifier={shown(wanted)}: no such modifier (valid: {ids})")
