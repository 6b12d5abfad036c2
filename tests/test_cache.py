"""The disk cache of static sheets: same bytes, damaged entries ignored, can be off."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

# the sheets ask the ruleset contract, which generate fills as the app's import of it does:
# run alone, this file would find it empty
import generator.generate  # noqa: F401
from generator import diskcache
from generator.loading import Rules
from generator.render import cache, draw, sheets


def _render(rules: Rules, use_cache: bool = True) -> bytes:
    return sheets.static_sheet_pdf("ship-log", rules, ruleset="tactical", cache=use_cache)


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache folder, and no sheets kept in this process."""
    monkeypatch.setenv("QM_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(sheets, "_STATIC_PDFS", {})
    return tmp_path / "cache"


def test_a_static_sheet_is_kept_and_read_back_with_the_same_bytes(
    rules: Rules, folder: Path
) -> None:
    first = _render(rules)
    (entry,) = folder.glob("*.pdf")
    assert entry.read_bytes() == first
    sheets._STATIC_PDFS.clear()
    assert _render(rules) == first
    assert _render(rules, use_cache=False) == first


def test_a_damaged_entry_is_not_used(rules: Rules, folder: Path) -> None:
    good = _render(rules)
    (entry,) = folder.glob("*.pdf")
    entry.write_bytes(good[: len(good) // 2])
    sheets._STATIC_PDFS.clear()
    assert _render(rules) == good


def test_the_key_changes_with_the_html_and_the_form_fields() -> None:
    keys = {
        cache.sheet_key("<p>a</p>", fillable=False),
        cache.sheet_key("<p>b</p>", fillable=False),
        cache.sheet_key("<p>a</p>", fillable=True),
    }
    assert len(keys) == 3


def test_off_writes_nothing(rules: Rules, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QM_CACHE_DIR", "off")
    monkeypatch.setattr(sheets, "_STATIC_PDFS", {})
    assert diskcache.cache_folder() is None
    _render(rules)
    assert not list(tmp_path.iterdir())


def test_the_default_folder_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("QM_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert diskcache.cache_folder() == tmp_path / "quartermaster"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes anywhere")
def test_an_unwritable_cache_is_skipped(rules: Rules, folder: Path) -> None:
    folder.mkdir()
    folder.chmod(0o500)
    try:
        assert _render(rules)[:5] == b"%PDF-"
        assert not list(folder.iterdir())
    finally:
        folder.chmod(0o700)


def test_a_cache_folder_that_is_a_file_is_skipped(
    rules: Rules, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("not a folder")
    monkeypatch.setenv("QM_CACHE_DIR", str(blocker / "cache"))
    monkeypatch.setattr(sheets, "_STATIC_PDFS", {})
    assert _render(rules)[:5] == b"%PDF-"


def test_the_validated_rules_are_kept_and_a_changed_file_misses(
    folder: Path, tmp_path: Path
) -> None:
    """load_rules keeps a snapshot of what data/ builds; a changed file is read afresh."""
    from generator.loading import _builtin, load_rules
    from generator.resources import data_dir

    data = tmp_path / "data"
    shutil.copytree(data_dir(), data)
    first = load_rules(directory=data)
    (snapshot,) = folder.glob("rules-*.pickle")
    _builtin.cache_clear()
    assert load_rules(directory=data) == first  # from the snapshot
    flob = data / "flob.yaml"
    flob.write_text(flob.read_text(encoding="utf-8").replace("Broadside Table", "Broadsides"))
    _builtin.cache_clear()
    changed = load_rules(directory=data)
    assert changed.table("flob.broadside").title == "Broadsides"
    assert len(list(folder.glob("rules-*.pickle"))) == 2
    snapshot.write_bytes(b"damaged")  # a damaged snapshot is not used
    flob.write_text(flob.read_text(encoding="utf-8").replace("Broadsides", "Broadside Table"))
    _builtin.cache_clear()
    assert load_rules(directory=data) == first


def test_a_drawn_sheet_misses_when_a_module_it_draws_with_changes(
    rules: Rules, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The key follows the helper modules a kind imports, not its own module alone."""
    _render(rules)
    assert "generator.render.pagenumbers" in draw.drawing_modules("generator.render.kinds.ship_log")
    source = draw.module_source

    def edited(name: str) -> bytes:
        return source(name) + (b"\n# edited\n" if name == "generator.render.pagenumbers" else b"")

    monkeypatch.setattr(draw, "module_source", edited)
    sheets._STATIC_PDFS.clear()
    _render(rules)
    assert len(list(folder.glob("*.pdf"))) == 2


def test_the_key_follows_a_kind_package_s_modules_and_their_imports(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    kind = "generator.render.kinds.map"
    used = draw.drawing_modules(kind)
    # the package's painting and its layout, found through the modules that import them
    assert {f"{kind}.paint", f"{kind}.pages", f"{kind}.geometry", f"{kind}.shapes"} <= set(used)
    assert "generator.render.cells" in used  # imported by a helper, not by the kind
    assert not any(name.startswith("generator.loading") for name in used)
    before = draw.source_fingerprint(kind)
    source = draw.module_source
    monkeypatch.setattr(
        draw, "module_source", lambda name: source(name) + b"#" * (name == f"{kind}.shapes")
    )
    assert draw.source_fingerprint(kind) != before


# --- made once by however many processes ask at once ----------------------------------


def test_a_waiting_process_takes_the_entry_another_makes(folder: Path) -> None:
    """While a living process holds an entry's lock, another waits and reads what it
    stores rather than making it too."""
    lock = folder / "k.pdf.making"
    folder.mkdir(parents=True, exist_ok=True)
    lock.write_text(str(os.getpid()))  # a maker that is running (this process)
    timer = threading.Timer(0.3, lambda: diskcache.store("k", b"theirs"))
    timer.start()
    asked: list[str] = []
    try:
        got = diskcache.made("k", lambda: asked.append("made") or b"mine")
    finally:
        timer.join()
    assert got == b"theirs" and asked == []


def test_a_lock_left_by_a_dead_process_is_taken_over(folder: Path) -> None:
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                              capture_output=True, text=True, check=True)  # fmt: skip
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "k.pdf.making").write_text(finished.stdout.strip())  # its maker is gone
    assert diskcache.made("k", lambda: b"mine") == b"mine"
    assert diskcache.load("k") == b"mine"
    assert not (folder / "k.pdf.making").exists()


def test_a_maker_that_fails_lets_the_next_make_it(folder: Path) -> None:
    def failing() -> bytes:
        raise RuntimeError("out of memory")

    with pytest.raises(RuntimeError, match="out of memory"):
        diskcache.made("k", failing)
    assert not (folder / "k.pdf.making").exists()
    assert diskcache.made("k", lambda: b"second") == b"second"
