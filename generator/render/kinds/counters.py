"""Ship counters of a scenario, one per ship of both sides, cut out for the map sheet.

A ruleset played on squares gets squares the size of the map's squares, one played on hexes
flat-topped hexes the size of the map's hexes (the ``counters`` section of its spec says
which, and how a ship's class line reads). A counter carries the ship's name (fitted:
shrunk to 7 pt at the least, then wrapped, never clipped), her class, an arrow to the
top edge (the bow) and a band naming her navy; the bands of the two sides differ in colour
and, in mono, in pattern. Counters are packed edge to edge so that one cut parts two.

Everything is measured here, in millimetres, with the bundled fonts' advance widths, so the
template only draws. The text fitting is shared with the map sheet (start hexes).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from typing import Any

from generator.errors import InputError
from generator.generate.base import get_generator
from generator.loading import Rules
from generator.render import expressions
from generator.render.cells import HEX_MM, PRINTABLE_MM, SQUARE_MM
from generator.render.sheets import PAPERS
from generator.resources import resource_dir
from generator.rulesets import SpecError, sheet_section

PT_MM = 25.4 / 72
MIN_PT = 7.0
NAME_SIZES = (10.0, 9.5, 9.0, 8.5, 8.0, 7.5, 7.0)
CLASS_SIZES = (7.5, 7.0)
LINE = 1.12  # line height, in font sizes
CAP = 0.723  # cap height of the sans, in font sizes (OS/2 sCapHeight / unitsPerEm)
SAFETY = 1.03  # measured widths ignore kerning; keep a little room for it
CROP_MM = 5.0  # room each side of a block of squares for the crop marks
HEADER_MM = {"a4": 24.0, "letter": 24.0}  # the title and instructions above the counters
SECTION_MM = 9.5  # a side's heading above its counters (and the gap above hexes)
FOOTER_MM = 12.0  # the key and the house-table note below the last block

COLOURS = {
    "colour": {
        "ink": "#1d1b16",
        "rule": "#6b5f4a",
        "cut": "#6b5f4a",
        "paper": "#ffffff",
        "band": ("#7a2a18", "#1f4e79"),
        "band_text": ("#ffffff", "#ffffff"),
        "tint": ("#f3e1da", "#dde7f2"),
    },
    "mono": {
        "ink": "#000000",
        "rule": "#000000",
        "cut": "#000000",
        "paper": "#ffffff",
        "band": ("#000000", "#ffffff"),
        "band_text": ("#ffffff", "#000000"),
        "tint": ("#ffffff", "#ffffff"),
    },
}


# ---------------------------------------------------------------- text measuring and fitting


FONT_FILES = {
    ("sans", False): "QMSans-Lato-Regular.ttf",
    ("sans", True): "QMSans-Lato-Bold.ttf",
    ("serif", False): "QMSerif-EBGaramond-Regular.ttf",
}


@cache
def _metrics(bold: bool, family: str = "sans") -> tuple[dict[int, int], float, int]:
    from fontTools.ttLib import TTFont

    font = TTFont(resource_dir("templates") / "fonts" / FONT_FILES[family, bold], lazy=True)
    cmap = font.getBestCmap()
    hmtx = font["hmtx"]
    widths = {code: int(hmtx[glyph][0]) for code, glyph in cmap.items()}
    average = sum(widths.values()) / max(len(widths), 1)
    return widths, average, int(font["head"].unitsPerEm)


def text_width(text: str, size_pt: float, bold: bool = False, family: str = "sans") -> float:
    """Return the width of `text` in mm set in QM Sans (or QM Serif) at `size_pt`, kerning
    ignored."""
    widths, average, upem = _metrics(bold, family)
    units = sum(widths.get(ord(c), average) for c in text)
    return units / upem * size_pt * PT_MM * SAFETY


@dataclass(frozen=True)
class Fitted:
    """Text set to fit a box: its size in points and its lines."""

    size: float
    lines: tuple[str, ...]

    @property
    def size_mm(self) -> float:
        return self.size * PT_MM

    @property
    def height(self) -> float:
        return len(self.lines) * self.size_mm * LINE


def _break_word(word: str, width: float, size: float, bold: bool) -> list[str]:
    """Split a word too long for a line at letters (no hyphen: the name stays as written)."""
    pieces, current = [], ""
    for char in word:
        if current and text_width(current + char, size, bold) > width:
            pieces.append(current)
            current = char
        else:
            current += char
    return [*pieces, current] if current else pieces


def wrap(text: str, width: float, size: float, bold: bool = False) -> list[str]:
    """Return `text` broken into lines no wider than `width` mm at `size` pt."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}" if current else word
        if text_width(trial, size, bold) <= width:
            current = trial
            continue
        if current:
            lines.append(current)
        if text_width(word, size, bold) <= width:
            current = word
        else:
            *whole, current = _break_word(word, width, size, bold)
            lines.extend(whole)
    if current:
        lines.append(current)
    return lines


def fit_text(
    text: str,
    width: float,
    height: float,
    sizes: tuple[float, ...] = NAME_SIZES,
    bold: bool = False,
) -> Fitted | None:
    """Return `text` at the largest of `sizes` whose wrapped lines fit `width` x `height` mm.

    A size at which every word fits a line wins over a larger one that would split a word;
    a word longer than a line at 7 pt is split between letters. Returns None when even the
    smallest size does not fit.
    """
    words = text.split()
    for whole_words in (True, False):
        for size in sizes:
            if whole_words and any(text_width(w, size, bold) > width for w in words):
                continue
            lines = wrap(text, width, size, bold)
            if len(lines) * size * PT_MM * LINE <= height + 1e-9:
                return Fitted(size, tuple(lines))
    return None


def font_mm(size_pt: float) -> float:
    """A font size in mm for the SVG, rounded up so that 7 pt never prints at 6.999."""
    return math.ceil(size_pt * PT_MM * 1000) / 1000


def centred_x(text: str, cx: float, size_pt: float, bold: bool = False) -> float:
    """The start of `text` centred on `cx` (the SVG is drawn with text-anchor start: an
    anchored text costs WeasyPrint a PDF form per text, and pypdf a font parse per form)."""
    return round(cx - text_width(text, size_pt, bold) / SAFETY / 2, 2)


def text_lines(
    fitted: Fitted, cx: float, top: float, height: float, bold: bool = False
) -> dict[str, Any]:
    """Place fitted lines centred on `cx`, centred vertically in [top, top + height]."""
    size = fitted.size_mm
    first = top + (height - fitted.height) / 2
    return {
        "size": font_mm(fitted.size),
        "bold": bold,
        "lines": [
            {
                "text": line,
                "x": centred_x(line, cx, fitted.size, bold),
                "y": round(first + i * size * LINE + size * (LINE + CAP) / 2, 2),
            }
            for i, line in enumerate(fitted.lines)
        ],
    }


# ---------------------------------------------------------------- counter shapes


@dataclass(frozen=True)
class Shape:
    """A counter's outline: a square of side `size`, or a flat-topped hex `size` across."""

    hexagon: bool
    size: float

    @property
    def radius(self) -> float:
        """Centre to corner (hex), or half the side (square)."""
        return self.size / math.sqrt(3) if self.hexagon else self.size / 2

    def half_width(self, y: float) -> float:
        """Half the counter's width at height `y` from its centre."""
        if not self.hexagon:
            return self.size / 2
        return self.radius - abs(y) / math.sqrt(3)

    def outline(self, cx: float, cy: float) -> str:
        """The SVG points of the outline around (cx, cy)."""
        if self.hexagon:
            r, h = self.radius, self.size / 2
            points = [(r, 0), (r / 2, h), (-r / 2, h), (-r, 0), (-r / 2, -h), (r / 2, -h)]
        else:
            h = self.size / 2
            points = [(-h, -h), (h, -h), (h, h), (-h, h)]
        return _points([(cx + x, cy + y) for x, y in points])

    def band(self, cx: float, cy: float, top: float, inset: float = 0.0) -> str:
        """The SVG points of the part of the counter below `top` (from the centre), kept
        `inset` mm inside the outline so that the cut line shows between dark bands."""
        if inset:
            return Shape(self.hexagon, self.size - 2 * inset).band(cx, cy, top)
        h = self.size / 2
        if self.hexagon:
            w = self.half_width(top)
            r = self.radius
            points = [(-w, top), (w, top), (r / 2, h), (-r / 2, h)]
        else:
            points = [(-h, top), (h, top), (h, h), (-h, h)]
        return _points([(cx + x, cy + y) for x, y in points])


def _points(points: list[tuple[float, float]]) -> str:
    return " ".join(f"{x:.2f},{y:.2f}" for x, y in points)


SHAPES = {"square": Shape(False, SQUARE_MM), "hex": Shape(True, HEX_MM)}


@cache
def counter_spec(ruleset: str) -> tuple[Shape, str, str]:
    """Return the counters section of `ruleset`'s spec, checked: the counters' shape, the
    Jinja text of a ship's class line, and where that text is."""
    raw, spec = sheet_section(ruleset, "counters")
    where = spec.where("counters")
    if set(raw) != {"shape", "class_line"} or raw["shape"] not in SHAPES:
        raise SpecError(f"{where}: counters have a shape ({', '.join(SHAPES)}) and a class_line")
    return SHAPES[raw["shape"]], str(raw["class_line"]), spec.where("counters", "class_line")


def shape_for(ruleset: str) -> Shape:
    """Return the counter (and map cell) shape of `ruleset`."""
    return counter_spec(ruleset)[0]


# ---------------------------------------------------------------- one counter


PAD = 0.8
BAND_MM = 3.3
ARROW_MM = 3.2  # from the top edge to the foot of the arrow


def describe(ship: dict[str, Any], ruleset: str) -> str:
    """Return the class line of a ship (its class, rate or size), as the spec writes it."""
    _, line, where = counter_spec(ruleset)
    return expressions.text(line, where, ship=ship)


def counter(
    ship: dict[str, Any],
    side_index: int,
    side_navy: str,
    shape: Shape,
    ruleset: str,
    cx: float,
    cy: float,
) -> dict[str, Any]:
    """Lay out one counter centred on (cx, cy): its outline, band, arrow and text."""
    name = str(ship.get("name", ""))
    half = shape.size / 2
    navy = str(ship.get("navy") or side_navy)
    tag = navy.capitalize()
    if navy != side_navy:
        tag = f"{tag} ally"
    band_top = half - BAND_MM - (1.2 if shape.hexagon else 0)
    band_width = 2 * shape.half_width(half - 0.6) - 2 * PAD
    tag_fit = fit_text(tag, band_width, BAND_MM, (7.5, 7.0), bold=True) or fit_text(
        side_navy.capitalize(), band_width, BAND_MM, (7.0,), bold=True
    )
    if tag_fit is None or len(tag_fit.lines) != 1:
        raise InputError(f"navy '{navy}' is too long a word for a {shape.size:g} mm counter")
    band_text = text_lines(tag_fit, cx, cy + band_top, half - band_top, bold=True)
    # the class sits on the band, the name fills the rest under the arrow
    class_bottom = band_top - 0.5
    class_width = 2 * shape.half_width(class_bottom) - 2 * PAD
    description = describe(ship, ruleset)
    class_fit = None
    for lines in (1, 2):
        class_fit = fit_text(
            description, class_width, lines * CLASS_SIZES[0] * PT_MM * LINE, CLASS_SIZES
        )
        if class_fit is not None:
            break
    if class_fit is None:
        raise InputError(f"ship class '{description}' is too long for a counter")
    class_top = class_bottom - class_fit.height
    name_top = -half + ARROW_MM + 0.5
    name_bottom = class_top - 0.4
    name_width = 2 * min(shape.half_width(name_top), shape.half_width(name_bottom)) - 2 * PAD
    name_fit = fit_text(name, name_width, name_bottom - name_top, NAME_SIZES, bold=True)
    if name_fit is None:
        raise InputError(
            f"ship name '{name}' ({len(name)} characters) does not fit a {shape.size:g} mm "
            "counter at 7 pt; shorten it to about 40 characters"
        )
    top = cy - half
    flagship = bool(ship.get("flagship"))
    return {
        "outline": shape.outline(cx, cy),
        "band": shape.band(cx, cy, band_top, inset=0.35),
        "side": side_index,
        "band_text": band_text,
        "band_label": _label_box(band_text, tag_fit, cx),
        "name": text_lines(name_fit, cx, cy + name_top, name_bottom - name_top, bold=True),
        "class_text": text_lines(class_fit, cx, cy + class_top, class_fit.height),
        "arrow": _arrow(cx, top + 0.9, top + ARROW_MM),
        "pennant": _pennant(cx - (5.2 if shape.hexagon else 7.4), top + 0.9) if flagship else None,
        "ship_name": name,
    }


def _label_box(placed: dict[str, Any], fitted: Fitted, cx: float) -> dict[str, float]:
    """A white box behind the band's word (the hatched mono band of the second side)."""
    width = max(text_width(line, fitted.size, True) for line in fitted.lines) + 1.4
    height = fitted.height + 0.2
    y = placed["lines"][0]["y"] - fitted.size_mm * (LINE + CAP) / 2 - 0.1
    return {
        "x": round(cx - width / 2, 2),
        "y": round(y, 2),
        "w": round(width, 2),
        "h": round(height, 2),
    }


def _arrow(cx: float, tip: float, foot: float) -> str:
    """An arrow pointing up to the top edge: the ship's bow."""
    head = 2.0
    points = [
        (cx, tip),
        (cx + 1.7, tip + head),
        (cx + 0.5, tip + head),
        (cx + 0.5, foot),
        (cx - 0.5, foot),
        (cx - 0.5, tip + head),
        (cx - 1.7, tip + head),
    ]
    return _points(points)


def _pennant(x: float, top: float) -> dict[str, Any]:
    """The flagship's pennant: a staff and a swallow-tailed flag."""
    return {
        "staff": (round(x, 2), round(top, 2), round(x, 2), round(top + 3.4, 2)),
        "flag": _points(
            [(x, top), (x + 3.0, top), (x + 2.2, top + 0.8), (x + 3.0, top + 1.6), (x, top + 1.6)]
        ),
    }


# ---------------------------------------------------------------- packing and pages


def per_row(shape: Shape, paper: str) -> int:
    """Return how many counters a row of the sheet holds."""
    width = PRINTABLE_MM[paper][0]
    if shape.hexagon:
        r = shape.radius
        return int((width - 2 - 2 * r) // (1.5 * r)) + 1
    return int((width - 2 * CROP_MM) // shape.size)


def block_height(shape: Shape, rows: int, count_in_first_row: int) -> float:
    """Return the height of `rows` rows of counters (hex columns zig-zag half a hex)."""
    if rows == 0:
        return 0.0
    if shape.hexagon:
        return rows * shape.size + (shape.size / 2 if count_in_first_row > 1 else 0)
    return rows * shape.size + 2 * CROP_MM


def paginate(counts: list[int], shape: Shape, paper: str) -> list[list[tuple[int, int, int]]]:
    """Split the sides' counters into pages.

    Args:
        counts: the number of counters of each side.

    Returns:
        per page, the (side, first, end) slices of the side's counters it shows; a side is
        split between pages only at the end of a row.
    """
    n = per_row(shape, paper)
    capacity = PRINTABLE_MM[paper][1] - HEADER_MM[paper] - FOOTER_MM - 2.0
    pages: list[list[tuple[int, int, int]]] = [[]]
    used = 0.0
    for side, count in enumerate(counts):
        start = 0
        while start < count:
            room = capacity - used - SECTION_MM
            rows_left = -(-(count - start) // n)
            rows = rows_left
            while rows > 0 and block_height(shape, rows, min(n, count - start)) > room:
                rows -= 1
            if rows == 0:
                if not pages[-1]:
                    raise InputError("a counter does not fit on the page")
                pages.append([])
                used = 0.0
                continue
            end = min(count, start + rows * n)
            pages[-1].append((side, start, end))
            used += SECTION_MM + block_height(shape, rows, min(n, end - start)) + 2.0
            start = end
    return pages


def _block(
    ships: list[dict[str, Any]],
    side_index: int,
    side_navy: str,
    shape: Shape,
    ruleset: str,
    n: int,
) -> dict[str, Any]:
    """Lay out one run of a side's counters: positions, cut lines and crop marks."""
    counters = []
    rows = -(-len(ships) // n)
    if shape.hexagon:
        r, f = shape.radius, shape.size
        used = min(n, len(ships))
        width = 1.5 * r * (used - 1) + 2 * r
        height = block_height(shape, rows, used)
        for i, ship in enumerate(ships):
            col, row = i % n, i // n
            cx = r + 1.5 * r * col
            cy = f / 2 + f * row + (f / 2 if col % 2 else 0)
            counters.append(counter(ship, side_index, side_navy, shape, ruleset, cx, cy))
        crops: list[tuple[float, float, float, float]] = []
    else:
        s, m = shape.size, CROP_MM
        used = min(n, len(ships))
        width = used * s + 2 * m
        height = block_height(shape, rows, used)
        for i, ship in enumerate(ships):
            col, row = i % n, i // n
            cx, cy = m + s * col + s / 2, m + s * row + s / 2
            counters.append(counter(ship, side_index, side_navy, shape, ruleset, cx, cy))
        crops = []
        gap, tick = 1.0, m - 1.5
        for k in range(used + 1):
            x = m + k * s
            crops.append((x, m - gap - tick, x, m - gap))
            bottom_rows = rows if k <= len(ships) - (rows - 1) * n else rows - 1
            y = m + bottom_rows * s
            crops.append((x, y + gap, x, y + gap + tick))
        for k in range(rows + 1):
            y = m + k * s
            crops.append((m - gap - tick, y, m - gap, y))
            right_cols = used if k < rows else len(ships) - (rows - 1) * n
            x = m + right_cols * s
            crops.append((x + gap, y, x + gap + tick, y))
    return {
        "counters": counters,
        "width": round(width, 2),
        "height": round(height, 2),
        "crops": [tuple(round(v, 2) for v in c) for c in crops],
    }


def context(
    rules: Rules, data: dict[str, Any] | None, paper: str, ruleset: str | None
) -> dict[str, Any]:
    if data is None:
        raise InputError("the counters are the ships of a scenario: give --seed or --from")
    found = str(data.get("ruleset", ruleset))
    if ruleset is not None and found != ruleset:
        raise InputError(f"this is a {found} scenario, not {ruleset}")
    paper = PAPERS[paper]["name"]
    shape = shape_for(found)
    units = get_generator(found).units
    sides = data["sides"]
    if len(sides) > 2:
        raise InputError(f"the counters sheet prints two sides, this scenario has {len(sides)}")
    ships = [list(side.get(units, [])) for side in sides]
    n = per_row(shape, paper)
    pages = []
    for page in paginate([len(s) for s in ships], shape, paper):
        blocks = []
        for side_index, start, end in page:
            side = sides[side_index]
            block = _block(
                ships[side_index][start:end], side_index, str(side.get("navy", "")), shape, found, n
            )
            block["side"] = side_index
            block["title"] = str(side.get("name", f"Side {side_index + 1}"))
            block["count"] = len(ships[side_index])
            block["continued"] = start > 0
            blocks.append(block)
        pages.append(blocks)
    house = [f"{t} ({rules.table(t).title})" for t in data.get("house_tables", [])]
    if shape.hexagon:
        size = (
            f"flat-topped hexes {shape.size:g} mm across the flats, one for a hex of the map sheet"
        )
    else:
        size = f"{shape.size:g} mm squares, one for a square of the map sheet"
    return {
        "scenario_title": str(data.get("title", "")),
        "ruleset_name": found.capitalize(),
        "size_text": size,
        "hexagon": shape.hexagon,
        "pages": pages,
        "page_height": round(PRINTABLE_MM[paper][1] - 1.0, 1),
        "colours": COLOURS,
        "flagships": any(ship.get("flagship") for side in ships for ship in side),
        "allies": any(
            ship.get("navy") and ship.get("navy") != side.get("navy")
            for side, side_ships in zip(sides, ships, strict=True)
            for ship in side_ships
        ),
        "house_tables": house,
    }
