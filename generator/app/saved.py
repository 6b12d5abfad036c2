"""Game nights kept for the web app (`generator.app.store`): made as `quartermaster
scenario` makes a scenario, changed only when the whole scenario passes its schema, brought
in from the files the command line writes, and printed as `quartermaster packet --from` a
file holding the same scenario prints it (the same bytes).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, cast

from generator.app.generated import Generated, make_scenario
from generator.app.inputs import load_rules
from generator.app.printed import PdfFile, make_packet
from generator.app.requests import QUIET, Listener, PacketRequest, PrintOptions, ScenarioRequest
from generator.app.store import Saved, Store, data_dir
from generator.errors import InputError
from generator.generate import scenario as scenarios
from generator.generate.base import get_generator
from generator.ruleset.model import Scenario
from generator.yamlfile import parse_yaml


def open_store(folder: Path | None = None) -> Store:
    """Open (making it if needed) the database of game nights in `folder`, or in the
    user's data folder (`generator.app.store.data_dir`)."""
    return Store(folder if folder is not None else data_dir())


def new_game_night(store: Store, request: ScenarioRequest, listener: Listener = QUIET) -> Saved:
    """Roll a scenario as `quartermaster scenario` does with the same options, and keep it."""
    made = make_scenario(replace(request, output=None, from_file=None, sides=()), listener)
    return store.add_scenario(dict(made.data))


def change_game_night(
    store: Store, number: int, scenario: Any, version: int | None = None
) -> Saved:
    """Replace game night `number`'s scenario with `scenario`, checked whole by its
    ruleset's schema first; with `version`, only if nobody changed it since.

    Raises:
        CheckedProblems: every problem, each with its key path; nothing is stored.
        Conflict: `version` is no longer the stored one; nothing is stored.
    """
    store.scenario(number)  # a game night there is (NotFound before any check)
    checked = scenarios.checked_scenario(
        load_rules(None), scenario, None, name=f"game night {number}"
    )
    return store.replace_scenario(number, dict(checked), version)


def import_game_night(store: Store, raw: bytes, filename: str) -> Saved:
    """Keep a scenario file the command line wrote (JSON or YAML, edited or not), checked as
    `--from` checks it; messages name `filename` and its lines."""
    name = Path(filename or "upload").name  # a name to quote, never a place on disk
    doc = parse_yaml(raw, Path(name))
    checked = scenarios.checked_generated(doc, load_rules(None), ("scenario",))[1]
    return store.add_scenario(dict(checked))


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
    `quartermaster packet --from FILE` makes from a file holding its scenario."""
    request = PacketRequest(
        scenario=saved.scenario,
        printing=options.printing,
        without=options.without,
        spares=options.spares,
        handouts=options.handouts,
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
