"""Values written as printed text: the one way every sheet, summary and template signs a
number, and lists words in a sentence; words folded for matching; and text wrapped for the
terminal."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from rich.cells import cell_len

_KEEP = "\ue000"  # stands in for a space that must not break a line (inside a name)
_FOLD = re.compile(r"[\s_\-]+")


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


def fold(text: str) -> str:
    """Fold a label or input word for matching: case, spaces, hyphens, underscores."""
    return _FOLD.sub("", text.casefold())


def _chunks(word: str, room: int) -> list[str]:
    """Split a word longer than a line into pieces of at most `room` cells."""
    pieces, piece = [], ""
    for char in word:
        if piece and cell_len(piece + char) > room:
            pieces.append(piece)
            piece = ""
        piece += char
    return [*pieces, piece] if piece else pieces


def wrap_items(
    items: Iterable[str],
    width: int,
    first: str = "",
    rest: str | None = None,
    sep: str = " ",
) -> list[str]:
    """Lay `items` out on lines of at most `width` cells, joined by `sep`.

    The first line starts with `first`, the others with `rest` (by default as many spaces
    as `first` is wide: a hanging indent). An item is never split while it fits on a line
    of its own; one that does not is split between words, and a word longer than a line
    is split where the line ends. Nothing is left out.
    """
    rest = " " * cell_len(first) if rest is None else rest
    room = max(width - max(cell_len(first), cell_len(rest)), 8)
    pieces: list[tuple[str, str]] = []  # (joiner, text)
    for item in items:
        if cell_len(item) <= room:
            pieces.append((sep, item))
            continue
        for n, word in enumerate(w for w in item.split(" ") if w):
            for m, chunk in enumerate(_chunks(word, room)):
                pieces.append((sep if n == m == 0 else " " if m == 0 else "", chunk))
    lines: list[str] = []
    line, empty = first, True
    for joiner, text in pieces:
        if empty:
            line, empty = line + text, False
        elif cell_len(line) + cell_len(joiner) + cell_len(text) <= width:
            line += joiner + text
        else:
            lines.append(line)
            line = rest + text
    if not empty:
        lines.append(line)
    return [line.replace(_KEEP, " ") for line in lines]


def wrap_text(
    text: str, width: int, first: str = "", rest: str | None = None, keep: Sequence[str] = ()
) -> list[str]:
    """Wrap prose to `width` cells between words, with a hanging indent.

    The strings in `keep` (names) are not broken between their words while they fit on
    a line.
    """
    for name in sorted(keep, key=len, reverse=True):
        if name and " " in name:
            text = text.replace(name, name.replace(" ", _KEEP))
    return wrap_items(text.split(), width, first, rest)
