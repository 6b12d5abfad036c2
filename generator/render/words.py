"""The rules' words as players read them, for every sheet that prints them: a generator's
sentence with the program's names taken out (`player_words`), the rolled wind in words
(`wind_words`: the briefing, the map and the counters say it alike)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from generator.loading import Rules

# a table id (ruleset.key) or another dotted name of the program's data (map.start)
_DOTTED = re.compile(
    r"(?<![\w.-])([a-z][a-z0-9]+(?:-[a-z0-9]+)*)\.([a-z][a-z0-9_]+(?:-[a-z0-9]+)*)(?![\w-])"
)
_CEIL = re.compile(r"\bceil\(([^()]*)\)")
_STRUCTURED = re.compile(r"\s*\((?:structured|house table)\)$", re.IGNORECASE)
COMPASS = {
    "n": "north", "ne": "north-east", "e": "east", "se": "south-east",
    "s": "south", "sw": "south-west", "w": "west", "nw": "north-west",
}  # fmt: skip


def player_words(rules: Rules, text: str) -> str:
    """Return a generator's sentence as players read it: a table id as the table's title
    in quotes ("see" it, where it stands as a reference in brackets), no other dotted
    names of the program's data, "ceil(x)" as "x, rounded up"."""

    def title(match: re.Match[str]) -> str:
        found = rules.rulesets.get(match[1])
        if found is None or match[2] not in found.tables:
            return ""  # a name of the program's data (map.start): the sheets show it
        name = f"“{_STRUCTURED.sub('', found.tables[match[2]].title)}”"
        before = text[: match.start()].rstrip(" ")
        return f"see {name}" if before.endswith(("(", ",")) else name

    text = _DOTTED.sub(title, text)
    text = _CEIL.sub(r"\1, rounded up", text)
    text = re.sub(r"\(\s*,\s*", "(", text)
    text = re.sub(r",\s*\)", ")", text)
    text = re.sub(r"\s*\(\s*\)", "", text)
    text = re.sub(r"\s+([.,;:])", r"\1", text)
    return re.sub(r"\s{2,}", " ", text).strip()


def direction_words(name: str) -> str:
    """A compass direction in words: "NE" as "north-east", "South-west" as "south-west"."""
    return COMPASS.get(name.strip().lower(), name.strip().lower())


def wind_words(wind: Mapping[str, Any] | None) -> str:
    """Return the rolled wind in words: "from the south", "from the west (moderate)",
    "calm", "a fresh breeze"; "" for none."""
    if not wind:
        return ""
    bearing = wind.get("from_bearing")
    direction = str(wind.get("direction") or "")
    if direction:
        if not isinstance(bearing, int | float) or isinstance(bearing, bool):
            return direction.lower()  # a calm has no direction
        strength = str(wind.get("strength") or "")
        where = f"from the {direction_words(direction)}"
        return f"{where} ({strength.lower()})" if strength else where
    result = str(wind.get("result") or "")
    return "" if result in ("", "—") else result.lower()
