"""Card decks, poker size, nine to a page, as the ``cards`` section of a ruleset's spec
describes them: a card for every row of a table (each in as many copies as the table says,
its structured fields printed as an effect), or numbered cards of each colour of a suit
deck, with reference cards carrying the steps of rules too long for a face.

The cards of a page touch, so one cut separates two cards; crop marks in the page margin
continue every cut line. Each page of faces is followed by a page of backs laid out as the
faces' mirror image left to right, so that printed double-sided with a flip on the long
edge every back lands behind its own face. The block of cards is centred, which keeps the
mirrored block in place.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from generator.errors import InputError, QuartermasterError
from generator.loading import Rules
from generator.lookup import cell_text
from generator.render.sheets import PAPERS
from generator.rulesets import SpecError, sheet_section

CARD_MM = (63.5, 88.9)  # poker size
GRID = (3, 3)  # columns, rows
PAGE_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
CROP_MARK_PT = 0.6  # line width of the crop marks (at least 0.5 pt)
CROP_GAP_MM = 0.5  # space between the card block and a mark
CROP_LENGTH_MM = 6.0  # longest mark; shorter where the margin is narrow
# nothing is printed nearer the paper's edge than this: most printers cannot print the
# outer 4 mm (lasers lose about 4.2 mm); a mark stops here, shorter where the margin is
# narrow (Letter's 6.35 mm above and below three poker cards leaves marks of 1.65 mm)
PRINTER_EDGE_MM = 4.2
MIN_MARK_MM = 1.5  # a mark shorter than this is no help to the knife
PT_MM = 25.4 / 72


def _short_title(title: str) -> str:
    """Return a ruleset title without its trailing parenthesis or 'for ...' tail ('Sea
    Battles 2.0 (quick reference)' and 'Sea Battles for Ships of the Line' are 'Sea
    Battles ...')."""
    return title.split(" (")[0].split(" for ")[0]


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


@cache
def deck_spec(ruleset: str) -> Mapping[str, Any]:
    """Return the cards section of `ruleset`'s spec, checked."""
    raw, spec = sheet_section(ruleset, "cards")
    where = spec.where("cards")
    faces = raw.get("faces")
    if not isinstance(raw.get("deck"), str) or not isinstance(faces, dict):
        raise SpecError(f"{where}: a deck has a name ('deck') and its faces")
    style = faces.get("style")
    if style not in FACES or not isinstance(faces.get("table"), str):
        raise SpecError(f"{where}: faces have a style ({', '.join(FACES)}) and a table")
    if style == "turn" and not (isinstance(faces.get("suits"), list) and faces.get("reminder")):
        raise SpecError(f"{where}: turn faces have suits and a reminder word")
    return raw


# the kinds of face a deck can have, and how its cards are made
FACES: dict[str, Callable[[Rules, str, Mapping[str, Any]], list[dict[str, Any]]]] = {
    "action": _table_faces,
    "turn": _suit_faces,
}


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
                "name": table.title,
                "steps": [item.text for item in table.items],
                "source": table.id,
            }
        )
    hint: list[str] = []
    if spec.get("back_hint"):
        rule = " ".join(item.text for item in tables[faces["table"]].items)
        hint = _sentences(rule, str(spec["back_hint"]))
    title = rules.rulesets[ruleset].title
    return {
        "deck": spec["deck"],
        "game": _short_title(title),
        "game_full": title.split(" (")[0],
        "cards": cards,
        "back_hint": hint,
        "sources": [
            tables[faces["table"]].id,
            *(tables[k].id for k in spec.get("reference") or ()),
        ],
    }


def layout(paper: str) -> dict[str, Any]:
    """Return the card block's place on the page and its crop marks, all in mm."""
    page_w, page_h = PAGE_MM[PAPERS[paper]["name"]]
    card_w, card_h = CARD_MM
    cols, rows = GRID
    left = (page_w - cols * card_w) / 2
    top = (page_h - rows * card_h) / 2
    mark = CROP_MARK_PT * PT_MM
    across = min(CROP_LENGTH_MM, left - CROP_GAP_MM - PRINTER_EDGE_MM)  # marks left and right
    down = min(CROP_LENGTH_MM, top - CROP_GAP_MM - PRINTER_EDGE_MM)  # marks above and below
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
    # the page label goes in the wider margin, beside the middle card, clear of the marks
    if top >= left:
        label = {
            "x": left + card_w + 2,
            "y": PRINTER_EDGE_MM,
            "w": card_w - 4,
            "h": top - PRINTER_EDGE_MM - 1.5,
            "rotate": False,
        }
    else:  # turned a quarter: its box is laid out upright, then rotated about its centre
        width, height = card_h - 6, left - PRINTER_EDGE_MM - 1.5
        centre_x, centre_y = PRINTER_EDGE_MM + height / 2, top + rows * card_h / 2
        label = {
            "x": centre_x - width / 2,
            "y": centre_y - height / 2,
            "w": width,
            "h": height,
            "rotate": True,
        }
    return {
        "page_w": page_w,
        "page_h": page_h,
        "left": left,
        "top": top,
        "card_w": card_w,
        "card_h": card_h,
        "marks": [{k: round(v, 3) for k, v in m.items()} for m in marks],
        "slots": [
            {"x": round(left + c * card_w, 3), "y": round(top + r * card_h, 3)}
            for r in range(rows)
            for c in range(cols)
        ],
        "mark_pt": CROP_MARK_PT,
        "label": {k: round(v, 3) if isinstance(v, float) else v for k, v in label.items()},
    }


def trim_box(paper: str) -> tuple[float, float, float, float]:
    """Return the block of cards, what is left after cutting: (left, top, right, bottom) in
    mm from the paper's top-left corner (the page declares it as its /TrimBox)."""
    page_w, page_h = PAGE_MM[PAPERS[paper]["name"]]
    width, height = CARD_MM[0] * GRID[0], CARD_MM[1] * GRID[1]
    left, top = (page_w - width) / 2, (page_h - height) / 2
    return (left, top, left + width, top + height)


def slot_position(index: int, back: bool) -> tuple[int, int]:
    """Return (column, row) of the card in slot `index` of a page; backs mirror the columns."""
    cols = GRID[0]
    column, row = index % cols, index // cols
    return (cols - 1 - column if back else column), row


def pages(cards: list[dict[str, Any]], geometry: dict[str, Any]) -> list[dict[str, Any]]:
    """Return the pages: faces then their backs, for every nine cards."""
    per_page = GRID[0] * GRID[1]
    sheets = [cards[i : i + per_page] for i in range(0, len(cards), per_page)]
    result: list[dict[str, Any]] = []
    for number, chunk in enumerate(sheets, start=1):
        for back in (False, True):
            slots = []
            for index, card in enumerate(chunk):
                column, row = slot_position(index, back)
                slots.append(
                    {
                        "card": card,
                        "column": column,
                        "row": row,
                        "place": row * GRID[0] + column,
                        "x": round(geometry["left"] + column * geometry["card_w"], 3),
                        "y": round(geometry["top"] + row * geometry["card_h"], 3),
                    }
                )
            result.append({"back": back, "number": number, "of": len(sheets), "slots": slots})
    return result


def context(
    rules: Rules, data: dict[str, Any] | None, paper: str, ruleset: str | None
) -> dict[str, Any]:
    assert ruleset is not None  # render_sheet settles the ruleset before asking
    made = deck(rules, ruleset)
    geometry = layout(paper)
    return {
        **made,
        "ruleset": ruleset,
        "geometry": geometry,
        "pages": pages(made["cards"], geometry),
    }
