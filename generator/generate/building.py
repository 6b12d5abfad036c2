"""Change one side of a scenario in hand: roll it again until the sides are even, or build it
to a strength the GM names, by the ruleset's own generator.

A side is always rolled whole (`RulesetGenerator.roll_side`, for its navy, in the scenario's
year): its ships share the side's own rolls (tactical's national, fleet and admiral bonuses
are in every ship's ratings, a flob squadron's admiral and order of battle, a convoy's
escorts before its merchants), so a ship taken from another roll would not belong to it.
Every roll comes from sub-seeds of a seed the GM is shown, so the same seed gives the same
side again.

The setting follows from the sides (start hexes one a ship, briefing lines naming ships and
admirals), so it is rolled again for the new sides (`with_side`): the year and the place are
kept, and a title of the GM's own; of the setting's rolls the first that keeps the wind,
the weather and a duel's venue is taken, else the one that keeps most of them (the wind
first), and the words say what changed.

The sub-seeds are drawn as ``quartermaster scenario --balanced`` draws its own, and these
functions use `generator.generate.scenario`'s own pieces (`_side`, `_scenario`, `_balance`,
`_warn`), so a side and a setting are made here as a scenario makes them.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, cast

from generator.errors import InputError
from generator.generate.base import RulesetGenerator, get_generator
from generator.generate.common import MAX_SHIPS, Names
from generator.generate.scenario import (
    BALANCE_TOLERANCE,
    MAX_BALANCE_ATTEMPTS,
    _balance,
    _scenario,
    _side,
    _warn,
)
from generator.loading import Rules
from generator.ruleset.model import Scenario, Side, units_of

#: rolls of the setting tried for one that keeps the wind, the weather and the venue
SETTING_ATTEMPTS = 200
#: the parts of a setting kept where a roll allows, the first first
KEPT = ("wind", "weather", "venue")
#: rolls of a side tried for each number of ships when building to a strength
ROLLS_PER_SIZE = 12
#: how far from the strength asked a side may end (of it) before the strength is refused as
#: out of reach: the balance's tolerance
REACH = BALANCE_TOLERANCE


@dataclass(frozen=True)
class Changed:
    """A scenario with one side changed (or not) and what was done, in words.

    Attributes:
        scenario: the scenario (the one given, unchanged, when `changed` is false).
        said: what was done, one sentence a line, in the GM's words.
        changed: whether anything changed.
    """

    scenario: Scenario
    said: list[str]
    changed: bool


def side_number(scenario: Scenario, side: int) -> int:
    """Return `side` (0 the first) if the scenario has it, else refuse it in one line."""
    count = len(scenario["sides"])
    if not 0 <= side < count:
        raise InputError(f"side {side}: a scenario's sides are 0 (the first) to {count - 1}")
    return side


def balance_sides(rules: Rules, scenario: Scenario, side: int, seed: int) -> Changed:
    """Roll side `side` of `scenario` again (its navy, the scenario's year; as many ships
    as the other side where the sides are alike, else the rules' size), from sub-seeds of
    `seed`, until its strength is within 10 % of the other side's, the other side kept as
    it is: the rule of ``quartermaster scenario --balanced`` (and ``--side``). When no roll
    in MAX_BALANCE_ATTEMPTS comes within 10 %, the closest is kept and the words (and
    ``balance.warning``) say so. Sides already within 10 % are left as they are.

    Raises:
        InputError: no such side, or a scenario without two sides.
    """
    gen = get_generator(str(scenario["ruleset"]))
    side = side_number(scenario, side)
    if len(scenario["sides"]) != 2:
        raise InputError("balance: a scenario of two sides is balanced, not one")
    other = scenario["sides"][1 - side]
    strengths = [gen.strength(s) for s in scenario["sides"]]
    if _ratio(strengths[0], strengths[1]) >= 1 - BALANCE_TOLERANCE:
        first, second = (s["name"] for s in scenario["sides"])
        return Changed(
            scenario,
            [
                f"The sides are already within 10 %: {first} has strength "
                f"{_shown(strengths[0])} and {second} {_shown(strengths[1])}; nothing was "
                "changed."
            ],
            False,
        )
    target = gen.strength(other)
    size = _size(gen, other)
    master = random.Random(f"balance:{seed}")
    best: tuple[float, Side, int] | None = None
    tried = 0
    for attempt in range(1, MAX_BALANCE_ATTEMPTS + 1):
        tried = attempt
        rolled = roll_side_again(rules, gen, scenario, side, master.randrange(2**32), size)
        ratio = _ratio(gen.strength(rolled), target)
        if best is None or ratio > best[0]:
            best = (ratio, rolled, attempt)
        if ratio >= 1 - BALANCE_TOLERANCE:
            break
    assert best is not None
    ratio, rolled, attempt = best
    name = _the(gen, scenario["sides"][side])
    if rolled["name"] != scenario["sides"][side]["name"]:
        name += f" (now {_the(gen, rolled)})"  # high-seas names a lone ship's side by her
    made, setting_said = with_side(rules, scenario, side, rolled)
    made["balance"] = _balance(gen, made, attempt)
    made["balance"]["rolls"] = tried
    _warn(made, f"none of {tried} rolls of seed {seed} came closer")
    warning = made["balance"].get("warning")
    if warning is None:
        said = [
            f"Rolled {name} again ({_count(gen, rolled)}, roll {attempt} of seed {seed}): "
            f"strength {_shown(gen.strength(rolled))} against {_shown(target)} for "
            f"{_the(gen, other)}, within 10 %."
        ]
    else:
        said = [warning]
    return Changed(made, [*said, *setting_said], True)


def build_side(rules: Rules, scenario: Scenario, side: int, strength: float, seed: int) -> Changed:
    """Build side `side` of `scenario` to `strength` by the ruleset's measure: of the side
    as it is and the rolls of its navy (the scenario's year) of 1 to MAX_SHIPS ships,
    ROLLS_PER_SIZE of each from sub-seeds of `seed`, keep the one nearest `strength` (the
    side as it is on a tie), within the rules' limits on a fleet (MAX_SHIPS asked, as
    ``--ships`` takes them; the setting's room, as convoy's start hexes). Larger fleets are
    not rolled once every roll of a size is stronger than asked.

    Raises:
        InputError: a ruleset whose sides are not ships, no such side, a strength that is
            not a positive number, or one no roll comes within 10 % of.
    """
    ruleset = str(scenario["ruleset"])
    gen = get_generator(ruleset)
    if gen.units != "ships":
        raise InputError(
            f"{ruleset}: a side is one {gen.unit_word}; only a side of ships is built to a "
            "strength (balance the sides instead)"
        )
    side = side_number(scenario, side)
    if not (math.isfinite(strength) and strength > 0):
        raise InputError(f"strength {strength:g}: a number above 0")
    current = scenario["sides"][side]
    name = _the(gen, current)
    now = gen.strength(current)
    master = random.Random(f"build:{seed}")
    # (distance, order, side, ships): the side as it is first, so that it wins a tie
    found: list[tuple[float, int, Side, int]] = [(abs(now - strength), 0, current, 0)]
    reached: list[float] = [now]
    sizes = 0
    for ships in range(1, MAX_SHIPS + 1):
        sizes = ships
        rolls = []
        for _ in range(ROLLS_PER_SIZE):
            rolled = roll_side_again(rules, gen, scenario, side, master.randrange(2**32), ships)
            value = gen.strength(rolled)
            rolls.append(value)
            found.append((abs(value - strength), len(found), rolled, ships))
        reached += rolls
        if min(rolls) > strength:
            break  # more ships only make it stronger
    tried = len(found) - 1
    low, high = min(reached), max(reached)
    what = f"{tried} rolls of 1 to {sizes} ships from seed {seed}"
    no_room: int | None = None  # the fewest ships the setting was found to have no room for
    for distance, _, rolled, ships in sorted(found, key=lambda item: item[:2]):
        if no_room is not None and ships >= no_room:
            continue
        if distance > REACH * strength:
            break
        if ships == 0:
            return Changed(
                scenario,
                [
                    f"{name[0].upper()}{name[1:]} has strength {_shown(now)} (asked "
                    f"{strength:g}): no roll of {what} came nearer; nothing was changed."
                ],
                False,
            )
        try:
            made, setting_said = with_side(rules, scenario, side, rolled)
        except InputError:
            no_room = ships  # the rules' own limit (convoy: a start hex a ship)
            continue
        made["balance"] = _balance(gen, made, 1)
        value = gen.strength(rolled)
        said = [
            f"Built {name} to strength {_shown(value)} with {_count(gen, rolled)} (asked "
            f"{strength:g}): the nearest of {what}."
        ]
        return Changed(made, [*said, *setting_said], True)
    room = "" if no_room is None else f"; the setting has no room for {no_room} ships"
    raise InputError(
        f"strength {strength:g}: out of reach for {name}: {what} gave {_shown(low)} to "
        f"{_shown(high)}{room}"
    )


def roll_side_again(
    rules: Rules, gen: RulesetGenerator, scenario: Scenario, side: int, seed: int, ships: int | None
) -> Side:
    """Roll side `side` of `scenario` again from `seed`: its navy, `ships` ships (None for
    the rules' size), in the scenario's year, no name another side uses."""
    rng = random.Random(seed)
    names = _names(rules, scenario, rng, scenario["sides"], skip=side)
    names.side = side
    navy = str(scenario["sides"][side]["navy"])
    return _side(rules, gen, rng, names, navy, ships)


def with_side(rules: Rules, scenario: Scenario, side: int, new: Side) -> tuple[Scenario, list[str]]:
    """Return a copy of `scenario` with side `side` replaced by `new` and the setting rolled
    again for its sides (sub-seeds of the scenario's seed): the year, the place and a title
    of the GM's own kept, and of SETTING_ATTEMPTS rolls the first that keeps the wind, the
    weather and the venue (`KEPT`), else the one that keeps the most of them, the wind
    first; and the words saying so.

    Raises:
        InputError: the setting has no room for the sides (convoy's start hexes).
    """
    gen = get_generator(str(scenario["ruleset"]))
    sides = [new if index == side else kept for index, kept in enumerate(scenario["sides"])]
    place = _place(rules, scenario)
    seed = int(scenario["seed"])
    master = random.Random(f"setting:{seed}")
    best: tuple[tuple[bool, ...], Scenario] | None = None
    refused: InputError | None = None
    for _ in range(SETTING_ATTEMPTS):
        rng = random.Random(master.randrange(2**32))
        names = _names(rules, scenario, rng, sides, place)
        try:
            trial = _scenario(rules, gen, seed, rng, names, sides)
        except InputError as exc:
            refused = exc  # no room on this roll's map (convoy: its start hexes)
            continue
        score = tuple(trial.get(key) == scenario.get(key) for key in KEPT if key in scenario)
        if best is None or score > best[0]:
            best = (score, trial)
        if all(score):
            break
    if best is None:
        assert refused is not None
        raise refused
    made = best[1]
    # a title of the GM's own is kept; one the rules made for the sides as they were is
    # made again for the new sides (a duel's names its duellists)
    rng = random.Random(0)
    rolled_before = _scenario(
        rules,
        gen,
        seed,
        rng,
        _names(rules, scenario, rng, scenario["sides"], place),
        scenario["sides"],
    )
    own_title = scenario["title"] != rolled_before["title"]
    if own_title:
        made["title"] = scenario["title"]
    if "options" in scenario:
        made["options"] = scenario["options"]
    return made, [_setting_words(scenario, made, place is not None, own_title)]


def _setting_words(before: Scenario, after: Scenario, place: bool, title: bool) -> str:
    kept = [
        *(["the year"] if "year" in before else []),
        *(["the place"] if place else []),
        *(["your title"] if title else []),
    ]
    new = []
    for key in KEPT:
        if key not in before:
            continue
        if after.get(key) == before.get(key):
            kept.append(f"the {key}")
        else:
            found = cast(dict[str, Any], after.get(key) or {})
            words = found.get("direction") or found.get("result") or "rolled again"
            new.append(f"the {key} is now {str(words).lower()}")
    said = "The setting was rolled again for these sides"
    if kept:
        said += f", keeping {_listed(kept)}"
    return f"{said}; {_listed(new)}." if new else f"{said}."


def _listed(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


@dataclass
class _KeptPlace(Names):
    """Names that give the scenario's place again where the sides' navies sailed there."""

    kept: str | None = None

    def place(self, navies: list[str]) -> str:
        assert self.rules.names is not None
        if self.kept is not None and self.kept in self.rules.names.places_for(navies, self.year):
            return self.kept
        return super().place(navies)


def _place(rules: Rules, scenario: Scenario) -> str | None:
    """Return the place the scenario's title names (the longest of the places its navies
    could meet at), or None."""
    assert rules.names is not None
    year = scenario.get("year")
    navies = [str(side["navy"]) for side in scenario["sides"]]
    try:
        places = rules.names.places_for(navies, year if isinstance(year, int) else None)
    except KeyError:
        return None  # a navy the names do not know: no place to keep
    named = [place for place in places if place in scenario["title"]]
    return max(named, key=len) if named else None


def _names(
    rules: Rules,
    scenario: Scenario,
    rng: random.Random,
    sides: list[Side],
    place: str | None = None,
    skip: int | None = None,
) -> Names:
    """Return the names of a roll for `sides` of `scenario`: its year, their navies, every
    unit's name taken but those of side `skip` (the one rolled again), `place` kept."""
    used = {
        str(unit.get("name", ""))
        for index, side in enumerate(sides)
        if index != skip
        for unit in units_of(side)
    }
    year = scenario.get("year")
    return _KeptPlace(
        rules,
        rng,
        used=used,
        year=year if isinstance(year, int) else None,
        in_play=tuple(str(side["navy"]) for side in sides),
        kept=place,
    )


def _size(gen: RulesetGenerator, other: Side) -> int | None:
    """Return the ships a side rolled to meet `other` has, as ``scenario --side`` rolls one:
    as many as `other` where the sides are alike (`RulesetGenerator.mirrored`), else the
    rules' own size (None; a duellist too)."""
    return len(units_of(other)) if gen.units == "ships" and gen.mirrored else None


def _count(gen: RulesetGenerator, side: Side) -> str:
    count = len(units_of(side))
    return f"{count} {gen.unit_word}{'s' if count != 1 else ''}"


def _the(gen: RulesetGenerator, side: Side) -> str:
    """Return a side's name as a sentence names it: "the British squadron", a duellist's
    name alone."""
    return str(side["name"]) if gen.people else f"the {side['name']}"


def _shown(strength: float) -> str:
    """Return a strength as the balance records it (two decimals at most)."""
    return f"{round(strength, 2):g}"


def _ratio(one: float, other: float) -> float:
    high = max(one, other)
    return 1.0 if high <= 0 else min(one, other) / high
