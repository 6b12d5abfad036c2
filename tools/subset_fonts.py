"""Make the bundled fonts: subset EB Garamond and Lato to what the sheets can print.

Run once when the fonts change (needs fontTools, which WeasyPrint brings):

    python tools/subset_fonts.py /usr/share/fonts/opentype/ebgaramond /usr/share/fonts/truetype/lato

Why: WeasyPrint subsets every embedded font per PDF; with the full fonts (Lato's large
kerning tables) that took 3 of the 4 seconds of a one-page sheet. Keeping Latin (up to
Extended-A), typographic punctuation, arrows and the few symbols the rules use, and only
the kerning and figure features, makes that step cheap. The OFL counts a subset as a
Modified Version, and Lato's licence reserves its name, so the files are renamed to the
families the stylesheet uses ("QM Serif", "QM Sans"); the licences are kept beside them.
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont
from truetype_fonts import convert

TARGET = Path(__file__).resolve().parents[1] / "templates" / "fonts"
UNICODES = [
    *range(0x20, 0x7F),  # Basic Latin
    *range(0xA0, 0x180),  # Latin-1 Supplement, Latin Extended-A
    *range(0x2010, 0x2028),  # dashes, quotes, bullets, ellipsis
    *range(0x2030, 0x203B),  # per mille, primes, guillemets
    *range(0x2190, 0x2196),  # arrows
    0x2212,
    0x2264,
    0x2265,
    0x2248,
    0x2260,
    0x00D7,
    0x2022,
    0x2713,
    0x25CB,
    0x25CF,
    0x0218,
    0x0219,
    0x021A,
    0x021B,  # Ș ș Ț ț
]
FONTS = {
    "EBGaramond12-Regular.otf": ("QM Serif", "Regular"),
    "EBGaramond12-Italic.otf": ("QM Serif", "Italic"),
    "Lato-Regular.ttf": ("QM Sans", "Regular"),
    "Lato-Bold.ttf": ("QM Sans", "Bold"),
    "Lato-Italic.ttf": ("QM Sans", "Italic"),
    "Lato-BoldItalic.ttf": ("QM Sans", "Bold Italic"),
}


def rename(font: TTFont, family: str, style: str) -> None:
    """Give the font a family name of its own (OFL: modified versions change the name)."""
    full = f"{family} {style}".replace(" Regular", "")
    postscript = full.replace(" ", "")
    for record in font["name"].names:
        if record.nameID in (1, 16):
            record.string = family
        elif record.nameID in (2, 17):
            record.string = style
        elif record.nameID == 4:
            record.string = full
        elif record.nameID == 6:
            record.string = postscript
        elif record.nameID == 3:
            record.string = f"Quartermaster subset: {postscript}"


def main(sources: list[str]) -> None:
    options = subset.Options()
    # no ligatures: their glyphs lose the text they stand for in the PDF ("ti" read back as "ǎ")
    options.layout_features = ["kern", "lnum", "tnum"]
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.glyph_names = False
    options.hinting = False
    for name, (family, style) in FONTS.items():
        source = next((Path(d) / name for d in sources if (Path(d) / name).is_file()), None)
        if source is None:
            sys.exit(f"{name} not found in {', '.join(sources)}")
        font = TTFont(source)
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=UNICODES)
        subsetter.subset(font)
        rename(font, family, style)
        out = TARGET / name.replace("EBGaramond12", "QMSerif-EBGaramond").replace(
            "Lato", "QMSans-Lato"
        )
        font.save(out)
        if out.suffix == ".otf":
            # one copy that both engines embed: ReportLab cannot embed CFF outlines
            convert(out, out.with_suffix(".ttf"))
            out.unlink()
            out = out.with_suffix(".ttf")
        print(f"{out.name}: {out.stat().st_size // 1024} KiB")


if __name__ == "__main__":
    main(sys.argv[1:])
