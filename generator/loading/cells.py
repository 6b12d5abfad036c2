"""Parse printed table cells into the fields programs use.

A table names its cell format in ``cell_format``; validation runs the parser on every
string cell, so a typo in a cell is caught at load time rather than mid-game.

The formats several rulesets could share are here. A format only one ruleset reads lives
with that ruleset: its spec names, under ``cell_formats``, the module that registers it
with `cell_format`, and `cell_formats` imports every such module the first time a format is
asked for, so the loader never names a ruleset's code.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

from generator.rulesets import SpecError, import_code, ruleset_specs

DASH = "—"

CellParser = Callable[[Any], dict[str, Any]]

P = TypeVar("P", bound=Callable[..., dict[str, Any]])

_FORMATS: dict[str, CellParser] = {}


class CellFormatError(ValueError):
    """A cell does not read in its table's format."""


def cell_format(name: str) -> Callable[[P], P]:
    """Decorator: make `parser` the reader of cells whose table says ``cell_format: name``.

    The parser takes a cell (text, or a number where the format allows one), returns its
    fields, and raises `CellFormatError` saying what the cell should look like.
    """

    def register(parser: P) -> P:
        known = _FORMATS.get(name)
        if known is not None and known is not parser:
            raise RuntimeError(
                f"cell format '{name}' registered twice ({known.__module__}.{known.__name__} "
                f"and {parser.__module__}.{parser.__name__})"
            )
        _FORMATS[name] = parser
        return parser

    return register


@cache
def _import_ruleset_formats() -> None:
    """Import the module each spec names under ``cell_formats`` (it registers the formats)."""
    for spec in ruleset_specs().values():
        if spec.cell_formats is None:
            continue
        import_code(spec, "cell_formats")
        if not any(parser.__module__ == spec.cell_formats for parser in _FORMATS.values()):
            line = spec.doc.line(("cell_formats",))
            raise SpecError(
                f"{spec.doc.path}:{line}: importing {spec.cell_formats} registered no cell "
                f"format for '{spec.id}'"
            )


def cell_formats() -> Mapping[str, CellParser]:
    """Return every cell format by name: the shared ones and each ruleset's own."""
    _import_ruleset_formats()
    return MappingProxyType(_FORMATS)


def format_sources() -> list[Path]:
    """Return the source files of every cell format's parser (they decide what loads)."""
    files = {sys.modules[parser.__module__].__file__ for parser in cell_formats().values()}
    return sorted(Path(file) for file in files if file is not None)


def parse_cell(cell_format: str, cell: Any) -> dict[str, Any]:
    """Return the parsed fields of `cell` in `cell_format` (empty for mapping cells)."""
    if isinstance(cell, dict) or hasattr(cell, "keys"):
        return {}
    return cell_formats()[cell_format](cell)


@cell_format("pair")
def parse_pair(text: str) -> dict[str, int]:
    """Read ``7/6`` into first and second numbers."""
    match = re.fullmatch(r"(\d+)/(\d+)", text)
    if not match:
        raise CellFormatError(f"'{text}' is not a pair such as 7/6")
    return {"first": int(match[1]), "second": int(match[2])}


@cell_format("signed")
def parse_signed(text: str | int) -> dict[str, int]:
    """Read ``+2``, ``-1`` or ``0`` as a modifier."""
    if isinstance(text, int):
        return {"modifier": text}
    match = re.fullmatch(r"([+\-−–]?)(\d+)", text.strip())
    if not match:
        raise CellFormatError(f"'{text}' is not a signed number such as +2")
    sign = -1 if match[1] in ("-", "−", "–") else 1
    return {"modifier": sign * int(match[2])}


@cell_format("d6-target")
def parse_d6_target(text: str) -> dict[str, Any]:
    """Read a target on a die: ``5-6``, ``6``, ``4, 5 or 6``, ``5, or 6``, ``impossible``."""
    cleaned = text.strip()
    if cleaned.casefold() == "impossible":
        return {"faces": [], "min": None, "possible": False}
    span = re.fullmatch(r"(\d+)\s*-\s*(\d+)", cleaned)
    if span:
        low, high = int(span[1]), int(span[2])
        faces = list(range(low, high + 1))
    else:
        parts = re.split(r"\s*,\s*(?:or\s+)?|\s+or\s+", cleaned)
        if not all(p.isdigit() for p in parts):
            raise CellFormatError(f"'{text}' is not a target such as 5-6 or '4, 5 or 6'")
        faces = sorted(int(p) for p in parts)
    if not faces or faces != list(range(faces[0], faces[-1] + 1)) or faces[-1] > 6 or faces[0] < 1:
        raise CellFormatError(f"'{text}' is not an unbroken run of d6 faces")
    return {"faces": faces, "min": faces[0], "possible": True}


@cell_format("range-change")
def parse_range_change(text: str | int) -> dict[str, Any]:
    """Read a change in range bands (``+1``, ``-2``, ``no change``) or a procedure."""
    if isinstance(text, int):
        return {"change": text}
    stripped = text.strip()
    if stripped.casefold() == "no change":
        return {"change": 0}
    try:
        return {"change": parse_signed(stripped)["modifier"]}
    except CellFormatError:
        return {"procedure": stripped}
