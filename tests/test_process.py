"""A process that prints settles once (generator.app.process): the layout engine loaded and
what is loaded frozen out of the garbage collector's sight, before its first page, and never
again (a second freeze would keep the garbage made in between for good)."""

from __future__ import annotations

import gc
import subprocess
import sys
import textwrap

from tests.conftest import REPO


def test_a_sheet_settles_the_process_once() -> None:
    code = textwrap.dedent(
        """
        import gc, sys
        from generator.app import process
        from generator.app.printed import make_sheet
        from generator.app.requests import SheetRequest

        calls = []
        real = gc.freeze
        gc.freeze = lambda: (calls.append(1), real())[1]
        assert not process.settled() and gc.get_freeze_count() == 0
        make_sheet(SheetRequest("ship-log", ruleset="tactical"))
        assert process.settled() and "weasyprint" in sys.modules
        frozen = gc.get_freeze_count()
        assert frozen > 10_000, frozen
        make_sheet(SheetRequest("ship-log", ruleset="flob"))
        assert calls == [1], calls
        print("ok")
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
    assert done.stderr == ""  # nothing at exit either (the frozen objects are unfrozen)


def test_settling_is_done_once_per_process() -> None:
    from generator.app import process

    process.settle()
    frozen = gc.get_freeze_count()
    kept = [object() for _ in range(100)]
    process.settle()
    assert process.settled()
    assert gc.get_freeze_count() == frozen  # the new objects stay collectable
    assert kept
