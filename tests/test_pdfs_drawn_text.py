"""The tests' two readers of a page's text positions agree (tests/pdfs.py): PDFium's text
objects (`drawn_text`) start wherever a run of pypdf's walk (`runs`) starts, at its size,
and hold the same words."""

from __future__ import annotations

import pytest

from generator.loading import Rules
from generator.render.sheets import static_sheet_pdf
from tests.fullest import fullest
from tests.layouts import printed_sheet
from tests.pdfs import drawn_text, read, runs


@pytest.mark.parametrize(("kind", "ruleset"), [("roster", "tactical"), ("cards", "tactical")])
def test_every_run_starts_at_a_text_object_of_its_size(
    rules: Rules, kind: str, ruleset: str
) -> None:
    # sheets other tests print too (laid out by WeasyPrint, drawn by ReportLab)
    if kind == "roster":
        data = fullest(kind, ruleset, rules)
        pdf = printed_sheet(kind, rules, data=data, ruleset=ruleset, paper="letter")
    else:
        pdf = static_sheet_pdf(kind, rules, ruleset=ruleset, paper="a4")
    reader = read(pdf)
    for page in reader.pages:
        drawn, walked = drawn_text(page), runs(page)
        assert len(drawn) >= len(walked) > 10
        for run in walked:
            # PDFium gives positions as 32-bit floats: the same to a hundredth of a point
            assert any(
                max(abs(r.x - run.x), abs(r.y - run.y), abs(r.size - run.size)) < 0.01
                for r in drawn
            ), run
        # the same words, pypdf's joined along their lines
        assert sorted(" ".join(r.text for r in walked).split()) == sorted(
            " ".join(r.text for r in drawn).replace("\x02", "-").split()
        )
