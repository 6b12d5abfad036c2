"""Convention batches: manifest, reproducibility, resume after loss or a killed run."""

from __future__ import annotations

import csv
import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.errors import InputError
from generator.pdf.batch import BatchOptions, batch_seeds, run_batch


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_seeds_are_distinct_and_repeatable() -> None:
    assert batch_seeds(2026, 40) == batch_seeds(2026, 40)
    assert len(set(batch_seeds(2026, 500))) == 500
    assert batch_seeds(2026, 5) != batch_seeds(2027, 5)
    assert batch_seeds(2026, 10)[:5] == batch_seeds(2026, 5)


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, object]]:
    folder = tmp_path_factory.mktemp("con")
    manifest = run_batch(folder, BatchOptions("convoy", 2026, 3), jobs=2)
    return folder, manifest


def test_manifest_lists_every_packet_with_its_checksum(
    batch: tuple[Path, dict[str, object]],
) -> None:
    folder, manifest = batch
    assert manifest["ruleset"] == "convoy" and manifest["seed"] == 2026 and manifest["count"] == 3
    packets = manifest["packets"]
    assert isinstance(packets, list) and [p["index"] for p in packets] == [1, 2, 3]
    assert [p["seed"] for p in packets] == batch_seeds(2026, 3)
    for entry in packets:
        path = folder / entry["file"]
        assert sha(path) == entry["sha256"]
        assert len(PdfReader(path).pages) == entry["pages"]
    rows = list(csv.DictReader((folder / "manifest.csv").open(encoding="utf-8")))
    assert [int(r["seed"]) for r in rows] == [p["seed"] for p in packets]
    index_text = " ".join(p.extract_text() for p in PdfReader(folder / "index.pdf").pages)
    for entry in packets:
        assert str(entry["seed"]) in index_text
    assert not list(folder.glob(".*.part"))


def test_the_same_batch_seed_gives_the_same_bytes(
    batch: tuple[Path, dict[str, object]], tmp_path: Path
) -> None:
    _, manifest = batch
    again = run_batch(tmp_path, BatchOptions("convoy", 2026, 3, cache=False), jobs=1)
    assert [p["sha256"] for p in again["packets"]] == [p["sha256"] for p in manifest["packets"]]  # type: ignore[union-attr]


def test_a_batch_run_from_the_command_line_under_another_hash_seed_gives_the_same_bytes(
    batch: tuple[Path, dict[str, object]], tmp_path: Path
) -> None:
    _, manifest = batch
    command = ["batch", "convoy", "--count", "2", "--seed", "2026", "--jobs", "1", "--no-cache"]
    subprocess.run(
        [sys.executable, "-m", "generator", *command, "-o", str(tmp_path)],
        check=True,
        capture_output=True,
        env={**os.environ, "PYTHONHASHSEED": "987"},
    )
    for entry in manifest["packets"][:2]:  # type: ignore[index]
        assert sha(tmp_path / entry["file"]) == entry["sha256"]


def test_resume_keeps_whole_packets_and_remakes_the_rest(tmp_path: Path) -> None:
    options = BatchOptions("duel", 9, 3)
    first = run_batch(tmp_path, options, jobs=1)
    files = [tmp_path / p["file"] for p in first["packets"]]
    kept_mtime = files[0].stat().st_mtime_ns
    files[1].unlink()
    files[2].write_bytes(b"%PDF-1.7 truncated")
    with pytest.raises(InputError, match=r"already holds a batch .* add --resume"):
        run_batch(tmp_path, options)
    with pytest.raises(InputError, match=r"made with other options \(count\)"):
        run_batch(tmp_path, BatchOptions("duel", 9, 4), resume=True)
    resumed = run_batch(tmp_path, options, resume=True)
    assert files[0].stat().st_mtime_ns == kept_mtime
    assert [p["sha256"] for p in resumed["packets"]] == [p["sha256"] for p in first["packets"]]
    assert all(sha(f) == p["sha256"] for f, p in zip(files, resumed["packets"], strict=True))


def test_a_killed_batch_resumes_to_the_same_result(tmp_path: Path) -> None:
    folder = tmp_path / "con"
    command = [
        sys.executable,
        "-m",
        "generator",
        "batch",
        "duel",
        "--count",
        "6",
        "--seed",
        "77",
        "--jobs",
        "1",
        "-o",
        str(folder),
    ]
    proc = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        manifest = folder / "manifest.json"
        if manifest.exists() and len(json.loads(manifest.read_text())["packets"]) >= 2:
            break
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    made = json.loads((folder / "manifest.json").read_text())["packets"]
    assert 2 <= len(made) < 6
    for entry in made:
        assert sha(folder / entry["file"]) == entry["sha256"]
    finished = subprocess.run([*command, "--resume"], capture_output=True, text=True, check=False)
    assert finished.returncode == 0, finished.stderr
    final = json.loads((folder / "manifest.json").read_text())["packets"]
    assert len(final) == 6
    assert all(sha(folder / p["file"]) == p["sha256"] for p in final)
    assert not list(folder.glob(".*.part"))
    fresh = run_batch(tmp_path / "fresh", BatchOptions("duel", 77, 6), jobs=2)
    assert [p["sha256"] for p in fresh["packets"]] == [p["sha256"] for p in final]


def test_ctrl_c_stops_a_batch_with_one_line_and_leaves_only_whole_files(tmp_path: Path) -> None:
    folder = tmp_path / "con"
    command = [sys.executable, "-m", "generator", "batch", "duel", "--count", "4"]
    proc = subprocess.Popen(
        [*command, "--seed", "5", "--jobs", "1", "-o", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        manifest = folder / "manifest.json"
        if manifest.exists() and json.loads(manifest.read_text())["packets"]:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    # 130 from main(); about one run in twenty here the process instead ends killed by the
    # SIGINT itself, after printing the same line (cause not found; a shell shows 130 for
    # both)
    assert proc.returncode in (130, -signal.SIGINT)
    assert err.splitlines() == [
        "error: interrupted: every file already written is whole; a batch goes on with --resume"
    ]
    made = json.loads((folder / "manifest.json").read_text())["packets"]
    assert all(sha(folder / entry["file"]) == entry["sha256"] for entry in made)
    assert not list(folder.glob(".*.part"))


def test_jobs_never_start_more_workers_than_packets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import generator.pdf.batch as batch_module

    started: list[int] = []
    real = batch_module.ProcessPoolExecutor

    def counting(max_workers: int) -> object:
        started.append(max_workers)
        return real(max_workers=max_workers)

    monkeypatch.setattr(batch_module, "ProcessPoolExecutor", counting)
    run_batch(tmp_path, BatchOptions("duel", 3, 2), jobs=100_000)
    assert started == [2]
