"""The map painted with ReportLab: the shapes of a page's window, clipped to it, with their
styles and patterns; the header, the wind rose and the legend round it; a table's plan.

The patterns are drawn as strokes over the union of the shapes of a run, clipped to them,
so neighbouring shapes' patterns join up as one lattice.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from reportlab.lib.colors import Color, HexColor

from generator.render.draw import (
    LEADING,
    MM,
    Box,
    Drawing,
    Fitted,
    fit_or_refuse,
    text_width_mm,
    write,
)
from generator.render.kinds.map.geometry import PLAN_LEFT_MM, TablePlan
from generator.render.kinds.map.pages import (
    LABEL_SIZES,
    ROSE_BOX_MM,
    Legend,
    Page,
    WindRose,
    swatch,
)
from generator.render.kinds.map.shapes import (
    PT_MM,
    TEXT_PT,
    Circle,
    Element,
    Line,
    Poly,
    Rect,
    Shape,
    Text,
    circle,
    line,
)
from generator.render.kinds.map.styles import PATTERNS, STYLES
from generator.render.kinds.map.tiles import HEAD_CLEAR_MM, HEADER_MM, SWATCH_MM, header_text_width
from generator.render.pagenumbers import page_label

BACKING_PAD_MM = 1.4  # white beside words set on a pattern


class Painter:
    """Draws shapes given in some frame's mm onto the page: (x, y) of the frame is
    (ox + x, oy + y) mm from the page's top-left; `view` (frame mm) bounds the patterns."""

    def __init__(
        self, drawing: Drawing, ox: float, oy: float, view: tuple[float, float, float, float]
    ) -> None:
        self.drawing = drawing
        self.canvas = drawing.canvas
        self.ox, self.oy = ox, oy
        self.top = drawing.size_mm[1] - oy  # the frame's y = 0, in mm from the page's bottom
        self.view = view
        look = "mono" if drawing.mono else "colour"
        self.styles = STYLES[look]
        self.patterns = PATTERNS[look]

    def X(self, x: float) -> float:  # (a coordinate)
        return (self.ox + x) * MM

    def Y(self, y: float) -> float:
        return (self.top - y) * MM

    def paint(self, elements: Iterable[Element]) -> None:
        """Draw the elements in order, each run of shapes of one style as one path; the
        canvas's colours, pen and dashes are as they were after."""
        self.canvas.saveState()
        self._paint(elements)
        self.canvas.restoreState()

    def _paint(self, elements: Iterable[Element]) -> None:
        run: list[Shape] = []
        for element in elements:
            if isinstance(element, Text):
                self._shapes(run)
                run = []
                self.text(element)
            elif run and run[0].style != element.style:
                self._shapes(run)
                run = [element]
            else:
                run.append(element)
        self._shapes(run)

    def _path(self, run: Sequence[Shape]) -> str:
        """The run's shapes as PDF path operators, in points to 0.01 pt (written here: the
        canvas's own number formatting took most of a page's time)."""
        ox, top = self.ox, self.top
        ops: list[str] = []
        add = ops.append
        for e in run:
            if isinstance(e, Rect):
                add(f"{(ox + e.x) * MM:.2f} {(top - e.y - e.h) * MM:.2f} "
                    f"{e.w * MM:.2f} {e.h * MM:.2f} re")  # fmt: skip
            elif isinstance(e, Poly):
                (x, y), *rest = e.pts
                add(f"{(ox + x) * MM:.2f} {(top - y) * MM:.2f} m")
                for x, y in rest:
                    add(f"{(ox + x) * MM:.2f} {(top - y) * MM:.2f} l")
                add("h")
            elif isinstance(e, Line):
                add(f"{(ox + e.x1) * MM:.2f} {(top - e.y1) * MM:.2f} m "
                    f"{(ox + e.x2) * MM:.2f} {(top - e.y2) * MM:.2f} l")  # fmt: skip
            elif isinstance(e, Circle):
                add(_circle_ops((ox + e.cx) * MM, (top - e.cy) * MM, e.r * MM))
        return "\n".join(ops)

    def _stroke(self, style: Mapping[str, Any]) -> None:
        self.canvas.setStrokeColor(HexColor(style["stroke"]))
        self.canvas.setLineWidth(style["width"] * MM)
        dash = style.get("dash")
        if dash:
            self.canvas.setDash([d * MM for d in dash])
        else:
            self.canvas.setDash()

    def _shapes(self, run: Sequence[Shape]) -> None:
        if not run:
            return
        style = self.styles[run[0].style]
        fill = str(style.get("fill", "none"))
        if fill.startswith("pattern:"):
            self._pattern(run, fill[8:])
            return
        stroke = "stroke" in style
        if fill == "none" and not stroke:
            return
        if fill != "none":
            self.canvas.setFillColor(HexColor(fill))
        if stroke:
            self._stroke(style)
        paint = "B" if stroke and fill != "none" else "S" if stroke else "f"
        self.canvas.addLiteral(f"{self._path(run)}\n{paint}")

    def _pattern(self, run: Sequence[Shape], name: str) -> None:
        """Fill the run's shapes with their ground, then draw the pattern clipped to them."""
        spec = self.patterns[name]
        canvas = self.canvas
        outline = self._path(run)
        if spec["ground"]:
            canvas.setFillColor(HexColor(spec["ground"]))
            canvas.addLiteral(f"{outline}\nf")
        vx0, vy0, vx1, vy1 = self.view
        boxes = [
            (max(b[0], vx0), max(b[1], vy0), min(b[2], vx1), min(b[3], vy1))
            for b in (e.box for e in run)
        ]
        boxes = [b for b in boxes if b[2] > b[0] and b[3] > b[1]]
        if not boxes:
            return
        canvas.saveState()
        canvas.addLiteral(f"{outline}\nW n")  # clip to the shapes
        canvas.setStrokeColor(HexColor(spec["ink"]))
        canvas.setLineWidth(spec["width"] * MM)
        canvas.setDash()
        if spec.get("dots"):  # dotted lines: round dots of no length, `dots` mm apart
            canvas.setLineCap(1)
            canvas.setDash([0, float(spec["dots"]) * MM])
        ox, top = self.ox, self.top
        if spec["kind"] == "dots":
            canvas.setLineCap(1)  # a round cap on a dash of no length is a dot
            # a pattern's strokes to 0.1 pt (0.04 mm): a dense one is most of a page's bytes
            ink = [
                f"{(ox + x) * MM:.1f} {(top - y) * MM:.1f} m {(ox + x) * MM + 0.1:.1f} "
                f"{(top - y) * MM:.1f} l"
                for x, y in pattern_dots(spec["step"], boxes)
            ]
        else:
            ink = [
                f"{(ox + ax) * MM:.1f} {(top - ay) * MM:.1f} m "
                f"{(ox + bx) * MM:.1f} {(top - by) * MM:.1f} l"
                for (ax, ay), (bx, by) in pattern_strokes(spec, boxes)
            ]
        canvas.addLiteral("\n".join(ink) + "\nS")
        canvas.restoreState()

    def text(self, e: Text) -> None:
        """Draw a text element: its lines centred on its centre, turned, on white if asked."""
        canvas = self.canvas
        style = self.styles[e.style]
        size, w, h = e.size, e.w, e.h
        line = size * LEADING * PT_MM
        turned = bool(e.rotate)
        outline = style.get("outline")
        if turned or outline:
            canvas.saveState()  # the turn and the outline mode hold until restored
        x_of: Callable[[float], float] = self.X
        y_of: Callable[[float], float] = self.Y
        left, top, cx = e.cx - w / 2, e.cy - h / 2, e.cx
        if turned:  # set about the text's centre, in the turned frame
            canvas.translate(self.X(e.cx), self.Y(e.cy))
            canvas.rotate(-e.rotate)  # ReportLab turns anticlockwise
            left, top, cx = -w / 2, -h / 2, 0.0
            x_of, y_of = (lambda v: v * MM), (lambda v: -v * MM)
        if e.backing:
            pad = BACKING_PAD_MM
            canvas.setFillColor(HexColor("#ffffff"))
            canvas.rect(x_of(left - pad), y_of(top + h + 0.2), (w + 2 * pad) * MM, (h + 0.4) * MM,
                        stroke=0, fill=1)  # fmt: skip
        canvas.setFillColor(HexColor(style["fill"]))
        text = canvas.beginText()
        text.setFont(e.font, size)
        if outline:
            canvas.setStrokeColor(HexColor(style["fill"]))
            canvas.setLineWidth(outline * MM)
            text.setTextRenderMode(1)  # the glyphs' outlines only: faint in black and white
        for i, words in enumerate(e.lines):
            baseline = top + line * (i + 0.78)
            width = text_width_mm(words, e.font, size)
            text.setTextOrigin(x_of(cx - width / 2), y_of(baseline))
            text.textOut(words)
        canvas.drawText(text)
        if turned or outline:
            canvas.restoreState()


Segment = tuple[tuple[float, float], tuple[float, float]]
KAPPA = 0.5523  # a quarter circle's Bézier handles, in radii


def _circle_ops(cx: float, cy: float, r: float) -> str:
    """A circle as PDF path operators (points)."""
    k = KAPPA * r
    return (
        f"{cx + r:.2f} {cy:.2f} m "
        f"{cx + r:.2f} {cy + k:.2f} {cx + k:.2f} {cy + r:.2f} {cx:.2f} {cy + r:.2f} c "
        f"{cx - k:.2f} {cy + r:.2f} {cx - r:.2f} {cy + k:.2f} {cx - r:.2f} {cy:.2f} c "
        f"{cx - r:.2f} {cy - k:.2f} {cx - k:.2f} {cy - r:.2f} {cx:.2f} {cy - r:.2f} c "
        f"{cx + k:.2f} {cy - r:.2f} {cx + r:.2f} {cy - k:.2f} {cx + r:.2f} {cy:.2f} c h"
    )


def pattern_lines(spec: Mapping[str, Any], box: Box) -> list[Segment]:
    """The strokes of a hatch, cross, dashes or plus pattern over `box` (mm, y down)."""
    return pattern_strokes(spec, [box])


def pattern_strokes(spec: Mapping[str, Any], boxes: Sequence[Box]) -> list[Segment]:
    """The strokes of a hatch, cross, dashes or plus pattern over the union of `boxes`,
    each stroke once: one lattice wherever it is drawn, so neighbouring shapes' patterns
    join up, and nothing is drawn where no shape is (a page's scattered shallows do not
    fill the page with dots to clip)."""
    step = float(spec["step"])
    kind = spec["kind"]
    out: list[Segment] = []
    if kind in ("hatch", "cross"):
        for angle in (spec["angle"], spec["angle"] + 90) if kind == "cross" else (spec["angle"],):
            a = math.radians(angle)
            c, s = math.cos(a), math.sin(a)
            spans: dict[int, list[tuple[float, float]]] = {}
            for x0, y0, x1, y1 in boxes:
                corners = ((x0, y0), (x1, y0), (x0, y1), (x1, y1))
                us = [c * x + s * y for x, y in corners]  # across the lines
                vs = [-s * x + c * y for x, y in corners]  # along them
                for k in range(math.ceil(min(us) / step), math.floor(max(us) / step) + 1):
                    spans.setdefault(k, []).append((min(vs), max(vs)))
            for k, found in sorted(spans.items()):
                u = k * step
                for v0, v1 in _union(found):
                    out.append(((c * u - s * v0, s * u + c * v0), (c * u - s * v1, s * u + c * v1)))
    elif kind == "dashes":
        dash, row = float(spec["dash"]), step / 2
        marks: set[tuple[int, int]] = set()
        for x0, y0, x1, y1 in boxes:
            for j in range(math.floor(y0 / row), math.ceil(y1 / row) + 1):
                shift = (j % 2) * step
                first = math.floor((x0 - shift - dash) / (2 * step))
                for i in range(first, math.ceil((x1 - shift) / (2 * step)) + 1):
                    marks.add((j, i))
        for j, i in sorted(marks):
            x, y = (j % 2) * step + i * 2 * step, j * row + row / 2
            out.append(((x, y), (x + dash, y)))
    elif kind == "plus":
        arm = float(spec["arm"]) / 2
        crosses: set[tuple[int, int]] = set()
        for x0, y0, x1, y1 in boxes:
            for j in range(math.floor(y0 / step) - 1, math.ceil(y1 / step) + 1):
                for i in range(math.floor(x0 / step) - 1, math.ceil(x1 / step) + 1):
                    crosses.add((j, i))
        for j, i in sorted(crosses):
            x, y = i * step + (j % 2) * step / 2 + step / 4, j * step + step / 2
            out.append(((x - arm, y), (x + arm, y)))
            out.append(((x, y - arm), (x, y + arm)))
    return out


def _union(spans: list[tuple[float, float]]) -> list[tuple[float, float]]:
    out: list[tuple[float, float]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def pattern_dots(step: float, boxes: Sequence[Box]) -> list[tuple[float, float]]:
    """The dots of a dots pattern over the union of `boxes`: two a `step` square,
    staggered, each once."""
    found: set[tuple[int, int, int]] = set()
    for x0, y0, x1, y1 in boxes:
        for j in range(math.floor(y0 / step) - 1, math.ceil(y1 / step) + 1):
            for i in range(math.floor(x0 / step) - 1, math.ceil(x1 / step) + 1):
                found.add((j, i, 0))
                found.add((j, i, 1))
    return [(i * step + step * (1 + 2 * h) / 4, j * step + step * (1 + 2 * h) / 4)
            for j, i, h in sorted(found)]  # fmt: skip


def _colour(name: str) -> Color:
    return HexColor(name)


def _fitted(text: str, font: str, width: float, height: float, sizes: tuple[float, ...]) -> Fitted:
    return fit_or_refuse(text, font, width, height, sizes, "the map's words do not fit")


def draw_tile(drawing: Drawing, page: Page, left: float, top: float) -> None:
    """One page's window on the map, clipped to it."""
    x, y, w, h = page.x, page.y, page.w, page.h
    canvas = drawing.canvas
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(drawing.x(left), drawing.y(top + h), w * MM, h * MM)
    canvas.clipPath(clip, stroke=0, fill=0)
    painter = Painter(drawing, left - x, top - y, (x, y, x + w, y + h))
    painter.paint(page.elements)
    painter.paint(page.marks)
    canvas.restoreState()


def draw_header(
    drawing: Drawing, context: Mapping[str, Any], page: Page, left: float, top: float
) -> None:
    canvas = drawing.canvas
    room = header_text_width(drawing.paper)
    title = _fitted(f"Map — {context['scenario_title']}", "serif", room, 8.0,
                    (float(context["title_size"]),))  # fmt: skip
    below = write(drawing, title, left, top - 0.6, room, colour="accent")
    note = Fitted("sans", TEXT_PT, page.note_lines)
    write(drawing, note, left, below + 0.1, room)
    # the right block: the wind rose and its words, the page label and the key map
    head = page.head
    rx = left + context["page_width"] - head.w
    draw_rose(drawing, context["wind"], rx, top, head.left - ROSE_BOX_MM - 1.5)
    canvas.setFillColor(_colour(drawing.colours["ink"]))
    baseline = drawing.y(top + LABEL_SIZES[0] * PT_MM * 0.85)
    canvas.setFont("sans-bold", head.size)
    canvas.drawString(drawing.x(rx + head.label_x), baseline, head.bold)
    canvas.setFont("sans", head.size)
    canvas.drawRightString(drawing.x(rx + head.w), baseline, head.rest)
    cw, ch = head.cw, head.ch
    canvas.setStrokeColor(_colour(drawing.colours["ink"]))
    canvas.setLineWidth(0.25 * MM)
    for cell in head.cells:
        x, y = rx + cell.x, top + cell.y
        canvas.setFillColor(_colour(drawing.colours["ink" if cell.here else "paper"]))
        drawing.rect(x, y, cw, ch, stroke=1, fill=1)
        if cell.label:
            font = "sans-bold" if cell.here else "sans"
            canvas.setFillColor(_colour(drawing.colours["paper" if cell.here else "ink"]))
            canvas.setFont(font, TEXT_PT)
            canvas.drawCentredString(
                drawing.x(x + cw / 2), drawing.y(y + ch / 2 + TEXT_PT * PT_MM * 0.36), cell.label
            )


def draw_rose(
    drawing: Drawing,
    rose: WindRose,
    left: float,
    top: float,
    words_w: float,
    *,
    centred: bool = False,
) -> None:
    """The wind rose at (left, top) and its words to its right, `words_w` wide, at the top
    (beside the page label) or `centred` on the rose."""
    painter = Painter(drawing, left, top, (0.0, 0.0, ROSE_BOX_MM, ROSE_BOX_MM))
    cx, cy = rose.centre
    painter.paint(
        [
            circle(cx, cy, rose.r, "rose"),
            line(cx, cy - rose.r, cx, cy - rose.r + 1.0, "rose"),
        ]
    )
    painter.paint([rose.north])
    if rose.shaft is not None and rose.head is not None:
        painter.paint([rose.shaft, rose.head])
    words = _fitted(rose.text, "sans", words_w, HEADER_MM - HEAD_CLEAR_MM, (7.5, 7.0))
    words_top = top + cy - words.height_mm / 2 if centred else top + 0.3
    write(drawing, words, left + ROSE_BOX_MM, words_top, words_w)


def draw_legend(drawing: Drawing, legend: Legend, left: float, top: float) -> None:
    """The legend: each entry's swatch and its words."""
    canvas = drawing.canvas
    for item in legend.items:
        x, y = left + item.x, top + item.y
        if item.style:
            w, h = SWATCH_MM
            Painter(drawing, x, y, (0.0, 0.0, w, h)).paint(swatch(item.style))
        canvas.setFillColor(_colour(drawing.colours["ink"]))
        canvas.setFont("sans", TEXT_PT)
        canvas.drawString(
            drawing.x(left + item.text_x),
            drawing.y(y + SWATCH_MM[1] / 2 + TEXT_PT * PT_MM * 0.36),
            item.name,
        )


def draw_plan(drawing: Drawing, context: Mapping[str, Any], left: float, top: float) -> None:
    """The table's plan on one page: title, plan, wind, legend and the table of positions."""
    canvas = drawing.canvas
    width = context["page_width"]
    plan: TablePlan = context["plan"]
    # the page label at the title's right, the title keeping clear of it
    label = page_label(1, 1)
    size = LABEL_SIZES[0]
    label_w = text_width_mm(label, "sans", size) + 3.0
    title = _fitted(f"Table plan — {context['scenario_title']}", "serif", width - label_w, 16.0,
                    (16.0, 14.0, 12.0, 11.0, 10.0))  # fmt: skip
    canvas.setFillColor(_colour(drawing.colours["faint"]))
    canvas.setFont("sans", size)
    baseline = top + title.size * LEADING * PT_MM * 0.78
    canvas.drawRightString(drawing.x(left + width), drawing.y(baseline), label)
    y = write(drawing, title, left, top, width - label_w, colour="accent")
    intro = (
        f"{context['ruleset_title']}: the table, {plan.size_text}, north at the top; "
        f"{plan.scale_note}. Grid lines every 10 cm; the numbers are cm from the north-west "
        "corner."
    )
    y = write(drawing, _fitted(intro, "sans", width, 12.0, (8.0, 7.5, 7.0)), left, y + 0.8, width)
    # the plan, its tick labels above and to the left
    ox, oy = left + PLAN_LEFT_MM, y + 5.0
    canvas.setFillColor(_colour(drawing.colours["ink"]))
    canvas.setFont("sans", TEXT_PT)
    for tick in plan.xticks:
        canvas.drawCentredString(drawing.x(ox + tick.at), drawing.y(oy - 1.2), tick.text)
    for tick in plan.yticks:
        canvas.drawRightString(
            drawing.x(ox - 1.0), drawing.y(oy + tick.at + TEXT_PT * PT_MM * 0.36), tick.text
        )
    painter = Painter(drawing, ox, oy, (0.0, 0.0, plan.width, plan.height))
    painter.paint(plan.elements)
    y = oy + plan.height + 3.0
    # the wind and the legend
    draw_rose(drawing, context["wind"], left, y, width - 16.0, centred=True)
    y += HEADER_MM + 1.0
    draw_legend(drawing, context["legend"], left, y)
    y += context["legend"].h + 3.0
    # the table of positions
    heading = _fitted("On the table", "serif", width, 8.0, (13.0,))
    y = write(drawing, heading, left, y, width, colour="accent")
    canvas.setStrokeColor(_colour(drawing.colours["rule"]))
    canvas.setLineWidth(0.4 * MM)
    canvas.line(drawing.x(left), drawing.y(y + 0.4), drawing.x(left + width), drawing.y(y + 0.4))
    rows = [("Zone or feature", "x (cm)", "y (cm)", "size (cm)")]
    for z in context["deployment"]:
        rows.append(_position(f"{z['name']} deployment zone", z))
    for f in context["features"]:
        rows.append(_position(f"{f.get('label', '')} ({f.get('type', '')})", f))
    y = _draw_table(drawing, rows, left, y + 1.6, width)
    if context["house_note"]:
        note = _fitted(context["house_note"], "sans-italic", width, 8.0, (7.5, 7.0))
        write(drawing, note, left, y + 2.0, width, colour="faint")


def _position(name: str, item: Mapping[str, Any]) -> tuple[str, str, str, str]:
    x, y, w, h = (item[k] for k in ("x_cm", "y_cm", "w_cm", "h_cm"))
    return name, f"{x:g}–{x + w:g}", f"{y:g}–{y + h:g}", f"{w:g} × {h:g}"


def _draw_table(
    drawing: Drawing, rows: Sequence[Sequence[str]], left: float, top: float, width: float
) -> float:
    """A plain table, the first row its heading; return the mm under it."""
    size, pad = 7.5, 1.6
    widths = [
        max(
            text_width_mm(row[i], "sans-bold" if j == 0 else "sans", size)
            for j, row in enumerate(rows)
        )
        + 2 * pad
        for i in range(len(rows[0]))
    ]
    scale = min(1.0, width / sum(widths))
    widths = [w * scale for w in widths]
    line = size * LEADING * PT_MM + 0.8
    canvas = drawing.canvas
    canvas.setStrokeColor(_colour(drawing.colours["rule"]))
    canvas.setLineWidth(0.25 * MM)
    y = top
    for j, row in enumerate(rows):
        if j == 0 and not drawing.mono:
            canvas.setFillColor(_colour(drawing.colours["tint"]))
            canvas.rect(
                drawing.x(left), drawing.y(y + line), sum(widths) * MM, line * MM, stroke=0, fill=1
            )
        x = left
        for cell, w in zip(row, widths, strict=True):
            fitted = _fitted(
                cell, "sans-bold" if j == 0 else "sans", w - 2 * pad, line, (size, 7.0)
            )
            write(drawing, fitted, x + pad, y + 0.4, w - 2 * pad)
            x += w
        y += line
        canvas.line(drawing.x(left), drawing.y(y), drawing.x(left + sum(widths)), drawing.y(y))
    x = left
    for w in [0.0, *widths]:
        x += w
        canvas.line(drawing.x(x), drawing.y(top), drawing.x(x), drawing.y(y))
    canvas.line(drawing.x(left), drawing.y(top), drawing.x(left + sum(widths)), drawing.y(top))
    return y
