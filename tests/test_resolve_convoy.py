"""Convoy resolvers, checked against the rules' own numbers."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from generator.loading import Rules
from generator.resolve import ResolveInputError, get_resolver, parse_inputs
from tests.resolving import chances, resolve

HIT = Fraction(1, 6)
SUCCESS = Fraction(1, 3)  # a 5 or a 6


def binomial(n: int, k: int, p: Fraction) -> Fraction:
    return comb(n, k) * p**k * (1 - p) ** (n - k)


def hits_name(k: int) -> str:
    return "no hits" if k == 0 else f"{k} hit" + ("" if k == 1 else "s")


def test_two_gun_markers_at_short_range_pool_seven_dice_with_a_reroll(rules: Rules) -> None:
    # 2 * 2 + 3 = 7 dice; a miss is re-rolled once, so each die hits with 1/6 + 5/6 * 1/6
    per_die = HIT + (1 - HIT) * HIT
    assert per_die == Fraction(11, 36)
    table = chances(rules, "convoy.gunnery", guns="2", short_range="yes")
    assert table == {hits_name(k): binomial(7, k, per_die) for k in range(8)}
    assert table["no hits"] == Fraction(25, 36) ** 7

    resolution = resolve(rules, "convoy.gunnery", 3, guns="2", short_range="yes")
    assert [(a.source, a.value) for a in resolution.applied] == [
        ("convoy.gunnery-modifiers:per-gun-marker", 4),
        ("convoy.gunnery-modifiers:short-range", 3),
    ]
    first, again = resolution.rolls
    assert first.expression == "7d6>=6"
    assert again.expression == f"{7 - first.total}d6>=6"  # only the misses
    assert dict(resolution.outcome.details)["hits"] == first.total + again.total


def test_gunnery_pool_is_never_fewer_than_two_dice(rules: Rules) -> None:
    # Guns at zero (no dice per gun), Crew zero -2, opportunity -3: raised to 2 dice
    table = chances(rules, "convoy.gunnery", guns="0", crew_zero="yes", shot="opportunity")
    assert table["no hits"] == Fraction(25, 36) ** 2
    resolution = resolve(rules, "convoy.gunnery", 1, guns="0", crew_zero="yes", shot="opportunity")
    assert resolution.applied[-1].source == "convoy.gunnery"
    assert resolution.applied[-1].value == 7
    assert dict(resolution.outcome.details)["dice"] == 2


def test_gunnery_subtractions_are_dice(rules: Rules) -> None:
    # 3 markers (6) - target bigger 2 - scurvy 2 = 2 dice; + raking 3 + hardened 2 = 7
    resolution = resolve(
        rules, "convoy.gunnery", 2, guns="3", shooter="large", target="bigger", scurvy="yes"
    )
    assert dict(resolution.outcome.details)["dice"] == 2
    resolution = resolve(rules, "convoy.gunnery", 2, guns="1", raking="yes", battle_hardened="yes")
    assert dict(resolution.outcome.details)["dice"] == 7


def test_chasers_roll_one_die_without_reroll(rules: Rules) -> None:
    table = chances(rules, "convoy.gunnery", chaser="yes", range="2")
    assert table == {"1 hit": HIT, "no hits": 1 - HIT}
    resolution = resolve(rules, "convoy.gunnery", 4, chaser="yes")
    assert [r.expression for r in resolution.rolls] == ["1d6>=6"]
    assert "Target may return shoot (hits received)" not in resolution.outcome.changes


def test_first_hit_is_the_targets_and_the_rest_the_shooters(rules: Rules) -> None:
    for seed in range(60):
        resolution = resolve(rules, "convoy.gunnery", seed, guns="4", short_range="yes")
        hits = dict(resolution.outcome.details)["hits"]
        if hits >= 3:
            assert resolution.outcome.changes == (
                "Target: apply the first hit (target's choice)",
                f"Shooter: apply the other {hits - 1} hits",
                "Target may return shoot (hits received)",
            )
            return
    pytest.fail("no seed gave three hits")


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"chaser": "yes", "scurvy": "yes"}, "chasers roll 1D6 with no modifiers; drop scurvy"),
        ({"chaser": "yes", "shot": "return"}, "chasers may not return shoot"),
        ({"chaser": "yes", "range": "3"}, "beyond the 2-hex range of bow and stern chasers"),
        ({"range": "5"}, "range=5 is beyond the 4-hex range of a medium ship"),
        ({"shot": "opportunity", "range": "2"}, "only allowed at 1 hex range"),
        ({"shooter": "merchant", "raking": "yes"}, "raking is for a warship"),
        ({"target": "huge"}, "not one of same, smaller, bigger"),
    ],
)
def test_gunnery_refuses_what_the_rules_forbid(
    rules: Rules, raw: dict[str, str], message: str
) -> None:
    resolver = get_resolver("convoy.gunnery")
    with pytest.raises(ResolveInputError, match=message):
        parse_inputs(resolver, rules, raw)


def test_shallows_any_six_runs_aground(rules: Rules) -> None:
    assert chances(rules, "convoy.shallows", size="large") == {
        "aground": 1 - Fraction(5, 6) ** 3,
        "clear": Fraction(5, 6) ** 3,
    }
    # battle hardened: one die fewer
    assert chances(rules, "convoy.shallows", size="medium", battle_hardened="yes") == {
        "aground": HIT,
        "clear": 1 - HIT,
    }
    assert chances(rules, "convoy.shallows", size="small", battle_hardened="yes") == {
        "clear": Fraction(1)
    }
    resolution = resolve(rules, "convoy.shallows", 1, size="Large", battle_hardened="yes")
    assert [(a.source, a.value) for a in resolution.applied] == [("convoy.shallows", -1)]
    assert resolution.rolls[0].expression == "2d6>=6"


def test_wind_change_opponent_cancels_successes(rules: Rules) -> None:
    assert chances(rules, "convoy.wind-change", mover_dice="1")["wind changes"] == SUCCESS
    both = chances(rules, "convoy.wind-change", mover_dice="1", opponent_dice="1")
    assert both["wind changes"] == SUCCESS * (1 - SUCCESS)
    resolution = resolve(rules, "convoy.wind-change", 7, mover_dice="5", opponent_dice="2")
    mover, opponent = (r.total for r in resolution.rolls)
    assert (resolution.outcome.result == "wind changes") == (mover > opponent)


def test_recovery_pool(rules: Rules) -> None:
    # 2 crew + battle hardened: 3 dice
    table = chances(rules, "convoy.recovery", crew="2", battle_hardened="yes")
    assert table["no successes"] == (1 - SUCCESS) ** 3
    assert table["3 successes"] == SUCCESS**3
    # Crew at zero: 1D6; a captured ship: at most 1D6
    assert chances(rules, "convoy.recovery", crew="0")["1 success"] == SUCCESS
    assert chances(rules, "convoy.recovery", crew="4", captured="yes") == {
        "1 success": SUCCESS,
        "no successes": 1 - SUCCESS,
    }


def test_death_rolls_burn_on_any_one(rules: Rules) -> None:
    assert chances(rules, "convoy.death-roll", hits="2") == {
        "ship burns": 1 - Fraction(5, 6) ** 2,
        "no fire": Fraction(5, 6) ** 2,
    }


def test_fog_ends_the_move_on_one_or_two(rules: Rules) -> None:
    assert chances(rules, "convoy.fog") == {
        "move ends": Fraction(1, 3),
        "no effect on movement in this turn": Fraction(2, 3),
    }
    assert chances(rules, "convoy.fog", first_hex="no") == {
        "no effect on movement in this turn": Fraction(1)
    }


def test_movement_rear_quarter_large_repeats_until_fail_up_to_three(rules: Rules) -> None:
    p = Fraction(4, 6)  # 3, 4, 5, 6
    table = chances(rules, "convoy.movement", facing="wind-from-rear-quarter", size="large")
    # base 3; the 4th hex on one die; then additions, rolled again after each success, max 3
    additions = {0: 1 - p, 1: p * (1 - p), 2: p * p * (1 - p), 3: p**3}
    expected: dict[str, Fraction] = {}
    for fourth, p4 in ((0, 1 - p), (1, p)):
        for extra, pa in additions.items():
            name = f"{3 + fourth + extra} hexes"
            expected[name] = expected.get(name, Fraction(0)) + p4 * pa
    assert table == expected


@pytest.mark.parametrize(
    ("flags", "p"),
    [
        ({}, Fraction(4, 6)),
        ({"battle_hardened": "yes"}, Fraction(5, 6)),
        ({"scurvy": "yes"}, Fraction(3, 6)),
        ({"battle_hardened": "yes", "scurvy": "yes"}, Fraction(4, 6)),
    ],
)
def test_extra_hex_die_is_easier_hardened_and_harder_with_scurvy(
    rules: Rules, flags: dict[str, str], p: Fraction
) -> None:
    # wind from rear, medium: 2 hexes, the 3rd on one die, no additions
    table = chances(rules, "convoy.movement", facing="wind-from-rear", size="medium", **flags)
    assert table == {"3 hexes": p, "2 hexes": 1 - p}


def test_movement_other_facings(rules: Rules) -> None:
    assert chances(rules, "convoy.movement", facing="wind-from-ahead", size="small") == {
        "spin 1 face, 1 hex": Fraction(2, 3),
        "spin 1 face, 0 hexes": Fraction(1, 3),
    }
    # the axis's own short words are taken too
    assert chances(rules, "convoy.movement", facing="ahead", size="large") == {
        "spin 1 face, 0 hexes": Fraction(1)
    }
    # Sail at zero level: no dicing for extra hexes
    assert chances(
        rules, "convoy.movement", facing="wind-from-rear", size="small", sail_zero="yes"
    ) == {"2 hexes": Fraction(1)}
    resolution = resolve(
        rules,
        "convoy.movement",
        1,
        facing="wind-from-front-quarter",
        size="medium",
        merchant="yes",
    )
    assert resolution.outcome.changes[-1] == "Turning: 1 direction change per turn max."


def test_movement_rolls_fog_and_shallows_when_the_ship_gets_there(rules: Rules) -> None:
    # wind from rear, medium: hex 3 is reached on 3-6; the fog there ends the move on 1-2
    table = chances(rules, "convoy.movement", facing="wind-from-rear", size="medium", fog_hex="3")
    assert table["stopped by fog in hex 3"] == Fraction(2, 3) * Fraction(1, 3)
    table = chances(
        rules, "convoy.movement", facing="wind-from-rear", size="large", shallows_hex="1"
    )
    assert table["aground in hex 1"] == 1 - Fraction(5, 6) ** 3


def grapple_tie(dice: int) -> Fraction:
    return sum((binomial(dice, k, SUCCESS) ** 2 for k in range(dice + 1)), Fraction(0))


def test_boarding_fight_defender_wins_a_draw(rules: Rules) -> None:
    # already grappled, equal sides, no warships: 4 + 3 crew = 7 dice each
    table = chances(
        rules, "convoy.boarding", grappled="yes", boarder_warship="no", target_warship="no"
    )
    draw = grapple_tie(7)
    assert table == {"captured": (1 - draw) / 2, "repulsed": (1 + draw) / 2}


def test_boarding_grapple_then_fight(rules: Rules) -> None:
    table = chances(rules, "convoy.boarding", boarder_warship="no")
    draw = grapple_tie(7)
    assert table["no grapple"] == draw
    assert table["target wins grapple"] == (1 - draw) / 2
    assert table["captured"] + table["repulsed"] == (1 - draw) / 2
    # crew markers count at most five
    assert chances(rules, "convoy.boarding", boarder_crew="9") == chances(
        rules, "convoy.boarding", boarder_crew="5"
    )


def test_boarding_modifiers_and_result(rules: Rules) -> None:
    for seed in range(80):
        resolution = resolve(
            rules,
            "convoy.boarding",
            seed,
            boarder_crew="6",
            target_crew="2",
            better_quality="boarder",
            boarder_size="large",
            target_size="small",
        )
        if resolution.outcome.result == "captured":
            break
    else:
        pytest.fail("no seed captured the target")
    grapple = [(a.label, a.source, a.value) for a in resolution.applied][:4]
    assert grapple == [
        ("Boarder: per crew (max 5) ×5", "convoy.boarding-grapple:per-crew", 5),
        ("Boarder: better quality", "convoy.boarding-grapple:better-quality", 2),
        ("Boarder: bigger (2 steps)", "convoy.boarding-grapple:bigger", 1),
        ("Target: per crew (max 5) ×2", "convoy.boarding-grapple:per-crew", 2),
    ]
    assert ("Boarder: warship", "convoy.boarding-fight:warship", 1) in [
        (a.label, a.source, a.value) for a in resolution.applied
    ]
    assert [r.expression for r in resolution.rolls] == ["12d6>=5", "6d6>=5", "13d6>=5", "6d6>=5"]
    assert resolution.outcome.changes == (
        "All target markers removed.",
        "Target captured.",
        "Move 1 crew to captured ship.",
        "Lose 1 crew (gun, sail) as fatigue loss.",
    )
    # one size step is not enough for the bigger die
    resolution = resolve(rules, "convoy.boarding", 1, boarder_size="large")
    assert not any(a.source.endswith(":bigger") for a in resolution.applied)


def test_boarding_a_struck_ship_needs_one_success_by_a_warship(rules: Rules) -> None:
    table = chances(rules, "convoy.boarding", target_struck="yes", boarder_crew="3")
    assert table == {"captured": 1 - Fraction(2, 3) ** 7, "no grapple": Fraction(2, 3) ** 7}
    resolver = get_resolver("convoy.boarding")
    with pytest.raises(ResolveInputError, match="needs a grapple by a warship"):
        parse_inputs(resolver, rules, {"target_struck": "yes", "boarder_warship": "no"})
    with pytest.raises(ResolveInputError, match="drop grappled=yes"):
        parse_inputs(resolver, rules, {"target_struck": "yes", "grappled": "yes"})


def test_movement_refuses_an_unknown_facing(rules: Rules) -> None:
    resolver = get_resolver("convoy.movement")
    with pytest.raises(ResolveInputError, match="facing=abeam: not one of Wind from ahead"):
        parse_inputs(resolver, rules, {"facing": "abeam"})
    with pytest.raises(ResolveInputError, match="missing facing=VALUE"):
        parse_inputs(resolver, rules, {})
