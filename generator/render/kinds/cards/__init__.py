"""Card decks, poker size, nine to an A4 page (eight on Letter), drawn with ReportLab, as
the ``cards`` section of a ruleset's spec describes them: a card for every row of a table
(each in as many copies as the table says, its structured fields printed as an effect), or
numbered cards of each colour of a suit deck, with reference cards carrying the steps of
rules too long for a face.

The deck is spread as evenly as the sheets allow (28 cards: 7 a sheet on 4 sheets, never a
lone card on the last); the last sheet's free slots take a turn-sequence card for each
player where the spec names one, the rest stay blank. The faces of a sheet touch: grey cut
lines run between them and crop marks in the margin continue every cut. On A4 the cards
stand three by three; Letter is too short for three rows and crop marks (6.35 mm above and
below), so there they lie turned a quarter, two across and four down (`GRIDS`). Each sheet
of faces is followed by its backs, laid out as the faces' mirror image left to right, so
that printed double-sided with a flip on the long edge every back lands behind its own
face; a back's colour runs 2 mm past the block's outer cuts (a bleed) and it has no inner
frame, which would show any misregistration of the two sides. In black and white a back
is a fine lattice of hairlines, which prints grey: a bare white back shows a held hand
through.

Here the deck is made and laid out on its sheets, and each sheet's cut lines, crop marks
and header drawn; `faces` draws each card, face and back, in its slot.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from reportlab.lib.colors import HexColor

from generator.errors import InputError, QuartermasterError
from generator.loading import Rules
from generator.lookup import cell_text
from generator.render.draw import Box, Drawing, Fitted, fit, write
from generator.render.kinds.cards.faces import BLEED_MM, CARD_MM, colour_of, draw_back, draw_face
from generator.render.pagenumbers import page_label
from generator.render.paper import get_paper
from generator.render.specs import param_check, section, table_key
from generator.render.words import game_name, game_title, table_title
from generator.ruleset.model import SheetData
from generator.schema.context import NAME_LENGTH
from generator.schema.nodes import Choice, Items, Record, Text, Variant, opt, req
from generator.schema.nodes import Mapping as Keyed

GRID = (3, 3)  # columns, rows on A4
# the cards on each paper: columns, rows, and whether they lie turned a quarter. Three
# rows (266.7 mm) leave Letter (279.4 mm) 6.35 mm above and below, too little for crop
# marks a knife can follow clear of what a printer loses; turned, two across and four
# down (177.8 x 254 mm) leave 19 and 12.7 mm, and a 28-card deck still takes four sheets
GRIDS: dict[str, tuple[int, int, bool]] = {"a4": (3, 3, False), "letter": (2, 4, True)}
CROP_MARK_PT = 0.6  # line width of the crop marks (at least 0.5 pt)
CROP_GAP_MM = 0.5  # space between the card block and a mark
CROP_LENGTH_MM = 6.0  # longest mark; shorter where the margin is narrow
# a mark ends at least this far from the paper's edge: most printers cannot print the
# outer 4 mm (lasers lose about 4.2 mm), and a mark clipped there is lost
MARK_EDGE_MM = 5.0
MIN_MARK_MM = 3.0  # a mark shorter than this is no help to the knife
# the page label keeps this far from the paper's edge, and this far from any mark
PRINTER_EDGE_MM = 4.5
LABEL_CLEAR_MM = 1.5
PT_MM = 25.4 / 72
CUT_LINE_PT = 0.35  # the grey lines between faces
PLAYERS = 2  # turn-sequence cards on the last sheet, one for each player


def _field_value(key: str, value: Any, spec: Mapping[str, Any]) -> str:
    values = spec.get("values") or {}
    if key in values:
        return str(values[key].get(str(value), value))
    if isinstance(value, bool):
        return "yes" if value else "no"
    if key in (spec.get("signed") or ()) and isinstance(value, int):
        return f"{value:+d}"
    return str(value).capitalize() if key in (spec.get("capitalized") or ()) else str(value)


def _table_faces(rules: Rules, ruleset: str, spec: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A card for every row of the faces' table, each in as many copies as it says."""
    faces = spec["faces"]
    table = rules.rulesets[ruleset].tables[faces["table"]]
    labels: Mapping[str, str] = spec.get("fields") or {}
    default_copies = int(table.params["copies_per_card"])
    cards: list[dict[str, Any]] = []
    for name, cell in zip(table.axes[0].labels, table.cells, strict=True):
        fields = cell if isinstance(cell, Mapping) else {}
        copies = int(fields.get("copies", default_copies))
        effect = [
            {
                "label": labels.get(key, key.replace("_", " ").capitalize()),
                "value": _field_value(key, value, spec),
            }
            for key, value in fields.items()
            if key not in ("result", "copies")
        ]
        for copy in range(1, copies + 1):
            cards.append(
                {
                    "style": faces["style"],
                    "name": name,
                    "text": cell_text(cell),
                    "effect": effect,
                    "copy_of": f"{copy} of {copies}",
                    "source": table.id,
                }
            )
    if len(cards) != int(table.params["deck_size"]):
        raise InputError(f"{table.id}: {len(cards)} cards, params say {table.params['deck_size']}")
    return cards


def _sentences(text: str, word: str) -> list[str]:
    """Return the sentences of `text` that mention `word`, as printed."""
    parts = [part.strip() for part in text.replace(". ", ".\n").splitlines()]
    return [part for part in parts if word.casefold() in part.casefold()]


def _suit_faces(rules: Rules, ruleset: str, spec: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Numbered cards of each colour, as many as the rule's params say; each face carries
    the rule's own sentences that name the reminder word."""
    faces = spec["faces"]
    table = rules.rulesets[ruleset].tables[faces["table"]]
    rule = " ".join(item.text for item in table.items)
    reminder = _sentences(rule, faces["reminder"])
    cards: list[dict[str, Any]] = []
    for suit in faces["suits"]:
        colour = str(suit["colour"])
        for number in range(1, int(table.params[suit["count"]]) + 1):
            cards.append(
                {
                    "style": faces["style"],
                    "name": f"{colour.capitalize()} {number}",
                    "colour": colour,
                    "suit": suit["suit"],
                    "reminder": reminder,
                    "source": table.id,
                }
            )
    return cards


# the kinds of face a deck can have, and how its cards are made
FACES: dict[str, Callable[[Rules, str, Mapping[str, Any]], list[dict[str, Any]]]] = {
    "action": _table_faces,
    "turn": _suit_faces,
}
SUITS = ("heart", "spade")  # the suits a turn card's face draws (`faces.draw_face`)


@cache
def section_schema(ruleset: str) -> Record:
    """Return the shape of `ruleset`'s cards section (the tables it names are the
    ruleset's)."""
    table = table_key(ruleset)
    name = Text(NAME_LENGTH)
    suit = Record(
        {
            "colour": req(name, "the cards' colour, their name: 'Red 1'"),
            "count": req(name, "the param of the faces' table: how many"),
            "suit": req(Choice(SUITS, what="suit"), "the suit drawn on them"),
        },
        what="a mapping of colour, count and suit",
    )
    faces = Variant(
        "style",
        {
            "action": Record(
                {
                    "style": req(Choice(tuple(FACES), what="face style")),
                    "table": req(table, "a card for every row, as many copies as it says"),
                },
                what="a mapping of style and table",
            ),
            "turn": Record(
                {
                    "style": req(Choice(tuple(FACES), what="face style")),
                    "table": req(table, "the rule whose params count the cards"),
                    "suits": req(Items(suit, minimum=1, noun=("suit", "suits")), "the colours"),
                    "reminder": req(name, "its sentences naming this word go on every face"),
                },
                (param_check(ruleset, "table", "count", each="suits"),),
                what="a mapping of style, table, suits and reminder",
            ),
        },
        what="face style",
    )
    words = Keyed(name)
    return Record(
        {
            "deck": req(name, "the deck's name"),
            "faces": req(faces, "action: a card for every row of a table; turn: suit cards"),
            "reference": opt(
                Items(table, noun=("table", "tables")), "tables whose steps get a card each"
            ),
            "back_hint": opt(name, "the faces' rule's sentences naming this word go on the backs"),
            "fill": opt(table, "the rules of a turn-sequence card on the last sheet's free slots"),
            "fields": opt(words, "how a field of the faces' table reads on a card"),
            "signed": opt(Items(name, noun=("field", "fields")), "fields printed +2, -1"),
            "capitalized": opt(Items(name, noun=("field", "fields")), "fields capitalized"),
            "values": opt(Keyed(words), "by field, how each of its values reads"),
        },
        what="a cards section",
    )


@cache
def deck_spec(ruleset: str) -> Mapping[str, Any]:
    """Return the cards section of `ruleset`'s spec, checked."""
    return section(ruleset, "cards")[0]


def deck(rules: Rules, ruleset: str) -> dict[str, Any]:
    """Return the deck of `ruleset`: its cards (faces, then reference cards) and names."""
    spec = deck_spec(ruleset)
    faces = spec["faces"]
    cards = FACES[faces["style"]](rules, ruleset, spec)
    tables = rules.rulesets[ruleset].tables
    for key in spec.get("reference") or ():
        table = tables[key]
        cards.append(
            {
                "style": "reference",
                "name": table_title(table),
                "steps": [item.text for item in table.items],
                "ordered": table.ordered,
                "source": table.id,
            }
        )
    fill = None
    if spec.get("fill"):
        table = tables[str(spec["fill"])]
        fill = {
            "style": "reference",
            "name": table_title(table),
            "steps": [item.text for item in table.items],
            "ordered": table.ordered,
            "source": table.id,
            "fill": True,
        }
    hint: list[str] = []
    if spec.get("back_hint"):
        rule = " ".join(item.text for item in tables[faces["table"]].items)
        hint = _sentences(rule, str(spec["back_hint"]))
    game = rules.rulesets[ruleset]
    return {
        "deck": spec["deck"],
        "game": game_name(game),
        "game_full": game_title(game),
        "cards": cards,
        "fill": fill,
        "back_hint": hint,
        "sources": [
            tables[faces["table"]].id,
            *(tables[k].id for k in spec.get("reference") or ()),
        ],
    }


def grid(paper: str) -> tuple[int, int, bool]:
    """Return the columns and rows of cards on `paper`, and whether they lie turned."""
    return GRIDS[get_paper(paper).name]


def layout(paper: str) -> dict[str, Any]:
    """Return the card block's place on the page and its crop marks, all in mm.

    ``card_w`` and ``card_h`` are a slot's width and height on the page (a turned card's
    are the card's height and width); ``labels`` are the boxes of the page's header, in
    the widest margin, clear of every mark and of the backs' bleed: one over each card
    in a top margin, one along the block in a side margin.
    """
    page_w, page_h = get_paper(paper).size_mm
    cols, rows, turned = grid(paper)
    card_w, card_h = reversed(CARD_MM) if turned else CARD_MM
    left = (page_w - cols * card_w) / 2
    top = (page_h - rows * card_h) / 2
    mark = CROP_MARK_PT * PT_MM
    across = min(CROP_LENGTH_MM, left - CROP_GAP_MM - MARK_EDGE_MM)  # marks left and right
    down = min(CROP_LENGTH_MM, top - CROP_GAP_MM - MARK_EDGE_MM)  # marks above and below
    if min(across, down) < MIN_MARK_MM:
        raise QuartermasterError(f"{paper}: no room for crop marks beside the cards")
    marks: list[dict[str, float]] = []
    for i in range(cols + 1):  # the vertical cuts, marked above and below the block
        x = left + i * card_w - mark / 2
        marks.append({"x": x, "y": top - CROP_GAP_MM - down, "w": mark, "h": down})
        marks.append({"x": x, "y": top + rows * card_h + CROP_GAP_MM, "w": mark, "h": down})
    for j in range(rows + 1):  # the horizontal cuts, marked left and right
        y = top + j * card_h - mark / 2
        marks.append({"x": left - CROP_GAP_MM - across, "y": y, "w": across, "h": mark})
        marks.append({"x": left + cols * card_w + CROP_GAP_MM, "y": y, "w": across, "h": mark})
    if top >= left:
        # in the top margin, a box over each card between the marks of its two cuts, its
        # foot clear of the backs' bleed: the page's name, its number, how to print it
        labels = [
            {
                "x": left + column * card_w + LABEL_CLEAR_MM + mark,
                "y": PRINTER_EDGE_MM,
                "w": card_w - 2 * (LABEL_CLEAR_MM + mark),
                "h": top - BLEED_MM - LABEL_CLEAR_MM - PRINTER_EDGE_MM,
                "rotate": False,
            }
            for column in range(cols)
        ]
    else:
        # turned a quarter in the left margin, between the paper's edge and the marks'
        # outer ends (and the backs' bleed), the length of the block: its box is laid out
        # upright, then rotated about its centre
        width = rows * card_h
        inner = max(CROP_GAP_MM + across, BLEED_MM)
        height = left - inner - LABEL_CLEAR_MM - PRINTER_EDGE_MM
        centre_x, centre_y = PRINTER_EDGE_MM + height / 2, top + rows * card_h / 2
        labels = [
            {
                "x": centre_x - width / 2,
                "y": centre_y - height / 2,
                "w": width,
                "h": height,
                "rotate": True,
            }
        ]
    return {
        "page_w": page_w,
        "page_h": page_h,
        "left": left,
        "top": top,
        "cols": cols,
        "rows": rows,
        "turned": turned,
        "card_w": card_w,
        "card_h": card_h,
        "marks": [{k: round(v, 3) for k, v in m.items()} for m in marks],
        "slots": [
            {"x": round(left + c * card_w, 3), "y": round(top + r * card_h, 3)}
            for r in range(rows)
            for c in range(cols)
        ],
        "mark_pt": CROP_MARK_PT,
        "labels": [
            {k: round(v, 3) if isinstance(v, float) else v for k, v in label.items()}
            for label in labels
        ],
    }


def label_area(label: Mapping[str, Any]) -> Box:
    """Return where a header box of `layout` lies on the page, turned or not: (left, top,
    right, bottom) in mm from the top-left."""
    cx, cy = label["x"] + label["w"] / 2, label["y"] + label["h"] / 2
    w, h = (label["h"], label["w"]) if label["rotate"] else (label["w"], label["h"])
    return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


def trim_box(paper: str) -> tuple[float, float, float, float]:
    """Return the block of cards, what is left after cutting: (left, top, right, bottom) in
    mm from the paper's top-left corner (the page declares it as its /TrimBox)."""
    geometry = layout(paper)
    left, top = geometry["left"], geometry["top"]
    width = geometry["card_w"] * geometry["cols"]
    height = geometry["card_h"] * geometry["rows"]
    return (left, top, left + width, top + height)


def slot_position(index: int, back: bool, columns: int = GRID[0]) -> tuple[int, int]:
    """Return (column, row) of the card in slot `index` of a page of `columns` columns;
    backs mirror the columns."""
    column, row = index % columns, index // columns
    return (columns - 1 - column if back else column), row


def spread(count: int, per_sheet: int) -> list[int]:
    """Return how many cards each sheet holds: as few sheets as `count` needs, as evenly
    filled as they can be (28 on sheets of 9: 7, 7, 7, 7; never a lone card)."""
    if count <= 0:
        return []
    sheets = -(-count // per_sheet)
    base, extra = divmod(count, sheets)
    return [base + (1 if i < extra else 0) for i in range(sheets)]


def pages(
    cards: list[dict[str, Any]], geometry: dict[str, Any], fill: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """Return the pages: each sheet's faces then their backs; the last sheet's free slots
    take `fill` (a turn-sequence card) for each player, the rest stay blank."""
    cols = geometry["cols"]
    per_page = cols * geometry["rows"]
    chunks: list[list[dict[str, Any]]] = []
    start = 0
    for size in spread(len(cards), per_page):
        chunks.append(list(cards[start : start + size]))
        start += size
    if fill is not None and chunks:
        chunks[-1] += [fill] * min(PLAYERS, per_page - len(chunks[-1]))
    result: list[dict[str, Any]] = []
    for number, chunk in enumerate(chunks, start=1):
        for back in (False, True):
            slots = []
            for index, card in enumerate(chunk):
                column, row = slot_position(index, back, cols)
                slots.append(
                    {
                        "card": card,
                        "column": column,
                        "row": row,
                        "place": row * cols + column,
                        "x": round(geometry["left"] + column * geometry["card_w"], 3),
                        "y": round(geometry["top"] + row * geometry["card_h"], 3),
                    }
                )
            result.append({"back": back, "number": number, "of": len(chunks), "slots": slots})
    return result


def context(
    rules: Rules, data: SheetData | None, paper: str, ruleset: str | None
) -> dict[str, Any]:
    assert ruleset is not None  # render_sheet settles the ruleset before asking
    made = deck(rules, ruleset)
    geometry = layout(paper)
    return {
        **made,
        "ruleset": ruleset,
        "geometry": geometry,
        "pages": pages(made["cards"], geometry, made["fill"]),
    }


# ---------------------------------------------------------------- drawing


def draw(
    drawing: Drawing,
    context: dict[str, Any],
    *,
    boxes: Mapping[str, Box],
    fillable: bool,
    field_prefix: str,
) -> None:
    """Draw the deck: each sheet's faces, then its backs."""
    geometry = context["geometry"]
    for page in context["pages"]:
        drawing.new_page(boxes)
        if page["back"]:
            for slot in page["slots"]:
                draw_back(drawing, context, slot, geometry)
        else:
            for slot in page["slots"]:
                draw_face(drawing, context, slot, geometry)
            _cut_lines(drawing, geometry)
            _crop_marks(drawing, geometry)
        _page_label(drawing, context, page, geometry)


def _cut_lines(drawing: Drawing, g: dict[str, Any]) -> None:
    """Grey lines along every cut of the block: one stroke of the knife each."""
    canvas = drawing.canvas
    canvas.setStrokeColor(HexColor("#000000" if drawing.mono else "#9a948a"))
    canvas.setLineWidth(CUT_LINE_PT)
    cols, rows = g["cols"], g["rows"]
    left, top = g["left"], g["top"]
    right, bottom = left + cols * g["card_w"], top + rows * g["card_h"]
    for i in range(cols + 1):
        x = drawing.x(left + i * g["card_w"])
        canvas.line(x, drawing.y(top), x, drawing.y(bottom))
    for j in range(rows + 1):
        y = drawing.y(top + j * g["card_h"])
        canvas.line(drawing.x(left), y, drawing.x(right), y)


def _crop_marks(drawing: Drawing, g: dict[str, Any]) -> None:
    drawing.canvas.setFillColor(colour_of(drawing, "ink"))
    for mark in g["marks"]:
        drawing.rect(mark["x"], mark["y"], mark["w"], mark["h"], stroke=0, fill=1)


HOW_TO_PRINT = "print double-sided, flip on the long edge"


def header(
    context: Mapping[str, Any], page: Mapping[str, Any], g: Mapping[str, Any]
) -> list[tuple[dict[str, Any], Fitted]]:
    """Lay out a page's header: which page this is and how to print it, small, in the
    widest margin: the page's name, its number among the sheet's pages (faces and backs
    alike), and for backs how to print them; return each header box of `layout` that
    holds words, with its words fitted in it (the number always on a line of its own).

    With a box over each card, the deck, the number and the side (and how to print
    backs) take one each; with one box along the block, they are one line.
    """
    faces = 2 * page["number"] - 1  # each sheet's faces, then its backs
    number = faces + 1 if page["back"] else faces
    total = 2 * page["of"]
    deck = f"{context['game']} · {str(context['deck']).lower()}"
    name = f"{deck} · backs of page {faces}" if page["back"] else f"{deck} · faces"
    boxes = g["labels"]
    if len(boxes) >= 3:
        # the deck; the number; faces, or which faces these backs are and how to print
        # them, each on a line of its own (never broken apart)
        side = f"Backs of page {faces}:\n{HOW_TO_PRINT}" if page["back"] else "Faces"
        words = [
            (boxes[0], deck),
            (boxes[len(boxes) // 2], page_label(number, total)),
            (boxes[-1], side),
        ]
    else:
        full = f"{name}: {HOW_TO_PRINT}" if page["back"] else name
        words = [(boxes[0], page_label(number, total, full))]
    laid = []
    for box, text in words:
        fitted = fit(text, "sans", box["w"], box["h"], (7.0,))
        if fitted is None:
            raise QuartermasterError(f"the card sheet's header does not fit: {text}")
        laid.append((box, fitted))
    lines = [line for _box, fitted in laid for line in fitted.lines]
    if not any(page_label(number, total) in line for line in lines):
        raise QuartermasterError(f"the card sheet's page number is broken apart: {lines}")
    return laid


def _page_label(
    drawing: Drawing, context: dict[str, Any], page: dict[str, Any], g: dict[str, Any]
) -> None:
    """Write the page's header (`header`), each part at the foot of its box."""
    canvas = drawing.canvas
    for label, fitted in header(context, page, g):
        if label["rotate"]:
            canvas.saveState()
            cx, cy = label["x"] + label["w"] / 2, label["y"] + label["h"] / 2
            canvas.translate(drawing.x(cx), drawing.y(cy))
            canvas.rotate(90)
            canvas.translate(-drawing.x(cx), -drawing.y(cy))
        top = label["y"] + label["h"] - fitted.height_mm
        write(drawing, fitted, label["x"], top, label["w"], align="center", colour="faint")
        if label["rotate"]:
            canvas.restoreState()
