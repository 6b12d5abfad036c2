"""High-seas cannon fire and the damage it does."""

from __future__ import annotations

from typing import Any

from generator.loading import Rules
from generator.resolve import (
    Choice,
    Context,
    Effect,
    Inputs,
    Outcome,
    Param,
    ResolveInputError,
    Resolver,
    register,
)
from generator.resolve.duel import ceil_div
from generator.resolve.high_seas.common import (
    BOARDING_NOTES,
    BRILLIANT,
    CANNON_FIRE,
    CANNON_HIT,
    CANNON_MODS,
    CANNON_RESULTS,
    DAMAGE,
    GRAPPLING,
)
from generator.text import fold

TARGETS = ("hull", "rigging", "crew")


CANNON_FLAGS = (
    ("master_gunner", "master-gunner", "chief gunner is Master Superior in Gunnery"),
    ("navy", "navy-warship", "the firing ship is a Navy warship"),
    ("enemy_larger", "enemy-larger", "the enemy ship is larger"),
    ("fog_or_storm", "fog-or-storm", "fog or storm"),
    ("enemy_handling", "enemy-handling", "the enemy has higher handling"),
    ("enemy_grappled", "enemy-grappled", "the enemy is grappled to another ship (damage shared)"),
)


@register
class CannonFire(Resolver):
    id = "high-seas.cannon-fire"
    title = "Cannon fire"
    summary = (
        "d20 roll-under the number for range and target, with the cannon modifiers (and +3 "
        "for a Brilliant Maneuver, reading); Close against Hull or Crew hits automatically, "
        "but the d20 is still rolled: a natural 20 always bursts a gun, kills three crew and "
        "misses; a natural 1 always hits for double damage (readings). Damage 3d6 x "
        "firepower (guns / 10, rounded up); on a grappled enemy it is shared, the target "
        "taking the odd point (reading)."
    )
    tables = (
        CANNON_FIRE,
        CANNON_HIT,
        CANNON_MODS,
        CANNON_RESULTS,
        DAMAGE,
        GRAPPLING,
        BOARDING_NOTES,
        BRILLIANT,
    )
    params = (
        Choice("range", "range band", choices_from=(CANNON_HIT, "range")),
        Param(
            "target",
            "hull, rigging, or crew (grapeshot at close range)",
            kind="choice",
            choices=TARGETS,
        ),
        Param("guns", "guns in the battery that fires", minimum=1, maximum=200),
        *(Param(name, text, kind="bool", default=False) for name, _, text in CANNON_FLAGS),
        Param("brilliant", "a Brilliant Maneuver this turn (+3)", kind="bool", default=False),
        Param(
            "grappled",
            "the firing ship is grappled (may fire only into the hull)",
            kind="bool",
            default=False,
        ),
    )
    examples = (
        {"range": "medium", "target": "rigging", "guns": "12", "navy": "yes"},
        {"range": "close", "target": "hull", "guns": "20"},
        {"range": "close", "target": "crew", "guns": "8", "enemy_grappled": "yes"},
        {
            "range": "long",
            "target": "hull",
            "guns": "15",
            "fog_or_storm": "yes",
            "master_gunner": "yes",
            "enemy_larger": "yes",
        },
    )

    def check(self, inputs: Inputs, rules: Rules) -> None:
        grapeshot = rules.table(CANNON_FIRE).params["grapeshot_range"]
        if inputs["target"] == "crew" and fold(inputs["range"]) != fold(grapeshot):
            raise ResolveInputError(
                f"{self.id}: target=crew is grapeshot, fired only at {grapeshot} range"
            )
        only = rules.table(GRAPPLING).params["grappled_fire_target"]
        if inputs["grappled"] and fold(inputs["target"]) != fold(only):
            raise ResolveInputError(
                f"{self.id}: grappled=yes: a grappled ship may only fire into the {only}"
            )

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        target_name = inputs["target"]
        cell = ctx.lookup(CANNON_HIT, range=inputs["range"], target=target_name).cell
        automatic = not isinstance(cell, int)
        number = 0
        if automatic:
            ctx.explain(f"{inputs['range']} against {target_name}: hits automatically.")
        else:
            number = ctx.add(f"to hit at {inputs['range']}, {target_name}", cell, CANNON_HIT)
            for name, modifier_id, _ in CANNON_FLAGS:
                if inputs[name]:
                    number += ctx.modifier(CANNON_MODS, modifier_id)
            if inputs["brilliant"]:
                number += ctx.add(
                    "brilliant maneuver", int(ctx.param(BRILLIANT, "all_rolls_bonus")), BRILLIANT
                )
        die = str(ctx.param(CANNON_HIT, "die"))
        reason = (
            "Cannon fire (automatic hit; natural 1 and 20 count)"
            if automatic
            else (f"Cannon fire, {number} or less hits")
        )
        roll = ctx.roll(die, reason)
        details: list[tuple[str, Any]] = [("roll", roll)]
        if not automatic:
            details.append(("target", number))
        if roll == 20:
            guns = int(ctx.param(CANNON_RESULTS, "natural_20_guns_lost"))
            crew = int(ctx.param(CANNON_RESULTS, "natural_20_crew_killed"))
            ctx.explain(
                f"A natural 20: {ctx.param(CANNON_RESULTS, 'natural_20')}; the shot "
                "is spoiled (reading)."
            )
            burst = (f"Firing ship: -{guns} gun (burst), -{crew} crew",)
            lost = (Effect("ship", "guns", guns), Effect("ship", "crew", crew))
            return Outcome("gun bursts", burst, tuple(details), lost)
        double = roll == 1
        if double:
            ctx.explain("A natural 1: a hit for double damage.")
        elif automatic:
            ctx.explain("Hits.")
        elif roll <= number:
            ctx.explain(f"{roll} is {number} or less: a hit.")
        else:
            ctx.explain(f"{roll} is more than {number}: a miss.")
            return Outcome("miss", (), tuple(details))
        firepower = ceil_div(inputs["guns"], int(ctx.param(DAMAGE, "guns_per_firepower")))
        ctx.explain(f"Firepower: {inputs['guns']} guns / 10, rounded up = {firepower}.")
        damage = ctx.roll(str(ctx.param(DAMAGE, "damage_dice")), "Damage") * firepower
        if double:
            damage *= int(ctx.param(CANNON_RESULTS, "natural_1_damage_factor"))
        details += [("firepower", firepower), ("damage", damage)]
        what = {
            "hull": "Hull Hit Points",
            "rigging": "Rigging Hit Points",
            "crew": "men on deck killed",
        }[target_name]
        ctx.explain(f"{damage} {what}; apply with high-seas.damage.")
        if inputs["enemy_grappled"]:
            first = ceil_div(damage, 2)
            ctx.explain(
                f"Shared equally with the ship grappled to her: {first} and {damage - first}."
            )
            changes: tuple[str, ...] = (
                f"Target: {self.loss(target_name, first)}",
                f"Ship grappled to the target: {self.loss(target_name, damage - first)}",
            )
            # the grappled ship's share falls on a third ship: in the words only
            taken = first
        else:
            changes = (f"Target: {self.loss(target_name, damage)}",)
            taken = damage
        effects = (Effect("target", LOSS_KEYS[target_name], taken),) if taken else ()
        return Outcome("hit, double damage" if double else "hit", changes, tuple(details), effects)

    @staticmethod
    def loss(target: str, amount: int) -> str:
        if target == "crew":
            return f"{amount} men on deck killed"
        return f"-{amount} {target.capitalize()} Hit Points"


#: the effect key of each target's loss: hit points, or men killed
LOSS_KEYS = {"hull": "hull_hp", "rigging": "rigging_hp", "crew": "crew"}


@register
class Damage(Resolver):
    id = "high-seas.damage"
    title = "Damage and its consequences"
    summary = (
        "Hull: a gun and its crew lost for every full ten points of hull damage (counted on "
        "the total, reading); over half: -1 handling and takes on water; zero: sinks, two "
        "turns to escape. Rigging: a man on sail duty killed per full five points; over half: "
        "speed halved, chase rolls 1d6; zero: crippled. Crew: the men on deck killed."
    )
    tables = (DAMAGE,)
    params = (
        Param("target", "hull, rigging or crew", kind="choice", choices=TARGETS),
        Param("damage", "damage of this hit", minimum=0, maximum=10_000),
        Param(
            "points",
            "the ship's full Hull or Rigging Hit Points",
            default=0,
            minimum=0,
            maximum=10_000,
        ),
        Param(
            "before",
            "damage that target had taken before this hit",
            default=0,
            minimum=0,
            maximum=10_000,
        ),
    )
    examples = (
        {"target": "hull", "damage": "24", "points": "60", "before": "12"},
        {"target": "rigging", "damage": "11", "points": "40", "before": "12"},
        {"target": "hull", "damage": "30", "points": "50", "before": "25"},
        {"target": "crew", "damage": "9"},
    )

    def check(self, inputs: Inputs, rules: Rules) -> None:
        if inputs["target"] != "crew" and not inputs["points"]:
            raise ResolveInputError(
                f"{self.id}: target={inputs['target']} needs points=VALUE (the ship's full "
                f"{inputs['target'].capitalize()} Hit Points)"
            )
        if inputs["target"] != "crew" and inputs["before"] >= inputs["points"]:
            raise ResolveInputError(
                f"{self.id}: before={inputs['before']}: the {inputs['target']} is already at zero"
            )

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        target, damage = inputs["target"], inputs["damage"]
        if target == "crew":
            ctx.explain(f"Grapeshot: {damage} men on deck killed.")
            return Outcome(
                "crew killed",
                (f"Ship: {damage} men on deck killed",),
                (("killed", damage),),
                (Effect("ship", "crew", damage),) if damage else (),
            )
        points, before = inputs["points"], inputs["before"]
        total = min(before + damage, points)
        left = points - total
        ctx.explain(
            f"{target.capitalize()} damage {before} + {damage} = {before + damage} of "
            f"{points}: {left} left."
        )
        if target == "hull":
            per = int(ctx.param(DAMAGE, "hull_damage_per_gun_lost"))
            what = "gun and its crew destroyed"
        else:
            per = int(ctx.param(DAMAGE, "rigging_damage_per_sail_crew_killed"))
            what = "man on Sail duty killed"
        lost = total // per - before // per
        changes = [f"Ship: -{damage} {target.capitalize()} Hit Points ({left} left)"]
        effects = [Effect("ship", LOSS_KEYS[target], damage)] if damage else []
        if lost:
            effects.append(Effect("ship", "guns" if target == "hull" else "crew", lost))
        if lost:
            ctx.explain(f"Every full {per} points of {target} damage: {lost} × {what}.")
            plural = (
                "guns and their crews destroyed" if target == "hull" else "men on Sail duty killed"
            )
            changes.append(f"Ship: {lost} {what if lost == 1 else plural}")
        details: list[tuple[str, Any]] = [("total", total), ("left", left), ("lost", lost)]
        over_before, over_now = 2 * before > points, 2 * total > points
        if left == 0:
            if target == "hull":
                turns = ctx.param(DAMAGE, "sinking_escape_turns")
                ctx.explain(f"Hull at zero: the ship sinks; the crew have {turns} turns to escape.")
                changes.append(f"Ship: sinks, the crew have {turns} turns to escape")
                effects.append(Effect("ship", "state", state="sinking"))
                return Outcome("hull: sinks", tuple(changes), tuple(details), tuple(effects))
            handling = int(ctx.param(DAMAGE, "crippled_circle_handling"))
            ctx.explain("Rigging at zero: the ship is crippled.")
            changes.append(f"Ship: crippled, may only circle, at {handling} handling")
            effects.append(Effect("ship", "state", state="crippled"))
            return Outcome("rigging: crippled", tuple(changes), tuple(details), tuple(effects))
        if over_now:
            if over_before:
                ctx.explain("Already over half: its effects are on the sheet.")
            elif target == "hull":
                penalty = int(ctx.param(DAMAGE, "hull_over_half_handling"))
                ctx.explain("Hull damage exceeds half: handling falls and she takes on water.")
                changes.append(f"Ship: {penalty} handling, takes on water")
            else:
                dice = ctx.param(DAMAGE, "rigging_over_half_chase_dice")
                ctx.explain("Rigging damage exceeds half: speed is halved.")
                changes.append(f"Ship: speed halved (rounded up), chase rolls {dice}")
            return Outcome(f"{target}: over half", tuple(changes), tuple(details), tuple(effects))
        return Outcome(f"{target}: damaged", tuple(changes), tuple(details), tuple(effects))
