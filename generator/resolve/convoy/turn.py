"""The convoy turn's own steps: the battle clock, the wind change and a ship's recovery."""

from __future__ import annotations

from dataclasses import dataclass

from generator.loading import Rules
from generator.resolve import (
    Choice,
    Context,
    Inputs,
    Outcome,
    Param,
    ResolveInputError,
    Resolver,
    register,
)
from generator.resolve.convoy.common import (
    CAPTURED,
    CLOCK,
    RECOVERY,
    SCENARIO,
    STRUCK,
    WIND,
    ZERO,
    counted,
    counted_dice,
    pool_successes,
    refuse_struck,
    success_face,
)


@dataclass(frozen=True)
class ListChoice(Choice):
    """A choice among the values of a list in a table's params (``in_params``)."""

    in_params: tuple[str, str] = ("", "")

    def allowed(self, rules: Rules) -> tuple[str, ...]:
        table_id, name = self.in_params
        return tuple(str(value) for value in rules.table(table_id).params[name])


@register
class BattleClock(Resolver):
    id = "convoy.battle-clock"
    title = "Battle clock"
    summary = (
        "The moving player moves the battle clock 3, 4 or 5 spaces, his choice, round a loop "
        "whose length the house scenario table gives. The game ends at the end of the turn "
        "when the loop is completed, or when all merchant ships have exited or been captured."
    )
    tables = (CLOCK, SCENARIO)
    examples = (
        {"loop": "36", "move": "4"},
        {"loop": "42", "space": "38", "move": "5"},
        {"loop": "48", "space": "20", "move": "3", "merchants_gone": "yes"},
    )
    params = (
        ListChoice(
            "loop",
            "spaces in the clock's loop (the scenario's battle clock)",
            in_params=(SCENARIO, "clock_loop_spaces"),
        ),
        ListChoice(
            "move",
            "spaces the moving player moves the clock this turn",
            in_params=(CLOCK, "clock_moves"),
        ),
        Param(
            "space",
            "space the clock stands on, counted from the start of its loop (0: at the start)",
            minimum=0,
            default=0,
        ),
        Param(
            "merchants_gone",
            "all merchant ships have exited or been captured",
            kind="bool",
            default=False,
        ),
    )

    def check(self, inputs: Inputs, rules: Rules) -> None:
        loop = int(inputs["loop"])
        if inputs["space"] >= loop:
            raise ResolveInputError(
                f"{self.id}: space={inputs['space']} is not on a {loop}-space loop: at space "
                f"{loop} the loop is completed and the game is over"
            )

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        loop, move, space = int(inputs["loop"]), int(inputs["move"]), inputs["space"]
        moves = ", ".join(str(n) for n in ctx.param(CLOCK, "clock_moves"))
        ctx.explain(
            f"Battle clock = {moves}: the moving player moves it {counted(move, 'space')}, "
            f"round a loop of {loop} ({ctx.table(SCENARIO).marked_title})."
        )
        reached = space + move
        completed = reached >= loop
        ctx.explain(
            f"From space {space} to {reached}"
            + (f": the loop of {loop} is completed." if completed else f" of {loop}.")
        )
        why = []
        if completed and ctx.param(CLOCK, "game_ends_when_loop_completed"):
            why.append("loop completed")
            reached = loop  # it stops at the end of its loop: the game is over
        elif completed:
            reached -= loop
            ctx.explain(f"The loop does not end the game: the clock goes round to {reached}.")
        if inputs["merchants_gone"] and ctx.param(
            CLOCK, "game_ends_when_all_merchants_exited_or_captured"
        ):
            why.append("all merchant ships exited / captured")
        details = (
            ("space", reached),
            ("loop", loop),
            ("loop_completed", completed),
            ("game_ends", bool(why)),
        )
        if not why:
            ctx.explain("The game goes on.")
            return Outcome(
                f"clock at {reached} of {loop}",
                (f"Battle clock: move it to space {reached}",),
                details,
            )
        at = ctx.param(CLOCK, "game_ends_at")
        ctx.explain(f"Game ends at {at}: {' and '.join(why)}.")
        ended = "loop completed" in why
        where = "loop completed" if ended else f"clock at {reached} of {loop}"
        return Outcome(
            f"{where}: game ends",
            (
                f"Battle clock: move it to space {reached}"
                + (", the end of its loop" if ended else ""),
                f"Game ends at {at} ({' and '.join(why)})",
            ),
            details,
        )


@register
class WindChange(Resolver):
    id = "convoy.wind-change"
    title = "Wind change"
    summary = (
        "The mover rolls the d6 they declared, the opponent answers with their own; each 5 or 6 "
        "succeeds and the opponent's successes cancel the mover's. Any left: the wind changes."
    )
    tables = (WIND,)
    examples = ({"mover_dice": "3"}, {"mover_dice": "4", "opponent_dice": "3"})
    params = (
        Param("mover_dice", "d6 the moving player declares", minimum=1, maximum=30, default=3),
        Param("opponent_dice", "d6 the opponent rolls to cancel", minimum=0, maximum=30, default=0),
    )

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        face = success_face(ctx, WIND)
        mover = pool_successes(ctx, inputs["mover_dice"], face, f"Mover, each {face}+ succeeds")
        opponent = pool_successes(
            ctx, inputs["opponent_dice"], face, f"Opponent, each {face}+ cancels one"
        )
        left = mover - opponent
        details = (("mover", mover), ("opponent", opponent))
        if left > 0:
            directions = ctx.param(WIND, "change_directions")
            fog = ctx.param(WIND, "fog_move_hexes")
            ctx.explain(f"The mover wins by {left}: the wind changes.")
            return Outcome(
                "wind changes",
                (
                    f"Wind changes by {counted(directions, 'direction')} (mover's choice)",
                    f"Fog moves {counted(fog, 'hex', 'hexes')} in the new wind direction",
                ),
                details,
            )
        ctx.explain("The mover has no successes left: the wind holds.")
        return Outcome("wind holds", (), details)


@register
class Recovery(Resolver):
    id = "convoy.recovery"
    title = "Recovery"
    summary = (
        "1d6 per crew marker and 1d6 if battle hardened, at least 1d6 (Crew at zero: 1d6, "
        "battle hardened or not; a captured ship at most 1d6); each 5 or 6 succeeds."
    )
    tables = (RECOVERY, ZERO, CAPTURED, STRUCK)
    examples = (
        {"crew": "3"},
        {"crew": "2", "battle_hardened": "yes"},
        {"crew": "0"},
        {"crew": "4", "captured": "yes"},
    )
    params = (
        Param("crew", "crew markers", minimum=0, maximum=20, default=2),
        Param("battle_hardened", "battle hardened crew", kind="bool", default=False),
        Param(
            "captured", "a captured ship (recovery max 1D6 per turn)", kind="bool", default=False
        ),
        Param("struck", "the ship has struck (does not recover)", kind="bool", default=False),
    )

    def check(self, inputs: Inputs, rules: Rules) -> None:
        refuse_struck(self.id, inputs, rules, "recovers", "a struck ship does not recover")

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        if not inputs["crew"]:
            # the Zero (low) level line is the whole roll at zero crew: battle hardened adds
            # nothing to it (convoy.recovery's note)
            dice = int(ctx.lookup(ZERO, level="Crew").fields()["recovery_dice"])
            if inputs["battle_hardened"]:
                ctx.explain(f"Crew at zero: {dice}D6 is the whole roll, battle hardened or not.")
        else:
            dice = ctx.add(
                "1D6 per crew", inputs["crew"] * ctx.param(RECOVERY, "dice_per_crew"), RECOVERY
            )
            if inputs["battle_hardened"]:
                dice += ctx.add(
                    "1D6 battle hardened", ctx.param(RECOVERY, "battle_hardened_dice"), RECOVERY
                )
        least = ctx.param(RECOVERY, "min_dice")
        if dice < least:
            dice += ctx.add(f"Minimum {least}D6", least - dice, RECOVERY)
        if inputs["captured"]:
            most = ctx.param(CAPTURED, "recovery_max_dice")
            if dice > most:
                dice += ctx.add(f"Captured ship: recovery max {most}D6", most - dice, CAPTURED)
        face = success_face(ctx, RECOVERY)
        successes = pool_successes(
            ctx, dice, face, f"Recovery, {counted_dice(dice)}, each {face}+ succeeds"
        )
        result = "no successes" if not successes else counted(successes, "success", "successes")
        changes = (f"Recovery: {result}",) if successes else ()
        return Outcome(result, changes, (("dice", dice), ("successes", successes)))
