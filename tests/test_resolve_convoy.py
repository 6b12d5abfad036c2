"""Convoy resolvers, checked against the rules' own numbers."""

from __future__ import annotations

from fractions import Fraction
from math import comb
from pathlib import Path

import pytest
import yaml

from generator.loading import Rules, load_rules
from generator.resolve import ResolveInputError, get_resolver, parse_inputs
from generator.resources import data_dir
from tests.resolving import chances, resolve

RULES_YAML = yaml.safe_load((data_dir() / "convoy.yaml").read_text(encoding="utf-8"))
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


def chain(base: int, p: Fraction, first: bool, additions: int) -> dict[str, Fraction]:
    """The odds of each move when the extra-hex dice are one chain, each link won with `p`:
    the All ships roll (if `first`) then up to `additions` more; the first failure ends it."""
    links = int(first) + additions

    def name(hexes: int) -> str:
        return "1 hex" if hexes == 1 else f"{hexes} hexes"

    out = {name(base + k): p**k * (1 - p) for k in range(links)}
    out[name(base + links)] = p**links
    return out


# wind angle, size: the odds worked by hand from the Sailing movement table, the d6 gaining
# an extra hex on 3, 4, 5, 6 (2/3); the All ships roll is the chain's first link, a failure
# ends the move, and repeat until fail adds at most 3 more hexes
THIRD, TWO_THIRDS = Fraction(1, 3), Fraction(2, 3)
CHAIN_ODDS = [
    # ahead: a spin; a small ship's single addition is the whole chain
    ("wind-from-ahead", "small", {"spin 1 face, 1 hex": TWO_THIRDS, "spin 1 face, 0 hexes": THIRD}),
    ("wind-from-ahead", "medium", {"spin 1 face, 0 hexes": Fraction(1)}),
    ("wind-from-ahead", "large", {"spin 1 face, 0 hexes": Fraction(1)}),
    ("wind-from-front-quarter", "small", {"2 hexes": TWO_THIRDS, "1 hex": THIRD}),
    ("wind-from-front-quarter", "medium", {"1 hex": Fraction(1)}),
    ("wind-from-front-quarter", "large", {"1 hex": Fraction(1)}),
    # rear quarter: 3, the 4th on the first link; a small ship has no additions
    ("wind-from-rear-quarter", "small", {"3 hexes": THIRD, "4 hexes": TWO_THIRDS}),
    # medium / large: after the 4th, repeat until fail, at most 3 additions
    (
        "wind-from-rear-quarter",
        "medium",
        {
            "3 hexes": Fraction(1, 3),
            "4 hexes": Fraction(2, 9),  # 2/3 * 1/3
            "5 hexes": Fraction(4, 27),  # (2/3)^2 * 1/3
            "6 hexes": Fraction(8, 81),  # (2/3)^3 * 1/3
            "7 hexes": Fraction(16, 81),  # (2/3)^4: the 4th hex and 3 additions, then stop
        },
    ),
    (
        "wind-from-rear-quarter",
        "large",
        {
            "3 hexes": Fraction(1, 3),
            "4 hexes": Fraction(2, 9),
            "5 hexes": Fraction(4, 27),
            "6 hexes": Fraction(8, 81),
            "7 hexes": Fraction(16, 81),
        },
    ),
    # rear: 2, the 3rd on the first link; a small ship's additions repeat until fail
    (
        "wind-from-rear",
        "small",
        {
            "2 hexes": Fraction(1, 3),
            "3 hexes": Fraction(2, 9),
            "4 hexes": Fraction(4, 27),
            "5 hexes": Fraction(8, 81),
            "6 hexes": Fraction(16, 81),
        },
    ),
    ("wind-from-rear", "medium", {"2 hexes": THIRD, "3 hexes": TWO_THIRDS}),
    ("wind-from-rear", "large", {"2 hexes": THIRD, "3 hexes": TWO_THIRDS}),
]


@pytest.mark.parametrize(("facing", "size", "expected"), CHAIN_ODDS)
def test_extra_hexes_are_one_chain(
    rules: Rules, facing: str, size: str, expected: dict[str, Fraction]
) -> None:
    assert sum(expected.values()) == 1
    assert chances(rules, "convoy.movement", facing=facing, size=size) == expected


@pytest.mark.parametrize(
    ("flags", "p"),
    [
        ({"scurvy": "yes"}, Fraction(1, 2)),  # 4, 5, 6
        ({"battle_hardened": "yes"}, Fraction(5, 6)),  # 2 to 6
    ],
)
def test_the_chain_with_a_harder_or_easier_die(
    rules: Rules, flags: dict[str, str], p: Fraction
) -> None:
    table = chances(rules, "convoy.movement", facing="wind-from-rear", size="small", **flags)
    assert table == chain(2, p, first=True, additions=3)
    # a large ship with the wind on the rear quarter: the same chain from 3 hexes
    table = chances(
        rules, "convoy.movement", facing="wind-from-rear-quarter", size="large", **flags
    )
    assert table == chain(3, p, first=True, additions=3)


def test_a_scurvy_chain_halves_at_each_link(rules: Rules) -> None:
    # scurvy: 4, 5, 6 gain the hex, 1/2 a link; 2 hexes, the 3rd, then up to 3 additions
    table = chances(rules, "convoy.movement", facing="wind-from-rear", size="small", scurvy="yes")
    assert table == {
        "2 hexes": Fraction(1, 2),
        "3 hexes": Fraction(1, 4),
        "4 hexes": Fraction(1, 8),
        "5 hexes": Fraction(1, 16),
        "6 hexes": Fraction(1, 16),
    }


def test_a_failed_first_link_ends_the_move(rules: Rules) -> None:
    for seed in range(60):
        resolution = resolve(
            rules, "convoy.movement", seed, facing="wind-from-rear-quarter", size="large"
        )
        if resolution.rolls[0].total == 0:
            break
    else:
        pytest.fail("no seed failed the first roll")
    # only the All ships roll: the additions are never rolled
    assert [r.expression for r in resolution.rolls] == ["1d6>=3"]
    assert resolution.outcome.result == "3 hexes"
    for seed in range(200):
        resolution = resolve(rules, "convoy.movement", seed, facing="wind-from-rear", size="small")
        if resolution.outcome.result == "6 hexes":
            break
    else:
        pytest.fail("no seed gave 6 hexes")
    # the first link and three additions, no fifth roll
    assert [r.total for r in resolution.rolls] == [1, 1, 1, 1]


def test_the_chain_decides_whether_a_fog_hex_is_reached(rules: Rules) -> None:
    # wind from rear, small: hex 4 is reached on two successes running (4/9); fog there
    # ends the move on 1, 2
    table = chances(rules, "convoy.movement", facing="wind-from-rear", size="small", fog_hex="4")
    assert table["stopped by fog in hex 4"] == Fraction(4, 9) * Fraction(1, 3)
    assert table["2 hexes"] == Fraction(1, 3)
    assert table["3 hexes"] == Fraction(2, 9)


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


# ---------------------------------------------------------------- gunnery: the playsheet's bans


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"shooter_in_fog": "yes"}, "shooter_in_fog=yes: no shot, cannot shoot in or out of fog"),
        (
            {"target_in_fog": "yes"},
            r"target_in_fog=yes: no shot, cannot shoot in or out of fog \(Fog\)",
        ),
        ({"target_in_fog": "yes", "chaser": "yes"}, "cannot shoot in or out of fog"),
        ({"shooter_aground": "yes"}, r"no shot, whilst grounded no shooting at all \(Shallows\)"),
        ({"shooter_aground": "yes", "chaser": "yes"}, "whilst grounded no shooting at all"),
        ({"shooter_struck": "yes"}, r"no shot, a struck ship does not shoot \(Struck ships\)"),
        ({"target_struck": "yes"}, r"no shot, a struck ship is not shot at \(Struck ships\)"),
        (
            {"shooter_captured": "yes"},
            r"shot=normal: a captured ship is only allowed opportunity shooting \(Captured",
        ),
        ({"shooter_captured": "yes", "shot": "return"}, "shot=return: a captured ship is only"),
        ({"shooter_captured": "yes", "chaser": "yes"}, "shot=normal: a captured ship is only"),
        (
            {"shooter_captured": "yes", "shot": "opportunity", "range": "2"},
            "opportunity shooting is only allowed at 1 hex range",
        ),
    ],
)
def test_gunnery_refuses_the_shots_the_playsheet_bans(
    rules: Rules, raw: dict[str, str], message: str
) -> None:
    resolver = get_resolver("convoy.gunnery")
    with pytest.raises(ResolveInputError, match=message):
        parse_inputs(resolver, rules, raw)


def test_a_captured_ship_shoots_opportunity_shots_as_scurvy(rules: Rules) -> None:
    # 4 gun markers 8 dice, scurvy -2, opportunity -3: 3 dice, each hitting on a 6 or on
    # the re-roll of a miss, 1/6 + 5/6 * 1/6 = 11/36
    per_die = Fraction(11, 36)
    expected = {hits_name(k): binomial(3, k, per_die) for k in range(4)}
    assert expected["no hits"] == Fraction(15625, 46656)
    table = chances(rules, "convoy.gunnery", guns="4", shooter_captured="yes", shot="opportunity")
    assert table == expected
    # a captured ship counts as scurvy once, whether or not scurvy is given too
    assert (
        chances(
            rules,
            "convoy.gunnery",
            guns="4",
            shooter_captured="yes",
            scurvy="yes",
            shot="opportunity",
        )
        == expected
    )
    resolution = resolve(
        rules, "convoy.gunnery", 5, guns="4", shooter_captured="yes", shot="opportunity"
    )
    assert [(a.source, a.value) for a in resolution.applied] == [
        ("convoy.gunnery-modifiers:per-gun-marker", 8),
        ("convoy.gunnery-modifiers:scurvy", -2),
        ("convoy.gunnery-modifiers:opportunity-or-return", -3),
    ]
    assert dict(resolution.outcome.details)["dice"] == 3
    assert "Target may return shoot (hits received)" not in resolution.outcome.changes


def test_a_captured_ships_chasers_take_no_scurvy(rules: Rules) -> None:
    table = chances(
        rules, "convoy.gunnery", chaser="yes", shooter_captured="yes", shot="opportunity"
    )
    assert table == {"1 hit": Fraction(1, 6), "no hits": Fraction(5, 6)}
    resolution = resolve(
        rules, "convoy.gunnery", 2, chaser="yes", shooter_captured="yes", shot="opportunity"
    )
    assert resolution.applied == []


def test_the_bans_come_from_the_data(tmp_path: Path) -> None:
    # a club that lets ships shoot out of fog: the same shot is then rolled as usual
    fog = dict(RULES_YAML["tables"]["fog"])
    fog["params"] = {**fog["params"], "shooting_in_or_out": True}
    house = tmp_path / "club.yaml"
    house.write_text(yaml.safe_dump({"convoy": {"fog": fog}}), encoding="utf-8")
    club = load_rules(house)
    assert chances(club, "convoy.gunnery", chaser="yes", shooter_in_fog="yes") == {
        "1 hit": Fraction(1, 6),
        "no hits": Fraction(5, 6),
    }


# ---------------------------------------------------------------- the battle clock


@pytest.mark.parametrize("loop", [36, 42, 48])
@pytest.mark.parametrize("move", [3, 4, 5])
def test_the_battle_clock_moves_the_chosen_spaces_round_its_loop(
    rules: Rules, loop: int, move: int
) -> None:
    # no dice: the moving player chooses 3, 4 or 5; the loop is completed at its length
    assert chances(rules, "convoy.battle-clock", loop=str(loop), move=str(move)) == {
        f"clock at {move} of {loop}": Fraction(1)
    }
    last = loop - move  # the space from which this move completes the loop
    assert chances(
        rules, "convoy.battle-clock", loop=str(loop), move=str(move), space=str(last - 1)
    ) == {f"clock at {loop - 1} of {loop}": Fraction(1)}
    for space in (last, loop - 1):
        assert chances(
            rules, "convoy.battle-clock", loop=str(loop), move=str(move), space=str(space)
        ) == {"loop completed: game ends": Fraction(1)}


def test_the_battle_clock_says_where_it_stands_and_why_the_game_ends(rules: Rules) -> None:
    resolution = resolve(rules, "convoy.battle-clock", 1, loop="36", space="30", move="4")
    assert resolution.outcome.changes == ("Battle clock: move it to space 34",)
    assert dict(resolution.outcome.details) == {
        "space": 34,
        "loop": 36,
        "loop_completed": False,
        "game_ends": False,
    }
    assert resolution.rolls == []
    resolution = resolve(rules, "convoy.battle-clock", 1, loop="36", space="34", move="5")
    assert resolution.outcome.result == "loop completed: game ends"
    assert resolution.outcome.changes == (
        "Battle clock: move it to space 36, the end of its loop",
        "Game ends at end of turn (loop completed)",
    )
    # all merchant ships exited or captured: the game ends whatever the clock says
    resolution = resolve(
        rules, "convoy.battle-clock", 1, loop="48", space="20", move="3", merchants_gone="yes"
    )
    assert resolution.outcome.result == "clock at 23 of 48: game ends"
    assert resolution.outcome.changes[-1] == (
        "Game ends at end of turn (all merchant ships exited / captured)"
    )
    resolution = resolve(
        rules, "convoy.battle-clock", 1, loop="36", space="35", move="3", merchants_gone="yes"
    )
    assert resolution.outcome.changes[-1] == (
        "Game ends at end of turn (loop completed and all merchant ships exited / captured)"
    )


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"loop": "36", "move": "6"}, "move=6: not one of 3, 4, 5"),
        ({"loop": "36", "move": "2"}, "move=2: not one of 3, 4, 5"),
        ({"loop": "40", "move": "3"}, "loop=40: not one of 36, 42, 48"),
        ({"loop": "36", "move": "3", "space": "36"}, "space=36 is not on a 36-space loop"),
        ({"loop": "36", "move": "3", "space": "-1"}, "space=-1: at least 0"),
        ({"move": "3"}, "missing loop=VALUE"),
    ],
)
def test_the_battle_clock_refuses_what_the_rules_do_not_allow(
    rules: Rules, raw: dict[str, str], message: str
) -> None:
    resolver = get_resolver("convoy.battle-clock")
    with pytest.raises(ResolveInputError, match=message):
        parse_inputs(resolver, rules, raw)


def test_the_battle_clock_reads_its_moves_and_loops_from_the_data(tmp_path: Path) -> None:
    # a club whose clock moves 2 or 6 round a 20-space loop
    clock = dict(RULES_YAML["tables"]["battle-clock"])
    clock["params"] = {**clock["params"], "clock_moves": [2, 6]}
    scenario = dict(RULES_YAML["tables"]["scenario"])
    scenario["params"] = {**scenario["params"], "clock_loop_spaces": [20]}
    house = tmp_path / "club.yaml"
    house.write_text(
        yaml.safe_dump({"convoy": {"battle-clock": clock, "scenario": scenario}}),
        encoding="utf-8",
    )
    club = load_rules(house)
    assert chances(club, "convoy.battle-clock", loop="20", move="6", space="13") == {
        "clock at 19 of 20": Fraction(1)
    }
    assert chances(club, "convoy.battle-clock", loop="20", move="2", space="18") == {
        "loop completed: game ends": Fraction(1)
    }
    resolver = get_resolver("convoy.battle-clock")
    with pytest.raises(ResolveInputError, match="move=3: not one of 2, 6"):
        parse_inputs(resolver, club, {"loop": "20", "move": "3"})


def test_a_loop_that_does_not_end_the_game_goes_round(tmp_path: Path) -> None:
    clock = dict(RULES_YAML["tables"]["battle-clock"])
    clock["params"] = {**clock["params"], "game_ends_when_loop_completed": False}
    house = tmp_path / "club.yaml"
    house.write_text(yaml.safe_dump({"convoy": {"battle-clock": clock}}), encoding="utf-8")
    club = load_rules(house)
    # 34 + 5 = 39 on a loop of 36: round to space 3, the game goes on
    assert chances(club, "convoy.battle-clock", loop="36", move="5", space="34") == {
        "clock at 3 of 36": Fraction(1)
    }


def test_a_captured_ship_sails_as_scurvy_and_a_struck_ship_neither_moves_nor_recovers(
    rules: Rules,
) -> None:
    """Captured ships: "All scurvy ... Normal movement rules"; struck ships: "Does not move,
    shoot, recover, is not shot at" (the playsheet's front)."""
    half = Fraction(1, 2)  # the extra-hex die succeeds on 4-6, scurvy's 1 harder than 3-6
    captured = chances(
        rules, "convoy.movement", facing="wind-from-rear", size="small", captured="yes"
    )
    assert captured == {
        "2 hexes": half,
        "3 hexes": half**2,
        "4 hexes": half**3,
        "5 hexes": half**4,
        "6 hexes": half**4,
    }
    both = chances(
        rules, "convoy.movement", facing="wind-from-rear", size="small", captured="yes",
        scurvy="yes",
    )  # fmt: skip
    assert both == captured  # scurvy once, however it comes
    trace = resolve(rules, "convoy.movement", 3, facing="wind-from-rear", captured="yes")
    assert any("Captured ship, all scurvy" in line for line in trace.lines)
    for resolver_id, inputs, rule in (
        ("convoy.movement", {"facing": "wind-from-rear"}, "a struck ship does not move"),
        ("convoy.recovery", {"crew": "3"}, "a struck ship does not recover"),
    ):
        with pytest.raises(ResolveInputError, match=rf"{resolver_id}: struck=yes: {rule}"):
            chances(rules, resolver_id, struck="yes", **inputs)
    assert chances(rules, "convoy.recovery", crew="1", struck="no") == {
        "1 success": Fraction(1, 3),
        "no successes": Fraction(2, 3),
    }


def test_recovery_at_zero_crew_is_one_die_battle_hardened_or_not(rules: Rules) -> None:
    """At zero crew "Zero level: Crew 1D6 recovery roll" is the whole roll: battle hardened
    adds no die to it (the decision in convoy.recovery's note); "Minimum 1D6" agrees."""
    one_die = {"1 success": SUCCESS, "no successes": 1 - SUCCESS}
    assert chances(rules, "convoy.recovery", crew="0", battle_hardened="yes") == one_die
    assert chances(rules, "convoy.recovery", crew="0") == one_die
    # with crew the battle hardened die still counts: 1 crew + 1 = 2 dice
    assert (
        chances(rules, "convoy.recovery", crew="1", battle_hardened="yes")["2 successes"]
        == SUCCESS**2
    )
    resolution = resolve(rules, "convoy.recovery", 4, crew="0", battle_hardened="yes")
    assert [r.expression for r in resolution.rolls] == ["1d6>=5"]
    assert resolution.applied == []
    assert any(line.startswith("Crew at zero: 1D6 is the whole roll") for line in resolution.lines)
    note = rules.table("convoy.recovery").note
    assert "battle hardened or not" in note and "Zero level: Crew 1D6 recovery roll" in note
