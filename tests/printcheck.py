"""Print fidelity, checked on the finished PDF, whatever drew it (WeasyPrint, ReportLab).

`check_pdf(pdf)` lists what would not print as meant, page by page, as `Problem`s. It
replaces generator/render/fidelity.py, which walked WeasyPrint's own boxes: this one
reads only the PDF, so it holds for any renderer and sees what the printer will get.

* "small-text": text under `min_text_pt` (7 pt). A glyph's size is its font size times
  the scale of its text rendering matrix across the baseline, so turned text is
  measured right (the height of a turned glyph's box is its width). Blank characters
  are ignored. One problem per stretch of consecutive small glyphs of one size.
* "edge": ink closer than `edge_mm` (4 mm) to the paper's edge, which most printers
  cannot print (lasers lose about 4.2 mm, inkjets 3 mm). Judged on the page as PDFium
  rasterises it, so clipping counts as on paper (a map tile draws the whole map clipped
  to its window) and white shapes are no ink; a pixel is ink if darker than
  `INK_BELOW` (a pale tint is). One problem per edge, with how close the ink comes.
* "overlap": text printed over other text. Each glyph has a core, its box less
  `CORE_ALONG` of its width at each end and `CORE_ACROSS` of its height at top and
  bottom, so that kerned letters and the lines of a paragraph set solid (line height
  1.0-1.1) do not touch; two cores that meet are an overlap, unless the glyphs are
  neighbours in the content stream (kerning, accents). Turned text has turned cores.
  One problem per pair of runs (a run: a line of text, or a cell of one), the one drawn
  later named first, as being over the other.
* "frame": a page may declare the frame its sheet keeps to as its /ArtBox; ink beyond
  it by more than `FRAME_TOLERANCE_PT` is a problem, one per side.
* "crop-mark": a page may declare a /TrimBox, what is left after cutting (a block of
  cards). Every painted path wholly outside it is a crop mark, and must be at least
  `min_mark_pt` thick (its pen's width, or a filled bar's short side) to print,
  `MIN_MARK_MM` (3 mm) long for a knife to follow, and end `MARK_EDGE_MM` (5 mm) or
  more from the paper's edge, clear of what a printer loses. Marks with the same fault
  are one problem per page. WeasyPrint always writes
  a /TrimBox equal to the MediaBox: a box within `SAME_BOX_PT` of it is not declared.

Why PDFium and not pdfplumber
-----------------------------
The checker runs over about a thousand pages in a test run, on two cores. pdfplumber
(pdfminer, in Python) took 69 ms of CPU on the median sheet page, and up to 540 ms on
the densest quick-reference pages (10,000 characters), only to list the characters and
shapes. So the text and the paths are read through PDFium's C API instead (FPDFText_*
for each character's box, matrix and font size; FPDFPageObj_* and FPDFPath_* for the
paths), from the same parsed page that is rasterised: each PDF is opened once, each
page loaded, read and rendered once. Only what is checked is rasterised (the edge bands,
and what lies outside a frame), in grey at `DPI`, and scanned with Pillow's C routines
(point, crop, getbbox). Everything included, a page takes 8 ms on the median and 80 ms
at most (the densest quick reference).

Positions are in mm from the top-left corner of the page as displayed (its /Rotate
applied), distances in mm, type sizes and mark widths in pt. A distance read off the
raster is good to a pixel (0.18 mm): PDFium fills an upright rectangle out to whole
pixels, so one reads up to a pixel nearer the edge than it is.

As a developer tool: ``python -m tests.printcheck FILE.pdf [...]`` prints the problems,
one a line, and exits 1 if there are any.
"""

from __future__ import annotations

import argparse
import ctypes
import math
import sys
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import pypdfium2 as pdfium  # type: ignore[import-untyped]
import pypdfium2.raw as pdfium_c  # type: ignore[import-untyped]
from PIL import Image

Check = Literal["small-text", "edge", "overlap", "frame", "crop-mark"]
CHECKS: tuple[Check, ...] = ("small-text", "overlap", "edge", "frame", "crop-mark")

MM_PER_PT = 25.4 / 72
DPI = 144  # 2 px per pt: a pixel is 0.18 mm, fine enough to tell 3 mm from 4 mm
# a pixel darker than this grey is ink: pale tints print (#f3e1da renders as grey 229,
# #e8f1f6 as 238, #f5f5f5 as 245); a shape that grazes a pixel only tints it faintly,
# and the pixel astride a limit is not judged at all (see _check_ink)
INK_BELOW = 247
FRAME_TOLERANCE_PT = 0.5
SAME_BOX_PT = 0.1  # boxes this close are the same box (WeasyPrint's TrimBox)
MIN_MARK_MM = 3.0  # a crop mark shorter than this is no help to the knife
MARK_EDGE_MM = 5.0  # a crop mark ends this far from the paper's edge at least
SIZE_TOLERANCE_PT = 0.02  # 28/3 px at 0.75 pt/px is 6.99999 pt, which is 7 pt
CORE_ALONG = 0.15  # of a glyph's width, off each end along the baseline
CORE_ACROSS = 0.25  # of a glyph's height, off top and bottom
CELL_PT = 8.0  # spatial hash cell: about one glyph of body text
TEXT_SHOWN = 36  # characters of a run quoted in a problem

_INK_LUT = [255 if level < INK_BELOW else 0 for level in range(256)]
_RENDER_FLAGS = pdfium_c.FPDF_ANNOT | pdfium_c.FPDF_GRAYSCALE


@dataclass(frozen=True)
class Problem:
    """One thing on one page that would not print as meant."""

    page: int  # 1-based
    check: Check
    detail: str
    where: tuple[float, float]  # mm from the page's top-left corner

    def __str__(self) -> str:
        x, y = self.where
        return f"page {self.page}: {self.check}: {self.detail} at {x:.1f}, {y:.1f} mm"


def check_pdf(
    pdf: bytes | Path,
    *,
    min_text_pt: float = 7.0,
    edge_mm: float = 4.0,
    min_mark_pt: float = 0.5,
    pages: Iterable[int] | None = None,
) -> list[Problem]:
    """List the print problems of a PDF's pages (all, or the 1-based `pages`)."""
    try:
        doc = pdfium.PdfDocument(pdf)
    except pdfium.PdfiumError as err:
        raise ValueError(f"not a readable PDF: {err}") from err
    try:
        count = len(doc)
        numbers = list(range(1, count + 1)) if pages is None else list(pages)
        for number in numbers:
            if not 1 <= number <= count:
                raise ValueError(f"no page {number}: the PDF has {count} pages")
        problems: list[Problem] = []
        for number in numbers:
            page = doc[number - 1]
            try:
                problems += _check_page(page, number, min_text_pt, edge_mm, min_mark_pt)
            finally:
                page.close()
        return problems
    finally:
        doc.close()


def smallest_text_pt(pdf: bytes | Path) -> float:
    """Return the size in pt of the smallest glyph on any page, measured as the small-text
    check measures it (ValueError if the PDF has no text)."""
    doc = pdfium.PdfDocument(pdf)
    try:
        sizes = []
        for index in range(len(doc)):
            page = doc[index]
            try:
                glyphs, _ = _read_glyphs(page)
            finally:
                page.close()
            sizes += [glyph.size for glyph in glyphs]
        return min(sizes)
    finally:
        doc.close()


# ---------------------------------------------------------------- page geometry


@dataclass(frozen=True)
class _Paper:
    """The visible page (CropBox within MediaBox), and how it is turned for display."""

    left: float
    bottom: float
    right: float
    top: float
    quarter_turns: int  # /Rotate / 90, clockwise

    @property
    def size(self) -> tuple[float, float]:
        """Width and height as displayed, in pt."""
        width, height = self.right - self.left, self.top - self.bottom
        return (height, width) if self.quarter_turns % 2 else (width, height)

    def shown(self, x: float, y: float) -> tuple[float, float]:
        """A point of PDF user space, in pt from the displayed page's top-left."""
        turns = self.quarter_turns
        if turns == 1:
            return y - self.bottom, x - self.left
        if turns == 2:
            return self.right - x, y - self.bottom
        if turns == 3:
            return self.top - y, self.right - x
        return x - self.left, self.top - y

    def shown_box(
        self, box: tuple[float, float, float, float]
    ) -> tuple[float, float, float, float]:
        """A user-space box (l, b, r, t) as displayed: x0, y0, x1, y1 in pt."""
        (ax, ay), (bx, by) = self.shown(box[0], box[1]), self.shown(box[2], box[3])
        return min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)

    def mm(self, x: float, y: float) -> tuple[float, float]:
        sx, sy = self.shown(x, y)
        return sx * MM_PER_PT, sy * MM_PER_PT


def _box(getter: Any, page: Any) -> tuple[float, float, float, float] | None:
    values = [ctypes.c_float() for _ in range(4)]
    if not getter(page, *values):
        return None
    left, bottom, right, top = (v.value for v in values)
    return min(left, right), min(bottom, top), max(left, right), max(bottom, top)


def _same_box(a: Sequence[float], b: Sequence[float]) -> bool:
    return all(abs(p - q) <= SAME_BOX_PT for p, q in zip(a, b, strict=True))


def _check_page(
    page: Any, number: int, min_text_pt: float, edge_mm: float, min_mark_pt: float
) -> list[Problem]:
    raw = page.raw
    bounds = pdfium_c.FS_RECTF()
    pdfium_c.FPDF_GetPageBoundingBox(raw, bounds)
    paper = _Paper(
        min(bounds.left, bounds.right),
        min(bounds.bottom, bounds.top),
        max(bounds.left, bounds.right),
        max(bounds.bottom, bounds.top),
        pdfium_c.FPDFPage_GetRotation(raw) % 4,
    )
    media = _box(pdfium_c.FPDFPage_GetMediaBox, raw)
    art = _box(pdfium_c.FPDFPage_GetArtBox, raw)
    trim = _box(pdfium_c.FPDFPage_GetTrimBox, raw)
    if media is not None:
        art = None if art is not None and _same_box(art, media) else art
        trim = None if trim is not None and _same_box(trim, media) else trim

    problems = _check_text(page, paper, number, min_text_pt)
    problems += _check_ink(page, paper, number, edge_mm, art)
    if trim is not None:
        problems += _check_marks(raw, paper, number, trim, min_mark_pt)
    order = {check: i for i, check in enumerate(CHECKS)}
    return sorted(problems, key=lambda p: (order[p.check], p.where[1], p.where[0]))


# ---------------------------------------------------------------- text


@dataclass(slots=True)
class _Glyph:
    """A printed character: its text, size, box and core, and the run it belongs to."""

    text: str
    size: float  # effective pt
    box: tuple[float, float, float, float]  # l, b, r, t in user space
    core: tuple[float, float, float, float, float, float]  # cx, cy, ux, uy, half u, half v
    hull: tuple[float, float, float, float]  # the core's axis-aligned box
    run: int
    spaced: bool  # whether blank characters came between it and the glyph before


_BLANK_KINDS = frozenset({"Cc", "Cf", "Zs", "Zl", "Zp"})
# PDFium's marks for a hyphen that ends a line (printed, so ink), one by character and
# one in the page's text
_HYPHENS = frozenset({"\x02", "\ufffe"})


def _blank(char: str) -> bool:
    # spaces, line breaks, zero-width and control characters put no ink on paper
    # (isprintable is a quick pass for most; a private-use icon is not printable but is ink)
    return char.isspace() or (not char.isprintable() and unicodedata.category(char) in _BLANK_KINDS)


def _turned_core(
    box: tuple[float, float, float, float], ux: float, uy: float, size: float
) -> tuple[float, float, float, float, float, float]:
    """The core of a glyph turned off the axes: centre, direction, half extents."""
    left, bottom, right, top = box
    width, height = right - left, top - bottom
    c, s = abs(ux), abs(uy)
    det = c * c - s * s
    if abs(det) >= 0.5:
        # PDFium's char box is the axis-aligned hull of the turned glyph box; within 30
        # degrees of an axis the glyph's own width and height can be solved back from it
        along = max((width * c - height * s) / det, 0.0)
        across = max((height * c - width * s) / det, 0.0)
    else:
        # near 45 degrees the hull tells only width + height: take a cap height across
        total = (width + height) / (c + s)
        across = min(0.7 * size, total)
        along = total - across
    return (
        (left + right) / 2,
        (bottom + top) / 2,
        ux,
        uy,
        along * (0.5 - CORE_ALONG),
        across * (0.5 - CORE_ACROSS),
    )


def _page_text(raw: Any, count: int) -> str | None:
    """All the page's characters in one call, or None where they do not map one to one."""
    buffer = (ctypes.c_ushort * (count + 1))()
    written = pdfium_c.FPDFText_GetText(raw, 0, count, buffer)
    text = bytes(buffer)[: max(written - 1, 0) * 2].decode("utf-16-le", errors="replace")
    # a character beyond the BMP takes two UTF-16 units; one that PDFium could not
    # map may come out as nothing: then ask for each character by itself
    return text if len(text) == count and "\x00" not in text else None


def _read_glyphs(page: Any) -> tuple[list[_Glyph], list[str]]:
    """The page's glyphs in content-stream order, and the text of each run."""
    textpage = page.get_textpage()
    try:
        raw = textpage.raw
        get_unicode = pdfium_c.FPDFText_GetUnicode
        get_box = pdfium_c.FPDFText_GetCharBox
        get_size = pdfium_c.FPDFText_GetFontSize
        get_matrix = pdfium_c.FPDFText_GetMatrix
        left, right, bottom, top = (ctypes.c_double() for _ in range(4))
        matrix = pdfium_c.FS_MATRIX()

        count = pdfium_c.FPDFText_CountChars(raw)
        text = _page_text(raw, count)
        keep_along, keep_across = 1 - 2 * CORE_ALONG, 1 - 2 * CORE_ACROSS
        glyphs: list[_Glyph] = []
        runs: list[list[str]] = []
        # where the previous glyph stood: its direction, the middle of its box across
        # the baseline, its start and end along it, its size; to tell where a run ends
        last_ux = last_uy = last_across = last_start = last_end = last_em = math.nan
        last_box = (math.nan,) * 4
        spaced = False
        for index in range(count):
            if text is not None:
                char = text[index]
            else:
                code = get_unicode(raw, index)
                char = chr(code) if 0 < code < 0x110000 else "\ufffd"
            if char in _HYPHENS:
                char = "-"
            elif _blank(char):
                if runs and runs[-1][-1] != " ":
                    runs[-1].append(" ")
                spaced = True
                continue
            get_box(raw, index, left, right, bottom, top)
            box = (left.value, bottom.value, right.value, top.value)
            if box == last_box and not spaced:
                # one glyph that stands for several characters (a ligature)
                glyphs[-1].text += char
                runs[-1].append(char)
                continue
            get_matrix(raw, index, matrix)
            a, b, c, d = matrix.a, matrix.b, matrix.c, matrix.d
            half_w, half_h = (box[2] - box[0]) / 2, (box[3] - box[1]) / 2
            cx, cy = box[0] + half_w, box[1] + half_h
            if b == 0.0 and c == 0.0 and a > 0.0:
                # upright text, nearly all of it: the char box is the glyph box itself
                ux, uy, size = 1.0, 0.0, get_size(raw, index) * abs(d)
                reach, along, across = half_w, cx, cy
                core = (cx, cy, 1.0, 0.0, half_w * keep_along, half_h * keep_across)
            else:
                scale = math.hypot(a, b)
                if scale == 0:
                    continue
                ux, uy = a / scale, b / scale
                # the text's size across its baseline: what a reader sees, turned or not
                size = get_size(raw, index) * abs(a * d - b * c) / scale
                # the box along the baseline (either side of its middle) and across it
                reach = half_w * abs(ux) + half_h * abs(uy)
                along, across = cx * ux + cy * uy, cy * ux - cx * uy
                if abs(ux) < 1e-6:  # turned a quarter: the box is still the glyph's own
                    core = (cx, cy, 1.0, 0.0, half_w * keep_across, half_h * keep_along)
                elif abs(uy) < 1e-6:
                    core = (cx, cy, 1.0, 0.0, half_w * keep_along, half_h * keep_across)
                else:
                    core = _turned_core(box, ux, uy, size)
            em = size if size > 1.0 else 1.0
            if not (
                abs(ux - last_ux) <= 0.02
                and abs(uy - last_uy) <= 0.02
                # the middles of a line's letters differ by 0.6 em at most ("g" and "'")
                and abs(across - last_across) <= 0.6 * max(em, last_em)
                and along - reach >= last_start - 0.2 * em
                and along - reach - last_end <= 1.2 * max(em, last_em)
            ):
                runs.append([])  # a new line, a new column, a new direction
            runs[-1].append(char)
            last_ux, last_uy, last_across, last_em = ux, uy, across, em
            last_start, last_end, last_box = along - reach, along + reach, box
            # the core's axis-aligned hull, for the spatial hash
            ex = core[4] * abs(core[2]) + core[5] * abs(core[3])
            ey = core[4] * abs(core[3]) + core[5] * abs(core[2])
            hull = (cx - ex, cy - ey, cx + ex, cy + ey)
            glyphs.append(_Glyph(char, size, box, core, hull, len(runs) - 1, spaced))
            spaced = False
        return glyphs, [" ".join("".join(run).split()) for run in runs]
    finally:
        textpage.close()


def _quote(text: str) -> str:
    text = " ".join(text.split())
    if len(text) > TEXT_SHOWN:
        text = text[: TEXT_SHOWN - 1].rstrip() + "…"
    return f'"{text}"'


def _points(value: float, limit: float) -> str:
    """A size in pt, with a second decimal where one would round it up to the limit."""
    shown = f"{value:.1f}"
    return f"{value:.2f}" if float(shown) >= limit else shown


def _check_text(page: Any, paper: _Paper, number: int, min_text_pt: float) -> list[Problem]:
    glyphs, runs = _read_glyphs(page)
    problems: list[Problem] = []
    for stretch in _small_stretches(glyphs, min_text_pt):
        first = stretch[0]
        size = first.size
        text = "".join((" " if g.spaced else "") + g.text for g in stretch)
        detail = f"{_quote(text)} is {_points(size, min_text_pt)} pt (under {min_text_pt:g} pt)"
        x0, y0, _, _ = paper.shown_box(first.box)
        problems.append(Problem(number, "small-text", detail, (x0 * MM_PER_PT, y0 * MM_PER_PT)))
    seen: set[tuple[int, int]] = set()
    for i, j in _overlapping(glyphs):
        under, over = glyphs[i].run, glyphs[j].run  # j is drawn later: on top
        if (min(under, over), max(under, over)) in seen:
            continue
        seen.add((min(under, over), max(under, over)))
        a, b = glyphs[i].core, glyphs[j].core
        where = paper.mm((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        if under == over:
            detail = f"{_quote(runs[over])} over itself"
        else:
            detail = f"{_quote(runs[over])} over {_quote(runs[under])}"
        problems.append(Problem(number, "overlap", detail, where))
    return problems


def _small_stretches(glyphs: list[_Glyph], min_text_pt: float) -> Iterator[list[_Glyph]]:
    """Consecutive glyphs under the limit, of one size (to 0.1 pt), one stretch each."""
    stretch: list[_Glyph] = []
    for glyph in glyphs:
        small = glyph.size < min_text_pt - SIZE_TOLERANCE_PT
        if stretch and (not small or round(glyph.size, 1) != round(stretch[0].size, 1)):
            yield stretch
            stretch = []
        if small:
            stretch.append(glyph)
    if stretch:
        yield stretch


def _cores_meet(
    a: tuple[float, float, float, float, float, float],
    b: tuple[float, float, float, float, float, float],
) -> bool:
    """Whether two turned rectangles overlap (separating axis test)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    for nx, ny in ((a[2], a[3]), (-a[3], a[2]), (b[2], b[3]), (-b[3], b[2])):
        reach_a = a[4] * abs(a[2] * nx + a[3] * ny) + a[5] * abs(a[2] * ny - a[3] * nx)
        reach_b = b[4] * abs(b[2] * nx + b[3] * ny) + b[5] * abs(b[2] * ny - b[3] * nx)
        if abs(dx * nx + dy * ny) >= reach_a + reach_b:
            return False
    return True


def _overlapping(glyphs: list[_Glyph]) -> list[tuple[int, int]]:
    """Pairs (earlier, later) of glyphs whose cores meet, found through a spatial hash."""
    grid: dict[tuple[int, int], list[int]] = {}
    hulls = [glyph.hull for glyph in glyphs]
    pairs: list[tuple[int, int]] = []
    for j, (x0, y0, x1, y1) in enumerate(hulls):
        if x1 <= x0 or y1 <= y0:
            continue
        gx0, gx1 = int(x0 // CELL_PT), int(x1 // CELL_PT)
        gy0, gy1 = int(y0 // CELL_PT), int(y1 // CELL_PT)
        if gx0 == gx1 and gy0 == gy1:
            cell = grid.setdefault((gx0, gy0), [])
            candidates: Iterable[int] = tuple(cell)
            cell.append(j)
        else:
            found: set[int] = set()
            for gx in range(gx0, gx1 + 1):
                for gy in range(gy0, gy1 + 1):
                    cell = grid.setdefault((gx, gy), [])
                    found.update(cell)
                    cell.append(j)
            candidates = sorted(found)
        for i in candidates:
            if i == j - 1:
                continue  # neighbours in the content stream: kerning, accents
            hx0, hy0, hx1, hy1 = hulls[i]
            if hx1 <= x0 or x1 <= hx0 or hy1 <= y0 or y1 <= hy0:
                continue
            if _cores_meet(glyphs[i].core, glyphs[j].core):
                pairs.append((i, j))
    return pairs


# ---------------------------------------------------------------- ink


def _render(
    page: Any, size: tuple[int, int], regions: list[tuple[int, int, int, int]]
) -> tuple[Image.Image, Image.Image]:
    """The page in grey at `size` px, rendered in `regions` only, and its ink mask."""
    width, height = size
    grey = Image.new("L", size, 255)
    for x0, y0, x1, y1 in regions:
        w, h = x1 - x0, y1 - y0
        if w <= 0 or h <= 0:
            continue
        buffer = bytearray(w * h)
        pixels = (ctypes.c_ubyte * len(buffer)).from_buffer(buffer)
        bitmap = pdfium_c.FPDFBitmap_CreateEx(w, h, pdfium_c.FPDFBitmap_Gray, pixels, w)
        try:
            pdfium_c.FPDFBitmap_FillRect(bitmap, 0, 0, w, h, 0xFFFFFFFF)
            # the whole page's placing, shifted so that only this region lands in the
            # bitmap: PDFium skips what lies outside it
            flags = _RENDER_FLAGS
            pdfium_c.FPDF_RenderPageBitmap(bitmap, page.raw, -x0, -y0, width, height, 0, flags)
            grey.paste(Image.frombuffer("L", (w, h), buffer, "raw", "L", w, 1), (x0, y0))
        finally:
            pdfium_c.FPDFBitmap_Destroy(bitmap)
    return grey, grey.point(_INK_LUT)


_Side = Literal["top", "bottom", "left", "right"]
_SIDES: tuple[_Side, ...] = ("top", "bottom", "left", "right")
_PLACES = {"top": "above", "bottom": "below", "left": "left of", "right": "right of"}


def _nearest(
    grey: Image.Image, mask: Image.Image, side: _Side, depth: int
) -> tuple[float, float] | None:
    """The ink nearest to one edge of the page, within `depth` px of it.

    Gives how far it is from that edge and where along the edge, in px. The distance is
    found to a fraction of a pixel from how much of the nearest pixel the ink covers,
    judged against the next pixel inwards (exact for an anti-aliased solid shape; PDFium
    fills an upright rectangle to whole pixels, outwards, so one reads up to a pixel near).
    """
    width, height = mask.size
    if depth <= 0:
        return None
    regions = {
        "top": (0, 0, width, depth),
        "bottom": (0, height - depth, width, height),
        "left": (0, 0, depth, height),
        "right": (width - depth, 0, width, height),
    }
    found = mask.crop(regions[side]).getbbox()
    if found is None:
        return None
    if side in ("top", "bottom"):
        row = found[1] if side == "top" else height - depth + found[3] - 1
        line = mask.crop((0, row, width, row + 1)).getbbox()
        column = line[0] if line else 0
        inner = (column, row + 1) if side == "top" else (column, row - 1)
        far = row + 1 if side == "top" else height - row
    else:
        column = found[0] if side == "left" else width - depth + found[2] - 1
        line = mask.crop((column, 0, column + 1, height)).getbbox()
        row = line[1] if line else 0
        inner = (column + 1, row) if side == "left" else (column - 1, row)
        far = column + 1 if side == "left" else width - column
    dark = 255 - _level(grey, (column, row))
    full = max(dark, 255 - _level(grey, inner), 1)
    along = column if side in ("top", "bottom") else row
    return far - dark / full, along + 0.5


def _level(grey: Image.Image, xy: tuple[int, int]) -> int:
    """The grey level of one pixel; white off the image."""
    width, height = grey.size
    if not (0 <= xy[0] < width and 0 <= xy[1] < height):
        return 255
    value = grey.getpixel(xy)
    return value if isinstance(value, int) else 255


def _check_ink(
    page: Any,
    paper: _Paper,
    number: int,
    edge_mm: float,
    art: tuple[float, float, float, float] | None,
) -> list[Problem]:
    width_pt, height_pt = paper.size
    width, height = round(width_pt * DPI / 72), round(height_pt * DPI / 72)
    sx, sy = width / width_pt, height / height_pt  # px per pt, exactly as PDFium scales
    # the edge bands: the whole pixels within edge_mm of the edge. The pixel astride the
    # line is left out, so that a shape ending right on it is no problem.
    band_x = max(0, min(math.floor(edge_mm / MM_PER_PT * sx), width // 2))
    band_y = max(0, min(math.floor(edge_mm / MM_PER_PT * sy), height // 2))
    bands = {"top": band_y, "bottom": band_y, "left": band_x, "right": band_x}
    # beyond the frame: the whole pixels more than the tolerance outside the /ArtBox
    beyond = dict.fromkeys(_SIDES, 0)
    frame = (0.0, 0.0, width_pt, height_pt)
    if art is not None:
        frame = paper.shown_box(art)
        fx0, fy0, fx1, fy1 = frame
        tol = FRAME_TOLERANCE_PT
        beyond = {
            "top": math.floor((fy0 - tol) * sy),
            "bottom": height - math.ceil((fy1 + tol) * sy),
            "left": math.floor((fx0 - tol) * sx),
            "right": width - math.ceil((fx1 + tol) * sx),
        }
    depth = {side: max(0, bands[side], beyond[side]) for side in _SIDES}
    # render only what is checked: the page less the inner rectangle that nothing reaches
    x0, y0 = min(depth["left"], width), min(depth["top"], height)
    x1, y1 = max(width - depth["right"], x0), max(height - depth["bottom"], y0)
    regions = [(0, 0, width, y0), (0, y1, width, height), (0, y0, x0, y1), (x1, y0, width, y1)]
    grey, mask = _render(page, (width, height), regions)

    def spot(side: _Side, distance: float, along: float) -> tuple[float, float]:
        """A point in mm, from its distance to one edge and its place along it (px)."""
        x, y = {
            "top": (along, distance),
            "bottom": (along, height - distance),
            "left": (distance, along),
            "right": (width - distance, along),
        }[side]
        return x / sx * MM_PER_PT, y / sy * MM_PER_PT

    # how far each side of the frame lies from the edge of the paper, in pt
    inset = {
        "top": frame[1],
        "bottom": height_pt - frame[3],
        "left": frame[0],
        "right": width_pt - frame[2],
    }
    problems: list[Problem] = []
    for side in _SIDES:
        scale = sy if side in ("top", "bottom") else sx
        near = _nearest(grey, mask, side, bands[side])
        if near is not None:
            distance, along = near
            detail = f"ink {distance / scale * MM_PER_PT:.1f} mm from the {side} edge"
            detail += f" (under {edge_mm:g} mm)"
            problems.append(Problem(number, "edge", detail, spot(side, distance, along)))
        far = _nearest(grey, mask, side, beyond[side])
        if far is not None:
            distance, along = far
            reach = (inset[side] - distance / scale) * MM_PER_PT
            detail = f"ink {reach:.1f} mm {_PLACES[side]} the frame (/ArtBox)"
            problems.append(Problem(number, "frame", detail, spot(side, distance, along)))
    return problems


# ---------------------------------------------------------------- crop marks


_Matrix = tuple[float, float, float, float, float, float]


def _times(m: _Matrix, n: _Matrix) -> _Matrix:
    """m then n: the matrix product m x n of PDF's row-vector convention."""
    a, b, c, d, e, f = m
    p, q, r, s, t, u = n
    return (
        a * p + b * r,
        a * q + b * s,
        c * p + d * r,
        c * q + d * s,
        e * p + f * r + t,
        e * q + f * s + u,
    )


def page_objects(raw: Any, kind: int) -> Iterator[tuple[Any, _Matrix]]:
    """Every object of `kind` (``FPDF_PAGEOBJ_PATH``, ``..._TEXT``) on a page (PDFium's
    handle), in form XObjects too, with its matrix to page space."""
    identity: _Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    yield from _objects(
        raw, pdfium_c.FPDFPage_CountObjects, pdfium_c.FPDFPage_GetObject, identity, kind
    )


def _objects(
    holder: Any, count: Any, get: Any, outer: _Matrix, wanted: int
) -> Iterator[tuple[Any, _Matrix]]:
    matrix = pdfium_c.FS_MATRIX()
    for index in range(count(holder)):
        obj = get(holder, index)
        kind = pdfium_c.FPDFPageObj_GetType(obj)
        if kind not in (wanted, pdfium_c.FPDF_PAGEOBJ_FORM):
            continue
        pdfium_c.FPDFPageObj_GetMatrix(obj, matrix)
        own = (matrix.a, matrix.b, matrix.c, matrix.d, matrix.e, matrix.f)
        if kind == wanted:
            yield obj, _times(own, outer)
        else:
            count_in, get_in = pdfium_c.FPDFFormObj_CountObjects, pdfium_c.FPDFFormObj_GetObject
            yield from _objects(obj, count_in, get_in, _times(own, outer), wanted)


def _painted(obj: Any, getter: Any) -> bool:
    rgba = [ctypes.c_uint() for _ in range(4)]
    if not getter(obj, *rgba):
        return True
    r, g, b, alpha = (v.value for v in rgba)
    return alpha > 0 and (r, g, b) != (255, 255, 255)


def _check_marks(
    page: Any,
    paper: _Paper,
    number: int,
    trim: tuple[float, float, float, float],
    min_mark_pt: float,
) -> list[Problem]:
    fill_mode, stroke = ctypes.c_int(), ctypes.c_int()
    width = ctypes.c_float()
    px, py = ctypes.c_float(), ctypes.c_float()
    found: dict[str, list[tuple[float, float]]] = {}
    for obj, m in page_objects(page, pdfium_c.FPDF_PAGEOBJ_PATH):
        pdfium_c.FPDFPath_GetDrawMode(obj, fill_mode, stroke)
        stroked = bool(stroke.value) and _painted(obj, pdfium_c.FPDFPageObj_GetStrokeColor)
        filled = fill_mode.value != pdfium_c.FPDF_FILLMODE_NONE and _painted(
            obj, pdfium_c.FPDFPageObj_GetFillColor
        )
        if not (stroked or filled):
            continue
        points: list[tuple[float, float]] = []
        for index in range(pdfium_c.FPDFPath_CountSegments(obj)):
            segment = pdfium_c.FPDFPath_GetPathSegment(obj, index)
            pdfium_c.FPDFPathSegment_GetPoint(segment, px, py)
            x, y = px.value, py.value
            points.append((m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]))
        if not points:
            continue
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
        line_width = 0.0
        if stroked:
            pdfium_c.FPDFPageObj_GetStrokeWidth(obj, width)
            # the pen is drawn in the path's own space: scale it to page space
            line_width = width.value * math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))
        reach = line_width / 2
        inside = (
            x1 + reach > trim[0] + SAME_BOX_PT
            and x0 - reach < trim[2] - SAME_BOX_PT
            and y1 + reach > trim[1] + SAME_BOX_PT
            and y0 - reach < trim[3] - SAME_BOX_PT
        )
        if inside:
            continue
        length = math.dist(points[0], points[1]) if len(points) == 2 else max(x1 - x0, y1 - y0)
        thickness = line_width if stroked else min(x1 - x0, y1 - y0)
        if stroked and filled:
            thickness = max(thickness, min(x1 - x0, y1 - y0))
        faults = []
        under = f"(under {min_mark_pt:g} pt)"
        if thickness < min_mark_pt - SIZE_TOLERANCE_PT:
            faults.append(f"{_points(thickness, min_mark_pt)} pt thick {under}")
        if length < min_mark_pt - SIZE_TOLERANCE_PT:
            faults.append(f"{_points(length, min_mark_pt)} pt long {under}")
        elif length * MM_PER_PT < MIN_MARK_MM - 0.01:
            faults.append(f"{length * MM_PER_PT:.1f} mm long (under {MIN_MARK_MM:g} mm)")
        # from the paper's edge along the mark (a pen's half width sideways is no matter)
        edge = min(x0 - paper.left, paper.right - x1, y0 - paper.bottom, paper.top - y1)
        if edge * MM_PER_PT < MARK_EDGE_MM - 0.01:
            faults.append(f"{edge * MM_PER_PT:.1f} mm from the edge (under {MARK_EDGE_MM:g} mm)")
        if faults:
            found.setdefault(" and ".join(faults), []).append(
                paper.mm((x0 + x1) / 2, (y0 + y1) / 2)
            )
    problems = []
    for fault, spots in found.items():
        marks = "crop mark" if len(spots) == 1 else f"{len(spots)} crop marks"
        detail = f"{marks} {fault}"
        problems.append(
            Problem(number, "crop-mark", detail, min(spots, key=lambda s: (s[1], s[0])))
        )
    return problems


# ---------------------------------------------------------------- command line


def main(argv: Sequence[str] | None = None) -> int:
    """Print each file's problems, one a line: exit 1 if there are any, 2 on a bad file."""
    parser = argparse.ArgumentParser(
        prog="python -m tests.printcheck", description="Check PDFs for print problems."
    )
    parser.add_argument("files", nargs="+", type=Path, metavar="FILE.pdf")
    parser.add_argument("--min-text-pt", type=float, default=7.0, help="default: 7")
    parser.add_argument("--edge-mm", type=float, default=4.0, help="default: 4")
    parser.add_argument("--min-mark-pt", type=float, default=0.5, help="default: 0.5")
    args = parser.parse_args(argv)
    status = 0
    for file in args.files:
        try:
            problems = check_pdf(
                file.read_bytes(),
                min_text_pt=args.min_text_pt,
                edge_mm=args.edge_mm,
                min_mark_pt=args.min_mark_pt,
            )
        except (OSError, ValueError) as err:
            print(f"{file}: {err}", file=sys.stderr)
            status = 2
            continue
        for problem in problems:
            print(f"{file}: {problem}" if len(args.files) > 1 else problem)
        status = max(status, 1 if problems else 0)
    return status


if __name__ == "__main__":
    sys.exit(main())
