"""High-seas maneuvers: the captains' choices, and the wet sails and hard turn checks."""

from __future__ import annotations

import re
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
    BRILLIANT,
    CAPTAINS,
    DAMAGE,
    GUNS_BEAR,
    HARD_TURN,
    RANGE,
    TACTICS,
    WET_SAILS,
)
from generator.text import fold

NO_GUNS = "no guns bear"
BROADSIDE = "broadside"


def dice_of(formula: str) -> str:
    """Return the dice of a printed roll such as ``2d6+speed`` (``2d6``)."""
    return formula.split("+", 1)[0].strip()


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
        return Outcome(
            "rigging damaged",
            changes,
            (("roll", roll), ("rigging_lost", lost)),
            (
                Effect("ship", "rigging_hp", lost),
                Effect("ship", "state", state="half_speed_next_turn"),
            ),
        )


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
        return Outcome(
            "rudder damaged",
            changes,
            (("roll", roll),),
            (Effect("ship", "hull_hp", hull), Effect("ship", "state", state="rudder_damaged")),
        )
