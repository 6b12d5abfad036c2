"""Resolvers for the impulse ruleset (seed 001): fire combat, movement points, hull bonus."""

from __future__ import annotations

from generator.dice import plain_dice
from generator.loading import Rules
from generator.resolve import (
    Context,
    Effect,
    Inputs,
    Outcome,
    Param,
    ResolveInputError,
    Resolver,
    register,
)

DAMAGE = "impulse.damage-effects"
DAMAGE_MODS = "impulse.damage-modifiers"
FIRE = "impulse.fire-checks"
MORALE = "impulse.morale-effects"
MORALE_MODS = "impulse.morale-modifiers"
PROCESS = "impulse.combat-process"
MOVEMENT = "impulse.movement-points"
HULL = "impulse.hull-type-bonus"
HULL_MODS = "impulse.hull-type-modifiers"

MORALE_CHOICES = ("other", "handy", "unfit")


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def _max_hits(rules: Rules) -> int:
    """Return the largest hits-achieved column of the Damage Effects Table."""
    axis = next(a for a in rules.table(DAMAGE).axes if a.name == "hits")
    return max(int(label) for label in axis.labels)


def _dice_count(notation: str) -> int:
    """Return N of a plain ``Nd6`` notation (the damage roll)."""
    dice = plain_dice(notation)
    if dice.sides != 6:
        raise ValueError(f"expected a roll of d6 such as 3d6, not '{notation}'")
    return dice.count


@register
class FireCombat(Resolver):
    id = "impulse.fire-combat"
    title = "Fire combat"
    summary = (
        "Hits achieved (given, or rolled from guns and a to-hit number the seed leaves open), "
        "then three dice on the Damage Effects Table, the third die on the Morale Effects "
        "Table, and fire checks from the header (roll 11+) or footer."
    )
    tables = (DAMAGE, DAMAGE_MODS, FIRE, MORALE, MORALE_MODS, PROCESS)
    examples = (
        {"hits": "3"},
        {"hits": "7", "wind": "into-the-wind", "aim": "high", "morale": "handy"},
        {"hits": "12", "aim": "low", "morale": "unfit", "defender_morale": "handy"},
        {"hits": "0"},
        {"guns": "8", "to_hit": "5", "defender_dice": "2", "defender_to_hit": "6"},
        {"guns": "4", "carronades": "2", "range_mp": "3", "to_hit": "4"},
    )
    params = (
        Param(
            "hits",
            "hits achieved after the defender's cancels (leave out to roll guns= instead)",
            minimum=0,
            maximum=12,
            default=None,
        ),
        Param(
            "guns", "guns fired: one die each (instead of hits=)", minimum=0, maximum=60, default=0
        ),
        Param(
            "carronades",
            "of the guns fired, how many are carronades",
            minimum=0,
            maximum=60,
            default=0,
        ),
        Param(
            "range_mp",
            "range in movement points (carronades double at 3 or fewer)",
            minimum=0,
            maximum=99,
            default=None,
        ),
        Param(
            "to_hit",
            "face a gun die needs to hit (the seed gives none)",
            minimum=1,
            maximum=6,
            default=None,
        ),
        Param(
            "defender_dice",
            "dice the defender rolls for smoke and distance",
            minimum=0,
            maximum=30,
            default=0,
        ),
        Param(
            "defender_to_hit",
            "face a defender die needs to cancel a hit",
            minimum=1,
            maximum=6,
            default=None,
        ),
        Param(
            "wind",
            "firing with the wind (to leeward) or into it (to windward)",
            kind="choice",
            choices=("none", "with-the-wind", "into-the-wind"),
            default="none",
        ),
        Param(
            "aim",
            "firing high (at rigging) or low (at hull)",
            kind="choice",
            choices=("low", "high"),
            default="low",
        ),
        Param(
            "morale",
            "the firing crew's Morale (only Handy and Unfit change the roll)",
            kind="choice",
            choices=MORALE_CHOICES,
            default="other",
        ),
        Param(
            "defender_morale",
            "the defending crew's Morale (Morale Effects Table)",
            kind="choice",
            choices=MORALE_CHOICES,
            default="other",
        ),
    )

    def check(self, inputs: Inputs, rules: Rules) -> None:
        given_hits = inputs["hits"] is not None
        if given_hits == bool(inputs["guns"]):
            raise ResolveInputError(
                f"{self.id}: give either hits=N (hits achieved) or guns=N with to_hit=FACE"
            )
        if given_hits:
            for name in ("carronades", "defender_dice"):
                if inputs[name]:
                    raise ResolveInputError(
                        f"{self.id}: {name}= only counts when the guns are rolled (guns=N), "
                        "not with hits="
                    )
            return
        if inputs["to_hit"] is None:
            raise ResolveInputError(
                f"{self.id}: guns={inputs['guns']} needs to_hit=FACE (the seed gives no "
                "number a gun die needs)"
            )
        if inputs["carronades"] > inputs["guns"]:
            raise ResolveInputError(
                f"{self.id}: carronades={inputs['carronades']} is more than "
                f"guns={inputs['guns']} fired"
            )
        if inputs["carronades"] and inputs["range_mp"] is None:
            raise ResolveInputError(
                f"{self.id}: carronades need range_mp=N (they double at a short range)"
            )
        if inputs["defender_dice"] and inputs["defender_to_hit"] is None:
            raise ResolveInputError(
                f"{self.id}: defender_dice={inputs['defender_dice']} needs defender_to_hit=FACE"
            )

    def _hits_achieved(self, ctx: Context, inputs: Inputs) -> int:
        if inputs["hits"] is not None:
            hits: int = inputs["hits"]
            ctx.explain(f"Hits achieved (given): {hits}.")
            return hits
        per_gun = ctx.param(PROCESS, "attack_dice_per_gun")
        dice = inputs["guns"] * per_gun
        ctx.explain(
            f"{_plural(inputs['guns'], 'gun')} fired: {dice} {'die' if dice == 1 else 'dice'}."
        )
        carronades = inputs["carronades"]
        if carronades:
            close = ctx.param(PROCESS, "carronade_max_range_mp")
            if inputs["range_mp"] <= close:
                factor = ctx.param(PROCESS, "carronade_multiplier")
                extra = carronades * per_gun * (factor - 1)
                dice += ctx.add(
                    f"Carronades doubled at {close} or fewer movement points", extra, PROCESS
                )
            else:
                ctx.explain(
                    f"Range {inputs['range_mp']} MP is over {close}: carronades are not doubled."
                )
        expression = f"{dice}d6>={inputs['to_hit']}"
        reason = f"Attacker's {dice} dice, each {inputs['to_hit']}+ hits"
        if inputs["defender_dice"]:
            expression += f"-{inputs['defender_dice']}d6>={inputs['defender_to_hit']}"
            reason += (
                f", less the defender's {inputs['defender_dice']} dice "
                f"(each {inputs['defender_to_hit']}+ cancels a hit)"
            )
        net = max(ctx.roll(expression, reason), 0)
        most = _max_hits(ctx.rules)
        if net > most:
            ctx.explain(
                f"{net} hits achieved is beyond the table's last column; read as {most} "
                "(decision: the seed's table stops there)."
            )
            net = most
        ctx.explain(f"Hits achieved: {net}.")
        return net

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        hits = self._hits_achieved(ctx, inputs)
        if hits == 0:
            ctx.explain("No hits achieved: no damage, morale or fire checks.")
            return Outcome("no hits", (), (("hits", 0),))

        count = _dice_count(ctx.param(PROCESS, "damage_dice"))
        pair = ctx.roll(f"{count - 1}d6", "Damage roll: the two dice of one colour")
        third = ctx.roll("1d6", "Damage roll: the third, differently coloured die")
        roll = pair + third
        if inputs["wind"] != "none":
            roll += ctx.modifier(DAMAGE_MODS, inputs["wind"])
        if inputs["morale"] != "other":
            roll += ctx.modifier(DAMAGE_MODS, f"firing-{inputs['aim']}-{inputs['morale']}")
        ctx.explain(f"Modified damage roll: {pair} + {third} and modifiers = {roll}.")
        damage = ctx.lookup(DAMAGE, roll=roll, hits=hits)
        parsed = damage.fields()

        third_modified = third
        if inputs["defender_morale"] != "other":
            third_modified += ctx.modifier(MORALE_MODS, f"defender-{inputs['defender_morale']}")
        morale_rolls = int(ctx.lookup(MORALE, roll=third_modified, hits=hits).cell)

        fire = ctx.lookup(FIRE, roll=roll, hits=hits)
        fire_checks = int(fire.cell)
        header = ctx.param(FIRE, "header_min_roll")
        where = "header, rigging" if roll >= header else "footer, hull"
        ctx.explain(
            f"Fire checks from the {where}: the roll {roll} is "
            + ("at least" if roll >= header else "below")
            + f" {header}."
        )

        changes = [
            f"Defender: {parsed['hull']} hull, {parsed['rigging']} rigging, "
            f"{parsed['crew']} crew hits ({damage.text})"
        ]
        if morale_rolls:
            spaces = ctx.param(PROCESS, "morale_fail_crew_status_spaces_left")
            changes.append(
                f"Defender: make {_plural(morale_rolls, 'Morale roll')}; if any fails, move "
                f"Crew Status {_plural(spaces, 'space')} to the left"
            )
        if fire_checks:
            # the defender's: the ship the hits struck (impulse.fire-checks' note)
            changes.append(f"Defender: make {_plural(fire_checks, 'fire check')} ({where})")
        result = (
            f"{damage.text}, {_plural(morale_rolls, 'morale roll')}, "
            f"{_plural(fire_checks, 'fire check')}"
        )
        details = (
            ("hits", hits),
            ("roll", roll),
            ("third_die", third_modified),
            ("hull", parsed["hull"]),
            ("rigging", parsed["rigging"]),
            ("crew", parsed["crew"]),
            ("morale_rolls", morale_rolls),
            ("fire_checks", fire_checks),
        )
        effects = tuple(
            Effect("target", key, int(parsed[key]))
            for key in ("hull", "rigging", "crew")
            if int(parsed[key])
        )
        return Outcome(result, tuple(changes), details, effects)


@register
class MovementPoints(Resolver):
    id = "impulse.movement-points"
    title = "Base movement points"
    summary = (
        "Cross the initiative player's letter with the non-initiative player's letter on the "
        "Base Movement Point Table: points for each player."
    )
    tables = (MOVEMENT,)
    examples = (
        {"initiative": "A", "non_initiative": "B"},
        {"initiative": "H", "non_initiative": "C"},
    )
    params = (
        Param(
            "initiative",
            "the initiative player's letter",
            kind="choice",
            choices_from=(MOVEMENT, "initiative"),
        ),
        Param(
            "non_initiative",
            "the non-initiative player's letter",
            kind="choice",
            choices_from=(MOVEMENT, "non_initiative"),
        ),
    )

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        cell = ctx.lookup(
            MOVEMENT, initiative=inputs["initiative"], non_initiative=inputs["non_initiative"]
        )
        points = cell.fields()
        mine, theirs = points["initiative"], points["non_initiative"]
        ctx.explain(f"Initiative player {mine} points, non-initiative player {theirs} points.")
        return Outcome(
            f"initiative {mine}, non-initiative {theirs}",
            (
                f"Initiative player: {_plural(mine, 'movement point')}",
                f"Non-initiative player: {_plural(theirs, 'movement point')}",
            ),
            (("initiative", mine), ("non_initiative", theirs)),
        )


@register
class HullTypeBonus(Resolver):
    id = "impulse.hull-type-bonus"
    title = "Hull type bonus"
    summary = "1d6 plus or minus crew quality on the Hull Type Bonus Table for the hull type."
    tables = (HULL, HULL_MODS)
    examples = (
        {"hull": "Fast"},
        {"hull": "Slow", "crew_quality": "-1"},
        {"hull": "Average", "crew_quality": "2"},
    )
    params = (
        Param(
            "hull",
            "hull type (row names read as Fast, Average, Slow)",
            kind="choice",
            choices_from=(HULL, "hull"),
            default="Average",
        ),
        Param(
            "crew_quality",
            "crew quality, added to the die (+ or -)",
            minimum=-6,
            maximum=6,
            default=0,
        ),
    )

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        axis = next(a for a in ctx.table(HULL).axes if a.name == "roll")
        roll = ctx.roll(axis.dice or "1d6", "Hull Type Bonus die")
        if inputs["crew_quality"]:
            modifier = ctx.table(HULL_MODS).modifier("crew-quality")
            roll += ctx.add(modifier.label, inputs["crew_quality"], f"{HULL_MODS}:crew-quality")
        cell = ctx.lookup(HULL, hull=inputs["hull"], roll=roll)
        bonus = int(cell.fields()["modifier"])
        return Outcome(
            f"bonus {bonus:+d}",
            (f"Hull type bonus {bonus:+d}",),
            (("roll", roll), ("bonus", bonus)),
        )
