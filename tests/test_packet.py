"""Game-night packets: contents, bookmarks, imposition for double-sided printing, the cover's
printing notes, metadata, same bytes, handouts."""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfWriter

from generator.generate.base import get_generator
from generator.generate.scenario import dump
from generator.loading import Rules
from generator.pdf.packet import BLANK, Part, Sheet, build_packet, impose, printing_notes
from generator.render.paper import PAPERS
from generator.render.sheets import sheet_kinds
from generator.rulesets import ruleset_ids
from tests.fullest import fillable_packet, fullest_packet, packet_scenario, packet_scenario_told
from tests.pdfs import PAGE_SIZES, outline, page_text, read, widgets


def unit_names(scenario: dict[str, Any], side: int | None = None) -> list[str]:
    units = get_generator(scenario["ruleset"]).units
    sides = scenario["sides"] if side is None else [scenario["sides"][side]]
    return [unit["name"] for s in sides for unit in s[units]]


@pytest.fixture(scope="module", params=list(ruleset_ids()))
def made(request: pytest.FixtureRequest, rules: Rules) -> tuple[dict[str, Any], bytes]:
    """The packet the print check reads too (the longest title and names), on Letter."""
    return packet_scenario(rules, request.param), fullest_packet(rules, request.param, "letter")


def test_packet_contents_bookmarks_and_metadata(made: tuple[dict[str, Any], bytes]) -> None:
    scenario, pdf = made
    reader = read(pdf)
    # each side's units are printed in its own section (its roster and logs): only those
    # pages are read (the map, cards, quick reference and notes cost as much to read again)
    spans = {title: (first, last) for title, first, last in sections(reader)}
    for index, side in enumerate(scenario["sides"]):
        first, last = spans[side["name"]]
        section = (reader.pages[number - 1] for number in range(first, last + 1))
        text = " ".join(page_text(page) for page in section).replace("\n", " ")
        for name in unit_names(scenario, index):
            assert name in text, name
    marks = outline(reader)
    top = [title for depth, title, _ in marks if depth == 0]
    assert top[0] == scenario["title"]
    for side in scenario["sides"]:
        assert side["name"] in top
    assert any("Quick reference" in title for title in top)
    if scenario["ruleset"] != "duel":
        ship_marks = {title for depth, title, _ in marks if depth == 2}
        assert set(unit_names(scenario)) <= ship_marks, "every ship has a bookmark under its log"
    assert all(
        tuple(round(float(v), 1) for v in (p.mediabox.width, p.mediabox.height))
        == PAGE_SIZES["letter"]
        for p in reader.pages
    )
    assert reader.metadata is not None
    assert reader.metadata.title == f"Game-night packet — {scenario['title']}"
    assert f"seed {scenario['seed']}" in str(reader.metadata.subject)
    # read aloud as English; opened with the bookmarks showing
    assert reader.root_object.get("/Lang") == "en"
    assert reader.root_object.get("/PageMode") == "/UseOutlines"


def sections(reader: Any) -> list[tuple[str, int, int]]:
    """The packet's sections (its top bookmarks): title, first and last page (from 1)."""
    tops = [(title, page) for depth, title, page in outline(reader) if depth == 0]
    ends = [page - 1 for _, page in tops[1:]] + [len(reader.pages)]
    return [(title, first, last) for (title, first), last in zip(tops, ends, strict=True)]


def is_blank(page: Any) -> bool:
    contents = page.get_contents()
    return contents is None or not contents.get_data().strip()


def imposition_problems(pdf: bytes) -> list[str]:
    """What would go wrong printing `pdf` double-sided: a section that does not start on a
    sheet of its own (an odd page), a page of a kind cut out or laid side by side (map tiles,
    counters) with anything on its back."""
    reader = read(pdf)
    blank = [is_blank(page) for page in reader.pages]
    backed = {kind.title for kind in sheet_kinds().values() if kind.blank_backs}
    found: list[str] = []
    for title, first, last in sections(reader):
        if first % 2 == 0:
            found.append(
                f"{title} starts on page {first}: it shares a sheet with the section before"
            )
        if blank[first - 1]:
            found.append(f"{title} starts on a blank page ({first})")
        if title in backed:
            for page in range(first, last + 1):
                if page % 2 == 0 and not blank[page - 1]:
                    found.append(f"{title}: page {page} is printed on the back of page {page - 1}")
                if page % 2 == 1 and blank[page - 1]:
                    found.append(f"{title}: page {page} is blank")
            if last % 2 == 1:
                found.append(f"{title}: its last page ({last}) has no blank back")
    return found


def cover_text(reader: Any) -> str:
    first_section_after_cover = sections(reader)[1][1]
    text = " ".join(page_text(reader.pages[i]) for i in range(first_section_after_cover - 1))
    return re.sub(r"\s+", " ", text)


def printing_problems(pdf: bytes) -> list[str]:
    """Where the cover's printing notes disagree with the PDF: its page count, the pages of
    the map, counters and cards, the pages to hand each side."""
    reader = read(pdf)
    text = cover_text(reader)
    found: list[str] = []
    if "Printing this packet" not in text:
        return ["the cover has no printing notes"]
    if f"This packet is {len(reader.pages)} pages" not in text:
        found.append(f"the cover does not say the packet is {len(reader.pages)} pages")
    spans = {title: (first, last) for title, first, last in sections(reader)}
    blank = [is_blank(page) for page in reader.pages]
    for kind in sheet_kinds().values():
        if kind.printing and kind.title in spans:
            first, last = spans[kind.title]
            if f"{kind.title} ({pages(first, last)})" not in text:
                found.append(f"the cover does not give {kind.title} as {pages(first, last)}")
    sides = [title for title in spans if title not in {k.title for k in sheet_kinds().values()}]
    for title in sides[1:]:
        first, last = spans[title]
        while blank[last - 1]:
            last -= 1
        if title.startswith("Spare") or "Hand out:" not in text:
            continue
        if f"{title}, {pages(first, last)}" not in text:
            found.append(f"the cover does not hand out {title} as {pages(first, last)}")
    return found


def pages(first: int, last: int) -> str:
    return f"page {first}" if first == last else f"pages {first}–{last}"


@pytest.mark.parametrize("paper", list(PAPERS))
@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_every_packet_is_imposed_for_double_sided_printing(
    rules: Rules, ruleset: str, paper: str
) -> None:
    pdf = fullest_packet(rules, ruleset, paper)
    assert imposition_problems(pdf) == []
    assert printing_problems(pdf) == []
    scenario = packet_scenario(rules, ruleset)
    titles = [title for title, _, _ in sections(read(pdf))]
    for side in scenario["sides"]:
        assert side["name"] in titles


def test_the_cover_says_how_to_print_the_map_and_counters(rules: Rules) -> None:
    text = cover_text(read(fullest_packet(rules, "tactical", "a4")))
    assert "double-sided, flipping on the long edge" in text
    assert re.search(r"print pages [\d–, and]+ double-sided and only the odd pages", text)
    assert "cut the counters and markers out" in text
    assert "Hand out: " in text


def test_the_checks_find_a_packet_printed_as_it_was_before(rules: Rules) -> None:
    """The imposition check fails the packet the issue describes: blank backs removed, a
    section on the back of another's page."""
    import io

    from pypdf import PdfWriter

    reader = read(fullest_packet(rules, "tactical", "a4"))
    writer = PdfWriter()
    for page in reader.pages:
        if not is_blank(page):
            writer.add_page(page)
    for depth, title, page in outline(reader):
        if depth == 0:
            kept = sum(1 for i in range(page - 1) if not is_blank(reader.pages[i]))
            writer.add_outline_item(title=title, page_number=kept)
    out = io.BytesIO()
    writer.write(out)
    found = imposition_problems(out.getvalue())
    assert any("is printed on the back of" in problem for problem in found)
    assert any("shares a sheet with the section before" in problem for problem in found)


def sheet(count: int, blank_backs: bool = False) -> Sheet:
    return Sheet(drawn=range(count), kind="roster", blank_backs=blank_backs)


def test_impose_puts_sections_and_two_sided_sheets_on_sheets_of_their_own() -> None:
    cover = Part("Briefing", None, [sheet(1)])
    side = Part("Side", 0, [sheet(1), sheet(2), sheet(1), sheet(1), sheet(3)])
    tiles = Part("Map", None, [sheet(3, blank_backs=True)])
    deck = Part("Cards", None, [sheet(4)])
    order = impose([cover, side, tiles, deck])
    pages: list[str] = []
    for placed in order:
        pages += ["blank"] if placed is BLANK else [str(id(placed))] * placed.pages
    starts = {}
    page = 1
    for placed in order:
        starts.setdefault(id(placed), page)
        page += placed.pages
    assert starts[id(side.sheets[0])] == 3  # a section starts on an odd page
    assert starts[id(side.sheets[1])] == 5  # a two-page sheet is one sheet of paper
    assert starts[id(side.sheets[2])] == 7
    assert starts[id(side.sheets[3])] == 8  # one-page sheets of a section share paper
    assert starts[id(side.sheets[4])] == 9
    assert starts[id(tiles.sheets[0])] == 13
    assert starts[id(deck.sheets[0])] == 19  # after 3 tiles and their 3 blank backs
    assert page - 1 == 22


def test_printing_notes_list_the_single_sided_pages() -> None:
    notes = printing_notes(
        Part("Briefing", None, [sheet(1)]),
        [
            Part("Side A", 0, [sheet(2)]),
            Part("Side B", 1, [sheet(1)]),
            Part("Map", None, [Sheet(drawn=range(5), kind="map", blank_backs=True)]),
            Part("Counters", None, [Sheet(drawn=range(1), kind="counters", blank_backs=True)]),
        ],
        "letter",
    )
    lines = notes["lines"]
    assert notes["pages"] == 18
    assert lines[0].startswith("This packet is 18 pages of Letter.")
    assert (
        "print pages 1–6 double-sided and only the odd pages from 7 to 17 single-sided" in lines[1]
    )
    assert any(line.startswith("Scenario map (pages 7–16): trim each page") for line in lines)
    assert any(line.startswith("Ship counters (pages 17–18): cut") for line in lines)
    assert lines[-1] == "Hand out: Side A, pages 3–4; Side B, page 5."


def test_handouts_hold_only_their_side(rules: Rules) -> None:
    # the scenario of the packet the print check reads: its sheets are laid out already
    scenario = packet_scenario_told(rules, "tactical")
    steps: list[str] = []
    packet = build_packet(rules, scenario, progress=steps.append)
    # what a terminal is told while the packet is laid out: each side's sheets, then the
    # sections for the table, the GM's notes last
    first = scenario["sides"][0]["name"]
    assert steps[:2] == [f"{first}: Roster", f"{first}: Ship's log"]
    assert steps[-1] == "Notes for the GM" and len(steps) == len(set(steps))
    for index in range(2):
        pdf = packet.write(sides={index})
        reader = read(pdf)
        text = " ".join(page_text(page) for page in reader.pages).replace("\n", " ")
        for name in unit_names(scenario, index):
            assert name in text
        other = scenario["sides"][1 - index]["name"]
        assert other not in [title for _, title, _ in outline(reader)]
        # the handout is imposed, and its cover tells how to print the handout itself
        assert imposition_problems(pdf) == []
        assert printing_problems(pdf) == []
        assert "Hand out:" not in cover_text(reader)
        # only what the side's players need: the briefing, their roster and logs, the
        # quick reference (not the map, counters, cards, spares or the Notes for the GM)
        top = [title for depth, title, _ in outline(reader) if depth == 0]
        assert top == [scenario["title"], scenario["sides"][index]["name"], "Quick reference"]
        assert reader.metadata is not None
        side = scenario["sides"][index]["name"]
        assert reader.metadata.title == f"Handout for {side} — {scenario['title']}"
        assert reader.root_object.get("/Lang") == "en"
    whole = read(packet.write())
    assert sections(whole)[-1][0] == "Notes for the GM"


def test_same_bytes_with_and_without_the_cache_in_other_processes_and_hash_seeds(
    rules: Rules, tmp_path: Path
) -> None:
    """The packet made in a test process with the cache, and from its scenario file by the
    command line in other processes, one without the cache, under other hash seeds."""
    cached = fullest_packet(rules, "tactical", "a4")
    source = tmp_path / "scenario.yaml"
    source.write_text(dump(packet_scenario(rules, "tactical"), "yaml"), encoding="utf-8")
    for hash_seed, cache in (("0", "off"), ("4242", os.environ["QM_CACHE_DIR"])):
        target = tmp_path / f"p{hash_seed}.pdf"
        subprocess.run(
            [sys.executable, "-m", "generator", "packet", "--from", source, "-o", target],
            check=True,
            capture_output=True,
            env={**os.environ, "PYTHONHASHSEED": hash_seed, "QM_CACHE_DIR": cache},
        )
        assert hashlib.sha256(target.read_bytes()).digest() == hashlib.sha256(cached).digest()


def test_packet_with_no_options_lands_in_output(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "generator", "packet"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    seed = proc.stderr.strip().split()[-1]
    written = tmp_path / "output" / f"packet-tactical-{seed}.pdf"
    assert written.is_file()
    assert proc.stdout.strip() == f"wrote {Path('output') / written.name}"
    # a packet rolled as it is says its seed rolls it again (the printing notes the packet
    # adds to its cover are not the scenario)
    cover = " ".join(page_text(read(written.read_bytes()).pages[0]).split())
    assert f"{seed} (the same seed rolls the same scenario)" in cover


def test_a_fillable_packet_gives_every_sheet_fields_of_its_own(rules: Rules) -> None:
    """A PDF reader fills every field of one name at once: the officers' sheets of a
    high-seas packet (the same kind many times) must not share fields."""
    scenario = packet_scenario(rules, "high-seas")
    pdf = fillable_packet(rules, "high-seas")
    reader = read(pdf)
    names = [widget.name for widget in widgets(reader)]
    officers = sum(len(ship["officers"]) for side in scenario["sides"] for ship in side["ships"])
    assert officers > 1
    assert len(names) > 100
    # one field a widget, but for the buttons of a radio group (one choice: a parry guess)
    fields = reader.get_fields() or {}
    radio = {name for name, field in fields.items() if int(field.get("/Ff", 0)) & 1 << 15}
    single = [name for name in names if name not in radio]
    assert len(single) == len(set(single))
    assert len(fields) == len(set(names))
    # every font a field types in is in the form's resources, embedded: pypdf kept only the
    # first form's (the character sheets'), so the logs' fields named a font it had not
    form = reader.root_object["/AcroForm"].get_object()
    resources = form["/DR"].get_object()["/Font"].get_object()
    typed = {
        str(field["/DA"]).split(" Tf")[0].split()[-2]
        for page in reader.pages
        for field in (annotation.get_object() for annotation in page.get("/Annots") or [])
        if field.get("/FT") == "/Tx"
    }
    assert len(typed) > 1, "the drawn logs' font and the laid-out sheets'"
    for name in typed:
        descriptor = resources[name].get_object()
        if descriptor.get("/Subtype") == "/Type0":
            descriptor = descriptor["/DescendantFonts"][0].get_object()
        assert "/FontFile2" in descriptor["/FontDescriptor"].get_object(), name
    # filled with pypdf, a value shows in its field alone: keeping one of identical objects
    # had made the empty fields of a size share one appearance, which pypdf writes into
    writer = PdfWriter(clone_from=read(pdf))
    chosen: dict[str, tuple[int, str]] = {}  # a field of each font: a log's, a sheet's
    empty = {}
    for page, field in text_fields(writer):
        chosen.setdefault(str(field["/DA"]).split(" Tf")[0].split()[-2], (page, str(field["/T"])))
        empty[str(field["/T"])] = field["/AP"]["/N"].get_object().get_data()
    for number, (page, name) in enumerate(chosen.values()):
        values = {name: f"Filled {number}"}
        writer.update_page_form_field_values(writer.pages[page], values, auto_regenerate=False)
    showing = {
        str(field["/T"])
        for _page, field in text_fields(writer)
        if field["/AP"]["/N"].get_object().get_data() != empty[str(field["/T"])]
    }
    assert showing == {name for _page, name in chosen.values()}


def text_fields(writer: PdfWriter) -> list[tuple[int, Any]]:
    """The text fields' widgets of `writer`, with their page index."""
    return [
        (index, annotation.get_object())
        for index, page in enumerate(writer.pages)
        for annotation in page.get("/Annots") or []
        if annotation.get_object().get("/FT") == "/Tx"
    ]
