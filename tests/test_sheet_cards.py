"""Card sheets, drawn with ReportLab: the tactical action deck and the FLoB turn-order deck,
faces and mirrored backs, poker cards with cut lines and crop marks (nine upright to an A4
page, eight turned to a Letter page), the deck spread evenly over its sheets; read back
with pypdf, and the black-and-white backs rasterised with PDFium."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from generator.errors import InputError
from generator.loading import Rules
from generator.render import draw
from generator.render.draw import Drawing
from generator.render.kinds import cards
from generator.render.sheets import render_sheet
from generator.render.words import game_name
from tests.pdfs import MM, PAGE_SIZES, colours, page_text, read, runs, thin_rects

PAGES = {"tactical": 8, "flob": 2}


def fills(deck: str, paper: str) -> int:
    """The turn-sequence cards on a deck's last sheet: one a player, in its free slots."""
    geometry = cards.layout(paper)
    slots = geometry["cols"] * geometry["rows"]
    last = {"tactical": 7, "flob": 8}[deck]  # 28 cards 7 a sheet; 6 turn cards, 2 phase cards
    return min(cards.PLAYERS, slots - last)


@pytest.fixture(scope="module")
def decks(rules: Rules) -> dict[tuple[str, str], PdfReader]:
    """Every deck on both papers, in colour (four renders)."""
    return {
        (deck, paper): read(render_sheet("cards", rules, ruleset=deck, paper=paper))
        for deck in PAGES
        for paper in PAGE_SIZES
    }


@pytest.mark.parametrize("paper", list(PAGE_SIZES))
@pytest.mark.parametrize("deck", list(PAGES))
def test_deck_pages_sizes_and_metadata(
    decks: dict[tuple[str, str], PdfReader], deck: str, paper: str
) -> None:
    reader = decks[deck, paper]
    assert len(reader.pages) == PAGES[deck]
    for page in reader.pages:
        box = page.mediabox
        assert (round(float(box.width), 1), round(float(box.height), 1)) == PAGE_SIZES[paper]
    assert not reader.get_fields()
    assert reader.metadata is not None and reader.metadata.title == "Card deck"
    assert reader.metadata.subject and "flipping on the long edge" in reader.metadata.subject


@pytest.mark.parametrize("paper", list(PAGE_SIZES))
def test_every_tactical_card_is_printed_twice(
    rules: Rules, decks: dict[tuple[str, str], PdfReader], paper: str
) -> None:
    reader = decks["tactical", paper]
    faces = [page_text(page) for page in reader.pages[::2]]
    table = rules.table("tactical.cards")
    for name, cell in zip(table.axes[0].labels, table.cells, strict=True):
        assert sum(face.count(name) for face in faces) == 2, name
        assert "".join(cell["result"].split()) in "".join("".join(faces).split())
    assert "Movement roll" in faces[0] and "own ship" in faces[0]
    backs = [page_text(page) for page in reader.pages[1::2]]
    # 28 cards spread 7 a sheet; the last sheet's free slots: a turn-sequence card a player
    # (two on A4's nine slots, one on Letter's eight)
    extra = fills("tactical", paper)
    assert extra == {"a4": 2, "letter": 1}[paper]
    assert [back.count("Action deck") for back in backs] == [7, 7, 7, 7]
    assert [back.count("Phase reference") for back in backs] == [0, 0, 0, extra]
    assert faces[3].count(rules.table("tactical.turn-phases").title) == extra
    # no program ids or copy counts on a player's card
    assert "tactical.cards" not in "".join(faces) and " of 2" not in "".join(faces)


@pytest.mark.parametrize("paper", list(PAGE_SIZES))
def test_flob_turn_cards(rules: Rules, decks: dict[tuple[str, str], PdfReader], paper: str) -> None:
    face, back = (page_text(page) for page in decks["flob", paper].pages)
    assert face.count("RED") >= 3 and face.count("BLACK") >= 3
    assert "Command Phase" in face and "Action Phases" in face
    # the reference cards carry every step of both phases
    flat = "".join(face.split())  # lines break after a slash too
    for table in ("flob.command-phase", "flob.action-phases"):
        for item in rules.table(table).items:
            assert "".join(item.text.split()) in flat, item.text
    # six turn cards, the two phase cards and a turn-sequence card in a free slot (A4's
    # ninth; Letter's eight slots have none)
    assert back.count("Turn-order deck") == 6
    assert back.count("Phase reference") == 2 + fills("flob", paper)
    assert "flob.turn-sequence" not in face


@pytest.mark.parametrize("paper", list(PAGE_SIZES))
@pytest.mark.parametrize("deck", list(PAGES))
def test_crop_marks_are_at_every_cut_and_thick_enough(
    decks: dict[tuple[str, str], PdfReader], deck: str, paper: str
) -> None:
    """Every cut is marked at both ends, by a mark a knife can follow: 3 mm long at least,
    ending 5 mm or more from the paper's edge (Letter's three rows of upright cards left
    marks of 1.7 mm ending 4.2 mm from it)."""
    geometry = cards.layout(paper)
    cols, rows = geometry["cols"], geometry["rows"]
    left, top = geometry["left"] * MM, geometry["top"] * MM
    width, height = geometry["card_w"] * MM * cols, geometry["card_h"] * MM * rows
    page_w, page_h = PAGE_SIZES[paper]
    columns = [left + i * geometry["card_w"] * MM for i in range(cols + 1)]
    lines = [top + j * geometry["card_h"] * MM for j in range(rows + 1)]
    for number, page in enumerate(decks[deck, paper].pages):
        outside = {
            r
            for r in thin_rects(page)
            if r[0] + r[2] <= left + 0.1
            or r[0] >= left + width - 0.1
            or r[1] + r[3] <= top + 0.1
            or r[1] >= top + height - 0.1
        }
        if number % 2:  # a page of backs: cut from the faces, no marks; a bleed instead
            assert outside == set()
            continue
        assert len(outside) == 2 * (cols + 1) + 2 * (rows + 1)  # every cut, at both ends
        for x, y, w, h in outside:
            assert min(w, h) >= 0.5
            assert max(w, h) >= 3 * MM, (x, y, w, h)
            assert min(x, y, page_w - x - w, page_h - y - h) >= 5 * MM - 0.01, (x, y, w, h)
            if w < h:  # a vertical cut, marked above or below the block
                assert min(abs(x + w / 2 - c) for c in columns) < 0.1
            else:
                assert min(abs(y + h / 2 - r) for r in lines) < 0.1


@pytest.mark.parametrize("paper", list(PAGE_SIZES))
def test_page_labels_keep_clear_of_the_marks(rules: Rules, paper: str) -> None:
    """The page's header, with the longest title of any ruleset, stays in its boxes in the
    margin, which no mark comes near; it numbers the pages "Page N of M"."""
    geometry = cards.layout(paper)
    areas = [cards.label_area(label) for label in geometry["labels"]]
    for x0, y0, x1, y1 in areas:
        for mark in geometry["marks"]:
            apart = (
                mark["x"] >= x1 + cards.LABEL_CLEAR_MM - 1e-6
                or mark["x"] + mark["w"] <= x0 - cards.LABEL_CLEAR_MM + 1e-6
                or mark["y"] >= y1 + cards.LABEL_CLEAR_MM - 1e-6
                or mark["y"] + mark["h"] <= y0 - cards.LABEL_CLEAR_MM + 1e-6
            )
            assert apart, mark
        assert min(x0, y0) >= cards.PRINTER_EDGE_MM - 1e-6
    longest = max((game_name(r) for r in rules.rulesets.values()), key=len)
    context = cards.context(rules, None, paper, "tactical")
    context["game"] = longest
    drawing = Drawing(paper, title="Card deck", subject="test", mono=False)
    cards.draw(drawing, context, boxes={}, fillable=False, field_prefix="")
    reader = read(drawing.finish())
    block = cards.trim_box(paper)
    for number, page in enumerate(reader.pages, start=1):
        label = [
            run
            for run in runs(page)
            if not (
                block[0] * MM <= run.x <= block[2] * MM and block[1] * MM <= run.y <= block[3] * MM
            )
        ]
        assert label, number
        for run in label:  # a baseline's start, within a box turned or not
            assert any(
                x0 * MM - 0.5 <= run.x <= x1 * MM + 0.5 and y0 * MM - 0.5 <= run.y <= y1 * MM + 0.5
                for x0, y0, x1, y1 in areas
            ), run
        # the page number in one run: on one line, never broken apart
        assert f"Page {number} of {len(reader.pages)}" in {
            run.text.split(" · ")[-1] for run in label
        }
        text = " ".join(run.text for run in label)
        assert ("backs of page" in text.lower()) == (number % 2 == 0)


def header_boxes(
    context: dict[str, Any], page: dict[str, Any], geometry: dict[str, Any]
) -> list[tuple[float, float, float, float]]:
    """Where the header's lines of text lie on the page, from the drawing's own geometry:
    (left, top, right, bottom) in mm, each line's box as high as its leading."""
    found = []
    for label, fitted in cards.header(context, page, geometry):
        top = label["y"] + label["h"] - fitted.height_mm
        # the box laid out upright, then (on Letter) turned about the label's centre
        x0, y0, x1, y1 = label["x"], top, label["x"] + label["w"], label["y"] + label["h"]
        if label["rotate"]:
            cx, cy = label["x"] + label["w"] / 2, label["y"] + label["h"] / 2
            x0, y0, x1, y1 = cx - (cy - y0), cy - (cx - x0), cx + (y1 - cy), cy + (x1 - cx)
            x0, x1 = sorted((x0, x1))
            y0, y1 = sorted((y0, y1))
        found.append((x0, y0, x1, y1))
    return found


@pytest.mark.parametrize("mono", [False, True])
@pytest.mark.parametrize("paper", list(PAGE_SIZES))
@pytest.mark.parametrize("deck", list(PAGES))
def test_the_header_keeps_off_the_cards_and_its_page_number_whole(
    rules: Rules, deck: str, paper: str, mono: bool
) -> None:
    """On A4 the header wrapped to three lines and "2 of 2" went under the backs' colour,
    which runs past the cut (the bleed); and "Page" and "1 of 2" went on lines apart."""
    context = cards.context(rules, None, paper, deck)
    geometry = context["geometry"]
    left, top, right, bottom = cards.trim_box(paper)
    bleed = cards.BLEED_MM
    cut = (left - bleed, top - bleed, right + bleed, bottom + bleed)
    for page in context["pages"]:
        for x0, y0, x1, y1 in header_boxes(context, page, geometry):
            apart = x1 <= cut[0] or x0 >= cut[2] or y1 <= cut[1] or y0 >= cut[3]
            assert apart, (page["number"], page["back"], (x0, y0, x1, y1))
    drawing = Drawing(paper, title="Card deck", subject="test", mono=mono)
    cards.draw(drawing, context, boxes={}, fillable=False, field_prefix="")
    reader = read(drawing.finish())
    total = len(reader.pages)
    assert total == PAGES[deck]
    for number, page in enumerate(reader.pages, start=1):
        texts = [run.text for run in runs(page)]
        whole = [t for t in texts if f"Page {number} of {total}" in t]
        assert len(whole) == 1, (number, [t for t in texts if "Page" in t or " of " in t])


@pytest.mark.parametrize("paper", list(PAGE_SIZES))
@pytest.mark.parametrize("deck", list(PAGES))
def test_text_is_7pt_or_more_and_stays_inside_the_cards(
    decks: dict[tuple[str, str], PdfReader], deck: str, paper: str
) -> None:
    geometry = cards.layout(paper)
    card_w, card_h = geometry["card_w"] * MM, geometry["card_h"] * MM
    left, top = geometry["left"] * MM, geometry["top"] * MM
    safe = 2 * MM
    for page in decks[deck, paper].pages:
        for text, x, y, size in runs(page):
            assert size >= 6.99, (text, size)
            if x < left or y < top:
                continue  # the page label, in the margin (on Letter, turned in the left one)
            column, row = (x - left) / card_w, (y - top) / card_h
            assert 0 <= column < geometry["cols"] and 0 <= row < geometry["rows"], (text, x, y)
            inside_x = (x - left) - int(column) * card_w
            inside_y = (y - top) - int(row) * card_h
            assert safe <= inside_x <= card_w - safe and safe <= inside_y <= card_h - safe, text


@pytest.mark.parametrize("paper", list(PAGE_SIZES))
def test_mono_backs_carry_ink(rules: Rules, paper: str) -> None:
    """In black and white every back is a grey lattice, not bare paper that shows a held
    hand through: a good share of each back's area is inked, and so is its middle."""
    import pypdfium2 as pdfium  # type: ignore[import-untyped]

    pdf = pdfium.PdfDocument(render_sheet("cards", rules, ruleset="flob", paper=paper, mono=True))
    scale = 72 / 25.4 * 2  # px per mm at 144 dpi
    grey = pdf[1].render(scale=2, grayscale=True).to_pil()
    geometry = cards.layout(paper)
    assert len(geometry["slots"]) >= 8
    for slot in geometry["slots"][:8]:  # the deck's eight cards fill eight slots
        box = [
            round(v * scale)
            for v in (
                slot["x"] + 1,
                slot["y"] + 1,
                slot["x"] + geometry["card_w"] - 1,
                slot["y"] + geometry["card_h"] - 1,
            )
        ]
        area = grey.crop(box)
        pixels = list(area.get_flattened_data())
        inked = sum(1 for level in pixels if level < 200) / len(pixels)
        assert 0.05 <= inked <= 0.5, (slot, inked)  # a light grey, no solid black


def test_backs_land_behind_their_faces(decks: dict[tuple[str, str], PdfReader]) -> None:
    """The last tactical sheet's turn-sequence cards stand in its last row, middle and
    right; their backs in the last row, middle and left."""
    reader = decks["tactical", "a4"]
    width = float(reader.pages[0].mediabox.width)
    height = float(reader.pages[0].mediabox.height)
    face = [(x, y) for text, x, y, _ in runs(reader.pages[6]) if text.startswith("Each turn")]
    back = [(x, y) for text, x, y, _ in runs(reader.pages[7]) if text == "Phase reference"]
    assert len(face) == len(back) == 2
    assert all(y > 2 * height / 3 for _, y in face + back)
    assert sorted(x > width / 3 for x, _ in face) == [True, True]
    assert sorted(x < 2 * width / 3 for x, _ in back) == [True, True]


def test_turned_backs_land_behind_their_faces_the_right_way_up(
    decks: dict[tuple[str, str], PdfReader],
) -> None:
    """On Letter the cards lie turned: the last sheet's turn-sequence card lies in the last
    row on the right, its back in the last row on the left. A face's top is to the left
    and a back's to the right, so that the card turned over side to side shows its back
    the right way up."""
    reader = decks["tactical", "letter"]
    geometry = cards.layout("letter")
    middle = (geometry["left"] + geometry["card_w"]) * MM
    last_row = (geometry["top"] + 3 * geometry["card_h"]) * MM
    face = {text: (x, y) for text, x, y, _ in runs(reader.pages[6]) if y > last_row}
    title, step = face["Each turn has 5 Phases"], face["Draw Phase"]
    assert title[0] > middle and step[0] > middle
    assert title[0] < step[0]  # the card's top, where its title is, to the left
    back = [(text, x, y) for text, x, y, _ in runs(reader.pages[7])]
    (name,) = [(x, y) for text, x, y in back if text == "Phase reference"]
    assert name[0] < middle and name[1] > last_row
    # the game's name, over the deck's on the card: to its right, the card's top
    game = min((x for text, x, _ in back if "of the Line" in text), key=lambda x: abs(x - name[0]))
    assert name[0] < game < middle


@pytest.mark.parametrize("deck", list(PAGES))
def test_mono_is_black_and_white(rules: Rules, deck: str) -> None:
    reader = read(render_sheet("cards", rules, ruleset=deck, paper="a4", mono=True))
    assert len(reader.pages) == PAGES[deck]
    assert colours(reader) <= {(0.0, 0.0, 0.0), (1.0, 1.0, 1.0), (0.0,), (1.0,)}
    if deck == "flob":  # red cards: the word and an outline heart, never a red fill
        assert "RED" in page_text(reader.pages[0])


def test_layout_marks_and_mirrored_slots() -> None:
    for paper in PAGE_SIZES:
        geometry = cards.layout(paper)
        cols, rows = geometry["cols"], geometry["rows"]
        assert geometry["mark_pt"] >= 0.5
        assert all(min(m["w"], m["h"]) * MM >= 0.5 for m in geometry["marks"])
        assert all(max(m["w"], m["h"]) >= cards.MIN_MARK_MM for m in geometry["marks"])
        assert len(geometry["marks"]) == 2 * (cols + 1) + 2 * (rows + 1)
        right = geometry["left"] + cols * geometry["card_w"]
        bottom = geometry["top"] + rows * geometry["card_h"]
        for m in geometry["marks"]:
            assert m["x"] >= 0 and m["y"] >= 0
            assert m["x"] + m["w"] <= geometry["page_w"] and m["y"] + m["h"] <= geometry["page_h"]
            beside = m["x"] + m["w"] <= geometry["left"] or m["x"] >= right
            assert beside or m["y"] + m["h"] <= geometry["top"] or m["y"] >= bottom
        # centred, so the mirrored block of backs lies where the faces are
        assert abs(geometry["left"] - (geometry["page_w"] - right)) < 1e-6
    assert [cards.slot_position(i, back=True) for i in range(9)] == [
        (2 - column, row) for row in range(3) for column in range(3)
    ]
    assert [cards.slot_position(i, back=True, columns=2) for i in range(8)] == [
        (1 - column, row) for row in range(4) for column in range(2)
    ]
    # poker cards stand upright on A4, and lie turned on Letter, which is too short
    assert cards.layout("a4")["card_w"] == cards.layout("letter")["card_h"] == 63.5
    assert (cards.layout("a4")["turned"], cards.layout("letter")["turned"]) == (False, True)


def test_back_pages_mirror_the_face_pages(rules: Rules) -> None:
    deck = cards.deck(rules, "tactical")
    pages = cards.pages(deck["cards"], cards.layout("a4"), deck["fill"])
    assert [(p["back"], len(p["slots"])) for p in pages] == [
        (False, 7), (True, 7), (False, 7), (True, 7), (False, 7), (True, 7), (False, 9), (True, 9)
    ]  # fmt: skip
    for face, back in zip(pages[::2], pages[1::2], strict=True):
        assert [s["card"] for s in face["slots"]] == [s["card"] for s in back["slots"]]
        for f, b in zip(face["slots"], back["slots"], strict=True):
            assert (b["column"], b["row"]) == (2 - f["column"], f["row"])


def test_a_deck_is_spread_evenly_never_a_lone_card() -> None:
    assert cards.spread(28, 9) == [7, 7, 7, 7]
    assert cards.spread(8, 9) == [8]
    assert cards.spread(10, 9) == [5, 5]
    assert cards.spread(19, 9) == [7, 6, 6]
    assert cards.spread(0, 9) == []
    for count in range(1, 60):
        sizes = cards.spread(count, 9)
        assert sum(sizes) == count and max(sizes) - min(sizes) <= 1 and max(sizes) <= 9
        assert len(sizes) == -(-count // 9)


def test_card_options_that_do_not_apply_are_refused(rules: Rules) -> None:
    with pytest.raises(InputError, match=r"--ruleset: the cards sheet serves tactical, flob"):
        render_sheet("cards", rules)
    with pytest.raises(InputError, match=r"--fillable: the cards sheet has no write-in fields"):
        render_sheet("cards", rules, ruleset="flob", fillable=True)
    with pytest.raises(InputError, match=r"--ruleset: the cards sheet serves tactical, flob"):
        cards.context(rules, None, "a4", "convoy")


def test_cards_command_writes_the_deck(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from generator.cli import main

    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as caught:
        main(["sheet", "cards", "--ruleset", "flob", "--paper", "letter"])
    assert caught.value.code == 0
    written = tmp_path / "output" / "cards-flob-letter.pdf"
    assert len(read(written.read_bytes()).pages) == 2


def test_page_label_is_the_one_numbering_style() -> None:
    """Every kind numbers its pages "Page N of M", a page's own name first where it has one
    (generator/render/pagenumbers.py; the quick reference's footer says the same)."""
    from generator.render.pagenumbers import CSS_PAGE_LABEL, page_label

    assert page_label(3, 8) == "Page 3 of 8"
    assert page_label(1, 8, "A1") == "A1 · Page 1 of 8"
    assert page_label(1, 1, "") == "Page 1 of 1"
    assert CSS_PAGE_LABEL == '"Page " counter(page) " of " counter(pages)'
    with pytest.raises(ValueError, match=r"page 9 of 8: the page number must be from 1 to 8"):
        page_label(9, 8)
    with pytest.raises(ValueError, match=r"page 0 of 2"):
        page_label(0, 2)


def test_the_cache_key_follows_the_card_painting(monkeypatch: pytest.MonkeyPatch) -> None:
    """The blank deck's cached PDF is keyed by the code that draws it: the faces and backs
    as much as the package's own module."""
    kind = "generator.render.kinds.cards"
    assert f"{kind}.faces" in draw.drawing_modules(kind)
    before = draw.source_fingerprint(kind)
    source = draw.module_source
    monkeypatch.setattr(
        draw, "module_source", lambda name: source(name) + b"#" * (name == f"{kind}.faces")
    )
    assert draw.source_fingerprint(kind) != before
