"""The file formats as markdown: every key path of a ruleset's files, its type, whether it
is required, what is allowed and what it means, and the checks across keys
(``python -m generator.schema`` writes docs/file-formats.md).
"""

from __future__ import annotations

import re

from generator.loading import Rules
from generator.rulesets import ruleset_ids
from generator.schema.assembly import record_of, schema_for
from generator.schema.context import Ctx
from generator.schema.nodes import Node, Record, Row

INTRO = """\
# File formats

<!-- Written by `python -m generator.schema` from generator/schema/: do not edit by hand. -->

Quartermaster writes a scenario (`quartermaster scenario RULESET`), a fleet
(`quartermaster fleet RULESET`) and a duellist (`quartermaster character`) as plain data,
JSON or YAML. Edit one and give it back (`--from FILE`, `--side FILE`): it is checked
against the format below first, and refused with every problem on a line of its own,
each naming the file, the line, the key path and what is allowed.

A key path reads `sides[].ships[].name`: the key `name` of every entry of the list
`ships` of every entry of `sides` (`legend['#']`: the key `#` of `legend`). A required key
must be there; the others may be left out. Ranges such as `1..14` include both ends. Where
the allowed values come from the rule tables (ratings, results, classes), house rules
(`--rules FILE`) change them. The checks across keys (a wind's bearing against its
direction, one flagship a side ...) are listed under each table.

The numbers the rules derive (a ship's ratings from her class or rate, her traits and her
side's bonuses; her guns, markers or boxes from her type; the ships a squadron's size
says) are checked value by value: a file that contradicts them is refused, each value on
its own line with the file, the line, the key path and the value the rules give. To keep
a value of your own against the rules (a ship refitted, a house variant), list its key
under the ship's `override`, e.g. `override: [guns, hull]`: those values are kept as
written (within the ranges below) and the roster marks the ship "set by the GM: guns,
hull".
"""


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _required(required: bool | str) -> str:
    return required if isinstance(required, str) else "yes" if required else "no"


def _table(rows: list[Row]) -> list[str]:
    lines = ["| Key | Type | Required | Allowed | Meaning |", "|---|---|---|---|---|"]
    for row in rows:
        lines.append(
            f"| `{row.key}` | {_cell(row.kind)} | {_required(row.required)} "
            f"| {_cell(row.allowed)} | {_cell(row.help)} |"
        )
    return lines


def _checks(checks: list[tuple[str, str]]) -> list[str]:
    if not checks:
        return []
    grouped: dict[str, list[str]] = {}
    for where, text in checks:
        if text not in grouped.setdefault(where, []):
            grouped[where].append(text)
    return [
        "",
        "Checked across keys:",
        "",
        *(
            f"- {f'`{where}`' if where else 'the whole file'}: {'; '.join(texts)}."
            for where, texts in grouped.items()
        ),
    ]


def key_table(ctx: Ctx, node: Node, key: str = "") -> list[str]:
    """Return the markdown lines of what `node` holds under the key path `key`: the table of
    its keys, then the checks across them."""
    rows: list[Row] = []
    checks: list[tuple[str, str]] = []
    node.walk(ctx, key, rows, checks)
    return [*_table(rows), *_checks(checks)]


def _section(ctx: Ctx, title: str, record: Record) -> list[str]:
    return ["", title, "", *key_table(ctx, record)]


def _top(key: str) -> str:
    return re.split(r"[.\[]", key, maxsplit=1)[0]


def describe(ruleset: str, rules: Rules) -> str:
    """Return the markdown of `ruleset`'s file formats: every key path, its type, whether
    it is required, what is allowed and what it means, and the checks across keys."""
    schema = schema_for(ruleset)
    lines = [f"## {ruleset}"]
    if schema is None:
        lines += [
            "",
            "This ruleset declares no schema: only the keys every scenario shares are checked.",
        ]
        return "\n".join(lines) + "\n"
    ctx = Ctx(rules)
    for paragraph in schema.notes.strip().split("\n\n") if schema.notes else ():
        lines += ["", " ".join(paragraph.split())]
    lines += _section(
        ctx, f"### Scenario (`quartermaster scenario {ruleset}`)", record_of(schema, "scenario")
    )
    side_keys = frozenset(ctx.get(record_of(schema, "side").fields))
    fleet = record_of(schema, "fleet")
    lines += [
        "",
        f"### Fleet (`quartermaster fleet {ruleset}`)",
        "",
        "One side, as `sides[]` above (every key of it, the same checks), with these keys besides:",
    ]
    rows: list[Row] = []
    fleet.walk(ctx, "", rows, [])
    lines += ["", *_table([row for row in rows if _top(row.key) not in side_keys])]
    if schema.person is not None:
        lines += _section(
            ctx, "### Character (`quartermaster character`)", record_of(schema, "character")
        )
    return "\n".join(lines) + "\n"


def describe_all(rules: Rules) -> str:
    """Return docs/file-formats.md: the introduction and every ruleset's formats."""
    return "\n".join([INTRO, *(describe(ruleset, rules) for ruleset in ruleset_ids())])
