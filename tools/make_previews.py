"""Render the first page of every sheet kind to docs/previews/KIND.png (for the README).

python tools/make_previews.py        # needs pdftoppm (Debian: poppler-utils)
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# kind -> (ruleset, seed or None for a blank sheet, page to show)
PREVIEWS = {
    "briefing": ("tactical", 1805, 1),
    "roster": ("tactical", 1805, 1),
    "ship-log": ("flob", 1805, 1),
    "quick-reference": ("flob", None, 1),
    "cards": ("tactical", None, 1),
    "counters": ("convoy", 1805, 1),
    "map": ("convoy", 1805, 1),
    "playsheet": ("convoy", None, 1),
    "duel-record": ("duel", 7, 1),
    "character": ("duel", 7, 1),
    "gm-notes": ("flob", 1805, 1),
}


def main() -> None:
    from generator.app import SheetRequest
    from generator.app.printed import make_sheet

    out = ROOT / "docs" / "previews"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for kind, (ruleset, seed, page) in PREVIEWS.items():
            pdf = Path(tmp) / f"{kind}.pdf"
            pdf.write_bytes(make_sheet(SheetRequest(kind, ruleset=ruleset, seed=seed)).pdf)
            subprocess.run(
                [
                    "pdftoppm",
                    "-r",
                    "45",
                    "-png",
                    "-singlefile",
                    "-f",
                    str(page),
                    "-l",
                    str(page),
                    str(pdf),
                    str(out / kind),
                ],
                check=True,
            )
            print(out / f"{kind}.png")


if __name__ == "__main__":
    main()
