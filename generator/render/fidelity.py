"""Print fidelity, checked by machine on WeasyPrint's laid-out boxes (issue #7).

`check_document(document, paper)` walks the box tree of every page of a laid-out sheet
(what `generator.render.pdf.layout` returns) and lists what would not print as laid out.
Lengths are compared in CSS px (WeasyPrint's unit), reported in mm and pt.

The rule
--------
A page has three nested areas:

* the paper: A4 210 x 297 mm, Letter 215.9 x 279.4 mm; every page must be that size;
* the printable area: the paper less `PRINTER_EDGE_MM` (4 mm) on each side, which most
  printers cannot print (laser printers lose about 4.2 mm, inkjets 3 mm);
* the margin box: the paper less the sheets' @page margins (`sheets.PAPERS`: 10 mm at the
  top and bottom, 11 mm at the sides), where the body of a sheet belongs.

1. Ink stays inside the margin box. Every box that puts ink on paper must lie inside it,
   its border box taken after CSS transforms, within `TOLERANCE_PT`: a text box with
   non-blank text, a replaced element (an inline SVG), a box with a background or a
   border, a form field. Boxes that paint nothing themselves (a plain div, a line box)
   are not checked: they cannot print, and what they hold is checked.
2. A template that sets narrower @page margins of its own takes the placing on itself:
   the card sheets (templates/cards.html.j2, ``@page { margin: 0 }``) centre a 3 x 3 block
   of poker cards (190.5 x 266.7 mm) on the paper, which on Letter leaves 6.35 mm above
   and below. On such a page ink must lie inside the printable area instead.
3. Page-margin boxes (``@page { @bottom-right { ... } }``: the quick reference's running
   footer) sit in the page margin by design; they must lie inside the printable area.
4. Crop marks (elements with a class in `MARK_CLASSES`: the card sheets' ``.crop``)
   continue the cut lines towards the paper's edge and stop 0.8 mm short of it
   (`kinds.cards.PAPER_EDGE_MM`); the part a printer cannot reach is lost harmlessly. A
   mark must be on the paper and show at least `MARK_SHOWN_MM` inside the printable area.
   (The counters' crop marks and the maps' trim lines and registration marks are drawn in
   SVGs inside the margin box, and are checked as drawings, below.)
5. No text under `MIN_TEXT_PT` (7 pt): a text box's computed font size, times the scale of
   any CSS transform around it (the cards' shrunken suit signs). Blank text is ignored.
6. Text keeps to its column: a text box must not reach past the left or right edge of its
   containing block's content box by more than `TOLERANCE_PT` (an unbreakable word in a
   narrow cell, a ``nowrap`` heading): it would run into its neighbour, or be cut.
7. SVG drawings. WeasyPrint does not clip an inline SVG to its box, so its drawing is
   checked too, in the SVG's user space mapped onto the page through the viewBox and
   every ``transform``: each shape's bounding box (WeasyPrint's own, stroke included) and
   each run of text must lie inside the svg element's box, within `TOLERANCE_PT`,
   trimmed first by the clip paths around it (a clip path counts as the bounding box of
   its shapes: the map's page windows are one rect). A run of text is measured from its
   x, y and text-anchor with the bundled fonts' advance widths (no kerning), 0.8 em above
   the baseline and 0.2 em below. Every run of SVG text must be at least 7 pt after the
   viewBox and transform scaling.

Not checked: boxes overlapping one another (absolutely placed parts on top of each other,
text drawn over an SVG shape inside the same drawing: counter names are fitted by
`kinds.counters.fit_text`), text running out of a fixed-height box downwards while still
inside the margin box, SVG ``<use>``, ``<image>`` and markers, and colour.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from generator.render.sheets import PAPERS

PX_PER_MM = 96 / 25.4
PX_PER_PT = 96 / 72
PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
PRINTER_EDGE_MM = 4.0
MIN_TEXT_PT = 7.0
TOLERANCE_PT = 0.5
MARK_CLASSES = frozenset({"crop"})
MARK_SHOWN_MM = 1.0
MAX_PROBLEMS = 50  # a badly broken sheet is reported in part, with the count left off
SVG_ASCENT, SVG_DESCENT = 0.8, 0.2  # of the font size, above and below the baseline
# not drawn where they stand (definitions), or not measured here (see above)
SVG_SKIPPED = frozenset({
    "defs", "clipPath", "mask", "marker", "pattern", "symbol", "linearGradient", "filter",
    "radialGradient", "title", "desc", "metadata", "style", "use", "image",
})  # fmt: skip

Matrix = tuple[float, float, float, float, float, float]  # a b c d e f, row vectors
Rect = tuple[float, float, float, float]  # x0 y0 x1 y1, px from the page's top left
TOLERANCE = TOLERANCE_PT * PX_PER_PT
SIDES = ("left", "top", "right", "bottom")


def check_document(document: Any, paper: str) -> list[str]:
    """Return what on the laid-out `document` (WeasyPrint pages) breaks the module's rule
    for `paper` ("a4" or "letter"); an empty list when it prints as laid out."""
    problems: list[str] = []
    for number, page in enumerate(document.pages, start=1):
        problems += _check_page(page, number, paper)
    if len(problems) > MAX_PROBLEMS:
        left_off = len(problems) - MAX_PROBLEMS
        problems = [*problems[:MAX_PROBLEMS], f"... and {left_off} more problems"]
    return problems


# ---------------------------------------------------------------- areas of the page


def _margins_mm(paper: str) -> tuple[float, float, float, float]:
    """The sheets' @page margins (top, right, bottom, left) in mm, from PAPERS."""
    values = [float(v.removesuffix("mm")) for v in PAPERS[paper]["margin"].split()]
    top = values[0]
    right = values[1] if len(values) > 1 else top
    bottom = values[2] if len(values) > 2 else top
    left = values[3] if len(values) > 3 else right
    return top, right, bottom, left


@dataclass
class _Page:
    number: int
    paper: Rect
    printable: Rect
    body: Rect
    body_name: str  # how problems name the body's area: "margin", "printable area's edge"
    problems: list[str] = field(default_factory=list)

    def report(self, what: str, rect: Rect, area: Rect, area_name: str) -> None:
        """Report each side of `rect` beyond `area` (with the tolerance)."""
        for i, side in enumerate(SIDES):
            outside = rect[i] < area[i] - TOLERANCE if i < 2 else rect[i] > area[i] + TOLERANCE
            if outside:
                axis = "x" if side in ("left", "right") else "y"
                self.problems.append(
                    f"page {self.number}: {what} at {axis}={_mm(rect[i])} extends past the "
                    f"{side} {area_name} ({_mm(area[i])})"
                )


def _mm(px: float) -> str:
    return f"{px / PX_PER_MM:.1f}mm"


def _inset(rect: Rect, top: float, right: float, bottom: float, left: float) -> Rect:
    return rect[0] + left, rect[1] + top, rect[2] - right, rect[3] - bottom


def _page_areas(page: Any, number: int, paper: str) -> _Page:
    width_mm, height_mm = PAPER_MM[paper]
    sheet: Rect = (0.0, 0.0, width_mm * PX_PER_MM, height_mm * PX_PER_MM)
    edge = PRINTER_EDGE_MM * PX_PER_MM
    printable = _inset(sheet, edge, edge, edge, edge)
    top, right, bottom, left = (v * PX_PER_MM for v in _margins_mm(paper))
    margin_box = _inset(sheet, top, right, bottom, left)
    box = page._page_box
    laid = (box.margin_top, box.margin_right, box.margin_bottom, box.margin_left)
    narrower = any(
        m < want - TOLERANCE for m, want in zip(laid, (top, right, bottom, left), strict=True)
    )
    if narrower:  # the template placed its content itself (the card sheets)
        return _Page(number, sheet, printable, printable, "printable area's edge")
    return _Page(number, sheet, printable, margin_box, "margin")


# ---------------------------------------------------------------- the box tree


def _check_page(page: Any, number: int, paper: str) -> list[str]:
    areas = _page_areas(page, number, paper)
    width_mm, height_mm = PAPER_MM[paper]
    size = (page.width / PX_PER_MM, page.height / PX_PER_MM)
    if abs(size[0] - width_mm) > 0.2 or abs(size[1] - height_mm) > 0.2:
        areas.problems.append(
            f"page {number}: the page is {size[0]:.1f} x {size[1]:.1f} mm, not {paper} "
            f"({width_mm} x {height_mm} mm)"
        )
    for box, matrix, block, furniture in _walk(page._page_box, None, None):
        _check_box(areas, box, matrix, block, furniture)
    return areas.problems


def _walk(
    box: Any, matrix: Matrix | None, block: Any, furniture: bool = False
) -> Iterator[tuple[Any, Matrix | None, Any, bool]]:
    """Yield every box with the transform that applies to it, its containing block and
    whether it is in a page-margin box (a running footer)."""
    from weasyprint.formatting_structure import boxes

    own = getattr(box, "transformation_matrix", None)
    if own is not None:
        local: Matrix = tuple(own.values)
        matrix = local if matrix is None else _compose(local, matrix)
    furniture = furniture or isinstance(box, boxes.MarginBox)
    yield box, matrix, block, furniture
    if isinstance(box, boxes.BlockContainerBox):
        block = box
    for child in box.all_children() if hasattr(box, "all_children") else ():
        if type(child).__name__ == "AbsolutePlaceholder":
            child = child._box
        yield from _walk(child, matrix, block, furniture)


def _compose(first: Matrix, then: Matrix) -> Matrix:
    """The matrix of applying `first`, then `then` (row vectors, as WeasyPrint)."""
    a1, b1, c1, d1, e1, f1 = first
    a2, b2, c2, d2, e2, f2 = then
    return (
        a1 * a2 + b1 * c2,
        a1 * b2 + b1 * d2,
        c1 * a2 + d1 * c2,
        c1 * b2 + d1 * d2,
        e1 * a2 + f1 * c2 + e2,
        e1 * b2 + f1 * d2 + f2,
    )


def _apply(matrix: Matrix | None, rect: Rect) -> Rect:
    """The axis-aligned bounds of `rect` after `matrix`."""
    if matrix is None:
        return rect
    a, b, c, d, e, f = matrix
    corners = [(rect[0], rect[1]), (rect[2], rect[1]), (rect[0], rect[3]), (rect[2], rect[3])]
    xs = [a * x + c * y + e for x, y in corners]
    ys = [b * x + d * y + f for x, y in corners]
    return min(xs), min(ys), max(xs), max(ys)


def _scale(matrix: Matrix | None) -> float:
    """How much `matrix` scales lengths (the square root of its area factor)."""
    if matrix is None:
        return 1.0
    a, b, c, d, _, _ = matrix
    return math.sqrt(abs(a * d - b * c))


def _border_rect(box: Any) -> Rect:
    x, y = box.border_box_x(), box.border_box_y()
    return x, y, x + box.border_width(), y + box.border_height()


def _describe(box: Any) -> str:
    from weasyprint.formatting_structure import boxes

    if isinstance(box, boxes.TextBox):
        text = " ".join(box.text.split())
        return f"text '{text[:30]}…'" if len(text) > 30 else f"text '{text}'"
    element = box.element
    tag = box.element_tag or "box"
    classes = (element.get("class") or "") if element is not None else ""
    return f"<{tag} class='{classes}'>" if classes else f"<{tag}>"


def _inked(box: Any) -> bool:
    """Whether the box itself paints anything: text, an image, a background, a border."""
    from weasyprint.formatting_structure import boxes

    if box.style["visibility"] != "visible" or isinstance(box, boxes.PageBox):
        return False
    if isinstance(box, boxes.TextBox):
        return bool(box.text.strip())
    if isinstance(box, boxes.ReplacedBox) or box.is_input():
        return True
    if getattr(box, "background", None) is not None:
        return True
    return any(getattr(box, f"border_{side}_width", 0) > 0 for side in SIDES)


def _is_mark(box: Any) -> bool:
    element = box.element
    if element is None or box.element_tag is None or not hasattr(element, "get"):
        return False
    return bool(MARK_CLASSES & set((element.get("class") or "").split()))


def _check_box(areas: _Page, box: Any, matrix: Matrix | None, block: Any, furniture: bool) -> None:
    from weasyprint.formatting_structure import boxes

    if not _inked(box):
        return
    rect = _apply(matrix, _border_rect(box))
    if rect[2] - rect[0] <= 0 or rect[3] - rect[1] <= 0:
        return
    what = _describe(box)
    if _is_mark(box):
        areas.report(f"crop mark {what}", rect, areas.paper, "edge of the paper")
        shown = _intersect(rect, areas.printable)
        if shown is None or max(shown[2] - shown[0], shown[3] - shown[1]) < (
            MARK_SHOWN_MM * PX_PER_MM - TOLERANCE
        ):
            areas.problems.append(
                f"page {areas.number}: crop mark {what} at x={_mm(rect[0])}, y={_mm(rect[1])} "
                f"shows less than {MARK_SHOWN_MM:g}mm inside the printable area"
            )
        return
    if furniture:
        areas.report(what, rect, areas.printable, "printable area's edge")
    else:
        areas.report(what, rect, areas.body, areas.body_name)
    if isinstance(box, boxes.TextBox):
        size_pt = box.style["font_size"] * _scale(matrix) / PX_PER_PT
        if size_pt < MIN_TEXT_PT - 0.01:
            areas.problems.append(
                f"page {areas.number}: {what} is set at {size_pt:.2f}pt, under {MIN_TEXT_PT:g}pt"
            )
        if block is not None:
            _check_in_column(areas, box, block, what)
    elif isinstance(box, boxes.ReplacedBox) and type(box.replacement).__name__ == "SVGImage":
        _check_svg(areas, box, matrix)


def _check_in_column(areas: _Page, box: Any, block: Any, what: str) -> None:
    """Rule 6: the text box within its containing block's content box, left and right."""
    left = block.content_box_x()
    right = left + block.width
    x0, x1 = box.position_x, box.position_x + box.width
    if x1 > right + TOLERANCE:
        areas.problems.append(
            f"page {areas.number}: {what} at x={_mm(x1)} runs {_mm(x1 - right)} past the right "
            f"of its {_describe(block)} ({_mm(right)})"
        )
    if x0 < left - TOLERANCE:
        areas.problems.append(
            f"page {areas.number}: {what} at x={_mm(x0)} runs {_mm(left - x0)} past the left "
            f"of its {_describe(block)} ({_mm(left)})"
        )


def _union(a: Rect, b: Rect) -> Rect:
    return min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])


def _intersect(a: Rect, b: Rect) -> Rect | None:
    rect = max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])
    return rect if rect[0] < rect[2] and rect[1] < rect[3] else None


# ---------------------------------------------------------------- SVG drawings


def _check_svg(areas: _Page, box: Any, matrix: Matrix | None) -> None:
    """Rule 7: an inline SVG's shapes and text within its box; its text at 7 pt or more."""
    from weasyprint.svg.utils import preserve_ratio, size

    svg = box.replacement._svg
    width, height = box.width, box.height
    if not width or not height:
        return
    root = svg.tree
    root.set_svg_size(svg, width, height)
    scale_x, scale_y, move_x, move_y = preserve_ratio(svg, root, size("12pt"), width, height)
    x, y = box.content_box_x(), box.content_box_y()
    to_page: Matrix = (scale_x, 0.0, 0.0, scale_y, x + move_x, y + move_y)
    if matrix is not None:
        to_page = _compose(to_page, matrix)
    viewport = _apply(matrix, (x, y, x + width, y + height))
    found: list[str] = []
    for child in root:
        _svg_node(svg, child, size("12pt"), to_page, None, viewport, found)
    seen: set[str] = set()
    for problem in found:
        if problem not in seen:
            seen.add(problem)
            areas.problems.append(f"page {areas.number}: {problem}")


def _svg_node(
    svg: Any,
    node: Any,
    font_size: float,
    matrix: Matrix,
    clip: Rect | None,
    viewport: Rect,
    found: list[str],
) -> None:
    from weasyprint.svg.bounding_box import bounding_box, is_valid_bounding_box
    from weasyprint.svg.utils import parse_url, size

    if node.tag in SVG_SKIPPED or not node.visible:
        return
    font_size = size(node.get("font-size", "1em"), font_size, font_size)
    own = svg.get_node_transform_matrix(node, font_size)
    if own is not None:
        matrix = _compose(tuple(own.values), matrix)
    if node.get("clip-path"):
        clip_id = parse_url(node.get("clip-path")).fragment
        clip_path = svg.paths.get(clip_id) if clip_id else None
        if clip_path is not None:
            bounds = _svg_bounds(svg, clip_path, font_size, matrix)
            if bounds is not None:
                clip = bounds if clip is None else (_intersect(clip, bounds) or bounds)
    if node.tag in ("text", "tspan", "textPath", "a"):
        _svg_text(node, font_size, matrix, clip, viewport, found)
    elif node.tag not in ("g", "svg", "switch"):
        bbox = bounding_box(svg, node, font_size, True)
        if is_valid_bounding_box(bbox):
            x, y, w, h = bbox
            rect = _apply(matrix, (x, y, x + w, y + h))
            _svg_inside(f"svg <{node.tag}>", rect, clip, viewport, found)
        return
    for child in node:
        _svg_node(svg, child, font_size, matrix, clip, viewport, found)


def _svg_bounds(svg: Any, group: Any, font_size: float, matrix: Matrix) -> Rect | None:
    """The page bounds of a clip path's shapes (a rect, for the map's windows)."""
    from weasyprint.svg.bounding_box import bounding_box, is_valid_bounding_box

    out: Rect | None = None
    for child in group:
        bbox = bounding_box(svg, child, font_size, False)
        if is_valid_bounding_box(bbox):
            x, y, w, h = bbox
            rect = _apply(matrix, (x, y, x + w, y + h))
            out = rect if out is None else _union(out, rect)
    return out


def _svg_inside(what: str, rect: Rect, clip: Rect | None, viewport: Rect, found: list[str]) -> None:
    if clip is not None:
        trimmed = _intersect(rect, clip)
        if trimmed is None:
            return
        rect = trimmed
    for i, side in enumerate(SIDES):
        outside = rect[i] < viewport[i] - TOLERANCE if i < 2 else rect[i] > viewport[i] + TOLERANCE
        if outside:
            axis = "x" if side in ("left", "right") else "y"
            found.append(
                f"{what} at {axis}={_mm(rect[i])} extends past the {side} of its svg box "
                f"({_mm(viewport[i])})"
            )


def _first_number(value: str | None) -> float | None:
    if not value:
        return None
    match = re.match(r"\s*(-?[\d.]+(?:e-?\d+)?)", value)
    return float(match[1]) if match else None


def _svg_text(
    node: Any,
    font_size: float,
    matrix: Matrix,
    clip: Rect | None,
    viewport: Rect,
    found: list[str],
) -> None:
    """Check the node's own run of text (its children are walked by the caller)."""
    from generator.render.kinds.counters import PT_MM, SAFETY, text_width

    text = " ".join((node._etree_node.text or "").split())
    if not text:
        return
    size_pt = font_size * _scale(matrix) / PX_PER_PT
    label = f"svg text '{text[:30]}…'" if len(text) > 30 else f"svg text '{text}'"
    if size_pt < MIN_TEXT_PT - 0.01:
        found.append(f"{label} is set at {size_pt:.2f}pt, under {MIN_TEXT_PT:g}pt")
    x = _first_number(node.get("x"))
    y = _first_number(node.get("y"))
    if x is None or y is None:
        return  # placed after the run before it: not measured
    bold = node.get("font-weight", "normal") in ("bold", "bolder", "600", "700", "800", "900")
    families = node.get("font-family", "").lower()
    family = "serif" if "serif" in families and "sans" not in families.split(",")[0] else "sans"
    advance = text_width(text, font_size / PT_MM, bold, family) / SAFETY  # in user units
    anchor = node.get("text-anchor", "start")
    start = x - (advance / 2 if anchor == "middle" else advance if anchor == "end" else 0)
    rect = (start, y - SVG_ASCENT * font_size, start + advance, y + SVG_DESCENT * font_size)
    _svg_inside(label, _apply(matrix, rect), clip, viewport, found)
