"""A game on paper: its ships' logs printed with what the game has marked, and a filled
fillable log read back into the game.

Out: `carried_scenario` writes each ship's marks into the game's scenario as the ``damage``
and ``marked`` keys (`generator.schema.damage`), so that a packet printed from it
(`game_packet`) shows them: crossed boxes on paper, checked boxes in a fillable log.

In: `read_filled` reads the form fields of a fillable ship's log (or a whole packet) filled
in any PDF reader: each field named after a ship of the game (her log's prefix,
`ship_log.log_prefixes`; in a packet after the sheet's own prefix) sets that ship's log, as
her log's form sent whole does (`games.change_ship`). Fields of no ship of the game are
counted, and a file with none of the game's is refused.
"""

from __future__ import annotations

import copy
import io
import re
from dataclasses import dataclass
from typing import Any

from generator.app import games
from generator.app.games import Game, GameShip, Seat
from generator.app.printed import PdfFile
from generator.app.requests import QUIET, Listener
from generator.app.saved import PacketOptions, scenario_packet
from generator.app.store import Store
from generator.errors import InputError
from generator.ruleset.logcard import card_fields
from generator.schema.damage import damage_of

#: the largest PDF read back (a whole fillable packet of a big game is a few MB)
MAX_PDF_BYTES = 32 * 1024 * 1024
# a packet puts its sheet's prefix before every field's name ("s3_")
_SHEET_PREFIX = re.compile(r"^[a-z]+\d+_")
# a turn log's cell (`ship_log.body.turn_log`): her log's prefix, the entry, turn or notes
_TURN_LOG = re.compile(r"(.+)_log_\d+_(?:turn|notes)")


# --- out: the game's marks on paper -----------------------------------------------------------


def carried_scenario(store: Store, found: Game) -> dict[str, Any]:
    """Return game `found`'s scenario with every ship's log as the game has it marked: her
    crossed boxes as ``damage`` (by row) and her ticked check boxes as ``marked`` (the
    words she was started with replaced); what is written in a log is the game's own."""
    scenario = copy.deepcopy(dict(found.scenario))
    sides = scenario.get("sides") or []
    for ship in games.ships(store, found, Seat(None)):
        unit = sides[ship.side]["ships"][ship.index]
        unit.pop("damage", None)
        unit.pop("marked", None)
        damage, marked = damage_of(ship.card, ship.marks)
        if damage:
            unit["damage"] = damage
        if marked:
            unit["marked"] = marked
    return scenario


def game_packet(
    store: Store,
    found: Game,
    options: PacketOptions | None = None,
    listener: Listener = QUIET,
) -> list[PdfFile]:
    """Return the packet (and, when asked, the handouts) of game `found` as it stands: its
    scenario with every ship's log marked as the game has it (`carried_scenario`), played
    by its house rules; the bytes `quartermaster packet --from FILE` makes of that
    scenario."""
    return scenario_packet(
        carried_scenario(store, found), found.house, options or PacketOptions(), listener
    )


# --- in: a filled log read back ---------------------------------------------------------------


@dataclass(frozen=True)
class ShipRead:
    """What a filled PDF set on one ship's log: boxes crossed or ticked, boxes written in,
    and how many of her fields changed."""

    key: str
    name: str
    crossed: int
    written: int
    changed: int


@dataclass(frozen=True)
class FilledRead:
    """What `read_filled` read: each ship it set, the ship's-log fields the game keeps no
    state for (her turn log), and the fields of no ship of this game."""

    file: str
    ships: tuple[ShipRead, ...]
    unkept: int
    other: int

    def lines(self) -> list[str]:
        """Say what was read: the file, the ships set, what was left as it was (three
        lines at most)."""
        changed = sum(ship.changed for ship in self.ships)
        logs = "ship's log" if len(self.ships) == 1 else "ships' logs"
        said = [
            f"{self.file}: read {len(self.ships)} {logs}, "
            f"{changed} {'box' if changed == 1 else 'boxes'} changed.",
            "Now: "
            + "; ".join(
                f"{ship.name} {ship.crossed} crossed or ticked, {ship.written} written in"
                for ship in self.ships
            )
            + ".",
        ]
        left = []
        if self.unkept:
            left.append(f"{self.unkept} turn-log entries (a game keeps no turn log)")
        if self.other:
            left.append(f"{self.other} fields of no ship of this game")
        if left:
            said.append("Not read: " + "; ".join(left) + ".")
        return said

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "ships": [
                {
                    "key": s.key,
                    "name": s.name,
                    "crossed": s.crossed,
                    "written": s.written,
                    "changed": s.changed,
                }
                for s in self.ships
            ],
            "unkept": self.unkept,
            "other": self.other,
        }


def read_filled(store: Store, found: Game, pdf: bytes, file: str = "the PDF") -> FilledRead:
    """Read a fillable ship's log (or a whole packet) of game `found`, filled in any PDF
    reader, back into the game (the GM's to do): every ship with a field in the file gets
    her log as the file has it (a box left unticked there is cleared), all in one write.

    Args:
        file: the file's name, as the messages say it.

    Raises:
        InputError: not a PDF, no form field of a ship of this game in it, or words too
            long for a box; nothing is changed.
        Conflict: the game has ended.
    """
    games.still_playing(found)
    values = _form_values(pdf, file)
    ships = games.ships(store, found, Seat(None))
    owners: dict[str, tuple[GameShip, bool]] = {}  # field -> her ship, and whether a box
    for ship in ships:
        boxes, written = card_fields(ship.card)
        owners.update({name: (ship, True) for name in boxes})
        owners.update({name: (ship, False) for name in written})
    prefixes = {ship.card.prefix for ship in ships}
    given: dict[str, dict[str, bool | str]] = {}
    unkept = other = 0
    for name, value in values.items():
        field = next((n for n in _names_in_log(name) if n in owners), None)
        if field is None:
            turns = (_TURN_LOG.fullmatch(n) for n in _names_in_log(name))
            if any(m is not None and m.group(1) in prefixes for m in turns):
                unkept += 1
            else:
                other += 1
            continue
        ship, box = owners[field]
        given.setdefault(ship.key, {})[field] = (
            _ticked(value) if box else _words(value, file, field)
        )
    if not given:
        raise InputError(
            f"{file}: no field of a ship's log of game {found.id} ({found.title}): print the "
            "game's packet with fillable logs, fill that in and read it back"
        )
    before = {ship.key: ship for ship in ships}
    changed = {ship.key: given[ship.key] for ship in ships if ship.key in given}
    read: list[ShipRead] = []
    for after in games.change_ships(store, found, Seat(None), changed):
        ship = before[after.key]
        read.append(
            ShipRead(
                key=ship.key,
                name=ship.name,
                crossed=sum(1 for v in after.marks.values() if v is True),
                written=sum(1 for v in after.marks.values() if isinstance(v, str)),
                changed=sum(
                    1
                    for n in {*ship.marks, *after.marks}
                    if ship.marks.get(n) != after.marks.get(n)
                ),
            )
        )
    return FilledRead(file, tuple(read), unkept, other)


def _form_values(pdf: bytes, file: str) -> dict[str, Any]:
    """Return the value of every form field of `pdf` by its full name."""
    from pypdf import PdfReader

    if len(pdf) > MAX_PDF_BYTES:
        raise InputError(f"{file}: larger than {MAX_PDF_BYTES // (1024 * 1024)} MB")
    if not pdf.startswith(b"%PDF-"):
        raise InputError(f"{file}: not a PDF (a filled ship's log is one)")
    try:
        fields = PdfReader(io.BytesIO(pdf)).get_fields() or {}
    except Exception as exc:  # pypdf raises many kinds on a damaged file: all of them say so
        raise InputError(f"{file}: a PDF that cannot be read ({exc})") from None
    return {str(name): field.get("/V") for name, field in fields.items()}


def _names_in_log(name: str) -> tuple[str, ...]:
    """Return what a PDF's field `name` may be called in a ship's log: as a ship-log sheet
    names it, or after a packet's sheet prefix (``s3_``)."""
    inner = _SHEET_PREFIX.sub("", name, count=1)
    return (name, inner) if inner != name else (name,)


def _ticked(value: Any) -> bool:
    """Return whether a check box's value is ticked: any state but Off (a reader may name
    its on state otherwise than Yes)."""
    text = str(value or "").lstrip("/")
    return text not in ("", "Off")


def _words(value: Any, file: str, field: str) -> str:
    text = "" if value is None else str(value)
    if len(text) > games.MAX_WRITTEN:
        raise InputError(
            f"{file}: {field}: at most {games.MAX_WRITTEN} characters in one box "
            f"({len(text)} written)"
        )
    return text
