"""The tests' two readers of a page's text positions agree (tests/pdfs.py): PDFium's text
objects (`drawn_text`) start wherever a run of pypdf's walk (`runs`) starts, at its size,
and hold the same words."""

from __future__ import annotations

import pytest

from generator.loading import Rules
from generator.render.sheets import render_sheet
from tests.fullest import fullest
from tests.pdfs import drawn_text, read, runs


@pytest.mark.parametrize(("kind", "ruleset"), [("roster", "tactical"), ("map", "convoy")])
def test_every_run_starts_at_a_text_object_of_its_size(
    rules: Rules, kind: str, ruleset: str
) -> None:
    data = fullest(kind, ruleset, rules)
    reader = read(render_sheet(kind, rules, data=data, ruleset=ruleset, paper="letter"))
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
