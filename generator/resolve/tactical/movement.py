"""The tactical Move Phase: a ship's movement roll."""

from __future__ import annotations

from generator.loading import Rules
from generator.resolve import Choice, Context, Inputs, Outcome, Param, Resolver, register
from generator.resolve.tactical.common import (
    CARDS,
    MOVE,
    WIND_MOVE,
    ZERO,
    card_list,
    play_cards,
    plural,
)


@register
class Movement(Resolver):
    id = "tactical.movement"
    title = "Movement roll"
    summary = (
        "2D6 - 4 + Sails + Skill + Swiftness, changed by the wind for the ship's heading and "
        "by movement cards: the most spaces the ship may move (below 0 read as 0). A ship at "
        "zero Sails, Hull or Crew may not move."
    )
    tables = (MOVE, WIND_MOVE, CARDS, ZERO)
    examples = (
        {"sails": "4", "skill": "0", "swiftness": "-1"},
        {
            "sails": "6",
            "swiftness": "-3",
            "heading": "in-the-direction-of-the-wind",
            "cards": "gust-of-wind",
        },
        {
            "sails": "2",
            "skill": "1",
            "swiftness": "1",
            "heading": "diagonally-against-the-wind",
            "cards": "calm-waters",
        },
        {"sails": "3", "calm": "yes"},
        {"sails": "0"},
        {"heading": "directly-against-the-wind"},
        {"sails": "5", "hull": "0"},
        {"crew": "0"},
    )
    params = (
        Param("sails", "Sails rating", minimum=-10, maximum=20, default=4),
        Param("skill", "Skill rating", minimum=-10, maximum=20, default=0),
        Param("swiftness", "Swiftness rating", minimum=-10, maximum=20, default=-1),
        Param(
            "hull",
            "Hull rating (optional; at 0 the ship cannot move)",
            minimum=0,
            maximum=20,
            default=None,
        ),
        Param(
            "crew",
            "Crew rating (optional; at 0 the ship cannot move)",
            minimum=0,
            maximum=20,
            default=None,
        ),
        Choice(
            "heading",
            "the ship's heading to the wind",
            kind="choice",
            choices_from=(WIND_MOVE, "heading"),
            default="Parallel to the wind",
        ),
        Param("calm", "the wind is Calm (no wind change to the roll)", kind="bool", default=False),
        Param(
            "cards",
            "movement cards played on this ship, comma-separated (or none)",
            kind="text",
            default="none",
        ),
    )

    def check(self, inputs: Inputs, rules: Rules) -> None:
        card_list(rules, self.id, inputs["cards"], "movement", "the Movement roll")

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        for rating in ("hull", "crew"):
            if inputs[rating] == 0:
                zero = ctx.lookup(ZERO, rating=rating)
                if not zero.fields()["can_move"]:
                    ctx.explain(f"{rating.title()} 0: the ship cannot move.")
                    return Outcome("may not move", (f"Cannot move: {zero.text}",))
        needed = ctx.param(MOVE, "sails_needed_to_move")
        if inputs["sails"] < needed:
            ctx.explain(
                f"Sails {inputs['sails']}: a ship with a Sails rating of zero or less may not "
                "move unless pulled."
            )
            return Outcome("may not move", ("May not move unless pulled",))
        wind = 0
        if inputs["calm"]:
            ctx.explain("Calm: no wind change to the Movement roll (decision: the seed is silent).")
        else:
            cell = ctx.lookup(WIND_MOVE, heading=inputs["heading"])
            fields = cell.fields()
            if not fields["allowed"]:
                return Outcome("may not move", ("May not go directly against the wind",))
            if fields["movement"]:
                wind = ctx.add(cell.text, int(fields["movement"]), WIND_MOVE)
        total = ctx.roll(ctx.param(MOVE, "movement_dice"), "Movement roll")
        total += ctx.add("Base Movement roll", ctx.param(MOVE, "movement_base_modifier"), MOVE)
        for rating in ctx.param(MOVE, "movement_adds"):
            if inputs[rating]:
                total += ctx.add(f"{rating.title()} rating", inputs[rating], MOVE)
        total += wind
        cards = card_list(ctx.rules, self.id, inputs["cards"], "movement", "the Movement roll")
        total += play_cards(ctx, cards, "movement")
        spaces = max(total, 0)
        if total < 0:
            ctx.explain(f"Movement {total} is read as 0 spaces (decision).")
        ctx.explain(f"The ship may move up to {plural(spaces, 'space')}.")
        return Outcome(
            plural(spaces, "space"),
            (f"Move up to {plural(spaces, 'space')} (diagonal 1.5, face change 0.5)",),
            (("movement", total), ("spaces", spaces)),
        )
