"""A page's PNG preview (generator.app.preview): the page's proportions, its ink where the
page has it, form fields with their values, the same bytes each time, and refusals."""

from __future__ import annotations

import io

import pytest
from PIL import Image
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.pdfgen import canvas

from generator.app.preview import MAX_WIDTH_PX, page_count, page_png
from generator.errors import InputError


def _pdf() -> bytes:
    """Two pages: A4 with its left half black and a text field holding MMMM at the
    bottom right; Letter, blank."""
    out = io.BytesIO()
    drawing = canvas.Canvas(out, pagesize=A4)
    width, height = A4
    drawing.rect(0, 0, width / 2, height, stroke=0, fill=1)
    drawing.acroForm.textfield(
        name="f",
        value="MMMM",
        x=width * 0.6,
        y=50,
        width=width * 0.3,
        height=60,
        fontSize=40,
        borderWidth=0,
        fillColor=None,
        borderColor=None,
    )
    drawing.showPage()
    drawing.setPageSize(LETTER)
    drawing.showPage()
    drawing.save()
    return out.getvalue()


def _image(png: bytes) -> Image.Image:
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    return Image.open(io.BytesIO(png)).convert("L")


def test_a_page_is_drawn_in_its_proportions_with_its_ink_and_its_fields() -> None:
    pdf = _pdf()
    assert page_count(pdf) == 2
    a4 = _image(page_png(pdf, 1, width_px=400))
    assert a4.size == (400, round(400 * A4[1] / A4[0]))
    assert a4.getpixel((50, 200)) < 40  # the black half
    assert a4.getpixel((350, 200)) > 215  # the white half, above the field
    # the field's value is drawn: dark pixels inside its box (the bottom right)
    box = a4.crop((250, a4.size[1] - 75, 360, a4.size[1] - 30))  # 50 to 110 pt up
    assert box.getextrema()[0] < 100
    letter = _image(page_png(pdf, 2, width_px=400))
    assert letter.size == (400, round(400 * LETTER[1] / LETTER[0]))
    assert letter.getextrema()[0] > 215  # blank


def test_the_same_page_gives_the_same_bytes() -> None:
    pdf = _pdf()
    assert page_png(pdf, 1, width_px=300) == page_png(pdf, 1, width_px=300)


def test_a_page_or_width_out_of_range_is_refused() -> None:
    pdf = _pdf()
    with pytest.raises(InputError, match=r"^page 3: the PDF has pages 1 to 2$"):
        page_png(pdf, 3)
    with pytest.raises(InputError, match=r"^page 0: the PDF has pages 1 to 2$"):
        page_png(pdf, 0)
    with pytest.raises(InputError, match=rf"^width {MAX_WIDTH_PX + 1}: a preview is 100 to"):
        page_png(pdf, 1, width_px=MAX_WIDTH_PX + 1)


def test_what_is_not_a_pdf_is_refused() -> None:
    with pytest.raises(InputError, match=r"^the PDF cannot be read"):
        page_png(b"not a pdf")
