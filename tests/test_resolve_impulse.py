"""Impulse resolvers, checked against the rules' own numbers."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from generator.loading import Rules
from generator.resolve import Context, ResolveInputError, get_resolver, parse_inputs
from generator.resolve.base import Applied
from generator.resolve.engine import run
from tests.resolving import chances


def chance_of(table: dict[str, Fraction], test: Any) -> Fraction:
    return sum((p for result, p in table.items() if test(result)), Fraction(0))


class Scripted(Context):
    """A context whose rolls come from a list, to resolve one chosen fall of the dice."""

    def __init__(self, rules: Rules, totals: list[int]) -> None:
        super().__init__(rules)
        self.totals = list(totals)
        self.expressions: list[str] = []
        self.applied: list[Applied] = []
        self.lines: list[str] = []

    def roll(self, expression: str, reason: str) -> int:
        self.expressions.append(expression)
        return self.totals.pop(0)

    def roll_dice(self, count: int, sides: int, reason: str) -> tuple[int, ...]:
        raise AssertionError("impulse resolvers roll notation, not single faces")

    def record(self, applied: Applied) -> None:
        self.applied.append(applied)

    def explain(self, text: str) -> None:
        self.lines.append(text)


def scripted(rules: Rules, totals: list[int], **raw: str) -> tuple[Any, Scripted]:
    resolver = get_resolver("impulse.fire-combat")
    ctx = Scripted(rules, totals)
    outcome = resolver.resolve(ctx, parse_inputs(resolver, rules, raw))
    assert not ctx.totals, "every scripted roll is used"
    return outcome, ctx


def test_damage_roll_of_11_with_three_hits_reads_row_11(rules: Rules) -> None:
    # two dice of one colour show 7, the third die 4: 11 with no modifier
    outcome, ctx = scripted(rules, [7, 4], hits="3")
    assert ctx.expressions == ["2d6", "1d6"]
    assert outcome.result == "2R1H2C, 1 morale roll, 1 fire check"
    details = dict(outcome.details)
    assert (details["hull"], details["rigging"], details["crew"]) == (1, 2, 2)
    assert details["roll"] == 11
    # row 11, hits 4 is printed hull-first: the cell keeps the seed's order
    outcome, _ = scripted(rules, [7, 4], hits="4")
    assert outcome.result.startswith("2H2R2C,")


def test_damage_chance_is_the_three_dice_total(rules: Rules) -> None:
    table = chances(rules, "impulse.fire-combat", hits="3")
    assert sum(table.values()) == 1
    # 2R1H2C is row 11 only (rows 10 and 12 differ): 3d6 = 11 is 27/216
    assert chance_of(table, lambda r: r.startswith("2R1H2C,")) == Fraction(27, 216)
    # 3H is the tall cell of hits 3, rolls 5 or less: 3d6 <= 5 is 10/216
    assert chance_of(table, lambda r: r.startswith("3H,")) == Fraction(10, 216)


def test_fire_checks_come_from_the_header_on_11_or_more(rules: Rules) -> None:
    # hits 3: header (1) on 11+, footer (none) otherwise; 3d6 >= 11 is one half
    table = chances(rules, "impulse.fire-combat", hits="3")
    assert chance_of(table, lambda r: r.endswith(", 1 fire check")) == Fraction(1, 2)
    assert chance_of(table, lambda r: r.endswith(", 0 fire checks")) == Fraction(1, 2)
    # hits 12: header 4, footer 3; firing into the wind (+1) makes 11+ a 3d6 of 10+
    table = chances(rules, "impulse.fire-combat", hits="12", wind="into-the-wind")
    assert chance_of(table, lambda r: r.endswith(", 4 fire checks")) == Fraction(5, 8)
    assert chance_of(table, lambda r: r.endswith(", 3 fire checks")) == Fraction(3, 8)
    outcome, _ = scripted(rules, [6, 4], hits="12")
    assert dict(outcome.details)["fire_checks"] == 3  # roll 10: footer


def test_morale_table_reads_the_third_die(rules: Rules) -> None:
    # hits 3 column, rows 1..6: 2, 1, 1, 1, 1, 0 morale rolls
    table = chances(rules, "impulse.fire-combat", hits="3")
    assert chance_of(table, lambda r: ", 0 morale rolls" in r) == Fraction(1, 6)
    assert chance_of(table, lambda r: ", 1 morale roll," in r) == Fraction(4, 6)
    assert chance_of(table, lambda r: ", 2 morale rolls" in r) == Fraction(1, 6)
    # a Handy defender: +1, so the die reads 2..7 (rows 6 and 7 are 0)
    table = chances(rules, "impulse.fire-combat", hits="3", defender_morale="handy")
    assert chance_of(table, lambda r: ", 0 morale rolls" in r) == Fraction(2, 6)
    # the third die is read alone: a 1 on it with an Unfit defender is row 0
    outcome, _ = scripted(rules, [12, 1], hits="12", defender_morale="unfit")
    assert dict(outcome.details)["third_die"] == 0
    assert dict(outcome.details)["morale_rolls"] == 5
    assert outcome.changes[1:] == (
        "Defender: make 5 Morale rolls; if any fails, move Crew Status 1 space to the left",
        "Defender: make 4 fire checks (header, rigging)",
    )


def test_every_die_roll_modifier_is_recorded_with_its_source(rules: Rules) -> None:
    outcome, ctx = scripted(
        rules,
        [7, 4],
        hits="3",
        wind="into-the-wind",
        aim="low",
        morale="unfit",
        defender_morale="handy",
    )
    sources = {a.source: a.value for a in ctx.applied}
    assert sources == {
        "impulse.damage-modifiers:into-the-wind": 1,
        "impulse.damage-modifiers:firing-low-unfit": 1,
        "impulse.morale-modifiers:defender-handy": 1,
    }
    assert dict(outcome.details)["roll"] == 13
    assert outcome.result.startswith("2R1H1C,")
    # firing high with a Handy crew is +1, firing low with a Handy crew -1
    _, ctx = scripted(rules, [7, 4], hits="3", aim="high", morale="handy", wind="with-the-wind")
    assert [(a.source, a.value) for a in ctx.applied] == [
        ("impulse.damage-modifiers:with-the-wind", -1),
        ("impulse.damage-modifiers:firing-high-handy", 1),
    ]


def test_seeded_fire_combat_repeats_and_matches_its_dice(rules: Rules) -> None:
    resolver = get_resolver("impulse.fire-combat")
    inputs = parse_inputs(resolver, rules, {"hits": "3"})
    first = run(resolver, rules, inputs, seed=3)
    assert [r.expression for r in first.rolls] == ["2d6", "1d6"]
    pair, third = (r.total for r in first.rolls)
    assert dict(first.outcome.details)["roll"] == pair + third
    assert run(resolver, rules, inputs, seed=3).outcome == first.outcome
    assert first.outcome.result == "2R1H1C, 1 morale roll, 1 fire check"  # 7 + 5 = 12


def test_hits_rolled_from_guns_and_a_to_hit_number(rules: Rules) -> None:
    table = chances(rules, "impulse.fire-combat", guns="4", to_hit="6")
    assert table["no hits"] == Fraction(5, 6) ** 4
    # two of the four are carronades at 3 MP: doubled, so six dice
    table = chances(
        rules, "impulse.fire-combat", guns="4", carronades="2", range_mp="3", to_hit="6"
    )
    assert table["no hits"] == Fraction(5, 6) ** 6
    table = chances(
        rules, "impulse.fire-combat", guns="4", carronades="2", range_mp="4", to_hit="6"
    )
    assert table["no hits"] == Fraction(5, 6) ** 4
    # one gun, one defender die: no hits unless the gun hits and the defender misses
    table = chances(
        rules, "impulse.fire-combat", guns="1", to_hit="4", defender_dice="1", defender_to_hit="4"
    )
    assert table["no hits"] == 1 - Fraction(1, 2) * Fraction(1, 2)


def test_zero_hits_does_nothing(rules: Rules) -> None:
    assert chances(rules, "impulse.fire-combat", hits="0") == {"no hits": Fraction(1)}


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({}, "give either hits=N .* or guns=N"),
        ({"hits": "2", "guns": "3"}, "give either hits=N"),
        ({"guns": "3"}, "needs to_hit=FACE"),
        ({"hits": "13"}, "at most 12"),
        ({"hits": "3", "defender_dice": "2"}, "only counts when the guns are rolled"),
        ({"guns": "2", "carronades": "3", "to_hit": "5"}, "more than guns=2"),
        ({"guns": "2", "carronades": "1", "to_hit": "5"}, "need range_mp=N"),
        ({"guns": "2", "to_hit": "5", "defender_dice": "1"}, "needs defender_to_hit"),
        ({"hits": "3", "morale": "brave"}, "not one of other, handy, unfit"),
    ],
)
def test_fire_combat_refuses_bad_input(rules: Rules, raw: dict[str, str], message: str) -> None:
    resolver = get_resolver("impulse.fire-combat")
    with pytest.raises(ResolveInputError, match=message):
        parse_inputs(resolver, rules, raw)


def test_movement_points_cross_the_two_letters(rules: Rules) -> None:
    # rows are the non-initiative letter, columns the initiative letter; a/b = init/non-init
    table = chances(rules, "impulse.movement-points", initiative="A", non_initiative="C")
    assert table == {"initiative 4, non-initiative 2": Fraction(1)}
    table = chances(rules, "impulse.movement-points", initiative="c", non_initiative="a")
    assert table == {"initiative 2, non-initiative 4": Fraction(1)}
    resolver = get_resolver("impulse.movement-points")
    with pytest.raises(ResolveInputError, match="missing non_initiative=VALUE"):
        parse_inputs(resolver, rules, {"initiative": "A"})
    with pytest.raises(ResolveInputError, match="not one of A, B"):
        parse_inputs(resolver, rules, {"initiative": "J", "non_initiative": "A"})


def test_hull_type_bonus_is_d6_plus_crew_quality(rules: Rules) -> None:
    # Fast: 1 or less +1, 2-3 +2, 4 and up +3
    assert chances(rules, "impulse.hull-type-bonus", hull="fast") == {
        "bonus +1": Fraction(1, 6),
        "bonus +2": Fraction(2, 6),
        "bonus +3": Fraction(3, 6),
    }
    assert chances(rules, "impulse.hull-type-bonus", hull="fast", crew_quality="2") == {
        "bonus +2": Fraction(1, 6),
        "bonus +3": Fraction(5, 6),
    }
    resolver = get_resolver("impulse.hull-type-bonus")
    inputs = parse_inputs(resolver, rules, {"hull": "Slow", "crew_quality": "-1"})
    resolution = run(resolver, rules, inputs, seed=5)
    assert [(a.source, a.value) for a in resolution.applied] == [
        ("impulse.hull-type-modifiers:crew-quality", -1)
    ]
    assert dict(resolution.outcome.details)["roll"] == resolution.rolls[0].total - 1
    with pytest.raises(ResolveInputError, match="not one of Fast, Average, Slow"):
        parse_inputs(resolver, rules, {"hull": "Sluggish"})
