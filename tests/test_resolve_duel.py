"""Duel resolvers, checked against the rules' own numbers (d20 roll-under, rounding up)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from generator.loading import Rules
from generator.resolve import ResolveInputError, get_resolver, parse_inputs
from generator.resolve.duel import weapon_cell
from generator.resolve.engine import Resolution
from tests.resolving import chances, resolve

F = Fraction


def sources(resolution: Resolution) -> dict[str, int]:
    return {a.source: a.value for a in resolution.applied}


def second_resists(first: int, second: int) -> Fraction:
    """Chance the second character wins a resistance roll, counted the long way round."""
    wins = 0
    for first_roll in range(1, 21):
        adjusted = second - (first - first_roll)
        wins += sum(1 for second_roll in range(1, 21) if second_roll <= adjusted)
    return F(wins, 400)


# ---------------------------------------------------------------- attack


def test_attack_hits_on_expertise_and_is_serious_on_half(rules: Rules) -> None:
    # a sabre has weapon bonus 0: expertise 12 hits on 12 or less, serious on 6 or less
    assert chances(rules, "duel.attack", expertise="12", weapon="sabre", strength="12") == {
        "serious wound": F(6, 20),
        "light wound": F(6, 20),
        "miss": F(8, 20),
    }
    # a rapier's +1 makes 13: serious on ceil(13 / 2) = 7 or less
    rapier = chances(rules, "duel.attack", expertise="12", weapon="rapier", strength="12")
    assert rapier["serious wound"] == F(7, 20)
    assert rapier["light wound"] == F(6, 20)


def test_attack_situational_modifiers_add_up(rules: Rules) -> None:
    # wheellock +1, counterattack +1, landlubber -1, rigging -1, defense -2: 12 - 2 = 10,
    # serious on 5 or less
    got = chances(
        rules,
        "duel.attack",
        expertise="12",
        weapon="wheellock",
        strength="10",
        counterattack="yes",
        landlubber="yes",
        rigging="yes",
        defense="-2",
    )
    assert got == {"serious wound": F(5, 20), "light wound": F(5, 20), "miss": F(10, 20)}
    # in the water a rapier is at -5 (13 - 5 = 8), a dagger is not (12)
    water = chances(
        rules, "duel.attack", expertise="12", weapon="rapier", strength="10", in_water="yes"
    )
    assert water["miss"] == F(12, 20)
    dagger = chances(
        rules, "duel.attack", expertise="12", weapon="dagger", strength="10", in_water="yes"
    )
    assert dagger["miss"] == F(8, 20)


def test_attack_records_modifiers_with_sources(rules: Rules) -> None:
    resolution = resolve(
        rules,
        "duel.attack",
        3,
        expertise="9",
        weapon="wheellock",
        strength="9",
        counterattack="yes",
        landlubber="yes",
        situational="2",
    )
    assert {
        "duel.counterattacks": 1,
        "duel.fighting-at-sea": -1,
        "duel.sheet-rules": 2,
    }.items() <= sources(resolution).items()
    labels = {a.label: a.source for a in resolution.applied}
    assert labels["wheellock"] == "duel.attack"
    assert resolution.rolls[0].reason.startswith("Attacker: attack, 12 or less")


@pytest.mark.parametrize(
    ("strength", "adjustment"),
    [("7", -2), ("8", -1), ("9", -1), ("10", 0), ("15", 0), ("16", 1)],
)
def test_attack_damage_min_and_adv_strength(rules: Rules, strength: str, adjustment: int) -> None:
    # sabre: MinSTR 10, AdvSTR 15; -1 per two points below (rounded up), +1 above
    for seed in range(12):
        resolution = resolve(
            rules,
            "duel.attack",
            seed,
            expertise="30",
            weapon="sabre",
            strength=strength,
            location="chest",
        )
        damage_roll = next(r for r in resolution.rolls if "damage" in r.reason)
        details = dict(resolution.outcome.details)
        assert details["damage"] == max(damage_roll.total + adjustment, 0)
        assert details["location"] == "Chest/Flank"
        serious = resolution.outcome.result == "serious wound"
        assert damage_roll.expression == ("1d6+1+1d6" if serious else "1d6+1")


def test_attack_armour_protects_only_its_locations(rules: Rules) -> None:
    for location, reduced in (("chest", True), ("head", False), ("leg", False)):
        resolution = resolve(
            rules,
            "duel.attack",
            5,
            expertise="30",
            weapon="cutlass",
            strength="12",
            armour="cuirass",
            location=location,
        )
        roll = next(r for r in resolution.rolls if "damage" in r.reason).total
        assert dict(resolution.outcome.details)["damage"] == roll - (1 if reduced else 0)
        assert ("duel.armour" in sources(resolution)) is reduced


def test_attack_rolls_hit_location_on_the_house_table(rules: Rules) -> None:
    seen = set()
    for seed in range(30):
        resolution = resolve(
            rules, "duel.attack", seed, expertise="30", weapon="foil", strength="9"
        )
        location_roll = next(r for r in resolution.rolls if r.reason.startswith("Hit location"))
        details = dict(resolution.outcome.details)
        expected = {1: "Head", 2: "Head"}.get(location_roll.total)
        if expected:
            assert details["location"] == expected
        seen.add(details["location"])
        assert resolution.outcome.changes[0].startswith("Defender: -")
    assert {"Head", "Chest/Flank", "Arm", "Leg"} <= seen


def test_attack_refuses_bad_input(rules: Rules) -> None:
    attack = get_resolver("duel.attack")
    with pytest.raises(ResolveInputError, match="missing expertise=VALUE"):
        parse_inputs(attack, rules, {"weapon": "rapier", "strength": "10"})
    with pytest.raises(ResolveInputError, match="unknown input 'skill'"):
        parse_inputs(attack, rules, {"skill": "3", "weapon": "rapier", "strength": "10"})
    with pytest.raises(ResolveInputError, match="expertise=31: at most 30"):
        parse_inputs(attack, rules, {"expertise": "31", "weapon": "rapier", "strength": "10"})
    with pytest.raises(ResolveInputError, match="weapon=spoon: not one of Dagger"):
        parse_inputs(attack, rules, {"expertise": "12", "weapon": "spoon", "strength": "10"})
    with pytest.raises(ResolveInputError, match=r"does no damage; use duel\.punch"):
        parse_inputs(attack, rules, {"expertise": "12", "weapon": "fists", "strength": "10"})
    with pytest.raises(ResolveInputError, match="location=foot: not one of roll, Head"):
        parse_inputs(
            attack,
            rules,
            {"expertise": "1", "weapon": "rapier", "strength": "9", "location": "foot"},
        )


# ---------------------------------------------------------------- parry


def test_parry_is_the_chance_to_hit_then_a_breakage_test(rules: Rules) -> None:
    got = chances(
        rules,
        "duel.parry",
        expertise="12",
        weapon="sabre",
        attacker_weapon="sabre",
        attacker_expertise="12",
    )
    # parried on 12 or less; the house breakage test breaks on a natural 20
    assert got == {
        "parried": F(12, 20) * F(19, 20),
        "parried, weapon breaks": F(12, 20) * F(1, 20),
        "not parried": F(8, 20),
    }


def test_parry_applies_every_listed_modifier(rules: Rules) -> None:
    raw = {
        "expertise": "11",
        "weapon": "foil",
        "attacker_weapon": "rapier",
        "attacker_expertise": "15",
        "guessed": "yes",
        "style": "french",
        "left_hand": "main-gauche",
        "previous_parries": "2",
        "breakage": "0",
    }
    # 11 + foil bonus 1 = 12; guessed +3, rapier bonus -1, foil parry +1, expertise 4 lower -2,
    # French main gauche +3, two earlier parries -2: 14
    assert chances(rules, "duel.parry", **raw) == {"parried": F(14, 20), "not parried": F(6, 20)}
    # the free reaction parry is at -6
    assert chances(rules, "duel.parry", **raw, reaction="yes")["parried"] == F(8, 20)
    resolution = resolve(rules, "duel.parry", 7, **raw)
    assert sources(resolution) == {
        "duel.parry": 11,
        "duel.weapons": 1,
        "duel.parry-modifiers:guessed-or-two-handed": 3,
        "duel.parry-modifiers:attacker-weapon-bonus": -1,
        "duel.parry-modifiers:weapon-parry-bonus": 1,
        "duel.parry-modifiers:lower-expertise": -2,
        "duel.parry-modifiers:french-style": 3,
        "duel.parry-modifiers:previous-parries": -2,
    }


def test_parry_style_bonuses_and_the_two_handed_sword(rules: Rules) -> None:
    base = {
        "expertise": "10",
        "weapon": "sabre",
        "attacker_weapon": "sabre",
        "attacker_expertise": "10",
        "breakage": "0",
    }
    assert chances(rules, "duel.parry", **base)["parried"] == F(10, 20)
    # Italian Style: +1 for a buckler, nothing for a cloak; French: +2 for a cloak
    assert chances(rules, "duel.parry", **base, style="italian", left_hand="buckler")[
        "parried"
    ] == F(11, 20)
    assert chances(rules, "duel.parry", **base, style="italian", left_hand="cloak")["parried"] == F(
        10, 20
    )
    assert chances(rules, "duel.parry", **base, style="french", left_hand="cloak")["parried"] == F(
        12, 20
    )
    # a two-handed sword only strikes: +3, and a guess does not add a second +3
    two_handed = {**base, "attacker_weapon": "two-handed sword"}
    assert chances(rules, "duel.parry", **two_handed)["parried"] == F(13, 20)
    assert chances(rules, "duel.parry", **two_handed, guessed="yes")["parried"] == F(13, 20)


def test_parry_refuses_weapons_the_seed_excludes(rules: Rules) -> None:
    parry = get_resolver("duel.parry")
    raw = {
        "expertise": "10",
        "weapon": "sabre",
        "attacker_weapon": "sabre",
        "attacker_expertise": "9",
    }
    with pytest.raises(ResolveInputError, match="weapon=Polearm: cannot parry with"):
        parse_inputs(parry, rules, {**raw, "weapon": "polearm"})
    with pytest.raises(ResolveInputError, match="attacker_weapon=Musket: cannot be parried"):
        parse_inputs(parry, rules, {**raw, "attacker_weapon": "musket"})
    with pytest.raises(ResolveInputError, match="only dueling weapons get a free reaction parry"):
        parse_inputs(parry, rules, {**raw, "weapon": "main gauche", "reaction": "yes"})
    with pytest.raises(ResolveInputError, match="left_hand=shield: not one of none, main-gauche"):
        parse_inputs(parry, rules, {**raw, "left_hand": "shield"})
    with pytest.raises(ResolveInputError, match="breakage=21: at most 20"):
        parse_inputs(parry, rules, {**raw, "breakage": "21"})


# ---------------------------------------------------------------- block


def test_improvised_block_rolls_under_a_third_of_dexterity(rules: Rules) -> None:
    # ceil(14 / 3) = 5
    assert chances(
        rules,
        "duel.block",
        kind="improvised",
        dexterity="14",
        attacker_weapon="cutlass",
        breakage="0",
    ) == {"blocked": F(5, 20), "not blocked": F(15, 20)}
    # a rapier's weapon bonus +1 counts against the blocker; the GM's expertise modifier adds
    assert chances(
        rules,
        "duel.block",
        kind="improvised",
        dexterity="14",
        attacker_weapon="rapier",
        breakage="0",
    )["blocked"] == F(4, 20)
    got = chances(
        rules,
        "duel.block",
        kind="improvised",
        dexterity="13",
        attacker_weapon="rapier",
        expertise_modifier="2",
        breakage="20",
    )
    # ceil(13 / 3) = 5, -1 +2 = 6; breakage=20 breaks every time
    assert got == {"blocked, item breaks": F(6, 20), "not blocked": F(14, 20)}


def test_brawling_block_is_a_resistance_roll(rules: Rules) -> None:
    raw = {"kind": "brawling", "attacker_attribute": "10", "defender_attribute": "10"}
    assert chances(rules, "duel.block", **raw) == {
        "blocked": second_resists(10, 10),
        "not blocked": 1 - second_resists(10, 10),
    }
    assert second_resists(10, 10) == F(21, 40)
    # the attacker's brawling expertise 3 higher: +1 per two points, rounded up = +2
    higher = chances(rules, "duel.block", **raw, attacker_expertise="13", defender_expertise="10")
    assert higher["blocked"] == second_resists(12, 10)
    lower = chances(rules, "duel.block", **raw, attacker_expertise="8", defender_expertise="12")
    assert lower["blocked"] == second_resists(10, 12)


def test_block_needs_the_inputs_of_its_kind(rules: Rules) -> None:
    block = get_resolver("duel.block")
    with pytest.raises(ResolveInputError, match="kind=brawling needs attacker_attribute"):
        parse_inputs(block, rules, {"kind": "brawling"})
    with pytest.raises(ResolveInputError, match="kind=improvised needs dexterity"):
        parse_inputs(block, rules, {"kind": "improvised", "attacker_weapon": "sabre"})
    with pytest.raises(ResolveInputError, match="against unarmed attacks use kind=brawling"):
        parse_inputs(block, rules, {"kind": "improvised", "dexterity": "12"})


# ---------------------------------------------------------------- brawling


def test_punch_stuns_on_strength_against_endurance(rules: Rules) -> None:
    # expertise 30 always hits: serious on 15 or less; stun when the defender fails to resist
    got = chances(rules, "duel.punch", expertise="30", strength="10", endurance="10")
    stun = 1 - second_resists(10, 10)
    assert got == {
        "serious hit, stunned": F(15, 20) * stun,
        "serious hit": F(15, 20) * (1 - stun),
        "light hit, stunned": F(5, 20) * stun,
        "light hit": F(5, 20) * (1 - stun),
    }


def test_punch_armour_and_damage(rules: Rules) -> None:
    assert chances(
        rules,
        "duel.punch",
        expertise="12",
        strength="16",
        endurance="10",
        armour="helmet and cuirass",
    ) == {"no effect (armour)": F(12, 20), "miss": F(8, 20)}
    kinds = set()
    for seed in range(25):
        plain = resolve(rules, "duel.punch", seed, expertise="30", strength="16", endurance="9")
        helmet = resolve(
            rules, "duel.punch", seed, expertise="30", strength="16", endurance="9", armour="helmet"
        )
        hay = resolve(rules, "duel.haymaker", seed, expertise="30", strength="12", endurance="9")
        serious = plain.outcome.result.startswith("serious")
        kinds.add(serious)
        # serious: 1, +1 for Strength 16+; a helmet takes 1; a light punch does nothing
        assert dict(plain.outcome.details)["damage"] == (2 if serious else 0)
        assert dict(helmet.outcome.details)["damage"] == (1 if serious else 0)
        # a haymaker is +1 on any hit (Strength 12: no bonus)
        hay_serious = hay.outcome.result.startswith("serious")
        assert dict(hay.outcome.details)["damage"] == (2 if hay_serious else 1)
        if plain.outcome.result.endswith("stunned"):
            assert any("stunned" in c for c in plain.outcome.changes)
    assert kinds == {True, False}


def damage_odds(rules: Rules, resolver_id: str, **raw: str) -> dict[int, Fraction]:
    """The exact chance of each damage total (a miss or no effect counts as 0)."""
    from generator.resolve.engine import _Budget, _explore

    resolver = get_resolver(resolver_id)
    inputs = parse_inputs(resolver, rules, raw)

    def damage(ctx: Any) -> int:
        return int(dict(resolver.resolve(ctx, inputs).details).get("damage", 0))

    return dict(_explore(rules, damage, _Budget(100_000)))


def test_helmet_and_cuirass_are_a_minus_one_damage_modifier_each(rules: Rules) -> None:
    # "helmets/cuirasses reduce damage by 1 each" (rules-notes.md: a reduction, -1):
    # expertise 12 hits on 12 or less, serious on 6 or less (half, rounded up)
    serious, light, miss = F(6, 20), F(6, 20), F(8, 20)
    # punch, Strength 16: serious 1 + 1 (Strength 16+); light none; a helmet takes 1
    assert damage_odds(rules, "duel.punch", expertise="12", strength="16", endurance="10") == {
        2: serious,
        0: light + miss,
    }
    assert damage_odds(
        rules, "duel.punch", expertise="12", strength="16", endurance="10", armour="helmet"
    ) == {1: serious, 0: light + miss}
    # haymaker, Strength 12: +1 on any hit, so serious 1 + 1, light 1; a cuirass takes 1
    assert damage_odds(rules, "duel.haymaker", expertise="12", strength="12", endurance="10") == {
        2: serious,
        1: light,
        0: miss,
    }
    assert damage_odds(
        rules, "duel.haymaker", expertise="12", strength="12", endurance="10", armour="cuirass"
    ) == {1: serious, 0: light + miss}
    # the outcome odds do not change: armour reduces damage, not the stun
    stun = 1 - second_resists(12, 10)
    expected = {
        "serious hit, stunned": serious * stun,
        "serious hit": serious * (1 - stun),
        "light hit, stunned": light * stun,
        "light hit": light * (1 - stun),
        "miss": miss,
    }
    assert chances(rules, "duel.haymaker", expertise="12", strength="12", endurance="10") == (
        expected
    )
    assert (
        chances(
            rules, "duel.haymaker", expertise="12", strength="12", endurance="10", armour="cuirass"
        )
        == expected
    )


@pytest.mark.parametrize(("armour", "piece"), [("helmet", "helmet"), ("cuirass", "cuirass")])
def test_armour_against_punches_shows_as_minus_one_in_trace_and_json(
    rules: Rules, armour: str, piece: str
) -> None:
    for seed in range(30):
        hay = resolve(
            rules,
            "duel.haymaker",
            seed,
            expertise="30",
            strength="12",
            endurance="9",
            armour=armour,
        )
        as_json = hay.to_json()
        reductions = [m for m in as_json["modifiers"] if "against punches" in m["label"]]
        assert reductions == [
            {"label": f"{piece} against punches", "value": -1, "source": "duel.brawling"}
        ]
        assert f"  -1 {piece} against punches [duel.brawling]" in as_json["explanation"]
        # serious +1, haymaker +1, armour -1; light: haymaker +1, armour -1
        damage = [m["value"] for m in as_json["modifiers"] if m["source"] == "duel.brawling"]
        serious = hay.outcome.result.startswith("serious")
        assert damage == ([1, 1, -1] if serious else [1, -1])
        assert as_json["details"]["damage"] == sum(damage) == (1 if serious else 0)
        assert not [m for m in as_json["modifiers"] if m["source"] == "duel.armour"]
    # a light punch does no damage, so there is nothing to reduce: no modifier is shown
    for seed in range(30):
        punch = resolve(
            rules, "duel.punch", seed, expertise="30", strength="12", endurance="9", armour=armour
        )
        if punch.outcome.result.startswith("light"):
            assert not [a for a in punch.applied if "against punches" in a.label]
            assert dict(punch.outcome.details)["damage"] == 0
            return
    pytest.fail("no light punch in 30 seeds")


def test_armour_pieces_follow_the_seed(rules: Rules) -> None:
    punch = rules.table("duel.brawling").cell(2)
    assert (punch["helmet_damage"], punch["cuirass_damage"]) == (-1, -1)
    assert punch["helmet_and_cuirass"] == "ineffective"
    armour = rules.table("duel.armour")
    pieces = {
        label: (cell["helmet"], cell["cuirass"])
        for label, cell in zip(armour.axes[0].labels, armour.cells, strict=True)
    }
    assert pieces == {
        "None": (False, False),
        "Helmet": (True, False),
        "Cuirass": (False, True),
        "Helmet and cuirass": (True, True),
        "Buff coat": (False, False),
    }


def test_stunned_twice_in_a_turn_takes_no_actions(rules: Rules) -> None:
    for seed in range(20):
        resolution = resolve(
            rules,
            "duel.punch",
            seed,
            expertise="30",
            strength="18",
            endurance="3",
            stuns_this_turn="1",
        )
        if resolution.outcome.result.endswith("stunned"):
            assert "Defender: stunned again, no actions may be taken (duel.stun)" in (
                resolution.outcome.changes
            )
            return
    pytest.fail("no stun in 20 seeds")


def test_kick_does_two_on_a_serious_hit(rules: Rules) -> None:
    assert chances(rules, "duel.kick", expertise="12", strength="16", stun="no") == {
        "serious hit": F(6, 20),
        "light hit": F(6, 20),
        "miss": F(8, 20),
    }
    for seed in range(10):
        kick = resolve(rules, "duel.kick", seed, expertise="30", strength="16", stun="no")
        serious = kick.outcome.result == "serious hit"
        assert dict(kick.outcome.details)["damage"] == (3 if serious else 0)


def test_grapple_holds_one_or_two_turns(rules: Rules) -> None:
    got = chances(rules, "duel.grapple", expertise="12", strength="10", defender_strength="10")
    hold = 1 - second_resists(10, 10)
    assert got == {
        "held 2 turns": F(6, 20) * hold,
        "serious hit, breaks free": F(6, 20) * (1 - hold),
        "held 1 turn": F(6, 20) * hold,
        "light hit, breaks free": F(6, 20) * (1 - hold),
        "miss": F(8, 20),
    }
    for seed in range(20):
        grapple = resolve(
            rules,
            "duel.grapple",
            seed,
            expertise="30",
            strength="18",
            defender_strength="3",
            damage="yes",
        )
        if grapple.outcome.result.startswith("held"):
            assert "Defender: -1 hit points" in grapple.outcome.changes


def test_tackle_fells_both_and_may_grapple(rules: Rules) -> None:
    assert chances(
        rules, "duel.tackle", expertise="12", strength="10", defender_strength="10", grapple="no"
    ) == {"both fall": F(12, 20), "miss": F(8, 20)}
    got = chances(rules, "duel.tackle", expertise="12", strength="10", defender_strength="10")
    assert got["both fall, held 2 turns"] == F(6, 20) * (1 - second_resists(10, 10))


# ---------------------------------------------------------------- wounds


@pytest.mark.parametrize(
    ("location", "damage", "result"),
    [
        ("head", "2", "stunned"),
        ("head", "1", "no further effect"),
        ("chest", "4", "stunned"),
        ("chest", "3", "no further effect"),
    ],
)
def test_wounds_stun_by_location(rules: Rules, location: str, damage: str, result: str) -> None:
    assert chances(rules, "duel.wounds", location=location, damage=damage, hit_points="20") == {
        result: F(1)
    }


def test_wounds_head_and_chest_at_half_the_hit_points(rules: Rules) -> None:
    # 13 hit points: half is 7 (rounded up); chest damage 7 is unconsciousness, 8 death
    raw = {"location": "chest", "hit_points": "13", "here_before": "4", "total_before": "4"}
    assert chances(rules, "duel.wounds", **raw, damage="3") == {"unconscious": F(1)}
    assert chances(rules, "duel.wounds", **raw, damage="4") == {"dead": F(1)}
    resolution = resolve(rules, "duel.wounds", 2, **raw, damage="3")
    hours = dict(resolution.outcome.details)["hours"]
    assert 1 <= hours <= 6
    assert f"Character: unconscious {hours} hours" in resolution.outcome.changes


def test_wounds_total_against_the_hit_points(rules: Rules) -> None:
    raw = {"location": "leg", "hit_points": "12", "total_before": "10"}
    assert chances(rules, "duel.wounds", **raw, damage="2") == {"unconscious": F(1)}
    assert chances(rules, "duel.wounds", **raw, damage="3", endurance="10") == {"dead": F(1)}


def test_wounds_to_limbs(rules: Rules) -> None:
    # 3+ in one blow: Endurance roll (d20 under 11) or useless
    assert chances(
        rules, "duel.wounds", location="arm", damage="3", hit_points="20", endurance="11"
    ) == {"arm useless": F(9, 20), "no further effect": F(11, 20)}
    assert chances(rules, "duel.wounds", location="arm", damage="2", hit_points="20") == {
        "no further effect": F(1)
    }
    # the limb's total at half the hit points: useless, no roll
    assert chances(
        rules,
        "duel.wounds",
        location="leg",
        damage="2",
        hit_points="20",
        here_before="8",
        total_before="8",
    ) == {"leg useless": F(1)}
    resolution = resolve(
        rules,
        "duel.wounds",
        1,
        location="leg",
        damage="2",
        hit_points="20",
        here_before="8",
        total_before="8",
    )
    (useless,) = [c for c in resolution.outcome.changes if "useless" in c]
    assert "reduces movement by ½" in useless


def test_wounds_refuse_incomplete_input(rules: Rules) -> None:
    wounds = get_resolver("duel.wounds")
    with pytest.raises(ResolveInputError, match="Endurance roll: give endurance=VALUE"):
        parse_inputs(wounds, rules, {"location": "arm", "damage": "4", "hit_points": "14"})
    with pytest.raises(ResolveInputError, match="here_before=5 cannot exceed total_before=2"):
        parse_inputs(
            wounds,
            rules,
            {
                "location": "head",
                "damage": "1",
                "hit_points": "14",
                "here_before": "5",
                "total_before": "2",
            },
        )


# ---------------------------------------------------------------- counter actions and sea


def test_entangle_needs_a_hit_then_a_failed_dexterity_roll(rules: Rules) -> None:
    got = chances(rules, "duel.entangle", expertise="12", weapon="sabre", opponent_dexterity="12")
    # the opponent escapes on Dexterity - 3 = 9 or less
    assert got == {
        "entangled": F(12, 20) * F(11, 20),
        "not entangled": F(12, 20) * F(9, 20),
        "miss": F(8, 20),
    }


def test_disarm_is_a_resistance_roll_on_expertise(rules: Rules) -> None:
    got = chances(
        rules,
        "duel.disarm",
        expertise="10",
        weapon="sabre",
        opponent_expertise="10",
        opponent_weapon="rapier",
    )
    assert got == {"disarmed": 1 - second_resists(10, 10), "keeps weapon": second_resists(10, 10)}
    disarm = get_resolver("duel.disarm")
    with pytest.raises(ResolveInputError, match="needs equal or greater strength"):
        parse_inputs(
            disarm,
            rules,
            {
                "expertise": "10",
                "weapon": "foil",
                "opponent_expertise": "9",
                "opponent_weapon": "longsword",
            },
        )
    with pytest.raises(ResolveInputError, match="Club is not a dueling weapon"):
        parse_inputs(
            disarm,
            rules,
            {
                "expertise": "10",
                "weapon": "sabre",
                "opponent_expertise": "9",
                "opponent_weapon": "club",
            },
        )


def test_sea_legs_after_three_successful_attacks(rules: Rules) -> None:
    assert chances(rules, "duel.sea-legs", wit="12") == {
        "sea legs": F(12, 20),
        "no sea legs yet": F(8, 20),
    }
    with pytest.raises(ResolveInputError, match="after 3 successful attacks"):
        parse_inputs(get_resolver("duel.sea-legs"), rules, {"wit": "9", "successful_attacks": "2"})


def test_rigging_movement_and_falls(rules: Rules) -> None:
    # 2 m, +1 Dexterity 15, +1 acrobatics, +1 mastery, doubled for a long action
    assert chances(
        rules, "duel.rigging", dexterity="15", acrobatics="yes", mastery="yes", long_action="yes"
    ) == {"climbs 10 m": F(1)}
    # storm: d20 under Dexterity 11 +3 seamanship = 14, or fall
    assert chances(rules, "duel.rigging", dexterity="11", storm_or_combat="yes") == {
        "climbs 2 m": F(14, 20),
        "falls": F(6, 20),
    }
    assert chances(rules, "duel.rigging", dexterity="11", seamanship="no") == {"cannot move": F(1)}


def test_swimming_speed_and_weapon_penalty(rules: Rules) -> None:
    assert chances(rules, "duel.swimming", dexterity="12", endurance="10") == {"swims 1 m": F(1)}
    resolution = resolve(
        rules,
        "duel.swimming",
        1,
        dexterity="15",
        endurance="14",
        seamanship="yes",
        weapon="cutlass",
    )
    assert resolution.outcome.result == "swims 4 m"
    assert "Character: -5 on attacks and parries with the cutlass" in resolution.outcome.changes
    assert dict(resolution.outcome.details)["underwater_turns"] == 14


def test_drowning(rules: Rules) -> None:
    calm = {"dexterity": "12", "strength": "12", "endurance": "2", "seamanship": "yes"}
    assert chances(rules, "duel.drowning", **calm) == {"no risk": F(1)}
    # under: Strength 12 +2 seamanship = 14, then 13 after a failure; drowned after 2 turns
    assert chances(rules, "duel.drowning", **calm, underwater="yes") == {
        "regains the surface": F(14, 20) + F(6, 20) * F(13, 20),
        "drowns": F(6, 20) * F(7, 20),
    }
    # rough water: Dexterity 12 -3 for three weight points = 9 to stay afloat
    rough = chances(rules, "duel.drowning", **calm, rough_water="yes", weight="3")
    assert rough["stays afloat"] == F(9, 20)
    # with weight 3 the strength rolls are 14 - 3 = 11, then 10
    assert rough["drowns"] == F(11, 20) * F(9, 20) * F(10, 20)
    resolution = resolve(rules, "duel.drowning", 4, **calm, underwater="yes", weight="2")
    assert sources(resolution)["duel.drowning-modifiers:str-weight"] == -2


def test_the_two_handed_sword_only_strikes_so_it_is_not_a_dueling_weapon(rules: Rules) -> None:
    """A "2-H sword, which can only strike": strike is the attack of "Polearms, other", so the
    house weapons table types it an other weapon (the decision in duel.weapons' note). It has
    no free reaction parry and neither disarms nor is disarmed, but still parries and is
    parried, at +3."""
    weapons = rules.table("duel.weapons")
    cell = weapon_cell(rules, "two-handed sword")
    assert (cell["type"], cell["can_parry"], cell["only_strikes"]) == ("other", True, True)
    assert "can only strike" in weapons.note and "not a dueling weapon" in weapons.note
    raw = {
        "expertise": "10",
        "weapon": "two-handed sword",
        "attacker_weapon": "sabre",
        "attacker_expertise": "10",
        "breakage": "0",
    }
    parry = get_resolver("duel.parry")
    with pytest.raises(
        ResolveInputError, match="only dueling weapons get a free reaction parry, not Two-handed"
    ):
        parse_inputs(parry, rules, {**raw, "reaction": "yes"})
    # parrying with it: 10, its weapon bonus -1: 9 in 20
    assert chances(rules, "duel.parry", **raw) == {"parried": F(9, 20), "not parried": F(11, 20)}
    disarm = get_resolver("duel.disarm")
    for mine, theirs, named in (
        ("two-handed sword", "rapier", "weapon=Two-handed sword"),
        ("sabre", "two-handed sword", "opponent_weapon=Two-handed sword"),
    ):
        with pytest.raises(ResolveInputError, match=f"{named} is not a dueling weapon"):
            parse_inputs(
                disarm,
                rules,
                {
                    "expertise": "12",
                    "weapon": mine,
                    "opponent_expertise": "9",
                    "opponent_weapon": theirs,
                },
            )
