"""Convoy boarding: the grapple and the fight."""

from __future__ import annotations

from typing import Any

from generator.loading import Rules
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
from generator.resolve.convoy.common import (
    FIGHT,
    GRAPPLE,
    RESULT,
    SIZES,
    STRUCK,
    counted,
    counted_dice,
    pool_successes,
    success_face,
)


def _steps(inputs: Inputs, side: str) -> int:
    other = "target" if side == "boarder" else "boarder"
    return SIZES.index(inputs[f"{side}_size"]) - SIZES.index(inputs[f"{other}_size"])


def _result_effects(ctx: Context, boarder_wins: bool) -> tuple[Effect, ...]:
    """What convoy.boarding-result's branch determines, as effects.

    The boarder who wins moves crew to the captured ship; its fatigue loss of "1 crew
    (gun, sail)" is the boarder's choice of marker, and the target's markers removed and
    the crew moved in are a new start rather than a loss: those stay in the words only. A
    target that equals or wins takes crew off the boarder, both ships lose crew to fatigue
    and pause.
    """
    if boarder_wins:
        moved = int(ctx.param(RESULT, "boarder_wins_crew_moved_to_prize"))
        return (Effect("target", "state", state="captured"), Effect("ship", "crew", moved))
    off = int(ctx.param(RESULT, "target_wins_boarder_crew_lost"))
    fatigue = int(ctx.param(RESULT, "target_wins_fatigue_crew_lost_each_ship"))
    return (
        Effect("ship", "crew", off + fatigue),
        Effect("target", "crew", fatigue),
        Effect("ship", "state", state="paused"),
        Effect("target", "state", state="paused"),
    )


@register
class Boarding(SteppedResolver):
    id = "convoy.boarding"
    title = "Boarding"
    summary = (
        "Stage 1 the grapple, stage 2 the fight, stage 3 the result. Each side rolls 4d6 +1 per "
        "crew (max 5) +2 better quality +1 bigger by 2 size steps (+1 warship in the fight); "
        "each 5 or 6 succeeds. More successes win the grapple (equal: no grapple, a decision) "
        "and the fight; the defender wins a draw."
    )
    tables = (GRAPPLE, FIGHT, RESULT, STRUCK)
    examples = (
        {"boarder_crew": "3", "target_crew": "2"},
        {
            "boarder_crew": "5",
            "target_crew": "2",
            "better_quality": "boarder",
            "boarder_size": "large",
            "target_size": "small",
        },
        {"grappled": "yes", "boarder_crew": "2", "target_crew": "3", "target_warship": "yes"},
        {"target_struck": "yes", "boarder_crew": "1"},
    )
    params = (
        Param("boarder_crew", "boarder's crew markers", minimum=0, maximum=20, default=3),
        Param("target_crew", "target's crew markers", minimum=0, maximum=20, default=3),
        Param(
            "better_quality",
            "which side has the better crew quality",
            kind="choice",
            choices=("neither", "boarder", "target"),
            default="neither",
        ),
        Param("boarder_size", "boarder's size", kind="choice", choices=SIZES, default="medium"),
        Param("target_size", "target's size", kind="choice", choices=SIZES, default="medium"),
        Param("boarder_warship", "the boarder is a warship", kind="bool", default=True),
        Param("target_warship", "the target is a warship", kind="bool", default=False),
        Param("grappled", "already grappled: start at the fight", kind="bool", default=False),
        Param("target_struck", "the target has struck (ownerless)", kind="bool", default=False),
    )

    def check(self, inputs: Inputs, rules: Rules) -> None:
        if inputs["target_struck"] and not inputs["boarder_warship"]:
            raise ResolveInputError(
                f"{self.id}: boarding an ownerless struck ship needs a grapple by a warship "
                "(boarder_warship=yes)"
            )
        if inputs["target_struck"] and inputs["grappled"]:
            raise ResolveInputError(
                f"{self.id}: a struck ship is taken by the grapple alone; drop grappled=yes"
            )

    def start(self, rules: Rules, inputs: Inputs) -> tuple[str]:
        return ("fight",) if inputs["grappled"] else ("grapple",)

    def _pool(self, ctx: Context, inputs: Inputs, table_id: str, side: str) -> int:
        def add(modifier_id: str, times: int = 1) -> int:
            mod = ctx.table(table_id).modifier(modifier_id)
            label = f"{side.title()}: {mod.label}" + (f" ×{times}" if times != 1 else "")
            return ctx.add(label, int(mod.value) * times, f"{table_id}:{modifier_id}")

        dice = int(ctx.param(table_id, "base_dice"))
        stage = "grapple" if table_id == GRAPPLE else "fight"
        ctx.explain(f"{side.title()}'s {stage} pool: basic {dice}D6.")
        crew = min(inputs[f"{side}_crew"], ctx.param(table_id, "per_crew_max_dice"))
        if crew:
            dice += add("per-crew", crew)
        if inputs["better_quality"] == side:
            dice += add("better-quality")
        if _steps(inputs, side) >= ctx.param(table_id, "bigger_min_size_steps"):
            dice += add("bigger")
        if table_id == FIGHT and inputs[f"{side}_warship"]:
            dice += add("warship")
        return dice

    def _roll(self, ctx: Context, inputs: Inputs, table_id: str, side: str, stage: str) -> int:
        dice = self._pool(ctx, inputs, table_id, side)
        face = success_face(ctx, table_id)
        return pool_successes(
            ctx, dice, face, f"{stage}: {side}'s {counted_dice(dice)}, each {face}+"
        )

    def _result(self, ctx: Context, boarder_wins: bool) -> tuple[str, ...]:
        branches = [item for item in ctx.table(RESULT).items if item.items]
        chosen = next(b for b in branches if ("boarder" in b.text) == boarder_wins)
        ctx.explain(f"Stage 3, the result: {chosen.text}.")
        return tuple(sub.text for sub in chosen.items)

    def step(self, ctx: Context, inputs: Inputs, state: Any) -> Any:
        if state == ("grapple",):
            ctx.explain("Stage 1, the grapple.")
            boarder = self._roll(ctx, inputs, GRAPPLE, "boarder", "Grapple")
            if inputs["target_struck"]:
                need = ctx.param(STRUCK, "ownerless_grapple_successes")
                if boarder >= need:
                    ctx.explain(
                        f"{counted(boarder, 'success', 'successes')} by a warship: the ownerless "
                        "ship is boarded."
                    )
                    return Outcome(
                        "captured",
                        ("Target owned by the boarder",),
                        (("grapple", boarder),),
                        (Effect("target", "state", state="captured"),),
                    )
                ctx.explain("No success: no grapple.")
                return Outcome("no grapple", (), (("grapple", 0),))
            target = self._roll(ctx, inputs, GRAPPLE, "target", "Grapple")
            if boarder > target:
                ctx.explain(f"Grapple: boarder {boarder} v target {target}, the boarder can board.")
                return ("fight",)
            if target > boarder:
                ctx.explain(f"Grapple: target {target} v boarder {boarder}, the target wins.")
                return Outcome(
                    "target wins grapple",
                    ("Target can board (resolve again with the sides swapped and grappled=yes)",),
                    (("grapple", boarder - target),),
                )
            ctx.explain(f"Grapple: {boarder} each, nobody wins (decision): no boarding.")
            return Outcome("no grapple", (), (("grapple", 0),))
        ctx.explain("Stage 2, the fight.")
        boarder = self._roll(ctx, inputs, FIGHT, "boarder", "Fight")
        target = self._roll(ctx, inputs, FIGHT, "target", "Fight")
        if boarder > target:
            ctx.explain(f"Fight: boarder {boarder} v target {target}, the boarder wins.")
            return Outcome(
                "captured",
                self._result(ctx, True),
                (("fight", boarder - target),),
                _result_effects(ctx, True),
            )
        why = "the defender wins a draw" if boarder == target else "the target wins"
        ctx.explain(f"Fight: boarder {boarder} v target {target}, {why}.")
        return Outcome(
            "repulsed",
            self._result(ctx, False),
            (("fight", boarder - target),),
            _result_effects(ctx, False),
        )
