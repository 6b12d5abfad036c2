"""'Did you mean': the one-line message for a name that is not one of the known ones.

Every unknown name a user can type (a ruleset, a table, a resolver, a resolver input, a
sheet kind, a house-rules table id) is refused through `unknown`, so the message has one
shape everywhere: what was typed, the nearest known name if one is close, then the list.
"""

from __future__ import annotations

from collections.abc import Iterable

from generator.errors import shown


def nearest(word: str, choices: Iterable[str]) -> str | None:
    """Return the known name closest to `word`, or None if none is close.

    Case and the separators people mix up (``_``, ``-``, space) are ignored; a name that
    contains what was typed as its only match counts too (``broad`` → ``broadside``).
    """
    known = list(dict.fromkeys(choices))
    if not known or not word:
        return None

    def key(text: str) -> str:
        return text.casefold().replace("_", "-").replace(" ", "-")

    keyed = {key(name): name for name in known}
    typed = key(word)
    head = typed.partition(".")[0] + "."
    if "." in typed and all(k.startswith(head) for k in keyed):
        # 'flob.nothing' among flob's tables: judge by what follows the shared 'flob.'
        keyed = {k[len(head) :]: name for k, name in keyed.items()}
        typed = typed[len(head) :]
    if typed in keyed:
        return keyed[typed]
    import difflib  # only when a name is not known: not on every command's start

    close = difflib.get_close_matches(typed, list(keyed), n=1, cutoff=0.6)
    if close:
        return keyed[close[0]]
    containing = [name for k, name in keyed.items() if typed in k]
    if len(containing) == 1 and len(typed) >= 3:
        return containing[0]
    return None


def unknown(what: str, word: str, choices: Iterable[str], *, listing: str = "known") -> str:
    """Return ``unknown WHAT 'word': did you mean 'x'? (known: a, b, c)`` as one line.

    `listing` names the list (``known``, ``inputs``, ``tables of flob`` ...).
    """
    known = list(dict.fromkeys(choices))
    guess = nearest(word, known)
    hint = f": did you mean '{guess}'?" if guess is not None else ""
    return f"unknown {what} '{shown(word)}'{hint} ({listing}: {', '.join(known)})"
