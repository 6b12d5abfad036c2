"""The counters sheet laid out: the markers and tracks a spec asks for, the blocks of pieces
to cut out (with their crop marks and a pair's folds), the pages they take (as few as they
need, filled alike: `balance`), the header and the key."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from generator.errors import InputError
from generator.loading import Rules
from generator.render import expressions
from generator.render.cells import HEX_MM, SQUARE_MM
from generator.render.draw import Fitted, fit_or_refuse, text_width_mm
from generator.render.kinds.counters.face import LABEL_PT, PT_MM, Counter, Shape, wrap_into
from generator.render.kinds.counters.spec import CounterSpec, Track
from generator.render.paper import get_paper
from generator.render.words import wind_words
from generator.rulesets import SpecError

CELL_MM = {"square": SQUARE_MM, "hex": HEX_MM}
GAP_MM = 3.0  # between two pieces to cut out
MARKER_MM = 14.0  # a square marker (a state, a track's marker, the wind gauge)
MARKER_FRAME_MM = 0.6  # a state marker's frame, inside its cut line
TRACK_BOX_MM = 15.0  # a space of a track: a marker stands in it
TRACK_PER_ROW = 12
CROP_GAP_MM = 1.0  # between a block and its crop marks
CROP_LENGTH_MM = 2.5
CROP_ROOM_MM = CROP_GAP_MM + CROP_LENGTH_MM + 0.5  # round a block, for its marks
# the fold of a counter and its reverse: a dashed line in ink, heavier than the cut lines,
# across the whole row (through the gaps between the pairs) and FOLD_REACH_MM beyond the
# block, where the word "fold" stands at each end
FOLD_REACH_MM = 2.5
FOLD_WORD = "fold"
FOLD_WORD_GAP_MM = 0.6
CROP_MARK_PT = 0.6
HEADING_MM = 7.0  # a block's heading and the rule under it
SECTION_SPACE_MM = 2.5  # between a block (with its crop marks) and the next heading
KEY_PT = 7.0
PAGE_LABEL_PT = 7.5
KEY_GUTTER_MM = 6.0  # between the key's two columns
KEY_SPACE_MM = 0.6  # between its paragraphs


def _track_spaces(track: Track, rules: Rules, ruleset: str, data: Mapping[str, Any]) -> int:
    """The spaces of a track: the scenario's, else the largest the rules allow."""
    said = expressions.text(track.spaces, track.where, scenario=data)
    if said.isdigit() and 1 <= int(said) <= 500:
        return int(said)
    if track.spaces_from:
        table, param = track.spaces_from
        allowed = rules.rulesets[ruleset].tables[table].params.get(param) or []
        numbers = [int(n) for n in (allowed if isinstance(allowed, list | tuple) else [allowed])]
        if numbers:
            return max(numbers)
    raise InputError(
        f"the {track.label.lower()} track: how many spaces? (the scenario says '{said}')"
    )


@dataclass(frozen=True)
class TrackPlan:
    """A track as the scenario has it: its name, its marker's word, its spaces, its note."""

    label: str
    marker: str
    spaces: int
    note: str


def track_plan(track: Track, rules: Rules, ruleset: str, data: Mapping[str, Any]) -> TrackPlan:
    """Return the track the spec's `track` is in scenario `data`."""
    spaces = _track_spaces(track, rules, ruleset, data)
    note = expressions.text(track.note, track.where, scenario=data) if track.note else ""
    return TrackPlan(track.label, track.marker, spaces, note)


@dataclass(frozen=True)
class MarkerWord:
    """A marker's word, on one or two lines at `size` pt."""

    size: float
    lines: tuple[str, ...]


@dataclass(frozen=True)
class MarkerPiece:
    """A marker to cut out and its word, fitted as every marker's is (`marker_items`)."""

    label: str
    word: MarkerWord


class StateMarker(MarkerPiece):
    """A state the rules track on the map (Struck, Fire ...): its word in a red frame."""


class WindGauge(MarkerPiece):
    """The wind gauge: an arrow, set on the map where the wind blows to."""


class TrackMarker(MarkerPiece):
    """The marker that moves on a track: its word white on ink."""


def marker_items(spec: CounterSpec, ships: int, tracks: Sequence[TrackPlan]) -> list[MarkerPiece]:
    """Return the markers to cut out: each state's (as many as the spec says, never more
    than there are ships), the wind gauge, and each track's marker; their words all at one
    size (`_marker_words`)."""
    kinds: list[tuple[type[MarkerPiece], str]] = []
    for marker in spec.markers:
        kinds += [(StateMarker, marker.label)] * min(marker.count, ships)
    if spec.wind is not None:
        kinds.append((WindGauge, "Wind"))
    kinds += [(TrackMarker, track.marker) for track in tracks]
    words = _marker_words([label for _, label in kinds])
    return [kind(label, words[label]) for kind, label in kinds]


def _marker_words(labels: Sequence[str]) -> dict[str, MarkerWord]:
    """Each marker's word inside its frame, on two lines at most, its words kept whole, all
    at one size: the largest at which the longest fits."""
    room = MARKER_MM - 2 * (MARKER_FRAME_MM + 0.55)
    for size in (8.5, 8.0, 7.5, 7.0):
        words = {}
        for label in labels:
            lines = wrap_into(label, "sans-bold", size, [room] * 2, False)
            if lines is None:
                break
            words[label] = MarkerWord(size, tuple(lines))
        else:
            return words
    raise SpecError(f"a marker's word is too long for a {MARKER_MM:g} mm marker: {labels}")


# ---------------------------------------------------------------- blocks, pages


def fold_room() -> float:
    """The room a block of pairs needs at each side for its fold lines' ends and words."""
    word = text_width_mm(FOLD_WORD, "sans-bold", LABEL_PT)
    return max(CROP_ROOM_MM, FOLD_REACH_MM + FOLD_WORD_GAP_MM + word + 0.5)


def per_row(width: float, paper: str, margin: float = CROP_ROOM_MM) -> int:
    """How many pieces `width` mm wide a row of a block holds, with `margin` mm at each
    side for its crop marks (and a pair's fold words)."""
    room = get_paper(paper).printable_mm[0] - 2 * margin
    return max(1, int((room + GAP_MM) // (width + GAP_MM)))


def block_height(rows: int, item_height: float) -> float:
    """The height of a block of `rows` rows, with room for its crop marks above and below."""
    return 2 * CROP_ROOM_MM + rows * item_height + (rows - 1) * GAP_MM


@dataclass
class Section:
    """What the pages hold, in order: a side's counters, the markers, a track."""

    kind: str  # ships, markers, track
    title: str
    items: list[Any]
    per_row: int
    item_w: float
    item_h: float
    side: int = -1
    count: int = 0  # a side's ships
    fold: float | None = None  # a pair's fold, mm down it (None: no reverse)
    marker: str = ""  # a track's marker

    @property
    def rows(self) -> int:
        return -(-len(self.items) // self.per_row)

    def height(self, rows: int) -> float:
        if self.kind == "track":
            return HEADING_MM + rows * self.item_h
        return HEADING_MM + block_height(rows, self.item_h)


def paginate(
    sections: Sequence[Section], room: float, first: float | None = None
) -> list[list[tuple[int, int, int]]]:
    """Split the sections into pages of `room` mm (the first page `first`, where the key
    stands above them): a section is split only between rows, and a track only if it is
    taller than a page.

    Returns, per page, the (section index, first row, end row) it shows."""
    pages: list[list[tuple[int, int, int]]] = [[]]
    left = room if first is None else first
    for index, section in enumerate(sections):
        start = 0
        while start < section.rows:
            rows = section.rows - start
            while rows > 0 and section.height(rows) > left:
                rows -= 1
            if (
                section.kind == "track"
                and rows < section.rows
                and section.height(section.rows) <= room
            ):
                rows = 0  # the whole track on the next page
            if rows == 0:
                if not pages[-1] and left >= room:
                    raise InputError(f"the {section.title} do not fit on a page")
                pages.append([])
                left = room
                continue
            pages[-1].append((index, start, start + rows))
            left -= section.height(rows) + SECTION_SPACE_MM
            start += rows
    return pages


def balance(
    sections: Sequence[Section], room: float, first: float
) -> list[list[tuple[int, int, int]]]:
    """Paginate (`paginate`) onto as few pages as the sections need, filled alike: the
    same height is taken off every page's room, as much as keeps the number of pages, so
    that no page is left mostly empty while another is full."""
    plan = paginate(sections, room, first)
    if len(plan) == 1:
        return plan
    low, high = 0.0, first  # a cut that keeps the pages, and one that does not
    for _ in range(24):
        cut = (low + high) / 2
        try:
            tried = paginate(sections, room - cut, first - cut)
        except InputError:  # a block no longer fits a page
            high = cut
            continue
        if len(tried) == len(plan):
            low, plan = cut, tried
        else:
            high = cut
    return plan


@dataclass(frozen=True)
class Crop:
    """A crop mark: a filled bar, mm from the page's top-left."""

    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class Fold:
    """A row's fold: a dashed line at `y` from `x0` to `x1`, the word at each end (`words`:
    their left ends)."""

    y: float
    x0: float
    x1: float
    words: tuple[float, float]


@dataclass(frozen=True)
class Placed:
    """A piece to cut out (a ship's `Counter` or a `MarkerPiece`) at (x, y) on the page."""

    x: float
    y: float
    piece: Counter | MarkerPiece


@dataclass(frozen=True)
class Block:
    """Rows of a section under its heading at `top` (continued from the page before?)."""

    title: str
    continued: bool
    top: float
    left: float
    right: float


@dataclass(frozen=True)
class PieceBlock(Block):
    """Pieces to cut out in rows, with crop marks round the block."""

    block_top: float
    block_bottom: float
    item_w: float
    item_h: float
    items: tuple[Placed, ...]
    crops: tuple[Crop, ...]


@dataclass(frozen=True)
class ShipBlock(PieceBlock):
    """A side's counters (each with its reverse under it, folded on `folds`)."""

    side: int
    count: int
    folds: tuple[Fold, ...]


@dataclass(frozen=True)
class MarkerBlock(PieceBlock):
    """The markers."""


@dataclass(frozen=True)
class TrackSpace:
    """A numbered space of a track, its top-left at (x, y)."""

    number: int
    x: float
    y: float


@dataclass(frozen=True)
class TrackBlock(Block):
    """A track's spaces (rows of TRACK_PER_ROW); `last` is its last number."""

    spaces: tuple[TrackSpace, ...]
    last: int
    marker: str


@dataclass(frozen=True)
class CounterPage:
    """One page of the sheet: its blocks, its label ("Page 1 of 2"), where its ink ends."""

    number: int
    blocks: tuple[Block, ...]
    label: str
    bottom: float


def _crops(
    left: float, top: float, right: float, bottom: float, xs: Sequence[float], ys: Sequence[float]
) -> list[Crop]:
    """Crop marks continuing the cuts at `xs` (above and below the block) and `ys` (left and
    right of it): filled bars, as (x, y, w, h) in mm."""
    mark = CROP_MARK_PT * PT_MM
    marks = []
    for x in xs:
        for y in (top - CROP_GAP_MM - CROP_LENGTH_MM, bottom + CROP_GAP_MM):
            marks.append({"x": x - mark / 2, "y": y, "w": mark, "h": CROP_LENGTH_MM})
    for y in ys:
        for x in (left - CROP_GAP_MM - CROP_LENGTH_MM, right + CROP_GAP_MM):
            marks.append({"x": x, "y": y - mark / 2, "w": CROP_LENGTH_MM, "h": mark})
    return [Crop(*(round(v, 3) for v in (m["x"], m["y"], m["w"], m["h"]))) for m in marks]


def place_block(
    section: Section, start: int, end: int, top: float, paper: str, hexagon: bool
) -> PieceBlock:
    """Place rows `start` to `end` of a section's pieces under a heading at `top`."""
    page_left = (get_paper(paper).width_mm - get_paper(paper).printable_mm[0]) / 2
    items = section.items[start * section.per_row : end * section.per_row]
    columns = min(section.per_row, len(items))
    width = columns * section.item_w + (columns - 1) * GAP_MM
    left = page_left + (get_paper(paper).printable_mm[0] - width) / 2
    block_top = top + HEADING_MM + CROP_ROOM_MM
    placed = []
    for i, item in enumerate(items):
        column, row = i % section.per_row, i // section.per_row
        x = left + column * (section.item_w + GAP_MM)
        y = block_top + row * (section.item_h + GAP_MM)
        placed.append(Placed(round(x, 3), round(y, 3), item))
    rows = end - start
    bottom = block_top + rows * section.item_h + (rows - 1) * GAP_MM
    xs: list[float] = []
    if not (hexagon and section.kind == "ships"):  # a hex's sides are no straight cut
        for c in range(columns):
            x = left + c * (section.item_w + GAP_MM)
            xs += [x, x + section.item_w]
    ys: list[float] = []
    for r in range(rows):
        y = block_top + r * (section.item_h + GAP_MM)
        ys += [y, y + section.item_h]
    folds = []
    fold = section.fold
    if fold is not None:  # a pair's fold, across the row and past the block's ends
        word = text_width_mm(FOLD_WORD, "sans-bold", LABEL_PT)
        x0, x1 = left - FOLD_REACH_MM, left + width + FOLD_REACH_MM
        for r in range(rows):
            y = block_top + r * (section.item_h + GAP_MM) + fold
            folds.append(
                Fold(
                    round(y, 3),
                    round(x0, 3),
                    round(x1, 3),
                    # the words' left ends: before the line's start, after its end
                    (round(x0 - FOLD_WORD_GAP_MM - word, 3), round(x1 + FOLD_WORD_GAP_MM, 3)),
                )
            )
    common = (
        section.title,
        start > 0,  # continued from the page before
        round(top, 3),
        round(left, 3),
        round(left + width, 3),
        round(block_top, 3),
        round(bottom, 3),
        section.item_w,
        section.item_h,
        tuple(placed),
        tuple(_crops(left, block_top, left + width, bottom, xs, ys)),
    )
    if section.kind == "ships":
        return ShipBlock(*common, side=section.side, count=section.count, folds=tuple(folds))
    return MarkerBlock(*common)


def place_track(section: Section, start: int, end: int, top: float, paper: str) -> TrackBlock:
    page_left = (get_paper(paper).width_mm - get_paper(paper).printable_mm[0]) / 2
    width = TRACK_PER_ROW * TRACK_BOX_MM
    left = page_left + (get_paper(paper).printable_mm[0] - width) / 2
    spaces = [
        TrackSpace(
            n,
            round(left + ((n - 1) % TRACK_PER_ROW) * TRACK_BOX_MM, 3),
            round(top + HEADING_MM + ((n - 1) // TRACK_PER_ROW - start) * TRACK_BOX_MM, 3),
        )
        for n in section.items[start * TRACK_PER_ROW : end * TRACK_PER_ROW]
    ]
    return TrackBlock(
        title=section.title,
        continued=start > 0,
        top=round(top, 3),
        left=round(left, 3),
        right=round(left + width, 3),
        spaces=tuple(spaces),
        last=len(section.items),
        marker=section.marker,
    )


def fitted_words(
    text: str, font: str, width: float, height: float, sizes: tuple[float, ...]
) -> Fitted:
    """Return `text` fitted to the box, or refuse (InputError) if 7 pt does not fit."""
    return fit_or_refuse(
        text, font, width, height, sizes, "the counters sheet's text does not fit", InputError
    )


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


@dataclass(frozen=True)
class KeyParagraph:
    """A paragraph of the key: its bold lead (`lead_w` wide), its lines, and where it
    stands: its column's left, mm from the frame's, and its top, mm from the key's."""

    lead: str
    lead_w: float
    lines: tuple[str, ...]
    left: float = 0.0
    top: float = 0.0


def key_paragraphs(
    spec: CounterSpec,
    data: Mapping[str, Any],
    tracks: Sequence[TrackPlan],
    flagships: bool,
    allies: bool,
    house: str,
    width: float,
) -> list[KeyParagraph]:
    """The key's paragraphs, each a bold lead and its words, fitted to `width` at 7 pt."""
    paragraphs: list[tuple[str, str]] = []
    band = "the ship's navy, on her side's colour"
    if allies:
        band += '; an allied ship\'s band names her own navy and "ally"'
    if flagships:
        band += ". Pennant under the name: the flagship"
    paragraphs.append(("Band:", band + "."))
    if spec.reverse is not None:
        paragraphs.append((f"{spec.reverse[0]} (the back):", spec.reverse[1] + "."))
    for marker in spec.markers:
        paragraphs.append((f"{marker.label}:", marker.note + "."))
    if spec.wind is not None:
        wind = data.get("wind") if isinstance(data.get("wind"), Mapping) else {}
        said = wind_words(wind)  # "from the north-west", as the map and the briefing say it
        start = ""
        if said.startswith("from "):
            start = f" At the start it blows {said}."
        elif said:
            start = f" At the start it is {said}."
        paragraphs.append(
            (
                "Wind gauge:",
                "set it by the map, its arrow pointing where the wind blows to."
                f"{start} {_sentence(spec.wind)}.",
            )
        )
    for track in tracks:
        paragraphs.append((f"{track.label}:", f"{track.note}." if track.note else ""))
    if house:  # "House tables used: Fleet Composition, Scenario, Weather."
        lead, _, names = house.partition(": ")
        paragraphs.append((f"{lead}:", names))
    out = []
    for lead, words in paragraphs:
        lead_w = text_width_mm(lead + " ", "sans-bold", KEY_PT)
        # the lead stands at the start of the first line, the words run on after it
        lines = wrap_into(words, "sans", KEY_PT, [width - lead_w] + [width] * 20, True)
        if not lines:
            lines = [""]
        out.append(KeyParagraph(lead, round(lead_w, 3), tuple(lines)))
    return out


def key_columns(
    paragraphs: Sequence[KeyParagraph], width: float
) -> tuple[list[KeyParagraph], float]:
    """Set the key's paragraphs in two columns of about the same height; return them, each
    with its column's left and its top, and the key's height."""
    line = KEY_PT * 1.2 * PT_MM
    heights = [len(p.lines) * line + KEY_SPACE_MM for p in paragraphs]
    total = sum(heights)
    split, best = 0, total
    for i in range(len(paragraphs) + 1):  # the split that makes the taller column least tall
        tallest = max(sum(heights[:i]), sum(heights[i:]))
        if tallest < best - 1e-9:
            split, best = i, tallest
    tops = [0.0, 0.0]
    placed = []
    for i, paragraph in enumerate(paragraphs):
        column = 0 if i < split else 1
        left = round(column * (width + KEY_GUTTER_MM) / 2, 3)
        placed.append(replace(paragraph, left=left, top=round(tops[column], 3)))
        tops[column] += heights[i]
    return placed, max(tops) - KEY_SPACE_MM if paragraphs else 0.0


def header_words(ruleset: str, spec: CounterSpec, shape: Shape, width: float) -> Fitted:
    """How to cut the counters out and read them, under the title of every page."""
    cell = CELL_MM[spec.shape]
    if shape.hexagon:
        size = (
            f"flat-topped hexes {shape.size:g} mm across the flats, for the map's {cell:g} mm hexes"
        )
    else:
        size = f"{shape.size:g} mm squares, for the map's {cell:g} mm squares"
    if spec.reverse:
        how = (
            "Cut out each pair, fold it on the dashed line and glue it: the ship on one side, "
            f"{spec.reverse[0].lower()} on the other; turned over across the fold, a counter "
            "keeps her heading."
        )
    else:
        how = "Cut out each counter along its line."
    words = f"{ruleset.capitalize()}: {size}. {how} The pointed wedge is the bow."
    named = [c for c in spec.corners if c.label]
    if named:
        places = ("top left", "top right", "bottom left", "bottom right")
        listed = "; ".join(
            f"{place} {c.short + ' ' if c.short else ''}{c.label}"
            for place, c in zip(places, named, strict=False)
        )
        note = f" {_sentence(spec.corners_note)}." if spec.corners_note else ""
        words += f" Corners: {listed}.{note}"
    return fitted_words(words, "sans", width, 14.0, (8.0, 7.5, 7.0))
