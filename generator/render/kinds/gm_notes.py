"""Notes for the GM: how the rules were read, the house tables a game uses, and the tables
that only set up a game.

Player sheets carry the rules' words and the numbers; everything about how the rules were
transcribed is here instead: the ruleset's own notes; every reading decided where the source
was damaged or ambiguous (a table's note), grouped as the quick reference groups the tables,
with the heading of the source it reads; every house table the scenario uses (or, blank,
the ruleset has), with what the sources leave out that it fills in; and the tables players
do not consult in play (the quick reference spec's ``gm`` sections), printed as the quick
reference prints tables. Written as sentences a GM can check against the rulebook: a table
id is given as the table's title, and the project's file names are left out.
"""

from __future__ import annotations

import re
from typing import Any

from generator.loading import Rules, Table
from generator.render.kinds import quick_reference as qr
from generator.render.kinds.quick_reference.spec import layout_of
from generator.render.words import table_title, table_titles
from generator.ruleset.model import Scenario

# how the data files point at the record of the decisions, which a GM does not have
_NOTES_FILE = r"rules-notes(?:\.md)?"
_NOTES_CLEANUP = (
    (re.compile(rf"\s*{_NOTES_FILE} says(?=:)"), ""),  # "Read as rules-notes.md says: ..."
    (re.compile(rf"\s*\((?:not in |see )?{_NOTES_FILE}(?:,\s*[\w-]+)?\)"), ""),
    (re.compile(rf"\(\s*{_NOTES_FILE}\s*[;:,]\s*"), "("),  # "(rules-notes; over 4HF ...)"
    (re.compile(rf"\s*[;,]\s*{_NOTES_FILE}\s*\)"), ")"),  # "(a table id; rules-notes)"
    (re.compile(rf"\s*\b{_NOTES_FILE}\b"), ""),
    # pointers at the program's parameters: the sentence says what they hold
    (re.compile(r"\s*\(params? [^()]*\)"), ""),
    (re.compile(r"\s+in params \w+"), ""),
)
_READING = re.compile(r"^Reading\s*[:.]\s*", re.IGNORECASE)


def plain(rules: Rules, text: str) -> str:
    """Return a note as a GM reads it: table ids as the tables' titles in quotes, no
    mention of the project's notes file or of the program's parameters."""
    text = table_titles(rules, text)
    for pattern, replacement in _NOTES_CLEANUP:
        text = pattern.sub(replacement, text)
    text = _READING.sub("", text.strip())
    text = re.sub(r"\(\s*\)", "", text)
    text = re.sub(r"\s{2,}", " ", text)
    text = re.sub(r"\s+([.,;:)])", r"\1", text).strip()
    return text[:1].upper() + text[1:]


def _source(table: Table) -> str:
    """Say where in the rules a table comes from: the heading of its source."""
    if table.source.heading:
        return f"source: “{table.source.heading}”"
    return "house table"


def _listed_house(rules: Rules, data: Scenario | None, ruleset: str) -> list[Table]:
    """Return the house tables the notes list: those the scenario used (any ruleset's), in its
    order, or, blank, every house table of the ruleset."""
    if data is None:
        return [t for t in rules.rulesets[ruleset].tables.values() if t.house]
    listed = []
    for table_id in data.get("house_tables", []):
        try:
            listed.append(rules.table(str(table_id)))
        except KeyError:
            continue  # a file checked on reading names only tables there are
    return listed


# a table cell this long is a sentence or more of rules
SENTENCE_CHARS = 60


def _has_sentences(blk: dict[str, Any]) -> bool:
    """Whether a table has a column of sentences (a venue's rules): the notes print it across
    the page, where it reads as lines, not as a narrow column (which the layout engine also
    balances slowly)."""
    cells = [c for row in blk.get("rows", []) for c in row.get("cells", [])]
    return any(len(str(c.get("text", ""))) > SENTENCE_CHARS for c in cells)


def context(rules: Rules, data: Scenario | None, paper: str, ruleset: str | None) -> dict[str, Any]:
    """Return the readings by section, the house tables and the GM's tables of `ruleset` (for
    the scenario `data`, or blank for the ruleset)."""
    assert ruleset is not None  # render_sheet settles the ruleset before asking
    chosen = rules.rulesets[ruleset]
    plan = layout_of(ruleset)
    listed = _listed_house(rules, data, ruleset)
    listed_ids = {t.id for t in listed}
    sections = []
    for section in plan.sections:
        # a house table's reading goes with its entry in the list of house tables; a house
        # table the scenario did not roll on (one players roll on in play) keeps it here
        readings = [
            {
                "title": table_title(table),
                "source": _source(table),
                "why": plain(rules, str(table.source.house or "")) if table.house else "",
                "note": plain(rules, table.note),
            }
            for table in (chosen.tables[key] for key in section.tables)
            if table.note and table.id not in listed_ids
        ]
        if readings:
            sections.append({"title": section.title, "readings": readings})
    house = [
        {
            "title": table_title(table),
            "from": "" if table.ruleset == ruleset else rules.rulesets[table.ruleset].title,
            "why": plain(rules, str(table.source.house or "")),
            "note": plain(rules, table.note) if table.note else "",
        }
        for table in listed
    ]
    gm_sections = qr.section_blocks(rules, ruleset, gm=True)
    for printed in gm_sections:
        for blk in printed["blocks"]:
            blk["wide"] = blk["wide"] or _has_sentences(blk)
    # the ruleset alone, not the scenario's title or seed: the notes of every scenario that
    # rolled on the same house tables are the same pages (laid out once, sheets/gm-notes.yaml)
    return {
        "about": chosen.title,
        "ruleset": {"id": chosen.id, "title": chosen.title},
        "general": [plain(rules, note) for note in chosen.notes],
        "sections": sections,
        "house": house,
        "house_all": data is None,
        "gm_sections": gm_sections,
        "runs": qr.runs(gm_sections),
    }
