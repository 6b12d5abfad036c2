"""The house tables a sheet's data was rolled with, named on the sheet itself.

A handout cannot point to the Notes for the GM (players do not hold them) or to another
handout: a sheet made from a scenario names the house tables it used right there, by their
short titles ("House tables used: Fleet Composition, Scenario, Weather."). Every kind that
prints the line, drawn or laid out as text, takes it from `house_tables_line`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from generator.loading import Rules

# a house table's title says so; on the sheet's own line that is said once, before them
HOUSE_SUFFIX = re.compile(r"\s*\(house table\)\s*$", re.IGNORECASE)


def house_table_titles(rules: Rules, table_ids: Iterable[str]) -> list[str]:
    """Return the short titles of `table_ids` (a scenario's ``house_tables``), in order,
    each once: "Fleet Composition (house table)" is "Fleet Composition"."""
    titles: list[str] = []
    for table_id in table_ids:
        title = HOUSE_SUFFIX.sub("", rules.table(str(table_id)).title)
        if title not in titles:
            titles.append(title)
    return titles


def house_tables_line(rules: Rules, table_ids: Iterable[str]) -> str:
    """Return the line naming the house tables `table_ids` on a sheet ("" for none)."""
    titles = house_table_titles(rules, table_ids)
    return f"House tables used: {', '.join(titles)}." if titles else ""
