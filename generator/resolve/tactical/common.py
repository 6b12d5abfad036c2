"""What several tactical resolvers share: the tables they read, the action cards they play
and how a long run of tied rolls ends.
"""

from __future__ import annotations

from generator.dice import plain_dice
from generator.loading import Rules
from generator.resolve import Context, ResolveInputError

MOVE = "tactical.movement"
WIND_MOVE = "tactical.wind-movement"
CARDS = "tactical.cards"
BROADSIDE_RULES = "tactical.broadside-rules"
AMMO = "tactical.ammunition"
BROADSIDE = "tactical.broadside"
BROADSIDE_MODS = "tactical.broadside-modifiers"
ATTRIBUTE = "tactical.broadside-attribute"
BOARDING = "tactical.boarding"
ZERO = "tactical.zero-ratings"
WIND = "tactical.wind"
WIND_CHANGE = "tactical.wind-change"

# Ties in a boarding action are re-rolled this many times with real dice; a tie after that
# is settled by one roll over the untied pairs of faces, which gives exactly the same
# chances as re-rolling for ever (and keeps the exact odds finite).
REAL_TIE_REROLLS = 2


def card_list(rules: Rules, resolver_id: str, raw: str, roll_field: str, what: str) -> list[str]:
    """Return the card labels named in `raw` (comma-separated), refusing unknown ones.

    Every card must change `roll_field` (``movement``, ``broadside``, ``boarding``), and no
    card may be played more often than the deck holds it.
    """
    if raw.strip().casefold() in ("", "none", "no"):
        return []
    table = rules.table(CARDS)
    (axis,) = table.axes
    useful = [v.label for i, v in enumerate(axis.values) if roll_field in table.cell(i)]
    chosen: list[str] = []
    for name in (part.strip() for part in raw.split(",")):
        index = next((i for i, v in enumerate(axis.values) if v.matches(name)), None)
        if index is None or roll_field not in table.cell(index):
            problem = "is not a card" if index is None else f"does not change {what}"
            raise ResolveInputError(
                f"{resolver_id}: cards: '{name}' {problem} (cards for {what}: {', '.join(useful)})"
            )
        label = axis.values[index].label
        chosen.append(label)
        copies = int(table.cell(index).get("copies", 1))
        if chosen.count(label) > copies:
            raise ResolveInputError(
                f"{resolver_id}: cards: the deck holds only {copies} copies of {label}"
            )
    return chosen


def play_cards(ctx: Context, cards: list[str], roll_field: str) -> int:
    """Apply the cards' changes to a roll, recording each; return the total change."""
    total = 0
    for card in cards:
        fields = ctx.lookup(CARDS, card=card).fields()
        who = " (played by the opponent)" if fields.get("target") == "opponent" else ""
        if fields.get("when"):
            ctx.explain(f"{card} counts only when {fields['when']}.")
        total += ctx.add(f"{card}{who}", int(fields[roll_field]), CARDS)
    return total


def untied_pair(
    ctx: Context, die: str, first: int, second: int, names: tuple[str, str]
) -> tuple[int, int]:
    """Roll two sides' dice once over the pairs of faces whose scores differ.

    Re-rolling ties until the scores differ gives each untied pair the same chance, so one
    roll over those pairs ends a long run of ties with exactly the same odds.
    """
    sides = plain_dice(die).sides
    untied = [
        (x, y) for x in range(1, sides + 1) for y in range(1, sides + 1) if x + first != y + second
    ]
    ctx.explain(
        "Re-rolling until the scores differ is the same as one roll over the "
        f"{len(untied)} untied pairs of faces ({names[0]}'s die, {names[1]}'s die), counted in "
        "order."
    )
    a, b = untied[ctx.roll(f"1d{len(untied)}", "Tie re-roll over the untied pairs") - 1]
    ctx.explain(f"{names[0].capitalize()}'s die {a}, {names[1]}'s die {b}.")
    return a, b


def plural(count: int, word: str) -> str:
    """Return ``1 card``, ``3 cards``: `count` and the word, with an s unless 1."""
    return f"{count} {word}" + ("" if count == 1 else "s")
