"""One page-numbering style on every sheet WeasyPrint lays out: "Page N of M" in the footer
of every page, a one-page sheet included ("Page 1 of 1"), with the page's own name first
where it has one ("Turns 1–21 · Page 1 of 2", "Front · Page 1 of 2").

Issue 22: the duel record said "Front · turns 1-21", the playsheet "Front"/"Back" in its
heading, and the GM notes, the character sheet, the briefing and the batch index had no page
numbers at all, while the rosters and quick references said "Page 1 of 2".
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.loading import Rules
from generator.pdf.batch import BatchOptions, write_index
from generator.render.pagenumbers import SEPARATOR, page_label
from generator.render.sheets import get_kind, render_sheet, sheet_kinds
from generator.rulesets import serving
from tests.fullest import fullest
from tests.layouts import printed_sheet
from tests.pdfs import page_text, read

PAPERS = ("a4", "letter")
# every label the footers print, and the name before it if the page has one
LABEL = re.compile(r"(?:(\S+(?: \S+)?)" + re.escape(SEPARATOR) + r")?Page (\d+) of (\d+)")
# what each page of a sheet whose pages have names is called, in page order
DUEL_RECORD_NAMES = ["Turns 1–21", "Turns 22–42"]
PLAYSHEET_NAMES = ["Front", "Back"]
NAMES = {"duel-record": DUEL_RECORD_NAMES, "playsheet": PLAYSHEET_NAMES}
# the kinds made from a scenario, and those made from a duellist
FROM_SCENARIO = ("briefing", "roster", "playsheet")
FROM_CHARACTER = ("character", "duel-record")


def laid_out() -> list[str]:
    """Every sheet kind WeasyPrint lays out from a template (the others are drawn)."""
    return [name for name in sheet_kinds() if not get_kind(name).drawn]


def cases() -> list[tuple[str, str, str]]:
    """(kind, ruleset, paper): each laid-out kind for each ruleset it serves, on each paper."""
    return [(k, r, p) for k in laid_out() for r in serving(k) for p in PAPERS]


def labels(reader: PdfReader) -> list[list[tuple[str, int, int]]]:
    """Each page's labels: (name or "", N, M) for every "Page N of M" it prints."""
    return [
        [(name or "", int(n), int(m)) for name, n, m in LABEL.findall(page_text(page))]
        for page in reader.pages
    ]


def assert_numbered(reader: PdfReader, kind: str) -> None:
    """Every page carries one label, "Page N of M" with its own N and the sheet's M, and
    its name first if the kind names its pages."""
    total = len(reader.pages)
    names = NAMES.get(kind)
    expected = [[(names[n - 1] if names else "", n, total)] for n in range(1, total + 1)]
    found = labels(reader)
    if names is None:
        # a plain label may follow any word: only the number is the label's
        found = [[("", n, m) for _, n, m in page] for page in found]
    assert found == expected, kind
    for number, page in enumerate(reader.pages, start=1):
        name = names[number - 1] if names else None
        assert page_label(number, total, name) in page_text(page)


def test_the_cases_cover_every_laid_out_kind() -> None:
    """A new kind laid out by WeasyPrint is numbered too (the cases come from sheets/)."""
    kinds = {kind for kind, _, _ in cases()}
    assert kinds == set(laid_out())
    assert {"briefing", "character", "duel-record", "gm-notes", "playsheet"} <= kinds


@pytest.mark.parametrize(("kind", "ruleset", "paper"), cases())
def test_every_page_says_page_n_of_m(rules: Rules, kind: str, ruleset: str, paper: str) -> None:
    if kind in FROM_SCENARIO or kind in FROM_CHARACTER:
        # the fullest data (the most pages), rendered as the print check renders it: the
        # session lays each sheet out once (tests/conftest.py)
        data = fullest(kind, ruleset, rules)
        filled = read(printed_sheet(kind, rules, data=data, ruleset=ruleset, paper=paper))
        assert_numbered(filled, kind)
    if kind != "briefing":  # the briefing is always of a scenario
        blank = read(printed_sheet(kind, rules, ruleset=ruleset, paper=paper, fillable=False))
        assert_numbered(blank, kind)


def test_sheets_of_several_pages_count_them(rules: Rules) -> None:
    """N and M are counted, not printed as 1 of 1: sheets that run to several pages."""
    pages = {
        kind: len(read(render_sheet(kind, rules, ruleset=ruleset)).pages)
        for kind, ruleset in (("gm-notes", "flob"), ("duel-record", "duel"))
    }
    assert pages["gm-notes"] >= 3 and pages["duel-record"] == 2


@pytest.mark.parametrize("paper", PAPERS)
def test_the_batch_index_numbers_its_pages(tmp_path: Path, paper: str) -> None:
    """The batch index runs to as many pages as the batch has rows; each is numbered."""
    options = BatchOptions(("flob", "duel"), 9, 90, paper=paper)
    packets = [
        {
            "index": n,
            "ruleset": options.ruleset(n - 1),
            "seed": 9000 + n,
            "title": f"Action off Cape Ortegal, number {n}",
            "sides": ["Royal Navy", "Marine Royale"],
            "strengths": [120 + n, 118 + n],
            "file": f"{n:03d}-{options.ruleset(n - 1)}-{9000 + n}.pdf",
            "pages": 14,
        }
        for n in range(1, options.count + 1)
    ]
    reader = PdfReader(write_index(tmp_path, options, packets))
    assert len(reader.pages) >= 2
    assert_numbered(reader, "batch-index")
