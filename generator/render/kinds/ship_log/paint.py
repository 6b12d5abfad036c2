"""Ship's logs painted: the items of each page (`items`) drawn with ReportLab, and
with a fillable sheet an AcroForm field laid over every box, write-in box and turn-log cell.

Printed and fillable logs come from the same items; a field's name is its item's, after the
prefix a packet gives each sheet, and its tooltip the item's words.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from reportlab.lib.colors import HexColor
from reportlab.pdfbase.acroform import annotationFlagValues, makeFlags
from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFString

from generator.render.draw import MM, Box, Drawing, Fitted, write
from generator.render.kinds.ship_log.items import (
    BOX_MM,
    BOX_PT,
    CROSS_INSET_MM,
    CROSS_PT,
    RULE_PT,
    SHIP_MARK_LEVEL,
    TICK_PT,
    Band,
    Bookmark,
    CrossBox,
    Frame,
    Item,
    Rule,
    Text,
    TrackMark,
    WriteBox,
    middle,
    width_mm,
)


def paint(
    drawing: Drawing,
    pages: Iterable[Sequence[Item]],
    *,
    boxes: Mapping[str, Box],
    fillable: bool,
    field_prefix: str,
) -> None:
    """Paint each page's items on a page of its own; with `fillable`, a form field over
    every box."""
    colours = {name: HexColor(value) for name, value in drawing.colours.items()}
    canvas = drawing.canvas
    form = canvas.acroForm if fillable else None
    for items in pages:
        drawing.new_page(boxes)
        for item in items:
            _paint(drawing, canvas, item, colours, form, field_prefix)


def _paint(
    drawing: Drawing,
    canvas: Any,
    item: Item,
    colours: Mapping[str, Any],
    form: Any,
    prefix: str,
) -> None:
    x, y = item.x, item.y
    if isinstance(item, Text):
        write(
            drawing,
            Fitted(item.font, item.size, item.lines),
            x,
            y,
            item.w,
            align=item.align,
            colour=item.colour,
        )
        return
    if isinstance(item, Bookmark):
        drawing.bookmark(item.label, SHIP_MARK_LEVEL, y)
        return
    if isinstance(item, TrackMark):
        _mark(drawing, canvas, item, colours)
        return
    if isinstance(item, Band):
        _band(drawing, canvas, item, colours)
        return
    if isinstance(item, Rule):
        canvas.setStrokeColor(colours[item.colour])
        canvas.setLineWidth(item.pt)
        canvas.line(drawing.x(x), drawing.y(y), drawing.x(x + item.w), drawing.y(y + item.h))
        return
    w, h = item.w, item.h
    rect = (drawing.x(x), drawing.y(y + h), w * MM, h * MM)
    if isinstance(item, Frame):
        canvas.setStrokeColor(colours[item.colour])
        canvas.setLineWidth(item.pt)
        canvas.rect(*rect, stroke=1, fill=0)
        return
    if isinstance(item, CrossBox):
        canvas.setStrokeColor(colours["ink"])
        canvas.setLineWidth(BOX_PT)
        canvas.rect(*rect, stroke=1, fill=0)
        if form is not None:
            _checkbox(
                drawing,
                form,
                prefix + item.field,
                item.tip,
                rect[0],
                rect[1],
                w * MM,
                colours["ink"],
                checked=item.marked,
            )
        elif item.marked:
            _cross(drawing, canvas, item, colours["ink"])
        return
    if isinstance(item, WriteBox):
        canvas.setStrokeColor(colours["rule"])
        canvas.setLineWidth(0.6)
        canvas.rect(*rect, stroke=1, fill=0)
        if form is not None:
            drawing.text_field(prefix + item.field, rect, colours["ink"], tooltip=item.tip)
        return
    # what is left is a turn log's cell (`TurnField`): ruled already, a field only when fillable
    if form is not None:
        drawing.text_field(prefix + item.name, rect, colours["ink"], tooltip=item.tip)


def _checkbox(
    drawing: Drawing,
    form: Any,
    name: str,
    tooltip: str,
    x: float,
    y: float,
    size: float,
    ink: Any,
    *,
    checked: bool = False,
) -> None:
    """Lay a check box field over a printed box: ReportLab's `checkbox`, but with its six
    appearance streams made once per size and colour rather than for every box (making
    them took most of a fillable page's time), `tooltip` (/TU: what a viewer shows and
    a screen reader reads) in the sheet's words, and a /DA of its own in the form's
    embedded font (a packet keeps no form-level /DA).

    No /MK /CA caption: ReportLab's is ZapfDingbats' cross code ("5"), which a viewer
    rebuilding the look in the /DA's font would print as a "5". The appearance streams
    draw the cross as lines, in no font; poppler rebuilds a check box only when it has
    no appearance (then drawing a tick), and pypdf only switches its state (/AS).

    `checked`: the box is crossed already (damage a scenario carries): its value (/V) and
    appearance state (/AS) are ``Yes``, so every reader shows it ticked and a player may
    clear it."""
    made: dict[tuple[float, str], dict[str, dict[str, Any]]] = form.__dict__.setdefault(
        "_qm_checkbox_appearances", {}
    )
    key = (round(size, 4), str(ink))
    if key not in made:
        looks: dict[str, dict[str, Any]] = {}
        for state in "NDR":
            text, border, fill = form.varyColors(state, ink, None, None)
            looks[state] = {}
            for value in ("Yes", "Off"):
                stream = form.checkboxAP(
                    state, value, buttonStyle="cross", shape="square", fillColor=fill,
                    borderColor=border, textColor=text, borderWidth=0, size=size,
                )  # fmt: skip
                if stream._af_refstr not in form._refMap:
                    form._refMap[stream._af_refstr] = form.getRef(stream)
                looks[state][value] = form._refMap[stream._af_refstr]
        made[key] = looks
    field = PDFDictionary(
        {
            "FT": PDFName("Btn"),
            "P": form.canv._doc.thisPageRef(),
            "V": PDFName("Yes" if checked else "Off"),
            "AS": PDFName("Yes" if checked else "Off"),
            "Rect": PDFArray((x, y, x + size, y + size)),
            "AP": PDFDictionary({s: PDFDictionary(v) for s, v in made[key].items()}),
            "Subtype": PDFName("Widget"),
            "Type": PDFName("Annot"),
            "F": makeFlags("print", annotationFlagValues),
            "Ff": 0,
            "H": PDFName("N"),
            "T": PDFString(name),
            "TU": PDFString(tooltip),
            "DA": PDFString(drawing.form_appearance(ink)),
        }
    )
    form.canv._addAnnotation(field)
    form.fields.append(form.getRef(field))


def _cross(drawing: Drawing, canvas: Any, item: CrossBox, ink: Any) -> None:
    """A box crossed off already, on paper: an X of the ink's colour inside the box."""
    inset = CROSS_INSET_MM
    left, top = item.x + inset, item.y + inset
    right, bottom = item.x + item.w - inset, item.y + item.h - inset
    canvas.setStrokeColor(ink)
    canvas.setLineWidth(CROSS_PT)
    canvas.setLineCap(1)  # round ends, as a pencil's
    canvas.line(drawing.x(left), drawing.y(top), drawing.x(right), drawing.y(bottom))
    canvas.line(drawing.x(left), drawing.y(bottom), drawing.x(right), drawing.y(top))
    canvas.setLineCap(0)


def _mark(drawing: Drawing, canvas: Any, item: TrackMark, colours: Mapping[str, Any]) -> None:
    """The ½ mark, or a tick: where the rules say something happens."""
    x, y = item.x, item.y
    if item.half:
        fitted = Fitted("sans-bold", 8.5, ("½",))
        width = width_mm("½", "sans-bold", 8.5) + 0.4
        write(
            drawing, fitted, x - width / 2, y + middle(8.5), width, align="center", colour="accent"
        )
        return
    canvas.setStrokeColor(colours["accent"])
    canvas.setLineWidth(TICK_PT)
    canvas.line(drawing.x(x), drawing.y(y - 0.6), drawing.x(x), drawing.y(y + BOX_MM + 0.6))


def _band(drawing: Drawing, canvas: Any, item: Band, colours: Mapping[str, Any]) -> None:
    """A tinted band (in black and white: framed, or a heading ruled underneath)."""
    x, y, w, h = item.x, item.y, item.w, item.h
    if not drawing.mono:
        canvas.setFillColor(colours["tint"])
        drawing.rect(x, y, w, h, stroke=0, fill=1)
        return
    canvas.setStrokeColor(colours["ink"])
    if item.head:
        canvas.setLineWidth(1.0)
        canvas.line(drawing.x(x), drawing.y(y + h), drawing.x(x + w), drawing.y(y + h))
    else:
        canvas.setLineWidth(RULE_PT)
        drawing.rect(x, y, w, h, stroke=1, fill=0)
