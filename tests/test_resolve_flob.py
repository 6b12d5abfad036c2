"""Form Line of Battle resolvers, checked against the rules' own numbers."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest

from generator.loading import Rules
from generator.lookup import lookup
from generator.resolve import (
    Context,
    Outcome,
    ResolveInputError,
    SteppedResolver,
    get_resolver,
    parse_inputs,
)
from generator.resolve.engine import EnumeratingContext
from generator.resolve.flob import ATTACKER, DEFENDER, Melee
from tests.resolving import chances, resolve


def with_word(table: dict[str, Fraction], word: str) -> Fraction:
    return sum((c for result, c in table.items() if word in result), Fraction(0))


def outcomes(rules: Rules, resolver_id: str, **raw: str) -> dict[Outcome, Fraction]:
    """Return the exact chance of each whole outcome (result, changes and details)."""
    resolver = get_resolver(resolver_id)
    inputs = parse_inputs(resolver, rules, raw)
    found: dict[Outcome, Fraction] = {}
    pending: list[tuple[int, ...]] = [()]
    while pending:
        prefix = pending.pop()
        ctx = EnumeratingContext(rules, prefix)
        outcome = resolver.resolve(ctx, inputs)
        found[outcome] = found.get(outcome, Fraction(0)) + ctx.chance
        for depth in range(len(prefix), len(ctx.taken)):
            pending += [(*ctx.taken[:depth], other) for other in range(1, len(ctx.options[depth]))]
    return found


def chance_that(table: dict[Outcome, Fraction], test: Any) -> Fraction:
    return sum((c for outcome, c in table.items() if test(outcome)), Fraction(0))


# --- 4.1 the turn-order deck ----------------------------------------------------------


def test_turn_order_either_colour_goes_first_as_often(rules: Rules) -> None:
    assert chances(rules, "flob.turn-order") == {
        "red first": Fraction(1, 2),
        "black first": Fraction(1, 2),
    }


def test_turn_order_every_colour_order_is_one_in_twenty(rules: Rules) -> None:
    table = outcomes(rules, "flob.turn-order")
    orders = {dict(o.details)["colours"]: c for o, c in table.items()}
    # 6 cards, 3 of each colour: 6! / (3! 3!) = 20 orders, each as likely
    assert len(orders) == 20
    assert set(orders.values()) == {Fraction(1, 20)}
    assert all(o.count("red") == o.count("black") == 3 for o in orders)
    assert orders[("red", "black", "black", "red", "red", "black")] == Fraction(1, 20)


def test_turn_order_phases_follow_each_colours_cards(rules: Rules) -> None:
    table = outcomes(rules, "flob.turn-order")
    one = next(
        o
        for o in table
        if dict(o.details)["colours"] == ("red", "black", "black", "red", "red", "black")
    )
    assert one.result == "red first"
    assert one.changes == (
        "1. Red player: Command Phase (1st red card)",
        "2. Black player: Command Phase (1st black card)",
        "3. Black player: Action Phase (2nd black card)",
        "4. Red player: Action Phase (2nd red card)",
        "5. Red player: Action Phase (3rd red card)",
        "6. Black player: Action Phase (3rd black card)",
    )
    # both Command Phases come first when the first two cards differ: 2 * 3/6 * 3/5
    both = chance_that(
        table,
        lambda o: [p for _, p in dict(o.details)["phases"][:2]] == ["Command Phase"] * 2,
    )
    assert both == Fraction(3, 5)
    # a player's three phases in a row (its colour's three cards first): 2 * 1/20
    assert chance_that(table, lambda o: len(set(dict(o.details)["colours"][:3])) == 1) == Fraction(
        1, 10
    )


def test_turn_order_reads_the_deck_from_the_data(rules: Rules) -> None:
    params = rules.table("flob.turn-sequence").params
    resolution = resolve(rules, "flob.turn-order", 7)
    colours = dict(resolution.outcome.details)["colours"]
    assert colours.count("red") == params["red_cards"]
    assert colours.count("black") == params["black_cards"]
    # every card is turned over; a draw is rolled while both colours are left
    assert resolution.rolls[0].expression == "1d6"
    assert resolution.rolls[0].reason == "Card 1 (3 red, 3 black left)"
    assert len(resolution.outcome.changes) == 6


class Scripted(Context):
    """A context whose dice show the values given, in order (to test single rounds)."""

    def __init__(self, rules: Rules, values: list[Any]) -> None:
        super().__init__(rules)
        self.values: Iterator[Any] = iter(values)
        self.expressions: list[str] = []
        self.lines: list[str] = []

    def roll(self, expression: str, reason: str) -> int:
        self.expressions.append(expression)
        return int(next(self.values))

    def roll_dice(self, count: int, sides: int, reason: str) -> tuple[int, ...]:
        return tuple(next(self.values))

    def explain(self, text: str) -> None:
        self.lines.append(text)


# --- movement -----------------------------------------------------------------------


def test_movement_rolls_the_dice_of_the_sailing_table(rules: Rules) -> None:
    # Class 1 square rigger beating, average crew: 1 die
    one = chances(rules, "flob.movement", point_of_sail="beating", ship_class="1")
    assert one == {f"moves {n}": Fraction(1, 6) for n in range(1, 7)}
    # Class 2 square rigger broad reaching: 4 dice, 4..24
    four = chances(rules, "flob.movement", point_of_sail="broad-reaching", ship_class="2")
    assert four["moves 4"] == Fraction(1, 6**4)
    assert sum(four.values()) == 1 and len(four) == 21


def test_movement_beating_option_rolls_two_dice_to_choose_from(rules: Rules) -> None:
    table = chances(rules, "flob.movement", point_of_sail="beating", ship_class="1", crew="veteran")
    assert table["moves 2 or 5"] == Fraction(2, 36)
    assert table["moves 4"] == Fraction(1, 36)
    # no option once a mast is lost: 5.11 takes 1 die down to 1d6-1
    lost = chances(
        rules,
        "flob.movement",
        point_of_sail="beating",
        ship_class="1",
        crew="elite",
        masts_lost="1",
    )
    assert lost == {f"moves {n}": Fraction(1, 6) for n in range(6)}


def test_movement_lost_masts_use_the_5_11_table(rules: Rules) -> None:
    # 4 dice usually; one mast lost: 3d6
    table = chances(
        rules, "flob.movement", point_of_sail="broad-reaching", ship_class="2", masts_lost="1"
    )
    assert table["moves 3"] == Fraction(1, 216) and table["moves 18"] == Fraction(1, 216)
    # a 2-masted vessel losing 1 mast uses the second column: 2d6
    two = chances(
        rules,
        "flob.movement",
        point_of_sail="broad-reaching",
        ship_class="2",
        masts_lost="1",
        two_masted="yes",
    )
    assert two["moves 7"] == Fraction(6, 36)
    # 1 die usually, 2 masts lost: 1d6-2, read as never below 0
    assert chances(
        rules,
        "flob.movement",
        point_of_sail="running",
        rig="fore-and-aft-rigged",
        masts_lost="2",
    )["moves 0"] == Fraction(2, 6)


def test_movement_refuses_a_dismasted_two_master(rules: Rules) -> None:
    with pytest.raises(ResolveInputError, match="dismasted and does not move"):
        chances(rules, "flob.movement", masts_lost="2", two_masted="yes")


# --- tacking ------------------------------------------------------------------------


def test_tacking_succeeds_on_5_or_better(rules: Rules) -> None:
    # the one unused point the tack needs counts +1 too: 2d6 + 1 >= 5, i.e. 2d6 >= 4
    assert chances(rules, "flob.tacking") == {
        "tacks": Fraction(33, 36),
        "into irons": Fraction(3, 36),
    }
    # superior +2, three unused points +3, one mast lost -2, gale -1: 2d6 + 2 >= 5
    table = chances(
        rules, "flob.tacking", captain="superior", unused_points="3", masts_lost="1", gale="yes"
    )
    assert table == {"tacks": Fraction(35, 36), "into irons": Fraction(1, 36)}


def test_tacking_counts_every_unused_point_the_first_included(rules: Rules) -> None:
    # inept -1, two masts lost -4: 2d6 - 5 + points >= 5, i.e. 2d6 >= 10 - points
    needed = {1: 9, 2: 8, 4: 6}
    at_least = {9: Fraction(10, 36), 8: Fraction(15, 36), 6: Fraction(26, 36)}
    for points, score in needed.items():
        table = chances(
            rules, "flob.tacking", captain="inept", masts_lost="2", unused_points=str(points)
        )
        assert table["tacks"] == at_least[score], points
    one = resolve(rules, "flob.tacking", 1)
    assert ("flob.tacking-modifiers:unused-turn", 1) in [(a.source, a.value) for a in one.applied]


def test_tacking_reading_is_printed_with_the_modifiers(rules: Rules) -> None:
    from generator.render.kinds import quick_reference as qr

    block = qr.block(rules.table("flob.tacking-modifiers"))
    note = " ".join(block["note"].split())
    assert "counts every unused point, the first (the one the tack requires) included" in note
    assert ["for each unused point of turn", "+1"] in [
        [item["label"], item["value"]] for group in block["groups"] for item in group["items"]
    ]


def test_tacking_needs_an_unused_point_of_turn(rules: Rules) -> None:
    with pytest.raises(ResolveInputError, match="at least 1 unused point of turn"):
        chances(rules, "flob.tacking", unused_points="0")


def test_tacking_records_modifiers_with_sources(rules: Rules) -> None:
    resolution = resolve(rules, "flob.tacking", 3, captain="inept", masts_lost="2", gale="yes")
    sources = {a.source: a.value for a in resolution.applied}
    assert sources == {
        "flob.tacking-modifiers:captain-skill": -1,
        "flob.tacking-modifiers:unused-turn": 1,
        "flob.tacking-modifiers:mast-lost": -4,
        "flob.tacking-modifiers:gale": -1,
    }


# --- repairs and fires ----------------------------------------------------------------


def test_repairs_use_the_score_for_damage_and_crew(rules: Rules) -> None:
    assert chances(rules, "flob.repairs", damage="freeing-fallen-masts")["succeeds"] == Fraction(
        1, 2
    )
    # wheel with no crew needs 6; a superior captain's +2 makes it 4 or more
    table = chances(rules, "flob.repairs", damage="repairing-wheel", crew_parties="0")
    assert table["succeeds"] == Fraction(1, 6)
    table = chances(
        rules, "flob.repairs", damage="repairing-wheel", crew_parties="0", captain="superior"
    )
    assert table["succeeds"] == Fraction(3, 6)


def test_fire_fighting_by_severity_crew_and_quality(rules: Rules) -> None:
    # 2 or 3 HF with crew: 5 or 6; elite +2 makes it 3 or more
    assert chances(rules, "flob.fire-fighting", fire="3", crew="elite") == {
        "fire put out": Fraction(4, 6),
        "fire burns on": Fraction(2, 6),
    }
    # a mast fire with no crew needs 6; a poor crew's -1 puts it out of reach
    assert chances(rules, "flob.fire-fighting", fire="mast", crew_parties="0", crew="poor") == {
        "fire burns on": Fraction(1)
    }
    # 5 HF or more (any count from 5 up) and 4 HF with no crew cannot be fought
    for count in ("5", "6", "7", "12", "100"):
        for parties in ("4", "0"):
            assert chances(rules, "flob.fire-fighting", fire=count, crew_parties=parties) == {
                "impossible": Fraction(1)
            }
    # 4 HF with crew needs a 6: elite +2 makes it 4 or more
    assert chances(rules, "flob.fire-fighting", fire="4", crew="elite") == {
        "fire put out": Fraction(3, 6),
        "fire burns on": Fraction(3, 6),
    }
    assert chances(rules, "flob.fire-fighting", fire="4", crew_parties="0") == {
        "impossible": Fraction(1)
    }


def test_fire_fighting_refuses_an_unknown_fire(rules: Rules) -> None:
    with pytest.raises(ResolveInputError, match="number of hull fires"):
        chances(rules, "flob.fire-fighting", fire="hull")
    with pytest.raises(ResolveInputError, match="at least 1 hull fire"):
        chances(rules, "flob.fire-fighting", fire="0")
    with pytest.raises(ResolveInputError, match=r"fire=9+.*too many digits"):
        chances(rules, "flob.fire-fighting", fire="9" * 5000)


# --- reloading ----------------------------------------------------------------------


def test_reloading_elite_crew_double_round_shot(rules: Rules) -> None:
    # elite +2, double round shot -2: 2d6 >= 5
    assert chances(rules, "flob.reloading", crew="elite", ammo="double-round-shot") == {
        "succeeds": Fraction(30, 36),
        "fails": Fraction(6, 36),
    }
    # poor -1, double round shot with grape -4: 2d6 >= 10
    table = chances(rules, "flob.reloading", crew="poor", ammo="double-round-shot-with-grape")
    assert table["succeeds"] == Fraction(6, 36)


def test_reloading_counts_reload_actions(rules: Rules) -> None:
    for seed in range(20):
        resolution = resolve(
            rules, "flob.reloading", seed, crew="elite", ammo="double-round-shot-with-grape"
        )
        if resolution.outcome.result == "succeeds":
            assert resolution.outcome.changes == (
                "Broadside: reload action 1 of 3 done for Double Round Shot with Grape",
            )
            break
    else:
        pytest.fail("no seed reloaded")
    with pytest.raises(ResolveInputError, match="takes 1 reload action"):
        chances(rules, "flob.reloading", ammo="grapeshot", actions_done="1")


# --- broadside ----------------------------------------------------------------------


def test_attack_number_5_at_a_roll_gives_the_table_cell(rules: Rules) -> None:
    # Broadside 9 - Hull 4, Medium range for Gunnery Class A (0): attack number 5
    resolution = resolve(rules, "flob.broadside", 3, broadside="9", target_hull="4", range="medium")
    assert dict(resolution.outcome.details)["attack"] == 5
    total = resolution.rolls[0].total
    assert total == 7
    cell = lookup(rules, "flob.broadside", {"attack": 5, "roll": total})
    assert cell.text == "rr"
    assert resolution.outcome.result == "rr"
    assert resolution.outcome.changes == ("Target: -1 Broadside",)


def test_broadside_odds_follow_the_attack_number_row(rules: Rules) -> None:
    # row 5: 2-4 3rr, 5-6 2rr, 7-11 rr, 12 no effect; grapeshot causes no critical hits
    assert chances(rules, "flob.broadside", attack="5", ammo="grapeshot") == {
        "3rr": Fraction(6, 36),
        "2rr": Fraction(9, 36),
        "rr": Fraction(20, 36),
        "no effect": Fraction(1, 36),
    }
    # the same row reached from ratings and range (8 - 4, Short +1) gives the same odds
    assert chances(
        rules, "flob.broadside", broadside="8", target_hull="4", range="short", ammo="grapeshot"
    ) == chances(rules, "flob.broadside", attack="5", ammo="grapeshot")
    # open-ended rows
    assert chances(rules, "flob.broadside", attack="30") == chances(
        rules, "flob.broadside", attack="12"
    )
    assert chances(rules, "flob.broadside", attack="-20", ammo="grapeshot") == {
        "rr": Fraction(1, 36),
        "no effect": Fraction(35, 36),
    }


def test_doubles_with_round_shot_cause_a_critical_hit(rules: Rules) -> None:
    # attack 7 damages on every roll: a critical on each of the 6 doubles
    assert with_word(chances(rules, "flob.broadside", attack="7"), "critical") == Fraction(6, 36)
    # attack 5: 6-6 is no effect, so only 5 doubles do damage
    assert with_word(chances(rules, "flob.broadside", attack="5"), "critical") == Fraction(5, 36)
    # grapeshot and chainshot cause no critical hits
    for ammo in ("grapeshot", "chainshot"):
        assert with_word(chances(rules, "flob.broadside", attack="7", ammo=ammo), "critical") == 0
    # seed 0 rolls 4 and 4: row 7, roll 8 is rr, and a critical hit is rolled
    resolution = resolve(rules, "flob.broadside", 0, attack="7")
    assert [d["value"] for d in resolution.rolls[0].dice] == [4, 4]
    assert resolution.outcome.result == "rr + critical"
    assert resolution.rolls[1].reason == "Critical hit effect"
    assert dict(resolution.outcome.details)["critical"] is not None
    grape = resolve(rules, "flob.broadside", 0, attack="7", ammo="grapeshot")
    assert grape.outcome.result == "rr"


def test_broadside_records_modifiers_with_sources(rules: Rules) -> None:
    resolution = resolve(
        rules,
        "flob.broadside",
        3,
        broadside="10",
        target_hull="5",
        range="point-blank",
        ammo="double-round-shot",
        rake="stern",
        crew="veteran",
        volley="initial",
    )
    sources = [(a.source, a.value) for a in resolution.applied]
    assert sources == [
        ("flob.range-modifiers", 4),
        ("flob.tactical-modifiers:stern-rake", 3),
        ("flob.tactical-modifiers:double-round-shot", 2),
        ("flob.tactical-modifiers:veteran-crew", 1),
        ("flob.tactical-modifiers:initial-broadside", 2),
    ]
    assert dict(resolution.outcome.details)["attack"] == 5 + 4 + 3 + 2 + 1 + 2


def test_broadside_withholds_modifiers_the_rules_exclude(rules: Rules) -> None:
    # chasers get no rake and no initial broadside; class D no double-shot bonus
    resolution = resolve(
        rules,
        "flob.broadside",
        1,
        broadside="6",
        target_hull="4",
        range="short",
        chaser="yes",
        rake="bow",
        volley="initial",
        gunnery_class="D",
        ammo="double-round-shot",
    )
    assert [a.source for a in resolution.applied] == ["flob.range-modifiers"]
    assert dict(resolution.outcome.details)["attack"] == 2 + 1
    # raking only at point blank or short
    far = resolve(rules, "flob.broadside", 1, broadside="6", target_hull="4", range="long")
    raked = resolve(
        rules, "flob.broadside", 1, broadside="6", target_hull="4", range="long", rake="stern"
    )
    assert dict(far.outcome.details)["attack"] == dict(raked.outcome.details)["attack"] == -2


def test_weather_halves_a_positive_attack_number(rules: Rules) -> None:
    resolution = resolve(
        rules, "flob.broadside", 1, broadside="12", target_hull="4", range="short", weather="half"
    )
    # 8 + 1 = 9, halved and rounded down: 4
    assert dict(resolution.outcome.details)["attack"] == 4
    assert ("flob.tactical-modifiers:weather", -5) in [
        (a.source, a.value) for a in resolution.applied
    ]


@pytest.mark.parametrize(
    ("broadside", "before", "after"),
    [
        (15, 12, 6),  # even: 12 / 2
        (14, 11, 5),  # odd: 5.5 rounded down
        (4, 1, 0),  # 1 halved rounds down to 0
        (3, 0, 0),  # 0 is not halved
        (0, -3, -3),  # a negative number is not halved (not -1: never a better shot)
    ],
)
def test_weather_half_never_improves_a_shot(
    rules: Rules, broadside: int, before: int, after: int
) -> None:
    # Broadside - Hull 4, Short range for Gunnery Class A +1: `before`; x ½ comes last
    inputs = {"broadside": str(broadside), "target_hull": "4", "range": "short"}
    plain = resolve(rules, "flob.broadside", 1, **inputs)
    halved = resolve(rules, "flob.broadside", 1, weather="half", **inputs)
    assert dict(plain.outcome.details)["attack"] == before
    assert dict(halved.outcome.details)["attack"] == after
    weather = [a.value for a in halved.applied if a.source == "flob.tactical-modifiers:weather"]
    assert weather == ([after - before] if after != before else [])


def test_weather_half_odds_are_those_of_the_row_it_leaves(rules: Rules) -> None:
    # Broadside 0 - Hull 4 + Short 1 = -3, not halved: row -3 (2 is 2rr, 3-5 rr)
    table = chances(
        rules,
        "flob.broadside",
        broadside="0",
        target_hull="4",
        range="short",
        ammo="grapeshot",
        weather="half",
    )
    assert table == {"2rr": Fraction(1, 36), "rr": Fraction(9, 36), "no effect": Fraction(26, 36)}
    # 14 - 4 + 1 = 11, halved: row 5 (2-4 3rr, 5-6 2rr, 7-11 rr, 12 no effect)
    table = chances(
        rules,
        "flob.broadside",
        broadside="14",
        target_hull="4",
        range="short",
        ammo="grapeshot",
        weather="half",
    )
    assert table == {
        "3rr": Fraction(6, 36),
        "2rr": Fraction(9, 36),
        "rr": Fraction(20, 36),
        "no effect": Fraction(1, 36),
    }


def test_weather_half_is_printed_as_the_resolver_reads_it(rules: Rules) -> None:
    reading = "an Attack Number of 0 or less is not halved"
    assert reading in " ".join(rules.table("flob.weather").note.split())
    assert reading in " ".join(rules.table("flob.tactical-modifiers").note.split())
    assert "towards zero" not in rules.table("flob.weather").note
    gale = next(c for c in rules.table("flob.weather").cells if c["gale"])
    assert "0 or less is not halved" in gale["effect_text"]
    assert "rounding down" in gale["effect_text"]


def test_firing_high_the_hull_losses_are_mast_losses(rules: Rules) -> None:
    # row 7: 2-5 3rr (10/36), 6-7 2rr (11/36), 8-12 rr (15/36); Single Round Shot:
    # rr 1 Broadside; 2rr 2 Broadside, 1 Hull, 1 Crew; 3rr 3 Broadside, 2 Hull, 2 Crew
    high = outcomes(rules, "flob.broadside", attack="7", fire="high")
    low = outcomes(rules, "flob.broadside", attack="7")

    def ammunition(outcome: Outcome) -> str:
        return outcome.changes[0]

    assert chance_that(
        high, lambda o: ammunition(o) == "Target: -3 Broadside, -2 Crew, -2 Mast"
    ) == Fraction(10, 36)
    assert chance_that(
        high, lambda o: ammunition(o) == "Target: -2 Broadside, -1 Crew, -1 Mast"
    ) == Fraction(11, 36)
    assert chance_that(high, lambda o: ammunition(o) == "Target: -1 Broadside") == Fraction(15, 36)
    assert chance_that(high, lambda o: "Hull" in ammunition(o)) == 0
    # fired low, the same losses fall on the Hull
    assert chance_that(
        low, lambda o: ammunition(o) == "Target: -3 Broadside, -2 Hull, -2 Crew"
    ) == Fraction(10, 36)
    # the results counted by --odds do not change
    assert chances(rules, "flob.broadside", attack="7", fire="high") == chances(
        rules, "flob.broadside", attack="7"
    )


def test_firing_high_changes_nothing_without_hull_losses(rules: Rules) -> None:
    # chainshot already takes Mast; grapeshot takes no Hull: the same fired high or low
    for ammo in ("chainshot", "grapeshot"):
        assert outcomes(rules, "flob.broadside", attack="7", ammo=ammo, fire="high") == outcomes(
            rules, "flob.broadside", attack="7", ammo=ammo
        )
    # a critical hit 5 or 6 fired high also takes Mast: 6 doubles, then 2 of 6 faces
    high = outcomes(rules, "flob.broadside", attack="7", fire="high")
    assert chance_that(high, lambda o: "Target: -1 Mast rating" in o.changes) == Fraction(1, 36)
    assert chance_that(high, lambda o: "Target: -2 Mast rating" in o.changes) == Fraction(1, 36)


def test_firing_high_is_printed_on_the_table_the_resolver_reads(rules: Rules) -> None:
    table = rules.table("flob.ammunition-effects")
    assert "flob.ammunition-effects" in get_resolver("flob.broadside").tables
    assert table.params["firing_high_hull_is"] == "mast"
    assert "Firing High, the Hull losses are Mast losses" in " ".join(table.note.split())
    printed = " ".join(rules.table("flob.ammunition").note.split())
    assert "Firing High, the Hull losses are Mast losses" in printed


def test_mast_over_firing_side_sets_the_firer_on_fire_on_an_even_total(rules: Rules) -> None:
    table = chances(
        rules, "flob.broadside", attack="-20", ammo="grapeshot", mast_over_firing_side="yes"
    )
    assert with_word(table, "firer on fire") == Fraction(18, 36)


def test_damage_reduction_for_larger_ships_hit_by_smaller(rules: Rules) -> None:
    # a 6th rate hits a 1st rate: 3rr becomes rr, 2rr and rr do nothing; s and str stay
    table = chances(
        rules, "flob.broadside", attack="12", ammo="grapeshot", rate="6", target_rate="1"
    )
    assert table == {
        "rr + shattered": Fraction(6, 36),
        "rr + strike test": Fraction(4, 36),
        "rr": Fraction(11, 36),
        "no effect": Fraction(15, 36),
    }
    # a 4th rate only counts from 1780
    assert (
        chances(rules, "flob.broadside", attack="12", ammo="grapeshot", rate="4", target_rate="1")
        == table
    )
    before = chances(
        rules,
        "flob.broadside",
        attack="12",
        ammo="grapeshot",
        rate="4",
        target_rate="1",
        year="1770",
    )
    assert before["3rr + shattered"] == Fraction(6, 36)
    # stern rake reduces by 1 only
    raked = chances(
        rules,
        "flob.broadside",
        broadside="20",
        target_hull="4",
        range="short",
        ammo="grapeshot",
        rate="6",
        target_rate="2",
        rake="stern",
    )
    assert raked["2rr + shattered"] == Fraction(6, 36)
    # unrated against a 1st to 3rd rate: ignored
    assert chances(rules, "flob.broadside", attack="12", rate="unrated", target_rate="2") == {
        "ignored": Fraction(1)
    }
    # not with the Advanced Rules for Small Actions
    small = chances(
        rules,
        "flob.broadside",
        attack="12",
        ammo="grapeshot",
        rate="unrated",
        target_rate="2",
        small_actions="yes",
    )
    assert small["3rr + shattered"] == Fraction(6, 36)


def test_distance_sets_the_range_band_by_rate(rules: Rules) -> None:
    # 35 cm is Medium for a 1st-3rd rate and Long for a 4th rate or smaller
    big = resolve(rules, "flob.broadside", 1, broadside="8", target_hull="4", distance="35")
    small = resolve(
        rules, "flob.broadside", 1, broadside="8", target_hull="4", distance="35", rate="5"
    )
    assert dict(big.outcome.details)["attack"] == 4
    assert dict(small.outcome.details)["attack"] == 0
    assert "35 cm is Medium range for a 3rd rate." in big.lines
    with pytest.raises(ResolveInputError, match="out of range; Long range for a 5th rate ends"):
        chances(rules, "flob.broadside", broadside="8", target_hull="4", distance="41", rate="5")
    with pytest.raises(ResolveInputError, match="range=Short but distance=35 cm is Medium"):
        chances(
            rules, "flob.broadside", broadside="8", target_hull="4", distance="35", range="short"
        )


def test_broadside_refuses_impossible_shots(rules: Rules) -> None:
    with pytest.raises(ResolveInputError, match="Gunnery Class D cannot fire at Medium range"):
        chances(
            rules,
            "flob.broadside",
            broadside="8",
            target_hull="4",
            range="medium",
            gunnery_class="D",
        )
    with pytest.raises(ResolveInputError, match="Grapeshot has a Max range of Short"):
        chances(
            rules, "flob.broadside", broadside="8", target_hull="4", range="long", ammo="grape shot"
        )
    with pytest.raises(ResolveInputError, match="needs broadside= and target_masts="):
        chances(rules, "flob.broadside", fire="high", broadside="8", target_hull="4")
    with pytest.raises(ResolveInputError, match="leave out broadside, crew"):
        chances(rules, "flob.broadside", attack="5", broadside="8", crew="elite")
    with pytest.raises(ResolveInputError, match="not one of Point Blank, Short, Medium, Long"):
        chances(rules, "flob.broadside", attack="5", range="close")


def test_broadside_strike_results_are_reported(rules: Rules) -> None:
    table = chances(rules, "flob.broadside", attack="12", ammo="grapeshot")
    assert table["3rr + shattered"] == Fraction(6, 36)
    assert table["3rr + strike test"] == Fraction(4, 36)
    for seed in range(200):
        resolution = resolve(rules, "flob.broadside", seed, attack="12", ammo="grapeshot")
        if resolution.outcome.result == "3rr + strike test":
            assert resolution.outcome.changes == (
                "Target: -2 Broadside, -3 Crew",
                "Target must take a Strike Test now (6.11; flob.strike-test)",
            )
            break
    else:
        pytest.fail("no seed gave a strike test")


# --- critical hits ------------------------------------------------------------------


def test_critical_hit_table_and_senior_officer(rules: Rules) -> None:
    table = chances(rules, "flob.critical-hit")
    assert table["captain killed"] == table["captain wounded"] == Fraction(1, 12)
    assert table["1 mast lost"] == table["wheel shot away"] == Fraction(1, 6)
    assert table["fire starts"] == table["hull -1"] == table["hull -2"] == Fraction(1, 6)
    admiral = chances(rules, "flob.critical-hit", admiral_on_board="yes", full_sail="yes")
    assert admiral["admiral killed"] == Fraction(1, 24)
    assert admiral["2 masts lost"] == Fraction(1, 6)
    high = chances(rules, "flob.critical-hit", fire="high")
    assert high["mast -2"] == Fraction(1, 6)


def test_critical_hit_drops_down_past_results_that_cannot_apply(rules: Rules) -> None:
    # no mast and no wheel left: rolls 2 and 3 drop to 4, and 4HF burning goes over 4HF
    table = chances(
        rules, "flob.critical-hit", masts_standing="0", wheel_lost="yes", hull_fires="4"
    )
    assert table["fire out of control"] == Fraction(3, 6)
    assert "1 mast lost" not in table and "wheel shot away" not in table


# --- strike test --------------------------------------------------------------------


def test_strike_test_passes_on_7_or_more(rules: Rules) -> None:
    assert chances(rules, "flob.strike-test") == {
        "passes": Fraction(21, 36),
        "strikes": Fraction(15, 36),
    }
    # poor -1, dismasted -2, two extra tests -2, captain killed -1: 2d6 >= 13
    assert chances(
        rules, "flob.strike-test", crew="poor", masts="dismasted", extra_tests="2", captain="killed"
    ) == {"strikes": Fraction(1)}


def test_strike_test_admiral_counts_only_on_board(rules: Rules) -> None:
    ashore = chances(rules, "flob.strike-test", admiral="superior", admiral_status="wounded")
    assert ashore["passes"] == Fraction(21, 36)
    resolution = resolve(
        rules,
        "flob.strike-test",
        2,
        admiral_on_board="yes",
        admiral="superior",
        admiral_status="wounded",
    )
    assert [(a.source, a.value) for a in resolution.applied] == [
        ("flob.strike-modifiers:admiral-superior", 2),
        ("flob.strike-modifiers:admiral-wounded", 2),
    ]


# --- boarding -----------------------------------------------------------------------


def test_boarding_initiation_superior_attacker_needs_2(rules: Rules) -> None:
    assert chances(rules, "flob.boarding-initiation", attacking_captain="superior") == {
        "boarding begins": Fraction(5, 6),
        "fails": Fraction(1, 6),
    }
    assert chances(rules, "flob.boarding-initiation")["boarding begins"] == Fraction(3, 6)


def test_boarding_initiation_rate_difference_and_manoeuvrability(rules: Rules) -> None:
    # 1st boarding 3rd is at -2: 6 or more, one face
    table = chances(rules, "flob.boarding-initiation", rate="1", target_rate="3")
    assert table["boarding begins"] == Fraction(1, 6)
    resolution = resolve(rules, "flob.boarding-initiation", 1, rate="unrated", target_rate="4")
    assert [(a.source, a.value) for a in resolution.applied] == [
        ("flob.boarding-initiation-modifiers:rate-difference", -3)
    ]
    # a defender that is not manoeuvrable loses its captain's modifier and gives +1
    stuck = resolve(
        rules,
        "flob.boarding-initiation",
        1,
        defending_captain="superior",
        not_manoeuvrable="yes",
        counterboard="yes",
    )
    assert [(a.source, a.value) for a in stuck.applied] == [
        ("flob.boarding-initiation-modifiers:defender-not-manoeuvrable", 1)
    ]


def _step(rules: Rules, state: Melee, values: list[Any], **raw: str) -> tuple[Any, Scripted]:
    resolver = get_resolver("flob.boarding")
    assert isinstance(resolver, SteppedResolver)
    inputs = parse_inputs(resolver, rules, raw)
    ctx = Scripted(rules, values)
    return resolver.step(ctx, inputs, state), ctx


def test_boarding_round_draw_costs_both_a_crew_party(rules: Rules) -> None:
    state = Melee(gunwales=False, boarding=ATTACKER, parties=(4, 4))
    after, ctx = _step(rules, state, [0])
    assert ctx.expressions == ["1d6-1d6"]
    assert after == state._replace(parties=(3, 3), first=False)
    # both at 0 after a draw: the fight ends without strike tests
    spent, _ = _step(rules, Melee(False, ATTACKER, (1, 1)), [0])
    assert isinstance(spent, Outcome) and spent.result == "both crews spent"


def test_boarding_first_round_captain_modifiers(rules: Rules) -> None:
    # attacker 4 parties, captain killed -2; defender 4: dice +2 is a draw in round one
    state = Melee(gunwales=False, boarding=ATTACKER, parties=(4, 4))
    after, _ = _step(rules, state, [2], attacker_captain="killed")
    assert after.parties == (3, 3)
    # in a later round the captain no longer counts: +2 wins by 2
    later, _ = _step(rules, state._replace(first=False), [2], attacker_captain="killed")
    assert later.parties == (4, 3)


def test_boarding_attacker_winning_by_6_makes_the_defender_strike(rules: Rules) -> None:
    state = Melee(gunwales=False, boarding=ATTACKER, parties=(4, 3), first=False)
    outcome, _ = _step(rules, state, [5])
    assert isinstance(outcome, Outcome) and outcome.result == "defender strikes"
    # and twelve crew parties against none always win by 6 or more
    assert chances(rules, "flob.boarding", attacker_parties="12", defender_parties="0") == {
        "defender strikes": Fraction(1)
    }


def test_boarding_repulse_and_counterboard_follow_up(rules: Rules) -> None:
    state = Melee(gunwales=False, boarding=ATTACKER, parties=(4, 4), first=False)
    repulsed, _ = _step(rules, state, [-6])
    assert isinstance(repulsed, Outcome) and repulsed.result == "attacker repulsed"
    assert "Attacker: -2 crew parties (2 left)" in repulsed.changes
    followed, _ = _step(rules, state, [-6], counterboard="yes")
    assert followed == state._replace(boarding=DEFENDER, parties=(2, 4))


def test_boarding_gunwales_push_back(rules: Rules) -> None:
    state = Melee(gunwales=True, boarding=ATTACKER, parties=(4, 4), first=False)
    pushed, _ = _step(rules, state, [-2], counterboard="yes")
    # the attacker loses 1 and is pushed back: the fight goes on on its own deck
    assert pushed == state._replace(gunwales=False, boarding=DEFENDER, parties=(3, 4))
    hard, _ = _step(rules, state, [6], counterboard="yes")
    assert hard == state._replace(gunwales=False, boarding=ATTACKER, parties=(4, 2))


def test_boarding_zero_crew_parties_strike_test_and_excess(rules: Rules) -> None:
    state = Melee(gunwales=False, boarding=ATTACKER, parties=(0, 3), first=False)
    tested, _ = _step(rules, state, [-1])
    # the attacker had none left: the loss comes off its Broadside, then a strike test
    assert tested == state._replace(excess=(1, 0), test=ATTACKER)
    passed, _ = _step(rules, tested, [9])
    assert passed == tested._replace(test=-1, tests=(1, 0))
    # the second test is at -1 (one extra test): 7 on the dice now fails
    again, _ = _step(rules, passed._replace(test=ATTACKER), [7])
    assert isinstance(again, Outcome) and again.result == "attacker strikes"
    assert "Attacker: -1 Broadside (excess casualties)" in again.changes


def test_boarding_break_off(rules: Rules) -> None:
    # 4 against 4 can never be decided in one round; after it the attacker (below 5) leaves
    assert chances(rules, "flob.boarding", break_off_below="5") == {
        "attacker breaks off": Fraction(1)
    }
    state = Melee(gunwales=False, boarding=ATTACKER, parties=(2, 3), first=False)
    followed, ctx = _step(rules, state, [], break_off_below="3", counterboard="yes")
    assert ctx.expressions == []
    assert followed == state._replace(boarding=DEFENDER)


def test_boarding_odds_are_exact(rules: Rules) -> None:
    table = chances(rules, "flob.boarding", attacker_parties="6", defender_parties="4")
    assert sum(table.values()) == 1
    assert set(table) <= {
        "defender strikes",
        "attacker strikes",
        "attacker repulsed",
        "both crews spent",
    }
    assert table["defender strikes"] > table["attacker strikes"]


def test_a_killed_admirals_quality_no_longer_counts(rules: Rules) -> None:
    """The decision in flob.strike-modifiers' note: Superior +2 and Killed -2 would pass on 7
    (7 in 12); with only Killed -2 the ship needs 9 (5 in 18)."""
    killed = {"admiral_on_board": "yes", "admiral": "superior", "admiral_status": "killed"}
    assert chances(rules, "flob.strike-test", **killed) == {
        "passes": Fraction(5, 18),
        "strikes": Fraction(13, 18),
    }
    resolution = resolve(rules, "flob.strike-test", 3, **killed)
    assert [(a.source, a.value) for a in resolution.applied] == [
        ("flob.strike-modifiers:admiral-killed", -2)
    ]
    assert "a killed Admiral's quality" in rules.table("flob.strike-modifiers").note
