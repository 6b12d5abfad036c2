"""Lay out HTML with WeasyPrint (imported here, lazily) and write PDF bytes.

A packet lays out many sheets and writes their pages once, so fonts are embedded once
and the costly PDF step runs once per packet rather than per sheet.
"""

from __future__ import annotations

import logging
import re
import weakref
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from generator.resources import resource_dir

# the collector's thresholds while this process lays out sheets, in place of Python's
# default (700, 10, 10): a young collection after 10,000 new objects rather than 700, and a
# full one as often as before (after 50,000 rather than 70,000), so memory stays as it was
GC_DEFAULT = (700, 10, 10)
GC_THRESHOLDS = (10_000, 5, 1)


@cache
def _fonts() -> Any:
    """The fonts of every layout in this process, made with its first layout (which also
    makes the garbage collector run less often: `_collect_less_often`)."""
    from weasyprint.text.fonts import FontConfiguration

    _collect_less_often()
    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    return FontConfiguration()


def _collect_less_often() -> None:
    """Set the cyclic garbage collector's thresholds (`GC_THRESHOLDS`) where they are still
    Python's default; whoever embeds the renderer may have set its own.

    A layout makes hundreds of thousands of objects, and at the default the collector ran
    some 600 times a packet, 11 % of its CPU time (a packet and 16 sheets: 17.5 -> 15.6
    CPU-s, the same peak memory; a 16-packet batch's workers as much memory as an 8-packet
    one's, as before).
    """
    import gc

    if gc.get_threshold() == GC_DEFAULT:
        gc.set_threshold(*GC_THRESHOLDS)


PT_PER_MM = 72 / 25.4
# a page's declared boxes: "art" (the frame the sheet keeps to) and "trim" (what is left
# after cutting), each (left, top, right, bottom) in mm from the paper's top-left corner
Boxes = Mapping[str, tuple[float, float, float, float]]
_BOXES: weakref.WeakKeyDictionary[Any, Boxes] = weakref.WeakKeyDictionary()


# a document laid out before its sheet is made (a quick reference, laid out to find its body
# size), by its HTML: the next layout of that HTML takes it rather than laying it out again
_AHEAD: dict[str, Any] = {}


def keep_layout(html: str, document: Any) -> None:
    """Keep `document`, the `layout` of `html` (not fillable), for the next layout of the
    same HTML, which then costs nothing; it is taken once. One document is kept at a time
    (a newer one replaces it), so one that is never asked for holds little memory."""
    _AHEAD.clear()
    _AHEAD[html] = document


def layout(html: str, *, fillable: bool = False, boxes: Boxes | None = None) -> Any:
    """Lay out `html` into a WeasyPrint document (pages); URLs resolve in templates/. A
    document kept for this HTML (`keep_layout`) is taken instead of laying it out again.

    Args:
        fillable: lay inputs out as PDF form fields (decided at layout, not when writing).
        boxes: the page boxes every page declares when written (`write_pdf`).
    """
    laid = None if fillable else _AHEAD.pop(html, None)
    if laid is None:
        laid = _render(html, fillable)
    if boxes:
        for page in laid.pages:
            _BOXES[page] = boxes
    return laid


def _render(html: str, fillable: bool) -> Any:
    """Lay `html` out; where its columns' breaks are known from its twin in the other colour
    scheme, at those breaks (generator/render/columns.py), else balanced by WeasyPrint (and
    the breaks it found kept for the twin)."""
    from weasyprint import HTML

    from generator.render import columns

    def parsed() -> Any:
        return HTML(string=html, base_url=str(resource_dir("templates")) + "/")

    def render(document: Any) -> Any:
        return document.render(font_config=_fonts(), pdf_forms=fillable or None)

    document = parsed()
    key = columns.plan_key(html, fillable=fillable)
    if key is None:
        return render(document)
    plan = columns.known(key)
    if plan is not None and columns.apply(document.etree_element, plan):
        laid = render(document)
        if columns.extract(laid, document.etree_element) == plan:
            return laid
        columns.unlike(key)
        document = parsed()  # the tree was marked: balanced afresh from the HTML
    laid = render(document)
    columns.keep(key, columns.extract(laid, document.etree_element))
    return laid


def _declare_boxes(pages: Sequence[Any]) -> Any:
    """Return a WeasyPrint finisher that writes each page's declared boxes: its frame as
    /ArtBox, its cut size as /TrimBox (a print check reads them; printers honour them)."""

    def finish(document: Any, pdf: Any) -> None:
        for number, page in zip(pdf.pages["Kids"][::3], pages, strict=True):
            boxes = _BOXES.get(page)
            if not boxes:
                continue
            height = page.height * 0.75  # CSS px to pt
            for key, name in (("art", "ArtBox"), ("trim", "TrimBox")):
                if key in boxes:
                    left, top, right, bottom = (v * PT_PER_MM for v in boxes[key])
                    corners = (left, height - bottom, right, height - top)
                    # pydyf writes a text value as it is: a PDF array
                    pdf.objects[number][name] = f"[{' '.join(f'{v:.3f}' for v in corners)}]"

    return finish


# an operator and its operand in a field's default appearance: WeasyPrint writes the
# text's opacity there ("/a1.0 gs"), which a /DA may not hold (ISO 32000-1, 12.7.3.3)
_DA_GRAPHICS_STATE = re.compile(rb"/\S+\s+gs\s*")
# the body face (QM Sans, upright): the font a button's /DA names
_BUTTON_FONT = re.compile(r"\+QM-?Sans$")
# the colour operator of a colour given with this many components
_COLOUR_OPERATOR = {1: "g", 3: "rg", 4: "k"}


def _object(pdf: Any, reference: bytes) -> Any:
    """Return the pydyf object that `reference` (b"12 0 R") names."""
    return pdf.objects[int(reference.split()[0])]


def _finish_forms(pdf: Any) -> None:
    """Make WeasyPrint's form fields show, and fill, alike in every PDF reader.

    WeasyPrint asks readers to draw the fields themselves (NeedAppearances), gives a check
    box only its ticked look and no /DA, writes an opacity operator into text fields' /DA,
    writes widget rectangles top to bottom, and lists each button of a radio group as a
    field of its own as well as a kid of the group. Readers that trust the file (poppler:
    Evince, Okular) then drop the ticks. Here every widget gets a normalised /Rect and an
    appearance for each of its states, every field a /DA naming one of the embedded fonts
    (the sheet's own), and a radio group is one field whose buttons are its widgets, each
    button's "on" state named by its value (``/thrust``).
    """
    # WeasyPrint's PDF objects, which a finisher is given (WeasyPrint brings pydyf)
    import pydyf  # type: ignore[import-untyped]

    form = pdf.catalog.get("AcroForm")
    if form is None:
        return
    fonts = _object(pdf, form["DR"])["Font"]

    def appearance(size: tuple[float, float], content: bytes) -> bytes:
        """Add a form XObject of a widget's `size` drawing `content`; return its reference."""
        stream = pydyf.Stream(
            [content],
            pydyf.Dictionary(
                {
                    "Type": "/XObject",
                    "Subtype": "/Form",
                    "BBox": pydyf.Array((0, 0, *size)),
                    "Resources": pydyf.Dictionary({"Font": fonts}),
                }
            ),
        )
        pdf.add_object(stream)
        reference: bytes = stream.reference
        return reference

    names = {key: str(_object(pdf, ref)["BaseFont"]) for key, ref in _object(pdf, fonts).items()}
    button_font = next((k for k, n in names.items() if _BUTTON_FONT.search(n)), next(iter(names)))
    # the fields' resources are their fonts (the page's graphics states are not theirs)
    resources = pydyf.Dictionary({"Font": fonts})
    pdf.add_object(resources)
    form["DR"] = resources.reference
    form.pop("NeedAppearances", None)

    groups: dict[bytes, Any] = {}
    for page in pdf.pages["Kids"][::3]:
        for reference in pdf.objects[page].get("Annots", ()):
            widget = _object(pdf, reference)
            if widget.get("Subtype") != "/Widget":
                continue
            x0, y0, x1, y1 = (float(v) for v in widget["Rect"])
            widget["Rect"] = pydyf.Array((min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)))
            size = (abs(x1 - x0), abs(y1 - y0))
            if "DA" in widget:
                widget["DA"] = pydyf.String(_DA_GRAPHICS_STATE.sub(b"", widget["DA"].string))
            if widget.get("FT") == "/Tx":
                # empty until filled; a filling program draws the value (PDF 2.0 wants an
                # appearance on every widget)
                empty = appearance(size, b"/Tx BMC EMC")
                widget["AP"] = pydyf.Dictionary({"N": empty})
            elif widget.get("FT") == "/Btn":
                widget["AP"]["N"]["Off"] = appearance(size, b"")
                colour = [f"{float(c):g}" for c in widget.get("MK", {}).get("BC", (0,))]
                operator = _COLOUR_OPERATOR[len(colour)]
                widget["DA"] = pydyf.String(f"/{button_font} 0 Tf {' '.join(colour)} {operator}")
                if "Parent" in widget:
                    groups.setdefault(widget["Parent"], widget)

    buttons: set[bytes] = set()
    for parent_reference, first in groups.items():
        group = _object(pdf, parent_reference)
        group["DA"] = first["DA"]
        # each button's "on" state is its index, and /Opt holds the values: name the
        # states by the values instead (a filled form then says "/slash", not "/1")
        values = [pydyf.name(str(value.string))[1:].decode() for value in group.pop("Opt")]
        for index, (kid, value) in enumerate(zip(group["Kids"], values, strict=True)):
            buttons.add(kid)
            button = _object(pdf, kid)
            for key in ("T", "TU", "FT", "V"):  # the group's, not the button's
                button.pop(key, None)
            looks = button["AP"]["N"]
            looks[value] = looks.pop(index)
            if button["AS"] == f"/{index}":
                button["AS"] = group["V"] = f"/{value}"
    form["Fields"] = pydyf.Array(f for f in form["Fields"] if f not in buttons)


# a font file's bytes, compressed as pydyf compresses a stream (zlib, level 9), by its bytes:
# the bundled fonts are embedded whole, the same bytes in every PDF of a process
_COMPRESSED_FONTS: dict[bytes, bytes] = {}


def _compress_streams(pdf: Any) -> None:
    """Compress each stream of `pdf` once, as pydyf would have as it wrote it, and a font
    file once per process: the same bytes, written for a fraction of the cost.

    pydyf compresses a stream each time it asks for the stream's bytes, and a PDF with an
    identifier asks twice (once to write it, once to hash the file for the identifier);
    the fonts, embedded whole, would be compressed again in every PDF.
    """
    import zlib

    import pydyf

    for stream in pdf.objects:
        if not isinstance(stream, pydyf.Stream) or not stream.compress:
            continue
        raw = b"\n".join(pydyf._to_bytes(item) for item in stream.stream)
        font = "Length1" in stream.extra
        packed = _COMPRESSED_FONTS.get(raw) if font else None
        if packed is None:
            compressor = zlib.compressobj(level=9)
            packed = compressor.compress(raw) + compressor.flush()
            if font:
                _COMPRESSED_FONTS[raw] = packed
        # what pydyf writes for a compressed stream: its dictionary, then /Filter, /Length
        stream.extra["Filter"] = "/FlateDecode"
        stream.stream = [packed]
        stream.compress = False


def write_pdf(
    documents: Sequence[Any], pages: Sequence[Any] | None = None, *, fillable: bool = False
) -> bytes:
    """Write laid-out pages as one PDF; metadata comes from the first document.

    Args:
        documents: laid-out documents, written one after the other.
        pages: the pages to write instead (picked from those documents, in any order).
        fillable: make the sheets' inputs PDF form fields.
    """
    first = documents[0]
    chosen = list(pages) if pages is not None else [p for d in documents for p in d.pages]
    declare_boxes = _declare_boxes(chosen)

    def finish(document: Any, pdf: Any) -> None:
        import pydyf

        declare_boxes(document, pdf)
        _finish_forms(pdf)
        # a viewer's window says the sheet's title, not the file's name
        pdf.catalog["ViewerPreferences"] = pydyf.Dictionary({"DisplayDocTitle": "true"})
        _compress_streams(pdf)

    pdf = first.copy(chosen).write_pdf(
        finisher=finish,
        pdf_forms=fillable or None,
        pdf_identifier=b"quartermaster",
        # the bundled fonts are already subsets (tools/subset_fonts.py): embedding them whole
        # skips a per-document fontTools subset that cost most of the render time
        full_fonts=True,
    )
    assert isinstance(pdf, bytes)
    return pdf


def html_to_pdf(html: str, *, fillable: bool = False, boxes: Boxes | None = None) -> bytes:
    """Return the PDF of one HTML sheet (its pages declaring `boxes`)."""
    return write_pdf([layout(html, fillable=fillable, boxes=boxes)], fillable=fillable)
