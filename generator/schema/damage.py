"""A ship's damage in a scenario: what her log already has marked when the game starts.

A naval ruleset's ship may carry, in words a GM reads and edits in the YAML::

    damage:            # boxes already crossed off, by row of the log
      hull: 2
      crew_parties: 1
    marked: [rudder_damaged, captured]   # check boxes already ticked

A row is named by its label, lower-case, ``_`` for spaces (``Crew parties``:
``crew_parties``); a check box by its label the same way, and one standing after a row by
the row's name and its own (``foremast_fallen``). ``damage`` crosses off the first that many
boxes of a row, as a player crosses them, and ticks the first that many of a check box of
several (``strike_tests: 2``); ``marked`` ticks a check box (the first of several). A log's
track of spaces and its tables' boxes (guns loaded, reload actions) are a game's own, never
carried. The packet prints them marked (`generator.render.kinds.ship_log`), and a game's
marks turn back into these keys (`damage_of`, `generator.app.paper`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from generator.errors import InputError
from generator.ruleset import contract
from generator.ruleset.logcard import Checks, Log, LogCard, Tracks, slug
from generator.ruleset.model import Ship, Side
from generator.schema.context import NAME_LENGTH, Ctx, close_match, found, listing
from generator.schema.nodes import Check, Field, Items, Row, Text, Whole, opt
from generator.schema.nodes import Mapping as MappingNode
from generator.yamlfile import KeyPath


@dataclass(frozen=True)
class Marking:
    """What `damage` or `marked` may name on a log: its words and its boxes, in order."""

    name: str
    words: str
    fields: tuple[str, ...]


@dataclass(frozen=True)
class LogMarkings:
    """What a log's `damage` (rows of boxes, check boxes of several) and `marked` (check
    boxes) may name, by name, in the log's order."""

    rows: Mapping[str, Marking]
    checks: Mapping[str, Marking]


def log_markings(card: LogCard) -> LogMarkings:
    """Return what `damage` and `marked` may name on the log `card`."""
    rows: dict[str, Marking] = {}
    checks: dict[str, Marking] = {}
    for section in card.sections():
        if isinstance(section, Tracks):
            for track in section.rows:
                key = slug(track.label)
                rows.setdefault(key, Marking(key, track.label, track.boxes))
                for after in track.after:
                    name = f"{key}_{slug(after.label)}"
                    checks.setdefault(
                        name, Marking(name, f"{track.label}: {after.label}", after.fields)
                    )
        elif isinstance(section, Checks):
            for check in section.entries:
                name = slug(check.label)
                checks.setdefault(name, Marking(name, check.label, check.fields))
    for name, several in checks.items():
        if len(several.fields) > 1:
            rows.setdefault(name, several)
    return LogMarkings(rows, checks)


def marked_fields(card: LogCard, ship: Mapping[str, Any]) -> frozenset[str]:
    """Return the names of the fields of log `card` that `ship`'s ``damage`` and ``marked``
    mark (none when she has neither).

    Raises:
        InputError: a name her log does not have, or more boxes than its row has (a
            scenario the schema checked has neither).
    """
    damage = ship.get("damage") or {}
    marked = ship.get("marked") or []
    if not damage and not marked:
        return frozenset()
    found_fields: set[str] = set()
    for problem in _problems(card, damage, marked, found_fields):
        raise InputError(f"{card.name or 'a ship'}: {'.'.join(map(str, problem[0]))}: {problem[1]}")
    return frozenset(found_fields)


def damage_of(card: LogCard, marks: Mapping[str, Any]) -> tuple[dict[str, int], list[str]]:
    """Return the ``damage`` and ``marked`` that say what `marks` (field name -> True for a
    box crossed or ticked, as a game keeps a log) has marked on log `card`: each row's
    crossed boxes counted, each check box of several by how many are ticked, each other
    check box ticked by its name; in the log's order."""
    markings = log_markings(card)
    damage: dict[str, int] = {}
    marked: list[str] = []
    for name, row in markings.rows.items():
        count = sum(1 for field in row.fields if marks.get(field) is True)
        if count:
            damage[name] = count
    for name, check in markings.checks.items():
        if len(check.fields) == 1 and marks.get(check.fields[0]) is True:
            marked.append(name)
    return damage, marked


def _problems(card: LogCard, damage: Any, marked: Any, into: set[str]) -> list[tuple[KeyPath, str]]:
    """Return what is wrong with `damage` and `marked` on log `card` ((key path inside the
    ship, words) each); add the fields they mark to `into`."""
    markings = log_markings(card)
    whose = f"{card.name}'s log" if card.name else "her log"
    problems: list[tuple[KeyPath, str]] = []
    for name, count in dict(damage).items():
        row = markings.rows.get(str(name))
        if row is None:
            names = list(markings.rows)
            problems.append(
                (
                    ("damage", name),
                    f"{found(name)} is not a row of {whose} (rows: {listing(names)})"
                    + close_match(name, names),
                )
            )
        elif not isinstance(count, int) or isinstance(count, bool) or count < 0:
            problems.append((("damage", name), f"expected a whole number, found {found(count)}"))
        elif count > len(row.fields):
            problems.append(
                (
                    ("damage", name),
                    f"{count} boxes crossed off, but {row.words} has {len(row.fields)} boxes",
                )
            )
        else:
            into.update(row.fields[:count])
    seen: set[str] = set()
    for index, name in enumerate(list(marked)):
        check = markings.checks.get(str(name))
        if check is None:
            names = list(markings.checks)
            problems.append(
                (
                    ("marked", index),
                    f"{found(name)} is not a check box of {whose} (check boxes: "
                    f"{listing(names)})" + close_match(name, names),
                )
            )
        elif name in seen:
            problems.append((("marked", index), f"{check.words} is ticked twice"))
        else:
            seen.add(name)
            into.add(check.fields[0])
    return problems


# ---------------------------------------------------------------- the schema's keys


class _Damage(MappingNode):
    """``damage``: a row of her log -> the boxes crossed off."""

    def walk(self, ctx: Ctx, key: str, rows: list[Row], checks: list[tuple[str, str]]) -> None:
        rows.append(
            Row(
                f"{key}.*",
                self.values.kind_text(ctx),
                False,
                self.values.allowed(ctx),
                "a row of her log (its label, lower-case, _ for spaces: crew_parties) or a "
                "check box of several: how many of its boxes are crossed off, the first that "
                "many",
            )
        )


DAMAGE: Mapping[str, Field] = {
    "damage": opt(
        _Damage(
            Whole(0, None, why="at most the boxes of her row"),
            keys=Text(NAME_LENGTH),
        ),
        "the boxes her log has crossed off when the game starts (damage carried over), by "
        "row of her log: its label, lower-case, _ for spaces (hull: 2)",
    ),
    "marked": opt(
        Items(Text(NAME_LENGTH), noun=("check box", "check boxes")),
        "the check boxes her log has ticked when the game starts, by their label the same "
        "way; one after a row by the row's and its own (foremast_fallen)",
    ),
}


def damage_check(ruleset: str, units: str = "ships") -> Check:
    """The side's check that each ship's ``damage`` and ``marked`` name rows and check
    boxes of HER log (as `ruleset` prints it for her and her side), no more boxes than a
    row has. It runs for the ships with no other problem, on a side with none."""

    def run(ctx: Ctx, data: dict[str, Any], path: KeyPath) -> None:
        ships = data.get(units)
        if not isinstance(ships, list):
            return
        outside = [
            where
            for where in ctx.failed
            if where[: len(path)] == path and where[len(path) : len(path) + 1] != (units,)
        ]
        if outside:
            return  # her log is made from her side too: not from one with problems
        for index, ship in enumerate(ships):
            if not isinstance(ship, dict) or not (ship.get("damage") or ship.get("marked")):
                continue
            where = (*path, units, index)
            if any(failed[: len(where)] == where for failed in ctx.failed):
                continue
            log = Log("ship", str(ship.get("name", "")))
            contract(ruleset).ship_log(log, ctx.rules, cast(Ship, ship), cast(Side, data))
            for key, words in _problems(
                log.card, ship.get("damage") or {}, ship.get("marked") or [], set()
            ):
                ctx.fail((*where, *key), words)

    return Check(
        "each ship's damage names rows of her log (no more boxes than a row has) and marked "
        "its check boxes",
        run,
    )
