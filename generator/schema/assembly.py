"""A ruleset's schema (`RulesetSchema`), and the files made of it with the keys every
scenario shares: a scenario, a side, a fleet and a character, each checked by one call
that reports every problem.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from collections.abc import Mapping as MappingType
from dataclasses import dataclass
from typing import Any

from generator.loading import Rules
from generator.rulesets import ruleset_ids
from generator.schema.context import LINE_LENGTH, Ctx, Reporter, found, listing
from generator.schema.nodes import (
    LINES,
    TITLE,
    Check,
    Choice,
    Field,
    Flag,
    Items,
    Mapping,
    Number,
    Plain,
    Record,
    Text,
    Whole,
    opt,
    req,
)
from generator.schema.tables import table_ids
from generator.yamlfile import KeyPath


def _default_years(rules: Rules) -> tuple[int, int]:
    return 1500, 1900


@dataclass(frozen=True, eq=False)
class RulesetSchema:
    """What a ruleset's files hold beside the keys every scenario shares.

    Attributes:
        side: one side (a scenario's ``sides[]``; a fleet file is one, with ``ruleset``).
        setting: the scenario's own keys (wind, weather, map ...), in file order.
        checks: rules across the scenario's keys (the map against the sides ...).
        sides: the fewest and most sides a scenario has.
        years: the first and last year a scenario may be set in: its generator's
            ``years`` (a function of the ruleset layer both name, ``year_span`` unless
            the rules fix others).
        year_required: whether a scenario must say its year.
        person: a character file's person (a ruleset whose units are people).
        units: the key of a side's units ("ships", "characters").
        notes: a paragraph for the docs.
    """

    ruleset: str
    side: Record
    setting: MappingType[str, Field]
    checks: tuple[Check, ...] = ()
    sides: tuple[int, int | None] = (1, None)
    years: Callable[[Rules], tuple[int, int]] = _default_years
    year_required: bool = False
    person: Record | None = None
    units: str = "ships"
    notes: str = ""


_PACKAGE = "generator.schema"  # where a ruleset's own schema module is looked for
_SCHEMAS: dict[str, RulesetSchema | None] = {}


def register_schema(schema: RulesetSchema) -> None:
    """Make `schema` the one `schema_for(schema.ruleset)` returns: a schema its ruleset's
    generator declares (`RulesetGenerator.schema`, registered with the generator)."""
    _SCHEMAS[schema.ruleset] = schema


def schema_for(ruleset: str) -> RulesetSchema | None:
    """Return the schema of `ruleset` (a known id): the ``SCHEMA`` of its module in this
    package (``generator.schema.<id>``), else the one its generator registered
    (`register_schema`, when its generator is imported), else None."""
    if ruleset in _SCHEMAS:
        return _SCHEMAS[ruleset]
    name = f"{_PACKAGE}.{ruleset.replace('-', '_')}"
    if importlib.util.find_spec(name) is None:
        return None  # not cached: its generator may register one yet
    found_schema = getattr(importlib.import_module(name), "SCHEMA", None)
    if not isinstance(found_schema, RulesetSchema):
        found_schema = None
    _SCHEMAS[ruleset] = found_schema
    return found_schema


def has_schema(ruleset: str) -> bool:
    """Return whether `ruleset` (a known id) declares a schema of its files."""
    return schema_for(ruleset) is not None


# ---------------------------------------------------------------- the files


def _common_years(schema: RulesetSchema) -> Whole:
    return Whole(span=schema.years, why=f"the years {schema.ruleset} is played in")


def _balance() -> Record:
    return Record(
        {
            "measure": req(Text(LINE_LENGTH), "how a side's strength is measured"),
            "strengths": opt(
                Items(Number(0, None), noun=("strength", "strengths")), "each side's strength"
            ),
            "ratio": opt(Number(0, 1), "the weaker side's strength over the stronger's"),
            "attempt": opt(Whole(1, None), "which roll was kept"),
            "balanced": opt(Flag(), "whether the sides are within 10 % of each other"),
            "rolls": opt(Whole(1, None), "how many rolls were tried to balance the sides"),
            "warning": opt(
                Text(LINE_LENGTH),
                "why the sides are uneven although they were to be fair (the briefing prints it)",
            ),
        },
        what="the balance (measure, strengths, ratio, attempt, balanced, rolls, warning)",
    )


OPTIONS = Mapping(Plain())


def fixed(record: Record) -> MappingType[str, Field]:
    """Return a record's fields, which must not come from the rules (a side's, a person's:
    the fleet and character files add keys to them)."""
    fields = record.fields
    assert not callable(fields), f"{record.what}: its fields must be fixed"
    return fields


def _side_record(schema: RulesetSchema) -> Record:
    return Record(
        {
            **fixed(schema.side),
            "year": opt(_common_years(schema), "the year this side was made for"),
            "size_note": opt(Text(LINE_LENGTH), "how the side's size departs from the rules'"),
        },
        checks=schema.side.checks,
        what=schema.side.what,
    )


_BUILT: dict[tuple[str, str], Record] = {}


def record_of(schema: RulesetSchema, kind: str) -> Record:
    """Return the record of a ruleset's file of `kind` (``scenario``, ``side``, ``fleet``
    or ``character``): its schema's keys with those every such file shares (made once)."""
    key = (schema.ruleset, kind)
    if key not in _BUILT:
        _BUILT[key] = _build(schema, kind)
    return _BUILT[key]


def _build(schema: RulesetSchema, kind: str) -> Record:
    ruleset = Choice([schema.ruleset], "ruleset")
    side = _side_record(schema)
    if kind == "side":
        return side
    if kind == "fleet":
        return Record(
            {
                "ruleset": req(ruleset, "the ruleset"),
                "seed": opt(Whole(0, None), "the seed it was rolled from"),
                **fixed(side),
                "options": opt(OPTIONS, "what was asked for when it was made (free-form)"),
            },
            checks=side.checks,
            what=f"a {schema.ruleset} fleet",
        )
    if kind == "character":
        assert schema.person is not None
        person = fixed(schema.person)
        return Record(
            {
                "ruleset": opt(ruleset, "the ruleset"),
                "seed": opt(Whole(0, None), "the seed it was rolled from"),
                **person,
            },
            checks=schema.person.checks,
            what=f"a {schema.ruleset} character",
        )
    low, high = schema.sides
    fields: dict[str, Field] = {
        "ruleset": req(ruleset, "the ruleset"),
        "seed": req(Whole(0, None), "the seed it was rolled from"),
        "title": req(TITLE, "the scenario's title"),
        "year": Field(
            _common_years(schema), schema.year_required, "the year the action is fought in"
        ),
        "sides": req(Items(side, low, high, ("side", "sides")), "the sides, first to last"),
        **schema.setting,
        "setup": req(LINES, "the set-up, a line each"),
        "victory": req(LINES, "the victory conditions, a line each"),
        "special_rules": req(LINES, "the special rules, a line each"),
        "house_tables": opt(
            Items(Choice(table_ids, "table id", docs="table ids (ruleset.table) that exist")),
            "the house tables the scenario was rolled on",
        ),
        "generator": opt(TITLE, "the program and version that made it"),
        "balance": opt(_balance(), "how even the sides are"),
        "options": opt(OPTIONS, "what was asked for when it was made (free-form)"),
    }
    return Record(fields, checks=schema.checks, what=f"a {schema.ruleset} scenario")


# an open mapping: a ruleset without a schema has its own keys left unchecked
class _Open(Record):
    def check(self, ctx: Ctx, value: Any, path: KeyPath) -> bool:
        if not isinstance(value, dict):
            ctx.fail(path, f"expected {self.what}, found {found(value)}")
            return False
        fields = ctx.get(self.fields)
        ok = True
        for key, entry in fields.items():
            if key in value:
                ok = entry.node.check(ctx, value[key], (*path, key)) and ok
            elif entry.required:
                ctx.fail(path, f"missing '{key}' ({entry.node.summary(ctx)})")
                ok = False
        return ok


def _open_scenario(ruleset: str) -> Record:
    return _Open(
        {
            "ruleset": req(Choice([ruleset], "ruleset")),
            "seed": req(Whole(0, None)),
            "title": req(TITLE),
            "sides": req(Items(_Open({}, what="a side"), 1, None, ("side", "sides"))),
            "setup": req(LINES),
            "victory": req(LINES),
            "special_rules": req(LINES),
            "house_tables": opt(Items(Choice(table_ids, "table id"))),
            "balance": opt(_balance()),
            "options": opt(OPTIONS),
        },
        what=f"a {ruleset} scenario",
    )


def _ruleset_of(ctx: Ctx, data: Any, path: KeyPath, what: str, required: bool = True) -> str | None:
    if not isinstance(data, dict):
        ctx.fail(path, f"expected {what} (a mapping), found {found(data)}")
        return None
    known = sorted(ctx.rules.rulesets)
    if "ruleset" not in data:
        if required:
            ctx.fail(path, f"missing 'ruleset' (one of: {listing(known)})")
        return None
    if Choice(known, "ruleset").check(ctx, data["ruleset"], (*path, "ruleset")):
        return str(data["ruleset"])
    return None


def check_scenario(checker: Reporter, rules: Rules, data: Any) -> str | None:
    """Check a scenario (read from a file; every key, every value, and the rules across
    them), reporting every problem through `checker`.

    Returns:
        its ruleset, or None when it names no ruleset there is (reported). A ruleset
        without a schema (`has_schema`) has only the keys every scenario shares checked.
    """
    ctx = Ctx(rules, checker)
    ruleset = _ruleset_of(ctx, data, (), "a scenario")
    if ruleset is None:
        return None
    schema = schema_for(ruleset)
    record = _open_scenario(ruleset) if schema is None else record_of(schema, "scenario")
    record.check(ctx, data, ())
    return ruleset


def check_force(checker: Reporter, rules: Rules, data: Any, path: KeyPath = ()) -> str | None:
    """Check a fleet file (``quartermaster fleet``: ``ruleset``, ``seed`` and one side's
    keys) at `path`, reporting every problem; return its ruleset (None: it names none
    there is, reported)."""
    ctx = Ctx(rules, checker)
    ruleset = _ruleset_of(ctx, data, path, "a fleet")
    if ruleset is None:
        return None
    schema = schema_for(ruleset)
    if schema is not None:
        record_of(schema, "fleet").check(ctx, data, path)
    return ruleset


def check_side(checker: Reporter, rules: Rules, ruleset: str, side: Any, path: KeyPath) -> bool:
    """Check one side of a `ruleset` scenario at `path`; return whether all was well."""
    schema = schema_for(ruleset)
    if schema is None:
        return True
    return record_of(schema, "side").check(Ctx(rules, checker), side, path)


def _person_ruleset(ruleset: str | None) -> str | None:
    if ruleset is not None:
        return ruleset
    return next(
        (r for r in ruleset_ids() if (s := schema_for(r)) is not None and s.person is not None),
        None,
    )


def check_character(
    checker: Reporter, rules: Rules, data: Any, path: KeyPath = (), ruleset: str | None = None
) -> bool:
    """Check a character file (``quartermaster character``: a person, with ``ruleset``
    and ``seed``) at `path`, reporting every problem; return whether all was well.

    Args:
        ruleset: whose person it is; None for the file's ``ruleset``, else the ruleset
            whose units are people.
    """
    ctx = Ctx(rules, checker)
    named = _ruleset_of(ctx, data, path, "a character", required=False)
    if isinstance(data, dict) and "ruleset" in data and named is None:
        return False
    which = _person_ruleset(named or ruleset)
    schema = schema_for(which) if which is not None else None
    if schema is None or schema.person is None:
        ctx.fail((*path, "ruleset"), f"{which or 'no ruleset'} has no characters of its own")
        return False
    return record_of(schema, "character").check(ctx, data, path)
