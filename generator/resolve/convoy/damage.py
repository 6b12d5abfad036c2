"""Convoy death rolls: hits on a ship with no markers."""

from __future__ import annotations

from generator.resolve import Context, Effect, Inputs, Outcome, Param, Resolver, register
from generator.resolve.convoy.common import DEATH, counted_dice


@register
class DeathRoll(Resolver):
    id = "convoy.death-roll"
    title = "Death rolls"
    summary = "Hits on a ship with no markers: 1d6 per hit; a 1 and the ship burns."
    tables = (DEATH,)
    examples = ({"hits": "1"}, {"hits": "3"})
    params = (Param("hits", "hits on the ship with no markers", minimum=1, maximum=30, default=1),)

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        per_hit = ctx.param(DEATH, "dice_per_hit")
        burns_on = max(ctx.param(DEATH, "burns_on"))
        dice = inputs["hits"] * per_hit
        ones = ctx.roll(
            f"{dice}d6<={burns_on}", f"Death rolls, {counted_dice(dice)}, a {burns_on} burns"
        )
        if ones:
            ctx.explain("A 1 came up: the ship burns and stays in position.")
            return Outcome(
                "ship burns",
                ("Ship burns, stays in position",),
                (("ones", ones),),
                (Effect("ship", "state", state="burnt"),),
            )
        ctx.explain("No 1: the ship does not burn.")
        return Outcome("no fire", (), (("ones", 0),))
