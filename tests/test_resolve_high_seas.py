"""High-seas resolvers, checked against the rules' own numbers."""

from __future__ import annotations

import random
from fractions import Fraction
from math import comb

import pytest

from generator.loading import Rules
from generator.resolve import (
    Outcome,
    ResolveInputError,
    SteppedResolver,
    get_resolver,
    parse_inputs,
)
from generator.resolve.engine import Resolution, SamplingContext
from tests.resolving import chances, resolve

F = Fraction


def details(resolution: Resolution) -> dict[str, object]:
    return dict(resolution.outcome.details)


def sixes(dice: int, hits: int) -> Fraction:
    """Chance that exactly `hits` of `dice` d6 show a 6."""
    return comb(dice, hits) * F(1, 6) ** hits * F(5, 6) ** (dice - hits)


# ---------------------------------------------------------------- maneuver


def test_numbers_in_the_tactics_matrix_move_the_range(rules: Rules) -> None:
    # both bear down: -2 bands; from Long to Short, chasers before close range
    assert chances(
        rules, "high-seas.maneuver", choice="bear down", opponent="bear down", range="long"
    ) == {"range Short": F(1)}
    resolution = resolve(
        rules, "high-seas.maneuver", 1, choice="bear down", opponent="bear down", range="medium"
    )
    assert resolution.outcome.result == "range Close"
    assert details(resolution)["guns"] == "broadside or grapple"
    # evading against circling: +1, and the evader fires stern guns before close range
    resolution = resolve(
        rules, "high-seas.maneuver", 1, choice="evade", opponent="circle", range="short"
    )
    assert resolution.outcome.result == "range Medium"
    assert (details(resolution)["guns"], details(resolution)["opponent_guns"]) == (
        "stern guns",
        "broadside",
    )


def test_escapes(rules: Rules) -> None:
    assert chances(
        rules, "high-seas.maneuver", choice="evade", opponent="evade", range="close"
    ) == {"escape": F(1)}
    # +1 from Far, the farthest standard band, is an escape (reading); not so with the
    # optional bands, where Too Far lies beyond
    assert chances(rules, "high-seas.maneuver", choice="evade", opponent="circle", range="far") == {
        "escape": F(1)
    }
    assert chances(
        rules,
        "high-seas.maneuver",
        choice="evade",
        opponent="circle",
        range="far",
        optional_bands="yes",
    ) == {"range Too Far": F(1)}


def test_chase_roll_two_d6_plus_speed(rules: Rules) -> None:
    tie = sum(F(min(s - 1, 13 - s), 36) ** 2 for s in range(2, 13))
    assert tie == F(73, 648)
    assert chances(
        rules,
        "high-seas.maneuver",
        choice="evade",
        opponent="bear down",
        range="medium",
        speed="5",
        opponent_speed="5",
    ) == {"range Long": (1 - tie) / 2, "range Short": (1 - tie) / 2, "range Medium": tie}
    # "See Evasion-Bear Down": the same roll from the other side; +11 speed always wins
    assert chances(
        rules,
        "high-seas.maneuver",
        choice="bear down",
        opponent="evade",
        range="medium",
        speed="11",
    ) == {"range Short": F(1)}
    # wet sails +2 and a brilliant maneuver +3 count in the roll: 2d6+0+5 against 2d6+5
    boosted = chances(
        rules,
        "high-seas.maneuver",
        choice="evade",
        opponent="bear down",
        range="medium",
        wet_sails="yes",
        brilliant="yes",
        opponent_speed="5",
    )
    assert boosted["range Long"] == (1 - tie) / 2


def test_rigging_over_half_chases_on_one_d6(rules: Rules) -> None:
    # 1d6 + 6 against 2d6: the evader wins unless the bearer rolls higher
    got = chances(
        rules,
        "high-seas.maneuver",
        choice="evade",
        opponent="bear down",
        range="short",
        speed="6",
        rigging_over_half="yes",
    )
    bearer_wins = sum(
        F(1, 6) * F(min(s - 1, 13 - s), 36)
        for own in range(1, 7)
        for s in range(2, 13)
        if s > own + 6
    )
    assert got["range Close"] == bearer_wins


def test_circling_rolls_decide_the_broadsides(rules: Rules) -> None:
    # circling against bearing down: if the circler wins only she fires
    strong = resolve(
        rules,
        "high-seas.maneuver",
        2,
        choice="circle",
        opponent="bear down",
        range="short",
        handling="20",
    )
    assert strong.outcome.result == "range Close"
    assert (details(strong)["guns"], details(strong)["opponent_guns"]) == (
        "broadside",
        "no guns bear",
    )
    weak = resolve(
        rules,
        "high-seas.maneuver",
        2,
        choice="bear down",
        opponent="circle",
        range="short",
        handling="20",
    )
    assert (details(weak)["guns"], details(weak)["opponent_guns"]) == ("broadside", "broadside")
    # circling against circling: a win by 4 or more, and the loser has chasers or stern guns
    wide = resolve(
        rules,
        "high-seas.maneuver",
        2,
        choice="circle",
        opponent="circle",
        range="medium",
        opponent_handling="15",
    )
    assert (details(wide)["guns"], details(wide)["opponent_guns"]) == (
        "chasers or stern guns",
        "broadside",
    )
    # a hard turn adds 2, recorded from the guns table
    turned = resolve(
        rules,
        "high-seas.maneuver",
        2,
        choice="circle",
        opponent="circle",
        range="medium",
        hard_turn="yes",
    )
    assert {(a.label, a.value, a.source) for a in turned.applied} == {
        ("Our ship: hard turn", 2, "high-seas.guns-bear")
    }


def test_maneuver_refuses_what_the_rules_forbid(rules: Rules) -> None:
    maneuver = get_resolver("high-seas.maneuver")
    with pytest.raises(ResolveInputError, match="a crippled ship may only circle"):
        parse_inputs(
            maneuver,
            rules,
            {"choice": "evade", "opponent": "circle", "range": "long", "crippled": "yes"},
        )
    with pytest.raises(ResolveInputError, match="range=Medium Long is an optional band"):
        parse_inputs(
            maneuver, rules, {"choice": "evade", "opponent": "circle", "range": "medium long"}
        )
    with pytest.raises(ResolveInputError, match="choice=flee: not one of Evasion"):
        parse_inputs(maneuver, rules, {"choice": "flee", "opponent": "circle", "range": "long"})


# ---------------------------------------------------------------- wet sails and hard turn


def test_wet_sails_and_hard_turns_risk_a_six(rules: Rules) -> None:
    assert chances(rules, "high-seas.wet-sails") == {
        "sails hold": F(5, 6),
        "rigging damaged": F(1, 6),
    }
    assert chances(rules, "high-seas.hard-turn") == {
        "rudder holds": F(5, 6),
        "rudder damaged": F(1, 6),
    }
    for seed in range(30):
        wet = resolve(rules, "high-seas.wet-sails", seed, speed="7")
        if wet.outcome.result == "rigging damaged":
            lost = details(wet)["rigging_lost"]
            assert wet.outcome.changes == (
                f"Ship: -{lost} Rigging Hit Points",
                "Ship: speed 4 next turn",
            )
        turn = resolve(rules, "high-seas.hard-turn", seed)
        if turn.outcome.result == "rudder damaged":
            assert "Ship: -1 Hull Hit Point" in turn.outcome.changes
            assert "Ship: -1 handling until rudder repaired in port" in turn.outcome.changes


# ---------------------------------------------------------------- cannon fire


def test_cannon_fire_rolls_under_the_range_number(rules: Rules) -> None:
    medium_rigging = chances(
        rules, "high-seas.cannon-fire", range="medium", target="rigging", guns="10"
    )
    # hits on 8 or less; 1 doubles the damage, 20 bursts a gun
    assert medium_rigging == {
        "hit, double damage": F(1, 20),
        "hit": F(7, 20),
        "miss": F(11, 20),
        "gun bursts": F(1, 20),
    }
    navy = chances(
        rules, "high-seas.cannon-fire", range="medium", target="rigging", guns="10", navy="yes"
    )
    assert navy["hit"] + navy["hit, double damage"] == F(9, 20)
    # Short rigging 12, higher enemy handling -1, fog -3: 8
    foggy = chances(
        rules,
        "high-seas.cannon-fire",
        range="short",
        target="rigging",
        guns="10",
        enemy_handling="yes",
        fog_or_storm="yes",
    )
    assert foggy["hit"] == F(7, 20)


def test_cannon_fire_close_against_hull_is_automatic(rules: Rules) -> None:
    # reading: the d20 is still rolled for the natural 1 and the natural 20
    for target in ("hull", "crew"):
        assert chances(rules, "high-seas.cannon-fire", range="close", target=target, guns="20") == {
            "hit": F(18, 20),
            "hit, double damage": F(1, 20),
            "gun bursts": F(1, 20),
        }
    # a natural 1 hits even when modifiers leave nothing to roll under
    hopeless = chances(
        rules,
        "high-seas.cannon-fire",
        range="long",
        target="rigging",
        guns="10",
        fog_or_storm="yes",
        enemy_handling="yes",
    )
    assert hopeless == {"hit, double damage": F(1, 20), "miss": F(18, 20), "gun bursts": F(1, 20)}


def test_cannon_damage_is_three_d6_times_firepower(rules: Rules) -> None:
    seen = set()
    for seed in range(60):
        resolution = resolve(
            rules, "high-seas.cannon-fire", seed, range="close", target="hull", guns="21"
        )
        result = resolution.outcome.result
        seen.add(result)
        if result == "gun bursts":
            assert resolution.outcome.changes == ("Firing ship: -1 gun (burst), -3 crew",)
            continue
        three_d6 = next(r for r in resolution.rolls if r.reason == "Damage").total
        # 21 guns: firepower ceil(21 / 10) = 3
        factor = 2 if result == "hit, double damage" else 1
        assert details(resolution)["firepower"] == 3
        assert details(resolution)["damage"] == three_d6 * 3 * factor
        assert resolution.outcome.changes == (f"Target: -{three_d6 * 3 * factor} Hull Hit Points",)
    assert seen == {"hit", "hit, double damage", "gun bursts"}


def test_cannon_fire_records_modifiers_and_shares_damage(rules: Rules) -> None:
    resolution = resolve(
        rules,
        "high-seas.cannon-fire",
        11,
        range="long",
        target="hull",
        guns="9",
        master_gunner="yes",
        navy="yes",
        enemy_larger="yes",
        enemy_grappled="yes",
        brilliant="yes",
    )
    assert {a.source: a.value for a in resolution.applied} == {
        "high-seas.cannon-hit": 6,
        "high-seas.cannon-modifiers:master-gunner": 2,
        "high-seas.cannon-modifiers:navy-warship": 1,
        "high-seas.cannon-modifiers:enemy-larger": 1,
        "high-seas.cannon-modifiers:enemy-grappled": 3,
        "high-seas.brilliant-maneuver": 3,
    }
    assert details(resolution)["target"] == 16
    for seed in range(40):
        shared = resolve(
            rules,
            "high-seas.cannon-fire",
            seed,
            range="close",
            target="crew",
            guns="8",
            enemy_grappled="yes",
        )
        if shared.outcome.result == "hit":
            damage = details(shared)["damage"]
            assert isinstance(damage, int)
            half = -(-damage // 2)
            assert shared.outcome.changes == (
                f"Target: {half} men on deck killed",
                f"Ship grappled to the target: {damage - half} men on deck killed",
            )
            return
    pytest.fail("no plain hit in 40 seeds")


def test_cannon_fire_refuses_impossible_targets(rules: Rules) -> None:
    fire = get_resolver("high-seas.cannon-fire")
    with pytest.raises(ResolveInputError, match="target=crew is grapeshot, fired only at Close"):
        parse_inputs(fire, rules, {"range": "medium", "target": "crew", "guns": "10"})
    with pytest.raises(ResolveInputError, match="a grappled ship may only fire into the Hull"):
        parse_inputs(
            fire, rules, {"range": "close", "target": "rigging", "guns": "10", "grappled": "yes"}
        )
    with pytest.raises(ResolveInputError, match="range=far: not one of Long, Medium"):
        parse_inputs(fire, rules, {"range": "far", "target": "hull", "guns": "10"})
    with pytest.raises(ResolveInputError, match="guns=0: at least 1"):
        parse_inputs(fire, rules, {"range": "long", "target": "hull", "guns": "0"})


# ---------------------------------------------------------------- damage


def test_hull_damage_consequences(rules: Rules) -> None:
    # 12 + 24 = 36 of 60: guns lost at 20 and 30 (two); over half: -1 handling, water
    resolution = resolve(
        rules, "high-seas.damage", 1, target="hull", damage="24", points="60", before="12"
    )
    assert resolution.outcome.result == "hull: over half"
    assert resolution.outcome.changes == (
        "Ship: -24 Hull Hit Points (24 left)",
        "Ship: 2 guns and their crews destroyed",
        "Ship: -1 handling, takes on water",
    )
    # exactly half is not over half
    assert chances(
        rules, "high-seas.damage", target="hull", damage="5", points="60", before="25"
    ) == {"hull: damaged": F(1)}
    sinking = resolve(
        rules, "high-seas.damage", 1, target="hull", damage="30", points="50", before="25"
    )
    assert sinking.outcome.result == "hull: sinks"
    assert "Ship: sinks, the crew have 2 turns to escape" in sinking.outcome.changes


def test_rigging_damage_consequences(rules: Rules) -> None:
    resolution = resolve(
        rules, "high-seas.damage", 1, target="rigging", damage="11", points="40", before="12"
    )
    assert resolution.outcome.result == "rigging: over half"
    assert resolution.outcome.changes == (
        "Ship: -11 Rigging Hit Points (17 left)",
        "Ship: 2 men on Sail duty killed",
        "Ship: speed halved (rounded up), chase rolls 1d6",
    )
    crippled = resolve(
        rules, "high-seas.damage", 1, target="rigging", damage="9", points="40", before="35"
    )
    assert crippled.outcome.result == "rigging: crippled"
    assert "Ship: crippled, may only circle, at -5 handling" in crippled.outcome.changes
    with pytest.raises(ResolveInputError, match="target=rigging needs points=VALUE"):
        parse_inputs(get_resolver("high-seas.damage"), rules, {"target": "rigging", "damage": "3"})


# ---------------------------------------------------------------- grapple


@pytest.mark.parametrize(
    ("size", "chance"), [("smaller", F(2, 6)), ("same", F(3, 6)), ("larger", F(4, 6))]
)
def test_grapple_by_size(rules: Rules, size: str, chance: Fraction) -> None:
    assert chances(rules, "high-seas.grapple", size=size) == {
        "grappled": chance,
        "fails": 1 - chance,
    }


def test_grapple_with_a_brilliant_maneuver(rules: Rules) -> None:
    assert chances(rules, "high-seas.grapple", size="smaller", brilliant="yes") == {
        "grappled": F(5, 6),
        "fails": F(1, 6),
    }


# ---------------------------------------------------------------- boarding


def test_boarding_three_to_one_surrenders_at_once(rules: Rules) -> None:
    assert chances(
        rules,
        "high-seas.boarding",
        boarders_trained="3",
        defenders_trained="1",
        boarders_pistols="0",
        defenders_pistols="0",
    ) == {"defenders surrender": F(1)}
    assert chances(
        rules,
        "high-seas.boarding",
        boarders_trained="2",
        defenders_trained="1",
        defenders_untrained="5",
        boarders_pistols="0",
        defenders_pistols="0",
    ) == {"boarders surrender": F(1)}


def test_boarding_steps_swivels_then_melee(rules: Rules) -> None:
    # 1) one swivel gun kills a trained defender on 5-6: 2 against 5 becomes 1 against 5
    # 4) otherwise 5 boarders roll ceil(5 / 2) = 3 dice and 2 defenders 1 die; each 6 kills
    got = chances(
        rules,
        "high-seas.boarding",
        boarders_trained="5",
        boarders_swivels="1",
        defenders_trained="2",
        boarders_pistols="0",
        defenders_pistols="0",
        max_turns="1",
    )
    swivel = F(2, 6)
    assert got == {
        "defenders surrender": swivel + (1 - swivel) * sixes(3, 1),
        "defenders cut down": (1 - swivel) * (sixes(3, 2) + sixes(3, 3)),
        "still fighting": (1 - swivel) * sixes(3, 0),
    }


def test_boarding_dice_per_two_trained_and_five_untrained(rules: Rules) -> None:
    resolution = resolve(
        rules,
        "high-seas.boarding",
        4,
        boarders_trained="5",
        boarders_untrained="6",
        defenders_trained="3",
        defenders_untrained="11",
        boarders_pistols="0",
        defenders_pistols="0",
        max_turns="1",
    )
    melee = [r.expression for r in resolution.rolls if "melee" in r.reason]
    # boarders: ceil(5/2) + ceil(6/5) = 5 dice; defenders: ceil(3/2) + ceil(11/5) = 5
    assert melee == ["5d6>=6", "5d6>=6"]


def test_boarding_pistols_are_a_fifth_of_the_trained(rules: Rules) -> None:
    resolution = resolve(
        rules,
        "high-seas.boarding",
        2,
        boarders_trained="11",
        defenders_trained="6",
        defenders_untrained="9",
        max_turns="1",
    )
    pistols = [r.expression for r in resolution.rolls if "pistols" in r.reason]
    assert pistols == ["3d6>=6", "2d6>=6"]


def test_boarding_crew_below_come_up_a_third_a_turn(rules: Rules) -> None:
    boarding = get_resolver("high-seas.boarding")
    inputs = parse_inputs(
        boarding,
        rules,
        {
            "boarders_trained": "0",
            "boarders_below": "10",
            "defenders_trained": "0",
            "defenders_below": "9",
            "max_turns": "5",
        },
    )
    assert isinstance(boarding, SteppedResolver)
    ctx = SamplingContext(rules, random.Random(1))
    state = boarding.start(rules, inputs)
    seen = []
    for _ in range(4):  # swivels, pistols, then the first melee turn in two halves
        state = boarding.step(ctx, inputs, state)
        assert not isinstance(state, Outcome)
        seen.append(state)
    # nobody on deck rolls: ceil(10 / 3) = 4 and ceil(9 / 3) = 3 come up after turn 1
    assert seen[-1] == ("melee", 2, 0, 4, 6, 0, 3, 6, 0)


def test_boarding_is_bounded(rules: Rules) -> None:
    # four against four lose at most two a side in a turn: never 3 to 1 after one turn
    raw = {
        "boarders_trained": "4",
        "defenders_trained": "4",
        "boarders_pistols": "0",
        "defenders_pistols": "0",
    }
    assert chances(rules, "high-seas.boarding", **raw, max_turns="1") == {"still fighting": F(1)}
    resolution = resolve(rules, "high-seas.boarding", 3, **raw, max_turns="1")
    assert details(resolution)["turns"] == 1
    longer = chances(rules, "high-seas.boarding", **raw, max_turns="3")
    assert sum(longer.values()) == 1
    assert longer["still fighting"] < 1
    with pytest.raises(ResolveInputError, match="max_turns=0: at least 1"):
        parse_inputs(get_resolver("high-seas.boarding"), rules, {**raw, "max_turns": "0"})
