"""The ruleset specs (specs/): one place lists the rulesets; a broken spec is named."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.errors import InputError
from generator.generate.base import get_generator
from generator.loading import Rules
from generator.render import expressions
from generator.render.kinds import roster
from generator.render.sheets import sheet_kinds
from generator.rulesets import (
    PACKET_SECTIONS,
    SpecError,
    _read_spec,
    default_ruleset,
    get_spec,
    ruleset_ids,
    serving,
    sheet_section,
)

GOOD = """\
ruleset: {name}
order: 9
generator: generator.generate.tactical
resolvers: generator.resolve.tactical
packet:
  cover: [briefing]
sheets:
  briefing: {{}}
"""


def spec_file(tmp_path: Path, text: str, name: str = "sloops") -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_rulesets_in_order_and_the_default(rules: Rules) -> None:
    assert ruleset_ids() == ("duel", "high-seas", "impulse", "convoy", "tactical", "flob")
    assert tuple(rules.rulesets) == ruleset_ids()
    assert default_ruleset() == "tactical"
    for ruleset in ruleset_ids():
        spec = get_spec(ruleset)
        assert get_generator(ruleset).ruleset == ruleset
        assert set(spec.packet) == set(PACKET_SECTIONS)
        assert all(kind in sheet_kinds() for kinds in spec.packet.values() for kind in kinds)


def test_a_sheet_kind_serves_the_rulesets_whose_spec_has_its_section() -> None:
    assert serving("cards") == ("tactical", "flob")
    assert serving("playsheet") == ("convoy",)
    assert serving("quick-reference") == ruleset_ids()
    assert sheet_kinds()["map"].rulesets == ("impulse", "convoy", "tactical", "flob")
    with pytest.raises(InputError, match=r"--ruleset: the cards sheet serves tactical, flob"):
        sheet_section("duel", "cards")


def test_a_good_spec_reads(tmp_path: Path) -> None:
    spec = _read_spec(spec_file(tmp_path, GOOD.format(name="sloops")))
    assert spec.id == "sloops" and spec.order == 9 and not spec.default
    assert spec.packet["cover"] == ("briefing",) and spec.packet["spares"] == ()
    assert spec.sheets == {"briefing": {}}
    assert spec.cell_formats is None  # optional: only a ruleset with cell formats of its own


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (GOOD.format(name="brigs"), r"sloops\.yaml:1: 'ruleset' must be the file's name"),
        (GOOD.format(name="sloops").replace("order: 9", "order: nine"), r":2: 'order' must"),
        (
            GOOD.format(name="sloops").replace("generator.generate.tactical", "no such"),
            r":3: 'generator' must name a Python module",
        ),
        (
            GOOD.format(name="sloops").replace("cover:", "covers:"),
            r":5: 'packet' may only have cover, per_side",
        ),
        (
            GOOD.format(name="sloops").replace("packet:", "deck: 1\npacket:"),
            r"sloops\.yaml:1: unknown deck \(a spec has cell_formats, default, generator",
        ),
        (
            GOOD.format(name="sloops").replace("packet:", "cell_formats: [a]\npacket:"),
            r":5: 'cell_formats' must name a Python module",
        ),
        (
            "ruleset: sloops\norder: 1\n",
            r"missing generator, packet, resolvers, sheets",
        ),
    ],
)
def test_a_broken_spec_is_named_with_its_line(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(SpecError, match=message):
        _read_spec(spec_file(tmp_path, text))


def test_a_broken_expression_names_its_spec_line() -> None:
    with pytest.raises(SpecError, match=r"specs/x\.yaml:7: .*'\{\{ ship\.name '"):
        expressions.text("{{ ship.name ", "specs/x.yaml:7", ship={})
    assert expressions.text("{{ ship.rate }} rate", "here", ship={}) == "rate"
    assert expressions.text("{{ ship.guns | signed }}", "here", ship={"guns": 0}) == "0"
    assert expressions.text("{{ ship.captain }}", "here", ship={"captain": None}) == ""
    assert expressions.holds("ship.flagship", "here", ship={"flagship": True})
    assert not expressions.holds("side.ally_navy", "here", side={})


def test_roster_columns_print_what_the_spec_says(rules: Rules) -> None:
    spec = roster.roster_spec("flob")
    masts = next(value for title, _, value in spec.columns if title == "Masts")
    assert masts.text(ship={"masts": 3, "mast_rating": 6}) == "3 × 6"
    blank = roster.context(rules, None, "a4", "tactical")["sides"][0]["facts"]
    assert [label for label, _ in blank] == ["Admiral", "National", "Fleet", "Flagship"]
