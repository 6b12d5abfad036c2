"""One ship's counter laid out: its outline (a square or a flat-topped hex), her name and
class line fitted in it, her corner ratings, the navy band, the bow, the flagship's pennant
and, where the spec names one, the reverse with its word (STRUCK). Lengths are mm from the
top-left corner of the box round the counter."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from generator.errors import InputError
from generator.render import expressions
from generator.render.draw import text_width_mm
from generator.render.kinds.counters.spec import FACE_MM, CounterSpec, counter_spec
from generator.ruleset.model import Ship, Side
from generator.rulesets import SpecError

PAD_MM = 0.5  # text and corners keep this far inside a counter's edge
ROW_MM = 3.1  # a row of corner ratings (and the bow between the top two)
BAND_MM = 2.9  # the navy band
SPACE_MM = 0.15  # between the rows of a counter
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


def cap_mm(size_pt: float) -> float:
    """The height of a capital of `size_pt`, in mm."""
    return size_pt * CAP * PT_MM


def baseline_mm(top: float, bottom: float, size_pt: float) -> float:
    """The baseline that centres capitals of `size_pt` between `top` and `bottom`."""
    return (top + bottom + cap_mm(size_pt)) / 2


# ---------------------------------------------------------------- fitting text in a counter


def wrap_into(
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
                    lines = wrap_into(name, "sans-bold", size, widths, split)
                    if lines is None or len(lines) != count:
                        continue
                    classes: list[str] = []
                    if class_line:
                        class_widths = [shape.span(a, a + h) for a, h in class_slots]
                        found = wrap_into(class_line, "sans", CLASS_PT, class_widths, False)
                        if found is None:
                            continue
                        classes = found
                    placed = [
                        (line, "sans-bold", size, baseline_mm(a, a + h, size))
                        for line, (a, h) in zip(lines, slots, strict=True)
                    ]
                    # a class line that keeps to one of its two slots sits under the name
                    placed += [
                        (line, "sans", CLASS_PT, baseline_mm(a, a + h, CLASS_PT))
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


def corner_size_for(
    values: Sequence[tuple[str, str]], shape: Shape, flagship: bool
) -> float | None:
    """The largest corner size at which the top row keeps room for the bow, centred between
    its corners, and the bottom row room for the pennant; None if none does."""
    centre = shape.width / 2
    for size in CORNER_SIZES:
        _, free = _corners(values, size, shape)
        bow = 2 * min(centre - free[0], free[1] - centre)
        if bow >= BOW_MIN_MM and free[3] - free[2] >= (PENNANT_MM if flagship else 0.0):
            return size
    return None


def corner_values(ship: Ship, side: Side, spec: CounterSpec) -> list[tuple[str, str]]:
    """Return (short label, value) of each corner of a ship, four, empty where unset."""
    scope = {"ship": ship, "side": side}
    values = [(c.short, expressions.text(c.value, c.where, **scope)) for c in spec.corners]
    return (values + [("", "")] * 4)[:4]


def describe(ship: Ship, spec: CounterSpec) -> str:
    """Return the class line of a ship (her class, rate or size), as the spec writes it."""
    return expressions.text(spec.class_line, spec.class_where, ship=ship)


@dataclass(frozen=True)
class Band:
    """The navy band's word: its size (pt) and its baseline."""

    text: str
    size: float
    baseline: float


@dataclass(frozen=True)
class Bow:
    """The bow: a pointed wedge from `x`, `w` wide, between `top` and `bottom`."""

    x: float
    w: float
    top: float
    bottom: float


@dataclass(frozen=True)
class PlacedCorner:
    """A corner rating in place: its short label, its value, its size and where it starts."""

    short: str
    value: str
    size: float
    x: float
    baseline: float


@dataclass(frozen=True)
class Pennant:
    """The flagship's pennant, centred on `x`, in the bottom row (`row`: its top, bottom)."""

    x: float
    row: tuple[float, float]


@dataclass(frozen=True)
class Stamp:
    """The reverse's word (STRUCK) in a box from `x`, `w` wide, in the bottom row."""

    text: str
    size: float
    x: float
    w: float
    top: float
    bottom: float
    baseline: float


@dataclass(frozen=True)
class Face:
    """A counter's face: her name (and class line), band, corners, bow and pennant."""

    stack: tuple[tuple[str, str, float, float], ...]
    band: Band
    corners: tuple[PlacedCorner, ...]
    bow: Bow
    pennant: Pennant | None


@dataclass(frozen=True)
class Reverse:
    """A counter's back: her name, band and bow, and the word of her state."""

    stack: tuple[tuple[str, str, float, float], ...]
    band: Band
    bow: Bow
    stamp: Stamp


@dataclass(frozen=True)
class Counter:
    """One ship's counter: her name, her side (0 or 1), its face and its reverse (None
    where the spec has none)."""

    name: str
    side: int
    face: Face
    reverse: Reverse | None


def _band_word(tag: str, fallback: str, shape: Shape) -> Band:
    """The navy band's word, fitted on one line (an ally's tag falls back to her navy)."""
    top, bottom = shape.rows()["band"]
    baseline = baseline_mm(top, bottom, LABEL_PT)
    room = shape.span(baseline - cap_mm(LABEL_PT), baseline) - 0.6
    for text, sizes in ((tag, (7.5, 7.0)), (fallback, (7.0,))):
        for size in sizes:
            if text_width_mm(text, "sans-bold", size) <= room:
                return Band(text, size, round(baseline, 3))
    raise InputError(f"navy '{fallback}' is too long a word for a {shape.size:g} mm counter")


def _bow_box(left: float, right: float, shape: Shape) -> Bow:
    """The bow: a pointed wedge at the top edge, as wide as the corners leave room for."""
    top, bottom = shape.rows()["top"]
    centre = shape.width / 2
    width = min(BOW_MAX_MM, 2 * min(centre - left, right - centre))  # centred on the counter
    return Bow(round(centre - width / 2, 3), round(width, 3), top, bottom)


def _corners(
    values: Sequence[tuple[str, str]], size: float, shape: Shape
) -> tuple[list[PlacedCorner], list[float]]:
    """Place the four corners; return them and the free stretch between each row's two."""
    rows = shape.rows()
    placed: list[PlacedCorner] = []
    free: list[float] = []
    for row, pair in (("top", values[:2]), ("bottom", values[2:])):
        top, bottom = rows[row]
        half = min(shape.half_width(top), shape.half_width(bottom))
        left, right = shape.width / 2 - half, shape.width / 2 + half
        baseline = round(baseline_mm(top, bottom, size), 3)
        widths = [_corner_width(s, v, size) for s, v in pair]
        for (short, value), x in zip(pair, (left, right - widths[1]), strict=True):
            if value:
                placed.append(PlacedCorner(short, value, size, round(x, 3), baseline))
        free.extend([left + widths[0] + 0.6, right - widths[1] - 0.6])
    return placed, free


def counter(
    ship: Ship,
    side: Side,
    side_index: int,
    shape: Shape,
    spec: CounterSpec,
    navies: Mapping[str, str],
    *,
    with_class: bool,
    corner_size: float,
) -> Counter:
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
    face = Face(
        stack=stack.lines,
        band=band,
        corners=tuple(corners),
        bow=_bow_box(free[0], free[1], shape),
        pennant=(
            Pennant(round((free[2] + free[3]) / 2, 3), shape.rows()["bottom"])
            if ship.get("flagship")
            else None
        ),
    )
    reverse = None
    if spec.reverse is not None:
        reverse = Reverse(
            stack=stack.lines,
            band=band,
            bow=_bow_box(shape.width / 2 - BOW_MAX_MM / 2, shape.width / 2 + BOW_MAX_MM / 2, shape),
            stamp=_stamp(spec.reverse[0], shape),
        )
    return Counter(name, side_index, face, reverse)


def _stamp(word: str, shape: Shape) -> Stamp:
    """The reverse's word (STRUCK), in a box on the bottom row."""
    top, bottom = shape.rows()["bottom"]
    room = shape.span(top, bottom) - 1.2
    text = word.upper()
    for size in (8.5, 8.0, 7.5, 7.0):
        width = text_width_mm(text, "sans-bold", size)
        if width <= room:
            return Stamp(
                text=text,
                size=size,
                x=round(shape.width / 2 - width / 2 - 0.6, 3),
                w=round(width + 1.2, 3),
                top=top,
                bottom=bottom,
                baseline=round(baseline_mm(top, bottom, size), 3),
            )
    raise SpecError(f"the reverse's word '{word}' is too long for a {shape.size:g} mm counter")
