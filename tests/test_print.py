"""Print fidelity, checked on the finished PDFs (tests/printcheck.py): every sheet kind x
ruleset x paper x mono x fillable, at the fullest data the generators make and blank, and
every ruleset's game-night packet on A4 and Letter. Nothing under 7 pt, no ink within 4 mm
of the paper's edge, no text over text, nothing outside a sheet's declared frame, no crop
mark too short or too thin.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest

from generator.generate.scenario import roll_scenario
from generator.loading import Rules
from generator.render.kinds.map import map_house_tables
from generator.render.paper import PAPERS
from generator.render.sheets import render_sheet, sheet_kinds
from generator.render.words import house_tables_line
from generator.rulesets import ruleset_ids
from tests.fullest import fullest, fullest_packet, variants
from tests.layouts import in_columns, layout_problems_of
from tests.pdfs import flat, read
from tests.printcheck import check_pdf

KINDS = sheet_kinds()


def cases() -> Iterator[Any]:
    for kind in sorted(KINDS):
        sheet = KINDS[kind]
        fillables = (False, True) if sheet.fillable else (False,)
        for ruleset, variant, paper, mono, fillable in itertools.product(
            sheet.rulesets, variants(kind), PAPERS, (False, True), fillables
        ):
            options = ("-mono" if mono else "") + ("-fillable" if fillable else "")
            yield pytest.param(
                kind, ruleset, variant, paper, mono, fillable,
                id=f"{kind}-{ruleset}-{variant}-{paper}{options}",
            )  # fmt: skip


def problems(pdf: bytes) -> list[str]:
    return [str(problem) for problem in check_pdf(pdf)]


@pytest.mark.parametrize(("kind", "ruleset", "variant", "paper", "mono", "fillable"), list(cases()))
def test_every_sheet_prints(
    rules: Rules, kind: str, ruleset: str, variant: str, paper: str, mono: bool, fillable: bool
) -> None:
    data = fullest(kind, ruleset, rules) if variant == "fullest" else None
    options = {"data": data, "ruleset": ruleset, "paper": paper, "mono": mono}
    if in_columns(kind):
        # tables in columns: nothing wider than its column (laid out once, with the PDF)
        assert layout_problems_of(kind, rules, fillable=fillable, **options) == []
    pdf = render_sheet(kind, rules, fillable=fillable, **options)
    assert len(read(pdf).pages) >= 1
    assert problems(pdf) == []


def test_every_combination_is_printed() -> None:
    printed = {(c.values[0], c.values[1], *c.values[3:]) for c in cases()}
    for kind, sheet in KINDS.items():
        for ruleset, paper, mono in itertools.product(sheet.rulesets, PAPERS, (False, True)):
            for fillable in (False, True) if sheet.fillable else (False,):
                assert (kind, ruleset, paper, mono, fillable) in printed
    assert len(KINDS) == 11 and set(PAPERS) == {"a4", "letter"}
    assert len(printed) > 100


@pytest.mark.parametrize("paper", list(PAPERS))
@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_every_packet_prints(rules: Rules, ruleset: str, paper: str) -> None:
    pdf = fullest_packet(rules, ruleset, paper)
    assert len(read(pdf).pages) > 4
    assert problems(pdf) == []


@pytest.mark.parametrize("paper", list(PAPERS))
@pytest.mark.parametrize("seed", [1, 2, 99999])
def test_a_convoy_map_with_the_fullest_legend_keeps_its_footer(
    rules: Rules, seed: int, paper: str
) -> None:
    """Fog, shallows and both start hexes make the legend two rows; the house-tables note
    once overflowed the footer and printed over the next page's title and wind rose."""
    scenario = roll_scenario(rules, "convoy", seed)
    pdf = render_sheet("map", rules, data=scenario, paper=paper)
    assert problems(pdf) == []
    drawn_from = map_house_tables("convoy")
    used = [t for t in scenario["house_tables"] if t in drawn_from]
    line = house_tables_line(rules, used)
    assert line.startswith("House tables used: ") and "briefing" not in line
    assert line in flat(read(pdf))
