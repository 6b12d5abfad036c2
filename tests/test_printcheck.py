"""The print checker (tests/printcheck.py) on small PDFs drawn with ReportLab, each with one
known defect, or none."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from reportlab.lib.colors import HexColor, white
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from tests.printcheck import Problem, check_pdf, main

REPO = Path(__file__).resolve().parents[1]
WIDTH, HEIGHT = A4
Draw = Callable[[Canvas], None]


def make_pdf(*pages: Draw) -> bytes:
    """A PDF of A4 pages, each drawn by one function (which may set the page's boxes)."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4)
    for draw in pages:
        draw(canvas)
        canvas.showPage()
        canvas.setArtBox(None)  # a box set on a canvas holds for the pages after it too
        canvas.setTrimBox(None)
    canvas.save()
    return buffer.getvalue()


def body(canvas: Canvas) -> None:
    """Ordinary content, well inside the page: what a clean sheet has."""
    canvas.setFont("Helvetica", 9)
    canvas.drawString(30 * mm, 250 * mm, "A plain line of nine-point text.")
    canvas.setFillColor(HexColor("#e8f1f6"))
    canvas.rect(30 * mm, 200 * mm, 100 * mm, 30 * mm, fill=1, stroke=0)
    canvas.setFillColor(white)  # a white shape to the very edges is no ink
    canvas.rect(0, 0, WIDTH, 20 * mm, fill=1, stroke=0)
    canvas.setFillColorRGB(0, 0, 0)


def turned(canvas: Canvas, x: float, y: float, size: float, text: str) -> None:
    """Text turned 90 degrees (reading upwards), its baseline starting at x, y."""
    canvas.saveState()
    canvas.translate(x, y)
    canvas.rotate(90)
    canvas.setFont("Helvetica", size)
    canvas.drawString(0, 0, text)
    canvas.restoreState()


def numbers(problem: Problem) -> list[float]:
    return [float(n) for n in re.findall(r"\d+(?:\.\d+)?", problem.detail)]


# the raster is 144 dpi: a distance is good to a pixel, 0.18 mm (PDFium fills an upright
# rectangle out to whole pixels), and is shown to 0.1 mm
PIXEL_MM = 25.4 / 144
READ_MM = PIXEL_MM + 0.05


def edge_problem(problem: Problem, edge: str, distance_mm: float, limit_mm: float = 4) -> bool:
    """Whether a problem is ink `distance_mm` from `edge` (within a pixel), and nothing else."""
    found = re.fullmatch(
        rf"ink (\d+\.\d) mm from the {edge} edge \(under {limit_mm:g} mm\)", problem.detail
    )
    return (
        problem.check == "edge"
        and found is not None
        and abs(float(found[1]) - distance_mm) <= READ_MM
    )


# ---------------------------------------------------------------- clean


def test_clean_page_has_no_problems() -> None:
    assert check_pdf(make_pdf(body)) == []


def test_seven_point_text_is_fine() -> None:
    def draw(canvas: Canvas) -> None:
        canvas.setFont("Helvetica", 7)
        canvas.drawString(30 * mm, 200 * mm, "Seven-point text, at the limit.")
        # 14 pt squeezed to half its width is still 14 pt tall: not small
        canvas.saveState()
        canvas.translate(30 * mm, 180 * mm)
        canvas.scale(0.5, 1)
        canvas.setFont("Helvetica", 14)
        canvas.drawString(0, 0, "Condensed heading")
        canvas.restoreState()

    assert check_pdf(make_pdf(draw)) == []


def test_large_turned_text_is_not_small() -> None:
    pdf = make_pdf(lambda c: turned(c, 100 * mm, 100 * mm, 20, "Twenty points, turned"))
    assert check_pdf(pdf) == []


# ---------------------------------------------------------------- small text


def test_small_text() -> None:
    def draw(canvas: Canvas) -> None:
        body(canvas)
        canvas.setFont("Helvetica", 6.5)
        canvas.drawString(40 * mm, 150 * mm, "Too small to read")

    [problem] = check_pdf(make_pdf(draw))
    assert (problem.page, problem.check) == (1, "small-text")
    assert problem.detail == '"Too small to read" is 6.5 pt (under 7 pt)'
    # the top-left of the first letter: 40 mm in, the cap height above the baseline
    assert problem.where[0] == pytest.approx(40, abs=0.3)
    assert problem.where[1] == pytest.approx(297 - 150 - 6.5 * 0.72 / 72 * 25.4, abs=0.3)


def test_small_turned_text() -> None:
    def draw(canvas: Canvas) -> None:
        body(canvas)
        turned(canvas, 100 * mm, 100 * mm, 6.5, "Turned and too small")

    [problem] = check_pdf(make_pdf(draw))
    assert (problem.page, problem.check) == (1, "small-text")
    assert problem.detail == '"Turned and too small" is 6.5 pt (under 7 pt)'


def test_squashed_text_is_small() -> None:
    def draw(canvas: Canvas) -> None:
        canvas.saveState()
        canvas.translate(30 * mm, 180 * mm)
        canvas.scale(1, 0.45)  # 14 pt squashed to 6.3 pt tall, however wide
        canvas.setFont("Helvetica", 14)
        canvas.drawString(0, 0, "Squashed")
        canvas.restoreState()

    [problem] = check_pdf(make_pdf(draw))
    assert (problem.check, problem.detail) == ("small-text", '"Squashed" is 6.3 pt (under 7 pt)')


def test_small_text_is_one_problem_per_stretch() -> None:
    def draw(canvas: Canvas) -> None:
        canvas.setFont("Helvetica", 6)
        for line in range(5):
            canvas.drawString(30 * mm, (200 - 4 * line) * mm, f"Small line {line + 1}")
        canvas.setFont("Helvetica", 9)
        canvas.drawString(30 * mm, 150 * mm, "A normal line between.")
        canvas.setFont("Helvetica", 5)
        canvas.drawString(30 * mm, 140 * mm, "Even smaller")

    problems = check_pdf(make_pdf(draw), min_text_pt=6.5)
    assert [p.detail for p in problems] == [
        '"Small line 1 Small line 2 Small lin…" is 6.0 pt (under 6.5 pt)',
        '"Even smaller" is 5.0 pt (under 6.5 pt)',
    ]


# ---------------------------------------------------------------- edges


def near_edge(edge: str) -> Draw:
    """A black square whose nearest side is 3 mm from one edge of the page."""
    side = 10 * mm

    def draw(canvas: Canvas) -> None:
        body(canvas)
        x, y = {
            "top": (100 * mm, HEIGHT - 3 * mm - side),
            "bottom": (100 * mm, 3 * mm),
            "left": (3 * mm, 150 * mm),
            "right": (WIDTH - 3 * mm - side, 150 * mm),
        }[edge]
        canvas.rect(x, y, side, side, fill=1, stroke=0)

    return draw


def test_ink_near_each_edge() -> None:
    edges = ("top", "bottom", "left", "right")
    problems = check_pdf(make_pdf(*(near_edge(edge) for edge in edges)))
    assert [(p.page, p.check) for p in problems] == [(n, "edge") for n in (1, 2, 3, 4)]
    for problem, edge in zip(problems, edges, strict=True):
        assert edge_problem(problem, edge, 3.0), problem
    top, bottom, left, right = (p.where for p in problems)
    assert top == pytest.approx((100, 3), abs=PIXEL_MM)
    assert bottom == pytest.approx((100, 297 - 3), abs=PIXEL_MM)
    assert left == pytest.approx((3, 297 - 160), abs=PIXEL_MM)
    assert right == pytest.approx((210 - 3, 297 - 160), abs=PIXEL_MM)


def test_a_smaller_edge_lets_the_ink_be() -> None:
    pdf = make_pdf(near_edge("left"))
    assert check_pdf(pdf, edge_mm=2.9) == []
    [problem] = check_pdf(pdf, edge_mm=3.2)
    assert edge_problem(problem, "left", 3.0, limit_mm=3.2), problem


@pytest.mark.parametrize("tint", ["#f3e1da", "#e8f1f6"])
def test_pale_tint_near_an_edge_is_ink(tint: str) -> None:
    def draw(canvas: Canvas) -> None:
        canvas.setFillColor(HexColor(tint))
        canvas.rect(2 * mm, 100 * mm, 50 * mm, 50 * mm, fill=1, stroke=0)

    [problem] = check_pdf(make_pdf(draw))
    assert edge_problem(problem, "left", 2.0), problem


@pytest.mark.parametrize(("shown_mm", "problems"), [(5, 0), (2, 1)])
def test_clipped_shape_counts_only_where_it_shows(shown_mm: float, problems: int) -> None:
    def draw(canvas: Canvas) -> None:
        canvas.saveState()
        window = canvas.beginPath()
        window.rect(shown_mm * mm, 100 * mm, 60 * mm, 60 * mm)
        canvas.clipPath(window, stroke=0, fill=0)
        # a map drawn whole, right across the paper: only its window prints
        canvas.setFillColor(HexColor("#9bb7c9"))
        canvas.rect(0, 0, WIDTH, HEIGHT, fill=1, stroke=0)
        canvas.restoreState()

    found = check_pdf(make_pdf(draw))
    assert len(found) == problems
    if problems:
        assert edge_problem(found[0], "left", shown_mm), found


def test_shape_ending_on_the_limit_is_fine() -> None:
    def draw(canvas: Canvas) -> None:
        canvas.rect(4 * mm, 4 * mm, 100 * mm, 100 * mm, fill=1, stroke=0)

    assert check_pdf(make_pdf(draw)) == []


# ---------------------------------------------------------------- overlap


def test_text_over_text() -> None:
    def draw(canvas: Canvas) -> None:
        body(canvas)
        canvas.setFont("Helvetica", 10)
        canvas.drawString(40 * mm, 180 * mm, "Scenario map - A1")
        canvas.setFont("Helvetica-Oblique", 9)
        canvas.drawString(43 * mm, 180.5 * mm, "House tables used")

    [problem] = check_pdf(make_pdf(draw))
    assert (problem.page, problem.check) == (1, "overlap")
    assert problem.detail == '"House tables used" over "Scenario map - A1"'
    assert problem.where[1] == pytest.approx(297 - 181.5, abs=1.5)
    assert 40 < problem.where[0] < 80
    assert str(problem).startswith(
        'page 1: overlap: "House tables used" over "Scenario map - A1" at '
    )


def test_turned_text_over_text() -> None:
    def draw(canvas: Canvas) -> None:
        canvas.setFont("Helvetica", 12)
        canvas.drawString(60 * mm, 150 * mm, "Across the page")
        # up through the "o", with the "e" of "the" on it: the letters' tops face left
        x = 60 * mm + canvas.stringWidth("Acr", "Helvetica", 12) + 7
        turned(
            canvas, x, 150 * mm - canvas.stringWidth("Up th", "Helvetica", 12), 12, "Up the page"
        )

    [problem] = check_pdf(make_pdf(draw))
    assert (problem.check, problem.detail) == ("overlap", '"Up the page" over "Across the page"')


def test_solid_paragraph_and_kerning_do_not_overlap() -> None:
    lines = [
        "ÉLAN Ågård Ölig: the quick brown fox jumps",
        "gypsy quay, jiggly pygmy — yelping dogs Äß",
        "ÂÊÎ ÔÛ Çà ça: fjord glyphs by height",
        "TTTT ffff ||||| yyyy gggg ÉÉÉÉ ÅÅÅÅ",
    ]

    def draw(canvas: Canvas) -> None:
        for size, leading, y in ((9, 1.0, 250), (12, 1.05, 200), (7, 1.1, 150)):
            text = canvas.beginText(30 * mm, y * mm)
            text.setFont("Helvetica", size, leading=size * leading)
            for line in lines:
                text.textLine(line)
            canvas.drawText(text)
        # tight tracking, and kerning pairs set by hand as a font would
        text = canvas.beginText(30 * mm, 100 * mm)
        text.setFont("Times-Roman", 14)
        text.setCharSpace(-0.7)
        text.textLine("AVAWAYA To Ty Wa Yo LT LV P. F, WAVE")
        canvas.drawText(text)
        x = 30 * mm
        canvas.setFont("Times-Roman", 14)
        for char, kern in zip("AVATAR WAVY", [-2.0] * 11, strict=True):
            canvas.drawString(x, 80 * mm, char)
            x += canvas.stringWidth(char, "Times-Roman", 14) + kern

    assert check_pdf(make_pdf(draw)) == []


# ---------------------------------------------------------------- frame


def test_ink_outside_the_frame() -> None:
    frame = (20 * mm, 30 * mm, WIDTH - 20 * mm, HEIGHT - 30 * mm)

    def draw(canvas: Canvas) -> None:
        canvas.setArtBox(frame)
        canvas.setFont("Helvetica", 9)
        canvas.drawString(30 * mm, 200 * mm, "Inside the frame: fine.")
        canvas.rect(25 * mm, 35 * mm, 160 * mm, 10 * mm, fill=1, stroke=0)
        canvas.drawString(8 * mm, 150 * mm, "Out to the left")  # starts 12 mm left of it
        canvas.rect(60 * mm, 22 * mm, 30 * mm, 15 * mm, fill=1, stroke=0)  # 8 mm below

    problems = check_pdf(make_pdf(draw))
    assert [(p.page, p.check) for p in problems] == [(1, "frame"), (1, "frame")]
    left, below = sorted(problems, key=lambda p: p.where)
    assert below.detail.endswith("mm below the frame (/ArtBox)")
    assert numbers(below)[0] == pytest.approx(8, abs=READ_MM)
    assert below.where == pytest.approx((60, 297 - 22), abs=0.3)
    assert left.detail.endswith("mm left of the frame (/ArtBox)")
    assert 11.5 <= numbers(left)[0] <= 12.0  # the "O" starts a little right of its origin
    assert left.where[0] == pytest.approx(20 - numbers(left)[0], abs=0.1)


def test_no_frame_without_an_artbox() -> None:
    def draw(canvas: Canvas) -> None:
        canvas.setArtBox((0, 0, WIDTH, HEIGHT))  # the MediaBox itself: no frame
        canvas.drawString(8 * mm, 150 * mm, "Anywhere on the page")

    assert check_pdf(make_pdf(draw)) == []


# ---------------------------------------------------------------- crop marks

TRIM = (20 * mm, 30 * mm, WIDTH - 20 * mm, HEIGHT - 30 * mm)


def marks(draw_mark: Draw) -> Draw:
    """A page cut to TRIM, with good marks at its corners and one mark drawn by draw_mark."""

    def draw(canvas: Canvas) -> None:
        canvas.setTrimBox(TRIM)
        canvas.rect(30 * mm, 40 * mm, 100 * mm, 100 * mm, fill=1, stroke=0)  # the cards
        canvas.setLineWidth(0.5)
        x0, y0, x1, y1 = TRIM
        for x in (x0, x1):  # 0.5 pt by 3 mm, stopping 5 mm short of the paper's edge
            canvas.line(x, 5 * mm, x, 8 * mm)
            canvas.line(x, HEIGHT - 8 * mm, x, HEIGHT - 5 * mm)
        for y in (y0, y1):
            canvas.line(5 * mm, y, 8 * mm, y)
            canvas.line(WIDTH - 8 * mm, y, WIDTH - 5 * mm, y)
        draw_mark(canvas)

    return draw


def thin_line(canvas: Canvas) -> None:
    canvas.setLineWidth(0.3)
    canvas.line(TRIM[0] + 20 * mm, 10 * mm, TRIM[0] + 20 * mm, 13 * mm)


def short_line(canvas: Canvas) -> None:
    canvas.setLineWidth(0.5)
    canvas.line(10 * mm, TRIM[1] + 20 * mm, 10 * mm + 0.3, TRIM[1] + 20 * mm)


def thin_rect(canvas: Canvas) -> None:
    canvas.rect(WIDTH - 15 * mm, TRIM[3] - 20 * mm, 3 * mm, 0.3, fill=1, stroke=0)


def test_good_crop_marks() -> None:
    assert check_pdf(make_pdf(marks(lambda canvas: None))) == []


def test_bad_crop_marks() -> None:
    pdf = make_pdf(marks(thin_line), marks(short_line), marks(thin_rect))
    problems = check_pdf(pdf)
    assert [(p.page, p.check, p.detail) for p in problems] == [
        (1, "crop-mark", "crop mark 0.3 pt thick (under 0.5 pt)"),
        (2, "crop-mark", "crop mark 0.3 pt long (under 0.5 pt)"),
        (3, "crop-mark", "crop mark 0.3 pt thick (under 0.5 pt)"),
    ]
    assert problems[0].where == pytest.approx((40, 297 - 11.5), abs=0.1)
    assert problems[1].where == pytest.approx((10.05, 297 - 50), abs=0.1)
    assert problems[2].where == pytest.approx((210 - 13.5, 50), abs=0.1)


def test_crop_marks_are_merged_per_page() -> None:
    def three(canvas: Canvas) -> None:
        canvas.setLineWidth(0.2)
        for x in (60, 90, 120):
            canvas.line(x * mm, 10 * mm, x * mm, 13 * mm)

    [problem] = check_pdf(make_pdf(marks(three)))
    assert problem.detail == "3 crop marks 0.2 pt thick (under 0.5 pt)"
    assert problem.where == pytest.approx((60, 297 - 11.5), abs=0.1)


def test_no_crop_marks_without_a_trimbox() -> None:
    def draw(canvas: Canvas) -> None:
        canvas.setTrimBox((0, 0, WIDTH, HEIGHT))  # what WeasyPrint writes: no cut
        thin_line(canvas)

    assert check_pdf(make_pdf(draw)) == []


# ---------------------------------------------------------------- API and command line


def test_pages_are_chosen_by_number() -> None:
    pdf = make_pdf(near_edge("top"), body, near_edge("left"))
    assert [p.page for p in check_pdf(pdf, pages=[3])] == [3]
    assert check_pdf(pdf, pages=[2]) == []
    with pytest.raises(ValueError, match="no page 4: the PDF has 3 pages"):
        check_pdf(pdf, pages=[4])


def test_path_and_bytes_are_the_same(tmp_path: Path) -> None:
    pdf = make_pdf(near_edge("right"))
    path = tmp_path / "sheet.pdf"
    path.write_bytes(pdf)
    assert check_pdf(path) == check_pdf(pdf) != []


def test_not_a_pdf() -> None:
    with pytest.raises(ValueError, match="not a readable PDF"):
        check_pdf(b"%PDF-1.7 nothing else")


def test_problem_reads_as_one_line() -> None:
    problem = Problem(2, "overlap", '"House tables used" over "Scenario map — A1"', (12.34, 40.06))
    assert str(problem) == (
        'page 2: overlap: "House tables used" over "Scenario map — A1" at 12.3, 40.1 mm'
    )


def test_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    clean, faulty = tmp_path / "clean.pdf", tmp_path / "faulty.pdf"
    clean.write_bytes(make_pdf(body))
    faulty.write_bytes(make_pdf(body, near_edge("bottom")))
    assert main([str(clean)]) == 0
    assert capsys.readouterr().out == ""
    assert main([str(clean), str(faulty)]) == 1
    [problem] = check_pdf(faulty)
    assert problem.page == 2
    assert capsys.readouterr().out == f"{faulty}: {problem}\n"
    missing = tmp_path / "missing.pdf"
    assert main([str(missing), str(clean)]) == 2
    assert "missing.pdf" in capsys.readouterr().err


def test_runs_as_a_module(tmp_path: Path) -> None:
    faulty = tmp_path / "faulty.pdf"
    faulty.write_bytes(make_pdf(near_edge("top")))
    result = subprocess.run(
        [sys.executable, "-m", "tests.printcheck", str(faulty)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    [problem] = check_pdf(faulty)
    assert (result.returncode, result.stdout) == (1, f"{problem}\n")
    assert str(problem).startswith("page 1: edge: ink 3.0 mm from the top edge (under 4 mm) at ")
