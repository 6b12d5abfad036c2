"""Convention batches: manifest, reproducibility, resume after loss or a killed run."""

from __future__ import annotations

import csv
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from generator.app.printed import batch_plan
from generator.errors import InputError
from generator.loading import load_rules
from generator.pdf.batch import BatchInterrupted, BatchOptions, batch_seeds, run_batch
from tests.conftest import CACHE, shared


def batch_in(folder: Path, options: BatchOptions, **kwargs: Any) -> dict[str, Any]:
    """Make a batch of `options` in `folder`, its scenarios rolled as the application
    layer rolls them."""
    return run_batch(folder, options, scenarios=lambda: batch_plan(load_rules(), options), **kwargs)


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_seeds_are_distinct_and_repeatable() -> None:
    assert batch_seeds(2026, 40) == batch_seeds(2026, 40)
    assert len(set(batch_seeds(2026, 500))) == 500
    assert batch_seeds(2026, 5) != batch_seeds(2027, 5)
    assert batch_seeds(2026, 10)[:5] == batch_seeds(2026, 5)


# A batch made once; every test below compares with it: a packet's bytes follow from the
# batch seed and its place in the batch, however and wherever it was made.
REFERENCE = BatchOptions(("convoy",), 9, 3)
COMMAND = [sys.executable, "-m", "generator", "batch", "convoy", "--count", "3", "--seed", "9"]


@pytest.fixture(scope="module")
def reference() -> tuple[Path, list[str]]:
    """The reference batch, made with the cache by two workers, once for every test process,
    and its packets' checksums."""
    folder = CACHE / "convoy-reference"

    def make() -> bytes:
        manifest = batch_in(folder, REFERENCE, jobs=2)
        return json.dumps([p["sha256"] for p in manifest["packets"]]).encode()

    return folder, json.loads(shared("convoy-reference", make))


def test_manifest_lists_every_packet_with_its_checksum(
    reference: tuple[Path, list[str]],
) -> None:
    folder, shas = reference
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["rulesets"] == ["convoy"] and manifest["seed"] == 9 and manifest["count"] == 3
    packets = manifest["packets"]
    assert isinstance(packets, list) and [p["index"] for p in packets] == [1, 2, 3]
    assert [p["seed"] for p in packets] == batch_seeds(9, 3)
    assert [p["sha256"] for p in packets] == shas
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


def test_the_same_batch_seed_gives_the_same_bytes_in_another_process_without_the_cache(
    reference: tuple[Path, list[str]], tmp_path: Path
) -> None:
    """Made with the cache by two workers, and again from the command line by one process
    without the cache under another hash seed: the same bytes. One packet is enough: the
    process lays out every page of it afresh, and a second costs as much again for no path
    the first did not take."""
    _, shas = reference
    command = ["batch", "convoy", "--count", "1", "--seed", "9", "--jobs", "1", "--no-cache"]
    subprocess.run(
        [sys.executable, "-m", "generator", *command, "-o", str(tmp_path)],
        check=True,
        capture_output=True,
        env={**os.environ, "PYTHONHASHSEED": "987"},
    )
    # a batch's first packets are those of a longer batch of the same seed
    assert [sha(path) for path in sorted(tmp_path.glob("*-convoy-*.pdf"))] == shas[:1]


def _wait_for_packets(folder: Path, least: int) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        manifest = folder / "manifest.json"
        if manifest.exists() and len(json.loads(manifest.read_text())["packets"]) >= least:
            return
        time.sleep(0.05)


def test_resume_keeps_whole_packets_and_remakes_the_rest(
    reference: tuple[Path, list[str]], tmp_path: Path
) -> None:
    made, shas = reference
    folder = tmp_path / "con"
    shutil.copytree(made, folder)
    files = sorted(folder.glob("*-convoy-*.pdf"))
    assert [sha(f) for f in files] == shas
    kept_mtime = files[0].stat().st_mtime_ns
    files[1].unlink()
    files[2].write_bytes(b"%PDF-1.7 truncated")
    with pytest.raises(InputError, match=r"already holds a batch .* add --resume"):
        batch_in(folder, REFERENCE)
    with pytest.raises(InputError, match=r"made with other options \(count\)"):
        batch_in(folder, BatchOptions(("convoy",), 9, 5), resume=True)
    resumed = batch_in(folder, REFERENCE, resume=True)
    assert files[0].stat().st_mtime_ns == kept_mtime
    assert [p["sha256"] for p in resumed["packets"]] == shas
    assert all(sha(f) == p["sha256"] for f, p in zip(files, resumed["packets"], strict=True))


def test_a_killed_batch_resumes_to_the_same_result(
    reference: tuple[Path, list[str]], tmp_path: Path
) -> None:
    # two of the reference's packets (a batch's first packets are those of a longer
    # batch): killed once the first is listed, while it makes the second, which the
    # resumed run makes
    _, shas = reference
    folder = tmp_path / "con"
    two = [("2" if word == "3" and COMMAND[i - 1] == "--count" else word)
           for i, word in enumerate(COMMAND)]  # fmt: skip
    command = [*two, "--jobs", "1", "-o", str(folder)]
    proc = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    _wait_for_packets(folder, 1)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    made = json.loads((folder / "manifest.json").read_text())["packets"]
    assert 1 <= len(made) <= 2  # the second as a rule; both, were the kill very late
    for entry in made:
        assert sha(folder / entry["file"]) == entry["sha256"] == shas[entry["index"] - 1]
    finished = subprocess.run([*command, "--resume"], capture_output=True, text=True, check=False)
    assert finished.returncode == 0, finished.stderr
    final = json.loads((folder / "manifest.json").read_text())["packets"]
    assert [p["sha256"] for p in final] == shas[:2]
    assert all(sha(folder / p["file"]) == p["sha256"] for p in final)
    assert not list(folder.glob(".*.part"))


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_stops_a_batch_leaving_only_listed_whole_packets(
    reference: tuple[Path, list[str]], tmp_path: Path
) -> None:
    # how soon it stops is measured in benchmarks/bench_interrupts.py, not asserted here
    _, shas = reference
    folder = tmp_path / "con"
    proc = subprocess.Popen(
        [*COMMAND[:6], "8", *COMMAND[7:], "--jobs", "2", "-o", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        # Ctrl-C as a terminal has it, whatever this test run inherited: a run started in
        # the background of a shell without job control (`pytest &`) ignores SIGINT, and so
        # would the batch, which then finished and exited 0
        preexec_fn=_default_sigint,
    )
    _wait_for_packets(folder, 1)
    # as a terminal's Ctrl-C does: to the parent and its workers alike
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=120)  # only a guard against a hang
    assert proc.returncode == 130
    made = json.loads((folder / "manifest.json").read_text())["packets"]
    assert err.splitlines() == [
        f"error: interrupted: {len(made)} of 8 packets are made and listed in "
        f"{folder / 'manifest.json'}; the same command with --resume makes the rest"
    ]
    time.sleep(0.5)  # a worker that went on would write after its parent ended
    for entry in made:
        assert sha(folder / entry["file"]) == entry["sha256"]
    assert sorted(f.name for f in folder.glob("*.pdf")) == sorted(e["file"] for e in made)
    assert not list(folder.glob(".*"))
    for entry in made:  # a batch's first packets are those of a shorter batch
        if entry["index"] <= len(shas):
            assert entry["sha256"] == shas[entry["index"] - 1]


def test_jobs_never_start_more_workers_than_packets(
    reference: tuple[Path, list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import generator.pdf.batch as batch_module

    started: list[int] = []
    real = batch_module.ProcessPoolExecutor

    def counting(max_workers: int, **options: object) -> object:
        started.append(max_workers)
        return real(max_workers=max_workers, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(batch_module, "ProcessPoolExecutor", counting)
    made = batch_in(tmp_path, BatchOptions(("convoy",), 9, 2), jobs=100_000)
    assert started == [2]
    assert [p["sha256"] for p in made["packets"]] == reference[1][:2]  # a batch's first ones


def test_a_ctrl_c_as_a_packet_is_committed_says_what_the_manifest_lists(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Ctrl-C that lands while a packet is renamed into place and entered in the manifest
    waits for that step, and the message then counts it, as the manifest does."""
    import generator.pdf.batch as batch_module

    options = BatchOptions(("duel",), 9, 4)

    def fake_run(
        options: BatchOptions, todo: list[int], scenarios: object, folder: Path, jobs: int
    ) -> Iterator[dict[str, Any]]:
        for index in todo:
            name = batch_module.packet_name("duel", index, batch_seeds(9, 4)[index])
            batch_module._staged(folder, name).write_bytes(b"%PDF-fake")
            yield {
                **dict.fromkeys(("seed", "sha256", "title"), ""),
                **{"index": index + 1, "file": name, "pages": 1, "sides": []},
            }

    written: list[int] = []
    real_write = batch_module._write_manifest

    def write_then_press(folder: Path, options: BatchOptions, entries: dict[int, Any]) -> None:
        real_write(folder, options, entries)
        written.append(len(entries))
        if len(entries) == 2:  # Ctrl-C while the second packet is being committed
            signal.raise_signal(signal.SIGINT)

    monkeypatch.setattr(batch_module, "_run", fake_run)
    monkeypatch.setattr(batch_module, "_write_manifest", write_then_press)
    with pytest.raises(BatchInterrupted, match=r"^interrupted: 2 of 4 packets are made") as caught:
        batch_in(tmp_path, options)
    assert written == [0, 1, 2]  # the step in progress was finished, no other was begun
    listed = json.loads((tmp_path / "manifest.json").read_text())["packets"]
    assert len(listed) == 2 and str(caught.value).startswith(f"interrupted: {len(listed)} of")
    assert sorted(p.name for p in tmp_path.glob("*.pdf")) == sorted(p["file"] for p in listed)


def test_a_ctrl_c_between_packets_stops_the_workers_before_the_folder_is_cleaned(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Ctrl-C that lands between two packets (here, in the progress callback) is raised in
    the loop that commits them, not in the pool: the pool must still be stopped before the
    folder is cleaned, or a worker writes its staged file after the clean-up (a .part was
    left behind in a CI run)."""
    import generator.pdf.batch as batch_module

    options = BatchOptions(("duel",), 9, 4)
    stopped: list[str] = []

    def fake_run(
        options: BatchOptions, todo: list[int], scenarios: object, folder: Path, jobs: int
    ) -> Iterator[dict[str, Any]]:
        try:
            for index in todo:
                name = batch_module.packet_name("duel", index, batch_seeds(9, 4)[index])
                batch_module._staged(folder, name).write_bytes(b"%PDF-fake")
                yield {
                    **dict.fromkeys(("seed", "sha256", "title"), ""),
                    **{"index": index + 1, "file": name, "pages": 1, "sides": []},
                }
        finally:
            # as a worker does until it is stopped: a staged file half written
            (folder / ".late.pdf.staged.part").write_bytes(b"%PDF-half")
            stopped.append("workers")

    def press(done: int, count: int) -> None:
        if done == 1:
            raise KeyboardInterrupt

    monkeypatch.setattr(batch_module, "_run", fake_run)
    with pytest.raises(BatchInterrupted, match=r"^interrupted: 1 of 4 packets are made"):
        batch_in(tmp_path, options, progress=press)
    assert stopped == ["workers"]
    assert not list(tmp_path.glob(".*")), "nothing staged is left behind"
