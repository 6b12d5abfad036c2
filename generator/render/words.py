"""The rules' words as players read them, for every sheet that prints them: the one place
that turns a table into words for paper (`table_title`; table ids in a text as quoted titles,
`table_titles`; the house tables a sheet's data was rolled with, `house_tables_line`), a
generator's sentence with the program's names taken out (`player_words`), the rolled wind in
words (`wind_words`: the briefing, the map and the counters say it alike)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from generator.loading import Rules, Ruleset, Table

# a table id (ruleset.key) or another dotted name of the program's data (map.start)
_DOTTED = re.compile(
    r"(?<![\w.-])([a-z][a-z0-9]+(?:-[a-z0-9]+)*)\.([a-z][a-z0-9_]+(?:-[a-z0-9]+)*)(?![\w-])"
)
# a table id in the rules' own texts (ruleset.table-key), which a sheet prints as its title
TABLE_ID = re.compile(r"\b([a-z]+(?:-[a-z]+)?)\.([a-z0-9]+(?:-[a-z0-9]+)*)\b")
_CEIL = re.compile(r"\bceil\(([^()]*)\)")
COMPASS = {
    "n": "north", "ne": "north-east", "e": "east", "se": "south-east",
    "s": "south", "sw": "south-west", "w": "west", "nw": "north-west",
}  # fmt: skip


def table_title(table: Table) -> str:
    """Return the title a sheet prints for `table`: its title alone. That a table is a house
    table (``house: true``) a sheet says its own way: the quick reference's tag, the one line
    naming the house tables (`house_tables_line`), the Notes for the GM."""
    return table.title


def quoted_title(table: Table) -> str:
    """Return `table`'s title in quotes, as a sentence names it: “Weather”."""
    return f"“{table_title(table)}”"


def table_titles(rules: Rules, text: str) -> str:
    """Return `text` with every table id in it ("ruleset.table-key") written as the table's
    title in quotes (“Blocking”): a reader has the titles, not the ids. A dotted name that is
    no table stays as it is."""

    def title(match: re.Match[str]) -> str:
        found = rules.rulesets.get(match[1])
        if found is None or match[2] not in found.tables:
            return match[0]
        return quoted_title(found.tables[match[2]])

    return TABLE_ID.sub(title, text)


def house_table_titles(rules: Rules, table_ids: Iterable[str]) -> list[str]:
    """Return the titles of `table_ids` (a scenario's ``house_tables``) as sheets print
    them, in order, each once."""
    titles: list[str] = []
    for table_id in table_ids:
        title = table_title(rules.table(str(table_id)))
        if title not in titles:
            titles.append(title)
    return titles


def house_tables_line(rules: Rules, table_ids: Iterable[str]) -> str:
    """Return the line naming the house tables `table_ids` on a sheet ("" for none).

    A handout cannot point to the Notes for the GM (players do not hold them) or to another
    handout: a sheet made from a scenario names the house tables it used right there, by
    their titles ("House tables used: Fleet Composition, Scenario, Weather."). Every kind
    that prints the line, drawn or laid out as text, takes it from here.
    """
    titles = house_table_titles(rules, table_ids)
    return f"House tables used: {', '.join(titles)}." if titles else ""


def game_title(ruleset: Ruleset) -> str:
    """Return a ruleset's title as a sheet names the game: without its trailing parenthesis
    ("Form Line of Battle 5.1 (quick reference)" is "Form Line of Battle 5.1")."""
    return ruleset.title.split(" (")[0]


def game_name(ruleset: Ruleset) -> str:
    """Return the game's short name, for a line with little room (a card's corner, the
    playsheet's footer): its title (`game_title`) without a subtitle after a colon or a
    "for ..." tail ("Broadsides: a game of gunnery" is "Broadsides", "Sea Combat for Ships
    of the Line" is "Sea Combat")."""
    return game_title(ruleset).split(":")[0].split(" for ")[0]


def player_words(rules: Rules, text: str) -> str:
    """Return a generator's sentence as players read it: a table id as the table's title
    in quotes ("see" it, where it stands as a reference in brackets), no other dotted
    names of the program's data, "ceil(x)" as "x, rounded up"."""

    def title(match: re.Match[str]) -> str:
        found = rules.rulesets.get(match[1])
        if found is None or match[2] not in found.tables:
            return ""  # a name of the program's data (map.start): the sheets show it
        name = quoted_title(found.tables[match[2]])
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
