"""Read the numbers a table prints: an axis label such as ``2-4`` or ``7+``, and the span
of a die roll such as ``2d6``."""

from __future__ import annotations

import re


def dice_range(dice: str) -> tuple[int, int] | None:
    """Return the lowest and highest total of plain dice such as ``2d6`` or ``d%``."""
    # imported here: tables are built only when the rules' snapshot is stale, and `lookup`
    # starts without the dice package otherwise (it costs that command about 10 ms)
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
