"""Lay out HTML with WeasyPrint (imported here, lazily) and write PDF bytes.

A packet lays out many sheets and writes their pages once, so fonts are embedded once
and the costly PDF step runs once per packet rather than per sheet.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from generator.resources import resource_dir


@cache
def _fonts() -> Any:
    from weasyprint.text.fonts import FontConfiguration

    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    return FontConfiguration()


PT_PER_MM = 72 / 25.4
# a page's declared boxes: "art" (the frame the sheet keeps to) and "trim" (what is left
# after cutting), each (left, top, right, bottom) in mm from the paper's top-left corner
Boxes = Mapping[str, tuple[float, float, float, float]]
_BOXES: weakref.WeakKeyDictionary[Any, Boxes] = weakref.WeakKeyDictionary()


def layout(html: str, *, fillable: bool = False, boxes: Boxes | None = None) -> Any:
    """Lay out `html` into a WeasyPrint document (pages); URLs resolve in templates/.

    Args:
        fillable: lay inputs out as PDF form fields (decided at layout, not when writing).
        boxes: the page boxes every page declares when written (`write_pdf`).
    """
    from weasyprint import HTML

    document = HTML(string=html, base_url=str(resource_dir("templates")) + "/")
    laid = document.render(font_config=_fonts(), pdf_forms=fillable or None)
    if boxes:
        for page in laid.pages:
            _BOXES[page] = boxes
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
    pdf = first.copy(chosen).write_pdf(
        finisher=_declare_boxes(chosen),
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
