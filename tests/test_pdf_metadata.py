"""What every PDF says about itself, and the fonts it carries: the language and a title on
every sheet, a font program per subset name in a packet, and the drawn logs' form fields
typed in the bundled font, embedded once."""

from __future__ import annotations

import hashlib
import io
from collections import defaultdict
from typing import Any

import pytest
from pypdf import PdfReader, PdfWriter
from pypdf.generic import BooleanObject

from generator.generate.scenario import roll_scenario
from generator.loading import Rules
from generator.render.draw import FORM_FONT_NAME, subset_tag
from generator.render.sheets import drawn_pdf, sheet_kinds
from tests.fullest import fillable_packet, fullest, fullest_packet, variants
from tests.layouts import printed_sheet
from tests.pdfs import read


def all_objects(reader: PdfReader) -> list[Any]:
    """Every indirect object of the file, resolved."""
    found = []
    for number in range(1, int(reader.trailer["/Size"])):
        try:
            found.append(reader.get_object(number))
        except Exception:  # a free entry of the cross-reference table
            continue
    return [obj for obj in found if obj is not None]


def fonts(reader: PdfReader) -> list[Any]:
    """Every font dictionary of the file (a composite font's descendant in its place)."""
    found = []
    for obj in all_objects(reader):
        if hasattr(obj, "get") and obj.get("/Type") == "/Font":
            if obj.get("/Subtype") == "/Type0":
                continue  # its descendant, a font dictionary too, carries the program
            found.append(obj)
    return found


def program(font: Any) -> bytes | None:
    """The embedded font program of `font`, or None when it is not embedded."""
    descriptor = font.get("/FontDescriptor")
    if descriptor is None:
        return None
    descriptor = descriptor.get_object()
    for key in ("/FontFile2", "/FontFile3", "/FontFile"):
        if key in descriptor:
            return bytes(descriptor[key].get_object().get_data())
    return None


def programs_by_name(reader: PdfReader) -> dict[str, set[str]]:
    """Each BaseFont name and the hashes of the font programs embedded under it."""
    names: dict[str, set[str]] = defaultdict(set)
    for font in fonts(reader):
        data = program(font)
        names[str(font["/BaseFont"])].add(hashlib.sha256(data).hexdigest() if data else "none")
    return names


def test_subset_tag_is_six_capitals_of_the_subset_and_the_font() -> None:
    lato, garamond = hashlib.sha256(b"lato").digest(), hashlib.sha256(b"garamond").digest()
    tag = subset_tag(lato, [0, 32, 65, 66])
    assert len(tag) == 6 and tag.isalpha() and tag.isupper()
    assert subset_tag(lato, [0, 32, 65, 66]) == tag, "the same subset, the same tag"
    others = {
        subset_tag(lato, [0, 32, 65, 67]),  # another character
        subset_tag(lato, [0, 32, 66, 65]),  # the same characters at other codes
        subset_tag(garamond, [0, 32, 65, 66]),  # another font
    }
    assert tag not in others and len(others) == 3


def sheet_cases() -> list[tuple[str, str]]:
    return [(kind, variant) for kind in sheet_kinds() for variant in variants(kind)]


@pytest.mark.parametrize(("kind", "variant"), sheet_cases())
def test_every_sheet_says_its_language_and_what_it_is(
    kind: str, variant: str, rules: Rules
) -> None:
    sheet = sheet_kinds()[kind]
    ruleset = "tactical" if "tactical" in sheet.rulesets else sheet.rulesets[0]
    # the fullest data, as the print check renders it (the session lays a sheet out once)
    data = fullest(kind, ruleset, rules) if variant != "blank" else None
    reader = read(printed_sheet(kind, rules, data=data, ruleset=ruleset))
    assert reader.root_object.get("/Lang") == "en"
    assert displays_its_title(reader), "a viewer would show the file's name"
    assert reader.metadata is not None
    title = str(reader.metadata.title)
    assert title.startswith(sheet.title), title
    if data is not None:
        assert title.endswith(f" — {data.get('title') or data['name']}"), title


def displays_its_title(reader: PdfReader) -> bool:
    """Whether the file asks a viewer to show its title rather than its file name."""
    preferences = reader.root_object.get("/ViewerPreferences")
    if preferences is None:
        return False
    flag = preferences.get_object().get("/DisplayDocTitle")
    return isinstance(flag, BooleanObject) and flag.value is True


@pytest.mark.parametrize("ruleset", ["flob", "duel"])
def test_a_packet_asks_viewers_to_show_its_title(ruleset: str, rules: Rules) -> None:
    reader = read(fullest_packet(rules, ruleset, "a4"))
    assert displays_its_title(reader)
    assert reader.metadata is not None and reader.metadata.title


def test_a_packet_gives_each_font_program_a_name_of_its_own(rules: Rules) -> None:
    """ReportLab named the subsets of each drawing AAAAAA+, AAAAAB+ ...: the packet's
    drawn sheets, its cards and its spare log each had an AAAAAA+QMSans, and a reader that
    takes a font by its name could set one sheet's text with another's glyphs."""
    reader = read(fullest_packet(rules, "flob", "letter"))
    names = programs_by_name(reader)
    assert sum(name.endswith("+QMSans") for name in names) > 1, "several subsets of QM Sans"
    shared = {name: len(found) for name, found in names.items() if len(found) > 1}
    assert shared == {}, "one name, different font programs"
    assert "none" not in {h for found in names.values() for h in found}, "a font not embedded"


@pytest.fixture(scope="module")
def fillable_log(rules: Rules) -> bytes:
    return drawn_pdf("ship-log", rules, data=roll_scenario(rules, "flob", 5), fillable=True)


def text_widgets(reader: PdfReader) -> list[Any]:
    return [
        annotation.get_object()
        for page in reader.pages
        for annotation in page.get("/Annots") or []
        if annotation.get_object().get("/FT") == "/Tx"
    ]


def test_a_fillable_log_types_in_the_bundled_font_embedded_once(
    fillable_log: bytes, rules: Rules
) -> None:
    """The fields were Helvetica, never embedded, a font object for each (540 in a log)."""
    reader = read(fillable_log)
    found = fonts(reader)
    names = [str(font["/BaseFont"]).lstrip("/") for font in found]
    assert all(program(font) for font in found), "every font embedded"
    assert all(name.split("+")[-1].startswith(("QMSans", "QMSerif")) for name in names), names
    assert len(names) == len(set(names)) <= 8
    form = reader.root_object["/AcroForm"].get_object()
    resources = form["/DR"].get_object()["/Font"].get_object()
    assert list(resources) == [f"/{FORM_FONT_NAME}"]
    form_font = resources[f"/{FORM_FONT_NAME}"].get_object()
    assert form_font["/Encoding"] == "/WinAnsiEncoding"
    # the whole bundled font: a player types what the sheet never printed
    whole = (rules_fonts_dir() / "QMSans-Lato-Regular.ttf").read_bytes()
    assert program(form_font) == whole
    assert str(form["/DA"]).startswith(f"/{FORM_FONT_NAME} ")
    widgets = text_widgets(reader)
    assert len(widgets) > 100
    for widget in widgets:
        font, size, operator = str(widget["/DA"]).split()[:3]
        assert (font, operator) == (f"/{FORM_FONT_NAME}", "Tf")
        assert 7 <= float(size) <= 9
        # (a box lower than the text's line would crop it)
        rect = [float(v) for v in widget["/Rect"]]
        assert rect[3] - rect[1] >= float(size) * 1.6 - 0.05
    appearances = [widget["/AP"].raw_get("/N").idnum for widget in widgets]
    assert len(appearances) == len(set(appearances)), "a filler writes into each field's own"
    assert "Helvetica" not in fillable_log.decode("latin-1")


def rules_fonts_dir() -> Any:
    from generator.resources import resource_dir

    return resource_dir("templates") / "fonts"


def test_a_log_filled_with_pypdf_shows_each_value_in_its_own_field(fillable_log: bytes) -> None:
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(fillable_log)))
    page = writer.pages[0]
    widgets = text_widgets(PdfReader(io.BytesIO(fillable_log)))
    first, second = (str(widget["/T"]) for widget in widgets[:2])
    writer.update_page_form_field_values(page, {first: "Défiance"}, auto_regenerate=False)
    out = io.BytesIO()
    writer.write(out)
    filled = read(out.getvalue())
    looks = {str(widget["/T"]): widget["/AP"]["/N"].get_object() for widget in text_widgets(filled)}
    stream = looks[first].get_data()
    assert f"/{FORM_FONT_NAME} ".encode() in stream
    assert "Défiance".encode("cp1252") in stream, "set in the form font's WinAnsi codes"
    used = looks[first]["/Resources"]["/Font"][f"/{FORM_FONT_NAME}"].get_object()
    assert program(used), "the appearance uses the embedded font"
    assert "Défiance".encode("cp1252") not in looks[second].get_data()


def test_a_fillable_log_is_the_same_bytes_again(fillable_log: bytes, rules: Rules) -> None:
    again = drawn_pdf("ship-log", rules, data=roll_scenario(rules, "flob", 5), fillable=True)
    assert again == fillable_log


def embedded(font: Any) -> bool:
    """Whether `font` (a composite font through its descendant) carries its program."""
    if font.get("/Subtype") == "/Type0":
        font = font["/DescendantFonts"][0].get_object()
    return program(font) is not None


def field_entry(widget: Any, key: str) -> Any:
    """`key` of a widget's field: its own, or inherited from the fields above it."""
    node = widget
    while node is not None:
        if key in node:
            return node[key]
        parent = node.get("/Parent")
        node = parent.get_object() if parent is not None else None
    return None


def test_every_field_of_a_fillable_packet_names_an_embedded_form_font(rules: Rules) -> None:
    """The drawn logs' 635 check boxes leaned on their own file's form-level /DA, which the
    packet does not keep, and their caption (/MK /CA) was ZapfDingbats' "5" under a QM Sans
    /DA: a viewer rebuilding the look had no font, or would print a "5"."""
    reader = read(fillable_packet(rules, "high-seas"))
    form = reader.root_object["/AcroForm"].get_object()
    resources = form["/DR"].get_object()["/Font"].get_object()
    widgets = [
        annotation.get_object()
        for page in reader.pages
        for annotation in page.get("/Annots") or []
        if annotation.get_object().get("/Subtype") == "/Widget"
    ]
    kinds = {str(field_entry(widget, "/FT")) for widget in widgets}
    assert {"/Tx", "/Btn"} <= kinds, kinds
    missing, unknown = 0, set()
    for widget in widgets:
        appearance = field_entry(widget, "/DA")
        if appearance is None:
            missing += 1
            continue
        operands = str(appearance).split()
        font = operands[operands.index("Tf") - 2]
        if font not in resources or not embedded(resources[font].get_object()):
            unknown.add(font)
        caption = widget.get("/MK", {}).get("/CA")
        assert caption in (None, ""), f"a caption {caption!r} the /DA's font would print"
    assert missing == 0, f"{missing} of {len(widgets)} fields without a /DA"
    assert unknown == set(), "fonts not in the form's /DR, or not embedded"
