"""Sheets drawn with ReportLab's canvas: the sheets that are geometry.

Map tiles, counters, card faces and backs and ship logs with their box tracks are drawn
here rather than laid out by WeasyPrint: about ten times faster, and exact to the 0.1 mm.
A `Drawing` is one PDF: a sheet on its own, or every drawn sheet of a packet on one canvas
(so the fonts are embedded once). It records, per page, the boxes the page declares (its
frame as /ArtBox, its cut size as /TrimBox) and the bookmarks its sheets ask for, which a
packet carries into its outline.

Lengths given to the helpers are millimetres from the page's top-left corner, as the
sheets are designed; ReportLab's own origin is the bottom-left in points, and `Drawing`
converts. ReportLab is imported here only, and only when something is drawn.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

from generator.render.paper import get_paper
from generator.resources import resource_dir

MM = 72 / 25.4  # points in a millimetre
LANG = "en"  # the language of every sheet, for screen readers and search (base.html.j2's too)

# the bundled fonts, by the name the drawing code uses (tools/subset_fonts.py makes them)
FONT_FILES = {
    "sans": "QMSans-Lato-Regular.ttf",
    "sans-bold": "QMSans-Lato-Bold.ttf",
    "sans-italic": "QMSans-Lato-Italic.ttf",
    "sans-bold-italic": "QMSans-Lato-BoldItalic.ttf",
    "serif": "QMSerif-EBGaramond-Regular.ttf",
    "serif-italic": "QMSerif-EBGaramond-Italic.ttf",
}

# the house colours (the stylesheet's --ink, --rule, --accent ...), and their mono forms
COLOURS = {
    "colour": {
        "ink": "#1d1b16",
        "faint": "#5c5446",
        "rule": "#6b5f4a",
        "accent": "#7a2a18",
        "blue": "#1f4e79",
        "paper": "#ffffff",
        "tint": "#f3ede2",
        "red": "#b3261e",
    },
    "mono": {
        "ink": "#000000",
        "faint": "#000000",
        "rule": "#000000",
        "accent": "#000000",
        "blue": "#000000",
        "paper": "#ffffff",
        "tint": "#ffffff",
        "red": "#000000",
    },
}

Box = tuple[float, float, float, float]  # left, top, right, bottom: mm from the top-left


def subset_tag(font: bytes, codes: Sequence[int]) -> str:
    """Return the six capital letters that name a font subset (``ABCDEF+QMSans``): a hash
    of the font file (`font`: its digest) and the characters of the subset in code order,
    so each distinct subset has its own tag and the same subset always the same one."""
    digest = hashlib.sha256(font + ",".join(map(str, codes)).encode()).digest()
    return "".join(chr(ord("A") + byte % 26) for byte in digest[:6])


@cache
def _subset_tagged_font() -> type[Any]:
    """ReportLab's TrueType font, embedding each subset under a tag of its own.

    ReportLab tags a document's subsets by their number (``AAAAAA+``, ``AAAAAB+`` ...), so
    the subsets of different documents share names, and a packet assembled from several
    drawings had three different fonts all called ``AAAAAA+QMSans``: a reader that takes
    a font by its name may draw one with the other's glyphs. `addObjects` is ReportLab
    5.1's with the tag from `subset_tag` instead.
    """
    from reportlab.pdfbase import pdfdoc
    from reportlab.pdfbase.ttfonts import TTFont, makeToUnicodeCMap

    class SubsetTaggedFont(TTFont):
        file_digest = b""

        def addObjects(self, doc: Any) -> None:
            ttf: Any = self  # (ReportLab's stubs know none of what this uses)
            try:
                state = ttf.state[doc]
            except KeyError:
                state = ttf.state[doc] = TTFont.State(ttf._asciiReadable)
            state.frozen = 1
            face = ttf.face
            for n, subset in enumerate(state.subsets):
                internal = self.getSubsetInternalName(n, doc)[1:]
                tag = subset_tag(self.file_digest, subset)
                base = f"{tag}+{(face.name + face.subfontNameX).decode('pdfdoc')}"
                font: Any = pdfdoc.PDFTrueTypeFont()
                font.__Comment__ = f"Font {self.fontName} subset {n}"
                font.Name = internal
                font.BaseFont = base
                font.FirstChar = 0
                font.LastChar = len(subset) - 1
                font.Widths = pdfdoc.PDFArray(list(map(face.getCharWidth, subset)))
                cmap = pdfdoc.PDFStream()
                cmap.content = makeToUnicodeCMap(base, subset)
                if doc.compression:
                    cmap.filters = [pdfdoc.PDFZCompress]
                font.ToUnicode = doc.Reference(cmap, "toUnicodeCMap:" + base)
                font.FontDescriptor = face.addSubsetObjects(doc, base, subset)
                doc.Reference(font, internal)
                doc.idToObject["BasicFonts"].dict[internal] = font
            del ttf.state[doc]

    return SubsetTaggedFont


@cache
def register_fonts() -> None:
    """Register the bundled fonts with ReportLab, once a process."""
    from reportlab.pdfbase import pdfmetrics

    folder = resource_dir("templates") / "fonts"
    for name, file in FONT_FILES.items():
        font = _subset_tagged_font()(name, str(folder / file))
        font.file_digest = hashlib.sha256((folder / file).read_bytes()).digest()
        pdfmetrics.registerFont(font)
    pdfmetrics.registerFontFamily(
        "sans", normal="sans", bold="sans-bold", italic="sans-italic", boldItalic="sans-bold-italic"
    )


# form fields are written in QM Sans; the AcroForm's resources name it so (their /DA)
FORM_FONT = "sans"
FORM_FONT_NAME = "QMSans"
FORM_FONT_SIZE = 9.0  # points, or less in a box too low for it (never under 7)
# a simple font's 8-bit codes and what they stand for: WinAnsiEncoding, which every form
# filler (viewers, pypdf) can type into (the five codes cp1252 leaves unset: U+FFFD)
_WIN_ANSI = {code: bytes([code]).decode("cp1252", "replace") for code in range(0x20, 0x100)}
_NONSYMBOLIC = 32  # a FontDescriptor flag: the font's glyphs are the standard Latin ones


@lru_cache(maxsize=8192)
def text_width_mm(text: str, font: str, size_pt: float) -> float:
    """Return the width of `text` in mm, set in a bundled `font` at `size_pt` (kept: wrapping
    measures the same words again and again)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    register_fonts()
    return float(stringWidth(text, font, size_pt)) / MM


@dataclass
class Mark:
    """An outline entry: its label and level, the page it opens (0-based within the
    drawing) and the height on that page it points at, in points from the bottom."""

    label: str
    level: int
    page: int
    top_pt: float


@dataclass
class Drawing:
    """One PDF drawn with ReportLab: its canvas, pages, page boxes and bookmarks.

    Args:
        paper: ``a4`` or ``letter``.
        title, subject: the PDF's metadata (a packet sets its own when it assembles).
        mono: draw in black and white (`colours` gives the palette).
    """

    paper: str
    title: str = ""
    subject: str = ""
    mono: bool = False
    marks: list[Mark] = field(default_factory=list)
    pages: int = 0
    canvas: Any = field(default=None, init=False)
    _buffer: io.BytesIO = field(default_factory=io.BytesIO)
    _form_font: Any = field(default=None, init=False)  # its reference, once a field needs it

    def __post_init__(self) -> None:
        from reportlab import rl_config
        from reportlab.pdfgen.canvas import Canvas

        # streams stay binary (deflated, not ASCII85-encoded too): smaller, and the encoding
        # was the largest cost of a drawn page
        rl_config.useA85 = 0
        register_fonts()
        width, height = self.size_mm
        self.canvas = Canvas(
            self._buffer,
            pagesize=(width * MM, height * MM),
            invariant=1,  # no dates or random ids: the same sheet gives the same bytes
            pageCompression=1,
            initialFontName="sans",  # type: ignore[arg-type]  # (the stub says float) no Helvetica
            initialFontSize=9,
            lang=LANG,
        )
        self.canvas.setTitle(self.title)
        # a viewer's window says the sheet's title, not the file's name
        self.canvas.setViewerPreference("DisplayDocTitle", "true")
        self.canvas.setSubject(self.subject)
        self.canvas.setCreator("Quartermaster")
        self.canvas.setAuthor("Quartermaster")

    @property
    def size_mm(self) -> tuple[float, float]:
        return get_paper(self.paper).size_mm

    @property
    def colours(self) -> Mapping[str, str]:
        return COLOURS["mono" if self.mono else "colour"]

    def new_page(self, boxes: Mapping[str, Box] | None = None) -> Any:
        """Start a page (closing the one before) declaring `boxes`; return the canvas."""
        canvas = self.canvas
        if self.pages:
            canvas.showPage()
        self.pages += 1
        # a box set on a ReportLab canvas holds for every later page: set or clear each
        for key, setter in (("art", canvas.setArtBox), ("trim", canvas.setTrimBox)):
            box = (boxes or {}).get(key)
            setter(self._pdf_box(box) if box else None)
        canvas.setFont("sans", 9)
        return canvas

    def _pdf_box(self, box: Box) -> tuple[float, float, float, float]:
        left, top, right, bottom = box
        height = self.size_mm[1]
        return (left * MM, (height - bottom) * MM, right * MM, (height - top) * MM)

    def x(self, mm: float) -> float:
        """Return a distance from the left edge, in mm, as ReportLab's x."""
        return mm * MM

    def y(self, mm: float) -> float:
        """Return a distance from the top edge, in mm, as ReportLab's y (from the bottom)."""
        return (self.size_mm[1] - mm) * MM

    def rect(self, x: float, y: float, w: float, h: float, *, stroke: int, fill: int) -> None:
        """Draw the rectangle whose top-left corner is (x, y), `w` by `h`, all in mm."""
        self.canvas.rect(self.x(x), self.y(y + h), w * MM, h * MM, stroke=stroke, fill=fill)

    def text_field(
        self,
        name: str,
        rect: tuple[float, float, float, float],
        colour: Any,
        size: float = FORM_FONT_SIZE,
        *,
        tooltip: str,
    ) -> None:
        """Lay a one-line text form field named `name` over `rect` (x, y, width, height in
        points), typed in QM Sans at `size` points (less if the box is too low) in `colour`
        (a ReportLab colour). `tooltip` is what a viewer shows and a screen reader reads for
        it (/TU), in the sheet's words: the name is the program's.

        Not ReportLab's `acroForm.textfield`: that can only name a standard font, and adds
        a Helvetica font object (never embedded) for every field.
        """
        from reportlab.pdfbase.acroform import annotationFlagValues, makeFlags
        from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFString

        x, y, width, height = rect
        # a line of text with room above and below it: 1.6 of its size in the box
        size = round(max(MIN_PT, min(size, height / 1.6)), 1)
        red, green, blue = (round(float(c), 4) for c in colour.rgb())
        form = self.canvas.acroForm
        font = self._form_font_reference()
        doc = self.canvas._doc
        # an empty appearance of its own for each field: a filler (pypdf) writes the value's
        # appearance into the field's stream, so a stream shared by fields would show in all
        appearance = _stream(
            doc,
            b"/Tx BMC\nEMC",
            {
                "Type": PDFName("XObject"),
                "Subtype": PDFName("Form"),
                "BBox": PDFArray([0, 0, round(width, 3), round(height, 3)]),
                "Resources": PDFDictionary({"Font": PDFDictionary({FORM_FONT_NAME: font})}),
            },
        )
        widget = PDFDictionary(
            {
                "Type": PDFName("Annot"),
                "Subtype": PDFName("Widget"),
                "FT": PDFName("Tx"),
                "T": PDFString(name),
                "TU": PDFString(tooltip),
                "V": PDFString(""),
                "DV": PDFString(""),
                "P": doc.thisPageRef(),
                "Rect": PDFArray([round(v, 3) for v in (x, y, x + width, y + height)]),
                "F": makeFlags("print", annotationFlagValues),
                "Ff": 0,
                "DA": PDFString(f"/{FORM_FONT_NAME} {size:g} Tf {red:g} {green:g} {blue:g} rg"),
                "AP": PDFDictionary({"N": doc.Reference(appearance)}),
            }
        )
        self.canvas._addAnnotation(widget)
        form.fields.append(form.getRef(widget))

    def form_appearance(self, colour: Any, size: float = 0) -> str:
        """Return a form field's own default appearance (/DA): QM Sans, embedded and named
        in the form's resources, at `size` points (0: fitted to the box) in `colour` (a
        ReportLab colour). A field carries its own: a packet keeps no form-level /DA."""
        self._form_font_reference()
        red, green, blue = (round(float(c), 4) for c in colour.rgb())
        return f"/{FORM_FONT_NAME} {size:g} Tf {red:g} {green:g} {blue:g} rg"

    def _form_font_reference(self) -> Any:
        """Embed QM Sans for the form's fields (once a document) and name it in the
        AcroForm's resources (/DR) and default appearance (/DA); return its reference.

        The whole bundled font (itself a subset: Latin, punctuation) with WinAnsiEncoding:
        a viewer or pypdf typing into a field needs every character a player may type, not
        only those the sheet prints, and a simple 8-bit font is the one they all handle.
        """
        if self._form_font is not None:
            return self._form_font
        from reportlab.pdfbase import pdfmetrics
        from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFString

        doc = self.canvas._doc
        face: Any = pdfmetrics.getFont(FORM_FONT).face  # type: ignore[attr-defined]  # a TTFont
        data = (resource_dir("templates") / "fonts" / FONT_FILES[FORM_FONT]).read_bytes()
        program = _stream(doc, data, {"Length1": len(data)})
        descriptor = PDFDictionary(
            {
                "Type": PDFName("FontDescriptor"),
                "FontName": PDFName(FORM_FONT_NAME),
                "Flags": _NONSYMBOLIC,
                "FontBBox": PDFArray(face.bbox),
                "ItalicAngle": face.italicAngle,
                "Ascent": face.ascent,
                "Descent": face.descent,
                "CapHeight": face.capHeight,
                "StemV": face.stemV,
                "MissingWidth": face.defaultWidth,
                "FontFile2": doc.Reference(program),
            }
        )
        widths = [
            face.getCharWidth(ord(char)) if char != "\ufffd" else face.defaultWidth
            for char in _WIN_ANSI.values()
        ]
        font = PDFDictionary(
            {
                "Type": PDFName("Font"),
                "Subtype": PDFName("TrueType"),
                "BaseFont": PDFName(FORM_FONT_NAME),
                "Encoding": PDFName("WinAnsiEncoding"),
                "FirstChar": min(_WIN_ANSI),
                "LastChar": max(_WIN_ANSI),
                "Widths": PDFArray(widths),
                "FontDescriptor": doc.Reference(descriptor),
            }
        )
        self._form_font = doc.Reference(font)
        form = self.canvas.acroForm
        # ReportLab writes `extras` over its own /DR and /DA (a Helvetica, were it asked)
        form.extras["DR"] = PDFDictionary(
            {"Font": PDFDictionary({FORM_FONT_NAME: self._form_font})}
        )
        form.extras["DA"] = PDFString(f"/{FORM_FONT_NAME} 0 Tf 0 g")
        return self._form_font

    def bookmark(self, label: str, level: int, top_mm: float = 0.0) -> None:
        """Mark the current page for the outline: `label` at `level`, `top_mm` down it."""
        self.marks.append(Mark(label, level, self.pages - 1, self.y(top_mm)))

    def finish(self) -> bytes:
        """Close the last page and return the PDF bytes."""
        if self.pages == 0:
            self.new_page()
        self.canvas.save()
        return self._buffer.getvalue()


def _stream(doc: Any, content: bytes, entries: Mapping[str, Any]) -> Any:
    """Return a deflated stream of `content` with dictionary `entries`, as ReportLab's
    document `doc` will write it."""
    from reportlab.pdfbase.pdfdoc import PDFDictionary, PDFStream, PDFZCompress

    stream = PDFStream(PDFDictionary(dict(entries)), content)
    if doc.compression:
        stream.filters = [PDFZCompress]
    return stream


def source_fingerprint(*modules: str) -> str:
    """Return a hash of the source of `modules`, of the drawing code they use
    (`drawing_modules`) and of this one: a drawn sheet's cache key must change when any code
    that draws it does, a helper module beside its kind's as much as the kind's own."""
    digest = hashlib.sha256()
    for name in drawing_modules(__name__, *modules):
        digest.update(f"{name}\n".encode())
        digest.update(module_source(name))
    return digest.hexdigest()


RENDER = "generator.render"  # the drawing code: what a drawn sheet's key follows


def drawing_modules(*modules: str) -> tuple[str, ...]:
    """Return `modules` and every module of generator.render they import, directly or
    through each other (at the top or inside a function), sorted: the code a drawn sheet
    is made by. A kind's context is keyed as it is, so the rules, generators and loaders it
    calls need not be followed."""
    found: set[str] = set()
    waiting = list(modules)
    while waiting:
        name = waiting.pop()
        if name in found:
            continue
        found.add(name)
        waiting += _render_imports(name, module_source(name))
    return tuple(sorted(found))


def module_source(name: str) -> bytes:
    """Return the source of module `name` (a package: its __init__), or b"" if it has none."""
    spec = importlib.util.find_spec(name)
    origin = spec.origin if spec else None
    if not origin or not origin.endswith(".py"):
        return b""
    with open(origin, "rb") as handle:
        return handle.read()


@cache
def _render_imports(name: str, source: bytes) -> tuple[str, ...]:
    """The modules of generator.render that module `name`, of `source`, imports."""
    package = name if _is_package(name) else name.rpartition(".")[0]
    out: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # from . import x, from .y import z
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            out.append(base)
            # `from generator.render.kinds import map`: the names may be modules themselves
            if _is_package(base):
                out += [f"{base}.{alias.name}" for alias in node.names]
    return tuple(
        module
        for module in out
        if (module == RENDER or module.startswith(f"{RENDER}.")) and _is_module(module)
    )


def _is_package(name: str) -> bool:
    if not (name == RENDER or name.startswith(f"{RENDER}.")) or not _is_module(name):
        return False
    spec = importlib.util.find_spec(name)
    return spec is not None and spec.submodule_search_locations is not None


def _is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ImportError:  # a name imported from a module, not a module
        return False


LEADING = 1.2  # line height, in font sizes
MIN_PT = 7.0  # nothing is printed smaller


@dataclass(frozen=True)
class Fitted:
    """Text set to fit a box: its font, size in points and lines."""

    font: str
    size: float
    lines: tuple[str, ...]

    @property
    def line_mm(self) -> float:
        return self.size * LEADING / MM

    @property
    def height_mm(self) -> float:
        return len(self.lines) * self.line_mm


def wrap(text: str, font: str, size: float, width_mm: float) -> list[str]:
    """Break `text` into lines no wider than `width_mm` (a word too long for a line is
    broken at letters, never clipped)."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            candidate = f"{line} {word}" if line else word
            if text_width_mm(candidate, font, size) <= width_mm:
                line = candidate
                continue
            if line:
                lines.append(line)
            line = ""
            while text_width_mm(word, font, size) > width_mm and len(word) > 1:
                cut = len(word) - 1
                while cut > 1 and text_width_mm(word[:cut], font, size) > width_mm:
                    cut -= 1
                lines.append(word[:cut])
                word = word[cut:]
            line = word
        lines.append(line)
    return lines


def fit(
    text: str,
    font: str,
    width_mm: float,
    height_mm: float,
    sizes: tuple[float, ...],
    *,
    max_lines: int | None = None,
) -> Fitted | None:
    """Return `text` at the largest of `sizes` (none under 7 pt) whose lines fit the box,
    or None if none does."""
    for size in sizes:
        if size < MIN_PT:
            break
        lines = wrap(text, font, size, width_mm)
        fitted = Fitted(font, size, tuple(lines))
        if fitted.height_mm <= height_mm + 1e-6 and (max_lines is None or len(lines) <= max_lines):
            return fitted
    return None


def fit_or_refuse(
    text: str,
    font: str,
    width_mm: float,
    height_mm: float,
    sizes: tuple[float, ...],
    what: str,
    error: type[Exception] | None = None,
) -> Fitted:
    """Return `fit`'s lines, or raise `error` (default `QuartermasterError`) saying
    ``WHAT at 7 pt: TEXT`` (`what`: whose words do not fit, "card text does not fit")
    when even 7 pt does not fit the box."""
    from generator.errors import QuartermasterError

    fitted = fit(text, font, width_mm, height_mm, sizes)
    if fitted is None:
        raise (error or QuartermasterError)(f"{what} at 7 pt: {text[:60]}")
    return fitted


def write(
    drawing: Drawing,
    fitted: Fitted,
    left_mm: float,
    top_mm: float,
    width_mm: float,
    *,
    align: str = "left",
    colour: str = "ink",
) -> float:
    """Write fitted lines from `top_mm` down (the first line's cap height below it), left,
    centred or right in the box; return the mm under the last line."""
    from reportlab.lib.colors import HexColor

    canvas = drawing.canvas
    canvas.setFillColor(HexColor(drawing.colours.get(colour, colour)))
    canvas.setFont(fitted.font, fitted.size)
    line_mm = fitted.line_mm
    # the baseline of a line sits at about 0.8 of its line height
    baseline = top_mm + line_mm * 0.78
    for line in fitted.lines:
        y = drawing.y(baseline)
        if align == "center":
            canvas.drawCentredString(drawing.x(left_mm + width_mm / 2), y, line)
        elif align == "right":
            canvas.drawRightString(drawing.x(left_mm + width_mm), y, line)
        else:
            canvas.drawString(drawing.x(left_mm), y, line)
        baseline += line_mm
    return top_mm + fitted.height_mm
