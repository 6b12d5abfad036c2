"""The file formats: one declarative, typed schema per ruleset of the files Quartermaster
writes and reads back (a scenario, a fleet, a duellist).

Each ruleset's module here (``generator.schema.tactical`` ...) declares its files with the
nodes of `generator.schema.nodes`: `Text`, `Whole`, `Number`, `Flag`, `Choice`, `Items`,
`Record` (with `Field` and `Check`), `Mapping`, `Maybe`, `OneOf`, `Variant`, `Null` and
`Plain`, and the naval parts of `generator.schema.naval` (`Bearing`, `wind`, `weather`,
`grid_map` ...). A range or a list of choices may be a function of the loaded `Rules`
(`generator.schema.tables`), so it follows the rule tables and the house rules; it is
worked out once per `Rules` (`generator.schema.context`). The one declaration

- checks an edited file: `check_scenario`, `check_force` and `check_character`
  (`generator.schema.assembly`) report every problem through a `Checker`
  (``file:line: key.path: what is wrong``), each saying what is allowed; the values the
  rules derive are checked with `derived`, unless the GM's ``override`` lists them
  (`generator.schema.overrides`);
- prints as the file format: `describe` (`generator.schema.markdown`;
  ``python -m generator.schema`` writes docs/file-formats.md).

A ruleset's schema is its module's ``SCHEMA`` (a `RulesetSchema`): the module
``generator.schema.<id>`` (``-`` as ``_``), else the ``schema`` its generator class
declares (registered with the generator: `register_schema`), so a ruleset added with its
own four files can declare its schema in its generator. What a
ruleset's rules derive for its generator and its schema alike (a tactical ship's ratings,
a convoy ship's markers ...) lives in ``generator.ruleset.<id>``.

This package re-exports the names of its modules, so ``from generator.schema import
Record`` serves a ruleset's schema wherever it is declared.
"""

from __future__ import annotations

from generator.schema.assembly import (
    OPTIONS,
    RulesetSchema,
    check_character,
    check_force,
    check_scenario,
    check_side,
    fixed,
    has_schema,
    record_of,
    schema_for,
)
from generator.schema.context import (
    LINE_LENGTH,
    LISTED,
    NAME_LENGTH,
    TITLE_LENGTH,
    Ctx,
    Dyn,
    Reporter,
    article,
    close_match,
    found,
    key_path,
    label,
    listing,
    quoted,
    span_text,
)
from generator.schema.markdown import INTRO, describe, describe_all
from generator.schema.naval import (
    DEGREES,
    NAVY,
    Bearing,
    grid_map,
    one_flagship,
    start_columns,
    weather,
    wind,
    wind_from_weather,
)
from generator.schema.nodes import (
    LINE,
    LINES,
    NAME,
    TITLE,
    Check,
    CheckFunction,
    Choice,
    Field,
    Flag,
    Items,
    Mapping,
    Maybe,
    Node,
    Null,
    Number,
    OneOf,
    Plain,
    Record,
    Row,
    Text,
    Variant,
    Whole,
    opt,
    req,
)
from generator.schema.overrides import (
    OVERRIDE,
    Between,
    Expected,
    compare,
    derived,
    override,
    override_words,
)
from generator.schema.tables import (
    by_label,
    by_result,
    cells,
    copied,
    dice_span,
    die_range,
    follows,
    labels,
    nationalities,
    navies,
    results,
    rolled,
    spread,
    table_ids,
    values,
)

__all__ = [
    "DEGREES",
    "INTRO",
    "LINE",
    "LINES",
    "LINE_LENGTH",
    "LISTED",
    "NAME",
    "NAME_LENGTH",
    "NAVY",
    "OPTIONS",
    "OVERRIDE",
    "TITLE",
    "TITLE_LENGTH",
    "Bearing",
    "Between",
    "Check",
    "CheckFunction",
    "Choice",
    "Ctx",
    "Dyn",
    "Expected",
    "Field",
    "Flag",
    "Items",
    "Mapping",
    "Maybe",
    "Node",
    "Null",
    "Number",
    "OneOf",
    "Plain",
    "Record",
    "Reporter",
    "Row",
    "RulesetSchema",
    "Text",
    "Variant",
    "Whole",
    "article",
    "by_label",
    "by_result",
    "cells",
    "check_character",
    "check_force",
    "check_scenario",
    "check_side",
    "close_match",
    "compare",
    "copied",
    "derived",
    "describe",
    "describe_all",
    "dice_span",
    "die_range",
    "fixed",
    "follows",
    "found",
    "grid_map",
    "has_schema",
    "key_path",
    "label",
    "labels",
    "listing",
    "nationalities",
    "navies",
    "one_flagship",
    "opt",
    "override",
    "override_words",
    "quoted",
    "record_of",
    "req",
    "results",
    "rolled",
    "schema_for",
    "span_text",
    "spread",
    "start_columns",
    "table_ids",
    "values",
    "weather",
    "wind",
    "wind_from_weather",
]
