"""Write output files atomically: a temporary file beside the target, then a rename.

An interrupted run never leaves a half-written file under a final name; a folder that
cannot be written is one clear error naming it.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from generator.errors import InputError, QuartermasterError


def ensure_dir(folder: Path) -> Path:
    """Create `folder` (and parents) or raise an error naming it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise InputError(f"{folder}: exists and is not a folder") from None
    except OSError as exc:
        raise InputError(f"{folder}: cannot create the folder: {exc.strerror or exc}") from None
    return folder


def _umask() -> int:
    current = os.umask(0o022)
    os.umask(current)
    return current


def write_atomic(path: Path, data: bytes) -> Path:
    """Write `data` to `path` through a temporary file and a rename; return `path`."""
    ensure_dir(path.parent)
    try:
        handle, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    except OSError as exc:
        raise InputError(f"{path.parent}: cannot write here: {exc.strerror or exc}") from None
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        # mkstemp makes the file private (0600); output gets the usual mode for the umask
        os.chmod(temp, 0o666 & ~_umask())
        os.replace(temp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise QuartermasterError(f"{path}: writing failed: {exc.strerror or exc}") from None
    return path
