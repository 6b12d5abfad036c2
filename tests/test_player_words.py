"""Player sheets hold the rules' words and the numbers a player needs, nothing of the program:
every sheet kind but the Notes for the GM, for every ruleset it serves, blank and filled (a
rolled scenario or character), read back from its PDF. And the faint ink of their labels
stays legible."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from generator.loading import Rules, load_rules
from generator.render.sheets import sheet_kinds
from generator.render.words import player_words
from generator.resources import resource_dir
from tests.fullest import fullest, variants
from tests.layouts import printed_sheet
from tests.pdfs import MM, drawn_text, flat, page_text, read

GM_ONLY = {"gm-notes"}  # the one sheet for the GM: readings, sources and house tables belong there

# (kind, ruleset) cases that still print program words, with what remains: sheets others
# are fixing at the same time
STILL_FAILING: dict[tuple[str, str], str] = {}

# program words a player sheet must not hold, besides the rules' table ids
PROGRAM_WORDS = {
    "a seed file's name": re.compile(r"\d{3}_[0-9a-f]{16}"),
    "the rules notes' file": re.compile(r"rules-notes", re.IGNORECASE),
    "a parameter list": re.compile(r"Params:"),
    "a table's structured fields": re.compile(r"Structured fields", re.IGNORECASE),
    "a Python literal": re.compile(r"\b(?:True|False|None)\b"),
    "a list of numbers": re.compile(r"\[\s*-?\d+(?:\.\d+)?(?:\s*,\s*-?\d+(?:\.\d+)?)*\s*\]"),
    "a whole number as a float": re.compile(r"(?<![\d.])\d+\.0(?!\d|\.\d)"),
    "a direction and its bearing": re.compile(
        r"\b(?:(?i:north|south|east|west)(?:-(?i:east|west))?|[NS][EW]|[NSEW])\s*,\s*\d{1,3}\b"
    ),
    "a full stop before a semicolon": re.compile(r"\.;"),
    # a remark on how the source printed a line ("Printed: Add the attacking ships ...",
    # 'printed as "-x"'): the sheet prints the rule's own words instead
    "a remark on the source's print": re.compile(r"\bprinted(?::|\s+as\b)", re.IGNORECASE),
}


def table_ids(rules: Rules) -> re.Pattern[str]:
    """Every table id of the rules (ruleset.key) as a word of its own."""
    ids = sorted((t.id for r in rules.rulesets.values() for t in r.tables.values()), key=len)
    either = "|".join(map(re.escape, reversed(ids)))  # the longest first
    return re.compile(rf"(?<![\w.-])(?:{either})(?![\w-])")


def names(data: Any) -> Iterator[str]:
    """Every name in generated data (a ship may be the True Blooded Yankee)."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key in ("name", "admiral_name", "title") and isinstance(value, str):
                yield value
            yield from names(value)
    elif isinstance(data, list):
        for value in data:
            yield from names(value)


def program_words(rules: Rules, text: str, data: Any = None) -> dict[str, list[str]]:
    """What of the program a sheet's text holds, by what it is (the data's names aside)."""
    for name in sorted(names(data), key=len, reverse=True):
        text = text.replace(name, " ")
    # an id may break at its own hyphen at the end of a line ("convoy.battle- clock")
    joined = re.sub(r"-\s+", "-", text)
    found = {"a table id": sorted(set(table_ids(rules).findall(f"{text} {joined}")))}
    for what, pattern in PROGRAM_WORDS.items():
        found[what] = sorted(set(pattern.findall(text)))
    return {what: words for what, words in found.items() if words}


def cases() -> Iterator[Any]:
    for kind, sheet in sorted(sheet_kinds().items()):
        if kind in GM_ONLY:
            continue
        variants = []
        if sheet.data == "none" or sheet.static_when_blank:
            variants.append("blank")
        if sheet.data != "none":
            variants.append("filled")
        for ruleset in sheet.rulesets:
            for variant in variants:
                marks = []
                if (kind, ruleset) in STILL_FAILING:
                    reason = STILL_FAILING[(kind, ruleset)]
                    marks.append(pytest.mark.xfail(strict=True, reason=reason))
                yield pytest.param(
                    kind, ruleset, variant, id=f"{kind}-{ruleset}-{variant}", marks=marks
                )


def filled(rules: Rules, kind: str, ruleset: str) -> dict[str, Any]:
    """The data a filled sheet is about: the fullest the print check prints (the same
    sheet, laid out once for both tests)."""
    return fullest(kind, ruleset, rules)


@pytest.mark.parametrize(("kind", "ruleset", "variant"), list(cases()))
def test_a_player_sheet_holds_no_program_words(
    rules: Rules, kind: str, ruleset: str, variant: str
) -> None:
    data = filled(rules, kind, ruleset) if variant == "filled" else None
    text = flat(read(printed_sheet(kind, rules, data=data, ruleset=ruleset)))
    assert len(text) > 200  # the sheet was read back
    assert program_words(rules, text, data) == {}


def test_every_player_sheet_is_checked_blank_and_filled() -> None:
    checked = {tuple(c.values) for c in cases()}
    kinds = sheet_kinds()
    assert {kind for kind, _, _ in checked} == set(kinds) - GM_ONLY
    for kind, ruleset, variant in [("briefing", "flob", "filled"), ("roster", "convoy", "blank"),
                                   ("character", "duel", "filled"), ("quick-reference", "duel",
                                   "blank"), ("map", "impulse", "filled")]:  # fmt: skip
        assert (kind, ruleset, variant) in checked
    assert ("briefing", "duel", "blank") not in checked  # a briefing is about a scenario
    assert set(STILL_FAILING) <= {(kind, ruleset) for kind, ruleset, _ in checked}


def test_the_check_finds_program_words() -> None:
    """Each pattern catches what it is for, and passes the rules' own words."""
    rules = load_rules()
    bad = (
        "Roll on tactical.broadside-attribute. Source: 003_9713941e64c4a0c3.txt (rules-notes). "
        "Params: rows_per_block 21. Structured fields: can_move True. Moves [3, 4, 5]; "
        "strength 160.0. Wind South, 180; wind SW, 225. Hits 3.; then Printed: Add the "
        'attacking ships Cannon; printed as "-x".'
    )
    assert set(program_words(rules, bad)) == {"a table id", *PROGRAM_WORDS}
    good = (
        "Wind from the south. Fair weather. Form Line of Battle 5.1: turn 1.5 hexes; 2d6+3; "
        "No armour; none of the ships. Strength 160; the Tactical Modifiers table; ships, 12. "
        "Printed orders; a printed sheet."
    )
    assert program_words(rules, good) == {}
    yankee = {"ships": [{"name": "True Blooded Yankee"}]}
    assert program_words(rules, "The True Blooded Yankee sails.", yankee) == {}


def test_player_words_turn_table_ids_into_titles(rules: Rules) -> None:
    said = player_words
    assert said(rules, "Swim (duel.swimming).") == "Swim (see “Swimming”)."
    assert said(rules, "6 m (one normal move, duel.actions), drawn.") == (
        "6 m (one normal move, see “Normal and Long Actions”), drawn."
    )
    assert said(rules, "roll again on flob.weather, keeping") == "roll again on “Weather”, keeping"
    assert said(rules, "Place them (map.start, in order).") == "Place them (in order)."
    assert said(rules, "Loading (flob.ammunition-loading).") == (
        "Loading (see “Ammunition: range, reload actions and critical hits”)."
    )
    assert said(rules, "Endurance + ceil(Strength / 3)") == "Endurance + Strength / 3, rounded up"
    assert said(rules, "e.g. 5 ships, i.e. a squadron.") == "e.g. 5 ships, i.e. a squadron."


# ---------------------------------------------------------------- no page of a line or two

# the text sheets written for players (the drawn ones place every page themselves)
TEXT_KINDS = ("briefing", "roster", "character", "duel-record", "playsheet")
LEAST_MM = 30.0  # a page's words, from the first line to the last


def text_cases() -> Iterator[Any]:
    for kind in TEXT_KINDS:
        for ruleset in sheet_kinds()[kind].rulesets:
            for variant in variants(kind):
                yield pytest.param(kind, ruleset, variant, id=f"{kind}-{ruleset}-{variant}")


@pytest.mark.parametrize(("kind", "ruleset", "variant"), list(text_cases()))
def test_no_page_on_letter_holds_only_a_line_or_two(
    rules: Rules, kind: str, ruleset: str, variant: str
) -> None:
    """Letter is 18 mm shorter than A4: the character sheet's last line once went to a page
    of its own. Blank and at the fullest data, every page's words run at least LEAST_MM down
    the page (a cover's map, moved whole to its own page, is far more)."""
    data = fullest(kind, ruleset, rules) if variant == "fullest" else None
    reader = read(printed_sheet(kind, rules, data=data, ruleset=ruleset, paper="letter"))
    for number, page in enumerate(reader.pages, 1):
        ys = [run.y for run in drawn_text(page)]
        assert (max(ys) - min(ys)) / MM >= LEAST_MM, (number, page_text(page)[:120])


# ---------------------------------------------------------------- legible faint labels


def luminance(colour: str) -> float:
    """The relative luminance of a #rrggbb colour (WCAG 2)."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_the_colours_words_are_set_in_read_on_paper_and_shade() -> None:
    """The faintest words of the text sheets (7 pt labels) have at least 4.5:1 against the
    paper and against the shaded header cells, in colour; mono is black on white."""
    css = (resource_dir("templates") / "base.css").read_text(encoding="utf-8")
    root = re.search(r":root\s*\{([^}]*)\}", css)
    assert root is not None
    colours = dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})", root[1]))
    assert contrast("#8a7f6a", "#ffffff") == pytest.approx(3.94, abs=0.01)  # the old faint
    for ink in ("ink", "faint", "accent", "rule"):
        assert contrast(colours[ink], "#ffffff") >= 4.5, ink
        assert contrast(colours[ink], colours["shade"]) >= 4.5, ink
