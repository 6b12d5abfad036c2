"""The odds page: a dice expression, two compared, or a resolver with its inputs -> the
exact chances as a bar chart (inline SVG, drawn here on the server) and a table.

The chances come from the application layer (`generator.app.rolls`,
`generator.app.resolving`), the same that ``quartermaster odds`` and ``quartermaster
resolve --odds`` print; this module only lays them out. The page is one GET form per
question, so it works without JavaScript and its address can be kept or shared.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import groupby
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from generator.app.resolving import ResolveRequest, find_resolver, find_resolvers, resolve_odds
from generator.app.rolls import dice_odds, versus_odds
from generator.dice import mean
from generator.dice.notation import MAX_LENGTH
from generator.dice.show import EXACT_MEAN_LENGTH, fraction_text, mean_text, percent_text
from generator.dice.versus import bars, versus
from generator.errors import InputError, one_line
from generator.loading import HouseRules, Rules
from generator.resolve import Param, Resolver
from generator.web.state import state_of

Render = Callable[..., HTMLResponse]
"""How a page is rendered: `generator.web.pages.render` (handed in: pages imports this)."""

MAX_SHOWN = 1000
"""The most totals drawn and listed; more are left to the command line and the API, which
give every one (a page of 200,000 table rows helps nobody at the table)."""
QUESTION = frozenset({"expression", "vs", "resolver", "chosen"})
"""The query's own words: a resolver's inputs share the query, so none may be named so."""

# The vertical chart, in pixels (heights) and per cent of the chart's width (across), so
# that it takes the page's width while its words keep their size on a phone.
TOP, PLOT, AXIS = 10, 200, 26
GUTTER = 9.0  # per cent at the left for the gridlines' labels
LABEL_PX = 7.5  # about how wide a digit of an axis label is drawn
NARROW_PX, WIDE_PX = 300, 1000  # the plot's width on a phone and on a laptop
ROW = 44  # the height of one outcome of a resolver's chart


@dataclass(frozen=True)
class Column:
    """One bar of a chart: where it is (per cent across, pixels down), its series and
    what it says when pointed at or read aloud."""

    x: str
    width: str
    y: str
    height: str
    series: int
    title: str


@dataclass(frozen=True)
class Tick:
    """A label under the chart; `minor` labels are hidden when the chart is narrow."""

    x: str
    text: str
    minor: bool


@dataclass(frozen=True)
class Gridline:
    """A chance marked across the chart, at `y` pixels."""

    y: str
    text: str


@dataclass(frozen=True)
class Chart:
    """A vertical bar chart of one or two distributions over the same totals."""

    label: str
    height: int
    columns: tuple[Column, ...]
    ticks: tuple[Tick, ...]
    grid: tuple[Gridline, ...]
    left: str
    bottom: int


@dataclass(frozen=True)
class Row:
    """One total of a distribution as the table lists it."""

    total: str
    chance: str
    percent: str
    at_least: str
    at_most: str


@dataclass(frozen=True)
class Shown:
    """A distribution as the page shows it: its mean and its rows (None when it has
    more totals than a page lists)."""

    expression: str
    mean: str
    exact_mean: str
    count: int
    rows: tuple[Row, ...] | None


@dataclass(frozen=True)
class Chance:
    """One line of the comparison: beats, ties or loses, with its chance."""

    word: str
    percent: str
    exact: str


@dataclass(frozen=True)
class Outcome:
    """One outcome of a resolver: its chart row and table row."""

    result: str
    chance: str
    percent: str
    y: int
    width: str


@dataclass(frozen=True)
class Field:
    """One input of a resolver as a form field: its words, its kind, what it allows, the
    value shown in it (as typed, or its default), and the words of a choice left empty
    (None: a choice must be made)."""

    name: str
    label: str
    help: str
    kind: str
    required: bool
    value: str
    choices: tuple[str, ...]
    blank: str | None
    note: str


# --- dice ---------------------------------------------------------------------------------


def _percent(chance: Fraction) -> str:
    return percent_text(chance.numerator, chance.denominator) + "%"


def shown_odds(expression: str, chances: dict[int, Fraction], average: Fraction) -> Shown:
    """Return a distribution as the page lists it, in the command line's numbers."""
    exact = fraction_text(average) if average.denominator != 1 else ""
    rows = None
    if len(chances) <= MAX_SHOWN:
        rows = tuple(
            Row(
                str(bar.total),
                fraction_text(bar.chance),
                _percent(bar.chance),
                _percent(bar.at_least),
                _percent(bar.at_most),
            )
            for bar in bars(chances)
        )
    return Shown(
        expression,
        mean_text(average),
        exact if len(exact) <= EXACT_MEAN_LENGTH else "",
        len(chances),
        rows,
    )


def _nice(value: float) -> float:
    """Return the smallest 1, 2, 2.5 or 5 times a power of ten at least `value`."""
    power = 10.0 ** math.floor(math.log10(value))
    return next(step * power for step in (1.0, 2.0, 2.5, 5.0, 10.0) if step * power >= value)


def _step(count: int, width_px: int, label_chars: int) -> int:
    """Return every how many totals (1, 2 or 5 times a power of ten) a label fits under a
    chart `width_px` wide."""
    need = (label_chars * LABEL_PX + 8) * count / width_px
    step = 1
    while True:
        for times in (1, 2, 5):
            if step * times >= need:
                return step * times
        step *= 10


def dice_chart(series: list[tuple[str, dict[int, Fraction]]]) -> Chart | None:
    """Draw one distribution, or two side by side, as bars over their totals (None when
    there are more totals than a page draws).

    Bars share one scale (the likeliest total of either reaches the top), each labelled
    with its total and chance; the totals are labelled underneath, fewer on a phone.
    """
    totals = sorted({total for _, chances in series for total in chances})
    if len(totals) > MAX_SHOWN:
        return None
    place = {total: index for index, total in enumerate(totals)}
    peak = max(chance for _, chances in series for chance in chances.values())
    across = 100.0 - GUTTER
    slot = across / len(totals)
    width = slot * 0.8 / len(series)
    columns = []
    for number, (expression, chances) in enumerate(series):
        for total, chance in sorted(chances.items()):
            tall = max(float(chance / peak) * PLOT, 1.0)
            x = GUTTER + place[total] * slot + slot * 0.1 + number * width
            columns.append(
                Column(
                    f"{x:.3f}%",
                    f"{width:.3f}%",
                    f"{TOP + PLOT - tall:.2f}",
                    f"{tall:.2f}",
                    number,
                    f"{expression}: {total}, {fraction_text(chance)} ({_percent(chance)})",
                )
            )
    return Chart(
        label=_chart_label(series),
        height=TOP + PLOT + AXIS,
        columns=tuple(columns),
        ticks=_ticks(totals, slot),
        grid=_grid(peak),
        left=f"{GUTTER:.1f}%",
        bottom=TOP + PLOT,
    )


def _chart_label(series: list[tuple[str, dict[int, Fraction]]]) -> str:
    names = " and ".join(expression for expression, _ in series)
    low = min(min(chances) for _, chances in series)
    high = max(max(chances) for _, chances in series)
    return f"Bar chart of the chance of each total of {names}, from {low} to {high}"


def _ticks(totals: list[int], slot: float) -> tuple[Tick, ...]:
    """Label the totals under the chart: as many as fit on a laptop, the `minor` ones
    hidden on a phone; on round numbers when the totals run without gaps."""
    chars = max(len(str(total)) for total in totals)
    narrow = _step(len(totals), NARROW_PX, chars)
    wide = min(narrow, _step(len(totals), WIDE_PX, chars))
    running = totals[-1] - totals[0] == len(totals) - 1
    ticks = []
    for index, total in enumerate(totals):
        key = total if running else index
        if key % wide:
            continue
        x = GUTTER + (index + 0.5) * slot
        ticks.append(Tick(f"{x:.3f}%", str(total), bool(key % narrow)))
    return tuple(ticks)


def _grid(peak: Fraction) -> tuple[Gridline, ...]:
    """Mark round chances across the chart, three or four of them below the peak."""
    top = float(peak) * 100
    step = _nice(top / 4)
    lines = []
    for times in range(1, 5):
        mark = step * times
        if mark > top * (1 + 1e-9):
            break
        y = TOP + PLOT - mark / top * PLOT
        lines.append(Gridline(f"{y:.2f}", f"{mark:.4g}%"))
    return tuple(lines)


def versus_lines(a: dict[int, Fraction], b: dict[int, Fraction]) -> tuple[Chance, ...]:
    """Return how often a roll of `a` beats, ties and loses to one of `b`, as
    ``odds A --vs B`` says it."""
    result = versus(a, b)
    return tuple(
        Chance(word, _percent(chance), fraction_text(chance))
        for word, chance in (
            ("beats", result.beats),
            ("ties", result.ties),
            ("loses", result.loses),
        )
    )


def dice_answer(expression: str, vs: str | None) -> dict[str, Any]:
    """Count and lay out the odds of `expression` (and of `vs`, compared with it)."""
    found = dice_odds(expression)
    series = [(found.expression, found.chances)]
    shown = [shown_odds(found.expression, found.chances, found.mean)]
    compared: tuple[Chance, ...] = ()
    if vs is not None:
        other = versus_odds(vs)
        series.append((vs, other))
        shown.append(shown_odds(vs, other, mean(other)))
        compared = versus_lines(found.chances, other)
    return {"chart": dice_chart(series), "shown": shown, "compared": compared}


# --- resolvers ----------------------------------------------------------------------------


def resolver_groups(rules: Rules, resolvers: tuple[Resolver, ...]) -> list[dict[str, Any]]:
    """Return the resolvers by ruleset (in the rules' order), for the list to choose from."""
    return [
        {"title": rules.rulesets[ruleset].title, "resolvers": list(grouped)}
        for ruleset, grouped in groupby(resolvers, key=lambda r: r.ruleset)
    ]


def _words(name: str) -> str:
    return name.replace("_", " ").replace("-", " ").capitalize()


def _default(param: Param) -> str:
    if param.required or param.default is None:
        return ""
    if isinstance(param.default, bool):
        return "yes" if param.default else "no"
    return str(param.default)


def _note(param: Param) -> str:
    """Say what an input allows and what leaving it empty means, in a few words."""
    low, high = param.minimum, param.maximum
    span = ""
    if param.kind == "int" and low is not None and high is not None:
        span = f"{low} to {high}"
    elif param.kind == "int" and low is not None:
        span = f"at least {low}"
    elif param.kind == "int" and high is not None:
        span = f"at most {high}"
    left = "required" if param.required else "optional" if param.default is None else ""
    return ", ".join(part for part in (span, left) if part)


def _blank(param: Param) -> str | None:
    """Return the words of a choice left empty: one must be made, or it may be left out."""
    if param.required:
        return "choose…"
    return "not given" if param.default is None else None


def input_fields(resolver: Resolver, rules: Rules, typed: Mapping[str, str]) -> list[Field]:
    """Return a field per input of `resolver`, showing what was `typed` (an input not
    sent shows its default, as leaving it out of the command line means)."""
    fields = []
    for param in resolver.params:
        choices: tuple[str, ...] = ()
        if param.kind == "choice":
            choices = param.allowed(rules)
        elif param.kind == "bool":
            choices = ("yes", "no")
        value = typed[param.name] if typed and param.name in typed else _default(param)
        fields.append(
            Field(
                name=param.name,
                label=_words(param.name),
                help=param.help,
                kind=param.kind,
                required=param.required,
                value=value,
                choices=choices,
                blank=_blank(param),
                note=_note(param),
            )
        )
    return fields


def resolver_answer(
    resolver_id: str, typed: Mapping[str, str], house: HouseRules | None = None
) -> dict[str, Any]:
    """Count the chance of each outcome of `resolver_id` given the inputs `typed` (empty
    ones left out, as if not typed on the command line), by the rules with `house` rules."""
    values = tuple(f"{name}={value}" for name, value in typed.items() if value.strip())
    made = resolve_odds(ResolveRequest(resolver_id, values, rules_file=house))
    ordered = [
        (result, chance)
        for result, chance in sorted(made.chances.items(), key=lambda kv: (-kv[1], kv[0]))
        if chance
    ]
    peak = ordered[0][1]
    outcomes = [
        Outcome(
            result,
            fraction_text(chance),
            _percent(chance),
            index * ROW,
            f"{max(float(chance / peak) * 100, 0.3):.3f}%",
        )
        for index, (result, chance) in enumerate(ordered)
    ]
    given = [f"{_words(name)}: {_shown_value(value)}" for name, value in made.inputs.items()]
    return {"outcomes": outcomes, "given": given, "height": ROW * len(outcomes)}


def _shown_value(value: object) -> str:
    if value is None:
        return "not given"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def field_named(message: str, fields: list[Field]) -> str | None:
    """Return the input a resolver's refusal is about (``duel.attack: expertise=abc: ...``,
    ``missing weapon=VALUE``), so the page can mark its field; None if it names none."""
    head = message.split(": ", 1)[-1]
    for field in fields:
        if head.startswith((f"{field.name}=", f"missing {field.name}=")):
            return field.name
    return None


# --- the page -----------------------------------------------------------------------------


def _typed(query: Mapping[str, str], name: str) -> str | None:
    value = query.get(name)
    return None if value is None else value[: MAX_LENGTH + 1]  # longer is refused, in its words


def odds_routes(render: Render) -> list[Route]:
    """Return the odds page's routes, rendered by `render` (the pages' renderer)."""

    async def odds_page(request: Request) -> Response:
        return await odds_view(request, render, action="/odds")

    return [Route("/odds", odds_page, methods=["GET"])]


async def odds_view(
    request: Request,
    render: Render,
    *,
    action: str,
    ruleset: str | None = None,
    house: HouseRules | None = None,
    **context: Any,
) -> Response:
    """The odds page at `action` (its forms' address): dice, and the resolvers of every
    ruleset or of `ruleset`, by the rules with `house` rules on top (a game's page for its
    players); `context` goes to the template as well."""
    state = state_of(request)
    query = request.query_params
    expression, vs = _typed(query, "expression"), _typed(query, "vs")
    chosen_id = (query.get("resolver") or "").strip()
    found = await state.run_quick(lambda: find_resolvers(ruleset, house))
    page: dict[str, Any] = {
        "action": action,
        "expression": expression or "",
        "vs": vs or "",
        "groups": resolver_groups(found.rules, found.resolvers),
        "chosen_id": chosen_id,
        "chosen": None,
        "fields": [],
        "dice": None,
        "resolved": None,
        "problem": None,
        "asked": None,
        "max_shown": MAX_SHOWN,
        "max_length": MAX_LENGTH,
        "invalid": None,
        **context,
    }
    try:
        if chosen_id:
            page["asked"] = "resolver"
            if ruleset is not None and not chosen_id.startswith(f"{ruleset}."):
                raise InputError(f"{chosen_id}: not a resolver of {ruleset}, which this game plays")
            await _resolver_part(state, query, chosen_id, page, house)
        elif expression is not None:
            page["asked"] = "dice"
            compare = vs if vs and vs.strip() else None
            page["dice"] = await state.run_quick(
                lambda: dice_answer(expression.strip(), compare and compare.strip())
            )
    except InputError as error:
        page["problem"] = one_line(str(error).splitlines()[0])
        if page["asked"] == "dice":
            page["invalid"] = "vs" if page["problem"].startswith("--vs:") else "expression"
        else:
            page["invalid"] = field_named(page["problem"], page["fields"])
        return render(request, "odds.html.j2", 400, title="Odds", **page)
    return render(request, "odds.html.j2", title="Odds", **page)


async def _resolver_part(
    state: Any, query: Any, chosen_id: str, page: dict[str, Any], house: HouseRules | None
) -> None:
    """Fill `page` with the chosen resolver's fields and, once they are sent (the form
    names the resolver it was made for in ``chosen``), its odds."""
    one = await state.run_quick(lambda: find_resolver(chosen_id, house))
    resolver = one.resolvers[0]
    page["chosen"] = resolver
    sent = query.get("chosen") == resolver.id
    typed = {p.name: query[p.name] for p in resolver.params if p.name in query} if sent else {}
    page["fields"] = input_fields(resolver, one.rules, typed)
    if sent or not resolver.params:
        page["resolved"] = await state.run_quick(lambda: resolver_answer(resolver.id, typed, house))
