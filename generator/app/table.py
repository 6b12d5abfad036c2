"""At the table: a table's cell answered at once, and the tables to choose from (the
resolvers: `generator.app.resolving`; the dice alone: `generator.app.rolls`).

Light on purpose, as `lookup` and `tables` must start fast: the rules, nothing of the
resolvers, the generators or the renderers.
"""

from __future__ import annotations

from pathlib import Path

import generator.lookup as lookups
from generator.app.inputs import check_ruleset, load_rules
from generator.loading import Ruleset, Table


def look_up(
    table_id: str, values: list[str], rules_file: Path | None = None
) -> lookups.LookupResult:
    """Return the cell of `table_id` at the typed ``AXIS=VALUE`` words."""
    rules = load_rules(rules_file)
    return lookups.lookup(
        rules, table_id, lookups.read_values(lookups.find_table(rules, table_id), values)
    )


def find_tables(target: str, rules_file: Path | None = None) -> Table | Ruleset:
    """Return the table `target` names (``flob.broadside``), or the ruleset (``flob``)."""
    rules = load_rules(rules_file)
    if "." in target:
        return lookups.find_table(rules, target)
    return check_ruleset(rules, target)
