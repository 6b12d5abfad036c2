"""Resolvers for the convoy ruleset (seed 002): dice pools of d6 for everything.

Readings (rules-notes.md, convoy): gunnery modifiers are dice, never fewer than 2d6, each
6 hits, broadsides re-roll their misses once, chasers roll 1d6 with no modifiers; boarding,
recovery and wind-change pools count 5s and 6s.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from generator.loading import Rules
from generator.lookup import lookup
from generator.resolve import (
    Choice,
    Context,
    Inputs,
    Outcome,
    Param,
    ResolveInputError,
    Resolver,
    SteppedResolver,
    register,
)

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


def _n(count: int, word: str, plural: str | None = None) -> str:
    return f"{count} {word if count == 1 else (plural or word + 's')}"


def _dice(count: int) -> str:
    return _n(count, "die", "dice")


def _success_face(ctx: Context, table_id: str) -> int:
    """Return the lowest face that succeeds (``success_on: [5, 6]`` gives 5)."""
    return int(min(ctx.param(table_id, "success_on")))


def _pool(ctx: Context, count: int, face: int, reason: str) -> int:
    """Roll a pool of `count` d6 and return how many show `face` or more."""
    if count <= 0:
        ctx.explain(f"{reason}: no dice, no successes.")
        return 0
    return ctx.roll(f"{count}d6>={face}", reason)


def _shallows(ctx: Context, size: str, battle_hardened: bool) -> bool:
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
    sixes = ctx.roll(f"{dice}d6>={face}", f"Shallows: {_dice(dice)}, any {face} runs aground")
    if sixes:
        ctx.explain(f"A {face} came up: aground. Stop moving.")
        return True
    ctx.explain(f"No {face}: the ship is clear of the shallows.")
    return False


def _fog(ctx: Context) -> bool:
    """Roll for the first fog hex entered; return whether the move ends there."""
    axis = ctx.table(FOG_ROLL).axes[0]
    roll = ctx.roll(axis.dice or "1d6", "Fog: first fog hex entered")
    return bool(ctx.lookup(FOG_ROLL, roll=roll).fields()["move_ends"])


def _refuse_struck(resolver: str, inputs: Inputs, rules: Rules, allowed: str, rule: str) -> None:
    """Refuse a struck ship what the playsheet says it does not do (move, recover)."""
    struck = rules.table(STRUCK)
    if inputs["struck"] and not struck.params.get(allowed, True):
        raise ResolveInputError(f"{resolver}: struck=yes: {rule} ({struck.marked_title})")


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
        _refuse_struck(self.id, inputs, rules, "moves", "a struck ship does not move")

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
        ctx.explain(f"Move {base} + {extra} extra = {_n(hexes, 'hex', 'hexes')}.")

        stop: tuple[str, int] | None = None
        events = sorted(
            (inputs[name], name) for name in ("fog_hex", "shallows_hex") if inputs[name]
        )
        for at, name in events:
            if at > hexes or (stop and at > stop[1]):
                ctx.explain(f"The ship does not reach hex {at} ({name.split('_')[0]}).")
                continue
            if name == "fog_hex" and _fog(ctx):
                stop = stop or ("fog", at)
            if name == "shallows_hex" and _shallows(ctx, inputs["size"], inputs["battle_hardened"]):
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
            result = _n(hexes, "hex", "hexes")
            if spin:
                result = f"spin {_n(spin, 'face')}, {result}"
                changes.append(f"Turn (spin) {_n(spin, 'face')} within the existing hex")
            changes.append(f"Move up to {_n(hexes, 'hex', 'hexes')}")
            reduce = ctx.param(NOTES, "reduce_movement_hexes")
            ctx.explain(f"All ships may reduce the move by {_n(reduce, 'hex', 'hexes')}.")
        if inputs["merchant"] or inputs["size"] == "large":
            topic = "Large ships and all merchants"
        else:
            topic = f"{inputs['size'].title()} warships"
        changes.append(f"Turning: {ctx.lookup(NOTES, topic=topic).text}")
        details = (("hexes", hexes), ("extra", extra), ("stopped", stop[0] if stop else ""))
        return Outcome(result, tuple(changes), details)


SHOTS = ("normal", "opportunity", "return")
TARGETS = ("same", "smaller", "bigger")
SHOOTERS = ("small", "medium", "large", "merchant")
MODIFIER_FLAGS = (
    ("short_range", "short-range"),
    ("battle_hardened", "battle-hardened"),
    ("raking", "raking"),
    ("crew_zero", "crew-level-zero"),
    ("sail_zero", "sail-level-zero"),
)


@register
class Gunnery(Resolver):
    id = "convoy.gunnery"
    title = "Gunnery"
    summary = (
        "A pool of d6: 2 per gun marker plus or minus the modifiers in dice, never fewer than "
        "2; each 6 hits and a broadside re-rolls its misses once. Chasers roll 1d6 with no "
        "modifiers. Short range is the GM's call: the seed does not define it. The playsheet's "
        "bans are refused: no shooting into or out of fog, none by a grounded or struck ship, "
        "none at a struck ship; a captured ship makes only opportunity shots, as scurvy."
    )
    tables = (GUNNERY, GUN_MODS, RANGE, ZERO, FOG, SHALLOWS, CAPTURED, STRUCK)
    examples = (
        {"guns": "2", "short_range": "yes"},
        {"guns": "3", "shooter": "large", "range": "4", "target": "bigger", "scurvy": "yes"},
        {"guns": "1", "shot": "opportunity", "crew_zero": "yes"},
        {
            "guns": "4",
            "raking": "yes",
            "battle_hardened": "yes",
            "target": "smaller",
            "short_range": "yes",
        },
        {"guns": "0", "shooter": "merchant", "range": "2"},
        {"chaser": "yes", "range": "2"},
        {"guns": "4", "shooter_captured": "yes", "shot": "opportunity"},
    )
    params = (
        Param(
            "guns", "gun markers firing (0: Guns at zero level)", minimum=0, maximum=20, default=2
        ),
        Param(
            "chaser",
            "bow or stern chaser: 1d6, no modifiers, no re-roll",
            kind="bool",
            default=False,
        ),
        Param(
            "shooter",
            "the firing ship (for its range)",
            kind="choice",
            choices=SHOOTERS,
            default="medium",
        ),
        Param("range", "range to the target in hexes", minimum=1, maximum=10, default=1),
        Param(
            "short_range",
            "short range (the GM's call; the seed gives no number)",
            kind="bool",
            default=False,
        ),
        Param(
            "target",
            "target size compared with the shooter",
            kind="choice",
            choices=TARGETS,
            default="same",
        ),
        Param("battle_hardened", "battle hardened crew", kind="bool", default=False),
        Param("raking", "raking (warship in its own turn)", kind="bool", default=False),
        Param("scurvy", "scurvy", kind="bool", default=False),
        Param("crew_zero", "Crew at zero level", kind="bool", default=False),
        Param("sail_zero", "Sail at zero level", kind="bool", default=False),
        Param(
            "shot",
            "normal, opportunity (1 hex only) or return (only if hit) shoot",
            kind="choice",
            choices=SHOTS,
            default="normal",
        ),
        Param("shooter_in_fog", "the shooter is in a fog hex", kind="bool", default=False),
        Param("target_in_fog", "the target is in a fog hex", kind="bool", default=False),
        Param("shooter_aground", "the shooter is grounded in shallows", kind="bool", default=False),
        Param(
            "shooter_captured",
            "the shooter is a captured ship (opportunity shots only, all scurvy)",
            kind="bool",
            default=False,
        ),
        Param("shooter_struck", "the shooter has struck", kind="bool", default=False),
        Param("target_struck", "the target has struck", kind="bool", default=False),
    )

    def _bans(self, inputs: Inputs, rules: Rules) -> None:
        """Refuse a shot the playsheet forbids, naming the rule and the input."""
        fog, shallows, struck = (rules.table(t) for t in (FOG, SHALLOWS, STRUCK))
        bans = (
            ("shooter_in_fog", fog, "shooting_in_or_out", "cannot shoot in or out of fog"),
            ("target_in_fog", fog, "shooting_in_or_out", "cannot shoot in or out of fog"),
            (
                "shooter_aground",
                shallows,
                "grounded_shooting",
                "whilst grounded no shooting at all",
            ),
            ("shooter_struck", struck, "shoots", "a struck ship does not shoot"),
            ("target_struck", struck, "is_shot_at", "a struck ship is not shot at"),
        )
        for name, table, allowed, rule in bans:
            if inputs[name] and not table.params[allowed]:
                raise ResolveInputError(
                    f"{self.id}: {name}=yes: no shot, {rule} ({table.marked_title})"
                )
        captured = rules.table(CAPTURED)
        shots = captured.params["shots_allowed"]
        if inputs["shooter_captured"] and inputs["shot"] not in shots:
            raise ResolveInputError(
                f"{self.id}: shot={inputs['shot']}: a captured ship is only allowed "
                f"{' or '.join(shots)} shooting ({captured.marked_title})"
            )

    def check(self, inputs: Inputs, rules: Rules) -> None:
        self._bans(inputs, rules)
        if inputs["chaser"]:
            given = [name for name in ("scurvy", *(n for n, _ in MODIFIER_FLAGS)) if inputs[name]]
            if inputs["target"] != "same":
                given.append("target")
            if given:
                raise ResolveInputError(
                    f"{self.id}: chasers roll 1D6 with no modifiers; drop {', '.join(given)}"
                )
            if inputs["shot"] == "return":
                raise ResolveInputError(f"{self.id}: chasers may not return shoot")
        ship = "chasers" if inputs["chaser"] else inputs["shooter"]
        reach = int(lookup(rules, RANGE, {"ship": ship}).fields()["hexes"])
        if inputs["range"] > reach:
            raise ResolveInputError(
                f"{self.id}: range={inputs['range']} is beyond the {reach}-hex range of "
                + ("bow and stern chasers" if inputs["chaser"] else f"a {ship} ship")
            )
        most = rules.table(GUNNERY).params["opportunity_max_range_hexes"]
        if inputs["shot"] == "opportunity" and inputs["range"] > most:
            raise ResolveInputError(
                f"{self.id}: opportunity shooting is only allowed at {most} hex range, "
                f"not range={inputs['range']}"
            )
        if inputs["raking"] and (inputs["shooter"] == "merchant" or inputs["shot"] != "normal"):
            raise ResolveInputError(
                f"{self.id}: raking is for a warship shooting in its own turn "
                f"(not shooter={inputs['shooter']}, shot={inputs['shot']})"
            )

    def _broadside_pool(self, ctx: Context, inputs: Inputs) -> int:
        pool = 0
        if inputs["guns"]:
            pool += ctx.modifier(GUN_MODS, "per-gun-marker", times=inputs["guns"])
        else:
            zero = ctx.lookup(ZERO, level="Guns").fields()
            pool += int(zero["per_gun_dice"])
        for name, modifier_id in MODIFIER_FLAGS:
            if inputs[name]:
                pool += ctx.modifier(GUN_MODS, modifier_id)
        if inputs["scurvy"] or self._captured_scurvy(ctx, inputs):
            pool += ctx.modifier(GUN_MODS, "scurvy")
        if inputs["target"] != "same":
            pool += ctx.modifier(GUN_MODS, f"target-{inputs['target']}")
        if inputs["shot"] != "normal":
            pool += ctx.modifier(GUN_MODS, "opportunity-or-return")
            if inputs["shot"] == "return":
                ctx.explain("Return shooting is only allowed if hits were received.")
        least = ctx.param(GUNNERY, "min_dice")
        if pool < least:
            pool += ctx.add(f"Minimum {least}D6 after all modifiers applied", least - pool, GUNNERY)
        ctx.explain(f"Gunnery pool: {_dice(pool)}.")
        return pool

    def _captured_scurvy(self, ctx: Context, inputs: Inputs) -> bool:
        """Return whether a captured shooter counts as scurvy (it was not given as such)."""
        if inputs["shooter_captured"] and ctx.param(CAPTURED, "always_scurvy"):
            ctx.explain("Captured ships: All scurvy, so the shooter counts as scurvy.")
            return True
        return False

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        face = ctx.param(GUNNERY, "hit_on")
        if inputs["shooter_captured"]:
            ctx.explain("Captured ships: Only allowed opportunity shooting.")
        if inputs["chaser"]:
            dice = ctx.param(GUNNERY, "chaser_dice")
            ctx.explain(f"Chasers: {_dice(dice)}, no modifiers, no re-roll, no return shoot.")
            if inputs["shooter_captured"]:
                ctx.explain("A captured ship counts as scurvy, but chasers take no modifiers.")
            hits = ctx.roll(f"{dice}d6>={face}", f"Chasers, each {face} hits")
        else:
            dice = self._broadside_pool(ctx, inputs)
            hits = ctx.roll(f"{dice}d6>={face}", f"Broadside, each {face} hits")
            for _ in range(ctx.param(GUNNERY, "broadside_reroll_misses")):
                misses = dice - hits
                if not misses:
                    break
                hits += ctx.roll(f"{misses}d6>={face}", "Broadside re-roll of the misses")
        ctx.explain(f"{_n(hits, 'hit')}.")
        changes = []
        if hits:
            changes.append("Target: apply the first hit (target's choice)")
        if hits > 1:
            changes.append(f"Shooter: apply the other {_n(hits - 1, 'hit')}")
        if hits and inputs["shot"] == "normal" and not inputs["chaser"]:
            changes.append("Target may return shoot (hits received)")
        result = "no hits" if not hits else _n(hits, "hit")
        return Outcome(result, tuple(changes), (("dice", dice), ("hits", hits)))


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
            f"Battle clock = {moves}: the moving player moves it {_n(move, 'space')}, "
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
        face = _success_face(ctx, WIND)
        mover = _pool(ctx, inputs["mover_dice"], face, f"Mover, each {face}+ succeeds")
        opponent = _pool(ctx, inputs["opponent_dice"], face, f"Opponent, each {face}+ cancels one")
        left = mover - opponent
        details = (("mover", mover), ("opponent", opponent))
        if left > 0:
            directions = ctx.param(WIND, "change_directions")
            fog = ctx.param(WIND, "fog_move_hexes")
            ctx.explain(f"The mover wins by {left}: the wind changes.")
            return Outcome(
                "wind changes",
                (
                    f"Wind changes by {_n(directions, 'direction')} (mover's choice)",
                    f"Fog moves {_n(fog, 'hex', 'hexes')} in the new wind direction",
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
        _refuse_struck(self.id, inputs, rules, "recovers", "a struck ship does not recover")

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
        face = _success_face(ctx, RECOVERY)
        successes = _pool(ctx, dice, face, f"Recovery, {_dice(dice)}, each {face}+ succeeds")
        result = "no successes" if not successes else _n(successes, "success", "successes")
        changes = (f"Recovery: {result}",) if successes else ()
        return Outcome(result, changes, (("dice", dice), ("successes", successes)))


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
        ones = ctx.roll(f"{dice}d6<={burns_on}", f"Death rolls, {_dice(dice)}, a {burns_on} burns")
        if ones:
            ctx.explain("A 1 came up: the ship burns and stays in position.")
            return Outcome("ship burns", ("Ship burns, stays in position",), (("ones", ones),))
        ctx.explain("No 1: the ship does not burn.")
        return Outcome("no fire", (), (("ones", 0),))


def _steps(inputs: Inputs, side: str) -> int:
    other = "target" if side == "boarder" else "boarder"
    return SIZES.index(inputs[f"{side}_size"]) - SIZES.index(inputs[f"{other}_size"])


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
        face = _success_face(ctx, table_id)
        return _pool(ctx, dice, face, f"{stage}: {side}'s {_dice(dice)}, each {face}+")

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
                        f"{_n(boarder, 'success', 'successes')} by a warship: the ownerless "
                        "ship is boarded."
                    )
                    return Outcome(
                        "captured", ("Target owned by the boarder",), (("grapple", boarder),)
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
            return Outcome("captured", self._result(ctx, True), (("fight", boarder - target),))
        why = "the defender wins a draw" if boarder == target else "the target wins"
        ctx.explain(f"Fight: boarder {boarder} v target {target}, {why}.")
        return Outcome("repulsed", self._result(ctx, False), (("fight", boarder - target),))


@register
class Shallows(Resolver):
    id = "convoy.shallows"
    title = "Shallows"
    summary = (
        "On moving into the first shallows hex: small 1d6, medium 2d6, large 3d6, one die fewer "
        "if battle hardened; any 6 runs aground."
    )
    tables = (SHALLOWS, SHALLOWS_DICE)
    examples = (
        {"size": "Large"},
        {"size": "Medium", "battle_hardened": "yes"},
        {"size": "Small", "battle_hardened": "yes"},
    )
    params = (
        Param(
            "size",
            "ship size",
            kind="choice",
            choices_from=(SHALLOWS_DICE, "size"),
            default="Medium",
        ),
        Param(
            "battle_hardened", "battle hardened crew (one die fewer)", kind="bool", default=False
        ),
    )

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        if _shallows(ctx, inputs["size"], inputs["battle_hardened"]):
            refloat = ctx.param(SHALLOWS, "refloat")
            return Outcome(
                "aground",
                (
                    "Aground: stop moving",
                    "No shooting at all while grounded",
                    f"Re-float {refloat}",
                ),
                (("aground", True),),
            )
        return Outcome("clear", (), (("aground", False),))


@register
class Fog(Resolver):
    id = "convoy.fog"
    title = "Fog"
    summary = "D6 for the first fog hex entered this turn: 1, 2 the move ends; 3-6 no effect."
    tables = (FOG, FOG_ROLL)
    examples = ({}, {"first_hex": "no"})
    params = (
        Param(
            "first_hex", "the first fog hex the ship enters this turn", kind="bool", default=True
        ),
    )

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        changes = ("No shooting into or out of fog",)
        if not inputs["first_hex"]:
            ctx.explain("Only the first fog hex entered is rolled for: no effect on movement.")
            return Outcome("no effect on movement in this turn", changes)
        axis = ctx.table(FOG_ROLL).axes[0]
        roll = ctx.roll(axis.dice or "1d6", "Fog: first fog hex entered")
        cell = ctx.lookup(FOG_ROLL, roll=roll)
        if cell.fields()["move_ends"]:
            return Outcome(cell.text, ("Move ends in the fog hex", *changes), (("roll", roll),))
        return Outcome(cell.text, changes, (("roll", roll),))
