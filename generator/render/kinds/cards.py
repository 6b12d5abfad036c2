"""Card decks, poker size, nine to a page: the tactical action deck (tactical.cards) and the
FLoB turn-order deck (flob.turn-sequence, flob.command-phase, flob.action-phases).

The cards of a page touch, so one cut separates two cards; crop marks in the page margin
continue every cut line. Each page of faces is followed by a page of backs laid out as the
faces' mirror image left to right, so that printed double-sided with a flip on the long
edge every back lands behind its own face. The block of cards is centred, which keeps the
mirrored block in place.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from generator.errors import InputError
from generator.loading import Rules
from generator.lookup import cell_text
from generator.render.sheets import PAPERS

CARD_MM = (63.5, 88.9)  # poker size
GRID = (3, 3)  # columns, rows
PAGE_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
CROP_MARK_PT = 0.6  # line width of the crop marks (at least 0.5 pt)
CROP_GAP_MM = 1.0  # space between the card block and a mark
CROP_LENGTH_MM = 6.0  # longest mark; shorter where the margin is narrow
PAPER_EDGE_MM = 0.8  # marks stop this far from the paper's edge
PT_MM = 25.4 / 72
PRINTER_EDGE_MM = 3.5  # the page label keeps this far from the paper's edge

# How a structured field of tactical.cards reads on a card (label, and values by value).
TACTICAL_FIELDS: dict[str, str] = {
    "movement": "Movement roll",
    "boarding": "Boarding action roll",
    "broadside": "Broadside Table roll",
    "ammo": "Ammunition",
    "extra_broadsides": "Extra broadsides",
    "look_at_hand": "Look at hand",
    "when": "When",
    "target": "Played on",
}
TARGETS = {"self": "own ship", "opponent": "opponent"}
SIGNED_FIELDS = {"movement", "boarding", "broadside", "extra_broadsides"}


def _short_title(title: str) -> str:
    """Return a ruleset title without its trailing parenthesis or 'for ...' tail:
    'Form Line of Battle 5.1 (quick reference)', 'Tactical Sea Combat for Ships of ...'."""
    return title.split(" (")[0].split(" for ")[0]


def _field_value(key: str, value: Any) -> str:
    if key == "target":
        return TARGETS.get(str(value), str(value))
    if isinstance(value, bool):
        return "yes" if value else "no"
    if key in SIGNED_FIELDS and isinstance(value, int):
        return f"{value:+d}"
    return str(value).capitalize() if key == "ammo" else str(value)


def _tactical(rules: Rules) -> dict[str, Any]:
    table = rules.table("tactical.cards")
    default_copies = int(table.params["copies_per_card"])
    cards: list[dict[str, Any]] = []
    for name, cell in zip(table.axes[0].labels, table.cells, strict=True):
        fields = cell if isinstance(cell, Mapping) else {}
        copies = int(fields.get("copies", default_copies))
        effect = [
            {
                "label": TACTICAL_FIELDS.get(key, key.replace("_", " ").capitalize()),
                "value": _field_value(key, value),
            }
            for key, value in fields.items()
            if key not in ("result", "copies")
        ]
        for copy in range(1, copies + 1):
            cards.append(
                {
                    "style": "action",
                    "name": name,
                    "text": cell_text(cell),
                    "effect": effect,
                    "copy_of": f"{copy} of {copies}",
                }
            )
    if len(cards) != int(table.params["deck_size"]):
        raise InputError(
            f"tactical.cards: {len(cards)} cards, params say {table.params['deck_size']}"
        )
    ruleset = rules.rulesets["tactical"]
    return {
        "deck": "Action deck",
        "game": _short_title(ruleset.title),
        "game_full": ruleset.title.split(" (")[0],
        "cards": cards,
        "back_hint": [],
        "sources": ["tactical.cards"],
    }


def _sentences(text: str, word: str) -> list[str]:
    """Return the sentences of `text` that mention `word`, as printed."""
    parts = [part.strip() for part in text.replace(". ", ".\n").splitlines()]
    return [part for part in parts if word.casefold() in part.casefold()]


def _flob(rules: Rules) -> dict[str, Any]:
    """Three red and three black cards; the phase steps are too long for a card face at
    7 pt, so the faces carry the rule's own reminder and two reference cards (in the free
    slots of the page, with a back of their own) carry the steps of each phase."""
    sequence = rules.table("flob.turn-sequence")
    rule = " ".join(item.text for item in sequence.items)
    reminder = _sentences(rule, "phase")
    cards: list[dict[str, Any]] = []
    for colour, count in (("red", "red_cards"), ("black", "black_cards")):
        total = int(sequence.params[count])
        for number in range(1, total + 1):
            cards.append(
                {
                    "style": "turn",
                    "name": f"{colour.capitalize()} {number}",
                    "colour": colour,
                    "suit": "heart" if colour == "red" else "spade",
                    "reminder": reminder,
                }
            )
    for table_id in ("flob.command-phase", "flob.action-phases"):
        table = rules.table(table_id)
        cards.append(
            {
                "style": "reference",
                "name": table.title,
                "steps": [item.text for item in table.items],
                "source": table_id,
            }
        )
    ruleset = rules.rulesets["flob"]
    return {
        "deck": "Turn-order deck",
        "game": _short_title(ruleset.title),
        "game_full": ruleset.title.split(" (")[0],
        "cards": cards,
        "back_hint": _sentences(rule, "shuffle"),
        "sources": ["flob.turn-sequence", "flob.command-phase", "flob.action-phases"],
    }


DECKS: dict[str, Callable[[Rules], dict[str, Any]]] = {"tactical": _tactical, "flob": _flob}


def layout(paper: str) -> dict[str, Any]:
    """Return the card block's place on the page and its crop marks, all in mm."""
    page_w, page_h = PAGE_MM[PAPERS[paper]["name"]]
    card_w, card_h = CARD_MM
    cols, rows = GRID
    left = (page_w - cols * card_w) / 2
    top = (page_h - rows * card_h) / 2
    mark = CROP_MARK_PT * PT_MM
    across = min(CROP_LENGTH_MM, left - CROP_GAP_MM - PAPER_EDGE_MM)  # marks left and right
    down = min(CROP_LENGTH_MM, top - CROP_GAP_MM - PAPER_EDGE_MM)  # marks above and below
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
    if ruleset not in DECKS:
        raise InputError(f"--ruleset: the cards sheet has decks for {', '.join(DECKS)}")
    deck = DECKS[ruleset](rules)
    geometry = layout(paper)
    return {
        **deck,
        "ruleset": ruleset,
        "geometry": geometry,
        "pages": pages(deck["cards"], geometry),
    }
