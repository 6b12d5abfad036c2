"""The disk cache: bytes kept under a key, for the validated rules (`generator.loading`)
and the static sheets (`generator.render.cache`, which makes their keys).

The folder is ``$QM_CACHE_DIR``, else ``$XDG_CACHE_HOME/quartermaster``, else
``~/.cache/quartermaster``; ``QM_CACHE_DIR=off`` turns the disk cache off. Everything in
it may be deleted at any time. Entries are written atomically; a cache that cannot be read
or written is skipped silently, and a damaged entry is never used: its bytes must match the
checksum in its file name.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from pathlib import Path


def cache_folder() -> Path | None:
    """Return the cache folder, or None when the disk cache is off."""
    chosen = os.environ.get("QM_CACHE_DIR")
    if chosen is not None:
        return None if chosen.strip().lower() in ("", "off", "0", "no") else Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "quartermaster"


def _entries(folder: Path, key: str, suffix: str) -> list[Path]:
    return sorted(folder.glob(f"{key}-*{suffix}"))


def load(key: str, suffix: str = ".pdf") -> bytes | None:
    """Return the cached bytes under `key`, or None (missing, unreadable or damaged)."""
    folder = cache_folder()
    if folder is None:
        return None
    with contextlib.suppress(OSError):
        for path in _entries(folder, key, suffix):
            data = path.read_bytes()
            if path.stem.endswith(hashlib.sha256(data).hexdigest()[:16]):
                return data
    return None


def store(key: str, data: bytes, suffix: str = ".pdf") -> None:
    """Keep `data` under `key`; a cache that cannot be written is skipped."""
    folder = cache_folder()
    if folder is None:
        return
    target = folder / f"{key}-{hashlib.sha256(data).hexdigest()[:16]}{suffix}"
    temp = None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(prefix=".", suffix=".part", dir=folder)
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.replace(temp, target)
        temp = None
    except OSError:
        pass
    finally:
        if temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(temp)
