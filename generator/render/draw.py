"""Sheets drawn with ReportLab's canvas: the sheets that are geometry.

Map tiles, counters, card faces and backs and ship logs with their box tracks are drawn
here rather than laid out by WeasyPrint: about ten times faster, and exact to the 0.1 mm.
A `Drawing` is one PDF: a sheet on its own, or every drawn sheet of a packet on one canvas
(so the fonts are embedded once). It records, per page, the boxes the page declares (its
frame as /ArtBox, its cut size as /TrimBox) and the bookmarks its sheets ask for, which a
packet carries into its outline.

Lengths given to the helpers are millimetres from the page's top-left corner, as the
sheets are designed; ReportLab's own origin is the bottom-left in points, and `Drawing`
converts. ReportLab is imported here only, and only when something is drawn.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from generator.resources import resource_dir

MM = 72 / 25.4  # points in a millimetre
PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}

# the bundled fonts, by the name the drawing code uses (tools/subset_fonts.py makes them)
FONT_FILES = {
    "sans": "QMSans-Lato-Regular.ttf",
    "sans-bold": "QMSans-Lato-Bold.ttf",
    "sans-italic": "QMSans-Lato-Italic.ttf",
    "sans-bold-italic": "QMSans-Lato-BoldItalic.ttf",
    "serif": "QMSerif-EBGaramond-Regular.ttf",
    "serif-italic": "QMSerif-EBGaramond-Italic.ttf",
}

# the house colours (the stylesheet's --ink, --rule, --accent ...), and their mono forms
COLOURS = {
    "colour": {
        "ink": "#1d1b16",
        "faint": "#5c5446",
        "rule": "#6b5f4a",
        "accent": "#7a2a18",
        "blue": "#1f4e79",
        "paper": "#ffffff",
        "tint": "#f3ede2",
        "red": "#b3261e",
    },
    "mono": {
        "ink": "#000000",
        "faint": "#000000",
        "rule": "#000000",
        "accent": "#000000",
        "blue": "#000000",
        "paper": "#ffffff",
        "tint": "#ffffff",
        "red": "#000000",
    },
}

Box = tuple[float, float, float, float]  # left, top, right, bottom: mm from the top-left


@cache
def register_fonts() -> None:
    """Register the bundled fonts with ReportLab, once a process."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    folder = resource_dir("templates") / "fonts"
    for name, file in FONT_FILES.items():
        pdfmetrics.registerFont(TTFont(name, str(folder / file)))
    pdfmetrics.registerFontFamily(
        "sans", normal="sans", bold="sans-bold", italic="sans-italic", boldItalic="sans-bold-italic"
    )


def text_width_mm(text: str, font: str, size_pt: float) -> float:
    """Return the width of `text` in mm, set in a bundled `font` at `size_pt`."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    register_fonts()
    return float(stringWidth(text, font, size_pt)) / MM


@dataclass
class Mark:
    """An outline entry: its label and level, the page it opens (0-based within the
    drawing) and the height on that page it points at, in points from the bottom."""

    label: str
    level: int
    page: int
    top_pt: float


@dataclass
class Drawing:
    """One PDF drawn with ReportLab: its canvas, pages, page boxes and bookmarks.

    Args:
        paper: ``a4`` or ``letter``.
        title, subject: the PDF's metadata (a packet sets its own when it assembles).
        mono: draw in black and white (`colours` gives the palette).
    """

    paper: str
    title: str = ""
    subject: str = ""
    mono: bool = False
    marks: list[Mark] = field(default_factory=list)
    pages: int = 0
    canvas: Any = field(default=None, init=False)
    _buffer: io.BytesIO = field(default_factory=io.BytesIO)

    def __post_init__(self) -> None:
        from reportlab import rl_config
        from reportlab.pdfgen.canvas import Canvas

        # streams stay binary (deflated, not ASCII85-encoded too): smaller, and the encoding
        # was the largest cost of a drawn page
        rl_config.useA85 = 0
        register_fonts()
        width, height = self.size_mm
        self.canvas = Canvas(
            self._buffer,
            pagesize=(width * MM, height * MM),
            invariant=1,  # no dates or random ids: the same sheet gives the same bytes
            pageCompression=1,
            initialFontName="sans",  # type: ignore[arg-type]  # (the stub says float) no Helvetica
            initialFontSize=9,
        )
        self.canvas.setTitle(self.title)
        self.canvas.setSubject(self.subject)
        self.canvas.setCreator("Quartermaster")
        self.canvas.setAuthor("Quartermaster")

    @property
    def size_mm(self) -> tuple[float, float]:
        return PAPER_MM[self.paper]

    @property
    def colours(self) -> Mapping[str, str]:
        return COLOURS["mono" if self.mono else "colour"]

    def new_page(self, boxes: Mapping[str, Box] | None = None) -> Any:
        """Start a page (closing the one before) declaring `boxes`; return the canvas."""
        canvas = self.canvas
        if self.pages:
            canvas.showPage()
        self.pages += 1
        # a box set on a ReportLab canvas holds for every later page: set or clear each
        for key, setter in (("art", canvas.setArtBox), ("trim", canvas.setTrimBox)):
            box = (boxes or {}).get(key)
            setter(self._pdf_box(box) if box else None)
        canvas.setFont("sans", 9)
        return canvas

    def _pdf_box(self, box: Box) -> tuple[float, float, float, float]:
        left, top, right, bottom = box
        height = self.size_mm[1]
        return (left * MM, (height - bottom) * MM, right * MM, (height - top) * MM)

    def x(self, mm: float) -> float:
        """Return a distance from the left edge, in mm, as ReportLab's x."""
        return mm * MM

    def y(self, mm: float) -> float:
        """Return a distance from the top edge, in mm, as ReportLab's y (from the bottom)."""
        return (self.size_mm[1] - mm) * MM

    def bookmark(self, label: str, level: int, top_mm: float = 0.0) -> None:
        """Mark the current page for the outline: `label` at `level`, `top_mm` down it."""
        self.marks.append(Mark(label, level, self.pages - 1, self.y(top_mm)))

    def finish(self) -> bytes:
        """Close the last page and return the PDF bytes."""
        if self.pages == 0:
            self.new_page()
        self.canvas.save()
        return self._buffer.getvalue()


def source_fingerprint(*modules: str) -> str:
    """Return a hash of the source of `modules` (and of this one): a drawn sheet's cache key
    must change when the code that draws it does."""
    import hashlib
    import importlib.util

    digest = hashlib.sha256()
    for name in (__name__, *modules):
        spec = importlib.util.find_spec(name)
        origin = spec.origin if spec else None
        if origin:
            with open(origin, "rb") as handle:
                digest.update(handle.read())
    return digest.hexdigest()


LEADING = 1.2  # line height, in font sizes
MIN_PT = 7.0  # nothing is printed smaller


@dataclass(frozen=True)
class Fitted:
    """Text set to fit a box: its font, size in points and lines."""

    font: str
    size: float
    lines: tuple[str, ...]

    @property
    def line_mm(self) -> float:
        return self.size * LEADING / MM

    @property
    def height_mm(self) -> float:
        return len(self.lines) * self.line_mm


def wrap(text: str, font: str, size: float, width_mm: float) -> list[str]:
    """Break `text` into lines no wider than `width_mm` (a word too long for a line is
    broken at letters, never clipped)."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            candidate = f"{line} {word}" if line else word
            if text_width_mm(candidate, font, size) <= width_mm:
                line = candidate
                continue
            if line:
                lines.append(line)
            line = ""
            while text_width_mm(word, font, size) > width_mm and len(word) > 1:
                cut = len(word) - 1
                while cut > 1 and text_width_mm(word[:cut], font, size) > width_mm:
                    cut -= 1
                lines.append(word[:cut])
                word = word[cut:]
            line = word
        lines.append(line)
    return lines


def fit(
    text: str,
    font: str,
    width_mm: float,
    height_mm: float,
    sizes: tuple[float, ...],
    *,
    max_lines: int | None = None,
) -> Fitted | None:
    """Return `text` at the largest of `sizes` (none under 7 pt) whose lines fit the box,
    or None if none does."""
    for size in sizes:
        if size < MIN_PT:
            break
        lines = wrap(text, font, size, width_mm)
        fitted = Fitted(font, size, tuple(lines))
        if fitted.height_mm <= height_mm + 1e-6 and (max_lines is None or len(lines) <= max_lines):
            return fitted
    return None


def fit_or_refuse(
    text: str,
    font: str,
    width_mm: float,
    height_mm: float,
    sizes: tuple[float, ...],
    what: str,
    error: type[Exception] | None = None,
) -> Fitted:
    """Return `fit`'s lines, or raise `error` (default `QuartermasterError`) saying
    ``WHAT at 7 pt: TEXT`` (`what`: whose words do not fit, "card text does not fit")
    when even 7 pt does not fit the box."""
    from generator.errors import QuartermasterError

    fitted = fit(text, font, width_mm, height_mm, sizes)
    if fitted is None:
        raise (error or QuartermasterError)(f"{what} at 7 pt: {text[:60]}")
    return fitted


def write(
    drawing: Drawing,
    fitted: Fitted,
    left_mm: float,
    top_mm: float,
    width_mm: float,
    *,
    align: str = "left",
    colour: str = "ink",
) -> float:
    """Write fitted lines from `top_mm` down (the first line's cap height below it), left,
    centred or right in the box; return the mm under the last line."""
    from reportlab.lib.colors import HexColor

    canvas = drawing.canvas
    canvas.setFillColor(HexColor(drawing.colours.get(colour, colour)))
    canvas.setFont(fitted.font, fitted.size)
    line_mm = fitted.line_mm
    # the baseline of a line sits at about 0.8 of its line height
    baseline = top_mm + line_mm * 0.78
    for line in fitted.lines:
        y = drawing.y(baseline)
        if align == "center":
            canvas.drawCentredString(drawing.x(left_mm + width_mm / 2), y, line)
        elif align == "right":
            canvas.drawRightString(drawing.x(left_mm + width_mm), y, line)
        else:
            canvas.drawString(drawing.x(left_mm), y, line)
        baseline += line_mm
    return top_mm + fitted.height_mm
