"""The fullest data each sheet can be about, for the print checks (tests/test_print.py):
the biggest forces, the longest title, the longest names (and one that needs escaping),
and the duellist with the most to show."""

from __future__ import annotations

import copy
from typing import Any

from generator.generate.duel import roll_character
from generator.generate.scenario import roll_scenario
from generator.loading import Rules
from generator.render.sheets import sheet_kinds

# the biggest forces of seeds 0-399, the year rolled first (tactical 12 ships a side, two
# Diplomats; flob 7; high-seas 3 ships, 24 officers; impulse 4; convoy 42 is 8 merchants,
# 2 escorts and 4 raiders); duel 300 has the longest title
SEEDS = {"tactical": 8, "flob": 4, "high-seas": 13, "impulse": 58, "convoy": 42, "duel": 300}
# the longest titles the generators make, from seeds 0-399 (45 to 66 characters)
TITLE_SEEDS = {"tactical": 9, "flob": 12, "high-seas": 9, "impulse": 43, "convoy": 1, "duel": 300}
# a duellist with two weapons, armour and the most hit points (23) of seeds 0-1499
CHARACTER_SEED = 654
LONG_NAME = "Nuestra Señora de la Santísima Trinidad <&>"  # a ship: the longest, escaped
LONGEST_NAME = "Nuestra Señora de la Santísima Trinidad <&> Barbarigo della Terrazza"
ESCAPED = "Swan <&> Crow"


_SCENARIOS: dict[str, dict[str, Any]] = {}


def _scenario(rules: Rules, ruleset: str) -> dict[str, Any]:
    if ruleset in _SCENARIOS:
        return _SCENARIOS[ruleset]
    scenario = roll_scenario(rules, ruleset, SEEDS[ruleset])
    scenario["title"] = roll_scenario(rules, ruleset, TITLE_SEEDS[ruleset])["title"]
    for side in scenario["sides"]:
        if ruleset == "duel":
            side["name"] = side["characters"][0]["name"] = LONGEST_NAME
        else:
            side["ships"][0]["name"] = LONG_NAME
            side["ships"][-1]["name"] = ESCAPED
    _SCENARIOS[ruleset] = scenario
    return scenario


def fullest_scenario(rules: Rules, ruleset: str) -> dict[str, Any]:
    """The fullest scenario of `ruleset` (a fresh copy: callers may change it)."""
    return copy.deepcopy(_scenario(rules, ruleset))


def packet_scenario(rules: Rules, ruleset: str) -> dict[str, Any]:
    """The scenario of the packets the tests print: the longest title and the longest names
    (the biggest forces are printed sheet by sheet, `fullest`)."""
    scenario = roll_scenario(rules, ruleset, TITLE_SEEDS[ruleset])
    for side in scenario["sides"]:
        if ruleset == "duel":
            side["name"] = side["characters"][0]["name"] = LONGEST_NAME
        else:
            side["ships"][0]["name"] = LONG_NAME
            side["ships"][-1]["name"] = ESCAPED if len(side["ships"]) > 1 else LONG_NAME
    return scenario


def packet_scenario_told(rules: Rules, ruleset: str) -> dict[str, Any]:
    """`packet_scenario` as the application layer gives it to a packet (`told`: read from a
    file, as ``quartermaster packet --from`` reads it)."""
    from generator.app.printed import told

    return told(rules, packet_scenario(rules, ruleset), rolled=False)


def fullest_packet(rules: Rules, ruleset: str, paper: str) -> bytes:
    """The game-night packet of `packet_scenario_told`, made once per test session."""
    from generator.pdf.packet import build_packet
    from tests.conftest import shared

    def make() -> bytes:
        return build_packet(rules, packet_scenario_told(rules, ruleset), paper=paper).write()

    return shared(f"packet-{ruleset}-{paper}", make)


def fillable_packet(rules: Rules, ruleset: str) -> bytes:
    """The fillable game-night packet of `packet_scenario` on A4, made once per test
    session (a high-seas one has the same kind of sheet many times: an officer's each)."""
    from generator.pdf.packet import build_packet
    from tests.conftest import shared

    def make() -> bytes:
        return build_packet(rules, packet_scenario(rules, ruleset), fillable=True).write()

    return shared(f"packet-fillable-{ruleset}", make)


def fullest(kind: str, ruleset: str, rules: Rules) -> dict[str, Any]:
    """The fullest data a sheet of `kind` can be about."""
    if sheet_kinds()[kind].data == "character":
        person = roll_character(rules, CHARACTER_SEED)
        person["name"] = LONGEST_NAME
        return person
    scenario = fullest_scenario(rules, ruleset)
    if kind == "ship-log" and len(scenario["sides"]) > 1:
        # the biggest side alone (as a packet's handout prints it): the other side's logs
        # are the same cards again, and cost a layout as long
        scenario["sides"] = [max(scenario["sides"], key=lambda side: len(side["ships"]))]
    return scenario


# kinds whose blank sheet is their fullest: the Notes for the GM list every house table of the
# ruleset blank, and a scenario's (fewer, or a high-seas packet's officers' duel tables) are
# in every packet, which the print check reads on both papers
BLANK_IS_FULLEST = {"gm-notes"}


def variants(kind: str) -> list[str]:
    """The data to print a kind with: the fullest, and/or none (a blank sheet)."""
    sheet = sheet_kinds()[kind]
    if kind in BLANK_IS_FULLEST:
        return ["blank"]
    found = [] if sheet.data == "none" else ["fullest"]
    return [*found, "blank"] if sheet.data == "none" or sheet.static_when_blank else found
