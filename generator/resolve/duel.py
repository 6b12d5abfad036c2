"""Resolvers for the duel ruleset (seed 000, first part): attacks, parries, brawling, wounds, sea.

Every number comes from data/duel.yaml: the house weapons and armour tables, the parry and
situational modifier lists, and the ``params`` of the rules tables. Rolls are d20
roll-under; rounding is always up (duel.rounding). Where the seed is silent the resolver
says which reading it takes, in its summary and in the explanation the GM reads.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
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
from generator.text import fold

ATTACK = "duel.attack"
WEAPONS = "duel.weapons"
ARMOUR = "duel.armour"
PARRY = "duel.parry"
PARRY_MODS = "duel.parry-modifiers"
BLOCKING = "duel.blocking"
RESISTANCE = "duel.resistance-rolls"
BRAWLING = "duel.brawling"
STUN = "duel.stun"
WOUND_EFFECTS = "duel.wound-effects"
WOUND_TOTALS = "duel.wound-totals"
HIT_LOCATION = "duel.hit-location"
COUNTER = "duel.counterattacks"
SEA = "duel.fighting-at-sea"
RIGGING = "duel.rigging"
RIGGING_MODS = "duel.rigging-modifiers"
SWIMMING = "duel.swimming"
SWIMMING_MODS = "duel.swimming-modifiers"
DROWNING = "duel.drowning"
DROWNING_MODS = "duel.drowning-modifiers"
ENTANGLE = "duel.entangle"
DISARM = "duel.disarm"
SHEET_RULES = "duel.sheet-rules"
ACTION_TYPES = "duel.action-types"
ROUNDING = "duel.rounding"

NO_STYLE = "none"
STYLES = (NO_STYLE, "french", "italian")
STYLE_MODIFIER = {"french": "french-style", "italian": "italian-style"}


def ceil_div(value: int, divisor: int) -> int:
    """Divide rounding up, as the duel rules always do (duel.rounding)."""
    return -(-value // divisor)


def d20(ctx: Context) -> str:
    """The attack die of the rules (``d20``)."""
    return str(ctx.param(ATTACK, "attack_die"))


def weapon_cell(rules: Rules, weapon: str) -> Mapping[str, Any]:
    """Return the house weapons row of `weapon` without explaining it (for input checks)."""
    cell: Mapping[str, Any] = lookup(rules, WEAPONS, {"weapon": weapon}).cell
    return cell


def weapon_stats(ctx: Context, weapon: str) -> Mapping[str, Any]:
    """Look up `weapon` in the house weapons table (explained)."""
    cell: Mapping[str, Any] = ctx.lookup(WEAPONS, weapon=weapon).cell
    return cell


def serious_at(target: int) -> int:
    """A hit made by half or less is serious: the d20 shows ceil(target / 2) or less."""
    return ceil_div(target, 2)


def stun_change(ctx: Context, who: str, stuns_before: int) -> str:
    """Return the sheet line for a stun, counting earlier stuns this turn (duel.stun)."""
    no_actions_at = int(ctx.param(STUN, "no_actions_at_stuns"))
    next_turn = int(ctx.param(STUN, "next_turn_actions"))
    if stuns_before + 1 >= no_actions_at:
        ctx.explain(f"Stunned {stuns_before + 1} times this turn: no actions may be taken.")
        return f"{who}: stunned again, no actions may be taken (duel.stun)"
    ctx.explain(
        "Stunned: loses all remaining actions this turn and may take only "
        f"{next_turn} normal action next turn."
    )
    return f"{who}: stunned, loses remaining actions this turn, {next_turn} normal action next turn"


def resistance(
    ctx: Context, first: str, first_target: int, second: str, second_target: int
) -> bool:
    """Run a resistance roll; return whether the first character prevails.

    The first character rolls d20 under `first_target`; the margin made is taken from the
    second character's target and the margin missed is added to it (duel.resistance-rolls).
    The second character resists by rolling their modified target or less.
    """
    die = d20(ctx)
    first_roll = ctx.roll(die, f"{first}: resistance roll, {first_target} or less")
    margin = first_target - first_roll
    if margin >= 0:
        ctx.explain(f"{first} made the roll by {margin}.")
    else:
        ctx.explain(f"{first} missed the roll by {-margin}.")
    adjusted = second_target
    if margin:
        adjusted += ctx.add(f"{first}'s margin ({second}'s roll)", -margin, RESISTANCE)
    second_roll = ctx.roll(die, f"{second}: resistance roll, {adjusted} or less")
    if second_roll <= adjusted:
        ctx.explain(f"{second} makes the roll ({second_roll} ≤ {adjusted}) and resists.")
        return False
    ctx.explain(f"{second} misses the roll ({second_roll} > {adjusted}): {first} prevails.")
    return True


# ---------------------------------------------------------------- situational modifiers

SITUATION = (
    Param(
        "defense",
        "the defender's defense modifier to this attack (the seed prints no numbers for "
        "duck, sidestep or dodge: the GM's figure)",
        default=0,
        minimum=-20,
        maximum=20,
    ),
    Param("counterattack", "the attack is a counterattack (+1)", kind="bool", default=False),
    Param(
        "landlubber",
        "attacker not used to fighting at sea, fighting shipboard (-1 to hit)",
        kind="bool",
        default=False,
    ),
    Param(
        "rigging",
        "fighting in the rigging during a storm or combat (-1)",
        kind="bool",
        default=False,
    ),
    Param(
        "in_water",
        "fighting in the water (-5, except daggers and unarmed attacks or blocks)",
        kind="bool",
        default=False,
    ),
    Param(
        "situational",
        "other bonuses or penalties the GM allows (high ground, off-hand ...)",
        default=0,
        minimum=-20,
        maximum=20,
    ),
)


def situational(ctx: Context, inputs: Inputs, *, water_exempt: bool, what: str) -> int:
    """Return the defense and situational modifiers of an attack, each recorded."""
    total = 0
    if inputs["defense"]:
        total += ctx.add("defense", inputs["defense"], ATTACK)
    if inputs.get("counterattack"):
        total += ctx.add("counterattack", int(ctx.param(COUNTER, "counterattack_to_hit")), COUNTER)
    if inputs["landlubber"]:
        total += ctx.add("not used to fighting at sea", int(ctx.param(SEA, "to_hit")), SEA)
    if inputs["rigging"]:
        total += ctx.modifier(RIGGING_MODS, "storm-or-combat")
    if inputs["in_water"]:
        if water_exempt:
            ctx.explain(f"In the water: no -5 for {what} (daggers and unarmed are exempt).")
        else:
            total += ctx.modifier(SWIMMING_MODS, "in-water")
    if inputs["situational"]:
        total += ctx.add("other situational modifier", inputs["situational"], SHEET_RULES)
    return total


def attack_roll(ctx: Context, target: int, who: str) -> tuple[int, str]:
    """Roll the d20 attack; return the roll and ``serious``, ``light`` or ``miss``."""
    roll = ctx.roll(d20(ctx), f"{who}: attack, {target} or less hits")
    half = serious_at(target)
    if roll <= half:
        ctx.explain(f"{roll} is {half} or less (half of {target}, rounded up): a serious wound.")
        return roll, "serious"
    if roll <= target:
        ctx.explain(f"{roll} is {target} or less: a light wound.")
        return roll, "light"
    ctx.explain(f"{roll} is more than {target}: a miss.")
    return roll, "miss"


# ---------------------------------------------------------------- attack


ROLL = "roll"


@register
class Attack(Resolver):
    id = "duel.attack"
    title = "Attack with a weapon"
    summary = (
        "d20 under expertise + weapon bonus, modified by defense and situation; a roll of "
        "half the target or less (rounded up) is a serious wound (+1d6). Damage from the "
        "house weapons table, -1 per two points of Strength below MinSTR, +1 above AdvSTR, "
        "less armour on the hit location; never below 0 (reading)."
    )
    tables = (
        ATTACK,
        WEAPONS,
        ARMOUR,
        HIT_LOCATION,
        WOUND_EFFECTS,
        COUNTER,
        SEA,
        RIGGING_MODS,
        SWIMMING_MODS,
        SHEET_RULES,
    )
    params = (
        Param("expertise", "attacker's expertise with the weapon", minimum=0, maximum=30),
        Choice("weapon", "attacker's weapon", choices_from=(WEAPONS, "weapon")),
        Param("strength", "attacker's Strength (against MinSTR and AdvSTR)", minimum=1, maximum=30),
        *SITUATION,
        Choice(
            "armour",
            "defender's armour (house table)",
            choices_from=(ARMOUR, "armour"),
            default="None",
        ),
        Choice(
            "location",
            "hit location: roll on the house table duel.hit-location, or the location hit",
            choices_from=(WOUND_EFFECTS, "location"),
            extra=(ROLL,),
            default=ROLL,
        ),
    )
    examples = (
        {"expertise": "12", "weapon": "rapier", "strength": "11"},
        {
            "expertise": "10",
            "weapon": "two-handed sword",
            "strength": "11",
            "armour": "cuirass",
            "location": "chest",
            "defense": "-2",
            "landlubber": "yes",
        },
        {"expertise": "9", "weapon": "wheellock", "strength": "9", "counterattack": "yes"},
    )

    def check(self, inputs: Inputs, rules: Rules) -> None:
        cell = weapon_cell(rules, inputs["weapon"])
        if cell["damage"] == "—":
            raise ResolveInputError(
                f"{self.id}: weapon={inputs['weapon']} does no damage; use duel.punch, "
                "duel.haymaker, duel.kick, duel.grapple or duel.tackle for unarmed attacks "
                "and duel.entangle for a cloak"
            )

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        weapon = inputs["weapon"]
        stats = weapon_stats(ctx, weapon)
        target = ctx.add("expertise", inputs["expertise"], ATTACK)
        if stats["weapon_bonus"]:
            target += ctx.add(f"weapon bonus ({weapon})", int(stats["weapon_bonus"]), WEAPONS)
        if stats.get("wheellock"):
            target += ctx.add("wheellock", int(ctx.param(ATTACK, "wheellock_to_hit")), ATTACK)
        target += situational(ctx, inputs, water_exempt=bool(stats.get("dagger")), what=weapon)
        roll, kind = attack_roll(ctx, target, "Attacker")
        details: list[tuple[str, Any]] = [("roll", roll), ("target", target)]
        if kind == "miss":
            return Outcome("miss", (), tuple(details))

        expression = str(stats["damage"])
        if kind == "serious":
            expression += "+" + str(ctx.param(ATTACK, "serious_extra"))
        damage = ctx.roll(expression, f"{kind.capitalize()} wound damage ({weapon})")
        damage += strength_adjustment(ctx, inputs["strength"], stats)

        location, side = hit_location(ctx, inputs["location"])
        damage -= armour_reduction(ctx, inputs["armour"], location)
        if damage < 0:
            ctx.explain("Damage cannot fall below 0 (reading).")
            damage = 0
        where = f"{side} {location.lower()}" if side else location
        ctx.explain(
            f"{damage} damage to the {where}. Apply it with duel.wounds "
            f"(location={location} damage={damage})."
        )
        details += [("damage", damage), ("location", location)]
        if side:
            details.append(("side", side))
        result = "serious wound" if kind == "serious" else "light wound"
        change = f"Defender: -{damage} hit points ({where}, {result})"
        return Outcome(result, (change,), tuple(details))


def strength_adjustment(ctx: Context, strength: int, stats: Mapping[str, Any]) -> int:
    """Return the MinSTR penalty or AdvSTR bonus to damage, recorded (duel.attack)."""
    min_str, adv_str = int(stats["min_str"]), int(stats["adv_str"])
    if strength < min_str:
        per = int(ctx.param(ATTACK, "min_str_per_points"))
        steps = ceil_div(min_str - strength, per)
        value = int(ctx.param(ATTACK, "min_str_damage")) * steps
        return ctx.add(f"Strength {strength} below MinSTR {min_str}", value, ATTACK)
    if strength > adv_str:
        value = int(ctx.param(ATTACK, "adv_str_damage"))
        return ctx.add(f"Strength {strength} above AdvSTR {adv_str}", value, ATTACK)
    return 0


def hit_location(ctx: Context, raw: str) -> tuple[str, str | None]:
    """Return the wound location and side: rolled on the house table, or as given."""
    if raw != ROLL:
        return raw, None
    dice = ctx.table(HIT_LOCATION).axes[0].dice or "1d20"
    roll = ctx.roll(dice, ctx.table(HIT_LOCATION).marked_title)
    cell = ctx.lookup(HIT_LOCATION, roll=roll).cell
    side = cell.get("side")
    return str(cell["location"]), (str(side) if side else None)


def armour_reduction(ctx: Context, armour: str, location: str) -> int:
    """Return the armour's damage reduction if it covers `location`, recorded."""
    cell = ctx.lookup(ARMOUR, armour=armour).cell
    covered = [part.strip() for part in str(cell["locations"]).split(",")]
    if not any(fold(part) == fold(location) for part in covered):
        return 0
    reduction = int(cell["damage_reduction"])
    if reduction:
        ctx.add(f"{armour} on the {location.lower()}", -reduction, ARMOUR)
    return reduction


# ---------------------------------------------------------------- parry and block


def breakage_test(ctx: Context, chance: int, what: str) -> bool:
    """Roll the breakage test after a successful parry or improvised block (house reading).

    The seed names the test but gives no numbers; `chance` is in twentieths: the item
    breaks when a d20 shows more than 20 - chance.
    """
    if chance <= 0:
        ctx.explain("No breakage test (breakage=0).")
        return False
    breaks_on = 21 - chance
    roll = ctx.roll(d20(ctx), f"Breakage test ({what}), breaks on {breaks_on} or more")
    if roll >= breaks_on:
        ctx.explain(f"{roll}: the {what} breaks.")
        return True
    ctx.explain(f"{roll}: the {what} holds.")
    return False


BREAKAGE = Param(
    "breakage",
    "breakage test after success, chance in 20 that the item breaks (the seed gives no "
    "numbers; house reading: 1 = breaks on a natural 20; 0 = no test)",
    default=1,
    minimum=0,
    maximum=20,
)


@register
class Parry(Resolver):
    id = "duel.parry"
    title = "Parry"
    summary = (
        "d20 under the defender's chance to hit (expertise + weapon bonus) modified by every "
        "listed parry modifier; a successful parry then takes a breakage test (house "
        "reading: breakage=N in 20, default a natural 20 breaks the weapon)."
    )
    tables = (
        PARRY,
        PARRY_MODS,
        WEAPONS,
        ACTION_TYPES,
        ATTACK,
        SEA,
        RIGGING_MODS,
        SWIMMING_MODS,
        SHEET_RULES,
        ROUNDING,
    )
    params = (
        Param("expertise", "defender's expertise with the parrying weapon", minimum=0, maximum=30),
        Choice("weapon", "defender's parrying weapon", choices_from=(WEAPONS, "weapon")),
        Choice(
            "attacker_weapon",
            "the weapon the attack is made with",
            choices_from=(WEAPONS, "weapon"),
        ),
        Param("attacker_expertise", "attacker's expertise with that weapon", minimum=0, maximum=30),
        Param(
            "guessed",
            "the defender guessed the attack form on the sheet",
            kind="bool",
            default=False,
        ),
        Param(
            "style",
            "defender's fighting style, for a left-hand item",
            kind="choice",
            choices=STYLES,
            default=NO_STYLE,
        ),
        Choice(
            "left_hand",
            "item in the defender's left hand (the style bonuses' items)",
            extra=(NO_STYLE,),
            choices_by=(PARRY_MODS, tuple(STYLE_MODIFIER.values())),
            default=NO_STYLE,
        ),
        Param(
            "previous_parries", "parries already made this turn", default=0, minimum=0, maximum=10
        ),
        Param(
            "reaction",
            "free reaction parry (dueling weapons, parry defense not chosen: -6)",
            kind="bool",
            default=False,
        ),
        Param(
            "landlubber", "defender not used to fighting at sea (-1)", kind="bool", default=False
        ),
        Param(
            "rigging", "in the rigging during a storm or combat (-1)", kind="bool", default=False
        ),
        Param("in_water", "in the water (-5, except daggers)", kind="bool", default=False),
        Param("situational", "other modifiers the GM allows", default=0, minimum=-20, maximum=20),
        BREAKAGE,
    )
    examples = (
        {
            "expertise": "12",
            "weapon": "rapier",
            "attacker_weapon": "sabre",
            "attacker_expertise": "12",
        },
        {
            "expertise": "11",
            "weapon": "rapier",
            "attacker_weapon": "foil",
            "attacker_expertise": "15",
            "guessed": "yes",
            "style": "french",
            "left_hand": "main-gauche",
            "previous_parries": "1",
        },
        {
            "expertise": "13",
            "weapon": "sabre",
            "attacker_weapon": "two-handed sword",
            "attacker_expertise": "10",
            "reaction": "yes",
            "breakage": "3",
        },
    )

    def check(self, inputs: Inputs, rules: Rules) -> None:
        for name, role in (("weapon", "parry with"), ("attacker_weapon", "be parried")):
            if not weapon_cell(rules, inputs[name])["can_parry"]:
                allowed = ", ".join(rules.table(PARRY).params["parry_weapons"])
                raise ResolveInputError(
                    f"{self.id}: {name}={inputs[name]}: cannot {role} (only {allowed})"
                )
        if inputs["reaction"] and weapon_cell(rules, inputs["weapon"])["type"] != "dueling":
            raise ResolveInputError(
                f"{self.id}: reaction=yes: only dueling weapons get a free reaction parry, "
                f"not {inputs['weapon']}"
            )

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        weapon, attacker_weapon = inputs["weapon"], inputs["attacker_weapon"]
        mine = weapon_stats(ctx, weapon)
        theirs = weapon_stats(ctx, attacker_weapon)
        target = ctx.add("expertise (chance to hit)", inputs["expertise"], PARRY)
        if mine["weapon_bonus"]:
            target += ctx.add(f"weapon bonus ({weapon})", int(mine["weapon_bonus"]), WEAPONS)
        if inputs["guessed"] or theirs.get("only_strikes"):
            why = "attack form guessed" if inputs["guessed"] else f"{attacker_weapon} only strikes"
            ctx.explain(f"+3 once: {why}.")
            target += ctx.modifier(PARRY_MODS, "guessed-or-two-handed")
        if int(theirs["weapon_bonus"]) > 0:
            target += ctx.add(
                f"attacker's weapon bonus ({attacker_weapon})",
                -int(theirs["weapon_bonus"]),
                f"{PARRY_MODS}:attacker-weapon-bonus",
            )
        if mine["parry_bonus"]:
            target += ctx.add(
                f"weapon parry bonus ({weapon})",
                int(mine["parry_bonus"]),
                f"{PARRY_MODS}:weapon-parry-bonus",
            )
        gap = inputs["attacker_expertise"] - inputs["expertise"]
        if gap > 0:
            ctx.explain(f"Expertise {gap} below the attacker's: -1 per two points, rounded up.")
            target += ctx.modifier(PARRY_MODS, "lower-expertise", times=ceil_div(gap, 2))
        target += self._left_hand(ctx, inputs)
        if inputs["previous_parries"]:
            target += ctx.modifier(PARRY_MODS, "previous-parries", times=inputs["previous_parries"])
        if inputs["reaction"]:
            target += ctx.modifier(PARRY_MODS, "reaction-parry")
        if inputs["landlubber"]:
            target += ctx.add("not used to fighting at sea", int(ctx.param(SEA, "to_hit")), SEA)
        if inputs["rigging"]:
            target += ctx.modifier(RIGGING_MODS, "storm-or-combat")
        if inputs["in_water"]:
            if mine.get("dagger"):
                ctx.explain("In the water: no -5 for a dagger.")
            else:
                target += ctx.modifier(SWIMMING_MODS, "in-water")
        if inputs["situational"]:
            target += ctx.add("other situational modifier", inputs["situational"], SHEET_RULES)

        roll = ctx.roll(d20(ctx), f"Parry, {target} or less")
        details: tuple[tuple[str, Any], ...] = (("roll", roll), ("target", target))
        if roll > target:
            ctx.explain(f"{roll} is more than {target}: the parry fails; the attack lands.")
            return Outcome("not parried", (), details)
        ctx.explain(
            f"{roll} is {target} or less: parried. Successful parries take a breakage test."
        )
        if breakage_test(ctx, inputs["breakage"], weapon):
            return Outcome("parried, weapon breaks", (f"Defender: {weapon} broken",), details)
        return Outcome("parried", (), details)

    def _left_hand(self, ctx: Context, inputs: Inputs) -> int:
        item, style = inputs["left_hand"], inputs["style"]
        if item == NO_STYLE:
            return 0
        if style == NO_STYLE:
            ctx.explain(f"{item} in the left hand gives nothing without French or Italian Style.")
            return 0
        modifier_id = STYLE_MODIFIER[style]
        by = ctx.table(PARRY_MODS).modifier(modifier_id).by
        if item not in by:
            ctx.explain(f"{style.capitalize()} Style gives no bonus for {item} in the left hand.")
            return 0
        return ctx.modifier(PARRY_MODS, modifier_id, choice=item)


BLOCK_KINDS = ("brawling", "improvised")
BLOCK_ROLLS = ("strength", "dexterity")


@register
class Block(Resolver):
    id = "duel.block"
    title = "Block (brawling or improvised)"
    summary = (
        "Brawling block (against unarmed attacks): a Strength or Dexterity resistance roll "
        "chosen by the attacker, who rolls first (reading); the higher-expertise brawler +1 "
        "per two points. Improvised block: d20 under Dexterity / 3 (rounded up), less the "
        "attacker's weapon bonus, plus the GM's expertise comparison; may break like a parry."
    )
    tables = (BLOCKING, RESISTANCE, WEAPONS, ROUNDING, SHEET_RULES)
    params = (
        Param(
            "kind", "brawling (against unarmed) or improvised", kind="choice", choices=BLOCK_KINDS
        ),
        Param(
            "roll",
            "brawling: the attribute the attacker chooses",
            kind="choice",
            choices=BLOCK_ROLLS,
            default="strength",
        ),
        Param(
            "attacker_attribute",
            "brawling: attacker's Strength or Dexterity",
            default=0,
            minimum=0,
            maximum=30,
        ),
        Param(
            "defender_attribute",
            "brawling: blocker's Strength or Dexterity",
            default=0,
            minimum=0,
            maximum=30,
        ),
        Param(
            "attacker_expertise",
            "brawling: attacker's brawling expertise",
            default=0,
            minimum=0,
            maximum=30,
        ),
        Param(
            "defender_expertise",
            "brawling: blocker's brawling expertise",
            default=0,
            minimum=0,
            maximum=30,
        ),
        Param("dexterity", "improvised: blocker's Dexterity", default=0, minimum=0, maximum=30),
        Choice(
            "attacker_weapon",
            "improvised: the attacker's weapon",
            choices_from=(WEAPONS, "weapon"),
            default="Fists",
        ),
        Param(
            "expertise_modifier",
            "improvised: the GM's modifier from the attacker's weapon expertise against the "
            "blocker's brawling expertise (the seed gives no rate)",
            default=0,
            minimum=-20,
            maximum=20,
        ),
        Param("situational", "other modifiers the GM allows", default=0, minimum=-20, maximum=20),
        BREAKAGE,
    )
    examples = (
        {
            "kind": "brawling",
            "roll": "strength",
            "attacker_attribute": "14",
            "defender_attribute": "11",
            "attacker_expertise": "9",
            "defender_expertise": "12",
        },
        {"kind": "improvised", "dexterity": "14", "attacker_weapon": "cutlass"},
        {
            "kind": "improvised",
            "dexterity": "17",
            "attacker_weapon": "rapier",
            "expertise_modifier": "1",
            "breakage": "4",
        },
    )

    def check(self, inputs: Inputs, rules: Rules) -> None:
        if inputs["kind"] == "brawling":
            for name in ("attacker_attribute", "defender_attribute"):
                if not inputs[name]:
                    raise ResolveInputError(
                        f"{self.id}: kind=brawling needs {name}=VALUE (the "
                        f"{inputs['roll']} of each character)"
                    )
        else:
            if not inputs["dexterity"]:
                raise ResolveInputError(f"{self.id}: kind=improvised needs dexterity=VALUE")
            if weapon_cell(rules, inputs["attacker_weapon"])["type"] == "unarmed":
                raise ResolveInputError(
                    f"{self.id}: kind=improvised is against a weapon; against unarmed "
                    "attacks use kind=brawling"
                )

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        if inputs["kind"] == "brawling":
            return self._brawling(ctx, inputs)
        return self._improvised(ctx, inputs)

    def _brawling(self, ctx: Context, inputs: Inputs) -> Outcome:
        attribute = inputs["roll"]
        ctx.explain(
            f"Brawling block: {attribute} against {attribute}, chosen by the attacker. "
            "Reading: the attacker rolls first; the blocker resists with the margin applied."
        )
        attacker = ctx.add(f"attacker's {attribute}", inputs["attacker_attribute"], BLOCKING)
        defender = inputs["defender_attribute"]
        gap = inputs["attacker_expertise"] - inputs["defender_expertise"]
        if gap:
            steps = ceil_div(abs(gap), int(ctx.param(BLOCKING, "brawling_expertise_per_points")))
            bonus = int(ctx.param(BLOCKING, "brawling_expertise_bonus")) * steps
            who = "attacker" if gap > 0 else "blocker"
            label = f"higher-expertise brawler ({who}, {abs(gap)} points higher)"
            if gap > 0:
                attacker += ctx.add(label, bonus, BLOCKING)
            else:
                defender += ctx.add(label, bonus, BLOCKING)
        if inputs["situational"]:
            defender += ctx.add("other situational modifier", inputs["situational"], SHEET_RULES)
        if resistance(ctx, "Attacker", attacker, "Blocker", defender):
            return Outcome("not blocked", (), (("attacker_target", attacker),))
        return Outcome("blocked", (), (("attacker_target", attacker),))

    def _improvised(self, ctx: Context, inputs: Inputs) -> Outcome:
        divisor = int(ctx.param(BLOCKING, "improvised_block_dex_divisor"))
        base = ceil_div(inputs["dexterity"], divisor)
        target = ctx.add(f"Dexterity {inputs['dexterity']} / {divisor}, rounded up", base, BLOCKING)
        weapon = inputs["attacker_weapon"]
        stats = weapon_stats(ctx, weapon)
        if stats["weapon_bonus"]:
            ctx.explain("Reading: the attacker's weapon bonus counts against the blocker.")
            target += ctx.add(
                f"attacker's weapon bonus ({weapon})", -int(stats["weapon_bonus"]), BLOCKING
            )
        if inputs["expertise_modifier"]:
            target += ctx.add(
                "weapon expertise against brawling expertise",
                inputs["expertise_modifier"],
                BLOCKING,
            )
        if inputs["situational"]:
            target += ctx.add("other situational modifier", inputs["situational"], SHEET_RULES)
        roll = ctx.roll(d20(ctx), f"Improvised block, {target} or less")
        details: tuple[tuple[str, Any], ...] = (("roll", roll), ("target", target))
        if roll > target:
            ctx.explain(f"{roll} is more than {target}: not blocked.")
            return Outcome("not blocked", (), details)
        ctx.explain(
            f"{roll} is {target} or less: blocked. Improvised blocks may break like parries."
        )
        if breakage_test(ctx, inputs["breakage"], "improvised block"):
            return Outcome(
                "blocked, item breaks", ("Blocker: the improvised item breaks",), details
            )
        return Outcome("blocked", (), details)


# ---------------------------------------------------------------- brawling

BRAWL_ATTACK = (
    Param("expertise", "attacker's brawling expertise", minimum=0, maximum=30),
    Param("strength", "attacker's Strength", minimum=1, maximum=30),
)


def brawl_attack(ctx: Context, inputs: Inputs, name: str) -> tuple[int, str, int]:
    """Roll an unarmed attack; return roll, ``serious``/``light``/``miss`` and target."""
    ctx.lookup(BRAWLING, attack=name)
    target = ctx.add("brawling expertise", inputs["expertise"], ATTACK)
    target += situational(ctx, inputs, water_exempt=True, what="unarmed attacks")
    roll, kind = attack_roll(ctx, target, f"Attacker ({name.lower()})")
    return roll, kind, target


def strong_bonus(ctx: Context, cell: Mapping[str, Any], strength: int) -> int:
    """The +1 damage for Strength 16+ (duel.brawling), recorded."""
    if strength >= int(cell["str_bonus_at"]):
        label = f"Strength {strength} ({cell['str_bonus_at']}+)"
        return ctx.add(label, int(cell["str_16_damage"]), BRAWLING)
    return 0


# the armour the seed names against punches: "helmets/cuirasses reduce damage by 1 each"
PUNCH_ARMOUR = ("helmet", "cuirass")


class _Blow(Resolver):
    """Punch and haymaker: hit, damage on a serious hit, and a Strength vs. Endurance stun."""

    attack_name = "Punch"
    tables = (BRAWLING, ARMOUR, STUN, RESISTANCE, ATTACK, COUNTER, SEA, RIGGING_MODS, SHEET_RULES)
    params = (
        *BRAWL_ATTACK,
        Param("endurance", "defender's Endurance (resists the stun)", minimum=1, maximum=30),
        Choice(
            "armour",
            "defender's armour (helmet, cuirass: -1 each; both: punches ineffective)",
            choices_from=(ARMOUR, "armour"),
            default="None",
        ),
        Param(
            "stuns_this_turn",
            "times the defender was already stunned this turn",
            default=0,
            minimum=0,
            maximum=5,
        ),
        *SITUATION,
    )

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        roll, kind, target = brawl_attack(ctx, inputs, self.attack_name)
        details: list[tuple[str, Any]] = [("roll", roll), ("target", target)]
        if kind == "miss":
            return Outcome("miss", (), tuple(details))
        punch = ctx.lookup(BRAWLING, attack="Punch").cell
        armour = ctx.lookup(ARMOUR, armour=inputs["armour"]).cell
        pieces = [piece for piece in PUNCH_ARMOUR if armour.get(piece)]
        if len(pieces) == len(PUNCH_ARMOUR) and punch["helmet_and_cuirass"] == "ineffective":
            ctx.explain(f"{inputs['armour']}: punches are ineffective (no stun, no damage).")
            return Outcome("no effect (armour)", (), tuple(details))
        damage = 0
        if kind == "serious":
            damage += ctx.add("serious punch", int(punch["serious_damage"]), BRAWLING)
            damage += strong_bonus(ctx, punch, inputs["strength"])
        else:
            ctx.explain("A light punch does no damage (reading: damage only if serious).")
        damage += self.extra(ctx)
        if damage and pieces:
            # a reduction: -1 damage for each of helmet and cuirass (rules-notes.md)
            for piece in pieces:
                damage += ctx.add(
                    f"{piece} against punches", int(punch[f"{piece}_damage"]), BRAWLING
                )
            damage = max(damage, 0)
        changes: list[str] = []
        if damage:
            changes.append(f"Defender: -{damage} hit points")
        details.append(("damage", damage))
        ctx.explain("Stun: Strength against Endurance; the attacker rolls first (reading).")
        stunned = resistance(ctx, "Attacker", inputs["strength"], "Defender", inputs["endurance"])
        hit = f"{kind} hit"
        if stunned:
            changes.append(stun_change(ctx, "Defender", inputs["stuns_this_turn"]))
            return Outcome(f"{hit}, stunned", tuple(changes), tuple(details))
        return Outcome(hit, tuple(changes), tuple(details))

    def extra(self, ctx: Context) -> int:
        return 0


@register
class Punch(_Blow):
    id = "duel.punch"
    title = "Punch"
    summary = (
        "Brawling attack (d20 under brawling expertise); on a hit Strength vs. Endurance "
        "stuns; a serious hit does 1 damage, +1 for Strength 16+ (reading: a light punch "
        "does none); helmet or cuirass -1 each, both make punches ineffective."
    )
    examples = (
        {"expertise": "11", "strength": "12", "endurance": "10"},
        {"expertise": "13", "strength": "16", "endurance": "12", "armour": "helmet"},
        {"expertise": "12", "strength": "14", "endurance": "9", "armour": "helmet and cuirass"},
    )


@register
class Haymaker(_Blow):
    id = "duel.haymaker"
    title = "Haymaker"
    attack_name = "Haymaker"
    summary = (
        "As a punch (a long action) but +1 damage on any hit (reading: a light haymaker "
        "does 1); Strength vs. Endurance stuns."
    )
    examples = (
        {"expertise": "11", "strength": "12", "endurance": "10"},
        {"expertise": "12", "strength": "17", "endurance": "13", "armour": "cuirass"},
    )

    def extra(self, ctx: Context) -> int:
        cell = ctx.lookup(BRAWLING, attack="Haymaker").cell
        return ctx.add("haymaker", int(cell["extra_damage"]), BRAWLING)


@register
class Kick(Resolver):
    id = "duel.kick"
    title = "Kick"
    summary = (
        "Brawling attack; 2 damage on a serious hit, +1 for Strength 16+ (none on a light "
        "hit); may roll to stun as for a punch (Strength vs. Endurance). Armour does not "
        "reduce kicks (the seed says so only for punches)."
    )
    tables = (BRAWLING, STUN, RESISTANCE, ATTACK, COUNTER, SEA, RIGGING_MODS, SHEET_RULES)
    params = (
        *BRAWL_ATTACK,
        Param("stun", "roll to stun as for a punch", kind="bool", default=True),
        Param(
            "endurance",
            "defender's Endurance (for the stun roll)",
            default=10,
            minimum=1,
            maximum=30,
        ),
        Param(
            "stuns_this_turn",
            "times the defender was already stunned this turn",
            default=0,
            minimum=0,
            maximum=5,
        ),
        *SITUATION,
    )
    examples = (
        {"expertise": "10", "strength": "13", "endurance": "11"},
        {"expertise": "12", "strength": "16", "stun": "no"},
    )

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        roll, kind, target = brawl_attack(ctx, inputs, "Kick")
        details: list[tuple[str, Any]] = [("roll", roll), ("target", target)]
        if kind == "miss":
            return Outcome("miss", (), tuple(details))
        cell = ctx.lookup(BRAWLING, attack="Kick").cell
        damage = 0
        changes: list[str] = []
        if kind == "serious":
            damage += ctx.add("serious kick", int(cell["serious_damage"]), BRAWLING)
            damage += strong_bonus(ctx, cell, inputs["strength"])
            changes.append(f"Defender: -{damage} hit points")
        else:
            ctx.explain("A light kick does no damage.")
        details.append(("damage", damage))
        hit = f"{kind} hit"
        if not inputs["stun"]:
            return Outcome(hit, tuple(changes), tuple(details))
        ctx.explain("Roll to stun as for a punch: Strength against Endurance, attacker first.")
        if resistance(ctx, "Attacker", inputs["strength"], "Defender", inputs["endurance"]):
            changes.append(stun_change(ctx, "Defender", inputs["stuns_this_turn"]))
            return Outcome(f"{hit}, stunned", tuple(changes), tuple(details))
        return Outcome(hit, tuple(changes), tuple(details))


GRAPPLE_PARAMS = (
    *BRAWL_ATTACK,
    Param("defender_strength", "defender's Strength", minimum=1, maximum=30),
    Param("damage", "also do the optional 1 point of damage", kind="bool", default=False),
    *SITUATION,
)


def grapple_hold(ctx: Context, inputs: Inputs, kind: str, changes: list[str]) -> tuple[bool, int]:
    """Strength vs. Strength after a grappling hit; return (held, turns) and note changes."""
    cell = ctx.lookup(BRAWLING, attack="Grapple").cell
    ctx.explain("Grapple: Strength against Strength; the attacker rolls first (reading).")
    if not resistance(ctx, "Attacker", inputs["strength"], "Defender", inputs["defender_strength"]):
        return False, 0
    turns = int(cell[f"immobilized_turns_{kind}"])
    changes.append(f"Defender: immobilized {turns} turn{'s' if turns > 1 else ''}")
    if inputs["damage"]:
        changes.append(f"Defender: -{int(cell['optional_damage'])} hit points")
    return True, turns


@register
class Grapple(Resolver):
    id = "duel.grapple"
    title = "Grapple"
    summary = (
        "Brawling attack (a long action); on a hit Strength vs. Strength, attacker first "
        "(reading): the defender is immobilized one turn (light) or two (serious), plus an "
        "optional 1 point of damage."
    )
    tables = (BRAWLING, RESISTANCE, ATTACK, COUNTER, SEA, RIGGING_MODS, SHEET_RULES)
    params = GRAPPLE_PARAMS
    examples = (
        {"expertise": "11", "strength": "13", "defender_strength": "12"},
        {"expertise": "14", "strength": "16", "defender_strength": "10", "damage": "yes"},
    )

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        roll, kind, target = brawl_attack(ctx, inputs, "Grapple")
        details = (("roll", roll), ("target", target))
        if kind == "miss":
            return Outcome("miss", (), details)
        changes: list[str] = []
        held, turns = grapple_hold(ctx, inputs, kind, changes)
        if not held:
            return Outcome(f"{kind} hit, breaks free", (), details)
        return Outcome(f"held {turns} turn{'s' if turns > 1 else ''}", tuple(changes), details)


@register
class Tackle(Resolver):
    id = "duel.tackle"
    title = "Tackle"
    summary = (
        "Brawling attack (a long action, +3m); on a hit attacker and defender fall, and if "
        "the attacker wishes the grapple follows (Strength vs. Strength). Reading: a missed "
        "tackle leaves both standing."
    )
    tables = (BRAWLING, RESISTANCE, ATTACK, COUNTER, SEA, RIGGING_MODS, SHEET_RULES)
    params = (
        *GRAPPLE_PARAMS,
        Param("grapple", "go on to grapple, if desired", kind="bool", default=True),
    )
    examples = (
        {"expertise": "11", "strength": "13", "defender_strength": "12"},
        {"expertise": "12", "strength": "12", "defender_strength": "12", "grapple": "no"},
    )

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        roll, kind, target = brawl_attack(ctx, inputs, "Tackle")
        details = (("roll", roll), ("target", target))
        if kind == "miss":
            ctx.explain("Missed: nobody falls (reading).")
            return Outcome("miss", (), details)
        changes = ["Attacker and defender fall"]
        if not inputs["grapple"]:
            return Outcome("both fall", tuple(changes), details)
        held, turns = grapple_hold(ctx, inputs, kind, changes)
        if not held:
            return Outcome("both fall", tuple(changes), details)
        plural = "s" if turns > 1 else ""
        return Outcome(f"both fall, held {turns} turn{plural}", tuple(changes), details)


# ---------------------------------------------------------------- wounds


@register
class Wounds(Resolver):
    id = "duel.wounds"
    title = "Wound effects"
    summary = (
        "Effects of one blow by location: head 2+ / chest 4+ stuns; head and chest/flank "
        "damage (counted together, reading) at half the hit points (rounded up) is 1d6 hours "
        "unconscious, more is death; arm or leg 3+ in one blow: Endurance roll or useless "
        "1d6 days, automatic at half the hit points; total damage equal to the hit points is "
        "1d6 hours unconscious, more is death."
    )
    tables = (WOUND_EFFECTS, WOUND_TOTALS, STUN, ROUNDING)
    params = (
        Choice(
            "location",
            "where the blow landed",
            choices_from=(WOUND_EFFECTS, "location"),
        ),
        Param("damage", "damage of this blow", minimum=0, maximum=100),
        Param("hit_points", "the character's hit points", minimum=1, maximum=100),
        Param(
            "total_before",
            "damage taken before this blow, all locations",
            default=0,
            minimum=0,
            maximum=200,
        ),
        Param(
            "here_before",
            "damage taken before on this location (head and chest/flank together; an arm or "
            "leg: that limb)",
            default=0,
            minimum=0,
            maximum=200,
        ),
        Param("endurance", "Endurance, for the arm or leg roll", default=0, minimum=0, maximum=30),
        Param(
            "stuns_this_turn", "times already stunned this turn", default=0, minimum=0, maximum=5
        ),
    )
    examples = (
        {"location": "head", "damage": "3", "hit_points": "14"},
        {
            "location": "chest",
            "damage": "5",
            "hit_points": "14",
            "here_before": "3",
            "total_before": "4",
        },
        {"location": "arm", "damage": "4", "hit_points": "14", "endurance": "11"},
        {
            "location": "leg",
            "damage": "3",
            "hit_points": "12",
            "here_before": "4",
            "total_before": "4",
        },
    )

    def check(self, inputs: Inputs, rules: Rules) -> None:
        cell = lookup(rules, WOUND_EFFECTS, {"location": inputs["location"]}).cell
        if "useless_roll_at" in cell and inputs["damage"] >= int(cell["useless_roll_at"]):
            half = ceil_div(inputs["hit_points"], 2)
            if inputs["here_before"] + inputs["damage"] < half and not inputs["endurance"]:
                raise ResolveInputError(
                    f"{self.id}: an {inputs['location'].lower()} taking "
                    f"{cell['useless_roll_at']}+ points makes an Endurance roll: "
                    "give endurance=VALUE"
                )
        if inputs["here_before"] > inputs["total_before"]:
            raise ResolveInputError(
                f"{self.id}: here_before={inputs['here_before']} cannot exceed "
                f"total_before={inputs['total_before']}"
            )

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        location, damage, hp = inputs["location"], inputs["damage"], inputs["hit_points"]
        cell = ctx.lookup(WOUND_EFFECTS, location=location).cell
        half = ceil_div(hp, 2)
        here = inputs["here_before"] + damage
        total = inputs["total_before"] + damage
        changes: list[str] = [f"{location}: -{damage} hit points (total {total} of {hp})"]
        dead = unconscious = useless = stunned = False

        if "stun_at" in cell:
            if damage >= int(cell["stun_at"]):
                ctx.explain(f"{damage} points to the {location.lower()} from one attack: stunned.")
                stunned = True
            if here > half:
                ctx.explain(
                    f"Head and chest/flank damage {here} exceeds half the hit points "
                    f"({half}): death."
                )
                dead = True
            elif here == half:
                ctx.explain(f"Head and chest/flank damage {here} equals half the hit points.")
                unconscious = True
        else:
            useless = self._limb(ctx, inputs, cell, here, half, changes)

        if total > hp:
            ctx.explain(f"Total damage {total} exceeds the hit points ({hp}): death.")
            dead = True
        elif total == hp:
            ctx.explain(f"Total damage {total} equals the hit points ({hp}).")
            unconscious = True

        if dead:
            changes.append("Character dies")
            return Outcome("dead", tuple(changes), (("total", total), ("location_total", here)))
        details: list[tuple[str, Any]] = [("total", total), ("location_total", here)]
        if unconscious:
            hours = ctx.roll(str(ctx.param(WOUND_TOTALS, "unconscious_hours")), "Hours unconscious")
            changes.append(f"Character: unconscious {hours} hours")
            details.append(("hours", hours))
        if stunned:
            changes.append(stun_change(ctx, "Character", inputs["stuns_this_turn"]))
        if unconscious:
            result = "unconscious"
        elif useless:
            result = f"{location.lower()} useless"
        elif stunned:
            result = "stunned"
        else:
            result = "no further effect"
            ctx.explain("No further effect beyond the hit points lost.")
        return Outcome(result, tuple(changes), tuple(details))

    def _limb(
        self,
        ctx: Context,
        inputs: Inputs,
        cell: Mapping[str, Any],
        here: int,
        half: int,
        changes: list[str],
    ) -> bool:
        location = inputs["location"]
        if here >= half:
            ctx.explain(
                f"{location} damage {here} is half the hit points ({half}) or more: useless."
            )
        elif inputs["damage"] >= int(cell["useless_roll_at"]):
            endurance = inputs["endurance"]
            roll = ctx.roll(
                d20(ctx), f"Endurance roll for the {location.lower()}, {endurance} or less"
            )
            if roll <= endurance:
                ctx.explain(f"{roll}: the {location.lower()} stays usable.")
                return False
            ctx.explain(f"{roll}: failed, the {location.lower()} is useless.")
        else:
            return False
        days = ctx.roll(str(cell["useless_days"]), f"Days the {location.lower()} is useless")
        changes.append(f"{location} useless {days} days: {cell['useless_effect']}")
        return True


# ---------------------------------------------------------------- counter actions


@register
class Entangle(Resolver):
    id = "duel.entangle"
    title = "Entangle with a cloak"
    summary = (
        "Counter action with a cloak in the left hand: roll to hit as normal with the right-hand "
        "weapon; on a hit the opponent rolls d20 under Dexterity - 3 or is entangled, losing "
        "all actions next turn."
    )
    tables = (ENTANGLE, ATTACK, WEAPONS, SEA, RIGGING_MODS, SWIMMING_MODS, SHEET_RULES)
    params = (
        Param("expertise", "expertise with the right-hand weapon", minimum=0, maximum=30),
        Choice("weapon", "the right-hand weapon", choices_from=(WEAPONS, "weapon")),
        Param("opponent_dexterity", "the opponent's Dexterity", minimum=1, maximum=30),
        *(p for p in SITUATION if p.name != "counterattack"),
    )
    examples = (
        {"expertise": "12", "weapon": "rapier", "opponent_dexterity": "12"},
        {"expertise": "10", "weapon": "cutlass", "opponent_dexterity": "16", "defense": "-2"},
    )

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        ctx.explain("Entangle needs a cloak in the left hand; it replaces the counterattack.")
        stats = weapon_stats(ctx, inputs["weapon"])
        target = ctx.add("expertise", inputs["expertise"], ATTACK)
        if stats["weapon_bonus"]:
            target += ctx.add(
                f"weapon bonus ({inputs['weapon']})", int(stats["weapon_bonus"]), WEAPONS
            )
        target += situational(
            ctx, inputs, water_exempt=bool(stats.get("dagger")), what=inputs["weapon"]
        )
        roll = ctx.roll(d20(ctx), f"Entangle: to hit, {target} or less")
        if roll > target:
            ctx.explain(f"{roll} is more than {target}: a miss.")
            return Outcome("miss", (), (("roll", roll), ("target", target)))
        dex = inputs["opponent_dexterity"]
        escape = dex + ctx.add("entangle", int(ctx.param(ENTANGLE, "dex_roll_modifier")), ENTANGLE)
        save = ctx.roll(d20(ctx), f"Opponent: Dexterity roll, {escape} or less")
        details = (("roll", roll), ("target", target), ("dex_roll", save))
        if save <= escape:
            ctx.explain(f"{save} is {escape} or less: the opponent slips the cloak.")
            return Outcome("not entangled", (), details)
        turns = int(ctx.param(ENTANGLE, "entangled_turns"))
        ctx.explain(f"{save} is more than {escape}: entangled.")
        return Outcome(
            "entangled", (f"Opponent: entangled, loses all actions for {turns} turn",), details
        )


@register
class Disarm(Resolver):
    id = "duel.disarm"
    title = "Disarm"
    summary = (
        "Dueling weapon against dueling weapon, after a successful parry or as the counter "
        "action; the disarming weapon needs equal or greater strength (its MinSTR, house). "
        "Resistance roll on weapon expertise, the disarmer first: if it prevails the opponent "
        "drops the weapon."
    )
    tables = (DISARM, RESISTANCE, WEAPONS)
    params = (
        Param("expertise", "disarmer's weapon expertise", minimum=0, maximum=30),
        Choice("weapon", "disarmer's weapon", choices_from=(WEAPONS, "weapon")),
        Param("opponent_expertise", "opponent's weapon expertise", minimum=0, maximum=30),
        Choice("opponent_weapon", "opponent's weapon", choices_from=(WEAPONS, "weapon")),
    )
    examples = (
        {
            "expertise": "13",
            "weapon": "sabre",
            "opponent_expertise": "11",
            "opponent_weapon": "rapier",
        },
        {
            "expertise": "10",
            "weapon": "longsword",
            "opponent_expertise": "14",
            "opponent_weapon": "foil",
        },
    )

    def check(self, inputs: Inputs, rules: Rules) -> None:
        mine, theirs = (weapon_cell(rules, inputs[n]) for n in ("weapon", "opponent_weapon"))
        for name, cell in (("weapon", mine), ("opponent_weapon", theirs)):
            if cell["type"] != "dueling":
                raise ResolveInputError(
                    f"{self.id}: {name}={inputs[name]} is not a dueling weapon "
                    "(disarm is dueling weapon against dueling weapon)"
                )
        if int(mine["min_str"]) < int(theirs["min_str"]):
            raise ResolveInputError(
                f"{self.id}: {inputs['weapon']} (strength {mine['min_str']}) is weaker than "
                f"{inputs['opponent_weapon']} ({theirs['min_str']}): the disarming weapon needs "
                "equal or greater strength"
            )

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        mine = weapon_stats(ctx, inputs["weapon"])
        theirs = weapon_stats(ctx, inputs["opponent_weapon"])
        ctx.explain(
            f"{inputs['weapon']} (strength {mine['min_str']}) against {inputs['opponent_weapon']} "
            f"(strength {theirs['min_str']}): allowed."
        )
        if resistance(
            ctx, "Disarmer", inputs["expertise"], "Opponent", inputs["opponent_expertise"]
        ):
            return Outcome("disarmed", (f"Opponent: drops the {inputs['opponent_weapon']}",))
        return Outcome("keeps weapon")


# ---------------------------------------------------------------- at sea


@register
class SeaLegs(Resolver):
    id = "duel.sea-legs"
    title = "Sea legs"
    summary = (
        "After three successful attacks shipboard, a character not used to fighting at sea "
        "rolls d20 under Wit; success ends the -1 to hit and half speed."
    )
    tables = (SEA,)
    params = (
        Param("wit", "the character's Wit", minimum=1, maximum=30),
        Param(
            "successful_attacks",
            "successful attacks made shipboard so far",
            default=3,
            minimum=0,
            maximum=100,
        ),
    )
    examples = ({"wit": "12"}, {"wit": "8", "successful_attacks": "5"})

    def check(self, inputs: Inputs, rules: Rules) -> None:
        needed = int(rules.table(SEA).params["sea_legs_after_hits"])
        if inputs["successful_attacks"] < needed:
            raise ResolveInputError(
                f"{self.id}: successful_attacks={inputs['successful_attacks']}: the roll comes "
                f"after {needed} successful attacks"
            )

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        wit = inputs["wit"]
        roll = ctx.roll(d20(ctx), f"{ctx.param(SEA, 'sea_legs_roll')} roll, {wit} or less")
        if roll <= wit:
            ctx.explain(f"{roll}: the character has found sea legs.")
            return Outcome(
                "sea legs", ("Character: sea legs (no more -1 to hit or half speed shipboard)",)
            )
        ctx.explain(f"{roll}: not yet; roll again after more successful attacks (reading).")
        return Outcome("no sea legs yet")


@register
class Rigging(Resolver):
    id = "duel.rigging"
    title = "Movement in the rigging"
    summary = (
        "With Seamanship: 2 m a turn, +1 for Dexterity 15+, +1 acrobatics, +1 mastery, double "
        "for a long action. In a storm or combat: -1 on attacks and parries, and a d20 roll "
        "under Dexterity (+3 seamanship, +3 acrobatics) or fall."
    )
    tables = (RIGGING, RIGGING_MODS)
    params = (
        Param("dexterity", "the character's Dexterity", minimum=1, maximum=30),
        Param("seamanship", "has the Seamanship skill", kind="bool", default=True),
        Param("mastery", "has mastery of Seamanship", kind="bool", default=False),
        Param("acrobatics", "has the Acrobatics skill", kind="bool", default=False),
        Param("long_action", "moves as a long action (double)", kind="bool", default=False),
        Param("storm_or_combat", "during a storm or combat", kind="bool", default=False),
    )
    examples = (
        {"dexterity": "15", "acrobatics": "yes"},
        {"dexterity": "11", "storm_or_combat": "yes"},
        {"dexterity": "9", "seamanship": "no", "storm_or_combat": "yes", "acrobatics": "yes"},
    )

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        dex = inputs["dexterity"]
        meters = 0
        if inputs["seamanship"]:
            meters = ctx.add("base movement", int(ctx.param(RIGGING, "base_m")), RIGGING)
            if dex >= int(ctx.param(RIGGING, "dex_bonus_at")):
                meters += ctx.modifier(RIGGING_MODS, "move-dex")
            if inputs["acrobatics"]:
                meters += ctx.modifier(RIGGING_MODS, "move-acrobatics")
            if inputs["mastery"]:
                meters += ctx.modifier(RIGGING_MODS, "move-mastery")
            if inputs["long_action"]:
                meters *= int(ctx.param(RIGGING, "long_action_factor"))
                ctx.explain("Long action: movement doubled.")
            ctx.explain(f"Moves {meters} m in the rigging this turn.")
        else:
            ctx.explain("Movement in rigging requires Seamanship: no movement.")
        moved = f"climbs {meters} m" if meters else "cannot move"
        if not inputs["storm_or_combat"]:
            return Outcome(moved, (), (("meters", meters),))
        ctx.explain("Storm or combat: -1 on all attacks and parries in the rigging.")
        target = ctx.add("Dexterity", dex, RIGGING)
        if inputs["seamanship"]:
            target += ctx.modifier(RIGGING_MODS, "fall-seamanship")
        if inputs["acrobatics"]:
            target += ctx.modifier(RIGGING_MODS, "fall-acrobatics")
        roll = ctx.roll(d20(ctx), f"Dexterity roll to avoid falling, {target} or less")
        changes = ("Character: -1 on attacks and parries in the rigging",)
        if roll > target:
            ctx.explain(f"{roll} is more than {target}: the character falls.")
            return Outcome("falls", ("Character: falls from the rigging",), (("meters", 0),))
        ctx.explain(f"{roll} is {target} or less: holds on.")
        return Outcome(moved, changes, (("meters", meters),))


@register
class Swimming(Resolver):
    id = "duel.swimming"
    title = "Swimming"
    summary = (
        "1 m a turn, +2 for seamanship, +1 for Dexterity 15+; underwater for Endurance combat "
        "turns; attacks and parries in water at -5 except daggers and unarmed. No roll: "
        "drowning is duel.drowning."
    )
    tables = (SWIMMING, SWIMMING_MODS, WEAPONS)
    params = (
        Param("dexterity", "the character's Dexterity", minimum=1, maximum=30),
        Param("endurance", "the character's Endurance", minimum=1, maximum=30),
        Param("seamanship", "has the Seamanship skill", kind="bool", default=False),
        Choice(
            "weapon",
            "weapon in hand (for the -5)",
            choices_from=(WEAPONS, "weapon"),
            default="Fists",
        ),
    )
    examples = (
        {"dexterity": "12", "endurance": "11"},
        {"dexterity": "15", "endurance": "14", "seamanship": "yes", "weapon": "cutlass"},
    )

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        meters = ctx.add("swimming", int(ctx.param(SWIMMING, "base_m")), SWIMMING)
        if inputs["seamanship"]:
            meters += ctx.modifier(SWIMMING_MODS, "speed-seamanship")
        if inputs["dexterity"] >= int(ctx.param(SWIMMING, "dex_bonus_at")):
            meters += ctx.modifier(SWIMMING_MODS, "speed-dex")
        turns = inputs["endurance"]
        ctx.explain(f"Swims {meters} m a turn; may stay underwater {turns} combat turns.")
        weapon = inputs["weapon"]
        stats = weapon_stats(ctx, weapon)
        changes = [f"Character: swims {meters} m a turn, underwater up to {turns} turns"]
        if stats.get("dagger") or stats["type"] == "unarmed":
            ctx.explain(f"{weapon}: no penalty in the water.")
        else:
            penalty = ctx.table(SWIMMING_MODS).modifier("in-water").value
            ctx.explain(f"{weapon}: attacks and parries at {penalty} in the water.")
            changes.append(f"Character: {penalty} on attacks and parries with the {weapon.lower()}")
        if not inputs["seamanship"]:
            ctx.explain("Without seamanship the character may drown: see duel.drowning.")
        return Outcome(
            f"swims {meters} m", tuple(changes), (("meters", meters), ("underwater_turns", turns))
        )


@register
class Drowning(SteppedResolver):
    id = "duel.drowning"
    title = "Drowning"
    summary = (
        "At risk (no seamanship, rough water or fighting): d20 under Dexterity -1 per weight "
        "point worn, or go under. Then each turn d20 under Strength -1 per weight point, -1 "
        "per failed attempt, +2 seamanship to regain the surface (held under: the holder's "
        "Strength roll first, reading); drowned after Endurance turns under (reading)."
    )
    tables = (DROWNING, DROWNING_MODS, SWIMMING, RESISTANCE)
    params = (
        Param("dexterity", "the character's Dexterity", minimum=1, maximum=30),
        Param("strength", "the character's Strength", minimum=1, maximum=30),
        Param("endurance", "the character's Endurance (turns underwater)", minimum=1, maximum=30),
        Param(
            "weight",
            "weight points worn (house tables duel.weapons, duel.armour)",
            default=0,
            minimum=0,
            maximum=20,
        ),
        Param("seamanship", "has the Seamanship skill", kind="bool", default=False),
        Param("rough_water", "in rough water", kind="bool", default=False),
        Param("fighting", "fighting in the water", kind="bool", default=False),
        Param("underwater", "already under: skip the Dexterity roll", kind="bool", default=False),
        Param(
            "failed_before", "strength attempts already failed", default=0, minimum=0, maximum=30
        ),
        Param(
            "held_by",
            "Strength of someone holding the character under (0: nobody)",
            default=0,
            minimum=0,
            maximum=30,
        ),
    )
    examples = (
        {"dexterity": "12", "strength": "11", "endurance": "10", "weight": "2"},
        {
            "dexterity": "10",
            "strength": "13",
            "endurance": "6",
            "weight": "3",
            "rough_water": "yes",
            "seamanship": "yes",
        },
        {
            "dexterity": "10",
            "strength": "12",
            "endurance": "4",
            "underwater": "yes",
            "held_by": "14",
            "seamanship": "yes",
        },
    )

    def start(self, rules: Rules, inputs: Inputs) -> Hashable:
        if inputs["underwater"]:
            return ("under", 0, inputs["failed_before"])
        return ("surface", 0, inputs["failed_before"])

    def step(self, ctx: Context, inputs: Inputs, state: Any) -> Any:
        phase, turns, failed = state
        if phase == "surface":
            return self._surface(ctx, inputs)
        weight = inputs["weight"]
        target = ctx.add("Strength", inputs["strength"], DROWNING)
        if weight:
            target += ctx.modifier(DROWNING_MODS, "str-weight", times=weight)
        if failed:
            target += ctx.modifier(DROWNING_MODS, "str-failed-attempts", times=failed)
        if inputs["seamanship"]:
            target += ctx.modifier(DROWNING_MODS, "str-seamanship")
        turn = turns + 1
        if inputs["held_by"]:
            ctx.explain(f"Turn {turn} under, held: Strength against Strength, the holder first.")
            up = not resistance(ctx, "Holder", inputs["held_by"], "Swimmer", target)
        else:
            roll = ctx.roll(d20(ctx), f"Turn {turn} under: Strength roll, {target} or less")
            up = roll <= target
        if up:
            ctx.explain(f"Regains the surface after {turn} turn{'s' if turn > 1 else ''} under.")
            return Outcome("regains the surface", (), (("turns_under", turn),))
        if turn >= inputs["endurance"]:
            ctx.explain(
                f"Failed; {turn} turns under is the Endurance limit: "
                "the character drowns (reading)."
            )
            return Outcome("drowns", ("Character: drowned",), (("turns_under", turn),))
        ctx.explain(f"Failed: still under ({turn} of {inputs['endurance']} turns).")
        return ("under", turn, failed + 1)

    def _surface(self, ctx: Context, inputs: Inputs) -> Any:
        risks = [
            why
            for why, flag in (
                ("no seamanship", not inputs["seamanship"]),
                ("rough water", inputs["rough_water"]),
                ("fighting", inputs["fighting"]),
            )
            if flag
        ]
        if not risks:
            ctx.explain("With seamanship, in calm water and not fighting: no risk of drowning.")
            return Outcome("no risk")
        ctx.explain(f"May drown ({', '.join(risks)}): Dexterity roll.")
        target = ctx.add("Dexterity", inputs["dexterity"], DROWNING)
        if inputs["weight"]:
            target += ctx.modifier(DROWNING_MODS, "dex-weight", times=inputs["weight"])
        roll = ctx.roll(d20(ctx), f"Dexterity roll, {target} or less")
        if roll <= target:
            ctx.explain(f"{roll}: stays afloat.")
            return Outcome("stays afloat")
        ctx.explain(f"{roll}: goes under.")
        return ("under", 0, inputs["failed_before"])
