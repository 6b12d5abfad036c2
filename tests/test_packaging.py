"""The wheel ships data/, specs/, templates/ and sheets/ and works outside the checkout."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import REPO


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(out),
            str(REPO),
        ],
        check=True,
        capture_output=True,
    )
    (built,) = out.glob("quartermaster-*.whl")
    return built


def _tracked(folder: str) -> list[str]:
    return [p.relative_to(REPO).as_posix() for p in (REPO / folder).rglob("*") if p.is_file()]


def test_wheel_holds_every_bundled_file(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder in ("data", "specs", "templates", "sheets"):
        files = _tracked(folder)
        assert files or folder != "data"
        for rel in files:
            assert f"generator/_bundled/{rel}" in names, rel
    assert "generator/cli/__init__.py" in names


def test_installed_wheel_reads_its_own_data(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "-q",
            "--target",
            str(target),
            str(wheel),
        ],
        check=True,
        capture_output=True,
    )
    env = {**os.environ, "PYTHONPATH": str(target)}
    code = (
        "import generator.resources as r, generator;"
        "print(r.data_dir());"
        "from generator.cli import main;"
        "main(['lookup', 'flob.broadside', 'attack=5', 'roll=7'])"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    first = proc.stdout.splitlines()[0]
    assert first.startswith(str(target)) and first.endswith("generator/_bundled/data")
    assert "rr" in proc.stdout
