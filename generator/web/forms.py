"""Edit a game night's forces: each unit (a ship, a duel's duellist) as a form made from
its ruleset's schema, read back through the same schema nodes, and the night page's
buttons that add, remove and roll a unit again (`generator.app.saved` does the work).

Routes (docs/web.md): ``GET`` and ``POST /nights/{id}/units/{side}/{index}`` (the form,
and its change: 303 to the night page, or 422 and the form again with each problem beside
its field), ``POST /nights/{id}/units/{side}/add``, ``.../roll`` and ``.../remove`` (the form's
``unit``, and ``seed`` to roll from). Sides and units count from 0, as a scenario's key
paths do. ``POST /api/scenarios/{id}/check`` (`generator.web.api`)
checks a unit's form sent as JSON with `checked_form`, for static/edit.js.

A field's name is its key path inside the unit (``ratings.hull``, ``traits[0].result``),
so a problem's key path (``sides[0].ships[1].ratings.hull``) finds its field. A value the
rules derive (a ship's ratings from her class and traits ...) carries the value the page
showed under ``@`` and its name: left as shown, it is worked out again on save and live as
class or traits change; typed over, it is the GM's, and the schema judges it (its
``override`` keeps it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from generator.app.requests import fresh_seed
from generator.app.saved import (
    UnitsChanged,
    add_unit,
    change_unit,
    check_game_night,
    check_number,
    derived_values,
    night_rules,
    remove_unit,
    roll_unit_again,
    scenario_with_unit,
    unit_in,
    unit_path,
    units_key,
    with_derived,
)
from generator.app.store import Saved
from generator.errors import CheckedProblems, InputError
from generator.generate.base import get_generator
from generator.generate.common import MAX_SHIPS
from generator.loading.problems import describe_path
from generator.schema import (
    OVERRIDE,
    Choice,
    Ctx,
    Flag,
    Items,
    Maybe,
    Node,
    Null,
    Number,
    Record,
    Text,
    Variant,
    Whole,
    override_words,
    record_of,
    schema_for,
)
from generator.schema.nodes import Mapping as MapNode
from generator.web.files import Pages
from generator.web.said import said_link
from generator.web.state import state_of
from generator.yamlfile import KeyPath

#: the prefix of the field holding the value a derived field showed (see the module doc)
SHOWN = "@"
# keys shown but not edited: a die roll the generator recorded (the result it gave is the
# GM's to change; the roll stays as it fell, and the schema does not tie one to the other)
RECORDED = frozenset({"roll"})


#: a key whose name is the file's word, not the GM's
SAID = {OVERRIDE: "Set by hand (override)"}


def words(key: str | int) -> str:
    """Return a key as a person reads it: ``mast_rating`` -> Mast rating."""
    return SAID.get(str(key)) or override_words([key])[0].capitalize()


@dataclass
class Entry:
    """One thing the unit's form shows: a field, a group of them (a fieldset), or a list of
    groups.

    Attributes:
        kind: ``number``, ``select``, ``check``, ``checks`` (several options ticked),
            ``text``, ``list`` (comma-separated), ``fixed`` (shown, not edited),
            ``group`` or ``items``.
        name: its key path inside the unit (the field's name).
        label: what it is, in words.
        hint: what is allowed, in the schema's words.
        value: the value shown (as typed, after a refused save).
        problems: what the check found wrong here.
    """

    kind: str
    name: str
    label: str
    hint: str = ""
    value: Any = None
    required: bool = True
    low: float | None = None
    high: float | None = None
    step: str = "1"
    options: list[tuple[str, str]] = field(default_factory=list)
    maxlength: int | None = None
    derived: bool = False
    shown: Any = None  # the value the page showed a derived field with
    children: list[Entry] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        """Return the value as its field holds it."""
        return _text(self.value)

    @property
    def shown_text(self) -> str:
        """Return the value a derived field was shown with, as its field holds it."""
        return _text(self.shown)

    @property
    def chosen(self) -> set[str]:
        """Return the options a ``checks`` or ``select`` entry has ticked, as text."""
        values = self.value if isinstance(self.value, list) else [self.value]
        return {_text(v) for v in values if v is not None}


def _text(value: Any) -> str:
    """Return a value as a form field holds it."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def unit_record(ruleset: str) -> Record:
    """Return the schema's record of one unit of `ruleset`.

    Raises:
        InputError: the ruleset declares no schema (its units cannot be edited here).
    """
    schema = schema_for(ruleset)
    if schema is None:
        raise InputError(f"{ruleset} declares no file format: its units cannot be edited here")
    side = record_of(schema, "side")
    units = side.fields[units_key(ruleset)] if isinstance(side.fields, Mapping) else None
    node = units.node if units is not None else None
    if not isinstance(node, Items) or not isinstance(node.of, Record):
        raise InputError(f"{ruleset}: a side's units are not records: they cannot be edited")
    return node.of


# --- the form, made from the schema ---------------------------------------------------------


class FormMaker:
    """Makes the entries of one unit's form from its schema record and its values."""

    def __init__(self, ctx: Ctx, derived: set[str], shown: Mapping[str, Any]) -> None:
        self.ctx = ctx
        self.derived = derived  # the names of the fields the rules derive
        self.shown = shown  # what the page showed each derived field with

    def record(self, record: Record, value: Any, path: KeyPath, label: str) -> Entry:
        values = value if isinstance(value, dict) else {}
        group = Entry("group", describe_path(path), label)
        for key, entry in self.ctx.get(record.fields).items():
            if _left_off(key, entry.required, entry.node, values):
                continue
            where = (*path, key)
            child = self.node(entry.node, values.get(key), where, words(key), entry.required)
            child.hint = " · ".join(p for p in (entry.help, child.hint) if p)
            group.children.append(child)
        return group

    def node(self, node: Node, value: Any, path: KeyPath, label: str, required: bool) -> Entry:
        name = describe_path(path)
        key = path[-1]
        if isinstance(node, Maybe):
            entry = self.node(node.node, value, path, label, False)
            entry.required = False
            return entry
        if key in RECORDED or isinstance(node, Null) or _single(self.ctx, node):
            return Entry("fixed", name, label, value=value, required=required)
        if isinstance(node, Record):
            return self.record(node, value, path, label)
        if isinstance(node, Variant):
            return self.record(_case(self.ctx, node, value), value, path, label)
        if isinstance(node, Items):
            return self.items(node, value, path, label, required)
        entry = Entry("text", name, label, node.allowed(self.ctx), value, required)
        if isinstance(node, Whole | Number):
            low, high = _span(self.ctx, node)
            entry.kind, entry.low, entry.high = "number", low, high
            entry.step = "1" if isinstance(node, Whole) else "any"
        elif isinstance(node, Flag):
            entry.kind, entry.hint = "check", ""
        elif isinstance(node, Choice):
            entry.kind = "select"
            entry.options = [(_text(o), str(o)) for o in self.ctx.get(node.options)]
            entry.hint = ""  # the options say it
        elif isinstance(node, Text):
            entry.maxlength = node.max_length
        else:
            entry.kind = "fixed"  # a free-form mapping, a value of several kinds: kept
        if name in self.derived:
            entry.derived = True
            entry.shown = self.shown.get(name, value)
        return entry

    def items(self, node: Items, value: Any, path: KeyPath, label: str, required: bool) -> Entry:
        name = describe_path(path)
        values = value if isinstance(value, list) else []
        inner = node.of
        if isinstance(inner, Record | Variant):
            entry = Entry("items", name, label, node.allowed(self.ctx), required=required)
            noun = words(node.noun[0])
            for index, item in enumerate(values):
                child = self.node(inner, item, (*path, index), f"{noun} {index + 1}", True)
                entry.children.append(child)
            return entry
        if isinstance(inner, Choice):
            options = [(_text(o), str(o)) for o in self.ctx.get(inner.options)]
            if _is_override(path):
                options = [(v, words(s)) for v, s in options]
            return Entry("checks", name, label, "", values, required, options=options)
        text = ", ".join(_text(v) for v in values) if value is not None else ""
        return Entry("list", name, label, node.allowed(self.ctx), text, required)


def _is_override(path: KeyPath) -> bool:
    """Return whether `path` is a unit's override list (its boxes say the keys in words)."""
    return bool(path) and path[-1] == OVERRIDE


def _left_off(key: str, required: bool, node: Node, values: Mapping[str, Any]) -> bool:
    """Return whether the form leaves a key off: an optional group or list the unit does
    not have (an optional single value, a captain's name, is offered as an empty field;
    the override as its boxes to tick)."""
    if required or key in values or key == OVERRIDE:
        return False
    inner = node.node if isinstance(node, Maybe) else node
    return isinstance(inner, Record | Variant | Items | Null | MapNode)


def _single(ctx: Ctx, node: Node) -> bool:
    """Return whether `node` allows one value only (a trait's table id): shown, kept."""
    return isinstance(node, Choice) and len(ctx.get(node.options)) == 1


def _case(ctx: Ctx, node: Variant, value: Any) -> Record:
    """Return the record of a variant's case for `value` (its tag's, else the default's)."""
    cases = ctx.get(node.cases)
    tag = value.get(node.tag) if isinstance(value, dict) else None
    found = cases.get(tag) if isinstance(tag, str) else None
    if found is not None:
        return found
    if node.default is not None:
        return node.default
    raise InputError(f"{node.tag} {tag!r}: not {node.what} there is")


def _span(ctx: Ctx, node: Whole | Number) -> tuple[Any, Any]:
    if node.span is not None:
        low, high = ctx.of(node.span)
        return low, high
    return ctx.get(node.low), ctx.get(node.high)


# --- the form, read back ------------------------------------------------------------------


class FormReader:
    """Reads a unit's form back into a unit through the same schema nodes: each field
    converted as its node takes it (a whole number, true or false ...); a value that does
    not convert is kept as typed, for the schema to say what is wrong with it."""

    def __init__(self, ctx: Ctx, fields: Mapping[str, list[str]]) -> None:
        self.ctx = ctx
        self.fields = fields

    def one(self, name: str) -> str | None:
        values = self.fields.get(name)
        return values[-1] if values else None

    def record(self, record: Record, old: Any, path: KeyPath) -> dict[str, Any]:
        olds = old if isinstance(old, dict) else {}
        made: dict[str, Any] = {}
        for key, entry in self.ctx.get(record.fields).items():
            if _left_off(key, entry.required, entry.node, olds):
                continue  # not on the form (as `FormMaker.record` leaves it off)
            value = self.node(entry.node, olds.get(key), (*path, key))
            if value is _LEFT_OUT:
                if entry.required:
                    made[key] = ""  # the schema says what it must hold, at its field
                continue
            if key == OVERRIDE and value == [] and key not in olds:
                continue  # none ticked, as before: the unit stays as it was
            made[key] = value
        return made

    def node(self, node: Node, old: Any, path: KeyPath) -> Any:
        name = describe_path(path)
        if isinstance(node, Maybe):
            value = self.node(node.node, old, path)
            return None if value is _LEFT_OUT else value
        if path[-1] in RECORDED or isinstance(node, Null) or _single(self.ctx, node):
            return old  # shown, not edited
        if isinstance(node, Record):
            return self.record(node, old, path)
        if isinstance(node, Variant):
            return self.record(_case(self.ctx, node, old), old, path)
        if isinstance(node, Items):
            return self.items(node, old, path)
        if isinstance(node, Flag):
            return self.one(name) in ("true", "on", "1")
        if not isinstance(node, Whole | Number | Choice | Text):
            return old  # a kind the form only shows (a ship's damage): kept as it was
        typed = self.one(name)
        if typed is None or not typed.strip():
            return _LEFT_OUT
        if isinstance(node, Whole):
            return _whole(typed)
        if isinstance(node, Number):
            return _number(typed)
        if isinstance(node, Choice):
            options = self.ctx.get(node.options)
            return next((o for o in options if _text(o) == typed.strip()), typed)
        if isinstance(node, Text):
            return typed.strip()
        return old  # a kind the form only shows

    def items(self, node: Items, old: Any, path: KeyPath) -> Any:
        olds = old if isinstance(old, list) else []
        inner = node.of
        if isinstance(inner, Record | Variant):
            return [self.node(inner, item, (*path, i)) for i, item in enumerate(olds)]
        name = describe_path(path)
        if isinstance(inner, Choice):
            ticked = set(self.fields.get(name, []))
            return [o for o in self.ctx.get(inner.options) if _text(o) in ticked]
        typed = self.one(name) or ""
        parts = [part.strip() for part in typed.split(",") if part.strip()]
        return [_scalar(inner, part) for part in parts]


class _LeftOut:
    """A field left empty: the key is left out (or kept as the empty text, when required:
    the schema then says what it must hold)."""


_LEFT_OUT: Any = _LeftOut()


def _whole(typed: str) -> int | str:
    text = typed.strip()
    digits = text[1:] if text[:1] in "+-" else text
    return int(text) if digits.isdigit() and len(digits) <= 12 else typed


def _number(typed: str) -> float | int | str:
    whole = _whole(typed)
    if isinstance(whole, int):
        return whole
    try:
        found = float(typed.strip())
    except ValueError:
        return typed
    return found if found == found and abs(found) != float("inf") else typed


def _scalar(node: Node, typed: str) -> Any:
    """Return one item of a comma-separated list as its node takes it."""
    if isinstance(node, Whole):
        return _whole(typed)
    if isinstance(node, Number):
        return _number(typed)
    return typed


# --- one unit's form: made, read back, checked --------------------------------------------


@dataclass
class UnitForm:
    """A unit's form as its page shows it: the entries, the problems that match no field
    (in words), and the sides' strengths."""

    entries: list[Entry]
    unplaced: list[str]
    strengths: list[dict[str, Any]]
    derives: bool = False  # whether a field follows the rules (its note is shown)


@dataclass(frozen=True)
class ReadUnit:
    """A unit read back from its form.

    Attributes:
        unit: the unit, its derived values worked out again but those the GM typed.
        shown: what each derived field is to show as the value it was shown with next.
        derived: the names and values of the derived fields worked out again.
    """

    unit: dict[str, Any]
    shown: dict[str, Any]
    derived: dict[str, Any]


def _derived_paths(saved: Saved, side: int, unit: dict[str, Any]) -> dict[str, KeyPath]:
    """Return the fields the rules derive for `unit` (whatever its override says), by name."""
    side_data = saved.scenario["sides"][side]
    found = derived_values(saved.ruleset, side_data, {**unit, OVERRIDE: []}, night_rules(saved))
    return {describe_path(path): path for path in found}


def _at(value: Any, path: KeyPath) -> Any:
    for key in path:
        if isinstance(value, dict):
            value = value.get(key)
        elif isinstance(value, list) and isinstance(key, int) and 0 <= key < len(value):
            value = value[key]
        else:
            return None
    return value


def read_unit(saved: Saved, side: int, index: int, fields: Mapping[str, list[str]]) -> ReadUnit:
    """Read unit `index` of side `side` back from its form's `fields` (name: values), its
    derived values worked out again where the GM left them as shown (see the module doc)."""
    old = unit_in(saved, side, index)
    rules = night_rules(saved)
    ctx = Ctx(rules)
    read = FormReader(ctx, fields).record(unit_record(saved.ruleset), old, ())
    was = {name[len(SHOWN) :]: values[-1] for name, values in fields.items() if values}
    was = {name: value for name, value in was.items() if name and f"{SHOWN}{name}" in fields}
    paths = _derived_paths(saved, side, read)
    typed = {
        path for name, path in paths.items() if name in was and _text(_at(read, path)) != was[name]
    }
    side_data = saved.scenario["sides"][side]
    unit = with_derived(saved.ruleset, side_data, read, typed, rules=rules)
    shown: dict[str, Any] = {}
    derived: dict[str, Any] = {}
    for name, path in paths.items():
        if path in typed:
            shown[name] = was[name]
        else:
            shown[name] = derived[name] = _at(unit, path)
    return ReadUnit(unit, shown, derived)


def unit_form(
    saved: Saved,
    side: int,
    index: int,
    unit: dict[str, Any],
    shown: Mapping[str, Any] | None = None,
    problems: tuple[tuple[str, str], ...] = (),
) -> UnitForm:
    """Return the form of unit `index` of side `side` holding `unit` (as stored, or as
    typed), each of `problems` (key path, words) beside its field, or its nearest group,
    or, matching none, listed in words."""
    ctx = Ctx(night_rules(saved))
    derived = set(_derived_paths(saved, side, unit))
    maker = FormMaker(ctx, derived, shown or {})
    root = maker.record(unit_record(saved.ruleset), unit, (), "")
    by_name: dict[str, Entry] = {}
    stack = list(root.children)
    while stack:
        each = stack.pop()
        by_name[each.name] = each
        stack.extend(each.children)
    prefix = unit_path(saved.ruleset, side, index)
    unplaced: list[str] = []
    for path, message in problems:
        entry: Entry | None = None
        if path.startswith(prefix) and path[len(prefix) : len(prefix) + 1] in (".", "["):
            name = path[len(prefix) :].lstrip(".")
            while name and entry is None:
                entry = by_name.get(name)  # else the group it is in
                name = _parent(name)
        if entry is not None:
            entry.problems.append(message)
        else:
            unplaced.append(f"{where_words(saved, path)}: {message}")
    strengths = strengths_of(saved.ruleset, saved.scenario)
    derives = any(entry.derived for entry in by_name.values())
    return UnitForm(root.children, unplaced, strengths, derives)


def _parent(name: str) -> str:
    """Return the name of the group a field's name is in (``traits[0]`` of
    ``traits[0].result``, ``traits`` of ``traits[0]``), or ""."""
    cut = max(name.rfind("."), name.rfind("["))
    return name[:cut] if cut > 0 else ""


def where_words(saved: Saved, path: str) -> str:
    """Return a problem's key path in words: ``sides[0].ships`` -> "British squadron, ships"."""
    parts = []
    for piece in path.replace("]", "").split("."):
        key, _, number = piece.partition("[")
        if key == "sides" and number.isdigit():
            sides = saved.scenario.get("sides", [])
            n = int(number)
            parts.append(str(sides[n].get("name")) if n < len(sides) else f"side {n + 1}")
            continue
        parts.append(words(key) + (f" {int(number) + 1}" if number.isdigit() else ""))
    return ", ".join(part for part in parts if part) or "The scenario"


def strengths_of(ruleset: str, scenario: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Return each side's name and strength by its ruleset's measure."""
    gen = get_generator(ruleset)
    return [
        {
            "side": index,
            "name": str(side.get("name", f"Side {index + 1}")),
            "strength": round(gen.strength(side), 2),
            "measure": gen.strength_measure,
        }
        for index, side in enumerate(scenario.get("sides", []))
    ]


def checked_form(
    saved: Saved, side: int, index: int, fields: Mapping[str, list[str]]
) -> dict[str, Any]:
    """Check game night `saved` as it would be with unit `index` of side `side` read from
    its form's `fields`, keeping nothing (the live check of static/edit.js).

    Returns:
        ``problems`` (each path and words), ``strengths`` (none while there are problems),
        ``fields`` (each field's problems by its name), ``unplaced`` (those that match no
        field, in words) and ``derived`` (the fields the rules work out, as worked out
        from what was typed).
    """
    read = read_unit(saved, side, index, fields)
    scenario = scenario_with_unit(saved, side, index, read.unit)
    found = check_game_night(saved, scenario)
    form = unit_form(saved, side, index, read.unit, read.shown, tuple(found.problems))
    placed: dict[str, list[str]] = {}
    stack = list(form.entries)
    while stack:
        entry = stack.pop()
        stack.extend(entry.children)
        if entry.problems:
            placed[entry.name] = entry.problems
    return {
        "problems": [{"path": path, "message": message} for path, message in found.problems],
        "strengths": [] if found.problems else strengths_of(saved.ruleset, found.scenario),
        "fields": placed,
        "unplaced": form.unplaced,
        "derived": read.derived,
    }


def json_fields(raw: Any) -> dict[str, list[str]]:
    """Return a unit's form sent as JSON (``{"name": "value" or ["value", ...]}``) as the
    fields a posted form has, or refuse it in one line."""
    if not isinstance(raw, dict):
        raise InputError('fields: an object of field names and values, e.g. {"name": "Hero"}')
    fields: dict[str, list[str]] = {}
    for name, value in raw.items():
        values = value if isinstance(value, list) else [value]
        for item in values:
            if isinstance(item, bool) or not isinstance(item, str | int | float):
                raise InputError(f"fields: {str(name)[:40]}: text or a number, not {item!r:.20}")
        fields[str(name)] = [_text(item) for item in values]
    return fields


def _posted(form: Any) -> dict[str, list[str]]:
    """Return a posted unit form's fields (name: values), the token and version aside."""
    return {
        key: [str(v) for v in form.getlist(key) if isinstance(v, str)]
        for key in form
        if key not in ("token", "version")
    }


# --- the pages ----------------------------------------------------------------------------


async def _changing(request: Request, change: Callable[[], UnitsChanged]) -> UnitsChanged:
    """Make a change of a game night's units off the event loop; a scenario it leaves with
    problems is refused (422, nothing kept) with each problem's place said in words."""
    try:
        return await state_of(request).run_quick(change)
    except CheckedProblems as refused:
        saved = state_of(request).store.scenario(
            check_number(request.path_params["id"], "game night")
        )
        lines = [f"{where_words(saved, path)}: {message}" for path, message in refused.located]
        raise CheckedProblems(lines, refused.located) from None


def _after(request: Request, number: int, side: int, changed: UnitsChanged) -> str:
    """Return where a change of units leads: the night page saying what was done (at the
    words, above the sides), or at the side's units when there is nothing to say."""
    if changed.said:
        return said_link(request, number, changed.said)
    return f"/nights/{number}#units-{side}"


def _numbers(request: Request) -> tuple[int, int]:
    number = check_number(request.path_params["id"], "game night")
    side = check_number(request.path_params["side"], "side")
    return number, side


def routes(pages: Pages) -> list[Route]:
    """Return the routes that edit a game night's forces (forms read with `pages`' reader,
    which refuses one without the form token)."""

    def page(
        request: Request,
        saved: Saved,
        side: int,
        index: int,
        form: UnitForm,
        code: int = 200,
    ) -> Response:
        gen = get_generator(saved.ruleset)
        units = saved.scenario["sides"][side][gen.units]
        name = str(units[index].get("name", f"{gen.unit_word} {index + 1}"))
        return pages.render(
            request,
            "unit.html.j2",
            code,
            title=f"{name} · {saved.title}",
            night=saved,
            side=side,
            index=index,
            unit_name=name,
            side_name=str(saved.scenario["sides"][side].get("name", f"Side {side + 1}")),
            unit_word=gen.unit_word,
            form=form,
            shown_prefix=SHOWN,
            seed=fresh_seed(),
            count=len(units),
        )

    async def edit(request: Request) -> Response:
        number, side = _numbers(request)
        index = check_number(request.path_params["index"], "unit")
        saved = state_of(request).store.scenario(number)
        unit = unit_in(saved, side, index)
        form = await state_of(request).run_quick(lambda: unit_form(saved, side, index, unit))
        return page(request, saved, side, index, form)

    async def save(request: Request) -> Response:
        posted = await pages.form(request)
        number, side = _numbers(request)
        index = check_number(request.path_params["index"], "unit")
        version = pages.whole(posted, "version", "version")
        fields = _posted(posted)
        store = state_of(request).store
        saved = store.scenario(number)
        read = await state_of(request).run_quick(lambda: read_unit(saved, side, index, fields))
        try:
            await state_of(request).run_quick(
                lambda: change_unit(store, number, side, index, read.unit, version)
            )
        except CheckedProblems as refused:
            located = refused.located
            form = await state_of(request).run_quick(
                lambda: unit_form(saved, side, index, read.unit, read.shown, located)
            )
            return page(request, saved, side, index, form, 422)
        return RedirectResponse(f"/nights/{number}#units-{side}", status_code=303)

    async def add(request: Request) -> Response:
        posted = await pages.form(request)
        number, side = _numbers(request)
        seed = pages.whole(posted, "seed", "seed")
        version = pages.whole(posted, "version", "version")
        store = state_of(request).store
        changed = await _changing(request, lambda: add_unit(store, number, side, seed, version))
        link = _after(request, number, side, changed)
        return RedirectResponse(link, status_code=303)

    def _unit(posted: Any) -> int:
        index = pages.whole(posted, "unit", "unit")
        if index is None:
            raise InputError("unit: choose the unit to change")
        return index

    async def roll(request: Request) -> Response:
        posted = await pages.form(request)
        number, side = _numbers(request)
        index = _unit(posted)
        seed = pages.whole(posted, "seed", "seed")
        version = pages.whole(posted, "version", "version")
        store = state_of(request).store
        changed = await _changing(
            request, lambda: roll_unit_again(store, number, side, index, seed, version)
        )
        link = _after(request, number, side, changed)
        return RedirectResponse(link, status_code=303)

    async def remove(request: Request) -> Response:
        posted = await pages.form(request)
        number, side = _numbers(request)
        index = _unit(posted)
        version = pages.whole(posted, "version", "version")
        store = state_of(request).store
        changed = await _changing(request, lambda: remove_unit(store, number, side, index, version))
        link = _after(request, number, side, changed)
        return RedirectResponse(link, status_code=303)

    base = "/nights/{id}/units/{side}"
    return [
        Route(f"{base}/add", add, methods=["POST"]),
        Route(f"{base}/roll", roll, methods=["POST"]),
        Route(f"{base}/remove", remove, methods=["POST"]),
        Route(f"{base}/{{index}}", edit, methods=["GET"]),
        Route(f"{base}/{{index}}", save, methods=["POST"]),
    ]


def night_units(saved: Saved) -> dict[str, Any]:
    """Return what the night page's form of each side's units shows: each side's units'
    names, a fresh seed for a unit added or rolled again, the most units a side may have."""
    key = units_key(saved.ruleset)
    names = [
        [str(unit.get("name", "")) for unit in side.get(key, [])]
        for side in saved.scenario.get("sides", [])
    ]
    return {"names": names, "seed": fresh_seed(), "most": MAX_SHIPS}
