"""Lay out HTML with WeasyPrint (imported here, lazily) and write PDF bytes.

A packet lays out many sheets and writes their pages once, so fonts are embedded once
and the costly PDF step runs once per packet rather than per sheet.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from functools import cache
from typing import Any

from generator.resources import resource_dir


@cache
def _fonts() -> Any:
    from weasyprint.text.fonts import FontConfiguration

    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    return FontConfiguration()


def layout(html: str, *, fillable: bool = False) -> Any:
    """Lay out `html` into a WeasyPrint document (pages); URLs resolve in templates/.

    Args:
        fillable: lay inputs out as PDF form fields (decided at layout, not when writing).
    """
    from weasyprint import HTML

    document = HTML(string=html, base_url=str(resource_dir("templates")) + "/")
    return document.render(font_config=_fonts(), pdf_forms=fillable or None)


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
        pdf_forms=fillable or None,
        pdf_identifier=b"quartermaster",
        # the bundled fonts are already subsets (tools/subset_fonts.py): embedding them whole
        # skips a per-document fontTools subset that cost most of the render time
        full_fonts=True,
    )
    assert isinstance(pdf, bytes)
    return pdf


def html_to_pdf(html: str, *, fillable: bool = False) -> bytes:
    """Return the PDF of one HTML sheet."""
    return write_pdf([layout(html, fillable=fillable)], fillable=fillable)
