"""What each use of Quartermaster is asked: plain values a command line or a web form fills.

Every request is a frozen dataclass of strings, numbers, flags and (for files on disk)
paths: no Typer or Click object. Lists a user types as one field (``--ships 3,4``,
``--navies british,french``, ``--without map,cards``) stay text here, as typed: the app
reads them (`generator.app.checks`), so a bad value is refused in the same order and
words from every front end.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the dice commands import this module: no rules loaded for them
    from generator.loading import HouseRules


def fresh_seed() -> int:
    """Return a new seed to print, so any unseeded result can be repeated."""
    return secrets.randbelow(2**31)


class Listener:
    """What a use says while it works; this one says nothing (a web request, a test).

    A front end subclasses it: the command line keeps the notes until the work is under
    way, shows the warnings at once and the steps on a terminal.
    """

    def note(self, message: str) -> None:
        """Keep `message` (``seed N``, the seed drawn) to say once the work is under way
        or done; never after a refusal of what was typed."""

    def warn(self, message: str) -> None:
        """Say `message` at once: the result is made, but not as asked (uneven sides)."""

    def start(self) -> None:
        """Every check has passed: the long work (laying out pages) begins."""

    def step(self, what: str) -> None:
        """The long work goes on with `what` (``Ship log: HMS Victory``)."""

    def progress(self, done: int, total: int) -> None:
        """`done` of `total` things (a batch's packets) are made."""


QUIET = Listener()


@dataclass(frozen=True)
class OrderOptions:
    """The scenario ordered, as typed (``--ships 3,4 --navies british,french --year 1798``):
    a scenario, a packet and a batch are ordered alike.

    Attributes:
        ships: ships a side as typed: ``3``, or ``3,4`` for uneven sides; None: the rules'.
        navies: the sides' navies as typed: ``british`` or ``british,french``.
        year: the year of the action; None to roll it.
        balanced: reroll (from the seed) until the sides are within 10 %.
    """

    ships: str | None = None
    navies: str | None = None
    year: int | None = None
    balanced: bool = True

    def chosen(self) -> bool:
        """Return whether ships, navies or a year were asked for (a file read says its own)."""
        return bool(self.ships) or bool(self.navies) or self.year is not None


@dataclass(frozen=True)
class ScenarioRequest:
    """A whole scenario: rolled from a seed as ordered, made around fleet files
    (`sides`), or read from an edited file (`from_file`).

    Attributes:
        ruleset: the ruleset's id (a file read says its own when this is None).
        seed: the seed; None draws one (said as a note).
        order: the ships, navies and year asked for, and whether the sides are balanced.
        sides: fleet files (``quartermaster fleet -o``) for one or both sides.
        from_file: an edited scenario file to read instead of rolling.
        rules_file: a house-rules file.
        output: where to write the scenario (``.json``, ``.yaml``); None writes nothing.
        as_yaml: write YAML whatever `output`'s name says.
        force: replace an `output` Quartermaster did not write.
    """

    ruleset: str
    seed: int | None = None
    order: OrderOptions = OrderOptions()
    sides: tuple[Path, ...] = ()
    from_file: Path | None = None
    rules_file: Path | None = None
    output: Path | None = None
    as_yaml: bool = False
    force: bool = False


@dataclass(frozen=True)
class FleetRequest:
    """One side's force, rolled or read from an edited fleet file (fields as for
    `ScenarioRequest` and its `OrderOptions`; `ships` is one number, `navy` one navy)."""

    ruleset: str
    seed: int | None = None
    ships: int | None = None
    navy: str | None = None
    year: int | None = None
    from_file: Path | None = None
    rules_file: Path | None = None
    output: Path | None = None
    as_yaml: bool = False
    force: bool = False


@dataclass(frozen=True)
class CharacterRequest:
    """One duellist, rolled or read from an edited character file (fields as for
    `ScenarioRequest`)."""

    seed: int | None = None
    from_file: Path | None = None
    rules_file: Path | None = None
    output: Path | None = None
    as_yaml: bool = False
    force: bool = False


@dataclass(frozen=True)
class PrintOptions:
    """How a PDF is printed: ``a4`` or ``letter`` (any case), black and white only, with
    form fields."""

    paper: str = "a4"
    mono: bool = False
    fillable: bool = False


@dataclass(frozen=True)
class PacketRequest:
    """A game-night packet for a scenario rolled as ordered or read from `from_file`
    (scenario fields as for `ScenarioRequest`; a packet's scenario is balanced unless
    asked otherwise).

    Attributes:
        ruleset: None: the file's ruleset, or the default one.
        without: sections to leave out as typed, comma-separated (``map,cards``).
        spares: blank logs (or records) to add; None: one.
        title: the scenario's title instead of the rolled one.
        handouts: also make one PDF per side with only what its players need.
        output: where to write the packet; None: output/packet-RULESET-SEED[...].pdf.
        scenario: a scenario already in hand (a game night the web app keeps), checked
            and printed as `from_file` would be from a file holding it.
        rules_file: a house-rules file on disk, or in hand (a game night's house rules).
    """

    ruleset: str | None = None
    seed: int | None = None
    order: OrderOptions = OrderOptions()
    from_file: Path | None = None
    scenario: Mapping[str, Any] | None = None
    without: str | None = None
    spares: int | None = None
    title: str | None = None
    printing: PrintOptions = PrintOptions()
    handouts: bool = False
    rules_file: Path | HouseRules | None = None
    output: Path | None = None
    force: bool = False


@dataclass(frozen=True)
class SheetRequest:
    """One printable sheet of `kind`: blank, about a file (`from_file`), or about what
    `seed` rolls (a scenario is rolled balanced, as a packet's).

    Attributes:
        ruleset: for kinds that serve several rulesets.
        output: where to write it; None: output/KIND[-RULESET][-SEED][...].pdf.
    """

    kind: str
    ruleset: str | None = None
    from_file: Path | None = None
    seed: int | None = None
    printing: PrintOptions = PrintOptions()
    rules_file: Path | None = None
    output: Path | None = None
    force: bool = False


@dataclass(frozen=True)
class BatchRequest:
    """A convention batch of `count` packets in the folder `output` (order fields as for
    `ScenarioRequest`, the rest as for `PacketRequest`).

    Attributes:
        rulesets: the ruleset, or several comma-separated (taken in turn).
        jobs: worker processes.
        resume: finish an interrupted batch (its seed is the manifest's when `seed` is None).
        cache: take static pages from the cache (the same bytes either way).
    """

    rulesets: str
    count: int
    output: Path
    seed: int | None = None
    order: OrderOptions = OrderOptions()
    without: str | None = None
    spares: int | None = None
    jobs: int = 2
    resume: bool = False
    cache: bool = True
    printing: PrintOptions = PrintOptions()
    rules_file: Path | None = None
    force: bool = False
