"""Read NAME=VALUE words, as typed for lookups and resolver inputs."""

from __future__ import annotations

from generator.errors import InputError, shown


def parse_assignments(pairs: list[str], what: str) -> dict[str, str]:
    """Turn ``NAME=VALUE`` words into a mapping, or raise naming the bad word."""
    out: dict[str, str] = {}
    for pair in pairs:
        name, eq, value = pair.partition("=")
        if not eq or not name.strip() or not value.strip():
            raise InputError(f"'{shown(pair)}': {what} are written NAME=VALUE, e.g. roll=7")
        if name.strip() in out:
            raise InputError(f"'{shown(pair)}': {shown(name.strip())} is given twice")
        out[name.strip()] = value.strip()
    return out
