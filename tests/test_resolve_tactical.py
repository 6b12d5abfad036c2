"""Tactical resolvers, checked against the rules' own numbers."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from generator.dice import distribution
from generator.generate.base import get_generator
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


# ---------------------------------------------------------------- zero ratings (issue 12)

HULL_ZERO = "Hull 0: cannot move, sinks in 1D6 turns"
CREW_ZERO = "Crew 0: cannot move, cannot board, loses any boarding"
CANNON_ZERO = "Cannon 0: blows its hold and sinks at once"


def test_zero_ratings_record_the_readings(rules: Rules) -> None:
    table = rules.table("tactical.zero-ratings")
    note = table.note or ""
    for words in (
        "zero Hull or zero Crew a ship cannot move",
        "at zero Hull it sinks in 1D6 turns",
        "at zero Cannon it sinks at once",
        "at zero Crew it cannot board and loses any boarding",
        "the winner must transfer a crew point",
    ):
        assert words in " ".join(note.split()), words
    cells = dict(zip(table.axes[0].labels, table.cells, strict=True))
    assert [cells[r]["can_move"] for r in ("Hull", "Crew", "Cannon", "Sails")] == [False] * 4
    assert (cells["Crew"]["can_board"], cells["Crew"]["loses_boarding"]) == (False, True)
    assert (cells["Hull"]["sinks"], cells["Hull"]["sink_dice"]) == ("in 1D6 turns", "1d6")
    assert cells["Cannon"]["sinks"] == "immediately"
    # the boarding and movement rules say the same, and so does every ship's log
    boarding = " ".join((rules.table("tactical.boarding").note or "").split())
    assert "zero Crew cannot board and loses any boarding" in boarding
    movement = " ".join((rules.table("tactical.movement").note or "").split())
    assert "zero Hull or zero Crew cannot move" in movement
    (log,) = get_generator("tactical").ship_log_notes(rules)
    for words in (HULL_ZERO, CREW_ZERO, CANNON_ZERO):
        assert words.replace(" 0:", "") in log, words


def test_a_ship_at_zero_hull_or_crew_may_not_move(rules: Rules) -> None:
    assert chances(rules, "tactical.movement", hull="0") == {"may not move": Fraction(1)}
    assert chances(rules, "tactical.movement", crew="0", sails="6") == {"may not move": Fraction(1)}
    # one point left: the roll as usual, 2d6 - 4 + 4 + 0 - 1
    assert chances(rules, "tactical.movement", hull="1", crew="1") == movement_chances(-1)
    resolution = resolve(rules, "tactical.movement", 1, crew="0")
    assert resolution.rolls == []
    assert resolution.outcome.changes == (
        "Cannot move: A ship reduced to zero crew cannot move or repell boarders.",
    )


def test_a_ship_at_zero_crew_cannot_board_and_loses_any_boarding(rules: Rules) -> None:
    resolver = get_resolver("tactical.boarding")
    with pytest.raises(ResolveInputError, match="boarder_crew=0: a ship at zero Crew cannot board"):
        parse_inputs(resolver, rules, {"boarder_crew": "0", "defender_crew": "3"})
    # the defender at zero Crew loses whatever the boarder's score
    assert chances(
        rules,
        "tactical.boarding",
        boarder_crew="1",
        defender_crew="0",
        defender_cards="rally-the-men",
    ) == {"boarder captures": Fraction(1)}
    resolution = resolve(rules, "tactical.boarding", 5, boarder_crew="3", defender_crew="0")
    assert resolution.rolls == []
    assert resolution.outcome.changes == (
        "Boarder captures the defender's ship, which has no crew: the boarder must transfer "
        "1 crew point to it to gain control of it, or sink it",
    )
    # a boarder with one crew point left is at zero Crew once it transfers it
    resolution = resolve(rules, "tactical.boarding", 5, boarder_crew="1", defender_crew="0")
    assert resolution.outcome.changes[-1] == (
        "Transferring leaves the boarder at zero Crew: cannot move, cannot board, loses any "
        "boarding"
    )


def test_broadside_says_what_a_rating_at_zero_means(rules: Rules) -> None:
    # roundshot, Cannon 6, 2 spaces: 1D10 + 5 is 6..15. One attribute on d10 1-4 (4/10),
    # two on 5-8 (4/10), three on 9-10 (2/10); Hull is among them 1 in 4, 3 pairs in 6,
    # 3 triples in 4.
    table = chances(rules, "tactical.broadside", cannon="6", target_hull="1")
    hull_gone = sum((p for result, p in table.items() if HULL_ZERO in result), Fraction(0))
    assert hull_gone == Fraction(4, 10) * Fraction(1, 4) + Fraction(4, 10) * Fraction(
        3, 6
    ) + Fraction(2, 10) * Fraction(3, 4)
    assert table[f"-1 Hull; {HULL_ZERO}"] == Fraction(4, 10) * Fraction(1, 4)
    assert table["-1 Sails, -1 Crew"] == Fraction(4, 10) * Fraction(1, 6)
    # Hull 2 survives one point; Cannon 1 goes down with the first
    table = chances(rules, "tactical.broadside", cannon="6", target_hull="2", target_cannon="1")
    assert not any(HULL_ZERO in result for result in table)
    assert table[f"-1 Hull, -1 Cannon; {CANNON_ZERO}"] == Fraction(4, 10) * Fraction(1, 6)
    # grapeshot: Cannon 5, 1D10 + 5: -1 Crew on d10 1-4, -2 on 5-8, -3 on 9-10
    assert chances(rules, "tactical.broadside", ammo="grapeshot", cannon="5", target_crew="2") == {
        "-1 Crew": Fraction(4, 10),
        f"-2 Crew; {CREW_ZERO}": Fraction(4, 10),
        f"-3 Crew; {CREW_ZERO}": Fraction(2, 10),
    }
    # chainshot Hull losses are ignored: the Hull never reaches zero
    table = chances(rules, "tactical.broadside", ammo="chainshot", cannon="6", target_hull="1")
    assert not any("Hull 0" in result for result in table)


def test_broadside_changes_at_zero(rules: Rules) -> None:
    for seed in range(200):
        resolution = resolve(
            rules, "tactical.broadside", seed, ammo="grapeshot", cannon="5", target_crew="1"
        )
        if dict(resolution.outcome.details)["points"] == 2:
            break
    assert resolution.outcome.changes == (
        "Target: -2 Crew Rating",
        "Target: Crew 1 → 0",
        "Target at zero Crew: A ship reduced to zero crew cannot move or repell boarders. "
        "(cannot move, cannot board, loses any boarding)",
    )
    # a rating already at zero stays there: nothing more follows
    resolution = resolve(
        rules, "tactical.broadside", 1, ammo="grapeshot", cannon="5", target_crew="0"
    )
    assert "Crew 0" not in resolution.outcome.result
    assert any("already 0: the loss changes nothing" in line for line in resolution.lines)
    # a Hull brought to zero sends the reader to the sinking roll
    for seed in range(200):
        resolution = resolve(rules, "tactical.broadside", seed, cannon="6", target_hull="1")
        if HULL_ZERO in resolution.outcome.result:
            break
    assert "Roll 1d6 for the turns until it sinks (tactical.sinking)" in resolution.outcome.changes


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"target_cannon": "0"}, "target_cannon=0: the target has already sunk"),
        ({"target_hull": "-1"}, "target_hull=-1: at least 0"),
    ],
)
def test_broadside_refuses_sunk_ships(rules: Rules, raw: dict[str, str], message: str) -> None:
    with pytest.raises(ResolveInputError, match=message):
        parse_inputs(get_resolver("tactical.broadside"), rules, raw)


def test_sinking_at_zero_hull_takes_1d6_turns(rules: Rules) -> None:
    assert chances(rules, "tactical.sinking") == {
        "sinks in 1 turn": Fraction(1, 6),
        **{f"sinks in {n} turns": Fraction(1, 6) for n in range(2, 7)},
    }
    assert chances(rules, "tactical.sinking", rating="cannon") == {"sinks at once": Fraction(1)}
    assert chances(rules, "tactical.sinking", rating="crew") == {"does not sink": Fraction(1)}
    assert chances(rules, "tactical.sinking", rating="sails") == {"does not sink": Fraction(1)}
    resolution = resolve(rules, "tactical.sinking", 4)
    (roll,) = resolution.rolls
    assert roll.expression == "1d6"
    assert dict(resolution.outcome.details)["turns"] == roll.total
    assert resolution.outcome.changes[-1] == "Until then it cannot move"
    with pytest.raises(ResolveInputError, match="rating=masts: not one of Hull, Crew"):
        parse_inputs(get_resolver("tactical.sinking"), rules, {"rating": "masts"})


# ---------------------------------------------------------------- the Draw Phase


def draw(rules: Rules, **raw: str) -> dict[str, Any]:
    """The Draw Phase's single outcome (it rolls nothing) and its details."""
    table = chances(rules, "tactical.draw", **raw)
    (result,) = table
    assert table[result] == Fraction(1)
    outcome = resolve(rules, "tactical.draw", 1, **raw).outcome
    assert outcome.result == result
    return {"result": result, **dict(outcome.details)}


def test_draw_two_keep_five(rules: Rules) -> None:
    assert draw(rules, hand="2", deck="10") == {
        "result": "draws 2",
        "drawn": 2,
        "reshuffled": False,
        "discarded": 0,
        "hand": 4,
        "hand_limit": 5,
        "deck": 8,
    }
    # 4 + 2 is one over the maximum hand of 5: discard 1
    assert draw(rules, hand="4", deck="10")["result"] == "draws 2, discards 1"
    # Charismatic changes nothing here
    assert draw(rules, hand="4", deck="10", admiral="charismatic")["discarded"] == 1


def test_brilliant_draws_three_and_a_tactician_keeps_seven(rules: Rules) -> None:
    brilliant = draw(rules, hand="2", deck="10", admiral="Brilliant")
    assert (brilliant["drawn"], brilliant["hand"], brilliant["discarded"]) == (3, 5, 0)
    tactician = draw(rules, hand="5", deck="10", admiral="tactician")
    assert (tactician["drawn"], tactician["hand"], tactician["hand_limit"]) == (2, 7, 7)
    assert draw(rules, hand="7", deck="10", admiral="tactician")["discarded"] == 2
    resolution = resolve(rules, "tactical.draw", 1, hand="5", deck="10", admiral="brilliant")
    assert [(a.label, a.value, a.source) for a in resolution.applied] == [
        ("Each player draws", 2, "tactical.draw"),
        ("Brilliant: Draw an Extra Card in Draw phase", 1, "tactical.admiral"),
    ]
    assert resolution.outcome.changes[-1] == "Discard 3 cards of your choice (hand 5)"


def test_the_discard_is_reshuffled_when_the_deck_runs_out(rules: Rules) -> None:
    # one card left: draw it, shuffle the 6 discarded into a new deck, draw 2 more (Brilliant)
    assert draw(rules, hand="3", deck="1", discard="6", admiral="brilliant") == {
        "result": "draws 3 after a reshuffle, discards 1",
        "drawn": 3,
        "reshuffled": True,
        "discarded": 1,
        "hand": 5,
        "hand_limit": 5,
        "deck": 4,
        "discard": 1,
    }
    # a deck emptied by the last card drawn waits for the next draw to be reshuffled
    exact = draw(rules, hand="0", deck="2", discard="9")
    assert (exact["reshuffled"], exact["deck"], exact["discard"]) == (False, 0, 9)
    # nothing to reshuffle: only what is left is drawn
    empty = draw(rules, hand="0", deck="1", discard="0")
    assert (empty["result"], empty["drawn"], empty["deck"]) == ("draws 1", 1, 0)
    # the discard pile left out is taken to hold enough
    unknown = draw(rules, hand="0", deck="0")
    assert (unknown["result"], unknown["drawn"]) == ("draws 2 after a reshuffle", 2)
    assert "deck" not in unknown


def test_the_draw_reads_its_numbers_from_the_rules(rules: Rules) -> None:
    ruleset = rules.rulesets["tactical"]
    tables = dict(ruleset.tables)
    tables["draw"] = replace(tables["draw"], params={"cards_drawn": 3, "max_hand_size": 4})
    house = replace(rules, rulesets={**rules.rulesets, "tactical": replace(ruleset, tables=tables)})
    assert draw(house, hand="2", deck="10")["result"] == "draws 3, discards 1"
    assert draw(house, hand="2", deck="10", admiral="tactician")["hand_limit"] == 6


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"admiral": "nelson"}, "admiral=nelson: not one of none, Charismatic, Diplomat"),
        ({"hand": "5", "deck": "20", "discard": "4"}, "hand \\+ deck \\+ discard = 29, but"),
        ({"deck": "-1"}, "deck=-1: at least 0"),
    ],
)
def test_draw_refuses_bad_input(rules: Rules, raw: dict[str, str], message: str) -> None:
    with pytest.raises(ResolveInputError, match=message):
        parse_inputs(get_resolver("tactical.draw"), rules, raw)


# ---------------------------------------------------------------- who moves first


def test_the_highest_movement_rating_chooses(rules: Rules) -> None:
    assert chances(rules, "tactical.move-order", player="5", opponent="3") == {
        "player goes first": Fraction(1)
    }
    assert chances(rules, "tactical.move-order", player="5", opponent="3", choice="second") == {
        "opponent goes first": Fraction(1)
    }
    assert chances(rules, "tactical.move-order", player="-1", opponent="2") == {
        "opponent goes first": Fraction(1)
    }


def test_a_tie_is_rolled_high_on_1d6(rules: Rules) -> None:
    # of the 36 pairs of faces 6 tie and are rolled again; of the 30 others the player's die
    # is higher in 15: each side chooses with chance 15/30
    assert chances(rules, "tactical.move-order", player="4", opponent="4") == {
        "player goes first": Fraction(15, 30),
        "opponent goes first": Fraction(15, 30),
    }
    assert chances(rules, "tactical.move-order", choice="second") == {
        "player goes first": Fraction(1, 2),
        "opponent goes first": Fraction(1, 2),
    }
    found: Any = None
    for seed in range(3000):
        resolution = resolve(rules, "tactical.move-order", seed)
        if any(r.reason == "Tie re-roll over the untied pairs" for r in resolution.rolls):
            found = resolution
            break
    assert found is not None, "no seed tied three times"
    assert found.rolls[-1].expression == "1d30"
    assert sum("roll again" in line for line in found.lines) == 3
    assert [r.expression for r in found.rolls[:2]] == ["1d6", "1d6"]
