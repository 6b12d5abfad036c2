"""Card sheets, drawn with ReportLab: the tactical action deck and the FLoB turn-order deck,
faces and mirrored backs, nine poker cards to a page with cut lines and crop marks, the
deck spread evenly over its sheets; read back with pypdf."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.errors import InputError
from generator.loading import Rules
from generator.render.kinds import cards
from generator.render.sheets import render_sheet
from tests.pdfs import MM, PAGE_SIZES, colours, page_text, read, runs, thin_rects

PAGES = {"tactical": 8, "flob": 2}


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
    assert [back.count("Action deck") for back in backs] == [7, 7, 7, 7]
    assert [back.count("Phase reference") for back in backs] == [0, 0, 0, 2]
    assert faces[3].count(rules.table("tactical.turn-phases").title) == 2
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
    # six turn cards, the two phase cards and one turn-sequence card (one free slot)
    assert back.count("Turn-order deck") == 6 and back.count("Phase reference") == 3
    assert "flob.turn-sequence" not in face


@pytest.mark.parametrize("paper", list(PAGE_SIZES))
@pytest.mark.parametrize("deck", list(PAGES))
def test_crop_marks_are_at_every_cut_and_thick_enough(
    decks: dict[tuple[str, str], PdfReader], deck: str, paper: str
) -> None:
    geometry = cards.layout(paper)
    left, top = geometry["left"] * MM, geometry["top"] * MM
    width, height = geometry["card_w"] * MM * 3, geometry["card_h"] * MM * 3
    columns = [left + i * geometry["card_w"] * MM for i in range(4)]
    rows = [top + j * geometry["card_h"] * MM for j in range(4)]
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
        assert len(outside) == 16  # 4 cuts each way, marked at both ends
        for x, y, w, h in outside:
            assert min(w, h) >= 0.5
            if w < h:  # a vertical cut, marked above or below the block
                assert min(abs(x + w / 2 - c) for c in columns) < 0.1
            else:
                assert min(abs(y + h / 2 - r) for r in rows) < 0.1


@pytest.mark.parametrize("deck", list(PAGES))
def test_text_is_7pt_or_more_and_stays_inside_the_cards(
    decks: dict[tuple[str, str], PdfReader], deck: str
) -> None:
    geometry = cards.layout("letter")
    card_w, card_h = geometry["card_w"] * MM, geometry["card_h"] * MM
    left, top = geometry["left"] * MM, geometry["top"] * MM
    safe = 2 * MM
    for page in decks[deck, "letter"].pages:
        for text, x, y, size in runs(page):
            assert size >= 6.99, (text, size)
            if x < left or y < top:
                continue  # the page label, in the margin (on Letter, turned in the left one)
            column, row = (x - left) / card_w, (y - top) / card_h
            assert 0 <= column < 3 and 0 <= row < 3, (text, x, y)
            inside_x = (x - left) - int(column) * card_w
            inside_y = (y - top) - int(row) * card_h
            assert safe <= inside_x <= card_w - safe and safe <= inside_y <= card_h - safe, text


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
        assert geometry["mark_pt"] >= 0.5
        assert all(min(m["w"], m["h"]) * MM >= 0.5 for m in geometry["marks"])
        assert len(geometry["marks"]) == 16
        right = geometry["left"] + 3 * geometry["card_w"]
        bottom = geometry["top"] + 3 * geometry["card_h"]
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
