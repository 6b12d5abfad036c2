"""Game-night packets: every sheet a scenario needs, in one bookmarked PDF.

Sections come from the ruleset's spec (specs/, `generator.rulesets.PACKET_SECTIONS`). The
sheets about the scenario (briefing, rosters, logs, map ...) are laid out by WeasyPrint and
written in one go; static sheets (quick references, cards, spares) are finished PDFs made
once and cached (`static_sheet_pdf`), spliced in with pypdf. Blank pages are put in so that
each side's part starts on an odd page, and the outline is built here: sections at level 1,
a side's sheets at level 2, ships and people at the level below.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from generator import __version__
from generator.errors import InputError
from generator.generate.base import get_generator
from generator.loading import Rules
from generator.render.draw import Drawing
from generator.render.sheets import (
    PAPERS,
    draw_sheet,
    get_kind,
    layout_sheet,
    sheet_kinds,
    static_sheet_pdf,
)
from generator.rulesets import SpecError, get_spec


def packet_plan(ruleset: str) -> Mapping[str, tuple[str, ...]]:
    """Return the packet sections of `ruleset`, from its spec (every kind checked)."""
    spec = get_spec(ruleset)
    for section, kinds in spec.packet.items():
        for index, kind in enumerate(kinds):
            if kind not in sheet_kinds():
                raise SpecError(
                    f"{spec.doc.path}:{spec.doc.line(('packet', section, index))}: "
                    f"unknown sheet kind '{kind}'"
                )
    return spec.packet


@dataclass
class Sheet:
    """One sheet of a packet: laid-out pages (a sheet about the scenario) or the finished
    PDF of a static sheet (quick reference, cards, a spare), with its outline entry."""

    document: Any | None = None
    pdf: bytes | None = None
    marks: tuple[tuple[str, int], ...] = ()
    drawn: range | None = None  # its pages in the packet's drawing (the drawn sheets)


@dataclass
class Part:
    """A run of sheets of the packet: the cover, one side's sheets, or a shared sheet."""

    title: str
    side: int | None
    sheets: list[Sheet] = field(default_factory=list)


BLANK = Sheet()


@dataclass
class Packet:
    """A laid-out packet: its parts in order, ready to be written whole or per side."""

    scenario: dict[str, Any]
    parts: list[Part]
    paper: str
    fillable: bool
    title: str
    subject: str
    drawing: bytes | None = None  # every drawn sheet of the packet, on one canvas
    drawn_marks: tuple[Any, ...] = ()  # their outline entries (generator.render.draw.Mark)

    def sheets(self, sides: set[int] | None = None) -> list[Sheet]:
        """Return the sheets in order, with blanks so each side's part starts on an odd page.

        Args:
            sides: only the parts of these sides (plus the cover and shared sheets).
        """
        out: list[Sheet] = []
        pages = 0
        for part in self.parts:
            if part.side is not None and sides is not None and part.side not in sides:
                continue
            if part.side is not None and pages % 2 == 1:
                out.append(BLANK)
                pages += 1
            for sheet in part.sheets:
                out.append(sheet)
                pages += _page_count(sheet)
        return out

    def page_count(self, sides: set[int] | None = None) -> int:
        """Return the number of pages `write(sides)` makes."""
        return sum(_page_count(sheet) for sheet in self.sheets(sides))

    def write(self, sides: set[int] | None = None) -> bytes:
        """Write the packet (or one side's handout) as PDF bytes.

        The scenario's sheets are written by WeasyPrint in one go; static sheets are
        spliced in from their finished PDFs, blank pages are added, and the outline and
        metadata are set here, so the bytes do not depend on whether static sheets came
        from the cache.
        """
        from pypdf import PdfReader, PdfWriter
        from pypdf.generic import Fit

        from generator.render.pdf import write_pdf

        order = self.sheets(sides)
        documents = [sheet.document for sheet in order if sheet.document is not None]
        laid = (
            PdfReader(io.BytesIO(write_pdf(documents, fillable=self.fillable)))
            if documents
            else None
        )
        drawn = PdfReader(io.BytesIO(self.drawing)) if self.drawing else None
        writer = PdfWriter()
        next_page = 0
        marks: list[tuple[int, str, int, float, float]] = []
        for sheet in order:
            start = len(writer.pages)
            if sheet is BLANK:
                box = writer.pages[-1].mediabox
                writer.add_blank_page(float(box.width), float(box.height))
            elif sheet.drawn is not None:
                assert drawn is not None
                writer.append(drawn, pages=list(sheet.drawn), import_outline=False)
                for mark in self.drawn_marks:
                    if mark.page in sheet.drawn:
                        page = start + mark.page - sheet.drawn.start
                        marks.append((mark.level, mark.label, page, 0.0, mark.top_pt))
            elif sheet.document is not None:
                assert laid is not None
                count = len(sheet.document.pages)
                writer.append(
                    laid, pages=list(range(next_page, next_page + count)), import_outline=False
                )
                next_page += count
                height = float(writer.pages[start].mediabox.height)
                for offset, page in enumerate(sheet.document.pages):
                    for level, label, (x, y), _state in page.bookmarks:
                        marks.append((level, label, start + offset, x * 0.75, height - y * 0.75))
            else:
                assert sheet.pdf is not None
                writer.append(PdfReader(io.BytesIO(sheet.pdf)), import_outline=False)
                height = float(writer.pages[start].mediabox.height)
                marks += [(level, label, start, 0.0, height) for label, level in sheet.marks]
        parents: list[tuple[int, Any]] = []
        for level, label, page, left, top in marks:
            while parents and parents[-1][0] >= level:
                parents.pop()
            item = writer.add_outline_item(
                title=label,
                page_number=page,
                parent=parents[-1][1] if parents else None,
                fit=Fit.xyz(left, top, 0),
            )
            parents.append((level, item))
        writer.add_metadata(
            {
                "/Title": self.title,
                "/Subject": self.subject,
                "/Creator": "Quartermaster",
                "/Producer": f"Quartermaster {__version__} (WeasyPrint and pypdf)",
            }
        )
        # every static sheet brings its own copy of the fonts: keep one
        writer.compress_identical_objects(remove_duplicates=True, remove_unreferenced=True)
        out = io.BytesIO()
        writer.write(out)
        return out.getvalue()


def _page_count(sheet: Sheet) -> int:
    if sheet.drawn is not None:
        return len(sheet.drawn)
    if sheet.document is not None:
        return len(sheet.document.pages)
    if sheet.pdf is None:
        return 1
    return _pdf_page_count(sheet.pdf)


@cache
def _pdf_page_count(pdf: bytes) -> int:
    from pypdf import PdfReader

    return len(PdfReader(io.BytesIO(pdf)).pages)


def _side_scenario(scenario: dict[str, Any], index: int) -> dict[str, Any]:
    return {**scenario, "sides": [scenario["sides"][index]]}


def build_packet(
    rules: Rules,
    scenario: dict[str, Any],
    *,
    paper: str = "a4",
    mono: bool = False,
    fillable: bool = False,
    cache: bool = True,
) -> Packet:
    """Lay out every sheet of a game-night packet for `scenario`.

    Args:
        cache: take static sheets (quick references, cards, spares) from the cache (made
            once per process and kept on disk); False renders everything afresh (the bytes
            are the same).
    """
    ruleset = str(scenario["ruleset"])
    plan = packet_plan(ruleset)
    gen = get_generator(ruleset)
    title = str(scenario["title"])
    subject = f"{rules.rulesets[ruleset].title}; scenario seed {scenario['seed']}"

    made: list[str] = []  # the sheets about the scenario so far: their fields' prefixes
    drawing = Drawing(paper, mono=mono)  # the packet's drawn sheets, fonts embedded once

    def sheet(kind: str, data: dict[str, Any] | None, *bookmarks: tuple[str, int]) -> Sheet:
        fields = fillable and get_kind(kind).fillable
        # a sheet another ruleset serves (an officer's character sheet) keeps that ruleset
        serves = ruleset if ruleset in get_kind(kind).rulesets else None
        if data is None:
            pdf = static_sheet_pdf(
                kind,
                rules,
                ruleset=serves,
                paper=paper,
                mono=mono,
                fillable=fields,
                cache=cache,
            )
            return Sheet(pdf=pdf, marks=bookmarks)
        if get_kind(kind).drawn:
            first = drawing.pages
            draw_sheet(
                drawing,
                kind,
                rules,
                data=data,
                ruleset=serves,
                fillable=fields,
                bookmarks=bookmarks,
                field_prefix=f"s{len(made) + 1}_",
            )
            made.append(kind)
            return Sheet(drawn=range(first, drawing.pages))
        document = layout_sheet(
            kind,
            rules,
            data=data,
            ruleset=serves,
            fillable=fields,
            bookmarks=bookmarks,
            paper=paper,
            mono=mono,
            field_prefix=f"s{len(made) + 1}_",
        )
        made.append(kind)
        return Sheet(document=document)

    parts: list[Part] = [
        Part("Briefing", None, [sheet(kind, scenario, (title, 1)) for kind in plan["cover"]])
    ]
    for index, side in enumerate(scenario["sides"]):
        part = Part(str(side.get("name") or f"Side {index + 1}"), index)
        entries: list[tuple[str, dict[str, Any] | None, str]] = [
            (kind, _side_scenario(scenario, index), get_kind(kind).title)
            for kind in plan["per_side"]
        ]
        for unit in side.get(gen.units, []):
            entries += [
                (kind, unit, f"{unit['name']}: {get_kind(kind).title}") for kind in plan["per_unit"]
            ]
            for officer in unit.get("officers", []):
                role = officer.get("role", "Officer")
                entries += [
                    (kind, officer, f"{role} {officer['name']} ({unit['name']})")
                    for kind in plan["officers"]
                ]
        for i, (kind, data, label) in enumerate(entries):
            marks = ((part.title, 1), (label, 2)) if i == 0 else ((label, 2),)
            part.sheets.append(sheet(kind, data, *marks))
        parts.append(part)
    for kind in plan["shared"]:
        data = scenario if get_kind(kind).data == "scenario" else None
        parts.append(
            Part(get_kind(kind).title, None, [sheet(kind, data, (get_kind(kind).title, 1))])
        )
    for kind in plan["spares"]:
        label = f"Spare: {get_kind(kind).title}"
        parts.append(Part(label, None, [sheet(kind, None, (label, 1))]))
    return Packet(
        scenario,
        parts,
        paper,
        fillable,
        f"Game-night packet — {title}",
        subject,
        drawing=drawing.finish() if drawing.pages else None,
        drawn_marks=tuple(drawing.marks),
    )


def check_packet_options(paper: str) -> None:
    """Refuse a paper size before any work is done."""
    if paper not in PAPERS:
        raise InputError(f"--paper {paper}: choose a4 or letter")
