"""Parse printed table cells into the fields programs use.

A table names its cell format in ``cell_format``; validation runs the parser on every
string cell, so a typo in a cell is caught at load time rather than mid-game.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

DASH = "—"


class CellFormatError(ValueError):
    """A cell does not read in its table's format."""


_HRC = re.compile(r"(\d+)([HRC])")
_HRC_NAMES = {"H": "hull", "R": "rigging", "C": "crew"}


def parse_hrc(text: str) -> dict[str, int]:
    """Read impulse damage such as ``2H2R2C`` into hull, rigging and crew hits."""
    if not re.fullmatch(r"(?:\d+[HRC])+", text):
        raise CellFormatError(f"'{text}' is not hits such as 2H1R1C")
    found: dict[str, int] = {"hull": 0, "rigging": 0, "crew": 0}
    seen: set[str] = set()
    for count, letter in _HRC.findall(text):
        if letter in seen:
            raise CellFormatError(f"'{text}' names {letter} twice")
        seen.add(letter)
        found[_HRC_NAMES[letter]] = int(count)
    return found


def parse_pair(text: str) -> dict[str, int]:
    """Read ``7/6`` into first and second numbers."""
    match = re.fullmatch(r"(\d+)/(\d+)", text)
    if not match:
        raise CellFormatError(f"'{text}' is not a pair such as 7/6")
    return {"first": int(match[1]), "second": int(match[2])}


def parse_signed(text: str | int) -> dict[str, int]:
    """Read ``+2``, ``-1`` or ``0`` as a modifier."""
    if isinstance(text, int):
        return {"modifier": text}
    match = re.fullmatch(r"([+\-−–]?)(\d+)", text.strip())
    if not match:
        raise CellFormatError(f"'{text}' is not a signed number such as +2")
    sign = -1 if match[1] in ("-", "−", "–") else 1
    return {"modifier": sign * int(match[2])}


_FLOB = re.compile(r"(\d?)rr(?:, (s|str))?")


def parse_flob_broadside(text: str) -> dict[str, Any]:
    """Read a FLoB broadside result: ``—``, ``rr``..``3rr``, with ``, s`` or ``, str``."""
    if text == DASH:
        return {"rr": 0, "shattered": False, "strike_test": False}
    match = _FLOB.fullmatch(text)
    if not match:
        raise CellFormatError(f"'{text}' is not a broadside result such as 2rr or 3rr, str")
    return {
        "rr": int(match[1] or 1),
        "shattered": match[2] == "s",
        "strike_test": match[2] == "str",
    }


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


CELL_FORMATS: dict[str, Callable[[Any], dict[str, Any]]] = {
    "hrc": parse_hrc,
    "pair": parse_pair,
    "signed": parse_signed,
    "flob-broadside": parse_flob_broadside,
    "d6-target": parse_d6_target,
    "range-change": parse_range_change,
}


def parse_cell(cell_format: str, cell: Any) -> dict[str, Any]:
    """Return the parsed fields of `cell` in `cell_format` (empty for mapping cells)."""
    if isinstance(cell, dict) or hasattr(cell, "keys"):
        return {}
    return CELL_FORMATS[cell_format](cell)
