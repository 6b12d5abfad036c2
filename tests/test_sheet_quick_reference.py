"""The quick reference: every table of play of a ruleset, with the odds of rolled ones, on one
sheet of paper (two pages); the tables that set up a game go on the Notes for the GM.

Each ruleset is laid out once per paper (A4 in colour, Letter in black and white: the two
differ only in colours, which one test checks) and read back with pypdf; the layout boxes
are checked for text under 7 pt and for anything wider than its column.
"""

from __future__ import annotations

import dataclasses
import html
import math
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from generator.loading import Rules, load_rules
from generator.render.draw import drawing_modules
from generator.render.kinds import gm_notes
from generator.render.kinds import quick_reference as qr
from generator.render.kinds.quick_reference import size as qr_size
from generator.render.kinds.quick_reference import spec as qr_spec
from generator.render.kinds.quick_reference import tables as qr_tables
from generator.render.sheets import get_kind, render_sheet, sheet_html
from generator.render.specs import spec_problems
from generator.render.words import table_title
from generator.rulesets import get_spec
from tests.conftest import FIXTURES
from tests.layouts import layout_facts, layout_problems_of
from tests.pdfs import (
    MM,
    PAGE_SIZES,
    colours_as_written,
    drawn_text,
    extracted_text,
    page_size,
    page_text,
    read,
    squeeze,
)
from tests.resolving import chances as resolver_odds

RULESETS = ("duel", "high-seas", "impulse", "convoy", "tactical", "flob")
# cells, headings and odds that must come through (whitespace is ignored when comparing)
SAMPLES = {
    "duel": ["haymaker, grapple, tackle (+3m)", "Rapier and main gauche", "MinSTR", "2.8%"],
    "high-seas": ["Roll 2d6+speed. Winner alters range by 1.", "Ship of the line", "30%"],
    "impulse": [
        "11R1H1C",
        "2H2R2C",
        "Heavy frigate (44)",
        "0.5%",
        "chance on 3d6 before modifiers",
    ],
    "convoy": [
        "Turn (spin) 1 face within existing hex.",
        "8 merchants, 2 escorts",
        "Opportunity or return shoot",
    ],
    "tactical": [
        "Grapeshot gets +2 to Broadside Table Roll",
        "Escort/Patrol",
        "Small Frigate",
        "Cannon 10",
        "Odds by Cannon 1-10: the chance of each row on 1d10 + Cannon",
        "cannot move, cannot board, loses any boarding",
    ],
    "flob": [
        "3rr, s",
        "12 or better",
        "-8 or worse",
        "Any damage",
        "5 or better on 2d6",
        "1/0/0/0",
    ],
}


def a4_context(rules: Rules, ruleset: str) -> dict[str, Any]:
    """The quick reference's context on A4 in colour. Finding its body size lays the sheet
    out: that is done here as the session finds the sheet's layout facts and writes its PDF
    (`layout_facts`), which the print check and the PDF tests below read, so that the layout
    is not thrown away here and made again in another test process."""
    layout_facts("quick-reference", rules, ruleset=ruleset, paper="a4")
    return qr.context(rules, None, "a4", ruleset)


def a4_html(rules: Rules, ruleset: str) -> str:
    """The quick reference's HTML on A4 in colour, its size found as `a4_context` finds it."""
    layout_facts("quick-reference", rules, ruleset=ruleset, paper="a4")
    return sheet_html("quick-reference", rules, ruleset=ruleset, paper="a4")


# ---------------------------------------------------------------- the layout spec


def test_the_sheet_serves_every_ruleset_that_has_a_layout() -> None:
    assert set(get_kind("quick-reference").rulesets) == set(RULESETS)
    assert all(qr.layout_of(ruleset).sections for ruleset in RULESETS)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_layout_names_every_table_exactly_once(rules: Rules, ruleset: str) -> None:
    named = [key for section in qr.layout_of(ruleset).sections for key in section.tables]
    assert sorted(named) == sorted(rules.rulesets[ruleset].tables)
    assert len(named) == len(set(named))
    assert all(section.tables for section in qr.layout_of(ruleset).sections)


def test_columns_name_fields_the_cells_have(rules: Rules) -> None:
    columns = [
        (f"{ruleset}.{key}", spec)
        for ruleset in RULESETS
        for key, spec in qr.layout_of(ruleset).columns.items()
    ]
    assert len(columns) > 30
    for table_id, spec in columns:
        table = rules.table(table_id)
        cells = [c for row in table.cells for c in (row if isinstance(row, tuple) else (row,))]
        for entry in spec:
            field = entry.partition("=")[0]
            assert field in qr_tables.TEXT_KEYS or any(field in cell for cell in cells), entry


# ---------------------------------------------------------------- odds (no PDF needed)


def test_broadside_odds_per_attack_number(rules: Rules) -> None:
    block = qr.block(rules.table("flob.broadside"))
    assert block["wide"]
    assert block["extra_heads"] == ["Any damage", "Strike test (str)", "Shattered (s)"]
    assert block["odds_row"][:3] == ["2.8%", "5.6%", "8.3%"]  # 2, 3 and 4 on 2d6
    rows = {row["label"]: row["extra"] for row in block["rows"]}
    # 12 or better: s on 2-4 (6/36), str on 5 (4/36), damage on every roll
    assert rows["12 or better"] == ["100%", "11%", "17%"]
    assert rows["0"] == ["58%", "—", "—"]  # damage on 2-7: 21/36
    assert rows["-8 or worse"] == ["2.8%", "—", "—"]
    assert "of any damage, of strike test (str) and of shattered (s)" in block["captions"][-1]


def test_rolled_tables_show_the_chance_of_each_row(rules: Rules) -> None:
    squadron = qr.block(rules.table("flob.squadron-composition"))
    assert squadron["extra_heads"] == ["Odds"]
    assert [row["extra"][0] for row in squadron["rows"]][:4] == ["2.8%", "5.6%", "50%", "14%"]
    assert squadron["captions"] == []  # the heading already says 2d6

    damage = qr.block(rules.table("impulse.damage-effects"))
    chances = {row["label"]: row["extra"][0] for row in damage["rows"]}
    assert (chances[">21"], chances["18"], chances["10"], chances["<0"]) == (
        "—",
        "0.5%",
        "13%",
        "—",
    )
    assert damage["captions"] == ["Odds: chance on 3d6 before modifiers."]

    # without the rules to read a modifier from, a modified roll shows the bare dice
    broadside = qr.block(rules.table("tactical.broadside"))
    assert [row["extra"][0] for row in broadside["rows"]] == ["50%", "40%", "10%", "—"]


def test_broadside_odds_are_for_the_roll_players_make(rules: Rules) -> None:
    # the spec asks for a column per Cannon rating: 1 (Small Frigate) to 6 (1st Class),
    # raised by the +1 Cannon of the National, Fleet and (twice, for a flagship) Ship tables
    wanted = qr.layout_of("tactical").odds_by["broadside"]
    table = rules.table("tactical.broadside")
    assert qr_tables.odds_by_values(table, rules, wanted) == tuple(range(1, 11))
    by_value = dict(qr_tables.odds_by_value(table, rules, wanted) or [])
    # rows: 5 or less, 6-9, 10-13, 14 or more; the roll is 1D10 + Cannon
    tenth = Fraction(1, 10)
    assert by_value[1] == [4 * tenth, 4 * tenth, 2 * tenth, 0]  # 2..11
    assert by_value[3] == [2 * tenth, 4 * tenth, 4 * tenth, 0]  # 4..13
    assert by_value[4] == [1 * tenth, 4 * tenth, 4 * tenth, 1 * tenth]  # 5..14
    assert by_value[7] == [0, 2 * tenth, 4 * tenth, 4 * tenth]  # 8..17
    assert by_value[10] == [0, 0, 3 * tenth, 7 * tenth]  # 11..20
    assert all(sum(chances) == 1 for chances in by_value.values())
    block = qr.block(table, None, rules)
    assert block["wide"]
    assert block["extra_heads"] == [f"Cannon {n}" for n in range(1, 11)]
    rows = {row["label"]: row["extra"] for row in block["rows"]}
    assert rows["1-5"][:5] == ["40%", "30%", "20%", "10%", "—"]
    assert rows["14+"][-1] == "70%"
    assert block["captions"] == [
        "Odds by Cannon 1-10: the chance of each row on 1d10 + Cannon, with no other "
        "modifier. With other modifiers, read the column of Cannon plus their net total."
    ]
    # and the resolver agrees: Cannon 3, no other modifier (chainshot at 2 spaces)
    odds = resolver_odds(rules, "tactical.broadside", ammo="chainshot", distance="2", cannon="3")
    assert odds["no damage"] == by_value[3][0]


def unchecked_rules(path: Path, monkeypatch: pytest.MonkeyPatch) -> Rules:
    """Load a house file whose tables change their shape, past the loader's shape check
    (which refuses such files): the sheets must still print whatever tables they get."""
    import generator.loading as loading

    monkeypatch.setattr(loading, "check_house_table", lambda *args: None)
    return load_rules(path)


def test_odds_by_reads_the_rules_it_is_given(
    rules: Rules, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    wanted = qr_spec.OddsBy(("broadside-modifiers", "distance"), "Spaces over 2", values=(0, 2))
    table = rules.table("tactical.broadside")
    # -1 per space: 1D10 - 2 is 5 or less on 1-7
    assert qr_tables.odds_by_value(table, rules, wanted) == [
        (0, [Fraction(5, 10), Fraction(4, 10), Fraction(1, 10), Fraction(0)]),
        (2, [Fraction(7, 10), Fraction(3, 10), Fraction(0), Fraction(0)]),
    ]
    assert qr_tables.odds_by_value(rules.table("tactical.ship-types"), rules, wanted) is None
    unknown = qr_spec.OddsBy(("broadside-modifiers", "mermaids"), "Mermaids", values=(1,))
    assert qr_tables.odds_by_value(table, rules, unknown) is None
    # a house file whose modifiers lack the one named prints the bare dice's odds
    path = tmp_path / "club.yaml"
    path.write_text(CLUB_BROADSIDE_MODIFIERS, encoding="utf-8")
    sheet = qr.context(unchecked_rules(path, monkeypatch), None, "a4", "tactical")
    blocks = {b["id"]: b for s in sheet["sections"] for b in s["blocks"]}
    assert blocks["tactical.broadside"]["extra_heads"] == ["Odds"]


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"modifier": "a.b", "heading": "X"}, r"odds_by\.broadside: missing 'values'"),
        (
            {"modifier": "ab", "heading": "X", "values": [1]},
            r"odds_by\.broadside\.modifier: expected 'modifiers-table\.modifier-id'",
        ),
        (
            {"modifier": "a.b", "heading": "X", "values": ["one"]},
            r"odds_by\.broadside\.values\[0\]: expected a whole number, found 'one'",
        ),
        (
            {"modifier": "a.b", "heading": "X", "values": {"table": "t"}},
            r"odds_by\.broadside\.values: missing 'field'",
        ),
        (
            {"modifier": "broadside-modifiers.mermaids", "heading": "X", "values": [1]},
            r"odds_by\.broadside\.modifier: tactical\.broadside-modifiers has no modifier",
        ),
    ],
)
def test_odds_by_spec_is_checked(rules: Rules, raw: dict[str, Any], message: str) -> None:
    section = {"sections": [{"title": "T", "tables": ["broadside"]}], "odds_by": {"broadside": raw}}
    spec = dataclasses.replace(get_spec("tactical"), sheets={"quick-reference": section})
    problems = spec_problems(spec, rules)
    wanted = rf"tactical\.yaml:\d+: sheets\.quick-reference\.{message}"
    assert any(re.search(wanted, problem) for problem in problems), problems


def test_odds_by_names_modifiers_and_tables_that_exist(rules: Rules) -> None:
    entries = [
        (ruleset, key, wanted)
        for ruleset in RULESETS
        for key, wanted in qr.layout_of(ruleset).odds_by.items()
    ]
    assert entries
    for ruleset, key, wanted in entries:
        table = rules.table(f"{ruleset}.{key}")
        assert qr_tables.odds_by_value(table, rules, wanted), key
        rules.table(f"{ruleset}.{wanted.modifier[0]}").modifier(wanted.modifier[1])
        for source in (wanted.source, *wanted.plus) if wanted.source else ():
            rules.table(f"{ruleset}.{source}")


def test_targets_show_their_chance(rules: Rules) -> None:
    repairs = qr.block(rules.table("flob.repairs"))
    assert repairs["rows"][0]["cells"][0] == {"text": "4, 5 or 6", "chance": "50%"}
    assert "1d6" in repairs["captions"][-1]
    cannon = qr.block(rules.table("high-seas.cannon-hit"))
    assert cannon["rows"][0]["cells"][0] == {"text": "6", "chance": "30%"}
    assert cannon["rows"][3]["cells"][0] == {"text": "automatic", "chance": ""}


def test_modifier_lists_show_the_odds_by_net_modifier(rules: Rules) -> None:
    tacking = qr.block(rules.table("flob.tacking-modifiers"))["odds"]
    assert tacking["label"] == "5 or better on 2d6"
    by_net = {cell["key"]: cell["chance"] for cell in tacking["cells"]}
    assert (by_net["-3"], by_net["0"], by_net["+3"]) == ("42%", "83%", "100%")
    flight = qr.block(rules.table("tactical.flight-modifiers"))["odds"]
    assert flight["label"] == "2 or less on 1d6"
    assert {c["key"]: c["chance"] for c in flight["cells"]}["0"] == "33%"
    assert qr.block(rules.table("flob.tactical-modifiers"))["odds"] is None  # no dice named
    pool = qr.block(rules.table("convoy.boarding-fight"))["odds"]
    assert (pool["head"], pool["label"]) == ("Successes", "on 4d6, each 5 or 6")
    assert [c["chance"] for c in pool["cells"]] == ["20%", "40%", "30%", "9.9%", "1.2%"]


def test_a_note_every_line_of_a_group_shares_is_printed_once(rules: Rules) -> None:
    groups = qr.block(rules.table("flob.strike-modifiers"))["groups"]
    admiral = next(g for g in groups if g["group"].startswith("Admiral"))
    assert admiral["note"] == "(Only if he is on board ship)"
    assert all(item["note"] == "" for item in admiral["items"])


def test_percent() -> None:
    from fractions import Fraction

    assert [
        qr_tables.percent(Fraction(n, d)) for n, d in [(1, 2), (1, 6), (1, 36), (1, 216), (0, 1)]
    ] == [
        "50%",
        "17%",
        "2.8%",
        "0.5%",
        "—",
    ]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_house_tables_are_tagged_and_listed(rules: Rules, ruleset: str) -> None:
    """A house table of play is tagged on the quick reference, which says in one line what the
    tag means; the Notes for the GM list every house table with what it fills in."""
    sheet = a4_context(rules, ruleset)
    house = [t for t in rules.rulesets[ruleset].tables.values() if t.house]
    assert house, "every ruleset has house set-up tables"
    played = {key for s in qr.layout_of(ruleset).sections if not s.gm for key in s.tables}
    tagged = {b["id"] for s in sheet["sections"] for b in s["blocks"] if b["house"]}
    assert tagged == {t.id for t in house if t.key in played}
    assert sheet["house"] == bool(tagged)
    notes = gm_notes.context(rules, None, "a4", ruleset)
    assert [h["title"] for h in notes["house"]] == [table_title(t) for t in house]
    assert all(h["why"] for h in notes["house"])


# ---------------------------------------------------------------- the PDFs


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize(("paper", "mono"), [("a4", False), ("letter", True)])
def test_quick_reference(rules: Rules, ruleset: str, paper: str, mono: bool) -> None:
    """One sheet of paper on either paper: the tables of play on the quick reference, the
    tables that set a game up on the Notes for the GM, every table on one of them."""
    options = {"ruleset": ruleset, "paper": paper, "mono": mono}
    assert layout_problems_of("quick-reference", rules, **options) == []
    assert layout_problems_of("gm-notes", rules, **options) == []
    reader = read(render_sheet("quick-reference", rules, ruleset=ruleset, paper=paper, mono=mono))
    assert 1 <= len(reader.pages) <= 2
    assert page_size(reader) == PAGE_SIZES[paper]
    content = squeeze(extracted_text(reader))
    notes = read(render_sheet("gm-notes", rules, ruleset=ruleset, paper=paper, mono=mono))
    gm_content = squeeze(extracted_text(notes))
    chosen = rules.rulesets[ruleset]
    for section in qr.layout_of(ruleset).sections:
        printed = gm_content if section.gm else content
        missing = [
            key for key in section.tables if squeeze(table_title(chosen.tables[key])) not in printed
        ]
        assert missing == [], section.title
    for sample in SAMPLES[ruleset]:
        assert squeeze(sample) in content + gm_content, sample
    assert not any(squeeze(t.id) in content for t in chosen.tables.values())
    assert reader.metadata is not None
    assert chosen.title in str(reader.metadata.title)
    assert chosen.title in str(reader.metadata.subject)
    if mono:
        assert colours_as_written(reader) <= {"0 0 0", "1 1 1", "0", "1"}
    else:
        assert len(colours_as_written(reader)) > 3


def test_mono_lays_out_as_the_colour_sheet(rules: Rules) -> None:
    def words(mono: bool) -> list[list[str]]:
        options = {"ruleset": "flob", "paper": "letter", "mono": mono}
        return list(layout_facts("quick-reference", rules, **options)["words"])

    assert words(mono=False) == words(mono=True)


def test_a_house_rules_file_shows_on_the_sheet() -> None:
    house = load_rules(FIXTURES / "house" / "ok.yaml")
    page = html.unescape(sheet_html("quick-reference", house, ruleset="tactical", paper="a4"))
    content = squeeze(re.sub(r"<[^>]+>", " ", page))
    assert squeeze("Wind change (club rule)") in content
    assert squeeze("5-6 The wind changes: roll on the wind table 33%") in content
    assert "tactical.wind-change" not in content
    # what the club's table replaces is for the GM
    notes = html.unescape(sheet_html("gm-notes", house, ruleset="tactical", paper="a4"))
    notes = squeeze(re.sub(r"<[^>]+>", " ", notes))
    assert squeeze("Wind change (club rule)") in notes
    assert squeeze("Club rule replacing the seed's 1-5 stays, 6 changes.") in notes


CLUB_RULES = """
flob:
  weather:
    title: Weather (club)
    kind: table
    source: {house: club}
    house: true
    axes:
      - {name: roll, title: 1d6, dice: 1d6, values: ["1-3", "4-6"]}
    cells: [Fair, Foul]
  broadside:
    title: Broadside Table (club)
    kind: table
    source: {house: club}
    house: true
    cell_format: flob-broadside
    axes:
      - {name: attack, values: ["1 or better", "0 or worse"]}
      - {name: roll, dice: 2d6, values: ["2-7", "8-12"]}
    cells:
      - [3rr, "2rr, str"]
      - [rr, "—"]
"""


CLUB_BROADSIDE_MODIFIERS = """
tactical:
  broadside-modifiers:
    title: Broadside Table modifiers (club)
    kind: modifiers
    source: {house: club}
    house: true
    roll: "1D10 on the Broadside table"
    items:
      - {id: guns, label: "Add the guns", value: 1, per: gun}
"""


def test_house_tables_of_another_shape_print_as_they_come(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "club.yaml"
    path.write_text(CLUB_RULES, encoding="utf-8")
    club = unchecked_rules(path, monkeypatch)
    sheet = qr.context(club, None, "a4", "flob")
    blocks = {b["id"]: b for s in sheet["sections"] for b in s["blocks"]}
    # the weather sets a game up: on the Notes for the GM
    blocks.update(
        {b["id"]: b for s in qr.section_blocks(club, "flob", gm=True) for b in s["blocks"]}
    )
    weather = blocks["flob.weather"]  # COLUMNS names fields these plain cells lack
    assert weather["heads"] == ["Result"]
    assert [(r["cells"][0]["text"], r["extra"]) for r in weather["rows"]] == [
        ("Fair", ["50%"]),
        ("Foul", ["50%"]),
    ]
    broadside = blocks["flob.broadside"]
    assert broadside["house"] and not broadside["wide"]
    assert broadside["odds_row"] == ["58%", "42%"]
    assert broadside["rows"][0]["extra"] == ["100%", "42%", "—"]
    notes = gm_notes.context(club, None, "a4", "flob")
    assert "Broadside Table (club)" in [h["title"] for h in notes["house"]]


def test_a_table_prints_its_head_and_foot_captions(rules: Rules) -> None:
    """Impulse's Damage Effects Table is read high at rigging from its head row and low at
    hull from its foot row: both captions print on the table, as in the seed."""
    block = qr.block(rules.table("impulse.damage-effects"))
    assert block["col_title"] == "HITS ACHIEVED (Firing High at Rigging)"
    assert block["footer"] == "HITS ACHIEVED (Firing Low at Hull)"
    assert qr.block(rules.table("impulse.fire-checks"))["footer"] == ""
    html = a4_html(rules, "impulse")
    head, foot = html.index("(Firing High at Rigging)"), html.index("(Firing Low at Hull)")
    assert head < html.index("11H1R1C") < foot < html.index("Combat Results")
    assert html.rindex("<tfoot>", 0, foot) > html.index("11H1R1C")


# ---------------------------------------------------------------- pages, headings, numbers


def test_fitted_size_keeps_a_well_filled_sheet() -> None:
    asked: list[float] = []

    def measure(size: float) -> tuple[int, float]:
        asked.append(size)
        return (2, 0.7)

    assert qr_size.fitted_size(measure, 8.0) == 8.0
    assert asked == [8.0]
    assert qr_size.fitted_size(lambda size: (1, 0.2), 8.0) == 8.0  # one page: nothing to save


def test_fitted_size_saves_a_mostly_empty_page() -> None:
    """A sheet that runs a few lines onto a second page is set smaller, at the largest size
    that holds it on one page (a page of content of 1.15 pages at 8 pt)."""

    def measure(size: float) -> tuple[int, float]:
        content = 1.15 * (size / 8.0) ** 2
        return math.ceil(content), content - math.floor(content) or 1.0

    assert qr_size.fitted_size(measure, 8.0) == 7.25  # 0.94 of a page; 7.5 pt takes 1.01


def test_fitted_size_fills_a_page_it_cannot_save() -> None:
    """Where even 7 pt takes as many pages, the sheet is set larger, up to 9 pt, as long as
    it takes no more pages: its last page fills up."""

    def measure(size: float) -> tuple[int, float]:
        content = 1.2 * (size / 7.0) ** 2  # 1.2 pages at 7 pt, 1.57 at 8 pt
        return math.ceil(content), content - math.floor(content) or 1.0

    assert qr_size.fitted_size(measure, 7.0) == 9.0  # 1.98 pages
    assert qr_size.fitted_size(lambda size: (2 if size < 8.6 else 3, 0.1), 8.0) == 8.5


def test_a_key_printed_as_a_table_is_not_printed_again_under_another(rules: Rules) -> None:
    """Impulse's source prints the H/R/C key under the Damage Effects Table and again as
    Combat Results: the sheet prints it once, as the table."""
    sheet = a4_context(rules, "impulse")
    blocks = {b["id"]: b for s in sheet["sections"] for b in s["blocks"]}
    assert rules.table("impulse.damage-effects").notes  # the source's footnotes ...
    assert blocks["impulse.damage-effects"]["notes"] == []  # ... printed as Combat Results
    assert [i["text"] for i in blocks["impulse.combat-results"]["items"]][1] == "H= Hull Hits"
    for ruleset in RULESETS:
        sheet = a4_context(rules, ruleset)
        items = {
            text
            for s in sheet["sections"]
            for b in s["blocks"]
            if b["kind"] == "rules"
            for text in qr._item_texts(b["items"])
        }
        notes = [n for s in sheet["sections"] for b in s["blocks"] for n in b["notes"]]
        assert not items & set(notes), ruleset
        assert len(notes) == len(set(notes)), ruleset


def test_number_columns_are_marked_and_headings_capitalised(rules: Rules) -> None:
    wind = qr.block(rules.table("tactical.wind"))
    assert wind["heads"] == ["Result", "From°", "To°"]
    assert (wind["numeric"], wind["aligns"]) == (True, [False, True, True])
    crew = qr.block(rules.table("impulse.crew-status"))
    assert crew["heads"] == ["Position", "Effect"] and crew["aligns"] == [True, False]
    assert qr_tables.is_number("+2") and qr_tables.is_number("1-5") and qr_tables.is_number("14+")
    assert qr_tables.is_number(">21") and qr_tables.is_number("17%") and qr_tables.is_number("—")
    assert (
        not qr_tables.is_number("Calm")
        and not qr_tables.is_number("2H2R2C")
        and not qr_tables.is_number("N")
    )
    assert qr_tables.heading("from°") == "From°" and qr_tables.heading("1D10") == "1D10"
    page = a4_html(rules, "tactical")
    assert '<th class="n">From°</th>' in page
    assert "<th>Odds</th>" in a4_html(rules, "flob")


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize(("paper", "mono"), [("a4", False), ("letter", True)])
def test_pages_are_filled_numbered_and_headed_in_whole_words(
    rules: Rules, ruleset: str, paper: str, mono: bool
) -> None:
    """The sheet takes the pages it needs: its last page is filled at least half way down
    (a second page of a few lines is saved by a smaller body, or filled by a larger one).
    Each page says "Page N of M". No heading breaks a word with a hyphen or starts with a
    small letter."""
    reader = read(render_sheet("quick-reference", rules, ruleset=ruleset, paper=paper, mono=mono))
    count = len(reader.pages)
    height = PAGE_SIZES[paper][1]
    top, bottom = 7 * MM, 10 * MM  # the page margins: the footer is in the bottom one
    last = [r for r in drawn_text(reader.pages[-1]) if r.y < height - bottom]
    lowest = max(r.y for r in last)
    assert (lowest - top) / (height - top - bottom) >= qr_size.GOOD_FILL, (ruleset, paper, lowest)
    for number, page in enumerate(reader.pages, start=1):
        assert f"Page {number} of {count}" in page_text(page)
    options = {"ruleset": ruleset, "paper": paper, "mono": mono}
    headings = layout_facts("quick-reference", rules, **options)["headings"]
    assert len(headings) > 20
    for text, lines in headings:
        if lines:
            assert not lines[0][:1].islower(), text
        for line in lines[:-1]:
            word = line.split()[-1] if line.split() else ""
            if word.endswith(("-", "\u2010", "\u00ad")):
                # a break after a hyphen the heading has ("Non-Initiative"), none added
                assert word in text and not word.endswith(("\u2010", "\u00ad")), (text, lines)


# ---------------------------------------------------------------- the words printed


def _printed(value: Any) -> list[str]:
    """Every string of a sheet's blocks that is printed (not the table's id or reading)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() if k not in qr._UNPRINTED for s in _printed(v)]
    if isinstance(value, list | tuple):
        return [s for v in value for s in _printed(v)]
    return []


def _starts(items: list[dict[str, Any]], marker: str) -> list[str]:
    """Each rule item as it starts on the sheet: its bullet's marker (a sub-item's is "–"),
    then its label or its text; sub-items after their item."""
    found = []
    for item in items:
        found.append(f"{marker}{item['label'] or item['text']}")
        found += _starts(item["items"], "– ")
    return found


# a page of a book the player does not hold: "(page 21)", "(pp. 19-21)", "see page 3"
BOOK_PAGE = re.compile(r"\b(?:pages?|pp?\.)\s*\d", re.IGNORECASE)
# two signs in a row: a sub-item's "–" marker before a signed value ("– -x"), or a value
# printed twice ("-x -1")
DOUBLED_SIGN = re.compile(r"(?<!\w)[-–−+±]\s+[-–−+±]|[-–−+±]x\s+[-–−+±]?\d")


def _small_letter(text: str) -> bool:
    """Whether a printed line starts with a small letter (after a bullet, quote or bracket)."""
    return text.lstrip("•–-—(“\"' ")[:1].islower()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_words_printed_are_the_players(rules: Rules, ruleset: str) -> None:
    """No reference to a page of the source book the player does not hold; no doubled signs;
    every heading, sub-heading and rule item starts with a capital (a table's cells and a
    modifier's words, which read on from their heading, may not)."""
    sections = qr.drop_repeated_notes(qr.section_blocks(rules, ruleset, gm=False))
    text = _printed(sections)
    assert [t for t in text if BOOK_PAGE.search(t)] == []
    starts = [s["title"] for s in sections]
    for blk in (b for s in sections for b in s["blocks"]):
        starts.append(blk["title"])
        starts += [g["group"] for g in blk.get("groups", []) if g["group"]]
        starts += _starts(blk.get("items", []), "• ")
    assert [t for t in text + starts if DOUBLED_SIGN.search(t)] == []
    assert [t for t in starts if _small_letter(t)] == []


def test_the_checks_find_what_the_review_found() -> None:
    """What a reviewer found on the sheets (high seas, duel) is what the checks catch."""
    assert BOOK_PAGE.search("light the ship's magazine (page 21) or cut the grapples")
    assert BOOK_PAGE.search("Ship Combat (pages 19-21 of High Seas)")
    assert not BOOK_PAGE.search("Roll 2d6+speed. Winner alters range by 1.")
    assert DOUBLED_SIGN.search("– -x -1 for every previous parry this turn")
    assert DOUBLED_SIGN.search("-x -1 for every previous parry this turn")
    assert DOUBLED_SIGN.search("- -1 to hit") and DOUBLED_SIGN.search("– ± Crew quality")
    assert DOUBLED_SIGN.search("– + both ships lose 1 crew to fatigue.")
    assert not DOUBLED_SIGN.search("Every previous parry this turn: -1")
    assert not DOUBLED_SIGN.search("+1 Italian Style, -2 in water, 2-H sword, 1-5")
    assert _small_letter("left hand") and _small_letter("• counterattack at +1")
    assert _small_letter("– “actions are normal or long")
    assert not _small_letter("• Counterattack at +1") and not _small_letter("1D10")


def test_the_body_sizes_key_follows_every_module_of_the_sheet() -> None:
    """A size found is kept under the source of the quick reference's modules: a change to
    how its tables are laid out or its spec read finds the size again."""
    used = set(drawing_modules(qr_size.QUICK_REFERENCE))
    assert {qr.__name__, qr_size.__name__, qr_spec.__name__, qr_tables.__name__} <= used
