"""Tactical resolvers, checked against the rules' own numbers."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from generator.dice import distribution
from generator.loading import Rules
from generator.resolve import ResolveInputError, get_resolver, parse_inputs
from generator.resolve.engine import run
from tests.resolving import chances, resolve


def test_flight_test_flees_on_two_or_less(rules: Rules) -> None:
    assert chances(rules, "tactical.flight-test") == {
        "flees": Fraction(2, 6),
        "stays": Fraction(4, 6),
    }
    # flagship +2: only a modified 2 or less flees, which a d6 + 2 never is
    assert chances(rules, "tactical.flight-test", flagship="yes") == {"stays": Fraction(1)}
    # ally -1 and a fleet ship fled -1: 4 or less flees
    assert chances(rules, "tactical.flight-test", ally="yes", fleet_fled="yes")[
        "flees"
    ] == Fraction(4, 6)
    # courage +1 per point
    assert chances(rules, "tactical.flight-test", courage="1")["flees"] == Fraction(1, 6)


def test_flight_test_records_modifiers_with_sources(rules: Rules) -> None:
    resolver = get_resolver("tactical.flight-test")
    inputs = parse_inputs(resolver, rules, {"ally": "yes", "courage": "2"})
    resolution = run(resolver, rules, inputs, seed=3)
    sources = {a.source: a.value for a in resolution.applied}
    assert sources == {"tactical.flight-modifiers:ally": -1, "tactical.flight-modifiers:courage": 2}
    if resolution.outcome.result == "flees":
        assert "Every allied ship of the fleet flees too" in resolution.outcome.changes


def spaces(n: int) -> str:
    return f"{n} space" + ("" if n == 1 else "s")


def movement_chances(offset: int) -> dict[str, Fraction]:
    """The chances of 2D6 + offset spaces, below 0 read as 0."""
    out: dict[str, Fraction] = {}
    for total, p in distribution("2d6").items():
        name = spaces(max(total + offset, 0))
        out[name] = out.get(name, Fraction(0)) + p
    return out


def test_movement_is_2d6_minus_4_plus_the_ratings(rules: Rules) -> None:
    # Sails 4, Skill 0, Swiftness -1, parallel to the wind: 2d6 - 4 + 3
    table = chances(rules, "tactical.movement", sails="4", skill="0", swiftness="-1")
    assert table == movement_chances(-1)
    assert table["1 space"] == Fraction(1, 36)
    # with the wind +2, diagonally with +1, diagonally against -1
    for heading, change in (
        ("with", 2),
        ("diagonally-with-the-wind", 1),
        ("diagonally-against-the-wind", -1),
    ):
        assert chances(rules, "tactical.movement", heading=heading) == movement_chances(-1 + change)
    # below zero is 0 spaces: 2d6 - 4 + 1 - 3 - 1 is 0 or less on 7 or less
    table = chances(
        rules,
        "tactical.movement",
        sails="1",
        swiftness="-3",
        heading="diagonally-against-the-wind",
    )
    assert table["0 spaces"] == Fraction(21, 36)


def test_movement_cards_and_sources(rules: Rules) -> None:
    table = chances(rules, "tactical.movement", cards="gust-of-wind, Unfurl the Sails")
    assert table == movement_chances(3)
    # the opponent's Calm Waters cancels a Gust of Wind
    assert chances(rules, "tactical.movement", cards="gust-of-wind,calm-waters") == (
        movement_chances(-1)
    )
    resolution = resolve(
        rules,
        "tactical.movement",
        3,
        sails="6",
        swiftness="-3",
        heading="in-the-direction-of-the-wind",
        cards="catch-the-wind,calm-waters",
    )
    assert [(a.label, a.value, a.source) for a in resolution.applied] == [
        ("Ships going in the direction of the wind get move +2.", 2, "tactical.wind-movement"),
        ("Base Movement roll", -4, "tactical.movement"),
        ("Sails rating", 6, "tactical.movement"),
        ("Swiftness rating", -3, "tactical.movement"),
        ("Catch the Wind", 2, "tactical.cards"),
        ("Calm Waters (played by the opponent)", -2, "tactical.cards"),
    ]
    (roll,) = resolution.rolls
    assert dict(resolution.outcome.details)["movement"] == roll.total + 1


def test_movement_that_the_rules_forbid(rules: Rules) -> None:
    assert chances(rules, "tactical.movement", sails="0") == {"may not move": Fraction(1)}
    assert chances(rules, "tactical.movement", heading="directly-against-the-wind") == {
        "may not move": Fraction(1)
    }
    # in a calm no wind change applies (the seed is silent)
    assert chances(
        rules, "tactical.movement", calm="yes", heading="directly-against-the-wind"
    ) == movement_chances(-1)
    resolver = get_resolver("tactical.movement")
    with pytest.raises(ResolveInputError, match="'quick-reload' does not change the Movement"):
        parse_inputs(resolver, rules, {"cards": "quick-reload"})
    with pytest.raises(ResolveInputError, match="heading=sideways: not one of In the"):
        parse_inputs(resolver, rules, {"heading": "sideways"})
    with pytest.raises(ResolveInputError, match="'mermaid' is not a card"):
        parse_inputs(resolver, rules, {"cards": "mermaid"})
    with pytest.raises(ResolveInputError, match="only 2 copies of Gust of Wind"):
        parse_inputs(resolver, rules, {"cards": "gust-of-wind,gust-of-wind,gust-of-wind"})


def test_broadside_table_with_chainshot(rules: Rules) -> None:
    # 1D10 + Cannon 4 at 2 spaces: 5 (no damage) .. 14 (three attributes)
    table = chances(rules, "tactical.broadside", ammo="chainshot", distance="2", cannon="4")
    assert table["no damage"] == Fraction(1, 10)
    # one attribute (rolls 6-9, d10 2-5): Hull 1 in 4, ignored for chainshot
    assert table["no loss (Hull ignored)"] == Fraction(4, 10) * Fraction(1, 4)
    assert table["-1 Sails"] == Fraction(4, 10) * Fraction(1, 4)
    # two different attributes (10-13): each of the 6 pairs 1 in 6
    assert table["-1 Sails (Hull ignored)"] == Fraction(4, 10) * Fraction(1, 6)
    assert table["-1 Sails, -1 Crew"] == Fraction(4, 10) * Fraction(1, 6)
    # three (14+, d10 10): each of the 4 triples 1 in 4
    assert table["-1 Sails, -1 Crew, -1 Cannon"] == Fraction(1, 10) * Fraction(1, 4)
    assert sum(table.values()) == 1


def test_broadside_modifiers(rules: Rules) -> None:
    # roundshot -1, 4 spaces away -2: 1D10 + 4 - 3, no damage on 5 or less (d10 1-4)
    table = chances(rules, "tactical.broadside", ammo="roundshot", distance="4", cannon="4")
    assert table["no damage"] == Fraction(4, 10)
    # two attributes on 10-13 (d10 9-10), each of the 6 pairs 1 in 6
    assert table["-1 Sails, -1 Hull"] == Fraction(2, 10) * Fraction(1, 6)
    resolution = resolve(
        rules,
        "tactical.broadside",
        3,
        ammo="roundshot",
        distance="4",
        cannon="4",
        gunnery="1",
        cards="maneuver",
    )
    assert [(a.source, a.value) for a in resolution.applied] == [
        ("tactical.broadside-modifiers:attacker-cannon", 4),
        ("tactical.broadside-modifiers:attacker-gunnery", 1),
        ("tactical.broadside-modifiers:distance", -2),
        ("tactical.broadside-modifiers:roundshot", -1),
        ("tactical.cards", -2),
    ]
    assert dict(resolution.outcome.details)["points"] >= 0


def test_grapeshot_losses_all_go_to_crew(rules: Rules) -> None:
    table = chances(
        rules,
        "tactical.broadside",
        ammo="grapeshot",
        distance="2",
        cannon="4",
        cards="sweep-the-decks",
    )
    # 1D10 + 4 + 2: 7..16
    assert table == {
        "-1 Crew": Fraction(3, 10),
        "-2 Crew": Fraction(4, 10),
        "-3 Crew": Fraction(3, 10),
    }


def test_attribute_repeats_are_rerolled(rules: Rules) -> None:
    for seed in range(200):
        resolution = resolve(rules, "tactical.broadside", seed, ammo="roundshot", cannon="9")
        rerolled = [r for r in resolution.rolls if r.reason.endswith("re-rolled")]
        if rerolled:
            break
    else:
        pytest.fail("no seed re-rolled an attribute")
    attributes = dict(resolution.outcome.details)["attributes"]
    assert len(set(attributes)) == len(attributes) == dict(resolution.outcome.details)["points"]
    assert rerolled[0].expression in ("1d6", "1d4")
    assert any("already lost a point: re-roll" in line for line in resolution.lines)


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"distance": "7"}, "distance=7 is beyond the range 6 of Roundshot"),
        ({"ammo": "grapeshot", "distance": "3"}, "beyond the range 2 of Grapeshot"),
        ({"ammo": "grapeshot", "gunnery": "1", "distance": "4"}, "beyond the range 3"),
        ({"ammo": "grapeshot", "cards": "splintering-wood"}, "only helps Roundshot"),
        ({"cards": "rally-the-men"}, "does not change the Broadside Table roll"),
        ({"ammo": "canister"}, "not one of Grapeshot, Chainshot, Roundshot"),
    ],
)
def test_broadside_refuses_bad_input(rules: Rules, raw: dict[str, str], message: str) -> None:
    resolver = get_resolver("tactical.broadside")
    with pytest.raises(ResolveInputError, match=message):
        parse_inputs(resolver, rules, raw)


def test_boarding_higher_score_wins_and_ties_are_rerolled(rules: Rules) -> None:
    assert chances(rules, "tactical.boarding") == {
        "boarder captures": Fraction(1, 2),
        "defender captures": Fraction(1, 2),
    }
    # one point better: wins 21 of the 31 untied pairs of dice
    assert chances(rules, "tactical.boarding", boarder_crew="5") == {
        "boarder captures": Fraction(21, 31),
        "defender captures": Fraction(10, 31),
    }
    # two boarding cards (+4) against Crew 6: 1D6 + 7 v 1D6 + 6
    assert chances(
        rules,
        "tactical.boarding",
        boarder_crew="3",
        defender_crew="6",
        boarder_cards="rally-the-men,swords-and-pistols",
    )["boarder captures"] == Fraction(21, 31)
    # zero Crew cannot repel boarders
    assert chances(rules, "tactical.boarding", defender_crew="0") == {
        "boarder captures": Fraction(1)
    }


def test_boarding_long_ties_keep_the_same_chances(rules: Rules) -> None:
    found: Any = None
    for seed in range(3000):
        resolution = resolve(rules, "tactical.boarding", seed)
        if any(r.reason == "Tie re-roll over the untied pairs" for r in resolution.rolls):
            found = resolution
            break
    assert found is not None, "no seed tied three times"
    assert found.rolls[-1].expression == "1d30"
    details = dict(found.outcome.details)
    assert details["boarder"] != details["defender"]
    assert sum("Tie at" in line for line in found.lines) == 3


def test_boarding_records_both_sides(rules: Rules) -> None:
    resolution = resolve(
        rules,
        "tactical.boarding",
        2,
        boarder_crew="3",
        boarder_boarding="1",
        defender_crew="2",
        defender_cards="fierce-hand-to-hand",
    )
    assert [(a.label, a.value, a.source) for a in resolution.applied] == [
        ("Boarder: Crew rating", 3, "tactical.boarding"),
        ("Boarder: Boarding rating", 1, "tactical.boarding"),
        ("Defender: Crew rating", 2, "tactical.boarding"),
        ("Defender: Fierce Hand to Hand", 2, "tactical.cards"),
    ]
    resolver = get_resolver("tactical.boarding")
    with pytest.raises(ResolveInputError, match="'maneuver' does not change the Boarding"):
        parse_inputs(resolver, rules, {"defender_cards": "maneuver"})


def test_wind_changes_on_a_six(rules: Rules) -> None:
    table = chances(rules, "tactical.wind-change")
    assert table["stays the same"] == Fraction(5, 6)
    assert table["changes: Calm"] == Fraction(1, 6) * Fraction(2, 10)
    assert table["changes: wind from North"] == Fraction(1, 6) * Fraction(1, 10)
    table = chances(rules, "tactical.wind-change", initial="yes")
    assert table["Calm"] == Fraction(1, 5)
    assert table["wind from NW"] == Fraction(1, 10)
    resolution = resolve(rules, "tactical.wind-change", 1, initial="yes")
    assert [r.expression for r in resolution.rolls] == ["1d10"]
