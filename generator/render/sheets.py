"""Printable sheet kinds: their manifests in sheets/, and rendering one to PDF bytes."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from generator.errors import InputError, QuartermasterError
from generator.loading import Rules
from generator.render.draw import Mark
from generator.render.paper import get_paper
from generator.resources import resource_dir
from generator.ruleset.model import SheetData
from generator.rulesets import serving
from generator.suggest import unknown
from generator.yamlfile import read_yaml

_MANIFEST_KEYS = {
    "kind",
    "title",
    "description",
    "template",
    "data",
    "static_when_blank",
    "fillable",
    "frame",
    "backs",
    "printing",
    "cached",
}
# a kind is laid out from its template by WeasyPrint, or drawn by its module (no template)
_REQUIRED_KEYS = _MANIFEST_KEYS - {"frame", "template", "backs", "printing", "cached"}
_BACKS = ("printed", "blank")


@dataclass(frozen=True)
class SheetKind:
    """A printable kind, as its manifest in sheets/ describes it; it serves the rulesets whose
    spec has a section for it (specs/, `generator.rulesets`)."""

    kind: str
    title: str
    description: str
    template: str | None  # None: drawn with ReportLab by its module's ``draw``
    rulesets: tuple[str, ...]
    data: str
    static_when_blank: bool
    fillable: bool  # its write-ins can be form fields, filled in or blank
    # where the sheet's ink belongs: mm in from the paper's top, right, bottom and left
    # edges (the page margins, and any running footer); None: the sheet places itself
    frame: tuple[float, float, float, float] | None = None
    # pages to cut out or lay side by side (map tiles, counters) have blank backs in a packet
    blank_backs: bool = False
    # what the GM does with it once printed, in a sentence for the packet's cover
    printing: str | None = None
    # its HTML repeats from scenario to scenario (the Notes for the GM follow from the house
    # tables a scenario rolled on): a packet keeps it in the disk cache by its HTML, as a
    # blank sheet (`cached_sheet_pdf`)
    cached: bool = False
    # only its blank sheet has write-ins (manifest ``fillable: blank``): the roster, whose
    # every box is written in when blank and printed from the scenario otherwise
    fillable_blank: bool = False

    @property
    def drawn(self) -> bool:
        """Whether the kind is drawn with ReportLab (else laid out from its template)."""
        return self.template is None


@cache
def sheet_kinds() -> dict[str, SheetKind]:
    """Return every sheet kind by name, from sheets/*.yaml (checked)."""
    kinds: dict[str, SheetKind] = {}
    for path in sorted(resource_dir("sheets").glob("[!_]*.yaml")):
        doc = read_yaml(path)
        raw = doc.data
        frame = raw.get("frame") if isinstance(raw, dict) else None
        if (
            not isinstance(raw, dict)
            or not _REQUIRED_KEYS <= set(raw) <= _MANIFEST_KEYS
            or raw.get("kind") != path.stem
            or not (frame is None or _is_frame(frame))
        ):
            raise InputError(
                f"{path}: a sheet manifest needs {', '.join(sorted(_REQUIRED_KEYS))} "
                "and may have a frame (four lengths in mm: top, right, bottom, left)"
            )
        if raw.get("backs", "printed") not in _BACKS:
            raise InputError(
                f"{path}:{doc.line(('backs',))}: 'backs' is printed or blank, not {raw['backs']!r}"
            )
        if raw["fillable"] not in (True, False, "blank"):
            raise InputError(
                f"{path}:{doc.line(('fillable',))}: 'fillable' is true, false or blank "
                "(only the blank sheet has write-ins)"
            )
        if not isinstance(raw.get("cached", False), bool):
            raise InputError(f"{path}:{doc.line(('cached',))}: 'cached' is true or false")
        if not isinstance(raw.get("printing", ""), str):
            raise InputError(
                f"{path}:{doc.line(('printing',))}: 'printing' is a sentence for the cover"
            )
        kinds[path.stem] = SheetKind(
            kind=str(raw["kind"]),
            title=str(raw["title"]),
            description=str(raw["description"]),
            template=str(raw["template"]) if raw.get("template") else None,
            rulesets=serving(path.stem),
            data=str(raw["data"]),
            static_when_blank=bool(raw["static_when_blank"]),
            fillable=raw["fillable"] is True,
            frame=tuple(float(v) for v in frame) if frame else None,  # type: ignore[arg-type]
            blank_backs=raw.get("backs") == "blank",
            printing=str(raw["printing"]).strip() if raw.get("printing") else None,
            cached=bool(raw.get("cached", False)),
            fillable_blank=raw["fillable"] == "blank",
        )
    return kinds


def _is_frame(value: Any) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 4
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    )


def page_boxes(kind: str, paper: str) -> dict[str, tuple[float, float, float, float]]:
    """Return the boxes every page of a `kind` sheet declares on `paper`: its frame (the
    manifest's) and, for sheets that are cut up, the block left after cutting (the kind
    module's ``trim_box``); each (left, top, right, bottom) in mm from the top-left."""
    sheet = get_kind(kind)
    width, height = get_paper(paper).size_mm
    boxes: dict[str, tuple[float, float, float, float]] = {}
    if sheet.frame is not None:
        top, right, bottom, left = sheet.frame
        boxes["art"] = (left, top, width - right, height - bottom)
    module = importlib.import_module(f"generator.render.kinds.{kind.replace('-', '_')}")
    trim = getattr(module, "trim_box", None)
    if trim is not None:
        boxes["trim"] = trim(paper)
    return boxes


def get_kind(kind: str) -> SheetKind:
    """Return the sheet kind `kind`, or raise naming the kinds there are."""
    kinds = sheet_kinds()
    if kind not in kinds:
        raise InputError(unknown("sheet kind", kind, kinds, listing="kinds"))
    return kinds[kind]


def _module(kind: str) -> Any:
    """The module of a sheet kind: generator/render/kinds/KIND.py."""
    return importlib.import_module(f"generator.render.kinds.{kind.replace('-', '_')}")


# a kind's context builder: (rules, what the sheet is about, paper, ruleset) -> its context
ContextBuilder = Callable[[Rules, SheetData | None, str, str | None], dict[str, Any]]


def _context(kind: str) -> ContextBuilder:
    builder: ContextBuilder = _module(kind).context
    return builder


def sheet_html(
    kind: str,
    rules: Rules,
    *,
    data: SheetData | None = None,
    ruleset: str | None = None,
    paper: str = "a4",
    mono: bool = False,
    fillable: bool = False,
    bookmarks: tuple[tuple[str, int], ...] = (),
    doc_title: str | None = None,
    doc_subject: str | None = None,
    field_prefix: str = "",
) -> str:
    """Return the HTML of one sheet of `kind` (arguments as for `render_sheet`).

    Args:
        bookmarks: (label, level) of PDF outline entries at the sheet's start (packets).
        doc_title, doc_subject: PDF metadata instead of the manifest's.
        field_prefix: put before every form field's name, so that sheets sharing a PDF (a
            packet's officers) do not share fields: a PDF reader fills every field of a
            name at once.
    """
    from generator.render.templating import render_html

    sheet = get_kind(kind)
    if sheet.template is None:
        raise QuartermasterError(f"the {kind} sheet is drawn, not laid out from a template")
    ruleset = settle(sheet, data, ruleset, paper, fillable)
    context = _context(kind)(rules, data, paper, ruleset)
    html = render_html(
        sheet.template,
        doc_title=doc_title or document_title(sheet, data),
        doc_subject=doc_subject or sheet.description,
        bookmarks=bookmarks,
        paper=get_paper(paper),
        mono=mono,
        fillable=fillable,
        **context,
    )
    if field_prefix and fillable:
        # every field is an <input name="..."> the templates wrote (data is escaped)
        html = _INPUT_NAME.sub(lambda m: m.group(1) + field_prefix, html)
    return html


_INPUT_NAME = re.compile(r'(<input\b[^>]*?\bname=")')


def settle(
    sheet: SheetKind, data: SheetData | None, ruleset: str | None, paper: str, fillable: bool
) -> str:
    """Check a sheet's options and return the ruleset it is printed for."""
    get_paper(paper)  # an unknown paper is refused before anything is laid out
    if fillable and not (sheet.fillable or (sheet.fillable_blank and data is None)):
        if sheet.fillable_blank:
            raise InputError(
                f"--fillable: only the blank {sheet.kind} sheet has write-in fields "
                "(no --seed or --from)"
            )
        raise InputError(f"--fillable: the {sheet.kind} sheet has no write-in fields")
    named = data.get("ruleset") if data is not None else None  # a character may name none
    if ruleset is None and named in sheet.rulesets:
        ruleset = str(named)
    if ruleset is None and len(sheet.rulesets) == 1:
        ruleset = sheet.rulesets[0]
    if ruleset not in sheet.rulesets:
        raise InputError(f"--ruleset: the {sheet.kind} sheet serves {', '.join(sheet.rulesets)}")
    return ruleset


def document_title(sheet: SheetKind, data: SheetData | None) -> str:
    """Return a sheet's PDF title: its kind's, and what it is about."""
    about = data.get("title") or data.get("name") if data else None
    return f"{sheet.title} — {about}" if about else sheet.title


def draw_sheet(
    drawing: Any,
    kind: str,
    rules: Rules,
    *,
    data: SheetData | None = None,
    ruleset: str | None = None,
    fillable: bool = False,
    bookmarks: tuple[tuple[str, int], ...] = (),
    field_prefix: str = "",
) -> None:
    """Draw one sheet of a drawn `kind` onto `drawing` (a `generator.render.draw.Drawing`,
    which gives the paper and mono), from its first page on.

    Args:
        bookmarks: (label, level) of outline entries at the sheet's first page (packets).
        field_prefix: put before every form field's name (as for `sheet_html`).
    """
    sheet = get_kind(kind)
    if not sheet.drawn:
        raise QuartermasterError(f"the {kind} sheet is laid out from a template, not drawn")
    ruleset = settle(sheet, data, ruleset, drawing.paper, fillable)
    context = _context(kind)(rules, data, drawing.paper, ruleset)
    first = drawing.pages
    _draw(kind)(
        drawing,
        context,
        boxes=page_boxes(kind, drawing.paper),
        fillable=fillable,
        field_prefix=field_prefix,
    )
    for label, level in bookmarks:
        drawing.marks.insert(
            next((i for i, m in enumerate(drawing.marks) if m.page >= first), len(drawing.marks)),
            Mark(label, level, first, drawing.y(0)),
        )


def _draw(kind: str) -> Callable[..., None]:
    drawer: Callable[..., None] = _module(kind).draw
    return drawer


def drawn_pdf(
    kind: str,
    rules: Rules,
    *,
    data: SheetData | None = None,
    ruleset: str | None = None,
    paper: str = "a4",
    mono: bool = False,
    fillable: bool = False,
) -> bytes:
    """Return the PDF of one drawn sheet on its own."""
    from generator.render.draw import Drawing

    sheet = get_kind(kind)
    drawing = Drawing(
        paper, title=document_title(sheet, data), subject=sheet.description, mono=mono
    )
    draw_sheet(drawing, kind, rules, data=data, ruleset=ruleset, fillable=fillable)
    return drawing.finish()


def layout_sheet(kind: str, rules: Rules, *, fillable: bool = False, **options: Any) -> Any:
    """Lay out one sheet into WeasyPrint pages (options as for `sheet_html`).

    Sheets about no generated data are made once as finished PDFs instead
    (`static_sheet_pdf`); this lays out afresh every time.
    """
    from generator.render.pdf import layout

    html = sheet_html(kind, rules, fillable=fillable, **options)
    return layout(html, fillable=fillable, boxes=page_boxes(kind, options.get("paper", "a4")))


_STATIC_PDFS: dict[tuple[str, ...], bytes] = {}


def static_sheet_pdf(
    kind: str,
    rules: Rules,
    *,
    ruleset: str | None = None,
    paper: str = "a4",
    mono: bool = False,
    fillable: bool = False,
    cache: bool = True,
) -> bytes:
    """Return the PDF of a sheet that depends on no generated data (a blank sheet).

    With `cache`, it is made once per process and options and kept on disk between
    processes (generator/render/cache.py); without, it is rendered afresh. The bytes are
    the same either way.
    """
    from generator.render import cache as disk

    key = (kind, str(ruleset), paper, str(mono), str(fillable), rules_fingerprint(rules))
    if cache and key in _STATIC_PDFS:
        return _STATIC_PDFS[key]
    settle(get_kind(kind), None, ruleset, paper, fillable)  # bad options fail first
    boxes = page_boxes(kind, paper)
    if get_kind(kind).drawn:
        # a drawn sheet follows from its code and its context, as a laid-out one from its HTML
        from generator.render.draw import source_fingerprint

        sheet = get_kind(kind)
        settled = settle(sheet, None, ruleset, paper, fillable)
        context = _context(kind)(rules, None, paper, settled)
        module = f"generator.render.kinds.{kind.replace('-', '_')}"
        source = repr((source_fingerprint(module), context, paper, mono, sorted(boxes.items())))
        disk_key = disk.drawing_key(source, fillable=fillable)

        def draw() -> bytes:
            return drawn_pdf(
                kind, rules, ruleset=ruleset, paper=paper, mono=mono, fillable=fillable
            )

        pdf = disk.made(disk_key, draw) if cache else draw()
    else:
        html = sheet_html(kind, rules, ruleset=ruleset, paper=paper, mono=mono, fillable=fillable)
        pdf = _laid_out(html, boxes, fillable=fillable, cache=cache)
    if cache:
        _STATIC_PDFS[key] = pdf
    return pdf


def keep_blank_layout(kind: str, html: str, paper: str, document: Any) -> None:
    """Keep `document`, a layout of the blank sheet `html` made for another purpose (a
    quick reference laid out to find its body size), as that sheet's: for this process's
    next layout of it (`pdf.keep_layout`), and, with the disk cache on, written there at
    once (as `static_sheet_pdf` writes it), so that another process wanting the sheet (a
    batch's other worker, which waited for the size) does not lay it out again."""
    from generator.render import cache as disk
    from generator.render import pdf

    pdf.keep_layout(html, document)
    if disk.cache_folder() is not None:
        # the write takes the kept layout; kept again for a caller here without the cache
        _laid_out(html, page_boxes(kind, paper), fillable=False, cache=True)
        pdf.keep_layout(html, document)


def cached_sheet_pdf(
    kind: str,
    rules: Rules,
    data: SheetData,
    *,
    ruleset: str | None = None,
    paper: str = "a4",
    mono: bool = False,
    cache: bool = True,
) -> bytes:
    """Return the PDF of a laid-out sheet about `data` whose HTML repeats between scenarios
    (a kind marked `cached`), from the disk cache when that HTML was laid out before.

    Keyed by the HTML as a blank sheet is, so the bytes are the same either way.
    """
    # titled as the kind, not the scenario (a packet sets its own title on the whole)
    title = document_title(get_kind(kind), None)
    html = sheet_html(
        kind, rules, data=data, ruleset=ruleset, paper=paper, mono=mono, doc_title=title
    )
    return _laid_out(html, page_boxes(kind, paper), fillable=False, cache=cache)


def _laid_out(
    html: str, boxes: dict[str, tuple[float, float, float, float]], *, fillable: bool, cache: bool
) -> bytes:
    """Lay out and write `html`, or, with `cache`, take it from the disk cache by its HTML."""
    from generator.render import cache as disk
    from generator.render.pdf import layout, write_pdf

    def make() -> bytes:
        return write_pdf([layout(html, fillable=fillable, boxes=boxes)], fillable=fillable)

    if not cache:
        return make()
    # made once however many processes ask at once (a batch's workers on an empty cache)
    return disk.made(disk.sheet_key(html + repr(sorted(boxes.items())), fillable=fillable), make)


def rules_fingerprint(rules: Rules) -> str:
    """Name the rules a layout was made from: the built-in data, or with house rules by
    their content (two nights' different files may share a name)."""
    return "builtin" if rules.house_digest is None else f"house:{rules.house_digest}"


def render_sheet(
    kind: str,
    rules: Rules,
    *,
    data: SheetData | None = None,
    ruleset: str | None = None,
    paper: str = "a4",
    mono: bool = False,
    fillable: bool = False,
) -> bytes:
    """Render one sheet of `kind` to PDF bytes.

    Args:
        data: the generated thing the sheet is about (a character, a scenario), or None for
            a blank sheet.
        ruleset: for kinds that serve several rulesets (quick reference, ship log ...).
        paper: ``a4`` or ``letter``.
        mono: black and white only, for laser printers.
        fillable: write-in boxes become PDF form fields.
    """
    from generator.render.pdf import html_to_pdf

    if data is None:
        return static_sheet_pdf(
            kind, rules, ruleset=ruleset, paper=paper, mono=mono, fillable=fillable
        )
    if get_kind(kind).drawn:
        return drawn_pdf(
            kind, rules, data=data, ruleset=ruleset, paper=paper, mono=mono, fillable=fillable
        )
    html = sheet_html(
        kind, rules, data=data, ruleset=ruleset, paper=paper, mono=mono, fillable=fillable
    )
    return html_to_pdf(html, fillable=fillable, boxes=page_boxes(kind, paper))
