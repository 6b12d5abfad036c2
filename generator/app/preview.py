"""A page of a PDF made, drawn as a PNG for a preview on screen (the web app shows a
packet's pages before it is printed).

PDFium draws the page (pypdfium2, the renderer of Chrome's PDF viewer), so the preview is
what a reader shows, form fields and their values included; Pillow writes the PNG.
"""

from __future__ import annotations

import io

import pypdfium2

from generator.errors import InputError

#: the preview's width in pixels unless asked otherwise: a page across a laptop's window
PREVIEW_WIDTH_PX = 800
#: the widths a preview may be drawn at: from a phone's thumbnail to a print-sized page
MIN_WIDTH_PX, MAX_WIDTH_PX = 100, 2400


def page_count(pdf: bytes) -> int:
    """Return the number of pages of `pdf`."""
    document = _open(pdf)
    try:
        return len(document)
    finally:
        document.close()


def page_png(pdf: bytes, page: int = 1, *, width_px: int = PREVIEW_WIDTH_PX) -> bytes:
    """Return page `page` (counted from 1) of `pdf` drawn `width_px` pixels wide as PNG
    bytes, its height in the page's proportions; the same PDF gives the same bytes."""
    if not MIN_WIDTH_PX <= width_px <= MAX_WIDTH_PX:
        raise InputError(f"width {width_px}: a preview is {MIN_WIDTH_PX} to {MAX_WIDTH_PX} px wide")
    document = _open(pdf)
    try:
        pages = len(document)
        if not 1 <= page <= pages:
            raise InputError(f"page {page}: the PDF has pages 1 to {pages}")
        drawn = document[page - 1]
        try:
            width_pt, _height = drawn.get_size()
            bitmap = drawn.render(scale=width_px / width_pt, may_draw_forms=True)
            image = bitmap.to_pil()
        finally:
            drawn.close()
    finally:
        document.close()
    out = io.BytesIO()
    # a fast, light compression: a preview is drawn on every request and read once
    image.save(out, format="PNG", compress_level=1)
    return out.getvalue()


def page_texts(pdf: bytes) -> list[str]:
    """Return the text of each page of `pdf` as PDFium reads it, what a reader's search finds
    on the page: its lines in reading order, one newline between them, a hyphen where a word
    breaks at a line's end."""
    document = _open(pdf)
    texts = []
    try:
        for index in range(len(document)):
            page = document[index]
            textpage = page.get_textpage()
            try:
                text = textpage.get_text_range()
            finally:
                textpage.close()
                page.close()
            texts.append(text.replace("\r\n", "\n").translate(_LINE_END_HYPHENS))
    finally:
        document.close()
    return texts


# PDFium's marks for a hyphen that ends a line: by character, and in a page's text
_LINE_END_HYPHENS = str.maketrans({"\x02": "-", "\ufffe": "-"})


def _open(pdf: bytes) -> pypdfium2.PdfDocument:
    try:
        document = pypdfium2.PdfDocument(pdf)
    except pypdfium2.PdfiumError as exc:
        raise InputError(f"the PDF cannot be read: {exc}") from None
    document.init_forms()
    return document
