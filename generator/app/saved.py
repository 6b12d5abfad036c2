"""Game nights kept for the web app (`generator.app.store`): made as `quartermaster
scenario` makes a scenario, changed only when the whole scenario passes its schema, brought
in from the files the command line writes, and printed as `quartermaster packet --from` a
file holding the same scenario prints it (the same bytes).

A game night may keep a house-rules file (``--rules``) as it was uploaded: everything done
with it (rolls, checks, derived values, the packet) follows its rules (`night_rules`).
"""

from __future__ import annotations

import copy
import io
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from generator.app.checks import read_order, say_uneven
from generator.app.generated import Generated, roll_scenario, seed_or_fresh
from generator.app.inputs import NOT_TEXT, check_ruleset, load_rules
from generator.app.printed import PdfFile, make_packet
from generator.app.requests import (
    QUIET,
    Listener,
    OrderOptions,
    PacketRequest,
    PrintOptions,
    ScenarioRequest,
)
from generator.app.store import NotFound, Saved, Store, data_dir
from generator.errors import CheckedProblems, DataError, InputError
from generator.generate import scenario as scenarios
from generator.generate.base import get_generator
from generator.generate.building import roll_side_again, with_side
from generator.generate.common import MAX_SHIPS, Checker
from generator.generate.scenario import BALANCE_TOLERANCE
from generator.loading import HouseRules, Rules
from generator.ruleset.model import Force, Scenario, Side, units_of
from generator.schema import (
    OVERRIDE,
    Variant,
    check_side,
    fixed,
    record_of,
    schema_for,
)
from generator.yamlfile import KeyPath, YamlDoc, parse_yaml


def open_store(folder: Path | None = None) -> Store:
    """Open (making it if needed) the database of game nights in `folder`, or in the
    user's data folder (`generator.app.store.data_dir`)."""
    return Store(folder if folder is not None else data_dir())


def night_rules(saved: Saved) -> Rules:
    """Return the rules game night `saved` is played by: the built-in ones with its house
    rules applied, if it keeps any (made once for the same file: `load_rules`).

    Raises:
        DataError: its house rules no longer load (every problem, naming the file).
    """
    return load_rules(saved.house_rules)


#: the longest name a house-rules file is kept under
HOUSE_NAME_LENGTH = 100


def read_house_rules(raw: bytes, filename: str) -> HouseRules:
    """Return an uploaded house-rules file, named by `filename`'s last part, once its
    tables are checked as ``--rules FILE`` checks a file (the rules made are kept for reuse).

    Raises:
        InputError: not a text file (a PDF ...), naming it.
        DataError: every problem, each naming the file by its name and line.
    """
    name = Path(filename).name[-HOUSE_NAME_LENGTH:] or "house-rules.yaml"
    house = HouseRules(name, raw)
    load_rules(house)
    return house


def new_game_night(
    store: Store,
    request: ScenarioRequest,
    listener: Listener = QUIET,
    house: HouseRules | None = None,
) -> Saved:
    """Roll a scenario as `quartermaster scenario [--rules FILE]` does with the same
    options, and keep it, with the house rules `house` it was rolled by."""
    rules = load_rules(house)
    ruleset = request.ruleset
    check_ruleset(rules, ruleset)
    order = read_order(request.order)
    scenarios.check_order(rules, ruleset, order)
    scenario = roll_scenario(rules, ruleset, request.seed, order, listener)
    say_uneven(scenario, listener)
    return store.add_scenario(dict(scenario), house)


def change_game_night(
    store: Store, number: int, scenario: Any, version: int | None = None
) -> Saved:
    """Replace game night `number`'s scenario with `scenario`, checked whole by its
    ruleset's schema (and its house rules) first; with `version`, only if nobody changed it
    since.

    Raises:
        CheckedProblems: every problem, each with its key path; nothing is stored.
        Conflict: `version` is no longer the stored one; nothing is stored.
    """
    saved = store.scenario(number)  # a game night there is (NotFound before any check)
    checked = scenarios.checked_scenario(
        night_rules(saved), scenario, None, name=f"game night {number}"
    )
    return store.replace_scenario(number, dict(checked), version)


def change_house_rules(
    store: Store, number: int, house: HouseRules | None, version: int | None = None
) -> Saved:
    """Make game night `number` played by the house rules `house` (None: the built-in
    ones): the values the rules derive of every unit worked out again by them (those its
    ``override`` keeps stay), the balance too, the scenario checked whole by them, and
    both kept in one transaction; with `version`, only if nobody changed it since.

    Raises:
        DataError: `house` does not load (every problem, naming the file and line).
        CheckedProblems: the scenario fails the new rules (a result their tables do
            not have ...); nothing is stored.
        Conflict: `version` is no longer the stored one; nothing is stored.
    """
    saved = store.scenario_at(number, version)
    rules = load_rules(house)
    scenario = copy.deepcopy(saved.scenario)
    key = units_key(saved.ruleset)
    for side in scenario.get("sides", []):
        if isinstance(side, dict) and isinstance(side.get(key), list):
            side[key] = [
                with_derived(saved.ruleset, side, unit, rules=rules)
                if isinstance(unit, dict)
                else unit
                for unit in side[key]
            ]
    _rebalance(saved.ruleset, scenario)
    checked = scenarios.checked_scenario(rules, scenario, None, name=f"game night {number}")
    return store.set_house_rules(number, house, saved.version, dict(checked))


@dataclass(frozen=True)
class HouseRulesShown:
    """What a game night's page says of its house rules.

    Attributes:
        name: the file's name, as uploaded.
        size: its bytes.
        tables: the titles of the built-in tables its tables replace.
        problems: why it no longer loads (an upgrade changed the built-in tables): then
            nothing can be rolled, checked or printed until it is replaced or removed.
    """

    name: str
    size: int
    tables: list[str]
    problems: list[str]


def house_rules_shown(saved: Saved) -> HouseRulesShown | None:
    """Return what game night `saved`'s page says of its house rules (None: it has none)."""
    house = saved.house_rules
    if house is None:
        return None
    try:
        rules = night_rules(saved)
    except DataError as exc:
        return HouseRulesShown(house.name, len(house.raw), [], list(exc.problems))
    builtin = load_rules(None)
    tables = [
        f"{builtin.rulesets[table.ruleset].title}: {table.title}"
        for table in rules.all_tables()
        if table is not builtin.table(table.id)
    ]
    return HouseRulesShown(house.name, len(house.raw), tables, [])


def house_rules_file_name(saved: Saved) -> str:
    """Return the name game night `saved`'s house-rules file is offered under: its own,
    made of letters, digits, dots, dashes and underscores (a header quotes it)."""
    name = saved.house_rules.name if saved.house_rules is not None else ""
    kept = "".join(c if c.isascii() and (c.isalnum() or c in "._-") else "_" for c in name)
    return kept.strip("._") or "house-rules.yaml"


def ruleset_titles() -> dict[str, str]:
    """Return each ruleset's id and title (a new game night's choice)."""
    rules = load_rules(None)
    return {ruleset_id: ruleset.title for ruleset_id, ruleset in rules.rulesets.items()}


@dataclass(frozen=True)
class PacketOptions:
    """How a game night's packet is printed (as `quartermaster packet`'s options)."""

    printing: PrintOptions = PrintOptions()  # noqa: RUF009 (frozen: one shared default)
    without: str | None = None
    spares: int | None = None
    handouts: bool = False


def game_night_packet(
    saved: Saved, options: PacketOptions = PacketOptions(), listener: Listener = QUIET
) -> list[PdfFile]:
    """Return the packet (and, when asked, the handouts) of a kept game night: the bytes
    `quartermaster packet --from FILE [--rules HOUSE]` makes from a file holding its
    scenario (and one holding its house rules)."""
    return scenario_packet(saved.scenario, saved.house_rules, options, listener)


def scenario_packet(
    scenario: Mapping[str, Any],
    house: HouseRules | None,
    options: PacketOptions = PacketOptions(),
    listener: Listener = QUIET,
) -> list[PdfFile]:
    """Return the packet of a scenario in hand, played by the house rules `house`, with
    `options`: what `packet --from FILE [--rules HOUSE]` makes of files holding them."""
    request = PacketRequest(
        scenario=scenario,
        printing=options.printing,
        without=options.without,
        spares=options.spares,
        handouts=options.handouts,
        rules_file=house,
    )
    return make_packet(request, listener)


def game_night_text(saved: Saved, as_yaml: bool) -> str:
    """Return a kept game night as the scenario file `quartermaster scenario -o` writes."""
    gen = get_generator(saved.ruleset)
    scenario = cast(Scenario, saved.scenario)  # checked before it was kept
    made = Generated("scenario", scenario, gen.units, gen.summary_fields)
    return made.text(as_yaml)


def file_name(saved: Saved, suffix: str) -> str:
    """Return the name a download of game night `saved` is offered under."""
    seed = f"-{saved.seed}" if saved.seed is not None else ""
    return f"scenario-{saved.ruleset}{seed}.{suffix}"


def check_number(text: str, what: str) -> int:
    """Return `text` (a game night's number in a link) as a number, or refuse it."""
    if not text.isdigit() or len(text) > 12:
        raise InputError(f"{what} {text[:20]!r}: not a number")
    return int(text)


# --- files in and out ---------------------------------------------------------------------

#: what the web app's one upload field takes
GAME_FILE = (
    "a scenario or fleet file (.yaml or .json, as 'quartermaster scenario -o' or 'fleet -o' write)"
)


def bring_in_file(
    store: Store,
    raw: bytes,
    filename: str,
    seed: int | None = None,
    listener: Listener = QUIET,
    house: HouseRules | None = None,
) -> tuple[str, Saved]:
    """Keep a file the command line wrote, whichever it is, and say which it was
    (``scenario`` or ``fleet``): a scenario is kept as it is, checked as `--from` checks it; a fleet
    gets a game night made around it as ``quartermaster scenario RULESET --side FILE
    [--seed SEED]`` makes one (the other side rolled to meet it, balanced); either played
    by the house rules `house` (``--rules``). Messages name `filename` and its lines.

    Raises:
        InputError: not such a file, or a `seed` given with a scenario (it has its own).
        DataError: every problem of the file, each with its line and key.
    """
    name = Path(filename or "upload").name  # a name to quote, never a place on disk
    for magic, what in NOT_TEXT.items():
        if raw.startswith(magic):
            raise InputError(f"{name}: this is {what}; bring in {GAME_FILE}")
    doc = parse_yaml(raw, Path(name))
    rules = load_rules(house)
    found = scenarios.identify(doc.data, sorted(rules.rulesets))[0]
    if found not in ("scenario", "fleet"):
        what = "not a file Quartermaster wrote" if found == "unknown" else f"a {found} file"
        raise InputError(f"{name}: this is {what.replace('-', ' ')}; bring in {GAME_FILE}")
    kind, checked = scenarios.checked_generated(doc, rules, ("scenario", "fleet"))
    if kind == "scenario":
        if seed is not None:
            raise InputError(f"seed: {name} is a scenario, which keeps its own seed")
        return kind, store.add_scenario(dict(checked), house)
    ruleset = str(checked["ruleset"])
    order = read_order(OrderOptions())  # what 'scenario RULESET --side FILE' orders
    scenarios.check_order(rules, ruleset, order)
    force = cast(Force, checked)  # checked as a fleet
    scenario = scenarios.scenario_from_forces(
        rules, ruleset, [force], [name], seed_or_fresh(seed, listener), order.year, order.balanced
    )
    say_uneven(scenario, listener)
    return kind, store.add_scenario(dict(scenario), house)


def has_fleets(saved: Saved) -> bool:
    """Return whether a game night's sides can be fleet files (`quartermaster fleet`
    writes them for the rulesets with ships, not for the duel)."""
    return get_generator(saved.ruleset).units == "ships"


def side_fleet(saved: Saved, index: int) -> Force:
    """Return side `index` (0 the first) of a kept game night as the fleet file
    ``quartermaster fleet -o`` writes: its ruleset, the scenario's seed, the side, the year;
    the command line reads it back with ``fleet --from`` and ``scenario --side``."""
    sides = saved.scenario.get("sides", [])
    if not 0 <= index < len(sides):
        raise NotFound(f"side {index + 1}: game night {saved.id} has {len(sides)} sides")
    fleet: dict[str, Any] = {"ruleset": saved.ruleset, "seed": saved.scenario.get("seed")}
    fleet.update(sides[index])
    if "year" in saved.scenario:
        fleet["year"] = saved.scenario["year"]
    return cast(Force, fleet)


def side_fleet_text(saved: Saved, index: int, as_yaml: bool = True) -> str:
    """Return side `index` of a game night as the text of its fleet file (`side_fleet`).

    Raises:
        InputError: the ruleset has no fleets (the duel), or there is no such side.
    """
    if not has_fleets(saved):
        raise InputError(
            f"{saved.ruleset} has no fleets: download the scenario file or the side as text"
        )
    return scenarios.dump(side_fleet(saved, index), "yaml" if as_yaml else "json")


#: the width of a side's plain-text listing: what a forum's code block shows unbroken
LISTING_WIDTH = 80
# box-drawing characters (U+2500 to U+257F, which Rich draws table rules with) as ASCII
_ASCII_BOX = dict.fromkeys(range(0x2500, 0x2580), "-")
_ASCII_BOX.update(dict.fromkeys((0x2502, 0x2503, 0x2551), "|"))
_ASCII_BOX.update(dict.fromkeys((0x253C, 0x254B, 0x256A, 0x256B, 0x256C), "+"))


def side_listing(saved: Saved, index: int, width: int = LISTING_WIDTH) -> str:
    """Return side `index` of a game night as the command line lists a fleet on a terminal
    (``quartermaster fleet --from FILE``), `width` columns wide, as plain text for a forum
    post: no colour, no box-drawing characters."""
    from rich.console import Console

    from generator.generate.show import show_force

    gen = get_generator(saved.ruleset)
    out = io.StringIO()
    console = Console(
        file=out, width=width, color_system=None, force_terminal=False, highlight=False,
        emoji=False, legacy_windows=False,
    )  # fmt: skip
    show_force(side_fleet(saved, index), gen.units, gen.summary_fields, console=console)
    lines = out.getvalue().translate(_ASCII_BOX).splitlines()
    return "\n".join(line.rstrip() for line in lines) + "\n"


def side_file_name(saved: Saved, index: int, suffix: str) -> str:
    """Return the name side `index`'s fleet file (or listing) is offered under:
    ``fleet-RULESET[-SEED]-NAVY.SUFFIX``."""
    side = side_fleet(saved, index)
    navy = "".join(c for c in str(side.get("navy") or "") if c.isalnum() or c in "-_")
    seed = f"-{saved.seed}" if saved.seed is not None else ""
    return f"fleet-{saved.ruleset}{seed}-{navy or f'side{index + 1}'}.{suffix}"


# --- the units of a game night: edited one at a time, added, removed, rolled again ---------

#: what places a unit in its side, kept when one is rolled again (tactical's flagship and
#: allies, convoy's escorts and merchants): a unit rolled again is taken from a new roll
#: of the side where one stands in the same place
PLACE_KEYS = ("flagship", "ally", "kind")


@dataclass(frozen=True)
class UnitsChanged:
    """A game night after a unit was added, removed or rolled again, and what was done.

    Attributes:
        saved: the game night as kept now.
        said: what was done, one sentence a line, in the GM's words.
    """

    saved: Saved
    said: list[str]


@dataclass(frozen=True)
class GameNightCheck:
    """What checking a changed scenario found, without keeping it.

    Attributes:
        problems: each problem's key path (``sides[0].ships[1].ratings.hull``) and words.
        strengths: each side's strength by its ruleset's measure (none while invalid).
        scenario: the scenario checked.
    """

    problems: list[tuple[str, str]]
    strengths: list[float]
    scenario: dict[str, Any]


def units_key(ruleset: str) -> str:
    """Return the key of a side's units in `ruleset` (``ships``, a duel's ``characters``)."""
    return get_generator(ruleset).units


def unit_path(ruleset: str, side: int, index: int) -> str:
    """Return the key path of a unit as a scenario's problems name it
    (``sides[0].ships[1]``)."""
    return f"sides[{side}].{units_key(ruleset)}[{index}]"


def unit_in(saved: Saved, side: int, index: int) -> dict[str, Any]:
    """Return (a copy of) unit `index` of side `side` of a kept game night, 0 the first.

    Raises:
        NotFound: no such side or unit.
    """
    sides = saved.scenario.get("sides", [])
    if not 0 <= side < len(sides):
        raise NotFound(f"side {side}: game night {saved.id} has sides 0 to {len(sides) - 1}")
    units = sides[side].get(units_key(saved.ruleset), [])
    word = get_generator(saved.ruleset).unit_word
    if not 0 <= index < len(units):
        raise NotFound(
            f"{word} {index}: side {side} of game night {saved.id} has {word}s 0 to "
            f"{len(units) - 1}"
        )
    return copy.deepcopy(dict(units[index]))


def derived_values(
    ruleset: str, side: dict[str, Any], unit: dict[str, Any], rules: Rules | None = None
) -> dict[KeyPath, Any]:
    """Return the values `rules` (None: the built-in ones; a game night's: `night_rules`)
    derive for `unit` of `side`, by key path inside the unit (``("ratings", "hull")``),
    those its ``override`` lists left out: what the schema's checks of derived values
    expect. Inputs the rules do not know (a class there is not) derive nothing; so does a
    ruleset with no derivation here."""
    found = get_generator(ruleset).derived(rules or load_rules(None), side, unit)
    kept = unit.get(OVERRIDE)
    own = {str(key) for key in kept} if isinstance(kept, list) else set()
    return {path: value for path, value in found.items() if str(path[-1]) not in own}


def with_derived(
    ruleset: str,
    side: dict[str, Any],
    unit: dict[str, Any],
    typed: Collection[KeyPath] = (),
    rules: Rules | None = None,
) -> dict[str, Any]:
    """Return a copy of `unit` with the values `rules` (as for `derived_values`) derive
    worked out again (from its class, traits, kind and size, attributes, weapons ...), but
    those at `typed` paths: the GM typed them, and the schema judges them (an override
    keeps them)."""
    made = copy.deepcopy(unit)
    for path, value in derived_values(ruleset, side, made, rules).items():
        if path in typed:
            continue
        holder: Any = made
        for key in path[:-1]:
            holder = _step(holder, key)
        if isinstance(holder, dict):
            holder[path[-1]] = value
    return made


def _step(value: Any, key: str | int) -> Any:
    """Return what `value` holds at `key` (a mapping's key, a list's index), or None."""
    if isinstance(value, dict):
        return value.get(key)
    if isinstance(value, list) and isinstance(key, int) and 0 <= key < len(value):
        return value[key]
    return None


def scenario_with_unit(saved: Saved, side: int, index: int, unit: dict[str, Any]) -> dict[str, Any]:
    """Return a copy of a kept game night's scenario with unit `index` of side `side`
    replaced by `unit` (not checked), its balance's strengths worked out again."""
    unit_in(saved, side, index)  # one there is
    scenario = copy.deepcopy(saved.scenario)
    scenario["sides"][side][units_key(saved.ruleset)][index] = unit
    _rebalance(saved.ruleset, scenario)
    return scenario


def check_game_night(saved: Saved, scenario: Any) -> GameNightCheck:
    """Check `scenario` whole, as game night `saved` would be changed to it, keeping
    nothing: every problem with its key path, and the sides' strengths when it is sound."""
    try:
        checked = scenarios.checked_scenario(
            night_rules(saved), scenario, None, name=f"game night {saved.id}"
        )
    except CheckedProblems as problems:
        return GameNightCheck(list(problems.located), [], scenario)
    gen = get_generator(str(checked["ruleset"]))
    return GameNightCheck([], [gen.strength(side) for side in checked["sides"]], dict(checked))


def change_unit(
    store: Store,
    number: int,
    side: int,
    index: int,
    unit: dict[str, Any],
    version: int | None = None,
) -> Saved:
    """Replace one unit of game night `number` with `unit`: the whole scenario checked by
    its schema and kept in one transaction, nothing kept while it has a problem
    (`change_game_night`)."""
    saved = store.scenario(number)
    return change_game_night(store, number, scenario_with_unit(saved, side, index, unit), version)


def add_unit(
    store: Store,
    number: int,
    side: int,
    seed: int | None = None,
    version: int | None = None,
    listener: Listener = QUIET,
) -> UnitsChanged:
    """Add a unit to side `side` of game night `number`: taken from a roll of the side
    from `seed` (a fresh one, noted, when None) for its navy in the scenario's year, its
    derived values worked out for this side; the setting rolled again for the new sides
    where it must be (`generator.generate.building.with_side`), checked whole, kept in one
    transaction.

    Raises:
        InputError: no such side, a side at the most units there may be; `Conflict`.
        CheckedProblems: the changed scenario fails its schema (nothing is kept).
    """
    saved = store.scenario_at(number, version)
    chosen = seed_or_fresh(seed, listener)
    units = list(_side_of(saved, side).get(units_key(saved.ruleset), []))
    if len(units) >= MAX_SHIPS:
        raise InputError(f"side {side}: at most {MAX_SHIPS} {_word(saved)}s a side")
    wanted = {"flagship": False, "ally": False}  # a unit added is an ordinary one
    unit = _rolled_unit(saved, side, chosen, wanted)
    units.append(unit)
    said = [f"Added {_named(saved, unit)}, rolled from seed {chosen}."]
    return _keep_units(store, saved, side, units, said)


def remove_unit(
    store: Store, number: int, side: int, index: int, version: int | None = None
) -> UnitsChanged:
    """Remove unit `index` from side `side` of game night `number`, the setting rolled
    again for the new sides where it must be, checked whole, kept in one transaction.

    Raises:
        CheckedProblems: the scenario without it fails its schema (the last unit of a
            side, a fleet's flagship ...): nothing is kept.
    """
    saved = store.scenario_at(number, version)
    gone = unit_in(saved, side, index)
    units = list(_side_of(saved, side).get(units_key(saved.ruleset), []))
    del units[index]
    return _keep_units(store, saved, side, units, [f"Removed {_named(saved, gone)}."])


def roll_unit_again(
    store: Store,
    number: int,
    side: int,
    index: int,
    seed: int | None = None,
    version: int | None = None,
    listener: Listener = QUIET,
) -> UnitsChanged:
    """Roll unit `index` of side `side` of game night `number` again: taken from a roll of
    the side from `seed` (a fresh one, noted, when None), one in the same place in its side
    (`PLACE_KEYS`), its derived values worked out for this side; checked whole, kept in one
    transaction."""
    saved = store.scenario_at(number, version)
    old = unit_in(saved, side, index)
    chosen = seed_or_fresh(seed, listener)
    wanted = {key: old[key] for key in PLACE_KEYS if key in old}
    unit = _rolled_unit(saved, side, chosen, wanted, skip=str(old.get("name", "")))
    if "navy" in old and "navy" in unit:
        unit["navy"] = old["navy"]  # an ally's stays the side's ally navy
    units = list(_side_of(saved, side).get(units_key(saved.ruleset), []))
    units[index] = unit
    said = [f"Rolled {_named(saved, old)} again from seed {chosen}: {_named(saved, unit)}."]
    return _keep_units(store, saved, side, units, said)


def _side_of(saved: Saved, side: int) -> dict[str, Any]:
    sides = saved.scenario.get("sides", [])
    if not 0 <= side < len(sides):
        raise NotFound(f"side {side}: game night {saved.id} has sides 0 to {len(sides) - 1}")
    return cast(dict[str, Any], sides[side])


def _word(saved: Saved) -> str:
    return get_generator(saved.ruleset).unit_word


def _named(saved: Saved, unit: dict[str, Any]) -> str:
    """Return a unit as a sentence names it: "the ship Leeuwarden"."""
    return f"the {_word(saved)} {unit.get('name', '(no name)')}"


def _rolled_unit(
    saved: Saved, side: int, seed: int, wanted: dict[str, Any], skip: str = ""
) -> dict[str, Any]:
    """Return a unit from a roll of side `side` from `seed` (its navy, the scenario's year,
    the rules' size): of its units, the first that stands where `wanted` says, else the
    one that matches most of it, a name no other unit of the scenario has first; its
    `wanted` keys set, its derived values worked out for side `side`."""
    rules = night_rules(saved)
    gen = get_generator(saved.ruleset)
    scenario = cast(Scenario, saved.scenario)
    rolled = roll_side_again(rules, gen, scenario, side, seed, None)
    taken = {str(unit.get("name", "")) for each in scenario["sides"] for unit in units_of(each)}
    candidates = [cast(dict[str, Any], copy.deepcopy(unit)) for unit in units_of(rolled)]
    taken -= {skip}
    if not candidates:
        raise InputError(f"seed {seed}: the roll of side {side} gave no {gen.unit_word}")

    def fit(unit: dict[str, Any]) -> tuple[int, bool]:
        same = sum(unit.get(key) == value for key, value in wanted.items() if key in unit)
        return same, str(unit.get("name", "")) not in taken

    unit = max(candidates, key=fit)  # the first of the best
    for key, value in wanted.items():
        if key in unit:
            unit[key] = value
    return with_derived(saved.ruleset, _side_of(saved, side), unit, rules=rules)


def _keep_units(
    store: Store, saved: Saved, side: int, units: list[dict[str, Any]], said: list[str]
) -> UnitsChanged:
    """Keep game night `saved` with side `side`'s units now `units`: the side's size
    record (a composition or squadron rolled for another size) made the size the GM chose,
    the setting rolled again for the new sides, the balance worked out again; checked
    whole, kept in one transaction only if nobody changed it since it was read."""
    rules = night_rules(saved)
    gen = get_generator(saved.ruleset)
    new_side = copy.deepcopy(_side_of(saved, side))
    before = len(new_side.get(gen.units, []))
    new_side[gen.units] = units
    if len(units) != before:
        resize_side(saved.ruleset, new_side)
    scenario = cast(Scenario, copy.deepcopy(saved.scenario))
    # the side first, whole: the setting is rolled for sound sides only (a squadron left
    # without its flagship has no admiral to place)
    trial = copy.deepcopy(saved.scenario)
    trial["sides"][side] = new_side
    checker = Checker(YamlDoc(Path(f"game night {saved.id}"), trial))
    check_side(checker, rules, saved.ruleset, new_side, ("sides", side))
    checker.raise_if_any()
    made, setting_said = with_side(rules, scenario, side, cast(Side, new_side))
    if "balance" in scenario:
        made["balance"] = copy.deepcopy(scenario["balance"])
    changed = dict(made)
    _rebalance(saved.ruleset, changed)
    kept = change_game_night(store, saved.id, changed, saved.version)
    return UnitsChanged(kept, [*said, *setting_said])


def resize_side(ruleset: str, side: dict[str, Any]) -> None:
    """Make a side's size record say the units it now has: a key whose schema takes, beside
    its rolls, the size asked for (``{"ships", "result"}``: convoy's composition, impulse's
    squadron) becomes the size the GM chose, as the generator writes a size asked for."""
    schema = schema_for(ruleset)
    if schema is None:
        return
    units = side.get(units_key(ruleset), [])
    kinds: dict[str, int] = {}
    for unit in units:
        kind = str(unit.get("kind", "ship")) if isinstance(unit, dict) else "ship"
        kinds[kind] = kinds.get(kind, 0) + 1
    words = ", ".join(f"{n} {kind}{'s' * (n != 1)}" for kind, n in kinds.items())
    fields = record_of(schema, "side").fields
    for key, entry in cast(dict[str, Any], fields).items():
        node = entry.node
        asked = node.default if isinstance(node, Variant) else None
        if key in side and asked is not None and {"ships", "result"} <= set(fixed(asked)):
            side[key] = {"ships": len(units), "result": f"{words} (as the GM chose)"}


def _rebalance(ruleset: str, scenario: dict[str, Any]) -> None:
    """Work a scenario's balance (where it has one) out again for its sides as they are
    now: the strengths, their ratio, whether they are even; a warning about sides that are
    even now is dropped."""
    balance = scenario.get("balance")
    if not isinstance(balance, dict):
        return
    gen = get_generator(ruleset)
    try:
        strengths = [gen.strength(side) for side in scenario["sides"]]
    except (KeyError, TypeError, ValueError):
        return  # sides with problems: the check reports them, and nothing is kept
    high = max(strengths) if strengths else 0
    ratio = 1.0 if high <= 0 else min(strengths) / high
    balance["strengths"] = [round(value, 2) for value in strengths]
    balance["ratio"] = round(ratio, 3)
    balance["balanced"] = ratio >= 1 - BALANCE_TOLERANCE
    if balance["balanced"]:
        balance.pop("warning", None)
