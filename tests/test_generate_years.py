"""The year of a rolled scenario comes first: its ships' names, its navies, their titles
and the enemies they meet all fit it, for every ruleset that sets its scenarios in a year."""

from __future__ import annotations

from typing import Any

import pytest

from generator.generate.base import get_generator
from generator.generate.scenario import Order, roll_force, roll_scenario
from generator.loading import NameLists, Rules
from generator.rulesets import ruleset_ids

DATED = [r for r in ruleset_ids() if get_generator(r).dated]
SEEDS = range(16)


def _fits(names: NameLists, name: str, lists: list[list[str]]) -> bool:
    """Return whether a ship's name (or the name with a numeral added) is in `lists`."""
    return any(name in found or name.rsplit(" ", 1)[0] in found for found in lists)


def _check_year(names: NameLists, ruleset: str, data: dict[str, Any], sides: list[Any]) -> None:
    year = data["year"]
    for side in sides:
        navy = side["navy"]
        assert navy in names.navies_for(year), (ruleset, year, navy)
        # the side's name carries the navy's title of that year (the French of 1798 are
        # the Republic's), as far as the ruleset's name of a side does
        title = names.navy_title(navy, year)
        assert side["name"].startswith((title, title.split(" (")[0])), (year, side["name"])
        for ship in side.get("ships", []):
            own = ship.get("navy", navy)
            lists = [names.ship_names(own, year)]
            if ruleset == "high-seas":  # merchantmen and pirates have their own lists
                lists += [names.ship_names(n, year) for n in ("merchant", "pirate")]
            assert _fits(names, ship["name"], lists), (ruleset, data["seed"], year, ship["name"])


@pytest.mark.parametrize("ruleset", DATED)
def test_a_rolled_scenario_fits_its_year(rules: Rules, ruleset: str) -> None:
    """Seeds 0-15, fair by default as the command line rolls them: every ship's name
    lies within its dated years, every navy sailed that year under its title of the year,
    and the two navies fought each other that year (a rolled year is one of a war of
    data/names.yaml)."""
    names = rules.names
    assert names is not None
    gen = get_generator(ruleset)
    low, high = gen.years(rules)
    for seed in SEEDS:
        scenario = roll_scenario(rules, ruleset, seed, Order())
        year = scenario["year"]
        assert isinstance(year, int) and low <= year <= high, (seed, year)
        _check_year(names, ruleset, scenario, scenario["sides"])
        first, second = (side["navy"] for side in scenario["sides"])
        assert second in names.foes(first, year), (seed, year, first, second)
    # the same seed rolls the same scenario, year first
    assert roll_scenario(rules, ruleset, 7, Order()) == roll_scenario(rules, ruleset, 7, Order())


@pytest.mark.parametrize("ruleset", DATED)
def test_a_rolled_fleet_fits_its_year(rules: Rules, ruleset: str) -> None:
    names = rules.names
    assert names is not None
    for seed in range(6):
        force = roll_force(rules, ruleset, seed)
        _check_year(names, ruleset, force, [force])
        assert force == roll_force(rules, ruleset, seed)


def test_the_users_flob_scenario_has_no_ship_of_a_later_year(rules: Rules) -> None:
    """`scenario flob --seed 100` was "1768" with Wagram (launched 1809)."""
    names = rules.names
    assert names is not None
    scenario = roll_scenario(rules, "flob", 100, Order())
    year = scenario["year"]
    assert scenario["title"].endswith(f", {year}")
    assert any(f"The year is {year}" in line for line in scenario["special_rules"])
    for side in scenario["sides"]:
        for ship in side["ships"]:
            if ship["name"] == "Wagram":
                assert year >= 1809


def test_the_year_a_gm_asks_has_any_two_navies_when_it_holds_no_war(rules: Rules) -> None:
    names = rules.names
    assert names is not None
    assert not any(names.foes(n, 1768) for n in names.navies_for(1768))
    scenario = roll_scenario(rules, "flob", 3, Order(year=1768))
    assert scenario["year"] == 1768
    first, second = (side["navy"] for side in scenario["sides"])
    assert first != second and {first, second} <= set(names.navies_for(1768))


def test_a_navy_asked_is_met_by_an_enemy_of_a_year_it_fought(rules: Rules) -> None:
    names = rules.names
    assert names is not None
    for seed in range(8):
        scenario = roll_scenario(rules, "tactical", seed, Order(navies=("american",)))
        year = scenario["year"]
        second = scenario["sides"][1]["navy"]
        assert second in names.foes("american", year), (seed, year, second)
        both = roll_scenario(rules, "flob", seed, Order(navies=("russian", "swedish")))
        assert "swedish" in names.foes("russian", both["year"]), both["year"]


def test_a_diplomats_allies_are_never_the_enemy(rules: Rules) -> None:
    names = rules.names
    assert names is not None
    seen = 0
    for seed in range(40):
        scenario = roll_scenario(rules, "tactical", seed, Order())
        navies = {side["navy"] for side in scenario["sides"]}
        for side in scenario["sides"]:
            ally = side.get("ally_navy")
            if ally is None:
                continue
            seen += 1
            assert ally not in navies, (seed, ally)
            enemy = next(n for n in navies if n != side["navy"])
            assert ally not in names.foes(side["navy"], scenario["year"]), (seed, ally)
            assert ally not in names.allies(enemy, scenario["year"]), (seed, ally)
    assert seen, "some Diplomat in 40 seeds"


def test_a_duel_is_set_in_no_year(rules: Rules) -> None:
    assert "year" not in roll_scenario(rules, "duel", 4, Order())
