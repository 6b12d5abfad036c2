"""The body size a quick reference is set at on each paper: the spec's, or the size that
saves its last page when it would be mostly empty, or fills it, found by laying the sheet
out with WeasyPrint and kept in the disk cache.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from generator.render import cache as disk
from generator.render import pdf
from generator.render.draw import source_fingerprint
from generator.render.kinds.quick_reference.spec import MAX_FONT_PT, MIN_FONT_PT
from generator.render.paper import get_paper
from generator.render.sheets import document_title, get_kind, keep_blank_layout
from generator.render.templating import render_html

QUICK_REFERENCE = "generator.render.kinds.quick_reference"  # whose source keys the sizes
# the body sizes tried when the spec's leaves the last page mostly empty, this far apart
FONT_STEP_PT = 0.25
# the share of its height the last page fills at least, where a body size can make it so:
# a sheet whose last page holds a few lines is a page wasted (or one set too small)
GOOD_FILL = 0.5


def body_size(sheet: Callable[[float], Mapping[str, Any]], paper: str, size: float) -> float:
    """Return the body size in pt a quick reference is set at on `paper`: `size` (the
    spec's), or the size `fitted_size` finds by laying it out, when at `size` its last page
    would be mostly empty. `sheet` gives the template's context at a body size.

    Each sheet is laid out at most a few times, once per process and paper, and the size
    found is kept in the disk cache beside the PDFs (its key is the HTML at `size` and the
    source of the quick reference's modules), so a quick reference costs a layout, as
    before, once it is known. Where it is laid out here, it is laid out as the blank sheet
    in colour is made (`static_sheet_pdf`), and the layout at the size found is that
    sheet's (`keep_blank_layout`): a sheet whose size is found costs no layout more, in
    this process or another.
    """
    kind = get_kind("quick-reference")
    template = kind.template
    assert template is not None  # a laid-out kind
    made: dict[float, str] = {}

    def html(at: float) -> str:
        # the size decides the layout; colours and metadata do not, but the blank sheet's
        # own are written so that its layout here is the sheet's
        if at not in made:
            made[at] = render_html(
                template,
                doc_title=document_title(kind, None),
                doc_subject=kind.description,
                bookmarks=(),
                paper=get_paper(paper),
                mono=False,
                fillable=False,
                **sheet(at),
            )
        return made[at]

    key = disk.sheet_key(html(size) + source_fingerprint(QUICK_REFERENCE), fillable=False)
    if key in _BODY_SIZES:
        return _BODY_SIZES[key]

    def search() -> bytes:
        laid: dict[float, Any] = {}

        def measure(at: float) -> tuple[int, float]:
            laid[at] = pdf.layout(html(at))
            return len(laid[at].pages), last_page_fill(laid[at])

        found = fitted_size(measure, size)
        if found in laid:  # the sheet at the size found: its layout is the sheet's
            keep_blank_layout("quick-reference", html(found), paper, laid[found])
        return f"{found:g}".encode("ascii")

    # searched once however many processes ask at once (a batch's workers, the tests')
    stored = disk.made(key, search, ".size")
    try:
        found = float(stored.decode("ascii"))
    except ValueError:
        found = None  # an entry this code did not write: search again
    if found is None or not MIN_FONT_PT <= found <= MAX_FONT_PT:
        stored = search()
        disk.store(key, stored, ".size")
        found = float(stored.decode("ascii"))
    _BODY_SIZES[key] = found
    return found


_BODY_SIZES: dict[str, float] = {}


def fitted_size(measure: Callable[[float], tuple[int, float]], size: float) -> float:
    """Return the body size a sheet is set at, given what it takes at a size.

    Args:
        measure: lays the sheet out at a body size (pt) and returns its number of pages
            and the share of its height the last page fills.
        size: the size the sheet would be set at (the spec's).

    Returns:
        `size`, if its last page is filled to `GOOD_FILL` or it has one page; else the
        largest size from 7 pt (in steps of `FONT_STEP_PT`) at which it takes a page
        fewer; else, where even 7 pt cannot save the page, the largest size up to 9 pt at
        which it takes no more pages than at `size` (its last page then fills up).

    The smaller sizes are tried from the largest down, and the first that takes a page
    fewer is the answer: a mostly empty page is saved a step or two below `size`, and a
    size that saves it (its columns balanced over fuller pages) costs the most to lay out,
    so this lays out fewer and cheaper sheets than a bisection from 7 pt would. Only where
    no smaller size saves the page are they all tried.
    """
    measured: dict[float, tuple[int, float]] = {}

    def at(candidate: float) -> tuple[int, float]:
        if candidate not in measured:
            measured[candidate] = measure(candidate)
        return measured[candidate]

    pages, fill = at(size)
    if pages == 1 or fill >= GOOD_FILL:
        return size
    steps = round((MAX_FONT_PT - MIN_FONT_PT) / FONT_STEP_PT)
    sizes = [MIN_FONT_PT + i * FONT_STEP_PT for i in range(steps + 1)]
    for smaller in sorted((s for s in sizes if s < size), reverse=True):
        if at(smaller)[0] < pages:
            return smaller
    larger = [size, *(s for s in sizes if s > size)]
    return _largest(larger, lambda s: at(s)[0] <= pages)


def _largest(sizes: Sequence[float], fits: Callable[[float], bool]) -> float:
    """Return the largest of `sizes` (ascending) that `fits`, the first being known to fit:
    a binary search, since a sheet set larger never takes fewer pages."""
    low, high = 0, len(sizes) - 1
    while low < high:
        middle = (low + high + 1) // 2
        if fits(sizes[middle]):
            low = middle
        else:
            high = middle - 1
    return sizes[low]


def last_page_fill(document: Any) -> float:
    """Return the share of its content height the last page of a WeasyPrint document fills:
    down to the foot of its lowest line of text, running footers aside."""
    # WeasyPrint has no public view of a page's boxes: its page box is what it laid out
    page = document.pages[-1]._page_box
    bottom = page.content_box_y()
    for child in page.children:
        if type(child).__name__ != "MarginBox":
            for box in _descendants(child):
                if type(box).__name__ == "TextBox":
                    bottom = max(bottom, box.position_y + box.height)
    return float((bottom - page.content_box_y()) / page.height)


def _descendants(box: Any) -> Any:
    yield box
    for child in getattr(box, "children", None) or ():
        yield from _descendants(child)
