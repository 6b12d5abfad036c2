"""Shared fixtures: the loaded rules, the seed texts, and a CLI runner."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from generator.loading import Rules, load_rules

# static sheets are cached on disk (generator/render/cache.py): the tests use a cache of
# their own, never the user's, and their subprocesses inherit it
os.environ["QM_CACHE_DIR"] = tempfile.mkdtemp(prefix="qm-test-cache-")

REPO = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _seeds_dir() -> Path | None:
    candidates = [REPO.parent / "shared" / "seeds"]
    if os.environ.get("QM_SEEDS"):
        candidates.insert(0, Path(os.environ["QM_SEEDS"]))
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    return None


@pytest.fixture(scope="session")
def rules() -> Rules:
    return load_rules()


@pytest.fixture(scope="session")
def seeds() -> Path:
    """The folder of rule sources; CI always has it beside the clone."""
    found = _seeds_dir()
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("the seeds folder ../shared/seeds is missing in CI")
        pytest.skip("../shared/seeds not beside this checkout (set QM_SEEDS to point at it)")
    return found


def seed_text(seeds: Path, prefix: str) -> str:
    (path,) = seeds.glob(f"{prefix}_*.txt")
    return path.read_text(encoding="utf-8")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run the CLI in this process as a user would; return (exit code, stdout, stderr)."""
    from generator.cli import main

    with pytest.raises(SystemExit) as caught:
        main(list(args))
    out, err = capsys.readouterr()
    code = caught.value.code
    return (code if isinstance(code, int) else 0), out, err
