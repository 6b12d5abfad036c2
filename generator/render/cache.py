"""A disk cache for the PDF bytes of static sheets (quick references, card decks, blanks),
and for the validated rules (a snapshot of what data/ builds, `generator.loading`).

A static sheet depends only on its HTML (template, rules data, paper and options) and on
the files the HTML links to (the stylesheet and fonts in templates/). Its key is a
sha256 of all of these plus the versions of Quartermaster and WeasyPrint, so a changed
template, house rule or upgrade simply misses. Entries are written atomically; a cache
that cannot be read or written is skipped silently (the sheet is rendered instead), and
a damaged entry is never used: its bytes must match the checksum in its file name.

The folder is ``$QM_CACHE_DIR``, else ``$XDG_CACHE_HOME/quartermaster``, else
``~/.cache/quartermaster``; ``QM_CACHE_DIR=off`` turns the disk cache off. Everything in
it may be deleted at any time.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from functools import cache
from pathlib import Path

from generator import __version__
from generator.resources import resource_dir

# the key holds a sheet's HTML or drawing inputs, not the code that writes it: raise FORMAT
# whenever that code changes what a cached sheet holds (2: WeasyPrint forms finished with
# appearances and fonts, drawn forms in the bundled font, cards and counters redrawn)
FORMAT = "2"


def cache_folder() -> Path | None:
    """Return the cache folder, or None when the disk cache is off."""
    chosen = os.environ.get("QM_CACHE_DIR")
    if chosen is not None:
        return None if chosen.strip().lower() in ("", "off", "0", "no") else Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "quartermaster"


@cache
def _resources_fingerprint() -> str:
    """Hash every file the sheets link to: the stylesheet, fonts and any image."""
    digest = hashlib.sha256()
    folder = resource_dir("templates")
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.name.endswith(".j2"):
            digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


@cache
def _weasyprint_version() -> str:
    from importlib.metadata import version

    return version("weasyprint")


def sheet_key(html: str, *, fillable: bool) -> str:
    """Return the cache key of a sheet made from `html`."""
    digest = hashlib.sha256()
    for part in (FORMAT, __version__, _weasyprint_version(), _resources_fingerprint()):
        digest.update(part.encode() + b"\0")
    digest.update(b"fillable\0" if fillable else b"printed\0")
    digest.update(html.encode("utf-8"))
    return digest.hexdigest()


@cache
def _reportlab_version() -> str:
    from importlib.metadata import version

    return version("reportlab")


def drawing_key(source: str, *, fillable: bool) -> str:
    """Return the cache key of a drawn sheet, given all it follows from as `source` (its
    code's fingerprint, its context and options)."""
    digest = hashlib.sha256()
    for part in (FORMAT, __version__, _reportlab_version(), _resources_fingerprint()):
        digest.update(part.encode() + b"\0")
    digest.update(b"fillable\0" if fillable else b"printed\0")
    digest.update(source.encode("utf-8"))
    return digest.hexdigest()


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
