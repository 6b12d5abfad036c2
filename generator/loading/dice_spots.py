"""Where a built-in table holds dice, a house table must hold dice of the same form.

A place (a param, a cell field, the text cells) whose every built-in value is dice notation
is a place the code rolls: plain dice (``2d6``) where all are plain, else any expression.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from generator.errors import shown
from generator.loading.fields import is_int

_DASH = "—"


# The dice are imported in the functions: house tables are checked only when a --rules file
# is read, and `lookup` starts without the dice package otherwise.


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
class DiceSpot:
    """What the built-in table holds at one place that the code rolls: its dice form, an
    example, and whether a dash ("—", nothing to roll) stands there too."""

    form: str
    example: str
    dash: bool


def dice_spot(values: list[Any]) -> DiceSpot | None:
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
    return DiceSpot("plain" if plain else "expression", example, dash)


def dice_problem(value: Any, spot: DiceSpot, what: str) -> str | None:
    """Say why `value` cannot stand where the built-in table has the dice `spot`."""
    from generator.dice.notation import DiceError, parse, plain_dice

    if spot.dash and isinstance(value, str) and value.strip() == _DASH:
        return None
    if spot.form == "expression" and is_int(value):
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
