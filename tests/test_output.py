"""Output safety: nothing half-written, our own files told from others, clear errors."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from generator.errors import InputError, OutputError, QuartermasterError
from generator.output import check_folder, check_target, is_own_output, write_atomic


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


def test_a_failed_write_keeps_the_old_file_and_leaves_no_part_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "sheet.pdf"
    target.write_bytes(b"the old sheet")
    real_write = os.write
    calls = []

    def disk_fills_up(fd: int, data: bytes | memoryview) -> int:
        calls.append(fd)
        if len(calls) == 1:  # the disk takes part of the file, then is full
            return real_write(fd, bytes(data[:10]))
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "write", disk_fills_up)
    with pytest.raises(OutputError) as caught:
        write_atomic(target, b"x" * 100_000)
    assert str(caught.value) == (
        f"{target}: writing failed: No space left on device (nothing was written)"
    )
    assert caught.value.exit_code == 2
    assert len(calls) == 2
    assert target.read_bytes() == b"the old sheet"
    assert [p.name for p in tmp_path.iterdir()] == ["sheet.pdf"]


def test_an_interrupted_write_leaves_no_part_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(tmp_path / "out.pdf", b"data")
    assert list(tmp_path.iterdir()) == []


def test_writing_to_a_full_device_is_one_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The temporary file's writes go to /dev/full: the kernel's own ENOSPC."""
    import tempfile

    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    part = tmp_path / ".out.pdf.123.part"

    def onto_full_device(*args: object, **kwargs: object) -> tuple[int, str]:
        part.write_bytes(b"")
        return os.open("/dev/full", os.O_WRONLY), str(part)

    monkeypatch.setattr(tempfile, "mkstemp", onto_full_device)
    with pytest.raises(OutputError, match=r"out\.pdf: writing failed: No space left on device"):
        write_atomic(tmp_path / "out.pdf", b"%PDF-1.7 ...")
    assert list(tmp_path.iterdir()) == []


def _pdf(creator: str) -> bytes:
    import io

    from pypdf import PdfWriter

    writer = PdfWriter()
    writer.add_blank_page(width=100, height=100)
    writer.add_metadata({"/Creator": creator})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _resaved(pdf: bytes) -> bytes:
    """The PDF as another program might write it: Creator spelt without our byte mark."""
    mark = b"/Creator (Quartermaster)"
    assert mark in pdf
    return pdf.replace(mark, b"/Creator(Quartermaster) ")  # same length: offsets hold


@pytest.mark.parametrize(
    ("content", "ours"),
    [
        # our PDFs: the trailer id WeasyPrint writes for us, found without parsing
        (b"%PDF-1.7\n" + b"x" * 50_000 + b"\ntrailer\n<</ID [(quartermaster) (ab)]>>\n", True),
        # ... or the Creator as pypdf writes it near the start (packets and handouts)
        (_pdf("Quartermaster"), True),
        # a PDF of ours saved again elsewhere: the document info Creator, read with pypdf
        (_resaved(_pdf("Quartermaster")), True),
        (_pdf("LibreOffice Writer"), False),
        (b"%PDF-1.7\n" + b"x" * 50_000 + b"\n/Creator (Quartermaster)\n%%EOF\n", False),
        (b"%PDF-1.7 truncated", False),
        # generated data: a mapping with ruleset (text) and seed (a whole number)
        (b'{\n  "ruleset": "tactical",\n  "seed": 1805,\n  "title": "x"\n}\n', True),
        (b"ruleset: duel\nseed: 7\nname: Lovise Larsen\n", True),
        (b"name: edited\nseed: 7\nruleset: duel\n", True),
        (b"ruleset: duel\nseed: seven\n", False),
        (b"ruleset: duel\nseed: true\n", False),
        (b"- ruleset: duel\n  seed: 7\n", False),
        (b"my: notes\n", False),
        (b"# my notes: do not lose\n", False),
        (b"not: [valid yaml\n", False),
        (b"\xff\xfe binary", False),
        (b"", False),
        # play logs and a batch's manifest.csv
        (b"Quartermaster play log: Form Line of Battle\nstarted ...\n", True),
        (b"index,seed,file,pages,sha256,title,sides\n1,2,a.pdf,3,ff,t,a | b\n", True),
        (b"index,seed\n", False),
    ],
)
def test_own_output_is_told_by_its_contents(tmp_path: Path, content: bytes, ours: bool) -> None:
    path = tmp_path / "file.any"
    path.write_bytes(content)
    assert is_own_output(path) is ours


def test_large_data_files_are_not_parsed_to_find_out(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_bytes(b"ruleset: duel\nseed: 7\nnotes: '" + b"x" * (5 * 1024 * 1024) + b"'\n")
    assert not is_own_output(path)


def test_check_target_refuses_other_files_unless_forced(tmp_path: Path) -> None:
    theirs = tmp_path / "scenario.yaml"
    theirs.write_text("my: notes\n")
    with pytest.raises(OutputError) as caught:
        check_target(theirs)
    assert str(caught.value) == (
        f"{theirs}: exists and was not written by Quartermaster; add --force to overwrite it"
    )
    assert check_target(theirs, force=True) == theirs
    ours = tmp_path / "ours.yaml"
    ours.write_text("ruleset: tactical\nseed: 1\n")
    assert check_target(ours) == ours
    assert check_target(tmp_path / "new.yaml") == tmp_path / "new.yaml"
    assert theirs.read_text() == "my: notes\n"


def test_check_target_creates_nothing_and_refuses_folders_and_files_in_the_way(
    tmp_path: Path,
) -> None:
    deep = tmp_path / "a" / "b" / "out.pdf"
    assert check_target(deep) == deep
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(OutputError, match=r"is a folder; give a file name"):
        check_target(tmp_path)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)  # never opened (that would block), never replaced, even with --force
    assert not is_own_output(fifo)
    with pytest.raises(OutputError, match=r"pipe: not a regular file; give a file name"):
        check_target(fifo, force=True)
    fifo.unlink()
    blocker = tmp_path / "notes.txt"
    blocker.write_text("x")
    for target in (blocker / "out.pdf", blocker / "deeper" / "out.pdf"):
        with pytest.raises(OutputError, match=rf"^{blocker}: exists and is not a folder$"):
            check_target(target)
    with pytest.raises(OutputError, match=r"exists and is not a folder"):
        write_atomic(blocker / "deeper" / "out.pdf", b"x")


def test_unwritable_folders_found_before_writing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As if the folder were read-only (root may write anywhere, so making a file or a
    folder in it is refused as the system would)."""
    locked = tmp_path / "locked"
    locked.mkdir()
    real_open, real_mkdir = os.open, os.mkdir

    def refused(path: Any) -> bool:
        return Path(str(path)).parent == locked

    def open_(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if refused(path) and flags & os.O_CREAT:
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, *args, **kwargs)

    def mkdir(path: Any, *args: Any, **kwargs: Any) -> None:
        if refused(path):
            raise PermissionError(13, "Permission denied")
        real_mkdir(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", open_)
    monkeypatch.setattr(os, "mkdir", mkdir)
    with pytest.raises(OutputError, match=r"locked: cannot write here: Permission denied$"):
        check_target(locked / "out.pdf")
    with pytest.raises(
        OutputError, match=r"sub: cannot create the folder: Permission denied \(in .*locked\)$"
    ):
        check_folder(locked / "sub")


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() == 0,
    reason="root ignores folder permissions",
)
def test_read_only_folder_is_one_clear_error(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        with pytest.raises(OutputError, match=r"locked: cannot write here: Permission denied"):
            check_target(locked / "out.pdf")
        with pytest.raises(OutputError, match=r"locked: cannot write here: Permission denied"):
            write_atomic(locked / "out.pdf", b"x")
        with pytest.raises(OutputError, match=r"cannot create the folder: Permission denied"):
            write_atomic(locked / "sub" / "out.pdf", b"x")
        assert list(locked.iterdir()) == []
    finally:
        locked.chmod(0o700)


def test_output_errors_are_input_errors_with_exit_code_2() -> None:
    assert issubclass(OutputError, InputError) and OutputError.exit_code == 2


def test_a_place_that_cannot_be_made_is_found_though_permissions_allow_it(
    tmp_path: Path,
) -> None:
    """Root may write where the mode bits say no, and no one may make a folder in /proc:
    the nearest folder is tried for real, and nothing is left of the try."""
    if Path("/proc").is_dir():
        with pytest.raises(
            OutputError,
            match=r"^/proc/qm/x: cannot create the folder: No such file or directory \(in /proc\)$",
        ):
            check_target(Path("/proc/qm/x/out.pdf"))
    check_target(tmp_path / "a" / "b" / "out.pdf")
    check_target(tmp_path / "out.pdf")
    assert list(tmp_path.iterdir()) == []
