"""Validate raw YAML tables and build the frozen model, collecting every problem.

Each check names the file, the line (where YAML knows it), the table and the key path, so
a GM editing a house-rules file can go straight to the spot.
"""

from __future__ import annotations

import re
from typing import Any

from generator.loading.axes import build_axis
from generator.loading.cells import CellFormatError, cell_formats, parse_cell
from generator.loading.fields import SNAKE, check_keys, is_int, json_like, read_text, text_list
from generator.loading.model import Axis, Modifier, RuleItem, Ruleset, Source, Table, freeze
from generator.loading.problems import Problems, TableContext
from generator.yamlfile import KeyPath, YamlDoc

KINDS = ("table", "modifiers", "rules")

_KEBAB = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
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
_MODIFIER_KEYS = {"id", "label", "value", "by", "group", "per", "note"}
_ITEM_KEYS = {"text", "label", "items"}
_RULESET_KEYS = {"ruleset", "title", "source", "description", "notes", "tables"}


def _build_source(ctx: TableContext, raw: Any, ruleset_seed: str | None) -> Source:
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


def _check_cell(ctx: TableContext, cell: Any, rel: KeyPath, cell_format: str | None) -> None:
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
            elif not json_like(value):
                ctx.add((*rel, key), f"'{key}' holds an unsupported value")
        effect = cell.get("effect")
        if effect is not None and (
            not isinstance(effect, dict) or not all(is_int(v) for v in effect.values())
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
    ctx: TableContext, cells: Any, axes: list[Axis], rel: KeyPath, cell_format: str | None
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


def _build_modifier(ctx: TableContext, raw: Any, rel: KeyPath) -> Modifier | None:
    if not isinstance(raw, dict):
        ctx.add(rel, "a modifier must be a mapping with id, label and value")
        return None
    check_keys(ctx, raw, _MODIFIER_KEYS, rel)
    mod_id = raw.get("id")
    if not isinstance(mod_id, str) or not _KEBAB.fullmatch(mod_id):
        ctx.add((*rel, "id"), f"modifier id {mod_id!r} must be kebab-case")
        return None
    label = read_text(ctx, raw, "label", rel, required=True)
    value = raw.get("value")
    if not (is_int(value) or (isinstance(value, str) and value.strip())) or value is None:
        ctx.add(
            (*rel, "value"),
            f"modifier '{mod_id}' needs a 'value': a whole number or the printed text",
        )
        return None
    by = raw.get("by", {})
    if not isinstance(by, dict) or not all(isinstance(k, str) and is_int(v) for k, v in by.items()):
        ctx.add((*rel, "by"), "'by' must map choices to whole numbers")
        by = {}
    extras = {k: read_text(ctx, raw, k, rel, required=False) for k in ("group", "per", "note")}
    return Modifier(
        id=mod_id,
        label=label or mod_id,
        value=value,
        by=freeze(by),
        group=extras["group"],
        per=extras["per"],
        note=extras["note"],
    )


def _build_item(ctx: TableContext, raw: Any, rel: KeyPath) -> RuleItem | None:
    if isinstance(raw, str | int) and str(raw).strip():
        return RuleItem(text=str(raw))
    if not isinstance(raw, dict):
        ctx.add(rel, "a rules item must be text or a mapping with 'text'")
        return None
    check_keys(ctx, raw, _ITEM_KEYS, rel)
    text = read_text(ctx, raw, "text", rel, required=True)
    label = read_text(ctx, raw, "label", rel, required=False)
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
    ctx = TableContext(doc, base, f"{ruleset_id}.{key}", problems)
    if not isinstance(key, str) or not _KEBAB.fullmatch(key):
        ctx.add((), f"table id {key!r} must be kebab-case, e.g. 'damage-effects'")
        return None
    if not isinstance(raw, dict):
        ctx.add((), "a table must be a mapping with title, kind, source ...")
        return None
    before = len(problems.messages)
    check_keys(ctx, raw, _TABLE_KEYS, ())
    kind = raw.get("kind")
    if kind not in KINDS:
        ctx.add(("kind",), f"'kind' must be one of {', '.join(KINDS)}, not {kind!r}")
        return None
    for other_kind, keys in _KIND_KEYS.items():
        if other_kind != kind:
            for stray in sorted(keys & set(raw) - _KIND_KEYS[kind]):
                ctx.add((stray,), f"'{stray}' does not belong in a table of kind '{kind}'")
    title = read_text(ctx, raw, "title", (), required=True)
    source = _build_source(ctx, raw.get("source"), ruleset_seed)
    house = raw.get("house", False)
    if not isinstance(house, bool):
        ctx.add(("house",), "'house' must be true or false")
        house = False
    if source.house is not None and not house:
        ctx.add(("house",), "a table with a house source must say 'house: true'")
    if house and source.house is None:
        ctx.add(("house",), "a house table needs 'source: {house: WHY}'")
    note = read_text(ctx, raw, "note", (), required=False)
    description = read_text(ctx, raw, "description", (), required=False)
    notes = text_list(ctx, raw.get("notes"), ("notes",))
    see = text_list(ctx, raw.get("see"), ("see",))
    params = raw.get("params", {})
    if not isinstance(params, dict):
        ctx.add(("params",), "'params' must be a mapping")
        params = {}
    for name, value in params.items():
        if not isinstance(name, str) or not SNAKE.fullmatch(name):
            ctx.add(("params", name), f"param name {name!r} must be snake_case")
        elif not json_like(value) or value is None:
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
        if cell_format is not None and cell_format not in cell_formats():
            ctx.add(
                ("cell_format",),
                f"unknown cell_format {cell_format!r} (known: {', '.join(sorted(cell_formats()))})",
            )
            cell_format = None
        raw_axes = raw.get("axes")
        if not isinstance(raw_axes, list) or not 1 <= len(raw_axes) <= 2:
            ctx.add(("axes",), "a table needs 'axes': a list of one or two axes")
            return None
        axes = [build_axis(ctx, a, ("axes", i)) for i, a in enumerate(raw_axes)]
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
        roll = read_text(ctx, raw, "roll", (), required=False)
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
