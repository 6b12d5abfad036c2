"""The paper the sheets print on: its size, its page margins and the printable area inside.

Every sheet, laid out or drawn, takes its page from here (`get_paper`), so A4 and Letter
are each described once: the templates' @page rule, the drawn sheets' canvas and the
geometry that fills the printable area (map tiles, counters, the briefing's overview).
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.errors import InputError


@dataclass(frozen=True)
class Paper:
    """A paper size: its name (as --paper gives it), its CSS page size, its size and its
    page margins (mm, top and bottom alike, left and right alike)."""

    name: str
    css: str
    size_mm: tuple[float, float]  # width, height
    margin_mm: tuple[float, float]  # top and bottom, left and right

    @property
    def width_mm(self) -> float:
        return self.size_mm[0]

    @property
    def height_mm(self) -> float:
        return self.size_mm[1]

    @property
    def printable_mm(self) -> tuple[float, float]:
        """The width and height inside the page margins."""
        down, across = self.margin_mm
        return (self.width_mm - 2 * across, self.height_mm - 2 * down)

    @property
    def css_margin(self) -> str:
        """The page margins as CSS gives them ("10mm 11mm")."""
        down, across = self.margin_mm
        return f"{down:g}mm {across:g}mm"


PAPERS: dict[str, Paper] = {
    paper.name: paper
    for paper in (
        Paper("a4", "A4", (210.0, 297.0), (10.0, 11.0)),
        Paper("letter", "letter", (215.9, 279.4), (10.0, 11.0)),
    )
}


def get_paper(name: str) -> Paper:
    """Return the paper `name` (any case), or raise the --paper error naming the choices."""
    found = PAPERS.get(name.lower())
    if found is None:
        raise InputError(f"--paper {name}: choose {' or '.join(PAPERS)}")
    return found
