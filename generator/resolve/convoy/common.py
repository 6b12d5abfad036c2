"""What several convoy resolvers share: the tables they read, the dice pools they roll, and
the shallows and fog a moving ship may meet.
"""

from __future__ import annotations

from generator.loading import Rules
from generator.resolve import Context, Inputs, ResolveInputError

SAILING = "convoy.sailing-movement"
NOTES = "convoy.sailing-notes"
ZERO = "convoy.zero-level"
RANGE = "convoy.gunnery-range"
GUN_MODS = "convoy.gunnery-modifiers"
GUNNERY = "convoy.gunnery"
WIND = "convoy.wind-change"
RECOVERY = "convoy.recovery"
CAPTURED = "convoy.captured-ships"
DEATH = "convoy.death-rolls"
GRAPPLE = "convoy.boarding-grapple"
FIGHT = "convoy.boarding-fight"
RESULT = "convoy.boarding-result"
STRUCK = "convoy.struck-ships"
FOG = "convoy.fog"
FOG_ROLL = "convoy.fog-roll"
SHALLOWS = "convoy.shallows"
SHALLOWS_DICE = "convoy.shallows-dice"
CLOCK = "convoy.battle-clock"
SCENARIO = "convoy.scenario"

SIZES = ("small", "medium", "large")


def counted(count: int, word: str, plural: str | None = None) -> str:
    """Return ``1 hex``, ``3 hexes``: `count` and the word, plural (``word + 's'``) unless 1."""
    return f"{count} {word if count == 1 else (plural or word + 's')}"


def counted_dice(count: int) -> str:
    """Return ``1 die``, ``3 dice``."""
    return counted(count, "die", "dice")


def success_face(ctx: Context, table_id: str) -> int:
    """Return the lowest face that succeeds (``success_on: [5, 6]`` gives 5)."""
    return int(min(ctx.param(table_id, "success_on")))


def pool_successes(ctx: Context, count: int, face: int, reason: str) -> int:
    """Roll a pool of `count` d6 and return how many show `face` or more."""
    if count <= 0:
        ctx.explain(f"{reason}: no dice, no successes.")
        return 0
    return ctx.roll(f"{count}d6>={face}", reason)


def runs_aground(ctx: Context, size: str, battle_hardened: bool) -> bool:
    """Roll for the first shallows hex entered; return whether the ship runs aground."""
    dice = int(ctx.lookup(SHALLOWS_DICE, size=size).fields()["dice"])
    if battle_hardened:
        dice += ctx.add(
            "Less 1D6 if battle hardened",
            -ctx.param(SHALLOWS, "battle_hardened_fewer_dice"),
            SHALLOWS,
        )
    face = ctx.param(SHALLOWS, "aground_on")
    if dice <= 0:
        ctx.explain("No dice to roll: the ship cannot run aground here.")
        return False
    sixes = ctx.roll(
        f"{dice}d6>={face}", f"Shallows: {counted_dice(dice)}, any {face} runs aground"
    )
    if sixes:
        ctx.explain(f"A {face} came up: aground. Stop moving.")
        return True
    ctx.explain(f"No {face}: the ship is clear of the shallows.")
    return False


def fog_ends_move(ctx: Context) -> bool:
    """Roll for the first fog hex entered; return whether the move ends there."""
    axis = ctx.table(FOG_ROLL).axes[0]
    roll = ctx.roll(axis.dice or "1d6", "Fog: first fog hex entered")
    return bool(ctx.lookup(FOG_ROLL, roll=roll).fields()["move_ends"])


def refuse_struck(resolver: str, inputs: Inputs, rules: Rules, allowed: str, rule: str) -> None:
    """Refuse a struck ship what the playsheet says it does not do (move, recover)."""
    struck = rules.table(STRUCK)
    if inputs["struck"] and not struck.params.get(allowed, True):
        raise ResolveInputError(f"{resolver}: struck=yes: {rule} ({struck.marked_title})")
