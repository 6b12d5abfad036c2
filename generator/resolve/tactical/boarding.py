"""The tactical Boarding Action Phase: a boarding action."""

from __future__ import annotations

from typing import Any

from generator.loading import Rules
from generator.lookup import lookup
from generator.resolve import (
    Context,
    Effect,
    Inputs,
    Outcome,
    Param,
    ResolveInputError,
    SteppedResolver,
    register,
)
from generator.resolve.tactical.common import (
    BOARDING,
    CARDS,
    REAL_TIE_REROLLS,
    ZERO,
    card_list,
    plural,
    untied_pair,
)


@register
class Boarding(SteppedResolver):
    id = "tactical.boarding"
    title = "Boarding action"
    summary = (
        "Each side rolls 1D6 + Crew + Boarding (+2 per boarding card); the higher score wins "
        "and captures the loser's ship; ties are re-rolled. A ship at zero Crew cannot board "
        "and loses any boarding: it cannot repel boarders, and the winner must transfer a crew "
        "point to it to gain control of it."
    )
    tables = (BOARDING, CARDS, ZERO)
    examples = (
        {},
        {"boarder_crew": "5", "defender_crew": "4", "boarder_boarding": "1"},
        {
            "boarder_crew": "3",
            "defender_crew": "6",
            "boarder_cards": "rally-the-men,swords-and-pistols",
        },
        {"defender_crew": "0"},
        {"boarder_crew": "1", "defender_crew": "0"},
    )
    params = (
        Param(
            "boarder_crew", "Crew rating of the ship that boards", minimum=0, maximum=20, default=4
        ),
        Param("boarder_boarding", "its Boarding rating", minimum=0, maximum=20, default=0),
        Param("defender_crew", "Crew rating of the ship boarded", minimum=0, maximum=20, default=4),
        Param("defender_boarding", "its Boarding rating", minimum=0, maximum=20, default=0),
        Param(
            "boarder_cards",
            "boarding cards the boarder plays (comma-separated, or none)",
            kind="text",
            default="none",
        ),
        Param(
            "defender_cards",
            "boarding cards the defender plays (comma-separated, or none)",
            kind="text",
            default="none",
        ),
    )

    def check(self, inputs: Inputs, rules: Rules) -> None:
        if inputs["boarder_crew"] == 0:
            zero = lookup(rules, ZERO, {"rating": "crew"})
            if not zero.fields()["can_board"]:
                raise ResolveInputError(
                    f"{self.id}: boarder_crew=0: a ship at zero Crew cannot board "
                    f"({zero.fields()['in_play']}); the other ship may board it"
                )
        for side in ("boarder", "defender"):
            card_list(
                rules, self.id, inputs[f"{side}_cards"], "boarding", "the Boarding Action roll"
            )

    def _bonus(self, ctx: Context, inputs: Inputs, side: str) -> int:
        total = 0
        for rating in ctx.param(BOARDING, "adds"):
            if inputs[f"{side}_{rating}"]:
                total += ctx.add(
                    f"{side.title()}: {rating.title()} rating", inputs[f"{side}_{rating}"], BOARDING
                )
        cards = card_list(
            ctx.rules, self.id, inputs[f"{side}_cards"], "boarding", "the Boarding Action roll"
        )
        for card in cards:
            fields = ctx.lookup(CARDS, card=card).fields()
            total += ctx.add(f"{side.title()}: {card}", int(fields["boarding"]), CARDS)
        return total

    def start(self, rules: Rules, inputs: Inputs) -> tuple[str]:
        return ("start",)

    def step(self, ctx: Context, inputs: Inputs, state: Any) -> Any:
        """First round: bonuses and the rolls; then ("tie", re-rolls so far, bonuses)."""
        die = ctx.param(BOARDING, "roll")
        if state == ("start",):
            if inputs["defender_crew"] == 0:
                zero = ctx.lookup(ZERO, rating="crew")
                if zero.fields()["loses_boarding"] or not zero.fields()["can_repel_boarders"]:
                    ctx.explain(
                        "The defender is at zero Crew: it cannot repel boarders and loses the "
                        "boarding action without a roll."
                    )
                    return self._won(ctx, inputs, "boarder", 0, 0)
            boarder = self._bonus(ctx, inputs, "boarder")
            defender = self._bonus(ctx, inputs, "defender")
            a = ctx.roll(die, "Boarder's boarding action roll")
            d = ctx.roll(die, "Defender's boarding action roll")
            return self._compare(ctx, inputs, 0, boarder, defender, a, d)
        _, tries, boarder, defender = state
        if tries <= REAL_TIE_REROLLS:
            a = ctx.roll(die, "Boarder's boarding action roll (re-roll)")
            d = ctx.roll(die, "Defender's boarding action roll (re-roll)")
            return self._compare(ctx, inputs, tries, boarder, defender, a, d)
        a, d = untied_pair(ctx, die, boarder, defender, ("boarder", "defender"))
        return self._compare(ctx, inputs, tries, boarder, defender, a, d)

    def _compare(
        self, ctx: Context, inputs: Inputs, tries: int, boarder: int, defender: int, a: int, d: int
    ) -> Any:
        ours, theirs = a + boarder, d + defender
        if ours == theirs:
            ctx.explain(f"Tie at {ours}: reroll.")
            return ("tie", tries + 1, boarder, defender)
        winner = "boarder" if ours > theirs else "defender"
        ctx.explain(f"Boarder {ours} v defender {theirs}: the {winner} wins.")
        return self._won(ctx, inputs, winner, ours, theirs)

    def _won(self, ctx: Context, inputs: Inputs, winner: str, ours: int, theirs: int) -> Outcome:
        points = ctx.param(BOARDING, "crew_points_to_control")
        loser = "defender" if winner == "boarder" else "boarder"
        crew = plural(points, "crew point")
        if inputs[f"{loser}_crew"] == 0:
            captured = (
                f"{winner.title()} captures the {loser}'s ship, which has no crew: the {winner} "
                f"must transfer {crew} to it to gain control of it, or sink it"
            )
        else:
            captured = (
                f"{winner.title()} captures the {loser}'s ship: sink it, or transfer {crew} to "
                "it to gain control of it"
            )
        changes = [captured]
        if inputs[f"{winner}_crew"] == points:
            zero = ctx.lookup(ZERO, rating="crew")
            changes.append(
                f"Transferring leaves the {winner} at zero Crew: {zero.fields()['in_play']}"
            )
        return Outcome(
            f"{winner} captures",
            tuple(changes),
            (("boarder", ours), ("defender", theirs)),
            # sinking her or transferring crew is the winner's choice: only the capture is data
            (Effect("target" if loser == "defender" else "ship", "state", state="captured"),),
        )
