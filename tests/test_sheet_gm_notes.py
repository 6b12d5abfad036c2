"""The Notes for the GM: every reading of the rules with the heading of the source it reads,
the house tables with what they fill in, and the tables that only set a game up, in sentences
a GM checks against the rulebook; at the end of every packet, never in a player's handout."""

from __future__ import annotations

import inspect
import re

import pytest

from generator.generate.scenario import roll_scenario
from generator.loading import Rules
from generator.render import pdf as pdfs
from generator.render.kinds import gm_notes
from generator.render.kinds import quick_reference as qr
from generator.render.sheets import cached_sheet_pdf, render_sheet, sheet_kinds
from generator.render.words import table_title
from generator.resolve import all_resolvers
from generator.rulesets import ruleset_ids
from tests.layouts import printed_sheet
from tests.pdfs import extracted_text, read, squeeze
from tests.test_player_words import table_ids

RULESETS = list(ruleset_ids())


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_reading_and_house_table_is_in_the_notes(rules: Rules, ruleset: str) -> None:
    """Blank (for the ruleset), every table with a note is there with its source's heading,
    every house table says what it fills in, and the set-up tables are printed whole."""
    notes = gm_notes.context(rules, None, "a4", ruleset)
    chosen = rules.rulesets[ruleset]
    read_as = {r["title"]: r for s in notes["sections"] for r in s["readings"]}
    house = {h["title"]: h for h in notes["house"]}
    for table in chosen.tables.values():
        title = table_title(table)
        if table.house:
            assert house[title]["why"], title
        elif table.note:
            assert read_as[title]["note"], title
            assert table.source.heading and table.source.heading in read_as[title]["source"]
    gm_tables = {key for s in qr.layout_of(ruleset).sections if s.gm for key in s.tables}
    printed = {b["id"] for s in notes["gm_sections"] for b in s["blocks"]}
    assert printed == {f"{ruleset}.{key}" for key in gm_tables}


# what a GM's ruling is not: the program's field names and remarks on how the rule sources
# were turned into data (they stay in the data files, as YAML comments)
NOT_FOR_A_GM = {
    "a field name": re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b"),
    "the text extraction": re.compile(r"\bextract(?:ed|ion)\b", re.IGNORECASE),
    "markup": re.compile(r"\bHTML\b|\bMarkdown\b|\bmarkup\b|<\w+>|\*\*\w", re.IGNORECASE),
    "the transcription": re.compile(r"\btranscri(?:bed|ption)\b|\bverbatim\b", re.IGNORECASE),
    "the data's structure": re.compile(
        r"\bstructured\b|\b(?:fields?|params?|cell_format)\b", re.IGNORECASE
    ),
    "the seed files": re.compile(r"\bseeds?\b", re.IGNORECASE),
    "the program": re.compile(r"\bresolvers?\b|\bthe program\b|\bas an input\b", re.IGNORECASE),
    "the source's tabs": re.compile(r"\btabs\b"),
    # "house: true", "ceil(difference / 2)": the data's and the code's notation, not words
    "a data value": re.compile(r"\b\w+:\s*(?:true|false|null)\b"),
    "code notation": re.compile(r"\b(?:ceil|floor|round|int|min|max)\("),
    # a GM's ruling says what house rules can change, not how the program is run; "house-rules"
    # split at a line end reads "houserules"
    "a command line": re.compile(
        r"(?<![\w-])--[a-z]|\bquartermaster\b|\bhouse-rules\b|\bhouserules\b"
    ),
}


def not_for_a_gm(text: str) -> dict[str, list[str]]:
    """What of the program or of the sources' extraction a text holds, by what it is."""
    found = {what: sorted(set(p.findall(text))) for what, p in NOT_FOR_A_GM.items()}
    return {what: words for what, words in found.items() if words}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_notes_are_written_for_a_gm(rules: Rules, ruleset: str) -> None:
    """Table ids are the tables' titles; the project's notes file, the program's parameters
    and field names, and remarks on the sources' extraction are not there: a GM reads
    rulings in words. Every decision a resolver takes is printed (DECISIONS)."""
    text = extracted_text(read(printed_sheet("gm-notes", rules, ruleset=ruleset)))
    assert "Notes for the GM" in text
    assert table_ids(rules).findall(text) == []
    for word in ("rules-notes", "Params", "params "):
        assert word not in text, word
    assert not_for_a_gm(text) == {}
    printed = squeeze(text)
    for _, table_id, words in (d for ds in DECISIONS.values() for d in ds):
        if table_id.startswith(f"{ruleset}."):
            assert squeeze(words) in printed, (table_id, words)


def test_the_check_finds_what_is_not_for_a_gm() -> None:
    bad = (
        "Extraction mending: HTML and Markdown markup was removed (<sup>, **3**). Structured "
        "fields: morale_fail_crew_status_spaces_left, min_str (params side). The seed's tabs "
        "are transcribed verbatim; the resolver takes it as an input. Tables marked house: "
        "true are the project's own; it is ceil(difference / 2). Change them with a houserules "
        "file (quartermaster --rules FILE)."
    )
    assert set(not_for_a_gm(bad)) == set(NOT_FOR_A_GM)
    good = (
        "Reading: the wind is named for where it blows from. A light punch does no damage; "
        "the 2-H sword strikes. Rolls of 5 or 6 succeed, as printed (1st rates: -2). For "
        "every two points is half the difference, rounded up; house rules can change any of "
        "these tables (the sheets mark them house). Morale: 3 -- 4."
    )
    assert not_for_a_gm(good) == {}


@pytest.mark.parametrize(
    "words",
    [
        "Tables marked house: true are the project's own",
        'for every two points" is ceil(difference / 2)',
        'divided by 3" is ceil(value / 3)',
        "change it with a house-rules file (quartermaster --rules FILE)",
        "change it with a houserules file",
        "give --rules FILE",
    ],
)
def test_the_check_finds_program_words(words: str) -> None:
    """What the review found in the notes (duel, and the opening of every ruleset's)."""
    assert not_for_a_gm(f"Rounding is always up: {words}.") != {}, words


# Every reading a resolver takes where the rules are silent or could be read two ways, with the
# table whose note says it and words of that note: (what, table id, words). A resolver whose
# code speaks of a reading or a decision must be listed here, so a new one gets its note.
DECISIONS: dict[str, list[tuple[str, str, str]]] = {
    "duel.attack": [("damage floor", "duel.attack", "damage never falls below 0")],
    "duel.parry": [("breakage", "duel.parry", "by default the weapon breaks on a natural 20")],
    "duel.block": [
        (
            "attacker first",
            "duel.blocking",
            "the attacker, who chooses Strength or Dexterity, rolls first",
        ),
        ("weapon bonus", "duel.blocking", "made harder by the attacker's weapon bonus"),
    ],
    "duel.punch": [("light punch", "duel.brawling", "a light punch may stun but does no damage")],
    "duel.haymaker": [("light haymaker", "duel.brawling", "a light haymaker does 1")],
    "duel.grapple": [
        ("attacker first", "duel.brawling", "the hold of a grapple) the attacker rolls first")
    ],
    "duel.tackle": [("a miss", "duel.brawling", "a tackle that misses leaves both standing")],
    "duel.wounds": [
        ("head and chest", "duel.wound-totals", "head and chest/flank damage are counted together"),
    ],
    "duel.sea-legs": [
        ("again", "duel.fighting-at-sea", "rolls again after further successful attacks")
    ],
    "duel.drowning": [
        ("held under", "duel.drowning", "the holder first"),
        ("drowned", "duel.drowning", "as many turns as his Endurance and fails again drowns"),
    ],
    "duel.disarm": [
        ("who rolls first", "duel.disarm", "the disarmer rolls first"),
        ("two-handed sword", "duel.weapons", "the two-handed sword is not a dueling weapon"),
    ],
    "high-seas.maneuver": [
        ("chase tie", "high-seas.tactics", "when the chase rolls tie, the range does not change"),
        ("escape", "high-seas.tactics", "farther than the farthest band is an escape"),
    ],
    "high-seas.cannon-fire": [
        ("brilliant", "high-seas.brilliant-maneuver", "+3 to the number a roll-under must make"),
        ("naturals", "high-seas.cannon-results", "the d20 is rolled even at Close range"),
        ("shared damage", "high-seas.boarding-notes", "the ship fired at taking the odd point"),
    ],
    "high-seas.damage": [("total", "high-seas.damage", "counted on the ship's total hull damage")],
    "high-seas.grapple": [
        ("brilliant", "high-seas.brilliant-maneuver", "+3 to the roll of a roll-high")
    ],
    "high-seas.boarding": [
        ("outnumbered", "high-seas.boarding", "counts everyone aboard, on deck and below"),
        ("losses", "high-seas.boarding", "taken from the trained fighters first"),
    ],
    "impulse.fire-combat": [
        (
            "hits over 12",
            "impulse.damage-effects",
            "more hits than the table's last column (12) are read as 12",
        )
    ],
    "convoy.recovery": [
        (
            "zero crew",
            "convoy.recovery",
            "with the Crew level at zero the recovery roll is 1D6, battle hardened or not",
        ),
        ("zero crew", "convoy.zero-level", "whether or not the crew is battle hardened"),
    ],
    "convoy.boarding": [
        (
            "drawn grapple",
            "convoy.boarding-grapple",
            "On equal successes neither side wins, so nobody boards",
        ),
        ("drawn fight", "convoy.boarding-fight", "the defender wins a drawn fight"),
    ],
    "tactical.movement": [
        (
            "floor",
            "tactical.movement",
            "less than 0, after the wind and the cards, is read as 0 spaces",
        ),
        ("calm", "tactical.wind", "none apply in a calm"),
    ],
    "flob.turn-order": [("colours", "flob.turn-sequence", "Red is one player's colour")],
    "flob.movement": [
        (
            "crews rank",
            "flob.sailing-movement",
            "crews rank Poor, Average, Experienced, Veteran, Elite",
        ),
        ("floor", "flob.lost-masts", "moves the ship 0, never backwards"),
        (
            "no masts",
            "flob.lost-masts",
            "lost both masts is dismasted and does not move under sail",
        ),
    ],
    "flob.tacking": [
        ("unused points", "flob.tacking-modifiers", "counts every unused point, the first")
    ],
    "flob.repairs": [("naturals", "flob.repairs", "a natural 1 or 6 has no rule of its own")],
    "flob.reloading": [
        ("(1)/(2)/(3)", "flob.ammunition-loading", "as the number of reload actions it takes")
    ],
    "flob.critical-hit": [("fire", "flob.critical-hits", "a fire that starts is a 1HF hull fire")],
    "flob.broadside": [
        (
            "dismasted",
            "flob.tactical-modifiers",
            '"Dismasted -2" applies when the firing ship is dismasted',
        ),
        ("weather", "flob.tactical-modifiers", "an Attack Number of 0 or less is not halved"),
        ("firing high", "flob.ammunition-effects", "the Hull losses are Mast losses"),
        ("reduction", "flob.damage-reduction", "s and str are not rr and are kept"),
    ],
    "flob.strike-test": [
        (
            "killed admiral",
            "flob.strike-modifiers",
            "a killed Admiral's quality (Superior, Inspired, Inept) no longer counts",
        ),
        (
            "extra tests",
            "flob.strike-modifiers",
            "counts the ship's Strike Tests already taken in the same boarding action",
        ),
    ],
    "flob.boarding-initiation": [
        (
            "manoeuvrable",
            "flob.boarding-initiation-modifiers",
            "counts only if the defending ship is manoeuvrable",
        ),
        ("counted once", "flob.boarding-initiation-modifiers", "gives +1 once, not +2"),
    ],
    "flob.boarding": [
        (
            "follow up",
            "flob.boarding-resolution",
            "only the ship that declared a counter-board may follow up",
        ),
        (
            "extra tests",
            "flob.boarding-resolution",
            "only the ship's earlier tests in this boarding action",
        ),
    ],
}


def test_every_decision_a_resolver_takes_is_a_note(rules: Rules) -> None:
    """A decision lives in a table's note (which the notes print, above), never only in code:
    each listed decision is in its table's note, and every resolver whose code speaks of a
    reading or a decision is listed."""
    for resolver_id, decisions in DECISIONS.items():
        for what, table_id, words in decisions:
            assert words in (rules.table(table_id).note or ""), (resolver_id, what)
    resolvers = all_resolvers()
    spoken = {
        resolver_id
        for resolver_id, resolver in resolvers.items()
        if re.search(r"\b(?:readings?|decision)\b", inspect.getsource(type(resolver)), re.I)
    }
    assert spoken <= set(DECISIONS)
    assert set(DECISIONS) <= set(resolvers)


def test_plain_reads_a_note_as_a_gm_does(rules: Rules) -> None:
    note = (
        "Reading: as rules-notes.md says: a tie is rerolled (rules-notes, tacking) "
        "(params rows_per_block); see flob.tacking."
    )
    assert gm_notes.plain(rules, note) == "As: a tie is rerolled; see “Tacking”."


def test_a_scenario_lists_the_house_tables_it_rolled_on(rules: Rules) -> None:
    """High seas officers are rolled on the duel's tables: the notes name them, and the
    ruleset they come from."""
    scenario = roll_scenario(rules, "high-seas", 5)
    notes = gm_notes.context(rules, scenario, "a4", "high-seas")
    listed = [(h["title"], h["from"]) for h in notes["house"]]
    assert len(listed) == len(scenario["house_tables"])
    duel = rules.rulesets["duel"].title
    assert (table_title(rules.table("duel.weapons")), duel) in listed
    assert not notes["house_all"]
    content = squeeze(extracted_text(read(render_sheet("gm-notes", rules, data=scenario))))
    assert squeeze("House tables this game uses") in content


def test_scenarios_on_the_same_house_tables_share_their_notes(
    rules: Rules, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The notes name the ruleset, not the scenario: a packet lays them out once for every
    scenario that rolled on the same house tables (the disk cache, by their HTML)."""
    assert sheet_kinds()["gm-notes"].cached
    first, second = roll_scenario(rules, "tactical", 1), roll_scenario(rules, "tactical", 2)
    assert first["house_tables"] == second["house_tables"] and first["title"] != second["title"]
    made = cached_sheet_pdf("gm-notes", rules, first, ruleset="tactical")

    def no_layout(*args: object, **kwargs: object) -> None:
        raise AssertionError("laid out again")

    monkeypatch.setattr(pdfs, "layout", no_layout)
    assert cached_sheet_pdf("gm-notes", rules, second, ruleset="tactical") == made
    assert first["title"] not in extracted_text(read(made))
