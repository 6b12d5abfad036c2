"""The ``sheets:`` sections of the ruleset specs (specs/ID.yaml), checked all at once.

A sheet kind that takes anything from a spec declares its section's shape in its own module,
next to the reader that turns the checked section into its dataclass: a function
``section_schema(ruleset) -> Node`` of the schema nodes (the tables a section names are the
ruleset's own, so the node is made per ruleset). A kind without one takes an empty section,
``{}``. The first time any sheet reads its section (`section`), every section of every spec
is checked, against its kind's node and the rules data, and the specs fail with one
`SpecError` listing every problem, each ``specs/ID.yaml:LINE: sheets.KIND.key.path: what``
(the way a rules file's problems read): a typo in any spec fails every sheet, all of it
said at once.

``python -m generator.render.specs FILE`` writes the sections' keys, as the nodes describe
them, into FILE (docs/adding-a-ruleset.md) between its two marker lines.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from generator.loading import Rules, load_rules
from generator.loading.problems import Problems, describe_path
from generator.render import expressions
from generator.render.sheets import sheet_kinds
from generator.rulesets import RulesetSpec, SpecError, ruleset_specs, serving, sheet_section
from generator.schema.context import LINE_LENGTH, Ctx, found, listing
from generator.schema.markdown import key_table
from generator.schema.nodes import Check, Choice, Node, Record, Text
from generator.suggest import unknown
from generator.yamlfile import KeyPath, YamlDoc

SectionSchema = Callable[[str], Node]  # a ruleset's id -> the node of its section

EMPTY = Record({}, what="an empty section, {} (this sheet takes nothing from the spec)")


@dataclass
class _Reporter:
    """Where one spec's problems go: each with its file, line and key path."""

    doc: YamlDoc
    problems: Problems

    def fail(self, path: KeyPath, message: str) -> None:
        self.problems.add(self.doc, path, message, describe_path(path))


def _declared(kind: str) -> SectionSchema | None:
    """Return the `section_schema` of the sheet `kind`: its module's, or its package's
    ``spec`` module's (None: the kind takes an empty section)."""
    module = importlib.import_module(f"generator.render.kinds.{kind.replace('-', '_')}")
    if hasattr(module, "__path__") and importlib.util.find_spec(f"{module.__name__}.spec"):
        module = importlib.import_module(f"{module.__name__}.spec")
    declared: SectionSchema | None = getattr(module, "section_schema", None)
    return declared


def section_schema(kind: str, ruleset: str) -> Node:
    """Return the node of `ruleset`'s section for the sheet `kind` (a known kind)."""
    declared = _declared(kind)
    return EMPTY if declared is None else declared(ruleset)


def spec_problems(spec: RulesetSpec, rules: Rules) -> list[str]:
    """Return the problems of every sheet section of `spec`, one a line, checked against
    `rules` (the tables a section names)."""
    problems = Problems()
    kinds = sheet_kinds()
    ctx = Ctx(rules, _Reporter(spec.doc, problems))
    for kind, raw in spec.sheets.items():
        path = ("sheets", kind)
        if kind not in kinds:
            ctx.fail(path, unknown("sheet kind", kind, kinds, listing="kinds"))
        else:
            section_schema(kind, spec.id).check(ctx, raw, path)
    return problems.messages


@cache
def check_specs() -> None:
    """Check the sheet sections of every ruleset's spec against the rules data (once a
    process; when it raises, again each time it is asked).

    Raises:
        SpecError: listing every problem of every spec, one a line.
    """
    rules = load_rules()
    problems = [p for spec in ruleset_specs().values() for p in spec_problems(spec, rules)]
    if problems:
        raise SpecError(problems)


def section(ruleset: str, kind: str) -> tuple[Mapping[str, Any], RulesetSpec]:
    """Return the section of `ruleset`'s spec for the sheet `kind`, checked (with every
    other: `check_specs`), and the spec itself (for its `where`)."""
    check_specs()
    return sheet_section(ruleset, kind)


# ---------------------------------------------------------------- nodes the sections share


@cache
def _table_keys(ruleset: str) -> Callable[[Rules], tuple[str, ...]]:
    def keys(rules: Rules) -> tuple[str, ...]:
        return tuple(rules.rulesets[ruleset].tables) if ruleset in rules.rulesets else ()

    return keys


@cache
def table_key(ruleset: str) -> Choice:
    """A table of `ruleset`, by its key (``broadside``)."""
    return Choice(_table_keys(ruleset), what=f"{ruleset} table", docs="a table of the ruleset")


@cache
def param_check(ruleset: str, table: str, param: str, each: str = "") -> Check:
    """The rule that the key `param` of a record (of each entry of its list `each`) names a
    param of the table of `ruleset` that the record's key `table` names."""

    def run(ctx: Ctx, data: dict[str, Any], path: KeyPath) -> None:
        params = ctx.rules.rulesets[ruleset].tables[data[table]].params
        entries = (
            [((*path, each, i), entry) for i, entry in enumerate(data[each])]
            if each
            else [(path, data)]
        )
        for where, entry in entries:
            if entry[param] not in params:
                ctx.fail(
                    (*where, param),
                    f"{found(entry[param])} is not a param of {ruleset}.{data[table]} "
                    f"(its params: {listing(list(params)) or 'none'})",
                )

    whose = f"`{param}` of each of `{each}`" if each else f"`{param}`"
    return Check(f"{whose} is a param of the table `{table}` names", run, (table, each or param))


@dataclass(frozen=True, eq=False)
class Jinja(Text):
    """Jinja over the generated data, a template (``"{{ ship.name }}"``) or, with
    `condition`, an expression (``ship.flagship``): text that Jinja can read."""

    max_length: int = LINE_LENGTH
    condition: bool = False

    def kind_text(self, ctx: Ctx) -> str:
        return "Jinja expression" if self.condition else "Jinja text"

    def check(self, ctx: Ctx, value: Any, path: KeyPath) -> bool:
        if not super().check(ctx, value, path):
            return False
        error = expressions.syntax_error(value, condition=self.condition)
        if error is not None:
            ctx.fail(path, f"{error}: {value!r}")
            return False
        return True

    def allowed(self, ctx: Ctx) -> str:
        return ""


TEMPLATE = Jinja()
CONDITION = Jinja(condition=True)


# ---------------------------------------------------------------- the docs


def describe_sections(rules: Rules) -> str:
    """Return the keys of every sheet kind's spec section as markdown: a table each."""
    lines = [BEGIN, ""]
    without = []
    for kind in sheet_kinds():
        declared, rulesets = _declared(kind), serving(kind)
        if declared is None:
            without.append(kind)
            continue
        node = declared(rulesets[0] if rulesets else "")  # the keys are every ruleset's
        lines += [f"#### `{kind}`", "", *key_table(Ctx(rules), node, f"sheets.{kind}"), ""]
    lines += [f"The other kinds ({', '.join(f'`{k}`' for k in without)}) take `{{}}`.", "", END]
    return "\n".join(lines)


BEGIN = (
    "<!-- Written by `python -m generator.render.specs docs/adding-a-ruleset.md` from the "
    "sections' schemas: do not edit by hand. -->"
)
END = "<!-- End of what generator.render.specs writes. -->"


def written_part(text: str) -> str:
    """Return the part of `text` (a doc) between the markers, both included ("" if none)."""
    start, end = text.find(BEGIN), text.find(END)
    return text[start : end + len(END)] if 0 <= start < end else ""


def main(argv: list[str]) -> None:
    """Write the sections' keys into the doc `argv[0]`, between its markers."""
    if len(argv) != 1:
        sys.exit("usage: python -m generator.render.specs docs/adding-a-ruleset.md")
    path = Path(argv[0])
    text = path.read_text(encoding="utf-8")
    old = written_part(text)
    if not old:
        sys.exit(f"{path}: no '{BEGIN}' ... '{END}' to write between")
    path.write_text(text.replace(old, describe_sections(load_rules())), encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
