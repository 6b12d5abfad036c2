"""High-seas grappling and boarding actions."""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from typing import Any

from generator.loading import Rules
from generator.resolve import (
    Choice,
    Context,
    Effect,
    Inputs,
    Outcome,
    Param,
    Resolver,
    SteppedResolver,
    register,
)
from generator.resolve.duel import ceil_div
from generator.resolve.high_seas.common import (
    BOARDING,
    BOARDING_NOTES,
    BRILLIANT,
    CREWS,
    GRAPPLE,
    GRAPPLING,
)


def kill_notation(count: int, faces: Any) -> str:
    """Return a success-counting roll of `count` d6 that kill on `faces` (``5, 6``)."""
    return f"{count}d6>={min(int(f) for f in faces)}"


@register
class GrappleShip(Resolver):
    id = "high-seas.grapple"
    title = "Grapple a ship"
    summary = (
        "At close range, before cannon fire: d6 by the grappling ship's size against the "
        "target's (smaller 5-6, same 4-6, larger 3-6); a Brilliant Maneuver adds 3 (reading)."
    )
    tables = (GRAPPLE, GRAPPLING, BRILLIANT)
    params = (
        Choice("size", "the grappling ship against the target", choices_from=(GRAPPLE, "size")),
        Param("brilliant", "a Brilliant Maneuver this turn (+3)", kind="bool", default=False),
    )
    examples = ({"size": "smaller"}, {"size": "same"}, {"size": "larger", "brilliant": "yes"})

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        ctx.explain("Grappling is tried at close range, before cannon fire.")
        fields = ctx.lookup(GRAPPLE, size=inputs["size"]).fields()
        if not fields["possible"]:
            return Outcome("fails", (), ())
        need = int(fields["min"])
        roll = ctx.roll(str(ctx.param(GRAPPLING, "grapple_die")), f"Grapple, {need} or more holds")
        total = roll
        if inputs["brilliant"]:
            total += ctx.add(
                "brilliant maneuver", int(ctx.param(BRILLIANT, "all_rolls_bonus")), BRILLIANT
            )
        if total >= need:
            only = ctx.param(GRAPPLING, "grappled_fire_target")
            ctx.explain(f"{total}: the grapples hold.")
            return Outcome(
                "grappled",
                ("Both ships: grappled", f"Both ships: may fire only into the {only}"),
                (("roll", roll),),
                (
                    Effect("ship", "state", state="grappled"),
                    Effect("target", "state", state="grappled"),
                ),
            )
        ctx.explain(f"{total}: the grapples miss.")
        return Outcome("fails", (), (("roll", roll),))


# phase, turn, boarders trained/untrained/below, defenders trained/untrained/below, pending
BoardingState = tuple[str, int, int, int, int, int, int, int, int]


def share_of(count: int, fraction: Any) -> int:
    """Return `fraction` (printed ``1/3``) of `count`, rounded up as the book always rounds."""
    share = Fraction(str(fraction))
    return -(-count * share.numerator // share.denominator)


def take_losses(trained: int, untrained: int, killed: int) -> tuple[int, int]:
    """Remove `killed` men, trained fighters first (they stand in front; reading)."""
    from_trained = min(trained, killed)
    return trained - from_trained, max(untrained - (killed - from_trained), 0)


def side_inputs(prefix: str, who: str) -> tuple[Param, ...]:
    return (
        Param(
            f"{prefix}_trained",
            f"{who}: trained fighters on deck (a Navy crew: one third, plus officers)",
            minimum=0,
            maximum=300,
        ),
        Param(
            f"{prefix}_untrained",
            f"{who}: untrained crew on deck",
            default=0,
            minimum=0,
            maximum=500,
        ),
        Param(
            f"{prefix}_below",
            f"{who}: crew below deck (untrained; a third come up each turn)",
            default=0,
            minimum=0,
            maximum=500,
        ),
        Param(
            f"{prefix}_pistols",
            f"{who}: pistols (-1: one fifth of the trained fighters, rounded up)",
            default=-1,
            minimum=-1,
            maximum=300,
        ),
        Param(
            f"{prefix}_swivels",
            f"{who}: swivel (deck) guns that bear",
            default=0,
            minimum=0,
            maximum=50,
        ),
    )


@register
class Boarding(SteppedResolver):
    id = "high-seas.boarding"
    title = "Boarding action"
    summary = (
        "1) d6 per swivel gun, 5-6 kills a trained fighter; 2) d6 per pistol, 6 kills one; "
        "3) a side outnumbered 3 to 1 (everyone, deck and below, reading) surrenders; 4) d6 "
        "per two trained fighters and per five untrained (rounded up), each 6 kills an enemy, "
        "trained fighters first (reading); 5) a third of those first below (rounded up) come "
        "up; back to 3. Stops as 'still fighting' after max_turns melee turns."
    )
    tables = (BOARDING, CREWS, BOARDING_NOTES, GRAPPLING)
    params = (
        *side_inputs("boarders", "Boarders"),
        *side_inputs("defenders", "Defenders"),
        Param("max_turns", "stop after this many melee turns", default=30, minimum=1, maximum=100),
    )
    examples = (
        {
            "boarders_trained": "6",
            "boarders_untrained": "4",
            "boarders_swivels": "2",
            "defenders_trained": "4",
            "defenders_untrained": "6",
            "defenders_below": "3",
        },
        {
            "boarders_trained": "9",
            "boarders_untrained": "3",
            "defenders_trained": "3",
            "defenders_untrained": "9",
            "defenders_pistols": "2",
            "max_turns": "20",
        },
        {
            "boarders_trained": "12",
            "boarders_untrained": "4",
            "defenders_trained": "2",
            "defenders_untrained": "3",
        },
    )

    def start(self, rules: Rules, inputs: Inputs) -> Hashable:
        return (
            "swivels",
            0,
            inputs["boarders_trained"],
            inputs["boarders_untrained"],
            inputs["boarders_below"],
            inputs["defenders_trained"],
            inputs["defenders_untrained"],
            inputs["defenders_below"],
            0,
        )

    # A melee turn is two steps, "melee" (the check of step 3, then the boarders' dice) and
    # "reply" (the defenders' dice, counted before the boarders' kills, then step 5), so the
    # odds engine merges states between the two pools instead of pairing every outcome.
    def step(self, ctx: Context, inputs: Inputs, state: Any) -> Any:
        phase, turn, bt, bu, bb, dt, du, db, pending = state
        if phase == "swivels":
            ctx.explain("Player characters in melee fight individually (resolve them with duel).")
            on = ctx.param(BOARDING, "swivel_kill_on")
            b_kill = self.volley(
                ctx, inputs["boarders_swivels"], on, "Step 1: boarders' swivel guns", "defenders"
            )
            d_kill = self.volley(
                ctx, inputs["defenders_swivels"], on, "Step 1: defenders' swivel guns", "boarders"
            )
            bt, bu = take_losses(bt, bu, d_kill)
            dt, du = take_losses(dt, du, b_kill)
            return ("pistols", 0, bt, bu, bb, dt, du, db, 0)
        if phase == "pistols":
            on = ctx.param(BOARDING, "pistol_kill_on")
            b_pistols = min(self.pistols(ctx, inputs, "boarders"), bt)
            d_pistols = min(self.pistols(ctx, inputs, "defenders"), dt)
            b_kill = self.volley(ctx, b_pistols, on, "Step 2: boarders' pistols", "defenders")
            d_kill = self.volley(ctx, d_pistols, on, "Step 2: defenders' pistols", "boarders")
            bt, bu = take_losses(bt, bu, d_kill)
            dt, du = take_losses(dt, du, b_kill)
            return ("melee", 1, bt, bu, bb, dt, du, db, 0)
        if phase == "melee":
            ended = self.check_surrender(ctx, inputs, state)
            if ended is not None:
                return ended
            killed = self.volley(
                ctx, self.melee_dice(ctx, bt, bu), None, "Step 4: boarders' melee", "defenders"
            )
            reply = self.melee_dice(ctx, dt, du)
            dt, du = take_losses(dt, du, killed)
            return ("reply", turn, bt, bu, bb, dt, du, db, reply)
        killed = self.volley(ctx, pending, None, "Step 4: defenders' melee", "boarders")
        bt, bu = take_losses(bt, bu, killed)
        bu, bb = self.come_up(ctx, inputs["boarders_below"], bu, bb, "boarders")
        du, db = self.come_up(ctx, inputs["defenders_below"], du, db, "defenders")
        return ("melee", turn + 1, bt, bu, bb, dt, du, db, 0)

    def check_surrender(self, ctx: Context, inputs: Inputs, state: BoardingState) -> Outcome | None:
        _, turn, bt, bu, bb, dt, du, db, _ = state
        ratio = int(ctx.param(BOARDING, "surrender_ratio"))
        boarders, defenders = bt + bu + bb, dt + du + db
        ctx.explain(f"Step 3, turn {turn}: boarders {boarders} men, defenders {defenders}.")
        if not boarders and not defenders:
            return self.finish(ctx, inputs, state, "both sides cut down")
        if not defenders:
            return self.finish(ctx, inputs, state, "defenders cut down")
        if not boarders:
            return self.finish(ctx, inputs, state, "boarders cut down")
        if boarders >= ratio * defenders:
            return self.finish(ctx, inputs, state, "defenders surrender")
        if defenders >= ratio * boarders:
            return self.finish(ctx, inputs, state, "boarders surrender")
        if turn > inputs["max_turns"]:
            return self.finish(ctx, inputs, state, "still fighting")
        return None

    @staticmethod
    def melee_dice(ctx: Context, trained: int, untrained: int) -> int:
        per_trained = int(ctx.param(BOARDING, "melee_per_trained"))
        per_untrained = int(ctx.param(BOARDING, "melee_per_untrained"))
        return ceil_div(trained, per_trained) + ceil_div(untrained, per_untrained)

    @staticmethod
    def volley(ctx: Context, count: int, faces: Any, reason: str, enemy: str) -> int:
        """Roll `count` d6 that kill on `faces` (the melee's when None); return the kills."""
        if not count:
            return 0
        if faces is None:
            faces = ctx.param(BOARDING, "melee_kill_on")
        killed = ctx.roll(kill_notation(count, faces), f"{reason}, {count}d6")
        ctx.explain(f"{killed} of the {enemy} killed.")
        return killed

    @staticmethod
    def pistols(ctx: Context, inputs: Inputs, side: str) -> int:
        given = int(inputs[f"{side}_pistols"])
        if given >= 0:
            return given
        count = share_of(inputs[f"{side}_trained"], ctx.param(CREWS, "pistol_fraction_of_trained"))
        ctx.explain(
            f"{side.capitalize()}: one fifth of the trained fighters carry pistols: {count}."
        )
        return count

    @staticmethod
    def come_up(ctx: Context, initial: int, deck: int, below: int, who: str) -> tuple[int, int]:
        if not below:
            return deck, below
        up = min(below, max(1, share_of(initial, ctx.param(BOARDING, "come_up_fraction"))))
        ctx.explain(f"Step 5: {up} of the {who} come up from below.")
        return deck + up, below - up

    def finish(self, ctx: Context, inputs: Inputs, state: BoardingState, result: str) -> Outcome:
        _, turn, bt, bu, bb, dt, du, db, _ = state
        ctx.explain(f"{result.capitalize()}.")
        sides = []
        effects = []
        for side, trained, untrained in (("boarders", bt, bu + bb), ("defenders", dt, du + db)):
            start = sum(inputs[f"{side}_{k}"] for k in ("trained", "untrained", "below"))
            lost = start - trained - untrained
            sides.append(
                f"{side.capitalize()}: {lost} killed; {trained} trained, {untrained} untrained left"
            )
            if lost:
                # the men who fight a boarding action are her fighters (the log's
                # "Fighters killed", which the next boarding's fighters are counted less)
                who = "ship" if side == "boarders" else "target"
                effects.append(Effect(who, "fighters", lost))
        if result == "defenders surrender":
            # the defenders are her crew: in surrendering they strike her colours
            effects.append(Effect("target", "state", state="struck"))
        details = (
            ("turns", turn - 1),
            ("boarders_left", bt + bu + bb),
            ("defenders_left", dt + du + db),
        )
        return Outcome(result, tuple(sides), details, tuple(effects))
