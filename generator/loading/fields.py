"""Read the small parts of a raw table: its keys, text, whole numbers and plain values."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from generator.loading.problems import TableContext
from generator.yamlfile import KeyPath

#: a snake_case name: an axis or a param
SNAKE = re.compile(r"[a-z][a-z0-9_]*")


def is_int(value: Any) -> bool:
    """Say whether `value` is a whole number (YAML's true and false are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_keys(ctx: TableContext, raw: Mapping[str, Any], allowed: set[str], rel: KeyPath) -> None:
    """Report each key of `raw` that is not `allowed`, naming the allowed ones."""
    for key in raw:
        if key not in allowed:
            hint = ", ".join(sorted(allowed))
            ctx.add((*rel, key), f"unknown key '{key}' (allowed: {hint})")


def read_text(
    ctx: TableContext, raw: Mapping[str, Any], key: str, rel: KeyPath, required: bool
) -> str | None:
    """Return `raw[key]` as text (a number is written out), reporting a missing or
    non-text value; None when there is no usable text."""
    value = raw.get(key)
    if value is None:
        if required:
            ctx.add(rel, f"missing '{key}'")
        return None
    if isinstance(value, str) and value.strip():
        return value
    if is_int(value) or isinstance(value, float):
        return str(value)
    ctx.add((*rel, key), f"'{key}' must be text, not {type(value).__name__}")
    return None


def text_list(ctx: TableContext, raw: Any, rel: KeyPath) -> tuple[str, ...]:
    """Return a list of text, reporting each item that is not text."""
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


def json_like(value: Any, depth: int = 0) -> bool:
    """Say whether `value` is plain data (text, numbers, lists, mappings), nested
    at most five deep."""
    if depth > 4:
        return False
    if value is None or isinstance(value, str | int | float | bool):
        return True
    if isinstance(value, list):
        return all(json_like(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and json_like(v, depth + 1) for k, v in value.items())
    return False
