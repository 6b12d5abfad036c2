"""Every command that writes: our own files are replaced, others only with --force,
folders are made or refused in one line, a full disk leaves nothing behind, and all of
it is decided before any costly rendering."""

from __future__ import annotations

import importlib
import json
import os
from pathlib import Path
from typing import Any

import pytest

from generator.output import is_own_output
from tests.conftest import run

FOREIGN = "my own notes: do not lose\n"


def refused(capsys: pytest.CaptureFixture[str], path: Path, *args: str) -> None:
    """Run `args`: exit 2, one line naming `path` and --force, and `path` untouched."""
    before = path.read_bytes()
    code, out, err = run(capsys, *args)
    assert code == 2, err
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("error: ")
    named, _, rest = err.removeprefix("error: ").partition(": ")
    assert Path(named).resolve() == path.resolve()
    assert rest == "exists and was not written by Quartermaster; add --force to overwrite it\n"
    assert path.read_bytes() == before


def never(*args: object, **kwargs: object) -> Any:
    raise AssertionError("rendered before the output was checked")


@pytest.mark.parametrize(
    "command",
    [
        ("fleet", "tactical", "--seed", "3"),
        ("character", "--seed", "3"),
        ("scenario", "convoy", "--seed", "3"),
    ],
)
def test_generated_files_replace_only_our_own(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: tuple[str, ...]
) -> None:
    target = tmp_path / "out.yaml"
    target.write_text(FOREIGN)
    refused(capsys, target, *command, "-o", str(target))
    code, out, _ = run(capsys, *command, "-o", str(target), "--force")
    assert code == 0 and out == f"wrote {target}\n"
    assert is_own_output(target)
    # now it is ours: written again without --force
    code, _, _ = run(capsys, *command, "-o", str(target))
    assert code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.yaml"]


def test_missing_folders_are_made(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "new" / "deeper" / "fleet.json"
    code, _, _ = run(capsys, "fleet", "flob", "--seed", "1", "-o", str(target))
    assert code == 0
    assert json.loads(target.read_text())["ruleset"] == "flob"


def test_a_file_in_the_place_of_a_folder_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    blocker = tmp_path / "output"
    blocker.write_text(FOREIGN)
    code, out, err = run(capsys, "character", "--seed", "1", "-o", str(blocker / "a" / "c.yaml"))
    assert (code, out) == (2, "")
    assert err == f"error: {blocker}: exists and is not a folder\n"
    assert blocker.read_text() == FOREIGN


def test_an_unwritable_folder_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    if os.geteuid() == 0:  # root writes anywhere: pretend the folder is read-only
        real_open = os.open

        def refuse(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
            if Path(path).parent == locked and flags & os.O_CREAT:
                raise PermissionError(13, "Permission denied")
            return real_open(path, flags, *args, **kwargs)

        monkeypatch.setattr(os, "open", refuse)
    else:
        locked.chmod(0o500)
    try:
        code, out, err = run(
            capsys, "fleet", "impulse", "--seed", "1", "-o", str(locked / "f.json")
        )
        assert (code, out) == (2, "")
        assert err == f"error: {locked}: cannot write here: Permission denied\n"
        assert list(locked.iterdir()) == []
    finally:
        locked.chmod(0o700)


def test_a_full_disk_is_one_line_and_leaves_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_write = os.write

    def full(fd: int, data: bytes | memoryview) -> int:
        if fd <= 2:
            return real_write(fd, data)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "write", full)
    target = tmp_path / "scenario.json"
    code, out, err = run(capsys, "scenario", "tactical", "--seed", "5", "-o", str(target))
    assert (code, out) == (2, "")
    assert err == (
        f"error: {target}: writing failed: No space left on device (nothing was written)\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_sheet_checks_its_file_before_rendering(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import generator.render.sheets

    monkeypatch.chdir(tmp_path)
    # a real sheet is ours: its trailer id and its Creator say so
    code, out, _ = run(capsys, "sheet", "duel-record")
    assert code == 0 and out == "wrote output/duel-record.pdf\n"
    written = tmp_path / "output" / "duel-record.pdf"
    assert is_own_output(written)
    from pypdf import PdfReader

    metadata = PdfReader(written).metadata
    assert metadata is not None and metadata.creator == "Quartermaster"

    monkeypatch.setattr(generator.render.sheets, "render_sheet", never)
    theirs = tmp_path / "output" / "duel-record-7.pdf"
    theirs.write_text(FOREIGN)
    refused(capsys, theirs, "sheet", "duel-record", "--seed", "7")
    refused(capsys, theirs, "sheet", "duel-record", "-o", str(theirs))
    monkeypatch.setattr(generator.render.sheets, "render_sheet", lambda *a, **k: b"%PDF-new")
    code, _, _ = run(capsys, "sheet", "duel-record", "-o", str(written))
    assert code == 0 and written.read_bytes() == b"%PDF-new"
    code, _, _ = run(capsys, "sheet", "duel-record", "--seed", "7", "--force")
    assert code == 0 and theirs.read_bytes() == b"%PDF-new"


class FakePacket:
    def write(self, sides: set[int] | None = None) -> bytes:
        return f"%PDF-fake {sorted(sides) if sides else 'all'}".encode()


def test_packet_and_handouts_are_checked_before_rendering(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import generator.pdf.packet

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(generator.pdf.packet, "build_packet", never)
    (tmp_path / "output").mkdir()
    handout = tmp_path / "output" / "packet-duel-4-portuguese.pdf"  # the second side's navy
    handout.write_text(FOREIGN)
    args = ("packet", "duel", "--seed", "4", "--handouts")
    refused(capsys, handout, *args)
    assert [p.name for p in (tmp_path / "output").iterdir()] == [handout.name]
    # without --handouts that file is not touched, so nothing stands in the way
    monkeypatch.setattr(generator.pdf.packet, "build_packet", lambda *a, **k: FakePacket())
    code, out, _ = run(capsys, "packet", "duel", "--seed", "4")
    assert code == 0 and out == "wrote output/packet-duel-4.pdf\n"
    code, out, _ = run(capsys, *args, "--force")
    assert code == 0
    assert handout.read_bytes() == b"%PDF-fake [1]"
    mine = tmp_path / "mine.pdf"
    mine.write_text(FOREIGN)
    refused(capsys, mine, "packet", "duel", "--seed", "4", "-o", str(mine))


def test_batch_checks_every_file_it_would_write_before_starting(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import generator.pdf.batch as batch

    folder = tmp_path / "con"
    folder.mkdir()
    (folder / "readme.txt").write_text(FOREIGN)  # a file the batch does not write: fine
    second = folder / batch.packet_name("duel", 1, batch.batch_seeds(9, 2)[1])
    second.write_text(FOREIGN)
    monkeypatch.setattr(batch, "run_batch", never)
    args = ("batch", "duel", "--count", "2", "--seed", "9", "-o", str(folder))
    refused(capsys, second, *args)
    refused(capsys, second, *args, "--resume")
    index = folder / "index.pdf"
    index.write_text(FOREIGN)
    refused(capsys, index, *args, "--count", "1")

    calls: list[Path] = []

    def fake_run(folder: Path, options: object, **kwargs: object) -> dict[str, Any]:
        calls.append(folder)
        return {"packets": []}

    monkeypatch.setattr(batch, "run_batch", fake_run)
    code, out, _ = run(capsys, *args, "--force")
    assert code == 0 and calls == [folder]
    assert out == f"wrote 0 packets (0 pages) to {folder}\n"


def test_a_folder_with_our_manifest_keeps_the_batch_rules(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = tmp_path / "con"
    folder.mkdir()
    manifest = {"ruleset": "duel", "seed": 9, "count": 2, "packets": []}
    (folder / "manifest.json").write_text(json.dumps(manifest))
    (folder / "index.pdf").write_text(FOREIGN)  # inside our batch: the batch's business
    code, _, err = run(capsys, "batch", "duel", "--count", "2", "--seed", "9", "-o", str(folder))
    assert code == 2
    assert "already holds a batch (manifest.json); add --resume" in err


def test_a_batch_folder_that_is_a_file_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    blocker = tmp_path / "con"
    blocker.write_text(FOREIGN)
    args = ("batch", "duel", "--count", "1", "--seed", "1", "-o", str(blocker / "x"))
    code, _, err = run(capsys, *args)
    assert code == 2
    assert err == f"error: {blocker}: exists and is not a folder\n"


def test_play_checks_its_log_folder_before_the_session(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    blocker = tmp_path / "logs"
    blocker.write_text(FOREIGN)
    code, out, err = run(capsys, "play", "tactical", "-o", str(blocker / "tonight"))
    assert (code, out) == (2, "")
    assert err == f"error: {blocker}: exists and is not a folder\n"


def test_play_never_replaces_an_existing_log(tmp_path: Path) -> None:
    from generator.loading import load_rules
    from generator.play import PlaySession

    play = PlaySession(load_rules(), "tactical", 1, tmp_path)
    taken = play.log_paths[0]
    taken.write_text(FOREIGN)
    play.handle("roll 2d6")
    text_log, json_log = play.log_paths
    assert text_log.name == taken.stem + "-2.txt" and json_log.exists()
    assert taken.read_text() == FOREIGN
    play.handle("roll 2d6")
    assert play.log_paths == (text_log, json_log)
    assert len(json.loads(json_log.read_text())["entries"]) == 2


# a place no one may write, root included: nothing can be made under /proc
IMPOSSIBLE = Path("/proc/quartermaster-test")


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc (Linux)")
@pytest.mark.parametrize(
    ("args", "work"),
    [
        (("fleet", "flob", "-o", "OUT/f.json"), "generator.generate.scenario.roll_force"),
        (("character", "-o", "OUT/c.yaml"), "generator.generate.duel.roll_character"),
        (("scenario", "flob", "-o", "OUT/s.json"), "generator.generate.scenario.roll_scenario"),
        (("sheet", "duel-record", "-o", "OUT/d.pdf"), "generator.render.sheets.render_sheet"),
        (
            ("sheet", "roster", "--ruleset", "flob", "--seed", "5", "-o", "OUT/r.pdf"),
            "generator.generate.scenario.roll_scenario",
        ),
        (("packet", "flob", "--seed", "5", "-o", "OUT/p.pdf"), "generator.pdf.packet.build_packet"),
        (
            ("packet", "flob", "--seed", "5", "--handouts", "-o", "OUT/p.pdf"),
            "generator.generate.scenario.roll_scenario",
        ),
        (
            ("batch", "duel", "--count", "2", "--seed", "1", "-o", "OUT"),
            "generator.pdf.batch.run_batch",
        ),
        (("play", "flob", "-o", "OUT"), "generator.play.run_prompt"),
    ],
)
def test_every_output_place_is_checked_before_any_work(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    args: tuple[str, ...],
    work: str,
) -> None:
    """`packet flob -o /proc/x/p.pdf` rendered for 14-30 s, then refused the place: root
    may write where the permissions say no, so the place is tried for real, before the
    work (here made to fail if it is begun)."""
    module, _, name = work.rpartition(".")
    monkeypatch.setattr(importlib.import_module(module), name, never)
    code, out, err = run(capsys, *(a.replace("OUT", str(IMPOSSIBLE)) for a in args))
    assert (code, out) == (2, ""), err
    assert err == (
        f"error: {IMPOSSIBLE}: cannot create the folder: No such file or directory (in /proc)\n"
    )
