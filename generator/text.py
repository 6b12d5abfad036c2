"""Values written as printed text: the one way every sheet, summary and template signs a
number."""

from __future__ import annotations

from typing import Any


def signed(value: Any) -> str:
    """Write a whole number with its sign (``+2``, ``-1``, ``0``); anything else as it is.

    Zero has no sign: it neither helps nor hurts.
    """
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:+d}" if value else "0"
    return str(value)
