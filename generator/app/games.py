"""A game played from a saved game night: every ship's log kept as state, behind links.

A game is started from a game night (or from a scenario file): the scenario as it was then
is kept with the game, so editing the night later changes nothing in a game under way.
Every ship's state is what her printed log would hold once marked: the boxes crossed off,
the check boxes ticked and the words written in, by the same field names as the packet's
fillable log (`ship_log.log_prefixes`), so a state can be printed and read back.

A game has a link for the GM and one for each side, each an unguessable token (`Seat`): a
side's token reaches its own ships only; the GM's, every ship. Every change is one
transaction; a ship's state carries a version, and a change made against an older one is
refused (`Conflict`), so two players tapping at once lose nothing.
"""

from __future__ import annotations

import json
import re
import secrets
import sqlite3
import time
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeGuard, cast

from generator.app.saved import bring_in_file
from generator.app.store import Conflict, NotFound, Saved, Store
from generator.errors import InputError
from generator.generate.base import get_generator
from generator.loading import HouseRules, Rules, load_rules
from generator.render.kinds.ship_log import log_prefixes, ship_log
from generator.ruleset.logcard import (
    Checks,
    LogCard,
    Track,
    Tracks,
    card_fields,
    slug,
)
from generator.ruleset.model import Scenario
from generator.schema.damage import marked_fields
from generator.suggest import unknown

#: the most marks one change may carry (a log has a few hundred fields at most)
MAX_MARKS = 2000
#: the longest words written into one box
MAX_WRITTEN = 200
TOKEN_BYTES = 18  # 24 characters: nobody guesses a link


@dataclass(frozen=True)
class Game:
    """A game: the scenario it is played from, its turn and its links' tokens."""

    id: int
    night: int | None  # the game night it was started from (None: a file, or deleted)
    ruleset: str
    title: str
    scenario: Mapping[str, Any]
    house: HouseRules | None
    turn: int
    gm_token: str
    side_tokens: tuple[str, ...]
    ended: Mapping[str, Any] | None
    version: int
    started: float


@dataclass(frozen=True)
class Seat:
    """Who holds a link: the GM (`side` None) or one side (its index)."""

    side: int | None

    @property
    def is_gm(self) -> bool:
        return self.side is None

    def may_see(self, side: int) -> bool:
        return self.side is None or self.side == side


@dataclass(frozen=True)
class TrackState:
    """A row of boxes of a ship's log and how many of them are crossed off."""

    key: str
    track: Track
    crossed: int

    @property
    def reached(self) -> list[int]:
        """The marks (ticks, the ½ mark) her crossed boxes have reached."""
        return [after for after, _ in self.track.marks if self.crossed >= after]

    @property
    def ended(self) -> bool:
        """Every box is crossed off: what the last box brings has happened."""
        return bool(self.track.boxes) and self.crossed >= len(self.track.boxes)


@dataclass(frozen=True)
class GameShip:
    """One ship of a game: her log (`card`) and what is marked on it (`marks`)."""

    key: str  # "1-2": the second ship of the first side
    side: int
    index: int
    name: str
    card: LogCard
    marks: Mapping[str, bool | str]
    version: int

    def tracks(self) -> list[TrackState]:
        """Her rows of boxes, each with how many boxes are crossed off, in the log's order."""
        found: list[TrackState] = []
        for section in self.card.sections():
            if isinstance(section, Tracks):
                for track in section.rows:
                    crossed = sum(1 for name in track.boxes if self.marks.get(name) is True)
                    found.append(TrackState(slug(track.label), track, crossed))
        return found


def ship_key(side: int, index: int) -> str:
    """Return the key a ship is named by in links: ``1-2`` (side 1, ship 2)."""
    return f"{side + 1}-{index + 1}"


# --- the fields a log holds ----------------------------------------------------------------


# --- starting a game -----------------------------------------------------------------------


def start_game(store: Store, saved: Saved) -> Game:
    """Start a game from game night `saved` (its scenario as it is now), played by its
    house rules; every ship starts with nothing marked.

    Raises:
        InputError: the ruleset keeps no ship's logs (a duel), or the night has no ships.
    """
    return _start(store, saved.id, saved.scenario, saved.house_rules)


def start_game_from_file(
    store: Store, path: Path, house: HouseRules | None = None
) -> tuple[Saved, Game]:
    """Keep the scenario (or fleet) file `path` as a game night played by the house rules
    `house`, as the web app's upload does (`bring_in_file`), and start a game from it."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror or exc}") from None
    saved = bring_in_file(store, raw, path.name, house=house)[1]
    return saved, start_game(store, saved)


def _start(
    store: Store, night: int | None, scenario: Mapping[str, Any], house: HouseRules | None
) -> Game:
    ruleset = str(scenario.get("ruleset", ""))
    rules = load_rules(house)
    gen = get_generator(ruleset)
    if gen.units != "ships":
        raise InputError(
            f"{ruleset}: a game follows ships' logs, and this ruleset has none "
            "(print its duel records instead)"
        )
    sides = scenario.get("sides") or []
    if not any(side.get("ships") for side in sides):
        raise InputError("a game needs ships: this scenario has none")
    cards = _cards_of(rules, scenario)
    gm = secrets.token_urlsafe(TOKEN_BYTES)
    tokens = [secrets.token_urlsafe(TOKEN_BYTES) for _ in sides]
    now = time.time()
    with store.transaction() as db:
        cursor = db.execute(
            "INSERT INTO games (night, ruleset, title, scenario, house_name, house_rules, "
            "gm_token, started, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                night,
                ruleset,
                str(scenario.get("title") or "Untitled game"),
                json.dumps(scenario, ensure_ascii=False),
                house.name if house else None,
                house.raw if house else None,
                gm,
                now,
                now,
            ),
        )
        number = cursor.lastrowid
        assert number is not None
        for index, token in enumerate(tokens):
            db.execute(
                "INSERT INTO game_sides (game, side, token) VALUES (?, ?, ?)",
                (number, index, token),
            )
        for side, logs in enumerate(cards):
            units = sides[side].get("ships") or []
            for index, card in enumerate(logs):
                # her log starts with what the scenario says is marked on it (a campaign's
                # damage carried over)
                marks = {field: True for field in sorted(marked_fields(card, units[index]))}
                db.execute(
                    "INSERT INTO game_ships (game, side, ship, marks) VALUES (?, ?, ?, ?)",
                    (number, side, index, json.dumps(marks, sort_keys=True)),
                )
    return game(store, number)


# --- reading a game ------------------------------------------------------------------------


def game(store: Store, number: int) -> Game:
    """Return game `number` (NotFound: there is none)."""
    row = store.read_one(
        "SELECT id, night, ruleset, title, scenario, house_name, house_rules, turn, "
        "gm_token, ended, version, started FROM games WHERE id = ?",
        (number,),
    )
    if row is None:
        raise NotFound(f"game {number}: there is no such game")
    tokens = store.read("SELECT token FROM game_sides WHERE game = ? ORDER BY side", (number,))
    house = HouseRules(row[5], bytes(row[6])) if row[5] is not None else None
    return Game(
        id=row[0],
        night=row[1],
        ruleset=row[2],
        title=row[3],
        scenario=json.loads(row[4]),
        house=house,
        turn=row[7],
        gm_token=row[8],
        side_tokens=tuple(t[0] for t in tokens),
        ended=json.loads(row[9]) if row[9] is not None else None,
        version=row[10],
        started=row[11],
    )


def games(store: Store) -> list[Game]:
    """Every game, the one started last first."""
    rows = store.read("SELECT id FROM games ORDER BY started DESC, id DESC", ())
    return [game(store, row[0]) for row in rows]


def night_games(store: Store, night: int) -> list[Game]:
    """The games started from game night `night`, the one started last first."""
    rows = store.read(
        "SELECT id FROM games WHERE night = ? ORDER BY started DESC, id DESC", (night,)
    )
    return [game(store, row[0]) for row in rows]


def seat_of(store: Store, token: str) -> tuple[Game, Seat]:
    """Return the game a link's `token` opens and who holds it.

    Raises:
        NotFound: no game has that link (the same words whatever was wrong with it).
    """
    if 16 <= len(token) <= 64:
        row = store.read_one("SELECT id FROM games WHERE gm_token = ?", (token,))
        if row is not None and secrets.compare_digest(token, game(store, row[0]).gm_token):
            return game(store, row[0]), Seat(None)
        row = store.read_one("SELECT game, side FROM game_sides WHERE token = ?", (token,))
        if row is not None:
            return game(store, row[0]), Seat(int(row[1]))
    raise NotFound("no game has this link: ask the GM for it again")


def seat_in(store: Store, number: int, token: str | None) -> tuple[Game, Seat]:
    """Return game `number` and who holds `token`, which must be one of its links."""
    if not token:
        raise NotFound(f"game {number}: a game's link (its token) is needed")
    found, seat = seat_of(store, token)
    if found.id != number:
        raise NotFound("no game has this link: ask the GM for it again")
    return found, seat


def game_rules(found: Game) -> Rules:
    """Return the rules game `found` is played by: the built-in ones, or with its house
    rules."""
    return load_rules(found.house)


# cards are worked out from the scenario a game keeps, which never changes: kept per game
_CARDS: OrderedDict[tuple[int, float], list[list[LogCard]]] = OrderedDict()
_CARDS_KEPT = 16


def _cards_of(rules: Rules, scenario: Mapping[str, Any]) -> list[list[LogCard]]:
    sides = scenario.get("sides") or []
    prefixes = log_prefixes(sides)
    ruleset = str(scenario["ruleset"])
    return [
        [
            ship_log(rules, ruleset, prefix, ship, side)
            for prefix, ship in zip(prefixes[s], side.get("ships") or [], strict=True)
        ]
        for s, side in enumerate(sides)
    ]


def cards(found: Game) -> list[list[LogCard]]:
    """Return every ship's log of game `found`, side by side, as the packet prints them."""
    key = (found.id, found.started)
    if key in _CARDS:
        _CARDS.move_to_end(key)
        return _CARDS[key]
    made = _cards_of(game_rules(found), found.scenario)
    _CARDS[key] = made
    while len(_CARDS) > _CARDS_KEPT:
        _CARDS.popitem(last=False)
    return made


def side_names(found: Game) -> list[str]:
    """The sides' names, as the scenario gives them."""
    return [
        str(side.get("name") or f"Side {i + 1}")
        for i, side in enumerate(found.scenario.get("sides") or [])
    ]


def ships(store: Store, found: Game, seat: Seat) -> list[GameShip]:
    """Return the ships `seat` may see (a side: its own; the GM: all), side by side."""
    logs = cards(found)
    rows = store.read(
        "SELECT side, ship, marks, version FROM game_ships WHERE game = ? ORDER BY side, ship",
        (found.id,),
    )
    return [
        _ship(logs, side, index, marks, version)
        for side, index, marks, version in rows
        if seat.may_see(side)
    ]


def _ship(logs: list[list[LogCard]], side: int, index: int, marks: str, version: int) -> GameShip:
    card = logs[side][index]
    return GameShip(
        key=ship_key(side, index),
        side=side,
        index=index,
        name=card.name or f"Ship {index + 1}",
        card=card,
        marks=json.loads(marks),
        version=version,
    )


def find_ship(store: Store, found: Game, seat: Seat, name: str) -> GameShip:
    """Return the ship `name` names (her key, ``1-2``, or her name) among those `seat`
    may see; the other side's ships are not there to be found."""
    seen = ships(store, found, seat)
    for ship in seen:
        if name == ship.key:
            return ship
    named = [ship for ship in seen if ship.name.casefold() == name.strip().casefold()]
    if len(named) == 1:
        return named[0]
    if len(named) > 1:
        keys = ", ".join(ship.key for ship in named)
        raise InputError(f"ship {name!r}: more than one ship has that name: use {keys}")
    raise NotFound(unknown("ship", name, [ship.name for ship in seen]))


# --- changing a ship -----------------------------------------------------------------------


def change_ship(
    store: Store,
    found: Game,
    seat: Seat,
    name: str,
    *,
    version: int | None,
    tracks: Mapping[str, Any] | None = None,
    marks: Mapping[str, Any] | None = None,
    whole: bool = False,
) -> GameShip:
    """Change what is marked on a ship's log, as one write; return her as stored.

    Args:
        tracks: track key (``hull``) -> how many of its boxes are crossed off (the first
            that many, as a player crosses them).
        marks: field name -> True/False (a box) or words (a write-in box).
        whole: `marks` is the whole log (a form sent whole): every box it leaves out is
            cleared.
        version: the version the change was made against; another one stored: `Conflict`.

    Raises:
        InputError: a track, field or count the log does not have; nothing changes.
        Conflict: the ship was changed since `version`; nothing changes.
    """
    still_playing(found)
    ship = find_ship(store, found, seat, name)
    new = _marked(ship, tracks, marks, whole=whole)
    with store.transaction() as db:
        _write_marks(db, found, ship, new, version)
    return find_ship(store, found, seat, ship.key)


def change_ships(
    store: Store, found: Game, seat: Seat, marks: Mapping[str, Mapping[str, Any]]
) -> list[GameShip]:
    """Set the whole log of several ships at once (a filled packet read back), as one
    write: every ship's marks are checked first, and a problem in any changes none.

    Args:
        marks: ship key -> her whole log (field name -> True/False or words); a box it
            leaves out is cleared.

    Raises:
        InputError: a ship, field or value her log does not have; nothing changes.
        Conflict: the game has ended.
    """
    still_playing(found)
    planned = []
    for name, given in marks.items():
        ship = find_ship(store, found, seat, name)
        planned.append((ship, _marked(ship, None, given, whole=True)))
    with store.transaction() as db:
        for ship, new in planned:
            _write_marks(db, found, ship, new, None)
    return [find_ship(store, found, seat, ship.key) for ship, _ in planned]


def _marked(
    ship: GameShip,
    tracks: Mapping[str, Any] | None,
    marks: Mapping[str, Any] | None,
    *,
    whole: bool,
) -> dict[str, Any]:
    """Return a ship's marks with a change made (as `change_ship` takes it), checked."""
    new = {} if whole else dict(ship.marks)
    boxes, written = card_fields(ship.card)
    given = dict(marks or {})
    if len(given) > MAX_MARKS:
        raise InputError(f"marks: at most {MAX_MARKS} fields in one change")
    for field, value in given.items():
        if field in boxes:
            if not isinstance(value, bool):
                raise InputError(f"marks.{field}: true or false (a box is crossed or not)")
            new.pop(field, None)
            if value:
                new[field] = True
        elif field in written:
            if not isinstance(value, str) or len(value) > MAX_WRITTEN:
                raise InputError(f"marks.{field}: words, at most {MAX_WRITTEN} characters")
            new.pop(field, None)
            if value.strip():
                new[field] = value.strip()
        else:
            raise InputError(
                unknown(f"{ship.name}'s log: field", str(field), sorted(boxes | written))
            )
    by_key = {state.key: state for state in ship.tracks()}
    for key, count in (tracks or {}).items():
        state = by_key.get(str(key))
        if state is None:
            raise InputError(unknown(f"{ship.name}'s log: track", str(key), list(by_key)))
        total = len(state.track.boxes)
        if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= total:
            raise InputError(
                f"tracks.{key}: a number of boxes from 0 to {total} ({state.track.label})"
            )
        for number, box in enumerate(state.track.boxes):
            new.pop(box, None)
            if number < count:
                new[box] = True
    return new


def _write_marks(
    db: sqlite3.Connection, found: Game, ship: GameShip, new: Mapping[str, Any], version: int | None
) -> None:
    """Store a ship's marks in the transaction `db` (against `version`, unless None)."""
    row = db.execute(
        "SELECT version FROM game_ships WHERE game = ? AND side = ? AND ship = ?",
        (found.id, ship.side, ship.index),
    ).fetchone()
    if version is not None and row[0] != version:
        raise Conflict(
            f"{ship.name} was changed elsewhere (version {row[0]}, not {version}): reload the page"
        )
    _store_marks(db, found, ship.side, ship.index, dict(new))


def set_turn(store: Store, found: Game, seat: Seat, turn: int, version: int | None) -> Game:
    """Set the game's turn (the GM's to do)."""
    if not seat.is_gm:
        raise InputError("only the GM moves the game to another turn")
    if not 1 <= turn <= 999:
        raise InputError(f"turn: {turn} is not a turn (1 to 999)")
    with store.transaction() as db:
        row = db.execute("SELECT version FROM games WHERE id = ?", (found.id,)).fetchone()
        if version is not None and row[0] != version:
            raise Conflict(f"game {found.id} was changed elsewhere: reload the page")
        db.execute(
            "UPDATE games SET turn = ?, version = version + 1, updated = ? WHERE id = ?",
            (turn, time.time(), found.id),
        )
    return game(store, found.id)


# --- resolving with the ships ---------------------------------------------------------------


@dataclass(frozen=True)
class GameResolution:
    """A procedure resolved in a game: who asked, with which ships, the resolution as
    ``resolve --json`` gives it (with the inputs filled from the ships, and where each came
    from), the boxes its losses cross off, and whether they are on the logs."""

    number: int
    turn: int
    seat: Seat
    resolver: str
    ship: str | None
    target: str | None
    result: Mapping[str, Any]
    # ship key -> log field -> marked (a box), or the number added to what is written there
    losses: Mapping[str, Mapping[str, bool | int]]
    applied: Mapping[str, Mapping[str, bool]] | None  # ship key -> field -> as it was
    undone: bool

    def involves(self) -> set[int]:
        """The sides whose ships the resolution names (their keys start with the side)."""
        keys = [k for k in (self.ship, self.target, *self.losses) if k]
        return {int(k.split("-", 1)[0]) - 1 for k in keys}


def resolve_in_game(
    store: Store,
    found: Game,
    seat: Seat,
    resolver_id: str,
    ship_name: str,
    target_name: str | None = None,
    given: Mapping[str, Any] | None = None,
    seed: int | None = None,
) -> GameResolution:
    """Resolve `resolver_id` for a ship (and a target) of the game: the inputs that come
    from the ships' logs are filled (`filling.filled_inputs`), those `given` go on top, the
    dice come from `seed` (None: fresh); the resolution is kept in the game's log with the
    boxes its losses would cross off, not yet applied (`apply_resolution`).

    A side's link resolves with its own ships only: the other side's are not there to
    be named, so their ratings never reach it.
    """
    from generator.app.filling import crossings, filled_inputs, with_given
    from generator.app.requests import fresh_seed
    from generator.resolve import get_resolver, parse_inputs
    from generator.resolve.engine import run

    if found.ended is not None:
        raise Conflict(f"game {found.id} has ended: nothing more is resolved in it")
    resolver = get_resolver(resolver_id)
    if resolver.ruleset != found.ruleset:
        raise InputError(
            f"{resolver_id}: not a resolver of {found.ruleset}, the ruleset this game is played by"
        )
    rules = game_rules(found)
    ship = find_ship(store, found, seat, ship_name)
    target = find_ship(store, found, seat, target_name) if target_name else None
    if target is not None and target.key == ship.key:
        raise InputError(f"target: {ship.name} cannot act on herself")
    filled = with_given(
        resolver_id, filled_inputs(rules, found.ruleset, resolver_id, ship, target), given or {}
    )
    raw: dict[str, Any] = {item.name: item.value for item in filled}
    raw.update(given or {})
    inputs = parse_inputs(resolver, rules, raw)
    rolled = fresh_seed() if seed is None else seed
    resolution = run(resolver, rules, inputs, rolled)
    result = resolution.to_json()
    result["filled"] = [
        {"name": item.name, "value": item.value, "from": item.words} for item in filled
    ]
    losses = crossings(found.ruleset, resolution.outcome.effects, ship, target)
    with store.transaction() as db:
        row = db.execute(
            "SELECT COALESCE(MAX(number), 0) + 1 FROM game_resolutions WHERE game = ?",
            (found.id,),
        ).fetchone()
        number = int(row[0])
        db.execute(
            "INSERT INTO game_resolutions (game, number, turn, seat, resolver, ship, target, "
            "result, losses, made) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                found.id,
                number,
                found.turn,
                seat.side,
                resolver_id,
                ship.key,
                target.key if target else None,
                json.dumps(result, ensure_ascii=False),
                json.dumps(losses, sort_keys=True),
                time.time(),
            ),
        )
    return resolution_of(store, found, seat, number)


def resolutions(store: Store, found: Game, seat: Seat) -> list[GameResolution]:
    """The game's resolutions a link may see, the last first: a side sees those that name
    its own ships only."""
    rows = store.read(
        "SELECT number FROM game_resolutions WHERE game = ? ORDER BY number DESC", (found.id,)
    )
    every = [_resolution(store, found, row[0]) for row in rows]
    return [r for r in every if seat.is_gm or r.involves() <= {seat.side}]


def resolution_of(store: Store, found: Game, seat: Seat, number: int) -> GameResolution:
    """Return resolution `number` of the game, if `seat` may see it."""
    if not 1 <= number <= 10**9:
        raise NotFound(f"resolution {number}: there is no such resolution in this game")
    made = _resolution(store, found, number)
    if not (seat.is_gm or made.involves() <= {seat.side}):
        raise NotFound(f"resolution {number}: there is no such resolution in this game")
    return made


def _resolution(store: Store, found: Game, number: int) -> GameResolution:
    row = store.read_one(
        "SELECT number, turn, seat, resolver, ship, target, result, losses, applied, undone "
        "FROM game_resolutions WHERE game = ? AND number = ?",
        (found.id, number),
    )
    if row is None:
        raise NotFound(f"resolution {number}: there is no such resolution in this game")
    return GameResolution(
        number=row[0],
        turn=row[1],
        seat=Seat(row[2]),
        resolver=row[3],
        ship=row[4],
        target=row[5],
        result=json.loads(row[6]),
        losses=json.loads(row[7]),
        applied=json.loads(row[8]) if row[8] is not None else None,
        undone=bool(row[9]),
    )


def _ship_row(db: Any, found: Game, key: str) -> tuple[int, int, dict[str, Any]]:
    side, index = (int(part) - 1 for part in key.split("-", 1))
    row = db.execute(
        "SELECT marks FROM game_ships WHERE game = ? AND side = ? AND ship = ?",
        (found.id, side, index),
    ).fetchone()
    return side, index, json.loads(row[0])


def apply_resolution(store: Store, found: Game, seat: Seat, number: int) -> GameResolution:
    """Cross off a resolution's losses on the ships' logs, as one write.

    Raises:
        Conflict: they are on the logs already.
    """
    made = resolution_of(store, found, seat, number)
    still_playing(found)
    if not made.losses:
        raise InputError(f"resolution {number}: its result crosses off nothing")
    with store.transaction() as db:
        if _applied(db, found, number) is not None:
            raise Conflict(f"resolution {number}: its losses are on the logs already")
        before: dict[str, dict[str, Any]] = {}
        for key, fields in made.losses.items():
            side, index, marks = _ship_row(db, found, key)
            before[key] = {}
            for field, value in fields.items():
                if _is_tally(value):
                    # a number written in: the loss is added to it
                    before[key][field] = marks.get(field)
                    marks[field] = str(_written_number(marks.get(field)) + value)
                    continue
                before[key][field] = marks.get(field) is True
                marks.pop(field, None)
                if value:
                    marks[field] = True
            _store_marks(db, found, side, index, marks)
        db.execute(
            "UPDATE game_resolutions SET applied = ?, undone = 0 WHERE game = ? AND number = ?",
            (json.dumps(before, sort_keys=True), found.id, number),
        )
    return resolution_of(store, found, seat, number)


def undo_resolution(store: Store, found: Game, seat: Seat, number: int) -> GameResolution:
    """Take a resolution's losses off the logs again, as one write: each box it crossed
    is as it was before (boxes marked since by hand stay marked)."""
    made = resolution_of(store, found, seat, number)
    still_playing(found)
    with store.transaction() as db:
        applied = _applied(db, found, number)
        if applied is None:
            raise Conflict(f"resolution {number}: its losses are not on the logs")
        before: dict[str, dict[str, Any]] = json.loads(applied)
        for key, fields in before.items():
            side, index, marks = _ship_row(db, found, key)
            for field, was in fields.items():
                loss = made.losses.get(key, {}).get(field)
                if _is_tally(loss):
                    # the loss comes off the number (what was written by hand since stays)
                    left = _written_number(marks.get(field)) - loss
                    marks.pop(field, None)
                    if left > 0 or (was is not None and str(was).strip()):
                        marks[field] = str(max(left, 0))
                elif loss is not None:
                    marks.pop(field, None)
                    if was:
                        marks[field] = True
            _store_marks(db, found, side, index, marks)
        db.execute(
            "UPDATE game_resolutions SET applied = NULL, undone = 1 WHERE game = ? AND number = ?",
            (found.id, number),
        )
    return resolution_of(store, found, seat, number)


def _is_tally(loss: Any) -> TypeGuard[int]:
    """Whether a resolution's loss on a field is a number to add to what is written there
    (`filling.TALLIES`), not a box to cross."""
    return isinstance(loss, int) and not isinstance(loss, bool)


def _written_number(words: Any) -> int:
    """The number written in a space (a tally of men killed): 0 if none is."""
    found = re.match(r"\s*(\d+)", str(words or ""))
    return int(found.group(1)) if found else 0


def _applied(db: Any, found: Game, number: int) -> str | None:
    """What a resolution's losses replaced on the logs (JSON), or None: not applied."""
    row = db.execute(
        "SELECT applied FROM game_resolutions WHERE game = ? AND number = ?",
        (found.id, number),
    ).fetchone()
    return None if row[0] is None else str(row[0])


def still_playing(found: Game) -> None:
    """Refuse a change to an ended game's ships (`Conflict`)."""
    if found.ended is not None:
        raise Conflict(f"game {found.id} has ended: its ships no longer change")


def _store_marks(db: Any, found: Game, side: int, index: int, marks: dict[str, Any]) -> None:
    db.execute(
        "UPDATE game_ships SET marks = ?, version = version + 1 "
        "WHERE game = ? AND side = ? AND ship = ?",
        (json.dumps(marks, sort_keys=True), found.id, side, index),
    )
    db.execute("UPDATE games SET updated = ? WHERE id = ?", (time.time(), found.id))


def resolution_json(made: GameResolution, names: Mapping[str, str]) -> dict[str, Any]:
    """Return a kept resolution as the API gives it (`names`: ship key -> name)."""
    from generator.resolve import get_resolver

    return {
        "number": made.number,
        "title": get_resolver(made.resolver).title,
        "turn": made.turn,
        "by": "gm" if made.seat.side is None else f"side {made.seat.side + 1}",
        "resolver": made.resolver,
        "ship": made.ship,
        "target": made.target,
        "resolution": dict(made.result),
        "losses": {
            key: {
                "ship": names.get(key, key),
                "boxes": sorted(f for f, v in fields.items() if v is True),
                "written": [
                    {"field": f, "what": _space_words(f), "amount": v}
                    for f, v in sorted(fields.items())
                    if _is_tally(v)
                ],
            }
            for key, fields in made.losses.items()
        },
        "applied": made.applied is not None,
        "undone": made.undone,
    }


# --- ending a game -----------------------------------------------------------------------

#: how a ship ends a game, as the GM says it
ENDS = ("fought on", "struck", "sunk", "captured")


def end_of(ship: GameShip) -> str:
    """Return how `ship` ends the game by what her log has ticked (Sunk, Captured, Struck),
    the worst first; else she fought on."""
    ticked = set()
    for section in ship.card.sections():
        if isinstance(section, Checks):
            for check in section.entries:
                if any(ship.marks.get(field) is True for field in check.fields):
                    ticked.add(slug(check.label))
    for end in ("sunk", "captured", "struck"):
        if end in ticked:
            return end
    return "fought on"


def end_game(
    store: Store,
    found: Game,
    seat: Seat,
    results: Mapping[str, str] | None = None,
    victory: Sequence[int] = (),
) -> Game:
    """End the game (the GM's to do): each ship's end (`results`, by her key or name;
    those left out as her log says, `end_of`) and the scenario's victory conditions met
    (`victory`, by their place in its list, from 0). The ships no longer change.

    Raises:
        InputError: a side's link, an unknown ship or end, or a condition there is not.
        Conflict: the game has ended already.
    """
    if not seat.is_gm:
        raise InputError("only the GM ends the game")
    if found.ended is not None:
        raise Conflict(f"game {found.id} has ended already")
    every = ships(store, found, seat)
    ends = {ship.key: end_of(ship) for ship in every}
    for name, end in (results or {}).items():
        ship = find_ship(store, found, seat, str(name))
        if end not in ENDS:
            raise InputError(f"results.{name}: {end!r} is not an end ({', '.join(ENDS)})")
        ends[ship.key] = end
    conditions = [str(line) for line in found.scenario.get("victory") or []]
    met = []
    for index in victory:
        if (
            not isinstance(index, int)
            or isinstance(index, bool)
            or not 0 <= index < len(conditions)
        ):
            raise InputError(
                f"victory: {index!r} is not one of the scenario's {len(conditions)} conditions "
                f"(0 to {len(conditions) - 1})"
            )
        met.append(conditions[index])
    names = {ship.key: ship.name for ship in every}
    ended = {
        "turn": found.turn,
        "at": time.time(),
        "ships": {key: {"name": names[key], "end": end} for key, end in ends.items()},
        "victory": met,
    }
    with store.transaction() as db:
        row = db.execute("SELECT ended FROM games WHERE id = ?", (found.id,)).fetchone()
        if row[0] is not None:
            raise Conflict(f"game {found.id} has ended already")
        db.execute(
            "UPDATE games SET ended = ?, version = version + 1, updated = ? WHERE id = ?",
            (json.dumps(ended, ensure_ascii=False), time.time(), found.id),
        )
    return game(store, found.id)


def ended_json(found: Game, seat: Seat) -> dict[str, Any] | None:
    """Return how the game ended as `seat` may see it: a side, its own ships' ends only."""
    if found.ended is None:
        return None
    shown = {
        key: value
        for key, value in dict(found.ended.get("ships", {})).items()
        if seat.may_see(int(key.split("-", 1)[0]) - 1)
    }
    return {**dict(found.ended), "ships": shown}


# --- what a link may see, as data ----------------------------------------------------------


def ship_json(ship: GameShip) -> dict[str, Any]:
    """Return a ship's state as the API gives it."""
    return {
        "key": ship.key,
        "side": ship.side + 1,
        "name": ship.name,
        "version": ship.version,
        "tracks": {
            state.key: {
                "label": state.track.label,
                "rating": state.track.value,
                "boxes": len(state.track.boxes),
                "crossed": state.crossed,
                "end": state.track.end,
                "ended": state.ended,
            }
            for state in ship.tracks()
        },
        "marks": dict(ship.marks),
    }


def game_json(store: Store, found: Game, seat: Seat) -> dict[str, Any]:
    """Return what `seat` may see of game `found`: a side sees its own side only."""
    names = side_names(found)
    seen = ships(store, found, seat)
    names_by_key = {ship.key: ship.name for ship in seen}
    return {
        "id": found.id,
        "ruleset": found.ruleset,
        "title": found.title,
        "turn": found.turn,
        "version": found.version,
        "seat": "gm" if seat.side is None else f"side {seat.side + 1}",
        "sides": [{"side": i + 1, "name": name} for i, name in enumerate(names) if seat.may_see(i)],
        "ships": [ship_json(ship) for ship in seen],
        "resolutions": [
            resolution_json(made, names_by_key) for made in resolutions(store, found, seat)
        ],
        "ended": ended_json(found, seat),
    }


def scenario_of(found: Game) -> Scenario:
    """The scenario a game is played from (checked when the game was started)."""
    return cast(Scenario, found.scenario)


def links(found: Game, base: str) -> dict[str, Any]:
    """Return the game's links under `base` (the server's address): the GM's and each
    side's, in order."""
    root = base.rstrip("/")
    return {
        "gm": f"{root}/play/{found.gm_token}",
        "sides": [f"{root}/play/{token}" for token in found.side_tokens],
    }


# --- the sheets every link may fetch ---------------------------------------------------------

#: the sheets a game shares with every link, as their page names them
SHARED_SHEETS = {"quick-reference": "Quick reference", "map": "Map"}


def shared_sheets(found: Game, seat: Seat) -> list[tuple[str, str]]:
    """The sheets `seat` may fetch of game `found`: the quick reference, and the map when
    the scenario has one and, for a side, when the map as printed names no ship of another
    side (a convoy map marks every ship's start hex: that one is the GM's)."""
    kinds = ["quick-reference"]
    if found.scenario.get("map"):
        others = {
            str(ship.get("name", ""))
            for index, side in enumerate(found.scenario.get("sides") or [])
            if not seat.may_see(index)
            for ship in side.get("ships") or []
        }
        if not others & _named_on_map(found):
            kinds.append("map")
    return [(kind, SHARED_SHEETS[kind]) for kind in kinds]


# the ships' names a game's printed map shows, by game (a map is drawn in a tenth of a second)
_ON_MAP: OrderedDict[tuple[int, float], frozenset[str]] = OrderedDict()


def _named_on_map(found: Game) -> frozenset[str]:
    key = (found.id, found.started)
    if key not in _ON_MAP:
        # PDFium only here: a game's other pages and commands never load it
        from generator.app.preview import page_texts

        text = "".join(page_texts(_sheet_pdf(found, "map", "a4")))
        names = {
            str(ship.get("name", ""))
            for side in found.scenario.get("sides") or []
            for ship in side.get("ships") or []
        }
        _ON_MAP[key] = frozenset(name for name in names if name and name in text)
        while len(_ON_MAP) > _CARDS_KEPT:
            _ON_MAP.popitem(last=False)
    return _ON_MAP[key]


def _sheet_pdf(found: Game, kind: str, paper: str) -> bytes:
    from generator.app.printed import told
    from generator.render.sheets import render_sheet

    rules = game_rules(found)
    data = None if kind == "quick-reference" else told(rules, scenario_of(found), rolled=False)
    return render_sheet(kind, rules, data=data, ruleset=found.ruleset, paper=paper)


def shared_sheet(found: Game, seat: Seat, kind: str, paper: str = "a4") -> bytes:
    """Return one of the sheets `seat` may fetch (`shared_sheets`) as PDF bytes, as
    ``quartermaster sheet KIND --from`` the game's scenario prints it."""
    offered = [k for k, _ in shared_sheets(found, seat)]
    if kind not in offered:
        raise NotFound(unknown("shared sheet", kind, offered))
    return _sheet_pdf(found, kind, paper)


# --- a game at the command line (`quartermaster play RULESET --game ID`) -------------------


@dataclass
class TableGame:
    """A game as `generator.play.PlaySession` uses it (its `GameLink`): resolutions with
    the ships, kept in the game's log, their losses crossed off and taken back; the GM's
    seat (the command line sees every ship)."""

    store: Store
    game: Game

    @property
    def title(self) -> str:
        return self.game.title

    def _names(self) -> dict[str, str]:
        return {ship.key: ship.name for ship in ships(self.store, self.game, Seat(None))}

    def resolve(
        self, resolver_id: str, ship: str, target: str | None, given: dict[str, str], seed: int
    ) -> tuple[str, dict[str, Any], int]:
        from generator.resolve import get_resolver

        made = resolve_in_game(
            self.store, self.game, Seat(None), resolver_id, ship, target, given, seed
        )
        result = made.result
        names = self._names()
        lines = [get_resolver(resolver_id).title]
        filled = result.get("filled") or []
        if filled:
            lines.append(
                "  filled in: "
                + "; ".join(f"{f['name']}={f['value']} ({f['from']})" for f in filled)
            )
        lines.extend(f"  {line}" for line in result.get("explanation", []))
        lines.append(f"  → {result.get('outcome')}")
        lines.extend(f"  • {change}" for change in result.get("changes", []))
        if made.losses:
            lines.append(f"  apply crosses off: {_losses_words(made, names)}")
        return "\n".join(lines), resolution_json(made, names), made.number

    def apply(self, number: int) -> str:
        made = apply_resolution(self.store, game(self.store, self.game.id), Seat(None), number)
        return f"crossed off: {_losses_words(made, self._names())}"

    def undo(self, number: int) -> str:
        made = resolution_of(self.store, self.game, Seat(None), number)
        if made.applied is None:
            return ""
        undo_resolution(self.store, game(self.store, self.game.id), Seat(None), number)
        return f"taken off the logs again: {_losses_words(made, self._names())}"


def _losses_words(made: GameResolution, names: Mapping[str, str]) -> str:
    """Say a resolution's losses: how many boxes on which ship, and the numbers added to
    what is written in her spaces."""
    said = []
    for key, fields in made.losses.items():
        boxes = sum(1 for v in fields.values() if v is True)
        added = [f"+{v} {_space_words(f)}" for f, v in sorted(fields.items()) if _is_tally(v)]
        words = [f"{boxes} on {names.get(key, key)}"] if boxes else [names.get(key, key)]
        said.append(" ".join(words + ([f"({', '.join(added)})"] if added else [])))
    return "; ".join(said)


def _space_words(field: str) -> str:
    """A write-in space's field as words ("crew killed")."""
    return field.rsplit("_", 2)[-2] + " " + field.rsplit("_", 1)[-1]
