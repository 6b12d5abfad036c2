"""The user's files and the rules: a file plainly not the text file an option takes is
refused by what it is, and the rules load with the house rules (checked first).

Light on purpose: the table commands (`lookup`, `resolve`) load the rules through here
and nothing of the generators or renderers.
"""

from __future__ import annotations

from pathlib import Path

from generator import loading
from generator.errors import InputError
from generator.loading import HouseRules, Rules, Ruleset
from generator.suggest import unknown

# files people hand over by mistake, by how they start (a stray control character in a
# text file is the YAML reader's to report, with its line)
NOT_TEXT = {
    b"%PDF-": "a PDF",
    b"PK\x03\x04": "a ZIP archive (or an office document)",
    b"\x89PNG\r\n": "a PNG image",
    b"\xff\xd8\xff": "a JPEG image",
}

# what each file option takes, for `check_input`
SCENARIO_FILE = "a scenario file (JSON or YAML, as 'quartermaster scenario -o' writes)"
FLEET_FILE = "a fleet file (JSON or YAML, as 'quartermaster fleet -o' writes)"
SCENARIO_OR_FLEET_FILE = (
    "a scenario or fleet file (JSON or YAML, as 'quartermaster scenario -o' or 'fleet -o' writes)"
)
CHARACTER_FILE = "a character file (JSON or YAML, as 'quartermaster character -o' writes)"
RULES_FILE = "a house-rules file (YAML)"


def check_input(path: Path | None, option: str, takes: str) -> None:
    """Refuse a file given to `option` that is plainly not the text file it takes (a PDF,
    say), naming what it is and what the option takes, rather than a byte it trips on."""
    if path is None:
        return
    try:
        with path.open("rb") as stream:
            head = stream.read(1024)
    except OSError:
        return  # missing or unreadable: the reader says which, naming the file
    for magic, what in NOT_TEXT.items():
        if head.startswith(magic):
            raise InputError(f"{path}: this is {what}; {option} takes {takes}")


def check_house_rules(house: HouseRules) -> None:
    """Refuse house rules in hand (an upload) that are plainly not a text file, as
    `check_input` refuses a file on disk, naming the file."""
    for magic, what in NOT_TEXT.items():
        if house.raw.startswith(magic):
            raise InputError(f"{house.name}: this is {what}, not {RULES_FILE}")


def load_rules(rules_file: Path | HouseRules | None) -> Rules:
    """Return the rules, with the house rules in `rules_file` (checked first) if given:
    a file on disk (``--rules``) or one in hand (a game night's)."""
    if isinstance(rules_file, HouseRules):
        check_house_rules(rules_file)
    else:
        check_input(rules_file, "--rules", RULES_FILE)
    return loading.load_rules(rules_file)


def check_ruleset(rules: Rules, ruleset_id: str) -> Ruleset:
    """Return the ruleset `ruleset_id`, or refuse naming the nearest and the list."""
    ruleset = rules.rulesets.get(ruleset_id)
    if ruleset is None:
        raise InputError(unknown("ruleset", ruleset_id, rules.rulesets))
    return ruleset
