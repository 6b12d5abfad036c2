"""The keys of the disk cache's static sheets (quick references, card decks, blanks): the
bytes are kept by `generator.diskcache`, beside the validated rules' snapshot.

A static sheet depends only on its HTML (template, rules data, paper and options) and on
the files the HTML links to (the stylesheet and fonts in templates/). Its key is a
sha256 of all of these plus the versions of Quartermaster and WeasyPrint, so a changed
template, house rule or upgrade simply misses.
"""

from __future__ import annotations

import hashlib
from functools import cache

from generator import __version__
from generator.diskcache import cache_folder, load, made, store
from generator.resources import resource_dir

__all__ = ["FORMAT", "cache_folder", "drawing_key", "load", "made", "sheet_key", "store"]

# the key holds a sheet's HTML or drawing inputs, not the code that writes it: raise FORMAT
# whenever that code changes what a cached sheet holds (2: WeasyPrint forms finished with
# appearances and fonts, drawn forms in the bundled font, cards and counters redrawn)
FORMAT = "2"


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
