"""A tactical ship at zero in a rating: whether and when she sinks."""

from __future__ import annotations

from generator.resolve import Choice, Context, Effect, Inputs, Outcome, Resolver, register
from generator.resolve.tactical.common import ZERO, plural


@register
class Sinking(Resolver):
    id = "tactical.sinking"
    title = "Sinking"
    summary = (
        "A ship reduced to zero Hull cannot move and sinks in 1D6 turns; one reduced to zero "
        "Cannon blows its hold and sinks at once; zero Crew or Sails do not sink a ship."
    )
    tables = (ZERO,)
    examples = ({}, {"rating": "cannon"}, {"rating": "crew"})
    params = (
        Choice(
            "rating",
            "the rating reduced to zero",
            choices_from=(ZERO, "rating"),
            default="Hull",
        ),
    )

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        zero = ctx.lookup(ZERO, rating=inputs["rating"])
        fields = zero.fields()
        rating = inputs["rating"]
        meanwhile = () if fields["can_move"] else ("Until then it cannot move",)
        if fields.get("sink_dice"):
            turns = ctx.roll(str(fields["sink_dice"]), "Turns until the ship sinks")
            ctx.explain(f"At zero {rating} the ship sinks in {plural(turns, 'turn')}.")
            return Outcome(
                f"sinks in {plural(turns, 'turn')}",
                (f"The ship sinks in {plural(turns, 'turn')}", *meanwhile),
                (("turns", turns),),
                (Effect("ship", "state", state="sinking"),),
            )
        if fields["sinks"] == "immediately":
            ctx.explain(f"At zero {rating} the ship sinks at once.")
            return Outcome(
                "sinks at once",
                ("The ship sinks at once",),
                (("turns", 0),),
                (Effect("ship", "state", state="sunk"),),
            )
        ctx.explain(f"Zero {rating} does not sink a ship: it {fields['in_play']}.")
        return Outcome("does not sink", (f"The ship {fields['in_play']}",))
