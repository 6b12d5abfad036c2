"""The one error hierarchy of Quartermaster.

The CLI turns an `InputError` (an `OutputError` too) into its message on stderr and exit
code 2, and any other `QuartermasterError` into exit code 1. Core modules raise these and
nothing else on purpose; a traceback reaching the user is a bug.
"""

from __future__ import annotations

from collections.abc import Iterable


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


class OutputError(InputError):
    """A file or folder cannot or may not be written: a folder that cannot be made or
    written, a file in the way, a file we did not write (without --force), a full disk.

    Exit code 2 like bad input: the user fixes it by choosing another place, freeing
    space or adding --force.
    """


class LookupInputError(InputError):
    """A table id, axis name or axis value given to a lookup is not valid."""
