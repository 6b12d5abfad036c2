"""scripts/golden.py's comparison: two small made sets, identical or one byte apart."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "golden.py"


@pytest.fixture(scope="module")
def golden() -> ModuleType:
    spec = importlib.util.spec_from_file_location("golden_script", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def _made_set(golden: ModuleType, folder: Path) -> None:
    """Write a set as `make` lays it out: a folder per case and the manifest."""
    made = [
        golden.Case("roll-2d6-text", "dice", (("roll", "2d6"),)),
        golden.Case("scenario-flob-json", "scenario", (("scenario", "flob", "--json"),)),
    ]
    for case in made:
        (folder / case.name / "files").mkdir(parents=True)
        (folder / case.name / "1.exit.txt").write_text("0\n")
        (folder / case.name / "1.stderr.txt").write_text("")
    (folder / "roll-2d6-text" / "1.stdout.txt").write_text("2d6 = 7\n  2d6 [2, 5] = 7\n")
    (folder / "scenario-flob-json" / "1.stdout.txt").write_text("{}\n")
    (folder / "scenario-flob-json" / "files" / "scenario.json").write_text('{"seed": 1}\n')
    golden.write_manifest(folder, made, "abc123")


def test_identical_sets_compare_equal(golden: ModuleType, tmp_path: Path) -> None:
    _made_set(golden, tmp_path / "base")
    _made_set(golden, tmp_path / "new")
    said: list[str] = []
    assert golden.compare_sets(tmp_path / "base", tmp_path / "new", say=said.append) == 0
    assert said == ["all 2 cases identical"]


def test_one_byte_different_names_the_case_and_shows_the_diff(
    golden: ModuleType, tmp_path: Path
) -> None:
    _made_set(golden, tmp_path / "base")
    shutil.copytree(tmp_path / "base", tmp_path / "new")
    changed = tmp_path / "new" / "scenario-flob-json" / "files" / "scenario.json"
    changed.write_text('{"seed": 2}\n')
    golden.write_manifest(
        tmp_path / "new",
        [
            golden.Case("roll-2d6-text", "dice", (("roll", "2d6"),)),
            golden.Case("scenario-flob-json", "scenario", (("scenario", "flob", "--json"),)),
        ],
        "abc123+dirty",
    )
    said: list[str] = []
    assert golden.compare_sets(tmp_path / "base", tmp_path / "new", say=said.append) == 1
    assert said[0] == "DIFF scenario-flob-json: files/scenario.json"
    assert '  -{"seed": 1}' in said and '  +{"seed": 2}' in said
    assert said[-1] == "1 of 2 cases differ"
    # --only leaves the differing case out: what is left is identical
    assert golden.compare_sets(tmp_path / "base", tmp_path / "new", "roll", say=said.append) == 0


def test_compare_command_exits_1_and_names_the_case(
    golden: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _made_set(golden, tmp_path / "base")
    _made_set(golden, tmp_path / "new")
    (tmp_path / "new" / "roll-2d6-text" / "1.exit.txt").write_text("1\n")
    made = [
        golden.Case("roll-2d6-text", "dice", (("roll", "2d6"),)),
        golden.Case("scenario-flob-json", "scenario", (("scenario", "flob", "--json"),)),
    ]
    golden.write_manifest(tmp_path / "new", made, "abc123")
    base, new = str(tmp_path / "base"), str(tmp_path / "new")
    assert golden.main(["compare", "--base", base, "--new", new]) == 1
    out = capsys.readouterr().out
    assert out.startswith("DIFF roll-2d6-text: 1.exit.txt\n")
    assert golden.main(["compare", "--base", base, "--new", base]) == 0
    assert capsys.readouterr().out == "all 2 cases identical\n"


def test_a_case_missing_from_one_set_differs(golden: ModuleType, tmp_path: Path) -> None:
    _made_set(golden, tmp_path / "base")
    _made_set(golden, tmp_path / "new")
    golden.write_manifest(
        tmp_path / "new", [golden.Case("roll-2d6-text", "dice", (("roll", "2d6"),))], "abc123"
    )
    said: list[str] = []
    assert golden.compare_sets(tmp_path / "base", tmp_path / "new", say=said.append) == 1
    assert said[0] == "DIFF scenario-flob-json: only in base"


def test_only_selects_cases_by_substring(golden: ModuleType) -> None:
    every = golden.cases()
    names = [case.name for case in every]
    assert len(names) == len(set(names))  # a case name is its folder: each one once
    chosen = [case.name for case in golden.select(every, "json,refusal-roll")]
    assert chosen and all("json" in name or "refusal-roll" in name for name in chosen)
    assert "refusal-roll-bad-expression" in chosen


def _blank_pdf(path: Path, title: str) -> None:
    from pypdf import PdfWriter

    writer = PdfWriter()
    writer.add_blank_page(width=200, height=200)
    writer.add_metadata({"/Title": title})
    with path.open("wb") as out:
        writer.write(out)


def test_a_differing_pdf_says_what_differs_in_it(golden: ModuleType, tmp_path: Path) -> None:
    for folder, title in (("base", "Action off Ushant"), ("new", "Action off Usbant")):
        made = [golden.Case("packet-flob", "packet", (("packet", "flob"),))]
        (tmp_path / folder / "packet-flob" / "files").mkdir(parents=True)
        _blank_pdf(tmp_path / folder / "packet-flob" / "files" / "packet.pdf", title)
        golden.write_manifest(tmp_path / folder, made, "abc123")
    said: list[str] = []
    assert golden.compare_sets(tmp_path / "base", tmp_path / "new", say=said.append) == 1
    assert said[0] == "DIFF packet-flob: files/packet.pdf"
    assert said[1].startswith("  files/packet.pdf: same page content; objects differ: ")
    # the same file read twice is the same, object by object (nothing compared by identity)
    pdf = tmp_path / "base" / "packet-flob" / "files" / "packet.pdf"
    assert golden._pdf_diff(pdf, pdf) == [
        "same pages and objects: the file's layout differs (xref, trailer)"
    ]
