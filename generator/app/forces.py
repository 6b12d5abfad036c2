"""A kept game night's forces changed whole: balance the sides, or build one side to a
strength, by the ruleset's own generator (`generator.generate.building`), each change
checked whole by the schema and kept in one transaction (`change_game_night`), by the
game night's rules (its house rules, if it keeps any: `night_rules`).

Sides are numbered from 0, as a scenario's key paths number them (``sides[1]``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import cast

from generator.app.generated import seed_or_fresh
from generator.app.requests import QUIET, Listener
from generator.app.saved import change_game_night, night_rules
from generator.app.store import Saved, Store
from generator.errors import InputError
from generator.generate.building import Changed, balance_sides, build_side
from generator.ruleset.model import Scenario

#: the side rolled again to balance the sides, unless another is named: the second
BALANCED_SIDE = 1
#: the most a strength asked may be (far beyond any fleet of MAX_SHIPS ships)
MOST_STRENGTH = 1_000_000


@dataclass(frozen=True)
class ForcesChanged:
    """A game night after a change of its forces, and what was done in words.

    Attributes:
        saved: the game night as kept now (as it was, when nothing changed).
        said: what was done, one sentence a line.
        changed: whether a new version was kept.
    """

    saved: Saved
    said: list[str]
    changed: bool


def balance_game_night(
    store: Store,
    number: int,
    side: int = BALANCED_SIDE,
    seed: int | None = None,
    version: int | None = None,
    listener: Listener = QUIET,
) -> ForcesChanged:
    """Roll side `side` of game night `number` again from sub-seeds of `seed` (a fresh one,
    noted, when None) until the sides are within 10 % of each other, the other side and
    the setting's year, place and wind kept (`generator.generate.building.balance_sides`);
    with `version`, only if nobody changed the game night since.

    Raises:
        InputError: no such game night or side; `Conflict` for a stale `version`.
        CheckedProblems: the changed scenario fails its schema (nothing is kept).
    """
    saved = store.scenario_at(number, version)
    chosen = seed_or_fresh(seed, listener)
    changed = balance_sides(night_rules(saved), _scenario(saved), side, chosen)
    return _keep(store, saved, changed, listener)


def build_game_night(
    store: Store,
    number: int,
    side: int,
    strength: float,
    seed: int | None = None,
    version: int | None = None,
    listener: Listener = QUIET,
) -> ForcesChanged:
    """Build side `side` of game night `number` to `strength` by its ruleset's measure: the
    side rolled again (its navy, the scenario's year, 1 to MAX_SHIPS ships) from sub-seeds
    of `seed` (a fresh one, noted, when None), the nearest kept
    (`generator.generate.building.build_side`); with `version`, only if nobody changed the
    game night since.

    Raises:
        InputError: no such game night or side, a ruleset without ships, a strength out of
            reach; `Conflict` for a stale `version`.
        CheckedProblems: the changed scenario fails its schema (nothing is kept).
    """
    saved = store.scenario_at(number, version)
    check_strength(strength)
    chosen = seed_or_fresh(seed, listener)
    changed = build_side(night_rules(saved), _scenario(saved), side, strength, chosen)
    return _keep(store, saved, changed, listener)


def check_strength(strength: float) -> float:
    """Return `strength` if it is a strength a side may be built to, else refuse it."""
    if not (math.isfinite(strength) and 0 < strength <= MOST_STRENGTH):
        raise InputError(f"strength {strength:g}: a number above 0, at most {MOST_STRENGTH:,}")
    return strength


def read_strength(text: str) -> float:
    """Return a strength typed (``15``, ``14.5``), or refuse it in one line."""
    try:
        found = float(text.strip())
    except ValueError:
        raise InputError(f"strength {text.strip()[:20]!r}: a number, e.g. 15") from None
    return check_strength(found)


def _scenario(saved: Saved) -> Scenario:
    return cast(Scenario, saved.scenario)  # checked before it was kept


def _keep(store: Store, saved: Saved, changed: Changed, listener: Listener) -> ForcesChanged:
    """Keep `changed` as the next version of `saved` (checked whole, one transaction, and
    only if nobody changed it since it was read: it was made from that version), or
    nothing when it changed nothing; tell `listener` what was done."""
    for line in changed.said:
        listener.note(line)
    if not changed.changed:
        return ForcesChanged(saved, changed.said, False)
    kept = change_game_night(store, saved.id, dict(changed.scenario), saved.version)
    return ForcesChanged(kept, changed.said, True)
