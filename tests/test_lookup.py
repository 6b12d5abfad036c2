"""Lookup: the fixed table ids and axes, open ends, matching, and bad input."""

from __future__ import annotations

import pytest

from generator.errors import LookupInputError
from generator.loading import Rules
from generator.lookup import lookup

FIXED_AXES = {
    "impulse.damage-effects": ("roll", "hits"),
    "impulse.morale-effects": ("roll", "hits"),
    "impulse.movement-points": ("initiative", "non_initiative"),
    "impulse.hull-type-bonus": ("hull", "roll"),
    "flob.broadside": ("attack", "roll"),
    "tactical.wind": ("roll",),
    "tactical.broadside": ("roll",),
    "tactical.broadside-attribute": ("roll",),
    "tactical.national": ("roll",),
    "tactical.fleet": ("roll",),
    "tactical.admiral": ("roll",),
    "tactical.ship": ("roll",),
    "tactical.captain": ("roll",),
    "tactical.crew": ("roll",),
    "high-seas.cannon-hit": ("range", "target"),
    "high-seas.grapple": ("size",),
}


@pytest.mark.parametrize(("table_id", "axes"), FIXED_AXES.items())
def test_fixed_ids_have_their_axes(rules: Rules, table_id: str, axes: tuple[str, ...]) -> None:
    table = rules.table(table_id)
    assert table.kind == "table"
    assert sorted(a.name for a in table.axes) == sorted(axes)


def test_movement_points_letters(rules: Rules) -> None:
    table = rules.table("impulse.movement-points")
    for axis in table.axes:
        assert axis.labels == tuple("ABCDEFGH")
    result = lookup(rules, "impulse.movement-points", {"initiative": "B", "non_initiative": "A"})
    assert result.text == "7/6"
    assert result.to_json()["initiative"] == 7
    assert result.to_json()["non_initiative"] == 6


def test_flob_broadside_open_ended_rows(rules: Rules) -> None:
    def cell(attack: int, roll: int) -> str:
        return lookup(rules, "flob.broadside", {"attack": attack, "roll": roll}).text

    assert cell(12, 2) == cell(30, 2) == "3rr, s"
    assert cell(-8, 2) == cell(-40, 2) == "rr"
    assert cell(-8, 3) == "—"
    assert cell(5, 5) == "2rr"
    parsed = lookup(rules, "flob.broadside", {"attack": 9, "roll": 2}).to_json()
    assert parsed["rr"] == 3
    assert parsed["strike_test"] is True
    assert parsed["shattered"] is False


def test_high_seas_cannon_hit_targets(rules: Rules) -> None:
    def cell(rng: str, target: str) -> str:
        return lookup(rules, "high-seas.cannon-hit", {"range": rng, "target": target}).text

    assert cell("long", "hull") == cell("long", "crew") == "6"
    assert cell("long", "rigging") == "4"
    assert cell("medium", "hull") == "10"
    assert cell("short", "rigging") == "12"
    assert cell("close", "crew").casefold() == "automatic"
    assert cell("Close", "Rigging") == "18"


def test_high_seas_grapple(rules: Rules) -> None:
    got = {
        s: lookup(rules, "high-seas.grapple", {"size": s}) for s in ("smaller", "same", "larger")
    }
    assert [got[s].text for s in ("smaller", "same", "larger")] == ["5-6", "4-6", "3-6"]


def test_tactical_fleet_table_is_fixed_up(rules: Rules) -> None:
    results = [lookup(rules, "tactical.fleet", {"roll": r}).text for r in range(1, 9)]
    assert results == [
        "Privateers/Raiders",
        "Privateers/Raiders",
        "Warships",
        "Warships",
        "Invasion Fleet",
        "Invasion Fleet",
        "Escort/Patrol",
        "Escort/Patrol",
    ]
    assert rules.table("tactical.fleet").note


def test_tactical_broadside_open_end(rules: Rules) -> None:
    assert (
        lookup(rules, "tactical.broadside", {"roll": 40}).text
        == lookup(rules, "tactical.broadside", {"roll": 14}).text
    )
    assert lookup(rules, "tactical.broadside", {"roll": -3}).text == "No Damage"


@pytest.mark.parametrize(
    ("table_id", "inputs", "message"),
    [
        ("flob.nothing", {}, r"unknown table 'flob.nothing' \(tables of flob: .*flob\.broadside"),
        ("flob.broadsde", {}, r"unknown table 'flob.broadsde': did you mean 'flob.broadside'\?"),
        ("pirates.loot", {}, r"unknown table 'pirates.loot' \(ids are RULESET.TABLE, with"),
        ("flob", {}, r"'flob' is a ruleset; a table id is RULESET.TABLE \(tables of flob: "),
        ("flob.broadside", {"attack": "5"}, r"missing roll=VALUE \(roll: 2\.\.12\)"),
        (
            "flob.broadside",
            {"attack": "5", "roll": "13"},
            r"roll=13: not on the table \(valid: 2\.\.12\)",
        ),
        ("flob.broadside", {"attack": "x", "roll": "3"}, r"attack=x: expected a whole number"),
        ("flob.broadside", {"attack": "5", "roll": "3", "range": "1"}, r"unknown input 'range'"),
        (
            "high-seas.grapple",
            {"size": "huge"},
            r"size=huge: no such size \(valid: Smaller, Same, Larger\)",
        ),
        (
            "impulse.movement-points",
            {"initiative": "Z", "non_initiative": "A"},
            r"valid: A, B, C, D, E, F, G, H",
        ),
    ],
)
def test_bad_lookups_name_the_valid_choices(
    rules: Rules, table_id: str, inputs: dict[str, str], message: str
) -> None:
    with pytest.raises(LookupInputError, match=message):
        lookup(rules, table_id, inputs)


def test_every_table_cell_can_be_looked_up(rules: Rules) -> None:
    """Every value of every axis finds its own cell: labels, numbers and open ends."""
    for table in rules.all_tables():
        if table.kind != "table":
            continue
        first = table.axes[0]
        for i, value in enumerate(first.values):
            probe = value.low if value.low is not None else value.high
            key = probe if first.numeric else value.label
            if len(table.axes) == 1:
                assert lookup(rules, table.id, {first.name: key}).cell == table.cells[i]
                continue
            second = table.axes[1]
            for j, other in enumerate(second.values):
                probe2 = other.low if other.low is not None else other.high
                key2 = probe2 if second.numeric else other.label
                got = lookup(rules, table.id, {first.name: key, second.name: key2})
                assert got.cell == table.cells[i][j], (table.id, value.label, other.label)


def test_modifiers_lists_look_up_by_id(rules: Rules) -> None:
    table = next(t for t in rules.all_tables() if t.kind == "modifiers")
    mod = table.modifiers[0]
    result = lookup(rules, table.id, {"modifier": mod.id})
    assert result.text == str(mod.value)
    with pytest.raises(LookupInputError, match="no such modifier"):
        lookup(rules, table.id, {"modifier": "no-such-thing"})


def test_a_count_finds_its_open_ended_label_row(rules: Rules) -> None:
    """FLoB 6.9: the "5 'HFs' or more" row answers for every count of 5 and up."""
    for count in (5, 6, 12):
        found = lookup(rules, "flob.fire-fighting", {"severity": str(count), "crew": "1"})
        assert found.inputs["severity"] == "5 ‘HFs’ or more"
    assert lookup(rules, "flob.fire-fighting", {"severity": "3", "crew": "1"}).inputs[
        "severity"
    ] == ("2 or 3 ‘HF’")
    with pytest.raises(LookupInputError, match=r"severity=0: no such severity"):
        lookup(rules, "flob.fire-fighting", {"severity": "0", "crew": "1"})
