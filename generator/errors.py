"""The one error hierarchy of Quartermaster.

The CLI turns an `InputError` (an `OutputError` too) into its message on stderr and exit
code 2, and any other `QuartermasterError` into exit code 1. Core modules raise these and
nothing else on purpose; a traceback reaching the user is a bug.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

# bidirectional embeddings, overrides and isolates: they could make a message read as
# something else on the terminal
_BIDI_CONTROLS = frozenset(
    chr(c) for c in (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))
)


def one_line(text: str) -> str:
    """Return `text` with line breaks and control characters written as escapes.

    Error messages quote what the user typed or a file held; shown through this, a
    message stays one line and a terminal escape sequence is printed, not obeyed.
    """
    return "".join(
        ch.encode("unicode_escape").decode("ascii")
        if ch in _BIDI_CONTROLS or unicodedata.category(ch) in ("Cc", "Zl", "Zp")
        else ch
        for ch in text
    )


SHOWN_LENGTH = 60


def shown(value: object) -> str:
    """Return a typed value for an error message, cut short if it is very long."""
    text = str(value)
    if len(text) <= SHOWN_LENGTH:
        return text
    return f"{text[: SHOWN_LENGTH - 20]}...({len(text)} characters)"


class QuartermasterError(Exception):
    """Base of every error the project raises on purpose."""

    exit_code = 1


class InputError(QuartermasterError):
    """Something the user gave us is wrong: a file, an option, an expression."""

    exit_code = 2


class DataError(InputError):
    """A rules or house-rules file failed validation; carries every problem found."""

    def __init__(self, problems: Iterable[str]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(self.problems))


class CheckedProblems(DataError):
    """An edited scenario, fleet or character failed its schema: every problem as a line
    (file, line, key path, what), and as its key path (``sides[0].ships[1].ratings.hull``)
    and what, for a form that shows each beside its field."""

    def __init__(self, problems: Iterable[str], located: Iterable[tuple[str, str]]) -> None:
        self.located = tuple(located)
        super().__init__(problems)


class OutputError(InputError):
    """A file or folder cannot or may not be written: a folder that cannot be made or
    written, a file in the way, a file we did not write (without --force), a full disk.

    Exit code 2 like bad input: the user fixes it by choosing another place, freeing
    space or adding --force.
    """


class LookupInputError(InputError):
    """A table id, axis name or axis value given to a lookup is not valid."""
