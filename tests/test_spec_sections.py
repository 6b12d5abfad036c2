"""The ``sheets:`` sections of the ruleset specs: declared with the schema nodes by each
sheet kind, checked all at once against the rules data the first time any sheet reads its
section, every problem reported with its file, line and key path."""

from __future__ import annotations

import contextlib
import dataclasses
import io
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from generator import resources, rulesets
from generator.cli import main
from generator.loading import Rules
from generator.render import specs
from generator.render.kinds import cards, playsheet, roster, ship_log
from generator.render.kinds import map as map_kind
from generator.render.kinds.counters import spec as counters_spec
from generator.render.kinds.quick_reference import spec as qr_spec
from generator.rulesets import SpecError, get_spec, ruleset_ids, ruleset_specs
from generator.schema.context import Ctx
from generator.schema.nodes import Items, OneOf, Record, Text, Whole, req
from generator.yamlfile import KeyPath
from tests.conftest import REPO

READERS: tuple[Any, ...] = (
    counters_spec.counter_spec,
    qr_spec.layout_of,
    roster.roster_spec,
    playsheet.layout_of,
    cards.deck_spec,
    ship_log.layout_of,
    map_kind.map_house_tables,
)


def _forget() -> None:
    """Forget the specs read and checked so far, and what every reader made of them."""
    ruleset_specs.cache_clear()
    specs.check_specs.cache_clear()
    for reader in READERS:
        reader.cache_clear()


@pytest.fixture
def spec_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A copy of specs/ the program reads instead (edit its files, then read them)."""
    copied = tmp_path / "specs"
    shutil.copytree(REPO / "specs", copied)
    bundled = resources.resource_dir
    monkeypatch.setattr(
        rulesets, "resource_dir", lambda name: copied if name == "specs" else bundled(name)
    )
    _forget()
    yield copied
    monkeypatch.undo()
    _forget()


def edit(path: Path, old: str, new: str) -> int:
    """Replace `old` (once in the file) by `new`; return the line it is on."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")
    return text[: text.index(old)].count("\n") + 1


def problems_of(spec: rulesets.RulesetSpec, rules: Rules, **sheets: Any) -> list[str]:
    """The problems of `spec` with its sections replaced by `sheets` (kind_with_underscores)."""
    sections = {kind.replace("_", "-"): raw for kind, raw in sheets.items()}
    return specs.spec_problems(dataclasses.replace(spec, sheets=sections), rules)


def test_every_spec_checks_clean(rules: Rules) -> None:
    for ruleset in ruleset_ids():
        assert specs.spec_problems(get_spec(ruleset), rules) == [], ruleset
    specs.check_specs.__wrapped__()


def test_three_problems_in_two_specs_are_reported_at_once(spec_dir: Path) -> None:
    tactical, convoy = spec_dir / "tactical.yaml", spec_dir / "convoy.yaml"
    count = edit(tactical, "{label: Sinking, count: 4,", "{label: Sinking, count: 0,")
    table = edit(tactical, "[boarding, flight-test, flight-modifiers]", "[boarding, flight-tst]")
    column = edit(convoy, '{title: Crew, class: num, value: "{{ ship.crew }}"}', "{title: Crew}")
    with pytest.raises(SpecError, match=r"tactical\.yaml") as raised:
        specs.section("flob", "map")  # a sheet of a third ruleset fails as well
    problems = list(raised.value.problems)
    assert problems[:2] == [
        f"{convoy}:{column}: sheets.roster.columns[2]: missing 'value' (Jinja text)",
        f"{tactical}:{count}: sheets.counters.markers[1].count: 0 is out of range 1..40 for count",
    ]
    assert problems[2].startswith(
        f"{tactical}:{table}: sheets.quick-reference.sections[3].tables[1]: 'flight-tst' is not "
        "a tactical table (allowed: "
    )
    assert "turn-phases, " in problems[2]
    assert problems[2].endswith("; did you mean 'flight-test'?") and len(problems) == 3
    # every sheet fails with the whole list, each time it is asked
    with pytest.raises(SpecError, match=r"sheets\.roster\.columns\[2\]: missing 'value'"):
        roster.roster_spec("tactical")


def test_a_broken_spec_fails_the_command_line_with_every_problem(
    spec_dir: Path, tmp_path: Path
) -> None:
    edit(spec_dir / "flob.yaml", "word: squadron", "wrd: squadron")
    edit(spec_dir / "convoy.yaml", "shape: hex", "shape: octagon")
    out, err = io.StringIO(), io.StringIO()
    target = tmp_path / "roster.pdf"
    with (
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
        pytest.raises(SystemExit, match="2"),
    ):
        main(["sheet", "roster", "--ruleset", "tactical", "--seed", "3", "-o", str(target)])
    lines = err.getvalue().splitlines()
    assert [line.split(": ", 3)[2] for line in lines] == [
        "sheets.counters.shape",
        "sheets.roster.wrd",
        "sheets.roster",
    ]
    assert all(line.startswith(f"error: {spec_dir}") for line in lines)
    assert "Traceback" not in err.getvalue() and out.getvalue() == ""
    assert not target.exists()


def test_a_section_for_a_kind_that_does_not_exist_is_named(rules: Rules) -> None:
    problems = problems_of(get_spec("flob"), rules, briefing={}, scrolls={})
    assert len(problems) == 1
    assert re.fullmatch(
        r".*flob\.yaml:\d+: sheets\.scrolls: unknown sheet kind 'scrolls' \(kinds: briefing, .*",
        problems[0],
    )


def test_a_kind_without_a_section_takes_an_empty_one(rules: Rules) -> None:
    (problem,) = problems_of(get_spec("duel"), rules, character={"tables": []})
    assert problem.endswith("sheets.character.tables: unknown key 'tables' (allowed: )"), problem


def test_jinja_is_read_when_the_specs_load(rules: Rules) -> None:
    section = {
        "word": "fleet",
        "tags": [{"if": "ship.flagship and", "text": "flagship"}],
        "columns": [{"title": "Class", "value": "{{ ship.class "}],
    }
    problems = problems_of(get_spec("tactical"), rules, roster=section)
    assert [problem.split(": ", 2)[1] for problem in problems] == [
        "sheets.roster.tags[0].if",
        "sheets.roster.columns[0].value",
    ]
    assert problems[0].endswith(": unexpected 'end of template': 'ship.flagship and'")
    assert problems[1].endswith(
        ": unexpected end of template, expected 'end of print statement'.: '{{ ship.class '"
    )


@pytest.mark.parametrize(
    ("kind", "raw", "wanted"),
    [
        (
            "counters",
            {
                "shape": "square",
                "class_line": "x",
                "tracks": [
                    {"label": "T", "spaces": 9, "spaces_from": {"table": "scenario", "param": "x"}}
                ],
            },
            [
                "sheets.counters.tracks[0].spaces_from.param: 'x' is not a param of "
                "tactical.scenario (its params: "
            ],
        ),
        (
            "map",
            {"house_tables": ["tactical.broadside", "convoy.scenario"]},
            [
                "sheets.map.house_tables[0]: 'tactical.broadside' is not a tactical house table",
                "sheets.map.house_tables[1]: 'convoy.scenario' is not a tactical house table",
            ],
        ),
        (
            "cards",
            {"deck": "D", "faces": {"style": "turn", "table": "cards"}, "fill": "turn"},
            [
                "sheets.cards.faces: missing 'suits'",
                "sheets.cards.faces: missing 'reminder'",
                "sheets.cards.fill: 'turn' is not a tactical table",
            ],
        ),
        (
            "playsheet",
            {
                "front": {"middle": []},
                "clock": {"table": "wind", "moves": "m", "loops_table": "scenario", "loops": "l"},
            },
            [
                "sheets.playsheet.front.middle: unknown key 'middle' (allowed: wide, left, right)",
                "sheets.playsheet.clock.moves: 'm' is not a param of tactical.wind",
                "sheets.playsheet.clock.loops: 'l' is not a param of tactical.scenario",
            ],
        ),
        (
            "quick-reference",
            {
                "font_size": 6,
                "sections": [],
                "odds_by": {"broadside": {"modifier": "wind.x", "heading": "H", "values": [1]}},
            },
            [
                "sheets.quick-reference.font_size: 6 is out of range 7.0..9.0 for font_size (pt)",
                "sheets.quick-reference.sections: expected at least 1 section, found 0",
                "sheets.quick-reference.odds_by.broadside.modifier: 'wind' is not a modifiers "
                "table of tactical",
            ],
        ),
    ],
)
def test_a_section_names_only_what_the_rules_have(
    rules: Rules, kind: str, raw: dict[str, Any], wanted: list[str]
) -> None:
    problems = problems_of(get_spec("tactical"), rules, **{kind.replace("-", "_"): raw})
    said = [problem.split(": ", 1)[1] for problem in problems]
    assert len(said) == len(wanted), said
    for found, start in zip(said, wanted, strict=True):
        assert found.startswith(start), (found, start)


class _Said:
    def __init__(self) -> None:
        self.said: list[tuple[KeyPath, str]] = []

    def fail(self, path: KeyPath, message: str) -> None:
        self.said.append((path, message))


def _check(rules: Rules, node: Any, value: Any) -> list[tuple[KeyPath, str]]:
    reporter = _Said()
    node.check(Ctx(rules, reporter), value, ("x",))
    return reporter.said


def test_one_of_checks_a_value_by_the_node_of_its_type(rules: Rules) -> None:
    spaces = OneOf((Whole(1, None), Text(20)))
    assert _check(rules, spaces, 12) == [] and _check(rules, spaces, "{{ n }}") == []
    assert _check(rules, spaces, 0) == [(("x",), "0 is out of range for x: at least 1")]
    assert _check(rules, spaces, [1]) == [(("x",), "expected whole number or text, found a list")]
    values = OneOf((Items(Whole(), minimum=1), Record({"table": req(Text())})))
    assert _check(rules, values, {"table": "t"}) == []
    assert _check(rules, values, {}) == [(("x",), "missing 'table' (text: at most 200 characters)")]
    assert values.kind_text(Ctx(rules)) == "list of whole numbers or mapping"


def test_the_docs_carry_the_sections_keys_as_the_nodes_say(rules: Rules) -> None:
    doc = (REPO / "docs" / "adding-a-ruleset.md").read_text(encoding="utf-8")
    assert specs.written_part(doc) == specs.describe_sections(rules), (
        "docs/adding-a-ruleset.md is stale: "
        "python -m generator.render.specs docs/adding-a-ruleset.md"
    )
    assert "| `sheets.counters.markers[].count` | whole number | yes | 1..40 |" in doc


def test_the_list_of_rulesets_reads_on_while_a_section_is_broken(spec_dir: Path) -> None:
    edit(spec_dir / "impulse.yaml", "shape: square", "shape: octagon")
    assert "impulse" in ruleset_ids()  # the hot commands (roll, lookup) never check sections
    with pytest.raises(SpecError, match=r"impulse\.yaml:\d+: sheets\.counters\.shape: 'octagon'"):
        counters_spec.counter_spec("tactical")
