"""The disk cache: bytes kept under a key, for the validated rules (`generator.loading`)
and the static sheets (`generator.render.cache`, which makes their keys).

The folder is ``$QM_CACHE_DIR``, else ``$XDG_CACHE_HOME/quartermaster``, else
``~/.cache/quartermaster``; ``QM_CACHE_DIR=off`` turns the disk cache off. Everything in
it may be deleted at any time. Entries are written atomically; a cache that cannot be read
or written is skipped silently, and a damaged entry is never used: its bytes must match the
checksum in its file name. An entry costly to make is made by one process at a time
(`made`): another asking meanwhile waits for it.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

# how long a process waits for another that is making the same entry before making it too
# (a quick reference searched for its body size takes a few seconds; a maker that died
# is noticed at once by its process id)
WAIT_S = 90.0
POLL_S = 0.05


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


def made(key: str, make: Callable[[], bytes], suffix: str = ".pdf") -> bytes:
    """Return the bytes under `key`, made by `make` and kept when missing; made once
    however many processes ask at the same time (two batch workers, on an empty cache, each
    wanting the same quick reference).

    The first to ask makes them, holding a lock file (``KEY.SUFFIX.making``, its process
    id inside); another waits for the entry, up to `WAIT_S`, or until that process is gone
    (killed before it stored anything), and then makes the bytes itself. Without a cache
    folder, or one that cannot be written, `make` simply runs.
    """
    found = load(key, suffix)
    if found is not None:
        return found
    folder = cache_folder()
    if folder is None:
        return make()
    lock = folder / f"{key}{suffix}.making"
    deadline = time.monotonic() + WAIT_S
    while True:
        try:
            folder.mkdir(parents=True, exist_ok=True)
            handle = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            if not _maker_alive(lock):
                with contextlib.suppress(OSError):
                    lock.unlink()  # left by a process that died: take it over
                continue
            if time.monotonic() < deadline:
                time.sleep(POLL_S)
                found = load(key, suffix)
                if found is not None:
                    return found
                continue
            break  # waited long enough: make them here too
        except OSError:
            break  # a folder that cannot be written: no lock to take
        else:
            try:
                with os.fdopen(handle, "w") as stream:
                    stream.write(str(os.getpid()))
                data = make()
                store(key, data, suffix)
                return data
            finally:
                with contextlib.suppress(OSError):
                    lock.unlink()
    data = make()
    store(key, data, suffix)
    return data


def _maker_alive(lock: Path) -> bool:
    """Whether the process that holds `lock` is still running (True while it is still
    writing its id, or when that cannot be told)."""
    try:
        written = lock.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        return True  # let go just now: look for the entry again
    except OSError:
        return True
    if not written.isdigit():
        return True  # being written
    try:
        os.kill(int(written), 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # another user's process: it exists
    return True
