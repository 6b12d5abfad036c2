"""Check the impulse tables cell by cell against an independent reading of the seed."""

from __future__ import annotations

import re
from pathlib import Path

from generator.loading import Rules
from generator.lookup import lookup
from tests.conftest import seed_text

HITS = range(1, 13)


def _seed_lines(seeds: Path) -> list[str]:
    return seed_text(seeds, "001").splitlines()


def read_damage_table(seeds: Path) -> dict[tuple[int, int], str]:
    """Read the staircase exactly as rules-notes.md describes; key (row value, hits).

    Row values: 21 stands for ">21" (21 or more), 0 for "<0" (0 or less).
    """
    lines = _seed_lines(seeds)
    start = next(i for i, line in enumerate(lines) if line.startswith("1R\t2R"))
    grid: dict[tuple[int, int], str] = {}
    top = lines[start].split("\t")
    # the >21 line: tall cells 1R..9R for hits 1-9, then hits 10-12 of row 21+
    for hits in HITS:
        grid[(21, hits)] = top[hits - 1]
    for hits in range(1, 10):
        for row in range(hits + 11, 22):
            grid[(row, hits)] = f"{hits}R"
    # rows 20 .. 12, right-aligned; the unlabelled one is 12
    for offset, row in enumerate(range(20, 11, -1)):
        cells = [c for c in lines[start + 1 + offset].split("\t") if c]
        label = cells[-1] if row != 12 else None
        if label is not None:
            assert label == str(row)
            cells = cells[:-1]
        assert len(cells) == 12 - (row - 10) + 1
        for hits, cell in zip(range(row - 10, 13), cells, strict=True):
            grid[(row, hits)] = cell
    # rows 11 .. 1 and <0: leading tabs are real, tall hull-only cells run down
    bottom_rows = [*range(11, 0, -1), 0]
    tall: dict[int, str] = {}
    for offset, row in enumerate(bottom_rows):
        raw = lines[start + 10 + offset].split("\t")
        label = "<0" if row == 0 else str(row)
        assert raw[12] == label, (row, raw)
        for hits in HITS:
            cell = raw[hits - 1]
            if cell:
                grid[(row, hits)] = cell
                if re.fullmatch(r"\dH", cell):
                    tall[hits] = cell
            else:
                grid[(row, hits)] = tall[hits]
    return grid


def test_damage_effects_matches_seed_cell_by_cell(rules: Rules, seeds: Path) -> None:
    expected = read_damage_table(seeds)
    assert len(expected) == 22 * 12
    table = rules.table("impulse.damage-effects")
    rows, cols = table.axes
    assert (rows.name, cols.name) == ("roll", "hits")
    assert len(table.cells) == 22
    assert all(len(row) == 12 for row in table.cells)
    for (row, hits), cell in expected.items():
        assert lookup(rules, "impulse.damage-effects", {"roll": row, "hits": hits}).text == cell, (
            row,
            hits,
        )


def test_damage_effects_staircase_and_open_ends(rules: Rules) -> None:
    def cell(roll: int, hits: int) -> str:
        return lookup(rules, "impulse.damage-effects", {"roll": roll, "hits": hits}).text

    # tall cells of the top half: hits h is hR on every roll of h+11 or more
    assert [cell(12, 1), cell(16, 5), cell(20, 9)] == ["1R", "5R", "9R"]
    # tall cells of the bottom half, as rules-notes.md fixes them
    assert cell(8, 1) == cell(-3, 1) == "1H"
    assert cell(6, 2) == cell(0, 2) == "2H"
    assert cell(5, 3) == "3H"
    assert cell(3, 4) == cell(1, 4) == "4H"
    assert cell(1, 5) == cell(0, 5) == "5H"
    # open ends: >21 is 21 or more, <0 is 0 or less
    assert cell(40, 12) == cell(21, 12) == "11R1H1C"
    assert cell(-9, 12) == "11H1R1C"
    # row 12 is the unlabelled line after row 13
    assert cell(12, 2) == "1R1H1C"
    assert cell(12, 12) == "7R5H5C"


def test_damage_effects_cells_parse_to_hits(rules: Rules) -> None:
    result = lookup(rules, "impulse.damage-effects", {"roll": 11, "hits": 4})
    assert result.text == "2H2R2C"
    assert result.fields() == {"hull": 2, "rigging": 2, "crew": 2}


def _header_numbers(line: str) -> list[int]:
    out = []
    for cell in [c for c in line.split("\t") if c]:
        match = re.fullmatch(r"\d+(?: \((\d+)\))?", cell)
        assert match, cell
        out.append(int(match[1] or 0))
    return out


def test_fire_checks_match_header_and_footer(rules: Rules, seeds: Path) -> None:
    lines = _seed_lines(seeds)
    header = _header_numbers(
        lines[lines.index("HITS ACHIEVED (Firing High at Rigging)" + "\t" * 19) + 1]
    )
    footer_at = next(
        i for i, line in enumerate(lines) if line.startswith("HITS ACHIEVED (Firing Low")
    )
    footer = _header_numbers(lines[footer_at - 1])
    assert header == [0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4]
    assert footer == [0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3]
    for hits in HITS:
        high = lookup(rules, "impulse.fire-checks", {"roll": 11, "hits": hits})
        low = lookup(rules, "impulse.fire-checks", {"roll": 10, "hits": hits})
        assert int(high.text) == header[hits - 1]
        assert int(low.text) == footer[hits - 1]
        assert lookup(rules, "impulse.fire-checks", {"roll": 25, "hits": hits}).text == high.text
        assert lookup(rules, "impulse.fire-checks", {"roll": -2, "hits": hits}).text == low.text


def test_morale_effects_matches_seed(rules: Rules, seeds: Path) -> None:
    lines = _seed_lines(seeds)
    start = lines.index("MORALE EFFECTS TABLE")
    rows = [line.split("\t") for line in lines[start + 4 : start + 12]]
    assert len(rows) == 8
    for raw in rows:
        roll = int(raw[-1])
        for hits in HITS:
            got = lookup(rules, "impulse.morale-effects", {"roll": roll, "hits": hits}).text
            assert got == raw[hits - 1], (roll, hits)


def test_movement_points_matches_seed(rules: Rules, seeds: Path) -> None:
    lines = _seed_lines(seeds)
    start = lines.index("BASE MOVEMENT POINT TABLE")
    rows = [line.rstrip("\t").split("\t") for line in lines[start + 4 : start + 12]]
    letters = "ABCDEFGH"
    for row_letter, raw in zip(letters, rows, strict=True):
        assert len(raw) == 8
        for col_letter, printed in zip(letters, raw, strict=True):
            got = lookup(
                rules,
                "impulse.movement-points",
                {"initiative": col_letter, "non_initiative": row_letter},
            )
            assert got.text == printed, (col_letter, row_letter)
    assert rules.table("impulse.movement-points").axes[0].values[0].label in ("A", "a")


def test_hull_type_bonus_matches_seed(rules: Rules, seeds: Path) -> None:
    lines = _seed_lines(seeds)
    start = lines.index("HULL TYPE BONUS TABLE")
    rows = [[c for c in line.split("\t") if c][:6] for line in lines[start + 4 : start + 7]]
    for hull, raw in zip(("fast", "average", "slow"), rows, strict=True):
        for roll, printed in zip(range(1, 7), raw, strict=True):
            got = lookup(rules, "impulse.hull-type-bonus", {"hull": hull, "roll": roll})
            assert got.text == printed
    # open ends: the roll is modified by crew quality
    assert lookup(rules, "impulse.hull-type-bonus", {"hull": "slow", "roll": -1}).text == "+1"
    assert lookup(rules, "impulse.hull-type-bonus", {"hull": "fast", "roll": 9}).text == "+3"
