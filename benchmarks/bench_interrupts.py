"""Benchmark how soon refusals and interruptions answer: the timings the tests used to assert
(a loaded machine made them fail), measured here against their targets. Run on demand:

    python benchmarks/bench_interrupts.py

Prints, side by side with each target:
- Ctrl-C during an 8-packet duel batch with 2 jobs: from the key to the process's end
  (target at most 5 s: the packets in progress are dropped, not waited for);
- `quartermaster odds 200d100kh100` refused by the cost model, in a fresh process (target
  at most 5 s), and the same refusal in-process (target at most 0.5 s);
- the counting deadline of `odds` given an expression the model lets through, set to 0.3 s
  (target: given up between 0.25 and 2 s);
- an alias bomb and a 5 MiB file given to `scenario --from` (target at most 2 s each).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def ctrl_c_seconds() -> float:
    """Start a batch, press Ctrl-C (to the whole group) once a packet is listed: seconds
    until the process has ended."""
    with tempfile.TemporaryDirectory() as folder:
        manifest = Path(folder) / "con" / "manifest.json"
        command = ["batch", "duel", "--count", "8", "--seed", "9", "--jobs", "2"]
        proc = subprocess.Popen(
            [sys.executable, "-m", "generator", *command, "-o", str(Path(folder) / "con")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            cwd=ROOT,
            # Ctrl-C as a terminal has it, even where this benchmark was started in the
            # background of a shell without job control, which ignores SIGINT
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            if manifest.exists() and json.loads(manifest.read_text())["packets"]:
                break
            time.sleep(0.05)
        pressed = time.perf_counter()
        os.killpg(proc.pid, signal.SIGINT)
        proc.wait(timeout=300)
        return time.perf_counter() - pressed


def odds_cli_seconds() -> float:
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "generator", "odds", "200d100kh100"],
        capture_output=True,
        check=False,
        cwd=ROOT,
    )
    return time.perf_counter() - start


def odds_refusal_seconds() -> float:
    from generator.dice import DiceError, distribution

    start = time.perf_counter()
    with contextlib.suppress(DiceError):
        distribution("200d100kh100")
    return time.perf_counter() - start


def odds_deadline_seconds() -> float:
    """The cost model told to let anything through, the deadline set to 0.3 s."""
    from generator.dice import DiceError, distribution
    from generator.dice import odds as odds_module

    saved = odds_module.MAX_STEPS, odds_module.DEADLINE_SECONDS
    odds_module.MAX_STEPS, odds_module.DEADLINE_SECONDS = 10**30, 0.3
    start = time.perf_counter()
    try:
        distribution("200d100kh100")
    except DiceError:
        pass
    finally:
        odds_module.MAX_STEPS, odds_module.DEADLINE_SECONDS = saved
    return time.perf_counter() - start


def hostile_file_seconds() -> dict[str, float]:
    """`scenario tactical --from` an alias bomb and a 5 MiB file, in-process, the rules
    already loaded (as by an earlier command): the refusal alone, its message kept quiet."""
    from generator.cli import main
    from generator.loading import load_rules

    load_rules()

    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [{', '.join([f'*{prev}'] * 10)}]")
    out: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as folder:
        bomb = Path(folder) / "bomb.yaml"
        bomb.write_text("\n".join(lines) + "\n", encoding="utf-8")
        huge = Path(folder) / "huge.json"
        huge.write_text('{"title": "' + "x" * (5 * 1024 * 1024) + '"}', encoding="utf-8")
        for label, path in (("an alias bomb", bomb), ("a 5 MiB file", huge)):
            start = time.perf_counter()
            with contextlib.suppress(SystemExit), contextlib.redirect_stderr(io.StringIO()):
                main(["scenario", "tactical", "--from", str(path)])
            out[label] = time.perf_counter() - start
    return out


def row(label: str, value: float, target: float, low: float = 0.0) -> None:
    verdict = "ok" if low < value <= target else "OVER TARGET"
    print(f"{label:<68} {value:9.2f}   target {f'{low} to ' if low else '<= '}{target}: {verdict}")


def main() -> None:
    print(f"python {sys.version.split()[0]}; seconds")
    row("Ctrl-C during an 8-packet batch, 2 jobs: key to exit", ctrl_c_seconds(), 5)
    row("odds 200d100kh100 refused, fresh process", odds_cli_seconds(), 5)
    row("odds 200d100kh100 refused, in-process", odds_refusal_seconds(), 0.5)
    row("odds counting deadline of 0.3 s, given up after", odds_deadline_seconds(), 2, 0.25)
    for label, seconds in hostile_file_seconds().items():
        row(f"scenario --from {label}: refused after", seconds, 2)


if __name__ == "__main__":
    main()
