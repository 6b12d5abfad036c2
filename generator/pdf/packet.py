"""Game-night packets: every sheet a scenario needs, in one bookmarked PDF.

Sections come from the ruleset's spec (specs/, `generator.rulesets.PACKET_SECTIONS`). The
sheets about the scenario (briefing, rosters, logs, map ...) are laid out by WeasyPrint and
written in one go; static sheets (quick references, cards, spares) are finished PDFs made
once and cached (`static_sheet_pdf`), spliced in with pypdf. The outline is built here:
sections at level 1, a side's sheets at level 2, ships and people at the level below.

The packet is imposed for double-sided printing (`impose`): every section starts on an odd
page, so no sheet of paper holds two sections; a sheet of more than one page (a playsheet's
front and back, a log's two pages, cards and their backs) starts on an odd page, so its
pages share a sheet of paper; and the pages of kinds cut out or laid side by side (map
tiles, counters: `backs: blank` in their manifest) each get a blank back. The cover is laid
out last, with how to print the packet (`printing_notes`), for the whole packet or a side's
handout.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from pypdf import PdfReader, PdfWriter
from pypdf.generic import (
    BooleanObject,
    DictionaryObject,
    Fit,
    IndirectObject,
    NameObject,
    TextStringObject,
)

from generator import __version__
from generator.errors import InputError
from generator.loading import Rules
from generator.render import expressions
from generator.render.draw import LANG, Drawing
from generator.render.kinds.roster import EVERY_SIDE
from generator.render.paper import get_paper
from generator.render.pdf import write_pdf
from generator.render.sheets import (
    SheetKind,
    cached_sheet_pdf,
    draw_sheet,
    get_kind,
    layout_sheet,
    sheet_kinds,
    static_sheet_pdf,
)
from generator.ruleset import contract
from generator.ruleset.model import Scenario, SheetData
from generator.rulesets import SpecError, get_spec
from generator.suggest import unknown
from generator.text import listed


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
    kind: str | None = None
    blank_backs: bool = False  # each page is followed by a blank one (map tiles, counters)

    @property
    def pages(self) -> int:
        """The pages it takes in the packet, blank backs included."""
        return _page_count(self) * (2 if self.blank_backs else 1)


@dataclass
class Part:
    """A run of sheets of the packet: the cover, one side's sheets, or a shared sheet."""

    title: str
    side: int | None
    sheets: list[Sheet] = field(default_factory=list)
    gm: bool = False  # for the GM alone (the notes): never in a side's handout
    handout: bool = False  # a shared sheet every side's handout holds too (spec `handout`)


BLANK = Sheet()


@dataclass
class Packet:
    """A laid-out packet: its parts in order, ready to be written whole or per side.

    `parts` are the parts after the cover; `cover` lays the cover out with the printing notes
    of the pages it is printed with (the whole packet, or one side's handout).
    """

    scenario: Scenario
    parts: list[Part]
    paper: str
    fillable: bool
    title: str
    subject: str
    drawing: bytes | None = None  # every drawn sheet of the packet, on one canvas
    drawn_marks: tuple[Any, ...] = ()  # their outline entries (generator.render.draw.Mark)
    cover: Callable[[dict[str, Any]], Part] | None = None  # given the printing notes
    _covers: dict[frozenset[int] | None, Part] = field(default_factory=dict, repr=False)

    def _parts(self, sides: set[int] | None) -> list[Part]:
        """The parts printed for `sides` (None: every side), the cover laid out for them."""
        rest = [
            part
            for part in self.parts
            if sides is None or (part.side is None and part.handout) or part.side in sides
        ]
        if self.cover is None:
            return rest
        key = frozenset(sides) if sides is not None else None
        if key not in self._covers:
            # the cover's length moves every page number after it: lay it out until the
            # pages it takes (to an even number) are the ones its notes assumed
            assumed = 2
            for _ in range(4):
                notes = printing_notes(Part("", None), rest, self.paper, cover_pages=assumed)
                cover = self.cover(notes)
                taken = _even(sum(sheet.pages for sheet in impose([cover])))
                if taken == assumed:
                    break
                assumed = taken
            self._covers[key] = cover
        return [self._covers[key], *rest]

    def sheets(self, sides: set[int] | None = None) -> list[Sheet]:
        """Return the sheets in order, with the blank pages of the imposition (`impose`).

        Args:
            sides: only the parts of these sides (plus the cover and shared sheets).
        """
        return impose(self._parts(sides))

    def page_count(self, sides: set[int] | None = None) -> int:
        """Return the number of pages `write(sides)` makes."""
        return sum(sheet.pages for sheet in self.sheets(sides))

    def write(self, sides: set[int] | None = None) -> bytes:
        """Write the packet (or one side's handout) as PDF bytes.

        The scenario's sheets are written by WeasyPrint in one go; static sheets are
        spliced in from their finished PDFs, blank pages are added, and the outline and
        metadata are set here, so the bytes do not depend on whether static sheets came
        from the cache.
        """
        order = self.sheets(sides)
        title = self.title
        if sides is not None:
            names = listed(
                [str(self.scenario["sides"][side].get("name", "")) for side in sorted(sides)]
            )
            title = f"Handout for {names} — {self.scenario['title']}"
        documents = [sheet.document for sheet in order if sheet.document is not None]
        laid = (
            PdfReader(io.BytesIO(write_pdf(documents, fillable=self.fillable)))
            if documents
            else None
        )
        drawn = PdfReader(io.BytesIO(self.drawing)) if self.drawing else None
        writer = PdfWriter()
        forms = _FormResources(writer)
        next_page = 0
        marks: list[tuple[int, str, int, float, float]] = []
        for sheet in order:
            start = len(writer.pages)
            if sheet is BLANK:
                _blank_back(writer)
            elif sheet.drawn is not None:
                assert drawn is not None
                step = 2 if sheet.blank_backs else 1
                for page in sheet.drawn:
                    writer.append(drawn, pages=[page], import_outline=False)
                    if sheet.blank_backs:
                        _blank_back(writer)
                forms.add(drawn)
                for mark in self.drawn_marks:
                    if mark.page in sheet.drawn:
                        page = start + (mark.page - sheet.drawn.start) * step
                        marks.append((mark.level, mark.label, page, 0.0, mark.top_pt))
            elif sheet.document is not None:
                assert laid is not None
                step = 2 if sheet.blank_backs else 1
                for _page in sheet.document.pages:
                    writer.append(laid, pages=[next_page], import_outline=False)
                    next_page += 1
                    if sheet.blank_backs:
                        _blank_back(writer)
                forms.add(laid)
                height = float(writer.pages[start].mediabox.height)
                for offset, page in enumerate(sheet.document.pages):
                    for level, label, (x, y), _state in page.bookmarks:
                        marks.append(
                            (level, label, start + offset * step, x * 0.75, height - y * 0.75)
                        )
            else:
                assert sheet.pdf is not None
                reader = PdfReader(io.BytesIO(sheet.pdf))
                for page in range(len(reader.pages)):
                    writer.append(reader, pages=[page], import_outline=False)
                    if sheet.blank_backs:
                        _blank_back(writer)
                forms.add(reader)
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
                "/Title": title,
                "/Subject": self.subject,
                "/Creator": "Quartermaster",
                "/Producer": f"Quartermaster {__version__} (WeasyPrint and pypdf)",
            }
        )
        # the language, for screen readers and search; open with the bookmarks showing
        writer.root_object[NameObject("/Lang")] = TextStringObject(LANG)
        writer.page_mode = "/UseOutlines"
        # a viewer's window says the packet's title, not the file's name
        writer.root_object[NameObject("/ViewerPreferences")] = DictionaryObject(
            {NameObject("/DisplayDocTitle"): BooleanObject(True)}
        )
        # every static sheet brings its own copy of the fonts: keep one
        writer.compress_identical_objects(remove_duplicates=True, remove_unreferenced=True)
        _own_appearances(writer)
        out = io.BytesIO()
        writer.write(out)
        return out.getvalue()


class _FormResources:
    """The packet's form: the fields pypdf brings with the pages, and the resources
    (/DR) of every form the pages come from.

    pypdf keeps the /AcroForm of the first PDF appended and only the fields of the others,
    so the fonts the other PDFs' fields name in their /DA (QM Sans for the drawn logs,
    the WeasyPrint forms' own) were missing: a viewer typing into them fell back to a
    font of its own. Fonts of one name are one font (the same bundled file).
    """

    def __init__(self, writer: Any) -> None:
        self.writer = writer
        self.seen: set[int] = set()

    def add(self, reader: Any) -> None:
        """Add the form resources of `reader` (after its pages are appended)."""
        if id(reader) in self.seen:
            return
        self.seen.add(id(reader))
        source = reader.root_object.get("/AcroForm")
        target = self.writer.root_object.get("/AcroForm")
        if source is None or target is None:
            return
        source, target = source.get_object(), target.get_object()
        fonts = source.get("/DR", DictionaryObject()).get_object().get("/Font")
        if fonts is None:
            return
        resources = target.setdefault(NameObject("/DR"), DictionaryObject()).get_object()
        kept = resources.setdefault(NameObject("/Font"), DictionaryObject()).get_object()
        for name, font in fonts.get_object().items():
            if name not in kept:
                # a font the pages use already is cloned once: pypdf maps it to its copy
                kept[NameObject(name)] = font.clone(self.writer)


def _own_appearances(writer: Any) -> None:
    """Give each text field its own appearance stream again.

    Keeping one of identical objects makes the empty fields of a size share one appearance,
    and a form filler that writes a value's appearance into the field's stream (pypdf
    does) then shows it in every field of that size.
    """
    seen: set[int] = set()
    for page in writer.pages:
        for annotation in page.get("/Annots") or []:
            widget = annotation.get_object()
            if widget.get("/FT") != "/Tx" or "/AP" not in widget:
                continue
            looks = widget["/AP"].get_object()
            normal = looks.raw_get("/N")
            if not isinstance(normal, IndirectObject):
                continue
            if normal.idnum in seen:
                # a new stream of the same bytes, naming the same objects (its font ...): a
                # clone of the entries would duplicate everything they name
                stream = writer.get_object(normal)
                copy = stream.clone(writer, force_duplicate=True, ignore_fields=list(stream))
                for key in stream:
                    copy[NameObject(key)] = stream.raw_get(key)
                # (the /AP dictionary may be one object shared too: the widget gets its own)
                own = DictionaryObject(looks)
                own[NameObject("/N")] = copy.indirect_reference
                widget[NameObject("/AP")] = own
            else:
                seen.add(normal.idnum)


def _blank_back(writer: Any) -> None:
    """Add a blank page the size of the last one."""
    box = writer.pages[-1].mediabox
    writer.add_blank_page(float(box.width), float(box.height))


def _even(pages: int) -> int:
    return pages + pages % 2


def impose(parts: Sequence[Part]) -> list[Sheet]:
    """Return the sheets of `parts` in order, with blank pages for double-sided printing.

    Every part (a section: the cover, a side's sheets, a shared sheet, a spare) starts on an
    odd page, so no sheet of paper holds two sections; within a part, a sheet of more than
    one page (blank backs included) starts on an odd page, so a two-sided thing (a
    playsheet's front and back, a log's two pages, cards and their backs, a map tile and its
    blank back) is one sheet of paper.
    """
    return [sheet for _part, sheet, _first in _placed(parts)]


def _placed(parts: Sequence[Part], first: int = 1) -> list[tuple[Part, Sheet, int]]:
    """The imposed sheets (`impose`), each with its part and its first page (from `first`)."""
    out: list[tuple[Part, Sheet, int]] = []
    page = first
    for part in parts:
        for index, sheet in enumerate(part.sheets):
            if page % 2 == 0 and (index == 0 or sheet.pages > 1):
                out.append((part, BLANK, page))
                page += 1
            out.append((part, sheet, page))
            page += sheet.pages
    return out


def _runs(pages: Sequence[int], step: int) -> list[list[int]]:
    """Pages (sorted, distinct) in runs of pages `step` apart."""
    runs: list[list[int]] = []
    for page in pages:
        if runs and page == runs[-1][-1] + step:
            runs[-1].append(page)
        else:
            runs.append([page])
    return runs


def _ranges(pages: Sequence[int]) -> str:
    """'3–5, 8 and 10–12' for pages 3, 4, 5, 8, 10, 11, 12 (sorted, distinct)."""
    runs = _runs(pages, 1)
    words = [f"{run[0]}–{run[-1]}" if len(run) > 1 else str(run[0]) for run in runs]
    return listed(words)


def _pages(pages: Sequence[int]) -> str:
    """'page 5' or 'pages 3–5'."""
    return f"page {pages[0]}" if len(pages) == 1 else f"pages {_ranges(pages)}"


def _fronts(pages: Sequence[int]) -> str:
    """'13, 15 and 17' or 'the odd pages from 13 to 35' for fronts two pages apart."""
    words: list[str] = []
    for run in _runs(pages, 2):
        if len(run) > 3:
            words.append(f"the odd pages from {run[0]} to {run[-1]}")
        else:
            words += [str(page) for page in run]
    return listed(words)


PAPER_NAMES = {"a4": "A4", "letter": "Letter"}


def printing_notes(
    cover: Part, rest: Sequence[Part], paper: str, cover_pages: int | None = None
) -> dict[str, Any]:
    """How to print a packet of `cover` and `rest`, in sentences for its cover: which pages
    to print double-sided and which single-sided, what to cut, what to hand each side.

    Args:
        cover_pages: the pages the cover takes while it is not laid out yet (even).
    """
    if cover_pages is None:
        placed = _placed([cover, *rest])
    else:
        placed = _placed(rest, first=cover_pages + 1)
    total = placed[-1][2] + placed[-1][1].pages - 1 if placed else cover_pages or 0
    lines = [
        f"This packet is {total} pages of {PAPER_NAMES.get(paper, paper)}. Print it "
        "double-sided, flipping on the long edge: every section starts on a new sheet of "
        "paper, and the blank pages are meant."
    ]
    backed: list[int] = []  # pages of sheets with blank backs, fronts and backs
    backed_titles: list[str] = []
    handling: list[str] = []
    for _part, sheet, first in placed:
        if sheet.kind is None:
            continue
        kind = get_kind(sheet.kind)
        pages = _pages(range(first, first + sheet.pages))
        if sheet.blank_backs:
            backed += range(first, first + sheet.pages)
            if kind.title.lower() not in backed_titles:
                backed_titles.append(kind.title.lower())
        said = _printing(kind, _page_count(sheet))
        if said:
            handling.append(f"{kind.title} ({pages}): {said}.")
    if backed:
        others = [page for page in range(1, total + 1) if page not in set(backed)]
        one = len(backed) == 2  # a single front and its back
        fronts = _fronts(backed[::2])
        if not fronts.startswith("the"):
            fronts = f"{'page' if one else 'pages'} {fronts}"
        backs = "page of the {} has a blank back" if one else "pages of the {} have blank backs"
        lines.append(
            f"The {backs.format(listed(backed_titles))}. "
            + (
                f"To save paper, print {_pages(others)} double-sided and only {fronts} "
                "single-sided."
                if others
                else f"To save paper, print only {fronts} single-sided."
            )
        )
    lines += handling
    sides = [(part, first) for part, _sheet, first in placed if part.side is not None]
    if len({part.side for part, _ in sides}) > 1:
        spans: dict[int, tuple[str, int, int]] = {}
        for part, sheet, first in placed:
            if part.side is None or sheet is BLANK:
                continue
            title, start, _end = spans.get(part.side, (part.title, first, first))
            spans[part.side] = (title, start, first + sheet.pages - 1)
        lines.append(
            "Hand out: "
            + "; ".join(f"{title}, {_pages(range(a, b + 1))}" for title, a, b in spans.values())
            + "."
        )
    kinds = sorted({sheet.kind for _part, sheet, _first in placed if sheet.kind is not None})
    return {
        "paper": PAPER_NAMES.get(paper, paper),
        "pages": total,
        "lines": lines,
        "kinds": kinds,  # what these pages hold: the cover says when the map is not among them
    }


def _printing(kind: SheetKind, pages: int) -> str:
    """What to do with a kind's sheet once printed, for the cover: its manifest's
    `printing`, Jinja over `pages`, the pages the sheet has (blank backs not counted), so
    that a one-page map is not trimmed and overlapped."""
    if not kind.printing:
        return ""
    return expressions.text(kind.printing, f"sheets/{kind.kind}.yaml", pages=pages)


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
    return len(PdfReader(io.BytesIO(pdf)).pages)


def _side_scenario(scenario: Scenario, index: int) -> Scenario:
    # one side printed; every side kept to lay it out alike (the rosters' column widths)
    one = scenario.copy()
    one["sides"] = [scenario["sides"][index]]
    one[EVERY_SIDE] = scenario["sides"]
    return one


def build_packet(
    rules: Rules,
    scenario: Scenario,
    *,
    paper: str = "a4",
    mono: bool = False,
    fillable: bool = False,
    cache: bool = True,
    without: frozenset[str] = frozenset(),
    spares: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> Packet:
    """Lay out every sheet of a game-night packet for `scenario`.

    Args:
        cache: take static sheets (quick references, cards, spares) from the cache (made
            once per process and kept on disk); False renders everything afresh (the bytes
            are the same).
        without: the sections to leave out (`LEAVE_OUT`: map, counters, cards ...); a
            section this ruleset has not is no error (a batch may mix rulesets).
        spares: how many of each blank sheet (None: one).
        progress: told what is laid out next (``Ship log: HMS Victory``), before each
            sheet, so a terminal can show it (the cover is laid out when the packet is
            written).
    """
    ruleset = str(scenario["ruleset"])
    plan = packet_plan(ruleset)
    gen = contract(ruleset)
    title = str(scenario["title"])
    subject = f"{rules.rulesets[ruleset].title}; scenario seed {scenario['seed']}"

    def tell(step: str) -> None:
        if progress is not None:
            progress(step)

    made: list[str] = []  # the sheets about the scenario so far: their fields' prefixes
    # the packet's drawn sheets, fonts embedded once
    drawing = Drawing(paper, title=f"Drawn sheets — {title}", subject=subject, mono=mono)

    def sheet(
        kind: str, data: SheetData | None, *bookmarks: tuple[str, int], prefix: str = "s"
    ) -> Sheet:
        made_sheet = _made(kind, data, bookmarks, prefix)
        made_sheet.kind = kind
        made_sheet.blank_backs = get_kind(kind).blank_backs
        return made_sheet

    def _made(
        kind: str, data: SheetData | None, bookmarks: tuple[tuple[str, int], ...], prefix: str
    ) -> Sheet:
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
        if get_kind(kind).cached and not fields:
            # the same HTML as another scenario's (the Notes for the GM): laid out once
            pdf = cached_sheet_pdf(
                kind, rules, data, ruleset=serves, paper=paper, mono=mono, cache=cache
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
                field_prefix=f"{prefix}{len(made) + 1}_",
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
            field_prefix=f"{prefix}{len(made) + 1}_",
        )
        made.append(kind)
        return Sheet(document=document)

    # the cover is laid out last, told how the packet prints (`Packet._parts`); a drawn
    # cover sheet is drawn once, now, without the notes
    drawn_cover = {
        index: sheet(kind, scenario, (title, 1), prefix="c")
        for index, kind in enumerate(plan["cover"])
        if get_kind(kind).drawn
    }

    def cover(printing: dict[str, Any]) -> Part:
        data = scenario.copy()
        data["printing"] = printing
        return Part(
            "Briefing",
            None,
            [
                drawn_cover.get(index) or sheet(kind, data, (title, 1), prefix="c")
                for index, kind in enumerate(plan["cover"])
            ],
        )

    parts: list[Part] = []
    for index, side in enumerate(scenario["sides"]):
        part = Part(str(side.get("name") or f"Side {index + 1}"), index)
        entries: list[tuple[str, SheetData | None, str]] = [
            (kind, _side_scenario(scenario, index), get_kind(kind).title)
            for kind in plan["per_side"]
        ]
        # a side's units are people (with sheets of their own: per_unit) or ships (whose
        # officers may have sheets of their own), never both
        for person in side.get("characters", []):
            entries += [
                (kind, person, f"{person['name']}: {get_kind(kind).title}")
                for kind in plan["per_unit"]
            ]
        for unit in side.get("ships", []):
            for officer in gen.officers(unit):
                entries += [
                    (kind, officer.person, f"{officer.title} ({unit['name']})")
                    for kind in plan["officers"]
                ]
        for i, (kind, data, label) in enumerate(entries):
            tell(f"{part.title}: {label}")
            marks = ((part.title, 1), (label, 2)) if i == 0 else ((label, 2),)
            part.sheets.append(sheet(kind, data, *marks))
        parts.append(part)

    def whole(kind: str, label: str, blank: bool = False, gm: bool = False) -> Part:
        """A section of one sheet for the table (or the GM): about the scenario, or blank."""
        data = scenario if get_kind(kind).data == "scenario" and not blank else None
        tell(label)
        return Part(label, None, [sheet(kind, data, (label, 1))], gm=gm)

    for kind in plan["shared"]:
        if kind not in without:
            parts.append(whole(kind, get_kind(kind).title))
            parts[-1].handout = kind in plan["handout"]
    copies = 0 if "spares" in without else 1 if spares is None else spares
    for kind in plan["spares"]:
        parts += [
            whole(kind, f"Spare: {get_kind(kind).title}" + (f" {n}" if copies > 1 else ""), True)
            for n in range(1, copies + 1)
        ]
    parts += [
        whole(kind, get_kind(kind).title, gm=True) for kind in plan["notes"] if kind not in without
    ]
    return Packet(
        scenario,
        parts,
        paper,
        fillable,
        f"Game-night packet — {title}",
        subject,
        drawing=drawing.finish() if drawing.pages else None,
        drawn_marks=tuple(drawing.marks),
        cover=cover if plan["cover"] else None,
    )


# the sections `packet --without` may leave out
LEAVE_OUT = ("map", "counters", "cards", "playsheet", "quick-reference", "spares", "gm-notes")
MAX_SPARES = 20


def check_packet_options(
    paper: str, without: Sequence[str] = (), spares: int | None = None
) -> None:
    """Refuse a paper size, a section to leave out or a number of spares before any work
    is done."""
    get_paper(paper)
    for section in without:
        if section not in LEAVE_OUT:
            raise InputError(
                "--without: " + unknown("section", section, LEAVE_OUT, listing="choose from")
            )
    if spares is not None and not 0 <= spares <= MAX_SPARES:
        raise InputError(f"--spares {spares}: from 0 to {MAX_SPARES}")
