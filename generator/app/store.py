"""Where the web app keeps a user's game nights: one SQLite database in the data folder.

The folder is ``$QM_DATA_DIR``, else ``$XDG_DATA_HOME/quartermaster``, else
``~/.local/share/quartermaster``. The database says its schema version
(``PRAGMA user_version``); opening an older one runs the migrations from its version up,
each in one transaction, so a user's saved games are kept across upgrades, and a database
from a newer Quartermaster is refused rather than changed.

Every write is one transaction (`Store.transaction`): a write refused or interrupted leaves
the stored data as it was. The database runs in WAL mode, so a page being read never waits
on a write.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.errors import InputError, OutputError
from generator.loading import HouseRules

DATABASE = "quartermaster.sqlite3"

# each migration takes the database from the version before it to its own (index + 1)
MIGRATIONS: tuple[str, ...] = (
    # 1: game nights (scenarios), kept as the JSON `quartermaster scenario --json` prints
    """
    CREATE TABLE scenarios (
        id INTEGER PRIMARY KEY,
        ruleset TEXT NOT NULL,
        title TEXT NOT NULL,
        seed INTEGER,
        data TEXT NOT NULL,
        version INTEGER NOT NULL DEFAULT 1,
        created REAL NOT NULL,
        updated REAL NOT NULL
    );
    """,
    # 2: a game night's house rules, kept as uploaded (both NULL: the built-in rules)
    """
    ALTER TABLE scenarios ADD COLUMN house_name TEXT;
    ALTER TABLE scenarios ADD COLUMN house_rules BLOB;
    """,
    # games played from game nights (generator/app/games.py): the scenario as it was when
    # the game started, each link's token, and every ship's marked log
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        night INTEGER REFERENCES scenarios(id) ON DELETE SET NULL,
        ruleset TEXT NOT NULL,
        title TEXT NOT NULL,
        scenario TEXT NOT NULL,
        house_name TEXT,
        house_rules BLOB,
        turn INTEGER NOT NULL DEFAULT 1,
        gm_token TEXT NOT NULL UNIQUE,
        ended TEXT,
        version INTEGER NOT NULL DEFAULT 1,
        started REAL NOT NULL,
        updated REAL NOT NULL
    );
    CREATE TABLE game_sides (
        game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        side INTEGER NOT NULL,
        token TEXT NOT NULL UNIQUE,
        PRIMARY KEY (game, side)
    );
    CREATE TABLE game_ships (
        game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        side INTEGER NOT NULL,
        ship INTEGER NOT NULL,
        marks TEXT NOT NULL,
        version INTEGER NOT NULL DEFAULT 1,
        PRIMARY KEY (game, side, ship)
    );
    CREATE TABLE game_resolutions (
        game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        turn INTEGER NOT NULL,
        seat INTEGER,
        resolver TEXT NOT NULL,
        ship TEXT,
        target TEXT,
        result TEXT NOT NULL,
        losses TEXT NOT NULL,
        applied TEXT,
        undone INTEGER NOT NULL DEFAULT 0,
        made REAL NOT NULL,
        PRIMARY KEY (game, number)
    );
    """,
    # campaigns (generator/app/campaigns.py): the fleets carried from one game night to the
    # next; a night belongs to at most one campaign, and a game is carried on at most once
    """
    CREATE TABLE campaigns (
        id INTEGER PRIMARY KEY,
        title TEXT NOT NULL,
        ruleset TEXT NOT NULL,
        created REAL NOT NULL
    );
    CREATE TABLE campaign_nights (
        night INTEGER PRIMARY KEY REFERENCES scenarios(id) ON DELETE CASCADE,
        campaign INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
        step INTEGER NOT NULL,
        from_game INTEGER UNIQUE REFERENCES games(id) ON DELETE SET NULL,
        seed INTEGER,
        repairs TEXT
    );
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


def data_dir() -> Path:
    """Return the user's data folder (not made here)."""
    chosen = os.environ.get("QM_DATA_DIR")
    if chosen:
        return Path(chosen).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "quartermaster"


@dataclass(frozen=True)
class Saved:
    """A saved game night: its scenario, what the list of them shows, and the house rules
    it is played by (None: the built-in rules)."""

    id: int
    ruleset: str
    title: str
    seed: int | None
    scenario: dict[str, Any]
    version: int
    updated: float
    house_rules: HouseRules | None = None


class Store:
    """The database of saved game nights in `folder` (made if missing)."""

    def __init__(self, folder: Path) -> None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OutputError(f"{folder}: cannot make the data folder: {exc.strerror}") from None
        self.path = folder / DATABASE
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=False, timeout=10
            )
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._migrate()
        except sqlite3.DatabaseError as exc:
            raise InputError(f"{self.path}: not a Quartermaster database ({exc})") from None

    def close(self) -> None:
        self._db.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """Run the writes in the block as one transaction: all of them or none."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def read(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """Return the rows a read-only query gives (WAL: never waits on a write)."""
        with self._lock:
            return list(self._db.execute(sql, params).fetchall())

    def read_one(self, sql: str, params: tuple[Any, ...]) -> tuple[Any, ...] | None:
        """Return the first row a read-only query gives, or None."""
        rows = self.read(sql, params)
        return rows[0] if rows else None

    def version(self) -> int:
        return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    def _migrate(self) -> None:
        found = self.version()
        if found > SCHEMA_VERSION:
            raise InputError(
                f"{self.path}: made by a newer Quartermaster (schema {found}, this one "
                f"knows {SCHEMA_VERSION}): upgrade Quartermaster to open it"
            )
        for number in range(found + 1, SCHEMA_VERSION + 1):
            with self.transaction() as db:
                for statement in MIGRATIONS[number - 1].split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA user_version = {number}")

    # --- scenarios --------------------------------------------------------------------

    def add_scenario(self, scenario: dict[str, Any], house: HouseRules | None = None) -> Saved:
        """Keep `scenario` as a new game night, played by the house rules `house`."""
        with self.transaction() as db:
            number = insert_scenario(db, scenario, house)
        return self.scenario(number)

    def scenario(self, number: int) -> Saved:
        """Return saved game night `number`.

        Raises:
            InputError: there is none of that number.
        """
        row = self._db.execute(
            "SELECT id, ruleset, title, seed, data, version, updated, house_name, house_rules "
            "FROM scenarios WHERE id = ?",
            (number,),
        ).fetchone()
        if row is None:
            raise NotFound(f"game night {number}: there is no such game night")
        house = HouseRules(row[7], bytes(row[8])) if row[7] is not None else None
        return Saved(row[0], row[1], row[2], row[3], json.loads(row[4]), row[5], row[6], house)

    def scenario_at(self, number: int, version: int | None) -> Saved:
        """Return game night `number`, refused (`Conflict`) when `version` is given and is
        not the stored one: the page a change was asked from is out of date."""
        saved = self.scenario(number)
        if version is not None and version != saved.version:
            raise stale(number, saved.version, version)
        return saved

    def scenarios(self) -> list[Saved]:
        """Return every saved game night, the one changed last first."""
        rows = self._db.execute(
            "SELECT id FROM scenarios ORDER BY updated DESC, id DESC"
        ).fetchall()
        return [self.scenario(row[0]) for row in rows]

    def replace_scenario(
        self, number: int, scenario: dict[str, Any], version: int | None = None
    ) -> Saved:
        """Store `scenario` as game night `number` (its house rules kept); with `version`,
        only if it is still the stored one (else `Conflict`, and nothing changes)."""
        with self.transaction() as db:
            row = db.execute("SELECT version FROM scenarios WHERE id = ?", (number,)).fetchone()
            if row is None:
                raise NotFound(f"game night {number}: there is no such game night")
            if version is not None and row[0] != version:
                raise stale(number, row[0], version)
            db.execute(
                "UPDATE scenarios SET ruleset = ?, title = ?, seed = ?, data = ?, "
                "version = version + 1, updated = ? WHERE id = ?",
                (
                    *_summary(scenario),
                    json.dumps(scenario, ensure_ascii=False),
                    time.time(),
                    number,
                ),
            )
        return self.scenario(number)

    def set_house_rules(
        self,
        number: int,
        house: HouseRules | None,
        version: int | None = None,
        scenario: dict[str, Any] | None = None,
    ) -> Saved:
        """Make game night `number` played by the house rules `house` (None: the built-in
        rules), its scenario kept, or with `scenario` (as those rules derive it) instead;
        with `version`, only if it is still the stored one (else `Conflict`, and nothing
        changes)."""
        with self.transaction() as db:
            row = db.execute(
                "SELECT version, data FROM scenarios WHERE id = ?", (number,)
            ).fetchone()
            if row is None:
                raise NotFound(f"game night {number}: there is no such game night")
            if version is not None and row[0] != version:
                raise stale(number, row[0], version)
            data = json.dumps(scenario, ensure_ascii=False) if scenario is not None else row[1]
            summary = _summary(scenario if scenario is not None else json.loads(row[1]))
            db.execute(
                "UPDATE scenarios SET ruleset = ?, title = ?, seed = ?, data = ?, "
                "house_name = ?, house_rules = ?, version = version + 1, updated = ? "
                "WHERE id = ?",
                (*summary, data, *_house_columns(house), time.time(), number),
            )
        return self.scenario(number)

    def delete_scenario(self, number: int) -> None:
        with self.transaction() as db:
            if db.execute("DELETE FROM scenarios WHERE id = ?", (number,)).rowcount == 0:
                raise NotFound(f"game night {number}: there is no such game night")


def insert_scenario(
    db: sqlite3.Connection, scenario: dict[str, Any], house: HouseRules | None
) -> int:
    """Keep `scenario` as a new game night inside the transaction `db` (`Store.transaction`),
    with what goes with it in the same write; return its number."""
    now = time.time()
    cursor = db.execute(
        "INSERT INTO scenarios (ruleset, title, seed, data, created, updated, "
        "house_name, house_rules) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            *_summary(scenario),
            json.dumps(scenario, ensure_ascii=False),
            now,
            now,
            *_house_columns(house),
        ),
    )
    number = cursor.lastrowid
    assert number is not None
    return number


class NotFound(InputError):
    """What was asked for is not stored (HTTP 404)."""


class Conflict(InputError):
    """A write made against a version that is no longer the stored one (HTTP 409)."""


def stale(number: int, stored: int, asked: int) -> Conflict:
    """Return the refusal of a change made against version `asked` of game night `number`."""
    return Conflict(
        f"game night {number} was changed elsewhere (version {stored}, not {asked}): reload it"
    )


def _house_columns(house: HouseRules | None) -> tuple[str | None, bytes | None]:
    """Return the house rules' columns: their name and bytes, both NULL for none."""
    return (house.name, house.raw) if house is not None else (None, None)


def _summary(scenario: dict[str, Any]) -> tuple[str, str, int | None]:
    seed = scenario.get("seed")
    return (
        str(scenario.get("ruleset", "")),
        str(scenario.get("title") or "Untitled game night"),
        seed if isinstance(seed, int) and not isinstance(seed, bool) else None,
    )
