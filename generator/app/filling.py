"""Resolving with the ships: a resolver's inputs read off the ships' logs, and its effects as
boxes to cross off.

`filled_inputs` follows an explicit table per resolver (`FILLS`): each input it fills says
whose log it comes from and what there: a rating kept as a row of boxes counts down as they
are crossed off (`Rating`), a fact printed on the card is read as printed (`Fact`,
`Printed`, `Tagged`), a check box answers yes or no (`Ticked`). What no log holds (the range,
the ammunition, which broadside) is left to the player, whose inputs go on top.

`crossings` turns an outcome's `Effect`s into the log fields to mark: a loss crosses off the
next boxes of the row it names, a state ticks the check box of that name where the log has
one. A choice the rules leave to a player has no effect, so nothing is crossed for it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from generator.errors import InputError
from generator.loading import Rules
from generator.resolve import Effect, ResolveInputError, get_resolver
from generator.ruleset.logcard import (
    Check,
    Checks,
    LogCard,
    Track,
    Tracks,
    card_fields,
    slug,
    tally,
)


class TrackState(Protocol):
    """A row of boxes of a ship's log and how many are crossed off (`games.TrackState`)."""

    @property
    def key(self) -> str: ...
    @property
    def track(self) -> Track: ...
    @property
    def crossed(self) -> int: ...
    @property
    def ended(self) -> bool: ...


class GameShip(Protocol):
    """A ship of a game as this module reads her (`games.GameShip`): her log and its marks.

    A protocol, not an import: `games` calls this module, so this module does not import
    `games` (no import cycle between the two).
    """

    @property
    def key(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def card(self) -> LogCard: ...
    @property
    def marks(self) -> Mapping[str, bool | str]: ...
    def tracks(self) -> Sequence[TrackState]: ...


Ships = Mapping[str, GameShip]  # "ship" and, when one is named, "target"
Reading = tuple[Any, str]  # a value and the words saying where it came from


@dataclass(frozen=True)
class Filled:
    """An input filled from a ship's log: its name, its value, and where it came from."""

    name: str
    value: Any
    words: str


# --- where an input comes from -------------------------------------------------------------


def _track(ship: GameShip, key: str) -> TrackState | None:
    return next((t for t in ship.tracks() if t.key == key), None)


def _rating(track: TrackState) -> int | None:
    value = track.track.value
    return int(value) if value is not None and value.strip().isdigit() else None


def _points_a_box(track: TrackState) -> int:
    """Return the points a box of the row is worth: 1, or a tally row's N (Hit Points)."""
    rating = _rating(track)
    if rating is None or rating == len(track.track.boxes):
        return 1
    boxes, unit = tally(rating)
    return unit if boxes == len(track.track.boxes) else 1


def _ticked(ship: GameShip, check: str) -> tuple[Check, bool] | None:
    """Return the check box `check` (a slug of its label) of her log and whether it is ticked."""
    for found in _checks(ship):
        if slug(found.label) == check:
            return found, any(ship.marks.get(f) is True for f in found.fields)
    return None


def _checks(ship: GameShip) -> list[Check]:
    found: list[Check] = []
    for section in ship.card.sections():
        if isinstance(section, Checks):
            found.extend(section.entries)
        elif isinstance(section, Tracks):
            for track in section.rows:
                found.extend(track.after)
    return found


def _said(rows: Sequence[TrackState]) -> str:
    return " + ".join(f"{t.track.label} {_current(t)}" for t in rows)


def _current(track: TrackState) -> int:
    rating = _rating(track) or 0
    return max(rating - track.crossed * _points_a_box(track), 0)


def _less(track: TrackState) -> str:
    if not track.crossed:
        return "none crossed off"
    unit = _points_a_box(track)
    boxes = f"{track.crossed} crossed off"
    return f"less {boxes}" if unit == 1 else f"less {boxes} ({unit} a box)"


@dataclass(frozen=True)
class Rating:
    """A rating kept as a row of boxes: the rating less what is crossed off."""

    whose: str
    track: str  # the row's key (its label as a slug)

    def read(self, ships: Ships, rules: Rules) -> Reading | None:
        ship = ships.get(self.whose)
        track = _track(ship, self.track) if ship else None
        if ship is None or track is None or _rating(track) is None:
            return None
        label = track.track.label
        now = _current(track)
        return now, f"{label} {now}: {ship.name}'s {label} {_rating(track)}, {_less(track)}"


@dataclass(frozen=True)
class Crossed:
    """How many boxes of a row without a rating are crossed off (fires burning ...)."""

    whose: str
    track: str

    def read(self, ships: Ships, rules: Rules) -> Reading | None:
        ship = ships.get(self.whose)
        track = _track(ship, self.track) if ship else None
        if ship is None or track is None:
            return None
        return track.crossed, f"{ship.name}'s {track.track.label}: {track.crossed} crossed off"


@dataclass(frozen=True)
class Ended:
    """Whether every box of a row is crossed off (a rating at zero)."""

    whose: str
    track: str

    def read(self, ships: Ships, rules: Rules) -> Reading | None:
        ship = ships.get(self.whose)
        track = _track(ship, self.track) if ship else None
        if ship is None or track is None or not track.track.boxes:
            return None
        label = track.track.label
        if track.ended:
            return True, f"{ship.name}'s {label}: every box crossed off"
        return False, f"{ship.name}'s {label}: {len(track.track.boxes) - track.crossed} left"


@dataclass(frozen=True)
class Ticked:
    """A check box of her log, as yes (ticked) or no."""

    whose: str
    check: str  # the check box's label as a slug

    def read(self, ships: Ships, rules: Rules) -> Reading | None:
        ship = ships.get(self.whose)
        found = _ticked(ship, self.check) if ship else None
        if ship is None or found is None:
            return None
        check, ticked = found
        return ticked, f"{check.label}: {'ticked' if ticked else 'not ticked'} on {ship.name}'s log"


@dataclass(frozen=True)
class Fact:
    """A rating printed on her card beside her particulars (Gunnery +1 ...)."""

    whose: str
    label: str

    def read(self, ships: Ships, rules: Rules) -> Reading | None:
        ship = ships.get(self.whose)
        fact = next((f for f in ship.card.facts if f.label == self.label), None) if ship else None
        if ship is None or fact is None or fact.value is None:
            return None
        try:
            value = int(fact.value.replace("−", "-"))
        except ValueError:
            return None
        return value, f"{ship.name}'s {fact.label} {fact.value}"


@dataclass(frozen=True)
class Printed:
    """A particular printed in her card's lines, found by `pattern` (its first group), and
    given to the resolver as `convert` makes it."""

    whose: str
    what: str  # the particular, in words
    pattern: str
    convert: Callable[[str], Any] = str

    def read(self, ships: Ships, rules: Rules) -> Reading | None:
        ship = ships.get(self.whose)
        if ship is None:
            return None
        found = re.search(self.pattern, " · ".join(ship.card.lines))
        if found is None:
            return None
        value = self.convert(found.group(1))
        return value, f"{ship.name}'s {self.what}: {found.group(0).strip(' ·')}"


@dataclass(frozen=True)
class Tagged:
    """Whether her card carries a tag starting with `tag` (Flagship, Warship ...)."""

    whose: str
    tag: str

    def read(self, ships: Ships, rules: Rules) -> Reading | None:
        ship = ships.get(self.whose)
        if ship is None or ship.card.name is None:
            return None
        found = next((t for t in ship.card.tags if t.startswith(self.tag)), None)
        if found is None:
            return False, f"{ship.name}'s log: not {self.tag}"
        return True, f"{ship.name}'s log: {found}"


@dataclass(frozen=True)
class Worked:
    """A value worked out from several things on the logs (`how` says how)."""

    how: Callable[[Ships], Reading | None]

    def read(self, ships: Ships, rules: Rules) -> Reading | None:
        return self.how(ships)


@dataclass(frozen=True)
class Looked:
    """A value the rules' tables give for what her card prints (`how` says how)."""

    how: Callable[[Ships, Rules], Reading | None]

    def read(self, ships: Ships, rules: Rules) -> Reading | None:
        return self.how(ships, rules)


Source = Rating | Crossed | Ended | Ticked | Fact | Printed | Tagged | Worked | Looked


# --- what is worked out from several things -----------------------------------------------

_FLOB_MASTS = ("foremast", "mainmast", "mizzen")


def _flob_masts(ship: GameShip) -> list[tuple[TrackState, bool]]:
    """Her masts (rows of boxes), each with whether it has fallen (its check box)."""
    found = []
    for key in _FLOB_MASTS:
        track = _track(ship, key)
        if track is None or _rating(track) is None:
            continue
        fallen = any(
            ship.marks.get(name) is True
            for check in track.track.after
            if check.label == "fallen"
            for name in check.fields
        )
        # a mast whose rating is all crossed off is lost as surely as one that fell
        found.append((track, fallen or track.ended))
    return found


def _flob_mast_total(whose: str) -> Worked:
    """FLoB 6.1: "Target's Total remaining Mast Ratings"."""

    def how(ships: Ships) -> Reading | None:
        ship = ships.get(whose)
        masts = _flob_masts(ship) if ship else []
        if ship is None or not masts:
            return None
        total = sum(_current(t) for t, down in masts if not down)
        return total, f"{ship.name}'s masts standing: {_said([t for t, d in masts if not d])}"

    return Worked(how)


def _flob_standing(whose: str) -> Worked:
    def how(ships: Ships) -> Reading | None:
        ship = ships.get(whose)
        masts = _flob_masts(ship) if ship else []
        if ship is None or not masts:
            return None
        standing = [t.track.label for t, down in masts if not down]
        return len(standing), f"{ship.name}'s masts standing: {', '.join(standing) or 'none'}"

    return Worked(how)


def _flob_mast_state(whose: str) -> Worked:
    """The strike test's masts: intact, lost (one or more, not all) or dismasted."""

    def how(ships: Ships) -> Reading | None:
        ship = ships.get(whose)
        masts = _flob_masts(ship) if ship else []
        if ship is None or not masts:
            return None
        down = [t.track.label for t, d in masts if d]
        state = "intact" if not down else "dismasted" if len(down) == len(masts) else "lost"
        return state, f"{ship.name}'s masts down: {', '.join(down) or 'none'}"

    return Worked(how)


def _flob_officer(whose: str, officer: str) -> Worked:
    """An officer's state from the log's check boxes: killed, wounded or unhurt."""

    def how(ships: Ships) -> Reading | None:
        ship = ships.get(whose)
        if ship is None:
            return None
        for state in ("killed", "wounded"):
            found = _ticked(ship, f"{officer}_{state}")
            if found and found[1]:
                return state, f"{found[0].label}: ticked on {ship.name}'s log"
        if _ticked(ship, f"{officer}_killed") is None:
            return None
        return "unhurt", f"{ship.name}'s {officer}: neither wounded nor killed ticked"

    return Worked(how)


def _tactical_small(ships: Ships, rules: Rules) -> Reading | None:
    """A small ship (4th class or less), as tactical.ship-types says of her class."""
    ship = ships["ship"]
    printed = ship.card.lines[0].split(" · ")[0] if ship.card.lines else ""
    table = rules.table("tactical.ship-types")
    (axis,) = table.axes
    index = next((i for i, v in enumerate(axis.values) if v.label == printed), None)
    if index is None:
        return None
    small = bool(table.cell(index)["small"])
    return small, f"{ship.name} is a {printed}: {'a' if small else 'not a'} small ship"


def _tactical_lost_two(ships: Ships) -> Reading | None:
    """Lost (from damage) 2 or more points in any 1 rating: 2 boxes of a row crossed off."""
    ship = ships["ship"]
    rows = [t for t in ship.tracks() if _rating(t) is not None]
    if not rows:
        return None
    worst = max(rows, key=lambda t: t.crossed)
    lost = worst.crossed >= 2
    return lost, f"{ship.name}'s most crossed off: {worst.track.label}, {worst.crossed}"


def _flob_admiral(ships: Ships) -> Reading | None:
    """The admiral's rating, from her card's tag: ``Admiral Ralph Russell (Average)``."""
    ship = ships["ship"]
    for tag in ship.card.tags:
        found = re.fullmatch(r"Admiral .*\((\w+)\)", tag)
        if found:
            return found.group(1).casefold(), f"{ship.name}'s log: {tag}"
    return None


def _bigger(ships: Ships, sizes: Callable[[GameShip], int | None]) -> tuple[int, str] | None:
    """Compare the ship's size with the target's: (-1, 0 or 1, words)."""
    ship, target = ships.get("ship"), ships.get("target")
    if ship is None or target is None:
        return None
    mine, theirs = sizes(ship), sizes(target)
    if mine is None or theirs is None:
        return None
    return (mine > theirs) - (mine < theirs), f"{ship.name} size {mine}, {target.name} {theirs}"


def _high_seas_size(ship: GameShip) -> int | None:
    found = re.search(r"· size (\d+) ·", " · ".join(ship.card.lines))
    return int(found.group(1)) if found else None


def _high_seas_grapple(ships: Ships) -> Reading | None:
    compared = _bigger(ships, _high_seas_size)
    if compared is None:
        return None
    order, words = compared
    return {-1: "Smaller", 0: "Same", 1: "Larger"}[order], words


def _high_seas_enemy_larger(ships: Ships) -> Reading | None:
    compared = _bigger(ships, _high_seas_size)
    return None if compared is None else (compared[0] < 0, compared[1])


def _high_seas_over_half(whose: str, track: str) -> Worked:
    """Whether a Hit Points row is crossed past its ½ mark."""

    def how(ships: Ships) -> Reading | None:
        ship = ships.get(whose)
        found = _track(ship, track) if ship else None
        if ship is None or found is None:
            return None
        half = next((after for after, mark in found.track.marks if mark == "half"), None)
        if half is None:
            return None
        over = found.crossed > half
        label = found.track.label
        return over, f"{ship.name}'s {label}: {found.crossed} crossed off, ½ after {half}"

    return Worked(how)


def _high_seas_fighters(whose: str) -> Worked:
    """Her trained fighters as printed, less the fighters killed written in her log."""

    def how(ships: Ships) -> Reading | None:
        ship = ships.get(whose)
        if ship is None:
            return None
        found = re.search(r"(\d+) trained fighters", " · ".join(ship.card.lines))
        if found is None:
            return None
        fighters = int(found.group(1))
        killed_field = f"{ship.card.prefix}_fighters_killed"
        written = str(ship.marks.get(killed_field) or "").strip()
        killed = int(written) if written.isdigit() else 0
        left = max(fighters - killed, 0)
        less = f", less {killed} killed" if killed else ""
        return left, f"{ship.name}'s {fighters} trained fighters{less}"

    return Worked(how)


_CONVOY_SIZES = {"small": 0, "medium": 1, "large": 2}


def _convoy_size(ship: GameShip) -> int | None:
    found = re.match(r"(Small|Medium|Large) ", ship.card.lines[0] if ship.card.lines else "")
    return _CONVOY_SIZES[found.group(1).lower()] if found else None


def _convoy_target(ships: Ships) -> Reading | None:
    compared = _bigger(ships, _convoy_size)
    if compared is None:
        return None
    order, words = compared
    return {-1: "bigger", 0: "same", 1: "smaller"}[order], words


def _convoy_condition(whose: str, condition: str) -> Printed:
    return Printed(whose, "crew", r"· crew ([a-z ]+)$", lambda found: found.strip() == condition)


def _impulse_broadside(ships: Ships) -> Reading | None:
    """The guns her broadside fires, a die each: her guns and her carronades together
    (``guns=`` counts every gun fired, ``carronades=`` which of them are carronades)."""
    ship = ships["ship"]
    found = re.search(r"(\d+) guns and (\d+) carronades", " · ".join(ship.card.lines))
    if found is None:
        return None
    guns, carronades = int(found.group(1)), int(found.group(2))
    return guns + carronades, f"{ship.name}'s {guns} guns and {carronades} carronades"


def _rate(found: str) -> str:
    number = re.match(r"\d+", found)
    return number.group(0) if number else found.casefold()


# --- the tables: each resolver's inputs and where they come from --------------------------

_FLOB_CREW = r"· crew (\w+)"
_FLOB_RATE = r"^(\w+) rate,"

FILLS: dict[str, dict[str, Source]] = {
    # tactical: the ratings are rows of boxes, the rest facts on the card
    "tactical.broadside": {
        "cannon": Rating("ship", "cannon"),
        "gunnery": Fact("ship", "Gunnery"),
        "target_sails": Rating("target", "sails"),
        "target_hull": Rating("target", "hull"),
        "target_crew": Rating("target", "crew"),
        "target_cannon": Rating("target", "cannon"),
    },
    "tactical.boarding": {
        "boarder_crew": Rating("ship", "crew"),
        "boarder_boarding": Fact("ship", "Boarding"),
        "defender_crew": Rating("target", "crew"),
        "defender_boarding": Fact("target", "Boarding"),
    },
    "tactical.movement": {
        "sails": Rating("ship", "sails"),
        "skill": Fact("ship", "Skill"),
        "swiftness": Fact("ship", "Swiftness"),
        "hull": Rating("ship", "hull"),
        "crew": Rating("ship", "crew"),
    },
    "tactical.flight-test": {
        "flagship": Tagged("ship", "Flagship"),
        "small": Looked(_tactical_small),
        "lost_two": Worked(_tactical_lost_two),
        "ally": Tagged("ship", "Ally"),
        "courage": Fact("ship", "Courage"),
    },
    # flob: Broadside, Hull, the masts and the crew parties are rows of boxes
    "flob.broadside": {
        "broadside": Rating("ship", "broadside"),
        "gunnery_class": Printed("ship", "gunnery class", r"gunnery class ([A-E])\b"),
        "rate": Printed("ship", "rate", _FLOB_RATE, _rate),
        "crew": Printed("ship", "crew", _FLOB_CREW, str.casefold),
        "target_rate": Printed("target", "rate", _FLOB_RATE, _rate),
        "target_hull": Rating("target", "hull"),
        "target_masts": _flob_mast_total("target"),
        "target_masts_standing": _flob_standing("target"),
        "target_wheel_lost": Ticked("target", "wheel_shot_away"),
        "target_hull_fires": Crossed("target", "hull_fires"),
        "target_admiral_on_board": Tagged("target", "Admiral"),
    },
    "flob.critical-hit": {
        "masts_standing": _flob_standing("ship"),
        "wheel_lost": Ticked("ship", "wheel_shot_away"),
        "hull_fires": Crossed("ship", "hull_fires"),
        "admiral_on_board": Tagged("ship", "Admiral"),
    },
    "flob.strike-test": {
        "crew": Printed("ship", "crew", _FLOB_CREW, str.casefold),
        "masts": _flob_mast_state("ship"),
        "admiral_on_board": Tagged("ship", "Admiral"),
        "admiral": Worked(_flob_admiral),
        "admiral_status": _flob_officer("ship", "admiral"),
        "captain": _flob_officer("ship", "captain"),
    },
    "flob.boarding": {
        "attacker_parties": Rating("ship", "crew_parties"),
        "defender_parties": Rating("target", "crew_parties"),
        "attacker_crew": Printed("ship", "crew", _FLOB_CREW, str.casefold),
        "defender_crew": Printed("target", "crew", _FLOB_CREW, str.casefold),
        "attacker_masts": _flob_mast_state("ship"),
        "attacker_admiral_on_board": Tagged("ship", "Admiral"),
        "attacker_admiral_status": _flob_officer("ship", "admiral"),
        "attacker_captain": _flob_officer("ship", "captain"),
        "defender_masts": _flob_mast_state("target"),
        "defender_admiral_on_board": Tagged("target", "Admiral"),
        "defender_admiral_status": _flob_officer("target", "admiral"),
        "defender_captain": _flob_officer("target", "captain"),
    },
    "flob.boarding-initiation": {
        "attacking_captain": Printed("ship", "captain", r"Captain [^(]*\((\w+)\)", str.casefold),
        "defending_captain": Printed("target", "captain", r"Captain [^(]*\((\w+)\)", str.casefold),
        "rate": Printed("ship", "rate", _FLOB_RATE, _rate),
        "target_rate": Printed("target", "rate", _FLOB_RATE, _rate),
    },
    "flob.repairs": {
        "crew_parties": Rating("ship", "crew_parties"),
        "captain": Printed("ship", "captain", r"Captain [^(]*\((\w+)\)", str.casefold),
    },
    "flob.fire-fighting": {
        "crew_parties": Rating("ship", "crew_parties"),
        "crew": Printed("ship", "crew", _FLOB_CREW, str.casefold),
    },
    "flob.reloading": {"crew": Printed("ship", "crew", _FLOB_CREW, str.casefold)},
    # convoy: Crew, Guns and Sail are rows of markers' boxes
    "convoy.gunnery": {
        "guns": Rating("ship", "guns"),
        "shooter": Printed("ship", "size", r"^(Small|Medium|Large) ", str.casefold),
        "target": Worked(_convoy_target),
        "battle_hardened": _convoy_condition("ship", "battle hardened"),
        "scurvy": _convoy_condition("ship", "scurvy"),
        "crew_zero": Ended("ship", "crew"),
        "sail_zero": Ended("ship", "sail"),
        "shooter_in_fog": Ticked("ship", "in_fog"),
        "target_in_fog": Ticked("target", "in_fog"),
        "shooter_aground": Ticked("ship", "aground"),
        "shooter_captured": Ticked("ship", "captured"),
        "shooter_struck": Ticked("ship", "struck"),
        "target_struck": Ticked("target", "struck"),
    },
    "convoy.boarding": {
        "boarder_crew": Rating("ship", "crew"),
        "target_crew": Rating("target", "crew"),
        "boarder_size": Printed("ship", "size", r"^(Small|Medium|Large) ", str.casefold),
        "target_size": Printed("target", "size", r"^(Small|Medium|Large) ", str.casefold),
        "boarder_warship": Tagged("ship", "Warship"),
        "target_warship": Tagged("target", "Warship"),
        "target_struck": Ticked("target", "struck"),
    },
    "convoy.recovery": {
        "crew": Rating("ship", "crew"),
        "battle_hardened": _convoy_condition("ship", "battle hardened"),
        "captured": Ticked("ship", "captured"),
        "struck": Ticked("ship", "struck"),
    },
    "convoy.movement": {
        "size": Printed("ship", "size", r"^(Small|Medium|Large) ", str.casefold),
        "merchant": Tagged("ship", "Merchant"),
        "battle_hardened": _convoy_condition("ship", "battle hardened"),
        "scurvy": _convoy_condition("ship", "scurvy"),
        "captured": Ticked("ship", "captured"),
        "struck": Ticked("ship", "struck"),
        "sail_zero": Ended("ship", "sail"),
    },
    "convoy.shallows": {
        "size": Printed("ship", "size", r"^(Small|Medium|Large) ", str.capitalize),
        "battle_hardened": _convoy_condition("ship", "battle hardened"),
    },
    # impulse: Hull, Rigging and Crew are rows of boxes, one a point
    "impulse.fire-combat": {
        "guns": Worked(_impulse_broadside),
        "carronades": Printed("ship", "carronades a broadside", r"(\d+) carronades", int),
    },
    "impulse.hull-type-bonus": {
        "hull": Printed("ship", "hull type", r"· (Fast|Average|Slow) hull ·"),
        "crew_quality": Printed("ship", "crew quality", r"crew quality ([+-]?\d+)", int),
    },
    # high-seas: Hit Points rows are tallies; the particulars are printed
    "high-seas.cannon-fire": {
        "navy": Tagged("ship", "Navy warship"),
        "enemy_larger": Worked(_high_seas_enemy_larger),
        "enemy_grappled": Ticked("target", "grappled"),
        "grappled": Ticked("ship", "grappled"),
    },
    "high-seas.grapple": {"size": Worked(_high_seas_grapple)},
    "high-seas.boarding": {
        "boarders_trained": _high_seas_fighters("ship"),
        "boarders_pistols": Printed("ship", "pistols", r"(\d+) with pistols", int),
        "boarders_swivels": Printed("ship", "swivels", r"(\d+) swivels", int),
        "defenders_trained": _high_seas_fighters("target"),
        "defenders_pistols": Printed("target", "pistols", r"(\d+) with pistols", int),
        "defenders_swivels": Printed("target", "swivels", r"(\d+) swivels", int),
    },
    "high-seas.maneuver": {
        "speed": Printed("ship", "speed", r"speed (\d+)", int),
        "handling": Printed("ship", "handling", r"handling (-?\d+)", int),
        "wet_sails": Ticked("ship", "wet_sails"),
        "hard_turn": Ticked("ship", "hard_turn"),
        "rigging_over_half": _high_seas_over_half("ship", "rigging_hp"),
        "crippled": Ended("ship", "rigging_hp"),
        "opponent_speed": Printed("target", "speed", r"speed (\d+)", int),
        "opponent_handling": Printed("target", "handling", r"handling (-?\d+)", int),
        "opponent_wet_sails": Ticked("target", "wet_sails"),
        "opponent_hard_turn": Ticked("target", "hard_turn"),
        "opponent_rigging_over_half": _high_seas_over_half("target", "rigging_hp"),
        "opponent_crippled": Ended("target", "rigging_hp"),
    },
    "high-seas.wet-sails": {"speed": Printed("ship", "speed", r"speed (\d+)", int)},
    "high-seas.hard-turn": {"handling": Printed("ship", "handling", r"handling (-?\d+)", int)},
}


#: inputs a player may give instead of a group the logs fill (a FLoB broadside's finished
#: Attack Number stands for the ratings it is worked out from; impulse hits achieved for the
#: guns fired): given, those filled inputs are left out, as the resolver refuses both
INSTEAD: dict[str, dict[str, tuple[str, ...]]] = {
    "flob.broadside": {"attack": ("broadside", "target_hull", "target_masts", "crew")},
    "impulse.fire-combat": {"hits": ("guns", "carronades")},
}


def with_given(
    resolver_id: str, filled: Sequence[Filled], given: Mapping[str, Any]
) -> list[Filled]:
    """Return the `filled` inputs a player's `given` ones leave standing: those given by
    name, and the group an input given instead replaces (`INSTEAD`), are left out."""
    instead = INSTEAD.get(resolver_id, {})
    dropped = set(given)
    for name in given:
        dropped.update(instead.get(name, ()))
    return [item for item in filled if item.name not in dropped]


def filled_inputs(
    rules: Rules, ruleset: str, resolver_id: str, ship: GameShip, target: GameShip | None
) -> list[Filled]:
    """Return the inputs of `resolver_id` that `ship`'s log (and `target`'s) hold, each with
    where it came from; an input no log holds is left out, for the player to give.

    Raises:
        InputError: `resolver_id` is not a resolver of `ruleset`.
    """
    resolver = get_resolver(resolver_id)
    if resolver.ruleset != ruleset:
        raise InputError(f"{resolver_id}: not a resolver of {ruleset}")
    ships: dict[str, GameShip] = {"ship": ship}
    if target is not None:
        ships["target"] = target
    params = {p.name: p for p in resolver.params}
    found: list[Filled] = []
    for name, source in FILLS.get(resolver_id, {}).items():
        reading = source.read(ships, rules)
        if reading is None:
            continue
        value, words = reading
        try:
            params[name].convert(resolver_id, value, rules)
        except ResolveInputError:
            continue  # the log says something the resolver does not take: the player's
        found.append(Filled(name, value, words))
    return found


# --- effects as boxes -----------------------------------------------------------------------

#: where a ruleset's log keeps a rating under another name than the rules' key
ROWS: dict[str, dict[str, str]] = {
    # FLoB's log keeps the crew as crew parties (flob.ammunition-effects' "Crew")
    "flob": {"crew": "crew_parties"},
}


#: where a ruleset's log keeps a loss as a number written in, not a row of boxes: the
#: write-in field (after the ship's prefix) the loss is added to
TALLIES: dict[str, dict[str, str]] = {
    # High Seas: men killed by fire and fighters killed boarding are written in as counts
    # (the next boarding counts her fighters less those killed, `_high_seas_fighters`)
    "high-seas": {"crew": "crew_killed", "fighters": "fighters_killed"},
}


def crossings(
    ruleset: str, effects: Sequence[Effect], ship: GameShip, target: GameShip | None
) -> dict[str, dict[str, bool | int]]:
    """Return, by ship key, the log fields to mark so that each effect is on the logs: a
    loss crosses off the next boxes of its row (stopping at the row's end), or is a number
    to add to what is written in its space (`TALLIES`: the field -> how many); a state ticks
    its check box. An effect on no row, space or check box of the log (which mast; which
    battery a gun was lost from) is left for the player.

    A Hit Points row is a tally (each box N points): the losses on it are added up and a box
    crossed per whole N points, and every box left once they reach what is left; what does
    not make a whole box is not kept.
    """
    ships = {"ship": ship, "target": target}
    lost: dict[tuple[str, str], int] = {}
    states: list[tuple[str, str]] = []
    for effect in effects:
        if ships.get(effect.who) is None:
            continue
        if effect.amount > 0:
            key = ROWS.get(ruleset, {}).get(effect.what, effect.what)
            lost[(effect.who, key)] = lost.get((effect.who, key), 0) + effect.amount
        if effect.state:
            states.append((effect.who, effect.state))
    marks: dict[str, dict[str, bool | int]] = {}
    for (who, key), amount in lost.items():
        found = ships[who]
        assert found is not None
        track = _track(found, key)
        if track is None:
            space = TALLIES.get(ruleset, {}).get(key)
            field = f"{found.card.prefix}_{space}" if space else None
            if field is not None and field in card_fields(found.card)[1]:
                marks.setdefault(found.key, {})[field] = amount
            continue
        unit = _points_a_box(track)
        left = [b for b in track.track.boxes if found.marks.get(b) is not True]
        rating = _rating(track)
        if unit > 1 and rating is not None and amount >= _current(track):
            boxes = len(left)
        else:
            boxes = amount // unit
        for name in left[:boxes]:
            marks.setdefault(found.key, {})[name] = True
    for who, state in states:
        found = ships[who]
        assert found is not None
        check = _ticked(found, slug(state))
        if check is None:
            continue
        box, ticked = check
        if not ticked:
            marks.setdefault(found.key, {})[box.fields[0]] = True
    return marks
