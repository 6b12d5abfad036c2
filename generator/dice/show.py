"""Show rolls and distributions on the terminal, or as JSON-ready data."""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from rich.console import Console, ConsoleOptions
from rich.markup import escape
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from generator.dice.odds import mean
from generator.dice.rolling import RollResult

if TYPE_CHECKING:
    from generator.dice.versus import Versus

BAR_WIDTH = 30
"""The widest bar of the odds chart, when the terminal has room for it."""
MIN_BAR_WIDTH = 4
"""Narrower than this, the chart is left out rather than squeezed."""
MIN_FOLD_WIDTH = 6
"""A long total or number of ways folds onto more lines, but not narrower than this."""
EXACT_MEAN_LENGTH = 30
"""The exact mean (a fraction) is shown beside the decimal one up to this many characters."""
ODDS_HEADERS = ("total", "ways", "%", "at least", "at most")
# top, under the headers, bottom (left, line, crossing, right): like rich's HEAVY_HEAD
_RULES = (("┏", "━", "┳", "┓"), ("┡", "━", "╇", "┩"), ("└", "─", "┴", "┘"))
_BOLD = Style(bold=True)


def digits(number: int) -> str:
    """Write an integer in full, even past Python's 4300-digit guard for ``str(int)``
    (the exact chances of big exploding pools have denominators that long)."""
    try:
        return str(number)
    except ValueError:
        guard = sys.get_int_max_str_digits()
        sys.set_int_max_str_digits(0)
        try:
            return str(number)
        finally:
            sys.set_int_max_str_digits(guard)


def fraction_text(value: Fraction) -> str:
    """Write a chance as ``num/den`` (reduced), as the JSON output promises."""
    return f"{digits(value.numerator)}/{digits(value.denominator)}"


def odds_json(expression: str, dist: dict[int, Fraction], average: Fraction) -> dict[str, Any]:
    """Return the ``odds --json`` object."""
    return {
        "expression": expression,
        "outcomes": {digits(v): fraction_text(p) for v, p in sorted(dist.items())},
        "mean": digits(average.numerator) if average.denominator == 1 else fraction_text(average),
    }


def show_roll(result: RollResult, seed: int | None, console: Console | None = None) -> None:
    """Print a roll: total, every group with its dice, and the seed to repeat it."""
    console = console or Console(highlight=False)
    console.print(f"[bold]{escape(result.expression)}[/bold] = [bold]{result.total}[/bold]")
    console.print(f"  {escape(result.account)}")
    if seed is not None:
        console.print(f"  seed {seed}", style="dim")


def percent_text(ways: int, denominator: int) -> str:
    """Write the chance ``ways/denominator`` as a percentage with two decimals, never
    rounded to a false 0 or 100: ``27.31``, ``<0.01``, ``>99.99``, ``100.00``, and ``0.00``
    only for no chance at all (``odds 1d6 --vs 7`` never beats)."""
    if ways == denominator:
        return "100.00"
    if ways == 0:
        return "0.00"
    if ways * 10_000 < denominator:
        return "<0.01"
    if ways * 10_000 > denominator * 9_999:
        return ">99.99"
    return f"{ways * 100 / denominator:.2f}"


def mean_text(average: Fraction) -> str:
    """Write a mean to four significant figures (``10.5``, ``2.667``, ``1.235e+40``), even
    one too large for a float."""
    try:
        return f"{float(average):.4g}"
    except OverflowError:
        whole = digits(abs(average.numerator // average.denominator))
        sign = "-" if average < 0 else ""
        return f"{sign}{whole[0]}.{whole[1:4]}e+{len(whole) - 1}"


def odds_ways(dist: dict[int, Fraction]) -> tuple[int, list[tuple[int, int]]]:
    """Return the common denominator of the chances, and each total (lowest first) with
    its ways: its chance times that denominator."""
    denominator = math.lcm(*(p.denominator for p in dist.values()))
    return denominator, [
        (value, dist[value].numerator * (denominator // dist[value].denominator))
        for value in sorted(dist)
    ]


def odds_rows(denominator: int, ways: list[tuple[int, int]]) -> list[tuple[str, ...]]:
    """Return a row of texts per total: total, ways, and the % chance of exactly, at least
    and at most that total."""
    rows: list[tuple[str, ...]] = []
    below = 0
    for value, count in ways:
        rows.append(
            (
                digits(value),
                digits(count),
                percent_text(count, denominator),
                percent_text(denominator - below, denominator),
                percent_text(below + count, denominator),
            )
        )
        below += count
    return rows


def show_odds(
    expression: str,
    dist: dict[int, Fraction],
    average: Fraction,
    console: Console | None = None,
) -> None:
    """Print each total with its exact chance, percentages and a bar chart.

    The exact chances share one denominator, printed once as a key above the table
    (``chance = ways / 6561``), so each row needs only its number of ways. Nothing is cut
    with "…" however narrow the terminal: the chart narrows or is left out first, then
    long numbers fold onto more lines, then the lines between the columns go.
    """
    console = console or Console(highlight=False)
    denominator, ways = odds_ways(dist)
    rows = odds_rows(denominator, ways)
    exact = ""
    if average.denominator != 1 and len(fraction_text(average)) <= EXACT_MEAN_LENGTH:
        exact = f" ({fraction_text(average)})"
    console.print(Text(f"{expression}   mean {mean_text(average)}{exact}", style="bold"))
    console.print(Text(f"chance = ways / {digits(denominator)}", style="dim"))
    natural = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(ODDS_HEADERS)]
    widths, boxed, bar_width = odds_layout(natural, console.width)
    if bar_width:
        peak = max(count for _, count in ways)
        widths = [*widths, bar_width]
        rows = [
            (*row, "█" * max(1, round(bar_width * (count / peak))))
            for row, (_, count) in zip(rows, ways, strict=True)
        ]
    console.print(_OddsTable(widths, boxed, rows), crop=False)


def odds_layout(natural: list[int], width: int) -> tuple[list[int], bool, int]:
    """Fit the odds columns, `natural` wide, into `width`.

    Returns:
        The columns' widths (totals and ways narrowed to fold if need be), whether the
        box is drawn, and the chart's width (0 for no chart).
    """
    for boxed in (True, False):
        # boxed: a line and a space either side of each column; else two spaces between
        overhead = 3 * len(natural) + 1 if boxed else 2 * (len(natural) - 1)
        widths = list(natural)
        while sum(widths) + overhead > width:
            widest = 0 if widths[0] > widths[1] else 1  # fold totals or ways, the wider
            if widths[widest] <= MIN_FOLD_WIDTH:
                break
            widths[widest] -= 1
        spare = width - sum(widths) - overhead
        if spare >= 0 or not boxed:
            chart = min(BAR_WIDTH, spare - 3) if boxed else 0
            return widths, boxed, chart if chart >= MIN_BAR_WIDTH else 0
    raise AssertionError("unreachable: the unboxed layout always returns")


def fold_digits(text: str, width: int) -> list[str]:
    """Split `text` into lines of `width` from the right, so the digits stay in columns."""
    if len(text) <= width:
        return [text]
    head = len(text) % width or width
    return [text[:head]] + [text[i : i + width] for i in range(head, len(text), width)]


class _OddsTable:
    """The odds table as rich segments: drawn here because `rich.table.Table` takes
    seconds over the ten thousand rows of ``odds 1d10000``.

    Numbers are right-justified, the chart (a last column, if `widths` has one more than
    the headers) left-justified; headers and totals are bold.
    """

    def __init__(self, widths: list[int], boxed: bool, rows: list[tuple[str, ...]]) -> None:
        self.widths = widths
        self.boxed = boxed
        self.rows = rows
        self.chart = len(widths) > len(ODDS_HEADERS)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Segment]:
        headers = [*ODDS_HEADERS, ""] if self.chart else list(ODDS_HEADERS)
        if self.boxed:
            yield self._rule(_RULES[0])
        yield from self._line(headers, "┃", _BOLD)
        if self.boxed:
            yield self._rule(_RULES[1])
        for row in self.rows:
            if all(len(c) <= w for c, w in zip(row, self.widths, strict=True)):
                yield from self._line(row, "│", None)
                continue
            folded = [fold_digits(c, w) for c, w in zip(row, self.widths, strict=True)]
            for k in range(max(len(parts) for parts in folded)):
                yield from self._line([p[k] if k < len(p) else "" for p in folded], "│", None)
        if self.boxed:
            yield self._rule(_RULES[2])

    def _rule(self, chars: tuple[str, str, str, str]) -> Segment:
        """Return a rule across the table: its top, the line under the headers, its foot."""
        left, line, cross, right = chars
        return Segment(left + cross.join(line * (w + 2) for w in self.widths) + right + "\n")

    def _line(self, cells: Sequence[str], edge: str, style: Style | None) -> Iterator[Segment]:
        """Yield one line of the table: the total in bold, then the rest in `style`."""
        between = f" {edge} " if self.boxed else "  "
        texts = [cell.rjust(width) for cell, width in zip(cells, self.widths, strict=True)]
        if self.chart:
            texts[-1] = cells[-1].ljust(self.widths[-1])
        yield Segment(f"{edge} {texts[0]}" if self.boxed else texts[0], _BOLD)
        rest = between + between.join(texts[1:])
        yield Segment(f"{rest} {edge}\n" if self.boxed else rest.rstrip() + "\n", style)


def versus_json(
    expression: str, dist: dict[int, Fraction], vs: str, vs_dist: dict[int, Fraction]
) -> dict[str, Any]:
    """Return the ``odds A --vs B --json`` object: the chances that A beats, ties and loses
    to B, then each side as ``odds --json`` gives it."""
    from generator.dice.versus import versus  # not on the start-up of `roll`

    result = versus(dist, vs_dist)
    return {
        "expression": expression,
        "vs": vs,
        "beats": fraction_text(result.beats),
        "ties": fraction_text(result.ties),
        "loses": fraction_text(result.loses),
        "sides": [
            odds_json(expression, dist, mean(dist)),
            odds_json(vs, vs_dist, mean(vs_dist)),
        ],
    }


def versus_heading(
    expression: str, dist: dict[int, Fraction], vs: str, vs_dist: dict[int, Fraction], width: int
) -> list[str]:
    """Return the heading of ``odds A --vs B``: both sides with their means, on one line
    if it fits in `width`, else a line each."""
    sides = (
        f"{expression} (mean {mean_text(mean(dist))})",
        f"vs {vs} (mean {mean_text(mean(vs_dist))})",
    )
    line = " ".join(sides)
    return [line] if len(line) <= width else list(sides)


def versus_rows(result: Versus, width: int) -> list[str]:
    """Return the lines ``beats``, ``ties``, ``loses`` of a `versus` result, each with its
    percentage and exact chance.

    A chance too long for the rest of the line is folded under itself, never cut: the
    numerator, then ``/`` and the denominator, each in pieces as wide as there is room for.
    """
    lines: list[str] = []
    for label, chance in (
        ("beats", result.beats),
        ("ties", result.ties),
        ("loses", result.loses),
    ):
        percent = percent_text(chance.numerator, chance.denominator) + "%"
        lead = f"{label:<5}  {percent:>7}  "
        exact = fraction_text(chance)
        room = max(width - len(lead), MIN_FOLD_WIDTH)
        if len(exact) <= room:
            lines.append(lead + exact)
            continue
        numerator, denominator = exact.split("/")
        pieces = [
            part[i : i + room]
            for part in (numerator, "/" + denominator)
            for i in range(0, len(part), room)
        ]
        lines.append(lead + pieces[0])
        lines.extend(" " * len(lead) + piece for piece in pieces[1:])
    return lines


def show_versus(
    expression: str,
    dist: dict[int, Fraction],
    vs: str,
    vs_dist: dict[int, Fraction],
    console: Console | None = None,
) -> None:
    """Print how often a roll of `expression` is higher than, equal to and lower than one
    of `vs`: a heading with both means, then a line each with the % and exact chance."""
    from generator.dice.versus import versus  # not on the start-up of `roll`

    console = console or Console(highlight=False)
    for line in versus_heading(expression, dist, vs, vs_dist, console.width):
        console.print(Text(line, style="bold"))
    for line in versus_rows(versus(dist, vs_dist), console.width):
        console.print(Text(line), crop=False)
