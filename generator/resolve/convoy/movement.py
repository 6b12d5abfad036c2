"""Convoy sailing movement."""

from __future__ import annotations

from typing import Any

from generator.loading import Rules
from generator.resolve import Choice, Context, Effect, Inputs, Outcome, Param, Resolver, register
from generator.resolve.convoy.common import (
    CAPTURED,
    FOG,
    FOG_ROLL,
    NOTES,
    SAILING,
    SHALLOWS,
    SHALLOWS_DICE,
    SIZES,
    STRUCK,
    ZERO,
    counted,
    fog_ends_move,
    refuse_struck,
    runs_aground,
)


@register
class Movement(Resolver):
    id = "convoy.movement"
    title = "Sailing movement"
    summary = (
        "Hexes for the ship's facing to the wind: base hexes, then one chain of d6 for extra "
        "hexes (3-6; battle hardened 1 easier, scurvy 1 harder): the All ships extra hex is "
        "its first link, a failed roll ends the move, and the size's additions continue it, "
        "again after each success where the table says repeat until fail, at most 3 "
        "additions; then the fog and shallows rolls for the first such hex the move reaches."
    )
    tables = (SAILING, NOTES, ZERO, FOG_ROLL, FOG, SHALLOWS_DICE, SHALLOWS, CAPTURED, STRUCK)
    examples = (
        {"facing": "wind-from-rear-quarter", "size": "large"},
        {"facing": "wind-from-rear", "size": "small", "battle_hardened": "yes"},
        {"facing": "wind-from-ahead", "size": "small", "scurvy": "yes"},
        {"facing": "wind-from-front-quarter", "size": "medium", "merchant": "yes"},
        {"facing": "wind-from-rear", "size": "medium", "fog_hex": "2", "shallows_hex": "3"},
        {"facing": "wind-from-rear", "size": "small", "sail_zero": "yes"},
    )
    params = (
        Choice(
            "facing",
            "the ship's facing to the wind",
            kind="choice",
            choices_from=(SAILING, "facing"),
        ),
        Param("size", "ship size", kind="choice", choices=SIZES, default="medium"),
        Param(
            "merchant",
            "the ship is a merchant (1 direction change a turn)",
            kind="bool",
            default=False,
        ),
        Param(
            "battle_hardened",
            "battle hardened crew (extra-hex die 1 easier)",
            kind="bool",
            default=False,
        ),
        Param("scurvy", "scurvy (extra-hex die 1 harder)", kind="bool", default=False),
        Param(
            "captured", "a captured ship (all scurvy, normal movement)", kind="bool", default=False
        ),
        Param("struck", "the ship has struck (does not move)", kind="bool", default=False),
        Param(
            "sail_zero", "Sail at zero level: no dicing for extra hexes", kind="bool", default=False
        ),
        Param(
            "fog_hex",
            "hex of the move that first enters fog (0: none)",
            minimum=0,
            maximum=20,
            default=0,
        ),
        Param(
            "shallows_hex",
            "hex of the move that first enters shallows (0: none)",
            minimum=0,
            maximum=20,
            default=0,
        ),
    )

    def _shift(self, ctx: Context, inputs: Inputs) -> int:
        """Return how many faces the crew moves the extra-hex target (recorded once)."""
        shift = 0
        notes = ctx.lookup(NOTES, topic="D6 for extra hexes").fields()
        if inputs["battle_hardened"]:
            shift += ctx.add(
                "Battle hardened: extra-hex die 1 easier", int(notes["battle_hardened"]), NOTES
            )
        captured = inputs["captured"] and ctx.param(CAPTURED, "always_scurvy")
        if inputs["scurvy"] or captured:
            why = "Captured ship, all scurvy" if captured and not inputs["scurvy"] else "Scurvy"
            shift += ctx.add(f"{why}: extra-hex die 1 more difficult", int(notes["scurvy"]), NOTES)
        return shift

    def check(self, inputs: Inputs, rules: Rules) -> None:
        refuse_struck(self.id, inputs, rules, "moves", "a struck ship does not move")

    def _chain(self, ctx: Context, inputs: Inputs, every: Any, added: Any) -> int:
        """Roll the one chain of extra-hex dice and return the extra hexes it gains.

        The All ships roll is the first link; a failed roll ends the move; the size's
        additions continue the chain (rolled again after each success if they repeat until
        fail), at most ``max_additions`` of them.
        """
        die = ctx.param(SAILING, "extra_hex_die")
        shift = self._shift(ctx, inputs)

        def link(cell: Any, reason: str) -> bool:
            face = max(int(min(cell["extra_on"])) + shift, 1)
            return bool(ctx.roll(f"{die}>={face}", f"{reason}, {face} or more"))

        extra = 0
        if "extra_on" in every:
            if not link(every, "Extra hex (all ships), first link of the chain"):
                ctx.explain("The roll failed: the move ends, no more dice for extra hexes.")
                return extra
            extra += int(every["extra_hexes"])
        if "extra_on" not in added:
            return extra
        most = ctx.param(SAILING, "max_additions")
        repeat = bool(added.get("repeat_until_fail"))
        for additions in range(most):
            if not link(added, f"{inputs['size'].title()} ship addition {additions + 1}"):
                ctx.explain("The roll failed: the move ends, no more dice for extra hexes.")
                return extra
            extra += int(added["extra_hexes"])
            if not repeat:
                return extra
        ctx.explain(f"Additions: maximum {most} reached.")
        return extra

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        every = ctx.lookup(SAILING, facing=inputs["facing"], column="all").fields()
        added = ctx.lookup(SAILING, facing=inputs["facing"], column=inputs["size"]).fields()
        base = int(every.get("base_hexes", 0))
        spin = int(every.get("spin_faces", 0))
        may_roll = True
        if inputs["sail_zero"]:
            may_roll = bool(ctx.lookup(ZERO, level="Sail").fields().get("extra_hex_rolls"))
        extra = 0
        if may_roll and ("extra_on" in every or "extra_on" in added):
            extra = self._chain(ctx, inputs, every, added)
        elif not may_roll:
            ctx.explain("No dice are rolled for extra hexes.")
        hexes = base + extra
        ctx.explain(f"Move {base} + {extra} extra = {counted(hexes, 'hex', 'hexes')}.")

        stop: tuple[str, int] | None = None
        events = sorted(
            (inputs[name], name) for name in ("fog_hex", "shallows_hex") if inputs[name]
        )
        for at, name in events:
            if at > hexes or (stop and at > stop[1]):
                ctx.explain(f"The ship does not reach hex {at} ({name.split('_')[0]}).")
                continue
            if name == "fog_hex" and fog_ends_move(ctx):
                stop = stop or ("fog", at)
            if name == "shallows_hex" and runs_aground(
                ctx, inputs["size"], inputs["battle_hardened"]
            ):
                stop = ("aground", at)

        changes = []
        if stop is not None:
            what, at = stop
            result = f"stopped by fog in hex {at}" if what == "fog" else f"aground in hex {at}"
            changes.append(
                f"Move ends in hex {at}"
                + (": aground, no shooting at all" if what == "aground" else " (fog)")
            )
        else:
            result = counted(hexes, "hex", "hexes")
            if spin:
                result = f"spin {counted(spin, 'face')}, {result}"
                changes.append(f"Turn (spin) {counted(spin, 'face')} within the existing hex")
            changes.append(f"Move up to {counted(hexes, 'hex', 'hexes')}")
            reduce = ctx.param(NOTES, "reduce_movement_hexes")
            ctx.explain(f"All ships may reduce the move by {counted(reduce, 'hex', 'hexes')}.")
        if inputs["merchant"] or inputs["size"] == "large":
            topic = "Large ships and all merchants"
        else:
            topic = f"{inputs['size'].title()} warships"
        changes.append(f"Turning: {ctx.lookup(NOTES, topic=topic).text}")
        details = (("hexes", hexes), ("extra", extra), ("stopped", stop[0] if stop else ""))
        aground = stop is not None and stop[0] == "aground"
        effects = (Effect("ship", "state", state="aground"),) if aground else ()
        return Outcome(result, tuple(changes), details, effects)
