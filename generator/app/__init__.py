"""The application layer: one function per use, called alike by the command line and the
web app.

Each takes a request of plain values (`generator.app.requests`) and a `Listener` told what
happens while it works, returns data or PDF bytes (or writes them where asked), and
raises only `generator.errors.QuartermasterError`. The modules:

- `requests`: the request types, the `Listener`, `fresh_seed`.
- `checks`: the checks of what was given (files, options, rulesets, navies, titles).
- `generated`: `make_scenario`, `make_fleet`, `make_character` (rolled or read).
- `printed`: `make_packet`/`write_packet`, `make_sheet`/`write_sheet`, `make_batch`.

This module imports only `requests`: a command that rolls dice needs no more (the
others pull in the rules and the renderers).
"""

from generator.app.requests import (
    QUIET,
    BatchRequest,
    CharacterRequest,
    FleetRequest,
    Listener,
    OrderOptions,
    PacketRequest,
    PrintOptions,
    ScenarioRequest,
    SheetRequest,
    fresh_seed,
)

__all__ = [
    "QUIET",
    "BatchRequest",
    "CharacterRequest",
    "FleetRequest",
    "Listener",
    "OrderOptions",
    "PacketRequest",
    "PrintOptions",
    "ScenarioRequest",
    "SheetRequest",
    "fresh_seed",
]
