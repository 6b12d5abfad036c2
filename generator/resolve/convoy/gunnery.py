"""Convoy gunnery."""

from __future__ import annotations

from generator.loading import Rules
from generator.lookup import lookup
from generator.resolve import Context, Inputs, Outcome, Param, ResolveInputError, Resolver, register
from generator.resolve.convoy.common import (
    CAPTURED,
    FOG,
    GUN_MODS,
    GUNNERY,
    RANGE,
    SHALLOWS,
    STRUCK,
    ZERO,
    counted,
    counted_dice,
)

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
        ctx.explain(f"Gunnery pool: {counted_dice(pool)}.")
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
            ctx.explain(
                f"Chasers: {counted_dice(dice)}, no modifiers, no re-roll, no return shoot."
            )
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
        ctx.explain(f"{counted(hits, 'hit')}.")
        changes = []
        if hits:
            changes.append("Target: apply the first hit (target's choice)")
        if hits > 1:
            changes.append(f"Shooter: apply the other {counted(hits - 1, 'hit')}")
        if hits and inputs["shot"] == "normal" and not inputs["chaser"]:
            changes.append("Target may return shoot (hits received)")
        result = "no hits" if not hits else counted(hits, "hit")
        return Outcome(result, tuple(changes), (("dice", dice), ("hits", hits)))
