"""Values written as printed text: the one way every sheet, summary and template signs a
number, and lists words in a sentence."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def signed(value: Any) -> str:
    """Write a whole number with its sign (``+2``, ``-1``, ``0``); anything else as it is.

    Zero has no sign: it neither helps nor hurts.
    """
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:+d}" if value else "0"
    return str(value)


def listed(words: Sequence[str], last: str = "and") -> str:
    """Words as a sentence lists them: "3, 4 or 5" (`last` "or"), "A, B and C"; "" for none."""
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def counted(words: Sequence[str]) -> list[str]:
    """Each word once, in the order first met, with how often it came when more than once:
    ["Swashbuckler", "Swashbuckler", "Seaworthy"] -> ["Swashbuckler ×2", "Seaworthy"] (a
    trait rolled twice counts twice: said once, with its count)."""
    counts: dict[str, int] = {}
    for word in words:
        counts[word] = counts.get(word, 0) + 1
    return [word if n == 1 else f"{word} ×{n}" for word, n in counts.items()]
