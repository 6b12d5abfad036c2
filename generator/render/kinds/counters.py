"""Ship counters of a scenario, drawn with ReportLab: one for every ship of both sides, with
the markers, the wind gauge and the tracks the rules use on the map.

A ruleset played on squares gets square counters, one played on hexes flat-topped hexes
(the ``counters`` section of its spec says which), each about 84 % of a map cell, so that the
grid and the terrain show around a counter and hand-cut neighbours never touch. A counter's
face carries a bold pointed bow at its top edge, the ship's name (fitted: shrunk to 7 pt at
the least, then wrapped, never clipped), her key ratings in its four corners (which, and how
they read, is the spec's ``corners``), a band naming her navy on her side's colour (in mono,
solid or hatched) and a pennant on the flagship; her class line stands under the name where
every counter of the sheet has room for it. Where the spec names a ``reverse`` (Struck,
Captured), each counter is printed with its reverse under it, to cut out as a pair, fold on
the dashed line and glue: turned over across the fold, a counter keeps her heading. The
fold runs across the whole row, in ink, with the word "fold" at each end.

Pairs stand in rows with a gap between them, each with its own cut line, and crop marks at
the edges of each block continue every straight cut. After the ships come the markers of
the states the spec lists, a wind gauge and a marker for each track, and the tracks
themselves (a turn track, a battle clock), all from the spec and the scenario; the key
under the first page's header says what each means. The pieces take as few pages as they
need, filled alike (`balance`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from generator.errors import InputError
from generator.loading import Rules
from generator.render import expressions
from generator.render.cells import HEX_MM, PRINTABLE_MM, SQUARE_MM
from generator.render.draw import (
    MM,
    PAPER_MM,
    Box,
    Drawing,
    Fitted,
    fit,
    fit_or_refuse,
    text_width_mm,
)
from generator.render.house import house_tables_line
from generator.render.pagenumbers import page_label
from generator.render.sheets import PAPERS
from generator.render.words import wind_words
from generator.ruleset import contract
from generator.rulesets import RulesetSpec, SpecError, sheet_section

# ---------------------------------------------------------------- sizes (mm)

# a counter is about 84 % of the map cell it stands on (the cells are cells.SQUARE_MM and
# cells.HEX_MM): the grid and the terrain show round it, and neighbours cut by hand don't touch
FACE_MM = {"square": 18.5, "hex": 22.0}
CELL_MM = {"square": SQUARE_MM, "hex": HEX_MM}
PAD_MM = 0.5  # text and corners keep this far inside a counter's edge
ROW_MM = 3.1  # a row of corner ratings (and the bow between the top two)
BAND_MM = 2.9  # the navy band
SPACE_MM = 0.15  # between the rows of a counter
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
FOLD_PT = 0.7
FOLD_DASH_MM = (2.0, 1.2)
FOLD_REACH_MM = 2.5
FOLD_WORD = "fold"
FOLD_WORD_GAP_MM = 0.6
CROP_MARK_PT = 0.6
CUT_LINE_PT = 0.35
HEADING_MM = 7.0  # a block's heading and the rule under it
SECTION_SPACE_MM = 2.5  # between a block (with its crop marks) and the next heading
PT_MM = 25.4 / 72

# type: sizes in pt, line heights in font sizes
NAME_SIZES = (10.0, 9.5, 9.0, 8.5, 8.0, 7.5, 7.0)
NAME_LEADING = 1.12
# the class line stands under the names only where every name keeps 8 pt or more beside it
WITH_CLASS = tuple(size for size in NAME_SIZES if size >= 8.0)
CLASS_PT = 7.0
CORNER_SIZES = (9.0, 8.5, 8.0, 7.5, 7.0)
LABEL_PT = 7.0  # a corner's short label, the band, the small words
CAP = 0.723  # the sans's cap height, in font sizes (OS/2 sCapHeight / unitsPerEm)
BOW_MAX_MM = 5.5
BOW_BULGE_MM = 0.3  # how far the bow's sides bow out
BOW_MIN_MM = 3.0
PENNANT_MM = 3.6  # the flagship's pennant, its staff included
KEY_PT = 7.0
PAGE_LABEL_PT = 7.5
KEY_GUTTER_MM = 6.0  # between the key's two columns
KEY_SPACE_MM = 0.6  # between its paragraphs

SIDE_WORDS = {  # how a side's band is told apart, in colour and in mono
    "colour": ("red band", "blue band"),
    "mono": ("solid black band", "hatched band"),
}


# ---------------------------------------------------------------- the spec


@dataclass(frozen=True)
class Corner:
    """A rating in a corner: its name (the key's), its short label on the counter (may be
    empty) and the Jinja text of its value."""

    label: str
    short: str
    value: str
    where: str


@dataclass(frozen=True)
class Marker:
    """A state the rules track on the map: its word, how many to print, what it means."""

    label: str
    count: int
    note: str


@dataclass(frozen=True)
class Track:
    """A track of numbered spaces (turns, a battle clock) and the marker that moves on it.

    `spaces` is a number or Jinja over the scenario; where the scenario gives none, the
    track is as long as the largest of the rules' `spaces_from` (a table's param)."""

    label: str
    marker: str
    spaces: str
    spaces_from: tuple[str, str] | None
    note: str
    where: str


@dataclass(frozen=True)
class CounterSpec:
    """The counters section of a ruleset's spec, checked."""

    shape: str
    class_line: str
    class_where: str
    corners: tuple[Corner, ...]
    corners_note: str
    reverse: tuple[str, str] | None  # its word and what it means
    markers: tuple[Marker, ...]
    wind: str | None  # None: no wind gauge; else its note
    tracks: tuple[Track, ...]
    where: str


_KEYS = {
    "shape",
    "class_line",
    "corners",
    "corners_note",
    "reverse",
    "markers",
    "wind",
    "tracks",
}


def _text(raw: Any, key: str, where: str, *, required: bool = True) -> str:
    value = raw.get(key) if isinstance(raw, Mapping) else None
    if value is None and not required:
        return ""
    if not isinstance(value, str | int) or isinstance(value, bool):
        raise SpecError(f"{where}: '{key}' must be text")
    return str(value)


@cache
def counter_spec(ruleset: str) -> CounterSpec:
    """Return the counters section of `ruleset`'s spec, checked."""
    raw, spec = sheet_section(ruleset, "counters")
    return read_counter_spec(raw, spec)


def read_counter_spec(raw: Mapping[str, Any], spec: RulesetSpec) -> CounterSpec:
    """Check the counters section `raw` of `spec` and return it read."""
    where = spec.where("counters")
    if not {"shape", "class_line"} <= set(raw) <= _KEYS or raw["shape"] not in FACE_MM:
        raise SpecError(
            f"{where}: counters have a shape ({', '.join(FACE_MM)}) and a class_line, and may "
            f"have {', '.join(sorted(_KEYS - {'shape', 'class_line'}))}"
        )
    corners = []
    listed = raw.get("corners") or []
    if not isinstance(listed, list) or len(listed) > 4:
        raise SpecError(f"{where}: corners is a list of at most four {{label, short, value}}")
    for i, item in enumerate(listed):
        at = spec.where("counters", "corners", i)
        corners.append(
            Corner(
                _text(item, "label", at),
                _text(item, "short", at, required=False),
                _text(item, "value", at),
                at,
            )
        )
    reverse = None
    if raw.get("reverse") is not None:
        at = spec.where("counters", "reverse")
        reverse = (_text(raw["reverse"], "label", at), _text(raw["reverse"], "note", at))
    for key in ("markers", "tracks"):
        if not isinstance(raw.get(key) or [], list):
            raise SpecError(f"{spec.where('counters', key)}: {key} is a list")
    markers = []
    for i, item in enumerate(raw.get("markers") or []):
        at = spec.where("counters", "markers", i)
        count = item.get("count") if isinstance(item, Mapping) else None
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 40:
            raise SpecError(f"{at}: a marker's count is a whole number, 1 to 40")
        markers.append(Marker(_text(item, "label", at), count, _text(item, "note", at)))
    wind = None
    if raw.get("wind") is not None:
        wind = _text(raw["wind"], "note", spec.where("counters", "wind"))
    tracks = []
    for i, item in enumerate(raw.get("tracks") or []):
        at = spec.where("counters", "tracks", i)
        label = _text(item, "label", at)
        source = item.get("spaces_from") if isinstance(item, Mapping) else None
        if source is not None and not (
            isinstance(source, Mapping)
            and isinstance(source.get("table"), str)
            and isinstance(source.get("param"), str)
        ):
            raise SpecError(f"{at}: spaces_from names a rules table and its param")
        tracks.append(
            Track(
                label,
                _text(item, "marker", at, required=False) or label,
                _text(item, "spaces", at),
                (str(source["table"]), str(source["param"])) if source else None,
                _text(item, "note", at, required=False),
                at,
            )
        )
    return CounterSpec(
        shape=str(raw["shape"]),
        class_line=str(raw["class_line"]),
        class_where=spec.where("counters", "class_line"),
        corners=tuple(corners),
        corners_note=_text(raw, "corners_note", where, required=False),
        reverse=reverse,
        markers=tuple(markers),
        wind=wind,
        tracks=tuple(tracks),
        where=where,
    )


# ---------------------------------------------------------------- counter shapes


@dataclass(frozen=True)
class Shape:
    """A counter's outline: a square of side `size`, or a flat-topped hex `size` across the
    flats. Lengths are mm from the top-left corner of the box round it."""

    hexagon: bool
    size: float

    @property
    def width(self) -> float:
        return self.size * 2 / math.sqrt(3) if self.hexagon else self.size

    @property
    def height(self) -> float:
        return self.size

    def half_width(self, y: float, inset: float = PAD_MM) -> float:
        """Half the width of the outline, `inset` inside it, at `y` from the top."""
        if not self.hexagon:
            return self.size / 2 - inset
        radius = (self.size - 2 * inset) / math.sqrt(3)
        return radius - abs(y - self.size / 2) / math.sqrt(3)

    def span(self, top: float, bottom: float, inset: float = PAD_MM) -> float:
        """The width free for text between `top` and `bottom` (the narrower end: convex)."""
        return 2 * min(self.half_width(top, inset), self.half_width(bottom, inset))

    def outline(self) -> list[tuple[float, float]]:
        """The corners of the outline, clockwise from the top left."""
        w, h = self.width, self.size
        if self.hexagon:
            return [(w / 4, 0), (3 * w / 4, 0), (w, h / 2), (3 * w / 4, h), (w / 4, h), (0, h / 2)]
        return [(0, 0), (w, 0), (w, h), (0, h)]

    def rows(self) -> dict[str, tuple[float, float]]:
        """Where a counter's rows stand (top, bottom): the corners' rows, the band, and the
        zone for the name between. A square's band runs along its bottom edge; a hex's
        bottom edge is too short for it, so its band stands above the bottom corners."""
        h = self.size
        top = (PAD_MM, PAD_MM + ROW_MM)
        if self.hexagon:
            bottom = (h - PAD_MM - ROW_MM, h - PAD_MM)
            band = (bottom[0] - SPACE_MM - BAND_MM, bottom[0] - SPACE_MM)
            zone = (top[1] + SPACE_MM, band[0] - SPACE_MM)
        else:
            band = (h - BAND_MM, h)
            bottom = (band[0] - SPACE_MM - ROW_MM, band[0] - SPACE_MM)
            zone = (top[1] + SPACE_MM, bottom[0] - SPACE_MM)
        return {"top": top, "zone": zone, "band": band, "bottom": bottom}


def shape_for(ruleset: str) -> Shape:
    """Return the counter shape of `ruleset` (its spec's), at counter size."""
    shape = counter_spec(ruleset).shape
    return Shape(shape == "hex", FACE_MM[shape])


def _cap(size_pt: float) -> float:
    return size_pt * CAP * PT_MM


def _baseline(top: float, bottom: float, size_pt: float) -> float:
    """The baseline that centres capitals of `size_pt` between `top` and `bottom`."""
    return (top + bottom + _cap(size_pt)) / 2


# ---------------------------------------------------------------- fitting text in a counter


def _wrap_into(
    text: str, font: str, size: float, widths: Sequence[float], split: bool
) -> list[str] | None:
    """Fill lines of the given widths with the words of `text` (a word too long for its
    line is broken at letters if `split`); None if they do not hold it all."""
    lines: list[str] = []
    words = text.split()
    index = 0
    while index < len(words):
        if len(lines) == len(widths):
            return None
        width = widths[len(lines)]
        line = words[index]
        if text_width_mm(line, font, size) > width:
            if not split:
                return None
            cut = len(line) - 1
            while cut > 1 and text_width_mm(line[:cut], font, size) > width:
                cut -= 1
            lines.append(line[:cut])
            words[index] = line[cut:]
            continue
        index += 1
        while index < len(words):
            candidate = f"{line} {words[index]}"
            if text_width_mm(candidate, font, size) > width:
                break
            line = candidate
            index += 1
        lines.append(line)
    return lines


@dataclass(frozen=True)
class Stack:
    """A ship's name (and her class line) fitted in a counter's zone: each line's text,
    font, size and baseline, centred on the counter."""

    lines: tuple[tuple[str, str, float, float], ...]

    @property
    def name_size(self) -> float:
        return self.lines[0][2]


def fit_stack(
    name: str,
    class_line: str | None,
    shape: Shape,
    zone: tuple[float, float],
    sizes: tuple[float, ...] = NAME_SIZES,
) -> Stack | None:
    """Fit `name` (bold, 10 pt down to 7 pt, wrapped) and, under it, `class_line` (7 pt, on
    one line or two) in `zone` of a counter, centred; None if they do not fit at 7 pt.

    A line is as wide as the counter is where it stands (a hex is wider at its middle). A
    size at which every word keeps whole wins over a larger one that would split a word; the
    class line's words always keep whole."""
    top, bottom = zone
    class_line_mm = CLASS_PT * NAME_LEADING * PT_MM
    for split in (False, True):
        for size in sizes:
            line_mm = size * NAME_LEADING * PT_MM
            for count in range(1, int((bottom - top) / line_mm) + 1):
                for class_count in (1, 2) if class_line else (0,):
                    height = count * line_mm + class_count * class_line_mm
                    if height > bottom - top + 1e-6:
                        continue
                    first = top + (bottom - top - height) / 2
                    slots = [(first + i * line_mm, line_mm) for i in range(count)]
                    below = first + count * line_mm
                    class_slots = [
                        (below + i * class_line_mm, class_line_mm) for i in range(class_count)
                    ]
                    widths = [shape.span(a, a + h) for a, h in slots]
                    lines = _wrap_into(name, "sans-bold", size, widths, split)
                    if lines is None or len(lines) != count:
                        continue
                    classes: list[str] = []
                    if class_line:
                        class_widths = [shape.span(a, a + h) for a, h in class_slots]
                        found = _wrap_into(class_line, "sans", CLASS_PT, class_widths, False)
                        if found is None:
                            continue
                        classes = found
                    placed = [
                        (line, "sans-bold", size, _baseline(a, a + h, size))
                        for line, (a, h) in zip(lines, slots, strict=True)
                    ]
                    # a class line that keeps to one of its two slots sits under the name
                    placed += [
                        (line, "sans", CLASS_PT, _baseline(a, a + h, CLASS_PT))
                        for line, (a, h) in zip(classes, class_slots, strict=False)
                    ]
                    return Stack(tuple(placed))
    return None


# ---------------------------------------------------------------- one counter


def _corner_width(short: str, value: str, size: float) -> float:
    width = text_width_mm(value, "sans-bold", size)
    if short:
        width += text_width_mm(short, "sans", LABEL_PT) + 0.35
    return width


def _corner_size(values: Sequence[tuple[str, str]], shape: Shape, flagship: bool) -> float | None:
    """The largest corner size at which the top row keeps room for the bow, centred between
    its corners, and the bottom row room for the pennant; None if none does."""
    centre = shape.width / 2
    for size in CORNER_SIZES:
        _, free = _corners(values, size, shape)
        bow = 2 * min(centre - free[0], free[1] - centre)
        if bow >= BOW_MIN_MM and free[3] - free[2] >= (PENNANT_MM if flagship else 0.0):
            return size
    return None


def corner_values(
    ship: Mapping[str, Any], side: Mapping[str, Any], spec: CounterSpec
) -> list[tuple[str, str]]:
    """Return (short label, value) of each corner of a ship, four, empty where unset."""
    scope = {"ship": ship, "side": side}
    values = [(c.short, expressions.text(c.value, c.where, **scope)) for c in spec.corners]
    return (values + [("", "")] * 4)[:4]


def describe(ship: Mapping[str, Any], spec: CounterSpec) -> str:
    """Return the class line of a ship (her class, rate or size), as the spec writes it."""
    return expressions.text(spec.class_line, spec.class_where, ship=ship)


def _band_word(tag: str, fallback: str, shape: Shape) -> dict[str, Any]:
    """The navy band's word, fitted on one line (an ally's tag falls back to her navy)."""
    top, bottom = shape.rows()["band"]
    baseline = _baseline(top, bottom, LABEL_PT)
    room = shape.span(baseline - _cap(LABEL_PT), baseline) - 0.6
    for text, sizes in ((tag, (7.5, 7.0)), (fallback, (7.0,))):
        for size in sizes:
            if text_width_mm(text, "sans-bold", size) <= room:
                return {"text": text, "size": size, "baseline": round(baseline, 3)}
    raise InputError(f"navy '{fallback}' is too long a word for a {shape.size:g} mm counter")


def _bow_box(left: float, right: float, shape: Shape) -> dict[str, float]:
    """The bow: a pointed wedge at the top edge, as wide as the corners leave room for."""
    top, bottom = shape.rows()["top"]
    centre = shape.width / 2
    width = min(BOW_MAX_MM, 2 * min(centre - left, right - centre))  # centred on the counter
    return {"x": round(centre - width / 2, 3), "w": round(width, 3), "top": top, "bottom": bottom}


def _corners(
    values: Sequence[tuple[str, str]], size: float, shape: Shape
) -> tuple[list[dict[str, Any]], list[float]]:
    """Place the four corners; return them and the free stretch between each row's two."""
    rows = shape.rows()
    placed: list[dict[str, Any]] = []
    free: list[float] = []
    for row, pair in (("top", values[:2]), ("bottom", values[2:])):
        top, bottom = rows[row]
        half = min(shape.half_width(top), shape.half_width(bottom))
        left, right = shape.width / 2 - half, shape.width / 2 + half
        baseline = _baseline(top, bottom, size)
        widths = [_corner_width(s, v, size) for s, v in pair]
        for (short, value), x in zip(pair, (left, right - widths[1]), strict=True):
            if value:
                placed.append(
                    {
                        "short": short,
                        "value": value,
                        "size": size,
                        "x": round(x, 3),
                        "baseline": round(baseline, 3),
                    }
                )
        free.extend([left + widths[0] + 0.6, right - widths[1] - 0.6])
    return placed, free


def counter(
    ship: Mapping[str, Any],
    side: Mapping[str, Any],
    side_index: int,
    shape: Shape,
    spec: CounterSpec,
    navies: Mapping[str, str],
    *,
    with_class: bool,
    corner_size: float,
) -> dict[str, Any]:
    """Lay out one ship's counter: its face and (where the spec has one) its reverse, each
    in mm from the top-left of the box round it."""
    name = str(ship.get("name", ""))
    side_navy = str(side.get("navy", ""))
    navy = str(ship.get("navy") or side_navy)
    tag = navies.get(navy, navy.capitalize())
    if navy != side_navy:
        tag = f"{tag} ally"
    band = _band_word(tag, navies.get(side_navy, side_navy.capitalize()), shape)
    class_line = describe(ship, spec) if with_class else None
    sizes = WITH_CLASS if class_line else NAME_SIZES
    stack = fit_stack(name, class_line or None, shape, shape.rows()["zone"], sizes)
    if stack is None:
        raise InputError(
            f"ship name '{name}' ({len(name)} characters) does not fit a {shape.size:g} mm "
            "counter at 7 pt; shorten it to about 40 characters"
        )
    corners, free = _corners(corner_values(ship, side, spec), corner_size, shape)
    face = {
        "stack": stack.lines,
        "band": band,
        "corners": corners,
        "bow": _bow_box(free[0], free[1], shape),
        "pennant": (
            {"x": round((free[2] + free[3]) / 2, 3), "row": shape.rows()["bottom"]}
            if ship.get("flagship")
            else None
        ),
    }
    reverse = None
    if spec.reverse is not None:
        reverse = {
            "stack": stack.lines,
            "band": band,
            "bow": _bow_box(
                shape.width / 2 - BOW_MAX_MM / 2, shape.width / 2 + BOW_MAX_MM / 2, shape
            ),
            "stamp": _stamp(spec.reverse[0], shape),
        }
    return {"name": name, "side": side_index, "face": face, "reverse": reverse}


def _stamp(word: str, shape: Shape) -> dict[str, Any]:
    """The reverse's word (STRUCK), in a box on the bottom row."""
    top, bottom = shape.rows()["bottom"]
    room = shape.span(top, bottom) - 1.2
    text = word.upper()
    for size in (8.5, 8.0, 7.5, 7.0):
        width = text_width_mm(text, "sans-bold", size)
        if width <= room:
            return {
                "text": text,
                "size": size,
                "x": round(shape.width / 2 - width / 2 - 0.6, 3),
                "w": round(width + 1.2, 3),
                "top": top,
                "bottom": bottom,
                "baseline": round(_baseline(top, bottom, size), 3),
            }
    raise SpecError(f"the reverse's word '{word}' is too long for a {shape.size:g} mm counter")


# ---------------------------------------------------------------- markers and tracks


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


def marker_items(
    spec: CounterSpec, ships: int, tracks: Sequence[Mapping[str, Any]]
) -> list[dict[str, str]]:
    """Return the markers to cut out: each state's (as many as the spec says, never more
    than there are ships), the wind gauge, and each track's marker."""
    items: list[dict[str, str]] = []
    for marker in spec.markers:
        items += [{"kind": "state", "label": marker.label}] * min(marker.count, ships)
    if spec.wind is not None:
        items.append({"kind": "wind", "label": "Wind"})
    items += [{"kind": "track", "label": str(track["marker"])} for track in tracks]
    return items


def _marker_words(labels: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Each marker's word inside its frame, on two lines at most, its words kept whole, all
    at one size: the largest at which the longest fits."""
    room = MARKER_MM - 2 * (MARKER_FRAME_MM + 0.55)
    for size in (8.5, 8.0, 7.5, 7.0):
        words = {}
        for label in labels:
            lines = _wrap_into(label, "sans-bold", size, [room] * 2, False)
            if lines is None:
                break
            words[label] = {"size": size, "lines": lines}
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
    room = PRINTABLE_MM[paper][0] - 2 * margin
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
    extra: dict[str, Any] | None = None

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


def _crops(
    left: float, top: float, right: float, bottom: float, xs: Sequence[float], ys: Sequence[float]
) -> list[dict[str, float]]:
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
    return [{k: round(v, 3) for k, v in m.items()} for m in marks]


def _place_block(
    section: Section, start: int, end: int, top: float, paper: str, hexagon: bool
) -> dict[str, Any]:
    """Place rows `start` to `end` of a section's pieces under a heading at `top`."""
    page_left = (PAPER_MM[paper][0] - PRINTABLE_MM[paper][0]) / 2
    items = section.items[start * section.per_row : end * section.per_row]
    columns = min(section.per_row, len(items))
    width = columns * section.item_w + (columns - 1) * GAP_MM
    left = page_left + (PRINTABLE_MM[paper][0] - width) / 2
    block_top = top + HEADING_MM + CROP_ROOM_MM
    placed = []
    for i, item in enumerate(items):
        column, row = i % section.per_row, i // section.per_row
        x = left + column * (section.item_w + GAP_MM)
        y = block_top + row * (section.item_h + GAP_MM)
        placed.append({"x": round(x, 3), "y": round(y, 3), **item})
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
    fold = (section.extra or {}).get("fold")
    if fold is not None:  # a pair's fold, across the row and past the block's ends
        word = text_width_mm(FOLD_WORD, "sans-bold", LABEL_PT)
        x0, x1 = left - FOLD_REACH_MM, left + width + FOLD_REACH_MM
        for r in range(rows):
            y = block_top + r * (section.item_h + GAP_MM) + fold
            folds.append(
                {
                    "y": round(y, 3),
                    "x0": round(x0, 3),
                    "x1": round(x1, 3),
                    # the words' left ends: before the line's start, after its end
                    "words": [
                        round(x0 - FOLD_WORD_GAP_MM - word, 3),
                        round(x1 + FOLD_WORD_GAP_MM, 3),
                    ],
                }
            )
    return {
        "kind": section.kind,
        "title": section.title,
        "side": section.side,
        "continued": start > 0,
        "top": round(top, 3),
        "left": round(left, 3),
        "right": round(left + width, 3),
        "block_top": round(block_top, 3),
        "block_bottom": round(bottom, 3),
        "item_w": section.item_w,
        "item_h": section.item_h,
        "items": placed,
        "crops": _crops(left, block_top, left + width, bottom, xs, ys),
        "folds": folds,
        **{k: v for k, v in (section.extra or {}).items() if k != "fold"},
    }


def _place_track(section: Section, start: int, end: int, top: float, paper: str) -> dict[str, Any]:
    page_left = (PAPER_MM[paper][0] - PRINTABLE_MM[paper][0]) / 2
    width = TRACK_PER_ROW * TRACK_BOX_MM
    left = page_left + (PRINTABLE_MM[paper][0] - width) / 2
    spaces = [
        {
            "number": n,
            "x": round(left + ((n - 1) % TRACK_PER_ROW) * TRACK_BOX_MM, 3),
            "y": round(top + HEADING_MM + ((n - 1) // TRACK_PER_ROW - start) * TRACK_BOX_MM, 3),
        }
        for n in section.items[start * TRACK_PER_ROW : end * TRACK_PER_ROW]
    ]
    return {
        "kind": "track",
        "title": section.title,
        "continued": start > 0,
        "top": round(top, 3),
        "left": round(left, 3),
        "right": round(left + width, 3),
        "spaces": spaces,
        "last": len(section.items),
        **(section.extra or {}),
    }


def _fitted(text: str, font: str, width: float, height: float, sizes: tuple[float, ...]) -> Fitted:
    return fit_or_refuse(
        text, font, width, height, sizes, "the counters sheet's text does not fit", InputError
    )


def _as_dict(fitted: Fitted) -> dict[str, Any]:
    return {"font": fitted.font, "size": fitted.size, "lines": list(fitted.lines)}


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def _key(
    spec: CounterSpec,
    data: Mapping[str, Any],
    tracks: Sequence[Mapping[str, Any]],
    flagships: bool,
    allies: bool,
    house: str,
    width: float,
) -> list[dict[str, Any]]:
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
        paragraphs.append((f"{track['label']}:", f"{track['note']}." if track["note"] else ""))
    if house:  # "House tables used: Fleet Composition, Scenario, Weather."
        lead, _, names = house.partition(": ")
        paragraphs.append((f"{lead}:", names))
    out = []
    for lead, words in paragraphs:
        lead_w = text_width_mm(lead + " ", "sans-bold", KEY_PT)
        # the lead stands at the start of the first line, the words run on after it
        lines = _wrap_into(words, "sans", KEY_PT, [width - lead_w] + [width] * 20, True)
        if not lines:
            lines = [""]
        out.append({"lead": lead, "lead_w": round(lead_w, 3), "lines": lines})
    return out


def _key_columns(paragraphs: list[dict[str, Any]], width: float) -> float:
    """Set the key's paragraphs in two columns of about the same height (each gets its
    column's left, mm from the frame's, and its top, mm from the key's); return the key's
    height."""
    line = KEY_PT * 1.2 * PT_MM
    heights = [len(p["lines"]) * line + KEY_SPACE_MM for p in paragraphs]
    total = sum(heights)
    split, best = 0, total
    for i in range(len(paragraphs) + 1):  # the split that makes the taller column least tall
        tallest = max(sum(heights[:i]), sum(heights[i:]))
        if tallest < best - 1e-9:
            split, best = i, tallest
    tops = [0.0, 0.0]
    for i, paragraph in enumerate(paragraphs):
        column = 0 if i < split else 1
        paragraph["left"] = round(column * (width + KEY_GUTTER_MM) / 2, 3)
        paragraph["top"] = round(tops[column], 3)
        tops[column] += heights[i]
    return max(tops) - KEY_SPACE_MM if paragraphs else 0.0


def context(
    rules: Rules, data: dict[str, Any] | None, paper: str, ruleset: str | None
) -> dict[str, Any]:
    if data is None:
        raise InputError("the counters are the ships of a scenario: give --seed or --from")
    found = str(data.get("ruleset", ruleset))
    if ruleset is not None and found != ruleset:
        raise InputError(f"this is a {found} scenario, not {ruleset}")
    paper = PAPERS[paper]["name"]
    spec = counter_spec(found)
    shape = shape_for(found)
    units = contract(found).units
    sides = data["sides"]
    if len(sides) > 2:
        raise InputError(f"the counters sheet prints two sides, this scenario has {len(sides)}")
    ships = [list(side.get(units, [])) for side in sides]
    everyone = [(i, side, ship) for i, side in enumerate(sides) for ship in ships[i]]
    navies = (
        {key: str(value["title"]).split(" (")[0] for key, value in rules.names.navies.items()}
        if rules.names
        else {}
    )

    # one corner size and one rule on the class line for the whole sheet, so that every
    # counter reads alike: the class stands under the name only if every name leaves room
    corner_size = CORNER_SIZES[0]
    for _, side, ship in everyone:
        size = _corner_size(corner_values(ship, side, spec), shape, bool(ship.get("flagship")))
        if size is None:
            raise InputError(
                f"the corner ratings of '{ship.get('name')}' are too wide for a "
                f"{shape.size:g} mm counter"
            )
        corner_size = min(corner_size, size)
    zone = shape.rows()["zone"]
    with_class = all(
        fit_stack(str(ship.get("name", "")), describe(ship, spec) or None, shape, zone, WITH_CLASS)
        for _, side, ship in everyone
    )
    laid = [
        [
            counter(
                ship, side, i, shape, spec, navies, with_class=with_class, corner_size=corner_size
            )
            for ship in ships[i]
        ]
        for i, side in enumerate(sides)
    ]

    tracks: list[dict[str, Any]] = []
    for track in spec.tracks:
        spaces = _track_spaces(track, rules, found, data)
        note = expressions.text(track.note, track.where, scenario=data) if track.note else ""
        tracks.append(
            {"label": track.label, "marker": track.marker, "spaces": spaces, "note": note}
        )
    markers = marker_items(spec, len(everyone), tracks)

    pair_h = shape.height * (2 if spec.reverse else 1)
    margin = fold_room() if spec.reverse else CROP_ROOM_MM
    sections = []
    for i, side in enumerate(sides):
        extra: dict[str, Any] = {"count": len(laid[i])}
        if spec.reverse:
            extra["fold"] = shape.height
        sections.append(
            Section(
                "ships",
                str(side.get("name", f"Side {i + 1}")),
                laid[i],
                per_row(shape.width, paper, margin),
                shape.width,
                pair_h,
                side=i,
                extra=extra,
            )
        )
    if markers:
        words = _marker_words([m["label"] for m in markers])
        items = [{**m, "word": words[m["label"]]} for m in markers]
        sections.append(
            Section(
                "markers",
                "Markers",
                items,
                per_row(MARKER_MM, paper),
                MARKER_MM,
                MARKER_MM,
            )
        )
    for made in tracks:
        sections.append(
            Section(
                "track",
                str(made["label"]),
                list(range(1, int(made["spaces"]) + 1)),
                TRACK_PER_ROW,
                TRACK_BOX_MM,
                TRACK_BOX_MM,
                extra={"marker": made["marker"]},
            )
        )

    width, height = PRINTABLE_MM[paper]
    page_left = (PAPER_MM[paper][0] - width) / 2
    page_top = (PAPER_MM[paper][1] - height) / 2
    # the title keeps clear of the page label at its right ("Page 1 of 2")
    label_room = text_width_mm(page_label(99, 99), "sans", PAGE_LABEL_PT) + 3.0
    title = _fitted(
        f"Ship counters — {data.get('title', '')}",
        "serif",
        width - label_room,
        8.0,
        (15.0, 14.0, 13.0, 12.0),
    )
    header = _header(found, spec, shape, width)
    header_h = title.height_mm + 1.0 + header.height_mm + 2.5
    flagships = any(ship.get("flagship") for _, _, ship in everyone)
    allies = any(
        ship.get("navy") and ship.get("navy") != side.get("navy") for _, side, ship in everyone
    )
    house = house_tables_line(rules, data.get("house_tables", []))
    key = _key(spec, data, tracks, flagships, allies, house, (width - KEY_GUTTER_MM) / 2)
    key_h = _key_columns(key, width)

    # the key stands on the first page, under its header, where the reader looks first;
    # the pieces follow, on as many pages as they need, filled alike
    room = height - header_h
    key_room = key_h + SECTION_SPACE_MM
    plan = balance(sections, room, room - key_room)
    pages = []
    for number, page in enumerate(plan, start=1):
        top = page_top + header_h + (key_room if number == 1 else 0.0)
        blocks = []
        for index, start, end in page:
            section = sections[index]
            if section.kind == "track":
                blocks.append(_place_track(section, start, end, top, paper))
            else:
                blocks.append(_place_block(section, start, end, top, paper, shape.hexagon))
            top += section.height(end - start) + SECTION_SPACE_MM
        label = page_label(number, len(plan))
        pages.append({"number": number, "blocks": blocks, "label": label, "bottom": top})
    return {
        "ruleset": found,
        "scenario_title": str(data.get("title", "")),
        "title": _as_dict(title),
        "header": _as_dict(header),
        "sheets": len(pages),
        "pages": pages,
        "frame": {
            "left": page_left,
            "top": page_top,
            "width": width,
            "height": height,
        },
        "shape": {
            "hexagon": shape.hexagon,
            "size": shape.size,
            "width": round(shape.width, 3),
            "outline": shape.outline(),
        },
        "reverse": spec.reverse[0] if spec.reverse else None,
        "with_class": with_class,
        "corner_size": corner_size,
        "key": key,
        "key_top": round(page_top + header_h, 3),
        "key_h": round(key_h, 3),
    }


def _header(ruleset: str, spec: CounterSpec, shape: Shape, width: float) -> Fitted:
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
    return _fitted(words, "sans", width, 14.0, (8.0, 7.5, 7.0))


# ---------------------------------------------------------------- drawing


def draw(
    drawing: Drawing,
    context: dict[str, Any],
    *,
    boxes: Mapping[str, Box],
    fillable: bool,
    field_prefix: str,
) -> None:
    """Draw the counters: each page's header, blocks of pairs, markers, tracks; the key."""
    frame = context["frame"]
    for page in context["pages"]:
        drawing.new_page(boxes)
        _write_header(drawing, context, page)
        for block in page["blocks"]:
            if block["kind"] == "track":
                _track(drawing, block)
            else:
                _block(drawing, context, block)
        if page["number"] == 1:
            _write_key(drawing, context, frame)


def _colour(drawing: Drawing, name: str) -> Any:
    from reportlab.lib.colors import HexColor

    return HexColor(drawing.colours.get(name, name))


def _side_colour(drawing: Drawing, side: int) -> Any:
    return _colour(drawing, "accent" if side == 0 else "blue")


def _lines(
    drawing: Drawing,
    fitted: Mapping[str, Any],
    left: float,
    top: float,
    *,
    colour: str = "ink",
    leading: float = 1.2,
) -> float:
    """Write a fitted paragraph from `top` down; return the mm under it."""
    canvas = drawing.canvas
    canvas.setFillColor(_colour(drawing, colour))
    canvas.setFont(fitted["font"], fitted["size"])
    line = float(fitted["size"]) * leading * PT_MM
    for i, text in enumerate(fitted["lines"]):
        canvas.drawString(drawing.x(left), drawing.y(top + i * line + line * 0.78), text)
    return top + len(fitted["lines"]) * line


def _write_header(drawing: Drawing, context: Mapping[str, Any], page: Mapping[str, Any]) -> float:
    frame = context["frame"]
    left, top = frame["left"], frame["top"]
    below = _lines(drawing, context["title"], left, top, colour="accent")
    below = _lines(drawing, context["header"], left, below + 1.0)
    if page["label"]:
        canvas = drawing.canvas
        canvas.setFont("sans", PAGE_LABEL_PT)
        canvas.setFillColor(_colour(drawing, "faint"))
        canvas.drawRightString(
            drawing.x(left + frame["width"]),
            drawing.y(top + context["title"]["size"] * 1.2 * PT_MM * 0.78),
            page["label"],
        )
    return below


def _heading(drawing: Drawing, context: Mapping[str, Any], block: Mapping[str, Any]) -> None:
    """A block's heading: its title, what it holds, and a rule under them."""
    frame = context["frame"]
    left, width = frame["left"], frame["width"]
    canvas = drawing.canvas
    title = str(block["title"]) + (" (continued)" if block.get("continued") else "")
    if block["kind"] == "ships":
        count = int(block["count"])
        words = SIDE_WORDS["mono" if drawing.mono else "colour"][block["side"]]
        small = f"{count} {'ship' if count == 1 else 'ships'} · {words}"
    elif block["kind"] == "markers":
        small = "cut out each one; a track's marker moves on its track"
    else:
        small = f"{block['last']} spaces; its marker stands in the space reached"
    small_w = text_width_mm(small, "sans", 8.0)
    head = fit(title, "serif", width - small_w - 3.0, 5.0, (11.0, 10.0, 9.0, 8.0, 7.0))
    if head is None:
        raise InputError(f"the heading '{title}' does not fit the counters sheet")
    baseline = block["top"] + 4.6
    canvas.setFillColor(_colour(drawing, "accent"))
    canvas.setFont(head.font, head.size)
    canvas.drawString(drawing.x(left), drawing.y(baseline), head.lines[0])
    canvas.setFillColor(_colour(drawing, "faint"))
    canvas.setFont("sans", 8.0)
    title_w = text_width_mm(head.lines[0], head.font, head.size)
    canvas.drawString(drawing.x(left + title_w + 2.0), drawing.y(baseline), small)
    canvas.setStrokeColor(_colour(drawing, "rule"))
    canvas.setLineWidth(0.5)
    rule = block["top"] + 6.0
    canvas.line(drawing.x(left), drawing.y(rule), drawing.x(left + width), drawing.y(rule))


def _block(drawing: Drawing, context: Mapping[str, Any], block: Mapping[str, Any]) -> None:
    _heading(drawing, context, block)
    if block["kind"] == "ships":
        shape = Shape(context["shape"]["hexagon"], context["shape"]["size"])
        for item in block["items"]:
            _pair(drawing, shape, item)
        for fold in block["folds"]:
            _fold(drawing, fold)
    else:
        for item in block["items"]:
            _marker(drawing, item)
    _crop_marks(drawing, block["crops"])


def _crop_marks(drawing: Drawing, marks: Sequence[Mapping[str, float]]) -> None:
    canvas = drawing.canvas
    canvas.setFillColor(_colour(drawing, "ink"))
    for mark in marks:
        canvas.rect(
            drawing.x(mark["x"]),
            drawing.y(mark["y"] + mark["h"]),
            mark["w"] * MM,
            mark["h"] * MM,
            stroke=0,
            fill=1,
        )


def _path(drawing: Drawing, points: Sequence[tuple[float, float]], x: float, y: float) -> Any:
    path = drawing.canvas.beginPath()
    first, *rest = points
    path.moveTo(drawing.x(x + first[0]), drawing.y(y + first[1]))
    for px, py in rest:
        path.lineTo(drawing.x(x + px), drawing.y(y + py))
    path.close()
    return path


def _cut_colour(drawing: Drawing) -> Any:
    return _colour(drawing, "#000000" if drawing.mono else "#9a948a")


def _pair(drawing: Drawing, shape: Shape, item: Mapping[str, Any]) -> None:
    """A counter and its reverse under it, the cut line round both (the fold between them
    is drawn across the whole row: `_fold`)."""
    x, y = item["x"], item["y"]
    side = item["side"]
    _face(drawing, shape, item["face"], side, x, y)
    if item["reverse"] is not None:
        _reverse(drawing, shape, item["reverse"], side, x, y + shape.height)
    canvas = drawing.canvas
    canvas.setStrokeColor(_cut_colour(drawing))
    canvas.setLineWidth(CUT_LINE_PT)
    outline = shape.outline()
    if item["reverse"] is None:
        canvas.drawPath(_path(drawing, outline, x, y), stroke=1, fill=0)
        return
    h = shape.height
    if shape.hexagon:  # two hexes sharing the flat edge between them
        w = shape.width
        points = [
            (w / 4, 0),
            (3 * w / 4, 0),
            (w, h / 2),
            (3 * w / 4, h),
            (w, 3 * h / 2),
            (3 * w / 4, 2 * h),
            (w / 4, 2 * h),
            (0, 3 * h / 2),
            (w / 4, h),
            (0, h / 2),
        ]
    else:
        points = [(0, 0), (shape.width, 0), (shape.width, 2 * h), (0, 2 * h)]
    canvas.drawPath(_path(drawing, points, x, y), stroke=1, fill=0)


def _fold(drawing: Drawing, fold: Mapping[str, Any]) -> None:
    """A row's fold: a dashed line in ink across the pairs and the gaps between them, the
    word "fold" at each end."""
    canvas = drawing.canvas
    canvas.saveState()
    canvas.setLineWidth(FOLD_PT)
    y = drawing.y(fold["y"])
    # on paper, white under the dashes, so that they show where a band (dark, and in
    # colour the side's) runs along the fold, as white and ink dashes
    canvas.setStrokeColor(_colour(drawing, "paper"))
    canvas.line(drawing.x(fold["x0"]), y, drawing.x(fold["x1"]), y)
    canvas.setStrokeColor(_colour(drawing, "ink"))
    canvas.setDash(*(d * MM for d in FOLD_DASH_MM))
    canvas.line(drawing.x(fold["x0"]), y, drawing.x(fold["x1"]), y)
    canvas.restoreState()
    canvas.setFillColor(_colour(drawing, "ink"))
    canvas.setFont("sans-bold", LABEL_PT)
    baseline = drawing.y(_baseline(fold["y"], fold["y"], LABEL_PT))
    for x in fold["words"]:
        canvas.drawString(drawing.x(x), baseline, FOLD_WORD)


def _clip_to(drawing: Drawing, shape: Shape, x: float, y: float) -> None:
    path = _path(drawing, shape.outline(), x, y)
    drawing.canvas.clipPath(path, stroke=0, fill=0)


def _band(
    drawing: Drawing, shape: Shape, band: Mapping[str, Any], side: int, x: float, y: float
) -> None:
    """The navy band across the counter, clipped to its outline; in mono the second side's
    is hatched, its word on a white ground."""
    canvas = drawing.canvas
    top, bottom = shape.rows()["band"]
    canvas.saveState()
    _clip_to(drawing, shape, x, y)
    hatched = drawing.mono and side == 1
    if hatched:
        canvas.setStrokeColor(_colour(drawing, "ink"))
        canvas.setLineWidth(0.45)
        step = 1.0
        height = bottom - top
        start = -height
        while start < shape.width:
            canvas.line(
                drawing.x(x + start),
                drawing.y(y + bottom),
                drawing.x(x + start + height),
                drawing.y(y + top),
            )
            start += step
    else:
        canvas.setFillColor(_side_colour(drawing, side))
        canvas.rect(
            drawing.x(x - 1),
            drawing.y(y + bottom),
            (shape.width + 2) * MM,
            (bottom - top) * MM,
            stroke=0,
            fill=1,
        )
    canvas.restoreState()
    width = text_width_mm(band["text"], "sans-bold", band["size"])
    centre = x + shape.width / 2
    if hatched:
        canvas.setFillColor(_colour(drawing, "paper"))
        canvas.rect(
            drawing.x(centre - width / 2 - 0.7),
            drawing.y(y + bottom - 0.35),
            (width + 1.4) * MM,
            (bottom - top - 0.7) * MM,
            stroke=0,
            fill=1,
        )
    canvas.setFillColor(_colour(drawing, "ink" if hatched else "paper"))
    canvas.setFont("sans-bold", band["size"])
    canvas.drawCentredString(drawing.x(centre), drawing.y(y + band["baseline"]), band["text"])


def _bow(drawing: Drawing, bow: Mapping[str, float], side: int, x: float, y: float) -> None:
    """The bow: a pointed wedge, its tip at the top edge, its sides bowed out like a hull's."""
    canvas = drawing.canvas
    left, width = x + bow["x"], bow["w"]
    top, bottom = y + bow["top"] - 0.2, y + bow["bottom"]
    tip = left + width / 2
    # the left side's outward normal, to bow both sides out by BOW_BULGE_MM
    dx, dy = tip - left, top - bottom
    length = math.hypot(dx, dy)
    ox, oy = dy / length * BOW_BULGE_MM, -dx / length * BOW_BULGE_MM
    near = (left + dx / 3 + ox, bottom + dy / 3 + oy)
    far = (left + 2 * dx / 3 + ox, bottom + 2 * dy / 3 + oy)
    path = canvas.beginPath()
    path.moveTo(drawing.x(left), drawing.y(bottom))
    path.curveTo(
        drawing.x(near[0]), drawing.y(near[1]), drawing.x(far[0]), drawing.y(far[1]),
        drawing.x(tip), drawing.y(top),
    )  # fmt: skip
    path.curveTo(
        drawing.x(2 * tip - far[0]), drawing.y(far[1]),
        drawing.x(2 * tip - near[0]), drawing.y(near[1]),
        drawing.x(left + width), drawing.y(bottom),
    )  # fmt: skip
    path.close()
    colour = _colour(drawing, "ink") if drawing.mono else _side_colour(drawing, side)
    canvas.setFillColor(colour)
    canvas.drawPath(path, stroke=0, fill=1)


def _stack(
    drawing: Drawing, shape: Shape, stack: Sequence[Sequence[Any]], x: float, y: float
) -> None:
    canvas = drawing.canvas
    canvas.setFillColor(_colour(drawing, "ink"))
    centre = drawing.x(x + shape.width / 2)
    for text, font, size, baseline in stack:
        canvas.setFont(font, size)
        canvas.drawCentredString(centre, drawing.y(y + baseline), text)


def _face(
    drawing: Drawing, shape: Shape, face: Mapping[str, Any], side: int, x: float, y: float
) -> None:
    canvas = drawing.canvas
    canvas.setFillColor(_colour(drawing, "paper"))
    canvas.drawPath(_path(drawing, shape.outline(), x, y), stroke=0, fill=1)
    _band(drawing, shape, face["band"], side, x, y)
    _bow(drawing, face["bow"], side, x, y)
    _stack(drawing, shape, face["stack"], x, y)
    for corner in face["corners"]:
        at = x + corner["x"]
        if corner["short"]:
            canvas.setFillColor(_colour(drawing, "faint"))
            canvas.setFont("sans", LABEL_PT)
            canvas.drawString(drawing.x(at), drawing.y(y + corner["baseline"]), corner["short"])
            at += text_width_mm(corner["short"], "sans", LABEL_PT) + 0.35
        canvas.setFillColor(_colour(drawing, "ink"))
        canvas.setFont("sans-bold", corner["size"])
        canvas.drawString(drawing.x(at), drawing.y(y + corner["baseline"]), corner["value"])
    if face["pennant"]:
        _pennant(drawing, face["pennant"], side, x, y)


def _pennant(drawing: Drawing, pennant: Mapping[str, Any], side: int, x: float, y: float) -> None:
    """The flagship's pennant: a staff and a swallow-tailed flag."""
    canvas = drawing.canvas
    top, bottom = pennant["row"]
    staff = x + pennant["x"] - PENNANT_MM / 2 + 0.2
    top, bottom = y + top + 0.2, y + bottom - 0.2
    colour = _colour(drawing, "ink") if drawing.mono else _side_colour(drawing, side)
    canvas.setStrokeColor(_colour(drawing, "ink"))
    canvas.setLineWidth(0.5)
    canvas.line(drawing.x(staff), drawing.y(top), drawing.x(staff), drawing.y(bottom))
    flag = [
        (0, 0),
        (PENNANT_MM - 0.2, 0),
        (PENNANT_MM - 1.2, 0.85),
        (PENNANT_MM - 0.2, 1.7),
        (0, 1.7),
    ]
    canvas.setFillColor(colour)
    canvas.drawPath(_path(drawing, flag, staff, top), stroke=0, fill=1)


def _reverse(
    drawing: Drawing, shape: Shape, reverse: Mapping[str, Any], side: int, x: float, y: float
) -> None:
    """The back of a counter: her side's tint, the bow, her name, her band and the word of
    her state (STRUCK) in a box."""
    canvas = drawing.canvas
    tint = "paper" if drawing.mono else ("#f3e1da" if side == 0 else "#dde7f2")
    canvas.setFillColor(_colour(drawing, tint))
    canvas.drawPath(_path(drawing, shape.outline(), x, y), stroke=0, fill=1)
    _band(drawing, shape, reverse["band"], side, x, y)
    _bow(drawing, reverse["bow"], side, x, y)
    _stack(drawing, shape, reverse["stack"], x, y)
    stamp = reverse["stamp"]
    red = _colour(drawing, "red")
    canvas.setFillColor(_colour(drawing, "paper"))
    canvas.setStrokeColor(red)
    canvas.setLineWidth(0.7)
    canvas.rect(
        drawing.x(x + stamp["x"]),
        drawing.y(y + stamp["bottom"]),
        stamp["w"] * MM,
        (stamp["bottom"] - stamp["top"]) * MM,
        stroke=1,
        fill=1,
    )
    canvas.setFillColor(red)
    canvas.setFont("sans-bold", stamp["size"])
    canvas.drawCentredString(
        drawing.x(x + shape.width / 2), drawing.y(y + stamp["baseline"]), stamp["text"]
    )


def _marker(drawing: Drawing, item: Mapping[str, Any]) -> None:
    """A marker: a state's word on a ruled square, the wind gauge's arrow, or a track's
    marker (white on ink, to stand out on its track)."""
    canvas = drawing.canvas
    x, y, size = item["x"], item["y"], MARKER_MM
    ink, paper = _colour(drawing, "ink"), _colour(drawing, "paper")
    track = item["kind"] == "track"
    canvas.setFillColor(ink if track else paper)
    canvas.rect(drawing.x(x), drawing.y(y + size), size * MM, size * MM, stroke=0, fill=1)
    canvas.setStrokeColor(_cut_colour(drawing))
    canvas.setLineWidth(CUT_LINE_PT)
    canvas.rect(drawing.x(x), drawing.y(y + size), size * MM, size * MM, stroke=1, fill=0)
    if item["kind"] == "state":
        canvas.setStrokeColor(_colour(drawing, "red"))
        canvas.setLineWidth(1.2)
        inset = MARKER_FRAME_MM
        canvas.rect(
            drawing.x(x + inset),
            drawing.y(y + size - inset),
            (size - 2 * inset) * MM,
            (size - 2 * inset) * MM,
            stroke=1,
            fill=0,
        )
    if item["kind"] == "wind":
        _wind_arrow(drawing, x, y, size)
        return
    word = item["word"]
    line = word["size"] * 1.15 * PT_MM
    first = y + (size - len(word["lines"]) * line) / 2
    canvas.setFillColor(paper if track else ink)
    canvas.setFont("sans-bold", word["size"])
    for i, text in enumerate(word["lines"]):
        top = first + i * line
        canvas.drawCentredString(
            drawing.x(x + size / 2), drawing.y(_baseline(top, top + line, word["size"])), text
        )


def _wind_arrow(drawing: Drawing, x: float, y: float, size: float) -> None:
    """The wind gauge: a bold arrow pointing where the wind blows, fletched at its tail."""
    canvas = drawing.canvas
    cx = x + size / 2
    head, tail = y + 1.2, y + size - 1.2
    shaft = 0.9
    points = [
        (cx, head),
        (cx + 2.6, head + 3.4),
        (cx + shaft / 2, head + 3.4),
        (cx + shaft / 2, tail - 2.4),
        (cx + 2.0, tail),
        (cx + 0.9, tail),
        (cx, tail - 1.2),
        (cx - 0.9, tail),
        (cx - 2.0, tail),
        (cx - shaft / 2, tail - 2.4),
        (cx - shaft / 2, head + 3.4),
        (cx - 2.6, head + 3.4),
    ]
    canvas.setFillColor(_colour(drawing, "blue"))
    canvas.drawPath(_path(drawing, points, 0, 0), stroke=0, fill=1)
    canvas.setFillColor(_colour(drawing, "ink"))
    canvas.setFont("sans-bold", LABEL_PT)
    canvas.saveState()
    # along the left edge, clear of the arrow's head (2.6 mm each side of its shaft)
    canvas.translate(drawing.x(x + 3.0), drawing.y(y + size / 2))
    canvas.rotate(90)
    canvas.drawCentredString(0, 0, "WIND")
    canvas.restoreState()


def _track(drawing: Drawing, block: Mapping[str, Any]) -> None:
    """A track: numbered spaces in rows, its last space marked the end."""
    canvas = drawing.canvas
    left = block["left"]
    # the heading: the track's name and what it holds
    canvas.setFillColor(_colour(drawing, "accent"))
    canvas.setFont("serif", 11.0)
    title = str(block["title"]) + (" (continued)" if block["continued"] else "")
    canvas.drawString(drawing.x(left), drawing.y(block["top"] + 4.6), title)
    small = f"{block['last']} spaces, for the {str(block['marker']).lower()} marker"
    canvas.setFillColor(_colour(drawing, "faint"))
    canvas.setFont("sans", 8.0)
    canvas.drawString(
        drawing.x(left + text_width_mm(title, "serif", 11.0) + 2.0),
        drawing.y(block["top"] + 4.6),
        small,
    )
    for space in block["spaces"]:
        last = space["number"] == block["last"]
        sx, sy = space["x"], space["y"]
        canvas.setStrokeColor(_colour(drawing, "accent" if last else "rule"))
        canvas.setLineWidth(1.4 if last else 0.5)
        inset = 0.7 if last else 0.0
        canvas.rect(
            drawing.x(sx + inset),
            drawing.y(sy + TRACK_BOX_MM - inset),
            (TRACK_BOX_MM - 2 * inset) * MM,
            (TRACK_BOX_MM - 2 * inset) * MM,
            stroke=1,
            fill=0,
        )
        canvas.setFillColor(_colour(drawing, "faint"))
        canvas.setFont("sans-bold" if last else "sans", LABEL_PT)
        canvas.drawString(drawing.x(sx + 1.3), drawing.y(sy + 3.6), str(space["number"]))
        if last:
            canvas.setFillColor(_colour(drawing, "accent"))
            canvas.drawCentredString(
                drawing.x(sx + TRACK_BOX_MM / 2), drawing.y(sy + TRACK_BOX_MM - 2.0), "END"
            )


def _write_key(drawing: Drawing, context: Mapping[str, Any], frame: Mapping[str, float]) -> None:
    """The key at the foot of the last page, in two columns."""
    canvas = drawing.canvas
    line = KEY_PT * 1.2 * PT_MM
    canvas.setFillColor(_colour(drawing, "ink"))
    for paragraph in context["key"]:
        top = context["key_top"] + paragraph["top"]
        for i, text in enumerate(paragraph["lines"]):
            baseline = drawing.y(top + i * line + line * 0.78)
            x = frame["left"] + paragraph["left"]
            if i == 0:
                canvas.setFont("sans-bold", KEY_PT)
                canvas.drawString(drawing.x(x), baseline, paragraph["lead"])
                x += paragraph["lead_w"]
            canvas.setFont("sans", KEY_PT)
            canvas.drawString(drawing.x(x), baseline, text)
