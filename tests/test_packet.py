"""Game-night packets: contents, bookmarks, odd-page sides, metadata, same bytes, handouts."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from generator.generate.base import get_generator
from generator.generate.scenario import dump, roll_scenario
from generator.loading import Rules
from generator.pdf.packet import build_packet
from generator.rulesets import ruleset_ids
from tests.fullest import fullest_packet, packet_scenario
from tests.pdfs import PAGE_SIZES, outline, read, widgets


def unit_names(scenario: dict[str, Any], side: int | None = None) -> list[str]:
    units = get_generator(scenario["ruleset"]).units
    sides = scenario["sides"] if side is None else [scenario["sides"][side]]
    return [unit["name"] for s in sides for unit in s[units]]


@pytest.fixture(scope="module", params=list(ruleset_ids()))
def made(request: pytest.FixtureRequest, rules: Rules) -> tuple[dict[str, Any], bytes]:
    """The packet the print check reads too (the longest title and names), on Letter."""
    return packet_scenario(rules, request.param), fullest_packet(rules, request.param, "letter")


def test_packet_contents_bookmarks_and_metadata(made: tuple[dict[str, Any], bytes]) -> None:
    scenario, pdf = made
    reader = read(pdf)
    text = " ".join(page.extract_text() for page in reader.pages).replace("\n", " ")
    for name in unit_names(scenario):
        assert name in text, name
    marks = outline(reader)
    top = [title for depth, title, _ in marks if depth == 0]
    assert top[0] == scenario["title"]
    for side in scenario["sides"]:
        assert side["name"] in top
    assert any("Quick reference" in title for title in top)
    if scenario["ruleset"] != "duel":
        ship_marks = {title for depth, title, _ in marks if depth == 2}
        assert set(unit_names(scenario)) <= ship_marks, "every ship has a bookmark under its log"
    assert all(
        tuple(round(float(v), 1) for v in (p.mediabox.width, p.mediabox.height))
        == PAGE_SIZES["letter"]
        for p in reader.pages
    )
    assert reader.metadata is not None
    assert reader.metadata.title == f"Game-night packet — {scenario['title']}"
    assert f"seed {scenario['seed']}" in str(reader.metadata.subject)


def test_each_side_starts_on_an_odd_page(made: tuple[dict[str, Any], bytes]) -> None:
    scenario, pdf = made
    marks = outline(read(pdf))
    for side in scenario["sides"]:
        page = next(p for depth, title, p in marks if depth == 0 and title == side["name"])
        assert page % 2 == 1, (side["name"], page)


def test_handouts_hold_only_their_side(rules: Rules) -> None:
    scenario = roll_scenario(rules, "tactical", 8)
    packet = build_packet(rules, scenario)
    for index in range(2):
        reader = read(packet.write(sides={index}))
        text = " ".join(page.extract_text() for page in reader.pages).replace("\n", " ")
        for name in unit_names(scenario, index):
            assert name in text
        other = scenario["sides"][1 - index]["name"]
        assert other not in [title for _, title, _ in outline(reader)]


def test_same_bytes_with_and_without_the_cache_in_other_processes_and_hash_seeds(
    rules: Rules, tmp_path: Path
) -> None:
    """The packet made in a test process with the cache, and from its scenario file by the
    command line in other processes, one without the cache, under other hash seeds."""
    cached = fullest_packet(rules, "tactical", "a4")
    source = tmp_path / "scenario.yaml"
    source.write_text(dump(packet_scenario(rules, "tactical"), "yaml"), encoding="utf-8")
    for hash_seed, cache in (("0", "off"), ("4242", os.environ["QM_CACHE_DIR"])):
        target = tmp_path / f"p{hash_seed}.pdf"
        subprocess.run(
            [sys.executable, "-m", "generator", "packet", "--from", source, "-o", target],
            check=True,
            capture_output=True,
            env={**os.environ, "PYTHONHASHSEED": hash_seed, "QM_CACHE_DIR": cache},
        )
        assert hashlib.sha256(target.read_bytes()).digest() == hashlib.sha256(cached).digest()


def test_packet_with_no_options_lands_in_output(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "generator", "packet"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    seed = proc.stderr.strip().split()[-1]
    written = tmp_path / "output" / f"packet-tactical-{seed}.pdf"
    assert written.is_file()
    assert proc.stdout.strip() == f"wrote {Path('output') / written.name}"


def test_a_fillable_packet_gives_every_sheet_fields_of_its_own(rules: Rules) -> None:
    """A PDF reader fills every field of one name at once: the officers' sheets of a
    high-seas packet (the same kind many times) must not share fields."""
    scenario = packet_scenario(rules, "high-seas")
    reader = read(build_packet(rules, scenario, fillable=True).write())
    names = [widget.name for widget in widgets(reader)]
    officers = sum(len(ship["officers"]) for side in scenario["sides"] for ship in side["ships"])
    assert officers > 1
    assert len(names) > 100
    assert len(names) == len(set(names))
    assert len(reader.get_fields() or {}) == len(names)
