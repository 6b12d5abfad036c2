"""The tactical Broadside Phase: a broadside and what its losses do at zero."""

from __future__ import annotations

from typing import Any

from generator.dice import plain_dice
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
    AMMO,
    ATTRIBUTE,
    BROADSIDE,
    BROADSIDE_MODS,
    BROADSIDE_RULES,
    CARDS,
    ZERO,
    card_list,
    play_cards,
    plural,
)

# the target's ratings a broadside can take points from, as its input names say them
TARGET_RATINGS = ("sails", "hull", "crew", "cannon")


def _at_zero(
    ctx: Context, inputs: Inputs, losses: dict[str, int]
) -> tuple[str, list[str], list[Effect]]:
    """Say what follows where a loss brings a target rating that was given to zero.

    Returns the words added to the result ("; Hull 0: ..."), the changes to note and the
    state it sets (sinking, sunk). A rating does not fall below zero (tactical.zero-ratings).
    """
    words: list[str] = []
    changes: list[str] = []
    states: list[Effect] = []
    for rating, points in losses.items():
        before = inputs.get(f"target_{rating}")
        if before is None:
            continue
        after = max(before - points, 0)
        name = rating.title()
        if before == 0:
            ctx.explain(f"Target {name} is already 0: the loss changes nothing.")
            continue
        changes.append(f"Target: {name} {before} → {after}")
        if after:
            continue
        zero = ctx.lookup(ZERO, rating=rating)
        fields = zero.fields()
        words.append(f"{name} 0: {fields['in_play']}")
        changes.append(f"Target at zero {name}: {zero.text} ({fields['in_play']})")
        if fields.get("sink_dice"):
            changes.append(
                f"Roll {fields['sink_dice']} for the turns until it sinks (tactical.sinking)"
            )
            states.append(Effect("target", "state", state="sinking"))
        elif fields.get("sinks") == "immediately":
            states.append(Effect("target", "state", state="sunk"))
    return "".join(f"; {w}" for w in words), changes, states


@register
class Broadside(SteppedResolver):
    id = "tactical.broadside"
    title = "Broadside"
    summary = (
        "1D10 + Cannon + Gunnery, -1 per space over 2, roundshot -1, cards; the Broadside "
        "table gives how many rating points are lost, each on a different attribute rolled "
        "on the 1D8 table (repeats re-rolled); grapeshot losses all go to Crew, chainshot Hull "
        "losses are ignored. Range 4 + Gunnery, grapeshot -2, roundshot +2. Given the target's "
        "ratings, says what a rating brought to zero means (sinks, cannot move ...)."
    )
    tables = (BROADSIDE_RULES, AMMO, BROADSIDE, BROADSIDE_MODS, ATTRIBUTE, CARDS, ZERO)
    examples = (
        {"ammo": "roundshot", "distance": "3", "cannon": "4"},
        {"ammo": "grapeshot", "distance": "2", "cannon": "6", "cards": "sweep-the-decks"},
        {"ammo": "chainshot", "distance": "4", "cannon": "5", "gunnery": "1"},
        {"ammo": "roundshot", "distance": "6", "cannon": "1", "cards": "maneuver"},
        {
            "ammo": "chainshot",
            "distance": "1",
            "cannon": "6",
            "gunnery": "2",
            "cards": "damaged-rigging,rake-the-bow",
        },
        {
            "ammo": "roundshot",
            "cannon": "6",
            "target_sails": "1",
            "target_hull": "1",
            "target_crew": "2",
            "target_cannon": "1",
        },
        {"ammo": "grapeshot", "cannon": "5", "target_crew": "2"},
    )
    params = (
        Param(
            "ammo",
            "ammunition declared",
            kind="choice",
            choices_from=(AMMO, "ammo"),
            default="Roundshot",
        ),
        Param("distance", "spaces to the target", minimum=1, maximum=30, default=2),
        Param("cannon", "attacker's Cannon rating", minimum=0, maximum=20, default=4),
        Param("gunnery", "attacker's Gunnery rating", minimum=0, maximum=20, default=0),
        Param(
            "cards",
            "cards played on this broadside, comma-separated (or none)",
            kind="text",
            default="none",
        ),
        *(
            Param(
                f"target_{rating}",
                f"target's {rating.title()} rating (optional: says what a loss to 0 means)",
                minimum=0,
                maximum=20,
                default=None,
            )
            for rating in TARGET_RATINGS
        ),
    )

    def check(self, inputs: Inputs, rules: Rules) -> None:
        for rating in TARGET_RATINGS:
            if inputs[f"target_{rating}"] == 0:
                zero = lookup(rules, ZERO, {"rating": rating})
                if zero.fields()["sinks"] == "immediately":
                    raise ResolveInputError(
                        f"{self.id}: target_{rating}=0: the target has already sunk ({zero.text})"
                    )
        cards = card_list(rules, self.id, inputs["cards"], "broadside", "the Broadside Table roll")
        table = rules.table(CARDS)
        for card in cards:
            index = table.axes[0].labels.index(card)
            needs = table.cell(index).get("ammo")
            if needs and needs != inputs["ammo"].casefold():
                raise ResolveInputError(
                    f"{self.id}: {card} only helps {needs.title()}, not {inputs['ammo']}"
                )
        reach, how = self._range(rules, inputs)
        if inputs["distance"] > reach:
            raise ResolveInputError(
                f"{self.id}: distance={inputs['distance']} is beyond the range {reach} of "
                f"{inputs['ammo']} ({how})"
            )

    @staticmethod
    def _range(rules: Rules, inputs: Inputs) -> tuple[int, str]:
        """Return the broadside's range and how it is made up."""
        params = rules.table(BROADSIDE_RULES).params
        base = int(params["base_range"])
        rating = str(params["range_adds"])
        ammo = int(lookup(rules, AMMO, {"ammo": inputs["ammo"]}).fields()["range_modifier"])
        reach = base + int(inputs[rating]) + ammo
        how = f"{base} + {rating.title()} {inputs[rating]}, {inputs['ammo']} {ammo:+d}"
        return reach, how

    @staticmethod
    def _faces(ctx: Context) -> tuple[str, dict[int, str]]:
        """Return the attribute table's dice and the rating each face gives."""
        table = ctx.table(ATTRIBUTE)
        (axis,) = table.axes
        dice = axis.dice or "1d8"
        sides = plain_dice(dice).sides
        rating = {}
        for face in range(1, sides + 1):
            index = next(i for i, v in enumerate(axis.values) if v.contains(face))
            rating[face] = str(table.cell(index)["rating"])
        return dice, rating

    def start(self, rules: Rules, inputs: Inputs) -> tuple[str]:
        return ("roll",)

    def step(self, ctx: Context, inputs: Inputs, state: Any) -> Any:
        if state == ("roll",):
            return self._table_roll(ctx, inputs)
        _, lost, taken = state
        dice, rating = self._faces(ctx)
        number = len(taken) + 1
        face = ctx.roll(dice, f"Attribute {number}")
        if rating[face] in taken:
            left = [f for f in rating if rating[f] not in taken]
            ctx.explain(
                f"{rating[face].title()} has already lost a point: re-roll. Re-rolling until a "
                f"new attribute comes up is the same as one d{len(left)} over the faces left, "
                f"in order: {', '.join(map(str, left))}."
            )
            face = left[ctx.roll(f"1d{len(left)}", f"Attribute {number}, re-rolled") - 1]
        ctx.lookup(ATTRIBUTE, roll=face)
        order = list(dict.fromkeys(rating.values()))
        hit = sorted((*taken, rating[face]), key=order.index)
        if len(hit) < min(lost, len(order)):
            return ("attribute", lost, tuple(hit))
        return self._losses(ctx, inputs, lost, hit)

    def _table_roll(self, ctx: Context, inputs: Inputs) -> Any:
        ammo = inputs["ammo"]
        reach, how = self._range(ctx.rules, inputs)
        ctx.explain(f"{ammo} at {inputs['distance']} spaces: in range {reach} ({how}).")
        (axis,) = ctx.table(BROADSIDE).axes
        total = ctx.roll(axis.dice or "1d10", "Broadside table")
        if inputs["cannon"]:
            total += ctx.modifier(BROADSIDE_MODS, "attacker-cannon", times=inputs["cannon"])
        if inputs["gunnery"]:
            total += ctx.modifier(BROADSIDE_MODS, "attacker-gunnery", times=inputs["gunnery"])
        over = inputs["distance"] - ctx.param(BROADSIDE_MODS, "distance_free_spaces")
        if over > 0:
            total += ctx.modifier(BROADSIDE_MODS, "distance", times=over)
        ammo_id = ammo.casefold()
        if any(m.id == ammo_id for m in ctx.table(BROADSIDE_MODS).modifiers):
            total += ctx.modifier(BROADSIDE_MODS, ammo_id)
        cards = card_list(
            ctx.rules, self.id, inputs["cards"], "broadside", "the Broadside Table roll"
        )
        total += play_cards(ctx, cards, "broadside")
        cell = ctx.lookup(BROADSIDE, roll=total)
        lost = int(cell.fields()["attributes_lost"])
        if not lost:
            return Outcome("no damage", (), (("points", 0),))
        losses = lookup(ctx.rules, AMMO, {"ammo": ammo}).fields()
        if losses["losses_to"] == "crew":
            ctx.explain(
                f"{losses['losses']} So {plural(lost, 'point')} come off Crew; no attribute roll."
            )
            after, changes, states = _at_zero(ctx, inputs, {"crew": lost})
            return Outcome(
                f"-{lost} Crew{after}",
                (f"Target: -{lost} Crew Rating", *changes),
                (("points", lost),),
                (Effect("target", "crew", lost), *states),
            )
        return ("attribute", lost, ())

    def _losses(self, ctx: Context, inputs: Inputs, lost: int, hit: list[str]) -> Outcome:
        how = lookup(ctx.rules, AMMO, {"ammo": inputs["ammo"]}).fields()
        ignored = "hull" in hit and bool(how["hull_losses_ignored"])
        if ignored:
            ctx.explain(f"{how['losses']} The Hull point is not lost.")
            hit = [r for r in hit if r != "hull"]
        result = ", ".join(f"-1 {r.title()}" for r in hit) or "no loss"
        if ignored:
            result += " (Hull ignored)"
        after, zeros, states = _at_zero(ctx, inputs, dict.fromkeys(hit, 1))
        changes = (*(f"Target: -1 {r.title()} Rating" for r in hit), *zeros)
        return Outcome(
            result + after,
            changes,
            (("points", lost), ("attributes", tuple(hit))),
            (*(Effect("target", r, 1) for r in hit), *states),
        )
