"""The start of a tactical turn: the wind, the Draw Phase and who moves first."""

from __future__ import annotations

from typing import Any

from generator.loading import Rules
from generator.resolve import (
    Choice,
    Context,
    Inputs,
    Outcome,
    Param,
    ResolveInputError,
    Resolver,
    SteppedResolver,
    register,
)
from generator.resolve.tactical.common import (
    CARDS,
    MOVE,
    REAL_TIE_REROLLS,
    WIND,
    WIND_CHANGE,
    plural,
    untied_pair,
)
from generator.text import fold


@register
class WindChange(Resolver):
    id = "tactical.wind-change"
    title = "Wind change"
    summary = (
        "1D6 at the beginning of each turn: 1-5 the wind stays the same, 6 roll 1D10 on the "
        "Wind Direction table (at the beginning of the game, roll the table at once)."
    )
    tables = (WIND_CHANGE, WIND)
    examples = ({}, {"initial": "yes"})
    params = (
        Param(
            "initial",
            "beginning of the game: roll the Wind Direction table",
            kind="bool",
            default=False,
        ),
    )

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        if not inputs["initial"]:
            (axis,) = ctx.table(WIND_CHANGE).axes
            roll = ctx.roll(axis.dice or "1d6", "Wind change")
            if not ctx.lookup(WIND_CHANGE, roll=roll).fields()["changes"]:
                return Outcome("stays the same", (), (("roll", roll),))
        (axis,) = ctx.table(WIND).axes
        roll = ctx.roll(axis.dice or "1d10", "Wind direction")
        cell = ctx.lookup(WIND, roll=roll)
        fields = cell.fields()
        if isinstance(fields["from_bearing"], int):
            wind = f"wind from {cell.text}"
            change = (
                f"Wind from {cell.text} ({fields['from_bearing']}°), blowing towards "
                f"{fields['downwind_bearing']}°"
            )
        else:
            wind = cell.text
            change = f"Wind: {cell.text}"
        result = wind if inputs["initial"] else f"changes: {wind}"
        return Outcome(result, (change,), (("wind", cell.text),))


DRAW = "tactical.draw"
ADMIRAL = "tactical.admiral"
PHASES = "tactical.turn-phases"
NO_ADMIRAL = ("none", "no", "")


def _admiral(rules: Rules, resolver_id: str, raw: str) -> tuple[str, dict[str, Any]] | None:
    """Return the admiral result named in `raw` and its cell, or None for no admiral."""
    if raw.strip().casefold() in NO_ADMIRAL:
        return None
    table = rules.table(ADMIRAL)
    for cell in table.cells:
        if fold(str(cell["result"])) == fold(raw):
            return str(cell["result"]), dict(cell)
    known = ", ".join(str(cell["result"]) for cell in table.cells)
    raise ResolveInputError(f"{resolver_id}: admiral={raw}: not one of none, {known}")


@register
class Draw(Resolver):
    id = "tactical.draw"
    title = "Draw Phase"
    summary = (
        "Each player draws 2 cards (a Brilliant admiral one more); if the deck runs out, "
        "shuffle the discard pile and draw from it; the hand is at most 5 cards (a "
        "Tactician's 2 more), excess cards are discarded."
    )
    tables = (DRAW, ADMIRAL, CARDS, PHASES)
    examples = (
        {"hand": "4", "deck": "10"},
        {"hand": "3", "deck": "1", "discard": "6", "admiral": "brilliant"},
        {"hand": "5", "deck": "0", "admiral": "tactician"},
        {"hand": "0", "deck": "1", "discard": "0"},
    )
    params = (
        Param(
            "hand", "cards in the player's hand before drawing", minimum=0, maximum=99, default=0
        ),
        Param("deck", "cards left in the deck", minimum=0, maximum=99, default=20),
        Param(
            "discard",
            "cards in the discard pile (optional: if left out, enough for a reshuffle)",
            minimum=0,
            maximum=99,
            default=None,
        ),
        Param(
            "admiral",
            "the fleet's admiral (Admiral Character Table result, or none)",
            kind="text",
            default="none",
        ),
    )

    def check(self, inputs: Inputs, rules: Rules) -> None:
        _admiral(rules, self.id, inputs["admiral"])
        size = int(rules.table(CARDS).params["deck_size"])
        held = inputs["hand"] + inputs["deck"] + (inputs["discard"] or 0)
        if held > size:
            raise ResolveInputError(
                f"{self.id}: hand + deck + discard = {held}, but the action deck has only "
                f"{size} cards"
            )

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        phases = [item.text for item in ctx.table(PHASES).items]
        if self.title in phases:
            ctx.explain(f"{self.title}: phase {phases.index(self.title) + 1} of {len(phases)}.")
        wanted = ctx.add("Each player draws", ctx.param(DRAW, "cards_drawn"), DRAW)
        limit = ctx.param(DRAW, "max_hand_size")
        admiral = _admiral(ctx.rules, self.id, inputs["admiral"])
        if admiral is not None:
            name, cell = admiral
            if cell.get("extra_cards"):
                wanted += ctx.add(f"{name}: {cell['bonus']}", int(cell["extra_cards"]), ADMIRAL)
            if cell.get("hand_size"):
                change = ctx.add(f"{name}: {cell['bonus']}", int(cell["hand_size"]), ADMIRAL)
                limit += change
            if not cell.get("extra_cards") and not cell.get("hand_size"):
                ctx.explain(f"{name}: no change to the Draw Phase.")
        deck, discard = inputs["deck"], inputs["discard"]
        changes: list[str] = []
        first = min(deck, wanted)
        deck -= first
        if first:
            changes.append(f"Draw {plural(first, 'card')} from the deck")
        rest = wanted - first
        reshuffled = False
        second = 0
        if rest:
            reshuffled = discard is None or discard > 0
            if reshuffled:
                pile = "" if discard is None else f" ({plural(discard, 'card')})"
                ctx.explain(
                    f"The deck runs out with {plural(rest, 'card')} still to draw: shuffle "
                    f"the discard pile{pile} and draw from it."
                )
                second = rest if discard is None else min(discard, rest)
                if discard is not None:
                    deck, discard = discard - second, 0
                changes.append(
                    f"Deck out: shuffle the discard pile, draw {plural(second, 'card')} from it"
                )
            if second < rest:
                ctx.explain(
                    f"No cards left to draw: {plural(rest - second, 'card')} cannot be drawn."
                )
        drawn = first + second
        hand = inputs["hand"] + drawn
        excess = max(hand - limit, 0)
        ctx.explain(
            f"Drew {plural(drawn, 'card')}: hand {hand}, maximum {limit}"
            + (f": discard {excess}." if excess else ".")
        )
        if excess:
            changes.append(f"Discard {plural(excess, 'card')} of your choice (hand {limit})")
            if discard is not None:
                discard += excess
        result = f"draws {drawn}" + (" after a reshuffle" if reshuffled else "")
        if excess:
            result += f", discards {excess}"
        details: list[tuple[str, Any]] = [
            ("drawn", drawn),
            ("reshuffled", reshuffled),
            ("discarded", excess),
            ("hand", hand - excess),
            ("hand_limit", limit),
        ]
        if inputs["discard"] is not None or not reshuffled:
            details.append(("deck", deck))
        if discard is not None:
            details.append(("discard", discard))
        return Outcome(result, tuple(changes), tuple(details))


@register
class MoveOrder(SteppedResolver):
    id = "tactical.move-order"
    title = "Who moves first (Move Phase)"
    summary = (
        "The player with the ship with the highest movement rating (Sails + Skill + "
        "Swiftness) chooses whether to go first or second; if tied, each rolls 1D6 and the "
        "higher roll chooses (equal rolls rolled again)."
    )
    tables = (MOVE,)
    examples = (
        {},
        {"player": "5", "opponent": "3"},
        {"player": "2", "opponent": "4", "choice": "second"},
    )
    params = (
        Param(
            "player",
            "highest movement rating (Sails + Skill + Swiftness) of the player's ships",
            minimum=-30,
            maximum=60,
            default=3,
        ),
        Param(
            "opponent",
            "highest movement rating of the opponent's ships",
            minimum=-30,
            maximum=60,
            default=3,
        ),
        Choice(
            "choice",
            "what the side that chooses picks",
            choices=("first", "second"),
            default="first",
        ),
    )

    def start(self, rules: Rules, inputs: Inputs) -> tuple[str]:
        return ("start",)

    def step(self, ctx: Context, inputs: Inputs, state: Any) -> Any:
        die = ctx.param(MOVE, "tie_roll")
        player, opponent = inputs["player"], inputs["opponent"]
        if state == ("start",):
            if player != opponent:
                chooser = "player" if player > opponent else "opponent"
                ctx.explain(
                    f"Movement rating {player} v {opponent}: the {chooser} has the ship with "
                    "the highest movement rating and chooses."
                )
                return self._chosen(ctx, inputs, chooser)
            ctx.explain(f"Tied at movement rating {player}: roll high on {die}.")
            tries = 0
        else:
            tries = state[1]
        if tries <= REAL_TIE_REROLLS:
            again = " (re-roll)" if tries else ""
            a = ctx.roll(die, f"Player's roll{again}")
            b = ctx.roll(die, f"Opponent's roll{again}")
        else:
            a, b = untied_pair(ctx, die, 0, 0, ("player", "opponent"))
        if a == b:
            ctx.explain(f"Both rolled {a}: roll again.")
            return ("tie", tries + 1)
        chooser = "player" if a > b else "opponent"
        ctx.explain(f"Player {a} v opponent {b}: the {chooser} rolled high and chooses.")
        return self._chosen(ctx, inputs, chooser)

    @staticmethod
    def _chosen(ctx: Context, inputs: Inputs, chooser: str) -> Outcome:
        other = "opponent" if chooser == "player" else "player"
        first = chooser if inputs["choice"] == "first" else other
        second = other if first == chooser else chooser
        ctx.explain(f"The {chooser} chooses to go {inputs['choice']}: the {first} moves first.")
        return Outcome(
            f"{first} goes first",
            (
                f"The {chooser} chooses to go {inputs['choice']}",
                f"Players take turns moving one ship at a time, the {first} first, then the "
                f"{second}",
            ),
            (("chooser", chooser), ("first", first)),
        )
