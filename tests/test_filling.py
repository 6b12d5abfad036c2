"""Resolving with the ships: inputs filled from the logs, and effects crossed off them."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

import pytest

from generator.app.filling import FILLS, Filled, crossings, filled_inputs
from generator.app.games import GameShip
from generator.app.generated import make_scenario
from generator.app.requests import ScenarioRequest
from generator.errors import InputError
from generator.loading import Rules, load_rules
from generator.render.kinds.ship_log import ship_log
from generator.resolve import Effect, get_resolver, parse_inputs
from generator.resolve.engine import Resolution, run
from generator.ruleset.logcard import Checks, LogCard, Tracks, slug

RULES: Rules = load_rules(None)


@lru_cache(maxsize=8)
def _cards(ruleset: str) -> tuple[LogCard, LogCard]:
    """The first ship of each side of a rolled scenario, as her log."""
    scenario = make_scenario(ScenarioRequest(ruleset=ruleset, seed=1805)).data
    first, second = scenario["sides"][:2]
    return (
        ship_log(RULES, ruleset, "a", first["ships"][0], first),
        ship_log(RULES, ruleset, "b", second["ships"][0], second),
    )


def _boxes(card: LogCard, key: str) -> tuple[str, ...]:
    for section in card.sections():
        if isinstance(section, Tracks):
            for track in section.rows:
                if slug(track.label) == key:
                    return track.boxes
    raise AssertionError(f"{card.name}'s log has no row {key}")


def _check(card: LogCard, label: str) -> str:
    for section in card.sections():
        entries = section.entries if isinstance(section, Checks) else ()
        if isinstance(section, Tracks):
            entries = tuple(c for t in section.rows for c in t.after)
        for check in entries:
            if slug(check.label) == label:
                return check.fields[0]
    raise AssertionError(f"{card.name}'s log has no check box {label}")


def _ship(
    card: LogCard,
    side: int,
    crossed: Mapping[str, int] | None = None,
    ticked: tuple[str, ...] = (),
    written: Mapping[str, str] | None = None,
) -> GameShip:
    marks: dict[str, bool | str] = {}
    for key, count in (crossed or {}).items():
        marks.update(dict.fromkeys(_boxes(card, key)[:count], True))
    marks.update({_check(card, label): True for label in ticked})
    marks.update(written or {})
    return GameShip(
        key=f"{side + 1}-1", side=side, index=0, name=str(card.name), card=card, marks=marks,
        version=1,
    )  # fmt: skip


def _filled(resolver_id: str, ship: GameShip, target: GameShip | None) -> dict[str, Filled]:
    ruleset = resolver_id.split(".", 1)[0]
    return {f.name: f for f in filled_inputs(RULES, ruleset, resolver_id, ship, target)}


def _rating(card: LogCard, key: str) -> int:
    for section in card.sections():
        if isinstance(section, Tracks):
            for track in section.rows:
                if slug(track.label) == key and track.value is not None:
                    return int(track.value)
    raise AssertionError(f"{card.name}'s log has no rating {key}")


def _resolve_until(
    resolver_id: str,
    ship: GameShip,
    target: GameShip | None,
    given: Mapping[str, str],
    wanted: Callable[[Resolution], bool],
) -> Resolution:
    """Resolve with the filled inputs, seed after seed, until an outcome is `wanted`."""
    resolver = get_resolver(resolver_id)
    raw: dict[str, Any] = {f.name: f.value for f in _filled(resolver_id, ship, target).values()}
    raw.update(given)
    inputs = parse_inputs(resolver, RULES, raw)
    for seed in range(1, 400):
        resolution = run(resolver, RULES, inputs, seed)
        if wanted(resolution):
            return resolution
    raise AssertionError(f"{resolver_id}: no seed up to 400 gave the outcome wanted")


def _marked(found: Mapping[str, Mapping[str, bool | int]], ship: GameShip) -> set[str]:
    return {name for name, on in found.get(ship.key, {}).items() if on is True}


# --- the tables ---------------------------------------------------------------------------


def test_every_filled_input_is_an_input_of_its_resolver() -> None:
    for resolver_id, sources in FILLS.items():
        names = {p.name for p in get_resolver(resolver_id).params}
        assert set(sources) <= names, resolver_id


@pytest.mark.parametrize("resolver_id", sorted(FILLS))
def test_filled_inputs_are_taken_by_the_resolver(resolver_id: str) -> None:
    first, second = _cards(resolver_id.split(".", 1)[0])
    filled = _filled(resolver_id, _ship(first, 0), _ship(second, 1))
    assert filled, resolver_id
    params = {p.name: p for p in get_resolver(resolver_id).params}
    for name, item in filled.items():
        assert item.words and item.words.strip() == item.words
        converted = params[name].convert(resolver_id, item.value, RULES)
        assert converted == item.value or params[name].kind == "choice"


def test_a_resolver_of_another_ruleset_is_refused() -> None:
    first, second = _cards("tactical")
    with pytest.raises(InputError, match="not a resolver of flob"):
        filled_inputs(RULES, "flob", "tactical.broadside", _ship(first, 0), _ship(second, 1))


def test_without_a_target_only_the_ships_own_inputs_are_filled() -> None:
    first, _ = _cards("tactical")
    filled = _filled("tactical.broadside", _ship(first, 0), None)
    assert set(filled) == {"cannon", "gunnery"}


# --- filled from the logs, boxes crossed ------------------------------------------------


def test_tactical_broadside_counts_down_crossed_boxes_and_reads_facts() -> None:
    first, second = _cards("tactical")
    ship = _ship(first, 0, {"cannon": 2})
    target = _ship(second, 1, {"hull": 1, "crew": 3})
    filled = _filled("tactical.broadside", ship, target)
    cannon = _rating(first, "cannon")
    assert filled["cannon"].value == cannon - 2
    assert filled["cannon"].words == (
        f"Cannon {cannon - 2}: {first.name}'s Cannon {cannon}, less 2 crossed off"
    )
    gunnery = next(f for f in first.facts if f.label == "Gunnery")
    assert filled["gunnery"].value == int(str(gunnery.value))
    assert filled["gunnery"].words == f"{first.name}'s Gunnery {gunnery.value}"
    assert filled["target_hull"].value == _rating(second, "hull") - 1
    assert filled["target_crew"].value == _rating(second, "crew") - 3
    assert filled["target_sails"].value == _rating(second, "sails")
    assert "none crossed off" in filled["target_sails"].words


def test_tactical_flight_test_reads_rating_losses() -> None:
    first, _ = _cards("tactical")
    assert (
        _filled("tactical.flight-test", _ship(first, 0, {"hull": 1}), None)["lost_two"].value
        is False
    )
    assert (
        _filled("tactical.flight-test", _ship(first, 0, {"sails": 2}), None)["lost_two"].value
        is True
    )


def test_flob_broadside_reads_masts_fires_and_the_wheel() -> None:
    first, second = _cards("flob")
    ship = _ship(first, 0, {"broadside": 3})
    target = _ship(second, 1, {"mainmast": 1, "hull_fires": 2}, ticked=("wheel_shot_away",))
    # the target's foremast has fallen
    fallen = {**target.marks, "b_foremast_fallen": True}
    target = GameShip(target.key, 1, 0, target.name, second, fallen, 1)
    filled = _filled("flob.broadside", ship, target)
    assert filled["broadside"].value == _rating(first, "broadside") - 3
    standing = _rating(second, "mainmast") - 1 + _rating(second, "mizzen")
    assert filled["target_masts"].value == standing
    assert filled["target_masts_standing"].value == 2
    assert filled["target_hull_fires"].value == 2
    assert filled["target_wheel_lost"].value is True
    assert filled["gunnery_class"].value in ("A", "B", "C", "D", "E")
    assert filled["gunnery_class"].value in " ".join(first.lines)


def test_flob_strike_test_reads_officers_and_masts() -> None:
    first, _ = _cards("flob")
    every_mast = {"foremast": 9, "mainmast": 9, "mizzen": 9}
    ship = _ship(first, 0, every_mast, ticked=("captain_wounded",))
    filled = _filled("flob.strike-test", ship, None)
    assert filled["masts"].value == "dismasted"
    assert filled["captain"].value == "wounded"
    assert filled["captain"].words == f"Captain wounded: ticked on {first.name}'s log"
    killed = _filled(
        "flob.strike-test", _ship(first, 0, ticked=("captain_wounded", "captain_killed")), None
    )
    assert killed["captain"].value == "killed"
    assert (
        _filled("flob.strike-test", _ship(first, 0, {"mizzen": 9}), None)["masts"].value == "lost"
    )


def test_convoy_boarding_reads_crew_markers_and_check_boxes() -> None:
    first, second = _cards("convoy")
    ship = _ship(first, 0, {"crew": 1})
    target = _ship(second, 1, ticked=("struck",))
    filled = _filled("convoy.boarding", ship, target)
    assert filled["boarder_crew"].value == _rating(first, "crew") - 1
    assert filled["target_struck"].value is True
    assert filled["target_struck"].words == f"Struck: ticked on {second.name}'s log"
    gunnery = _filled("convoy.gunnery", _ship(first, 0, {"guns": 9}), target)
    assert gunnery["guns"].value == 0
    assert gunnery["target"].value in ("same", "smaller", "bigger")


def test_impulse_fire_combat_reads_the_broadside() -> None:
    first, second = _cards("impulse")
    filled = _filled("impulse.fire-combat", _ship(first, 0), _ship(second, 1))
    found = re.search(r"(\d+) guns and (\d+) carronades", " ".join(first.lines))
    assert found is not None
    # every gun fired is a die: the carronades are among the guns= fired
    assert filled["guns"].value == int(found.group(1)) + int(found.group(2))
    assert filled["carronades"].value == int(found.group(2))


def test_high_seas_reads_tallies_and_written_losses() -> None:
    first, second = _cards("high-seas")
    rigging = len(_boxes(second, "rigging_hp"))
    maneuver = _filled(
        "high-seas.maneuver",
        _ship(first, 0, {"rigging_hp": rigging // 2 + 1}),
        _ship(second, 1, {"rigging_hp": rigging}),
    )
    assert maneuver["rigging_over_half"].value is True
    assert maneuver["crippled"].value is False
    assert maneuver["opponent_crippled"].value is True
    trained = re.search(r"(\d+) trained fighters", " ".join(first.lines))
    assert trained is not None
    ship = _ship(first, 0, written={"a_fighters_killed": "5"})
    boarding = _filled("high-seas.boarding", ship, _ship(second, 1))
    assert boarding["boarders_trained"].value == int(trained.group(1)) - 5
    assert boarding["boarders_trained"].words.endswith("less 5 killed")


# --- effects crossed off, from real resolutions ------------------------------------------


def test_tactical_broadside_losses_cross_the_next_boxes() -> None:
    first, second = _cards("tactical")
    ship, target = _ship(first, 0), _ship(second, 1, {"sails": 1, "hull": 1, "crew": 1})
    done = _resolve_until(
        "tactical.broadside", ship, target, {"distance": "1"}, lambda r: len(r.outcome.effects) > 1
    )
    said = {
        m.lower() for m in re.findall(r"Target: -1 (\w+) Rating", " ".join(done.outcome.changes))
    }
    assert {(e.who, e.what, e.amount) for e in done.outcome.effects} == {
        ("target", rating, 1) for rating in said
    }
    marks = crossings("tactical", done.outcome.effects, ship, target)
    expected = set()
    for rating in said:
        boxes = _boxes(second, rating)
        expected.add(boxes[1] if rating in ("sails", "hull", "crew") else boxes[0])
    assert _marked(marks, target) == expected
    assert ship.key not in marks
    assert done.to_json()["effects"] == [e.to_json() for e in done.outcome.effects]


def test_high_seas_men_killed_are_added_to_the_counts_written_in() -> None:
    """High Seas writes men killed in as counts, not boxes: a boarding's fighters killed
    on both ships, and a natural 20's crew killed by the burst, are numbers to add."""
    first, second = _cards("high-seas")
    ship = _ship(first, 0, written={"a_fighters_killed": "5"})
    target = _ship(second, 1)
    done = _resolve_until(
        "high-seas.boarding",
        ship,
        target,
        {},
        lambda r: {e.who for e in r.outcome.effects if e.what == "fighters"} == {"ship", "target"},
    )
    killed = {e.who: e.amount for e in done.outcome.effects if e.what == "fighters"}
    marks = crossings("high-seas", done.outcome.effects, ship, target)
    assert marks[ship.key]["a_fighters_killed"] == killed["ship"]
    assert marks[target.key]["b_fighters_killed"] == killed["target"]
    burst = _resolve_until(
        "high-seas.cannon-fire",
        ship,
        target,
        {"range": "short", "target": "hull", "guns": "4"},
        lambda r: r.outcome.result == "gun bursts",
    )
    crew = next(e.amount for e in burst.outcome.effects if e.what == "crew")
    marks = crossings("high-seas", burst.outcome.effects, ship, target)
    # the gun lost: which battery it was is the player's to write in
    assert marks == {ship.key: {"a_crew_killed": crew}}


def test_tactical_boarding_capture_ticks_captured() -> None:
    first, second = _cards("tactical")
    ship, target = _ship(first, 0), _ship(second, 1)
    done = _resolve_until(
        "tactical.boarding", ship, target, {}, lambda r: r.outcome.result == "boarder captures"
    )
    assert "captures the defender's ship" in done.outcome.changes[0]
    assert done.outcome.effects == (Effect("target", "state", state="captured"),)
    assert crossings("tactical", done.outcome.effects, ship, target) == {
        target.key: {_check(second, "captured"): True}
    }


def test_flob_broadside_crew_losses_cross_crew_parties() -> None:
    first, second = _cards("flob")
    ship, target = _ship(first, 0), _ship(second, 1)
    done = _resolve_until(
        "flob.broadside",
        ship,
        target,
        {"range": "Point Blank", "ammo": "Grapeshot"},
        lambda r: any(e.what == "crew" for e in r.outcome.effects),
    )
    words = next(c for c in done.outcome.changes if c.startswith("Target: -"))
    said = {name.lower(): int(n) for n, name in re.findall(r"-(\d+) (\w+)", words)}
    lost = {e.what: e.amount for e in done.outcome.effects if e.who == "target" and e.amount}
    assert {k: v for k, v in lost.items() if k in said} == said
    marks = _marked(crossings("flob", done.outcome.effects, ship, target), target)
    assert set(_boxes(second, "crew_parties")[: said["crew"]]) <= marks


def test_flob_boarding_losses_fall_on_both_ships() -> None:
    first, second = _cards("flob")
    ship, target = _ship(first, 0), _ship(second, 1, {"crew_parties": 1})
    done = _resolve_until(
        "flob.boarding",
        ship,
        target,
        {},
        lambda r: all(
            any(e.who == who and e.what == "crew_parties" for e in r.outcome.effects)
            for who in ("ship", "target")
        ),
    )
    words = " ".join(done.outcome.changes)
    for who, side in (("ship", "Attacker"), ("target", "Defender")):
        found = re.search(rf"{side}: -(\d+) crew parties", words)
        assert found is not None
        effect = next(e for e in done.outcome.effects if e.who == who and e.what == "crew_parties")
        assert effect.amount == int(found.group(1))
    marks = crossings("flob", done.outcome.effects, ship, target)
    parties = _boxes(second, "crew_parties")
    lost = next(
        e.amount for e in done.outcome.effects if e.who == "target" and e.what == "crew_parties"
    )
    assert set(parties[1 : 1 + lost]) <= _marked(marks, target)
    assert parties[0] not in marks.get(target.key, {})


def test_convoy_boarding_repulse_crosses_crew_and_ticks_paused() -> None:
    first, second = _cards("convoy")
    ship, target = _ship(first, 0), _ship(second, 1)
    done = _resolve_until(
        "convoy.boarding",
        ship,
        target,
        {"grappled": "yes"},
        lambda r: r.outcome.result == "repulsed",
    )
    assert "Both ships pause for their next turn." in done.outcome.changes
    marks = crossings("convoy", done.outcome.effects, ship, target)
    assert _marked(marks, ship) == {*_boxes(first, "crew")[:2], _check(first, "paused")}
    assert _marked(marks, target) == {_boxes(second, "crew")[0], _check(second, "paused")}


def test_convoy_gunnery_hits_are_the_players_choice() -> None:
    first, second = _cards("convoy")
    ship, target = _ship(first, 0), _ship(second, 1)
    done = _resolve_until(
        "convoy.gunnery", ship, target, {}, lambda r: r.outcome.result != "no hits"
    )
    assert "Target: apply the first hit (target's choice)" in done.outcome.changes
    assert done.outcome.effects == ()
    assert done.to_json()["effects"] == []
    assert crossings("convoy", done.outcome.effects, ship, target) == {}


def test_impulse_damage_crosses_hull_rigging_and_crew() -> None:
    first, second = _cards("impulse")
    ship, target = _ship(first, 0), _ship(second, 1, {"hull": 3})
    done = _resolve_until(
        "impulse.fire-combat",
        ship,
        target,
        {"to_hit": "5", "range_mp": "3"},
        lambda r: len(r.outcome.effects) == 3,
    )
    found = re.match(
        r"Defender: (\d+) hull, (\d+) rigging, (\d+) crew hits", done.outcome.changes[0]
    )
    assert found is not None
    hull, rigging, crew = (int(n) for n in found.groups())
    marks = _marked(crossings("impulse", done.outcome.effects, ship, target), target)
    assert marks == {
        *_boxes(second, "hull")[3 : 3 + hull],
        *_boxes(second, "rigging")[:rigging],
        *_boxes(second, "crew")[:crew],
    }


def test_high_seas_hit_points_cross_a_box_per_whole_ten() -> None:
    first, second = _cards("high-seas")
    ship, target = _ship(first, 0), _ship(second, 1, {"hull_hp": 2})
    done = _resolve_until(
        "high-seas.cannon-fire",
        ship,
        target,
        {"range": "Short", "target": "hull", "guns": "18"},
        lambda r: r.outcome.result.startswith("hit"),
    )
    found = re.match(r"Target: -(\d+) Hull Hit Points", done.outcome.changes[0])
    assert found is not None
    damage = int(found.group(1))
    assert done.outcome.effects == (Effect("target", "hull_hp", damage),)
    marks = _marked(crossings("high-seas", done.outcome.effects, ship, target), target)
    assert marks == set(_boxes(second, "hull_hp")[2 : 2 + damage // 10])


def test_a_loss_reaching_what_is_left_crosses_every_box_left() -> None:
    first, second = _cards("high-seas")
    boxes = _boxes(second, "hull_hp")
    target = _ship(second, 1, {"hull_hp": len(boxes) - 1})
    left = _rating(second, "hull_hp") - (len(boxes) - 1) * 10
    marks = crossings("high-seas", (Effect("target", "hull_hp", left),), _ship(first, 0), target)
    assert _marked(marks, target) == {boxes[-1]}


def test_crossing_stops_at_the_rows_end_and_skips_what_no_row_holds() -> None:
    first, second = _cards("tactical")
    target = _ship(second, 1, {"crew": 1})
    effects = (
        Effect("target", "crew", 99),
        Effect("target", "masts", 1),
        Effect("target", "state", state="struck"),
    )
    marks = crossings("tactical", effects, _ship(first, 0), target)
    assert _marked(marks, target) == set(_boxes(second, "crew")[1:])


def test_a_state_already_ticked_is_not_marked_again() -> None:
    first, _ = _cards("flob")
    ship = _ship(first, 0, ticked=("struck",))
    marks = crossings("flob", (Effect("ship", "state", state="struck"),), ship, None)
    assert marks == {}


def test_an_effect_names_ship_or_target() -> None:
    with pytest.raises(ValueError, match="expected one of ship, target"):
        Effect("firer", "hull", 1)


def test_an_input_given_instead_leaves_out_what_it_stands_for() -> None:
    from generator.app.filling import Filled, with_given

    filled = [Filled("broadside", 8, "b"), Filled("target_hull", 6, "h"), Filled("rate", 3, "r")]
    kept = with_given("flob.broadside", filled, {"attack": "5"})
    assert [item.name for item in kept] == ["rate"]
    assert [item.name for item in with_given("flob.broadside", filled, {"rate": "2"})] == [
        "broadside",
        "target_hull",
    ]
