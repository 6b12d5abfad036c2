"""The plain data of the ruleset contract, typed: a scenario, its sides, their ships or
people, and a fleet or character file.

They are the very dicts a generator makes, a file holds (JSON or YAML) and a schema
(`generator.schema`) checks, typed as TypedDicts rather than made into objects, so that
they still round-trip through a file as they are. A key every ruleset's data has is
required; one only some rulesets have (or a file may leave out) is ``NotRequired``, with the
rulesets that have it. tests/test_model_types.py holds these keys to what every generator
writes and every schema accepts.

Not ``from __future__ import annotations``: a TypedDict's ``NotRequired`` keys are found
(``__optional_keys__``) only when its annotations are evaluated.
"""

from typing import Any, Final, NotRequired, TypedDict, cast, final

# ---------------------------------------------------------------- rolls on tables


class Rolled(TypedDict):
    """A roll on a data table as a file keeps it: the table, the die total, the result."""

    table: str
    roll: int
    result: str


@final
class RolledBonus(TypedDict):
    """A roll on a table whose result gives a bonus (tactical's admiral, national and fleet
    rolls), with the bonus in the rules' words."""

    table: str
    roll: int
    result: str
    bonus: str


class AskedSize(TypedDict):
    """A side's size as the GM asked for it (--ships), and what it makes, in words (in place
    of the roll on the side's composition table). An edited file may leave out the size."""

    result: str
    ships: NotRequired[int]


# what a side is made of: as rolled on its table, or as asked (impulse's squadron, convoy's
# composition)
Composition = Rolled | AskedSize


@final
class Admiral(TypedDict):
    """A flob squadron's admiral: a name and a quality."""

    name: str
    quality: str


# ---------------------------------------------------------------- a scenario's setting


class Wind(TypedDict):
    """The wind: the one the weather gives (duel, high-seas), or one rolled on the wind
    table (impulse, convoy, tactical, flob)."""

    result: NotRequired[str]  # duel, high-seas: the wind in words
    roll: NotRequired[int]  # impulse, convoy, tactical, flob
    direction: NotRequired[str]  # impulse, convoy, tactical, flob
    # impulse, convoy, tactical, flob: degrees, or the table's mark for no bearing
    # (tactical's calm: "—")
    from_bearing: NotRequired[int | str]
    strength: NotRequired[str]  # flob


class Weather(TypedDict):
    """The weather rolled on the ruleset's weather table."""

    roll: int
    result: str
    effect: NotRequired[str]  # every ruleset but duel: what it does in play
    gunnery: NotRequired[str]  # flob
    gale: NotRequired[bool]  # flob


class Venue(TypedDict):
    """Where a duel is fought (duel)."""

    roll: int
    result: str
    at_sea: bool


class StartRange(TypedDict):
    """The range the ships start at (high-seas)."""

    roll: int
    band: str
    meters: str


class BattleClock(TypedDict):
    """The battle clock: its loop of spaces and the spaces it may move a turn (convoy)."""

    loop: int
    moves: list[int]


class Box(TypedDict):
    """A rectangle on a tabletop, in cm from its north-west corner (flob)."""

    x_cm: int
    y_cm: int
    w_cm: int
    h_cm: int


class Feature(Box):
    """An island, shoal or coast on the tabletop (flob)."""

    type: str
    label: str


class Deployment(Box):
    """The zone a side deploys in (flob): `side` is its index in the scenario's sides."""

    side: int


class Map(TypedDict):
    """The map: a grid of squares (``grid``: tactical, impulse), hexes (``hex``: convoy), a
    tabletop (``table``: flob), or none drawn (``none``: impulse, edited). Duel and
    high-seas scenarios have no map (null)."""

    kind: str
    width: NotRequired[int]  # grid, hex: cells from west to east
    height: NotRequired[int]  # grid, hex
    rows: NotRequired[list[str]]  # grid, hex: a character a cell
    legend: NotRequired[dict[str, str]]  # grid, hex: character -> what the cell is
    start_columns: NotRequired[int]  # grid
    orientation: NotRequired[str]  # hex
    layout: NotRequired[str]  # hex
    exit_edge: NotRequired[str]  # hex
    start: NotRequired[dict[str, list[list[int]]]]  # hex: side index -> [col, row] hexes
    width_cm: NotRequired[int]  # table
    height_cm: NotRequired[int]  # table
    features: NotRequired[list[Feature]]  # table
    deployment: NotRequired[list[Deployment]]  # table
    wind_from: NotRequired[int]  # table: the wind's bearing


class Balance(TypedDict):
    """How even the sides are (a generator writes every key but the warning; an edited
    file needs only the measure)."""

    measure: str
    strengths: NotRequired[list[float]]
    ratio: NotRequired[float]
    attempt: NotRequired[int]
    balanced: NotRequired[bool]
    rolls: NotRequired[int]  # only when balancing was asked for
    warning: NotRequired[str]  # only when the sides stayed uneven


# ---------------------------------------------------------------- people


class Weapon(TypedDict):
    """A duellist's weapon, with its row of the weapons table (duel, high-seas)."""

    name: str
    hand: str
    type: str
    damage: str
    min_str: int
    adv_str: int
    weapon_bonus: int
    parry_bonus: int
    can_parry: bool


class Person(TypedDict):
    """A person as the duel rules make one: a duel side's duellist, and the base of a
    high-seas ship's officer and of a character file. The keys of `attributes`,
    `expertise` and `skills` are the duel tables' own."""

    name: str
    nationality: str
    attributes: dict[str, int]
    hit_points: int
    height_cm: int
    style: str
    expertise: dict[str, int]
    skills: dict[str, str]
    weapons: list[Weapon]
    armour: str
    loadout: str


class CrewOfficer(Person):
    """One of a ship's officers (high-seas): a person and the post they hold aboard."""

    role: str


class Character(Person):
    """A character file (``quartermaster character``): a person, and what made it."""

    ruleset: NotRequired[str]
    seed: NotRequired[int]


# ---------------------------------------------------------------- ships and sides

# a ship of any naval ruleset (functional syntax: "class" is one of her keys)
Ship = TypedDict(
    "Ship",
    {
        "name": str,
        # any naval ruleset: the keys whose values the GM set by hand (an edited file)
        "override": NotRequired[list[str]],
        "class": NotRequired[str],  # tactical, impulse
        "captain": NotRequired[str],  # tactical, impulse, flob
        "flagship": NotRequired[bool],  # tactical, flob
        "guns": NotRequired[int],  # impulse, convoy, high-seas, flob
        "crew": NotRequired[int],  # impulse, convoy, high-seas
        "hull": NotRequired[int],  # impulse, flob
        # impulse: the quality modifier (a number); flob: the quality in words
        "crew_quality": NotRequired[int | str],
        # high-seas: a number; convoy: small, medium or large
        "size": NotRequired[int | str],
        "ally": NotRequired[bool],  # tactical
        "navy": NotRequired[str],  # tactical: an ally's navy, else her side's
        "traits": NotRequired[list[Rolled]],  # tactical
        "ratings": NotRequired[dict[str, int]],  # tactical
        "hull_type": NotRequired[str],  # impulse
        "carronades": NotRequired[int],  # impulse
        "rigging": NotRequired[int],  # impulse
        "morale": NotRequired[str],  # impulse
        "kind": NotRequired[str],  # convoy: warship or merchant
        "sail": NotRequired[int],  # convoy
        "condition": NotRequired[str],  # convoy
        "type": NotRequired[str],  # high-seas
        "navy_ship": NotRequired[bool],  # high-seas
        "batteries": NotRequired[dict[str, int]],  # high-seas
        "hull_hp": NotRequired[int],  # high-seas
        "rigging_hp": NotRequired[int],  # high-seas
        "speed": NotRequired[int],  # high-seas
        "handling": NotRequired[int],  # high-seas
        "trained_fighters": NotRequired[int],  # high-seas
        "pistols": NotRequired[int],  # high-seas
        "fighters_share": NotRequired[str],  # high-seas
        "fighters_roll": NotRequired[int | None],  # high-seas: None for a navy ship
        "swivels": NotRequired[int],  # high-seas
        "chief_gunner_master_superior": NotRequired[bool],  # high-seas
        "officers": NotRequired[list[CrewOfficer]],  # high-seas
        "rate": NotRequired[str],  # flob
        "rig": NotRequired[str],  # flob
        "movement_class": NotRequired[int],  # flob
        "gunnery_class": NotRequired[str],  # flob
        "broadside": NotRequired[int],  # flob
        "masts": NotRequired[int],  # flob
        "mast_rating": NotRequired[int],  # flob
        "crew_parties": NotRequired[int],  # flob
        "captain_quality": NotRequired[str],  # flob
        # any naval ruleset: what her log has marked when the game starts (a campaign's
        # damage carried over): boxes crossed off by row, check boxes ticked by label
        "damage": NotRequired[dict[str, int]],
        "marked": NotRequired[list[str]],
    },
)


class Side(TypedDict):
    """One side of a scenario: its name, its navy and its units (`RulesetContract.units`
    names the key: ``ships``, or ``characters`` for a duel)."""

    name: str
    navy: str
    ships: NotRequired[list[Ship]]  # every ruleset but duel
    characters: NotRequired[list[Person]]  # duel
    year: NotRequired[int]  # any: a fleet file made for a year
    size_note: NotRequired[str]  # any: how an edited side's size departs from the rules'
    admiral: NotRequired[RolledBonus | Admiral]  # tactical: rolled; flob: name and quality
    admiral_name: NotRequired[str]  # tactical
    national: NotRequired[RolledBonus]  # tactical
    fleet: NotRequired[RolledBonus]  # tactical
    ally_navy: NotRequired[str]  # tactical: a Diplomat's allies' navy
    squadron: NotRequired[Composition]  # impulse
    role: NotRequired[str]  # convoy: convoy or raiders
    composition: NotRequired[Composition]  # convoy


@final
class Force(Side):
    """A fleet file (``quartermaster fleet``): one side, and what made it."""

    ruleset: str
    seed: NotRequired[int]
    options: NotRequired[dict[str, Any]]  # free-form: what was asked for


# the keys a fleet file has beside its side's
FORCE_ONLY: Final = ("ruleset", "seed", "options")


# ---------------------------------------------------------------- a scenario


@final
class Scenario(TypedDict):
    """A whole scenario, as a generator makes it and a scenario file holds it.

    Every ruleset's scenario has its wind, weather, map, set-up, victory and special rules
    (the schemas require them); they are ``NotRequired`` because a fleet file printed as a
    one-side scenario (a fleet's roster, logs and counters) has none of them.
    """

    ruleset: str
    seed: int
    title: str
    sides: list[Side]
    year: NotRequired[int]  # every ruleset but duel (flob's files must have it)
    wind: NotRequired[Wind]
    weather: NotRequired[Weather]
    venue: NotRequired[Venue]  # duel
    map: NotRequired[Map | None]  # null: duel, high-seas
    range: NotRequired[StartRange]  # high-seas
    battle_clock: NotRequired[BattleClock]  # convoy
    setup: NotRequired[list[str]]
    victory: NotRequired[list[str]]
    special_rules: NotRequired[list[str]]
    # a generator writes these four; an edited file may leave them out
    house_tables: NotRequired[list[str]]
    generator: NotRequired[str]
    balance: NotRequired[Balance]
    options: NotRequired[dict[str, Any]]  # free-form: what was asked for
    # what a sheet is told besides the scenario, never in a file: whether its seed rolls it
    # again (`generator.ruleset.scenario.ROLLS_AGAIN`), every side where one side is printed
    # (the roster's EVERY_SIDE), a packet's printing notes for its cover
    rolls_again: NotRequired[bool]
    every_side: NotRequired[list[Side]]
    printing: NotRequired[dict[str, Any]]


# the keys of `Scenario` a sheet is told that no file holds
TOLD_ONLY: Final = ("rolls_again", "every_side", "printing")


class Setting(TypedDict):
    """What `RulesetGenerator.roll_setting` rolls: a scenario's title and its keys other than
    its sides (in the scenario file's order)."""

    title: str
    year: NotRequired[int]  # flob: the year is rolled with the setting
    wind: Wind
    weather: Weather
    venue: NotRequired[Venue]  # duel
    map: Map | None
    range: NotRequired[StartRange]  # high-seas
    battle_clock: NotRequired[BattleClock]  # convoy
    setup: list[str]
    victory: list[str]
    special_rules: list[str]
    house_tables: NotRequired[list[str]]  # tables the setting rolled on beside the generator's


# what a sheet is about: a scenario (or a fleet as one), or a person (a character sheet of
# a character file, or of a packet's officer)
SheetData = Scenario | Person


# one of a side's units: a ship, or a duel's duellist
Unit = Ship | Person


def units_of(side: Side) -> list[Ship] | list[Person]:
    """Return a side's units: its ships, or a duel's characters (none where it has neither,
    as an edited file may)."""
    if "characters" in side:
        return side["characters"]
    return side.get("ships", [])


def side_of(force: Force) -> Side:
    """Return a fleet file's side: the fleet without its ruleset, seed, options and year."""
    # cast: the keys left are all Side's (a Force is a Side and FORCE_ONLY), which a
    # comprehension cannot show mypy
    return cast(Side, {k: v for k, v in force.items() if k not in (*FORCE_ONLY, "year")})
