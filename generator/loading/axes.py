"""Build a table's axes: their values (numbers, ranges or labels) and, for a rolled axis,
that its values cover the dice without gaps or overlaps."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from generator.loading.fields import SNAKE, check_keys, is_int
from generator.loading.model import Axis, AxisValue
from generator.loading.problems import TableContext
from generator.loading.ranges import dice_range, parse_range_label
from generator.text import fold
from generator.yamlfile import KeyPath

_AXIS_KEYS = {"name", "title", "values", "dice", "modified"}
_VALUE_KEYS = {"label", "min", "max", "match", "note"}


def _build_axis_value(ctx: TableContext, raw: Any, rel: KeyPath) -> AxisValue | None:
    if is_int(raw):
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
        check_keys(ctx, raw, _VALUE_KEYS, rel)
        label = raw.get("label")
        if not isinstance(label, str | int) or not str(label).strip():
            ctx.add(rel, "an axis value mapping needs a 'label'")
            return None
        low, high = raw.get("min"), raw.get("max")
        for key, bound in (("min", low), ("max", high)):
            if bound is not None and not is_int(bound):
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


def _check_numeric_axis(ctx: TableContext, axis: Axis, rel: KeyPath) -> None:
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


def build_axis(ctx: TableContext, raw: Any, rel: KeyPath) -> Axis | None:
    if not isinstance(raw, dict):
        ctx.add(rel, "an axis must be a mapping with name and values")
        return None
    check_keys(ctx, raw, _AXIS_KEYS, rel)
    name = raw.get("name")
    if not isinstance(name, str) or not SNAKE.fullmatch(name):
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
