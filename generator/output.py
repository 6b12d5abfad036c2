"""Write output files safely: checked first, then a temporary file and a rename.

Before any costly work a command calls `check_target` on each file it will write: a
folder that cannot be made or written (tried for real, not judged by its permissions), a
folder in the place of the file, or an existing file that Quartermaster did not write
(unless ``--force``) is one clear error naming it, and nothing is written. `write_atomic`
then writes through a temporary ``.NAME.*.part`` file beside the target and renames it
into place, so an interrupted run or a full disk never leaves a half-written file under a
final name, nor the temporary file.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from generator.errors import InputError, OutputError
from generator.yamlfile import read_yaml

#: the document-info Creator of every PDF (templates/base.html.j2's generator meta)
PDF_CREATOR = "Quartermaster"
#: the Creator as pypdf writes it, uncompressed near the start (packets, handouts)
PDF_CREATOR_MARK = b"/Creator (Quartermaster)"
#: what WeasyPrint writes into the trailer for us (``pdf_identifier``: sheets, index.pdf)
PDF_ID_MARK = b"/ID [(quartermaster)"
#: the first line of a play session's text log (generator/play.py)
PLAY_LOG_MARK = b"Quartermaster play log:"
#: the header row of a batch's manifest.csv (generator/pdf/batch.py)
MANIFEST_CSV_MARK = b"index,seed,file,pages,sha256,title,sides\n"
#: JSON or YAML larger than this is not ours (and is not parsed to find out)
MAX_DATA_BYTES = 4 * 1024 * 1024
_TAIL_BYTES = 4096


def ensure_dir(folder: Path) -> Path:
    """Create `folder` (and parents) or raise an error naming it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise OutputError(f"{folder}: exists and is not a folder") from None
    except NotADirectoryError:
        check_folder(folder)
        raise OutputError(f"{folder}: cannot create the folder: a file is in the way") from None
    except OSError as exc:
        raise OutputError(f"{folder}: cannot create the folder: {exc.strerror or exc}") from None
    return folder


def check_folder(folder: Path) -> Path:
    """Check that `folder` exists or can be made, and written; leave nothing behind.

    Permissions do not say it all (root may write anywhere the mode bits say no, yet not
    make a folder under /proc or write to a read-only disk), so the nearest folder that
    exists is tried for real: a hidden file (the folder itself) or a hidden folder (a
    folder still to be made under it) is made there and removed at once.

    Raises:
        OutputError: the folder (or the nearest existing one above it) is a file, or
            cannot be written, or the folder cannot be made in it.
    """
    existing = folder
    while not existing.exists() and existing.parent != existing:
        existing = existing.parent
    if not existing.is_dir():
        raise OutputError(f"{existing}: exists and is not a folder")
    try:
        if existing == folder:
            handle, probe = tempfile.mkstemp(prefix=".qm-check.", dir=folder)
            os.close(handle)
            os.unlink(probe)
        else:
            os.rmdir(tempfile.mkdtemp(prefix=".qm-check.", dir=existing))
    except OSError as exc:
        reason = exc.strerror or str(exc)
        if existing == folder:
            raise OutputError(f"{folder}: cannot write here: {reason}") from None
        raise OutputError(f"{folder}: cannot create the folder: {reason} (in {existing})") from None
    return folder


def is_own_output(path: Path) -> bool:
    """Return True if `path` is a file Quartermaster wrote (so it may be overwritten).

    The marks, checked on the file's bytes (never its name):

    - PDF: the document info ``/Creator`` is ``Quartermaster``. Found without parsing
      where we can: packets and handouts (written by pypdf) carry
      ``/Creator (Quartermaster)`` uncompressed in their first 4 KB; sheets and a batch's
      index.pdf (written by WeasyPrint, info compressed) carry our ``pdf_identifier`` in
      the trailer, ``/ID [(quartermaster) ...]``, in their last 4 KB. Failing both (a
      PDF saved again by a viewer), pypdf reads the Creator.
    - JSON or YAML (fleet, character and scenario ``-o`` files, a batch's manifest.json,
      a play session's JSON log): a mapping at the top whose ``ruleset`` is text and whose
      ``seed`` is a whole number. Every generator writes both keys first, and a file
      edited by hand and handed back with ``--from`` keeps them. At most 4 MiB is parsed.
    - Text: a play session's log starts with ``Quartermaster play log:``; a batch's
      manifest.csv starts with its header row.

    Anything else, an empty file or a device included, is not ours.
    """
    if not path.is_file():
        return False
    try:
        with path.open("rb") as stream:
            head = stream.read(_TAIL_BYTES)
            size = os.fstat(stream.fileno()).st_size
            if head.startswith(b"%PDF-"):
                if PDF_CREATOR_MARK in head:
                    return True
                stream.seek(max(0, size - _TAIL_BYTES))
                if PDF_ID_MARK in stream.read():
                    return True
                return _pdf_creator(path) == PDF_CREATOR
    except OSError:
        return False
    if head.startswith((PLAY_LOG_MARK, MANIFEST_CSV_MARK)):
        return True
    if not head.strip() or size > MAX_DATA_BYTES:
        return False
    return _is_generated_data(path)


def _pdf_creator(path: Path) -> str | None:
    import logging

    from pypdf import PdfReader

    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        metadata = PdfReader(path, strict=False).metadata
        return None if metadata is None else metadata.creator
    except Exception:  # any damaged or foreign PDF is simply not ours
        return None


def _is_generated_data(path: Path) -> bool:
    try:
        data = read_yaml(path).data  # YAML reads JSON too; alias bombs are refused
    except InputError:
        return False
    return (
        isinstance(data, dict)
        and isinstance(data.get("ruleset"), str)
        and isinstance(data.get("seed"), int)
        and not isinstance(data.get("seed"), bool)
    )


#: the file names each kind of output may take (`check_target`)
SUFFIXES = {"pdf": (".pdf",), "data": (".json", ".yaml", ".yml")}


def check_target(
    path: Path,
    *,
    force: bool = False,
    kind: str | None = None,
    inputs: Iterable[Path | None] = (),
) -> Path:
    """Check that `path` can be written and may be replaced; return it. Writes nothing.

    Args:
        path: the file to be written.
        force: replace an existing file Quartermaster did not write.
        kind: ``pdf`` or ``data``: the name must end as that kind does (``.pdf``;
            ``.json``/``.yaml``/``.yml``), so a PDF never replaces a data file, nor the
            other way round, even though both are Quartermaster's own.
        inputs: the files this run reads (``--from``, ``--side``, ``--rules``): never
            replaced, not even with `force`.

    Raises:
        OutputError: its folder cannot be made or written, it is a folder or a device,
            its name is not of its kind, it is one of the run's inputs, or it is an
            existing file Quartermaster did not write and `force` is not set.
    """
    if kind is not None and path.suffix.lower() not in SUFFIXES[kind]:
        wanted = " or ".join(SUFFIXES[kind][:2])
        what = "a PDF" if kind == "pdf" else "data (JSON or YAML)"
        raise OutputError(
            f"{path}: this command writes {what}; give a file name ending in {wanted}"
        )
    for source in inputs:
        if source is not None and _same_file(path, source):
            raise OutputError(
                f"{path}: is a file this command reads ({source}); write to another name"
            )
    check_folder(path.parent)
    if path.is_dir():
        raise OutputError(f"{path}: is a folder; give a file name")
    if path.exists() and not path.is_file():  # a device or pipe: never read or replaced
        raise OutputError(f"{path}: not a regular file; give a file name")
    if not force and path.exists() and not is_own_output(path):
        raise OutputError(
            f"{path}: exists and was not written by Quartermaster; add --force to overwrite it"
        )
    return path


def _same_file(one: Path, other: Path) -> bool:
    """Say whether two paths name the same file (links and relative paths included)."""
    try:
        return one.exists() and other.exists() and os.path.samefile(one, other)
    except OSError:
        return False


def _umask() -> int:
    current = os.umask(0o022)
    os.umask(current)
    return current


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def write_atomic(path: Path, data: bytes) -> Path:
    """Write `data` to `path` through a temporary file and a rename; return `path`.

    Raises:
        OutputError: the folder cannot be made or written, or writing failed (a full
            disk, say); the temporary file is removed and any earlier file is untouched.
    """
    ensure_dir(path.parent)
    try:
        handle, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    except OSError as exc:
        raise OutputError(f"{path.parent}: cannot write here: {exc.strerror or exc}") from None
    try:
        try:
            _write_all(handle, data)
            os.fsync(handle)
        finally:
            os.close(handle)
        # mkstemp makes the file private (0600); output gets the usual mode for the umask
        os.chmod(temp, 0o666 & ~_umask())
        os.replace(temp, path)
    except BaseException as exc:  # a full disk, or Ctrl-C mid-write: leave nothing behind
        with contextlib.suppress(OSError):
            os.unlink(temp)
        if isinstance(exc, OSError):
            raise OutputError(
                f"{path}: writing failed: {exc.strerror or exc} (nothing was written)"
            ) from None
        raise
    return path
