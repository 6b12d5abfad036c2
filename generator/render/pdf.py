"""Lay out HTML into PDF bytes with WeasyPrint (imported here, lazily)."""

from __future__ import annotations

from functools import cache
from typing import Any

from generator.resources import resource_dir


@cache
def _fonts() -> Any:
    from weasyprint.text.fonts import FontConfiguration

    return FontConfiguration()


def html_to_pdf(html: str, *, fillable: bool = False) -> bytes:
    """Return the PDF of `html`; relative URLs (fonts, CSS) resolve in templates/.

    Args:
        fillable: make the sheet's inputs PDF form fields.
    """
    import logging

    from weasyprint import HTML

    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    document = HTML(string=html, base_url=str(resource_dir("templates")) + "/")
    pdf = document.write_pdf(
        font_config=_fonts(),
        pdf_forms=fillable or None,
        pdf_identifier=b"quartermaster",
        # the bundled fonts are already subsets (tools/subset_fonts.py): embedding them whole
        # skips a per-document fontTools subset that cost most of the render time
        full_fonts=True,
    )
    assert isinstance(pdf, bytes)
    return pdf
