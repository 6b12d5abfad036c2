"""Adding a ruleset takes its own files and nothing else (docs/adding-a-ruleset.md).

A copy of the program gets a made-up seventh ruleset, `skirmish`
(tests/fixtures/new-ruleset/: its rules data, its spec, its generator, its resolvers and
the module of its own cell format), and no other change; the copy then lists it, looks its
tables up (one read in its own cell format), resolves its procedure, rolls its fleets and
scenarios, and prints every sheet its spec names and a whole packet. The sheet code names
no ruleset at all.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest
from pypdf import PdfReader

from tests.conftest import REPO

NEW = Path(__file__).resolve().parent / "fixtures" / "new-ruleset"
COPIED = ("generator", "data", "specs", "sheets", "templates")
RULESET_NAMES = ("duel", "high-seas", "high_seas", "impulse", "convoy", "tactical", "flob")

# run inside the copy, in one process: each command as a user types it
SCRIPT = r"""
import contextlib, io, json, sys
from generator.cli import main

def run(*args):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(list(args))
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 0
    return {"args": args, "code": code, "out": out.getvalue(), "err": err.getvalue()}

results = [
    run("rulesets", "--json"),
    run("tables", "skirmish", "--json"),
    run("lookup", "skirmish.gunnery", "roll=6", "--json"),
    run("lookup", "skirmish.boarding", "roll=3", "--json"),
    run("resolvers", "skirmish", "--json"),
    run("resolve", "skirmish.gunnery", "close=yes", "--seed", "3", "--json"),
    run("resolve", "skirmish.gunnery", "close=yes", "--odds", "--json"),
    run("fleet", "skirmish", "--seed", "2", "--json"),
    run("scenario", "skirmish", "--seed", "2", "-o", "out/scenario.json"),
    run("sheet", "roster", "--from", "out/scenario.json", "-o", "out/roster.pdf"),
    run("sheet", "quick-reference", "--ruleset", "skirmish", "-o", "out/qr.pdf"),
    run("packet", "skirmish", "--seed", "2", "-o", "out/packet.pdf"),
]
# an edited file is checked against the schema its generator declares
with open("out/scenario.json", encoding="utf-8") as stream:
    edited = json.load(stream)
edited["sides"][0]["ships"][0]["hull"] = 99
with open("out/edited.json", "w", encoding="utf-8") as stream:
    json.dump(edited, stream)
refused = run("sheet", "roster", "--from", "out/edited.json", "-o", "out/edited.pdf")
# a house table's cells are read in the ruleset's own cell format too
with open("out/house.yaml", "w", encoding="utf-8") as stream:
    stream.write(
        "skirmish:\n  boarding:\n    title: Boarding\n    kind: table\n    house: true\n"
        "    source: {house: a test}\n    axes:\n"
        "      - {name: roll, title: 1D6, dice: 1d6, values: [1, 2, 3, 4, 5, 6]}\n"
        "    cell_format: skirmish-boarding\n    cells: [A2, A1, D1 A1, D1, D2, taken]\n"
    )
misread = run("lookup", "skirmish.boarding", "roll=3", "--rules", "out/house.yaml")
json.dump({"results": results, "refused": refused, "misread": misread}, sys.stdout)
"""


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The program copied, with the new ruleset's four files added and nothing changed."""
    root = tmp_path_factory.mktemp("seventh")
    for name in COPIED:
        shutil.copytree(
            REPO / name, root / name, ignore=shutil.ignore_patterns("__pycache__", "_bundled")
        )
    added = sorted(p.relative_to(NEW) for p in NEW.rglob("*") if p.is_file())
    for rel in added:
        assert not (root / rel).exists(), f"{rel} would replace a file of the program"
        shutil.copyfile(NEW / rel, root / rel)
    assert [str(p) for p in added] == [
        "data/skirmish.yaml",
        "generator/generate/skirmish.py",
        "generator/resolve/skirmish.py",
        "generator/ruleset/skirmish.py",
        "specs/skirmish.yaml",
    ]
    return root


@pytest.fixture(scope="module")
def results(copy: Path) -> dict[str, dict[str, object]]:
    env = {**os.environ, "PYTHONPATH": str(copy), "QM_CACHE_DIR": "off", "COLUMNS": "200"}
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=copy, env=env, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    found = json.loads(proc.stdout)
    return {
        **{" ".join(r["args"]): r for r in found["results"]},
        "refused": found["refused"],
        "misread": found["misread"],
    }


def test_every_command_knows_the_new_ruleset(results: dict[str, dict[str, object]]) -> None:
    failed = {
        k: r["err"]
        for k, r in results.items()
        if r["code"] != 0 and k not in ("refused", "misread")
    }
    assert not failed

    def out(command: str) -> object:
        return json.loads(str(results[command]["out"]))

    rulesets = [r["id"] for r in out("rulesets --json")]  # type: ignore[attr-defined]
    assert rulesets[-1] == "skirmish" and "tactical" in rulesets
    tables = out("tables skirmish --json")["tables"]  # type: ignore[index]
    assert {t["id"] for t in tables} >= {"skirmish.gunnery", "skirmish.ship-types"}
    looked = out("lookup skirmish.gunnery roll=6 --json")
    assert looked["result"] == "Raking hit" and looked["hull"] == 2  # type: ignore[index]
    # the Boarding table's cells read in the ruleset's own cell format
    boarding = out("lookup skirmish.boarding roll=3 --json")
    assert boarding["result"] == "A1 D1"  # type: ignore[index]
    assert (boarding["boarders_lose"], boarding["boarded_lose"]) == (1, 1)  # type: ignore[index]
    assert boarding["taken"] is False  # type: ignore[index]
    resolvers = out("resolvers skirmish --json")
    assert [r["id"] for r in resolvers] == ["skirmish.gunnery"]  # type: ignore[attr-defined]
    rolled = out("resolve skirmish.gunnery close=yes --seed 3 --json")
    assert rolled["outcome"] == "miss" and rolled["rolls"][0]["total"] == 2  # type: ignore[index]
    # 1d6 + 1 for an adjacent square: 2-3 miss, 4-5 hit, 6-7 a raking hit
    odds = out("resolve skirmish.gunnery close=yes --odds --json")
    assert odds["outcomes"] == {"hit": "1/3", "miss": "1/3", "raking hit": "1/3"}  # type: ignore[index]
    fleet = out("fleet skirmish --seed 2 --json")
    assert fleet["ruleset"] == "skirmish" and fleet["ships"]  # type: ignore[index]


def test_an_edited_file_is_checked_by_the_schema_its_generator_declares(
    results: dict[str, dict[str, object]],
) -> None:
    refused = results["refused"]
    assert refused["code"] == 2
    assert "sides[0].ships[0].hull" in str(refused["err"]) and "99" in str(refused["err"])


def test_a_cell_out_of_its_own_format_is_refused_at_load(
    results: dict[str, dict[str, object]],
) -> None:
    misread = results["misread"]
    assert misread["code"] == 2
    err = str(misread["err"])
    assert re.search(r"house\.yaml:\d+: skirmish\.boarding cells\[2\]: cell does not read", err)
    assert "'D1 A1' is not losses such as A1 D2" in err


def test_its_sheets_and_packet_print(copy: Path, results: dict[str, dict[str, object]]) -> None:
    scenario = json.loads((copy / "out" / "scenario.json").read_text(encoding="utf-8"))
    names = [ship["name"] for side in scenario["sides"] for ship in side["ships"]]
    roster = "".join(p.extract_text() for p in PdfReader(copy / "out" / "roster.pdf").pages)
    assert all(name in roster for name in names)
    assert "Strength of the squadron" in roster
    qr = "".join(p.extract_text() for p in PdfReader(copy / "out" / "qr.pdf").pages)
    assert "Raking hit" in qr and "Gunnery modifiers" in qr and "A1 D1" in qr
    packet = PdfReader(copy / "out" / "packet.pdf")
    titles = [item.title for item in packet.outline if not isinstance(item, list)]
    assert titles[0].startswith("Skirmish off")
    assert {"Scenario map", "Ship counters", "Quick reference"} <= set(titles)
    assert "Spare: Ship's log" in titles


def _code_words(path: Path) -> list[tuple[int, str]]:
    """Return the names and strings of a module's code and comments, with their lines."""
    found = []
    with path.open("rb") as handle:
        for token in tokenize.tokenize(handle.readline):
            if token.type in (tokenize.NAME, tokenize.STRING, tokenize.COMMENT):
                found.append((token.start[0], token.string))
    return found


def test_no_sheet_module_names_a_ruleset() -> None:
    pattern = re.compile(
        r"(?<![\w-])(" + "|".join(map(re.escape, RULESET_NAMES)) + r")(?![\w-])", re.IGNORECASE
    )
    modules = [
        *(REPO / "generator" / "render").rglob("*.py"),
        *(REPO / "generator" / "pdf").rglob("*.py"),
    ]
    assert len(modules) > 10
    named = [
        f"{path.relative_to(REPO)}:{line}: {text.strip()[:60]}"
        for path in modules
        for line, text in _code_words(path)
        if pattern.search(text)
    ]
    assert named == []


def test_the_rulesets_are_listed_once() -> None:
    """Only the specs folder lists the rulesets: no module keeps a list of ruleset ids."""
    listing = re.compile(r"""\(\s*["'](duel|tactical)["'],\s*["'][a-z-]+["'],\s*["']""")
    found = [
        str(path.relative_to(REPO))
        for path in (REPO / "generator").rglob("*.py")
        if listing.search(path.read_text(encoding="utf-8"))
    ]
    assert found == []
    assert sorted(p.stem for p in (REPO / "specs").glob("*.yaml")) == sorted(
        p.stem for p in (REPO / "data").glob("*.yaml") if p.stem != "names"
    )


def test_the_worked_example_is_the_page_of_the_docs() -> None:
    page = (REPO / "docs" / "adding-a-ruleset.md").read_text(encoding="utf-8")
    for rel in ("data/skirmish.yaml", "specs/skirmish.yaml"):
        assert rel in page
    assert "tests/fixtures/new-ruleset" in page
    assert io.StringIO(page).readline().startswith("# Adding a ruleset")
