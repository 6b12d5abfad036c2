"""Campaigns: the fleets of an ended game carried on into the next game night.

A game is ended by the GM (`generator.app.games.end_game`: each ship's end, the victory
conditions met). "Carry on as a campaign" (`carry_on`) then makes the next game night: the
same sides and ships, sunk ships gone, captured ships with the side that took them, and every
ship's log as the game left it less what was repaired between the games: her damage and
ticked check boxes written into the scenario as ``damage`` and ``marked`` (which the packet
prints crossed off), a new setting rolled around the fleets (`scenario_from_forces`), the seed
shown. Repairs follow the ruleset's table ``repairs-between-games`` (a house table, its
``note`` says what it fills in) and, where the rules give a repair procedure of their own
(FLoB's 6.8 Repair Table), that procedure; all of it rolled from the step's seed, so the
same seed gives the same next night.

The campaign holds the nights in order (a night belongs to at most one campaign) and the
games played from them; its fleets are the ships of its last night, with their damage.
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from generator.app import games
from generator.app.games import Game, GameShip, Seat
from generator.app.requests import fresh_seed
from generator.app.saved import resize_side, with_derived
from generator.app.store import Conflict, NotFound, Saved, Store, insert_scenario
from generator.errors import InputError
from generator.generate import scenario as scenarios
from generator.generate.base import get_generator
from generator.generate.common import roll_on
from generator.loading import Rules
from generator.ruleset.logcard import Checks, Tracks, slug
from generator.ruleset.model import Force, Side

#: the table of every ruleset with ships' logs that says what is repaired between games
REPAIRS_TABLE = "repairs-between-games"
#: what a roll on that table repairs of a row's crossed boxes (its cells' ``repaired``)
REPAIRED = ("none", "half", "all")
#: the longest campaign title kept
TITLE_LENGTH = 120


@dataclass(frozen=True)
class ShipRepairs:
    """What happened to one ship between two games, in words (`said`): her repairs, what
    stays, or that she is gone or changed sides."""

    ship: str
    side: str
    said: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"ship": self.ship, "side": self.side, "said": list(self.said)}


@dataclass(frozen=True)
class CampaignNight:
    """A game night of a campaign: its place (`step`, from 1), the game it was carried on
    from and the seed it was made with (None for the first), and what was repaired."""

    night: int
    title: str
    step: int
    from_game: int | None
    seed: int | None
    repairs: tuple[ShipRepairs, ...]


@dataclass(frozen=True)
class Campaign:
    """A campaign: its nights in order."""

    id: int
    title: str
    ruleset: str
    created: float
    nights: tuple[CampaignNight, ...]


# --- a ship's log between games -------------------------------------------------------------


@dataclass
class _Log:
    """A ship's log as the game left it, in the scenario's words (`generator.schema.damage`):
    boxes crossed off by row (`rows`: a row of boxes, or a check box of several, -> how many),
    the single check boxes ticked (`ticked`). A box standing after a row is named by the row
    and its own label (``foremast_fallen``); `own` gives every name's own label (``fallen``),
    which the repairs table's ``cleared``, ``kept`` and ``lost`` name."""

    rows: dict[str, int]
    totals: dict[str, int]
    words: dict[str, str]
    own: dict[str, str]
    people: set[str]
    ticked: list[str]


def _log_of(ship: GameShip, people: Sequence[str]) -> _Log:
    log = _Log({}, {}, {}, {}, set(), [])

    def check(name: str, own: str, words: str, fields: Sequence[str]) -> None:
        count = sum(1 for f in fields if ship.marks.get(f) is True)
        log.own[name], log.words[name] = own, words
        if len(fields) > 1:
            log.rows[name], log.totals[name] = count, len(fields)
        elif count:
            log.ticked.append(name)

    for section in ship.card.sections():
        if isinstance(section, Tracks):
            for track in section.rows:
                key = slug(track.label)
                log.rows[key] = sum(1 for f in track.boxes if ship.marks.get(f) is True)
                log.totals[key], log.words[key], log.own[key] = (
                    len(track.boxes),
                    track.label,
                    key,
                )
                if section.group in people:
                    log.people.add(key)
                for after in track.after:
                    own = slug(after.label)
                    check(f"{key}_{own}", own, f"{track.label} {after.label}", after.fields)
        elif isinstance(section, Checks):
            for entry in section.entries:
                check(slug(entry.label), slug(entry.label), entry.label, entry.fields)
    return log


def _boxes(count: int) -> str:
    return f"{count} box" if count == 1 else f"{count} boxes"


class _Repairer:
    """Rolls a ruleset's repairs between games with one `random.Random` (the step's)."""

    def __init__(self, rules: Rules, ruleset: str, rng: random.Random) -> None:
        self.rules = rules
        self.rng = rng
        self.table_id = f"{ruleset}.{REPAIRS_TABLE}"
        if self.table_id not in {t.id for t in rules.all_tables()}:
            raise InputError(f"{ruleset}: its rules have no table of repairs between games")
        params = rules.table(self.table_id).params
        self.cleared = frozenset(str(x) for x in params.get("cleared", ()))
        self.kept = frozenset(str(x) for x in params.get("kept", ()))
        self.lost = frozenset(str(x) for x in params.get("lost", ()))
        self.people = tuple(str(x) for x in params.get("people", ()))
        self.procedure: Mapping[str, Any] = params.get("rules_repairs") or {}
        self.house_rolled = False

    def is_lost(self, log: _Log) -> str | None:
        """The words of the ticked box that says she is gone (Shattered, Burnt ...)."""
        marked = [*log.ticked, *(name for name, count in log.rows.items() if count)]
        return next((log.words[n] for n in marked if log.own[n] in self.lost), None)

    def _house_roll(self) -> tuple[int, str]:
        found = roll_on(self.rules, self.table_id, self.rng)
        self.house_rolled = True
        repaired = found.cell.get("repaired") if isinstance(found.cell, Mapping) else None
        if repaired not in REPAIRED:
            raise InputError(
                f"{self.table_id}, roll {found.roll}: 'repaired' must be one of "
                f"{', '.join(REPAIRED)}, not {repaired!r}"
            )
        return found.roll, str(repaired)

    def _by_the_rules(self, unit: Mapping[str, Any], log: _Log, row: str) -> tuple[bool, str]:
        """Roll the rules' own repair of `row` (a row of their repair table) for the ship
        `unit` (as the scenario has her) whose log is `log`."""
        from generator.resolve import get_resolver, parse_inputs
        from generator.resolve.engine import run

        procedure = self.procedure
        resolver = get_resolver(str(procedure["resolver"]))
        raw: dict[str, Any] = {str(procedure["input"]): row}
        for name, key in dict(procedure.get("remaining", {})).items():
            if key in log.totals:
                raw[name] = log.totals[key] - log.rows[key]
        for name, key in dict(procedure.get("ratings", {})).items():
            value = unit.get(str(key))
            if isinstance(value, str | int) and not isinstance(value, bool):
                raw[name] = str(value).lower()
        inputs = parse_inputs(resolver, self.rules, raw)
        result = run(resolver, self.rules, inputs, self.rng.randrange(2**32))
        score = dict(result.outcome.details).get("score")
        done = result.outcome.result == "succeeds"
        return done, f"{row}: score {score}" if score is not None else row

    def repair(
        self, unit: Mapping[str, Any], log: _Log
    ) -> tuple[dict[str, int], list[str], list[str]]:
        """Repair the log `log` of the ship `unit` (as the scenario has her): return the
        boxes left crossed by row, the check boxes left ticked, and what was done, in
        words."""
        said: list[str] = []
        marked: list[str] = []
        rows_by_rules = dict(self.procedure.get("rows", {}))
        for name in log.ticked:
            own, words = log.own[name], log.words[name]
            if own in self.cleared:
                continue
            if own in self.kept:
                marked.append(name)
                said.append(f"{words}: stays so")
            elif own in rows_by_rules:
                done, how = self._by_the_rules(unit, log, str(rows_by_rules[own]))
                if done:
                    said.append(f"{words}: set right ({how})")
                else:
                    marked.append(name)
                    said.append(f"{words}: not set right ({how})")
            else:
                roll, repaired = self._house_roll()
                if repaired == "none":
                    marked.append(name)
                    said.append(f"{words}: not set right (roll {roll})")
                else:
                    said.append(f"{words}: set right (roll {roll})")
        damage: dict[str, int] = {}
        for key, crossed in log.rows.items():
            label = log.words[key]
            if crossed == 0 or log.own[key] in self.cleared:
                continue
            if log.own[key] in self.kept:
                damage[key] = crossed
                said.append(f"{label}: stays so")
                continue
            if key in log.people and crossed >= log.totals[key]:
                damage[key] = crossed
                said.append(f"{label}: dead, stays so")
                continue
            roll, repaired = self._house_roll()
            back = {"none": 0, "half": math.ceil(crossed / 2), "all": crossed}[repaired]
            if back:
                said.append(
                    f"{label}: {back} of {_boxes(crossed)} crossed off repaired (roll {roll})"
                )
            else:
                said.append(
                    f"{label}: none of {_boxes(crossed)} crossed off repaired (roll {roll})"
                )
            if crossed - back:
                damage[key] = crossed - back
        return damage, marked, said


def _prize(
    rules: Rules, ruleset: str, side: Mapping[str, Any], unit: dict[str, Any]
) -> dict[str, Any]:
    """Return a ship taken by `side` as she sails for it: taken into its navy (where a
    ship names one), her values that the side decides worked out again for it
    (`with_derived`), never its flagship; her damage stays."""
    prize = dict(unit)
    if "navy" in prize and "navy" in side:
        prize["navy"] = side["navy"]
    if "flagship" in prize:
        prize["flagship"] = False
    return with_derived(ruleset, dict(side), prize, rules=rules)


def _new_flagship(ruleset: str, side: dict[str, Any]) -> str | None:
    """Give the flag of a side whose flagship is gone (sunk, lost or taken) to her
    strongest ship left (the first among equals), as a squadron's flagship is its largest
    ship; return her name (None: the side keeps its flagship, or has none)."""
    ships = side["ships"]
    if not any("flagship" in ship for ship in ships) or any(s.get("flagship") for s in ships):
        return None
    gen = get_generator(ruleset)
    best = max(ships, key=lambda ship: gen.strength(cast(Side, {**side, "ships": [ship]})))
    best["flagship"] = True
    return str(best.get("name", ""))


# --- carrying a game on ------------------------------------------------------------------------


@dataclass(frozen=True)
class CarriedOn:
    """What `carry_on` made: the campaign, the next game night and what was repaired."""

    campaign: Campaign
    night: Saved
    seed: int
    repairs: tuple[ShipRepairs, ...]


def next_scenario(
    store: Store, found: Game, seed: int
) -> tuple[dict[str, Any], tuple[ShipRepairs, ...]]:
    """Return the next game night's scenario after ended game `found` and what was repaired
    (nothing stored): the sides' ships as the game left them (sunk or lost ships gone,
    captured ones with the other side), repaired between the games by the rules'
    ``repairs-between-games``, a new setting rolled around them from `seed`.

    Raises:
        InputError: the game has not ended, or no ship is left to carry on.
    """
    if found.ended is None:
        raise InputError(f"game {found.id} has not ended: end it first, then carry it on")
    rules = games.game_rules(found)
    ruleset = found.ruleset
    repairer = _Repairer(rules, ruleset, random.Random(f"repairs:{seed}"))
    ends = {str(k): str(v.get("end")) for k, v in dict(found.ended.get("ships", {})).items()}
    names = games.side_names(found)
    old_sides = [dict(side) for side in found.scenario.get("sides") or []]
    kept: list[list[dict[str, Any]]] = [[] for _ in old_sides]
    told: list[ShipRepairs] = []
    for ship in games.ships(store, found, Seat(None)):
        log = _log_of(ship, repairer.people)
        end = ends.get(ship.key, games.end_of(ship))
        gone = "sunk" if end == "sunk" else repairer.is_lost(log)
        if gone is not None:
            told.append(ShipRepairs(ship.name, names[ship.side], (f"lost ({gone.lower()})",)))
            continue
        unit = {
            k: v
            for k, v in dict(old_sides[ship.side]["ships"][ship.index]).items()
            if k not in ("damage", "marked")
        }
        damage, marked, said = repairer.repair(unit, log)
        if damage:
            unit["damage"] = damage
        if marked:
            unit["marked"] = marked
        side = ship.side
        if end == "captured" and len(old_sides) == 2:
            side = 1 - ship.side
            unit = _prize(rules, ruleset, old_sides[side], unit)
            said.insert(0, f"captured: sails for {names[side]} now")
        kept[side].append(unit)
        told.append(ShipRepairs(ship.name, names[side], tuple(said) or ("undamaged",)))
    year = found.scenario.get("year")
    forces: list[Force] = []
    for index, (old, ships) in enumerate(zip(old_sides, kept, strict=True)):
        if ships:
            carried = {**old, "ships": ships}
            flagship = _new_flagship(ruleset, carried)
            if flagship is not None:
                told = [
                    ShipRepairs(r.ship, r.side, (*r.said, "flies the flag now"))
                    if r.ship == flagship and r.side == names[index]
                    else r
                    for r in told
                ]
            if len(ships) != len(old.get("ships") or []):
                resize_side(ruleset, carried)  # its size record says the ships it has now
            forces.append(cast(Force, {**carried, "ruleset": ruleset}))
    if not forces:
        raise InputError(f"game {found.id}: no ship is left to carry on")
    made = scenarios.scenario_from_forces(
        rules,
        ruleset,
        forces,
        [str(force.get("name", "")) for force in forces],
        seed,
        year if isinstance(year, int) and not isinstance(year, bool) else None,
    )
    scenario: dict[str, Any] = dict(made)
    if repairer.house_rolled:
        tables = {str(t) for t in made.get("house_tables") or []}
        scenario["house_tables"] = sorted(tables | {repairer.table_id})
    checked = scenarios.checked_scenario(rules, scenario, ruleset, name="the next game night")
    return dict(checked), tuple(told)


def carry_on(
    store: Store,
    found: Game,
    seat: Seat,
    seed: int | None = None,
    title: str | None = None,
) -> CarriedOn:
    """Carry ended game `found` on as a campaign (the GM's to do): make the campaign if its
    game night has none (titled `title`, else after the night), and the next game night
    (`next_scenario`, rolled from `seed`, None: a fresh one), played by the same house
    rules, both in one write.

    Raises:
        InputError: a side's link; the game has not ended; no ship is left.
        Conflict: the game was carried on already (the campaign it made is named).
    """
    if not seat.is_gm:
        raise InputError("only the GM carries a game on into a campaign")
    if found.night is None:
        raise InputError(
            f"game {found.id}: its game night was deleted, so it belongs to no campaign"
        )
    _not_carried(store, found)
    if title is not None and not title.strip():
        title = None
    if title is not None and len(title) > TITLE_LENGTH:
        raise InputError(f"title: at most {TITLE_LENGTH} characters")
    rolled = fresh_seed() if seed is None else seed
    if not 0 <= rolled < 2**63:
        raise InputError(f"seed: {rolled} is not a seed (a whole number, 0 or more)")
    scenario, told = next_scenario(store, found, rolled)
    night = store.scenario(found.night)
    with store.transaction() as db:
        if db.execute("SELECT 1 FROM campaign_nights WHERE from_game = ?", (found.id,)).fetchone():
            raise Conflict(f"game {found.id} was carried on already")
        row = db.execute(
            "SELECT campaign FROM campaign_nights WHERE night = ?", (night.id,)
        ).fetchone()
        if row is None:
            cursor = db.execute(
                "INSERT INTO campaigns (title, ruleset, created) VALUES (?, ?, ?)",
                ((title or f"Campaign: {night.title}").strip(), night.ruleset, time.time()),
            )
            number = cursor.lastrowid
            assert number is not None
            db.execute(
                "INSERT INTO campaign_nights (night, campaign, step) VALUES (?, ?, 1)",
                (night.id, number),
            )
        else:
            number = int(row[0])
        step = db.execute(
            "SELECT MAX(step) + 1 FROM campaign_nights WHERE campaign = ?", (number,)
        ).fetchone()[0]
        made = insert_scenario(db, scenario, night.house_rules)
        db.execute(
            "INSERT INTO campaign_nights (night, campaign, step, from_game, seed, repairs) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (
                made,
                number,
                step,
                found.id,
                rolled,
                json.dumps([r.to_json() for r in told], ensure_ascii=False),
            ),
        )
    return CarriedOn(campaign(store, number), store.scenario(made), rolled, told)


def _not_carried(store: Store, found: Game) -> None:
    row = store.read_one(
        "SELECT campaign, night FROM campaign_nights WHERE from_game = ?", (found.id,)
    )
    if row is not None:
        raise Conflict(
            f"game {found.id} was carried on already: campaign {row[0]}, game night {row[1]}"
        )


# --- reading campaigns -----------------------------------------------------------------------


def campaign(store: Store, number: int) -> Campaign:
    """Return campaign `number` (NotFound: there is none)."""
    row = store.read_one(
        "SELECT id, title, ruleset, created FROM campaigns WHERE id = ?", (number,)
    )
    if row is None:
        raise NotFound(f"campaign {number}: there is no such campaign")
    rows = store.read(
        "SELECT c.night, s.title, c.step, c.from_game, c.seed, c.repairs "
        "FROM campaign_nights c JOIN scenarios s ON s.id = c.night "
        "WHERE c.campaign = ? ORDER BY c.step",
        (number,),
    )
    nights = tuple(
        CampaignNight(
            night=r[0],
            title=r[1],
            step=r[2],
            from_game=r[3],
            seed=r[4],
            repairs=tuple(
                ShipRepairs(str(x["ship"]), str(x["side"]), tuple(x["said"]))
                for x in json.loads(r[5] or "[]")
            ),
        )
        for r in rows
    )
    return Campaign(row[0], row[1], row[2], row[3], nights)


def campaigns(store: Store) -> list[Campaign]:
    """Every campaign, the one made last first."""
    rows = store.read("SELECT id FROM campaigns ORDER BY created DESC, id DESC", ())
    return [campaign(store, row[0]) for row in rows]


def campaign_of_game(store: Store, number: int) -> int | None:
    """The campaign game `number` was carried on into (None: not carried on)."""
    row = store.read_one("SELECT campaign FROM campaign_nights WHERE from_game = ?", (number,))
    return None if row is None else int(row[0])


def campaign_of_night(store: Store, night: int) -> tuple[Campaign, CampaignNight] | None:
    """The campaign game night `night` belongs to and its place there, with what was
    repaired before it (None: it belongs to none)."""
    row = store.read_one("SELECT campaign FROM campaign_nights WHERE night = ?", (night,))
    if row is None:
        return None
    found = campaign(store, int(row[0]))
    return found, next(n for n in found.nights if n.night == night)


def campaign_games(store: Store, found: Campaign) -> list[Game]:
    """The games played from the campaign's nights, in the nights' order."""
    played: list[Game] = []
    for night in found.nights:
        played.extend(reversed(games.night_games(store, night.night)))
    return played


def fleets(store: Store, found: Campaign) -> list[dict[str, Any]]:
    """Each side's ships as they are now: those of the campaign's last night, each with
    her damage (boxes crossed off by row) and the check boxes ticked."""
    if not found.nights:
        return []
    last = store.scenario(found.nights[-1].night)
    return [
        {
            "side": index + 1,
            "name": str(side.get("name") or f"Side {index + 1}"),
            "ships": [
                {
                    "name": str(ship.get("name", "")),
                    "damage": dict(ship.get("damage") or {}),
                    "marked": list(ship.get("marked") or []),
                }
                for ship in side.get("ships") or []
            ],
        }
        for index, side in enumerate(last.scenario.get("sides") or [])
    ]


def campaign_json(store: Store, found: Campaign) -> dict[str, Any]:
    """Return a campaign as the API gives it: its nights (with what was repaired before
    each), the games played from them and the fleets now."""
    return {
        "id": found.id,
        "title": found.title,
        "ruleset": found.ruleset,
        "nights": [
            {
                "id": night.night,
                "title": night.title,
                "step": night.step,
                "from_game": night.from_game,
                "seed": night.seed,
                "repairs": [r.to_json() for r in night.repairs],
            }
            for night in found.nights
        ],
        "games": [
            {
                "id": played.id,
                "title": played.title,
                "night": played.night,
                "ended": played.ended is not None,
                "results": {
                    str(v.get("name")): str(v.get("end"))
                    for v in dict((played.ended or {}).get("ships", {})).values()
                },
                "victory": list((played.ended or {}).get("victory", [])),
            }
            for played in campaign_games(store, found)
        ],
        "fleets": fleets(store, found),
    }


def carried_json(made: CarriedOn) -> dict[str, Any]:
    """Return what `carry_on` made as the API gives it."""
    return {
        "campaign": made.campaign.id,
        "night": made.night.id,
        "title": made.night.title,
        "seed": made.seed,
        "repairs": [r.to_json() for r in made.repairs],
    }


__all__ = [
    "Campaign",
    "CampaignNight",
    "CarriedOn",
    "ShipRepairs",
    "campaign",
    "campaign_json",
    "campaign_of_game",
    "campaign_of_night",
    "campaigns",
    "carry_on",
]
