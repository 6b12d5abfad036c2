"""Convert an OpenType font with PostScript (CFF) outlines to TrueType.

EB Garamond ships with CFF outlines, which ReportLab cannot embed. tools/subset_fonts.py
converts the subset serif with `convert`, so the one bundled file serves both engines:
quadratic outlines (fontTools' cu2qu, within a thousandth of an em), every glyph, metric,
name and kerning table kept, so WeasyPrint and ReportLab set the same letters at the same
widths. Run alone, it converts any QMSerif-*.otf left in templates/fonts.
"""

from __future__ import annotations

from pathlib import Path

from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont, newTable

FONTS = Path(__file__).resolve().parents[1] / "templates" / "fonts"
MAX_ERROR_EM = 0.001  # how far a quadratic outline may stray from the cubic one


def convert(source: Path, target: Path) -> None:
    """Write `source` (an OpenType font with CFF outlines) as TrueType to `target`."""
    font = TTFont(source)
    order = font.getGlyphOrder()
    glyphs = font.getGlyphSet()
    max_error = font["head"].unitsPerEm * MAX_ERROR_EM
    glyf = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = {}
    for name in order:
        pen = TTGlyphPen(glyphs)
        glyphs[name].draw(Cu2QuPen(pen, max_error, reverse_direction=True))
        glyf[name] = pen.glyph()
    font["glyf"] = glyf
    font["loca"] = newTable("loca")
    for tag in ("CFF ", "VORG"):
        if tag in font:
            del font[tag]
    font["maxp"] = maxp = newTable("maxp")
    maxp.tableVersion = 0x00010000
    for field in (
        "maxZones", "maxTwilightPoints", "maxStorage", "maxFunctionDefs",
        "maxInstructionDefs", "maxStackElements", "maxSizeOfInstructions",
        "maxComponentElements",
    ):  # fmt: skip
        setattr(maxp, field, 0)
    maxp.maxZones = 1
    font["head"].glyphDataFormat = 0
    post = font["post"]
    post.formatType = 2.0
    post.extraNames = []
    post.mapping = {}
    post.glyphOrder = order
    font.sfntVersion = "\x00\x01\x00\x00"
    font.recalcBBoxes = True
    font.save(target)


def main() -> None:
    for source in sorted(FONTS.glob("QMSerif-*.otf")):
        target = source.with_suffix(".ttf")
        convert(source, target)
        source.unlink()
        print(f"wrote {target.name}")


if __name__ == "__main__":
    main()
