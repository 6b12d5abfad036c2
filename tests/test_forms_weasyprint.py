"""The forms WeasyPrint lays out (the duel record, the character sheet), as PDF readers
see them: read back with pypdf, filled with pypdf and drawn by poppler.

Issue 22: check boxes had no /DA and only their ticked look, and the form asked readers
to draw every field (NeedAppearances), so poppler (Evince, Okular) dropped the ticks; text
fields' /DA held a `gs` operator, widget rectangles ran top to bottom, "Parry Guess
(circle one)" was three check boxes a turn, and the worn armour's tick came from whatever
system font had one.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader, PdfWriter
from pypdf.generic import DictionaryObject

from generator.generate.duel import roll_character
from generator.loading import Rules
from generator.render.sheets import render_sheet
from tests.pdfs import fields, read

# (kind, seed of the duellist or None for a blank sheet, paper, mono)
FORMS = [
    ("character", None, "a4", False),
    ("character", 654, "letter", True),
    ("duel-record", None, "letter", False),
    ("duel-record", 654, "a4", True),
]
RADIO = 1 << 15  # /Ff: a radio button
NO_TOGGLE_TO_OFF = 1 << 14
# the bundled fonts, as WeasyPrint names them: a subset tag and the family
PROJECT_FONT = re.compile(r"^/[A-Z]{6}\+QM-?(Sans|Serif)(-\w+)?$")
# what a /DA may hold: a font and size (Tf) and a colour (ISO 32000-1, 12.7.3.3)
DA_OPERATORS = {"Tf", "g", "rg", "k"}


def da_font(da: str) -> str:
    """Return the font resource a /DA names; fail on any operator a /DA may not hold."""
    tokens = da.split()
    operators = [t for t in tokens if not t.startswith("/") and not re.fullmatch(r"[\d.]+", t)]
    assert set(operators) <= DA_OPERATORS and operators.count("Tf") == 1, da
    tf = tokens.index("Tf")
    assert tokens[tf - 2].startswith("/"), da
    return tokens[tf - 2]


@pytest.fixture(scope="module")
def forms(rules: Rules) -> dict[tuple[str, int | None, str, bool], bytes]:
    made = {}
    for kind, seed, paper, mono in FORMS:
        data = roll_character(rules, seed) if seed is not None else None
        made[kind, seed, paper, mono] = render_sheet(
            kind, rules, data=data, paper=paper, mono=mono, fillable=True
        )
    return made


def widgets(reader: PdfReader) -> Iterator[tuple[DictionaryObject, DictionaryObject]]:
    """Every widget, with the field it belongs to."""
    for page in reader.pages:
        for annot in page.get("/Annots") or []:
            widget = annot.get_object()
            if widget.get("/Subtype") == "/Widget":
                yield widget, widget["/Parent"].get_object() if "/Parent" in widget else widget


def embedded(font: DictionaryObject) -> bool:
    """Whether a font's program is in the file (a composite font's, in its descendant)."""
    if font.get("/Subtype") == "/Type0":
        font = font["/DescendantFonts"][0].get_object()
    descriptor = font.get("/FontDescriptor")
    return descriptor is not None and any(
        key in descriptor.get_object() for key in ("/FontFile", "/FontFile2", "/FontFile3")
    )


def fonts_used(reader: PdfReader) -> dict[str, DictionaryObject]:
    """Every font the pages, their form XObjects and the fields' looks name (as pdffonts
    lists them), and those of the form's resources, by their /BaseFont."""
    found: dict[str, DictionaryObject] = {}

    def walk(resources: Any, seen: set[int]) -> None:
        resources = resources.get_object() if resources is not None else None
        if not resources or id(resources) in seen:
            return
        seen.add(id(resources))
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            found[str(font["/BaseFont"])] = font
        for xobject in (resources.get("/XObject") or {}).values():
            walk(xobject.get_object().get("/Resources"), seen)

    seen: set[int] = set()
    for page in reader.pages:
        walk(page.get("/Resources"), seen)
        for widget, _field in widgets_of(page):
            for look in appearances(widget).values():
                walk(look.get("/Resources"), seen)
    acroform = reader.trailer["/Root"].get("/AcroForm")
    walk(acroform.get_object().get("/DR") if acroform else None, seen)
    return found


def widgets_of(page: Any) -> Iterator[tuple[DictionaryObject, DictionaryObject]]:
    for annot in page.get("/Annots") or []:
        widget = annot.get_object()
        if widget.get("/Subtype") == "/Widget":
            yield widget, widget["/Parent"].get_object() if "/Parent" in widget else widget


def appearances(widget: DictionaryObject) -> dict[str, Any]:
    """A widget's normal looks by state (a text field's one look as "")."""
    normal = widget.get("/AP", {}).get("/N")
    if normal is None:
        return {}
    normal = normal.get_object()
    if "/BBox" in normal:  # a stream: one look
        return {"": normal}
    return {str(state): look.get_object() for state, look in normal.items()}


@pytest.mark.parametrize("form", FORMS, ids=lambda f: "-".join(map(str, f)))
def test_the_form_draws_its_own_fields(forms: dict[Any, bytes], form: Any) -> None:
    """No reader is asked to draw the fields (poppler then drops what it cannot draw):
    every widget has its looks, its /Rect runs [left bottom right top], and every field's
    /DA names an embedded font of the sheet's own, with no graphics state operator."""
    reader = read(forms[form])
    acroform = reader.trailer["/Root"]["/AcroForm"]
    assert not acroform.get("/NeedAppearances")
    resources = acroform["/DR"].get_object()["/Font"].get_object()
    count = 0
    for widget, field in widgets(reader):
        count += 1
        x0, y0, x1, y1 = (float(v) for v in widget["/Rect"])
        assert x0 < x1 and y0 < y1, (field.get("/T"), widget["/Rect"])
        looks = appearances(widget)
        assert looks, field.get("/T")
        for look in looks.values():
            width, height = (float(v) for v in look["/BBox"][2:])
            assert (round(width, 2), round(height, 2)) == (round(x1 - x0, 2), round(y1 - y0, 2))
        da = str(widget.get("/DA") or field["/DA"])
        assert " gs" not in da, da
        font = resources[da_font(da)].get_object()
        assert PROJECT_FONT.match(str(font["/BaseFont"])) and embedded(font), da
    assert count > 40


@pytest.mark.parametrize("form", FORMS, ids=lambda f: "-".join(map(str, f)))
def test_every_check_box_has_an_off_and_an_on_look(forms: dict[Any, bytes], form: Any) -> None:
    reader = read(forms[form])
    boxes = [
        (widget, field)
        for widget, field in widgets(reader)
        if field.get("/FT") == "/Btn" and not int(field.get("/Ff", 0)) & RADIO
    ]
    assert len(boxes) >= 24  # the hit points at least
    for widget, field in boxes:
        looks = appearances(widget)
        assert set(looks) == {"/Off", "/on"}, field["/T"]
        assert widget["/AS"] == field["/V"] == "/Off"
        assert looks["/on"].get_data().strip() and not looks["/Off"].get_data().strip()


@pytest.mark.parametrize("seed", [None, 654])
def test_the_parry_guess_is_one_choice_a_turn(forms: dict[Any, bytes], seed: int | None) -> None:
    """Parry Guess (circle one) is a radio group a turn: one field, three buttons named by
    their word, none of them a field of its own."""
    (form,) = [f for f in forms if f[0] == "duel-record" and f[1] == seed]
    reader = read(forms[form])
    acroform = reader.trailer["/Root"]["/AcroForm"]
    listed = {id(f.get_object()) for f in acroform["/Fields"]}
    guesses = {str(f["/T"]): f for f in fields(reader) if str(f["/T"]).endswith("_parry_guess")}
    assert list(guesses) == [f"t{turn}_parry_guess" for turn in range(1, 43)]
    for name, group in guesses.items():
        assert group["/FT"] == "/Btn" and int(group["/Ff"]) == RADIO | NO_TOGGLE_TO_OFF, name
        assert group["/V"] == "/Off" and "/Opt" not in group and id(group) in listed
        states = []
        for kid in group["/Kids"]:
            button = kid.get_object()
            assert "/T" not in button and "/FT" not in button and id(button) not in listed
            looks = appearances(button)
            assert button["/AS"] == "/Off" and "/Off" in looks and len(looks) == 2, name
            states += [state for state in looks if state != "/Off"]
        assert states == ["/thrust", "/slash", "/lunge"], name


@pytest.mark.parametrize("form", FORMS, ids=lambda f: "-".join(map(str, f)))
def test_every_font_is_embedded_and_the_projects_own(
    forms: dict[Any, bytes], form: Any, rules: Rules
) -> None:
    """The worn armour's tick once came from a system font (DejaVu Sans Bold here): what
    pdffonts lists is only QM Sans and QM Serif, all embedded."""
    for pdf in (forms[form], render_sheet(form[0], rules, data=roll_character(rules, 7))):
        found = fonts_used(read(pdf))
        assert found
        assert {name for name in found if not PROJECT_FONT.match(name)} == set()
        assert {name for name, font in found.items() if not embedded(font)} == set()


def fill(pdf: bytes, values: dict[str, str]) -> bytes:
    """Fill a form as a program would, with pypdf, which draws each text field's look
    itself; the form's own NeedAppearances is left as the sheet wrote it, so poppler draws
    the fields over again exactly when a reader filling the sheet in place would."""
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    writer.update_page_form_field_values(None, values, auto_regenerate=None)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def ink(png: Path, rect: tuple[float, float, float, float], page_height: float) -> int:
    """Count the dark pixels of a 80 dpi page image inside a PDF rectangle (pt)."""
    from PIL import Image

    scale = 80 / 72
    left, right = sorted(rect[0::2])
    bottom, top = sorted(rect[1::2])
    with Image.open(png) as image:
        box = (
            left * scale,
            (page_height - top) * scale,
            right * scale,
            (page_height - bottom) * scale,
        )
        region = image.convert("L").crop(tuple(round(v) for v in box))
        return sum(region.histogram()[:140])


def poppler_page(pdf: bytes, folder: Path, name: str) -> Path:
    """Draw a PDF's first page with poppler's pdftoppm at 80 dpi."""
    source = folder / f"{name}.pdf"
    source.write_bytes(pdf)
    subprocess.run(
        [
            "pdftoppm",
            "-r",
            "80",
            "-png",
            "-f",
            "1",
            "-l",
            "1",
            "-singlefile",
            source,
            folder / name,
        ],
        check=True,
        capture_output=True,
    )
    return folder / f"{name}.png"


# CI installs poppler (.ci/run) and must run this: skipped only on a machine without it
@pytest.mark.skipif(
    shutil.which("pdftoppm") is None and not os.environ.get("CI"), reason="needs poppler's pdftoppm"
)
@pytest.mark.parametrize(
    ("kind", "values"),
    [
        (
            "character",
            {"name": "Paolo Trevisan", "attr_strength": "12", "hp_1": "/on", "hp_2": "/on",
             "armour_2": "/on", "wound_head_and_chest_flank_1": "/on", "useless_left_leg": "/on"},
        ),
        (
            "duel-record",
            {"name": "Paolo Trevisan", "t1_opponent": "Don Alvaro", "hp_1": "/on",
             "t1_parry_guess": "/slash", "t2_parry_guess": "/lunge"},
        ),
    ],
)  # fmt: skip
def test_a_form_filled_with_pypdf_shows_its_values_in_poppler(
    rules: Rules, tmp_path: Path, kind: str, values: dict[str, str]
) -> None:
    blank = render_sheet(kind, rules, fillable=True)
    filled = fill(blank, values)
    reader = read(filled)
    states = {}
    for widget, field in widgets(reader):
        name = str(field["/T"])
        if name in values and field["/FT"] == "/Btn":
            states.setdefault(name, set()).add(str(widget["/AS"]))
    for name, value in values.items():
        if value.startswith("/"):
            assert value in states[name], name
    before = poppler_page(blank, tmp_path, "blank")
    after = poppler_page(filled, tmp_path, "filled")
    height = float(reader.pages[0].mediabox.height)
    for widget, field in widgets_of(reader.pages[0]):
        name = str(field["/T"])
        if name not in values:
            continue
        rect = tuple(float(v) for v in widget["/Rect"])
        shown = widget.get("/AS") != "/Off" if field["/FT"] == "/Btn" else True
        gained = ink(after, rect, height) - ink(before, rect, height)
        if shown:
            assert gained > 5, (name, widget.get("/AS"), gained)
        else:
            assert gained == 0, (name, widget.get("/AS"), gained)
