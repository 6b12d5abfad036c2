"""Whole scenarios and single forces, from a seed; and reading edited ones back.

A scenario is plain data (JSON/YAML): ruleset, seed, sides, wind, weather, map, set-up,
victory conditions and special rules. A GM can edit it and hand it back with ``--from``;
it is checked before use and refused with the file, the key path and what was wrong.
"""

from __future__ import annotations

import copy
import json
import random
import weakref
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, cast

import yaml

from generator import __version__
from generator.errors import InputError, QuartermasterError
from generator.generate.base import RulesetGenerator, get_generator
from generator.generate.common import MAX_SHIPS, Checker, Names, pick
from generator.loading import Rules
from generator.ruleset.model import Balance, Force, Scenario, Side, side_of, units_of
from generator.schema import check_force, check_scenario
from generator.suggest import unknown
from generator.yamlfile import YamlDoc, read_yaml

BALANCE_TOLERANCE = 0.10
MAX_BALANCE_ATTEMPTS = 200


@dataclass(frozen=True)
class Order:
    """What the GM asked for: ships per side, navies, the year, and fair sides.

    Attributes:
        ships: ships per side: () for the rules' size (or the roll), one number for both
            sides, two for uneven sides.
        navies: the first side's navy, or both; () to roll them.
        year: the year the action is fought in; None to roll it (or leave it open).
        balanced: reroll from sub-seeds until the sides are within 10 % of each other.
    """

    ships: tuple[int, ...] = ()
    navies: tuple[str, ...] = ()
    year: int | None = None
    balanced: bool = True

    def size(self, side: int) -> int | None:
        """Return the ships asked for side `side` (0 first), or None."""
        if not self.ships:
            return None
        return self.ships[min(side, len(self.ships) - 1)]

    def asked(self) -> dict[str, Any]:
        """Return what was asked, as the options that make the scenario again."""
        found: dict[str, Any] = {}
        if self.ships:
            found["ships"] = list(self.ships)
        if self.navies:
            found["navies"] = list(self.navies)
        if self.year is not None:
            found["year"] = self.year
        found["balanced"] = self.balanced
        return found


# the raw roll: what a library caller gets by default (the command line balances)
RAW = Order(balanced=False)


def fielded_navies(rules: Rules, gen: RulesetGenerator, year: int | None) -> list[str]:
    """Return the navies `gen` can field (in `year`, when given), sorted."""
    return gen.navies(Names(rules, random.Random(0), year=year))


def check_order(rules: Rules, ruleset: str, order: Order, navy_option: str = "--navies") -> None:
    """Refuse, in one line naming the option as typed, an order the ruleset cannot meet:
    a navy it does not field first (`navy_option`: ``--navies``, or ``--navy`` for one
    fleet), unless the year is one it is not played in; then the ships, the year and the
    navies' number."""
    gen = get_generator(ruleset)
    low, high = gen.years(rules)
    if order.year is None or low <= order.year <= high:
        _check_navies(rules, gen, order, navy_option)
    if order.ships and gen.units != "ships":
        raise InputError(
            f"--ships: a {ruleset} side is one {gen.unit_word}; --ships does not apply"
        )
    if len(order.ships) > 2:
        raise InputError(f"--ships {_joined(order.ships)}: one number, or two for uneven sides")
    for count in order.ships:
        if not 1 <= count <= MAX_SHIPS:
            raise InputError(f"--ships {_joined(order.ships)}: from 1 to {MAX_SHIPS} a side")
    if order.year is not None and not low <= order.year <= high:
        raise InputError(f"--year {order.year}: {ruleset} is played from {low} to {high}")
    if len(order.navies) > 2:
        raise InputError(f"--navies {_joined(order.navies)}: one navy, or two")
    can = fielded_navies(rules, gen, order.year)
    if len(order.navies) == 2 and order.navies[0] == order.navies[1] and len(can) > 1:
        raise InputError(f"--navies {_joined(order.navies)}: the two sides need two navies")


def _check_navies(rules: Rules, gen: RulesetGenerator, order: Order, option: str) -> None:
    """Refuse a navy `gen` does not field in the year asked, naming `option`: one it fields
    in other years with those it fields in this one, any other with the nearest it fields."""
    every = fielded_navies(rules, gen, None)
    can = every if order.year is None else fielded_navies(rules, gen, order.year)
    when = f" in {order.year}" if order.year is not None else ""
    for navy in order.navies:
        if navy in every and navy not in can:
            raise InputError(f"{option} {navy}: {gen.ruleset} fields {', '.join(can)}{when}")
        if navy not in can:
            listing = f"{gen.ruleset} fields{when}"
            raise InputError(f"{option}: {unknown('navy', navy, can, listing=listing)}")


def _joined(values: tuple[object, ...]) -> str:
    return ",".join(map(str, values))


def _foes(gen: RulesetGenerator, names: Names, navy: str) -> list[str]:
    """Return the navies this ruleset fields that `navy` fought in `names.year` (sorted)."""
    return [n for n in names.foes(navy) if n in gen.navies(names)]


def years_to_roll(
    rules: Rules, gen: RulesetGenerator, navies: tuple[str, ...], option: str = "--navies"
) -> list[int]:
    """Return the years a scenario of `gen` may be rolled in for the given `navies` (those
    asked or read from files; () for none): years of the ruleset in which they all sail
    and a navy of them (or any, for none) fought one this ruleset fields, as data/names.yaml
    ``wars`` says; when no year has such a war, every year they all sail (empty when
    `gen` sets no year, as for a duel).

    Raises:
        InputError: the navies never sailed together in the ruleset's years (`option`
            named).
    """
    if not gen.dated:
        return []
    key = (id(rules), id(gen), navies)
    known = _YEARS.get(key)
    if known is not None and known[0]() is rules and known[1] is gen:
        _YEARS.move_to_end(key)
        return list(known[2])
    found = _years_to_roll(rules, gen, navies, option)
    # kept with the rules (weakly: a web app's house rules come and go) and the generator it
    # was found for; rules gone, their id may be another's, and the answer is found again
    _YEARS[key] = (weakref.ref(rules), gen, tuple(found))
    while len(_YEARS) > _YEARS_KEPT:
        _YEARS.popitem(last=False)
    return found


# the years found for the last few (rules, generator, navies) asked: every scenario rolled
# asks, and the answer walks each year of the ruleset (a Names and its navies and wars)
_YearsKey = tuple[int, int, tuple[str, ...]]
_YEARS: OrderedDict[_YearsKey, tuple[weakref.ref[Rules], RulesetGenerator, tuple[int, ...]]] = (
    OrderedDict()
)
_YEARS_KEPT = 64


def _years_to_roll(
    rules: Rules, gen: RulesetGenerator, navies: tuple[str, ...], option: str
) -> list[int]:
    low, high = gen.years(rules)
    sailing: list[int] = []
    at_war: list[int] = []
    for year in range(low, high + 1):
        names = Names(rules, random.Random(0), year=year)
        fielded = gen.navies(names)
        if not all(navy in fielded for navy in navies):
            continue
        sailing.append(year)
        if len(navies) == 2:
            fought = navies[1] in _foes(gen, names, navies[0])
        else:
            fought = any(_foes(gen, names, navy) for navy in (navies or fielded))
        if fought:
            at_war.append(year)
    if not sailing:
        raise InputError(
            f"{option} {_joined(navies)}: {gen.ruleset} is played from {low} to {high}, "
            "and they never sailed together in those years"
        )
    return at_war or sailing


def _choose_navies(
    gen: RulesetGenerator, names: Names, rng: random.Random, asked: tuple[str, ...]
) -> list[str]:
    """Return the two sides' navies: those asked, the rest rolled (never the same twice);
    a rolled navy is, where the year has one, an enemy of that year (`Names.foes`)."""
    navies = gen.navies(names)
    if asked:
        first = asked[0]
    else:
        fighting = [n for n in navies if _foes(gen, names, n)]
        first = pick(rng, fighting or navies)
    if len(asked) > 1:
        return [first, asked[1]]
    rest = _foes(gen, names, first) or [n for n in navies if n != first] or navies
    return [first, pick(rng, rest)]


def _year(order: Order, years: list[int], rng: random.Random) -> int | None:
    """Return the year asked, else one rolled from `years` (None when there are none)."""
    if order.year is not None:
        return order.year
    return pick(rng, years) if years else None


def _roll_sides(
    rules: Rules, gen: RulesetGenerator, rng: random.Random, order: Order, years: list[int]
) -> tuple[Names, list[Side]]:
    """Roll a scenario's year, navies and sides: the first of its rolls from `rng`, and all
    that its balance is measured on (the setting, rolled after them, is not)."""
    names = Names(rules, rng, year=_year(order, years, rng))
    navies = _choose_navies(gen, names, rng, order.navies)
    names.in_play = tuple(navies)
    sides: list[Side] = []
    for index, navy in enumerate(navies):
        names.side = index
        sides.append(_side(rules, gen, rng, names, navy, order.size(index)))
    return names, sides


def _side(
    rules: Rules,
    gen: RulesetGenerator,
    rng: random.Random,
    names: Names,
    navy: str,
    ships: int | None,
) -> Side:
    """Roll one side of `navy`, named and flagged with its navy."""
    side = gen.roll_side(rules, rng, names, navy, ships)
    side.setdefault("name", gen.side_name(names, navy))
    side.setdefault("navy", navy)
    return side


def _scenario(
    rules: Rules,
    gen: RulesetGenerator,
    seed: int,
    rng: random.Random,
    names: Names,
    sides: list[Side],
    departure: str | None = None,
) -> Scenario:
    """Roll the setting for `sides` and put the scenario together (in its file's key order)."""
    setting = gen.roll_setting(rules, rng, sides, names)
    # the title third, before the sides (the setting's keys after them keep the order they
    # were first given in). cast: every key of a Setting is a Scenario's, of the same type,
    # but mypy takes no TypedDict into a wider one by ** or update()
    scenario = cast(
        Scenario,
        {
            "ruleset": gen.ruleset,
            "seed": seed,
            "title": setting["title"],
            "sides": sides,
            **setting,
        },
    )
    if names.year is not None:
        scenario["year"] = names.year
    if departure:
        scenario["setup"] = [departure, *scenario.get("setup", [])]
    scenario["house_tables"] = sorted({*gen.house_tables, *setting.get("house_tables", [])})
    scenario["generator"] = f"quartermaster {__version__}"
    return scenario


def _balance(gen: RulesetGenerator, scenario: Scenario, attempt: int) -> Balance:
    """Return a scenario's ``balance``: the measure, both strengths, their ratio, the roll
    kept (`_warn` adds the words saying when the sides are uneven)."""
    ratio = balance_ratio(gen, scenario)
    return {
        "measure": gen.strength_measure,
        "strengths": [round(gen.strength(s), 2) for s in scenario["sides"]],
        "ratio": round(ratio, 3),
        "attempt": attempt,
        "balanced": ratio >= 1 - BALANCE_TOLERANCE,
    }


def _warn(scenario: Scenario, why: str) -> None:
    """Put the one line saying the sides are uneven into ``balance.warning``."""
    balance = scenario["balance"]
    if balance["balanced"]:
        return
    (first, second), (one, other) = (
        (side["name"] for side in scenario["sides"]),
        balance["strengths"],
    )
    balance["warning"] = (
        f"Uneven sides: {first} has strength {one:g} and {second} {other:g}, more than "
        f"10 % apart; {why}."
    )


def balance_ratio(gen: RulesetGenerator, scenario: Scenario) -> float:
    """Return weaker/stronger side strength (1.0 is perfectly even)."""
    return _sides_ratio(gen, scenario["sides"])


def _sides_ratio(gen: RulesetGenerator, sides: list[Side]) -> float:
    strengths = [gen.strength(side) for side in sides]
    high = max(strengths)
    return 1.0 if high <= 0 else min(strengths) / high


def roll_scenario(rules: Rules, ruleset: str, seed: int, order: Order = RAW) -> Scenario:
    """Roll a whole scenario for `ruleset` from `seed`, as `order` asks.

    The year (asked, else rolled first: `years_to_roll`) decides the navies, their titles
    and the ships' names. With `order.balanced`, reroll (from sub-seeds drawn from `seed`,
    so still repeatable) until the sides' strengths are within 10 % of each other; when no
    roll in MAX_BALANCE_ATTEMPTS gets there (sides asked uneven, say), the closest one is
    kept, its ``balance.balanced`` says false and ``balance.warning`` says so in words.
    """
    check_order(rules, ruleset, order)
    gen = get_generator(ruleset)
    years = years_to_roll(rules, gen, order.navies) if order.year is None else []
    master = random.Random(f"balance:{seed}")
    attempts = MAX_BALANCE_ATTEMPTS if order.balanced else 1
    # a roll is measured on its sides (its year, navies and ships, rolled first); only the
    # roll kept goes on to roll its setting (a map, a venue), from where its own dice stand,
    # so the scenario is the one rolled whole, at the cost of one setting, not one a roll
    kept: tuple[random.Random, Names, list[Side], int] | None = None
    best_ratio = -1.0
    tried = 0
    for attempt in range(1, attempts + 1):
        tried = attempt
        rng = random.Random(seed) if attempt == 1 else random.Random(master.randrange(2**32))
        names, sides = _roll_sides(rules, gen, rng, order, years)
        ratio = _sides_ratio(gen, sides)
        if ratio > best_ratio:
            kept, best_ratio = (rng, names, sides, attempt), ratio
        if not order.balanced or ratio >= 1 - BALANCE_TOLERANCE:
            break
    assert kept is not None
    rng, names, sides, attempt = kept
    departure = gen.size_departure(rules, sides, order.ships)
    best = _scenario(rules, gen, seed, rng, names, sides, departure)
    best["balance"] = _balance(gen, best, attempt)
    if order.balanced:
        best["balance"]["rolls"] = tried
        asked = ""
        if len(set(order.ships)) > 1:
            one, other = order.ships[:2]
            asked = f"{one} {'ship was' if one == 1 else 'ships were'} asked against {other}, and "
        _warn(best, f"{asked}none of {tried} rolls came closer")
    if order != RAW:
        best["options"] = order.asked()
    return best


def rolls_again(rules: Rules, scenario: Scenario) -> bool:
    """Return whether the scenario's seed, with the options it was rolled with, rolls it
    again as it is, so that a briefing claims so only then: an edited file, or one made from
    fleet files (--side), is not rolled again by its seed. Its title is left aside: the GM's
    to choose (--title)."""

    def plain(data: Mapping[str, Any], keys: list[str]) -> Any:
        kept = {k: data.get(k) for k in keys}
        return json.loads(json.dumps(kept, sort_keys=True, default=str))

    options = scenario.get("options", {})
    if not isinstance(options, dict) or "sides" in options:
        return False
    order = RAW
    if "options" in scenario:
        order = Order(
            tuple(options.get("ships", ())),
            tuple(options.get("navies", ())),
            options.get("year"),
            bool(options.get("balanced", False)),
        )
    try:
        again = roll_scenario(rules, str(scenario["ruleset"]), int(scenario["seed"]), order)
    except (QuartermasterError, KeyError, TypeError, ValueError):
        return False  # options the rules no longer take: not rolled again as it is
    # what a roll makes, title aside; what a sheet adds for itself (a packet's printing
    # notes) is not the scenario
    keys = [k for k in again if k != "title"]
    return bool(plain(again, keys) == plain(scenario, keys))


def roll_force(rules: Rules, ruleset: str, seed: int, order: Order = RAW) -> Force:
    """Roll one side's force (``quartermaster fleet``) from `seed`, as `order` asks (its
    first navy and first size), in the year asked or one rolled first (`years_to_roll`)."""
    check_order(rules, ruleset, order)
    gen = get_generator(ruleset)
    rng = random.Random(seed)
    years = years_to_roll(rules, gen, order.navies[:1]) if order.year is None else []
    names = Names(rules, rng, year=_year(order, years, rng))
    navy = _choose_navies(gen, names, rng, order.navies)[0]
    side = _side(rules, gen, rng, names, navy, order.size(0))
    # cast: a Force is a Side with a ruleset and a seed, but mypy takes no TypedDict into a
    # wider one by ** or update()
    force = cast(Force, {"ruleset": ruleset, "seed": seed, **side})
    if names.year is not None:
        force["year"] = names.year
    return force


def dump(data: Mapping[str, Any], fmt: str) -> str:
    """Write generated data as ``json`` or ``yaml`` text (stable key order, UTF-8)."""
    if fmt == "yaml":
        return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


# what each kind of file is made by, for the one line that refuses a file of another kind
MAKERS = {
    "scenario": "quartermaster scenario {ruleset} -o FILE.yaml",
    "fleet": "quartermaster fleet {ruleset} -o FILE.yaml",
    "character": "quartermaster character -o FILE.yaml",
}


def identify(data: Any, rulesets: list[str]) -> tuple[str, str | None]:
    """Return what a generated (or hand-written) file is: its kind (``scenario``,
    ``fleet``, ``character``, ``house-rules``, ``batch-manifest``, or ``unknown``) and its
    ruleset, judged by its top-level keys."""
    if not isinstance(data, dict):
        return "unknown", None
    ruleset = data.get("ruleset") if isinstance(data.get("ruleset"), str) else None
    if "sides" in data:
        return "scenario", ruleset
    if "packets" in data:
        return "batch-manifest", ruleset
    if "attributes" in data and "expertise" in data:
        return "character", ruleset
    if "ships" in data or "characters" in data:
        return "fleet", ruleset
    if data and all(key in rulesets for key in data):
        return "house-rules", None
    return "unknown", ruleset


def _described(kind: str, ruleset: str | None) -> str:
    words = {
        "scenario": "scenario",
        "fleet": "fleet",
        "character": "character",
        "house-rules": "house-rules file (give it with --rules)",
        "batch-manifest": "batch manifest",
    }
    if kind == "unknown":
        return "not a file Quartermaster wrote"
    article = "an" if (ruleset or kind)[0] in "aeiou" else "a"
    return f"{article} {ruleset + ' ' if ruleset else ''}{words[kind]}"


def expect_kind(
    path: Path, data: Any, rules: Rules, wanted: str, ruleset: str | None, option: str
) -> None:
    """Refuse, in one line, a file that is not a `wanted` (of `ruleset`): say what it is,
    what `option` needs and the command that makes one."""
    kind, found = identify(data, sorted(rules.rulesets))
    if kind == wanted and (ruleset is None or found in (None, ruleset)):
        return
    if kind == wanted and found not in rules.rulesets:
        return  # a misspelt ruleset: the checks name the key, its line and the choices
    need = ruleset or found or "RULESET"
    what = _described(wanted, ruleset)
    maker = MAKERS[wanted].format(ruleset=need)
    raise InputError(
        f"{path}: this is {_described(kind, found)}; {option} needs {what} "
        f"(make one with '{maker}')"
    )


def read_generated(
    path: Path,
    rules: Rules,
    kinds: tuple[str, ...],
    ruleset: str | None = None,
    option: str = "--from",
) -> tuple[str, Scenario | Force]:
    """Read an edited file Quartermaster wrote, of one of `kinds` (``scenario``,
    ``fleet``), check it against its ruleset's schema (`generator.schema`), and return its
    kind and data.

    Raises:
        InputError: a file of another kind (a fleet, a house-rules file ...), in one line.
        DataError: every problem, each with the file, line, key path and what is allowed.
    """
    return checked_generated(read_yaml(path), rules, kinds, ruleset, option)


def checked_generated(
    doc: YamlDoc,
    rules: Rules,
    kinds: tuple[str, ...],
    ruleset: str | None = None,
    option: str = "--from",
) -> tuple[str, Scenario | Force]:
    """Check `doc`, a file read or sent (`generator.yamlfile.parse_yaml`), as
    `read_generated` checks a file on disk."""
    path = doc.path
    kind = identify(doc.data, sorted(rules.rulesets))[0]
    wanted = kind if kind in kinds else kinds[0]
    expect_kind(path, doc.data, rules, wanted, ruleset, option)
    checker = Checker(doc)
    (check_scenario if wanted == "scenario" else check_force)(checker, rules, doc.data)
    checker.raise_if_any()
    data: Scenario | Force = doc.data  # what the scenario or fleet schema passed
    return wanted, data


def checked_scenario(
    rules: Rules, data: Any, ruleset: str | None = None, name: str = "scenario"
) -> Scenario:
    """Check a scenario in hand (sent to the web app, or kept by it) as a scenario file is
    checked, and return a copy of it; messages name it `name` where a file's would name the
    file and line.

    Raises:
        InputError: not a scenario (a fleet ...), in one line.
        CheckedProblems: every problem, each with its key path and what is allowed.
    """
    doc = YamlDoc(Path(name), copy.deepcopy(data))
    found = checked_generated(doc, rules, ("scenario",), ruleset)[1]
    assert "sides" in found  # checked as a scenario
    return found


def read_scenario(
    path: Path, rules: Rules, ruleset: str | None = None, option: str = "--from"
) -> Scenario:
    """Read an edited scenario file (JSON or YAML) and check it (`read_generated`)."""
    found = read_generated(path, rules, ("scenario",), ruleset, option)[1]
    assert "sides" in found  # read as a scenario
    return found


def read_force(
    path: Path, rules: Rules, ruleset: str | None = None, option: str = "--from"
) -> Force:
    """Read an edited single force (``fleet`` output) and check it (`read_generated`)."""
    found = read_generated(path, rules, ("fleet",), ruleset, option)[1]
    assert "sides" not in found  # read as a fleet
    return found


def scenario_from_sides(
    rules: Rules,
    ruleset: str,
    paths: list[Path],
    seed: int,
    year: int | None = None,
    balanced: bool = True,
) -> Scenario:
    """Make a scenario from one or two fleet files (``--side``), the rest rolled from `seed`.

    One file gives the first side; the second is rolled (as many ships where the sides are
    alike, `RulesetGenerator.mirrored`; a navy that fought the first's in the year where
    data/names.yaml says one did) and, when `balanced`, rolled again (from sub-seeds of
    `seed`) until its strength is within 10 % of the given fleet's. The setting (wind,
    weather, map, place) is rolled for the sides' navies. The year is the one asked, else
    the files', else rolled first (`years_to_roll`). When the sides are not within 10 %
    (two files given, or no roll came close) ``balance.warning`` says so in words.
    """
    if len(paths) > 2:
        raise InputError(f"--side: a scenario has two sides, {len(paths)} files given")
    forces = [read_force(path, rules, ruleset, option="--side") for path in paths]
    names = [str(path) for path in paths]
    return scenario_from_forces(rules, ruleset, forces, names, seed, year, balanced)


def scenario_from_forces(
    rules: Rules,
    ruleset: str,
    forces: list[Force],
    files: list[str],
    seed: int,
    year: int | None = None,
    balanced: bool = True,
) -> Scenario:
    """Make a scenario around one or two fleets in hand, checked (`checked_generated`), as
    `scenario_from_sides` makes one around the fleet files named `files` (the names the
    scenario records in ``options.sides``)."""
    if len(forces) > 2:
        raise InputError(f"--side: a scenario has two sides, {len(forces)} fleets given")
    gen = get_generator(ruleset)
    rng = random.Random(seed)
    if year is None:
        year = next((f["year"] for f in forces if isinstance(f.get("year"), int)), None)
    if year is None:
        navies = tuple(str(force.get("navy")) for force in forces)
        year = _year(Order(), years_to_roll(rules, gen, navies, "--side"), rng)
    names = Names(rules, rng, year=year)
    sides: list[Side] = []
    for force in forces:
        side = side_of(force)
        for unit in units_of(side):
            names.used.add(str(unit.get("name", "")))
        sides.append(side)
    why = "both fleets were given as they are"
    if len(sides) == 1:
        sides, names, why = _match_side(rules, gen, seed, names, sides[0], balanced)
    scenario = _scenario(rules, gen, seed, rng, names, sides)
    scenario["balance"] = _balance(gen, scenario, 1)
    if balanced:
        _warn(scenario, why)
    scenario["options"] = {"sides": list(files), "balanced": balanced}
    return scenario


def _match_side(
    rules: Rules,
    gen: RulesetGenerator,
    seed: int,
    names: Names,
    given: Side,
    balanced: bool,
) -> tuple[list[Side], Names, str]:
    """Roll the side to meet the `given` one: as many ships (sides alike), a navy that
    fought it (where the year says), rerolled while `balanced` until within 10 % of its
    strength. Return both sides, the names used by the roll kept, and why no roll came
    close (for `_warn`)."""
    master = random.Random(f"balance:{seed}")
    ships = len(units_of(given)) if gen.units == "ships" and gen.mirrored else None
    target = gen.strength(given)
    attempts = MAX_BALANCE_ATTEMPTS if balanced else 1
    best: tuple[float, list[Side], Names] | None = None
    tried = 0
    for attempt in range(1, attempts + 1):
        tried = attempt
        rng = random.Random(master.randrange(2**32))
        trial = replace(names, rng=rng, used=set(names.used), side=1)
        navy = _choose_navies(gen, trial, rng, (str(given.get("navy")),))[1]
        trial.in_play = (str(given.get("navy")), navy)
        rolled = _side(rules, gen, rng, trial, navy, ships)
        strength = gen.strength(rolled)
        high = max(strength, target)
        ratio = 1.0 if high <= 0 else min(strength, target) / high
        if best is None or ratio > best[0]:
            best = (ratio, [given, rolled], trial)
        if ratio >= 1 - BALANCE_TOLERANCE:
            break
    assert best is not None
    best[2].rng = names.rng
    return best[1], best[2], f"none of {tried} rolls of the other side came closer"
