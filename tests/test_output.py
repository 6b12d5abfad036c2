"""Atomic writes: nothing half-written, clear errors for folders that cannot be written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from generator.errors import InputError, QuartermasterError
from generator.output import write_atomic


def test_write_atomic_replaces_and_leaves_no_temp_files(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "folder" / "out.txt"
    write_atomic(target, b"first")
    write_atomic(target, b"second")
    assert target.read_bytes() == b"second"
    assert sorted(p.name for p in target.parent.iterdir()) == ["out.txt"]
    umask = os.umask(0o022)
    os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~umask


def test_a_file_in_the_way_of_the_folder_is_one_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "output"
    blocker.write_text("not a folder")
    with pytest.raises(InputError, match=r"output: exists and is not a folder"):
        write_atomic(blocker / "log.txt", b"x")


def test_unwritable_folder_is_one_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tempfile

    def refused(*args: object, **kwargs: object) -> tuple[int, str]:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", refused)
    with pytest.raises(InputError, match=r"locked: cannot write here: Permission denied"):
        write_atomic(tmp_path / "locked" / "x.txt", b"x")


def test_failed_write_removes_the_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken_fsync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    target = tmp_path / "full.txt"
    with pytest.raises(
        QuartermasterError, match=r"full\.txt: writing failed: No space left on device"
    ):
        write_atomic(target, b"data")
    assert list(tmp_path.iterdir()) == []
