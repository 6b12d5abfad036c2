"""The words a lookup's or a resolver's ``NAME=VALUE`` inputs may take, and completing them
as they are typed: for the shell's completion (`generator.completion`) and the play
prompt's (`generator.play`) alike."""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Mapping
from typing import Any

from generator.text import fold


def typed_word(label: str) -> str:
    """Return a label as it is easiest to type (``Double Round Shot`` → ``double-round-shot``).

    Inputs ignore case, spaces and hyphens, so the typed word names the same choice.
    """
    return "-".join(label.casefold().split())


def starting(words: Iterable[str], text: str) -> list[str]:
    """Return the words that begin with `text` (ignoring case), once each, in order."""
    start = text.casefold()
    return [w for w in dict.fromkeys(words) if w.casefold().startswith(start)]


def param_words(param: Any, rules: Any) -> tuple[str, ...]:
    """Return the words a resolver input may take (none for numbers and text)."""
    if param.kind == "bool":
        return ("yes", "no")
    if param.kind == "choice":
        return tuple(param.allowed(rules))
    return ()


def input_words(resolver: Any, rules: Any) -> dict[str, tuple[str, ...]]:
    """Return a resolver's input names with their words (`param_words`)."""
    return {p.name: param_words(p, rules) for p in resolver.params}


def table_words(table: Any) -> dict[str, tuple[str, ...]]:
    """Return a table's input names with their words (none for a numeric axis)."""
    if table.kind == "modifiers":
        return {"modifier": tuple(m.id for m in table.modifiers)}
    return {a.name: () if a.numeric else tuple(a.labels) for a in table.axes}


def assignments(choices: Mapping[str, tuple[str, ...]], given: list[str], text: str) -> list[str]:
    """Complete ``NAME=VALUE``: the names not given yet, then that name's words as typed."""
    name, equals, value = text.partition("=")
    if not equals:
        taken = {word.partition("=")[0] for word in given}
        return starting((f"{n}=" for n in choices if n not in taken), name)
    words = [typed_word(w) for w in choices.get(name, ())]
    start = fold(value)
    return [
        f"{name}={shlex.quote(w)}" for w in dict.fromkeys(words) if w and fold(w).startswith(start)
    ]
