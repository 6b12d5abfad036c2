"""Helpers the sheet tests share: read a rendered PDF back with pypdf and measure what it holds.

Lengths are in PDF points (1/72 inch) unless a helper says otherwise; the y of a text run or
a rectangle is measured down from the top of the page. A page's text is read by PDFium, for
every page of a PDF at once (`page_text`); its text runs, colours and thin rectangles by one
walk of its content stream with pypdf (`_scan`), whichever helpers ask about them. Both are
kept as long as the reader lives, and for a reader opened from bytes (`read`), with those
bytes: the same bytes read again soon are not read again.
"""

from __future__ import annotations

import ctypes
import hashlib
import io
import re
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple

import pypdfium2 as pdfium  # type: ignore[import-untyped]
import pypdfium2.raw as pdfium_c  # type: ignore[import-untyped]
from pypdf import PageObject, PdfReader

from generator.app.preview import page_texts
from tests.printcheck import page_objects, smallest_text_pt

PAGE_SIZES: dict[str, tuple[float, float]] = {"a4": (595.3, 841.9), "letter": (612.0, 792.0)}
"""Page width and height in pt, rounded as `page_size` rounds them, for each paper."""
MM = 72 / 25.4
"""Points in a millimetre."""
BLACK_AND_WHITE: frozenset[tuple[float, ...]] = frozenset(
    {(0.0, 0.0, 0.0), (1.0, 1.0, 1.0), (0.0,), (1.0,)}
)
"""The only colours (as `colours` gives them) a black-and-white sheet may set."""

_COLOUR_OPERATORS = (b"rg", b"RG", b"g", b"G", b"sc", b"SC", b"scn", b"SCN")
_THIN_PT = 1.5

Rect = tuple[float, float, float, float]


class Run(NamedTuple):
    """A piece of text as drawn: its position from the top-left and its size, in pt."""

    text: str
    x: float
    y: float
    size: float


class Widget(NamedTuple):
    """A form widget: page index, field name, field type (/Tx, /Btn) and rectangle (x0, y0,
    x1, y1 with x0 <= x1 and y0 <= y1, from the bottom-left; in pt unless asked otherwise)."""

    page: int
    name: str
    kind: str
    rect: Rect

    @property
    def width(self) -> float:
        return self.rect[2] - self.rect[0]

    @property
    def height(self) -> float:
        return self.rect[3] - self.rect[1]


@dataclass(frozen=True)
class _Scan:
    """What one walk of a page's content stream finds."""

    runs: tuple[Run, ...]
    colour_operands: frozenset[tuple[Any, ...]]  # as pypdf reads them: numbers, or a pattern
    thin_rects: frozenset[Rect]


_SCANS: weakref.WeakKeyDictionary[PdfReader, dict[tuple[int, int], _Scan]] = (
    weakref.WeakKeyDictionary()
)
# the scans of the readers opened from bytes, by the bytes' sha-256, for the PDFs read last:
# the tests read the same render (a packet, a sheet made once per session) many times
_SCANS_OF_BYTES: OrderedDict[str, dict[tuple[int, int], _Scan]] = OrderedDict()
_PDFS_KEPT = 64


def read(pdf: bytes) -> PdfReader:
    """Open a PDF held in memory (its pages' scans are shared with a reader of the same
    bytes opened not long before)."""
    reader = PdfReader(io.BytesIO(pdf))
    _SCANS[reader] = _recent(_SCANS_OF_BYTES, hashlib.sha256(pdf).hexdigest(), dict)
    return reader


def _recent(kept: OrderedDict[str, Any], key: str, make: Callable[[], Any]) -> Any:
    """What `kept` holds for the PDF whose bytes hash to `key` (made now if it holds
    nothing), kept among the `_PDFS_KEPT` PDFs read last."""
    if key not in kept:
        kept[key] = make()
    kept.move_to_end(key)
    while len(kept) > _PDFS_KEPT:
        kept.popitem(last=False)
    return kept[key]


def page_size(reader: PdfReader, index: int = 0) -> tuple[float, float]:
    """Return the width and height of a page in pt, rounded to 0.1 pt (see PAGE_SIZES)."""
    box = reader.pages[index].mediabox
    return round(float(box.width), 1), round(float(box.height), 1)


def _times(a: list[float], b: list[float]) -> list[float]:
    """Multiply two PDF matrices [a b c d e f]: first a, then b."""
    return [
        a[0] * b[0] + a[1] * b[2],
        a[0] * b[1] + a[1] * b[3],
        a[2] * b[0] + a[3] * b[2],
        a[2] * b[1] + a[3] * b[3],
        a[4] * b[0] + a[5] * b[2] + b[4],
        a[4] * b[1] + a[5] * b[3] + b[5],
    ]


def _walk(page: PageObject) -> _Scan:
    height = float(page.mediabox.height)
    runs: list[Run] = []
    colours: set[tuple[Any, ...]] = set()
    thin: set[Rect] = set()

    def on_text(text: str, cm: list[float], tm: list[float], font: Any, size: float) -> None:
        if text.strip():
            m = _times(list(tm), list(cm))
            # the size on paper: the font size times the length of the text's up axis, so
            # turned text measures as it reads
            scale = (m[2] ** 2 + m[3] ** 2) ** 0.5
            runs.append(Run(text.strip(), m[4], height - m[5], size * scale))

    def on_operator(op: bytes, args: list[Any], cm: list[float], tm: list[float]) -> None:
        if op in _COLOUR_OPERATORS:
            colours.add(tuple(args))
        elif op == b"re" and cm[1] == 0 and cm[2] == 0:  # a rectangle, not turned
            x, y, w, h = (float(v) for v in args)
            x0, y0 = x * cm[0] + cm[4], y * cm[3] + cm[5]
            w, h = abs(w * cm[0]), abs(h * cm[3])
            top = height - max(y0, y0 + h * (1 if cm[3] > 0 else -1))
            if min(w, h) < _THIN_PT:
                thin.add((round(min(x0, x0 + w), 2), round(top, 2), round(w, 3), round(h, 3)))

    page.extract_text(visitor_operand_before=on_operator, visitor_text=on_text)
    return _Scan(tuple(runs), frozenset(colours), frozenset(thin))


def _scan(page: PageObject) -> _Scan:
    """Walk a page once; a page of a reader is walked once for as long as the reader lives
    (and not again for the same bytes read again soon with `read`)."""
    reader, ref = page.pdf, page.indirect_reference
    if not isinstance(reader, PdfReader) or ref is None:
        return _walk(page)
    scans = _SCANS.setdefault(reader, {})
    key = (ref.idnum, ref.generation)
    if key not in scans:
        scans[key] = _walk(page)
    return scans[key]


def page_text(page: PageObject) -> str:
    """Return the page's text as PDFium reads it: its lines in reading order, one newline
    between them, a hyphen where a word breaks at a line's end.

    PDFium reads a page's text some twenty times faster than pypdf's `extract_text` (what
    the tests read most); a page that belongs to no reader is read by pypdf.
    """
    reader, number = page.pdf, page.page_number
    if not isinstance(reader, PdfReader) or number is None or number < 0:
        return page.extract_text()
    return _of_pages(reader, _TEXTS, _TEXTS_OF_BYTES, page_texts)[number]


def _of_pages(
    reader: PdfReader,
    by_reader: weakref.WeakKeyDictionary[PdfReader, list[Any]],
    by_bytes: OrderedDict[str, list[Any]],
    read_all: Callable[[bytes], list[Any]],
) -> list[Any]:
    """What `read_all` finds on each page of the PDF `reader` reads: found once per reader,
    and not again for the same bytes read again soon (with another reader)."""
    found = by_reader.get(reader)
    if found is None:
        pdf = _bytes_of(reader)
        found = _recent(by_bytes, hashlib.sha256(pdf).hexdigest(), lambda: read_all(pdf))
        by_reader[reader] = found
    return found


def _bytes_of(reader: PdfReader) -> bytes:
    """The bytes a reader reads."""
    stream = reader.stream
    where = stream.tell()
    stream.seek(0)
    pdf = stream.read()
    stream.seek(where)
    return bytes(pdf)


_TEXTS: weakref.WeakKeyDictionary[PdfReader, list[str]] = weakref.WeakKeyDictionary()
_TEXTS_OF_BYTES: OrderedDict[str, list[str]] = OrderedDict()


def extracted_text(reader: PdfReader) -> str:
    """Return the text of every page as pypdf extracts it, a newline between pages."""
    return "\n".join(page_text(page) for page in reader.pages)


def flat(reader: PdfReader) -> str:
    """Return the text of every page on one line: each run of whitespace one space."""
    return " ".join(" ".join(page_text(page) for page in reader.pages).split())


def squeeze(text: str) -> str:
    """Return text without whitespace: lines may break anywhere, after a slash too."""
    return "".join(text.split())


def runs(page: PageObject) -> list[Run]:
    """Return the page's text runs: text, x and y from the top-left (pt), size (pt)."""
    return list(_scan(page).runs)


def drawn_text(page: PageObject) -> list[Run]:
    """Return the page's text as drawn, read by PDFium: one Run per text object (each piece
    of text the page shows at once; `runs`, from pypdf, joins those along a line into one),
    its text, the x and y where its baseline starts from the top-left (pt) and its size (pt).
    Every line of text is here at its own baseline; PDFium reads a page some eight times
    faster than pypdf walks it."""
    reader, number = page.pdf, page.page_number
    assert isinstance(reader, PdfReader) and number is not None and number >= 0
    return list(_of_pages(reader, _DRAWN, _DRAWN_OF_BYTES, _drawn)[number])


_DRAWN: weakref.WeakKeyDictionary[PdfReader, list[list[Run]]] = weakref.WeakKeyDictionary()
_DRAWN_OF_BYTES: OrderedDict[str, list[list[Run]]] = OrderedDict()


def _drawn(pdf: bytes) -> list[list[Run]]:
    """Every page's text objects, in form XObjects too (their matrices applied)."""
    document = pdfium.PdfDocument(pdf)
    try:
        return [_page_drawn(document[index]) for index in range(len(document))]
    finally:
        document.close()


def _page_drawn(page: Any) -> list[Run]:
    textpage = page.get_textpage()
    height = page.get_height()
    size = ctypes.c_float()
    found: list[Run] = []
    try:
        for obj, m in page_objects(page.raw, pdfium_c.FPDF_PAGEOBJ_TEXT):
            length = pdfium_c.FPDFTextObj_GetText(obj, textpage.raw, None, 0)
            buffer = (ctypes.c_ushort * max(length // 2, 1))()
            pdfium_c.FPDFTextObj_GetText(obj, textpage.raw, buffer, length)
            text = bytes(buffer)[: max(length - 2, 0)].decode("utf-16-le", "replace")
            pdfium_c.FPDFTextObj_GetFontSize(obj, size)
            if text.strip():
                # the size on paper: the font size times the length of the text's up axis
                scale = (m[2] ** 2 + m[3] ** 2) ** 0.5
                found.append(Run(text.strip(), m[4], height - m[5], size.value * scale))
    finally:
        textpage.close()
        page.close()
    return found


def smallest_text(reader: PdfReader) -> float:
    """Return the size in pt of the smallest text on any page (ValueError if there is none),
    read by PDFium as the print check reads it."""
    return smallest_text_pt(_bytes_of(reader))


def thin_rects(page: PageObject) -> set[Rect]:
    """Return the rectangles thinner than 1.5 pt: x, y from the top, width, height."""
    return set(_scan(page).thin_rects)


def colours(reader: PdfReader) -> set[tuple[float, ...]]:
    """Return every colour set (the operands of rg, RG, g, G, sc, SC, scn, SCN) on any page,
    in form XObjects too, as tuples of floats; ValueError if a page sets a pattern."""
    return {
        tuple(float(a) for a in operands)
        for page in reader.pages
        for operands in _scan(page).colour_operands
    }


def colours_as_written(reader: PdfReader) -> set[str]:
    """Return every colour the pages' own content streams set (fill and stroke operands, CMYK
    included), as the numbers are written there, one space apart: "0 0 0", "1", ..."""
    found = set()
    for page in reader.pages:
        contents = page.get_contents()
        if contents is None:
            continue
        data = contents.get_data().decode("latin-1")
        for match in re.finditer(r"((?:-?[\d.]+\s+){1,4})(rg|RG|g|G|k|K|scn|SCN|sc|SC)\b", data):
            found.add(" ".join(match[1].split()))
    return found


def _inherited(field: Any, key: str) -> str | None:
    """Return a field's entry, or the nearest parent field's if it has none of its own."""
    while field is not None:
        if field.get(key):
            return str(field[key])
        field = field.get("/Parent")
        field = field.get_object() if field is not None else None
    return None


def fields(reader: PdfReader) -> Iterator[Any]:
    """Every field of the form that has a value (its widgets' parent, or a widget that is
    its own field), each once."""
    seen: set[int] = set()
    for page in reader.pages:
        for annot in page.get("/Annots") or []:
            widget = annot.get_object()
            if widget.get("/Subtype") != "/Widget":
                continue
            field = widget["/Parent"].get_object() if "/Parent" in widget else widget
            if id(field) not in seen:
                seen.add(id(field))
                yield field


def widgets(reader: PdfReader, *, unit: float = 1.0) -> list[Widget]:
    """Return every form widget, page by page; the rectangle in pt, or in `unit` pt
    (`unit=MM` for millimetres). A widget without a name or type of its own takes its
    parent field's."""
    found = []
    for index, page in enumerate(reader.pages):
        for annot in page.get("/Annots") or []:
            widget = annot.get_object()
            if widget.get("/Subtype") == "/Widget":
                name = _inherited(widget, "/T")
                if name is None:
                    raise KeyError(f"a widget on page {index + 1} has no field name")
                x0, y0, x1, y1 = (float(v) / unit for v in widget["/Rect"])
                rect = (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
                found.append(Widget(index, name, _inherited(widget, "/FT") or "", rect))
    return found


def outline(reader: PdfReader) -> list[tuple[int, str, int]]:
    """Return (depth, title, page number from 1) for every bookmark."""
    out: list[tuple[int, str, int]] = []

    def walk(items: list[Any], depth: int) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item, depth + 1)
            else:
                number = reader.get_destination_page_number(item)
                assert number is not None, f"bookmark {item.title!r} points to no page"
                out.append((depth, str(item.title), number + 1))

    walk(reader.outline, 0)
    return out
