"""A ship's log as data: a ruleset's generator fills a `Log` (`RulesetContract.ship_log`),
whose `card` is a frozen `LogCard` that the ship-log sheet lays out.

A card holds her name and tags, lines of particulars, write-in boxes for a blank log's
particulars (`Head`), her ratings (`Fact`), the numbers worked out from them (`Figure`), and
rows (`Full`, `Pair`) of sections: rows of boxes to cross off (`Tracks` of `Track`), check
boxes (`Checks`), write-in boxes (`WriteIns`), a track of spaces (`Choice`) and small
tables (`Table`); then the turn log's fewest rows and its columns. Every box is a form
field named after the card's prefix, with a tooltip in the sheet's words (`LogCard.tips`).
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

TALLY_POINTS = 10  # a tally track's box is worth 10 points ...
MAX_TALLY_BOXES = 100  # ... or 20, 50, 100 ... so that no track has more boxes than this


def slug(text: str) -> str:
    """Return `text` as part of a PDF field name: lower-case ASCII, digits and ``_``."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "_", ascii_text.lower()).strip("_") or "x"


def tally(points: int) -> tuple[int, int]:
    """Return (boxes, points a box) for a Hit Points track of `points`: 10 points a box, or
    20, 50, 100 ... where 10 would make more than MAX_TALLY_BOXES boxes."""
    unit, steps = TALLY_POINTS, (2.0, 2.5, 2.0)
    step = 0
    while math.ceil(points / unit) > MAX_TALLY_BOXES:
        unit = int(unit * steps[step % 3])
        step += 1
    return max(math.ceil(points / unit), 1), unit


def dice(expression: str, plus: int, *, upper: bool = False) -> str:
    """Return a roll as printed: ``2d6`` and 1 give ``2d6+1`` (``2D6+1`` with `upper`)."""
    text = expression.upper() if upper else expression
    return f"{text}{plus:+d}" if plus else text


def tooltip(name: str | None, words: str) -> str:
    """Return a field's tooltip: `words`, after her name on a log of a named ship (a page
    holds several logs)."""
    return f"{name}: {words}" if name else words


# ---------------------------------------------------------------- the card's parts


@dataclass(frozen=True)
class Head:
    """A write-in box for a particular of a blank log (class, captain ...)."""

    label: str
    field: str
    width: float  # mm


@dataclass(frozen=True)
class Fact:
    """A rating printed beside her particulars (`value` None: written in)."""

    label: str
    value: str | None
    field: str


@dataclass(frozen=True)
class Figure:
    """A number worked out from her ratings, and how it is made up (`value` None: a
    write-in box `width` mm wide, `how` saying how to work it out)."""

    label: str
    value: str | None
    how: str
    field: str
    width: float


@dataclass(frozen=True)
class Check:
    """One or more check boxes with their label."""

    label: str
    fields: tuple[str, ...]


Mark = Literal["half", "tick"]


@dataclass(frozen=True)
class Track:
    """A row of boxes to cross off, its label and value (or a write-in box for it)."""

    label: str
    value: str | None
    value_field: str | None  # a blank log's write-in box for the value
    boxes: tuple[str, ...]
    # (after how many boxes, which mark), in order: the ½ mark or a tick
    marks: tuple[tuple[int, Mark], ...]
    note: str
    end: str  # what happens when the last box is crossed off
    sub: str  # a line under the label
    write_width: float  # the value's write-in box, mm
    after: tuple[Check, ...]  # check boxes after the boxes


@dataclass(frozen=True)
class Tracks:
    """A section of rows of boxes (`group`: a title, and the officers' wider labels)."""

    rows: tuple[Track, ...]
    group: str = ""


@dataclass(frozen=True)
class Checks:
    """A section of labelled check boxes."""

    entries: tuple[Check, ...]


@dataclass(frozen=True)
class WriteIn:
    label: str
    field: str
    width: float  # mm


@dataclass(frozen=True)
class WriteIns:
    """A section of labelled write-in boxes."""

    entries: tuple[WriteIn, ...]


@dataclass(frozen=True)
class Option:
    label: str
    start: bool  # her starting space (underlined)
    field: str


@dataclass(frozen=True)
class Choice:
    """A track of spaces, one box each."""

    label: str
    options: tuple[Option, ...]


@dataclass(frozen=True)
class TextCell:
    text: str


@dataclass(frozen=True)
class CheckCell:
    """A table cell of check boxes."""

    fields: tuple[str, ...]


@dataclass(frozen=True)
class WriteCell:
    """A table cell with a write-in box."""

    field: str
    width: float  # mm


Cell = TextCell | CheckCell | WriteCell


@dataclass(frozen=True)
class TableRow:
    label: str
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class Table:
    """A small table: its head and rows (a label and a cell for each column after it)."""

    head: tuple[str, ...]
    rows: tuple[TableRow, ...]


Section = Tracks | Checks | WriteIns | Choice | Table


@dataclass(frozen=True)
class Full:
    """A row of the log the log's width."""

    sections: tuple[Section, ...]


@dataclass(frozen=True)
class Pair:
    """A row of two columns, each of sections."""

    left: tuple[Section, ...]
    right: tuple[Section, ...]


Row = Full | Pair


@dataclass(frozen=True)
class LogCard:
    """One ship's log (`name` None: a blank log to write a ship into)."""

    name: str | None
    prefix: str  # every field's name starts with it
    name_field: str
    tips: Mapping[str, str]  # each field's tooltip by its name
    tags: tuple[str, ...]
    lines: tuple[str, ...]
    heads: tuple[Head, ...]
    facts: tuple[Fact, ...]
    figures: tuple[Figure, ...]
    rows: tuple[Row, ...]
    turn_log: tuple[int, int]  # the turn log's fewest rows and its columns

    def sections(self) -> Iterator[Section]:
        """Yield every section of the log, row by row, left before right."""
        for row in self.rows:
            if isinstance(row, Full):
                yield from row.sections
            else:
                yield from row.left
                yield from row.right


# ---------------------------------------------------------------- building a card


@dataclass
class _Parts:
    tips: dict[str, str] = field(default_factory=dict)
    tags: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    heads: list[Head] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)
    turn_log: tuple[int, int] = (1, 1)


class Log:
    """Builds one ship's log; every field name starts with the log's prefix, and every
    field has a tooltip in the sheet's words (a viewer shows it, a screen reader reads it;
    the name is the program's). `card` is what has been built, frozen."""

    def __init__(self, prefix: str, name: str | None) -> None:
        self.prefix = prefix
        self.name = name
        self._parts = _Parts()
        self.name_field = self.field("name", tip="Ship’s name")

    @property
    def card(self) -> LogCard:
        """The log as built so far, frozen."""
        parts = self._parts
        return LogCard(
            name=self.name,
            prefix=self.prefix,
            name_field=self.name_field,
            tips=MappingProxyType(dict(parts.tips)),
            tags=tuple(parts.tags),
            lines=tuple(parts.lines),
            heads=tuple(parts.heads),
            facts=tuple(parts.facts),
            figures=tuple(parts.figures),
            rows=tuple(parts.rows),
            turn_log=parts.turn_log,
        )

    def field(self, *parts: Any, tip: str) -> str:
        """Return the name of the field `parts` name (after the log's prefix); keep `tip`,
        what it is in the sheet's words, as its tooltip (her name first, if she has one)."""
        name = "_".join([self.prefix, *(slug(str(p)) for p in parts)])
        self._parts.tips[name] = tooltip(self.name, tip)
        return name

    def cell_field(self, parts: Sequence[Any], box: int | None = None) -> str:
        """A table cell's field: its row's label and what the cell holds ("Port: loaded"),
        and with `box` which of the cell's boxes ("Port: reload, box 2")."""
        label, *rest = (str(p) for p in parts)
        label = label[:1].upper() + label[1:]  # a key ("port") as the row says it
        tip = f"{label}: {' '.join(rest)}" if rest else label
        if box is None:
            return self.field(*parts, tip=tip)
        return self.field(*parts, box, tip=f"{tip}, box {box}")

    def tag(self, text: str) -> None:
        """A word after her name (``Flagship``)."""
        self._parts.tags.append(text)

    def lines(self, *texts: str) -> None:
        """Lines of her particulars under her name (class, captain ...)."""
        self._parts.lines.extend(texts)

    def head(self, label: str, width_mm: float) -> None:
        """A write-in box for a particular of a blank log (class, captain ...)."""
        self._parts.heads.append(Head(label, self.field(label, tip=label), width_mm))

    def fact(self, label: str, value: Any | None) -> None:
        """A rating printed (or, when None, written in) beside the particulars."""
        self._parts.facts.append(
            Fact(label, None if value is None else str(value), self.field(label, tip=label))
        )

    def figure(self, label: str, value: str | None, how: str = "", width: float = 12.0) -> None:
        """A number worked out from the ship's ratings (her roll, range, dice ...), with
        how it is made up; None: a write-in box `width` mm wide (a blank log), `how`
        then saying how to work it out."""
        self._parts.figures.append(
            Figure(label, value, how, self.field("figure", label, tip=label), width)
        )

    def track(
        self,
        label: str,
        count: int,
        value: Any | None = None,
        *,
        blank: bool = False,
        note: str = "",
        sub: str = "",
        write_width: float = 8.0,
        half_after: int | None = None,
        ticks: Sequence[int] = (),
        end: str = "",
        after: Sequence[Check] = (),
    ) -> Track:
        """A row of `count` boxes to cross off; `value` prints beside the label, or with
        `blank` a write-in box does.

        Args:
            half_after: the ½ mark after that many boxes.
            ticks: a tick after each of these many boxes (a level where something happens).
            end: what happens when the last box is crossed off (printed after the boxes).
            note: a short note printed after the boxes.
            sub: a line under the label.
            after: check boxes after the row (`check`).
        """
        key = slug(label)
        count = max(count, 0)
        marks: dict[int, Mark] = {int(n): "tick" for n in ticks if 0 < int(n) < count}
        if half_after is not None and 0 < half_after < count:
            marks[half_after] = "half"
        return Track(
            label=label,
            value=None if value is None else str(value),
            value_field=self.field(key, "value", tip=label) if blank else None,
            boxes=tuple(self.field(key, i + 1, tip=f"{label}, box {i + 1}") for i in range(count)),
            marks=tuple(sorted(marks.items())),
            note=note,
            end=end,
            sub=sub,
            write_width=write_width,
            after=tuple(after),
        )

    def check(self, label: str, count: int = 1, key: str | None = None) -> Check:
        """`count` check boxes with their label (`key` names the fields instead)."""
        stem = key or label
        # a key is the box in words where the label is short ("MF" after a mast: "Foremast fire")
        said = stem[:1].upper() + stem[1:]
        if count == 1:
            return Check(label, (self.field(stem, tip=said),))
        return Check(
            label,
            tuple(self.field(stem, i + 1, tip=f"{said}, box {i + 1}") for i in range(count)),
        )

    def checks(self, *labels: str | tuple[str, int]) -> Checks:
        """A section of labelled check boxes; a (label, n) pair has n boxes."""
        return Checks(
            tuple(self.check(*x) if isinstance(x, tuple) else self.check(x) for x in labels)
        )

    def writeins(self, *labels: tuple[str, float]) -> WriteIns:
        """A section of labelled write-in boxes (label, width in mm)."""
        return WriteIns(
            tuple(WriteIn(label, self.field(label, tip=label), width) for label, width in labels)
        )

    def choice(self, label: str, options: Sequence[str], start: str | None) -> Choice:
        """A track of spaces, one box each; `start` (her starting space) is underlined."""
        return Choice(
            label,
            tuple(
                Option(option, option == start, self.field(label, option, tip=f"{label}: {option}"))
                for option in options
            ),
        )

    def table(self, head: Sequence[str], rows: Sequence[tuple[str, Sequence[str | Cell]]]) -> Table:
        """A small table: `head` and (row label, cells) rows; a cell is a text, a check box
        (`cell_checks`) or a write-in box (`cell_write`)."""
        return Table(
            tuple(head),
            tuple(
                TableRow(label, tuple(TextCell(c) if isinstance(c, str) else c for c in cells))
                for label, cells in rows
            ),
        )

    def cell_checks(self, *parts: Any, count: int = 1) -> CheckCell:
        """A table cell of `count` check boxes."""
        if count == 1:
            return CheckCell((self.cell_field(parts),))
        return CheckCell(tuple(self.cell_field(parts, i + 1) for i in range(count)))

    def cell_write(self, *parts: Any, width: float = 12.0) -> WriteCell:
        """A table cell with a write-in box `width` mm wide."""
        return WriteCell(self.cell_field(parts), width)

    def full(self, *sections: Section) -> None:
        """A row of sections, the log's width."""
        self._parts.rows.append(Full(tuple(sections)))

    def pair(self, left: Sequence[Section], right: Sequence[Section]) -> None:
        """A row of two columns of sections (the right one `Columns.right` wide)."""
        self._parts.rows.append(Pair(tuple(left), tuple(right)))

    def turn_log(self, rows: int, cols: int) -> None:
        """The turn log's fewest rows and its columns (a page's spare height adds rows)."""
        self._parts.turn_log = (rows, cols)


def tracks(*rows: Track, group: str = "") -> Tracks:
    """A section of rows of boxes (`group`: a title, and the officers' wider labels)."""
    return Tracks(tuple(rows), group)


def card_fields(card: LogCard) -> tuple[frozenset[str], frozenset[str]]:
    """Return the names of the fields a named ship's log marks: (boxes, written)."""
    boxes: set[str] = set()
    written: set[str] = set()
    for section in card.sections():
        if isinstance(section, Tracks):
            for track in section.rows:
                boxes.update(track.boxes)
                for check in track.after:
                    boxes.update(check.fields)
        elif isinstance(section, Checks):
            for check in section.entries:
                boxes.update(check.fields)
        elif isinstance(section, Choice):
            boxes.update(option.field for option in section.options)
        elif isinstance(section, WriteIns):
            written.update(entry.field for entry in section.entries)
        elif isinstance(section, Table):
            for row in section.rows:
                for cell in row.cells:
                    if isinstance(cell, CheckCell):
                        boxes.update(cell.fields)
                    elif isinstance(cell, WriteCell):
                        written.add(cell.field)
    return frozenset(boxes), frozenset(written)
