"""Validate raw YAML tables and build the frozen model, collecting every problem.

Each check names the file, the line (where YAML knows it), the table and the key path, so
a GM editing a house-rules file can go straight to the spot.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from generator.errors import shown
from generator.loading.cells import CELL_FORMATS, CellFormatError, parse_cell
from generator.loading.model import (
    Axis,
    AxisValue,
    Modifier,
    RuleItem,
    Ruleset,
    Source,
    Table,
    freeze,
)
from generator.text import fold
from generator.yamlfile import KeyPath, YamlDoc

KINDS = ("table", "modifiers", "rules")

_KEBAB = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_SNAKE = re.compile(r"[a-z][a-z0-9_]*")
_SEED = re.compile(r"\d{3}_[0-9a-f]{16}\.txt")

_TABLE_KEYS = {
    "title",
    "kind",
    "source",
    "house",
    "note",
    "notes",
    "see",
    "params",
    "description",
    "axes",
    "cells",
    "cell_format",
    "items",
    "roll",
    "ordered",
}
_KIND_KEYS = {
    "table": {"axes", "cells", "cell_format"},
    "modifiers": {"items", "roll"},
    "rules": {"items", "ordered"},
}
_AXIS_KEYS = {"name", "title", "values", "dice", "modified"}
_VALUE_KEYS = {"label", "min", "max", "match", "note"}
_MODIFIER_KEYS = {"id", "label", "value", "by", "group", "per", "note"}
_ITEM_KEYS = {"text", "label", "items"}
_RULESET_KEYS = {"ruleset", "title", "source", "description", "notes", "tables"}


@dataclass
class Problems:
    """Collects problems as one-line messages: ``file:line: where: what``."""

    messages: list[str] = field(default_factory=list)

    def add(self, doc: YamlDoc, keypath: KeyPath, message: str, where: str = "") -> None:
        line = doc.line(keypath)
        location = f"{doc.path}:{line}" if line is not None else str(doc.path)
        self.messages.append(f"{location}: {where}{': ' if where else ''}{message}")

    def __bool__(self) -> bool:
        return bool(self.messages)


def _describe_path(keypath: KeyPath) -> str:
    out = ""
    for key in keypath:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else str(key))
    return out


@dataclass
class _TableContext:
    doc: YamlDoc
    base: KeyPath
    table_id: str
    problems: Problems

    def add(self, rel: KeyPath, message: str) -> None:
        where = self.table_id + (f" {_describe_path(rel)}" if rel else "")
        self.problems.add(self.doc, self.base + rel, message, where)


def dice_range(dice: str) -> tuple[int, int] | None:
    """Return the lowest and highest total of plain dice such as ``2d6`` or ``d%``."""
    from generator.dice import DiceError, plain_dice

    try:
        found = plain_dice(dice.strip())
    except DiceError:
        return None
    if found.count < 1 or found.sides < 2:
        return None
    return found.count, found.count * found.sides


_RANGE_FORMS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(-?\d+)"), "exact"),
    (re.compile(r"(-?\d+)\s*[-–]\s*(-?\d+)"), "span"),
    (re.compile(r"(-?\d+)\s*\+"), "up"),
    (re.compile(r"(-?\d+)\s+or\s+(?:better|more|higher|greater|above)", re.I), "up"),
    (re.compile(r"(-?\d+)\s+or\s+(?:worse|less|lower|fewer|below)", re.I), "down"),
    (re.compile(r"(?:≥|>=)\s*(-?\d+)"), "up"),
    (re.compile(r"(?:≤|<=)\s*(-?\d+)"), "down"),
)


def parse_range_label(text: str) -> tuple[int | None, int | None] | None:
    """Return (low, high) for a printed numeric label, open ends as None; else None."""
    stripped = text.strip()
    for pattern, form in _RANGE_FORMS:
        match = pattern.fullmatch(stripped)
        if not match:
            continue
        first = int(match[1])
        if form == "exact":
            return first, first
        if form == "span":
            return first, int(match[2])
        if form == "up":
            return first, None
        return None, first
    return None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_keys(
    ctx: _TableContext, raw: Mapping[str, Any], allowed: set[str], rel: KeyPath
) -> None:
    for key in raw:
        if key not in allowed:
            hint = ", ".join(sorted(allowed))
            ctx.add((*rel, key), f"unknown key '{key}' (allowed: {hint})")


def _text(
    ctx: _TableContext, raw: Mapping[str, Any], key: str, rel: KeyPath, required: bool
) -> str | None:
    value = raw.get(key)
    if value is None:
        if required:
            ctx.add(rel, f"missing '{key}'")
        return None
    if isinstance(value, str) and value.strip():
        return value
    if _is_int(value) or isinstance(value, float):
        return str(value)
    ctx.add((*rel, key), f"'{key}' must be text, not {type(value).__name__}")
    return None


def _text_list(ctx: _TableContext, raw: Any, rel: KeyPath) -> tuple[str, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        ctx.add(rel, "must be a list of text")
        return ()
    out = []
    for i, item in enumerate(raw):
        if isinstance(item, str) and item.strip():
            out.append(item)
        else:
            ctx.add((*rel, i), "must be text")
    return tuple(out)


def _json_like(value: Any, depth: int = 0) -> bool:
    if depth > 4:
        return False
    if value is None or isinstance(value, str | int | float | bool):
        return True
    if isinstance(value, list):
        return all(_json_like(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _json_like(v, depth + 1) for k, v in value.items())
    return False


def _build_source(ctx: _TableContext, raw: Any, ruleset_seed: str | None) -> Source:
    if not isinstance(raw, dict):
        ctx.add(("source",), "'source' must be {seed: FILE, heading: ...} or {house: WHY}")
        return Source()
    unknown = set(raw) - {"seed", "heading", "house"}
    for key in unknown:
        ctx.add(("source", key), f"unknown key '{key}' in source (allowed: seed, heading, house)")
    if "house" in raw:
        if not isinstance(raw["house"], str) or not raw["house"].strip():
            ctx.add(("source", "house"), "'house' must say why the project supplies this table")
        if "seed" in raw:
            ctx.add(("source",), "a source is either a seed or house, not both")
        return Source(house=str(raw.get("house")))
    seed, heading = raw.get("seed"), raw.get("heading")
    if not isinstance(seed, str) or not _SEED.fullmatch(seed):
        ctx.add(
            ("source", "seed"),
            f"'seed' must name a seed file such as 000_97736c69ee4cbce1.txt, not {seed!r}",
        )
    elif ruleset_seed is not None and seed != ruleset_seed:
        ctx.add(("source", "seed"), f"seed '{seed}' is not this ruleset's seed '{ruleset_seed}'")
    if not isinstance(heading, str | int) or not str(heading).strip():
        ctx.add(("source", "heading"), "missing 'heading' (the printed heading the table is under)")
    return Source(seed=str(seed), heading=str(heading))


def _build_axis_value(ctx: _TableContext, raw: Any, rel: KeyPath) -> AxisValue | None:
    if _is_int(raw):
        return AxisValue(label=str(raw), numeric=True, low=raw, high=raw)
    if isinstance(raw, str):
        if not raw.strip():
            ctx.add(rel, "an axis value may not be empty")
            return None
        span = parse_range_label(raw)
        if span is not None:
            return AxisValue(label=raw, numeric=True, low=span[0], high=span[1])
        return AxisValue(label=raw, numeric=False)
    if isinstance(raw, dict):
        _check_keys(ctx, raw, _VALUE_KEYS, rel)
        label = raw.get("label")
        if not isinstance(label, str | int) or not str(label).strip():
            ctx.add(rel, "an axis value mapping needs a 'label'")
            return None
        low, high = raw.get("min"), raw.get("max")
        for key, bound in (("min", low), ("max", high)):
            if bound is not None and not _is_int(bound):
                ctx.add((*rel, key), f"'{key}' must be a whole number")
                return None
        match = raw.get("match", [])
        if not isinstance(match, list) or not all(isinstance(m, str | int) for m in match):
            ctx.add((*rel, "match"), "'match' must be a list of words")
            match = []
        words = tuple(str(m) for m in match)
        if low is None and high is None:
            return AxisValue(label=str(label), numeric=False, match=words)
        if low is not None and high is not None and low > high:
            ctx.add(rel, f"min {low} is above max {high}")
        return AxisValue(label=str(label), numeric=True, low=low, high=high, match=words)
    ctx.add(rel, f"an axis value must be a number, text or mapping, not {type(raw).__name__}")
    return None


def _check_numeric_axis(ctx: _TableContext, axis: Axis, rel: KeyPath) -> None:
    ordered = sorted(
        axis.values, key=lambda v: (v.low is not None, v.low if v.low is not None else 0)
    )
    for before, after in pairwise(ordered):
        if before.high is None or after.low is None or before.high >= after.low:
            ctx.add(rel, f"axis '{axis.name}': values '{before.label}' and '{after.label}' overlap")
    if axis.dice is None:
        return
    span = dice_range(axis.dice)
    if span is None:
        ctx.add(
            (*rel, "dice"),
            f"axis '{axis.name}': cannot read dice '{axis.dice}' (use e.g. 2d6, 1d10, d%)",
        )
        return
    low, high = span
    for before, after in pairwise(ordered):
        if before.high is None or after.low is None or after.low <= before.high + 1:
            continue
        gap_low, gap_high = before.high + 1, after.low - 1
        gap = str(gap_low) if gap_low == gap_high else f"{gap_low}-{gap_high}"
        ctx.add(
            rel,
            f"axis '{axis.name}' ({axis.dice}): nothing covers {gap}"
            f" between '{before.label}' and '{after.label}'",
        )
    first, last = ordered[0], ordered[-1]
    if first.low is not None and first.low > low:
        ctx.add(
            rel, f"axis '{axis.name}' ({axis.dice}): rolls {low}-{first.low - 1} are not covered"
        )
    if last.high is not None and last.high < high:
        ctx.add(
            rel, f"axis '{axis.name}' ({axis.dice}): rolls {last.high + 1}-{high} are not covered"
        )
    if not axis.modified:
        for value in axis.values:
            if value.low is None or value.high is None or value.low < low or value.high > high:
                ctx.add(
                    rel,
                    f"axis '{axis.name}' ({axis.dice}): value '{value.label}' lies outside "
                    f"{low}-{high}; if the roll is modified say 'modified: true'",
                )


def _build_axis(ctx: _TableContext, raw: Any, rel: KeyPath) -> Axis | None:
    if not isinstance(raw, dict):
        ctx.add(rel, "an axis must be a mapping with name and values")
        return None
    _check_keys(ctx, raw, _AXIS_KEYS, rel)
    name = raw.get("name")
    if not isinstance(name, str) or not _SNAKE.fullmatch(name):
        ctx.add(
            (*rel, "name"),
            f"axis name {name!r} must be snake_case, e.g. 'roll' or 'non_initiative'",
        )
        return None
    raw_values = raw.get("values")
    if not isinstance(raw_values, list) or not raw_values:
        ctx.add((*rel, "values"), f"axis '{name}' needs a non-empty list of values")
        return None
    values = [_build_axis_value(ctx, v, (*rel, "values", i)) for i, v in enumerate(raw_values)]
    if any(v is None for v in values):
        return None
    built = [v for v in values if v is not None]
    dice = raw.get("dice")
    if dice is not None and not isinstance(dice, str):
        ctx.add((*rel, "dice"), "'dice' must be text such as 2d6")
        dice = None
    modified = raw.get("modified", False)
    if not isinstance(modified, bool):
        ctx.add((*rel, "modified"), "'modified' must be true or false")
        modified = False
    title = raw.get("title", name)
    axis = Axis(name=name, title=str(title), values=tuple(built), dice=dice, modified=modified)
    mixed = len({v.numeric for v in built}) > 1
    if mixed and any(isinstance(v, int | str) for v in raw_values):
        ctx.add(
            (*rel, "values"),
            f"axis '{name}' mixes numbers and labels: "
            + ", ".join(axis.labels)
            + " (a label axis may hold numbers only as mappings with label and min/max)",
        )
        return axis
    if axis.numeric:
        _check_numeric_axis(ctx, axis, rel)
    else:
        if mixed:
            numbers = Axis(name=name, title=str(title), values=tuple(v for v in built if v.numeric))
            _check_numeric_axis(ctx, numbers, rel)
        if dice is not None:
            ctx.add((*rel, "dice"), f"axis '{name}' has labels, so it cannot be a die roll")
        seen: dict[str, str] = {}
        for value in built:
            for word in (value.label, *value.match):
                key = fold(word)
                if key in seen and seen[key] != value.label:
                    ctx.add(
                        (*rel, "values"),
                        f"axis '{name}': '{word}' names both '{seen[key]}' and '{value.label}'",
                    )
                elif key in seen and word == value.label:
                    ctx.add((*rel, "values"), f"axis '{name}': label '{value.label}' appears twice")
                seen[key] = value.label
    return axis


def _check_cell(ctx: _TableContext, cell: Any, rel: KeyPath, cell_format: str | None) -> None:
    if cell is None:
        ctx.add(rel, "missing cell (write '—' for a cell printed as a dash)")
        return
    if isinstance(cell, bool | list):
        ctx.add(rel, f"a cell must be text, a number or a mapping, not {type(cell).__name__}")
        return
    if isinstance(cell, dict):
        if not cell:
            ctx.add(rel, "an empty mapping is a missing cell")
        for key, value in cell.items():
            if not isinstance(key, str):
                ctx.add((*rel, key), "cell keys must be text")
            elif value is None:
                ctx.add((*rel, key), f"'{key}' is empty (write '—' if the seed prints a dash)")
            elif not _json_like(value):
                ctx.add((*rel, key), f"'{key}' holds an unsupported value")
        effect = cell.get("effect")
        if effect is not None and (
            not isinstance(effect, dict) or not all(_is_int(v) for v in effect.values())
        ):
            ctx.add((*rel, "effect"), "'effect' must map rating names to whole numbers")
        return
    if isinstance(cell, str) and not cell.strip():
        ctx.add(rel, "empty cell (write '—' for a cell printed as a dash)")
        return
    if cell_format is not None:
        try:
            parse_cell(cell_format, cell)
        except CellFormatError as exc:
            ctx.add(rel, f"cell does not read as {cell_format}: {exc}")


def _check_cells(
    ctx: _TableContext, cells: Any, axes: list[Axis], rel: KeyPath, cell_format: str | None
) -> None:
    axis = axes[0]
    if not isinstance(cells, list):
        ctx.add(rel, f"expected a list of {len(axis.values)} entries for axis '{axis.name}'")
        return
    if len(cells) != len(axis.values):
        ctx.add(
            rel,
            f"has {len(cells)} entries but axis '{axis.name}' has {len(axis.values)} values "
            f"({', '.join(axis.labels)})",
        )
    for i, entry in enumerate(cells[: len(axis.values)]):
        if len(axes) > 1:
            _check_cells(ctx, entry, axes[1:], (*rel, i), cell_format)
        else:
            _check_cell(ctx, entry, (*rel, i), cell_format)
    if len(cells) < len(axis.values):
        for missing in axis.values[len(cells) :]:
            ctx.add(rel, f"missing cell for {axis.name} = '{missing.label}'")


def _build_modifier(ctx: _TableContext, raw: Any, rel: KeyPath) -> Modifier | None:
    if not isinstance(raw, dict):
        ctx.add(rel, "a modifier must be a mapping with id, label and value")
        return None
    _check_keys(ctx, raw, _MODIFIER_KEYS, rel)
    mod_id = raw.get("id")
    if not isinstance(mod_id, str) or not _KEBAB.fullmatch(mod_id):
        ctx.add((*rel, "id"), f"modifier id {mod_id!r} must be kebab-case")
        return None
    label = _text(ctx, raw, "label", rel, required=True)
    value = raw.get("value")
    if not (_is_int(value) or (isinstance(value, str) and value.strip())) or value is None:
        ctx.add(
            (*rel, "value"),
            f"modifier '{mod_id}' needs a 'value': a whole number or the printed text",
        )
        return None
    by = raw.get("by", {})
    if not isinstance(by, dict) or not all(
        isinstance(k, str) and _is_int(v) for k, v in by.items()
    ):
        ctx.add((*rel, "by"), "'by' must map choices to whole numbers")
        by = {}
    extras = {k: _text(ctx, raw, k, rel, required=False) for k in ("group", "per", "note")}
    return Modifier(
        id=mod_id,
        label=label or mod_id,
        value=value,
        by=freeze(by),
        group=extras["group"],
        per=extras["per"],
        note=extras["note"],
    )


def _build_item(ctx: _TableContext, raw: Any, rel: KeyPath) -> RuleItem | None:
    if isinstance(raw, str | int) and str(raw).strip():
        return RuleItem(text=str(raw))
    if not isinstance(raw, dict):
        ctx.add(rel, "a rules item must be text or a mapping with 'text'")
        return None
    _check_keys(ctx, raw, _ITEM_KEYS, rel)
    text = _text(ctx, raw, "text", rel, required=True)
    label = _text(ctx, raw, "label", rel, required=False)
    sub = raw.get("items", [])
    children: list[RuleItem] = []
    if not isinstance(sub, list):
        ctx.add((*rel, "items"), "'items' must be a list")
    else:
        for i, child in enumerate(sub):
            built = _build_item(ctx, child, (*rel, "items", i))
            if built is not None:
                children.append(built)
    return RuleItem(text=text or "", label=label, items=tuple(children))


def build_table(
    doc: YamlDoc,
    base: KeyPath,
    ruleset_id: str,
    key: Any,
    raw: Any,
    problems: Problems,
    ruleset_seed: str | None,
) -> Table | None:
    """Validate one raw table and return it built, or None if it is unusable."""
    ctx = _TableContext(doc, base, f"{ruleset_id}.{key}", problems)
    if not isinstance(key, str) or not _KEBAB.fullmatch(key):
        ctx.add((), f"table id {key!r} must be kebab-case, e.g. 'damage-effects'")
        return None
    if not isinstance(raw, dict):
        ctx.add((), "a table must be a mapping with title, kind, source ...")
        return None
    before = len(problems.messages)
    _check_keys(ctx, raw, _TABLE_KEYS, ())
    kind = raw.get("kind")
    if kind not in KINDS:
        ctx.add(("kind",), f"'kind' must be one of {', '.join(KINDS)}, not {kind!r}")
        return None
    for other_kind, keys in _KIND_KEYS.items():
        if other_kind != kind:
            for stray in sorted(keys & set(raw) - _KIND_KEYS[kind]):
                ctx.add((stray,), f"'{stray}' does not belong in a table of kind '{kind}'")
    title = _text(ctx, raw, "title", (), required=True)
    source = _build_source(ctx, raw.get("source"), ruleset_seed)
    house = raw.get("house", False)
    if not isinstance(house, bool):
        ctx.add(("house",), "'house' must be true or false")
        house = False
    if source.house is not None and not house:
        ctx.add(("house",), "a table with a house source must say 'house: true'")
    if house and source.house is None:
        ctx.add(("house",), "a house table needs 'source: {house: WHY}'")
    note = _text(ctx, raw, "note", (), required=False)
    description = _text(ctx, raw, "description", (), required=False)
    notes = _text_list(ctx, raw.get("notes"), ("notes",))
    see = _text_list(ctx, raw.get("see"), ("see",))
    params = raw.get("params", {})
    if not isinstance(params, dict):
        ctx.add(("params",), "'params' must be a mapping")
        params = {}
    for name, value in params.items():
        if not isinstance(name, str) or not _SNAKE.fullmatch(name):
            ctx.add(("params", name), f"param name {name!r} must be snake_case")
        elif not _json_like(value) or value is None:
            ctx.add(
                ("params", name),
                f"param '{name}' must be a number, text, boolean or a list of those",
            )

    common: dict[str, Any] = {
        "ruleset": ruleset_id,
        "key": key,
        "title": title or key,
        "kind": kind,
        "source": source,
        "house": house,
        "note": note,
        "notes": notes,
        "see": see,
        "params": freeze(params),
        "description": description,
    }
    if kind == "table":
        cell_format = raw.get("cell_format")
        if cell_format is not None and cell_format not in CELL_FORMATS:
            ctx.add(
                ("cell_format",),
                f"unknown cell_format {cell_format!r} (known: {', '.join(CELL_FORMATS)})",
            )
            cell_format = None
        raw_axes = raw.get("axes")
        if not isinstance(raw_axes, list) or not 1 <= len(raw_axes) <= 2:
            ctx.add(("axes",), "a table needs 'axes': a list of one or two axes")
            return None
        axes = [_build_axis(ctx, a, ("axes", i)) for i, a in enumerate(raw_axes)]
        if any(a is None for a in axes):
            return None
        built_axes = [a for a in axes if a is not None]
        names = [a.name for a in built_axes]
        if len(set(names)) != len(names):
            ctx.add(("axes",), f"axis names repeat: {', '.join(names)}")
        if "cells" not in raw:
            ctx.add((), "missing 'cells'")
            return None
        _check_cells(ctx, raw["cells"], built_axes, ("cells",), cell_format)
        if len(problems.messages) > before:
            return None
        return Table(
            **common, axes=tuple(built_axes), cells=freeze(raw["cells"]), cell_format=cell_format
        )
    if kind == "modifiers":
        raw_items = raw.get("items")
        if not isinstance(raw_items, list) or not raw_items:
            ctx.add(("items",), "a modifiers table needs a non-empty list of 'items'")
            return None
        mods = [_build_modifier(ctx, m, ("items", i)) for i, m in enumerate(raw_items)]
        ids = [m.id for m in mods if m is not None]
        for dup in sorted({i for i in ids if ids.count(i) > 1}):
            ctx.add(("items",), f"modifier id '{dup}' appears twice")
        roll = _text(ctx, raw, "roll", (), required=False)
        if len(problems.messages) > before:
            return None
        return Table(**common, modifiers=tuple(m for m in mods if m is not None), roll=roll)
    raw_items = raw.get("items")
    if not isinstance(raw_items, list) or not raw_items:
        ctx.add(("items",), "a rules table needs a non-empty list of 'items'")
        return None
    items = [_build_item(ctx, it, ("items", i)) for i, it in enumerate(raw_items)]
    ordered = raw.get("ordered", False)
    if not isinstance(ordered, bool):
        ctx.add(("ordered",), "'ordered' must be true or false")
    if len(problems.messages) > before:
        return None
    return Table(**common, items=tuple(i for i in items if i is not None), ordered=bool(ordered))


def build_ruleset(doc: YamlDoc, expected_id: str, problems: Problems) -> Ruleset | None:
    """Validate a whole ruleset file and return it built, or None if unusable."""
    raw = doc.data
    if not isinstance(raw, dict):
        problems.add(doc, (), "a ruleset file must be a mapping with ruleset, title, tables")
        return None
    for key in raw:
        if key not in _RULESET_KEYS:
            problems.add(
                doc, (key,), f"unknown key '{key}' (allowed: {', '.join(sorted(_RULESET_KEYS))})"
            )
    ruleset_id = raw.get("ruleset")
    if ruleset_id != expected_id:
        problems.add(
            doc, ("ruleset",), f"'ruleset' is {ruleset_id!r} but the file is for '{expected_id}'"
        )
    title = raw.get("title")
    if not isinstance(title, str) or not title.strip():
        problems.add(doc, ("title",), "missing 'title'")
    seed = raw.get("source")
    if not isinstance(seed, str) or not _SEED.fullmatch(seed):
        problems.add(doc, ("source",), f"'source' must name the seed file, not {seed!r}")
        seed = None
    description = raw.get("description")
    if not isinstance(description, str) or not description.strip():
        problems.add(doc, ("description",), "missing 'description'")
    notes = raw.get("notes", [])
    if not isinstance(notes, list) or not all(isinstance(n, str) for n in notes):
        problems.add(doc, ("notes",), "'notes' must be a list of text")
        notes = []
    raw_tables = raw.get("tables")
    if not isinstance(raw_tables, dict) or not raw_tables:
        problems.add(doc, ("tables",), "missing 'tables'")
        return None
    tables: dict[str, Table] = {}
    for key, table_raw in raw_tables.items():
        table = build_table(doc, ("tables", key), expected_id, key, table_raw, problems, seed)
        if table is not None:
            tables[table.key] = table
    return Ruleset(
        id=expected_id,
        title=str(title),
        source=str(seed),
        description=str(description),
        tables=freeze(tables),
        notes=tuple(notes),
    )


# --- house tables keep the shape the code reads ---------------------------------------

#: cell keys that hold the printed text (what `generator.lookup.cell_text` prints), not a
#: value a program parses: a die roll printed there ("3d6") is only printed
PRINTED_FIELDS = frozenset({"result", "printed", "text"})
_DASH = "—"


def _has_die(node: Any) -> bool:
    """Say whether a parsed dice expression rolls at least one die."""
    from generator.dice.notation import dice_groups

    return any(True for _ in dice_groups(node))


def _dice_form(value: Any) -> str | None:
    """Return "plain" (``2d6``, ``d%``), "expression" (``1d6+1``) or None (not dice)."""
    from generator.dice.notation import Dice, DiceError, parse

    if not isinstance(value, str):
        return None
    try:
        node = parse(value)
    except DiceError:
        return None
    if not _has_die(node):
        return None
    plain = isinstance(node, Dice) and node == Dice(node.count, node.sides)
    return "plain" if plain else "expression"


@dataclass(frozen=True)
class _DiceSpot:
    """What the built-in table holds at one place that the code rolls: its dice form, an
    example, and whether a dash ("—", nothing to roll) stands there too."""

    form: str
    example: str
    dash: bool


def _dice_spot(values: list[Any]) -> _DiceSpot | None:
    """Return the dice a place holds if every value there is dice notation (or a dash)."""
    forms: list[str] = []
    examples: list[str] = []
    dash = False
    for value in values:
        if isinstance(value, str) and value.strip() == _DASH:
            dash = True
            continue
        form = _dice_form(value)
        if form is None:
            return None
        forms.append(form)
        examples.append(value)
    if not forms:
        return None
    plain = all(form == "plain" for form in forms)
    example = examples[0] if plain else examples[forms.index("expression")]
    return _DiceSpot("plain" if plain else "expression", example, dash)


def _dice_problem(value: Any, spot: _DiceSpot, what: str) -> str | None:
    """Say why `value` cannot stand where the built-in table has the dice `spot`."""
    from generator.dice.notation import DiceError, parse, plain_dice

    if spot.dash and isinstance(value, str) and value.strip() == _DASH:
        return None
    if spot.form == "expression" and _is_int(value):
        value = str(value)
    if not isinstance(value, str):
        return (
            f"{what} must be dice notation like the built-in '{spot.example}', "
            f"not {type(value).__name__} {shown(value)}"
        )
    try:
        if spot.form == "plain":
            plain_dice(value)
        else:
            parse(value)
    except DiceError as exc:
        kind = "plain dice" if spot.form == "plain" else "dice notation"
        return f"{what} must be {kind} like the built-in '{spot.example}': {exc}"
    return None


def _param_type(value: Any) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, list | tuple):
        return "a list"
    return "text"


def _check_house_params(ctx: _TableContext, builtin: Table, house: Table) -> None:
    """Every built-in param is kept, of its type, with dice where the built-in has dice."""
    for name, value in builtin.params.items():
        if name not in house.params:
            ctx.add(
                ("params",),
                f"the house table drops the param '{name}' (the built-in table has: "
                f"{', '.join(builtin.params)}); keep every param, the code reads them by name",
            )
            continue
        mine = house.params[name]
        wanted, found = _param_type(value), _param_type(mine)
        if wanted != found and not (wanted == "text" and found == "a number"):
            ctx.add(
                ("params", name),
                f"param '{name}' must be {wanted}, as in the built-in table "
                f"({shown(_as_written(value))}), not {found}",
            )
            continue
        # a list of dice (d6, d8, d10) is checked item by item
        listed = isinstance(value, tuple)
        spot = _dice_spot(list(value) if listed else [value])
        if spot is None:
            continue
        places = [((name, i), item) for i, item in enumerate(mine)] if listed else [((name,), mine)]
        for at, item in places:
            problem = _dice_problem(item, spot, f"param '{name}'")
            if problem:
                ctx.add(("params", *at), problem)


def _as_written(value: Any) -> Any:
    """Return a frozen param as written in YAML (a tuple as a list), for a message."""
    return list(value) if isinstance(value, tuple) else value


def _check_house_modifiers(ctx: _TableContext, builtin: Table, house: Table) -> None:
    """Every built-in modifier id is kept, with its choices and its kind of value."""
    where = {mod.id: i for i, mod in enumerate(house.modifiers)}
    ids = ", ".join(mod.id for mod in builtin.modifiers)
    for mod in builtin.modifiers:
        index = where.get(mod.id)
        if index is None:
            ctx.add(
                ("items",),
                f"the house table drops the modifier '{mod.id}' that the resolvers read "
                f"(the built-in table has: {ids})",
            )
            continue
        mine = house.modifiers[index]
        dropped = [choice for choice in mod.by if choice not in mine.by]
        if dropped:
            ctx.add(
                ("items", index, "by"),
                f"modifier '{mod.id}' drops the choice '{dropped[0]}' of its 'by' that the "
                f"resolvers pass (the built-in one has: {', '.join(mod.by)})",
            )
        if _is_int(mod.value) and not _is_int(mine.value):
            ctx.add(
                ("items", index, "value"),
                f"modifier '{mod.id}' needs a whole-number 'value' like the built-in one "
                f"({mod.value}) that the resolvers add, not '{shown(mine.value)}'",
            )


def _check_house_axes(ctx: _TableContext, builtin: Table, house: Table) -> bool:
    """The axes keep their names and order, numbers or labels, and their dice; False
    when the names differ (then the cells cannot be compared)."""
    names = [axis.name for axis in builtin.axes]
    mine = [axis.name for axis in house.axes]
    if names != mine:
        ctx.add(
            ("axes",),
            f"the house table's axes are {', '.join(mine)} but the built-in table's are "
            f"{', '.join(names)}: keep the axis names, in this order (the resolvers look "
            "axes up by name)",
        )
        return False
    for i, (axis, own) in enumerate(zip(builtin.axes, house.axes, strict=True)):
        if axis.numeric and not own.numeric:
            ctx.add(
                ("axes", i, "values"),
                f"axis '{axis.name}' must hold numbers and ranges, as in the built-in table "
                f"({', '.join(axis.labels)}): the code looks it up by number",
            )
        elif own.numeric and not axis.numeric:
            ctx.add(
                ("axes", i, "values"),
                f"axis '{axis.name}' must hold labels, as in the built-in table "
                f"({', '.join(axis.labels)}): the code looks it up by name",
            )
        if axis.dice is not None and own.dice is None:
            ctx.add(
                ("axes", i),
                f"axis '{axis.name}' is rolled on {axis.dice} in the built-in table: "
                "say which dice with 'dice:' here too",
            )
    return True


def _leaves(cells: Any, depth: int, at: tuple[int, ...] = ()) -> list[tuple[tuple[int, ...], Any]]:
    """Return every cell of a table with its indices, one per axis."""
    if depth == 0:
        return [(at, cells)]
    found: list[tuple[tuple[int, ...], Any]] = []
    for i, entry in enumerate(cells):
        found.extend(_leaves(entry, depth - 1, (*at, i)))
    return found


def _quoted(names: list[str]) -> str:
    return ", ".join(f"'{name}'" for name in names)


def _check_house_cells(ctx: _TableContext, builtin: Table, house: Table) -> None:
    """The cells keep the fields and dice the code reads (see `check_house_table`)."""
    if builtin.cell_format is not None and house.cell_format != builtin.cell_format:
        ctx.add(
            ("cell_format",),
            f"the built-in table reads its cells as 'cell_format: {builtin.cell_format}'; "
            f"the house table must too (the code reads the fields it gives), "
            f"not {house.cell_format or 'no cell_format'}",
        )
    depth = len(builtin.axes)
    cells = _leaves(builtin.cells, depth)
    mappings = [cell for _, cell in cells if isinstance(cell, Mapping)]
    texts = [cell for _, cell in cells if not isinstance(cell, Mapping)]
    common = [key for key in mappings[0] if all(key in c for c in mappings)] if mappings else []
    fields = list(dict.fromkeys(key for cell in mappings for key in cell))
    spots = {
        key: spot
        for key in fields
        if key not in PRINTED_FIELDS
        and (spot := _dice_spot([c[key] for c in mappings if key in c])) is not None
    }
    text_spot = _dice_spot(texts)
    mine = _leaves(house.cells, depth)
    for at, cell in mine:
        rel: KeyPath = ("cells", *at)
        if not isinstance(cell, Mapping):
            if not texts:
                ctx.add(
                    rel,
                    "the cell must be a mapping with "
                    f"{_quoted(common) or 'fields'}, as every built-in cell is "
                    "(the code reads its fields)",
                )
                continue
            problem = _dice_problem(cell, text_spot, "the cell") if text_spot else None
            if problem:
                ctx.add(rel, problem)
            continue
        if not mappings:
            ctx.add(
                rel,
                "the cell must be text or a number, as every built-in cell is "
                "(the code reads the cell itself)",
            )
            continue
        missing = [key for key in common if key not in cell]
        if missing:
            ctx.add(
                rel,
                f"the cell has no {_quoted(missing)}, which every cell of the built-in table "
                "has and the code reads",
            )
        for key, spot in spots.items():
            if key in cell:
                problem = _dice_problem(cell[key], spot, f"'{key}'")
                if problem:
                    ctx.add((*rel, key), problem)
    if mappings and not any(axis.numeric for axis in builtin.axes):
        _check_named_cells(ctx, builtin, house, cells, set(common))


def _check_named_cells(
    ctx: _TableContext,
    builtin: Table,
    house: Table,
    cells: list[tuple[tuple[int, ...], Any]],
    common: set[str],
) -> None:
    """In a table of labels the code finds a cell by name and reads what that cell has
    (the Kick row's 'serious_damage'): a house cell under the same labels keeps it."""
    for at, cell in cells:
        if not isinstance(cell, Mapping):
            continue
        own = [key for key in cell if key not in common]
        if not own:
            continue
        labels = [axis.values[i].label for axis, i in zip(builtin.axes, at, strict=True)]
        found: list[int] = []
        for axis, label in zip(house.axes, labels, strict=True):
            index = next((j for j, v in enumerate(axis.values) if v.matches(label)), None)
            if index is None:
                break
            found.append(index)
        if len(found) != len(labels):
            continue
        mine = house.cell(*found)
        if not isinstance(mine, Mapping):
            continue
        missing = [key for key in own if key not in mine]
        if missing:
            named = ", ".join(
                f"{axis.name} '{label}'" for axis, label in zip(builtin.axes, labels, strict=True)
            )
            ctx.add(
                ("cells", *found),
                f"the cell for {named} has no {_quoted(missing)}, which the built-in cell for "
                f"{named} has and the code reads by name",
            )


def check_house_table(
    doc: YamlDoc, base: KeyPath, builtin: Table, house: Table, problems: Problems
) -> None:
    """Check that a house table keeps the shape of the built-in table it replaces.

    The resolvers, generators and sheets read a table by its parts' names, so a house
    table keeps: the kind; every param (of its type: a number stays a number); every
    modifier id, with its `by` choices, a whole-number value staying one; the axis names
    in order, numbers or labels as built in, a rolled axis still rolled; the cell_format;
    mapping cells where the built-in cells are all mappings (text where all text); every
    field every built-in cell has, in every cell; in a table of labels, the fields of a
    built-in cell in the house cell under the same labels. Where every built-in value of a
    param, a cell field or the text cells is dice notation, the house values must be too:
    plain dice (``2d6``) where the built-in ones are all plain, else any expression.
    Problems go to `problems`, one line each, with the line in `doc` under `base`.
    """
    ctx = _TableContext(doc, base, house.id, problems)
    if house.kind != builtin.kind:
        ctx.add(
            ("kind",),
            f"the house table is of kind '{house.kind}' but the built-in one is "
            f"'{builtin.kind}': a house table keeps the kind the code reads",
        )
        return
    _check_house_params(ctx, builtin, house)
    if builtin.kind == "modifiers":
        _check_house_modifiers(ctx, builtin, house)
    elif builtin.kind == "table" and _check_house_axes(ctx, builtin, house):
        _check_house_cells(ctx, builtin, house)
