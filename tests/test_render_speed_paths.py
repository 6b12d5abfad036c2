"""A first packet's static sheets cost no layout more than they need: a quick reference's body
size is found in few layouts, and its layout at the size found is the sheet's own (the sheet
is not laid out again to be written)."""

from __future__ import annotations

import io
import math
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from generator.loading import load_rules
from generator.render import cache as disk
from generator.render import pdf
from generator.render.kinds.quick_reference import size as qr_size
from generator.render.kinds.quick_reference.spec import MAX_FONT_PT, MIN_FONT_PT
from generator.render.sheets import page_boxes, sheet_html, static_sheet_pdf
from tests.layouts import count_renders
from tests.pdfs import page_text, read, squeeze

Measure = Callable[[float], tuple[int, float]]


def full_search(measure: Measure, size: float) -> float:
    """The body size `fitted_size` promises, as its docstring says it, found by measuring
    every size there is."""
    pages, fill = measure(size)
    if pages == 1 or fill >= qr_size.GOOD_FILL:
        return size
    steps = round((MAX_FONT_PT - MIN_FONT_PT) / qr_size.FONT_STEP_PT)
    sizes = [MIN_FONT_PT + i * qr_size.FONT_STEP_PT for i in range(steps + 1)]
    saving = [s for s in sizes if s < size and measure(s)[0] < pages]
    if saving:
        return max(saving)
    return max(s for s in sizes if s >= size and measure(s)[0] <= pages)


def sheet_of(content: float, size: float, power: float) -> Measure:
    """A sheet of `content` pages at `size` whose content grows as the body size to `power`."""

    def measure(at: float) -> tuple[int, float]:
        pages = content * (at / size) ** power
        return math.ceil(pages), pages - math.floor(pages) or 1.0

    return measure


@pytest.mark.parametrize("spec", [7.0, 7.5, 8.0, 8.5, 9.0])
def test_the_size_found_is_the_full_searchs(spec: float) -> None:
    """Over sheets of every length (a few lines to three pages) and every way of growing with
    the body size, the search finds what measuring every size finds."""
    for power in (1.0, 1.5, 2.0, 3.0):
        for hundredths in range(20, 301, 3):
            measure = sheet_of(hundredths / 100, spec, power)
            assert qr_size.fitted_size(measure, spec) == full_search(measure, spec), (
                hundredths,
                power,
            )


def test_a_page_saved_a_step_down_costs_one_more_layout() -> None:
    """A sheet a few lines over its page is measured at its size and a step below, where it
    fits: not at 7 pt and half-way first."""
    measure = sheet_of(1.05, 8.0, 2.0)  # 0.985 of a page at 7.75 pt
    asked: list[float] = []

    def counted(at: float) -> tuple[int, float]:
        asked.append(at)
        return measure(at)

    assert qr_size.fitted_size(counted, 8.0) == 7.75
    assert asked == [8.0, 7.75]


def test_a_kept_layout_is_taken_once_by_its_own_html(monkeypatch: pytest.MonkeyPatch) -> None:
    """A kept document is the next layout of the same HTML (not of a form, another HTML or a
    second time), and a newer one replaces it."""
    # generator.render.pdf's own, not the session's (tests/conftest.py)
    monkeypatch.setattr(pdf, "layout", getattr(pdf.layout, "__wrapped__", pdf.layout))
    renders = count_renders(monkeypatch)
    html = "<p>A layout kept for its sheet (test_render_speed_paths).</p>"
    kept = pdf.layout(html)
    pdf.keep_layout(html, kept)
    assert pdf.layout(html, fillable=True) is not kept  # a form is laid out as one
    other = "<p>Another sheet (test_render_speed_paths).</p>"
    assert pdf.layout(other) is not kept
    assert len(renders) == 3
    art = {"art": (10.0, 10.0, 200.0, 287.0)}
    assert pdf.layout(html, boxes=art) is kept
    assert len(renders) == 3
    assert pdf.layout(html, boxes={"art": (12.0, 12.0, 198.0, 285.0)}) is not kept
    assert len(renders) == 4

    pdf.keep_layout(html, kept)
    pdf.keep_layout(other, pdf.layout(other, boxes=art))
    assert pdf.layout(html, boxes={"art": (14.0, 14.0, 196.0, 283.0)}) is not kept


def test_a_quick_reference_is_laid_out_once_at_each_size_measured(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """From an empty cache, a quick reference whose body size is searched for is laid out
    once at each size measured and not again to be written: the layout the search ends on
    is the colour sheet's, written to the disk cache as the search ends (so another process
    wanting the sheet, a batch's other worker that waited for the size, lays nothing out).
    Its black-and-white sheet, whose HTML is not the one measured, is laid out on its own."""
    club = "Wind change (test_render_speed_paths club rule)"  # HTML no other test lays out
    house = tmp_path / "house.yaml"
    ok = Path(__file__).parent / "fixtures" / "house" / "ok.yaml"
    house.write_text(ok.read_text().replace("Wind change (club rule)", club))
    rules = load_rules(house)
    monkeypatch.setenv("QM_CACHE_DIR", str(tmp_path / "cache"))
    measured: list[float] = []
    real_fitted = qr_size.fitted_size

    def fitted(measure: Measure, size: float) -> float:
        def counted(at: float) -> tuple[int, float]:
            measured.append(at)
            return measure(at)

        return real_fitted(counted, size)

    monkeypatch.setattr(qr_size, "fitted_size", fitted)
    renders = count_renders(monkeypatch)
    html = sheet_html("quick-reference", rules, ruleset="tactical", paper="letter")
    assert measured[0] == 8.0 and len(measured) >= 2  # a page saved on Letter: a search
    assert len(renders) == len(measured)
    boxes = page_boxes("quick-reference", "letter")
    stored = disk.load(disk.sheet_key(html + repr(sorted(boxes.items())), fillable=False))
    assert stored is not None
    assert static_sheet_pdf("quick-reference", rules, ruleset="tactical", paper="letter") == stored
    assert squeeze(club) in squeeze(" ".join(page_text(page) for page in read(stored).pages))
    assert len(renders) == len(measured)
    static_sheet_pdf("quick-reference", rules, ruleset="tactical", paper="letter", mono=True)
    assert len(renders) == len(measured) + 1


def test_streams_compressed_ahead_are_the_bytes_pydyf_would_write() -> None:
    """A PDF's streams are compressed once before pydyf writes them (it would compress each
    twice, to write it and to hash the file for the identifier) and a font file once per
    process: the file is byte for byte what pydyf writes on its own."""
    import pydyf  # type: ignore[import-untyped]

    font_bytes = bytes(range(256)) * 64

    def made() -> Any:
        document = pydyf.PDF()
        content = pydyf.Stream(compress=True)
        content.rectangle(10, 10, 20, 30)
        content.fill()
        font = pydyf.Stream([font_bytes], pydyf.Dictionary({"Length1": len(font_bytes)}), True)
        plain = pydyf.Stream([b"q Q"], compress=False)
        for stream in (content, font, plain):
            document.add_object(stream)
        document.add_page(pydyf.Dictionary({"Type": "/Page", "Contents": content.reference}))
        return document

    def written(document: Any) -> bytes:
        output = io.BytesIO()
        document.write(output, identifier=b"quartermaster", compress=True)
        return output.getvalue()

    as_pydyf = written(made())
    for _ in range(2):  # the second time, the font's bytes as compressed the first time
        ahead = made()
        pdf._compress_streams(ahead)
        assert written(ahead) == as_pydyf
    assert pdf._COMPRESSED_FONTS[font_bytes] == zlib.compress(font_bytes, 9)
    assert b"/Filter /FlateDecode" in as_pydyf


def test_a_process_that_lays_out_collects_its_garbage_less_often() -> None:
    """The first layout sets the collector's thresholds where they are Python's default,
    and keeps those that something else has set."""
    import gc

    kept = gc.get_threshold()
    try:
        for before, after in ((pdf.GC_DEFAULT, pdf.GC_THRESHOLDS), ((20_000, 11, 12),) * 2):
            gc.set_threshold(*before)
            pdf._collect_less_often()  # what the process's first layout does
            assert gc.get_threshold() == after
    finally:
        gc.set_threshold(*kept)
