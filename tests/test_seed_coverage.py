"""Completeness: every line of each seed is in its ruleset's data, and no rules text is invented.

A word-level check: a seed line counts as transcribed when nearly all of its words occur
in the data of its ruleset. It catches a dropped row, modifier or paragraph; the exact
cell-by-cell checks live in the per-ruleset seed tests.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from generator.loading import Rules, Table, thaw
from tests.conftest import seed_text

SEEDS = {
    "duel": ("000", None, "Ship Combat (pages 19-21 of High Seas)"),
    "high-seas": ("000", "Ship Combat (pages 19-21 of High Seas)", None),
    "impulse": ("001", None, None),
    "convoy": ("002", None, None),
    "tactical": ("003", None, None),
    "flob": ("004", None, None),
}
_WORD = re.compile(r"[a-zà-ÿ]{3,}")
_STOP = {
    "the",
    "and",
    "for",
    "are",
    "with",
    "that",
    "this",
    "not",
    "all",
    "any",
    "but",
    "its",
    "may",
    "has",
}


def words(text: str) -> list[str]:
    text = re.sub(r"<[^>]+>|&[a-z]+;|\*+", " ", text.casefold())
    return [w for w in _WORD.findall(text) if w not in _STOP]


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, int | float) and not isinstance(value, bool):
        yield str(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def table_strings(table: Table) -> Iterator[str]:
    yield table.title
    yield from table.notes
    yield from _strings(thaw(table.params))
    if table.source.heading:
        yield table.source.heading
    for axis in table.axes:
        yield axis.title
        for value in axis.values:
            yield value.label
    yield from _strings(thaw(table.cells))
    for mod in table.modifiers:
        yield mod.label
        yield str(mod.value)
        yield from (x for x in (mod.group, mod.per, mod.note) if x)
    for item in table.items:
        for sub in item.walk():
            yield sub.text
            if sub.label:
                yield sub.label


def seed_lines(seeds: Path, ruleset: str) -> list[str]:
    prefix, start, stop = SEEDS[ruleset]
    text = seed_text(seeds, prefix)
    if start:
        text = text[text.index(start) :]
    if stop:
        text = text[: text.index(stop)]
    return [line for line in text.splitlines() if len(words(line)) >= 2]


# Words the seed prints that are not content: extraction fragments rules-notes.md names
# ("lu nge", "slasl"), the abbreviation DRM printed before each impulse modifier (the data
# files the lists under "Die Roll Modifiers"), and column headings of lists the data
# holds as modifiers or steps (Activity, Comment, Note).
NOT_CONTENT = {
    "duel": {"nge", "slasl"},
    "impulse": {"drm"},
    "convoy": {"activity"},
    "tactical": {"note"},
    "flob": {"comment"},
    "high-seas": set(),
}


@pytest.mark.parametrize("ruleset", list(SEEDS))
def test_every_seed_line_is_transcribed(rules: Rules, seeds: Path, ruleset: str) -> None:
    data = rules.rulesets[ruleset]
    bag = set(NOT_CONTENT[ruleset])
    for text in (data.title, data.description, *data.notes):
        bag.update(words(text))
    for table in data.tables.values():
        for text in table_strings(table):
            bag.update(words(text))
    missing = []
    for line in seed_lines(seeds, ruleset):
        line_words = words(line)
        found = sum(w in bag for w in line_words)
        if found / len(line_words) < 0.9:
            absent = sorted({w for w in line_words if w not in bag})
            missing.append(f"{line.strip()[:90]!r}: {absent}")
    assert not missing, f"{ruleset}: seed lines not in the data:\n" + "\n".join(missing)


@pytest.mark.parametrize("ruleset", list(SEEDS))
def test_rules_text_comes_from_the_seed(rules: Rules, seeds: Path, ruleset: str) -> None:
    seed_words = set()
    for line in seed_lines(seeds, ruleset):
        seed_words.update(words(line))
    invented = []
    for table in rules.rulesets[ruleset].tables.values():
        if table.house:
            continue
        texts = [m.label for m in table.modifiers]
        texts += [sub.text for item in table.items for sub in item.walk()]
        for text in texts:
            text_words = words(text)
            if len(text_words) < 3:
                continue
            found = sum(w in seed_words for w in text_words)
            if found / len(text_words) < 0.75:
                invented.append(f"{table.id}: {text[:90]!r}")
    assert not invented, f"{ruleset}: text not found in the seed:\n" + "\n".join(invented)
