"""Print fidelity, checked by machine (issue #7): every sheet kind, ruleset, paper, --mono
and --fillable, at the fullest data the generators make (and blank, where a kind prints
blank), laid out with WeasyPrint and checked by generator.render.fidelity: nothing past the
page's margins (page furniture and crop marks: its printable area), no text under 7 pt, no
text out of its column, no SVG drawing out of its box.

--mono is laid out for every combination as well (a blank sheet of a kind that has data
in colour only): it does not only change colours (mono table heads get a 1 pt rule, the
ship's log a 1 pt rule below its heads, the FLoB cards' red suits an outline), which moves
boxes, and can move a log card to the next page.

The check of the check: broken HTML it must catch, laid out the same way.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Iterator
from typing import Any

import pytest

from generator.generate.duel import roll_character
from generator.generate.scenario import roll_scenario
from generator.loading import Rules
from generator.render.fidelity import check_document
from generator.render.pdf import layout
from generator.render.sheets import PAPERS, layout_sheet, sheet_kinds
from tests.test_sheet_ship_log import BIGGEST, LONG_NAME
from tests.test_sheets import LONGEST_NAME

KINDS = sheet_kinds()
# the biggest forces (test_sheet_ship_log); convoy 255 is 8 merchants, 2 escorts and 4
# raiders (test_sheet_counters), one raider more than seed 5; duel 300 has the longest title
SEEDS = {**BIGGEST, "convoy": 255, "duel": 300}
# the longest titles the generators make, from seeds 0-399 (45 to 66 characters)
TITLE_SEEDS = {"tactical": 5, "flob": 13, "high-seas": 4, "impulse": 22, "convoy": 57, "duel": 300}
# a duellist with two weapons, armour and the most hit points (23) of seeds 0-1499
CHARACTER_SEED = 654
ESCAPED = "Swan <&> Crow"
# problems the check found and that are not fixed yet: (kind, ruleset, data, paper) -> why
KNOWN: dict[tuple[str, str, str, str], str] = {}


def fullest(kind: str, ruleset: str, rules: Rules) -> dict[str, Any]:
    """The fullest data a kind can be about: the biggest forces, the longest title, the
    longest names (and one that needs escaping); a duellist with the most to show."""
    if KINDS[kind].data == "character":
        person = roll_character(rules, CHARACTER_SEED)
        person["name"] = LONGEST_NAME
        return person
    scenario = roll_scenario(rules, ruleset, SEEDS[ruleset])
    scenario["title"] = roll_scenario(rules, ruleset, TITLE_SEEDS[ruleset])["title"]
    if kind == "ship-log" and ruleset in ("tactical", "flob", "impulse"):
        # the biggest side alone (as a game-night packet prints it, and test_sheet_ship_log
        # does): the other side's logs are the same cards again, and cost a layout as long
        scenario["sides"] = [max(scenario["sides"], key=lambda side: len(side["ships"]))]
    for side in scenario["sides"]:
        if ruleset == "duel":
            side["name"] = side["characters"][0]["name"] = LONGEST_NAME
        else:
            side["ships"][0]["name"] = LONG_NAME
            side["ships"][-1]["name"] = ESCAPED
    return scenario


def variants(kind: str) -> list[str]:
    """The data to lay out a kind with: the fullest (a scenario's, a duellist's) and/or
    none (a blank sheet, or a kind about no data)."""
    sheet = KINDS[kind]
    found = [] if sheet.data == "none" else ["fullest"]
    return [*found, "blank"] if sheet.data == "none" or sheet.static_when_blank else found


def lay_out(
    rules: Rules, kind: str, ruleset: str, variant: str, paper: str, mono: bool, fillable: bool
) -> Any:
    data = fullest(kind, ruleset, rules) if variant == "fullest" else None
    return layout_sheet(
        kind,
        rules,
        data=copy.deepcopy(data),
        ruleset=ruleset,
        paper=paper,
        mono=mono,
        fillable=fillable,
    )


def known(kind: str, ruleset: str, variant: str, paper: str) -> list[Any]:
    reason = KNOWN.get((kind, ruleset, variant, paper))
    return [pytest.mark.xfail(reason=reason, strict=True)] if reason else []


def cases() -> Iterator[Any]:
    """Every kind x ruleset x data x paper x mono x fillable, except that the blank sheet
    of a kind that has data is laid out in colour only (its mono is checked at the fullest
    data), to keep the run near 150 s."""
    for kind in sorted(KINDS):
        sheet = KINDS[kind]
        fillables = (False, True) if sheet.fillable else (False,)
        for ruleset, variant, paper, mono, fillable in itertools.product(
            sheet.rulesets, variants(kind), PAPERS, (False, True), fillables
        ):
            if mono and variant == "blank" and sheet.data != "none":
                continue
            options = ("-mono" if mono else "") + ("-fillable" if fillable else "")
            yield pytest.param(
                *(kind, ruleset, variant, paper, mono, fillable),
                id=f"{kind}-{ruleset}-{variant}-{paper}{options}",
                marks=known(kind, ruleset, variant, paper),
            )


@pytest.mark.parametrize(("kind", "ruleset", "variant", "paper", "mono", "fillable"), list(cases()))
def test_sheets_print_within_the_page(
    rules: Rules, kind: str, ruleset: str, variant: str, paper: str, mono: bool, fillable: bool
) -> None:
    document = lay_out(rules, kind, ruleset, variant, paper, mono, fillable)
    assert check_document(document, paper) == []


def test_every_combination_is_covered() -> None:
    """Each kind x ruleset x paper x mono x fillable is laid out at the fullest data."""
    laid = {(c.values[0], c.values[1], *c.values[3:]) for c in cases()}
    for kind, sheet in KINDS.items():
        for ruleset in sheet.rulesets:
            for paper in PAPERS:
                for mono in (False, True):
                    for fillable in (False, True) if sheet.fillable else (False,):
                        assert (kind, ruleset, paper, mono, fillable) in laid
    assert len(KINDS) == 10 and set(PAPERS) == {"a4", "letter"}


# ---------------------------------------------------------------- the check itself

BROKEN = """<!DOCTYPE html>
<html><head><style>
@page {{
  size: {size}; margin: 10mm 11mm;
  @bottom-right {{ content: "page 1"; font: 7pt sans-serif; vertical-align: bottom; }}
}}
body {{ font: 9pt sans-serif; margin: 0; }}
</style></head><body>
<div style="width: 250mm; height: 5mm; background: #000"></div>
<p style="font-size: 5pt">Small print</p>
<div style="width: 30mm; white-space: nowrap">A heading far too long for its column</div>
<svg xmlns="http://www.w3.org/2000/svg" width="50mm" height="20mm" viewBox="0 0 50 20">
<rect x="40" y="5" width="30" height="5"/>
<text font-size="1.5" x="2" y="10">tiny</text>
</svg>
</body></html>"""


@pytest.mark.parametrize("paper", list(PAPERS))
def test_the_check_catches_a_broken_sheet(paper: str) -> None:
    right, bottom = {"a4": ("199.0mm", "297.0mm"), "letter": ("204.9mm", "279.4mm")}[paper]
    edge = {"a4": "293.0mm", "letter": "275.4mm"}[paper]
    problems = check_document(layout(BROKEN.format(size=PAPERS[paper]["css"])), paper)
    heading = problems.pop(2)  # where it ends depends on the system's sans-serif
    assert heading.startswith("page 1: text 'A heading far too long for its…' at x=")
    assert heading.endswith("past the right of its <div> (41.0mm)")
    assert problems == [
        f"page 1: <div> at x=261.0mm extends past the right margin ({right})",
        "page 1: text 'Small print' is set at 5.00pt, under 7pt",
        "page 1: svg <rect> at x=81.0mm extends past the right of its svg box (61.0mm)",
        "page 1: svg text 'tiny' is set at 4.25pt, under 7pt",
        f"page 1: text 'page 1' at y={bottom} extends past the bottom printable area's edge "
        f"({edge})",
    ]


def test_the_check_knows_the_paper() -> None:
    document = layout(BROKEN.format(size="A5"))
    problems = check_document(document, "a4")
    assert problems[0] == "page 1: the page is 148.0 x 210.0 mm, not a4 (210.0 x 297.0 mm)"


PLACED = """<!DOCTYPE html>
<html><head><style>
@page { size: A4; margin: 0; }
div { position: absolute; background: #000; }
</style></head><body>
<div style="left: 20mm; top: 2mm; width: 30mm; height: 10mm"></div>
<div class="crop" style="left: 30mm; top: 0.5mm; width: 0.2mm; height: 3mm"></div>
<div class="crop" style="left: 40mm; top: 0.8mm; width: 0.2mm; height: 6mm"></div>
<div style="left: 60mm; top: 10mm; width: 30mm; height: 10mm; transform: rotate(90deg)"></div>
</body></html>"""


def test_a_sheet_that_places_its_own_content() -> None:
    """With @page margins of its own (the card sheets), ink keeps to the printable area;
    a crop mark may reach the paper's edge if 1 mm of it prints; transforms count."""
    problems = check_document(layout(PLACED), "a4")
    assert problems == [
        "page 1: <div> at y=2.0mm extends past the top printable area's edge (4.0mm)",
        "page 1: crop mark <div class='crop'> at x=30.0mm, y=0.5mm shows less than 1mm "
        "inside the printable area",
        "page 1: <div> at y=0.0mm extends past the top printable area's edge (4.0mm)",
    ]
