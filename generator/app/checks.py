"""The checks every use makes of what it was given, before any work: each refusal one
line naming the option as typed (``--navies``, ``--from``), the same from every front end.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from generator.app.requests import Listener, OrderOptions
from generator.errors import InputError
from generator.generate.scenario import Order
from generator.output import check_target
from generator.ruleset.model import Scenario
from generator.ruleset.scenario import balance_warning
from generator.schema import TITLE_LENGTH


def words(text: str | None) -> tuple[str, ...]:
    """Return the comma-separated words of `text` as typed (``british, French``), lower case."""
    return tuple(p.strip().lower() for p in text.split(",")) if text else ()


def _numbers(option: str, text: str | None) -> tuple[int, ...]:
    if text is None:
        return ()
    try:
        return tuple(int(part) for part in text.split(","))
    except ValueError:
        raise InputError(f"{option} {text}: whole numbers, e.g. 3 or 3,4") from None


def read_order(order: OrderOptions) -> Order:
    """Return the order typed as ``--ships 3,4 --navies british,french --year Y``."""
    return Order(_numbers("--ships", order.ships), words(order.navies), order.year, order.balanced)


def check_title(title: str | None) -> None:
    """Refuse a scenario title that is blank or longer than the schema takes."""
    if title is not None and (not title.strip() or len(title) > TITLE_LENGTH):
        raise InputError(f"--title: from 1 to {TITLE_LENGTH} characters")


def check_output(
    output: Path | None, force: bool, kind: str, inputs: Sequence[Path | None] = ()
) -> None:
    """Refuse, before anything is read or rolled, an ``-o`` file (``pdf`` or ``data``) the
    use may not write; `inputs` are the files it reads, which it never replaces."""
    if output is not None:
        check_target(output, force=force, kind=kind, inputs=inputs)


def say_uneven(scenario: Scenario, listener: Listener) -> None:
    """Warn that the sides could not be balanced (the briefing prints the same line)."""
    uneven = balance_warning(scenario)
    if uneven is not None:
        listener.warn(uneven)
