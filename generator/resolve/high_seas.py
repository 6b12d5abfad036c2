"""Resolvers for the high-seas ruleset (seed 000, "Ship Combat"): maneuver, fire, damage, boarding.

Every number comes from data/high-seas.yaml: the tactics matrix and the guns-bear table, the
cannon to-hit table and its modifiers, and the ``params`` of the rules tables. Rounding is
up, as the same book always rounds (duel.rounding). Where the seed is silent the resolver
says which reading it takes, in its summary and in the explanation the GM reads.
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from fractions import Fraction
from typing import Any

from generator.loading import Rules
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
from generator.resolve.duel import ceil_div
from generator.text import fold

RANGE = "high-seas.range"
CAPTAINS = "high-seas.captains"
TACTICS = "high-seas.tactics"
WET_SAILS = "high-seas.wet-sails"
HARD_TURN = "high-seas.hard-turn"
BRILLIANT = "high-seas.brilliant-maneuver"
GUNS_BEAR = "high-seas.guns-bear"
CANNON_FIRE = "high-seas.cannon-fire"
CANNON_HIT = "high-seas.cannon-hit"
CANNON_MODS = "high-seas.cannon-modifiers"
CANNON_RESULTS = "high-seas.cannon-results"
DAMAGE = "high-seas.damage"
GRAPPLING = "high-seas.grappling"
GRAPPLE = "high-seas.grapple"
CREWS = "high-seas.crews"
BOARDING = "high-seas.boarding"
BOARDING_NOTES = "high-seas.boarding-notes"

TARGETS = ("hull", "rigging", "crew")
NO_GUNS = "no guns bear"
BROADSIDE = "broadside"


def dice_of(formula: str) -> str:
    """Return the dice of a printed roll such as ``2d6+speed`` (``2d6``)."""
    return formula.split("+", 1)[0].strip()


def kill_notation(count: int, faces: Any) -> str:
    """Return a success-counting roll of `count` d6 that kill on `faces` (``5, 6``)."""
    return f"{count}d6>={min(int(f) for f in faces)}"


# ---------------------------------------------------------------- maneuver


def side_params(prefix: str, who: str) -> tuple[Param, ...]:
    """The ship inputs of one side of a maneuver."""
    return (
        Param(
            f"{prefix}speed",
            f"{who} speed (already halved if so)",
            default=0,
            minimum=0,
            maximum=40,
        ),
        Param(f"{prefix}handling", f"{who} handling", default=0, minimum=-10, maximum=40),
        Param(
            f"{prefix}wet_sails", f"{who} sails are wetted (+2 speed)", kind="bool", default=False
        ),
        Param(
            f"{prefix}hard_turn",
            f"{who} makes a hard turn (+2 handling)",
            kind="bool",
            default=False,
        ),
        Param(
            f"{prefix}brilliant",
            f"{who} captain or mate made a Brilliant Maneuver (+3 to all rolls)",
            kind="bool",
            default=False,
        ),
        Param(
            f"{prefix}rigging_over_half",
            f"{who} rigging damage is over half (chase roll 1d6)",
            kind="bool",
            default=False,
        ),
        Param(
            f"{prefix}crippled",
            f"{who} rigging is at zero: may only circle, -5 handling",
            kind="bool",
            default=False,
        ),
    )


@register
class Maneuver(Resolver):
    id = "high-seas.maneuver"
    title = "Maneuver (captains' choices)"
    summary = (
        "Both captains' choices on the tactics matrix change the range; the chase roll is "
        "2d6 + speed each (ties: no change, reading); moving past the farthest band is an "
        "escape (reading). Then which guns may fire (guns-bear), rolling 2d6 + handling for "
        "circling ships; guns at close range are judged at the new range (reading)."
    )
    tables = (
        TACTICS,
        RANGE,
        CAPTAINS,
        GUNS_BEAR,
        WET_SAILS,
        HARD_TURN,
        BRILLIANT,
        DAMAGE,
    )
    params = (
        Choice("choice", "our captain's choice", choices_from=(TACTICS, "choice")),
        Choice("opponent", "the opposing captain's choice", choices_from=(TACTICS, "opponent")),
        Choice("range", "range band before the maneuver", choices_from=(RANGE, "band")),
        Param("optional_bands", "use the optional range bands", kind="bool", default=False),
        *side_params("", "our ship's"),
        *side_params("opponent_", "the opponent's"),
    )
    examples = (
        {
            "choice": "evade",
            "opponent": "bear down",
            "range": "medium",
            "speed": "6",
            "opponent_speed": "5",
        },
        {
            "choice": "circle",
            "opponent": "bear down",
            "range": "short",
            "handling": "4",
            "opponent_handling": "3",
            "hard_turn": "yes",
        },
        {
            "choice": "circle",
            "opponent": "circle",
            "range": "close",
            "handling": "3",
            "opponent_handling": "3",
            "opponent_brilliant": "yes",
        },
        {"choice": "bear down", "opponent": "bear down", "range": "long"},
        {"choice": "evade", "opponent": "evade", "range": "far"},
        {"choice": "evade", "opponent": "circle", "range": "medium long", "optional_bands": "yes"},
    )

    def check(self, inputs: Inputs, rules: Rules) -> None:
        bands = self.bands(rules, inputs)
        if inputs["range"] not in bands:
            raise ResolveInputError(
                f"{self.id}: range={inputs['range']} is an optional band; give "
                f"optional_bands=yes or one of {', '.join(bands)}"
            )
        for prefix, who in (("", "choice"), ("opponent_", "opponent")):
            if inputs[f"{prefix}crippled"] and fold(inputs[who]) != fold("Circle"):
                raise ResolveInputError(
                    f"{self.id}: {prefix}crippled=yes: a crippled ship may only circle, not "
                    f"{inputs[who]}"
                )

    @staticmethod
    def bands(rules: Rules, inputs: Inputs) -> tuple[str, ...]:
        params = rules.table(RANGE).params
        key = "optional_bands" if inputs["optional_bands"] else "standard_bands"
        return tuple(params[key])

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        ours, theirs = inputs["choice"], inputs["opponent"]
        bands = self.bands(ctx.rules, inputs)
        start = bands.index(inputs["range"])
        cell = ctx.lookup(TACTICS, choice=ours, opponent=theirs)
        fields = cell.fields()
        details: list[tuple[str, Any]] = [("range_before", inputs["range"])]
        if "change" in fields:
            change = int(fields["change"])
        elif fold(fields["procedure"]) == fold("Escape"):
            ctx.explain("Both ships evade: they escape each other.")
            return Outcome("escape", ("The ships part: the engagement ends",), tuple(details))
        else:
            change = self.chase(ctx, inputs)
        details.append(("change", change))
        after = start - change
        if after < 0:
            ctx.explain(
                f"{change:+d} band from {bands[0]}, the farthest band: an escape (reading)."
            )
            return Outcome("escape", ("The ships part: the engagement ends",), tuple(details))
        if after >= len(bands):
            ctx.explain(f"Already at {bands[-1]}: the range can come no closer.")
            after = len(bands) - 1
        band = bands[after]
        ctx.explain(f"Range {inputs['range']} → {band}.")
        details.append(("range", band))
        close = after == len(bands) - 1
        our_guns, their_guns = self.guns(ctx, inputs, close)
        details += [("guns", our_guns), ("opponent_guns", their_guns)]
        changes = (
            f"Range: {band}",
            f"Our ship may fire: {our_guns}",
            f"Opponent may fire: {their_guns}",
        )
        return Outcome(f"range {band}", changes, tuple(details))

    def chase(self, ctx: Context, inputs: Inputs) -> int:
        """Roll 2d6 + speed for each ship; the winner moves the range one band its way."""
        step = int(ctx.param(TACTICS, "chase_winner_change"))
        ours = self.chase_roll(ctx, inputs, "", "Our ship")
        theirs = self.chase_roll(ctx, inputs, "opponent_", "Opponent")
        if ours == theirs:
            ctx.explain(f"Tie at {ours}: the range does not change (reading).")
            return 0
        winner = inputs["choice"] if ours > theirs else inputs["opponent"]
        who = "Our ship" if ours > theirs else "The opponent"
        evading = fold(winner) == fold("Evasion")
        ctx.explain(
            f"{who} wins and moves the range one band {'farther' if evading else 'closer'}."
        )
        return step if evading else -step

    def chase_roll(self, ctx: Context, inputs: Inputs, prefix: str, who: str) -> int:
        dice = dice_of(str(ctx.param(TACTICS, "chase_roll")))
        if inputs[f"{prefix}rigging_over_half"]:
            dice = str(ctx.param(DAMAGE, "rigging_over_half_chase_dice"))
            ctx.explain(f"{who}: rigging over half, chase roll {dice}.")
        speed = inputs[f"{prefix}speed"]
        bonus = 0
        if inputs[f"{prefix}wet_sails"]:
            bonus += ctx.add(
                f"{who}: wet sails", int(ctx.param(WET_SAILS, "speed_bonus")), WET_SAILS
            )
        if inputs[f"{prefix}brilliant"]:
            bonus += ctx.add(
                f"{who}: brilliant maneuver",
                int(ctx.param(BRILLIANT, "all_rolls_bonus")),
                BRILLIANT,
            )
        total: int = ctx.roll(dice, f"{who}: chase roll {dice} + speed {speed}") + speed + bonus
        ctx.explain(f"{who}: {total}.")
        return total

    def circling_roll(self, ctx: Context, inputs: Inputs, prefix: str, who: str) -> int:
        dice = dice_of(str(ctx.param(GUNS_BEAR, "circling_roll")))
        handling = inputs[f"{prefix}handling"]
        bonus = 0
        if inputs[f"{prefix}hard_turn"]:
            bonus += ctx.add(
                f"{who}: hard turn", int(ctx.param(GUNS_BEAR, "hard_turn_bonus")), GUNS_BEAR
            )
        if inputs[f"{prefix}brilliant"]:
            bonus += ctx.add(
                f"{who}: brilliant maneuver",
                int(ctx.param(BRILLIANT, "all_rolls_bonus")),
                BRILLIANT,
            )
        if inputs[f"{prefix}crippled"]:
            bonus += ctx.add(
                f"{who}: crippled, circling",
                int(ctx.param(DAMAGE, "crippled_circle_handling")),
                DAMAGE,
            )
        total: int = ctx.roll(dice, f"{who}: {dice} + handling {handling}") + handling + bonus
        ctx.explain(f"{who}: {total}.")
        return total

    def guns(self, ctx: Context, inputs: Inputs, close: bool) -> tuple[str, str]:
        """Return which guns each ship may fire after the maneuver (guns-bear)."""
        ours, theirs = inputs["choice"], inputs["opponent"]
        circle, bear = fold("Circle"), fold("Bear Down")
        pair = (fold(ours), fold(theirs))
        if pair in ((circle, bear), (bear, circle), (circle, circle)):
            ctx.lookup(GUNS_BEAR, action=ours, opponent=theirs)
            if pair[0] != pair[1]:
                ctx.lookup(GUNS_BEAR, action=theirs, opponent=ours)
            mine = self.circling_roll(ctx, inputs, "", "Our ship")
            other = self.circling_roll(ctx, inputs, "opponent_", "Opponent")
            if pair == (circle, circle):
                margin = int(ctx.param(GUNS_BEAR, "circling_vs_circling_margin"))
                if abs(mine - other) >= margin:
                    loser = "chasers or stern guns"
                    ctx.explain(f"One ship wins by {margin} or more: she fires a broadside.")
                    return (BROADSIDE, loser) if mine > other else (loser, BROADSIDE)
                ctx.explain(f"Neither wins by {margin} or more: both may fire broadsides.")
                return BROADSIDE, BROADSIDE
            circler_first = pair[0] == circle
            circler, bearer = (mine, other) if circler_first else (other, mine)
            if circler > bearer:
                ctx.explain("The circling ship wins: only she may fire a broadside.")
                return (BROADSIDE, NO_GUNS) if circler_first else (NO_GUNS, BROADSIDE)
            ctx.explain("The circling ship does not win: both may fire a broadside.")
            return BROADSIDE, BROADSIDE
        return (
            self.printed_guns(ctx, ours, theirs, close),
            self.printed_guns(ctx, theirs, ours, close),
        )

    def printed_guns(self, ctx: Context, action: str, opponent: str, close: bool) -> str:
        text = ctx.lookup(GUNS_BEAR, action=action, opponent=opponent).text
        split = re.fullmatch(r"(.+?) before close range, (.+?) at close range", text)
        if split is None:
            return text.lower()
        return (split[2] if close else split[1]).lower()


# ---------------------------------------------------------------- wet sails, hard turn


@register
class WetSails(Resolver):
    id = "high-seas.wet-sails"
    title = "Wet sails check"
    summary = (
        "Each turn the sails are wet (two turns, +2 speed) roll d6: on a 6 the rigging "
        "loses 1d6 Rigging Hit Points and the ship moves at half speed next turn."
    )
    tables = (WET_SAILS,)
    params = (
        Param("speed", "the ship's normal speed (0: not given)", default=0, minimum=0, maximum=40),
    )
    examples = ({}, {"speed": "8"})

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        bonus = int(ctx.param(WET_SAILS, "speed_bonus"))
        turns = ctx.param(WET_SAILS, "lasts_turns")
        speed = inputs["speed"]
        if speed:
            ctx.explain(f"Wetted sails ({turns} turns): speed {speed} + {bonus} = {speed + bonus}.")
        else:
            ctx.explain(f"Wetted sails ({turns} turns): speed +{bonus}.")
        risk = int(ctx.param(WET_SAILS, "risk_on"))
        roll = ctx.roll(str(ctx.param(WET_SAILS, "risk_die")), f"Wet sails risk, {risk} tears")
        if roll < risk:
            ctx.explain(f"{roll}: the sails hold.")
            return Outcome("sails hold", (), (("roll", roll),))
        lost = ctx.roll(str(ctx.param(WET_SAILS, "rigging_damage")), "Rigging Hit Points lost")
        half = f"speed {ceil_div(speed, 2)}" if speed else "half speed"
        ctx.explain(f"{roll}: the rigging is damaged; next turn the ship moves at {half}.")
        changes = (f"Ship: -{lost} Rigging Hit Points", f"Ship: {half} next turn")
        return Outcome("rigging damaged", changes, (("roll", roll), ("rigging_lost", lost)))


@register
class HardTurn(Resolver):
    id = "high-seas.hard-turn"
    title = "Hard turn check"
    summary = (
        "A hard turn gives +2 handling; each turn roll d6: on a 6 the rudder is damaged, "
        "-1 Hull Hit Point and -1 handling until repaired in port."
    )
    tables = (HARD_TURN,)
    params = (
        Param("handling", "the ship's handling (0: not given)", default=0, minimum=-10, maximum=40),
    )
    examples = ({}, {"handling": "4"})

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        bonus = int(ctx.param(HARD_TURN, "handling_bonus"))
        handling = inputs["handling"]
        if handling:
            ctx.explain(f"Hard turn: handling {handling} + {bonus} = {handling + bonus}.")
        else:
            ctx.explain(f"Hard turn: handling +{bonus}.")
        risk = int(ctx.param(HARD_TURN, "risk_on"))
        roll = ctx.roll(str(ctx.param(HARD_TURN, "risk_die")), f"Hard turn risk, {risk} damages")
        if roll < risk:
            ctx.explain(f"{roll}: the rudder holds.")
            return Outcome("rudder holds", (), (("roll", roll),))
        hull = int(ctx.param(HARD_TURN, "hull_damage"))
        penalty = int(ctx.param(HARD_TURN, "handling_penalty"))
        until = ctx.param(HARD_TURN, "penalty_until")
        ctx.explain(f"{roll}: the rudder is damaged.")
        changes = (f"Ship: -{hull} Hull Hit Point", f"Ship: {penalty} handling until {until}")
        return Outcome("rudder damaged", changes, (("roll", roll),))


# ---------------------------------------------------------------- cannon fire

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
            return Outcome("gun bursts", burst, tuple(details))
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
        else:
            changes = (f"Target: {self.loss(target_name, damage)}",)
        return Outcome("hit, double damage" if double else "hit", changes, tuple(details))

    @staticmethod
    def loss(target: str, amount: int) -> str:
        if target == "crew":
            return f"{amount} men on deck killed"
        return f"-{amount} {target.capitalize()} Hit Points"


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
                "crew killed", (f"Ship: {damage} men on deck killed",), (("killed", damage),)
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
                return Outcome("hull: sinks", tuple(changes), tuple(details))
            handling = int(ctx.param(DAMAGE, "crippled_circle_handling"))
            ctx.explain("Rigging at zero: the ship is crippled.")
            changes.append(f"Ship: crippled, may only circle, at {handling} handling")
            return Outcome("rigging: crippled", tuple(changes), tuple(details))
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
            return Outcome(f"{target}: over half", tuple(changes), tuple(details))
        return Outcome(f"{target}: damaged", tuple(changes), tuple(details))


# ---------------------------------------------------------------- grappling and boarding


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
        for side, trained, untrained in (("boarders", bt, bu + bb), ("defenders", dt, du + db)):
            start = sum(inputs[f"{side}_{k}"] for k in ("trained", "untrained", "below"))
            lost = start - trained - untrained
            sides.append(
                f"{side.capitalize()}: {lost} killed; {trained} trained, {untrained} untrained left"
            )
        details = (
            ("turns", turn - 1),
            ("boarders_left", bt + bu + bb),
            ("defenders_left", dt + du + db),
        )
        return Outcome(result, tuple(sides), details)
